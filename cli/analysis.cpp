#include "cli/analysis.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <limits>
#include <numeric>
#include <optional>
#include <unordered_set>

#include "agents/agent.h"
#include "cli/support.h"
#include "lang/termination.h"

namespace troyka::cli {
namespace {

using Clock = std::chrono::steady_clock;

constexpr double kZ = 1.96;  // the 95% two-sided normal quantile
constexpr double kUnknown = std::numeric_limits<double>::quiet_NaN();
constexpr int kHistogramBins = 20;
constexpr int kMaxGames = 100'000;
constexpr int kMaxParallel = 256;
constexpr int kMaxSkillSteps = 16;
constexpr std::uint32_t kMaxPlies = 1'000'000;

// ---- statistics ----

template <typename Number>
double mean_of(const std::vector<Number>& samples) {
  return std::accumulate(samples.begin(), samples.end(), 0.0) / static_cast<double>(samples.size());
}

// The sample standard deviation; 0 for fewer than two samples.
double standard_deviation(const std::vector<double>& samples) {
  if (samples.size() < 2) return 0;
  const double mean = mean_of(samples);
  double squares = 0;
  for (const double sample : samples) squares += (sample - mean) * (sample - mean);
  return std::sqrt(squares / static_cast<double>(samples.size() - 1));
}

// The mean of `samples` with a normal 95% interval; unknown without samples.
Estimate mean_estimate(const std::vector<double>& samples) {
  if (samples.empty()) return {kUnknown, kUnknown, kUnknown};
  const double mean = mean_of(samples);
  const double half = kZ * standard_deviation(samples) / std::sqrt(static_cast<double>(samples.size()));
  return {mean, mean - half, mean + half};
}

// The share `hits / n` with its Wilson score interval, which stays inside [0, 1] and is sound for
// shares near 0 or 1, where the normal interval is not.
Estimate share_estimate(int hits, int n) {
  if (n == 0) return {kUnknown, kUnknown, kUnknown};
  const double p = static_cast<double>(hits) / n, z2n = kZ * kZ / n;
  const double centre = (p + z2n / 2) / (1 + z2n);
  const double half = kZ / (1 + z2n) * std::sqrt(p * (1 - p) / n + z2n / (4.0 * n));
  return {p, std::max(0.0, centre - half), std::min(1.0, centre + half)};
}

// The estimate with its value and interval kept within [low, high], the range its quantity can take.
Estimate bounded(Estimate estimate, double low, double high) {
  estimate.low = std::clamp(estimate.low, low, high);
  estimate.high = std::clamp(estimate.high, low, high);
  return estimate;
}

// ---- playing ----

// One game as the metrics see it.
struct GameTrace {
  int winner = kNoWinner;  // the player ranked first alone, kDraw, or kNoWinner when stopped at the ply limit
  referee::Ranks ranks;    // by player; a game stopped at the limit ranks those still playing together
  std::uint32_t plies = 0;
  std::vector<int> moves_at_ply;  // the legal moves of each position a move was chosen in
  // There, each player's evaluation, players() values a position: with two players the first's
  // share and the second's, adding up to 1.
  std::vector<double> shares;
  int covered = 0;               // cells that held a piece at some point
  int repeats = 0;               // positions after a move that had been seen before in the game
  std::uint64_t iterations = 0;  // spent by the agents' searches

