// A slow reference for games of more than two players, written from docs/language.md ("Players")
// and docs/core-design.md §3.1 on a plain array, cell by cell: nothing shared with the interpreter
// (or with tests/reference.h, whose squares and enemies are two players') but lang::Rules, whose
// next_cell steps along the grid or the board's links. It plays what the interpreter plays with
// more than two players and nothing else: steps and slides onto the cells their targets allow, a
// slide followed by a shot ((then (shoot MOVE)): from where it landed, with the cell it left empty,
// to an empty cell, which is blocked to the end), and the end rules reach, no pieces, no legal
// moves, ply limit and comparisons of (pieces), in turns of one decision or several ((turn
// (actions N) (first M))). A game with phases places in its first phase (a new piece of the game's
// one type on any empty cell: the placement of games/amazons-3-players-placed.game, whose rule is
// in core forms) until every player has the (pieces) its (until ...) asks, then plays the pieces'
// keyword moves (which the caller may take from another file: the reference reads no core forms).
// A loss puts its player out: its turns are skipped and its pieces
// stay (in the middle of its turn, the decisions it played stay, and the next player starts a
// whole turn); the game ends at a win, a draw or when one player is left.
// It also plays Breakthrough's pawns as the games of games/ that add hands or scores to them write
// in core forms (Pawns): pawns taken into the taker's hand and dropped on its two home rows, or
// pawns that score a point on reaching the far row and leave; with the end rules of comparing the
// score, and the most pieces (a ranking of the players still playing, ties sharing a place).
#pragma once

#include <algorithm>
#include <cstdint>
#include <stdexcept>
#include <tuple>
#include <vector>

#include "interpreter/program.h"
#include "lang/rules.h"

