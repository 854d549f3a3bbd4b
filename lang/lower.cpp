// The lowering of keyword forms onto the core, form by form as docs/core-design.md §1.4 writes it.
// It works on checked lang::Rules, so a ZRF file, which lang/zrf.cpp reads into the same Rules, is
// lowered by the same code.
//
// lang::Rules holds every direction and region resolved per player. The core writes them once for
// all the players of a rule (a named board direction, a named player direction, a leap offset; a
// list of cells, home or far rows), so each is written in the first form that means the same thing
// for every player. When one has no such form (a ZRF mirror symmetry, a drop zone that differs per
// player), the rule is lowered again once for each player, with (only PLAYER).
#include <algorithm>
#include <array>
#include <cstdlib>
#include <limits>

#include "lang/core.h"
#include "lang/directions.h"

namespace troyka::lang::core {
namespace {

Expr with_region(Op op, Region region) {
  Expr expr = node(op);
  expr.region = std::move(region);
  return expr;
}

Expr go(std::vector<Direction> directions) {
  Expr expr = node(Op::Go);
  expr.directions = std::move(directions);
  return expr;
}

Expr go_along(const char* variable) {
  Expr expr = node(Op::Go);
  expr.variable = variable;
  return expr;
}

// (any-direction VARIABLE DIRECTIONS BODY) or (each-direction ...).
Expr over_directions(Op op, const char* variable, std::vector<Direction> directions, Expr body) {
  Expr expr = node(op, {std::move(body)});
  expr.variable = variable;
  expr.directions = std::move(directions);
  return expr;
}

Expr repeat(Expr body, bool maximal = false) {
  Expr expr = node(Op::Repeat, {std::move(body)});
  expr.maximal = maximal;
  return expr;
}

// The test that a target word names, read at here.
Op target_test(Target target) {
  switch (target) {
    case Target::Empty: return Op::Empty;
    case Target::Enemy: return Op::Enemy;
    case Target::Friend: return Op::Friend;
    case Target::NotFriend: return Op::NotFriend;
    case Target::Any: return Op::Any;
    case Target::Occupied: return Op::Occupied;
  }
  return Op::Any;
}

// LAND(T): what (to T) asks of the landing cell, with the capture that a piece standing there needs.
Expr landing(Target target) {
  const auto captures = [](Op test) { return seq({node(test), node(Op::Capture)}); };
  switch (target) {
    case Target::Empty: return node(Op::Empty);
    case Target::NotFriend: return node(Op::Or, {node(Op::Empty), captures(Op::Enemy)});
    case Target::Any: return node(Op::Or, {node(Op::Empty), captures(Op::Occupied)});
    case Target::Enemy:
    case Target::Friend:
    case Target::Occupied: break;
  }
  return captures(target_test(target));
}

bool is_unit(Offset offset) { return std::abs(offset.dx) <= 1 && std::abs(offset.dy) <= 1; }

class Lowerer {
 public:
  explicit Lowerer(const lang::Rules& rules) : rules_(rules) {}

  Rules run() {
    Rules core;
    for (std::size_t piece = 0; piece < rules_.pieces.size(); ++piece)
      for (const MoveRule& move : rules_.pieces[piece].moves) add(core, static_cast<int>(piece), move);
    if (rules_.pass_when_stuck) core.moves.push_back(pass_rule());
    if (rules_.swap_rule) core.moves.push_back(swap_rule());
    core.prefer_captures = rules_.must_capture;
    core.prefer_most_captures = rules_.capture_most;
    core.prefer_most_captures_of = rules_.capture_most_of;
    core.turn_actions = rules_.turn_actions;
    core.first_turn_actions = rules_.first_turn_actions;
    // The core rules that run on the general back end are core forms already.
    if (rules_.general) {
      core.moves.insert(core.moves.end(), rules_.general->moves.begin(), rules_.general->moves.end());
      core.prefer_captures = core.prefer_captures || rules_.general->prefer_captures;
      core.prefer_most_captures = core.prefer_most_captures || rules_.general->prefer_most_captures;
      if (core.prefer_most_captures_of.empty()) core.prefer_most_captures_of = rules_.general->prefer_most_captures_of;
    }
    // Each piece's rules together, in the order of the pieces, then the game rules: the order in
    // which show --core prints them, so that what it prints reads back as these rules (a piece's
    // general rules would otherwise come after the keyword rules of every piece).
    std::stable_sort(core.moves.begin(), core.moves.end(),
                     [](const Rule& a, const Rule& b) { return printed_rank(a) < printed_rank(b); });
    return core;
  }

