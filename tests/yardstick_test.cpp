// Checks the hand-written Breakthrough yardstick: exact perft counts from the start position and sane
// random playouts. The engine only serves benchmarks, but a wrong yardstick would make them lie.
#include "bench/yardstick.h"

#include <gtest/gtest.h>

#include <cstdint>

namespace troyka::yardstick {
namespace {

// No game can end before ply 11 (White's sixth move at the earliest reaches rank 8), so these counts
// do not depend on how terminal positions are treated.
TEST(YardstickPerft, MatchesKnownCountsFromTheStart) {
  EXPECT_EQ(perft(1), 22u);
  EXPECT_EQ(perft(2), 484u);
  EXPECT_EQ(perft(3), 11132u);
  EXPECT_EQ(perft(4), 256036u);
  EXPECT_EQ(perft(5), 6182818u);
}

// About 0.2 s in an -O2 build.
TEST(YardstickPerft, MatchesKnownCountAtDepthSix) { EXPECT_EQ(perft(6), 149264638u); }

TEST(YardstickPlayouts, EveryGameEndsWithOneWinner) {
  const PlayoutStats stats = run_playouts(1000, 42);
  EXPECT_EQ(stats.playouts, 1000u);
  EXPECT_EQ(stats.wins[0] + stats.wins[1], stats.playouts);
  EXPECT_GE(stats.seconds, 0.0);
}

// Random games average about 64.1 plies (standard deviation about 16 per game, so about 0.5 for a mean
// over 1000 games), and White, moving first, wins about 51% of them.
TEST(YardstickPlayouts, GameLengthsAndWinSharesArePlausible) {
  const PlayoutStats stats = run_playouts(1000, 42);
  const double average_plies = static_cast<double>(stats.plies) / static_cast<double>(stats.playouts);
  EXPECT_GT(average_plies, 60.0);
  EXPECT_LT(average_plies, 68.0);
  EXPECT_GT(stats.wins[0], 420u);
  EXPECT_GT(stats.wins[1], 420u);
}

// Every move advances a piece one row and only a winning move may enter the far row, so a game lasts at
// least 11 plies and at most 2 * (8 * 6 + 8 * 5) + 1 = 177.
TEST(YardstickPlayouts, EachGameLengthIsWithinTheRulesBounds) {
  for (std::uint64_t seed = 0; seed < 1000; ++seed) {
    const PlayoutStats game = run_playouts(1, seed);
    ASSERT_GE(game.plies, 11u) << "seed " << seed;
    ASSERT_LE(game.plies, 177u) << "seed " << seed;
    ASSERT_EQ(game.wins[0] + game.wins[1], 1u) << "seed " << seed;
  }
}

TEST(YardstickPlayouts, SameSeedReplaysTheSameGames) {
  const PlayoutStats first = run_playouts(200, 7);
  const PlayoutStats second = run_playouts(200, 7);
  EXPECT_EQ(first.plies, second.plies);
  EXPECT_EQ(first.wins[0], second.wins[0]);
}

}  // namespace
}  // namespace troyka::yardstick
