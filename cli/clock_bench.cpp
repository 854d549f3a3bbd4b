// `troyka bench --agent SPEC --clock`: does an agent keep its time budget? Agents of SPEC, one a
// seat (two, or as many as the game has players), play each other, game after game, and every choose() is timed from
// the call to the return, as a referee's clock would see it if the wire took no time. Positions come from real games,
// and the agents keep their trees between moves as they do in a match, so the work of re-rooting, growing and freeing
// trees is all inside the measurement.
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <ostream>

#include "agents/agent.h"
#include "cli/commands.h"
#include "cli/support.h"
#include "interpreter/game.h"

namespace troyka::cli {
namespace {

using Clock = std::chrono::steady_clock;

struct ClockSample {
  double reply = 0;      // seconds from the call of choose() to its return
  double limit = 0;      // the search's own time limit (SearchReport::time_limit)
  double check_gap = 0;  // the longest time the search went without looking at the clock
};

// The value below which `share` of `sorted` lies (nearest rank).
double percentile(const std::vector<double>& sorted, double share) {
  const auto rank = static_cast<std::size_t>(std::ceil(share * static_cast<double>(sorted.size())));
  return sorted[std::min(sorted.size(), std::max<std::size_t>(rank, 1)) - 1];
}

struct Distribution {
  double median = 0, p99 = 0, p999 = 0, max = 0;
};

Distribution distribution(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  return {percentile(values, 0.5), percentile(values, 0.99), percentile(values, 0.999), values.back()};
}

Json to_json(const Distribution& d) {
  return Json{
      {"median_ms", d.median * 1e3}, {"p99_ms", d.p99 * 1e3}, {"p999_ms", d.p999 * 1e3}, {"max_ms", d.max * 1e3}};
}

template <typename Program>
std::vector<ClockSample> timed_searches(const Program& program, const agents::AgentSpec& spec, int searches,
                                        std::uint64_t seed, int& games) {
  std::vector<ClockSample> samples;
  for (games = 0; static_cast<int>(samples.size()) < searches; ++games) {
    // Each seat of each game has a seed of its own.
    const std::uint64_t game_seed =
        seed + static_cast<std::uint64_t>(program.player_count()) * static_cast<std::uint64_t>(games);
    std::vector<std::unique_ptr<agents::Agent<Program>>> players;
    for (int p = 0; p < program.player_count(); ++p) {
      players.push_back(agents::make_agent(spec, program, game_seed + static_cast<std::uint64_t>(p)));
      players.back()->start(p, agents::TimeControl{});
    }
    auto state = program.initial_state();
    // A game is cut at its playout cap, so a game that never ends cannot keep the bench from its count.
    while (!state.over && state.ply < program.playout_cap() && static_cast<int>(samples.size()) < searches) {
      auto& mover = *players[state.to_move];
      const auto start = Clock::now();
      const Move move = mover.choose(state, 0);
      const double reply = std::chrono::duration<double>(Clock::now() - start).count();
      const auto report = mover.last_report();
      if (!report) throw usage_error(fmt::format("agent '{}' does not search", spec_text(spec)));
      if (report->time_limit <= 0)
        throw usage_error(fmt::format("agent '{}' has no time budget to keep", spec_text(spec)),
                          "give it one, e.g. --agent mcts:time=200ms");
      samples.push_back({reply, report->time_limit, report->longest_check_gap});
      program.apply(state, move);
      for (auto& player : players) player->observe(move);
    }
    for (auto& player : players) player->finish(state.over ? state.winner : kNoWinner);
  }
  return samples;
}

}  // namespace

int run_clock_bench(const GameOptions& options, const BenchOptions& bench, std::ostream& out) {
  const agents::AgentSpec spec = agents::parse_agent_spec(bench.agent);
  if (bench.searches < 1 || bench.searches > 1'000'000) throw usage_error("--searches must be between 1 and 1000000");
  const Game game = Game::load(options.file, options.language_options());
  int games = 0;
  const std::vector<ClockSample> samples =
      game.visit([&](const auto& program) { return timed_searches(program, spec, bench.searches, bench.seed, games); });
  std::vector<double> replies, overruns, gaps;
  int over_5ms = 0;
  for (const ClockSample& sample : samples) {
    replies.push_back(sample.reply);
    overruns.push_back(std::max(sample.reply - sample.limit, 0.0));
    gaps.push_back(sample.check_gap);
    over_5ms += sample.reply - sample.limit > 0.005;
  }
  const Distribution reply = distribution(replies), overrun = distribution(overruns), gap = distribution(gaps);
  const double budget = samples.front().limit;
  if (options.json) {
    out << Json{{"agent", bench.agent},        {"players", game.rules().player_count()},
                {"searches", samples.size()},  {"games", games},
                {"budget_ms", budget * 1e3},   {"reply", to_json(reply)},
                {"overrun", to_json(overrun)}, {"overruns_over_5ms", over_5ms},
                {"check_gap", to_json(gap)}}
               .dump()
        << '\n';
    return 0;
  }
  fmt::print(out, "{}: {} searches by {} in {} self-play games of {} seats, {:.0f} ms budget\n", game.rules().name,
             samples.size(), bench.agent, games, game.rules().player_count(), budget * 1e3);
  const auto row = [&](const char* name, const Distribution& d) {
    fmt::print(out, "{:<16} median {:>9.3f} ms  p99 {:>9.3f} ms  p99.9 {:>9.3f} ms  max {:>9.3f} ms\n", name,
               d.median * 1e3, d.p99 * 1e3, d.p999 * 1e3, d.max * 1e3);
  };
  row("reply time", reply);
  row("overrun", overrun);
  row("clock-check gap", gap);
  fmt::print(out, "over by > 5 ms   {} of {} searches\n", over_5ms, samples.size());
  return 0;
}

}  // namespace troyka::cli
