#include "lang/termination.h"

#include <fmt/format.h>

#include <algorithm>

#include "lang/core.h"

namespace troyka::lang {
namespace {

// The warning at `pos`, where `why` says what can go on forever there.
Diagnostic unbounded_at(const Rules& rules, SourcePos pos, const std::string& why) {
  return Diagnostic{
      rules.source, pos,
      fmt::format("no end rule bounds this game's length; playouts stop after {} plies", playout_cap(rules)),
      why + ": add (draw (ply-limit N)) to end such a game as a draw after N plies", Severity::Warning};
}

bool adds_pieces(const MoveRule& move) { return move.kind == MoveKind::Drop; }

bool may_capture(const MoveRule& move) { return move.kind == MoveKind::JumpOver || move.capture; }

// A move that always takes a piece off the board: it jumps one, or lands only where it captures.
bool always_captures(const MoveRule& move) {
  if (move.kind == MoveKind::JumpOver) return true;
  return move.capture && (move.target == Target::Enemy || move.target == Target::Occupied);
}

// Every offset of the move takes the piece strictly towards its player's far side.
bool strictly_forward(const Rules& rules, const MoveRule& move) {
  if (move.kind != MoveKind::Step && move.kind != MoveKind::Slide) return false;
  for (int player = 0; player < rules.player_count(); ++player) {
    const Offset forward = rules.players[static_cast<std::size_t>(player)].forward;
    for (const Offset& offset : move.offsets[static_cast<std::size_t>(player)])
      if (offset.dx * forward.dx + offset.dy * forward.dy <= 0) return false;
  }
  return true;
}

// The first move of the rules for which `bounded` does not hold, with its piece, or nothing.
template <typename Bounded>
std::optional<std::pair<const PieceType*, const MoveRule*>> first_move_not(const Rules& rules, Bounded&& bounded) {
  for (const PieceType& piece : rules.pieces)
    for (const MoveRule& move : piece.moves)
      if (!bounded(piece, move)) return std::pair{&piece, &move};
  return std::nullopt;
}

bool has_end_rule(const Rules& rules, EndKind kind) {
  return std::any_of(rules.end.begin(), rules.end.end(), [&](const EndRule& rule) { return rule.kind == kind; });
}

// Whether the condition holds whenever the position has occurred some number of times: then,
// since a position holds finitely many values (counters have ranges), the game is bounded.
bool ends_on_repetition(const EndRule& rule) {
  if (rule.kind == EndKind::Repetition) return true;
  return rule.kind == EndKind::Any && std::any_of(rule.parts.begin(), rule.parts.end(), ends_on_repetition);
}

bool any_move(const Rules& rules, bool (*test)(const MoveRule&)) {
  return first_move_not(rules, [&](const PieceType&, const MoveRule& move) { return !test(move); }).has_value();
}

// Whether `direction` takes a piece strictly towards the far side of every player in `players`.
bool goes_forward(const Rules& rules, const core::Direction& direction, int only_player) {
  if (direction.frame != core::Direction::Frame::Absolute) return direction.offset.dy > 0;  // (right, forward)
  for (int player = 0; player < rules.player_count(); ++player) {
    if (only_player >= 0 && player != only_player) continue;
    const Offset forward = rules.players[static_cast<std::size_t>(player)].forward;
    if (direction.offset.dx * forward.dx + direction.offset.dy * forward.dy <= 0) return false;
  }
  return true;
}

// Whether every run of `expr` only goes forward and, besides capturing, only lands, leaves the board
// or counts: no piece enters, changes or comes back, so each move brings its piece closer to the far
// side or takes pieces off. Lookaheads move nothing and are not looked into.
bool only_advances(const Rules& rules, const core::Expr& expr, int only_player) {
  using core::Op;
  switch (expr.op) {
    case Op::Can:
    case Op::Cannot: return true;
    case Op::New:
    case Op::FromHand:
    case Op::Enter:
    case Op::Become:
    case Op::Convert:
    case Op::Again:
    case Op::Pass:
    case Op::SwapPiecesMirror:
    case Op::Back:
    case Op::Relocate:
    case Op::Rotate: return false;
    default: break;
  }
  for (const core::Direction& direction : expr.directions)
    if (!goes_forward(rules, direction, only_player)) return false;
  return std::all_of(expr.items.begin(), expr.items.end(),
                     [&](const core::Expr& item) { return only_advances(rules, item, only_player); });
}

bool uses_op(const core::Expr& expr, core::Op op) {
  return expr.op == op ||
         std::any_of(expr.items.begin(), expr.items.end(), [&](const core::Expr& item) { return uses_op(item, op); });
}

// Whether `rule` is a drop from the hand, (from-hand ...) (enter ...) and then only advancing, in a
// game where no capture fills a hand: each such move spends a piece of a hand that never grows back,
// so however the pieces it enters move on, it is made a bounded number of times.
bool spends_a_hand(const Rules& rules, const core::Rule& rule) {
  const std::vector<core::Expr>& items = rule.expr.items;
  if (rule.scope != core::Rule::Scope::Game || rule.expr.op != core::Op::Seq || items.size() < 2 ||
      items[0].op != core::Op::FromHand || items[1].op != core::Op::Enter)
    return false;
  if (std::any_of(rules.general->moves.begin(), rules.general->moves.end(),
                  [](const core::Rule& any) { return uses_op(any.expr, core::Op::CaptureToHand); }))
    return false;
  return std::all_of(items.begin() + 2, items.end(),
                     [&](const core::Expr& item) { return only_advances(rules, item, rule.only_player); });
}

// The first rule of the general back end that may not advance (only_advances, or a drop that spends
// a hand), or null.
const core::Rule* first_general_rule_not_advancing(const Rules& rules) {
  if (!rules.general) return nullptr;
  for (const core::Rule& rule : rules.general->moves) {
    if (rules.has_links()) return &rule;  // a link may lead back: its board proves nothing
    if (spends_a_hand(rules, rule)) continue;
    if (rule.scope != core::Rule::Scope::Piece || !only_advances(rules, rule.expr, rule.only_player)) return &rule;
  }
  return nullptr;
}

}  // namespace

std::uint32_t playout_cap(const Rules& rules) {
  std::uint32_t cap = std::max(kMinPlayoutCap, kPlayoutCapPerCell * static_cast<std::uint32_t>(rules.cells()));
  for (const EndRule& rule : rules.end)
    if (rule.kind == EndKind::PlyLimit) cap = std::min(cap, static_cast<std::uint32_t>(rule.ply_limit));
  return cap;
}

std::optional<Diagnostic> unbounded_game_warning(const Rules& rules) {
  if (has_end_rule(rules, EndKind::PlyLimit) || std::any_of(rules.end.begin(), rules.end.end(), ends_on_repetition))
    return std::nullopt;
  const bool drops = any_move(rules, adds_pieces);
  // A general rule counts only where it advances as a forward step does, in a game without drops.
  const bool general_rules = rules.general && !rules.general->moves.empty();
  if (const core::Rule* rule = first_general_rule_not_advancing(rules); rule || (general_rules && drops))
    return unbounded_at(rules, rule ? rule->pos : rules.general->moves.front().pos,
                        "this rule runs on the general back end, and troyka cannot tell that its moves always go "
                        "forward");
  // No move empties a cell, and every move fills one for good or, keeping them all, brings a piece
  // closer to the far side.
  const auto fills_or_advances = [&](const PieceType&, const MoveRule& move) {
    return adds_pieces(move) || move.shoots || strictly_forward(rules, move);
  };
  if (!any_move(rules, may_capture) && !first_move_not(rules, fills_or_advances)) return std::nullopt;
  if (drops) {
    // The empty cells need not run out: some move takes a piece off, or moves one anywhere.
    const auto capturing =
        first_move_not(rules, [](const PieceType&, const MoveRule& move) { return !may_capture(move); });
    const auto [piece, move] = capturing ? *capturing : *first_move_not(rules, fills_or_advances);
    return unbounded_at(
        rules, move->pos,
        fmt::format("pieces are dropped, and this move of {} {}", piece->name,
                    capturing ? "takes them off again" : "neither fills a cell nor always goes forward"));
  }
  // Each move captures, or goes forward; with a quiet-moves rule, quiet moves of other pieces are
  // limited too, so only the named piece (if any) must go forward.
  const EndRule* quiet = nullptr;
  for (const EndRule& rule : rules.end)
    if (rule.kind == EndKind::QuietMoves) quiet = &rule;
  const auto unbounded = first_move_not(rules, [&](const PieceType& piece, const MoveRule& move) {
    if (always_captures(move) || strictly_forward(rules, move)) return true;
    if (quiet == nullptr) return false;
    const bool named = quiet->piece >= 0 && &rules.pieces[static_cast<std::size_t>(quiet->piece)] == &piece;
    return !named;
  });
  if (!unbounded) return std::nullopt;
  const auto [piece, move] = *unbounded;
  return unbounded_at(rules, move->pos,
                      fmt::format("this move of {} neither captures nor always goes forward, so pieces can go back "
                                  "and forth forever",
                                  piece->name));
}

}  // namespace troyka::lang
