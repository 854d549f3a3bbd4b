// The MCTS agent: search trees (search_tree.h) under a budget of iterations and/or time, on one
// thread or several, kept from move to move.
//
// Threads: root parallel (Chaslot, Winands and van den Herik, 2008). Each thread grows its own tree
// from the same root with its own random stream, and the trees' root statistics are summed to
// choose the move. No locks or atomics in the hot loop, and each tree is still exactly one
// thread's, so one thread with an iteration budget is deterministic per seed.
//
// Budgets: `iterations` (exact, shared among the threads) and/or `time` (each thread reads the
// clock before every iteration and every few plies of a playout). With both, whichever runs out
// first; with neither, 1 s. A clock given at choose (a referee's time control) caps the time
// further, less a margin. A proven root, or a position with one legal move, ends the search at
// once. Under a clock the reply never waits for a helper thread the system did not run at the
// deadline: that thread's tree sits the move out (wait_for_helpers).
//
// Memory: the trees' node pools together stay under `memory` bytes (40 bytes a node).
#pragma once

#include <algorithm>
#include <atomic>
#include <cassert>
#include <chrono>
#include <condition_variable>
#include <cstdint>
#include <ctime>
#include <exception>
#include <memory>
#include <mutex>
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
  ~MctsAgent() override { join_helpers(); }
  MctsAgent(const MctsAgent&) = delete;
  MctsAgent& operator=(const MctsAgent&) = delete;

  std::string name() const override { return name_; }
  void start(int player, const TimeControl& time) override;
  Move choose(const StateType& root, double seconds_left) override;
  void observe(Move move) override;
  void finish(int winner) override;
  void allow_for_lag(double seconds) override { lag_seconds_ = std::max(seconds, 0.0); }
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
    double longest_stall = 0;  // the longest the thread was kept from running (search)
  };
  // One search, as every thread of it sees it. Shared with the helper threads, which may outlive
  // the choose() that started them (a thread the system did not run at its deadline): it holds
  // copies of all they read.
  struct SearchJob {
    StateType root{};
    std::vector<Move> moves_since;
    History history;  // the game's up to root
    bool timed = false, choice = false;
    Clock::time_point deadline, copy_deadline;
    // What the deadline keeps before the clock runs out (seconds_for_move); none without a clock.
    std::optional<double> margin;
    std::uint64_t iterations = 0;
    std::vector<SearchTotals> totals;  // by tree
    std::mutex mutex;
    std::condition_variable helper_done;
    std::vector<bool> finished;  // by tree, under mutex
    std::size_t helpers_finished = 0;
    std::exception_ptr error;  // the first a thread met (a rule that ran away, say), under mutex
  };
  // The share of a move's time that re-rooting may spend keeping the last search's tree.
  static constexpr double kRerootShare = 0.1;
  // What a clock's limit is cut by (seconds_for_move).
  static constexpr double kMarginSeconds = 0.010, kMarginShare = 0.05;
  // The shortest stretch of a search in which it measures how long it was kept from running.
  static constexpr double kStallWindowSeconds = 0.001;

  // How long the reply waits, past the deadline, for a helper thread that has not finished.
  static constexpr std::chrono::microseconds kHelperGrace{500};

  // The seconds to search, and (`margin`) what they leave of the clock's limit, if there is one.
  double seconds_for_move(double seconds_left, std::optional<double>* margin = nullptr) const;
  void run_thread(SearchJob& job, std::size_t t);
  void rethrow_search_error(SearchJob& job);
  std::vector<bool> wait_for_helpers(SearchJob& job);
  void join_helpers();
  SearchTotals search(Tree& tree, const Clock::time_point* deadline, std::optional<double> margin, std::uint64_t quota);
  Move first_move(const StateType& state) const;
  std::vector<RootChild> merged_root_children(const std::vector<bool>& merged) const;
  static std::size_t best_of(const std::vector<RootChild>& children);
  std::vector<std::string> principal_line(Move first) const;

  const Program& program_;
  MctsConfig config_;
  std::string name_;
  TimeControl time_;
  std::vector<Tree> trees_;  // one per thread
  // The helper threads of the last search (trees 1, 2, ...); any still running are joined before
  // their trees are touched again.
  std::vector<std::thread> helpers_;
  std::vector<Move> moves_since_search_;
  // The game as observed since start(), and its history, for (repetition N): a search from this
  // position counts the game's positions; from any other (after an undo) the root's alone.
  StateType game_{};
  History game_history_;
  std::atomic<bool> root_proven_{false};
  std::optional<SearchReport> report_;
  // What the referee lately counted beyond the search's limit (allow_for_lag): the margin keeps
  // twice that when it is more than the fixed one (seconds_for_move).
  double lag_seconds_ = 0;
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
  game_ = program_.initial_state();
  game_history_ = program_.start_history(game_);
}

template <class Program>
void MctsAgent<Program>::observe(Move move) {
  moves_since_search_.push_back(move);
  if (program_.counts_repetitions() && !game_.over) program_.apply(game_, move, game_history_);
}

