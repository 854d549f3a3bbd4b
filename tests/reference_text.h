// Board text for the plain references of tests/ (reference_konane.h, reference_hasami.h): the
// board as troyka's position text writes it, written apart from the interpreter.
#pragma once

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

}  // namespace troyka::reference_text
