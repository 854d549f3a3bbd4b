#!/usr/bin/env bash
# Instructions (callgrind's Ir) of random playouts, game by game, for one or more troyka binaries:
# the exact, repeatable count the speed work compares before and after (docs/performance.md).
#
#   bench/instructions.sh BIN...        # 24 games, one column per BIN
#   GAMES="amazons:100 breakthrough:3000" bench/instructions.sh BIN...
#
# Each figure is `valgrind --tool=callgrind --callgrind-out-file=/dev/null BIN bench FILE
# --playouts N --seed 1`, start-up included. GAMES lists NAME:N, a file of games/ or, written
# bench/games/NAME, of bench/games/. Run from the repository's root; needs valgrind.
set -euo pipefail
games="${GAMES:-go:100 bench/games/alquerque-ludii:300 bench/games/nine-mens-morris-ludii:300 amazons:100
konane:300 peg-solitaire:2000 kalah:3000 pentago:1500 nine-mens-morris:300 international-draughts:300
hasami-shogi:30 minishogi:30 lines-of-action:200 othello:300 dobutsu-shogi:2000 chess:20 alquerque:1000
brandubh:200 english-draughts:300 breakthrough:3000 tablut:100 hex:300 connect6:100 gomoku:300}"
usage="usage: bench/instructions.sh BIN...  (the header of this file says more)"
case "${1:-}" in
  -h | --help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "$0"; exit 0 ;;
  "") echo "bench/instructions.sh: no troyka binary given; $usage" >&2; exit 2 ;;
esac
for bin in "$@"; do
  [ -x "$bin" ] || { echo "bench/instructions.sh: '$bin' is not an executable troyka binary; $usage" >&2; exit 2; }
done
command -v valgrind >/dev/null || { echo "bench/instructions.sh: needs valgrind (apt-get install valgrind)" >&2; exit 2; }
for game in $games; do
  name="${game%%:*}" playouts="${game##*:}"
  case "$name" in bench/*) file="$name.game" ;; *) file="games/$name.game" ;; esac
  line="$name $playouts"
  for bin in "$@"; do
    line="$line $(valgrind --tool=callgrind --callgrind-out-file=/dev/null "$bin" bench "$file" --playouts "$playouts" \
      --seed 1 2>&1 >/dev/null | sed -n 's/.*Collected : \([0-9]*\).*/\1/p')"
  done
  echo "$line"
done
