// A plain, slow move generator for Minishogi, written from its rule book (Wikipedia's "Minishogi",
// which games/minishogi.game cites), not from the interpreter: a board of chars, two hands of
// counts, a loop per piece, direction and cell. The tests compare troyka's positions with it move
// by move, and its perft with troyka's and with the published figures.
//
// Black (upper case, moving up the board) starts. Letters: King, Gold, Silver, Bishop, Rook, Pawn,
// and the promoted Tokin (Pawn), N (Silver), Horse (Bishop), Dragon (Rook). A move that starts or
// ends on the mover's far row may promote a Silver, Bishop or Rook, and must promote a Pawn. A
// capture goes to the captor's hand unpromoted; a piece in hand may be dropped on any empty cell, a
// Pawn neither on the far row, nor in a column with an unpromoted Pawn of its own, nor so that the
// opponent is in check with no legal move. No move may leave its mover's King attacked. A player to
// move without a legal move loses; at 300 plies the game is drawn. Repetitions are not counted: a
// position alone does not know its history, as troyka's perft and random-game checks play it.
#pragma once

#include <array>
#include <cctype>
#include <cstdint>
#include <string>
#include <vector>

#include "tests/reference_text.h"

namespace troyka::reference_minishogi {

inline constexpr int kSize = 5, kPlyLimit = 300;
inline constexpr char kEmpty = '.';
inline constexpr int kOngoing = -1, kDraw = 8;  // winners besides the players 0 (Black) and 1 (White), as troyka's
// The types a hand holds, in the order position text writes them.
inline constexpr std::array<char, 5> kHandTypes = {'P', 'S', 'G', 'B', 'R'};

struct Position {
  std::array<char, kSize * kSize> cells{};  // row 1 first; Black's upper case, White's lower case
  std::array<std::array<int, kHandTypes.size()>, 2> hands{};
  int to_move = 0;
  int ply = 0;

