#include "referee/remote_agent.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <chrono>
#include <cstring>
#include <ostream>
#include <stdexcept>
#include <thread>
#include <zmq.hpp>

namespace troyka::referee {
namespace {

using Clock = std::chrono::steady_clock;
using Milliseconds = std::chrono::milliseconds;

// The worker thread's end of the pair of sockets between it and the socket thread.
constexpr const char* kWorkerEndpoint = "inproc://troyka-agent-worker";

// Between the socket thread and the worker only; never on the wire.
Json control_message(const char* type, const std::string& text = {}) {
  Json message{{"type", type}};
  if (!text.empty()) message["text"] = text;
  return message;
}

std::string wire_text(const Json& message) { return message.dump(-1, ' ', false, Json::error_handler_t::replace); }

template <class Program>
class SeatOf final : public Seat {
 public:
  SeatOf(std::shared_ptr<const Game> game, const Program& program, const agents::AgentSpec& spec, int player,
         const agents::TimeControl& time, std::uint64_t seed)
      : game_(std::move(game)),
        program_(program),
        agent_(agents::make_agent(spec, program, seed)),
        state_(program.initial_state()),
        positions_(program.start_history(state_)) {
    agent_->start(player, time);
  }

  Choice choose(const std::vector<std::string>& moves, double seconds_left, double lag_seconds) override {
    follow(moves);
    agent_->allow_for_lag(lag_seconds);
    const auto start = Clock::now();
    Choice choice{program_.move_text(agent_->choose(state_, seconds_left))};
    const std::optional<agents::SearchReport> report = agent_->last_report();
    choice.planned_seconds = report && report->time_limit > 0
                                 ? report->time_limit
                                 : std::chrono::duration<double>(Clock::now() - start).count();
    return choice;
  }

 private:
  // Brings the position up to `moves`, telling the agent each new move. Moves that do not continue
  // what it followed (a request sent again after a reconnection, say) start from the beginning,
  // and the agent, asked about a position it did not follow, searches afresh.
  void follow(const std::vector<std::string>& moves) {
    const bool continues = moves.size() >= played_.size() && std::equal(played_.begin(), played_.end(), moves.begin());
    if (!continues) {
      state_ = program_.initial_state();
      positions_ = program_.start_history(state_);
      played_.clear();
    }
    for (std::size_t ply = played_.size(); ply < moves.size(); ++ply) {
      const ParsedMove parsed = program_.parse_move(state_, moves[ply]);
      if (!parsed.ok())
        throw std::runtime_error(
            fmt::format("the referee's move {} ({}) is not legal here: {}", ply + 1, moves[ply], parsed.error));
      program_.apply(state_, parsed.move, positions_);
      if (continues) agent_->observe(parsed.move);
      played_.push_back(moves[ply]);
    }
  }

  std::shared_ptr<const Game> game_;  // owns program_
  const Program& program_;
  std::unique_ptr<agents::Agent<Program>> agent_;
  typename Program::StateType state_;
  History positions_;  // the game's, for (repetition N)
  std::vector<std::string> played_;
};

// Not in visit's generic lambda: see board_for in board.cpp (a clang 14 instantiation bug).
template <class Program>
std::unique_ptr<Seat> seat_for(std::shared_ptr<const Game> game, const Program& program, const agents::AgentSpec& spec,
                               int player, const agents::TimeControl& time, std::uint64_t seed) {
  return std::make_unique<SeatOf<Program>>(std::move(game), program, spec, player, time, seed);
}

// A referee's message goes to the worker with the time the socket thread read it, as a second
// frame: the steady clock's count.
using ClockCount = Clock::duration::rep;

// The worker thread: plays the matches the socket thread hands it, one message at a time.
void run_worker(zmq::context_t& context, MatchPlayer& player) {
  zmq::socket_t socket(context, zmq::socket_type::pair);
  socket.connect(kWorkerEndpoint);
  for (;;) {
    zmq::message_t frame;
    if (!socket.recv(frame)) continue;
    Clock::time_point received = Clock::now();
    if (zmq::message_t stamp; frame.more() && socket.recv(stamp) && stamp.size() == sizeof(ClockCount)) {
      ClockCount count = 0;
      std::memcpy(&count, stamp.data(), sizeof(count));
      received = Clock::time_point(Clock::duration(count));
    }
    const Json message = Json::parse(frame.to_string_view(), nullptr, false);
    const std::string type = message.value("type", "");
    if (type == "stop") return;
    if (type == "clear") {
      player.clear();
      continue;
    }
    Json reply;
    try {
      reply = player.handle(message, received).value_or(Json());
    } catch (const lang::Error& error) {
      reply = control_message("log", fmt::format("cannot compile the game of match {}: {}", message.value("match", ""),
                                                 lang::render(error.diagnostic())));
    } catch (const std::exception& error) {
      reply = control_message("log", fmt::format("cannot play match {}: {}", message.value("match", ""), error.what()));
    }
    if (!reply.is_null()) (void)socket.send(zmq::buffer(wire_text(reply)), zmq::send_flags::none);
  }
}

// The socket thread: the connection to the referee, heartbeats and reconnections.
class Client {
 public:
  Client(const RemoteAgentOptions& options, std::ostream& log) : options_(options), log_(log), player_(options.spec) {}
  int run();

