// The checker: turns the S-expression tree of a rule file into checked, resolved Rules.
// It reads top to bottom like the file itself: parameters and variants first (they give the
// numbers), then players, board, named regions, pieces, setup and end conditions. Each form has a
// usage line, shown whenever its arguments are wrong.
#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <cstdlib>
#include <fstream>
#include <map>
#include <numeric>
#include <optional>
#include <sstream>

#include "lang/core.h"
#include "lang/directions.h"
#include "lang/hand.h"
#include "lang/rules.h"
#include "lang/sexpr.h"
#include "lang/zrf.h"

namespace troyka::lang {
namespace {

// ---- Vocabulary -------------------------------------------------------------------------------

const std::vector<std::string> kGameForms = {
    "about", "param",           "variant",   "players",      "board", "region", "piece", "setup",
    "end",   "pass-when-stuck", "swap-rule", "must-capture", "moves", "prefer", "turn",  "counter",
    "legal", "attribute",       "register",  "phases",       "phase", "hands",  "track"};
const std::map<std::string, std::string, std::less<>> kUsage = {
    {"game", "(game \"NAME\" FORM...)"},
    {"about", "(about \"TEXT\")"},
    {"param", "(param NAME DEFAULT [(range LOW HIGH)])"},
    {"range", "(range LOW HIGH)"},
    {"counter", "(counter NAME (range LOW HIGH) [shared])"},
    {"attribute", "(attribute NAME (initially REGION)): a mark the pieces standing on REGION start with"},
    {"initially", "(initially REGION)"},
    {"register", "(register NAME [transient]): a cell remembered across moves"},
    {"hands", "(hands PIECE...): the piece types a player may hold in hand, e.g. (hands Chick Giraffe Elephant)"},
    {"demotes-to", "(demotes-to PIECE): a piece of this type captured into a hand goes there as PIECE"},
    {"variant", "(variant \"NAME\" (PARAM VALUE)...)"},
    {"players", fmt::format("(players (NAME FACING)...): 1 to {} players in turn order, with FACING one of north, "
                            "south, east, west",
                            kMaxPlayers)},
    {"board",
     "(board (rectangle WIDTH HEIGHT) [(holes REGION...)]) or (board (rhombus WIDTH HEIGHT) [(holes REGION...)]) or "
     "(board (hexagon SIDE) [(holes REGION...)]) or (board (points CELL...) (line DIRECTION CELL...)...), with "
     "(line ...) and (link ...) after any shape"},
    {"points", "(points CELL...), e.g. (points a1 d1 g1): the board's cells, on the smallest grid that holds them"},
    {"line", "(line DIRECTION CELL CELL...): each cell leads to the next along DIRECTION, and back the opposite way"},
    {"link", "(link DIRECTION FROM TO): a step along DIRECTION from FROM leads to TO"},
    {"phases", "(phases NAME NAME...): the game's phases, in order"},
    {"phase", "(phase NAME (until CONDITION)) at game level; (phase NAME) in a (moves ...) rule"},
    {"until", "(until CONDITION): the phase ends after a decision when CONDITION holds for both players"},
    {"holes", "(holes REGION...), e.g. (holes d4 e5)"},
    {"rectangle", "(rectangle WIDTH HEIGHT)"},
    {"rhombus", "(rhombus WIDTH HEIGHT)"},
    {"hexagon", "(hexagon SIDE), e.g. (hexagon 5): 61 cells on a 9x9 rhombus"},
    {"region", "(region NAME REGION)"},
    {"piece", "(piece NAME [\"LETTER\"] MOVE... [(promote PIECE REGION)])"},
    {"step", "(step DIRECTIONS [(to TARGET)] [capture] [(if (RIGHT FORWARD) TARGET)...] [(then (shoot MOVE))])"},
    {"slide", "(slide DIRECTIONS [(to TARGET)] [capture] [(then (shoot MOVE))])"},
    {"leap",
     "(leap ((RIGHT FORWARD)...) [(to TARGET)] [capture] [(if (RIGHT FORWARD) TARGET)...] [(then (shoot MOVE))])"},
    {"then", "(then (shoot MOVE))"},
    {"shoot", "(shoot MOVE) with MOVE one of (step DIRECTIONS), (leap OFFSETS), (slide DIRECTIONS)"},
    {"if", "(if (RIGHT FORWARD) TARGET) with TARGET one of empty, enemy, friend, not-friend, any, occupied"},
    {"jump", "(jump DIRECTIONS [(over enemy)] [chain])"},
    {"over", "(over enemy)"},
    {"promote", "(promote PIECE REGION)"},
    {"must-capture", "(must-capture)"},
    {"legal", "(legal CONDITION): a move is legal only if CONDITION holds for its mover after it"},
    {"in-check", "(in-check PIECE): the opponent, were it to move, could take a PIECE of the player"},
    {"prefer", "(prefer captures), the core's (must-capture), or (prefer (most captures) [(most captures PIECE...)])"},
    {"most",
     "(most captures): of the capturing moves, those that capture the most pieces; (most captures "
     "PIECE...): of those, the ones that capture the most of these pieces"},
    {"quiet-moves", "(quiet-moves PLIES [PIECE])"},
    {"drop", "(drop [(in REGION)] [(gravity DIRECTION)] [(flanking DIRECTIONS)])"},
    {"flanking", "(flanking DIRECTIONS)"},
    {"in", "(in REGION)"},
    {"gravity", "(gravity DIRECTION)"},
    {"to", "(to TARGET) with TARGET one of empty, enemy, friend, not-friend, any, occupied"},
    {"only", "(only PLAYER)"},
    {"when", "(when (can-move others)), (when (= ply N)) or (when (OP QUANTITY N)), e.g. (when (= (pieces) 3))"},
    {"setup", "(setup (place [PLAYER] PIECE REGION)... (in-hand [PLAYER] PIECE COUNT)... (count N REGION)...)"},
    {"place", "(place [PLAYER] PIECE REGION)"},
    {"in-hand", "(in-hand [PLAYER] PIECE COUNT), e.g. (in-hand White Stone 40)"},
    {"count", "(count N REGION): each cell of REGION starts with a count of N (seeds)"},
    {"track", "(track NAME (PLAYER CELL CELL...)...): each player's cycle of cells for (sow NAME)"},
    {"most-count", "(most-count REGION CONDITION): the larger total count on each player's REGION wins"},
    {"end",
     "(end (win|lose|draw|most-pieces [PLAYER] CONDITION)... (most-area DIRECTIONS [(komi N)] CONDITION)... "
     "(most-count REGION CONDITION)...)"},
    {"win", "(win [PLAYER] CONDITION)"},
    {"lose", "(lose [PLAYER] CONDITION)"},
    {"draw", "(draw [PLAYER] CONDITION)"},
    {"most-pieces", "(most-pieces [PLAYER] CONDITION)"},
    {"most-area",
     "(most-area DIRECTIONS [(komi N)] CONDITION), e.g. (most-area orthogonal (komi 7) (>= (counter passes) 2))"},
    {"komi", "(komi N): points added to the second player's area"},
    {"pass-when-stuck", "(pass-when-stuck)"},
    {"turn", "(turn (actions N) [(first M)]): N decisions a turn, M on the game's first"},
    {"actions", "(actions N), inside (turn ...)"},
    {"first", "(first M), inside (turn ...)"},
    {"swap-rule", "(swap-rule [ENABLED])"},
    {"connect", "(connect [PIECE] REGION REGION)"},
    {"reach", "(reach [PIECE] REGION)"},
    {"lost", "(lost PIECE)"},
    {"connected", "connected, or (connected [PIECE]): all of the player's pieces (of that type) form one group"},
    {"repetition", "(repetition N): the position, with the same player to move, has occurred N times"},
    {"and", "(and CONDITION...)"},
    {"or", "(or CONDITION...)"},
    {"not", "(not CONDITION)"},
    {"opponent", "(opponent CONDITION): CONDITION holds for the player's opponent"},
    {"<", "(< QUANTITY N) with QUANTITY (counter NAME) or (pieces)"},
    {"<=", "(<= QUANTITY N) with QUANTITY (counter NAME) or (pieces)"},
    {"=", "(= QUANTITY N) with QUANTITY (counter NAME) or (pieces)"},
    {">=", "(>= QUANTITY N) with QUANTITY (counter NAME) or (pieces)"},
    {">", "(> QUANTITY N) with QUANTITY (counter NAME) or (pieces)"},
    {"ply-limit", "(ply-limit PLIES)"},
    {"in-a-row", "(in-a-row LENGTH [PIECE] [(at-most LONGEST)])"},
    {"at-most", "(at-most LONGEST)"},
    {"row", "(row N)"},
    {"rows", "(rows FIRST LAST)"},
    {"column", "(column N-or-LETTER)"},
    {"columns", "(columns FIRST LAST)"},
    {"cells", "(cells CELL...)"},
    {"home-rows", "(home-rows N)"},
    {"far-rows", "(far-rows N)"},
    {"union", "(union REGION...)"},
    {"except", "(except REGION REGION...)"},
};

const std::vector<std::string> kFacings = {"north", "south", "east", "west"};
const std::vector<std::string> kTargets = {"empty", "enemy", "friend", "not-friend", "any", "occupied"};
const std::vector<std::string> kConditions = {"reach",
                                              "opponent-has-no-pieces",
                                              "no-legal-moves",
                                              "ply-limit",
                                              "in-a-row",
                                              "connect",
                                              "connected",
                                              "quiet-moves",
                                              "lost",
                                              "repetition",
                                              "in-check",
                                              "and",
                                              "or",
                                              "not",
                                              "opponent",
                                              "<",
                                              "<=",
                                              "=",
                                              ">=",
                                              ">"};
// The comparisons of a counter with a number, in the order of lang::Comparison.
const std::vector<std::string> kComparisons = {"<", "<=", "=", ">=", ">"};
const std::vector<std::string> kMoveKinds = {"step", "slide", "leap", "drop", "jump"};
// What a piece form may hold after its name and letter: its moves, and at most one promotion.
const std::vector<std::string> kPieceParts = {"step", "slide", "leap",    "drop",
                                              "jump", "moves", "promote", "demotes-to"};
// The largest bound of a (repeat ...): far beyond any board's longest line.
constexpr int kMaxRepeatBound = 1000;
const std::vector<std::string> kRegionForms = {"row",       "rows",     "column", "columns", "cells",
                                               "home-rows", "far-rows", "union",  "except"};
// The usage lines of the core forms (docs/core-design.md §1.2) that take arguments; the other core
// words are a whole test or action. Apart from kUsage, where `if` and `in` are keyword options.
const std::map<std::string, std::string, std::less<>> kCoreUsage = {
    {"moves", "(moves [\"LABEL\"] [fallback] [(when CONDITION)] [(only PLAYER)] EXPR...)"},
    {"seq", "(seq EXPR...)"},
    {"or", "(or EXPR...)"},
    {"opt", "(opt EXPR)"},
    {"repeat", "(repeat EXPR [(at-least N)] [(at-most N)] [maximal])"},
    {"times", "(times N EXPR) or (times (line-pieces DIRECTION) EXPR)"},
    {"capture-surrounded",
     "(capture-surrounded DIRECTIONS): capture every enemy group next to here left without a liberty"},
    {"has-liberty", "(has-liberty DIRECTIONS): the mover's group at here has an empty cell next to it"},
    {"rotate", "(rotate REGION clockwise|anticlockwise): the pieces of a square region turn a quarter with it"},
    {"while", "(while TEST EXPR)"},
    {"if", "(if TEST THEN [ELSE])"},
    {"if-can", "(if-can EXPR)"},
    {"any-direction", "(any-direction NAME DIRECTIONS EXPR)"},
    {"each-direction", "(each-direction NAME DIRECTIONS EXPR)"},
    {"is", "(is PIECE)"},
    {"at", "(at origin): here is the cell the moving piece started from"},
    {"in", "(in REGION)"},
    {"can", "(can EXPR...)"},
    {"cannot", "(cannot EXPR...)"},
    {"not", "(not TEST)"},
    {"and", "(and TEST...)"},
    {"go", "(go DIRECTIONS), or (go NAME) with a NAME that any-direction or each-direction binds"},
    {"enter", "(enter REGION)"},
    {"new", "(new PIECE)"},
    {"become", "(become PIECE)"},
    {"swap-pieces", "(swap-pieces mirror)"},
    {"add", "(add COUNTER N)"},
    {"set", "(set COUNTER N)"},
    {"attr", "(attr ATTRIBUTE): the piece at here has it"},
    {"attacked", "(attacked): a move of the opponent could take the mover at here"},
    {"at-register", "(at-register REGISTER): here is the cell the register holds"},
    {"mark", "(mark NAME): remember here as NAME, for (relocate NAME) or (back NAME)"},
    {"back", "(back NAME): here becomes the cell marked NAME"},
    {"relocate", "(relocate NAME): the piece at here goes to the cell marked NAME"},
    {"set-attr", "(set-attr ATTRIBUTE)"},
    {"clear-attr", "(clear-attr ATTRIBUTE)"},
    {"remember", "(remember REGISTER): the register holds here once the move is played"},
    {"capture", "capture, or (capture to-hand): the piece at here goes to the mover's hand"},
    {"from-hand",
     "(from-hand [PIECE]), or the word from-hand: the mover is a piece from its player's hand (any type held)"},
    {"sow", "(sow TRACK): lift here's count and drop one in each cell after here along the player's TRACK"},
    {"count", "(count OP N): here's count compares with N, OP one of < <= = >= >"},
    {"take-count", "(take-count MARK): the count of the cell marked MARK is added to here's"},
};
const std::vector<std::string> kRegionWords = {"all", "home-row", "far-row", "dark-cells", "light-cells"};

// Absolute directions in (dx, dy); relative ones in (right, forward) of the player.
const std::vector<std::pair<std::string, std::vector<std::string>>> kDirectionGroups = {
    {"orthogonal", {"n", "e", "s", "w"}},
    {"diagonal", {"ne", "se", "sw", "nw"}},
    {"all-directions", {"n", "ne", "e", "se", "s", "sw", "w", "nw"}},
};

template <typename Table>
std::vector<std::string> names_of(const Table& table) {
  std::vector<std::string> names;
  names.reserve(table.size());
  for (const auto& entry : table) names.push_back(entry.first);
  return names;
}

std::vector<std::string> direction_names() {
  auto names = names_of(kAbsoluteDirections);
  for (const auto& name : names_of(kRelativeDirections)) names.push_back(name);
  for (const auto& name : names_of(kDirectionGroups)) names.push_back(name);
  return names;
}

// ---- The checker ------------------------------------------------------------------------------

// A keyword form whose lowering the recogniser does not match: a bug in troyka, as every keyword
// form lowers to a shape that the recogniser compiles.
[[noreturn]] void fail_lowering(const Rules& rules, const core::Rule& rule, const core::Unmatched& unmatched) {
  throw Error(Diagnostic{rules.source, rule.pos,
                         fmt::format("internal error: {} is lowered to core forms that troyka does not compile: {}",
                                     rule.origin, unmatched.why),
                         "a bug in troyka, not a mistake in the rule file: please report it with the file"});
}

// Every move rule through the core (docs/core-design.md §6, steps 3 and 4): the keyword forms of
// `rules` lowered, then the rules `written` in core forms. The recogniser compiles them back onto
// the tables of the fast back end; a written rule it does not compile goes to the general back end
// (rules.general), and so does every other rule of its piece (or every game rule of no piece), so
// that no move is listed by both back ends and a piece's promotion stays with its moves. A keyword
// form whose lowering does not compile is an internal error.
void compile_through_core(Rules& rules, const std::vector<core::Rule>& written) {
  if (rules.has_links()) {  // the fast tables step by shifts of the grid, which a link is not
    core::move_to_general(rules, written);
    return;
  }
  core::Rules general = rules.general ? *rules.general : core::Rules{};  // a ZRF file's, already general
  rules.general.reset();  // core::lower appends the general rules: these are not to be recognised
  core::Rules fast = core::lower(rules);
  fast.moves.insert(fast.moves.end(), written.begin(), written.end());
  const Rules before = rules;  // the recogniser rebuilds the tables of `rules` on every try
  for (;;) {
    rules = before;
    const std::optional<core::Unmatched> unmatched = core::recognise(rules, fast);
    if (!unmatched) break;
    const core::Rule failed = fast.moves[unmatched->rule];
    if (!failed.written) fail_lowering(rules, failed, *unmatched);
    const auto same_owner = [&](const core::Rule& rule) {
      return rule.scope == failed.scope && rule.piece == failed.piece;
    };
    std::copy_if(fast.moves.begin(), fast.moves.end(), std::back_inserter(general.moves), same_owner);
    std::erase_if(fast.moves, same_owner);
  }
  general.prefer_captures = fast.prefer_captures;
  general.prefer_most_captures = fast.prefer_most_captures;
  general.prefer_most_captures_of = fast.prefer_most_captures_of;
  if (!general.moves.empty()) rules.general = std::make_shared<const core::Rules>(std::move(general));
}

class Checker {
 public:
  // `through_core` false reads the keyword forms straight into lang::MoveRules, as before step 3 (for
  // load_rules_without_core).
  Checker(std::shared_ptr<const SourceFile> source, const Options& options, bool through_core = true)
      : source_(std::move(source)), options_(options), through_core_(through_core) {}

  Rules run(const std::vector<Node>& forms) {
    const Node& game = find_game(forms);
    rules_.source = source_;
    rules_.name = argument(game, 1, "NAME").text;
    if (argument(game, 1, "NAME").kind != Node::Kind::String)
      fail(game.items[1], "the game's name must be a \"string\"", "write (game \"My Game\" ...)");
    collect_forms(game);
    read_about();
    read_params();
    read_players();
    read_board();
    read_regions();
    read_counters();
    read_attributes();
    read_registers();
    read_counts();
    read_phase_names();
    read_pieces();
    read_phases();
    read_setup();
    read_end();
    read_pass();
    read_swap_rule();
    read_must_capture();
    read_legal();
    for (const Node* form : this->forms("turn")) read_turn(*form, rules_.turn_actions, rules_.first_turn_actions);
    for (const core::Rule& rule : written_) check_decision_in_turn(rule);
    if (through_core_)
      compile_written_rules();
    else if (!written_.empty())
      fail(*written_forms_.front(), "(moves ...) rules are compiled through the core, which this reading skips");
    for (const PieceType& piece : rules_.pieces) check_flanking_drop(piece);
    check_tested_moves();
    return std::move(rules_);
  }

  // What core::core_text prints, read for the game `game` (core::read_core).
  core::Rules read_core_text(const Rules& game, const std::vector<Node>& forms) {
    rules_ = game;
    regions_.insert(game.regions.begin(), game.regions.end());
    core::Rules core;
    for (const Node& node : forms) {
      const Node& form = list_form(node, "in core forms");
      if (form.head() == "piece") {
        const int piece = piece_named(argument(form, 1, "NAME"));
        for (std::size_t i = form.items.size() > 2 && form.items[2].kind == Node::Kind::String ? 3 : 2;
             i < form.items.size(); ++i)
          core.moves.push_back(core_rule(list_form(form.items[i], "for a rule"), piece));
      } else if (form.head() == "moves") {
        core.moves.push_back(core_rule(form, -1));
      } else if (form.head() == "prefer") {
        core.prefer_most_captures = read_preference(form, core.prefer_most_captures_of);
        core.prefer_captures = true;
      } else if (form.head() == "turn") {
        read_turn(form, core.turn_actions, core.first_turn_actions);
      } else {
        fail(form, fmt::format("expected (piece ...), (moves ...), (prefer captures) or (turn ...), found {}",
                               describe(form)));
      }
    }
    return core;
  }

