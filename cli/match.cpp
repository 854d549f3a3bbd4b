#include "cli/match.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <memory>
#include <mutex>
#include <ostream>

#include "agents/agent.h"
#include "cli/record.h"
#include "cli/support.h"
#include "interpreter/game.h"
#include "referee/outcome.h"
#include "referee/standings.h"

namespace troyka::cli {
namespace {

using referee::elo_estimate;
using referee::EloEstimate;
using referee::utc_now;

using Clock = std::chrono::steady_clock;

constexpr int kAgents = 2;  // A and B
constexpr int kMaxGames = 1'000'000;
constexpr int kMaxParallel = 256;

// What every game of the match shares.
struct MatchSetup {
  std::array<agents::AgentSpec, kAgents> specs;
  std::array<std::string, kAgents> labels;  // for people: the spec, numbered when both are the same
  std::string file, variant, params;        // as given, for the records
  std::string records;
  std::uint64_t seed = 1;
  int games = 0;
  MaxPlies max_plies;
};

// Agent A (0) plays the first player in even games and the second in odd ones; B (1) the other.
int agent_playing(int index, int player) { return (index % 2 == 0) == (player == 0) ? 0 : 1; }

// One finished game, as the statistics see it.
struct GameOutcome {
  int index = 0;
  int winner = kDraw;  // a player or kDraw
  std::uint32_t plies = 0;
  std::string reason;
};

struct Tally {
  int wins = 0, losses = 0, draws = 0;

  int games() const { return wins + losses + draws; }
  double score() const { return wins + 0.5 * draws; }
  Tally& operator+=(const Tally& other) {
    wins += other.wins;
    losses += other.losses;
    draws += other.draws;
    return *this;
  }
};

// Results by agent and by the player it played.
class MatchTally {
 public:
  void add(const GameOutcome& game) {
    for (int player = 0; player < kPlayers; ++player) {
      Tally& tally = by_seat_[agent_playing(game.index, player)][player];
      if (game.winner == kDraw)
        ++tally.draws;
      else if (game.winner == player)
        ++tally.wins;
      else
        ++tally.losses;
    }
    plies_ += game.plies;
    ++games_;
  }
  const Tally& as(int agent, int player) const { return by_seat_[agent][player]; }
  Tally total(int agent) const {
    Tally sum = by_seat_[agent][0];
    return sum += by_seat_[agent][1];
  }
  int games() const { return games_; }
  double average_plies() const { return games_ ? static_cast<double>(plies_) / games_ : 0.0; }

 private:
  std::array<std::array<Tally, kPlayers>, kAgents> by_seat_{};
  std::uint64_t plies_ = 0;
  int games_ = 0;
};

std::string record_path(const std::string& directory, int index) {
  return (std::filesystem::path(directory) / fmt::format("game-{:04}.record", index + 1)).string();
}

// Plays game `index` with fresh agents, so that its moves depend only on the seed and the index,
// not on which thread plays it or what it played before.
template <class Program>
GameRecord play_game(const Program& program, const MatchSetup& setup, int index) {
  const lang::Rules& rules = program.rules();
  GameRecord record;
  record.game = rules.name;
  record.file = setup.file;
  record.variant = setup.variant;
  record.params = setup.params;
  record.seed = setup.seed + 2 * static_cast<std::uint64_t>(index);
  record.date = utc_now();
  std::array<std::unique_ptr<agents::Agent<Program>>, kPlayers> players;
  for (int player = 0; player < kPlayers; ++player) {
    const auto p = static_cast<std::size_t>(player);
    const agents::AgentSpec& spec = setup.specs[agent_playing(index, player)];
    players[p] = agents::make_agent(spec, program, record.seed + p);
    players[p]->start(player, agents::TimeControl{});
    record.players[p] = rules.players[p].name;
    record.agents[p] = agents::spec_text(spec);
  }
  auto state = program.initial_state();
  History positions = program.start_history(state);
  const std::uint32_t max_plies = setup.max_plies.value_or(program.playout_cap());
  int last_mover = -1;
  while (!state.over && state.ply < max_plies) {
    const int mover = state.to_move;
    const Move move = players[mover]->choose(state, 0);
    if (mover == last_mover)  // the same turn goes on
      (record.moves.back() += ',') += program.move_text(move);
    else
      record.moves.push_back(program.move_text(move));
    last_mover = mover;
    program.apply(state, move, positions);
    for (auto& player : players) player->observe(move);
  }
  record.winner = state.over ? int{state.winner} : kDraw;
  record.reason = state.over ? program.end_reason(state) : referee::ply_cap_reason(state.ply);
  for (auto& player : players) player->finish(record.winner);
  record.plies = state.ply;
  return record;
}

// Progress on stderr: on a terminal one line redrawn in place (games, score, ETA); otherwise, for
// logs, one line per finished game.
class Progress {
 public:
  Progress(std::ostream& log, const MatchSetup& setup, const lang::Rules& rules, bool live)
      : log_(log), setup_(setup), rules_(rules), live_(live) {}

