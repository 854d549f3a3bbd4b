// ZRF (Zillions of Games rule files) into lang::Rules, in three passes:
//   1. macros: every (define NAME BODY) use is replaced by BODY with $1.. substituted;
//   2. variants: the chosen (variant ...) block replaces the game's forms it redefines;
//   3. lowering: board, pieces, setup and goals become Rules, with an error for anything outside the
//      subset troyka can play exactly (docs/zrf.md lists it and the sources for each meaning).
#include "lang/zrf.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <map>
#include <optional>
#include <set>
#include <span>
#include <sstream>
#include <string>
#include <tuple>

#include "lang/core.h"
#include "lang/directions.h"
#include "lang/hand.h"
#include "lang/sexpr.h"
#include "lang/translate.h"

namespace troyka::lang {
namespace {

// ---- Vocabulary -------------------------------------------------------------------------------

// Forms that only change how Zillions looks, sounds or thinks: read and ignored.
const std::set<std::string, std::less<>> kIgnoredGameForms = {
    "history",       "strategy",      "image",        "music",       "move-sound", "release-sound",
    "capture-sound", "drop-sound",    "change-sound", "click-sound", "draw-sound", "loss-sound",
    "win-sound",     "opening-sound", "engine",       "help",        "solution",
};
const std::set<std::string, std::less<>> kIgnoredPieceForms = {
    "image", "help", "description", "move-sound", "release-sound", "capture-sound", "drop-sound"};
// Options that change only the display or how moves are entered, never which moves are legal
// (docs/zrf.md gives the sources): read and ignored, whatever their value.
// The last two are the Dagaz project's: its runtime sets only its view's showCaptures and showBlink
// from them (Dagaz.Model.checkVersion in common-scripts/zrf-model.js).
const std::set<std::string, std::less<>> kDisplayOptions = {
    "animate captures", "animate drops",  "highlight goals", "prevent flipping", "show moves list",
    "smart moves",      "silent ? moves", "show hints",      "show captures",    "show blink",
};
// Options that change rules no game troyka plays has: read and ignored. "include off-pieces" counts
// pieces off the board, and troyka counts pieces only in games that never have any there;
// "recycle promotions" concerns pieces that change type, and troyka refuses every move that does.
const std::set<std::string, std::less<>> kInertOptions = {"include off-pieces", "recycle promotions"};
// Of those, the one pieces-remaining reads: with it true, the pieces off the board count.
const std::string kIncludeOffPieces = "include off-pieces";
// Options that change the rules, with what they do. Set to false they are Zillions' default, the
// same as no option, and are read; so are the values kReadRuleValues lists (check_option); any other
// value is a rule troyka cannot play yet.
const std::map<std::string, std::string, std::less<>> kRuleOptions = {
    {"pass turn", "a player may pass instead of moving"},
    {"pass partial", "a move of several parts may stop after any of them"},
    {"maximal captures", "a player must make the move that captures the most pieces"},
    {"recycle captures", "a captured piece joins the capturer's pieces off the board"},
};
// Rule options of the Dagaz project's runtime, which Zillions does not have; false is the game without
// them. "chess invariant" and "deferred captures" true are read (check_option), the others refused.
const std::map<std::string, std::string, std::less<>> kDagazRuleOptions = {
    {"chess invariant", "no move may leave the player's king attacked"},
    {"deferred captures", "captured pieces leave the board only when the move ends"},
    {"ko", "a move may not bring back an earlier position"},
    {"shared pieces", "a player may move the other player's pieces"},
};
// The last word of the Dagaz options that load a JavaScript module of rules of the game
// ("xiangqi-extension", "fanorona-invariant", "pente-restrictions"): the rules are not in the file.
const std::vector<std::string> kDagazModuleWords = {"extension", "invariant", "restrictions"};
// The rule options' values other than false that troyka plays (check_option).
const std::map<std::string, std::vector<std::string>, std::less<>> kReadRuleValues = {
    {"pass turn", {"forced", "true"}}, {"pass partial", {"true"}},    {"maximal captures", {"true", "2"}},
    {"deferred captures", {"true"}},   {"chess invariant", {"true"}},
};
// The options' older form, (pass-turn VALUE) for (option "pass turn" VALUE), which ZRF files of
// Zillions 1.x write and Polygamo still reads (GameCode.cs: "deprecated"). allow-flipping is the
// display switch that prevent flipping replaced.
const std::map<std::string, std::string, std::less<>> kOptionForms = {
    {"allow-flipping", "prevent flipping"},
    {"animate-captures", "animate captures"},
    {"animate-drops", "animate drops"},
    {"include-off-pieces", "include off-pieces"},
    {"maximal-captures", "maximal captures"},
    {"pass-partial", "pass partial"},
    {"pass-turn", "pass turn"},
    {"recycle-captures", "recycle captures"},
    {"recycle-promotions", "recycle promotions"},
};
const std::vector<std::string> kGameForms = {
    "title",       "description",   "players",        "turn-order",     "board",  "piece",
    "board-setup", "win-condition", "loss-condition", "draw-condition", "option", "move-priorities",
};
const std::vector<std::string> kGoalForms = {"win-condition", "loss-condition", "draw-condition"};
const std::vector<std::string> kConditions = {
    "absolute-config", "relative-config", "pieces-remaining", "stalemated", "repetition", "checkmated", "or", "and"};

// The words of `text`, which blanks separate.
std::set<std::string, std::less<>> words_of(std::string_view text) {
  std::set<std::string, std::less<>> words;
  for (std::size_t at = text.find_first_not_of(' '); at != std::string_view::npos;) {
    const std::size_t end = text.find(' ', at);
    words.emplace(text.substr(at, end - at));
    at = text.find_first_not_of(' ', end);
  }
  return words;
}

// Zillions' own words, as the Language Reference's index lists them: a form troyka does not read
// is a missing feature when its word is one of these, and a mistake in the file otherwise.
const std::set<std::string, std::less<>> kZillionsKeywords = words_of(
    "absolute-config add add-copy add-copy-partial add-partial adjacent-to-enemy? and any-owner "
    "attacked? attribute back board board-setup capture capture-sound captured cascade change-owner "
    "change-sound change-type checkmated click-sound count-condition create default defended? define "
    "description directions draw-condition draw-sound dimensions drop-sound drops dummy else engine "
    "empty? enemy? false flag? flip forced friend? from game go goal-position? grid help history if "
    "image include in-zone? kill-positions last-from last-from? last-to last-to? links loss-condition "
    "loss-sound mark marked? moves move-priorities move-sound move-type music name neutral? not notation "
    "not-adjacent-to-enemy? not-attacked? not-defended? not-empty? not-enemy? not-flag? not-friend? "
    "not-goal-position? not-in-zone? not-last-from? not-last-to? not-marked? not-neutral? not-on-board? "
    "not-piece? not-position? not-position-flag? off on-board? open opening-sound opponent opposite "
    "option or piece piece? pieces-remaining players position? position-flag? positions relative-config "
    "release-sound repeat repetition set-attribute set-flag set-position-flag solution stalemated "
    "start-rectangle strategy symmetry title to total-piece-count translate true turn-order unlink "
    "variant verify version while win-condition win-sound zone");

// Why a known ZRF form cannot be played, for the error message.
const std::map<std::string, std::string, std::less<>> kUnsupported = {
    {"count-condition", "'count-condition' is not supported"},
    {"captured", "'captured' is not supported"},
    {"total-piece-count", "'total-piece-count' is not supported"},
    {"attribute", "piece attributes are not supported"},
    {"dummy", "dummy pieces are not supported"},
    {"from",
     "'from' is read only as the first item of a move (where the piece stands): a troyka move cannot "
     "move a piece from elsewhere"},
    {"capture", "'capture' of a position other than the landing one cannot be expressed"},
    {"cascade",
     "'cascade' is read only at the top of a move, as castling writes it (... to STEPS cascade STEPS add); here it "
     "cannot be expressed"},
    {"create", "'create' (a new piece) cannot be expressed"},
    {"flip", "'flip' (changing a piece's owner) cannot be expressed"},
    {"change-owner", "'change-owner' cannot be expressed"},
    {"change-type", "'change-type' (promotion) cannot be expressed"},
    {"set-flag", "flags cannot be expressed"},
    {"set-attribute", "attributes cannot be expressed"},
    {"set-position-flag", "position flags cannot be expressed"},
    {"go", "'go' cannot be expressed"},
    {"opposite", "'opposite' directions cannot be expressed"},
    {"add-partial", "partial moves cannot be expressed"},
    {"add-copy", "'add-copy' (leaving a copy behind) cannot be expressed"},
};

// Zillions' last-from? and last-to? ("is the current position where the last move started / ended"),
// and their not- forms: the core test each is, and whether it is negated.
const std::map<std::string, std::pair<core::Op, bool>, std::less<>> kLastMoveTests = {
    {"last-from?", {core::Op::LastFrom, false}},
    {"not-last-from?", {core::Op::LastFrom, true}},
    {"last-to?", {core::Op::LastTo, false}},
    {"not-last-to?", {core::Op::LastTo, true}},
};

// What may stand on a cell, as a set: a verify condition is the set of occupants it allows.
enum Occupant : unsigned { kEmpty = 1, kEnemy = 2, kFriend = 4, kAnyOccupant = 7 };

const std::map<std::string, unsigned, std::less<>> kOccupancyTests = {
    {"empty?", kEmpty},   {"not-empty?", kEnemy | kFriend}, {"enemy?", kEnemy}, {"not-enemy?", kEmpty | kFriend},
    {"friend?", kFriend}, {"not-friend?", kEmpty | kEnemy},
};

std::vector<std::string> keys_of(const std::map<std::string, unsigned, std::less<>>& table) {
  std::vector<std::string> keys;
  keys.reserve(table.size());
  for (const auto& [key, value] : table) keys.push_back(key);
  return keys;
}

// ---- Errors -----------------------------------------------------------------------------------

// Where a macro was used: its expansion carries the use's position, and errors there say so.
struct Expansion {
  std::string macro;
  SourcePos defined_at;
};

class Reporter {
 public:
  explicit Reporter(std::shared_ptr<const SourceFile> source) : source_(std::move(source)) {}

  // Every refusal says what it is (Refusal): a form Zillions plays and troyka cannot yet, or a
  // mistake Zillions would refuse too. There is no entry point that leaves it unsaid.
  [[noreturn]] void missing_feature(const Node& at, std::string message, std::string hint = {}) const {
    refuse(Refusal::MissingFeature, at, std::move(message), std::move(hint));
  }
  [[noreturn]] void mistake(const Node& at, std::string message, std::string hint = {}) const {
    refuse(Refusal::Mistake, at, std::move(message), std::move(hint));
  }
  // As mistake(at, ...), for an error that no form but only a position (or none) stands for.
  [[noreturn]] void mistake_at(SourcePos pos, std::string message, std::string hint = {}) const {
    failed_at_ = nullptr;
    throw_at(pos, with_kind(message, Refusal::Mistake), std::move(hint));
  }
  // A form that no reading of troyka takes: a missing feature when its word is one of Zillions', a
  // mistake (a misspelt or unknown word) otherwise.
  [[noreturn]] void unread(const Node& at, std::string_view word, std::string message, std::string hint = {}) const {
    refuse(kZillionsKeywords.count(word) ? Refusal::MissingFeature : Refusal::Mistake, at, std::move(message),
           std::move(hint));
  }
  // The node the last error was about, null when it named a position only: a macro's expansion
  // carries its use's position, so two errors in one expansion differ only by their nodes.
  const Node* failed_at() const { return failed_at_; }
  // A known ZRF form troyka cannot play, named with the reason kUnsupported gives.
  [[noreturn]] void unsupported(const Node& at, std::string_view keyword) const {
    const auto it = kUnsupported.find(keyword);
    const std::string why = it != kUnsupported.end() ? it->second : fmt::format("'{}' is not supported", keyword);
    missing_feature(at, fmt::format("unsupported ZRF form '{}': {}", keyword, why),
                    "docs/zrf.md lists the subset troyka plays");
  }
  void note_expansion(SourcePos use, const Expansion& expansion) {
    expansions_.try_emplace({use.file, use.line, use.column}, expansion);
  }
  const std::shared_ptr<const SourceFile>& source() const { return source_; }

 private:
  [[noreturn]] void throw_at(SourcePos pos, std::string message, std::string hint) const {
    const auto it = expansions_.find({pos.file, pos.line, pos.column});
    if (it != expansions_.end()) {
      const SourcePos defined = it->second.defined_at;
      const std::string where = defined.file == pos.file
                                    ? fmt::format("line {}", defined.line)
                                    : fmt::format("{}:{}", source_->file_of(defined).name, defined.line);
      const std::string note = fmt::format("(in the macro '{}' defined at {})", it->second.macro, where);
      hint = hint.empty() ? note : hint + " " + note;
    }
    throw Error(Diagnostic{source_, pos, std::move(message), std::move(hint)});
  }
  [[noreturn]] void refuse(Refusal kind, const Node& at, std::string message, std::string hint) const {
    failed_at_ = &at;
    throw_at(at.pos, with_kind(message, kind), std::move(hint));
  }

  std::shared_ptr<const SourceFile> source_;
  std::map<std::tuple<std::uint32_t, std::uint32_t, std::uint32_t>, Expansion> expansions_;  // by file, line, column
  mutable const Node* failed_at_ = nullptr;
};

// ---- Pass 0: includes -------------------------------------------------------------------------

// Files a rule file may include in all, nested includes counted: a file that includes another
// twice, which includes another twice, ... would otherwise read exponentially many.
constexpr std::size_t kMaxIncludedFiles = 256;

// Zillions' (include "FILE"): the text of FILE, read from the folder of the file that includes it,
// stands where the form stands, at the top level (a library of macros, as the Dagaz sliding
// puzzles' common.zrf) or inside a game. Every form read keeps its file's number in its positions
// (SourcePos::file), so errors point into the included file and say where it was included from.
class Includer {
 public:
  explicit Includer(std::shared_ptr<SourceFile> root) : root_(std::move(root)) {}

  // The root file's forms, every include replaced by the forms of its file.
  std::vector<Node> run() {
    std::vector<Node> forms = parse_sexpr(root_, Syntax::Zrf);
    reading_.push_back(path_of(*root_));
    splice_includes(forms, *root_);
    return forms;
  }

 private:
  // Replaces each (include ...) among `items`, and inside them, by the forms of its file.
  void splice_includes(std::vector<Node>& items, const SourceFile& includer) {
    std::vector<Node> result;
    result.reserve(items.size());
    for (Node& item : items) {
      if (item.head() != "include") {
        if (item.is_list()) splice_includes(item.items, includer);
        result.push_back(std::move(item));
        continue;
      }
      std::vector<Node> included = read_included(item, includer);
      std::move(included.begin(), included.end(), std::back_inserter(result));
    }
    items = std::move(result);
  }

  std::vector<Node> read_included(const Node& form, const SourceFile& includer) {
    if (form.items.size() != 2 || form.items[1].kind != Node::Kind::String)
      refuse(Refusal::Mistake, form.pos, "expected (include \"FILE\"): the name of one file, in quotes",
             "write (include \"common.zrf\"), read from the folder of this file");
    const std::string& name = form.items[1].text;
    if (!root_->on_disk)
      refuse(Refusal::MissingFeature, form.items[1].pos,
             fmt::format("cannot include \"{}\": this rule text was not read from a file, so it has no folder to "
                         "read it from",
                         name),
             "the referee and the playground pass rule files on as text: give them the file in one piece, as `troyka "
             "translate FILE` writes it");
    const std::filesystem::path path = std::filesystem::path(includer.name).parent_path() / name;
    const std::string canonical = path_of(path);
    const auto cycle = std::find(reading_.begin(), reading_.end(), canonical);
    if (cycle != reading_.end())
      refuse(Refusal::Mistake, form.items[1].pos, fmt::format("\"{}\" includes itself: {}", name, chain(cycle)),
             "a file may include another only once on a chain of includes");
    if (root_->included.size() == kMaxIncludedFiles)
      refuse(Refusal::Mistake, form.items[1].pos,
             fmt::format("more than {} files are included in all", kMaxIncludedFiles),
             "a file that includes another several times reads it as often");
    std::error_code error;
    std::ifstream in(path, std::ios::binary);
    if (!in || !std::filesystem::is_regular_file(path, error))  // a folder opens, and reads as nothing
      refuse(Refusal::Mistake, form.items[1].pos, fmt::format("cannot open the included file '{}'", path.string()),
             fmt::format("an include is read from the folder of the file that includes it, {}", includer.name));
    std::ostringstream text;
    text << in.rdbuf();
    auto file = std::make_shared<SourceFile>(SourceFile{path.string(), text.str(), true, {}});
    root_->included.push_back({file, form.pos});
    const auto number = static_cast<std::uint32_t>(root_->included.size());
    std::vector<Node> forms;
    try {
      forms = parse_sexpr(file, Syntax::Zrf);
    } catch (const Error& error) {  // a syntax error: told at its place in the included file
      Diagnostic diagnostic = error.diagnostic();
      diagnostic.file = root_;
      diagnostic.pos.file = number;
      throw Error(std::move(diagnostic));
    }
    for (Node& node : forms) number_file(node, number);
    reading_.push_back(canonical);
    splice_includes(forms, *file);
    reading_.pop_back();
    return forms;
  }

  static void number_file(Node& node, std::uint32_t number) {
    node.pos.file = number;
    for (Node& item : node.items) number_file(item, number);
  }

  // A path as one spelling, to find it again on the chain of files being read.
  static std::string path_of(const std::filesystem::path& path) {
    std::error_code error;
    const std::filesystem::path canonical = std::filesystem::weakly_canonical(path, error);
    return (error ? path : canonical).lexically_normal().string();
  }
  static std::string path_of(const SourceFile& file) { return path_of(std::filesystem::path(file.name)); }

  // "a.zrf includes b.zrf, which includes a.zrf": the chain from `start` back to it.
  std::string chain(std::vector<std::string>::const_iterator start) const {
    const auto name = [](const std::string& path) { return std::filesystem::path(path).filename().string(); };
    std::string text = name(*start) + " includes ";
    for (auto it = start + 1; it != reading_.end(); ++it) text += name(*it) + ", which includes ";
    return text + name(*start);
  }

  [[noreturn]] void refuse(Refusal kind, SourcePos pos, const std::string& message, std::string hint) const {
    throw Error(Diagnostic{root_, pos, with_kind(message, kind), std::move(hint)});
  }

  std::shared_ptr<SourceFile> root_;
  std::vector<std::string> reading_;  // the files being read, the root first, as path_of spells them
};

// ---- Pass 1: macros ---------------------------------------------------------------------------

constexpr std::size_t kMaxMacroDepth = 32;
// Macros that use other macros twice can double the text at every level; past this many expanded
// forms the file is refused rather than exhausting memory.
constexpr std::size_t kMaxExpandedNodes = 1000000;

// Zillions' macros as the files written for it use them (docs/zrf.md): a use (NAME ARG...), or a
// bare NAME, is replaced by the body with $1, $2 ... replaced by the arguments. A $N that the use
// does not give is the Nth argument of the nearest enclosing use that gives one (files define
// "body" macros, used without arguments inside macros that have them, whose $1 is the enclosing
// macro's $1), and nothing when no enclosing use gives it. A name defined twice keeps its later
// definition.
class MacroExpander {
 public:
  explicit MacroExpander(Reporter& report) : report_(report) {}

  // The top-level forms other than the definitions, with every macro use expanded.
  std::vector<Node> run(const std::vector<Node>& forms) {
    for (const Node& form : forms)
      if (form.head() == "define") define(form);
    std::vector<Node> result;
    for (const Node& form : forms)
      if (form.head() != "define") expand_into(form, result);
    return result;
  }

 private:
  // A use of a macro whose body is being expanded.
  struct Use {
    const Node* macro = nullptr;
    std::vector<Node> arguments;
  };

  void define(const Node& form) {
    if (form.items.size() < 3 || !form.items[1].is_symbol())
      report_.mistake(form, "a macro needs a name and a body",
                      "write (define NAME (BODY ...)), using $1, $2 ... for arguments");
    macros_[form.items[1].text] = &form;  // a later definition replaces an earlier one
  }

  // Appends `node` with its macros expanded to `out`: a use whose body is one form becomes that
  // form; a body of several forms is spliced in, as Zillions does.
  void expand_into(const Node& node, std::vector<Node>& out) {
    const Node* macro = use_of(node);
    if (!macro) {
      Node copy = node;
      if (node.is_list()) {
        copy.items.clear();
        for (const Node& item : node.items) expand_into(item, copy.items);
      }
      out.push_back(std::move(copy));
      return;
    }
    const std::string& name = macro->items[1].text;
    if (uses_.size() >= kMaxMacroDepth) too_deep(node, name);
    report_.note_expansion(node.pos, {name, macro->pos});
    Use use;
    use.macro = macro;
    if (node.is_list()) use.arguments.assign(node.items.begin() + 1, node.items.end());
    std::vector<Node> body;
    for (std::size_t i = 2; i < macro->items.size(); ++i) substitute_into(macro->items[i], use.arguments, node, body);
    uses_.push_back(std::move(use));
    for (const Node& item : body) expand_into(item, out);
    uses_.pop_back();
  }

