// End-to-end tests of the troyka command line: the real binary, its output and exit codes.
#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <vector>

#include "interpreter/game.h"
#include "tests/games.h"
#include "tests/run_troyka.h"

namespace {

using troyka_tests::Outcome;
using troyka_tests::run_troyka;

nlohmann::json json_of(const Outcome& run) {
  EXPECT_EQ(run.status, 0) << run.err;
  return nlohmann::json::parse(run.out);
}

const std::string kGame = "games/breakthrough.game";

TEST(Cli, CheckAcceptsTheReferenceGame) {
  const Outcome run = run_troyka("check " + kGame);
  EXPECT_EQ(run.status, 0);
  EXPECT_EQ(run.out, "games/breakthrough.game: ok (Breakthrough, 8x8 board, 1 piece type, 3 end rules)\n");
}

TEST(Cli, CheckReportsAnErrorWithPlaceCaretAndHint) {
  const std::string path = troyka_tests::temp_path("typo.game");
  std::ofstream(path) << "(game \"T\"\n  (players (White north) (Black south))\n  (board (rectangle 4 4))\n"
                         "  (piece Pawn (step (foward) (to empty)))\n  (setup (place Pawn (home-rows 1)))\n"
                         "  (end (lose no-legal-moves)))\n";
  const Outcome run = run_troyka("check " + path);
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(run.err, path +
                         ":4:22: error: unknown direction 'foward'\n"
                         " 4 |   (piece Pawn (step (foward) (to empty)))\n"
                         "   |                      ^~~~~~\n"
                         "hint: did you mean 'forward'?\n");
}

TEST(Cli, MissingFileIsAClearError) {
  const Outcome run = run_troyka("check no/such/file.game");
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.err, "error: cannot open the rule file 'no/such/file.game'\nhint: check the path\n");
}

TEST(Cli, BadParamAndVariantAreClearErrors) {
  Outcome run = run_troyka("check " + kGame + " --param widht=6");
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.err, "error: --param widht: this game has no parameter 'widht'\nhint: did you mean 'width'?\n");
  run = run_troyka("check " + kGame + " --param width=99");
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.err,
            "error: --param width = 99 is out of range; it must be between 3 and 26\n"
            "hint: see line 7 of games/breakthrough.game\n");
  run = run_troyka("check " + kGame + " --param width");
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.err, "error: --param 'width' is not of the form NAME=VALUE\nhint: write for example --param width=6\n");
  run = run_troyka("check " + kGame + " --variant zillions-7x8");
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.err,
            "error: --variant: this game has no variant \"zillions-7x8\"\nhint: did you mean 'zillions-7x7'?\n");
}

TEST(Cli, UnknownCommandAndMissingFileArgumentFail) {
  EXPECT_NE(run_troyka("frobnicate").status, 0);
  EXPECT_NE(run_troyka("perft --depth 2").status, 0);
  EXPECT_NE(run_troyka("perft " + kGame).status, 0);  // --depth is required
}

TEST(Cli, ShowPrintsTheStartPositionAndRules) {
  const Outcome run = run_troyka("show " + kGame + " --variant zillions-7x7");
  EXPECT_EQ(run.status, 0);
  EXPECT_NE(run.out.find("Breakthrough (variant \"zillions-7x7\")"), std::string::npos);
  EXPECT_NE(run.out.find("  7  p p p p p p p\n  6  p p p p p p p\n"), std::string::npos);
  EXPECT_NE(run.out.find("position: ppppppp/ppppppp/7/7/7/PPPPPPP/PPPPPPP White 0"), std::string::npos);
  EXPECT_NE(run.out.find("White to move, 19 legal moves"), std::string::npos);
  const nlohmann::json json = json_of(run_troyka("show " + kGame + " --json --param width=5 --param height=6"));
  EXPECT_EQ(json["width"], 5);
  EXPECT_EQ(json["height"], 6);
  EXPECT_EQ(json["legal_moves"], 13);
  EXPECT_EQ(json["position"], "ppppp/ppppp/5/5/PPPPP/PPPPP White 0");
}

TEST(Cli, PerftJsonCountsMatchPublishedFigures) {
  const nlohmann::json json = json_of(run_troyka("perft " + kGame + " --depth 4 --json"));
  const std::array<std::uint64_t, 4> expected = {22, 484, 11132, 256036};
  ASSERT_EQ(json["depths"].size(), 4u);
  for (std::size_t i = 0; i < expected.size(); ++i) {
    EXPECT_EQ(json["depths"][i]["depth"], i + 1);
    EXPECT_EQ(json["depths"][i]["nodes"], expected[i]);
    EXPECT_GE(json["depths"][i]["seconds"].get<double>(), 0.0);
  }
}

