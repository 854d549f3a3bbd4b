#include "interpreter/general.h"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
#include <functional>
#include <limits>
#include <stdexcept>
#include <type_traits>

#include "lang/diagnostic.h"
#include "lang/directions.h"

namespace troyka {

using lang::core::Expr;
using lang::core::Op;

namespace {

// The masks a TEST reads, built once per position; a piece type's (any owner) follow kPieceMasks,
// read from the state's boards.
enum Mask : std::uint16_t { kEmpty, kFriend, kEnemy, kNotFriend, kOccupied, kAny, kPieceMasks };

std::uint64_t mixed(std::uint64_t x) {  // splitmix64's finaliser
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ULL;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebULL;
  return x ^ (x >> 31);
}

// Merges an add or a set of `counter` into the record's change of it: a set replaces what came
// before, an add adds to it.
void add_counter_change(GeneralRecord& record, bool set, int counter, int amount) {
  auto change = std::find_if(record.counters.begin(), record.counters.end(),
                             [&](const CounterChange& c) { return c.counter == counter; });
  if (change == record.counters.end())
    change = record.counters.insert(record.counters.end(), CounterChange{static_cast<std::uint8_t>(counter)});
  change->value = set ? amount : change->value + amount;
  change->set = change->set || set;
}

// ---- deferred parts (CompiledRule::resume) ---------------------------------------------------------

// The items of a body: a sequence's, else the body alone.
std::vector<Expr> items_of(const Expr& e) { return e.op == Op::Seq ? e.items : std::vector<Expr>{e}; }

// The tests that read the board before the move, and the lookaheads, which change nothing.
bool is_plain_test(Op op) {
  switch (op) {
    case Op::Can:
    case Op::Cannot:
    case Op::Empty:
    case Op::Friend:
    case Op::Enemy:
    case Op::NotFriend:
    case Op::Occupied:
    case Op::Any:
    case Op::Captured:
    case Op::Is:
    case Op::In:
    case Op::LastFrom:
    case Op::LastTo:
    case Op::CapturedEarlier: return true;
    default: return false;
  }
}

// Whether `e` may change anything outside a lookahead when it runs: any action but a move of here
// or a landing does (an op not listed here is taken to).
bool has_effect(const Expr& e) {
  if (is_plain_test(e.op)) return false;
  switch (e.op) {
    case Op::Go:
    case Op::Enter:
    case Op::Land:
    case Op::Waypoint: return false;
    case Op::Seq:
    case Op::Or:
    case Op::Opt:
    case Op::Repeat:
    case Op::Times:
    case Op::While:
    case Op::If:
    case Op::IfCan:
    case Op::AnyDirection:
    case Op::EachDirection:
    case Op::Not:
    case Op::And: return std::any_of(e.items.begin(), e.items.end(), has_effect);
    default: return true;
  }
}

// What a cell of the frozen board may be for a test to hold there, as a set of kinds (bit 0
// empty, 1 the mover's, 2 the enemy's); -1 for what is not such a test.
int test_kinds(const Expr& e) {
  switch (e.op) {
    case Op::Empty: return 1;
    case Op::Friend: return 2;
    case Op::Enemy: return 4;
    case Op::NotFriend: return 1 | 4;
    case Op::Occupied:
    case Op::Is: return 2 | 4;
    default: return -1;
  }
}

// How a run of `items` from `at` starts: a test of here, or one step one way and a test of the cell
// reached; `test` is null when it starts otherwise.
struct Lead {
  const Expr* go = nullptr;
  const Expr* test = nullptr;
};
Lead lead(const std::vector<Expr>& items, std::size_t at) {
  if (at < items.size() && test_kinds(items[at]) >= 0) return {nullptr, &items[at]};
  if (at + 1 >= items.size() || test_kinds(items[at + 1]) < 0) return {};
  const Expr& go = items[at];
  const bool one_way = go.op == Op::Go && (!go.variable.empty() || go.directions.size() == 1);
  return one_way ? Lead{&go, &items[at + 1]} : Lead{};
}

// Whether two runs that start alike cannot both go on past their leads: they step the same way
// (or not at all) onto a cell that no test holds on for both.
bool exclusive(const Lead& a, const Lead& b) {
  if (!a.test || !b.test || (a.go == nullptr) != (b.go == nullptr)) return false;
  if (a.go && (a.go->variable != b.go->variable || a.go->directions != b.go->directions)) return false;
  return (test_kinds(*a.test) & test_kinds(*b.test)) == 0;
}

bool single_run(const Expr& e);

// Whether a sequence of items has at most one complete run from any start. A repeat among them
// does when another pass and what follows it are exclusive ((repeat (seq (go e) enemy ...)) (go
// e) friend).
bool single_run_items(const std::vector<Expr>& items) {
  for (std::size_t i = 0; i < items.size(); ++i) {
    const Expr& item = items[i];
    if (item.op != Op::Repeat || item.maximal) {
      if (!single_run(item)) return false;
      continue;
    }
    const std::vector<Expr> pass = items_of(item.items.front());
    if (!single_run_items(pass) || !exclusive(lead(pass, 0), lead(items, i + 1))) return false;
  }
  return true;
}

// An or whose ways are pairwise exclusive ((or (seq friend ...) (seq empty ...))).
bool single_way(const Expr& choice) {
  for (std::size_t i = 0; i < choice.items.size(); ++i) {
    const std::vector<Expr> way = items_of(choice.items[i]);
    if (!single_run_items(way)) return false;
    for (std::size_t j = 0; j < i; ++j)
      if (!exclusive(lead(items_of(choice.items[j]), 0), lead(way, 0))) return false;
  }
  return true;
}

// Whether `e` has at most one complete run from any start (an op not listed here is taken not to).
bool single_run(const Expr& e) {
  if (is_plain_test(e.op)) return true;
  switch (e.op) {
    case Op::Go: return !e.variable.empty() || e.directions.size() == 1;
    case Op::Or: return single_way(e);
    case Op::Repeat: return e.maximal && single_run(e.items.front());  // each pass forced
    case Op::If:
    case Op::While: return std::all_of(e.items.begin() + 1, e.items.end(), single_run);  // after the test
    case Op::Seq:
    case Op::IfCan:
    case Op::EachDirection: return single_run_items(e.items);
    case Op::Not:
    case Op::And:
    case Op::Capture:
    case Op::CaptureToHand:
    case Op::Become:
    case Op::Convert:
    case Op::Block:
    case Op::Add:
    case Op::Set:
    case Op::Rotate: return true;
    default: return false;
  }
}

// Whether `e`, run by a landed mover's thread with here on the board, always completes with here
// on the board.
bool never_fails(const Expr& e) {
  switch (e.op) {
    case Op::Seq:
    case Op::EachDirection: return std::all_of(e.items.begin(), e.items.end(), never_fails);
    case Op::IfCan: return true;  // its body runs only where it has a complete run
    case Op::If: return std::all_of(e.items.begin() + 1, e.items.end(), never_fails);
    case Op::Capture:
    case Op::CaptureToHand:
    case Op::Convert:
    case Op::Block:
    case Op::Add:
    case Op::Set:
    case Op::Rotate: return true;
    default: return false;
  }
}

// Whether a run of `e` may carry a mover: it brings one in ((new P) or (from-hand)).
bool adds_mover(const Expr& e) {
  return e.op == Op::New || e.op == Op::FromHand || std::any_of(e.items.begin(), e.items.end(), adds_mover);
}

// ---- quiet parts and capture parts ((prefer captures): GeneralMoves::quiet_) ------------------------

// Whether some run of `e` may capture a piece.
bool may_capture(const Expr& e) {
  return e.op == Op::Capture || e.op == Op::CaptureToHand || e.op == Op::CaptureSurrounded ||
         std::any_of(e.items.begin(), e.items.end(), may_capture);
}

// The runs of `e` that capture nothing, written as an expression: `quiet` holds it, or nothing when
// every run captures. False when they cannot be written so: a capture under a repetition (whose
// passes, or a maximal one's end, depend on the captures), a test or a lookahead. Through a
// sequence, a choice, an option and a choice of directions the captures' ways are dropped.
bool quiet_part(const Expr& e, std::optional<Expr>& quiet) {
  quiet.reset();
  if (!may_capture(e)) {
    quiet = e;
    return true;
  }
  switch (e.op) {
    case Op::Capture:
    case Op::CaptureToHand: return true;
    case Op::Seq: {  // no quiet run when one item has none, whatever the others'
      std::vector<Expr> items;
      bool written = true;
      for (const Expr& item : e.items) {
        std::optional<Expr> part;
        const bool known = quiet_part(item, part);
        if (known && !part) return true;
        written = written && known;
        if (part) items.push_back(std::move(*part));
      }
      if (written) quiet = lang::core::seq(std::move(items));
      return written;
    }
    case Op::Or: {
      std::vector<Expr> ways;
      for (const Expr& way : e.items) {
        std::optional<Expr> part;
        if (!quiet_part(way, part)) return false;
        if (part) ways.push_back(std::move(*part));
      }
      quiet = lang::core::choice(std::move(ways));
      return true;
    }
    case Op::Opt: {
      std::optional<Expr> part;
      if (!quiet_part(e.items.front(), part)) return false;
      quiet = part ? lang::core::node(Op::Opt, {std::move(*part)}) : lang::core::seq({});
      return true;
    }
    case Op::AnyDirection: {
      std::optional<Expr> part;
      if (!quiet_part(e.items.front(), part)) return false;
      if (part) {
        quiet = e;
        quiet->items.front() = std::move(*part);
      }
      return true;
    }
    default: return false;
  }
}

// An expression whose runs include every run of `e` that captures (and perhaps some that do not),
// or nothing when no run of `e` captures: a choice keeps only its ways that may capture, a sequence
// with one item that may capture has that item's part, a choice of directions its body's; any
// other expression is itself.
std::optional<Expr> capture_part(const Expr& e) {
  if (!may_capture(e)) return std::nullopt;
  switch (e.op) {
    case Op::Or: {
      std::vector<Expr> ways;
      for (const Expr& way : e.items)
        if (std::optional<Expr> part = capture_part(way)) ways.push_back(std::move(*part));
      return lang::core::choice(std::move(ways));
    }
    case Op::Seq: {
      if (std::count_if(e.items.begin(), e.items.end(), may_capture) != 1) return e;
      Expr part = e;
      Expr& capturing = *std::find_if(part.items.begin(), part.items.end(), may_capture);
      capturing = *capture_part(capturing);
      return lang::core::seq(std::move(part.items));
    }
    case Op::AnyDirection: {
      Expr part = e;
      part.items.front() = *capture_part(e.items.front());
      return part;
    }
    default: return e;
  }
}

}  // namespace

static bool is_capture(const CellChange& change) { return change.what & CellChange::kCapture; }

bool GeneralRecord::captures() const { return std::any_of(changes.begin(), changes.end(), is_capture); }

int GeneralRecord::captured_pieces() const {
  return static_cast<int>(std::count_if(changes.begin(), changes.end(), is_capture));
}

// The fingerprint of the record's scalars, before its changes are folded in: a record without
// changes (a plain slide's) has no other, and a listing computes it without the loops.
[[gnu::always_inline]] static inline std::uint64_t scalar_fingerprint(const GeneralRecord& r) {
  return mixed(static_cast<std::uint64_t>(r.origin + 1) << 48 ^ static_cast<std::uint64_t>(r.landing + 1) << 32 ^
               static_cast<std::uint64_t>(r.piece + 1) << 24 ^ static_cast<std::uint64_t>(r.final_piece + 1) << 16 ^
               static_cast<std::uint64_t>(r.labelled + 1) << 3 ^ std::uint64_t{r.again} << 2 ^
               std::uint64_t{r.pass} << 1 ^ r.swap ^ std::uint64_t{r.exits} << 62 ^ std::uint64_t{r.from_hand} << 61);
}

std::uint64_t GeneralRecord::fingerprint() const {
  std::uint64_t hash = scalar_fingerprint(*this);
  for (const CellChange& change : changes)
    hash = mixed(hash ^ (std::uint64_t{change.cell} << 16 | std::uint64_t{change.what} << 8 |
                         static_cast<std::uint8_t>(change.become) |
                         static_cast<std::uint64_t>(static_cast<std::uint16_t>(change.relocate_to)) << 32 |
                         std::uint64_t{change.attributes_set} << 48 | std::uint64_t{change.attributes_cleared} << 56));
  for (const RegisterChange& change : registers)
    hash = mixed(hash ^ (std::uint64_t{change.reg} << 40 | static_cast<std::uint16_t>(change.cell)));
  for (const CounterChange& change : counters)
    hash = mixed(hash ^ (std::uint64_t{change.counter} << 40 | std::uint64_t{change.set} << 32 |
                         static_cast<std::uint32_t>(change.value)));
  for (const std::uint8_t rotation : rotations) hash = mixed(hash ^ (std::uint64_t{rotation} << 52 | 1));
  for (const CountChange& change : count_changes)
    hash =
        mixed(hash ^ (std::uint64_t{change.sown} << 50 | std::uint64_t{static_cast<std::uint16_t>(change.cell)} << 16 |
                      static_cast<std::uint16_t>(change.from)));
  return hash | 1;  // never 0, the jumped mask of a move without captures
}

// ---- compiling ------------------------------------------------------------------------------------

// One rule for one player into instructions. Tests compile as conditions that fall through when
// they hold as wanted and otherwise jump (to an else branch) or end the run.
template <int Words>
class GeneralMoves<Words>::Compiler {
 public:
  Compiler(GeneralMoves& owner, int player, std::vector<Instruction>& code)
      : owner_(owner), player_(player), code_(code) {}

  // Compiles `body`; with `defer`, a COMMIT after its top-level land. Returns where the part after
  // COMMIT starts, or -1.
  int rule(const Expr& body, bool defer) {
    int resume = -1;
    if (!defer) {
      expr(body);
    } else {
      for (std::size_t i = 0; i < body.items.size();) {
        const Op op = body.items[i].op;
        i = item(body.items, i);
        if (op == Op::Land && resume < 0) resume = emit(Code::Commit) + 1;
      }
    }
    emit(Code::Accept);
    return resume;
  }

  // The slide that `body` is, or that it starts with when it has a deferred part (CompiledRule::slide).
  std::optional<Slide> leading_slide(const Expr& body, bool deferred) {
    if (body.op == Op::AnyDirection) return slide(body, true);
    if (!deferred || body.items.size() < 2 || body.items[1].op != Op::Land) return {};
    return slide(body.items.front(), false);
  }

  // (any-direction V DIRS (seq JUMP (repeat JUMP))), JUMP: (go V) enemy capture (go V) empty, then
  // perhaps waypoint (CompiledRule::jumps); or (any-direction V DIRS JUMP), one jump; and friend
  // for enemy. Only along lines of ascending or descending cells, where a chain never comes back to
  // a cell it passed.
  std::optional<JumpLine> jump_line(const Expr& e) {
    if (e.op != Op::AnyDirection || e.variable.empty() || e.items.size() != 1) return {};
    const auto flat = [](const Expr& item) { return items_of(lang::core::seq(items_of(item))); };  // (seq (seq a b) c)
    const std::vector<Expr> body = flat(e.items.front());
    if (body.size() < 2) return {};
    const Expr& repeat = body.back();
    const bool chained = repeat.op == Op::Repeat;
    if (chained && (repeat.at_least != 0 || repeat.at_most >= 0 || repeat.maximal)) return {};
    const std::vector<Expr> jump(body.begin(), body.end() - (chained ? 1 : 0));
    if (chained && flat(repeat.items.front()) != jump) return {};
    const auto go_on = [&](const Expr& item) { return item.op == Op::Go && item.variable == e.variable; };
    const bool waypoints = jump.size() == 6 && jump[5].op == Op::Waypoint;
    if (jump.size() != (waypoints ? 6u : 5u) || !go_on(jump[0]) ||
        (jump[1].op != Op::Enemy && jump[1].op != Op::Friend) || jump[2].op != Op::Capture || !go_on(jump[3]) ||
        jump[4].op != Op::Empty)
      return {};
    JumpLine found;
    found.waypoints = waypoints;
    found.chained = chained;
    found.over_friends = jump[1].op == Op::Friend;
    for (const lang::core::Direction& d : e.directions) {
      found.directions.push_back(direction(d));
      owner_.add_rays(found.directions.back());
      if (owner_.ray_order_[static_cast<std::size_t>(found.directions.back())] == 0) return {};
      if (!owner_.rules_->has_links()) found.steps.push_back(group_step(found.directions.back()));
    }
    if (owner_.rules_->has_links()) {
      found.neighbours.resize(static_cast<std::size_t>(owner_.cells_));
      for (int cell = 0; cell < owner_.cells_; ++cell)
        for (const int d : found.directions)
          if (const int next = owner_.next_[static_cast<std::size_t>(d) * owner_.cells_ + cell]; next >= 0)
            found.neighbours[static_cast<std::size_t>(cell)].set(next);
    }
    return found;
  }

  // (any-direction V DIRS (seq (times (line-pieces V) (seq (not enemy) (go V))) (or empty (seq enemy
  // capture)))) (CompiledRule::lines), its lines, stops and passed cells walked once here. Only on a
  // board without links, whose lines never come back to a cell.
  std::optional<LineMove> line_move(const Expr& e) {
    if (e.op != Op::AnyDirection || e.variable.empty() || e.items.size() != 1 || owner_.rules_->has_links()) return {};
    Expr go = lang::core::node(Op::Go);
    go.variable = e.variable;
    Expr counted = lang::core::node(
        Op::Times, {lang::core::seq({lang::core::node(Op::Not, {lang::core::node(Op::Enemy)}), std::move(go)})});
    counted.variable = e.variable;
    const std::optional<Expr> landing = lang::core::choice(
        {lang::core::node(Op::Empty), lang::core::seq({lang::core::node(Op::Enemy), lang::core::node(Op::Capture)})});
    if (e.items.front() != lang::core::seq({std::move(counted), *landing})) return {};
    const int cells = owner_.cells_;
    // [way * cells + cell]: the cells from `cell` that way, nearest first
    std::vector<std::vector<std::int16_t>> rays;
    LineMove found;
    for (const lang::core::Direction& d : e.directions) {
      const int way = direction(d);
      const lang::Offset offset = owner_.directions_[static_cast<std::size_t>(way)];
      const int back = owner_.direction_index({-offset.dx, -offset.dy});
      for (int cell = 0; cell < cells; ++cell) {
        Board line = Board::single(cell);
        std::vector<std::int16_t>& ray = rays.emplace_back();
        for (const int along : {back, way})
          for (int at = step(along, cell); at >= 0; at = step(along, at)) {
            line.set(at);
            if (along == way) ray.push_back(static_cast<std::int16_t>(at));
          }
        found.lines.push_back(line);
        found.longest = std::max(found.longest, line.count() + 1);
      }
      ++found.ways;
    }
    found.stops.assign(rays.size() * static_cast<std::size_t>(found.longest), -1);
    found.passed.resize(found.stops.size());
    for (int way = 0; way < found.ways; ++way)
      for (int cell = 0; cell < cells; ++cell) {
        const std::vector<std::int16_t>& ray = rays[static_cast<std::size_t>(way * cells + cell)];
        Board passed;
        for (std::size_t steps = 1; steps <= ray.size(); ++steps) {
          found.stops[found.at(way, cell, static_cast<int>(steps), cells)] = ray[steps - 1];
          found.passed[found.at(way, cell, static_cast<int>(steps), cells)] = passed;
          passed.set(ray[steps - 1]);
        }
      }
    return found;
  }

  int step(int direction, int cell) const {
    return owner_.next_[static_cast<std::size_t>(direction) * static_cast<std::size_t>(owner_.cells_) +
                        static_cast<std::size_t>(cell)];
  }

  // Whether two runs of `body` from one start never make one move, so that its moves are counted
  // by running it with no record made (CompiledRule::by_runs). Each choice (an enter, a go along
  // several directions that lead from every cell to different cells) is recorded before the next
  // choice or the end: by a land at the cell chosen, a capture there, or the end's landing of a
  // carried mover. No run captures twice, so a capture, like the one landing, sets a run apart for
  // good. Tests are free, and an (if TEST ..) sends the runs of one start one way, as does an or
  // whose ways exclude each other by their first test. A (from-hand) of a game rule chooses a type
  // that the record keeps as its piece. Anything else (other ors, repeat, marks, other effects,
  // (attacked), which a count cannot ask) is not followed.
  bool told_apart(const Expr& body, bool carried) {
    Apart apart{true, false, carried, 0};
    follow(body, apart);
    return apart.ok && (!apart.chosen || apart.carried);
  }

  // (go DIRS) onto an empty cell, or onto an enemy piece taken ((or empty (seq enemy CAPTURE)),
  // the ways in either order), then perhaps (if (in R) (become P)) items, R perhaps negated
  // (CompiledRule::steps).
  std::optional<Step> step(const Expr& body) {
    const std::vector<Expr> items = items_of(body);
    if (items.size() < 2 || items[0].op != Op::Go || !items[0].variable.empty()) return {};
    const auto is = [](const Expr& e, Op op) { return items_of(e).size() == 1 && items_of(e).front().op == op; };
    const auto takes = [](const Expr& e) {
      const std::vector<Expr> way = items_of(e);
      return way.size() == 2 && way[0].op == Op::Enemy && (way[1].op == Op::Capture || way[1].op == Op::CaptureToHand);
    };
    const Expr& onto = items[1];
    const bool captures = onto.op == Op::Or && onto.items.size() == 2 &&
                          ((is(onto.items[0], Op::Empty) && takes(onto.items[1])) ||
                           (takes(onto.items[0]) && is(onto.items[1], Op::Empty)));
    if (!captures && onto.op != Op::Empty) return {};
    Step found;
    for (auto promotion = items.begin() + 2; promotion != items.end(); ++promotion) {
      if (promotion->op != Op::If || promotion->items.size() != 2 || promotion->items[1].op != Op::Become) return {};
      const bool negate = promotion->items[0].op == Op::Not;
      const Expr& in = negate ? promotion->items[0].items.front() : promotion->items[0];
      if (in.op != Op::In) return {};
      found.promotions.push_back({region(in.region), negate, static_cast<std::int8_t>(promotion->items[1].piece)});
    }
    found.directions = direction_set(items[0].directions);
    found.captures = captures;
    if (captures) found.to_hand = items_of(onto.items[takes(onto.items[0]) ? 0 : 1])[1].op == Op::CaptureToHand;
    // A link back to the cell: the frozen board's origin is empty.
    if (owner_.direction_sets_[static_cast<std::size_t>(found.directions)].loops) return {};
    return found;
  }
  // The openings of `code` (CompiledRule::openings): its start followed through its choices (SPLIT,
  // JUMP) until each way has made one step (GO, or the STEPWHERE of a go along several directions
  // and a test) and tested the cell reached with a mask, the run dying if it fails. Any other
  // instruction first (an effect, a mark, a test of the origin or one that branches): none.
  std::vector<Opening> openings(const std::vector<Instruction>& code) const {
    if (owner_.rules_->has_links() || code.empty()) return {};
    std::vector<Opening> found;
    std::vector<std::pair<std::int32_t, int>> pending{{0, -1}};  // pc, the direction stepped (-1: none yet)
    std::vector<std::pair<std::int32_t, int>> seen;
    const auto add = [&](int direction, int mask, bool negate) {  // each once
      const Opening opening{group_step(direction), static_cast<std::uint16_t>(mask), negate};
      if (std::none_of(found.begin(), found.end(), [&](const Opening& known) {
            return known.step.left == opening.step.left && known.step.right == opening.step.right &&
                   known.mask == opening.mask && known.negate == opening.negate;
          }))
        found.push_back(opening);
    };
    // More openings than a man's or a king's few cost more shifts a listing than they spare runs
    // (chess's pieces, which can nearly all move: 3% more instructions with them).
    constexpr std::size_t kMostOpenings = 8;
    while (!pending.empty()) {
      const auto [pc, stepped] = pending.back();
      pending.pop_back();
      if (pc < 0 || std::find(seen.begin(), seen.end(), std::pair{pc, stepped}) != seen.end()) continue;
      if (seen.size() > kOpeningBudget) return {};
      seen.emplace_back(pc, stepped);
      const Instruction& in = code[static_cast<std::size_t>(pc)];
      const Instruction& choice = in.code == Code::Fan ? owner_.fans_[in.arg].choice : in;
      if (in.code == Code::Split || in.code == Code::Jump) {
        if (in.code == Code::Split) pending.emplace_back(pc + 1, stepped);
        pending.emplace_back(in.alt, stepped);
      } else if (stepped < 0 && in.code == Code::Go) {
        pending.emplace_back(pc + 1, in.arg);
      } else if (stepped < 0 && choice.code == Code::StepWhere) {
        for (const int direction : owner_.direction_sets_[choice.arg].directions)
          add(direction, choice.alt, choice.negate);
      } else if (stepped >= 0 && in.code == Code::Test && in.alt < 0) {
        add(stepped, in.arg, in.negate);
      } else {
        return {};
      }
    }
    if (found.size() > kMostOpenings) return {};
    return found;
  }

