#include "referee/match.h"

#include <fmt/format.h>

#include <algorithm>

#include "interpreter/general.h"
#include "referee/outcome.h"

namespace troyka::referee {
namespace {

// Agents choose what they send; what is echoed into reasons and results stays short.
constexpr std::size_t kMaxEchoedMove = 40;

std::string echoed(const std::string& move) {
  return move.size() <= kMaxEchoedMove ? move : move.substr(0, kMaxEchoedMove) + "...";
}

std::int64_t milliseconds(SteadyClock::duration duration) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(duration).count();
}

}  // namespace

void set_forfeit(MatchOutcome& outcome, int player, ForfeitCode code, std::string detail) {
  const auto index = static_cast<std::size_t>(player);
  set_end(outcome, player == 0 ? Ranks{2, 1} : Ranks{1, 2},
          fmt::format("{} forfeits: {}", outcome.players[index], detail));
  outcome.forfeits.push_back(
      Forfeit{player, static_cast<std::int64_t>(outcome.moves.size()), outcome.agents[index], code, std::move(detail)});
}

Match::Match(std::string id, int game, const std::vector<std::string>& agents, std::shared_ptr<const Game> rules,
             const ClockSettings& clock, std::uint32_t max_plies, SteadyClock::time_point now)
    : game_(game), clock_(clock), max_plies_(max_plies), started_(now), started_utc_(utc_now()) {
  outcome_.match = std::move(id);
  outcome_.agents = agents;
  for (const lang::Player& player : rules->rules().players) outcome_.players.push_back(player.name);
  total_left_ms_.assign(agents.size(), clock.total_ms);
  last_ms_.assign(agents.size(), std::nullopt);
  out_.assign(agents.size(), false);
  board_ = make_board(std::move(rules));
  finish_if_over(now);  // a game may be over before it starts: no legal move for the first player
}

int Match::player_of(const std::string& agent) const {
  const auto found = std::find(outcome_.agents.begin(), outcome_.agents.end(), agent);
  return found == outcome_.agents.end() ? -1 : static_cast<int>(found - outcome_.agents.begin());
}

std::int64_t Match::allowance(int player) const {
  const std::int64_t total = total_left_ms_[static_cast<std::size_t>(player)];
  if (clock_.move_ms == 0) return total;
  if (clock_.total_ms == 0) return clock_.move_ms;
  return std::min(clock_.move_ms, total);
}

void Match::start_clock(SteadyClock::time_point now) {
  requested_ = now;
  ++requests_;
  deadline_ = now + std::chrono::milliseconds(allowance(to_move()));
}

MoveRequest Match::request(SteadyClock::time_point now) const {
  const int mover = to_move();
  MoveRequest request;
  request.match = outcome_.match;
  request.ply = static_cast<std::int64_t>(outcome_.moves.size());
  request.moves = outcome_.moves;
  request.legal = legal_;
  request.time_ms = std::max<std::int64_t>(milliseconds(deadline_ - now), 0);
  request.last_ms = last_ms_[static_cast<std::size_t>(mover)];
  if (clock_.total_ms > 0) {
    request.total_ms = total_left_ms_[static_cast<std::size_t>(mover)];
    if (total_left_ms_.size() == 2)
      request.opponent_total_ms = total_left_ms_[static_cast<std::size_t>(1 - mover)];
    else
      request.totals_ms = total_left_ms_;
  }
  return request;
}

