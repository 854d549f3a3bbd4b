// One Monte Carlo search tree, grown by one thread: UCT selection, an MCTS-Solver, playouts with
// decisive and anti-decisive moves, a move-value table learned from playouts (MAST), and re-rooting
// so the part of the tree that follows the moves played is kept for the next search.
//
// The tree is a flat pool (NodeArena): children addressed by index and stored contiguously, so
// growing the tree never allocates per node and selection scans one run of memory. The pool never
// moves, so no search stops for the size of its tree. Nodes hold no state: an iteration copies the
// root state and applies the moves on its way down. The pool has a bound: when full, leaves are no
// longer expanded, only played out.
//
// Under a clock, every part of a search is bounded in time, not in iterations: re-rooting copies
// the kept subtree only until its own deadline, and a playout reads the search's deadline every
// few plies and is dropped, unfinished and unlearnt from, when it passes (iterate() says so).
//
// An iteration:
//   1. select: from the root, take the child with the best UCB1 score, an unvisited child first,
//      never a child proven lost for the player choosing;
//   2. expand: a node reached for the second time gets all its children at once, one per legal move
//      (the first time it only gets a playout, so the tree grows by one expansion per iteration);
//   3. simulate: a playout from the reached node (PlayoutPolicy), unless the node is proven or
//      terminal, in which case its true result is used;
//   4. back up: every node on the path counts the visit and adds the result of the player who played
//      the move into it; the solver then proves what it can upwards from the leaf; MAST adds the
//      result to every move of the iteration, tree and playout.
//
// UCB1 score of a child: mean + c * sqrt(ln(parent visits) / child visits), mean in [0, 1].
//
// The solver (Winands, Bjornsson and Saito, 2008): a terminal node is proven by its result; a node
// whose player to move has a proven winning child is a proven win for that player; a node whose
// children are all proven is worth the best of them. Proven nodes are never searched below again,
// and a proven root ends the search. It proves two-player games only.
//
// With more than two players the search is max^n style: a result is one utility per player
// (Program::utility: its rank among the players, from 0 to 1), and each node adds the utility of
// the player who moved into it, who is the one choosing it at its parent.
#pragma once

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <limits>
#include <vector>

#include "agents/agent.h"
#include "agents/node_arena.h"

namespace troyka::agents {

// What an MCTS search does, switch by switch (each one measurable on its own).
struct SearchOptions {
  double c = 0.7;        // UCB1 exploration constant, for results in [0, 1]
  bool solver = true;    // prove wins and losses
  bool decisive = true;  // decisive and anti-decisive moves in playouts
  bool mast = true;      // playouts prefer moves that did well (MAST, tournament of two)
  bool reuse = true;     // keep the subtree of the moves played between searches
  std::size_t max_nodes = std::size_t{1} << 23;
  // A playout that reaches this many plies (0: the game's Program::playout_cap()) stops and counts
  // as a draw, so a game that can go on forever still gives results (SearchTree::capped_playouts
  // counts them).
  std::uint32_t max_playout_plies = 0;
};

inline Proof flipped(Proof proof) {
  return proof == Proof::Win ? Proof::Loss : proof == Proof::Loss ? Proof::Win : proof;
}

// Whether a move with `proof`, `visits` and result sum `value` is a better final choice than one
// with `other_*`: a proven win first and a proven loss last, then more visits, then more value.
inline bool better_choice(Proof proof, std::uint64_t visits, double value, Proof other_proof,
                          std::uint64_t other_visits, double other_value) {
  const auto rank = [](Proof p) { return p == Proof::Win ? 2 : p == Proof::Loss ? 0 : 1; };
  if (rank(proof) != rank(other_proof)) return rank(proof) > rank(other_proof);
  return visits > other_visits || (visits == other_visits && value > other_value);
}

template <class Program>
class SearchTree {
 public:
  using StateType = typename Program::StateType;
  using Clock = std::chrono::steady_clock;
  using Results = std::array<double, kMaxPlayers>;  // by player, from 0 to 1

  struct Node {
    Move move;                     // the move into this node (none for the root)
    std::uint8_t mover = 0;        // the player who played `move`
    Proof proof = Proof::Unknown;  // this node's proven result for `mover`
    std::uint32_t first_child = 0;
    std::uint32_t child_count = 0;  // 0 while not expanded
    std::uint32_t visits = 0;
    double value = 0;  // sum of the results of `mover`
  };
  // 40 bytes: the move is 16 (the pieces a chain of jumps captures take 8 of them).
  static_assert(sizeof(Node) == 40, "a node grows only with Move");