  const Node* use_of(const Node& node) const {
    const std::string_view name = node.is_symbol() ? std::string_view(node.text) : node.head();
    const auto it = macros_.find(name);
    return it == macros_.end() ? nullptr : it->second;
  }

  // N for a word $N (N from 1), else 0.
  static std::size_t argument_index(const Node& node) {
    if (!node.is_symbol() || node.text.size() < 2 || node.text[0] != '$') return 0;
    std::size_t index = 0;
    const auto [end, error] = std::from_chars(node.text.data() + 1, node.text.data() + node.text.size(), index);
    return error == std::errc() && end == node.text.data() + node.text.size() ? index : 0;
  }

  // The Nth argument of the use, else of the nearest enclosing use that has one; null for none.
  const Node* argument(std::size_t index, const std::vector<Node>& arguments) const {
    if (index <= arguments.size()) return &arguments[index - 1];
    for (auto use = uses_.rbegin(); use != uses_.rend(); ++use)
      if (index <= use->arguments.size()) return &use->arguments[index - 1];
    return nullptr;
  }

  // Appends `body` with $1.. replaced by the arguments to `out`; the body's own nodes take the
  // use's position. An argument no use gives appends nothing.
  void substitute_into(const Node& body, const std::vector<Node>& arguments, const Node& use, std::vector<Node>& out) {
    if (const std::size_t index = argument_index(body)) {
      if (const Node* given = argument(index, arguments)) out.push_back(*given);
      return;
    }
    if (++expanded_nodes_ > kMaxExpandedNodes) too_large(use);
    Node copy;
    copy.kind = body.kind;
    copy.text = body.is_list() ? body.text : substituted_within(body.text, arguments);
    copy.integer = body.integer;
    copy.pos = use.pos;
    for (const Node& item : body.items) substitute_into(item, arguments, use, copy.items);
    out.push_back(std::move(copy));
  }

  // `text` (a longer word or a string) with each $N in it replaced by the text of that argument,
  // when the argument is a word (a number as its value): Zillions' macros are text, and files name
  // a piece T$1 in a macro that defines a piece per use. $N whose argument is a list, or that no use
  // gives, stays.
  std::string substituted_within(const std::string& text, const std::vector<Node>& arguments) const {
    std::string result;
    for (std::size_t at = 0; at < text.size();) {
      std::size_t index = 0;
      const char* digits = text.data() + at + 1;
      const auto [end, error] = text[at] == '$' ? std::from_chars(digits, text.data() + text.size(), index)
                                                : std::from_chars_result{digits, std::errc::invalid_argument};
      const Node* given = error == std::errc() && index > 0 ? argument(index, arguments) : nullptr;
      if (given && !given->is_list()) {
        result += given->kind == Node::Kind::Integer ? std::to_string(given->integer) : given->text;
        at = static_cast<std::size_t>(end - text.data());
      } else {
        result += text[at++];
      }
    }
    return result;
  }

  static const std::string& name_of(const Node& macro) { return macro.items[1].text; }

  // The macros a macro's definition uses, by name.
  std::set<std::string> used_by(const Node& macro) const {
    std::set<std::string> used;
    std::vector<const Node*> pending;
    for (std::size_t i = 2; i < macro.items.size(); ++i) pending.push_back(&macro.items[i]);
    while (!pending.empty()) {
      const Node* node = pending.back();
      pending.pop_back();
      if (node->is_symbol() && macros_.count(node->text)) used.insert(node->text);
      for (const Node& item : node->items) pending.push_back(&item);
    }
    return used;
  }

  // The shortest chain of definitions by which `name` uses itself: {name} when its definition uses
  // it, {name, b} when it uses b whose definition uses it, ...; empty when it never does.
  std::vector<std::string> cycle_of(const std::string& name) const {
    std::map<std::string, std::string> reached_from;  // breadth first over the definitions
    std::vector<std::string> frontier = {name};
    while (!frontier.empty()) {
      std::vector<std::string> next;
      for (const std::string& from : frontier)
        for (const std::string& used : used_by(*macros_.at(from))) {
          if (used == name) {
            std::vector<std::string> cycle = {from};
            while (cycle.back() != name) cycle.push_back(reached_from.at(cycle.back()));
            std::reverse(cycle.begin(), cycle.end());
            return cycle;
          }
          if (reached_from.emplace(used, from).second) next.push_back(used);
        }
      frontier = std::move(next);
    }
    return {};
  }

  // Uses nested more than kMaxMacroDepth deep: a macro on the way whose definition uses itself,
  // directly or through others, never ends; otherwise the uses are merely deep.
  [[noreturn]] void too_deep(const Node& node, const std::string& name) const {
    std::vector<std::string> names;
    for (const Use& use : uses_) names.push_back(name_of(*use.macro));
    names.push_back(name);
    for (const std::string& on_the_way : names) {
      const std::vector<std::string> cycle = cycle_of(on_the_way);
      if (cycle.empty()) continue;
      std::string through;
      for (std::size_t i = 1; i < cycle.size(); ++i)
        through += fmt::format("{}'{}'", i == 1 ? " through " : i + 1 == cycle.size() ? " and " : ", ", cycle[i]);
      report_.mistake(node, fmt::format("the macro '{}' uses itself{}, so its expansion never ends", cycle[0], through),
                      "a macro may use other macros, but not itself");
    }
    report_.missing_feature(
        node,
        fmt::format("macros are expanded more than {} deep here, from '{}' down to '{}'", kMaxMacroDepth,
                    name_of(*uses_.front().macro), name),
        fmt::format("none of them uses itself, but troyka expands macros at most {} deep", kMaxMacroDepth));
  }

  // More than kMaxExpandedNodes forms in all: says in which use, and how deep, the count passed it.
  [[noreturn]] void too_large(const Node& use) const {
    const std::string& inner = name_of(*use_of(use));
    const std::string& outer = uses_.empty() ? inner : name_of(*uses_.front().macro);
    report_.missing_feature(use, fmt::format("the macros expand to more than {} forms", kMaxExpandedNodes),
                            uses_.empty()
                                ? fmt::format("the count passes it in this use of '{}'", outer)
                                : fmt::format("the count passes it in this use of '{}', which nests macros {} deep, "
                                              "down to '{}'",
                                              outer, uses_.size() + 1, inner));
  }

  Reporter& report_;
  std::map<std::string, const Node*, std::less<>> macros_;
  std::vector<Use> uses_;  // the uses whose bodies are being expanded, outermost first
  std::size_t expanded_nodes_ = 0;
};

// ---- Pass 2: the game and its variants --------------------------------------------------------

// What a variant's form replaces in the game: pieces by name, win and loss conditions together (a
// variant that turns a win into a loss drops the win, as in the Zillions tutorial's Losing
// Tic-Tac-Toe), every other form by its keyword.
std::string replacement_key(const Node& form) {
  std::string head(form.head());
  if (head == "piece")
    for (const Node& part : form.items)
      if (part.head() == "name" && part.items.size() > 1) return "piece " + part.items[1].text;
  if (head == "win-condition" || head == "loss-condition") return "goals";
  return head;
}

std::string title_of(const Node& block) {
  for (const Node& form : block.items)
    if (form.head() == "title" && form.items.size() > 1 && form.items[1].kind == Node::Kind::String)
      return form.items[1].text;
  return {};
}

class VariantPicker {
 public:
  explicit VariantPicker(const Reporter& report) : report_(report) {}

  // The forms of the chosen game: the (game ...) form's, with the chosen variant's replacing them.
  // `title` becomes the chosen variant's title ("" for the game itself). Without a choice, the game
  // or variant marked (default) is chosen (the first in the file, when several are), else the game.
  Node pick(const std::vector<Node>& forms, const std::string& wanted, std::string& title) const {
    const Node* game = nullptr;
    std::vector<const Node*> variants;
    int marked = -1;  // the number of the one marked (default): 0 for the game
    for (const Node& form : forms) {
      const std::string_view head = form.head();
      if (head == "game") {
        if (game)
          report_.missing_feature(form, "troyka reads one '(game ...)' per ZRF file",
                                  "put the second game in its own file, or make it a (variant ...)");
        game = &form;
        if (marked < 0 && marked_default(form)) marked = 0;
      } else if (head == "variant") {
        variants.push_back(&form);
        if (marked < 0 && marked_default(form)) marked = static_cast<int>(variants.size());
      } else if (head != "version") {
        report_.mistake(
            form, fmt::format("expected '(game ...)', '(variant ...)' or '(define ...)' at the top level, found {}",
                              describe(form)));
      }
    }
    if (!game)
      report_.mistake_at({}, "the file holds no '(game ...)'",
                         "a ZRF file describes its game in (game (title \"...\") ...)");
    const int chosen = wanted.empty() ? std::max(marked, 0) : variant_number(wanted, *game, variants, marked);
    if (chosen == 0) return *game;
    title = title_of(*variants[static_cast<std::size_t>(chosen - 1)]);
    if (title.empty()) title = std::to_string(chosen);
    return merged(*game, *variants[static_cast<std::size_t>(chosen - 1)]);
  }

 private:
  // Zillions loads the game or variant marked (default) when the file is opened.
  static bool marked_default(const Node& block) {
    return std::any_of(block.items.begin(), block.items.end(),
                       [](const Node& form) { return form.head() == "default"; });
  }

  int variant_number(const std::string& wanted, const Node& game, const std::vector<const Node*>& variants,
                     int marked) const {
    int number = -1;
    const auto [end, error] = std::from_chars(wanted.data(), wanted.data() + wanted.size(), number);
    if (error == std::errc() && end == wanted.data() + wanted.size() && number >= 0 &&
        number <= static_cast<int>(variants.size()))
      return number;
    if (wanted == title_of(game)) return 0;
    std::vector<std::string> titles;
    for (std::size_t i = 0; i < variants.size(); ++i) {
      titles.push_back(title_of(*variants[i]));
      if (titles.back() == wanted) return static_cast<int>(i) + 1;
    }
    std::string listing = fmt::format("0 \"{}\" (the game itself)", title_of(game));
    for (std::size_t i = 0; i < titles.size(); ++i)
      listing +=
          fmt::format(", {} \"{}\"{}", i + 1, titles[i], static_cast<int>(i) + 1 == marked ? " (the default)" : "");
    const std::string close = closest_match(wanted, titles);
    throw Error(Diagnostic{
        nullptr,
        {},
        fmt::format("--variant: this ZRF file has no variant \"{}\"", wanted),
        (close.empty() ? "" : fmt::format("did you mean \"{}\"? ", close)) + "choose by number or title: " + listing});
  }

  static Node merged(const Node& game, const Node& variant) {
    std::set<std::string> replaced;
    for (std::size_t i = 1; i < variant.items.size(); ++i) replaced.insert(replacement_key(variant.items[i]));
    Node result = game;
    result.items.clear();
    for (const Node& form : game.items)
      if (!replaced.count(replacement_key(form)) || form.is_symbol()) result.items.push_back(form);
    result.items.insert(result.items.end(), variant.items.begin() + 1, variant.items.end());
    return result;
  }

  const Reporter& report_;
};

// ---- Pass 3: lowering -------------------------------------------------------------------------

// A grid's dimension: names in listing order and the screen offset between neighbours.
struct Dimension {
  std::vector<std::string> names;
  int dx = 0;
  int dy = 0;
  const Node* node = nullptr;
};

class Lowering {
 public:
  Lowering(const Reporter& report, Rules& rules) : report_(report), rules_(rules) {}

  void run(const Node& game) {
    collect(game);
    read_title();
    read_players();
    read_board();
    read_move_priorities();
    read_pieces();
    if (most_kings_) rules_.capture_most_of = crowned_pieces();
    read_setup();
    place_drops();
    read_goals();
    read_royal_pieces();
    check_chess_invariant();
    assign_facings(rules_);
    lower_core_pieces();
  }

 private:
  // A move body of a piece whose moves go to the core, with its (move-type ...), or "".
  struct CoreBody {
    const Node* node = nullptr;
    std::string type;
  };
  struct CorePiece {
    int piece = 0;
    std::vector<CoreBody> bodies;
  };
  // What a cell whose piece the move has captured holds for the tests that follow: its piece, as on
  // the board before the move (Zillions applies a part's captures when it is added); nothing when
  // an earlier part of a move of several parts captured it (a part is played on the board the last
  // part left), its piece still when this part did; or a piece that
  // blocks, which no test but "any" sees and which cannot be captured again ("deferred captures":
  // captured pieces leave the board when the move ends).
  enum class Captured { Stands, Gone, Blocks };
  // How a body is read into the core: for which player, and what its captured cells hold.
  struct Run {
    int player = 0;
    Captured captured = Captured::Stands;
    int piece = -1;  // whose moves: the piece a bare add-partial goes on as
    // Surely at the cell the part started from, where Zillions' mover still stands (the core's
    // frozen board reads that cell empty): tests there are known, and an add there that comes after
    // no action would change nothing (at_origin). Whether a mark was made there, and whether the run
    // has acted (captured, flipped...) so far.
    bool at_origin = false;
    bool marked_at_origin = false;
    bool acted = false;
  };
  // Where an add-partial hands the move on: the piece it goes on as (promoted when the add-partial
  // names one) and the move type of the parts that may follow ("" for any of the piece's moves).
  struct Partial {
    int piece = -1;
    std::string type;
    auto operator<=>(const Partial&) const = default;
  };
  // Which adds end the runs wanted: an add, or an add-partial that goes on as `to`.
  enum class End { Add, AddPartial };
  struct Stop {
    End end = End::Add;
    Partial to;
  };

  // ---- helpers ----

  [[noreturn]] void missing_feature(const Node& at, std::string message, std::string hint = {}) const {
    report_.missing_feature(at, std::move(message), std::move(hint));
  }
  [[noreturn]] void mistake(const Node& at, std::string message, std::string hint = {}) const {
    report_.mistake(at, std::move(message), std::move(hint));
  }
  [[noreturn]] void unread(const Node& at, std::string_view word, std::string message, std::string hint = {}) const {
    report_.unread(at, word, std::move(message), std::move(hint));
  }

  [[noreturn]] void unsupported(const Node& at, std::string_view keyword) const { report_.unsupported(at, keyword); }

  const Node& argument(const Node& form, std::size_t index, std::string_view what) const {
    if (index < form.items.size()) return form.items[index];
    mistake(form, fmt::format("'({} ...)' is missing its {}", form.head(), what));
  }

  std::string symbol(const Node& node, std::string_view what) const {
    if (!node.is_symbol()) mistake(node, fmt::format("expected {} here, found {}", what, describe(node)));
    return node.text;
  }

  std::string string(const Node& node, std::string_view what) const {
    if (node.kind != Node::Kind::String)
      mistake(node, fmt::format("expected {} as a \"string\", found {}", what, describe(node)));
    return node.text;
  }

  int number(const Node& node, int low, int high, std::string_view what) const {
    if (node.kind != Node::Kind::Integer)
      mistake(node, fmt::format("expected {} (a number), found {}", what, describe(node)));
    if (node.integer < low || node.integer > high)
      mistake(node, fmt::format("{} must be between {} and {}, but it is {}", what, low, high, node.integer));
    return static_cast<int>(node.integer);
  }

  const std::vector<const Node*>& forms(const std::string& keyword) const {
    static const std::vector<const Node*> none;
    const auto it = forms_.find(keyword);
    return it == forms_.end() ? none : it->second;
  }

  // The one form of a keyword that collect() found at least once; a second is an error.
  const Node& single(const std::string& keyword) const {
    const auto& found = forms(keyword);
    if (found.size() > 1)
      mistake(*found[1], fmt::format("'({} ...)' appears twice; the first is at line {}", keyword, found[0]->pos.line));
    return *found.front();
  }

  // ---- the game's forms ----

  void collect(const Node& game) {
    for (std::size_t i = 1; i < game.items.size(); ++i) {
      const Node& form = game.items[i];
      const std::string head(form.head());
      if (head.empty())
        mistake(form, fmt::format("expected a form like '(players ...)' in the game, found {}", describe(form)));
      if (kIgnoredGameForms.count(head)) continue;
      if (head == "default") continue;  // which game or variant loads first: VariantPicker read it
      if (head == "option") {
        const Node& name = argument(form, 1, "NAME");
        check_option(string(name, "the option's name"), name, form, 2);
        continue;
      }
      if (const auto option = kOptionForms.find(head); option != kOptionForms.end()) {
        check_option(option->second, form.items.front(), form, 1);
        continue;
      }
      if (kUnsupported.count(head)) unsupported(form.items.front(), head);
      if (std::find(kGameForms.begin(), kGameForms.end(), head) == kGameForms.end())
        unread(form.items.front(), head, fmt::format("unknown ZRF form '{}' in a game", head),
               suggest(head, kGameForms));
      forms_[head].push_back(&form);
    }
    // A game without a board-setup starts with an empty board (read_setup).
    for (const char* required : {"players", "board", "piece"})
      if (forms(required).empty()) mistake(game, fmt::format("the game has no '({} ...)'", required));
  }

  // (option "NAME" VALUE), or its older form, with the value at `value_at` in `form`: display
  // options and rule options at their default are read and ignored, the rule values troyka plays are
  // read (read_rule_option); any other is refused as a missing feature, at `at`.
  void check_option(const std::string& written, const Node& at, const Node& form, std::size_t value_at) {
    const std::string name = option_name(written);
    if (name == kIncludeOffPieces) include_off_pieces_ = !argument(form, value_at, "VALUE").is_symbol("false");
    if (kDisplayOptions.count(name) || kInertOptions.count(name)) return;
    const std::string* meaning = rule_option_meaning(name);
    if (!meaning && loads_dagaz_module(name))
      missing_feature(
          at,
          fmt::format("the option \"{}\" loads the Dagaz project's JavaScript module of that name, whose rules are "
                      "not in the file, which troyka cannot play",
                      written),
          "troyka plays the rules the ZRF file itself gives");
    if (!meaning) {
      std::vector<std::string> known(kDisplayOptions.begin(), kDisplayOptions.end());
      known.insert(known.end(), kInertOptions.begin(), kInertOptions.end());
      for (const auto& [known_name, what] : kRuleOptions) known.push_back(known_name);
      for (const auto& [known_name, what] : kDagazRuleOptions) known.push_back(known_name);
      missing_feature(at,
                      fmt::format("unknown option \"{}\": troyka cannot tell whether it changes the rules", written),
                      suggest(name, known));
    }
    const Node& value = argument(form, value_at, "VALUE");
    if (value.is_symbol("false") || read_rule_option(name, value, at)) return;
    missing_feature(
        at, unplayable_option(written, name, value, *meaning),
        fmt::format("\"{}\" false, the game without the option, is read, and so are the options that only change "
                    "the display",
                    name));
  }

  // Why a rule option's value is refused: troyka cannot play the option at all, or this value of it.
  static std::string unplayable_option(const std::string& written, const std::string& name, const Node& value,
                                       const std::string& meaning) {
    const auto read = kReadRuleValues.find(name);
    if (read == kReadRuleValues.end())
      return fmt::format("the option \"{}\" {} is not supported yet: {}, which troyka cannot play", written,
                         to_text(value), meaning);
    return fmt::format("the option \"{}\" {} is not supported yet: troyka plays this option ({}) only as {}", written,
                       to_text(value), meaning, values_read(read->second));
  }

  // "false or forced", "false, forced or true": the values of an option troyka plays, false first.
  static std::string values_read(const std::vector<std::string>& values) {
    std::string text = "false";
    for (std::size_t i = 0; i < values.size(); ++i) text += (i + 1 == values.size() ? " or " : ", ") + values[i];
    return text;
  }

  // The option's name as troyka knows it: as written, else with its dashes read as spaces, as the
  // Dagaz project's runtime reads names (its converter writes "smart-moves" for "smart moves"; its
  // files write either).
  static std::string option_name(const std::string& written) {
    if (kDisplayOptions.count(written) || kInertOptions.count(written) || rule_option_meaning(written)) return written;
    std::string spaced = written;
    std::replace(spaced.begin(), spaced.end(), '-', ' ');
    return spaced;
  }

  static bool loads_dagaz_module(const std::string& name) {
    const std::size_t space = name.rfind(' ');
    if (space == std::string::npos) return false;
    return std::find(kDagazModuleWords.begin(), kDagazModuleWords.end(), name.substr(space + 1)) !=
           kDagazModuleWords.end();
  }

  // What a rule option, Zillions' or the Dagaz runtime's, does; null for an unknown option.
  static const std::string* rule_option_meaning(const std::string& name) {
    for (const auto* options : {&kRuleOptions, &kDagazRuleOptions})
      if (const auto option = options->find(name); option != options->end()) return &option->second;
    return nullptr;
  }

