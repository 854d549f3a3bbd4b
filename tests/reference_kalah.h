// A plain Kalah(6,4) move generator, written from Wikipedia's rules (https://en.wikipedia.org/wiki/Kalah,
// as games/kalah.game cites them), not from the interpreter: the fourteen pits in the usual array,
// South's houses 0..5 and store 6, North's houses 7..12 and store 13, sowing by index modulo 14.
// The tests compare troyka's positions after each move with it.
//
// A move sows the seeds of one of the mover's non-empty houses one by one into the pits after it,
// skipping the opponent's store. Last seed in the mover's store: the mover moves again. Last seed in
// one of the mover's houses that was empty, the opposite house (12 - house) holding seeds: both go
// to the mover's store. When either side's houses are all empty the game ends, each side's seeds
// (houses and store, the end sweep) are counted, and more wins; 1000 plies are a draw.
#pragma once

#include <array>
#include <cstdint>
#include <string>
#include <vector>

namespace troyka::reference_kalah {

inline constexpr int kPits = 14;
inline constexpr int kPlyLimit = 1000;
inline constexpr int kOngoing = -1;  // winner(): the game goes on
inline constexpr int kDrawn = 8;     // winner(): a draw (troyka's kDraw)

struct Position {
  std::array<int, kPits> pits{};
  int to_move = 0;  // 0 South, 1 North
  int ply = 0;
};

inline int store(int player) { return player == 0 ? 6 : 13; }
inline int first_house(int player) { return player == 0 ? 0 : 7; }

inline Position start(int seeds = 4) {
  Position position;
  for (int house = 0; house < 6; ++house) position.pits[house] = position.pits[7 + house] = seeds;
  return position;
}

inline int houses_total(const Position& position, int player) {
  int total = 0;
  for (int house = first_house(player); house < first_house(player) + 6; ++house) total += position.pits[house];
  return total;
}

// The winner of a position reached by a move: 0, 1, kDrawn, or kOngoing.
inline int winner(const Position& position) {
  if (houses_total(position, 0) == 0 || houses_total(position, 1) == 0) {
    const int south = houses_total(position, 0) + position.pits[6];
    const int north = houses_total(position, 1) + position.pits[13];
    return south > north ? 0 : north > south ? 1 : kDrawn;
  }
  return position.ply >= kPlyLimit ? kDrawn : kOngoing;
}

// The position after the mover sows `house`.
inline Position sow(Position position, int house) {
  const int mover = position.to_move;
  int seeds = position.pits[house];
  position.pits[house] = 0;
  int pit = house;
  while (seeds > 0) {
    pit = (pit + 1) % kPits;
    if (pit == store(1 - mover)) continue;
    ++position.pits[pit];
    --seeds;
  }
  const bool own_house = pit >= first_house(mover) && pit < first_house(mover) + 6;
  if (own_house && position.pits[pit] == 1 && position.pits[12 - pit] > 0) {
    position.pits[store(mover)] += 1 + position.pits[12 - pit];
    position.pits[pit] = position.pits[12 - pit] = 0;
  }
  ++position.ply;
  if (pit != store(mover)) position.to_move = 1 - mover;
  return position;
}

// The houses the player to move may sow, in index order.
inline std::vector<int> moves(const Position& position) {
  std::vector<int> houses;
  if (winner(position) != kOngoing) return houses;
  for (int house = first_house(position.to_move); house < first_house(position.to_move) + 6; ++house)
    if (position.pits[house] > 0) houses.push_back(house);
  return houses;
}

inline std::vector<Position> successors(const Position& position) {
  std::vector<Position> next;
  for (const int house : moves(position)) next.push_back(sow(position, house));
  return next;
}

inline std::uint64_t perft(const Position& position, int depth) {
  if (depth == 0) return 1;
  std::uint64_t count = 0;
  for (const int house : moves(position)) count += perft(sow(position, house), depth - 1);
  return count;
}

// The cell games/kalah.game gives a pit: South's houses b1..g1 and store h1 on row 1, North's
// houses g2..b2 (in sowing order) and store a2 on row 2.
inline std::string cell_of(int pit) {
  if (pit < 6) return std::string{static_cast<char>('b' + pit), '1'};
  if (pit == 6) return "h1";
  if (pit < 13) return std::string{static_cast<char>('g' - (pit - 7)), '2'};
  return "a2";
}

// The position as troyka writes it: the board (no pieces, two holes), the player to move, the ply,
// and the counts of the cells in cell order (row 1 from a to h, then row 2).
inline std::string text(const Position& position) {
  std::array<int, 16> by_cell{};
  for (int pit = 0; pit < kPits; ++pit) {
    const std::string cell = cell_of(pit);
    by_cell[static_cast<std::size_t>((cell[1] - '1') * 8 + (cell[0] - 'a'))] = position.pits[pit];
  }
  std::string counts;
  for (int cell = 0; cell < 16; ++cell)
    if (by_cell[static_cast<std::size_t>(cell)] > 0)
      counts += (counts.empty() ? "" : ",") +
                std::string{static_cast<char>('a' + cell % 8), static_cast<char>('1' + cell / 8)} + ":" +
                std::to_string(by_cell[static_cast<std::size_t>(cell)]);
  return "7#/#7 " + std::string(position.to_move == 0 ? "South" : "North") + " " + std::to_string(position.ply) +
         " counts=" + (counts.empty() ? "-" : counts);
}

}  // namespace troyka::reference_kalah