template <class Program>
void MctsAgent<Program>::finish(int /*winner*/) {
  join_helpers();
  for (Tree& tree : trees_) tree.release();
  moves_since_search_.clear();
}

// The most this move may take: the agent's own budget, capped by the clock less a margin. The
// search itself stops within 2 ms of its deadline (docs/performance.md); the margin is for what
// lies outside it: the request and the reply on their way through ZeroMQ and JSON, and a thread
// the operating system wakes late on a busy machine. It is kMarginSeconds and kMarginShare of the
// limit, or, when more, twice the lag measured lately (allow_for_lag): a busy machine's delays come
// and go, and the next may be worse than the last.
template <class Program>
double MctsAgent<Program>::seconds_for_move(double seconds_left, std::optional<double>* margin_kept) const {
  double seconds = config_.seconds > 0 ? config_.seconds : config_.iterations == 0 ? 1.0 : 0.0;
  if (seconds_left <= 0) return seconds;
  // With a game total, spend a twentieth of what is left (plus most of the increment).
  double limit = time_.game_seconds > 0 ? seconds_left / 20 + 0.75 * time_.increment_seconds : seconds_left;
  // With both a total and a time per move, the move's limit still holds.
  if (time_.move_seconds > 0) limit = std::min(limit, time_.move_seconds);
  const double margin = std::max(kMarginSeconds + kMarginShare * limit, 2 * lag_seconds_);
  const double clock_limit = limit;
  limit = std::max(limit - margin, 0.001);
  seconds = seconds > 0 ? std::min(seconds, limit) : config_.iterations == 0 ? limit : 0.0;
  if (margin_kept != nullptr) *margin_kept = clock_limit - seconds;
  return seconds;
}

template <class Program>
Move MctsAgent<Program>::choose(const StateType& root, double seconds_left) {
  const auto start = Clock::now();
  join_helpers();
  root_proven_ = false;
  std::optional<double> margin;
  const double seconds = seconds_for_move(seconds_left, &margin);
  const auto after = [&](double share) {
    return start + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(share * seconds));
  };
  const auto job = std::make_shared<SearchJob>();
  job->root = root;
  job->moves_since.swap(moves_since_search_);
  const bool followed =
      !game_history_.empty() && game_.hash == root.hash && game_.ply == root.ply && game_history_.back() == root.hash;
  job->history = followed ? game_history_ : program_.start_history(root);
  job->timed = seconds > 0;
  job->choice = program_.count_moves(root) > 1;  // one legal move needs no thought
  job->deadline = after(1.0);
  job->margin = margin;
  job->copy_deadline = after(kRerootShare);  // re-rooting may spend a tenth of the move's time
  job->iterations = config_.iterations;
  job->totals.resize(trees_.size());
  job->finished.assign(trees_.size(), false);
  for (std::size_t t = 1; t < trees_.size(); ++t)
    helpers_.emplace_back([this, job, t] {
      run_thread(*job, t);
      {
        const std::lock_guard lock(job->mutex);
        job->finished[t] = true;
        ++job->helpers_finished;
      }
      job->helper_done.notify_one();
    });
  run_thread(*job, 0);
  const std::vector<bool> merged = wait_for_helpers(*job);
  rethrow_search_error(*job);
  if (!job->choice) trees_[0].iterate(job->timed ? &job->deadline : nullptr);  // expands the root, to report its move

  SearchReport report;
  report.threads = 0;
  for (std::size_t t = 0; t < trees_.size(); ++t) {
    if (!merged[t]) continue;
    const SearchTotals& part = job->totals[t];
    report.iterations += part.iterations;
    report.capped_playouts += part.capped_playouts;
    report.longest_check_gap = std::max(report.longest_check_gap, part.longest_check_gap);
    report.longest_stall = std::max(report.longest_stall, part.longest_stall);
    report.nodes += trees_[t].size();
    report.bytes += trees_[t].bytes();
    if (report.proof == Proof::Unknown) report.proof = trees_[t].proof_for_chooser(trees_[t].root());
    ++report.threads;
  }
  const std::vector<RootChild> children = merged_root_children(merged);
  // A root with more moves than the memory budget holds nodes has no children to choose from.
  const RootChild best = children.empty() ? RootChild{first_move(root)} : children[best_of(children)];
  report.seconds = std::chrono::duration<double>(Clock::now() - start).count();
  report.time_limit = seconds;
  report.best = best.move;
  report.best_text = program_.move_text(best.move);
  std::uint64_t total_visits = 0;
  for (const RootChild& child : children) total_visits += child.visits;
  report.visit_share = total_visits ? static_cast<double>(best.visits) / static_cast<double>(total_visits) : 0;
  report.value = best.visits ? best.value / static_cast<double>(best.visits) : 0;
  report.principal = principal_line(best.move);
  report_ = std::move(report);
  return best.move;
}