  // Reads a rule option's value other than false when troyka plays it (kReadRuleValues); false when not.
  bool read_rule_option(const std::string& name, const Node& value, const Node& at) {
    const auto read = kReadRuleValues.find(name);
    if (read == kReadRuleValues.end() || std::none_of(read->second.begin(), read->second.end(),
                                                      [&](const std::string& v) { return to_text(value) == v; }))
      return false;
    // "forced": a player may pass only when it has no other move (Polygamo's GameModel.GenerateMoves):
    // troyka's (pass-when-stuck), except that a position where neither player can move ends the game
    // by the stalemate goals instead of passing for ever (docs/zrf.md). true: a player may pass at any
    // turn, a game rule of the general back end (lower_core_pieces).
    if (name == "pass turn" && value.is_symbol("forced")) rules_.pass_when_stuck = true;
    if (name == "pass turn" && value.is_symbol("true")) pass_any_turn_ = &at;
    // A move of several parts (add-partial) may stop after any part, not only where none can follow.
    if (name == "pass partial") pass_partial_ = true;
    // The player must make a move that captures the most pieces: troyka's (prefer (most captures)),
    // which counts the captures of all the parts of a move.
    if (name == "maximal captures") rules_.must_capture = rules_.capture_most = true;
    // 2: of the moves that capture the most pieces, those that capture the most kings (crowned_pieces).
    if (name == "maximal captures") most_kings_ = value.kind == Node::Kind::Integer;
    if (name == "deferred captures") deferred_captures_ = true;
    // Zillions keeps a king out of check when a checkmated goal names it (read_royal_pieces); the
    // option asks the Dagaz runtime for the same, which check_chess_invariant requires.
    if (name == "chess invariant") chess_invariant_ = &at;
    return true;
  }

  // "chess invariant" true keeps a king out of attack in Dagaz's JavaScript; troyka reads it only where
  // the file's own (checkmated ...) goal gives that rule, which Zillions plays.
  void check_chess_invariant() const {
    if (!chess_invariant_ || !royal_pieces_.empty()) return;
    missing_feature(
        *chess_invariant_,
        "the option \"chess invariant\" true keeps a king out of attack in the Dagaz project's JavaScript, and no "
        "(checkmated ...) goal names the piece to keep safe, which troyka cannot play",
        "with a goal such as (loss-condition (White Black) (checkmated King)) the option is the rule that goal gives");
  }

  void read_title() {
    const auto& titles = forms("title");
    rules_.name = titles.empty() ? "ZRF game" : string(argument(*titles.back(), 1, "TITLE"), "the title");
    const auto& descriptions = forms("description");
    if (!descriptions.empty()) rules_.about = string(argument(*descriptions.back(), 1, "TEXT"), "the description");
  }

  // ---- players ----

  // (players NAME...): 1 to kMaxPlayers players, a puzzle's one ((players You)) included.
  void read_players() {
    const Node& form = single("players");
    const std::size_t count = form.items.size() - 1;
    if (count == 0) mistake(form, "the game lists no player", "write (players White Black)");
    if (count > static_cast<std::size_t>(kMaxPlayers))
      missing_feature(form.items[kMaxPlayers + 1],
                      fmt::format("troyka plays games of at most {} players; this one lists {}", kMaxPlayers, count));
    rules_.players.resize(count);
    for (std::size_t p = 0; p < count; ++p) {
      const Node& name = form.items[p + 1];
      rules_.players[p].name = symbol(name, "a player name");
      rules_.players[p].pos = name.pos;
      for (std::size_t earlier = 0; earlier < p; ++earlier)
        if (rules_.players[earlier].name == rules_.players[p].name)
          mistake(name, fmt::format("two players are called '{}'", rules_.players[p].name));
    }
    read_turn_order();
  }

  int players() const { return rules_.player_count(); }

  // (turn-order TURN... [repeat TURN...]): who moves at each ply, the turns before `repeat` once and
  // those after it (all of them, without `repeat`) again and again. troyka plays the orders that are
  // its (turn (actions N) (first M)): the first player moves M times, then each player N times in
  // turn. The players are troyka's in the order they first move: the first to move is the first.
  void read_turn_order() {
    if (forms("turn-order").empty()) return;
    const Node& order = single("turn-order");
    std::vector<int> once, cycle;
    bool repeats = false;
    for (std::size_t i = 1; i < order.items.size(); ++i) {
      const Node& turn = order.items[i];
      if (turn.is_symbol("repeat")) {
        if (repeats) mistake(turn, "'repeat' appears twice in the turn order");
        repeats = true;
      } else if (turn.is_list()) {
        missing_feature(turn, "a turn that names a move type, (PLAYER TYPE), is not supported yet",
                        "troyka plays turn orders of player names, with or without repeat");
      } else {
        (repeats ? cycle : once).push_back(player_index(turn));
      }
    }
    if (!repeats) std::swap(once, cycle);
    if (cycle.empty()) mistake(order, "the turn order has no turn to repeat");
    if (players() == 1) return;  // every turn is the one player's
    for (int p = 0; p < players(); ++p)
      if (std::find(cycle.begin(), cycle.end(), p) == cycle.end())
        missing_feature(order, fmt::format("in this turn order {} never moves once the first turns are over: a player "
                                           "without turns is not supported",
                                           rules_.players[p].name));
    const auto mover_at = [&](std::size_t ply) {
      return ply < once.size() ? once[ply] : cycle[(ply - once.size()) % cycle.size()];
    };
    std::size_t first = 1, then = 1;  // the first run of one player's moves, and the next
    while (mover_at(first) == mover_at(0)) ++first;
    while (mover_at(first + then) == mover_at(first)) ++then;
    // The players in the order of their turns: the first run's, then the next runs' of `then` moves.
    const auto count = static_cast<std::size_t>(players());
    std::vector<int> turns{mover_at(0)};
    for (std::size_t run = 1; run < count; ++run) turns.push_back(mover_at(first + (run - 1) * then));
    const auto mover_expected = [&](std::size_t ply) {
      return ply < first ? turns[0] : turns[(1 + (ply - first) / then) % count];
    };
    // Both orders repeat from the later of their starts; a window of a common period shows them equal.
    const std::size_t window = std::max(once.size(), first) + cycle.size() * count * then;
    for (std::size_t ply = 0; ply < window; ++ply)
      if (mover_at(ply) != mover_expected(ply))
        missing_feature(
            order,
            fmt::format("troyka plays a turn order of one first turn and then turns of the same length (here {} "
                        "moves of {}, then {} each); this one gives move {} to {}",
                        first, rules_.players[mover_at(0)].name, then, ply + 1, rules_.players[mover_at(ply)].name),
            "(turn-order White Black), (turn-order White White Black Black) and (turn-order White repeat Black "
            "Black White White) are read");
    if (std::max(first, then) > static_cast<std::size_t>(kMaxTurnActions))
      missing_feature(order, fmt::format("a turn of more than {} moves is not supported", kMaxTurnActions));
    rules_.first_turn_actions = static_cast<int>(first);
    rules_.turn_actions = static_cast<int>(then);
    std::vector<Player> in_turn_order;
    for (const int p : turns) in_turn_order.push_back(rules_.players[static_cast<std::size_t>(p)]);
    rules_.players = std::move(in_turn_order);
  }

  int player_index(const Node& node) const {
    const std::string name = symbol(node, "a player name");
    const int index = lang::player_index(rules_, name);
    if (index < 0) mistake(node, fmt::format("unknown player '{}'", name), suggest(name, player_names(rules_)));
    return index;
  }

  // A list of players such as (White Black): which of the players it names.
  std::array<bool, kMaxPlayers> player_set(const Node& node) const {
    std::array<bool, kMaxPlayers> set{};
    if (!node.is_list() || node.items.empty())
      mistake(node, fmt::format("expected a list of players such as ({}), found {}",
                                fmt::join(player_names(rules_), " "), describe(node)));
    for (const Node& item : node.items) set[static_cast<std::size_t>(player_index(item))] = true;
    return set;
  }

  // ---- board ----

  // The forms of a board that place positions and join them.
  struct BoardForms {
    std::vector<const Node*> grids, positions, links, unlinks;
  };

  // A board is read as a rectangle with holes, whose directions are offsets and run on the fast
  // tables, when it is one (read_rectangle); any other board is a graph of named positions joined by
  // links (read_graph), which runs on the general back end.
  void read_board() {
    const Node& board = single("board");
    BoardForms forms;
    for (std::size_t i = 1; i < board.items.size(); ++i) {
      const Node& form = board.items[i];
      const std::string head(form.head());
      if (head == "image" || head == "kill-positions" || head == "symmetry" || head == "zone") continue;
      if (head == "grid")
        forms.grids.push_back(&form);
      else if (head == "positions")
        forms.positions.push_back(&form);
      else if (head == "links")
        forms.links.push_back(&form);
      else if (head == "unlink")
        forms.unlinks.push_back(&form);
      else if (kUnsupported.count(head))
        unsupported(form, head);
      else
        unread(form, head, fmt::format("unknown form {} in a board", describe(form)),
               suggest(head, {"grid", "positions", "links", "unlink", "symmetry", "zone", "image", "kill-positions"}));
    }
    const auto names_some = [](const Node* positions) { return positions->items.size() > 1; };
    if (forms.grids.empty() && std::none_of(forms.positions.begin(), forms.positions.end(), names_some))
      mistake(board, "the board has no '(grid ...)' and no position",
              "a board is a (grid ...) with dimensions and directions, or (positions ...) joined by (links ...)");
    // Removing links leaves a rectangle's offsets behind: such a board is a graph.
    if (!forms.unlinks.empty() || !read_rectangle(forms)) read_graph(forms);
    for (std::size_t i = 1; i < board.items.size(); ++i)
      if (board.items[i].head() == "kill-positions") kill_positions(board.items[i]);
    for (std::size_t i = 1; i < board.items.size(); ++i) {
      if (board.items[i].head() == "symmetry") read_symmetry(board.items[i]);
      if (board.items[i].head() == "zone") read_zone(board.items[i]);
    }
  }

  // One grid of two dimensions, one across the screen and one down or up, whose links add
  // directions that are offsets; or positions named as the cells of a rectangle, joined by links
  // that are offsets. False, with nothing read, for any other board.
  bool read_rectangle(const BoardForms& forms) {
    const bool one_grid = forms.grids.size() == 1 && forms.positions.empty() && rectangular(*forms.grids.front());
    if (!one_grid && !(forms.grids.empty() && named_as_cells(forms.positions))) return false;
    if (one_grid)
      read_grid(*forms.grids.front());
    else
      read_positions(forms.positions);
    if (read_links(forms.links)) return true;
    rules_.width = rules_.height = 0;
    rules_.holes.clear();
    position_cells_.clear();
    position_names_.clear();
    directions_.clear();
    rules_.link_directions.clear();
    return false;
  }

  // Whether a grid has two dimensions, one across the screen and the other down or up.
  bool rectangular(const Node& grid) const {
    for (const Node& form : grid.items) {
      if (form.head() != "dimensions") continue;
      if (form.items.size() != 3) return false;
      const Dimension first = dimension(form.items[1]), second = dimension(form.items[2]);
      return (across(first) && upright(second)) || (upright(first) && across(second));
    }
    return true;  // read_grid says what is missing
  }
  static bool across(const Dimension& d) { return d.dy == 0 && d.dx != 0; }
  static bool upright(const Dimension& d) { return d.dx == 0 && d.dy != 0; }

  static bool named_as_cells(const std::vector<const Node*>& forms) {
    for (const Node* form : forms)
      for (std::size_t i = 1; i < form->items.size(); ++i) {
        const Node& entry = form->items[i];
        if (entry.is_list() && !entry.items.empty() && entry.items[0].is_symbol() &&
            parse_cell(entry.items[0].text, kMaxBoardSide, kMaxBoardSide) < 0)
          return false;
      }
    return true;
  }

  // ---- boards as graphs ----
  //
  // Zillions' board is a set of named positions, each with a place on the screen, and a link per
  // position and direction to its neighbour that way: a grid's positions are each name of its first
  // dimension followed by each of the second's (and so on), its directions link each position to
  // the one so many names further along each dimension, and (links DIR (FROM TO)...) adds links,
  // replacing the one a position had that way. troyka keeps that graph as it is: each position is a
  // cell of a chart laid out by the positions' places on the screen, the chart's other cells are
  // holes, and every step goes along a link (lang::Rules::links on a points board).

  struct GraphPosition {
    std::string name;
    int x = 0, y = 0;  // the top left corner of its screen rectangle
    const Node* at = nullptr;
  };

  void read_graph(const BoardForms& forms) {
    std::vector<GraphPosition> positions;
    std::map<std::pair<std::string, std::string>, std::string> grid_links;  // (from, direction) -> to, by name
    for (const Node* grid : forms.grids) read_graph_grid(*grid, positions, grid_links);
    for (const Node* form : forms.positions)
      for (std::size_t i = 1; i < form->items.size(); ++i) {
        const Node& entry = form->items[i];
        if (!entry.is_list() || entry.items.size() < 3 || !entry.items[0].is_symbol())
          mistake(entry, fmt::format("expected a position like (a1 0 0 50 50), found {}", describe(entry)));
        positions.push_back({entry.items[0].text, number(entry.items[1], -1000000, 1000000, "a screen coordinate"),
                             number(entry.items[2], -1000000, 1000000, "a screen coordinate"), &entry.items[0]});
      }
    lay_out(positions);
    rules_.points = true;
    // (from, direction's dx, dy) -> to: a later link replaces an earlier one
    std::map<std::tuple<int, int, int>, int> links;
    const auto link = [&](int from, Offset way, int to) { links[{from, way.dx, way.dy}] = to; };
    for (const auto& [from_way, to] : grid_links)
      link(position_cells_.at(from_way.first), graph_direction(from_way.second), position_cells_.at(to));
    for (const Node* form : forms.links) {
      const Node& name = argument(*form, 1, "DIRECTION");
      const Offset way = graph_direction(symbol(name, "a direction name"));
      for (std::size_t i = 2; i < form->items.size(); ++i) {
        const Node& pair = form->items[i];
        if (!pair.is_list() || pair.items.size() != 2)
          mistake(pair, fmt::format("expected a link like (a1 a2), found {}", describe(pair)));
        const int from = named_position(pair.items[0]), to = named_position(pair.items[1]);
        if (from == to) mistake(pair, "a position linked to itself does not move");
        link(from, way, to);
      }
    }
    // (unlink (FROM TO)...): no direction leads from FROM to TO any more.
    std::set<std::pair<int, int>> removed;
    for (const Node* form : forms.unlinks)
      for (std::size_t i = 1; i < form->items.size(); ++i) {
        const Node& pair = form->items[i];
        if (!pair.is_list() || pair.items.size() != 2)
          mistake(pair, fmt::format("expected a link to remove like (a1 a2), found {}", describe(pair)),
                  "troyka reads (unlink (FROM TO)...): no direction leads from FROM to TO any more");
        removed.emplace(named_position(pair.items[0]), named_position(pair.items[1]));
      }
    for (const auto& [from_way, to] : links) {
      const auto [from, dx, dy] = from_way;
      if (!removed.count({from, to})) rules_.links.push_back({{dx, dy}, from, to});
    }
  }

  // A grid's positions and the links its directions make, by name. Its dimensions may be any
  // number, running any way across the screen; a position's place is the start rectangle's corner
  // moved by each dimension's offset once per name before its own.
  void read_graph_grid(const Node& grid, std::vector<GraphPosition>& positions,
                       std::map<std::pair<std::string, std::string>, std::string>& links) {
    std::vector<Dimension> dimensions;
    int x = 0, y = 0;
    std::vector<const Node*> directions;
    for (std::size_t i = 1; i < grid.items.size(); ++i) {
      const Node& form = grid.items[i];
      if (form.head() == "dimensions") {
        for (std::size_t j = 1; j < form.items.size(); ++j) dimensions.push_back(dimension(form.items[j]));
      } else if (form.head() == "start-rectangle") {
        x = number(argument(form, 1, "X"), -1000000, 1000000, "a screen coordinate");
        y = number(argument(form, 2, "Y"), -1000000, 1000000, "a screen coordinate");
      } else if (form.head() == "directions") {
        for (std::size_t j = 1; j < form.items.size(); ++j) directions.push_back(&form.items[j]);
      } else if (kUnsupported.count(form.head())) {
        unsupported(form, form.head());
      } else {
        unread(form, form.head(), fmt::format("unknown form {} in a grid", describe(form)),
               suggest(std::string(form.head()), {"dimensions", "directions", "start-rectangle"}));
      }
    }
    if (dimensions.empty()) mistake(grid, "the grid has no '(dimensions ...)'");
    // Every combination of one name per dimension, the first dimension's name first.
    std::vector<std::vector<int>> indices = {{}};
    for (const Dimension& d : dimensions) {
      std::vector<std::vector<int>> longer;
      for (const std::vector<int>& start : indices)
        for (std::size_t k = 0; k < d.names.size(); ++k) {
          longer.push_back(start);
          longer.back().push_back(static_cast<int>(k));
        }
      indices = std::move(longer);
    }
    const auto name_of = [&](const std::vector<int>& index) {
      std::string name;
      for (std::size_t k = 0; k < dimensions.size(); ++k)
        name += dimensions[k].names[static_cast<std::size_t>(index[k])];
      return name;
    };
    for (const std::vector<int>& index : indices) {
      GraphPosition position{name_of(index), x, y, &grid};
      for (std::size_t k = 0; k < dimensions.size(); ++k) {
        position.x += index[k] * dimensions[k].dx;
        position.y += index[k] * dimensions[k].dy;
      }
      positions.push_back(std::move(position));
    }
    for (const Node* direction : directions) {
      if (!direction->is_list() || direction->items.size() != dimensions.size() + 1 || !direction->items[0].is_symbol())
        mistake(*direction, fmt::format("expected a direction of a name and {} steps, like (n 0 -1), found {}",
                                        dimensions.size(), describe(*direction)));
      graph_direction(direction->items[0].text);  // a direction with no link still has a name
      for (const std::vector<int>& index : indices) {
        std::vector<int> next = index;
        bool inside = true;
        for (std::size_t k = 0; k < dimensions.size(); ++k) {
          next[k] += number(direction->items[k + 1], -kMaxBoardSide, kMaxBoardSide, "a direction's step");
          inside = inside && next[k] >= 0 && next[k] < static_cast<int>(dimensions[k].names.size());
        }
        if (inside) links[{name_of(index), direction->items[0].text}] = name_of(next);
      }
    }
  }

  // Each position a cell of a chart: the columns are the positions' distinct places across the
  // screen, the rows their distinct places down it (the top row last, as troyka counts rows from
  // the bottom), when that chart fits a troyka board and gives each position a cell of its own;
  // else the positions in the order given, row after row of a square.
  void lay_out(const std::vector<GraphPosition>& positions) {
    const int count = static_cast<int>(positions.size());
    if (count > kMaxBoardSide * kMaxBoardSide)
      missing_feature(*positions.back().at, fmt::format("the board has {} positions; troyka boards hold at most {}",
                                                        count, kMaxBoardSide * kMaxBoardSide));
    std::set<int> xs, ys;
    for (const GraphPosition& position : positions) {
      xs.insert(position.x);
      ys.insert(position.y);
    }
    const auto rank = [](const std::set<int>& values, int value) {
      return static_cast<int>(std::distance(values.begin(), values.find(value)));
    };
    std::vector<int> cells;
    if (xs.size() <= static_cast<std::size_t>(kMaxBoardSide) && ys.size() <= static_cast<std::size_t>(kMaxBoardSide)) {
      rules_.width = static_cast<int>(xs.size());
      rules_.height = static_cast<int>(ys.size());
      for (const GraphPosition& position : positions)
        cells.push_back(rules_.cell(rank(xs, position.x), rules_.height - 1 - rank(ys, position.y)));
    }
    if (std::set<int>(cells.begin(), cells.end()).size() != positions.size()) {
      rules_.width = 1;
      while (rules_.width * rules_.width < count) ++rules_.width;
      rules_.height = (count + rules_.width - 1) / rules_.width;
      cells.clear();
      for (int i = 0; i < count; ++i) cells.push_back(i);
    }
    std::vector<bool> named(static_cast<std::size_t>(rules_.cells()), false);
    for (std::size_t i = 0; i < positions.size(); ++i) {
      name_position(positions[i].name, cells[i], *positions[i].at);
      named[static_cast<std::size_t>(cells[i])] = true;
    }
    for (int cell = 0; cell < rules_.cells(); ++cell)
      if (!named[static_cast<std::size_t>(cell)]) rules_.holes.push_back(cell);
  }

  // A graph board's direction: the step of troyka's board direction of the same name (n, ne, ... nw,
  // so that in-a-row goals go along them), else a link direction of that name (Rules::link_directions),
  // which leads only along links.
  Offset graph_direction(const std::string& name) {
    if (const auto known = directions_.find(name); known != directions_.end()) return known->second;
    const auto compass = std::find_if(kAbsoluteDirections.begin(), kAbsoluteDirections.end(),
                                      [&](const auto& entry) { return entry.first == name; });
    const Offset offset = compass != kAbsoluteDirections.end() ? compass->second : rules_.link_direction(name);
    directions_.emplace(name, offset);
    return offset;
  }

