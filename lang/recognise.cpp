// The recogniser, version 1 (docs/core-design.md §5.2): core rules back onto lang::MoveRule, so
// that a rule written in core forms compiles to the tables its keyword form would give. Each shape
// below is what lang/lower.cpp lowers a keyword form to:
//
//   step, leap:  (can (go D) [T])... (go DIRS) LAND(T)
//   slide:       (any-direction d DIRS (seq (go d) (repeat (seq empty (go d))) LAND(T)))
//   drop:        (new P) (enter R) empty [(or (cannot (go G)) (can (go G) (not empty)))]
//
// Nested sequences count as their items. Anything else waits for the general back end (step 4).
#include <algorithm>

#include "lang/core.h"
#include "lang/directions.h"

namespace troyka::lang::core {
namespace {

using Items = std::vector<const Expr*>;

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

bool has_ops(const Items& items, std::initializer_list<Op> ops) {
  return items.size() == ops.size() &&
         std::equal(items.begin(), items.end(), ops.begin(), [](const Expr* item, Op op) { return item->op == op; });
}

// A go along one written direction, not a bound name.
const Direction* single_go(const Expr& expr) {
  return expr.op == Op::Go && expr.variable.empty() && expr.directions.size() == 1 ? &expr.directions.front() : nullptr;
}

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

class Recogniser {
 public:
  Recogniser(const lang::Rules& rules, const Rule& rule) : rules_(rules), rule_(rule) {}

  // The keyword forms of one branch, or nothing when it has none of their shapes.
  std::optional<std::vector<MoveRule>> branch(const Expr& expr) const {
    const Items items = linear(expr);
    if (rule_.scope == Rule::Scope::Game) return drop(items);
    if (items.size() == 1 && items[0]->op == Op::AnyDirection) return slide(*items[0]);
    return step(items);
  }

 private:
  MoveRule move(MoveKind kind) const {
    MoveRule move;
    move.kind = kind;
    move.pos = rule_.pos;
    move.text = rule_.origin;
    move.from_core = true;
    return move;
  }

  std::vector<int> players() const {
    if (rule_.only_player >= 0) return {rule_.only_player};
    return {0, 1};
  }

  Offset offset(const Direction& direction, int player) const {
    if (direction.frame == Direction::Frame::Absolute) return direction.offset;
    return orient(direction.offset, rules_.players[static_cast<std::size_t>(player)].forward);
  }

