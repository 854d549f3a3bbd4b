// Uniformly random playouts: the basic measure of an interpreter's speed and the rollout of MCTS.
#pragma once

#include <cstdint>

#include "interpreter/program.h"

namespace troyka {

// Plays uniformly random moves until the game ends; returns the number of plies played.
template <typename Program>
std::uint32_t random_playout(const Program& program, typename Program::StateType& state, Rng& rng) {
  std::uint32_t plies = 0;
  while (!state.over) {
    program.apply(state, program.random_move(state, rng));
    ++plies;
  }
  return plies;
}

}  // namespace troyka
