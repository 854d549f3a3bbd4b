// What a game is like to play, measured by self-play: the metrics of `troyka analyze` and of the
// playground's analysis tab (docs/analysis.md defines each and gives its source).
//
// An analysis plays three kinds of games on the loaded game: uniformly random self-play, self-play
// of one agent (mcts by default), and a skill trace, in which an agent with twice the iterations
// plays one with fewer, doubling until the stronger no longer wins clearly. Every figure comes
// with its 95% interval, so two versions of a game can be told apart from noise.
//
// Every game stops at a ply limit, so a game that never ends cannot hang the analysis; such games
// are counted ("limit") and are neither wins nor draws.
#pragma once

#include <atomic>
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "cli/support.h"
#include "interpreter/game.h"
#include "referee/standings.h"

namespace troyka::cli {

// A measured value with its 95% interval [low, high].
struct Estimate {
  double value = 0, low = 0, high = 0;

  // The standard error the interval implies (its half width over 1.96).
  double standard_error() const { return (high - low) / (2 * 1.96); }
};

// Whether two estimates differ by more than chance explains at the 5% level: a z test on the
// difference with the standard errors of both.
bool significantly_different(const Estimate& a, const Estimate& b);

struct AnalysisOptions {
  int games = 200;                            // self-play games of each kind (random, agent)
  std::string agent = "mcts:iterations=300";  // the agent of the agent self-play; "" for none
  int skill_games = 40;                       // games per step of the skill trace; 0 for no trace
  int skill_steps = 6;                        // at most this many doublings
  std::uint64_t skill_base = 25;              // the weaker agent's iterations at the first step
  int parallel = 1;                           // games played at once, one thread each
  MaxPlies max_plies;  // a game still going at this ply is stopped ("limit"); Analysis has it resolved
  std::uint64_t seed = 1;
};

// Where an analysis is, for a progress line.
struct AnalysisProgress {
  std::string phase;         // "random games", "mcts:iterations=300 games", "skill step 2"
  int done = 0, total = 0;   // games of this phase
  double seconds_left = -1;  // for the whole analysis, an estimate; negative when unknown
};

struct AnalysisHooks {
  // When set and it becomes true, the analysis stops at the next move and returns the games it
  // finished (a game under way is dropped).
  const std::atomic<bool>* stop = nullptr;
  // Called on the calling thread, about twice a second and whenever a game ends.
  std::function<void(const AnalysisProgress&)> progress;
};

// The metrics of one kind of self-play.
struct PlayMetrics {
  std::string players;  // "random" or the agent's spec
  int games = 0;
  Estimate first_wins, second_wins, draws, limit_hits;  // shares of the games; a win is a first place alone
  Estimate advantage;   // the first player's mean rank points (referee::rank_points): a win 1, a draw or a limit 1/2
  Estimate balance;     // 1 - the gap between the win shares of the seats that win most and least
  Estimate completion;  // share of games with a winner
  // By seat (player), for games of any number of players: the share of games it won, and its mean
  // rank points (1 for a win, 0 for a last place alone, a limit ranks those still playing together).
  std::vector<Estimate> seat_wins, seat_points;
  Estimate length;           // plies
  double length_spread = 0;  // standard deviation of the length
  std::uint32_t shortest = 0, longest = 0;
  Estimate branching;      // legal moves in a position, the mean of each game's mean
  Estimate decisions;      // share of positions with more than one legal move
  Estimate lead_changes;   // share of moves after which another player leads
  Estimate drama;          // how far behind the eventual winner was, on average
  std::string evaluation;  // what tells who leads: "search value" or "material"
  Estimate coverage;       // share of the board's cells that held a piece at some point
  Estimate repetition;     // share of positions seen before in the same game
  // Game lengths in bins of histogram_bin plies: bin i holds the games of i*bin to (i+1)*bin-1 plies.
  std::vector<int> length_histogram;
  std::uint32_t histogram_bin = 1;
  // The mean number of legal moves at each ply over the games still going there, and how many were.
  std::vector<double> branching_by_ply;
  std::vector<int> games_at_ply;
  // The mean number of legal moves in each fifth of a game (its plies split in five), over games:
  // the shape of the game whatever its length.
  std::vector<double> branching_by_fifth;
};

// One step of the skill trace: an agent with `stronger` iterations against one with `weaker`.
struct SkillStep {
  std::uint64_t weaker = 0, stronger = 0;
  int wins = 0, losses = 0, draws = 0;  // the stronger's; a game stopped at the limit is a draw
  referee::EloEstimate elo;             // the stronger's Elo over the weaker
  bool clear = false;                   // the 95% interval of the Elo is above 0
};

struct SkillTrace {
  std::string agent;  // the spec without its budget, e.g. "mcts"
  std::vector<SkillStep> steps;
  int levels = 0;  // steps won clearly before the first that was not
};

struct Analysis {
  std::string game;                // the game's name, and its variant when one was chosen
  std::vector<std::string> seats;  // the players' names, in turn order
  std::vector<PlayMetrics> plays;  // random self-play, then the agent's
  SkillTrace skill;
  AnalysisOptions options;  // as given, with max_plies resolved to the game's playout cap if not given
  bool stopped = false;     // stopped early: the figures cover the games finished
  double seconds = 0;
};

// Checks the options and the agent spec; throws lang::Error (usage_error) on a bad one, so a
// command line is refused before any game is played.
void check_analysis_options(const AnalysisOptions& options);

Analysis analyze(const Game& game, const AnalysisOptions& options, const AnalysisHooks& hooks = {});

// A metric of PlayMetrics, for tables, JSON and comparisons: its key in JSON, its label, what it
// means in one line, and whether it is a share (printed as a percentage).
struct MetricInfo {
  const char* key;
  const char* label;
  const char* meaning;
  Estimate PlayMetrics::*field;
  bool share;
};
const std::vector<MetricInfo>& metric_infos();

Json analysis_json(const Analysis& analysis);

}  // namespace troyka::cli
