// Playout policies (PlayoutPolicy): uniform play unchanged, decisive and anti-decisive moves,
// move values, and the immediate-win tests they rest on.
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "interpreter/game.h"
#include "tests/games.h"

namespace troyka {
namespace {

using troyka_tests::breakthrough;
using troyka_tests::game_from_text;
using troyka_tests::position;

// Games that never end: each side's king goes left or right along its own row, and no one can
// reach the far row. With a step the playout draws from targets, with a slide from a move list.
std::vector<std::string> endless_games() {
  std::vector<std::string> games;
  for (const char* move : {"(step (left right) (to empty))", "(slide (left right))"})
    games.push_back(std::string(R"((game "Endless" (players (White north) (Black south)) (board (rectangle 4 4))
      (piece King )") +
                    move + R"()
      (setup (place White King (cells a1)) (place Black King (cells d4)))
      (end (win (reach far-row)))))");
  return games;
}

TEST(PlayoutPolicy, APlayoutStopsUnfinishedAtItsPlyCap) {
  for (const std::string& text : endless_games()) {
    game_from_text(text).visit([](const auto& program) {
      auto state = program.initial_state();
      Rng rng(3);
      PlayoutPolicy policy;
      policy.max_plies = 500;
      EXPECT_EQ(program.playout(state, rng, policy), 500u);
      EXPECT_FALSE(state.over);
      EXPECT_EQ(state.ply, 500u);
      // The plain random playout takes a cap too, and goes on from where it was left.
      EXPECT_EQ(program.playout(state, rng, 300), 300u);
      EXPECT_FALSE(state.over);
      EXPECT_EQ(state.ply, 800u);
    });
  }
}

TEST(PlayoutPolicy, APlayoutStopsUnfinishedOnceItsDeadlineHasPassed) {
  for (const std::string& text : endless_games()) {
    game_from_text(text).visit([](const auto& program) {
      const auto passed = std::chrono::steady_clock::now() - std::chrono::seconds(1);
      auto state = program.initial_state();
      Rng rng(3);
      PlayoutPolicy policy;
      policy.deadline = &passed;
      // The deadline is read every kDeadlinePlies plies, the first time after that many.
      EXPECT_EQ(program.playout(state, rng, policy), PlayoutPolicy::kDeadlinePlies);
      EXPECT_FALSE(state.over);
      // A deadline far ahead leaves the cap to stop it.
      const auto ahead = std::chrono::steady_clock::now() + std::chrono::hours(1);
      policy.deadline = &ahead;
      policy.max_plies = 300;
      EXPECT_EQ(program.playout(state, rng, policy), 300u);
    });
  }
}

TEST(PlayoutPolicy, AllOffPlaysExactlyTheUniformPlayout) {
  for (const int size : {5, 8, 12}) {
    breakthrough(size, size).visit([](const auto& program) {
      for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        auto plain = program.initial_state(), with_policy = plain;
        Rng plain_rng(seed), policy_rng(seed);
        std::vector<PlayedMove> played;
        PlayoutPolicy policy;
        policy.played = &played;
        const auto plies = program.playout(plain, plain_rng);
        EXPECT_EQ(program.playout(with_policy, policy_rng, policy), plies);
        EXPECT_EQ(played.size(), plies);
        EXPECT_EQ(with_policy.hash, plain.hash);
        EXPECT_EQ(with_policy.winner, plain.winner);
        EXPECT_EQ(plain_rng.next(), policy_rng.next());
      }
    });
  }
}

TEST(PlayoutPolicy, DecisiveTakesTheWinAtOnce) {
  breakthrough().visit([](const auto& program) {
    // White's b7 can take c8 or step to a8 (b8 is blocked); Black's h2 would win next move.
    const auto start = position(program, "ppp5/1P6/8/8/8/8/7p/PPPPPPP1 White 20");
    Move win;
    ASSERT_TRUE(program.winning_move(start, win));
    EXPECT_EQ(win.from, 49);  // b7
    PlayoutPolicy policy;
    policy.decisive = true;
    for (std::uint64_t seed = 1; seed <= 10; ++seed) {
      auto state = start;
      Rng rng(seed);
      EXPECT_EQ(program.playout(state, rng, policy), 1u);
      EXPECT_EQ(state.winner, 0);
    }
    EXPECT_FALSE(program.winning_move(program.initial_state(), win));
  });
}

TEST(PlayoutPolicy, AntiDecisiveStopsTheOpponentsWin) {
  breakthrough().visit([](const auto& program) {
    // Black's g2 reaches row 1 next move unless White takes it: h1xg2 is the only defence.
    const auto start = position(program, "pppppppp/8/8/8/8/8/6p1/PPPPP2P White 20");
    EXPECT_TRUE(program.opponent_threatens_win(start));
    EXPECT_FALSE(program.opponent_threatens_win(program.initial_state()));
    PlayoutPolicy policy;
    policy.anti_decisive = true;
    std::vector<PlayedMove> played;
    policy.played = &played;
    for (std::uint64_t seed = 1; seed <= 10; ++seed) {
      auto state = start;
      Rng rng(seed);
      played.clear();
      program.playout(state, rng, policy);
      ASSERT_FALSE(played.empty());
      EXPECT_EQ(program.move_text(played.front().move), "h1xg2") << "seed " << seed;
      EXPECT_EQ(played.front().mover, 0);
    }
  });
}

TEST(PlayoutPolicy, AntiDecisivePlaysOnWhenNoMoveDefends) {
  breakthrough().visit([](const auto& program) {
    // Black's g2 and b2 both threaten; no single White move stops both, so play goes on at random.
    const auto start = position(program, "pppppppp/8/8/8/8/8/1p4p1/P6P White 20");
    PlayoutPolicy policy;
    policy.decisive = policy.anti_decisive = true;
    for (std::uint64_t seed = 1; seed <= 10; ++seed) {
      auto state = start;
      Rng rng(seed);
      EXPECT_EQ(program.playout(state, rng, policy), 2u);
      EXPECT_EQ(state.winner, 1);
    }
  });
}

TEST(PlayoutPolicy, TakingTheLastPieceIsADecisiveMove) {
  breakthrough().visit([](const auto& program) {
    // Black's only piece stands where White's d4 can take it; no piece is near its far row.
    const auto start = position(program, "8/8/8/4p3/3P4/8/8/8 White 10");
    Move win;
    ASSERT_TRUE(program.winning_move(start, win));
    EXPECT_EQ(program.move_text(win), "d4xe5");
  });
}

TEST(PlayoutPolicy, WinsAreTriedWhenAnEarlierRuleCouldDecideFirst) {
  // Reaching row 4 wins, but an earlier rule says a pawn reaching d4 loses: moves onto d4 are
  // not wins, and the winning-move test must play them to find out.
  const Game game = game_from_text(R"((game "Trap" (players (White north) (Black south)) (board (rectangle 4 4))
    (region trap (cells d4))
    (piece Pawn (step forward (to empty)))
    (setup (place White Pawn (cells d3)) (place Black Pawn (cells a1)))
    (end (lose (reach trap)) (win (reach far-row)) (lose no-legal-moves))))");
  game.visit([](const auto& program) {
    Move win;
    EXPECT_FALSE(program.winning_move(program.initial_state(), win));
    PlayoutPolicy policy;
    policy.decisive = true;
    auto state = program.initial_state();
    Rng rng(1);
    program.playout(state, rng, policy);
    EXPECT_EQ(state.winner, 1);
  });
}

