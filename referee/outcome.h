// How the end of a game is written everywhere (records, results files, protocol messages): the
// result tokens of PGN, the winner by player name, and UTC timestamps.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>

#include "lang/rules.h"

namespace troyka::referee {

// "1-0" (the first player won), "0-1" (the second), "1/2-1/2" (a draw).
inline constexpr std::array<std::string_view, 3> kResultTokens{"1-0", "0-1", "1/2-1/2"};

// The result token of a game that ended with `winner` (a player or kDraw).
std::string result_token(int winner);

// The player a result token names as the winner (kDraw for a draw), or -1 for no token.
int winner_of_result_token(std::string_view token);

// The winning player's name, "draw", or "none" while the game goes on.
std::string winner_name(const lang::Rules& rules, int winner);

// A game still going at a ply cap (by default the game's playout cap, lang::playout_cap) is stopped
// there as a draw, so that a game that never ends cannot hang a match, a game of `play` or a
// tournament. The reason of a game stopped after `plies` plies: "ply cap 2000 reached". Records
// carry it, and `troyka replay` accepts a game that ends unfinished with it.
std::string ply_cap_reason(std::uint32_t plies);

// Now, in UTC, ISO 8601: "2026-11-22T05:57:13Z".
std::string utc_now();

}  // namespace troyka::referee
