// A plain, slow move generator for the two tafl games, written from their rule books (the sources
// games/tablut.game and games/brandubh.game cite), not from the interpreter: a board of chars, a
// loop per piece, direction and square. The tests compare troyka's moves with it, position by
// position, and its perft with troyka's.
//
// The attackers (Black) move first. Every piece moves like a rook through empty squares (the empty
// throne included). No piece but the king stops on the throne (in Brandubh not even he, once he
// has left it), nor, in Brandubh, on a corner. After a move, each enemy soldier next to the piece
// that moved is captured when the square beyond it holds a piece of the mover's (in Tablut a
// soldier: the king is unarmed) or is an empty hostile square (the throne; in Brandubh the corners
// too). The king is taken by Black's move: on the throne or beside it when each of his four
// neighbours is an attacker or the throne, elsewhere as a soldier. White wins when the king stands
// on an edge square (Tablut) or a corner (Brandubh), Black when the king is gone; a player without
// a move loses; the ply limit draws.
#pragma once

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "tests/reference_text.h"

namespace troyka::reference_tafl {

inline constexpr char kEmpty = '.';
inline constexpr char kAttacker = 'S';  // Black's soldier, upper case in position text
inline constexpr char kDefender = 's';  // White's soldier
inline constexpr char kKing = 'k';      // White's king

// What differs between the games.
struct Rules {
  int size;
  bool corners_special;   // only the king stops on a corner, and an empty corner is hostile
  bool king_armed;        // the king captures as a soldier does
  bool king_returns;      // the king may stop on the throne again
  bool escape_to_corner;  // the king escapes to a corner, else to any edge square
  int ply_limit;
  std::vector<std::pair<int, int>> attackers;  // on the south side, (column, row) from a1; turned to each side
  std::vector<std::pair<int, int>> defenders;  // south of the throne, likewise
};

inline const Rules kTablut{9, false, false, true, false, 200, {{3, 0}, {4, 0}, {5, 0}, {4, 1}}, {{4, 2}, {4, 3}}};
inline const Rules kBrandubh{7, true, true, false, true, 150, {{3, 0}, {3, 1}}, {{3, 2}}};

struct Position {
  const Rules* rules = nullptr;
  std::vector<char> cells;  // row 1 first, a to the last column
  int to_move = 0;          // 0 Black (the attackers), 1 White
  int ply = 0;

