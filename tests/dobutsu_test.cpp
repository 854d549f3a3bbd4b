// games/dobutsu-shogi.game and the hands of the core (docs/core-design.md §6, step 15): perft and
// random games against the plain reference of tests/reference_dobutsu.h, hand-made positions for
// captures into the hand, demotion, drops, the Chick that does not promote when dropped, the Try
// and the capture of the Lion, position text with hands, the exact errors of the new forms, and a
// match of MCTS against random.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <vector>

#include "interpreter/game.h"
#include "interpreter/perft.h"
#include "tests/games.h"
#include "tests/reference_dobutsu.h"
#include "tests/run_troyka.h"

namespace troyka {
namespace {

using troyka_tests::after;
using troyka_tests::after_move;
using troyka_tests::end_after;
using troyka_tests::game;
using troyka_tests::kSlowBuild;
using troyka_tests::move_texts;
using troyka_tests::position;

namespace dobutsu = reference_dobutsu;

// Deeper counts, from troyka perft and the reference alike, are in docs/games.md.
const std::vector<std::uint64_t> kDobutsuPerft = {4, 17, 123, 976, 8122, 71677};

TEST(Dobutsu, PerftAgreesWithTheReference) {
  game("dobutsu-shogi.game").visit([](const auto& program) {
    troyka_tests::expect_start_perft(program, kDobutsuPerft, kDobutsuPerft.size() - (kSlowBuild ? 2 : 0),
                                     [](int depth) { return dobutsu::perft(dobutsu::start(), depth); });
  });
}

TEST(Dobutsu, RandomGamesAgreeWithTheReference) {
  troyka_tests::expect_random_games_agree_with_plain_reference(
      game("dobutsu-shogi.game"),
      troyka_tests::PlainReference<dobutsu::Position>{dobutsu::start(), dobutsu::successors, dobutsu::winner,
                                                      dobutsu::text, dobutsu::kOngoing},
      "dobutsu-shogi.game", kSlowBuild ? 2 : 30, 14);
}

TEST(Dobutsu, ACapturedPieceGoesToTheCaptorsHandAndAHenAsAChick) {
  game("dobutsu-shogi.game").visit([](const auto& program) {
    EXPECT_EQ(after_move(program, "l2/3/h2/G1L Black 0 hand=-", "a1xa2"), "l2/3/G2/2L White 1 hand=C");
    EXPECT_EQ(after_move(program, "l2/3/e2/G1L Black 0 hand=Cg", "a1xa2"), "l2/3/G2/2L White 1 hand=CEg");
    // White's captures go to White's hand, written in lower case after Black's.
    EXPECT_EQ(after_move(program, "l2/g2/C2/2L White 0 hand=C", "a3xa2"), "l2/3/g2/2L Black 1 hand=Cc");
  });
}

TEST(Dobutsu, APieceInHandDropsOnAnyEmptyCell) {
  game("dobutsu-shogi.game").visit([](const auto& program) {
    EXPECT_EQ(move_texts(program, position(program, "l2/3/3/2L Black 0 hand=CE")),
              (std::vector<std::string>{"C*a1", "C*a2", "C*a3", "C*b1", "C*b2",  "C*b3",  "C*b4", "C*c2",
                                        "C*c3", "C*c4", "E*a1", "E*a2", "E*a3",  "E*b1",  "E*b2", "E*b3",
                                        "E*b4", "E*c2", "E*c3", "E*c4", "c1-b1", "c1-b2", "c1-c2"}));
    EXPECT_EQ(after_move(program, "l2/3/3/2L Black 0 hand=2CE", "C*b2"), "l2/3/1C1/2L White 1 hand=CE");
  });
}

TEST(Dobutsu, AChickDroppedOnTheFarRowStaysAChickAndCannotMove) {
  game("dobutsu-shogi.game").visit([](const auto& program) {
    EXPECT_EQ(after_move(program, "2l/3/3/L2 Black 0 hand=C", "C*a4"), "C1l/3/3/L2 White 1 hand=-");
    EXPECT_EQ(move_texts(program, position(program, "C1l/3/3/L2 Black 2 hand=-")),
              (std::vector<std::string>{"a1-a2", "a1-b1", "a1-b2"}));
    // A Chick that moves there becomes a Hen.
    EXPECT_EQ(after_move(program, "2l/C2/3/L2 Black 0 hand=-", "a3-a4"), "H1l/3/3/L2 White 1 hand=-");
  });
}

TEST(Dobutsu, CapturingTheLionWins) {
  game("dobutsu-shogi.game").visit([](const auto& program) {
    EXPECT_EQ(end_after(program, "3/1l1/1G1/L2 Black 0 hand=-", "b2xb3"), "White loses by (lost Lion)");
    EXPECT_EQ(end_after(program, "3/1l1/1G1/L2 White 0 hand=-", "b3xb2"), "");
    EXPECT_EQ(end_after(program, "2l/3/1g1/L2 White 0 hand=-", "b2-a2"), "");
  });
}

TEST(Dobutsu, ALionOnTheFarRowWinsWhenItCannotBeTaken) {
  game("dobutsu-shogi.game").visit([](const auto& program) {
    const std::string try_won = "Black wins by (and (reach Lion far-row) (not (in-check Lion)))";
    EXPECT_EQ(end_after(program, "3/L2/2l/3 Black 0 hand=-", "a3-a4"), try_won);
    // The Elephant on b3 guards a4: the Lion may go there, and the game goes on; taken, it loses.
    EXPECT_EQ(end_after(program, "3/Le1/2l/3 Black 0 hand=-", "a3-a4"), "");
    EXPECT_EQ(end_after(program, "L2/1e1/2l/3 White 1 hand=-", "b3xa4"), "Black loses by (lost Lion)");
    // Not taken, it wins once the reply leaves it safe (the source: "unless the Lion is captured by
    // the opponent in the next turn"); a reply that still guards a4 does not end the game.
    EXPECT_EQ(end_after(program, "L2/1e1/2l/3 White 1 hand=-", "b3-c4"), try_won);
    EXPECT_EQ(end_after(program, "L2/1e1/2l/3 White 1 hand=-", "c2-c3"), "");
  });
}

TEST(Dobutsu, PositionTextWithHandsReadsBack) {
  game("dobutsu-shogi.game").visit([](const auto& program) {
    const std::string text = "l2/3/3/2L Black 4 hand=2CGeg";
    const auto state = position(program, text);
    EXPECT_EQ(program.position_text(state), "l2/3/3/2L Black 4 hand=2CGge");
    EXPECT_EQ(state.hands[0][0], 2);
    EXPECT_EQ(state.hands[1][2], 1);
    // The hands are part of the position: its hash says so.
    EXPECT_NE(state.hash, position(program, "l2/3/3/2L Black 4 hand=CGge").hash);
    EXPECT_NE(state.hash, position(program, "l2/3/3/2L Black 4 hand=2CGGe").hash);
    EXPECT_EQ(program.diagram(state).substr(program.diagram(state).rfind("in hand")), "in hand: 2CGge\n");
    EXPECT_EQ(program.parse_position("l2/3/3/2L Black 4 hand=2CL").error,
              "'hand=2CL' names 'L', which is not a piece of (hands ...); write each player's pieces in hand as "
              "letters, Black's in upper case, a count before a letter held more than once (hand=2Ce), or hand=-");
    EXPECT_EQ(program.parse_position("l2/3/3/2L Black 4 hand=1C").error,
              "'hand=1C' has a count that is not from 2 to 99 before a letter; write each player's pieces in hand "
              "as letters, Black's in upper case, a count before a letter held more than once (hand=2Ce), or "
              "hand=-");
  });
}

TEST(Dobutsu, ARepeatedPositionDrawsWithTheGamesHistory) {
  game("dobutsu-shogi.game").visit([](const auto& program) {
    const auto state = troyka_tests::after_rounds(program, {"c1-c2", "a4-a3", "c2-c1", "a3-a4"}, 2);
    ASSERT_TRUE(state.over);
    EXPECT_EQ(program.end_reason(state), "draw by (repetition 3)");
  });
}

TEST(Dobutsu, ShowSaysEveryRuleRunsOnTheGeneralBackEndAndTranslateWritesTheHands) {
  const troyka_tests::Outcome shown = troyka_tests::run_troyka("show games/dobutsu-shogi.game");
  ASSERT_EQ(shown.status, 0) << shown.err;
  EXPECT_NE(shown.out.find("(moves (from-hand) (enter all) empty) (line 30)\n    compiled: general:"),
            std::string::npos)
      << shown.out;
  EXPECT_EQ(shown.out.find("fast path"), std::string::npos) << shown.out;
  const troyka_tests::Outcome translated = troyka_tests::run_troyka("translate games/dobutsu-shogi.game");
  ASSERT_EQ(translated.status, 0) << translated.err;
  for (const char* form : {"  (hands Chick Giraffe Elephant)\n", "  (piece Hen \"H\" (demotes-to Chick)\n",
                           "(seq enemy (capture to-hand))", "  (moves from-hand (enter all) empty)\n"})
    EXPECT_NE(translated.out.find(form), std::string::npos) << form << " in\n" << translated.out;
  Game(lang::load_rules(std::make_shared<lang::SourceFile>(lang::SourceFile{"translated.game", translated.out}), {}))
      .visit([](const auto& program) { EXPECT_EQ(perft(program, program.initial_state(), 4), kDobutsuPerft[3]); });
}

// The mistakes the new forms can make, with their exact messages.
std::string hand_forms_error(const std::string& declarations, const std::string& pieces) {
  return troyka_tests::load_error("(game \"Test\" (players (White north) (Black south)) (board (rectangle 3 4))\n" +
                                  declarations + "\n" + pieces +
                                  "\n(setup (place White King a1) (place Black King c4)) (end (lose (lost King))))");
}

TEST(HandForms, ErrorsSayWhatIsWrong) {
  const std::string king = "(piece King \"K\" (moves (go n) (or empty (seq enemy (capture to-hand)))))";
  EXPECT_EQ(hand_forms_error("", king),
            "test.game:3:52: error: '(capture to-hand)' needs hands, and this game has none\n"
            " 3 | (piece King \"K\" (moves (go n) (or empty (seq enemy (capture to-hand)))))\n"
            "   |                                                    ^\n"
            "hint: declare the piece types a player may hold: (hands PIECE...)\n");
  EXPECT_EQ(
      hand_forms_error("(hands King)", "(piece King \"K\" (moves (go n) (or empty (seq enemy (capture to-hnd)))))"),
      "test.game:3:61: error: expected 'to-hand', found 'to-hnd'\n"
      " 3 | (piece King \"K\" (moves (go n) (or empty (seq enemy (capture to-hnd)))))\n"
      "   |                                                             ^~~~~~\n"
      "hint: usage: capture, or (capture to-hand): the piece at here goes to the mover's hand\n");
  EXPECT_EQ(hand_forms_error("(hands King) (moves (from-hand Man) (enter all) empty)",
                             "(piece King \"K\" (moves (go n) empty)) (piece Man \"M\")"),
            "test.game:2:21: error: no hand holds the piece 'Man'\n"
            " 2 | (hands King) (moves (from-hand Man) (enter all) empty)\n"
            "   |                     ^\n"
            "hint: add it to (hands ...)\n");
  EXPECT_EQ(hand_forms_error("", "(piece King \"K\" (moves (go n) empty)) (moves from-hand (enter all) empty)"),
            "test.game:3:46: error: 'from-hand' needs hands, and this game has none\n"
            " 3 | (piece King \"K\" (moves (go n) empty)) (moves from-hand (enter all) empty)\n"
            "   | " +
                std::string(45, ' ') +
                "^~~~~~~~~\n"
                "hint: declare the piece types a player may hold: (hands PIECE...)\n");
  EXPECT_EQ(hand_forms_error("(hands Queen)", king + " (piece Queen \"Q\" (demotes-to King) (moves (go n) empty))"),
            "test.game:2:8: error: 'Queen' demotes to 'King' when captured, so no hand holds it\n"
            " 2 | (hands Queen)\n"
            "   |        ^~~~~\n"
            "hint: name 'King' instead\n");
  EXPECT_EQ(hand_forms_error("(hands King King)", king),
            "test.game:2:13: error: the piece 'King' is in (hands ...) twice\n"
            " 2 | (hands King King)\n"
            "   |             ^~~~\n");
  EXPECT_EQ(hand_forms_error("(hands King)", "(piece King \"K\" (demotes-to King) (moves (go n) empty))"),
            "test.game:3:29: error: the piece 'King' would demote to itself\n"
            " 3 | (piece King \"K\" (demotes-to King) (moves (go n) empty))\n"
            "   |                             ^~~~\n"
            "hint: name the unpromoted piece it goes back to, or leave (demotes-to ...) out\n");
  EXPECT_EQ(hand_forms_error("(piece Queen \"Q\" (demotes-to Rook)) (piece Rook \"R\" (demotes-to King))",
                             "(piece King \"K\" (moves (go n) empty))"),
            "test.game:2:30: error: 'Rook' demotes in turn, to 'King'\n"
            " 2 | (piece Queen \"Q\" (demotes-to Rook)) (piece Rook \"R\" (demotes-to King))\n"
            "   |                              ^~~~\n"
            "hint: name the type a captured 'Queen' goes to a hand as: (demotes-to King)\n");
  EXPECT_EQ(hand_forms_error("(hands)", king),
            "test.game:2:1: error: '(hands ...)' names no piece\n"
            " 2 | (hands)\n"
            "   | ^\n"
            "hint: usage: (hands PIECE...): the piece types a player may hold in hand, e.g. (hands Chick Giraffe "
            "Elephant)\n");
}

// Dobutsu, where random games end in about 13 plies: four games at 30 iterations a move (won 4-0 when written).
TEST(Dobutsu, MctsBeatsRandomInAMatch) {
  troyka_tests::expect_first_agent_scores(
      "match games/dobutsu-shogi.game --games 4 --agents mcts:iterations=30 random --json", 3.0);
}

// (in-hand [PLAYER] PIECE COUNT) in a setup: pieces in hand at the start, and its mistakes.
std::string with_in_hand(const std::string& in_hand) {
  return "(game \"Test\" (players (White north) (Black south)) (board (rectangle 3 4)) (hands Man)\n"
         "(piece King \"K\" (moves (go n) empty)) (piece Man \"M\") (moves (from-hand Man) (enter all) empty)\n"
         "(setup (place White King a1) (place Black King c4) " +
         in_hand + ") (end (lose (lost King))))";
}

TEST(HandForms, InHandFillsAHandAtTheStart) {
  const std::string text = with_in_hand("(in-hand Man 1) (in-hand White Man 2)");
  troyka_tests::game_from_text(text).visit([](const auto& program) {
    EXPECT_EQ(program.position_text(program.initial_state()), "2k/3/3/K2 White 0 hand=3Mm");
    // The King's step, and a Man dropped on each of the 10 empty cells.
    EXPECT_EQ(perft(program, program.initial_state(), 1), 11u);
  });
  const auto first_line = [](const std::string& error) { return error.substr(0, error.find('\n')); };
  EXPECT_EQ(first_line(troyka_tests::load_error(with_in_hand("(in-hand King 1)"))),
            "test.game:3:61: error: no hand holds the piece 'King'");
  EXPECT_EQ(first_line(troyka_tests::load_error(with_in_hand("(in-hand Man 100)"))),
            "test.game:3:65: error: the count in hand must be between 0 and 99, but it is 100");
  EXPECT_EQ(first_line(troyka_tests::load_error(with_in_hand("(in-hand Man)"))),
            "test.game:3:52: error: '(in-hand ...)' takes a piece and a count");
}

}  // namespace
}  // namespace troyka
