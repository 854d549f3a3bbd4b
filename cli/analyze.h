// `troyka analyze`: what a game is like to play, measured by self-play (cli/analysis.h), for one
// game or several side by side, with the differences that are more than chance marked.
#pragma once

#include <atomic>
#include <iosfwd>
#include <string>
#include <vector>

#include "cli/analysis.h"

namespace CLI {
class App;
}

namespace troyka::cli {

struct AnalyzeOptions {
  std::vector<std::string> files;     // one or more rule files
  std::vector<std::string> variants;  // each file is analysed in each variant; none: the default
  std::vector<std::string> params;    // NAME=VALUE, for every file
  bool json = false;
  AnalysisOptions analysis;
};

CLI::App* add_analyze_command(CLI::App& app, AnalyzeOptions& options);

// Analyses every game the options name, one after another: the report goes to `out` (JSON with
// --json), progress to `log` (taken to be stderr: a line redrawn in place on a terminal, a line
// per phase otherwise). `stop`, when it becomes true (Ctrl-C), ends the analysis early with what it
// has. Returns the exit code: 0, or 130 when stopped.
// Makes Ctrl-C set the returned flag instead of ending the program (a second Ctrl-C still does).
const std::atomic<bool>* stop_on_interrupt();

int run_analyze(const AnalyzeOptions& options, const std::atomic<bool>* stop, std::ostream& out, std::ostream& log);

}  // namespace troyka::cli
