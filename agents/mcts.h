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
#include <cassert>
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

  // What one thread's search did.
  struct SearchTotals {
    std::uint64_t iterations = 0;
    std::uint64_t capped_playouts = 0;
    double longest_check_gap = 0;
  };
  // The share of a move's time that re-rooting may spend keeping the last search's tree.
  static constexpr double kRerootShare = 0.1;
  // What a clock's limit is cut by (seconds_for_move).
  static constexpr double kMarginSeconds = 0.010, kMarginShare = 0.05;

  double seconds_for_move(double seconds_left) const;
  SearchTotals search(Tree& tree, const Clock::time_point* deadline, std::uint64_t quota);
  Move first_move(const StateType& state) const;
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

// The most this move may take: the agent's own budget, capped by the clock less a margin of
// kMarginSeconds and kMarginShare of the limit. The search itself stops within a millisecond of
// its deadline (docs/performance.md); the margin is for what lies outside it: the request and the
// reply on their way through ZeroMQ and JSON, and a thread the operating system wakes late on a
// busy machine.
template <class Program>
double MctsAgent<Program>::seconds_for_move(double seconds_left) const {
  double seconds = config_.seconds > 0 ? config_.seconds : config_.iterations == 0 ? 1.0 : 0.0;
  if (seconds_left <= 0) return seconds;
  // With a game total, spend a twentieth of what is left (plus most of the increment).
  double limit = time_.game_seconds > 0 ? seconds_left / 20 + 0.75 * time_.increment_seconds : seconds_left;
  // With both a total and a time per move, the move's limit still holds.
  if (time_.move_seconds > 0) limit = std::min(limit, time_.move_seconds);
  limit = std::max(limit - kMarginSeconds - kMarginShare * limit, 0.001);
  return seconds > 0 ? std::min(seconds, limit) : config_.iterations == 0 ? limit : 0.0;
}

template <class Program>
Move MctsAgent<Program>::choose(const StateType& root, double seconds_left) {
  const auto start = Clock::now();
  root_proven_ = false;
  const double seconds = seconds_for_move(seconds_left);
  const bool timed = seconds > 0;
  const auto after = [&](double share) {
    return start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(share * seconds));
  };
  const Clock::time_point deadline = after(1.0);
  // Re-rooting may spend a tenth of the move's time keeping the last search's tree.
  const Clock::time_point copy_deadline = after(kRerootShare);
  const bool choice = program_.count_moves(root) > 1;  // one legal move needs no thought
  std::vector<SearchTotals> totals(trees_.size());
  const std::uint64_t iterations = config_.iterations;
  // Each thread re-roots its own tree, then searches it; thread t's share of the iterations (the
  // shares add up to `iterations` exactly).
  const auto run = [&](std::size_t t) {
    trees_[t].set_root(root, moves_since_search_, timed ? &copy_deadline : nullptr);
    const std::uint64_t quota = iterations ? (iterations + t) / trees_.size() : 0;
    if (choice && (iterations == 0 || quota > 0)) totals[t] = search(trees_[t], timed ? &deadline : nullptr, quota);
  };
  std::vector<std::thread> helpers;
  for (std::size_t t = 1; t < trees_.size(); ++t) helpers.emplace_back(run, t);
  run(0);
  for (std::thread& helper : helpers) helper.join();
  moves_since_search_.clear();
  if (!choice) trees_[0].iterate(timed ? &deadline : nullptr);  // expands the root, so its one move is there to report

  SearchReport report;
  for (const SearchTotals& part : totals) {
    report.iterations += part.iterations;
    report.capped_playouts += part.capped_playouts;
    report.longest_check_gap = std::max(report.longest_check_gap, part.longest_check_gap);
  }
  const std::vector<RootChild> children = merged_root_children();
  // A root with more moves than the memory budget holds nodes has no children to choose from.
  const RootChild best = children.empty() ? RootChild{first_move(root)} : children[best_of(children)];
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
  report_ = std::move(report);
  return best.move;
}

template <class Program>
Move MctsAgent<Program>::first_move(const StateType& state) const {
  MoveList moves;
  program_.legal_moves(state, moves);
  return moves.front();
}

// Runs iterations on one tree until the quota (0: none) or the deadline (nullptr: none), or until
// any tree proves the root. The clock is read before every iteration and, inside playouts, every
// PlayoutPolicy::kDeadlinePlies plies: the wait for a deadline is bounded by the time of one
// selection and expansion, or of those plies, however slow the game's iterations are.
template <class Program>
typename MctsAgent<Program>::SearchTotals MctsAgent<Program>::search(Tree& tree, const Clock::time_point* deadline,
                                                                     std::uint64_t quota) {
  SearchTotals totals;
  const std::uint64_t capped_before = tree.capped_playouts();
  auto last_check = Clock::now();
  while (quota == 0 || totals.iterations < quota) {
    if (root_proven_.load(std::memory_order_relaxed)) break;
    if (deadline != nullptr) {
      const auto now = Clock::now();
      totals.longest_check_gap =
          std::max(totals.longest_check_gap, std::chrono::duration<double>(now - last_check).count());
      last_check = now;
      if (now >= *deadline) break;
    }
    if (!tree.iterate(deadline)) break;  // the deadline passed during the playout
    ++totals.iterations;
    if (config_.search.solver && tree.proof_for_chooser(tree.root()) != Proof::Unknown) {
      root_proven_ = true;
      break;
    }
  }
  totals.capped_playouts = tree.capped_playouts() - capped_before;
  return totals;
}

// Every tree expanded its root from the same position, so their root children are the same moves
// in the same order: merged by position, in time linear in the moves (a search over thousands of
// moves must not spend its margin here).
template <class Program>
std::vector<typename MctsAgent<Program>::RootChild> MctsAgent<Program>::merged_root_children() const {
  std::vector<RootChild> children;
  for (const Tree& tree : trees_) {
    const auto& root = tree.root();
    if (root.child_count == 0) continue;
    if (children.empty())
      for (std::uint32_t i = 0; i < root.child_count; ++i)
        children.push_back(RootChild{tree.node(root.first_child + i).move});
    for (std::uint32_t i = 0; i < root.child_count; ++i) {
      const auto& node = tree.node(root.first_child + i);
      RootChild& child = children[i];
      assert(child.move == node.move);
      child.visits += node.visits;
      child.value += node.value;
      if (node.proof != Proof::Unknown) child.proof = node.proof;
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
