// What the referee tests share: child processes (the real `troyka referee`, `troyka agent` and the
// Python example), agents written in the test over raw DEALER sockets, and checks of results files.
// Endpoints are ipc:// files in a directory of their own, so parallel test processes never collide.
#pragma once

#include <sys/types.h>

#include <chrono>
#include <functional>
#include <optional>
#include <string>
#include <vector>
#include <zmq.hpp>

#include "referee/protocol.h"

namespace referee_testing {

using troyka::referee::Json;
using Milliseconds = std::chrono::milliseconds;

// A directory for one test, with the referee's endpoint and results file in it.
struct Workspace {
  std::string directory;
  std::string endpoint() const { return "ipc://" + directory + "/referee.sock"; }
  std::string results() const { return directory + "/results.jsonl"; }
  std::string publisher() const { return "ipc://" + directory + "/watch.sock"; }
};
Workspace fresh_workspace(const std::string& name);

// A child process whose stdout and stderr go to files; killed if it still runs when destroyed.
class Process {
 public:
  Process(const std::vector<std::string>& argv, const std::string& output_prefix);
  ~Process();
  Process(const Process&) = delete;
  Process& operator=(const Process&) = delete;

  // Readable when the process has ended: for poll sets.
  int exit_fd() const { return pidfd_; }
  // The exit code (128 + the signal when killed by one), or nothing if it still runs after `timeout`.
  std::optional<int> wait(Milliseconds timeout);
  void kill_now();  // SIGKILL, then reaped
  std::string out() const;
  std::string err() const;

 private:
  pid_t pid_ = -1;
  int pidfd_ = -1;
  std::optional<int> status_;
  std::string out_path_, err_path_;
};

// `troyka referee` on the 5x5 Breakthrough at the workspace's endpoint and results file, with
// `extra` options.
std::vector<std::string> referee_command(const Workspace& workspace, const std::vector<std::string>& extra);
// The same on the rule file `game`, as it is.
std::vector<std::string> referee_command_on(const std::string& game, const Workspace& workspace,
                                            const std::vector<std::string>& extra);
std::vector<std::string> troyka_agent_command(const Workspace& workspace, const std::string& name,
                                              const std::string& spec);
std::vector<std::string> python_agent_command(const Workspace& workspace, const std::string& name);
std::vector<std::string> node_agent_command(const Workspace& workspace, const std::string& name);
std::vector<std::string> watch_command(const Workspace& workspace);

// An agent written in the test: a DEALER socket, and a handler for every message it receives
// (by default `play`). While `keep_alive` is on it sends a heartbeat when registered, and hello
// until it is, every heartbeat interval, as a real client does.
class TestAgent {
 public:
  using Handler = std::function<void(TestAgent&, const Json&)>;

  TestAgent(zmq::context_t& context, std::string endpoint, std::string name);

  const std::string& name() const { return name_; }
  zmq::socket_t& socket() { return *socket_; }
  bool registered() const { return registered_; }

  // A new connection (the old one closed), then hello; with `with_session` the hellos on it carry
  // the secret of the last welcome.
  void connect(bool with_session = true);
  void hello();
  void send(const Json& message);
  void send_frames(const std::vector<std::string>& frames);

  // What a well-behaved agent does: notes its welcome, says hello again when the referee no
  // longer knows it, and answers every move request with the first legal move.
  void play(const Json& message);

  // Reads what has arrived and hands it to the handler; sends a heartbeat or hello when one is due.
  void service(std::chrono::steady_clock::time_point now, Milliseconds heartbeat);

  Handler on_message;
  bool keep_alive = true;
  std::vector<Json> received;  // every message, in order

  std::vector<Json> of_type(const std::string& type) const;
  bool got_error(const std::string& code) const;

 private:
  zmq::context_t& context_;
  std::string endpoint_, name_;
  std::optional<zmq::socket_t> socket_;
  std::string session_;
  bool with_session_ = true;
  bool registered_ = false;
  std::chrono::steady_clock::time_point last_sent_;
};

// Runs the agents until the referee process ends or `timeout` passes; returns its exit code, or
// nothing on a timeout. Heartbeats every `heartbeat`.
std::optional<int> run_until_exit(const std::vector<TestAgent*>& agents, Process& referee, Milliseconds timeout,
                                  Milliseconds heartbeat = Milliseconds(100));
// Runs the agents until `done` holds or `timeout` passes; returns whether `done` held.
bool run_until(const std::vector<TestAgent*>& agents, const std::function<bool()>& done, Milliseconds timeout,
               Milliseconds heartbeat = Milliseconds(100));

// A results file: each line parsed (a line that is not JSON fails the test).
struct Results {
  Json header;
  std::vector<Json> games;
  std::vector<std::string> lines;
};
Results read_results(const std::string& path);
// Every game of 1..`games` is in the file exactly once.
void expect_every_game_once(const Results& results, int games);
// The forfeit codes of the games, "" for a game played out; by game number from 1.
std::vector<std::string> forfeit_codes(const Results& results);

}  // namespace referee_testing
