// The core of the rule language (docs/core-design.md §1.2) as plain data: move expressions built
// from sequences, choices, repetitions and tests over a few actions, and the rules that start them.
// Every keyword form of lang::Rules lowers onto it (lang/lower.cpp, §1.4), and `troyka show --core`
// prints it in the surface syntax that the checker reads back (lang/checker.cpp).
//
// Directions and regions are held as written, not per player: the lowering finds, for each one, a
// form that means the keyword's resolved cells or offsets for every player of the rule, and splits
// the rule into one per player, each with (only PLAYER), where no such form exists.
#pragma once

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "lang/rules.h"

namespace troyka::lang {
struct Node;  // lang/sexpr.h
}

namespace troyka::lang::core {

// A direction as the core writes it.
struct Direction {
  enum class Frame {
    Absolute,  // a named board direction, n ... nw: the same for every player
    Relative,  // a named player direction, forward ... backward-left
    Leap,      // (RIGHT FORWARD) in the player's frame: any offset, whatever lies between
  };
  Frame frame = Frame::Absolute;
  Offset offset;  // Absolute: (dx, dy); Relative and Leap: (right, forward)
  bool operator==(const Direction&) const = default;
};

// A region as the core writes it.
struct Region {
  enum class Kind {
    Cells,     // the same cells for every player: all, one cell, or (cells ...)
    HomeRows,  // (home-rows N): the N rows nearest each player's own side
    FarRows,   // (far-rows N)
  };
  Kind kind = Kind::Cells;
  int rows = 0;    // HomeRows and FarRows: N
  CellList cells;  // Cells: in increasing order
  bool operator==(const Region&) const = default;
};

enum class Op {
  // Structure.
  Seq,            // items one after the other
  Or,             // each item is a run of its own
  Opt,            // (or item (seq))
  Repeat,         // the item 0 or more times, within at_least, at_most and maximal
  While,          // items[1] again and again while the test items[0] holds
  If,             // items[0] a test, then items[1], else items[2] if there is one
  IfCan,          // items[0] if it has a complete run, else nothing
  AnyDirection,   // `variable` bound to each of `directions` in turn: a choice
  EachDirection,  // `variable` bound to each of `directions`, one after the other, here restored
  // Tests, read at here on the board before the move.
  Empty,
  Friend,
  Enemy,
  NotFriend,
  Occupied,
  Any,
  Captured,  // a capture of this cell is pending
  AtOrigin,  // (at origin): here is the cell the carried mover started from
  Is,        // a piece of type `piece`
  In,        // in `region`
  Can,       // items[0] has a complete run from here (lookahead: no effects)
  Cannot,
  Not,  // items[0] does not hold
  And,
  // Actions.
  Go,                // along `variable`, or along `directions` (several: a choice)
  Enter,             // here := any cell of `region`
  Capture,           // the piece at here, when the move is played
  New,               // the mover: a `piece` from the unlimited supply
  Land,              // the carried mover is put down at here now
  Block,             // here is blocked for the rest of the game
  Become,            // the piece at here, or the mover, becomes a `piece`
  Convert,           // the piece at here changes to the mover's owner
  Waypoint,          // here is shown in the move's text
  Pass,              // the move changes nothing but the player to move
  Again,             // the mover makes one more decision before the turn passes on (Kalah's store rule)
  SwapPiecesMirror,  // (swap-pieces mirror): the first player's pieces become the second's, mirrored
  Exit,              // the mover leaves the board at here, when the move is played
  Add,               // (add COUNTER N): the mover's player's `counter` goes up by `amount`
  Set,               // (set COUNTER N): the mover's player's `counter` becomes `amount`
  // Added for chess (docs/core-design.md §6, step 14).
  Attr,        // test: the piece at here has the attribute `slot` (read before the move)
  Attacked,    // test: a move of the opponent, were it to move, could take the mover standing at here
  AtRegister,  // test: here is the cell the register `slot` holds
  Mark,        // (mark NAME): the mark `variable` := here
  Back,        // (back NAME): here := the mark `variable` (ZRF's back)
  Relocate,    // (relocate NAME): the piece at here goes to the mark `variable`, when the move is played
  SetAttr,     // (set-attr NAME): the piece at here once the move is played has the attribute `slot`
  ClearAttr,   // (clear-attr NAME): and does not have it
  Remember,    // (remember NAME): the register `slot` holds here once the move is played
  // Added for hands (docs/core-design.md §6, step 15).
  CaptureToHand,  // (capture to-hand): capture, and the piece goes to the mover's hand as its base type
  FromHand,       // (from-hand [PIECE]): the mover is a `piece` from its player's hand (-1: any type held)
  // Added for Lines of Action (issue 15).
  // (times QUANTITY EXPR): items[0] exactly `amount` times; or, with a direction (`variable` or
  // directions[0]), as many times as pieces stand on the line through here along it (both ways,
  // here included, on the position before the move); a line with none has no run.
  Times,
  // Added for Go (issue 15). A group is a maximal set of one player's pieces joined by steps along
  // `directions`; its liberties are the empty cells one such step from it.
  CaptureSurrounded,  // (capture-surrounded DIRECTIONS): every enemy group next to here without a liberty,
                      // the mover standing at here, is captured
  HasLiberty,         // (has-liberty DIRECTIONS): test: the mover's group at here has a liberty once the
                      // pending captures are made
  // Added for Pentago (issue 15). (rotate REGION clockwise|anticlockwise): when the move is played,
  // after its other effects, every piece in `region`, a square of the board, turns a quarter with
  // it (`amount` 1 clockwise, -1 anticlockwise), the mover that landed there too. `variable`: the
  // region's name when it was written as one, which the move's text shows.
  Rotate,
  // Added for counts per cell, sowing games (issue 15: Kalah). Unlike the tests above, these read the
  // counts as the run has made them so far: a sowing's last cell is tested after the sowing.
  Sow,        // (sow TRACK): here's whole count is lifted and dropped one by one along the mover's track
              // `slot` from the cell after here, round and round; here := the cell of the last; none: no run
  CountIs,    // (count OP N): test: here's count compares with `amount` as `comparison`
  TakeCount,  // (take-count MARK): the whole count of the cell marked `variable` is added to here's
  // Added for ZRF's last-from? and last-to? (issue 16). Tests: here is the cell the previous move
  // started from / ended on, as the register `slot` keeps it (lang::Register::last); once this move
  // has passed a waypoint, the previous part's of this move (a waypoint ends a part).
  LastFrom,
  LastTo,
  // Added for ZRF's moves of several parts (issue 16): test: a capture of this cell is pending from
  // an earlier part of this move (one that ended at a waypoint before here), whose piece Zillions
  // has taken off the board by now; a capture of this part's stands until the part is played.
  CapturedEarlier,
};
inline constexpr int kOps = static_cast<int>(Op::CapturedEarlier) + 1;

// The word that writes `op`: the whole of a test or an action without arguments, else the keyword
// that opens its form. Shared by the printer and the checker, which reads it back.
const char* keyword(Op op);

// Whether an item of a (moves ...) form is one of the rule's options, written before its body: a
// label, fallback, (when ...), (legal ...), (only ...) or (priority N). Shared by the printer and the checker.
bool is_rule_option(const Node& item);

struct Expr {
  Op op = Op::Seq;
  std::vector<Expr> items;
  std::vector<Direction> directions;  // Go, AnyDirection, EachDirection, CaptureSurrounded, HasLiberty; Times: the
                                      // line's, when counted
  std::string variable;               // Go, Times: along a bound direction; AnyDirection, EachDirection: its name;
                                      // Mark, Relocate, TakeCount: the mark
  Region region;                      // Enter, In, Rotate
  int piece = -1;                     // Is, New, Become, FromHand: an index into Rules::pieces
  int at_least = 0;                   // Repeat
  int at_most = -1;                   // Repeat: -1 for no bound
  bool maximal = false;               // Repeat: ends only where another pass has no complete run
  int counter = -1;                   // Add, Set: an index into lang::Rules::counters
  int amount = 0;  // Add, Set; Times: the passes, when not counted on a line; Rotate: 1 clockwise, -1 anticlockwise
  int slot = -1;   // Attr, SetAttr, ClearAttr: an index into Rules::attributes; AtRegister, Remember: Rules::registers;
                   // Sow: Rules::tracks
  Comparison comparison = Comparison::Equal;  // CountIs
  bool operator==(const Expr&) const = default;
};

// Building expressions, for the lowerings of keyword forms (lang/lower.cpp) and of ZRF moves
// (lang/zrf.cpp).
Expr node(Op op, std::vector<Expr> items = {});
Expr with_piece(Op op, int piece);  // Is, New, Become
// Appends `expr` to a sequence's items; a sequence's own items are spliced in, since (seq a (seq b
// c)) is (seq a b c).
void append(std::vector<Expr>& items, Expr expr);
// A sequence of `parts`, nested sequences spliced in; a sequence of one item is that item.
Expr seq(std::vector<Expr> parts);
// A choice between `ways`, nested choices spliced in; one way is itself, none is nothing.
std::optional<Expr> choice(std::vector<Expr> ways);

// Whether `op` is a test: a form that stands where a test is asked for.
bool is_test(Op op);

// Whether every complete run of `expr` goes through a part for which `counts` holds (an action, or
// a sequence as a whole): through every way of a choice, and through a repetition's pass only when
// it has to make one.
template <typename Counts>
bool always(const Expr& expr, Counts counts) {
  const auto each = [&](const Expr& item) { return always(item, counts); };
  switch (expr.op) {
    case Op::Seq: return counts(expr) || std::any_of(expr.items.begin(), expr.items.end(), each);
    case Op::Or: return std::all_of(expr.items.begin(), expr.items.end(), each);
    case Op::If: return expr.items.size() == 3 && each(expr.items[1]) && each(expr.items[2]);
    case Op::AnyDirection: return each(expr.items.front());
    case Op::Repeat: return expr.at_least > 0 && each(expr.items.front());
    case Op::Times: return each(expr.items.front());  // at least one pass, or no run
    default: return counts(expr);
  }
}

// docs/core-design.md §1.5: whether a repetition of `pass` with no upper bound provably ends, since
// every pass goes on along one direction (the board's edge ends it) or captures a piece not captured
// yet (the pieces on the board do). The checker refuses a repetition for which this does not hold;
// `troyka translate` bounds only those.
bool repetition_ends(const Expr& pass);

// A condition on the whole state that decides whether a rule applies (rule option `when`).
struct Condition {
  enum class Kind {
    OthersCanMove,  // (can-move others): the other player has a move, fallback rules not counted
    PlyIs,          // (= ply N)
    DecisionIs,     // (= decision N): the player to move makes the N-th decision of its turn, from 1 (`value`)
    Compare,        // (OP (pieces) N) or (OP (counter NAME) N): the player to move's
  };
  Kind kind = Kind::PlyIs;
  int ply = 0;
  int counter = -1;  // Compare: an index into lang::Rules::counters, or -1 for the player's pieces on the board
  Comparison comparison = Comparison::Equal;
  int value = 0;  // Compare
  bool operator==(const Condition&) const = default;
};

struct Rule {
  // A piece rule starts from each piece of its type owned by the player to move, carried, with here
  // at its cell; a game rule starts with no cursor and no mover (a drop, a pass).
  enum class Scope { Piece, Game };
  Scope scope = Scope::Game;
  int piece = -1;        // the piece whose (piece ...) form holds the keyword form; -1 for a game option
  int only_player = -1;  // (only PLAYER); -1 for every player
  std::string label;     // "pass", "swap": the move's text
  std::optional<Condition> when;
  // (legal CONDITION): a move of this rule is legal only if CONDITION holds for its mover once it is
  // played, as the game's (legal ...) is asked; a move another rule makes too is legal by that one.
  std::optional<lang::EndRule> legal;
  bool fallback = false;  // contributes only when no other rule gives a move
  // Rules of a lower priority come first: a position's moves are those of the lowest priority
  // that gives any (ZRF's move-priorities). Every rule has 0 unless priorities are given.
  int priority = 0;
  int phase = -1;  // (phase NAME): the rule applies only in that phase, an index into lang::Rules::phases
  Expr expr;
  // The keyword form lowered here, as written, and where; a game option such as (must-capture)
  // has no position in lang::Rules. A rule read from a (moves ...) form has that form instead.
  std::string origin;
  SourcePos pos;
  bool written = false;  // read from a (moves ...) form, not lowered from a keyword form
  bool operator==(const Rule&) const = default;
};

// each-direction nested deeper than this is refused: the general back end keeps one mark per level.
inline constexpr int kMaxNestedEachDirection = 4;
// (times (line-pieces D) ...) nested deeper than this is refused: the back end keeps a count per level.
inline constexpr int kMaxNestedLineCounts = 2;
// Named marks, (mark NAME), in one rule: the general back end keeps them beside each-direction's.
inline constexpr int kMaxNamedMarks = 2;

struct Rules {
  // As lang::Rules holds them: each piece's move rules and drops in turn, then the pass and the swap.
  // A keyword form with no one written form for both players gives a rule for each, one after the
  // other, with the form's text and position.
  std::vector<Rule> moves;
  bool prefer_captures = false;       // (prefer captures): when some move captures, only those
  bool prefer_most_captures = false;  // (prefer (most captures)): of those, the ones that capture the most
  // (prefer (most captures) (most captures PIECE...)): then of those, the ones that capture the most
  // pieces of these types (sorted, without repeats).
  std::vector<int> prefer_most_captures_of;
  // (turn (actions N) (first M)), as lang::Rules holds them; 1 and 1 print nothing.
  int turn_actions = 1;
  int first_turn_actions = 1;
  bool operator==(const Rules&) const = default;
};

// Every move rule and game option of `rules` in core forms, as docs/core-design.md §1.4 writes them,
// then the rules of rules.general as they are.
Rules lower(const lang::Rules& rules);

// Every move rule and game option of `rules`, and the rules `written` in core forms, moved to the
// general back end: core::lower's rules and `written` in rules.general, no keyword form left. For
// boards whose directions are not shifts of the grid, and for TROYKA_FORCE_GENERAL=1.
void move_to_general(lang::Rules& rules, const std::vector<Rule>& written = {});

// The game's rules in core forms, as S-expressions with a comment naming each rule's keyword form:
// what `troyka show --core` prints.
std::string core_text(const lang::Rules& rules, const Rules& core);
// One rule's (moves ...) form alone, laid out as core_text lays it out.
std::string moves_text(const lang::Rules& rules, const Rule& rule);
// One expression on one line, as core_text writes it: for messages.
std::string expr_text(const lang::Rules& rules, const Expr& expr);
// (prefer (most captures)), with its tie-break (most captures PIECE...) when `of` names pieces.
std::string most_captures_text(const lang::Rules& rules, const std::vector<int>& of);

// What core_text prints, read back for the game of `rules` (its players, board and pieces): the
// (piece NAME "L" (moves ...)...) forms, the game-level (moves ...) forms, (prefer captures) and (turn ...).
// Throws lang::Error with a diagnostic on a mistake. Defined in lang/checker.cpp, which reads
// (moves ...) in rule files the same way.
Rules read_core(const lang::Rules& rules, std::shared_ptr<const SourceFile> text);

// The cells of (home-rows N), or of (far-rows N), for `player`, in increasing order.
CellList relative_rows(const lang::Rules& rules, int player, int rows, bool far);

// The recogniser, version 2 (docs/core-design.md §5.2, "Step 3 as built"): every rule of `core`
// compiled onto the tables of the fast back end, as the keyword forms whose shapes its branches
// have (the items of an (or ...) that is the whole rule, else the rule itself). `rules` is the game
// (its board, players and pieces); its pieces' move rules and promotions, and its pass, swap and
// must-capture, are replaced by what `core` is recognised as. Every keyword form lowers to a
// recognised shape; a rule with none, or whose piece's rules promote or chain otherwise than a
// compiled piece can, is returned, the first of them, with why.
struct Unmatched {
  std::size_t rule = 0;  // its index in core.moves
  int branch = -1;       // the branch at fault when the rule has several, else -1: the rule as a whole
  std::string why;
};
std::optional<Unmatched> recognise(lang::Rules& rules, const Rules& core);
// The branches that recognise() matches one by one.
std::vector<const Expr*> branches(const Expr& expr);

}  // namespace troyka::lang::core