 private:
  // ---- errors and arguments ----

  [[noreturn]] void fail(const Node& at, std::string message, std::string hint = {}) const {
    fail_at(at.pos, std::move(message), std::move(hint));
  }
  [[noreturn]] void fail_at(SourcePos pos, std::string message, std::string hint = {}) const {
    throw Error(Diagnostic{source_, pos, std::move(message), std::move(hint)});
  }
  static std::string usage(std::string_view form) {
    const auto it = kUsage.find(form);
    return it == kUsage.end() ? std::string() : "usage: " + it->second;
  }

  // The i-th item of a form, or an error naming what is missing.
  const Node& argument(const Node& form, std::size_t index, std::string_view what) const {
    if (index < form.items.size()) return form.items[index];
    fail(form, fmt::format("'({} ...)' is missing its {}", form.head(), what), usage(form.head()));
  }
  void expect_at_most(const Node& form, std::size_t count) const {
    if (form.items.size() <= count) return;
    const std::string allowed =
        count == 1 ? "no arguments" : fmt::format("no more than {} argument{}", count - 1, count == 2 ? "" : "s");
    fail(form.items[count],
         fmt::format("'({} ...)' takes {}; {} is one too many", form.head(), allowed, describe(form.items[count])),
         usage(form.head()));
  }
  std::string name_argument(const Node& node, std::string_view what) const {
    if (!node.is_symbol()) fail(node, fmt::format("expected {} here, found {}", what, describe(node)));
    return node.text;
  }
  const Node& list_form(const Node& node, std::string_view context) const {
    if (!node.is_list() || node.head().empty())
      fail(node, fmt::format("expected a form like '(keyword ...)' {}, found {}", context, describe(node)));
    return node;
  }

  // ---- integer expressions ----

  std::int64_t integer(const Node& node) const {
    switch (node.kind) {
      case Node::Kind::Integer: return node.integer;
      case Node::Kind::String: fail(node, fmt::format("expected a number, found {}", describe(node)));
      case Node::Kind::Symbol: {
        for (const auto& [name, value] : params_)
          if (name == node.text) return value;
        if (const std::uint32_t later = declared_line(node.text))
          fail(node, fmt::format("the parameter '{}' is declared later, at line {}", node.text, later),
               "a parameter can only use the parameters declared above it");
        fail(node, fmt::format("'{}' is not a parameter or a number", node.text), suggest(node.text, param_names()));
      }
      case Node::Kind::List: break;
    }
    return arithmetic(node);
  }

  static bool is_arithmetic(std::string_view op) {
    const std::vector<std::string> operators = {"+", "-", "*", "/", "min", "max"};
    return std::find(operators.begin(), operators.end(), op) != operators.end();
  }

  std::int64_t arithmetic(const Node& node) const {
    const std::string_view op = node.head();
    if (!is_arithmetic(op))
      fail(node, fmt::format("expected a number, found {}", describe(node)),
           "arithmetic is written (+ a b), (- a b), (* a b), (/ a b), (min a b), (max a b)");
    if (node.items.size() < 2) fail(node, fmt::format("'({} ...)' needs at least one number", op));
    std::int64_t result = integer(node.items[1]);
    if (op == "-" && node.items.size() == 2) return checked(node, 0, result, '-');
    for (std::size_t i = 2; i < node.items.size(); ++i) {
      const std::int64_t value = integer(node.items[i]);
      if (op == "min")
        result = std::min(result, value);
      else if (op == "max")
        result = std::max(result, value);
      else
        result = checked(node.items[i], result, value, op[0]);
    }
    return result;
  }

  std::int64_t checked(const Node& at, std::int64_t a, std::int64_t b, char op) const {
    std::int64_t result = 0;
    bool overflow = false;
    switch (op) {
      case '+': overflow = __builtin_add_overflow(a, b, &result); break;
      case '-': overflow = __builtin_sub_overflow(a, b, &result); break;
      case '*': overflow = __builtin_mul_overflow(a, b, &result); break;
      default:
        if (b == 0) fail(at, "division by zero");
        overflow = a == INT64_MIN && b == -1;
        if (!overflow) result = a / b;
    }
    if (overflow) fail(at, "this arithmetic overflows 64-bit integers");
    return result;
  }

  // An integer expression that must lie in [low, high].
  int bounded(const Node& node, std::int64_t low, std::int64_t high, std::string_view what) const {
    const std::int64_t value = integer(node);
    if (value < low || value > high)
      fail(node, fmt::format("{} must be between {} and {}, but it is {}", what, low, high, value));
    return static_cast<int>(value);
  }

  std::vector<std::string> param_names() const { return names_of(params_); }
  // The line a parameter is declared on, or 0 when there is none of that name.
  std::uint32_t declared_line(const std::string& name) const {
    for (const auto& [declared, line] : declared_params_)
      if (declared == name) return line;
    return 0;
  }

  // ---- game-level forms ----

  const Node& find_game(const std::vector<Node>& forms) const {
    if (forms.empty()) fail_at({}, "the file holds no game", "a rule file is one form: (game \"Name\" ...)");
    for (const Node& form : forms)
      if (!form.is_list() || form.head() != "game")
        fail(form, fmt::format("expected '(game ...)', found {}", describe(form)),
             form.is_list() && !closest_match(form.head(), {"game"}).empty() ? suggest(form.head(), {"game"})
                                                                             : usage("game"));
    if (forms.size() > 1) fail(forms[1], "a rule file holds exactly one '(game ...)'", "remove the second one");
    return forms.front();
  }

  void collect_forms(const Node& game) {
    for (std::size_t i = 2; i < game.items.size(); ++i) {
      const Node& form = list_form(game.items[i], "inside '(game ...)'");
      const std::string keyword(form.head());
      if (std::find(kGameForms.begin(), kGameForms.end(), keyword) == kGameForms.end())
        fail(form.items.front(), fmt::format("unknown form '{}' in a game", keyword), suggest(keyword, kGameForms));
      const bool repeatable = keyword == "param" || keyword == "variant" || keyword == "region" || keyword == "piece" ||
                              keyword == "moves" || keyword == "counter" || keyword == "attribute" ||
                              keyword == "register" || keyword == "phase" || keyword == "track";
      if (!repeatable && !forms_[keyword].empty())
        fail(form,
             fmt::format("'({} ...)' appears twice; the first is at line {}", keyword,
                         forms_[keyword].front()->pos.line),
             "merge the two into one");
      forms_[keyword].push_back(&form);
    }
    for (const char* required : {"players", "board", "piece", "setup", "end"})
      if (forms_[required].empty())
        fail(game, fmt::format("the game has no '({} ...)' form", required), usage(required));
  }

  const std::vector<const Node*>& forms(const std::string& keyword) const {
    static const std::vector<const Node*> none;
    const auto it = forms_.find(keyword);
    return it == forms_.end() ? none : it->second;
  }

  void read_about() {
    for (const Node* form : forms("about")) {
      expect_at_most(*form, 2);
      const Node& text = argument(*form, 1, "TEXT");
      if (text.kind != Node::Kind::String) fail(text, "expected a \"string\"", usage("about"));
      rules_.about = text.text;
    }
  }

  // ---- parameters and variants ----

  // Declarations first (names, duplicates), then the chosen variant, then the values in order:
  // the default, overridden by the variant, overridden by --param.
  void read_params() {
    for (const Node* form : forms("param")) {
      const std::string name = name_argument(argument(*form, 1, "NAME"), "a parameter name");
      if (declared_line(name)) fail(form->items[1], fmt::format("the parameter '{}' is declared twice", name));
      declared_params_.emplace_back(name, form->pos.line);
      expect_at_most(*form, 4);
    }
    const std::map<std::string, const Node*> chosen = variant_values();
    std::map<std::string, std::string> typed;
    for (const auto& [name, value] : options_.params)
      if (!typed.emplace(name, value).second)
        throw Error(
            Diagnostic{nullptr, {}, fmt::format("--param {} is given twice", name), "give each parameter once"});
    for (const Node* form : forms("param")) {
      const std::string& name = form->items[1].text;
      const Node* source = &argument(*form, 2, "DEFAULT");
      std::int64_t value = integer(*source);
      if (const auto it = chosen.find(name); it != chosen.end()) value = integer(*(source = it->second));
      const auto it = typed.find(name);
      if (it != typed.end()) value = typed_value(name, it->second);
      if (form->items.size() > 3) check_range(form->items[3], name, value, it != typed.end() ? nullptr : source);
      params_.emplace_back(name, value);
    }
    for (const auto& [name, value] : options_.params)
      if (!declared_line(name))
        throw Error(Diagnostic{nullptr,
                               {},
                               fmt::format("--param {}: this game has no parameter '{}'", name, name),
                               params_.empty() ? "this game has no parameters" : suggest(name, param_names())});
    rules_.params = params_;
  }

  std::int64_t typed_value(const std::string& name, const std::string& text) const {
    std::int64_t value = 0;
    const std::size_t start = !text.empty() && text[0] == '+' ? 1 : 0;  // as in rule files
    const auto [end, error] = std::from_chars(text.data() + start, text.data() + text.size(), value);
    if (error == std::errc::result_out_of_range)
      throw Error(Diagnostic{nullptr,
                             {},
                             fmt::format("--param {}={}: '{}' is too large", name, text, text),
                             "numbers must fit in 64 bits"});
    if (text.size() == start || error != std::errc() || end != text.data() + text.size())
      throw Error(Diagnostic{nullptr,
                             {},
                             fmt::format("--param {}={}: '{}' is not a whole number", name, text, text),
                             fmt::format("write for example --param {}=8", name)});
    return value;
  }

  // `source` is where the value was written (the default or the variant's value); null when it
  // came from the command line.
  void check_range(const Node& range, const std::string& name, std::int64_t value, const Node* source) const {
    if (range.head() != "range") fail(range, fmt::format("expected '(range LOW HIGH)', found {}", describe(range)));
    expect_at_most(range, 3);
    const std::int64_t low = integer(argument(range, 1, "LOW"));
    const std::int64_t high = integer(argument(range, 2, "HIGH"));
    if (low > high)
      fail(range, fmt::format("this range is empty: {} is greater than {}", low, high),
           fmt::format("write the smaller number first: (range {} {})", high, low));
    if (value >= low && value <= high) return;
    const std::string message =
        fmt::format("{} = {} is out of range; it must be between {} and {}", name, value, low, high);
    if (!source)
      throw Error(Diagnostic{
          nullptr, {}, "--param " + message, fmt::format("see line {} of {}", range.pos.line, source_->name)});
    fail(*source, message);
  }

  // The values set by the chosen variant, by parameter name.
  std::map<std::string, const Node*> variant_values() {
    std::vector<std::string> names;
    std::map<std::string, const Node*> values;
    std::vector<std::string> declared = names_of(declared_params_);
    for (const Node* form : forms("variant")) {
      const Node& name = argument(*form, 1, "NAME");
      if (name.kind != Node::Kind::String) fail(name, "a variant's name must be a \"string\"", usage("variant"));
      if (std::find(names.begin(), names.end(), name.text) != names.end())
        fail(name, fmt::format("the variant \"{}\" is declared twice", name.text));
      names.push_back(name.text);
      std::vector<std::string> set_here;
      for (std::size_t i = 2; i < form->items.size(); ++i) {
        const Node& setting = form->items[i];
        if (!setting.is_list() || setting.items.size() != 2 || !setting.items[0].is_symbol())
          fail(setting, fmt::format("expected '(PARAM VALUE)' in a variant, found {}", describe(setting)),
               usage("variant"));
        const std::string& param = setting.items[0].text;
        if (!declared_line(param))
          fail(setting.items[0], fmt::format("the variant sets '{}', which is not a parameter", param),
               declared.empty() ? "declare it with (param NAME DEFAULT)" : suggest(param, declared));
        if (std::find(set_here.begin(), set_here.end(), param) != set_here.end())
          fail(setting.items[0], fmt::format("the variant \"{}\" sets '{}' twice", name.text, param));
        set_here.push_back(param);
        if (name.text == options_.variant) values[param] = &setting.items[1];
      }
    }
    if (!options_.variant.empty() && std::find(names.begin(), names.end(), options_.variant) == names.end())
      throw Error(Diagnostic{nullptr,
                             {},
                             fmt::format("--variant: this game has no variant \"{}\"", options_.variant),
                             names.empty() ? "this game has no variants" : suggest(options_.variant, names)});
    rules_.variant = options_.variant;
    return values;
  }

  // ---- players and board ----

  void read_players() {
    const Node& form = *forms("players").front();
    const int count = static_cast<int>(form.items.size()) - 1;
    if (count < 1) fail(form, "a game needs at least one player", usage("players"));
    if (count > kMaxPlayers)
      fail(form.items[kMaxPlayers + 1],
           fmt::format("a game has at most {} players, this one lists {}", kMaxPlayers, count), usage("players"));
    for (int p = 0; p < count; ++p) rules_.players.push_back(read_player(form.items[p + 1]));
    for (int p = 1; p < count; ++p)
      for (int earlier = 0; earlier < p; ++earlier)
        if (rules_.players[p].name == rules_.players[earlier].name)
          fail(form.items[p + 1].items[0], fmt::format("two players are called '{}'", rules_.players[p].name),
               "each player needs a name of its own");
  }

  std::vector<int> every_player() const {
    std::vector<int> players(rules_.players.size());
    std::iota(players.begin(), players.end(), 0);
    return players;
  }

  Player read_player(const Node& entry) const {
    if (!entry.is_list() || entry.items.size() != 2)
      fail(entry, fmt::format("expected '(NAME FACING)', found {}", describe(entry)), usage("players"));
    Player player;
    player.name = name_argument(entry.items[0], "a player name");
    player.facing = name_argument(entry.items[1], "a facing");
    player.pos = entry.pos;
    const auto facing = std::find(kFacings.begin(), kFacings.end(), player.facing);
    if (facing == kFacings.end())
      fail(entry.items[1], fmt::format("unknown facing '{}'", player.facing), suggest(player.facing, kFacings));
    const Offset forwards[] = {{0, 1}, {0, -1}, {1, 0}, {-1, 0}};
    player.forward = forwards[facing - kFacings.begin()];
    return player;
  }

  void read_board() {
    const Node& form = *forms("board").front();
    const Node& shape = argument(form, 1, "SHAPE");
    if (shape.head() == "hexagon")
      read_hexagon(shape);
    else if (shape.head() == "points")
      read_points(shape);
    else
      read_grid(shape);
    std::size_t next = 2;
    if (next < form.items.size() && form.items[next].head() == "holes") read_holes(form.items[next++]);
    for (; next < form.items.size(); ++next) {
      const Node& part = form.items[next];
      if (part.head() == "line")
        read_line(part);
      else if (part.head() == "link")
        read_link(part);
      else if (part.head() == "holes")
        fail(part, "'(holes ...)' comes right after the board's shape, before its lines and links", usage("board"));
      else
        fail(part,
             fmt::format("expected '(holes ...)', '(line ...)' or '(link ...)' in the board, found {}", describe(part)),
             usage("board"));
    }
  }

  // (points CELL...): the named cells of the smallest grid from a1 that holds them all; the grid's
  // other cells are holes, and its cells are joined only by the board's lines and links.
  void read_points(const Node& shape) {
    if (shape.items.size() < 2) fail(shape, "'(points ...)' names no point", usage("points"));
    CellList points;  // as cells of a 26x26 grid, until the grid's size is known
    for (std::size_t i = 1; i < shape.items.size(); ++i) {
      const Node& point = shape.items[i];
      const int cell = point.is_symbol() ? parse_cell(point.text, kMaxBoardSide, kMaxBoardSide) : -1;
      if (cell < 0)
        fail(point, fmt::format("expected a point named like a cell, e.g. d1, found {}", describe(point)),
             "a point is named by its column a..z and its row 1..26 on the board's chart");
      if (std::find(points.begin(), points.end(), cell) != points.end())
        fail(point, fmt::format("the point {} is named twice", point.text));
      points.push_back(cell);
      rules_.width = std::max(rules_.width, cell % kMaxBoardSide + 1);
      rules_.height = std::max(rules_.height, cell / kMaxBoardSide + 1);
    }
    rules_.points = true;
    CellList cells;
    for (const int point : points) cells.push_back(rules_.cell(point % kMaxBoardSide, point / kMaxBoardSide));
    std::sort(cells.begin(), cells.end());
    for (int cell = 0; cell < rules_.cells(); ++cell)
      if (!std::binary_search(cells.begin(), cells.end(), cell)) rules_.holes.push_back(cell);
  }

  // (line DIRECTION CELL CELL...): each cell leads to the next along DIRECTION, and the next back
  // to it along the opposite direction.
  void read_line(const Node& node) {
    const Offset direction = board_direction(argument(node, 1, "DIRECTION"));
    if (node.items.size() < 4) fail(node, "a line joins at least two cells", usage("line"));
    for (std::size_t i = 2; i + 1 < node.items.size(); ++i) {
      const int from = cell(node.items[i]), to = cell(node.items[i + 1]);
      add_link(node.items[i], {direction, from, to});
      add_link(node.items[i + 1], {{-direction.dx, -direction.dy}, to, from});
    }
  }

  // (link DIRECTION FROM TO): one way only. DIRECTION is n ... nw, or a name of the board's own
  // (next, up...), declared by its first link, which core forms then go along: (go next).
  void read_link(const Node& node) {
    expect_at_most(node, 4);
    const Node& name = argument(node, 1, "DIRECTION");
    const Offset direction = is_new_link_name(name) ? rules_.link_direction(name.text) : board_direction(name);
    const int from = cell(argument(node, 2, "FROM"));
    add_link(node.items[2], {direction, from, cell(argument(node, 3, "TO"))});
  }

  // A name for a link direction of the board's own: a word that names no direction or group.
  bool is_new_link_name(const Node& node) const {
    if (!node.is_symbol()) return false;
    const std::vector<std::string> taken = direction_names();
    return std::find(taken.begin(), taken.end(), node.text) == taken.end();
  }

  void add_link(const Node& at, const Link& link) {
    if (link.from == link.to) fail(at, fmt::format("{} would lead to itself", at.text));
    const std::string direction = direction_name(rules_, link.direction);
    for (const Link& earlier : rules_.links)
      if (earlier.from == link.from && earlier.direction == link.direction && earlier.to != link.to)
        fail(at, fmt::format("{} already leads {} to {}", at.text, direction, cell_name(earlier.to, rules_.width)),
             "a cell has at most one neighbour in each direction");
    if (std::find(rules_.links.begin(), rules_.links.end(), link) == rules_.links.end()) rules_.links.push_back(link);
  }

