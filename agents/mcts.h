// The MCTS agent: search trees (search_tree.h) under a budget of iterations and/or time, on one
// thread or several, kept from move to move.
//
// Threads: root parallel (Chaslot, Winands and van den Herik, 2008). Each thread grows its own tree
// from the same root with its own random stream, and the trees' root statistics are summed to
// choose the move. No locks or atomics in the hot loop, and each tree is still exactly one
// thread's, so one thread with an iteration budget is deterministic per seed.
//
// Budgets: `iterations` (exact, shared among the threads) and/or `time` (each thread reads the
// clock every 64 iterations). With both, whichever runs out first; with neither, 1 s. A clock
// given at choose (a match's time control) caps the time further. A proven root, or a position
// with one legal move, ends the search at once.
//
// Memory: the trees' node pools together stay under `memory` bytes (40 bytes a node).
#pragma once

#include <atomic>
#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "agents/agent.h"
#include "agents/search_tree.h"

namespace troyka::agents {

struct MctsConfig {
  std::uint64_t iterations = 0;  // stop after this many iterations in all; 0: no limit
  double seconds = 0;            // stop after this long; 0: no limit (both 0: 1 s)
  std::uint64_t seed = 1;
  int threads = 1;
  std::size_t memory_bytes = std::size_t{256} << 20;  // all node pools together
  SearchOptions search;                               // max_nodes is derived from memory_bytes
};

// The config an "mcts" or "uct" spec describes; the spec must come from parse_agent_spec.
MctsConfig mcts_config(const AgentSpec& spec, std::uint64_t default_seed);

template <class Program>
class MctsAgent final : public Agent<Program> {
 public:
  using StateType = typename Program::StateType;
  using Tree = SearchTree<Program>;

  MctsAgent(const Program& program, const MctsConfig& config, std::string name = "mcts");

  std::string name() const override { return name_; }
  void start(int player, const TimeControl& time) override;
  Move choose(const StateType& root, double seconds_left) override;
  void observe(Move move) override { moves_since_search_.push_back(move); }
  void finish(int winner) override;
  std::optional<SearchReport> last_report() const override { return report_; }

  const MctsConfig& config() const { return config_; }

 private:
  using Clock = std::chrono::steady_clock;
  // A root child's statistics summed over the trees.
  struct RootChild {
    Move move;
    std::uint64_t visits = 0;
    double value = 0;
    Proof proof = Proof::Unknown;
  };

  double seconds_for_move(double seconds_left) const;
  std::uint64_t search(Tree& tree, Clock::time_point deadline, bool timed, std::uint64_t quota, double& longest_gap);
  std::vector<RootChild> merged_root_children() const;
  static std::size_t best_of(const std::vector<RootChild>& children);
  std::vector<std::string> principal_line(Move first) const;

