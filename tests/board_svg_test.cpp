// The SVG board (cli/board_svg.h): one element per cell named as the game names it, pieces on
// their cells in their player's colour, rhombus boards as hexagons, the last move and a clicked
// piece's targets marked; and `troyka show --svg` / `troyka replay --svg DIR` end to end.
#include "cli/board_svg.h"

#include <gtest/gtest.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <optional>
#include <ostream>
#include <regex>
#include <string>
#include <vector>

#include "interpreter/game.h"
#include "lang/rules.h"
#include "tests/run_troyka.h"

namespace {

using troyka::cli::BoardMarks;

// What the SVG says of one cell: its <g> element's attributes.
struct CellElement {
  std::string name, classes, player, piece;
  bool operator==(const CellElement&) const = default;
};

std::ostream& operator<<(std::ostream& out, const CellElement& cell) {
  return out << cell.name << " [" << cell.classes << "] player=" << cell.player << " piece=" << cell.piece;
}

// Every cell element of the picture, in document order.
std::vector<CellElement> cells_of(const std::string& svg) {
  static const std::regex element(
      R"re(<g class="([^"]*)" data-cell="([^"]*)"(?: data-player="([^"]*)" data-piece="([^"]*)")?>)re");
  std::vector<CellElement> cells;
  for (auto match = std::sregex_iterator(svg.begin(), svg.end(), element); match != std::sregex_iterator(); ++match)
    cells.push_back({(*match)[2], (*match)[1], (*match)[3], (*match)[4]});
  return cells;
}

std::size_t count(const std::string& text, const std::string& what) {
  std::size_t found = 0;
  for (std::size_t at = text.find(what); at != std::string::npos; at = text.find(what, at + what.size())) ++found;
  return found;
}

troyka::Game load(const std::string& path, const troyka::lang::Options& options = {}) {
  return troyka::Game::load(std::string(TROYKA_SOURCE_DIR) + "/" + path, options);
}

// The picture of the start position of `game`, after `moves` (space separated) with the last marked.
std::string svg_after(const troyka::Game& game, const std::vector<std::string>& moves, const BoardMarks& marks = {}) {
  return game.visit([&](const auto& program) {
    auto state = program.initial_state();
    std::optional<troyka::Move> last;
    for (const std::string& text : moves) {
      const troyka::ParsedMove parsed = program.parse_move(state, text);
      EXPECT_TRUE(parsed.ok()) << parsed.error;
      program.apply(state, parsed.move);
      last = parsed.move;
    }
    return troyka::cli::board_svg(troyka::cli::board_view(program, state, last), marks);
  });
}

TEST(BoardSvg, EveryCellIsOneElementNamedAsTheGameNamesIt) {
  const std::string svg = svg_after(load("games/breakthrough.game"), {});
  const std::vector<CellElement> cells = cells_of(svg);
  ASSERT_EQ(cells.size(), 64u);
  EXPECT_EQ(count(svg, "data-cell="), 64u);
  for (int cell = 0; cell < 64; ++cell) EXPECT_EQ(cells[cell].name, troyka::lang::cell_name(cell, 8));
  EXPECT_EQ(cells.front().name, "a1");
  EXPECT_EQ(cells.back().name, "h8");
  EXPECT_TRUE(svg.starts_with(R"(<svg xmlns="http://www.w3.org/2000/svg" class="board")")) << svg.substr(0, 200);
  EXPECT_TRUE(svg.ends_with("</svg>\n"));
}

TEST(BoardSvg, PiecesStandOnTheirCellsInTheirPlayersColour) {
  const std::vector<CellElement> cells = cells_of(svg_after(load("games/breakthrough.game"), {}));
  EXPECT_EQ(cells[0], (CellElement{"a1", "cell", "0", "P"}));
  EXPECT_EQ(cells[15], (CellElement{"h2", "cell", "0", "P"}));
  EXPECT_EQ(cells[16], (CellElement{"a3", "cell", "", ""}));
  EXPECT_EQ(cells[63], (CellElement{"h8", "cell", "1", "P"}));
  int pieces = 0;
  for (const CellElement& cell : cells) pieces += !cell.piece.empty();
  EXPECT_EQ(pieces, 32);
  // White's discs are white, Black's black; a pawn carries its chess glyph.
  const std::string svg = svg_after(load("games/breakthrough.game"), {});
  EXPECT_EQ(count(svg, R"(fill="#f7f5ef")"), 16u);
  EXPECT_EQ(count(svg, R"(fill="#262626")"), 16u);
  EXPECT_EQ(count(svg, ">♟</text>"), 32u);
}

TEST(BoardSvg, APlayerNamedAfterAColourIsDrawnInIt) {
  const std::string svg = svg_after(load("games/hex.game", {{}, {{"size", "3"}}}), {"b2", "a1"});
  EXPECT_EQ(count(svg, R"(fill="#d23b32")"), 1u);  // Red's stone on b2
  EXPECT_EQ(count(svg, R"(fill="#2f5fd0")"), 1u);  // Blue's on a1
  EXPECT_EQ(count(svg, "</text>"), 3u * 4);        // coordinates only: a stone of the one type has no mark
}

TEST(BoardSvg, ARhombusIsDrawnAsHexagonsWithSlantedRows) {
  const std::string svg = svg_after(load("games/hex.game", {{}, {{"size", "3"}}}), {"b2"});
  const std::vector<CellElement> cells = cells_of(svg);
  ASSERT_EQ(cells.size(), 9u);
  EXPECT_EQ(count(svg, "<polygon "), 9u);
  EXPECT_EQ(count(svg, "<rect "), 1u);  // the background alone
  EXPECT_EQ(cells[4], (CellElement{"b2", "cell last", "0", "S"}));
  // Each row starts half a cell right of the row below: a1's hexagon is centred at (0, 0), a2's at
  // (24, -41.6), its corners 27.7 away, the first at 30 degrees.
  EXPECT_NE(svg.find(R"(data-cell="a1"><polygon points="24.0,13.9 )"), std::string::npos) << svg;
  EXPECT_NE(svg.find(R"(data-cell="a2"><polygon points="48.0,-27.7 )"), std::string::npos) << svg;
}

TEST(BoardSvg, TheLastMoveIsHighlighted) {
  const std::vector<CellElement> cells = cells_of(svg_after(load("games/breakthrough.game"), {"a2-a3"}));
  std::vector<std::string> highlighted;
  for (const CellElement& cell : cells)
    if (cell.classes == "cell last") highlighted.push_back(cell.name);
  EXPECT_EQ(highlighted, (std::vector<std::string>{"a2", "a3"}));
  EXPECT_EQ(cells[16], (CellElement{"a3", "cell last", "0", "P"}));
}

TEST(BoardSvg, ASelectedPieceAndItsTargetsAreMarked) {
  const troyka::Game game = load("games/breakthrough.game", {{}, {{"width", "5"}, {"height", "5"}}});
  // b2 and c3 on a 5-wide board: cells 6 and 12; b3 and a3 are 11 and 10.
  const std::string svg = svg_after(game, {}, BoardMarks{6, {10, 11, 12}});
  const std::vector<CellElement> cells = cells_of(svg);
  EXPECT_EQ(cells[6], (CellElement{"b2", "cell selected", "0", "P"}));
  EXPECT_EQ(cells[10].classes, "cell target");
  EXPECT_EQ(cells[11].classes, "cell target");
  EXPECT_EQ(cells[12].classes, "cell target");
  EXPECT_EQ(count(svg, R"(class="target-mark")"), 3u);
}

TEST(BoardSvg, TheSamePositionGivesTheSameBytes) {
  const troyka::Game game = load("games/breakthrough.game");
  EXPECT_EQ(svg_after(game, {"b2-b3", "g7-g6"}), svg_after(game, {"b2-b3", "g7-g6"}));
}

TEST(BoardSvg, ShowWritesTheStartPosition) {
  const troyka_tests::Outcome run = troyka_tests::run_troyka("show games/breakthrough.game --svg");
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out, svg_after(load("games/breakthrough.game"), {}));
}

TEST(BoardSvg, ReplayWritesOnePicturePerPly) {
  const std::string directory = testing::TempDir() + "troyka_svg_" + std::to_string(getpid());
  std::filesystem::remove_all(directory);
  const std::string record = directory + ".record";
  std::ofstream(record) << "[Game \"Breakthrough\"]\n[File \"games/breakthrough.game\"]\n[Variant \"\"]\n"
                           "[Params \"width=3 height=4\"]\n[White \"random\"]\n[Black \"random\"]\n[Result \"1-0\"]\n"
                           "[Winner \"White\"]\n[Reason \"White wins by (reach Pawn far-row)\"]\n[Plies \"3\"]\n"
                           "[Seed \"1\"]\n[Date \"2024-05-01T12:00:00Z\"]\n\n1. a2xb3 c3xb2 2. b3xc4 1-0\n";
  const troyka_tests::Outcome run = troyka_tests::run_troyka("replay --quiet --svg " + directory + " " + record);
  EXPECT_EQ(run.status, 0) << run.err;
  std::vector<std::string> files;
  for (const auto& entry : std::filesystem::directory_iterator(directory))
    files.push_back(entry.path().filename().string());
  std::sort(files.begin(), files.end());
  EXPECT_EQ(files, (std::vector<std::string>{"ply-000.svg", "ply-001.svg", "ply-002.svg", "ply-003.svg"}));
  std::ifstream last_file(directory + "/ply-003.svg");
  const std::string last{std::istreambuf_iterator<char>(last_file), std::istreambuf_iterator<char>()};
  const troyka::Game game = load("games/breakthrough.game", {{}, {{"width", "3"}, {"height", "4"}}});
  EXPECT_EQ(last, svg_after(game, {"a2xb3", "c3xb2", "b3xc4"}));
  EXPECT_EQ(cells_of(last)[11], (CellElement{"c4", "cell last", "0", "P"}));
}

}  // namespace
