// The printer of the core: rules as S-expressions in the syntax of docs/core-design.md §1.2, laid
// out to be read, each with a comment naming the keyword form it came from.
//
// A sequence directly inside (moves ...), (can ...) or (cannot ...) is written as its items, so
// (moves (seq (go n) empty)) prints (moves (go n) empty), as §1.4 writes it.
#include "lang/core.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "lang/directions.h"
#include "lang/sexpr.h"

namespace troyka::lang::core {

// The words of the comparisons, by lang::Comparison.
constexpr const char* kComparisonWords[] = {"<", "<=", "=", ">=", ">"};

const char* keyword(Op op) {
  switch (op) {
    case Op::Seq: return "seq";
    case Op::Or: return "or";
    case Op::Opt: return "opt";
    case Op::Repeat: return "repeat";
    case Op::While: return "while";
    case Op::If: return "if";
    case Op::IfCan: return "if-can";
    case Op::AnyDirection: return "any-direction";
    case Op::EachDirection: return "each-direction";
    case Op::Empty: return "empty";
    case Op::Friend: return "friend";
    case Op::Enemy: return "enemy";
    case Op::NotFriend: return "not-friend";
    case Op::Occupied: return "occupied";
    case Op::Any: return "any";
    case Op::Captured: return "captured";
    case Op::AtOrigin: return "at";
    case Op::Is: return "is";
    case Op::In: return "in";
    case Op::Can: return "can";
    case Op::Cannot: return "cannot";
    case Op::Not: return "not";
    case Op::And: return "and";
    case Op::Go: return "go";
    case Op::Enter: return "enter";
    case Op::Capture: return "capture";
    case Op::New: return "new";
    case Op::Land: return "land";
    case Op::Block: return "block";
    case Op::Become: return "become";
    case Op::Convert: return "convert";
    case Op::Waypoint: return "waypoint";
    case Op::Pass: return "pass";
    case Op::Again: return "again";
    case Op::SwapPiecesMirror: return "swap-pieces";
    case Op::Exit: return "exit";
    case Op::Add: return "add";
    case Op::Set: return "set";
    case Op::Attr: return "attr";
    case Op::Attacked: return "attacked";
    case Op::AtRegister: return "at-register";
    case Op::Mark: return "mark";
    case Op::Back: return "back";
    case Op::Relocate: return "relocate";
    case Op::SetAttr: return "set-attr";
    case Op::ClearAttr: return "clear-attr";
    case Op::Remember: return "remember";
    case Op::CaptureToHand: return "capture";  // (capture to-hand)
    case Op::FromHand: return "from-hand";
    case Op::Times: return "times";
    case Op::CaptureSurrounded: return "capture-surrounded";
    case Op::HasLiberty: return "has-liberty";
    case Op::Rotate: return "rotate";
    case Op::Sow: return "sow";
    case Op::CountIs: return "count";
    case Op::TakeCount: return "take-count";
    case Op::LastFrom: return "last-from";
    case Op::LastTo: return "last-to";
    case Op::CapturedEarlier: return "captured-earlier";
  }
  return "";
}

Expr node(Op op, std::vector<Expr> items) {
  Expr expr;
  expr.op = op;
  expr.items = std::move(items);
  return expr;
}

Expr with_piece(Op op, int piece) {
  Expr expr = node(op);
  expr.piece = piece;
  return expr;
}

void append(std::vector<Expr>& items, Expr expr) {
  if (expr.op != Op::Seq) return items.push_back(std::move(expr));
  for (Expr& item : expr.items) items.push_back(std::move(item));
}

Expr seq(std::vector<Expr> parts) {
  std::vector<Expr> items;
  for (Expr& part : parts) append(items, std::move(part));
  if (items.size() == 1) return std::move(items.front());
  return node(Op::Seq, std::move(items));
}

std::optional<Expr> choice(std::vector<Expr> ways) {
  std::vector<Expr> flat;
  for (Expr& way : ways) {
    if (way.op != Op::Or) {
      flat.push_back(std::move(way));
      continue;
    }
    for (Expr& item : way.items) flat.push_back(std::move(item));
  }
  if (flat.empty()) return std::nullopt;
  if (flat.size() == 1) return std::move(flat.front());
  return node(Op::Or, std::move(flat));
}

bool is_rule_option(const Node& item) {
  return item.kind == Node::Kind::String || item.is_symbol("fallback") || item.head() == "when" ||
         item.head() == "legal" || item.head() == "only" || item.head() == "priority" || item.head() == "phase";
}

bool is_test(Op op) {
  switch (op) {
    case Op::Empty:
    case Op::Friend:
    case Op::Enemy:
    case Op::NotFriend:
    case Op::Occupied:
    case Op::Any:
    case Op::Captured:
    case Op::AtOrigin:
    case Op::Is:
    case Op::In:
    case Op::Can:
    case Op::Cannot:
    case Op::Not:
    case Op::And:
    case Op::Attr:
    case Op::Attacked:
    case Op::AtRegister:
    case Op::LastFrom:
    case Op::LastTo:
    case Op::CapturedEarlier:
    case Op::HasLiberty:
    case Op::CountIs: return true;
    default: return false;
  }
}

namespace {

// Captured or CapturedEarlier when `test` holds only where here is not so captured, else Seq.
Op tests_not_captured(const Expr& test) {
  if (test.op == Op::Not && (test.items.front().op == Op::Captured || test.items.front().op == Op::CapturedEarlier))
    return test.items.front().op;
  if (test.op != Op::And) return Op::Seq;
  for (const Expr& item : test.items)
    if (const Op op = tests_not_captured(item); op != Op::Seq) return op;
  return Op::Seq;
}

// Whether every complete run of `expr` captures a piece that it has just tested is not captured
// yet (a test with (not captured), then capture, with only tests between): each such run takes a
// piece no earlier one took. A test with (not captured-earlier) counts when a waypoint follows the
// capture in the pass, which makes it a capture of an earlier part for every later pass.
bool always_captures_afresh(const Expr& expr) {
  return always(expr, [](const Expr& part) {
    if (part.op != Op::Seq) return false;
    Op tested = Op::Seq;  // Captured or CapturedEarlier: here was just tested not so
    for (auto item = part.items.begin(); item != part.items.end(); ++item) {
      if (item->op == Op::Capture && tested == Op::Captured) return true;
      if (item->op == Op::Capture && tested == Op::CapturedEarlier &&
          std::any_of(item, part.items.end(), [](const Expr& e) { return e.op == Op::Waypoint; }))
        return true;
      const Op now = tests_not_captured(*item);
      tested = now != Op::Seq ? now : is_test(item->op) ? tested : Op::Seq;
    }
    return false;
  });
}

// The goes of a pass that move here for good: not those inside a lookahead or an each-direction,
// which restore it.
void collect_goes(const Expr& expr, std::vector<const Expr*>& goes) {
  if (expr.op == Op::Go) goes.push_back(&expr);
  if (expr.op == Op::Can || expr.op == Op::Cannot || expr.op == Op::EachDirection) return;
  for (const Expr& item : expr.items) collect_goes(item, goes);
}

// `expr` without the parts of its sequences that (mark M) ... (back M) undoes: here is back where it
// was marked, so the goes between do not move a pass on (a ZRF capture that scans back for the piece
// it jumped, takes it and returns, say). A back nested deeper than its mark is not paired.
Expr without_returns(const Expr& expr) {
  Expr kept = expr;
  kept.items.clear();
  for (auto item = expr.items.begin(); item != expr.items.end(); ++item) {
    if (expr.op == Op::Seq && item->op == Op::Mark) {
      const auto back = std::find_if(item + 1, expr.items.end(), [&](const Expr& later) {
        return later.op == Op::Back && later.variable == item->variable;
      });
      if (back != expr.items.end()) {
        item = back;
        continue;
      }
    }
    kept.items.push_back(without_returns(*item));
  }
  return kept;
}

}  // namespace

bool repetition_ends(const Expr& written) {
  const Expr pass = without_returns(written);
  std::vector<const Expr*> goes;
  collect_goes(pass, goes);
  const auto same_way = [&](const Expr* go) {
    return go->variable == goes.front()->variable && go->directions == goes.front()->directions &&
           (!go->variable.empty() || go->directions.size() == 1);
  };
  const bool always_goes = always(pass, [](const Expr& part) { return part.op == Op::Go; });
  return (always_goes && std::all_of(goes.begin(), goes.end(), same_way)) || always_captures_afresh(written);
}

namespace {

constexpr std::size_t kLineWidth = 100;

Node symbol(std::string text) {
  Node node;
  node.kind = Node::Kind::Symbol;
  node.text = std::move(text);
  return node;
}

Node integer(int value) {
  Node node;
  node.kind = Node::Kind::Integer;
  node.integer = value;
  return node;
}

Node quoted(std::string text) {
  Node node;
  node.kind = Node::Kind::String;
  node.text = std::move(text);
  return node;
}

Node list(std::vector<Node> items) {
  Node node;
  node.items = std::move(items);
  return node;
}

// A board direction's name from its offset: n or s for the row, then e or w for the column.
std::string absolute_name(Offset offset) {
  return std::string(offset.dy > 0 ? "n" : offset.dy < 0 ? "s" : "") + (offset.dx > 0 ? "e" : offset.dx < 0 ? "w" : "");
}

std::string relative_name(Offset offset) {
  for (const auto& [name, relative] : kRelativeDirections)
    if (relative == offset) return name;
  return {};
}

Node direction(const lang::Rules& rules, const Direction& direction) {
  switch (direction.frame) {
    case Direction::Frame::Absolute: {
      const std::string link = rules.link_direction_name(direction.offset);
      return symbol(link.empty() ? absolute_name(direction.offset) : link);
    }
    case Direction::Frame::Relative: return symbol(relative_name(direction.offset));
    case Direction::Frame::Leap: break;
  }
  return list({integer(direction.offset.dx), integer(direction.offset.dy)});
}

// One direction alone, several as a list: a choice.
Node directions(const lang::Rules& rules, const std::vector<Direction>& along) {
  if (along.size() == 1) return direction(rules, along.front());
  Node choice;
  for (const Direction& each : along) choice.items.push_back(direction(rules, each));
  return choice;
}

// How many items after a form's keyword stay on its first line when it does not fit on one.
std::size_t leading_items(const Node& form) {
  const std::string_view head = form.head();
  if (head == "any-direction" || head == "each-direction") return 2;  // the name and the directions
  if (head == "if" || head == "while") return 1;                      // the test
  if (head != "moves") return 0;
  std::size_t options = 0;  // the label and the rule options
  for (std::size_t i = 1; i < form.items.size(); ++i) {
    const Node& item = form.items[i];
    if (!is_rule_option(item)) break;
    ++options;
  }
  return options;
}

// The form on one line when it fits in the width left at `indent`, else its keyword (and what
// belongs with it) on the first line and each other item on a line of its own, indented.
std::string layout(const Node& form, std::size_t indent) {
  std::string flat = to_text(form);
  if (!form.is_list() || indent + flat.size() <= kLineWidth) return flat;
  const std::size_t first_line = std::min(form.items.size(), 1 + leading_items(form));
  std::string text = "(";
  for (std::size_t i = 0; i < first_line; ++i) {
    if (i > 0) text += ' ';
    text += to_text(form.items[i]);
  }
  for (std::size_t i = first_line; i < form.items.size(); ++i) {
    text += '\n';
    text.append(indent + 2, ' ');
    text += layout(form.items[i], indent + 2);
  }
  return text + ")";
}

class Printer {
 public:
  explicit Printer(const lang::Rules& rules) : rules_(rules) {}

