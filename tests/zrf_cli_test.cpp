// End-to-end tests of ZRF files through the troyka binary: check, perft, translate (and loading its
// output back), play, match with records and their replay, and a tournament's rule text.
#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <nlohmann/json.hpp>
#include <string>

#include "referee/protocol.h"
#include "tests/run_troyka.h"

namespace {

using troyka_tests::Outcome;
using troyka_tests::run_troyka;

const std::string kZrf = "tests/data/zrf/breakthrough-dagaz.zrf";

TEST(ZrfCli, CheckAndPerftReadZrfFiles) {
  Outcome run = run_troyka("check " + kZrf);
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out, kZrf + ": ok (Breakthrough (8x8), 8x8 board, 1 piece type, 3 end rules)\n");
  run = run_troyka("perft " + kZrf + " --variant \"Breakthrough (6x6)\" --depth 4 --json");
  ASSERT_EQ(run.status, 0) << run.err;
  const nlohmann::json perft = nlohmann::json::parse(run.out);
  EXPECT_EQ(perft["depths"][3]["nodes"], 71478);
}

TEST(ZrfCli, TranslateGivesATroykaFileWithTheSamePerft) {
  const Outcome translation = run_troyka("translate " + kZrf + " --variant 1");
  ASSERT_EQ(translation.status, 0) << translation.err;
  EXPECT_EQ(translation.out.rfind("; Breakthrough (7x7), variant \"Breakthrough (7x7)\", translated by troyka from " +
                                      kZrf + "\n(game \"Breakthrough (7x7)\"\n",
                                  0),
            0u)
      << translation.out;
  const std::string path = troyka_tests::temp_path("translated-7x7.game");
  std::ofstream(path) << translation.out;
  const Outcome check = run_troyka("check " + path);
  EXPECT_EQ(check.status, 0) << check.err;
  const Outcome original = run_troyka("perft " + kZrf + " --variant 1 --depth 4 --json");
  const Outcome again = run_troyka("perft " + path + " --depth 4 --json");
  ASSERT_EQ(again.status, 0) << again.err;
  EXPECT_EQ(nlohmann::json::parse(original.out)["depths"][3]["nodes"],
            nlohmann::json::parse(again.out)["depths"][3]["nodes"]);
}

// tests/data/zrf/english-checkers.zrf moves on the general back end (add-partial, move-priorities):
// the translation writes those moves in core forms and plays the same game. Its chains of captures
// are repetitions the language proves to end (every pass takes a piece not taken yet), so they are
// written without a bound; a repetition it cannot prove gets (at-most CELLS) (turkish-dama in
// tests/zrf_test.cpp).
TEST(ZrfCli, TranslateWritesMovesInCoreForms) {
  const std::string zrf = "tests/data/zrf/english-checkers.zrf";
  const Outcome translation = run_troyka("translate " + zrf);
  ASSERT_EQ(translation.status, 0) << translation.err;
  EXPECT_NE(translation.out.find("\n  (piece Man \"M\"\n    (moves (only Black)\n      (or\n"), std::string::npos)
      << translation.out;
  EXPECT_NE(translation.out.find("waypoint)"), std::string::npos) << translation.out;
  EXPECT_EQ(translation.out.find("(at-most"), std::string::npos) << translation.out;
  const std::string path = troyka_tests::temp_path("translated-english-checkers.game");
  std::ofstream(path) << translation.out;
  const Outcome original = run_troyka("perft " + zrf + " --depth 6 --json");
  const Outcome again = run_troyka("perft " + path + " --depth 6 --json");
  ASSERT_EQ(again.status, 0) << again.err;
  for (int depth = 0; depth < 6; ++depth)
    EXPECT_EQ(nlohmann::json::parse(original.out)["depths"][depth]["nodes"],
              nlohmann::json::parse(again.out)["depths"][depth]["nodes"])
        << depth + 1;
}

