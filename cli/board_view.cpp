#include "cli/board_view.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <string_view>

namespace troyka::cli {
namespace {

// Black on yellow: readable on dark and light terminals alike.
constexpr std::string_view kHighlight = "\x1b[30;43m";
constexpr std::string_view kReset = "\x1b[0m";

// Chess letters get chess glyphs: the first player's hollow ones, the second player's solid ones.
constexpr std::string_view kChessLetters = "PNBRQK";
constexpr std::array<std::string_view, 6> kFirstPlayerGlyphs = {"♙", "♘", "♗", "♖", "♕", "♔"};
constexpr std::array<std::string_view, 6> kSecondPlayerGlyphs = {"♟", "♞", "♝", "♜", "♛", "♚"};

// What stands on a cell of a game of `players` players: a terminal column, or a piece's longer code.
std::string symbol(const Occupant& occupant, const BoardStyle& style, std::size_t players) {
  if (occupant.player < 0) return style.unicode ? "·" : ".";
  if (occupant.player == Occupant::kBlocked) return "*";  // as in Program::diagram
  if (occupant.player == Occupant::kHole) return " ";     // a gap in the board, where Program::diagram has '#'
  if (players > kPlayers) return std::to_string(occupant.player + 1);
  if (style.unicode) {
    if (const std::string_view glyph = chess_glyph(occupant.code, occupant.player); !glyph.empty())
      return std::string(glyph);
  }
  return lang::piece_text(occupant.code, occupant.player, kPlayers, false);
}

// `cell_width` columns for what stands on `cell`: its symbol, or an empty cell's count, right-aligned.
std::string cell_symbol(const BoardView& view, const BoardStyle& style, int cell, int cell_width) {
  const Occupant& occupant = view.cells[static_cast<std::size_t>(cell)];
  const std::string shown = !view.counts.empty() && occupant.player < 0
                                ? std::to_string(view.counts[static_cast<std::size_t>(cell)])
                                : symbol(occupant, style, view.players.size());
  return fmt::format("{:>{}}", shown, cell_width);
}

std::string draw_row(const BoardView& view, const BoardStyle& style, int row, int label_width, int cell_width) {
  // The gaps around the cells: gap[c] stands before column c, gap[width] after the last column.
  std::string gaps(static_cast<std::size_t>(view.width) + 1, ' ');
  const bool marks_to = !style.color && view.last_to >= 0 && view.last_to / view.width == row;
  if (marks_to) {
    const auto column = static_cast<std::size_t>(view.last_to % view.width);
    gaps[column] = '[';
    gaps[column + 1] = ']';
  }
  std::string line = fmt::format("  {:>{}}{}", row + 1, label_width,
                                 std::string(view.rhombus ? static_cast<std::size_t>(row) : 0, ' '));
  for (int column = 0; column < view.width; ++column) {
    const int cell = row * view.width + column;
    const std::string shown = cell_symbol(view, style, cell, cell_width);
    line += gaps[static_cast<std::size_t>(column)];
    if (style.color && (cell == view.last_from || cell == view.last_to))
      line += fmt::format("{}{}{}", kHighlight, shown, kReset);
    else
      line += shown;
  }
  return line + fmt::format("{}{}\n", gaps.back(), row + 1);
}

}  // namespace

std::string_view chess_glyph(std::string_view code, int player) {
  const std::size_t glyph = code.size() == 1 ? kChessLetters.find(code[0]) : std::string_view::npos;
  if (glyph == std::string_view::npos) return {};
  return player == 0 ? kFirstPlayerGlyphs[glyph] : kSecondPlayerGlyphs[glyph];
}

std::string draw_board(const BoardView& view, const BoardStyle& style) {
  const int label_width = view.height >= 10 ? 2 : 1;
  int cell_width = 1;
  for (const int count : view.counts) cell_width = std::max(cell_width, static_cast<int>(std::to_string(count).size()));
  for (const Occupant& occupant : view.cells) cell_width = std::max(cell_width, static_cast<int>(occupant.code.size()));
  std::string out;
  for (int row = view.height - 1; row >= 0; --row) out += draw_row(view, style, row, label_width, cell_width);
  out += fmt::format("  {:>{}}", "", label_width);
  for (int column = 0; column < view.width; ++column)
    out += fmt::format(" {:>{}}", static_cast<char>('a' + column), cell_width);
  return out + '\n';
}

}  // namespace troyka::cli
