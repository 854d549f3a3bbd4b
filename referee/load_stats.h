// What the referee measures of its own work, for people running large tournaments: how many moves
// it relayed, how soon agents' replies came back, and the processor time the referee spent. The
// summary line ends the referee's log; bench/referee_load.sh reads it.
#pragma once

#include <chrono>
#include <cstdint>
#include <ctime>
#include <string>
#include <vector>

namespace troyka::referee {

class LoadStats {
 public:
  LoadStats();

  // A legal move arrived `waited` after its request was sent: the agent's thinking plus the round
  // trip. Agents that answer at once (bench/referee_load.sh) make it the round trip alone.
  void add_reply(std::chrono::nanoseconds waited);

  std::size_t moves() const { return reply_us_.size(); }
  // "relayed 1,234 moves in 5.2 s (237 a second); ..." with the median and 99th percentile reply
  // time and the referee's processor time a move.
  std::string summary() const;

 private:
  std::vector<std::int64_t> reply_us_;
  std::chrono::steady_clock::time_point started_;
  std::timespec cpu_started_{};
};

}  // namespace troyka::referee