  // One of the board's directions, n ... nw: lines and links are the same for both players.
  Offset board_direction(const Node& node) const {
    for (const auto& [name, offset] : kAbsoluteDirections)
      if (node.is_symbol(name)) return offset;
    fail(node, fmt::format("expected a board direction, found {}", describe(node)),
         node.is_symbol() ? suggest(node.text, names_of(kAbsoluteDirections))
                          : "one of n, ne, e, se, s, sw, w, nw: lines and links are the same for both players");
  }

  // (rectangle WIDTH HEIGHT) or (rhombus WIDTH HEIGHT).
  void read_grid(const Node& shape) {
    if (shape.head() != "rectangle" && shape.head() != "rhombus")
      fail(shape, fmt::format("unknown board shape {}", describe(shape)), usage("board"));
    if (shape.head() == "rhombus") rules_.shape = BoardShape::Rhombus;
    expect_at_most(shape, 3);
    rules_.width = board_side(argument(shape, 1, "WIDTH"), "columns");
    rules_.height = board_side(argument(shape, 2, "HEIGHT"), "rows");
  }

  // (hexagon SIDE): the cells of a rhombus of 2 SIDE - 1 columns and rows at most SIDE - 1 steps
  // from its middle cell. A step that changes both coordinates changes them in opposite senses
  // (nw, se), so the cells too far away are the two corners around a1 and the last cell, where
  // column + row is below SIDE - 1 or above 3 (SIDE - 1): those become holes, and the hexagon is a
  // rhombus with holes to everything downstream.
  void read_hexagon(const Node& shape) {
    expect_at_most(shape, 2);
    const Node& side_node = argument(shape, 1, "SIDE");
    const std::int64_t side = integer(side_node);
    constexpr int kLargestSide = (kMaxBoardSide + 1) / 2;
    if (side < 1 || side > kLargestSide)
      fail(side_node, fmt::format("a hexagon's side must be 1 to {}, this one is {}", kLargestSide, side),
           fmt::format("a hexagon of side N lies on a rhombus of 2N-1 columns and rows, and a board has at most {} "
                       "(columns a..z)",
                       kMaxBoardSide));
    const int middle = static_cast<int>(side) - 1;
    rules_.shape = BoardShape::Rhombus;
    rules_.width = rules_.height = 2 * middle + 1;
    for (int row = 0; row < rules_.height; ++row)
      for (int column = 0; column < rules_.width; ++column)
        if (column + row < middle || column + row > 3 * middle) rules_.holes.push_back(rules_.cell(column, row));
  }

  // (holes REGION...): the cells cut out of the board. Read before any hole is known, so the
  // regions are the full grid's; they must not depend on the player, as the board does not.
  void read_holes(const Node& node) {
    if (node.head() != "holes")
      fail(node, fmt::format("expected '(holes ...)' after the board's shape, found {}", describe(node)),
           usage("board"));
    if (node.items.size() < 2) fail(node, "'(holes ...)' needs at least one cell", usage("holes"));
    CellList holes = rules_.holes;  // a hexagon's corners
    for (std::size_t i = 1; i < node.items.size(); ++i) {
      const PlayerRegion cut = region(node.items[i]);
      if (!is_same_for_every_player(cut))
        fail(node.items[i], "holes are the same for every player, and this region is seen from each player's side",
             "name the cells, e.g. (holes d4 e5), or use (row N), (column N) or (cells ...)");
      holes.insert(holes.end(), cut[0].begin(), cut[0].end());
    }
    std::sort(holes.begin(), holes.end());
    holes.erase(std::unique(holes.begin(), holes.end()), holes.end());
    if (static_cast<int>(holes.size()) == rules_.cells())
      fail(node, "every cell of the board is a hole", "a board needs at least one cell that is not a hole");
    rules_.holes = std::move(holes);
  }

  int board_side(const Node& node, std::string_view what) const {
    const std::int64_t value = integer(node);
    if (value > kMaxBoardSide)
      fail(node, fmt::format("the board is too large: {} {}, at most {} are supported", value, what, kMaxBoardSide),
           "columns are named a..z and rows 1..26");
    if (value < 1) fail(node, fmt::format("a board needs at least one of its {}; this one has {}", what, value));
    return static_cast<int>(value);
  }

  // ---- regions ----

  void read_regions() {
    for (const Node* form : forms("region")) {
      expect_at_most(*form, 3);
      const std::string name = name_argument(argument(*form, 1, "NAME"), "a region name");
      if (regions_.count(name)) fail(form->items[1], fmt::format("the region '{}' is declared twice", name));
      if (std::find(kRegionWords.begin(), kRegionWords.end(), name) != kRegionWords.end() ||
          std::find(kRegionForms.begin(), kRegionForms.end(), name) != kRegionForms.end() ||
          parse_cell(name, kMaxBoardSide, kMaxBoardSide) >= 0)
        fail(form->items[1], fmt::format("'{}' is a built-in word and cannot name a region", name));
      regions_[name] = region(argument(*form, 2, "REGION"));
    }
    rules_.regions.assign(regions_.begin(), regions_.end());
  }

  PlayerRegion same_for_every_player(const CellList& cells) const {
    PlayerRegion region;
    std::fill_n(region.begin(), rules_.players.size(), cells);
    return region;
  }
  bool is_same_for_every_player(const PlayerRegion& region) const {
    return std::all_of(region.begin(), region.begin() + rules_.player_count(),
                       [&](const CellList& cells) { return cells == region[0]; });
  }

  PlayerRegion region(const Node& node) const {
    if (node.is_symbol()) return region_word(node);
    const std::string_view head = node.head();
    if (head.empty()) fail(node, fmt::format("expected a region, found {}", describe(node)), regions_hint());
    const std::string form(head);
    if (std::find(kRegionForms.begin(), kRegionForms.end(), form) == kRegionForms.end())
      fail(node.items.front(), fmt::format("unknown region form '{}'", form), suggest(form, kRegionForms));
    if (form == "union" || form == "except") return combined(node);
    if (form == "cells") {
      CellList cells;
      if (node.items.size() < 2) fail(node, "'(cells ...)' needs at least one cell", usage("cells"));
      for (std::size_t i = 1; i < node.items.size(); ++i) {
        const int c = cell(node.items[i]);
        if (std::find(cells.begin(), cells.end(), c) != cells.end())
          fail(node.items[i], fmt::format("the cell {} is listed twice", node.items[i].text));
        cells.push_back(c);
      }
      return same_for_every_player(cells);
    }
    expect_at_most(node, form == "rows" || form == "columns" ? 3 : 2);
    if (form == "row" || form == "rows") {
      const int first = line_number(argument(node, 1, "N"), rules_.height, "row");
      const int last = form == "rows" ? line_number(argument(node, 2, "LAST"), rules_.height, "row") : first;
      return same_for_every_player(lines(first, last, true));
    }
    if (form == "column" || form == "columns") {
      const int first = column_number(argument(node, 1, "N"));
      const int last = form == "columns" ? column_number(argument(node, 2, "LAST")) : first;
      return same_for_every_player(lines(first, last, false));
    }
    const int depth = bounded(argument(node, 1, "N"), 1, std::max(rules_.width, rules_.height), "the number of rows");
    return relative_rows(depth, form == "far-rows", node);
  }

  std::string regions_hint() const {
    return "a region is a name, a cell like a1, or one of (row N), (rows A B), (column N), (cells ...), "
           "(home-rows N), (far-rows N), (union ...), (except ...), all, home-row, far-row, dark-cells, light-cells";
  }

  PlayerRegion region_word(const Node& node) const {
    const std::string& word = node.text;
    if (word == "all") return whole_board();
    if (word == "home-row" || word == "far-row") return relative_rows(1, word == "far-row", node);
    if (word == "dark-cells" || word == "light-cells") return same_for_every_player(checkered(word == "dark-cells"));
    if (const auto it = regions_.find(word); it != regions_.end()) return it->second;
    if (parse_cell(word, kMaxBoardSide, kMaxBoardSide) >= 0) return same_for_every_player({cell(node)});
    std::vector<std::string> known = kRegionWords;
    for (const auto& [name, cells] : regions_) known.push_back(name);
    for (const auto& form : kRegionForms) known.push_back(form);
    fail(node, fmt::format("unknown region '{}'", word), suggest(word, known));
  }

  PlayerRegion combined(const Node& node) const {
    if (node.items.size() < 2)
      fail(node, fmt::format("'({} ...)' needs at least one region", node.head()), usage(node.head()));
    PlayerRegion result = region(node.items[1]);
    for (std::size_t i = 2; i < node.items.size(); ++i) {
      const PlayerRegion other = region(node.items[i]);
      for (int p = 0; p < rules_.player_count(); ++p) {
        CellList& cells = result[p];
        if (node.head() == "union") {
          cells.insert(cells.end(), other[p].begin(), other[p].end());
        } else {
          std::erase_if(cells, [&](int c) { return std::find(other[p].begin(), other[p].end(), c) != other[p].end(); });
        }
      }
    }
    for (CellList& cells : result) {
      std::sort(cells.begin(), cells.end());
      cells.erase(std::unique(cells.begin(), cells.end()), cells.end());
    }
    return result;
  }

  // The cells of one colour of a chequered board; a1 is dark, as on chess and draughts boards.
  CellList checkered(bool dark) const {
    CellList cells;
    for (int c = 0; c < rules_.cells(); ++c)
      if (((c % rules_.width + c / rules_.width) % 2 == 0) == dark && !rules_.is_hole(c)) cells.push_back(c);
    return cells;
  }

  // The cells of rows (or columns) first..last, 0-based, inclusive in either order; holes left out.
  CellList lines(int first, int last, bool rows) const {
    CellList cells;
    for (int line = std::min(first, last); line <= std::max(first, last); ++line)
      for (int along = 0; along < (rows ? rules_.width : rules_.height); ++along)
        cells.push_back(rows ? rules_.cell(along, line) : rules_.cell(line, along));
    std::erase_if(cells, [&](int c) { return rules_.is_hole(c); });
    std::sort(cells.begin(), cells.end());
    return cells;
  }

  // The `depth` lines nearest a player's home side (or the far side), seen along the player's facing.
  PlayerRegion relative_rows(int depth, bool far, const Node& at) const {
    PlayerRegion result;
    for (int p = 0; p < rules_.player_count(); ++p) {
      const Offset f = rules_.players[p].forward;
      const bool vertical = f.dy != 0;
      const int extent = vertical ? rules_.height : rules_.width;
      if (depth > extent) fail(at, fmt::format("the board has only {} {}", extent, vertical ? "rows" : "columns"));
      const bool towards_high = (vertical ? f.dy : f.dx) > 0;
      const bool low_end = towards_high != far;  // a north-facing player's home is at the low rows
      const int first = low_end ? 0 : extent - depth;
      result[p] = lines(first, first + depth - 1, vertical);
    }
    return result;
  }

  int line_number(const Node& node, int count, std::string_view what) const {
    return bounded(node, 1, count, fmt::format("the {} number (the board has {} {}s)", what, count, what)) - 1;
  }

  int column_number(const Node& node) const {
    if (node.is_symbol() && node.text.size() == 1 && node.text[0] >= 'a' && node.text[0] <= 'z') {
      const int column = node.text[0] - 'a';
      if (column >= rules_.width)
        fail(node, fmt::format("column {} is outside the board (columns a..{})", node.text,
                               static_cast<char>('a' + rules_.width - 1)));
      return column;
    }
    if (node.is_symbol() && !declared_line(node.text))
      fail(node, fmt::format("unknown column '{}'", node.text),
           fmt::format("columns are lower-case letters a..{} or numbers 1..{}",
                       static_cast<char>('a' + rules_.width - 1), rules_.width));
    return line_number(node, rules_.width, "column");
  }

  int cell(const Node& node) const {
    if (!node.is_symbol() || parse_cell(node.text, kMaxBoardSide, kMaxBoardSide) < 0)
      fail(node, fmt::format("expected a cell like a1, found {}", describe(node)));
    const int found = parse_cell(node.text, rules_.width, rules_.height);
    if (found < 0)
      fail(node, fmt::format("the cell {} is outside the {}x{} board", node.text, rules_.width, rules_.height),
           fmt::format("cells run from a1 to {}", cell_name(rules_.cells() - 1, rules_.width)));
    if (rules_.points && rules_.is_hole(found))
      fail(node, fmt::format("{} is not a point of the board", node.text),
           "the board's cells are the points its (points ...) names");
    if (rules_.is_hole(found))
      fail(node, fmt::format("{} is a hole of the board", node.text),
           "a hole is not a cell: no piece stands there and no move goes there");
    return found;
  }

  // ---- pieces and their moves ----

  void read_pieces() {
    const auto& piece_forms = forms("piece");
    if (const int cap = bitboard_width(rules_.cells()).max_piece_types;
        piece_forms.size() > static_cast<std::size_t>(cap)) {
      auto [message, hint] = too_many_piece_types(rules_);
      fail(*piece_forms[static_cast<std::size_t>(cap)], std::move(message), std::move(hint));
    }
    std::vector<const Node*> promotions;                  // by piece: its (promote ...) form, if any
    std::vector<const Node*> demotions;                   // by piece: its (demotes-to ...) form, if any
    std::vector<std::pair<int, const Node*>> core_rules;  // (moves ...) forms, by piece
    for (const Node* form : piece_forms) {
      PieceType piece;
      piece.pos = form->pos;
      piece.name = name_argument(argument(*form, 1, "NAME"), "a piece name");
      if (piece_index(piece.name) >= 0)
        fail(form->items[1], fmt::format("the piece '{}' is declared twice", piece.name));
      std::size_t next = 2;
      piece.code = std::string(1, piece.name[0]);
      if (form->items.size() > 2 && form->items[2].kind == Node::Kind::String) {
        piece.code = form->items[2].text;
        if (const std::string problem = piece_code_problem(piece.code); !problem.empty())
          fail(form->items[2], problem, "like \"P\", or \"DK\" in a game of more piece types than letters");
        ++next;
      }
      if (!std::isalpha(static_cast<unsigned char>(piece.code[0])) && piece.code.size() == 1)
        fail(form->items[1], "a piece needs a letter for diagrams",
             fmt::format("give one after the name: (piece {} \"L\" ...)", piece.name));
      piece.code = piece_code(piece.code);
      for (const PieceType& other : rules_.pieces)
        if (other.code == piece.code)
          fail(*form,
               fmt::format("the pieces '{}' and '{}' share the {} {}", other.name, piece.name,
                           piece.code.size() == 1 ? "letter" : "code", piece.code),
               "give this piece its own letter, (piece NAME \"L\" ...), or a code of up to three characters, "
               "(piece NAME \"DK\" ...)");
      const Node* promote = nullptr;
      for (std::size_t i = next; i < form->items.size(); ++i) {
        const Node& part = form->items[i];
        if (part.head() == "moves") {
          core_rules.emplace_back(static_cast<int>(rules_.pieces.size()), &part);
        } else if (part.head() == "demotes-to") {
          if (demotions.size() > rules_.pieces.size())
            fail(part, fmt::format("'(demotes-to ...)' is given twice for the piece '{}'", piece.name));
          demotions.resize(rules_.pieces.size() + 1);
          demotions.back() = &part;
        } else if (part.head() != "promote") {
          piece.moves.push_back(move_rule(part));
        } else {
          if (promote) fail(part, fmt::format("'(promote ...)' is given twice for the piece '{}'", piece.name));
          promote = &part;
        }
      }
      rules_.pieces.push_back(std::move(piece));
      promotions.push_back(promote);
    }
    // Read once every piece is known: a piece may promote to one declared after it, and a rule may
    // name it.
    for (std::size_t i = 0; i < promotions.size(); ++i)
      if (promotions[i]) read_promotion(*promotions[i], rules_.pieces[i]);
    for (std::size_t i = 0; i < demotions.size(); ++i)
      if (demotions[i]) read_demotion(*demotions[i], rules_.pieces[i]);
    for (std::size_t i = 0; i < demotions.size(); ++i)  // once all are read: a chain may run either way
      if (demotions[i]) check_demotion_ends(*demotions[i], rules_.pieces[i]);
    read_hands();  // before the rules, which may take pieces from hands
    for (const auto& [piece, form] : core_rules) add_core_moves(*form, piece);
    for (const Node* form : forms("moves")) add_core_moves(*form, -1);
  }

  void check_tested_moves() const {
    int tested_moves = 0;
    for (const PieceType& piece : rules_.pieces)
      for (const MoveRule& move : piece.moves)
        if (!move.tests.empty() && ++tested_moves > kMaxTestedMoves)
          fail_at(move.pos, fmt::format("a game may have at most {} moves with cell tests", kMaxTestedMoves));
  }

  // (promote PIECE REGION): the piece becomes PIECE on the region, and its move ends there.
  void read_promotion(const Node& form, PieceType& piece) const {
    expect_at_most(form, 3);
    piece.promote_to =
        other_piece(form, piece, "promote", "name the piece it becomes, declared with its own (piece ...) form");
    piece.promote_region = region(argument(form, 2, "REGION"));
  }

  // (demotes-to PIECE): the type the piece goes to a hand as.
  void read_demotion(const Node& form, PieceType& piece) const {
    expect_at_most(form, 2);
    piece.demotes_to =
        other_piece(form, piece, "demote", "name the unpromoted piece it goes back to, or leave (demotes-to ...) out");
  }

  // The piece that the first argument of `form` names, which may not be `piece` itself: it would
  // `change` to itself.
  int other_piece(const Node& form, const PieceType& piece, std::string_view change, std::string hint) const {
    const Node& named = argument(form, 1, "PIECE");
    const int other = piece_named(named);
    if (rules_.pieces[static_cast<std::size_t>(other)].name == piece.name)
      fail(named, fmt::format("the piece '{}' would {} to itself", piece.name, change), std::move(hint));
    return other;
  }

  // A piece demotes to a type that stays as it is: Rules::base_piece takes one step.
  void check_demotion_ends(const Node& form, const PieceType& piece) const {
    const PieceType& base = rules_.pieces[static_cast<std::size_t>(piece.demotes_to)];
    if (base.demotes_to >= 0)
      fail(form.items[1],
           fmt::format("'{}' demotes in turn, to '{}'", base.name,
                       rules_.pieces[static_cast<std::size_t>(base.demotes_to)].name),
           fmt::format("name the type a captured '{}' goes to a hand as: (demotes-to {})", piece.name,
                       rules_.pieces[static_cast<std::size_t>(base.demotes_to)].name));
  }

  // (hands PIECE...): the types a hand holds, each a base type (one that does not demote).
  void read_hands() {
    for (const Node* form : forms("hands")) {
      if (form->items.size() < 2) fail(*form, "'(hands ...)' names no piece", usage("hands"));
      for (std::size_t i = 1; i < form->items.size(); ++i) {
        const int piece = piece_named(form->items[i]);
        const PieceType& type = rules_.pieces[static_cast<std::size_t>(piece)];
        if (rules_.hand_slot(piece) >= 0)
          fail(form->items[i], fmt::format("the piece '{}' is in (hands ...) twice", type.name));
        if (type.demotes_to >= 0)
          fail(form->items[i],
               fmt::format("'{}' demotes to '{}' when captured, so no hand holds it", type.name,
                           rules_.pieces[static_cast<std::size_t>(type.demotes_to)].name),
               fmt::format("name '{}' instead", rules_.pieces[static_cast<std::size_t>(type.demotes_to)].name));
        if (rules_.hands.size() == kMaxHandPieces)
          fail(form->items[i], fmt::format("a hand holds at most {} piece types", kMaxHandPieces));
        rules_.hands.push_back(piece);
      }
    }
  }

