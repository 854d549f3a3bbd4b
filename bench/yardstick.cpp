#include "bench/yardstick.h"

#include <array>
#include <bit>
#include <chrono>
#include <cstddef>

#include "interpreter/random.h"

namespace troyka::yardstick {
namespace {

using Bitboard = std::uint64_t;

constexpr Bitboard kFileA = 0x0101010101010101ULL;
constexpr Bitboard kFileH = kFileA << 7;
constexpr Bitboard kRank1 = 0xFFULL;
constexpr Bitboard kRank2 = kRank1 << 8;
constexpr Bitboard kRank7 = kRank1 << 48;
constexpr Bitboard kRank8 = kRank1 << 56;

// Sides are indices into Position::pieces and PlayoutStats::wins: 0 = White, 1 = Black.
constexpr int kWhite = 0;

int opponent(int side) { return 1 - side; }

struct Move {
  std::uint8_t from, to;
};

// At most 16 pieces with at most three moves each.
constexpr int kMaxMoves = 48;

using MoveList = std::array<Move, kMaxMoves>;

struct Position {
  Bitboard pieces[2] = {kRank1 | kRank2, kRank7 | kRank8};
  int to_move = kWhite;
};

// Writes one move per set bit of `targets`, each mover standing `step` squares before its target;
// returns the end of what it wrote. (Working through a local pointer rather than a size member
// matters: stores of std::uint8_t may alias anything, so a member would be reloaded every move.)
Move* add_moves(Bitboard targets, int step, Move* out) {
  while (targets != 0) {
    const int to = std::countr_zero(targets);
    *out++ = {static_cast<std::uint8_t>(to - step), static_cast<std::uint8_t>(to)};
    targets &= targets - 1;
  }
  return out;
}

// Fills `list` with the legal moves of the side to move and returns how many there are.
// Straight steps need an empty square; diagonal steps may also capture, so they only need a square
// not held by a friend. The file masks drop diagonal shifts that wrapped around the board edge.
std::size_t generate_moves(const Position& pos, MoveList& list) {
  const Bitboard own = pos.pieces[pos.to_move];
  const Bitboard empty = ~(own | pos.pieces[opponent(pos.to_move)]);
  Move* end = list.data();
  if (pos.to_move == kWhite) {
    end = add_moves((own << 8) & empty, 8, end);
    end = add_moves((own << 7) & ~own & ~kFileH, 7, end);
    end = add_moves((own << 9) & ~own & ~kFileA, 9, end);
  } else {
    end = add_moves((own >> 8) & empty, -8, end);
    end = add_moves((own >> 9) & ~own & ~kFileH, -9, end);
    end = add_moves((own >> 7) & ~own & ~kFileA, -7, end);
  }
  return static_cast<std::size_t>(end - list.data());
}

// Plays `move` and hands the turn over; returns true when the move wins the game for its mover.
// A mover left with no legal move is detected by the caller, as it needs move generation anyway.
bool apply(Position& pos, Move move) {
  const Bitboard from = Bitboard{1} << move.from;
  const Bitboard to = Bitboard{1} << move.to;
  Bitboard& own = pos.pieces[pos.to_move];
  Bitboard& enemy = pos.pieces[opponent(pos.to_move)];
  own ^= from | to;
  enemy &= ~to;
  const Bitboard goal_row = pos.to_move == kWhite ? kRank8 : kRank1;
  pos.to_move ^= 1;
  return (to & goal_row) != 0 || enemy == 0;
}

std::uint64_t perft_from(const Position& pos, int depth) {
  MoveList list;
  const std::size_t count = generate_moves(pos, list);
  if (depth == 1) return count;
  std::uint64_t leaves = 0;
  for (std::size_t i = 0; i < count; ++i) {
    Position child = pos;
    // A won position is terminal: with plies still to go it is not a leaf. A side without moves
    // yields 0 by itself through its empty move list.
    if (!apply(child, list[i])) leaves += perft_from(child, depth - 1);
  }
  return leaves;
}

struct GameResult {
  int winner;
  std::uint64_t plies;
};

// Plays one uniformly random game from the start position.
GameResult play_out(Rng& rng) {
  Position pos;
  MoveList list;
  for (std::uint64_t plies = 0;; ++plies) {
    const std::size_t count = generate_moves(pos, list);
    if (count == 0) return {opponent(pos.to_move), plies};  // The side to move is stuck, and loses.
    const int mover = pos.to_move;
    if (apply(pos, list[rng.below(static_cast<std::uint32_t>(count))])) return {mover, plies + 1};
  }
}

}  // namespace

std::uint64_t perft(int depth) {
  if (depth <= 0) return 1;
  return perft_from(Position{}, depth);
}

PlayoutStats run_playouts(std::uint64_t count, std::uint64_t seed) {
  PlayoutStats stats;
  Rng rng(seed);
  const auto start = std::chrono::steady_clock::now();
  for (std::uint64_t i = 0; i < count; ++i) {
    const GameResult game = play_out(rng);
    ++stats.wins[game.winner];
    stats.plies += game.plies;
  }
  stats.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  stats.playouts = count;
  return stats;
}

}  // namespace troyka::yardstick
