#include "cli/record.h"

#include <fmt/format.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <utility>

#include "cli/support.h"
#include "interpreter/program.h"

namespace troyka::cli {
namespace {

// Move text lines are kept within this many columns, as PGN does, so records read well anywhere.
constexpr std::size_t kLineWidth = 79;

constexpr std::array<std::string_view, 10> kStandardHeaders{"Game",   "File",   "Variant", "Params", "Result",
                                                            "Winner", "Reason", "Plies",   "Seed",   "Date"};

std::string quoted(std::string_view value) {
  std::string out = "\"";
  for (const char c : value) {
    if (c == '"' || c == '\\') out += '\\';
    out += c;
  }
  return out + '"';
}

// "1. a2-a3 e4-e3 2. b2-b3" (or "1. c3,d4 e5,f5" with turns of several decisions) and the result, as
// lines of at most kLineWidth columns. A move number stays on the line of the move it numbers.
std::string move_lines(const GameRecord& record) {
  const std::size_t players = record.players.size();
  std::vector<std::string> units;
  for (std::size_t turn = 0; turn < record.moves.size(); ++turn)
    units.push_back(turn % players == 0 ? fmt::format("{}. {}", turn / players + 1, record.moves[turn])
                                        : record.moves[turn]);
  units.push_back(result_token(record.ranks));
  std::string text, line;
  for (const std::string& unit : units) {
    if (!line.empty() && line.size() + 1 + unit.size() > kLineWidth) {
      text += line + '\n';
      line.clear();
    }
    line += (line.empty() ? "" : " ") + unit;
  }
  return text + line + '\n';
}

bool is_space(char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; }
bool is_digit(char c) { return std::isdigit(static_cast<unsigned char>(c)) != 0; }

bool is_blank(std::string_view line) { return std::all_of(line.begin(), line.end(), is_space); }

constexpr const char* kHeaderForm = "a header is written [Key \"value\"]";
constexpr const char* kResultHint =
    "end the moves with the result: 1-0, 0-1 or 1/2-1/2, or with more than two players the ranks, e.g. 2-1-3";

// A move number as read, checked once the result tells how many players there are.
struct MoveNumber {
  RecordToken token;         // "12."
  std::size_t turns_before;  // the turns read before it
};

// Reads a record line by line. Columns count bytes from 1, like the rule-file diagnostics.
class RecordParser {
 public:
  explicit RecordParser(std::shared_ptr<const lang::SourceFile> source) { record_.source = std::move(source); }

  ParsedRecord parse() {
    std::istringstream lines(record_.source->text);
    bool in_headers = true;
    for (std::string line; std::getline(lines, line);) {
      ++line_number_;
      if (!line.empty() && line.back() == '\r') line.pop_back();
      last_line_size_ = line.size();
      if (in_headers && is_blank(line)) {
        in_headers = false;
      } else if (in_headers) {
        parse_header(line);
      } else {
        parse_move_line(line);
      }
    }
    if (in_headers)
      throw error_at_end("the record has no moves: the headers must be followed by a blank line, then the moves",
                         kResultHint);
    if (record_.result.text.empty()) take_ranks_as_result();
    if (record_.result.text.empty()) throw error_at_end("the moves end without a result", kResultHint);
    for (const MoveNumber& number : numbers_) check_move_number(number);
    return std::move(record_);
  }

 private:
  lang::SourcePos pos(std::size_t index, std::size_t length = 1) const {
    return {line_number_, static_cast<std::uint32_t>(index + 1),
            static_cast<std::uint32_t>(std::max<std::size_t>(length, 1))};
  }
  lang::Error error(lang::SourcePos at, std::string message, std::string hint = {}) const {
    return record_error(record_, at, std::move(message), std::move(hint));
  }
  lang::Error error_at_end(std::string message, std::string hint) const {
    return error({line_number_, static_cast<std::uint32_t>(last_line_size_ + 1), 1}, std::move(message),
                 std::move(hint));
  }

  static std::size_t skip_spaces(std::string_view line, std::size_t at) {
    while (at < line.size() && is_space(line[at])) ++at;
    return at;
  }

