#include "cli/referee_command.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <filesystem>
#include <set>
#include <zmq.hpp>

#include "agents/agent.h"
#include "cli/commands.h"
#include "cli/support.h"
#include "referee/referee.h"
#include "referee/remote_agent.h"

namespace troyka::cli {
namespace {

constexpr int kMaxGamesPerPairing = 100'000;
constexpr int kMaxConcurrent = 1000;
constexpr std::size_t kMinMessageBytes = 1024;
constexpr std::size_t kMaxMessageBytes = 64 << 20;

// A duration option in whole milliseconds; 0 when it was not given.
std::int64_t milliseconds(const std::string& option, const std::string& text) {
  if (text.empty()) return 0;
  const auto seconds = agents::parse_duration(text);
  if (!seconds || *seconds < 0.001)
    throw usage_error(fmt::format("{}: '{}' is not a duration", option, text),
                      "write it in ms or s, at least 1ms, e.g. 200ms or 1.5s");
  return std::llround(*seconds * 1000);
}

void check_agent_names(const std::vector<std::string>& agents) {
  std::set<std::string> seen;
  for (const std::string& agent : agents) {
    if (!referee::valid_agent_name(agent))
      throw usage_error(fmt::format("--agents: '{}' is not a valid agent name", agent),
                        "a name is 1 to 64 characters from A-Z a-z 0-9 . _ -");
    if (!seen.insert(agent).second) throw usage_error(fmt::format("--agents: '{}' is named twice", agent));
  }
  if (agents.size() == 1) throw usage_error("--agents: a tournament needs at least two agents");
}

referee::ClockSettings clock_settings(const RefereeCommandOptions& options) {
  referee::ClockSettings clock{milliseconds("--time", options.time), milliseconds("--total", options.total),
                               milliseconds("--increment", options.increment)};
  if (clock.move_ms == 0 && clock.total_ms == 0)
    throw usage_error("give a clock: --time (per move), --total (per game), or both", "e.g. --time 1s");
  if (clock.increment_ms > 0 && clock.total_ms == 0)
    throw usage_error("--increment adds to a game total: give --total too");
  return clock;
}

void require_curve() {
  if (!referee::curve_available())
    throw usage_error("this ZeroMQ library was built without CURVE support",
                      "install a libzmq built with libsodium (Debian's libzmq5 is)");
}

// The key directory, with a key for each agent named on the command line.
referee::CurveDirectory curve_directory(const std::string& directory, const std::vector<std::string>& agents) {
  require_curve();
  referee::CurveDirectory keys = referee::read_curve_directory(directory);
  for (const std::string& agent : agents) {
    const bool has_key =
        std::any_of(keys.agents.begin(), keys.agents.end(), [&](const auto& entry) { return entry.second == agent; });
    if (!has_key)
      throw usage_error(
          fmt::format("--curve-keys: no key for the agent '{}' ({}/agents/{}.key)", agent, directory, agent),
          "each agent makes its keys with `troyka keygen NAME` and gives NAME.key to the referee");
  }
  return keys;
}

referee::RefereeOptions referee_options(const RefereeCommandOptions& options) {
  referee::RefereeOptions referee;
  referee.bind = options.bind;
  const auto format = referee::parse_format(options.format);
  if (!format)
    throw usage_error(fmt::format("--format: unknown format '{}'", options.format), "use round-robin or gauntlet");
  referee.format = *format;
  if (options.games < 1 || options.games > kMaxGamesPerPairing)
    throw usage_error(fmt::format("--games must be between 1 and {}", kMaxGamesPerPairing));
  referee.games_per_pairing = options.games;
  check_agent_names(options.agents);
  referee.agents = options.agents;
  if (options.expect == 1 || options.expect < 0) throw usage_error("--expect: a tournament needs at least two agents");
  referee.expect = options.expect;
  referee.clock = clock_settings(options);
  check_max_plies(options.max_plies);
  referee.max_plies = options.max_plies;
  referee.results = options.results;
  if (options.concurrent_per_agent < 1 || options.concurrent_per_agent > kMaxConcurrent)
    throw usage_error(fmt::format("--concurrent-per-agent must be between 1 and {}", kMaxConcurrent));
  referee.concurrent_per_agent = options.concurrent_per_agent;
  referee.heartbeat_ms = milliseconds("--heartbeat", options.heartbeat);
  referee.grace_ms = milliseconds("--grace", options.grace);
  referee.absence_ms = milliseconds("--absence", options.absence);
  if (referee.grace_ms <= referee.heartbeat_ms)
    throw usage_error("--grace must be longer than --heartbeat", "agents may be silent for a heartbeat interval");
  if (options.max_message_bytes < kMinMessageBytes || options.max_message_bytes > kMaxMessageBytes)
    throw usage_error(fmt::format("--max-message-bytes must be between {} and {}", kMinMessageBytes, kMaxMessageBytes));
  referee.max_message_bytes = options.max_message_bytes;
  referee.publish = options.publish;
  if (!options.curve_keys.empty()) referee.curve = curve_directory(options.curve_keys, options.agents);
  return referee;
}

}  // namespace

CLI::App* add_referee_command(CLI::App& app, RefereeCommandOptions& options) {
  CLI::App* command =
      app.add_subcommand("referee", "host a tournament for agents that connect over ZeroMQ (docs/protocol.md)");
  command->add_option("--bind", options.bind, "where agents connect, e.g. tcp://*:5555")->required();
  command->add_option("--game", options.game, "the rule file, e.g. games/breakthrough.game")->required();
  command->add_option("--variant", options.variant, "play a named variant of the game");
  command->add_option("--param", options.params, "set a parameter: --param width=6 (repeatable)");
  command->add_option("--time", options.time, "the time for each move, e.g. 1s or 200ms");
  command->add_option("--total", options.total, "each player's time for a whole game, e.g. 300s");
  command->add_option("--increment", options.increment, "with --total: time added after each move");
  command->add_option("--max-plies", options.max_plies,
                      "stop a game still going at this ply as a draw (default: the game's playout cap)");
  command->add_option("--games", options.games, "games per pairing, colours alternating (default 2)");
  command->add_option("--format", options.format,
                      "round-robin (default) or gauntlet (the first agent against the rest)");
  auto* agents = command->add_option("--agents", options.agents, "the agents' names, in order (waits for them)");
  command->add_option("--expect", options.expect, "instead of --agents: the first N agents to connect play")
      ->excludes(agents);
  command->add_option("--results", options.results, "the results file (JSON lines); resumed if it exists")->required();
  command->add_option("--concurrent-per-agent", options.concurrent_per_agent,
                      "matches an agent may play at once (default 1)");
  command->add_option("--heartbeat", options.heartbeat, "agents send a heartbeat this often (default 1s)");
  command->add_option("--grace", options.grace, "drop an agent silent for this long (default 5s)");
  command->add_option("--absence", options.absence,
                      "forfeit the games of an agent that left when it has been away this long (default 60s)");
  command->add_option("--max-message-bytes", options.max_message_bytes,
                      "the largest message an agent may send (default 65536)");
  command->add_option("--publish", options.publish,
                      "publish every move and result here for `troyka watch`, e.g. tcp://*:5556");
  command->add_option("--curve-keys", options.curve_keys,
                      "encrypt with CURVE and admit only the agents whose keys are in this directory "
                      "(DIR/referee.key_secret, DIR/agents/NAME.key, DIR/watchers/NAME.key)");
  return command;
}

void add_curve_client_options(CLI::App& command, CurveClientOptions& options) {
  auto* server = command.add_option("--curve-server-key", options.server_key,
                                    "with CURVE: the referee's public key file, e.g. referee.key");
  auto* own = command.add_option("--curve-key", options.own_keys,
                                 "with CURVE: this client's key pair, e.g. alice.key_secret (troyka keygen)");
  server->needs(own);
  own->needs(server);
}

std::optional<referee::CurveClient> curve_client(const CurveClientOptions& options) {
  if (options.server_key.empty()) return std::nullopt;
  require_curve();
  return referee::read_curve_client(options.server_key, options.own_keys);
}

CLI::App* add_keygen_command(CLI::App& app, KeygenOptions& options) {
  CLI::App* command =
      app.add_subcommand("keygen", "make a CURVE key pair for an encrypted referee: NAME.key and NAME.key_secret");
  command->add_option("name", options.name, "whose keys: referee, or an agent's or watcher's name")->required();
  command->add_option("--dir", options.directory, "where to write them (default: here)");
  return command;
}

int run_keygen_command(const KeygenOptions& options, std::ostream& out) {
  if (!referee::valid_agent_name(options.name))
    throw usage_error(fmt::format("'{}' is not a valid name for keys", options.name),
                      "a name is 1 to 64 characters from A-Z a-z 0-9 . _ -");
  require_curve();
  const referee::CurveKeys keys = referee::generate_curve_keys();
  referee::write_certificates(options.directory, options.name, keys);
  const std::filesystem::path base = std::filesystem::path(options.directory) / options.name;
  fmt::print(out,
             "public key {}\nwrote {}.key (public: give it to whoever runs the referee) and {}.key_secret "
             "(keep it to yourself)\n",
             keys.public_key, base.string(), base.string());
  return 0;
}

CLI::App* add_agent_command(CLI::App& app, AgentCommandOptions& options) {
  CLI::App* command = app.add_subcommand("agent", "play in a referee's tournament with a troyka agent");
  command->add_option("--connect", options.connect, "the referee's address, e.g. tcp://localhost:5555")->required();
  command->add_option("--name", options.name, "the name to play under")->required();
  command->add_option("--agent", options.agent, "the agent, e.g. mcts:time=1s or random")->required();
  add_curve_client_options(*command, options.curve);
  return command;
}

int run_referee_command(const RefereeCommandOptions& options, std::ostream& out, std::ostream& log) {
  const referee::RefereeOptions referee = referee_options(options);
  GameOptions game;
  game.variant = options.variant;
  game.params = options.params;
  const referee::LoadedGame loaded = referee::load_game(options.game, game.language_options());
  try {
    return referee::run_referee(referee, loaded, out, log);
  } catch (const zmq::error_t& error) {
    const std::string endpoints =
        options.publish.empty() ? options.bind : fmt::format("{} or --publish {}", options.bind, options.publish);
    throw usage_error(fmt::format("cannot bind --bind {}: {}", endpoints, error.what()),
                      "e.g. tcp://*:5555, tcp://127.0.0.1:5555 or ipc:///tmp/referee.sock");
  }
}

int run_agent_command(const AgentCommandOptions& options, std::ostream& log) {
  if (!referee::valid_agent_name(options.name))
    throw usage_error(fmt::format("--name: '{}' is not a valid agent name", options.name),
                      "a name is 1 to 64 characters from A-Z a-z 0-9 . _ -");
  const agents::AgentSpec spec = agents::parse_agent_spec(options.agent);
  try {
    return referee::run_remote_agent({options.connect, options.name, spec, curve_client(options.curve)}, log);
  } catch (const zmq::error_t& error) {
    throw usage_error(fmt::format("--connect {}: {}", options.connect, error.what()),
                      "e.g. tcp://localhost:5555 or ipc:///tmp/referee.sock");
  }
}

}  // namespace troyka::cli
