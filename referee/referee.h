// The referee: hosts a tournament for agents that connect over ZeroMQ (docs/protocol.md). One
// thread, one ROUTER socket, one event loop: zmq::poll waits for the next message or the nearest
// deadline (a move's clock, a silent agent's grace, an absent agent's wait), whichever comes
// first, so a thousand matches cost no more threads than one.
#pragma once

#include <cstddef>
#include <cstdint>
#include <iosfwd>
#include <optional>
#include <string>
#include <vector>

#include "referee/curve.h"
#include "referee/outcome.h"
#include "referee/protocol.h"
#include "referee/schedule.h"

namespace troyka::referee {

struct RefereeOptions {
  std::string bind;  // a ZeroMQ endpoint, e.g. tcp://*:5555 or ipc:///tmp/referee.sock
  Format format = Format::RoundRobin;
  int games_per_pairing = 2;
  std::vector<std::string> agents;  // the entrants, in order; empty to take the first `expect` to come
  int expect = 0;
  ClockSettings clock;
  // A game still going at this ply is stopped as a draw; by default the game's playout cap.
  std::optional<std::uint32_t> max_plies;
  std::string results;           // the results file (JSON lines); resumed when it exists
  int concurrent_per_agent = 1;  // matches an agent plays at once
  std::int64_t heartbeat_ms = 1000;
  std::int64_t grace_ms = 5000;     // silence after which an agent's registration ends
  std::int64_t absence_ms = 60000;  // how long an agent's games wait for it once it left
  std::size_t max_message_bytes = 65536;
  std::string publish;  // where watchers subscribe to every move and result; "" for nowhere
  // With keys, both sockets are CURVE servers and an agent may only register under the name its
  // key is filed under (curve.h); without, anyone who reaches the endpoint may enter.
  std::optional<CurveDirectory> curve;
};

// Plays the tournament until every game of its schedule is in the results file. Events
// (registrations, each game's end with the scores so far) go to `log`; the final standings to
// `out`. Returns the exit code. Throws lang::Error when the results file cannot be used and
// zmq::error_t when the endpoint cannot be bound.
int run_referee(const RefereeOptions& options, const LoadedGame& game, std::ostream& out, std::ostream& log);

}  // namespace troyka::referee
