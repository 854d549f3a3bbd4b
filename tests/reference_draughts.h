// A plain, slow move generator for international draughts, written from the FMJD rules that
// games/international-draughts.game cites, not from the interpreter: a board of chars, a search
// per piece over the capture sequences. The tests compare troyka's moves with it, position by
// position, and its perft with troyka's and the published counts.
//
// 10x10, the dark cells (a1 is dark); White (upper case) moves first, northward. A man steps
// diagonally forward; a king slides any distance along a diagonal of empty cells. A man captures
// an adjacent enemy diagonally in any direction, landing just beyond; a king captures an enemy at
// any distance along a diagonal of empty cells and lands on any empty cell beyond it. Sequences
// go on while a capture is possible; captured pieces stay on the board until the move ends (they
// block, and none is jumped twice); the moving piece's own cell counts as empty. Only the
// sequences that capture the most pieces are legal, and when one captures no other move is.
// Sequences from one cell to another over the same pieces are one move. A man ending on the far
// row becomes a king. A player who cannot move loses; 50 plies without a capture or a man's move
// draw, and so do 1000 plies.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <tuple>
#include <vector>

#include "tests/reference_text.h"

namespace troyka::reference_draughts {

inline constexpr int kSize = 10;
inline constexpr int kQuietDraw = 50;
inline constexpr int kPlyLimit = 1000;
inline constexpr char kEmpty = '.';
inline constexpr int kDiagonals[4][2] = {{1, 1}, {-1, 1}, {1, -1}, {-1, -1}};

struct Position {
  std::array<char, kSize * kSize> cells{};  // row 1 first, a to j
  int to_move = 0;                          // 0 White, 1 Black
  int ply = 0;
  int quiet = 0;  // plies in a row without a capture or a man's move

