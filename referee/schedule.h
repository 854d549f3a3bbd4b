// Which games a tournament plays: every pairing of its format, `games_per_pairing` times, colours
// alternated, numbered once and for all so a resumed tournament knows which games it has.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "lang/rules.h"

namespace troyka::referee {

enum class Format {
  RoundRobin,  // every two agents
  Gauntlet,    // the first agent against each of the others
};
const char* format_name(Format format);  // "round-robin", "gauntlet"
std::optional<Format> parse_format(std::string_view name);

struct ScheduledGame {
  int number = 0;                                  // from 1
  std::array<std::string, lang::kPlayers> agents;  // by player: the first player's agent first
};

// Round k (from 0) plays every pairing once, in order; in round k a pairing's first agent plays the
// first player when k is even. The numbers run round by round.
std::vector<ScheduledGame> make_schedule(Format format, const std::vector<std::string>& agents, int games_per_pairing);

}  // namespace troyka::referee