 private:
  // Where show --core prints a rule: among its piece's, or after every piece's when it is a game rule.
  static int printed_rank(const Rule& rule) {
    return rule.scope == Rule::Scope::Piece ? rule.piece : std::numeric_limits<int>::max();
  }

  // The rules of one keyword form: one for all its players when each direction and region in it
  // has a form that means the same for them all, else one for each player.
  void add(Rules& core, int piece, const MoveRule& move) {
    const std::vector<int> players = players_of(move);
    if (players.size() > 1) {
      players_ = players;
      Rule rule = lower(piece, move);
      if (fits_) return core.moves.push_back(std::move(rule));
    }
    for (const int player : players) {
      players_ = {player};
      Rule rule = lower(piece, move);
      rule.only_player = player;
      core.moves.push_back(std::move(rule));
    }
  }

  // The players that can make a move: those it has offsets for (a drop: cells for).
  std::vector<int> players_of(const MoveRule& move) const {
    std::vector<int> players;
    for (int player = 0; player < rules_.player_count(); ++player) {
      const auto p = static_cast<std::size_t>(player);
      if (move.kind == MoveKind::Drop ? !move.region[p].empty() : !move.offsets[p].empty()) players.push_back(player);
    }
    return players;
  }

  Rule lower(int piece, const MoveRule& move) {
    fits_ = true;
    const PieceType& type = rules_.pieces[static_cast<std::size_t>(piece)];
    Rule rule;
    // A drop starts at no piece of the board: it is a game rule.
    rule.scope = move.kind == MoveKind::Drop ? Rule::Scope::Game : Rule::Scope::Piece;
    rule.piece = piece;
    rule.origin = move.text;
    rule.pos = move.pos;
    std::vector<Expr> items;
    switch (move.kind) {
      case MoveKind::Step: append(items, step(move)); break;
      case MoveKind::Slide: append(items, slide(move)); break;
      case MoveKind::JumpOver: append(items, jump(type, move)); break;
      case MoveKind::Drop: append(items, drop(piece, move)); break;
    }
    // Before a shot, which moves here away from where the piece landed.
    if (type.promote_to >= 0)
      append(items, node(Op::If, {in(type.promote_region), with_piece(Op::Become, type.promote_to)}));
    if (move.shoots) append(items, shot(move));
    rule.expr = seq(std::move(items));
    return rule;
  }

  // (step DIRS (to T) (if (R F) T2)...) and (leap ...): the tests, then the jump and its landing.
  Expr step(const MoveRule& move) {
    std::vector<Expr> items;
    for (const CellTest& test : move.tests) {
      const Expr there = go({direction(test.offset)});
      // (if (R F) any) asks only that the cell is on the board.
      items.push_back(
          node(Op::Can, {test.target == Target::Any ? there : seq({there, node(target_test(test.target))})}));
    }
    items.push_back(go(directions(move.offsets)));
    items.push_back(landing(move.target));
    return seq(std::move(items));
  }

  Expr slide(const MoveRule& move) {
    return over_directions(Op::AnyDirection, "d", directions(move.offsets),
                           seq({go_along("d"), repeat(seq({node(Op::Empty), go_along("d")})), landing(move.target)}));
  }

  // land SHOT(S) block: the piece is put down, and a step, leap or slide from there to an empty cell
  // blocks it.
  Expr shot(const MoveRule& move) {
    std::vector<Direction> along = directions(move.shot_offsets);
    Expr to_empty =
        move.shot_kind == MoveKind::Slide
            ? over_directions(Op::AnyDirection, "e", std::move(along),
                              seq({go_along("e"), node(Op::Empty), repeat(seq({go_along("e"), node(Op::Empty)}))}))
            : seq({go(std::move(along)), node(Op::Empty)});
    return seq({node(Op::Land), std::move(to_empty), node(Op::Block)});
  }

