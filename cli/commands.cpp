#include "cli/commands.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <ostream>
#include <sstream>
#include <thread>
#include <type_traits>

#include "agents/agent.h"
#include "cli/support.h"
#include "interpreter/game.h"
#include "interpreter/perft.h"

namespace troyka::cli {
namespace {

using Clock = std::chrono::steady_clock;

double seconds_since(Clock::time_point start) { return std::chrono::duration<double>(Clock::now() - start).count(); }

// Plays the space-separated moves in `text` from `state`; a bad move is reported with its number.
template <typename Program>
void play_moves(const Program& program, typename Program::StateType& state, const std::string& text) {
  std::istringstream words(text);
  std::string word;
  for (int number = 1; words >> word; ++number) {
    const ParsedMove parsed = program.parse_move(state, word);
    if (!parsed.ok()) throw usage_error(fmt::format("--moves: move {} ({}): {}", number, word, parsed.error));
    program.apply(state, parsed.move);
  }
}

}  // namespace

lang::Options GameOptions::language_options() const {
  lang::Options options;
  options.variant = variant;
  for (const std::string& param : params) options.params.push_back(lang::parse_param_option(param));
  return options;
}

int run_check(const GameOptions& options, std::ostream& out) {
  const Game game = Game::load(options.file, options.language_options());
  const lang::Rules& rules = game.rules();
  if (options.json) {
    out << Json{{"ok", true}, {"name", rules.name}, {"width", rules.width}, {"height", rules.height}}.dump() << '\n';
  } else {
    fmt::print(out, "{}: ok ({}, {}x{} board, {} piece type{}, {} end rule{})\n", options.file, rules.name, rules.width,
               rules.height, rules.pieces.size(), rules.pieces.size() == 1 ? "" : "s", rules.end.size(),
               rules.end.size() == 1 ? "" : "s");
  }
  return 0;
}

int run_show(const GameOptions& options, std::ostream& out) {
  const Game game = Game::load(options.file, options.language_options());
  game.visit([&](const auto& program) {
    const auto state = program.initial_state();
    if (options.json) {
      Json params = Json::object();
      for (const auto& [name, value] : program.rules().params) params[name] = value;
      out << Json{{"name", program.rules().name},
                  {"variant", program.rules().variant},
                  {"params", params},
                  {"width", program.rules().width},
                  {"height", program.rules().height},
                  {"bitboard_bits", game.bitboard_bits()},
                  {"position", program.position_text(state)},
                  {"legal_moves", program.count_moves(state)},
                  {"rules", program.describe()}}
                 .dump()
          << '\n';
      return;
    }
    fmt::print(out, "{}\n{}\nposition: {}\n{} to move, {} legal moves\n", program.describe(), program.diagram(state),
               program.position_text(state), program.rules().players[0].name, program.count_moves(state));
  });
  return 0;
}

int run_perft(const GameOptions& options, const PerftOptions& perft_options, std::ostream& out) {
  if (perft_options.depth < 1 || perft_options.depth > 20)
    throw usage_error(fmt::format("--depth {} is out of range", perft_options.depth), "use a depth from 1 to 20");
  const Game game = Game::load(options.file, options.language_options());
  game.visit([&](const auto& program) {
    auto root = program.initial_state();
    play_moves(program, root, perft_options.moves);
    Json depths = Json::array();
    for (int depth = 1; depth <= perft_options.depth; ++depth) {
      const auto start = Clock::now();
      const std::uint64_t nodes = perft(program, root, depth);
      const double seconds = seconds_since(start);
      depths.push_back({{"depth", depth}, {"nodes", nodes}, {"seconds", seconds}});
      if (!options.json)
        fmt::print(out, "depth {:>2}  {:>14}  {:>8.3f} s  {:>12.0f} nodes/s\n", depth, nodes, seconds,
                   seconds > 0 ? static_cast<double>(nodes) / seconds : 0.0);
    }
    Json divide = Json::object();
    if (perft_options.divide) {
      MoveList moves;
      program.legal_moves(root, moves);
      std::vector<std::pair<std::string, std::uint64_t>> rows;
      for (const Move& move : moves) {
        auto next = root;
        program.apply(next, move);
        rows.emplace_back(program.move_text(move), perft(program, next, perft_options.depth - 1));
      }
      std::sort(rows.begin(), rows.end());
      if (!options.json) fmt::print(out, "divide at depth {}:\n", perft_options.depth);
      for (const auto& [text, nodes] : rows) {
        divide[text] = nodes;
        if (!options.json) fmt::print(out, "  {:<10} {}\n", text, nodes);
      }
    }
    if (options.json) {
      Json result{{"depths", depths}};
      if (perft_options.divide) result["divide"] = divide;
      out << result.dump() << '\n';
    }
  });
  return 0;
}

namespace {

struct BenchTotals {
  std::uint64_t playouts = 0, plies = 0;
  std::array<std::uint64_t, kPlayers + 1> winners{};  // by player, then draws
};

// Runs playouts on one thread until the time is up or `quota` playouts are done.
template <typename Program>
BenchTotals bench_thread(const Program& program, std::uint64_t seed, double seconds, std::uint64_t quota) {
  BenchTotals totals;
  Rng rng(seed);
  const auto root = program.initial_state();
  const auto start = Clock::now();
  while (quota ? totals.playouts < quota : true) {
    auto state = root;
    totals.plies += program.playout(state, rng);
    ++totals.winners[state.winner == kDraw ? kPlayers : static_cast<std::size_t>(state.winner)];
    // Checking the clock every 64 playouts keeps its cost out of the measurement.
    if (++totals.playouts % 64 == 0 && !quota && seconds_since(start) >= seconds) break;
  }
  return totals;
}

}  // namespace

int run_bench(const GameOptions& options, const BenchOptions& bench, std::ostream& out) {
  if (bench.threads < 1 || bench.threads > 256) throw usage_error("--threads must be between 1 and 256");
  if (bench.seconds < 0) throw usage_error("--seconds must not be negative");
  const double seconds = bench.playouts == 0 && bench.seconds == 0 ? 5.0 : bench.seconds;
  const Game game = Game::load(options.file, options.language_options());
  BenchTotals totals;
  double elapsed = 0;
  game.visit([&](const auto& program) {
    std::vector<BenchTotals> per_thread(static_cast<std::size_t>(bench.threads));
    std::vector<std::thread> threads;
    const auto start = Clock::now();
    for (int t = 0; t < bench.threads; ++t) {
      const std::uint64_t quota = bench.playouts ? (bench.playouts + t) / bench.threads : 0;
      threads.emplace_back([&, t, quota] {
        per_thread[static_cast<std::size_t>(t)] = bench_thread(program, bench.seed + t, seconds, quota);
      });
    }
    for (auto& thread : threads) thread.join();
    elapsed = seconds_since(start);
    for (const BenchTotals& part : per_thread) {
      totals.playouts += part.playouts;
      totals.plies += part.plies;
      for (std::size_t i = 0; i < totals.winners.size(); ++i) totals.winners[i] += part.winners[i];
    }
  });
  const double playouts = static_cast<double>(std::max<std::uint64_t>(totals.playouts, 1));
  const lang::Rules& rules = game.rules();
  if (options.json) {
    Json wins = Json::object();
    for (int p = 0; p < kPlayers; ++p) wins[rules.players[p].name] = static_cast<double>(totals.winners[p]) / playouts;
    wins["draw"] = static_cast<double>(totals.winners[kPlayers]) / playouts;
    out << Json{{"playouts", totals.playouts},
                {"seconds", elapsed},
                {"playouts_per_second", static_cast<double>(totals.playouts) / elapsed},
                {"plies_per_playout", static_cast<double>(totals.plies) / playouts},
                {"threads", bench.threads},
                {"wins", wins}}
               .dump()
        << '\n';
    return 0;
  }
  fmt::print(out, "{}: {} random playouts in {:.2f} s on {} thread{}\n", rules.name, totals.playouts, elapsed,
             bench.threads, bench.threads == 1 ? "" : "s");
  fmt::print(out, "playouts/s       {:.0f}\n", static_cast<double>(totals.playouts) / elapsed);
  fmt::print(out, "plies/playout    {:.2f}\n", static_cast<double>(totals.plies) / playouts);
  fmt::print(out, "plies/s          {:.0f}\n", static_cast<double>(totals.plies) / elapsed);
  for (int p = 0; p < kPlayers; ++p)
    fmt::print(out, "{:<16} {:.1f}%\n", rules.players[p].name + " wins",
               100.0 * static_cast<double>(totals.winners[p]) / playouts);
  fmt::print(out, "{:<16} {:.1f}%\n", "draws", 100.0 * static_cast<double>(totals.winners[kPlayers]) / playouts);
  return 0;
}

int run_play(const GameOptions& options, const PlayOptions& play, std::ostream& out) {
  // Specs are checked before the game is loaded, so a mistyped agent is reported first.
  const std::array<agents::AgentSpec, kPlayers> specs{agents::parse_agent_spec(play.white),
                                                      agents::parse_agent_spec(play.black)};
  const Game game = Game::load(options.file, options.language_options());
  game.visit([&](const auto& program) {
    using Program = std::decay_t<decltype(program)>;
    const lang::Rules& rules = program.rules();
    // Each player's agent draws from its own stream: --seed for the first, --seed + 1 for the second,
    // unless its spec sets a seed.
    std::array<std::unique_ptr<agents::Agent<Program>>, kPlayers> players;
    for (int player = 0; player < kPlayers; ++player) {
      const auto p = static_cast<std::size_t>(player);
      players[p] = agents::make_agent(specs[p], program, play.seed + p);
      players[p]->start(player, agents::TimeControl{});
    }
    auto state = program.initial_state();
    Json moves = Json::array();
    if (!options.json) fmt::print(out, "{}\n{}\n", rules.name, program.diagram(state));
    while (!state.over) {
      const int mover = state.to_move;
      const std::uint32_t number = state.ply / 2 + 1;
      agents::Agent<Program>& agent = *players[static_cast<std::size_t>(mover)];
      const Move move = agent.choose(state, 0);
      const std::string text = program.move_text(move);
      program.apply(state, move);
      for (auto& player : players) player->observe(move);
      moves.push_back(text);
      if (options.json) continue;
      fmt::print(out, "{}. {} {}", number, rules.players[mover].name, text);
      if (const auto report = agent.last_report())
        fmt::print(out, "   ({}: {} iterations, {:.0f}/s, visits {:.1f}%, value {:.3f})",
                   specs[static_cast<std::size_t>(mover)].name, report->iterations, report->iterations_per_second(),
                   100 * report->visit_share, report->value);
      fmt::print(out, "\n{}\n", program.diagram(state));
    }
    const std::string winner = winner_name(rules, state.winner);
    if (options.json) {
      out << Json{{"moves", moves}, {"winner", winner}, {"reason", program.end_reason(state)}, {"plies", state.ply}}
                 .dump()
          << '\n';
    } else {
      fmt::print(out, "result: {} after {} plies ({})\n", winner == "draw" ? "draw" : winner + " wins", state.ply,
                 program.end_reason(state));
    }
  });
  return 0;
}

}  // namespace troyka::cli
