// Perft: the number of move sequences of a given length, the standard check of a move generator.
// A finished game has no moves, so a position where the game ended early adds nothing at depth > 0.
#pragma once

#include <cstdint>

#include "interpreter/program.h"

namespace troyka {

template <typename Program>
std::uint64_t perft(const Program& program, const typename Program::StateType& state, int depth) {
  if (depth == 0) return 1;
  if (depth == 1) return static_cast<std::uint64_t>(program.count_moves(state));  // bulk count at the leaves
  MoveList moves;
  program.legal_moves(state, moves);
  std::uint64_t nodes = 0;
  for (const Move& move : moves) {
    auto next = state;
    program.apply(next, move);
    nodes += perft(program, next, depth - 1);
  }
  return nodes;
}

}  // namespace troyka
