// A person playing at the terminal (or a script playing through a pipe): prompts, reading what
// they type, and the texts they are shown. Only the CLI knows people; agents/ does no I/O.
#pragma once

#include <iosfwd>
#include <string>
#include <string_view>
#include <vector>

namespace troyka::cli {

// What a person asked for at their turn.
struct HumanInput {
  enum class Kind {
    Move,        // `text` should name a move; the program decides
    Moves,       // list the legal moves
    Undo,        // take back their last move
    Resign,      // give up
    Board,       // draw the board again
    Quit,        // stop without a result
    EndOfInput,  // nothing more will come
  };
  Kind kind = Kind::EndOfInput;
  std::string text;
};

// Reads a person's commands one line at a time. Blank lines, `help` and words that are neither a
// command nor a move (moves name cells, so they hold a digit) are answered here, without
// returning: the caller sees only what changes the game or needs the position.
class HumanConsole {
 public:
  // With `echo`, each line read is written after its prompt, so that a session read from a pipe
  // prints like one typed at a terminal.
  HumanConsole(std::istream& in, std::ostream& out, bool echo) : in_(in), out_(out), echo_(echo) {}

  HumanInput ask(std::string_view prompt);

 private:
  std::istream& in_;
  std::ostream& out_;
  bool echo_;
};

// The commands and what they do.
std::string help_text();

// "3 legal moves: a2-a3 a2-b3 b2-b3", wrapped to lines of at most 80 columns; `moves` in the
// order they should be shown.
std::string legal_moves_text(const std::vector<std::string>& moves);

}  // namespace troyka::cli
