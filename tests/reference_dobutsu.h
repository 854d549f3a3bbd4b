// A plain, slow move generator for Dobutsu shogi, written from its rule book (the sources
// games/dobutsu-shogi.game cites), not from the interpreter: a board of chars, two hands of counts,
// a loop per piece, step and cell. The tests compare troyka's positions with it move by move, and
// its perft with troyka's.
//
// Black (upper case, moving up the board) starts. Each piece steps one cell: the Lion any way, the
// Giraffe orthogonally, the Elephant diagonally, the Chick forward, the Hen orthogonally or
// diagonally forward; onto an empty cell or an enemy piece, which goes to the mover's hand (a Hen
// as a Chick; a Lion ends the game). A Chick that steps onto the far row becomes a Hen. A piece in
// hand may be dropped onto any empty cell instead. After a move, for the mover and then the other
// player: a player without a Lion loses; a player whose Lion stands on its far row where the other
// cannot capture it at once wins; at 200 plies the game is drawn. Repetitions are not counted: a
// position alone does not know its history, as troyka's perft and random-game checks play it.
#pragma once

#include <array>
#include <cctype>
#include <string>
#include <vector>

#include "tests/reference_text.h"

namespace troyka::reference_dobutsu {

inline constexpr int kWidth = 3, kHeight = 4, kPlyLimit = 200;
inline constexpr char kEmpty = '.';
inline constexpr int kOngoing = -1, kDraw = 8;  // winners besides the players 0 (Black) and 1 (White), as troyka's
// The types a hand holds, in the order position text writes them.
inline constexpr std::array<char, 3> kHandTypes = {'C', 'G', 'E'};

struct Position {
  std::array<char, kWidth * kHeight> cells{};  // row 1 first; Black's upper case, White's lower case
  std::array<std::array<int, kHandTypes.size()>, 2> hands{};
  int to_move = 0;
  int ply = 0;