TEST(PlayoutPolicy, MoveValuesPreferTheBetterOfTwoDraws) {
  breakthrough().visit([](const auto& program) {
    const auto start = program.initial_state();
    MoveList moves;
    program.legal_moves(start, moves);
    std::vector<float> values(program.move_key_count(), 0.0F);
    const Move favourite = moves[5];
    values[program.move_key(0, favourite)] = 1.0F;
    PlayoutPolicy policy;
    policy.move_values = values.data();
    std::vector<PlayedMove> played;
    policy.played = &played;
    int chosen = 0;
    constexpr int kPlayouts = 2000;
    for (int i = 0; i < kPlayouts; ++i) {
      auto state = start;
      Rng rng(static_cast<std::uint64_t>(i) + 1);
      played.clear();
      program.playout(state, rng, policy);
      chosen += played.front().move == favourite;
    }
    // Uniform play would choose it 1 time in 22; the better of two draws, about 2 in 22.
    const double uniform = 1.0 / static_cast<double>(moves.size());
    EXPECT_GT(chosen, 1.6 * uniform * kPlayouts) << chosen;
    EXPECT_LT(chosen, 2.4 * uniform * kPlayouts) << chosen;
  });
}

TEST(PlayoutPolicy, MoveKeysAreDenseAndDistinct) {
  breakthrough(5, 5).visit([](const auto& program) {
    // Origins and destinations run two past the 25 cells, for moves off the board such as a pass.
    EXPECT_EQ(program.move_key_count(), 2u * 27 * 27);
    std::map<std::size_t, int> seen;
    for (int mover = 0; mover < 2; ++mover)
      for (std::uint16_t from = 0; from < 27; ++from)
        for (std::uint16_t to = 0; to < 27; ++to) {
          const std::size_t key = program.move_key(mover, Move{from, to});
          EXPECT_LT(key, program.move_key_count());
          EXPECT_EQ(seen[key]++, 0);
        }
  });
}

}  // namespace
}  // namespace troyka