  // The rule's (moves ...) form.
  Node moves(const Rule& rule) const {
    Node form = list({symbol("moves")});
    if (!rule.label.empty()) form.items.push_back(quoted(rule.label));
    if (rule.fallback) form.items.push_back(symbol("fallback"));
    if (rule.when) form.items.push_back(list({symbol("when"), condition(*rule.when)}));
    if (rule.legal) form.items.push_back(list({symbol("legal"), symbol(rule.legal->condition_text)}));
    if (rule.only_player >= 0)
      form.items.push_back(
          list({symbol("only"), symbol(rules_.players[static_cast<std::size_t>(rule.only_player)].name)}));
    if (rule.priority != 0) form.items.push_back(list({symbol("priority"), integer(rule.priority)}));
    if (rule.phase >= 0)
      form.items.push_back(list({symbol("phase"), symbol(rules_.phases[static_cast<std::size_t>(rule.phase)].name)}));
    append_body(form, rule.expr);
    return form;
  }

  std::string text(const Rules& core) const {
    std::vector<std::string> facings;
    for (const Player& player : rules_.players)
      facings.push_back(fmt::format("{} faces {}", player.name, player.facing));
    std::string text = fmt::format(
        "; {} in core forms (docs/core-design.md): what each keyword form means.\n"
        "; {}: forward, left ... and (RIGHT FORWARD) are seen from the mover's side.\n",
        rules_.name, fmt::join(facings, ", "));
    for (std::size_t piece = 0; piece < rules_.pieces.size(); ++piece)
      text += piece_text(core, static_cast<int>(piece));
    for (const Rule& rule : core.moves)
      if (rule.scope == Rule::Scope::Game) text += rule_text(rule, 0) + "\n";
    if (core.prefer_most_captures)
      text += most_captures_text(rules_, core.prefer_most_captures_of) + "\n";
    else if (core.prefer_captures)
      text += "; (must-capture)\n(prefer captures)\n";
    if (core.turn_actions != 1 || core.first_turn_actions != 1)
      text += fmt::format("(turn (actions {}) (first {}))\n", core.turn_actions, core.first_turn_actions);
    return text;
  }

