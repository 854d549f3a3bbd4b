#!/usr/bin/env bash
# Random playouts/s, troyka against Ludii, game by game, on this machine.
#
#   bench/versus-ludii.sh LUDII_JAR [SECONDS] [GAME...]
#
# LUDII_JAR is a built Ludii.jar (or a classpath holding Ludii's classes and its lud/ files).
# SECONDS (default 20) is each side's measuring time per game; Ludii warms up (JIT) for
# WARMUP seconds first (default 10). GAME picks rows by troyka file name (default: all): a file of
# games/, or of bench/games/ for a game written as Ludii plays it (nine-mens-morris-ludii: the
# removal after a mill a decision of its own; alquerque-ludii: Ludii's default rules, steps and
# single jumps any way, capture not compulsory). Hasami Shogi has a second row with Ludii's length.
# OWN_TIMER=0 skips the run of Ludii's own timer (the last column), which doubles Ludii's time.
# troyka is build/troyka (or $TROYKA), built with -DCMAKE_BUILD_TYPE=Release.
#
# Ludii is not part of this repository and nothing here builds it: take a Ludii.jar from Ludii's
# downloads page, or build one from Ludii's public source as its own README describes, outside
# this tree (docs/performance.md names the commit measured). Java 8 or later runs it.
#
# Both sides run uniformly random playouts from the start to the end of the game, one thread.
# Ludii: its own timer (`java -jar Ludii.jar --time-playouts`, PlayoutsPerSec: game.start, then
# game.playout with no move selector, wall clock) where the game is Ludii's default or one of
# its rulesets; for the games that need other options (board size, swap rule, end rule) a
# small driver below runs the same loop with those options (it runs for every game, and its
# figure is the "ludii" column). On a loaded machine wall-clock rates depend on the share of a
# core each process got, so the "cpu" columns divide by CPU time instead: troyka's whole process
# (/usr/bin/time, start-up included), and Ludii's whole JVM (process: its JIT and garbage
# collector threads included) or its playout thread alone (thread); the two bound the fair
# figure. "plies" is the mean playout length on each side (Ludii's counts every move of a turn
# and none of its set-up placements).
set -euo pipefail
usage="usage: bench/versus-ludii.sh LUDII_JAR [SECONDS] [GAME...]  (the header of this file says more)"
die() { echo "bench/versus-ludii.sh: $*" >&2; exit 2; }
case "${1:-}" in
  -h | --help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
  "") die "no Ludii jar given; $usage" ;;