  // (positions (NAME X1 Y1 X2 Y2)...): a board position by position. troyka reads it when the
  // names are cells of a rectangle, a1 to the top right corner, each once; the screen rectangles
  // do not matter (the links say which position neighbours which). A cell of the rectangle that no
  // position names is a hole, as if killed, but has no name: so a hexagon given position by
  // position on the cells of a rhombus is the rhombus with its corners cut, (board (hexagon N)).
  void read_positions(const std::vector<const Node*>& forms) {
    std::vector<const Node*> names;
    int width = 0;
    int height = 0;
    for (const Node* form : forms)
      for (std::size_t i = 1; i < form->items.size(); ++i) {
        const Node& entry = form->items[i];
        if (!entry.is_list() || entry.items.empty() || !entry.items[0].is_symbol())
          mistake(entry, fmt::format("expected a position like (a1 0 0 50 50), found {}", describe(entry)));
        const Node& name = entry.items[0];
        const int cell = parse_cell(name.text, kMaxBoardSide, kMaxBoardSide);
        if (cell < 0)
          missing_feature(
              name,
              fmt::format("troyka reads a board given position by position only when its positions are named "
                          "as the cells of a rectangle, a1, b1, ...; this one is named '{}'",
                          name.text),
              "troyka boards are rectangles of cells named by file letter and rank number from the bottom");
        width = std::max(width, cell % kMaxBoardSide + 1);
        height = std::max(height, cell / kMaxBoardSide + 1);
        names.push_back(&name);
      }
    std::vector<const Node*> seen(static_cast<std::size_t>(width * height), nullptr);
    for (const Node* name : names) {
      const int cell = parse_cell(name->text, width, height);
      const Node*& earlier = seen[static_cast<std::size_t>(cell)];
      if (earlier)
        mistake(*name, fmt::format("the position '{}' is defined twice; the first is at line {}", name->text,
                                   earlier->pos.line));
      earlier = name;
    }
    rules_.width = width;
    rules_.height = height;
    for (int cell = 0; cell < width * height; ++cell)
      if (!seen[static_cast<std::size_t>(cell)]) rules_.holes.push_back(cell);
    for (const Node* name : names) name_position(name->text, parse_cell(name->text, width, height), *name);
  }

  // (links DIRECTION (FROM TO)...): DIRECTION leads from each FROM to its TO. On a rectangle, the links
  // of a direction the grid does not define are a direction of the rectangle when together they are
  // exactly one offset taken from every cell that has a neighbour at that offset; false for any
  // other links, which make the board a graph (read_graph).
  bool read_links(const std::vector<const Node*>& forms) {
    std::map<std::string, std::vector<std::pair<const Node*, const Node*>>, std::less<>> pairs;
    for (const Node* form : forms) {
      const std::string name = symbol(argument(*form, 1, "DIRECTION"), "a direction name");
      if (directions_.count(name)) return false;  // they change the grid's own direction
      for (std::size_t i = 2; i < form->items.size(); ++i) {
        const Node& pair = form->items[i];
        if (!pair.is_list() || pair.items.size() != 2)
          mistake(pair, fmt::format("expected a link like (a1 a2), found {}", describe(pair)));
        position(pair.items[0]);
        position(pair.items[1]);
        pairs[name].emplace_back(&pair.items[0], &pair.items[1]);
      }
    }
    for (const auto& [name, links] : pairs) {
      const int from = position(*links.front().first);
      const int to = position(*links.front().second);
      const Offset offset{to % rules_.width - from % rules_.width, to / rules_.width - from / rules_.width};
      if (offset == Offset{}) mistake(*links.front().first, "a position linked to itself does not move");
      // Each position's neighbour at the offset; none from or to a cell no position names.
      std::vector<int> target(static_cast<std::size_t>(rules_.cells()), -1);
      for (int cell = 0; cell < rules_.cells(); ++cell) {
        const int column = cell % rules_.width + offset.dx, row = cell / rules_.width + offset.dy;
        if (column >= 0 && column < rules_.width && row >= 0 && row < rules_.height && !rules_.is_hole(cell) &&
            !rules_.is_hole(rules_.cell(column, row)))
          target[static_cast<std::size_t>(cell)] = rules_.cell(column, row);
      }
      std::vector<bool> linked(target.size(), false);
      for (const auto& [a, b] : links) {
        const int cell = position(*a);
        if (target[static_cast<std::size_t>(cell)] != position(*b)) return false;
        if (linked[static_cast<std::size_t>(cell)])
          mistake(*a, fmt::format("the link of '{}' from {} is given twice", name, a->text));
        linked[static_cast<std::size_t>(cell)] = true;
      }
      for (int cell = 0; cell < rules_.cells(); ++cell)
        if (target[static_cast<std::size_t>(cell)] >= 0 && !linked[static_cast<std::size_t>(cell)]) return false;
      directions_.emplace(name, offset);
    }
    return true;
  }

  void read_grid(const Node& grid) {
    const Node* dimensions = nullptr;
    const Node* directions = nullptr;
    for (std::size_t i = 1; i < grid.items.size(); ++i) {
      const Node& form = grid.items[i];
      const std::string head(form.head());
      if (head == "start-rectangle") continue;
      if (head == "dimensions")
        dimensions = &form;
      else if (head == "directions")
        directions = &form;
      else if (kUnsupported.count(head))
        unsupported(form, head);
      else
        unread(form, head, fmt::format("unknown form {} in a grid", describe(form)),
               suggest(head, {"dimensions", "directions", "start-rectangle"}));
    }
    if (!dimensions) mistake(grid, "the grid has no '(dimensions ...)'");
    read_dimensions(*dimensions);
    if (directions)
      for (std::size_t i = 1; i < directions->items.size(); ++i) read_direction(directions->items[i]);
  }

  Dimension dimension(const Node& node) const {
    if (!node.is_list() || node.items.size() != 2 || node.items[0].kind != Node::Kind::String ||
        !node.items[1].is_list() || node.items[1].items.size() != 2)
      mistake(node, fmt::format("expected a dimension like (\"a/b/c\" (50 0)), found {}", describe(node)));
    Dimension d;
    d.node = &node;
    std::string_view names = node.items[0].text;
    while (true) {
      const std::size_t slash = names.find('/');
      d.names.emplace_back(names.substr(0, slash));
      if (slash == std::string_view::npos) break;
      names.remove_prefix(slash + 1);
    }
    d.dx = number(node.items[1].items[0], -100000, 100000, "a screen offset");
    d.dy = number(node.items[1].items[1], -100000, 100000, "a screen offset");
    if (d.names.size() > static_cast<std::size_t>(kMaxBoardSide))
      missing_feature(node, fmt::format("the board is too large: {} names, at most {} are supported", d.names.size(),
                                        kMaxBoardSide));
    return d;
  }

  // The troyka offset of `steps` along a dimension: across the screen to the right is a column
  // further right, down the screen a row further down (troyka counts rows from the bottom).
  static Offset along(const Dimension& dimension, int steps) {
    if (dimension.dy == 0) return {dimension.dx > 0 ? steps : -steps, 0};
    return {0, dimension.dy > 0 ? -steps : steps};
  }

  // Zillions names a grid's position by the first dimension's name followed by the second's: rows
  // "top-/middle-/bottom-" listed first and columns "left/middle/right" make "top-left", and
  // "A-/B-/C-" with "1/2/3" make "A-1". The screen offsets say which dimension runs across and
  // which down or up, so each name is one troyka cell, whatever the names and their order.
  void read_dimensions(const Node& form) {
    dimensions_ = {dimension(form.items[1]), dimension(form.items[2])};  // two, one across: rectangular()
    const auto& [first, second] = dimensions_;
    const Dimension& columns = across(first) ? first : second;
    const Dimension& rows = across(first) ? second : first;
    rules_.width = static_cast<int>(columns.names.size());
    rules_.height = static_cast<int>(rows.names.size());
    // The cell the first name of both dimensions makes: the corner the listings start from.
    const Offset corner{columns.dx > 0 ? 0 : rules_.width - 1, rows.dy > 0 ? rules_.height - 1 : 0};
    for (std::size_t i = 0; i < first.names.size(); ++i)
      for (std::size_t j = 0; j < second.names.size(); ++j) {
        const Offset a = along(first, static_cast<int>(i)), b = along(second, static_cast<int>(j));
        name_position(first.names[i] + second.names[j], rules_.cell(corner.dx + a.dx + b.dx, corner.dy + a.dy + b.dy),
                      form);
      }
  }

  // Gives `cell` the ZRF name `name`; two positions of one name are a mistake in the file.
  void name_position(const std::string& name, int cell, const Node& at) {
    if (!position_cells_.emplace(name, cell).second)
      mistake(at, fmt::format("two positions are named '{}'", name),
              "each position's name is its first dimension's name followed by its second's, and must be unique");
    position_names_.resize(static_cast<std::size_t>(rules_.cells()));
    position_names_[static_cast<std::size_t>(cell)] = name;
  }

  void read_direction(const Node& node) {
    if (!node.is_list() || node.items.size() != 3 || !node.items[0].is_symbol())
      mistake(node, fmt::format("expected a direction like (n 0 -1), found {}", describe(node)));
    const Offset a = along(dimensions_[0], number(node.items[1], -kMaxBoardSide, kMaxBoardSide, "a direction's step"));
    const Offset b = along(dimensions_[1], number(node.items[2], -kMaxBoardSide, kMaxBoardSide, "a direction's step"));
    const Offset offset{a.dx + b.dx, a.dy + b.dy};
    if (offset == Offset{}) mistake(node, "a direction of (0 0) does not move");
    if (!directions_.emplace(node.items[0].text, offset).second)
      mistake(node.items[0], fmt::format("the direction '{}' is defined twice", node.items[0].text));
  }

  // (symmetry PLAYER (FROM TO)...): what each direction means for that player.
  void read_symmetry(const Node& form) {
    const int player = player_index(argument(form, 1, "PLAYER"));
    for (std::size_t i = 2; i < form.items.size(); ++i) {
      const Node& pair = form.items[i];
      if (!pair.is_list() || pair.items.size() != 2)
        mistake(pair, fmt::format("expected a pair of directions like (n s), found {}", describe(pair)));
      direction(pair.items[0]);
      direction(pair.items[1]);
      symmetry_[static_cast<std::size_t>(player)][pair.items[0].text] = pair.items[1].text;
    }
  }

  // The entry of `table` that `node` names; an unknown name fails with the known ones as hints.
  template <typename Table>
  const typename Table::mapped_type& named(const Table& table, const Node& node, std::string_view what,
                                           std::string_view kind) const {
    const std::string name = symbol(node, what);
    const auto it = table.find(name);
    if (it == table.end()) {
      std::vector<std::string> names;
      for (const auto& entry : table) names.push_back(entry.first);
      mistake(node, fmt::format("unknown {} '{}'", kind, name), suggest(name, names));
    }
    return it->second;
  }

  Offset direction(const Node& node) const { return named(directions_, node, "a direction", "direction"); }

  bool is_direction(const Node& node) const { return node.is_symbol() && directions_.count(node.text); }

  // The direction `node` names, as the player sees it through its symmetry.
  Offset direction_for(const Node& node, int player) const {
    const auto& map = symmetry_[static_cast<std::size_t>(player)];
    const auto it = map.find(node.text);
    if (it == map.end()) return direction(node);
    Node mapped = node;
    mapped.text = it->second;
    return direction(mapped);
  }

  // (kill-positions POSITION...): the positions become holes of the board. Read after the links,
  // which are checked against every named position, and before the zones, which leave holes out.
  void kill_positions(const Node& form) {
    for (std::size_t i = 1; i < form.items.size(); ++i) rules_.holes.push_back(named_position(form.items[i]));
    std::sort(rules_.holes.begin(), rules_.holes.end());
    rules_.holes.erase(std::unique(rules_.holes.begin(), rules_.holes.end()), rules_.holes.end());
    std::erase_if(rules_.links, [&](const Link& link) { return rules_.is_hole(link.from) || rules_.is_hole(link.to); });
    if (rules_.cells_on_board() == 0) mistake(form, "every position of the board is killed");
  }

  // The cell of the position `node` names, a killed one included.
  int named_position(const Node& node) const {
    const std::string name = symbol(node, "a position");
    const auto it = position_cells_.find(name);
    if (it == position_cells_.end()) {
      const auto named = [](const std::string& position) { return !position.empty(); };  // cells no position names
      mistake(node, fmt::format("unknown position '{}'", name),
              fmt::format("positions run from {} to {}",
                          *std::find_if(position_names_.begin(), position_names_.end(), named),
                          *std::find_if(position_names_.rbegin(), position_names_.rend(), named)));
    }
    return it->second;
  }

  // The cell of the position `node` names, which must be on the board.
  int position(const Node& node) const {
    const int cell = named_position(node);
    if (rules_.is_hole(cell))
      mistake(node, fmt::format("'{}' is a killed position: a hole of the board", node.text),
              "(kill-positions ...) in the board removed it");
    return cell;
  }

  // (zone (name NAME) (players PLAYER...) (positions POSITION...))
  void read_zone(const Node& form) {
    std::string name;
    std::array<bool, kMaxPlayers> owners{};
    CellList cells;
    for (std::size_t i = 1; i < form.items.size(); ++i) {
      const Node& part = form.items[i];
      if (part.head() == "name") {
        name = symbol(argument(part, 1, "NAME"), "a zone name");
      } else if (part.head() == "players") {
        Node list = part;
        list.items.erase(list.items.begin());
        owners = player_set(list);
      } else if (part.head() == "positions") {
        for (std::size_t j = 1; j < part.items.size(); ++j)
          if (const int cell = named_position(part.items[j]); !rules_.is_hole(cell)) cells.push_back(cell);
      } else {
        unread(part, part.head(), fmt::format("unexpected {} in a zone", describe(part)),
               "a zone is (zone (name N) (players P...) (positions ...))");
      }
    }
    if (name.empty()) mistake(form, "the zone has no '(name ...)'");
    std::sort(cells.begin(), cells.end());
    cells.erase(std::unique(cells.begin(), cells.end()), cells.end());
    PlayerRegion& zone = zones_[name];
    for (int p = 0; p < players(); ++p)
      if (owners[static_cast<std::size_t>(p)]) zone[static_cast<std::size_t>(p)] = cells;
  }

  // ---- pieces ----

  // (move-priorities TYPE...): when a move of an earlier type can be made, no move of a later one.
  // The priorities apply to every piece's moves, so they all go to the core, which keeps them.
  void read_move_priorities() {
    const auto& found = forms("move-priorities");
    if (found.empty()) return;
    const Node& form = single("move-priorities");
    for (std::size_t i = 1; i < form.items.size(); ++i)
      move_priorities_.push_back(symbol(form.items[i], "a move type"));
    if (move_priorities_.empty()) mistake(form, "'(move-priorities ...)' names no move type");
  }

  void read_pieces() {
    const auto& piece_forms = forms("piece");
    if (const int cap = bitboard_width(rules_.cells()).max_piece_types;
        piece_forms.size() > static_cast<std::size_t>(cap)) {
      auto [message, hint] = too_many_piece_types(rules_);
      missing_feature(*piece_forms[static_cast<std::size_t>(cap)], std::move(message), std::move(hint));
    }
    for (const Node* form : piece_forms) read_piece(*form);
  }

  void read_piece(const Node& form) {
    PieceType piece;
    piece.pos = form.pos;
    const Node* notation = nullptr;
    std::vector<const Node*> moves;
    std::vector<const Node*> drops;
    for (std::size_t i = 1; i < form.items.size(); ++i) {
      const Node& part = form.items[i];
      const std::string head(part.head());
      if (head == "name")
        piece.name = symbol(argument(part, 1, "NAME"), "a piece name");
      else if (head == "notation")
        notation = &argument(part, 1, "NOTATION");
      else if (head == "moves")
        moves.push_back(&part);
      else if (head == "drops")
        drops.push_back(&part);
      else if (kIgnoredPieceForms.count(head))
        continue;
      else if (kUnsupported.count(head))
        unsupported(part.items.front(), head);
      else
        unread(part, head, fmt::format("unexpected {} in a piece", describe(part)),
               suggest(head, {"name", "moves", "drops", "image", "help", "notation"}));
    }
    if (piece.name.empty()) mistake(form, "the piece has no '(name ...)'");
    if (piece_index(rules_, piece.name) >= 0) mistake(form, fmt::format("the piece '{}' is defined twice", piece.name));
    piece.code = code_for(piece.name, notation, form);
    CorePiece core_piece{static_cast<int>(rules_.pieces.size()), bodies_of(moves)};
    piece_moves_.push_back(core_piece.bodies);  // a part of another piece's move may go on as this one
    std::vector<const Node*> bodies;
    for (const CoreBody& body : core_piece.bodies) bodies.push_back(body.node);
    // Keyword moves add up their steps as offsets, which a graph board's links are not.
    if (!move_priorities_.empty() || rules_.points || !lower_keyword_moves(bodies, piece.moves))
      core_pieces_.push_back(std::move(core_piece));
    if (CorePiece dropped{static_cast<int>(rules_.pieces.size()), bodies_of(drops)}; !dropped.bodies.empty())
      drops_.push_back(std::move(dropped));  // lowered once the board-setup is read (place_drops)
    rules_.pieces.push_back(std::move(piece));
  }

  // The kings of "maximal captures" 2: the piece types into which a move of a piece of another type
  // turns it, (add King), (add-partial King TYPE) or (change-type King), sorted. Zillions' rules
  // name no piece as the king; the crowned men of draughts are these.
  std::vector<int> crowned_pieces() const {
    std::set<int> crowned;
    const auto find_in = [&](const auto& self, const Node& node, int mover) -> void {
      if (!node.is_list()) return;
      const std::string_view head = node.head();
      if ((head == "add" || head == "add-partial" || head == "change-type") && node.items.size() > 1 &&
          node.items[1].is_symbol())
        if (const int piece = piece_index(rules_, node.items[1].text); piece >= 0 && piece != mover)
          crowned.insert(piece);
      for (const Node& item : node.items) self(self, item, mover);
    };
    const auto& piece_forms = forms("piece");  // in the order of rules_.pieces (read_pieces)
    for (std::size_t piece = 0; piece < piece_forms.size(); ++piece)
      for (const Node& part : piece_forms[piece]->items)
        if (part.head() == "moves") find_in(find_in, part, static_cast<int>(piece));
    return {crowned.begin(), crowned.end()};
  }

  // The bodies of a piece's (moves ...) or (drops ...) lists, each with its move type.
  std::vector<CoreBody> bodies_of(const std::vector<const Node*>& lists) const {
    std::vector<CoreBody> bodies;
    for (const Node* list : lists) {
      std::string type;  // (move-type T) types the bodies after it, in its list
      for (std::size_t i = 1; i < list->items.size(); ++i) {
        if (list->items[i].head() == "move-type")
          type = symbol(argument(list->items[i], 1, "TYPE"), "a move type");
        else
          bodies.push_back({&list->items[i], type});
      }
    }
    return bodies;
  }

  // Lowers a piece's move bodies to keyword moves, as lower_move reads them; false, with `moves`
  // untouched, when one of them is beyond that reading (an add in the middle of a move, an if with
  // an else, a capture away from the landing cell ...): the piece's moves then all go to the core
  // (lower_core_pieces), so that no move is listed by both back ends.
  bool lower_keyword_moves(const std::vector<const Node*>& bodies, std::vector<MoveRule>& moves) {
    std::vector<MoveRule> lowered;
    int tested = 0;
    try {
      for (const Node* body : bodies) {
        lowered.push_back(lower_move(*body));
        tested += !lowered.back().tests.empty();
      }
    } catch (const Error&) {
      return false;
    }
    tested_moves_ += tested;
    if (tested_moves_ > kMaxTestedMoves)
      missing_feature(*bodies.back(),
                      fmt::format("a game may have at most {} moves that test cells on their way", kMaxTestedMoves));
    moves.insert(moves.end(), lowered.begin(), lowered.end());
    return true;
  }

  // A piece type's code: a letter, the notation's when it is one letter, else the first letter of
  // the name, else of the alphabet, that no other piece has; once the 26 letters are taken, the
  // notation when it makes a code ("DK", "+P"), else the name's first letter and one of its later
  // letters or digits, else that letter and a digit. Zillions shows the notation only in its list of
  // moves, so another code changes nothing in the game.
  std::string code_for(const std::string& name, const Node* notation, const Node& form) const {
    const auto free = [&](const std::string& code) {
      return piece_code_problem(code).empty() && piece_of_code(rules_, code) < 0;
    };
    const std::string noted = notation ? piece_code(string(*notation, "the notation")) : "";
    std::vector<std::string> candidates;
    if (noted.size() == 1) candidates.push_back(noted);
    const std::string named = piece_code(name);
    for (const char c : named + "ABCDEFGHIJKLMNOPQRSTUVWXYZ") candidates.emplace_back(1, c);
    candidates.push_back(noted);
    for (std::size_t i = 1; i < named.size(); ++i) candidates.push_back({named[0], named[i]});
    for (char digit = '2'; digit <= '9'; ++digit) candidates.push_back({named[0], digit});
    for (const std::string& code : candidates)
      if (free(code)) return code;
    missing_feature(form,
                    fmt::format("the piece '{}' has no code left for diagrams: its name's first letter with a digit "
                                "or another letter of the name are all taken",
                                name),
                    "a notation of up to three characters gives it one: (notation \"DK\")");
  }

