// Games of one player (issue 14): games/peg-solitaire.game, its perft against a plain count of
// the English board written here from the rules alone, a won and a lost puzzle, and the tools; the
// Dagaz project's French Solitaire ZRF file against the same count on its board.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>

#include "interpreter/game.h"
#include "interpreter/perft.h"
#include "tests/games.h"
#include "tests/run_troyka.h"

namespace {

const std::string kSolitaire = std::string(TROYKA_SOURCE_DIR) + "/games/peg-solitaire.game";
// A real ZRF file of one player (tests/data/zrf/SOURCE.md).
const std::string kFrenchZrf = std::string(TROYKA_SOURCE_DIR) + "/tests/data/zrf/french-solitaire-dagaz.zrf";

// The English board on a plain 7x7 array: a hole is on the board unless it lies in a 2x2 corner.
using Holes = std::array<std::array<int, 7>, 7>;  // [column][row]: 1 a peg, 0 empty, -1 off the board

Holes english_start() {
  Holes board{};
  for (int column = 0; column < 7; ++column)
    for (int row = 0; row < 7; ++row) {
      const bool corner = (column < 2 || column > 4) && (row < 2 || row > 4);
      board[column][row] = corner ? -1 : column == 3 && row == 3 ? 0 : 1;
    }
  return board;
}

// The French board of 37 holes, as french-solitaire-dagaz.zrf kills them: the 7x7 square without
// a1 a2 a6 a7 b1 b7 f1 f7 g1 g2 g6 g7; every hole holds a peg but d5.
Holes french_start() {
  Holes board{};
  for (int column = 0; column < 7; ++column)
    for (int row = 0; row < 7; ++row) {
      const int edge_column = std::min(column, 6 - column), edge_row = std::min(row, 6 - row);
      board[column][row] = edge_column + edge_row < 2 ? -1 : column == 3 && row == 4 ? 0 : 1;
    }
  return board;
}

bool on_english_board(int column, int row) { return column >= 0 && column < 7 && row >= 0 && row < 7; }

// Move sequences of `depth` jumps from `board`, a 7x7 array whose holes off the board are -1; a
// position with one peg, in the centre, is won and ends (a rule of the English game; with one peg
// left no jump is possible anyway).
std::uint64_t plain_count(Holes& board, int depth) {
  if (depth == 0) return 1;
  int pegs = 0;
  for (const auto& column : board)
    for (const int hole : column) pegs += hole == 1;
  if (pegs == 1 && board[3][3] == 1) return 0;
  constexpr std::array<std::array<int, 2>, 4> kWays = {{{1, 0}, {-1, 0}, {0, 1}, {0, -1}}};
  std::uint64_t nodes = 0;
  for (int column = 0; column < 7; ++column)
    for (int row = 0; row < 7; ++row)
      for (const auto& [dx, dy] : kWays) {
        const int over_column = column + dx, over_row = row + dy, to_column = column + 2 * dx, to_row = row + 2 * dy;
        if (board[column][row] != 1 || !on_english_board(to_column, to_row) || board[over_column][over_row] != 1 ||
            board[to_column][to_row] != 0)
          continue;
        board[column][row] = board[over_column][over_row] = 0;
        board[to_column][to_row] = 1;
        nodes += plain_count(board, depth - 1);
        board[column][row] = board[over_column][over_row] = 1;
        board[to_column][to_row] = 0;
      }
  return nodes;
}

TEST(Solitaire, PerftFromTheStartAgreesWithAPlainCount) {
  const std::array<std::uint64_t, 7> expected = {4, 12, 60, 400, 2960, 24600, 221072};
  const troyka::Game game = troyka::Game::load(kSolitaire);
  EXPECT_EQ(game.rules().player_count(), 1);
  game.visit([&](const auto& program) {
    const auto start = program.initial_state();
    EXPECT_EQ(start.pieces().count(), 32);
    for (int depth = 1; depth <= static_cast<int>(expected.size()); ++depth) {
      Holes board = english_start();
      EXPECT_EQ(plain_count(board, depth), expected[depth - 1]) << depth << " (plain count)";
      EXPECT_EQ(troyka::perft(program, start, depth), expected[depth - 1]) << depth;
    }
  });
}

// French Solitaire as the Dagaz project's ZRF file writes it, read by troyka's ZRF front end: its
// perft agrees with the plain count on the French board.
TEST(Solitaire, TheDagazFrenchSolitaireAgreesWithAPlainCount) {
  const std::array<std::uint64_t, 5> expected = {4, 17, 111, 886, 8048};
  const troyka::Game game = troyka::Game::load(kFrenchZrf);
  EXPECT_EQ(game.rules().player_count(), 1);
  game.visit([&](const auto& program) {
    const auto start = program.initial_state();
    EXPECT_EQ(start.pieces().count(), 36);
    for (int depth = 1; depth <= static_cast<int>(expected.size()); ++depth) {
      Holes board = french_start();
      EXPECT_EQ(plain_count(board, depth), expected[depth - 1]) << depth << " (plain count)";
      EXPECT_EQ(troyka::perft(program, start, depth), expected[depth - 1]) << depth;
    }
  });
}

// Two pegs: d2 jumps d3 into the centre, the puzzle is solved; d3 jumping d2 would leave one peg
// off the centre, a lost puzzle.
TEST(Solitaire, OnePegLeftInTheCentreWins) {
  const troyka::Game game = troyka::Game::load(kSolitaire);
  game.visit([](const auto& program) {
    const auto parsed = program.parse_position("##3##/##3##/7/7/3P3/##1P1##/##3## Solver 30");
    ASSERT_TRUE(parsed.ok()) << parsed.error;
    auto state = parsed.state;
    troyka::MoveList moves;
    program.legal_moves(state, moves);
    ASSERT_EQ(moves.size(), 2U);  // d2 over d3 into the centre, or d3 over d2 to d1
    const troyka::ParsedMove into_centre = program.parse_move(state, "d2-d4");
    ASSERT_TRUE(into_centre.ok()) << into_centre.error;
    program.apply(state, into_centre.move);
    ASSERT_TRUE(state.over);
    EXPECT_EQ(state.winner, 0);
    EXPECT_EQ(program.result(state, 0), 1);
    EXPECT_EQ(program.utility(state, 0), 1.0);
    EXPECT_EQ(program.rank(state, 0), 1);
    EXPECT_EQ(program.end_reason(state), "Solver wins by (and (= (pieces) 1) (reach Peg d4))");
    auto off_centre = parsed.state;
    program.apply(off_centre, program.parse_move(off_centre, "d3-d1").move);
    EXPECT_TRUE(off_centre.over);
    EXPECT_EQ(program.result(off_centre, 0), -1);
  });
}

// Two pegs that cannot jump: the puzzle is lost, with nobody winning.
TEST(Solitaire, PegsThatCannotJumpLoseThePuzzle) {
  const troyka::Game game = troyka::Game::load(kSolitaire);
  game.visit([](const auto& program) {
    const auto parsed = program.parse_position("##P2##/##3##/7/7/7/##1P1##/##3## Solver 30");
    ASSERT_TRUE(parsed.ok()) << parsed.error;
    const auto& state = parsed.state;
    ASSERT_TRUE(state.over);
    EXPECT_EQ(state.winner, troyka::kNoWinner);
    EXPECT_TRUE(state.is_out(0));
    EXPECT_EQ(program.result(state, 0), -1);
    EXPECT_EQ(program.utility(state, 0), 0.0);
    EXPECT_EQ(program.end_reason(state), "Solver loses by no-legal-moves");
    const auto again = program.parse_position(program.position_text(state));
    ASSERT_TRUE(again.ok()) << again.error;
    EXPECT_EQ(again.state.hash, state.hash) << program.position_text(state);
  });
}

// A puzzle has no opponent: a condition about one is a mistake in the rule file.
TEST(Solitaire, APuzzleHasNoOpponent) {
  EXPECT_EQ(troyka_tests::load_error(R"((game "Lonely"
  (players (Solver north))
  (board (rectangle 3 3))
  (piece Peg "P" (step forward (to empty)))
  (setup (place Peg a1))
  (end (win opponent-has-no-pieces)))
)"),
            R"(test.game:6:13: error: 'opponent-has-no-pieces' in a game of one player, which has no opponent
 6 |   (end (win opponent-has-no-pieces)))
   |             ^~~~~~~~~~~~~~~~~~~~~~
hint: end a puzzle by its own pieces, e.g. (win (= (pieces) 1)), or by no-legal-moves
)");
}

