// The troyka subcommands. Each takes its parsed options, writes to the given streams and returns
// the process exit code; rule-file problems arrive as lang::Error and are printed by main.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "cli/board_view.h"
#include "cli/support.h"
#include "lang/rules.h"
#include "referee/outcome.h"

namespace troyka::cli {

// Options every command shares.
struct GameOptions {
  std::string file;
  std::string variant;
  std::vector<std::string> params;  // NAME=VALUE as typed
  bool json = false;

  lang::Options language_options() const;
};

struct PerftOptions {
  int depth = 1;
  std::string position;  // position text to count from instead of the start, e.g. from a FEN
  std::string moves;     // played from the start (or the position) before counting
  bool divide = false;
};

struct BenchOptions {
  double seconds = 0;
  std::uint64_t playouts = 0;
  int threads = 1;
  std::uint64_t seed = 1;
  std::string agent;   // when set: time this agent's search of the start position instead of playouts
  int repeat = 5;      // searches, for the agent's median
  bool clock = false;  // with agent: time every search of self-play games against the agent's budget
  int searches = 300;  // with clock: how many searches to time
  // A random playout still going at this ply (by default the game's playout cap) is cut there and
  // counted as capped, so that a game that never ends cannot hang the bench.
  MaxPlies max_plies;
};

struct PlayOptions {
  std::string white = "random";  // "human" or an agent spec
  std::string black = "random";
  std::string others = "random";  // the players after the second, in a game of more
  std::uint64_t seed = 1;
  bool verbose = false;     // the whole search report after each agent move
  BoardStyle board;         // glyphs or letters, colours
  bool echo_input = false;  // repeat what a person typed (input from a pipe is not shown otherwise)
  // A game still going at this ply (by default the game's playout cap) is stopped there as a draw
  // (referee::ply_cap_reason).
  MaxPlies max_plies;
};

int run_check(const GameOptions& options, std::ostream& out);
// With `svg`, the start position as an SVG picture (cli/board_svg.h) instead of the text.
int run_show(const GameOptions& options, bool svg, std::ostream& out);
// The game's rules in core forms (lang/core.h), each under the keyword form it lowers.
int run_show_core(const GameOptions& options, std::ostream& out);
int run_perft(const GameOptions& options, const PerftOptions& perft_options, std::ostream& out);
int run_bench(const GameOptions& options, const BenchOptions& bench, std::ostream& out);
// bench --agent SPEC --clock: the reply time of every search in self-play, against the agent's budget.
int run_clock_bench(const GameOptions& options, const BenchOptions& bench, std::ostream& out);
// Prints the game (a ZRF file's, say) as a troyka rule file that loads into the same rules.
int run_translate(const GameOptions& options, std::ostream& out);
// A side given as "human" reads its moves from `in`. With --json the record alone goes to `out`
// and what a person needs to see (board, prompts) to `err`.
int run_play(const GameOptions& options, const PlayOptions& play, std::istream& in, std::ostream& out,
             std::ostream& err);

}  // namespace troyka::cli