  char at(int column, int row) const { return cells[static_cast<std::size_t>(row * kSize + column)]; }
  char& at(int column, int row) { return cells[static_cast<std::size_t>(row * kSize + column)]; }
};

inline int owner(char piece) { return std::isupper(static_cast<unsigned char>(piece)) ? 0 : 1; }
inline char upper(char piece) { return static_cast<char>(std::toupper(static_cast<unsigned char>(piece))); }
inline char as_player(char piece, int player) {
  return player == 0 ? upper(piece) : static_cast<char>(std::tolower(static_cast<unsigned char>(piece)));
}

// Wikipedia's diagram: Black's first row, from its left, King, Gold, Silver, Bishop, Rook, and a Pawn
// before the King; White's the same turned half round.
inline Position start() {
  Position position;
  position.cells.fill(kEmpty);
  const std::string black_row = "KGSBR";
  for (int column = 0; column < kSize; ++column) {
    position.at(column, 0) = black_row[static_cast<std::size_t>(column)];
    position.at(kSize - 1 - column, kSize - 1) = as_player(black_row[static_cast<std::size_t>(column)], 1);
  }
  position.at(0, 1) = 'P';
  position.at(kSize - 1, kSize - 2) = 'p';
  return position;
}

using Step = std::array<int, 2>;  // (column, row) for Black, row upwards; White's are mirrored
inline const std::vector<Step> kKingSteps = {{-1, -1}, {0, -1}, {1, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}};
inline const std::vector<Step> kGoldSteps = {{0, -1}, {-1, 0}, {1, 0}, {-1, 1}, {0, 1}, {1, 1}};
inline const std::vector<Step> kSilverSteps = {{-1, -1}, {1, -1}, {-1, 1}, {0, 1}, {1, 1}};
inline const std::vector<Step> kDiagonal = {{-1, -1}, {1, -1}, {-1, 1}, {1, 1}};
inline const std::vector<Step> kOrthogonal = {{0, -1}, {-1, 0}, {1, 0}, {0, 1}};

// The one-cell steps of a type (upper case), and its slides.
inline std::vector<Step> steps(char type) {
  switch (type) {
    case 'K': return kKingSteps;
    case 'S': return kSilverSteps;
    case 'P': return {{0, 1}};
    case 'H': return kOrthogonal;
    case 'D': return kDiagonal;
    case 'B':
    case 'R': return {};
    default: return kGoldSteps;  // G, T, N
  }
}
inline std::vector<Step> slides(char type) {
  if (type == 'B' || type == 'H') return kDiagonal;
  if (type == 'R' || type == 'D') return kOrthogonal;
  return {};
}
inline char promoted(char type) {
  switch (type) {
    case 'S': return 'N';
    case 'B': return 'H';
    case 'R': return 'D';
    case 'P': return 'T';
    default: return 0;
  }
}
inline char unpromoted(char type) {
  switch (type) {
    case 'N': return 'S';
    case 'H': return 'B';
    case 'D': return 'R';
    case 'T': return 'P';
    default: return type;
  }
}

inline bool on_board(int column, int row) { return column >= 0 && column < kSize && row >= 0 && row < kSize; }
inline int far_row(int player) { return player == 0 ? kSize - 1 : 0; }

// Calls on_move(from_column, from_row, to_column, to_row) for every step or slide of `player`'s
// pieces onto a cell that holds none of its own, legal or not.
template <typename OnMove>
void for_each_board_move(const Position& position, int player, OnMove&& on_move) {
  for (int row = 0; row < kSize; ++row)
    for (int column = 0; column < kSize; ++column) {
      const char piece = position.at(column, row);
      if (piece == kEmpty || owner(piece) != player) continue;
      const int sign = player == 0 ? 1 : -1;
      for (const auto& [dx, dy] : steps(upper(piece))) {
        const int to_column = column + dx, to_row = row + sign * dy;
        if (!on_board(to_column, to_row)) continue;
        const char target = position.at(to_column, to_row);
        if (target == kEmpty || owner(target) != player) on_move(column, row, to_column, to_row);
      }
      for (const auto& [dx, dy] : slides(upper(piece)))
        for (int to_column = column + dx, to_row = row + dy; on_board(to_column, to_row);
             to_column += dx, to_row += dy) {
          const char target = position.at(to_column, to_row);
          if (target != kEmpty && owner(target) == player) break;
          on_move(column, row, to_column, to_row);
          if (target != kEmpty) break;
        }
    }
}

// Whether `player`'s King stands where a move of the other player, legal or not, lands.
inline bool in_check(const Position& position, int player) {
  bool attacked = false;
  for_each_board_move(position, 1 - player, [&](int, int, int to_column, int to_row) {
    attacked = attacked || position.at(to_column, to_row) == as_player('K', player);
  });
  return attacked;
}

inline std::vector<Position> successors(const Position& position);

// A pawn drop that leaves the opponent in check without a legal move (uchifuzume).
inline bool mates(const Position& after) { return in_check(after, after.to_move) && successors(after).empty(); }

inline bool has_own_pawn_in_column(const Position& position, int player, int column) {
  for (int row = 0; row < kSize; ++row)
    if (position.at(column, row) == as_player('P', player)) return true;
  return false;
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
  const auto keep_if_legal = [&](const Position& after) {
    if (!in_check(after, player)) result.push_back(after);
  };
  for_each_board_move(position, player, [&](int column, int row, int to_column, int to_row) {
    Position after = next();
    const char piece = after.at(column, row);
    const char taken = after.at(to_column, to_row);
    if (taken != kEmpty)
      for (std::size_t type = 0; type < kHandTypes.size(); ++type)
        if (kHandTypes[type] == unpromoted(upper(taken))) ++after.hands[static_cast<std::size_t>(player)][type];
    after.at(column, row) = kEmpty;
    const bool may_promote = promoted(upper(piece)) != 0 && (row == far_row(player) || to_row == far_row(player));
    if (!may_promote || upper(piece) != 'P') {  // a Pawn on the far row could never move: it must promote
      after.at(to_column, to_row) = piece;
      keep_if_legal(after);
    }
    if (may_promote) {
      after.at(to_column, to_row) = as_player(promoted(upper(piece)), player);
      keep_if_legal(after);
    }
  });
  for (std::size_t type = 0; type < kHandTypes.size(); ++type) {
    if (position.hands[static_cast<std::size_t>(player)][type] == 0) continue;
    const bool pawn = kHandTypes[type] == 'P';
    for (int row = 0; row < kSize; ++row)
      for (int column = 0; column < kSize; ++column) {
        if (position.at(column, row) != kEmpty) continue;
        if (pawn && (row == far_row(player) || has_own_pawn_in_column(position, player, column))) continue;
        Position after = next();
        after.at(column, row) = as_player(kHandTypes[type], player);
        --after.hands[static_cast<std::size_t>(player)][type];
        if (in_check(after, player) || (pawn && mates(after))) continue;
        result.push_back(after);
      }
  }
  return result;
}

// The end of a position reached by a move: the player to move without a legal move has lost.
inline int winner(const Position& position) {
  if (successors(position).empty()) return 1 - position.to_move;
  return position.ply >= kPlyLimit ? kDraw : kOngoing;
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
  return reference_text::board_text(kSize, kSize, kEmpty,
                                    [&](int column, int row) { return position.at(column, row); }) +
         (position.to_move == 0 ? " Black " : " White ") + std::to_string(position.ply) +
         " hand=" + (hands.empty() ? "-" : hands);
}

inline std::uint64_t perft(const Position& position, int depth) {
  return reference_text::perft(position, depth, successors,
                               [](const Position& next) { return winner(next) == kOngoing; });
}

}  // namespace troyka::reference_minishogi
