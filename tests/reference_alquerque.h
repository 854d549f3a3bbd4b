// A plain, slow Alquerque move generator, written from the rules as BrainKing.com states them
// (https://brainking.com/en/GameRules?tp=53, as games/alquerque.game cites them), not from the
// interpreter: 25 points in a char array, the lines worked out from the points' columns and rows,
// a loop per man and a search per jumping man that takes each jumped man off at once. The tests
// compare troyka's positions after each move with it.
//
// White (south) fills rows 1 and 2 and d3 e3, Black (north) rows 4 and 5 and a3 b3; White moves
// first. Lines join each point to its neighbours along rows and columns, and diagonally when the
// point's column and row add up to an even number. A man steps to an empty neighbour forward,
// diagonally forward or sideways, not from the far row. A man jumps over an enemy neighbour along a
// line to the empty point beyond and takes it; its first jump does not go backward, and it jumps on,
// any way, while it can. Capturing is compulsory. A player with no man or no move loses (the mover
// asked first); 200 plies are a draw. At the end, the same for Ludii's default rules, which
// bench/games/alquerque-ludii.game plays.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "tests/reference_text.h"

namespace troyka::reference_alquerque {

inline constexpr int kSize = 5;
inline constexpr int kPlyLimit = 200;
inline constexpr char kEmpty = '.';
inline constexpr std::array<char, 2> kMan = {'M', 'm'};  // White's, Black's

struct Position {
  std::array<char, kSize * kSize> at{};  // a1 b1 ... e1, a2 ... e5
  int to_move = 0;                       // 0 White, 1 Black
  int ply = 0;
};

inline int index(int column, int row) { return row * kSize + column; }
inline bool on_board(int column, int row) { return column >= 0 && column < kSize && row >= 0 && row < kSize; }

inline int point_named(const std::string& name) { return index(name[0] - 'a', name[1] - '1'); }

// Whether a line joins (column, row) to its neighbour one (dc, dr) away: along a row or a column
// always, diagonally only from a point whose column and row add up to an even number (a1 is 0 + 0).
inline bool joined(int column, int row, int dc, int dr) {
  if (!on_board(column + dc, row + dr)) return false;
  return dc == 0 || dr == 0 || (column + row) % 2 == 0;
}

inline constexpr std::array<std::array<int, 2>, 8> kDirections = {
    {{0, 1}, {1, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, -1}, {-1, 0}, {-1, 1}}};

// A direction's step toward the far side for `player`: +1 for White's north, -1 for Black's south.
inline int ahead(int player, int dr) { return player == 0 ? dr : -dr; }

inline int men(const Position& position, int player) {
  return static_cast<int>(std::count(position.at.begin(), position.at.end(), kMan[static_cast<std::size_t>(player)]));
}

// Every way the man now at (column, row) of `board` can go on jumping (any way, `first` says the
// first jump of the move: not backward); each way that cannot go on is a finished board in `ends`.
inline void jumps(const Position& board, int player, int column, int row, bool first, std::vector<Position>& ends) {
  const char enemy = kMan[static_cast<std::size_t>(1 - player)];
  bool jumped = false;
  for (const auto& [dc, dr] : kDirections) {
    if (first && ahead(player, dr) < 0) continue;
    if (!joined(column, row, dc, dr) || !joined(column + dc, row + dr, dc, dr)) continue;
    const int over = index(column + dc, row + dr), to = index(column + 2 * dc, row + 2 * dr);
    if (board.at[static_cast<std::size_t>(over)] != enemy || board.at[static_cast<std::size_t>(to)] != kEmpty) continue;
    Position next = board;
    next.at[static_cast<std::size_t>(index(column, row))] = kEmpty;
    next.at[static_cast<std::size_t>(over)] = kEmpty;  // taken off at once
    next.at[static_cast<std::size_t>(to)] = kMan[static_cast<std::size_t>(player)];
    jumped = true;
    jumps(next, player, column + 2 * dc, row + 2 * dr, false, ends);
  }
  if (!jumped && !first) ends.push_back(board);
}

// The boards after each move of the player to move, without the turn passed: the jumps if there
// are any, else the steps.
inline std::vector<Position> boards_after_moves(const Position& position) {
  const int player = position.to_move;
  const char own = kMan[static_cast<std::size_t>(player)];
  std::vector<Position> captures, steps;
  for (int row = 0; row < kSize; ++row)
    for (int column = 0; column < kSize; ++column) {
      if (position.at[static_cast<std::size_t>(index(column, row))] != own) continue;
      jumps(position, player, column, row, true, captures);
      const int far_row = player == 0 ? kSize - 1 : 0;
      if (row == far_row) continue;
      for (const auto& [dc, dr] : kDirections) {
        if (ahead(player, dr) < 0 || !joined(column, row, dc, dr)) continue;
        const int to = index(column + dc, row + dr);
        if (position.at[static_cast<std::size_t>(to)] != kEmpty) continue;
        Position next = position;
        next.at[static_cast<std::size_t>(index(column, row))] = kEmpty;
        next.at[static_cast<std::size_t>(to)] = own;
        steps.push_back(next);
      }
    }
  return captures.empty() ? steps : captures;
}

// The position as troyka's position text writes it: rows from the top, the player to move, the ply.
inline std::string text(const Position& position) {
  const auto at = [&](int column, int row) { return position.at[static_cast<std::size_t>(index(column, row))]; };
  return reference_text::board_text(kSize, kSize, kEmpty, at) + (position.to_move == 0 ? " White " : " Black ") +
         std::to_string(position.ply);
}

// -1 while the game goes on; else the winner (0 or 1), or 8 for a draw (troyka's kDraw). The end
// rules in the game's order, each asked of the mover and then of the player to move: the mover wins
// when the player to move has no man left, the player to move loses when it has no move, and 200
// plies draw.
inline constexpr int kOngoing = -1;
inline constexpr int kDraw = 8;

inline int winner(const Position& position) {
  const int mover = 1 - position.to_move;
  if (position.ply > 0 && men(position, position.to_move) == 0) return mover;
  if (boards_after_moves(position).empty()) return mover;
  if (position.ply >= kPlyLimit) return kDraw;
  return kOngoing;
}

// Every position the player to move can reach in one move (`boards` lists their boards), once
// each; none when the game is over (`winner`).
inline std::vector<Position> successors_by(const Position& position, int (*winner)(const Position&),
                                           std::vector<Position> (*boards)(const Position&)) {
  std::vector<Position> found;
  if (winner(position) != kOngoing) return found;
  std::set<std::string> seen;
  for (Position next : boards(position)) {
    next.to_move = 1 - position.to_move;
    next.ply = position.ply + 1;
    if (seen.insert(text(next)).second) found.push_back(next);
  }
  return found;
}

inline std::vector<Position> successors(const Position& position) {
  return successors_by(position, winner, boards_after_moves);
}

inline std::uint64_t perft(const Position& position, int depth) {
  return reference_text::perft(position, depth, successors,
                               [](const Position& next) { return winner(next) == kOngoing; });
}

// A position from its men, e.g. {"a1", "d1"} for White and {"e5"} for Black, and its ply; the
// player to move follows from the ply.
inline Position with_men(const std::vector<std::string>& white, const std::vector<std::string>& black, int ply) {
  Position position;
  position.at.fill(kEmpty);
  for (const std::string& name : white) position.at[static_cast<std::size_t>(point_named(name))] = kMan[0];
  for (const std::string& name : black) position.at[static_cast<std::size_t>(point_named(name))] = kMan[1];
  position.ply = ply;
  position.to_move = ply % 2;
  return position;
}

inline Position start() {
  return with_men({"a1", "b1", "c1", "d1", "e1", "a2", "b2", "c2", "d2", "e2", "d3", "e3"},
                  {"a5", "b5", "c5", "d5", "e5", "a4", "b4", "c4", "d4", "e4", "a3", "b3"}, 0);
}

// Ludii's default rules (bench/games/alquerque-ludii.game): from the same start, a man steps to an
// empty neighbour or jumps an enemy neighbour to the empty point beyond, taking it, any way,
// backward too; capturing is not compulsory and a jump is never followed by another. A player with
// no move loses; 2,500 plies draw.
inline constexpr int kLudiiPlyLimit = 2500;

inline std::vector<Position> boards_after_ludii_moves(const Position& position) {
  const char own = kMan[static_cast<std::size_t>(position.to_move)];
  const char enemy = kMan[static_cast<std::size_t>(1 - position.to_move)];
  std::vector<Position> boards;
  const auto move = [&](int from, int over, int to) {
    Position next = position;
    next.at[static_cast<std::size_t>(from)] = kEmpty;
    if (over >= 0) next.at[static_cast<std::size_t>(over)] = kEmpty;
    next.at[static_cast<std::size_t>(to)] = own;
    boards.push_back(next);
  };
  for (int row = 0; row < kSize; ++row)
    for (int column = 0; column < kSize; ++column) {
      const int from = index(column, row);
      if (position.at[static_cast<std::size_t>(from)] != own) continue;
      for (const auto& [dc, dr] : kDirections) {
        if (!joined(column, row, dc, dr)) continue;
        const int next = index(column + dc, row + dr);
        if (position.at[static_cast<std::size_t>(next)] == kEmpty) move(from, -1, next);
        if (position.at[static_cast<std::size_t>(next)] != enemy || !joined(column + dc, row + dr, dc, dr)) continue;
        const int beyond = index(column + 2 * dc, row + 2 * dr);
        if (position.at[static_cast<std::size_t>(beyond)] == kEmpty) move(from, next, beyond);
      }
    }
  return boards;
}

// The winner as winner() gives it, by Ludii's rules: the player to move loses when it has no move
// (no man left, or all blocked), and 2,500 plies draw.
inline int ludii_winner(const Position& position) {
  if (boards_after_ludii_moves(position).empty()) return 1 - position.to_move;
  if (position.ply >= kLudiiPlyLimit) return kDraw;
  return kOngoing;
}

inline std::vector<Position> ludii_successors(const Position& position) {
  return successors_by(position, ludii_winner, boards_after_ludii_moves);
}

inline std::uint64_t ludii_perft(const Position& position, int depth) {
  return reference_text::perft(position, depth, ludii_successors,
                               [](const Position& next) { return ludii_winner(next) == kOngoing; });
}

}  // namespace troyka::reference_alquerque
