// The agent protocol, version 1 (docs/protocol.md is the contract): the messages both sides send,
// built in one place so the wire format has a single definition, and the checks of every message
// an agent sends, each failure with its documented error code.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>
#include <variant>
#include <vector>

#include "interpreter/game.h"
#include "lang/rules.h"
#include "referee/outcome.h"
#include "referee/standings.h"

namespace troyka::referee {

// Key order is kept, so messages read in the order the document shows them.
using Json = nlohmann::ordered_json;

inline constexpr int kProtocolVersion = 1;
inline constexpr std::size_t kMaxNameLength = 64;
inline constexpr std::size_t kMaxVersionLength = 128;
// A message longer than the limit times this is cut off by ZeroMQ (ZMQ_MAXMSGSIZE) unread.
inline constexpr std::size_t kTransportLimitFactor = 16;

// Why a message from an agent was not used (the `error` message's codes).
enum class ErrorCode {
  MalformedMessage,
  MultipartMessage,
  MessageTooLarge,
  UnknownType,
  UnsupportedProtocol,
  InvalidName,
  NameTaken,
  NotEntered,
  AlreadyRegistered,
  NotRegistered,
  UnknownMatch,
  MatchOver,
  NotYourMatch,
  NotYourTurn,
  WrongPly,
  KeyMismatch,
};
const char* error_code_name(ErrorCode code);  // "malformed_message", ...

// Why an agent lost a game without it being played out.
enum class ForfeitCode { IllegalMove, TimeForfeit, MalformedReply, HeartbeatLost, Left, Absent };
const char* forfeit_code_name(ForfeitCode code);  // "illegal_move", ...
std::optional<ForfeitCode> parse_forfeit_code(std::string_view name);

// A message that could not be used, and why.
struct Problem {
  ErrorCode code = ErrorCode::MalformedMessage;
  std::string message;
};

// ---- messages from an agent ----

struct Hello {
  std::string name;
  std::string version;
  std::string session;  // "" when the agent has none to give back
};

// A reply to a move request. `match` is always there (else the message is a Problem); the rest is
// checked later, once the referee knows the reply is owed: `malformed` then says what is wrong.
struct MoveReply {
  std::string match;
  std::int64_t ply = 0;
  std::string move;
  std::string malformed;  // "" when `ply` and `move` have their types
};

struct Heartbeat {};
struct Bye {};

using AgentMessage = std::variant<Problem, Hello, MoveReply, Heartbeat, Bye>;

// Reads one frame from an agent: JSON, an object, a known type, the fields of that type.
AgentMessage parse_agent_message(std::string_view frame);

// Whether `name` may name an agent: 1 to 64 of A-Z a-z 0-9 . _ -
bool valid_agent_name(std::string_view name);

Json hello_message(const std::string& name, const std::string& version, const std::string& session = {});
Json move_message(const std::string& match, std::int64_t ply, const std::string& move);
Json heartbeat_message();
Json bye_message(const std::string& reason = {});

// ---- messages from the referee ----

// A game as the referee hands it to agents: enough for a troyka agent to compile it and for
// another engine to know which game it is.
struct GameInfo {
  std::string name;
  std::string file;
  std::string rules;  // the rule file's text
  std::string variant;
  std::vector<std::pair<std::string, std::string>> params;   // as the referee was given them
  std::vector<std::pair<std::string, std::int64_t>> values;  // every parameter's final value

  lang::Options options() const { return {variant, params}; }
};

// Reads and compiles a rule file; what `game` in match_start says about it. Throws lang::Error.
struct LoadedGame {
  GameInfo info;
  std::shared_ptr<const Game> game;
};
LoadedGame load_game(const std::string& path, const lang::Options& options);
// Compiles the rule text of a match_start. Throws lang::Error.
std::shared_ptr<const Game> compile_game(const GameInfo& info);

// The last game compiled, kept: every match of a tournament has the same game, so it is compiled
// once, not once per match.
class GameCache {
 public:
  std::shared_ptr<const Game> get(const GameInfo& info);  // throws lang::Error

