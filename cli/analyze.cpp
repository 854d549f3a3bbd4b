#include "cli/analyze.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <cmath>
#include <csignal>
#include <ostream>

#include "cli/commands.h"

namespace troyka::cli {
namespace {

// One game to analyse: a file in a variant.
struct Subject {
  std::string file, variant;
  std::string label;  // "A", "B", ... when there are several
};

std::vector<Subject> subjects_of(const AnalyzeOptions& options) {
  std::vector<Subject> subjects;
  const std::vector<std::string> variants = options.variants.empty() ? std::vector<std::string>{""} : options.variants;
  for (const std::string& file : options.files)
    for (const std::string& variant : variants) subjects.push_back({file, variant, ""});
  if (subjects.size() > 1)
    for (std::size_t i = 0; i < subjects.size(); ++i) subjects[i].label = std::string(1, static_cast<char>('A' + i));
  return subjects;
}

constexpr std::size_t kMaxSubjects = 26;  // labelled A to Z

// Progress on stderr: on a terminal one line redrawn in place, otherwise a line per finished phase.
class ProgressLine {
 public:
  ProgressLine(std::ostream& log, bool live) : log_(log), live_(live) {}

  void show(const std::string& subject, const AnalysisProgress& progress) {
    const std::string prefix = subject.empty() ? "" : fmt::format("[{}] ", subject);
    if (!live_) {
      // The progress of a finished phase may be told again: its line is printed once.
      const std::string phase = prefix + progress.phase;
      if (progress.done == progress.total && phase != last_printed_) {
        fmt::print(log_, "analyze: {}: {} games\n", phase, progress.done);
        last_printed_ = phase;
      }
      return;
    }
    const std::string left = progress.seconds_left < 0 ? "?" : duration_text(progress.seconds_left);
    fmt::print(log_, "\r{}{} {}/{}, about {} left\x1b[K", prefix, progress.phase, progress.done, progress.total, left);
    log_.flush();
  }
  void finish() {
    if (live_) fmt::print(log_, "\r\x1b[K");
  }

