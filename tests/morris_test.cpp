// Boards as graphs and phases (docs/core-design.md §6, steps 8 and 16): games/nine-mens-morris.game
// against the plain reference of tests/reference_morris.h (perft through the placement phase and
// into movement, random games), hand-made positions for mills, removals, flying and the end; links
// on a rectangle and lines as the in-a-row test's; the errors of the new forms; and a match.
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "interpreter/game.h"
#include "interpreter/perft.h"
#include "lang/diagnostic.h"
#include "lang/translate.h"
#include "tests/games.h"
#include "tests/reference_morris.h"
#include "tests/run_troyka.h"

namespace troyka {
namespace {

using troyka_tests::game;
using troyka_tests::game_from_text;
using troyka_tests::kSlowBuild;
using troyka_tests::load_error;
using troyka_tests::move_texts;
using troyka_tests::position;

namespace morris = reference_morris;

Game morris_game() { return game("nine-mens-morris.game"); }

std::string replaced(std::string_view text, std::string_view from, std::string_view to) {
  std::string result(text);
  return result.replace(result.find(from), from.size(), to);
}

// Late in the placement phase (White places its ninth man, Black its ninth, then men move) and in
// the movement phase with a player of three men, who flies.
const morris::Position kLatePlacement = morris::with_men({"a1", "d1", "b2", "d2", "c4", "e4", "f6", "a7"},
                                                         {"g1", "f2", "e3", "g4", "c5", "d6", "b6", "g7"}, {8, 8}, 16);
const morris::Position kFlying = morris::with_men({"a1", "d1", "b4"}, {"g1", "f2", "e3", "g4", "c5", "d6"}, {9, 9}, 40);

// From the start: 24 points, then 23, 22 and 21 (no mill before White's third man, on ply 5).
TEST(Morris, PerftAgreesWithTheReference) {
  morris_game().visit([&](const auto& program) {
    const std::vector<std::uint64_t> from_start = {24, 552, 12144, 255024};
    for (int depth = 1; depth <= (kSlowBuild ? 3 : 4); ++depth) {
      EXPECT_EQ(perft(program, program.initial_state(), depth), from_start[static_cast<std::size_t>(depth - 1)]);
      EXPECT_EQ(morris::perft(morris::start(), depth), from_start[static_cast<std::size_t>(depth - 1)]);
    }
    for (const morris::Position& start : {kLatePlacement, kFlying}) {
      const auto state = position(program, morris::text(start));
      SCOPED_TRACE(morris::text(start));
      troyka_tests::expect_perft_agrees(program, state, kSlowBuild ? 3 : 4,
                                        [&](int depth) { return morris::perft(start, depth); });
    }
  });
}

TEST(Morris, RandomGamesAgreeWithTheReference) {
  constexpr int kOngoing = -2;
  const auto winner = [](const morris::Position& position) {
    return !position.over ? kOngoing : position.winner < 0 ? kDraw : position.winner;
  };
  troyka_tests::expect_random_games_agree_with_plain_reference(
      morris_game(),
      troyka_tests::PlainReference<morris::Position>{morris::start(), morris::successors, winner, morris::text,
                                                     kOngoing},
      "Nine Men's Morris", kSlowBuild ? 2 : 20, 3);
}

// The texts of the legal moves in the position the reference writes so.
std::vector<std::string> moves_in(const morris::Position& at) {
  std::vector<std::string> texts;
  morris_game().visit([&](const auto& program) { texts = move_texts(program, position(program, morris::text(at))); });
  return texts;
}

// White closes a1-d1-g1 by d2-d1 and takes a Black man that is in no mill: not one of the mill
// b6-d6-f6. With one man to take, the move's text need not name it.
TEST(Morris, AMillRemovesAnEnemyManInNoMill) {
  const morris::Position at = morris::with_men({"a1", "g1", "d2", "a4", "c4"}, {"b6", "d6", "f6", "g4"}, {9, 9}, 30);
  std::vector<std::string> from_d2;
  for (const std::string& text : moves_in(at))
    if (text.starts_with("d2")) from_d2.push_back(text);
  EXPECT_EQ(from_d2, (std::vector<std::string>{"d2-b2", "d2-d3", "d2-f2", "d2xd1"}));
  morris_game().visit([&](const auto& program) {
    EXPECT_EQ(program.position_text(troyka_tests::after(program, position(program, morris::text(at)), "d2xd1")),
              morris::text(morris::with_men({"a1", "d1", "g1", "a4", "c4"}, {"b6", "d6", "f6"}, {9, 9}, 31)));
  });
}

// bench/games/nine-mens-morris-ludii.game, the decisions as Ludii splits them: White's third man
// closes a1-d1-g1, and the removal that this game's move makes at once is, there, a decision of
// White's own that follows (troyka against Ludii, docs/performance.md).
TEST(Morris, LudiisFormMakesTheRemovalADecisionOfItsOwn) {
  const std::vector<std::string> opening = {"a1", "a7", "d1", "d7"};
  morris_game().visit([&](const auto& program) {
    auto state = program.initial_state();
    for (const std::string& text : opening) state = troyka_tests::after(program, state, text);
    std::vector<std::string> onto_g1;
    for (const std::string& text : move_texts(program, state))
      if (text.starts_with("g1")) onto_g1.push_back(text);
    EXPECT_EQ(onto_g1, (std::vector<std::string>{"g1xa7", "g1xd7"}));
  });
  const Game ludii = Game::load(std::string(TROYKA_SOURCE_DIR) + "/bench/games/nine-mens-morris-ludii.game");
  ludii.visit([&](const auto& program) {
    auto state = program.initial_state();
    for (const std::string& text : opening) state = troyka_tests::after(program, state, text);
    state = troyka_tests::after(program, state, "g1");
    EXPECT_EQ(state.to_move, 0);  // White again
    EXPECT_EQ(move_texts(program, state), (std::vector<std::string>{"xa7", "xd7"}));
    state = troyka_tests::after(program, state, "xa7");
    EXPECT_EQ(state.to_move, 1);
    EXPECT_EQ(move_texts(program, state).size(), 20u);  // Black places on any of the 20 empty points
  });
}

// Every Black man stands in a mill: any of them may go, and each move names the man it takes.
TEST(Morris, WhenEveryEnemyManIsInAMillAnyMayGo) {
  const morris::Position at = morris::with_men({"a1", "g1", "d2", "a4", "c4"}, {"b6", "d6", "f6"}, {9, 9}, 30);
  std::vector<std::string> from_d2;
  for (const std::string& text : moves_in(at))
    if (text.starts_with("d2")) from_d2.push_back(text);
  EXPECT_EQ(from_d2, (std::vector<std::string>{"d2-b2", "d2-d3", "d2-f2", "d2xd1xb6", "d2xd1xd6", "d2xd1xf6"}));
}

// A player of three men flies to any empty point; one of four only steps along the lines.
TEST(Morris, ThreeMenFlyAndFourStep) {
  const morris::Position flying = morris::with_men({"a1", "d1", "b4"}, {"g1", "f2", "e3", "g4"}, {9, 9}, 40);
  EXPECT_EQ(moves_in(flying).size(), 3u * 17u);  // each of three men to each of the 17 empty points
  const morris::Position stepping = morris::with_men({"a1", "d1", "b4", "b6"}, {"g1", "f2", "e3", "g4"}, {9, 9}, 40);
  EXPECT_EQ(moves_in(stepping), (std::vector<std::string>{"a1-a4", "b4-a4", "b4-b2", "b4-c4", "b6-d6", "d1-d2"}));
}

// Black to move has no move: its four men in the corners are shut in, and White wins; a player down
// to two men loses.
TEST(Morris, ABlockedPlayerAndAPlayerOfTwoMenLose) {
  morris_game().visit([&](const auto& program) {
    const auto blocked = position(
        program, morris::text(morris::with_men({"d1", "a4", "g4", "d7"}, {"a1", "g1", "a7", "g7"}, {9, 9}, 41)));
    EXPECT_TRUE(blocked.over);
    EXPECT_EQ(blocked.winner, 0);
    const auto two = position(program, morris::text(morris::with_men({"a1", "d1", "b4"}, {"g1", "f2"}, {9, 9}, 41)));
    EXPECT_TRUE(two.over);
    EXPECT_EQ(two.winner, 0);
  });
}

// The phase moves on after Black's ninth man, not White's: the position text says so.
TEST(Morris, ThePlacementPhaseEndsWhenBothHavePlacedNine) {
  morris_game().visit([&](const auto& program) {
    auto state = position(program, morris::text(kLatePlacement));
    state = troyka_tests::after(program, state, "c3");
    EXPECT_EQ(program.position_text(state).substr(program.position_text(state).find(' ')),
              " Black 17 phase=placement placed=9,8");
    state = troyka_tests::after(program, state, "d7");
    EXPECT_EQ(program.position_text(state).substr(program.position_text(state).find(' ')),
              " White 18 phase=movement placed=9,9");
  });
}

// A position of a game with phases names its phase; one without is refused.
TEST(Morris, PositionTextNamesThePhase) {
  morris_game().visit([&](const auto& program) {
    EXPECT_EQ(program.parse_position(replaced(morris::text(morris::start()), " phase=placement", "")).error,
              "expected the phase after the ply count, e.g. 'phase=placement'");
    EXPECT_NE(program.diagram(program.initial_state()).find("phase: placement\n"), std::string::npos);
  });
}

// Translated, the board is written as its points and links, and the phases as they are: the same game.
TEST(Morris, TranslationWritesPointsLinksAndPhasesThatPlayAlike) {
  const std::string text = lang::to_troyka_language(morris_game().rules());
  EXPECT_NE(text.find("(board (points a1 d1 g1 b2 d2 f2 c3 d3 e3 a4 b4 c4 e4 f4 g4 c5 d5 e5 b6 d6 f6 a7 d7 g7)\n"
                      "    (link e a1 d1)\n    (link w d1 a1)"),
            std::string::npos)
      << text;
  EXPECT_NE(text.find("(phases placement movement)\n  (phase placement (until (= (counter placed) 9)))"),
            std::string::npos)
      << text;
  game_from_text(text).visit([&](const auto& program) {
    EXPECT_EQ(perft(program, position(program, morris::text(kLatePlacement)), 3), morris::perft(kLatePlacement, 3));
  });
}

// Without the decisive playout rule, which tries every move of a playout on a copy here (a win by
// the count of pieces is not foreseen by its cheap tests), MCTS plays in a fraction of the time.
TEST(Morris, MctsBeatsRandomInAMatch) {
  troyka_tests::expect_first_agent_scores(
      "match games/nine-mens-morris.game --agents mcts:iterations=30,decisive=off random --json --games " +
          std::string(kSlowBuild ? "2" : "4"),
      kSlowBuild ? 1.5 : 3.0);
}

// ---- links on a rectangle, and lines for in-a-row ---------------------------------------------------

// A 3x2 board whose bottom row is a ring: from c1, east leads to a1, and from a1 west to c1.
constexpr std::string_view kRing = R"((game "Ring"
  (players (White north) (Black south))
  (board (rectangle 3 2) (link e c1 a1) (link w a1 c1))
  (piece King "K" (step (e w) (to empty)))
  (setup (place White King a1) (place Black King c2))
  (end (lose no-legal-moves) (draw (ply-limit 10))))
)";

