// The recogniser, version 2 (docs/core-design.md §5.2 and "Step 3 as built"): core rules back onto
// lang::MoveRule and the game's flags, so that a rule in core forms compiles to the tables its
// keyword form gives. Every keyword form comes this way (lang/checker.cpp lowers it first), and each
// shape below is what lang/lower.cpp lowers one to:
//
//   step, leap:  (can (go D) [T])... (go DIRS) LAND(T)
//   slide:       (any-direction d DIRS (seq (go d) (repeat (seq empty (go d))) LAND(T)))
//   jump:        J(DIRS), where J(D) = (any-direction d D (seq (go d) enemy capture (go d) empty waypoint))
//   chain:       J(DIRS) (repeat [(not (in R))] J'(CHAIN) maximal), J' with (not captured) before capture
//   drop:        (new P) (enter R) empty [GRAVITY] [(can (any-direction d DIRS LINE(d)))
//                                                    (each-direction d DIRS (if-can LINE(d)))]
//   any of them, then (if (in R) (become P)); a step, leap or slide, then land SHOT block
//   game rules:  (moves "pass" fallback (when (can-move others)) pass)
//                (moves "swap" (when (= ply 1)) (swap-pieces mirror))
//
// Nested sequences count as their items. Anything else waits for the general back end (step 4).
// The fast back end promotes a piece after each of its moves and goes on with a chain by every
// chain jump of the piece, so the rules of a piece must agree on those.
#include <fmt/format.h>

#include <algorithm>
#include <numeric>

#include "lang/core.h"
#include "lang/directions.h"

