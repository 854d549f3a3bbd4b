// Hexagonal boards, (board (hexagon SIDE)): games/breakthrough-hexagon.game against the plain
// reference of tests/reference_graph.h, which knows nothing of rhombi and holes; its text, diagram
// and board; the form's errors; and a match.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cli/board_svg.h"
#include "cli/board_view.h"
#include "interpreter/game.h"
#include "interpreter/perft.h"
#include "interpreter/random.h"
#include "lang/diagnostic.h"
#include "lang/translate.h"
#include "tests/games.h"
#include "tests/reference_graph.h"
#include "tests/run_troyka.h"

namespace troyka {
namespace {

using troyka_tests::after;
using troyka_tests::game;
using troyka_tests::kSlowBuild;
using troyka_tests::move_texts;
using troyka_tests::position;

Game hexagon_breakthrough(int side) { return game("breakthrough-hexagon.game", {{"size", std::to_string(side)}}); }

// Side 3: the armies touch from the start; 4: one empty row; 5, the default: three.
TEST(HexagonBreakthrough, PerftAgreesWithTheReference) {
  const std::vector<std::pair<int, int>> sides_and_depths = {{3, 6}, {4, 5}, {5, 5}};
  for (const auto& [side, depth] : sides_and_depths) {
    const reference_graph::HexBreakthrough start = reference_graph::HexBreakthrough::start(side);
    hexagon_breakthrough(side).visit([&](const auto& program) {
      for (int d = 1; d <= depth - (kSlowBuild ? 1 : 0); ++d)
        EXPECT_EQ(perft(program, program.initial_state(), d), reference_graph::perft(start, d))
            << "side " << side << ", depth " << d;
    });
  }
}

// Random games: every position's moves, in cell names, and its end equal the reference's.
TEST(HexagonBreakthrough, RandomGamesAgreeWithTheReference) {
  for (const int side : {3, 4, 5}) {
    hexagon_breakthrough(side).visit([&](const auto& program) {
      Rng rng(side);
      for (int round = 0; round < (kSlowBuild ? 3 : 20); ++round) {
        auto state = program.initial_state();
        reference_graph::HexBreakthrough expected = reference_graph::HexBreakthrough::start(side);
        while (true) {
          std::map<std::string, reference_graph::HexBreakthrough::Move> moves;
          std::vector<std::string> texts;
          for (const auto& move : expected.moves()) {
            moves.emplace(expected.move_text(move), move);
            texts.push_back(expected.move_text(move));
          }
          std::sort(texts.begin(), texts.end());
          ASSERT_EQ(move_texts(program, state), texts) << program.position_text(state);
          ASSERT_EQ(state.over, expected.over()) << program.position_text(state);
          if (texts.empty()) break;
          const std::string pick = texts[rng.below(static_cast<std::uint32_t>(texts.size()))];
          state = after(program, state, pick);
          expected = expected.after(moves.at(pick));
          ASSERT_EQ(program.parse_position(program.position_text(state)).state.hash, state.hash);
        }
      }
    });
  }
}

TEST(HexagonBreakthrough, APawnHasTwoForwardNeighboursAndTakesOnEither) {
  hexagon_breakthrough(3).visit([](const auto& program) {
    // White's pawn on c3, the middle, faces Black's on c4 (n) and b4 (nw).
    const auto state = position(program, "2p##/1pp1#/2P2/#4/##3 White 0");
    EXPECT_EQ(move_texts(program, state), (std::vector<std::string>{"c3xb4", "c3xc4"}));
    // On the hexagon's left side, a3 has no nw neighbour; on its upper right side, e3 has no n one.
    const auto edges = position(program, "2p##/4#/P3P/#4/##3 White 0");
    EXPECT_EQ(move_texts(program, edges), (std::vector<std::string>{"a3-a4", "e3-d4"}));
  });
}

TEST(HexagonBreakthrough, TextDiagramAndBoardShowTheHexagon) {
  hexagon_breakthrough(3).visit([](const auto& program) {
    const auto start = program.initial_state();
    EXPECT_EQ(program.position_text(start), "ppp##/pppp#/5/#PPPP/##PPP White 0");
    EXPECT_EQ(program.parse_position("ppp##/pppp#/5/#PPPP/###PP White 0").error, "'#' marks a hole, and c1 is not one");
    EXPECT_EQ(program.parse_position("ppp##/pppp#/5/#PPPP/#PPPP White 0").error,
              "b1 is a hole of the board: write it '#'");
    EXPECT_EQ(program.parse_position("pppp#/pppp#/5/#PPPP/##PPP White 0").error,
              "d5 is a hole of the board: write it '#'");
    EXPECT_EQ(program.parse_move(start, "b1-b2").error, "'b1' is a hole of the board");
    const cli::BoardView view = cli::board_view(program, start);
    const std::string svg = cli::board_svg(view);
    std::size_t cells = 0;
    for (std::size_t at = svg.find("class=\"cell"); at != std::string::npos; at = svg.find("class=\"cell", at + 1))
      ++cells;
    EXPECT_EQ(cells, 19u);  // 3 x 3 x 2 + 1
    EXPECT_EQ(svg.find("data-cell=\"a1\""), std::string::npos);
    EXPECT_NE(svg.find("data-cell=\"c1\""), std::string::npos);
  });
  hexagon_breakthrough(5).visit([](const auto& program) {
    EXPECT_NE(program.describe().find(
                  "board: 9x9 rhombus (six neighbours a cell), 61 cells (holes a1 b1 c1 d1 a2 b2 c2 a3 b3 a4 i6 h7 i7 "
                  "g8 h8 i8 f9 g9 h9 i9)"),
              std::string::npos)
        << program.describe();
  });
}

TEST(HexagonBreakthrough, TranslationWritesARhombusWithHolesThatPlaysAlike) {
  const Game original = hexagon_breakthrough(4);
  const std::string text = lang::to_troyka_language(original.rules());
  EXPECT_NE(text.find("(board (rhombus 7 7) (holes "), std::string::npos) << text;
  const Game translated(lang::load_rules(std::make_shared<lang::SourceFile>(lang::SourceFile{"t.game", text}), {}));
  const reference_graph::HexBreakthrough start = reference_graph::HexBreakthrough::start(4);
  translated.visit([&](const auto& program) {
    EXPECT_EQ(perft(program, program.initial_state(), 4), reference_graph::perft(start, 4));
  });
}

TEST(HexagonBreakthrough, MctsBeatsRandomInAMatch) {
  troyka_tests::expect_first_agent_scores(
      "match games/breakthrough-hexagon.game --games 4 --agents mcts:iterations=300 random --json", 3.0);
}

// A ZRF board given position by position on the cells of a rhombus without its corners: the cells
// no position names are holes, so it is the hexagon, and plays as the game of side 3.
TEST(HexagonZrf, APositionsBoardWithoutTheCornersIsTheHexagon) {
  const Game zrf(
      lang::load_rules_file(std::string(TROYKA_SOURCE_DIR) + "/tests/data/zrf/breakthrough-hexagon.zrf", {}));
  const Game twin = hexagon_breakthrough(3);
  EXPECT_EQ(zrf.rules().holes, twin.rules().holes);
  const reference_graph::HexBreakthrough start = reference_graph::HexBreakthrough::start(3);
  zrf.visit([&](const auto& program) {
    EXPECT_EQ(program.position_text(program.initial_state()), "ppp##/pppp#/5/#PPPP/##PPP White 0");
    troyka_tests::expect_perft_agrees(program, program.initial_state(), kSlowBuild ? 4 : 6,
                                      [&](int depth) { return reference_graph::perft(start, depth); });
    const auto state = position(program, "2p##/1pp1#/2P2/#4/##3 White 0");
    EXPECT_EQ(move_texts(program, state), (std::vector<std::string>{"c3xb4", "c3xc4"}));
  });
}

// ---- the form's errors ---------------------------------------------------------------------------

constexpr std::string_view kHexGame = R"((game "Hex stones"
  (players (Red north) (Blue east))
  (board (hexagon 3))
  (piece Stone "S" (drop))
  (setup)
  (end (win (connect home-row far-row))))
)";

