// A plain, slow reference for Breakthrough on a hexagon (games/breakthrough-hexagon.game), written
// from the game's rules in hexagon coordinates, apart from the interpreter and from the checker's
// rhombus with holes: a cell is (q, r), -(N-1) <= q, r, q + r <= N-1 around the middle of a
// hexagon of side N. Rows are r: White fills the two lowest, Black the two highest. A pawn steps
// to either forward neighbour, (q, r + 1) and (q - 1, r + 1) for White, (q, r - 1) and (q + 1, r - 1)
// for Black, when it is empty or holds an enemy, which it takes. A player wins with a pawn on the
// far row or when the opponent has no pawn left, and loses when it cannot move.
#pragma once

#include <cstdint>
#include <cstdlib>
#include <map>
#include <string>
#include <utility>
#include <vector>

namespace troyka::reference_graph {

struct HexBreakthrough {
  using Cell = std::pair<int, int>;
  using Move = std::pair<Cell, Cell>;  // from, to

  int side = 5;
  // Occupants by cell: 'W', 'B', or absent.
  std::map<Cell, char> pawns;
  char to_move = 'W';

  int last() const { return side - 1; }
  bool on_board(int q, int r) const {
    return std::abs(q) <= last() && std::abs(r) <= last() && std::abs(q + r) <= last();
  }

  static HexBreakthrough start(int side) {
    HexBreakthrough game;
    game.side = side;
    for (int q = -game.last(); q <= game.last(); ++q)
      for (int r = -game.last(); r <= game.last(); ++r) {
        if (!game.on_board(q, r)) continue;
        if (r <= -game.last() + 1) game.pawns[{q, r}] = 'W';
        if (r >= game.last() - 1) game.pawns[{q, r}] = 'B';
      }
    return game;
  }

  bool over() const {
    bool white = false;
    bool black = false;
    for (const auto& [cell, colour] : pawns) {
      if (colour == 'W' && cell.second == last()) return true;
      if (colour == 'B' && cell.second == -last()) return true;
      (colour == 'W' ? white : black) = true;
    }
    return !white || !black;
  }

  // Every legal move; none once the game is over.
  std::vector<Move> moves() const {
    std::vector<Move> list;
    if (over()) return list;
    const int forward = to_move == 'W' ? 1 : -1;
    for (const auto& [cell, colour] : pawns) {
      if (colour != to_move) continue;
      const auto [q, r] = cell;
      for (const Cell& to : {Cell{q, r + forward}, Cell{q - forward, r + forward}}) {
        if (!on_board(to.first, to.second)) continue;
        const auto there = pawns.find(to);
        if (there == pawns.end() || there->second != to_move) list.push_back({cell, to});
      }
    }
    return list;
  }

  HexBreakthrough after(const Move& move) const {
    HexBreakthrough next = *this;
    next.pawns.erase(move.first);
    next.pawns[move.second] = to_move;
    next.to_move = to_move == 'W' ? 'B' : 'W';
    return next;
  }

  // The cell's name on the rhombus of 2N-1 columns the game is played on: column q + N-1, row r + N-1.
  std::string cell_name(Cell cell) const {
    return std::string(1, static_cast<char>('a' + cell.first + last())) + std::to_string(cell.second + last() + 1);
  }

  // As troyka writes a step: "c3-c4", or "c3xb4" when it takes.
  std::string move_text(const Move& move) const {
    return cell_name(move.first) + (pawns.count(move.second) ? "x" : "-") + cell_name(move.second);
  }
};

inline std::uint64_t perft(const HexBreakthrough& game, int depth) {
  if (depth == 0) return 1;
  std::uint64_t nodes = 0;
  for (const auto& move : game.moves()) nodes += perft(game.after(move), depth - 1);
  return nodes;
}

}  // namespace troyka::reference_graph
