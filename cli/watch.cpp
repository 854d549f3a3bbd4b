#include "cli/watch.h"

#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <deque>
#include <map>
#include <optional>
#include <ostream>
#include <zmq.hpp>

#include "cli/support.h"
#include "referee/protocol.h"

namespace troyka::cli {
namespace {

using referee::Json;

// On a terminal: the boards shown at once, and the results kept below them.
constexpr std::size_t kBoardsShown = 6;
constexpr std::size_t kRecentResults = 5;

// A player put out of a game of more than two players: it forfeited after `ply` moves.
struct PutOut {
  std::size_t ply = 0;
  int player = 0;
};

struct LiveMatch {
  int number = 0;
  std::vector<std::string> players, agents;  // by player
  std::vector<std::string> moves;
  std::vector<PutOut> put_out;  // in order
  std::shared_ptr<const Game> game;
};

// The forfeits an event lists (games of more than two players), by the players' names.
std::vector<PutOut> put_out_in(const Json& event, const std::vector<std::string>& players) {
  std::vector<PutOut> put_out;
  for (const Json& forfeit : event.value("forfeits", Json::array())) {
    const auto player = std::find(players.begin(), players.end(), forfeit.at("player").get<std::string>());
    if (player != players.end())
      put_out.push_back({forfeit.at("ply").get<std::size_t>(), static_cast<int>(player - players.begin())});
  }
  return put_out;
}

// The position after a match's moves, with the players put out where they forfeited, the last
// move and who played it.
template <typename ProgramType>
struct Replayed {
  typename ProgramType::StateType state;
  std::optional<Move> last;
  int mover = 0;
};

template <typename ProgramType>
Replayed<ProgramType> replay(const ProgramType& program, const LiveMatch& match) {
  Replayed<ProgramType> replayed{program.initial_state(), std::nullopt, 0};
  History history = program.start_history(replayed.state);
  for (std::size_t ply = 0; ply < match.moves.size(); ++ply) {
    for (const PutOut& out : match.put_out)
      if (out.ply == ply) program.forfeit(replayed.state, out.player, history);
    const ParsedMove parsed = program.parse_move(replayed.state, match.moves[ply]);
    if (!parsed.ok()) break;  // the referee checked every move; a watcher shows what it can
    replayed.mover = replayed.state.to_move;
    program.apply(replayed.state, parsed.move, history);
    replayed.last = parsed.move;
  }
  return replayed;
}

class Watcher {
 public:
  Watcher(const BoardStyle& style, bool terminal, std::ostream& out) : style_(style), terminal_(terminal), out_(out) {}

  // One event; returns whether the tournament is over.
  bool on_event(const Json& event);
  // The whole screen again (on a terminal).
  void redraw();

 private:
  void on_match_start(const Json& event);
  void on_move(const Json& event);
  void on_match_end(const Json& event);
  void on_tournament_end(const Json& event);
  std::string title(const LiveMatch& match) const;
  std::string board(const LiveMatch& match) const;
  void print(const std::string& line) {
    if (!terminal_) out_ << line << std::endl;
  }