  // A core form that takes from or adds to hands needs (hands ...), and the piece it names in them.
  void check_hand(const Node& node, int piece) const {
    if (rules_.hands.empty())
      fail(node, fmt::format("'{}' needs hands, and this game has none", to_text(node)),
           "declare the piece types a player may hold: (hands PIECE...)");
    if (piece >= 0 && rules_.hand_slot(piece) < 0)
      fail(node, fmt::format("no hand holds the piece '{}'", rules_.pieces[static_cast<std::size_t>(piece)].name),
           "add it to (hands ...)");
  }

  int piece_index(std::string_view name) const { return lang::piece_index(rules_, name); }

  // A flanking drop flips what it closes, a plain one does not: one piece with both would make the
  // same move (the piece onto a cell) flip or not depending on which rule was meant.
  void check_flanking_drop(const PieceType& piece) const {
    const MoveRule* first = nullptr;
    for (const MoveRule& move : piece.moves) {
      if (move.kind != MoveKind::Drop) continue;
      if (!first) {
        first = &move;
        continue;
      }
      if (first->flanking[0].empty() && move.flanking[0].empty()) continue;
      fail_at(move.pos,
              fmt::format("the piece '{}' has a flanking drop and another drop (line {}); a piece that flips "
                          "what it closes has one drop rule",
                          piece.name, first->pos.line),
              "merge them into one drop, or give the other drop to a piece of its own");
    }
  }

  // The player named by a move's first (only PLAYER), or -1: the directions of a move are resolved
  // for its players alone (on a rhombus, a relative direction may point at a neighbour for one
  // player and not for the other).
  int move_owner(const Node& form, std::size_t first_option) const {
    for (std::size_t i = first_option; i < form.items.size(); ++i)
      if (form.items[i].head() == "only") return player_index(argument(form.items[i], 1, "PLAYER"));
    return -1;
  }

  MoveRule move_rule(const Node& node) {
    const Node& form = list_form(node, "for a move");
    const std::string kind(form.head());
    if (std::find(kMoveKinds.begin(), kMoveKinds.end(), kind) == kMoveKinds.end())
      fail(form.items.front(), fmt::format("unknown move '{}'", kind), suggest(kind, kPieceParts));
    if (kind == "drop") return drop_rule(form);
    if (kind == "jump") return jump_rule(form);
    MoveRule move;
    move.pos = form.pos;
    move.text = to_text(form);
    move.kind = kind == "slide" ? MoveKind::Slide : MoveKind::Step;
    const Node& what = argument(form, 1, kind == "leap" ? "OFFSETS" : "DIRECTIONS");
    const int owner = move_owner(form, 2);
    for (int p = 0; p < rules_.player_count(); ++p)
      if (owner < 0 || owner == p) move.offsets[p] = move_offsets(kind, what, p);
    bool saw_target = false;
    bool saw_only = false;
    const Node* capture = nullptr;
    std::vector<const Node*> test_forms;
    for (std::size_t i = 2; i < form.items.size(); ++i) {
      const Node& option = form.items[i];
      if (option.head() == "if") {
        test_forms.push_back(&option);
        move.tests.push_back(cell_test(option, kind));
      } else if (option.is_symbol("capture")) {
        if (move.capture) fail(option, "'capture' is given twice");
        move.capture = true;
        capture = &option;
      } else if (option.head() == "to") {
        if (saw_target) fail(option, "'(to ...)' is given twice");
        saw_target = true;
        move.target = target(option);
      } else if (option.head() == "only") {
        // A move of one player only, for games whose players do not move alike (troyka translate).
        if (saw_only) fail(option, "'(only ...)' is given twice");
        saw_only = true;
        expect_at_most(option, 2);
        move.offsets[static_cast<std::size_t>(1 - player_index(argument(option, 1, "PLAYER")))].clear();
      } else if (option.head() == "then") {
        if (move.shoots) fail(option, "'(then ...)' is given twice");
        read_shot(option, move);
      } else {
        fail(option, fmt::format("unexpected {} in a move", describe(option)), usage(kind));
      }
    }
    check_capture(move, form, capture);
    if (!test_forms.empty()) check_cell_tests(move, test_forms);
    return move;
  }

  // The offsets of a step, leap or slide for `player`: a leap's are given, the others' are directions.
  std::vector<Offset> move_offsets(std::string_view kind, const Node& what, int player) const {
    const Offset forward = rules_.players[player].forward;
    return kind == "leap" ? leap_offsets(what, forward) : directions(what, forward);
  }

  // (then (shoot MOVE)): the second part of a move, a step, leap or slide from the cell the piece
  // landed on to an empty cell, which is blocked from then on. `shoot` is the one second part so far;
  // `then` leaves room for others.
  void read_shot(const Node& then, MoveRule& move) const {
    expect_at_most(then, 2);
    const Node& second = list_form(argument(then, 1, "(shoot MOVE)"), "for the second part of a move");
    if (second.head() != "shoot")
      fail(second.items.front(), fmt::format("unknown second part of a move '{}'", second.head()),
           suggest(second.head(), {"shoot"}));
    expect_at_most(second, 2);
    const Node& shot = list_form(argument(second, 1, "MOVE"), "for a shot");
    const std::string kind(shot.head());
    if (kind != "step" && kind != "leap" && kind != "slide")
      fail(shot.items.front(),
           fmt::format("a shot is a step, leap or slide from the cell the piece landed on, not a '{}'", kind),
           usage("shoot"));
    const Node& what = argument(shot, 1, kind == "leap" ? "OFFSETS" : "DIRECTIONS");
    if (shot.items.size() > 2)
      fail(shot.items[2],
           fmt::format("unexpected {} in a shot: a shot lands on an empty cell and blocks it", describe(shot.items[2])),
           fmt::format("write the shot as ({} {}) alone", kind, kind == "leap" ? "OFFSETS" : "DIRECTIONS"));
    for (int p = 0; p < rules_.player_count(); ++p) move.shot_offsets[p] = move_offsets(kind, what, p);
    move.shoots = true;
    move.shot_kind = kind == "slide" ? MoveKind::Slide : MoveKind::Step;
  }

  // (jump DIRECTIONS [(over enemy)] [chain]): over the enemy piece next to the piece, to the empty
  // cell beyond, capturing it; with chain, the piece goes on jumping while it can.
  MoveRule jump_rule(const Node& form) const {
    MoveRule move;
    move.pos = form.pos;
    move.text = to_text(form);
    move.kind = MoveKind::JumpOver;
    move.target = Target::Empty;
    move.capture = true;
    if (rules_.cells() > kMaxJumpCells)
      fail(form.items.front(),
           fmt::format("jumps over pieces need a board of at most {} cells; this one has {}", kMaxJumpCells,
                       rules_.cells()),
           "a move records the pieces it jumps as a mask of the board's cells");
    const Node& what = argument(form, 1, "DIRECTIONS");
    for (int p = 0; p < rules_.player_count(); ++p) move.offsets[p] = directions(what, rules_.players[p].forward);
    bool saw_over = false;
    for (std::size_t i = 2; i < form.items.size(); ++i) {
      const Node& option = form.items[i];
      if (option.is_symbol("chain")) {
        if (move.chain) fail(option, "'chain' is given twice");
        move.chain = true;
      } else if (option.head() == "over") {
        if (saw_over) fail(option, "'(over ...)' is given twice");
        saw_over = true;
        expect_at_most(option, 2);
        const Node& over = argument(option, 1, "TARGET");
        if (!over.is_symbol("enemy"))
          fail(over, fmt::format("a jump goes over an enemy piece and captures it, not over {}", describe(over)),
               usage("over"));
      } else if (option.is_symbol("capture") || option.head() == "to") {
        fail(option, "a jump always captures the piece it goes over and lands on the empty cell beyond", usage("jump"));
      } else {
        fail(option, fmt::format("unexpected {} in a jump", describe(option)), usage("jump"));
      }
    }
    return move;
  }

  // (if (RIGHT FORWARD) TARGET): the cell at that offset from where the piece starts must be on the
  // board and hold what TARGET allows.
  CellTest cell_test(const Node& form, std::string_view kind) const {
    if (kind == "slide")
      fail(form, "a slide cannot test other cells: '(if ...)' goes on a step or a leap",
           "write the slide's cells out as leaps, one per distance, each with its tests");
    expect_at_most(form, 3);
    const Node& where = argument(form, 1, "(RIGHT FORWARD)");
    CellTest test;
    for (int p = 0; p < rules_.player_count(); ++p)
      test.offset[p] = relative_offset(where, rules_.players[p].forward, "if");
    if (test.offset[0] == Offset{})
      fail(where, "(0 0) is the cell the piece starts on, where the piece itself stands",
           "an offset names the cell to test as (RIGHT FORWARD) from there, e.g. (0 1) for the cell ahead");
    test.target = target_word(argument(form, 2, "TARGET"));
    return test;
  }

  // Cell tests are measured from the start of one jump: the move must go one way, and not test the
  // landing cell, which (to TARGET) already describes.
  void check_cell_tests(const MoveRule& move, const std::vector<const Node*>& test_forms) const {
    std::size_t ways = 0;
    for (const std::vector<Offset>& offsets : move.offsets) ways = std::max(ways, offsets.size());
    if (ways != 1)
      fail(*test_forms.front(),
           fmt::format("a move with cell tests must go one way, and this one has {} directions or offsets", ways),
           "give each direction a move of its own, with its own tests");
    for (std::size_t i = 0; i < move.tests.size(); ++i)
      for (int p = 0; p < rules_.player_count(); ++p)
        if (!move.offsets[p].empty() && move.tests[i].offset[p] == move.offsets[p].front())
          fail(test_forms[i]->items[1], "this cell test names the landing cell",
               "say what the landing cell may hold with (to TARGET)");
  }

  // (drop [(in REGION)] [(gravity DIRECTION)] [(flanking DIRECTIONS)]): onto an empty cell of the
  // region (all by default); with gravity, only onto a cell whose neighbour in that direction is
  // occupied or off the board; with flanking, only where it closes a line of enemy pieces.
  MoveRule drop_rule(const Node& form) const {
    MoveRule move;
    move.pos = form.pos;
    move.text = to_text(form);
    move.kind = MoveKind::Drop;
    move.region = whole_board();
    const Node* in = nullptr;
    const Node* gravity = nullptr;
    const Node* only = nullptr;
    const Node* flanking = nullptr;
    for (std::size_t i = 1; i < form.items.size(); ++i) {
      const Node& option = form.items[i];
      if (option.is_symbol("capture"))
        fail(option, "'capture' has no effect on a drop: a dropped piece lands on an empty cell", usage("drop"));
      if (option.head() == "to")
        fail(option, "a drop always lands on an empty cell; '(to ...)' does not apply to it", usage("drop"));
      if (option.head() == "only") {
        // A drop of one player only (troyka translate, for players whose drops differ).
        if (only) fail(option, "'(only ...)' is given twice");
        only = &option;
        expect_at_most(option, 2);
        continue;
      }
      if (option.head() == "then")
        fail(option, "a drop has no second part: '(then ...)' follows a step, leap or slide", usage("drop"));
      const bool known = option.head() == "in" || option.head() == "gravity" || option.head() == "flanking";
      if (!known) fail(option, fmt::format("unexpected {} in a drop", describe(option)), usage("drop"));
      const Node*& seen = option.head() == "in" ? in : option.head() == "gravity" ? gravity : flanking;
      if (seen) fail(option, fmt::format("'({} ...)' is given twice", option.head()));
      seen = &option;
      expect_at_most(option, 2);
    }
    if (in) move.region = region(argument(*in, 1, "REGION"));
    const int owner = move_owner(form, 1);
    if (gravity) {
      const Node& direction = argument(*gravity, 1, "DIRECTION");
      for (int p = 0; p < rules_.player_count(); ++p) {
        if (owner >= 0 && owner != p) continue;
        move.offsets[p] = directions(direction, rules_.players[p].forward);
        if (move.offsets[p].size() != 1)
          fail(direction, "gravity pulls one way: give a single direction such as s or backward", usage("gravity"));
      }
    }
    if (flanking) {
      const Node& lines = argument(*flanking, 1, "DIRECTIONS");
      for (int p = 0; p < rules_.player_count(); ++p)
        if (owner < 0 || owner == p) move.flanking[p] = directions(lines, rules_.players[p].forward);
    }
    if (only) {
      const std::size_t other = static_cast<std::size_t>(1 - player_index(argument(*only, 1, "PLAYER")));
      move.region[other].clear();
      move.offsets[other].clear();
    }
    return move;
  }

  PlayerRegion whole_board() const {
    CellList cells;
    for (int c = 0; c < rules_.cells(); ++c)
      if (!rules_.is_hole(c)) cells.push_back(c);
    return same_for_every_player(cells);
  }

  void check_capture(const MoveRule& move, const Node& form, const Node* capture) const {
    const bool may_land_on_piece = move.target != Target::Empty;
    if (may_land_on_piece && !move.capture)
      fail(form, "this move may land on a piece, but does not say what happens to it",
           "add 'capture' to remove the piece standing there");
    if (!may_land_on_piece && move.capture)
      fail(*capture, "'capture' has no effect on a move to empty cells",
           "add (to enemy) or (to not-friend) to let the move capture");
  }

  Target target(const Node& form) const {
    expect_at_most(form, 2);
    return target_word(argument(form, 1, "TARGET"));
  }

  Target target_word(const Node& node) const {
    const std::string word = name_argument(node, "a target");
    const auto it = std::find(kTargets.begin(), kTargets.end(), word);
    if (it == kTargets.end()) fail(node, fmt::format("unknown target '{}'", word), suggest(word, kTargets));
    return static_cast<Target>(it - kTargets.begin());
  }

  std::vector<Offset> directions(const Node& node, Offset forward) const {
    std::vector<Offset> result;
    if (node.is_list()) {
      if (node.items.empty()) fail(node, "the list of directions is empty");
      for (const Node& item : node.items) append_direction(item, forward, result);
    } else {
      append_direction(node, forward, result);
    }
    return result;
  }

  void append_direction(const Node& node, Offset forward, std::vector<Offset>& out) const {
    if (!node.is_symbol())
      fail(node, fmt::format("expected a direction, found {}", describe(node)), "for example forward or ne");
    const auto add = [&](Offset offset, const Node& at) {
      if (!is_neighbour(offset)) fail_not_neighbour(at, offset);
      if (std::find(out.begin(), out.end(), offset) != out.end())
        fail(at, fmt::format("the direction '{}' is listed twice (for this player)", at.text));
      out.push_back(offset);
    };
    for (const auto& [name, offset] : kAbsoluteDirections)
      if (name == node.text) return add(offset, node);
    for (const auto& [name, offset] : kRelativeDirections)
      if (name == node.text) return add(orient(offset, forward), node);
    if (const std::optional<std::vector<Offset>> group = group_offsets(node)) {
      for (const Offset& offset : *group) add(offset, node);
      return;
    }
    if (rules_.find_link_direction(node.text))
      fail(node, fmt::format("'{}' is a direction of the board's links, which keyword moves do not take", node.text),
           fmt::format("write the move in core forms, e.g. (moves (go {}) empty)", node.text));
    fail(node, fmt::format("unknown direction '{}'", node.text), suggest(node.text, direction_names()));
  }

  // The board directions of the group `node` names, or nothing when it names no group.
  std::optional<std::vector<Offset>> group_offsets(const Node& node) const {
    for (const auto& [name, members] : kDirectionGroups) {
      if (name != node.text) continue;
      if (name == "diagonal" && rules_.shape == BoardShape::Rhombus)
        fail(node, "'diagonal' is not a direction group on a rhombus board: ne and sw lead to cells that do not touch",
             "the rhombus's diagonal neighbours are nw and se: write (nw se)");
      // On a rhombus, all-directions is the six neighbours.
      std::vector<Offset> offsets;
      for (const auto& member : members)
        for (const auto& [absolute, offset] : kAbsoluteDirections)
          if (absolute == member && is_neighbour(offset)) offsets.push_back(offset);
      return offsets;
    }
    return std::nullopt;
  }

  // Whether a step by `offset` joins touching cells: on a rhombus, (1, 1) and (-1, -1) do not.
  bool is_neighbour(Offset offset) const {
    return rules_.shape == BoardShape::Rectangle || std::abs(offset.dx + offset.dy) <= 1;
  }

  [[noreturn]] void fail_not_neighbour(const Node& at, Offset offset) const {
    const std::string absolute = offset.dx > 0 ? "ne" : "sw";
    fail(at,
         fmt::format("'{}' is not a direction on a rhombus board: {}leads to a cell that does not touch this one",
                     at.text, at.text == absolute ? "it " : fmt::format("here it points {}, which ", absolute)),
         "a rhombus cell's six neighbours lie n, s, e, w, nw and se (all-directions names all six)");
  }

  // (RIGHT FORWARD), as an absolute offset for a player facing `forward`.
  Offset relative_offset(const Node& item, Offset forward, std::string_view form) const {
    if (!item.is_list() || item.items.size() != 2)
      fail(item, fmt::format("expected an offset '(RIGHT FORWARD)', found {}", describe(item)), usage(form));
    const std::string what = fmt::format("a{} offset", form == "if" ? " cell test's" : " leap");
    const int right = bounded(item.items[0], -kMaxBoardSide, kMaxBoardSide, what);
    const int ahead = bounded(item.items[1], -kMaxBoardSide, kMaxBoardSide, what);
    return orient({right, ahead}, forward);
  }

  std::vector<Offset> leap_offsets(const Node& node, Offset forward) const {
    const auto pair = [&](const Node& item) {
      const Offset offset = relative_offset(item, forward, "leap");
      if (offset == Offset{}) fail(item, "a leap of (0 0) does not move");
      return offset;
    };
    if (!node.is_list() || node.items.empty())
      fail(node, fmt::format("expected a list of offsets, found {}", describe(node)), usage("leap"));
    if (!node.items.front().is_list()) return {pair(node)};  // a single offset such as (1 2)
    std::vector<Offset> result;
    for (const Node& item : node.items) {
      const Offset offset = pair(item);
      if (std::find(result.begin(), result.end(), offset) != result.end()) fail(item, "this offset is listed twice");
      result.push_back(offset);
    }
    return result;
  }

  // ---- rules in core forms (docs/core-design.md §1.2) ----

  // A (moves ...) rule of a rule file: read now, and compiled with the keyword forms once the whole
  // file is read (compile_written_rules).
  void add_core_moves(const Node& form, int piece) {
    written_.push_back(core_rule(form, piece));
    written_forms_.push_back(&form);
    if (nested_each_direction(written_.back().expr) > core::kMaxNestedEachDirection)
      fail(form, fmt::format("each-direction is nested more than {} deep in this rule", core::kMaxNestedEachDirection),
           "the general back end keeps one mark per level of each-direction");
  }