  int players() const { return static_cast<int>(ranks.size()); }
  std::size_t positions() const { return shares.size() / ranks.size(); }
  // The evaluation of `player` at the `position`-th position.
  double share(std::size_t position, int player) const {
    return shares[position * ranks.size() + static_cast<std::size_t>(player)];
  }
};

template <class Program>
using Players = std::vector<std::unique_ptr<agents::Agent<Program>>>;  // by player; null plays at random

// Each player's share of the pieces on the board, appended to `shares`: the evaluation of a
// position where no search gives one. Equal shares when the board is empty.
template <class State>
void add_material_shares(const State& state, int players, std::vector<double>& shares) {
  int total = 0;
  for (int player = 0; player < players; ++player) total += state.by_player[player].count();
  for (int player = 0; player < players; ++player)
    shares.push_back(total == 0 ? 1.0 / players : static_cast<double>(state.by_player[player].count()) / total);
}

// Each player's evaluation where the mover's search values the position `value` for itself: the
// others share what is left of the rank points, which add up to players / 2 (referee::rank_points).
// With two players: `value` and 1 - `value`.
void add_search_shares(int mover, double value, int players, std::vector<double>& shares) {
  const double others = (players / 2.0 - value) / (players - 1);
  for (int player = 0; player < players; ++player) shares.push_back(player == mover ? value : others);
}

bool stopping(const std::atomic<bool>* stop) { return stop != nullptr && stop->load(std::memory_order_relaxed); }

// Plays one game to its end or to `max_plies`; a null agent plays uniformly random moves from
// `rng`. Returns nothing when `stop` is set before the game ends.
template <class Program>
std::optional<GameTrace> play_game(const Program& program, Players<Program>& players, Rng& rng, std::uint32_t max_plies,
                                   const std::atomic<bool>* stop) {
  const int count = program.player_count();
  for (int player = 0; player < count; ++player)
    if (players[player]) players[player]->start(player, agents::TimeControl{});
  GameTrace trace;
  auto state = program.initial_state();
  History positions = program.start_history(state);
  auto covered = state.occupied();
  std::unordered_set<std::uint64_t> seen{state.hash};
  MoveList moves;
  while (!state.over && state.ply < max_plies) {
    if (stopping(stop)) break;
    program.legal_moves(state, moves);
    trace.moves_at_ply.push_back(static_cast<int>(moves.size()));
    Move move;
    std::optional<agents::SearchReport> report;
    if (auto& agent = players[state.to_move]) {
      move = agent->choose(state, 0);
      report = agent->last_report();
    } else {
      move = moves[rng.below(static_cast<std::uint32_t>(moves.size()))];
    }
    if (report) {
      add_search_shares(state.to_move, report->value, count, trace.shares);
      trace.iterations += report->iterations;
    } else {
      add_material_shares(state, count, trace.shares);
    }
    program.apply(state, move, positions);
    for (auto& agent : players)
      if (agent) agent->observe(move);
    covered |= state.occupied();
    if (!seen.insert(state.hash).second) ++trace.repeats;
  }
  const bool ended = state.over || state.ply >= max_plies;
  for (auto& agent : players)
    if (agent) agent->finish(state.over ? int{state.winner} : kNoWinner);
  if (!ended) return std::nullopt;
  trace.ranks = referee::ranks_of(program, state);
  trace.winner = state.over ? referee::winner_of(trace.ranks) : kNoWinner;
  trace.plies = state.ply;
  trace.covered = covered.count();
  return trace;
}

// ---- metrics of one kind of self-play ----

std::vector<double> per_game(const std::vector<GameTrace>& games,
                             const std::function<std::optional<double>(const GameTrace&)>& value) {
  std::vector<double> samples;
  for (const GameTrace& game : games)
    if (const auto sample = value(game)) samples.push_back(*sample);
  return samples;
}

// The player whose evaluation at the `position`-th position is the highest alone, or -1 for nobody.
int leader(const GameTrace& game, std::size_t position) {
  int best = -1;
  bool alone = false;
  for (int player = 0; player < game.players(); ++player) {
    const double share = game.share(position, player);
    if (best < 0 || share > game.share(position, best)) {
      best = player;
      alone = true;
    } else if (share == game.share(position, best)) {
      alone = false;
    }
  }
  return alone ? best : -1;
}

// Moves after which the leader is another player than the last one who led, over the moves.
std::optional<double> lead_change_share(const GameTrace& game) {
  if (game.positions() < 2) return std::nullopt;
  int changes = 0, last = -1;
  for (std::size_t position = 0; position < game.positions(); ++position) {
    const int now = leader(game, position);
    if (now < 0) continue;
    if (last >= 0 && now != last) ++changes;
    last = now;
  }
  return static_cast<double>(changes) / static_cast<double>(game.positions() - 1);
}

// The mean, over the positions of a won game, of how far the eventual winner was behind the
// leader: the best other player's evaluation less the winner's, when above 0 (with two players,
// 1 - 2s for a winner's share s below 1/2). Nothing for a game without a winner.
std::optional<double> drama(const GameTrace& game) {
  if (game.winner < 0 || game.winner >= game.players()) return std::nullopt;
  if (game.positions() == 0) return 0.0;
  double behind = 0;
  for (std::size_t position = 0; position < game.positions(); ++position) {
    double best_other = 0;
    for (int player = 0; player < game.players(); ++player)
      if (player != game.winner) best_other = std::max(best_other, game.share(position, player));
    behind += std::max(0.0, best_other - game.share(position, game.winner));
  }
  return behind / static_cast<double>(game.positions());
}

constexpr std::size_t kFifths = 5;

void add_branching_by_fifth(PlayMetrics& metrics, const std::vector<GameTrace>& games) {
  std::vector<double> sums(kFifths, 0);
  std::vector<int> counts(kFifths, 0);
  for (const GameTrace& game : games) {
    const std::size_t plies = game.moves_at_ply.size();
    std::vector<double> game_sums(kFifths, 0);
    std::vector<int> game_counts(kFifths, 0);
    for (std::size_t ply = 0; ply < plies; ++ply) {
      game_sums[ply * kFifths / plies] += game.moves_at_ply[ply];
      ++game_counts[ply * kFifths / plies];
    }
    for (std::size_t fifth = 0; fifth < kFifths; ++fifth)
      if (game_counts[fifth] > 0) {
        sums[fifth] += game_sums[fifth] / game_counts[fifth];
        ++counts[fifth];
      }
  }
  metrics.branching_by_fifth.clear();
  for (std::size_t fifth = 0; fifth < kFifths; ++fifth)
    metrics.branching_by_fifth.push_back(counts[fifth] ? sums[fifth] / counts[fifth] : kUnknown);
}

void add_length_figures(PlayMetrics& metrics, const std::vector<GameTrace>& games) {
  std::vector<double> lengths;
  lengths.reserve(games.size());
  for (const GameTrace& game : games) lengths.push_back(game.plies);
  metrics.length = mean_estimate(lengths);
  metrics.length_spread = standard_deviation(lengths);
  if (games.empty()) return;
  const auto [shortest, longest] =
      std::minmax_element(games.begin(), games.end(), [](const auto& a, const auto& b) { return a.plies < b.plies; });
  metrics.shortest = shortest->plies;
  metrics.longest = longest->plies;
  metrics.histogram_bin = std::max<std::uint32_t>(1, (metrics.longest + kHistogramBins) / kHistogramBins);
  metrics.length_histogram.assign(metrics.longest / metrics.histogram_bin + 1, 0);
  for (const GameTrace& game : games) ++metrics.length_histogram[game.plies / metrics.histogram_bin];
  metrics.branching_by_ply.assign(metrics.longest, 0);
  metrics.games_at_ply.assign(metrics.longest, 0);
  for (const GameTrace& game : games)
    for (std::size_t ply = 0; ply < game.moves_at_ply.size(); ++ply) {
      metrics.branching_by_ply[ply] += game.moves_at_ply[ply];
      ++metrics.games_at_ply[ply];
    }
  for (std::size_t ply = 0; ply < metrics.branching_by_ply.size(); ++ply)
    if (metrics.games_at_ply[ply] > 0) metrics.branching_by_ply[ply] /= metrics.games_at_ply[ply];
  add_branching_by_fifth(metrics, games);
}

void add_result_figures(PlayMetrics& metrics, const std::vector<GameTrace>& games, int players) {
  const int n = static_cast<int>(games.size());
  const auto count = [&](int winner) {
    return static_cast<int>(
        std::count_if(games.begin(), games.end(), [&](const auto& g) { return g.winner == winner; }));
  };
  std::vector<int> wins;
  for (int seat = 0; seat < players; ++seat) {
    wins.push_back(count(seat));
    metrics.seat_wins.push_back(share_estimate(wins.back(), n));
    metrics.seat_points.push_back(
        mean_estimate(per_game(games, [&](const GameTrace& g) { return referee::rank_points(g.ranks, seat); })));
  }
  metrics.first_wins = metrics.seat_wins[0];
  metrics.second_wins = metrics.seat_wins[1];
  metrics.draws = share_estimate(count(kDraw), n);
  metrics.limit_hits = share_estimate(count(kNoWinner), n);
  metrics.completion = share_estimate(std::accumulate(wins.begin(), wins.end(), 0), n);
  metrics.advantage = metrics.seat_points[0];
  // Balance is 1 - |d| for d the mean of +1 (the seat that wins most wins), -1 (the seat that wins
  // least wins), 0: its interval follows from d's, and reaches 1 when d's interval holds 0. With
  // two players the seats are the first and the second.
  const int most = static_cast<int>(std::max_element(wins.begin(), wins.end()) - wins.begin());
  int least = most == 0 ? 1 : 0;
  for (int seat = 0; seat < players; ++seat)
    if (seat != most && wins[seat] < wins[least]) least = seat;
  const Estimate lead = mean_estimate(per_game(games, [&](const GameTrace& g) {
    return g.winner == most ? 1.0 : g.winner == least ? -1.0 : 0.0;
  }));
  const double far = std::max(std::abs(lead.low), std::abs(lead.high));
  const double near = lead.low <= 0 && lead.high >= 0 ? 0 : std::min(std::abs(lead.low), std::abs(lead.high));
  metrics.balance = {1 - std::abs(lead.value), 1 - far, 1 - near};
}

// A search's value at the root leans towards the player who searched (it is the value of the best
// move found), so in self-play the players' estimates take turns above the others' and the lead
// would seem to change at every move. The mean of n successive estimates, one by each of the n
// players, cancels that lean: it is the evaluation of a position after a searched game's first
// n - 1 moves.
void average_successive_estimates(std::vector<GameTrace>& games) {
  for (GameTrace& game : games) {
    const std::size_t n = static_cast<std::size_t>(game.players());
    const std::size_t positions = game.positions();
    if (positions < n) {
      game.shares.clear();
      continue;
    }
    std::vector<double> averaged;
    for (std::size_t position = n - 1; position < positions; ++position)
      for (std::size_t player = 0; player < n; ++player) {
        double sum = 0;
        for (std::size_t back = 0; back < n; ++back) sum += game.shares[(position - back) * n + player];
        averaged.push_back(sum / static_cast<double>(n));
      }
    game.shares = std::move(averaged);
  }
}

PlayMetrics play_metrics(std::string players, std::vector<GameTrace> games, int seats, int cells, bool searched) {
  if (searched) average_successive_estimates(games);
  PlayMetrics metrics;
  metrics.players = std::move(players);
  metrics.games = static_cast<int>(games.size());
  metrics.evaluation = searched ? "search value" : "material";
  add_result_figures(metrics, games, seats);
  add_length_figures(metrics, games);
  const auto positions = [](const GameTrace& g) { return static_cast<double>(g.moves_at_ply.size()); };
  metrics.branching = mean_estimate(per_game(games, [](const GameTrace& g) -> std::optional<double> {
    if (g.moves_at_ply.empty()) return std::nullopt;
    return mean_of(g.moves_at_ply);
  }));
  metrics.decisions = mean_estimate(per_game(games, [&](const GameTrace& g) -> std::optional<double> {
    if (g.moves_at_ply.empty()) return std::nullopt;
    return std::count_if(g.moves_at_ply.begin(), g.moves_at_ply.end(), [](int moves) { return moves > 1; }) /
           positions(g);
  }));
  metrics.lead_changes = mean_estimate(per_game(games, lead_change_share));
  metrics.drama = mean_estimate(per_game(games, drama));
  metrics.coverage = mean_estimate(
      per_game(games, [&](const GameTrace& g) { return static_cast<double>(g.covered) / static_cast<double>(cells); }));
  metrics.repetition = mean_estimate(per_game(games, [&](const GameTrace& g) -> std::optional<double> {
    if (g.plies == 0) return std::nullopt;
    return g.repeats / static_cast<double>(g.plies);
  }));
  // A normal interval can reach past what a quantity can be (below 0, a share above 1).
  for (const MetricInfo& info : metric_infos())
    metrics.*info.field = bounded(metrics.*info.field, 0, info.share ? 1 : std::numeric_limits<double>::infinity());
  for (Estimate& points : metrics.seat_points) points = bounded(points, 0, 1);
  return metrics;
}

// ---- the analysis ----

// The agent of the skill trace: the analysed agent's search (mcts unless it is uct) with
// an iteration budget instead of its own.
agents::AgentSpec skill_agent(const std::string& agent) {
  agents::AgentSpec spec = agent.empty() ? agents::AgentSpec{"mcts", {}} : agents::parse_agent_spec(agent);
  if (spec.name == "random") spec = {"mcts", {}};
  spec.options.erase("time");
  spec.options.erase("iterations");
  return spec;
}

agents::AgentSpec with_iterations(agents::AgentSpec spec, std::uint64_t iterations) {
  spec.options["iterations"] = std::to_string(iterations);
  return spec;
}

// Estimates the time left from what the phases so far cost: a phase under way from its own pace,
// the phases to come from the agents' measured seconds per iteration (a skill step is counted as
// if played, so the estimate is at most what is left).
class TimeLeft {
 public:
  TimeLeft(const AnalysisOptions& options, double agent_iterations)
      : options_(options), agent_iterations_(agent_iterations) {}

