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
  outcome.winner = 1 - player;
  outcome.reason = fmt::format("{} forfeits: {}", outcome.players[index], detail);
  outcome.forfeit = Forfeit{player, outcome.agents[index], code, std::move(detail)};
}

Match::Match(std::string id, int game, const std::array<std::string, lang::kPlayers>& agents,
             std::shared_ptr<const Game> rules, const ClockSettings& clock, std::uint32_t max_plies,
             SteadyClock::time_point now)
    : game_(game), clock_(clock), max_plies_(max_plies), started_(now), started_utc_(utc_now()) {
  outcome_.match = std::move(id);
  outcome_.agents = agents;
  for (int player = 0; player < lang::kPlayers; ++player)
    outcome_.players[static_cast<std::size_t>(player)] = rules->rules().players[static_cast<std::size_t>(player)].name;
  total_left_ms_.fill(clock.total_ms);
  board_ = make_board(std::move(rules));
  finish_if_over();  // a game may be over before it starts: no legal move for the first player
  if (!over_) start_clock(now);
}

int Match::player_of(const std::string& agent) const {
  for (int player = 0; player < lang::kPlayers; ++player)
    if (outcome_.agents[static_cast<std::size_t>(player)] == agent) return player;
  return -1;
}

std::int64_t Match::allowance(int player) const {
  const std::int64_t total = total_left_ms_[static_cast<std::size_t>(player)];
  if (clock_.move_ms == 0) return total;
  if (clock_.total_ms == 0) return clock_.move_ms;
  return std::min(clock_.move_ms, total);
}

void Match::start_clock(SteadyClock::time_point now) {
  requested_ = now;
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
  if (clock_.total_ms > 0) {
    request.total_ms = total_left_ms_[static_cast<std::size_t>(mover)];
    request.opponent_total_ms = total_left_ms_[static_cast<std::size_t>(1 - mover)];
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
    forfeit(player, ForfeitCode::MalformedReply, "malformed reply: " + reply.malformed);
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
    forfeit(player, ForfeitCode::IllegalMove, fmt::format("illegal move '{}' ({})", echoed(reply.move), error));
    return std::nullopt;
  }
  record_move(player, reply.move, now);
  finish_if_over();
  if (!over_) start_clock(now);
  return std::nullopt;
}

void Match::record_move(int player, const std::string& move, SteadyClock::time_point now) {
  const std::int64_t took = milliseconds(now - requested_);
  times_ms_.push_back(took);
  outcome_.moves.push_back(move);
  if (clock_.total_ms > 0) total_left_ms_[static_cast<std::size_t>(player)] += clock_.increment_ms - took;
}

bool Match::check_time(SteadyClock::time_point now) {
  if (over_ || now <= deadline_) return false;
  forfeit(to_move(), ForfeitCode::TimeForfeit,
          fmt::format("no move within {} ms", milliseconds(deadline_ - requested_)));
  return true;
}

void Match::forfeit(int player, ForfeitCode code, std::string detail) {
  if (over_) return;
  set_forfeit(outcome_, player, code, std::move(detail));
  over_ = true;
}

// Ends the game when its rules say it is over or it reached the ply cap; else lists the moves for
// the next request. Both may run the rules of the general back end, which may run away.
void Match::finish_if_over() {
  try {
    if (board_->over()) {
      outcome_.winner = board_->winner();
      outcome_.reason = board_->end_reason();
      over_ = true;
    } else if (outcome_.moves.size() >= max_plies_) {
      outcome_.winner = kDraw;
      outcome_.reason = ply_cap_reason(static_cast<std::uint32_t>(outcome_.moves.size()));
      over_ = true;
    } else {
      legal_ = board_->legal_moves();
    }
  } catch (const RunawayRule& runaway) {
    stop_on_rule_error(runaway);
  }
}

void Match::stop_on_rule_error(const std::exception& error) {
  outcome_.winner = kDraw;
  outcome_.reason = fmt::format("stopped by an error in the rules: {}", error.what());
  over_ = true;
}

GameResult Match::result() const {
  const double seconds = std::chrono::duration<double>(SteadyClock::now() - started_).count();
  return GameResult{game_, outcome_, times_ms_, started_utc_, seconds};
}

}  // namespace troyka::referee