  const Program& program_;
  MctsConfig config_;
  std::string name_;
  TimeControl time_;
  std::vector<Tree> trees_;  // one per thread
  std::vector<Move> moves_since_search_;
  std::atomic<bool> root_proven_{false};
  std::optional<SearchReport> report_;
};

template <class Program>
MctsAgent<Program>::MctsAgent(const Program& program, const MctsConfig& config, std::string name)
    : program_(program), config_(config), name_(std::move(name)) {
  const auto threads = static_cast<std::size_t>(std::max(config_.threads, 1));
  SearchOptions options = config_.search;
  options.max_nodes = std::max<std::size_t>(config_.memory_bytes / threads / sizeof(typename Tree::Node), 1);
  options.max_nodes = std::min<std::size_t>(options.max_nodes, std::numeric_limits<std::uint32_t>::max());
  trees_.reserve(threads);
  // Seeds far apart, so the threads' streams differ.
  for (std::size_t t = 0; t < threads; ++t) trees_.emplace_back(program, options, config_.seed + t * 0x9E37'79B9ULL);
}

template <class Program>
void MctsAgent<Program>::start(int /*player*/, const TimeControl& time) {
  time_ = time;
  moves_since_search_.clear();
}

template <class Program>
void MctsAgent<Program>::finish(int /*winner*/) {
  for (Tree& tree : trees_) tree.release();
  moves_since_search_.clear();
}

// The most this move may take: the agent's own budget, capped by the clock with a margin for the
// way back to the referee.
template <class Program>
double MctsAgent<Program>::seconds_for_move(double seconds_left) const {
  double seconds = config_.seconds > 0 ? config_.seconds : config_.iterations == 0 ? 1.0 : 0.0;
  if (seconds_left <= 0) return seconds;
  // With a game total, spend a twentieth of what is left (plus most of the increment).
  double limit = time_.game_seconds > 0 ? seconds_left / 20 + 0.75 * time_.increment_seconds : seconds_left;
  // With both a total and a time per move, the move's limit still holds.
  if (time_.move_seconds > 0) limit = std::min(limit, time_.move_seconds);
  limit = std::max(std::min(0.9 * limit, limit - 0.02), 0.001);
  return seconds > 0 ? std::min(seconds, limit) : config_.iterations == 0 ? limit : 0.0;
}

template <class Program>
Move MctsAgent<Program>::choose(const StateType& root, double seconds_left) {
  const auto start = Clock::now();
  root_proven_ = false;
  for (Tree& tree : trees_) tree.set_root(root, moves_since_search_);
  moves_since_search_.clear();

  const double seconds = seconds_for_move(seconds_left);
  const auto deadline = start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
  std::uint64_t done = 0;
  double longest_gap = 0;
  if (program_.count_moves(root) > 1) {  // one legal move needs no thought
    std::vector<std::uint64_t> per_thread(trees_.size());
    std::vector<double> gaps(trees_.size());
    std::vector<std::thread> helpers;
    const std::uint64_t iterations = config_.iterations;
    // Thread t's share of the iterations; the shares add up to `iterations` exactly.
    const auto run = [&](std::size_t t) {
      const std::uint64_t quota = iterations ? (iterations + t) / trees_.size() : 0;
      if (iterations == 0 || quota > 0) per_thread[t] = search(trees_[t], deadline, seconds > 0, quota, gaps[t]);
    };
    for (std::size_t t = 1; t < trees_.size(); ++t) helpers.emplace_back(run, t);
    run(0);
    for (std::thread& helper : helpers) helper.join();
    for (const std::uint64_t count : per_thread) done += count;
    longest_gap = *std::max_element(gaps.begin(), gaps.end());
  } else {
    trees_[0].iterate();  // expands the root, so its one move is there to report
  }

  const std::vector<RootChild> children = merged_root_children();
  const RootChild& best = children[best_of(children)];
  SearchReport report;
  report.iterations = done;
  report.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  report.time_limit = seconds;
  for (const Tree& tree : trees_) {
    report.nodes += tree.size();
    report.bytes += tree.bytes();
  }
  report.best = best.move;
  report.best_text = program_.move_text(best.move);
  std::uint64_t total_visits = 0;
  for (const RootChild& child : children) total_visits += child.visits;
  report.visit_share = total_visits ? static_cast<double>(best.visits) / static_cast<double>(total_visits) : 0;
  report.value = best.visits ? best.value / static_cast<double>(best.visits) : 0;
  report.proof = trees_[0].proof_for_chooser(trees_[0].root());
  for (const Tree& tree : trees_)
    if (report.proof == Proof::Unknown) report.proof = tree.proof_for_chooser(tree.root());
  report.principal = principal_line(best.move);
  report.threads = static_cast<int>(trees_.size());
  report.longest_check_gap = longest_gap;
  report_ = std::move(report);
  return best.move;
}

// Runs iterations on one tree until the quota (0: none) or the deadline, or until any tree proves
// the root; returns how many it ran.
template <class Program>
std::uint64_t MctsAgent<Program>::search(Tree& tree, Clock::time_point deadline, bool timed, std::uint64_t quota,
                                         double& longest_gap) {
  std::uint64_t done = 0;
  auto last_check = Clock::now();
  while (quota == 0 || done < quota) {
    // Reading the clock and the shared flag every 64 iterations keeps their cost out of the search.
    if (done % 64 == 0 && done > 0) {
      if (root_proven_.load(std::memory_order_relaxed)) break;
      if (timed) {
        const auto now = Clock::now();
        longest_gap = std::max(longest_gap, std::chrono::duration<double>(now - last_check).count());
        last_check = now;
        if (now >= deadline) break;
      }
    }
    tree.iterate();
    ++done;
    if (config_.search.solver && tree.proof_for_chooser(tree.root()) != Proof::Unknown) {
      root_proven_ = true;
      break;
    }
  }
  return done;
}

template <class Program>
std::vector<typename MctsAgent<Program>::RootChild> MctsAgent<Program>::merged_root_children() const {
  std::vector<RootChild> children;
  for (const Tree& tree : trees_) {
    const auto& root = tree.root();
    for (std::uint32_t i = root.first_child; i < root.first_child + root.child_count; ++i) {
      const auto& node = tree.node(i);
      auto found = std::find_if(children.begin(), children.end(),
                                [&](const RootChild& child) { return child.move == node.move; });
      if (found == children.end()) found = children.insert(children.end(), RootChild{node.move});
      found->visits += node.visits;
      found->value += node.value;
      if (node.proof != Proof::Unknown) found->proof = node.proof;
    }
  }
  return children;
}

// A proven win first; then the most visited move not proven lost (ties: the higher value); when
// every move is proven lost, the most visited, which resists longest.
template <class Program>
std::size_t MctsAgent<Program>::best_of(const std::vector<RootChild>& children) {
  std::size_t best = 0;
  for (std::size_t i = 1; i < children.size(); ++i) {
    const RootChild& child = children[i];
    const RootChild& leader = children[best];
    if (better_choice(child.proof, child.visits, child.value, leader.proof, leader.visits, leader.value)) best = i;
  }
  return best;
}

// The chosen move, then the most visited replies in the first tree, as far as it is expanded.
template <class Program>
std::vector<std::string> MctsAgent<Program>::principal_line(Move first) const {
  constexpr std::size_t kMaxLength = 12;
  std::vector<std::string> line{program_.move_text(first)};
  const Tree& tree = trees_[0];
  const auto& root = tree.root();
  std::uint32_t index = 0;
  for (std::uint32_t i = root.first_child; i < root.first_child + root.child_count; ++i)
    if (tree.node(i).move == first) index = i;
  while (index != 0 && tree.node(index).child_count > 0 && line.size() < kMaxLength) {
    index = tree.most_visited_child(tree.node(index));
    if (tree.node(index).visits == 0) break;
    line.push_back(program_.move_text(tree.node(index).move));
  }
  return line;
}

#define TROYKA_DECLARE_MCTS(W) extern template class MctsAgent<Program<W>>;
TROYKA_FOR_EACH_WIDTH(TROYKA_DECLARE_MCTS)
#undef TROYKA_DECLARE_MCTS

}  // namespace troyka::agents
