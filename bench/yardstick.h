// A hand-written bitboard Breakthrough 8x8 engine, used only as a speed yardstick: benchmarks run it
// side by side with troyka's generic interpreter to show what a plain dedicated engine achieves.
// troyka itself never uses it.
//
// Board: one std::uint64_t per side, bit index = row * 8 + col, row 0 = rank 1, col 0 = file a.
// White starts on ranks 1-2 and moves first (north); Black starts on ranks 7-8 (moves south).
#pragma once

#include <cstdint>

namespace troyka::yardstick {

// Leaf count of the game tree `depth` plies deep from the start position. Terminal positions are
// not expanded: one reached with plies still to go contributes 0 (it counts 1 only at depth 0).
std::uint64_t perft(int depth);

struct PlayoutStats {
  std::uint64_t playouts = 0, plies = 0;
  std::uint64_t wins[2] = {0, 0};  // [0] = White, [1] = Black.
  double seconds = 0;              // Wall time of the playouts alone (steady_clock).
};

// Plays `count` uniformly random games from the start position with troyka::Rng seeded by `seed`.
PlayoutStats run_playouts(std::uint64_t count, std::uint64_t seed);

}  // namespace troyka::yardstick
