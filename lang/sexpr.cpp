// The grammar is split into small named rules in the style of PEGTL's own examples; actions build
// the Node tree on a stack. Errors are raised by three rules that can only fail loudly
// (unclosed_list, bad_character, unterminated_string), so every message is specific.
#include "lang/sexpr.h"

#include <fmt/format.h>

#include <charconv>
#include <optional>
#include <tao/pegtl.hpp>

namespace troyka::lang {
namespace {

namespace peg = tao::pegtl;

// ---- The grammar ----------------------------------------------------------------------------

struct comment : peg::seq<peg::one<';'>, peg::until<peg::eolf>> {};
struct blank : peg::sor<peg::one<' ', '\t', '\r', '\n', '\f', '\v'>, comment> {};
struct skip : peg::star<blank> {};

struct symbol_char : peg::sor<peg::alnum, peg::one<'-', '_', '+', '*', '/', '<', '>', '=', '!', '?', '.', '\''>> {};
// A word may not start with a digit (that is a number) nor with a quote (Lisp's '(...) means nothing here).
template <typename Char>
struct basic_symbol : peg::seq<peg::not_at<peg::sor<peg::digit, peg::one<'\''>>>, peg::plus<Char>> {};
template <typename Char>
struct basic_integer : peg::seq<peg::opt<peg::one<'-', '+'>>, peg::plus<peg::digit>, peg::not_at<Char>> {};
struct symbol : basic_symbol<symbol_char> {};
struct integer : basic_integer<symbol_char> {};

struct escape : peg::seq<peg::one<'\\'>, peg::one<'"', '\\', 'n', 't'>> {};
struct string_char : peg::sor<escape, peg::not_one<'"', '\\', '\n', '\r'>> {};
struct string_open : peg::one<'"'> {};
struct string_close : peg::one<'"'> {};
struct unterminated_string;
template <typename Char>
struct basic_string_literal : peg::seq<string_open, peg::star<Char>, peg::sor<string_close, unterminated_string>> {};
struct string_literal : basic_string_literal<string_char> {};

// ZRF (Zillions of Games) differs in four places: macro arguments make '$' a word character
// ("$1"), a word may start with a digit (Shogi files name their positions 1i and 9a; a run of
// digits alone is still a number, as zrf_integer is tried first), a backslash in a string is an
// ordinary character ("Audio\Pickup.wav"), and strings may run over several lines (descriptions do).
struct zrf_symbol_char : peg::sor<symbol_char, peg::one<'$'>> {};
struct zrf_symbol : peg::seq<peg::not_at<peg::one<'\''>>, peg::plus<zrf_symbol_char>> {};
struct zrf_integer : basic_integer<zrf_symbol_char> {};
struct zrf_string_char : peg::not_one<'"'> {};
struct zrf_string_literal : basic_string_literal<zrf_string_char> {};

// The words, numbers and strings of one syntax.
struct troyka_atoms : peg::sor<string_literal, integer, symbol> {};
struct zrf_atoms : peg::sor<zrf_string_literal, zrf_integer, zrf_symbol> {};

template <typename Atoms>
struct item;
struct list_open : peg::one<'('> {};
struct list_close : peg::one<')'> {};
struct unclosed_list;
struct bad_character;
template <typename Atoms>
struct list
    : peg::seq<list_open, skip, peg::star<item<Atoms>, skip>, peg::sor<list_close, unclosed_list, bad_character>> {};
template <typename Atoms>
struct item : peg::sor<list<Atoms>, Atoms> {};

template <typename Atoms>
struct file : peg::seq<skip, peg::star<item<Atoms>, skip>, peg::sor<peg::eof, bad_character>> {};

// ---- Building the tree ----------------------------------------------------------------------

struct Builder {
  std::shared_ptr<const SourceFile> file;
  Syntax syntax = Syntax::Troyka;
  std::vector<std::vector<Node>> open_lists{1};  // [0] holds the top-level forms
  std::vector<Node> open_nodes;                  // the list nodes whose items are being read
  std::string string_value;
  SourcePos string_pos;
  // ZRF strings may span lines, so one left open is closed by the next string's opening quote and
  // every quote after it pairs wrongly. The first string that ran over a line starting with a form
  // (its opening quote, and the line of the quote that closed it) is then the likely culprit.
  std::optional<SourcePos> swallowing_string;
  std::uint32_t swallowing_until = 0;

