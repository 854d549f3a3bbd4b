// A plain, slow Nine Men's Morris move generator, written from the rules as Wikipedia states them
// (https://en.wikipedia.org/wiki/Nine_men%27s_morris, as games/nine-mens-morris.game cites them),
// not from the interpreter: 24 points, the 16 lines of three that join them, a char per point, a
// loop per man. The tests compare troyka's positions after each move with it.
//
// Each player places nine men, one a turn on an empty point, White first; then a man moves along a
// line to the next point if it is empty, or, when its player has three men, flies to any empty
// point. A man that lands and completes three of its player's men on a line (a mill) removes an
// enemy man in no mill, or any enemy man when all are in mills. A player with fewer than three men
// once all its men are placed, or with no move, loses; the game is a draw at 200 plies.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "tests/reference_text.h"

namespace troyka::reference_morris {

inline constexpr int kPoints = 24;
inline constexpr int kMen = 9;
inline constexpr int kPlyLimit = 200;
inline constexpr char kEmpty = '.';
inline constexpr std::array<char, 2> kMan = {'M', 'm'};  // White's, Black's

// The points by name, on the 7x7 chart the game file draws them on.
inline constexpr std::array<const char*, kPoints> kNames = {"a1", "d1", "g1", "b2", "d2", "f2", "c3", "d3",
                                                            "e3", "a4", "b4", "c4", "e4", "f4", "g4", "c5",
                                                            "d5", "e5", "b6", "d6", "f6", "a7", "d7", "g7"};

// The 16 lines of three points, by index into kNames: the eight across, then the eight up.
inline constexpr std::array<std::array<int, 3>, 16> kLines = {{
    {0, 1, 2},
    {3, 4, 5},
    {6, 7, 8},
    {9, 10, 11},
    {12, 13, 14},
    {15, 16, 17},
    {18, 19, 20},
    {21, 22, 23},
    {0, 9, 21},
    {3, 10, 18},
    {6, 11, 15},
    {1, 4, 7},
    {16, 19, 22},
    {8, 12, 17},
    {5, 13, 20},
    {2, 14, 23},
}};

inline int point_named(const std::string& name) {
  for (int point = 0; point < kPoints; ++point)
    if (name == kNames[static_cast<std::size_t>(point)]) return point;
  return -1;
}

struct Position {
  std::array<char, kPoints> at{};
  int to_move = 0;  // 0 White, 1 Black
  int ply = 0;
  std::array<int, 2> placed{};  // the men each player has placed
  bool over = false;
  int winner = -1;  // 0, 1, or -1 for a draw or a game not over
};

inline Position start() {
  Position position;
  position.at.fill(kEmpty);
  return position;
}

inline int men(const Position& position, int player) {
  return static_cast<int>(std::count(position.at.begin(), position.at.end(), kMan[static_cast<std::size_t>(player)]));
}

// Whether the man at `point` stands in a line of three of its player's men.
inline bool in_mill(const Position& position, int point) {
  const char man = position.at[static_cast<std::size_t>(point)];
  for (const auto& line : kLines)
    if (std::find(line.begin(), line.end(), point) != line.end() &&
        std::all_of(line.begin(), line.end(), [&](int p) { return position.at[static_cast<std::size_t>(p)] == man; }))
      return true;
  return false;
}

// Whether two points are next to each other on a line.
inline bool adjacent(int a, int b) {
  for (const auto& line : kLines)
    for (int i = 0; i + 1 < 3; ++i)
      if ((line[i] == a && line[i + 1] == b) || (line[i] == b && line[i + 1] == a)) return true;
  return false;
}

// Whether the player to move has a move: a point to place on, or a man that can go somewhere.
inline bool has_move(const Position& position) {
  const int player = position.to_move;
  const bool placing = position.placed[0] < kMen || position.placed[1] < kMen;
  const bool flies = men(position, player) == 3;
  for (int to = 0; to < kPoints; ++to) {
    if (position.at[static_cast<std::size_t>(to)] != kEmpty) continue;
    if (placing || flies) return true;
    for (int from = 0; from < kPoints; ++from)
      if (position.at[static_cast<std::size_t>(from)] == kMan[static_cast<std::size_t>(player)] && adjacent(from, to))
        return true;
  }
  return false;
}

// The end, decided after a move, as the game's rules are listed: a player with all men placed and
// fewer than three loses (the mover asked first), the player to move with no move loses, and 200
// plies draw.
inline void decide_end(Position& position) {
  const int mover = 1 - position.to_move;
  for (const int player : {mover, position.to_move})
    if (position.placed[static_cast<std::size_t>(player)] == kMen && men(position, player) < 3) {
      position.over = true;
      position.winner = 1 - player;
      return;
    }
  if (!has_move(position)) {
    position.over = true;
    position.winner = mover;
    return;
  }
  if (position.ply >= kPlyLimit) position.over = true;
}

// The man of the player to move lands on `to` (after leaving `from`, or placed when `from` < 0):
// each position after it, one per enemy man it may remove when it makes a mill, else one.
inline void land(const Position& position, int from, int to, std::vector<Position>& found) {
  const int player = position.to_move;
  Position next = position;
  if (from >= 0) next.at[static_cast<std::size_t>(from)] = kEmpty;
  if (from < 0) ++next.placed[static_cast<std::size_t>(player)];
  next.at[static_cast<std::size_t>(to)] = kMan[static_cast<std::size_t>(player)];
  next.to_move = 1 - player;
  ++next.ply;
  std::vector<Position> after;
  if (in_mill(next, to)) {
    const char enemy = kMan[static_cast<std::size_t>(1 - player)];
    bool all_in_mills = true;
    for (int point = 0; point < kPoints; ++point)
      if (next.at[static_cast<std::size_t>(point)] == enemy && !in_mill(next, point)) all_in_mills = false;
    for (int point = 0; point < kPoints; ++point) {
      if (next.at[static_cast<std::size_t>(point)] != enemy || (in_mill(next, point) && !all_in_mills)) continue;
      Position removed = next;
      removed.at[static_cast<std::size_t>(point)] = kEmpty;
      after.push_back(removed);
    }
  } else {
    after.push_back(next);
  }
  for (Position& each : after) {
    decide_end(each);
    found.push_back(each);
  }
}

// Every position the player to move can reach in one move; none when the game is over.
inline std::vector<Position> successors(const Position& position) {
  std::vector<Position> found;
  if (position.over) return found;
  const int player = position.to_move;
  const bool placing = position.placed[0] < kMen || position.placed[1] < kMen;
  const bool flies = men(position, player) == 3;
  for (int to = 0; to < kPoints; ++to) {
    if (position.at[static_cast<std::size_t>(to)] != kEmpty) continue;
    if (placing) {
      land(position, -1, to, found);
      continue;
    }
    for (int from = 0; from < kPoints; ++from)
      if (position.at[static_cast<std::size_t>(from)] == kMan[static_cast<std::size_t>(player)] &&
          (flies || adjacent(from, to)))
        land(position, from, to, found);
  }
  return found;
}

inline std::uint64_t perft(const Position& position, int depth) {
  return reference_text::perft(position, depth, successors, [](const Position&) { return true; });
}

// The position as troyka's position text writes it: the 7x7 chart with '#' where no point is, the
// player to move, the ply, the phase and the men placed.
inline std::string text(const Position& position) {
  const auto at = [&](int column, int row) {
    const std::string name{static_cast<char>('a' + column), static_cast<char>('1' + row)};
    const int point = point_named(name);
    return point < 0 ? '#' : position.at[static_cast<std::size_t>(point)];
  };
  const bool placing = position.placed[0] < kMen || position.placed[1] < kMen;
  return reference_text::board_text(7, 7, kEmpty, at) + (position.to_move == 0 ? " White " : " Black ") +
         std::to_string(position.ply) + (placing ? " phase=placement" : " phase=movement") +
         " placed=" + std::to_string(position.placed[0]) + "," + std::to_string(position.placed[1]);
}

// A position from its men, e.g. {"a1", "d1"} for White and {"g7"} for Black, with the men placed
// and the ply; the player to move follows from the ply.
inline Position with_men(const std::vector<std::string>& white, const std::vector<std::string>& black,
                         std::array<int, 2> placed, int ply) {
  Position position = start();
  for (const std::string& name : white) position.at[static_cast<std::size_t>(point_named(name))] = kMan[0];
  for (const std::string& name : black) position.at[static_cast<std::size_t>(point_named(name))] = kMan[1];
  position.placed = placed;
  position.ply = ply;
  position.to_move = ply % 2;
  return position;
}

}  // namespace troyka::reference_morris