TEST(Cli, PerftDivideSumsToTheTotalAfterGivenMoves) {
  const nlohmann::json json =
      json_of(run_troyka("perft " + kGame + " --depth 3 --moves \"a2-a3 h7-h6\" --divide --json"));
  std::uint64_t sum = 0;
  for (const auto& [move, nodes] : json["divide"].items()) sum += nodes.get<std::uint64_t>();
  EXPECT_EQ(sum, json["depths"][2]["nodes"].get<std::uint64_t>());
  EXPECT_EQ(json["divide"].size(), json["depths"][0]["nodes"].get<std::size_t>());
  EXPECT_TRUE(json["divide"].contains("a3-a4"));
}

TEST(Cli, PerftRejectsAnIllegalMoveInMoves) {
  const Outcome run = run_troyka("perft " + kGame + " --depth 1 --moves \"a2-a3 a3-a4\"");
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.err, "error: --moves: move 2 (a3-a4): Black has no piece on a3\n");
}

TEST(Cli, BenchRunsExactlyTheRequestedPlayouts) {
  const nlohmann::json json = json_of(run_troyka("bench " + kGame + " --playouts 500 --threads 2 --json"));
  EXPECT_EQ(json["playouts"], 500);
  EXPECT_EQ(json["threads"], 2);
  EXPECT_GT(json["playouts_per_second"].get<double>(), 0.0);
  // Random Breakthrough 8x8 games last about 64 plies; no game can end before ply 11.
  EXPECT_GT(json["plies_per_playout"].get<double>(), 40.0);
  EXPECT_LT(json["plies_per_playout"].get<double>(), 90.0);
  const double white = json["wins"]["White"], black = json["wins"]["Black"], draw = json["wins"]["draw"];
  EXPECT_DOUBLE_EQ(white + black + draw, 1.0);
  EXPECT_EQ(draw, 0.0);
}

// A game that never ends, written to a file: two kings shuffle along their home rows and no one
// can reach the far row.
std::string endless_game_file() {
  const std::string path = troyka_tests::temp_path("endless.game");
  std::ofstream(path) << troyka_tests::kEndlessGame;
  return path;
}

TEST(Cli, BenchCutsPlayoutsOfAGameThatNeverEnds) {
  const std::string path = endless_game_file();
  const nlohmann::json json = json_of(run_troyka("bench " + path + " --playouts 30 --max-plies 500 --json"));
  EXPECT_EQ(json["playouts"], 30);
  EXPECT_EQ(json["capped_playouts"], 30);
  EXPECT_EQ(json["max_plies"], 500);
  EXPECT_EQ(json["plies_per_playout"], 500.0);
  EXPECT_EQ(json["wins"]["draw"], 0.0);
  // Without --max-plies, the game's playout cap: max(2000, 20 cells a cell) on a 4x4 board.
  const Outcome text = run_troyka("bench " + path + " --playouts 10");
  EXPECT_EQ(text.status, 0) << text.err;
  EXPECT_NE(text.out.find("plies/playout    2000.00\n"), std::string::npos) << text.out;
  EXPECT_NE(text.out.find("\ncapped: 10 playouts (100.0%) at 2000 plies\n"), std::string::npos) << text.out;
  // Breakthrough's playouts all end long before the cap: nothing is cut.
  const nlohmann::json breakthrough = json_of(run_troyka("bench " + kGame + " --playouts 100 --json"));
  EXPECT_EQ(breakthrough["capped_playouts"], 0);
  EXPECT_EQ(breakthrough["max_plies"], 2000);
  EXPECT_NE(run_troyka("bench " + kGame + " --playouts 100").out.find("\ncapped: 0 playouts (0.0%) at 2000 plies\n"),
            std::string::npos);
}

// The playout cap of a game is its smallest ply limit, else max(2000, 20 plies a cell).
TEST(Cli, ThePlayoutCapIsTheSmallestPlyLimitElseGrowsWithTheBoard) {
  const std::string path = endless_game_file();
  const auto cap_of = [&](const std::string& file, const std::string& options = "") {
    return json_of(run_troyka("bench " + file + " --playouts 1 --json" + options))["max_plies"].get<int>();
  };
  EXPECT_EQ(cap_of(path), 2000);
  EXPECT_EQ(cap_of(kGame, " --param width=26 --param height=26"), 20 * 26 * 26);
  const std::string limited = troyka_tests::temp_path("endless-limited-twice.game");
  std::string text = troyka_tests::kEndlessGame;
  const std::string end = "(end (win (reach far-row)))";
  text.replace(text.find(end), end.size(), "(end (win (reach far-row)) (draw (ply-limit 300)) (lose (ply-limit 90)))");
  std::ofstream(limited) << text;
  EXPECT_EQ(cap_of(limited), 90);
  EXPECT_EQ(cap_of(limited, " --max-plies 7"), 7);
}