  int piece_named(const Node& node) const {
    const std::string name = symbol(node, "a piece name");
    const int index = piece_index(rules_, name);
    if (index < 0) mistake(node, fmt::format("unknown piece '{}'", name), suggest(name, piece_names(rules_)));
    return index;
  }

  // ---- moves ----

  // The occupants a ZRF condition allows on the current cell.
  unsigned occupancy(const Node& condition) const {
    if (condition.is_symbol()) {
      const auto it = kOccupancyTests.find(condition.text);
      if (it != kOccupancyTests.end()) return it->second;
      unread(condition, condition.text,
             fmt::format("the condition '{}' cannot be expressed: troyka moves test only what stands on a cell",
                         condition.text),
             suggest(condition.text, keys_of(kOccupancyTests)));
    }
    const std::string head(condition.head());
    if (head == "in-zone?" || head == "not-in-zone?")
      missing_feature(condition,
                      fmt::format("'({} ...)' cannot be expressed in a move: troyka moves land on a cell by what "
                                  "stands on it, not by where it is",
                                  head));
    if (head == "not" && condition.items.size() == 2) return kAnyOccupant & ~occupancy(condition.items[1]);
    if ((head == "and" || head == "or") && condition.items.size() >= 2) {
      unsigned result = head == "and" ? unsigned{kAnyOccupant} : 0U;
      for (std::size_t i = 1; i < condition.items.size(); ++i)
        result = head == "and" ? result & occupancy(condition.items[i]) : result | occupancy(condition.items[i]);
      return result;
    }
    if (condition.is_list() && condition.items.size() == 1) return occupancy(condition.items[0]);
    unread(condition, condition.head(),
           fmt::format("the condition {} cannot be expressed: troyka moves test only what stands on a cell",
                       describe(condition)),
           "use empty?, enemy?, friend?, their not- forms, not, and, or");
  }

  // The target that allows exactly the occupants `allowed` of `cell` (the landing cell, or one tested).
  Target target_of(unsigned allowed, const Node& at, std::string_view cell = "the landing cell") const {
    switch (allowed) {
      case kEmpty: return Target::Empty;
      case kEnemy: return Target::Enemy;
      case kFriend: return Target::Friend;
      case kEmpty | kEnemy: return Target::NotFriend;
      case kEnemy | kFriend: return Target::Occupied;
      case kAnyOccupant: return Target::Any;
      case 0: mistake(at, fmt::format("this move can never be made: its conditions allow no occupant of {}", cell));
      default:
        missing_feature(at, fmt::format("troyka cannot test {} for empty or friendly only", cell),
                        "a cell may be tested for empty, enemy, friend, not-friend (empty or enemy), occupied or any");
    }
  }

  [[noreturn]] void unexpected_in_move(const Node& item, std::string_view why) const {
    const std::string keyword = item.is_symbol() ? item.text : std::string(item.head());
    if (kUnsupported.count(keyword)) unsupported(item, keyword);
    if (!why.empty()) missing_feature(item, fmt::format("unsupported in a move: {}", why));
    unread(item, keyword, fmt::format("unsupported in a move: {}", describe(item)),
           "troyka reads moves made of directions, (verify ...), mark, back, to, (if ... add), a (while empty? ...) "
           "slide, and add");
  }

  // A cell a move's path reaches, as offsets from where the piece starts (per player), with what
  // its verifies allow to stand there.
  struct PathCell {
    std::array<Offset, kMaxPlayers> at;
    unsigned allowed = kAnyOccupant;
  };

  // Where a walk along a move's path has got to: the cell it stands on, the one 'mark' remembered
  // and the one 'to' chose, as indices into the cells passed.
  struct Walk {
    std::vector<PathCell> cells{PathCell{}};  // the first is where the piece starts
    std::size_t current = 0, marked = 0, landing = 0;
    bool chose_landing = false, marks = false;
  };

  // Steps the walk one direction on, to a cell seen before or a new one.
  void walk_step(Walk& walk, const Node& direction) const {
    PathCell next;
    for (int p = 0; p < players(); ++p) {
      const Offset from = walk.cells[walk.current].at[p], by = direction_for(direction, p);
      next.at[p] = {from.dx + by.dx, from.dy + by.dy};
      if (std::abs(next.at[p].dx) > kMaxBoardSide || std::abs(next.at[p].dy) > kMaxBoardSide)
        mistake(direction, "this move goes further than any troyka board");
    }
    const auto seen =
        std::find_if(walk.cells.begin(), walk.cells.end(), [&](const PathCell& cell) { return cell.at == next.at; });
    walk.current = static_cast<std::size_t>(seen - walk.cells.begin());
    if (seen == walk.cells.end()) walk.cells.push_back(next);
  }

  // A ZRF move body as a troyka move: a path of directions with (verify C) tests on the way, mark
  // and back, 'to' choosing the landing cell, ending in add or (if C add); or a slide. The path
  // becomes one jump to the landing cell with a cell test for every other cell it tests, and for
  // every cell it passes that is not sure to be on the board (ZRF moves fail when they leave it).
  MoveRule lower_move(const Node& move) const {
    if (!move.is_list() || move.items.empty())
      mistake(move, fmt::format("expected a move like (n (verify empty?) add), found {}", describe(move)));
    MoveRule rule;
    rule.pos = move.pos;
    rule.text = to_text(move);
    std::size_t first = move.items[0].is_symbol("from") ? 1 : 0;  // 'from' first: where the piece stands
    if (first < move.items.size() && move.items[first].head() == "verify")
      mistake(move.items[first],
              "a '(verify ...)' before the first step tests the cell the piece starts on, which holds the piece itself",
              "test the cells the move goes to");
    if (first < move.items.size() && !is_direction(move.items[first]) && !move.items[first].is_symbol("mark")) {
      const Node& item = move.items[first];
      const bool keyword = item.is_symbol("add") || item.is_symbol("back") || item.is_symbol("to");
      if (item.is_symbol() && !kUnsupported.count(item.text) && !keyword)
        direction(item);  // an unknown direction, with did-you-mean
      unexpected_in_move(item, "a move must start with a direction");
    }
    if (first + 1 < move.items.size() && move.items[first + 1].head() == "while")
      return lower_slide(move, first + 1, rule);
    Walk walk;
    walk_path(move, first, walk);
    const std::size_t landing = walk.chose_landing ? walk.landing : walk.current;
    if (landing == 0) mistake(move, "this move's steps add up to no movement");
    rule.kind = MoveKind::Step;
    rule.target = target_of(walk.cells[landing].allowed, move);
    rule.capture = rule.target != Target::Empty;
    for (int p = 0; p < players(); ++p) rule.offsets[p] = {walk.cells[landing].at[p]};
    add_cell_tests(walk, landing, move, rule);
    return rule;
  }

  // Walks the items of a move body from `first` to its add.
  void walk_path(const Node& move, std::size_t first, Walk& walk) const {
    for (std::size_t i = first; i < move.items.size(); ++i) {
      const Node& item = move.items[i];
      const bool last = i + 1 == move.items.size();
      if (is_direction(item)) {
        walk_step(walk, item);
      } else if (item.head() == "verify") {
        walk.cells[walk.current].allowed &= occupancy(argument(item, 1, "CONDITION"));
      } else if (item.is_symbol("mark") || item.is_symbol("back") || item.is_symbol("to")) {
        path_marker(item, walk);
      } else if (item.is_symbol("add")) {
        if (!last) missing_feature(move.items[i + 1], "troyka moves end at their first 'add'; this continues after it");
        return;
      } else if (item.head() == "if" && last && item.items.size() == 3 && item.items[2].is_symbol("add")) {
        walk.cells[walk.chose_landing ? walk.landing : walk.current].allowed &= occupancy(item.items[1]);
        return;
      } else if (item.head() == "if") {
        missing_feature(
            item,
            "troyka reads '(if C add)' only as the last form of a move, without 'else': a move with branches "
            "or several landings cannot be expressed");
      } else {
        unexpected_in_move(item, item.head() == "while" ? "a slide's '(while ...)' comes right after its one "
                                                          "direction"
                                                        : "");
      }
    }
    mistake(move, "this move never adds: it needs 'add' at its end",
            "a move is its steps, then (verify ...), then add");
  }

  // mark remembers the cell the walk stands on, back returns to it, to makes it the landing cell.
  void path_marker(const Node& item, Walk& walk) const {
    if (item.is_symbol("mark")) {
      walk.marked = walk.current;
      walk.marks = true;
    } else if (item.is_symbol("back")) {
      if (!walk.marks) mistake(item, "'back' returns to the cell 'mark' remembered, and no 'mark' came before it");
      walk.current = walk.marked;
    } else {
      if (walk.chose_landing) missing_feature(item, "'to' is given twice: a troyka move has one landing cell");
      walk.landing = walk.current;
      walk.chose_landing = true;
    }
  }

  // The cell tests of a walked path: a verify of any cell but the landing one, and "on the board"
  // for every cell passed outside the rectangle between the start and the landing cell (those
  // inside are on the board whenever both corners are, unless the board has holes: a path that
  // passes a killed position fails there, as every step of a ZRF path must lead to a position).
  void add_cell_tests(const Walk& walk, std::size_t landing, const Node& move, MoveRule& rule) const {
    const auto inside = [&](const PathCell& cell) {
      for (int p = 0; p < players(); ++p) {
        const Offset end = walk.cells[landing].at[p], at = cell.at[p];
        if (at.dx < std::min(0, end.dx) || at.dx > std::max(0, end.dx) || at.dy < std::min(0, end.dy) ||
            at.dy > std::max(0, end.dy))
          return false;
      }
      return true;
    };
    if ((walk.cells[0].allowed & kFriend) == 0)
      mistake(move,
              "this move can never be made: it tests the cell the piece starts on for something other than a friend");
    for (std::size_t i = 1; i < walk.cells.size(); ++i) {
      const PathCell& cell = walk.cells[i];
      if (i == landing || (cell.allowed == kAnyOccupant && inside(cell) && rules_.holes.empty())) continue;
      CellTest test;
      test.offset = cell.at;
      test.target = target_of(cell.allowed, move, "a cell it passes");
      rule.tests.push_back(test);
    }
  }

  // What the items after a slide's loop allow on the cell where the loop stopped.
  unsigned slide_landing(const Node& move, std::size_t first) const {
    Walk walk;
    walk_path(move, first, walk);
    if (walk.cells.size() > 1 || walk.chose_landing)
      missing_feature(move.items[first],
                      "a slide lands where its loop stops: after the loop come only (verify ...) and add");
    return walk.cells[0].allowed;
  }

  // DIR (while empty? add DIR) [conditions add]: every empty cell along DIR, then the first
  // occupied one if the conditions allow it. Without 'add' in the loop only the occupied one.
  MoveRule lower_slide(const Node& move, std::size_t loop_at, MoveRule& rule) const {
    const Node& loop = move.items[loop_at];
    const Node& dir = move.items[0];
    if (loop_at != 1)
      missing_feature(move.items[1], "a slide starts with exactly one direction before its '(while ...)'");
    const Node& condition = argument(loop, 1, "CONDITION");
    if (occupancy(condition) != kEmpty)
      missing_feature(condition, "troyka slides only through empty cells: the loop must be (while empty? ...)");
    const bool lands_on_empty =
        loop.items.size() == 4 && loop.items[2].is_symbol("add") && loop.items[3].is_symbol(dir.text);
    const bool passes_empty = loop.items.size() == 3 && loop.items[2].is_symbol(dir.text);
    if (!lands_on_empty && !passes_empty)
      missing_feature(
          loop, fmt::format("troyka reads a slide loop as (while empty? add {0}) or (while empty? {0})", dir.text),
          "the loop must step in the slide's own direction");
    // After the loop the current cell is occupied (or off the board): only enemies or friends remain.
    unsigned allowed = lands_on_empty ? unsigned{kEmpty} : 0U;
    if (loop_at + 1 < move.items.size()) allowed |= slide_landing(move, loop_at + 1) & (kEnemy | kFriend);
    if (allowed == 0) mistake(move, "this slide never adds a move");
    rule.kind = MoveKind::Slide;
    rule.target = target_of(allowed, move);
    rule.capture = rule.target != Target::Empty;
    for (int p = 0; p < players(); ++p) rule.offsets[p] = {direction_for(dir, p)};
    return rule;
  }

  // ---- moves in core forms (docs/zrf.md, "Moves in core forms") ----
  //
  // A move body is a program: directions step, (verify C) tests, if, while and the effects act in
  // turn, and each `add` makes a move of what it has done so far and carries on. So the moves of a
  // body are its runs that stop at an add: stopping(items) is the core expression of those runs,
  // and passing(items) that of the runs that go through the items, their adds doing nothing. A run
  // that leaves the board, or fails a test, makes no more moves. Directions, zones and symmetries
  // differ per player, so each player gets a rule of its own, and the two are one rule when equal.

  void lower_core_pieces() {
    if (core_pieces_.empty() && core_drops_.empty() && !pass_any_turn_) return;
    if (pass_any_turn_ && !move_priorities_.empty())
      missing_feature(
          *pass_any_turn_,
          "the option \"pass turn\" true in a game with move-priorities is not supported yet: troyka's pass would "
          "come before every move type");
    make_last_move_registers();
    auto general = std::make_shared<core::Rules>();
    for (const CorePiece& piece : core_pieces_)
      for (const CoreBody& body : piece.bodies)
        add_per_player(*general, players(), [&](int p) { return core_rule_or_fail(body, piece, p); });
    for (const CorePiece& piece : core_drops_)
      for (const CoreBody& body : piece.bodies)
        add_per_player(*general, players(), [&](int p) { return drop_rule(body, piece.piece, p); });
    std::erase_if(general->moves, [](const core::Rule& rule) { return rule.expr == never(); });
    if (pass_any_turn_) general->moves.push_back(pass_rule());
    rules_.general = std::move(general);
  }

  // (option "pass turn" true): at every turn a player may pass, moving nothing (its move text is
  // `pass`), beside its other moves; troyka's game rule (moves "pass" pass).
  static core::Rule pass_rule() {
    core::Rule rule;
    rule.scope = core::Rule::Scope::Game;
    rule.label = "pass";
    rule.expr = core::node(core::Op::Pass);
    rule.origin = "(option \"pass turn\" true)";
    return rule;
  }

  // A body's rules, one per player, as one rule for all when they are equal.
  template <typename RuleOf>
  static void add_per_player(core::Rules& general, int count, RuleOf rule_of) {
    std::vector<core::Rule> rules;
    for (int p = 0; p < count; ++p) rules.push_back(rule_of(p));
    if (std::all_of(rules.begin(), rules.end(), [&](const core::Rule& rule) { return rule.expr == rules[0].expr; })) {
      rules[0].only_player = -1;
      general.moves.push_back(std::move(rules[0]));
    } else {
      general.moves.insert(general.moves.end(), rules.begin(), rules.end());
    }
  }

  // A drop body's moves for `player`: Zillions tries the body from every position, with a piece of
  // the player's supply off the board (its hand; a new piece when no board-setup gives a supply), and
  // each add places the piece where the body stands (landing captures an occupant, as add does).
  core::Rule drop_rule(const CoreBody& body, int piece, int player) const {
    const Node& node = *body.node;
    core::Rule rule;
    rule.scope = core::Rule::Scope::Game;
    rule.piece = piece;
    rule.only_player = player;
    rule.origin = to_text(node);
    rule.pos = node.pos;
    rule.priority = priority_of(body);
    auto runs = stopping(items_of(node), Run{player, Captured::Stands, piece}, {End::Add, {}});
    if (!runs) mistake(node, "this drop never adds: it needs 'add' at its end", "a drop is ((verify empty?) add)");
    const bool supplied = !forms("board-setup").empty();
    core::Expr enter = core::node(core::Op::Enter);
    for (int cell = 0; cell < rules_.cells(); ++cell)
      if (!rules_.is_hole(cell)) enter.region.cells.push_back(cell);
    rule.expr = core::seq(
        {core::with_piece(supplied ? core::Op::FromHand : core::Op::New, piece), std::move(enter), std::move(*runs)});
    return rule;
  }

  // The body's rule for `player`. When the core cannot read it, the error is the one of the two
  // readings that got further into the body (the keyword reading's on a tie: where both fail on one
  // node, it knows more, an unknown zone for one). Further is later in the file, or, within one
  // macro's expansion, whose nodes all carry the use's position, later in the body: the keyword
  // reading refuses a `capture` that the core reads, before the core meets what it cannot.
  core::Rule core_rule_or_fail(const CoreBody& body, const CorePiece& piece, int player) const {
    try {
      return core_rule(body, piece, player);
    } catch (const Error& core_error) {
      // A graph board's moves are read only in core forms, and so is a move of two pieces (cascade).
      if (rules_.points || has_symbol(items_of(*body.node), "cascade")) throw;
      const Node* core_node = report_.failed_at();
      try {
        (void)lower_move(*body.node);
      } catch (const Error& keyword_error) {
        const SourcePos at = keyword_error.diagnostic().pos, core_at = core_error.diagnostic().pos;
        const auto further = [&] {
          if (std::tie(at.line, at.column) != std::tie(core_at.line, core_at.column))
            return std::tie(at.line, at.column) > std::tie(core_at.line, core_at.column);
          return place_in(*body.node, report_.failed_at()) >= place_in(*body.node, core_node);
        };
        if (further()) throw;
      }
      throw;
    }
  }

  // The place of `node` in a walk of `body`, parents before their items; -1 when it is not there.
  static int place_in(const Node& body, const Node* node) {
    int place = 0;
    const auto visit = [&](const auto& self, const Node& at) -> bool {
      if (&at == node) return true;
      ++place;
      return std::any_of(at.items.begin(), at.items.end(), [&](const Node& item) { return self(self, item); });
    };
    return visit(visit, body) ? place : -1;
  }

  // A body's moves: its runs that stop at an add, and those that stop at an add-partial and go on
  // with the piece's moves of the type it names, part after part, as one move (the parts' landings
  // shown as waypoints). A player must go on while a part can follow, unless "pass partial" is true.
  core::Rule core_rule(const CoreBody& body, const CorePiece& piece, int player) const {
    const Node& node = *body.node;
    core::Rule rule;
    rule.scope = core::Rule::Scope::Piece;
    rule.piece = piece.piece;
    rule.only_player = player;
    rule.origin = to_text(node);
    rule.pos = node.pos;
    rule.priority = priority_of(body);
    check_marked_before_back(node);
    const Run run{player, captured_for(piece), piece.piece, true};
    std::vector<core::Expr> ways;
    if (const std::span<const Node> items = items_of(node); has_symbol(items, "cascade"))
      ways.push_back(cascading(items, run));
    else if (auto whole = stopping(items, run, {End::Add, {}}))
      ways.push_back(std::move(*whole));
    for (const Partial& to : partials_of(node, piece.piece))
      if (auto part = stopping(items_of(node), run, {End::AddPartial, to}))
        ways.push_back(core::seq({std::move(*part), continuation(to, run, {})}));
    if (ways.empty() && !uses_form(node, "add") && !uses_form(node, "add-partial"))
      mistake(node, "this move never adds: it needs 'add' at its end",
              "a move is its steps, then (verify ...), then add");
    // A body whose every add comes back to where the piece stands having done nothing makes no move.
    rule.expr = ways.empty() ? never() : *core::choice(std::move(ways));
    return rule;
  }

  // Whether `node` is, or holds anywhere, the form `word`: the symbol alone or a list it opens.
  static bool uses_form(const Node& node, std::string_view word) {
    if (node.is_symbol(word) || node.head() == word) return true;
    return std::any_of(node.items.begin(), node.items.end(), [&](const Node& item) { return uses_form(item, word); });
  }

  static bool has_symbol(std::span<const Node> items, std::string_view word) {
    return std::any_of(items.begin(), items.end(), [&](const Node& item) { return item.is_symbol(word); });
  }

