// A plain, slow Pentago move generator, written from the rules as Wikipedia states them
// (https://en.wikipedia.org/wiki/Pentago, as games/pentago.game cites them), not from the
// interpreter: 36 cells in a char array, a turn as two decisions (a marble on an empty cell, then a
// quarter turn of one of the four 3x3 quadrants, either way), and a scan of every line of five
// after each decision. The tests compare troyka's positions after each decision with it.
//
// White moves first. Five of one colour in a line across, up or diagonally wins, whether the
// marble made it or the turn of a quadrant did; a turn that makes five for both players draws;
// a full board without five draws.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "tests/reference_text.h"

namespace troyka::reference_pentago {

inline constexpr int kSize = 6;
inline constexpr char kEmpty = '.';
inline constexpr std::array<char, 2> kMarble = {'M', 'm'};  // White's, Black's
inline constexpr int kOngoing = -1;
inline constexpr int kDraw = 8;  // troyka's kDraw

struct Position {
  std::array<char, kSize * kSize> at{};  // a1 b1 ... f1, a2 ... f6
  int to_move = 0;                       // 0 White, 1 Black
  bool rotating = false;                 // the player to move has placed its marble and turns a quadrant next
  int ply = 0;
};

inline int index(int column, int row) { return row * kSize + column; }

inline Position start() {
  Position position;
  position.at.fill(kEmpty);
  return position;
}

// A position from the cells of White's and Black's marbles, the player to move about to place.
inline Position with_marbles(const std::vector<std::string>& white, const std::vector<std::string>& black, int to_move,
                             int ply) {
  Position position = start();
  for (const std::string& cell : white)
    position.at[static_cast<std::size_t>(index(cell[0] - 'a', cell[1] - '1'))] = 'M';
  for (const std::string& cell : black)
    position.at[static_cast<std::size_t>(index(cell[0] - 'a', cell[1] - '1'))] = 'm';
  position.to_move = to_move;
  position.ply = ply;
  return position;
}

// Whether `player` has five marbles in a row somewhere: from every cell, along east, north,
// north-east and north-west.
inline bool has_five(const Position& position, int player) {
  const char marble = kMarble[static_cast<std::size_t>(player)];
  constexpr std::array<std::array<int, 2>, 4> kLines = {{{1, 0}, {0, 1}, {1, 1}, {-1, 1}}};
  for (int row = 0; row < kSize; ++row)
    for (int column = 0; column < kSize; ++column)
      for (const auto& [dc, dr] : kLines) {
        int length = 0;
        for (int c = column, r = row; c >= 0 && c < kSize && r < kSize && length < 5; c += dc, r += dr) {
          if (position.at[static_cast<std::size_t>(index(c, r))] != marble) break;
          ++length;
        }
        if (length == 5) return true;
      }
  return false;
}

// The quadrant whose lower left cell is (left, bottom), turned a quarter: clockwise, the cell at
// (x, y) of the quadrant (0 to 2 from its lower left) takes the marble of (2 - y, x), so the upper
// left corner's marble goes to the upper right corner; anticlockwise the other way.
inline Position turned(const Position& position, int left, int bottom, bool clockwise) {
  Position next = position;
  for (int y = 0; y < 3; ++y)
    for (int x = 0; x < 3; ++x) {
      const int from_x = clockwise ? 2 - y : y, from_y = clockwise ? x : 2 - x;
      next.at[static_cast<std::size_t>(index(left + x, bottom + y))] =
          position.at[static_cast<std::size_t>(index(left + from_x, bottom + from_y))];
    }
  return next;
}

// Who has won a position reached by a decision: both five, a draw; else the one with five; a full
// board (nothing left to place) a draw; else kOngoing.
inline int winner(const Position& position) {
  const bool white = has_five(position, 0), black = has_five(position, 1);
  if (white && black) return kDraw;
  if (white || black) return white ? 0 : 1;
  if (!position.rotating && position.ply >= kSize * kSize * 2) return kDraw;
  return kOngoing;
}

inline std::vector<Position> successors(const Position& position) {
  std::vector<Position> next;
  if (!position.rotating) {
    for (std::size_t cell = 0; cell < position.at.size(); ++cell) {
      if (position.at[cell] != kEmpty) continue;
      Position placed = position;
      placed.at[cell] = kMarble[static_cast<std::size_t>(position.to_move)];
      placed.rotating = true;
      ++placed.ply;
      next.push_back(placed);
    }
    return next;
  }
  for (const int left : {0, 3})
    for (const int bottom : {0, 3})
      for (const bool clockwise : {true, false}) {
        Position after = turned(position, left, bottom, clockwise);
        after.rotating = false;
        after.to_move = 1 - position.to_move;
        ++after.ply;
        next.push_back(after);
      }
  return next;
}

// As troyka writes it: the board, the player to move with its decisions left, the ply.
inline std::string text(const Position& position) {
  const std::string board = reference_text::board_text(kSize, kSize, kEmpty, [&](int column, int row) {
    return position.at[static_cast<std::size_t>(index(column, row))];
  });
  return board + (position.to_move == 0 ? " White:" : " Black:") + (position.rotating ? "1 " : "2 ") +
         std::to_string(position.ply);
}

inline bool goes_on(const Position& position) { return winner(position) == kOngoing; }

inline std::uint64_t perft(const Position& position, int depth) {
  return reference_text::perft(position, depth, successors, goes_on);
}

}  // namespace troyka::reference_pentago
