// Tests of the games in games/ beyond Breakthrough: perft from the start against published figures
// or, where none exist, against the slow reference of tests/reference.h (which reads only
// lang::Rules), and hand-made positions for every rule that is easy to get wrong.
//
// How perft counts: a move sequence of length `depth` from the start; a finished game has no moves,
// so a position where a game ended early adds nothing at greater depths.
#include "tests/games.h"

#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "interpreter/game.h"
#include "interpreter/perft.h"
#include "tests/reference.h"

namespace troyka {
namespace {

using troyka_tests::after;
using troyka_tests::game;
using troyka_tests::move_texts;
using troyka_tests::position;

// Debug and sanitizer builds are about 25 times slower: the reference counts go less deep there.
#ifdef NDEBUG
constexpr int kDepthCut = 0;
#else
constexpr int kDepthCut = 1;
#endif

struct PerftCase {
  std::string file;
  std::vector<std::pair<std::string, std::string>> params;
  std::vector<std::uint64_t> nodes;  // perft(1), perft(2), ...
  int reference_depth = 0;           // how deep the reference confirms them
};

// The figures of docs/games.md. The reference recounts the first `reference_depth` of them; the
// small boards go deep enough for games to end inside the count.
const std::vector<PerftCase> kIndependentCounts = {
    {"misere-breakthrough.game", {}, {22, 484, 11132, 256036, 6182818}, 3},
    {"misere-breakthrough.game", {{"width", "4"}, {"height", "5"}}, {10, 90, 848, 7794, 75378, 705244}, 6},
    {"knightthrough.game", {}, {40, 1600, 63520, 2521306, 99598454}, 3},
    {"knightthrough.game", {{"width", "4"}, {"height", "5"}}, {16, 246, 3574, 45970, 553260}, 5},
    {"clobber.game", {}, {49, 2116, 80063, 2630382, 74662024}, 3},
    {"clobber.game", {{"width", "3"}, {"height", "3"}}, {12, 88, 376, 928, 1840, 1048, 616, 0}, 8},
    {"clobber.game", {{"width", "4"}, {"height", "4"}}, {24, 448, 6380, 67296, 529200}, 5},
};

TEST(GamesPerft, IndependentCountsAgree) {
  for (const PerftCase& test : kIndependentCounts) {
    const Game loaded = game(test.file, test.params);
    const lang::Rules& rules = loaded.rules();
    loaded.visit([&](const auto& program) {
      const auto start = program.initial_state();
      const reference::Position reference_start = reference::start(rules);
      for (std::size_t depth = 1; depth <= test.nodes.size(); ++depth) {
        const auto d = static_cast<int>(depth);
        EXPECT_EQ(perft(program, start, d), test.nodes[depth - 1]) << test.file << " depth " << d;
        if (d <= test.reference_depth - kDepthCut) {
          EXPECT_EQ(reference::perft(rules, reference_start, d), test.nodes[depth - 1])
              << test.file << " depth " << d << " (reference)";
        }
      }
    });
  }
}

// ---- Misère Breakthrough ------------------------------------------------------------------------

TEST(MisereBreakthrough, ReachingTheFarRowLoses) {
  game("misere-breakthrough.game").visit([](const auto& program) {
    const auto state = after(program, position(program, "8/6P1/8/8/8/8/p7/8 White 10"), "g7-g8");
    EXPECT_TRUE(state.over);
    EXPECT_EQ(program.result(state, 0), -1);
    EXPECT_EQ(program.end_reason(state), "White loses by (reach Pawn far-row)");
    // Black's far row is row 1.
    const auto black = after(program, position(program, "8/8/8/8/8/8/p7/7P Black 11"), "a2-a1");
    EXPECT_EQ(program.end_reason(black), "Black loses by (reach Pawn far-row)");
  });
}

TEST(MisereBreakthrough, TakingTheLastEnemyPieceLoses) {
  game("misere-breakthrough.game").visit([](const auto& program) {
    const auto state = after(program, position(program, "8/8/8/8/8/1p6/P7/8 White 10"), "a2xb3");
    EXPECT_TRUE(state.over);
    EXPECT_EQ(program.result(state, 1), 1);
    EXPECT_EQ(program.end_reason(state), "White loses by opponent-has-no-pieces");
  });
}

TEST(MisereBreakthrough, NoWinIsEverAnticipated) {
  // The playout policies look for moves that win at once; in this game no move does.
  game("misere-breakthrough.game").visit([](const auto& program) {
    const auto state = position(program, "8/6P1/8/8/8/8/p7/8 White 10");
    Move win;
    EXPECT_FALSE(program.winning_move(state, win));
    EXPECT_FALSE(program.opponent_threatens_win(state));
  });
}

// ---- Knightthrough ------------------------------------------------------------------------------

TEST(Knightthrough, KnightsLeapOnlyForwardsAndOverPieces) {
  game("knightthrough.game").visit([](const auto& program) {
    // The d4 knight is surrounded; it leaps over its neighbours, never backwards.
    const auto state = position(program, "n7/8/8/2NNN3/2NNN3/2NNN3/8/8 White 10");
    std::vector<std::string> from_d4;
    for (const std::string& move : move_texts(program, state))
      if (move.starts_with("d4")) from_d4.push_back(move);
    EXPECT_EQ(from_d4, (std::vector<std::string>{"d4-b5", "d4-c6", "d4-e6", "d4-f5"}));
  });
}

TEST(Knightthrough, CapturesByLandingOnAnEnemyNeverOnAFriend) {
  game("knightthrough.game").visit([](const auto& program) {
    const auto state = position(program, "n7/8/2n1N3/8/3N4/8/8/8 White 10");
    std::vector<std::string> from_d4;
    for (const std::string& move : move_texts(program, state))
      if (move.starts_with("d4")) from_d4.push_back(move);
    EXPECT_EQ(from_d4, (std::vector<std::string>{"d4-b5", "d4-f5", "d4xc6"}));
  });
}

TEST(Knightthrough, ReachingTheFarRowWinsAndBlackLeapsSouthwards) {
  game("knightthrough.game").visit([](const auto& program) {
    const auto state = position(program, "8/8/4N3/8/8/3n4/8/8 White 10");
    const auto won = after(program, state, "e6-f8");
    EXPECT_EQ(program.end_reason(won), "White wins by (reach Knight far-row)");
    Move win;
    ASSERT_TRUE(program.winning_move(state, win));
    EXPECT_EQ(program.move_text(win).substr(0, 3), "e6-");
    std::vector<std::string> black;
    for (const std::string& move : move_texts(program, after(program, state, "e6-c7"))) black.push_back(move);
    EXPECT_EQ(black, (std::vector<std::string>{"d3-b2", "d3-c1", "d3-e1", "d3-f2"}));
  });
}

// ---- Clobber ------------------------------------------------------------------------------------

TEST(Clobber, StartsFullAndChequeredWithEveryMoveACapture) {
  game("clobber.game").visit([](const auto& program) {
    const auto start = program.initial_state();
    EXPECT_EQ(program.position_text(start), "oOoOoO/OoOoOo/oOoOoO/OoOoOo/oOoOoO White 0");
    const std::vector<std::string> moves = move_texts(program, start);
    EXPECT_EQ(moves.size(), 49u);  // one per pair of orthogonal neighbours: 5*5 + 6*4
    for (const std::string& move : moves) EXPECT_NE(move.find('x'), std::string::npos) << move;
  });
}

TEST(Clobber, OnlyOrthogonalMovesOntoAnEnemy) {
  game("clobber.game").visit([](const auto& program) {
    const auto state = position(program, "6/6/2o3/2Oo2/1o1O2 White 7");
    EXPECT_EQ(move_texts(program, state), (std::vector<std::string>{"c2xc3", "c2xd2", "d1xd2"}));
  });
}

TEST(Clobber, TheLastPlayerToMoveWins) {
  game("clobber.game").visit([](const auto& program) {
    const auto state = after(program, position(program, "6/6/6/Oo4/6 White 9"), "a2xb2");
    EXPECT_TRUE(state.over);
    EXPECT_EQ(program.result(state, 0), 1);
    EXPECT_EQ(program.end_reason(state), "Black loses by no-legal-moves");
    // Stones that touch no enemy cannot move: the player to move has lost already.
    const auto stuck = position(program, "6/6/6/O1o3/6 White 9");
    EXPECT_TRUE(stuck.over);
    EXPECT_EQ(program.result(stuck, 1), 1);
  });
}

}  // namespace
}  // namespace troyka
