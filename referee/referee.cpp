#include "referee/referee.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <cerrno>
#include <filesystem>
#include <map>
#include <optional>
#include <ostream>
#include <random>
#include <set>
#include <zmq.hpp>

#include "lang/termination.h"
#include "referee/load_stats.h"
#include "referee/match.h"
#include "referee/outcome.h"
#include "referee/results.h"
#include "referee/standings.h"

namespace troyka::referee {
namespace {

using TimePoint = SteadyClock::time_point;
using Milliseconds = std::chrono::milliseconds;

// Messages read in a row before deadlines are looked at again, so a flood cannot hold up clocks.
constexpr int kMaxMessagesPerRound = 256;
// How long closing the socket may wait for the last messages (the byes) to leave.
constexpr int kLingerMs = 1000;

// From the system's random source (getrandom on Linux): session secrets must not be guessable
// from the ids and secrets other agents see.
std::string random_hex(std::random_device& random, int digits) {
  std::string text;
  while (static_cast<int>(text.size()) < digits) text += fmt::format("{:08x}", random());
  return text.substr(0, static_cast<std::size_t>(digits));
}

lang::Error setup_error(const std::string& message, std::string hint) {
  return lang::Error(lang::Diagnostic{nullptr, {}, message, std::move(hint)});
}

lang::Error too_few_agents(std::size_t agents, int players) {
  return setup_error(fmt::format("{} agents cannot play a game of {} players", agents, players),
                     fmt::format("name at least {} agents", players));
}

// The results file, once it is known that the tournament has enough agents: named, to come, or in
// the file already. Checked before the file is opened, which creates it.
const std::string& checked_results_path(const RefereeOptions& options, const Game& game) {
  if (game.rules().player_count() == 1)  // a tournament's standings rank agents against each other
    throw setup_error(
        fmt::format("{} is a game of one player: the referee runs games of two players or more", game.rules().name),
        "play a puzzle with troyka play --white AGENT, or troyka bench");
  const auto entrants = options.agents.empty() ? static_cast<std::size_t>(options.expect) : options.agents.size();
  if (entrants > 0 && entrants < static_cast<std::size_t>(game.rules().player_count()))
    throw too_few_agents(entrants, game.rules().player_count());
  std::error_code error;
  const bool has_lines = std::filesystem::file_size(options.results, error) > 0 && !error;
  if (options.agents.empty() && options.expect == 0 && !has_lines)
    throw setup_error("which agents play? name them with --agents, or take the first N to come with --expect N",
                      "a results file of an earlier run also names them");
  return options.results;
}

// One registration: an agent's name bound to the connection it last said hello on.
struct Session {
  std::string peer;   // the connection's ZeroMQ routing id
  std::string token;  // the `session` secret of its welcome
  TimePoint last_heard;
};

// What the referee knows of an entrant beyond its registration.
struct Entrant {
  std::optional<TimePoint> left;  // when its registration ended, while it is away
  int playing = 0;                // matches in progress
};

enum class GameState { Pending, Running, Done };

// "Breakthrough (width=5 height=5)"
std::string game_title(const GameInfo& game) {
  std::string details = game.variant.empty() ? "" : fmt::format("variant \"{}\"", game.variant);
  for (const auto& [name, value] : game.params)
    details += fmt::format("{}{}={}", details.empty() ? "" : " ", name, value);
  return details.empty() ? game.name : fmt::format("{} ({})", game.name, details);
}

class Referee {
 public:
  Referee(const RefereeOptions& options, const LoadedGame& game, std::ostream& out, std::ostream& log);
  int run();