  // J(D): over an enemy piece next to here, captured, to the empty cell beyond, which the move's
  // text shows; in a chain, over a piece not jumped before.
  Expr one_jump(std::vector<Direction> along, bool chain) {
    Expr not_jumped_before = chain ? node(Op::Not, {node(Op::Captured)}) : seq({});
    return over_directions(Op::AnyDirection, "d", std::move(along),
                           seq({go_along("d"), node(Op::Enemy), std::move(not_jumped_before), node(Op::Capture),
                                go_along("d"), node(Op::Empty), node(Op::Waypoint)}));
  }

  // (jump DIRS [chain]): a chain goes on with the piece's chain jumps while one can be made, unless
  // it has reached the region where the piece promotes.
  Expr jump(const PieceType& type, const MoveRule& move) {
    Expr first = one_jump(directions(move.offsets), move.chain);
    if (!move.chain) return first;
    Expr next = one_jump(directions(chain_offsets(type)), true);
    if (type.promote_to >= 0) next = seq({node(Op::Not, {in(type.promote_region)}), std::move(next)});
    return seq({std::move(first), repeat(std::move(next), true)});
  }

  // CHAIN: the directions of every chain jump of the piece, per player, each once.
  static std::array<std::vector<Offset>, kMaxPlayers> chain_offsets(const PieceType& type) {
    std::array<std::vector<Offset>, kMaxPlayers> result;
    for (const MoveRule& move : type.moves) {
      if (move.kind != MoveKind::JumpOver || !move.chain) continue;
      for (std::size_t player = 0; player < result.size(); ++player)
        for (const Offset& offset : move.offsets[player])
          if (std::find(result[player].begin(), result[player].end(), offset) == result[player].end())
            result[player].push_back(offset);
    }
    return result;
  }

  // (drop (in R) (gravity G) (flanking DIRS)): a new piece onto an empty cell of R.
  Expr drop(int piece, const MoveRule& move) {
    std::vector<Expr> items = {with_piece(Op::New, piece), with_region(Op::Enter, region(move.region)),
                               node(Op::Empty)};
    if (!move.offsets[static_cast<std::size_t>(players_.front())].empty()) {
      // The piece rests on a piece below it, or on the edge of the board.
      const std::vector<Direction> down = directions(move.offsets);
      items.push_back(node(
          Op::Or, {node(Op::Cannot, {go(down)}), node(Op::Can, {seq({go(down), node(Op::Not, {node(Op::Empty)})})})}));
    }
    if (!move.flanking[static_cast<std::size_t>(players_.front())].empty()) {
      // At least one line is closed, and every closed line flips.
      const std::vector<Direction> lines = directions(move.flanking);
      items.push_back(node(Op::Can, {over_directions(Op::AnyDirection, "d", lines, flanked_line())}));
      items.push_back(over_directions(Op::EachDirection, "d", lines, node(Op::IfCan, {flanked_line()})));
    }
    return seq(std::move(items));
  }

  // LINE(d): one or more enemy pieces along d, each converted, closed by a friend.
  static Expr flanked_line() {
    const auto flip = [] { return seq({go_along("d"), node(Op::Enemy), node(Op::Convert)}); };
    return seq({flip(), repeat(flip()), go_along("d"), node(Op::Friend)});
  }

  Expr in(const PlayerRegion& cells) { return with_region(Op::In, region(cells)); }

  // One written form of a direction, given per player, for every player of the rule: a board
  // direction when all go the same way, else the same direction seen from each player.
  Direction direction(const std::array<Offset, kMaxPlayers>& per_player) {
    const auto absolute = [&](int player) { return per_player[static_cast<std::size_t>(player)]; };
    const auto relative = [&](int player) {
      return relative_to(absolute(player), rules_.players[static_cast<std::size_t>(player)].forward);
    };
    const int lead = players_.front();
    const auto all = [&](auto holds) { return std::all_of(players_.begin(), players_.end(), holds); };
    if (all([&](int player) { return absolute(player) == absolute(lead); }) && is_neighbour(absolute(lead)))
      return {Direction::Frame::Absolute, absolute(lead)};
    if (!all([&](int player) { return relative(player) == relative(lead); })) fits_ = false;
    const bool named = is_unit(relative(lead)) && all([&](int player) { return is_neighbour(absolute(player)); });
    return {named ? Direction::Frame::Relative : Direction::Frame::Leap, relative(lead)};
  }

