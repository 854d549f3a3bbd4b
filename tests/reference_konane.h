// A plain, slow Konane move generator, written from the rules (iggamecenter.com/en/rules/konane,
// as games/konane.game cites them), not from the interpreter: a board of chars, a loop per
// stone and direction. The tests compare troyka's moves with it, position by position.
//
// Black (the stones on the dark cells, a1 among them) starts by taking off one of its stones from
// the middle of the board (the 2x2 block at the centre, or the centre cell of an odd side) or from
// a corner; White then takes off one of its stones orthogonally next to the empty cell. From
// then on, a move jumps a stone orthogonally over an adjacent enemy stone to the empty cell
// beyond, removing it, and may go on jumping in the same direction, stopping after any jump. A
// player who cannot move loses.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tests/reference_text.h"

namespace troyka::reference_konane {

inline constexpr char kEmpty = '.';
inline constexpr char kBlack = 'S';  // the first player's stone, upper case in position text
inline constexpr char kWhite = 's';

struct Position {
  int width = 0;
  int height = 0;
  std::vector<char> cells;  // row 1 first, a to the last column
  int to_move = 0;          // 0 Black, 1 White
  int ply = 0;

  char at(int column, int row) const { return cells[static_cast<std::size_t>(row * width + column)]; }
  char& at(int column, int row) { return cells[static_cast<std::size_t>(row * width + column)]; }
  bool on_board(int column, int row) const { return column >= 0 && column < width && row >= 0 && row < height; }
};

// The full chequered board: Black on the dark cells, where column + row is even (a1 is dark).
inline Position start(int width, int height) {
  Position position{width, height, {}, 0, 0};
  for (int row = 0; row < height; ++row)
    for (int column = 0; column < width; ++column) position.cells.push_back((column + row) % 2 == 0 ? kBlack : kWhite);
  return position;
}

// The middle rows (or columns) of a side of `size` cells, 0-based: two for an even size, one for
// an odd one.
inline bool in_middle(int index, int size) { return index == (size - 1) / 2 || index == size / 2; }

inline bool is_corner(const Position& position, int column, int row) {
  return (column == 0 || column == position.width - 1) && (row == 0 || row == position.height - 1);
}

inline Position after_removal(const Position& position, int column, int row) {
  Position next = position;
  next.at(column, row) = kEmpty;
  next.to_move = 1 - position.to_move;
  ++next.ply;
  return next;
}

// Every position the player to move can reach in one move; none means that player has lost.
inline std::vector<Position> successors(const Position& position) {
  const char own = position.to_move == 0 ? kBlack : kWhite;
  const char enemy = position.to_move == 0 ? kWhite : kBlack;
  constexpr int kSteps[4][2] = {{0, 1}, {1, 0}, {0, -1}, {-1, 0}};
  std::vector<Position> found;
  for (int row = 0; row < position.height; ++row) {
    for (int column = 0; column < position.width; ++column) {
      if (position.at(column, row) != own) continue;
      if (position.ply == 0) {
        const bool middle = in_middle(column, position.width) && in_middle(row, position.height);
        if (middle || is_corner(position, column, row)) found.push_back(after_removal(position, column, row));
        continue;
      }
      if (position.ply == 1) {
        bool next_to_empty = false;
        for (const auto& step : kSteps) {
          const int c = column + step[0], r = row + step[1];
          next_to_empty = next_to_empty || (position.on_board(c, r) && position.at(c, r) == kEmpty);
        }
        if (next_to_empty) found.push_back(after_removal(position, column, row));
        continue;
      }
      for (const auto& step : kSteps) {
        Position next = position;
        next.at(column, row) = kEmpty;
        next.to_move = 1 - position.to_move;
        ++next.ply;
        int c = column, r = row;
        // One jump a pass; every jump made is a move of its own (the stone may stop after any).
        while (position.on_board(c + 2 * step[0], r + 2 * step[1]) && position.at(c + step[0], r + step[1]) == enemy &&
               position.at(c + 2 * step[0], r + 2 * step[1]) == kEmpty) {
          next.at(c + step[0], r + step[1]) = kEmpty;
          c += 2 * step[0];
          r += 2 * step[1];
          Position landed = next;
          landed.at(c, r) = own;
          found.push_back(landed);
        }
      }
    }
  }
  return found;
}

inline std::uint64_t perft(const Position& position, int depth) {
  return reference_text::perft(position, depth, successors, [](const Position&) { return true; });
}

// The board as troyka's position text writes it: rows from the top, '/'-separated, digits for runs
// of empty cells.
inline std::string board_text(const Position& position) {
  return reference_text::board_text(position.width, position.height, kEmpty,
                                    [&](int column, int row) { return position.at(column, row); });
}

}  // namespace troyka::reference_konane