// Counters and (legal ...) are written too: the scoring Breakthrough and king and rook translate to
// files with the same perft.
TEST(ZrfCli, TranslateWritesCountersAndLegality) {
  for (const std::string file : {"games/breakthrough-score.game", "tests/data/games/king-and-rook.game"}) {
    const Outcome translation = run_troyka("translate " + file);
    ASSERT_EQ(translation.status, 0) << translation.err;
    const std::string path = troyka_tests::temp_path("translated.game");
    std::ofstream(path) << translation.out;
    const Outcome original = run_troyka("perft " + file + " --depth 4 --json");
    const Outcome again = run_troyka("perft " + path + " --depth 4 --json");
    ASSERT_EQ(again.status, 0) << again.err;
    EXPECT_EQ(nlohmann::json::parse(original.out)["depths"][3]["nodes"],
              nlohmann::json::parse(again.out)["depths"][3]["nodes"])
        << file;
  }
  EXPECT_NE(run_troyka("translate games/breakthrough-score.game").out.find("  (counter score (range 0 3))\n"),
            std::string::npos);
  EXPECT_NE(run_troyka("translate tests/data/games/king-and-rook.game").out.find("  (legal (not (in-check King)))\n"),
            std::string::npos);
}

// A puzzle of one player whose macros come from an included file, and a game of three players:
// check, perft, show, play to the end, and a translation with the same perft, from the command line.
TEST(ZrfCli, OnePlayerWithAnIncludeAndThreePlayers) {
  const std::string slide = "tests/data/zrf/slide/slide.zrf", three = "tests/data/zrf/three-players.zrf";
  Outcome run = run_troyka("check " + slide);
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_NE(run.out.find(slide + ": ok (Slide, 3x2 board, 5 piece types, 2 end rules)\n"), std::string::npos)
      << run.out;
  for (const auto& [file, nodes] : {std::pair{slide, 12}, std::pair{three, 12}}) {
    run = run_troyka("perft " + file + " --depth 3 --json");
    ASSERT_EQ(run.status, 0) << run.err;
    EXPECT_EQ(nlohmann::json::parse(run.out)["depths"][2]["nodes"], nodes) << file;
    const Outcome translation = run_troyka("translate " + file);
    ASSERT_EQ(translation.status, 0) << translation.err;
    const std::string path = troyka_tests::temp_path(std::filesystem::path(file).stem().string() + ".game");
    std::ofstream(path) << translation.out;
    const Outcome again = run_troyka("perft " + path + " --depth 3 --json");
    ASSERT_EQ(again.status, 0) << again.err;
    EXPECT_EQ(nlohmann::json::parse(again.out)["depths"][2]["nodes"], nodes) << file << translation.out;
    run = run_troyka("play " + file + " --seed 2 --max-plies 300 --json");
    ASSERT_EQ(run.status, 0) << run.err;
    EXPECT_EQ(nlohmann::json::parse(run.out)["ending"], "finished") << run.out;
  }
  EXPECT_NE(run_troyka("translate " + three).out.find("  (players (Red north) (Green north) (Blue north))\n"),
            std::string::npos);
  run = run_troyka("show " + three);
  EXPECT_EQ(run.status, 0) << run.err;
  run = run_troyka("match " + slide + " --agents mcts");
  EXPECT_NE(run.status, 0);
  EXPECT_NE(run.err.find("Slide is a game of one player: troyka match plays games of two players or more"),
            std::string::npos)
      << run.err;
}

// Chess's attributes and registers are written, and the translation counts the same perft.
TEST(ZrfCli, TranslateWritesAttributesAndRegisters) {
  const Outcome translation = run_troyka("translate games/chess.game");
  ASSERT_EQ(translation.status, 0) << translation.err;
  EXPECT_NE(translation.out.find("  (attribute unmoved (initially (cells a1 e1 h1 a8 e8 h8)))\n"), std::string::npos);
  EXPECT_NE(translation.out.find("  (register passed transient)\n"), std::string::npos);
  const std::string path = testing::TempDir() + "translated-chess.game";
  std::ofstream(path) << translation.out;
  const Outcome again = run_troyka("perft " + path + " --depth 3 --json");
  ASSERT_EQ(again.status, 0) << again.err;
  EXPECT_EQ(nlohmann::json::parse(again.out)["depths"][2]["nodes"], 8902);
}

