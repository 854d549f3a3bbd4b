#include "tests/referee_helpers.h"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <signal.h>
#include <spawn.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <unistd.h>

#include <atomic>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>

extern char** environ;

namespace referee_testing {
namespace {

const std::string kGameFile = TROYKA_SOURCE_DIR "/games/breakthrough.game";
const std::string kPythonAgent = TROYKA_SOURCE_DIR "/examples/python/agent.py";
const std::string kNodeAgent = TROYKA_SOURCE_DIR "/examples/node/agent.mjs";

using SteadyClock = std::chrono::steady_clock;

std::string read_text(const std::string& path) {
  std::ifstream file(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

int exit_code(int status) { return WIFEXITED(status) ? WEXITSTATUS(status) : 128 + WTERMSIG(status); }

// Polls every agent's socket, and `fd` when it is not -1, until something arrives or `timeout`.
void wait_for_any(const std::vector<TestAgent*>& agents, int fd, Milliseconds timeout) {
  std::vector<zmq::pollitem_t> items;
  items.reserve(agents.size() + 1);
  for (TestAgent* agent : agents) items.push_back({agent->socket().handle(), 0, ZMQ_POLLIN, 0});
  if (fd >= 0) items.push_back({nullptr, fd, ZMQ_POLLIN, 0});
  zmq::poll(items, timeout);
}

}  // namespace

Workspace fresh_workspace(const std::string& name) {
  static std::atomic<int> counter{0};
  Workspace workspace{testing::TempDir() + "troyka_referee_" + std::to_string(getpid()) + "_" +
                      std::to_string(counter++) + "_" + name};
  std::filesystem::remove_all(workspace.directory);
  std::filesystem::create_directories(workspace.directory);
  return workspace;
}

Process::Process(const std::vector<std::string>& argv, const std::string& output_prefix)
    : out_path_(output_prefix + ".out"), err_path_(output_prefix + ".err") {
  posix_spawn_file_actions_t actions;
  posix_spawn_file_actions_init(&actions);
  posix_spawn_file_actions_addopen(&actions, STDIN_FILENO, "/dev/null", O_RDONLY, 0);
  posix_spawn_file_actions_addopen(&actions, STDOUT_FILENO, out_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  posix_spawn_file_actions_addopen(&actions, STDERR_FILENO, err_path_.c_str(), O_WRONLY | O_CREAT | O_TRUNC, 0644);
  std::vector<char*> args;
  args.reserve(argv.size() + 1);
  for (const std::string& arg : argv) args.push_back(const_cast<char*>(arg.c_str()));
  args.push_back(nullptr);
  const int error = posix_spawn(&pid_, args[0], &actions, nullptr, args.data(), environ);
  posix_spawn_file_actions_destroy(&actions);
  if (error != 0) throw std::runtime_error("cannot start " + argv[0]);
  // By system call: glibc 2.36's <sys/pidfd.h> lacks extern "C" for C++.
  pidfd_ = static_cast<int>(syscall(SYS_pidfd_open, pid_, 0));
  if (pidfd_ < 0) throw std::runtime_error("pidfd_open failed");
}

Process::~Process() {
  if (!status_) kill_now();
  close(pidfd_);
}

std::optional<int> Process::wait(Milliseconds timeout) {
  if (status_) return status_;
  pollfd fd{pidfd_, POLLIN, 0};
  if (poll(&fd, 1, static_cast<int>(timeout.count())) <= 0) return std::nullopt;
  int status = 0;
  if (waitpid(pid_, &status, 0) == pid_) status_ = exit_code(status);
  return status_;
}

void Process::kill_now() {
  if (status_) return;
  ::kill(pid_, SIGKILL);
  int status = 0;
  if (waitpid(pid_, &status, 0) == pid_) status_ = exit_code(status);
}

std::string Process::out() const { return read_text(out_path_); }
std::string Process::err() const { return read_text(err_path_); }

std::vector<std::string> referee_command(const Workspace& workspace, const std::vector<std::string>& extra) {
  std::vector<std::string> options{"--param", "width=5", "--param", "height=5"};
  options.insert(options.end(), extra.begin(), extra.end());
  return referee_command_on(kGameFile, workspace, options);
}

std::vector<std::string> referee_command_on(const std::string& game, const Workspace& workspace,
                                            const std::vector<std::string>& extra) {
  std::vector<std::string> command{TROYKA_BINARY, "referee", "--bind",    workspace.endpoint(),
                                   "--game",      game,      "--results", workspace.results()};
  command.insert(command.end(), extra.begin(), extra.end());
  return command;
}

std::vector<std::string> troyka_agent_command(const Workspace& workspace, const std::string& name,
                                              const std::string& spec) {
  return {TROYKA_BINARY, "agent", "--connect", workspace.endpoint(), "--name", name, "--agent", spec};
}

std::vector<std::string> python_agent_command(const Workspace& workspace, const std::string& name) {
  // The Debian interpreter, which has python3-zmq, whatever python3 is first on PATH.
  return {"/usr/bin/python3", kPythonAgent, "--connect", workspace.endpoint(), "--name", name, "--seed", "1"};
}

std::vector<std::string> node_agent_command(const Workspace& workspace, const std::string& name) {
  // Its modules are in examples/node/node_modules (scripts/setup runs npm ci there).
  return {"/usr/bin/env", "node", kNodeAgent, "--connect", workspace.endpoint(), "--name", name, "--seed", "1"};
}

std::vector<std::string> watch_command(const Workspace& workspace) {
  return {TROYKA_BINARY, "watch", workspace.publisher(), "--ascii"};
}

TestAgent::TestAgent(zmq::context_t& context, std::string endpoint, std::string name)
    : on_message([](TestAgent& agent, const Json& message) { agent.play(message); }),
      context_(context),
      endpoint_(std::move(endpoint)),
      name_(std::move(name)) {
  connect();
}

void TestAgent::connect(bool with_session) {
  socket_.emplace(context_, zmq::socket_type::dealer);
  socket_->set(zmq::sockopt::linger, 0);
  socket_->connect(endpoint_);
  registered_ = false;
  with_session_ = with_session;
  hello();
}

void TestAgent::hello() {
  send(troyka::referee::hello_message(name_, "test agent", with_session_ ? session_ : std::string()));
}

void TestAgent::send(const Json& message) { send_frames({message.dump()}); }

void TestAgent::send_frames(const std::vector<std::string>& frames) {
  for (std::size_t part = 0; part < frames.size(); ++part)
    (void)socket_->send(zmq::buffer(frames[part]),
                        part + 1 < frames.size() ? zmq::send_flags::sndmore : zmq::send_flags::none);
  last_sent_ = SteadyClock::now();
}

void TestAgent::play(const Json& message) {
  const std::string type = message.value("type", "");
  if (type == "welcome") {
    registered_ = true;
    session_ = message.value("session", "");
  } else if (type == "error" && message.value("code", "") == "not_registered" && registered_) {
    registered_ = false;
    hello();
  } else if (type == "move_request") {
    send(troyka::referee::move_message(message["match"], message["ply"], message["legal"][0]));
  }
}

void TestAgent::service(SteadyClock::time_point now, Milliseconds heartbeat) {
  for (zmq::message_t frame; socket_->recv(frame, zmq::recv_flags::dontwait);) {
    received.push_back(Json::parse(frame.to_string_view()));
    on_message(*this, received.back());
  }
  if (!keep_alive || now - last_sent_ < heartbeat) return;
  if (registered_)
    send(troyka::referee::heartbeat_message());
  else
    hello();
}

std::vector<Json> TestAgent::of_type(const std::string& type) const {
  std::vector<Json> found;
  for (const Json& message : received)
    if (message.value("type", "") == type) found.push_back(message);
  return found;
}

bool TestAgent::got_error(const std::string& code) const {
  for (const Json& error : of_type("error"))
    if (error.value("code", "") == code) return true;
  return false;
}

bool run_until(const std::vector<TestAgent*>& agents, const std::function<bool()>& done, Milliseconds timeout,
               Milliseconds heartbeat) {
  const auto end = SteadyClock::now() + timeout;
  while (!done()) {
    const auto now = SteadyClock::now();
    if (now >= end) return false;
    for (TestAgent* agent : agents) agent->service(now, heartbeat);
    if (done()) return true;
    wait_for_any(agents, -1, std::min(heartbeat, std::chrono::ceil<Milliseconds>(end - now)));
  }
  return true;
}

namespace {

// The referee's last messages (match_end, bye) may still be on their way when its process ends:
// reads them, until each agent has its bye or a second has passed (an agent the referee dropped
// gets none).
void drain_until_bye(const std::vector<TestAgent*>& agents, Milliseconds heartbeat) {
  const auto end = SteadyClock::now() + std::chrono::seconds(1);
  const auto has_bye = [](const TestAgent* agent) { return !agent->of_type("bye").empty(); };
  while (!std::all_of(agents.begin(), agents.end(), has_bye) && SteadyClock::now() < end) {
    wait_for_any(agents, -1, Milliseconds(10));
    for (TestAgent* agent : agents) agent->service(SteadyClock::now(), heartbeat);
  }
}

}  // namespace

std::optional<int> run_until_exit(const std::vector<TestAgent*>& agents, Process& referee, Milliseconds timeout,
                                  Milliseconds heartbeat) {
  const auto end = SteadyClock::now() + timeout;
  for (;;) {
    const auto now = SteadyClock::now();
    for (TestAgent* agent : agents) agent->service(now, heartbeat);
    if (const auto code = referee.wait(Milliseconds(0))) {
      drain_until_bye(agents, heartbeat);
      return code;
    }
    if (now >= end) return std::nullopt;
    wait_for_any(agents, referee.exit_fd(), std::min(heartbeat, std::chrono::ceil<Milliseconds>(end - now)));
  }
}

Results read_results(const std::string& path) {
  Results results;
  std::ifstream file(path);
  for (std::string line; std::getline(file, line);) {
    results.lines.push_back(line);
    const Json json = Json::parse(line, nullptr, false);
    EXPECT_FALSE(json.is_discarded()) << "not JSON: " << line;
    if (json.is_discarded()) continue;
    if (json.value("type", "") == "tournament")
      results.header = json;
    else
      results.games.push_back(json);
  }
  return results;
}

void expect_every_game_once(const Results& results, int games) {
  EXPECT_EQ(results.header.value("type", ""), "tournament");
  EXPECT_EQ(results.header.value("games", 0), games);
  std::map<int, int> seen;
  for (const Json& game : results.games) ++seen[game.value("game", 0)];
  EXPECT_EQ(static_cast<int>(results.games.size()), games);
  for (int game = 1; game <= games; ++game) EXPECT_EQ(seen[game], 1) << "game " << game;
}

std::vector<std::string> forfeit_codes(const Results& results) {
  std::vector<std::string> codes(results.games.size());
  for (const Json& game : results.games) {
    const auto number = static_cast<std::size_t>(game.value("game", 0));
    if (number < 1 || number > codes.size()) continue;
    codes[number - 1] = game["forfeit"].is_null() ? "" : game["forfeit"].value("code", "?");
  }
  return codes;
}

}  // namespace referee_testing
