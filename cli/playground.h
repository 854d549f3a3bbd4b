// `troyka serve`: the web playground. A page (cli/web/, compiled in) where a class edits a rule
// file, sees the checker's diagnostics as it types, plays the game against any agent, watches two
// agents, and steps through game records; behind it a JSON API (docs/playground.md).
//
// Safe to leave running for a class: it binds to localhost unless told otherwise, and limits the
// request size, the open games, the thinking time and memory of every search, and the searches
// running at once (a job queue with a fixed number of workers, off the request threads). Its
// analysis tab runs `troyka analyze`'s metrics (cli/analysis.h) on the same queue, smaller.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <memory>
#include <string>

namespace CLI {
class App;
}

namespace troyka::cli {

struct PlaygroundLimits {
  std::size_t max_body_bytes = 256 * 1024;                    // a rule file or record is a few KB
  std::size_t max_sessions = 200;                             // open games, all users together
  std::chrono::minutes session_idle{30};                      // a game nobody asked about for this long is closed
  double max_move_seconds = 5;                                // the most any agent thinks about a move
  double default_move_seconds = 1;                            // for a spec that names no time
  std::uint64_t max_search_bytes = std::uint64_t{256} << 20;  // the most one search's tree may hold
  int workers = 2;                                            // searches running at once
  std::size_t max_waiting_jobs = 32;                          // searches queued behind them
  std::chrono::seconds max_poll_wait{10};                     // the longest a job poll waits
  int max_analysis_games = 100;                               // self-play games of each kind in an analysis
  std::uint64_t max_analysis_iterations = 1000;               // the analysis agent's budget a move
  double max_analysis_seconds = 60;                           // an analysis still running then stops with what it has
};

class Playground {
 public:
  // Serves the games in `games_dir` (their texts, and the rule files records name).
  Playground(std::string games_dir, PlaygroundLimits limits);
  ~Playground();
  Playground(const Playground&) = delete;
  Playground& operator=(const Playground&) = delete;

  // Binds to `host`:`port` (port 0: any free port) and returns the port; throws a usage error when
  // it cannot.
  int bind(const std::string& host, int port);
  // Answers requests until stop() is called (from another thread).
  void serve();
  void stop();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

struct ServeOptions {
  std::string bind = "127.0.0.1:8080";
  std::string games_dir = "games";
  PlaygroundLimits limits;
};

CLI::App* add_serve_command(CLI::App& app, ServeOptions& options);
int run_serve_command(const ServeOptions& options, std::ostream& out);

}  // namespace troyka::cli
