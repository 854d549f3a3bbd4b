#include "referee/schedule.h"

#include <utility>

namespace troyka::referee {

const char* format_name(Format format) { return format == Format::RoundRobin ? "round-robin" : "gauntlet"; }

std::optional<Format> parse_format(std::string_view name) {
  if (name == "round-robin") return Format::RoundRobin;
  if (name == "gauntlet") return Format::Gauntlet;
  return std::nullopt;
}

std::vector<ScheduledGame> make_schedule(Format format, const std::vector<std::string>& agents, int games_per_pairing) {
  std::vector<std::pair<std::size_t, std::size_t>> pairings;
  for (std::size_t a = 0; a < agents.size(); ++a)
    for (std::size_t b = a + 1; b < agents.size(); ++b)
      if (format == Format::RoundRobin || a == 0) pairings.emplace_back(a, b);
  std::vector<ScheduledGame> games;
  for (int round = 0; round < games_per_pairing; ++round)
    for (const auto& [a, b] : pairings) {
      const bool swapped = round % 2 == 1;
      games.push_back({static_cast<int>(games.size()) + 1, {agents[swapped ? b : a], agents[swapped ? a : b]}});
    }
  return games;
}

}  // namespace troyka::referee
