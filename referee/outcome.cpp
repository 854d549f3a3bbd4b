#include "referee/outcome.h"

#include <fmt/chrono.h>
#include <fmt/format.h>

#include <chrono>
#include <ctime>

#include "interpreter/program.h"

namespace troyka::referee {

std::string result_token(int winner) {
  if (winner == kDraw) return std::string(kResultTokens[2]);
  return std::string(kResultTokens[winner == 0 ? 0 : 1]);
}

int winner_of_result_token(std::string_view token) {
  if (token == kResultTokens[0]) return 0;
  if (token == kResultTokens[1]) return 1;
  if (token == kResultTokens[2]) return kDraw;
  return -1;
}

std::string ply_cap_reason(std::uint32_t plies) { return fmt::format("ply cap {} reached", plies); }

std::string winner_name(const lang::Rules& rules, int winner) {
  if (winner == kDraw) return "draw";
  if (winner == kNoWinner) return "none";
  return rules.players[static_cast<std::size_t>(winner)].name;
}

std::string utc_now() {
  const std::time_t now = std::chrono::system_clock::to_time_t(std::chrono::system_clock::now());
  return fmt::format("{:%Y-%m-%dT%H:%M:%SZ}", fmt::gmtime(now));
}

}  // namespace troyka::referee