  void phase_started(int index) {
    phase_ = index;
    phase_start_ = Clock::now();
  }
  void agent_games_done(const std::vector<GameTrace>& games, double seconds) {
    std::uint64_t iterations = 0, plies = 0;
    for (const GameTrace& game : games) {
      iterations += game.iterations;
      plies += game.plies;
    }
    if (iterations == 0 || games.empty()) return;
    seconds_per_iteration_ = seconds * std::min(options_.parallel, options_.games) / static_cast<double>(iterations);
    plies_per_game_ = static_cast<double>(plies) / static_cast<double>(games.size());
  }

  // Phases: 0 random games, 1 agent games, 2 + k skill step k.
  double seconds_left(int done, int total) const {
    double left = 0;
    if (done > 0)
      left = seconds_since(phase_start_) / done * (total - done);
    else if (total > 0)
      return -1;
    for (int phase = phase_ + 1; phase < 2 + options_.skill_steps; ++phase) {
      const double cost = phase_cost(phase);
      if (cost < 0) return -1;
      left += cost;
    }
    return left;
  }

 private:
  double phase_cost(int phase) const {
    if (phase == 1 && options_.agent.empty()) return 0;
    if (phase >= 2 && options_.skill_games == 0) return 0;
    if (seconds_per_iteration_ <= 0) return -1;
    const double per_move =
        phase == 1 ? agent_iterations_ : 1.5 * static_cast<double>(options_.skill_base << (phase - 2));
    if (per_move <= 0) return -1;
    const int games = phase == 1 ? options_.games : options_.skill_games;
    const int threads = std::max(1, std::min(options_.parallel, games));
    return games * plies_per_game_ * per_move * seconds_per_iteration_ / threads;
  }