// A game whose second player moves unlike the first turned is written with both players facing
// north, where moves in core forms (forward, far-row) would change their meaning: refused.
TEST(ZrfCli, TranslateRefusesMovesInCoreFormsItCannotKeep) {
  const std::string path = troyka_tests::temp_path("facing.game");
  std::ofstream(path) << "(game \"Facing\" (players (White north) (Black south)) (board (rectangle 3 4))\n"
                         "  (piece Pawn \"P\" (step n (to empty) (only White)))\n"
                         "  (piece Runner \"R\" (moves (go forward) empty (if (in far-row) exit)))\n"
                         "  (setup (place White Pawn a1) (place White Runner b1) (place Black Runner b4))\n"
                         "  (end (lose no-legal-moves)))\n";
  const Outcome translation = run_troyka("translate " + path);
  EXPECT_EQ(translation.status, 1);
  EXPECT_EQ(translation.err, path +
                                 ": error: the moves in core forms are written for White facing north and Black facing "
                                 "south, which the translation cannot keep\n"
                                 "hint: troyka translate writes only what the language can say\n");
}

TEST(ZrfCli, PlayAndMatchAZrfGame) {
  Outcome run = run_troyka("play " + kZrf + " --variant 3 --seed 5 --json");
  ASSERT_EQ(run.status, 0) << run.err;
  const nlohmann::json game = nlohmann::json::parse(run.out);
  EXPECT_EQ(game["ending"], "finished");
  EXPECT_FALSE(game["moves"].empty());
  const std::string records = troyka_tests::temp_path("zrf-records");
  run = run_troyka("match " + kZrf + " --variant \"Breakthrough (5x5)\" --agents mcts:iterations=50 random --games 4" +
                   " --records " + records);
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_NE(run.out.find("4 games"), std::string::npos) << run.out;
  run = run_troyka("replay --quiet " + records + "/game-0004.record");
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out.rfind("record ok: ", 0), 0u) << run.out;
}

TEST(ZrfCli, AgentsCompileTheZrfTextTheRefereeSends) {
  // The referee sends the file's text and name; the name picks the ZRF front end.
  const troyka::referee::LoadedGame loaded =
      troyka::referee::load_game(std::string(TROYKA_SOURCE_DIR) + "/" + kZrf, {"2", {}});
  EXPECT_EQ(loaded.info.name, "Breakthrough (6x6)");
  const troyka::referee::GameInfo sent =
      troyka::referee::game_info_from_json(troyka::referee::game_info_json(loaded.info));
  EXPECT_EQ(troyka::referee::compile_game(sent)->rules().width, 6);
}

TEST(ZrfCli, TranslateWritesDropsAndInARow) {
  const std::string zrf = "tests/data/zrf/tic-tac-toe.zrf";
  const Outcome translation = run_troyka("translate " + zrf);
  ASSERT_EQ(translation.status, 0) << translation.err;
  EXPECT_NE(translation.out.find("  (piece Mark \"X\"\n    (drop))\n  (setup)\n  (end\n    (win (in-a-row 3 Mark))\n"
                                 "    (draw no-legal-moves)))\n"),
            std::string::npos)
      << translation.out;
  const std::string path = troyka_tests::temp_path("translated-tic-tac-toe.game");
  std::ofstream(path) << translation.out;
  const Outcome again = run_troyka("perft " + path + " --depth 9 --json");
  ASSERT_EQ(again.status, 0) << again.err;
  EXPECT_EQ(nlohmann::json::parse(again.out)["depths"][8]["nodes"], 127872);
  const Outcome gravity = run_troyka("translate tests/data/zrf/connect-four.zrf --variant 1");
  ASSERT_EQ(gravity.status, 0) << gravity.err;
  EXPECT_NE(gravity.out.find("  (board (rectangle 5 4))\n  (piece Disc \"D\"\n    (drop (gravity backward)))\n"),
            std::string::npos)
      << gravity.out;
}