TEST(GraphBoards, ALinkLeadsWhereItSaysOnARectangle) {
  game_from_text(kRing).visit([&](const auto& program) {
    EXPECT_EQ(move_texts(program, program.initial_state()), (std::vector<std::string>{"a1-b1", "a1-c1"}));
    EXPECT_EQ(move_texts(program, position(program, "2k/K2 Black 1")), (std::vector<std::string>{"c2-b2"}));
  });
}

// Three points a column apart on one declared line are three in a row; on the grid they are not.
constexpr std::string_view kSpaced = R"((game "Spaced"
  (players (White north) (Black south))
  (board (points a1 c1 e1 a3 c3 e3) (line e a1 c1 e1) (line e a3 c3 e3))
  (piece Stone "S" (drop))
  (setup)
  (end (win (in-a-row 3))))
)";

TEST(GraphBoards, InARowFollowsTheDeclaredLines) {
  game_from_text(kSpaced).visit([&](const auto& program) {
    EXPECT_EQ(position(program, "1#1#1/#####/S#S#S Black 3").winner, 0);
    EXPECT_FALSE(position(program, "S#1#1/#####/1#S#S Black 3").over);
  });
}

// A triangle of points whose links have a name of the board's own: a runner goes on along `next`
// over empty points, and takes the first piece it meets.
constexpr std::string_view kTriangle = R"((game "Triangle"
  (players (White north) (Black south))
  (board (points a1 c1 b3) (link next a1 c1) (link next c1 b3) (link next b3 a1))
  (piece Runner "R" (moves (go next) (repeat (seq empty (go next))) (or empty (seq enemy capture))))
  (setup (place White Runner a1) (place Black Runner b3))
  (end (win opponent-has-no-pieces)))
)";