  // A syntax error. In a ZRF file it is a mistake in the file, and says so (as every ZRF refusal
  // says its kind); troyka's own files have no other program to compare with.
  [[noreturn]] void fail(SourcePos pos, std::string message, std::string hint = {}) const {
    refuse(Refusal::Mistake, pos, std::move(message), std::move(hint));
  }
  [[noreturn]] void refuse(Refusal kind, SourcePos pos, std::string message, std::string hint) const {
    if (syntax == Syntax::Zrf) message = with_kind(message, kind);
    throw Error(Diagnostic{file, pos, std::move(message), std::move(hint)});
  }
};

template <typename Input>
SourcePos position_of(const Input& in, std::size_t length = 1) {
  const auto p = in.position();
  return SourcePos{static_cast<std::uint32_t>(p.line), static_cast<std::uint32_t>(p.column),
                   static_cast<std::uint32_t>(std::max<std::size_t>(1, length))};
}

template <typename Rule>
struct action : peg::nothing<Rule> {};

template <>
struct action<list_open> {
  template <typename Input>
  static void apply(const Input& in, Builder& b) {
    if (static_cast<int>(b.open_nodes.size()) >= kMaxNesting)
      b.fail(position_of(in), fmt::format("lists are nested more than {} deep", kMaxNesting),
             "a rule file never needs this much nesting; check for a runaway '('");
    Node node;
    node.kind = Node::Kind::List;
    node.pos = position_of(in);
    b.open_nodes.push_back(std::move(node));
    b.open_lists.emplace_back();
  }
};

template <>
struct action<list_close> {
  template <typename Input>
  static void apply(const Input&, Builder& b) {
    Node node = std::move(b.open_nodes.back());
    b.open_nodes.pop_back();
    node.items = std::move(b.open_lists.back());
    b.open_lists.pop_back();
    b.open_lists.back().push_back(std::move(node));
  }
};

template <>
struct action<symbol> {
  template <typename Input>
  static void apply(const Input& in, Builder& b) {
    Node node;
    node.kind = Node::Kind::Symbol;
    node.text = in.string();
    node.pos = position_of(in, in.size());
    b.open_lists.back().push_back(std::move(node));
  }
};

template <>
struct action<integer> {
  template <typename Input>
  static void apply(const Input& in, Builder& b) {
    Node node;
    node.kind = Node::Kind::Integer;
    node.pos = position_of(in, in.size());
    std::string_view digits = in.string_view();
    if (digits.front() == '+') digits.remove_prefix(1);
    const auto [end, error] = std::from_chars(digits.data(), digits.data() + digits.size(), node.integer);
    if (error != std::errc() || end != digits.data() + digits.size())
      b.fail(node.pos, fmt::format("the number {} is too {}", in.string(), in.peek_char() == '-' ? "small" : "large"),
             "numbers in rule files must fit in 64 bits");
    b.open_lists.back().push_back(std::move(node));
  }
};

template <>
struct action<string_open> {
  template <typename Input>
  static void apply(const Input& in, Builder& b) {
    b.string_value.clear();
    b.string_pos = position_of(in);
  }
};

template <>
struct action<string_char> {
  template <typename Input>
  static void apply(const Input& in, Builder& b) {
    const std::string_view c = in.string_view();
    if (c.size() == 2)
      b.string_value += c[1] == 'n' ? '\n' : c[1] == 't' ? '\t' : c[1];
    else
      b.string_value += c;
  }
};

// Whether a string's text holds a line that starts, after blanks, with '(' and a letter: a form.
inline bool holds_a_form(std::string_view text) {
  for (std::size_t at = text.find('\n'); at != std::string_view::npos; at = text.find('\n', at + 1)) {
    const std::size_t start = text.find_first_not_of(" \t\r", at + 1);
    if (start != std::string_view::npos && start + 1 < text.size() && text[start] == '(' &&
        std::isalpha(static_cast<unsigned char>(text[start + 1])))
      return true;
  }
  return false;
}

template <>
struct action<string_close> {
  template <typename Input>
  static void apply(const Input& in, Builder& b) {
    if (!b.swallowing_string && holds_a_form(b.string_value)) {
      b.swallowing_string = b.string_pos;
      b.swallowing_until = static_cast<std::uint32_t>(in.position().line);
    }
    Node node;
    node.kind = Node::Kind::String;
    node.text = std::move(b.string_value);
    node.pos = b.string_pos;
    node.pos.length = in.position().line == b.string_pos.line ? in.position().column + 1 - b.string_pos.column : 1;
    b.open_lists.back().push_back(std::move(node));
  }
};

template <>
struct action<zrf_symbol> : action<symbol> {};
template <>
struct action<zrf_integer> : action<integer> {};
template <>
struct action<zrf_string_char> {
  template <typename Input>
  static void apply(const Input& in, Builder& b) {
    b.string_value += in.string_view();
  }
};

// ---- Rules that only ever fail, with a message made for the spot ----------------------------

// A custom PEGTL rule that hands the input and the builder to Derived::check.
template <typename Derived>
struct failing_rule {
  template <peg::apply_mode, peg::rewind_mode, template <typename...> class, template <typename...> class,
            typename Input>
  static bool match(Input& in, Builder& b) {
    return Derived::check(in, b);
  }
};

std::string describe_byte(char c) {
  const auto byte = static_cast<unsigned char>(c);
  if (byte >= 0x21 && byte < 0x7f) return fmt::format("'{}'", c);
  return fmt::format("byte 0x{:02x}", byte);
}

struct unterminated_string : failing_rule<unterminated_string> {
  template <typename Input>
  static bool check(Input& in, Builder& b) {
    const bool bad_escape = !in.empty() && in.peek_char() == '\\';
    if (bad_escape)
      b.fail(position_of(in, 2), "unknown escape in a string", "strings understand \\\" \\\\ \\n and \\t");
    if (b.swallowing_string)
      b.fail(*b.swallowing_string,
             fmt::format("this string is not closed on its line and runs on over the forms below it, to the '\"' on "
                         "line {}",
                         b.swallowing_until),
             "ZRF strings may span lines, so from here on the file's quotes pair up wrongly and the last string "
             "runs to its end; add this string's closing '\"'");
    b.fail(b.string_pos, "this string is never closed",
           b.syntax == Syntax::Zrf ? "ZRF strings may span lines, so this one runs to the end of the file; add its '\"'"
                                   : "add a '\"' before the end of the line");
  }
};

// At the end of the file the innermost open list is rarely the culprit: a list left open in the
// middle swallows the forms after it (and the ')'s meant for its parents). The one to blame is the
// deepest list, closed or not, holding an item that starts on a later line no further right than
// the list itself, as the next form would.
inline void find_swallowing_list(const Node& list, const std::vector<Node>& items, int depth, SourcePos& blamed,
                                 int& blamed_depth) {
  for (const Node& item : items) {
    if (item.pos.line > list.pos.line && item.pos.column <= list.pos.column && depth > blamed_depth) {
      blamed = list.pos;
      blamed_depth = depth;
    }
    if (item.is_list()) find_swallowing_list(item, item.items, depth + 1, blamed, blamed_depth);
  }
}

inline SourcePos list_left_open(const Builder& b) {
  SourcePos blamed = b.open_nodes.back().pos;
  int blamed_depth = -1;
  for (std::size_t depth = 0; depth < b.open_nodes.size(); ++depth) {
    std::vector<Node> items = b.open_lists[depth + 1];
    if (depth + 1 < b.open_nodes.size())
      items.push_back(Node{Node::Kind::List, {}, 0, b.open_nodes[depth + 1].pos, {}});
    find_swallowing_list(b.open_nodes[depth], items, static_cast<int>(depth), blamed, blamed_depth);
  }
  return blamed;
}

struct unclosed_list : failing_rule<unclosed_list> {
  template <typename Input>
  static bool check(Input& in, Builder& b) {
    if (!in.empty()) return false;
    b.fail(list_left_open(b), "this '(' is never closed", "add the missing ')'");
  }
};

// The word at the input's position: up to the next blank, parenthesis, comment or string.
template <typename Input>
std::string_view word_at(Input& in) {
  const std::string_view rest(in.current(), in.size(in.size()));
  return rest.substr(0, rest.find_first_of(" \t\r\n\f\v();\""));
}

struct bad_character : failing_rule<bad_character> {
  template <typename Input>
  static bool check(Input& in, Builder& b) {
    const char c = in.peek_char();
    const auto byte = static_cast<unsigned char>(c);
    if (c == ')') b.fail(position_of(in), "unexpected ')' with no '(' to close", "remove it, or add the '(' it closes");
    if (std::isdigit(byte))
      b.fail(position_of(in, word_at(in).size()),
             fmt::format("'{}' is not a number, and a word cannot start with a digit", word_at(in)),
             "numbers are whole numbers like 8; words start with a letter");
    // Zillions reads a quote within a word (3'rd), and its Language Reference gives the quote no
    // meaning of its own: a word that starts with one ('$1' in Dagaz's sliding puzzles) is likely a
    // word to it too, which troyka does not read yet.
    if (c == '\'' && b.syntax == Syntax::Zrf && word_at(in).size() > 1)
      b.refuse(Refusal::MissingFeature, position_of(in, word_at(in).size()),
               fmt::format("troyka reads a quote inside a ZRF word but not at its start, as in {}", word_at(in)),
               "write the word without its leading quote");
    if (byte >= 0x80)
      b.fail(position_of(in), fmt::format("unexpected {}", describe_byte(c)),
             "only ASCII is allowed outside strings and comments");
    b.fail(position_of(in),
           byte > 0x20 && byte < 0x7f ? fmt::format("unexpected character {}", describe_byte(c))
                                      : fmt::format("unexpected {}", describe_byte(c)),
           "rule files are made of (lists), words, numbers and \"strings\"");
    return false;  // not reached: fail() throws
  }
};

template <typename Rule>
struct control : peg::normal<Rule> {};

}  // namespace

std::vector<Node> parse_sexpr(const std::shared_ptr<const SourceFile>& file, Syntax syntax) {
  Builder builder;
  builder.file = file;
  builder.syntax = syntax;
  // A UTF-8 byte order mark, as some editors write, is not part of the text.
  const std::size_t start = std::string_view(file->text).substr(0, 3) == "\xef\xbb\xbf" ? 3 : 0;
  peg::memory_input<> input(file->text.data() + start, file->text.size() - start, file->name);
  if (syntax == Syntax::Zrf)
    peg::parse<peg::must<troyka::lang::file<zrf_atoms>>, action, control>(input, builder);
  else
    peg::parse<peg::must<troyka::lang::file<troyka_atoms>>, action, control>(input, builder);
  return std::move(builder.open_lists.front());
}

std::string to_text(const Node& node) {
  std::string text;
  switch (node.kind) {
    case Node::Kind::Integer: return std::to_string(node.integer);
    case Node::Kind::Symbol: return node.text;
    case Node::Kind::String:
      text.push_back('"');
      for (const char c : node.text) {
        if (c == '"' || c == '\\') text.push_back('\\');
        text.append(c == '\n' ? "\\n" : std::string_view(&c, 1));
      }
      text.push_back('"');
      return text;
    case Node::Kind::List: break;
  }
  text.push_back('(');
  for (const Node& item : node.items) {
    if (text.size() > 1) text.push_back(' ');
    text.append(to_text(item));
  }
  text.push_back(')');
  return text;
}

std::string describe(const Node& node) {
  switch (node.kind) {
    case Node::Kind::Integer: return fmt::format("the number {}", node.integer);
    case Node::Kind::String: return fmt::format("the string \"{}\"", node.text);
    case Node::Kind::Symbol: return fmt::format("'{}'", node.text);
    case Node::Kind::List: break;
  }
  if (node.items.empty()) return "an empty list '()'";
  if (!node.head().empty()) return fmt::format("'({} ...)'", node.head());
  return "a list";
}

}  // namespace troyka::lang