  const AnalysisOptions& options_;
  double agent_iterations_;  // per move; 0 when the agent's budget is not in iterations
  int phase_ = 0;
  Clock::time_point phase_start_ = Clock::now();
  double seconds_per_iteration_ = 0;  // of one thread
  double plies_per_game_ = 0;
};

template <class Program>
class Analyser {
 public:
  Analyser(const Program& program, const AnalysisOptions& options, const AnalysisHooks& hooks)
      : program_(program), options_(options), hooks_(hooks), time_left_(options, budget_iterations(options.agent)) {}

  void run(Analysis& analysis) {
    time_left_.phase_started(0);
    analysis.plays.push_back(play_metrics("random", self_play("random games", {}), seats(), cells(), false));
    if (!options_.agent.empty() && !stopped()) {
      time_left_.phase_started(1);
      const agents::AgentSpec spec = agents::parse_agent_spec(options_.agent);
      const auto start = Clock::now();
      const std::vector<GameTrace> games = self_play(agents::spec_text(spec) + " games", spec);
      time_left_.agent_games_done(games, seconds_since(start));
      analysis.plays.push_back(play_metrics(agents::spec_text(spec), games, seats(), cells(), spec.name != "random"));
    }
    if (options_.skill_games > 0) skill_trace(analysis.skill);
    analysis.stopped = stopped();
  }

