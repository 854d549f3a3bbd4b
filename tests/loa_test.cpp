// games/lines-of-action.game: perft and random games against the plain reference of
// tests/reference_loa.h, hand-made positions for the move's length (the whole line counted, both
// ways), jumps over own pieces but not enemy ones, captures, the connection win (also the other
// player's, and both at once), the pass, and a match of MCTS against random.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "interpreter/game.h"
#include "interpreter/perft.h"
#include "tests/games.h"
#include "tests/reference_loa.h"
#include "tests/run_troyka.h"

namespace troyka {
namespace {

using troyka_tests::after;
using troyka_tests::after_move;
using troyka_tests::end_after;
using troyka_tests::kSlowBuild;
using troyka_tests::move_texts;
using troyka_tests::position;

namespace loa = reference_loa;

Game loa_game() { return troyka_tests::game("lines-of-action.game"); }

// perft(1) ... perft(4) from the start, counted by the reference.
const std::vector<std::uint64_t> kLoaPerft = {36, 1244, 44952, 1563208};

TEST(LinesOfAction, PerftAgreesWithTheReference) {
  loa_game().visit([](const auto& program) {
    troyka_tests::expect_start_perft(program, kLoaPerft, kLoaPerft.size() - (kSlowBuild ? 2 : 0),
                                     [](int depth) { return loa::perft(loa::start(), depth); });
  });
}

// Every position of random games has the reference's text, moves (compared by the positions they
// leave) and end.
TEST(LinesOfAction, RandomGamesAgreeWithTheReference) {
  const auto winner = [](const loa::Position& position) {
    const int won = loa::winner(position);
    return won == loa::kDrawn ? kDraw : won;
  };
  troyka_tests::expect_random_games_agree_with_plain_reference(
      loa_game(),
      troyka_tests::PlainReference<loa::Position>{loa::start(), loa::successors, winner, loa::text, loa::kOngoing},
      "Lines of Action", kSlowBuild ? 2 : 20, 5);
}

TEST(LinesOfAction, TheStartIsTheBooks) {
  loa_game().visit([](const auto& program) {
    const auto state = program.initial_state();
    EXPECT_EQ(program.position_text(state), "1CCCCCC1/c6c/c6c/c6c/c6c/c6c/c6c/1CCCCCC1 Black 0");
    // b1 moves 2 up its column (b1, b8), 2 along its diagonal (b1, h7) and 6 along the first row,
    // over its own pieces; f8 takes h6 at once (A Gamut of Games; Billings's rules page).
    std::vector<std::string> from_b1;
    for (const std::string& move : move_texts(program, state))
      if (move.rfind("b1", 0) == 0) from_b1.push_back(move);
    EXPECT_EQ(from_b1, (std::vector<std::string>{"b1-b3", "b1-d3", "b1-h1"}));
    EXPECT_EQ(program.position_text(after(program, state, "f8xh6")),
              "1CCCC1C1/c6c/c6C/c6c/c6c/c6c/c6c/1CCCCCC1 White 1");
  });
}

// Four pieces on the fifth row: each moves four cells along it, counting the pieces on both sides.
// Black's f5 passes its own d5 to b5 and d5 takes h5; neither White piece may pass a Black one.
TEST(LinesOfAction, TheLineCountsBothWaysAndOnlyOwnPiecesArePassed) {
  loa_game().visit([](const auto& program) {
    const auto black = position(program, "8/8/8/c2C1C1c/8/8/8/8 Black 10");
    EXPECT_EQ(move_texts(program, black),
              (std::vector<std::string>{"d5-c4", "d5-c6", "d5-d4", "d5-d6", "d5-e4", "d5-e6", "d5xh5", "f5-b5", "f5-e4",
                                        "f5-e6", "f5-f4", "f5-f6", "f5-g4", "f5-g6"}));
    const auto white = position(program, "8/8/8/c2C1C1c/8/8/8/8 White 10");
    EXPECT_EQ(move_texts(program, white),
              (std::vector<std::string>{"a5-a4", "a5-a6", "a5-b4", "a5-b6", "h5-g4", "h5-g6", "h5-h4", "h5-h6"}));
    EXPECT_EQ(after_move(program, "8/8/8/c2C1C1c/8/8/8/8 Black 10", "d5xh5"), "8/8/8/c4C1C/8/8/8/8 White 11");
  });
}

// The end reason after a move from a position (the win names the rule, `connected`).
TEST(LinesOfAction, APlayerWhosePiecesAreOneGroupWins) {
  loa_game().visit([](const auto& program) {
    // e3 steps to d3 (its row holds it alone), next to c2: Black's three pieces touch.
    EXPECT_EQ(end_after(program, "6c1/8/7c/8/8/4C3/1CC5/8 Black 20", "e3-d3"), "Black wins by connected");
    // e3 to e4 (its column holds it alone) leaves it apart: the game goes on.
    EXPECT_EQ(end_after(program, "6c1/8/7c/8/8/4C3/1CC5/8 Black 20", "e3-e4"), "");
    // Taking White's lone e5 (three pieces on the e-file) leaves White's a8 and b8 one group: White
    // wins by Black's move.
    EXPECT_EQ(end_after(program, "cc2C3/8/8/4c3/8/8/4C3/7C Black 20", "e2xe5"), "White wins by connected");
    // Here e2xe5 also joins e5 to e6: both sides are one group at once, and the mover wins (the
    // book's second edition).
    EXPECT_EQ(end_after(program, "cc6/8/4C3/4c3/8/8/4C3/8 Black 20", "e2xe5"), "Black wins by connected");
  });
}

// White's a1 and h1 are hemmed in by Black pieces they may not pass: White passes.
TEST(LinesOfAction, APlayerWithoutAMovePasses) {
  loa_game().visit([](const auto& program) {
    const std::string hemmed = "8/8/8/8/8/8/CC4CC/cC4Cc White 20";
    EXPECT_EQ(move_texts(program, position(program, hemmed)), (std::vector<std::string>{"pass"}));
    EXPECT_EQ(after_move(program, hemmed, "pass"), "8/8/8/8/8/8/CC4CC/cC4Cc Black 21");
  });
}

// Random playouts run to some 200 plies on the general back end, and every decisive-move test
// tries each move on a copy: few iterations a move (docs/games.md has a timed match).
TEST(LinesOfAction, MctsBeatsRandomInAMatch) {
  if (kSlowBuild)
    troyka_tests::expect_first_agent_scores(
        "match games/lines-of-action.game --games 2 --agents mcts:iterations=10 random --json", 1.5);
  else
    troyka_tests::expect_first_agent_scores(
        "match games/lines-of-action.game --games 4 --agents mcts:iterations=20 random --json", 3.0);
}

}  // namespace
}  // namespace troyka
