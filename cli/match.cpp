#include "cli/match.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <filesystem>
#include <memory>
#include <mutex>
#include <numeric>
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
using referee::rank_points;
using referee::Ranks;
using referee::utc_now;

using Clock = std::chrono::steady_clock;

constexpr int kMaxGames = 1'000'000;
constexpr int kMaxParallel = 256;

// What every game of the match shares.
struct MatchSetup {
  std::vector<agents::AgentSpec> specs;  // one agent per player of the game: A, B, C...
  std::vector<std::string> labels;       // for people: the spec, numbered when two are the same
  std::string file, variant, params;     // as given, for the records
  std::string records;
  std::uint64_t seed = 1;
  int games = 0;
  MaxPlies max_plies;

  int agent_count() const { return static_cast<int>(specs.size()); }
  // Seats rotate: agent A plays the first player in game 0, the last in game 1, the one before in
  // game 2... so that over n games each agent plays each player once. With two players A plays the
  // first player in even games and the second in odd ones.
  int agent_playing(int index, int player) const { return (player + index) % agent_count(); }
};

// One finished game, as the statistics see it.
struct GameOutcome {
  int index = 0;
  Ranks ranks;  // by player
  std::uint32_t plies = 0;
  std::string reason;
};

// How an agent did over some games: wins, losses and draws as referee::verdict_of counts them. The
// score adds up each game's rank points.
struct Tally {
  int wins = 0, losses = 0, draws = 0;
  double score = 0;

  void add(const Ranks& ranks, int player) {
    switch (referee::verdict_of(ranks, player)) {
      case referee::Verdict::Win: ++wins; break;
      case referee::Verdict::Loss: ++losses; break;
      case referee::Verdict::Draw: ++draws; break;
    }
    score += rank_points(ranks, player);
  }
  int games() const { return wins + losses + draws; }
  Tally& operator+=(const Tally& other) {
    wins += other.wins;
    losses += other.losses;
    draws += other.draws;
    score += other.score;
    return *this;
  }
};

// Results by agent and by the player it played.
class MatchTally {
 public:
  explicit MatchTally(const MatchSetup& setup) : setup_(setup) {}

  void add(const GameOutcome& game) {
    for (int player = 0; player < setup_.agent_count(); ++player)
      by_seat_[setup_.agent_playing(game.index, player)][player].add(game.ranks, player);
    plies_ += game.plies;
    ++games_;
  }
  const Tally& as(int agent, int player) const { return by_seat_[agent][player]; }
  Tally total(int agent) const {
    Tally sum;
    for (int player = 0; player < setup_.agent_count(); ++player) sum += by_seat_[agent][player];
    return sum;
  }
  int games() const { return games_; }
  double average_plies() const { return games_ ? static_cast<double>(plies_) / games_ : 0.0; }

 private:
  const MatchSetup& setup_;
  std::array<std::array<Tally, kMaxPlayers>, kMaxPlayers> by_seat_{};  // by agent, then player
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
  record.seed = setup.seed + static_cast<std::uint64_t>(setup.agent_count()) * static_cast<std::uint64_t>(index);
  record.date = utc_now();
  std::vector<std::unique_ptr<agents::Agent<Program>>> players;
  for (int player = 0; player < setup.agent_count(); ++player) {
    const auto p = static_cast<std::size_t>(player);
    const agents::AgentSpec& spec = setup.specs[setup.agent_playing(index, player)];
    players.push_back(agents::make_agent(spec, program, record.seed + p));
    players[p]->start(player, agents::TimeControl{});
    record.players.push_back(rules.players[p].name);
    record.agents.push_back(agents::spec_text(spec));
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
  record.ranks = referee::ranks_of(program, state);
  record.reason = state.over ? program.end_reason(state) : referee::ply_cap_reason(state.ply);
  for (auto& player : players) player->finish(referee::winner_of(record.ranks));
  record.plies = state.ply;
  return record;
}

// Progress on stderr: on a terminal one line redrawn in place (games, score, ETA); otherwise, for
// logs, one line per finished game.
class Progress {
 public:
  Progress(std::ostream& log, const MatchSetup& setup, const lang::Rules& rules, bool live)
      : log_(log), setup_(setup), rules_(rules), live_(live), tally_(setup) {}

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
    fmt::print(log_, "\r{}/{} games  {}  ETA {}\x1b[K", done, setup_.games, scores_text(), eta);
    log_.flush();
  }

  void finish() {
    if (live_) fmt::print(log_, "\n");
  }

 private:
  // "mcts 3 - 1 random"; with more agents "mcts 2.5, random 1, uct 0.5".
  std::string scores_text() const {
    if (setup_.agent_count() == 2)
      return fmt::format("{} {:g} - {:g} {}", setup_.labels[0], tally_.total(0).score, tally_.total(1).score,
                         setup_.labels[1]);
    std::vector<std::string> scores;
    for (int agent = 0; agent < setup_.agent_count(); ++agent)
      scores.push_back(fmt::format("{} {:g}", setup_.labels[agent], tally_.total(agent).score));
    return fmt::format("{}", fmt::join(scores, ", "));
  }