  SearchTree(const Program& program, const SearchOptions& options, std::uint64_t seed)
      : program_(program),
        options_(options),
        rng_(seed),
        nodes_(options.max_nodes),
        // With reuse, the last fifth of the pool is kept free for re-rooting, which copies the kept
        // subtree there before moving it to the front.
        grow_limit_(options.reuse ? nodes_.capacity() - nodes_.capacity() / 5 : nodes_.capacity()),
        solves_(options.solver && program.player_count() == kPlayers) {
    if (options_.mast) {
      mast_means_.assign(program.move_key_count(), 1.0F);  // unseen moves look good, so playouts try them
      mast_counts_.assign(program.move_key_count(), 0.0F);
    }
  }

  // Searches from `root` next. With reuse on, the subtree reached from the current root by
  // `moves_since` is kept when it leads to `root`, as much of it as fits and as can be copied
  // before `copy_deadline` (nullptr: no deadline); otherwise the tree starts afresh.
  // `history` is the game's up to `root` (null: the root alone): a (repetition N) rule counts
  // positions in it and along each path of the tree.
  void set_root(const StateType& root, const std::vector<Move>& moves_since, const Clock::time_point* copy_deadline,
                const History* history = nullptr);
  // One iteration; with a deadline, false when the deadline passed during its playout, which is
  // then dropped: nothing is backed up from an unfinished game.
  bool iterate(const Clock::time_point* deadline = nullptr);
  // Gives the node pool's memory back; the next set_root starts afresh. The MAST table stays, as
  // what it learnt about moves may serve the next game too. It takes time in proportion to the
  // memory the tree held: call it off the clock.
  void release() { nodes_.release(); }

  const StateType& root_state() const { return root_state_; }
  const Node& root() const { return nodes_[0]; }
  const Node& node(std::uint32_t index) const { return nodes_[index]; }
  // Where the nodes live: it never changes, however the tree grows.
  const Node* storage() const { return nodes_.data(); }
  std::size_t size() const { return nodes_.size(); }
  std::size_t capacity() const { return nodes_.capacity(); }
  std::size_t bytes() const { return nodes_.bytes() + 2 * mast_means_.size() * sizeof(float); }
  // Playouts stopped by SearchOptions::max_playout_plies since the tree was made.
  std::uint64_t capped_playouts() const { return capped_playouts_; }
  // The proven result of `parent` for the player to move there, from its children's proofs.
  Proof proof_for_chooser(const Node& parent) const;
  // The index of the most visited child, proven wins first and proven losses last.
  std::uint32_t most_visited_child(const Node& parent) const;

 private:
  void reset(const StateType& root);
  bool follow(const std::vector<Move>& moves, std::uint32_t& index) const;
  bool keep_subtree(std::uint32_t index, const Clock::time_point* deadline);
  bool expand(std::uint32_t index, const StateType& state);
  std::uint32_t select_child(const Node& parent) const;
  void back_up(const Results& results);
  void prove_upwards();
  void learn_moves(const Results& results);
  void decay_mast();

