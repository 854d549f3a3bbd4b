// Monte Carlo tree search with UCT: UCB1 selection, one uniformly random playout per iteration
// (program.playout), results backed up as 1 for a win, 0.5 for a draw and 0 for a loss.
//
// The tree is a flat pool: one std::vector<Node> reused from search to search, children addressed
// by index and stored contiguously, so growing the tree never allocates per node and selection
// scans one run of memory. Nodes hold no state: an iteration copies the root state and applies the
// moves on its way down.
//
// An iteration:
//   1. select: from the root, take the child with the best UCB1 score, an unvisited child first;
//   2. expand: a node reached for the second time gets all its children at once, one per legal move
//      (the first time it only gets a playout, so the tree grows by about one node per iteration);
//   3. simulate: a random playout from the reached node, unless it is terminal, in which case its
//      true result is used;
//   4. back up: every node on the path counts the visit and adds the result for the player who
//      played the move into it.
// The chosen move is the most visited child of the root (ties: the higher mean value).
//
// UCB1 score of a child: mean + c * sqrt(ln(parent visits) / child visits), mean in [0, 1].
// The default c = 0.7 is the textbook sqrt(2) rescaled: sqrt(2) is for results in [-1, 1]; mapping
// them to [0, 1] halves the spread of the mean, so the same balance is c = sqrt(2) / 2 ~ 0.7.
//
// Budgets: `iterations` (exact; with a seed this makes the search deterministic) and/or `time`
// (the clock is read every 64 iterations). With both, whichever runs out first; with neither, 1 s.
// Later slices add the solver (proven nodes: a spare byte in Node), MAST, threads and tree reuse
// (observe() re-rooting the pool instead of clearing it).
#pragma once

#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "agents/agent.h"

namespace troyka::agents {

struct MctsConfig {
  std::uint64_t iterations = 0;  // stop after this many iterations; 0: no limit
  double seconds = 0;            // stop after this long; 0: no limit (both 0: 1 s)
  double c = 0.7;                // UCB1 exploration constant, for results in [0, 1]
  std::uint64_t seed = 1;
  // The pool's bound (32 bytes a node): when full, leaves are no longer expanded, only played out.
  std::size_t max_nodes = std::size_t{1} << 23;
};

// The config an "mcts" spec describes; the spec must come from parse_agent_spec.
MctsConfig mcts_config(const AgentSpec& spec, std::uint64_t default_seed);

template <class Program>
class MctsAgent final : public Agent<Program> {
 public:
  using StateType = typename Program::StateType;

  MctsAgent(const Program& program, const MctsConfig& config, std::string name = "mcts")
      : program_(program), config_(config), rng_(config.seed), name_(std::move(name)) {}

  std::string name() const override { return name_; }
  Move choose(const StateType& root, double seconds_left) override;
  std::optional<SearchReport> last_report() const override { return report_; }

  const MctsConfig& config() const { return config_; }

 private:
  using Clock = std::chrono::steady_clock;

  struct Node {
    Move move;                      // the move into this node (none for the root)
    std::uint8_t reserved[2]{};     // room for solver flags
    std::uint32_t first_child = 0;  // index of the first child; 0 while not expanded
    std::uint32_t child_count = 0;
    std::uint32_t visits = 0;
    double value = 0;  // sum of the results of the player who played `move`
  };
  static_assert(sizeof(Node) == 32, "two nodes a cache line");
  // One node of the current path and the player who played the move into it.
  struct Step {
    std::uint32_t node;
    std::uint8_t mover;
  };

  void iterate(const StateType& root);
  bool expand(std::uint32_t index, const StateType& state, bool ignore_limit = false);
  std::uint32_t select_child(const Node& parent) const;
  std::uint32_t best_child() const;