  void game_ended(const GameOutcome& game) {
    tally_.add(game);
    if (!live_) fmt::print(log_, "game {}/{}: {}\n", game.index + 1, setup_.games, game_text(game));
  }

  // Redraws the live line; the ETA moves on even when no game ends.
  void redraw() {
    if (!live_) return;
    const int done = tally_.games();
    const double elapsed = seconds_since(start_);
    const std::string eta = done ? duration_text(elapsed / done * (setup_.games - done)) : "?";
    fmt::print(log_, "\r{}/{} games  {} {:g} - {:g} {}  ETA {}\x1b[K", done, setup_.games, setup_.labels[0],
               tally_.total(0).score(), tally_.total(1).score(), setup_.labels[1], eta);
    log_.flush();
  }

  void finish() {
    if (live_) fmt::print(log_, "\n");
  }

 private:
  // "mcts (White) beat random (Black) in 41 plies: White wins by (reach Pawn far-row)"
  std::string game_text(const GameOutcome& game) const {
    std::array<std::string, kPlayers> sides;
    for (int player = 0; player < kPlayers; ++player)
      sides[player] =
          fmt::format("{} ({})", setup_.labels[agent_playing(game.index, player)], rules_.players[player].name);
    const std::string what = game.winner == kDraw
                                 ? fmt::format("{} and {} drew", sides[0], sides[1])
                                 : fmt::format("{} beat {}", sides[game.winner], sides[1 - game.winner]);
    return fmt::format("{} in {} plies: {}", what, game.plies, game.reason);
  }

