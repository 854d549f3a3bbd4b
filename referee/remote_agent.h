// A troyka agent playing for a remote referee (`troyka agent`): it connects a DEALER socket, says
// hello, compiles the rule text each match_start carries and answers every move request with the
// agent's choice. Thinking happens on a worker thread, so heartbeats go on while the agent
// searches; when the referee restarts or falls silent, the client says hello again.
#pragma once

#include <iosfwd>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "agents/agent.h"
#include "referee/curve.h"
#include "referee/protocol.h"

namespace troyka::referee {

struct RemoteAgentOptions {
  std::string endpoint;  // the referee's address, e.g. tcp://localhost:5555
  std::string name;      // the name to register under
  agents::AgentSpec spec;
  std::optional<CurveClient> curve;  // for a referee with --curve-keys
};

// Plays until the referee says bye (returns 0) or refuses the agent (returns 1, with the reason
// on `log`). Events go to `log`.
int run_remote_agent(const RemoteAgentOptions& options, std::ostream& log);

// One agent's side of one match, whatever the game's bitboard width: it follows the moves of each
// request and asks the agent for its move.
class Seat {
 public:
  virtual ~Seat() = default;
  // The move to play after `moves` (every move so far), with `seconds_left` on the clock.
  virtual std::string choose(const std::vector<std::string>& moves, double seconds_left) = 0;
};

// The matches one client plays: what the worker thread does with the referee's match messages.
class MatchPlayer {
 public:
  explicit MatchPlayer(agents::AgentSpec spec) : spec_(std::move(spec)) {}

  // A match_start, move_request or match_end; returns the reply to send, if any. Throws
  // lang::Error when a match's rules do not compile, Json::exception for a malformed message, and
  // std::runtime_error for one that does not fit the matches (a request for a match that did not
  // start, a move that is not legal).
  std::optional<Json> handle(const Json& message);
  // Forgets every match (after a reconnection the referee sends those that go on again).
  void clear() { seats_.clear(); }

 private:
  agents::AgentSpec spec_;
  std::map<std::string, std::unique_ptr<Seat>> seats_;  // by match id
  std::uint64_t matches_started_ = 0;                   // seeds each match's agent differently
  GameCache games_;
};

}  // namespace troyka::referee