  BoardStyle style_;
  bool terminal_;
  std::ostream& out_;
  referee::GameCache games_;
  std::map<std::string, LiveMatch> live_;  // by match id
  std::deque<std::string> recent_;         // the last results, newest first
  std::string scores_;
};

bool Watcher::on_event(const Json& event) {
  const std::string type = event.at("type").get<std::string>();
  if (type == "match_start") on_match_start(event);
  if (type == "move") on_move(event);
  if (type == "match_end") on_match_end(event);
  if (type == "tournament_end") on_tournament_end(event);
  return type == "tournament_end";
}

void Watcher::on_match_start(const Json& event) {
  const std::string id = event.at("match").get<std::string>();
  // A match already followed comes again when another watcher subscribes: keep the longer story.
  const auto moves = event.at("moves").get<std::vector<std::string>>();
  if (const auto known = live_.find(id); known != live_.end()) {
    if (moves.size() > known->second.moves.size()) {
      known->second.moves = moves;
      known->second.put_out = put_out_in(event, known->second.players);
    }
    return;
  }
  LiveMatch& match = live_[id];
  match.number = event.at("number").get<int>();
  match.players = event.at("players").get<std::vector<std::string>>();
  match.agents = event.at("agents").get<std::vector<std::string>>();
  match.moves = moves;
  match.put_out = put_out_in(event, match.players);
  match.game = games_.get(referee::game_info_from_json(event.at("game")));
  print(fmt::format("{} started", title(match)));
}

void Watcher::on_move(const Json& event) {
  const auto found = live_.find(event.at("match").get<std::string>());
  if (found == live_.end()) return;  // begun before this watcher came: it is sent on subscribing
  LiveMatch& match = found->second;
  match.moves = event.at("moves").get<std::vector<std::string>>();
  match.put_out = put_out_in(event, match.players);
  // The mover is the replayed position's: with more than two players, those put out are skipped.
  const int mover = match.game->visit([&](const auto& program) { return replay(program, match).mover; });
  print(
      fmt::format("game {} ply {}: {} {}", match.number, match.moves.size(), match.players[mover], match.moves.back()));
}

void Watcher::on_match_end(const Json& event) {
  const referee::MatchOutcome outcome = referee::outcome_from_json(event);
  const std::string line = fmt::format("game {}: {}", event.at("number").get<int>(), referee::outcome_text(outcome));
  recent_.push_front(line);
  if (recent_.size() > kRecentResults) recent_.pop_back();
  scores_.clear();
  for (const Json& score : event.at("scores"))
    scores_ += fmt::format("{}{} {:g}", scores_.empty() ? "" : ", ", score.at("agent").get<std::string>(),
                           score.at("score").get<double>());
  const auto found = live_.find(outcome.match);
  if (found != live_.end()) {
    found->second.moves = outcome.moves;
    found->second.put_out = put_out_in(event, found->second.players);
    if (!terminal_) out_ << board(found->second);
    live_.erase(found);
  }
  print(line);
  print("scores: " + scores_);
}

void Watcher::on_tournament_end(const Json& event) {
  live_.clear();
  if (terminal_) redraw();
  out_ << "the tournament is over\n";
  int rank = 0;
  for (const Json& standing : event.at("standings"))
    fmt::print(out_, "{}. {} {:g}/{}\n", ++rank, standing.at("agent").get<std::string>(),
               standing.at("score").get<double>(), standing.at("games").get<int>());
}

std::string Watcher::title(const LiveMatch& match) const {
  std::vector<std::string> sides;
  for (std::size_t player = 0; player < match.players.size(); ++player)
    sides.push_back(fmt::format("{} ({})", match.agents[player], match.players[player]));
  return fmt::format("game {}: {}", match.number, fmt::join(sides, " vs "));
}

// The position after the moves, the last one marked.
std::string Watcher::board(const LiveMatch& match) const {
  return match.game->visit([&](const auto& program) {
    const auto replayed = replay(program, match);
    return draw_board(board_view(program, replayed.state, replayed.last), style_);
  });
}

void Watcher::redraw() {
  std::string screen = "\x1b[H\x1b[2J";
  std::size_t shown = 0;
  for (const auto& [id, match] : live_) {
    if (shown++ == kBoardsShown) {
      screen += fmt::format("... and {} more games in progress\n\n", live_.size() - kBoardsShown);
      break;
    }
    screen += fmt::format("{}, {} plies\n{}\n", title(match), match.moves.size(), board(match));
  }
  for (const std::string& line : recent_) screen += line + '\n';
  if (!scores_.empty()) screen += "scores: " + scores_ + '\n';
  out_ << screen << std::flush;
}

}  // namespace

CLI::App* add_watch_command(CLI::App& app, WatchOptions& options) {
  CLI::App* command = app.add_subcommand("watch", "draw the live boards of a referee started with --publish");
  command->add_option("endpoint", options.endpoint, "the referee's --publish address, e.g. tcp://localhost:5556")
      ->required();
  command->add_flag("--ascii", options.ascii, "draw the boards with letters only");
  command->add_flag("--no-color", options.no_color, "no colours, even on a terminal");
  add_curve_client_options(*command, options.curve);
  return command;
}

int run_watch_command(const WatchOptions& options, const BoardStyle& style, bool terminal, std::ostream& out) {
  zmq::context_t context;
  zmq::socket_t subscriber(context, zmq::socket_type::sub);
  const std::optional<referee::CurveClient> curve = curve_client(options.curve);
  referee::HandshakeMonitor handshakes(subscriber);  // before connecting, to hear the first handshake
  try {
    if (curve) referee::make_curve_client(subscriber, *curve);
    subscriber.set(zmq::sockopt::subscribe, "");
    subscriber.connect(options.endpoint);
  } catch (const zmq::error_t& error) {
    throw usage_error(fmt::format("cannot watch {}: {}", options.endpoint, error.what()),
                      "e.g. troyka watch tcp://localhost:5556");
  }
  Watcher watcher(style, terminal, out);
  for (;;) {
    // Waking every second to see whether the referee refused the handshake (CURVE).
    zmq::pollitem_t item{subscriber.handle(), 0, ZMQ_POLLIN, 0};
    if (zmq::poll(&item, 1, std::chrono::seconds(1)) == 0) {
      if (const auto failure = handshakes.failure()) throw usage_error(*failure);
      continue;
    }
    zmq::message_t frame;
    (void)subscriber.recv(frame);
    // Everything that has arrived, then one redraw.
    for (bool more = true; more; more = subscriber.recv(frame, zmq::recv_flags::dontwait).has_value()) {
      try {
        if (watcher.on_event(Json::parse(frame.to_string_view()))) return 0;
      } catch (const std::exception& error) {
        fmt::print(out, "ignored an event that could not be read: {}\n", error.what());
      }
    }
    if (terminal) watcher.redraw();
  }
}

}  // namespace troyka::cli
