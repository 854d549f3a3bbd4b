// A plain, slow Go move generator and judge, written from the rules games/go.game cites
// (Tromp-Taylor, with suicide forbidden and repetition lost), not from the interpreter: a board of
// chars, a flood fill per group and per empty region. The tests compare troyka's moves and ends
// with it, position by position.
//
// A move is a pass or a stone on an empty point; the enemy groups (stones joined north, east, south
// and west) left without an empty neighbour are removed, then the mover's group must have one. Two
// passes in a row end the game: each side scores its stones and the empty regions that touch its
// stones only, White adds the komi, and the larger score wins (equal scores draw). A move that
// leaves a position seen before in the game (the same stones, player to move and passes) loses.
#pragma once

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "tests/reference_text.h"

namespace troyka::reference_go {

inline constexpr char kEmpty = '.';
inline constexpr char kStones[2] = {'S', 's'};  // Black's, the first player's in upper case; White's
inline constexpr int kOngoing = -1;
inline constexpr int kDrawn = 8;  // as troyka::kDraw: past every player of a game of up to eight

struct Position {
  int size = 9;
  int komi = 7;
  std::vector<char> cells;  // row 1 first, a to the last column
  int to_move = 0;          // 0 Black, 1 White
  int ply = 0;
  int passes = 0;  // passes in a row
  // With `followed`, the keys (key()) of the positions before this one in the game, which a
  // repetition loses to; perft follows none, as troyka's perft keeps no history.
  bool followed = false;
  std::vector<std::string> earlier;
  int winner = kOngoing;
};

inline Position start(int size, int komi, bool followed) {
  Position position;
  position.size = size;
  position.komi = komi;
  position.followed = followed;
  position.cells.assign(static_cast<std::size_t>(size * size), kEmpty);
  return position;
}

// The points next to `cell`, along a line.
inline std::vector<int> neighbours(int size, int cell) {
  const int column = cell % size, row = cell / size;
  std::vector<int> found;
  if (column > 0) found.push_back(cell - 1);
  if (column + 1 < size) found.push_back(cell + 1);
  if (row > 0) found.push_back(cell - size);
  if (row + 1 < size) found.push_back(cell + size);
  return found;
}

// The points of the block of like points (stones of one colour, or empty points) that holds `cell`.
inline std::vector<int> block(const Position& position, int cell) {
  const char kind = position.cells[static_cast<std::size_t>(cell)];
  std::vector<bool> seen(position.cells.size());
  std::vector<int> found{cell};
  seen[static_cast<std::size_t>(cell)] = true;
  for (std::size_t i = 0; i < found.size(); ++i)
    for (const int next : neighbours(position.size, found[i]))
      if (!seen[static_cast<std::size_t>(next)] && position.cells[static_cast<std::size_t>(next)] == kind) {
        seen[static_cast<std::size_t>(next)] = true;
        found.push_back(next);
      }
  return found;
}

// The kinds of point next to a block: which of empty, Black and White touch it.
struct Touches {
  bool empty = false;
  bool stone[2] = {false, false};
};
inline Touches touches(const Position& position, const std::vector<int>& points) {
  Touches found;
  for (const int point : points)
    for (const int next : neighbours(position.size, point)) {
      const char kind = position.cells[static_cast<std::size_t>(next)];
      found.empty = found.empty || kind == kEmpty;
      for (int player = 0; player < 2; ++player) found.stone[player] = found.stone[player] || kind == kStones[player];
    }
  return found;
}

// What tells positions apart for repetition: the stones, the player to move and the passes.
inline std::string key(const Position& position) {
  return std::string(position.cells.begin(), position.cells.end()) + char('0' + position.to_move) +
         char('0' + position.passes);
}

// Stones plus the empty regions that touch one colour only; White's with the komi.
inline std::vector<int> scores(const Position& position) {
  std::vector<int> score = {0, position.komi};
  std::vector<bool> counted(position.cells.size());
  for (int cell = 0; cell < position.size * position.size; ++cell) {
    const char kind = position.cells[static_cast<std::size_t>(cell)];
    for (int player = 0; player < 2; ++player) score[static_cast<std::size_t>(player)] += kind == kStones[player];
    if (kind != kEmpty || counted[static_cast<std::size_t>(cell)]) continue;
    const std::vector<int> region = block(position, cell);
    for (const int point : region) counted[static_cast<std::size_t>(point)] = true;
    const Touches touched = touches(position, region);
    if (touched.stone[0] != touched.stone[1]) score[touched.stone[0] ? 0 : 1] += static_cast<int>(region.size());
  }
  return score;
}

// The end after a move: the count after two passes, else a loss for a mover who repeated.
inline int judge(const Position& position) {
  if (position.passes >= 2) {
    const std::vector<int> score = scores(position);
    return score[0] > score[1] ? 0 : score[1] > score[0] ? 1 : kDrawn;
  }
  if (std::find(position.earlier.begin(), position.earlier.end(), key(position)) != position.earlier.end())
    return position.to_move;  // the mover, who played into it, loses: the player to move wins
  return kOngoing;
}

inline Position next_turn(const Position& position) {
  Position next = position;
  if (position.followed) next.earlier.push_back(key(position));
  next.to_move = 1 - position.to_move;
  ++next.ply;
  return next;
}

// Every position the player to move can reach: a stone on each empty point where it keeps a
// liberty once the enemy groups without one are gone, then the pass.
inline std::vector<Position> successors(const Position& position) {
  std::vector<Position> found;
  if (position.winner != kOngoing) return found;
  const char own = kStones[position.to_move], enemy = kStones[1 - position.to_move];
  for (int cell = 0; cell < position.size * position.size; ++cell) {
    if (position.cells[static_cast<std::size_t>(cell)] != kEmpty) continue;
    Position next = next_turn(position);
    next.cells[static_cast<std::size_t>(cell)] = own;
    for (const int beside : neighbours(position.size, cell)) {
      if (next.cells[static_cast<std::size_t>(beside)] != enemy) continue;
      const std::vector<int> group = block(next, beside);
      if (touches(next, group).empty) continue;
      for (const int point : group) next.cells[static_cast<std::size_t>(point)] = kEmpty;
    }
    if (!touches(next, block(next, cell)).empty) continue;  // suicide
    next.passes = 0;
    next.winner = judge(next);
    found.push_back(next);
  }
  Position passed = next_turn(position);
  passed.passes = position.passes + 1;
  passed.winner = judge(passed);
  found.push_back(passed);
  return found;
}

inline std::uint64_t perft(const Position& position, int depth) {
  return reference_text::perft(position, depth, successors,
                               [](const Position& next) { return next.winner == kOngoing; });
}

// The position as troyka's text writes it: the rows from the top, the player to move, the ply, the
// shared counter of passes (written once per player).
inline std::string text(const Position& position) {
  const std::string board = reference_text::board_text(position.size, position.size, kEmpty, [&](int column, int row) {
    return position.cells[static_cast<std::size_t>(row * position.size + column)];
  });
  return board + (position.to_move == 0 ? " Black " : " White ") + std::to_string(position.ply) +
         " passes=" + std::to_string(position.passes) + "," + std::to_string(position.passes);
}

}  // namespace troyka::reference_go
