// games/minishogi.game and a rule's own (legal ...) with (opponent ...): perft against the
// published figures and the plain reference of tests/reference_minishogi.h, random games compared
// move by move, hand-made positions for the rules easy to get wrong (nifu, uchifuzume and the
// pawn-drop check that is not mate, the forced promotion of a Pawn, promotion on leaving the far
// row, captured promoted pieces dropped unpromoted), the exact errors of the new forms, and a match
// of MCTS against random.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "interpreter/game.h"
#include "interpreter/perft.h"
#include "tests/games.h"
#include "tests/reference_minishogi.h"
#include "tests/run_troyka.h"

namespace troyka {
namespace {

using troyka_tests::after_move;
using troyka_tests::end_after;
using troyka_tests::game;
using troyka_tests::kSlowBuild;
using troyka_tests::move_texts;
using troyka_tests::position;

namespace minishogi = reference_minishogi;

// The published counts from the start, depths 1 to 5: lishogi's shogiops (github.com/WandererXII/shogiops,
// its minishogi perft test from "rbsgk/4p/5/P4/KGSBR b - 1") and lishogi's scalashogi
// (MinishogiTest) give 14, 181, 2512, 35401 and 533203.
const std::vector<std::uint64_t> kMinishogiPerft = {14, 181, 2512, 35401, 533203};

TEST(Minishogi, PerftMatchesThePublishedCountsAndTheReference) {
  game("minishogi.game").visit([](const auto& program) {
    EXPECT_EQ(program.position_text(program.initial_state()), "rbsgk/4p/5/P4/KGSBR Black 0 hand=-");
    troyka_tests::expect_start_perft(program, kMinishogiPerft, kMinishogiPerft.size() - (kSlowBuild ? 2 : 1),
                                     [](int depth) { return minishogi::perft(minishogi::start(), depth); });
  });
}

TEST(Minishogi, RandomGamesAgreeWithTheReference) {
  troyka_tests::expect_random_games_agree_with_plain_reference(
      game("minishogi.game"),
      troyka_tests::PlainReference<minishogi::Position>{minishogi::start(), minishogi::successors, minishogi::winner,
                                                        minishogi::text, minishogi::kOngoing},
      "minishogi.game", kSlowBuild ? 1 : 6, 15);
}

// The pawn drops of a position, in order.
template <typename Program>
std::vector<std::string> pawn_drops(const Program& program, const std::string& text) {
  std::vector<std::string> drops;
  for (const std::string& move : move_texts(program, position(program, text)))
    if (move.rfind("P*", 0) == 0) drops.push_back(move);
  return drops;
}

TEST(Minishogi, NoPawnDropInAColumnWithAnUnpromotedPawnOfOnesOwnNorOnTheFarRow) {
  game("minishogi.game").visit([](const auto& program) {
    // Black's Pawn on b2 closes column b, White's on d4 closes nothing to Black, Black's Tokin on c3
    // neither; row 5 is Black's far row.
    EXPECT_EQ(pawn_drops(program, "4k/3p1/2T2/1P3/K4 Black 0 hand=P"),
              (std::vector<std::string>{"P*a2", "P*a3", "P*a4", "P*c1", "P*c2", "P*c4", "P*d1", "P*d2", "P*d3", "P*e1",
                                        "P*e2", "P*e3", "P*e4"}));
  });
}

TEST(Minishogi, APawnDropThatMatesIsIllegalButOneThatChecksIsLegal) {
  game("minishogi.game").visit([](const auto& program) {
    // P*e4 would mate: the Gold on e3 guards e4 and d4, White's Rook on d5 cannot take.
    const std::vector<std::string> mated = pawn_drops(program, "3rk/5/4G/5/K4 Black 0 hand=P");
    EXPECT_EQ(std::count(mated.begin(), mated.end(), "P*e4"), 0);
    EXPECT_EQ(std::count(mated.begin(), mated.end(), "P*e2"), 1);
    // With the Gold away, the King takes the Pawn: the drop checks, and is legal.
    const std::vector<std::string> checked = pawn_drops(program, "3rk/5/5/4G/K4 Black 0 hand=P");
    EXPECT_EQ(std::count(checked.begin(), checked.end(), "P*e4"), 1);
    EXPECT_EQ(after_move(program, "3rk/5/5/4G/K4 Black 0 hand=P", "P*e4"), "3rk/4P/5/4G/K4 White 1 hand=-");
    // A Pawn that moves may mate.
    EXPECT_EQ(end_after(program, "3rk/5/3GP/5/K4 Black 0 hand=-", "e3-e4"), "White loses by no-legal-moves");
  });
}

TEST(Minishogi, APawnOnTheFarRowMustPromote) {
  game("minishogi.game").visit([](const auto& program) {
    const std::vector<std::string> moves = move_texts(program, position(program, "k4/2P2/5/5/4K Black 0 hand=-"));
    EXPECT_EQ(std::count(moves.begin(), moves.end(), "c4-c5"), 1);
    EXPECT_EQ(after_move(program, "k4/2P2/5/5/4K Black 0 hand=-", "c4-c5"), "k1T2/5/5/5/4K White 1 hand=-");
  });
}

TEST(Minishogi, AMoveThatStartsOrEndsOnTheFarRowMayPromote) {
  game("minishogi.game").visit([](const auto& program) {
    // A Silver leaving the far row: promoted or not, both moves.
    const std::vector<std::string> moves = move_texts(program, position(program, "k1S2/5/5/5/4K Black 0 hand=-"));
    for (const char* move : {"c5-b4", "c5-b4=N", "c5-d4", "c5-d4=N"})
      EXPECT_EQ(std::count(moves.begin(), moves.end(), move), 1) << move;
    EXPECT_EQ(after_move(program, "k1S2/5/5/5/4K Black 0 hand=-", "c5-d4=N"), "k4/3N1/5/5/4K White 1 hand=-");
    // A Rook entering it, and one moving within the rows below it, which may not.
    const std::vector<std::string> rook = move_texts(program, position(program, "k4/5/2R2/5/4K Black 0 hand=-"));
    EXPECT_EQ(std::count(rook.begin(), rook.end(), "c3-c5=D"), 1);
    EXPECT_EQ(std::count(rook.begin(), rook.end(), "c3-c5"), 1);
    EXPECT_EQ(std::count(rook.begin(), rook.end(), "c3-c4"), 1);
  });
}

TEST(Minishogi, APromotedPieceTakenGoesToTheHandUnpromotedAndDropsSo) {
  game("minishogi.game").visit([](const auto& program) {
    EXPECT_EQ(after_move(program, "k4/5/2d2/2G2/4K Black 0 hand=-", "c2xc3"), "k4/5/2G2/5/4K White 1 hand=R");
    EXPECT_EQ(after_move(program, "k4/5/2t2/2G2/4K Black 0 hand=-", "c2xc3"), "k4/5/2G2/5/4K White 1 hand=P");
    EXPECT_EQ(after_move(program, "k4/5/5/5/4K Black 0 hand=R", "R*c5"), "k1R2/5/5/5/4K White 1 hand=-");
  });
}

TEST(Minishogi, CheckmateEndsTheGame) {
  game("minishogi.game").visit([](const auto& program) {
    // A Gold dropped on e4 or d4, guarded by the Silver on d3, checks the King on e5 and guards its
    // other cells: a drop other than a Pawn's may mate.
    EXPECT_EQ(end_after(program, "4k/5/3S1/5/K4 Black 0 hand=G", "G*e4"), "White loses by no-legal-moves");
    EXPECT_EQ(end_after(program, "4k/5/3S1/5/K4 Black 0 hand=G", "G*d4"), "White loses by no-legal-moves");
    EXPECT_EQ(end_after(program, "4k/5/3S1/5/K4 Black 0 hand=G", "G*e3"), "");
  });
}

// The mistakes of a rule's own (legal ...) and of (opponent ...), with their exact messages.
std::string error_with_rule(const std::string& rule) {
  return troyka_tests::load_error(
      "(game \"Test\" (players (White north) (Black south)) (board (rectangle 3 4)) (hands Man)\n"
      "(piece King \"K\" (moves (go n) empty)) (piece Man \"M\")\n" +
      rule + "\n(setup (place White King a1) (place Black King c4)) (end (lose (lost King))))");
}

TEST(RuleLegality, ErrorsSayWhatIsWrong) {
  EXPECT_EQ(error_with_rule("(moves (legal no-legal-moves) (legal no-legal-moves) (from-hand Man) (enter all) empty)"),
            "test.game:3:31: error: '(legal ...)' is given twice\n"
            " 3 | (moves (legal no-legal-moves) (legal no-legal-moves) (from-hand Man) (enter all) empty)\n"
            "   |                               ^\n"
            "hint: join the conditions in one: (legal (and C...))\n");
  EXPECT_EQ(error_with_rule("(moves (legal (not (repetition 3))) (from-hand Man) (enter all) empty)"),
            "test.game:3:20: error: a rule's '(legal ...)' cannot test (repetition 3)\n"
            " 3 | (moves (legal (not (repetition 3))) (from-hand Man) (enter all) empty)\n"
            "   |                    ^\n"
            "hint: a move's legality is asked of the position after it and of the moves that follow it, not of "
            "plies counted before it\n");
  EXPECT_EQ(error_with_rule("(moves (legal (opponent)) (from-hand Man) (enter all) empty)"),
            "test.game:3:15: error: '(opponent ...)' is missing its CONDITION\n"
            " 3 | (moves (legal (opponent)) (from-hand Man) (enter all) empty)\n"
            "   |               ^\n"
            "hint: usage: (opponent CONDITION): CONDITION holds for the player's opponent\n");
  EXPECT_EQ(troyka_tests::load_error("(game \"Test\" (players (White north) (Red east) (Black south)) (board "
                                     "(rectangle 3 4))\n(piece King \"K\" (step n))\n(setup (place White King a1)) "
                                     "(end (win (opponent (lost King)))))"),
            "test.game:3:41: error: '(opponent ...)' names the one opponent of a game of two players, and this game "
            "has 3\n"
            " 3 | (setup (place White King a1)) (end (win (opponent (lost King)))))\n"
            "   |                                         ^\n"
            "hint: ask the condition of each player with an end rule of its own\n");
}

// A rule's (legal ...) tests that rule's moves only: here a Man may be dropped only where the
// opponent is then left without a move (its King on a1 boxed in by the Man on a2), but the King's
// own step is not tested.
TEST(RuleLegality, TestsTheMovesOfItsOwnRuleOnly) {
  const std::string text =
      "(game \"Test\" (players (White north) (Black south)) (board (rectangle 3 4)) (hands Man)\n"
      "(piece King \"K\" (moves (go n) empty)) (piece Man \"M\")\n"
      "(moves (legal (opponent no-legal-moves)) (from-hand Man) (enter all) empty)\n"
      "(setup (place White King a1) (place Black King c3)) (end (lose no-legal-moves)))";
  Game(lang::load_rules(std::make_shared<lang::SourceFile>(lang::SourceFile{"test.game", text}), {}))
      .visit([](const auto& program) {
        const auto state = position(program, "3/2k/3/K2 Black 0 hand=m");
        EXPECT_EQ(move_texts(program, state), (std::vector<std::string>{"M*a2", "c3-c4"}));
      });
}

// Minishogi, where a random player soon leaves its King to be mated: four games at 20 iterations a
// move (won 4-0 when written, in 29.5 plies a game on average and 10 s of CPU).
TEST(Minishogi, MctsBeatsRandomInAMatch) {
  troyka_tests::expect_first_agent_scores(
      "match games/minishogi.game --games 4 --agents mcts:iterations=20 random --json", 3.0);
}

}  // namespace
}  // namespace troyka
