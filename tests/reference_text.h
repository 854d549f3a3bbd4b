// What the plain references of tests/ (reference_konane.h, reference_hasami.h, reference_tafl.h,
// reference_morris.h) share: the board as troyka's position text writes it, and perft, written
// apart from the interpreter.
#pragma once

#include <cstdint>
#include <string>

namespace troyka::reference_text {

// Rows from the top, '/'-separated, digits for runs of empty cells; `at(column, row)` gives a
// cell's letter, `empty` for an empty cell.
template <typename At>
std::string board_text(int width, int height, char empty, const At& at) {
  std::string text;
  for (int row = height - 1; row >= 0; --row) {
    int run = 0;
    for (int column = 0; column < width; ++column) {
      const char cell = at(column, row);
      if (cell == empty) {
        ++run;
        continue;
      }
      if (run > 0) text += std::to_string(run);
      run = 0;
      text += cell;
    }
    if (run > 0) text += std::to_string(run);
    if (row > 0) text += '/';
  }
  return text;
}

// The move sequences of `depth` plies from `position`, whose moves lead to the positions
// `successors(position)`; a position where `goes_on` fails is the game's end.
template <typename Position, typename Successors, typename GoesOn>
std::uint64_t perft(const Position& position, int depth, const Successors& successors, const GoesOn& goes_on) {
  if (depth == 0) return 1;
  std::uint64_t nodes = 0;
  for (const Position& next : successors(position))
    nodes += depth == 1 ? 1 : goes_on(next) ? perft(next, depth - 1, successors, goes_on) : 0;
  return nodes;
}

}  // namespace troyka::reference_text
