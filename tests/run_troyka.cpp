// Compiled once rather than inline in the header: the JSON parser it instantiates cost every test
// file that includes run_troyka.h about 6 s of compiling under the sanitizers.
#include "tests/run_troyka.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>

namespace troyka_tests {

std::string temp_path(const std::string& name) {
  return testing::TempDir() + "troyka_" + std::to_string(getpid()) + "_" + name;
}

Outcome run_troyka(const std::string& args, const std::string& input, const std::string& wrapper) {
  // One set of files per process: ctest runs tests in parallel processes.
  const std::string stem = testing::TempDir() + "troyka_run_" + std::to_string(getpid());
  const std::string in_file = stem + "_stdin.txt", err_file = stem + "_stderr.txt";
  std::ofstream(in_file) << input;
  const std::string command = "cd '" TROYKA_SOURCE_DIR "' && " + wrapper + " '" TROYKA_BINARY "' " + args + " <'" +
                              in_file + "' 2>'" + err_file + "'";
  Outcome run;
  FILE* pipe = popen(command.c_str(), "r");
  std::array<char, 4096> buffer;
  for (std::size_t n; (n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0;) run.out.append(buffer.data(), n);
  const int status = pclose(pipe);
  run.status = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  std::ifstream err(err_file);
  run.err.assign(std::istreambuf_iterator<char>(err), std::istreambuf_iterator<char>());
  return run;
}

void expect_first_agent_scores(const std::string& match, double minimum) {
  const Outcome run = run_troyka(match);
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_GE(nlohmann::json::parse(run.out)["agents"][0]["score"].get<double>(), minimum) << run.out;
}

}  // namespace troyka_tests
