// Boards with holes, (board SHAPE (holes ...)): every move kind, end test and text form against the
// slow reference of tests/reference.h (which meets a hole as it meets the board's edge), on the
// games of games/ with holes cut into their boards, and games/breakthrough-holes.game itself.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "cli/board_svg.h"
#include "cli/board_view.h"
#include "interpreter/game.h"
#include "interpreter/perft.h"
#include "interpreter/random.h"
#include "lang/translate.h"
#include "tests/games.h"
#include "tests/reference.h"
#include "tests/run_troyka.h"

namespace troyka {
namespace {

using troyka_tests::after;
using troyka_tests::game;
using troyka_tests::kSlowBuild;
using troyka_tests::move_texts;
using troyka_tests::position;

// A game of games/ (or tests/data/games/) with `holes` cut out of its board: its text with
// " (holes HOLES)" written after the board's shape.
Game with_holes(const std::string& path, const std::string& holes,
                std::vector<std::pair<std::string, std::string>> params = {}) {
  std::ifstream in(std::string(TROYKA_SOURCE_DIR) + "/" + path);
  std::string text((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  const std::size_t shape_end = text.find(')', text.find("(board ("));
  EXPECT_NE(shape_end, std::string::npos) << path;
  text.insert(shape_end + 1, " (holes " + holes + ")");
  lang::Options options;
  options.params = std::move(params);
  return Game(lang::load_rules(std::make_shared<lang::SourceFile>(lang::SourceFile{path, text}), options));
}

struct HoledGame {
  std::string path;
  std::string holes;
  std::vector<std::pair<std::string, std::string>> params;
  int depth = 0;  // how deep perft is compared with the reference
};

// One game for each move kind and end test: steps (Breakthrough), leaps over holes
// (Knightthrough), slides and shots (Amazons, the shooters), drops with gravity (Connect Four: a1
// and d3 are holes, so a disc may rest on a2 and on d4 from the start), lines of drops (Gomoku),
// flanking drops (Othello: d3, one of Black's four openings, is a hole), chains of jumps (draughts:
// the holes are dark cells in the middle and in White's setup), jumps with cell tests (the
// hoppers) and connections on a rhombus (Hex). Where pieces are only dropped, a hole plays as a
// cell nothing can fill; the reference then checks that no region of the rules holds one.
const std::vector<HoledGame> kHoledGames = {
    {"games/breakthrough.game", "(cells b3 e4)", {{"width", "6"}, {"height", "6"}}, 4},
    {"games/knightthrough.game", "c3 c4", {{"width", "5"}, {"height", "6"}}, 4},
    {"games/amazons.game", "c3", {{"width", "5"}}, 2},
    {"tests/data/games/shooters.game", "c3 d4", {}, 2},
    {"games/connect-four.game", "a1 d3", {{"width", "5"}, {"height", "4"}}, 5},
    {"games/gomoku.game", "c3 (cells a5 e1)", {{"size", "5"}}, 3},
    {"games/othello.game", "d3 c6 f4", {}, 5},
    {"games/english-draughts.game", "c3 d4 e5", {}, 5},
    {"tests/data/games/hoppers.game", "c4 d3", {}, 3},
    {"games/hex.game", "b2 c3", {{"size", "4"}}, 4},
};

TEST(HolesPerft, EveryMoveKindAndEndTestAgreesWithTheReference) {
  for (const HoledGame& test : kHoledGames) {
    const Game loaded = with_holes(test.path, test.holes, test.params);
    const lang::Rules& rules = loaded.rules();
    ASSERT_FALSE(rules.holes.empty()) << test.path;
    loaded.visit([&](const auto& program) {
      const reference::Position start = reference::start(rules);
      for (int depth = 1; depth <= test.depth - (kSlowBuild ? 1 : 0); ++depth)
        EXPECT_EQ(perft(program, program.initial_state(), depth), reference::perft(rules, start, depth))
            << test.path << " with holes " << test.holes << ", depth " << depth;
    });
  }
}

// Whole random games, each position's moves and end decision compared with the reference's.
TEST(HolesRandomPlay, EveryPositionAgreesWithTheReference) {
  for (const HoledGame& test : kHoledGames)
    troyka_tests::expect_random_games_agree_with_reference(with_holes(test.path, test.holes, test.params), test.path,
                                                           kSlowBuild ? 3 : 12, 11);
}

// A playout keeps the lines of the ply before for its shots' counts, where a line ends at a hole:
// its draws are those of the random-move loop, which counts each position afresh (Amazons: shots
// every way; the shooters: forward only).
TEST(HolesPlayouts, ShotsCountedMoveByMoveAreTheRandomMoveLoops) {
  for (const HoledGame& test : kHoledGames)
    if (test.path.find("amazons") != std::string::npos || test.path.find("shooters") != std::string::npos)
      troyka_tests::expect_playouts_match_random_move_loop(with_holes(test.path, test.holes, test.params), 10);
}

// ---- Breakthrough with holes ---------------------------------------------------------------------

// Its first two plies are Breakthrough's (the holes are beyond reach); from the third on, a pawn
// on d3 or e4 has no straight step.
const std::vector<std::uint64_t> kBreakthroughHolesPerft = {22, 484, 10934, 247009, 5786728};

TEST(BreakthroughHoles, PerftAgreesWithTheReference) {
  const Game loaded = game("breakthrough-holes.game");
  loaded.visit([&](const auto& program) {
    const reference::Position start = reference::start(loaded.rules());
    for (std::size_t depth = 1; depth <= kBreakthroughHolesPerft.size(); ++depth) {
      const auto d = static_cast<int>(depth);
      EXPECT_EQ(perft(program, program.initial_state(), d), kBreakthroughHolesPerft[depth - 1]) << d;
      if (d <= (kSlowBuild ? 2 : 3)) {
        EXPECT_EQ(reference::perft(loaded.rules(), start, d), kBreakthroughHolesPerft[depth - 1]) << d;
      }
    }
  });
}

TEST(BreakthroughHoles, APawnBeforeAHoleGoesOnlyDiagonally) {
  game("breakthrough-holes.game").visit([](const auto& program) {
    const auto state = position(program, "7p/8/8/4#3/3#4/3P4/8/8 White 0");
    EXPECT_EQ(move_texts(program, state), (std::vector<std::string>{"d3-c4", "d3-e4"}));
    const auto black = position(program, "8/8/4p3/4#3/3#4/8/8/P7 Black 1");
    EXPECT_EQ(move_texts(program, black), (std::vector<std::string>{"e6-d5", "e6-f5"}));
  });
}

TEST(BreakthroughHoles, TextWritesHolesAsHashesAndRefusesAnythingElseThere) {
  game("breakthrough-holes.game").visit([](const auto& program) {
    const auto start = program.initial_state();
    EXPECT_EQ(program.position_text(start), "pppppppp/pppppppp/8/4#3/3#4/8/PPPPPPPP/PPPPPPPP White 0");
    EXPECT_NE(program.diagram(start).find("  4  . . . # . . . .\n"), std::string::npos) << program.diagram(start);
    EXPECT_EQ(program.parse_position("8/8/8/4#3/3P4/8/8/8 White 0").error, "d4 is a hole of the board: write it '#'");
    EXPECT_EQ(program.parse_position("8/8/8/4#3/8/8/8/8 White 0").error, "d4 is a hole of the board: write it '#'");
    EXPECT_EQ(program.parse_position("8/8/8/4#3/3#4/8/8/#7 White 0").error, "'#' marks a hole, and a1 is not one");
    const auto state = after(program, start, "d2-d3");
    EXPECT_EQ(program.parse_move(after(program, state, "a7-a6"), "d3-d4").error, "'d4' is a hole of the board");
    EXPECT_EQ(program.parse_move(state, "e5-e4").error, "'e5' is a hole of the board");
  });
}

TEST(BreakthroughHoles, BoardsDrawNothingOnAHole) {
  game("breakthrough-holes.game").visit([](const auto& program) {
    const cli::BoardView view = cli::board_view(program, program.initial_state());
    const std::string svg = cli::board_svg(view);
    EXPECT_EQ(svg.find("data-cell=\"d4\""), std::string::npos);
    EXPECT_EQ(svg.find("data-cell=\"e5\""), std::string::npos);
    EXPECT_NE(svg.find("data-cell=\"d5\""), std::string::npos);
    std::size_t cells = 0;
    for (std::size_t at = svg.find("class=\"cell"); at != std::string::npos; at = svg.find("class=\"cell", at + 1))
      ++cells;
    EXPECT_EQ(cells, 62u);
    const std::string board = cli::draw_board(view, cli::BoardStyle{.unicode = false});
    EXPECT_NE(board.find("  4 . . .   . . . . 4\n"), std::string::npos) << board;
  });
}

TEST(BreakthroughHoles, ShowListsTheHolesAndTranslationKeepsThem) {
  const Game original = game("breakthrough-holes.game");
  original.visit([](const auto& program) {
    EXPECT_NE(program.describe().find("board: 8x8, 62 cells (holes d4 e5), bitboards of 64 bits\n"), std::string::npos)
        << program.describe();
  });
  const std::string text = lang::to_troyka_language(original.rules());
  EXPECT_NE(text.find("(board (rectangle 8 8) (holes (cells d4 e5)))"), std::string::npos) << text;
  const Game translated(lang::load_rules(std::make_shared<lang::SourceFile>(lang::SourceFile{"t.game", text}), {}));
  translated.visit(
      [](const auto& program) { EXPECT_EQ(perft(program, program.initial_state(), 3), kBreakthroughHolesPerft[2]); });
}

TEST(BreakthroughHoles, MctsBeatsRandomInAMatch) {
  troyka_tests::expect_first_agent_scores(
      "match games/breakthrough-holes.game --games 4 --agents mcts:iterations=300 random --json", 3.0);
}

// ---- Each move kind beside a hole ------------------------------------------------------------------

TEST(Holes, AKnightLeapsOverAHoleButNotOntoIt) {
  with_holes("games/knightthrough.game", "c3 d2").visit([](const auto& program) {
    const auto state = position(program, "7n/8/8/8/8/2#5/3#4/1N6 White 0");
    EXPECT_EQ(move_texts(program, state), (std::vector<std::string>{"b1-a3"}));  // c3 and d2 are holes
  });
}

TEST(Holes, ASlideStopsBeforeAHole) {
  with_holes("games/amazons.game", "c3", {{"width", "5"}}).visit([](const auto& program) {
    // The amazon on a3 slides east to b3 only; the arrow from b3 cannot fly east either.
    const auto state = position(program, "5/5/Q1#2/5/4q White 0");
    for (const std::string& move : move_texts(program, state)) {
      EXPECT_NE(move.rfind("a3-c3", 0), 0u) << move;
      EXPECT_NE(move.rfind("a3-d3", 0), 0u) << move;
      EXPECT_NE(move, "a3-b3/c3");
      EXPECT_NE(move, "a3-b3/d3");
    }
    EXPECT_TRUE(program.parse_move(state, "a3-b3/a3").ok());
  });
}

TEST(Holes, ADiscRestsOnAHoleAsOnTheBoardsEdge) {
  with_holes("games/connect-four.game", "d2").visit([](const auto& program) {
    EXPECT_EQ(move_texts(program, program.initial_state()),
              (std::vector<std::string>{"a1", "b1", "c1", "d1", "d3", "e1", "f1", "g1"}));
  });
}

TEST(Holes, AHoleBreaksALine) {
  with_holes("games/connect-four.game", "c1").visit([](const auto& program) {
    EXPECT_FALSE(position(program, "7/7/7/7/7/DD#DD2 Yellow 4").over);  // two and two, not four
    EXPECT_TRUE(position(program, "7/7/7/7/7/2#DDDD Yellow 4").over);
  });
}

TEST(Holes, AJumpNeverLandsOnAHole) {
  with_holes("games/english-draughts.game", "d4").visit([](const auto& program) {
    // Black's man on f6 would have to take the white man on e5 by landing on d4, which is a hole.
    const auto state = position(program, "8/8/5M2/4m3/3#4/8/8/8 Black 0 0");
    EXPECT_EQ(move_texts(program, state), (std::vector<std::string>{"f6-g5"}));
  });
}

}  // namespace
}  // namespace troyka
