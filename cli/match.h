// `troyka match`: one agent per player of the game plays a series of games, the seats rotating from
// game to game, several at once; the result is a table of wins, losses and draws, a score (rank
// points, referee::rank_points), with two agents an Elo difference, and optionally one record per
// game (cli/record.h).
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "cli/commands.h"
#include "referee/outcome.h"

namespace troyka::cli {

struct MatchOptions {
  std::vector<std::string> agents;  // one agent spec per player of the game: A, B, C...
  int games = 10;
  int parallel = 1;     // games played at once, one thread each
  std::string records;  // the directory for one record per game; "" for none
  // Game i (from 0) of a game of n players has seed SEED + n*i: its first player's agent gets that
  // seed, the second's one more and so on, as `troyka play --seed` does, so a record's Seed header
  // replays the game in `play`.
  std::uint64_t seed = 1;
  // A game still going at this ply (by default the game's playout cap) is stopped there as a draw
  // (referee::ply_cap_reason).
  MaxPlies max_plies;
};

// Plays the match on the game in `game`: the summary goes to `out` (JSON with game.json), progress
// to `log`, which is taken to be stderr: a live line when stderr is a terminal, a line per game
// otherwise. Returns the exit code; bad options and rule-file errors arrive as lang::Error.
int run_match(const GameOptions& game, const MatchOptions& match, std::ostream& out, std::ostream& log);

}  // namespace troyka::cli