// match and play stop a game that never ends at the ply cap, as a draw, and its record replays.
TEST(Cli, MatchAndPlayStopAGameThatNeverEndsAtThePlyCap) {
  const std::string path = endless_game_file();
  const std::string records = troyka_tests::temp_path("endless-records");
  const nlohmann::json match =
      json_of(run_troyka("match " + path + " --agents random mcts:iterations=20 --games 2 --max-plies 40 --records " +
                         records + " --json"));
  ASSERT_EQ(match["results"].size(), 2U);
  for (const auto& game : match["results"]) {
    EXPECT_EQ(game["winner"], "draw");
    EXPECT_EQ(game["plies"], 40);
    EXPECT_EQ(game["reason"], "ply cap 40 reached");
  }
  const nlohmann::json replay = json_of(run_troyka("replay " + records + "/game-0001.record --json"));
  EXPECT_EQ(replay["winner"], "draw");
  EXPECT_EQ(replay["reason"], "ply cap 40 reached");
  EXPECT_EQ(replay["plies"], 40);
  const nlohmann::json play = json_of(run_troyka("play " + path + " --max-plies 30 --json"));
  EXPECT_EQ(play["ending"], "ply-limit");
  EXPECT_EQ(play["winner"], "draw");
  EXPECT_EQ(play["reason"], "ply cap 30 reached");
  EXPECT_EQ(play["plies"], 30);
  // Without --max-plies, at the game's playout cap.
  const nlohmann::json capped = json_of(run_troyka("play " + path + " --json"));
  EXPECT_EQ(capped["ending"], "ply-limit");
  EXPECT_EQ(capped["winner"], "draw");
  EXPECT_EQ(capped["reason"], "ply cap 2000 reached");
  EXPECT_EQ(capped["plies"], 2000);
  const nlohmann::json matched = json_of(run_troyka("match " + path + " --agents random random --games 2 --json"));
  for (const auto& game : matched["results"]) {
    EXPECT_EQ(game["winner"], "draw");
    EXPECT_EQ(game["plies"], 2000);
    EXPECT_EQ(game["reason"], "ply cap 2000 reached");
  }
  // A limit of 0 would stop every game before its first move.
  for (const std::string command : {"play", "match", "bench"}) {
    const Outcome zero =
        run_troyka(command + " " + path + " --max-plies 0" + (command == "match" ? " --agents random random" : ""));
    EXPECT_EQ(zero.status, 1) << command;
    EXPECT_EQ(zero.err, "error: --max-plies must be at least 1\n") << command;
  }
}

// A rule that runs away at play time stops play, match and analyze with its error, also when a
// search on two threads meets it: no crash, exit status 1.
TEST(Cli, ARuleThatRunsAwayStopsPlayMatchAndAnalyzeWithItsError) {
  const std::string path = troyka_tests::temp_path("runaway.game");
  std::ofstream(path) << troyka_tests::kRunawayGame;
  const std::string search = " mcts:iterations=50,threads=2";
  for (const std::string& command :
       {"play " + path + " --white" + search, "match " + path + " --games 2 --agents" + search + " random",
        "analyze " + path + " --games 2 --skill-games 0 --agent" + search}) {
    const Outcome run = run_troyka(command);
    EXPECT_EQ(run.status, 1) << command;
    EXPECT_NE(run.err.find("error: " + troyka_tests::kRunawayMessage + "\n"), std::string::npos) << command << run.err;
  }
}

// A record that stops unfinished without the ply cap's reason is still refused.
TEST(Cli, ReplayRefusesAnUnfinishedGameThatDoesNotSayItWasStopped) {
  const std::string path = endless_game_file();
  const std::string records = troyka_tests::temp_path("endless-records-edited");
  json_of(
      run_troyka("match " + path + " --agents random random --games 1 --max-plies 6 --records " + records + " --json"));
  const std::string record = records + "/game-0001.record";
  std::string text = troyka_tests::file_text(record);
  const std::string reason = "ply cap 6 reached";
  ASSERT_NE(text.find(reason), std::string::npos) << text;
  text.replace(text.find(reason), reason.size(), "ply cap 7 reached");
  std::ofstream(record) << text;
  const Outcome run = run_troyka("replay " + record + " --quiet");
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(run.err.find("error: the moves end after 6 plies but the game is not over"), std::string::npos) << run.err;
}

