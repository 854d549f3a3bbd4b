// games/chess.game (docs/core-design.md §6, step 14): the published perft figures from the start,
// Kiwipete and the Chess Programming Wiki's "position 3", random games against the plain chess
// reference of tests/reference_check.h, and hand-made positions for the rules that are easy to get
// wrong: castling through, out of and into check, castling after the king or rook moved, en passant
// only right after the double step and never exposing the king, each promotion, the fifty-move rule
// and threefold repetition.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "interpreter/game.h"
#include "interpreter/perft.h"
#include "interpreter/random.h"
#include "lang/diagnostic.h"
#include "tests/fen.h"
#include "tests/games.h"
#include "tests/reference_check.h"
#include "tests/run_troyka.h"

namespace troyka {
namespace {

using troyka_tests::after;
using troyka_tests::chess_position_of_fen;
using troyka_tests::game;
using troyka_tests::kSlowBuild;
using troyka_tests::move_texts;
using troyka_tests::position;
using troyka_tests::successor_texts;

namespace chess = reference::check::chess;

const std::string kStart = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1";
// Chess Programming Wiki, "Perft Results": position 2 (Kiwipete, by Peter McKenzie) and position 3.
const std::string kKiwipete = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq -";
const std::string kPosition3 = "8/2p5/3p4/KP5r/1R3p1k/8/4P1P1/8 w - -";

// Perft from `fen` to the depth that runs fast in this build, against the published figures.
void expect_perft(const std::string& fen, const std::vector<std::uint64_t>& published, std::size_t depth) {
  game("chess.game").visit([&](const auto& program) {
    const auto root = position(program, chess_position_of_fen(fen));
    for (std::size_t d = 1; d <= depth - (kSlowBuild ? 1 : 0); ++d)
      EXPECT_EQ(perft(program, root, static_cast<int>(d)), published[d - 1]) << fen << " depth " << d;
  });
}

TEST(Chess, TheStartIsTheFenOfTheStart) {
  game("chess.game").visit([](const auto& program) {
    EXPECT_EQ(program.position_text(program.initial_state()), chess_position_of_fen(kStart));
    EXPECT_EQ(program.position_text(program.initial_state()),
              "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR White 0 0 unmoved=a1,e1,h1,a8,e8,h8 passed=-");
  });
}

// Published: 20, 400, 8902, 197281, 4865609 (docs/games.md has depth 5, measured with the CLI).
TEST(Chess, PerftOfTheStartIsThePublishedOne) { expect_perft(kStart, {20, 400, 8902}, 3); }

// Published: 48, 2039, 97862, 4085603.
TEST(Chess, PerftOfKiwipeteIsThePublishedOne) { expect_perft(kKiwipete, {48, 2039}, 2); }

// Published: 14, 191, 2812, 43238, 674624.
TEST(Chess, PerftOfPosition3IsThePublishedOne) { expect_perft(kPosition3, {14, 191, 2812}, 3); }

TEST(Chess, TheReferenceCountsThePublishedPerft) {
  const Game loaded = game("chess.game");
  const chess::Position start = chess::start(loaded.rules());
  EXPECT_EQ(chess::perft(loaded.rules(), start, 1), 20u);
  EXPECT_EQ(chess::perft(loaded.rules(), start, 2), 400u);
  if (!kSlowBuild) {
    EXPECT_EQ(chess::perft(loaded.rules(), start, 3), 8902u);
  }
}

// Every position of random games has the reference's moves (compared by the positions they lead
// to, castling rights and the en passant square included) and its end.
TEST(Chess, RandomGamesAgreeWithTheReferenceMoveByMove) {
  const Game loaded = game("chess.game");
  const lang::Rules& rules = loaded.rules();
  loaded.visit([&](const auto& program) {
    Rng rng(14);
    for (int round = 0; round < (kSlowBuild ? 1 : 3); ++round) {
      auto state = program.initial_state();
      chess::Position expected = chess::start(rules);
      for (int ply = 0; ply < (kSlowBuild ? 30 : 300); ++ply) {
        const std::string text = program.position_text(state);
        ASSERT_EQ(text, chess::text(rules, expected));
        const reference::Decision end = chess::decision(rules, expected);
        ASSERT_EQ(state.over, end.over) << text;
        if (state.over) {
          EXPECT_EQ(state.winner, end.winner) << text;
          EXPECT_EQ(state.ended_by, end.ended_by) << text;
          break;
        }
        std::vector<std::string> texts;
        for (const chess::Position& next : chess::successors(rules, expected))
          texts.push_back(chess::text(rules, next));
        std::sort(texts.begin(), texts.end());
        ASSERT_EQ(successor_texts(program, state), texts) << text;
        const Move move = program.random_move(state, rng);
        EXPECT_EQ(program.parse_move(state, program.move_text(move)).move, move) << text;
        program.apply(state, move);
        for (const chess::Position& next : chess::successors(rules, expected))
          if (chess::text(rules, next) == program.position_text(state)) expected = next;
      }
    }
  });
}

// ---- the forms ----------------------------------------------------------------------------------

// A game of two kings on a 5x5 board with `declarations` on line 2 and the king's `rules` on line 3.
std::string king_rules_error(const std::string& declarations, const std::string& rules) {
  const std::string text = "(game \"Test\" (players (White north) (Black south)) (board (rectangle 5 5))\n" +
                           declarations + "\n(piece King \"K\" " + rules +
                           ")\n(setup (place White King a1) (place Black King e5)) (end (lose no-legal-moves)))";
  return troyka_tests::load_error(text);
}

TEST(ChessForms, AttributesAndRegistersAreDeclared) {
  EXPECT_EQ(king_rules_error("(attribute unmoved (initially all))", "(moves (attr unmovd) (go e) empty)"),
            "test.game:3:30: error: unknown attribute 'unmovd'\n"
            " 3 | (piece King \"K\" (moves (attr unmovd) (go e) empty))\n"
            "   |                              ^~~~~~\n"
            "hint: did you mean 'unmoved'?\n");
  EXPECT_EQ(king_rules_error("", "(moves (go e) empty (set-attr unmoved))"),
            "test.game:3:47: error: unknown attribute 'unmoved'\n"
            " 3 | (piece King \"K\" (moves (go e) empty (set-attr unmoved)))\n"
            "   |                                               ^~~~~~~\n"
            "hint: declare it at game level: (attribute NAME (initially REGION))\n");
  EXPECT_EQ(king_rules_error("", "(moves (go e) empty (remember passed))"),
            "test.game:3:47: error: unknown register 'passed'\n"
            " 3 | (piece King \"K\" (moves (go e) empty (remember passed)))\n"
            "   |                                               ^~~~~~\n"
            "hint: declare it at game level: (register NAME [transient])\n");
  EXPECT_EQ(king_rules_error("(attribute unmoved all)", "(step e)"),
            "test.game:2:20: error: expected '(initially REGION)', found 'all'\n"
            " 2 | (attribute unmoved all)\n"
            "   |                    ^~~\n"
            "hint: usage: (attribute NAME (initially REGION)): a mark the pieces standing on REGION start with\n");
  EXPECT_EQ(king_rules_error("(register passed fleeting)", "(step e)"),
            "test.game:2:18: error: expected 'transient', found 'fleeting'\n"
            " 2 | (register passed fleeting)\n"
            "   |                  ^~~~~~~~\n"
            "hint: usage: (register NAME [transient]): a cell remembered across moves\n");
  EXPECT_EQ(king_rules_error("(counter passed (range 0 1)) (register passed)", "(step e)"),
            "test.game:2:40: error: 'passed' is already the name of a counter, at line 2\n"
            " 2 | (counter passed (range 0 1)) (register passed)\n"
            "   |                                        ^~~~~~\n"
            "hint: give the register a name of its own: position text writes each as NAME=...\n");
}

// last-from and last-to are words, tests of the registers the interpreter keeps, which no rule
// names otherwise; they count among a game's registers.
TEST(ChessForms, LastFromAndLastToAreTestsOfRegistersTheInterpreterKeeps) {
  EXPECT_EQ(king_rules_error("", "(moves (go e) (last-to) empty)"),
            "test.game:3:31: error: 'last-to' is a word of its own: write it without parentheses\n"
            " 3 | (piece King \"K\" (moves (go e) (last-to) empty))\n"
            "   |                               ^\n");
  EXPECT_EQ(king_rules_error("(register last-from)", "(step e)"),
            "test.game:2:11: error: 'last-from' is the name position text gives the last move's cells\n"
            " 2 | (register last-from)\n"
            "   |           ^~~~~~~~~\n"
            "hint: give the register another name: the tests last-from and last-to keep those\n");
  EXPECT_EQ(king_rules_error("", "(moves (go e) last-from empty (at-register last-from))"),
            "test.game:3:60: error: 'last-from' is a test of its own, not a register a rule reads or sets\n"
            " 3 | (piece King \"K\" (moves (go e) last-from empty (at-register last-from)))\n"
            "   |                                                            ^~~~~~~~~\n"
            "hint: write last-from where the rule tests here\n");
  EXPECT_EQ(king_rules_error("(register a) (register b) (register c) (register d)", "(moves (go e) empty last-to)"),
            "test.game:3:37: error: 'last-to' needs a register of its own, and the game has 4 already\n"
            " 3 | (piece King \"K\" (moves (go e) empty last-to))\n"
            "   |                                     ^~~~~~~\n"
            "hint: a game has at most 4 registers, counting those last-from and last-to keep\n");
}

// A chain of jumps of the fast path is a move of several parts: its last hop is the last move.
// English draughts with a rule that asks for the last move (and never gives one: here is the
// mover's origin, which cannot be both cells) keeps it in its position text.
TEST(ChessForms, TheLastMoveOfAChainOfJumpsIsItsLastHop) {
  std::string text = troyka_tests::file_text(TROYKA_SOURCE_DIR "/games/english-draughts.game");
  const std::string king = "(jump diagonal (over enemy) chain))";
  text.replace(text.find(king), king.size(),
               "(jump diagonal (over enemy) chain) (moves last-from last-to (go forward) empty))");
  troyka_tests::game_from_text(text).visit([](const auto& program) {
    const std::string start = "8/8/1M6/2m5/8/4m3/8/m7 Black 0 0";
    EXPECT_EQ(troyka_tests::after_move(program, start, "b6xd4xf2"),
              "8/8/8/8/8/8/5M2/m7 White 1 0 last-from=d4 last-to=f2");
    EXPECT_EQ(troyka_tests::after_move(program, "8/8/1M6/8/8/8/8/m7 Black 0 0", "b6-c5"),
              "8/8/8/2M5/8/8/8/m7 White 1 0 last-from=b6 last-to=c5");
  });
}

TEST(ChessForms, ARelocationNeedsAMarkAndAttackedTakesNothing) {
  EXPECT_EQ(king_rules_error("", "(moves (go e) empty (go e) friend (relocate there) (go w))"),
            "test.game:3:61: error: no (mark there) comes before this (relocate there)\n"
            " 3 | (piece King \"K\" (moves (go e) empty (go e) friend (relocate there) (go w)))\n"
            "   |                                                             ^~~~~\n"
            "hint: mark the cell the piece goes to first, earlier in the rule: (mark NAME)\n");
  EXPECT_EQ(king_rules_error("", "(moves (go e) friend (back there) (go w) empty)"),
            "test.game:3:44: error: no (mark there) comes before this (back there)\n"
            " 3 | (piece King \"K\" (moves (go e) friend (back there) (go w) empty))\n"
            "   |                                            ^~~~~\n"
            "hint: mark the cell to come back to first, earlier in the rule: (mark NAME)\n");
  EXPECT_EQ(king_rules_error("", "(moves (mark a) (mark b) (mark c) (go e) empty)"),
            "test.game:3:42: error: a rule names at most 2 marks\n"
            " 3 | (piece King \"K\" (moves (mark a) (mark b) (mark c) (go e) empty))\n"
            "   |                                          ^\n"
            "hint: the general back end keeps that many named cells in a run\n");
  EXPECT_EQ(king_rules_error("", "(moves (attacked e) (go e) empty)"),
            "test.game:3:34: error: '(attacked ...)' takes 0 parts after 'attacked'; 'e' is one too many\n"
            " 3 | (piece King \"K\" (moves (attacked e) (go e) empty))\n"
            "   |                                  ^\n"
            "hint: usage: (attacked): a move of the opponent could take the mover at here\n");
  EXPECT_EQ(king_rules_error("", "(moves (not attacked) (go e) empty)"),
            "test.game:3:29: error: 'attacked' opens a form: write it in parentheses\n"
            " 3 | (piece King \"K\" (moves (not attacked) (go e) empty))\n"
            "   |                             ^~~~~~~~\n"
            "hint: usage: (attacked): a move of the opponent could take the mover at here\n");
}

// ---- castling ---------------------------------------------------------------------------------

// The moves of the king on e1 in the position `fen`, as text.
std::vector<std::string> king_moves(const std::string& fen) {
  std::vector<std::string> moves;
  game("chess.game").visit([&](const auto& program) {
    for (const std::string& text : move_texts(program, position(program, chess_position_of_fen(fen))))
      if (text.rfind("e1", 0) == 0) moves.push_back(text);
  });
  return moves;
}

TEST(Chess, TheKingCastlesOnEitherSideAndTheRookCrossesIt) {
  EXPECT_EQ(king_moves("r3k2r/8/8/8/8/8/8/R3K2R w KQkq -"),
            (std::vector<std::string>{"e1-c1", "e1-d1", "e1-d2", "e1-e2", "e1-f1", "e1-f2", "e1-g1"}));
  game("chess.game").visit([](const auto& program) {
    const auto start = position(program, chess_position_of_fen("r3k2r/8/8/8/8/8/8/R3K2R w KQkq -"));
    EXPECT_EQ(program.position_text(after(program, start, "e1-g1")),
              "r3k2r/8/8/8/8/8/8/R4RK1 Black 1 1 unmoved=a1,a8,e8,h8 passed=-");
    EXPECT_EQ(program.position_text(after(program, start, "e1-c1")),
              "r3k2r/8/8/8/8/8/8/2KR3R Black 1 1 unmoved=h1,a8,e8,h8 passed=-");
    EXPECT_EQ(program.position_text(after(program, after(program, start, "e1-f1"), "e8-g8")),
              "r4rk1/8/8/8/8/8/8/R4K1R White 2 2 unmoved=a1,h1,a8 passed=-");
  });
}

TEST(Chess, NoCastlingOutOfThroughOrIntoCheck) {
  const auto castles = [](const std::string& fen) {
    const std::vector<std::string> moves = king_moves(fen);
    return std::count(moves.begin(), moves.end(), "e1-g1") + std::count(moves.begin(), moves.end(), "e1-c1");
  };
  EXPECT_EQ(castles("4k3/8/8/8/8/8/8/R3K2R w KQ -"), 2);
  EXPECT_EQ(castles("4k3/8/8/8/4r3/8/8/R3K2R w KQ -"), 0);  // out of check
  EXPECT_EQ(castles("4k3/8/8/8/8/8/7n/4K2R w K -"), 0);     // through f1, which the knight attacks
  EXPECT_EQ(castles("4k1r1/8/8/8/8/8/8/4K2R w K -"), 0);    // into check on g1
  EXPECT_EQ(castles("4k3/8/8/8/8/8/8/R3K3 w Q -"), 1);
  EXPECT_EQ(castles("1r2k3/8/8/8/8/8/8/R3K3 w Q -"), 1);  // b1 is attacked, but the king does not cross it
  EXPECT_EQ(castles("4k3/8/8/8/8/8/8/RN2K3 w Q -"), 0);   // b1 is not empty
  EXPECT_EQ(castles("4k3/8/8/8/8/8/8/4K2R w - -"), 0);    // no right left
}

TEST(Chess, NoCastlingOnceTheRookOrTheKingHasMoved) {
  game("chess.game").visit([](const auto& program) {
    const auto start = position(program, chess_position_of_fen("4k3/8/8/8/8/8/8/R3K2R w KQ -"));
    const auto rook_back =
        after(program, after(program, after(program, after(program, start, "h1-h2"), "e8-d8"), "h2-h1"), "d8-e8");
    EXPECT_EQ(program.position_text(rook_back), "4k3/8/8/8/8/8/8/R3K2R White 4 4 unmoved=a1,e1 passed=-");
    const auto moves = move_texts(program, rook_back);
    EXPECT_EQ(std::count(moves.begin(), moves.end(), "e1-g1"), 0);
    EXPECT_EQ(std::count(moves.begin(), moves.end(), "e1-c1"), 1);
    const auto king_back =
        after(program, after(program, after(program, after(program, start, "e1-f1"), "e8-d8"), "f1-e1"), "d8-e8");
    const auto king_moves = move_texts(program, king_back);
    EXPECT_EQ(std::count(king_moves.begin(), king_moves.end(), "e1-g1"), 0);
    EXPECT_EQ(std::count(king_moves.begin(), king_moves.end(), "e1-c1"), 0);
  });
}

// ---- en passant -------------------------------------------------------------------------------

TEST(Chess, EnPassantOnlyRightAfterTheDoubleStep) {
  game("chess.game").visit([](const auto& program) {
    const auto start = position(program, chess_position_of_fen("4k3/3p4/8/4P3/8/8/8/4K3 b - -"));
    const auto passed = after(program, start, "d7-d5");
    EXPECT_EQ(program.position_text(passed), "4k3/8/8/3pP3/8/8/8/4K3 White 2 0 unmoved=- passed=d6");
    const auto moves = move_texts(program, passed);
    EXPECT_EQ(std::count(moves.begin(), moves.end(), "e5xd6"), 1);
    EXPECT_EQ(program.position_text(after(program, passed, "e5xd6")),
              "4k3/8/3P4/8/8/8/8/4K3 Black 3 0 unmoved=- passed=-");
    const auto later = after(program, after(program, passed, "e1-e2"), "e8-e7");
    const auto later_moves = move_texts(program, later);
    EXPECT_EQ(std::count(later_moves.begin(), later_moves.end(), "e5xd6"), 0);
    // A single step passes over nothing.
    const auto stepped = after(program, after(program, after(program, start, "d7-d6"), "e1-e2"), "d6-d5");
    const auto stepped_moves = move_texts(program, stepped);
    EXPECT_EQ(std::count(stepped_moves.begin(), stepped_moves.end(), "e5xd6"), 0);
  });
}

TEST(Chess, EnPassantThatExposesTheKingIsRefused) {
  game("chess.game").visit([](const auto& program) {
    const auto count = [&](const std::string& fen) {
      const auto moves = move_texts(program, position(program, chess_position_of_fen(fen)));
      return std::count(moves.begin(), moves.end(), "e5xd6");
    };
    EXPECT_EQ(count("8/8/8/K2pP2r/8/8/8/4k3 w - d6"), 0);  // both pawns leave the fifth row to the rook
    EXPECT_EQ(count("8/8/8/K2pP3/8/8/8/4k2r w - d6"), 1);
  });
}

// ---- promotion --------------------------------------------------------------------------------

TEST(Chess, APawnPromotesToAQueenRookBishopOrKnight) {
  game("chess.game").visit([](const auto& program) {
    const auto start = position(program, chess_position_of_fen("3r4/4P3/8/8/8/8/k7/4K3 w - -"));
    std::vector<std::string> promotions;
    for (const std::string& text : move_texts(program, start))
      if (text.rfind("e7", 0) == 0) promotions.push_back(text);
    EXPECT_EQ(promotions, (std::vector<std::string>{"e7-e8=B", "e7-e8=N", "e7-e8=Q", "e7-e8=R", "e7xd8=B", "e7xd8=N",
                                                    "e7xd8=Q", "e7xd8=R"}));
    EXPECT_EQ(program.position_text(after(program, start, "e7-e8=N")),
              "3rN3/8/8/8/8/8/k7/4K3 Black 1 0 unmoved=- passed=-");
    EXPECT_EQ(program.position_text(after(program, start, "e7xd8=R")),
              "3R4/8/8/8/8/8/k7/4K3 Black 1 0 unmoved=- passed=-");
  });
}

// ---- draws --------------------------------------------------------------------------------------

TEST(Chess, AHundredPliesWithoutACaptureOrAPawnMoveDraw) {
  game("chess.game").visit([](const auto& program) {
    const auto start = position(program, chess_position_of_fen("4k3/8/8/8/8/8/4P3/4K2R w - - 99 80"));
    const auto quiet = after(program, start, "h1-h2");
    EXPECT_TRUE(quiet.over);
    EXPECT_EQ(quiet.winner, kDraw);
    EXPECT_EQ(program.end_reason(quiet), "draw by (quiet-moves 100 Pawn)");
    EXPECT_FALSE(after(program, start, "e2-e3").over);  // a pawn's move starts the count again
  });
}

TEST(Chess, TheThirdRepetitionDraws) {
  game("chess.game").visit([](const auto& program) {
    const auto state = troyka_tests::after_rounds(program, {"g1-f3", "g8-f6", "f3-g1", "f6-g8"}, 2);
    EXPECT_TRUE(state.over);
    EXPECT_EQ(program.end_reason(state), "draw by (repetition 3)");
  });
}

TEST(Chess, MateAndStalemate) {
  game("chess.game").visit([](const auto& program) {
    const auto mated =
        after(program, position(program, chess_position_of_fen("6k1/5ppp/8/8/8/8/8/R3K3 w - -")), "a1-a8");
    EXPECT_TRUE(mated.over);
    EXPECT_EQ(mated.winner, 0);
    const auto stalemated =
        after(program, position(program, chess_position_of_fen("7k/8/5Q2/8/8/8/8/4K3 w - -")), "f6-g6");
    EXPECT_TRUE(stalemated.over);
    EXPECT_EQ(stalemated.winner, kDraw);
  });
}

// ---- agents -------------------------------------------------------------------------------------

// Random chess games run to about 400 plies, and a playout costs as much as 300 Breakthrough ones:
// few games and few iterations a move, without the decisive-move tests (each a legality check of
// every reply). Random play almost never mates, so MCTS's points are its mates.
TEST(Chess, MctsBeatsRandomInAMatch) {
  if (kSlowBuild)
    troyka_tests::expect_first_agent_scores(
        "match games/chess.game --games 2 --agents mcts:iterations=30,decisive=off random --json", 1.5);
  else
    troyka_tests::expect_first_agent_scores(
        "match games/chess.game --games 2 --agents mcts:iterations=100,decisive=off random --json", 2.0);
}

}  // namespace
}  // namespace troyka
