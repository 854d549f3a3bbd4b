// Turns of several decisions, (turn (actions N) [(first M)]) (docs/core-design.md §3.3): the
// exact errors of the form, Connect6's perft as the falling product of the board's cells, and
// Breakthrough with two moves a turn against the slow reference of tests/reference.h (perft,
// random games, hand-made positions), its positions' text and hash mid-turn, and records.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "cli/record.h"
#include "interpreter/game.h"
#include "interpreter/perft.h"
#include "lang/core.h"
#include "lang/diagnostic.h"
#include "tests/games.h"
#include "tests/reference.h"

namespace troyka {
namespace {

using troyka_tests::after;
using troyka_tests::game;
using troyka_tests::kSlowBuild;
using troyka_tests::move_texts;
using troyka_tests::position;

// ---- the form ---------------------------------------------------------------------------------

// The error of a one-stone game with `turn` as its (turn ...) form (on line 2).
std::string turn_error(const std::string& turn, const std::string& options = "") {
  const std::string text = "(game \"Test\" (players (Black north) (White south)) (board (rectangle 6 6))" + options +
                           "\n" + turn +
                           "\n(piece Stone \"S\" (drop)) (setup) (end (win (in-a-row 4)) (draw no-legal-moves)))";
  return troyka_tests::load_error(text);
}

TEST(TurnErrors, ATurnHasAtLeastOneDecision) {
  EXPECT_EQ(turn_error("(turn (actions 0))"),
            "test.game:2:16: error: the decisions of a turn must be between 1 and 255, but it is 0\n"
            " 2 | (turn (actions 0))\n"
            "   |                ^\n"
            "hint: a turn is one decision or more, e.g. (turn (actions 2) (first 1)) for Connect6\n");
  EXPECT_EQ(turn_error("(turn (actions 2) (first 0))"),
            "test.game:2:26: error: the decisions of the first turn must be between 1 and 255, but it is 0\n"
            " 2 | (turn (actions 2) (first 0))\n"
            "   |                          ^\n"
            "hint: a turn is one decision or more, e.g. (turn (actions 2) (first 1)) for Connect6\n");
}

TEST(TurnErrors, TheFormIsActionsThenFirst) {
  EXPECT_EQ(turn_error("(turn (first 1) (actions 2))"),
            "test.game:2:7: error: expected '(actions N)' here, found '(first ...)'\n"
            " 2 | (turn (first 1) (actions 2))\n"
            "   |       ^\n"
            "hint: usage: (turn (actions N) [(first M)]): N decisions a turn, M on the game's first\n");
  EXPECT_EQ(turn_error("(turn)"),
            "test.game:2:1: error: '(turn ...)' is missing its (actions N)\n"
            " 2 | (turn)\n"
            "   | ^\n"
            "hint: usage: (turn (actions N) [(first M)]): N decisions a turn, M on the game's first\n");
  EXPECT_EQ(turn_error("(turn (actions 2) (first 1) (first 1))"),
            "test.game:2:29: error: '(turn ...)' takes no more than 2 arguments; '(first ...)' is one too many\n"
            " 2 | (turn (actions 2) (first 1) (first 1))\n"
            "   |                             ^\n"
            "hint: usage: (turn (actions N) [(first M)]): N decisions a turn, M on the game's first\n");
}

TEST(TurnErrors, TheSwapNeedsTurnsOfOneDecision) {
  EXPECT_EQ(turn_error("(turn (actions 2) (first 1))", " (swap-rule)"),
            "test.game:2:1: error: the swap rule is the second player's first move, which a turn of several "
            "decisions does not have\n"
            " 2 | (turn (actions 2) (first 1))\n"
            "   | ^\n"
            "hint: play one decision a turn, or switch the swap off with (swap-rule 0)\n");
}

TEST(TurnForm, ShowCorePrintsItAndReadsItBack) {
  const Game loaded = game("connect6.game");
  const lang::core::Rules core = lang::core::lower(loaded.rules());
  EXPECT_EQ(core.turn_actions, 2);
  EXPECT_EQ(core.first_turn_actions, 1);
  const std::string text = lang::core::core_text(loaded.rules(), core);
  EXPECT_NE(text.find("\n(turn (actions 2) (first 1))\n"), std::string::npos) << text;
  const lang::core::Rules read =
      lang::core::read_core(loaded.rules(), std::make_shared<lang::SourceFile>(lang::SourceFile{"shown.core", text}));
  EXPECT_EQ(read.turn_actions, 2);
  EXPECT_EQ(read.first_turn_actions, 1);
  EXPECT_EQ(game("gomoku.game").rules().turn_actions, 1);  // without the form, one decision a turn
}

// ---- Connect6 ---------------------------------------------------------------------------------

// While no line of six can exist (fewer than six stones of one colour), every empty cell is a
// move: perft is the falling product of the board's cells.
TEST(Connect6, PerftIsTheFallingProductOfTheCells) {
  const Game loaded = game("connect6.game");
  loaded.visit([&](const auto& program) {
    std::uint64_t expected = 1;
    for (int depth = 1; depth <= (kSlowBuild ? 2 : 3); ++depth) {
      expected *= static_cast<std::uint64_t>(19 * 19 - (depth - 1));
      EXPECT_EQ(perft(program, program.initial_state(), depth), expected) << depth;
    }
  });
  EXPECT_EQ(19 * 19, 361);
}

TEST(Connect6, BlackPlacesOneStoneThenEachTurnIsTwo) {
  game("connect6.game").visit([](const auto& program) {
    auto state = program.initial_state();
    EXPECT_EQ(program.position_text(state), "19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19/19 Black:1 0");
    const std::vector<int> movers = {0, 1, 1, 0, 0, 1, 1, 0};
    for (std::size_t ply = 0; ply < movers.size(); ++ply) {
      EXPECT_EQ(state.to_move, movers[ply]) << ply;
      state = after(program, state, std::string(1, static_cast<char>('a' + ply)) + "10");
    }
    EXPECT_EQ(program.position_text(state),
              "19/19/19/19/19/19/19/19/19/SssSSssS11/19/19/19/19/19/19/19/19/19 Black:1 8");
  });
}

TEST(Connect6, SixWinsAtOnceEvenOnTheFirstStoneOfATurn) {
  game("connect6.game").visit([](const auto& program) {
    const auto state =
        position(program, "19/19/19/19/19/19/19/19/19/SSSSS14/19/19/19/19/19/19/ssss15/19/19 Black:2 12");
    const auto won = after(program, state, "f10");
    EXPECT_TRUE(won.over);
    EXPECT_EQ(won.winner, 0);
    // Five with the first stone is no win yet: Black places the second.
    const auto five = position(program, "19/19/19/19/19/19/19/19/19/SSSS15/19/19/19/19/19/19/ssss15/19/19 Black:2 10");
    const auto next = after(program, five, "e10");
    EXPECT_FALSE(next.over);
    EXPECT_EQ(next.to_move, 0);
    EXPECT_TRUE(after(program, next, "f10").over);
  });
}

TEST(Connect6, RandomGamesAgreeWithTheReference) {
  troyka_tests::expect_random_games_agree_with_reference(game("connect6.game", {{"size", "7"}}), "connect6 7x7",
                                                         kSlowBuild ? 3 : 20, 6);
}

// ---- Breakthrough with two moves a turn ---------------------------------------------------------

TEST(BreakthroughTwoMoves, PerftAgreesWithTheReference) {
  const Game loaded = game("breakthrough-two-moves.game");
  loaded.visit([&](const auto& program) {
    const reference::Position start = reference::start(loaded.rules());
    troyka_tests::expect_perft_agrees(program, program.initial_state(), kSlowBuild ? 3 : 4,
                                      [&](int depth) { return reference::perft(loaded.rules(), start, depth); });
  });
}

TEST(BreakthroughTwoMoves, SmallBoardsAgreeWithTheReferenceDeeper) {
  const Game loaded = game("breakthrough-two-moves.game", {{"width", "4"}, {"height", "5"}});
  loaded.visit([&](const auto& program) {
    const reference::Position start = reference::start(loaded.rules());
    troyka_tests::expect_perft_agrees(program, program.initial_state(), kSlowBuild ? 4 : 6,
                                      [&](int depth) { return reference::perft(loaded.rules(), start, depth); });
  });
}

TEST(BreakthroughTwoMoves, RandomGamesAgreeWithTheReference) {
  for (const auto& [width, height] : {std::pair{"8", "8"}, std::pair{"5", "6"}})
    troyka_tests::expect_random_games_agree_with_reference(
        game("breakthrough-two-moves.game", {{"width", width}, {"height", height}}),
        std::string("breakthrough-two-moves ") + width + "x" + height, kSlowBuild ? 3 : 20, 2);
}

TEST(BreakthroughTwoMoves, TheFirstTurnIsOneMoveThenTwo) {
  game("breakthrough-two-moves.game").visit([](const auto& program) {
    auto state = program.initial_state();
    EXPECT_EQ(program.position_text(state), "pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP White:1 0");
    state = after(program, state, "a2-a3");
    EXPECT_EQ(program.position_text(state), "pppppppp/pppppppp/8/8/8/P7/1PPPPPPP/PPPPPPPP Black:2 1");
    state = after(program, state, "a7-a6");
    EXPECT_EQ(program.position_text(state), "pppppppp/1ppppppp/p7/8/8/P7/1PPPPPPP/PPPPPPPP Black:1 2");
    state = after(program, state, "a6-a5");  // the same pawn again
    EXPECT_EQ(program.position_text(state), "pppppppp/1ppppppp/8/p7/8/P7/1PPPPPPP/PPPPPPPP White:2 3");
  });
}

TEST(BreakthroughTwoMoves, ACaptureThenASecondMove) {
  game("breakthrough-two-moves.game").visit([](const auto& program) {
    auto state = after(program, position(program, "7p/8/8/3p4/4P3/8/8/P7 White:2 9"), "e4xd5");
    EXPECT_EQ(program.position_text(state), "7p/8/8/3P4/8/8/8/P7 White:1 10");
    EXPECT_EQ(move_texts(program, state), (std::vector<std::string>{"a1-a2", "a1-b2", "d5-c6", "d5-d6", "d5-e6"}));
    state = after(program, state, "d5-d6");
    EXPECT_EQ(program.position_text(state), "7p/8/3P4/8/8/8/8/P7 Black:2 11");
  });
}

TEST(BreakthroughTwoMoves, AWinEndsTheGameOnTheFirstMoveOfATurn) {
  game("breakthrough-two-moves.game").visit([](const auto& program) {
    const auto reached = after(program, position(program, "8/3P4/8/8/8/8/p7/8 White:2 9"), "d7-d8");
    EXPECT_TRUE(reached.over);
    EXPECT_EQ(reached.winner, 0);
    EXPECT_EQ(program.end_reason(reached), "White wins by (reach Pawn far-row)");
    const auto taken = after(program, position(program, "8/8/8/8/8/1p6/P7/7P White:2 9"), "a2xb3");
    EXPECT_TRUE(taken.over);
    EXPECT_EQ(taken.winner, 0);
  });
}

// The hash covers the decisions left: equal boards with the same player to move and different
// decisions left are different positions, and the text of a position mid-turn reads back with its hash.
TEST(BreakthroughTwoMoves, TheHashAndTheTextCoverTheDecisionsLeft) {
  game("breakthrough-two-moves.game").visit([](const auto& program) {
    auto state = program.initial_state();
    for (const char* move : {"b2-b3", "g7-g6", "g6-g5", "b3-b4"}) {
      state = after(program, state, move);
      const auto read = position(program, program.position_text(state));
      EXPECT_EQ(read.hash, state.hash) << move;
      EXPECT_EQ(read.actions_left, state.actions_left) << move;
    }
    const auto one_left = position(program, "pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP White:1 4");
    const auto two_left = position(program, "pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP White:2 4");
    EXPECT_NE(one_left.hash, two_left.hash);
    EXPECT_EQ(program.parse_position("8/8/8/8/8/8/8/P6p White 4").error,
              "expected the player to move and the decisions left in its turn, e.g. 'White:2'");
  });
}

// ---- again ------------------------------------------------------------------------------------

// Tic-tac-toe where a stone on a corner lets its player place another at once: the core action
// `again` on the general back end.
const std::string kCornersAgain =
    "(game \"Corners again\" (players (Black north) (White south)) (board (rectangle 3 3))\n"
    "  (region corners (cells a1 a3 c1 c3))\n"
    "  (piece Stone \"S\")\n"
    "  (moves (new Stone) (enter all) empty (if (in corners) again))\n"
    "  (setup) (end (win (in-a-row 3)) (draw no-legal-moves)))\n";

// The same game counted by hand on an array: cells 0..8 from a1 by rows, -1 for empty.
bool three_in_a_row(const std::array<int, 9>& board, int player) {
  static constexpr std::array<std::array<int, 3>, 8> kLines = {
      {{0, 1, 2}, {3, 4, 5}, {6, 7, 8}, {0, 3, 6}, {1, 4, 7}, {2, 5, 8}, {0, 4, 8}, {2, 4, 6}}};
  return std::any_of(kLines.begin(), kLines.end(), [&](const std::array<int, 3>& line) {
    return board[line[0]] == player && board[line[1]] == player && board[line[2]] == player;
  });
}

std::uint64_t corners_again_perft(const std::array<int, 9>& board, int to_move, int depth) {
  if (depth == 0) return 1;
  std::uint64_t nodes = 0;
  for (int cell = 0; cell < 9; ++cell) {
    if (board[cell] >= 0) continue;
    std::array<int, 9> next = board;
    next[cell] = to_move;
    const bool over =
        three_in_a_row(next, to_move) || std::none_of(next.begin(), next.end(), [](int c) { return c < 0; });
    if (depth == 1 || !over) {
      const bool corner = cell == 0 || cell == 2 || cell == 6 || cell == 8;
      nodes += depth == 1 ? 1 : corners_again_perft(next, corner ? to_move : 1 - to_move, depth - 1);
    }
  }
  return nodes;
}

TEST(Again, TheMoverPlacesAgainAfterACorner) {
  const Game loaded(
      lang::load_rules(std::make_shared<lang::SourceFile>(lang::SourceFile{"again.game", kCornersAgain}), {}));
  loaded.visit([](const auto& program) {
    auto state = after(program, program.initial_state(), "a1");
    EXPECT_EQ(state.to_move, 0);  // a corner: Black again
    state = after(program, state, "b1");
    EXPECT_EQ(state.to_move, 1);  // an edge: White's turn
    EXPECT_EQ(program.position_text(state), "3/3/SS1 White 2");
    std::array<int, 9> empty;
    empty.fill(-1);
    for (int depth = 1; depth <= 6; ++depth)
      EXPECT_EQ(perft(program, program.initial_state(), depth), corners_again_perft(empty, 0, depth)) << depth;
  });
}

}  // namespace
}  // namespace troyka
