// The web playground's JSON API (cli/playground.h) over a real socket: the server runs in this
// process on a free port and an httplib client talks to it as the page does.
#include "cli/playground.h"

#include <gtest/gtest.h>
#include <httplib.h>

#include <chrono>
#include <fstream>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <thread>
#include <tuple>
#include <utility>
#include <vector>

#include "tests/games.h"

namespace {

using nlohmann::json;

const std::string kTypo =
    "(game \"T\"\n  (players (White north) (Black south))\n  (board (rectangle 4 4))\n"
    "  (piece Pawn (step (foward) (to empty)))\n  (setup (place Pawn (home-rows 1)))\n"
    "  (end (lose no-legal-moves)))\n";

std::string breakthrough_text() {
  std::ifstream file(TROYKA_SOURCE_DIR "/games/breakthrough.game");
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

class PlaygroundApi : public testing::Test {
 protected:
  // The server's limits; a test of the limits gives smaller ones.
  virtual troyka::cli::PlaygroundLimits limits() const { return {}; }

  void SetUp() override {
    playground_ = std::make_unique<troyka::cli::Playground>(TROYKA_SOURCE_DIR "/games", limits());
    port_ = playground_->bind("127.0.0.1", 0);
    server_ = std::thread([this] { playground_->serve(); });
    client_ = std::make_unique<httplib::Client>("127.0.0.1", port_);
    client_->set_read_timeout(30);
    // The first answer says the server is serving, so that stop() finds it running.
    ASSERT_EQ(get("/api/limits").first, 200);
  }

  void TearDown() override {
    playground_->stop();
    server_.join();
  }

  // The status and the JSON body of a request.
  std::pair<int, json> answer(const httplib::Result& result) {
    EXPECT_TRUE(result) << "no answer: " << httplib::to_string(result.error());
    if (!result) return {0, json()};
    return {result->status, json::parse(result->body)};
  }
  std::pair<int, json> get(const std::string& path) { return answer(client_->Get(path.c_str())); }
  std::pair<int, json> post(const std::string& path, const json& body) {
    return answer(client_->Post(path.c_str(), body.dump(), "application/json"));
  }

  // A new game of Breakthrough on a 5x5 board; returns its id.
  std::string open_breakthrough() {
    const auto [status, view] =
        post("/api/sessions", {{"text", breakthrough_text()}, {"params", {{"width", 5}, {"height", 5}}}});
    EXPECT_EQ(status, 201) << view.dump();
    EXPECT_EQ(view["plies"], 0);
    return view["session"];
  }

  std::unique_ptr<troyka::cli::Playground> playground_;
  int port_ = 0;
  std::thread server_;
  std::unique_ptr<httplib::Client> client_;
};

TEST_F(PlaygroundApi, CheckGivesTheDiagnosticsExactPlace) {
  const auto [status, answer] = post("/api/check", {{"text", kTypo}, {"file", "typo.game"}});
  EXPECT_EQ(status, 200);
  EXPECT_EQ(answer["ok"], false);
  const json& diagnostic = answer["diagnostic"];
  EXPECT_EQ(diagnostic["file"], "typo.game");
  EXPECT_EQ(diagnostic["line"], 4);
  EXPECT_EQ(diagnostic["column"], 22);
  EXPECT_EQ(diagnostic["length"], 6);
  EXPECT_EQ(diagnostic["message"], "unknown direction 'foward'");
  EXPECT_EQ(diagnostic["hint"], "did you mean 'forward'?");
  const auto [fine, checked] = post("/api/check", {{"text", breakthrough_text()}, {"variant", "zillions-7x7"}});
  EXPECT_EQ(fine, 200);
  EXPECT_EQ(checked["ok"], true);
  EXPECT_EQ(checked["game"]["width"], 7);
  EXPECT_FALSE(checked.contains("warning"));
}

// Rules that load but may never end check, with the warning of `troyka check` beside them.
TEST_F(PlaygroundApi, CheckSaysWhenAGameMayNeverEnd) {
  const auto [status, answer] = post("/api/check", {{"text", troyka_tests::kEndlessGame}, {"file", "endless.game"}});
  EXPECT_EQ(status, 200);
  EXPECT_EQ(answer["ok"], true);
  const json& warning = answer["warning"];
  EXPECT_EQ(warning["line"], 2);
  EXPECT_EQ(warning["column"], 15);
  EXPECT_EQ(warning["message"], "no end rule bounds this game's length; playouts stop after 2000 plies");
}

TEST_F(PlaygroundApi, BrokenRulesDoNotStartAGame) {
  const auto [status, answer] = post("/api/sessions", {{"text", kTypo}});
  EXPECT_EQ(status, 400);
  EXPECT_EQ(answer["error"]["diagnostic"]["line"], 4);
}

TEST_F(PlaygroundApi, MovesByTextAndByClickedCells) {
  const std::string id = open_breakthrough();
  auto [status, view] = post("/api/sessions/" + id + "/moves", {{"move", "b2-b3"}});
  EXPECT_EQ(status, 200);
  EXPECT_EQ(view["to_move"], "Black");
  std::tie(status, view) = post("/api/sessions/" + id + "/moves", {{"from", "d4"}, {"to", "d3"}});
  EXPECT_EQ(status, 200);
  EXPECT_EQ(view["moves"][1]["move"], "d4-d3");
  EXPECT_EQ(view["moves"][1]["by"], "you");
  std::tie(status, view) = get("/api/sessions/" + id + "?selected=c2");
  EXPECT_EQ(status, 200);
  EXPECT_EQ(view["targets"], json::array({"c3", "d3"}));
  EXPECT_NE(view["svg"].get<std::string>().find(R"(class="cell selected" data-cell="c2")"), std::string::npos);
  std::tie(status, view) = get("/api/sessions/" + id + "?ply=1");
  EXPECT_EQ(view["ply"], 1);
  EXPECT_EQ(view["legal_moves"], json::array());  // a past position is not played from
}

TEST_F(PlaygroundApi, AnIllegalMoveIsRefused) {
  const std::string id = open_breakthrough();
  auto [status, answer] = post("/api/sessions/" + id + "/moves", {{"move", "a2-a4"}});
  EXPECT_EQ(status, 422);
  EXPECT_EQ(answer["error"]["message"], "a2-a4 is not a legal move for White; the piece there can play a2-a3 a2-b3");
  std::tie(status, answer) = post("/api/sessions/" + id + "/moves", {{"from", "a2"}, {"to", "c4"}});
  EXPECT_EQ(status, 422);
  EXPECT_EQ(answer["error"]["message"], "a2 to c4 is not a legal move for White");
  std::tie(status, answer) = post("/api/sessions/" + id + "/moves", {{"from", "a2"}, {"to", "z9"}});
  EXPECT_EQ(status, 400);
  EXPECT_EQ(answer["error"]["message"], "'z9' is not a cell of this 5x5 board");
  EXPECT_EQ(get("/api/sessions/" + id).second["plies"], 0);
}

TEST_F(PlaygroundApi, AnUnknownSessionIsNotFound) {
  auto [status, answer] = get("/api/sessions/0123456789abcdef");
  EXPECT_EQ(status, 404);
  EXPECT_EQ(answer["error"]["message"], "there is no game '0123456789abcdef' on this server");
  std::tie(status, answer) = post("/api/sessions/0123456789abcdef/moves", {{"move", "a2-a3"}});
  EXPECT_EQ(status, 404);
  std::tie(status, answer) = get("/api/jobs/0123456789abcdef");
  EXPECT_EQ(status, 404);
}

TEST_F(PlaygroundApi, BadRequestsGetJsonErrors) {
  const std::string huge(300 * 1024, 'x');
  auto [status, answer] = this->answer(client_->Post("/api/check", huge, "application/json"));
  EXPECT_EQ(status, 413);
  EXPECT_EQ(answer["error"]["message"], "the request is larger than 262144 bytes");
  std::tie(status, answer) = this->answer(client_->Post("/api/check", "{not json", "application/json"));
  EXPECT_EQ(status, 400);
  EXPECT_TRUE(answer["error"]["message"].get<std::string>().starts_with("the request is not JSON")) << answer;
  std::tie(status, answer) = post("/api/check", {{"text", 7}});
  EXPECT_EQ(status, 400);
  EXPECT_EQ(answer["error"]["message"], "\"text\" must be a string");
  std::tie(status, answer) = get("/api/nothing");
  EXPECT_EQ(status, 404);
  EXPECT_EQ(answer["error"]["message"], "nothing at GET /api/nothing");
}

TEST_F(PlaygroundApi, AnAgentMoveArrivesWithItsReport) {
  const std::string id = open_breakthrough();
  auto [status, answer] = post("/api/sessions/" + id + "/agent", {{"agent", "mcts:iterations=300,threads=4"}});
  ASSERT_EQ(status, 202) << answer;
  // An iteration budget alone is also held to the server's time limit, on one thread.
  EXPECT_EQ(answer["agent"], "mcts:iterations=300,memory=256MB,threads=1,time=5000ms");
  std::tie(status, answer) = get("/api/jobs/" + answer["job"].get<std::string>() + "?wait=10");
  EXPECT_EQ(status, 200);
  ASSERT_EQ(answer["status"], "done") << answer;
  const json& view = answer["result"];
  EXPECT_EQ(view["plies"], 1);
  EXPECT_EQ(view["to_move"], "Black");
  const json& move = view["moves"][0];
  EXPECT_EQ(move["by"], "mcts:iterations=300,threads=4");
  EXPECT_EQ(move["report"]["iterations"], 300);
  EXPECT_EQ(move["report"]["best"], move["move"]);
  EXPECT_EQ(move["report"]["threads"], 1);
  std::tie(status, answer) = post("/api/sessions/" + id + "/agent", {{"agent", "mtcs"}});
  EXPECT_EQ(status, 400);
  EXPECT_EQ(answer["error"]["message"], "unknown agent 'mtcs'");
}

// A game of three players: its session names every seat and passes the turn round them; its
// record, stepped to the end, gives the players' ranks (tied ones sharing a place).
TEST_F(PlaygroundApi, AThreePlayerGameHasEverySeatAndEndsWithRanks) {
  std::ifstream rules(TROYKA_SOURCE_DIR "/games/breakthrough-3-players.game");
  const std::string text{std::istreambuf_iterator<char>(rules), std::istreambuf_iterator<char>()};
  auto [status, view] = post("/api/sessions", {{"text", text}, {"params", {{"size", 8}}}});
  ASSERT_EQ(status, 201) << view;
  EXPECT_EQ(view["game"]["players"], json::array({"White", "Red", "Black"}));
  EXPECT_EQ(view["ranks"], nullptr);
  const std::string id = view["session"];
  for (const auto& [move, next] :
       std::vector<std::pair<std::string, std::string>>{{"c2-c3", "Red"}, {"b3-c4", "Black"}, {"c7-c6", "White"}}) {
    std::tie(status, view) = post("/api/sessions/" + id + "/moves", {{"move", move}});
    ASSERT_EQ(status, 200) << move << ": " << view;
    EXPECT_EQ(view["to_move"], next) << move;
  }
  std::ifstream file(TROYKA_SOURCE_DIR "/tests/data/records/breakthrough-3-players-random.record");
  const std::string record{std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
  std::tie(status, view) = post("/api/records", {{"record", record}});
  ASSERT_EQ(status, 201) << view;
  std::tie(status, view) = get("/api/sessions/" + view["session"].get<std::string>() + "?ply=54");
  EXPECT_EQ(view["over"], true);
  EXPECT_EQ(view["ranks"], json::array({2, 2, 1}));
  EXPECT_EQ(view["winner"], "Black");
}

TEST_F(PlaygroundApi, ARecordIsSteppedThrough) {
  auto [status, view] = post("/api/records", {{"record", troyka_tests::kSampleRecord}});
  ASSERT_EQ(status, 201) << view;
  EXPECT_EQ(view["ply"], 0);
  EXPECT_EQ(view["plies"], 14);
  EXPECT_EQ(view["moves"][1]["by"], "mcts:iterations=200");
  const std::string id = view["session"];
  std::tie(status, view) = get("/api/sessions/" + id + "?ply=3");
  EXPECT_EQ(view["ply"], 3);
  EXPECT_NE(view["svg"].get<std::string>().find(R"(class="cell last" data-cell="b3" data-player="0")"),
            std::string::npos);
  std::tie(status, view) = get("/api/sessions/" + id + "?ply=14");
  EXPECT_EQ(view["winner"], "Black");
  std::tie(status, view) = get("/api/sessions/" + id + "?ply=15");
  EXPECT_EQ(status, 400);
  EXPECT_EQ(view["error"]["message"], "ply 15 is past the end of the game (14 plies)");
  // A record with an illegal move is refused at its place.
  const std::string bad =
      troyka_tests::kSampleRecord.substr(0, troyka_tests::kSampleRecord.find("3. b2-a3")) + "3. b2-b4" +
      troyka_tests::kSampleRecord.substr(troyka_tests::kSampleRecord.find("3. b2-a3") + std::string("3. b2-a3").size());
  std::tie(status, view) = post("/api/records", {{"record", bad}});
  EXPECT_EQ(status, 400);
  EXPECT_EQ(view["error"]["diagnostic"]["line"], 14);
  EXPECT_EQ(view["error"]["diagnostic"]["column"], 34);
}

TEST_F(PlaygroundApi, AnAnalysisComparesTwoVersions) {
  const std::string text = breakthrough_text();
  auto [status, answer] = post("/api/analyses", {{"text", text},
                                                 {"games", 4},
                                                 {"agent", "mcts:iterations=50"},
                                                 {"compare", {{"text", text}, {"variant", "zillions-7x7"}}}});
  ASSERT_EQ(status, 202) << answer;
  EXPECT_EQ(answer["options"]["agent"], "mcts:iterations=50,threads=1");
  std::tie(status, answer) = get("/api/jobs/" + answer["job"].get<std::string>() + "?wait=10");
  ASSERT_EQ(answer["status"], "done") << answer;
  const json& versions = answer["result"]["versions"];
  ASSERT_EQ(versions.size(), 2u);
  EXPECT_EQ(versions[0]["label"], "edited");
  EXPECT_EQ(versions[1]["analysis"]["game"], "Breakthrough (variant \"zillions-7x7\")");
  for (const json& version : versions) {
    const json& plays = version["analysis"]["plays"];
    ASSERT_EQ(plays.size(), 2u);
    EXPECT_EQ(plays[0]["games"], 4);
    EXPECT_EQ(plays[1]["players"], "mcts:iterations=50,threads=1");
  }
  EXPECT_EQ(answer["result"]["metrics"][0]["key"], "first_wins");
  // A time budget would make every game that slow a move: the analysis agent needs iterations.
  std::tie(status, answer) = post("/api/analyses", {{"text", text}, {"agent", "mcts:time=1s"}});
  EXPECT_EQ(status, 400);
  EXPECT_EQ(answer["error"]["message"], "the analysis agent needs an iteration budget of at most 1000");
}

// Several users at once: each on its own connection opens a game and asks an agent to move; every
// search is answered, two at a time on the server's two workers.
TEST_F(PlaygroundApi, SeveralUsersPlayAtOnce) {
  constexpr int kUsers = 6;
  std::vector<std::thread> users;
  std::vector<json> views(kUsers);
  for (int user = 0; user < kUsers; ++user)
    users.emplace_back([&, user] {
      httplib::Client client("127.0.0.1", port_);
      client.set_read_timeout(30);
      const auto opened = client.Post(
          "/api/sessions", json{{"text", breakthrough_text()}, {"params", {{"width", 5}, {"height", 5}}}}.dump(),
          "application/json");
      if (!opened || opened->status != 201) return;
      const std::string id = json::parse(opened->body)["session"];
      const auto asked = client.Post(("/api/sessions/" + id + "/agent").c_str(),
                                     json{{"agent", "mcts:iterations=2000"}}.dump(), "application/json");
      if (!asked || asked->status != 202) return;
      const std::string job = json::parse(asked->body)["job"];
      const auto done = client.Get(("/api/jobs/" + job + "?wait=10").c_str());
      if (done && done->status == 200) views[user] = json::parse(done->body);
    });
  for (std::thread& user : users) user.join();
  for (int user = 0; user < kUsers; ++user) {
    ASSERT_EQ(views[user]["status"], "done") << "user " << user << ": " << views[user];
    EXPECT_EQ(views[user]["result"]["plies"], 1) << "user " << user;
    EXPECT_EQ(views[user]["result"]["moves"][0]["report"]["iterations"], 2000) << "user " << user;
  }
}

// A server kept small: a fourth game is refused while three are open, and a search that would wait
// behind a full queue is refused, both with 503 and a hint; the waiting ones still finish.
class PlaygroundLimitsApi : public PlaygroundApi {
 protected:
  troyka::cli::PlaygroundLimits limits() const override {
    troyka::cli::PlaygroundLimits small;
    small.max_sessions = 3;
    small.workers = 1;
    small.max_waiting_jobs = 1;
    return small;
  }
};

TEST_F(PlaygroundLimitsApi, AFullServerSaysSoAndKeepsWhatItHas) {
  const std::string first = open_breakthrough(), second = open_breakthrough(), third = open_breakthrough();
  auto [status, answer] =
      post("/api/sessions", {{"text", breakthrough_text()}, {"params", {{"width", 5}, {"height", 5}}}});
  EXPECT_EQ(status, 503);
  EXPECT_EQ(answer["error"]["message"], "too many games are open on this server");
  // One search runs, one waits, and a third finds the queue full.
  const json slow{{"agent", "mcts:time=1s"}};
  std::tie(status, answer) = post("/api/sessions/" + first + "/agent", slow);
  ASSERT_EQ(status, 202) << answer;
  const std::string running = answer["job"];
  // The worker takes the first search off the queue before the second comes, so the second waits.
  for (int poll = 0; poll < 500 && answer["status"] != "running"; ++poll) {
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
    answer = get("/api/jobs/" + running + "?wait=0").second;
  }
  ASSERT_EQ(answer["status"], "running") << answer;
  std::tie(status, answer) = post("/api/sessions/" + second + "/agent", slow);
  ASSERT_EQ(status, 202) << answer;
  const std::string waiting = answer["job"];
  std::tie(status, answer) = post("/api/sessions/" + third + "/agent", slow);
  EXPECT_EQ(status, 503) << answer;
  EXPECT_EQ(answer["error"]["message"], "too many searches are waiting on this server");
  EXPECT_EQ(answer["error"]["hint"], "try again in a few seconds");
  for (const std::string& job : {running, waiting}) {
    std::tie(status, answer) = get("/api/jobs/" + job + "?wait=10");
    EXPECT_EQ(answer["status"], "done") << answer;
  }
}

}  // namespace
