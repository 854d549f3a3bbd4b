// libFuzzer target for the agent protocol (docs/protocol.md): both ends of the wire get arbitrary
// bytes. The input is split at newlines into messages; each one is
//   - read by the referee (parse_agent_message), which must answer with a message or a Problem and
//     never throw; a move reply is handed to a running match of 5x5 Breakthrough as if from the
//     agent whose turn it is (or the other one, by the message's length), which must play it,
//     refuse it or forfeit, and the match must stay consistent; and
//   - read by troyka's own client (MatchPlayer, behind `troyka agent`) as if it came from a
//     referee, which may refuse it only as MatchPlayer::handle says: lang::Error, a JSON exception
//     or std::runtime_error.
// Anything else (another exception, a crash, a sanitizer report, a broken invariant) is a bug.
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <stdexcept>
#include <string_view>
#include <variant>

#include "referee/match.h"
#include "referee/protocol.h"
#include "referee/remote_agent.h"
#include "referee/results.h"

namespace {

using namespace troyka::referee;

void require(bool condition, const char* what) {
  if (condition) return;
  std::fprintf(stderr, "protocol_fuzz: broken invariant: %s\n", what);
  std::abort();
}

const LoadedGame& small_breakthrough() {
  static const LoadedGame game =
      load_game(TROYKA_SOURCE_DIR "/games/breakthrough.game", {"", {{"width", "5"}, {"height", "5"}}});
  return game;
}

// The referee's side: one message, and what the match makes of it when it is a move.
void referee_reads(std::string_view frame, Match& match, SteadyClock::time_point& now) {
  const AgentMessage message = parse_agent_message(frame);
  const auto* reply = std::get_if<MoveReply>(&message);
  if (reply == nullptr || match.over()) return;
  const int sender = frame.size() % 3 == 0 ? 1 - match.to_move() : match.to_move();
  const std::size_t moves_before = match.outcome().moves.size();
  now += std::chrono::milliseconds(frame.size() % 7);  // sometimes late: the clock is 5 ms a move
  if (match.check_time(now)) return;
  MoveReply owed = *reply;
  owed.match = match.id();  // most fuzzed ids are wrong; this reaches the move checks too
  const std::optional<Problem> problem = match.receive(match.agents()[static_cast<std::size_t>(sender)], owed, now);
  const std::size_t moves_after = match.outcome().moves.size();
  require(moves_after == moves_before || moves_after == moves_before + 1, "a reply plays at most one move");
  require(!problem || moves_after == moves_before, "a refused reply plays no move");
  if (match.over()) {
    const GameResult result = match.result();
    require(result.outcome.moves.size() == result.times_ms.size(), "every move has its time");
    (void)game_result_json(result).dump();
  }
}

// The client's side: the same bytes as a message from a referee.
void client_reads(std::string_view frame, MatchPlayer& player) {
  const Json message = Json::parse(frame, nullptr, false);
  if (!message.is_object()) return;
  try {
    if (const std::optional<Json> reply = player.handle(message)) (void)reply->dump();
  } catch (const troyka::lang::Error&) {
  } catch (const Json::exception&) {
  } catch (const std::runtime_error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view input(reinterpret_cast<const char*>(data), size);
  SteadyClock::time_point now{};
  // A short ply limit, so that inputs reach the end of a game by it as well.
  Match match("1-fuzz", 1, {"alice", "bob"}, small_breakthrough().game, {5, 0, 0}, 40, now);
  MatchPlayer player(troyka::agents::parse_agent_spec("random:seed=1"));
  for (std::size_t start = 0; start <= input.size();) {
    const std::size_t end = std::min(input.find('\n', start), input.size());
    const std::string_view frame = input.substr(start, end - start);
    referee_reads(frame, match, now);
    client_reads(frame, player);
    start = end + 1;
  }
  return 0;
}
