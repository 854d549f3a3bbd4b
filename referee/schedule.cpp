#include "referee/schedule.h"

#include <utility>
#include <vector>

namespace troyka::referee {

const char* format_name(Format format) { return format == Format::RoundRobin ? "round-robin" : "gauntlet"; }

std::optional<Format> parse_format(std::string_view name) {
  if (name == "round-robin") return Format::RoundRobin;
  if (name == "gauntlet") return Format::Gauntlet;
  return std::nullopt;
}

namespace {

// Every set of `size` indices below `count`, each in increasing order, in lexicographic order; with
// `first_always`, only the sets that hold 0.
std::vector<std::vector<std::size_t>> index_sets(std::size_t count, std::size_t size, bool first_always) {
  std::vector<std::vector<std::size_t>> sets;
  std::vector<std::size_t> set;
  const auto extend = [&](const auto& self, std::size_t from) -> void {
    if (set.size() == size) {
      if (!first_always || set.front() == 0) sets.push_back(set);
      return;
    }
    for (std::size_t index = from; index + (size - set.size()) <= count; ++index) {
      set.push_back(index);
      self(self, index + 1);
      set.pop_back();
    }
  };
  extend(extend, 0);
  return sets;
}

}  // namespace

std::vector<ScheduledGame> make_schedule(Format format, const std::vector<std::string>& agents, int games_per_pairing,
                                         int players) {
  const auto seats = static_cast<std::size_t>(players);
  const auto pairings = index_sets(agents.size(), seats, format == Format::Gauntlet);
  std::vector<ScheduledGame> games;
  for (int round = 0; round < games_per_pairing; ++round)
    for (const auto& pairing : pairings) {
      ScheduledGame game{static_cast<int>(games.size()) + 1, std::vector<std::string>(seats)};
      for (std::size_t member = 0; member < seats; ++member)
        game.agents[(member + static_cast<std::size_t>(round)) % seats] = agents[pairing[member]];
      games.push_back(std::move(game));
    }
  return games;
}

}  // namespace troyka::referee
