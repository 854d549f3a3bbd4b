// troyka play with people at the board, through a pipe: the real binary reads the moves from a
// file on stdin, as a script would feed it, and its transcript is checked word for word where the
// game is deterministic.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <regex>
#include <string>

#include "tests/run_troyka.h"

namespace {

using troyka_tests::Outcome;
using troyka_tests::run_troyka;

// Breakthrough on 5x5: two rows each and an empty row between, so a game is short.
const std::string kSmall = "play games/breakthrough.game --param width=5 --param height=5 ";

const std::string kStartBoard =
    "  5 ♟ ♟ ♟ ♟ ♟ 5\n"
    "  4 ♟ ♟ ♟ ♟ ♟ 4\n"
    "  3 · · · · · 3\n"
    "  2 ♙ ♙ ♙ ♙ ♙ 2\n"
    "  1 ♙ ♙ ♙ ♙ ♙ 1\n"
    "    a b c d e\n";

// The text after the first `marker` in `text`, up to the end of that line.
std::string line_after(const std::string& text, const std::string& marker) {
  const std::size_t start = text.find(marker);
  if (start == std::string::npos) return "<no '" + marker + "'>";
  const std::size_t from = start + marker.size();
  return text.substr(from, text.find('\n', from) - from);
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(PlayHuman, StartsWithTheBoardThePlayersAndHowToMove) {
  const Outcome run = run_troyka(kSmall + "--white human --black random", "quit\n");
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out, "Breakthrough\n" + kStartBoard +
                         "White: human, Black: random\n"
                         "Type a move as from-to, or 'help' for the commands.\n"
                         "White to move (ply 1): quit\n"
                         "game abandoned after 0 plies: White quit\n");
}

TEST(PlayHuman, SaysWhyAMoveIsIllegalAndAsksAgain) {
  const Outcome run = run_troyka(kSmall + "--white human --black random", "c2-c4\nb3-b4\nz9-z8\nmvoes\nfoo\n\nquit\n");
  EXPECT_EQ(run.status, 0);
  const std::string expected =
      "White to move (ply 1): c2-c4\n"
      "c2-c4 is not a legal move for White; the piece there can play c2-c3 c2-b3 c2-d3\n"
      "hint: type 'moves' for the legal moves\n"
      "White to move (ply 1): b3-b4\n"
      "White has no piece on b3\n"
      "hint: type 'moves' for the legal moves\n"
      "White to move (ply 1): z9-z8\n"
      "'z9' is not a cell of this 5x5 board\n"
      "hint: type 'moves' for the legal moves\n"
      "White to move (ply 1): mvoes\n"
      "unknown command 'mvoes'\n"
      "hint: did you mean 'moves'?\n"
      "White to move (ply 1): foo\n"
      "unknown command 'foo'\n"
      "hint: type a move such as a2-a3, or 'help' for the commands\n"
      "White to move (ply 1): \n"
      "White to move (ply 1): quit\n";
  EXPECT_TRUE(contains(run.out, expected)) << run.out;
}

TEST(PlayHuman, ListsTheLegalMovesInBoardOrder) {
  const Outcome run = run_troyka(kSmall + "--white human --black random", "moves\nquit\n");
  EXPECT_TRUE(contains(run.out,
                       "White to move (ply 1): moves\n"
                       "13 legal moves: a2-a3 a2-b3 b2-a3 b2-b3 b2-c3 c2-b3 c2-c3 c2-d3 d2-c3 d2-d3\n"
                       "  d2-e3 e2-d3 e2-e3\n"
                       "White to move (ply 1): quit\n"))
      << run.out;
}

TEST(PlayHuman, UndoTakesBackTheMoveAndTheReplyToIt) {
  const Outcome run = run_troyka(kSmall + "--white human --black random --seed 4", "undo\nb2-b3\nundo\nquit\n");
  EXPECT_EQ(run.status, 0);
  EXPECT_TRUE(contains(run.out, "White to move (ply 1): undo\nnothing to undo: White has not moved yet\n")) << run.out;
  const std::string reply = line_after(run.out, "1. Black ");
  EXPECT_TRUE(contains(run.out, "White to move (ply 3): undo\ntook back b2-b3 " + reply + "\n" + kStartBoard +
                                    "White to move (ply 1): quit\n"))
      << run.out;
}

TEST(PlayHuman, NothingToUndoBeforeThePersonHasMoved) {
  const Outcome run = run_troyka(kSmall + "--white random --black human", "undo\nquit\n");
  EXPECT_TRUE(contains(run.out,
                       "Black to move (ply 2): undo\n"
                       "nothing to undo: Black has not moved yet\n"
                       "Black to move (ply 2): quit\n"
                       "game abandoned after 1 ply: Black quit\n"))
      << run.out;
}

TEST(PlayHuman, ResignationGivesTheOpponentTheGame) {
  const Outcome run = run_troyka(kSmall + "--white human --black random", "b2-b3\nresign\n");
  EXPECT_EQ(run.status, 0);
  const std::string ending =
      "White to move (ply 3): resign\n"
      "White resigns.\n"
      "result: Black wins after 2 plies (White resigned)\n";
  ASSERT_GE(run.out.size(), ending.size());
  EXPECT_EQ(run.out.substr(run.out.size() - ending.size()), ending) << run.out;
}

TEST(PlayHuman, TheEndOfTheInputAbandonsTheGame) {
  const Outcome run = run_troyka(kSmall + "--white human --black random", "b2-b3\n");
  EXPECT_EQ(run.status, 0);
  const std::string ending =
      "White to move (ply 3): \n"
      "game abandoned after 2 plies: the input ended while White was to move\n";
  ASSERT_GE(run.out.size(), ending.size());
  EXPECT_EQ(run.out.substr(run.out.size() - ending.size()), ending) << run.out;
}

// Two people, every word of the game: moves, the board with the last move bracketed, a one-ply
// undo, captures and the win.
TEST(PlayHuman, TwoPeoplePlayAWholeGame) {
  const Outcome run =
      run_troyka(kSmall + "--white human --black human", "c2-c3\nundo\nc2-c3\na4-a3\nc3xd4\na3xb2\nd4xe5\n");
  EXPECT_EQ(run.status, 0);
  const std::string after_c3 =
      "1. White c2-c3\n"
      "  5 ♟ ♟ ♟ ♟ ♟ 5\n"
      "  4 ♟ ♟ ♟ ♟ ♟ 4\n"
      "  3 · ·[♙]· · 3\n"
      "  2 ♙ ♙ · ♙ ♙ 2\n"
      "  1 ♙ ♙ ♙ ♙ ♙ 1\n"
      "    a b c d e\n";
  EXPECT_EQ(run.out, "Breakthrough\n" + kStartBoard +
                         "White: human, Black: human\n"
                         "Type a move as from-to, or 'help' for the commands.\n"
                         "White to move (ply 1): c2-c3\n" +
                         after_c3 +
                         "Black to move (ply 2): undo\n"
                         "took back c2-c3\n" +
                         kStartBoard + "White to move (ply 1): c2-c3\n" + after_c3 +
                         "Black to move (ply 2): a4-a3\n"
                         "1. Black a4-a3\n"
                         "  5 ♟ ♟ ♟ ♟ ♟ 5\n"
                         "  4 · ♟ ♟ ♟ ♟ 4\n"
                         "  3[♟]· ♙ · · 3\n"
                         "  2 ♙ ♙ · ♙ ♙ 2\n"
                         "  1 ♙ ♙ ♙ ♙ ♙ 1\n"
                         "    a b c d e\n"
                         "White to move (ply 3): c3xd4\n"
                         "2. White c3xd4\n"
                         "  5 ♟ ♟ ♟ ♟ ♟ 5\n"
                         "  4 · ♟ ♟[♙]♟ 4\n"
                         "  3 ♟ · · · · 3\n"
                         "  2 ♙ ♙ · ♙ ♙ 2\n"
                         "  1 ♙ ♙ ♙ ♙ ♙ 1\n"
                         "    a b c d e\n"
                         "Black to move (ply 4): a3xb2\n"
                         "2. Black a3xb2\n"
                         "  5 ♟ ♟ ♟ ♟ ♟ 5\n"
                         "  4 · ♟ ♟ ♙ ♟ 4\n"
                         "  3 · · · · · 3\n"
                         "  2 ♙[♟]· ♙ ♙ 2\n"
                         "  1 ♙ ♙ ♙ ♙ ♙ 1\n"
                         "    a b c d e\n"
                         "White to move (ply 5): d4xe5\n"
                         "3. White d4xe5\n"
                         "  5 ♟ ♟ ♟ ♟[♙]5\n"
                         "  4 · ♟ ♟ · ♟ 4\n"
                         "  3 · · · · · 3\n"
                         "  2 ♙ ♟ · ♙ ♙ 2\n"
                         "  1 ♙ ♙ ♙ ♙ ♙ 1\n"
                         "    a b c d e\n"
                         "result: White wins after 5 plies (White wins by (reach Pawn far-row))\n");
}

TEST(PlayHuman, AsciiDrawsLetters) {
  const Outcome run = run_troyka(kSmall + "--white human --black human --ascii", "b2-b3\nquit\n");
  EXPECT_TRUE(contains(run.out,
                       "1. White b2-b3\n"
                       "  5 p p p p p 5\n"
                       "  4 p p p p p 4\n"
                       "  3 .[P]. . . 3\n"
                       "  2 P . P P P 2\n"
                       "  1 P P P P P 1\n"
                       "    a b c d e\n"))
      << run.out;
}

// A rhombus leans one column per row; "swap", a move that names no cell, is a move and not a command.
TEST(PlayHuman, HexLeansAndTakesTheSwap) {
  const Outcome run = run_troyka(
      "play games/hex.game --param size=3 --variant swap --white human --black human --ascii", "b1\nswap\nquit\n");
  EXPECT_TRUE(contains(run.out,
                       "1. Blue swap\n"
                       "  3   . . . 3\n"
                       "  2  s . . 2\n"
                       "  1 . . . 1\n"
                       "    a b c\n"))
      << run.out;
}

// A shot's cell stays blocked, drawn '*' as in position texts; the move is typed with its shot.
TEST(PlayHuman, AmazonsShowsTheArrow) {
  const Outcome run =
      run_troyka("play games/amazons.game --variant 6x6 --white human --black human --ascii", "c1-c2/c1\nquit\n");
  EXPECT_TRUE(contains(run.out,
                       "1. White c1-c2/c1\n"
                       "  6 . . q q . . 6\n"
                       "  5 . . . . . . 5\n"
                       "  4 q . . . . q 4\n"
                       "  3 Q . . . . Q 3\n"
                       "  2 . .[Q]. . . 2\n"
                       "  1 . . * Q . . 1\n"))
      << run.out;
}

TEST(PlayHuman, AMisspeltHumanIsAClearError) {
  Outcome run = run_troyka(kSmall + "--white humna", "");
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.err, "error: unknown agent 'humna'\nhint: did you mean 'human'?\n");
  run = run_troyka(kSmall + "--black human:fast", "");
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.err, "error: a human player takes no options\nhint: write --black human\n");
}