 private:
  std::string key_;  // what game_ was compiled from
  std::shared_ptr<const Game> game_;
};

// A time control in milliseconds; 0 means no such limit.
struct ClockSettings {
  std::int64_t move_ms = 0;
  std::int64_t total_ms = 0;
  std::int64_t increment_ms = 0;
  bool operator==(const ClockSettings&) const = default;
};

// What a registration gets told in its welcome.
struct SessionLimits {
  std::int64_t heartbeat_ms = 1000;
  std::int64_t grace_ms = 5000;
  std::size_t max_message_bytes = 65536;
};

struct MoveRequest {
  std::string match;
  std::int64_t ply = 0;
  std::vector<std::string> moves;
  std::vector<std::string> legal;
  std::int64_t time_ms = 0;
  std::optional<std::int64_t> total_ms, opponent_total_ms;  // with a game total only; the opponent's of two
  std::vector<std::int64_t> totals_ms;  // with a game total and more than two players: each player's, by player
  // What the referee counted for the mover's previous move of this match (none before its first):
  // an agent that compares it with its own count learns how late its replies arrive.
  std::optional<std::int64_t> last_ms;
};

struct Forfeit {
  int player = 0;
  std::int64_t ply = 0;  // the plies played when it forfeited
  std::string agent;
  ForfeitCode code = ForfeitCode::IllegalMove;
  std::string detail;
};

// How a match ended, as match_end and the results file tell it.
struct MatchOutcome {
  std::string match;
  std::vector<std::string> players;  // the game's player names, in turn order
  std::vector<std::string> agents;   // by player
  Ranks ranks;                       // by player, once over
  int winner = 0;                    // the player ranked first alone, or kDraw
  std::string reason;
  // In the order they happened. With two players the first ends the game; with more, the game goes
  // on without the player who forfeited.
  std::vector<Forfeit> forfeits;
  std::vector<std::string> moves;
};

// Ends `outcome` with these ranks (by player) and this reason.
void set_end(MatchOutcome& outcome, Ranks ranks, std::string reason);

// How a match ended, in a line for people:
// "alice (White) beat bob (Black) in 17 plies: White wins by (reach Pawn far-row)".
std::string outcome_text(const MatchOutcome& outcome);
// The outcome a match_end message or event describes (players, agents, winner, reason, moves).
// Throws Json::exception on a missing field, std::runtime_error on an unknown result.
MatchOutcome outcome_from_json(const Json& end);

Json welcome_message(const std::string& name, const std::string& session, const SessionLimits& limits);
Json error_message(const Problem& problem, const std::string& match = {});
Json match_start_message(const std::string& match, const GameInfo& game, const std::vector<std::string>& players,
                         const std::vector<std::string>& agents, int you, const ClockSettings& clock);
Json move_request_message(const MoveRequest& request);
Json match_end_message(const MatchOutcome& outcome, int you);

// The parts of match_end and the results file that describe the end: result, winner, reason,
// forfeit (the first), and with more than two players ranks and forfeits (every one); `Json` in the
// order the document shows.
Json end_fields(const MatchOutcome& outcome);

// ---- what the referee publishes for watchers (its PUB socket; docs/protocol.md, section 11) ----

// A match begins; also sent again, with the moves so far, for every match in progress whenever a
// watcher subscribes. `match` is the match so far.
Json watch_match_start(int number, const GameInfo& game, const MatchOutcome& match);
// A move was played: the last of `match.moves`.
Json watch_move(const MatchOutcome& match);
// A match ended, with the scores of every agent since (best first).
Json watch_match_end(int number, const MatchOutcome& outcome, const std::vector<Standing>& ranked);
// Every game is played: the final standings (best first).
Json watch_tournament_end(const std::vector<Standing>& ranked);

Json game_info_json(const GameInfo& game);
GameInfo game_info_from_json(const Json& json);  // throws Json::exception on a missing field
Json clock_json(const ClockSettings& clock);
ClockSettings clock_from_json(const Json& json);  // throws Json::exception on a wrong type

}  // namespace troyka::referee