esac
jar="$1"
secs="${2:-20}"
shift $(( $# >= 2 ? 2 : 1 ))
warmup="${WARMUP:-10}"
root="$(cd "$(dirname "$0")/.." && pwd)"
troyka="${TROYKA:-$root/build/troyka}"
[ -e "$jar" ] || die "'$jar' does not exist: give the path of a built Ludii.jar; $usage"
[[ "$secs" =~ ^[1-9][0-9]*$ ]] || die "SECONDS must be a whole number of seconds above 0, not '$secs'; $usage"
[ -x "$troyka" ] || die "'$troyka' is not built: run scripts/setup build, or set TROYKA"
command -v java >/dev/null || die "java is not installed (Debian: apt-get install default-jre-headless)"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# troyka file | troyka arguments | Ludii game (path under lud/) | Ludii ruleset or options (;)
pairs=(
  "breakthrough|-|board/race/reach/Breakthrough.lud|-"
  "chess|-|board/war/replacement/checkmate/chess/Chess.lud|-"
  "english-draughts|-|board/war/leaping/diagonal/English Draughts.lud|-"
  "othello|-|board/space/territory/Reversi.lud|-"
  "connect-four|-|board/space/line/Connect Four.lud|-"
  "tic-tac-toe|-|board/space/line/Tic-Tac-Toe.lud|-"
  "hex|-|board/space/connection/Hex.lud|Swap Rules/Off"
  "gomoku|--variant standard|board/space/line/Gomoku.lud|-"
  "gomoku|-|board/space/line/Gomoku.lud|End Rules/Free-style"
  "amazons|-|board/space/blocking/Amazons.lud|-"
  "konane|-|board/war/leaping/orthogonal/Konane.lud|ruleset:Ruleset/8x8 Konane (Suggested)"
  "clobber|-|board/war/replacement/stalemate/Clobber.lud|Rows/5;Columns/6"
  "knightthrough|-|board/race/reach/Knightthrough.lud|-"
  "hasami-shogi|-|board/war/replacement/checkmate/shogi/Hasami Shogi.lud|-"
  "hasami-shogi|--param limit=2500 --max-plies 2500|board/war/replacement/checkmate/shogi/Hasami Shogi.lud|-"
  "tablut|-|board/war/custodial/Tablut.lud|-"
  "brandubh|-|board/war/custodial/Brandub.lud|-"
  "nine-mens-morris|-|board/space/line/Nine Men's Morris.lud|-"
  "nine-mens-morris-ludii|-|board/space/line/Nine Men's Morris.lud|-"
  "connect6|-|board/space/line/Connect6.lud|-"
  "minishogi|-|board/war/replacement/checkmate/shogi/Minishogi.lud|-"
  "go|-|board/space/territory/Go.lud|Board Size/9x9"
  "lines-of-action|-|board/space/group/Lines of Action.lud|End rules/Simultaneous Group = Mover Win"
  "pentago|-|board/space/line/Pentago.lud|-"
  "kalah|-|board/sow/two_rows/Kalah.lud|-"
  "international-draughts|-|board/war/leaping/diagonal/International Draughts.lud|-"
  "dobutsu-shogi|-|board/war/replacement/eliminate/target/Let's Catch the Lion.lud|-"
  "alquerque|-|board/war/leaping/lines/Alquerque.lud|ruleset:Ruleset/Murray (Suggested)"
  "alquerque-ludii|-|board/war/leaping/lines/Alquerque.lud|-"
  "peg-solitaire|-|puzzle/planning/Peg Solitaire.lud|Known Variants/English"
)
games=" $(printf '%s\n' "${pairs[@]}" | cut -d'|' -f1 | awk '!seen[$0]++' | tr '\n' ' ')"  # a game of two rows once
for wanted in "$@"; do
  [[ "$games" == *" $wanted "* ]] || die "no row for '$wanted'; the games are:$games"
done

# The driver: Ludii's PlayoutsPerSec loop, with game options, timing wall clock, the CPU time of
# the whole process (its JIT and garbage collector threads included) and that of its thread.
cat >"$work/VersusLudii.java" <<'JAVA'
import java.lang.management.ManagementFactory;
import java.util.*;
import java.util.concurrent.ThreadLocalRandom;
import game.Game;
import other.GameLoader;
import other.context.Context;
import other.trial.Trial;

public class VersusLudii {
  public static void main(String[] a) {
    String name = a[0], opts = a[3];
    Game game = opts.startsWith("ruleset:") ? GameLoader.loadGameFromName(name, opts.substring(8))
        : GameLoader.loadGameFromName(name, opts.equals("-") ? new ArrayList<>() : Arrays.asList(opts.split(";")));
    Context context = new Context(game, new Trial(game));
    long end = System.nanoTime() + Long.parseLong(a[1]) * 1_000_000_000L;
    while (System.nanoTime() < end) {  // warm-up
      game.start(context);
      game.playout(context, null, 1.0, null, -1, -1, ThreadLocalRandom.current());
    }
    System.gc();
    Random rng = new Random(1);
    var os = (com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
    var thread = ManagementFactory.getThreadMXBean();
    long playouts = 0, moves = 0, cpu0 = os.getProcessCpuTime(), tcpu0 = thread.getCurrentThreadCpuTime();
    long t0 = System.nanoTime(), t = t0;
    end = t0 + Long.parseLong(a[2]) * 1_000_000_000L;
    while (t < end) {
      game.start(context);
      game.playout(context, null, 1.0, null, -1, -1, rng);
      moves += context.trial().numberRealMoves();  // plies, without the set-up placements
      ++playouts;
      t = System.nanoTime();
    }
    double wall = (t - t0) / 1e9, cpu = (os.getProcessCpuTime() - cpu0) / 1e9;
    double tcpu = (thread.getCurrentThreadCpuTime() - tcpu0) / 1e9;
    System.out.printf("%.1f %.1f %.1f %.1f%n", playouts / wall, playouts / cpu, playouts / tcpu, (double) moves / playouts);
  }
}
JAVA
javac -nowarn -cp "$jar" -d "$work" "$work/VersusLudii.java" 2>"$work/javac.log" ||
  die "could not compile the Ludii driver against '$jar' (is it a built Ludii.jar?): $(head -n 3 "$work/javac.log")"

echo "# $(date -u '+%F %H:%M UTC'), $(nproc) cores, load before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "# troyka bench --seconds $secs --seed 1; Ludii warm-up ${warmup}s, measure ${secs}s; one thread each"
printf '%-26s %9s %8s %5s | %9s %8s %8s %5s %5s | %13s | %s\n' game troyka ludii ratio \
  troyka-cpu ludii-pr ludii-th r-pr r-th plies ludii-own
for pair in "${pairs[@]}"; do
  IFS='|' read -r file targs lud opts <<<"$pair"
  if [ "$#" -gt 0 ] && ! printf '%s\n' "$@" | grep -qx "$file"; then continue; fi
  [ "$targs" = "-" ] && targs=""
  # troyka: wall-clock rate from its bench, CPU rate from the process's user+sys time (start-up included).
  rules="$root/games/$file.game"
  [ -e "$rules" ] || rules="$root/bench/games/$file.game"  # a game written as Ludii plays it
  /usr/bin/time -f '%U %S' -o "$work/time" "$troyka" bench "$rules" $targs \
    --seconds "$secs" --seed 1 --json >"$work/troyka.json"
  t_wall=$(sed -n 's/.*"playouts_per_second":\([0-9.]*\).*/\1/p' "$work/troyka.json")
  t_n=$(sed -n 's/.*"playouts":\([0-9]*\).*/\1/p' "$work/troyka.json")
  t_cpu=$(awk -v n="$t_n" '{ print n / ($1 + $2) }' "$work/time")
  # Ludii: the driver (all games), and Ludii's own timer where no option is needed.
  t_plies=$(sed -n 's/.*"plies_per_playout":\([0-9.]*\).*/\1/p' "$work/troyka.json")
  read -r l_wall l_cpu l_tcpu l_plies < <(java -cp "$jar:$work" VersusLudii "/lud/$lud" "$warmup" "$secs" "$opts" \
    2>"$work/ludii.err" | tail -1) || { echo "$file: Ludii failed: $(tail -1 "$work/ludii.err")"; continue; }
  l_own="-"
  if [ "$opts" = "-" ] && [ "${OWN_TIMER:-1}" = 1 ]; then
    java -jar "$jar" --time-playouts --warming-up-secs "$warmup" --measure-secs "$secs" --seed 1 \
      --game-names "/lud/$lud" --export-csv "$work/own.csv" >/dev/null 2>&1 || true
    l_own=$(awk -F, 'NR == 2 { printf "%.1f", $2 }' "$work/own.csv" 2>/dev/null || echo failed)
    rm -f "$work/own.csv"
  fi
  label="$file${targs:+ $targs}"
  awk -v g="$label" -v tw="$t_wall" -v lw="$l_wall" -v tc="$t_cpu" -v lc="$l_cpu" -v lt="$l_tcpu" \
      -v o="$l_own" -v tp="$t_plies" -v lp="$l_plies" 'BEGIN {
    printf "%-26s %9.0f %8.1f %5.0f | %9.0f %8.1f %8.1f %5.0f %5.0f | %6.1f/%-6.1f | %s\n",
      g, tw, lw, tw / lw, tc, lc, lt, tc / lc, tc / lt, tp, lp, o }'
done
echo "# load after: $(cut -d' ' -f1-3 /proc/loadavg)"