TEST(PlayReport, VerboseShowsTheWholeSearchReport) {
  const Outcome run = run_troyka(kSmall + "--white human --black mcts:iterations=200 --verbose", "b2-b3\nquit\n");
  EXPECT_EQ(run.status, 0);
  const std::string reply = line_after(run.out, "1. Black ");
  EXPECT_TRUE(std::regex_match(reply, std::regex("[a-e][1-5][-x][a-e][1-5]"))) << run.out;
  const std::regex report(
      "1\\. Black " + reply +
      "\n   mcts: 200 iterations in [0-9.]+ (ms|s), [0-9]+/s, [0-9]+ nodes(, [0-9.]+ [KMG]?i?B)?, 1 thread\n"
      "   best " +
      reply +
      ": visits [0-9.]+%, value [01]\\.[0-9]{3}(, proven (win|loss|draw))?\n"
      "(   principal variation: [-a-ex0-9 .]+\n)?  5 ");
  EXPECT_TRUE(std::regex_search(run.out, report)) << run.out;
}

TEST(PlayReport, VerboseShowsTheClockOfATimedSearch) {
  const Outcome run = run_troyka(kSmall + "--white human --black mcts:time=50ms --verbose", "b2-b3\nquit\n");
  EXPECT_EQ(run.status, 0);
  EXPECT_TRUE(std::regex_search(
      run.out,
      std::regex(
          "\n   clock: limit 50\\.0 ms, read at least every [0-9.]+ ms, kept from running at most [0-9.]+ ms\n")))
      << run.out;
}