 private:
  struct Apart {
    bool ok = true;
    bool chosen = false;   // runs may differ by here alone: a choice not yet recorded
    bool carried = false;  // the mover is carried
    int captures = 0;      // the most any run has made
    bool typed = false;    // a (from-hand) chose the mover's type, which no (new P) may replace
  };
  // Whether `e` may move here (a choice of the cell, or a step).
  static bool moves_here(const Expr& e) {
    return e.op == Op::Go || e.op == Op::Enter || std::any_of(e.items.begin(), e.items.end(), moves_here);
  }
  static bool is_test(const Expr& e) {
    if (e.op == Op::Not || e.op == Op::And) return std::all_of(e.items.begin(), e.items.end(), is_test);
    return is_plain_test(e.op) || e.op == Op::AtOrigin || e.op == Op::Attr || e.op == Op::AtRegister ||
           e.op == Op::CountIs;
  }
  void follow(const Expr& e, Apart& apart) {
    if (!apart.ok || is_test(e)) return;
    switch (e.op) {
      case Op::Seq:
        for (const Expr& item : e.items) follow(item, apart);
        return;
      case Op::If: {
        // Runs apart by here alone must stay so both ways: then neither way may record here.
        Apart then = apart, otherwise = apart;
        follow(e.items[1], then);
        if (e.items.size() > 2) follow(e.items[2], otherwise);
        apart.ok = is_test(e.items[0]) && then.ok && otherwise.ok && then.carried == otherwise.carried &&
                   (!apart.chosen || (then.chosen && otherwise.chosen));
        apart.chosen = then.chosen || otherwise.chosen;
        apart.carried = then.carried;
        apart.captures = std::max(then.captures, otherwise.captures);
        return;
      }
      case Op::Go:
        apart.ok = e.variable.empty() && !apart.chosen && distinct_steps(e.directions);
        apart.chosen = e.directions.size() > 1;
        return;
      case Op::Enter:
        apart.ok = !apart.chosen;
        apart.chosen = true;
        return;
      case Op::Land: apart.chosen = apart.carried = false; return;
      case Op::Capture:
      case Op::CaptureToHand:
        apart.chosen = false;
        apart.ok = ++apart.captures == 1;
        return;
      case Op::Or: {
        // Ways that each make a different quarter turn (follow_turns); or one way at most runs on
        // (single_way), and a choice not yet recorded stays at here in each.
        if (!single_way(e)) return follow_turns(e, apart);
        if (apart.chosen && moves_here(e)) {
          apart.ok = false;
          return;
        }
        Apart merged = apart;
        merged.chosen = false;
        for (std::size_t i = 0; i < e.items.size(); ++i) {
          Apart way = apart;
          follow(e.items[i], way);
          merged.ok = merged.ok && way.ok && (i == 0 || way.carried == merged.carried);
          merged.chosen = merged.chosen || way.chosen;
          merged.carried = way.carried;
          merged.captures = std::max(merged.captures, way.captures);
        }
        apart = merged;
        return;
      }
      case Op::FromHand:  // a game rule's first mover: the type chosen is the record's piece
        apart.ok = !apart.carried && !apart.typed;
        apart.carried = apart.typed = true;
        return;
      case Op::New:
        apart.ok = !apart.typed;
        apart.carried = true;
        return;
      // A sowing or a taking of counts records here in the record's count changes, which keep the
      // run's order: two runs apart by here alone make their next count change at different cells.
      case Op::Sow:
      case Op::TakeCount: apart.chosen = false; return;
      // Captures that the board decides, not a choice: two runs told apart by a capture of their
      // own could take each other's cells here, so none may come before or after.
      case Op::CaptureSurrounded:
        apart.ok = apart.captures == 0;
        apart.captures = 1;
        return;
      case Op::HasLiberty:  // a test
      case Op::Pass:        // no choice
      case Op::Become:      // the type, which no choice depends on
      case Op::Add:
      case Op::Set:
      case Op::Again:
      case Op::Mark:
      case Op::Rotate: return;
      default: apart.ok = false; return;
    }
  }
  // An (or ...) whose every way makes one quarter turn, each a different one, and no other: the
  // runs of two ways differ by the turn they add to the record's turns (which keep the run's order),
  // so each way need only be told apart itself. Runs apart by here alone may not come in.
  void follow_turns(const Expr& e, Apart& apart) {
    if (apart.chosen || e.items.empty()) {
      apart.ok = false;
      return;
    }
    std::vector<int> turns;
    Apart merged = apart;
    for (const Expr& way : e.items) {
      int made = 0, turn = -1;
      for (const Expr& item : items_of(way)) {
        if (item.op == Op::Rotate) turn = rotation(item);
        made += item.op == Op::Rotate ? 1 : turns_within(item) ? 2 : 0;
      }
      Apart way_apart = apart;
      follow(way, way_apart);
      if (made != 1 || std::find(turns.begin(), turns.end(), turn) != turns.end() || !way_apart.ok ||
          (!turns.empty() && way_apart.carried != merged.carried)) {
        apart.ok = false;
        return;
      }
      merged.chosen = merged.chosen || way_apart.chosen;
      merged.carried = way_apart.carried;
      merged.captures = std::max(merged.captures, way_apart.captures);
      turns.push_back(turn);
    }
    apart = merged;
  }
  static bool turns_within(const Expr& e) {
    return e.op == Op::Rotate || std::any_of(e.items.begin(), e.items.end(), turns_within);
  }

  // Whether the steps along `directions` lead from each cell to different cells.
  bool distinct_steps(const std::vector<lang::core::Direction>& directions) {
    std::vector<int> indices;
    for (const lang::core::Direction& d : directions) indices.push_back(direction(d));
    for (int cell = 0; cell < owner_.cells_; ++cell)
      for (std::size_t i = 0; i < indices.size(); ++i)
        for (std::size_t j = 0; j < i; ++j) {
          const int a = owner_.next_[static_cast<std::size_t>(indices[i]) * owner_.cells_ + cell];
          if (a >= 0 && a == owner_.next_[static_cast<std::size_t>(indices[j]) * owner_.cells_ + cell]) return false;
        }
    return true;
  }

  // (any-direction V DIRS (seq (go V) (repeat (seq empty (go V))) empty TEST...)), each TEST (in R)
  // or (not (in R)) of the landing.
  std::optional<Slide> slide(const Expr& e, bool whole) {
    if (e.op != Op::AnyDirection || e.variable.empty() || e.items.size() != 1) return {};
    const std::vector<Expr> body = items_of(e.items.front());
    const auto go_on = [&](const Expr& item) { return item.op == Op::Go && item.variable == e.variable; };
    if (body.size() < 3 || !go_on(body[0]) || body[2].op != Op::Empty) return {};
    const Expr& repeat = body[1];
    if (repeat.op != Op::Repeat || repeat.at_least != 0 || repeat.at_most >= 0 || repeat.maximal) return {};
    const std::vector<Expr> pass = items_of(repeat.items.front());
    if (pass.size() != 2 || pass[0].op != Op::Empty || !go_on(pass[1])) return {};
    Slide found{{}, owner_.board_, whole};
    for (auto test = body.begin() + 3; test != body.end(); ++test) {
      const bool negated = test->op == Op::Not;
      const Expr& in = negated ? test->items.front() : *test;
      if (in.op != Op::In) return {};
      const Board cells = owner_.regions_[static_cast<std::size_t>(region(in.region))];
      found.landings = negated ? found.landings - cells : found.landings & cells;
    }
    for (const lang::core::Direction& d : e.directions) {
      found.directions.push_back(direction(d));
      owner_.add_rays(found.directions.back());
    }
    found.rayed = std::all_of(found.directions.begin(), found.directions.end(), [&](int direction) {
      return owner_.ray_order_[static_cast<std::size_t>(direction)] != 0;
    });
    found.runs_are_moves = found.rayed && owner_.rays_apart(found.directions);
    return found;
  }

  int emit(Code code, int arg = 0, bool negate = false) {
    code_.push_back({code, negate, static_cast<std::uint16_t>(arg), -1});
    return static_cast<int>(code_.size()) - 1;
  }
  int next() const { return static_cast<int>(code_.size()); }
  void patch(const std::vector<int>& at, int target) {
    for (const int i : at) code_[static_cast<std::size_t>(i)].alt = target;
  }

  // Alternatives: each but the last is a SPLIT whose alt is the next one.
  void choice(std::size_t count, const std::function<void(std::size_t)>& body) {
    std::vector<int> ends;
    for (std::size_t i = 0; i < count; ++i) {
      if (i + 1 == count) {
        body(i);
        break;
      }
      const int split = emit(Code::Split);
      body(i);
      ends.push_back(emit(Code::Jump));
      code_[static_cast<std::size_t>(split)].alt = next();
    }
    patch(ends, next());
  }

  void items(const std::vector<Expr>& list) {
    for (std::size_t i = 0; i < list.size();) i = item(list, i);
  }

  // Compiles list[i] and returns the index of the next item to compile: an enter followed by a test
  // of a mask is one ENTERWHERE, which makes no choice of a cell that the test would refuse; a go
  // along several directions followed by one is one STEPWHERE, likewise.
  std::size_t item(const std::vector<Expr>& list, std::size_t i) {
    int mask = 0;
    bool negate = false;
    const Expr& e = list[i];
    const bool steps =
        e.op == Op::Go && e.variable.empty() && e.directions.size() > 1 && e.directions.size() <= kMaxStepWhere;
    if ((e.op == Op::Enter || steps) && i + 1 < list.size() && mask_test(list[i + 1], mask, negate)) {
      const int at = e.op == Op::Enter ? emit(Code::EnterWhere, region(e.region), negate)
                                       : emit(Code::StepWhere, direction_set(e.directions), negate);
      code_[static_cast<std::size_t>(at)].alt = mask;
      return i + 2;
    }
    expr(list[i]);
    return i + 1;
  }

  // Whether `e` tests one mask of the frozen board at here ((not ...) negates): which, in `mask`.
  static bool mask_test(const Expr& e, int& mask, bool& negate) {
    negate = e.op == Op::Not;
    switch (negate ? e.items.front().op : e.op) {
      case Op::Empty: mask = kEmpty; return true;
      case Op::Friend: mask = kFriend; return true;
      case Op::Enemy: mask = kEnemy; return true;
      case Op::NotFriend: mask = kNotFriend; return true;
      case Op::Occupied: mask = kOccupied; return true;
      case Op::Any: mask = kAny; return true;
      case Op::Is: mask = kPieceMasks + (negate ? e.items.front() : e).piece; return true;
      default: return false;
    }
  }

  void expr(const Expr& e) {
    switch (e.op) {
      case Op::Seq: return items(e.items);
      case Op::Or: return choice(e.items.size(), [&](std::size_t i) { expr(e.items[i]); });
      case Op::Opt: {
        const int split = emit(Code::Split);
        items(e.items);
        code_[static_cast<std::size_t>(split)].alt = next();
        return;
      }
      case Op::Repeat: return repeat(e);
      case Op::Times: return times(e);
      case Op::While: {
        const int top = next();
        std::vector<int> fails;
        cond(e.items[0], true, &fails);
        expr(e.items[1]);
        code_[static_cast<std::size_t>(emit(Code::Jump))].alt = top;
        return patch(fails, next());
      }
      case Op::If: {
        std::vector<int> fails;
        cond(e.items[0], true, &fails);
        expr(e.items[1]);
        if (e.items.size() < 3) return patch(fails, next());
        const int end = emit(Code::Jump);
        patch(fails, next());
        expr(e.items[2]);
        code_[static_cast<std::size_t>(end)].alt = next();
        return;
      }
      case Op::IfCan: {
        std::vector<int> fails;
        // A straight body but for its captures is asked of the frozen board by a pattern, not run twice.
        if (std::vector<std::vector<Probe>> bodies(1); straight_bodies(e.items, bodies, true))
          test(Code::Pattern, pattern(bodies), true, &fails);
        else
          look([&] { items(e.items); }, false, &fails);
        items(e.items);
        return patch(fails, next());
      }
      case Op::AnyDirection:
        return choice(e.directions.size(), [&](std::size_t i) { bound(e, i, [&] { items(e.items); }); });
      case Op::EachDirection: {
        if (marks_ == kMarks)
          throw std::runtime_error(
              fmt::format("each-direction is nested more than {} deep, more than the general back end holds", kMarks));
        const int mark = marks_++;
        emit(Code::Mark, mark);
        for (std::size_t i = 0; i < e.directions.size(); ++i) {
          emit(Code::Back, mark);
          bound(e, i, [&] { items(e.items); });
        }
        emit(Code::Back, mark);
        --marks_;
        return;
      }
      case Op::Go: {
        if (!e.variable.empty()) {
          emit(Code::Go, bound_direction(e.variable));
          return;
        }
        return choice(e.directions.size(), [&](std::size_t i) { emit(Code::Go, direction(e.directions[i])); });
      }
      case Op::Enter: emit(Code::Enter, region(e.region)); return;
      case Op::Capture: emit(Code::Capture); return;
      case Op::CaptureToHand: emit(Code::Capture, 1); return;
      case Op::New: emit(Code::New, e.piece); return;
      case Op::FromHand: emit(Code::FromHand, e.piece < 0 ? kAnyHandPiece : e.piece); return;
      case Op::Land: emit(Code::Land); return;
      case Op::Block: emit(Code::Block); return;
      case Op::Become: emit(Code::Become, e.piece); return;
      case Op::Convert: emit(Code::Convert); return;
      case Op::Waypoint: emit(Code::Waypoint); return;
      case Op::Pass: emit(Code::Pass); return;
      case Op::Again: emit(Code::Again); return;
      case Op::SwapPiecesMirror: emit(Code::Swap); return;
      case Op::Exit: emit(Code::Exit); return;
      case Op::Add:
      case Op::Set:
        code_[static_cast<std::size_t>(emit(e.op == Op::Add ? Code::Add : Code::Set, e.counter))].alt = e.amount;
        return;
      case Op::Mark: emit(Code::Mark, named_mark(e.variable)); return;
      case Op::Back: emit(Code::Back, named_mark(e.variable)); return;
      case Op::Relocate: emit(Code::Relocate, named_mark(e.variable)); return;
      case Op::SetAttr: emit(Code::SetAttr, e.slot); return;
      case Op::ClearAttr: emit(Code::ClearAttr, e.slot); return;
      case Op::Remember: emit(Code::Remember, e.slot); return;
      case Op::CaptureSurrounded: emit(Code::CaptureSurrounded, direction_set(e.directions)); return;
      case Op::Rotate: emit(Code::Rotate, rotation(e)); return;
      case Op::Sow: emit(Code::Sow, e.slot); return;
      case Op::TakeCount: emit(Code::TakeCount, named_mark(e.variable)); return;
      default: return cond(e, true, nullptr);
    }
  }

  // (repeat B (at-least K) (at-most M) [maximal]): K passes, then up to M - K more (or any number),
  // each optional; with maximal, stopping early needs (cannot B).
  void repeat(const Expr& e) {
    const Expr& body = e.items.front();
    for (int i = 0; i < e.at_least; ++i) expr(body);
    std::vector<int> stops;
    if (e.at_most < 0) {
      const int top = next();
      stops.push_back(emit(Code::Split));
      expr(body);
      code_[static_cast<std::size_t>(emit(Code::Jump))].alt = top;
    } else if (e.at_most - e.at_least <= kUnrolledPasses ||
               counts_ + 1 + line_count_depth(body) > lang::core::kMaxNestedLineCounts) {
      for (int i = e.at_least; i < e.at_most; ++i) {
        stops.push_back(emit(Code::Split));
        expr(body);
      }
    } else {
      return counted_repeat(e);
    }
    if (!e.maximal || stops.empty()) return patch(stops, next());
    const int done = e.at_most < 0 ? -1 : emit(Code::Jump);  // after at_most passes, no check
    patch(stops, next());
    look([&] { expr(body); }, true, nullptr);
    if (done >= 0) code_[static_cast<std::size_t>(done)].alt = next();
  }

  // How deep the line counts of `e` nest, each of which needs a count of its own.
  static int line_count_depth(const Expr& e) {
    int inner = 0;
    for (const Expr& item : e.items) inner = std::max(inner, line_count_depth(item));
    const bool counts_line = e.op == Op::Times && (!e.directions.empty() || !e.variable.empty());
    return inner + (counts_line ? 1 : 0);
  }

  // The optional passes of a bounded repeat past kUnrolledPasses, as a loop that counts them down
  // (PASSES, then COUNTDOWN, SPLIT, the body and a JUMP back) rather than a copy of the body per
  // pass: translate bounds a chain by the board's cells (lang/translate.cpp), and 650 copies of a
  // pass of eight jumps put a rule's lookaheads past what LOOK reaches. The runs and their order
  // are the unrolled ones': each pass may stop before it, the later choice, and with maximal a
  // stop needs (cannot B), which the last pass allowed is spared.
  void counted_repeat(const Expr& e) {
    const Expr& body = e.items.front();
    const int slot = counts_++;
    code_[static_cast<std::size_t>(emit(Code::Passes, slot))].alt = e.at_most - e.at_least;
    const int top = emit(Code::CountDown, slot);
    const int stop = emit(Code::Split);
    expr(body);
    code_[static_cast<std::size_t>(emit(Code::Jump))].alt = top;
    --counts_;
    code_[static_cast<std::size_t>(stop)].alt = next();
    if (e.maximal) look([&] { expr(body); }, true, nullptr);
    code_[static_cast<std::size_t>(top)].alt = next();
  }

  // (times N B): N passes. (times (line-pieces D) B): LINECOUNT into this level's count, then a
  // loop of COUNTDOWN, B and a JUMP back.
  void times(const Expr& e) {
    const Expr& body = e.items.front();
    if (e.directions.empty() && e.variable.empty()) {
      for (int i = 0; i < e.amount; ++i) expr(body);
      return;
    }
    const int along = e.variable.empty() ? direction(e.directions.front()) : bound_direction(e.variable);
    const lang::Offset way = owner_.directions_[static_cast<std::size_t>(along)];
    const int back = owner_.direction_index({-way.dx, -way.dy});
    owner_.opposite_[static_cast<std::size_t>(along)] = back;
    const int slot = counts_++;
    code_[static_cast<std::size_t>(emit(Code::LineCount, along))].alt = slot;
    const int top = emit(Code::CountDown, slot);
    expr(body);
    code_[static_cast<std::size_t>(emit(Code::Jump))].alt = top;
    code_[static_cast<std::size_t>(top)].alt = next();
    --counts_;
  }

  // A lookahead: LOOK, the body, SUBACCEPT; the run goes on past them when the body has a complete
  // run (or, negated, has none).
  void look(const std::function<void()>& body, bool negate, std::vector<int>* fails) {
    const int at = emit(Code::Look, 0, negate);
    body();
    emit(Code::SubAccept);
    // LOOK keeps where its body ends in its 16-bit argument: past that, it would jump elsewhere.
    if (next() > std::numeric_limits<std::uint16_t>::max())
      throw std::runtime_error(fmt::format(
          "a lookahead of a rule ends at instruction {}, past the {} that the general back end's lookaheads reach: "
          "bound its repeats more tightly",
          next(), std::numeric_limits<std::uint16_t>::max()));
    code_[static_cast<std::size_t>(at)].arg = static_cast<std::uint16_t>(next());
    if (fails) fails->push_back(at);
  }

  void test(Code code, int arg, bool want, std::vector<int>* fails) {
    const int at = emit(code, arg, !want);
    if (fails) fails->push_back(at);
  }

  // Falls through when `e` holds as `want` says; otherwise jumps to a patched alt in `fails`, or
  // ends the run when there are none.
  void cond(const Expr& e, bool want, std::vector<int>* fails) {
    switch (e.op) {
      case Op::Empty: return test(Code::Test, kEmpty, want, fails);
      case Op::Friend: return test(Code::Test, kFriend, want, fails);
      case Op::Enemy: return test(Code::Test, kEnemy, want, fails);
      case Op::NotFriend: return test(Code::Test, kNotFriend, want, fails);
      case Op::Occupied: return test(Code::Test, kOccupied, want, fails);
      case Op::Any: return test(Code::Test, kAny, want, fails);
      case Op::Is: return test(Code::Test, kPieceMasks + e.piece, want, fails);
      case Op::In: return test(Code::TestRegion, region(e.region), want, fails);
      case Op::Captured: return test(Code::Captured, 0, want, fails);
      case Op::CapturedEarlier: return test(Code::Gone, 0, want, fails);
      case Op::Attr: return test(Code::Attr, e.slot, want, fails);
      case Op::AtRegister: return test(Code::AtRegister, e.slot, want, fails);
      case Op::LastFrom: return test(Code::LastFrom, e.slot, want, fails);
      case Op::LastTo: return test(Code::LastTo, e.slot, want, fails);
      case Op::Attacked: owner_.asks_attacks_ = true; return test(Code::Attacked, 0, want, fails);
      case Op::AtOrigin: return test(Code::AtOrigin, 0, want, fails);
      case Op::HasLiberty: return test(Code::HasLiberty, direction_set(e.directions), want, fails);
      case Op::CountIs: return test(Code::CountIs, static_cast<int>(e.comparison) << 8 | e.amount, want, fails);
      case Op::Not: return cond(e.items.front(), !want, fails);
      case Op::And: {
        // (and (cannot B1) (cannot B2) ..), each B straight, holds when no Bi has a run.
        std::vector<std::vector<Probe>> bodies;
        bool straight = true;
        for (std::size_t i = 0; i < e.items.size() && straight; ++i) {
          const Expr& item = e.items[i];
          const Expr& can = item.op == Op::Not ? item.items.front() : item;
          std::vector<std::vector<Probe>> alternatives(1);
          straight = (item.op == Op::Cannot || (item.op == Op::Not && can.op == Op::Can)) &&
                     straight_bodies(can.items, alternatives, false);
          bodies.insert(bodies.end(), alternatives.begin(), alternatives.end());
        }
        if (straight) return test(Code::Pattern, pattern(bodies), !want, fails);
        if (want) {
          for (const Expr& item : e.items) cond(item, true, fails);
          return;
        }
        return look([&] { cond(e, true, nullptr); }, true, fails);
      }
      case Op::Can:
      case Op::Cannot: {
        const bool can = (e.op == Op::Can) == want;  // whether a run of the body is wanted
        if (std::vector<std::vector<Probe>> bodies(1); straight_bodies(e.items, bodies, false))
          return test(Code::Pattern, pattern(bodies), can, fails);
        return look([&] { items(e.items); }, !can, fails);
      }
      default: throw std::runtime_error(fmt::format("'{}' is not a test", lang::core::keyword(e.op)));
    }
  }

  // A step or a test of a straight lookahead's body: along `direction`, or of `mask` or `region`
  // at here (xor negate).
  struct Probe {
    int direction = -1, mask = -1, region = -1;
    bool negate = false;
    int cannot = -1;       // a (cannot B) at here: B's alternatives, cannots_[cannot]
    bool capture = false;  // a capture at here, passed over by the tests
  };

  // Appends the probes of `list`, a lookahead's body, to each of `bodies`, its alternatives so far;
  // false when it is not straight: only steps, tests of masks or regions, in sequence, (and ...),
  // (not ...), and choices among them ((or ...), a go along several directions), each choice
  // making as many alternatives of what came before, up to kStraightAlternatives in all; and
  // (cannot B), B straight with at most one test of a mask in each alternative, which then holds
  // when each alternative's one cell fails its test (a king whose every side is an enemy's). With
  // `captures`, a capture or a counter's change is passed over: it changes no test of the frozen
  // board.
  static constexpr std::size_t kStraightAlternatives = 16;
  bool straight_bodies(const std::vector<Expr>& list, std::vector<std::vector<Probe>>& bodies, bool captures) {
    for (const Expr& e : list) {
      if (e.op == Op::Seq) {
        if (!straight_bodies(e.items, bodies, captures)) return false;
      } else if (captures && e.op == Op::Capture) {
        for (std::vector<Probe>& body : bodies) body.push_back({.capture = true});
      } else if (captures && (e.op == Op::Add || e.op == Op::Set)) {
        continue;
      } else if (e.op == Op::Cannot) {
        std::vector<std::vector<Probe>> inner(1);
        if (!straight_bodies(e.items, inner, false)) return false;
        for (const std::vector<Probe>& body : inner)
          if (std::count_if(body.begin(), body.end(), [](const Probe& probe) { return probe.mask >= 0; }) > 1 ||
              std::any_of(body.begin(), body.end(), [](const Probe& probe) { return probe.cannot >= 0; }))
            return false;
        cannots_.push_back(std::move(inner));
        for (std::vector<Probe>& body : bodies) body.push_back({.cannot = static_cast<int>(cannots_.size()) - 1});
      } else if (e.op == Op::Or || (e.op == Op::Go && e.variable.empty() && e.directions.size() > 1)) {
        std::vector<std::vector<Probe>> chosen;
        const std::size_t ways = e.op == Op::Or ? e.items.size() : e.directions.size();
        for (std::size_t way = 0; way < ways; ++way) {
          std::vector<std::vector<Probe>> these = bodies;
          if (e.op == Op::Go) {
            for (std::vector<Probe>& body : these) body.push_back({direction(e.directions[way])});
          } else if (!straight_bodies({e.items[way]}, these, captures)) {
            return false;
          }
          chosen.insert(chosen.end(), these.begin(), these.end());
          if (chosen.size() > kStraightAlternatives) return false;
        }
        bodies = std::move(chosen);
      } else if (e.op == Op::Go && (!e.variable.empty() || e.directions.size() == 1)) {
        const int along = e.variable.empty() ? direction(e.directions.front()) : bound_direction(e.variable);
        for (std::vector<Probe>& body : bodies) body.push_back({along});
      } else if (std::vector<Probe> probes; straight_test(e, true, probes)) {
        for (std::vector<Probe>& body : bodies) body.insert(body.end(), probes.begin(), probes.end());
      } else {
        return false;
      }
    }
    return true;
  }

  bool straight_test(const Expr& e, bool want, std::vector<Probe>& probes) {
    Probe probe;
    probe.negate = !want;
    bool negate = false;
    if (mask_test(e, probe.mask, negate)) {
      probe.negate = negate == want;
    } else if (e.op == Op::In) {
      probe.region = region(e.region);
    } else if (e.op == Op::Not) {
      return straight_test(e.items.front(), !want, probes);
    } else if (e.op == Op::And && want) {
      return std::all_of(e.items.begin(), e.items.end(),
                         [&](const Expr& item) { return straight_test(item, true, probes); });
    } else {
      return false;
    }
    probes.push_back(probe);
    return true;
  }

  // The index in patterns_ of the disjunction of `bodies`, each straight: it holds from a cell when
  // some body has a run from there, as the VM would run it: a step off the board ends the run, a
  // test with no cell (here -1) holds only negated, and a region's test is known when compiled.
  int pattern(const std::vector<std::vector<Probe>>& bodies) {
    const int cells = owner_.cells_;
    Pattern found;
    std::vector<PatternTerm> terms;  // one vector for all: a new one each time was most of the time taken
    for (int start = -1; start < cells; ++start) {
      const std::size_t first = found.ends.size();
      found.from.push_back(static_cast<std::uint32_t>(first));
      for (const std::vector<Probe>& body : bodies) {
        terms.clear();
        if (!pattern_terms(body, start, terms)) continue;
        std::sort(terms.begin(), terms.end(), [](const PatternTerm& a, const PatternTerm& b) {
          return a.mask != b.mask ? a.mask < b.mask : a.negate < b.negate;
        });
        if (terms.empty()) {  // holds whatever the board: the one alternative needed
          found.ends.resize(first);
          found.terms.resize(first == 0 ? 0 : found.ends[first - 1]);
          found.ends.push_back(static_cast<std::uint32_t>(found.terms.size()));
          break;
        }
        bool known = false;  // the same alternative from another body
        for (std::size_t a = first; a < found.ends.size() && !known; ++a) {
          const std::size_t begin = a == 0 ? 0 : found.ends[a - 1];
          known = std::equal(terms.begin(), terms.end(), found.terms.begin() + static_cast<std::ptrdiff_t>(begin),
                             found.terms.begin() + static_cast<std::ptrdiff_t>(found.ends[a]));
        }
        if (known) continue;
        found.terms.insert(found.terms.end(), terms.begin(), terms.end());
        found.ends.push_back(static_cast<std::uint32_t>(found.terms.size()));
      }
    }
    found.from.push_back(static_cast<std::uint32_t>(found.ends.size()));
    bool single = !found.terms.empty();
    for (std::size_t a = 0; a < found.ends.size() && single; ++a)
      single = found.ends[a] == a + 1 && !found.terms[a].negate && found.terms[a].mask == found.terms.front().mask;
    if (single) found.single_mask = found.terms.front().mask;
    if (single) index_by_lowest(found);
    owner_.patterns_.push_back(std::move(found));
    return static_cast<int>(owner_.patterns_.size()) - 1;
  }