  // A move of two pieces, as Zillions' castling writes it: `... to STEPS cascade STEPS add`. The
  // mover walks to `to`, where it will land, and on to the piece that `cascade` picks up, which
  // walks on to the add and lands there (on an empty cell). The core moves the second piece with
  // (relocate NAME): at the add the run marks the cell, walks back by the opposite steps to the
  // piece picked up, relocates it there, and walks back to `to`, where the mover lands as an add
  // lands. So between `to` and the add there may be only directions and (verify ...).
  core::Expr cascading(std::span<const Node> items, const Run& run) const {
    const auto find = [&](std::string_view word) {
      return std::find_if(items.begin(), items.end(), [&](const Node& item) { return item.is_symbol(word); });
    };
    const auto to = find("to"), cascade = find("cascade");
    const std::string hint = "castling: e (verify empty?) e (verify empty?) to e (verify friend?) cascade w w add";
    if (to > cascade)
      missing_feature(
          *cascade,
          "troyka reads 'cascade' only after 'to': the first piece lands at 'to' and the piece picked up walks on "
          "to the add",
          hint);
    if (!items.back().is_symbol("add"))
      mistake(items.back(), "a move with 'cascade' ends with add, where the piece picked up lands", hint);
    std::array<std::vector<const Node*>, 2> walked;  // from `to` to cascade, from cascade to the add
    for (auto item = to + 1; item + 1 < items.end(); ++item) {
      if (item == cascade) continue;
      if (item->is_symbol("to") || item->is_symbol("cascade"))
        missing_feature(
            *item, fmt::format("'{}' is given twice: troyka reads a move of two pieces, one 'to' and one 'cascade'",
                               item->text));
      if (is_direction(*item))
        walked[item < cascade ? 0 : 1].push_back(&*item);
      else if (item->head() != "verify")
        missing_feature(
            *item,
            "between 'to' and the add of a move with 'cascade', troyka reads only directions and (verify ...), so "
            "that it can walk back",
            hint);
    }
    if (walked[0].empty())
      mistake(*cascade, "'cascade' right at 'to' would pick up the piece where the first one lands", hint);
    if (walked[1].empty()) mistake(*cascade, "the piece 'cascade' picks up never moves: no step before the add", hint);
    const auto back_along = [&](const std::vector<const Node*>& steps) {
      std::vector<core::Expr> goes;
      for (auto step = steps.rbegin(); step != steps.rend(); ++step)
        goes.push_back(core_go(opposite_of(direction_for(**step, run.player), **step), run.player));
      return core::seq(std::move(goes));
    };
    const auto named = [](core::Op op) {
      core::Expr expr = core::node(op);
      expr.variable = "cascaded";
      return expr;
    };
    const std::span<const Node> to_to = items.first(static_cast<std::size_t>(to - items.begin())),
                                to_cascade(to + 1, cascade), to_add(cascade + 1, items.end() - 1);
    const Run at_to = after(to_to, run), at_cascade = after(to_cascade, at_to), at_add = after(to_add, at_cascade);
    return core::seq({passing(to_to, run), passing(to_cascade, at_to), occupants(kEnemy | kFriend, at_cascade),
                      passing(to_add, at_cascade), occupants(kEmpty, at_add), named(core::Op::Mark),
                      back_along(walked[1]), named(core::Op::Relocate), back_along(walked[0]), landing(run)});
  }

  // A 'back' returns to the position the last 'mark' remembered: one must come before it in the body.
  void check_marked_before_back(const Node& body) const {
    bool marked = false;
    const auto visit = [&](const auto& self, const Node& node) -> void {
      if (node.is_symbol("mark")) marked = true;
      if (node.is_symbol("back") && !marked)
        mistake(node, "'back' returns to the cell 'mark' remembered, and no 'mark' came before it");
      for (const Node& item : node.items) self(self, item);
    };
    visit(visit, body);
  }

  // The body's place in (move-priorities ...), 0 without them. A type they do not list comes after
  // every listed one, as in the Dagaz runtime's Zillions-compatible mode (`addPrior` in
  // common-scripts/zrf-model.js): draughts files list the types a turn starts with and leave out
  // the one their kings go on with (turkish-dama.zrf's continue-type).
  int priority_of(const CoreBody& body) const {
    if (move_priorities_.empty()) return 0;
    if (body.type.empty())
      missing_feature(*body.node, "this move has no (move-type ...), and the game has move-priorities",
                      "troyka plays move-priorities when every move has a type");
    const auto at = std::find(move_priorities_.begin(), move_priorities_.end(), body.type);
    return static_cast<int>(at - move_priorities_.begin());
  }

  // The items of a move body that act: all but a first 'from', which names where the piece stands.
  std::span<const Node> items_of(const Node& body) const {
    if (!body.is_list() || body.items.empty())
      mistake(body, fmt::format("expected a move like (n (verify empty?) add), found {}", describe(body)));
    const std::span<const Node> items(body.items);
    return items.subspan(items.front().is_symbol("from") ? 1 : 0);
  }

  // After a part that goes on as `at`: more parts of that piece's moves of that type, then a last
  // one that adds, or a part that goes on as another piece or type (a man crowned in the middle of
  // its captures goes on as a king, with the king's moves of the type named) and the parts after
  // it; or none when no part can follow (or, with "pass partial", whenever the player likes).
  // `earlier` lists the pieces and types the move went on as before `at`: one may not come back.
  core::Expr continuation(const Partial& at, const Run& run, std::vector<Partial> earlier) const {
    earlier.push_back(at);
    const Run as{run.player, run.captured, at.piece, true};
    std::vector<core::Expr> stays, lasts, all_parts;
    std::map<Partial, std::vector<core::Expr>> leaves;  // the parts that go on as another, by it
    for (const CoreBody& body : piece_moves_[static_cast<std::size_t>(at.piece)]) {
      if (!at.type.empty() && body.type != at.type) continue;
      for (const Partial& to : partials_of(*body.node, at.piece)) {
        auto part = stopping(items_of(*body.node), as, {End::AddPartial, to});
        if (!part) continue;
        all_parts.push_back(*part);
        if (to == at)
          stays.push_back(std::move(*part));
        else if (std::find(earlier.begin(), earlier.end(), to) != earlier.end())
          missing_feature(
              add_partial_to(*body.node, to, at.piece),
              fmt::format("troyka reads a move of several parts whose parts go on as other pieces or move types "
                          "only when they never come back to one before: this part goes on as {} again",
                          describe_going_on(to)));
        else
          leaves[to].push_back(std::move(*part));
      }
      if (auto last = stopping(items_of(*body.node), as, {End::Add, {}})) lasts.push_back(std::move(*last));
    }
    std::optional<core::Expr> stay = core::choice(std::move(stays)), last = core::choice(std::move(lasts)),
                              any_part = core::choice(std::move(all_parts));
    std::vector<core::Expr> items;
    if (stay) items.push_back(core::node(core::Op::Repeat, {*stay}));
    std::vector<core::Expr> endings;
    if (last) endings.push_back(*last);
    for (auto& [to, parts] : leaves)
      endings.push_back(core::seq({*core::choice(std::move(parts)), continuation(to, run, earlier)}));
    // The move may end here with "pass partial", or where no part can follow: then an ending is
    // optional, or one of the endings or being stuck (the core writes no empty sequence).
    std::vector<core::Expr> stuck;
    if (!pass_partial_ && any_part) stuck.push_back(core::node(core::Op::Cannot, {*any_part}));
    if (!pass_partial_ && last) stuck.push_back(core::node(core::Op::Cannot, {*last}));
    std::optional<core::Expr> ending = core::choice(std::move(endings));
    if (!stuck.empty()) {
      std::vector<core::Expr> ways;
      if (ending) ways.push_back(std::move(*ending));
      ways.push_back(core::seq(std::move(stuck)));
      items.push_back(*core::choice(std::move(ways)));
    } else if (ending) {
      items.push_back(core::node(core::Op::Opt, {std::move(*ending)}));
    }
    return core::seq(std::move(items));
  }

  // "the piece King with its moves of type continue-type", for messages.
  std::string describe_going_on(const Partial& partial) const {
    const std::string& name = rules_.pieces[static_cast<std::size_t>(partial.piece)].name;
    if (partial.type.empty()) return fmt::format("the piece {} with any of its moves", name);
    return fmt::format("the piece {} with its moves of type {}", name, partial.type);
  }

  // Where the add-partials of a body go on, each once, in order: `mover` with the move type named
  // ("" for a bare add-partial), or each piece named before it ((add-partial King continue-type):
  // the part crowns the piece, which goes on with the king's moves of that type).
  std::vector<Partial> partials_of(const Node& body, int mover) const {
    std::set<Partial> found;
    const auto visit = [&](const auto& self, const Node& node) -> void {
      if (node.is_symbol("add-partial") || node.head() == "add-partial") {
        for (const Partial& to : partials_at(node, mover)) found.insert(to);
        return;
      }
      for (const Node& item : node.items) self(self, item);
    };
    visit(visit, body);
    return {found.begin(), found.end()};
  }

  // The first add-partial of a body that goes on as `to`: its last item, which names the type or
  // the piece, or the bare add-partial.
  const Node& add_partial_to(const Node& body, const Partial& to, int mover) const {
    const Node* found = nullptr;
    const auto visit = [&](const auto& self, const Node& node) -> void {
      if (found) return;
      if (node.is_symbol("add-partial") || node.head() == "add-partial") {
        const std::vector<Partial> goes_on = partials_at(node, mover);
        if (std::find(goes_on.begin(), goes_on.end(), to) != goes_on.end())
          found = node.is_list() ? &node.items.back() : &node;
        return;
      }
      for (const Node& item : node.items) self(self, item);
    };
    visit(visit, body);
    return found ? *found : body;
  }

  // The pieces and the move type one add-partial goes on as: (add-partial [PIECE...] [TYPE]).
  std::vector<Partial> partials_at(const Node& add_partial, int mover) const {
    if (add_partial.is_symbol()) return {{mover, ""}};
    std::span<const Node> named = std::span<const Node>(add_partial.items).subspan(1);
    std::string type;
    if (!named.empty() && (!named.back().is_symbol() || piece_index(rules_, named.back().text) < 0)) {
      type = symbol(named.back(), "a move type");
      named = named.first(named.size() - 1);
    }
    if (named.empty()) return {{mover, type}};
    std::vector<Partial> partials;
    for (const Node& piece : named) partials.push_back({piece_named(piece), type});
    return partials;
  }

  // What the tests of a piece's moves find on a cell the move has captured (Run::captured).
  Captured captured_for(const CorePiece& piece) const {
    if (deferred_captures_) return Captured::Blocks;
    return continues(piece) ? Captured::Gone : Captured::Stands;
  }

  // Whether a piece's moves have several parts: then a part's captures are gone for the next part,
  // as Zillions plays each part on the board the last one left (conditions() reads them so).
  static bool continues(const CorePiece& piece) {
    return std::any_of(piece.bodies.begin(), piece.bodies.end(),
                       [](const CoreBody& body) { return uses_form(*body.node, "add-partial"); });
  }

  // The runs of `items` that stop at one of their adds of kind `end`, or none when none is among them.
  std::optional<core::Expr> stopping(std::span<const Node> items, const Run& run, const Stop& end) const {
    if (items.empty()) return std::nullopt;
    std::vector<core::Expr> ways;
    if (const auto branches = branches_at_origin(items.front(), run)) {
      for (const auto& [test, branch] : *branches) {
        const std::vector<Node> then_rest = joined(branch, items.subspan(1));
        if (auto way = stopping(then_rest, run, end)) keep_live(ways, core::seq({test, std::move(*way)}));
      }
      return core::choice(std::move(ways));
    }
    if (auto here = stopping(items.front(), run, end)) keep_live(ways, std::move(*here));
    auto later = stopping(items.subspan(1), after(items.front(), run), end);
    const std::string_view word = end.end == End::Add ? "add" : "add-partial";
    const auto ends_later = [&](const Node& item) { return uses_form(item, word); };
    if (!later && std::none_of(items.begin() + 1, items.end(), ends_later)) return core::choice(std::move(ways));
    core::Expr first = passing(items.front(), run);  // read even where the way dies, for its errors
    if (later)
      keep_live(ways, first == known(true) ? std::move(*later) : core::seq({std::move(first), std::move(*later)}));
    return core::choice(std::move(ways));
  }

  std::optional<core::Expr> stopping(const Node& item, const Run& run, const Stop& end) const {
    if (item.is_symbol("add") || item.head() == "add") {
      if (end.end != End::Add) return std::nullopt;
      if (item.is_symbol()) return unchanged(run) ? std::nullopt : std::optional(landing(run));
      std::vector<core::Expr> types;  // (add PIECE...): the mover lands as one of these
      for (std::size_t i = 1; i < item.items.size(); ++i)
        types.push_back(core::with_piece(core::Op::Become, piece_named(item.items[i])));
      if (types.empty()) mistake(item, "'(add ...)' names no piece", "write add alone to keep the piece as it is");
      return core::seq({landing(run), *core::choice(std::move(types))});
    }
    if (item.is_symbol("add-partial") || item.head() == "add-partial") {
      const std::vector<Partial> goes_on = partials_at(item, run.piece);
      if (end.end != End::AddPartial || std::find(goes_on.begin(), goes_on.end(), end.to) == goes_on.end())
        return std::nullopt;
      if (end.to.piece == run.piece) {
        if (unchanged(run)) return std::nullopt;
        return core::seq({landing(run), core::node(core::Op::Waypoint)});
      }
      // A part that crowns: the piece goes on as its new type, and lands as it when the move ends.
      return core::seq(
          {landing(run), core::with_piece(core::Op::Become, end.to.piece), core::node(core::Op::Waypoint)});
    }
    if (item.head() == "if") {
      const auto [test, then, otherwise] = if_parts(item);
      std::vector<core::Expr> ways;
      if (auto yes = stopping(then, run, end)) keep_live(ways, core::seq({condition(*test, run), std::move(*yes)}));
      if (auto no = stopping(otherwise, run, end))
        keep_live(ways, core::seq({negation(condition(*test, run)), std::move(*no)}));
      return core::choice(std::move(ways));
    }
    if (item.head() == "while") {
      const Node& test = argument(item, 1, "CONDITION");
      const std::span<const Node> body = std::span<const Node>(item.items).subspan(2);
      auto inside = stopping(body, run, end);
      if (!inside) return std::nullopt;
      // Some passes through the loop, then one that stops at an add inside it.
      core::Expr loop = core::node(core::Op::Repeat, {core::seq({condition(test, run), passing(body, run)})});
      return core::seq({std::move(loop), condition(test, run), std::move(*inside)});
    }
    return std::nullopt;
  }

  core::Expr passing(std::span<const Node> items, Run run) const {
    std::vector<core::Expr> parts;
    for (std::size_t i = 0; i < items.size(); ++i) {
      if (const auto branches = branches_at_origin(items[i], run)) {
        std::vector<core::Expr> ways;
        for (const auto& [test, branch] : *branches)
          keep_live(ways, core::seq({test, passing(joined(branch, items.subspan(i + 1)), run)}));
        parts.push_back(ways.empty() ? never() : *core::choice(std::move(ways)));
        break;
      }
      if (core::Expr part = passing(items[i], run); part != known(true)) parts.push_back(std::move(part));
      run = after(items[i], run);
    }
    return core::seq(std::move(parts));
  }

  // Where the run is surely at its origin, an if or a while whose branches move splits the rest of
  // the body in two, so that each way knows whether it is still there: the test, then the branch.
  // (while C B...) is (if C B... (while C B...)).
  std::optional<std::vector<std::pair<core::Expr, std::vector<Node>>>> branches_at_origin(const Node& item,
                                                                                          const Run& run) const {
    if (!run.at_origin || (item.head() != "if" && item.head() != "while") || !moves(item)) return std::nullopt;
    std::vector<Node> then, otherwise;
    const Node* test = nullptr;
    if (item.head() == "if") {
      const auto [tested, yes, no] = if_parts(item);
      test = tested;
      then.assign(yes.begin(), yes.end());
      otherwise.assign(no.begin(), no.end());
    } else {
      test = &argument(item, 1, "CONDITION");
      then.assign(item.items.begin() + 2, item.items.end());
      // A pass that comes back to the origin (a mark there, then back) leaves every pass there: the
      // loop is read whole, as away from it, rather than split again without end.
      if (after(std::span<const Node>(then), run).at_origin) return std::nullopt;
      then.push_back(item);
    }
    // A way whose test surely fails is left out: a loop that comes back to the origin, where its test
    // of the mover's own cell is known to fail, would otherwise be split again without end.
    core::Expr holds = condition(*test, run);
    std::vector<std::pair<core::Expr, std::vector<Node>>> ways;
    if (holds != never()) ways.emplace_back(holds, std::move(then));
    if (holds != known(true)) ways.emplace_back(negation(holds), std::move(otherwise));
    return ways;
  }

  static std::vector<Node> joined(std::span<const Node> first, std::span<const Node> second) {
    std::vector<Node> items(first.begin(), first.end());
    items.insert(items.end(), second.begin(), second.end());
    return items;
  }

  // Whether `item` may move the current position: a direction, a position's name, back, or a
  // branch or loop holding one.
  bool moves(const Node& item) const {
    if (is_direction(item) || item.head() == "opposite" || item.is_symbol("back")) return true;
    if (item.is_symbol() && position_cells_.count(item.text)) return true;
    if (item.head() != "if" && item.head() != "while") return false;
    return std::any_of(item.items.begin() + 1, item.items.end(), [&](const Node& each) { return moves(each); });
  }

  // Whether `item` acts on the board: anything but moving, testing, marking and adding.
  bool acts(const Node& item) const {
    if (moves(item) && item.head() != "if" && item.head() != "while") return false;
    if (item.head() == "verify" || item.is_symbol("mark") || item.is_symbol("add") || item.head() == "add" ||
        item.is_symbol("add-partial") || item.head() == "add-partial" || item.is_symbol("else"))
      return false;
    if (item.head() == "if" || item.head() == "while")
      return std::any_of(item.items.begin() + 2, item.items.end(), [&](const Node& each) { return acts(each); });
    return true;
  }

  Run after(std::span<const Node> items, Run run) const {
    for (const Node& item : items) run = after(item, run);
    return run;
  }

  // The run after `item`, which it passed through.
  Run after(const Node& item, Run run) const {
    if (item.is_symbol("mark")) run.marked_at_origin = run.at_origin;
    if (item.is_symbol("back"))
      run.at_origin = run.marked_at_origin;
    else if (moves(item))
      run.at_origin = false;
    run.acted = run.acted || acts(item);
    return run;
  }

  // Whether an add here would change nothing: the mover is put back where it stands.
  static bool unchanged(const Run& run) { return run.at_origin && !run.acted; }

  // The tests whose answer is known: a cell that is surely the mover's own.
  static core::Expr known(bool holds) {
    core::Expr on_board = core::node(core::Op::Any);
    return holds ? on_board : core::node(core::Op::Not, {std::move(on_board)});
  }
  static core::Expr never() { return known(false); }
  static bool dies(const core::Expr& expr) {
    if (expr == never()) return true;
    return expr.op == core::Op::Seq && std::any_of(expr.items.begin(), expr.items.end(), dies);
  }
  static void keep_live(std::vector<core::Expr>& ways, core::Expr way) {
    if (!dies(way)) ways.push_back(std::move(way));
  }
  // (not TEST), with a known answer turned over.
  static core::Expr negation(core::Expr test) {
    if (test == never()) return known(true);
    if (test == known(true)) return never();
    return core::node(core::Op::Not, {std::move(test)});
  }

  core::Expr passing(const Node& item, const Run& run) const {
    if (is_direction(item)) return core_go(direction_for(item, run.player), run.player);
    // A position's name moves the current position there (Shogi files go to a1, then walk the
    // board from it, to drop a piece from their reserve): the core's (enter (cells POSITION)).
    if (item.is_symbol() && position_cells_.count(item.text)) {
      core::Expr enter = core::node(core::Op::Enter);
      enter.region.cells = {position(item)};
      return enter;
    }
    if (item.head() == "opposite") {
      const Node& along = argument(item, 1, "DIRECTION");
      return core_go(opposite_of(direction_for(along, run.player), along), run.player);
    }
    if (item.head() == "verify") return condition(argument(item, 1, "CONDITION"), run);
    if (item.is_symbol("add") || item.head() == "add" || item.is_symbol("add-partial") || item.head() == "add-partial")
      return core::seq({});
    if (item.is_symbol("capture")) return core::node(core::Op::Capture);
    // mark remembers the current position, back returns to it (one mark, as Zillions keeps).
    if (item.is_symbol("mark") || item.is_symbol("back")) {
      core::Expr expr = core::node(item.is_symbol("mark") ? core::Op::Mark : core::Op::Back);
      expr.variable = "marked";
      return expr;
    }
    if (item.is_symbol("flip") || item.is_symbol("change-owner")) return core::node(core::Op::Convert);
    if (item.head() == "if") {
      const auto [test, then, otherwise] = if_parts(item);
      core::Expr tested = condition(*test, run);
      if (tested == known(true)) return passing(then, run);
      if (tested == never()) return passing(otherwise, run);
      core::Expr done = passing(then, run);
      std::optional<core::Expr> other;
      if (!otherwise.empty()) other = passing(otherwise, run);
      // An if whose branch does nothing here (an add, which ends the move elsewhere) is the other
      // branch under the opposite test, or nothing: the core writes no empty sequence.
      const auto nothing = [](const core::Expr& e) { return e.op == core::Op::Seq && e.items.empty(); };
      if (other && nothing(*other)) other.reset();
      if (!nothing(done))
        return core::node(core::Op::If, other ? std::vector{tested, done, *other} : std::vector{tested, done});
      if (!other) return core::seq({});
      return core::node(core::Op::If, {core::node(core::Op::Not, {tested}), *other});
    }
    if (item.head() == "while") {
      const std::span<const Node> body = std::span<const Node>(item.items).subspan(2);
      return core::node(core::Op::While, {condition(argument(item, 1, "CONDITION"), run), passing(body, run)});
    }
    const std::string keyword = item.is_symbol() ? item.text : std::string(item.head());
    if (kUnsupported.count(keyword)) unsupported(item, keyword);
    if (keyword == "to")
      missing_feature(
          item,
          "'to' is read only in moves that are one step, leap or slide, or before a 'cascade'; a piece with a move "
          "of several adds, branches or effects has its moves read another way, where 'to' needs a 'cascade' "
          "after it",
          "docs/zrf.md lists what each way reads");
    if (item.is_symbol()) direction(item);  // an unknown direction, with did-you-mean
    unread(item, keyword, fmt::format("unsupported in a move: {}", describe(item)),
           "troyka reads moves made of directions, (opposite DIR), (verify ...), if, while, capture, mark, back, "
           "flip, change-owner, add and (add PIECE)");
  }