  static int nested_each_direction(const core::Expr& expr) {
    int deepest = 0;
    for (const core::Expr& item : expr.items) deepest = std::max(deepest, nested_each_direction(item));
    return deepest + (expr.op == core::Op::EachDirection ? 1 : 0);
  }

  // Every rule through the core, the file's (moves ...) rules after its keyword forms: those of a
  // shape the recogniser compiles (lang/recognise.cpp) run on the fast tables, the others on the
  // general back end (compile_through_core).
  void compile_written_rules() {
    compile_through_core(rules_, written_);
    // A swap written in core forms needs what (swap-rule) needs.
    for (std::size_t i = 0; i < written_.size(); ++i)
      if (written_[i].label == "swap") check_swap(*written_forms_[i]);
  }

  // The index of a (moves ...) form's first expression, after its label and rule options.
  static std::size_t body_start(const Node& form) {
    std::size_t next = 1;
    while (next < form.items.size() && core::is_rule_option(form.items[next])) ++next;
    return next;
  }

  // (moves ["LABEL"] [fallback] [(when CONDITION)] [(only PLAYER)] EXPR...): a piece rule for
  // `piece`, or a game rule when it is -1.
  core::Rule core_rule(const Node& form, int piece) {
    core::Rule rule;
    rule.scope = piece >= 0 ? core::Rule::Scope::Piece : core::Rule::Scope::Game;
    rule.piece = piece;
    rule.origin = to_text(form);
    rule.pos = form.pos;
    rule.written = true;
    const std::size_t body = body_start(form);
    for (std::size_t i = 1; i < body; ++i) rule_option(form.items[i], rule);
    if (body == form.items.size()) fail(form, "'(moves ...)' holds no move", core_usage("moves"));
    rule_players_ = rule.only_player >= 0 ? std::vector<int>{rule.only_player} : every_player();
    marks_.clear();
    rule.expr = core_sequence(form, body);
    if (rule.scope == core::Rule::Scope::Game) rule.piece = entering_piece(rule.expr);
    check_core_rule(form, rule);
    return rule;
  }

  // A game rule that starts by bringing in a piece, on each of its ways, belongs to that piece (a drop).
  static int entering_piece(const core::Expr& expr) {
    if (expr.op == core::Op::Seq) return entering_piece(expr.items.front());
    if (expr.op == core::Op::New || expr.op == core::Op::FromHand) return expr.piece;
    if (expr.op != core::Op::Or) return -1;
    const int piece = entering_piece(expr.items.front());
    for (const core::Expr& way : expr.items)
      if (entering_piece(way) != piece) return -1;
    return piece;
  }

  // One of the items body_start() skips.
  void rule_option(const Node& node, core::Rule& rule) const {
    if (node.kind == Node::Kind::String) {
      if (!rule.label.empty()) fail(node, "a rule has one label; this is a second");
      rule.label = node.text;
    } else if (node.is_symbol("fallback")) {
      if (rule.fallback) fail(node, "'fallback' is given twice");
      rule.fallback = true;
    } else if (node.head() == "only") {
      if (rule.only_player >= 0) fail(node, "'(only ...)' is given twice");
      expect_at_most(node, 2);
      rule.only_player = player_index(argument(node, 1, "PLAYER"));
    } else if (node.head() == "phase") {
      if (rule.phase >= 0) fail(node, "'(phase ...)' is given twice");
      expect_at_most(node, 2);
      rule.phase = phase_named(argument(node, 1, "NAME"));
    } else if (node.head() == "priority") {
      if (rule.priority != 0) fail(node, "'(priority ...)' is given twice");
      expect_at_most(node, 2);
      rule.priority = bounded(argument(node, 1, "PRIORITY"), 0, 255, "the priority");
    } else if (node.head() == "legal") {
      if (rule.legal) fail(node, "'(legal ...)' is given twice", "join the conditions in one: (legal (and C...))");
      rule.legal = rule_legality(node);
    } else {
      if (rule.when) fail(node, "'(when ...)' is given twice");
      expect_at_most(node, 2);
      rule.when = rule_condition(argument(node, 1, "CONDITION"));
    }
  }

  // A rule's (legal CONDITION), asked after each of its moves. Unlike the game's, it may ask
  // no-legal-moves of the player to move next: the look-ahead is one move deep, since the moves it
  // lists are tested by the game's (legal ...) alone, not by their rules' own.
  EndRule rule_legality(const Node& form) const {
    expect_at_most(form, 2);
    const Node& node = argument(form, 1, "CONDITION");
    EndRule rule;
    rule.pos = node.pos;
    rule.text = to_text(form);
    rule.condition_text = to_text(node);
    condition(node, rule);
    if (const EndRule* part = part_not_of_a_position(rule, true))
      fail_at(part->pos, fmt::format("a rule's '(legal ...)' cannot test {}", part->condition_text),
              "a move's legality is asked of the position after it and of the moves that follow it, not of plies "
              "counted before it");
    return rule;
  }

  // A rule for a decision past the longest turn would never apply.
  void check_decision_in_turn(const core::Rule& rule) const {
    const int most = std::max(rules_.turn_actions, rules_.first_turn_actions);
    if (!rule.when || rule.when->kind != core::Condition::Kind::DecisionIs || rule.when->value <= most) return;
    fail_at(rule.pos,
            fmt::format("a turn of this game is {} decision{}, so (= decision {}) never holds", most,
                        most == 1 ? "" : "s", rule.when->value),
            "give a turn more decisions with (turn (actions N))");
  }

  core::Condition rule_condition(const Node& node) const {
    if (node.head() == "can-move" && node.items.size() == 2 && node.items[1].is_symbol("others"))
      return {core::Condition::Kind::OthersCanMove, 0};
    if (node.head() == "=" && node.items.size() == 3 && node.items[1].is_symbol("ply"))
      return {core::Condition::Kind::PlyIs, bounded(node.items[2], 0, 1000000, "the ply")};
    if (node.head() == "=" && node.items.size() == 3 && node.items[1].is_symbol("decision"))
      return {core::Condition::Kind::DecisionIs, 0, -1, Comparison::Equal,
              bounded(node.items[2], 1, kMaxTurnActions, "the decision")};
    if (std::find(kComparisons.begin(), kComparisons.end(), node.head()) != kComparisons.end()) {
      EndRule compared;
      comparison(node, compared);
      if (compared.kind == EndKind::CountIn)
        fail(node.items[1], "a rule's (when ...) compares the player's pieces or a counter, not counts per cell",
             "test a cell's count inside the rule instead: (count OP N)");
      return {core::Condition::Kind::Compare, 0, compared.counter, compared.comparison, compared.value};
    }
    fail(node, fmt::format("unknown condition {}", describe(node)), usage("when"));
  }

  static std::string core_usage(std::string_view form) {
    const auto it = kCoreUsage.find(form);
    return it == kCoreUsage.end() ? std::string() : "usage: " + it->second;
  }

  // The items of `form` from `first` on, one after the other.
  core::Expr core_sequence(const Node& form, std::size_t first) {
    if (first + 1 == form.items.size()) return core_expr(form.items[first]);
    core::Expr sequence;
    sequence.op = core::Op::Seq;
    for (std::size_t i = first; i < form.items.size(); ++i) sequence.items.push_back(core_expr(form.items[i]));
    return sequence;
  }

  core::Expr core_expr(const Node& node) {
    if (node.is_symbol()) {
      core::Expr word = core_word(node);
      if (word.op == core::Op::LastFrom || word.op == core::Op::LastTo) word.slot = last_move_slot(node, word.op);
      return word;
    }
    const Node& form = list_form(node, "in a move");
    core::Expr expr;
    expr.op = core_op(form.items.front());
    if (!kCoreUsage.count(form.head()))
      fail(form, fmt::format("'{}' is a word of its own: write it without parentheses", form.head()));
    core_arguments(form, expr);
    return expr;
  }

  core::Expr core_word(const Node& node) const {
    core::Expr expr;
    expr.op = core_op(node);
    if (expr.op == core::Op::FromHand) check_hand(node, -1);
    const bool also_a_word = expr.op == core::Op::Capture || expr.op == core::Op::FromHand;
    if (kCoreUsage.count(node.text) && !also_a_word)
      fail(node, fmt::format("'{}' opens a form: write it in parentheses", node.text), core_usage(node.text));
    return expr;
  }

  // The register the interpreter keeps for the test last-from or last-to, made at its first use.
  int last_move_slot(const Node& node, core::Op op) {
    const int slot = last_move_register(rules_, op == core::Op::LastFrom ? LastMove::From : LastMove::To);
    if (slot < 0)
      fail(node, fmt::format("'{}' needs a register of its own, and the game has {} already", node.text, kMaxRegisters),
           fmt::format("a game has at most {} registers, counting those last-from and last-to keep", kMaxRegisters));
    return slot;
  }

  // The core form or word `node` names.
  core::Op core_op(const Node& node) const {
    std::vector<std::string> words;
    for (int op = 0; op < core::kOps; ++op) {
      words.emplace_back(core::keyword(static_cast<core::Op>(op)));
      if (words.back() == node.text) return static_cast<core::Op>(op);
    }
    fail(node, fmt::format("unknown core form '{}'", node.text), suggest(node.text, words));
  }

  // What follows a core form's keyword, by the form.
  void core_arguments(const Node& form, core::Expr& expr) {
    using core::Op;
    switch (expr.op) {
      case Op::Seq:
      case Op::Or: core_items(form, form.items.size(), expr); break;
      case Op::Opt:
      case Op::IfCan: core_items(form, 1, expr); break;
      case Op::Not: core_tests(form, 1, expr); break;
      case Op::And: core_tests(form, form.items.size(), expr); break;
      case Op::Can:
      case Op::Cannot:
        expect_core_items(form, 1, form.items.size());
        expr.items.push_back(core_sequence(form, 1));
        break;
      case Op::Repeat: repeat_form(form, expr); break;
      case Op::Times: times_form(form, expr); break;
      case Op::While:
      case Op::If:
        expect_core_items(form, 2, expr.op == Op::If ? 3 : 2);
        expr.items.push_back(core_test(form.items[1]));
        for (std::size_t i = 2; i < form.items.size(); ++i) expr.items.push_back(core_expr(form.items[i]));
        if (expr.op == Op::While) check_repetition_ends(form, expr.items[1]);
        break;
      case Op::AnyDirection:
      case Op::EachDirection: over_directions_form(form, expr); break;
      case Op::Add:
      case Op::Set:
        expect_core_items(form, 2, 2);
        expr.counter = counter_named(form.items[1]);
        expr.amount = bounded(form.items[2], -kMaxCounterValue, kMaxCounterValue,
                              expr.op == Op::Add ? "the amount added" : "the value set");
        break;
      case Op::Attacked: expect_core_items(form, 0, 0); break;
      case Op::CaptureSurrounded:
      case Op::HasLiberty:
        expect_core_items(form, 1, 1);
        expr.directions = core_directions(form.items[1]);
        break;
      case Op::FromHand:  // (from-hand) is the word from-hand: any type held
        expect_core_items(form, 0, 1);
        if (form.items.size() == 2) expr.piece = piece_named(form.items[1]);
        check_hand(form, expr.piece);
        break;
      case Op::Attr:
      case Op::SetAttr:
      case Op::ClearAttr:
        expect_core_items(form, 1, 1);
        expr.slot = attribute_named(form.items[1]);
        break;
      case Op::AtRegister:
      case Op::Remember:
        expect_core_items(form, 1, 1);
        expr.slot = register_named(form.items[1]);
        break;
      case Op::Mark:
      case Op::Back:
      case Op::Relocate: mark_form(form, expr); break;
      case Op::Rotate: rotate_form(form, expr); break;
      case Op::TakeCount:
        expect_counts(form);
        mark_form(form, expr);
        break;
      case Op::Sow:
        expect_counts(form);
        expect_core_items(form, 1, 1);
        expr.slot = track_named(form.items[1]);
        break;
      case Op::CountIs:
        expect_counts(form);
        expect_core_items(form, 2, 2);
        expr.comparison = comparison_named(form.items[1], core_usage("count"));
        expr.amount = bounded(form.items[2], 0, kMaxCellCount, "the count compared with");
        break;
      default: core_argument(form, expr);
    }
  }

  // A form of one argument that is not an expression: a direction, a piece, a region, a word.
  void core_argument(const Node& form, core::Expr& expr) const {
    using core::Op;
    expect_core_items(form, 1, 1);
    const Node& argument = form.items[1];
    switch (expr.op) {
      case Op::Is:
      case Op::New:
      case Op::Become: expr.piece = piece_named(argument); break;
      case Op::Capture:
        if (!argument.is_symbol("to-hand"))
          fail(argument, fmt::format("expected 'to-hand', found {}", describe(argument)), core_usage("capture"));
        check_hand(form, -1);
        expr.op = Op::CaptureToHand;
        break;
      case Op::In:
      case Op::Enter: expr.region = core_region(argument); break;
      case Op::Go:
        if (argument.is_symbol() && std::find(bound_.begin(), bound_.end(), argument.text) != bound_.end())
          expr.variable = argument.text;
        else
          expr.directions = core_directions(argument);
        break;
      case Op::AtOrigin:
        if (!argument.is_symbol("origin"))
          fail(argument, fmt::format("expected 'origin', found {}", describe(argument)), core_usage("at"));
        break;
      default:
        if (!argument.is_symbol("mirror"))
          fail(argument, fmt::format("expected 'mirror', found {}", describe(argument)), core_usage("swap-pieces"));
    }
  }

  // (rotate REGION clockwise|anticlockwise): the region is a square of cells, a quarter turn of
  // which is a permutation of them, on a board whose cells are squares.
  void rotate_form(const Node& form, core::Expr& expr) const {
    expect_core_items(form, 2, 2);
    if (rules_.shape != BoardShape::Rectangle || rules_.points)
      fail(form, "(rotate ...) turns a square of cells, and this board's cells are not squares",
           "rotate on a (board (rectangle WIDTH HEIGHT))");
    const Node& sense = form.items[2];
    if (!sense.is_symbol("clockwise") && !sense.is_symbol("anticlockwise"))
      fail(sense, fmt::format("expected 'clockwise' or 'anticlockwise', found {}", describe(sense)),
           core_usage("rotate"));
    expr.amount = sense.is_symbol("clockwise") ? 1 : -1;
    expr.region = core_region(form.items[1]);
    if (expr.region.kind == core::Region::Kind::Cells && form.items[1].is_symbol()) expr.variable = form.items[1].text;
    const CellList& cells = expr.region.cells;
    // In increasing order, the first cell is the square's lower left corner, the last its upper right.
    const int side = cells.empty() ? 0 : cells.back() % rules_.width - cells.front() % rules_.width + 1;
    const bool square = expr.region.kind == core::Region::Kind::Cells && side >= 2 &&
                        side * side == static_cast<int>(cells.size()) &&
                        std::adjacent_find(cells.begin(), cells.end()) == cells.end() &&
                        std::all_of(cells.begin(), cells.end(), [&](int cell) {
                          const int dx = cell % rules_.width - cells.front() % rules_.width;
                          const int dy = cell / rules_.width - cells.front() / rules_.width;
                          return dx >= 0 && dx < side && dy >= 0 && dy < side;
                        });
    if (!square)
      fail(form.items[1],
           fmt::format("(rotate ...) turns a square of cells, and {} is not one", describe(form.items[1])),
           "name the cells of a block of N columns and N rows, N from 2, e.g. (cells a1 b1 a2 b2)");
  }

  // (mark NAME) names a cell for a later (relocate NAME) or (back NAME) of the same rule.
  void mark_form(const Node& form, core::Expr& expr) {
    expect_core_items(form, 1, 1);
    expr.variable = name_argument(form.items[1], "a name for the mark");
    const bool known = std::find(marks_.begin(), marks_.end(), expr.variable) != marks_.end();
    if (expr.op != core::Op::Mark && !known)
      fail(form.items[1],
           fmt::format("no (mark {}) comes before this ({} {})", expr.variable, core::keyword(expr.op), expr.variable),
           expr.op == core::Op::Back ? "mark the cell to come back to first, earlier in the rule: (mark NAME)"
           : expr.op == core::Op::Relocate
               ? "mark the cell the piece goes to first, earlier in the rule: (mark NAME)"
               : "mark the cell whose count is taken first, earlier in the rule: (mark NAME)");
    if (expr.op == core::Op::Mark && !known) {
      if (marks_.size() == core::kMaxNamedMarks)
        fail(form, fmt::format("a rule names at most {} marks", core::kMaxNamedMarks),
             "the general back end keeps that many named cells in a run");
      marks_.push_back(expr.variable);
    }
  }

  // One to `most` expressions after the keyword; with core_tests, tests.
  void core_items(const Node& form, std::size_t most, core::Expr& expr) {
    expect_core_items(form, 1, most);
    for (std::size_t i = 1; i < form.items.size(); ++i) expr.items.push_back(core_expr(form.items[i]));
  }
  void core_tests(const Node& form, std::size_t most, core::Expr& expr) {
    expect_core_items(form, 1, most);
    for (std::size_t i = 1; i < form.items.size(); ++i) expr.items.push_back(core_test(form.items[i]));
  }

  core::Expr core_test(const Node& node) {
    core::Expr test = core_expr(node);
    if (!core::is_test(test.op))
      fail(node, fmt::format("expected a test here, such as empty or (can ...), found {}", describe(node)));
    return test;
  }

  void expect_core_items(const Node& form, std::size_t least, std::size_t most) const {
    const std::size_t count = form.items.size() - 1;
    const auto parts = [](std::size_t n) { return fmt::format("{} part{}", n, n == 1 ? "" : "s"); };
    if (count < least)
      fail(form,
           fmt::format("'({} ...)' has {} after '{}' but needs {}{}", form.head(), parts(count), form.head(),
                       least == most ? "" : "at least ", least),
           core_usage(form.head()));
    if (count > most)
      fail(form.items[most + 1],
           fmt::format("'({} ...)' takes {} after '{}'; {} is one too many", form.head(), parts(most), form.head(),
                       describe(form.items[most + 1])),
           core_usage(form.head()));
  }

  // (repeat EXPR [(at-least N)] [(at-most N)] [maximal])
  void repeat_form(const Node& form, core::Expr& expr) {
    expect_core_items(form, 1, 4);
    expr.items.push_back(core_expr(form.items[1]));
    for (std::size_t i = 2; i < form.items.size(); ++i) {
      const Node& option = form.items[i];
      const bool least = option.head() == "at-least";
      if (option.is_symbol("maximal")) {
        if (expr.maximal) fail(option, "'maximal' is given twice");
        expr.maximal = true;
      } else if (least || option.head() == "at-most") {
        int& bound = least ? expr.at_least : expr.at_most;
        if (bound != (least ? 0 : -1)) fail(option, fmt::format("'({} ...)' is given twice", option.head()));
        if (option.items.size() != 2)
          fail(option, fmt::format("expected '({} N)'", option.head()), core_usage("repeat"));
        bound = bounded(option.items[1], 0, kMaxRepeatBound, "a repetition's bound");
      } else {
        fail(option, fmt::format("unexpected {} in '(repeat ...)'", describe(option)), core_usage("repeat"));
      }
    }
    if (expr.at_most >= 0 && expr.at_least > expr.at_most)
      fail(form,
           fmt::format("this repetition needs at least {} passes but allows at most {}", expr.at_least, expr.at_most));
    if (expr.at_most < 0) check_repetition_ends(form, expr.items.front());
  }