namespace troyka::players_reference {

struct Square {
  int player = -1;  // -1: empty
  int piece = -1;
  bool blocked = false;  // a shot's arrow: no piece stands here again
  bool operator==(const Square&) const = default;
};

// The pawn games: every piece is a Breakthrough pawn of type 0, whose moves the reference knows.
// With `to_hand`, a pawn taken goes to its taker's hand, and instead of moving a player may drop a
// pawn from its hand on an empty cell of its two home rows (the two lines of its own edge); with
// `scores`, a pawn that reaches its far row (the edge opposite its own) scores a point for its
// player, the game's first counter, and leaves the board.
struct Pawns {
  bool on = false;
  bool to_hand = false;
  bool scores = false;
};

struct Position {
  Pawns pawns;
  std::vector<int> hand;   // by player: the pawns in its hand
  std::vector<int> score;  // by player: its points
  std::vector<Square> board;
  int to_move = 0;
  int actions_left = 1;  // the decisions left in the turn of the player to move, the next one included
  std::uint32_t ply = 0;
  std::vector<int> out;  // the players out, in the order they went out
  bool over = false;
  int winner = kNoWinner;  // a player or kDraw once over
  int ended_by = -1;       // the end rule that decided, or kEndedByNoMoves
  int phase = 0;           // an index into lang::Rules::phases
};

// from, to, piece, capture, the cell shot (-1: none); a placement has from == to
using MoveKey = std::tuple<int, int, int, bool, int>;

inline bool is_out(const Position& position, int player) {
  return std::find(position.out.begin(), position.out.end(), player) != position.out.end();
}

inline bool lands(lang::Target target, int mover, const Square& square) {
  if (square.blocked) return false;
  const bool empty = square.player < 0, own = square.player == mover, other = !empty && !own;
  switch (target) {
    case lang::Target::Empty: return empty;
    case lang::Target::Enemy: return other;
    case lang::Target::Friend: return own;
    case lang::Target::NotFriend: return !own;
    case lang::Target::Any: return true;
    case lang::Target::Occupied: return !empty;
  }
  return false;
}

// The cells a shot of `rule` reaches from `from`, on `board` (where the shooter has left its cell).
inline std::vector<int> shots(const lang::Rules& rules, const lang::MoveRule& rule, int mover,
                              const std::vector<Square>& board, int from) {
  std::vector<int> cells;
  for (const lang::Offset offset : rule.shot_offsets[static_cast<std::size_t>(mover)])
    for (int to = rules.next_cell(from, offset); to >= 0; to = rules.next_cell(to, offset)) {
      const Square& there = board[static_cast<std::size_t>(to)];
      if (there.player >= 0 || there.blocked) break;
      cells.push_back(to);
      if (rule.shot_kind == lang::MoveKind::Step) break;
    }
  return cells;
}

// Where a player's edges are: its own (home) and the opposite (far), as distances from its own.
inline int distance_from_home(const lang::Rules& rules, int player, int cell) {
  const lang::Offset forward = rules.players[static_cast<std::size_t>(player)].forward;
  const int column = cell % rules.width, row = cell / rules.width;
  if (forward.dy != 0) return forward.dy > 0 ? row : rules.height - 1 - row;
  return forward.dx > 0 ? column : rules.width - 1 - column;
}

inline bool on_far_row(const lang::Rules& rules, int player, int cell) {
  const lang::Offset forward = rules.players[static_cast<std::size_t>(player)].forward;
  return distance_from_home(rules, player, cell) == (forward.dy != 0 ? rules.height : rules.width) - 1;
}

// A pawn's steps: forward, forward-left and forward-right onto an empty cell, and forward-left and
// forward-right onto another player's piece, which is taken. A drop is from == to.
inline std::vector<MoveKey> pawn_moves(const lang::Rules& rules, const Position& position) {
  std::vector<MoveKey> found;
  const int mover = position.to_move;
  const lang::Offset forward = rules.players[static_cast<std::size_t>(mover)].forward;
  const lang::Offset left{-forward.dy, forward.dx};
  const std::vector<lang::Offset> diagonals = {{forward.dx + left.dx, forward.dy + left.dy},
                                               {forward.dx - left.dx, forward.dy - left.dy}};
  for (int from = 0; from < rules.cells(); ++from) {
    const Square& square = position.board[static_cast<std::size_t>(from)];
    if (square.player != mover) continue;
    if (const int to = rules.next_cell(from, forward);
        to >= 0 && position.board[static_cast<std::size_t>(to)].player < 0)
      found.emplace_back(from, to, 0, false, -1);
    for (const lang::Offset diagonal : diagonals)
      if (const int to = rules.next_cell(from, diagonal); to >= 0) {
        const int owner = position.board[static_cast<std::size_t>(to)].player;
        if (owner != mover) found.emplace_back(from, to, 0, owner >= 0, -1);
      }
  }
  if (position.pawns.to_hand && position.hand[static_cast<std::size_t>(mover)] > 0)
    for (int cell = 0; cell < rules.cells(); ++cell)
      if (position.board[static_cast<std::size_t>(cell)].player < 0 && distance_from_home(rules, mover, cell) < 2)
        found.emplace_back(cell, cell, 0, false, -1);
  std::sort(found.begin(), found.end());
  return found;
}

inline std::vector<MoveKey> moves(const lang::Rules& rules, const Position& position) {
  std::vector<MoveKey> found;
  if (position.over) return found;
  if (position.pawns.on) return pawn_moves(rules, position);
  const int mover = position.to_move;
  if (!rules.phases.empty() && position.phase == 0) {  // the placement phase
    for (int cell = 0; cell < rules.cells(); ++cell)
      if (lands(lang::Target::Empty, mover, position.board[static_cast<std::size_t>(cell)]))
        found.emplace_back(cell, cell, 0, false, -1);
    return found;
  }
  for (int from = 0; from < rules.cells(); ++from) {
    const Square& square = position.board[static_cast<std::size_t>(from)];
    if (square.player != mover) continue;
    for (const lang::MoveRule& rule : rules.pieces[static_cast<std::size_t>(square.piece)].moves) {
      if ((rule.kind != lang::MoveKind::Step && rule.kind != lang::MoveKind::Slide) || !rule.tests.empty())
        throw std::logic_error("the players' reference plays steps and slides without cell tests only");
      if (rule.shoots && rule.target != lang::Target::Empty)
        throw std::logic_error("the players' reference shoots after moves to empty cells only");
      for (const lang::Offset offset : rule.offsets[static_cast<std::size_t>(mover)]) {
        for (int to = rules.next_cell(from, offset); to >= 0; to = rules.next_cell(to, offset)) {
          const Square& there = position.board[static_cast<std::size_t>(to)];
          if (lands(rule.target, mover, there)) {
            if (!rule.shoots) {
              found.emplace_back(from, to, square.piece, there.player >= 0, -1);
            } else {
              std::vector<Square> left = position.board;
              left[static_cast<std::size_t>(from)] = {};
              left[static_cast<std::size_t>(to)] = square;
              for (const int shot : shots(rules, rule, mover, left, to))
                found.emplace_back(from, to, square.piece, false, shot);
            }
          }
          if (rule.kind == lang::MoveKind::Step || there.player >= 0 || there.blocked) break;
        }
      }
    }
  }
  std::sort(found.begin(), found.end());
  found.erase(std::unique(found.begin(), found.end()), found.end());
  return found;
}

inline int next_in_play(const Position& position, int player, int players) {
  for (int step = 1; step <= players; ++step)
    if (!is_out(position, (player + step) % players)) return (player + step) % players;
  return player;
}

inline bool holds(const lang::Rules& rules, const lang::EndRule& rule, const Position& position, int subject) {
  switch (rule.kind) {
    case lang::EndKind::Reach:
      for (const int cell : rule.region[static_cast<std::size_t>(subject)]) {
        const Square& square = position.board[static_cast<std::size_t>(cell)];
        if (square.player == subject && (rule.piece < 0 || square.piece == rule.piece)) return true;
      }
      return false;
    case lang::EndKind::OpponentHasNoPieces:
      return std::all_of(position.board.begin(), position.board.end(),
                         [&](const Square& square) { return square.player < 0 || square.player == subject; });
    case lang::EndKind::NoLegalMoves: return subject == position.to_move && moves(rules, position).empty();
    case lang::EndKind::PlyLimit: return position.ply >= static_cast<std::uint32_t>(rule.ply_limit);
    case lang::EndKind::Compare: {
      const int value =
          rule.counter >= 0
              ? position.score[static_cast<std::size_t>(subject)]
              : static_cast<int>(std::count_if(position.board.begin(), position.board.end(),
                                               [&](const Square& square) { return square.player == subject; }));
      return lang::compare(value, rule.comparison, rule.value);
    }
    default:
      throw std::logic_error(
          "the players' reference reads reach, no pieces, no legal moves, ply limits and comparisons");
  }
}

// Each player's pieces on the board.
inline std::vector<int> pieces_of(const Position& position, int players) {
  std::vector<int> pieces(static_cast<std::size_t>(players));
  for (const Square& square : position.board)
    if (square.player >= 0) ++pieces[static_cast<std::size_t>(square.player)];
  return pieces;
}

// The player still playing with the most pieces; kDraw when several share the most.
inline int most_pieces(const Position& position, int players) {
  const std::vector<int> pieces = pieces_of(position, players);
  int most = -1, holders = 0;
  for (int player = 0; player < players; ++player) {
    if (is_out(position, player)) continue;
    const int count = pieces[static_cast<std::size_t>(player)];
    if (count > most) most = count, holders = 0;
    holders += count == most;
  }
  for (int player = 0; player < players; ++player)
    if (!is_out(position, player) && pieces[static_cast<std::size_t>(player)] == most && holders == 1) return player;
  return kDraw;
}

// Decides the end after `mover`'s move (or, at the start, the last player's): the rules in file
// order, each for the mover and then the others in turn order.
inline void decide(const lang::Rules& rules, Position& position, int mover) {
  const int players = rules.player_count();
  for (std::size_t index = 0; index < rules.end.size(); ++index) {
    const lang::EndRule& rule = rules.end[index];
    for (int step = 0; step < players; ++step) {
      const int subject = (mover + step) % players;
      if (is_out(position, subject) || !holds(rules, rule, position, subject)) continue;
      if (rule.outcome != lang::Outcome::Loss) {
        position.over = true;
        position.winner = rule.outcome == lang::Outcome::Win          ? subject
                          : rule.outcome == lang::Outcome::MostPieces ? most_pieces(position, players)
                                                                      : kDraw;
        position.ended_by = static_cast<int>(index);
        return;
      }
      position.out.push_back(subject);
      if (static_cast<int>(position.out.size()) == players - 1) {  // the one left wins, and has the turn
        position.over = true;
        position.winner = position.to_move = next_in_play(position, subject, players);
        position.ended_by = static_cast<int>(index);
        return;
      }
      if (subject == position.to_move) {  // the next player starts a whole turn
        position.to_move = next_in_play(position, subject, players);
        position.actions_left = rules.turn_actions;
      }
      return decide(rules, position, mover);  // asked again, of whoever is to move now
    }
  }
  if (moves(rules, position).empty()) {
    position.over = true;
    position.winner = kDraw;
    position.ended_by = kEndedByNoMoves;
  }
}

inline Position start(const lang::Rules& rules, Pawns pawns = {}) {
  if (!rules.holes.empty() || std::any_of(rules.pieces.begin(), rules.pieces.end(),
                                          [](const lang::PieceType& type) { return type.promote_to >= 0; }))
    throw std::logic_error("the players' reference plays boards without holes and pieces that do not promote");
  Position position;
  position.pawns = pawns;
  position.hand.resize(static_cast<std::size_t>(rules.player_count()));
  position.score.resize(static_cast<std::size_t>(rules.player_count()));
  position.board.resize(static_cast<std::size_t>(rules.cells()));
  for (const lang::Placement& placement : rules.setup)
    position.board[static_cast<std::size_t>(placement.cell)] = {placement.player, placement.piece};
  position.actions_left = rules.first_turn_actions;
  decide(rules, position, rules.player_count() - 1);
  return position;
}

// Moves a game with phases on when every player still playing is asked what the current phase's
// (until ...) asks, and each has it.
inline void advance_phase(const lang::Rules& rules, Position& position) {
  if (static_cast<std::size_t>(position.phase) + 1 >= rules.phases.size()) return;
  for (const lang::EndRule& condition : rules.phases[static_cast<std::size_t>(position.phase)].until)
    for (int player = 0; player < rules.player_count(); ++player)
      if (!is_out(position, player) && !holds(rules, condition, position, player)) return;
  ++position.phase;
}

inline Position play(const lang::Rules& rules, const Position& position, const MoveKey& move) {
  const auto [from, to, piece, capture, shot] = move;
  Position after = position;
  const auto mover = static_cast<std::size_t>(position.to_move);
  const int taken = position.board[static_cast<std::size_t>(to)].player;
  after.board[static_cast<std::size_t>(to)] = {position.to_move, piece};
  if (from != to) after.board[static_cast<std::size_t>(from)] = {};
  if (shot >= 0) after.board[static_cast<std::size_t>(shot)].blocked = true;
  if (position.pawns.to_hand) after.hand[mover] += (taken >= 0) - (from == to);
  if (position.pawns.scores && on_far_row(rules, position.to_move, to)) {
    after.board[static_cast<std::size_t>(to)] = {};
    ++after.score[mover];
  }
  advance_phase(rules, after);
  ++after.ply;
  // A turn of several decisions ((turn (actions N))) keeps the player to move until its last.
  if (--after.actions_left == 0) {
    after.to_move = next_in_play(position, position.to_move, rules.player_count());
    after.actions_left = rules.turn_actions;
  }
  decide(rules, after, position.to_move);
  return after;
}

inline std::uint64_t perft(const lang::Rules& rules, const Position& position, int depth) {
  if (depth == 0) return 1;
  std::uint64_t nodes = 0;
  for (const MoveKey& move : moves(rules, position))
    nodes += depth == 1 ? 1 : perft(rules, play(rules, position, move), depth - 1);
  return nodes;
}

}  // namespace troyka::players_reference