  // (if C A... [else B...]): the test, the items before else and those after it.
  std::tuple<const Node*, std::span<const Node>, std::span<const Node>> if_parts(const Node& form) const {
    const Node& test = argument(form, 1, "CONDITION");
    const std::span<const Node> rest = std::span<const Node>(form.items).subspan(2);
    const auto otherwise =
        std::find_if(rest.begin(), rest.end(), [](const Node& item) { return item.is_symbol("else"); });
    const auto split = static_cast<std::size_t>(otherwise - rest.begin());
    if (otherwise == rest.end()) return {&test, rest, {}};
    return {&test, rest.first(split), rest.subspan(split + 1)};
  }

  // A ZRF condition as a core test, read at the current cell for the run's player.
  core::Expr condition(const Node& node, const Run& run) const {
    const int player = run.player;
    if (node.is_symbol()) {
      if (const auto last = kLastMoveTests.find(node.text); last != kLastMoveTests.end()) {
        core::Expr test = last_move_test(last->second.first);
        return last->second.second ? core::node(core::Op::Not, {std::move(test)}) : test;
      }
      const auto it = kOccupancyTests.find(node.text);
      if (it == kOccupancyTests.end()) occupancy(node);  // the message for an unknown condition
      return occupants(it->second, run);
    }
    if (node.is_list() && node.items.size() == 1) return condition(node.items[0], run);
    const std::string head(node.head());
    const auto arguments = [&] { return std::span<const Node>(node.items).subspan(1); };
    if (head == "not") return negation(condition(argument(node, 1, "CONDITION"), run));
    if (head == "and" || head == "or") {
      std::vector<core::Expr> tests;
      for (const Node& each : arguments()) {
        core::Expr test = condition(each, run);
        tests.push_back(head == "and" ? std::move(test) : core::node(core::Op::Not, {std::move(test)}));
      }
      if (tests.empty()) mistake(node, fmt::format("'({} ...)' holds no condition", head));
      core::Expr all = core::node(core::Op::And, std::move(tests));
      return head == "and" ? all
                           : core::node(core::Op::Not, {std::move(all)});  // (or a b) is (not (and (not a) (not b)))
    }
    // Conditions that may name a direction last: they test the cell that way, which must be on the board.
    // The conditions of a cell, which may name a direction last: then the cell that way, which
    // must be on the board. A not- form is the condition's negation, (not-in-zone? Z) of (in-zone? Z).
    const std::map<std::string, core::Op, std::less<>> places = {
        {"piece?", core::Op::Is},     {"in-zone?", core::Op::In},         {"position?", core::Op::In},
        {"on-board?", core::Op::Any}, {"last-from?", core::Op::LastFrom}, {"last-to?", core::Op::LastTo}};
    const bool occupancy_test = kOccupancyTests.count(head) > 0;
    const bool negated = !occupancy_test && head.starts_with("not-") && places.count(head.substr(4));
    const std::string positive = negated ? head.substr(4) : head;
    if (!occupancy_test && !places.count(positive))
      unread(node, head, fmt::format("the condition {} cannot be expressed in troyka's core yet", describe(node)),
             "troyka reads empty?, enemy?, friend?, their not- forms, piece?, in-zone?, position?, on-board?, "
             "last-from?, last-to?, not, and, or");
    std::size_t next = 1;
    const bool named = positive == "piece?" || positive == "in-zone?" || positive == "position?";
    Run at = run;  // a condition that names a direction last tests a cell away from the origin
    if (node.items.size() > (named ? 2U : 1U)) at.at_origin = false;
    core::Expr test = occupancy_test ? occupants(kOccupancyTests.at(head), at) : core::node(places.at(positive));
    if (test.op == core::Op::LastFrom || test.op == core::Op::LastTo) test = last_move_test(test.op);
    if (positive == "piece?") {
      test.piece = piece_named(argument(node, next++, "PIECE"));
      test = at.at_origin ? known(test.piece == run.piece)  // the mover stands there
                          : piece_as_run_reads(std::move(test), at);
    }
    if (positive == "in-zone?") {
      test.region = zone_cells(zone_named(argument(node, next++, "ZONE")), player);
      // A zone with no cell for this player holds nowhere; the core writes no empty region.
      if (test.region.kind == core::Region::Kind::Cells && test.region.cells.empty())
        test = core::node(core::Op::Not, {core::node(core::Op::Any)});
    }
    if (positive == "position?") test.region.cells = {position(argument(node, next++, "POSITION"))};
    if (positive == "on-board?" && next == node.items.size()) mistake(node, "'(on-board? ...)' needs a direction");
    if (next < node.items.size()) {
      const Node& way = node.items[next++];
      test = core::node(core::Op::Can, {core::seq({core_go(direction_for(way, player), player), std::move(test)})});
    }
    if (next < node.items.size()) mistake(node.items[next], fmt::format("'({} ...)' takes no more", head));
    return negated ? negation(std::move(test)) : test;
  }

  // last-from? or last-to?: the cell the previous move (or part of this move) started from or ended
  // on, kept in a register of its own (make_last_move_registers).
  core::Expr last_move_test(core::Op op) const {
    core::Expr test = core::node(op);
    test.slot = find_last_move_register(rules_, op == core::Op::LastFrom ? LastMove::From : LastMove::To);
    return test;
  }

  // The registers the interpreter keeps for last-from? and last-to?, made before the moves that
  // test them are read, in the order of their first use.
  void make_last_move_registers() {
    const auto visit = [&](const auto& self, const Node& node) -> void {
      const std::string_view word = node.is_symbol() ? std::string_view(node.text) : node.head();
      const std::string_view positive = word.starts_with("not-") ? word.substr(4) : word;
      if (positive == "last-from?") last_move_register(rules_, LastMove::From);
      if (positive == "last-to?") last_move_register(rules_, LastMove::To);
      for (const Node& item : node.items) self(self, item);
    };
    for (const auto* pieces : {&core_pieces_, &core_drops_})
      for (const CorePiece& piece : *pieces)
        for (const CoreBody& body : piece.bodies) visit(visit, *body.node);
  }

  // The test that a cell holds one of `allowed` (Occupant bits), with a captured cell read as the
  // run says (Run::captured).
  static core::Expr occupants(unsigned allowed, const Run& run) {
    if (allowed == 0 || allowed == kAnyOccupant) return core::node(core::Op::Any);  // no test of the cell
    if (run.at_origin) return known((allowed & kFriend) != 0);                      // the mover stands there
    if (run.captured == Captured::Gone) return occupants_gone(allowed);
    core::Expr standing = occupants_standing(allowed);
    if (run.captured == Captured::Stands) return standing;
    return core::node(core::Op::And, {std::move(standing), not_captured()});
  }

  // A captured piece stands as on the board before the move.
  static core::Expr occupants_standing(unsigned allowed) {
    switch (allowed) {
      case kEmpty: return core::node(core::Op::Empty);
      case kEnemy: return core::node(core::Op::Enemy);
      case kFriend: return core::node(core::Op::Friend);
      case kEnemy | kFriend: return core::node(core::Op::Occupied);
      case kEmpty | kEnemy: return core::node(core::Op::NotFriend);
      default: return core::node(core::Op::Not, {core::node(core::Op::Enemy)});  // empty or friend
    }
  }

  // A cell captured by an earlier part is empty, its piece gone; a capture of this part stands
  // until the part is added (core::Op::CapturedEarlier).
  static core::Expr occupants_gone(unsigned allowed) {
    const auto standing = [](core::Op op) {
      return core::node(core::Op::And,
                        {core::node(op), core::node(core::Op::Not, {core::node(core::Op::CapturedEarlier)})});
    };
    switch (allowed) {
      case kEmpty: return core::node(core::Op::Not, {standing(core::Op::Occupied)});
      case kEnemy: return standing(core::Op::Enemy);
      case kFriend: return standing(core::Op::Friend);
      case kEnemy | kFriend: return standing(core::Op::Occupied);
      case kEmpty | kEnemy: return core::node(core::Op::Not, {standing(core::Op::Friend)});
      default: return core::node(core::Op::Not, {standing(core::Op::Enemy)});  // empty or friend
    }
  }

  // (piece? P) on a cell a capture has emptied: an earlier part's capture took the piece away, so
  // it holds no more, as Zillions plays each part on the board the last one left (koom-valley-
  // thud.zrf's trolls would otherwise jump one dwarf to and fro, taking it again at every part);
  // with deferred captures the captured piece blocks its cell, as for every test (Run::captured).
  static core::Expr piece_as_run_reads(core::Expr is, const Run& run) {
    if (run.captured == Captured::Stands) return is;
    core::Expr taken =
        run.captured == Captured::Gone ? core::node(core::Op::CapturedEarlier) : core::node(core::Op::Captured);
    return core::node(core::Op::And, {std::move(is), core::node(core::Op::Not, {std::move(taken)})});
  }

  static core::Expr not_captured() { return core::node(core::Op::Not, {core::node(core::Op::Captured)}); }

  core::Region zone_cells(const PlayerRegion& zone, int player) const {
    core::Region region;
    region.cells = zone[static_cast<std::size_t>(player)];
    return region;
  }

  // Where a run stops at an add: the mover lands here, taking whatever stands there (Zillions moves
  // onto a friend's piece too, when the file lets them).
  static core::Expr landing(Run run) {
    run.at_origin = false;  // put back where it stands after acting, the mover finds its cell empty
    return *core::choice(
        {occupants(kEmpty, run), core::seq({occupants(kEnemy | kFriend, run), core::node(core::Op::Capture)})});
  }

  // The direction opposite `way` (`at` names it): on a grid, the negated offset; on a board given
  // by links, the direction that leads back along each of `way`'s links (from B to A for each link
  // from A to B), as a grid's directions do where links extend the grid; of several, the one whose
  // links `way` leads back along in turn (a direction that adds links of its own to a grid's is
  // not the opposite of the grid's). A board whose links go one way only has none.
  Offset opposite_of(Offset way, const Node& at) const {
    if (!rules_.points) return {-way.dx, -way.dy};
    std::set<std::tuple<int, int, int, int>> links;  // (dx, dy, from, to)
    for (const Link& link : rules_.links) links.emplace(link.direction.dx, link.direction.dy, link.from, link.to);
    const auto leads_back = [&](Offset along, Offset back) {
      bool any = false;
      for (const Link& link : rules_.links) {
        if (link.direction != along) continue;
        any = true;
        if (!links.count({back.dx, back.dy, link.to, link.from})) return false;
      }
      return any;
    };
    std::vector<std::pair<std::string, Offset>> found;
    for (const auto& [name, offset] : directions_)
      if (leads_back(way, offset)) found.emplace_back(name, offset);
    if (found.size() > 1) std::erase_if(found, [&](const auto& named) { return !leads_back(named.second, way); });
    if (found.size() == 1) return found.front().second;
    if (found.empty())
      missing_feature(
          at,
          fmt::format("no direction of this board leads back along every link of '{}', so troyka cannot tell "
                      "its opposite",
                      at.text),
          "troyka walks back along a link by the direction that links each of its ends back to its start: "
          "give that direction its links, or write the direction back by its name");
    std::vector<std::string> names;
    for (const auto& named : found) names.push_back(named.first);
    missing_feature(
        at,
        fmt::format("the directions {} each lead back along every link of '{}', and it along theirs: troyka cannot "
                    "tell which is its opposite",
                    fmt::join(names, " and "), at.text),
        "write the direction back by its name");
  }

  // A step by an absolute offset, written in the player's frame (right, forward), as the core's leaps
  // are; along a link direction, by its name, the same for every player.
  core::Expr core_go(Offset absolute, int player) const {
    const bool along_link = !rules_.link_direction_name(absolute).empty();
    const core::Direction direction =
        along_link ? core::Direction{core::Direction::Frame::Absolute, absolute}
                   : core::Direction{core::Direction::Frame::Leap,
                                     relative_to(absolute, rules_.players[static_cast<std::size_t>(player)].forward)};
    core::Expr go = core::node(core::Op::Go);
    go.directions = {direction};
    return go;
  }

  // ---- drops ----

  // What the tests of a drop body say about the cell the drop starts on, which is where it places
  // its piece: who may stand there, the zones it must (or must not) be in, and a gravity test.
  struct DropTests {
    unsigned allowed = kAnyOccupant;
    std::vector<std::pair<const Node*, bool>> zones;  // (zone name, must be in it)
    const Node* gravity = nullptr;                    // the direction whose neighbour must be filled
  };

  // (or (not-on-board? D) (not-empty? D)): the neighbour in D is off the board or occupied, which is
  // troyka's gravity towards D. (not (empty? D)) is read as (not-empty? D).
  const Node* gravity_test(const Node& condition) const {
    if (condition.head() != "or" || condition.items.size() != 3) return nullptr;
    const auto direction_of = [&](const Node& test, std::string_view word) -> const Node* {
      if (test.head() == word && test.items.size() == 2 && is_direction(test.items[1])) return &test.items[1];
      return nullptr;
    };
    for (int first = 1; first <= 2; ++first) {
      const Node* off = direction_of(condition.items[static_cast<std::size_t>(first)], "not-on-board?");
      const Node& other = condition.items[static_cast<std::size_t>(3 - first)];
      const Node* filled = direction_of(other, "not-empty?");
      if (!filled && other.head() == "not" && other.items.size() == 2) filled = direction_of(other.items[1], "empty?");
      if (off && filled && off->text == filled->text) return off;
    }
    return nullptr;
  }

  void drop_test(const Node& condition, DropTests& tests) const {
    const std::string head(condition.head());
    if (head == "in-zone?" || head == "not-in-zone?" ||
        (head == "not" && condition.items.size() == 2 && condition.items[1].head() == "in-zone?")) {
      const Node& test = head == "not" ? condition.items[1] : condition;
      if (test.items.size() != 2)
        missing_feature(test,
                        fmt::format("troyka reads ({} ZONE) of the cell the drop places its piece on", test.head()));
      zone_named(test.items[1]);
      tests.zones.emplace_back(&test.items[1], head == "in-zone?");
    } else if (head == "and" && condition.items.size() >= 2) {
      for (std::size_t i = 1; i < condition.items.size(); ++i) drop_test(condition.items[i], tests);
    } else if (const Node* direction = gravity_test(condition)) {
      if (tests.gravity) missing_feature(condition, "troyka drops have at most one gravity test");
      tests.gravity = direction;
    } else if (head == "or" && std::any_of(condition.items.begin(), condition.items.end(),
                                           [](const Node& item) { return item.head() == "not-on-board?"; })) {
      missing_feature(
          condition,
          "troyka reads a test of a neighbour in a drop only as gravity, (or (not-on-board? D) (not-empty? D))",
          "the same direction D in both, as (or (not-on-board? s) (not-empty? s))");
    } else {
      tests.allowed &= occupancy(condition);
    }
  }

  const PlayerRegion& zone_named(const Node& node) const { return named(zones_, node, "a zone name", "zone"); }

  // A ZRF drop body as a troyka drop: ((verify empty?) add), optionally with zone tests and a
  // gravity test, all of the cell where the drop starts and places its piece.
  MoveRule lower_drop(const Node& body) const {
    if (!body.is_list() || body.items.empty())
      mistake(body, fmt::format("expected a drop like ((verify empty?) add), found {}", describe(body)));
    MoveRule rule;
    rule.kind = MoveKind::Drop;
    rule.pos = body.pos;
    rule.text = to_text(body);
    rule.target = Target::Empty;
    DropTests tests;
    bool adds = false;
    for (std::size_t i = 0; i < body.items.size() && !adds; ++i) {
      const Node& item = body.items[i];
      const bool last = i + 1 == body.items.size();
      if (item.is_symbol("add")) {
        if (!last) missing_feature(body.items[i + 1], "troyka drops end at their first 'add'; this continues after it");
        adds = true;
      } else if (item.head() == "verify") {
        drop_test(argument(item, 1, "CONDITION"), tests);
      } else if (item.head() == "if" && last && item.items.size() == 3 && item.items[2].is_symbol("add")) {
        drop_test(item.items[1], tests);
        adds = true;
      } else if (is_direction(item)) {
        missing_feature(item,
                        "unsupported in a drop: a step: troyka drops place the piece on the cell where the drop starts",
                        "test a neighbour for gravity with (verify (or (not-on-board? s) (not-empty? s)))");
      } else {
        const std::string keyword = item.is_symbol() ? item.text : std::string(item.head());
        if (kUnsupported.count(keyword)) unsupported(item, keyword);
        unread(item, keyword, fmt::format("unsupported in a drop: {}", describe(item)),
               "troyka reads drops made of (verify ...) tests of the cell and add");
      }
    }
    if (!adds) mistake(body, "this drop never adds: it needs 'add' at its end", "a drop is ((verify empty?) add)");
    if (tests.allowed == 0) mistake(body, "this drop can never be made: its conditions allow no occupant of the cell");
    if (tests.allowed != kEmpty)
      missing_feature(body,
                      "troyka drops place pieces only on empty cells; this drop may also place one on an occupied cell",
                      "test the cell with (verify empty?)");
    for (int p = 0; p < players(); ++p) {
      std::vector<bool> allowed(static_cast<std::size_t>(rules_.cells()), true);
      for (const auto& [zone, inside] : tests.zones) {
        std::vector<bool> in_zone(allowed.size(), false);
        for (const int cell : zone_named(*zone)[static_cast<std::size_t>(p)])
          in_zone[static_cast<std::size_t>(cell)] = true;
        for (std::size_t c = 0; c < allowed.size(); ++c) allowed[c] = allowed[c] && in_zone[c] == inside;
      }
      CellList& region = rule.region[static_cast<std::size_t>(p)];
      for (std::size_t c = 0; c < allowed.size(); ++c)
        if (allowed[c] && !rules_.is_hole(static_cast<int>(c))) region.push_back(static_cast<int>(c));
      if (tests.gravity) rule.offsets[static_cast<std::size_t>(p)] = {direction_for(*tests.gravity, p)};
    }
    return rule;
  }

  // Zillions drops take pieces from the player's supply off the board (board-setup's (PIECE off N)),
  // which runs out. Drops are keyword drops, from a supply that never runs out, where that is the
  // same game: no board-setup gives a supply (docs/zrf.md, No board-setup), or the supply surely
  // lasts. Otherwise, and when move-priorities rank drops among the moves (which only core rules
  // carry), they are core rules, taking from the player's hand (give_supplies_to_hands).
  void place_drops() {
    const bool supplied = !forms("board-setup").empty();
    if (move_priorities_.empty() && (!supplied || supply_lasts())) {
      for (const CorePiece& dropped : drops_)
        for (const CoreBody& body : dropped.bodies)
          rules_.pieces[static_cast<std::size_t>(dropped.piece)].moves.push_back(lower_drop(*body.node));
      return;
    }
    core_drops_ = drops_;
    if (supplied) give_supplies_to_hands();
  }

  // Whether every player's supply of every piece it drops is at least the number of drops it can
  // make: then no supply runs out. That number is bounded when no piece ever leaves the board, as
  // each drop then fills a cell for good: the empty cells, or, when nothing but drops happens and
  // turns alternate, the player's share of them (of two players, the first's half rounded up and
  // the second's rounded down).
  bool supply_lasts() const {
    if (!core_pieces_.empty()) return false;  // a move in core forms may capture anywhere
    bool moves = false;
    for (const PieceType& piece : rules_.pieces)
      for (const MoveRule& move : piece.moves) {
        if (move.capture) return false;
        moves = true;
      }
    const int empty_cells = rules_.cells_on_board() - static_cast<int>(rules_.setup.size());
    for (const CorePiece& dropped : drops_)
      for (int p = 0; p < players(); ++p) {
        const int most = moves || !rules_.alternates() ? empty_cells : (empty_cells + players() - 1 - p) / players();
        const auto supply = supplies_[static_cast<std::size_t>(p)].find(dropped.piece);
        if (supply == supplies_[static_cast<std::size_t>(p)].end() || supply->second.count < most) return false;
      }
    return true;
  }