namespace troyka::lang::core {
namespace {

using Items = std::vector<const Expr*>;
using PlayerOffsets = std::array<std::vector<Offset>, kMaxPlayers>;

void append_linear(const Expr& expr, Items& items) {
  if (expr.op != Op::Seq) return items.push_back(&expr);
  for (const Expr& item : expr.items) append_linear(item, items);
}

// The items of a sequence, nested sequences spliced in; any other expression is a sequence of one.
Items linear(const Expr& expr) {
  Items items;
  append_linear(expr, items);
  return items;
}

Items slice(const Items& items, std::size_t from, std::size_t to) {
  return Items(items.begin() + static_cast<long>(from), items.begin() + static_cast<long>(to));
}

bool has_ops(const Items& items, std::initializer_list<Op> ops) {
  return items.size() == ops.size() &&
         std::equal(items.begin(), items.end(), ops.begin(), [](const Expr* item, Op op) { return item->op == op; });
}

bool is_unbounded(const Expr& repeat) { return repeat.at_least == 0 && repeat.at_most < 0 && !repeat.maximal; }

// A go along one written direction, not a bound name.
const Direction* single_go(const Expr& expr) {
  return expr.op == Op::Go && expr.variable.empty() && expr.directions.size() == 1 ? &expr.directions.front() : nullptr;
}

// (not TEST) for a test of the kind `test`.
bool is_not(const Expr& expr, Op test) { return expr.op == Op::Not && expr.items.front().op == test; }

// The target word a test is, if it is one.
std::optional<Target> target_of(Op op) {
  switch (op) {
    case Op::Empty: return Target::Empty;
    case Op::Enemy: return Target::Enemy;
    case Op::Friend: return Target::Friend;
    case Op::NotFriend: return Target::NotFriend;
    case Op::Occupied: return Target::Occupied;
    case Op::Any: return Target::Any;
    default: return std::nullopt;
  }
}

// LAND(T): `empty`, or a test and the capture it needs, or (or empty (seq enemy|occupied capture)).
std::optional<Target> landing(const Items& items) {
  if (has_ops(items, {Op::Empty})) return Target::Empty;
  if (items.size() == 2 && items[1]->op == Op::Capture) {
    const std::optional<Target> test = target_of(items[0]->op);
    if (test == Target::Enemy || test == Target::Friend || test == Target::Occupied) return test;
  }
  if (items.size() != 1 || items[0]->op != Op::Or || items[0]->items.size() != 2) return std::nullopt;
  const Expr& choice = *items[0];
  const auto either = [&](Op capturing) {
    const auto is_capture = [&](const Expr& expr) { return has_ops(linear(expr), {capturing, Op::Capture}); };
    return (choice.items[0].op == Op::Empty && is_capture(choice.items[1])) ||
           (choice.items[1].op == Op::Empty && is_capture(choice.items[0]));
  };
  if (either(Op::Enemy)) return Target::NotFriend;
  if (either(Op::Occupied)) return Target::Any;
  return std::nullopt;
}

// J(D): over the enemy piece next to here, captured, to the empty cell beyond, which the text shows.
// A chain's further jumps must not jump a piece again, `(not captured)`; the first may say so too.
bool is_one_jump(const Expr& over, bool further) {
  if (over.op != Op::AnyDirection) return false;
  Items items = linear(over.items.front());
  if (items.size() == 7 && is_not(*items[2], Op::Captured))
    items.erase(items.begin() + 2);
  else if (further)
    return false;
  const auto along = [&](const Expr* expr) { return expr->op == Op::Go && expr->variable == over.variable; };
  return items.size() == 6 && along(items[0]) && items[1]->op == Op::Enemy && items[2]->op == Op::Capture &&
         along(items[3]) && items[4]->op == Op::Empty && items[5]->op == Op::Waypoint;
}

// LINE(d): (go d) enemy convert (repeat (seq (go d) enemy convert)) (go d) friend.
bool is_flanked_line(const Expr& line, const std::string& variable) {
  const Items items = linear(line);
  const auto along = [&](const Expr* expr) { return expr->op == Op::Go && expr->variable == variable; };
  const auto flips = [&](const Items& part) {
    return part.size() == 3 && along(part[0]) && part[1]->op == Op::Enemy && part[2]->op == Op::Convert;
  };
  return items.size() == 6 && flips(slice(items, 0, 3)) && items[3]->op == Op::Repeat && is_unbounded(*items[3]) &&
         flips(linear(items[3]->items.front())) && along(items[4]) && items[5]->op == Op::Friend;
}

// (can (any-direction d DIRS LINE(d))) (each-direction d DIRS (if-can LINE(d))): DIRS.
const std::vector<Direction>* flanking(const Expr& can, const Expr& each) {
  if (can.op != Op::Can || each.op != Op::EachDirection || each.items.front().op != Op::IfCan) return nullptr;
  const Expr& any = can.items.front();
  if (any.op != Op::AnyDirection || any.directions != each.directions) return nullptr;
  const bool lines = is_flanked_line(any.items.front(), any.variable) &&
                     is_flanked_line(each.items.front().items.front(), each.variable);
  return lines ? &any.directions : nullptr;
}

// (or (cannot (go G)) (can (go G) (not empty))): the cell rests on a piece or on the edge.
const Direction* gravity(const Expr& expr) {
  if (expr.op != Op::Or || expr.items.size() != 2) return nullptr;
  const Expr& edge = expr.items[0];
  const Expr& rest = expr.items[1];
  if (edge.op != Op::Cannot || rest.op != Op::Can) return nullptr;
  const Items down = linear(edge.items.front());
  const Items on = linear(rest.items.front());
  if (down.size() != 1 || !single_go(*down[0]) || on.size() != 2 || !single_go(*on[0])) return nullptr;
  if (!is_not(*on[1], Op::Empty)) return nullptr;
  return *single_go(*down[0]) == *single_go(*on[0]) ? single_go(*down[0]) : nullptr;
}

// A promotion tail, (if (in R) (become P)): P (-1 for none), and R for each player of the rule.
struct Promotion {
  int piece = -1;
  PlayerRegion region;
};

// A chain's further jumps: their directions, and where the chain stops, (not (in R)), for each
// player of the rule.
struct Chain {
  PlayerOffsets next;
  std::optional<PlayerRegion> stop;
};

// What one branch of a rule is.
struct Branch {
  std::vector<MoveRule> moves;
  Promotion promotion;
  std::optional<Chain> chain;
};

class Recogniser {
 public:
  Recogniser(const lang::Rules& rules, const Rule& rule) : rules_(rules), rule_(rule) {}