  // The directions per player, as lang::MoveRule holds them; none for a player the rule is not for.
  std::array<std::vector<Offset>, kPlayers> offsets(const std::vector<Direction>& directions) const {
    std::array<std::vector<Offset>, kPlayers> result;
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
  std::optional<std::vector<MoveRule>> step(const Items& items) const {
    std::vector<CellTest> tests;
    std::size_t next = 0;
    for (; next < items.size() && items[next]->op == Op::Can; ++next) {
      const std::optional<CellTest> test = guard(*items[next]);
      if (!test) return std::nullopt;
      tests.push_back(*test);
    }
    if (next == items.size() || items[next]->op != Op::Go || !items[next]->variable.empty()) return std::nullopt;
    const std::vector<Direction>& directions = items[next]->directions;
    const std::optional<Target> target = landing(Items(items.begin() + static_cast<long>(next) + 1, items.end()));
    if (!target) return std::nullopt;
    const auto make = [&](const std::vector<Direction>& along) {
      MoveRule step = move(MoveKind::Step);
      step.offsets = offsets(along);
      step.target = *target;
      step.capture = *target != Target::Empty;
      step.tests = tests;
      return step;
    };
    if (tests.empty()) return std::vector<MoveRule>{make(directions)};
    std::vector<MoveRule> steps;
    for (const Direction& direction : directions) {
      steps.push_back(make({direction}));
      if (tests_landing_cell(steps.back())) return std::nullopt;
    }
    return steps;
  }

  // A keyword step may not test its landing cell, which (to TARGET) describes.
  bool tests_landing_cell(const MoveRule& step) const {
    for (const CellTest& test : step.tests)
      for (const int player : players())
        if (test.offset[static_cast<std::size_t>(player)] == step.offsets[static_cast<std::size_t>(player)].front())
          return true;
    return false;
  }

  std::optional<std::vector<MoveRule>> slide(const Expr& over) const {
    const Items items = linear(over.items.front());
    const auto along = [&](const Expr* expr) { return expr->op == Op::Go && expr->variable == over.variable; };
    if (items.size() < 3 || !along(items[0]) || items[1]->op != Op::Repeat) return std::nullopt;
    const Expr& repeat = *items[1];
    const Items pass = linear(repeat.items.front());
    if (repeat.at_least != 0 || repeat.at_most >= 0 || repeat.maximal || pass.size() != 2 || pass[0]->op != Op::Empty ||
        !along(pass[1]))
      return std::nullopt;
    const std::optional<Target> target = landing(Items(items.begin() + 2, items.end()));
    if (!target) return std::nullopt;
    MoveRule slide = move(MoveKind::Slide);
    slide.offsets = offsets(over.directions);
    slide.target = *target;
    slide.capture = *target != Target::Empty;
    return std::vector<MoveRule>{slide};
  }

  // (or (cannot (go G)) (can (go G) (not empty))): the cell rests on a piece or on the edge.
  static const Direction* gravity(const Expr& expr) {
    if (expr.op != Op::Or || expr.items.size() != 2) return nullptr;
    const Expr& edge = expr.items[0];
    const Expr& rest = expr.items[1];
    if (edge.op != Op::Cannot || rest.op != Op::Can) return nullptr;
    const Items down = linear(edge.items.front());
    const Items on = linear(rest.items.front());
    if (down.size() != 1 || !single_go(*down[0]) || on.size() != 2 || !single_go(*on[0])) return nullptr;
    if (on[1]->op != Op::Not || on[1]->items.front().op != Op::Empty) return nullptr;
    return *single_go(*down[0]) == *single_go(*on[0]) ? single_go(*down[0]) : nullptr;
  }

  std::optional<std::vector<MoveRule>> drop(const Items& items) const {
    if (items.size() < 3 || items.size() > 4 ||
        !has_ops(Items(items.begin(), items.begin() + 3), {Op::New, Op::Enter, Op::Empty}))
      return std::nullopt;
    // The drop is compiled as one of the rule's piece (Rule::piece), which must be the one it brings.
    if (items[0]->piece != rule_.piece) return std::nullopt;
    MoveRule drop = move(MoveKind::Drop);
    drop.region = cells(items[1]->region);
    if (items.size() == 4) {
      const Direction* down = gravity(*items[3]);
      if (!down) return std::nullopt;
      drop.offsets = offsets({*down});
    }
    return std::vector<MoveRule>{drop};
  }

  const lang::Rules& rules_;
  const Rule& rule_;
};

}  // namespace

std::vector<const Expr*> branches(const Expr& expr) {
  if (expr.op != Op::Or) return {&expr};
  std::vector<const Expr*> result;
  for (const Expr& item : expr.items) result.push_back(&item);
  return result;
}

Recognition recognise(const lang::Rules& rules, const Rule& rule) {
  const Recogniser recogniser(rules, rule);
  Recognition recognition;
  const std::vector<const Expr*> all = branches(rule.expr);
  for (std::size_t i = 0; i < all.size(); ++i) {
    std::optional<std::vector<MoveRule>> moves = recogniser.branch(*all[i]);
    if (!moves) {
      recognition.unmatched_branch = static_cast<int>(i);
      return recognition;
    }
    for (MoveRule& move : *moves) recognition.moves.push_back(std::move(move));
  }
  return recognition;
}

}  // namespace troyka::lang::core
