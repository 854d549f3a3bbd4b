// The troyka subcommands. Each takes its parsed options, writes to the given streams and returns
// the process exit code; rule-file problems arrive as lang::Error and are printed by main.
#pragma once

#include <cstdint>
#include <iosfwd>
#include <string>
#include <vector>

#include "lang/rules.h"

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
  std::string moves;  // played from the start before counting
  bool divide = false;
};

struct BenchOptions {
  double seconds = 0;
  std::uint64_t playouts = 0;
  int threads = 1;
  std::uint64_t seed = 1;
  std::string agent;  // when set: time this agent's search of the start position instead of playouts
  int repeat = 5;     // searches, for the agent's median
};

struct PlayOptions {
  std::string white = "random";
  std::string black = "random";
  std::uint64_t seed = 1;
};

int run_check(const GameOptions& options, std::ostream& out);
int run_show(const GameOptions& options, std::ostream& out);
int run_perft(const GameOptions& options, const PerftOptions& perft_options, std::ostream& out);
int run_bench(const GameOptions& options, const BenchOptions& bench, std::ostream& out);
int run_play(const GameOptions& options, const PlayOptions& play, std::ostream& out);

}  // namespace troyka::cli
