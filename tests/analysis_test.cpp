// troyka analyze: the metrics against exact figures computed here independently, the ply limit on
// a game that never ends, the skill trace, stopping early, and the command line.
#include "cli/analysis.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <cmath>
#include <nlohmann/json.hpp>
#include <string>

#include "tests/games.h"
#include "tests/run_troyka.h"

namespace troyka::cli {
namespace {

using troyka_tests::endless_game;
using troyka_tests::game;
using troyka_tests::run_troyka;

// What uniformly random play from a position leads to, exactly: the chance of each end, and the
// expected plies to the end. Computed by walking the whole game tree, independently of the analysis.
struct RandomPlayOutcome {
  double first = 0, second = 0, draw = 0, plies = 0;
};

template <class Program>
RandomPlayOutcome random_play_outcome(const Program& program, const typename Program::StateType& state) {
  if (state.over)
    return {state.winner == 0 ? 1.0 : 0.0, state.winner == 1 ? 1.0 : 0.0, state.winner == kDraw ? 1.0 : 0.0, 0};
  MoveList moves;
  program.legal_moves(state, moves);
  RandomPlayOutcome sum;
  const double share = 1.0 / static_cast<double>(moves.size());
  for (const Move move : moves) {
    auto child = state;
    program.apply(child, move);
    const RandomPlayOutcome below = random_play_outcome(program, child);
    sum.first += share * below.first;
    sum.second += share * below.second;
    sum.draw += share * below.draw;
    sum.plies += share * (1 + below.plies);
  }
  return sum;
}

void expect_within(double truth, const Estimate& estimate, const char* what) {
  EXPECT_LE(estimate.low, truth) << what;
  EXPECT_GE(estimate.high, truth) << what;
  EXPECT_LT(estimate.high - estimate.low, 0.1 * std::max(1.0, truth)) << what << ": the interval is too wide to tell";
}

AnalysisOptions random_only(int games) {
  AnalysisOptions options;
  options.games = games;
  options.agent = "";
  options.skill_games = 0;
  return options;
}

// Random tic-tac-toe: the win, draw and length intervals hold the exact figures of the game tree,
// and the branching factor at ply p is 9 - p in every game.
TEST(Analysis, RandomTicTacToeMatchesTheExactFiguresOfItsGameTree) {
  const Game tic_tac_toe = game("tic-tac-toe.game");
  const RandomPlayOutcome truth =
      tic_tac_toe.visit([](const auto& program) { return random_play_outcome(program, program.initial_state()); });
  const Analysis analysis = analyze(tic_tac_toe, random_only(3000));
  ASSERT_EQ(analysis.plays.size(), 1U);
  const PlayMetrics& random = analysis.plays[0];
  EXPECT_EQ(random.players, "random");
  EXPECT_EQ(random.games, 3000);
  expect_within(truth.first, random.first_wins, "first wins");
  expect_within(truth.second, random.second_wins, "second wins");
  expect_within(truth.draw, random.draws, "draws");
  expect_within(truth.first + truth.second, random.completion, "completion");
  expect_within(truth.first + truth.draw / 2, random.advantage, "advantage");
  expect_within(truth.plies, random.length, "length");
  EXPECT_EQ(random.limit_hits.value, 0.0);
  EXPECT_EQ(random.shortest, 5U);  // the quickest win
  EXPECT_EQ(random.longest, 9U);
  ASSERT_EQ(random.branching_by_ply.size(), 9U);
  for (int ply = 0; ply < 9; ++ply) EXPECT_EQ(random.branching_by_ply[ply], 9 - ply) << "ply " << ply;
  EXPECT_EQ(random.games_at_ply[0], 3000);
  // A game's first fifth is its first ply or two (9 or 8.5 moves), its last a full board's last moves.
  ASSERT_EQ(random.branching_by_fifth.size(), 5U);
  EXPECT_GE(random.branching_by_fifth[0], 8.5);
  EXPECT_LE(random.branching_by_fifth[0], 9.0);
  EXPECT_LT(random.branching_by_fifth[4], random.branching_by_fifth[3]);
  EXPECT_EQ(random.histogram_bin, 1U);
  EXPECT_EQ(random.length_histogram.size(), 10U);
  EXPECT_EQ(random.length_histogram[4], 0);  // no game ends before its fifth ply
  EXPECT_GT(random.length_histogram[9], 0);
  // Every position before the ninth ply offers a choice; a full board's last empty cell does not.
  EXPECT_GT(random.decisions.value, 0.95);
  EXPECT_LT(random.decisions.value, 1.0);
  EXPECT_EQ(random.repetition.value, 0.0);  // a stone never leaves the board
  EXPECT_EQ(random.evaluation, "material");
  EXPECT_TRUE(analysis.skill.steps.empty());
  EXPECT_FALSE(analysis.stopped);
}

// A game that never ends stops at the ply limit in every game, agent or random, and the skill
// trace finds no skill in it.
TEST(Analysis, AGameThatNeverEndsStopsAtThePlyLimit) {
  AnalysisOptions options;
  options.games = 6;
  options.agent = "mcts:iterations=30";
  options.skill_games = 4;
  options.skill_base = 10;
  options.max_plies = 40;
  const Analysis analysis = analyze(endless_game(), options);
  ASSERT_EQ(analysis.plays.size(), 2U);
  for (const PlayMetrics& play : analysis.plays) {
    EXPECT_EQ(play.games, 6) << play.players;
    EXPECT_EQ(play.limit_hits.value, 1.0) << play.players;
    EXPECT_EQ(play.completion.value, 0.0) << play.players;
    EXPECT_EQ(play.length.value, 40.0) << play.players;
    EXPECT_EQ(play.advantage.value, 0.5) << play.players;
    EXPECT_TRUE(std::isnan(play.drama.value)) << "no game was won";
    EXPECT_GT(play.repetition.value, 0.5) << "two kings shuffling repeat positions";
  }
  EXPECT_EQ(analysis.plays[1].players, "mcts:iterations=30");
  EXPECT_EQ(analysis.plays[1].evaluation, "search value");
  ASSERT_EQ(analysis.skill.steps.size(), 1U);
  const SkillStep& step = analysis.skill.steps[0];
  EXPECT_EQ(step.weaker, 10U);
  EXPECT_EQ(step.stronger, 20U);
  EXPECT_EQ(step.draws, 4);
  EXPECT_FALSE(step.clear);
  EXPECT_EQ(analysis.skill.levels, 0);
  EXPECT_EQ(analysis.skill.agent, "mcts");
}

// The skill trace doubles the iterations until a step is not won clearly, and counts the clear ones.
TEST(Analysis, TheSkillTraceDoublesUntilTheStrongerNoLongerWinsClearly) {
  AnalysisOptions options = random_only(2);
  options.agent = "mcts:iterations=10,threads=1";
  options.skill_games = 16;
  options.skill_steps = 2;
  options.skill_base = 40;
  options.parallel = 2;
  const Analysis analysis = analyze(troyka_tests::breakthrough(5, 5), options);
  const SkillTrace& skill = analysis.skill;
  EXPECT_EQ(skill.agent, "mcts:threads=1");
  ASSERT_FALSE(skill.steps.empty());
  for (std::size_t step = 0; step < skill.steps.size(); ++step) {
    EXPECT_EQ(skill.steps[step].weaker, 40U << step);
    EXPECT_EQ(skill.steps[step].stronger, 80U << step);
    EXPECT_EQ(skill.steps[step].wins + skill.steps[step].losses + skill.steps[step].draws, 16);
    EXPECT_EQ(skill.steps[step].clear, skill.steps[step].elo.low > 0);
    // Only the last step may be unclear: the trace stops there.
    if (step + 1 < skill.steps.size()) {
      EXPECT_TRUE(skill.steps[step].clear) << "step " << step;
    }
  }
  EXPECT_EQ(skill.levels, static_cast<int>(skill.steps.size()) - (skill.steps.back().clear ? 0 : 1));
  EXPECT_GE(skill.levels, 1) << "80 iterations beat 40 clearly on a 5x5 board";
}

// The games depend on the seed alone, not on how many are played at once.
TEST(Analysis, TheFiguresAreTheSameOnAnyNumberOfThreads) {
  AnalysisOptions options;
  options.games = 8;
  options.agent = "mcts:iterations=40";
  options.skill_games = 4;
  options.skill_steps = 2;
  options.skill_base = 8;
  Json one = analysis_json(analyze(troyka_tests::breakthrough(5, 5), options));
  options.parallel = 3;
  Json three = analysis_json(analyze(troyka_tests::breakthrough(5, 5), options));
  one.erase("seconds");
  three.erase("seconds");
  three["options"].erase("parallel");
  one["options"].erase("parallel");
  EXPECT_EQ(one, three);
}

// A stop request ends the analysis after the games under way, keeping the finished ones.
TEST(Analysis, StopsEarlyWithTheGamesItFinished) {
  std::atomic<bool> stop{false};
  AnalysisHooks hooks;
  hooks.stop = &stop;
  int last_done = 0;
  hooks.progress = [&](const AnalysisProgress& progress) {
    EXPECT_EQ(progress.phase, "random games");
    EXPECT_EQ(progress.total, 1000);
    last_done = progress.done;
    if (progress.done >= 3) stop = true;
  };
  AnalysisOptions options = random_only(1000);
  options.agent = "mcts:iterations=50";
  options.skill_games = 10;
  const Analysis analysis = analyze(troyka_tests::breakthrough(), options, hooks);
  EXPECT_TRUE(analysis.stopped);
  ASSERT_EQ(analysis.plays.size(), 1U) << "the agent's games never started";
  EXPECT_GE(analysis.plays[0].games, 3);
  EXPECT_LT(analysis.plays[0].games, 1000);
  EXPECT_EQ(analysis.plays[0].games, last_done);
  EXPECT_TRUE(analysis.skill.steps.empty());
}

TEST(Analysis, EstimatesDifferWhenTheirIntervalsSaySo) {
  EXPECT_TRUE(significantly_different({0.60, 0.55, 0.65}, {0.40, 0.35, 0.45}));
  EXPECT_FALSE(significantly_different({0.52, 0.42, 0.62}, {0.48, 0.38, 0.58}));
  EXPECT_FALSE(significantly_different({NAN, NAN, NAN}, {0.48, 0.38, 0.58}));
}

// Three-player Breakthrough: each seat's wins and rank points, which the shares of the games and
// the points a game gives out (n / 2) bound, and the first and second seats' rows of two players.
TEST(Analysis, AThreePlayerGameHasTheWinsAndRankPointsOfEverySeat) {
  const Game three = game("breakthrough-3-players.game", {{"size", "8"}});
  const Analysis analysis = analyze(three, random_only(300));
  EXPECT_EQ(analysis.seats, (std::vector<std::string>{"White", "Red", "Black"}));
  const PlayMetrics& random = analysis.plays.at(0);
  ASSERT_EQ(random.seat_wins.size(), 3U);
  ASSERT_EQ(random.seat_points.size(), 3U);
  double wins = 0, points = 0;
  for (int seat = 0; seat < 3; ++seat) {
    wins += random.seat_wins[seat].value;
    points += random.seat_points[seat].value;
    // Every seat wins some random games, none nearly all.
    EXPECT_GT(random.seat_wins[seat].value, 0.1) << seat;
    EXPECT_LT(random.seat_wins[seat].value, 0.6) << seat;
  }
  // Someone reaches its far row in every random game: no draws, no limit.
  EXPECT_DOUBLE_EQ(wins, 1.0);
  EXPECT_DOUBLE_EQ(random.completion.value, 1.0);
  EXPECT_DOUBLE_EQ(points, 1.5);
  EXPECT_EQ(random.first_wins.value, random.seat_wins[0].value);
  EXPECT_EQ(random.second_wins.value, random.seat_wins[1].value);
  EXPECT_EQ(random.advantage.value, random.seat_points[0].value);
  // Balance compares the seats that win most and least.
  const auto [least, most] =
      std::minmax_element(random.seat_wins.begin(), random.seat_wins.end(),
                          [](const Estimate& a, const Estimate& b) { return a.value < b.value; });
  EXPECT_NEAR(random.balance.value, 1 - (most->value - least->value), 1e-12);
  EXPECT_GT(random.lead_changes.value, 0.0);
}

// Stopped at the third ply, every game of three players ranks them together: half the points each.
TEST(Analysis, AThreePlayerGameStoppedAtTheLimitGivesEverySeatHalfThePoints) {
  AnalysisOptions options = random_only(20);
  options.agent = "mcts:iterations=20";
  options.skill_games = 3;
  options.skill_steps = 1;
  options.max_plies = 3;
  const Analysis analysis = analyze(game("breakthrough-3-players.game", {{"size", "8"}}), options);
  ASSERT_EQ(analysis.plays.size(), 2U);
  for (const PlayMetrics& play : analysis.plays) {
    EXPECT_EQ(play.limit_hits.value, 1.0) << play.players;
    EXPECT_EQ(play.completion.value, 0.0) << play.players;
    for (const Estimate& points : play.seat_points) EXPECT_EQ(points.value, 0.5) << play.players;
  }
  ASSERT_EQ(analysis.skill.steps.size(), 1U);
  EXPECT_EQ(analysis.skill.steps[0].draws, 3);  // the stronger ranked with the others every time
}

// The report of a game of three players: its players, and a row of wins and rank points a seat in
// each kind of self-play; the JSON's seats.
TEST(AnalyzeCommand, ReportsEverySeatOfAThreePlayerGame) {
  const auto run = run_troyka(
      "analyze games/breakthrough-3-players.game --param size=8 --games 10 --agent mcts:iterations=20 "
      "--skill-games 3 --skill-steps 1");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_NE(run.out.find("Breakthrough for three players (games/breakthrough-3-players.game --param size=8), 3 "
                         "players (White, Red, Black), self-play stopped at 2000 plies\n"),
            std::string::npos)
      << run.out;
  for (const char* row : {"\nseat 1 wins ", "\nseat 3 wins ", "\nseat 3 rank points "}) {
    const std::size_t first = run.out.find(row);
    EXPECT_NE(first, std::string::npos) << row << run.out;
    EXPECT_NE(run.out.find(row, first + 1), std::string::npos) << row << ": a row in each kind of self-play";
  }
  const auto json = run_troyka(
      "analyze games/breakthrough-3-players.game --param size=8 --games 10 --agent \"\" --skill-games 0 --json");
  ASSERT_EQ(json.status, 0) << json.err;
  const auto seats = nlohmann::json::parse(json.out)["games"][0]["plays"][0]["seats"];
  ASSERT_EQ(seats.size(), 3U);
  EXPECT_EQ(seats[2]["player"], "Black");
  EXPECT_TRUE(seats[2]["wins"].contains("low"));
  EXPECT_TRUE(seats[2]["points"].contains("high"));
}

TEST(AnalyzeCommand, PrintsEveryMetricAsJson) {
  const auto run = run_troyka("analyze games/tic-tac-toe.game --games 40 --skill-games 4 --skill-steps 1 --json");
  ASSERT_EQ(run.status, 0) << run.err;
  // stderr is not a terminal here: one line per finished phase, each once.
  EXPECT_EQ(run.err,
            "analyze: random games: 40 games\n"
            "analyze: mcts:iterations=300 games: 40 games\n"
            "analyze: skill step 1: 50 against 25 iterations: 4 games\n");
  const auto report = nlohmann::json::parse(run.out);
  ASSERT_EQ(report["games"].size(), 1U);
  const auto& analysis = report["games"][0];
  EXPECT_EQ(analysis["game"], "Tic-tac-toe");
  EXPECT_EQ(analysis["file"], "games/tic-tac-toe.game");
  ASSERT_EQ(analysis["plays"].size(), 2U);
  EXPECT_EQ(analysis["plays"][0]["players"], "random");
  EXPECT_EQ(analysis["plays"][1]["players"], "mcts:iterations=300");
  for (const auto& play : analysis["plays"]) {
    EXPECT_EQ(play["games"], 40);
    for (const MetricInfo& info : metric_infos()) {
      ASSERT_TRUE(play["metrics"].contains(info.key)) << info.key;
      EXPECT_TRUE(play["metrics"][info.key].contains("low")) << info.key;
    }
    EXPECT_EQ(play["length"]["histogram"]["games"].size(), play["length"]["longest"].get<std::size_t>() + 1);
  }
  EXPECT_EQ(analysis["skill"]["steps"].size(), 1U);
  EXPECT_EQ(report["differences"].size(), 0U);
  EXPECT_EQ(report["stopped"], false);
}

// In Misère Breakthrough reaching the far row loses, so players who search avoid it and the games
// are much longer: side by side with Breakthrough, the length differs and is marked, and so does
// the JSON.
TEST(AnalyzeCommand, MarksTheDifferencesBetweenGamesSideBySide) {
  const std::string command =
      "analyze games/breakthrough.game games/misere-breakthrough.game --param width=6 --param height=6 --games 20 "
      "--agent mcts:iterations=50 --skill-games 0";
  const auto text = run_troyka(command);
  ASSERT_EQ(text.status, 0) << text.err;
  EXPECT_NE(
      text.out.find("A = Breakthrough (games/breakthrough.game --param width=6 --param height=6), self-play stopped at "
                    "2000 plies\n"
                    "B = Misere Breakthrough (games/misere-breakthrough.game --param width=6 --param height=6), "
                    "self-play stopped at 2000 plies\n"
                    "seed 1; "),
      std::string::npos)
      << text.out;
  const std::size_t table = text.out.find("mcts:iterations=50 self-play:\n");
  ASSERT_NE(table, std::string::npos) << text.out;
  const std::size_t row = text.out.find("\nlength (plies)", table);
  ASSERT_NE(row, std::string::npos) << text.out;
  const std::string line = text.out.substr(row + 1, text.out.find('\n', row + 1) - row - 1);
  EXPECT_EQ(line[line.find_last_not_of(' ')], '*') << line;
  EXPECT_NE(text.out.find("* differs from A by more than chance explains (5% level)"), std::string::npos);
  const auto json = run_troyka(command + " --json");
  ASSERT_EQ(json.status, 0) << json.err;
  const auto report = nlohmann::json::parse(json.out);
  EXPECT_EQ(report["games"][1]["label"], "B");
  const nlohmann::json length_differs{{"game", "B"}, {"players", "mcts:iterations=50"}, {"metric", "length"}};
  const auto& differences = report["differences"];
  EXPECT_NE(std::find(differences.begin(), differences.end(), length_differs), differences.end()) << differences;
}

TEST(AnalyzeCommand, RefusesAnAgentThatSetsItsSeed) {
  const auto run = run_troyka("analyze games/breakthrough.game --agent mcts:seed=3");
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.err,
            "error: the agent 'mcts:seed=3' sets its seed\n"
            "hint: analyze seeds every game's agents from --seed, so that the games differ; leave seed= out\n");
  EXPECT_EQ(run.out, "");
}

// Ctrl-C stops the analysis: it prints what it has and exits with 130. (100,000 random games on
// the largest board take minutes, far more than the 2 s before the interrupt.)
TEST(AnalyzeCommand, CtrlCPrintsWhatItHas) {
  const auto run = run_troyka(
      "analyze games/breakthrough.game --param width=26 --param height=26 --games 100000 --agent '' --skill-games 0 "
      "--json",
      "", "timeout --foreground --preserve-status -s INT 2");
  EXPECT_EQ(run.status, 130) << run.err;
  const auto report = nlohmann::json::parse(run.out);
  EXPECT_EQ(report["stopped"], true);
  const int games = report["games"][0]["plays"][0]["games"];
  EXPECT_GT(games, 0);
  EXPECT_LT(games, 100000);
  EXPECT_NE(run.err.find("analyze: stopped by Ctrl-C; the figures cover the games finished before it\n"),
            std::string::npos);
}

}  // namespace
}  // namespace troyka::cli
