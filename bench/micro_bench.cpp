// Micro-benchmarks of the Game API's hot operations (Google Benchmark):
//   build/bench/micro_bench [--benchmark_filter=Playout]
// Each runs on Breakthrough at several board sizes, so the cost of wider bitboards shows.
#include <benchmark/benchmark.h>

#include <string>

#include "interpreter/game.h"
#include "interpreter/perft.h"

namespace {

troyka::Game breakthrough(int side) {
  troyka::lang::Options options;
  options.params = {{"width", std::to_string(side)}, {"height", std::to_string(side)}};
  return troyka::Game::load(std::string(TROYKA_SOURCE_DIR) + "/games/breakthrough.game", options);
}

void Playout(benchmark::State& bench) {
  const troyka::Game game = breakthrough(static_cast<int>(bench.range(0)));
  game.visit([&](const auto& program) {
    troyka::Rng rng(7);
    const auto root = program.initial_state();
    std::uint64_t plies = 0;
    for (auto _ : bench) {
      auto state = root;
      plies += program.playout(state, rng);
    }
    bench.counters["plies/playout"] = static_cast<double>(plies) / static_cast<double>(bench.iterations());
  });
}

void LegalMoves(benchmark::State& bench) {
  const troyka::Game game = breakthrough(static_cast<int>(bench.range(0)));
  game.visit([&](const auto& program) {
    const auto state = program.initial_state();
    troyka::MoveList moves;
    for (auto _ : bench) {
      program.legal_moves(state, moves);
      benchmark::DoNotOptimize(moves.data());
    }
  });
}

void ApplyFromStart(benchmark::State& bench) {
  const troyka::Game game = breakthrough(static_cast<int>(bench.range(0)));
  game.visit([&](const auto& program) {
    const auto root = program.initial_state();
    troyka::MoveList moves;
    program.legal_moves(root, moves);
    std::size_t next = 0;
    for (auto _ : bench) {
      auto state = root;
      program.apply(state, moves[next++ % moves.size()]);
      benchmark::DoNotOptimize(state.hash);
    }
  });
}

// Reading, checking and compiling a rule file: 0 for games/breakthrough.game, 1 for the real ZRF
// Breakthrough (tests/data/zrf/breakthrough-dagaz.zrf), the same game through the other front end.
void Load(benchmark::State& bench) {
  const std::string file = bench.range(0) == 0 ? "/games/breakthrough.game" : "/tests/data/zrf/breakthrough-dagaz.zrf";
  bench.SetLabel(file);
  for (auto _ : bench) {
    const troyka::Game game = troyka::Game::load(std::string(TROYKA_SOURCE_DIR) + file);
    benchmark::DoNotOptimize(game.bitboard_bits());
  }
}

void Perft4(benchmark::State& bench) {
  const troyka::Game game = breakthrough(static_cast<int>(bench.range(0)));
  game.visit([&](const auto& program) {
    const auto root = program.initial_state();
    for (auto _ : bench) benchmark::DoNotOptimize(troyka::perft(program, root, 4));
  });
}

BENCHMARK(Playout)->Arg(5)->Arg(8)->Arg(16)->Arg(26);
BENCHMARK(LegalMoves)->Arg(8)->Arg(16)->Arg(26);
BENCHMARK(ApplyFromStart)->Arg(8)->Arg(16)->Arg(26);
BENCHMARK(Perft4)->Arg(8);
BENCHMARK(Load)->Arg(0)->Arg(1);

}  // namespace

BENCHMARK_MAIN();