  // An expression as its form: for a rule, and alone for expr_text.
  Node expr(const Expr& expr) const {
    Node form = list({symbol(keyword(expr.op))});
    switch (expr.op) {
      case Op::Can:
      case Op::Cannot: append_body(form, expr.items.front()); return form;
      case Op::AnyDirection:
      case Op::EachDirection:
        form.items.push_back(symbol(expr.variable));
        form.items.push_back(directions(rules_, expr.directions));
        break;
      case Op::Go:
        form.items.push_back(expr.variable.empty() ? directions(rules_, expr.directions) : symbol(expr.variable));
        break;
      case Op::CaptureSurrounded:
      case Op::HasLiberty: form.items.push_back(directions(rules_, expr.directions)); break;
      case Op::Is:
      case Op::New:
      case Op::Become: form.items.push_back(symbol(rules_.pieces[static_cast<std::size_t>(expr.piece)].name)); break;
      case Op::In:
      case Op::Enter: form.items.push_back(region(expr.region)); break;
      case Op::Rotate:
        form.items.push_back(expr.variable.empty() ? region(expr.region) : symbol(expr.variable));
        form.items.push_back(symbol(expr.amount > 0 ? "clockwise" : "anticlockwise"));
        break;
      case Op::SwapPiecesMirror: form.items.push_back(symbol("mirror")); break;
      case Op::AtOrigin: form.items.push_back(symbol("origin")); break;
      case Op::Add:
      case Op::Set:
        form.items.push_back(symbol(rules_.counters[static_cast<std::size_t>(expr.counter)].name));
        form.items.push_back(integer(expr.amount));
        break;
      case Op::Attr:
      case Op::SetAttr:
      case Op::ClearAttr:
        form.items.push_back(symbol(rules_.attributes[static_cast<std::size_t>(expr.slot)].name));
        break;
      case Op::AtRegister:
      case Op::Remember:
        form.items.push_back(symbol(rules_.registers[static_cast<std::size_t>(expr.slot)].name));
        break;
      case Op::Mark:
      case Op::Back:
      case Op::Relocate:
      case Op::TakeCount: form.items.push_back(symbol(expr.variable)); break;
      case Op::Sow: form.items.push_back(symbol(rules_.tracks[static_cast<std::size_t>(expr.slot)].name)); break;
      case Op::CountIs:
        form.items.push_back(symbol(kComparisonWords[static_cast<std::size_t>(expr.comparison)]));
        form.items.push_back(integer(expr.amount));
        break;
      case Op::Attacked: return form;  // written (attacked), as §1.2 has it
      case Op::CaptureToHand: form.items.push_back(symbol("to-hand")); return form;
      case Op::FromHand:  // (from-hand PIECE), or the word alone for any piece held
        if (expr.piece < 0) return form.items.front();
        form.items.push_back(symbol(rules_.pieces[static_cast<std::size_t>(expr.piece)].name));
        return form;
      case Op::Times:  // (times N EXPR) or (times (line-pieces D) EXPR)
        if (expr.directions.empty() && expr.variable.empty()) {
          form.items.push_back(integer(expr.amount));
        } else {
          form.items.push_back(list({symbol("line-pieces"), expr.variable.empty() ? directions(rules_, expr.directions)
                                                                                  : symbol(expr.variable)}));
        }
        break;
      case Op::Seq:
      case Op::Or:
      case Op::Opt:
      case Op::Repeat:
      case Op::While:
      case Op::If:
      case Op::IfCan:
      case Op::Not:
      case Op::And: break;
      default: return form.items.front();  // a test or an action without arguments is a word
    }
    for (const Expr& item : expr.items) form.items.push_back(this->expr(item));
    if (expr.op == Op::Repeat) append_bounds(form, expr);
    return form;
  }