TEST(GraphBoards, ALinkMayNameADirectionOfItsOwn) {
  game_from_text(kTriangle).visit([&](const auto& program) {
    // From a1 to c1, or on to b3, taking Black there; never round again past it.
    EXPECT_EQ(move_texts(program, program.initial_state()), (std::vector<std::string>{"a1-c1", "a1xb3"}));
    // After a1-c1 Black runs to a1 or on to take at c1; after a1xb3 Black has no piece left.
    EXPECT_EQ(move_texts(program, position(program, "#R#/###/1#1 Black 1")), (std::vector<std::string>{}));
    EXPECT_EQ(perft(program, program.initial_state(), 2), 2u);
  });
  // The translation writes the name back, in the links and in the moves.
  const lang::Rules rules = troyka_tests::rules_from_text(kTriangle);
  const std::string text = lang::to_troyka_language(rules);
  EXPECT_NE(text.find("(link next a1 c1)"), std::string::npos) << text;
  EXPECT_NE(text.find("(go next)"), std::string::npos) << text;
}

// ---- the forms' errors ------------------------------------------------------------------------------

TEST(GraphBoardErrors, PointsAreNamedLikeCellsOnce) {
  EXPECT_EQ(load_error(replaced(kSpaced, "(points a1 c1", "(points a1 zz")),
            R"(test.game:3:21: error: expected a point named like a cell, e.g. d1, found 'zz'
 3 |   (board (points a1 zz e1 a3 c3 e3) (line e a1 c1 e1) (line e a3 c3 e3))
   |                     ^~
hint: a point is named by its column a..z and its row 1..26 on the board's chart
)");
  EXPECT_EQ(load_error(replaced(kSpaced, "(points a1 c1", "(points a1 a1")),
            R"(test.game:3:21: error: the point a1 is named twice
 3 |   (board (points a1 a1 e1 a3 c3 e3) (line e a1 c1 e1) (line e a3 c3 e3))
   |                     ^~
)");
}