// perft, bench and play play a puzzle from the command line; match, analyze and the referee, whose
// figures compare players, refuse it before they play.
TEST(Solitaire, TheToolsPlayAPuzzleOrRefuseItClearly) {
  const std::string file = "games/peg-solitaire.game";
  const troyka_tests::Outcome check = troyka_tests::run_troyka("check " + file);
  EXPECT_EQ(check.status, 0) << check.err;
  EXPECT_EQ(check.out, file + ": ok (Peg Solitaire, 7x7 board, 1 piece type, 3 end rules)\n");
  const troyka_tests::Outcome perft = troyka_tests::run_troyka("perft " + file + " --depth 4 --json");
  EXPECT_EQ(perft.status, 0) << perft.err;
  EXPECT_NE(perft.out.find(R"("nodes":400)"), std::string::npos) << perft.out;
  const troyka_tests::Outcome show = troyka_tests::run_troyka("show " + file);
  EXPECT_EQ(show.status, 0) << show.err;
  EXPECT_NE(show.out.find("compiled: 0 jumps, 0 hops and 0 drops for Solver; "), std::string::npos) << show.out;
  const troyka_tests::Outcome bench = troyka_tests::run_troyka("bench " + file + " --playouts 50");
  EXPECT_EQ(bench.status, 0) << bench.err;
  EXPECT_NE(bench.out.find("Solver wins"), std::string::npos) << bench.out;
  EXPECT_NE(bench.out.find("Solver loses"), std::string::npos) << bench.out;  // counted apart from the wins
  const troyka_tests::Outcome play =
      troyka_tests::run_troyka("play " + file + " --white mcts:iterations=50 --ascii --no-color");
  EXPECT_EQ(play.status, 0) << play.err;
  EXPECT_NE(play.out.find("result: Solver "), std::string::npos) << play.out;
  const troyka_tests::Outcome match = troyka_tests::run_troyka("match " + file + " --agents mcts");
  EXPECT_NE(match.status, 0);
  EXPECT_NE(match.err.find("Peg Solitaire is a game of one player: troyka match plays games of two players or more"),
            std::string::npos)
      << match.err;
  const troyka_tests::Outcome analyze = troyka_tests::run_troyka("analyze " + file);
  EXPECT_NE(analyze.status, 0);
  EXPECT_NE(analyze.err.find("Peg Solitaire is a game of one player: troyka analyze measures games of two players"),
            std::string::npos)
      << analyze.err;
  const troyka_tests::Outcome referee =
      troyka_tests::run_troyka("referee --bind ipc://" + troyka_tests::temp_path("solitaire.sock") + " --game " + file +
                               " --time 1s --agents a b --results " + troyka_tests::temp_path("solitaire.results"));
  EXPECT_NE(referee.status, 0);
  EXPECT_NE(referee.err.find("Peg Solitaire is a game of one player: the referee runs games of two players or more"),
            std::string::npos)
      << referee.err;
}

}  // namespace