TEST(PlayReport, WithoutVerboseOneLinePerSearch) {
  const Outcome run = run_troyka(kSmall + "--white human --black mcts:iterations=200", "b2-b3\nquit\n");
  const std::regex summary(
      "\n1\\. Black [a-e][1-5][-x][a-e][1-5]   \\(mcts: 200 iterations, [0-9]+/s, visits [0-9.]+%, "
      "value [01]\\.[0-9]{3}(, proven (win|loss|draw))?\\)\n");
  EXPECT_TRUE(std::regex_search(run.out, summary)) << run.out;
}

TEST(PlayReport, JsonHasAnEntryPerMoveWithTheSearchReport) {
  // A person with --json: the record alone on stdout, the board and prompts on stderr.
  const Outcome run = run_troyka(kSmall + "--white human --black mcts:iterations=200 --json", "b2-b3\nquit\n");
  EXPECT_EQ(run.status, 0);
  EXPECT_TRUE(contains(run.err, "White to move (ply 3): quit\n")) << run.err;
  const nlohmann::json json = nlohmann::json::parse(run.out);
  EXPECT_EQ(json["ending"], "abandoned");
  EXPECT_EQ(json["winner"], "none");
  EXPECT_EQ(json["reason"], "White quit");
  EXPECT_EQ(json["plies"], 2);
  ASSERT_EQ(json["history"].size(), 2u);
  EXPECT_EQ(json["history"][0], nlohmann::json::parse(R"({"ply":1,"player":"White","by":"human","move":"b2-b3"})"));
  const nlohmann::json& reply = json["history"][1];
  EXPECT_EQ(reply["ply"], 2);
  EXPECT_EQ(reply["player"], "Black");
  EXPECT_EQ(reply["by"], "mcts:iterations=200");
  EXPECT_EQ(json["moves"], nlohmann::json::array({"b2-b3", reply["move"]}));
  const nlohmann::json& report = reply["report"];
  EXPECT_EQ(report["iterations"], 200);
  EXPECT_EQ(report["best"], reply["move"]);
  for (const char* key : {"seconds", "iterations_per_second", "visit_share", "value"})
    EXPECT_TRUE(report[key].is_number()) << key;
  for (const char* key : {"nodes", "threads", "bytes"}) EXPECT_TRUE(report[key].is_number_unsigned()) << key;
  // An iteration budget reads no clock; no playout of Breakthrough reaches the ply cap.
  EXPECT_EQ(report["longest_check_gap"], 0.0);
  EXPECT_EQ(report["longest_stall"], 0.0);
  EXPECT_EQ(report["capped_playouts"], 0);
  EXPECT_TRUE(report["principal"].is_array());
  EXPECT_TRUE(report["proof"] == "unknown" || report["proof"] == "win" || report["proof"] == "loss" ||
              report["proof"] == "draw");
}

TEST(PlayReport, JsonBetweenAgentsReportsEverySearch) {
  const Outcome run = run_troyka(kSmall + "--white mcts:iterations=200 --black random --json", "");
  EXPECT_EQ(run.status, 0);
  EXPECT_EQ(run.err, "");
  const nlohmann::json json = nlohmann::json::parse(run.out);
  EXPECT_EQ(json["ending"], "finished");
  ASSERT_EQ(json["history"].size(), json["moves"].size());
  for (const nlohmann::json& entry : json["history"]) {
    EXPECT_EQ(entry.contains("report"), entry["player"] == "White") << entry;
    EXPECT_EQ(entry["by"], entry["player"] == "White" ? "mcts:iterations=200" : "random");
  }
}

}  // namespace
