#!/usr/bin/env bash
# The referee's figures for docs/performance.md, over TCP on loopback:
#   1. round trip: two agents, one match at a time: how soon a move comes back after its request;
#   2. throughput: AGENTS agents in a round robin, each playing CONCURRENT matches at once: moves
#      relayed a second, and the referee's own processor time a move.
# The agents are `troyka agent --agent random`, which answer at once, so a reply's time is the round
# trip (both ZeroMQ hops, JSON both ways, and the agent following the moves) and not thinking.
# Each scenario prints the referee's closing line (referee/load_stats.h).
#
#   bench/referee_load.sh [AGENTS (default 20)] [CONCURRENT (default 4)] [GAMES a pairing (default 2)]
set -euo pipefail
cd "$(dirname "${BASH_SOURCE[0]}")/.."
troyka="$PWD/build/troyka"
[ -x "$troyka" ] || { echo "referee_load: build first (scripts/setup build)" >&2; exit 1; }
agents="${1:-20}" concurrent="${2:-4}" games="${3:-2}"
work="$(mktemp -d)"
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT

# tournament NAME PORT AGENT_COUNT CONCURRENT GAMES: runs one and prints the referee's figures.
tournament() {
  local name="$1" port="$2" count="$3" per_agent="$4" per_pairing="$5"
  "$troyka" referee --bind "tcp://127.0.0.1:$port" --game games/breakthrough.game --time 10s \
    --expect "$count" --games "$per_pairing" --concurrent-per-agent "$per_agent" \
    --results "$work/$name.jsonl" >"$work/$name.out" 2>"$work/$name.log" &
  local referee=$!
  for ((i = 1; i <= count; i++)); do
    "$troyka" agent --connect "tcp://127.0.0.1:$port" --name "agent$i" --agent "random:seed=$i" \
      2>"$work/$name-agent$i.log" &
  done
  wait "$referee" || { echo "referee_load: the referee failed:" >&2; cat "$work/$name.log" >&2; exit 1; }
  echo "$name ($count agents, $per_agent match(es) each at once, $(grep -c '"plies"' "$work/$name.jsonl") games):"
  grep '^relayed ' "$work/$name.log"
}

tournament round-trip 25871 2 1 100
tournament throughput 25872 "$agents" "$concurrent" "$games"
wait
