// A plain, slow Hasami Shogi move generator, written from the rules (Wikipedia's "Variant 1", as
// games/hasami-shogi.game cites them), not from the interpreter: a board of chars, a loop per man
// and direction. The tests compare troyka's moves with it, position by position.
//
// Each player's men fill its home row; Black moves first. A man moves like a rook: any number of
// empty cells along a row or a column. After it lands, every unbroken line of enemy men between it
// and another man of its own, along a row or a column, is captured; so is an enemy man in a corner
// whose two neighbours the mover and another of its men now hold. A man may move between two enemy
// men safely. The player who has captured all but one of the other's men (size - 1 of them) wins;
// a player without a move loses; 300 plies without either draw (the last two are troyka's rules).
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "tests/reference_text.h"

namespace troyka::reference_hasami {

inline constexpr char kEmpty = '.';
inline constexpr char kBlack = 'M';  // the first player's man, upper case in position text
inline constexpr char kWhite = 'm';
inline constexpr int kPlyLimit = 300;

struct Position {
  int size = 0;
  std::vector<char> cells;  // row 1 first, a to the last column
  int to_move = 0;          // 0 Black, 1 White
  int ply = 0;
  std::array<int, 2> taken{};  // the enemy men each player has captured

  char at(int column, int row) const { return cells[static_cast<std::size_t>(row * size + column)]; }
  char& at(int column, int row) { return cells[static_cast<std::size_t>(row * size + column)]; }
  bool on_board(int column, int row) const { return column >= 0 && column < size && row >= 0 && row < size; }
  bool is_corner(int column, int row) const {
    return (column == 0 || column == size - 1) && (row == 0 || row == size - 1);
  }
};

inline constexpr int kSteps[4][2] = {{0, 1}, {1, 0}, {0, -1}, {-1, 0}};

inline Position start(int size) {
  Position position{size, std::vector<char>(static_cast<std::size_t>(size * size), kEmpty), 0, 0, {}};
  for (int column = 0; column < size; ++column) {
    position.at(column, 0) = kBlack;
    position.at(column, size - 1) = kWhite;
  }
  return position;
}

// The captures of a man of `own` that has just landed on (column, row) of `board`, applied to it;
// returns how many men they took.
inline int capture_around(Position& board, int column, int row, char own, char enemy) {
  const Position before = board;
  int taken = 0;
  for (const auto& step : kSteps) {
    // A line: one or more enemy men, then a man of the mover's.
    int c = column + step[0], r = row + step[1], length = 0;
    while (before.on_board(c, r) && before.at(c, r) == enemy) {
      c += step[0];
      r += step[1];
      ++length;
    }
    if (length > 0 && before.on_board(c, r) && before.at(c, r) == own) {
      for (int k = 1; k <= length; ++k) board.at(column + k * step[0], row + k * step[1]) = kEmpty;
      taken += length;
    }
    // A corner: the enemy man next to the mover stands in one, and each of its neighbours holds a
    // man of the mover's.
    const int cc = column + step[0], cr = row + step[1];
    if (!before.on_board(cc, cr) || before.at(cc, cr) != enemy || !before.is_corner(cc, cr)) continue;
    bool held = true;
    for (const auto& side : kSteps)
      if (before.on_board(cc + side[0], cr + side[1])) held = held && before.at(cc + side[0], cr + side[1]) == own;
    if (held) {
      board.at(cc, cr) = kEmpty;
      ++taken;
    }
  }
  return taken;
}

// Every position the player to move can reach in one move (the game may be over already: see
// winner()).
inline std::vector<Position> successors(const Position& position) {
  const char own = position.to_move == 0 ? kBlack : kWhite;
  const char enemy = position.to_move == 0 ? kWhite : kBlack;
  std::vector<Position> found;
  for (int row = 0; row < position.size; ++row) {
    for (int column = 0; column < position.size; ++column) {
      if (position.at(column, row) != own) continue;
      for (const auto& step : kSteps) {
        for (int c = column + step[0], r = row + step[1]; position.on_board(c, r) && position.at(c, r) == kEmpty;
             c += step[0], r += step[1]) {
          Position next = position;
          next.at(column, row) = kEmpty;
          next.at(c, r) = own;
          const int taken = capture_around(next, c, r, own, enemy);
          next.taken[static_cast<std::size_t>(position.to_move)] =
              std::min(position.size - 1, position.taken[static_cast<std::size_t>(position.to_move)] + taken);
          next.to_move = 1 - position.to_move;
          ++next.ply;
          found.push_back(next);
        }
      }
    }
  }
  return found;
}

inline constexpr int kOngoing = -1;
inline constexpr int kDrawn = 8;  // as troyka::kDraw: past every player of a game of up to eight

// Who has won a position reached by a move (0 Black, 1 White), kDrawn, or kOngoing.
inline int winner(const Position& position) {
  const int mover = 1 - position.to_move;
  if (position.taken[static_cast<std::size_t>(mover)] >= position.size - 1) return mover;
  if (successors(position).empty()) return mover;
  if (position.ply >= kPlyLimit) return kDrawn;
  return kOngoing;
}

inline std::uint64_t perft(const Position& position, int depth) {
  return reference_text::perft(position, depth, successors,
                               [](const Position& next) { return winner(next) == kOngoing; });
}

// The position as troyka's position text writes it: rows from the top, '/'-separated, digits for
// runs of empty cells, the player to move, the ply and the counter.
inline std::string text(const Position& position) {
  std::string text = reference_text::board_text(position.size, position.size, kEmpty,
                                                [&](int column, int row) { return position.at(column, row); });
  return text + (position.to_move == 0 ? " Black " : " White ") + std::to_string(position.ply) +
         " taken=" + std::to_string(position.taken[0]) + "," + std::to_string(position.taken[1]);
}

}  // namespace troyka::reference_hasami