  const Program& program_;
  SearchOptions options_;
  Rng rng_;
  StateType root_state_{};
  History root_history_;    // the game's up to the root, in a game with a repetition rule
  History history_;         // the current iteration's: root_history_ and the path so far
  NodeArena<Node> nodes_;   // nodes_[0] is the root
  std::size_t grow_limit_;  // leaves below the root are expanded only while the pool holds fewer nodes
  bool solves_;             // the solver is on, and the game has two players
  std::uint64_t capped_playouts_ = 0;
  std::vector<std::uint32_t> path_;
  std::vector<PlayedMove> played_;  // the moves of the current iteration, for MAST
  // MAST, by Program::move_key: a move's mean result for its mover over the iterations that played
  // it, and how many those were (decayed between searches).
  std::vector<float> mast_means_, mast_counts_;
  MoveList moves_;
};

template <class Program>
void SearchTree<Program>::set_root(const StateType& root, const std::vector<Move>& moves_since,
                                   const Clock::time_point* copy_deadline, const History* history) {
  decay_mast();
  if (program_.counts_repetitions()) root_history_ = history ? *history : program_.start_history(root);
  std::uint32_t index = 0;
  if (!options_.reuse || nodes_.empty() || !follow(moves_since, index)) return reset(root);
  StateType expected = root_state_;
  for (const Move move : moves_since) program_.apply(expected, move);
  const bool same = expected.hash == root.hash && expected.ply == root.ply && expected.to_move == root.to_move &&
                    expected.by_player == root.by_player && expected.by_piece == root.by_piece;
  if (!same) return reset(root);
  if (!keep_subtree(index, copy_deadline)) return reset(root);
  root_state_ = root;
}

template <class Program>
void SearchTree<Program>::reset(const StateType& root) {
  root_state_ = root;
  nodes_.clear();
  const int players = program_.player_count();  // the player before the one to move; only read for reports
  nodes_.push(1)->mover = static_cast<std::uint8_t>((root.to_move + players - 1) % players);
}

// Walks `moves` down from the root; false when the tree does not reach that far.
template <class Program>
bool SearchTree<Program>::follow(const std::vector<Move>& moves, std::uint32_t& index) const {
  index = 0;
  for (const Move move : moves) {
    const Node& parent = nodes_[index];
    const Node* const children = &nodes_[parent.first_child];
    const Node* const found =
        std::find_if(children, children + parent.child_count, [&](const Node& child) { return child.move == move; });
    if (found == children + parent.child_count) return false;
    index = static_cast<std::uint32_t>(found - nodes_.data());
  }
  return true;
}

// Makes node `index` the root, keeping as much of its subtree as the pool's free space holds and
// the deadline allows: copied there breadth first (children stay contiguous, the top of the tree
// comes first), then moved to the front. A node whose children were not copied keeps its
// statistics and is expanded again when next reached. The time this takes is bounded by the free
// space and by the deadline (read every kCopyCheckNodes nodes), never by the size of the tree.
// False when the pool is full, with no room to copy into: the caller starts afresh.
template <class Program>
bool SearchTree<Program>::keep_subtree(std::uint32_t index, const Clock::time_point* deadline) {
  constexpr std::size_t kCopyCheckNodes = 4096;
  if (index == 0) return true;
  const std::size_t base = nodes_.size();
  Node* const kept = nodes_.push(1);
  if (kept == nullptr) return false;  // a full pool: no room to copy into
  *kept = nodes_[index];
  bool copying = true;
  std::size_t next_check = kCopyCheckNodes;
  for (std::size_t i = base; i < nodes_.size(); ++i) {
    Node& node = nodes_[i];
    if (node.child_count == 0) continue;
    Node* const children = copying ? nodes_.push(node.child_count) : nullptr;
    if (children == nullptr) {
      copying = false;
      node.child_count = 0;
      continue;
    }
    std::memcpy(static_cast<void*>(children), &nodes_[node.first_child], node.child_count * sizeof(Node));
    node.first_child = static_cast<std::uint32_t>(children - kept);  // its index once moved to the front
    if (deadline != nullptr && nodes_.size() - base >= next_check) {
      next_check += kCopyCheckNodes;
      copying = Clock::now() < *deadline;
    }
  }
  nodes_.keep_only(base, nodes_.size() - base);
  return true;
}

template <class Program>
bool SearchTree<Program>::iterate(const Clock::time_point* deadline) {
  StateType state = root_state_;
  if (program_.counts_repetitions()) history_ = root_history_;
  path_.assign(1, 0);
  played_.clear();
  std::uint32_t index = 0;
  while (!state.over && nodes_[index].proof == Proof::Unknown) {
    if (nodes_[index].child_count == 0 && ((nodes_[index].visits == 0 && index != 0) || !expand(index, state))) break;
    index = select_child(nodes_[index]);
    Node& child = nodes_[index];
    program_.apply(state, child.move, history_);
    if (options_.mast) played_.push_back(PlayedMove{child.move, child.mover});
    path_.push_back(index);
    if (solves_ && state.over)
      child.proof = state.winner == kDraw                           ? Proof::Draw
                    : state.winner == static_cast<int>(child.mover) ? Proof::Win
                                                                    : Proof::Loss;
  }
  Results results{};
  const Node& leaf = nodes_[index];
  if (leaf.proof != Proof::Unknown) {
    const double mover_result = leaf.proof == Proof::Win ? 1 : leaf.proof == Proof::Loss ? 0 : 0.5;
    results[leaf.mover] = mover_result;
    results[1 - leaf.mover] = 1 - mover_result;
  } else {
    PlayoutPolicy policy;
    policy.decisive = policy.anti_decisive = options_.decisive;
    if (options_.mast) {
      policy.move_values = mast_means_.data();
      policy.played = &played_;
    }
    policy.max_plies = options_.max_playout_plies ? options_.max_playout_plies : program_.playout_cap();
    policy.deadline = deadline;
    if (program_.counts_repetitions()) policy.history = &history_;
    const std::uint32_t plies = program_.playout(state, rng_, policy);
    if (!state.over && plies < policy.max_plies) return false;  // stopped by the deadline
    capped_playouts_ += !state.over;
    for (int player = 0; player < program_.player_count(); ++player)
      results[static_cast<std::size_t>(player)] = program_.utility(state, player);
  }
  back_up(results);
  if (solves_ && leaf.proof != Proof::Unknown) prove_upwards();
  if (options_.mast) learn_moves(results);
  return true;
}

template <class Program>
bool SearchTree<Program>::expand(std::uint32_t index, const StateType& state) {
  program_.legal_moves(state, moves_);
  if (moves_.empty()) return false;
  // The root may use the whole pool, so a search has moves to choose from even in a full tree.
  if (index != 0 && nodes_.size() + moves_.size() > grow_limit_) return false;
  const auto first = static_cast<std::uint32_t>(nodes_.size());
  Node* const children = nodes_.push(moves_.size());
  if (children == nullptr) return false;
  for (std::size_t i = 0; i < moves_.size(); ++i) {
    children[i].move = moves_[i];
    children[i].mover = state.to_move;
  }
  nodes_[index].first_child = first;
  nodes_[index].child_count = static_cast<std::uint32_t>(moves_.size());
  return true;
}

template <class Program>
std::uint32_t SearchTree<Program>::select_child(const Node& parent) const {
  const std::uint32_t end = parent.first_child + parent.child_count;
  const double log_visits = std::log(static_cast<double>(std::max(parent.visits, 1u)));
  std::uint32_t best = parent.first_child;
  double best_score = -std::numeric_limits<double>::infinity();
  for (std::uint32_t i = parent.first_child; i < end; ++i) {
    const Node& child = nodes_[i];
    if (child.proof == Proof::Loss) continue;  // never walk into a proven loss
    if (child.visits == 0) return i;
    const double visits = child.visits;
    const double mean = child.proof == Proof::Draw ? 0.5 : child.value / visits;
    const double score = mean + options_.c * std::sqrt(log_visits / visits);
    if (score > best_score) {
      best_score = score;
      best = i;
    }
  }
  return best;
}

template <class Program>
void SearchTree<Program>::back_up(const Results& results) {
  for (const std::uint32_t index : path_) {
    Node& node = nodes_[index];
    ++node.visits;
    node.value += results[node.mover];
  }
}

// The leaf of the path is proven: proves its ancestors while their children's proofs decide them.
template <class Program>
void SearchTree<Program>::prove_upwards() {
  for (std::size_t i = path_.size() - 1; i-- > 0;) {
    Node& node = nodes_[path_[i]];
    const Proof for_chooser = proof_for_chooser(node);
    if (for_chooser == Proof::Unknown) return;
    const std::uint8_t chooser = nodes_[node.first_child].mover;
    node.proof = chooser == node.mover ? for_chooser : flipped(for_chooser);
  }
}

template <class Program>
Proof SearchTree<Program>::proof_for_chooser(const Node& parent) const {
  if (parent.child_count == 0) return Proof::Unknown;
  bool all_proven = true, any_draw = false;
  for (std::uint32_t i = parent.first_child; i < parent.first_child + parent.child_count; ++i) {
    const Proof proof = nodes_[i].proof;
    if (proof == Proof::Win) return Proof::Win;
    all_proven = all_proven && proof != Proof::Unknown;
    any_draw = any_draw || proof == Proof::Draw;
  }
  if (!all_proven) return Proof::Unknown;
  return any_draw ? Proof::Draw : Proof::Loss;
}

template <class Program>
std::uint32_t SearchTree<Program>::most_visited_child(const Node& parent) const {
  std::uint32_t best = parent.first_child;
  for (std::uint32_t i = parent.first_child + 1; i < parent.first_child + parent.child_count; ++i) {
    const Node& child = nodes_[i];
    const Node& leader = nodes_[best];
    if (better_choice(child.proof, child.visits, child.value, leader.proof, leader.visits, leader.value)) best = i;
  }
  return best;
}

template <class Program>
void SearchTree<Program>::learn_moves(const Results& results) {
  for (const PlayedMove& played : played_) {
    const std::size_t key = program_.move_key(played.mover, played.move);
    mast_counts_[key] += 1;
    mast_means_[key] += (static_cast<float>(results[played.mover]) - mast_means_[key]) / mast_counts_[key];
  }
}

// Between searches old experience counts half, so the table follows the game as it changes.
template <class Program>
void SearchTree<Program>::decay_mast() {
  for (float& count : mast_counts_) count *= 0.5F;
}

}  // namespace troyka::agents
