// One game between agents (one a player) as the referee runs it: the position, the clocks, the move owed and
// how the game ended. No sockets: the referee hands it each reply with the time it arrived and
// sends what it asks for, so the rules of docs/protocol.md (section "move") live here alone.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "referee/board.h"
#include "referee/protocol.h"

namespace troyka::referee {

using SteadyClock = std::chrono::steady_clock;

// A finished game as the results file keeps it.
struct GameResult {
  int game = 0;  // its number in the schedule, from 1
  MatchOutcome outcome;
  std::vector<std::int64_t> times_ms;  // by move
  std::string started;                 // UTC, ISO 8601
  double seconds = 0;
};

// Ends a game of two players with `player` forfeiting: the opponent wins, and the reason says why.
void set_forfeit(MatchOutcome& outcome, int player, ForfeitCode code, std::string detail);

class Match {
 public:
  // The game starts now, and with it the first player's clock.
  // A game still going after `max_plies` plies is stopped there as a draw (ply_cap_reason). A rule
  // that runs away while the game is played (RunawayRule) stops it too, as a draw that says so: the
  // rule file is at fault, not an agent, and the tournament goes on.
  Match(std::string id, int game, const std::vector<std::string>& agents, std::shared_ptr<const Game> rules,
        const ClockSettings& clock, std::uint32_t max_plies, SteadyClock::time_point now);

  const std::string& id() const { return outcome_.match; }
  int game() const { return game_; }
  const std::vector<std::string>& agents() const { return outcome_.agents; }
  const std::vector<std::string>& players() const { return outcome_.players; }
  // The player `agent` plays, or -1.
  int player_of(const std::string& agent) const;
  bool over() const { return over_; }
  // The player who owes a move, while the game is not over.
  int to_move() const { return board_->to_move(); }
  // When the move owed must have arrived.
  SteadyClock::time_point deadline() const { return deadline_; }
  // When the move owed was asked for.
  SteadyClock::time_point requested() const { return requested_; }
  // How many moves have been asked for so far: it changes when a new request is owed.
  std::uint64_t requests() const { return requests_; }

  // The request for the move owed, with the time left until its deadline as seen at `now`.
  MoveRequest request(SteadyClock::time_point now) const;

  // A move from `agent` that arrived at `now`. Plays it, or ends the game with a forfeit, or (for a
  // message that does not count as the reply owed) returns the error to answer with.
  std::optional<Problem> receive(const std::string& agent, const MoveReply& reply, SteadyClock::time_point now);

  // `player` forfeits at `now`. With two players the game ends; with more, `player` is out, ranked
  // below those still playing, and the game goes on for the others while two are left. A forfeit of
  // a player out already, or once the game is over, changes nothing.
  void forfeit(int player, ForfeitCode code, std::string detail, SteadyClock::time_point now);
  // Forfeits the player to move on time if the move owed is late at `now`; returns whether it did.
  bool check_time(SteadyClock::time_point now);

  // The match so far (id, players, agents, moves); once over, also how it ended.
  const MatchOutcome& outcome() const { return outcome_; }
  GameResult result() const;

 private:
  // The most the move owed by `player` may take from now on, in ms.
  std::int64_t allowance(int player) const;
  void start_clock(SteadyClock::time_point now);
  // Adds the move `player` played, and the time it took, to the game.
  void record_move(int player, const std::string& move, SteadyClock::time_point now);
  void finish_if_over(SteadyClock::time_point now);
  void stop(std::string reason);
  void stop_on_rule_error(const std::exception& error);

  int game_;
  std::unique_ptr<MatchBoard> board_;
  std::vector<std::string> legal_;  // the moves of the player to move, listed once per position
  ClockSettings clock_;
  std::uint32_t max_plies_;
  std::vector<std::int64_t> total_left_ms_;           // by player, with a game total
  std::vector<std::optional<std::int64_t>> last_ms_;  // by player: the time its previous move took
  std::vector<bool> out_;                             // by player: forfeited
  SteadyClock::time_point started_, requested_, deadline_;
  std::string started_utc_;
  std::vector<std::int64_t> times_ms_;
  MatchOutcome outcome_;
  bool over_ = false;
  std::uint64_t requests_ = 0;
};

}  // namespace troyka::referee
