// games/hasami-shogi.game: perft and random games against the plain reference of
// tests/reference_hasami.h, hand-made positions for the custodian captures (lines, several at
// once, lines left open, the safe move between two enemies, the corner), the win by captures, and
// a match of MCTS against random.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "interpreter/game.h"
#include "interpreter/perft.h"
#include "tests/games.h"
#include "tests/reference_hasami.h"
#include "tests/run_troyka.h"

namespace troyka {
namespace {

using troyka_tests::after;
using troyka_tests::after_move;
using troyka_tests::game;
using troyka_tests::kSlowBuild;
using troyka_tests::move_texts;
using troyka_tests::position;

namespace hasami = reference_hasami;

Game hasami_game(int size) { return game("hasami-shogi.game", {{"size", std::to_string(size)}}); }

struct HasamiPerft {
  int size;
  std::vector<std::uint64_t> nodes;  // perft(1), perft(2), ...
  int reference_depth;
};

const std::vector<HasamiPerft> kHasamiPerft = {
    {9, {63, 3717, 254219}, 3},
    {6, {24, 516, 14284, 373748}, 3},
    {5, {15, 195, 3517, 60028}, 4},
};

TEST(HasamiShogi, PerftAgreesWithTheReference) {
  for (const HasamiPerft& test : kHasamiPerft) {
    hasami_game(test.size).visit([&](const auto& program) {
      const int cut = kSlowBuild ? 1 : 0;
      for (std::size_t depth = 1; depth + cut <= test.nodes.size(); ++depth) {
        const auto d = static_cast<int>(depth);
        EXPECT_EQ(perft(program, program.initial_state(), d), test.nodes[depth - 1]) << test.size << " depth " << d;
        if (d + cut <= test.reference_depth) {
          EXPECT_EQ(hasami::perft(hasami::start(test.size), d), test.nodes[depth - 1])
              << test.size << " depth " << d << " (reference)";
        }
      }
    });
  }
}

// Every position of random games has the reference's moves (compared by the positions they lead
// to, counters included) and its end.
TEST(HasamiShogi, RandomGamesAgreeWithTheReference) {
  for (const int size : {9, 5, 7}) {
    troyka_tests::expect_random_games_agree_with_plain_reference(
        hasami_game(size),
        troyka_tests::PlainReference<hasami::Position>{hasami::start(size), hasami::successors, hasami::winner,
                                                       hasami::text, hasami::kOngoing},
        "hasami " + std::to_string(size), kSlowBuild ? 1 : 5, 11);
  }
}

TEST(HasamiShogi, MenMoveLikeRooks) {
  hasami_game(5).visit([](const auto& program) {
    const auto texts = move_texts(program, position(program, "5/5/2m2/5/1M3 Black 2 taken=0,0"));
    EXPECT_EQ(texts,
              (std::vector<std::string>{"b1-a1", "b1-b2", "b1-b3", "b1-b4", "b1-b5", "b1-c1", "b1-d1", "b1-e1"}));
  });
}

TEST(HasamiShogi, ALineOfEnemyMenBetweenTheMoverAndAFriendIsCaptured) {
  hasami_game(5).visit([](const auto& program) {
    EXPECT_EQ(after_move(program, "5/5/1mmM1/5/M4 Black 2 taken=0,0", "a1-a3"), "5/5/M2M1/5/5 White 3 taken=2,0");
  });
}

TEST(HasamiShogi, LinesInSeveralDirectionsAreCapturedAtOnce) {
  hasami_game(5).visit([](const auto& program) {
    EXPECT_EQ(after_move(program, "2M2/2m2/Mm1mM/5/2M2 Black 2 taken=0,0", "c1-c3"),
              "2M2/5/M1M1M/5/5 White 3 taken=3,0");
  });
}

TEST(HasamiShogi, ALineOpenAtAnEmptyCellOrTheEdgeIsNotCaptured) {
  hasami_game(5).visit([](const auto& program) {
    EXPECT_EQ(after_move(program, "5/5/1mm2/5/3M1 Black 2 taken=0,0", "d1-d3"), "5/5/1mmM1/5/5 White 3 taken=0,0");
    EXPECT_EQ(after_move(program, "5/5/mm3/5/2M2 Black 2 taken=0,0", "c1-c3"), "5/5/mmM2/5/5 White 3 taken=0,0");
  });
}

TEST(HasamiShogi, AManMayMoveBetweenTwoEnemiesSafely) {
  hasami_game(5).visit([](const auto& program) {
    auto state = after(program, position(program, "4m/5/m1m2/5/1M3 Black 2 taken=0,0"), "b1-b3");
    EXPECT_EQ(program.position_text(state), "4m/5/mMm2/5/5 White 3 taken=0,0");
    // Only the mover captures: a White move elsewhere leaves the sandwiched man standing.
    state = after(program, state, "e5-e4");
    EXPECT_EQ(program.position_text(state), "5/4m/mMm2/5/5 Black 4 taken=0,0");
  });
}

TEST(HasamiShogi, AManInACornerFallsToTheTwoCellsBesideIt) {
  hasami_game(5).visit([](const auto& program) {
    EXPECT_EQ(after_move(program, "5/5/5/M4/m1M2 Black 2 taken=0,0", "c1-b1"), "5/5/5/M4/1M3 White 3 taken=1,0");
    // One of the two is not enough.
    EXPECT_EQ(after_move(program, "5/5/5/5/m1M2 Black 2 taken=0,0", "c1-b1"), "5/5/5/5/mM3 White 3 taken=0,0");
  });
}

TEST(HasamiShogi, CapturingAllButOneOfTheEnemyMenWins) {
  hasami_game(5).visit([](const auto& program) {
    // Black has taken one of White's five men; the three more it takes now leave White one.
    const auto state = after(program, position(program, "2M2/2m2/Mm1mM/5/2M2 Black 2 taken=1,0"), "c1-c3");
    EXPECT_TRUE(state.over);
    EXPECT_EQ(state.winner, 0);  // Black
  });
}

// 300 plies without a winner draw; --param limit=N moves the draw to N plies (Ludii's games of
// Hasami Shogi stop only at its 2,500-turn limit: docs/performance.md).
TEST(HasamiShogi, ThePlyLimitIsAParameter) {
  const char* before_the_limit = "5/5/2m2/5/1M3 Black 299 taken=0,0";
  hasami_game(5).visit([&](const auto& program) {
    const auto state = after(program, position(program, before_the_limit), "b1-b2");
    EXPECT_TRUE(state.over);
    EXPECT_EQ(state.winner, kDraw);
  });
  game("hasami-shogi.game", {{"size", "5"}, {"limit", "2500"}}).visit([&](const auto& program) {
    EXPECT_FALSE(after(program, position(program, before_the_limit), "b1-b2").over);
    EXPECT_TRUE(after(program, position(program, "5/5/2m2/5/1M3 Black 2499 taken=0,0"), "b1-b2").over);
  });
}

// On 5x5 (four captures win), where random games last about 180 plies, with 30 playouts a move and
// no decisive-move tests in them: a win by a counter is found only by trying each move on a copy,
// which makes such playouts several times slower (docs/agents.md).
TEST(HasamiShogi, MctsBeatsRandomInAMatch) {
  troyka_tests::expect_first_agent_scores(
      "match games/hasami-shogi.game --param size=5 --games 2 --agents mcts:iterations=30,decisive=off random --json",
      2.0);
}

}  // namespace
}  // namespace troyka