 private:
  std::string piece_text(const Rules& core, int piece) const {
    const PieceType& type = rules_.pieces[static_cast<std::size_t>(piece)];
    std::string text = fmt::format("(piece {} \"{}\"", type.name, type.code);
    for (const Rule& rule : core.moves)
      if (rule.scope == Rule::Scope::Piece && rule.piece == piece) {
        text += '\n';  // appended alone: GCC 12 warns (-Wrestrict) about "\n" + a string here
        text += rule_text(rule, 2);
      }
    return text + ")\n";
  }

  // The comment naming the keyword form, then the (moves ...) form, at `indent`.
  std::string rule_text(const Rule& rule, std::size_t indent) const {
    const std::string margin(indent, ' ');
    std::string comment = rule.pos.known() ? fmt::format("line {}: {}", rule.pos.line, rule.origin) : rule.origin;
    if (rule.piece >= 0) comment += piece_note(rule);
    return fmt::format("{}; {}\n{}{}", margin, comment, margin, layout(moves(rule), indent));
  }

  // What the comment of a piece's rule adds: the piece of a drop, which is printed among the game
  // rules, and the promotion, which is lowered into every rule of its piece.
  std::string piece_note(const Rule& rule) const {
    const PieceType& type = rules_.pieces[static_cast<std::size_t>(rule.piece)];
    std::string note = rule.scope == Rule::Scope::Game ? " of " + type.name : "";
    if (type.promote_to >= 0)
      note += ", with the piece's (promote " + rules_.pieces[static_cast<std::size_t>(type.promote_to)].name + " ...)";
    return note;
  }