  // "mcts (White) beat random (Black) in 41 plies: White wins by (reach Pawn far-row)"; with more
  // players the places: "1. mcts (North), 2. random (East), 2. uct (South) in 41 plies: ..."
  std::string game_text(const GameOutcome& game) const {
    std::vector<std::string> sides;
    for (int player = 0; player < setup_.agent_count(); ++player)
      sides.push_back(
          fmt::format("{} ({})", setup_.labels[setup_.agent_playing(game.index, player)], rules_.players[player].name));
    return fmt::format("{} in {} plies: {}", outcome_text(game.ranks, sides), game.plies, game.reason);
  }

  static std::string outcome_text(const Ranks& ranks, const std::vector<std::string>& sides) {
    if (ranks.size() == 2) {
      const int winner = referee::winner_of(ranks);
      return winner == kDraw ? fmt::format("{} and {} drew", sides[0], sides[1])
                             : fmt::format("{} beat {}", sides[winner], sides[1 - winner]);
    }
    std::vector<std::size_t> order(ranks.size());
    std::iota(order.begin(), order.end(), 0);
    std::stable_sort(order.begin(), order.end(), [&](std::size_t a, std::size_t b) { return ranks[a] < ranks[b]; });
    std::vector<std::string> places;
    for (const std::size_t player : order) places.push_back(fmt::format("{}. {}", ranks[player], sides[player]));
    return fmt::format("{}", fmt::join(places, ", "));
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
          finished.push_back({index, record.ranks, record.plies, record.reason});
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
  if (match.agents.empty() || match.agents.size() > kMaxPlayers)
    throw usage_error(
        fmt::format("--agents takes two agents, or one for each player of the game, not {}", match.agents.size()),
        "e.g. --agents mcts:time=200ms random");
  if (match.games < 1 || match.games > kMaxGames)
    throw usage_error(fmt::format("--games must be between 1 and {}", kMaxGames));
  if (match.parallel < 1 || match.parallel > kMaxParallel)
    throw usage_error(fmt::format("--parallel must be between 1 and {}", kMaxParallel));
  MatchSetup setup;
  for (const std::string& agent : match.agents) {
    setup.specs.push_back(agents::parse_agent_spec(agent));
    setup.labels.push_back(agents::spec_text(setup.specs.back()));
  }
  const std::vector<std::string> specs = setup.labels;
  for (std::size_t agent = 0; agent < specs.size(); ++agent)
    if (std::count(specs.begin(), specs.end(), specs[agent]) > 1) setup.labels[agent] += fmt::format(" #{}", agent + 1);
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

// A match seats one agent per player, in a game of two players or more: its scores are rank
// points, which a game of one player does not give.
void check_agent_count(const MatchSetup& setup, const lang::Rules& rules) {
  if (rules.player_count() == 1)
    throw usage_error(
        fmt::format("{} is a game of one player: troyka match plays games of two players or more", rules.name),
        "play a puzzle with troyka play --white AGENT, or troyka bench");
  if (setup.agent_count() == rules.player_count()) return;
  throw usage_error(fmt::format("{} has {} players but --agents names {} agents", rules.name, rules.player_count(),
                                setup.agent_count()),
                    "give one agent for each player; the seats rotate from game to game");
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
  std::size_t width = 5, name_width = 8;
  for (const std::string& label : setup.labels) width = std::max(width, label.size());
  for (const lang::Player& player : rules.players) name_width = std::max(name_width, player.name.size());
  width += 2;
  // Wide enough for "as NAME" and for tallies such as "100-100-100".
  const auto column = [&](const std::string& text) { return fmt::format("{:<{}}", text, name_width + 5); };
  fmt::print(out, "{}: {} games, {}\n", game_title(setup, rules), tally.games(), fmt::join(setup.labels, " against "));
  std::string heading = fmt::format("{:<{}}", "agent", width);
  for (const lang::Player& player : rules.players) heading += column("as " + player.name);
  fmt::print(out, "{}{}score\n", heading, column("total"));
  for (int agent = 0; agent < setup.agent_count(); ++agent) {
    std::string row = fmt::format("{:<{}}", setup.labels[agent], width);
    for (int player = 0; player < setup.agent_count(); ++player) row += column(tally_text(tally.as(agent, player)));
    const Tally total = tally.total(agent);
    fmt::print(out, "{}{}{:g}/{} ({:.1f}%)\n", row, column(tally_text(total)), total.score, total.games(),
               100 * total.score / total.games());
  }
  const bool two = setup.agent_count() == 2;
  fmt::print(out, "{:<{}}{}\n", "", width,
             two ? "(wins-losses-draws)"
                 : "(first-last-between: ranked first alone, last alone, other places; score: rank points)");
  const Tally a = tally.total(0);
  if (two)
    fmt::print(out, "Elo difference of A ({}) over B ({}): {}\n", setup.labels[0], setup.labels[1],
               elo_text(elo_estimate(a.wins, a.losses, a.draws)));
  fmt::print(out, "average length {:.1f} plies; {} games in {:.1f} s\n", tally.average_plies(), tally.games(), seconds);
  if (!setup.records.empty())
    fmt::print(out, "records: {} to {}\n", record_path(setup.records, 0), record_path(setup.records, setup.games - 1));
}

Json tally_json(const Tally& tally) {
  return Json{{"wins", tally.wins}, {"losses", tally.losses}, {"draws", tally.draws}};
}

// An agent's line of the JSON summary. Two-player matches keep the "as_first" and "as_second"
// they had before "as" listed every player.
Json agent_json(const MatchSetup& setup, const MatchTally& tally, int agent) {
  const Tally total = tally.total(agent);
  Json as = Json::array();
  for (int player = 0; player < setup.agent_count(); ++player) as.push_back(tally_json(tally.as(agent, player)));
  Json json{{"spec", agents::spec_text(setup.specs[agent])}};
  if (setup.agent_count() == 2) {
    json["as_first"] = as[0];
    json["as_second"] = as[1];
  }
  json["as"] = as;
  json["total"] = tally_json(total);
  json["score"] = total.score;
  json["score_percent"] = 100 * total.score / total.games();
  return json;
}

// A game's line of the JSON summary: "agents" and "ranks" by player; with two players "first" and
// "second" too, as before.
Json result_json(const MatchSetup& setup, const lang::Rules& rules, const GameOutcome& game) {
  Json seats = Json::array();
  for (int player = 0; player < setup.agent_count(); ++player)
    seats.push_back(agents::spec_text(setup.specs[setup.agent_playing(game.index, player)]));
  Json json{{"game", game.index + 1}};
  if (setup.agent_count() == 2) {
    json["first"] = seats[0];
    json["second"] = seats[1];
  }
  json["agents"] = seats;
  json["ranks"] = game.ranks;
  json["result"] = result_token(game.ranks);
  json["winner"] = winner_name(rules, referee::winner_of(game.ranks));
  json["plies"] = game.plies;
  json["reason"] = game.reason;
  return json;
}

// The Elo difference of A over B, for two agents; null for more.
Json elo_summary_json(const MatchSetup& setup, const MatchTally& tally) {
  if (setup.agent_count() != 2) return nullptr;
  const Tally a = tally.total(0);
  const EloEstimate elo = elo_estimate(a.wins, a.losses, a.draws);
  return Json{{"score", elo.score},
              {"difference", elo_json(elo.difference)},
              {"low", elo_json(elo.low)},
              {"high", elo_json(elo.high)}};
}

Json summary_json(const MatchSetup& setup, const lang::Rules& rules, const std::vector<GameOutcome>& outcomes,
                  const MatchTally& tally, double seconds) {
  Json agents_json = Json::array();
  for (int agent = 0; agent < setup.agent_count(); ++agent) agents_json.push_back(agent_json(setup, tally, agent));
  Json results = Json::array();
  for (const GameOutcome& game : outcomes) results.push_back(result_json(setup, rules, game));
  Json players = Json::array();
  for (const lang::Player& player : rules.players) players.push_back(player.name);
  return Json{{"game", rules.name},
              {"file", setup.file},
              {"variant", setup.variant},
              {"params", setup.params},
              {"players", players},
              {"games", tally.games()},
              {"seed", setup.seed},
              {"agents", agents_json},
              {"elo", elo_summary_json(setup, tally)},
              {"average_plies", tally.average_plies()},
              {"seconds", seconds},
              {"records", setup.records.empty() ? Json(nullptr) : Json(setup.records)},
              {"results", results}};
}

}  // namespace

int run_match(const GameOptions& game_options, const MatchOptions& match, std::ostream& out, std::ostream& log) {
  const MatchSetup setup = make_setup(game_options, match);
  const Game game = Game::load(game_options.file, game_options.language_options());
  const lang::Rules& rules = game.rules();
  check_agent_count(setup, rules);
  if (!setup.records.empty()) {
    check_player_names(rules);
    create_output_directory(setup.records, "--records");
  }
  const auto start = Clock::now();
  Progress progress(log, setup, rules, isatty(STDERR_FILENO) != 0);
  const std::vector<GameOutcome> outcomes =
      game.visit([&](const auto& program) { return run_games(program, setup, match.parallel, progress); });
  const double seconds = seconds_since(start);
  MatchTally tally(setup);
  for (const GameOutcome& outcome : outcomes) tally.add(outcome);
  if (game_options.json)
    out << summary_json(setup, rules, outcomes, tally, seconds).dump() << '\n';
  else
    print_summary(out, setup, rules, tally, seconds);
  return 0;
}

}  // namespace troyka::cli