  // (times N EXPR) or (times (line-pieces DIRECTION) EXPR): a fixed number of passes, or as many
  // as pieces stand on a line; the back end keeps one count per level of nested line counts.
  void times_form(const Node& form, core::Expr& expr) {
    expect_core_items(form, 2, 2);
    const Node& quantity = form.items[1];
    const bool counted = quantity.head() == "line-pieces";
    if (counted) {
      if (quantity.items.size() != 2)
        fail(quantity, "expected '(line-pieces DIRECTION)' with one direction", core_usage("times"));
      const Node& direction = quantity.items[1];
      if (direction.is_symbol() && std::find(bound_.begin(), bound_.end(), direction.text) != bound_.end())
        expr.variable = direction.text;
      else
        expr.directions = core_directions(direction);
      if (expr.directions.size() > 1)
        fail(
            direction,
            fmt::format("a line runs one way, and {} names {} directions", describe(direction), expr.directions.size()),
            "count along one direction, or a bound name: (any-direction d all-directions (times (line-pieces d) ...))");
      if (line_counts_ == core::kMaxNestedLineCounts)
        fail(form, fmt::format("line counts are nested more than {} deep", core::kMaxNestedLineCounts),
             "the general back end keeps that many counts in a run");
    } else if (quantity.is_list() && !is_arithmetic(quantity.head())) {
      fail(quantity, fmt::format("expected a number or '(line-pieces DIRECTION)', found {}", describe(quantity)),
           core_usage("times"));
    } else {
      const std::int64_t passes = integer(quantity);
      if (passes < 1 || passes > kMaxRepeatBound)
        fail(quantity,
             fmt::format("the number of passes must be between 1 and {}, but it is {}", kMaxRepeatBound, passes),
             "a part done no times is left out; for a count the board decides, write (line-pieces DIRECTION)");
      expr.amount = static_cast<int>(passes);
    }
    line_counts_ += counted;
    expr.items.push_back(core_expr(form.items[2]));
    line_counts_ -= counted;
  }

  // §1.5: every pass of a repetition with no upper bound goes on along one direction, so the
  // board's edge ends it, or captures a piece not captured yet, so the pieces on the board do.
  void check_repetition_ends(const Node& form, const core::Expr& pass) const {
    if (core::repetition_ends(pass)) return;
    fail(form, "this repetition may never end",
         "every pass of a repetition without (at-most N) must go on along one direction, which the board's edge "
         "stops, or capture a piece right after testing (not captured); or add (at-most N)");
  }

  // (any-direction NAME DIRECTIONS EXPR) and (each-direction ...): NAME is bound inside EXPR.
  void over_directions_form(const Node& form, core::Expr& expr) {
    expect_core_items(form, 3, 3);
    expr.variable = name_argument(form.items[1], "a name for the direction");
    expr.directions = core_directions(form.items[2]);
    bound_.push_back(expr.variable);
    expr.items.push_back(core_expr(form.items[3]));
    bound_.pop_back();
  }

  // A direction, or a list of them: names, groups and leaps (RIGHT FORWARD), as written.
  std::vector<core::Direction> core_directions(const Node& node) const {
    std::vector<core::Direction> result;
    const bool list =
        node.is_list() && !node.items.empty() &&
        (node.items.front().is_list() || (node.items.front().is_symbol() && !declared_line(node.items.front().text)));
    if (node.is_list() && node.items.empty()) fail(node, "the list of directions is empty");
    if (list)
      for (const Node& item : node.items) append_core_direction(item, result);
    else
      append_core_direction(node, result);
    return result;
  }

  void append_core_direction(const Node& node, std::vector<core::Direction>& out) const {
    const auto add = [&](core::Direction direction) {
      if (std::find(out.begin(), out.end(), direction) != out.end())
        fail(node, fmt::format("the direction {} is listed twice", describe(node)));
      out.push_back(direction);
    };
    if (node.is_list()) return add({core::Direction::Frame::Leap, leap(node)});
    if (!node.is_symbol())
      fail(node, fmt::format("expected a direction, found {}", describe(node)), "for example forward or ne");
    for (const auto& [name, offset] : kAbsoluteDirections)
      if (name == node.text) {
        if (!is_neighbour(offset)) fail_not_neighbour(node, offset);
        return add({core::Direction::Frame::Absolute, offset});
      }
    for (const auto& [name, offset] : kRelativeDirections)
      if (name == node.text) {
        for (const int player : rule_players_)
          if (!is_neighbour(orient(offset, rules_.players[player].forward)))
            fail_not_neighbour(node, orient(offset, rules_.players[player].forward));
        return add({core::Direction::Frame::Relative, offset});
      }
    if (const std::optional<std::vector<Offset>> group = group_offsets(node)) {
      for (const Offset& offset : *group) add({core::Direction::Frame::Absolute, offset});
      return;
    }
    if (const Offset* link = rules_.find_link_direction(node.text))
      return add({core::Direction::Frame::Absolute, *link});
    fail(node, fmt::format("unknown direction '{}'", node.text), suggest(node.text, direction_names()));
  }

  // (RIGHT FORWARD) as written, in the mover's frame.
  Offset leap(const Node& node) const {
    if (node.items.size() != 2)
      fail(node, fmt::format("expected a leap '(RIGHT FORWARD)', found {}", describe(node)), core_usage("go"));
    const Offset offset{bounded(node.items[0], -kMaxBoardSide, kMaxBoardSide, "a leap offset"),
                        bounded(node.items[1], -kMaxBoardSide, kMaxBoardSide, "a leap offset")};
    if (offset == Offset{}) fail(node, "a leap of (0 0) does not move");
    return offset;
  }

  // A region as the core holds it: home or far rows, else cells that are the same for every player
  // of the rule.
  core::Region core_region(const Node& node) const {
    const bool far = node.is_symbol("far-row") || node.head() == "far-rows";
    if (node.is_symbol("home-row") || node.is_symbol("far-row"))
      return {far ? core::Region::Kind::FarRows : core::Region::Kind::HomeRows, 1, {}};
    if (node.head() == "home-rows" || node.head() == "far-rows") {
      expect_at_most(node, 2);
      const int rows = bounded(argument(node, 1, "N"), 1, std::max(rules_.width, rules_.height), "the number of rows");
      return {far ? core::Region::Kind::FarRows : core::Region::Kind::HomeRows, rows, {}};
    }
    PlayerRegion cells = region(node);
    for (CellList& each : cells) std::sort(each.begin(), each.end());
    const CellList& lead = cells[static_cast<std::size_t>(rule_players_.front())];
    for (const int player : rule_players_)
      if (cells[static_cast<std::size_t>(player)] != lead)
        fail(node, "this region holds different cells for each player, and a core rule names one region for all",
             "write it as (home-rows N) or (far-rows N), or give each player a rule of its own with (only PLAYER)");
    return {core::Region::Kind::Cells, 0, lead};
  }

  // §1.5: the mistakes a whole rule can make.
  void check_core_rule(const Node& form, const core::Rule& rule) const {
    if (most_lands(rule.expr) > 1)
      fail(form, "this rule can put its piece down twice: 'land' comes twice on one way through it",
           "a carried piece lands once, with 'land' or at the end of the rule");
    bool entered = false;
    if (rule.scope == core::Rule::Scope::Game)
      if (const core::Expr* first = before_enter(rule.expr, entered))
        fail(form,
             fmt::format("a game-level rule starts at no cell, and {} needs one", core::expr_text(rules_, *first)),
             "choose the cell first with (enter REGION), as a drop does: (moves (new PIECE) (enter all) empty)");
    const bool moves_piece = rule.scope == core::Rule::Scope::Piece;
    if (!core::always(rule.expr, [&](const core::Expr& part) { return changes_position(part.op, moves_piece); }))
      fail(form,
           "this rule can end without changing anything: on some way through it no piece moves, enters or "
           "is captured",
           "every move must change the position; look at the rule's (opt ...), (or ...) and (repeat ...) parts");
  }

  static bool changes_position(core::Op op, bool moves_piece) {
    using core::Op;
    switch (op) {
      case Op::Go:
      case Op::Enter: return moves_piece;  // a piece that flies, e.g. (enter all) empty (not (at origin))
      case Op::New:
      case Op::FromHand:
      case Op::Capture:
      case Op::CaptureToHand:
      case Op::Block:
      case Op::Become:
      case Op::Convert:
      case Op::Pass:
      case Op::SwapPiecesMirror:
      case Op::Exit:
      case Op::Add:
      case Op::Set:
      case Op::Relocate:
      case Op::SetAttr:
      case Op::ClearAttr:
      case Op::Remember:
      case Op::Rotate: return true;
      case Op::Sow:
      case Op::TakeCount: return true;
      default: return false;
    }
  }

  // The most `land`s on one way through `expr`; an unbounded repetition of one counts as two.
  static int most_lands(const core::Expr& expr) {
    using core::Op;
    if (expr.op == Op::Land) return 1;
    int most = 0, sum = 0;
    for (const core::Expr& item : expr.items) {
      const int lands = most_lands(item);
      most = std::max(most, lands);
      sum += lands;
    }
    if (expr.op == Op::Seq) return sum;
    if (expr.op == Op::Repeat && most > 0 && expr.at_most != 1) return 2;
    if (expr.op == Op::Times && most > 0 && expr.amount != 1) return 2;  // a line's count may be over 1
    return most;
  }

  // In a game rule, the first expression that needs a cell before (enter REGION) chose one, or null;
  // `entered` says whether one was chosen on every way so far.
  static const core::Expr* before_enter(const core::Expr& expr, bool& entered) {
    using core::Op;
    switch (expr.op) {
      case Op::Enter: entered = true; return nullptr;
      case Op::New:
      case Op::FromHand:
      case Op::Pass:
      case Op::Again:
      case Op::SwapPiecesMirror:
      case Op::Add:
      case Op::Set:
      case Op::Rotate: return nullptr;
      case Op::Seq:
        for (const core::Expr& item : expr.items)
          if (const core::Expr* first = before_enter(item, entered)) return first;
        return nullptr;
      case Op::Or: {
        bool every = true;
        for (const core::Expr& item : expr.items) {
          bool each = entered;
          if (const core::Expr* first = before_enter(item, each)) return first;
          every = every && each;
        }
        entered = every;
        return nullptr;
      }
      default: return entered ? nullptr : &expr;
    }
  }

  // ---- setup ----

  void read_setup() {
    const Node& form = *forms("setup").front();
    if (rules_.keeps_counts && rules_.pieces.size() > kMaxCountPieceTypes)
      fail_at(rules_.pieces[kMaxCountPieceTypes].pos,
              fmt::format("a game that keeps counts per cell has at most {} piece types", kMaxCountPieceTypes),
              "the counts are kept where the other types would be: merge piece types that move alike");
    std::vector<const Node*> placed_by(static_cast<std::size_t>(rules_.cells()), nullptr);
    std::vector<int> placed_for(static_cast<std::size_t>(rules_.cells()), -1);
    for (std::size_t i = 1; i < form.items.size(); ++i) {
      const Node& place = form.items[i];
      if (place.head() == "in-hand") {
        read_in_hand(place);
        continue;
      }
      if (place.head() == "count") continue;  // read_counts
      if (place.head() != "place")
        fail(place,
             fmt::format("expected '(place ...)', '(in-hand ...)' or '(count ...)' in the setup, found {}",
                         describe(place)),
             usage("place"));
      const PlayerPieceForm parts = player_piece_form(place, "a region");
      const int only = parts.only;
      const int piece = piece_named(*parts.piece);
      const PlayerRegion cells = region(*parts.last);
      for (int p = 0; p < rules_.player_count(); ++p) {
        if (only >= 0 && p != only) continue;
        for (int c : cells[p]) {
          const auto at = static_cast<std::size_t>(c);
          if (placed_by[at] == &place && placed_for[at] != p)
            fail(place,
                 fmt::format("two pieces on {}: this '(place ...)' puts a piece of each player there",
                             cell_name(c, rules_.width)),
                 fmt::format("name the player, as in (place {} {} ...), or use a region seen from each player's "
                             "side, such as (home-rows 1)",
                             rules_.players[0].name, rules_.pieces[static_cast<std::size_t>(piece)].name));
          if (const Node* earlier = placed_by[at])
            fail(place, fmt::format("two pieces on {}: it was already filled at line {}", cell_name(c, rules_.width),
                                    earlier->pos.line));
          placed_by[at] = &place;
          placed_for[at] = p;
          rules_.setup.push_back({p, piece, c});
        }
      }
    }
  }

  // The parts of a setup form (HEAD [PLAYER] PIECE LAST): the player it is for (-1: each player),
  // the piece and the last argument, which is `last_is`.
  struct PlayerPieceForm {
    int only;
    const Node* piece;
    const Node* last;
  };
  PlayerPieceForm player_piece_form(const Node& form, std::string_view last_is) const {
    const bool names_player = form.items.size() == 4;
    if (form.items.size() != 3 && !names_player)
      fail(form, fmt::format("'({} ...)' takes a piece and {}", form.head(), last_is), usage(form.head()));
    return {names_player ? player_index(form.items[1]) : -1, &form.items[names_player ? 2 : 1],
            &form.items[names_player ? 3 : 2]};
  }

  // (in-hand [PLAYER] PIECE N): N pieces start in the hand of PLAYER, or of each player.
  void read_in_hand(const Node& form) {
    const PlayerPieceForm parts = player_piece_form(form, "a count");
    const int piece = piece_named(*parts.piece);
    check_hand(*parts.piece, piece);
    const int count = bounded(*parts.last, 0, kMaxHandCount, "the count in hand");
    for (int p = 0; p < rules_.player_count(); ++p)
      if (parts.only < 0 || p == parts.only)
        for (int i = 0; i < count; ++i) rules_.setup.push_back({p, piece, kInHand});
  }

  int piece_named(const Node& node) const {
    const std::string name = name_argument(node, "a piece name");
    const int index = piece_index(name);
    if (index < 0) fail(node, fmt::format("unknown piece '{}'", name), suggest(name, piece_names(rules_)));
    return index;
  }

  int counter_named(const Node& node) const {
    const std::string name = name_argument(node, "a counter name");
    std::vector<std::string> names;
    for (const Counter& counter : rules_.counters) names.push_back(counter.name);
    const auto it = std::find(names.begin(), names.end(), name);
    if (it != names.end()) return static_cast<int>(it - names.begin());
    fail(node, fmt::format("unknown counter '{}'", name),
         names.empty() ? "declare it at game level: (counter NAME (range LOW HIGH))" : suggest(name, names));
  }

  // The index of the attribute, or register, `node` names.
  int attribute_named(const Node& node) const {
    std::vector<std::string> names;
    for (const Attribute& attribute : rules_.attributes) names.push_back(attribute.name);
    return slot_named(node, "attribute", names, "(attribute NAME (initially REGION))");
  }
  int register_named(const Node& node) const {
    if (node.is_symbol(kLastFromName) || node.is_symbol(kLastToName))
      fail(node, fmt::format("'{}' is a test of its own, not a register a rule reads or sets", node.text),
           fmt::format("write {} where the rule tests here", node.text));
    std::vector<std::string> names;  // declared ones come first: last-from and last-to are made later, by their tests
    for (const Register& reg : rules_.registers)
      if (reg.last == LastMove::None) names.push_back(reg.name);
    return slot_named(node, "register", names, "(register NAME [transient])");
  }
  int slot_named(const Node& node, const std::string& kind, const std::vector<std::string>& names,
                 const std::string& declaration) const {
    const std::string name = name_argument(node, fmt::format("{} {} name", kind == "attribute" ? "an" : "a", kind));
    const auto it = std::find(names.begin(), names.end(), name);
    if (it != names.end()) return static_cast<int>(it - names.begin());
    fail(node, fmt::format("unknown {} '{}'", kind, name),
         names.empty() ? fmt::format("declare it at game level: {}", declaration) : suggest(name, names));
  }

  // Counters, attributes and registers are written NAME=... in position text: one name each.
  void check_new_name(const Node& at, const std::string& name, const char* kind) const {
    const auto clash = [&](const char* other, const std::string& earlier, const SourcePos& pos) {
      if (earlier == name)
        fail(at, fmt::format("'{}' is already the name of a {}, at line {}", name, other, pos.line),
             fmt::format("give the {} a name of its own: position text writes each as NAME=...", kind));
    };
    for (const Counter& counter : rules_.counters) clash("counter", counter.name, counter.pos);
    for (const Attribute& attribute : rules_.attributes) clash("attribute", attribute.name, attribute.pos);
    for (const Register& reg : rules_.registers) clash("register", reg.name, reg.pos);
    if (name == kLastFromName || name == kLastToName)
      fail(at, fmt::format("'{}' is the name position text gives the last move's cells", name),
           fmt::format("give the {} another name: the tests last-from and last-to keep those", kind));
  }

  // (attribute NAME (initially REGION)): a mark of pieces, the setup's on REGION having it at the start.
  void read_attributes() {
    for (const Node* form : forms("attribute")) {
      expect_at_most(*form, 3);
      Attribute attribute;
      attribute.pos = form->pos;
      attribute.name = name_argument(argument(*form, 1, "NAME"), "a name for the attribute");
      check_new_name(form->items[1], attribute.name, "attribute");
      if (rules_.attributes.size() == kMaxAttributes)
        fail(*form, fmt::format("a game has at most {} attributes", kMaxAttributes));
      const Node& initially = argument(*form, 2, "(initially REGION)");
      if (initially.head() != "initially" || initially.items.size() != 2)
        fail(initially, fmt::format("expected '(initially REGION)', found {}", describe(initially)),
             usage("attribute"));
      attribute.initially = region(initially.items[1]);
      rules_.attributes.push_back(attribute);
    }
  }

  // (register NAME [transient]): a cell remembered across moves.
  void read_registers() {
    for (const Node* form : forms("register")) {
      expect_at_most(*form, 3);
      Register reg;
      reg.pos = form->pos;
      reg.name = name_argument(argument(*form, 1, "NAME"), "a name for the register");
      check_new_name(form->items[1], reg.name, "register");
      if (rules_.registers.size() == kMaxRegisters)
        fail(*form, fmt::format("a game has at most {} registers", kMaxRegisters));
      if (form->items.size() == 3) {
        if (!form->items[2].is_symbol("transient"))
          fail(form->items[2], fmt::format("expected 'transient', found {}", describe(form->items[2])),
               usage("register"));
        reg.transient = true;
      }
      rules_.registers.push_back(reg);
    }
  }

  // ---- counts per cell ----

