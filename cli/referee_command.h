// `troyka referee` (host a tournament for agents that connect over ZeroMQ) and `troyka agent` (play
// in one with a troyka agent): the command-line faces of referee/, whose protocol is
// docs/protocol.md.
#pragma once

#include <cstddef>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "cli/support.h"
#include "referee/curve.h"
#include "referee/outcome.h"

namespace CLI {
class App;
}

namespace troyka::cli {

// The options as typed; durations are checked when the command runs.
struct RefereeCommandOptions {
  std::string bind;
  std::string game;
  std::string variant;
  std::vector<std::string> params;
  std::string time, total, increment;  // "" when not given
  MaxPlies max_plies;                  // by default the game's playout cap
  int games = 2;
  std::string format = "round-robin";
  std::vector<std::string> agents;
  int expect = 0;
  std::string results;
  int concurrent_per_agent = 1;
  std::string heartbeat = "1s", grace = "5s", absence = "60s";
  std::size_t max_message_bytes = 65536;
  std::string publish;     // "" for no watchers
  std::string curve_keys;  // a key directory (referee/curve.h), "" for no encryption
};

// A CURVE client's key files, as typed: both or neither.
struct CurveClientOptions {
  std::string server_key;  // the referee's NAME.key
  std::string own_keys;    // this client's NAME.key_secret
};

struct AgentCommandOptions {
  std::string connect;
  std::string name;
  std::string agent;
  CurveClientOptions curve;
};

struct KeygenOptions {
  std::string name;
  std::string directory = ".";
};

// Add the subcommands to `app`, with their options read into `options`.
CLI::App* add_referee_command(CLI::App& app, RefereeCommandOptions& options);
CLI::App* add_agent_command(CLI::App& app, AgentCommandOptions& options);
CLI::App* add_keygen_command(CLI::App& app, KeygenOptions& options);
// --curve-server-key and --curve-key, for `troyka agent` and `troyka watch`.
void add_curve_client_options(CLI::App& command, CurveClientOptions& options);
// The keys the options name; nothing when neither option was given.
std::optional<referee::CurveClient> curve_client(const CurveClientOptions& options);

// Run them; bad options arrive as lang::Error. The standings go to `out`, events to `log`.
int run_referee_command(const RefereeCommandOptions& options, std::ostream& out, std::ostream& log);
int run_agent_command(const AgentCommandOptions& options, std::ostream& log);
int run_keygen_command(const KeygenOptions& options, std::ostream& out);

}  // namespace troyka::cli
