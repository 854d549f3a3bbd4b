// How move rules become jumps and drops: cases the fuzzer found (fuzz/crashes/), checked by exact moves.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "interpreter/game.h"
#include "interpreter/perft.h"
#include "tests/games.h"

namespace troyka {
namespace {

using troyka_tests::game_from_text;

// The legal moves of the start position, as sorted text.
std::vector<std::string> start_moves(const Game& game) {
  return game.visit([](const auto& program) {
    MoveList moves;
    program.legal_moves(program.initial_state(), moves);
    std::vector<std::string> texts;
    for (const Move& move : moves) texts.push_back(program.move_text(move));
    std::sort(texts.begin(), texts.end());
    return texts;
  });
}

// On an 8-wide board the offsets (7,0) and (-1,1) both move 7 cells along the bitboard; they are
// different jumps and must not be merged. The pawn on a1 may step to a2 only if it is empty (it
// is not), and leap 7 columns right onto an enemy (h1).
TEST(JumpCompile, OffsetsSharingADeltaStaySeparate) {
  const Game game = game_from_text(R"((game "Delta" (players (White north) (Black south)) (board (rectangle 8 8))
    (piece Pawn (step forward-left (to empty)) (step forward (to empty)) (leap (7 0) (to enemy) capture))
    (setup (place White Pawn (cells a1 b1)) (place Black Pawn (cells a2 h1 h8)))
    (end (lose no-legal-moves))))");
  EXPECT_EQ(start_moves(game), (std::vector<std::string>{"a1xh1", "b1-b2"}));
}

// fuzz/crashes/jump-merge-same-delta.game: on a 4-wide board (4,0) shares its delta with (0,1),
// but no cell can make it; merging let the forward step capture. White has no move and loses.
TEST(JumpCompile, LeapLongerThanTheBoardIsDropped) {
  const Game game = game_from_text(R"((game "Merge" (players (White north) (Black south)) (board (rectangle 4 4))
    (piece Pawn "P" (step forward (to empty)) (leap (4 0) (to enemy) capture))
    (setup (place White Pawn a1) (place Black Pawn a2))
    (end (lose no-legal-moves))))");
  EXPECT_TRUE(start_moves(game).empty());
  game.visit([](const auto& program) {
    const auto state = program.initial_state();
    EXPECT_TRUE(state.over);
    EXPECT_EQ(program.result(state, 1), 1);
  });
}

// fuzz/crashes/leap-shift-too-large.game: a leap of 3 rows on a 2-row board (52 cells, one 64-bit
// word) is a shift by 78 bits; it must simply not exist.
TEST(JumpCompile, LeapBeyondTheBitboardIsDropped) {
  const Game game = game_from_text(R"((game "Leap" (players (A north) (B south)) (board (rectangle 26 2))
    (piece Man "M" (step forward) (leap (0 3) (to any) capture))
    (setup (place A Man (row 1)) (place B Man (row 2)))
    (end (draw no-legal-moves))))");
  EXPECT_TRUE(start_moves(game).empty());
}

// Two rules of one piece that reach the same cell make one move, not two: listed, counted and
// counted by perft once (the fuzzer found two overlapping drops listed twice, fuzz/crashes/rules/).
void expect_each_move_once(const Game& game, const std::vector<std::string>& expected) {
  EXPECT_EQ(start_moves(game), expected);
  game.visit([&](const auto& program) {
    EXPECT_EQ(program.count_moves(program.initial_state()), static_cast<int>(expected.size()));
    EXPECT_EQ(perft(program, program.initial_state(), 1), expected.size());
  });
}

TEST(JumpCompile, OverlappingDropsOfOnePieceListEachCellOnce) {
  expect_each_move_once(game_from_text(R"((game "Drops" (players (White north) (Black south)) (board (rectangle 2 2))
    (piece Stone (drop (in (rows 1 1))) (drop))
    (setup) (end (draw no-legal-moves))))"),
                        {"a1", "a2", "b1", "b2"});
}

TEST(JumpCompile, AStepAndASlideAlongOneDirectionListEachMoveOnce) {
  expect_each_move_once(game_from_text(R"((game "Rook" (players (White north) (Black south)) (board (rectangle 1 5))
    (piece Rook (step forward) (leap (0 2)) (slide forward))
    (setup (place White Rook (cells a1)) (place Black Rook (cells a5)))
    (end (lose no-legal-moves))))"),
                        {"a1-a2", "a1-a3", "a1-a4"});
}

// Cell tests keep only the origins where every tested cell holds what it must: a hop needs a
// piece to jump over (a1 over a2), a double step a friend to its right (b1, d1; not e1, whose right
// is off the board), a step an enemy two cells ahead (c1), and a step whose tested cell must only
// be on the board (not from b1, two columns from the edge). a1-a3 comes from two rules and is one move.
TEST(JumpCompile, CellTestsKeepOnlyTheOriginsWhereTheyHold) {
  const Game game = game_from_text(R"((game "Tests" (players (White north) (Black south)) (board (rectangle 5 5))
    (piece Pawn (leap (0 2) (to empty) (if (0 1) occupied)) (leap (0 2) (to empty) (if (1 0) friend))
      (step forward (to empty) (if (0 2) enemy)) (step forward-left (to empty) (if (-2 1) any)))
    (setup (place White Pawn (row 1)) (place Black Pawn (cells a2 c3 e5)))
    (end (lose no-legal-moves))))");
  const std::vector<std::string> expected = {"a1-a3", "b1-b3", "c1-b2", "c1-c2", "d1-c2", "d1-d3", "e1-d2"};
  EXPECT_EQ(start_moves(game), expected);
  game.visit([&](const auto& program) {
    const auto state = program.initial_state();
    EXPECT_EQ(program.count_moves(state), 7);
    EXPECT_EQ(perft(program, state, 1), 7u);
  });
}

// Black faces south, and its tests turn with it: its right is west and behind it is north. d5 may
// step twice (c5, on its right, is a friend) and d4 once (d5, behind it, is a friend); unturned
// tests would let c5 step twice instead.
TEST(JumpCompile, CellTestsTurnWithThePlayer) {
  const Game game = game_from_text(R"((game "Tests" (players (White north) (Black south)) (board (rectangle 5 5))
    (piece Pawn (leap (0 2) (to empty) (if (1 0) friend)) (step forward (to empty) (if (0 -1) friend)))
    (setup (place White Pawn a1) (place Black Pawn (cells c5 d5 d4)))
    (end (lose no-legal-moves))))");
  game.visit([&](const auto& program) {
    const auto parsed = program.parse_position("2pp1/3p1/5/5/P4 Black 1");
    ASSERT_TRUE(parsed.ok()) << parsed.error;
    MoveList moves;
    program.legal_moves(parsed.state, moves);
    std::vector<std::string> texts;
    for (const Move& move : moves) texts.push_back(program.move_text(move));
    std::sort(texts.begin(), texts.end());
    EXPECT_EQ(texts, (std::vector<std::string>{"d4-d3", "d5-d3"}));
  });
}

}  // namespace
}  // namespace troyka
