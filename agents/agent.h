// Agents: whatever chooses a move in a position. They see a game only through the generic Program
// API (legal_moves, apply, playout, result, ...) and never look at rules or name a game.
//
// The design: `Agent<Program>` is a class template over the program type, one instantiation per
// bitboard width. A caller reaches the typed program once through Game::visit and makes typed
// agents there:
//
//   game.visit([&](const auto& program) {
//     auto agent = troyka::agents::make_agent(troyka::agents::parse_agent_spec("mcts:time=1s"), program);
//     agent->start(0);
//     const troyka::Move move = agent->choose(program.initial_state());
//   });
//
// The interface is virtual per *decision* (choose, observe), never per node: inside choose, the
// search loop is a template over Program, so every legal_moves / apply / playout call is direct and
// inlinable. The alternative, a type-erased state (std::variant of State<Words>) behind one
// non-template Agent, would need a visit per call and a width check in every agent, for no gain:
// every caller already has the typed program in hand inside Game::visit.
//
// A spec ("mcts:iterations=20000,c=0.7,seed=3") is parsed and checked without a game, so a command
// line is rejected before anything is loaded.
#pragma once

#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "interpreter/program.h"

namespace troyka::agents {

// An agent's name and its options as typed, e.g. {"mcts", {{"c", "0.7"}, {"iterations", "20000"}}}.
struct AgentSpec {
  std::string name;
  std::map<std::string, std::string> options;
};

// Parses "NAME" or "NAME:KEY=VALUE,KEY=VALUE". Checks the name, every key and every value; throws
// lang::Error (a diagnostic without a file: message and hint) on the first problem.
AgentSpec parse_agent_spec(std::string_view text);

// The spec as text, options in key order: "mcts:c=0.7,iterations=20000".
std::string spec_text(const AgentSpec& spec);

// The agent names parse_agent_spec knows, sorted.
const std::vector<std::string>& agent_names();

// Reads a duration as accepted by the `time` option: "200ms", "1.5s". Returns seconds, or nothing
// when the text is not a positive duration.
std::optional<double> parse_duration(std::string_view text);

// The clock of a game, told to an agent at start. Every field 0 means no limit of that kind.
struct TimeControl {
  double move_seconds = 0;       // the most one move may take
  double game_seconds = 0;       // each player's total time for the game
  double increment_seconds = 0;  // added to a player's total after each of its moves
};

// What a solved position is worth to the player to move there.
enum class Proof : std::uint8_t { Unknown, Win, Loss, Draw };
const char* proof_name(Proof proof);  // "unknown", "win", "loss", "draw"

// Reads a memory size as accepted by the `memory` option: "512MB", "2GB" (units of 1024). Returns
// bytes, or nothing when the text is not a size from 1MB to 1024GB.
std::optional<std::uint64_t> parse_bytes(std::string_view text);

// What one search found, for people (the CLI's thinking line) and for tests.
struct SearchReport {
  std::uint64_t iterations = 0;
  double seconds = 0;
  double time_limit = 0;  // the most the search was allowed, in seconds; 0 for an iteration budget alone
  std::size_t nodes = 0;  // nodes in the tree when the search stopped
  Move best;
  std::string best_text;               // best as move text
  double visit_share = 0;              // the best move's share of the root's visits, in [0, 1]
  double value = 0;                    // its mean result for the player to move: 0 loss, 0.5 draw, 1 win
  Proof proof = Proof::Unknown;        // the root's proven value for the player to move
  std::vector<std::string> principal;  // the expected line from here, best first, as move text
  int threads = 1;
  std::size_t bytes = 0;  // memory held by the search trees
  // The longest the search went without reading the clock, in seconds: how far past its deadline
  // it could have run. 0 for a search without a time limit.
  double longest_check_gap = 0;
  // The longest the machine kept a search thread from running, in seconds (its wall time less its
  // CPU time, over stretches of at least a millisecond): against a clock the search stopped twice
  // that before its deadline, less the margin it kept anyway. 0 for a search without a time limit.
  double longest_stall = 0;
  // Playouts cut at the ply cap (SearchOptions::max_playout_plies) in this search, counted as draws.
  std::uint64_t capped_playouts = 0;

  double iterations_per_second() const { return seconds > 0 ? static_cast<double>(iterations) / seconds : 0; }
};

// One player's brain for the games of one program. The calls of a game, in order:
//   start(player, time); then for every ply: choose(state, seconds_left) when it is this agent's
//   turn (the state is not over), and observe(move) for every move played, by either side, in
//   order; finish(winner) when the game is over or abandoned.
// An agent may be asked to choose in a state it did not follow (after an undo, say): it must then
// forget what it kept and search afresh.
template <class Program>
class Agent {
 public:
  using StateType = typename Program::StateType;

  virtual ~Agent() = default;

  // The spec this agent was made from, e.g. "mcts:iterations=2000".
  virtual std::string name() const = 0;
  // A new game begins in which this agent plays `player` under `time`. Random streams are not
  // reset: an agent that plays several games plays different ones.
  virtual void start(int player, const TimeControl& time) {
    (void)player;
    (void)time;
  }
  // The move to play in `state`, which is not over and in which this agent is to move.
  // `seconds_left` is what this agent's clock has left (for this move, or for the rest of the game
  // when the time control has a game total); 0 when there is no clock.
  virtual Move choose(const StateType& state, double seconds_left) = 0;
  // Under a referee's clock: the referee has lately counted up to `seconds` more for one move than
  // the agent meant it to take (the messages on their way, a search thread woken late on a busy
  // machine). An agent that thinks to the clock keeps more in hand from now on.
  virtual void allow_for_lag(double seconds) { (void)seconds; }
  // A move was played (by either player), so an agent can keep the part of its search that follows.
  virtual void observe(Move move) { (void)move; }
  // The game ended: `winner` is a player, kDraw, or kNoWinner when it was abandoned. An agent lets
  // go of what it kept for the game (an agent that plays many games, as a referee's client does,
  // should not hold the last game's tree while it waits for the next).
  virtual void finish(int winner) { (void)winner; }
  // The report of the last choose, for agents that search.
  virtual std::optional<SearchReport> last_report() const { return std::nullopt; }
};

// Makes the agent a spec names, for `program`, which must outlive it. `default_seed` seeds its
// random choices unless the spec sets `seed`.
template <class Program>
std::unique_ptr<Agent<Program>> make_agent(const AgentSpec& spec, const Program& program,
                                           std::uint64_t default_seed = 1);

#define TROYKA_DECLARE_MAKE_AGENT(W) \
  extern template std::unique_ptr<Agent<Program<W>>> make_agent(const AgentSpec&, const Program<W>&, std::uint64_t);
TROYKA_FOR_EACH_WIDTH(TROYKA_DECLARE_MAKE_AGENT)
#undef TROYKA_DECLARE_MAKE_AGENT

}  // namespace troyka::agents
