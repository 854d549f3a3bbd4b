#include "referee/protocol.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <fstream>
#include <sstream>
#include <stdexcept>

#include "referee/outcome.h"

namespace troyka::referee {
namespace {

constexpr std::array<const char*, 16> kErrorCodeNames{
    "malformed_message",    "multipart_message", "message_too_large", "unknown_type",
    "unsupported_protocol", "invalid_name",      "name_taken",        "not_entered",
    "already_registered",   "not_registered",    "unknown_match",     "match_over",
    "not_your_match",       "not_your_turn",     "wrong_ply",         "key_mismatch",
};

constexpr std::array<const char*, 6> kForfeitCodeNames{"illegal_move",   "time_forfeit", "malformed_reply",
                                                       "heartbeat_lost", "left",         "absent"};

Problem malformed(std::string message) { return {ErrorCode::MalformedMessage, std::move(message)}; }

// A required string field, or the problem with it.
std::variant<std::string, Problem> string_field(const Json& message, const char* type, const char* field) {
  const auto found = message.find(field);
  if (found == message.end()) return malformed(fmt::format("a '{}' message needs the field '{}'", type, field));
  if (!found->is_string()) return malformed(fmt::format("'{}' of a '{}' message must be a string", field, type));
  return found->get<std::string>();
}

AgentMessage parse_hello(const Json& message) {
  const auto protocol = message.find("protocol");
  if (protocol == message.end() || !protocol->is_number_integer())
    return malformed("a 'hello' message needs 'protocol', an integer");
  if (*protocol != kProtocolVersion)
    return Problem{ErrorCode::UnsupportedProtocol,
                   fmt::format("this referee speaks protocol version {}, not {}", kProtocolVersion, protocol->dump())};
  Hello hello;
  for (auto [field, value] : {std::pair{"name", &hello.name}, std::pair{"version", &hello.version}}) {
    auto text = string_field(message, "hello", field);
    if (auto* problem = std::get_if<Problem>(&text)) return *problem;
    *value = std::get<std::string>(std::move(text));
  }
  if (!valid_agent_name(hello.name))
    return Problem{ErrorCode::InvalidName,
                   fmt::format("an agent's name is 1 to {} characters from A-Z a-z 0-9 . _ -", kMaxNameLength)};
  if (hello.version.size() > kMaxVersionLength)
    return malformed(fmt::format("'version' may be at most {} bytes", kMaxVersionLength));
  if (message.contains("session")) {
    auto session = string_field(message, "hello", "session");
    if (auto* problem = std::get_if<Problem>(&session)) return *problem;
    hello.session = std::get<std::string>(std::move(session));
  }
  return hello;
}

AgentMessage parse_move(const Json& message) {
  auto match = string_field(message, "move", "match");
  if (auto* problem = std::get_if<Problem>(&match)) return *problem;
  MoveReply reply;
  reply.match = std::get<std::string>(std::move(match));
  const auto ply = message.find("ply");
  const auto move = message.find("move");
  if (ply == message.end() || !ply->is_number_integer())
    reply.malformed = "'ply' must be an integer";
  else if (move == message.end() || !move->is_string())
    reply.malformed = "'move' must be a string";
  else {
    reply.ply = ply->get<std::int64_t>();
    reply.move = move->get<std::string>();
  }
  return reply;
}

Json optional_ms(std::int64_t ms) { return ms > 0 ? Json(ms) : Json(nullptr); }
Json optional_ms(const std::optional<std::int64_t>& ms) { return ms ? Json(*ms) : Json(nullptr); }

}  // namespace

const char* error_code_name(ErrorCode code) { return kErrorCodeNames[static_cast<std::size_t>(code)]; }

const char* forfeit_code_name(ForfeitCode code) { return kForfeitCodeNames[static_cast<std::size_t>(code)]; }

std::optional<ForfeitCode> parse_forfeit_code(std::string_view name) {
  for (std::size_t code = 0; code < kForfeitCodeNames.size(); ++code)
    if (name == kForfeitCodeNames[code]) return static_cast<ForfeitCode>(code);
  return std::nullopt;
}

bool valid_agent_name(std::string_view name) {
  const auto allowed = [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '.' || c == '_' ||
           c == '-';
  };
  return !name.empty() && name.size() <= kMaxNameLength && std::all_of(name.begin(), name.end(), allowed);
}

AgentMessage parse_agent_message(std::string_view frame) {
  // Without exceptions: a parse error is an answer, not an exceptional event. The parser checks
  // UTF-8 and needs no recursion, so no input can exhaust the stack.
  const Json message = Json::parse(frame, nullptr, false);
  if (message.is_discarded()) return malformed("the message is not valid UTF-8 JSON");
  if (!message.is_object()) return malformed("a message is a JSON object");
  const auto type = message.find("type");
  if (type == message.end() || !type->is_string()) return malformed("a message needs 'type', a string");
  const std::string& name = type->get_ref<const std::string&>();
  if (name == "hello") return parse_hello(message);
  if (name == "move") return parse_move(message);
  if (name == "heartbeat") return Heartbeat{};
  if (name == "bye") return Bye{};
  return Problem{ErrorCode::UnknownType,
                 fmt::format("unknown message type {}; an agent sends hello, move, heartbeat or bye", type->dump())};
}

Json hello_message(const std::string& name, const std::string& version, const std::string& session) {
  Json hello{{"type", "hello"}, {"protocol", kProtocolVersion}, {"name", name}, {"version", version}};
  if (!session.empty()) hello["session"] = session;
  return hello;
}

Json move_message(const std::string& match, std::int64_t ply, const std::string& move) {
  return Json{{"type", "move"}, {"match", match}, {"ply", ply}, {"move", move}};
}

Json heartbeat_message() { return Json{{"type", "heartbeat"}}; }

Json bye_message(const std::string& reason) {
  Json bye{{"type", "bye"}};
  if (!reason.empty()) bye["reason"] = reason;
  return bye;
}

LoadedGame load_game(const std::string& path, const lang::Options& options) {
  std::ifstream file(path, std::ios::binary);
  if (!file) throw lang::Error(lang::Diagnostic{nullptr, {}, fmt::format("cannot read the rule file '{}'", path), {}});
  std::ostringstream text;
  text << file.rdbuf();
  LoadedGame loaded;
  loaded.info.file = path;
  loaded.info.rules = text.str();
  try {
    (void)Json(loaded.info.rules).dump();
  } catch (const Json::type_error&) {
    throw lang::Error(lang::Diagnostic{nullptr,
                                       {},
                                       fmt::format("the rule file '{}' is not valid UTF-8", path),
                                       "agents receive it as JSON text, which must be UTF-8"});
  }
  loaded.info.variant = options.variant;
  loaded.info.params = options.params;
  loaded.game = compile_game(loaded.info);
  loaded.info.name = loaded.game->rules().name;
  loaded.info.values = loaded.game->rules().params;
  return loaded;
}

std::shared_ptr<const Game> compile_game(const GameInfo& info) {
  auto source = std::make_shared<const lang::SourceFile>(lang::SourceFile{info.file, info.rules});
  return std::make_shared<const Game>(lang::load_rules(std::move(source), info.options()));
}

std::shared_ptr<const Game> GameCache::get(const GameInfo& info) {
  std::string key = info.rules + '\n' + info.variant;
  for (const auto& [name, value] : info.params) key += fmt::format("\n{}={}", name, value);
  if (!game_ || key != key_) {
    game_ = compile_game(info);
    key_ = std::move(key);
  }
  return game_;
}

void set_end(MatchOutcome& outcome, Ranks ranks, std::string reason) {
  outcome.winner = winner_of(ranks);
  outcome.ranks = std::move(ranks);
  outcome.reason = std::move(reason);
}

std::string outcome_text(const MatchOutcome& outcome) {
  std::vector<std::string> sides;
  for (std::size_t player = 0; player < outcome.players.size(); ++player)
    sides.push_back(fmt::format("{} ({})", outcome.agents[player], outcome.players[player]));
  std::string what;
  if (sides.size() > 2) {
    std::vector<std::string> places;
    for (std::size_t player = 0; player < sides.size(); ++player)
      places.push_back(fmt::format("{} {}", sides[player], outcome.ranks[player]));
    what = fmt::format("ranks {}", fmt::join(places, ", "));
  } else if (outcome.winner == kDraw) {
    what = fmt::format("{} and {} drew", sides[0], sides[1]);
  } else {
    what = fmt::format("{} beat {}", sides[static_cast<std::size_t>(outcome.winner)],
                       sides[static_cast<std::size_t>(1 - outcome.winner)]);
  }
  return fmt::format("{} in {} plies: {}", what, outcome.moves.size(), outcome.reason);
}

MatchOutcome outcome_from_json(const Json& end) {
  MatchOutcome outcome;
  outcome.match = end.at("match").get<std::string>();
  outcome.players = end.at("players").get<std::vector<std::string>>();
  outcome.agents = end.at("agents").get<std::vector<std::string>>();
  Ranks ranks = ranks_of_result_token(end.at("result").get<std::string>(), static_cast<int>(outcome.players.size()));
  if (ranks.empty() || outcome.agents.size() != outcome.players.size())
    throw std::runtime_error("a match_end with an unknown result");
  set_end(outcome, std::move(ranks), end.at("reason").get<std::string>());
  outcome.moves = end.at("moves").get<std::vector<std::string>>();
  return outcome;
}

Json welcome_message(const std::string& name, const std::string& session, const SessionLimits& limits) {
  return Json{{"type", "welcome"},
              {"protocol", kProtocolVersion},
              {"name", name},
              {"session", session},
              {"heartbeat_ms", limits.heartbeat_ms},
              {"grace_ms", limits.grace_ms},
              {"max_message_bytes", limits.max_message_bytes},
              {"referee", "troyka"}};
}

Json error_message(const Problem& problem, const std::string& match) {
  Json error{{"type", "error"}, {"code", error_code_name(problem.code)}, {"message", problem.message}};
  if (!match.empty()) error["match"] = match;
  if (problem.code == ErrorCode::UnsupportedProtocol) error["supported"] = Json::array({kProtocolVersion});
  return error;
}

Json game_info_json(const GameInfo& game) {
  Json params = Json::object(), values = Json::object();
  for (const auto& [name, value] : game.params) params[name] = value;
  for (const auto& [name, value] : game.values) values[name] = value;
  return Json{{"name", game.name},       {"file", game.file}, {"rules", game.rules},
              {"variant", game.variant}, {"params", params},  {"values", values}};
}

GameInfo game_info_from_json(const Json& json) {
  GameInfo game;
  game.name = json.at("name").get<std::string>();
  game.file = json.at("file").get<std::string>();
  game.rules = json.at("rules").get<std::string>();
  game.variant = json.at("variant").get<std::string>();
  for (const auto& [name, value] : json.at("params").items()) game.params.emplace_back(name, value.get<std::string>());
  for (const auto& [name, value] : json.at("values").items()) game.values.emplace_back(name, value.get<std::int64_t>());
  return game;
}

Json clock_json(const ClockSettings& clock) {
  return Json{{"move_ms", optional_ms(clock.move_ms)},
              {"total_ms", optional_ms(clock.total_ms)},
              {"increment_ms", clock.increment_ms}};
}

ClockSettings clock_from_json(const Json& json) {
  const auto ms = [&](const char* field) {
    const Json& value = json.at(field);
    return value.is_null() ? std::int64_t{0} : value.get<std::int64_t>();
  };
  return {ms("move_ms"), ms("total_ms"), ms("increment_ms")};
}

Json match_start_message(const std::string& match, const GameInfo& game, const std::vector<std::string>& players,
                         const std::vector<std::string>& agents, int you, const ClockSettings& clock) {
  return Json{{"type", "match_start"},     {"match", match},   {"game", game_info_json(game)},
              {"players", players},        {"agents", agents}, {"you", players[static_cast<std::size_t>(you)]},
              {"clock", clock_json(clock)}};
}

Json move_request_message(const MoveRequest& request) {
  Json message{{"type", "move_request"},
               {"match", request.match},
               {"ply", request.ply},
               {"moves", request.moves},
               {"legal", request.legal},
               {"time_ms", request.time_ms},
               {"total_ms", optional_ms(request.total_ms)},
               {"opponent_total_ms", optional_ms(request.opponent_total_ms)},
               {"last_ms", optional_ms(request.last_ms)}};
  if (!request.totals_ms.empty()) message["totals_ms"] = request.totals_ms;
  return message;
}

namespace {

// With more than two players, also the ply: where a replay puts the player out.
Json forfeit_json(const MatchOutcome& outcome, const Forfeit& forfeit) {
  Json json{{"player", outcome.players[static_cast<std::size_t>(forfeit.player)]},
            {"agent", forfeit.agent},
            {"code", forfeit_code_name(forfeit.code)},
            {"detail", forfeit.detail}};
  if (outcome.players.size() > 2) json["ply"] = forfeit.ply;
  return json;
}

// Every forfeit so far, in order.
Json forfeits_json(const MatchOutcome& outcome) {
  Json forfeits = Json::array();
  for (const Forfeit& forfeit : outcome.forfeits) forfeits.push_back(forfeit_json(outcome, forfeit));
  return forfeits;
}

// With more than two players a watcher replays the moves with the players put out so far.
Json with_forfeits(Json event, const MatchOutcome& match) {
  if (match.players.size() > 2) event["forfeits"] = forfeits_json(match);
  return event;
}

// "win", "loss" or "draw" for `player`: first alone, last alone, or anything else (with two players
// the game's result; with more, what `troyka match` counts as W-L-D).
const char* seat_result(const Ranks& ranks, int player) {
  const int mine = ranks[static_cast<std::size_t>(player)];
  const auto shared = std::count(ranks.begin(), ranks.end(), mine);
  if (mine == 1 && shared == 1) return "win";
  if (shared == 1 && mine == *std::max_element(ranks.begin(), ranks.end())) return "loss";
  return "draw";
}

}  // namespace

Json end_fields(const MatchOutcome& outcome) {
  const std::string winner =
      outcome.winner == kDraw ? "draw" : outcome.players[static_cast<std::size_t>(outcome.winner)];
  Json end{{"result", result_token(outcome.ranks)},
           {"winner", winner},
           {"reason", outcome.reason},
           {"forfeit", outcome.forfeits.empty() ? Json(nullptr) : forfeit_json(outcome, outcome.forfeits.front())}};
  if (outcome.players.size() > 2) {
    end["ranks"] = outcome.ranks;
    end["forfeits"] = forfeits_json(outcome);
  }
  return end;
}

Json match_end_message(const MatchOutcome& outcome, int you) {
  Json end{{"type", "match_end"}, {"match", outcome.match}};
  const Json fields = end_fields(outcome);
  end["result"] = fields.at("result");
  end["winner"] = fields.at("winner");
  end["you"] = seat_result(outcome.ranks, you);
  if (outcome.players.size() > 2) {
    end["ranks"] = fields.at("ranks");
    end["rank"] = outcome.ranks[static_cast<std::size_t>(you)];
    end["points"] = rank_points(outcome.ranks, you);
  }
  end["reason"] = fields.at("reason");
  end["forfeit"] = fields.at("forfeit");
  if (outcome.players.size() > 2) end["forfeits"] = fields.at("forfeits");
  end["moves"] = outcome.moves;
  return end;
}

Json watch_match_start(int number, const GameInfo& game, const MatchOutcome& match) {
  return with_forfeits(Json{{"type", "match_start"},
                            {"match", match.match},
                            {"number", number},
                            {"game", game_info_json(game)},
                            {"players", match.players},
                            {"agents", match.agents},
                            {"moves", match.moves}},
                       match);
}

Json watch_move(const MatchOutcome& match) {
  return with_forfeits(Json{{"type", "move"},
                            {"match", match.match},
                            {"ply", match.moves.size() - 1},
                            {"move", match.moves.back()},
                            {"moves", match.moves}},
                       match);
}

Json watch_match_end(int number, const MatchOutcome& outcome, const std::vector<Standing>& ranked) {
  Json end{{"type", "match_end"},
           {"match", outcome.match},
           {"number", number},
           {"players", outcome.players},
           {"agents", outcome.agents}};
  end.update(end_fields(outcome));
  end["moves"] = outcome.moves;
  Json scores = Json::array();
  for (const Standing& standing : ranked)
    scores.push_back({{"agent", standing.agent}, {"score", standing.score()}, {"games", standing.games()}});
  end["scores"] = scores;
  return end;
}

Json watch_tournament_end(const std::vector<Standing>& ranked) {
  Json standings = Json::array();
  for (const Standing& standing : ranked)
    standings.push_back({{"agent", standing.agent},
                         {"games", standing.games()},
                         {"wins", standing.wins},
                         {"losses", standing.losses},
                         {"draws", standing.draws},
                         {"forfeits", standing.forfeits},
                         {"score", standing.score()}});
  return Json{{"type", "tournament_end"}, {"standings", standings}};
}

}  // namespace troyka::referee