  std::vector<int> players() const {
    if (rule_.only_player >= 0) return {rule_.only_player};
    std::vector<int> all(rules_.players.size());
    std::iota(all.begin(), all.end(), 0);
    return all;
  }

  // The keyword forms of one branch, or nothing when it has none of their shapes.
  std::optional<Branch> branch(const Expr& expr) const {
    Items items = linear(expr);
    const std::optional<MoveRule> shot = take_shot(items);
    const Promotion promotion = take_promotion(items);
    std::optional<Branch> branch = rule_.scope == Rule::Scope::Game ? drop(items) : piece_move(items);
    if (!branch) return std::nullopt;
    branch->promotion = promotion;
    if (!shot) return branch;
    for (MoveRule& move : branch->moves) {
      if (move.kind != MoveKind::Step && move.kind != MoveKind::Slide) return std::nullopt;
      move.shoots = true;
      move.shot_kind = shot->shot_kind;
      move.shot_offsets = shot->shot_offsets;
    }
    return branch;
  }

 private:
  MoveRule move(MoveKind kind) const {
    MoveRule move;
    move.kind = kind;
    move.pos = rule_.pos;
    move.text = rule_.origin;
    move.from_core = rule_.written;
    return move;
  }

  Offset offset(const Direction& direction, int player) const {
    if (direction.frame == Direction::Frame::Absolute) return direction.offset;
    return orient(direction.offset, rules_.players[static_cast<std::size_t>(player)].forward);
  }

  // The directions per player, as lang::MoveRule holds them; none for a player the rule is not for.
  PlayerOffsets offsets(const std::vector<Direction>& directions) const {
    PlayerOffsets result;
    for (const int player : players())
      for (const Direction& direction : directions)
        result[static_cast<std::size_t>(player)].push_back(offset(direction, player));
    return result;
  }

  PlayerRegion cells(const Region& region) const {
    PlayerRegion result;
    for (const int player : players())
      result[static_cast<std::size_t>(player)] =
          region.kind == Region::Kind::Cells
              ? region.cells
              : relative_rows(rules_, player, region.rows, region.kind == Region::Kind::FarRows);
    return result;
  }

  // land SHOT block at the end of `items`, taken off them: the shot's kind and directions, as a
  // MoveRule holds them. A step or leap shoots with (go S) empty; a slide with
  // (any-direction e S (seq (go e) empty (repeat (seq (go e) empty)))).
  std::optional<MoveRule> take_shot(Items& items) const {
    if (items.size() < 3 || items.back()->op != Op::Block) return std::nullopt;
    MoveRule shot;
    const std::size_t size = items.size();
    if (size >= 4 && has_ops(slice(items, size - 4, size), {Op::Land, Op::Go, Op::Empty, Op::Block}) &&
        items[size - 3]->variable.empty()) {
      shot.shot_kind = MoveKind::Step;
      shot.shot_offsets = offsets(items[size - 3]->directions);
      items.resize(size - 4);
      return shot;
    }
    const Expr& over = *items[size - 2];
    if (items[size - 3]->op != Op::Land || over.op != Op::AnyDirection) return std::nullopt;
    const Items path = linear(over.items.front());
    const auto along = [&](const Expr* expr) { return expr->op == Op::Go && expr->variable == over.variable; };
    const auto to_empty = [&](const Items& part) {
      return part.size() == 2 && along(part[0]) && part[1]->op == Op::Empty;
    };
    if (path.size() != 3 || !to_empty(slice(path, 0, 2)) || path[2]->op != Op::Repeat || !is_unbounded(*path[2]) ||
        !to_empty(linear(path[2]->items.front())))
      return std::nullopt;
    shot.shot_kind = MoveKind::Slide;
    shot.shot_offsets = offsets(over.directions);
    items.resize(size - 3);
    return shot;
  }