  // Pattern::by_lowest for a pattern of one mask, unless some cell's alternative needs that cell.
  void index_by_lowest(Pattern& found) const {
    const int cells = owner_.cells_;
    std::vector<std::vector<typename Pattern::Indexed>> at_lowest(static_cast<std::size_t>(cells));
    for (int cell = 0; cell < cells; ++cell) {
      const auto from = static_cast<std::size_t>(cell + 1);
      for (std::uint32_t a = found.from[from]; a < found.from[from + 1]; ++a) {
        const Board& needed = found.terms[a].cells;
        if (!needed.any() || needed.test(cell)) return;
        at_lowest[static_cast<std::size_t>(needed.lowest())].push_back({needed, static_cast<std::int16_t>(cell)});
      }
    }
    for (const auto& alternatives : at_lowest) {
      found.lowest_from.push_back(static_cast<std::uint32_t>(found.by_lowest.size()));
      found.by_lowest.insert(found.by_lowest.end(), alternatives.begin(), alternatives.end());
    }
    found.lowest_from.push_back(static_cast<std::uint32_t>(found.by_lowest.size()));
  }

  // The terms of `body` run from `start`, one per mask and sense; false when the run dies whatever
  // the board (off the board, a region's test that fails).
  bool pattern_terms(const std::vector<Probe>& body, int start, std::vector<PatternTerm>& terms) const {
    int here = start;
    for (const Probe& probe : body) {
      if (probe.capture) continue;
      if (probe.cannot >= 0) {
        if (!cannot_terms(cannots_[static_cast<std::size_t>(probe.cannot)], here, terms)) return false;
      } else if (probe.direction >= 0) {
        here = here < 0 ? -1 : owner_.next_[static_cast<std::size_t>(probe.direction) * owner_.cells_ + here];
        if (here < 0) return false;
      } else if (here < 0 || probe.region >= 0) {
        const bool holds = here >= 0 && owner_.regions_[static_cast<std::size_t>(probe.region)].test(here);
        if (holds == probe.negate) return false;
      } else {
        add_term(terms, probe.mask, probe.negate, here);
      }
    }
    return true;
  }

  static void add_term(std::vector<PatternTerm>& terms, int mask, bool negate, int cell) {
    auto term = std::find_if(terms.begin(), terms.end(),
                             [&](const PatternTerm& t) { return t.mask == mask && t.negate == negate; });
    if (term == terms.end())
      term = terms.insert(terms.end(), PatternTerm{{}, static_cast<std::uint16_t>(mask), negate});
    term->cells.set(cell);
  }

  // The terms of (cannot B) at `here`, B's `alternatives` each of one test of a mask at most
  // (straight_bodies): each alternative that may run from here must fail its one test, a term of
  // the other sense; false when one runs whatever the board.
  bool cannot_terms(const std::vector<std::vector<Probe>>& alternatives, int here,
                    std::vector<PatternTerm>& terms) const {
    for (const std::vector<Probe>& alternative : alternatives) {
      std::vector<PatternTerm> runs;
      if (!pattern_terms(alternative, here, runs)) continue;
      if (runs.empty()) return false;
      add_term(terms, runs.front().mask, !runs.front().negate, runs.front().cells.lowest());
    }
    return true;
  }

 public:
  // The captors of the part of `body` after its top-level land, when that part is made only of
  // (each-direction V DIRS (if-can B)), each B straight but for its captures, and from each cell
  // every alternative of B that may run there captures the same cells: a part that complete()
  // runs with no VM, its patterns asked in the VM's order (the tafl games' custodial captures).
  std::optional<std::vector<Captor>> captors(const Expr& body) {
    const auto land =
        std::find_if(body.items.begin(), body.items.end(), [](const Expr& e) { return e.op == Op::Land; });
    if (body.op != Op::Seq || land == body.items.end()) return {};
    std::vector<Captor> found;
    for (auto each = land + 1; each != body.items.end(); ++each) {
      if (each->op != Op::EachDirection || each->items.size() != 1 || each->items.front().op != Op::IfCan ||
          changes_counters(each->items.front()))
        return {};
      for (std::size_t i = 0; i < each->directions.size(); ++i) {
        std::vector<std::vector<Probe>> bodies(1);
        bool straight = false;
        bound(*each, i, [&] { straight = straight_bodies(each->items.front().items, bodies, true); });
        if (!straight) return {};
        Captor captor{pattern(bodies), {}, {}};
        if (!captured_cells(bodies, captor)) return {};
        found.push_back(std::move(captor));
      }
    }
    return found;
  }

 private:
  static bool changes_counters(const Expr& e) {
    return e.op == Op::Add || e.op == Op::Set || std::any_of(e.items.begin(), e.items.end(), changes_counters);
  }

  // Captor::from and cells: from each cell, the cells that `bodies` capture, the same for every
  // body that may run from there (false when two differ).
  bool captured_cells(const std::vector<std::vector<Probe>>& bodies, Captor& captor) const {
    std::vector<std::int16_t> cells, taken;
    for (int start = 0; start < owner_.cells_; ++start) {
      captor.from.push_back(static_cast<std::uint32_t>(captor.cells.size()));
      bool first = true;
      for (const std::vector<Probe>& body : bodies) {
        if (!captures_from(body, start, taken)) continue;
        if (!first && taken != cells) return false;
        cells = taken;
        first = false;
      }
      if (!first) captor.cells.insert(captor.cells.end(), cells.begin(), cells.end());
    }
    captor.from.push_back(static_cast<std::uint32_t>(captor.cells.size()));
    return true;
  }

  // The cells `body` captures run from `start`; false when it dies there whatever the board.
  bool captures_from(const std::vector<Probe>& body, int start, std::vector<std::int16_t>& taken) const {
    taken.clear();
    int here = start;
    for (const Probe& probe : body)
      if (probe.capture) {
        taken.push_back(static_cast<std::int16_t>(here));
      } else if (probe.direction >= 0) {
        here = owner_.next_[static_cast<std::size_t>(probe.direction) * owner_.cells_ + here];
        if (here < 0) return false;
      } else if (probe.region >= 0 &&
                 owner_.regions_[static_cast<std::size_t>(probe.region)].test(here) == probe.negate) {
        return false;
      }
    return true;
  }

  // The body of an any-direction or each-direction with its name bound to its i-th direction.
  void bound(const Expr& e, std::size_t i, const std::function<void()>& body) {
    bound_.emplace_back(e.variable, direction(e.directions[i]));
    body();
    bound_.pop_back();
  }

  // The slot of a (mark NAME), after each-direction's: the first mark of a name takes the next one.
  int named_mark(const std::string& name) {
    const auto found = std::find(named_marks_.begin(), named_marks_.end(), name);
    if (found != named_marks_.end()) return kMarks + static_cast<int>(found - named_marks_.begin());
    if (named_marks_.size() == lang::core::kMaxNamedMarks)
      throw std::runtime_error(fmt::format("a rule names more than {} marks", lang::core::kMaxNamedMarks));
    named_marks_.push_back(name);
    return kMarks + static_cast<int>(named_marks_.size()) - 1;
  }

  int bound_direction(const std::string& name) const {
    for (auto it = bound_.rbegin(); it != bound_.rend(); ++it)
      if (it->first == name) return it->second;
    throw std::runtime_error(fmt::format("the direction '{}' is not bound here", name));
  }

  int direction(const lang::core::Direction& d) {
    const lang::Offset forward = owner_.rules_->players[static_cast<std::size_t>(player_)].forward;
    return owner_.direction_index(d.frame == lang::core::Direction::Frame::Absolute ? d.offset
                                                                                    : lang::orient(d.offset, forward));
  }

  int direction_set(const std::vector<lang::core::Direction>& directions) {
    DirectionSet set;
    for (const lang::core::Direction& d : directions) set.directions.push_back(direction(d));
    const auto same = std::find_if(owner_.direction_sets_.begin(), owner_.direction_sets_.end(),
                                   [&](const DirectionSet& known) { return known.directions == set.directions; });
    if (same != owner_.direction_sets_.end()) return static_cast<int>(same - owner_.direction_sets_.begin());
    if (!owner_.rules_->has_links())
      for (const int index : set.directions) set.shifts.push_back(group_step(index));
    set.around.resize(static_cast<std::size_t>(owner_.cells_));
    for (int cell = 0; cell < owner_.cells_; ++cell)
      for (const int index : set.directions)
        if (const int to = owner_.next_[static_cast<std::size_t>(index) * owner_.cells_ + cell]; to >= 0)
          set.around[static_cast<std::size_t>(cell)].set(to);
    for (int cell = 0; cell < owner_.cells_; ++cell)
      set.loops = set.loops || set.around[static_cast<std::size_t>(cell)].test(cell);
    owner_.direction_sets_.push_back(std::move(set));
    return static_cast<int>(owner_.direction_sets_.size()) - 1;
  }

  // A step along directions_[index] on a grid, where it moves every cell by one number of cells.
  GroupStep group_step(int index) const {
    const lang::Offset offset = owner_.directions_[static_cast<std::size_t>(index)];
    const int delta = offset.dy * owner_.width_ + offset.dx;
    GroupStep step;
    for (int cell = 0; cell < owner_.cells_; ++cell)
      if (owner_.next_[static_cast<std::size_t>(index) * owner_.cells_ + cell] >= 0) step.from.set(cell);
    step.left = static_cast<std::uint16_t>(std::max(delta, 0));
    step.right = static_cast<std::uint16_t>(std::max(-delta, 0));
    return step;
  }

  // The index of the quarter turn of (rotate REGION SENSE) in rotations_, one entry for each turn.
  // The checker made sure the region is a square of cells on a grid, in increasing order: its
  // first cell is the lower left corner, its last the upper right. A region written as cells is
  // named by those two corners, a1..b2.
  int rotation(const Expr& e) {
    const int width = owner_.width_;
    const lang::CellList& cells = e.region.cells;
    const int corner = cells.front(), side = cells.back() % width - corner % width + 1;
    Rotation turn;
    turn.text = (e.variable.empty() ? lang::cell_name(corner, width) + ".." + lang::cell_name(cells.back(), width)
                                    : e.variable) +
                (e.amount > 0 ? "+" : "-");
    for (const int cell : cells) {
      const int dx = cell % width - corner % width, dy = cell / width - corner / width;
      // Clockwise, with row 1 at the bottom: the upper left corner goes to the upper right.
      const int x = e.amount > 0 ? dy : side - 1 - dy, y = e.amount > 0 ? side - 1 - dx : dx;
      turn.cells.push_back(static_cast<std::int16_t>(cell));
      turn.images.push_back(static_cast<std::int16_t>(corner + y * width + x));
    }
    auto& rotations = owner_.rotations_;
    if (const auto known = std::find(rotations.begin(), rotations.end(), turn); known != rotations.end())
      return static_cast<int>(known - rotations.begin());
    if (rotations.size() == 255) throw std::runtime_error("more than 255 rotations in one game");
    rotations.push_back(std::move(turn));
    return static_cast<int>(rotations.size()) - 1;
  }

  int region(const lang::core::Region& r) {
    const bool rows = r.kind != lang::core::Region::Kind::Cells;
    const lang::CellList cells =
        rows ? lang::core::relative_rows(*owner_.rules_, player_, r.rows, r.kind == lang::core::Region::Kind::FarRows)
             : r.cells;
    Board mask;
    for (const int cell : cells) mask.set(cell);
    owner_.regions_.push_back(mask);
    return static_cast<int>(owner_.regions_.size()) - 1;
  }

  GeneralMoves& owner_;
  int player_;
  std::vector<Instruction>& code_;
  std::vector<std::pair<std::string, int>> bound_;
  int marks_ = 0;
  int counts_ = 0;  // line counts and counted repeats open around the expression compiled
  // A bounded repeat of up to this many optional passes is unrolled, a copy of its body each: no
  // count to keep, and the games' short bounds (docs/core-design.md §5.1) stay as they were.
  static constexpr int kUnrolledPasses = 8;
  std::vector<std::string> named_marks_;
  std::vector<std::vector<std::vector<Probe>>> cannots_;  // the alternatives of each (cannot B) in a straight body
};

namespace {
// Whether `rule` applies under a condition: a (when ...), or a phase (applies() asks both).
bool applies_under_condition(const lang::core::Rule& rule) { return rule.when || rule.phase >= 0; }
}  // namespace

template <int Words>
typename GeneralMoves<Words>::CompiledRule GeneralMoves<Words>::compile(const lang::core::Rule& rule, int index) {
  CompiledRule compiled;
  compiled.rule = &rule;
  compiled.index = index;
  const bool defer = may_defer(rule);
  for (int player = 0; player < rules_->player_count(); ++player) {
    if (rule.only_player >= 0 && rule.only_player != player) continue;
    const auto p = static_cast<std::size_t>(player);
    Compiler compiler(*this, player, compiled.code[p]);
    // What the back end cannot hold (a lookahead too long, marks nested too deep) is refused at
    // the rule, as loading refuses a file's other rules, not thrown past the tools' error reports.
    try {
      compiled.resume[p] = compiler.rule(rule.expr, defer);
    } catch (const lang::Error&) {
      throw;
    } catch (const std::runtime_error& error) {
      throw lang::Error(lang::Diagnostic{rules_->source, rule.pos, error.what(),
                                         "docs/core-design.md, section 5.3, says what the general back end holds"});
    }
    if (rule.scope == lang::core::Rule::Scope::Piece) {
      compiled.slide[p] = compiler.leading_slide(rule.expr, compiled.resume[p] >= 0);
      if (compiled.resume[p] >= 0) compiled.captors[p] = compiler.captors(rule.expr);
      if (compiled.resume[p] < 0) compiled.jumps[p] = compiler.jump_line(rule.expr);
      if (compiled.resume[p] < 0) compiled.lines[p] = compiler.line_move(rule.expr);
    }
    if (rule.scope == lang::core::Rule::Scope::Piece) compiled.openings[p] = compiler.openings(compiled.code[p]);
    compiled.by_runs[p] = !compiled.slide[p] && !compiled.jumps[p] && !compiled.lines[p] && !rule.legal &&
                          compiler.told_apart(rule.expr, rule.scope == lang::core::Rule::Scope::Piece);
    if (compiled.by_runs[p]) {
      form_fans(compiled.code[p], player, rule.scope != lang::core::Rule::Scope::Piece && !adds_mover(rule.expr));
      form_group_places(compiled.code[p]);
    }
    if (compiled.by_runs[p] && rule.scope == lang::core::Rule::Scope::Piece)
      compiled.steps[p] = compiler.step(rule.expr);
    if (compiled.by_runs[p] && rule.scope == lang::core::Rule::Scope::Game)
      compiled.drops[p] = drop_of(compiled.code[p]);
    const std::vector<Instruction>& code = compiled.code[p];
    const auto enters = [](const Instruction& in) { return in.code == Code::New || in.code == Code::FromHand; };
    compiled.brings[p] = enters(code.front())                             ? CompiledRule::Brings::Piece
                         : std::none_of(code.begin(), code.end(), enters) ? CompiledRule::Brings::Nothing
                                                                          : CompiledRule::Brings::Either;
  }
  return compiled;
}

template <int Words>
GeneralMoves<Words>::GeneralMoves(std::shared_ptr<const lang::Rules> rules,
                                  std::shared_ptr<const lang::core::Rules> core, std::size_t known_texts)
    : rules_(std::move(rules)), core_(std::move(core)), cells_(rules_->cells()), width_(rules_->width) {
  texts_->capacity = known_texts;
  for (int cell = 0; cell < cells_; ++cell) board_.set(cell);
  track_places_.assign(rules_->tracks.size() * kMaxPlayers * static_cast<std::size_t>(cells_), -1);
  for (std::size_t track = 0; track < rules_->tracks.size(); ++track)
    for (int player = 0; player < rules_->player_count(); ++player) {
      const lang::CellList& cycle = rules_->tracks[track].cells[static_cast<std::size_t>(player)];
      for (std::size_t place = 0; place < cycle.size(); ++place)
        track_places_[track_index(static_cast<int>(track), player, cycle[place])] = static_cast<std::int8_t>(place);
    }
  prefer_captures_ = core_->prefer_captures;
  for (std::size_t index = 0; index < core_->moves.size(); ++index) {
    const lang::core::Rule& rule = core_->moves[index];
    CompiledRule compiled = compile(rule, static_cast<int>(index));
    has_fallback_ = has_fallback_ || rule.fallback;
    if (std::find(priorities_.begin(), priorities_.end(), rule.priority) == priorities_.end())
      priorities_.insert(std::upper_bound(priorities_.begin(), priorities_.end(), rule.priority), rule.priority);
    if (rule.when && rule.when->kind == lang::core::Condition::Kind::OthersCanMove) asks_others_[rule.fallback] = true;
    for (const auto& code : compiled.code)
      for (const Instruction& instruction : code) {
        blocks_ = blocks_ || instruction.code == Code::Block;
        moves_others_pieces_ =
            moves_others_pieces_ || instruction.code == Code::Rotate || instruction.code == Code::Relocate;
        if (instruction.code == Code::New) entering_pieces_.set(instruction.arg);
        adds_pieces_ = adds_pieces_ || instruction.code == Code::New || instruction.code == Code::FromHand;
      }
    compiled_.push_back(std::move(compiled));
  }
  // After every rule is compiled: next_ then holds every direction the code goes along. Only games
  // that ask whether a piece can be taken use the reach (takes_any); without it a rule runs from
  // every origin, which answers the same.
  const bool reach_asked = asks_takes();
  for (CompiledRule& compiled : compiled_)
    if (compiled.rule->scope == lang::core::Rule::Scope::Piece && reach_asked)
      for (int player = 0; player < rules_->player_count(); ++player)
        compiled.taking_origins[static_cast<std::size_t>(player)] = taking_origins(compiled, player);
  // A player's moves are counted without records (count_moves) when each is told apart by its
  // origin and landing, or by its run: each rule a listing runs for the player (the fallback rules
  // aside) is counted, or applies only under a condition (when ...), whose moves are then listed
  // (Konane's opening removals); one rule at least counted. A counted
  // rule has no (legal ...) of its own and is one of three kinds. A piece rule walked as a slide
  // (CompiledRule::slide), a jump line (CompiledRule::jumps) or a line move (CompiledRule::lines): a
  // slide's runs from an origin are its landings, each run plain up to COMMIT (no effect, no
  // waypoint), so its record and fingerprint are its scalars, in which two runs of one origin differ
  // only by the landing; a jump line's differ by the landing and the pieces jumped, a line move's by
  // the landing and the capture there. moves_told_apart checks that two of them
  // never share a fingerprint. So the listing's moves of an origin are its distinct landings: one
  // landing reached twice (two directions, a link) is one move there as in the count. Or a piece
  // or game rule whose runs from one start are each a move (CompiledRule::by_runs), counted by
  // running it; a game rule's moves come after every origin's, as list() gives them. A piece type
  // has one rule, or two apart (CompiledRule::apart: an origin's moves are the first rule's, then
  // the second's, as list() runs them), or several that each apply under a condition; the game one
  // rule, or several such: count_moves refuses a position where two of one piece type, or two game rules, apply
  // (of any priorities), since their moves may be one. Priorities are counted as list() runs them, lowest first.
  // A rule of a phase applies under a condition as one of a (when ...) does: applies() asks both.
  for (int player = 0; player < rules_->player_count(); ++player) {
    counts_moves_[static_cast<std::size_t>(player)] = counts_rules(compiled_, player);
    form_fixed_draws(player);
  }
  if (prefer_captures_ && !prioritised() && !asks_attacks_) form_quiet();
}

// The draws of `player` that need no search: walked_draws_, the one rule of a piece type (or of
// the game) when it is a step, a drop, a counted jump line or a slide whose runs are moves (a listing's
// setting up, the rules that apply and the origins, was most of Brandubh's draw), or a piece type's two rules apart
// when each is a step or a jump line; and fixed_rules_, the rules that apply when no rule of the player's applies under
// a condition, the same in every position.
template <int Words>
void GeneralMoves<Words>::form_fixed_draws(int player) {
  const auto p = static_cast<std::size_t>(player);
  std::vector<int> rules_of(rules_->pieces.size() + 1, 0);  // per piece type, the game's last
  for (const CompiledRule& compiled : compiled_)
    if (!compiled.rule->fallback && !compiled.code[p].empty()) ++rules_of[owner_of(*compiled.rule)];
  walked_draws_[p].assign(rules_->pieces.size() + 1, WalkedDraw{});
  for (const CompiledRule& compiled : compiled_) {
    if (compiled.rule->fallback || compiled.code[p].empty()) continue;
    WalkedDraw& walked = walked_draws_[p][owner_of(*compiled.rule)];
    if (rules_of[owner_of(*compiled.rule)] == 1 &&
        (compiled.steps[p] || compiled.drops[p] || (compiled.jumps[p] && compiled.counted[p]) ||
         (compiled.slide[p] && compiled.slide[p]->runs_are_moves)))
      walked.first = compiled.index;
    else if (compiled.apart[p] && (compiled.steps[p] || compiled.jumps[p]))  // the pair's, in the listing's order
      (walked.first < 0 ? walked.first : walked.second) = compiled.index;
  }
  for (std::size_t owner = 0; owner < rules_of.size(); ++owner)  // a pair walked whole, or not at all
    if (rules_of[owner] == 2 && walked_draws_[p][owner].second < 0) walked_draws_[p][owner] = {};
  if (std::none_of(compiled_.begin(), compiled_.end(), [&](const CompiledRule& compiled) {
        return !compiled.rule->fallback && !compiled.code[p].empty() && applies_under_condition(*compiled.rule);
      })) {
    StateType any_position;
    any_position.to_move = static_cast<std::uint8_t>(player);
    if (!rules_applying(any_position, false, compiled_, fixed_rules_[p].emplace())) fixed_rules_[p].reset();
  }
  form_rejection(player);
}

// A draw by rejection (draws_by_rejection) for `player`: every rule the same in every position
// (fixed_rules_), each a game rule whose runs are each a move, counted by running it (no drop), with
// nothing deferred; one of them, the placement, a GROUPPLACE right after its NEW.
template <int Words>
void GeneralMoves<Words>::form_rejection(int player) {
  const auto p = static_cast<std::size_t>(player);
  if (!fixed_rules_[p] || !counts_moves_[p] || priorities_.size() > 1 || prefer_captures_) return;
  const RulesOf& rule_of = fixed_rules_[p]->rule_of;
  const auto game = static_cast<std::ptrdiff_t>(rules_->pieces.size());
  if (!fixed_rules_[p]->also_of.empty() || std::any_of(rule_of.begin(), rule_of.begin() + game, std::identity()))
    return;
  Rejection rejection;
  int placements = 0;
  for (auto rule = rule_of.begin() + game; rule != rule_of.end(); ++rule) {
    if (!*rule) continue;
    const CompiledRule& compiled = **rule;
    const std::vector<Instruction>& code = compiled.code[p];
    if (!compiled.counted[p] || !compiled.by_runs[p] || compiled.drops[p] || compiled.resume[p] >= 0) return;
    if (code.size() > 1 && code[0].code == Code::New && code[1].code == Code::GroupPlace) {
      rejection.placement = rejection.rules.size();
      ++placements;
    }
    rejection.rules.push_back(&compiled);
  }
  if (placements == 1) rejections_[p] = std::move(rejection);
}

// The index of `rule`'s owner: its piece type, or for a game rule the number of piece types.
template <int Words>
std::size_t GeneralMoves<Words>::owner_of(const lang::core::Rule& rule) const {
  return static_cast<std::size_t>(
      rule.scope == lang::core::Rule::Scope::Piece ? rule.piece : static_cast<int>(rules_->pieces.size()));
}

// Under (prefer captures), a position where no move captures has the moves of the rules' quiet
// parts (quiet_part), which may be counted where the whole rules are not (a man's step beside its
// jumps, a king's slide beside its captures); whether some move captures is asked of the rules'
// capture parts (capture_part), run from the origins where their openings hold, up to the first
// run. None when a rule's quiet part cannot be written or a rule has a (legal ...) of its own.
template <int Words>
void GeneralMoves<Words>::form_quiet() {
  auto derived = std::make_shared<std::vector<lang::core::Rule>>();
  struct Derived {
    int index;  // of the rule it is a part of
    bool quiet;
  };
  std::vector<Derived> parts;
  for (std::size_t index = 0; index < core_->moves.size(); ++index) {
    const lang::core::Rule& rule = core_->moves[index];
    if (rule.fallback) continue;  // listed when nothing else moves, as before
    std::optional<Expr> quiet;
    if (rule.legal || !quiet_part(rule.expr, quiet)) return;
    const auto add = [&](std::optional<Expr> part, bool is_quiet) {
      if (!part) return;
      parts.push_back({static_cast<int>(index), is_quiet});
      derived->push_back(rule);
      derived->back().expr = std::move(*part);
    };
    add(std::move(quiet), true);
    add(capture_part(rule.expr), false);
  }
  derived_rules_ = derived;  // complete: the compiled parts point into it
  for (std::size_t i = 0; i < parts.size(); ++i)
    (parts[i].quiet ? quiet_ : capture_).push_back(compile((*derived)[i], parts[i].index));
  for (int player = 0; player < rules_->player_count(); ++player)
    counts_quiet_[static_cast<std::size_t>(player)] = counts_rules(quiet_, player);
}

// Sets CompiledRule::counted of each of `rules` for `player`; returns whether the player's moves of
// them are counted (counts_moves).
template <int Words>
bool GeneralMoves<Words>::counts_rules(std::vector<CompiledRule>& rules, int player) const {
  const auto p = static_cast<std::size_t>(player);
  const auto owner = [&](const lang::core::Rule& rule) { return owner_of(rule); };
  // Per piece type, and the game's at the end: the rules, and whether each applies under a condition.
  std::vector<int> rules_of(rules_->pieces.size() + 1, 0);
  std::vector<bool> each_when(rules_->pieces.size() + 1, true);
  for (const CompiledRule& compiled : rules)
    if (!compiled.rule->fallback && !compiled.code[p].empty()) {
      ++rules_of[owner(*compiled.rule)];
      each_when[owner(*compiled.rule)] = each_when[owner(*compiled.rule)] && applies_under_condition(*compiled.rule);
    }
  // The game rules may be several when every two of them are apart (game_rules_apart).
  bool apart_game_rules = true;
  for (const CompiledRule& a : rules)
    for (const CompiledRule& b : rules)
      if (&a < &b && !a.rule->fallback && !b.rule->fallback && !a.code[p].empty() && !b.code[p].empty() &&
          a.rule->scope == lang::core::Rule::Scope::Game && b.rule->scope == lang::core::Rule::Scope::Game)
        apart_game_rules = apart_game_rules && game_rules_apart(a, b, player);
  // A piece type's two rules whose moves are apart are counted both (CompiledRule::apart).
  for (std::size_t piece = 0; piece < rules_->pieces.size(); ++piece) {
    if (rules_of[piece] != 2 || each_when[piece]) continue;
    std::vector<CompiledRule*> pair;
    for (CompiledRule& compiled : rules)
      if (!compiled.rule->fallback && !compiled.code[p].empty() && owner(*compiled.rule) == piece)
        pair.push_back(&compiled);
    const bool apart = !pair[0]->rule->legal && !pair[1]->rule->legal && !applies_under_condition(*pair[0]->rule) &&
                       !applies_under_condition(*pair[1]->rule) && piece_rules_apart(*pair[0], *pair[1], player);
    pair[0]->apart[p] = pair[1]->apart[p] = apart;
  }
  bool counted = true, some_counted = false;
  for (CompiledRule& compiled : rules) {
    const lang::core::Rule& rule = *compiled.rule;
    if (rule.fallback || compiled.code[p].empty()) continue;
    const bool walked =
        rule.scope == lang::core::Rule::Scope::Piece && (compiled.slide[p] || compiled.jumps[p] || compiled.lines[p]);
    compiled.counted[p] = !rule.legal && ((walked && moves_told_apart(compiled, player)) || compiled.by_runs[p]);
    const std::size_t of = owner(rule);
    const bool game = rule.scope == lang::core::Rule::Scope::Game;
    counted = counted && (rules_of[of] == 1 || each_when[of] || (game && apart_game_rules) || compiled.apart[p]) &&
              (compiled.counted[p] || applies_under_condition(rule));
    some_counted = some_counted || compiled.counted[p];
  }
  return counted && some_counted;
}

template <int Words>
bool GeneralMoves<Words>::game_rules_apart(const CompiledRule& a, const CompiledRule& b, int player) {
  const auto p = static_cast<std::size_t>(player);
  return a.brings[p] != b.brings[p] && a.brings[p] != CompiledRule::Brings::Either &&
         b.brings[p] != CompiledRule::Brings::Either;
}

template <int Words>
bool GeneralMoves<Words>::asks_takes() const {
  const auto in_check = [](const lang::EndRule& end, const auto& self) -> bool {
    return end.kind == lang::EndKind::InCheck ||
           std::any_of(end.parts.begin(), end.parts.end(), [&](const lang::EndRule& part) { return self(part, self); });
  };
  const auto any_in_check = [&](const std::vector<lang::EndRule>& ends) {
    return std::any_of(ends.begin(), ends.end(), [&](const lang::EndRule& end) { return in_check(end, in_check); });
  };
  const auto attacked = [](const Expr& e, const auto& self) -> bool {
    return e.op == Op::Attacked ||
           std::any_of(e.items.begin(), e.items.end(), [&](const Expr& item) { return self(item, self); });
  };
  return any_in_check(rules_->end) || any_in_check(rules_->legal) ||
         std::any_of(core_->moves.begin(), core_->moves.end(), [&](const lang::core::Rule& rule) {
           return (rule.legal && in_check(*rule.legal, in_check)) || attacked(rule.expr, attacked);
         });
}

template <int Words>
std::vector<typename GeneralMoves<Words>::Board> GeneralMoves<Words>::taking_origins(const CompiledRule& compiled,
                                                                                     int player) const {
  const std::vector<Instruction>& code = compiled.code[static_cast<std::size_t>(player)];
  if (code.empty()) return {};
  // States (pc, here) seen from the current origin, and the stack of those still to follow.
  std::vector<std::uint8_t> seen(code.size() * static_cast<std::size_t>(cells_), 0);
  std::vector<std::size_t> touched;
  std::vector<std::pair<std::int32_t, int>> pending;
  const auto reach = [&](std::int32_t pc, int here) {
    if (pc < 0 || here < 0) return;  // the run dies
    const std::size_t state =
        static_cast<std::size_t>(pc) * static_cast<std::size_t>(cells_) + static_cast<std::size_t>(here);
    if (seen[state]) return;
    seen[state] = 1;
    touched.push_back(state);
    pending.emplace_back(pc, here);
  };
  std::vector<Board> origins(static_cast<std::size_t>(cells_));
  std::size_t steps = 0;
  for (int origin = 0; origin < cells_; ++origin) {
    Board taken;
    reach(0, origin);
    while (!pending.empty()) {
      if (++steps > kReachBudget) return {};
      const auto [pc, here] = pending.back();
      pending.pop_back();
      const Instruction& in = code[static_cast<std::size_t>(pc)];
      switch (in.code) {
        case Code::Go: reach(pc + 1, next_[static_cast<std::size_t>(in.arg) * cells_ + here]); break;
        case Code::Enter:
        case Code::EnterWhere:  // a cell of the region, some of them ruled out by a mask: all of them here
        case Code::StepWhere:   // likewise every neighbour
        case Code::Fan:
        case Code::GroupPlace: {
          const Instruction& choice = in.code == Code::Fan          ? fans_[in.arg].choice
                                      : in.code == Code::GroupPlace ? group_places_[in.arg].choice
                                                                    : in;
          if (choice.code == Code::StepWhere) {
            for (const int direction : direction_sets_[choice.arg].directions)
              reach(pc + 1, next_[static_cast<std::size_t>(direction) * cells_ + here]);
          } else {
            for (Board cells = regions_[choice.arg]; cells.any();) reach(pc + 1, cells.pop_lowest());
          }
          break;
        }
        case Code::Back:
        case Code::Sow:
        case Code::CaptureSurrounded: return {};
        case Code::Capture:
        case Code::Convert:
          taken.set(here);
          reach(pc + 1, here);
          break;
        case Code::Jump: reach(in.alt, here); break;
        case Code::Look:  // the lookahead's body, then either way on
          reach(pc + 1, here);
          reach(in.arg, here);
          reach(in.alt, here);
          break;
        case Code::Attacked:
        case Code::Pattern:
        case Code::Test:
        case Code::TestRegion:
        case Code::Captured:
        case Code::Gone:
        case Code::Attr:
        case Code::AtRegister:
        case Code::LastFrom:
        case Code::LastTo:
        case Code::AtOrigin:
        case Code::Split:
        case Code::CountDown:
        case Code::HasLiberty:
        case Code::CountIs:
          reach(pc + 1, here);
          reach(in.alt, here);
          break;
        case Code::SubAccept:
        case Code::Accept: break;
        default: reach(pc + 1, here); break;  // an effect or a mark: here stays, `alt` is no place in the code
      }
    }
    for (const std::size_t state : touched) seen[state] = 0;
    touched.clear();
    while (taken.any()) origins[static_cast<std::size_t>(taken.pop_lowest())].set(origin);
  }
  return origins;
}

template <int Words>
bool GeneralMoves<Words>::moves_told_apart(const CompiledRule& compiled, int player) const {
  std::vector<std::uint64_t> fingerprints;
  GeneralRecord run;  // made once: one per origin took Tablut's start 0.3 million instructions more
  for (int origin = 0; origin < cells_; ++origin) {
    fingerprints.clear();
    possible_fingerprints(compiled, player, origin, run, fingerprints);
    std::sort(fingerprints.begin(), fingerprints.end());
    if (std::adjacent_find(fingerprints.begin(), fingerprints.end()) != fingerprints.end()) return false;
  }
  return true;
}

template <int Words>
bool GeneralMoves<Words>::piece_rules_apart(const CompiledRule& a, const CompiledRule& b, int player) const {
  if (a.rule->priority != b.rule->priority) return false;
  std::vector<std::uint64_t> fingerprints;
  GeneralRecord run;
  for (int origin = 0; origin < cells_; ++origin) {
    fingerprints.clear();
    if (!possible_fingerprints(a, player, origin, run, fingerprints) ||
        !possible_fingerprints(b, player, origin, run, fingerprints))
      return false;
    std::sort(fingerprints.begin(), fingerprints.end());
    if (std::adjacent_find(fingerprints.begin(), fingerprints.end()) != fingerprints.end()) return false;
  }
  return true;
}

template <int Words>
bool GeneralMoves<Words>::possible_fingerprints(const CompiledRule& compiled, int player, int origin,
                                                GeneralRecord& run, std::vector<std::uint64_t>& fingerprints) const {
  const auto p = static_cast<std::size_t>(player);
  // `run` as fill_record makes a slide's, a jump line's, a line move's or a step's
  run.changes.clear();
  run.piece = run.final_piece = static_cast<std::int8_t>(compiled.rule->piece);
  run.labelled = static_cast<std::int16_t>(compiled.rule->label.empty() ? -1 : compiled.index);
  run.origin = static_cast<std::int16_t>(origin);
  if (compiled.slide[p]) {
    for (Board landings = compiled.slide[p]->landings; landings.any();) {
      run.landing = static_cast<std::int16_t>(landings.pop_lowest());
      fingerprints.push_back(scalar_fingerprint(run) | 1);
    }
  } else if (const std::optional<LineMove>& line = compiled.lines[p]) {  // every stop, landed on or captured on
    Board landings;
    for (int way = 0; way < line->ways; ++way)
      for (int steps = 1; steps < line->longest; ++steps)
        if (const int stop = line->stops[line->at(way, origin, steps, cells_)]; stop >= 0) landings.set(stop);
    while (landings.any()) {
      run.landing = static_cast<std::int16_t>(landings.pop_lowest());
      run.changes.clear();
      fingerprints.push_back(scalar_fingerprint(run) | 1);
      run.changes.push_back({static_cast<std::uint16_t>(run.landing), CellChange::kCapture});
      fingerprints.push_back(run.fingerprint());
    }
  } else if (compiled
                 .jumps[p]) {  // every chain the line allows, as if each cell it passes could be jumped or landed on
    boost::container::small_vector<std::int16_t, 64> chain;
    for (const int direction : compiled.jumps[p]->directions) {
      chain.clear();
      const int jumps = jump_chain(origin, direction, board_, board_, chain, compiled.jumps[p]->chained);
      run.changes.clear();
      for (int jump = 0; jump < jumps; ++jump) {
        run.changes.push_back({static_cast<std::uint16_t>(chain[2 * jump]), CellChange::kCapture});
        std::sort(run.changes.begin(), run.changes.end(),
                  [](const CellChange& a, const CellChange& b) { return a.cell < b.cell; });
        run.landing = chain[2 * jump + 1];
        fingerprints.push_back(run.fingerprint());
      }
    }
  } else if (const std::optional<Step>& step = compiled.steps[p]; step && !step->captures && step->promotions.empty()) {
    for (const int direction : direction_sets_[static_cast<std::size_t>(step->directions)].directions) {
      const int cell = next_[static_cast<std::size_t>(direction) * static_cast<std::size_t>(cells_) +
                             static_cast<std::size_t>(origin)];
      if (cell < 0) continue;
      run.landing = static_cast<std::int16_t>(cell);
      fingerprints.push_back(scalar_fingerprint(run) | 1);
    }
  } else {
    return false;
  }
  return true;
}

// Whether `rule` has a deferred part (CompiledRule::resume): its body is a sequence with a land,
// before which nothing changes the board, and after which every item never fails and has one
// run. Only for a piece's sole rule, so that its moves are named alike by any listing: two runs
// of one origin, one deferred and one not, could otherwise be one move in one listing and two in
// the other. Not in games that ask whether a move captures before it is played (must-capture,
// prefer captures, quiet moves, check), since a deferred part's captures are not known then.
template <int Words>
bool GeneralMoves<Words>::may_defer(const lang::core::Rule& rule) const {
  if (rule.scope != lang::core::Rule::Scope::Piece || rule.expr.op != Op::Seq || rule.legal) return false;
  const auto asks_captures = [](const lang::EndRule& end, const auto& self) -> bool {
    return end.kind == lang::EndKind::QuietMoves || end.kind == lang::EndKind::InCheck ||
           std::any_of(end.parts.begin(), end.parts.end(), [&](const lang::EndRule& part) { return self(part, self); });
  };
  const auto any_asks = [&](const std::vector<lang::EndRule>& ends) {
    return std::any_of(ends.begin(), ends.end(),
                       [&](const lang::EndRule& end) { return asks_captures(end, asks_captures); });
  };
  if (core_->prefer_captures || rules_->must_capture || !rules_->legal.empty() || any_asks(rules_->end)) return false;
  const auto same_piece = [&](const lang::core::Rule& other) {
    return other.scope == lang::core::Rule::Scope::Piece && other.piece == rule.piece;
  };
  if (std::count_if(core_->moves.begin(), core_->moves.end(), same_piece) != 1) return false;
  const std::vector<Expr>& items = rule.expr.items;
  const auto land = std::find_if(items.begin(), items.end(), [](const Expr& e) { return e.op == Op::Land; });
  if (land == items.end() || land + 1 == items.end() || std::any_of(items.begin(), land, has_effect)) return false;
  const std::vector<Expr> deferred(land + 1, items.end());
  return std::all_of(deferred.begin(), deferred.end(), never_fails) && single_run_items(deferred);
}

template <int Words>
int GeneralMoves<Words>::direction_index(lang::Offset offset) {
  const auto found = std::find(directions_.begin(), directions_.end(), offset);
  if (found != directions_.end()) return static_cast<int>(found - directions_.begin());
  directions_.push_back(offset);
  opposite_.push_back(-1);
  for (int cell = 0; cell < cells_; ++cell)  // a hole is off the board; a link leads where it says
    next_.push_back(static_cast<std::int16_t>(rules_->is_hole(cell) ? -1 : rules_->next_cell(cell, offset)));
  return static_cast<int>(directions_.size()) - 1;
}

template <int Words>
[[gnu::always_inline]] inline typename GeneralMoves<Words>::Board GeneralMoves<Words>::ray_reach(int origin,
                                                                                                 const Board& empty,
                                                                                                 int direction) const {
  const std::size_t rays = static_cast<std::size_t>(direction) * static_cast<std::size_t>(cells_);
  const Board& ray = rays_[rays + static_cast<std::size_t>(origin)];
  const Board in_the_way = ray - empty;
  if (!in_the_way.any()) return ray;
  const int first = ray_order_[static_cast<std::size_t>(direction)] > 0 ? in_the_way.lowest() : in_the_way.highest();
  return ray - shadows_[rays + static_cast<std::size_t>(first)];  // a table: a single() at a cell took 8 instructions
}

template <int Words>
bool GeneralMoves<Words>::rays_apart(const std::vector<int>& directions) const {
  const auto cells = static_cast<std::size_t>(cells_);
  for (std::size_t cell = 0; cell < cells; ++cell) {
    Board met;
    for (const int direction : directions) {
      const Board& ray = rays_[static_cast<std::size_t>(direction) * cells + cell];
      if ((met & ray).any()) return false;
      met |= ray;
    }
  }
  return true;
}

template <int Words>
void GeneralMoves<Words>::add_rays(int direction) {
  const auto d = static_cast<std::size_t>(direction), cells = static_cast<std::size_t>(cells_);
  if (ray_order_.size() <= d) ray_order_.resize(d + 1, 0);
  if (rays_.size() < (d + 1) * cells) {
    rays_.resize((d + 1) * cells);
    shadows_.resize((d + 1) * cells);
  }
  int order = 0;
  bool monotone = true;
  for (int cell = 0; cell < cells_ && monotone; ++cell) {
    Board ray;
    for (int at = cell, to = next_[d * cells + static_cast<std::size_t>(cell)]; to >= 0 && monotone;
         at = to, to = next_[d * cells + static_cast<std::size_t>(to)]) {
      const int step = to > at ? 1 : -1;
      monotone = to != at && (order == 0 || step == order);
      order = step;
      ray.set(to);
    }
    rays_[d * cells + static_cast<std::size_t>(cell)] = ray;
    shadows_[d * cells + static_cast<std::size_t>(cell)] = ray | Board::single(cell);
  }
  ray_order_[d] = static_cast<std::int8_t>(!monotone ? 0 : order == 0 ? 1 : order);
}

// ---- the VM ---------------------------------------------------------------------------------------

// A run's registers; a choice point is a copy. The record and the waypoints are stacks that a
// choice point cuts back to its lengths.
namespace {
enum Mover : std::uint8_t { kNoMover, kCarried, kLanded, kExited };

// A stack whose pushes, pops and cuts back to a length are inline: a small_vector's resize and
// push_back are calls, which took 14% of Hasami Shogi's playouts. Its storage only grows, one item
// at a time: made with its inline room empty, a stack costs nothing to start (a search starts one
// for every listing and every "can the player move?").
template <typename T, std::size_t Inline>
class RunStack {
 public:
  std::size_t size() const { return size_; }
  const T& operator[](std::size_t i) const { return items_[i]; }
  const T* begin() const { return items_.data(); }
  void push(const T& item) {
    if (size_ == items_.size()) [[unlikely]]
      grow(item);
    else
      items_[size_] = item;
    ++size_;
  }
  const T& pop() { return items_[--size_]; }
  void cut(std::size_t size) { size_ = size; }