  // The supply of each piece a drop places starts in its player's hand, and a drop takes from it
  // (drop_rule). A piece with no supply given is never dropped. A supply of a piece no drop places
  // stays off the board, where nothing reads it.
  void give_supplies_to_hands() {
    for (const CorePiece& dropped : core_drops_) {
      const Node& first = *dropped.bodies.front().node;
      if (rules_.hands.size() == kMaxHandPieces)
        missing_feature(
            first, fmt::format("troyka's hands hold at most {} piece types, and this game drops more", kMaxHandPieces));
      rules_.hands.push_back(dropped.piece);
      for (int p = 0; p < players(); ++p) {
        const auto supply = supplies_[static_cast<std::size_t>(p)].find(dropped.piece);
        if (supply == supplies_[static_cast<std::size_t>(p)].end()) continue;
        if (supply->second.count > kMaxHandCount)
          missing_feature(*supply->second.node,
                          fmt::format("troyka's hands hold at most {} pieces of a type, and this supply is {}",
                                      kMaxHandCount, supply->second.count));
        for (int i = 0; i < supply->second.count; ++i) rules_.setup.push_back({p, dropped.piece, kInHand});
      }
    }
  }

  // ---- setup ----

  // (board-setup (PLAYER (PIECE POSITION...)...)...)
  void read_setup() {
    if (forms("board-setup").empty()) return;  // the board starts empty, and no one has pieces off it
    const Node& form = single("board-setup");
    std::vector<const Node*> placed(static_cast<std::size_t>(rules_.cells()), nullptr);
    for (std::size_t i = 1; i < form.items.size(); ++i) {
      const Node& side = form.items[i];
      if (!side.is_list() || side.items.empty())
        mistake(side, fmt::format("expected (PLAYER (PIECE POSITION...)...), found {}", describe(side)));
      const int player = player_index(side.items[0]);
      for (std::size_t j = 1; j < side.items.size(); ++j) {
        const Node& group = side.items[j];
        if (!group.is_list() || group.items.empty())
          mistake(group, fmt::format("expected (PIECE POSITION...), found {}", describe(group)));
        const int piece = piece_named(group.items[0]);
        for (std::size_t k = 1; k < group.items.size(); ++k) {
          if (group.items[k].is_symbol("off")) {
            // (PIECE off N): N pieces off the board, the supply drops take from.
            if (k + 1 >= group.items.size())
              mistake(group.items[k], "expected the number of pieces off the board after 'off'",
                      fmt::format("write ({} off 5)", group.items[0].text));
            Supply& supply = supplies_[static_cast<std::size_t>(player)][piece];
            if (supply.node)
              mistake(group.items[k],
                      fmt::format("{}'s supply of {} off the board is given twice; the first is at line {}",
                                  rules_.players[player].name, group.items[0].text, supply.node->pos.line));
            supply = {number(group.items[k + 1], 0, 1000000, "the number of pieces off the board"), &group.items[k]};
            ++k;
            continue;
          }
          const int cell = position(group.items[k]);
          if (const Node* earlier = placed[static_cast<std::size_t>(cell)])
            mistake(group.items[k], fmt::format("two pieces on {}: it was already filled at line {}",
                                                group.items[k].text, earlier->pos.line));
          placed[static_cast<std::size_t>(cell)] = &group.items[k];
          rules_.setup.push_back({player, piece, cell});
        }
      }
    }
  }

  // ---- goals ----

  using PlayerSet = std::array<bool, kMaxPlayers>;

  void read_goals() {
    PlayerSet stalemate_covered{};
    for (const std::string& keyword : kGoalForms)
      for (const Node* form : forms(keyword)) read_goal(*form, stalemate_covered);
    // Zillions' default: a player who cannot move loses (see docs/zrf.md for the sources).
    std::string uncovered;
    PlayerSet subjects{};
    for (int p = 0; p < players(); ++p)
      if (!stalemate_covered[static_cast<std::size_t>(p)]) {
        uncovered += (uncovered.empty() ? "" : " ") + rules_.players[p].name;
        subjects[static_cast<std::size_t>(p)] = true;
      }
    if (uncovered.empty()) return;
    EndRule rule;
    rule.outcome = Outcome::Loss;
    rule.kind = EndKind::NoLegalMoves;
    rule.text = fmt::format("(loss-condition ({}) stalemated) ; the Zillions default", uncovered);
    rule.condition_text = "stalemated";
    add_end_rule(std::move(rule), subjects);
  }

  // An end rule for the players `subjects` names: one rule for all when it names every player,
  // else one rule for each.
  void add_end_rule(EndRule rule, const PlayerSet& subjects) {
    if (std::all_of(subjects.begin(), subjects.begin() + players(), [](bool named) { return named; })) {
      rule.only_player = -1;
      rules_.end.push_back(std::move(rule));
      return;
    }
    for (int p = 0; p < players(); ++p)
      if (subjects[static_cast<std::size_t>(p)]) {
        rule.only_player = p;
        rules_.end.push_back(rule);
      }
  }

  void read_goal(const Node& form, PlayerSet& stalemate_covered) {
    const std::string head(form.head());
    const Outcome outcome = head == "win-condition"    ? Outcome::Win
                            : head == "loss-condition" ? Outcome::Loss
                                                       : Outcome::Draw;
    if (form.items.size() != 3) mistake(form, fmt::format("expected ({} (PLAYER...) CONDITION)", head));
    const PlayerSet named = player_set(form.items[1]);
    if (form.items[2].head() == "checkmated" &&
        !std::all_of(named.begin(), named.begin() + players(), [](bool each) { return each; }))
      missing_feature(form.items[2],
                      "'checkmated' in a goal of some players only is not supported yet: troyka keeps every player's "
                      "named piece from being left attacked",
                      fmt::format("({} ({}) (checkmated ...)) is read", head, fmt::join(player_names(rules_), " ")));
    std::vector<EndRule> rules;
    condition(form.items[2], rules);
    for (EndRule& rule : rules) {
      rule.pos = form.pos;
      rule.text = to_text(form);
      PlayerSet subjects = named;
      if (rule.kind == EndKind::OpponentHasNoPieces) {
        // "P has no pieces" is troyka's "P's opponent has no pieces" seen from the opponent, with the
        // outcome turned round: P's win is the opponent's loss (a game of two players: see
        // pieces_remaining).
        std::swap(subjects[0], subjects[1]);
        rule.outcome = outcome == Outcome::Win    ? Outcome::Loss
                       : outcome == Outcome::Loss ? Outcome::Win
                                                  : Outcome::Draw;
      } else {
        rule.outcome = outcome;
      }
      if (rule.kind == EndKind::NoLegalMoves)
        for (int p = 0; p < players(); ++p)
          stalemate_covered[static_cast<std::size_t>(p)] |= subjects[static_cast<std::size_t>(p)];
      add_end_rule(std::move(rule), subjects);
    }
  }

  void condition(const Node& node, std::vector<EndRule>& out) {
    const std::string word = node.is_symbol() ? node.text : std::string(node.head());
    EndRule rule;
    rule.condition_text = to_text(node);
    if (word == "stalemated" && node.is_symbol()) {
      rule.kind = EndKind::NoLegalMoves;
      out.push_back(rule);
    } else if (word == "or" && node.items.size() >= 2) {
      // The relative-configs of an 'or' together are one N-in-a-row rule, the others one rule each.
      std::vector<const Node*> lines;
      for (std::size_t i = 1; i < node.items.size(); ++i) {
        if (node.items[i].head() == "relative-config")
          lines.push_back(&node.items[i]);
        else
          condition(node.items[i], out);
      }
      if (!lines.empty()) out.push_back(in_a_row(lines, node, rule));
    } else if (word == "and" && node.items.size() >= 2) {
      out.push_back(conjunction(node, rule));
    } else if (word == "relative-config" && node.is_list()) {
      out.push_back(in_a_row({&node}, node, rule));
    } else if (word == "pieces-remaining" && node.is_list()) {
      out.push_back(pieces_remaining(node, rule));
    } else if (word == "repetition" && node.is_symbol()) {
      // The player is in a threefold repetition (the Language Reference's goal overview).
      rule.kind = EndKind::Repetition;
      rule.repetitions = 3;
      rule.condition_text = "(repetition 3)";
      out.push_back(rule);
    } else if (word == "checkmated" && node.is_list()) {
      out.push_back(checkmated(node, rule));
    } else if (word == "absolute-config" && node.is_list()) {
      absolute_config(node, rule, out);
    } else {
      const Node& at = node.is_list() && !node.items.empty() ? node.items.front() : node;
      if (kUnsupported.count(word)) unsupported(at, word);
      unread(at, word, fmt::format("unknown goal condition {}", describe(node)), suggest(word, kConditions));
    }
  }

  // (and C...): every condition holds for the player, troyka's (and C...). A condition that reads as
  // several rules (an 'or') is their (or ...); "has no pieces", which troyka says of the opponent
  // (read_goal turns it round), cannot be one of the parts.
  EndRule conjunction(const Node& node, EndRule rule) {
    rule.kind = EndKind::All;
    std::string texts;
    for (std::size_t i = 1; i < node.items.size(); ++i) {
      std::vector<EndRule> parts;
      condition(node.items[i], parts);
      if (std::any_of(parts.begin(), parts.end(),
                      [](const EndRule& part) { return part.kind == EndKind::OpponentHasNoPieces; }))
        missing_feature(
            node.items[i],
            "(pieces-remaining 0) inside (and ...) is not supported yet: troyka tests a player's having no pieces "
            "only as a goal of its own",
            "(pieces-remaining 0 PIECE) is read inside (and ...): the player has no PIECE left");
      EndRule part;
      if (parts.size() == 1) {
        part = parts.front();
      } else {
        part.kind = EndKind::Any;
        part.parts = parts;
        part.condition_text = "(or";
        for (const EndRule& each : parts) part.condition_text += " " + each.condition_text;
        part.condition_text += ")";
      }
      texts += " " + part.condition_text;
      rule.parts.push_back(std::move(part));
    }
    rule.condition_text = "(and" + texts + ")";
    return rule;
  }

  // (pieces-remaining N [PIECE]): the player has exactly N pieces (of that type) on the board; pieces
  // off the board count only with the option "include off-pieces" true (docs/zrf.md gives the source).
  EndRule pieces_remaining(const Node& node, EndRule rule) const {
    if (node.items.size() != 2 && node.items.size() != 3)
      mistake(node, "expected (pieces-remaining N) or (pieces-remaining N PIECE)");
    if (include_off_pieces_ &&
        std::any_of(supplies_.begin(), supplies_.end(), [](const auto& s) { return !s.empty(); }))
      missing_feature(
          node,
          "'pieces-remaining' counting the pieces off the board (\"include off-pieces\" true) is not supported yet",
          "troyka counts the pieces on the board, as Zillions does without that option");
    const int count = number(node.items[1], 0, 1000000, "the number of pieces");
    if (node.items.size() == 3) {
      rule.piece = piece_named(node.items[2]);
      if (count != 0)
        missing_feature(
            node,
            "(pieces-remaining N PIECE) with N above 0 is not supported yet: troyka counts a player's pieces of one "
            "type only down to none",
            "(pieces-remaining 0 PIECE) is read: the player has no PIECE left");
      rule.kind = EndKind::Lost;
      rule.condition_text = fmt::format("(lost {})", node.items[2].text);
    } else if (count == 0 && players() == 2) {
      rule.kind = EndKind::OpponentHasNoPieces;  // read_goal turns it round
    } else {
      rule.kind = EndKind::Compare;
      rule.counter = -1;
      rule.comparison = Comparison::Equal;
      rule.value = count;
      rule.condition_text = fmt::format("(= (pieces) {})", count);
    }
    return rule;
  }

  // (checkmated PIECE...): one of the player's PIECEs is attacked and the player cannot move, which
  // Zillions reads with a rule beside it: no move may leave such a piece attacked (docs/zrf.md). So
  // the goal is troyka's (and no-legal-moves (in-check PIECE)), and the game gets (legal (not
  // (in-check PIECE))) for every piece a checkmated goal names.
  EndRule checkmated(const Node& node, EndRule rule) {
    if (node.items.size() < 2) mistake(node, "'(checkmated ...)' names no piece");
    EndRule attacked;
    attacked.kind = EndKind::Any;
    std::string pieces;
    for (std::size_t i = 1; i < node.items.size(); ++i) {
      EndRule check;
      check.kind = EndKind::InCheck;
      check.piece = piece_named(node.items[i]);
      check.condition_text = fmt::format("(in-check {})", node.items[i].text);
      pieces += " " + check.condition_text;
      attacked.parts.push_back(check);
      royal_pieces_.insert(check.piece);
    }
    attacked.condition_text = attacked.parts.size() == 1 ? pieces.substr(1) : "(or" + pieces + ")";
    if (attacked.parts.size() == 1) attacked = attacked.parts.front();
    EndRule stuck;
    stuck.kind = EndKind::NoLegalMoves;
    stuck.condition_text = "no-legal-moves";
    rule.kind = EndKind::All;
    rule.parts = {stuck, attacked};
    rule.condition_text = fmt::format("(and no-legal-moves {})", attacked.condition_text);
    return rule;
  }

  // (legal (not (in-check PIECE))) for the pieces checkmated goals name: Zillions lets no move leave one
  // of them attacked.
  void read_royal_pieces() {
    if (royal_pieces_.empty()) return;
    EndRule legal;
    legal.kind = EndKind::All;
    std::string text;
    for (const int piece : royal_pieces_) {
      EndRule check;
      check.kind = EndKind::InCheck;
      check.piece = piece;
      check.condition_text = fmt::format("(in-check {})", rules_.pieces[static_cast<std::size_t>(piece)].name);
      EndRule safe;
      safe.kind = EndKind::Not;
      safe.condition_text = fmt::format("(not {})", check.condition_text);
      safe.parts = {check};
      text += " " + safe.condition_text;
      legal.parts.push_back(safe);
    }
    legal.condition_text = legal.parts.size() == 1 ? text.substr(1) : "(and" + text + ")";
    if (legal.parts.size() == 1) legal = legal.parts.front();
    legal.text = fmt::format("(legal {})", legal.condition_text);
    rules_.legal = {legal};
  }

  // (relative-config P D P D ... P): the player's pieces P, one D of the other, N of them. The four
  // of an 'or' that give the four lines (n, e, ne, nw, or their opposites) with the same piece and N
  // are troyka's (in-a-row N P): N of the player's pieces in a line, anywhere on the board. A
  // longer line holds N in a row too, so it is N or more. Any other relative-config is refused.
  EndRule in_a_row(const std::vector<const Node*>& configs, const Node& at, EndRule rule) const {
    const std::string hint =
        "troyka reads relative-config as N in a row: (or (relative-config P n P n P) (relative-config P e P e P) "
        "(relative-config P ne P ne P) (relative-config P nw P nw P))";
    int piece = -1;
    int length = 0;
    std::array<std::set<std::pair<int, int>>, kMaxPlayers> lines;
    for (const Node* config : configs) {
      const std::vector<Node>& items = config->items;
      if (items.size() < 4 || items.size() % 2 != 0)
        missing_feature(*config, "troyka reads only relative-config of one piece repeated along one direction", hint);
      const int first = piece_named(items[1]);
      for (std::size_t i = 3; i < items.size(); i += 2)
        if (piece_named(items[i]) != first)
          missing_feature(items[i], "troyka reads only relative-config of one piece repeated along one direction",
                          hint);
      for (std::size_t i = 2; i < items.size(); i += 2) {
        direction(items[i]);
        if (items[i].text != items[2].text)
          missing_feature(items[i], "troyka reads only relative-config of one piece repeated along one direction",
                          hint);
      }
      const int count = static_cast<int>(items.size() / 2);
      if (piece >= 0 && (first != piece || count != length))
        missing_feature(*config, "the relative-configs of one 'or' must name the same piece the same number of times",
                        hint);
      piece = first;
      length = count;
      for (int p = 0; p < players(); ++p) {
        Offset step = direction_for(items[2], p);
        if (std::abs(step.dx) > 1 || std::abs(step.dy) > 1)
          missing_feature(items[2], "troyka reads relative-config along a line of neighbouring cells only", hint);
        if (step.dy < 0 || (step.dy == 0 && step.dx < 0)) step = {-step.dx, -step.dy};
        if (!lines[static_cast<std::size_t>(p)].emplace(step.dx, step.dy).second)
          missing_feature(*config, "this relative-config repeats a line of the 'or' (a direction or its opposite)",
                          hint);
      }
    }
    for (int p = 0; p < players(); ++p)
      if (const auto& given = lines[static_cast<std::size_t>(p)]; given.size() != kLineDirections.size())
        missing_feature(
            configs.size() == 1 ? *configs.front() : at,
            fmt::format("troyka reads relative-config only as {} in a row along all four lines; this gives {} of them",
                        length, given.size()),
            hint);
    rule.kind = EndKind::InARow;
    rule.length = length;
    rule.piece = piece;
    return rule;
  }

  // (absolute-config PIECE... (POSITION-OR-ZONE...)): holds when any of the pieces stands on any of
  // the positions, as Zillions' King of the Hill goals and the Breakthrough sample read it.
  void absolute_config(const Node& node, EndRule rule, std::vector<EndRule>& out) const {
    if (node.items.size() < 3 || !node.items.back().is_list())
      mistake(node, "expected (absolute-config PIECE... (POSITION...))");
    rule.kind = EndKind::Reach;
    const Node& places = node.items.back();
    for (const Node& place : places.items) {
      const auto zone = place.is_symbol() ? zones_.find(place.text) : zones_.end();
      for (int p = 0; p < players(); ++p) {
        CellList& cells = rule.region[static_cast<std::size_t>(p)];
        if (zone != zones_.end()) {
          const CellList& zone_cells = zone->second[static_cast<std::size_t>(p)];
          cells.insert(cells.end(), zone_cells.begin(), zone_cells.end());
        } else {
          cells.push_back(position(place));
        }
      }
    }
    for (CellList& cells : rule.region) {
      std::sort(cells.begin(), cells.end());
      cells.erase(std::unique(cells.begin(), cells.end()), cells.end());
    }
    std::set<int> pieces;
    for (std::size_t i = 1; i + 1 < node.items.size(); ++i) {
      if (node.items[i].is_list())
        missing_feature(node.items[i],
                        "troyka reads absolute-config with the player's own pieces only, named one by one");
      pieces.insert(piece_named(node.items[i]));
    }
    if (pieces.size() > 1 && pieces.size() == rules_.pieces.size()) {
      rule.piece = -1;
      out.push_back(rule);
      return;
    }
    for (const int piece : pieces) {
      rule.piece = piece;
      out.push_back(rule);
    }
  }

  const Reporter& report_;
  Rules& rules_;
  std::map<std::string, std::vector<const Node*>> forms_;
  std::array<Dimension, 2> dimensions_;
  std::map<std::string, int, std::less<>> position_cells_;  // each position's cell, by its ZRF name
  std::vector<std::string> position_names_;                 // each cell's ZRF name
  std::map<std::string, Offset, std::less<>> directions_;
  std::array<std::map<std::string, std::string, std::less<>>, kMaxPlayers> symmetry_;
  std::map<std::string, PlayerRegion, std::less<>> zones_;
  // Pieces off the board, by player and piece: board-setup's (PIECE off N).
  struct Supply {
    int count = 0;
    const Node* node = nullptr;
  };
  std::array<std::map<int, Supply>, kMaxPlayers> supplies_;
  std::vector<CorePiece> drops_;       // the pieces that have drops, with their drop bodies
  std::vector<CorePiece> core_drops_;  // those of drops_ that are core rules (place_drops)
  // The pieces whose moves go to the core (lower_keyword_moves), with their move bodies and types.
  std::vector<CorePiece> core_pieces_;
  std::vector<std::vector<CoreBody>> piece_moves_;  // every piece's move bodies, by its index
  std::vector<std::string> move_priorities_;        // (move-priorities ...): the types, first first
  const Node* pass_any_turn_ = nullptr;             // (option "pass turn" true), where: a player may pass at any turn
  bool pass_partial_ = false;        // (option "pass partial" true): a move of several parts may stop after any
  bool include_off_pieces_ = false;  // (option "include off-pieces" true): pieces-remaining counts them
  bool deferred_captures_ = false;   // (option "deferred captures" true): captured pieces block until the move ends
  bool most_kings_ = false;          // (option "maximal captures" 2): then the most kings (crowned_pieces)
  const Node* chess_invariant_ = nullptr;  // where (option "chess invariant" true) is, when it is
  std::set<int> royal_pieces_;             // the pieces checkmated goals name: no move may leave one attacked
  int tested_moves_ = 0;                   // moves lowered with cell tests, at most kMaxTestedMoves
};

}  // namespace

bool is_zrf_file(std::string_view name) {
  if (name.size() < 4) return false;
  std::string extension(name.substr(name.size() - 4));
  for (char& c : extension) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return extension == ".zrf";
}

Rules load_zrf(std::shared_ptr<const SourceFile> source, const Options& options) {
  if (!options.params.empty())
    throw Error(Diagnostic{nullptr,
                           {},
                           fmt::format("--param {}: ZRF games have no parameters", options.params.front().first),
                           "choose a variant with --variant TITLE or --variant NUMBER"});
  auto root = std::make_shared<SourceFile>(*source);  // to which the files it includes are added
  std::vector<Node> read = Includer(root).run();
  Reporter report(root);
  const std::vector<Node> forms = MacroExpander(report).run(read);
  Rules rules;
  const Node game = VariantPicker(report).pick(forms, options.variant, rules.variant);
  rules.source = root;
  Lowering(report, rules).run(game);
  return rules;
}

}  // namespace troyka::lang