  char at(int column, int row) const { return cells[static_cast<std::size_t>(row * kWidth + column)]; }
  char& at(int column, int row) { return cells[static_cast<std::size_t>(row * kWidth + column)]; }
};

inline int owner(char piece) { return std::isupper(static_cast<unsigned char>(piece)) ? 0 : 1; }
inline char upper(char piece) { return static_cast<char>(std::toupper(static_cast<unsigned char>(piece))); }
inline char as_player(char piece, int player) {
  return player == 0 ? upper(piece) : static_cast<char>(std::tolower(static_cast<unsigned char>(piece)));
}

inline Position start() {
  Position position;
  position.cells.fill(kEmpty);
  const std::string black_row = "ELG", white_row = "gle";
  for (int column = 0; column < kWidth; ++column) {
    position.at(column, 0) = black_row[static_cast<std::size_t>(column)];
    position.at(column, kHeight - 1) = white_row[static_cast<std::size_t>(column)];
  }
  position.at(1, 1) = 'C';
  position.at(1, 2) = 'c';
  return position;
}

// The steps of a piece (upper case) for Black, (column, row) with row upwards; White's are mirrored.
inline std::vector<std::array<int, 2>> steps(char type) {
  switch (type) {
    case 'L': return {{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}};
    case 'G': return {{0, -1}, {-1, 0}, {1, 0}, {0, 1}};
    case 'E': return {{-1, -1}, {1, -1}, {-1, 1}, {1, 1}};
    case 'C': return {{0, 1}};
    default: return {{0, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}};  // 'H'
  }
}

inline bool on_board(int column, int row) { return column >= 0 && column < kWidth && row >= 0 && row < kHeight; }
inline int far_row(int player) { return player == 0 ? kHeight - 1 : 0; }

// Calls on_step(from_column, from_row, to_column, to_row) for every step of `player`'s pieces onto
// a cell that holds none of its own.
template <typename OnStep>
void for_each_step(const Position& position, int player, OnStep&& on_step) {
  for (int row = 0; row < kHeight; ++row)
    for (int column = 0; column < kWidth; ++column) {
      const char piece = position.at(column, row);
      if (piece == kEmpty || owner(piece) != player) continue;
      for (const auto& [dx, dy] : steps(upper(piece))) {
        const int to_column = column + dx, to_row = row + (player == 0 ? dy : -dy);
        if (!on_board(to_column, to_row)) continue;
        const char target = position.at(to_column, to_row);
        if (target == kEmpty || owner(target) != player) on_step(column, row, to_column, to_row);
      }
    }
}

inline std::vector<Position> successors(const Position& position) {
  std::vector<Position> result;
  const int player = position.to_move;
  const auto next = [&] {
    Position after = position;
    after.to_move = 1 - player;
    ++after.ply;
    return after;
  };
  for_each_step(position, player, [&](int column, int row, int to_column, int to_row) {
    Position after = next();
    char piece = after.at(column, row);
    const char taken = after.at(to_column, to_row);
    if (taken != kEmpty && upper(taken) != 'L') {
      const char base = upper(taken) == 'H' ? 'C' : upper(taken);
      for (std::size_t type = 0; type < kHandTypes.size(); ++type)
        if (kHandTypes[type] == base) ++after.hands[static_cast<std::size_t>(player)][type];
    }
    if (upper(piece) == 'C' && to_row == far_row(player)) piece = as_player('H', player);
    after.at(column, row) = kEmpty;
    after.at(to_column, to_row) = piece;
    result.push_back(after);
  });
  for (std::size_t type = 0; type < kHandTypes.size(); ++type) {
    if (position.hands[static_cast<std::size_t>(player)][type] == 0) continue;
    for (int row = 0; row < kHeight; ++row)
      for (int column = 0; column < kWidth; ++column) {
        if (position.at(column, row) != kEmpty) continue;
        Position after = next();
        after.at(column, row) = as_player(kHandTypes[type], player);
        --after.hands[static_cast<std::size_t>(player)][type];
        result.push_back(after);
      }
  }
  return result;
}

inline bool has_lion(const Position& position, int player) {
  for (const char piece : position.cells)
    if (piece == as_player('L', player)) return true;
  return false;
}

// The Try: the player's Lion stands on its far row and no step of the other player lands on it.
inline bool tried(const Position& position, int player) {
  int lion = -1;
  for (int column = 0; column < kWidth; ++column)
    if (position.at(column, far_row(player)) == as_player('L', player)) lion = column;
  if (lion < 0) return false;
  bool attacked = false;
  for_each_step(position, 1 - player, [&](int, int, int to_column, int to_row) {
    attacked = attacked || (to_column == lion && to_row == far_row(player));
  });
  return !attacked;
}

// The end of a position reached by a move: the rules in order, each for the mover, then the other.
inline int winner(const Position& position) {
  const int mover = 1 - position.to_move;
  for (const int player : {mover, 1 - mover})
    if (!has_lion(position, player)) return 1 - player;
  for (const int player : {mover, 1 - mover})
    if (tried(position, player)) return player;
  if (position.ply >= kPlyLimit) return kDraw;
  return successors(position).empty() ? kDraw : kOngoing;
}

// As troyka writes the position: the board, the player to move, the ply, the hands (Black's upper case).
inline std::string text(const Position& position) {
  std::string hands;
  for (int player = 0; player < 2; ++player)
    for (std::size_t type = 0; type < kHandTypes.size(); ++type) {
      const int count = position.hands[static_cast<std::size_t>(player)][type];
      if (count > 1) hands += std::to_string(count);
      if (count > 0) hands += as_player(kHandTypes[type], player);
    }
  return reference_text::board_text(kWidth, kHeight, kEmpty,
                                    [&](int column, int row) { return position.at(column, row); }) +
         (position.to_move == 0 ? " Black " : " White ") + std::to_string(position.ply) +
         " hand=" + (hands.empty() ? "-" : hands);
}

inline std::uint64_t perft(const Position& position, int depth) {
  return reference_text::perft(position, depth, successors,
                               [](const Position& next) { return winner(next) == kOngoing; });
}

}  // namespace troyka::reference_dobutsu