 private:
  // ---- the tournament ----
  void fix_entrants(const std::vector<std::string>& agents);
  void ensure_header();
  bool may_enter(const std::string& agent) const;
  bool finished() const { return fixed_ && done_ == static_cast<int>(schedule_.size()); }
  bool available(const std::string& agent) const;
  void start_games(TimePoint now);
  void start_match(const ScheduledGame& game, TimePoint now);
  void finish_match(const std::string& id);
  void carry_on(const std::string& id, std::uint64_t requests_before, TimePoint now);
  void record(const GameResult& result);
  void forfeit_absent_games(TimePoint now);
  bool absent_too_long(const std::string& agent, TimePoint now) const;
  bool has_pending_games(const std::string& agent) const;

  // ---- agents ----
  void receive_messages();
  bool receive_one();
  void handle(const std::string& peer, std::string_view frame, std::string_view key_owner, TimePoint now);
  void handle_hello(const std::string& peer, const Hello& hello, std::string_view key_owner, TimePoint now);
  std::optional<Problem> entry_problem(const Hello& hello, std::string_view key_owner, TimePoint now) const;
  void take_over(const std::string& peer, const Hello& hello, TimePoint now);
  void register_agent(const std::string& peer, const Hello& hello, TimePoint now);
  void handle_move(const std::string& agent, const MoveReply& reply, TimePoint now);
  void end_registration(const std::string& agent, ForfeitCode code, const std::string& detail, TimePoint now);
  void resend_matches(const std::string& agent, TimePoint now);
  std::vector<std::string> matches_of(const std::string& agent) const;
  std::optional<std::string> agent_of(const std::string& peer) const;
  void send(const std::string& peer, const Json& message);
  void send_to_agent(const std::string& agent, const Json& message);
  void check_deadlines(TimePoint now);
  std::optional<TimePoint> next_deadline() const;
  void say_goodbye();
  void print_standings();
  void secure_sockets();
  void open_publisher();
  void publish(const Json& event);
  void answer_subscriptions();
  SessionLimits limits() const { return {options_.heartbeat_ms, options_.grace_ms, options_.max_message_bytes}; }

  template <typename... Args>
  void note(fmt::format_string<Args...> format, Args&&... args) {
    fmt::print(log_, format, std::forward<Args>(args)...);
    log_ << std::endl;  // a line at a time, so a log file follows the tournament as it happens
  }

  const RefereeOptions& options_;
  const LoadedGame& game_;
  const std::uint32_t max_plies_ = options_.max_plies.value_or(lang::playout_cap(game_.game->rules()));
  const int players_ = game_.game->rules().player_count();
  std::ostream& out_;
  std::ostream& log_;
  std::random_device random_;
  const std::string run_id_ = random_hex(random_, 6);  // makes match ids unique across restarts
  ResultsFile results_;

  bool fixed_ = false;  // whether the entrants, and so the schedule, are known
  std::vector<std::string> entrants_;
  std::vector<ScheduledGame> schedule_;
  std::vector<GameState> states_;
  int done_ = 0;
  bool schedule_changed_ = true;  // something happened that may let a game start
  std::optional<Standings> standings_;

  std::map<std::string, Entrant> entrant_state_;
  std::map<std::string, Session> sessions_;   // by agent name
  std::map<std::string, std::string> peers_;  // routing id -> agent name
  std::map<std::string, Match> matches_;      // in progress, by id
  std::set<std::string> finished_matches_;
  LoadStats load_;