  // (if (in R) (become P)) at the end of `items`, taken off them.
  Promotion take_promotion(Items& items) const {
    if (items.empty()) return {};
    const Expr& last = *items.back();
    if (last.op != Op::If || last.items.size() != 2 || last.items[0].op != Op::In || last.items[1].op != Op::Become)
      return {};
    items.pop_back();
    return {last.items[1].piece, cells(last.items[0].region)};
  }

  std::optional<Branch> piece_move(const Items& items) const {
    if (items.size() == 1 && items[0]->op == Op::AnyDirection) {
      if (is_one_jump(*items[0], false)) return Branch{{jump(*items[0], false)}, {}, {}};
      return slide(*items[0]);
    }
    if (items.size() == 2 && items[1]->op == Op::Repeat) return chain(*items[0], *items[1]);
    return step(items);
  }

  // (can (go D)) or (can (go D) T): a cell test from the start.
  std::optional<CellTest> guard(const Expr& expr) const {
    if (expr.op != Op::Can) return std::nullopt;
    const Items items = linear(expr.items.front());
    const Direction* along = items.empty() ? nullptr : single_go(*items[0]);
    const std::optional<Target> target = items.size() == 2 ? target_of(items[1]->op) : Target::Any;
    if (!along || items.size() > 2 || !target) return std::nullopt;
    CellTest test;
    test.target = *target;
    for (const int player : players()) test.offset[static_cast<std::size_t>(player)] = offset(*along, player);
    return test;
  }

  // Guards, then (go DIRS), then LAND: one MoveRule, or one per direction when there are guards,
  // since a keyword step with cell tests goes one way.
  std::optional<Branch> step(const Items& items) const {
    std::vector<CellTest> tests;
    std::size_t next = 0;
    for (; next < items.size() && items[next]->op == Op::Can; ++next) {
      const std::optional<CellTest> test = guard(*items[next]);
      if (!test) return std::nullopt;
      tests.push_back(*test);
    }
    if (next == items.size() || items[next]->op != Op::Go || !items[next]->variable.empty()) return std::nullopt;
    const std::vector<Direction>& directions = items[next]->directions;
    const std::optional<Target> target = landing(slice(items, next + 1, items.size()));
    if (!target) return std::nullopt;
    const auto make = [&](const std::vector<Direction>& along) {
      MoveRule step = move(MoveKind::Step);
      step.offsets = offsets(along);
      step.target = *target;
      step.capture = *target != Target::Empty;
      step.tests = tests;
      return step;
    };
    if (tests.empty()) return Branch{{make(directions)}, {}, {}};
    Branch branch;
    for (const Direction& direction : directions) {
      branch.moves.push_back(make({direction}));
      if (tests_landing_cell(branch.moves.back())) return std::nullopt;
    }
    return branch;
  }

  // A keyword step may not test its landing cell, which (to TARGET) describes.
  bool tests_landing_cell(const MoveRule& step) const {
    for (const CellTest& test : step.tests)
      for (const int player : players())
        if (test.offset[static_cast<std::size_t>(player)] == step.offsets[static_cast<std::size_t>(player)].front())
          return true;
    return false;
  }

  std::optional<Branch> slide(const Expr& over) const {
    const Items items = linear(over.items.front());
    const auto along = [&](const Expr* expr) { return expr->op == Op::Go && expr->variable == over.variable; };
    if (items.size() < 3 || !along(items[0]) || items[1]->op != Op::Repeat || !is_unbounded(*items[1]))
      return std::nullopt;
    const Items pass = linear(items[1]->items.front());
    if (pass.size() != 2 || pass[0]->op != Op::Empty || !along(pass[1])) return std::nullopt;
    const std::optional<Target> target = landing(slice(items, 2, items.size()));
    if (!target) return std::nullopt;
    MoveRule slide = move(MoveKind::Slide);
    slide.offsets = offsets(over.directions);
    slide.target = *target;
    slide.capture = *target != Target::Empty;
    return Branch{{slide}, {}, {}};
  }

  MoveRule jump(const Expr& over, bool chain) const {
    MoveRule jump = move(MoveKind::JumpOver);
    jump.offsets = offsets(over.directions);
    jump.target = Target::Empty;
    jump.capture = true;
    jump.chain = chain;
    return jump;
  }

