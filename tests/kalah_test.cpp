// games/kalah.game, sowing on counts per cell: perft from the start against the plain reference of
// tests/reference_kalah.h (and the figures of an earlier, independent count), random games compared
// with it position by position, hand-made positions for a sowing that laps the board past the
// opponent's store, the extra turn from the store, the capture and its absence, the end sweep and
// the draw, the exact errors of the new forms, a record that replays, and MCTS against random.
#include <gtest/gtest.h>

#include <cstdint>
#include <nlohmann/json.hpp>
#include <string>
#include <vector>

#include "interpreter/game.h"
#include "interpreter/perft.h"
#include "tests/games.h"
#include "tests/reference_kalah.h"
#include "tests/run_troyka.h"

namespace troyka {
namespace {

using troyka_tests::game;
using troyka_tests::kSlowBuild;
using troyka_tests::move_texts;
using troyka_tests::position;

namespace kalah = reference_kalah;

Game kalah_game() { return game("kalah.game"); }

// Plies from the start, a move that earns another turn counting as one ply: troyka's, the plain
// reference's and an earlier independent count's (a lost branch, the same eight figures).
const std::vector<std::uint64_t> kKalahPerft = {6, 35, 185, 942, 4690, 23233, 114430, 563055};

TEST(Kalah, PerftAgreesWithTheReference) {
  kalah_game().visit([](const auto& program) {
    const std::string start = "7#/#7 South 0 counts=b1:4,c1:4,d1:4,e1:4,f1:4,g1:4,b2:4,c2:4,d2:4,e2:4,f2:4,g2:4";
    EXPECT_EQ(program.position_text(program.initial_state()), start);
    EXPECT_EQ(kalah::text(kalah::start()), start);
    troyka_tests::expect_start_perft(program, kKalahPerft, kSlowBuild ? 6 : 8,
                                     [](int depth) { return kalah::perft(kalah::start(), depth); });
  });
}

// --param seeds=6 is Kalah(6,6): six seeds in each house.
TEST(Kalah, SixSeedsPerftAgreesWithTheReference) {
  game("kalah.game", {{"seeds", "6"}}).visit([](const auto& program) {
    troyka_tests::expect_perft_agrees(program, program.initial_state(), kSlowBuild ? 4 : 6,
                                      [](int depth) { return kalah::perft(kalah::start(6), depth); });
  });
}

TEST(Kalah, RandomGamesAgreeWithTheReference) {
  troyka_tests::expect_random_games_agree_with_plain_reference(
      kalah_game(),
      troyka_tests::PlainReference<kalah::Position>{kalah::start(), kalah::successors, kalah::winner, kalah::text,
                                                    kalah::kOngoing},
      "kalah.game", kSlowBuild ? 20 : 300, 15);
}

// The text of the position after `move` from the position written `text`.
std::string kalah_after(const std::string& text, const std::string& move) {
  std::string after;
  kalah_game().visit([&](const auto& program) { after = troyka_tests::after_move(program, text, move); });
  return after;
}

// Thirteen seeds from b1 go round the whole board: c1..g1, South's store h1, North's houses g2..b2,
// not North's store a2, and the thirteenth back into b1, emptied by the sowing: a capture of it and
// of b2's seed. North's sowing skips South's store h1 the same way.
TEST(Kalah, ALapSkipsTheOpponentsStore) {
  EXPECT_EQ(kalah_after("7#/#7 South 10 counts=b1:13,g2:1", "b1"),
            "7#/#7 North 11 counts=c1:1,d1:1,e1:1,f1:1,g1:1,h1:3,c2:1,d2:1,e2:1,f2:1,g2:2");
  EXPECT_EQ(kalah_after("7#/#7 North 10 counts=b1:1,g2:13", "g2"),
            "7#/#7 South 11 counts=b1:2,c1:1,d1:1,e1:1,f1:1,a2:3,b2:1,c2:1,d2:1,e2:1,f2:1");
}

// Four seeds from d1 end in South's store: South moves again, from any house but the one emptied.
TEST(Kalah, TheLastSeedInTheStorePlaysAgain) {
  const std::string start = "7#/#7 South 0 counts=b1:4,c1:4,d1:4,e1:4,f1:4,g1:4,b2:4,c2:4,d2:4,e2:4,f2:4,g2:4";
  const std::string again = "7#/#7 South 1 counts=b1:4,c1:4,e1:5,f1:5,g1:5,h1:1,b2:4,c2:4,d2:4,e2:4,f2:4,g2:4";
  EXPECT_EQ(kalah_after(start, "d1"), again);
  kalah_game().visit([&](const auto& program) {
    EXPECT_EQ(move_texts(program, position(program, again)), (std::vector<std::string>{"b1", "c1", "e1", "f1", "g1"}));
  });
}

// The last seed in an empty house of the mover's, seeds opposite: both go to the store. None
// opposite: the seed stays. An empty house of the opponent's takes nothing.
TEST(Kalah, CaptureOnlyFromTheMoversEmptyHouseWithSeedsOpposite) {
  EXPECT_EQ(kalah_after("7#/#7 South 10 counts=b1:1,c2:5,d2:1", "b1"), "7#/#7 North 11 counts=h1:6,d2:1");
  EXPECT_EQ(kalah_after("7#/#7 South 10 counts=b1:1,d2:1", "b1"), "7#/#7 North 11 counts=c1:1,d2:1");
  EXPECT_EQ(kalah_after("7#/#7 South 10 counts=g1:2,b1:1,d2:1", "g1"), "7#/#7 North 11 counts=b1:1,h1:1,d2:1,g2:1");
}

// The end reason after `move` from `text`.
std::string kalah_end(const std::string& text, const std::string& move) {
  std::string reason;
  kalah_game().visit([&](const auto& program) { reason = troyka_tests::end_after(program, text, move); });
  return reason;
}

// South's last seed goes to its store: its houses are empty, and North's remaining seeds count for
// North (the sweep). A capture that empties North's houses ends the game too.
TEST(Kalah, AnEmptySideEndsTheGameAndTheOtherSweeps) {
  EXPECT_EQ(kalah_end("7#/#7 South 30 counts=g1:1,h1:20,b2:3,a2:24", "g1"),
            "North wins by the larger count, South 21 to North 27, at (= (count (except home-row stores)) 0)");
  EXPECT_EQ(kalah_end("7#/#7 South 30 counts=b1:1,e1:2,h1:10,a2:10,c2:5", "b1"),
            "South wins by the larger count, South 18 to North 10, at (= (count (except home-row stores)) 0)");
  EXPECT_EQ(kalah_end("7#/#7 South 30 counts=b1:1,e1:2,h1:10,a2:10,c2:5,f2:1", "e1"), "");
}

TEST(Kalah, EqualCountsDraw) {
  EXPECT_EQ(kalah_end("7#/#7 South 30 counts=g1:1,h1:23,b2:1,a2:23", "g1"),
            "draw by equal counts, South 24 to North 24, at (= (count (except home-row stores)) 0)");
}

// A game of sowing on the K board of test.game, with `track`, `moves`, `setup` and `end` filled in.
std::string sowing_game(const std::string& track, const std::string& moves, const std::string& setup,
                        const std::string& end) {
  return "(game \"K\" (players (South north) (North south)) (board (rectangle 8 2) (holes a1 h2))\n  " + track +
         "\n  (piece Seed \"S\")\n  (moves " + moves + ")\n  (setup " + setup + ")\n  (end " + end + "))\n";
}

const std::string kTrack =
    "(track t (South b1 c1 d1 e1 f1 g1 h1 g2 f2 e2 d2 c2 b2) (North g2 f2 e2 d2 c2 b2 a2 b1 c1 d1 e1 f1 g1))";
const std::string kSow = "(enter home-row) (sow t)";
const std::string kSeeds = "(count 4 (rows 1 2))";
const std::string kLimit = "(draw (ply-limit 9))";

TEST(Kalah, CountFormsErrors) {
  using troyka_tests::load_error;
  EXPECT_EQ(load_error(sowing_game(kTrack, kSow, kSeeds, kLimit)), "loads");
  EXPECT_EQ(load_error(sowing_game("", kSow, "", kLimit)),
            "test.game:4:27: error: 'sow' reads counts per cell, and this game keeps none\n"
            " 4 |   (moves (enter home-row) (sow t))\n"
            "   |                           ^\n"
            "hint: give the cells their start counts in the setup: (setup (count N REGION))\n");
  EXPECT_EQ(load_error(sowing_game("", "(enter home-row) (count > 0) pass", "", kLimit)),
            "test.game:4:27: error: 'count' reads counts per cell, and this game keeps none\n"
            " 4 |   (moves (enter home-row) (count > 0) pass)\n"
            "   |                           ^\n"
            "hint: give the cells their start counts in the setup: (setup (count N REGION))\n");
  EXPECT_EQ(load_error(sowing_game(kTrack, "(enter home-row) (sow u)", kSeeds, kLimit)),
            "test.game:4:32: error: unknown track 'u'\n"
            " 4 |   (moves (enter home-row) (sow u))\n"
            "   |                                ^\n"
            "hint: did you mean 't'?\n");
  EXPECT_EQ(load_error(sowing_game(kTrack, "(enter home-row) (count >> 0) pass", kSeeds, kLimit)),
            "test.game:4:34: error: expected a comparison, one of < <= = >= >, found '>>'\n"
            " 4 |   (moves (enter home-row) (count >> 0) pass)\n"
            "   |                                  ^~\n"
            "hint: usage: (count OP N): here's count compares with N, OP one of < <= = >= >\n");
  EXPECT_EQ(load_error(sowing_game(kTrack, "(enter home-row) (count = 300) pass", kSeeds, kLimit)),
            "test.game:4:36: error: the count compared with must be between 0 and 255, but it is 300\n"
            " 4 |   (moves (enter home-row) (count = 300) pass)\n"
            "   |                                    ^~~\n");
  EXPECT_EQ(load_error(sowing_game(kTrack, "(enter home-row) (take-count last)", kSeeds, kLimit)),
            "test.game:4:39: error: no (mark last) comes before this (take-count last)\n"
            " 4 |   (moves (enter home-row) (take-count last))\n"
            "   |                                       ^~~~\n"
            "hint: mark the cell whose count is taken first, earlier in the rule: (mark NAME)\n");
}

TEST(Kalah, TrackAndSetupErrors) {
  using troyka_tests::load_error;
  EXPECT_EQ(load_error(sowing_game("(track t (South b1 c1))", kSow, kSeeds, kLimit)),
            "test.game:2:3: error: the track 't' has no cells for North\n"
            " 2 |   (track t (South b1 c1))\n"
            "   |   ^\n"
            "hint: give each player its cycle: (North CELL CELL...)\n");
  EXPECT_EQ(load_error(sowing_game("(track t (South b1 c1 b1) (North b2 c2))", kSow, kSeeds, kLimit)),
            "test.game:2:25: error: b1 comes twice in this track\n"
            " 2 |   (track t (South b1 c1 b1) (North b2 c2))\n"
            "   |                         ^~\n"
            "hint: a track is a cycle that passes each cell once\n");
  EXPECT_EQ(load_error(sowing_game("(track t South b1 c1)", kSow, kSeeds, kLimit)),
            "test.game:2:12: error: expected '(PLAYER CELL CELL...)', found 'South'\n"
            " 2 |   (track t South b1 c1)\n"
            "   |            ^~~~~\n"
            "hint: usage: (track NAME (PLAYER CELL CELL...)...): each player's cycle of cells for (sow NAME)\n");
  EXPECT_EQ(
      load_error(sowing_game(kTrack + " (track t (South b1 c1) (North b2 c2))", kSow, kSeeds, kLimit)).substr(0, 71),
      "test.game:2:114: error: the track 't' is declared twice; the first is a");
  EXPECT_EQ(
      load_error(sowing_game(kTrack, kSow, "", kLimit)),
      "test.game:2:3: error: a track is for sowing counts, and this game keeps none\n"
      " 2 |   (track t (South b1 c1 d1 e1 f1 g1 h1 g2 f2 e2 d2 c2 b2) (North g2 f2 e2 d2 c2 b2 a2 b1 c1 d1 e1 f1...\n"
      "   |   ^\n"
      "hint: give the cells their start counts in the setup: (setup (count N REGION))\n");
  EXPECT_EQ(load_error(sowing_game(kTrack, kSow, "(count 4 (rows 1 2)) (count 2 b1)", kLimit)),
            "test.game:5:31: error: two counts for b1: it was already given one at line 5\n"
            " 5 |   (setup (count 4 (rows 1 2)) (count 2 b1))\n"
            "   |                               ^\n");
  EXPECT_EQ(load_error("(game \"K\" (players (South north) (North south)) (board (rectangle 9 8))\n"
                       "  (piece Seed \"S\")\n  (moves (enter home-row) (count > 0) pass)\n"
                       "  (setup (count 1 (rows 1 2)))\n  (end (draw (ply-limit 9))))\n"),
            "test.game:4:10: error: counts per cell are kept on boards of at most 64 cells; this one has 72\n"
            " 4 |   (setup (count 1 (rows 1 2)))\n"
            "   |          ^\n"
            "hint: sowing games have a few dozen pits: make the board smaller\n");
  EXPECT_EQ(load_error(sowing_game(kTrack, kSow, "(count 30 (rows 1 2))", kLimit)),
            "test.game:5:10: error: the setup's counts add up to 420, more than the 255 one cell can hold\n"
            " 5 |   (setup (count 30 (rows 1 2)))\n"
            "   |          ^\n"
            "hint: every count may end in one cell (a store): give fewer seeds\n");
}

TEST(Kalah, EndRuleErrors) {
  using troyka_tests::load_error;
  EXPECT_EQ(load_error(sowing_game("", "(enter home-row) pass", "", "(win (> (count home-row) 5))")),
            "test.game:6:16: error: 'count' reads counts per cell, and this game keeps none\n"
            " 6 |   (end (win (> (count home-row) 5))))\n"
            "   |                ^\n"
            "hint: give the cells their start counts in the setup: (setup (count N REGION))\n");
  EXPECT_EQ(load_error(sowing_game("", "(enter home-row) pass", "", "(most-count home-row (ply-limit 3))")),
            "test.game:6:8: error: 'most-count' reads counts per cell, and this game keeps none\n"
            " 6 |   (end (most-count home-row (ply-limit 3))))\n"
            "   |        ^\n"
            "hint: give the cells their start counts in the setup: (setup (count N REGION))\n");
  EXPECT_EQ(
      load_error(sowing_game(kTrack, "(when (> (count home-row) 3)) " + kSow, kSeeds, kLimit)),
      "test.game:4:19: error: a rule's (when ...) compares the player's pieces or a counter, not counts per cell\n"
      " 4 |   (moves (when (> (count home-row) 3)) (enter home-row) (sow t))\n"
      "   |                   ^\n"
      "hint: test a cell's count inside the rule instead: (count OP N)\n");
}

// A match's record names each move by the house sown, and replays to the same end.
TEST(Kalah, ARecordReplays) {
  const std::string records = troyka_tests::temp_path("kalah-records");
  const nlohmann::json match = nlohmann::json::parse(
      troyka_tests::run_troyka("match games/kalah.game --agents random random --games 1 --seed 3 --records " + records +
                               " --json")
          .out);
  ASSERT_EQ(match["results"].size(), 1U);
  const troyka_tests::Outcome replay = troyka_tests::run_troyka("replay " + records + "/game-0001.record --json");
  ASSERT_EQ(replay.status, 0) << replay.err;
  const nlohmann::json replayed = nlohmann::json::parse(replay.out);
  EXPECT_EQ(replayed["winner"], match["results"][0]["winner"]);
  EXPECT_EQ(replayed["reason"], match["results"][0]["reason"]);
  EXPECT_EQ(replayed["plies"], match["results"][0]["plies"]);
}

// Position text's counts=...: a cell not on the board, a count out of range, and counts whose
// total no cell could hold (a sowing could gather them in one) are refused.
TEST(Kalah, CountsInPositionTextAreChecked) {
  kalah_game().visit([](const auto& program) {
    const auto error = [&](const std::string& counts) {
      return program.parse_position("7#/#7 South 0 " + counts).error;
    };
    const std::string how =
        "; write each cell with a count as CELL:COUNT, separated by commas (counts=b1:4,c1:4), or "
        "counts=- for none";
    EXPECT_EQ(error("counts=b1:4,h2:1"), "'counts=b1:4,h2:1' names 'h2', which is not a cell of the board" + how);
    EXPECT_EQ(error("counts=b1:0"), "'counts=b1:0' gives b1 a count that is not from 1 to 255" + how);
    EXPECT_EQ(error("counts=b1:200,c1:60"),
              "'counts=b1:200,c1:60' adds up to 260, more than the 255 one cell can hold" + how);
    EXPECT_EQ(error("counts=b1"), "'counts=b1' has 'b1' without ':'" + how);
    EXPECT_EQ(error("counts=-"), "");
  });
}

// The boards people see show each empty cell's count (and the house last sown): the terminal's, every cell as wide as
// the widest count, and the SVG picture's.
TEST(Kalah, BoardsShowTheCounts) {
  const troyka_tests::Outcome play = troyka_tests::run_troyka("play games/kalah.game --max-plies 1 --ascii --no-color");
  ASSERT_EQ(play.status, 0) << play.err;
  EXPECT_NE(play.out.find("  2 0 4 4 4 4 4 4   2\n  1   4 4 4 4 4 4 0 1\n    a b c d e f g h\n1. South f1\n"
                          "  2 0 4 4 4 4 5 5   2\n  1   4 4 4 4[0]5 1 1\n"),
            std::string::npos)
      << play.out;
  const troyka_tests::Outcome svg = troyka_tests::run_troyka("show games/kalah.game --svg");
  ASSERT_EQ(svg.status, 0) << svg.err;
  const std::size_t count = svg.out.find(R"(<text class="count")");
  ASSERT_NE(count, std::string::npos);
  EXPECT_EQ(svg.out.substr(svg.out.find("</text>", count) - 2, 9), ">4</text>");
}

// MCTS against random: four games at 30 iterations a move.
TEST(Kalah, MctsBeatsRandomInAMatch) {
  troyka_tests::expect_first_agent_scores("match games/kalah.game --games 4 --agents mcts:iterations=30 random --json",
                                          3.0);
}

}  // namespace
}  // namespace troyka
