// games/pentago.game, whose turn is a marble and then a quarter turn of a quadrant, (rotate REGION
// clockwise|anticlockwise): perft from the start against the plain reference of
// tests/reference_pentago.h, random games compared with it decision by decision, hand-made positions
// for five made by the turn (of the quadrant the marble went to, and of another), five for both
// players at once, five for the opponent alone, five made by the marble before any turn, and a full
// board; a drop and a turn in one decision; a record replayed; the errors of (rotate ...); the rule
// option (when (= decision N)) and its errors; and a match of MCTS against random.
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <string>
#include <vector>

#include "interpreter/game.h"
#include "interpreter/perft.h"
#include "tests/games.h"
#include "tests/reference_pentago.h"
#include "tests/run_troyka.h"

namespace troyka {
namespace {

using troyka_tests::game;
using troyka_tests::kSlowBuild;
using troyka_tests::move_texts;
using troyka_tests::position;

namespace pentago = reference_pentago;

Game pentago_game() { return game("pentago.game"); }

// From the start, as troyka and the reference both count them: each decision is a ply, 36 marbles
// then 8 turns of a quadrant (turning an empty quadrant either way is two moves, though they leave
// the same board). No published figures were found.
const std::vector<std::uint64_t> kPentagoPerft = {36, 288, 10080, 80640, 2741760};

TEST(Pentago, PerftAgreesWithTheReference) {
  pentago_game().visit([](const auto& program) {
    EXPECT_EQ(program.position_text(program.initial_state()), "6/6/6/6/6/6 White:2 0");
    EXPECT_EQ(pentago::text(pentago::start()), "6/6/6/6/6/6 White:2 0");
    troyka_tests::expect_start_perft(program, kPentagoPerft, kSlowBuild ? 4 : 5,
                                     [](int depth) { return pentago::perft(pentago::start(), depth); });
  });
}

// Later in a game, with lines of four that a marble or a turn completes.
TEST(Pentago, PerftAgreesWithTheReferenceInTheMiddleGame) {
  const pentago::Position middle =
      pentago::with_marbles({"a1", "b2", "c3", "d4", "b5", "f2"}, {"a6", "b6", "c6", "d6", "e2", "c1"}, 0, 24);
  pentago_game().visit([&](const auto& program) {
    const auto state = position(program, pentago::text(middle));
    troyka_tests::expect_perft_agrees(program, state, kSlowBuild ? 3 : 4,
                                      [&](int depth) { return pentago::perft(middle, depth); });
  });
}

TEST(Pentago, RandomGamesAgreeWithTheReference) {
  troyka_tests::expect_random_games_agree_with_plain_reference(
      pentago_game(),
      troyka_tests::PlainReference<pentago::Position>{pentago::start(), pentago::successors, pentago::winner,
                                                      pentago::text, pentago::kOngoing},
      "pentago.game", kSlowBuild ? 10 : 100, 15);
}

// White has b1 c1 a4 a5; Black four marbles far away, in the top right quadrant.
const std::string kPentagoColumnA = "4mm/M3mm/M5/6/6/1MM3 White:2 16";

// The texts of the legal moves after `moves` from `text`, and whether the game is over then.
std::vector<std::string> pentago_moves_after(const std::string& text, const std::vector<std::string>& moves) {
  std::vector<std::string> texts;
  pentago_game().visit([&](const auto& program) {
    auto state = position(program, text);
    for (const std::string& move : moves) state = troyka_tests::after(program, state, move);
    texts = move_texts(program, state);
  });
  return texts;
}

// A marble, then the turn: the second decision is one of the eight quarter turns, and which
// quadrant holds the marble does not matter.
TEST(Pentago, ATurnIsAMarbleThenAQuarterTurn) {
  EXPECT_EQ(pentago_moves_after(kPentagoColumnA, {}).size(), 28u);
  EXPECT_EQ(pentago_moves_after(kPentagoColumnA, {"a1"}),
            (std::vector<std::string>{"bl+", "bl-", "br+", "br-", "tl+", "tl-", "tr+", "tr-"}));
  pentago_game().visit([&](const auto& program) {
    EXPECT_EQ(troyka_tests::after_move(program, kPentagoColumnA, "a1"), "4mm/M3mm/M5/6/6/MMM3 White:1 17");
    // Clockwise, row 1 of the quadrant becomes its column a, read upward from c1: c1 a1, b1 a2, a1 a3.
    const auto placed = troyka_tests::after(program, position(program, kPentagoColumnA), "a1");
    EXPECT_EQ(troyka_tests::after_move(program, program.position_text(placed), "br+"),
              "4mm/M3mm/M5/6/6/MMM3 Black:2 18");
    // Anticlockwise, row 1 becomes column c, read downward from a1: a1 c1, b1 c2, c1 c3.
    EXPECT_EQ(troyka_tests::after_move(program, program.position_text(placed), "bl-"),
              "4mm/M3mm/M5/2M3/2M3/2M3 Black:2 18");
  });
}

// The turn of the quadrant where the marble went makes five: a1 completes row 1 of the bottom left
// quadrant, and bl+ stands it up as a1 a2 a3 under a4 a5.
TEST(Pentago, FiveMadeByTheTurnWins) {
  pentago_game().visit([&](const auto& program) {
    const auto placed = troyka_tests::after(program, position(program, kPentagoColumnA), "a1");
    EXPECT_FALSE(placed.over);
    const auto turned = troyka_tests::after(program, placed, "bl+");
    EXPECT_EQ(program.position_text(turned), "4mm/M3mm/M5/M5/M5/M5 Black:2 18");
    ASSERT_TRUE(turned.over);
    EXPECT_EQ(turned.winner, 0);
    EXPECT_EQ(program.end_reason(turned), "White wins by (in-a-row 5)");
  });
}

// The marble goes to f1, in another quadrant; turning the bottom left one makes the five.
TEST(Pentago, FiveMadeByTurningAnotherQuadrantWins) {
  pentago_game().visit([&](const auto& program) {
    const auto state = troyka_tests::after(
        program, troyka_tests::after(program, position(program, "3mmm/M3mm/M5/6/6/MMM3 White:2 20"), "f1"), "bl+");
    ASSERT_TRUE(state.over);
    EXPECT_EQ(state.winner, 0);
  });
}

// bl+ stands row 1 up as column a for White and row 2 as column b for Black: five for both, a draw.
// Without White's a4, the same turn makes five for Black alone, who wins though White turned.
TEST(Pentago, FiveForBothAtOnceDrawsAndForTheOpponentAloneLoses) {
  pentago_game().visit([&](const auto& program) {
    const auto both = troyka_tests::after(
        program, troyka_tests::after(program, position(program, "6/Mm4/Mm4/6/mmm3/MMM3 White:2 20"), "f1"), "bl+");
    ASSERT_TRUE(both.over);
    EXPECT_EQ(both.winner, kDraw);
    EXPECT_EQ(program.end_reason(both), "draw by (and (in-a-row 5) (opponent (in-a-row 5)))");
    const auto theirs = troyka_tests::after(
        program, troyka_tests::after(program, position(program, "6/Mm4/1m3M/6/mmm3/MMM3 White:2 20"), "f1"), "bl+");
    ASSERT_TRUE(theirs.over);
    EXPECT_EQ(theirs.winner, 1);
  });
}

// Five made by the marble wins at once, before the turn: no turn follows, not even one (bl-) that
// would break the line.
TEST(Pentago, FiveMadeByTheMarbleWinsBeforeTheTurn) {
  pentago_game().visit([&](const auto& program) {
    const auto state = troyka_tests::after(program, position(program, "3mmm/M4m/M5/M5/M5/6 White:2 16"), "a1");
    ASSERT_TRUE(state.over);
    EXPECT_EQ(state.winner, 0);
    EXPECT_TRUE(move_texts(program, state).empty());
  });
}

// The last empty cell, b6, filled by Black, and any turn: no five for anyone, a full board, a draw.
TEST(Pentago, AFullBoardWithoutFiveDraws) {
  const std::string last = "M1MmMM/MMmMmM/mMmMmm/mmMMmM/mmmMMM/MMmmmm Black:2 70";
  EXPECT_EQ(pentago_moves_after(last, {}), (std::vector<std::string>{"b6"}));
  pentago_game().visit([&](const auto& program) {
    const auto full = troyka_tests::after(program, position(program, last), "b6");
    EXPECT_FALSE(full.over);
    for (const std::string& turn : move_texts(program, full)) {
      const auto state = troyka_tests::after(program, full, turn);
      ASSERT_TRUE(state.over) << turn;
      EXPECT_EQ(state.winner, kDraw) << turn;
      EXPECT_EQ(program.end_reason(state), "draw by no-legal-moves") << turn;
    }
  });
}

// A drop and a turn in one decision: the turn comes after the drop, so the dropped stone turns too
// (a1 to a2), and the move's text joins them with ':', the region by its corners.
TEST(Pentago, ATurnInTheDecisionOfADropTurnsTheDroppedPiece) {
  const Game turned = troyka_tests::game_from_text(
      "(game \"Turn\" (players (White north) (Black south)) (board (rectangle 3 3))\n"
      "  (piece Stone \"S\")\n"
      "  (moves (new Stone) (enter all) empty land (rotate (cells a1 b1 a2 b2) clockwise))\n"
      "  (setup) (end (draw no-legal-moves)))\n");
  turned.visit([&](const auto& program) {
    EXPECT_EQ(move_texts(program, program.initial_state()).front(), "a1:a1..b2+");
    EXPECT_EQ(troyka_tests::after_move(program, "3/3/3 White 0", "a1:a1..b2+"), "3/S2/3 Black 1");
    EXPECT_EQ(troyka_tests::after_move(program, "3/3/3 White 0", "c3:a1..b2+"), "2S/3/3 Black 1");
  });
}

// Two squares from the same corner are two turns, each named by both its corners.
TEST(Pentago, SquaresFromOneCornerAreTwoTurns) {
  const Game turned = troyka_tests::game_from_text(
      "(game \"Turns\" (players (White north) (Black south)) (board (rectangle 3 3))\n"
      "  (piece Stone \"S\")\n"
      "  (moves (or (rotate (cells a1 b1 a2 b2) clockwise) (rotate all clockwise)\n"
      "             (rotate (cells a1 b1 c1 a2 b2 c2 a3 b3 c3) anticlockwise)))\n"
      "  (setup (place White Stone (cells a1))) (end (draw (ply-limit 4))))\n");
  turned.visit([&](const auto& program) {
    EXPECT_EQ(move_texts(program, program.initial_state()), (std::vector<std::string>{"a1..b2+", "a1..c3-", "all+"}));
    EXPECT_EQ(troyka_tests::after_move(program, "3/3/S2 White 0", "a1..b2+"), "3/S2/3 Black 1");
    EXPECT_EQ(troyka_tests::after_move(program, "3/3/S2 White 0", "all+"), "S2/3/3 Black 1");
    EXPECT_EQ(troyka_tests::after_move(program, "3/3/S2 White 0", "a1..c3-"), "3/3/2S Black 1");
  });
}

// A game of White's five in column a, turning only the bottom right quadrant, replays from its record.
TEST(Pentago, ARecordReplays) {
  const std::string path = troyka_tests::temp_path("pentago.record");
  std::ofstream(path) << R"record([Game "Pentago"]
[File "games/pentago.game"]
[Variant ""]
[Params ""]
[White "human"]
[Black "human"]
[Result "1-0"]
[Winner "White"]
[Reason "White wins by (in-a-row 5)"]
[Plies "17"]
[Seed "1"]
[Date "2026-11-26T12:00:00Z"]

1. a1,br+ e5,br+ 2. a2,br+ f5,br- 3. a3,br+ d5,br- 4. a4,br+ d6,br- 5. a5 1-0
)record";
  const troyka_tests::Outcome run = troyka_tests::run_troyka("replay --quiet " + path);
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out, "record ok: White wins after 17 plies (White wins by (in-a-row 5))\n");
  std::filesystem::remove(path);
}

