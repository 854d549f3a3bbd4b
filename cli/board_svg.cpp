#include "cli/board_svg.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <cmath>
#include <numbers>
#include <string_view>

#include "lang/rules.h"

namespace troyka::cli {
namespace {

constexpr double kCell = 48;                       // a square's side; a hexagon's width across its flat sides
const double kHexRadius = kCell / std::sqrt(3.0);  // a hexagon's centre to its corners
constexpr double kMargin = 36;                     // room for the coordinates around the cells
constexpr double kPieceRadius = 0.38 * kCell;

// Paint in the colours of a wooden chess board; a rhombus (Hex and its kind) in one colour.
constexpr std::string_view kLightSquare = "#f0d9b5", kDarkSquare = "#b58863", kHexagon = "#e9d3a6";
constexpr std::string_view kLastLight = "#f4e37b", kLastDark = "#d8c14a", kSelected = "#9fd39a";
constexpr std::string_view kTargetInk = "#1f6f2b", kGridLine = "#7a5c3a", kLabelInk = "#5b4632";
constexpr std::string_view kBlockedInk = "#3b3b3b";

// A player's disc: its fill and the ink of the mark drawn on it.
struct Paint {
  std::string_view name;  // lower case, as a player may be called
  std::string_view fill, ink;
};

// Players named after a colour are drawn in it; the others as white (first) and black (second).
constexpr std::array<Paint, 8> kNamedPaints = {{{"white", "#f7f5ef", "#2b2b2b"},
                                                {"black", "#262626", "#f2f2f2"},
                                                {"red", "#d23b32", "#ffffff"},
                                                {"blue", "#2f5fd0", "#ffffff"},
                                                {"yellow", "#f2c318", "#2b2b2b"},
                                                {"green", "#2f9a4a", "#ffffff"},
                                                {"orange", "#ee8a1c", "#2b2b2b"},
                                                {"purple", "#7c3fb0", "#ffffff"}}};

Paint paint_of(const BoardView& view, int player) {
  std::string name = view.players[static_cast<std::size_t>(player)];
  std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
  for (const Paint& paint : kNamedPaints)
    if (paint.name == name) return paint;
  return kNamedPaints[static_cast<std::size_t>(player)];
}

struct Point {
  double x = 0, y = 0;
};

// Where a cell's centre is drawn, a1 at the origin and y growing downwards. Columns and rows
// outside the board (-1, width, height) are where their coordinates are written. On a rhombus each
// row sits half a cell right of the row below, as in Program::diagram.
Point centre(const BoardView& view, double column, double row) {
  if (!view.rhombus) return {column * kCell, -row * kCell};
  return {column * kCell + row * kCell / 2, -row * 1.5 * kHexRadius};
}

// Half a cell's extent from its centre, across and up.
Point half_extent(const BoardView& view) { return {kCell / 2, view.rhombus ? kHexRadius : kCell / 2}; }

// One decimal is finer than a pixel; a value that rounds to zero is written "0.0", never "-0.0".
std::string number(double value) { return fmt::format("{:.1f}", std::abs(value) < 0.05 ? 0.0 : value); }

std::string cell_shape(const BoardView& view, Point at, std::string_view fill) {
  if (!view.rhombus)
    return fmt::format(R"(<rect x="{}" y="{}" width="{}" height="{}" fill="{}"/>)", number(at.x - kCell / 2),
                       number(at.y - kCell / 2), number(kCell), number(kCell), fill);
  std::string corners;
  for (int corner = 0; corner < 6; ++corner) {
    const double angle = (60.0 * corner + 30.0) * std::numbers::pi / 180.0;  // pointy top
    corners += fmt::format("{}{},{}", corner ? " " : "", number(at.x + kHexRadius * std::cos(angle)),
                           number(at.y + kHexRadius * std::sin(angle)));
  }
  return fmt::format(R"(<polygon points="{}" fill="{}" stroke="{}" stroke-width="1.5"/>)", corners, fill, kGridLine);
}

std::string_view cell_fill(const BoardView& view, int cell, bool selected) {
  if (selected) return kSelected;
  const bool light = view.rhombus || (cell / view.width + cell % view.width) % 2 == 1;
  if (cell == view.last_from || cell == view.last_to) return light ? kLastLight : kLastDark;
  if (view.rhombus) return kHexagon;
  return light ? kLightSquare : kDarkSquare;
}

// The mark a piece is drawn with: its chess glyph, its code when the game has several piece
// types, nothing for the one stone of games such as Hex or Othello.
std::string piece_mark(const BoardView& view, const Occupant& occupant) {
  if (const std::string_view glyph = chess_glyph(occupant.code, 1); !glyph.empty()) return std::string(glyph);
  if (view.piece_types > 1) return occupant.code;
  return {};
}

std::string occupant_svg(const BoardView& view, const Occupant& occupant, Point at) {
  if (occupant.player == Occupant::kBlocked) {
    const double side = kCell * 0.5;
    return fmt::format(R"(<rect class="blocked" x="{}" y="{}" width="{}" height="{}" rx="4" fill="{}"/>)",
                       number(at.x - side / 2), number(at.y - side / 2), number(side), number(side), kBlockedInk);
  }
  const Paint paint = paint_of(view, occupant.player);
  std::string svg = fmt::format(R"(<circle class="piece" cx="{}" cy="{}" r="{}" fill="{}" stroke="#1a1a1a" )"
                                R"(stroke-width="1.5"/>)",
                                number(at.x), number(at.y), number(kPieceRadius), paint.fill);
  const std::string mark = piece_mark(view, occupant);
  if (!mark.empty())
    svg += fmt::format(R"(<text x="{}" y="{}" font-size="{}" fill="{}" text-anchor="middle" )"
                       R"(dominant-baseline="central">{}</text>)",
                       number(at.x), number(at.y), number(kCell * 0.5), paint.ink, mark);
  return svg;
}

// A dot on an empty target, a ring around a piece that can be taken.
std::string target_svg(bool occupied, Point at) {
  if (occupied)
    return fmt::format(R"(<circle class="target-mark" cx="{}" cy="{}" r="{}" fill="none" stroke="{}" )"
                       R"(stroke-width="4" stroke-opacity="0.7"/>)",
                       number(at.x), number(at.y), number(kPieceRadius + 3), kTargetInk);
  return fmt::format(R"(<circle class="target-mark" cx="{}" cy="{}" r="{}" fill="{}" fill-opacity="0.6"/>)",
                     number(at.x), number(at.y), number(kCell * 0.16), kTargetInk);
}

std::string cell_svg(const BoardView& view, const BoardMarks& marks, int cell) {
  const Occupant& occupant = view.cells[static_cast<std::size_t>(cell)];
  if (occupant.player == Occupant::kHole) return {};  // not a cell: the background shows through
  const bool selected = cell == marks.selected;
  const bool target = std::find(marks.targets.begin(), marks.targets.end(), cell) != marks.targets.end();
  const bool last = cell == view.last_from || cell == view.last_to;
  std::string classes = "cell";
  if (last) classes += " last";
  if (selected) classes += " selected";
  if (target) classes += " target";
  std::string attributes = fmt::format(R"(class="{}" data-cell="{}")", classes, lang::cell_name(cell, view.width));
  if (occupant.player >= 0 && occupant.player != Occupant::kBlocked)
    attributes += fmt::format(R"( data-player="{}" data-piece="{}")", occupant.player, occupant.code);
  const int column = cell % view.width, row = cell / view.width;
  const Point at = centre(view, column, row);
  std::string svg = fmt::format("<g {}>{}", attributes, cell_shape(view, at, cell_fill(view, cell, selected)));
  if (occupant.player >= 0) svg += occupant_svg(view, occupant, at);
  if (occupant.player < 0 && !view.counts.empty())  // a sowing game's seeds, as a number
    svg += fmt::format(R"(<text class="count" x="{}" y="{}" font-size="{}" text-anchor="middle" )"
                       R"(dominant-baseline="central">{}</text>)",
                       number(at.x), number(at.y), number(kCell * 0.45), view.counts[static_cast<std::size_t>(cell)]);
  if (target) svg += target_svg(occupant.player >= 0, at);
  return svg + "</g>\n";
}

std::string label_svg(Point at, std::string_view text) {
  return fmt::format(R"(<text x="{}" y="{}" text-anchor="middle" dominant-baseline="central">{}</text>)", number(at.x),
                     number(at.y), text) +
         "\n";
}

// File letters below and above the board and rank numbers on both sides, each where the line of
// its column or row would go on: on a rhombus the letters sit along the slant of the columns.
std::string coordinates_svg(const BoardView& view) {
  // How far past the edge cells, in cells, a label stands: hexagons are taller than squares.
  const double reach = view.rhombus ? 1.0 : 0.85;
  std::string svg = fmt::format(R"(<g class="coordinates" font-size="14" fill="{}">)", kLabelInk) + "\n";
  for (int column = 0; column < view.width; ++column) {
    const std::string letter(1, static_cast<char>('a' + column));
    svg += label_svg(centre(view, column, -reach), letter);
    svg += label_svg(centre(view, column, view.height - 1 + reach), letter);
  }
  for (int row = 0; row < view.height; ++row) {
    const std::string rank = std::to_string(row + 1);
    svg += label_svg(centre(view, -reach, row), rank);
    svg += label_svg(centre(view, view.width - 1 + reach, row), rank);
  }
  return svg + "</g>\n";
}

}  // namespace

std::string board_svg(const BoardView& view, const BoardMarks& marks) {
  // The picture spans the cells' centres, half a cell around them and the margin.
  Point low{0, 0}, high{0, 0};
  for (const Point corner : {centre(view, 0, 0), centre(view, view.width - 1, 0), centre(view, 0, view.height - 1),
                             centre(view, view.width - 1, view.height - 1)}) {
    low = {std::min(low.x, corner.x), std::min(low.y, corner.y)};
    high = {std::max(high.x, corner.x), std::max(high.y, corner.y)};
  }
  const Point half = half_extent(view);
  const Point origin{low.x - half.x - kMargin, low.y - half.y - kMargin};
  const Point size{high.x - low.x + 2 * (half.x + kMargin), high.y - low.y + 2 * (half.y + kMargin)};
  std::string svg = fmt::format(
      R"(<svg xmlns="http://www.w3.org/2000/svg" class="board" viewBox="{} {} {} {}" width="{}" height="{}" )"
      R"(font-family="DejaVu Sans, Verdana, sans-serif">)"
      "\n",
      number(origin.x), number(origin.y), number(size.x), number(size.y), number(size.x), number(size.y));
  svg += fmt::format(R"(<rect x="{}" y="{}" width="{}" height="{}" fill="#faf6ee"/>)", number(origin.x),
                     number(origin.y), number(size.x), number(size.y)) +
         "\n";
  for (int cell = 0; cell < view.width * view.height; ++cell) svg += cell_svg(view, marks, cell);
  svg += coordinates_svg(view);
  return svg + "</svg>\n";
}

}  // namespace troyka::cli