  // The setup's (count N REGION) forms and the (track ...) forms, read before the rules, whose
  // (sow ...), (count ...) and (take-count ...) need them. A game keeps counts when its setup gives
  // some; the total of the setup must fit in one cell (State::counts keeps a byte a cell).
  void read_counts() {
    std::vector<const Node*> counted_by(static_cast<std::size_t>(rules_.cells()), nullptr);
    int total = 0;
    for (const Node* setup : forms("setup"))
      for (std::size_t i = 1; i < setup->items.size(); ++i) {
        const Node& form = setup->items[i];
        if (form.head() != "count") continue;
        if (rules_.cells() > kMaxCountCells)
          fail(form,
               fmt::format("counts per cell are kept on boards of at most {} cells; this one has {}", kMaxCountCells,
                           rules_.cells()),
               "sowing games have a few dozen pits: make the board smaller");
        expect_at_most(form, 3);
        const int count = bounded(argument(form, 1, "N"), 0, kMaxCellCount, "the count");
        rules_.keeps_counts = true;
        CellList cells;
        for (const CellList& each : region(argument(form, 2, "REGION")))
          cells.insert(cells.end(), each.begin(), each.end());
        std::sort(cells.begin(), cells.end());
        cells.erase(std::unique(cells.begin(), cells.end()), cells.end());
        for (const int cell : cells) {
          const Node*& earlier = counted_by[static_cast<std::size_t>(cell)];
          if (earlier)
            fail(form, fmt::format("two counts for {}: it was already given one at line {}",
                                   cell_name(cell, rules_.width), earlier->pos.line));
          earlier = &form;
          rules_.count_setup.push_back({count, cell});
          total += count;
        }
        if (total > kMaxCellCount)
          fail(form,
               fmt::format("the setup's counts add up to {}, more than the {} one cell can hold", total, kMaxCellCount),
               "every count may end in one cell (a store): give fewer seeds");
      }
    for (const Node* form : forms("track")) read_track(*form);
  }

  // (track NAME (PLAYER CELL CELL...)...): a cycle of distinct cells for each player of the game.
  void read_track(const Node& form) {
    if (!rules_.keeps_counts)
      fail(form, "a track is for sowing counts, and this game keeps none",
           "give the cells their start counts in the setup: (setup (count N REGION))");
    if (rules_.tracks.size() == kMaxTracks) fail(form, fmt::format("a game has at most {} tracks", kMaxTracks));
    Track track;
    track.pos = form.pos;
    track.name = name_argument(argument(form, 1, "NAME"), "a name for the track");
    for (const Track& other : rules_.tracks)
      if (other.name == track.name)
        fail(form.items[1],
             fmt::format("the track '{}' is declared twice; the first is at line {}", track.name, other.pos.line));
    std::vector<bool> given(static_cast<std::size_t>(rules_.player_count()), false);
    for (std::size_t i = 2; i < form.items.size(); ++i) {
      const Node& entry = form.items[i];
      if (!entry.is_list() || entry.items.size() < 3)
        fail(entry, fmt::format("expected '(PLAYER CELL CELL...)', found {}", describe(entry)), usage("track"));
      const int player = player_index(entry.items[0]);
      if (given[static_cast<std::size_t>(player)])
        fail(entry, fmt::format("the track '{}' of {} is given twice", track.name, entry.items[0].text));
      given[static_cast<std::size_t>(player)] = true;
      CellList& cells = track.cells[static_cast<std::size_t>(player)];
      for (std::size_t k = 1; k < entry.items.size(); ++k) {
        const int at = cell(entry.items[k]);
        if (std::find(cells.begin(), cells.end(), at) != cells.end())
          fail(entry.items[k], fmt::format("{} comes twice in this track", entry.items[k].text),
               "a track is a cycle that passes each cell once");
        cells.push_back(at);
      }
    }
    for (int player = 0; player < rules_.player_count(); ++player)
      if (!given[static_cast<std::size_t>(player)])
        fail(form,
             fmt::format("the track '{}' has no cells for {}", track.name,
                         rules_.players[static_cast<std::size_t>(player)].name),
             fmt::format("give each player its cycle: ({} CELL CELL...)",
                         rules_.players[static_cast<std::size_t>(player)].name));
    rules_.tracks.push_back(std::move(track));
  }

  int track_named(const Node& node) const {
    const std::string name = name_argument(node, "a track name");
    for (std::size_t i = 0; i < rules_.tracks.size(); ++i)
      if (rules_.tracks[i].name == name) return static_cast<int>(i);
    std::vector<std::string> names;
    for (const Track& track : rules_.tracks) names.push_back(track.name);
    fail(node, fmt::format("unknown track '{}'", name),
         names.empty() ? "declare it at game level: (track NAME (PLAYER CELL CELL...)...)" : suggest(name, names));
  }

  // A form about counts per cell, in a game that keeps none.
  void expect_counts(const Node& form) const {
    if (!rules_.keeps_counts)
      fail(form, fmt::format("'{}' reads counts per cell, and this game keeps none", form.head()),
           "give the cells their start counts in the setup: (setup (count N REGION))");
  }

  Comparison comparison_named(const Node& node, const std::string& hint) const {
    const auto it = std::find(kComparisons.begin(), kComparisons.end(), node.is_symbol() ? node.text : std::string());
    if (it == kComparisons.end())
      fail(node, fmt::format("expected a comparison, one of < <= = >= >, found {}", describe(node)), hint);
    return static_cast<Comparison>(it - kComparisons.begin());
  }

  // (phases NAME NAME...): the names, read before the rules that name them.
  void read_phase_names() {
    for (const Node* form : forms("phases")) {
      if (form->items.size() < 3) fail(*form, "a game with phases has at least two", usage("phases"));
      for (std::size_t i = 1; i < form->items.size(); ++i) {
        Phase phase;
        phase.pos = form->items[i].pos;
        phase.name = name_argument(form->items[i], "a name for the phase");
        if (std::any_of(rules_.phases.begin(), rules_.phases.end(),
                        [&](const Phase& earlier) { return earlier.name == phase.name; }))
          fail(form->items[i], fmt::format("the phase '{}' is listed twice", phase.name));
        rules_.phases.push_back(phase);
      }
    }
  }

  int phase_named(const Node& node) const {
    const std::string name = name_argument(node, "a phase");
    std::vector<std::string> names;
    for (const Phase& phase : rules_.phases) names.push_back(phase.name);
    const auto it = std::find(names.begin(), names.end(), name);
    if (it != names.end()) return static_cast<int>(it - names.begin());
    fail(node, fmt::format("unknown phase '{}'", name),
         names.empty() ? "declare the game's phases at game level: (phases NAME NAME...)" : suggest(name, names));
  }

  // (phase NAME (until CONDITION)): when the phase ends. Every phase but the last needs one.
  void read_phases() {
    for (const Node* form : forms("phase")) {
      expect_at_most(*form, 3);
      const int index = phase_named(argument(*form, 1, "NAME"));
      Phase& phase = rules_.phases[static_cast<std::size_t>(index)];
      if (!phase.until.empty())
        fail(*form, fmt::format("the end of the phase '{}' is given twice", phase.name), "merge the two conditions");
      if (index + 1 == static_cast<int>(rules_.phases.size()))
        fail(form->items[1], fmt::format("'{}' is the last phase: it lasts to the end of the game", phase.name));
      const Node& until = argument(*form, 2, "(until CONDITION)");
      if (until.head() != "until" || until.items.size() != 2)
        fail(until, fmt::format("expected '(until CONDITION)', found {}", describe(until)), usage("phase"));
      EndRule rule;
      rule.pos = until.items[1].pos;
      rule.text = to_text(until);
      rule.condition_text = to_text(until.items[1]);
      condition(until.items[1], rule);
      if (const EndRule* part = part_not_of_a_position(rule, false))
        fail_at(part->pos, fmt::format("'(until ...)' cannot test {}", part->condition_text),
                "a phase ends by the position after a decision alone");
      phase.until.push_back(std::move(rule));
    }
    for (std::size_t i = 0; i + 1 < rules_.phases.size(); ++i)
      if (rules_.phases[i].until.empty())
        fail_at(rules_.phases[i].pos, fmt::format("the phase '{}' never ends", rules_.phases[i].name),
                fmt::format("give it (phase {} (until CONDITION))", rules_.phases[i].name));
  }

  // (counter NAME (range LOW HIGH) [shared]): a number that each player keeps, or one for the game.
  void read_counters() {
    for (const Node* form : forms("counter")) {
      expect_at_most(*form, 4);
      Counter counter;
      counter.pos = form->pos;
      counter.name = name_argument(argument(*form, 1, "NAME"), "a name for the counter");
      for (const Counter& earlier : rules_.counters)
        if (earlier.name == counter.name)
          fail(form->items[1],
               fmt::format("the counter '{}' is declared twice; first at line {}", counter.name, earlier.pos.line));
      if (rules_.counters.size() == kMaxCounters)
        fail(*form, fmt::format("a game has at most {} counters", kMaxCounters));
      const Node& range = argument(*form, 2, "(range LOW HIGH)");
      if (range.head() != "range" || range.items.size() != 3)
        fail(range, fmt::format("expected '(range LOW HIGH)', found {}", describe(range)), usage("counter"));
      counter.low = bounded(range.items[1], -kMaxCounterValue, kMaxCounterValue, "a counter's bound");
      counter.high = bounded(range.items[2], -kMaxCounterValue, kMaxCounterValue, "a counter's bound");
      if (counter.low >= counter.high)
        fail(range,
             fmt::format("this range holds no more than one value: {} is not less than {}", counter.low, counter.high),
             "a counter starts at LOW and may rise to HIGH: write the smaller number first");
      if (form->items.size() == 4) {
        if (!form->items[3].is_symbol("shared"))
          fail(form->items[3], fmt::format("expected 'shared', found {}", describe(form->items[3])), usage("counter"));
        counter.shared = true;
      }
      rules_.counters.push_back(counter);
    }
  }

  int player_index(const Node& node) const {
    const std::string name = name_argument(node, "a player name");
    const int index = lang::player_index(rules_, name);
    if (index < 0) fail(node, fmt::format("unknown player '{}'", name), suggest(name, player_names(rules_)));
    return index;
  }

  // ---- end conditions ----

  void read_pass() {
    for (const Node* form : forms("pass-when-stuck")) {
      expect_at_most(*form, 1);
      rules_.pass_when_stuck = true;
    }
  }

  // (must-capture), or (prefer captures) as the core writes it, or (prefer (most captures)).
  void read_must_capture() {
    for (const Node* form : forms("must-capture")) {
      expect_at_most(*form, 1);
      rules_.must_capture = true;
    }
    for (const Node* form : forms("prefer")) {
      rules_.capture_most = read_preference(*form, rules_.capture_most_of) || rules_.capture_most;
      rules_.must_capture = true;
    }
  }

  // (prefer captures) or (prefer (most captures) [(most captures PIECE...)]): whether it is the
  // latter, with the tie-break's pieces in `of`.
  bool read_preference(const Node& form, std::vector<int>& of) const {
    expect_at_most(form, 3);
    const Node& what = argument(form, 1, "captures");
    if (what.is_symbol("captures")) {
      if (form.items.size() > 2)
        fail(form.items[2], "a tie-break (most captures PIECE...) follows only (most captures)", usage("prefer"));
      return false;
    }
    read_most_captures(what, false);
    if (form.items.size() > 2) {
      const Node& tie_break = form.items[2];
      read_most_captures(tie_break, true);
      for (std::size_t i = 2; i < tie_break.items.size(); ++i) of.push_back(piece_named(tie_break.items[i]));
      std::sort(of.begin(), of.end());
      of.erase(std::unique(of.begin(), of.end()), of.end());
    }
    return true;
  }

  // (most captures), or as a `tie_break` (most captures PIECE...) with at least one piece.
  void read_most_captures(const Node& what, bool tie_break) const {
    if (!what.is_list() || what.head() != "most")
      fail(what, fmt::format("expected 'captures' or (most captures), found {}", describe(what)), usage("prefer"));
    if (!tie_break) expect_at_most(what, 2);
    if (!argument(what, 1, "captures").is_symbol("captures"))
      fail(what.items[1], fmt::format("expected 'captures', found {}", describe(what.items[1])), usage("most"));
    if (tie_break && what.items.size() < 3)
      fail(what, "the tie-break (most captures PIECE...) names no piece: which captures count?", usage("most"));
  }

  // (legal CONDITION): the condition must be one a position answers by itself, after the move.
  void read_legal() {
    for (const Node* form : forms("legal")) {
      expect_at_most(*form, 2);
      const Node& node = argument(*form, 1, "CONDITION");
      EndRule rule;
      rule.pos = node.pos;
      rule.text = to_text(*form);
      rule.condition_text = to_text(node);
      condition(node, rule);
      if (const EndRule* part = part_not_of_a_position(rule, false))
        fail_at(part->pos, fmt::format("'(legal ...)' cannot test {}", part->condition_text),
                "a move's legality is asked of the position after it alone: not of the moves that follow, nor "
                "of plies counted before it");
      rules_.legal.push_back(std::move(rule));
    }
  }

  // The first condition, `rule` or a part of it, that a position alone does not answer; with
  // `moves_allowed`, no-legal-moves, which asks for the moves that follow it, is answered.
  static const EndRule* part_not_of_a_position(const EndRule& rule, bool moves_allowed) {
    if ((!moves_allowed && rule.kind == EndKind::NoLegalMoves) || rule.kind == EndKind::QuietMoves ||
        rule.kind == EndKind::Repetition)
      return &rule;
    for (const EndRule& part : rule.parts)
      if (const EndRule* found = part_not_of_a_position(part, moves_allowed)) return found;
    return nullptr;
  }

  void read_end() {
    const Node& form = *forms("end").front();
    if (form.items.size() < 2) fail(form, "'(end ...)' lists no way for the game to end", usage("end"));
    for (std::size_t i = 1; i < form.items.size(); ++i) {
      rules_.end.push_back(end_rule(form.items[i]));
      check_quiet_piece(form.items[i]);
    }
  }

  // The rules of quiet moves share one count in the state: they must agree on what breaks it.
  void check_quiet_piece(const Node& form) const {
    const EndRule& rule = rules_.end.back();
    if (rule.kind != EndKind::QuietMoves) return;
    for (const EndRule& earlier : rules_.end)
      if (earlier.kind == EndKind::QuietMoves && earlier.piece != rule.piece)
        fail(form,
             fmt::format("the quiet-moves rules at lines {} and {} name different pieces ({} and {}), but they "
                         "share one count of quiet plies",
                         earlier.pos.line, rule.pos.line, piece_label(earlier.piece), piece_label(rule.piece)),
             "name the same piece in every (quiet-moves ...) rule, or none in all of them");
  }

  std::string piece_label(int piece) const {
    return piece < 0 ? std::string("none") : "'" + rules_.pieces[static_cast<std::size_t>(piece)].name + "'";
  }

  EndRule end_rule(const Node& node) const {
    const Node& form = list_form(node, "in '(end ...)'");
    const std::vector<std::string> outcomes = {"win", "lose", "draw", "most-pieces", "most-area", "most-count"};
    const std::string head(form.head());
    const auto it = std::find(outcomes.begin(), outcomes.end(), head);
    if (it == outcomes.end())
      fail(form.items.front(), fmt::format("unknown outcome '{}'", head), suggest(head, outcomes));
    EndRule rule;
    rule.pos = form.pos;
    rule.text = to_text(form);
    rule.outcome = static_cast<Outcome>(it - outcomes.begin());
    std::size_t next = 1;
    if (rule.outcome == Outcome::MostArea) next = area_scoring(form, rule);
    if (rule.outcome == Outcome::MostCount) {
      expect_counts(form);
      rule.total_region = region(argument(form, 1, "REGION"));
      next = 2;
    }
    const bool names_player =
        rule.outcome != Outcome::MostArea && rule.outcome != Outcome::MostCount && form.items.size() > 2 &&
        form.items[1].is_symbol() &&
        std::find(kConditions.begin(), kConditions.end(), form.items[1].text) == kConditions.end();
    if (names_player) rule.only_player = player_index(form.items[next++]);
    expect_at_most(form, next + 1);
    condition(argument(form, next, "CONDITION"), rule);
    rule.condition_text = to_text(form.items[next]);
    return rule;
  }

  // (most-area DIRECTIONS [(komi N)] CONDITION): reads the directions and the komi; returns the
  // index of the condition. An area's cells are joined both ways, so every direction's opposite
  // must be there too, and board directions only: a player's own would join other cells for each.
  std::size_t area_scoring(const Node& form, EndRule& rule) const {
    const Node& steps = argument(form, 1, "DIRECTIONS");
    for (const core::Direction& direction : core_directions(steps)) {
      if (direction.frame != core::Direction::Frame::Absolute)
        fail(steps, "an area is joined along board directions, the same for both players",
             "write board directions such as orthogonal, or n e s w");
      rule.area_steps.push_back(direction.offset);
    }
    for (const Offset& step : rule.area_steps)
      if (std::find(rule.area_steps.begin(), rule.area_steps.end(), Offset{-step.dx, -step.dy}) ==
          rule.area_steps.end())
        fail(steps,
             fmt::format("an area joins cells both ways, but these directions go ({}, {}) and not back", step.dx,
                         step.dy),
             "add each direction's opposite, or write orthogonal or all-directions");
    std::size_t next = 2;
    if (form.items.size() > 3 && form.items[2].head() == "komi") {
      const Node& komi = form.items[2];
      expect_at_most(komi, 2);
      rule.komi = bounded(argument(komi, 1, "N"), 0, kMaxCounterValue, "the komi");
      ++next;
    }
    return next;
  }

