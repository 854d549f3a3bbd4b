// games/go.game: perft and random games against the plain reference of tests/reference_go.h,
// hand-made positions for the rules that are easy to get wrong (a group of several stones taken, a
// capture that makes a move legal that would otherwise be suicide, suicide refused, a repetition
// lost, the pass, two passes ending the game, area scoring with komi, territory and shared
// points), the mistakes the new forms can make, and a match of MCTS against random.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "interpreter/game.h"
#include "interpreter/general.h"
#include "interpreter/perft.h"
#include "tests/games.h"
#include "tests/reference_go.h"
#include "tests/run_troyka.h"

namespace troyka {
namespace {

using troyka_tests::end_after;
using troyka_tests::kSlowBuild;
using troyka_tests::move_texts;
using troyka_tests::position;

namespace go = reference_go;

Game go_game(int size, int komi = 7) {
  return troyka_tests::game("go.game", {{"size", std::to_string(size)}, {"komi", std::to_string(komi)}});
}

// perft(1) ... from the empty board, counted by the reference: on 9x9, and on 3x3 and 4x4, where
// captures, suicides and the end by two passes come within a few plies.
struct GoPerftCase {
  int size;
  std::vector<std::uint64_t> counts;
};
const std::vector<GoPerftCase> kGoPerft = {
    {9, {82, 6643, 531522}},
    {3, {10, 91, 738, 5281, 33384, 179744}},
    {4, {17, 273, 4112, 57984, 764016}},
};

TEST(Go, PerftAgreesWithTheReference) {
  for (const GoPerftCase& test : kGoPerft)
    go_game(test.size).visit([&](const auto& program) {
      const std::size_t cut = kSlowBuild ? 2 : 0;
      for (std::size_t depth = 1; depth + cut <= test.counts.size(); ++depth) {
        const auto d = static_cast<int>(depth);
        EXPECT_EQ(perft(program, program.initial_state(), d), test.counts[depth - 1]) << test.size << " depth " << d;
        EXPECT_EQ(go::perft(go::start(test.size, 7, false), d), test.counts[depth - 1])
            << test.size << " depth " << d << " (reference)";
      }
    });
}

// Every position of random games, played with the game's history, has the reference's text, end
// and successors (compared by their texts).
void expect_random_games_agree(int size, int rounds, std::uint64_t seed) {
  go_game(size).visit([&](const auto& program) {
    Rng rng(seed);
    for (int round = 0; round < rounds; ++round) {
      auto state = program.initial_state();
      History history = program.start_history(state);
      go::Position expected = go::start(size, 7, true);
      while (true) {
        const std::string text = program.position_text(state);
        ASSERT_EQ(text, go::text(expected));
        ASSERT_EQ(state.over, expected.winner != go::kOngoing) << text;
        if (state.over) {
          EXPECT_EQ(state.winner, expected.winner) << text;
          break;
        }
        std::vector<std::string> expected_texts;
        for (const go::Position& next : go::successors(expected)) expected_texts.push_back(go::text(next));
        std::sort(expected_texts.begin(), expected_texts.end());
        ASSERT_EQ(troyka_tests::successor_texts(program, state), expected_texts) << text;
        const Move move = program.random_move(state, rng);
        EXPECT_EQ(program.parse_move(state, program.move_text(move)).move, move) << text;
        program.apply(state, move, history);
        for (const go::Position& next : go::successors(expected))
          if (go::text(next) == program.position_text(state)) expected = next;
      }
    }
  });
}

TEST(Go, RandomGamesAgreeWithTheReference) {
  expect_random_games_agree(5, kSlowBuild ? 2 : 40, 7);
  expect_random_games_agree(9, kSlowBuild ? 1 : 10, 9);
}

// White's b1 and c1 are one group; Black's d1 takes its last liberty, and both stones go.
TEST(Go, AGroupOfSeveralStonesIsCapturedWhole) {
  go_game(5).visit([](const auto& program) {
    EXPECT_EQ(troyka_tests::after_move(program, "5/5/5/1SS2/Sss2 Black 10 passes=0,0", "d1"),
              "5/5/5/1SS2/S2S1 White 11 passes=0,0");
  });
}

// a1 has no empty neighbour, but Black's stone there takes White's b1 and a2, each in atari, and so
// has liberties: the move is legal. White's stone at a1 in the same place would be suicide.
TEST(Go, ACaptureMakesAMoveLegalThatLooksLikeSuicide) {
  go_game(5).visit([](const auto& program) {
    const std::string before = "5/5/S4/sS3/1sS2 Black 10 passes=0,0";
    EXPECT_EQ(troyka_tests::after_move(program, before, "a1"), "5/5/S4/1S3/S1S2 White 11 passes=0,0");
  });
}

// White's a1 would leave a1 and b1 one group without a liberty, and takes nothing: refused, as is
// a single stone on a point surrounded by Black. Every other empty point, and the pass, is legal.
TEST(Go, SuicideIsRefused) {
  go_game(3).visit([](const auto& program) {
    const auto state = position(program, "3/SS1/1sS White 10 passes=0,0");
    EXPECT_EQ(move_texts(program, state), (std::vector<std::string>{"a3", "b3", "c2", "c3", "pass"}));
    EXPECT_FALSE(program.parse_move(state, "a1").ok());
    const auto surrounded = position(program, "1S1/S1S/1S1 White 10 passes=0,0");
    const auto moves = move_texts(program, surrounded);
    EXPECT_EQ(std::count(moves.begin(), moves.end(), "b2"), 0);
  });
}

// A ko: Black's c2 takes b2, and White's b2 at once would take c2 back, repeating the position
// before c2 with Black to move. That recapture loses.
TEST(Go, RepeatingAPositionLoses) {
  go_game(5).visit([](const auto& program) {
    auto state = program.initial_state();
    History history = program.start_history(state);
    for (const char* move : {"b3", "c3", "a2", "b2", "b1", "d2", "e5", "c1", "c2"})
      program.apply(state, program.parse_move(state, move).move, history);
    EXPECT_EQ(program.position_text(state), "4S/5/1Ss2/S1Ss1/1Ss2 White 9 passes=0,0");
    ASSERT_FALSE(state.over);
    program.apply(state, program.parse_move(state, "b2").move, history);
    EXPECT_EQ(program.position_text(state), "4S/5/1Ss2/Ss1s1/1Ss2 Black 10 passes=0,0");
    ASSERT_TRUE(state.over);
    EXPECT_EQ(program.end_reason(state), "White loses by (repetition 2)");
  });
}

// A pass is always legal and changes only the player to move and the passes in a row; a stone
// starts the count again. Two passes in a row end the game.
TEST(Go, PassesAndTwoPassesEndTheGame) {
  go_game(5).visit([](const auto& program) {
    const std::string start = "5/5/5/5/5 Black 0 passes=0,0";
    EXPECT_EQ(troyka_tests::after_move(program, start, "pass"), "5/5/5/5/5 White 1 passes=1,1");
    EXPECT_EQ(end_after(program, "5/5/5/5/5 White 1 passes=1,1", "c3"), "");
    EXPECT_EQ(troyka_tests::after_move(program, "5/5/5/5/5 White 1 passes=1,1", "c3"),
              "5/5/2s2/5/5 Black 2 passes=0,0");
    EXPECT_EQ(end_after(program, "5/5/5/5/5 White 1 passes=1,1", "pass"),
              "White wins by the larger area, Black 0 to White 7 (komi 7 included), at (>= (counter passes) 2)");
  });
}

// Black's wall on column c holds columns a and b, White's on d holds e: 15 to 10 before the komi.
// With komi 7 White wins 17 to 15; without, Black wins; with 5 it is a draw.
TEST(Go, AreaScoringCountsStonesTerritoryAndKomi) {
  const std::string walls = "2Ss1/2Ss1/2Ss1/2Ss1/2Ss1 White 30 passes=1,1";
  go_game(5).visit([&](const auto& program) {
    EXPECT_EQ(end_after(program, walls, "pass"),
              "White wins by the larger area, Black 15 to White 17 (komi 7 included), at (>= (counter passes) 2)");
  });
  go_game(5, 0).visit([&](const auto& program) {
    EXPECT_EQ(end_after(program, walls, "pass"),
              "Black wins by the larger area, Black 15 to White 10 (komi 0 included), at (>= (counter passes) 2)");
  });
  go_game(5, 5).visit([&](const auto& program) {
    EXPECT_EQ(end_after(program, walls, "pass"),
              "draw by equal areas, Black 15 to White 15 (komi 5 included), at (>= (counter passes) 2)");
  });
}

// Points that touch both colours belong to no one, as the shared liberties of a seki do: column d
// between the walls.
TEST(Go, SharedPointsCountForNoOne) {
  go_game(5, 0).visit([](const auto& program) {
    EXPECT_EQ(end_after(program, "2S1s/2S1s/2S1s/2S1s/2S1s White 30 passes=1,1", "pass"),
              "Black wins by the larger area, Black 15 to White 5 (komi 0 included), at (>= (counter passes) 2)");
  });
}

TEST(Go, TheNewFormsReportTheirMistakes) {
  const std::string head =
      "(game \"G\" (players (Black north) (White south)) (board (rectangle 3 3)) (counter passes (range 0 2) shared)\n"
      "  (piece Stone \"S\")\n";
  const std::string stone =
      "  (moves (new Stone) (enter all) empty land (capture-surrounded orthogonal) (has-liberty orthogonal))\n"
      "  (setup)\n";
  const auto with_end = [&](const std::string& end) { return troyka_tests::load_error(head + stone + end); };
  EXPECT_EQ(with_end("  (end (most-area orthogonal (komi 7) (>= (counter passes) 2))))\n"), "loads");
  EXPECT_EQ(with_end("  (end (most-area forward (>= (counter passes) 2))))\n"),
            "test.game:5:19: error: an area is joined along board directions, the same for both players\n"
            " 5 |   (end (most-area forward (>= (counter passes) 2))))\n"
            "   |                   ^~~~~~~\n"
            "hint: write board directions such as orthogonal, or n e s w\n");
  EXPECT_EQ(with_end("  (end (most-area (n e) (>= (counter passes) 2))))\n"),
            "test.game:5:19: error: an area joins cells both ways, but these directions go (0, 1) and not back\n"
            " 5 |   (end (most-area (n e) (>= (counter passes) 2))))\n"
            "   |                   ^\n"
            "hint: add each direction's opposite, or write orthogonal or all-directions\n");
  EXPECT_EQ(troyka_tests::load_error(
                "(game \"G\" (players (Black north) (White south)) (board (rectangle 3 3)) (counter passes (range 0 2) "
                "share)\n  (piece Stone \"S\" (drop)) (setup) (end (lose no-legal-moves)))\n"),
            "test.game:1:101: error: expected 'shared', found 'share'\n"
            " 1 | ...oard (rectangle 3 3)) (counter passes (range 0 2) share)\n"
            "   |                                                      ^~~~~\n"
            "hint: usage: (counter NAME (range LOW HIGH) [shared])\n");
  const std::string no_end = "  (setup)\n  (end (lose no-legal-moves)))\n";
  EXPECT_EQ(troyka_tests::load_error(head + "  (moves (new Stone) (enter all) empty (capture-surrounded))\n" + no_end),
            "test.game:3:40: error: '(capture-surrounded ...)' has 0 parts after 'capture-surrounded' but needs 1\n"
            " 3 |   (moves (new Stone) (enter all) empty (capture-surrounded))\n"
            "   |                                        ^\n"
            "hint: usage: (capture-surrounded DIRECTIONS): capture every enemy group next to here left without a "
            "liberty\n");
  EXPECT_EQ(troyka_tests::load_error(
                head + "  (moves (new Stone) (capture-surrounded orthogonal) (enter all) empty)\n" + no_end),
            "test.game:3:3: error: a game-level rule starts at no cell, and (capture-surrounded (n e s w)) needs one\n"
            " 3 |   (moves (new Stone) (capture-surrounded orthogonal) (enter all) empty)\n"
            "   |   ^\n"
            "hint: choose the cell first with (enter REGION), as a drop does: (moves (new PIECE) (enter all) empty)\n");
  EXPECT_EQ(troyka_tests::load_error(
                head + "  (moves (new Stone) (enter all) empty (if (capture-surrounded orthogonal) pass))\n" + no_end),
            "test.game:3:44: error: expected a test here, such as empty or (can ...), found '(capture-surrounded "
            "...)'\n"
            " 3 |   (moves (new Stone) (enter all) empty (if (capture-surrounded orthogonal) pass))\n"
            "   |                                            ^\n");
}

// A stone's rule, put down on an empty cell, capturing and keeping a liberty, has its legal cells
// found for the whole board by groups (GeneralMoves::GroupPlacement); the same rule with a test
// that always holds after the land, which breaks the shape, runs every cell through the VM. Both
// list the same moves in every position of random games: two players along the four lines, two
// along all eight directions, and three players, whose groups are each one player's. The random
// moves are drawn from the group placement's count where the game draws by count (two players).
TEST(Go, LegalCellsFoundByGroupsAreTheCellsTheRulesAllow) {
  struct Variant {
    std::string name, players, directions;
    int size;
  };
  const std::vector<Variant> variants = {
      {"two players", "(Black north) (White south)", "orthogonal", 5},
      {"eight directions", "(Black north) (White south)", "all-directions", 5},
      {"three players", "(Black north) (White south) (Red east)", "orthogonal", 4},
  };
  for (const Variant& variant : variants) {
    const auto rules = [&](const std::string& after_land) {
      return "(game \"Stones\" (players " + variant.players + ") (board (rectangle " + std::to_string(variant.size) +
             " " + std::to_string(variant.size) +
             "))\n  (piece Stone \"S\")\n  (moves (new Stone) (enter all) empty land " + after_land +
             "(capture-surrounded " + variant.directions + ") (has-liberty " + variant.directions +
             "))\n  (moves \"pass\" pass)\n  (setup)\n  (end (draw (ply-limit 60))))\n";
    };
    const Game grouped = troyka_tests::game_from_text(rules(""));
    const Game plain = troyka_tests::game_from_text(rules("(not enemy) "));
    grouped.visit([&](const auto& by_groups) {
      plain.visit([&](const auto& by_runs) {
        EXPECT_NE(by_groups.describe().find(", its legal cells found by groups"), std::string::npos) << variant.name;
        EXPECT_EQ(by_runs.describe().find(", its legal cells found by groups"), std::string::npos) << variant.name;
        EXPECT_TRUE(by_groups.draws_by_count()) << variant.name;  // any number of players
        Rng rng(3);
        int captures = 0;
        for (int game = 0; game < (kSlowBuild ? 2 : 10); ++game) {
          auto state = by_groups.initial_state();
          auto same = by_runs.initial_state();
          while (!state.over) {
            const std::string text = by_groups.position_text(state);
            ASSERT_EQ(move_texts(by_groups, state), move_texts(by_runs, same)) << variant.name << " " << text;
            const Move move = by_groups.random_move(state, rng);
            by_groups.apply(state, move);
            by_runs.apply(same, by_runs.parse_move(same, by_groups.move_text(move)).move);
            captures += move.capture;
          }
        }
        EXPECT_GT(captures, 0) << variant.name;  // the games reach the positions the groups decide
      });
    });
  }
}

// A draw by rejection (GeneralMoves::draws_by_rejection) draws among candidates: each empty cell of
// the placement and each other move (the pass). In `state`, every candidate is a listed move or is
// refused (a cell where the stone is not legal), and each listed move is exactly one candidate: so
// a uniform draw among the candidates, the refused ones drawn again, is uniform among the moves.
template <typename Program>
void expect_candidates_are_the_moves(const Program& program, const typename Program::StateType& state,
                                     const std::string& name) {
  ASSERT_TRUE(program.draws_by_rejection(state)) << name;
  MoveList listed;
  program.legal_moves(state, listed);
  Candidates<Program::kWords> gathered;
  program.gather_candidates(state, gathered);
  std::vector<Move> drawn;
  std::vector<GeneralRecord> records;
  for (int index = 0; index < gathered.total; ++index) {
    Candidates<Program::kWords> left = gathered;
    Move move;
    if (!program.candidate_move(state, left, index, records, move)) {
      EXPECT_EQ(left.total, gathered.total - 1) << name << " " << program.position_text(state);
      continue;
    }
    ASSERT_EQ(records.size(), 1u);
    ASSERT_NE(std::find(listed.begin(), listed.end(), move), listed.end())
        << name << " " << program.position_text(state) << " candidate " << index;
    ASSERT_EQ(std::find(drawn.begin(), drawn.end(), move), drawn.end())
        << name << " " << program.position_text(state) << " candidate " << index;
    drawn.push_back(move);
  }
  EXPECT_EQ(drawn.size(), listed.size()) << name << " " << program.position_text(state);
}

// In every position of random games (with the game's history, as played): of Go on 9x9, and of the
// same stone rule along all eight directions and with three players.
TEST(Go, EachMoveIsOneCandidateOfTheDrawByRejection) {
  go_game(9).visit([](const auto& program) {
    EXPECT_NE(program.describe().find("drawn by rejection"), std::string::npos);
    Rng rng(5);
    int positions = 0;
    for (int game = 0; game < (kSlowBuild ? 1 : 4); ++game) {
      auto state = program.initial_state();
      History history = program.start_history(state);
      for (; !state.over; ++positions) {
        expect_candidates_are_the_moves(program, state, "go 9x9");
        program.apply(state, program.random_move(state, rng), history);
      }
    }
    EXPECT_GT(positions, 100);
  });
  for (const auto& [players, directions] :
       {std::pair<std::string, std::string>{"(Black north) (White south)", "all-directions"},
        {"(Black north) (White south) (Red east)", "orthogonal"}}) {
    const Game game = troyka_tests::game_from_text(
        "(game \"Stones\" (players " + players +
        ") (board (rectangle 4 4))\n  (piece Stone \"S\")\n  (moves (new Stone) (enter all) empty land "
        "(capture-surrounded " +
        directions + ") (has-liberty " + directions +
        "))\n  (moves \"pass\" pass)\n  (setup)\n  (end (draw (ply-limit 60))))\n");
    game.visit([&](const auto& program) {
      Rng rng(7);
      for (int played = 0; played < (kSlowBuild ? 2 : 10); ++played)
        for (auto state = program.initial_state(); !state.over; program.apply(state, program.random_move(state, rng)))
          expect_candidates_are_the_moves(program, state, players + " " + directions);
    });
  }
  // A game whose stone is not drawn so (a test before the land keeps GROUPPLACE from being formed).
  troyka_tests::game_from_text(
      "(game \"Stones\" (players (Black north) (White south)) (board (rectangle 4 4))\n  (piece Stone \"S\")\n"
      "  (moves (new Stone) (enter all) empty land (not enemy) (capture-surrounded orthogonal) (has-liberty "
      "orthogonal))\n  (moves \"pass\" pass)\n  (setup)\n  (end (draw (ply-limit 60))))\n")
      .visit([](const auto& program) {
        EXPECT_FALSE(program.draws_by_rejection(program.initial_state()));
        EXPECT_EQ(program.describe().find("drawn by rejection"), std::string::npos);
      });
}

// random_move, which draws by rejection, is uniform among the listed moves in hand-made positions
// (expect_random_moves_uniform). A draw that left out the pass, or gave a refused cell's draw to the
// next candidate, puts hundreds on one move and fails.
TEST(Go, TheDrawByRejectionIsUniformAmongTheMoves) {
  const std::vector<std::pair<int, std::string>> positions = {
      {3, "3/SS1/1sS White 10 passes=0,0"},                  // a1 suicide: 5 moves of 6 candidates
      {5, "1S1S1/SSSSS/1S1S1/SSSSS/5 White 10 passes=0,0"},  // six eyes refused: 6 moves of 12
      {5, "1S1S1/SSSSS/1S1S1/SSSSS/5 Black 10 passes=0,0"},  // Black may fill its eyes: 12 of 12
      {5, "5/5/S4/sS3/1sS2 Black 10 passes=0,0"},            // a1 legal by its capture: 20 of 20
      {5, "5/5/S4/sS3/1sS2 White 10 passes=0,0"},            // a1 suicide for White: 19 of 20
  };
  for (const auto& [size, text] : positions)
    go_game(size).visit([&](const auto& program) {
      troyka_tests::expect_random_moves_uniform(program, position(program, text), text);
    });
}

// Random playouts of 5x5 Go run on the general back end: few iterations a move. Under sanitizers,
// 50 and four games: 20 and two games lost one by chance once the random moves were drawn by
// rejection (another random stream).
TEST(Go, MctsBeatsRandomInAMatch) {
  if (kSlowBuild)
    troyka_tests::expect_first_agent_scores(
        "match games/go.game --param size=5 --games 4 --agents mcts:iterations=50 random --json", 3.0);
  else
    troyka_tests::expect_first_agent_scores(
        "match games/go.game --param size=5 --games 4 --agents mcts:iterations=100 random --json", 3.0);
}

}  // namespace
}  // namespace troyka