 private:
  void connect(Clock::time_point now);
  void send(const Json& message, Clock::time_point now);
  void say_hello(Clock::time_point now);
  std::optional<int> on_referee_message(std::string_view text, Clock::time_point now);
  std::optional<int> on_error(const Json& error, Clock::time_point now);
  void forward_worker_messages(Clock::time_point now);
  void clear_matches();
  void stop_worker();
  Clock::time_point next_wakeup() const { return std::min(last_sent_ + heartbeat_, last_heard_ + grace_); }

  template <typename... Args>
  void note(fmt::format_string<Args...> format, Args&&... args) {
    fmt::print(log_, format, std::forward<Args>(args)...);
    log_ << std::endl;
  }

  const RemoteAgentOptions& options_;
  std::ostream& log_;
  MatchPlayer player_;
  zmq::context_t context_;
  zmq::socket_t worker_{context_, zmq::socket_type::pair};
  std::optional<zmq::socket_t> dealer_;
  std::optional<HandshakeMonitor> handshakes_;  // of dealer_
  std::jthread worker_thread_;
  bool registered_ = false;
  std::string session_;
  // Until the welcome says otherwise: the protocol's defaults.
  Milliseconds heartbeat_{1000}, grace_{5000};
  Clock::time_point last_sent_, last_heard_;
  std::optional<Clock::time_point> name_taken_since_;
};

int Client::run() {
  worker_.bind(kWorkerEndpoint);
  worker_thread_ = std::jthread([this] { run_worker(context_, player_); });
  connect(Clock::now());
  for (;;) {
    const auto wait = std::chrono::ceil<Milliseconds>(next_wakeup() - Clock::now());
    zmq::pollitem_t items[] = {{dealer_->handle(), 0, ZMQ_POLLIN, 0}, {worker_.handle(), 0, ZMQ_POLLIN, 0}};
    zmq::poll(items, 2, std::max(wait, Milliseconds(0)));
    Clock::time_point now = Clock::now();
    for (zmq::message_t frame; (items[0].revents & ZMQ_POLLIN) && dealer_->recv(frame, zmq::recv_flags::dontwait);) {
      last_heard_ = now;
      std::optional<int> code;
      try {
        code = on_referee_message(frame.to_string_view(), now);
      } catch (const Json::exception& error) {
        note("ignored a malformed message from the referee: {}", error.what());
      }
      if (code) {
        stop_worker();
        return *code;
      }
    }
    if ((items[1].revents & ZMQ_POLLIN) != 0) forward_worker_messages(now);
    if (const auto failure = handshakes_->failure()) {
      note("error: {}", *failure);
      stop_worker();
      return 1;
    }
    now = Clock::now();
    if (now - last_heard_ > grace_) {
      // A referee that cannot decrypt the handshake (a wrong --curve-server-key) drops it unanswered.
      const bool curve_unanswered = options_.curve && session_.empty();
      note("the referee has been silent for {} ms; connecting again{}", grace_.count(),
           curve_unanswered ? " (is --curve-server-key the referee's public key?)" : "");
      clear_matches();
      connect(now);
    } else if (now - last_sent_ >= heartbeat_) {
      if (registered_)
        send(heartbeat_message(), now);
      else
        say_hello(now);
    }
  }
}

void Client::connect(Clock::time_point now) {
  handshakes_.reset();  // before the socket it watches
  dealer_.emplace(context_, zmq::socket_type::dealer);
  handshakes_.emplace(*dealer_);
  dealer_->set(zmq::sockopt::linger, 0);
  if (options_.curve) make_curve_client(*dealer_, *options_.curve);
  dealer_->connect(options_.endpoint);
  registered_ = false;
  last_heard_ = now;
  say_hello(now);
}

void Client::send(const Json& message, Clock::time_point now) {
  // Not waiting: a message the connection cannot take now is lost like any other on a broken
  // connection, and heartbeats and hellos are sent again anyway.
  (void)dealer_->send(zmq::buffer(wire_text(message)), zmq::send_flags::dontwait);
  last_sent_ = now;
}

void Client::say_hello(Clock::time_point now) {
  send(hello_message(options_.name, "troyka " + agents::spec_text(options_.spec), session_), now);
}

std::optional<int> Client::on_referee_message(std::string_view text, Clock::time_point now) {
  const Json message = Json::parse(text, nullptr, false);
  const std::string type = message.is_object() ? message.value("type", "") : "";
  if (type == "welcome") {
    registered_ = true;
    name_taken_since_.reset();
    session_ = message.value("session", "");
    heartbeat_ = Milliseconds(message.value("heartbeat_ms", heartbeat_.count()));
    grace_ = Milliseconds(message.value("grace_ms", grace_.count()));
    note("registered as {} at {}", options_.name, options_.endpoint);
  } else if (type == "error") {
    return on_error(message, now);
  } else if (type == "bye") {
    note("the referee said goodbye: {}", message.value("reason", ""));
    return 0;
  } else if (type == "match_start" || type == "move_request" || type == "match_end") {
    if (type == "match_end")
      note("match {}: {} ({})", message.value("match", ""), message.value("you", ""), message.value("reason", ""));
    const ClockCount received = now.time_since_epoch().count();
    (void)worker_.send(zmq::buffer(text), zmq::send_flags::sndmore);
    (void)worker_.send(zmq::buffer(&received, sizeof(received)), zmq::send_flags::none);
  } else if (type != "heartbeat") {
    note("ignored a message from the referee: {}", text.substr(0, 200));
  }
  return std::nullopt;
}

std::optional<int> Client::on_error(const Json& error, Clock::time_point now) {
  const std::string code = error.value("code", "");
  const std::string text = error.value("message", "");
  if (code == "not_registered") {
    // The referee restarted, or dropped this connection: its matches are over or will be sent
    // again. Register again, once; if that hello is lost, the next tick says it again.
    if (registered_) {
      clear_matches();
      say_hello(now);
    }
    registered_ = false;
  } else if (code == "name_taken") {
    // Perhaps this agent's own previous connection, not yet silent for long: try again until
    // the referee would have dropped it.
    if (!name_taken_since_) name_taken_since_ = now;
    if (now - *name_taken_since_ > grace_) {
      note("error: the referee refused the name {}: {}", options_.name, text);
      return 1;
    }
  } else if (code == "unsupported_protocol" || code == "invalid_name" || code == "not_entered" ||
             code == "already_registered" || code == "key_mismatch") {
    note("error: the referee refused this agent ({}): {}", code, text);
    return 1;
  } else {
    note("the referee answered {}: {}", code, text);
  }
  return std::nullopt;
}

void Client::forward_worker_messages(Clock::time_point now) {
  for (zmq::message_t frame; worker_.recv(frame, zmq::recv_flags::dontwait);) {
    const Json message = Json::parse(frame.to_string_view(), nullptr, false);
    if (message.value("type", "") == "log")
      note("{}", message.value("text", ""));
    else
      send(message, now);
  }
}

void Client::clear_matches() {
  (void)worker_.send(zmq::buffer(wire_text(control_message("clear"))), zmq::send_flags::none);
}

void Client::stop_worker() {
  (void)worker_.send(zmq::buffer(wire_text(control_message("stop"))), zmq::send_flags::none);
  worker_thread_.join();
}

}  // namespace

SeatReaper::~SeatReaper() {
  {
    const std::lock_guard lock(mutex_);
    if (!thread_.joinable()) return;
    stopping_ = true;
  }
  wake_.notify_one();
  thread_.join();
}

void SeatReaper::dispose(std::unique_ptr<Seat> seat) {
  {
    const std::lock_guard lock(mutex_);
    queue_.push_back(std::move(seat));
    // Started with the first seat to free: a client that ends no match needs no thread.
    if (!thread_.joinable()) thread_ = std::thread([this] { run(); });
  }
  wake_.notify_one();
}

void SeatReaper::run() {
  std::unique_lock lock(mutex_);
  for (;;) {
    wake_.wait(lock, [&] { return stopping_ || !queue_.empty(); });
    std::vector<std::unique_ptr<Seat>> doomed;
    doomed.swap(queue_);
    if (doomed.empty() && stopping_) return;
    lock.unlock();
    doomed.clear();  // the slow part, with the lock free
    lock.lock();
  }
}

void MatchPlayer::clear() {
  for (auto& [id, match] : matches_) reaper_.dispose(std::move(match.seat));
  matches_.clear();
}

void MatchPlayer::learn_lag(const Json& request, const SeatedMatch& match) {
  const auto last = request.find("last_ms");
  if (last == request.end() || !last->is_number() || !match.last_reply) return;
  // The referee counts whole milliseconds, cut short: its count was up to 1 ms more.
  lag_.add((last->get<double>() + 1) / 1000.0 - match.last_reply->planned);
}

void MatchPlayer::learn_from_time_forfeit(const Json& end, const SeatedMatch& match) {
  if (!match.last_reply) return;
  const auto forfeits = end.find("forfeits");
  const Json listed = forfeits != end.end() ? *forfeits : Json::array({end.value("forfeit", Json())});
  for (const Json& forfeit : listed)
    if (forfeit.is_object() && forfeit.value("code", "") == "time_forfeit" && forfeit.value("player", "") == match.you)
      // No last_ms comes for that move: the lag was at least the margin it had.
      lag_.add(match.last_reply->limit - match.last_reply->planned);
}

std::optional<Json> MatchPlayer::handle(const Json& message, Clock::time_point received) {
  const std::string type = message.at("type").get<std::string>();
  const std::string id = message.at("match").get<std::string>();
  if (type == "match_start") {
    std::shared_ptr<const Game> game = games_.get(game_info_from_json(message.at("game")));
    const auto players = message.at("players").get<std::vector<std::string>>();
    const auto you = std::find(players.begin(), players.end(), message.at("you").get<std::string>());
    if (you == players.end()) throw std::runtime_error("'you' is not one of the players");
    const int player = static_cast<int>(you - players.begin());
    const ClockSettings clock = clock_from_json(message.at("clock"));
    const agents::TimeControl time{clock.move_ms / 1000.0, clock.total_ms / 1000.0, clock.increment_ms / 1000.0};
    const std::uint64_t seed = ++matches_started_;
    SeatedMatch& match = matches_[id];
    // A match sent again after a reconnection starts afresh: the replies before may never have
    // reached the referee.
    if (match.seat) reaper_.dispose(std::move(match.seat));
    match = SeatedMatch{
        game->visit([&](const auto& program) { return seat_for(game, program, spec_, player, time, seed); }), *you,
        std::nullopt};
  } else if (type == "move_request") {
    const auto found = matches_.find(id);
    if (found == matches_.end()) throw std::runtime_error("a move request for a match that did not start");
    SeatedMatch& match = found->second;
    learn_lag(message, match);
    const Json& total = message.at("total_ms");
    // With a game total the agent paces itself over what is left; otherwise it has this move's time.
    // Either counts from the request's arrival, and never reaches 0, which would mean no clock.
    const double waited = std::chrono::duration<double>(Clock::now() - received).count();
    const double limit = message.at("time_ms").get<double>() / 1000.0;
    const double seconds_left = std::max((total.is_null() ? limit : total.get<double>() / 1000.0) - waited, 1e-3);
    const Seat::Choice choice =
        match.seat->choose(message.at("moves").get<std::vector<std::string>>(), seconds_left, lag_.value());
    match.last_reply = SeatedMatch::ReplyTiming{waited + choice.planned_seconds, limit};
    return move_message(id, message.at("ply").get<std::int64_t>(), choice.move);
  } else if (type == "match_end") {
    const auto found = matches_.find(id);
    if (found == matches_.end()) return std::nullopt;
    learn_from_time_forfeit(message, found->second);
    reaper_.dispose(std::move(found->second.seat));
    matches_.erase(found);
    // For whoever reads the agent's log on a busy machine: what the margin has lately kept.
    return control_message("log", fmt::format("match {}: replies lately arrived up to {:.1f} ms later than planned", id,
                                              1000 * lag_.value()));
  }
  return std::nullopt;
}

int run_remote_agent(const RemoteAgentOptions& options, std::ostream& log) {
  Client client(options, log);
  return client.run();
}

}  // namespace troyka::referee