const std::string kPentagoHead =
    "(game \"T\" (players (White north) (Black south)) (board (rectangle 4 4))\n"
    "  (piece Stone \"S\")\n";
const std::string kPentagoTail = "  (setup) (end (draw no-legal-moves)))\n";

TEST(Pentago, RotateErrors) {
  EXPECT_EQ(troyka_tests::load_error(kPentagoHead + "  (moves (rotate (cells a1 b1 c1) clockwise))\n" + kPentagoTail),
            "test.game:3:18: error: (rotate ...) turns a square of cells, and '(cells ...)' is not one\n"
            " 3 |   (moves (rotate (cells a1 b1 c1) clockwise))\n"
            "   |                  ^\n"
            "hint: name the cells of a block of N columns and N rows, N from 2, e.g. (cells a1 b1 a2 b2)\n");
  EXPECT_EQ(
      troyka_tests::load_error(kPentagoHead + "  (moves (rotate (cells a1 c1 a3 c3) clockwise))\n" + kPentagoTail),
      "test.game:3:18: error: (rotate ...) turns a square of cells, and '(cells ...)' is not one\n"
      " 3 |   (moves (rotate (cells a1 c1 a3 c3) clockwise))\n"
      "   |                  ^\n"
      "hint: name the cells of a block of N columns and N rows, N from 2, e.g. (cells a1 b1 a2 b2)\n");
  EXPECT_EQ(troyka_tests::load_error(kPentagoHead + "  (moves (rotate (cells a1 b1 a2 b2) left))\n" + kPentagoTail),
            "test.game:3:38: error: expected 'clockwise' or 'anticlockwise', found 'left'\n"
            " 3 |   (moves (rotate (cells a1 b1 a2 b2) left))\n"
            "   |                                      ^~~~\n"
            "hint: usage: (rotate REGION clockwise|anticlockwise): the pieces of a square region turn a quarter "
            "with it\n");
  EXPECT_EQ(troyka_tests::load_error(kPentagoHead + "  (moves (rotate all))\n" + kPentagoTail),
            "test.game:3:10: error: '(rotate ...)' has 1 part after 'rotate' but needs 2\n"
            " 3 |   (moves (rotate all))\n"
            "   |          ^\n"
            "hint: usage: (rotate REGION clockwise|anticlockwise): the pieces of a square region turn a quarter "
            "with it\n");
  EXPECT_EQ(troyka_tests::load_error("(game \"T\" (players (White north) (Black east)) (board (rhombus 3 3))\n"
                                     "  (piece Stone \"S\")\n"
                                     "  (moves (rotate all clockwise))\n" +
                                     kPentagoTail),
            "test.game:3:10: error: (rotate ...) turns a square of cells, and this board's cells are not squares\n"
            " 3 |   (moves (rotate all clockwise))\n"
            "   |          ^\n"
            "hint: rotate on a (board (rectangle WIDTH HEIGHT))\n");
  EXPECT_EQ(troyka_tests::load_error(
                kPentagoHead + "  (moves (new Stone) (enter all) (if (rotate all clockwise) empty))\n" + kPentagoTail),
            "test.game:3:38: error: expected a test here, such as empty or (can ...), found '(rotate ...)'\n"
            " 3 |   (moves (new Stone) (enter all) (if (rotate all clockwise) empty))\n"
            "   |                                      ^\n");
  EXPECT_EQ(troyka_tests::load_error(kPentagoHead + "  (moves (rotate all clockwise))\n" + kPentagoTail), "loads");
}