  std::vector<Direction> directions(const std::array<std::vector<Offset>, kMaxPlayers>& per_player) {
    const std::vector<Offset>& lead = per_player[static_cast<std::size_t>(players_.front())];
    std::vector<Direction> result;
    for (std::size_t i = 0; i < lead.size(); ++i) {
      std::array<Offset, kMaxPlayers> each;
      for (const int player : players_) {
        const std::vector<Offset>& own = per_player[static_cast<std::size_t>(player)];
        if (own.size() != lead.size()) fits_ = false;
        each[static_cast<std::size_t>(player)] = i < own.size() ? own[i] : lead[i];
      }
      result.push_back(direction(each));
    }
    return result;
  }

  // Whether a step by `offset` joins touching cells, so that a direction name can say it: on a
  // rhombus, (1, 1) and (-1, -1) do not.
  bool is_neighbour(Offset offset) const {
    const std::vector<Offset> neighbours = neighbour_offsets(rules_.shape);
    return std::find(neighbours.begin(), neighbours.end(), offset) != neighbours.end();
  }

  // One written form of a region, given per player, for every player of the rule: its cells when
  // they are the same for all, else home or far rows.
  Region region(const PlayerRegion& per_player) {
    PlayerRegion sorted = per_player;
    for (CellList& cells : sorted) std::sort(cells.begin(), cells.end());
    const auto all = [&](auto holds) { return std::all_of(players_.begin(), players_.end(), holds); };
    const CellList& lead = sorted[static_cast<std::size_t>(players_.front())];
    if (all([&](int player) { return sorted[static_cast<std::size_t>(player)] == lead; }))
      return {Region::Kind::Cells, 0, lead};
    for (int rows = 1; rows <= std::max(rules_.width, rules_.height); ++rows)
      for (const bool far : {false, true})
        if (all([&](int player) {
              return sorted[static_cast<std::size_t>(player)] == relative_rows(rules_, player, rows, far);
            }))
          return {far ? Region::Kind::FarRows : Region::Kind::HomeRows, rows, {}};
    fits_ = false;
    return {Region::Kind::Cells, 0, lead};
  }

  // (pass-when-stuck): a player with no other move passes, if the other player can move.
  static Rule pass_rule() {
    Rule rule;
    rule.label = "pass";
    rule.fallback = true;
    rule.when = Condition{Condition::Kind::OthersCanMove, 0};
    rule.expr = node(Op::Pass);
    rule.origin = "(pass-when-stuck)";
    return rule;
  }

  // (swap-rule): the second player's first move may be the swap.
  static Rule swap_rule() {
    Rule rule;
    rule.label = "swap";
    rule.when = Condition{Condition::Kind::PlyIs, 1};
    rule.expr = node(Op::SwapPiecesMirror);
    rule.origin = "(swap-rule)";
    return rule;
  }

  const lang::Rules& rules_;
  std::vector<int> players_;  // the players of the rule being lowered
  bool fits_ = true;          // whether every direction and region so far has one form for them all
};

}  // namespace

// A cell's rank is how far it lies from the player's own side, along the player's forward.
CellList relative_rows(const lang::Rules& rules, int player, int rows, bool far) {
  const Offset forward = rules.players[static_cast<std::size_t>(player)].forward;
  const int extent = forward.dy != 0 ? rules.height : rules.width;
  CellList cells;
  for (int cell = 0; cell < rules.cells(); ++cell) {
    if (rules.is_hole(cell)) continue;  // as the checker's (home-rows N) leaves them out
    const int along = forward.dy != 0 ? cell / rules.width : cell % rules.width;
    const int rank = forward.dy + forward.dx > 0 ? along : extent - 1 - along;
    if (far ? rank >= extent - rows : rank < rows) cells.push_back(cell);
  }
  return cells;
}

Rules lower(const lang::Rules& rules) { return Lowerer(rules).run(); }

void move_to_general(lang::Rules& rules, const std::vector<Rule>& written) {
  auto general = std::make_shared<Rules>(lower(rules));  // rules.general included
  general->moves.insert(general->moves.end(), written.begin(), written.end());
  for (lang::PieceType& piece : rules.pieces) {
    piece.moves.clear();
    piece.promote_to = -1;  // lowered into the rules of the piece
  }
  rules.pass_when_stuck = rules.swap_rule = rules.must_capture = rules.capture_most = false;
  rules.capture_most_of.clear();
  rules.general = std::move(general);
}

}  // namespace troyka::lang::core
