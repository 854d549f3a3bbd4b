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

#include "agents/agent.h"
#include "cli/board_svg.h"
#include "cli/support.h"
#include "interpreter/game.h"
#include "interpreter/perft.h"
#include "lang/core.h"
#include "lang/termination.h"
#include "lang/translate.h"

namespace troyka::cli {
namespace {

using Clock = std::chrono::steady_clock;

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
  const lang::Rules rules = lang::load_rules_file(options.file, options.language_options());
  // Compiled too, as every other command will: what the compiler refuses is reported here.
  (void)Game(rules);
  const std::optional<lang::Diagnostic> unbounded = lang::unbounded_game_warning(rules);
  if (options.json) {
    Json warnings = Json::array();
    if (unbounded)
      warnings.push_back({{"line", unbounded->pos.line},
                          {"column", unbounded->pos.column},
                          {"message", unbounded->message},
                          {"hint", unbounded->hint}});
    out << Json{{"ok", true},
                {"name", rules.name},
                {"width", rules.width},
                {"height", rules.height},
                {"players", rules.player_count()},
                {"warnings", warnings}}
               .dump()
        << '\n';
  } else {
    if (unbounded) out << lang::render(*unbounded);
    fmt::print(out, "{}: ok ({}, {}x{} board, {} piece type{}, {} end rule{})\n", options.file, rules.name, rules.width,
               rules.height, rules.pieces.size(), rules.pieces.size() == 1 ? "" : "s", rules.end.size(),
               rules.end.size() == 1 ? "" : "s");
  }
  return 0;
}

int run_show(const GameOptions& options, bool svg, std::ostream& out) {
  const Game game = Game::load(options.file, options.language_options());
  game.visit([&](const auto& program) {
    const auto state = program.initial_state();
    if (svg) {
      out << board_svg(board_view(program, state));
      return;
    }
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

int run_show_core(const GameOptions& options, std::ostream& out) {
  const lang::Rules rules = lang::load_rules_file(options.file, options.language_options());
  out << lang::core::core_text(rules, lang::core::lower(rules));
  return 0;
}

int run_translate(const GameOptions& options, std::ostream& out) {
  const lang::Rules rules = lang::load_rules_file(options.file, options.language_options());
  std::string variant = rules.variant.empty() ? std::string() : fmt::format(", variant \"{}\"", rules.variant);
  fmt::print(out, "; {}{}, translated by troyka from {}\n{}", rules.name, variant, options.file,
             lang::to_troyka_language(rules));
  return 0;
}

int run_perft(const GameOptions& options, const PerftOptions& perft_options, std::ostream& out) {
  if (perft_options.depth < 1 || perft_options.depth > 20)
    throw usage_error(fmt::format("--depth {} is out of range", perft_options.depth), "use a depth from 1 to 20");
  const Game game = Game::load(options.file, options.language_options());
  game.visit([&](const auto& program) {
    auto root = program.initial_state();
    if (!perft_options.position.empty()) {
      const auto parsed = program.parse_position(perft_options.position);
      if (!parsed.ok()) throw usage_error(fmt::format("--position: {}", parsed.error));
      root = parsed.state;
    }
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
  // Wins by player, then draws, playouts cut at the cap, and games that ended with no winner (a
  // puzzle of one player, lost).
  std::array<std::uint64_t, kMaxPlayers + 3> endings{};

  static constexpr std::size_t kDraws = kMaxPlayers, kCapped = kMaxPlayers + 1, kLost = kMaxPlayers + 2;
};

// Runs playouts of at most `max_plies` plies on one thread until the time is up or `quota`
// playouts are done.
template <typename Program>
BenchTotals bench_thread(const Program& program, std::uint32_t max_plies, std::uint64_t seed, double seconds,
                         std::uint64_t quota) {
  BenchTotals totals;
  Rng rng(seed);
  const auto root = program.initial_state();
  const auto start = Clock::now();
  while (quota ? totals.playouts < quota : true) {
    auto state = root;
    totals.plies += program.playout(state, rng, max_plies);
    ++totals.endings[!state.over                 ? BenchTotals::kCapped
                     : state.winner == kDraw     ? BenchTotals::kDraws
                     : state.winner == kNoWinner ? BenchTotals::kLost
                                                 : static_cast<std::size_t>(state.winner)];
    // Checking the clock every 64 playouts keeps its cost out of the measurement.
    if (++totals.playouts % 64 == 0 && !quota && seconds_since(start) >= seconds) break;
  }
  return totals;
}

}  // namespace

// Searches the start position `bench.repeat` times with fresh agents and reports the median speed.
int run_agent_bench(const GameOptions& options, const BenchOptions& bench, std::ostream& out) {
  if (bench.clock) return run_clock_bench(options, bench, out);
  const agents::AgentSpec spec = agents::parse_agent_spec(bench.agent);
  if (bench.repeat < 1 || bench.repeat > 1000) throw usage_error("--repeat must be between 1 and 1000");
  const Game game = Game::load(options.file, options.language_options());
  std::vector<agents::SearchReport> reports;
  game.visit([&](const auto& program) {
    for (int run = 0; run < bench.repeat; ++run) {
      auto agent = agents::make_agent(spec, program, bench.seed + static_cast<std::uint64_t>(run));
      agent->start(0, agents::TimeControl{});
      agent->choose(program.initial_state(), 0);
      if (const auto report = agent->last_report()) reports.push_back(*report);
    }
  });
  if (reports.empty()) throw usage_error(fmt::format("agent '{}' does not search", bench.agent));
  std::sort(reports.begin(), reports.end(),
            [](const auto& a, const auto& b) { return a.iterations_per_second() < b.iterations_per_second(); });
  const agents::SearchReport& median = reports[reports.size() / 2];
  const double bytes_per_node =
      median.nodes ? static_cast<double>(median.bytes) / static_cast<double>(median.nodes) : 0;
  if (options.json) {
    Json speeds = Json::array();
    for (const auto& report : reports) speeds.push_back(report.iterations_per_second());
    out << Json{{"agent", bench.agent},
                {"searches", reports.size()},
                {"iterations_per_second", median.iterations_per_second()},
                {"all_iterations_per_second", speeds},
                {"iterations", median.iterations},
                {"seconds", median.seconds},
                {"nodes", median.nodes},
                {"bytes_per_node", bytes_per_node},
                {"threads", median.threads}}
               .dump()
        << '\n';
    return 0;
  }
  fmt::print(out, "{}: {} searches of the start position by {}\n", game.rules().name, reports.size(), bench.agent);
  fmt::print(out, "iterations/s     {:.0f} (median; slowest {:.0f}, fastest {:.0f})\n", median.iterations_per_second(),
             reports.front().iterations_per_second(), reports.back().iterations_per_second());
  fmt::print(out, "iterations       {} in {:.3f} s on {} thread{}\n", median.iterations, median.seconds, median.threads,
             median.threads == 1 ? "" : "s");
  fmt::print(out, "tree nodes       {} ({:.1f} bytes a node, with the move-value tables)\n", median.nodes,
             bytes_per_node);
  return 0;
}

int run_bench(const GameOptions& options, const BenchOptions& bench, std::ostream& out) {
  if (!bench.agent.empty()) return run_agent_bench(options, bench, out);
  if (bench.clock) throw usage_error("--clock needs --agent", "e.g. --agent mcts:time=200ms --clock");
  if (bench.threads < 1 || bench.threads > 256) throw usage_error("--threads must be between 1 and 256");
  if (bench.seconds < 0) throw usage_error("--seconds must not be negative");
  check_max_plies(bench.max_plies);
  const double seconds = bench.playouts == 0 && bench.seconds == 0 ? 5.0 : bench.seconds;
  const Game game = Game::load(options.file, options.language_options());
  const std::uint32_t max_plies = bench.max_plies.value_or(lang::playout_cap(game.rules()));
  BenchTotals totals;
  double elapsed = 0;
  game.visit([&](const auto& program) {
    std::vector<BenchTotals> per_thread(static_cast<std::size_t>(bench.threads));
    std::vector<std::thread> threads;
    const auto start = Clock::now();
    for (int t = 0; t < bench.threads; ++t) {
      const std::uint64_t quota = bench.playouts ? (bench.playouts + t) / bench.threads : 0;
      threads.emplace_back([&, t, quota] {
        per_thread[static_cast<std::size_t>(t)] = bench_thread(program, max_plies, bench.seed + t, seconds, quota);
      });
    }
    for (auto& thread : threads) thread.join();
    elapsed = seconds_since(start);
    for (const BenchTotals& part : per_thread) {
      totals.playouts += part.playouts;
      totals.plies += part.plies;
      for (std::size_t i = 0; i < totals.endings.size(); ++i) totals.endings[i] += part.endings[i];
    }
  });
  const double playouts = static_cast<double>(std::max<std::uint64_t>(totals.playouts, 1));
  const lang::Rules& rules = game.rules();
  if (options.json) {
    Json wins = Json::object();
    for (int p = 0; p < rules.player_count(); ++p)
      wins[rules.players[p].name] = static_cast<double>(totals.endings[p]) / playouts;
    wins["draw"] = static_cast<double>(totals.endings[BenchTotals::kDraws]) / playouts;
    if (rules.player_count() == 1) wins["lost"] = static_cast<double>(totals.endings[BenchTotals::kLost]) / playouts;
    out << Json{{"playouts", totals.playouts},
                {"seconds", elapsed},
                {"playouts_per_second", static_cast<double>(totals.playouts) / elapsed},
                {"plies_per_playout", static_cast<double>(totals.plies) / playouts},
                {"threads", bench.threads},
                {"wins", wins},
                {"max_plies", max_plies},
                {"capped_playouts", totals.endings[BenchTotals::kCapped]}}
               .dump()
        << '\n';
    return 0;
  }
  fmt::print(out, "{}: {} random playouts in {:.2f} s on {} thread{}\n", rules.name, totals.playouts, elapsed,
             bench.threads, bench.threads == 1 ? "" : "s");
  fmt::print(out, "playouts/s       {:.0f}\n", static_cast<double>(totals.playouts) / elapsed);
  fmt::print(out, "plies/playout    {:.2f}\n", static_cast<double>(totals.plies) / playouts);
  fmt::print(out, "plies/s          {:.0f}\n", static_cast<double>(totals.plies) / elapsed);
  for (int p = 0; p < rules.player_count(); ++p)
    fmt::print(out, "{:<16} {:.1f}%\n", rules.players[p].name + " wins",
               100.0 * static_cast<double>(totals.endings[p]) / playouts);
  if (rules.player_count() == 1)
    fmt::print(out, "{:<16} {:.1f}%\n", rules.players[0].name + " loses",
               100.0 * static_cast<double>(totals.endings[BenchTotals::kLost]) / playouts);
  fmt::print(out, "{:<16} {:.1f}%\n", "draws",
             100.0 * static_cast<double>(totals.endings[BenchTotals::kDraws]) / playouts);
  const std::uint64_t capped = totals.endings[BenchTotals::kCapped];
  fmt::print(out, "capped: {} playouts ({:.1f}%) at {} plies\n", capped, 100.0 * static_cast<double>(capped) / playouts,
             max_plies);
  return 0;
}

}  // namespace troyka::cli