  std::ostream& log_;
  const MatchSetup& setup_;
  const lang::Rules& rules_;
  bool live_;
  Clock::time_point start_ = Clock::now();
  MatchTally tally_;
};

// Plays every game on `parallel` threads while this thread reports progress; returns the outcomes
// in game order, or rethrows the first error of a game. Each record is saved as its game ends.
template <class Program>
std::vector<GameOutcome> run_games(const Program& program, const MatchSetup& setup, int parallel, Progress& progress) {
  std::mutex mutex;
  std::vector<GameOutcome> finished;  // in the order the games ended
  std::size_t reported = 0;
  try {
    run_jobs(
        setup.games, parallel,
        [&](int index) {
          const GameRecord record = play_game(program, setup, index);
          if (!setup.records.empty()) save_record(record, record_path(setup.records, index));
          const std::lock_guard lock(mutex);
          finished.push_back({index, record.winner, record.plies, record.reason});
        },
        [&] {
          const std::lock_guard lock(mutex);
          for (; reported < finished.size(); ++reported) progress.game_ended(finished[reported]);
          progress.redraw();
        });
  } catch (...) {
    progress.finish();  // the live line ends before the error is printed
    throw;
  }
  progress.finish();
  std::sort(finished.begin(), finished.end(),
            [](const GameOutcome& a, const GameOutcome& b) { return a.index < b.index; });
  return finished;
}

// Checks the options and the agent specs, before the game is loaded.
MatchSetup make_setup(const GameOptions& game, const MatchOptions& match) {
  if (match.agents.size() != kAgents)
    throw usage_error(fmt::format("--agents takes two agents, not {}", match.agents.size()),
                      "e.g. --agents mcts:time=200ms random");
  if (match.games < 1 || match.games > kMaxGames)
    throw usage_error(fmt::format("--games must be between 1 and {}", kMaxGames));
  if (match.parallel < 1 || match.parallel > kMaxParallel)
    throw usage_error(fmt::format("--parallel must be between 1 and {}", kMaxParallel));
  MatchSetup setup;
  for (std::size_t agent = 0; agent < kAgents; ++agent) {
    setup.specs[agent] = agents::parse_agent_spec(match.agents[agent]);
    setup.labels[agent] = agents::spec_text(setup.specs[agent]);
  }
  if (setup.labels[0] == setup.labels[1])
    for (std::size_t agent = 0; agent < kAgents; ++agent) setup.labels[agent] += fmt::format(" #{}", agent + 1);
  setup.file = game.file;
  setup.variant = game.variant;
  for (const std::string& param : game.params) setup.params += (setup.params.empty() ? "" : " ") + param;
  setup.records = match.records;
  setup.seed = match.seed;
  setup.games = match.games;
  check_max_plies(match.max_plies);
  setup.max_plies = match.max_plies;
  return setup;
}

// A player named like a standard header would make a record with that header twice.
void check_player_names(const lang::Rules& rules) {
  for (const lang::Player& player : rules.players)
    if (is_standard_header(player.name))
      throw usage_error(fmt::format("a player is named '{}', like a header of game records", player.name),
                        "rename the player in the rule file to write records");
}

// "Breakthrough (variant "zillions-7x7", width=5 height=5)"
std::string game_title(const MatchSetup& setup, const lang::Rules& rules) {
  std::string details;
  if (!setup.variant.empty()) details = fmt::format("variant \"{}\"", setup.variant);
  if (!setup.params.empty()) details += (details.empty() ? "" : ", ") + setup.params;
  return details.empty() ? rules.name : fmt::format("{} ({})", rules.name, details);
}

std::string tally_text(const Tally& tally) { return fmt::format("{}-{}-{}", tally.wins, tally.losses, tally.draws); }

std::string elo_text(const EloEstimate& elo) {
  return fmt::format("{:+.1f}, 95% interval {:+.1f} to {:+.1f}", elo.difference, elo.low, elo.high);
}

void print_summary(std::ostream& out, const MatchSetup& setup, const lang::Rules& rules, const MatchTally& tally,
                   double seconds) {
  const std::size_t width = std::max<std::size_t>({setup.labels[0].size(), setup.labels[1].size(), 5}) + 2;
  // Wide enough for "as NAME" and for tallies such as "100-100-100".
  const std::size_t column_width =
      std::max<std::size_t>({rules.players[0].name.size(), rules.players[1].name.size(), 8}) + 5;
  const auto column = [&](const std::string& text) { return fmt::format("{:<{}}", text, column_width); };
  fmt::print(out, "{}: {} games, {} against {}\n", game_title(setup, rules), tally.games(), setup.labels[0],
             setup.labels[1]);
  fmt::print(out, "{:<{}}{}{}{}score\n", "agent", width, column("as " + rules.players[0].name),
             column("as " + rules.players[1].name), column("total"));
  for (int agent = 0; agent < kAgents; ++agent) {
    const Tally total = tally.total(agent);
    fmt::print(out, "{:<{}}{}{}{}{:g}/{} ({:.1f}%)\n", setup.labels[agent], width,
               column(tally_text(tally.as(agent, 0))), column(tally_text(tally.as(agent, 1))),
               column(tally_text(total)), total.score(), total.games(), 100 * total.score() / total.games());
  }
  fmt::print(out, "{:<{}}(wins-losses-draws)\n", "", width);
  const Tally a = tally.total(0);
  fmt::print(out, "Elo difference of A ({}) over B ({}): {}\n", setup.labels[0], setup.labels[1],
             elo_text(elo_estimate(a.wins, a.losses, a.draws)));
  fmt::print(out, "average length {:.1f} plies; {} games in {:.1f} s\n", tally.average_plies(), tally.games(), seconds);
  if (!setup.records.empty())
    fmt::print(out, "records: {} to {}\n", record_path(setup.records, 0), record_path(setup.records, setup.games - 1));
}

Json tally_json(const Tally& tally) {
  return Json{{"wins", tally.wins}, {"losses", tally.losses}, {"draws", tally.draws}};
}

Json summary_json(const MatchSetup& setup, const lang::Rules& rules, const std::vector<GameOutcome>& outcomes,
                  const MatchTally& tally, double seconds) {
  Json agents_json = Json::array();
  for (int agent = 0; agent < kAgents; ++agent) {
    const Tally total = tally.total(agent);
    agents_json.push_back({{"spec", agents::spec_text(setup.specs[agent])},
                           {"as_first", tally_json(tally.as(agent, 0))},
                           {"as_second", tally_json(tally.as(agent, 1))},
                           {"total", tally_json(total)},
                           {"score", total.score()},
                           {"score_percent", 100 * total.score() / total.games()}});
  }
  const Tally a = tally.total(0);
  const EloEstimate elo = elo_estimate(a.wins, a.losses, a.draws);
  Json results = Json::array();
  for (const GameOutcome& game : outcomes)
    results.push_back({{"game", game.index + 1},
                       {"first", agents::spec_text(setup.specs[agent_playing(game.index, 0)])},
                       {"second", agents::spec_text(setup.specs[agent_playing(game.index, 1)])},
                       {"winner", winner_name(rules, game.winner)},
                       {"plies", game.plies},
                       {"reason", game.reason}});
  return Json{{"game", rules.name},
              {"file", setup.file},
              {"variant", setup.variant},
              {"params", setup.params},
              {"players", {rules.players[0].name, rules.players[1].name}},
              {"games", tally.games()},
              {"seed", setup.seed},
              {"agents", agents_json},
              {"elo",
               {{"score", elo.score},
                {"difference", elo_json(elo.difference)},
                {"low", elo_json(elo.low)},
                {"high", elo_json(elo.high)}}},
              {"average_plies", tally.average_plies()},
              {"seconds", seconds},
              {"records", setup.records.empty() ? Json(nullptr) : Json(setup.records)},
              {"results", results}};
}

}  // namespace

int run_match(const GameOptions& game_options, const MatchOptions& match, std::ostream& out, std::ostream& log) {
  const MatchSetup setup = make_setup(game_options, match);
  const Game game = Game::load(game_options.file, game_options.language_options());
  require_two_players(game, "troyka match");
  const lang::Rules& rules = game.rules();
  if (!setup.records.empty()) {
    check_player_names(rules);
    create_output_directory(setup.records, "--records");
  }
  const auto start = Clock::now();
  Progress progress(log, setup, rules, isatty(STDERR_FILENO) != 0);
  const std::vector<GameOutcome> outcomes =
      game.visit([&](const auto& program) { return run_games(program, setup, match.parallel, progress); });
  const double seconds = seconds_since(start);
  MatchTally tally;
  for (const GameOutcome& outcome : outcomes) tally.add(outcome);
  if (game_options.json)
    out << summary_json(setup, rules, outcomes, tally, seconds).dump() << '\n';
  else
    print_summary(out, setup, rules, tally, seconds);
  return 0;
}

}  // namespace troyka::cli