  const Program& program_;
  MctsConfig config_;
  Rng rng_;
  std::string name_;
  std::vector<Node> nodes_;  // nodes_[0] is the root
  std::vector<Step> path_;
  MoveList moves_;
  std::optional<SearchReport> report_;
};

template <class Program>
Move MctsAgent<Program>::choose(const StateType& root, double /*seconds_left*/) {
  nodes_.clear();
  nodes_.push_back(Node{});
  if (!expand(0, root, /*ignore_limit=*/true)) return Move{};  // no move: the caller broke the contract
  const std::uint64_t iterations = config_.iterations;
  const double seconds = config_.seconds > 0 ? config_.seconds : iterations == 0 ? 1.0 : 0.0;
  const auto start = Clock::now();
  const auto deadline = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  std::uint64_t done = 0;
  while (iterations == 0 || done < iterations) {
    // Reading the clock every 64 iterations keeps its cost out of the search.
    if (seconds > 0 && done % 64 == 0 && done > 0 && Clock::now() >= deadline) break;
    iterate(root);
    ++done;
  }
  const double elapsed = std::chrono::duration<double>(Clock::now() - start).count();

  const Node& best = nodes_[best_child()];
  SearchReport report;
  report.iterations = done;
  report.seconds = elapsed;
  report.nodes = nodes_.size();
  report.best = best.move;
  report.best_text = program_.move_text(best.move);
  report.visit_share = nodes_[0].visits ? static_cast<double>(best.visits) / nodes_[0].visits : 0;
  report.value = best.visits ? best.value / best.visits : 0;
  report_ = std::move(report);
  return best.move;
}

template <class Program>
void MctsAgent<Program>::iterate(const StateType& root) {
  StateType state = root;
  path_.clear();
  path_.push_back(Step{0, static_cast<std::uint8_t>(root.to_move)});  // the root's value is never read
  std::uint32_t index = 0;
  while (!state.over) {
    if (nodes_[index].child_count == 0 && (nodes_[index].visits == 0 || !expand(index, state))) break;
    const std::uint32_t child = select_child(nodes_[index]);
    path_.push_back(Step{child, static_cast<std::uint8_t>(state.to_move)});
    program_.apply(state, nodes_[child].move);
    index = child;
  }
  if (!state.over) program_.playout(state, rng_);
  std::array<double, kPlayers> results;
  for (int player = 0; player < kPlayers; ++player)
    results[static_cast<std::size_t>(player)] = 0.5 * (program_.result(state, player) + 1);
  for (const Step& step : path_) {
    Node& node = nodes_[step.node];
    ++node.visits;
    node.value += results[step.mover];
  }
}

template <class Program>
bool MctsAgent<Program>::expand(std::uint32_t index, const StateType& state, bool ignore_limit) {
  program_.legal_moves(state, moves_);
  if (moves_.empty()) return false;
  if (!ignore_limit && nodes_.size() + moves_.size() > config_.max_nodes) return false;
  const auto first = static_cast<std::uint32_t>(nodes_.size());
  for (const Move& move : moves_) nodes_.push_back(Node{move});
  nodes_[index].first_child = first;
  nodes_[index].child_count = static_cast<std::uint32_t>(moves_.size());
  return true;
}

template <class Program>
std::uint32_t MctsAgent<Program>::select_child(const Node& parent) const {
  const std::uint32_t end = parent.first_child + parent.child_count;
  const double log_visits = std::log(static_cast<double>(parent.visits));
  std::uint32_t best = parent.first_child;
  double best_score = -std::numeric_limits<double>::infinity();
  for (std::uint32_t i = parent.first_child; i < end; ++i) {
    const Node& child = nodes_[i];
    if (child.visits == 0) return i;
    const double visits = child.visits;
    const double score = child.value / visits + config_.c * std::sqrt(log_visits / visits);
    if (score > best_score) {
      best_score = score;
      best = i;
    }
  }
  return best;
}

template <class Program>
std::uint32_t MctsAgent<Program>::best_child() const {
  const Node& root = nodes_[0];
  std::uint32_t best = root.first_child;
  for (std::uint32_t i = root.first_child + 1; i < root.first_child + root.child_count; ++i) {
    const Node& child = nodes_[i];
    const Node& leader = nodes_[best];
    if (child.visits > leader.visits || (child.visits == leader.visits && child.value > leader.value)) best = i;
  }
  return best;
}

#define TROYKA_DECLARE_MCTS(W) extern template class MctsAgent<Program<W>>;
TROYKA_FOR_EACH_WIDTH(TROYKA_DECLARE_MCTS)
#undef TROYKA_DECLARE_MCTS

}  // namespace troyka::agents