// Thread t re-roots its own tree, then searches it for its share of the iterations (the shares
// add up to the budget exactly). An error of the rules (RunawayRule) ends the thread's search and
// is kept for choose() to throw: an exception that leaves a helper thread would end the process.
template <class Program>
void MctsAgent<Program>::run_thread(SearchJob& job, std::size_t t) {
  try {
    trees_[t].set_root(job.root, job.moves_since, job.timed ? &job.copy_deadline : nullptr, &job.history);
    const std::uint64_t quota = job.iterations ? (job.iterations + t) / trees_.size() : 0;
    if (job.choice && (job.iterations == 0 || quota > 0))
      job.totals[t] = search(trees_[t], job.timed ? &job.deadline : nullptr, job.margin, quota);
  } catch (...) {
    const std::lock_guard lock(job.mutex);
    if (!job.error) job.error = std::current_exception();
    root_proven_ = true;  // stops the other threads at their next iteration
  }
}

// Throws the error a thread of the search met, once every thread has stopped. The trees may be
// left half updated, so the agent cannot search again; the game it plays cannot go on anyway.
template <class Program>
void MctsAgent<Program>::rethrow_search_error(SearchJob& job) {
  std::unique_lock lock(job.mutex);
  if (!job.error) return;
  lock.unlock();
  join_helpers();
  std::rethrow_exception(job.error);
}

// Which trees the choice merges: the first thread's, and each helper's that finished in time. An
// iteration budget waits for every helper, so its searches stay exact; a clock waits no longer
// than kHelperGrace past the deadline, so a helper the operating system did not run then (another
// process took its core) cannot make the reply late: its tree sits this move out, and its thread
// is joined before the tree is used again.
template <class Program>
std::vector<bool> MctsAgent<Program>::wait_for_helpers(SearchJob& job) {
  std::unique_lock lock(job.mutex);
  const std::size_t helpers = trees_.size() - 1;
  const auto all_finished = [&] { return job.helpers_finished == helpers; };
  if (job.timed)
    job.helper_done.wait_until(lock, std::max(job.deadline, Clock::now()) + kHelperGrace, all_finished);
  else
    job.helper_done.wait(lock, all_finished);
  std::vector<bool> merged = job.finished;
  merged[0] = true;
  const bool done = all_finished();
  lock.unlock();
  if (done) join_helpers();
  return merged;
}

template <class Program>
void MctsAgent<Program>::join_helpers() {
  for (std::thread& helper : helpers_) helper.join();
  helpers_.clear();
}

template <class Program>
Move MctsAgent<Program>::first_move(const StateType& state) const {
  MoveList moves;
  program_.legal_moves(state, moves);
  return moves.front();
}

namespace detail {
// The CPU time the calling thread has used, in seconds.
inline double thread_cpu_seconds() {
  timespec used{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &used);
  return static_cast<double>(used.tv_sec) + 1e-9 * static_cast<double>(used.tv_nsec);
}
}  // namespace detail

// Runs iterations on one tree until the quota (0: none) or the deadline (nullptr: none), or until
// any tree proves the root. The clock is read before every iteration and, inside playouts, every
// PlayoutPolicy::kDeadlinePlies plies: the wait for a deadline is bounded by the time of one
// selection and expansion, or of those plies, however slow the game's iterations are.
// A busy machine also keeps the thread from running now and then: every kStallWindowSeconds or
// more, the wall time less the thread's CPU time says for how long. The same stall may come again
// between the search's end and the reply, so against a clock the search keeps twice the longest
// one seen before its deadline, less the `margin` the deadline already keeps (the first move of a
// match on a machine at six times its cores lost on time before: the lag the referee reports comes
// later). Without a clock, `margin` is none and the deadline is the agent's own to spend.
template <class Program>
typename MctsAgent<Program>::SearchTotals MctsAgent<Program>::search(Tree& tree, const Clock::time_point* deadline,
                                                                     std::optional<double> margin,
                                                                     std::uint64_t quota) {
  SearchTotals totals;
  const std::uint64_t capped_before = tree.capped_playouts();
  auto last_check = Clock::now();
  auto window_start = last_check;
  double window_cpu = deadline != nullptr ? detail::thread_cpu_seconds() : 0;
  Clock::time_point stop = deadline != nullptr ? *deadline : Clock::time_point{};
  while (quota == 0 || totals.iterations < quota) {
    if (root_proven_.load(std::memory_order_relaxed)) break;
    if (deadline != nullptr) {
      const auto now = Clock::now();
      totals.longest_check_gap =
          std::max(totals.longest_check_gap, std::chrono::duration<double>(now - last_check).count());
      last_check = now;
      if (const double window = std::chrono::duration<double>(now - window_start).count();
          window >= kStallWindowSeconds) {
        const double cpu = detail::thread_cpu_seconds();
        if (const double stall = window - (cpu - window_cpu); stall > totals.longest_stall) {
          totals.longest_stall = stall;
          const double keep = margin ? std::max(2 * stall - *margin, 0.0) : 0.0;
          stop = *deadline - std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(keep));
        }
        window_start = now;
        window_cpu = cpu;
      }
      if (now >= stop) break;
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
std::vector<typename MctsAgent<Program>::RootChild> MctsAgent<Program>::merged_root_children(
    const std::vector<bool>& merged) const {
  std::vector<RootChild> children;
  for (std::size_t t = 0; t < trees_.size(); ++t) {
    if (!merged[t]) continue;
    const Tree& tree = trees_[t];
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
