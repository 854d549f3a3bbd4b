// Runs the real troyka binary for end-to-end tests.
#pragma once

#include <string>

namespace troyka_tests {

struct Outcome {
  int status = -1;  // the exit code, or -1 when the process did not exit normally
  std::string out;
  std::string err;
};

// A path for a test's file or folder `name` of this process: suites of several checkouts may run at
// once, and ctest runs tests in parallel processes.
std::string temp_path(const std::string& name);

// Runs `troyka ARGS` from the repository root with `input` on stdin; stdout and stderr apart.
// `wrapper` is a command that runs troyka, e.g. "timeout -s INT 1".
Outcome run_troyka(const std::string& args, const std::string& input = "", const std::string& wrapper = "");

// Runs `troyka MATCH` (a `match ... --json` command) and expects the first agent to score at
// least `minimum`: the "mcts beats random" test of every game.
void expect_first_agent_scores(const std::string& match, double minimum);

}  // namespace troyka_tests