// (when (= decision N)): the N-th decision of the turn, counted in the first turn too, whose length
// may differ: here one drop, then a drop and a pass a turn.
TEST(Pentago, ARuleForOneDecisionOfTheTurn) {
  const Game decisions = troyka_tests::game_from_text(
      "(game \"Decisions\" (players (White north) (Black south)) (board (rectangle 2 2))\n"
      "  (piece Stone \"S\")\n"
      "  (moves (when (= decision 1)) (new Stone) (enter all) empty)\n"
      "  (moves \"pass\" (when (= decision 2)) pass)\n"
      "  (turn (actions 2) (first 1))\n"
      "  (setup) (end (draw (ply-limit 6))))\n");
  decisions.visit([&](const auto& program) {
    auto state = program.initial_state();
    EXPECT_EQ(move_texts(program, state), (std::vector<std::string>{"a1", "a2", "b1", "b2"}));
    state = troyka_tests::after(program, state, "a1");
    EXPECT_EQ(program.position_text(state), "2/S1 Black:2 1");
    EXPECT_EQ(move_texts(program, state), (std::vector<std::string>{"a2", "b1", "b2"}));
    state = troyka_tests::after(program, state, "b2");
    EXPECT_EQ(move_texts(program, state), (std::vector<std::string>{"pass"}));
  });
}

