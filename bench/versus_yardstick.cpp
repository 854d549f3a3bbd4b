// Side-by-side speed of troyka's compiled Breakthrough and the hand-written yardstick engine,
// measured in one process, alternating rounds so both see the same machine conditions.
//   build/bench/versus_yardstick [--rounds N] [--playouts P] [--json]
// Prints the median playouts/s of each and their ratio.
#include <fmt/format.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <chrono>
#include <nlohmann/json.hpp>
#include <vector>

#include "bench/yardstick.h"
#include "interpreter/game.h"

namespace {

double median(std::vector<double> values) {
  std::sort(values.begin(), values.end());
  const std::size_t middle = values.size() / 2;
  return values.size() % 2 ? values[middle] : (values[middle - 1] + values[middle]) / 2;
}

// Random playouts with troyka from the start position; returns playouts per second.
double troyka_rate(const troyka::Game& game, std::uint64_t playouts, std::uint64_t seed, double& plies) {
  return game.visit([&](const auto& program) {
    troyka::Rng rng(seed);
    const auto root = program.initial_state();
    std::uint64_t total_plies = 0;
    const auto start = std::chrono::steady_clock::now();
    for (std::uint64_t i = 0; i < playouts; ++i) {
      auto state = root;
      total_plies += program.playout(state, rng);
    }
    const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    plies = static_cast<double>(total_plies) / static_cast<double>(playouts);
    return static_cast<double>(playouts) / seconds;
  });
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"troyka vs the hand-written yardstick engine: random Breakthrough 8x8 playouts, one thread"};
  int rounds = 7;
  std::uint64_t playouts = 200000;
  std::string rule_file = std::string(TROYKA_SOURCE_DIR) + "/games/breakthrough.game";
  bool json = false;
  app.add_option("--rounds", rounds, "alternating rounds; medians are reported")->check(CLI::Range(1, 1000));
  app.add_option("--playouts", playouts, "playouts per round and engine")->check(CLI::Range(1, 1000000000));
  app.add_option("--game", rule_file, "the Breakthrough rule file");
  app.add_flag("--json", json, "print JSON");
  CLI11_PARSE(app, argc, argv);

  const troyka::Game game = troyka::Game::load(rule_file);
  std::vector<double> ours, theirs;
  double our_plies = 0, their_plies = 0;
  for (int round = 0; round < rounds; ++round) {
    ours.push_back(troyka_rate(game, playouts, 1000 + round, our_plies));
    const auto stats = troyka::yardstick::run_playouts(playouts, 1000 + round);
    theirs.push_back(static_cast<double>(stats.playouts) / stats.seconds);
    their_plies = static_cast<double>(stats.plies) / static_cast<double>(stats.playouts);
  }
  const double ratio = median(ours) / median(theirs);
  if (json) {
    fmt::print("{}\n", nlohmann::ordered_json{{"rounds", rounds},
                                              {"playouts_per_round", playouts},
                                              {"troyka_playouts_per_second", median(ours)},
                                              {"yardstick_playouts_per_second", median(theirs)},
                                              {"ratio", ratio},
                                              {"troyka_plies_per_playout", our_plies},
                                              {"yardstick_plies_per_playout", their_plies}}
                           .dump());
    return 0;
  }
  fmt::print("{} rounds x {} playouts, Breakthrough 8x8, one thread, medians:\n", rounds, playouts);
  fmt::print("  troyka     {:>10.0f} playouts/s  ({:.2f} plies/playout)\n", median(ours), our_plies);
  fmt::print("  yardstick  {:>10.0f} playouts/s  ({:.2f} plies/playout)\n", median(theirs), their_plies);
  fmt::print("  ratio      {:>10.2f}\n", ratio);
  return 0;
}
