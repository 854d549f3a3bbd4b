// The slow reference of tests/reference.h with legality and check (docs/core-design.md §6, step
// 13): under (legal CONDITION) a move of the board is legal only if CONDITION holds for its mover
// in the position after it, and (in-check PIECE) holds for a player when a move of its opponent, as
// if the opponent were to move, would take one of its PIECEs. Written from lang/rules.h as the
// rest of the reference is, on its plain array; it shares nothing with the interpreter.
#pragma once

#include <algorithm>
#include <cstdint>
#include <vector>

#include "lang/rules.h"
#include "tests/reference.h"

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

}  // namespace troyka::reference::check