 private:
  // Out of line, so that a push is a store and a compare where the room is there. For a trivial
  // type (fingerprints) the room doubles, from 8, its items left unmade: not one call per push.
  [[gnu::noinline]] void grow(const T& item) {
    if constexpr (std::is_trivially_default_constructible_v<T>) {
      items_.resize(std::max<std::size_t>(items_.size() * 2, 8), boost::container::default_init);
      items_[size_] = item;
    } else {
      items_.push_back(item);
    }
  }

  boost::container::small_vector<T, Inline> items_;
  std::size_t size_ = 0;
};
// The fingerprints of one origin's moves so far, to tell a move found twice. A few are searched in
// a row; past that, in a hash table: an amazon on 10x10 makes over a thousand moves (a landing times
// an arrow), and a search in a row made its listing quadratic (the fuzzer timed out on it).
class MoveFingerprints {
 public:
  bool contains(std::uint64_t fingerprint) const {
    if (size_ <= kInRow)
      return std::find(in_row_.begin(), in_row_.begin() + size_, fingerprint) != in_row_.begin() + size_;
    if (fingerprint == 0) return has_zero_;
    for (std::size_t slot = slot_of(fingerprint); table_[slot] != 0; slot = (slot + 1) & mask_)
      if (table_[slot] == fingerprint) return true;
    return false;
  }
  void add(std::uint64_t fingerprint) {
    if (size_ < kInRow) {
      in_row_[size_++] = fingerprint;
      return;
    }
    if (size_ == kInRow) {
      table_.assign(kInRow * 4, 0);
      mask_ = table_.size() - 1;
      has_zero_ = false;
      for (const std::uint64_t known : in_row_) insert(known);
    }
    ++size_;
    if (size_ * 2 > table_.size()) grow();
    insert(fingerprint);
  }
  void clear() { size_ = 0; }

 private:
  static constexpr std::size_t kInRow = 16;
  std::size_t slot_of(std::uint64_t fingerprint) const {
    return static_cast<std::size_t>((fingerprint * 0x9E3779B97F4A7C15ULL) >> 32) & mask_;
  }
  void insert(std::uint64_t fingerprint) {
    if (fingerprint == 0) {
      has_zero_ = true;
      return;
    }
    std::size_t slot = slot_of(fingerprint);
    while (table_[slot] != 0) slot = (slot + 1) & mask_;
    table_[slot] = fingerprint;
  }
  [[gnu::noinline]] void grow() {
    const Table old = table_;
    table_.assign(old.size() * 2, 0);
    mask_ = table_.size() - 1;
    for (const std::uint64_t known : old)
      if (known != 0) insert(known);
  }

  std::array<std::uint64_t, kInRow> in_row_;  // not zeroed: a search makes one per listing, read up to size_
  std::size_t size_ = 0;
  // Open addressing, 0 an empty slot (a zero fingerprint is has_zero_); room for a queen's moves
  // without an allocation.
  using Table = boost::container::small_vector<std::uint64_t, kInRow * 4>;
  Table table_;
  std::size_t mask_ = 0;
  bool has_zero_ = false;
};
// A lookahead's body ends at SUBACCEPT, never at ACCEPT; one type, so that run() is instantiated
// once for every lookahead, however deep.
constexpr auto first_found = [](const auto&) { return true; };
// Counts the runs that complete, stopping none: count_runs and FAN's counts, one instance of run().
struct CountEach {
  int* runs;
  template <typename Thread>
  bool operator()(const Thread&) const {
    ++*runs;
    return false;
  }
};
}  // namespace

template <int Words>
struct GeneralMoves<Words>::Thread {
  std::int32_t pc = 0;
  std::int16_t here = -1;
  std::int16_t land = -1;  // where the mover landed, or exited
  std::uint16_t effects = 0, waypoints = 0;
  std::uint16_t part_effects = 0;  // the effects made before the last waypoint (earlier parts')
  std::int8_t piece = -1;          // the mover's type now
  std::int8_t entered = -1;        // the type of a mover that entered by (new P) or (from-hand)
  bool from_hand = false;          // it entered from its player's hand
  std::uint8_t mover = kNoMover;
  std::int8_t committed = -1;  // past COMMIT: the mover's type there, else -1
  std::array<std::int16_t, kMarks + lang::core::kMaxNamedMarks> marks{};
  std::array<std::int16_t, lang::core::kMaxNestedLineCounts> counts{};  // passes left of each line count
};

namespace {
// A run without effects or waypoints (a slide's, a step's): its record is its scalars alone.
template <typename Thread>
bool plain(const Thread& t) {
  return t.effects == 0 && t.waypoints == 0;
}
}  // namespace

template <int Words>
struct GeneralMoves<Words>::Search {
  struct Effect {
    std::int16_t cell = -1;
    Code code = Code::Capture;
    std::int8_t arg = -1;
    std::int16_t amount = 0;  // Add, Set
  };

  const StateType* state = nullptr;
  const Program<Words>* attacks = nullptr;  // answers (attacked); null while attacks are listed
  int player = 0;
  int players = kPlayers;  // the game's
  std::array<Board, kPieceMasks> masks;
  int origin = -1, start_piece = -1, labelled = -1;
  int rule = -1;       // the index of the compiled rule that runs
  bool legal = false;  // it has a (legal ...) of its own, and there is a program to ask
  bool defer = false;  // accept at COMMIT, leaving the deferred part
  // What FAN does: Each, its choice's every cell (a listing); Count, the runs of the cells where
  // its pattern does not lead on added to fan_runs, the others chosen (a count); Pick, the cell of
  // run number `skip` chosen alone, `skip` less the runs of the cells before it (a draw).
  // At, GROUPPLACE's cell `skip` alone where the placement is legal (none elsewhere), `skip` then 0
  // (a draw by rejection's candidate).
  enum class Fanning : std::uint8_t { Each, Count, Pick, At };
  Fanning fanning = Fanning::Each;
  int fan_runs = 0;
  int skip = 0;  // the runs still to pass over, no record made, before the one wanted (Pick); At: the cell
  const std::vector<Instruction>* code = nullptr;
  RunStack<Thread, 64> choices;
  RunStack<Effect, 32> effects;
  RunStack<std::uint16_t, 16> waypoints;
  // What the run had made at each waypoint: its effects and the mover's type (comes_back).
  struct Reached {
    std::uint16_t effects = 0;
    std::int8_t piece = -1;
  };
  RunStack<Reached, 16> reached;
  std::uint64_t steps = 0;

  Search() = default;  // armed before each use (GeneralMoves::armed_search)
  Search(const StateType& at, const Board& board, const Program<Words>* attack_test, int player_count) {
    arm(at, board, attack_test, player_count);
  }
  // Set for a new search of `at`, as if made afresh; the stacks keep the room they grew.
  // The enemy of the player to move is every other player (docs/language.md, "Players").
  void arm(const StateType& at, const Board& board, const Program<Words>* attack_test, int player_count) {
    state = &at;
    attacks = attack_test;
    player = at.to_move;
    players = player_count;
    origin = start_piece = labelled = rule = -1;
    legal = defer = false;
    fanning = Fanning::Each;
    fan_runs = skip = 0;
    code = nullptr;
    choices.cut(0);
    effects.cut(0);
    waypoints.cut(0);
    reached.cut(0);
    steps = 0;
    const Board& own = at.by_player[player];
    const Board enemy = players == kPlayers ? at.by_player[1 - player] : at.pieces() - own;
    const Board open = board - at.blocked;
    const Board empty = open - (own | enemy);
    masks[kEmpty] = empty;
    masks[kFriend] = own;
    masks[kEnemy] = enemy;
    masks[kNotFriend] = empty | enemy;
    masks[kOccupied] = own | enemy;
    masks[kAny] = open;
  }