 private:
  static double budget_iterations(const std::string& agent) {
    if (agent.empty()) return 0;
    const agents::AgentSpec spec = agents::parse_agent_spec(agent);
    const auto found = spec.options.find("iterations");
    return found == spec.options.end() || spec.options.contains("time") ? 0 : std::stod(found->second);
  }

  bool stopped() const { return stopping(hooks_.stop); }
  int seats() const { return program_.player_count(); }
  int cells() const { return program_.rules().cells_on_board(); }

  void report(const std::string& phase, int done, int total) const {
    if (hooks_.progress) hooks_.progress({phase, done, total, time_left_.seconds_left(done, total)});
  }

  using Players = cli::Players<Program>;

  // Plays `games` games; a game stopped before its end is left empty. The players and the random
  // stream of game i are seeded from i alone, so the games are the same on any number of threads.
  std::vector<std::optional<GameTrace>> play_games(const std::string& phase, int games, std::uint64_t seed,
                                                   const std::function<Players(int, std::uint64_t)>& make_players) {
    std::vector<std::optional<GameTrace>> traces(static_cast<std::size_t>(games));
    std::atomic<int> finished{0};
    run_jobs(
        games, options_.parallel,
        [&](int index) {
          if (stopped()) return;
          const std::uint64_t game_seed =
              seed + static_cast<std::uint64_t>(seats()) * static_cast<std::uint64_t>(index);
          Players players = make_players(index, game_seed);
          Rng rng(game_seed);
          auto& trace = traces[static_cast<std::size_t>(index)];
          trace = play_game(program_, players, rng, *options_.max_plies, hooks_.stop);
          if (trace) ++finished;
        },
        [&] { report(phase, finished, games); });
    return traces;
  }

