#!/usr/bin/env bash
# Do troyka's agents keep a referee's clock? A round robin of 8x8 Breakthrough over TCP on loopback
# between two `troyka agent` clients that think until their clock says stop, then the referee's
# view of it: games lost on time, and every reply's time (from the results' times_ms, in whole
# milliseconds) against the clock.
#
#   bench/clock_tournament.sh [TIME (default 100ms)] [GAMES (default 20)] [AGENT_A (default mcts)] [AGENT_B (default mcts)]
#
# e.g. bench/clock_tournament.sh 1s 20 mcts mcts:threads=2
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
troyka="${TROYKA:-$PWD/build/troyka}"  # TROYKA=path measures another build
[ -x "$troyka" ] || { echo "clock_tournament: build first (scripts/setup build)" >&2; exit 1; }
time="${1:-100ms}" games="${2:-20}" agent_a="${3:-mcts}" agent_b="${4:-mcts}"
work="$(mktemp -d)"
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
port=25873

"$troyka" referee --bind "tcp://127.0.0.1:$port" --game games/breakthrough.game --time "$time" \
  --agents a b --games "$games" --results "$work/results.jsonl" >"$work/referee.out" 2>"$work/referee.log" &
referee=$!
"$troyka" agent --connect "tcp://127.0.0.1:$port" --name a --agent "$agent_a" 2>"$work/a.log" &
"$troyka" agent --connect "tcp://127.0.0.1:$port" --name b --agent "$agent_b" 2>"$work/b.log" &
wait "$referee" || { echo "clock_tournament: the referee failed:" >&2; cat "$work/referee.log" >&2; exit 1; }

python3 - "$work/results.jsonl" "$time" "$agent_a" "$agent_b" <<'EOF'
import json, math, sys
path, clock, agent_a, agent_b = sys.argv[1:]
games = [line for line in map(json.loads, open(path)) if "plies" in line]
limit = float(clock[:-2]) if clock.endswith("ms") else 1000 * float(clock[:-1])
forfeits = [g["forfeit"]["code"] for g in games if g.get("forfeit")]
times = sorted(t for g in games for t in g["times_ms"])
def pct(share):
    return times[max(1, math.ceil(share * len(times))) - 1]
print(f"{len(games)} games, a = {agent_a}, b = {agent_b}, {clock} a move: "
      f"{len(forfeits)} forfeit(s) {sorted(set(forfeits)) if forfeits else ''}")
print(f"{len(times)} replies: median {pct(0.5)} ms, p99 {pct(0.99)} ms, p99.9 {pct(0.999)} ms, "
      f"max {times[-1]} ms, {limit - times[-1]:.0f} ms to spare at the slowest")
EOF