  zmq::context_t context_;
  std::optional<CurveAuthenticator> authenticator_;  // with --curve-keys; before the sockets it guards
  zmq::socket_t router_{context_, zmq::socket_type::router};
  // An XPUB socket rather than PUB: it hears each new subscription, and answers it with the
  // matches in progress, so a watcher that comes late sees every board.
  std::optional<zmq::socket_t> publisher_;
};

Referee::Referee(const RefereeOptions& options, const LoadedGame& game, std::ostream& out, std::ostream& log)
    : options_(options), game_(game), out_(out), log_(log), results_(checked_results_path(options, *game.game)) {
  if (!results_.repair().empty()) note("warning: {}; its game will be played again", results_.repair());
  const std::optional<Json>& header = results_.header();
  if (!header) {
    if (!options.agents.empty()) fix_entrants(options.agents);
    return;
  }
  const Json current =
      tournament_header(game.info, options.format, options.games_per_pairing, options.agents, options.clock, 0);
  const std::string difference = header_difference(*header, current);
  if (!difference.empty())
    throw setup_error(fmt::format("the results file '{}' is for another tournament: {}", options.results, difference),
                      "give another --results file, or the options of that tournament to resume it");
  const std::vector<std::string>& agents = results_.agents();
  if (options.expect != 0 && options.expect != static_cast<int>(agents.size()))
    throw setup_error(
        fmt::format("the results file '{}' is for {} agents, not {}", options.results, agents.size(), options.expect),
        "resume without --expect; the agents are in the file");
  fix_entrants(agents);
  note("resuming: {} of {} games already in {}", done_, schedule_.size(), options.results);
}

void Referee::fix_entrants(const std::vector<std::string>& agents) {
  entrants_ = agents;
  fixed_ = true;
  if (static_cast<int>(entrants_.size()) < players_) throw too_few_agents(entrants_.size(), players_);
  schedule_ = make_schedule(options_.format, entrants_, options_.games_per_pairing, players_);
  states_.assign(schedule_.size(), GameState::Pending);
  standings_.emplace(entrants_, players_);
  for (const std::string& agent : entrants_) entrant_state_.try_emplace(agent);
  for (const RecordedGame& recorded : results_.games()) {
    const bool known = recorded.game >= 1 && recorded.game <= static_cast<int>(schedule_.size());
    if (!known || schedule_[static_cast<std::size_t>(recorded.game - 1)].agents != recorded.agents)
      throw setup_error(fmt::format("line {} of the results file '{}' records game {} of {}, which is "
                                    "not a game of this tournament's schedule",
                                    recorded.line, options_.results, recorded.game, fmt::join(recorded.agents, ", ")),
                        "the file was changed by hand or by another program; restore it or start a new file");
    states_[static_cast<std::size_t>(recorded.game - 1)] = GameState::Done;
    ++done_;
    standings_->add(recorded.agents, recorded.ranks, recorded.forfeiters);
  }
  note("{} agents ({}), {} games", entrants_.size(), fmt::join(entrants_, ", "), schedule_.size());
}

int Referee::run() {
  router_.set(zmq::sockopt::router_mandatory, 1);
  router_.set(zmq::sockopt::maxmsgsize, static_cast<std::int64_t>(options_.max_message_bytes * kTransportLimitFactor));
  router_.set(zmq::sockopt::linger, kLingerMs);
  secure_sockets();
  router_.bind(options_.bind);
  note("referee listening on {}", router_.get(zmq::sockopt::last_endpoint));
  if (!options_.publish.empty()) open_publisher();
  // Only now, with the sockets bound, is the results file written to.
  if (fixed_) ensure_header();
  while (!finished()) {
    Milliseconds timeout{-1};
    if (const auto deadline = next_deadline()) {
      // Rounded up and one more, so that on waking the deadline has passed.
      const auto wait = std::chrono::ceil<Milliseconds>(*deadline - SteadyClock::now()) + Milliseconds(1);
      timeout = std::max(wait, Milliseconds(0));
    }
    // Unused entries wait on no socket and no file descriptor: they never wake the poll.
    zmq::pollitem_t items[] = {{router_.handle(), 0, ZMQ_POLLIN, 0},
                               {publisher_ ? publisher_->handle() : nullptr, -1, ZMQ_POLLIN, 0},
                               {authenticator_ ? authenticator_->socket().handle() : nullptr, -1, ZMQ_POLLIN, 0}};
    zmq::poll(items, 3, timeout);
    if ((items[2].revents & ZMQ_POLLIN) != 0) authenticator_->answer();
    if ((items[0].revents & ZMQ_POLLIN) != 0) receive_messages();
    if ((items[1].revents & ZMQ_POLLIN) != 0) answer_subscriptions();
    const TimePoint now = SteadyClock::now();
    check_deadlines(now);
    start_games(now);
  }
  publish(watch_tournament_end(standings_->ranked()));
  say_goodbye();
  note("{}", load_.summary());
  print_standings();
  return 0;
}

void Referee::secure_sockets() {
  if (!options_.curve) return;
  authenticator_.emplace(context_, *options_.curve, [this](const std::string& address, const std::string& why) {
    note("refused a connection from {}: {}", address, why);
  });
  make_curve_server(router_, options_.curve->referee, kAgentDomain);
  note("CURVE: encrypted; {} agent key(s), {} watcher key(s)", options_.curve->agents.size(),
       options_.curve->watchers.size());
}

void Referee::open_publisher() {
  publisher_.emplace(context_, zmq::socket_type::xpub);
  publisher_->set(zmq::sockopt::xpub_verbose, 1);  // every subscription, not only a topic's first
  publisher_->set(zmq::sockopt::linger, kLingerMs);
  if (options_.curve) make_curve_server(*publisher_, options_.curve->referee, kWatcherDomain);
  publisher_->bind(options_.publish);
  note("publishing moves and results on {}", publisher_->get(zmq::sockopt::last_endpoint));
}

void Referee::publish(const Json& event) {
  if (!publisher_) return;
  // A watcher that does not keep up loses events (ZeroMQ drops them at its limit); the referee
  // never waits for one.
  (void)publisher_->send(zmq::buffer(event.dump(-1, ' ', false, Json::error_handler_t::replace)),
                         zmq::send_flags::dontwait);
}

void Referee::answer_subscriptions() {
  bool subscribed = false;
  // A subscription is a frame whose first byte is 1; 0 is an unsubscription.
  for (zmq::message_t frame; publisher_->recv(frame, zmq::recv_flags::dontwait);)
    subscribed = subscribed || (!frame.empty() && frame.data<char>()[0] == 1);
  if (!subscribed) return;
  note("a watcher subscribed");
  for (const auto& [id, match] : matches_) publish(watch_match_start(match.game(), game_.info, match.outcome()));
}

// ---- the tournament -------------------------------------------------------------------------------

bool Referee::may_enter(const std::string& agent) const {
  const bool entered = std::find(entrants_.begin(), entrants_.end(), agent) != entrants_.end();
  return entered || (!fixed_ && static_cast<int>(entrants_.size()) < options_.expect);
}

bool Referee::available(const std::string& agent) const {
  return sessions_.contains(agent) && entrant_state_.at(agent).playing < options_.concurrent_per_agent;
}

void Referee::start_games(TimePoint now) {
  if (!fixed_ || !schedule_changed_) return;
  schedule_changed_ = false;
  for (const ScheduledGame& game : schedule_)
    if (states_[static_cast<std::size_t>(game.number - 1)] == GameState::Pending &&
        std::all_of(game.agents.begin(), game.agents.end(), [&](const std::string& agent) { return available(agent); }))
      start_match(game, now);
}

void Referee::start_match(const ScheduledGame& game, TimePoint now) {
  const std::string id = fmt::format("{}-{}", game.number, run_id_);
  states_[static_cast<std::size_t>(game.number - 1)] = GameState::Running;
  Match& match =
      matches_.try_emplace(id, id, game.number, game.agents, game_.game, options_.clock, max_plies_, now).first->second;
  for (std::size_t player = 0; player < game.agents.size(); ++player) {
    const std::string& agent = game.agents[player];
    ++entrant_state_.at(agent).playing;
    send_to_agent(agent, match_start_message(id, game_.info, match.players(), game.agents, static_cast<int>(player),
                                             options_.clock));
  }
  publish(watch_match_start(game.number, game_.info, match.outcome()));
  if (match.over())
    finish_match(id);
  else
    send_to_agent(match.agents()[static_cast<std::size_t>(match.to_move())], move_request_message(match.request(now)));
}

void Referee::finish_match(const std::string& id) {
  const auto found = matches_.find(id);
  const Match& match = found->second;
  record(match.result());  // on disk before anyone hears of it
  for (std::size_t player = 0; player < match.agents().size(); ++player) {
    const std::string& agent = match.agents()[player];
    --entrant_state_.at(agent).playing;
    send_to_agent(agent, match_end_message(match.outcome(), static_cast<int>(player)));
  }
  finished_matches_.insert(id);
  matches_.erase(found);
}

// After a move or a forfeit: the game ends, or goes on with a new request when the move or forfeit
// passed the turn on (a forfeit of a player not to move, in a game of more than two, does not).
void Referee::carry_on(const std::string& id, std::uint64_t requests_before, TimePoint now) {
  const Match& match = matches_.at(id);
  if (match.over()) return finish_match(id);
  if (match.requests() != requests_before)
    send_to_agent(match.agents()[static_cast<std::size_t>(match.to_move())], move_request_message(match.request(now)));
}

void Referee::record(const GameResult& result) {
  results_.append(game_result_json(result));
  states_[static_cast<std::size_t>(result.game - 1)] = GameState::Done;
  ++done_;
  schedule_changed_ = true;
  const MatchOutcome& outcome = result.outcome;
  std::vector<int> forfeiters;
  for (const Forfeit& forfeit : outcome.forfeits) forfeiters.push_back(forfeit.player);
  standings_->add(outcome.agents, outcome.ranks, forfeiters);
  publish(watch_match_end(result.game, outcome, standings_->ranked()));
  note("game {} ({}/{}): {}", result.game, done_, schedule_.size(), outcome_text(outcome));
  note("scores: {}", standings_->scores_line());
}

bool Referee::absent_too_long(const std::string& agent, TimePoint now) const {
  const Entrant& entrant = entrant_state_.at(agent);
  return !sessions_.contains(agent) && entrant.left && now - *entrant.left >= Milliseconds(options_.absence_ms);
}

bool Referee::has_pending_games(const std::string& agent) const {
  for (const ScheduledGame& game : schedule_)
    if (states_[static_cast<std::size_t>(game.number - 1)] == GameState::Pending &&
        std::find(game.agents.begin(), game.agents.end(), agent) != game.agents.end())
      return true;
  return false;
}

// A game due while an agent is absent too long is not played. With two players the absent agent
// forfeits it (a draw when both are away); with more, every agent absent too long forfeits it, and
// is ranked below those here, who share the first place.
void Referee::forfeit_absent_games(TimePoint now) {
  const std::string absence = fmt::format("absent for {} ms when the game was due", options_.absence_ms);
  for (const ScheduledGame& game : schedule_) {
    if (states_[static_cast<std::size_t>(game.number - 1)] != GameState::Pending) continue;
    std::vector<int> absent;
    for (std::size_t player = 0; player < game.agents.size(); ++player)
      if (absent_too_long(game.agents[player], now)) absent.push_back(static_cast<int>(player));
    if (absent.empty()) continue;
    GameResult result{game.number, {}, {}, utc_now(), 0};
    MatchOutcome& outcome = result.outcome;
    outcome.match = fmt::format("{}-{}", game.number, run_id_);
    outcome.agents = game.agents;
    for (const lang::Player& player : game_.game->rules().players) outcome.players.push_back(player.name);
    Ranks ranks;
    for (const std::string& agent : game.agents) ranks.push_back(sessions_.contains(agent) ? 1 : 2);
    const bool anyone_here = std::count(ranks.begin(), ranks.end(), 1) > 0;
    if (players_ == 2 && anyone_here) {
      set_forfeit(outcome, absent.front(), ForfeitCode::Absent, absence);
    } else if (!anyone_here) {
      set_end(outcome, Ranks(game.agents.size(), 1),
              players_ == 2 ? fmt::format("not played: {} and {} were both absent", game.agents[0], game.agents[1])
                            : fmt::format("not played: {} were all absent", fmt::join(game.agents, ", ")));
    } else {
      std::vector<std::string> names;
      for (const int player : absent) {
        const std::string& agent = game.agents[static_cast<std::size_t>(player)];
        outcome.forfeits.push_back(Forfeit{player, 0, agent, ForfeitCode::Absent, absence});
        names.push_back(agent);
      }
      set_end(outcome, std::move(ranks), fmt::format("not played: {} {}", fmt::join(names, ", "), absence));
    }
    record(result);
  }
}

// ---- agents -----------------------------------------------------------------------------------------

std::optional<std::string> Referee::agent_of(const std::string& peer) const {
  const auto found = peers_.find(peer);
  if (found == peers_.end()) return std::nullopt;
  return found->second;
}

void Referee::send(const std::string& peer, const Json& message) {
  // A string an agent sent was valid UTF-8 when parsed; replacing bad bytes only guards the rule
  // text, which load_game already checked.
  const std::string text = message.dump(-1, ' ', false, Json::error_handler_t::replace);
  try {
    if (!router_.send(zmq::buffer(peer), zmq::send_flags::sndmore | zmq::send_flags::dontwait)) return;
    (void)router_.send(zmq::buffer(text), zmq::send_flags::dontwait);
  } catch (const zmq::error_t& error) {
    // The connection is gone: the agent's clock or grace period decides what happens next.
    if (error.num() != EHOSTUNREACH) throw;
  }
}

void Referee::send_to_agent(const std::string& agent, const Json& message) {
  const auto session = sessions_.find(agent);
  if (session != sessions_.end()) send(session->second.peer, message);
}

void Referee::receive_messages() {
  for (int count = 0; count < kMaxMessagesPerRound && receive_one(); ++count) {
  }
}

bool Referee::receive_one() {
  zmq::message_t identity;
  if (!router_.recv(identity, zmq::recv_flags::dontwait)) return false;
  const TimePoint now = SteadyClock::now();
  const std::string peer = identity.to_string();
  // The frames of one message arrive together; only the first is kept.
  zmq::message_t payload;
  int frames = 0;
  for (bool more = identity.more(); more;) {
    zmq::message_t part;
    if (!router_.recv(part, zmq::recv_flags::dontwait)) break;
    more = part.more();
    if (++frames == 1) payload = std::move(part);
  }
  if (const auto agent = agent_of(peer)) sessions_.at(*agent).last_heard = now;
  // With CURVE, the name the connection's key is filed under (the authenticator's User-Id).
  const char* key_owner = frames == 0 ? nullptr : zmq_msg_gets(payload.handle(), "User-Id");
  if (frames != 1)
    send(peer, error_message({ErrorCode::MultipartMessage, fmt::format("a message is one frame, not {}", frames)}));
  else if (payload.size() > options_.max_message_bytes)
    send(peer, error_message({ErrorCode::MessageTooLarge, fmt::format("a message may be at most {} bytes, not {}",
                                                                      options_.max_message_bytes, payload.size())}));
  else
    handle(peer, payload.to_string_view(), key_owner == nullptr ? "" : key_owner, now);
  return true;
}

void Referee::handle(const std::string& peer, std::string_view frame, std::string_view key_owner, TimePoint now) {
  const AgentMessage message = parse_agent_message(frame);
  if (const auto* problem = std::get_if<Problem>(&message)) return send(peer, error_message(*problem));
  if (const auto* hello = std::get_if<Hello>(&message)) return handle_hello(peer, *hello, key_owner, now);
  const std::optional<std::string> agent = agent_of(peer);
  if (std::holds_alternative<Bye>(message)) {
    if (agent) end_registration(*agent, ForfeitCode::Left, "left during the game", now);
    return send(peer, bye_message("goodbye"));
  }
  if (!agent)
    return send(peer, error_message({ErrorCode::NotRegistered, "say hello first: this connection is not registered"}));
  if (std::holds_alternative<Heartbeat>(message)) return send(peer, heartbeat_message());
  handle_move(*agent, std::get<MoveReply>(message), now);
}

void Referee::handle_hello(const std::string& peer, const Hello& hello, std::string_view key_owner, TimePoint now) {
  const std::optional<std::string> current = agent_of(peer);
  if (current && *current != hello.name)
    return send(peer, error_message({ErrorCode::AlreadyRegistered,
                                     fmt::format("this connection is registered as '{}'", *current)}));
  if (!current) {
    if (const auto problem = entry_problem(hello, key_owner, now)) return send(peer, error_message(*problem));
    if (sessions_.contains(hello.name))
      take_over(peer, hello, now);
    else
      register_agent(peer, hello, now);
  }
  send(peer, welcome_message(hello.name, sessions_.at(hello.name).token, limits()));
  resend_matches(hello.name, now);
}

std::optional<Problem> Referee::entry_problem(const Hello& hello, std::string_view key_owner, TimePoint now) const {
  if (options_.curve && key_owner != hello.name)
    return Problem{ErrorCode::KeyMismatch,
                   fmt::format("this connection's CURVE key is filed under '{}', not '{}'", key_owner, hello.name)};
  if (!may_enter(hello.name))
    return Problem{ErrorCode::NotEntered,
                   fmt::format("'{}' does not play in this tournament; its agents: {}", hello.name,
                               fixed_ ? fmt::format("{}", fmt::join(entrants_, ", "))
                                      : fmt::format("the first {} to come", options_.expect))};
  const auto held = sessions_.find(hello.name);
  if (held == sessions_.end() || (!hello.session.empty() && hello.session == held->second.token)) return std::nullopt;
  const auto silent = std::chrono::duration_cast<Milliseconds>(now - held->second.last_heard);
  if (silent > Milliseconds(options_.heartbeat_ms)) return std::nullopt;  // its old connection is likely dead
  return Problem{ErrorCode::NameTaken,
                 fmt::format("'{}' is registered on a connection heard from {} ms ago; if it was yours, say hello "
                             "again after {} ms",
                             hello.name, silent.count(), options_.heartbeat_ms)};
}

void Referee::take_over(const std::string& peer, const Hello& hello, TimePoint now) {
  Session& session = sessions_.at(hello.name);
  peers_.erase(session.peer);
  session.peer = peer;
  session.last_heard = now;
  peers_[peer] = hello.name;
  note("{} reconnected ({})", hello.name, hello.version);
}

void Referee::register_agent(const std::string& peer, const Hello& hello, TimePoint now) {
  sessions_[hello.name] = Session{peer, random_hex(random_, 32), now};
  peers_[peer] = hello.name;
  entrant_state_[hello.name].left.reset();
  schedule_changed_ = true;
  note("{} registered ({})", hello.name, hello.version);
  if (fixed_) return;
  entrants_.push_back(hello.name);
  if (static_cast<int>(entrants_.size()) < options_.expect) return;
  fix_entrants(entrants_);
  ensure_header();
}

void Referee::ensure_header() {
  if (!results_.header())
    results_.append_header(tournament_header(game_.info, options_.format, options_.games_per_pairing, entrants_,
                                             options_.clock, static_cast<int>(schedule_.size())));
}

std::vector<std::string> Referee::matches_of(const std::string& agent) const {
  std::vector<std::string> ids;
  for (const auto& [id, match] : matches_)
    if (match.player_of(agent) >= 0) ids.push_back(id);
  return ids;
}

void Referee::resend_matches(const std::string& agent, TimePoint now) {
  for (const std::string& id : matches_of(agent)) {
    const Match& match = matches_.at(id);
    const int player = match.player_of(agent);
    send_to_agent(agent, match_start_message(id, game_.info, match.players(), match.agents(), player, options_.clock));
    if (match.to_move() == player) send_to_agent(agent, move_request_message(match.request(now)));
  }
}

void Referee::handle_move(const std::string& agent, const MoveReply& reply, TimePoint now) {
  const auto found = matches_.find(reply.match);
  if (found == matches_.end()) {
    const bool over = finished_matches_.contains(reply.match);
    const Problem problem = over ? Problem{ErrorCode::MatchOver, fmt::format("match {} is over", reply.match)}
                                 : Problem{ErrorCode::UnknownMatch, fmt::format("no match {}", reply.match)};
    return send_to_agent(agent, error_message(problem, reply.match));
  }
  Match& match = found->second;
  const std::size_t played = match.outcome().moves.size();
  const TimePoint requested = match.requested();
  const std::uint64_t requests = match.requests();
  const std::optional<Problem> problem = match.receive(agent, reply, now);
  if (match.outcome().moves.size() > played) {
    load_.add_reply(now - requested);
    publish(watch_move(match.outcome()));
  }
  if (problem) return send_to_agent(agent, error_message(*problem, reply.match));
  carry_on(reply.match, requests, now);
}

void Referee::end_registration(const std::string& agent, ForfeitCode code, const std::string& detail, TimePoint now) {
  for (const std::string& id : matches_of(agent)) {
    Match& match = matches_.at(id);
    const std::uint64_t requests = match.requests();
    match.forfeit(match.player_of(agent), code, detail, now);
    carry_on(id, requests, now);
  }
  peers_.erase(sessions_.at(agent).peer);
  sessions_.erase(agent);
  entrant_state_.at(agent).left = now;
  note("{} left ({})", agent, forfeit_code_name(code));
}

void Referee::check_deadlines(TimePoint now) {
  std::vector<std::pair<std::string, std::uint64_t>> late;  // with the requests made before
  for (auto& [id, match] : matches_)
    if (const std::uint64_t requests = match.requests(); match.check_time(now)) late.emplace_back(id, requests);
  for (const auto& [id, requests] : late) carry_on(id, requests, now);
  std::vector<std::string> silent;
  for (const auto& [agent, session] : sessions_)
    if (now - session.last_heard > Milliseconds(options_.grace_ms)) silent.push_back(agent);
  for (const std::string& agent : silent)
    end_registration(agent, ForfeitCode::HeartbeatLost,
                     fmt::format("heartbeat lost (silent for {} ms)", options_.grace_ms), now);
  forfeit_absent_games(now);
}

std::optional<TimePoint> Referee::next_deadline() const {
  std::optional<TimePoint> next;
  const auto consider = [&](TimePoint at) { next = next ? std::min(*next, at) : at; };
  for (const auto& [id, match] : matches_) consider(match.deadline());
  for (const auto& [agent, session] : sessions_) consider(session.last_heard + Milliseconds(options_.grace_ms));
  for (const auto& [agent, entrant] : entrant_state_)
    if (entrant.left && !sessions_.contains(agent) && has_pending_games(agent))
      consider(*entrant.left + Milliseconds(options_.absence_ms));
  return next;
}

void Referee::say_goodbye() {
  for (const auto& [agent, session] : sessions_) send(session.peer, bye_message("the tournament is over"));
}

void Referee::print_standings() {
  const auto plural = [](std::size_t count) { return count == 1 ? "" : "s"; };
  const auto per_pairing = static_cast<std::size_t>(options_.games_per_pairing);
  fmt::print(out_, "{}: {} of {} agents, {} game{} a pairing, {} game{}\n", game_title(game_.info),
             format_name(options_.format), entrants_.size(), per_pairing, plural(per_pairing), schedule_.size(),
             plural(schedule_.size()));
  out_ << standings_->table();
  fmt::print(out_, "results: {}\n", options_.results);
}

}  // namespace

int run_referee(const RefereeOptions& options, const LoadedGame& game, std::ostream& out, std::ostream& log) {
  Referee referee(options, game, out, log);
  return referee.run();
}

}  // namespace troyka::referee