TEST(Pentago, DecisionErrors) {
  EXPECT_EQ(troyka_tests::load_error(kPentagoHead + "  (moves (when (= decision 0)) (rotate all clockwise))\n" +
                                     "  (turn (actions 2))\n" + kPentagoTail),
            "test.game:3:28: error: the decision must be between 1 and 255, but it is 0\n"
            " 3 |   (moves (when (= decision 0)) (rotate all clockwise))\n"
            "   |                            ^\n");
  EXPECT_EQ(troyka_tests::load_error(kPentagoHead + "  (moves (when (= decision 3)) (rotate all clockwise))\n" +
                                     "  (turn (actions 2))\n" + kPentagoTail),
            "test.game:3:3: error: a turn of this game is 2 decisions, so (= decision 3) never holds\n"
            " 3 |   (moves (when (= decision 3)) (rotate all clockwise))\n"
            "   |   ^\n"
            "hint: give a turn more decisions with (turn (actions N))\n");
  EXPECT_EQ(troyka_tests::load_error(kPentagoHead + "  (moves (when (= decision 2)) (rotate all clockwise))\n" +
                                     kPentagoTail),
            "test.game:3:3: error: a turn of this game is 1 decision, so (= decision 2) never holds\n"
            " 3 |   (moves (when (= decision 2)) (rotate all clockwise))\n"
            "   |   ^\n"
            "hint: give a turn more decisions with (turn (actions N))\n");
}

// MCTS against random: four games at 100 iterations a decision.
TEST(Pentago, MctsBeatsRandomInAMatch) {
  troyka_tests::expect_first_agent_scores(
      "match games/pentago.game --games 4 --agents mcts:iterations=100 random --json", 3.0);
}

}  // namespace
}  // namespace troyka
