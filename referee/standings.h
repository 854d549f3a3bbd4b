// Scores and Elo: the arithmetic shared by `troyka match` (two agents) and the referee (a table of
// many), and the referee's standings table.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "lang/rules.h"

namespace troyka::referee {

// A difference in Elo and its 95% interval; infinite when the score (or a bound) is 0 or 1.
struct EloEstimate {
  double score = 0;       // the mean score per game: 1 a win, 0.5 a draw, 0 a loss
  double difference = 0;  // elo_from_score(score)
  double low = 0, high = 0;
};

// The Elo difference that predicts `score` as the expected score: -400 log10(1/score - 1);
// -inf at 0 and +inf at 1.
double elo_from_score(double score);

// The Elo difference a player's results show, with a 95% interval: with s the mean score of n
// games (draws 1/2), v the variance of the games' scores and z = 1.96, the Wilson interval
// c -/+ h where c = (s + z^2/2n) / (1 + z^2/n) and h = z / (1 + z^2/n) * sqrt(v/n + z^2/4n^2),
// mapped through elo_from_score. It stays inside (0, 1), so a clean sweep has a finite bound.
EloEstimate elo_estimate(int wins, int losses, int draws);

// "+190.8", or "+inf" / "-inf".
std::string elo_text(double elo);

// One agent's line in the standings.
struct Standing {
  std::string agent;
  int wins = 0, losses = 0, draws = 0;
  int forfeits = 0;  // games lost by forfeit, counted in `losses` too

  int games() const { return wins + losses + draws; }
  double score() const { return wins + 0.5 * draws; }
  // The Elo difference to the average of its opponents that its score shows.
  EloEstimate elo() const { return elo_estimate(wins, losses, draws); }
};

// The tournament table: every agent's results, best score first.
class Standings {
 public:
  explicit Standings(const std::vector<std::string>& agents);

  // A finished game: `agents` by player, `winner` a player or kDraw, `forfeiter` the player who
  // forfeited or -1.
  void add(const std::array<std::string, lang::kPlayers>& agents, int winner, int forfeiter);

  // By score, then by fewer games (a better rate), then by name.
  std::vector<Standing> ranked() const;
  // The table for people, a line per agent, ending in a newline.
  std::string table() const;
  // One line: "alice 3, bob 1.5, carol 0.5".
  std::string scores_line() const;

 private:
  Standing& find(const std::string& agent);

  std::vector<Standing> standings_;  // in the order of entry
};

}  // namespace troyka::referee
