// The printer behind `troyka translate`: every part of Rules in the form of docs/language.md that
// the checker reads back into the same value. Moves use player-relative directions (or leap
// offsets) measured from the first player's moves, and core forms where no keyword says them;
// regions are written cell by cell.
#include "lang/translate.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <map>
#include <tuple>

#include "lang/core.h"
#include "lang/directions.h"
#include "lang/hand.h"
#include "lang/sexpr.h"

namespace troyka::lang {
namespace {

const std::array<std::pair<const char*, Offset>, 4> kFacings = {{
    {"north", {0, 1}},
    {"south", {0, -1}},
    {"east", {1, 0}},
    {"west", {-1, 0}},
}};

[[noreturn]] void cannot_write(const Rules& rules, std::string message) {
  throw Error(
      Diagnostic{rules.source, {}, std::move(message), "troyka translate writes only what the language can say"});
}

// One jump of a piece for one player: what a move rule allows, offset by offset.
using Tested = std::vector<std::tuple<int, int, int>>;      // dx, dy, target of each cell test
using Jump = std::tuple<int, int, int, int, bool, Tested>;  // kind, dx, dy, target, capture, tests

// The jumps of a piece for `player`, each offset turned by `turn` (identity: facing north).
std::vector<Jump> jumps(const PieceType& piece, int player, Offset turn) {
  std::vector<Jump> result;
  for (const MoveRule& move : piece.moves) {
    Tested tests;
    for (const CellTest& test : move.tests) {
      const Offset turned = orient(test.offset[static_cast<std::size_t>(player)], turn);
      tests.emplace_back(turned.dx, turned.dy, static_cast<int>(test.target));
    }
    std::sort(tests.begin(), tests.end());
    for (const Offset& offset : move.offsets[static_cast<std::size_t>(player)]) {
      const Offset turned = orient(offset, turn);
      result.emplace_back(static_cast<int>(move.kind), turned.dx, turned.dy, static_cast<int>(move.target),
                          move.capture, tests);
    }
  }
  std::sort(result.begin(), result.end());
  result.erase(std::unique(result.begin(), result.end()), result.end());
  return result;
}

// Whether each piece of `player` moves as the first player's does, turned to face `forward`.
// Pieces are compared as wholes: a ZRF mirror symmetry pairs the moves differently than a turn
// does, yet may give every piece the same moves.
bool player_faces(const Rules& rules, int player, Offset forward) {
  constexpr Offset kNorth{0, 1};
  return std::all_of(rules.pieces.begin(), rules.pieces.end(),
                     [&](const PieceType& piece) { return jumps(piece, 0, forward) == jumps(piece, player, kNorth); });
}

// Whether every player's moves are the first's turned to the player's facing: then the translation
// writes the facings and each move once.
bool players_alike(const Rules& rules) {
  if (rules.players[0].facing != "north") return false;
  for (int player = 1; player < rules.player_count(); ++player) {
    const Player& each = rules.players[static_cast<std::size_t>(player)];
    if (each.facing == "none" || !player_faces(rules, player, each.forward)) return false;
  }
  return true;
}

std::string quoted(const std::string& text) {
  Node node;
  node.kind = Node::Kind::String;
  node.text = text;
  return to_text(node);
}

// A description on one line: troyka strings do not span lines.
std::string one_line(const std::string& text) {
  std::string result;
  for (const char c : text) {
    const bool space = c == ' ' || c == '\t' || c == '\n' || c == '\r';
    if (!space)
      result += c;
    else if (!result.empty() && result.back() != ' ')
      result += ' ';
  }
  while (!result.empty() && result.back() == ' ') result.pop_back();
  return result;
}

std::string cells(const CellList& list, int width) {
  std::string text = "(cells";
  for (const int cell : list) {
    text += ' ';
    text += cell_name(cell, width);
  }
  return text + ")";
}

std::string relative_name(Offset offset) {
  for (const auto& [name, relative] : kRelativeDirections)
    if (relative == offset) return name;
  return {};
}

// Whether the keyword forms can write `move`: a slide only by named one-cell directions.
bool has_keyword_form(const MoveRule& move, int player) {
  const std::vector<Offset>& offsets = move.offsets[static_cast<std::size_t>(player)];
  return move.kind != MoveKind::Slide ||
         std::all_of(offsets.begin(), offsets.end(), [](Offset offset) { return !relative_name(offset).empty(); });
}

// A move as the language writes it, from `player`'s offsets measured facing north; with `only`,
// for that player alone. The move has a keyword form.
std::string move_text(const Rules& rules, const MoveRule& move, int player, bool only) {
  const std::vector<Offset>& offsets = move.offsets[static_cast<std::size_t>(player)];
  std::vector<std::string> names;
  bool all_named = true;
  for (const Offset& offset : offsets) {
    names.push_back(relative_name(offset));
    all_named = all_named && !names.back().empty();
  }
  std::string text;
  if (all_named) {
    text = move.kind == MoveKind::Slide ? "(slide (" : "(step (";
    for (std::size_t i = 0; i < names.size(); ++i) text += (i ? " " : "") + names[i];
    text += ")";
  } else {
    text = "(leap (";
    for (std::size_t i = 0; i < offsets.size(); ++i)
      text += fmt::format("{}({} {})", i ? " " : "", offsets[i].dx, offsets[i].dy);
    text += ")";
  }
  text += fmt::format(" (to {})", target_name(move.target));
  if (move.capture) text += " capture";
  for (const CellTest& test : move.tests) {
    const Offset at = test.offset[static_cast<std::size_t>(player)];
    text += fmt::format(" (if ({} {}) {})", at.dx, at.dy, target_name(test.target));
  }
  if (only) text += fmt::format(" (only {})", rules.players[static_cast<std::size_t>(player)].name);
  return text + ")";
}

// A move that no keyword writes (a slide by a leap, a ZRF nightrider) in core forms, as `troyka
// show --core` prints it: the lowering of a game that has this one move, with the players facing
// as the translation writes them (`alike`: as in `rules`; else both north).
std::string core_move_text(const Rules& rules, std::size_t piece, const MoveRule& move, bool alike) {
  Rules alone = rules;
  for (PieceType& type : alone.pieces) type.moves.clear();
  alone.pieces[piece].moves = {move};
  alone.pass_when_stuck = alone.swap_rule = alone.must_capture = alone.capture_most = false;
  alone.capture_most_of.clear();
  if (!alike)
    for (Player& player : alone.players) player.forward = kFacings[0].second;
  std::string text;
  for (const core::Rule& rule : core::lower(alone).moves) text += "\n    " + core::moves_text(alone, rule);
  return text;
}

// A drop as the language writes it, for `player` facing `forward`; with `only`, for that player alone.
std::string drop_text(const Rules& rules, const MoveRule& move, int player, Offset forward, bool only) {
  const CellList& region = move.region[static_cast<std::size_t>(player)];
  std::string text = "(drop";
  if (static_cast<int>(region.size()) != rules.cells_on_board()) text += " (in " + cells(region, rules.width) + ")";
  const std::vector<Offset>& gravity = move.offsets[static_cast<std::size_t>(player)];
  if (!gravity.empty()) {
    const std::string name = relative_name(relative_to(gravity.front(), forward));
    if (name.empty()) cannot_write(rules, fmt::format("the gravity of the drop {} is not a unit direction", move.text));
    text += " (gravity " + name + ")";
  }
  if (only) text += fmt::format(" (only {})", rules.players[static_cast<std::size_t>(player)].name);
  return text + ")";
}

// A drop once for all players when each sees the same cells and the same gravity from its facing,
// else once for each player that can make it, with (only PLAYER).
std::string drops_text(const Rules& rules, const MoveRule& move, bool alike) {
  constexpr Offset kNorth{0, 1};
  const auto facing = [&](int player) {
    return alike ? rules.players[static_cast<std::size_t>(player)].forward : kNorth;
  };
  const auto gravity = [&](int player) {
    const std::vector<Offset>& offsets = move.offsets[static_cast<std::size_t>(player)];
    return offsets.empty() ? std::vector<Offset>{} : std::vector<Offset>{relative_to(offsets.front(), facing(player))};
  };
  bool same = true;
  for (int player = 1; player < rules.player_count(); ++player)
    same = same && move.region[static_cast<std::size_t>(player)] == move.region[0] && gravity(player) == gravity(0);
  if (same) return "\n    " + drop_text(rules, move, 0, facing(0), false);
  std::string text;
  for (int player = 0; player < rules.player_count(); ++player)
    if (!move.region[static_cast<std::size_t>(player)].empty())
      text += "\n    " + drop_text(rules, move, player, facing(player), true);
  return text;
}

// Every move of a piece: once for all players when they are alike (players_alike), else once for
// each player with (only PLAYER), all facing north so that offsets are written as they are; a
// move without a keyword form in core forms.
std::string moves_text(const Rules& rules, std::size_t piece, bool alike) {
  std::string text;
  for (const MoveRule& move : rules.pieces[piece].moves) {
    if (move.kind == MoveKind::Drop) {
      text += drops_text(rules, move, alike);
      continue;
    }
    bool keyword = true;
    for (int player = 0; player < rules.player_count(); ++player) keyword = keyword && has_keyword_form(move, player);
    if (!keyword) {
      text += core_move_text(rules, piece, move, alike);
      continue;
    }
    for (int player = 0; player < (alike ? 1 : rules.player_count()); ++player)
      if (!move.offsets[static_cast<std::size_t>(player)].empty())
        text += "\n    " + move_text(rules, move, player, !alike);
  }
  return text;
}

std::string setup_text(const Rules& rules) {
  std::map<std::pair<int, int>, CellList> groups;  // (player, piece) -> cells
  std::map<std::pair<int, int>, int> in_hand;      // (player, piece) -> count
  for (const Placement& placement : rules.setup)
    if (placement.cell == kInHand)
      ++in_hand[{placement.player, placement.piece}];
    else
      groups[{placement.player, placement.piece}].push_back(placement.cell);
  std::string text = "  (setup";
  for (auto& [key, list] : groups) {
    std::sort(list.begin(), list.end());
    text += fmt::format("\n    (place {} {} {})", rules.players[static_cast<std::size_t>(key.first)].name,
                        rules.pieces[static_cast<std::size_t>(key.second)].name, cells(list, rules.width));
  }
  for (const auto& [key, count] : in_hand)
    text += fmt::format("\n    (in-hand {} {} {})", rules.players[static_cast<std::size_t>(key.first)].name,
                        rules.pieces[static_cast<std::size_t>(key.second)].name, count);
  return text + ")\n";
}

std::string condition_text(const Rules& rules, const EndRule& rule, int player) {
  switch (rule.kind) {
    case EndKind::OpponentHasNoPieces: return "opponent-has-no-pieces";
    case EndKind::NoLegalMoves: return "no-legal-moves";
    case EndKind::PlyLimit: return fmt::format("(ply-limit {})", rule.ply_limit);
    case EndKind::QuietMoves:
      return fmt::format("(quiet-moves {}{})", rule.ply_limit,
                         rule.piece >= 0 ? " " + rules.pieces[static_cast<std::size_t>(rule.piece)].name : "");
    case EndKind::InARow:
      return fmt::format("(in-a-row {}{}{})", rule.length,
                         rule.piece >= 0 ? " " + rules.pieces[static_cast<std::size_t>(rule.piece)].name : "",
                         rule.longest > 0 ? fmt::format(" (at-most {})", rule.longest) : "");
    case EndKind::All:
    case EndKind::Any:
    case EndKind::Not: {  // of its parts as written here: a ZRF goal's parts are ZRF's words
      std::string text = rule.kind == EndKind::All ? "(and" : rule.kind == EndKind::Any ? "(or" : "(not";
      for (const EndRule& part : rule.parts) text += " " + condition_text(rules, part, player);
      return text + ")";
    }
    case EndKind::Lost:
    case EndKind::Compare:
    case EndKind::Repetition:
    case EndKind::InCheck:
    case EndKind::Connected:
    case EndKind::CountIn: return rule.condition_text;  // no ZRF game has them: as written
    case EndKind::Reach:
    case EndKind::Connect: break;
  }
  const auto side = static_cast<std::size_t>(std::max(player, 0));
  const std::string piece = rule.piece >= 0 ? rules.pieces[static_cast<std::size_t>(rule.piece)].name + " " : "";
  if (rule.kind == EndKind::Connect)
    return fmt::format("(connect {}{} {})", piece, cells(rule.region[side], rules.width),
                       cells(rule.other_region[side], rules.width));
  return fmt::format("(reach {}{})", piece, cells(rule.region[side], rules.width));
}

// Whether a rule for all players has a region that differs by player, itself or in a part.
bool regions_differ(const Rules& rules, const EndRule& rule) {
  for (int player = 1; player < rules.player_count(); ++player)
    if (rule.region[static_cast<std::size_t>(player)] != rule.region[0] ||
        rule.other_region[static_cast<std::size_t>(player)] != rule.other_region[0])
      return true;
  return std::any_of(rule.parts.begin(), rule.parts.end(),
                     [&](const EndRule& part) { return regions_differ(rules, part); });
}

// One line per rule, or one per player when a rule for all has a different region for each.
std::string end_text(const Rules& rules) {
  const char* const outcomes[] = {"win", "lose", "draw", "most-pieces"};
  std::string text = "  (end";
  for (const EndRule& rule : rules.end) {
    const bool regional = rule.kind == EndKind::Reach || rule.kind == EndKind::Connect || rule.kind == EndKind::All ||
                          rule.kind == EndKind::Any || rule.kind == EndKind::Not;
    const bool split = rule.only_player < 0 && regional && regions_differ(rules, rule);
    std::vector<int> subjects{rule.only_player};
    if (split) {
      subjects.clear();
      for (int player = 0; player < rules.player_count(); ++player) subjects.push_back(player);
    }
    for (const int player : subjects) {
      if (rule.kind == EndKind::Reach && rule.region[static_cast<std::size_t>(std::max(player, 0))].empty()) continue;
      const std::string who = player >= 0 ? rules.players[static_cast<std::size_t>(player)].name + " " : "";
      text += fmt::format("\n    ({} {}{})", outcomes[static_cast<int>(rule.outcome)], who,
                          condition_text(rules, rule, player));
    }
  }
  return text + ")";
}

}  // namespace

void assign_facings(Rules& rules) {
  rules.players[0].facing = kFacings[0].first;
  rules.players[0].forward = kFacings[0].second;
  for (int player = 1; player < rules.player_count(); ++player) {
    Player& each = rules.players[static_cast<std::size_t>(player)];
    each.facing = "none";
    each.forward = kFacings[1].second;
    for (const auto& [name, forward] : kFacings)
      if (player_faces(rules, player, forward)) {
        each.facing = name;
        each.forward = forward;
        break;
      }
  }
}

// Gives an upper bound (at-most CELLS) to every repetition that the language's own check (docs/core-design.md
// §1.5, core::repetition_ends) cannot prove to end, whiles included. ZRF's loops are checked only
// at play time, by the step budget, where the language refuses such a loop, e.g. a chain whose
// passes go several ways. A run makes at most one pass per cell in practice (a pass takes a piece,
// or goes on one way to the board's edge; a run that came back to where it was with nothing new
// would never end in ZRF either), so the bound keeps the moves and lets the file load. Only those:
// a bounded repetition compiles to a copy of its pass for each pass it may make.
// A (while TEST BODY) becomes (seq (repeat (seq TEST BODY)) (not TEST)).
void bound_repetitions(core::Expr& expr, int cells) {
  for (core::Expr& item : expr.items) bound_repetitions(item, cells);
  if (expr.op == core::Op::While) {
    core::Expr repeat = core::node(core::Op::Repeat, {core::seq({expr.items[0], expr.items[1]})});
    expr = core::seq({std::move(repeat), core::node(core::Op::Not, {expr.items[0]})});
    bound_repetitions(expr.items.front(), cells);
  }
  if (expr.op == core::Op::Repeat && expr.at_most < 0 && !core::repetition_ends(expr.items.front()))
    expr.at_most = cells;
}

// The rules of the general back end (ZRF moves lowered straight onto the core) of `piece`, or the
// game's own with -1, as `show --core` prints them. Their player-relative forms (forward, far-row)
// keep their meaning because the translation writes the players' facings as they are, which
// to_troyka_language checks.
std::string general_moves_text(const Rules& rules, int piece, const std::string& indent) {
  std::string text;
  if (!rules.general) return text;
  for (const core::Rule& rule : rules.general->moves)
    if ((rule.scope == core::Rule::Scope::Game) == (piece < 0) && (piece < 0 || rule.piece == piece)) {
      core::Rule bounded = rule;
      bound_repetitions(bounded.expr, rules.cells());
      std::string written = core::moves_text(rules, bounded);
      for (std::size_t line = written.find('\n'); line != std::string::npos; line = written.find('\n', line + 1))
        written.insert(line + 1, indent);
      text += "\n" + indent + written;
    }
  return text;
}

namespace {

// The board: its shape and holes, or its points, then each link (a line is two links a pair of cells).
std::string board_text(const Rules& rules) {
  std::string text;
  if (rules.points) {
    text = "  (board (points";
    for (int cell = 0; cell < rules.cells(); ++cell)
      if (!rules.is_hole(cell)) text += " " + cell_name(cell, rules.width);
    text += ")";
  } else {
    text =
        fmt::format("  (board ({} {} {}){}", rules.shape == BoardShape::Rhombus ? "rhombus" : "rectangle", rules.width,
                    rules.height, rules.holes.empty() ? "" : " (holes " + cells(rules.holes, rules.width) + ")");
  }
  for (const Link& link : rules.links) {
    const std::string name = direction_name(rules, link.direction);
    if (name.empty())  // a step of the grid that is neither n, ne, ... nor nw
      cannot_write(rules, fmt::format("the board links {} to {} along a direction that is none of n, ne, e, se, s, "
                                      "sw, w, nw",
                                      cell_name(link.from, rules.width), cell_name(link.to, rules.width)));
    text +=
        fmt::format("\n    (link {} {} {})", name, cell_name(link.from, rules.width), cell_name(link.to, rules.width));
  }
  return text + ")\n";
}

std::string phases_text(const Rules& rules) {
  std::string text = "  (phases";
  for (const Phase& phase : rules.phases) text += " " + phase.name;
  text += ")\n";
  for (const Phase& phase : rules.phases)
    for (const EndRule& until : phase.until)
      text += fmt::format("  (phase {} (until {}))\n", phase.name, condition_text(rules, until, -1));
  return text;
}

}  // namespace

std::string to_troyka_language(const Rules& rules) {
  // Written with facings when the first player faces north and the others' moves are the first's
  // turned to their facings; otherwise move by move for each player, all facing north.
  const bool alike = players_alike(rules);
  std::string text = fmt::format("(game {}\n", quoted(rules.name));
  if (!rules.about.empty()) text += fmt::format("  (about {})\n", quoted(one_line(rules.about)));
  text += "  (players";
  std::string facings;  // "White facing north, Red facing east and Black facing south"
  bool all_north = true;
  for (std::size_t player = 0; player < rules.players.size(); ++player) {
    const Player& each = rules.players[player];
    text += fmt::format(" ({} {})", each.name, alike ? each.facing : "north");
    const char* separator = player == 0 ? "" : player + 1 == rules.players.size() ? " and " : ", ";
    facings += fmt::format("{}{} facing {}", separator, each.name, each.facing);
    all_north = all_north && each.facing == "north";
  }
  text += ")\n";
  if (rules.general && !alike && !all_north)
    cannot_write(rules,
                 fmt::format("the moves in core forms are written for {}, which the translation cannot keep", facings));
  text += board_text(rules);
  for (const Counter& counter : rules.counters)
    text += fmt::format("  (counter {} (range {} {}))\n", counter.name, counter.low, counter.high);
  for (const Attribute& attribute : rules.attributes) {
    for (int player = 1; player < rules.player_count(); ++player)
      if (attribute.initially[static_cast<std::size_t>(player)] != attribute.initially[0])
        cannot_write(rules, fmt::format("the attribute {} starts on cells that differ by player", attribute.name));
    text +=
        fmt::format("  (attribute {} (initially {}))\n", attribute.name, cells(attribute.initially[0], rules.width));
  }
  for (const Register& reg : rules.registers)  // last-from and last-to come back with their tests
    if (reg.last == LastMove::None)
      text += fmt::format("  (register {}{})\n", reg.name, reg.transient ? " transient" : "");
  if (!rules.hands.empty()) {
    text += "  (hands";
    for (const int piece : rules.hands) text += " " + rules.pieces[static_cast<std::size_t>(piece)].name;
    text += ")\n";
  }
  if (!rules.phases.empty()) text += phases_text(rules);
  if (rules.swap_rule) text += "  (swap-rule)\n";
  if (rules.must_capture && !rules.capture_most) text += "  (must-capture)\n";
  if (rules.capture_most) text += "  " + core::most_captures_text(rules, rules.capture_most_of) + "\n";
  if (rules.pass_when_stuck) text += "  (pass-when-stuck)\n";
  for (std::size_t piece = 0; piece < rules.pieces.size(); ++piece) {
    const int base = rules.pieces[piece].demotes_to;
    text += fmt::format("  (piece {} \"{}\"{}{}{})\n", rules.pieces[piece].name, rules.pieces[piece].code,
                        base < 0 ? "" : " (demotes-to " + rules.pieces[static_cast<std::size_t>(base)].name + ")",
                        moves_text(rules, piece, alike), general_moves_text(rules, static_cast<int>(piece), "    "));
  }
  if (const std::string game_moves = general_moves_text(rules, -1, "  "); !game_moves.empty())
    text += game_moves.substr(1) + "\n";
  // The general rules' preference, unless the game's own says it already.
  if (rules.general && rules.general->prefer_most_captures && !rules.capture_most)
    text += "  " + core::most_captures_text(rules, rules.general->prefer_most_captures_of) + "\n";
  else if (rules.general && rules.general->prefer_captures && !rules.capture_most)
    text += "  (prefer captures)\n";
  if (rules.turn_actions != 1 || rules.first_turn_actions != 1)
    text += fmt::format("  (turn (actions {}) (first {}))\n", rules.turn_actions, rules.first_turn_actions);
  for (const EndRule& legal : rules.legal) text += fmt::format("  (legal {})\n", condition_text(rules, legal, -1));
  text += setup_text(rules);
  return text + end_text(rules) + ")\n";
}

}  // namespace troyka::lang
