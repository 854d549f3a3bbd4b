// Which games a tournament plays: every pairing of its format (every set of as many agents as the
// game has players), `games_per_pairing` times, seats rotated, numbered once and for all so a
// resumed tournament knows which games it has.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lang/rules.h"

namespace troyka::referee {

enum class Format {
  RoundRobin,  // every set of n agents for a game of n players
  Gauntlet,    // every such set that holds the first agent
};
const char* format_name(Format format);  // "round-robin", "gauntlet"
std::optional<Format> parse_format(std::string_view name);

struct ScheduledGame {
  int number = 0;                   // from 1
  std::vector<std::string> agents;  // by player: the first player's agent first
};

// The pairings of a game of `players` players are the sets of that many agents, in lexicographic
// order of the agents' indices. Round k (from 0) plays every pairing once, in order, rotated by k:
// the pairing's i-th agent plays player (i + k) mod n. So over n rounds (any multiple of n) every
// agent of a pairing plays every seat once; with two players the colours alternate round by round.
// The numbers run round by round.
std::vector<ScheduledGame> make_schedule(Format format, const std::vector<std::string>& agents, int games_per_pairing,
                                         int players = 2);

}  // namespace troyka::referee
