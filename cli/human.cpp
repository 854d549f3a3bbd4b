#include "cli/human.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <array>
#include <cctype>
#include <istream>
#include <ostream>
#include <utility>

#include "lang/diagnostic.h"

namespace troyka::cli {
namespace {

using Kind = HumanInput::Kind;

// The commands that reach the caller; `help` is answered by the console itself.
constexpr std::array<std::pair<std::string_view, Kind>, 5> kCommands = {{{"moves", Kind::Moves},
                                                                         {"undo", Kind::Undo},
                                                                         {"resign", Kind::Resign},
                                                                         {"board", Kind::Board},
                                                                         {"quit", Kind::Quit}}};
constexpr std::string_view kHelp = "help";
// The texts of the moves that are not on the board (Program::move_text), which name no cell.
constexpr std::array<std::string_view, 2> kWordMoves = {"pass", "swap"};

constexpr std::size_t kLineWidth = 80;

std::string trimmed(std::string_view text) {
  const auto is_space = [](char c) { return std::isspace(static_cast<unsigned char>(c)) != 0; };
  while (!text.empty() && is_space(text.front())) text.remove_prefix(1);
  while (!text.empty() && is_space(text.back())) text.remove_suffix(1);
  return std::string(text);
}

std::string lower_case(std::string text) {
  for (char& c : text) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return text;
}

bool has_digit(std::string_view text) {
  return std::any_of(text.begin(), text.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

// "unknown command 'mvoes'" and a hint: the command it most likely means, or where to look.
std::string unknown_command_text(const std::string& word) {
  std::vector<std::string> names{std::string(kHelp)};
  for (const auto& [name, kind] : kCommands) names.emplace_back(name);
  const std::string close = lang::closest_match(lower_case(word), names);
  return fmt::format("unknown command '{}'\nhint: {}\n", word,
                     close.empty() ? "type a move such as a2-a3, or 'help' for the commands"
                                   : fmt::format("did you mean '{}'?", close));
}

}  // namespace

HumanInput HumanConsole::ask(std::string_view prompt) {
  for (;;) {
    fmt::print(out_, "{}", prompt);
    out_.flush();
    std::string line;
    if (!std::getline(in_, line)) {
      fmt::print(out_, "\n");  // ends the prompt's line
      return HumanInput{Kind::EndOfInput, {}};
    }
    line = trimmed(line);
    if (echo_) fmt::print(out_, "{}\n", line);
    if (line.empty()) continue;
    const std::string word = lower_case(line);
    if (word == kHelp) {
      fmt::print(out_, "{}", help_text());
      continue;
    }
    for (const auto& [name, kind] : kCommands)
      if (word == name) return HumanInput{kind, line};
    const bool word_move = std::find(kWordMoves.begin(), kWordMoves.end(), word) != kWordMoves.end();
    if (!has_digit(line) && !word_move) {
      fmt::print(out_, "{}", unknown_command_text(line));
      continue;
    }
    return HumanInput{Kind::Move, word_move ? word : line};
  }
}

std::string help_text() {
  return "  a move such as a2-a3   play it (a2a3 works too; a capture may be written a2xb3)\n"
         "  a cell such as b2       place a piece there, in games where pieces are placed\n"
         "  pass, swap             in games that have them, pass or swap (the pie rule)\n"
         "  moves                  list the legal moves\n"
         "  undo                   take back your last move and the replies to it\n"
         "  resign                 give up: your opponent wins\n"
         "  board                  draw the board again\n"
         "  help                   show these commands\n"
         "  quit                   stop the game without a result\n";
}

std::string legal_moves_text(const std::vector<std::string>& moves) {
  std::string out = fmt::format("{} legal move{}:", moves.size(), moves.size() == 1 ? "" : "s");
  std::size_t line_length = out.size();
  for (const std::string& move : moves) {
    if (line_length + 1 + move.size() > kLineWidth) {
      out += "\n ";
      line_length = 1;
    }
    out += ' ' + move;
    line_length += 1 + move.size();
  }
  return out + '\n';
}

}  // namespace troyka::cli