  void condition(const Node& node, EndRule& rule) const {
    const std::string word = node.is_symbol() ? node.text : std::string(node.head());
    if (word.empty())
      fail(node, fmt::format("expected a condition, found {}", describe(node)), suggest("", kConditions));
    if (word == "opponent-has-no-pieces" || word == "no-legal-moves") {
      if (node.is_list()) expect_at_most(node, 1);
      rule.kind = word == "no-legal-moves" ? EndKind::NoLegalMoves : EndKind::OpponentHasNoPieces;
      if (rule.kind == EndKind::OpponentHasNoPieces && rules_.player_count() == 1)  // it would hold at once
        fail(node, "'opponent-has-no-pieces' in a game of one player, which has no opponent",
             "end a puzzle by its own pieces, e.g. (win (= (pieces) 1)), or by no-legal-moves");
    } else if (word == "reach" && node.is_list()) {
      rule.kind = EndKind::Reach;
      const bool names_piece = node.items.size() == 3;
      expect_at_most(node, 3);
      if (names_piece) rule.piece = piece_named(node.items[1]);
      rule.region = region(argument(node, names_piece ? 2 : 1, "REGION"));
    } else if (word == "ply-limit" && node.is_list()) {
      rule.kind = EndKind::PlyLimit;
      expect_at_most(node, 2);
      rule.ply_limit = bounded(argument(node, 1, "PLIES"), 1, 1000000, "the ply limit");
    } else if (word == "in-a-row" && node.is_list()) {
      in_a_row(node, rule);
    } else if (word == "connect" && node.is_list()) {
      connect(node, rule);
    } else if (word == "connected") {
      // connected, or (connected [PIECE]): all of the player's pieces (of that type) in one group.
      rule.kind = EndKind::Connected;
      if (node.is_list()) expect_at_most(node, 2);
      if (node.is_list() && node.items.size() == 2) rule.piece = piece_named(node.items[1]);
    } else if (word == "quiet-moves" && node.is_list()) {
      // (quiet-moves PLIES [PIECE]): PLIES plies in a row without a capture or a move of PIECE.
      rule.kind = EndKind::QuietMoves;
      expect_at_most(node, 3);
      rule.ply_limit = bounded(argument(node, 1, "PLIES"), 1, 10000, "the number of quiet plies");
      if (node.items.size() == 3) rule.piece = piece_named(node.items[2]);
    } else if (word == "lost" && node.is_list()) {
      rule.kind = EndKind::Lost;
      expect_at_most(node, 2);
      rule.piece = piece_named(argument(node, 1, "PIECE"));
    } else if (word == "repetition" && node.is_list()) {
      repetition(node, rule);
    } else if (word == "in-check" && node.is_list()) {
      rule.kind = EndKind::InCheck;
      expect_at_most(node, 2);
      rule.piece = piece_named(argument(node, 1, "PIECE"));
    } else if ((word == "and" || word == "or" || word == "not" || word == "opponent") && node.is_list()) {
      compound(node, rule);
    } else if (std::find(kComparisons.begin(), kComparisons.end(), word) != kComparisons.end() && node.is_list()) {
      comparison(node, rule);
    } else {
      const Node& at = node.is_symbol() ? node : node.items.front();
      const std::map<std::string, std::string, std::less<>> needs = {{"reach", "a region"},
                                                                     {"ply-limit", "a number of plies"},
                                                                     {"in-a-row", "a length"},
                                                                     {"connect", "two regions"},
                                                                     {"quiet-moves", "a number of plies"},
                                                                     {"lost", "a piece"},
                                                                     {"repetition", "a number of times"},
                                                                     {"in-check", "a piece"},
                                                                     {"and", "conditions"},
                                                                     {"or", "conditions"},
                                                                     {"not", "a condition"},
                                                                     {"opponent", "a condition"}};
      if (std::find(kComparisons.begin(), kComparisons.end(), word) != kComparisons.end() && node.is_symbol())
        fail(at, fmt::format("the comparison '{}' needs a quantity and a number", word), usage(word));
      if (const auto it = needs.find(word); node.is_symbol() && it != needs.end())
        fail(at, fmt::format("the condition '{}' needs {}", word, it->second), usage(word));
      fail(at, fmt::format("unknown condition '{}'", word), suggest(word, kConditions));
    }
  }

  // (and C...), (or C...), (not C): conditions on the same player, combined. A quiet-moves rule
  // stays a rule of its own: the count of quiet plies is kept only for one.
  // (opponent C) is an (and C) asked of the player's opponent, in a game of two players.
  void compound(const Node& node, EndRule& rule) const {
    const std::string word(node.head());
    rule.of_opponent = word == "opponent";
    rule.kind = word == "and" || rule.of_opponent ? EndKind::All : word == "or" ? EndKind::Any : EndKind::Not;
    if (rule.kind == EndKind::Not || rule.of_opponent) expect_at_most(node, 2);
    if (rule.of_opponent && rules_.player_count() != 2)
      fail(node,
           fmt::format("'(opponent ...)' names the one opponent of a game of two players, and this game has {}",
                       rules_.player_count()),
           "ask the condition of each player with an end rule of its own");
    argument(node, 1, "CONDITION");
    for (std::size_t i = 1; i < node.items.size(); ++i) {
      EndRule part;
      part.pos = node.items[i].pos;
      part.condition_text = to_text(node.items[i]);
      condition(node.items[i], part);
      if (part.kind == EndKind::QuietMoves)
        fail(node.items[i], fmt::format("'(quiet-moves ...)' cannot be part of '({} ...)'", word),
             "give it an end rule of its own: the quiet plies are counted for such a rule only");
      rule.parts.push_back(std::move(part));
    }
  }

  // (repetition N): the position, with the same player to move, has occurred N times. Every
  // position has occurred once, so N starts at 2.
  void repetition(const Node& node, EndRule& rule) const {
    rule.kind = EndKind::Repetition;
    expect_at_most(node, 2);
    const Node& count = argument(node, 1, "N");
    const std::int64_t times = integer(count);
    if (times < 2 || times > kMaxRepetitions)
      fail(count,
           fmt::format("the number of repetitions must be between 2 and {}, but it is {}", kMaxRepetitions, times),
           "every position has occurred once when it stands on the board: (repetition 3) holds at its third "
           "occurrence");
    rule.repetitions = static_cast<int>(times);
  }

  // (OP (counter NAME) N), OP one of < <= = >= >: the player's counter against a number.
  void comparison(const Node& node, EndRule& rule) const {
    const std::string word(node.head());
    rule.kind = EndKind::Compare;
    rule.comparison =
        static_cast<Comparison>(std::find(kComparisons.begin(), kComparisons.end(), word) - kComparisons.begin());
    expect_at_most(node, 3);
    const Node& quantity = argument(node, 1, "QUANTITY");
    if (quantity.head() == "pieces" && quantity.items.size() == 1)
      rule.counter = -1;  // the player's pieces on the board
    else if (quantity.head() == "counter" && quantity.items.size() == 2)
      rule.counter = counter_named(quantity.items[1]);
    else if (quantity.head() == "count" && quantity.items.size() == 2) {
      expect_counts(quantity);
      rule.kind = EndKind::CountIn;
      rule.count_region = region(quantity.items[1]);
    } else
      fail(quantity,
           fmt::format("expected '(counter NAME)', '(pieces)' or '(count REGION)', found {}", describe(quantity)),
           usage(word));
    rule.value = bounded(argument(node, 2, "N"), -kMaxCounterValue, kMaxCounterValue, "the number compared with");
  }

  // (in-a-row LENGTH [PIECE] [(at-most LONGEST)]): a line along a row, a column or a diagonal.
  void in_a_row(const Node& node, EndRule& rule) const {
    rule.kind = EndKind::InARow;
    expect_at_most(node, 4);
    const int side = std::max(rules_.width, rules_.height);
    rule.length = bounded(argument(node, 1, "LENGTH"), 1, kMaxBoardSide, "the length of a line");
    if (rule.length > side)
      fail(node.items[1],
           fmt::format("a line of {} does not fit on this {}x{} board", rule.length, rules_.width, rules_.height),
           fmt::format("lines run along rows, columns and diagonals: at most {} cells here", side));
    for (std::size_t i = 2; i < node.items.size(); ++i) {
      const Node& option = node.items[i];
      if (option.head() == "at-most") {
        if (rule.longest) fail(option, "'(at-most ...)' is given twice");
        expect_at_most(option, 2);
        rule.longest = bounded(argument(option, 1, "LONGEST"), 1, kMaxBoardSide, "the longest line");
        if (rule.longest < rule.length)
          fail(option.items[1],
               fmt::format("the longest line, {}, is shorter than the line length, {}", rule.longest, rule.length),
               "(at-most N) counts lines of LENGTH to N pieces; N = LENGTH means exactly LENGTH");
        if (rule.longest >= side) rule.longest = 0;  // no line is longer than the board: no limit
      } else if (option.is_symbol() && i == 2) {
        rule.piece = piece_named(option);
      } else {
        fail(option, fmt::format("unexpected {} in '(in-a-row ...)'", describe(option)), usage("in-a-row"));
      }
    }
  }

  // (connect [PIECE] REGION REGION): a chain of the player's pieces, each touching the next, with a
  // piece in each region.
  void connect(const Node& node, EndRule& rule) const {
    rule.kind = EndKind::Connect;
    expect_at_most(node, 4);
    const bool names_piece = node.items.size() == 4;
    if (names_piece) rule.piece = piece_named(node.items[1]);
    const std::size_t first = names_piece ? 2 : 1;
    rule.region = region(argument(node, first, "REGION"));
    rule.other_region = region(argument(node, first + 1, "second REGION"));
    for (int p = 0; p < rules_.player_count(); ++p)
      if (rule.region[p].empty() || rule.other_region[p].empty())
        fail(node.items[rule.region[p].empty() ? first : first + 1],
             fmt::format("this region has no cells for {}, so nothing can connect to it", rules_.players[p].name),
             "to connect two sides, name them, e.g. (connect home-row far-row)");
  }

  // (turn (actions N) [(first M)]): N decisions a turn, M on the game's first (N unless given).
  void read_turn(const Node& form, int& actions, int& first) const {
    expect_at_most(form, 3);
    actions = turn_count(argument(form, 1, "(actions N)"), "actions", "the decisions of a turn");
    first = form.items.size() == 3 ? turn_count(form.items[2], "first", "the decisions of the first turn") : actions;
    if (rules_.swap_rule && (actions != 1 || first != 1))
      fail(form, "the swap rule is the second player's first move, which a turn of several decisions does not have",
           "play one decision a turn, or switch the swap off with (swap-rule 0)");
  }

  // The N of (actions N) or (first N) inside (turn ...).
  int turn_count(const Node& node, std::string_view keyword, std::string_view what) const {
    if (!node.is_list() || node.head() != keyword)
      fail(node, fmt::format("expected '({} N)' here, found {}", keyword, describe(node)), usage("turn"));
    expect_at_most(node, 2);
    const Node& count = argument(node, 1, "N");
    const std::int64_t value = integer(count);
    if (value < 1 || value > kMaxTurnActions)
      fail(count, fmt::format("{} must be between 1 and {}, but it is {}", what, kMaxTurnActions, value),
           "a turn is one decision or more, e.g. (turn (actions 2) (first 1)) for Connect6");
    return static_cast<int>(value);
  }

  // (swap-rule [ENABLED]): on unless ENABLED is 0, so that a parameter can switch it.
  void read_swap_rule() {
    for (const Node* form : forms("swap-rule")) {
      expect_at_most(*form, 2);
      rules_.swap_rule = form->items.size() < 2 || bounded(form->items[1], 0, 1, "the swap rule's switch") != 0;
      if (rules_.swap_rule) check_swap(*form);
    }
  }

  void check_swap(const Node& form) const {
    if (rules_.player_count() != 2)
      fail(form,
           fmt::format("the swap (pie rule) gives the second player the first player's opening; a game of {} player{} "
                       "has no such pair",
                       rules_.player_count(), rules_.player_count() == 1 ? "" : "s"),
           "the swap is for two players: list two in (players ...), or switch the swap off with (swap-rule 0)");
    if (!rules_.setup.empty())
      fail(form,
           "the swap turns the first player's opening pieces into the second player's, so the game must start "
           "with an empty board",
           "remove the pieces from (setup ...), or switch the swap off with (swap-rule 0)");
    if (rules_.width != rules_.height)
      fail(form,
           fmt::format("the swap mirrors the board across its diagonal, which needs a square board; this one is {}x{}",
                       rules_.width, rules_.height),
           "give the board as many columns as rows, or switch the swap off with (swap-rule 0)");
    for (const int hole : rules_.holes) {
      const int mirrored = rules_.cell(hole / rules_.width, hole % rules_.width);
      if (!rules_.is_hole(mirrored))
        fail(form,
             fmt::format("the swap mirrors the board across its diagonal, which must take every hole onto a hole; "
                         "{} is a hole and {} is not",
                         cell_name(hole, rules_.width), cell_name(mirrored, rules_.width)),
             "make the holes symmetric across the diagonal from a1, or switch the swap off with (swap-rule 0)");
    }
  }

  std::shared_ptr<const SourceFile> source_;
  const Options& options_;
  Rules rules_;
  std::map<std::string, std::vector<const Node*>> forms_;
  std::vector<std::pair<std::string, std::int64_t>> params_;
  std::map<std::string, PlayerRegion> regions_;
  std::vector<std::pair<std::string, std::uint32_t>> declared_params_;  // name, line; in file order
  // While a core rule is read: its players, and the direction names bound around the form read.
  std::vector<int> rule_players_;
  std::vector<std::string> bound_;
  std::vector<std::string> marks_;  // the (mark NAME)s of the rule being read so far
  int line_counts_ = 0;             // the (times (line-pieces D) ...) forms around the form read
  // The (moves ...) rules of the file, and their forms for messages.
  std::vector<core::Rule> written_;
  std::vector<const Node*> written_forms_;
  bool through_core_ = true;
};

}  // namespace

std::pair<std::string, std::string> parse_param_option(const std::string& text) {
  const std::size_t equals = text.find('=');
  if (equals == std::string::npos || equals == 0)
    throw Error(Diagnostic{nullptr,
                           {},
                           fmt::format("--param '{}' is not of the form NAME=VALUE", text),
                           "write for example --param width=6"});
  return {text.substr(0, equals), text.substr(equals + 1)};
}

int parse_cell(std::string_view name, int width, int height) {
  if (name.size() < 2 || name.size() > 3 || name[0] < 'a' || name[0] > 'z') return -1;
  const int column = name[0] - 'a';
  int row = 0;
  const auto [end, error] = std::from_chars(name.data() + 1, name.data() + name.size(), row);
  if (error != std::errc() || end != name.data() + name.size() || name[1] == '0') return -1;
  if (column >= width || row < 1 || row > height) return -1;
  return (row - 1) * width + column;
}

int Rules::next_cell(int cell, Offset offset) const {
  for (const Link& link : links)
    if (link.from == cell && link.direction == offset) return link.to;
  if (points && std::abs(offset.dx) <= 1 && std::abs(offset.dy) <= 1) return -1;
  const int column = cell % width + offset.dx, row = cell / width + offset.dy;
  if (column < 0 || column >= width || row < 0 || row >= height || is_hole(this->cell(column, row))) return -1;
  return this->cell(column, row);
}

const std::string& target_name(Target target) { return kTargets[static_cast<std::size_t>(target)]; }

int piece_index(const Rules& rules, std::string_view name) {
  for (std::size_t i = 0; i < rules.pieces.size(); ++i)
    if (rules.pieces[i].name == name) return static_cast<int>(i);
  return -1;
}

std::vector<std::string> piece_names(const Rules& rules) {
  std::vector<std::string> names;
  names.reserve(rules.pieces.size());
  for (const PieceType& piece : rules.pieces) names.push_back(piece.name);
  return names;
}

int find_last_move_register(const Rules& rules, LastMove which) {
  for (std::size_t reg = 0; reg < rules.registers.size(); ++reg)
    if (rules.registers[reg].last == which) return static_cast<int>(reg);
  return -1;
}

int last_move_register(Rules& rules, LastMove which) {
  if (const int found = find_last_move_register(rules, which); found >= 0) return found;
  if (rules.registers.size() == static_cast<std::size_t>(kMaxRegisters)) return -1;
  Register reg;
  reg.name = which == LastMove::From ? kLastFromName : kLastToName;
  reg.last = which;
  rules.registers.push_back(reg);
  return static_cast<int>(rules.registers.size()) - 1;
}

std::pair<std::string, std::string> too_many_piece_types(const Rules& rules) {
  const BitboardWidth width = bitboard_width(rules.cells());
  std::string message = fmt::format("on this {}x{} board, a game may have at most {} piece types", rules.width,
                                    rules.height, width.max_piece_types);
  const auto roomier = std::find_if(kBitboardWidths.begin(), kBitboardWidths.end(), [&](const BitboardWidth& wider) {
    return wider.max_piece_types > width.max_piece_types;
  });
  if (roomier == kBitboardWidths.end())
    return {std::move(message),
            fmt::format("{} is the most on any board; merge piece types that move alike", width.max_piece_types)};
  return {std::move(message),
          fmt::format("a position keeps a bitboard per piece type; boards of more than {} cells may have {}",
                      64 * (roomier - 1)->words, roomier->max_piece_types)};
}

int player_index(const Rules& rules, std::string_view name) {
  for (int player = 0; player < rules.player_count(); ++player)
    if (rules.players[static_cast<std::size_t>(player)].name == name) return player;
  return -1;
}

std::vector<std::string> player_names(const Rules& rules) {
  std::vector<std::string> names;
  for (const Player& player : rules.players) names.push_back(player.name);
  return names;
}

std::string piece_code_problem(std::string_view code) {
  const auto is_letter = [](char c) { return std::isalpha(static_cast<unsigned char>(c)) != 0; };
  const auto allowed = [&](char c) {
    return is_letter(c) || std::isdigit(static_cast<unsigned char>(c)) || c == '+' || c == '!';
  };
  if (code.empty() || code.size() > kMaxPieceCode)
    return fmt::format("a piece's code is one letter, or up to {} characters", kMaxPieceCode);
  if (code.size() == 1 && !is_letter(code[0])) return "a piece's code of one character is a letter";
  if (!std::all_of(code.begin(), code.end(), allowed)) return "a piece's code is made of letters, digits, '+' and '!'";
  if (std::none_of(code.begin(), code.end(), is_letter)) return "a piece's code needs a letter, which tells its owner";
  return {};
}

std::string piece_code(std::string_view written) {
  std::string code(written);
  std::transform(code.begin(), code.end(), code.begin(),
                 [](char c) { return static_cast<char>(std::toupper(static_cast<unsigned char>(c))); });
  return code;
}

std::string piece_text(std::string_view code, int player, int players, bool bracketed) {
  std::string text(code);
  if (players <= kPlayers && player == 1)
    std::transform(text.begin(), text.end(), text.begin(),
                   [](char c) { return static_cast<char>(std::tolower(static_cast<unsigned char>(c))); });
  if (bracketed && text.size() > 1) text = fmt::format("[{}]", text);
  return players > kPlayers ? fmt::format("{}{}", text, player + 1) : text;
}

int piece_of_code(const Rules& rules, std::string_view code) {
  const std::string kept = piece_code(code);
  const auto found =
      std::find_if(rules.pieces.begin(), rules.pieces.end(), [&](const PieceType& type) { return type.code == kept; });
  return found == rules.pieces.end() ? -1 : static_cast<int>(found - rules.pieces.begin());
}

std::string cell_name(int cell, int width) {
  return fmt::format("{}{}", static_cast<char>('a' + cell % width), cell / width + 1);
}

Rules load_rules(std::shared_ptr<const SourceFile> source, const Options& options) {
  if (is_zrf_file(source->name)) {
    Rules rules = load_zrf(std::move(source), options);
    compile_through_core(rules, {});
    return rules;
  }
  const std::vector<Node> forms = parse_sexpr(source);
  return Checker(source, options).run(forms);
}

Rules load_rules_without_core(std::shared_ptr<const SourceFile> source, const Options& options) {
  if (is_zrf_file(source->name)) return load_zrf(std::move(source), options);
  const std::vector<Node> forms = parse_sexpr(source);
  return Checker(source, options, false).run(forms);
}

namespace core {

Rules read_core(const lang::Rules& rules, std::shared_ptr<const SourceFile> text) {
  const std::vector<Node> forms = parse_sexpr(text);
  const Options none;
  return Checker(text, none).read_core_text(rules, forms);
}

}  // namespace core

Rules load_rules_file(const std::string& path, const Options& options) {
  std::ifstream in(path, std::ios::binary);
  if (!in) throw Error(Diagnostic{nullptr, {}, fmt::format("cannot open the rule file '{}'", path), "check the path"});
  std::ostringstream text;
  text << in.rdbuf();
  auto source = std::make_shared<SourceFile>(SourceFile{path, text.str(), true, {}});
  return load_rules(std::move(source), options);
}

}  // namespace troyka::lang