  // [Key "value"]
  void parse_header(std::string_view line) {
    std::size_t at = skip_spaces(line, 0);
    if (at >= line.size() || line[at] != '[')
      throw error(pos(at), "expected a header such as [Game \"Breakthrough\"], or a blank line before the moves",
                  "the headers come first, one a line; a blank line separates them from the moves");
    const std::size_t key_begin = ++at;
    while (at < line.size() && !is_space(line[at]) && line[at] != '"' && line[at] != '[' && line[at] != ']') ++at;
    if (at == key_begin) throw error(pos(key_begin), "expected the header's name after '['", kHeaderForm);
    RecordHeader header{std::string(line.substr(key_begin, at - key_begin)), {}, pos(key_begin, at - key_begin), {}};
    at = skip_spaces(line, at);
    if (at >= line.size() || line[at] != '"')
      throw error(pos(at), fmt::format("expected the value of '{}' in double quotes", header.key), kHeaderForm);
    at = read_value(line, at, header);
    at = skip_spaces(line, at);
    if (at >= line.size() || line[at] != ']') throw error(pos(at), "expected ']' after the value", kHeaderForm);
    at = skip_spaces(line, at + 1);
    if (at < line.size())
      throw error(pos(at, line.size() - at), "unexpected text after the header", "one header a line");
    if (const RecordHeader* first = record_.find(header.key))
      throw error(header.key_pos, fmt::format("header '{}' is given twice", header.key),
                  fmt::format("it is first given on line {}", first->key_pos.line));
    record_.headers.push_back(std::move(header));
  }

  // Reads the quoted value starting at the quote `open`; returns the index after the closing quote.
  std::size_t read_value(std::string_view line, std::size_t open, RecordHeader& header) const {
    for (std::size_t at = open + 1; at < line.size(); ++at) {
      if (line[at] == '"') {
        header.value_pos = pos(open, at - open + 1);
        return at + 1;
      }
      if (line[at] == '\\') {
        if (at + 1 >= line.size() || (line[at + 1] != '"' && line[at + 1] != '\\'))
          throw error(pos(at, 2), fmt::format("unknown escape '{}' in a value", line.substr(at, 2)),
                      R"(only \" (a quote) and \\ (a backslash) are escapes)");
        ++at;
      }
      header.value += line[at];
    }
    throw error(pos(open, line.size() - open), fmt::format("the value of '{}' has no closing quote", header.key),
                "a value ends with \" on the same line");
  }

  void parse_move_line(std::string_view line) {
    for (std::size_t at = skip_spaces(line, 0); at < line.size(); at = skip_spaces(line, at)) {
      std::size_t end = at;
      while (end < line.size() && !is_space(line[end])) ++end;
      parse_token(line.substr(at, end - at), at);
      at = end;
    }
  }

  // A move number ("12."), a move, or the result; a number may be joined to its move ("12.a2-a3").
  void parse_token(std::string_view token, std::size_t column) {
    if (!record_.result.text.empty())
      throw error(pos(column, token.size()), fmt::format("unexpected text after the result {}", record_.result.text),
                  "the result ends the record");
    std::size_t digits = 0;
    while (digits < token.size() && is_digit(token[digits])) ++digits;
    if (digits > 0 && digits < token.size() && token[digits] == '.') {
      numbers_.push_back(
          MoveNumber{RecordToken{std::string(token.substr(0, digits + 1)), pos(column, digits + 1)}, turns_});
      if (digits + 1 < token.size()) parse_token(token.substr(digits + 1), column + digits + 1);
      return;
    }
    for (const std::string_view result : referee::kResultTokens)
      if (token == result) {
        record_.result = RecordToken{std::string(token), pos(column, token.size())};
        return;
      }
    // A turn of several decisions: "c3,d4", each its own move.
    last_token_whole_turn_ = token.find(',') == std::string_view::npos;
    for (std::size_t start = 0, end = 0; start <= token.size(); start = end + 1) {
      end = std::min(token.find(',', start), token.size());
      record_.moves.push_back(
          RecordToken{std::string(token.substr(start, end - start)), pos(column + start, end - start)});
    }
    ++turns_;
  }

  // The ranks of a game of more than two players could pass for a move (a draughts move is numbers
  // joined by '-' too), so they are the result only as the last token of the moves.
  void take_ranks_as_result() {
    if (record_.moves.empty() || !referee::is_ranks_token(record_.moves.back().text) || !last_token_whole_turn_) return;
    record_.result = std::move(record_.moves.back());
    record_.moves.pop_back();
    --turns_;
    record_.players = static_cast<int>(std::count(record_.result.text.begin(), record_.result.text.end(), '-')) + 1;
  }