  // J(DIRS) (repeat [(not (in R))] J'(CHAIN) maximal): a jump that goes on while it can.
  std::optional<Branch> chain(const Expr& first, const Expr& repeat) const {
    if (!is_one_jump(first, false) || repeat.at_least != 0 || repeat.at_most >= 0 || !repeat.maximal)
      return std::nullopt;
    Items pass = linear(repeat.items.front());
    Chain chain;
    if (pass.size() == 2 && is_not(*pass[0], Op::In)) {
      chain.stop = cells(pass[0]->items.front().region);
      pass.erase(pass.begin());
    }
    if (pass.size() != 1 || !is_one_jump(*pass[0], true)) return std::nullopt;
    chain.next = offsets(pass[0]->directions);
    return Branch{{jump(first, true)}, {}, chain};
  }

  // (new P) (enter R) empty [GRAVITY] [FLANKING]: the drop of the rule's piece.
  std::optional<Branch> drop(const Items& items) const {
    if (items.size() < 3 || !has_ops(slice(items, 0, 3), {Op::New, Op::Enter, Op::Empty})) return std::nullopt;
    // The drop is compiled as one of the rule's piece (Rule::piece), which must be the one it brings.
    if (items[0]->piece != rule_.piece) return std::nullopt;
    MoveRule drop = move(MoveKind::Drop);
    drop.region = cells(items[1]->region);
    std::size_t next = 3;
    if (next < items.size() && items[next]->op == Op::Or) {
      const Direction* down = gravity(*items[next++]);
      if (!down) return std::nullopt;
      drop.offsets = offsets({*down});
    }
    if (next + 2 == items.size()) {
      const std::vector<Direction>* lines = flanking(*items[next], *items[next + 1]);
      if (!lines) return std::nullopt;
      drop.flanking = offsets(*lines);
      next += 2;
    }
    if (next != items.size()) return std::nullopt;
    return Branch{{drop}, {}, {}};
  }

  const lang::Rules& rules_;
  const Rule& rule_;
};

// The game rule (pass-when-stuck) lowers to.
bool is_pass(const Rule& rule) {
  return rule.scope == Rule::Scope::Game && rule.label == "pass" && rule.fallback &&
         rule.when == Condition{Condition::Kind::OthersCanMove, 0} && rule.only_player < 0 && rule.expr.op == Op::Pass;
}

// The game rule (swap-rule) lowers to.
bool is_swap(const Rule& rule) {
  return rule.scope == Rule::Scope::Game && rule.label == "swap" && !rule.fallback &&
         rule.when == Condition{Condition::Kind::PlyIs, 1} && rule.only_player < 0 &&
         rule.expr.op == Op::SwapPiecesMirror;
}

// What a MoveRule says whatever the player: its per-player parts cleared.
MoveRule without_players(MoveRule move) {
  move.offsets = {};
  move.region = {};
  move.flanking = {};
  move.shot_offsets = {};
  for (CellTest& test : move.tests) test.offset = {};
  return move;
}

// Gathers the recognised rules into lang::Rules, checking that each piece's rules agree.
class Assembler {
 public:
  explicit Assembler(lang::Rules& rules) : rules_(rules), promotions_(rules.pieces.size()) {
    for (PieceType& piece : rules_.pieces) {
      piece.moves.clear();
      piece.promote_to = -1;
      piece.promote_region = {};
    }
    rules_.pass_when_stuck = rules_.swap_rule = rules_.must_capture = rules_.capture_most = false;
    rules_.capture_most_of.clear();
  }

  std::optional<Unmatched> run(const Rules& core) {
    for (std::size_t i = 0; i < core.moves.size(); ++i)
      if (std::optional<Unmatched> unmatched = add(i, core.moves[i])) return unmatched;
    if (std::optional<Unmatched> unmatched = check_chains()) return unmatched;
    for (std::size_t piece = 0; piece < promotions_.size(); ++piece) {
      rules_.pieces[piece].promote_to = promotions_[piece].into;
      if (promotions_[piece].into >= 0) rules_.pieces[piece].promote_region = promotions_[piece].region;
    }
    rules_.must_capture = core.prefer_captures;
    rules_.capture_most = core.prefer_most_captures;
    rules_.capture_most_of = core.prefer_most_captures_of;
    return std::nullopt;
  }