  int size() const { return rules->size; }
  char at(int column, int row) const { return cells[static_cast<std::size_t>(row * size() + column)]; }
  char& at(int column, int row) { return cells[static_cast<std::size_t>(row * size() + column)]; }
  bool on_board(int column, int row) const { return column >= 0 && column < size() && row >= 0 && row < size(); }
  bool is_throne(int column, int row) const { return column == size() / 2 && row == size() / 2; }
  bool is_corner(int column, int row) const {
    return (column == 0 || column == size() - 1) && (row == 0 || row == size() - 1);
  }
  bool is_edge(int column, int row) const {
    return column == 0 || column == size() - 1 || row == 0 || row == size() - 1;
  }
  // An empty square that captures with either side.
  bool hostile(int column, int row) const {
    return at(column, row) == kEmpty && (is_throne(column, row) || (rules->corners_special && is_corner(column, row)));
  }
};

inline constexpr int kSteps[4][2] = {{0, 1}, {1, 0}, {0, -1}, {-1, 0}};

inline Position start(const Rules& rules) {
  Position position{&rules, std::vector<char>(static_cast<std::size_t>(rules.size * rules.size), kEmpty), 0, 0};
  const int last = rules.size - 1;
  for (int turn = 0; turn < 4; ++turn) {
    // A quarter turn about the centre takes (column, row) to (last - row, column).
    const auto turned = [&](std::pair<int, int> cell) {
      for (int k = 0; k < turn; ++k) cell = {last - cell.second, cell.first};
      return cell;
    };
    for (const auto& cell : rules.attackers) position.at(turned(cell).first, turned(cell).second) = kAttacker;
    for (const auto& cell : rules.defenders) position.at(turned(cell).first, turned(cell).second) = kDefender;
  }
  position.at(rules.size / 2, rules.size / 2) = kKing;
  return position;
}

inline bool is_white(char piece) { return piece == kDefender || piece == kKing; }

// Whether `piece` may stop on (column, row).
inline bool may_stop(const Position& position, char piece, int column, int row) {
  if (position.is_throne(column, row)) return piece == kKing && position.rules->king_returns;
  if (position.rules->corners_special && position.is_corner(column, row)) return piece == kKing;
  return true;
}

// Whether (column, row), beyond an enemy soldier, closes a capture for the piece `mover` just moved.
inline bool closes_capture(const Position& before, char mover, int column, int row) {
  if (!before.on_board(column, row)) return false;
  const char piece = before.at(column, row);
  if (before.hostile(column, row)) return true;
  if (mover == kAttacker) return piece == kAttacker;
  return piece == kDefender || (piece == kKing && before.rules->king_armed);
}

// The captures of the piece `mover` that has just landed on (column, row), applied to `board`.
inline void capture_around(Position& board, int column, int row, char mover) {
  if (mover == kKing && !board.rules->king_armed) return;
  const Position before = board;
  for (const auto& step : kSteps) {
    const int c = column + step[0], r = row + step[1];
    if (!before.on_board(c, r)) continue;
    const char victim = before.at(c, r);
    if (victim == kKing && mover == kAttacker) {
      const bool at_throne = before.is_throne(c, r) || before.is_throne(c + 1, r) || before.is_throne(c - 1, r) ||
                             before.is_throne(c, r + 1) || before.is_throne(c, r - 1);
      bool surrounded = true;
      for (const auto& side : kSteps) {
        const int sc = c + side[0], sr = r + side[1];
        surrounded =
            surrounded && before.on_board(sc, sr) && (before.is_throne(sc, sr) || before.at(sc, sr) == kAttacker);
      }
      if (at_throne ? surrounded : closes_capture(before, mover, c + step[0], r + step[1])) board.at(c, r) = kEmpty;
    }
    const bool enemy_soldier = mover == kAttacker ? victim == kDefender : victim == kAttacker;
    if (enemy_soldier && closes_capture(before, mover, c + step[0], r + step[1])) board.at(c, r) = kEmpty;
  }
}

// Every position the player to move can reach in one move (the game may be over already: see
// winner()).
inline std::vector<Position> successors(const Position& position) {
  std::vector<Position> found;
  for (int row = 0; row < position.size(); ++row) {
    for (int column = 0; column < position.size(); ++column) {
      const char piece = position.at(column, row);
      if (piece == kEmpty || is_white(piece) != (position.to_move == 1)) continue;
      for (const auto& step : kSteps) {
        for (int c = column + step[0], r = row + step[1]; position.on_board(c, r) && position.at(c, r) == kEmpty;
             c += step[0], r += step[1]) {
          if (!may_stop(position, piece, c, r)) continue;
          Position next = position;
          next.at(column, row) = kEmpty;
          next.at(c, r) = piece;
          capture_around(next, c, r, piece);
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
  bool king = false;
  for (int row = 0; row < position.size(); ++row) {
    for (int column = 0; column < position.size(); ++column) {
      if (position.at(column, row) != kKing) continue;
      king = true;
      if (position.rules->escape_to_corner ? position.is_corner(column, row) : position.is_edge(column, row)) return 1;
    }
  }
  if (!king) return 0;
  if (successors(position).empty()) return 1 - position.to_move;
  if (position.ply >= position.rules->ply_limit) return kDrawn;
  return kOngoing;
}

inline std::uint64_t perft(const Position& position, int depth) {
  return reference_text::perft(position, depth, successors,
                               [](const Position& next) { return winner(next) == kOngoing; });
}

// The position as troyka's position text writes it: rows from the top, '/'-separated, digits for
// runs of empty squares, the player to move and the ply.
inline std::string text(const Position& position) {
  return reference_text::board_text(position.size(), position.size(), kEmpty,
                                    [&](int column, int row) { return position.at(column, row); }) +
         (position.to_move == 0 ? " Black " : " White ") + std::to_string(position.ply);
}

}  // namespace troyka::reference_tafl