  // Numbers are optional, but one that is there must be right: a wrong one means a move is missing.
  // Each counts a round of turns, one per player; the result tells how many players there are.
  void check_move_number(const MoveNumber& number) const {
    const auto players = static_cast<std::size_t>(record_.players);
    const std::size_t moves = number.turns_before;
    const std::string hint = players == 2 ? "each number is followed by two moves, e.g. 1. a2-a3 b7-b6"
                                          : fmt::format("each number is followed by {} moves, one a player", players);
    if (moves % players != 0)
      throw error(number.token.pos,
                  fmt::format("move number {} comes before the {} move of move {}", number.token.text,
                              ordinal(moves % players + 1), moves / players + 1),
                  hint);
    const std::string expected = fmt::format("{}.", moves / players + 1);
    if (number.token.text != expected)
      throw error(number.token.pos, fmt::format("move number {} where {} was expected", number.token.text, expected),
                  hint);
  }

  static std::string ordinal(std::size_t n) {
    static constexpr std::array<std::string_view, 8> kOrdinals{"first", "second", "third",   "fourth",
                                                               "fifth", "sixth",  "seventh", "eighth"};
    return std::string(kOrdinals[n - 1]);
  }

  ParsedRecord record_;
  std::vector<MoveNumber> numbers_;     // checked once the result tells the number of players
  bool last_token_whole_turn_ = false;  // the last token read was a single move, with no ','
  std::size_t turns_ = 0;               // the moves read, a turn of several decisions counting once
  std::uint32_t line_number_ = 0;
  std::size_t last_line_size_ = 0;
};

}  // namespace

std::string record_text(const GameRecord& record) {
  std::string text;
  const auto header = [&](std::string_view key, std::string_view value) {
    text += fmt::format("[{} {}]\n", key, quoted(value));
  };
  header("Game", record.game);
  header("File", record.file);
  header("Variant", record.variant);
  header("Params", record.params);
  for (std::size_t player = 0; player < record.players.size(); ++player)
    header(record.players[player], record.agents[player]);
  const int winner = referee::winner_of(record.ranks);
  header("Result", result_token(record.ranks));
  header("Winner", winner == kDraw ? "draw" : record.players[static_cast<std::size_t>(winner)]);
  header("Reason", record.reason);
  header("Plies", std::to_string(record.plies));
  header("Seed", std::to_string(record.seed));
  header("Date", record.date);
  return text + '\n' + move_lines(record);
}

bool is_standard_header(std::string_view name) {
  return std::find(kStandardHeaders.begin(), kStandardHeaders.end(), name) != kStandardHeaders.end();
}

void save_record(const GameRecord& record, const std::string& path) {
  write_text_file(path, record_text(record), "the record", "check the --records directory");
}

const RecordHeader* ParsedRecord::find(std::string_view key) const {
  for (const RecordHeader& header : headers)
    if (header.key == key) return &header;
  return nullptr;
}

const RecordHeader& ParsedRecord::require(std::string_view key) const {
  if (const RecordHeader* header = find(key)) return *header;
  throw record_error(*this, {}, fmt::format("the record has no '{}' header", key),
                     fmt::format("add one, e.g. [{} \"...\"]; see docs/records.md", key));
}

ParsedRecord parse_record(std::shared_ptr<const lang::SourceFile> source) {
  return RecordParser(std::move(source)).parse();
}

std::string read_record_file(const std::string& path) {
  std::error_code ignored;
  std::ifstream file(path, std::ios::binary);
  if (!std::filesystem::is_regular_file(path, ignored) || !file)
    throw usage_error(fmt::format("cannot open the record '{}'", path), "check the path");
  std::ostringstream text;
  text << file.rdbuf();
  return text.str();
}

ParsedRecord load_record(const std::string& path) {
  return parse_record(std::make_shared<const lang::SourceFile>(lang::SourceFile{path, read_record_file(path)}));
}

lang::Error record_error(const ParsedRecord& record, lang::SourcePos pos, std::string message, std::string hint) {
  return lang::Error(lang::Diagnostic{record.source, pos, std::move(message), std::move(hint)});
}

}  // namespace troyka::cli
