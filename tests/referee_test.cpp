// The referee end to end over real sockets (ipc:// on this machine): the real `troyka referee`,
// `troyka agent` and Python example processes, and agents written here that misbehave on purpose.
// Every test ends with a finished tournament whose results file holds every game exactly once.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <deque>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <set>

#include "interpreter/game.h"
#include "referee/outcome.h"
#include "tests/games.h"
#include "tests/referee_helpers.h"
#include "tests/run_troyka.h"

namespace {

using namespace referee_testing;
using namespace std::chrono_literals;

constexpr Milliseconds kTournamentTimeout = 60s;

// Options every tournament here shares: quick heartbeats, and a generous clock unless `time` is given.
std::vector<std::string> options(std::vector<std::string> agents, int games, std::vector<std::string> more = {},
                                 const std::string& time = "5s") {
  std::vector<std::string> all{"--games", std::to_string(games), "--heartbeat", "100ms", "--time", time, "--agents"};
  all.insert(all.end(), agents.begin(), agents.end());
  all.insert(all.end(), more.begin(), more.end());
  return all;
}

// Sends `frames` on a bare connection and returns the referee's answer.
Json ask(zmq::socket_t& socket, const std::vector<std::string>& frames) {
  for (std::size_t part = 0; part < frames.size(); ++part)
    (void)socket.send(zmq::buffer(frames[part]),
                      part + 1 < frames.size() ? zmq::send_flags::sndmore : zmq::send_flags::none);
  zmq::pollitem_t item{socket.handle(), 0, ZMQ_POLLIN, 0};
  if (zmq::poll(&item, 1, Milliseconds(10s)) == 0) return Json();
  zmq::message_t reply;
  (void)socket.recv(reply);
  return Json::parse(reply.to_string_view());
}

std::string error_code(const Json& reply) { return reply.value("code", "(no error: " + reply.dump() + ")"); }

// `troyka replay` replays every game of the results file at `path` with the rules its header holds
// (cli/replay_results.cpp): every move legal, each forfeit of a game of more than two players
// putting its player out at its ply, and the recorded result and reason.
void expect_results_replay(const std::string& path) {
  const troyka_tests::Outcome replay = troyka_tests::run_troyka("replay " + path + " --json");
  ASSERT_EQ(replay.status, 0) << replay.err;
  const Json report = Json::parse(replay.out);
  EXPECT_EQ(report["ok"], true);
  const Results results = read_results(path);
  ASSERT_EQ(report["games"].size(), results.games.size());
  for (std::size_t game = 0; game < results.games.size(); ++game) {
    EXPECT_EQ(report["games"][game]["result"], results.games[game]["result"]);
    EXPECT_EQ(report["games"][game]["plies"], results.games[game]["moves"].size());
  }
}

const Json* game_between(const Results& results, const std::string& first, const std::string& second) {
  for (const Json& game : results.games)
    if (game["agents"][0] == first && game["agents"][1] == second) return &game;
  return nullptr;
}

// ---- well-behaved agents ----------------------------------------------------------------------------

// ---- games of more than two players ----------------------------------------------------------------

const std::string kThreePlayers = TROYKA_SOURCE_DIR "/games/breakthrough-3-players.game";
const std::string kFourPlayers = TROYKA_SOURCE_DIR "/games/breakthrough-4-players.game";

// Three troyka agents over ZeroMQ play three games of three players: each agent plays each seat once.
TEST(RefereePlayers, ThreeTroykaAgentsPlayEverySeatOfThreePlayerBreakthrough) {
  const Workspace workspace = fresh_workspace("three_players");
  Process referee(
      referee_command_on(kThreePlayers, workspace, options({"rnd", "mcts-a", "mcts-b"}, 3, {"--param", "size=8"})),
      workspace.directory + "/ref");
  Process rnd(troyka_agent_command(workspace, "rnd", "random"), workspace.directory + "/rnd");
  Process mcts_a(troyka_agent_command(workspace, "mcts-a", "mcts:iterations=30"), workspace.directory + "/a");
  Process mcts_b(troyka_agent_command(workspace, "mcts-b", "mcts:iterations=30"), workspace.directory + "/b");
  ASSERT_EQ(referee.wait(kTournamentTimeout), 0) << referee.err();
  for (Process* agent : {&rnd, &mcts_a, &mcts_b}) EXPECT_EQ(agent->wait(10s), 0) << agent->err();
  const Results results = read_results(workspace.results());
  expect_every_game_once(results, 3);
  EXPECT_EQ(forfeit_codes(results), std::vector<std::string>(3, ""));
  const std::vector<Json> seats{Json::array({"rnd", "mcts-a", "mcts-b"}), Json::array({"mcts-b", "rnd", "mcts-a"}),
                                Json::array({"mcts-a", "mcts-b", "rnd"})};
  for (const Json& game : results.games) {
    EXPECT_EQ(game["agents"], seats[game["game"].get<std::size_t>() - 1]);
    EXPECT_EQ(game["players"], Json::array({"White", "Red", "Black"}));
    EXPECT_TRUE(troyka::referee::is_ranks_token(game["result"].get<std::string>())) << game["result"];
  }
  expect_results_replay(workspace.results());
  const std::string standings = referee.out();
  EXPECT_NE(
      standings.find("Breakthrough for three players (size=8): round-robin of 3 agents, 3 games a pairing, 3 games\n"
                     "rank agent   games  wins losses draws forfeits  score\n"),
      std::string::npos)
      << standings;
  EXPECT_EQ(standings.find("Elo"), std::string::npos) << standings;
}

// Three troyka agents play the games of three players with a placement phase and shots (Amazons),
// with hands and drops, and with scores and a ranking by pieces at a short ply limit: placements,
// drops, shots and players out go over ZeroMQ as in any game, every seat of each game is played,
// with no forfeit, and the results replay.
TEST(RefereePlayers, ThreeTroykaAgentsPlayAmazonsAndTheDropAndScoringBreakthroughs) {
  struct Case {
    std::string name;
    std::vector<std::string> params;
    std::string third_agent;
  };
  for (const Case& game :
       {Case{"amazons-3-players-placed", {"--param", "size=5"}, "mcts:iterations=30"},
        Case{"breakthrough-drops-3-players", {"--param", "size=8", "--param", "limit=40"}, "random:seed=3"},
        Case{"breakthrough-score-3-players", {"--param", "size=8", "--param", "limit=40"}, "random:seed=3"}}) {
    SCOPED_TRACE(game.name);
    const Workspace workspace = fresh_workspace(game.name);
    Process referee(referee_command_on(TROYKA_SOURCE_DIR "/games/" + game.name + ".game", workspace,
                                       options({"a", "b", "c"}, 3, game.params)),
                    workspace.directory + "/ref");
    Process a(troyka_agent_command(workspace, "a", "random"), workspace.directory + "/a");
    Process b(troyka_agent_command(workspace, "b", "random:seed=2"), workspace.directory + "/b");
    Process c(troyka_agent_command(workspace, "c", game.third_agent), workspace.directory + "/c");
    ASSERT_EQ(referee.wait(kTournamentTimeout), 0) << referee.err();
    for (Process* agent : {&a, &b, &c}) EXPECT_EQ(agent->wait(10s), 0) << agent->err();
    const Results results = read_results(workspace.results());
    expect_every_game_once(results, 3);
    EXPECT_EQ(forfeit_codes(results), std::vector<std::string>(3, ""));
    for (const Json& played : results.games)
      EXPECT_TRUE(troyka::referee::is_ranks_token(played["result"].get<std::string>())) << played["result"];
    expect_results_replay(workspace.results());
  }
}

// Four agents written here, each answering with the first legal move: one game of four players,
// and every agent told its own rank and points.
TEST(RefereePlayers, AFourPlayerGameTellsEachSeatItsRank) {
  const Workspace workspace = fresh_workspace("four_players");
  Process referee(referee_command_on(kFourPlayers, workspace, options({"n", "e", "s", "w"}, 1, {"--param", "size=8"})),
                  workspace.directory + "/ref");
  zmq::context_t context;
  TestAgent n(context, workspace.endpoint(), "n"), e(context, workspace.endpoint(), "e"),
      south(context, workspace.endpoint(), "s"), w(context, workspace.endpoint(), "w");
  ASSERT_EQ(run_until_exit({&n, &e, &south, &w}, referee, kTournamentTimeout), 0) << referee.err();
  const Results results = read_results(workspace.results());
  expect_every_game_once(results, 1);
  const Json& game = results.games.at(0);
  ASSERT_EQ(game["ranks"].size(), 4u);
  expect_results_replay(workspace.results());
  double points = 0;
  std::size_t seat = 0;
  for (TestAgent* agent : {&n, &e, &south, &w}) {
    const Json start = agent->of_type("match_start").at(0);
    EXPECT_EQ(start["agents"], Json::array({"n", "e", "s", "w"}));
    EXPECT_EQ(start["you"], game["players"][seat]);
    const Json end = agent->of_type("match_end").at(0);
    EXPECT_EQ(end["result"], game["result"]);
    EXPECT_EQ(end["ranks"], game["ranks"]);
    EXPECT_EQ(end["rank"], game["ranks"][seat]);
    points += end["points"].get<double>();
    ++seat;
  }
  EXPECT_DOUBLE_EQ(points, 2.0);  // the points of a game of n players add up to n / 2
}

// A test agent's answer to every message: from ply `first` on, an illegal move (a1-a8) to each
// move request; before it, and to every other message, what a fair agent says.
auto answers_illegally_from_ply(int first) {
  return [first](TestAgent& agent, const Json& message) {
    if (message["type"] == "move_request" && message["ply"] >= first)
      return agent.send(troyka::referee::move_message(message["match"], message["ply"], "a1-a8"));
    agent.play(message);
  };
}

// A cheat is put out of a three-player game at its first move; the two others play it to its end.
TEST(RefereePlayers, ACheatIsPutOutAndTheOthersFinishTheGame) {
  const Workspace workspace = fresh_workspace("three_cheat");
  Process referee(
      referee_command_on(kThreePlayers, workspace, options({"cheat", "fair1", "fair2"}, 1, {"--param", "size=8"})),
      workspace.directory + "/ref");
  zmq::context_t context;
  TestAgent cheat(context, workspace.endpoint(), "cheat"), fair1(context, workspace.endpoint(), "fair1"),
      fair2(context, workspace.endpoint(), "fair2");
  cheat.on_message = answers_illegally_from_ply(0);
  ASSERT_EQ(run_until_exit({&cheat, &fair1, &fair2}, referee, kTournamentTimeout), 0) << referee.err();
  EXPECT_EQ(cheat.of_type("move_request").size(), 1u);  // never asked again
  const Results results = read_results(workspace.results());
  expect_every_game_once(results, 1);
  const Json& game = results.games.at(0);
  EXPECT_EQ(game["forfeits"].size(), 1u);
  EXPECT_EQ(game["forfeit"]["code"], "illegal_move");
  EXPECT_EQ(game["forfeit"]["agent"], "cheat");
  EXPECT_EQ(game["ranks"][0], 3);
  EXPECT_GT(game["moves"].size(), 10u);  // the others played on
  EXPECT_NE(game["reason"].get<std::string>().find("(reach Pawn far-row)"), std::string::npos) << game;
  expect_results_replay(workspace.results());
  // Put out two plies later, the cheat would owe the first move, which is Red's in the file.
  std::string edited = results.lines.at(1);
  const std::string ply = R"("ply":0)";
  ASSERT_NE(edited.find(ply), std::string::npos) << edited;
  for (std::size_t at; (at = edited.find(ply)) != std::string::npos;) edited.replace(at, ply.size(), R"("ply":2)");
  const std::string tampered = workspace.directory + "/tampered.results";
  std::ofstream(tampered) << results.lines.at(0) << '\n' << edited << '\n';
  const troyka_tests::Outcome replay = troyka_tests::run_troyka("replay " + tampered);
  EXPECT_EQ(replay.status, 1);
  const std::string move = game["moves"][0].get<std::string>();
  EXPECT_TRUE(
      replay.err.starts_with(tampered + ":2:1: error: game 1: cannot play " + move + " as White's move at ply 0: "))
      << replay.err;
  // A game not played for agents away ranks those present first, whatever order putting the others
  // out would give, and has no moves to replay.
  Json not_played = game;
  not_played["game"] = 2;
  not_played["result"] = "2-1-2";
  not_played["reason"] = "not played: cheat, fair2 absent for 60 s";
  not_played["forfeits"] = Json::array({Json{{"player", "White"}, {"ply", 0}}, Json{{"player", "Black"}, {"ply", 0}}});
  not_played["moves"] = Json::array();
  const std::string absent = workspace.directory + "/absent.results";
  std::ofstream(absent) << results.lines.at(0) << '\n' << results.lines.at(1) << '\n' << not_played.dump() << '\n';
  const troyka_tests::Outcome replayed = troyka_tests::run_troyka("replay " + absent + " --quiet");
  EXPECT_EQ(replayed.status, 0) << replayed.err;
  EXPECT_EQ(replayed.out, "results ok: 2 games of Breakthrough for three players replayed\n");
  const troyka_tests::Outcome drawn = troyka_tests::run_troyka("replay " + workspace.results() + " --svg pictures");
  EXPECT_EQ(drawn.status, 1);
  EXPECT_EQ(drawn.err,
            "error: --svg draws the positions of one record, not of a results file\n"
            "hint: replay the file without --svg; `troyka match --records DIR` writes records to draw\n");
  const Json end = cheat.of_type("match_end").at(0);
  EXPECT_EQ(end["you"], "loss");
  EXPECT_EQ(end["rank"], 3);
  EXPECT_EQ(end["points"], 0.0);
  EXPECT_NE(referee.out().find("3    cheat      1     0      1     0        1  0/1 (0.0%)\n"), std::string::npos)
      << referee.out();
}

// A forfeit in the middle of a turn of two decisions: White plays its first decision, then an
// illegal second. The decision it played stays on the board, White is out, and Red, next, starts a
// whole turn of two decisions; the game goes on between Red and Black, and replays with the forfeit
// at ply 1.
TEST(RefereePlayers, AForfeitInTheMiddleOfATurnKeepsItsFirstDecisionAndTheNextPlayerStartsAWholeTurn) {
  const Workspace workspace = fresh_workspace("three_mid_turn");
  const std::string game_file = TROYKA_SOURCE_DIR "/tests/data/games/breakthrough-3-players-two-moves.game";
  Process referee(referee_command_on(game_file, workspace, options({"cheat", "fair1", "fair2"}, 1)),
                  workspace.directory + "/ref");
  zmq::context_t context;
  TestAgent cheat(context, workspace.endpoint(), "cheat"), fair1(context, workspace.endpoint(), "fair1"),
      fair2(context, workspace.endpoint(), "fair2");
  cheat.on_message = answers_illegally_from_ply(1);
  ASSERT_EQ(run_until_exit({&cheat, &fair1, &fair2}, referee, kTournamentTimeout), 0) << referee.err();
  const std::vector<Json> cheat_requests = cheat.of_type("move_request");
  ASSERT_EQ(cheat_requests.size(), 2u);  // its two decisions, and never asked again
  EXPECT_EQ(cheat_requests[0]["ply"], 0);
  EXPECT_EQ(cheat_requests[1]["ply"], 1);
  const Results results = read_results(workspace.results());
  expect_every_game_once(results, 1);
  const Json& game = results.games.at(0);
  ASSERT_EQ(game["forfeits"].size(), 1u);
  EXPECT_EQ(game["forfeits"][0]["code"], "illegal_move");
  EXPECT_EQ(game["forfeits"][0]["ply"], 1);
  EXPECT_EQ(game["ranks"][0], 3);
  EXPECT_EQ(cheat.of_type("match_end").at(0)["rank"], 3);
  // White's first decision is the game's first move; Red is asked for plies 1 and 2, Black for 3
  // and 4: whole turns.
  const std::vector<Json> red_requests = fair1.of_type("move_request");
  const std::vector<Json> black_requests = fair2.of_type("move_request");
  ASSERT_GE(red_requests.size(), 2u);
  ASSERT_GE(black_requests.size(), 2u);
  EXPECT_EQ(red_requests[0]["ply"], 1);
  EXPECT_EQ(red_requests[1]["ply"], 2);
  EXPECT_EQ(black_requests[0]["ply"], 3);
  EXPECT_EQ(black_requests[1]["ply"], 4);
  EXPECT_GT(game["moves"].size(), 5u);
  expect_results_replay(workspace.results());
}

// A cheat and a slow agent: both out, and the last one left wins at once.
TEST(RefereePlayers, WhenOnlyOneIsLeftItWins) {
  const Workspace workspace = fresh_workspace("three_left");
  Process referee(
      referee_command_on(kThreePlayers, workspace, options({"cheat", "slow", "fair"}, 1, {"--param", "size=8"}, "1s")),
      workspace.directory + "/ref");
  zmq::context_t context;
  TestAgent cheat(context, workspace.endpoint(), "cheat"), slow(context, workspace.endpoint(), "slow"),
      fair(context, workspace.endpoint(), "fair");
  cheat.on_message = [&](TestAgent& agent, const Json& message) {
    if (message["type"] == "move_request")
      return agent.send(Json{{"type", "move"}, {"match", message["match"]}, {"ply", message["ply"]}, {"move", 7}});
    agent.play(message);
  };
  slow.on_message = [&](TestAgent& agent, const Json& message) {
    if (message["type"] != "move_request") agent.play(message);  // never moves
  };
  ASSERT_EQ(run_until_exit({&cheat, &slow, &fair}, referee, kTournamentTimeout), 0) << referee.err();
  const Results results = read_results(workspace.results());
  expect_every_game_once(results, 1);
  const Json& game = results.games.at(0);
  EXPECT_EQ(game["result"], "3-2-1");
  EXPECT_EQ(game["winner_agent"], "fair");
  ASSERT_EQ(game["forfeits"].size(), 2u);
  EXPECT_EQ(game["forfeits"][0]["code"], "malformed_reply");
  EXPECT_EQ(game["forfeits"][1]["code"], "time_forfeit");
  EXPECT_EQ(game["moves"], Json::array());
  EXPECT_EQ(game["reason"],
            "Red forfeits: no move within 1000 ms; Black wins, the last player left: the others forfeited or lost");
  EXPECT_EQ(game["forfeits"][1]["ply"], 0);
  expect_results_replay(workspace.results());
  EXPECT_EQ(fair.of_type("match_end").at(0)["you"], "win");
}
TEST(RefereeTournament, ThreeTroykaAgentsPlayARoundRobin) {
  const Workspace workspace = fresh_workspace("round_robin");
  Process referee(referee_command(workspace, options({"rnd", "mcts-a", "mcts-b"}, 2)), workspace.directory + "/ref");
  Process rnd(troyka_agent_command(workspace, "rnd", "random"), workspace.directory + "/rnd");
  Process mcts_a(troyka_agent_command(workspace, "mcts-a", "mcts:iterations=50"), workspace.directory + "/a");
  Process mcts_b(troyka_agent_command(workspace, "mcts-b", "mcts:iterations=50"), workspace.directory + "/b");
  ASSERT_EQ(referee.wait(kTournamentTimeout), 0) << referee.err();
  for (Process* agent : {&rnd, &mcts_a, &mcts_b}) EXPECT_EQ(agent->wait(10s), 0) << agent->err();

  const Results results = read_results(workspace.results());
  expect_every_game_once(results, 6);
  EXPECT_EQ(forfeit_codes(results), std::vector<std::string>(6, ""));
  expect_results_replay(workspace.results());
  // Rounds of three pairings, colours swapped in the second.
  const std::vector<std::pair<std::string, std::string>> schedule{{"rnd", "mcts-a"},    {"rnd", "mcts-b"},
                                                                  {"mcts-a", "mcts-b"}, {"mcts-a", "rnd"},
                                                                  {"mcts-b", "rnd"},    {"mcts-b", "mcts-a"}};
  for (const Json& game : results.games) {
    const auto& [first, second] = schedule[game["game"].get<std::size_t>() - 1];
    EXPECT_EQ(game["agents"], Json::array({first, second}));
  }
  const std::string standings = referee.out();
  EXPECT_NE(standings.find("Breakthrough (width=5 height=5): round-robin of 3 agents, 2 games a pairing, 6 games\n"),
            std::string::npos)
      << standings;
  for (const char* agent : {"rnd", "mcts-a", "mcts-b"}) EXPECT_NE(standings.find(agent), std::string::npos);
  EXPECT_NE(rnd.err().find("the referee said goodbye: the tournament is over"), std::string::npos) << rnd.err();
}

// Two moves a turn: the referee asks the agent to move again while its turn lasts, and MCTS,
// which reads the player to move from each position it is sent, beats the random agent.
TEST(RefereeTournament, TurnsOfTwoMovesAskTheSameAgentAgain) {
  const Workspace workspace = fresh_workspace("two_moves");
  std::vector<std::string> command{TROYKA_BINARY, "referee",
                                   "--bind",      workspace.endpoint(),
                                   "--game",      TROYKA_SOURCE_DIR "/games/breakthrough-two-moves.game",
                                   "--param",     "width=5",
                                   "--param",     "height=5",
                                   "--results",   workspace.results()};
  for (const std::string& option : options({"mcts", "rnd"}, 2)) command.push_back(option);
  Process referee(command, workspace.directory + "/ref");
  Process mcts(troyka_agent_command(workspace, "mcts", "mcts:iterations=300"), workspace.directory + "/mcts");
  Process rnd(troyka_agent_command(workspace, "rnd", "random"), workspace.directory + "/rnd");
  ASSERT_EQ(referee.wait(kTournamentTimeout), 0) << referee.err();
  for (Process* agent : {&mcts, &rnd}) EXPECT_EQ(agent->wait(10s), 0) << agent->err();
  const Results results = read_results(workspace.results());
  expect_every_game_once(results, 2);
  EXPECT_EQ(forfeit_codes(results), std::vector<std::string>(2, ""));
  expect_results_replay(workspace.results());
  for (const Json& game : results.games) {
    const int mcts_player = game["agents"][0] == "mcts" ? 0 : 1;
    EXPECT_EQ(game["result"], mcts_player == 0 ? "1-0" : "0-1") << game.dump();
    EXPECT_GE(game["moves"].size(), 3u) << game.dump();  // White's one move, then Black's two
  }
}

// Writes `text` into the workspace as the rule file `name`, and returns its path.
std::string rule_file(const Workspace& workspace, const std::string& name, const std::string& text) {
  const std::string path = workspace.directory + "/" + name;
  std::ofstream(path) << text;
  return path;
}

// Two random agents play a tournament of two games of the rule file `text` on a real referee: the
// results, after checking that every game was played once and nobody forfeited.
void two_random_agents_play(const Workspace& workspace, const std::string& text, Results& played,
                            Milliseconds timeout = kTournamentTimeout) {
  const std::string game = rule_file(workspace, "game.game", text);
  Process referee(referee_command_on(game, workspace, options({"one", "two"}, 2)), workspace.directory + "/ref");
  Process one(troyka_agent_command(workspace, "one", "random"), workspace.directory + "/one");
  Process two(troyka_agent_command(workspace, "two", "random"), workspace.directory + "/two");
  ASSERT_EQ(referee.wait(timeout), 0) << referee.err();
  for (Process* agent : {&one, &two}) EXPECT_EQ(agent->wait(10s), 0) << agent->err();
  const Results results = read_results(workspace.results());
  expect_every_game_once(results, 2);
  EXPECT_EQ(forfeit_codes(results), std::vector<std::string>(2, ""));
  played = results;
}

// A game that never ends is drawn at its playout cap (2000 plies on a 4x4 board): every game of the
// tournament is played to it and recorded with the reason.
TEST(RefereeTournament, AGameThatNeverEndsIsDrawnAtThePlyCap) {
  Results results;
  // 4,000 plies over sockets: several minutes under the sanitizers.
  const Milliseconds timeout = troyka_tests::kSlowBuild ? Milliseconds(600s) : kTournamentTimeout;
  ASSERT_NO_FATAL_FAILURE(
      two_random_agents_play(fresh_workspace("endless"), troyka_tests::kEndlessGame, results, timeout));
  for (const Json& line : results.games) {
    EXPECT_EQ(line["result"], "1/2-1/2");
    EXPECT_EQ(line["reason"], "ply cap 2000 reached");
    EXPECT_EQ(line["plies"], 2000);
    EXPECT_EQ(line["moves"].size(), 2000u);
  }
}

// A game built to cycle (tests/data/games/two-kings.game) ends by threefold repetition in the
// referee too: it keeps the game's history beside the position.
TEST(RefereeTournament, AGameEndsByRepetition) {
  std::ifstream file(std::string(TROYKA_SOURCE_DIR) + "/tests/data/games/two-kings.game");
  const std::string text((std::istreambuf_iterator<char>(file)), std::istreambuf_iterator<char>());
  Results results;
  ASSERT_NO_FATAL_FAILURE(two_random_agents_play(fresh_workspace("repetition"), text, results));
  for (const Json& line : results.games) {
    EXPECT_EQ(line["result"], "1/2-1/2");
    EXPECT_EQ(line["reason"], "draw by (repetition 3)");
    EXPECT_LT(line["plies"].get<int>(), 2000);
  }
}

// A rule that runs away at play time (past the general back end's step budget, after White's first
// move) ends each match as a draw that says why; no agent forfeits, the referee goes on to the next
// game and ends the tournament as usual.
TEST(RefereeTournament, ARuleThatRunsAwayEndsItsMatchAndTheTournamentGoesOn) {
  Results results;
  ASSERT_NO_FATAL_FAILURE(two_random_agents_play(fresh_workspace("runaway"), troyka_tests::kRunawayGame, results));
  for (const Json& line : results.games) {
    EXPECT_EQ(line["result"], "1/2-1/2");
    EXPECT_EQ(line["reason"], "stopped by an error in the rules: " + troyka_tests::kRunawayMessage);
    EXPECT_EQ(line["moves"].size(), 1u);  // White's, after which Black's moves run away
  }
}

// troyka's own MCTS keeps its clock: agents that think until their clock tells them to stop (no
// budget of their own), one on one thread and one on two, play a timed round robin and lose no
// game on time. The clock is generous enough for a sanitized build on a busy machine.
TEST(RefereeTournament, TroykaAgentsThinkingToTheClockForfeitNothing) {
  const Workspace workspace = fresh_workspace("timed");
  Process referee(referee_command(workspace, options({"one", "two"}, 2, {}, "400ms")), workspace.directory + "/ref");
  Process one(troyka_agent_command(workspace, "one", "mcts"), workspace.directory + "/one");
  Process two(troyka_agent_command(workspace, "two", "mcts:threads=2"), workspace.directory + "/two");
  ASSERT_EQ(referee.wait(kTournamentTimeout), 0) << referee.err();
  for (Process* agent : {&one, &two}) EXPECT_EQ(agent->wait(10s), 0) << agent->err();
  const Results results = read_results(workspace.results());
  expect_every_game_once(results, 2);
  EXPECT_EQ(forfeit_codes(results), std::vector<std::string>(2, ""));
  expect_results_replay(workspace.results());
  // They did think to the clock: some move took most of its 400 ms (the margin is 10 ms and 5%).
  std::int64_t longest = 0;
  for (const Json& game : results.games)
    for (const Json& took : game["times_ms"]) longest = std::max(longest, took.get<std::int64_t>());
  EXPECT_GE(longest, 300);
  EXPECT_LT(longest, 400);
}

// An example agent from examples/ (its command made by `example_command` for the name "example")
// plays two games against a troyka agent, every one played out.
void expect_example_agent_plays(
    const std::string& language,
    const std::function<std::vector<std::string>(const Workspace&, const std::string&)>& example_command) {
  const Workspace workspace = fresh_workspace(language);
  Process referee(referee_command(workspace, options({"example", "troyka"}, 2)), workspace.directory + "/ref");
  Process example(example_command(workspace, "example"), workspace.directory + "/example");
  Process troyka(troyka_agent_command(workspace, "troyka", "random"), workspace.directory + "/troyka");
  ASSERT_EQ(referee.wait(kTournamentTimeout), 0) << referee.err();
  EXPECT_EQ(example.wait(10s), 0) << example.err();
  EXPECT_EQ(troyka.wait(10s), 0) << troyka.err();
  const Results results = read_results(workspace.results());
  expect_every_game_once(results, 2);
  EXPECT_EQ(forfeit_codes(results), std::vector<std::string>(2, ""));
  expect_results_replay(workspace.results());
}

TEST(RefereeTournament, ThePythonExampleAgentPlays) { expect_example_agent_plays("python", python_agent_command); }

TEST(RefereeTournament, TheJavaScriptExampleAgentPlays) { expect_example_agent_plays("node", node_agent_command); }

TEST(RefereeTournament, AGauntletPairsTheFirstAgentWithEachOther) {
  const Workspace workspace = fresh_workspace("gauntlet");
  Process referee(referee_command(workspace, options({"champion", "x", "y"}, 1, {"--format", "gauntlet"})),
                  workspace.directory + "/ref");
  zmq::context_t context;
  TestAgent champion(context, workspace.endpoint(), "champion"), x(context, workspace.endpoint(), "x"),
      y(context, workspace.endpoint(), "y");
  ASSERT_EQ(run_until_exit({&champion, &x, &y}, referee, kTournamentTimeout), 0) << referee.err();
  const Results results = read_results(workspace.results());
  expect_every_game_once(results, 2);
  EXPECT_NE(game_between(results, "champion", "x"), nullptr);
  EXPECT_NE(game_between(results, "champion", "y"), nullptr);
}

TEST(RefereeTournament, WithExpectTheFirstAgentsToComePlay) {
  const Workspace workspace = fresh_workspace("expect");
  Process referee(referee_command(workspace, {"--expect", "2", "--games", "1", "--time", "5s", "--heartbeat", "100ms"}),
                  workspace.directory + "/ref");
  zmq::context_t context;
  TestAgent first(context, workspace.endpoint(), "first");
  ASSERT_TRUE(run_until(
      {&first}, [&] { return first.registered(); }, 10s));
  TestAgent second(context, workspace.endpoint(), "second");
  ASSERT_TRUE(run_until(
      {&first, &second}, [&] { return second.registered(); }, 10s));
  // The list is full: a third agent is refused (while the game waits for the first move).
  TestAgent late(context, workspace.endpoint(), "late");
  late.keep_alive = false;
  EXPECT_TRUE(run_until(
      {&late}, [&] { return late.got_error("not_entered"); }, 10s));
  ASSERT_EQ(run_until_exit({&first, &second}, referee, kTournamentTimeout), 0) << referee.err();
  const Results results = read_results(workspace.results());
  EXPECT_EQ(results.header["agents"], Json::array({"first", "second"}));
  expect_every_game_once(results, 1);
}

// ---- misbehaving agents -----------------------------------------------------------------------------

TEST(RefereeAgents, GarbageGetsAnErrorWithItsCodeAndNothingElse) {
  const Workspace workspace = fresh_workspace("garbage");
  Process referee(referee_command(workspace, options({"junk", "fair"}, 1)), workspace.directory + "/ref");
  zmq::context_t context;
  zmq::socket_t raw(context, zmq::socket_type::dealer);
  raw.set(zmq::sockopt::linger, 0);
  raw.connect(workspace.endpoint());
  EXPECT_EQ(error_code(ask(raw, {"\xff\xfe not json"})), "malformed_message");
  EXPECT_EQ(error_code(ask(raw, {"[1, 2, 3]"})), "malformed_message");
  EXPECT_EQ(error_code(ask(raw, {std::string(30000, '[') + std::string(30000, ']')})), "malformed_message");
  EXPECT_EQ(error_code(ask(raw, {R"({"type": 42})"})), "malformed_message");
  EXPECT_EQ(error_code(ask(raw, {R"({"type": "dance"})"})), "unknown_type");
  EXPECT_EQ(error_code(ask(raw, {R"({"type": "heartbeat"})", R"({"type": "heartbeat"})"})), "multipart_message");
  EXPECT_EQ(error_code(ask(raw, {R"({"type": "heartbeat"})"})), "not_registered");
  EXPECT_EQ(error_code(ask(raw, {R"({"type":"move","match":"1-x","ply":0,"move":"a2-a3"})"})), "not_registered");
  const Json version = ask(raw, {R"({"type":"hello","protocol":2,"name":"junk","version":""})"});
  EXPECT_EQ(error_code(version), "unsupported_protocol");
  EXPECT_EQ(version["supported"], Json::array({1}));
  EXPECT_EQ(error_code(ask(raw, {R"({"type":"hello","protocol":1,"name":"junk"})"})), "malformed_message");
  EXPECT_EQ(error_code(ask(raw, {R"({"type":"hello","protocol":1,"name":"bad name!","version":""})"})), "invalid_name");
  EXPECT_EQ(error_code(ask(raw, {R"({"type":"hello","protocol":1,"name":"stranger","version":""})"})), "not_entered");

  // Registered, junk sends garbage when it owes a move, then plays: garbage that names no match
  // forfeits nothing.
  TestAgent junk(context, workspace.endpoint(), "junk"), fair(context, workspace.endpoint(), "fair");
  junk.on_message = [](TestAgent& agent, const Json& message) {
    if (message["type"] == "move_request" && message["ply"].get<int>() < 2) {
      agent.send_frames({"\x01\x02 garbage"});
      agent.send_frames({R"({"type":"move","match":7,"ply":0,"move":"a2-a3"})"});
    }
    agent.play(message);
  };
  ASSERT_EQ(run_until_exit({&junk, &fair}, referee, kTournamentTimeout), 0) << referee.err();
  EXPECT_TRUE(junk.got_error("malformed_message"));
  const Results results = read_results(workspace.results());
  expect_every_game_once(results, 1);
  EXPECT_EQ(forfeit_codes(results), std::vector<std::string>{""});
}

TEST(RefereeAgents, AHugeMessageIsRefusedAndAHugerOneCutsTheConnection) {
  const Workspace workspace = fresh_workspace("huge");
  Process referee(referee_command(workspace, options({"big", "fair"}, 1, {"--max-message-bytes", "4096"})),
                  workspace.directory + "/ref");
  zmq::context_t context;
  TestAgent big(context, workspace.endpoint(), "big"), fair(context, workspace.endpoint(), "fair");
  int welcomes = 0;
  big.on_message = [&](TestAgent& agent, const Json& message) {
    if (message["type"] == "welcome" && ++welcomes == 1)
      agent.send({{"type", "heartbeat"}, {"padding", std::string(10'000, 'x')}});
    // Beyond 16 times the limit: ZeroMQ drops the connection unread; the DEALER reconnects, the
    // referee does not know the new connection, and the agent says hello again.
    if (message["type"] == "error" && message["code"] == "message_too_large")
      agent.send({{"type", "heartbeat"}, {"padding", std::string(100'000, 'x')}});
    agent.play(message);
  };
  ASSERT_EQ(run_until_exit({&big, &fair}, referee, kTournamentTimeout), 0) << referee.err();
  EXPECT_TRUE(big.got_error("message_too_large"));
  EXPECT_TRUE(big.got_error("not_registered"));
  EXPECT_GE(welcomes, 2);
  const Results results = read_results(workspace.results());
  expect_every_game_once(results, 1);
  EXPECT_EQ(forfeit_codes(results), std::vector<std::string>{""});
}

TEST(RefereeAgents, AMoveForAnotherMatchOrOutOfTurnIsRefusedAndChangesNothing) {
  const Workspace workspace = fresh_workspace("matches");
  Process referee(referee_command(workspace, options({"a", "b", "c"}, 1)), workspace.directory + "/ref");
  zmq::context_t context;
  // c first, so that it is registered while a and b play game 1.
  TestAgent c(context, workspace.endpoint(), "c");
  ASSERT_TRUE(run_until(
      {&c}, [&] { return c.registered(); }, 10s));
  TestAgent a(context, workspace.endpoint(), "a"), b(context, workspace.endpoint(), "b");
  std::string first_match;  // a against b, in which c and b try to move
  std::string intruding_move;
  a.on_message = [&](TestAgent& agent, const Json& message) {
    if (message["type"] == "match_start" && message["agents"] == Json::array({"a", "b"}))
      first_match = message["match"];
    if (message["type"] == "move_request" && message["match"] == first_match && intruding_move.empty()) {
      const Json& legal = message["legal"];
      intruding_move = legal.back();
      c.send(troyka::referee::move_message(first_match, 0, intruding_move));    // not c's match
      b.send(troyka::referee::move_message(first_match, 0, legal[0]));          // not b's turn
      agent.send(troyka::referee::move_message(first_match, 1, legal[0]));      // wrong ply
      agent.send(troyka::referee::move_message("no-such-match", 0, legal[0]));  // no such match
    }
    if (message["type"] == "match_end" && message["match"] == first_match)
      agent.send(troyka::referee::move_message(first_match, 0, "a2-a3"));  // too late: over
    agent.play(message);
  };
  ASSERT_EQ(run_until_exit({&a, &b, &c}, referee, kTournamentTimeout), 0) << referee.err();
  EXPECT_TRUE(c.got_error("not_your_match"));
  EXPECT_TRUE(b.got_error("not_your_turn"));
  EXPECT_TRUE(a.got_error("wrong_ply"));
  EXPECT_TRUE(a.got_error("unknown_match"));
  EXPECT_TRUE(a.got_error("match_over"));
  const Results results = read_results(workspace.results());
  expect_every_game_once(results, 3);
  EXPECT_EQ(forfeit_codes(results), std::vector<std::string>(3, ""));
  const Json* game = game_between(results, "a", "b");
  ASSERT_NE(game, nullptr);
  EXPECT_EQ(game->at("match"), first_match);
  EXPECT_NE(game->at("moves")[0], intruding_move);  // a's move, not c's
  expect_results_replay(workspace.results());
}

TEST(RefereeAgents, AnIllegalMoveForfeitsTheGame) {
  const Workspace workspace = fresh_workspace("illegal");
  Process referee(referee_command(workspace, options({"cheat", "fair"}, 2)), workspace.directory + "/ref");
  zmq::context_t context;
  TestAgent cheat(context, workspace.endpoint(), "cheat"), fair(context, workspace.endpoint(), "fair");
  bool cheated = false;
  cheat.on_message = [&](TestAgent& agent, const Json& message) {
    if (message["type"] == "move_request" && !cheated) {
      cheated = true;
      return agent.send(troyka::referee::move_message(message["match"], message["ply"], "a1-a5"));
    }
    agent.play(message);
  };
  ASSERT_EQ(run_until_exit({&cheat, &fair}, referee, kTournamentTimeout), 0) << referee.err();
  const Json end = cheat.of_type("match_end").at(0);
  EXPECT_EQ(end["you"], "loss");
  EXPECT_EQ(end["forfeit"]["code"], "illegal_move");
  EXPECT_EQ(end["forfeit"]["agent"], "cheat");
  EXPECT_NE(end["reason"].get<std::string>().find("forfeits: illegal move 'a1-a5'"), std::string::npos) << end;
  EXPECT_EQ(fair.of_type("match_end").at(0)["you"], "win");
  const Results results = read_results(workspace.results());
  expect_every_game_once(results, 2);
  EXPECT_EQ(forfeit_codes(results), (std::vector<std::string>{"illegal_move", ""}));
  EXPECT_EQ(results.games[0]["winner_agent"], "fair");
}

TEST(RefereeAgents, AMoveTooLateForfeitsOnTime) {
  const Workspace workspace = fresh_workspace("slow");
  // A tiny clock only here: the well-behaved agent answers at once.
  Process referee(referee_command(workspace, options({"slow", "fair"}, 2, {}, "1s")), workspace.directory + "/ref");
  zmq::context_t context;
  TestAgent slow(context, workspace.endpoint(), "slow"), fair(context, workspace.endpoint(), "fair");
  std::optional<Json> held;
  std::chrono::steady_clock::time_point asked;
  double waited = 0;
  slow.on_message = [&](TestAgent& agent, const Json& message) {
    // Every request of the first game goes unanswered, not only the first: an agent whose welcome
    // comes after its heartbeat interval (a slow referee start) says hello twice, and the referee
    // answers each hello by sending the agent's matches and move requests again.
    if (message["type"] == "move_request" && slow.of_type("match_end").empty()) {
      if (!held) {
        held = message;
        asked = std::chrono::steady_clock::now();
      }
      return;
    }
    if (message["type"] == "match_end" && held && message["match"] == (*held)["match"]) {
      waited = std::chrono::duration<double>(std::chrono::steady_clock::now() - asked).count();
      agent.send(troyka::referee::move_message((*held)["match"], (*held)["ply"], (*held)["legal"][0]));
    }
    agent.play(message);
  };
  ASSERT_EQ(run_until_exit({&slow, &fair}, referee, kTournamentTimeout), 0) << referee.err();
  const Json end = slow.of_type("match_end").at(0);
  EXPECT_EQ(end["forfeit"]["code"], "time_forfeit");
  EXPECT_NE(end["reason"].get<std::string>().find("no move within 1000 ms"), std::string::npos) << end;
  EXPECT_GE(waited, 0.9);
  EXPECT_TRUE(slow.got_error("match_over"));  // the late move
  const Results results = read_results(workspace.results());
  expect_every_game_once(results, 2);
  EXPECT_EQ(forfeit_codes(results), (std::vector<std::string>{"time_forfeit", ""}));
}

TEST(RefereeAgents, ASilentAgentForfeitsAfterTheGraceAndMayComeBack) {
  const Workspace workspace = fresh_workspace("silent");
  Process referee(referee_command(workspace, options({"mute", "fair"}, 2, {"--grace", "1s"})),
                  workspace.directory + "/ref");
  zmq::context_t context;
  TestAgent mute(context, workspace.endpoint(), "mute"), fair(context, workspace.endpoint(), "fair");
  mute.on_message = [&](TestAgent& agent, const Json& message) {
    if (message["type"] == "move_request" && mute.of_type("match_end").empty()) {
      agent.keep_alive = false;  // silence: no move, no heartbeat
      return;
    }
    // Its registration ended with the forfeit: its next heartbeat is answered not_registered, and
    // it says hello again.
    if (message["type"] == "match_end") agent.keep_alive = true;
    agent.play(message);
  };
  ASSERT_EQ(run_until_exit({&mute, &fair}, referee, kTournamentTimeout), 0) << referee.err();
  const Json end = mute.of_type("match_end").at(0);
  EXPECT_EQ(end["forfeit"]["code"], "heartbeat_lost");
  EXPECT_GE(mute.of_type("welcome").size(), 2u);
  const Results results = read_results(workspace.results());
  expect_every_game_once(results, 2);
  EXPECT_EQ(forfeit_codes(results), (std::vector<std::string>{"heartbeat_lost", ""}));
  EXPECT_NE(referee.err().find("mute left (heartbeat_lost)"), std::string::npos) << referee.err();
}

TEST(RefereeAgents, AnAgentThatLeavesForfeitsItsGameAndLaterItsAbsentGames) {
  const Workspace workspace = fresh_workspace("leave");
  Process referee(referee_command(workspace, options({"quitter", "fair"}, 3, {"--absence", "200ms"})),
                  workspace.directory + "/ref");
  zmq::context_t context;
  TestAgent quitter(context, workspace.endpoint(), "quitter"), fair(context, workspace.endpoint(), "fair");
  quitter.on_message = [](TestAgent& agent, const Json& message) {
    if (message["type"] == "move_request") {
      agent.send(troyka::referee::bye_message());
      agent.keep_alive = false;
      return;
    }
    agent.play(message);
  };
  ASSERT_EQ(run_until_exit({&quitter, &fair}, referee, kTournamentTimeout), 0) << referee.err();
  EXPECT_EQ(quitter.of_type("match_end").at(0)["forfeit"]["code"], "left");
  EXPECT_EQ(quitter.of_type("bye").size(), 1u);
  const Results results = read_results(workspace.results());
  expect_every_game_once(results, 3);
  EXPECT_EQ(forfeit_codes(results), (std::vector<std::string>{"left", "absent", "absent"}));
  for (const Json& game : results.games) EXPECT_EQ(game["winner_agent"], "fair");
}

TEST(RefereeAgents, AnAgentThatReconnectsMidGameResumesIt) {
  const Workspace workspace = fresh_workspace("reconnect");
  Process referee(referee_command(workspace, options({"flaky", "fair"}, 1)), workspace.directory + "/ref");
  zmq::context_t context;
  TestAgent flaky(context, workspace.endpoint(), "flaky"), fair(context, workspace.endpoint(), "fair");
  std::map<int, int> requests;  // by ply: how many times it was asked
  std::vector<int> dropped;     // the plies at which it dropped its connection
  flaky.on_message = [&](TestAgent& agent, const Json& message) {
    if (message["type"] == "move_request" && ++requests[message["ply"].get<int>()] == 1) {
      // Drop the connection instead of answering: first coming back with the session's secret,
      // later without it, as a restarted process would (the name is free once the old connection
      // has been silent for a heartbeat interval; until then, name_taken and hello again).
      if (requests.size() == 2 || requests.size() == 3) {
        dropped.push_back(message["ply"]);
        return agent.connect(requests.size() == 2);
      }
    }
    agent.play(message);
  };
  ASSERT_EQ(run_until_exit({&flaky, &fair}, referee, kTournamentTimeout), 0) << referee.err();
  ASSERT_EQ(dropped.size(), 2u);
  for (const int ply : dropped) EXPECT_GE(requests[ply], 2) << "ply " << ply << " was not asked again";
  EXPECT_GE(flaky.of_type("welcome").size(), 3u);
  EXPECT_GE(flaky.of_type("match_start").size(), 3u);
  const Results results = read_results(workspace.results());
  expect_every_game_once(results, 1);
  EXPECT_EQ(forfeit_codes(results), std::vector<std::string>{""});
  expect_results_replay(workspace.results());
}

// ---- watching -----------------------------------------------------------------------------------------

// In a game of three players the watcher replays the moves with the player put out where it
// forfeited: each move is named by the player who played it, and the board follows the game.
TEST(RefereeWatch, TroykaWatchSkipsAPlayerPutOutOfAThreePlayerGame) {
  const Workspace workspace = fresh_workspace("watch_three");
  Process referee(referee_command_on(kThreePlayers, workspace,
                                     options({"cheat", "fair1", "fair2"}, 1,
                                             {"--param", "size=8", "--publish", workspace.publisher()})),
                  workspace.directory + "/ref");
  Process watch(watch_command(workspace), workspace.directory + "/watch");
  ASSERT_TRUE(run_until(
      {}, [&] { return referee.err().find("a watcher subscribed") != std::string::npos; }, 10s));
  zmq::context_t context;
  TestAgent cheat(context, workspace.endpoint(), "cheat"), fair1(context, workspace.endpoint(), "fair1"),
      fair2(context, workspace.endpoint(), "fair2");
  cheat.on_message = answers_illegally_from_ply(0);
  ASSERT_EQ(run_until_exit({&cheat, &fair1, &fair2}, referee, kTournamentTimeout), 0) << referee.err();
  ASSERT_EQ(watch.wait(10s), 0) << watch.err();
  const std::string shown = watch.out();
  const Json game = read_results(workspace.results()).games.at(0);
  ASSERT_EQ(game["forfeits"].size(), 1u);
  ASSERT_EQ(game["forfeits"][0]["ply"], 0);  // the cheat, White, is out before the first move
  std::size_t named = 0;
  for (TestAgent* agent : {&fair1, &fair2}) {
    const std::string player = agent->of_type("match_start").at(0)["you"];
    for (const Json& request : agent->of_type("move_request")) {
      const std::size_t ply = request["ply"];
      EXPECT_NE(
          shown.find(fmt::format("game 1 ply {}: {} {}\n", ply + 1, player, game["moves"][ply].get<std::string>())),
          std::string::npos)
          << player << " at ply " << ply << "\n"
          << shown;
      ++named;
    }
  }
  EXPECT_EQ(named, game["moves"].size());
  EXPECT_EQ(shown.find(": White "), std::string::npos) << shown;  // White never moved
}

TEST(RefereeWatch, TroykaWatchShowsEveryGameAndStopsAtTheEnd) {
  const Workspace workspace = fresh_workspace("watch");
  Process referee(referee_command(workspace, options({"a", "b"}, 2, {"--publish", workspace.publisher()})),
                  workspace.directory + "/ref");
  Process watch(watch_command(workspace), workspace.directory + "/watch");
  // The games wait for the watcher: the agents come once the referee has heard its subscription.
  ASSERT_TRUE(run_until(
      {}, [&] { return referee.err().find("a watcher subscribed") != std::string::npos; }, 10s));
  zmq::context_t context;
  TestAgent a(context, workspace.endpoint(), "a"), b(context, workspace.endpoint(), "b");
  ASSERT_EQ(run_until_exit({&a, &b}, referee, kTournamentTimeout), 0) << referee.err();
  ASSERT_EQ(watch.wait(10s), 0) << watch.err();
  const std::string shown = watch.out();
  const Results results = read_results(workspace.results());
  for (const Json& game : results.games) {
    const int number = game["game"];
    const std::string first = game["agents"][0], second = game["agents"][1];
    EXPECT_NE(shown.find(fmt::format("game {}: {} (White) vs {} (Black) started\n", number, first, second)),
              std::string::npos)
        << shown;
    EXPECT_NE(shown.find(fmt::format("game {} ply 1: White {}\n", number, game["moves"][0].get<std::string>())),
              std::string::npos)
        << shown;
    EXPECT_NE(shown.find(fmt::format("in {} plies: {}\nscores: ", game["plies"].get<int>(),
                                     game["reason"].get<std::string>())),
              std::string::npos)
        << shown;
  }
  EXPECT_NE(shown.find("    a b c d e\n"), std::string::npos) << shown;  // the boards
  EXPECT_NE(shown.find("the tournament is over\n1. "), std::string::npos) << shown;
}

TEST(RefereeWatch, AWatcherThatComesLateGetsTheMatchesInProgress) {
  const Workspace workspace = fresh_workspace("late_watch");
  Process referee(referee_command(workspace, options({"a", "b"}, 1, {"--publish", workspace.publisher()})),
                  workspace.directory + "/ref");
  zmq::context_t context;
  TestAgent a(context, workspace.endpoint(), "a"), b(context, workspace.endpoint(), "b");
  bool hold = true;
  std::optional<Json> held;
  a.on_message = [&](TestAgent& agent, const Json& message) {
    if (message["type"] == "move_request" && message["ply"] == 2 && hold) {
      held = message;
      return;
    }
    agent.play(message);
  };
  ASSERT_TRUE(run_until(
      {&a, &b}, [&] { return held.has_value(); }, 10s));
  zmq::socket_t watcher(context, zmq::socket_type::sub);
  watcher.set(zmq::sockopt::subscribe, "");
  watcher.connect(workspace.publisher());
  zmq::pollitem_t item{watcher.handle(), 0, ZMQ_POLLIN, 0};
  ASSERT_EQ(zmq::poll(&item, 1, Milliseconds(10s)), 1);
  zmq::message_t frame;
  (void)watcher.recv(frame);
  const Json snapshot = Json::parse(frame.to_string_view());
  EXPECT_EQ(snapshot["type"], "match_start");
  EXPECT_EQ(snapshot["match"], (*held)["match"]);
  EXPECT_EQ(snapshot["moves"], (*held)["moves"]);
  EXPECT_EQ(snapshot["game"]["params"], Json({{"width", "5"}, {"height", "5"}}));
  hold = false;
  a.play(*held);
  ASSERT_EQ(run_until_exit({&a, &b}, referee, kTournamentTimeout), 0) << referee.err();
  std::vector<std::string> types;
  while (watcher.recv(frame, zmq::recv_flags::dontwait)) types.push_back(Json::parse(frame.to_string_view())["type"]);
  ASSERT_FALSE(types.empty());
  EXPECT_EQ(types.front(), "move");  // the held move, then the rest
  EXPECT_EQ(types.back(), "tournament_end");
  EXPECT_EQ(std::count(types.begin(), types.end(), "match_end"), 1);
}

// ---- load ------------------------------------------------------------------------------------------

TEST(RefereeLoad, FiftyChallengersPlayTwoHundredGamesAndEachIsRecordedOnce) {
  const Workspace workspace = fresh_workspace("load");
  std::vector<std::string> names{"champion"};
  for (int challenger = 1; challenger <= 50; ++challenger) names.push_back(fmt::format("c{:02}", challenger));
  // The champion plays every challenger at once, so up to 50 matches run together.
  Process referee(
      referee_command(
          workspace,
          options(names, 4, {"--format", "gauntlet", "--concurrent-per-agent", "50", "--grace", "10s"}, "10s")),
      workspace.directory + "/ref");
  zmq::context_t context;
  std::deque<TestAgent> agents;
  std::vector<TestAgent*> all;
  all.reserve(names.size());
  for (const std::string& name : names) all.push_back(&agents.emplace_back(context, workspace.endpoint(), name));
  int playing = 0, most_at_once = 0;
  all[0]->on_message = [&](TestAgent& champion, const Json& message) {
    if (message["type"] == "match_start") most_at_once = std::max(most_at_once, ++playing);
    if (message["type"] == "match_end") --playing;
    champion.play(message);
  };
  ASSERT_EQ(run_until_exit(all, referee, 120s), 0) << referee.err();
  const Results results = read_results(workspace.results());
  expect_every_game_once(results, 200);
  EXPECT_EQ(forfeit_codes(results), std::vector<std::string>(200, ""));
  EXPECT_GT(most_at_once, 10);
  expect_results_replay(workspace.results());
}

// ---- the referee's own failures ---------------------------------------------------------------------

TEST(RefereeRestart, AKilledRefereeResumesWithoutReplayingFinishedGames) {
  const Workspace workspace = fresh_workspace("restart");
  const std::vector<std::string> command = referee_command(workspace, options({"a", "b", "c"}, 2));
  std::optional<Process> referee(std::in_place, command, workspace.directory + "/ref1");
  zmq::context_t context;
  TestAgent a(context, workspace.endpoint(), "a"), b(context, workspace.endpoint(), "b"),
      c(context, workspace.endpoint(), "c");
  const std::vector<TestAgent*> agents{&a, &b, &c};
  // Once two games are recorded, the agents stop answering, so the referee dies mid-game.
  bool hold = false;
  int held = 0;
  for (TestAgent* agent : agents)
    agent->on_message = [&](TestAgent& self, const Json& message) {
      if (message["type"] == "move_request" && hold) {
        ++held;
        return;
      }
      self.play(message);
    };
  ASSERT_TRUE(run_until(
      agents, [&] { return read_results(workspace.results()).games.size() >= 2; }, 30s));
  hold = true;
  ASSERT_TRUE(run_until(
      agents, [&] { return held > 0; }, 10s));
  referee->kill_now();
  const Results before = read_results(workspace.results());
  ASSERT_GE(before.games.size(), 2u);
  ASSERT_LT(before.games.size(), 6u);
  // As if it had died writing a line.
  std::ofstream(workspace.results(), std::ios::app) << R"({"type":"game","game":)";
  hold = false;

  referee.emplace(command, workspace.directory + "/ref2");
  ASSERT_EQ(run_until_exit(agents, *referee, kTournamentTimeout), 0) << referee->err();
  const std::string log = referee->err();
  EXPECT_NE(log.find("warning: cut off a partial last line"), std::string::npos) << log;
  EXPECT_NE(log.find("resuming: " + std::to_string(before.games.size()) + " of 6 games"), std::string::npos) << log;
  const Results after = read_results(workspace.results());
  expect_every_game_once(after, 6);
  ASSERT_GE(after.lines.size(), before.lines.size());
  for (std::size_t line = 0; line < before.lines.size(); ++line) EXPECT_EQ(after.lines[line], before.lines[line]);
  std::set<std::string> runs;  // the part of match ids that tells runs apart
  for (const Json& game : after.games) runs.insert(game["match"].get<std::string>().substr(2));
  EXPECT_EQ(runs.size(), 2u);
  expect_results_replay(workspace.results());
}

TEST(RefereeRestart, ATroykaAgentRegistersAgainWhenTheRefereeRestarts) {
  const Workspace workspace = fresh_workspace("agent_restart");
  const std::vector<std::string> command = referee_command(workspace, options({"holder", "troyka"}, 2));
  std::optional<Process> referee(std::in_place, command, workspace.directory + "/ref1");
  Process troyka(troyka_agent_command(workspace, "troyka", "random"), workspace.directory + "/troyka");
  zmq::context_t context;
  TestAgent holder(context, workspace.endpoint(), "holder");
  // The test's agent stops answering once a game is recorded, so the referee dies mid-game.
  bool hold = false, held = false;
  holder.on_message = [&](TestAgent& agent, const Json& message) {
    if (message["type"] == "move_request" && hold) {
      held = true;
      return;
    }
    agent.play(message);
  };
  ASSERT_TRUE(run_until(
      {&holder}, [&] { return !read_results(workspace.results()).games.empty(); }, 30s));
  hold = true;
  ASSERT_TRUE(run_until(
      {&holder}, [&] { return held; }, 10s));
  referee->kill_now();
  hold = false;
  referee.emplace(command, workspace.directory + "/ref2");
  ASSERT_EQ(run_until_exit({&holder}, *referee, kTournamentTimeout), 0) << referee->err();
  ASSERT_EQ(troyka.wait(10s), 0) << troyka.err();
  const std::string log = troyka.err();
  const std::string registered = "registered as troyka at " + workspace.endpoint();
  EXPECT_NE(log.find(registered), log.rfind(registered)) << log;  // twice
  expect_every_game_once(read_results(workspace.results()), 2);
}

TEST(RefereeRestart, AFinishedTournamentIsOverAtOnceAndAnotherOneIsRefused) {
  const Workspace workspace = fresh_workspace("finished");
  {
    Process referee(referee_command(workspace, options({"a", "b"}, 1)), workspace.directory + "/ref1");
    zmq::context_t context;
    TestAgent a(context, workspace.endpoint(), "a"), b(context, workspace.endpoint(), "b");
    ASSERT_EQ(run_until_exit({&a, &b}, referee, kTournamentTimeout), 0) << referee.err();
  }
  Process again(referee_command(workspace, options({"a", "b"}, 1)), workspace.directory + "/ref2");
  ASSERT_EQ(again.wait(10s), 0) << again.err();
  EXPECT_NE(again.out().find("round-robin of 2 agents, 1 game a pairing, 1 game\nrank agent"), std::string::npos)
      << again.out();
  Process other(referee_command(workspace, options({"a", "b"}, 3)), workspace.directory + "/ref3");
  ASSERT_EQ(other.wait(10s), 1);
  EXPECT_EQ(other.err(), "error: the results file '" + workspace.results() +
                             "' is for another tournament: 'games_per_pairing' is 1 in the file but 3 now\n"
                             "hint: give another --results file, or the options of that tournament to resume it\n");
  EXPECT_EQ(read_results(workspace.results()).games.size(), 1u);
}

TEST(RefereeCommand, BadOptionsAreRefusedBeforeAnythingStarts) {
  const Workspace workspace = fresh_workspace("options");
  const auto run = [&](const std::vector<std::string>& extra) {
    Process referee(referee_command(workspace, extra), workspace.directory + "/ref");
    EXPECT_EQ(referee.wait(10s), 1);
    return referee.err();
  };
  EXPECT_EQ(run({"--agents", "a", "b"}),
            "error: give a clock: --time (per move), --total (per game), or both\n"
            "hint: e.g. --time 1s\n");
  EXPECT_EQ(run({"--time", "1s"}),
            "error: which agents play? name them with --agents, or take the first N to come with --expect N\n"
            "hint: a results file of an earlier run also names them\n");
  EXPECT_EQ(run({"--time", "1s", "--agents", "a", "a"}), "error: --agents: 'a' is named twice\n");
  EXPECT_EQ(run({"--time", "1s", "--agents", "a", "b c"}),
            "error: --agents: 'b c' is not a valid agent name\n"
            "hint: a name is 1 to 64 characters from A-Z a-z 0-9 . _ -\n");
  EXPECT_EQ(run({"--time", "soon", "--agents", "a", "b"}),
            "error: --time: 'soon' is not a duration\nhint: write it in ms or s, at least 1ms, e.g. 200ms or 1.5s\n");
  EXPECT_EQ(run({"--time", "1s", "--agents", "a", "b", "--format", "swiss"}),
            "error: --format: unknown format 'swiss'\nhint: use round-robin or gauntlet\n");
  EXPECT_FALSE(std::filesystem::exists(workspace.results()));
}

}  // namespace
