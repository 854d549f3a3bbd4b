// Legality and check (docs/core-design.md §6, step 13): (legal CONDITION) and (in-check PIECE),
// their exact errors, hand-made check, pin, discovered check, mate and stalemate positions, and
// tests/data/games/king-and-rook.game against the slow reference of tests/reference_check.h
// (perft, and random games move by move).
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "interpreter/game.h"
#include "interpreter/perft.h"
#include "interpreter/random.h"
#include "lang/diagnostic.h"
#include "tests/games.h"
#include "tests/reference_check.h"

namespace troyka {
namespace {

using troyka_tests::after;
using troyka_tests::kSlowBuild;
using troyka_tests::load_error;
using troyka_tests::move_texts;
using troyka_tests::position;

const std::string kKingAndRook = std::string(TROYKA_SOURCE_DIR) + "/tests/data/games/king-and-rook.game";

// A game of kings and rooks on a 5x5 board with `legal` as its legality form (on line 2).
std::string kings_and_rooks(const std::string& legal) {
  return "(game \"Test\" (players (White north) (Black south)) (board (rectangle 5 5))\n" + legal +
         "\n(piece King \"K\" (step all-directions (to not-friend) capture))"
         " (piece Rook \"R\" (slide orthogonal (to not-friend) capture))"
         " (setup (place White King a1) (place Black King e5)) (end (lose no-legal-moves)))";
}

// ---- the forms --------------------------------------------------------------------------------

TEST(LegalityErrors, TheConditionIsOneOfThePositionAfterTheMove) {
  EXPECT_EQ(load_error(kings_and_rooks("(legal (and (not (in-check King)) no-legal-moves))")),
            "test.game:2:35: error: '(legal ...)' cannot test no-legal-moves\n"
            " 2 | (legal (and (not (in-check King)) no-legal-moves))\n"
            "   |                                   ^~~~~~~~~~~~~~\n"
            "hint: a move's legality is asked of the position after it alone: not of the moves that follow, nor of "
            "plies counted before it\n");
  EXPECT_EQ(load_error(kings_and_rooks("(legal (repetition 2))")),
            "test.game:2:8: error: '(legal ...)' cannot test (repetition 2)\n"
            " 2 | (legal (repetition 2))\n"
            "   |        ^\n"
            "hint: a move's legality is asked of the position after it alone: not of the moves that follow, nor of "
            "plies counted before it\n");
  EXPECT_EQ(load_error(kings_and_rooks("(legal)")),
            "test.game:2:1: error: '(legal ...)' is missing its CONDITION\n"
            " 2 | (legal)\n"
            "   | ^\n"
            "hint: usage: (legal CONDITION): a move is legal only if CONDITION holds for its mover after it\n");
  EXPECT_EQ(load_error(kings_and_rooks("(legal (not (in-check King)))\n(legal (not (in-check Rook)))")),
            "test.game:3:1: error: '(legal ...)' appears twice; the first is at line 2\n"
            " 3 | (legal (not (in-check Rook)))\n"
            "   | ^\n"
            "hint: merge the two into one\n");
}

TEST(LegalityErrors, InCheckNamesAPiece) {
  EXPECT_EQ(load_error(kings_and_rooks("(legal (not in-check))")),
            "test.game:2:13: error: the condition 'in-check' needs a piece\n"
            " 2 | (legal (not in-check))\n"
            "   |             ^~~~~~~~\n"
            "hint: usage: (in-check PIECE): the opponent, were it to move, could take a PIECE of the player\n");
  EXPECT_EQ(load_error(kings_and_rooks("(legal (not (in-check)))")),
            "test.game:2:13: error: '(in-check ...)' is missing its PIECE\n"
            " 2 | (legal (not (in-check)))\n"
            "   |             ^\n"
            "hint: usage: (in-check PIECE): the opponent, were it to move, could take a PIECE of the player\n");
}

// ---- hand-made positions ----------------------------------------------------------------------------

TEST(Legality, AKingInCheckMustGetOutOfIt) {
  const Game loaded = Game::load(kKingAndRook, {});
  loaded.visit([](const auto& program) {
    // Black's king on c5 is checked along the fifth row by the rook on e5: it must leave the row
    // (b4, c4, d4; d4 is not attacked by White's king on a1) or take the rook (d5 is attacked).
    const auto state = position(program, "2k1R/5/5/5/K4 Black 9");
    EXPECT_EQ(move_texts(program, state), (std::vector<std::string>{"c5-b4", "c5-c4", "c5-d4"}));
    // Without the rule every step of the king is a move.
    const Game free(
        lang::load_rules(std::make_shared<lang::SourceFile>(lang::SourceFile{"free.game", kings_and_rooks("")}), {}));
    free.visit([](const auto& unchecked) {
      EXPECT_EQ(move_texts(unchecked, position(unchecked, "2k1R/5/5/5/K4 Black 9")).size(), 5U);
    });
  });
}

TEST(Legality, APinnedPieceStaysOnItsLine) {
  const Game loaded = Game::load(kKingAndRook, {});
  loaded.visit([](const auto& program) {
    // Black's rook on c3 stands between its king on c5 and White's rook on c1: it may move along
    // the c file only (c4, c2, and take on c1).
    const auto state = position(program, "2k2/5/2r2/5/K1R2 Black 9");
    std::vector<std::string> rook_moves;
    for (const std::string& text : move_texts(program, state))
      if (text.starts_with("c3")) rook_moves.push_back(text);
    EXPECT_EQ(rook_moves, (std::vector<std::string>{"c3-c2", "c3-c4", "c3xc1"}));
  });
}

TEST(Legality, ADiscoveredCheckLimitsTheReply) {
  const Game loaded = Game::load(kKingAndRook, {});
  loaded.visit([](const auto& program) {
    // White's king on a3 stands between its rook on a1 and Black's king on a5; stepping off the
    // file discovers the check, and Black's king must leave the file.
    const auto state = after(program, position(program, "k4/5/K4/5/R4 White 9"), "a3-b3");
    EXPECT_FALSE(state.over);
    EXPECT_EQ(move_texts(program, state), (std::vector<std::string>{"a5-b5"}));  // b4 is next to White's king
  });
}

TEST(Legality, MateLosesAndStalemateDraws) {
  const Game loaded = Game::load(kKingAndRook, {});
  loaded.visit([](const auto& program) {
    // The rook goes to the fifth row beside White's king, which guards b4, c4 and d4: mate.
    const auto mated = after(program, position(program, "2k2/5/2K2/5/4R White 9"), "e1-e5");
    ASSERT_TRUE(mated.over);
    EXPECT_EQ(int{mated.winner}, 0);
    EXPECT_EQ(program.end_reason(mated), "Black loses by (and no-legal-moves (in-check King))");
    // Black's king in the corner, not in check, with every cell around it attacked (and the rook
    // beside it guarded by White's king): stalemate.
    const auto stalemated = after(program, position(program, "k4/2K2/5/5/1R3 White 9"), "b1-b4");
    ASSERT_TRUE(stalemated.over);
    EXPECT_EQ(int{stalemated.winner}, kDraw);
    EXPECT_EQ(program.end_reason(stalemated), "draw by no-legal-moves");
  });
}

// ---- against the reference -----------------------------------------------------------------------

TEST(KingAndRook, PerftAgreesWithTheReference) {
  const Game loaded = Game::load(kKingAndRook, {});
  loaded.visit([&](const auto& program) {
    const reference::Position start = reference::check::start(loaded.rules());
    troyka_tests::expect_perft_agrees(program, program.initial_state(), kSlowBuild ? 3 : 5,
                                      [&](int depth) { return reference::check::perft(loaded.rules(), start, depth); });
  });
}

// Random games, every position's legal moves and end compared with the reference's.
TEST(KingAndRook, RandomGamesAgreeWithTheReferenceMoveByMove) {
  const Game loaded = Game::load(kKingAndRook, {});
  const lang::Rules& rules = loaded.rules();
  loaded.visit([&](const auto& program) {
    int mates = 0;
    for (std::uint64_t seed = 1; seed <= (kSlowBuild ? 10U : 60U); ++seed) {
      Rng rng(seed);
      auto state = program.initial_state();
      reference::Position expected = reference::check::start(rules);
      while (true) {
        ASSERT_EQ(state.over, expected.end.over) << seed << " " << program.position_text(state);
        if (state.over) {
          EXPECT_EQ(int{state.winner}, expected.end.winner);
          mates += state.winner != kDraw;
          break;
        }
        MoveList moves;
        program.legal_moves(state, moves);
        std::vector<reference::MoveKey> keys;
        for (const Move& move : moves) keys.push_back(reference::key_of(move));
        std::sort(keys.begin(), keys.end());
        ASSERT_EQ(keys, reference::check::moves(rules, expected)) << seed << " " << program.position_text(state);
        const Move move = moves[rng.below(static_cast<std::uint32_t>(moves.size()))];
        program.apply(state, move);
        expected = reference::check::play(rules, expected, reference::key_of(move));
      }
    }
    (void)mates;  // random play mates rarely; the hand-made positions cover mate
  });
}

}  // namespace
}  // namespace troyka