 private:
  std::ostream& log_;
  bool live_;
  std::string last_printed_;
};

// "49.0% (39.4-58.7)" for a share, "61.2 (59.8-62.6)" for a number, "-" when unknown.
std::string number_text(double value, bool share) {
  if (share) return fmt::format("{:.1f}", 100 * value);
  const double size = std::abs(value);
  return fmt::format("{:.{}f}", value, size >= 100 ? 0 : size >= 10 ? 1 : size >= 1 ? 2 : 3);
}

std::string estimate_text(const Estimate& estimate, bool share) {
  if (std::isnan(estimate.value)) return "-";
  return fmt::format("{}{} ({}-{})", number_text(estimate.value, share), share ? "%" : "",
                     number_text(estimate.low, share), number_text(estimate.high, share));
}

struct Analysed {
  Subject subject;
  Analysis analysis;
};

constexpr int kLabelWidth = 26;
constexpr int kColumnWidth = 24;

// The metrics of kind `play` (an index in Analysis::plays) of one game; none when an analysis
// stopped early did not reach them.
const PlayMetrics* play_of(const Analysed& one, std::size_t play) {
  return play < one.analysis.plays.size() ? &one.analysis.plays[play] : nullptr;
}

// Games of more than two players: a row per seat for its wins and one for its mean rank points
// (two players have theirs in the rows of the first and second player's wins and advantage).
template <typename MetricsOf>
void print_seat_rows(std::ostream& out, const std::vector<Analysed>& all, const MetricsOf& metrics_of) {
  std::size_t seats = 0;
  for (const Analysed& one : all) seats = std::max(seats, one.analysis.seats.size());
  if (seats <= 2) return;
  const auto row = [&](std::string label, std::vector<Estimate> PlayMetrics::*field, std::size_t seat) {
    fmt::print(out, "{:<{}}", label, kLabelWidth);
    for (const Analysed& one : all) {
      const std::vector<Estimate>& estimates = metrics_of(one).*field;
      fmt::print(out, "{:<{}}",
                 seat < estimates.size() ? estimate_text(estimates[seat], field == &PlayMetrics::seat_wins) : "-",
                 kColumnWidth);
    }
    fmt::print(out, "\n");
  };
  for (std::size_t seat = 0; seat < seats; ++seat) {
    row(fmt::format("seat {} wins", seat + 1), &PlayMetrics::seat_wins, seat);
    row(fmt::format("seat {} rank points", seat + 1), &PlayMetrics::seat_points, seat);
  }
}

// The table of one kind of self-play (index `play` of the first game's plays), a column per game.
void print_play_table(std::ostream& out, const std::vector<Analysed>& all, std::size_t play) {
  const PlayMetrics& first = *play_of(all.front(), play);
  const PlayMetrics unplayed;
  fmt::print(out, "{} self-play:\n{:<{}}", first.players, "", kLabelWidth);
  for (const Analysed& one : all)
    fmt::print(out, "{:<{}}", one.subject.label.empty() ? one.analysis.game : one.subject.label, kColumnWidth);
  fmt::print(out, "\n{:<{}}", "games", kLabelWidth);
  const auto metrics_of = [&](const Analysed& one) -> const PlayMetrics& {
    const PlayMetrics* metrics = play_of(one, play);
    return metrics ? *metrics : unplayed;
  };
  for (const Analysed& one : all) fmt::print(out, "{:<{}}", metrics_of(one).games, kColumnWidth);
  fmt::print(out, "\n");
  bool marked = false;
  for (const MetricInfo& info : metric_infos()) {
    fmt::print(out, "{:<{}}", info.label, kLabelWidth);
    for (std::size_t i = 0; i < all.size(); ++i) {
      const Estimate& estimate = metrics_of(all[i]).*info.field;
      const bool differs = i > 0 && significantly_different(estimate, first.*info.field);
      marked = marked || differs;
      fmt::print(out, "{:<{}}", estimate_text(estimate, info.share) + (differs ? " *" : ""), kColumnWidth);
    }
    fmt::print(out, "\n");
  }
  print_seat_rows(out, all, metrics_of);
  for (const Analysed& one : all) {
    const PlayMetrics& metrics = metrics_of(one);
    std::string fifths;
    for (const double mean : metrics.branching_by_fifth) {
      fifths += ' ';
      fifths += std::isnan(mean) ? "-" : number_text(mean, false);
    }
    fmt::print(
        out, "{}length spread {:.1f} plies, shortest {}, longest {}; branching by fifth of the game:{}; leader by {}\n",
        one.subject.label.empty() ? "" : one.subject.label + ": ", metrics.length_spread, metrics.shortest,
        metrics.longest, fifths, metrics.evaluation);
  }
  if (marked) fmt::print(out, "* differs from {} by more than chance explains (5% level)\n", all.front().subject.label);
  fmt::print(out, "\n");
}

void print_skill_trace(std::ostream& out, const Analysed& one) {
  const SkillTrace& skill = one.analysis.skill;
  const std::string prefix = one.subject.label.empty() ? "" : one.subject.label + ": ";
  const bool all_clear = !skill.steps.empty() && skill.steps.back().clear;
  fmt::print(out, "{}{}{} level{} of skill ({} with doubling iterations, {} games a step)\n", prefix,
             all_clear ? "at least " : "", skill.levels, skill.levels == 1 ? "" : "s", skill.agent,
             one.analysis.options.skill_games);
  for (const SkillStep& step : skill.steps)
    fmt::print(out, "  {:>6} against {:>6} iterations: {}-{}-{}, Elo {} ({} to {}){}\n", step.stronger, step.weaker,
               step.wins, step.losses, step.draws, referee::elo_text(step.elo.difference),
               referee::elo_text(step.elo.low), referee::elo_text(step.elo.high),
               step.clear ? ", clearly stronger" : ", not clearly stronger");
}

void print_report(std::ostream& out, const std::vector<Analysed>& all, const std::vector<std::string>& params,
                  double seconds) {
  std::string params_text;
  for (const std::string& param : params) params_text += " --param " + param;
  const AnalysisOptions& options = all.front().analysis.options;
  // Each game has its own playout cap, so each says where its self-play stopped.
  // A game of more than two players names them.
  for (const Analysed& one : all) {
    const std::vector<std::string>& seats = one.analysis.seats;
    fmt::print(out, "{}{} ({}{}), {}self-play stopped at {} plies\n",
               one.subject.label.empty() ? "" : one.subject.label + " = ", one.analysis.game, one.subject.file,
               params_text,
               seats.size() > 2 ? fmt::format("{} players ({}), ", seats.size(), fmt::join(seats, ", ")) : "",
               one.analysis.options.max_plies.value_or(0));
  }
  fmt::print(out, "seed {}; {:.1f} s\n\n", options.seed, seconds);
  for (std::size_t play = 0; play < all.front().analysis.plays.size(); ++play) print_play_table(out, all, play);
  if (options.skill_games > 0) {
    fmt::print(out, "skill trace (the stronger wins clearly when its Elo's 95% interval is above 0):\n");
    for (const Analysed& one : all) print_skill_trace(out, one);
    fmt::print(out, "\n");
  }
  fmt::print(out, "what the figures mean (each with its 95% interval):\n");
  for (const MetricInfo& info : metric_infos())
    fmt::print(out, "  {:<{}}{}\n", info.label, kLabelWidth - 2, info.meaning);
  fmt::print(out, "  {:<{}}{}\n", "seat N wins, points", kLabelWidth - 2,
             "(more than two players) each seat's share of wins, and its mean rank points: 1 first alone, 0 last "
             "alone, ties share; fair is 1/N of the wins and 50% of the points");
  fmt::print(out, "  {:<{}}{}\n", "skill levels", kLabelWidth - 2,
             "doublings of the search's iterations that still win clearly: how much skill the game rewards");
}

Json report_json(const std::vector<Analysed>& all, bool stopped, double seconds) {
  Json games = Json::array();
  for (const Analysed& one : all) {
    Json analysis = analysis_json(one.analysis);
    analysis["file"] = one.subject.file;
    analysis["label"] = one.subject.label;
    games.push_back(std::move(analysis));
  }
  // For every game after the first, the metrics that differ from the first's by more than chance.
  Json differences = Json::array();
  for (std::size_t i = 1; i < all.size(); ++i)
    for (std::size_t play = 0; play < std::min(all[i].analysis.plays.size(), all[0].analysis.plays.size()); ++play)
      for (const MetricInfo& info : metric_infos())
        if (significantly_different(all[i].analysis.plays[play].*info.field, all[0].analysis.plays[play].*info.field))
          differences.push_back(
              {{"game", all[i].subject.label}, {"players", all[i].analysis.plays[play].players}, {"metric", info.key}});
  return Json{{"games", games}, {"differences", differences}, {"stopped", stopped}, {"seconds", seconds}};
}

std::atomic<bool> interrupted{false};

extern "C" void on_interrupt(int) {
  interrupted = true;
  std::signal(SIGINT, SIG_DFL);  // a second Ctrl-C ends the program at once
}

}  // namespace

const std::atomic<bool>* stop_on_interrupt() {
  std::signal(SIGINT, on_interrupt);
  return &interrupted;
}

CLI::App* add_analyze_command(CLI::App& app, AnalyzeOptions& options) {
  CLI::App* command = app.add_subcommand("analyze",
                                         "measure what a game is like to play, by self-play: balance, "
                                         "length, branching, drama, skill; several games side by side");
  command
      ->add_option("files", options.files,
                   "the rule files, e.g. games/breakthrough.game games/misere-breakthrough.game")
      ->required();
  command->add_option("--variant", options.variants,
                      "analyse this variant (repeatable: each is analysed beside the others)");
  command->add_option("--param", options.params, "set a parameter for every game: --param width=6 (repeatable)");
  command->add_flag("--json", options.json, "print machine-readable JSON on stdout");
  AnalysisOptions& analysis = options.analysis;
  command->add_option("--games", analysis.games, "self-play games of each kind (default 200)");
  command->add_option("--agent", analysis.agent,
                      "the agent of the agent self-play (default mcts:iterations=300); \"\" for random games only");
  command->add_option("--skill-games", analysis.skill_games, "games per step of the skill trace (default 40; 0: none)");
  command->add_option("--skill-steps", analysis.skill_steps, "at most this many doublings (default 6)");
  command->add_option("--skill-base", analysis.skill_base,
                      "the weaker agent's iterations at the first step (default 25)");
  command->add_option("--parallel", analysis.parallel, "games played at once, one thread each (default 1)");
  command->add_option("--max-plies", analysis.max_plies,
                      "stop a game still going at this ply (default: the game's playout cap)");
  command->add_option("--seed", analysis.seed, "random seed (default 1)");
  return command;
}

int run_analyze(const AnalyzeOptions& options, const std::atomic<bool>* stop, std::ostream& out, std::ostream& log) {
  check_analysis_options(options.analysis);
  const std::vector<Subject> subjects = subjects_of(options);
  if (subjects.size() > kMaxSubjects)
    throw usage_error(fmt::format("{} games to analyse, at most {} side by side", subjects.size(), kMaxSubjects));
  // Every file is loaded and checked before the first game is played.
  std::vector<Game> games;
  for (const Subject& subject : subjects) {
    GameOptions game_options;
    game_options.file = subject.file;
    game_options.variant = subject.variant;
    game_options.params = options.params;
    games.push_back(Game::load(subject.file, game_options.language_options()));
    // Its figures (wins by seat, balance, rank points) compare players: a puzzle has one.
    if (games.back().rules().player_count() == 1)
      throw usage_error(fmt::format("{} is a game of one player: troyka analyze measures games of two players or more",
                                    games.back().rules().name),
                        "play a puzzle with troyka play --white AGENT, or troyka bench");
  }
  ProgressLine progress(log, isatty(STDERR_FILENO) != 0);
  std::vector<Analysed> all;
  double seconds = 0;
  for (std::size_t i = 0; i < subjects.size(); ++i) {
    if (stop != nullptr && *stop) break;
    AnalysisHooks hooks;
    hooks.stop = stop;
    hooks.progress = [&](const AnalysisProgress& now) { progress.show(subjects[i].label, now); };
    all.push_back({subjects[i], analyze(games[i], options.analysis, hooks)});
    seconds += all.back().analysis.seconds;
  }
  progress.finish();
  const bool stopped = stop != nullptr && *stop;
  if (options.json) {
    out << report_json(all, stopped, seconds).dump() << '\n';
  } else if (!all.empty()) {
    print_report(out, all, options.params, seconds);
  }
  if (stopped) fmt::print(log, "analyze: stopped by Ctrl-C; the figures cover the games finished before it\n");
  return stopped ? 130 : 0;
}

}  // namespace troyka::cli
