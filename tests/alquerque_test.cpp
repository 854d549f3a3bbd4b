// games/alquerque.game, on a board of points whose diagonals run through every other point: perft
// from the start against the plain reference of tests/reference_alquerque.h, random games compared
// with it move by move, hand-made positions for a chain of jumps that turns backward, the steps
// that never go backward, the diagonals missing from the odd points, compulsory capture (any
// capture, not the longest), the far row, the end rules, and a match of MCTS against random; and
// bench/games/alquerque-ludii.game, Ludii's default rules, against the same reference's form of them.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "interpreter/game.h"
#include "interpreter/perft.h"
#include "tests/games.h"
#include "tests/reference_alquerque.h"
#include "tests/run_troyka.h"

namespace troyka {
namespace {

using troyka_tests::game;
using troyka_tests::kSlowBuild;
using troyka_tests::move_texts;
using troyka_tests::position;

namespace alquerque = reference_alquerque;

Game alquerque_game() { return game("alquerque.game"); }

// From the start, depths 1 to 12, as troyka and the reference both count them (perft counts move
// sequences, a chain of jumps one move). White has only the four moves into c3; then captures,
// which are compulsory, keep the counts small for a while. Depths 13 and 14, 5167627 and 28879896,
// by the CLI and the reference alone (docs/games.md).
const std::vector<std::uint64_t> kPerft = {4, 5, 6, 12, 27, 95, 410, 1793, 7853, 36731, 183592, 959223};

TEST(Alquerque, PerftAgreesWithTheReference) {
  alquerque_game().visit([](const auto& program) {
    EXPECT_EQ(program.position_text(program.initial_state()), "mmmmm/mmmmm/mm1MM/MMMMM/MMMMM White 0");
    EXPECT_EQ(alquerque::text(alquerque::start()), "mmmmm/mmmmm/mm1MM/MMMMM/MMMMM White 0");
    troyka_tests::expect_start_perft(program, kPerft, kSlowBuild ? 8 : 11,
                                     [](int depth) { return alquerque::perft(alquerque::start(), depth); });
  });
}

// Later in a game, where men of both sides meet in the middle and on the far rows.
TEST(Alquerque, PerftAgreesWithTheReferenceInTheMiddleGame) {
  const alquerque::Position middle = alquerque::with_men({"a1", "c1", "b2", "d2", "e2", "c3", "e3", "b4"},
                                                         {"a5", "c5", "d5", "a4", "d4", "b3", "a2"}, 20);
  alquerque_game().visit([&](const auto& program) {
    const auto state = position(program, alquerque::text(middle));
    troyka_tests::expect_perft_agrees(program, state, kSlowBuild ? 4 : 6,
                                      [&](int depth) { return alquerque::perft(middle, depth); });
  });
}

TEST(Alquerque, RandomGamesAgreeWithTheReference) {
  troyka_tests::expect_random_games_agree_with_plain_reference(
      alquerque_game(),
      troyka_tests::PlainReference<alquerque::Position>{alquerque::start(), alquerque::successors, alquerque::winner,
                                                        alquerque::text, alquerque::kOngoing},
      "alquerque.game", kSlowBuild ? 10 : 100, 15);
}

// The texts of the legal moves in the position written `text`.
std::vector<std::string> moves_in(const std::string& text) {
  std::vector<std::string> texts;
  alquerque_game().visit([&](const auto& program) { texts = move_texts(program, position(program, text)); });
  return texts;
}

// c1 jumps forward over c2, sideways over b3, then backward over a2: a later jump of a chain may go
// any way, and the chain goes on while it can (c1xc3 alone is no move). Black has no man left.
TEST(Alquerque, AChainJumpsOnAndMayTurnBackward) {
  const std::string at = "5/5/1m3/m1m2/2M2 White 10";
  EXPECT_EQ(moves_in(at), (std::vector<std::string>{"c1xc3xa3xa1"}));
  alquerque_game().visit([&](const auto& program) {
    const auto state = troyka_tests::after(program, position(program, at), "c1xc3xa3xa1");
    EXPECT_EQ(program.position_text(state), "5/5/5/5/M4 Black 11");
    EXPECT_TRUE(state.over);
    EXPECT_EQ(state.winner, 0);
  });
}

// A man steps forward, diagonally forward or sideways, never backward, for either side; and its
// first jump does not go backward either: the Black man behind c3 is safe, and not taking it is legal.
TEST(Alquerque, MenNeverStepOrStartAJumpBackward) {
  EXPECT_EQ(moves_in("m4/5/2M2/5/5 White 10"), (std::vector<std::string>{"c3-b3", "c3-b4", "c3-c4", "c3-d3", "c3-d4"}));
  EXPECT_EQ(moves_in("m4/5/2M2/2m2/5 White 10"),
            (std::vector<std::string>{"c3-b3", "c3-b4", "c3-c4", "c3-d3", "c3-d4"}));
  EXPECT_EQ(moves_in("5/5/2m2/5/M4 Black 11"), (std::vector<std::string>{"c3-b2", "c3-b3", "c3-c2", "c3-d2", "c3-d3"}));
}

// A point whose column and row add up to an odd number (b3, b1, c2) has no diagonal: b3 steps to
// three points only, and b1 cannot jump c2 diagonally to d3.
TEST(Alquerque, OddPointsHaveNoDiagonals) {
  EXPECT_EQ(moves_in("m4/5/1M3/5/5 White 10"), (std::vector<std::string>{"b3-a3", "b3-b4", "b3-c3"}));
  EXPECT_EQ(moves_in("m4/5/5/2m2/1M3 White 10"), (std::vector<std::string>{"b1-a1", "b1-b2", "b1-c1"}));
  // From an even point the same diagonal jump is there, and compulsory.
  EXPECT_EQ(moves_in("m4/5/5/1m3/M4 White 10"), (std::vector<std::string>{"a1xc3"}));
}

// Capturing is compulsory: e1 may not step while c1 can jump. Any capture will do: the chain of two
// and the single jump are both legal.
TEST(Alquerque, CapturingIsCompulsoryButNotTheLongest) {
  EXPECT_EQ(moves_in("m4/5/5/2m2/2M1M White 10"), (std::vector<std::string>{"c1xc3"}));
  EXPECT_EQ(moves_in("5/2m2/5/2m1m/2M1M White 10"), (std::vector<std::string>{"c1xc3xc5", "e1xe3"}));
}

// A man on the far row no longer steps, but it still jumps (sideways here). A player with no move
// loses.
TEST(Alquerque, AManOnTheFarRowOnlyJumps) {
  EXPECT_EQ(moves_in("2Mm1/5/5/5/m4 White 10"), (std::vector<std::string>{"c5xe5"}));
  alquerque_game().visit([&](const auto& program) {
    const auto stuck = position(program, "2M2/5/5/5/m4 White 10");
    EXPECT_TRUE(stuck.over);
    EXPECT_EQ(stuck.winner, 1);
  });
}

// 200 plies are a draw.
TEST(Alquerque, TwoHundredPliesAreADraw) {
  alquerque_game().visit([&](const auto& program) {
    EXPECT_FALSE(position(program, "m4/5/2M2/5/5 Black 199").over);
    const auto state = troyka_tests::after(program, position(program, "m4/5/2M2/5/5 Black 199"), "a5-a4");
    EXPECT_TRUE(state.over);
    EXPECT_EQ(state.winner, kDraw);
  });
}

// bench/games/alquerque-ludii.game, Ludii's default rules (steps and single jumps any way, capture
// not compulsory): perft from the start against the reference, whose first two depths a hand count
// gives too (White's four men next to c3 step in; then Black has 1, 3, 2 and 2 moves after c2-c3,
// b2-c3, d2-c3 and d3-c3: only the jumps into the emptied point and the steps of a3, b3 and d4),
// and random games compared with the reference move by move.
Game ludii_alquerque() { return Game::load(std::string(TROYKA_SOURCE_DIR) + "/bench/games/alquerque-ludii.game"); }

const std::vector<std::uint64_t> kLudiiPerft = {4, 8, 33, 210, 1430, 10262, 81306, 717196};

TEST(Alquerque, LudiisRulesAgreeWithTheReference) {
  ludii_alquerque().visit([](const auto& program) {
    troyka_tests::expect_start_perft(program, kLudiiPerft, kSlowBuild ? 6 : 8,
                                     [](int depth) { return alquerque::ludii_perft(alquerque::start(), depth); });
  });
  troyka_tests::expect_random_games_agree_with_plain_reference(
      ludii_alquerque(),
      troyka_tests::PlainReference<alquerque::Position>{alquerque::start(), alquerque::ludii_successors,
                                                        alquerque::ludii_winner, alquerque::text, alquerque::kOngoing},
      "alquerque-ludii.game", kSlowBuild ? 5 : 30, 15);
}

// By Ludii's rules a man steps and jumps backward too, and need not capture: c3 may step to any
// empty neighbour or take c2 by jumping south to c1.
TEST(Alquerque, LudiisMenGoAnyWayAndNeedNotCapture) {
  ludii_alquerque().visit([](const auto& program) {
    EXPECT_EQ(move_texts(program, position(program, "m4/5/2M2/2m2/5 White 10")),
              (std::vector<std::string>{"c3-b2", "c3-b3", "c3-b4", "c3-c4", "c3-d2", "c3-d3", "c3-d4", "c3xc1"}));
  });
}

// MCTS against random: four games at 30 iterations a move.
TEST(Alquerque, MctsBeatsRandomInAMatch) {
  troyka_tests::expect_first_agent_scores(
      "match games/alquerque.game --games 4 --agents mcts:iterations=30 random --json", 3.0);
}

}  // namespace
}  // namespace troyka
