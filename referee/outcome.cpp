#include "referee/outcome.h"

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <charconv>
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

int winner_of(const Ranks& ranks) {
  const auto firsts = std::count(ranks.begin(), ranks.end(), 1);
  return firsts == 1 ? static_cast<int>(std::find(ranks.begin(), ranks.end(), 1) - ranks.begin()) : kDraw;
}

double rank_points(const Ranks& ranks, int player) {
  const int mine = ranks[static_cast<std::size_t>(player)];
  double beaten = 0;
  for (const int theirs : ranks) beaten += theirs > mine ? 1.0 : theirs == mine ? 0.5 : 0.0;
  beaten -= 0.5;  // the player itself, counted as tied
  return beaten / static_cast<double>(ranks.size() - 1);
}

Verdict verdict_of(const Ranks& ranks, int player) {
  const int rank = ranks[static_cast<std::size_t>(player)];
  if (std::count(ranks.begin(), ranks.end(), rank) > 1) return Verdict::Draw;
  return rank == 1 ? Verdict::Win : rank == static_cast<int>(ranks.size()) ? Verdict::Loss : Verdict::Draw;
}

std::string result_token(const Ranks& ranks) {
  if (ranks.size() == 2) return result_token(winner_of(ranks));
  return fmt::format("{}", fmt::join(ranks, "-"));
}

namespace {

// "2-1-3" as {2, 1, 3}; empty when a part is not a whole number from 1 to kMaxPlayers.
Ranks split_ranks(std::string_view token) {
  Ranks ranks;
  for (std::size_t start = 0; start <= token.size();) {
    const std::size_t end = std::min(token.find('-', start), token.size());
    int rank = 0;
    const auto [stop, error] = std::from_chars(token.data() + start, token.data() + end, rank);
    if (error != std::errc() || stop != token.data() + end || rank < 1 || rank > kMaxPlayers) return {};
    ranks.push_back(rank);
    start = end + 1;
  }
  return ranks;
}

}  // namespace

bool is_ranks_token(std::string_view token) { return split_ranks(token).size() > 2; }

Ranks ranks_of_result_token(std::string_view token, int players) {
  if (players == 2) {
    const int winner = winner_of_result_token(token);
    if (winner == -1) return {};
    return winner == kDraw ? Ranks{1, 1} : winner == 0 ? Ranks{1, 2} : Ranks{2, 1};
  }
  Ranks ranks = split_ranks(token);
  return static_cast<int>(ranks.size()) == players ? ranks : Ranks{};
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