// check warns where nothing in the rules makes sure a game ends, at the move that can go on
// forever, and says what to add; the game still loads.
TEST(Cli, CheckWarnsThatAGameMayNeverEnd) {
  const std::string path = endless_game_file();
  const Outcome run = run_troyka("check " + path);
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out, path +
                         ":2:15: warning: no end rule bounds this game's length; playouts stop after 2000 plies\n"
                         " 2 |   (piece King (step (left right) (to empty)))\n"
                         "   |               ^\n"
                         "hint: this move of King neither captures nor always goes forward, so pieces can go back "
                         "and forth forever: add (draw (ply-limit N)) to end such a game as a draw after N plies\n" +
                         path + ": ok (Endless, 4x4 board, 1 piece type, 1 end rule)\n");
  const nlohmann::json json = json_of(run_troyka("check " + path + " --json"));
  ASSERT_EQ(json["warnings"].size(), 1U);
  EXPECT_EQ(json["warnings"][0]["line"], 2);
  EXPECT_EQ(json["warnings"][0]["column"], 15);
}

// The same game with a ply limit, and every game of games/, end for sure: no warning.
TEST(Cli, CheckFindsEveryGameOfGamesBounded) {
  const std::string limited = troyka_tests::temp_path("endless-limited.game");
  std::string text = troyka_tests::kEndlessGame;
  const std::string end = "(end (win (reach far-row)))";
  text.replace(text.find(end), end.size(), "(end (win (reach far-row)) (draw (ply-limit 200)))");
  std::ofstream(limited) << text;
  std::vector<std::string> files{limited};
  for (const auto& entry : std::filesystem::directory_iterator(TROYKA_SOURCE_DIR "/games"))
    files.push_back(entry.path().string());
  for (const std::string& file : files)
    EXPECT_EQ(json_of(run_troyka("check " + file + " --json"))["warnings"], nlohmann::json::array()) << file;
}

// Of the ZRF files, those whose pieces may go back and forth forever (kings, rooks: ZRF has no
// draw by quiet moves) get the warning, at that move; the others end for sure. majority-captures.zrf's
// and most-kings-captures.zrf's men jump backwards, which the checker cannot tell always capture, so
// they are warned of too; so is en-passant.zrf, whose pawns go forward in core forms, where the
// checker cannot tell, and french-solitaire-dagaz.zrf, whose jumps, on the general back end, always
// capture. three-players.zrf's men step every way.
TEST(Cli, CheckWarnsOfTheZrfFilesThatMayNeverEnd) {
  const std::map<std::string, std::string> unbounded{{"castling.zrf", ":26:7: warning"},
                                                     {"crowning-captures.zrf", ":39:25: warning"},
                                                     {"english-checkers.zrf", ":38:25: warning"},
                                                     {"en-passant.zrf", ":33:7: warning"},
                                                     {"french-solitaire-dagaz.zrf", ":51:22: warning"},
                                                     {"hops-round-a-square.zrf", ":26:34: warning"},
                                                     {"kings-and-pawns.zrf", ":26:21: warning"},
                                                     {"majority-captures.zrf", ":26:25: warning"},
                                                     {"most-kings-captures.zrf", ":27:25: warning"},
                                                     {"rooks-and-knights.zrf", ":14:39: warning"},
                                                     {"three-players.zrf", ":25:25: warning"}};
  for (const auto& entry : std::filesystem::directory_iterator(TROYKA_SOURCE_DIR "/tests/data/zrf")) {
    if (entry.path().extension() != ".zrf") continue;
    const std::string file = entry.path().string();
    const Outcome run = run_troyka("check " + file);
    if (run.status != 0) continue;  // not every ZRF file loads
    const auto expected = unbounded.find(entry.path().filename().string());
    if (expected == unbounded.end()) {
      EXPECT_EQ(run.out.find("warning"), std::string::npos) << run.out;
      continue;
    }
    EXPECT_NE(run.out.find(file + expected->second), std::string::npos) << run.out;
    EXPECT_NE(run.out.find("warning: no end rule bounds this game's length; playouts stop after 2000 plies\n"),
              std::string::npos)
        << run.out;
  }
}