 private:
  std::optional<Unmatched> add(std::size_t index, const Rule& rule) {
    if (is_pass(rule) || is_swap(rule)) {
      (is_pass(rule) ? rules_.pass_when_stuck : rules_.swap_rule) = true;
      return std::nullopt;
    }
    if (!rule.label.empty() || rule.fallback || rule.when || rule.legal || rule.priority != 0 || rule.phase >= 0)
      return Unmatched{index, -1,
                       "a rule with a label, 'fallback', '(when ...)', '(legal ...)', a priority or a phase"};
    const Recogniser recogniser(rules_, rule);
    const std::vector<const Expr*> all = branches(rule.expr);
    std::vector<MoveRule> moves;
    for (std::size_t i = 0; i < all.size(); ++i) {
      const int branch_index = all.size() > 1 ? static_cast<int>(i) : -1;
      std::optional<Branch> branch = recogniser.branch(*all[i]);
      if (!branch)
        return Unmatched{
            index, branch_index,
            fmt::format("{} is not the shape of a step, leap, slide, jump or drop", expr_text(rules_, *all[i]))};
      if (jumps(branch->moves) && rules_.cells() > kMaxJumpCells)
        return Unmatched{index, branch_index,
                         fmt::format("jumps over pieces are compiled on boards of at most {} cells; this one has {}",
                                     kMaxJumpCells, rules_.cells())};
      if (!promotes_alike(rule.piece, recogniser.players(), branch->promotion))
        return Unmatched{index, branch_index,
                         fmt::format("the rules of the piece '{}' do not all end with the same promotion "
                                     "(if (in REGION) (become PIECE)), and a compiled piece promotes after each move",
                                     piece_name(rule.piece))};
      if (branch->chain) chains_.push_back({index, rule.piece, recogniser.players(), *branch->chain});
      moves.insert(moves.end(), branch->moves.begin(), branch->moves.end());
    }
    place(rule, moves);
    return std::nullopt;
  }

  static bool jumps(const std::vector<MoveRule>& moves) {
    return std::any_of(moves.begin(), moves.end(),
                       [](const MoveRule& move) { return move.kind == MoveKind::JumpOver; });
  }

  const std::string& piece_name(int piece) const { return rules_.pieces[static_cast<std::size_t>(piece)].name; }

  // A piece's promotion, the same in all its rules: the fast back end promotes it after each move.
  struct PiecePromotion {
    bool seen = false;
    int into = -1;
    std::array<bool, kMaxPlayers> seen_for{};
    PlayerRegion region;
  };

  bool promotes_alike(int piece, const std::vector<int>& players, const Promotion& promotion) {
    PiecePromotion& known = promotions_[static_cast<std::size_t>(piece)];
    if (known.seen && known.into != promotion.piece) return false;
    known.seen = true;
    known.into = promotion.piece;
    for (const int player : players) {
      const auto p = static_cast<std::size_t>(player);
      if (known.seen_for[p] && known.region[p] != promotion.region[p]) return false;
      known.seen_for[p] = true;
      known.region[p] = promotion.region[p];
    }
    return true;
  }

