// The referee's parts without sockets: the checks of every agent message, a match's clocks and
// forfeits, the schedule, and the results file (docs/protocol.md is what they must do).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <map>
#include <regex>
#include <variant>

#include "referee/match.h"
#include "referee/outcome.h"
#include "referee/protocol.h"
#include "referee/remote_agent.h"
#include "referee/results.h"
#include "referee/schedule.h"
#include "tests/games.h"

namespace {

using namespace troyka::referee;
using namespace std::chrono_literals;

// ---- messages -------------------------------------------------------------------------------------

ErrorCode problem_code(std::string_view frame) {
  const AgentMessage message = parse_agent_message(frame);
  EXPECT_TRUE(std::holds_alternative<Problem>(message)) << frame;
  return std::holds_alternative<Problem>(message) ? std::get<Problem>(message).code : ErrorCode::WrongPly;
}

TEST(Protocol, EveryMalformedMessageHasItsCode) {
  EXPECT_EQ(problem_code(""), ErrorCode::MalformedMessage);
  EXPECT_EQ(problem_code("{\"type\": \"hello\""), ErrorCode::MalformedMessage);
  EXPECT_EQ(problem_code("\"hello\""), ErrorCode::MalformedMessage);
  EXPECT_EQ(problem_code("{\"type\": \"bye\", \"x\": \"\xc3\x28\"}"), ErrorCode::MalformedMessage);  // bad UTF-8
  EXPECT_EQ(problem_code(R"({"kind": "hello"})"), ErrorCode::MalformedMessage);
  EXPECT_EQ(problem_code(R"({"type": "welcome"})"), ErrorCode::UnknownType);
  EXPECT_EQ(problem_code(R"({"type":"hello","protocol":"1","name":"a","version":""})"), ErrorCode::MalformedMessage);
  EXPECT_EQ(problem_code(R"({"type":"hello","protocol":3,"name":"a","version":""})"), ErrorCode::UnsupportedProtocol);
  EXPECT_EQ(problem_code(R"({"type":"hello","protocol":1,"name":"","version":""})"), ErrorCode::InvalidName);
  EXPECT_EQ(problem_code(R"({"type":"hello","protocol":1,"name":"a/b","version":""})"), ErrorCode::InvalidName);
  EXPECT_EQ(problem_code(R"({"type":"hello","protocol":1,"name":"a","version":"","session":5})"),
            ErrorCode::MalformedMessage);
  EXPECT_EQ(problem_code(R"({"type":"move","ply":0,"move":"a2-a3"})"), ErrorCode::MalformedMessage);
}

TEST(Protocol, WellFormedMessagesAreRead) {
  const AgentMessage hello =
      parse_agent_message(R"({"type":"hello","protocol":1,"name":"alice","version":"v1","session":"s","extra":[1]})");
  ASSERT_TRUE(std::holds_alternative<Hello>(hello));
  EXPECT_EQ(std::get<Hello>(hello).name, "alice");
  EXPECT_EQ(std::get<Hello>(hello).session, "s");
  EXPECT_TRUE(std::holds_alternative<Heartbeat>(parse_agent_message(R"({"type":"heartbeat"})")));
  EXPECT_TRUE(std::holds_alternative<Bye>(parse_agent_message(R"({"type":"bye"})")));
  const AgentMessage move = parse_agent_message(R"({"type":"move","match":"1-x","ply":3,"move":"b2-b3"})");
  ASSERT_TRUE(std::holds_alternative<MoveReply>(move));
  EXPECT_EQ(std::get<MoveReply>(move).ply, 3);
  EXPECT_EQ(std::get<MoveReply>(move).malformed, "");
  // A reply with its match but a bad field is read, to be forfeited if it is owed.
  const AgentMessage bad = parse_agent_message(R"({"type":"move","match":"1-x","ply":3,"move":7})");
  EXPECT_EQ(std::get<MoveReply>(bad).malformed, "'move' must be a string");
  EXPECT_TRUE(valid_agent_name(std::string(kMaxNameLength, 'x')));
  EXPECT_FALSE(valid_agent_name(std::string(kMaxNameLength + 1, 'x')));
}

// ---- a match --------------------------------------------------------------------------------------

std::shared_ptr<const troyka::Game> small_breakthrough() {
  return load_game(TROYKA_SOURCE_DIR "/games/breakthrough.game", {"", {{"width", "5"}, {"height", "5"}}}).game;
}

// A ply cap far beyond the games of these tests.
constexpr std::uint32_t kFarPlyCap = 1000;

MoveReply reply(const Match& match, std::int64_t ply, const std::string& move) { return {match.id(), ply, move, ""}; }

TEST(RefereeMatch, ARightMoveIsPlayedAndTheOtherPlayerIsAsked) {
  const auto start = SteadyClock::time_point{} + 1h;
  Match match("1-x", 1, {"alice", "bob"}, small_breakthrough(), {1000, 0, 0}, kFarPlyCap, start);
  const MoveRequest first = match.request(start);
  EXPECT_EQ(first.ply, 0);
  EXPECT_EQ(first.time_ms, 1000);
  EXPECT_FALSE(first.total_ms.has_value());
  EXPECT_EQ(first.legal.size(), 13u);
  EXPECT_EQ(match.receive("alice", reply(match, 0, "a2-a3"), start + 300ms), std::nullopt);
  EXPECT_EQ(match.to_move(), 1);
  const MoveRequest second = match.request(start + 300ms);
  EXPECT_EQ(second.moves, std::vector<std::string>{"a2-a3"});
  EXPECT_EQ(second.time_ms, 1000);  // bob's clock starts when alice's move arrives
  // Asked again later (after a reconnection): only what is left.
  EXPECT_EQ(match.request(start + 700ms).time_ms, 600);
}

// Each request says what the referee counted for the mover's previous move, so that an agent can
// learn how late its replies arrive.
TEST(RefereeMatch, ARequestSaysWhatThePlayersPreviousMoveTook) {
  const auto start = SteadyClock::time_point{} + 1h;
  Match match("1-x", 1, {"alice", "bob"}, small_breakthrough(), {1000, 0, 0}, kFarPlyCap, start);
  EXPECT_FALSE(match.request(start).last_ms.has_value());
  EXPECT_EQ(move_request_message(match.request(start)).at("last_ms"), nullptr);
  ASSERT_EQ(match.receive("alice", reply(match, 0, "a2-a3"), start + 300ms), std::nullopt);
  EXPECT_FALSE(match.request(start + 300ms).last_ms.has_value());  // bob has not moved
  ASSERT_EQ(match.receive("bob", reply(match, 1, "e4-e3"), start + 400ms), std::nullopt);
  ASSERT_FALSE(match.over());
  EXPECT_EQ(match.request(start + 400ms).last_ms, 300);
  EXPECT_EQ(move_request_message(match.request(start + 400ms)).at("last_ms"), 300);
}

// troyka's own client compares the referee's count of its last move with its own reading, from the
// request's arrival to the reply: the difference is the lag its agent keeps in hand.
TEST(RemoteAgent, LearnsHowLateItsRepliesArriveFromTheRefereesCount) {
  MatchPlayer player(troyka::agents::parse_agent_spec("random"));
  GameInfo game;
  game.name = "breakthrough";
  game.file = "breakthrough.game";
  std::ifstream rules(TROYKA_SOURCE_DIR "/games/breakthrough.game");
  game.rules.assign(std::istreambuf_iterator<char>(rules), {});
  player.handle(match_start_message("1-x", game, {"white", "black"}, {"me", "them"}, 0, {1000, 0, 0}));
  MoveRequest request;
  request.match = "1-x";
  request.time_ms = 1000;
  const std::string first = player.handle(move_request_message(request))->at("move");
  EXPECT_EQ(player.lag_seconds(), 0);  // nothing to compare yet
  request.ply = 2;
  request.moves = {first, "a7-a6"};
  request.last_ms = 50;
  player.handle(move_request_message(request));
  // The random agent replied within a few milliseconds by its own clock; the referee counted 50
  // (up to 51: it cuts to whole milliseconds).
  EXPECT_LE(player.lag_seconds(), 0.051);
  EXPECT_GT(player.lag_seconds(), 0.041);
  // At the match's end the client logs it.
  const std::optional<Json> log = player.handle(Json{{"type", "match_end"}, {"match", "1-x"}});
  ASSERT_TRUE(log.has_value());
  EXPECT_EQ(log->at("type"), "log");
  EXPECT_TRUE(std::regex_match(
      log->at("text").get<std::string>(),
      std::regex(R"(match 1-x: replies lately arrived up to (4[2-9]|5[01])\.\d ms later than planned)")))
      << log->at("text");
  // A move lost on time brings no last_ms: the lag was at least the margin that move kept, all of
  // a 100 ms request for the random agent, which meant to take next to nothing.
  player.handle(match_start_message("2-x", game, {"white", "black"}, {"me", "them"}, 0, {100, 0, 0}));
  request = MoveRequest();
  request.match = "2-x";
  request.time_ms = 100;
  player.handle(move_request_message(request));
  const Json forfeit{{"player", "white"}, {"agent", "me"}, {"code", "time_forfeit"}, {"detail", ""}};
  player.handle(Json{{"type", "match_end"}, {"match", "2-x"}, {"forfeit", forfeit}});
  EXPECT_LE(player.lag_seconds(), 0.1);
  EXPECT_GT(player.lag_seconds(), 0.09);
  // A match sent again starts afresh: the reply before may never have reached the referee, so the
  // next request's count is compared with nothing (a huge one would otherwise raise the lag).
  player.handle(match_start_message("3-x", game, {"white", "black"}, {"me", "them"}, 0, {100, 0, 0}));
  request.match = "3-x";
  player.handle(move_request_message(request));
  player.handle(match_start_message("3-x", game, {"white", "black"}, {"me", "them"}, 0, {100, 0, 0}));
  request.last_ms = 5000;
  player.handle(move_request_message(request));
  EXPECT_LE(player.lag_seconds(), 0.1);
}

TEST(RefereeMatch, MessagesThatAreNotTheReplyOwedChangeNothing) {
  const auto start = SteadyClock::time_point{} + 1h;
  Match match("1-x", 1, {"alice", "bob"}, small_breakthrough(), {1000, 0, 0}, kFarPlyCap, start);
  EXPECT_EQ(match.receive("carol", reply(match, 0, "a2-a3"), start)->code, ErrorCode::NotYourMatch);
  EXPECT_EQ(match.receive("bob", reply(match, 0, "a4-a3"), start)->code, ErrorCode::NotYourTurn);
  EXPECT_EQ(match.receive("alice", reply(match, 5, "a2-a3"), start)->code, ErrorCode::WrongPly);
  EXPECT_FALSE(match.over());
  EXPECT_EQ(match.request(start).ply, 0);
}

TEST(RefereeMatch, IllegalLateAndMalformedRepliesForfeit) {
  const auto start = SteadyClock::time_point{} + 1h;
  const auto forfeit_of = [&](const MoveReply& sent, SteadyClock::time_point at) {
    Match match("1-x", 1, {"alice", "bob"}, small_breakthrough(), {1000, 0, 0}, kFarPlyCap, start);
    MoveReply fixed = sent;
    fixed.match = match.id();
    EXPECT_EQ(match.receive("alice", fixed, at), std::nullopt);
    EXPECT_TRUE(match.over());
    EXPECT_EQ(match.outcome().winner, 1);
    return match.outcome().forfeits.at(0);
  };
  const Forfeit illegal = forfeit_of({"", 0, "a2-a4", ""}, start);
  EXPECT_EQ(illegal.code, ForfeitCode::IllegalMove);
  EXPECT_EQ(illegal.agent, "alice");
  EXPECT_EQ(illegal.detail,
            "illegal move 'a2-a4' (a2-a4 is not a legal move for White; the piece there can play "
            "a2-a3 a2-b3)");
  // The interpreter reads a2a3, but the protocol has one spelling.
  EXPECT_EQ(forfeit_of({"", 0, "a2a3", ""}, start).detail,
            "illegal move 'a2a3' ('a2a3' is not written as the legal moves are; write a2-a3)");
  EXPECT_EQ(forfeit_of({"", 0, "a2-a3", ""}, start + 1001ms).code, ForfeitCode::TimeForfeit);
  EXPECT_EQ(forfeit_of({"", 0, "", "'ply' must be an integer"}, start).code, ForfeitCode::MalformedReply);
}

TEST(RefereeMatch, TheDeadlinePassingForfeitsWithoutAReply) {
  const auto start = SteadyClock::time_point{} + 1h;
  Match match("1-x", 1, {"alice", "bob"}, small_breakthrough(), {1000, 0, 0}, kFarPlyCap, start);
  EXPECT_FALSE(match.check_time(start + 1000ms));  // the last moment still counts
  EXPECT_TRUE(match.check_time(start + 1001ms));
  EXPECT_EQ(match.outcome().reason, "White forfeits: no move within 1000 ms");
}

// A game still going at the ply cap is a draw, so that a game that never ends cannot hold a
// tournament forever.
TEST(RefereeMatch, AGameStillGoingAtThePlyCapIsADraw) {
  const auto start = SteadyClock::time_point{} + 1h;
  Match match("1-x", 1, {"alice", "bob"}, small_breakthrough(), {1000, 0, 0}, 2, start);
  ASSERT_EQ(match.receive("alice", reply(match, 0, "a2-a3"), start + 10ms), std::nullopt);
  EXPECT_FALSE(match.over());
  ASSERT_EQ(match.receive("bob", reply(match, 1, "e4-e3"), start + 20ms), std::nullopt);
  EXPECT_TRUE(match.over());
  EXPECT_EQ(match.outcome().winner, troyka::kDraw);
  EXPECT_EQ(match.outcome().reason, "ply cap 2 reached");
  EXPECT_TRUE(match.outcome().forfeits.empty());
}

// A rule that runs away once White has moved (RunawayRule) ends the game as a draw that says why;
// no one forfeits, and the referee holding the match goes on.
TEST(RefereeMatch, ARuleThatRunsAwayEndsTheGameAsADrawThatSaysWhy) {
  const auto start = SteadyClock::time_point{} + 1h;
  const auto game = std::make_shared<const troyka::Game>(troyka::lang::load_rules(
      std::make_shared<troyka::lang::SourceFile>(troyka::lang::SourceFile{"runaway.game", troyka_tests::kRunawayGame}),
      {}));
  Match match("1-x", 1, {"alice", "bob"}, game, {1000, 0, 0}, kFarPlyCap, start);
  ASSERT_EQ(match.request(start).legal, (std::vector<std::string>{"a1-a2", "c1-c2"}));
  ASSERT_EQ(match.receive("alice", reply(match, 0, "c1-c2"), start + 10ms), std::nullopt);
  EXPECT_TRUE(match.over());
  EXPECT_EQ(match.outcome().winner, troyka::kDraw);
  EXPECT_EQ(match.outcome().reason, "stopped by an error in the rules: " + troyka_tests::kRunawayMessage);
  EXPECT_EQ(match.outcome().moves, std::vector<std::string>{"c1-c2"});
  EXPECT_TRUE(match.outcome().forfeits.empty());
}

TEST(RefereeMatch, AGameTotalShrinksByEachMoveAndGrowsByTheIncrement) {
  const auto start = SteadyClock::time_point{} + 1h;
  Match match("1-x", 1, {"alice", "bob"}, small_breakthrough(), {300, 2000, 100}, kFarPlyCap, start);
  EXPECT_EQ(match.request(start).time_ms, 300);  // the move limit is the smaller
  EXPECT_EQ(match.request(start).total_ms, 2000);
  ASSERT_EQ(match.receive("alice", reply(match, 0, "a2-a3"), start + 250ms), std::nullopt);
  const MoveRequest to_bob = match.request(start + 250ms);
  EXPECT_EQ(to_bob.total_ms, 2000);
  EXPECT_EQ(to_bob.opponent_total_ms, 2000 - 250 + 100);
  EXPECT_EQ(match.result().times_ms, std::vector<std::int64_t>{250});
}

// ---- more than two players ------------------------------------------------------------------------

std::shared_ptr<const troyka::Game> three_player_breakthrough() {
  return load_game(TROYKA_SOURCE_DIR "/games/breakthrough-3-players.game", {"", {{"size", "8"}}}).game;
}

// A forfeit puts its player out and the game goes on for the others, who skip its turns; the last
// one left wins, ranked above the one who forfeited last.
TEST(RefereeMatch, AForfeitOfThreePlayersPutsThePlayerOutAndTheGameGoesOn) {
  const auto start = SteadyClock::time_point{} + 1h;
  Match match("1-x", 1, {"alice", "bob", "carol"}, three_player_breakthrough(), {1000, 0, 0}, kFarPlyCap, start);
  ASSERT_EQ(match.receive("alice", reply(match, 0, "a1-a9"), start + 100ms), std::nullopt);
  EXPECT_FALSE(match.over());
  ASSERT_EQ(match.outcome().forfeits.size(), 1u);
  EXPECT_EQ(match.outcome().forfeits[0].code, ForfeitCode::IllegalMove);
  EXPECT_EQ(match.to_move(), 1);
  EXPECT_EQ(match.request(start + 100ms).time_ms, 1000);  // bob's clock starts at the forfeit
  EXPECT_EQ(match.request(start + 100ms).ply, 0);
  const std::string bob_move = match.request(start + 100ms).legal.at(0);
  ASSERT_EQ(match.receive("bob", reply(match, 0, bob_move), start + 200ms), std::nullopt);
  EXPECT_EQ(match.to_move(), 2);
  const std::string carol_move = match.request(start + 200ms).legal.at(0);
  ASSERT_EQ(match.receive("carol", reply(match, 1, carol_move), start + 300ms), std::nullopt);
  EXPECT_EQ(match.to_move(), 1);  // alice is skipped
  EXPECT_EQ(match.receive("alice", reply(match, 2, bob_move), start + 300ms)->code, ErrorCode::NotYourTurn);
  EXPECT_TRUE(match.check_time(start + 1301ms));  // bob is late: only carol is left
  EXPECT_TRUE(match.over());
  EXPECT_EQ(match.outcome().ranks, (Ranks{3, 2, 1}));
  EXPECT_EQ(match.outcome().winner, 2);
  EXPECT_EQ(match.outcome().reason,
            "Red forfeits: no move within 1000 ms; Black wins, the last player left: the others forfeited or lost");
  ASSERT_EQ(match.outcome().forfeits.size(), 2u);
  EXPECT_EQ(match.outcome().forfeits[1].agent, "bob");
  EXPECT_EQ(match.outcome().moves, (std::vector<std::string>{bob_move, carol_move}));
}

TEST(RefereeMatch, ThreePlayersWithAGameTotalAreToldEveryClock) {
  const auto start = SteadyClock::time_point{} + 1h;
  Match match("1-x", 1, {"alice", "bob", "carol"}, three_player_breakthrough(), {0, 2000, 0}, kFarPlyCap, start);
  ASSERT_EQ(match.receive("alice", reply(match, 0, match.request(start).legal.at(0)), start + 250ms), std::nullopt);
  const MoveRequest to_bob = match.request(start + 250ms);
  EXPECT_EQ(to_bob.total_ms, 2000);
  EXPECT_FALSE(to_bob.opponent_total_ms.has_value());
  EXPECT_EQ(to_bob.totals_ms, (std::vector<std::int64_t>{1750, 2000, 2000}));
  EXPECT_EQ(move_request_message(to_bob)["totals_ms"], Json::array({1750, 2000, 2000}));
}

// match_end of two players is as it always was; with more it adds each seat's rank and points.
TEST(Protocol, MatchEndOfThreePlayersGivesRanksAndEachSeatsResult) {
  MatchOutcome outcome;
  outcome.match = "1-x";
  outcome.players = {"White", "Red", "Black"};
  outcome.agents = {"a", "b", "c"};
  set_end(outcome, {2, 1, 3}, "Red wins by (reach Pawn far-row)");
  outcome.forfeits.push_back(Forfeit{2, 0, "c", ForfeitCode::TimeForfeit, "no move within 1000 ms"});
  const Json for_c = match_end_message(outcome, 2);
  EXPECT_EQ(for_c["result"], "2-1-3");
  EXPECT_EQ(for_c["winner"], "Red");
  EXPECT_EQ(for_c["you"], "loss");
  EXPECT_EQ(for_c["ranks"], Json::array({2, 1, 3}));
  EXPECT_EQ(for_c["rank"], 3);
  EXPECT_EQ(for_c["points"], 0.0);
  EXPECT_EQ(for_c["forfeit"]["agent"], "c");
  EXPECT_EQ(for_c["forfeits"].size(), 1u);
  EXPECT_EQ(match_end_message(outcome, 0)["you"], "draw");
  EXPECT_EQ(match_end_message(outcome, 0)["points"], 0.5);
  EXPECT_EQ(match_end_message(outcome, 1)["you"], "win");
  EXPECT_EQ(outcome_text(outcome),
            "ranks a (White) 2, b (Red) 1, c (Black) 3 in 0 plies: Red wins by (reach Pawn far-row)");
  MatchOutcome duel;
  duel.match = "2-x";
  duel.players = {"White", "Black"};
  duel.agents = {"a", "b"};
  set_end(duel, {2, 1}, "Black wins");
  std::vector<std::string> keys;
  const Json duel_end = match_end_message(duel, 0);
  for (const auto& [key, value] : duel_end.items()) keys.push_back(key);
  EXPECT_EQ(keys, (std::vector<std::string>{"type", "match", "result", "winner", "you", "reason", "forfeit", "moves"}));
}

// ---- the schedule ---------------------------------------------------------------------------------

TEST(Schedule, RoundRobinRoundsAlternateColours) {
  const auto games = make_schedule(Format::RoundRobin, {"a", "b", "c"}, 2);
  ASSERT_EQ(games.size(), 6u);
  const std::vector<std::vector<std::string>> expected{{"a", "b"}, {"a", "c"}, {"b", "c"},
                                                       {"b", "a"}, {"c", "a"}, {"c", "b"}};
  for (std::size_t game = 0; game < games.size(); ++game) {
    EXPECT_EQ(games[game].number, static_cast<int>(game) + 1);
    EXPECT_EQ(games[game].agents, expected[game]);
  }
}

// Every set of three of four agents, rotated round by round: over three rounds every agent plays
// every seat equally often.
TEST(Schedule, ThreePlayersRotateEverySetOfThreeAgents) {
  const auto games = make_schedule(Format::RoundRobin, {"a", "b", "c", "d"}, 3, 3);
  ASSERT_EQ(games.size(), 12u);
  EXPECT_EQ(games[0].agents, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(games[3].agents, (std::vector<std::string>{"b", "c", "d"}));
  EXPECT_EQ(games[4].agents, (std::vector<std::string>{"c", "a", "b"}));
  std::map<std::pair<std::string, std::size_t>, int> seats;
  for (const ScheduledGame& game : games)
    for (std::size_t seat = 0; seat < game.agents.size(); ++seat) ++seats[{game.agents[seat], seat}];
  EXPECT_EQ(seats.size(), 12u);
  for (const auto& [agent_seat, count] : seats) EXPECT_EQ(count, 3) << agent_seat.first << " " << agent_seat.second;
  const auto gauntlet = make_schedule(Format::Gauntlet, {"a", "b", "c", "d"}, 1, 3);
  ASSERT_EQ(gauntlet.size(), 3u);
  for (const ScheduledGame& game : gauntlet) EXPECT_EQ(game.agents[0], "a");
}

TEST(Schedule, AGauntletPairsTheFirstWithTheRest) {
  const auto games = make_schedule(Format::Gauntlet, {"a", "b", "c", "d"}, 1);
  ASSERT_EQ(games.size(), 3u);
  for (const ScheduledGame& game : games) EXPECT_EQ(game.agents[0], "a");
  EXPECT_EQ(parse_format("gauntlet"), Format::Gauntlet);
  EXPECT_EQ(parse_format("swiss"), std::nullopt);
}

// ---- the results file -----------------------------------------------------------------------------

std::string temp_file(const std::string& name, const std::string& text) {
  std::string path = testing::TempDir() + "troyka_results_" + std::to_string(getpid()) + "_" + name;
  std::ofstream(path, std::ios::trunc) << text;
  return path;
}

std::string header_line() {
  return tournament_header({"Breakthrough", "x.game", "(rules)", "", {}, {}}, Format::RoundRobin, 1, {"a", "b"},
                           {1000, 0, 0}, 1)
             .dump() +
         "\n";
}

const std::string kGameLine =
    R"({"type":"game","game":1,"agents":["a","b"],"players":["White","Black"],"result":"0-1",)"
    R"("forfeit":{"player":"White","code":"illegal_move"}})"
    "\n";

TEST(ResultsFile, APartialLastLineIsCutOff) {
  const std::string path = temp_file("partial", header_line() + kGameLine + R"({"type":"game","ga)");
  {
    const ResultsFile file(path);
    ASSERT_EQ(file.games().size(), 1u);
    EXPECT_EQ(file.games()[0].ranks, (troyka::referee::Ranks{2, 1}));
    EXPECT_EQ(file.games()[0].forfeiters, std::vector<int>{0});
    EXPECT_NE(file.repair().find("cut off a partial last line (18 bytes)"), std::string::npos) << file.repair();
  }
  EXPECT_EQ(std::filesystem::file_size(path), header_line().size() + kGameLine.size());
}

TEST(ResultsFile, AGameOfThreePlayersKeepsItsRanksAndEveryForfeit) {
  const std::string line =
      R"({"type":"game","game":1,"agents":["a","b","c"],"players":["White","Red","Black"],"result":"2-1-3",)"
      R"("forfeit":{"player":"Black"},"forfeits":[{"player":"Black"},{"player":"White"}]})"
      "\n";
  const ResultsFile file(temp_file("three", header_line() + line));
  ASSERT_EQ(file.games().size(), 1u);
  EXPECT_EQ(file.games()[0].agents, (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(file.games()[0].ranks, (Ranks{2, 1, 3}));
  EXPECT_EQ(file.games()[0].forfeiters, (std::vector<int>{2, 0}));
  const std::string two_player_result =
      R"({"type":"game","game":1,"agents":["a","b","c"],"players":["White","Red","Black"],"result":"1-0"})"
      "\n";
  try {
    const ResultsFile bad(temp_file("three_bad", header_line() + two_player_result));
    ADD_FAILURE() << "a result of two players was read for three";
  } catch (const troyka::lang::Error& error) {
    EXPECT_EQ(error.diagnostic().message, "line 2 of the results file: no 'result' of 3 ranks such as 1-2-3");
  }
}

TEST(ResultsFile, DamageIsReportedWithItsLine) {
  const auto error_of = [](const std::string& name, const std::string& text) {
    try {
      const ResultsFile file(temp_file(name, text));
    } catch (const troyka::lang::Error& error) {
      return error.diagnostic().message;
    }
    return std::string("no error");
  };
  EXPECT_NE(error_of("twice", header_line() + kGameLine + kGameLine).find("line 3 of the results file"),
            std::string::npos);
  EXPECT_NE(error_of("twice", header_line() + kGameLine + kGameLine).find("records game 1 again"), std::string::npos);
  EXPECT_NE(error_of("junk", header_line() + "not json\n").find("line 2 of the results file"), std::string::npos);
  EXPECT_NE(error_of("headless", kGameLine).find("does not start with a tournament line"), std::string::npos);
  EXPECT_NE(error_of("agentless", R"({"type":"tournament","agents":["a","a"]})"
                                  "\n")
                .find("does not name its agents"),
            std::string::npos);
}

TEST(ResultsFile, AHeaderForAnotherTournamentSaysWhatDiffers) {
  const Json recorded = Json::parse(header_line());
  Json current = recorded;
  EXPECT_EQ(header_difference(recorded, current), "");
  current["started"] = "later";
  current["agents"] = Json::array();  // not known yet: not compared
  EXPECT_EQ(header_difference(recorded, current), "");
  current["format"] = "gauntlet";
  EXPECT_EQ(header_difference(recorded, current), "'format' is \"round-robin\" in the file but \"gauntlet\" now");
  current = recorded;
  current["rules"] = "(other rules)";
  EXPECT_EQ(header_difference(recorded, current), "the rule text differs");
}

}  // namespace
