// A plain, slow Lines of Action move generator and judge, written from the rules (Sackson's "A Gamut
// of Games", second edition, as games/lines-of-action.game cites it), not from the interpreter: a
// board of chars, a loop per piece and direction, a flood fill for the groups. The tests compare
// troyka's moves and ends with it, position by position.
//
// A piece moves along a row, a column or a diagonal exactly as many cells as there are pieces on
// that whole line, both ways from it and itself included; it may pass over its own pieces but not
// over the enemy's, and lands on an empty cell or on an enemy piece, which it captures. A player
// without a move passes when the other has one. A player whose pieces form one group (cells
// touching along a side or a corner) wins; when a move leaves both so, the mover does. 300 plies
// without a winner draw, as does a position where neither player can move.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "tests/reference_text.h"

namespace troyka::reference_loa {

inline constexpr int kSide = 8;
inline constexpr int kPlyLimit = 300;
inline constexpr char kEmpty = '.';
inline constexpr char kPieces[2] = {'C', 'c'};  // Black's, the first player's in upper case; White's

struct Position {
  std::vector<char> cells = std::vector<char>(kSide * kSide, kEmpty);  // row 1 first, a to h
  int to_move = 0;                                                     // 0 Black, 1 White
  int ply = 0;

  char at(int column, int row) const { return cells[static_cast<std::size_t>(row * kSide + column)]; }
  char& at(int column, int row) { return cells[static_cast<std::size_t>(row * kSide + column)]; }
};

inline bool on_board(int column, int row) { return column >= 0 && column < kSide && row >= 0 && row < kSide; }

// Black on the first and last rows, White on the first and last columns, the corners empty.
inline Position start() {
  Position position;
  for (int i = 1; i < kSide - 1; ++i) {
    position.at(i, 0) = position.at(i, kSide - 1) = kPieces[0];
    position.at(0, i) = position.at(kSide - 1, i) = kPieces[1];
  }
  return position;
}

constexpr int kDirections[8][2] = {{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}};

// The pieces of both players on the line through (column, row) along (dx, dy), both ways.
inline int line_pieces(const Position& position, int column, int row, int dx, int dy) {
  int pieces = 0;
  for (int sign : {1, -1})
    for (int c = column + sign * dx, r = row + sign * dy; on_board(c, r); c += sign * dx, r += sign * dy)
      pieces += position.at(c, r) != kEmpty;
  return pieces + (position.at(column, row) != kEmpty);
}

// The positions the moves of the player to move lead to, passes left out.
inline std::vector<Position> moves(const Position& position) {
  const char own = kPieces[position.to_move];
  const char enemy = kPieces[1 - position.to_move];
  std::vector<Position> found;
  for (int row = 0; row < kSide; ++row) {
    for (int column = 0; column < kSide; ++column) {
      if (position.at(column, row) != own) continue;
      for (const auto& direction : kDirections) {
        const int distance = line_pieces(position, column, row, direction[0], direction[1]);
        const int c = column + distance * direction[0], r = row + distance * direction[1];
        if (!on_board(c, r) || position.at(c, r) == own) continue;
        bool over_enemy = false;
        for (int step = 1; step < distance; ++step)
          over_enemy = over_enemy || position.at(column + step * direction[0], row + step * direction[1]) == enemy;
        if (over_enemy) continue;
        Position next = position;
        next.at(column, row) = kEmpty;
        next.at(c, r) = own;  // an enemy piece there is captured
        next.to_move = 1 - position.to_move;
        ++next.ply;
        found.push_back(next);
      }
    }
  }
  return found;
}

// Every position the player to move can reach in one move: its moves, or a pass when it has none
// and the other player has some. None: neither can move.
inline std::vector<Position> successors(const Position& position) {
  std::vector<Position> found = moves(position);
  if (!found.empty()) return found;
  Position passed = position;
  passed.to_move = 1 - position.to_move;
  ++passed.ply;
  if (!moves(passed).empty()) found.push_back(passed);
  return found;
}

// Whether the player's pieces form one group: a flood fill from one of them reaches them all.
inline bool one_group(const Position& position, int player) {
  const char own = kPieces[player];
  std::vector<int> pieces;
  for (int cell = 0; cell < kSide * kSide; ++cell)
    if (position.cells[static_cast<std::size_t>(cell)] == own) pieces.push_back(cell);
  if (pieces.empty()) return false;
  std::vector<bool> seen(kSide * kSide);
  std::vector<int> stack{pieces.front()};
  std::size_t reached = 0;
  while (!stack.empty()) {
    const int cell = stack.back();
    stack.pop_back();
    if (seen[static_cast<std::size_t>(cell)]) continue;
    seen[static_cast<std::size_t>(cell)] = true;
    ++reached;
    for (const auto& direction : kDirections) {
      const int c = cell % kSide + direction[0], r = cell / kSide + direction[1];
      if (on_board(c, r) && position.at(c, r) == own) stack.push_back(r * kSide + c);
    }
  }
  return reached == pieces.size();
}

inline constexpr int kOngoing = -1;
inline constexpr int kDrawn = 2;

// Who has won a position reached by a move: the mover when its pieces are one group, else the other
// player when its are; kDrawn at the ply limit or when neither can move; else kOngoing.
inline int winner(const Position& position) {
  const int mover = 1 - position.to_move;
  if (one_group(position, mover)) return mover;
  if (one_group(position, position.to_move)) return position.to_move;
  if (position.ply >= kPlyLimit || successors(position).empty()) return kDrawn;
  return kOngoing;
}

inline std::uint64_t perft(const Position& position, int depth) {
  return reference_text::perft(position, depth, successors,
                               [](const Position& next) { return winner(next) == kOngoing; });
}

// The position as troyka's text writes it: the rows from the top, the player to move, the ply.
inline std::string text(const Position& position) {
  return reference_text::board_text(kSide, kSide, kEmpty,
                                    [&](int column, int row) { return position.at(column, row); }) +
         (position.to_move == 0 ? " Black " : " White ") + std::to_string(position.ply);
}

}  // namespace troyka::reference_loa