  // Appends a rule's MoveRules to its piece; those of a keyword form lowered once for each player
  // join the ones lowered for the other, so that the piece has the keyword form's MoveRules.
  void place(const Rule& rule, const std::vector<MoveRule>& moves) {
    std::vector<MoveRule>& piece_moves = rules_.pieces[static_cast<std::size_t>(rule.piece)].moves;
    if (continues_split(rule, moves)) {
      const auto player = static_cast<std::size_t>(rule.only_player);
      for (std::size_t i = 0; i < moves.size(); ++i) {
        MoveRule& into = piece_moves[previous_.first + i];
        const MoveRule& from = moves[i];
        into.offsets[player] = from.offsets[player];
        into.region[player] = from.region[player];
        into.flanking[player] = from.flanking[player];
        into.shot_offsets[player] = from.shot_offsets[player];
        for (std::size_t t = 0; t < into.tests.size(); ++t) into.tests[t].offset[player] = from.tests[t].offset[player];
      }
      previous_.rule = nullptr;
      return;
    }
    previous_ = {&rule, piece_moves.size()};
    piece_moves.insert(piece_moves.end(), moves.begin(), moves.end());
  }

  // Whether `rule` is the second of the rules that lang/lower.cpp gives one keyword form, one per
  // player, with the form's text and position, and `moves` are the first's but for the players.
  bool continues_split(const Rule& rule, const std::vector<MoveRule>& moves) const {
    const Rule* first = previous_.rule;
    if (!first || rule.written || first->written || rule.only_player < 0 || first->only_player < 0 ||
        rule.only_player == first->only_player || rule.origin != first->origin || !(rule.pos == first->pos) ||
        rule.piece != first->piece || rule.scope != first->scope)
      return false;
    const std::vector<MoveRule>& piece_moves = rules_.pieces[static_cast<std::size_t>(rule.piece)].moves;
    if (piece_moves.size() != previous_.first + moves.size()) return false;
    for (std::size_t i = 0; i < moves.size(); ++i)
      if (!(without_players(piece_moves[previous_.first + i]) == without_players(moves[i]))) return false;
    return true;
  }

  // Every chain of a piece goes on with all the chain jumps of the piece, and stops where it promotes.
  std::optional<Unmatched> check_chains() const {
    for (const ChainUse& use : chains_) {
      const PieceType& piece = rules_.pieces[static_cast<std::size_t>(use.piece)];
      const PiecePromotion& promotion = promotions_[static_cast<std::size_t>(use.piece)];
      for (const int player : use.players) {
        const auto p = static_cast<std::size_t>(player);
        std::vector<Offset> jumps;
        for (const MoveRule& move : piece.moves)
          if (move.kind == MoveKind::JumpOver && move.chain)
            for (const Offset& offset : move.offsets[p])
              if (std::find(jumps.begin(), jumps.end(), offset) == jumps.end()) jumps.push_back(offset);
        if (!std::is_permutation(use.chain.next[p].begin(), use.chain.next[p].end(), jumps.begin(), jumps.end()))
          return Unmatched{use.rule, -1,
                           fmt::format("this chain goes on with other jumps than the chain jumps of the piece '{}', "
                                       "and a compiled chain goes on with every one of them",
                                       piece.name)};
        const bool stops_alike =
            use.chain.stop ? promotion.into >= 0 && (*use.chain.stop)[p] == promotion.region[p] : promotion.into < 0;
        if (!stops_alike)
          return Unmatched{use.rule, -1,
                           fmt::format("this chain does not stop where the piece '{}' promotes, and a compiled chain "
                                       "stops there: (not (in REGION)) before each further jump, REGION the "
                                       "promotion's",
                                       piece.name)};
      }
    }
    return std::nullopt;
  }

  struct ChainUse {
    std::size_t rule = 0;
    int piece = -1;
    std::vector<int> players;
    Chain chain;
  };

  // The rule whose MoveRules were placed last, and where they start in its piece's moves.
  struct Placed {
    const Rule* rule = nullptr;
    std::size_t first = 0;
  };

  lang::Rules& rules_;
  std::vector<PiecePromotion> promotions_;  // by piece
  std::vector<ChainUse> chains_;
  Placed previous_;
};

}  // namespace

std::vector<const Expr*> branches(const Expr& expr) {
  if (expr.op != Op::Or) return {&expr};
  std::vector<const Expr*> result;
  for (const Expr& item : expr.items) result.push_back(&item);
  return result;
}

std::optional<Unmatched> recognise(lang::Rules& rules, const Rules& core) { return Assembler(rules).run(core); }

}  // namespace troyka::lang::core