  // Self-play of the agent `spec`, or of uniformly random players when spec has no name.
  std::vector<GameTrace> self_play(const std::string& phase, const agents::AgentSpec& spec) {
    std::vector<GameTrace> finished;
    for (auto& trace : play_games(phase, options_.games, options_.seed, [&](int, std::uint64_t seed) {
           Players players(static_cast<std::size_t>(seats()));
           if (!spec.name.empty())
             for (std::size_t player = 0; player < players.size(); ++player)
               players[player] = agents::make_agent(spec, program_, seed + player);
           return players;
         }))
      if (trace) finished.push_back(std::move(*trace));
    return finished;
  }

  // One step of the skill trace: `stronger` plays the first seat in game 0, the second in game 1, and
  // so on around the seats; `weaker` plays every other seat. A game is a win for the stronger when
  // its rank points are above 1/2 (with two players: it won), a loss when below, a draw at 1/2.
  SkillStep skill_step(const agents::AgentSpec& base, int step) {
    SkillStep result;
    result.weaker = options_.skill_base << step;
    result.stronger = 2 * result.weaker;
    const agents::AgentSpec stronger = with_iterations(base, result.stronger);
    const agents::AgentSpec weaker = with_iterations(base, result.weaker);
    const auto stronger_player = [&](int index) { return index % seats(); };
    const std::uint64_t seed = options_.seed + 1'000'003ULL * static_cast<std::uint64_t>(step + 1);
    const auto traces =
        play_games(fmt::format("skill step {}: {} against {} iterations", step + 1, result.stronger, result.weaker),
                   options_.skill_games, seed, [&](int index, std::uint64_t game_seed) {
                     Players players(static_cast<std::size_t>(seats()));
                     for (int player = 0; player < seats(); ++player)
                       players[player] = agents::make_agent(player == stronger_player(index) ? stronger : weaker,
                                                            program_, game_seed + player);
                     return players;
                   });
    for (int index = 0; index < options_.skill_games; ++index) {
      const auto& trace = traces[static_cast<std::size_t>(index)];
      if (!trace) continue;
      const double points = referee::rank_points(trace->ranks, stronger_player(index));
      ++(points > 0.5 ? result.wins : points < 0.5 ? result.losses : result.draws);
    }
    result.elo = referee::elo_estimate(result.wins, result.losses, result.draws);
    result.clear = result.wins + result.losses + result.draws > 0 && result.elo.low > 0;
    return result;
  }