  char at(int column, int row) const { return cells[static_cast<std::size_t>(row * kSize + column)]; }
  char& at(int column, int row) { return cells[static_cast<std::size_t>(row * kSize + column)]; }
};

inline bool on_board(int column, int row) { return column >= 0 && column < kSize && row >= 0 && row < kSize; }
inline int owner(char piece) { return piece == 'M' || piece == 'K' ? 0 : piece == 'm' || piece == 'k' ? 1 : -1; }
inline bool is_king(char piece) { return piece == 'K' || piece == 'k'; }

inline Position start() {
  Position position;
  position.cells.fill(kEmpty);
  for (int row = 0; row < kSize; ++row)
    for (int column = 0; column < kSize; ++column)
      if ((row + column) % 2 == 0 && (row < 4 || row >= kSize - 4)) position.at(column, row) = row < 4 ? 'M' : 'm';
  return position;
}

// One move: where the piece starts and ends, and the cells it captures (sorted).
struct Move {
  int from = 0, to = 0;
  std::vector<int> captured;
  bool operator<(const Move& other) const {
    return std::tie(from, to, captured) < std::tie(other.from, other.to, other.captured);
  }
  bool operator==(const Move& other) const = default;
};

// Adds every capture sequence that goes on from (column, row), having captured `captured` so far,
// for the piece that started at `from` (off the board meanwhile); a sequence that cannot go on is
// a move, once it has captured anything.
inline void add_captures(const Position& position, int from, bool king, int column, int row, std::vector<int>& captured,
                         std::vector<Move>& moves) {
  const auto empty = [&](int c, int r) { return r * kSize + c == from || position.at(c, r) == kEmpty; };
  bool went_on = false;
  for (const auto& d : kDiagonals) {
    int c = column + d[0], r = row + d[1];
    while (king && on_board(c, r) && empty(c, r)) c += d[0], r += d[1];
    if (!on_board(c, r) || owner(position.at(c, r)) != 1 - position.to_move) continue;
    const int victim = r * kSize + c;
    if (std::find(captured.begin(), captured.end(), victim) != captured.end()) continue;
    captured.push_back(victim);
    for (int lc = c + d[0], lr = r + d[1]; on_board(lc, lr) && empty(lc, lr); lc += d[0], lr += d[1]) {
      went_on = true;
      add_captures(position, from, king, lc, lr, captured, moves);
      if (!king) break;
    }
    captured.pop_back();
  }
  if (went_on || captured.empty()) return;
  Move move{from, row * kSize + column, captured};
  std::sort(move.captured.begin(), move.captured.end());
  moves.push_back(move);
}

// The legal moves of the player to move: the captures of the most pieces, else the quiet moves.
inline std::vector<Move> moves(const Position& position) {
  std::vector<Move> found;
  std::vector<int> captured;
  for (int cell = 0; cell < kSize * kSize; ++cell)
    if (owner(position.cells[static_cast<std::size_t>(cell)]) == position.to_move)
      add_captures(position, cell, is_king(position.cells[static_cast<std::size_t>(cell)]), cell % kSize, cell / kSize,
                   captured, found);
  if (!found.empty()) {
    std::size_t most = 0;
    for (const Move& move : found) most = std::max(most, move.captured.size());
    std::erase_if(found, [&](const Move& move) { return move.captured.size() < most; });
    std::sort(found.begin(), found.end());
    found.erase(std::unique(found.begin(), found.end()), found.end());
    return found;
  }
  const int forward = position.to_move == 0 ? 1 : -1;
  for (int cell = 0; cell < kSize * kSize; ++cell) {
    const char piece = position.cells[static_cast<std::size_t>(cell)];
    if (owner(piece) != position.to_move) continue;
    for (const auto& d : kDiagonals) {
      if (!is_king(piece) && d[1] != forward) continue;
      for (int c = cell % kSize + d[0], r = cell / kSize + d[1]; on_board(c, r) && position.at(c, r) == kEmpty;
           c += d[0], r += d[1]) {
        found.push_back(Move{cell, r * kSize + c, {}});
        if (!is_king(piece)) break;
      }
    }
  }
  return found;
}

inline Position play(const Position& position, const Move& move) {
  Position next = position;
  char piece = next.cells[static_cast<std::size_t>(move.from)];
  for (const int cell : move.captured) next.cells[static_cast<std::size_t>(cell)] = kEmpty;
  next.cells[static_cast<std::size_t>(move.from)] = kEmpty;
  const int far_row = position.to_move == 0 ? kSize - 1 : 0;
  if (!is_king(piece) && move.to / kSize == far_row) piece = position.to_move == 0 ? 'K' : 'k';
  next.cells[static_cast<std::size_t>(move.to)] = piece;
  const bool man_moved = !is_king(position.cells[static_cast<std::size_t>(move.from)]);
  next.quiet = move.captured.empty() && !man_moved ? position.quiet + 1 : 0;
  next.to_move = 1 - position.to_move;
  ++next.ply;
  return next;
}

inline std::vector<Position> successors(const Position& position) {
  std::vector<Position> found;
  for (const Move& move : moves(position)) found.push_back(play(position, move));
  return found;
}

inline constexpr int kOngoing = -1;
inline constexpr int kDrawn = 8;  // as troyka::kDraw: past every player of a game of up to eight

// Who has won a position reached by a move (0 White, 1 Black), kDrawn, or kOngoing.
inline int winner(const Position& position) {
  if (moves(position).empty()) return 1 - position.to_move;
  if (position.quiet >= kQuietDraw || position.ply >= kPlyLimit) return kDrawn;
  return kOngoing;
}

inline std::uint64_t perft(const Position& position, int depth) {
  return reference_text::perft(position, depth, successors,
                               [](const Position& next) { return winner(next) == kOngoing; });
}

// The position as troyka's position text writes it: rows from the top, the player to move, the
// ply and the quiet plies.
inline std::string text(const Position& position) {
  return reference_text::board_text(kSize, kSize, kEmpty,
                                    [&](int column, int row) { return position.at(column, row); }) +
         (position.to_move == 0 ? " White " : " Black ") + std::to_string(position.ply) + " " +
         std::to_string(position.quiet);
}

}  // namespace troyka::reference_draughts
