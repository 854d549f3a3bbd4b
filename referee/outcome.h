// How the end of a game is written everywhere (records, results files, protocol messages): the
// result tokens of PGN, the players' ranks and the points they give, the winner by player name,
// and UTC timestamps.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "lang/rules.h"

namespace troyka::referee {

// "1-0" (the first player won), "0-1" (the second), "1/2-1/2" (a draw).
inline constexpr std::array<std::string_view, 3> kResultTokens{"1-0", "0-1", "1/2-1/2"};

// The result token of a game that ended with `winner` (a player or kDraw).
std::string result_token(int winner);

// The player a result token names as the winner (kDraw for a draw), or -1 for no token.
int winner_of_result_token(std::string_view token);

// Each player's place in a game, by player, from 1; tied players share a place (1 2 2, not 1 2 3).
// A two-player game's winner is 1 and loser 2; a draw is 1 1.
using Ranks = std::vector<int>;

// The ranks of a game as the program ranks the players (Program::rank). A game stopped before its
// end ranks those still playing together, above those out.
template <class Program>
Ranks ranks_of(const Program& program, const typename Program::StateType& state) {
  Ranks ranks;
  for (int player = 0; player < program.player_count(); ++player) ranks.push_back(program.rank(state, player));
  return ranks;
}

// The player ranked first alone, or kDraw when first place is shared.
int winner_of(const Ranks& ranks);

// What a game is worth to `player`: (the players ranked below it + half those tied with it) / (n - 1),
// the agents' utility (Program::utility). 1, 0.5 and 0 for a win, a draw and a loss of two players;
// the points of a game of n players add up to n / 2.
double rank_points(const Ranks& ranks, int player);

// How a game counts for `player` in a tally of wins, losses and draws: a win when it is ranked
// first alone, a loss when last alone, a draw otherwise (with more than two players: a place
// between, or a place shared).
enum class Verdict { Win, Loss, Draw };
Verdict verdict_of(const Ranks& ranks, int player);

// The result token: with two players 1-0, 0-1 or 1/2-1/2; with more, the ranks in player order
// joined by '-', e.g. 2-1-3 (the second player first, the first second, the third last).
std::string result_token(const Ranks& ranks);

// The ranks a result token of a game of `players` players gives, or none when it is not one.
Ranks ranks_of_result_token(std::string_view token, int players);

// Whether `token` reads as the ranks of a game of more than two players: three or more whole
// numbers from 1 joined by '-'.
bool is_ranks_token(std::string_view token);

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
