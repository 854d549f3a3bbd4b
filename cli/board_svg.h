// The board as an SVG picture, for slides, docs and the web playground (troyka serve): the cells as
// the rules lay them out (squares on a rectangle, hexagons on a rhombus), the pieces as discs in
// their player's colour, the coordinates on the edges and the last move highlighted.
//
// Every cell is one element, <g class="cell ..." data-cell="c3">, holding what is drawn on it, so a
// page finds the cell a click landed on with closest('[data-cell]'). An occupied cell also carries
// data-player (0 or 1) and data-piece (the piece type's letter). The output depends on nothing but
// its arguments: the same position gives the same bytes.
#pragma once

#include <string>
#include <vector>

#include "cli/board_view.h"

namespace troyka::cli {

// What a page adds to a position: a piece it picked up and the cells that piece may move to.
struct BoardMarks {
  int selected = -1;         // a cell, or -1
  std::vector<int> targets;  // cells, each drawn with a dot (a ring when a piece stands there)
};

std::string board_svg(const BoardView& view, const BoardMarks& marks = {});

}  // namespace troyka::cli