std::string with_board(std::string_view board) {
  std::string text(kHexGame);
  const std::string from = "(board (hexagon 3))";
  return text.replace(text.find(from), from.size(), board);
}

std::string board_error(std::string_view board) { return troyka_tests::load_error(with_board(board)); }

TEST(HexagonErrors, ASideFromOneToThirteen) {
  EXPECT_EQ(board_error("(board (hexagon 14))"),
            R"(test.game:3:19: error: a hexagon's side must be 1 to 13, this one is 14
 3 |   (board (hexagon 14))
   |                   ^~
hint: a hexagon of side N lies on a rhombus of 2N-1 columns and rows, and a board has at most 26 (columns a..z)
)");
  EXPECT_EQ(board_error("(board (hexagon 0))"),
            R"(test.game:3:19: error: a hexagon's side must be 1 to 13, this one is 0
 3 |   (board (hexagon 0))
   |                   ^
hint: a hexagon of side N lies on a rhombus of 2N-1 columns and rows, and a board has at most 26 (columns a..z)
)");
}

TEST(HexagonErrors, OneNumberOnly) {
  EXPECT_EQ(board_error("(board (hexagon))"), R"(test.game:3:10: error: '(hexagon ...)' is missing its SIDE
 3 |   (board (hexagon))
   |          ^
hint: usage: (hexagon SIDE), e.g. (hexagon 5): 61 cells on a 9x9 rhombus
)");
  EXPECT_EQ(board_error("(board (hexagon 3 3))"),
            R"(test.game:3:21: error: '(hexagon ...)' takes no more than 1 argument; the number 3 is one too many
 3 |   (board (hexagon 3 3))
   |                     ^
hint: usage: (hexagon SIDE), e.g. (hexagon 5): 61 cells on a 9x9 rhombus
)");
}

TEST(HexagonErrors, ItsCornersAreHolesAlready) {
  EXPECT_EQ(board_error("(board (hexagon 3) (holes a1))"), R"(test.game:3:29: error: a1 is a hole of the board
 3 |   (board (hexagon 3) (holes a1))
   |                             ^~
hint: a hole is not a cell: no piece stands there and no move goes there
)");
  const lang::Rules rules = lang::load_rules(
      std::make_shared<lang::SourceFile>(lang::SourceFile{"test.game", with_board("(board (hexagon 3) (holes c3))")}),
      {});
  EXPECT_EQ(rules.cells_on_board(), 18);
  EXPECT_TRUE(rules.is_hole(rules.cell(2, 2)));
}

}  // namespace
}  // namespace troyka
