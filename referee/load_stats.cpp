#include "referee/load_stats.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>

namespace troyka::referee {
namespace {

// The whole process: the referee's thread and ZeroMQ's I/O thread, which does the socket work.
std::timespec process_cpu_time() {
  std::timespec now{};
  clock_gettime(CLOCK_PROCESS_CPUTIME_ID, &now);
  return now;
}

double seconds_between(const std::timespec& from, const std::timespec& to) {
  return static_cast<double>(to.tv_sec - from.tv_sec) + static_cast<double>(to.tv_nsec - from.tv_nsec) * 1e-9;
}

// The value below which `share` of the sorted values lie (nearest rank).
std::int64_t percentile(const std::vector<std::int64_t>& sorted, double share) {
  const auto rank = static_cast<std::size_t>(std::lround(share * static_cast<double>(sorted.size() - 1)));
  return sorted[rank];
}

}  // namespace

LoadStats::LoadStats() : started_(std::chrono::steady_clock::now()), cpu_started_(process_cpu_time()) {}

void LoadStats::add_reply(std::chrono::nanoseconds waited) {
  reply_us_.push_back(std::chrono::duration_cast<std::chrono::microseconds>(waited).count());
}

std::string LoadStats::summary() const {
  const double wall = std::chrono::duration<double>(std::chrono::steady_clock::now() - started_).count();
  const double cpu = seconds_between(cpu_started_, process_cpu_time());
  if (reply_us_.empty()) return fmt::format("relayed no moves in {:.1f} s", wall);
  std::vector<std::int64_t> sorted = reply_us_;
  std::sort(sorted.begin(), sorted.end());
  const auto moves = static_cast<double>(sorted.size());
  return fmt::format(
      "relayed {} moves in {:.1f} s ({:.0f} a second); replies came {:.3f} ms after the request (median), "
      "{:.3f} ms (99th percentile); the referee used {:.3f} ms of processor time a move",
      sorted.size(), wall, moves / std::max(wall, 1e-9), static_cast<double>(percentile(sorted, 0.5)) / 1000,
      static_cast<double>(percentile(sorted, 0.99)) / 1000, cpu * 1000 / moves);
}

}  // namespace troyka::referee