TEST(GraphBoardErrors, KeywordMovesDoNotTakeALinkDirection) {
  EXPECT_EQ(load_error(replaced(kTriangle,
                                "(moves (go next) (repeat (seq empty (go next))) (or empty (seq enemy "
                                "capture)))",
                                "(step next (to empty))")),
            R"(test.game:4:27: error: 'next' is a direction of the board's links, which keyword moves do not take
 4 |   (piece Runner "R" (step next (to empty)))
   |                           ^~~~
hint: write the move in core forms, e.g. (moves (go next) empty)
)");
}

TEST(GraphBoardErrors, LinesJoinPointsOfTheBoard) {
  EXPECT_EQ(load_error(replaced(kSpaced, "(line e a1 c1 e1)", "(line e a1 b1 e1)")),
            R"(test.game:3:48: error: b1 is not a point of the board
 3 |   (board (points a1 c1 e1 a3 c3 e3) (line e a1 b1 e1) (line e a3 c3 e3))
   |                                                ^~
hint: the board's cells are the points its (points ...) names
)");
  EXPECT_EQ(load_error(replaced(kSpaced, "(line e a1 c1 e1)", "(line up a1 c1 e1)")),
            R"(test.game:3:43: error: expected a board direction, found 'up'
 3 |   (board (points a1 c1 e1 a3 c3 e3) (line up a1 c1 e1) (line e a3 c3 e3))
   |                                           ^~
hint: expected one of 'n', 's', 'e', 'w', 'ne', 'nw', 'se', 'sw'
)");
  EXPECT_EQ(load_error(replaced(kSpaced, "(line e a1 c1 e1)", "(line e a1)")),
            R"(test.game:3:37: error: a line joins at least two cells
 3 |   (board (points a1 c1 e1 a3 c3 e3) (line e a1) (line e a3 c3 e3))
   |                                     ^
hint: usage: (line DIRECTION CELL CELL...): each cell leads to the next along DIRECTION, and back the opposite way
)");
  EXPECT_EQ(load_error(replaced(kSpaced, "(line e a3 c3 e3)", "(line e a1 a3)")),
            R"(test.game:3:63: error: a1 already leads e to c1
 3 |   (board (points a1 c1 e1 a3 c3 e3) (line e a1 c1 e1) (line e a1 a3))
   |                                                               ^~
hint: a cell has at most one neighbour in each direction
)");
  EXPECT_EQ(
      load_error(replaced(kRing, "(link w a1 c1)", "(tunnel w a1 c1)")),
      R"(test.game:3:41: error: expected '(holes ...)', '(line ...)' or '(link ...)' in the board, found '(tunnel ...)'
 3 |   (board (rectangle 3 2) (link e c1 a1) (tunnel w a1 c1))
   |                                         ^
hint: usage: (board (rectangle WIDTH HEIGHT) [(holes REGION...)]) or (board (rhombus WIDTH HEIGHT) [(holes REGION...)]) or (board (hexagon SIDE) [(holes REGION...)]) or (board (points CELL...) (line DIRECTION CELL...)...), with (line ...) and (link ...) after any shape
)");
}