  Node condition(const Condition& condition) const {
    if (condition.kind == Condition::Kind::OthersCanMove) return list({symbol("can-move"), symbol("others")});
    if (condition.kind == Condition::Kind::PlyIs) return list({symbol("="), symbol("ply"), integer(condition.ply)});
    if (condition.kind == Condition::Kind::DecisionIs)
      return list({symbol("="), symbol("decision"), integer(condition.value)});
    const Node quantity =
        condition.counter < 0
            ? list({symbol("pieces")})
            : list({symbol("counter"), symbol(rules_.counters[static_cast<std::size_t>(condition.counter)].name)});
    return list({symbol(kComparisonWords[static_cast<int>(condition.comparison)]), quantity, integer(condition.value)});
  }

  // A sequence as its items, anything else as itself.
  void append_body(Node& form, const Expr& body) const {
    if (body.op != Op::Seq) return form.items.push_back(expr(body));
    for (const Expr& item : body.items) form.items.push_back(expr(item));
  }

  static void append_bounds(Node& form, const Expr& repeat) {
    if (repeat.at_least > 0) form.items.push_back(list({symbol("at-least"), integer(repeat.at_least)}));
    if (repeat.at_most >= 0) form.items.push_back(list({symbol("at-most"), integer(repeat.at_most)}));
    if (repeat.maximal) form.items.push_back(symbol("maximal"));
  }

  Node region(const Region& region) const {
    if (region.kind != Region::Kind::Cells) {
      const bool far = region.kind == Region::Kind::FarRows;
      if (region.rows == 1) return symbol(far ? "far-row" : "home-row");
      return list({symbol(far ? "far-rows" : "home-rows"), integer(region.rows)});
    }
    if (static_cast<int>(region.cells.size()) == rules_.cells_on_board()) return symbol("all");
    if (region.cells.size() == 1) return symbol(cell_name(region.cells.front(), rules_.width));
    Node cells = list({symbol("cells")});
    for (const int cell : region.cells) cells.items.push_back(symbol(cell_name(cell, rules_.width)));
    return cells;
  }

  const lang::Rules& rules_;
};

}  // namespace

std::string core_text(const lang::Rules& rules, const Rules& core) { return Printer(rules).text(core); }

std::string moves_text(const lang::Rules& rules, const Rule& rule) { return layout(Printer(rules).moves(rule), 0); }

std::string expr_text(const lang::Rules& rules, const Expr& expr) { return to_text(Printer(rules).expr(expr)); }

std::string most_captures_text(const lang::Rules& rules, const std::vector<int>& of) {
  if (of.empty()) return "(prefer (most captures))";
  std::string names;
  for (const int piece : of) names += " " + rules.pieces[static_cast<std::size_t>(piece)].name;
  return fmt::format("(prefer (most captures) (most captures{}))", names);
}

}  // namespace troyka::lang::core