TEST(ZrfCli, UnsupportedFormsAndUnknownVariantsAreClearErrors) {
  const std::string path = troyka_tests::temp_path("drops.zrf");
  std::ofstream(path) << "(game (title \"Drops\") (players X O)\n"
                         "  (board (grid (dimensions (\"a/b/c\" (1 0)) (\"3/2/1\" (0 1)))))\n"
                         "  (piece (name Man) (drops ((verify empty?) add)))\n"
                         "  (board-setup (X (Man off 100)) (O (Man off 3))))\n";
  Outcome run = run_troyka("check " + path);
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.err, path +
                         ":4:24: error: troyka's hands hold at most 99 pieces of a type, and this supply is 100 (a "
                         "missing feature, not a mistake in the file)\n"
                         " 4 |   (board-setup (X (Man off 100)) (O (Man off 3))))\n"
                         "   |                        ^~~\n");
  run = run_troyka("perft " + kZrf + " --variant 9 --depth 1");
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.err.rfind("error: --variant: this ZRF file has no variant \"9\"\n", 0), 0u) << run.err;
}

// scripts/zrf-corpus over a folder: files that play (of two players and of three) and one refused
// (of nine players), counted, with the refusal among the most common first errors.
TEST(ZrfCorpusScript, CountsWhatLoadsPlaysAndIsRefused) {
  const std::string folder = troyka_tests::temp_path("zrf-corpus-test");
  std::filesystem::remove_all(folder);
  std::filesystem::create_directories(folder + "/games");
  std::filesystem::copy_file(TROYKA_SOURCE_DIR "/tests/data/zrf/breakthrough.zrf", folder + "/games/breakthrough.zrf");
  std::ofstream(folder + "/games/three.zrf")
      << "(game (title \"Three\") (players A B C) (turn-order A B C)\n"
         "  (board (grid (dimensions (\"a/b/c\" (1 0)) (\"3/2/1\" (0 1))) (directions (n 0 -1))))\n"
         "  (piece (name P) (moves (n add)))\n"
         "  (board-setup (A (P a1)) (B (P b1)) (C (P c1))))\n";
  std::ofstream(folder + "/games/nine.zrf")
      << "(game (title \"Nine\") (players A B C D E F G H I)\n"
         "  (board (grid (dimensions \"a/b/c\" \"1/2/3\") (directions (n 0 -1))))\n"
         "  (piece (name P) (moves (n add))))\n";
  const std::string command =
      "cd '" + folder + "' && '" TROYKA_SOURCE_DIR "/scripts/zrf-corpus' games '" TROYKA_BINARY "' 2>&1";
  FILE* pipe = popen(command.c_str(), "r");
  ASSERT_NE(pipe, nullptr);
  std::string out;
  std::array<char, 4096> buffer;
  for (std::size_t n; (n = fread(buffer.data(), 1, buffer.size(), pipe)) > 0;) out.append(buffer.data(), n);
  EXPECT_EQ(pclose(pipe), 0) << out;
  EXPECT_NE(out.find("files:                          3\n"), std::string::npos) << out;
  EXPECT_NE(out.find("load (check):                   2 (66%)\n"), std::string::npos) << out;
  EXPECT_NE(out.find("refused as a missing feature:   1, as a mistake in the file: 0, as neither: 0\n"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("random game ends by the rules:  2 (66%)\n"), std::string::npos) << out;
  EXPECT_NE(out.find("files of two players:           1, of which 1 load (100%)\n"), std::string::npos) << out;
  EXPECT_NE(out.find("  and play a random game:       1 (100%): 1 end by the rules, 0 hit 2000 plies\n"),
            std::string::npos)
      << out;
  EXPECT_NE(out.find("files of other numbers of players: 2, of which 1 load (50%)\n"), std::string::npos) << out;
  EXPECT_NE(out.find("      1 troyka plays games of at most N players; this one lists N (a missing feature, not a "
                     "mistake in the file)\n"),
            std::string::npos)
      << out;
  std::ifstream report(folder + "/games-report.tsv");
  const std::string lines((std::istreambuf_iterator<char>(report)), std::istreambuf_iterator<char>());
  EXPECT_NE(lines.find("games/breakthrough.zrf\tplayed\t"), std::string::npos) << lines;
  EXPECT_NE(lines.find("games/three.zrf\tplayed\t"), std::string::npos) << lines;
  EXPECT_NE(lines.find("games/nine.zrf\trefused\t"), std::string::npos) << lines;
  EXPECT_NE(lines.find("this one lists 9 (a missing feature, not a mistake in the file)\t9\n"), std::string::npos)
      << lines;
}

}  // namespace