constexpr std::string_view kPhased = R"((game "Phased"
  (players (White north) (Black south))
  (board (rectangle 3 3))
  (counter placed (range 0 2))
  (phases placing moving)
  (phase placing (until (= (counter placed) 2)))
  (piece Stone "S" (moves (phase moving) (go (n e s w)) empty))
  (moves (phase placing) (new Stone) (enter all) empty (add placed 1))
  (setup)
  (end (lose no-legal-moves) (draw (ply-limit 20))))
)";

TEST(PhaseErrors, ARuleNamesADeclaredPhase) {
  EXPECT_EQ(load_error(replaced(kPhased, "(moves (phase moving)", "(moves (phase movin)")),
            R"(test.game:7:34: error: unknown phase 'movin'
 7 |   (piece Stone "S" (moves (phase movin) (go (n e s w)) empty))
   |                                  ^~~~~
hint: did you mean 'moving'?
)");
  EXPECT_EQ(load_error(replaced(replaced(kPhased, "(phases placing moving)\n  ", ""),
                                "(phase placing (until (= (counter placed) 2)))\n  ", "")),
            R"(test.game:5:34: error: unknown phase 'moving'
 5 |   (piece Stone "S" (moves (phase moving) (go (n e s w)) empty))
   |                                  ^~~~~~
hint: declare the game's phases at game level: (phases NAME NAME...)
)");
}

TEST(PhaseErrors, EveryPhaseButTheLastEnds) {
  EXPECT_EQ(load_error(replaced(kPhased, "(phase placing (until (= (counter placed) 2)))", "")),
            R"(test.game:5:11: error: the phase 'placing' never ends
 5 |   (phases placing moving)
   |           ^~~~~~~
hint: give it (phase placing (until CONDITION))
)");
  EXPECT_EQ(load_error(replaced(kPhased, "(phase placing (until", "(phase moving (until")),
            R"(test.game:6:10: error: 'moving' is the last phase: it lasts to the end of the game
 6 |   (phase moving (until (= (counter placed) 2)))
   |          ^~~~~~
)");
  EXPECT_EQ(load_error(replaced(kPhased, "(until (= (counter placed) 2))", "(until no-legal-moves)")),
            R"(test.game:6:25: error: '(until ...)' cannot test no-legal-moves
 6 |   (phase placing (until no-legal-moves))
   |                         ^~~~~~~~~~~~~~
hint: a phase ends by the position after a decision alone
)");
}

// Two stones each are placed, then they step: perft counted by hand. 9, 8, then White's two stones
// step to the empty neighbours.
TEST(Phases, RulesApplyInTheirPhaseOnly) {
  game_from_text(kPhased).visit([&](const auto& program) {
    EXPECT_EQ(perft(program, program.initial_state(), 4), 9u * 8u * 7u * 6u);
    const auto moving = position(program, "S2/1S1/2s Black 4 phase=moving placed=2,2");
    EXPECT_EQ(move_texts(program, moving), (std::vector<std::string>{"c1-b1", "c1-c2"}));
  });
}

}  // namespace
}  // namespace troyka
