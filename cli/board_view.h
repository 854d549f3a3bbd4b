// The board as people see it in a terminal: rows from the top rank down, rank numbers on both
// sides, file letters below, chess glyphs for chess-like letters and the last move marked.
//
// Drawing is split in two so that only the small extraction is a template: board_view() reads a
// State of any bitboard width into a plain grid, and draw_board() (not a template) renders it.
#pragma once

#include <array>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "interpreter/program.h"

namespace troyka::cli {

struct BoardStyle {
  bool unicode = true;  // chess glyphs and '·'; otherwise letters and '.' as in Program::diagram
  bool color = false;   // ANSI colours (for terminals): the last move's cells get a background
};

// What stands on one cell.
struct Occupant {
  static constexpr int kBlocked = kMaxPlayers;   // `player` of a cell a shot blocked: no one's
  static constexpr int kHole = kMaxPlayers + 1;  // `player` of a hole: not a cell, drawn as nothing
  int player = -1;                               // -1: empty
  std::string code;                              // the piece type's code, upper case: "P", "DK"
};

struct BoardView {
  int width = 0, height = 0;
  std::vector<Occupant> cells;       // by cell index: row * width + column, row 0 at the bottom
  int last_from = -1, last_to = -1;  // the last move's cells; -1 when there is none
  bool rhombus = false;              // each row drawn half a cell right of the row below
  std::vector<std::string> players;  // their names, first player first (colours for the SVG board)
  int piece_types = 0;
  std::vector<int> counts;  // by cell, in a game that keeps counts per cell (sowing); else empty
};

template <class Program>
BoardView board_view(const Program& program, const typename Program::StateType& state,
                     std::optional<Move> last_move = std::nullopt) {
  const lang::Rules& rules = program.rules();
  BoardView view{.width = rules.width,
                 .height = rules.height,
                 .cells = std::vector<Occupant>(static_cast<std::size_t>(rules.cells())),
                 .rhombus = rules.shape == lang::BoardShape::Rhombus,
                 .players = lang::player_names(rules),
                 .piece_types = static_cast<int>(rules.pieces.size()),
                 .counts = {}};
  for (int player = 0; player < rules.player_count(); ++player) {
    for (std::size_t piece = 0; piece < rules.pieces.size(); ++piece) {
      auto cells = state.by_player[static_cast<std::size_t>(player)] & state.by_piece[piece];
      while (cells.any())
        view.cells[static_cast<std::size_t>(cells.pop_lowest())] = Occupant{player, rules.pieces[piece].code};
    }
  }
  for (auto cells = state.blocked; cells.any();)
    view.cells[static_cast<std::size_t>(cells.pop_lowest())] = Occupant{Occupant::kBlocked, {}};
  for (const int hole : rules.holes) view.cells[static_cast<std::size_t>(hole)] = Occupant{Occupant::kHole, {}};
  if (rules.keeps_counts)
    for (int cell = 0; cell < rules.cells(); ++cell) view.counts.push_back(state.count(cell));
  if (last_move) {
    view.last_from = last_move->from;
    view.last_to = last_move->to;
  }
  return view;
}

// The chess glyph of a chess-like letter (P N B R Q K): hollow for the first player, solid for the
// second; "" for any other letter.
std::string_view chess_glyph(std::string_view code, int player);

// The board, one line per row and a line of file letters, each line ending in '\n'. Without
// colour the last move's destination is bracketed, "·[♙]·", which keeps the columns aligned. With
// more than two players a piece is drawn as its player's number from 1, as case and glyphs tell
// only two players apart. In a game that keeps counts an empty cell shows its count, every cell
// as wide as the widest count.
std::string draw_board(const BoardView& view, const BoardStyle& style);

}  // namespace troyka::cli
