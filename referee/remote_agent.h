// A troyka agent playing for a remote referee (`troyka agent`): it connects a DEALER socket, says
// hello, compiles the rule text each match_start carries and answers every move request with the
// agent's choice. Thinking happens on a worker thread, so heartbeats go on while the agent
// searches; when the referee restarts or falls silent, the client says hello again.
#pragma once

#include <algorithm>
#include <chrono>
#include <condition_variable>
#include <iosfwd>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
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
  struct Choice {
    std::string move;
    // How long the agent meant to take: its search's time limit, or, for an agent without one,
    // what it took.
    double planned_seconds = 0;
  };
  // The move to play after `moves` (every move so far), with `seconds_left` on the clock, keeping
  // more in hand for a lag of `lag_seconds` (agents::Agent::allow_for_lag).
  virtual Choice choose(const std::vector<std::string>& moves, double seconds_left, double lag_seconds) = 0;
};

// Destroys seats on a thread of its own. Letting go of a finished match's search tree takes time
// in proportion to the memory it held (about 20 ms for 256 MB), which must not hold up a move
// request of another match queued behind it.
class SeatReaper {
 public:
  SeatReaper() = default;
  ~SeatReaper();  // destroys what is still queued, then stops
  SeatReaper(const SeatReaper&) = delete;
  SeatReaper& operator=(const SeatReaper&) = delete;
  void dispose(std::unique_ptr<Seat> seat);

 private:
  void run();

  std::mutex mutex_;
  std::condition_variable wake_;
  std::vector<std::unique_ptr<Seat>> queue_;
  bool stopping_ = false;
  std::thread thread_;  // started by the first dispose
};

// The recent worst of a delay that comes and goes (a reply held up on a busy machine), to keep in
// hand: the largest sample, fading by a share each sample, so that the margin grows at once when
// the delays do and one bad moment does not cost every move after it.
class RecentPeak {
 public:
  void add(double sample) { peak_ = std::max(sample, peak_ * kFade); }
  double value() const { return peak_; }

 private:
  static constexpr double kFade = 0.99;  // halves in about 70 samples: a game or two
  double peak_ = 0;
};

// The matches one client plays: what the worker thread does with the referee's match messages.
class MatchPlayer {
 public:
  explicit MatchPlayer(agents::AgentSpec spec) : spec_(std::move(spec)) {}

  // A match_start, move_request or match_end, which arrived at `received`; returns the reply to
  // send, if any. A move request's clock counts from `received`: the time the request waited (behind
  // another match's search, say) and took to read is taken from what the agent may think. Throws
  // lang::Error when a match's rules do not compile, Json::exception for a malformed message, and
  // std::runtime_error for one that does not fit the matches (a request for a match that did not
  // start, a move that is not legal).
  std::optional<Json> handle(const Json& message,
                             std::chrono::steady_clock::time_point received = std::chrono::steady_clock::now());
  // Forgets every match (after a reconnection the referee sends those that go on again).
  void clear();
  // The recent worst of how much longer the referee counted a move than the agent meant it to take.
  double lag_seconds() const { return lag_.value(); }

 private:
  // One match this client plays.
  struct SeatedMatch {
    std::unique_ptr<Seat> seat;
    std::string you;  // the player the seat plays, as match_start named it
    // The seat's last reply, in seconds from its request's arrival: when the agent meant it to
    // leave, and the most the request allowed (its time_ms). Nothing before the first.
    struct ReplyTiming {
      double planned = 0, limit = 0;
    };
    std::optional<ReplyTiming> last_reply;
  };
  // Learns from a request's `last_ms` (the referee's count of the seat's last move) how much later
  // than planned the replies arrive: the messages on their way, and a search thread woken late.
  void learn_lag(const Json& request, const SeatedMatch& match);
  // Learns from a match_end in which the seat lost on time: the lag was more than the margin kept.
  void learn_from_time_forfeit(const Json& end, const SeatedMatch& match);

  agents::AgentSpec spec_;
  std::map<std::string, SeatedMatch> matches_;  // by match id
  RecentPeak lag_;                              // over every match: the lag is the machine's and the network's
  std::uint64_t matches_started_ = 0;           // seeds each match's agent differently
  GameCache games_;
  SeatReaper reaper_;  // the seats of ended matches go there
};

}  // namespace troyka::referee
