// `troyka replay RECORD`: plays a game record (cli/record.h) again and checks it.
#pragma once

#include <iosfwd>
#include <string>

namespace troyka::cli {

struct ReplayOptions {
  std::string record;  // the record file
  bool quiet = false;  // only the verdict, not every position
  bool json = false;
};

// Loads the game the record names, plays every move checking that it is legal, and checks that the
// game ends there as the Result, Winner, Reason and Plies headers say. Any problem is a lang::Error
// pointing into the record (or the rule file). Returns the exit code.
int run_replay(const ReplayOptions& options, std::ostream& out);

}  // namespace troyka::cli