  // Doubles the iterations until the stronger agent no longer wins clearly.
  void skill_trace(SkillTrace& trace) {
    const agents::AgentSpec base = skill_agent(options_.agent);
    trace.agent = agents::spec_text(base);
    for (int step = 0; step < options_.skill_steps && !stopped(); ++step) {
      time_left_.phase_started(2 + step);
      const SkillStep result = skill_step(base, step);
      if (stopped()) break;
      trace.steps.push_back(result);
      if (!result.clear) break;
      ++trace.levels;
    }
  }

  const Program& program_;
  const AnalysisOptions& options_;
  const AnalysisHooks& hooks_;
  TimeLeft time_left_;
};

}  // namespace

bool significantly_different(const Estimate& a, const Estimate& b) {
  if (std::isnan(a.value) || std::isnan(b.value)) return false;
  const double error = std::hypot(a.standard_error(), b.standard_error());
  return std::abs(a.value - b.value) > kZ * error;
}

void check_analysis_options(const AnalysisOptions& options) {
  if (options.games < 1 || options.games > kMaxGames)
    throw usage_error(fmt::format("--games must be between 1 and {}", kMaxGames));
  if (options.parallel < 1 || options.parallel > kMaxParallel)
    throw usage_error(fmt::format("--parallel must be between 1 and {}", kMaxParallel));
  if (options.skill_games < 0 || options.skill_games > kMaxGames)
    throw usage_error(fmt::format("--skill-games must be between 0 and {}", kMaxGames));
  if (options.skill_steps < 1 || options.skill_steps > kMaxSkillSteps)
    throw usage_error(fmt::format("--skill-steps must be between 1 and {}", kMaxSkillSteps));
  if (options.skill_base < 1 || options.skill_base > (1ULL << 32))
    throw usage_error("--skill-base must be between 1 and 4294967296 iterations");
  if (options.max_plies && (*options.max_plies < 1 || *options.max_plies > kMaxPlies))
    throw usage_error(fmt::format("--max-plies must be between 1 and {}", kMaxPlies));
  if (options.agent.empty()) return;
  const agents::AgentSpec spec = agents::parse_agent_spec(options.agent);
  if (spec.options.contains("seed"))
    throw usage_error(fmt::format("the agent '{}' sets its seed", options.agent),
                      "analyze seeds every game's agents from --seed, so that the games differ; leave seed= out");
}

Analysis analyze(const Game& game, const AnalysisOptions& options, const AnalysisHooks& hooks) {
  check_analysis_options(options);
  const auto start = Clock::now();
  Analysis analysis;
  analysis.options = options;
  const lang::Rules& rules = game.rules();
  analysis.options.max_plies = options.max_plies.value_or(lang::playout_cap(rules));
  analysis.game = rules.variant.empty() ? rules.name : fmt::format("{} (variant \"{}\")", rules.name, rules.variant);
  for (const lang::Player& player : rules.players) analysis.seats.push_back(player.name);
  game.visit([&](const auto& program) { Analyser(program, analysis.options, hooks).run(analysis); });
  analysis.seconds = seconds_since(start);
  return analysis;
}

const std::vector<MetricInfo>& metric_infos() {
  static const std::vector<MetricInfo> infos = {
      {"first_wins", "first player wins", "share of games the first player won", &PlayMetrics::first_wins, true},
      {"second_wins", "second player wins", "share of games the second player won", &PlayMetrics::second_wins, true},
      {"draws", "draws", "share of games that ended in a draw by the rules", &PlayMetrics::draws, true},
      {"limit_hits", "hit the ply limit", "share of games still going at the ply limit (--max-plies)",
       &PlayMetrics::limit_hits, true},
      {"advantage", "first-player advantage",
       "the first player's mean rank points (win 1, draw or limit 1/2, last 0); fair is 50%", &PlayMetrics::advantage,
       true},
      {"balance", "balance",
       "1 - the gap between the win shares of the seats that win most and least; 100% when all win as often",
       &PlayMetrics::balance, true},
      {"completion", "completion", "share of games that someone won", &PlayMetrics::completion, true},
      {"length", "length (plies)", "moves in a game, both players' counted", &PlayMetrics::length, false},
      {"branching", "branching factor", "legal moves in a position, averaged over each game, then over games",
       &PlayMetrics::branching, false},
      {"decisions", "decision moves", "share of positions with more than one legal move: a real choice",
       &PlayMetrics::decisions, true},
      {"lead_changes", "lead changes", "share of moves after which another player leads (by the evaluation)",
       &PlayMetrics::lead_changes, true},
      {"drama", "drama", "how far the eventual winner was behind, on average over a won game's positions (0 to 1)",
       &PlayMetrics::drama, false},
      {"coverage", "board coverage", "share of the board's cells that held a piece at some point of a game",
       &PlayMetrics::coverage, true},
      {"repetition", "repetition", "share of positions that had already occurred in the same game",
       &PlayMetrics::repetition, true},
  };
  return infos;
}

namespace {

// JSON has no NaN: an unknown figure is null.
Json number_json(double value) { return std::isnan(value) ? Json(nullptr) : Json(value); }

Json estimate_json(const Estimate& estimate) {
  return Json{
      {"value", number_json(estimate.value)}, {"low", number_json(estimate.low)}, {"high", number_json(estimate.high)}};
}

Json fifths_json(const std::vector<double>& fifths) {
  Json json = Json::array();
  for (const double mean : fifths) json.push_back(number_json(mean));
  return json;
}

Json play_json(const PlayMetrics& play, const std::vector<std::string>& seats) {
  Json metrics = Json::object();
  for (const MetricInfo& info : metric_infos()) metrics[info.key] = estimate_json(play.*info.field);
  Json by_seat = Json::array();
  for (std::size_t seat = 0; seat < play.seat_wins.size(); ++seat)
    by_seat.push_back({{"player", seats[seat]},
                       {"wins", estimate_json(play.seat_wins[seat])},
                       {"points", estimate_json(play.seat_points[seat])}});
  return Json{{"players", play.players},
              {"seats", by_seat},
              {"games", play.games},
              {"evaluation", play.evaluation},
              {"metrics", metrics},
              {"length",
               {{"spread", play.length_spread},
                {"shortest", play.shortest},
                {"longest", play.longest},
                {"histogram", {{"bin", play.histogram_bin}, {"games", play.length_histogram}}}}},
              {"branching_by_ply", play.branching_by_ply},
              {"branching_by_fifth", fifths_json(play.branching_by_fifth)},
              {"games_at_ply", play.games_at_ply}};
}

Json skill_json(const SkillTrace& skill) {
  Json steps = Json::array();
  for (const SkillStep& step : skill.steps)
    steps.push_back({{"weaker", step.weaker},
                     {"stronger", step.stronger},
                     {"wins", step.wins},
                     {"losses", step.losses},
                     {"draws", step.draws},
                     {"elo",
                      {{"difference", elo_json(step.elo.difference)},
                       {"low", elo_json(step.elo.low)},
                       {"high", elo_json(step.elo.high)}}},
                     {"clear", step.clear}});
  return Json{{"agent", skill.agent}, {"levels", skill.levels}, {"steps", steps}};
}

}  // namespace

Json analysis_json(const Analysis& analysis) {
  const AnalysisOptions& options = analysis.options;
  Json plays = Json::array();
  for (const PlayMetrics& play : analysis.plays) plays.push_back(play_json(play, analysis.seats));
  return Json{{"game", analysis.game},
              {"options",
               {{"games", options.games},
                {"agent", options.agent},
                {"skill_games", options.skill_games},
                {"skill_steps", options.skill_steps},
                {"skill_base", options.skill_base},
                {"max_plies", options.max_plies.value_or(0)},
                {"seed", options.seed}}},
              {"plays", plays},
              {"skill", skill_json(analysis.skill)},
              {"stopped", analysis.stopped},
              {"seconds", analysis.seconds}};
}

}  // namespace troyka::cli
