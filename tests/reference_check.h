// The slow reference of tests/reference.h with legality and check (docs/core-design.md §6, step
// 13): under (legal CONDITION) a move of the board is legal only if CONDITION holds for its mover
// in the position after it, and (in-check PIECE) holds for a player when a move of its opponent, as
// if the opponent were to move, would take one of its PIECEs. Written from lang/rules.h as the
// rest of the reference is, on its plain array; it shares nothing with the interpreter.
//
// Below, in namespace chess, the moves games/chess.game writes in core forms (pawns, the king's
// castling), written from the FIDE Laws of Chess (articles 3.7, 3.8.2 and 3.9) on the same plain
// array: the pieces whose moves are keyword forms move as reference::board_moves has them.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "lang/rules.h"
#include "tests/reference.h"
#include "tests/reference_text.h"

namespace troyka::reference::check {

// Whether a move of the board of `subject`'s opponent takes a `piece` of `subject`: on the cell it
// lands on, or among the pieces a chain of jumps removes.
inline bool in_check(const lang::Rules& rules, const Board& board, int subject, int piece) {
  for (const MoveKey& move : board_moves(rules, board, 1 - subject)) {
    const auto [from, to, moved, capture, jumped, shot] = move;
    if (!capture) continue;
    for (int cell = 0; cell < rules.cells(); ++cell) {
      const Square& square = board[static_cast<std::size_t>(cell)];
      const bool taken = cell == to || (cell < 64 && (jumped >> cell & 1));
      if (taken && square.player == subject && square.piece == piece) return true;
    }
  }
  return false;
}

inline std::vector<MoveKey> moves(const lang::Rules& rules, const Position& position);

// reference::holds, with (in-check PIECE), and no-legal-moves counting the legal moves alone.
inline bool holds(const lang::Rules& rules, const lang::EndRule& rule, const Position& position, int subject) {
  const auto part_holds = [&](const lang::EndRule& part) { return holds(rules, part, position, subject); };
  switch (rule.kind) {
    case lang::EndKind::InCheck: return in_check(rules, position.board, subject, rule.piece);
    case lang::EndKind::NoLegalMoves: return subject == position.to_move && moves(rules, position).empty();
    case lang::EndKind::All: return std::all_of(rule.parts.begin(), rule.parts.end(), part_holds);
    case lang::EndKind::Any: return std::any_of(rule.parts.begin(), rule.parts.end(), part_holds);
    case lang::EndKind::Not: return !part_holds(rule.parts.front());
    default:
      return reference::holds(rules, rule, position.board, subject, position.to_move, position.ply, position.quiet,
                              position.counters);
  }
}

// The position after `move` as reference::play leaves it, the end not yet decided.
inline Position board_after(const lang::Rules& rules, const Position& position, const MoveKey& move) {
  Position after = reference::play(rules, position, move);
  after.end = {};
  return after;
}

// reference::moves with (legal CONDITION): the moves of the board after which CONDITION holds for
// the mover, then (must-capture) among them, the swap and the pass.
inline std::vector<MoveKey> moves(const lang::Rules& rules, const Position& position) {
  const int mover = position.to_move;
  std::vector<MoveKey> found = board_moves(rules, position.board, mover);
  for (const lang::EndRule& legal : rules.legal)
    std::erase_if(found,
                  [&](const MoveKey& move) { return !holds(rules, legal, board_after(rules, position, move), mover); });
  const auto captures = [](const MoveKey& move) { return std::get<3>(move); };
  if (rules.must_capture && std::any_of(found.begin(), found.end(), captures))
    std::erase_if(found, [&](const MoveKey& move) { return !captures(move); });
  if (rules.swap_rule && position.ply == 1 && mover == 1) found.push_back(swap(rules));
  if (found.empty() && rules.pass_when_stuck && !board_moves(rules, position.board, 1 - mover).empty())
    found.push_back(pass(rules));
  return found;
}

// reference::decision with these conditions: the end rules in file order, each for the player who
// just moved and then for the other; with none, a player to move without a legal move draws.
inline Decision decision(const lang::Rules& rules, const Position& position, int mover) {
  for (std::size_t index = 0; index < rules.end.size(); ++index) {
    const lang::EndRule& rule = rules.end[index];
    for (const int subject : {mover, 1 - mover}) {
      if (rule.only_player >= 0 && rule.only_player != subject) continue;
      if (rule.outcome == lang::Outcome::MostPieces) continue;  // not in the games this reference plays
      if (!holds(rules, rule, position, subject)) continue;
      const int winner = rule.outcome == lang::Outcome::Win    ? subject
                         : rule.outcome == lang::Outcome::Loss ? 1 - subject
                                                               : kDraw;
      return {true, winner, static_cast<int>(index)};
    }
  }
  if (moves(rules, position).empty()) return {true, kDraw, kEndedByNoMoves};
  return {};
}

inline Position start(const lang::Rules& rules) {
  Position position = reference::start(rules);
  position.end = decision(rules, position, 1);
  return position;
}

inline Position play(const lang::Rules& rules, const Position& position, const MoveKey& move) {
  Position after = board_after(rules, position, move);
  after.end = decision(rules, after, position.to_move);
  return after;
}

// Move sequences of length `depth`; a finished game has no moves.
inline std::uint64_t perft(const lang::Rules& rules, const Position& position, int depth) {
  if (depth == 0) return 1;
  if (position.end.over) return 0;
  const std::vector<MoveKey> listed = moves(rules, position);
  if (depth == 1) return listed.size();
  std::uint64_t nodes = 0;
  for (const MoveKey& move : listed) nodes += check::perft(rules, check::play(rules, position, move), depth - 1);
  return nodes;
}

namespace chess {

// A position of chess: the board, the player to move, the plies so far and since the last capture
// or pawn move, the squares of the kings and rooks that have never moved, and the square a double
// step passed over on the last move (-1 for none).
struct Position {
  Board board;
  int to_move = 0;
  std::uint32_t ply = 0, quiet = 0;
  std::vector<int> unmoved;  // sorted
  int passed = -1;
};

// The piece types of the game, by the names games/chess.game gives them.
struct Types {
  int pawn, knight, bishop, rook, queen, king;
  explicit Types(const lang::Rules& rules)
      : pawn(lang::piece_index(rules, "Pawn")),
        knight(lang::piece_index(rules, "Knight")),
        bishop(lang::piece_index(rules, "Bishop")),
        rook(lang::piece_index(rules, "Rook")),
        queen(lang::piece_index(rules, "Queen")),
        king(lang::piece_index(rules, "King")) {}
};

inline Position start(const lang::Rules& rules) {
  Position position;
  position.board.resize(64);
  for (const lang::Placement& placement : rules.setup)
    position.board[static_cast<std::size_t>(placement.cell)] = {placement.player, placement.piece};
  position.unmoved = {0, 4, 7, 56, 60, 63};  // a1 e1 h1 a8 e8 h8
  return position;
}

// As troyka writes the position of games/chess.game.
inline std::string text(const lang::Rules& rules, const Position& position) {
  const auto square = [](int cell) {
    return std::string{static_cast<char>('a' + cell % 8), static_cast<char>('1' + cell / 8)};
  };
  std::string unmoved;
  for (const int cell : position.unmoved) unmoved.append(unmoved.empty() ? "" : ",").append(square(cell));
  const std::string board = reference_text::board_text(8, 8, '.', [&](int column, int row) {
    const Square& at = position.board[static_cast<std::size_t>(row * 8 + column)];
    if (at.player < 0) return '.';
    const char letter = rules.pieces[static_cast<std::size_t>(at.piece)].code[0];  // chess: one letter each
    return at.player == 0 ? letter : static_cast<char>(letter - 'A' + 'a');
  });
  return board + (position.to_move == 0 ? " White " : " Black ") + std::to_string(position.ply) + " " +
         std::to_string(position.quiet) + " unmoved=" + (unmoved.empty() ? "-" : unmoved) +
         " passed=" + (position.passed < 0 ? "-" : square(position.passed));
}

// Whether a piece of `by` attacks `cell`: a knight's or king's jump, a pawn's diagonal, or a
// line of empty squares to a rook, bishop or queen.
inline bool attacked(const Types& types, const Board& board, int cell, int by) {
  const int column = cell % 8, row = cell / 8;
  const auto holds = [&](int dx, int dy, int piece) {
    const int c = column + dx, r = row + dy;
    if (c < 0 || c > 7 || r < 0 || r > 7) return false;
    const Square& at = board[static_cast<std::size_t>(r * 8 + c)];
    return at.player == by && at.piece == piece;
  };
  for (const auto& [dx, dy] :
       std::array<std::pair<int, int>, 8>{{{1, 2}, {2, 1}, {2, -1}, {1, -2}, {-1, -2}, {-2, -1}, {-2, 1}, {-1, 2}}})
    if (holds(dx, dy, types.knight)) return true;
  for (int dx = -1; dx <= 1; ++dx)
    for (int dy = -1; dy <= 1; ++dy)
      if ((dx || dy) && holds(dx, dy, types.king)) return true;
  const int behind = by == 0 ? -1 : 1;  // a White pawn attacks from the row below
  if (holds(-1, behind, types.pawn) || holds(1, behind, types.pawn)) return true;
  for (int dx = -1; dx <= 1; ++dx)
    for (int dy = -1; dy <= 1; ++dy) {
      if (!dx && !dy) continue;
      const int slider = dx && dy ? types.bishop : types.rook;
      for (int c = column + dx, r = row + dy; c >= 0 && c < 8 && r >= 0 && r < 8; c += dx, r += dy) {
        const Square& at = board[static_cast<std::size_t>(r * 8 + c)];
        if (at.player < 0) continue;
        if (at.player == by && (at.piece == slider || at.piece == types.queen)) return true;
        break;
      }
    }
  return false;
}

inline bool in_check(const Types& types, const Board& board, int player) {
  for (int cell = 0; cell < 64; ++cell)
    if (board[static_cast<std::size_t>(cell)].player == player &&
        board[static_cast<std::size_t>(cell)].piece == types.king)
      return attacked(types, board, cell, 1 - player);
  return false;
}

// The positions after every legal move (FIDE 3.1 to 3.9): the pieces of keyword forms as
// reference::board_moves moves them, then the pawns, the king's steps and castling; a move is
// legal when its own king is not attacked after it.
inline std::vector<Position> successors(const lang::Rules& rules, const Position& position) {
  const Types types(rules);
  const int me = position.to_move;
  std::vector<Position> found;
  // `to` receives the piece from `from` as `piece`; `taken` is the cell of a capture, or -1.
  const auto add = [&](int from, int to, int piece, int taken, int passed = -1, int rook_from = -1, int rook_to = -1) {
    Position next = position;
    Board& board = next.board;
    const bool pawn = board[static_cast<std::size_t>(from)].piece == types.pawn;
    if (taken >= 0) board[static_cast<std::size_t>(taken)] = {};
    board[static_cast<std::size_t>(from)] = {};
    board[static_cast<std::size_t>(to)] = {me, piece};
    if (rook_from >= 0) {
      board[static_cast<std::size_t>(rook_from)] = {};
      board[static_cast<std::size_t>(rook_to)] = {me, types.rook};
    }
    std::erase_if(next.unmoved, [&](int cell) { return cell == from || cell == to || cell == rook_from; });
    next.passed = passed;
    next.quiet = pawn || taken >= 0 ? 0 : position.quiet + 1;
    next.to_move = 1 - me;
    ++next.ply;
    if (!in_check(types, board, me)) found.push_back(next);
  };
  const Board& board = position.board;
  const auto at = [&](int cell) -> const Square& { return board[static_cast<std::size_t>(cell)]; };
  for (const MoveKey& move : board_moves(rules, board, me)) {  // knights, bishops, rooks, queens
    const auto [from, to, piece, capture, jumped, shot] = move;
    add(from, to, piece, capture ? to : -1);
  }
  const int forward = me == 0 ? 8 : -8;
  const auto unmoved = [&](int cell) {
    return std::find(position.unmoved.begin(), position.unmoved.end(), cell) != position.unmoved.end();
  };
  for (int from = 0; from < 64; ++from) {
    if (at(from).player != me) continue;
    const int column = from % 8, row = from / 8;
    if (at(from).piece == types.pawn) {
      const int last_row = me == 0 ? 7 : 0;
      const auto pawn_to = [&](int to, int taken, int passed = -1) {
        if (to / 8 != last_row) return add(from, to, types.pawn, taken, passed);
        for (const int piece : {types.queen, types.rook, types.bishop, types.knight}) add(from, to, piece, taken);
      };
      const int ahead = from + forward;
      if (at(ahead).player < 0) {
        pawn_to(ahead, -1);
        if (row == (me == 0 ? 1 : 6) && at(ahead + forward).player < 0) pawn_to(ahead + forward, -1, ahead);
      }
      for (const int dx : {-1, 1}) {
        if (column + dx < 0 || column + dx > 7) continue;
        const int to = ahead + dx;
        if (at(to).player == 1 - me) pawn_to(to, to);
        if (to == position.passed) pawn_to(to, to - forward);  // en passant: the pawn behind the square
      }
    }
    if (at(from).piece != types.king) continue;
    for (int dx = -1; dx <= 1; ++dx)
      for (int dy = -1; dy <= 1; ++dy) {
        const int c = column + dx, r = row + dy;
        if ((!dx && !dy) || c < 0 || c > 7 || r < 0 || r > 7 || at(r * 8 + c).player == me) continue;
        add(from, r * 8 + c, types.king, at(r * 8 + c).player >= 0 ? r * 8 + c : -1);
      }
    // Castling (3.8.2): neither king nor rook has moved, the squares between are empty, and the
    // king is not in check and does not cross an attacked square (nor ends on one: add() asks).
    if (!unmoved(from) || attacked(types, board, from, 1 - me)) continue;
    for (const int side : {1, -1}) {
      const int rook = side > 0 ? row * 8 + 7 : row * 8;
      if (!unmoved(rook) || at(rook).player != me || at(rook).piece != types.rook) continue;
      bool clear = true;
      for (int cell = from + side; cell != rook; cell += side) clear = clear && at(cell).player < 0;
      if (clear && !attacked(types, board, from + side, 1 - me))
        add(from, from + 2 * side, types.king, -1, -1, rook, from + side);
    }
  }
  return found;
}

// The end of the game, as games/chess.game's end rules decide it in their order: mate (the
// player to move loses, rule 0), stalemate (rule 1), then a hundred plies without a capture or a
// pawn move (rule 2). A position alone has no history, so repetition is not asked.
inline Decision decision(const lang::Rules& rules, const Position& position) {
  if (successors(rules, position).empty()) {
    if (in_check(Types(rules), position.board, position.to_move)) return {true, 1 - position.to_move, 0};
    return {true, kDraw, 1};
  }
  if (position.quiet >= 100) return {true, kDraw, 2};
  return {};
}

// Move sequences of length `depth` from `position`.
inline std::uint64_t perft(const lang::Rules& rules, const Position& position, int depth) {
  if (depth == 0) return 1;
  if (decision(rules, position).over) return 0;
  const std::vector<Position> next = successors(rules, position);
  if (depth == 1) return next.size();
  std::uint64_t nodes = 0;
  for (const Position& each : next) nodes += perft(rules, each, depth - 1);
  return nodes;
}

}  // namespace chess

}  // namespace troyka::reference::check
