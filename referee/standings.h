// Scores and Elo: the arithmetic shared by `troyka match` (two agents) and the referee (a table of
// many), and the referee's standings table.
#pragma once

#include <string>
#include <vector>

#include "lang/rules.h"
#include "referee/outcome.h"

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

// One agent's line in the standings. With more than two players a win is a game ranked first
// alone, a loss one ranked last alone, and a draw any other (as `troyka match` counts them); the
// score adds up the games' rank points (outcome.h), which with two players is wins + draws / 2.
struct Standing {
  std::string agent;
  int wins = 0, losses = 0, draws = 0;
  int forfeits = 0;  // games it forfeited (with two players counted in `losses` too)
  double points = 0;

  int games() const { return wins + losses + draws; }
  double score() const { return points; }
  // The Elo difference to the average of its opponents that its score shows (two players only).
  EloEstimate elo() const { return elo_estimate(wins, losses, draws); }
};

// The tournament table: every agent's results, best score first.
class Standings {
 public:
  // The agents of a tournament of a game of `players` players. The table shows Elo only with two:
  // with more, a game is not a duel, and one number per agent would hide whom it beat.
  explicit Standings(const std::vector<std::string>& agents, int players = 2);

  // A finished game: `agents` and `ranks` by player, `forfeiters` the players who forfeited.
  void add(const std::vector<std::string>& agents, const Ranks& ranks, const std::vector<int>& forfeiters);

  // By score, then by fewer games (a better rate), then by name.
  std::vector<Standing> ranked() const;
  // The table for people, a line per agent, ending in a newline.
  std::string table() const;
  // One line: "alice 3, bob 1.5, carol 0.5".
  std::string scores_line() const;

 private:
  Standing& find(const std::string& agent);

  std::vector<Standing> standings_;  // in the order of entry
  bool elo_ = true;
};

}  // namespace troyka::referee