// A rule of the general back end is measured as a step is: one that only goes forward (here it
// also leaves the board, as Breakthrough scoring's pawns do) bounds the game; one that may go back
// gets the warning, at the rule.
TEST(Cli, CheckMeasuresGeneralRulesThatOnlyGoForward) {
  const auto game = [](const std::string& name, const std::string& way) {
    const std::string path = troyka_tests::temp_path(name);
    std::ofstream(path) << "(game \"Exits\" (players (White north) (Black south)) (board (rectangle 4 4))\n"
                           "  (counter score (range 0 9))\n"
                           "  (piece Pawn \"P\"\n"
                           "    (moves (go "
                        << way
                        << ") empty (if (in far-row) (seq exit (add score 1)))))\n"
                           "  (setup (place Pawn (home-rows 1)))\n"
                           "  (end (win (>= (counter score) 2)) (lose no-legal-moves)))\n";
    return path;
  };
  const std::string forward = game("exits-forward.game", "(forward forward-left)");
  EXPECT_EQ(json_of(run_troyka("check " + forward + " --json"))["warnings"], nlohmann::json::array());
  const std::string back = game("exits-back.game", "(forward backward)");
  const Outcome run = run_troyka("check " + back);
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_NE(
      run.out.find(back + ":4:5: warning: no end rule bounds this game's length; playouts stop after 2000 plies\n"
                          " 4 |     (moves (go (forward backward)) empty (if (in far-row) (seq exit (add score 1)))))\n"
                          "   |     ^\n"
                          "hint: this rule runs on the general back end, and troyka cannot tell that its moves "
                          "always go forward: add (draw (ply-limit N)) to end such a game as a draw after N plies\n"),
      std::string::npos)
      << run.out;
}

// Drops with captures can refill the board forever.
TEST(Cli, CheckWarnsThatDropsAndCapturesMayNeverEnd) {
  const std::string path = troyka_tests::temp_path("drop-and-take.game");
  std::ofstream(path) << "(game \"Drop and take\" (players (White north) (Black south)) (board (rectangle 3 3))\n"
                         "  (piece Stone (drop)\n"
                         "    (step all-directions (to enemy) capture))\n"
                         "  (setup)\n"
                         "  (end (win (in-a-row 3))))\n";
  const Outcome run = run_troyka("check " + path);
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_NE(run.out.find(path + ":3:5: warning: no end rule bounds this game's length; playouts stop after 2000 plies\n"
                                " 3 |     (step all-directions (to enemy) capture))\n"
                                "   |     ^\n"
                                "hint: pieces are dropped, and this move of Stone takes them off again: add (draw "
                                "(ply-limit N)) to end such a game as a draw after N plies\n"),
            std::string::npos)
      << run.out;
}

TEST(Cli, BenchRejectsBadThreadCount) {
  const Outcome run = run_troyka("bench " + kGame + " --threads 0 --playouts 1");
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.err, "error: --threads must be between 1 and 256\n");
}

TEST(Cli, PlayIsReproducibleAndEveryMoveIsLegal) {
  const nlohmann::json first = json_of(run_troyka("play " + kGame + " --seed 11 --json"));
  const nlohmann::json second = json_of(run_troyka("play " + kGame + " --seed 11 --json"));
  EXPECT_EQ(first, second);
  // Replay the printed moves through the API: each must be legal and the end must agree.
  const troyka::Game game = troyka::Game::load(std::string(TROYKA_SOURCE_DIR) + "/" + kGame);
  game.visit([&](const auto& program) {
    auto state = program.initial_state();
    for (const auto& move : first["moves"]) {
      ASSERT_FALSE(state.over);
      const troyka::ParsedMove parsed = program.parse_move(state, move.get<std::string>());
      ASSERT_TRUE(parsed.ok()) << parsed.error;
      program.apply(state, parsed.move);
    }
    EXPECT_TRUE(state.over);
    EXPECT_EQ(first["winner"], program.rules().players[static_cast<std::size_t>(state.winner)].name);
    EXPECT_EQ(first["plies"], state.ply);
    EXPECT_EQ(first["reason"], program.end_reason(state));
  });
}

TEST(Cli, PlayShowsEveryMoveAndTheResult) {
  const Outcome run = run_troyka("play " + kGame + " --seed 3 --param width=4 --param height=5");
  EXPECT_EQ(run.status, 0);
  EXPECT_EQ(run.out.rfind("Breakthrough\n  5 ♟ ♟ ♟ ♟ 5\n", 0), 0u) << run.out;
  EXPECT_NE(run.out.find("1. White "), std::string::npos);
  EXPECT_NE(run.out.find("\nresult: "), std::string::npos);
}

TEST(Cli, PlayRejectsUnknownAgents) {
  const Outcome run = run_troyka("play " + kGame + " --white mtcs");
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.err, "error: unknown agent 'mtcs'\nhint: did you mean 'mcts'? valid agents: mcts, random, uct\n");
}

}  // namespace
