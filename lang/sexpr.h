// The surface syntax of rule files: S-expressions read by a PEGTL grammar.
// Every node keeps its source position so later stages can point at it.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "lang/diagnostic.h"

namespace troyka::lang {

struct Node {
  enum class Kind { List, Symbol, Integer, String };

  Kind kind = Kind::List;
  std::string text;          // the symbol's name or the string's contents
  std::int64_t integer = 0;  // the value of an Integer
  SourcePos pos;             // for a list: its opening parenthesis
  std::vector<Node> items;   // a list's elements

  bool is_list() const { return kind == Kind::List; }
  bool is_symbol() const { return kind == Kind::Symbol; }
  bool is_symbol(std::string_view name) const { return kind == Kind::Symbol && text == name; }
  // The keyword that opens a list such as (step ...), or "" when there is none.
  std::string_view head() const {
    return is_list() && !items.empty() && items.front().is_symbol() ? std::string_view(items.front().text)
                                                                    : std::string_view();
  }
};

// Deeper nesting than this is refused with an error instead of risking the stack.
inline constexpr int kMaxNesting = 64;

// The two S-expression syntaxes: troyka's own, and Zillions of Games rule files (ZRF), whose words
// may hold '$' and start with a digit (1i) and whose strings have no escapes and may span lines.
enum class Syntax { Troyka, Zrf };

// Parses a whole file into its top-level forms; throws lang::Error on a syntax error.
std::vector<Node> parse_sexpr(const std::shared_ptr<const SourceFile>& file, Syntax syntax = Syntax::Troyka);

// The node written back as compact text on one line, e.g. "(step (forward) (to empty))".
std::string to_text(const Node& node);

// A short description of a node for messages: "the number 3", "'(step ...)'", "the word 'foo'".
std::string describe(const Node& node);

}  // namespace troyka::lang