std::optional<Problem> Match::receive(const std::string& agent, const MoveReply& reply, SteadyClock::time_point now) {
  const int player = player_of(agent);
  if (player < 0) return Problem{ErrorCode::NotYourMatch, fmt::format("you do not play in match {}", id())};
  if (over_) return Problem{ErrorCode::MatchOver, fmt::format("match {} is over", id())};
  if (player != to_move())
    return Problem{ErrorCode::NotYourTurn, fmt::format("no move of yours is awaited in match {}", id())};
  if (!reply.malformed.empty()) {
    forfeit(player, ForfeitCode::MalformedReply, "malformed reply: " + reply.malformed, now);
    return std::nullopt;
  }
  const auto ply = static_cast<std::int64_t>(outcome_.moves.size());
  if (reply.ply != ply)
    return Problem{ErrorCode::WrongPly,
                   fmt::format("the move awaited in match {} is ply {}, not {}", id(), ply, reply.ply)};
  if (check_time(now)) return std::nullopt;
  std::string error;
  try {
    error = board_->play(reply.move);
  } catch (const RunawayRule& runaway) {  // the move was legal, and the rules broke playing it
    record_move(player, reply.move, now);
    stop_on_rule_error(runaway);
    return std::nullopt;
  }
  if (!error.empty()) {
    forfeit(player, ForfeitCode::IllegalMove, fmt::format("illegal move '{}' ({})", echoed(reply.move), error), now);
    return std::nullopt;
  }
  record_move(player, reply.move, now);
  finish_if_over(now);
  return std::nullopt;
}

void Match::record_move(int player, const std::string& move, SteadyClock::time_point now) {
  const std::int64_t took = milliseconds(now - requested_);
  times_ms_.push_back(took);
  last_ms_[static_cast<std::size_t>(player)] = took;
  outcome_.moves.push_back(move);
  if (clock_.total_ms > 0) total_left_ms_[static_cast<std::size_t>(player)] += clock_.increment_ms - took;
}

bool Match::check_time(SteadyClock::time_point now) {
  if (over_ || now <= deadline_) return false;
  forfeit(to_move(), ForfeitCode::TimeForfeit,
          fmt::format("no move within {} ms", milliseconds(deadline_ - requested_)), now);
  return true;
}

void Match::forfeit(int player, ForfeitCode code, std::string detail, SteadyClock::time_point now) {
  const auto index = static_cast<std::size_t>(player);
  if (over_ || out_[index]) return;
  if (outcome_.players.size() == 2) {
    set_forfeit(outcome_, player, code, std::move(detail));
    over_ = true;
    return;
  }
  out_[index] = true;
  outcome_.forfeits.push_back(Forfeit{player, static_cast<std::int64_t>(outcome_.moves.size()), outcome_.agents[index],
                                      code, std::move(detail)});
  const int mover = to_move();
  try {
    board_->put_out(player);
  } catch (const RunawayRule& runaway) {  // asking the end rules again ran away
    stop_on_rule_error(runaway);
    return;
  }
  if (board_->over()) {
    // The reason says who forfeited last, and what that left.
    const Forfeit& last = outcome_.forfeits.back();
    set_end(outcome_, board_->ranks(),
            fmt::format("{} forfeits: {}; {}", outcome_.players[index], last.detail, board_->end_reason()));
    over_ = true;
    return;
  }
  if (mover == player) finish_if_over(now);  // the next player's move is owed, on its own clock
}

// Ends the game when its rules say it is over or it reached the ply cap; else lists the moves for
// the next request and starts the clock of the player to move. Both may run the rules of the
// general back end, which may run away.
void Match::finish_if_over(SteadyClock::time_point now) {
  try {
    if (board_->over()) {
      set_end(outcome_, board_->ranks(), board_->end_reason());
      over_ = true;
    } else if (outcome_.moves.size() >= max_plies_) {
      stop(ply_cap_reason(static_cast<std::uint32_t>(outcome_.moves.size())));
    } else {
      legal_ = board_->legal_moves();
      start_clock(now);
    }
  } catch (const RunawayRule& runaway) {
    stop_on_rule_error(runaway);
  }
}

// A game stopped before its end: those still playing share the first place, above those out.
void Match::stop(std::string reason) {
  set_end(outcome_, board_->ranks(), std::move(reason));
  over_ = true;
}

void Match::stop_on_rule_error(const std::exception& error) {
  stop(fmt::format("stopped by an error in the rules: {}", error.what()));
}

GameResult Match::result() const {
  const double seconds = std::chrono::duration<double>(SteadyClock::now() - started_).count();
  return GameResult{game_, outcome_, times_ms_, started_utc_, seconds};
}

}  // namespace troyka::referee