  // The frozen board at here: the carried mover is off its origin, a landed mover is where it landed.
  // Inlined: the VM's most frequent instruction, a call of its own took 4% of Tablut's playouts.
  // Whether a landed mover of type `piece` is one of `mask`'s.
  static bool mover_in(int mask, int piece) {
    return mask == kFriend || mask == kOccupied || mask == kAny || mask == kPieceMasks + piece;
  }
  [[gnu::always_inline]] bool holds(const Thread& t, int mask) const {
    if (t.mover == kLanded && t.here == t.land) return mover_in(mask, t.piece);
    if (t.here == origin) return mask == kEmpty || mask == kNotFriend || mask == kAny;
    const Board& cells = mask < kPieceMasks ? masks[static_cast<std::size_t>(mask)]
                                            : state->by_piece[static_cast<std::size_t>(mask - kPieceMasks)];
    return cells.test(t.here);
  }
  // The cells where holds(t, mask) is true.
  [[gnu::always_inline]] Board frozen(const Thread& t, int mask) const {
    Board cells = mask < kPieceMasks ? masks[static_cast<std::size_t>(mask)]
                                     : state->by_piece[static_cast<std::size_t>(mask - kPieceMasks)];
    if (origin >= 0) {
      if (mask == kEmpty || mask == kNotFriend || mask == kAny)
        cells.set(origin);
      else
        cells.reset(origin);
    }
    if (t.mover == kLanded) {
      if (mover_in(mask, t.piece))
        cells.set(t.land);
      else
        cells.reset(t.land);
    }
    return cells;
  }
  // Where the previous move started (`from`) or ended, -1 for none: once this move has passed a
  // waypoint, its previous part's (a waypoint ends a part, which started at the waypoint before it
  // or at the origin); before, the last move's, which the register `reg` keeps.
  int last_move_cell(const Thread& t, bool from, int reg) const {
    if (t.waypoints == 0) return state->registers[static_cast<std::size_t>(reg)] - 1;
    if (!from) return waypoints[t.waypoints - 1u];
    return t.waypoints == 1 ? origin : waypoints[t.waypoints - 2u];
  }
  // Whether one of the run's first `among` effects captures here.
  bool captured(const Thread& t, std::size_t among) const {
    for (std::size_t i = 0; i < among; ++i)
      if (effects[i].code == Code::Capture && effects[i].cell == t.here) return true;
    return false;
  }
  Board pending_captures(const Thread& t) const {
    Board cells;
    for (std::size_t i = 0; i < t.effects; ++i)
      if (effects[i].code == Code::Capture) cells.set(effects[i].cell);
    return cells;
  }
  // The mover's player's pieces and the enemy's as the run has made the board so far: the mover
  // where it landed, or at here while carried, and the pieces whose capture is pending gone.
  std::array<Board, 2> sides(const Thread& t) const {
    const Board gone = pending_captures(t);
    Board own = masks[kFriend];
    if (origin >= 0 && t.mover != kNoMover) own.reset(origin);
    const int mover_at = t.mover == kLanded ? t.land : t.mover == kCarried ? t.here : -1;
    if (mover_at >= 0) own.set(mover_at);
    return {own - gone, masks[kEnemy] - gone};
  }
  // Whether a waypoint at here would bring the position back to one this move has reached (its
  // start, or an earlier waypoint) with no change between: the carried mover stands where it stood
  // then, and neither an effect nor a promotion came since. A chain of parts that goes round a
  // cycle would otherwise list a move for each lap (docs/core-design.md, "Parts that come back").
  // The waypoints are read back from the last while the run had made the same effects and the mover
  // was of the same type there, so a chain whose every part captures reads one.
  bool comes_back(const Thread& t) const {
    if (t.mover != kCarried) return false;
    for (std::size_t at = t.waypoints; at > 0; --at) {
      const Reached& then = reached[at - 1];
      if (then.effects != t.effects || then.piece != t.piece) return false;
      if (waypoints[at - 1] == t.here) return true;
    }
    return t.effects == 0 && t.piece == start_piece && t.here == origin;
  }
  // Whether a carried mover may be put down at here.
  bool landable(const Thread& t) const { return t.here >= 0 && (holds(t, kEmpty) || captured(t, t.effects)); }
  void effect(Thread& t, Code code, int arg = -1, int amount = 0) { effect_at(t, t.here, code, arg, amount); }
  void effect_at(Thread& t, int cell, Code code, int arg = -1, int amount = 0) {
    effects.cut(t.effects);
    effects.push(
        {static_cast<std::int16_t>(cell), code, static_cast<std::int8_t>(arg), static_cast<std::int16_t>(amount)});
    ++t.effects;
  }
};

// Runs from `t` until a run completes: at SUBACCEPT (a lookahead's body) returns true; at ACCEPT
// calls on_accept(thread), which returns true to stop. Returns false when every run has died.
template <int Words>
template <typename OnAccept>
bool GeneralMoves<Words>::run(Search& s, Thread t, OnAccept&& on_accept) const {
  const std::size_t base = s.choices.size();
  const std::vector<Instruction>& code = *s.code;
  const auto stop = [&](bool found) {
    s.choices.cut(base);
    return found;
  };
  for (;;) {
    // Checked every 1024 steps, as cheap as a compare per step: a rule that repeats without end
    // grows the open choices by a step at a time, and held half a gigabyte of them when only the
    // step budget stopped it.
    if ((++s.steps & 1023) == 0 && (s.steps > kStepBudget || s.choices.size() > kMostChoices))
      throw runaway(s.steps <= kStepBudget);
    const Instruction& in = code[static_cast<std::size_t>(t.pc)];
    bool alive = true;
    switch (in.code) {
      case Code::Go: {
        const int to = t.here < 0 ? -1 : next_[static_cast<std::size_t>(in.arg) * cells_ + t.here];
        alive = to >= 0;
        t.here = static_cast<std::int16_t>(to);
        ++t.pc;
        break;
      }
      case Code::Attacked:
        if (!s.attacks) {  // listed to find attacks: no run asks back
          alive = false;
          break;
        }
        [[fallthrough]];
      case Code::Test:
      case Code::TestRegion:
      case Code::Captured:
      case Code::Gone:
      case Code::Attr:
      case Code::AtRegister:
      case Code::LastFrom:
      case Code::LastTo:
      case Code::AtOrigin:
      case Code::Pattern: {
        bool holds = false;
        if (in.code == Code::Pattern)  // from no cell too: the pattern knows what holds there
          holds = pattern_holds(s, t, patterns_[in.arg]);
        else if (t.here >= 0)
          switch (in.code) {
            case Code::Test: holds = s.holds(t, in.arg); break;
            case Code::TestRegion: holds = regions_[in.arg].test(t.here); break;
            case Code::Captured: holds = s.captured(t, t.effects); break;
            case Code::Gone: holds = s.captured(t, t.part_effects); break;
            case Code::Attr: holds = s.state->attributes[in.arg].test(t.here); break;
            case Code::AtRegister: holds = s.state->registers[in.arg] == t.here + 1; break;
            case Code::LastFrom:
            case Code::LastTo: holds = s.last_move_cell(t, in.code == Code::LastFrom, in.arg) == t.here; break;
            case Code::AtOrigin: holds = t.here == s.origin; break;
            default:
              holds = s.attacks->attacked(*s.state, t.here, t.mover == kCarried ? s.origin : -1,
                                          t.mover == kNoMover ? -1 : t.piece);
          }
        if (holds != in.negate) {
          ++t.pc;
        } else {
          alive = in.alt >= 0;
          t.pc = in.alt;
        }
        break;
      }
      case Code::Split: {
        Thread later = t;
        later.pc = in.alt;
        s.choices.push(later);
        ++t.pc;
        break;
      }
      case Code::Jump: t.pc = in.alt; break;
      case Code::Look: {
        Thread sub = t;
        ++sub.pc;
        const bool found = run(s, sub, first_found);
        s.effects.cut(t.effects);
        s.waypoints.cut(t.waypoints);
        if (found != in.negate) {
          t.pc = in.arg;
        } else {
          alive = in.alt >= 0;
          t.pc = in.alt;
        }
        break;
      }
      case Code::SubAccept: return stop(true);
      case Code::Enter:
      case Code::EnterWhere: {
        Board cells = in.code == Code::Enter ? regions_[in.arg] : entered_where(s, t, in);
        alive = cells.any();
        if (!alive) break;
        ++t.pc;
        choose_cells(s, t, cells);
        break;
      }
      case Code::Fan: alive = fan(s, t, in); break;
      case Code::GroupPlace: alive = group_place(s, t, in); break;
      case Code::StepWhere: {
        std::array<std::int16_t, kMaxStepWhere> cells;
        const int count = stepped_where(s, t, in, cells.data());
        alive = count > 0;
        if (!alive) break;
        ++t.pc;
        for (int i = count - 1; i > 0; --i) {  // the later choices, the last pushed first
          Thread later = t;
          later.here = cells[static_cast<std::size_t>(i)];
          s.choices.push(later);
        }
        t.here = cells[0];
        break;
      }

      case Code::Mark:
        t.marks[in.arg] = t.here;
        ++t.pc;
        break;
      case Code::Back:
        t.here = t.marks[in.arg];
        ++t.pc;
        break;
      case Code::Become:
        if (t.mover == kCarried || (t.mover == kLanded && t.here == t.land))
          t.piece = static_cast<std::int8_t>(in.arg);
        else
          s.effect(t, Code::Become, in.arg);
        ++t.pc;
        break;
      case Code::Convert:
        if (t.mover != kLanded || t.here != t.land) s.effect(t, Code::Convert);
        ++t.pc;
        break;
      case Code::Capture:
      case Code::Block:
      case Code::Pass:
      case Code::Again:
      case Code::Swap:
        alive = t.here >= 0 || in.code == Code::Pass || in.code == Code::Again || in.code == Code::Swap;
        if (alive) s.effect(t, in.code, in.arg);  // a capture's arg: 1 to the mover's hand
        ++t.pc;
        break;
      case Code::New:
        alive = t.mover == kNoMover;
        t.mover = kCarried;
        t.piece = t.entered = static_cast<std::int8_t>(in.arg);
        ++t.pc;
        break;
      case Code::FromHand: {
        const HandTypes held = hand_types(*s.state, s.player, in.arg);  // each a choice
        alive = t.mover == kNoMover && !held.empty();
        if (!alive) break;
        ++t.pc;
        t.mover = kCarried;
        t.from_hand = true;
        for (auto piece = held.rbegin(); piece + 1 != held.rend(); ++piece) {
          Thread later = t;
          later.piece = later.entered = *piece;
          s.choices.push(later);
        }
        t.piece = t.entered = held.front();
        break;
      }
      case Code::Land:
      case Code::Exit:
        alive = t.mover == kCarried && (in.code == Code::Exit ? t.here >= 0 : s.landable(t));
        t.mover = in.code == Code::Exit ? kExited : kLanded;
        t.land = t.here;
        ++t.pc;
        break;
      case Code::Add:
      case Code::Set:
        s.effect(t, in.code, in.arg, in.alt);
        ++t.pc;
        break;
      case Code::Rotate:
        s.effect(t, in.code, -1, in.arg);
        ++t.pc;
        break;
      case Code::Relocate:
        alive = t.here >= 0 && s.holds(t, kOccupied) && t.marks[in.arg] >= 0;
        if (alive) s.effect(t, in.code, -1, t.marks[in.arg]);
        ++t.pc;
        break;
      case Code::SetAttr:
      case Code::ClearAttr:
      case Code::Remember:
        alive = t.here >= 0;
        if (alive) s.effect(t, in.code, in.arg);
        ++t.pc;
        break;
      case Code::Waypoint:
        alive = !s.comes_back(t);
        if (!alive) break;
        s.waypoints.cut(t.waypoints);
        s.waypoints.push(static_cast<std::uint16_t>(t.here));
        s.reached.cut(t.waypoints);
        s.reached.push({t.effects, t.piece});
        ++t.waypoints;
        t.part_effects = t.effects;
        ++t.pc;
        break;
      case Code::Commit:
        t.committed = t.piece;
        ++t.pc;
        if (s.defer && on_accept(t)) return stop(true);
        alive = !s.defer;
        break;
      case Code::LineCount: {
        const int pieces = t.here < 0 ? 0 : line_pieces(s, in.arg, t.here);
        alive = pieces > 0;
        t.counts[static_cast<std::size_t>(in.alt)] = static_cast<std::int16_t>(pieces);
        ++t.pc;
        break;
      }
      case Code::Passes:
        t.counts[in.arg] = static_cast<std::int16_t>(in.alt);
        ++t.pc;
        break;
      case Code::CountDown: {
        std::int16_t& left = t.counts[in.arg];
        t.pc = left == 0 ? in.alt : t.pc + 1;
        if (left > 0) --left;
        break;
      }
      case Code::CaptureSurrounded:
        alive = t.here >= 0;
        if (alive) capture_surrounded(s, t, in.arg);
        ++t.pc;
        break;
      case Code::HasLiberty:
      case Code::CountIs: {
        const bool holds =
            t.here >= 0 &&
            (in.code == Code::HasLiberty
                 ? has_liberty(s, t, in.arg)
                 : lang::compare(count_at(s, t, t.here), static_cast<lang::Comparison>(in.arg >> 8), in.arg & 0xff));
        if (holds != in.negate) {
          ++t.pc;
        } else {
          alive = in.alt >= 0;
          t.pc = in.alt;
        }
        break;
      }
      case Code::Sow: {
        const int seeds = t.here < 0 ? 0 : count_at(s, t, t.here);
        const int place = seeds > 0 ? track_place(in.arg, s.player, t.here) : -1;
        alive = place >= 0;
        if (!alive) break;
        s.effect(t, Code::Sow, in.arg, seeds);
        const lang::CellList& cells = rules_->tracks[in.arg].cells[static_cast<std::size_t>(s.player)];
        t.here = static_cast<std::int16_t>(
            cells[(static_cast<std::size_t>(place) + static_cast<std::size_t>(seeds)) % cells.size()]);
        ++t.pc;
        break;
      }
      case Code::TakeCount: {
        const int from = t.marks[in.arg];
        alive = t.here >= 0 && from >= 0;
        if (alive) s.effect(t, Code::TakeCount, from, count_at(s, t, from));
        ++t.pc;
        break;
      }
      case Code::Accept:
        if (t.mover == kCarried) {
          alive = s.landable(t);
          t.mover = kLanded;
          t.land = t.here;
        }
        if (alive && on_accept(t)) return stop(true);
        alive = false;
        break;
    }
    if (alive) continue;
    if (s.choices.size() == base) return stop(false);
    t = s.choices.pop();
  }
}

// Out of line, as the other long instructions' helpers: inlined, they made run() slower for every game.
template <int Words>
[[gnu::noinline]] typename GeneralMoves<Words>::Board GeneralMoves<Words>::entered_where(const Search& s,
                                                                                         const Thread& t,
                                                                                         const Instruction& in) const {
  const Board tested = s.frozen(t, in.alt);
  return in.negate ? regions_[in.arg] - tested : regions_[in.arg] & tested;
}

template <int Words>
[[gnu::noinline]] int GeneralMoves<Words>::stepped_where(const Search& s, const Thread& t, const Instruction& in,
                                                         std::int16_t* cells) const {
  if (t.here < 0) return 0;
  // The mask as the run has made the board, built once: a test of holds() per neighbour took
  // most of a step's draw (Morris's).
  const Board tested = s.frozen(t, in.alt);
  int count = 0;
  for (const int direction : direction_sets_[in.arg].directions) {
    const int to = next_[static_cast<std::size_t>(direction) * cells_ + t.here];
    if (to >= 0 && tested.test(to) != in.negate) cells[count++] = static_cast<std::int16_t>(to);
  }
  return count;
}

template <int Words>
[[gnu::noinline]] bool GeneralMoves<Words>::pattern_holds(const Search& s, const Thread& t,
                                                          const Pattern& pattern) const {
  return holds_at(pattern, t.here, [&](int mask) { return s.frozen(t, mask); });
}

// Whether `pattern` holds from `cell` (-1: no cell) on the board whose masks frozen(mask) gives.
template <int Words>
template <typename Frozen>
[[gnu::always_inline]] inline bool GeneralMoves<Words>::holds_at(const Pattern& pattern, int cell,
                                                                 Frozen&& frozen) const {
  const auto from = static_cast<std::size_t>(cell + 1);
  if (pattern.single_mask >= 0) {
    const Board cells = frozen(pattern.single_mask);
    for (std::uint32_t a = pattern.from[from]; a < pattern.from[from + 1]; ++a)
      if (!(pattern.terms[a].cells - cells).any()) return true;
    return false;
  }
  std::uint32_t term = pattern.from[from] == 0 ? 0 : pattern.ends[pattern.from[from] - 1];
  for (std::uint32_t a = pattern.from[from]; a < pattern.from[from + 1]; term = pattern.ends[a++]) {
    bool holds = true;
    for (std::uint32_t i = term; i < pattern.ends[a] && holds; ++i) {
      const PatternTerm& wanted = pattern.terms[i];
      const Board cells = frozen(wanted.mask);
      holds = wanted.negate ? !(cells & wanted.cells).any() : !(wanted.cells - cells).any();
    }
    if (holds) return true;
  }
  return false;
}

template <int Words>
[[gnu::noinline]] bool GeneralMoves<Words>::fan(Search& s, Thread& t, const Instruction& in) const {
  const Fan& fan = fans_[in.arg];
  // The choice's cells; in run order, a step's are in its directions' order, a region's ascending.
  std::array<std::int16_t, kMaxStepWhere> steps;
  int stepped = -1;
  Board chosen;
  if (fan.choice.code == Code::StepWhere && s.fanning != Search::Fanning::Count) {
    stepped = stepped_where(s, t, fan.choice, steps.data());
    for (int i = 0; i < stepped; ++i) chosen.set(steps[static_cast<std::size_t>(i)]);
  } else {
    chosen = choice_cells(s, t, fan);
  }
  Board on = chosen;  // the cells the VM runs on from
  if (s.fanning != Search::Fanning::Each) {
    chosen = tested_cells(s, t, fan, chosen);
    const std::vector<Instruction>& code = *s.code;
    Board leading;
    if (fan.pattern >= 0) {
      const Instruction& test = code[static_cast<std::size_t>(fan.pattern)];
      leading = landed_where(s, t, patterns_[test.arg], chosen) ^ (test.negate ? chosen : Board());
    }
    const Board accepted = fan.accepts ? chosen - leading : Board();  // one run each
    on = leading;
    if (s.fanning == Search::Fanning::Count) {
      s.fan_runs += accepted.count();
    } else {  // the cell of run number s.skip alone
      const auto passed = [&](int cell) {
        const int runs = accepted.test(cell) ? 1 : leading.test(cell) ? runs_on(s, t, cell) : 0;
        if (s.skip < runs) return false;
        s.skip -= runs;
        return true;
      };
      on = Board();
      if (stepped >= 0) {
        for (int i = 0; i < stepped && !on.any(); ++i)
          if (const int cell = steps[static_cast<std::size_t>(i)]; !passed(cell)) on.set(cell);
      } else {
        for (Board cells = accepted | leading; cells.any() && !on.any();)
          if (const int cell = cells.pop_lowest(); !passed(cell)) on.set(cell);
      }
    }
  }
  // The cells of `on` in run order: the first goes on now, the others are later choices, the last
  // pushed first.
  ++t.pc;
  if (stepped >= 0) {
    int kept = 0;
    for (int i = 0; i < stepped; ++i)
      if (on.test(steps[static_cast<std::size_t>(i)]))
        steps[static_cast<std::size_t>(kept++)] = steps[static_cast<std::size_t>(i)];
    if (kept == 0) return false;
    for (int i = kept - 1; i > 0; --i) {
      Thread later = t;
      later.here = steps[static_cast<std::size_t>(i)];
      s.choices.push(later);
    }
    t.here = steps[0];
    return true;
  }
  if (!on.any()) return false;
  choose_cells(s, t, on);
  return true;
}

// FAN's choice of cells, in no order.
template <int Words>
[[gnu::always_inline]] inline typename GeneralMoves<Words>::Board GeneralMoves<Words>::choice_cells(
    const Search& s, const Thread& t, const Fan& fan) const {
  if (fan.choice.code == Code::StepWhere) {
    const Board tested = s.frozen(t, fan.choice.alt);
    const Board& around = direction_sets_[fan.choice.arg].around[static_cast<std::size_t>(std::max<int>(t.here, 0))];
    return t.here < 0 ? Board() : fan.choice.negate ? around - tested : around & tested;
  }
  return fan.choice.code == Code::Enter ? regions_[fan.choice.arg] : entered_where(s, t, fan.choice);
}

// The tests of the chosen cell, then the land, over every chosen cell at once; the counters after
// the land change no test.
template <int Words>
[[gnu::always_inline]] inline typename GeneralMoves<Words>::Board GeneralMoves<Words>::tested_cells(
    const Search& s, const Thread& t, const Fan& fan, Board chosen) const {
  const std::vector<Instruction>& code = *s.code;
  for (std::int32_t pc = t.pc + 1; pc != fan.tests_end; ++pc) {
    const Instruction& test = code[static_cast<std::size_t>(pc)];
    const Board holds = test.code == Code::Test         ? s.frozen(t, test.arg)
                        : test.code == Code::TestRegion ? regions_[test.arg]
                        : test.code == Code::CountIs    ? counted_where(s, t, test, chosen)
                        : s.origin >= 0                 ? Board::single(s.origin)
                                                        : Board();
    chosen = test.negate ? chosen - holds : chosen & holds;
  }
  if (fan.lands) chosen = t.mover == kCarried ? chosen & (s.frozen(t, kEmpty) | s.pending_captures(t)) : Board();
  return chosen;
}

// The other cells are later choices, the highest pushed first so that they come in order.
template <int Words>
[[gnu::always_inline]] inline void GeneralMoves<Words>::choose_cells(Search& s, Thread& t, Board cells) {
  t.here = static_cast<std::int16_t>(cells.pop_lowest());
  while (cells.any()) {
    const int cell = cells.highest();
    cells.reset(cell);
    Thread later = t;
    later.here = static_cast<std::int16_t>(cell);
    s.choices.push(later);
  }
}

template <int Words>
typename GeneralMoves<Words>::Board GeneralMoves<Words>::landed_where(const Search& s, const Thread& t,
                                                                      const Pattern& pattern, Board cells) const {
  Board holds;
  if (pattern.single_mask < 0) {  // each cell's alternatives, their terms' masks built for it
    Thread landed = t;
    landed.mover = kLanded;
    while (cells.any()) {
      landed.here = landed.land = static_cast<std::int16_t>(cells.pop_lowest());
      if (pattern_holds(s, landed, pattern)) holds.set(landed.here);
    }
    return holds;
  }
  const Board before = s.frozen(t, pattern.single_mask);
  // No alternative needs its own cell, so the landed mover changes none: from the mask's cells when
  // they are fewer than the cells tested (a placement's many empty points against a few men).
  if (!pattern.lowest_from.empty() && before.count() < cells.count()) {
    for (Board men = before; men.any();) {
      const auto man = static_cast<std::size_t>(men.pop_lowest());
      for (std::uint32_t a = pattern.lowest_from[man]; a < pattern.lowest_from[man + 1]; ++a)
        if (!(pattern.by_lowest[a].cells - before).any()) holds.set(pattern.by_lowest[a].at);
    }
    return holds & cells;
  }
  // One mask: built once, the landed mover in it (or not) at each cell in turn.
  const bool lands_in = Search::mover_in(pattern.single_mask, t.piece);
  while (cells.any()) {
    const int cell = cells.pop_lowest();
    const Board mask = lands_in ? before | Board::single(cell) : before - Board::single(cell);
    const auto from = static_cast<std::size_t>(cell + 1);
    for (std::uint32_t a = pattern.from[from]; a < pattern.from[from + 1]; ++a)
      if (!(pattern.terms[a].cells - mask).any()) {
        holds.set(cell);
        break;
      }
  }
  return holds;
}

template <int Words>
int GeneralMoves<Words>::runs_on(Search& s, const Thread& t, int cell) const {
  Thread chose = t;
  chose.here = static_cast<std::int16_t>(cell);
  ++chose.pc;
  const auto fanning = s.fanning;
  const int fanned = s.fan_runs;
  s.fanning = Search::Fanning::Count;
  int runs = 0;
  run(s, chose, CountEach{&runs});
  runs += s.fan_runs - fanned;
  s.fan_runs = fanned;
  s.fanning = fanning;
  return runs;
}

// Out of line, as entered_where: inlined, it made every fan's tests slower (Morris's).
template <int Words>
[[gnu::noinline]] typename GeneralMoves<Words>::Board GeneralMoves<Words>::counted_where(const Search& s,
                                                                                         const Thread& t,
                                                                                         const Instruction& in,
                                                                                         Board cells) const {
  Board holds;
  while (cells.any())
    if (const int cell = cells.pop_lowest(); lang::compare(t.effects == 0 ? s.state->count(cell) : count_at(s, t, cell),
                                                           static_cast<lang::Comparison>(in.arg >> 8), in.arg & 0xff))
      holds.set(cell);
  return holds;
}

// Whether a count that passes the COUNTIS test `in` is above 0 (a count of 0 fails it).
template <typename Instruction>
static bool count_above_zero(const Instruction& in) {
  return lang::compare(0, static_cast<lang::Comparison>(in.arg >> 8), in.arg & 0xff) == in.negate;
}

template <int Words>
bool GeneralMoves<Words>::one_run_on(const std::vector<Instruction>& code, std::size_t pc, int player, Known known,
                                     int& budget) const {
  // Each way of a branch, forward only: a way that no cell of known.here takes makes no run.
  const auto both = [&](std::int32_t alt, const Known& held, const Known& failed) {
    return alt > static_cast<std::int32_t>(pc) &&
           (!held.here.any() || one_run_on(code, pc + 1, player, held, budget)) &&
           (!failed.here.any() || one_run_on(code, static_cast<std::size_t>(alt), player, failed, budget));
  };
  while (pc < code.size() && --budget > 0) {
    const Instruction& in = code[pc];
    switch (in.code) {
      case Code::Accept: return true;
      case Code::TestRegion: {
        Known held = known, failed = known;
        held.here = in.negate ? known.here - regions_[in.arg] : known.here & regions_[in.arg];
        failed.here = known.here - held.here;
        if (in.alt >= 0) return both(in.alt, held, failed);
        if (failed.here.any()) return false;  // it may end the run
        ++pc;
        continue;
      }
      case Code::Test:
      case Code::AtOrigin:
      case Code::Attr:
      case Code::AtRegister:
      case Code::LastFrom:
      case Code::LastTo:
      case Code::Captured:
      case Code::Gone:
      case Code::CountIs: {
        Known held = known;
        held.seeded = known.seeded || (in.code == Code::CountIs && count_above_zero(in));
        return both(in.alt, held, known);
      }
      case Code::Look:  // its body changes nothing: found, go to arg, else to alt
        return in.arg > static_cast<std::int32_t>(pc) && in.alt > static_cast<std::int32_t>(pc) &&
               one_run_on(code, in.arg, player, known, budget) &&
               one_run_on(code, static_cast<std::size_t>(in.alt), player, known, budget);
      case Code::Jump:
        if (in.alt <= static_cast<std::int32_t>(pc)) return false;
        pc = static_cast<std::size_t>(in.alt);
        continue;
      case Code::Mark: known.marks |= std::uint32_t{1} << in.arg; break;
      case Code::Again:
      case Code::Pass:
      case Code::Add:
      case Code::Set:
      case Code::Rotate: break;
      case Code::TakeCount:
        if (!(known.marks >> in.arg & 1)) return false;
        known.seeded = false;
        break;
      case Code::Sow: {  // here's count is above 0, and here is on the track: the last seed's cell is on it
        if (!known.seeded) return false;
        for (Board cells = known.here; cells.any();)
          if (track_place(in.arg, player, cells.pop_lowest()) < 0) return false;
        known.here = Board();
        for (const int cell : rules_->tracks[in.arg].cells[static_cast<std::size_t>(player)]) known.here.set(cell);
        known.seeded = false;
        break;
      }
      case Code::Go: {
        Board to;
        for (Board cells = known.here; cells.any();) {
          const int next = next_[static_cast<std::size_t>(in.arg) * cells_ + cells.pop_lowest()];
          if (next < 0) return false;
          to.set(next);
        }
        known.here = to;
        known.seeded = false;
        break;
      }
      case Code::Enter: {  // one cell of the region passes the tests after it
        Board cells = regions_[in.arg];
        for (; pc + 1 < code.size() && code[pc + 1].code == Code::TestRegion && code[pc + 1].alt < 0; ++pc)
          cells = code[pc + 1].negate ? cells - regions_[code[pc + 1].arg] : cells & regions_[code[pc + 1].arg];
        if (cells.count() != 1) return false;
        known.here = cells;
        known.seeded = false;
        break;
      }
      default: return false;
    }
    ++pc;
  }
  return false;
}

// Whether the PATTERN at `pc` leads, both when it holds and when it does not, to code that makes
// exactly one run (a mill that only sets a counter and gives one more decision): then it decides
// what the run does, not how many runs there are, and a count need not test it.
template <int Words>
bool GeneralMoves<Words>::pattern_decides_nothing(const std::vector<Instruction>& code, std::size_t pc,
                                                  int player) const {
  const std::int32_t other = code[pc].alt;
  int budget = kOneRunBudget;
  return other > static_cast<std::int32_t>(pc) && one_run_on(code, pc + 1, player, Known{board_}, budget) &&
         one_run_on(code, static_cast<std::size_t>(other), player, Known{board_}, budget);
}

// FAN in place of each ENTERWHERE or STEPWHERE of `code` that has its shape (see Fan), outside
// lookaheads: a lookahead's body looks for one run, which a count or a draw must not fan out.
template <int Words>
void GeneralMoves<Words>::form_fans(std::vector<Instruction>& code, int player, bool moverless) {
  const auto is = [&](std::size_t pc, std::initializer_list<Code> codes) {
    return pc < code.size() && std::find(codes.begin(), codes.end(), code[pc].code) != codes.end();
  };
  std::vector<bool> looked(code.size(), false);
  for (std::size_t pc = 0; pc < code.size(); ++pc)
    if (code[pc].code == Code::Look) std::fill(looked.begin() + pc + 1, looked.begin() + code[pc].arg, true);
  for (std::size_t pc = 0; pc < code.size(); ++pc) {
    if (looked[pc] || !is(pc, {Code::Enter, Code::EnterWhere, Code::StepWhere})) continue;
    std::size_t next = pc + 1;
    while (is(next, {Code::Test, Code::TestRegion, Code::AtOrigin, Code::CountIs}) && code[next].alt < 0) ++next;
    if (moverless && !is(pc, {Code::StepWhere})) {  // no land: the code after the tests
      // The cells the tests may pass, and whether here's count is then above 0 (a test said so).
      Known known{regions_[code[pc].arg]};
      for (std::size_t test = pc + 1; test < next; ++test)
        if (code[test].code == Code::TestRegion)
          known.here =
              code[test].negate ? known.here - regions_[code[test].arg] : known.here & regions_[code[test].arg];
        else if (code[test].code == Code::CountIs)
          known.seeded = known.seeded || count_above_zero(code[test]);
      int budget = kOneRunBudget;
      if (one_run_on(code, next, player, known, budget)) {
        fans_.push_back({code[pc], static_cast<std::int32_t>(next), -1, true, false});
        code[pc] = {Code::Fan, false, static_cast<std::uint16_t>(fans_.size() - 1), -1};
      }
      continue;
    }
    const auto tests_end = static_cast<std::int32_t>(next);
    if (is(pc, {Code::Enter}) || !is(next++, {Code::Land})) continue;
    while (is(next, {Code::Add, Code::Set})) ++next;
    if (is(next, {Code::Accept})) {  // no pattern: each cell where the tests hold is one run
      fans_.push_back({code[pc], tests_end, -1, true});
      code[pc] = {Code::Fan, false, static_cast<std::uint16_t>(fans_.size() - 1), -1};
      continue;
    }
    if (!is(next, {Code::Pattern})) continue;
    const std::int32_t other = code[next].alt;
    if (pattern_decides_nothing(code, next, player)) {  // each cell where the tests hold is one run, as above
      fans_.push_back({code[pc], tests_end, -1, true});
      code[pc] = {Code::Fan, false, static_cast<std::uint16_t>(fans_.size() - 1), -1};
      continue;
    }
    if (other >= 0 && !is(static_cast<std::size_t>(other), {Code::Accept})) continue;
    fans_.push_back({code[pc], tests_end, static_cast<std::int32_t>(next), other >= 0});
    code[pc] = {Code::Fan, false, static_cast<std::uint16_t>(fans_.size() - 1), -1};
  }
}

// GROUPPLACE in place of each ENTER or ENTERWHERE of `code` that has its shape (see
// GroupPlacement), outside lookaheads, on a board where no step of the set leads back to its cell
// (a link could): a cell's empty neighbour is then another cell, which stays empty.
template <int Words>
void GeneralMoves<Words>::form_group_places(std::vector<Instruction>& code) {
  const auto is = [&](std::size_t pc, Code wanted) { return pc < code.size() && code[pc].code == wanted; };
  std::vector<bool> looked(code.size(), false);
  for (std::size_t pc = 0; pc < code.size(); ++pc)
    if (code[pc].code == Code::Look) std::fill(looked.begin() + pc + 1, looked.begin() + code[pc].arg, true);
  for (std::size_t pc = 0; pc < code.size(); ++pc) {
    if (looked[pc] || !(is(pc, Code::Enter) || is(pc, Code::EnterWhere)) || !is(pc + 1, Code::Land) ||
        !is(pc + 2, Code::CaptureSurrounded) || !is(pc + 3, Code::HasLiberty))
      continue;
    const Instruction& liberty = code[pc + 3];
    const int set = code[pc + 2].arg;
    if (liberty.arg != set || liberty.negate || liberty.alt >= 0) continue;
    std::size_t next = pc + 4;
    while (is(next, Code::Add) || is(next, Code::Set)) ++next;
    if (!is(next, Code::Accept)) continue;
    if (direction_sets_[static_cast<std::size_t>(set)].loops) continue;
    static std::atomic<std::uint64_t> placements{0};
    group_places_.push_back({code[pc], set, ++placements});
    code[pc] = {Code::GroupPlace, false, static_cast<std::uint16_t>(group_places_.size() - 1), -1};
  }
}

// The legal cells of the placement, from the board as the run found it: only a new piece, carried
// with nothing pending, is put down on that board; otherwise (a piece rule's mover) every cell of
// the choice is run.
template <int Words>
[[gnu::noinline]] bool GeneralMoves<Words>::group_place(Search& s, Thread& t, const Instruction& in) const {
  const GroupPlacement& placement = group_places_[in.arg];
  Board cells = placement_choice(s, t, placement.choice);
  const bool put_down = s.origin < 0 && t.mover == kCarried && t.effects == 0;
  if (put_down && s.fanning == Search::Fanning::At) {  // a draw by rejection's candidate
    // A cell with an empty neighbour is legal (as placeable finds it), asked of its neighbours alone.
    const int cell = std::exchange(s.skip, 0);
    cells &= s.masks[kEmpty] & Board::single(cell);
    const Board& around =
        direction_sets_[static_cast<std::size_t>(placement.set)].around[static_cast<std::size_t>(cell)];
    if (!(around & s.masks[kEmpty]).any()) cells = placeable(s, cells, placement.set);
  } else if (put_down) {
    // A ply's count and its draw ask for one position's cells: the last answer is kept, per thread
    // (programs are shared by the threads of a search). With two players the sides say who owns
    // each group; with more, the cells are found again.
    struct Placed {
      std::uint64_t placement = 0;  // GroupPlacement::id: not a program's address, which a later one may reuse
      Board cells, own, enemy, empty, legal;
    };
    thread_local Placed last;
    cells &= s.masks[kEmpty];
    if (last.placement == placement.id && s.players == kPlayers && last.cells == cells &&
        last.own == s.masks[kFriend] && last.enemy == s.masks[kEnemy] && last.empty == s.masks[kEmpty]) {
      cells = last.legal;
    } else {
      last = {placement.id, cells, s.masks[kFriend], s.masks[kEnemy], s.masks[kEmpty], Board()};
      cells = last.legal = placeable(s, cells, placement.set);
    }
    if (s.fanning == Search::Fanning::Count) {  // each cell one run
      s.fan_runs += cells.count();
      return false;
    }
    if (s.fanning == Search::Fanning::Pick) {  // the cell of run number s.skip alone
      const int runs = cells.count();
      if (s.skip >= runs) {
        s.skip -= runs;
        return false;
      }
      cells = Board::single(cells.nth(s.skip));
      s.skip = 0;
    }
  }
  if (!cells.any()) return false;
  ++t.pc;
  choose_cells(s, t, cells);
  return true;
}

// The cells GROUPPLACE's choice chooses among, before the placement's tests.
template <int Words>
typename GeneralMoves<Words>::Board GeneralMoves<Words>::placement_choice(const Search& s, const Thread& t,
                                                                          const Instruction& choice) const {
  return choice.code == Code::Enter ? regions_[choice.arg] : entered_where(s, t, choice);
}

// A hemmed cell (no empty neighbour) is legal when a group of the mover's next to it has another
// liberty, or an enemy group next to it has no other. What a group was found to have is kept for
// the other hemmed cells next to it: `free`, stones of groups with two liberties or more (a group
// may be found only in part: its search stops at the second), `last`, stones of groups whose one
// liberty is a hemmed cell (found whole).
template <int Words>
typename GeneralMoves<Words>::Board GeneralMoves<Words>::placeable(const Search& s, Board cells, int set) const {
  const Board& empty = s.masks[kEmpty];
  const Board& own = s.masks[kFriend];
  const Board breathing = cells & next_to(empty, set);
  Board legal = breathing, free, last;
  for (Board hemmed = cells - breathing; hemmed.any();) {
    const int cell = hemmed.pop_lowest();
    const Board stones =
        direction_sets_[static_cast<std::size_t>(set)].around[static_cast<std::size_t>(cell)] & s.masks[kOccupied];
    // A group of the mover's that breathes, or an enemy's that does not, asked of boards: a branch a
    // stone was mispredicted.
    const auto decided = [&] { return ((stones & own & free) | ((stones & last) - own)).any(); };
    for (Board unknown = stones - free - last; unknown.any() && !decided(); unknown = unknown - free - last) {
      const int stone = unknown.lowest();
      Board group;
      const Board liberties = liberties_of(stone, group_pieces(s, s.masks[kEnemy], stone), empty, set, 2, group);
      (liberties.count() >= 2 ? free : last) |= group;
    }
    if (decided()) legal.set(cell);
  }
  return legal;
}

// The pieces on the line through `cell` along `direction` and back, `cell` included, on the position
// before the move: the mover still stands on its origin.
template <int Words>
int GeneralMoves<Words>::line_pieces(const Search& s, int direction, int cell) const {
  const Board& occupied = s.masks[kOccupied];
  int pieces = occupied.test(cell) ? 1 : 0;
  for (const int way : {direction, opposite_[static_cast<std::size_t>(direction)]})
    for (int at = next_[static_cast<std::size_t>(way) * cells_ + cell]; at >= 0;
         at = next_[static_cast<std::size_t>(way) * cells_ + at])
      pieces += occupied.test(at);
  return pieces;
}

// On a grid by shifts of the whole board, whatever the cells: by the table of neighbours, a few
// cells took fewer instructions but more time (Go's playouts 11% more: a loop of as many turns as
// cells is a branch the processor mispredicts); with links by the table.
template <int Words>
typename GeneralMoves<Words>::Board GeneralMoves<Words>::next_to(const Board& cells, int set) const {
  const DirectionSet& steps = direction_sets_[static_cast<std::size_t>(set)];
  Board reached;
  if (!steps.shifts.empty()) {
    for (const GroupStep& step : steps.shifts) reached |= step.forward(cells);
    return reached;
  }
  for (Board from = cells; from.any();) reached |= steps.around[static_cast<std::size_t>(from.pop_lowest())];
  return reached;
}

// The group of `pieces` that holds `cell` is searched a step at a time through `pieces`, until
// `enough` of its liberties (cells of `empty` next to it) are found, or it is whole.
template <int Words>
typename GeneralMoves<Words>::Board GeneralMoves<Words>::liberties_of(int cell, const Board& pieces, const Board& empty,
                                                                      int set, int enough, Board& group) const {
  group = Board::single(cell);
  // The first step from the table: most searches end there (a stone with liberties of its own).
  Board reached = direction_sets_[static_cast<std::size_t>(set)].around[static_cast<std::size_t>(cell)];
  Board liberties = reached & empty;
  for (Board frontier = reached & pieces; liberties.count() < enough && frontier.any();) {
    group |= frontier;
    reached = next_to(frontier, set);
    liberties |= reached & empty;
    frontier = (reached & pieces) - group;
  }
  return liberties;
}

// The pieces that make a group with the piece at `cell`: its player's, of `enemy` when it is not
// the mover's. With more than two players, a group is one player's: stones of two enemies do not
// join. With two, the side is chosen by a mask, not a branch, which the processor would mispredict.
template <int Words>
[[gnu::always_inline]] inline typename GeneralMoves<Words>::Board GeneralMoves<Words>::group_pieces(const Search& s,
                                                                                                    const Board& enemy,
                                                                                                    int cell) const {
  const Board& own = s.masks[kFriend];
  if (s.players > kPlayers) {
    if (own.test(cell)) return own;
    Board its_player = enemy;
    for (const Board& pieces : s.state->by_player)
      if (pieces.test(cell)) its_player &= pieces;
    return its_player;
  }
  const std::uint64_t mine = 0 - static_cast<std::uint64_t>(own.test(cell));
  Board side;
  for (std::size_t i = 0; i < side.word.size(); ++i) side.word[i] = (own.word[i] & mine) | (enemy.word[i] & ~mine);
  return side;
}

// Each enemy group next to here is looked at once; one whose every neighbour is occupied, the mover
// at here included, is captured whole.
template <int Words>
void GeneralMoves<Words>::capture_surrounded(Search& s, Thread& t, int set) const {
  const auto [own, enemy] = s.sides(t);
  const Board empty = s.masks[kAny] - own - enemy;
  Board seen;
  for (Board next = next_to(Board::single(t.here), set) & enemy; next.any();) {
    const int cell = next.pop_lowest();
    if (seen.test(cell)) continue;
    Board group;
    const bool breathes = liberties_of(cell, group_pieces(s, enemy, cell), empty, set, 1, group).any();
    seen |= group;
    if (breathes) continue;
    for (Board taken = group; taken.any();) s.effect_at(t, taken.pop_lowest(), Code::Capture);
  }
}

// Pending captures have emptied their cells, so a move that captures gains the liberties it makes.
template <int Words>
bool GeneralMoves<Words>::has_liberty(const Search& s, const Thread& t, int set) const {
  const auto [own, enemy] = s.sides(t);
  if (!own.test(t.here)) return false;
  const Board empty = s.masks[kAny] - own - enemy;
  Board group;
  return liberties_of(t.here, own, empty, set, 1, group).any();
}

template <int Words>
RunawayRule GeneralMoves<Words>::runaway(bool choices) const {
  if (choices)
    return RunawayRule(
        fmt::format("the general move generator kept over {} choices open in one position of {}: a rule's "
                    "repetitions go too deep; bound them with a smaller (at-most N)",
                    kMostChoices, rules_->name));
  return RunawayRule(fmt::format(
      "the general move generator ran {} steps in one position of {}: a rule may repeat without end; bound it with "
      "(at-most N)",
      kStepBudget, rules_->name));
}

// The VM's runs of the slide: each direction in turn, and along it the landings farthest first (the
// repeat goes on before it stops); where a board's links lead a slide round in a circle, the VM
// would repeat without end.
template <int Words>
template <typename OnAccept>
bool GeneralMoves<Words>::run_slide(const Search& s, const Slide& slide, Thread t, OnAccept&& on_accept) const {
  t.mover = kLanded;
  if (!slide.whole) t.committed = t.piece;  // at the COMMIT after the land
  return walk_slide(s.origin, s.masks[kEmpty], slide, [&](int cell) {
    t.here = t.land = static_cast<std::int16_t>(cell);
    return on_accept(t);
  });
}

template <int Words>
template <typename OnLanding>
[[gnu::always_inline]] inline bool GeneralMoves<Words>::walk_slide(int origin, const Board& empty, const Slide& slide,
                                                                   OnLanding&& on_landing) const {
  boost::container::small_vector<std::int16_t, 32> path;
  for (const int direction : slide.directions) {
    if (const int order = ray_order_[static_cast<std::size_t>(direction)]; order != 0) {
      for (Board reach = ray_reach(origin, empty, direction) & slide.landings; reach.any();) {  // the farthest first
        const int cell = order > 0 ? reach.highest() : reach.lowest();
        reach.reset(cell);
        if (on_landing(cell)) return true;
      }
      continue;
    }
    const std::int16_t* next = &next_[static_cast<std::size_t>(direction) * static_cast<std::size_t>(cells_)];
    path.clear();
    for (int cell = next[origin]; cell >= 0 && (cell == origin || empty.test(cell)); cell = next[cell]) {
      if (path.size() == static_cast<std::size_t>(cells_)) throw runaway(false);
      path.push_back(static_cast<std::int16_t>(cell));
    }
    for (auto cell = path.rbegin(); cell != path.rend(); ++cell)
      if (slide.landings.test(*cell) && on_landing(*cell)) return true;
  }
  return false;
}

// The VM's runs of the jump line: each direction in turn, and along it the longest chain first (the
// repeat goes on before it stops), each jump's capture and waypoint made as the VM makes them. The
// line's cells ascend or descend, so the frozen board's tests read the position as it is: a chain
// never comes back to its origin or to a cell it passed.
template <int Words>
template <typename OnAccept>
bool GeneralMoves<Words>::run_jumps(Search& s, const JumpLine& line, Thread t, OnAccept&& on_accept) const {
  t.mover = kLanded;
  boost::container::small_vector<std::int16_t, 64> chain;
  for (const int direction : line.directions) {
    chain.clear();
    const int jumps = jump_chain(s.origin, direction, s.masks[line.over_friends ? kFriend : kEnemy], s.masks[kEmpty],
                                 chain, line.chained);
    if (jumps == 0) continue;
    if (s.skip >= jumps) {  // runs a draw passes over (nth_walked, for_each_record): no thread made
      s.skip -= jumps;
      continue;
    }
    s.effects.cut(t.effects);
    s.waypoints.cut(t.waypoints);
    for (int jump = 0; jump < jumps; ++jump) {
      s.effects.push({chain[2 * jump], Code::Capture, 0, 0});
      if (line.waypoints) s.waypoints.push(static_cast<std::uint16_t>(chain[2 * jump + 1]));
    }
    for (int jump = jumps; jump > 0; --jump) {
      Thread done = t;
      done.effects = static_cast<std::uint16_t>(t.effects + jump);
      if (line.waypoints) {
        done.waypoints = static_cast<std::uint16_t>(t.waypoints + jump);
        done.part_effects = done.effects;
      }
      done.here = done.land = chain[2 * jump - 1];
      if (on_accept(done)) return true;
    }
  }
  return false;
}

// The VM's runs of the step: the directions in the rule's order (its go's choices), each onto its
// neighbour if empty, or taking the enemy piece there; then the promotions, each its region's test.
template <int Words>
template <typename OnAccept>
bool GeneralMoves<Words>::run_steps(Search& s, const Step& step, const Thread& t, OnAccept&& on_accept) const {
  for (const int direction : direction_sets_[static_cast<std::size_t>(step.directions)].directions) {
    const int cell = next_[static_cast<std::size_t>(direction) * static_cast<std::size_t>(cells_) +
                           static_cast<std::size_t>(s.origin)];
    if (cell < 0) continue;
    if (s.skip > 0 && (s.masks[kEmpty].test(cell) || (step.captures && s.masks[kEnemy].test(cell)))) {
      --s.skip;  // a run a draw passes over (nth_walked, for_each_record): no thread made
      continue;
    }
    Thread done = t;
    if (step.captures && s.masks[kEnemy].test(cell)) {
      done.here = static_cast<std::int16_t>(cell);
      s.effect(done, Code::Capture, step.to_hand);
    } else if (!s.masks[kEmpty].test(cell)) {
      continue;
    }
    done.mover = kLanded;
    done.here = done.land = static_cast<std::int16_t>(cell);
    for (const Promotion& promotion : step.promotions)
      if (regions_[static_cast<std::size_t>(promotion.region)].test(cell) != promotion.negate)
        done.piece = promotion.piece;
    if (on_accept(done)) return true;
  }
  return false;
}

// The types held, in (hands ...) order; or the one named, when held.
template <int Words>
typename GeneralMoves<Words>::HandTypes GeneralMoves<Words>::hand_types(const StateType& state, int player,
                                                                        int arg) const {
  const auto& hand = state.hands[player];
  HandTypes held;
  for (std::size_t slot = 0; slot < rules_->hands.size(); ++slot)
    if (hand[slot] > 0 && (arg == kAnyHandPiece || rules_->hands[slot] == arg))
      held.push_back(static_cast<std::int8_t>(rules_->hands[slot]));
  return held;
}

template <int Words>
std::optional<typename GeneralMoves<Words>::Drop> GeneralMoves<Words>::drop_of(const std::vector<Instruction>& code) {
  if (code.size() != 3 || (code[0].code != Code::FromHand && code[0].code != Code::New) ||
      code[1].code != Code::EnterWhere || code[1].negate || code[1].alt != kEmpty || code[2].code != Code::Accept)
    return {};
  return Drop{code[1], code[0].arg, code[0].code == Code::FromHand};
}

// The VM's runs of the drop: the types held in turn (FROMHAND's choices), each onto the cells from
// the lowest (ENTERWHERE's); the runs a draw passes over (s.skip) are passed a type at a time.
template <int Words>
template <typename OnAccept>
bool GeneralMoves<Words>::run_drops(Search& s, const Drop& drop, const Thread& t, OnAccept&& on_accept) const {
  const Board cells = entered_where(s, t, drop.enter);
  const int count = cells.count();
  const HandTypes types =
      drop.from_hand ? hand_types(*s.state, s.player, drop.piece) : HandTypes{static_cast<std::int8_t>(drop.piece)};
  for (const std::int8_t type : types) {
    if (s.skip >= count) {
      s.skip -= count;
      continue;
    }
    Thread done = t;
    done.mover = kLanded;
    done.piece = done.entered = type;
    done.from_hand = drop.from_hand;
    for (Board left = cells; left.any();) {
      done.here = done.land = static_cast<std::int16_t>(left.pop_lowest());
      if (on_accept(done)) return true;
    }
  }
  return false;
}

template <int Words>
template <typename Cells>
[[gnu::always_inline]] inline int GeneralMoves<Words>::jump_chain(int origin, int direction, const Board& over,
                                                                  const Board& empty, Cells& cells,
                                                                  bool chained) const {
  const std::int16_t* next = &next_[static_cast<std::size_t>(direction) * static_cast<std::size_t>(cells_)];
  int jumps = 0;
  for (int at = origin;; ++jumps) {
    if (jumps > 0 && !chained) return jumps;
    const int jumped = next[at];
    if (jumped < 0 || !over.test(jumped)) return jumps;
    const int to = next[jumped];
    if (to < 0 || !empty.test(to)) return jumps;
    cells.push_back(static_cast<std::int16_t>(jumped));
    cells.push_back(static_cast<std::int16_t>(to));
    at = to;
  }
}

// The VM's runs of the line move: each direction in turn, one run at most along it. Its tests read
// the frozen board, on which the carried mover's origin is empty: neither an enemy in the way nor
// a piece to land on, so the position as it is answers them.
template <int Words>
template <typename OnAccept>
bool GeneralMoves<Words>::run_lines(Search& s, const LineMove& line, Thread t, OnAccept&& on_accept) const {
  t.mover = kLanded;
  for (int way = 0; way < line.ways; ++way) {
    const int landing = line_landing(line, way, s.origin, s.masks[kOccupied], s.masks[kEnemy], s.masks[kNotFriend]);
    if (landing < 0) continue;
    Thread done = t;
    done.here = done.land = static_cast<std::int16_t>(landing);
    if (s.masks[kEnemy].test(landing)) s.effect(done, Code::Capture, 0);
    if (on_accept(done)) return true;
  }
  return false;
}

template <int Words>
[[gnu::always_inline]] inline int GeneralMoves<Words>::line_landing(const LineMove& line, int way, int origin,
                                                                    const Board& occupied, const Board& enemy,
                                                                    const Board& landable) const {
  const int steps = (occupied & line.lines[static_cast<std::size_t>(way * cells_ + origin)]).count();  // the mover too
  const std::size_t at = line.at(way, origin, steps, cells_);
  const int landing = line.stops[at];
  return landing < 0 || (line.passed[at] & enemy).any() || !landable.test(landing) ? -1 : landing;
}

namespace {
// The scalars of the record of the run that completes as `t`: the whole of a plain run's record.
// Inlined into a listing's loop, where most runs are plain.
template <typename Search, typename Thread>
[[gnu::always_inline]] inline void fill_scalars(const Search& s, const Thread& t, GeneralRecord& record) {
  record.origin = static_cast<std::int16_t>(s.origin);
  record.piece = static_cast<std::int8_t>(s.origin >= 0 ? s.start_piece : t.entered);
  if (t.mover == kLanded || t.mover == kExited) {
    record.landing = t.land;
    record.final_piece = t.piece;
    record.exits = t.mover == kExited;
  }
  record.from_hand = t.from_hand;
  record.labelled = static_cast<std::int16_t>(s.labelled);
}
}  // namespace

// How many of `seeds` sown from place `from` of a cycle of `length` cells land on place `at`: one
// each lap that reaches it.
static int sown_onto(int length, int from, int seeds, int at) {
  const int distance = (at - from + length - 1) % length + 1;  // 1..length: the origin is reached last
  return seeds < distance ? 0 : (seeds - distance) / length + 1;
}

template <int Words>
int GeneralMoves<Words>::count_at(const Search& s, const Thread& t, int cell) const {
  int count = s.state->count(cell);
  for (std::size_t i = 0; i < t.effects; ++i) {
    const typename Search::Effect& effect = s.effects[i];
    if (effect.code == Code::TakeCount) {
      count += (cell == effect.cell ? effect.amount : 0) - (cell == effect.arg ? effect.amount : 0);
    } else if (effect.code == Code::Sow) {
      if (cell == effect.cell) count -= effect.amount;
      const int at = track_place(effect.arg, s.player, cell);
      if (at >= 0)
        count += sown_onto(
            static_cast<int>(
                rules_->tracks[static_cast<std::size_t>(effect.arg)].cells[static_cast<std::size_t>(s.player)].size()),
            track_place(effect.arg, s.player, effect.cell), effect.amount, at);
    }
  }
  return count;
}

template <int Words>
void GeneralMoves<Words>::fill_record(const Search& s, const Thread& t, GeneralRecord& record) const {
  fill_scalars(s, t, record);
  if (plain(t)) return;
  for (std::size_t i = 0; i < t.effects; ++i) {
    const typename Search::Effect& effect = s.effects[i];
    if (effect.code == Code::Pass || effect.code == Code::Swap || effect.code == Code::Again) {
      (effect.code == Code::Pass ? record.pass : effect.code == Code::Swap ? record.swap : record.again) = true;
      continue;
    }
    if (effect.code == Code::Add || effect.code == Code::Set) {
      add_counter_change(record, effect.code == Code::Set, effect.arg, effect.amount);
      continue;
    }
    if (effect.code == Code::Rotate) {
      record.rotations.push_back(static_cast<std::uint8_t>(effect.amount));
    } else if (effect.code == Code::Sow || effect.code == Code::TakeCount) {
      record.count_changes.push_back({effect.code == Code::Sow, effect.cell, effect.arg});
      continue;
    }
    if (effect.code == Code::Remember) {
      auto change = std::find_if(record.registers.begin(), record.registers.end(),
                                 [&](const RegisterChange& c) { return c.reg == effect.arg; });
      if (change == record.registers.end())
        change = record.registers.insert(record.registers.end(), RegisterChange{static_cast<std::uint8_t>(effect.arg)});
      change->cell = effect.cell;
      continue;
    }
    auto change = std::find_if(record.changes.begin(), record.changes.end(),
                               [&](const CellChange& c) { return c.cell == effect.cell; });
    if (change == record.changes.end())
      change = record.changes.insert(record.changes.end(), CellChange{static_cast<std::uint16_t>(effect.cell)});
    switch (effect.code) {
      case Code::Capture:
        change->what |= effect.arg == 1 ? CellChange::kCapture | CellChange::kToHand : CellChange::kCapture;
        break;
      case Code::Convert: change->what |= CellChange::kConvert; break;
      case Code::Block: change->what |= CellChange::kBlock; break;
      case Code::Relocate:
        change->what |= CellChange::kRelocate;
        change->relocate_to = effect.amount;
        break;
      case Code::SetAttr:
      case Code::ClearAttr: {
        const auto bit = static_cast<std::uint8_t>(1u << effect.arg);
        (effect.code == Code::SetAttr ? change->attributes_set : change->attributes_cleared) |= bit;
        (effect.code == Code::SetAttr ? change->attributes_cleared : change->attributes_set) &= ~bit;
        break;
      }
      default: change->become = effect.arg; break;
    }
  }
  // Sorted only when there are two: a call of std::sort is not free.
  if (record.changes.size() > 1)
    std::sort(record.changes.begin(), record.changes.end(),
              [](const CellChange& a, const CellChange& b) { return a.cell < b.cell; });
  if (record.counters.size() > 1)
    std::sort(record.counters.begin(), record.counters.end(),
              [](const CounterChange& a, const CounterChange& b) { return a.counter < b.counter; });
  if (record.registers.size() > 1)
    std::sort(record.registers.begin(), record.registers.end(),
              [](const RegisterChange& a, const RegisterChange& b) { return a.reg < b.reg; });
  if (t.waypoints > 0) record.waypoints.assign(s.waypoints.begin(), s.waypoints.begin() + t.waypoints);
}

template <int Words>
[[gnu::always_inline]] inline Move GeneralMoves<Words>::record_run(const Search& s, const Thread& t,
                                                                   GeneralRecord& record) const {
  const bool scalars_only = plain(t);
  if (scalars_only)
    fill_scalars(s, t, record);
  else
    fill_record(s, t, record);
  return move_of(record, scalars_only ? scalar_fingerprint(record) | 1 : record.fingerprint());
}

// Inlined into its three callers: every count asks it of every rule, and the call was about half
// its cost (inlined, Morris in Ludii's form, five rules asked a ply, took 2.4% fewer instructions).
template <int Words>
[[gnu::always_inline]] inline bool GeneralMoves<Words>::applies(const CompiledRule& compiled, const StateType& state,
                                                                bool fallback, bool others_can_move,
                                                                int priority) const {
  const lang::core::Rule& rule = *compiled.rule;
  if (rule.fallback != fallback || compiled.code[state.to_move].empty()) return false;
  if (priority >= 0 && rule.priority != priority) return false;
  if (rule.phase >= 0 && rule.phase != state.phase) return false;
  if (!rule.when) return true;
  const lang::core::Condition& when = *rule.when;
  switch (when.kind) {
    case lang::core::Condition::Kind::PlyIs: return state.ply == static_cast<std::uint32_t>(when.ply);
    case lang::core::Condition::Kind::DecisionIs: {
      // The decisions of this turn: the first turn's count while its plies last, else the turn's.
      const int first = rules_->first_turn_actions;
      const int turn = state.ply < static_cast<std::uint32_t>(first) ? first : rules_->turn_actions;
      return turn - state.actions_left + 1 == when.value;
    }
    case lang::core::Condition::Kind::OthersCanMove: return others_can_move;
    case lang::core::Condition::Kind::Compare: {
      const int mover = state.to_move;
      const int value = when.counter < 0 ? state.by_player[mover].count() : state.counters[mover][when.counter];
      return lang::compare(value, when.comparison, when.value);
    }
  }
  return false;
}

// Calls on_record(record, move) for each move of the rules that apply, once per move (runs whose
// records have equal fingerprints are one move), until it returns true. `origin` >= 0 runs only the
// piece rules from that cell; `game_rules` says whether the game rules run too; `defer` leaves
// deferred parts unrun; `priority` >= 0 runs only the rules of that priority. With `kept`, each
// move's record is made in place at its end (no copy), and stays there.
template <int Words>
template <typename OnRecord>
bool GeneralMoves<Words>::for_each_record(const StateType& state, bool fallback, bool others_can_move,
                                          const Program<Words>* attacks, int origin, bool game_rules, bool defer,
                                          std::vector<GeneralRecord>* kept, OnRecord&& on_record, int priority,
                                          const Board* targets, int skip,
                                          const std::vector<CompiledRule>* rules) const {
  Search s(state, board_, attacks, rules_->player_count());
  s.defer = defer;
  s.skip = skip;
  if (skip > 0) s.fanning = Search::Fanning::Pick;
  MoveFingerprints fingerprints;  // of this origin's moves so far
  // Fills `found`, a new record, with the run that completes as `t`, and calls on_record unless
  // this origin already gave its move.
  const auto accept_as = [&](GeneralRecord& found, const Thread& t) {
    Move move = record_run(s, t, found);
    const std::uint64_t fingerprint = move.jumped;
    // A move its rule's own (legal ...) refuses is not found, but another rule may make it. A
    // listing of attacks (no program) takes the moves legal or not.
    if (fingerprints.contains(fingerprint) || (s.legal && !attacks->rule_allows(state, move, found, s.rule))) {
      if (kept) kept->pop_back();
      return false;
    }
    fingerprints.add(fingerprint);
    // A rule with a deferred part: its move is named by the record at COMMIT.
    if (defer && t.committed >= 0) {
      found.deferred = static_cast<std::int16_t>(s.rule);
    } else if (t.committed >= 0) {
      GeneralRecord committed;
      committed.origin = found.origin;
      committed.landing = found.landing;
      committed.piece = found.piece;
      committed.final_piece = t.committed;
      committed.labelled = found.labelled;
      move = move_of(committed, committed.fingerprint());
    }
    return on_record(found, move);
  };
  // Not std::optional for the record that is not kept: GCC zeroes an optional's 224 bytes
  // (`rep stos`) at each run, kept or not.
  const auto accept = [&](const Thread& t) {
    if (s.skip > 0) {
      --s.skip;
      return false;
    }
    if (kept) return accept_as(kept->emplace_back(), t);
    GeneralRecord unkept;
    return accept_as(unkept, t);
  };
  // Whether a rule applies does not depend on the origin.
  boost::container::small_vector<const CompiledRule*, 16> applying;
  for (const CompiledRule& compiled : rules ? *rules : compiled_)
    if (applies(compiled, state, fallback, others_can_move, priority)) applying.push_back(&compiled);
  const bool piece_rules = std::any_of(applying.begin(), applying.end(), [](const CompiledRule* compiled) {
    return compiled->rule->scope == lang::core::Rule::Scope::Piece;
  });
  // With `targets`, the origins each applying piece rule runs from: those whose runs may take on them.
  boost::container::small_vector<Board, 16> runs_from;  // made only with targets: a resize to 0 is a call
  if (targets) runs_from.assign(applying.size(), board_);
  Board origins = state.by_player[state.to_move];
  if (targets) {
    Board any_rule;
    for (std::size_t i = 0; i < applying.size(); ++i) {
      const std::vector<Board>& taking = applying[i]->taking_origins[state.to_move];
      if (!taking.empty()) {
        runs_from[i] = Board();
        for (Board cells = *targets; cells.any();) runs_from[i] |= taking[static_cast<std::size_t>(cells.pop_lowest())];
      }
      if (applying[i]->rule->scope == lang::core::Rule::Scope::Piece) any_rule |= runs_from[i];
    }
    origins &= any_rule;
  }
  // The origins each applying piece rule with openings runs from (CompiledRule::openings).
  boost::container::small_vector<Board, 16> opens_from;
  // Only for a listing of every origin (one origin's runs are few; a search for takes has its
  // reach), and not for a piece type the player has none of (a draughts king in most positions).
  if (origin == -1 && !targets && piece_rules &&
      std::any_of(applying.begin(), applying.end(),
                  [&](const CompiledRule* compiled) { return !compiled->openings[state.to_move].empty(); })) {
    Board any_rule;
    for (const CompiledRule* compiled : applying) {
      const std::vector<Opening>& openings = compiled->openings[state.to_move];
      const int piece = compiled->rule->piece;
      if (openings.empty())
        opens_from.push_back(board_);
      else if (piece >= 0 && !(state.by_piece[piece] & state.by_player[state.to_move]).any())
        opens_from.push_back(Board());
      else
        opens_from.push_back(opening_origins(openings, s));
      if (compiled->rule->scope == lang::core::Rule::Scope::Piece) any_rule |= opens_from.back();
    }
    origins &= any_rule;
  }
  const auto run_rules = [&](lang::core::Rule::Scope scope, int piece) {
    for (std::size_t i = 0; i < applying.size(); ++i) {
      const CompiledRule& compiled = *applying[i];
      if (compiled.rule->scope != scope || (piece >= 0 && compiled.rule->piece != piece)) continue;
      if (targets && s.origin >= 0 && !runs_from[i].test(s.origin)) continue;
      if (!opens_from.empty() && s.origin >= 0 && !opens_from[i].test(s.origin)) continue;
      const Thread first = start(s, compiled, piece);
      const std::optional<Slide>& slide = compiled.slide[state.to_move];
      const std::optional<JumpLine>& jumps = compiled.jumps[state.to_move];
      const std::optional<LineMove>& lines = compiled.lines[state.to_move];
      const std::optional<Drop>& drops = compiled.drops[state.to_move];
      const std::optional<Step>& steps = compiled.steps[state.to_move];
      const bool walked = slide && (slide->whole || defer);
      if (walked  ? run_slide(s, *slide, first, accept)
          : jumps ? run_jumps(s, *jumps, first, accept)
          : lines ? run_lines(s, *lines, first, accept)
          : drops ? run_drops(s, *drops, first, accept)
          : steps ? run_steps(s, *steps, first, accept)
                  : run(s, first, accept))
        return true;
    }
    return false;
  };
  if (origin >= 0) origins &= Board::single(origin);
  while (origin != -2 && piece_rules && origins.any()) {
    s.origin = origins.pop_lowest();
    s.start_piece = piece_at(state, s.origin);
    fingerprints.clear();
    if (run_rules(lang::core::Rule::Scope::Piece, s.start_piece)) return true;
  }
  if (!game_rules) return false;
  s.origin = -1;
  s.start_piece = -1;
  fingerprints.clear();
  return run_rules(lang::core::Rule::Scope::Game, -1);
}

template <int Words>
int GeneralMoves<Words>::piece_at(const StateType& state, int cell) const {
  int found = -1;
  for (int piece = 0; piece < static_cast<int>(rules_->pieces.size()); ++piece)
    if (state.by_piece[piece].test(cell)) found = piece;
  return found;
}

template <int Words>
typename GeneralMoves<Words>::Board GeneralMoves<Words>::jump_starts(const JumpLine& line, const Board& over,
                                                                     const Board& empty) const {
  if (line.steps.empty()) return board_;
  Board starts;
  for (const GroupStep& step : line.steps) starts |= step.back(over & step.back(empty));
  return starts;
}

// A neighbour of an origin is never the origin on a grid, so the masks hold there as on the board.
template <int Words>
typename GeneralMoves<Words>::Board GeneralMoves<Words>::opening_origins(const std::vector<Opening>& openings,
                                                                         const Search& s) const {
  Board origins;
  for (const Opening& opening : openings) {
    const Board& cells =
        opening.mask < kPieceMasks ? s.masks[opening.mask] : s.state->by_piece[opening.mask - kPieceMasks];
    origins |= opening.step.back(opening.negate ? board_ - cells : cells);
  }
  return origins;
}

// The rule's shape is looked at once for all the origins: per origin it took Tablut's counts 13%
// more instructions.
template <int Words>
template <typename Set>
[[gnu::always_inline]] inline void GeneralMoves<Words>::origins_moves(const CompiledRule& compiled, int player,
                                                                      Board origins, const Board& own,
                                                                      const Board& enemy, const Board& empty,
                                                                      Set&& set) const {
  const auto p = static_cast<std::size_t>(player);
  if (const std::optional<Step>& step = compiled.steps[p]) {  // the neighbours it may step onto
    const std::vector<Board>& around = direction_sets_[static_cast<std::size_t>(step->directions)].around;
    const Board onto = step->captures ? empty | enemy : empty;
    while (origins.any()) {
      const int origin = origins.pop_lowest();
      set(origin, (around[static_cast<std::size_t>(origin)] & onto).count());
    }
    return;
  }
  if (const std::optional<JumpLine>& line = compiled.jumps[p]) {
    struct Tally {  // the cells of a chain are not kept, only their number
      void push_back(std::int16_t) {}
    } tally;
    const Board& over = jumped(*line, own, enemy);
    const auto count = [&](auto chained) {  // a constant, so that each chain's loop is compiled for it
      while (origins.any()) {
        const int origin = origins.pop_lowest();
        int moves = 0;
        if (!line->neighbours.empty() && !(line->neighbours[static_cast<std::size_t>(origin)] & over).any()) {
          set(origin, 0);
          continue;
        }
        for (const int direction : line->directions)
          moves += jump_chain(origin, direction, over, empty, tally, chained());
        set(origin, moves);
      }
    };
    return line->chained ? count(std::true_type{}) : count(std::false_type{});
  }
  if (const std::optional<LineMove>& line = compiled.lines[p]) {
    const Board occupied = board_ - empty;  // no cell is blocked (count_priority)
    const Board landable = empty | enemy;
    while (origins.any()) {
      const int origin = origins.pop_lowest();
      Board landings;  // a landing that two directions reach is one move, as in the listing
      for (int way = 0; way < line->ways; ++way)
        if (const int landing = line_landing(*line, way, origin, occupied, enemy, landable); landing >= 0)
          landings.set(landing);
      set(origin, landings.count());
    }
    return;
  }
  const Slide& slide = *compiled.slide[p];
  while (origins.any()) {
    const int origin = origins.pop_lowest();
    Board landings;
    if (slide.rayed) {  // the reach of each direction whole
      for (const int direction : slide.directions) landings = landings | ray_reach(origin, empty, direction);
      landings = landings & slide.landings;
    } else {
      walk_slide(origin, empty, slide, [&](int cell) {
        landings.set(cell);
        return false;
      });
    }
    set(origin, landings.count());
  }
}

// With several priorities, the rules of each in turn until one gives a move, as list() runs them.
template <int Words>
int GeneralMoves<Words>::count_moves(const StateType& state, bool others_can_move, int listed,
                                     OriginCounts& counts) const {
  counts.clear();
  if (prefer_captures_)
    return captures_possible(state, others_can_move) ? kNotCounted
                                                     : count_priority(state, others_can_move, counts, quiet_);
  if (priorities_.size() < 2) return count_priority(state, others_can_move, counts, compiled_);
  return count_priorities(state, others_can_move, listed, counts);
}

// The rules that apply are found once (or are the player's fixed ones), then counted a priority at
// a time: finding them for each priority took 100 of Konane's playouts 1.2 million instructions more.
template <int Words>
int GeneralMoves<Words>::count_priorities(const StateType& state, bool others_can_move, int listed,
                                          OriginCounts& counts) const {
  // The fast path's moves are of priority 0: only the general rules of that priority join them.
  if (listed > 0 && priorities_.front() != 0) return 0;
  const std::optional<Applying>& fixed = fixed_rules_[static_cast<std::size_t>(state.to_move)];
  Applying found;
  if (!fixed && !rules_applying(state, others_can_move, compiled_, found)) return kNotCounted;
  const Applying& applying = fixed ? *fixed : found;
  if (listed > 0) return count_applying(state, applying, 0, counts);
  for (const int priority : priorities_)
    if (const int total = count_applying(state, applying, priority, counts); total != 0) return total;
  return 0;
}

// Whether some move of the rules (the fallback rules aside) may capture: some run of a capture part
// (form_quiet) completes, from an origin where the part's openings hold.
// Complete records: a capture part's code is not its rule's, whose deferred part complete() would run.
template <int Words>
bool GeneralMoves<Words>::list_captures(const StateType& state, bool others_can_move, MoveList& moves,
                                        std::vector<GeneralRecord>* records, const Program<Words>* attacks) const {
  bool captures = false;
  for_each_record(
      state, false, others_can_move, attacks, -1, true, false, records,
      [&](const GeneralRecord&, Move move) {
        captures = captures || move.capture;
        moves.push_back(move);
        return false;
      },
      -1, nullptr, 0, &capture_);
  return captures;
}

template <int Words>
bool GeneralMoves<Words>::captures_possible(const StateType& state, bool others_can_move) const {
  Search s(state, board_, nullptr, rules_->player_count());
  s.defer = true;
  const auto p = static_cast<std::size_t>(state.to_move);
  for (const CompiledRule& compiled : capture_) {
    if (!applies(compiled, state, false, others_can_move, -1)) continue;
    const int piece = compiled.rule->piece;
    if (piece < 0) {  // a game rule, run once
      s.origin = -1;
      s.start_piece = -1;
      if (run(s, start(s, compiled, -1), first_found)) return true;
      continue;
    }
    Board origins = state.by_piece[piece] & state.by_player[p];
    if (origins.any() && !compiled.openings[p].empty()) origins &= opening_origins(compiled.openings[p], s);
    while (origins.any()) {
      s.origin = origins.pop_lowest();
      s.start_piece = piece;
      if (run(s, start(s, compiled, piece), first_found)) return true;
    }
  }
  return false;
}

// An origin's moves are its slide's landings or its jump line's chains, each once (see the
// constructor), counted on the walk that run_slide or run_jumps makes.
template <int Words>
int GeneralMoves<Words>::count_priority(const StateType& state, bool others_can_move, OriginCounts& counts,
                                        const std::vector<CompiledRule>& rules) const {
  const auto p = static_cast<std::size_t>(state.to_move);
  if (&rules == &compiled_ && fixed_rules_[p]) return count_rules(state, *fixed_rules_[p], counts);
  Applying applying;
  if (!rules_applying(state, others_can_move, rules, applying)) return kNotCounted;
  return count_rules(state, applying, counts);
}

// The moves of the rules of `priority` among those that apply. Most positions have rules of one
// priority only (Applying::priority): those are counted with no copy of `applying` (a copy a
// priority, and the rules looked at again: 3% of Morris's instructions in Ludii's form).
template <int Words>
int GeneralMoves<Words>::count_applying(const StateType& state, const Applying& applying, int priority,
                                        OriginCounts& counts) const {
  if (applying.priority != Applying::kMixed)
    return applying.priority == priority ? count_rules(state, applying, counts) : 0;
  Applying only = applying;
  for (RulesOf* of : {&only.rule_of, &only.also_of})  // an also_of's of its pair's priority
    for (const CompiledRule*& rule : *of)
      if (rule && rule->rule->priority != priority) rule = nullptr;
  return count_rules(state, only, counts);
}

// The rules that apply in `state`, in `applying`; false when two of one piece type (not apart:
// CompiledRule::apart), or of the game, apply (of any priority: nth_move runs them all from the
// origin drawn), which may make one move: not counted. Game rules of one priority that are apart (game_rules_apart) are
// counted one after the other: the later ones follow the first, at the end of rule_of. Of two priorities they are
// listed, as two rules of a piece type are (Morris in Ludii's form: a placement and the mill's removal).
template <int Words>
bool GeneralMoves<Words>::rules_applying(const StateType& state, bool others_can_move,
                                         const std::vector<CompiledRule>& rules, Applying& applying) const {
  const auto p = static_cast<std::size_t>(state.to_move);
  const std::size_t game = rules_->pieces.size();
  RulesOf& rule_of = applying.rule_of;
  rule_of.assign(game + 1, nullptr);  // by piece type, the game's last
  applying.also_of.clear();
  applying.priority = Applying::kNone;
  for (const CompiledRule& compiled : rules)
    if (applies(compiled, state, false, others_can_move, -1)) {
      const int priority = compiled.rule->priority;
      applying.priority =
          applying.priority == Applying::kNone || applying.priority == priority ? priority : Applying::kMixed;
      const bool piece = compiled.rule->scope == lang::core::Rule::Scope::Piece;
      const CompiledRule*& only = rule_of[piece ? static_cast<std::size_t>(compiled.rule->piece) : game];
      const auto apart = [&](const CompiledRule* other) {
        return other->rule->priority == compiled.rule->priority && game_rules_apart(*other, compiled, state.to_move);
      };
      if (only && !piece && std::all_of(rule_of.begin() + static_cast<std::ptrdiff_t>(game), rule_of.end(), apart)) {
        rule_of.push_back(&compiled);
        continue;
      }
      if (only && piece && compiled.apart[p] && only->apart[p]) {
        applying.also_of.resize(game, nullptr);
        applying.also_of[static_cast<std::size_t>(compiled.rule->piece)] = &compiled;
        continue;
      }
      if (only) return false;
      only = &compiled;
    }
  return true;
}

// The moves of the rules that apply (null: none).
template <int Words>
int GeneralMoves<Words>::count_rules(const StateType& state, const Applying& applying, OriginCounts& counts) const {
  const auto p = static_cast<std::size_t>(state.to_move);
  const RulesOf& rule_of = applying.rule_of;
  const RulesOf& also_of = applying.also_of;
  bool any = false, by_runs = false;  // by_runs: some rule needs the VM's count
  for (const CompiledRule* rule : rule_of) {
    if (!rule) continue;
    if (!rule->counted[p]) return kNotCounted;  // a rule of a condition, listed
    // A line move's count takes the cells that are not empty for pieces; its runs count pieces alone.
    if (rule->lines[p] && state.blocked.any()) return kNotCounted;
    any = true;
    by_runs = by_runs || (rule->by_runs[p] && !rule->steps[p] && !rule->drops[p]);
  }
  for (const CompiledRule* also : also_of) {
    if (!also) continue;
    if (also->lines[p] && state.blocked.any()) return kNotCounted;
    by_runs = by_runs || (also->by_runs[p] && !also->steps[p] && !also->drops[p]);
  }
  if (!any) return 0;
  if (by_runs) return count_by_runs(state, rule_of, also_of.empty() ? nullptr : &also_of, counts);
  return also_of.empty() ? count_walked(state, rule_of, nullptr, counts) : count_apart(state, rule_of, also_of, counts);
}

// The counts of rules none of which needs the VM. Inlined, as origins_moves is: a call of the
// lambda per origin took Tablut's counts 6% more instructions; without `also_of` (nullptr) the
// pairs' code is left out.
template <int Words>
[[gnu::always_inline]] inline int GeneralMoves<Words>::count_walked(const StateType& state, const RulesOf& rule_of,
                                                                    const RulesOf* also_of,
                                                                    OriginCounts& counts) const {
  const int total = count_origins<false>(
      state, rule_of, also_of, counts,
      [&](const CompiledRule& rule, int, const Board& origins, const Board& own, const Board& enemy, const Board& empty,
          auto&& set)
          __attribute__((always_inline)) { origins_moves(rule, state.to_move, origins, own, enemy, empty, set); });
  // A game rule here is a drop, drawn alone when the only one (walked_draws_).
  return total + add_game_runs(counts, count_game_runs(state, rule_of, nullptr), -1);
}

// With two rules of a piece type apart (CompiledRule::apart): out of line, so that the other
// games' counts keep their code.
template <int Words>
[[gnu::noinline]] int GeneralMoves<Words>::count_apart(const StateType& state, const RulesOf& rule_of,
                                                       const RulesOf& also_of, OriginCounts& counts) const {
  return count_walked(state, rule_of, &also_of, counts);
}

// With a rule counted by its runs, and a search for them. Out of line, so that the counts of the
// games without one (Tablut's slides) keep their small frame: with the search in it, Tablut's
// counts took 18% more instructions.
template <int Words>
[[gnu::noinline]] int GeneralMoves<Words>::count_by_runs(const StateType& state, const RulesOf& rule_of,
                                                         const RulesOf* also_of, OriginCounts& counts) const {
  Search& search = armed_search(state);
  search.defer = true;
  search.fanning = Search::Fanning::Count;
  const auto moves_from = [&](const CompiledRule& rule, int piece, Board origins, const Board& own, const Board& enemy,
                              const Board& empty, auto&& set) {
    if (!rule.by_runs[state.to_move] || rule.steps[state.to_move])  // counted with no run
      return origins_moves(rule, state.to_move, origins, own, enemy, empty, set);
    if (const Fan* fan = one_run_fan(rule, state.to_move))
      return count_fan_origins(search, rule, *fan, piece, origins, set);
    while (origins.any()) {
      const int origin = origins.pop_lowest();
      set(origin, count_runs(search, rule, origin, piece));
    }
  };
  const int total = count_origins<true>(state, rule_of, also_of, counts, moves_from);
  return total + add_game_runs(counts, count_game_runs(state, rule_of, &search), only_game_rule(rule_of));
}

// A rule as OriginMoves::rule names it: its index when below 128 (the field is one byte), else -1.
static std::int8_t named_rule(int index) { return static_cast<std::int8_t>(index < 128 ? index : -1); }

// The moves of each origin of the player to move, in the listing's order: moves_from(rule, piece,
// origins, own, enemy, empty, set) calls set(origin, moves) for each origin of a piece type. The
// game rule's moves are count_by_runs'. The enemy is every other player, as Search has it.
template <int Words>
template <bool kNamesRules, typename MovesFrom>
[[gnu::always_inline]] inline int GeneralMoves<Words>::count_origins(const StateType& state, const RulesOf& rule_of,
                                                                     const RulesOf* also_of, OriginCounts& counts,
                                                                     MovesFrom&& moves_from) const {
  const auto p = static_cast<std::size_t>(state.to_move);
  const std::size_t game = rules_->pieces.size();
  const Board& own = state.by_player[p];
  const Board enemy = rules_->player_count() == kPlayers ? state.by_player[1 - p] : state.pieces() - own;
  const Board empty = board_ - state.blocked - own - enemy;
  Board movable;  // the pieces that may have a move: a jump line's need a first jump
  const auto movable_by = [&](const CompiledRule& rule, std::size_t piece) {
    return rule.jumps[p]
               ? state.by_piece[piece] & jump_starts(*rule.jumps[p], jumped(*rule.jumps[p], own, enemy), empty)
               : state.by_piece[piece];
  };
  for (std::size_t piece = 0; piece < game; ++piece)
    if (const CompiledRule* rule = rule_of[piece]) {
      movable |= movable_by(*rule, piece);
      if (also_of && (*also_of)[piece]) movable |= movable_by(*(*also_of)[piece], piece);
    }
  const Board origins = state.by_player[state.to_move] & movable;
  // Piece type by piece type, so that its rule is looked at once, not at every origin (Tablut's
  // counts took 13% more instructions with a piece_at and the rule's fields per origin); a cell
  // of two piece types counts as the last one's, as piece_at has it.
  struct Moves {  // no initialisers: only the origins' cells are set, and read
    int moves;
    bool by_runs;
  };
  std::array<Moves, static_cast<std::size_t>(Words) * 64> by_cell;
  // OriginMoves::rule, with kNamesRules only: the slides' and steps' counts keep their frame (a
  // rule in by_cell took Tablut's 0.8% more instructions).
  std::array<std::int8_t, static_cast<std::size_t>(Words) * 64> rule_by_cell;
  for (std::size_t piece = 0; piece < game; ++piece) {
    const CompiledRule* rule = rule_of[piece];
    const Board cells = state.by_piece[piece] & origins;
    if (rule) {
      const auto runs_are_moves = [&](const CompiledRule& r) {
        return r.by_runs[p] || r.jumps[p] || (r.slide[p] && r.slide[p]->runs_are_moves);  // a counted jump line's too
      };
      const bool by_runs = runs_are_moves(*rule);
      const std::int8_t index = named_rule(rule->index);
      moves_from(*rule, static_cast<int>(piece), cells, own, enemy, empty, [&](int origin, int moves) {
        by_cell[static_cast<std::size_t>(origin)] = {moves, by_runs};
        if constexpr (kNamesRules) rule_by_cell[static_cast<std::size_t>(origin)] = index;
      });
      if (const CompiledRule* also = also_of ? (*also_of)[piece] : nullptr)  // after the first rule's moves (apart)
        moves_from(*also, static_cast<int>(piece), cells, own, enemy, empty, [&](int origin, int moves) {
          Moves& both = by_cell[static_cast<std::size_t>(origin)];
          both = {both.moves + moves, both.by_runs && runs_are_moves(*also)};
          if constexpr (kNamesRules) rule_by_cell[static_cast<std::size_t>(origin)] = -1;
        });
    } else {
      for (Board unmoved = cells; unmoved.any();) by_cell[static_cast<std::size_t>(unmoved.pop_lowest())] = {0, false};
    }
  }
  int total = 0;
  // Once, and not when it changes nothing (a game rule's only moves): a push_back per origin is a call.
  if (const auto made = static_cast<std::size_t>(origins.count()); made != counts.size())
    counts.resize(made, boost::container::default_init);
  std::size_t counted = 0;
  for (Board cells = origins; cells.any();) {
    const int origin = cells.pop_lowest();
    const Moves& moves = by_cell[static_cast<std::size_t>(origin)];
    if (moves.moves == 0) continue;
    const std::int8_t rule = kNamesRules ? rule_by_cell[static_cast<std::size_t>(origin)] : std::int8_t{-1};
    counts[counted++] = {static_cast<std::int16_t>(origin), static_cast<std::int16_t>(moves.moves), moves.by_runs,
                         rule};
    total += moves.moves;
  }
  if (counted != counts.size()) counts.resize(counted);
  return total;
}

// The runs of `compiled` from `origin` (-1 for a game rule), each a move (CompiledRule::by_runs).
template <int Words>
[[gnu::noinline]] int GeneralMoves<Words>::count_runs(Search& s, const CompiledRule& compiled, int origin,
                                                      int piece) const {
  s.origin = origin;
  s.start_piece = piece;
  s.fan_runs = 0;
  const Thread first = start(s, compiled, piece);
  // A rule that is a fan whose every cell is one run: its cells counted, with no run of the VM.
  if (const Fan* fan = one_run_fan(compiled, s.player))
    return tested_cells(s, first, *fan, choice_cells(s, first, *fan)).count();
  int runs = 0;
  run(s, first, CountEach{&runs});
  return runs + s.fan_runs;
}

// The fan that `compiled` starts with for `player` when each of its cells is one run (no PATTERN
// decides how many), else null: its runs from an origin are its cells (count_runs).
template <int Words>
[[gnu::always_inline]] inline const typename GeneralMoves<Words>::Fan* GeneralMoves<Words>::one_run_fan(
    const CompiledRule& compiled, int player) const {
  const Instruction& in = compiled.code[static_cast<std::size_t>(player)][0];
  return in.code == Code::Fan && fans_[in.arg].pattern < 0 ? &fans_[in.arg] : nullptr;
}

// A rule whose code starts with a fan of one run a cell (one_run_fan) makes run number s.skip from
// the cell of that number in run order, a step's in its directions' order, else ascending: the
// VM starts there, past the fan and its tests, which the cell passes. Else the VM runs the rule.
// A draw from a placement, a step or a flight is then its cell's run alone, with no FAN's walk
// over the cells before it (the run FAN's Pick makes, which counts each of those cells as one run).
// Inlined: a call of its own cost the draws of every other rule (Pentago's took 0.6% more instructions).
template <int Words>
template <typename OnAccept>
[[gnu::always_inline]] inline bool GeneralMoves<Words>::run_fan_cell(Search& s, const CompiledRule& compiled, Thread t,
                                                                     OnAccept&& on_accept) const {
  const Fan* fan = one_run_fan(compiled, s.player);
  if (!fan) return run(s, t, on_accept);
  const Board cells = tested_cells(s, t, *fan, choice_cells(s, t, *fan));
  if (const int runs = cells.count(); s.skip >= runs) {
    s.skip -= runs;
    return false;
  }
  int cell = -1;
  if (fan->choice.code != Code::StepWhere) {
    cell = cells.nth(s.skip);
  } else {
    for (int passed = s.skip; const int direction : direction_sets_[fan->choice.arg].directions)
      if (const int to = next_[static_cast<std::size_t>(direction) * cells_ + t.here];
          to >= 0 && cells.test(to) && passed-- == 0) {
        cell = to;
        break;
      }
  }
  s.skip = 0;
  t.here = static_cast<std::int16_t>(cell);
  t.pc = fan->tests_end;
  return run(s, t, on_accept);
}

// count_runs of such a fan from each of `origins`, set(origin, runs): one thread started for all
// of them, moved from origin to origin (a start an origin was a third of Morris's steps' counts).
template <int Words>
template <typename Set>
void GeneralMoves<Words>::count_fan_origins(Search& s, const CompiledRule& compiled, const Fan& fan, int piece,
                                            Board origins, Set&& set) const {
  s.origin = origins.any() ? origins.lowest() : -1;
  s.start_piece = piece;
  Thread t = start(s, compiled, piece);
  // A step's fan where no step leads back to its cell: the origin is none of the cells chosen, and
  // those read the frozen board as the position, from every origin alike. So every cell is tested
  // once, as if there were no origin, and an origin's runs are its neighbours among those that
  // pass (the masks built per origin, 75 instructions an origin, were 6% of Morris's in Ludii's form).
  if (fan.choice.code == Code::StepWhere && !direction_sets_[fan.choice.arg].loops) {
    s.origin = -1;
    const Board reached = s.frozen(t, fan.choice.alt);
    const Board passing = tested_cells(s, t, fan, fan.choice.negate ? board_ - reached : reached);
    const std::vector<Board>& around = direction_sets_[fan.choice.arg].around;
    while (origins.any()) {
      const int origin = origins.pop_lowest();
      set(origin, (around[static_cast<std::size_t>(origin)] & passing).count());
    }
    return;
  }
  while (origins.any()) {
    s.origin = t.here = static_cast<std::int16_t>(origins.pop_lowest());
    set(s.origin, tested_cells(s, t, fan, choice_cells(s, t, fan)).count());
  }
}

// The runs of `drop` for the player to move: the types held (or the new piece) times the empty
// cells of its region (ENTERWHERE's cells, with no origin or mover on the board).
template <int Words>
int GeneralMoves<Words>::drop_runs(const StateType& state, const Drop& drop) const {
  const int types = drop.from_hand ? static_cast<int>(hand_types(state, state.to_move, drop.piece).size()) : 1;
  return types == 0 ? 0 : types * (regions_[drop.enter.arg] & (board_ - state.blocked - state.pieces())).count();
}

// The runs of the game rules that apply, several apart in the listing's order (rule_of's last): a
// drop's counted from the state, any other's by running it in `search`.
template <int Words>
int GeneralMoves<Words>::count_game_runs(const StateType& state, const RulesOf& rule_of, Search* search) const {
  int runs = 0;
  for (auto rule = rule_of.begin() + static_cast<std::ptrdiff_t>(rules_->pieces.size()); rule != rule_of.end(); ++rule)
    if (*rule) {
      const std::optional<Drop>& drop = (*rule)->drops[static_cast<std::size_t>(state.to_move)];
      runs += drop ? drop_runs(state, *drop) : count_runs(*search, **rule, -1, -1);
    }
  return runs;
}

// Adds the game rules' runs, after every origin's moves, as origin -1's: those of `rule` alone
// when it is the one game rule that applies (OriginMoves::rule), else -1.
static int add_game_runs(OriginCounts& counts, int runs, int rule) {
  if (runs != 0) counts.push_back({-1, static_cast<std::int16_t>(runs), true, static_cast<std::int8_t>(rule)});
  return runs;
}

// The one game rule among those that apply (rule_of's last), as named_rule names it, or -1.
template <int Words>
int GeneralMoves<Words>::only_game_rule(const RulesOf& rule_of) const {
  const CompiledRule* only = nullptr;
  for (auto rule = rule_of.begin() + static_cast<std::ptrdiff_t>(rules_->pieces.size()); rule != rule_of.end(); ++rule)
    if (*rule) {
      if (only) return -1;
      only = *rule;
    }
  return only ? named_rule(only->index) : -1;
}

// Made once per thread (programs are shared by the threads of a search) and armed for each use:
// a ply's count and its draw each made a search of their own, its stacks' room grown again at
// each first push. Only searches with no program to ask (attacks) use it: they never start
// another search while they run, which would arm it under them.
template <int Words>
typename GeneralMoves<Words>::Search& GeneralMoves<Words>::armed_search(const StateType& state) const {
  thread_local Search search;
  search.arm(state, board_, nullptr, rules_->player_count());
  return search;
}

// The thread that starts `compiled` from s.origin, a `piece` there (-1: a game rule), and the
// search set for it.
template <int Words>
typename GeneralMoves<Words>::Thread GeneralMoves<Words>::start(Search& s, const CompiledRule& compiled,
                                                                int piece) const {
  Thread t;
  t.marks.fill(-1);
  t.here = static_cast<std::int16_t>(s.origin);
  if (piece >= 0) {
    t.mover = kCarried;
    t.piece = static_cast<std::int8_t>(piece);
  }
  s.code = &compiled.code[static_cast<std::size_t>(s.player)];
  s.rule = compiled.index;
  s.legal = s.attacks && compiled.rule->legal;
  s.labelled = compiled.rule->label.empty() ? -1 : compiled.index;
  return t;
}

template <int Words>
Move GeneralMoves<Words>::nth_move(const StateType& state, bool others_can_move, const Program<Words>* attacks,
                                   const OriginMoves& origin, int index, std::vector<GeneralRecord>& records) const {
  const int piece = origin.origin < 0 ? -1 : piece_at(state, origin.origin);
  const int owner = piece < 0 ? static_cast<int>(rules_->pieces.size()) : piece;
  WalkedDraw walked = walked_draws_[state.to_move][static_cast<std::size_t>(owner)];
  // The one rule that made the origin's moves, each run a move, runs alone too (not under (prefer
  // captures), whose counts are of the rules' quiet parts).
  if (walked.first < 0 && origin.rule >= 0 && !prefer_captures_ &&
      compiled_[static_cast<std::size_t>(origin.rule)].by_runs[state.to_move])
    walked.first = origin.rule;
  if (walked.first >= 0 && (origin.by_runs || walked.second >= 0))
    return nth_walked(state, walked, origin.origin, piece, index, records);
  records.clear();
  Move found;
  const int skip = origin.by_runs ? index : 0;  // each run a move: those before the drawn one need no record
  index -= skip;
  const bool made = for_each_record(
      state, false, others_can_move, attacks, origin.origin < 0 ? -2 : origin.origin, origin.origin < 0, true, &records,
      [&](const GeneralRecord&, Move move) {
        found = move;
        return index-- == 0;
      },
      -1, nullptr, skip);
  if (!made)
    throw std::logic_error(fmt::format("{}: fewer moves from cell {} than counted", rules_->name, origin.origin));
  return found;
}

template <int Words>
void GeneralMoves<Words>::gather_candidates(const StateType& state, Candidates<Words>& candidates) const {
  const Rejection& rejection = *rejections_[state.to_move];
  Search& s = armed_search(state);
  s.defer = true;
  s.fanning = Search::Fanning::Count;
  candidates.runs.resize(rejection.rules.size());
  candidates.total = candidates.others = 0;
  for (std::size_t rule = 0; rule < rejection.rules.size(); ++rule) {
    const CompiledRule& compiled = *rejection.rules[rule];
    int runs = 0;
    if (rule == rejection.placement) {
      const Instruction& place = compiled.code[static_cast<std::size_t>(state.to_move)][1];
      candidates.cells = placement_choice(s, start(s, compiled, -1), group_places_[place.arg].choice) & s.masks[kEmpty];
      runs = candidates.cells.count();
    } else {
      runs = count_runs(s, compiled, -1, -1);
      candidates.others += runs;
    }
    candidates.runs[rule] = runs;
    candidates.total += runs;
  }
}

// The drawn rule runs alone: the placement at the candidate's cell (Fanning::At), or another rule
// up to its run of that number, as nth_move would find it.
template <int Words>
bool GeneralMoves<Words>::candidate_move(const StateType& state, Candidates<Words>& candidates, int index,
                                         std::vector<GeneralRecord>& records, Move& move) const {
  const Rejection& rejection = *rejections_[state.to_move];
  std::size_t rule = 0;
  while (index >= candidates.runs[rule]) index -= candidates.runs[rule++];
  const bool placing = rule == rejection.placement;
  const int cell = placing ? candidates.cells.nth(index) : -1;
  Search& s = armed_search(state);
  s.defer = true;
  s.skip = placing ? cell : index;
  s.fanning = placing ? Search::Fanning::At : index > 0 ? Search::Fanning::Pick : Search::Fanning::Each;
  records.clear();
  const auto accept = [&](const Thread& t) {
    if (s.skip > 0) {
      --s.skip;
      return false;
    }
    move = record_run(s, t, records.emplace_back());
    return true;
  };
  if (run(s, start(s, *rejection.rules[rule], -1), accept)) return true;
  if (!placing) throw std::logic_error(fmt::format("{}: fewer runs of a game rule than counted", rules_->name));
  candidates.cells.reset(cell);
  --candidates.runs[rule];
  --candidates.total;
  return false;
}

// The one record of a draw, `records` made of it alone: one kept from the last draw is cleared
// in place (made again, with the vector cleared first, it was about 70 instructions a draw).
static GeneralRecord& only_record(std::vector<GeneralRecord>& records) {
  if (records.size() != 1) {
    records.clear();
    return records.emplace_back();
  }
  records.front().clear();
  return records.front();
}

// Only those rules can have made the origin's moves, their runs each a move (CompiledRule::by_runs,
// or a pair apart): the run of number `index`, the first rule's runs then the second's, is the
// listing's move of that index, with the same record and move.
template <int Words>
Move GeneralMoves<Words>::nth_walked(const StateType& state, const WalkedDraw& walked, int origin, int piece, int index,
                                     std::vector<GeneralRecord>& records) const {
  Search& s = armed_search(state);
  s.origin = origin;
  s.start_piece = piece;
  s.skip = index;
  s.defer = true;  // as a listing's draw: a deferred part is run for the move played
  if (index > 0) s.fanning = Search::Fanning::Pick;
  GeneralRecord& found = only_record(records);
  Move move;
  const auto drawn = [&](const Thread& t) {
    if (s.skip > 0) {
      --s.skip;
      return false;
    }
    move = record_run(s, t, found);
    if (t.committed >= 0) found.deferred = static_cast<std::int16_t>(s.rule);  // named at COMMIT
    return true;
  };
  const auto p = static_cast<std::size_t>(state.to_move);
  for (const int rule : {walked.first, walked.second}) {  // the runs the first passes over count down s.skip
    if (rule < 0) break;
    const CompiledRule& compiled = compiled_[static_cast<std::size_t>(rule)];
    Thread first = start(s, compiled, piece);
    if (compiled.steps[p]   ? run_steps(s, *compiled.steps[p], first, drawn)
        : compiled.jumps[p] ? run_jumps(s, *compiled.jumps[p], first, drawn)
        : compiled.drops[p] ? run_drops(s, *compiled.drops[p], first, drawn)
        : compiled.slide[p] ? run_slide(s, *compiled.slide[p], first, drawn)
                            : run_fan_cell(s, compiled, first, drawn))
      return move;
  }
  throw std::logic_error(fmt::format("{}: fewer moves from cell {} than counted", rules_->name, origin));
}

template <int Words>
[[gnu::always_inline]] inline Move GeneralMoves<Words>::move_of(const GeneralRecord& record,
                                                                std::uint64_t fingerprint) const {
  Move move;
  // A sowing without a mover stands at the cell sown, as a drop at its cell: the last move shown there.
  const bool sows =
      record.origin < 0 && record.landing < 0 && !record.count_changes.empty() && record.count_changes.front().sown;
  move.from = static_cast<std::uint16_t>(record.origin >= 0    ? record.origin
                                         : record.landing >= 0 ? record.landing
                                         : sows                ? record.count_changes.front().cell
                                                               : cells_);
  move.to = static_cast<std::uint16_t>(record.landing >= 0 ? record.landing : move.from);
  move.piece = static_cast<std::uint8_t>(std::max<int>(record.piece, 0));
  move.capture = !record.changes.empty() && record.captures();
  move.general = true;
  move.jumped = fingerprint;
  return move;
}

template <int Words>
void GeneralMoves<Words>::list(const StateType& state, bool fallback, bool others_can_move, MoveList& moves,
                               std::vector<GeneralRecord>* records, const Program<Words>* attacks,
                               bool complete_records) const {
  const auto add = [&](const GeneralRecord&, Move move) {
    moves.push_back(move);
    return false;
  };
  const bool defer = !records || !complete_records;
  if (priorities_.size() < 2) {
    for_each_record(state, fallback, others_can_move, attacks, -1, true, defer, records, add);
    return;
  }
  // The rules of each priority in turn, until some move is found: the moves already listed, the
  // fast path's, are of priority 0, as every compiled rule is, so the general rules of priority 0
  // join them.
  for (const int priority : priorities_) {
    if (!moves.empty() && priority > 0) return;
    for_each_record(state, fallback, others_can_move, attacks, -1, true, defer, records, add, priority);
  }
}

template <int Words>
bool GeneralMoves<Words>::any(const StateType& state, bool fallback, bool others_can_move,
                              const Program<Words>* attacks) const {
  return for_each_record(state, fallback, others_can_move, attacks, -1, true, true, nullptr,
                         [](const GeneralRecord&, Move) { return true; });
}

template <int Words>
bool GeneralMoves<Words>::takes_any(const StateType& state, bool others_can_move, const Board& targets) const {
  return for_each_record(
      state, false, others_can_move, nullptr, -1, true, false, nullptr,
      [&](const GeneralRecord& record, Move) { return record.takes_any(targets); }, -1, &targets);
}

template <int Words>
GeneralRecord GeneralMoves<Words>::record_of(const StateType& state, Move move, bool others_can_move,
                                             const Program<Words>* attacks) const {
  GeneralRecord found;
  const bool piece_rules = move.from < cells_ && state.by_player[state.to_move].test(move.from);
  const bool game_rules = move.from == move.to || move.from == cells_;
  for (const bool fallback : {false, true})
    if (for_each_record(state, fallback, others_can_move, attacks, piece_rules ? move.from : -2, game_rules, false,
                        nullptr, [&](const GeneralRecord& record, Move listed) {
                          if (!(listed == move)) return false;
                          found = record;
                          return true;
                        }))
      return found;
  throw std::logic_error(
      fmt::format("no rule of {} makes the general move from {} to {} here", rules_->name, move.from, move.to));
}

template <int Words>
GeneralRecord GeneralMoves<Words>::complete(const StateType& state, const GeneralRecord& record,
                                            const Program<Words>* attacks) const {
  const CompiledRule& compiled = compiled_[static_cast<std::size_t>(record.deferred)];
  Search s(state, board_, attacks, rules_->player_count());
  s.origin = record.origin;
  s.start_piece = record.piece;
  s.labelled = record.labelled;
  s.rule = compiled.index;
  s.code = &compiled.code[state.to_move];
  Thread t;
  t.marks.fill(-1);
  t.pc = compiled.resume[state.to_move];
  t.here = t.land = record.landing;
  t.piece = t.committed = record.final_piece;
  t.mover = kLanded;
  GeneralRecord completed;
  if (const std::optional<std::vector<Captor>>& captors = compiled.captors[state.to_move]) {
    // The captures change no test of the frozen board: its masks are made once, not per term.
    std::array<Board, kPieceMasks + kPieceTypeSlots<Words>> frozen;
    const std::size_t masks = kPieceMasks + rules_->pieces.size();
    for (std::size_t mask = 0; mask < masks; ++mask) frozen[mask] = s.frozen(t, static_cast<int>(mask));
    for (const Captor& captor : *captors)
      if (holds_at(patterns_[static_cast<std::size_t>(captor.pattern)], t.here,
                   [&](int mask) -> const Board& { return frozen[static_cast<std::size_t>(mask)]; }))
        for (auto cell = captor.from[static_cast<std::size_t>(t.here)]; cell < captor.from[t.here + 1u]; ++cell)
          s.effect_at(t, captor.cells[cell], Code::Capture, 0);
    fill_record(s, t, completed);
  } else if (!run(s, t, [&](const Thread& done) {
               fill_record(s, done, completed);
               return true;
             }))
    throw std::logic_error(fmt::format("the deferred part of a rule of {} failed", rules_->name));
  completed.waypoints = record.waypoints;
  return completed;
}

// ---- text -------------------------------------------------------------------------------------------

// §1.3: the origin, the waypoints and the landing, joined by 'x' when the move captures, else '-';
// an entering piece's cell, with its letter when several types enter (L*c3 from a hand); blocks after '/'. The
// explicit form also writes the mover's new type, the captures away from the landing, and the
// cells that change owner or type. A move with no origin, landing or sowing (a game rule's removal
// of an enemy man: (enter all) enemy capture) has only its changes to show, so it always takes the
// explicit form: the short form was empty, and so "pass", whenever it was the only such move listed.
template <int Words>
std::string GeneralMoves<Words>::shown_text(const GeneralRecord& record, bool explicit_form, bool name_piece) const {
  const auto cell = [&](int c) { return lang::cell_name(c, width_); };
  const auto letter = [&](int piece) { return rules_->pieces[static_cast<std::size_t>(piece)].code; };
  std::string text;
  if (record.labelled >= 0) {
    text = core_->moves[static_cast<std::size_t>(record.labelled)].label;
  } else if (record.origin < 0) {
    if (record.from_hand)  // shogi's drop: the letter, '*', the cell
      text = fmt::format("{}*{}", letter(record.piece), cell(record.landing));
    else if (record.landing >= 0)
      text = name_piece ? fmt::format("{}@{}", letter(record.piece), cell(record.landing)) : cell(record.landing);
    else if (!record.count_changes.empty() && record.count_changes.front().sown)  // a sowing: the cell sown
      text = cell(record.count_changes.front().cell);
  } else {
    const char separator = record.captures() ? 'x' : '-';
    text = cell(record.origin);
    std::vector<int> path(record.waypoints.begin(), record.waypoints.end());
    if (record.landing >= 0 && (path.empty() || path.back() != record.landing)) path.push_back(record.landing);
    for (const int c : path) text += separator + cell(c);
    if (record.exits) text += "-off";
  }
  if (explicit_form || text.empty()) {
    if (record.final_piece >= 0 && record.final_piece != record.piece)
      text += fmt::format("={}", letter(record.final_piece));
    for (const CellChange& change : record.changes) {
      if ((change.what & CellChange::kCapture) && change.cell != record.landing) text += "x" + cell(change.cell);
      if (change.what & CellChange::kConvert) text += "~" + cell(change.cell);
      if (change.become >= 0) text += fmt::format("{}={}", cell(change.cell), letter(change.become));
      if (change.what & CellChange::kRelocate)
        text += fmt::format("&{}-{}", cell(change.cell), cell(change.relocate_to));
    }
  }
  for (const CellChange& change : record.changes)
    if (change.what & CellChange::kBlock) text += "/" + cell(change.cell);
  for (const std::uint8_t turn : record.rotations) text += (text.empty() ? "" : ":") + rotation(turn).text;
  if (text.empty()) text = record.swap ? "swap" : "pass";
  return text;
}

template <int Words>
void GeneralMoves<Words>::name_moves(const MoveList& moves, const std::vector<GeneralRecord>& records,
                                     bool name_piece) const {
  std::vector<std::size_t> general;
  for (std::size_t i = 0; i < moves.size(); ++i)
    if (moves[i].general) general.push_back(i);
  const std::lock_guard<std::mutex> lock(texts_->mutex);
  std::vector<std::string> texts;
  for (std::size_t k = 0; k < general.size(); ++k) {
    const std::string* known = texts_->find(moves[general[k]]);
    texts.push_back(known ? *known : shown_text(records[k], false, name_piece));
  }
  // Texts that two moves share become explicit; what is still shared gets the fingerprint.
  for (const bool last_resort : {false, true}) {
    std::unordered_map<std::string, int> uses;
    for (const std::string& text : texts) ++uses[text];
    for (std::size_t k = 0; k < general.size(); ++k) {
      if (uses[texts[k]] < 2) continue;
      texts[k] = shown_text(records[k], true, name_piece);
      if (last_resort) texts[k] += fmt::format("#{:016x}", moves[general[k]].jumped);
    }
  }
  if (texts_->recent.size() + general.size() > texts_->capacity) {  // a new generation, for the whole listing
    texts_->older = std::move(texts_->recent);
    texts_->recent.clear();
  }
  for (std::size_t k = 0; k < general.size(); ++k)
    texts_->recent.insert_or_assign(moves[general[k]], std::move(texts[k]));
}

template <int Words>
const std::string* GeneralMoves<Words>::Texts::find(Move move) const {
  if (const auto known = recent.find(move); known != recent.end()) return &known->second;
  if (const auto known = older.find(move); known != older.end()) return &known->second;
  return nullptr;
}

template <int Words>
std::size_t GeneralMoves<Words>::known_texts() const {
  const std::lock_guard<std::mutex> lock(texts_->mutex);
  return texts_->recent.size() + texts_->older.size();
}

template <int Words>
std::string GeneralMoves<Words>::text(Move move) const {
  const std::lock_guard<std::mutex> lock(texts_->mutex);
  const std::string* known = texts_->find(move);
  return known ? *known : std::string();
}

template <int Words>
std::string GeneralMoves<Words>::describe(int piece) const {
  std::string out;
  for (const CompiledRule& compiled : compiled_) {
    const lang::core::Rule& rule = *compiled.rule;
    if (rule.scope == lang::core::Rule::Scope::Piece ? rule.piece != piece : piece != -1) continue;
    const std::string first_line = rule.origin.substr(0, rule.origin.find('\n'));
    std::string counts;
    for (int player = 0; player < rules_->player_count(); ++player)
      if (const auto& code = compiled.code[static_cast<std::size_t>(player)]; !code.empty())
        counts += fmt::format("{}{} {}", counts.empty() ? "" : ", ",
                              rules_->players[static_cast<std::size_t>(player)].name, code.size());
    const std::size_t shown = rule.only_player < 0 ? 0 : static_cast<std::size_t>(rule.only_player);
    const auto fans = std::count_if(compiled.code[shown].begin(), compiled.code[shown].end(),
                                    [](const Instruction& in) { return in.code == Code::Fan; });
    const bool grouped = std::any_of(compiled.code[shown].begin(), compiled.code[shown].end(),
                                     [](const Instruction& in) { return in.code == Code::GroupPlace; });
    out += fmt::format("  {}{}\n    compiled: general: {} instructions ({}){}{}{}\n", first_line,
                       rule.pos.line > 0 ? fmt::format(" (line {})", rule.pos.line) : "", compiled.code[shown].size(),
                       counts, fans > 0 ? fmt::format(", {} counted as a fan", fans) : "",
                       grouped ? ", its legal cells found by groups" : "",
                       compiled.resume[shown] >= 0 ? "; what follows land runs for played moves only" : "");
  }
  return out;
}

#define TROYKA_DEFINE_GENERAL(W) template class GeneralMoves<W>;
TROYKA_FOR_EACH_WIDTH(TROYKA_DEFINE_GENERAL)
#undef TROYKA_DEFINE_GENERAL

}  // namespace troyka
