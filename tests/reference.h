// A slow reference for any game, written straight from the checked rules (lang/rules.h), cell by
// cell on a plain array: no bitboards, no compiled jumps, nothing shared with the interpreter but
// lang::Rules. The tests count perft with it for games without published figures, and the fuzzer
// compares every position it plays against it. Extend it with every new rule mechanism.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <tuple>
#include <vector>

#include "interpreter/program.h"
#include "lang/rules.h"

namespace troyka::reference {

// Square::player of a cell a shot has blocked: it holds no player's piece, and nothing enters it.
inline constexpr int kBlocked = 2;

// Who stands on a cell: the player (-1 for none, kBlocked for a blocked cell) and the piece type.
struct Square {
  int player = -1;
  int piece = -1;
};
using Board = std::vector<Square>;

// from, to, piece, capture, the cells of the pieces a chain of jumps captures (bit c for cell c),
// and the cell shot to (-1 for none); a drop has from == to.
using MoveKey = std::tuple<int, int, int, bool, std::uint64_t, int>;

inline MoveKey key_of(const Move& move) {
  return {move.from, move.to, move.piece, move.capture, move.jumped, move.has_shot() ? move.shot : -1};
}

inline bool lands(lang::Target target, int mover, const Square& square) {
  switch (target) {
    case lang::Target::Empty: return square.player < 0;
    case lang::Target::Enemy: return square.player == 1 - mover;
    case lang::Target::Friend: return square.player == mover;
    case lang::Target::NotFriend: return square.player < 0 || square.player == 1 - mover;
    case lang::Target::Any: return square.player != kBlocked;
    case lang::Target::Occupied: return square.player == mover || square.player == 1 - mover;
  }
  return false;
}

// Whether (column, row) is a cell of the board: inside the grid and not a hole. Everything below
// asks this before it looks at a cell, so a hole is met as the board's edge is: nothing moves,
// drops, flanks, shoots, lines up or connects through it; a leap only asks it of where it lands,
// and a drop's gravity rests on it.
inline bool on_board(const lang::Rules& rules, int column, int row) {
  return column >= 0 && column < rules.width && row >= 0 && row < rules.height &&
         !rules.is_hole(rules.cell(column, row));
}

// Whether every cell test of `rule` holds for a piece of `mover` starting on `from`: each tested
// cell is on the board and holds what its target allows.
inline bool cell_tests_hold(const lang::Rules& rules, const Board& board, int mover, int from,
                            const lang::MoveRule& rule) {
  return std::all_of(rule.tests.begin(), rule.tests.end(), [&](const lang::CellTest& test) {
    const lang::Offset at = test.offset[static_cast<std::size_t>(mover)];
    const int column = from % rules.width + at.dx, row = from / rules.width + at.dy;
    // `any` asks only that the cell is on the board: a blocked cell is.
    return on_board(rules, column, row) &&
           (test.target == lang::Target::Any ||
            lands(test.target, mover, board[static_cast<std::size_t>(rules.cell(column, row))]));
  });
}

// The enemy pieces a piece of `mover` dropped on `cell` would flank along `directions`: walking
// each direction from the cell, a run of enemy pieces ended by one of the mover's.
inline std::vector<int> flanked(const lang::Rules& rules, const Board& board, int mover, int cell,
                                const std::vector<lang::Offset>& directions) {
  std::vector<int> cells;
  for (const lang::Offset d : directions) {
    std::vector<int> run;
    int column = cell % rules.width + d.dx, row = cell / rules.width + d.dy;
    for (; on_board(rules, column, row); column += d.dx, row += d.dy) {
      const int at = rules.cell(column, row);
      if (board[static_cast<std::size_t>(at)].player != 1 - mover) break;
      run.push_back(at);
    }
    if (on_board(rules, column, row) && board[static_cast<std::size_t>(rules.cell(column, row))].player == mover)
      cells.insert(cells.end(), run.begin(), run.end());
  }
  return cells;
}

// Adds the drops of `rule`: every empty cell of its region whose neighbour in the direction of
// gravity, if it has one, is occupied or off the board, and which flanks a line if it must.
inline void add_drops(const lang::Rules& rules, const Board& board, int mover, int piece, const lang::MoveRule& rule,
                      std::vector<MoveKey>& found) {
  for (const int cell : rule.region[mover]) {
    if (board[static_cast<std::size_t>(cell)].player >= 0 || !on_board(rules, cell % rules.width, cell / rules.width))
      continue;
    bool supported = true;
    for (const lang::Offset gravity : rule.offsets[mover]) {
      const int column = cell % rules.width + gravity.dx, row = cell / rules.width + gravity.dy;
      supported = !on_board(rules, column, row) || board[static_cast<std::size_t>(rules.cell(column, row))].player >= 0;
    }
    const std::vector<lang::Offset>& lines = rule.flanking[mover];
    if (!lines.empty() && flanked(rules, board, mover, cell, lines).empty()) continue;
    if (supported) found.emplace_back(cell, cell, piece, false, 0, -1);
  }
}

// Adds the move of `piece` from `from` to `to` by `rule`: as it is, or, when the rule shoots, once
// for each cell the shot reaches from `to` with the piece moved (the cell it left empty).
inline void add_move(const lang::Rules& rules, const Board& board, int mover, const lang::MoveRule& rule, int from,
                     int to, std::vector<MoveKey>& found) {
  const Square& moving = board[static_cast<std::size_t>(from)];
  const bool capture = board[static_cast<std::size_t>(to)].player >= 0;
  if (!rule.shoots) {
    found.emplace_back(from, to, moving.piece, capture, 0, -1);
    return;
  }
  Board after = board;
  after[static_cast<std::size_t>(to)] = moving;
  after[static_cast<std::size_t>(from)] = {};
  for (const lang::Offset offset : rule.shot_offsets[mover]) {
    int column = to % rules.width, row = to / rules.width;
    while (true) {
      column += offset.dx;
      row += offset.dy;
      if (!on_board(rules, column, row) || after[static_cast<std::size_t>(rules.cell(column, row))].player >= 0) break;
      found.emplace_back(from, to, moving.piece, capture, 0, rules.cell(column, row));
      if (rule.shot_kind != lang::MoveKind::Slide) break;
    }
  }
}

inline bool in_region(const lang::CellList& cells, int cell) {
  return std::find(cells.begin(), cells.end(), cell) != cells.end();
}

// The piece of `mover` that left `from` as a `piece` stands on `at`, having jumped the pieces of
// `jumped` (still on the board): adds every way its chain of jumps can end. A jump by a rule
// without chain, or onto a cell where the piece promotes, ends it; otherwise it ends where no
// chain jump goes on.
inline void add_chains(const lang::Rules& rules, const Board& board, int mover, int from, int piece, int at,
                       std::uint64_t jumped, std::vector<MoveKey>& found) {
  const lang::PieceType& type = rules.pieces[static_cast<std::size_t>(piece)];
  bool went_on = false;
  for (const lang::MoveRule& rule : type.moves) {
    if (rule.kind != lang::MoveKind::JumpOver || (jumped && !rule.chain)) continue;
    for (const lang::Offset d : rule.offsets[mover]) {
      const int column = at % rules.width, row = at / rules.width;
      if (!on_board(rules, column + 2 * d.dx, row + 2 * d.dy)) continue;
      const int over = rules.cell(column + d.dx, row + d.dy), landing = rules.cell(column + 2 * d.dx, row + 2 * d.dy);
      const bool landing_empty = board[static_cast<std::size_t>(landing)].player < 0 || landing == from;
      if (board[static_cast<std::size_t>(over)].player != 1 - mover || (jumped >> over & 1) || !landing_empty) continue;
      went_on = true;
      const std::uint64_t now_jumped = jumped | std::uint64_t{1} << over;
      if (!rule.chain || (type.promote_to >= 0 && in_region(type.promote_region[mover], landing)))
        found.emplace_back(from, landing, piece, true, now_jumped, -1);
      else
        add_chains(rules, board, mover, from, piece, landing, now_jumped, found);
    }
  }
  if (!went_on && jumped) found.emplace_back(from, at, piece, true, jumped, -1);
}

// Every move of `mover` on the board, sorted, each once.
inline std::vector<MoveKey> board_moves(const lang::Rules& rules, const Board& board, int mover) {
  std::vector<MoveKey> found;
  for (std::size_t piece = 0; piece < rules.pieces.size(); ++piece)
    for (const lang::MoveRule& rule : rules.pieces[piece].moves)
      if (rule.kind == lang::MoveKind::Drop) add_drops(rules, board, mover, static_cast<int>(piece), rule, found);
  for (int from = 0; from < rules.cells(); ++from) {
    const Square& square = board[static_cast<std::size_t>(from)];
    if (square.player != mover) continue;
    add_chains(rules, board, mover, from, square.piece, from, 0, found);
    for (const lang::MoveRule& rule : rules.pieces[static_cast<std::size_t>(square.piece)].moves) {
      // Drops do not move the pieces on the board; jumps over pieces are added above.
      if (rule.kind == lang::MoveKind::Drop || rule.kind == lang::MoveKind::JumpOver) continue;
      if (!cell_tests_hold(rules, board, mover, from, rule)) continue;
      for (const lang::Offset offset : rule.offsets[mover]) {
        int column = from % rules.width, row = from / rules.width;
        while (true) {
          column += offset.dx;
          row += offset.dy;
          if (!on_board(rules, column, row)) break;
          const int to = rules.cell(column, row);
          const Square& there = board[static_cast<std::size_t>(to)];
          if (lands(rule.target, mover, there)) add_move(rules, board, mover, rule, from, to, found);
          if (rule.kind != lang::MoveKind::Slide || there.player >= 0) break;
        }
      }
    }
  }
  std::sort(found.begin(), found.end());
  found.erase(std::unique(found.begin(), found.end()), found.end());
  return found;
}

// The pass, a move off the board: from == to == the number of cells.
inline MoveKey pass(const lang::Rules& rules) { return {rules.cells(), rules.cells(), 0, false, 0, -1}; }
// The swap of (swap-rule), the other move off the board: from == to == the number of cells + 1.
inline MoveKey swap(const lang::Rules& rules) { return {rules.cells() + 1, rules.cells() + 1, 0, false, 0, -1}; }

// Every legal move of `mover` at `ply`, sorted, each once; whether the game is over is not asked.
// With (must-capture), only the captures when there are any. With (pass-when-stuck), a mover
// without a move on the board passes if its opponent has one; with (swap-rule), the second player
// at ply 1 may also swap.
inline std::vector<MoveKey> moves(const lang::Rules& rules, const Board& board, int mover, std::uint32_t ply) {
  std::vector<MoveKey> found = board_moves(rules, board, mover);
  const auto captures = [](const MoveKey& move) { return std::get<3>(move); };
  if (rules.must_capture && std::any_of(found.begin(), found.end(), captures))
    found.erase(std::remove_if(found.begin(), found.end(), [&](const MoveKey& move) { return !captures(move); }),
                found.end());
  if (rules.swap_rule && ply == 1 && mover == 1) found.push_back(swap(rules));
  if (found.empty() && rules.pass_when_stuck && !board_moves(rules, board, 1 - mover).empty())
    found.push_back(pass(rules));
  return found;
}

// Each player's value of each counter of the game (lang::Rules::counters).
using Counters = std::array<std::array<int, lang::kMaxCounters>, lang::kPlayers>;

// The counters as a game starts: each at the low end of its range.
inline Counters starting_counters(const lang::Rules& rules) {
  Counters counters{};
  for (auto& of_player : counters)
    for (std::size_t counter = 0; counter < rules.counters.size(); ++counter)
      of_player[counter] = rules.counters[counter].low;
  return counters;
}

struct Decision {
  bool over = false;
  int winner = kNoWinner;
  int ended_by = -1;
};

// Whether `subject` has a line of rule.length to rule.longest pieces (of rule.piece, if set) along a
// row, a column or a diagonal: walks every line from its first cell.
inline bool has_line(const lang::Rules& rules, const lang::EndRule& rule, const Board& board, int subject) {
  const auto counts = [&](int column, int row) {
    if (!on_board(rules, column, row)) return false;
    const Square& square = board[static_cast<std::size_t>(rules.cell(column, row))];
    return square.player == subject && (rule.piece < 0 || square.piece == rule.piece);
  };
  for (int cell = 0; cell < rules.cells(); ++cell)
    for (const lang::Offset d : lang::line_directions(rules.shape)) {
      const int column = cell % rules.width, row = cell / rules.width;
      if (!counts(column, row) || counts(column - d.dx, row - d.dy)) continue;
      int length = 0;
      while (counts(column + length * d.dx, row + length * d.dy)) ++length;
      if (length >= rule.length && (rule.longest == 0 || length <= rule.longest)) return true;
    }
  return false;
}

// Whether `subject` has a chain of pieces (of rule.piece, if set), each a neighbour of the next,
// from a cell of rule.region to one of rule.other_region: a depth-first search from each cell.
inline bool connects(const lang::Rules& rules, const lang::EndRule& rule, const Board& board, int subject) {
  const auto counts = [&](int cell) {
    const Square& square = board[static_cast<std::size_t>(cell)];
    return square.player == subject && (rule.piece < 0 || square.piece == rule.piece);
  };
  std::vector<bool> seen(static_cast<std::size_t>(rules.cells()));
  std::vector<int> stack;
  for (const int start : rule.region[subject])
    if (counts(start)) stack.push_back(start);
  while (!stack.empty()) {
    const int cell = stack.back();
    stack.pop_back();
    if (seen[static_cast<std::size_t>(cell)]) continue;
    seen[static_cast<std::size_t>(cell)] = true;
    const auto& goal = rule.other_region[subject];
    if (std::find(goal.begin(), goal.end(), cell) != goal.end()) return true;
    for (const lang::Offset d : lang::neighbour_offsets(rules.shape)) {
      const int column = cell % rules.width + d.dx, row = cell / rules.width + d.dy;
      if (on_board(rules, column, row) && counts(rules.cell(column, row))) stack.push_back(rules.cell(column, row));
    }
  }
  return false;
}

// Whether the player's pieces (of the rule's type) are one group: a flood from one of them, over
// touching cells, reaches them all. No piece is no group.
inline bool one_group(const lang::Rules& rules, const lang::EndRule& rule, const Board& board, int subject) {
  const auto counts = [&](int cell) {
    const Square& square = board[static_cast<std::size_t>(cell)];
    return square.player == subject && (rule.piece < 0 || square.piece == rule.piece);
  };
  std::vector<int> pieces;
  for (int cell = 0; cell < rules.cells(); ++cell)
    if (counts(cell)) pieces.push_back(cell);
  if (pieces.empty()) return false;
  std::vector<bool> seen(static_cast<std::size_t>(rules.cells()));
  std::vector<int> stack{pieces.front()};
  std::size_t reached = 0;
  while (!stack.empty()) {
    const int cell = stack.back();
    stack.pop_back();
    if (seen[static_cast<std::size_t>(cell)]) continue;
    seen[static_cast<std::size_t>(cell)] = true;
    ++reached;
    for (const lang::Offset d : lang::neighbour_offsets(rules.shape)) {
      const int column = cell % rules.width + d.dx, row = cell / rules.width + d.dy;
      if (on_board(rules, column, row) && counts(rules.cell(column, row))) stack.push_back(rules.cell(column, row));
    }
  }
  return reached == pieces.size();
}

// Whether `value` compares with `bound` as `comparison` says.
inline bool compares(int value, lang::Comparison comparison, int bound) {
  switch (comparison) {
    case lang::Comparison::Less: return value < bound;
    case lang::Comparison::LessOrEqual: return value <= bound;
    case lang::Comparison::Equal: return value == bound;
    case lang::Comparison::GreaterOrEqual: return value >= bound;
    case lang::Comparison::Greater: return value > bound;
  }
  return false;
}

// Whether an end condition holds for `subject` (the player to move is `to_move`; `quiet` plies
// have passed without a capture or a move of the quiet-moves rule's piece).
inline bool holds(const lang::Rules& rules, const lang::EndRule& rule, const Board& board, int subject, int to_move,
                  std::uint32_t ply, std::uint32_t quiet, const Counters& counters) {
  const auto part_holds = [&](const lang::EndRule& part) {
    return holds(rules, part, board, subject, to_move, ply, quiet, counters);
  };
  switch (rule.kind) {
    case lang::EndKind::Reach:
      return std::any_of(rule.region[subject].begin(), rule.region[subject].end(), [&](int cell) {
        const Square& square = board[static_cast<std::size_t>(cell)];
        return square.player == subject && (rule.piece < 0 || square.piece == rule.piece);
      });
    case lang::EndKind::OpponentHasNoPieces:
      return std::none_of(board.begin(), board.end(), [&](const Square& s) { return s.player == 1 - subject; });
    case lang::EndKind::NoLegalMoves: return subject == to_move && moves(rules, board, to_move, ply).empty();
    case lang::EndKind::PlyLimit: return ply >= static_cast<std::uint32_t>(rule.ply_limit);
    case lang::EndKind::InARow: return has_line(rules, rule, board, subject);
    case lang::EndKind::Connect: return connects(rules, rule, board, subject);
    case lang::EndKind::Connected: return one_group(rules, rule, board, subject);
    case lang::EndKind::QuietMoves: return quiet >= static_cast<std::uint32_t>(rule.ply_limit);
    case lang::EndKind::Lost:
      return std::none_of(board.begin(), board.end(),
                          [&](const Square& s) { return s.player == subject && s.piece == rule.piece; });
    case lang::EndKind::Compare: {
      const int value = rule.counter < 0
                            ? static_cast<int>(std::count_if(board.begin(), board.end(),
                                                             [&](const Square& s) { return s.player == subject; }))
                            : counters[static_cast<std::size_t>(subject)][static_cast<std::size_t>(rule.counter)];
      return compares(value, rule.comparison, rule.value);
    }
    case lang::EndKind::All: return std::all_of(rule.parts.begin(), rule.parts.end(), part_holds);
    case lang::EndKind::Any: return std::any_of(rule.parts.begin(), rule.parts.end(), part_holds);
    case lang::EndKind::Not: return !part_holds(rule.parts.front());
    case lang::EndKind::Repetition: return false;  // a position alone has no history (tests/repetition_test.cpp)
    case lang::EndKind::InCheck: return false;     // tests/reference_check.h
    case lang::EndKind::CountIn: return false;     // counts per cell: tests/reference_kalah.h
  }
  return false;
}

// The end rules as lang/rules.h states them: in file order, each for the player who just moved
// (`mover`; the player not to move when -1) and then for the other; the first that holds decides.
// With none, a player to move without a move ends the game drawn.
inline Decision decision(const lang::Rules& rules, const Board& board, int to_move, std::uint32_t ply,
                         std::uint32_t quiet = 0, const Counters& counters = {}, int mover = -1) {
  if (mover < 0) mover = 1 - to_move;
  for (std::size_t index = 0; index < rules.end.size(); ++index) {
    const lang::EndRule& rule = rules.end[index];
    for (const int subject : {mover, 1 - mover}) {
      if (rule.only_player >= 0 && rule.only_player != subject) continue;
      if (!holds(rules, rule, board, subject, to_move, ply, quiet, counters)) continue;
      std::array<int, lang::kPlayers> count{};
      for (const Square& square : board)
        if (square.player == 0 || square.player == 1) ++count[static_cast<std::size_t>(square.player)];
      const int most = count[0] > count[1] ? 0 : count[1] > count[0] ? 1 : kDraw;
      const int winner = rule.outcome == lang::Outcome::Win          ? subject
                         : rule.outcome == lang::Outcome::Loss       ? 1 - subject
                         : rule.outcome == lang::Outcome::MostPieces ? most
                                                                     : kDraw;
      return {true, winner, static_cast<int>(index)};
    }
  }
  if (moves(rules, board, to_move, ply).empty()) return {true, kDraw, kEndedByNoMoves};
  return {};
}

// A whole position of the reference game.
struct Position {
  Board board;
  int to_move = 0;
  std::uint32_t ply = 0;
  std::uint32_t quiet = 0;  // plies without a capture or a move of the quiet-moves rule's piece
  Counters counters{};
  Decision end;
  int actions_left = 1;  // the moves the player to move still makes in this turn, (turn (actions N))
};

// Pieces that leave the board and score (games/breakthrough-score.game, whose moves are core rules
// that this reference does not read): a move that lands on `region` of its player takes the piece
// off the board instead, and adds `points` to the player's counter `counter`, which stops at the
// top of its range. Given to play() and perft() with the game's rules, whose pieces carry the
// same moves as keyword forms.
struct Exit {
  lang::PlayerRegion region;
  int counter = 0;
  int points = 1;
};

inline Position start(const lang::Rules& rules) {
  Position position;
  position.actions_left = rules.first_turn_actions;
  position.board.resize(static_cast<std::size_t>(rules.cells()));
  for (const lang::Placement& placement : rules.setup)
    position.board[static_cast<std::size_t>(placement.cell)] = {placement.player, placement.piece};
  position.counters = starting_counters(rules);
  position.end = decision(rules, position.board, position.to_move, position.ply, 0, position.counters);
  return position;
}

// The position after `move`, a legal move of the player to move (a drop empties and fills one cell,
// a flanking drop also flips what it flanks, a chain removes what it jumped, a piece ending on its
// promotion region becomes its promoted type, a shot blocks its cell, a pass changes only the
// player to move, the swap gives each piece of the first player to the second, at (row, column)
// for (column, row)); the same player moves again while its turn has moves left.
inline Position play(const lang::Rules& rules, Position position, const MoveKey& move, const Exit* exit = nullptr) {
  const auto [from, to, piece, capture, jumped, shot] = move;
  int quiet_piece = -1;
  for (const lang::EndRule& rule : rules.end)
    if (rule.kind == lang::EndKind::QuietMoves) quiet_piece = rule.piece;
  position.quiet = capture || piece == quiet_piece ? 0 : position.quiet + 1;
  if (move == swap(rules)) {
    Board swapped(position.board.size());
    for (int cell = 0; cell < rules.cells(); ++cell) {
      const Square& square = position.board[static_cast<std::size_t>(cell)];
      const int mirrored = rules.cell(cell / rules.width, cell % rules.width);
      if (square.player == 0) swapped[static_cast<std::size_t>(mirrored)] = {1, square.piece};
      if (square.player == 1) swapped[static_cast<std::size_t>(cell)] = square;
    }
    position.board = swapped;
  } else if (move != pass(rules)) {
    if (from == to)
      for (const lang::MoveRule& rule : rules.pieces[static_cast<std::size_t>(piece)].moves)
        if (rule.kind == lang::MoveKind::Drop)
          for (const int cell : flanked(rules, position.board, position.to_move, to, rule.flanking[position.to_move]))
            position.board[static_cast<std::size_t>(cell)].player = position.to_move;
    for (int cell = 0; cell < std::min(rules.cells(), 64); ++cell)  // chains exist on boards of 64 cells at most
      if (jumped >> cell & 1) position.board[static_cast<std::size_t>(cell)] = {};
    const lang::PieceType& type = rules.pieces[static_cast<std::size_t>(piece)];
    const bool promotes = type.promote_to >= 0 && in_region(type.promote_region[position.to_move], to);
    position.board[static_cast<std::size_t>(from)] = {};
    position.board[static_cast<std::size_t>(to)] = {position.to_move, promotes ? type.promote_to : piece};
    if (shot >= 0) position.board[static_cast<std::size_t>(shot)] = {kBlocked, -1};
    if (exit && in_region(exit->region[position.to_move], to)) {
      position.board[static_cast<std::size_t>(to)] = {};
      int& score =
          position.counters[static_cast<std::size_t>(position.to_move)][static_cast<std::size_t>(exit->counter)];
      score = std::min(score + exit->points, rules.counters[static_cast<std::size_t>(exit->counter)].high);
    }
  }
  // The turn passes on once its player has made all its moves.
  const int mover = position.to_move;
  if (--position.actions_left == 0) {
    position.to_move = 1 - mover;
    position.actions_left = rules.turn_actions;
  }
  ++position.ply;
  position.end =
      decision(rules, position.board, position.to_move, position.ply, position.quiet, position.counters, mover);
  return position;
}

// Move sequences of length `depth`; a finished game has no moves.
inline std::uint64_t perft(const lang::Rules& rules, const Position& position, int depth, const Exit* exit = nullptr) {
  if (depth == 0) return 1;
  if (position.end.over) return 0;
  const std::vector<MoveKey> listed = moves(rules, position.board, position.to_move, position.ply);
  if (depth == 1) return listed.size();
  std::uint64_t nodes = 0;
  for (const MoveKey& move : listed) nodes += perft(rules, play(rules, position, move, exit), depth - 1, exit);
  return nodes;
}

}  // namespace troyka::reference
