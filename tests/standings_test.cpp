// Scores and Elo: the arithmetic `troyka match` and the referee share, and the referee's table.
#include "referee/standings.h"

#include <gtest/gtest.h>

#include <cmath>
#include <string>

#include "interpreter/program.h"

namespace {

// ---- Elo ------------------------------------------------------------------------------------------

TEST(Elo, FromScoreIsTheLogisticInverse) {
  EXPECT_NEAR(troyka::referee::elo_from_score(0.75), 190.8485, 1e-4);
  EXPECT_NEAR(troyka::referee::elo_from_score(0.25), -190.8485, 1e-4);
  EXPECT_NEAR(troyka::referee::elo_from_score(0.9), 381.6970, 1e-4);
  EXPECT_EQ(troyka::referee::elo_from_score(0.5), 0.0);
  EXPECT_EQ(troyka::referee::elo_from_score(1.0), INFINITY);
  EXPECT_EQ(troyka::referee::elo_from_score(0.0), -INFINITY);
}

TEST(Elo, IntervalComesFromThePerGameVariance) {
  // 60 wins, 20 losses, 20 draws: s = 0.7, variance 0.16; Wilson's interval with that variance
  // is 0.6148 to 0.7726 (worked out by hand from the formula in standings.h).
  const troyka::referee::EloEstimate elo = troyka::referee::elo_estimate(60, 20, 20);
  EXPECT_DOUBLE_EQ(elo.score, 0.7);
  EXPECT_NEAR(elo.difference, 147.1907, 1e-4);
  EXPECT_NEAR(elo.low, 81.2705, 1e-4);
  EXPECT_NEAR(elo.high, 210.2314, 1e-4);
  // 190 wins, 10 losses (the mcts-uct match of docs/strength.md).
  const troyka::referee::EloEstimate strong = troyka::referee::elo_estimate(190, 10, 0);
  EXPECT_NEAR(strong.low, 402.8162, 1e-4);
  EXPECT_NEAR(strong.high, 620.1866, 1e-4);
}

TEST(Elo, IntervalsStayFiniteOnTheSideTheGamesLeaveOpen) {
  // 3 wins, 1 loss: few games, a wide interval, but inside (0, 1).
  const troyka::referee::EloEstimate some = troyka::referee::elo_estimate(3, 1, 0);
  EXPECT_NEAR(some.difference, 190.8485, 1e-4);
  EXPECT_NEAR(some.low, -146.6601, 1e-4);
  EXPECT_NEAR(some.high, 528.3571, 1e-4);
  // A clean sweep: no finite estimate, but a finite bound on the other side.
  const troyka::referee::EloEstimate sweep = troyka::referee::elo_estimate(200, 0, 0);
  EXPECT_EQ(sweep.difference, INFINITY);
  EXPECT_NEAR(sweep.low, 686.6135, 1e-4);
  EXPECT_EQ(sweep.high, INFINITY);
  const troyka::referee::EloEstimate all = troyka::referee::elo_estimate(0, 5, 0);
  EXPECT_EQ(all.score, 0.0);
  EXPECT_EQ(all.difference, -INFINITY);
  EXPECT_EQ(all.low, -INFINITY);
  EXPECT_NEAR(all.high, -45.7895, 1e-4);
  // Every game drawn: even, and four games cannot say it is closer than this.
  const troyka::referee::EloEstimate even = troyka::referee::elo_estimate(0, 0, 4);
  EXPECT_EQ(even.difference, 0.0);
  EXPECT_NEAR(even.low, -186.1965, 1e-4);
  EXPECT_NEAR(even.high, 186.1965, 1e-4);
}

// ---- standings -----------------------------------------------------------------------------------

TEST(Standings, CountEveryGameForBothAgentsAndRankByScore) {
  troyka::referee::Standings standings({"alice", "bob", "carol"});
  standings.add({"alice", "bob"}, {1, 2}, {});   // alice (first player) wins
  standings.add({"bob", "alice"}, {1, 1}, {});   // a draw
  standings.add({"carol", "bob"}, {2, 1}, {0});  // carol forfeits: bob wins
  const auto ranked = standings.ranked();
  ASSERT_EQ(ranked.size(), 3u);
  EXPECT_EQ(ranked[0].agent, "alice");
  EXPECT_EQ(ranked[0].wins, 1);
  EXPECT_EQ(ranked[0].draws, 1);
  EXPECT_DOUBLE_EQ(ranked[0].score(), 1.5);
  EXPECT_EQ(ranked[1].agent, "bob");
  EXPECT_EQ(ranked[1].games(), 3);
  EXPECT_DOUBLE_EQ(ranked[1].score(), 1.5);  // the same score in more games ranks lower
  EXPECT_EQ(ranked[2].agent, "carol");
  EXPECT_EQ(ranked[2].losses, 1);
  EXPECT_EQ(ranked[2].forfeits, 1);
  EXPECT_EQ(standings.scores_line(), "alice 1.5, bob 1.5, carol 0");
}

TEST(Standings, TableShowsScoreAndEloWithItsInterval) {
  troyka::referee::Standings standings({"alice", "bob"});
  for (int game = 0; game < 3; ++game) standings.add({"alice", "bob"}, {1, 2}, {});
  standings.add({"bob", "alice"}, {1, 2}, {});
  EXPECT_EQ(standings.table(),
            "rank agent  games  wins losses draws forfeits  score             Elo (95% interval)\n"
            "1    alice      4     3      1     0        0  3/4 (75.0%)       +190.8 (-146.7 to +528.4)\n"
            "2    bob        4     1      3     0        0  1/4 (25.0%)       -190.8 (-528.4 to +146.7)\n");
  troyka::referee::Standings sweep({"alice", "bob"});
  sweep.add({"alice", "bob"}, {1, 2}, {});
  const std::string table = sweep.table();
  EXPECT_NE(table.find("alice      1     1      0     0        0  1/1 (100.0%)      +inf (-233.8 to +inf)\n"),
            std::string::npos)
      << table;
  EXPECT_NE(table.find("-inf (-inf to +233.8)\n"), std::string::npos) << table;
}

// With three players: rank points add up, W-L-D is first alone / last alone / other, and the
// table has no Elo column.
TEST(Standings, ThreePlayersScoreByRankPoints) {
  troyka::referee::Standings standings({"a", "b", "c"}, 3);
  standings.add({"a", "b", "c"}, {2, 1, 3}, {2});  // c forfeited, last
  standings.add({"c", "a", "b"}, {1, 2, 2}, {});   // c first alone, a and b tied last
  const auto ranked = standings.ranked();
  EXPECT_EQ(ranked[0].agent, "b");
  EXPECT_DOUBLE_EQ(ranked[0].score(), 1.25);
  EXPECT_EQ(ranked[0].wins, 1);
  EXPECT_EQ(ranked[0].draws, 1);
  EXPECT_EQ(ranked[1].agent, "c");
  EXPECT_DOUBLE_EQ(ranked[1].score(), 1);
  EXPECT_EQ(ranked[1].losses, 1);
  EXPECT_EQ(ranked[1].forfeits, 1);
  EXPECT_DOUBLE_EQ(ranked[2].score(), 0.75);
  EXPECT_EQ(standings.table(),
            "rank agent  games  wins losses draws forfeits  score\n"
            "1    b          2     1      0     1        0  1.25/2 (62.5%)\n"
            "2    c          2     1      1     0        1  1/2 (50.0%)\n"
            "3    a          2     0      0     2        0  0.75/2 (37.5%)\n");
}

}  // namespace
