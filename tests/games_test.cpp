// Tests of the games in games/ beyond Breakthrough: perft from the start against published figures
// or, where none exist, against the slow reference of tests/reference.h (which reads only
// lang::Rules), and hand-made positions for every rule that is easy to get wrong.
//
// How perft counts: a move sequence of length `depth` from the start; a finished game has no moves,
// so a position where a game ended early adds nothing at greater depths.
#include "tests/games.h"

#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <filesystem>
#include <string>
#include <unordered_set>
#include <utility>
#include <vector>

#include "interpreter/game.h"
#include "interpreter/perft.h"
#include "interpreter/random.h"
#include "lang/translate.h"
#include "tests/reference.h"
#include "tests/run_troyka.h"

namespace troyka {
namespace {

using troyka_tests::after;
using troyka_tests::breakthrough;
using troyka_tests::expect_playouts_match_random_move_loop;
using troyka_tests::game;
using troyka_tests::move_texts;
using troyka_tests::position;

// Debug and sanitizer builds are about 25 times slower: the reference counts go less deep there.
#ifdef NDEBUG
constexpr int kDepthCut = 0;
#else
constexpr int kDepthCut = 1;
#endif

struct PerftCase {
  std::string file;
  std::vector<std::pair<std::string, std::string>> params;
  std::vector<std::uint64_t> nodes;  // perft(1), perft(2), ...
  int reference_depth = 0;           // how deep the reference confirms them
};

// The figures of docs/games.md. The reference recounts the first `reference_depth` of them; the
// small boards go deep enough for games to end inside the count.
const std::vector<PerftCase> kIndependentCounts = {
    {"misere-breakthrough.game", {}, {22, 484, 11132, 256036, 6182818}, 3},
    {"misere-breakthrough.game", {{"width", "4"}, {"height", "5"}}, {10, 90, 848, 7794, 75378, 705244}, 6},
    {"knightthrough.game", {}, {40, 1600, 63520, 2521306, 99598454}, 3},
    {"knightthrough.game", {{"width", "4"}, {"height", "5"}}, {16, 246, 3574, 45970, 553260}, 5},
    {"clobber.game", {}, {49, 2116, 80063, 2630382, 74662024}, 3},
    {"clobber.game", {{"width", "3"}, {"height", "3"}}, {12, 88, 376, 928, 1840, 1048, 616, 0}, 8},
    {"clobber.game", {{"width", "4"}, {"height", "4"}}, {24, 448, 6380, 67296, 529200}, 5},
    // Five in a row needs nine plies: the first three depths are 225 * 224 * 223.
    {"gomoku.game", {}, {225, 50400, 11239200}, 2},
    {"gomoku.game", {{"size", "5"}}, {25, 600, 13800, 303600, 6375600}, 3},
    // Amazons with the setup scaled down (games/amazons.game): 6x6, 5x5 and 4x4.
    {"amazons.game", {{"width", "6"}}, {496, 198070}, 2},
    {"amazons.game", {{"width", "5"}}, {260, 50422, 7940210}, 2},
    {"amazons.game", {{"width", "4"}}, {88, 4336, 139500, 2918258}, 3},
    // Hex: a chain across an n x n board takes n stones, so no game ends before move 2n - 1 and
    // the first 2n - 1 depths are falling products (11x11: 121 * 120 * 119 * 118). 2x2 and 3x3 are
    // played out completely (3x3: 120960 sequences fill the board).
    {"hex.game", {}, {121, 14520, 1727880, 203889840}, 3},
    {"hex.game", {{"size", "2"}}, {4, 12, 24, 12, 0}, 5},
    {"hex.game", {{"size", "3"}}, {9, 72, 504, 3024, 15120, 54720, 146880, 207360, 120960, 0}, 10},
    {"hex.game", {{"size", "4"}}, {16, 240, 3360, 43680, 524160, 5765760, 57657600}, 5},
    // The swap is one more move at ply 1 and leaves one stone on the board: 121 * 121, then
    // 121 * (120 * 119 + 120); a game is over only when a chain is made, as without the swap.
    {"hex.game", {{"swap", "1"}}, {121, 14641, 1742400}, 3},
    {"hex.game", {{"size", "3"}, {"swap", "1"}}, {9, 81, 576, 3528}, 4},
};

TEST(GamesPerft, IndependentCountsAgree) {
  for (const PerftCase& test : kIndependentCounts) {
    const Game loaded = game(test.file, test.params);
    const lang::Rules& rules = loaded.rules();
    loaded.visit([&](const auto& program) {
      const auto start = program.initial_state();
      const reference::Position reference_start = reference::start(rules);
      for (std::size_t depth = 1; depth <= test.nodes.size(); ++depth) {
        const auto d = static_cast<int>(depth);
        EXPECT_EQ(perft(program, start, d), test.nodes[depth - 1]) << test.file << " depth " << d;
        if (d <= test.reference_depth - kDepthCut) {
          EXPECT_EQ(reference::perft(rules, reference_start, d), test.nodes[depth - 1])
              << test.file << " depth " << d << " (reference)";
        }
      }
    });
  }
}

// Every position of random games, in every game of games/ (and the variants that change a rule),
// has the moves and the end decision of the reference.
TEST(GamesRandomPlay, EveryPositionAgreesWithTheReference) {
  std::vector<std::pair<std::string, lang::Options>> games;
  for (const auto& entry : std::filesystem::directory_iterator(std::string(TROYKA_SOURCE_DIR) + "/games"))
    if (entry.path().extension() == ".game") games.emplace_back(entry.path().string(), lang::Options{});
  games.emplace_back(std::string(TROYKA_SOURCE_DIR) + "/games/gomoku.game", lang::Options{"standard", {}});
  games.emplace_back(std::string(TROYKA_SOURCE_DIR) + "/games/hex.game", lang::Options{"swap", {{"size", "5"}}});
  games.emplace_back(std::string(TROYKA_SOURCE_DIR) + "/tests/data/games/hoppers.game", lang::Options{});  // cell tests
  games.emplace_back(std::string(TROYKA_SOURCE_DIR) + "/tests/data/games/shooters.game", lang::Options{});  // shots
  games.emplace_back(std::string(TROYKA_SOURCE_DIR) + "/tests/data/games/reach-shooters.game", lang::Options{});
  ASSERT_GE(games.size(), 14u);
  for (const auto& [file, options] : games) {
    const Game loaded = Game::load(file, options);
    // The reference reads keyword forms only: a game with core rules of the general back end
    // (breakthrough-score.game) is compared with a view of its own (tests/ends_test.cpp). It plays
    // two players: games of more are compared with tests/players_reference.h (tests/players_test.cpp).
    if (loaded.rules().general || loaded.rules().player_count() > kPlayers) continue;
    troyka_tests::expect_random_games_agree_with_reference(loaded, file, 20 / (1 + 3 * kDepthCut), 7);
  }
}

// ---- Misère Breakthrough ------------------------------------------------------------------------

// MCTS beats random in a match of four games (three points at least) in each game that has no
// match test of its own beside its rules' tests. Few playouts keep them quick; Tablut needs more
// (with 30 a move MCTS lost both its games as Black, the attackers, who move first).
TEST(GamesMatch, MctsBeatsRandomInEveryOtherGame) {
  for (const char* game :
       {"tablut.game --agents mcts:iterations=100,decisive=off",
        "connect6.game --agents mcts:iterations=30,decisive=off",
        "othello.game --agents mcts:iterations=30,decisive=off", "gomoku.game --agents mcts:iterations=30,decisive=off",
        "clobber.game --agents mcts:iterations=30,decisive=off",
        "connect-four.game --agents mcts:iterations=30,decisive=off",
        "english-draughts.game --agents mcts:iterations=30,decisive=off",
        "tic-tac-toe.game --agents mcts:iterations=30,decisive=off",
        "knightthrough.game --agents mcts:iterations=30,decisive=off",
        "misere-breakthrough.game --agents mcts:iterations=30,decisive=off"}) {
    SCOPED_TRACE(game);
    troyka_tests::expect_first_agent_scores(fmt::format("match games/{} random --games 4 --json", game), 3.0);
  }
}

TEST(MisereBreakthrough, ReachingTheFarRowLoses) {
  game("misere-breakthrough.game").visit([](const auto& program) {
    const auto state = after(program, position(program, "8/6P1/8/8/8/8/p7/8 White 10"), "g7-g8");
    EXPECT_TRUE(state.over);
    EXPECT_EQ(program.result(state, 0), -1);
    EXPECT_EQ(program.end_reason(state), "White loses by (reach Pawn far-row)");
    // Black's far row is row 1.
    const auto black = after(program, position(program, "8/8/8/8/8/8/p7/7P Black 11"), "a2-a1");
    EXPECT_EQ(program.end_reason(black), "Black loses by (reach Pawn far-row)");
  });
}

TEST(MisereBreakthrough, TakingTheLastEnemyPieceLoses) {
  game("misere-breakthrough.game").visit([](const auto& program) {
    const auto state = after(program, position(program, "8/8/8/8/8/1p6/P7/8 White 10"), "a2xb3");
    EXPECT_TRUE(state.over);
    EXPECT_EQ(program.result(state, 1), 1);
    EXPECT_EQ(program.end_reason(state), "White loses by opponent-has-no-pieces");
  });
}

TEST(MisereBreakthrough, NoWinIsEverAnticipated) {
  // The playout policies look for moves that win at once; in this game no move does.
  game("misere-breakthrough.game").visit([](const auto& program) {
    const auto state = position(program, "8/6P1/8/8/8/8/p7/8 White 10");
    Move win;
    EXPECT_FALSE(program.winning_move(state, win));
    EXPECT_FALSE(program.opponent_threatens_win(state));
  });
}

// ---- Knightthrough ------------------------------------------------------------------------------

// The texts of the legal moves that start on `cell`, sorted.
template <typename Program>
std::vector<std::string> moves_from(const Program& program, const typename Program::StateType& state,
                                    const std::string& cell) {
  std::vector<std::string> found;
  for (const std::string& move : move_texts(program, state))
    if (move.starts_with(cell + "-") || move.starts_with(cell + "x")) found.push_back(move);
  return found;
}

TEST(Knightthrough, KnightsLeapOnlyForwardsAndOverPieces) {
  game("knightthrough.game").visit([](const auto& program) {
    // The d4 knight is surrounded; it leaps over its neighbours, never backwards.
    const auto state = position(program, "n7/8/8/2NNN3/2NNN3/2NNN3/8/8 White 10");
    EXPECT_EQ(moves_from(program, state, "d4"), (std::vector<std::string>{"d4-b5", "d4-c6", "d4-e6", "d4-f5"}));
  });
}

TEST(Knightthrough, CapturesByLandingOnAnEnemyNeverOnAFriend) {
  game("knightthrough.game").visit([](const auto& program) {
    const auto state = position(program, "n7/8/2n1N3/8/3N4/8/8/8 White 10");
    EXPECT_EQ(moves_from(program, state, "d4"), (std::vector<std::string>{"d4-b5", "d4-f5", "d4xc6"}));
  });
}

TEST(Knightthrough, ReachingTheFarRowWinsAndBlackLeapsSouthwards) {
  game("knightthrough.game").visit([](const auto& program) {
    const auto state = position(program, "8/8/4N3/8/8/3n4/8/8 White 10");
    const auto won = after(program, state, "e6-f8");
    EXPECT_EQ(program.end_reason(won), "White wins by (reach Knight far-row)");
    Move win;
    ASSERT_TRUE(program.winning_move(state, win));
    EXPECT_EQ(program.move_text(win).substr(0, 3), "e6-");
    EXPECT_EQ(move_texts(program, after(program, state, "e6-c7")),
              (std::vector<std::string>{"d3-b2", "d3-c1", "d3-e1", "d3-f2"}));
  });
}

// ---- Clobber ------------------------------------------------------------------------------------

TEST(Clobber, StartsFullAndChequeredWithEveryMoveACapture) {
  game("clobber.game").visit([](const auto& program) {
    const auto start = program.initial_state();
    EXPECT_EQ(program.position_text(start), "oOoOoO/OoOoOo/oOoOoO/OoOoOo/oOoOoO White 0");
    const std::vector<std::string> moves = move_texts(program, start);
    EXPECT_EQ(moves.size(), 49u);  // one per pair of orthogonal neighbours: 5*5 + 6*4
    for (const std::string& move : moves) EXPECT_NE(move.find('x'), std::string::npos) << move;
  });
}

TEST(Clobber, OnlyOrthogonalMovesOntoAnEnemy) {
  game("clobber.game").visit([](const auto& program) {
    const auto state = position(program, "6/6/2o3/2Oo2/1o1O2 White 7");
    EXPECT_EQ(move_texts(program, state), (std::vector<std::string>{"c2xc3", "c2xd2", "d1xd2"}));
  });
}

TEST(Clobber, TheLastPlayerToMoveWins) {
  game("clobber.game").visit([](const auto& program) {
    const auto state = after(program, position(program, "6/6/6/Oo4/6 White 9"), "a2xb2");
    EXPECT_TRUE(state.over);
    EXPECT_EQ(program.result(state, 0), 1);
    EXPECT_EQ(program.end_reason(state), "Black loses by no-legal-moves");
    // Stones that touch no enemy cannot move: the player to move has lost already.
    const auto stuck = position(program, "6/6/6/O1o3/6 White 9");
    EXPECT_TRUE(stuck.over);
    EXPECT_EQ(program.result(stuck, 1), 1);
  });
}

// ---- Tic-tac-toe --------------------------------------------------------------------------------

// Published figures: https://en.wikipedia.org/wiki/Tic-tac-toe#Combinatorics: 255,168 possible
// games, 131,184 won by X, 77,904 by O and 46,080 drawn; games end after 5, 6, 7, 8 and 9 moves in
// 1,440, 5,328, 47,952, 72,576 and 127,872 ways. Perft at depth n counts the games still going after
// n - 1 moves times their moves, so perft(9) = 127,872 and each depth follows from the one before:
// perft(n + 1) = (perft(n) - games ended at move n) * (9 - n).
TEST(TicTacToe, PerftAndEveryGameMatchThePublishedCounts) {
  game("tic-tac-toe.game").visit([](const auto& program) {
    const auto start = program.initial_state();
    const std::vector<std::uint64_t> published = {9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872};
    for (int depth = 1; depth <= 9; ++depth) EXPECT_EQ(perft(program, start, depth), published[depth - 1]);
    std::array<std::uint64_t, 3> by_winner{};  // X, O, draw
    std::array<std::uint64_t, 10> by_length{};
    const auto walk = [&](const auto& self, const auto& state) -> void {
      if (state.over) {
        ++by_winner[state.winner == kDraw ? 2 : static_cast<std::size_t>(state.winner)];
        ++by_length[state.ply];
        return;
      }
      MoveList moves;
      program.legal_moves(state, moves);
      for (const Move& move : moves) {
        auto next = state;
        program.apply(next, move);
        self(self, next);
      }
    };
    walk(walk, start);
    EXPECT_EQ(by_winner, (std::array<std::uint64_t, 3>{131184, 77904, 46080}));
    EXPECT_EQ(by_length, (std::array<std::uint64_t, 10>{0, 0, 0, 0, 0, 1440, 5328, 47952, 72576, 127872}));
  });
  const Game loaded = game("tic-tac-toe.game");
  EXPECT_EQ(reference::perft(loaded.rules(), reference::start(loaded.rules()), 7 - 2 * kDepthCut),
            kDepthCut ? 15120u : 148176u);
}

TEST(TicTacToe, ThreeInARowWinsInEveryDirection) {
  game("tic-tac-toe.game").visit([](const auto& program) {
    // X has two of a line and plays the third; O's two marks are elsewhere.
    for (const auto& [board, move] : {std::pair{"x2/x2/XX1 X 4", "c1"}, std::pair{"3/1Xx/xX1 X 4", "b3"},
                                      std::pair{"x2/xX1/X2 X 4", "c3"}, std::pair{"2x/xX1/2X X 4", "a3"}}) {
      const auto state = after(program, position(program, board), move);
      EXPECT_TRUE(state.over) << board;
      EXPECT_EQ(program.result(state, 0), 1) << board;
      EXPECT_EQ(program.end_reason(state), "X wins by (in-a-row 3)") << board;
    }
  });
}

TEST(TicTacToe, AFullGridWithoutALineIsADraw) {
  game("tic-tac-toe.game").visit([](const auto& program) {
    const auto state = after(program, position(program, "XxX/Xxx/xX1 X 8"), "c1");
    EXPECT_TRUE(state.over);
    EXPECT_EQ(state.winner, kDraw);
    EXPECT_EQ(program.end_reason(state), "draw by no-legal-moves");
  });
}

TEST(TicTacToe, MovesAreCellsAndOccupiedCellsAreRefused) {
  game("tic-tac-toe.game").visit([](const auto& program) {
    const auto state = position(program, "3/1X1/3 O 1");
    EXPECT_EQ(move_texts(program, state), (std::vector<std::string>{"a1", "a2", "a3", "b1", "b3", "c1", "c2", "c3"}));
    EXPECT_EQ(program.parse_move(state, "b2").error, "b2 is not a legal move for O; b2 is not empty");
    EXPECT_EQ(program.parse_move(state, "d2").error, "'d2' is not a cell of this 3x3 board");
    EXPECT_EQ(program.parse_move(state, "b1-b2").error, "O has no piece on b1");
    EXPECT_EQ(program.parse_move(state, "-").error,
              "'-' is not a move; write it as the cell to place a piece on, e.g. a1");
    const ParsedMove placed = program.parse_move(state, " c3 ");
    ASSERT_TRUE(placed.ok());
    EXPECT_EQ(placed.move, (Move{8, 8, 0, false}));  // a drop: from == to
    EXPECT_EQ(program.move_text(placed.move), "c3");
  });
}

// ---- Connect Four -------------------------------------------------------------------------------

// Perft: no line of four before move 7, and a column is full at the earliest after 6 moves in it,
// so perft(n) = 7^n up to 6 and perft(7) = 7^7 - 7. Published: the number of distinct positions
// after n plies, https://oeis.org/A212693 (John Tromp): 1, 7, 49, 238, 1120, 4263, 16422, 54859,
// 184275, ... counted here ply by ply, continuing only from games not over.
TEST(ConnectFour, PerftAndDistinctPositionsMatchThePublishedCounts) {
  const Game loaded = game("connect-four.game");
  loaded.visit([](const auto& program) {
    const auto start = program.initial_state();
    const std::vector<std::uint64_t> nodes = {7, 49, 343, 2401, 16807, 117649, 823536, 5673234};
    for (int depth = 1; depth <= static_cast<int>(nodes.size()) - kDepthCut; ++depth)
      EXPECT_EQ(perft(program, start, depth), nodes[static_cast<std::size_t>(depth - 1)]) << depth;
    const std::vector<std::uint64_t> distinct = {1, 7, 49, 238, 1120, 4263, 16422, 54859, 184275};
    std::vector<typename std::decay_t<decltype(program)>::StateType> level{start};
    MoveList moves;
    for (std::size_t ply = 0;; ++ply) {
      EXPECT_EQ(level.size(), distinct[ply]) << "ply " << ply;
      if (ply + 1 + 2 * kDepthCut == distinct.size()) break;
      std::unordered_set<std::uint64_t> seen;  // by Zobrist hash: a collision among 4 million is unlikely
      std::vector<typename std::decay_t<decltype(program)>::StateType> next;
      for (const auto& state : level) {
        program.legal_moves(state, moves);
        for (const Move& move : moves) {
          auto child = state;
          program.apply(child, move);
          if (seen.insert(child.hash).second) next.push_back(child);
        }
      }
      level = std::move(next);
    }
  });
  EXPECT_EQ(reference::perft(loaded.rules(), reference::start(loaded.rules()), 5), 16807u);
}

TEST(ConnectFour, DiscsFallToTheLowestEmptyCell) {
  game("connect-four.game").visit([](const auto& program) {
    const auto start = program.initial_state();
    EXPECT_EQ(move_texts(program, start), (std::vector<std::string>{"a1", "b1", "c1", "d1", "e1", "f1", "g1"}));
    const auto state = after(program, start, "d1");
    EXPECT_EQ(move_texts(program, state), (std::vector<std::string>{"a1", "b1", "c1", "d2", "e1", "f1", "g1"}));
    EXPECT_EQ(program.parse_move(state, "d3").error,
              "d3 is not a legal move for Yellow; no piece can be placed on d3 now");
    // A full column takes no more discs.
    const auto full = position(program, "d6/D6/d6/D6/d6/D6 Red 6");
    EXPECT_EQ(move_texts(program, full), (std::vector<std::string>{"b1", "c1", "d1", "e1", "f1", "g1"}));
  });
}

TEST(ConnectFour, FourInALineWinsAcrossUpAndAlongBothDiagonals) {
  game("connect-four.game").visit([](const auto& program) {
    for (const auto& [board, move] :
         {std::pair{"7/7/7/7/ddd4/DDD4 Red 6", "d1"}, std::pair{"7/7/7/Dd5/Dd5/Dd5 Red 6", "a4"},
          std::pair{"7/7/7/2Dd3/1Ddd3/DddD2D Red 10", "d4"}, std::pair{"7/7/7/3dD2/3ddD1/D2DddD Red 10", "d4"}}) {
      const auto before = position(program, board);
      EXPECT_FALSE(before.over) << board;
      const auto state = after(program, before, move);
      EXPECT_EQ(program.end_reason(state), "Red wins by (in-a-row 4)") << board;
    }
  });
}

TEST(ConnectFour, AFullBoardWithoutALineIsADraw) {
  game("connect-four.game", {{"width", "4"}, {"height", "4"}}).visit([](const auto& program) {
    const auto state = after(program, position(program, "1dDD/DDdd/ddDD/DDdd Yellow 15"), "a4");
    EXPECT_TRUE(state.over);
    EXPECT_EQ(state.winner, kDraw);
  });
}

// ---- Gomoku -------------------------------------------------------------------------------------

const std::string kMiddleRows = "15/15/15/15/15/15/15/15/15/15/15/15/15/";

TEST(Gomoku, FiveInARowWinsAndSixWinsOnlyInFreestyle) {
  // White's stones on row 15 make no line; Black completes five (a1-e1) or six (a1-f1).
  const std::string five = "s1s1s1s1s6/" + kMiddleRows + "SSSS11 Black 8";
  const std::string six = "s1s1s1s1s6/" + kMiddleRows + "SSSS1S9 Black 10";
  game("gomoku.game").visit([&](const auto& program) {
    EXPECT_EQ(program.end_reason(after(program, position(program, five), "e1")),
              "Black wins by (in-a-row 5 (at-most longest))");
    EXPECT_EQ(program.result(after(program, position(program, six), "e1"), 0), 1);
  });
  game("gomoku.game", {{"longest", "5"}}).visit([&](const auto& program) {
    EXPECT_EQ(program.result(after(program, position(program, five), "e1"), 0), 1);
    const auto overline = after(program, position(program, six), "e1");
    EXPECT_FALSE(overline.over);
    EXPECT_EQ(program.count_moves(overline), 225 - 11);
  });
}

// After a stone only the lines through it are walked (the game only places stones): a five is
// found with the stone in its middle, at its end, on the board's edge and along a diagonal, and
// under "exactly five" a stone that joins two runs into six makes none.
TEST(Gomoku, ALineThroughThePlacedStoneIsFoundInItsMiddleAtItsEndAndAtTheEdge) {
  const std::vector<std::pair<std::string, std::string>> fives = {
      {"s1s1s1s/7/7/7/7/7/SS1SS2 Black 8", "c1"},                 // across, the stone in the middle
      {"s1s1s1s/1S5/2S4/7/4S2/5S1/7 Black 8", "d4"},              // down the diagonal, in the middle
      {"s1s1s2/6S/6S/6S/6S/7/s6 Black 8", "g7"},                  // up column g, at its end on the corner
      {"s1s1s1s/7/7/3S3/2S4/1S5/S6 Black 8", "e5"}};              // up the other diagonal, at its end
  const std::string six = "s1s1s1s/7/6s/7/7/7/SS1SSS1 Black 10";  // c1 joins a1-b1 and d1-f1
  for (const char* longest : {"7", "5"}) {
    game("gomoku.game", {{"size", "7"}, {"longest", longest}}).visit([&](const auto& program) {
      for (const auto& [board, move] : fives) {
        const auto before = position(program, board);
        ASSERT_FALSE(before.over) << board;
        EXPECT_EQ(program.result(after(program, before, move), 0), 1) << board << " longest " << longest;
      }
      const auto joined = after(program, position(program, six), "c1");
      EXPECT_EQ(joined.over, std::string(longest) == "7") << longest;
    });
  }
}

TEST(Gomoku, LinesAcrossTheWordsOfTheBitboard) {
  // 225 cells take four 64-bit words; this diagonal, k10 to o14, runs from word 2 into word 3.
  game("gomoku.game").visit([](const auto& program) {
    const auto state = after(
        program, position(program, "15/15/13S1/12S2/11S3/10S4/15/15/15/15/15/15/15/15/s1s1s1s1s6 Black 9"), "o14");
    EXPECT_TRUE(state.over);
  });
}

// Every move of these games places one piece on an empty cell, so their playouts run in the loop of
// placements, which keeps the empty cells as it goes: its moves, results and draws are those of
// random_move + apply, whether the drop reaches every empty cell (tic-tac-toe; Gomoku on two and
// four words, both variants), falls (Connect Four), comes two a turn (Connect6) or joins two sides
// (Hex). A game with other moves (Othello's flips, Breakthrough's steps) keeps its own loop.
TEST(Placements, PlayoutsPlayTheMovesOfTheRandomMoveLoop) {
  const std::vector<std::pair<std::string, std::vector<std::pair<std::string, std::string>>>> games = {
      {"tic-tac-toe.game", {}},         {"gomoku.game", {}},       {"gomoku.game", {{"longest", "5"}}},
      {"gomoku.game", {{"size", "9"}}}, {"connect-four.game", {}}, {"connect6.game", {{"size", "9"}}},
      {"hex.game", {{"size", "7"}}}};
  for (const auto& [file, params] : games) {
    SCOPED_TRACE(file + (params.empty() ? "" : " " + params[0].first + "=" + params[0].second));
    const Game loaded = game(file, params);
    loaded.visit([](const auto& program) {
      EXPECT_NE(program.describe().find("playouts: the loop of placements"), std::string::npos) << program.describe();
    });
    expect_playouts_match_random_move_loop(loaded, 30);
  }
  for (const Game& other : {game("othello.game"), breakthrough()})
    other.visit([](const auto& program) {
      EXPECT_EQ(program.describe().find("the loop of placements"), std::string::npos) << program.describe();
    });
}

// ---- Othello ------------------------------------------------------------------------------------

// Published perft: Aart Bik, "Perft for Reversi", http://www.aartbik.com/MISC/reversi.html (also
// https://aartbik.blogspot.com/2009/02/perft-for-reversi.html), confirmed there by Jonathan Kreuzer:
// 4, 12, 56, 244, 1396, 8200, 55092, 390216, 3005288, 24571284, ... How they count, and how we do:
// a pass is a move (it adds one to the count like any other move); no game ends in fewer than nine
// plies, so up to the depths tested here no terminal position occurs above the leaves. (Bik also
// counts a finished game as a leaf at every greater depth; we count it at none, as for every game:
// the two counts part from depth 10 on, see docs/games.md.)
TEST(Othello, PerftMatchesThePublishedCounts) {
  const Game loaded = game("othello.game");
  loaded.visit([](const auto& program) {
    const auto start = program.initial_state();
    const std::vector<std::uint64_t> published = {4, 12, 56, 244, 1396, 8200, 55092};
    for (int depth = 1; depth <= static_cast<int>(published.size()) - kDepthCut; ++depth)
      EXPECT_EQ(perft(program, start, depth), published[static_cast<std::size_t>(depth - 1)]) << depth;
  });
  EXPECT_EQ(reference::perft(loaded.rules(), reference::start(loaded.rules()), 5 - kDepthCut),
            kDepthCut ? 244u : 1396u);
}

TEST(Othello, StartsWithFourDiscsAndBlackFlanksToMove) {
  game("othello.game").visit([](const auto& program) {
    const auto start = program.initial_state();
    EXPECT_EQ(program.position_text(start), "8/8/8/3Dd3/3dD3/8/8/8 Black 0");
    EXPECT_EQ(move_texts(program, start), (std::vector<std::string>{"c4", "d3", "e6", "f5"}));
    EXPECT_EQ(program.position_text(after(program, start, "d3")), "8/8/8/3Dd3/3DD3/3D4/8/8 White 1");
  });
}

TEST(Othello, ADropFlipsEveryClosedLineInEveryDirection) {
  game("othello.game").visit([](const auto& program) {
    // d4 closes a line in each of the eight directions, two discs long towards the east.
    const auto state = after(program, position(program, "8/8/1D1D1D2/2ddd3/1Dd1ddD1/2ddd3/1D1D1D2/8 Black 10"), "d4");
    EXPECT_EQ(program.position_text(state), "8/8/1D1D1D2/2DDD3/1DDDDDD1/2DDD3/1D1D1D2/8 White 11");
  });
}

TEST(Othello, LinesLeftOpenDoNotFlip) {
  game("othello.game").visit([](const auto& program) {
    // From a1: north closes at a3; east ends on an empty cell; the diagonal runs off the board.
    const auto state = after(program, position(program, "7d/6d1/5d2/4d3/3d4/D1d5/dd6/1dd5 Black 10"), "a1");
    EXPECT_EQ(program.position_text(state), "7d/6d1/5d2/4d3/3d4/D1d5/Dd6/Ddd5 White 11");
  });
}

TEST(Othello, APlayerWithoutAMovePassesAndPerftCountsThePass) {
  game("othello.game").visit([](const auto& program) {
    // White's b1 is closed against the edge: White cannot flank, Black can (c1).
    const auto stuck = position(program, "8/8/8/8/8/8/8/Dd6 White 5");
    EXPECT_FALSE(stuck.over);
    EXPECT_EQ(move_texts(program, stuck), (std::vector<std::string>{"pass"}));
    EXPECT_EQ(program.parse_move(stuck, "c1").error,
              "c1 is not a legal move for White; White has no move on the board and must pass: write pass");
    const auto passed = after(program, stuck, "pass");
    EXPECT_EQ(program.position_text(passed), "8/8/8/8/8/8/8/Dd6 Black 6");
    EXPECT_NE(passed.hash, stuck.hash);
    EXPECT_EQ(move_texts(program, passed), (std::vector<std::string>{"c1"}));
    // The pass is one move at depth 1, c1 one at depth 2, and then the game is over.
    EXPECT_EQ(perft(program, stuck, 1), 1u);
    EXPECT_EQ(perft(program, stuck, 2), 1u);
    EXPECT_EQ(perft(program, stuck, 3), 0u);
    Rng rng(3);
    EXPECT_EQ(program.move_text(program.random_move(stuck, rng)), "pass");
    // A player with a move cannot pass.
    EXPECT_EQ(program.parse_move(passed, "pass").error,
              "Black cannot pass: a player passes only when it has no other move, and Black has one (e.g. c1)");
  });
  game("tic-tac-toe.game").visit([](const auto& program) {
    EXPECT_EQ(program.parse_move(program.initial_state(), "pass").error,
              "this game has no passing: a player always has a move or the game ends");
  });
}

TEST(Othello, TheGameEndsWhenNeitherPlayerCanMoveAndMorePiecesWin) {
  game("othello.game").visit([](const auto& program) {
    // c1 takes White's last disc: neither player can move, though the board is far from full.
    const auto state = after(program, position(program, "8/8/8/8/8/8/8/Dd6 Black 6"), "c1");
    EXPECT_TRUE(state.over);
    EXPECT_EQ(program.result(state, 0), 1);
    EXPECT_EQ(program.end_reason(state), "Black wins by more pieces, 3 to 0, at no-legal-moves");
    // White wins with more discs on a full board.
    const auto full =
        position(program, "dddddddd/dddddddd/dddddddd/dddddddd/dddddddd/DDDDDDDD/DDDDDDDD/DDDDDDDD Black 60");
    EXPECT_TRUE(full.over);
    EXPECT_EQ(program.end_reason(full), "White wins by more pieces, 40 to 24, at no-legal-moves");
  });
}

TEST(Othello, EqualCountsDraw) {
  game("othello.game").visit([](const auto& program) {
    // After c1 Black has a1, b1 and c1, White three discs that no line reaches: both are stuck.
    const auto before = position(program, "5d1d/8/7d/8/8/8/8/Dd6 Black 20");
    EXPECT_EQ(move_texts(program, before), (std::vector<std::string>{"c1"}));
    const auto state = after(program, before, "c1");
    EXPECT_TRUE(state.over);
    EXPECT_EQ(state.winner, kDraw);
    EXPECT_EQ(program.end_reason(state), "draw by equal pieces, 3 to 3, at no-legal-moves");
  });
}

TEST(Othello, ShowSaysItPassesFlipsAndPlaysOnTheFastPath) {
  game("othello.game").visit([](const auto& program) {
    const std::string shown = program.describe();
    EXPECT_NE(shown.find("flanking and flipping along (+0,+1) (+1,+1)"), std::string::npos) << shown;
    EXPECT_NE(shown.find("passing: a player with no move on the board passes (move text: pass) while its opponent "
                         "has one; no-legal-moves holds when neither can move\n"),
              std::string::npos)
        << shown;
    EXPECT_NE(shown.find("random moves: counted and drawn without a move list (the fast path)"), std::string::npos)
        << shown;
  });
}

TEST(Othello, PlayoutsEndWhereTheReferenceSaysTheGameIsOver) {
  const Game loaded = game("othello.game");
  const lang::Rules& rules = loaded.rules();
  loaded.visit([&](const auto& program) {
    Rng rng(11);
    for (int round = 0; round < 50; ++round) {
      auto state = program.initial_state();
      const std::uint32_t plies = program.playout(state, rng);
      ASSERT_TRUE(state.over);
      EXPECT_EQ(state.ply, plies);
      EXPECT_GE(plies, 9u);  // the shortest game
      reference::Board board(static_cast<std::size_t>(rules.cells()));
      for (int cell = 0; cell < rules.cells(); ++cell)
        for (int player = 0; player < kPlayers; ++player)
          if (state.by_player[player].test(cell)) board[static_cast<std::size_t>(cell)] = {player, 0};
      const reference::Decision verdict = reference::decision(rules, board, state.to_move, state.ply);
      EXPECT_TRUE(verdict.over) << program.position_text(state);
      EXPECT_EQ(verdict.winner, state.winner) << program.position_text(state);
    }
  });
}

// ---- Amazons ------------------------------------------------------------------------------------

// Published: perft(1) = 2176 and perft(2) = 4,307,152 from the start of 10x10 Amazons, in the
// benchmarks of the Regular Games project (https://github.com/radekmie/rg,
// interpreter_node/src/bench.test.ts, examples amazons-naive.hrg and amazons-smart.hrg). The start
// (White a4 d1 g1 j4, Black a7 d10 g10 j7) is Wikipedia's,
// https://en.wikipedia.org/wiki/Game_of_the_Amazons.
TEST(Amazons, PerftMatchesThePublishedCounts) {
  const Game loaded = game("amazons.game");
  loaded.visit([&](const auto& program) {
    const auto start = program.initial_state();
    EXPECT_EQ(program.position_text(start), "3q2q3/10/10/q8q/10/10/Q8Q/10/10/3Q2Q3 White 0");
    EXPECT_EQ(perft(program, start, 1), 2176u);
    EXPECT_EQ(perft(program, start, 2), 4307152u);
  });
  EXPECT_EQ(reference::perft(loaded.rules(), reference::start(loaded.rules()), 2 - kDepthCut),
            kDepthCut ? 2176u : 4307152u);
}

template <typename Program>
std::vector<std::string> landings(const Program& program, const typename Program::StateType& state) {
  MoveList moves;
  program.legal_moves(state, moves);
  std::vector<std::string> cells;
  for (const Move& move : moves) cells.push_back(lang::cell_name(move.to, program.rules().width));
  std::sort(cells.begin(), cells.end());
  cells.erase(std::unique(cells.begin(), cells.end()), cells.end());
  return cells;
}

TEST(Amazons, TheArrowMayFlyBackThroughAndOntoTheCellTheAmazonLeft) {
  game("amazons.game", {{"width", "6"}}).visit([](const auto& program) {
    // a1 is walled in but for a2; from a2 the only open line is back south, through the cell it left.
    const auto walled = position(program, "5q/6/6/**4/1*4/Q*4 White 20");
    EXPECT_EQ(move_texts(program, walled), std::vector<std::string>{"a1-a2/a1"});
    // From a2 to a3 the arrow may land on a2, or fly through it to a1.
    const auto open = position(program, "5q/6/6/6/Q5/6 White 20");
    const std::vector<std::string> moves = move_texts(program, open);
    for (const std::string move : {"a2-a3/a2", "a2-a3/a1", "a2-a1/a2", "a2-a1/a6"})
      EXPECT_NE(std::find(moves.begin(), moves.end(), move), moves.end()) << move;
    EXPECT_EQ(std::find(moves.begin(), moves.end(), "a2-a6/a6"), moves.end());  // Black's queen stands there
  });
}

TEST(Amazons, ArrowsBlockSlidesOfAmazonsAndArrows) {
  game("amazons.game", {{"width", "6"}}).visit([](const auto& program) {
    // Arrows on c4, e4, a2 and b1 around the amazon on c2; d1 holds Black's queen.
    const auto state = position(program, "6/6/2*1*1/6/*1Q3/1*1q2 White 30");
    EXPECT_EQ(landings(program, state),
              (std::vector<std::string>{"a4", "b2", "b3", "c1", "c3", "d2", "d3", "e2", "f2"}));
    // From c3 no arrow passes c4, and none lands on it.
    for (const std::string& move : move_texts(program, state))
      if (move.starts_with("c2-c3/")) {
        EXPECT_TRUE(move.substr(6) != "c4" && move.substr(6) != "c5") << move;
      }
  });
}

TEST(Amazons, APlayerWithoutAMoveLoses) {
  game("amazons.game", {{"width", "6"}}).visit([](const auto& program) {
    const auto stuck = position(program, "5q/6/6/**4/Q*4/**4 White 22");
    EXPECT_TRUE(stuck.over);
    EXPECT_EQ(program.result(stuck, 1), 1);
    EXPECT_EQ(program.end_reason(stuck), "White loses by no-legal-moves");
    // Played into: White's last move walls its own amazon in, and after any reply it is stuck.
    const auto walled = after(program, position(program, "5q/6/6/**4/1*4/Q*4 White 20"), "a1-a2/a1");
    EXPECT_EQ(program.position_text(walled), "5q/6/6/**4/Q*4/**4 Black 21");
    EXPECT_FALSE(walled.over);
    const auto end = after(program, walled, "f6-f5/f6");
    EXPECT_TRUE(end.over);
    EXPECT_EQ(program.result(end, 1), 1);
  });
}

TEST(Amazons, MoveTextNamesTheShotAfterASlash) {
  game("amazons.game").visit([](const auto& program) {
    const auto start = program.initial_state();
    const ParsedMove move = program.parse_move(start, "d1-d7/g7");
    ASSERT_TRUE(move.ok()) << move.error;
    EXPECT_EQ(program.move_text(move.move), "d1-d7/g7");
    EXPECT_EQ(program.parse_move(start, "d1-d7").error,
              "d1-d7 goes on with a shot from d7: write where it shoots after a '/', e.g. d1-d7/d1");
    EXPECT_EQ(program.parse_move(start, "d1-d7/z9").error, "'z9' is not a cell of this 10x10 board");
    EXPECT_EQ(program.parse_move(start, "d1-d2/d3/d4").error, "'d3/d4' is not a cell of this 10x10 board");
    // The cells it can shoot to, by rows from a1: back to d1 where it came from, and along the diagonal to j1.
    EXPECT_EQ(program.parse_move(start, "d1-d7/a4").error.substr(0, 70),
              "after d1-d7 the piece cannot shoot to a4; it can shoot to d1 j1 d2 i2 ");
    // A wrong landing lists where the piece can go, each once, without the shots.
    EXPECT_EQ(program.parse_move(start, "a4-j4/a5").error,
              "a4-j4 is not a legal move for White; the piece there can play a4-a5 a4-a6 a4-b5 a4-c6 a4-d7 a4-e8 "
              "a4-f9 a4-b4 a4-c4 a4-d4 a4-e4 a4-f4 a4-g4 a4-h4 a4-i4 a4-b3 a4-c2 a4-a3 a4-a2 a4-a1");
  });
  troyka_tests::breakthrough().visit([](const auto& program) {
    EXPECT_EQ(program.parse_move(program.initial_state(), "a2-a3/a4").error,
              "moves shoot nothing in this game; write a2-a3 without '/a4'");
    EXPECT_EQ(program.parse_position("8/8/8/8/8/8/8/*7 White 0").error,
              "'*' is a blocked cell, and no move blocks cells in this game");
  });
  game("tic-tac-toe.game").visit([](const auto& program) {
    EXPECT_EQ(program.parse_move(program.initial_state(), "b2/c3").error,
              "'b2/c3': a placed piece shoots nothing; write the drop without '/c3'");
  });
}

// A rook of tests/data/games/shooters.game slides and then shoots, or steps forward without a shot:
// between the same cells, the text without a '/' names the step.
TEST(Shooters, AMoveWithoutAShotIsReadApartFromOneWithAShotBetweenTheSameCells) {
  Game::load(std::string(TROYKA_SOURCE_DIR) + "/tests/data/games/shooters.game").visit([](const auto& program) {
    const auto start = position(program, "rn2*r/a*a1aa/*Aa*an/2*A*1/1AA1AA/RN2NR White 6");
    const ParsedMove step = program.parse_move(start, "a1-a2");
    ASSERT_TRUE(step.ok()) << step.error;
    EXPECT_FALSE(step.move.has_shot());
    EXPECT_EQ(program.move_text(step.move), "a1-a2");
    const ParsedMove slide = program.parse_move(start, "a1-a2/b3");
    ASSERT_TRUE(slide.ok()) << slide.error;
    EXPECT_EQ(program.move_text(slide.move), "a1-a2/b3");
    EXPECT_NE(step.move, slide.move);
  });
}

TEST(Amazons, ArrowsShowInTheDiagramAndCountInTheHash) {
  game("amazons.game", {{"width", "6"}}).visit([](const auto& program) {
    const auto state = after(program, program.initial_state(), "c1-c2/c1");
    EXPECT_EQ(program.position_text(state), "2qq2/6/q4q/Q4Q/2Q3/2*Q2 Black 1");
    EXPECT_NE(program.diagram(state).find("  1  . . * Q . ."), std::string::npos) << program.diagram(state);
    // The hash kept move by move is the one computed from scratch; without the arrow it differs.
    EXPECT_EQ(state.hash, position(program, program.position_text(state)).hash);
    EXPECT_NE(state.hash, position(program, "2qq2/6/q4q/Q4Q/2Q3/3Q2 Black 1").hash);
  });
}

// A playout's counts keep the lines of the ply before and flip the cells that changed (and the
// next player's shots share them): its draws are those of random_move + apply, which count each
// position afresh, for two and three players, on an uneven board, and after slides that capture,
// steps and leaps (reach-shooters).
TEST(Amazons, PlayoutsPlayTheMovesOfTheRandomMoveLoop) {
  expect_playouts_match_random_move_loop(game("amazons.game", {{"width", "6"}}), 10);
  expect_playouts_match_random_move_loop(game("amazons.game", {{"width", "7"}, {"height", "5"}}), 10);
  expect_playouts_match_random_move_loop(game("amazons-3-players.game"), 4);
  expect_playouts_match_random_move_loop(
      Game::load(std::string(TROYKA_SOURCE_DIR) + "/tests/data/games/reach-shooters.game"), 10);
}

// Where every move shoots on lines, a random move is drawn by rejection (Program::draw_counted: a
// landing and one of the most shots a landing can have, drawn again when that landing has fewer,
// every move counted after a few tries). It is uniform among the listed moves
// (expect_random_moves_uniform) in hand-made positions of a lone amazon, where one landing has one
// shot and another eleven, and in the positions of random games once they have 150 moves or fewer,
// where late in the game most tries fail and the count decides: two and three players, and
// reach-shooters' steps, leaps and slides that capture.
TEST(Amazons, TheDrawByRejectionIsUniformAmongTheMoves) {
  game("amazons.game", {{"width", "5"}}).visit([](const auto& program) {
    EXPECT_NE(program.describe().find("drawn by rejection"), std::string::npos) << program.describe();
    for (const char* text : {"Q4/**3/5/5/4q White 1", "5/1*3/1Q1*1/3*q/*4 White 1"})
      troyka_tests::expect_random_moves_uniform(program, position(program, text), text);
  });
  const auto expect_uniform_late = [](const Game& loaded, int least_positions) {
    loaded.visit([&](const auto& program) {
      Rng rng(5);
      int positions = 0;
      for (auto state = program.initial_state(); !state.over; program.apply(state, program.random_move(state, rng)))
        if (program.count_moves(state) <= 150) {
          troyka_tests::expect_random_moves_uniform(program, state, program.position_text(state));
          ++positions;
        }
      EXPECT_GE(positions, least_positions);
    });
  };
  expect_uniform_late(game("amazons.game", {{"width", "6"}}), 5);
  expect_uniform_late(game("amazons-3-players.game"), 5);
  expect_uniform_late(Game::load(std::string(TROYKA_SOURCE_DIR) + "/tests/data/games/reach-shooters.game"), 5);
}

// The small board keeps the test short (and quick under sanitizers); random is walled in fast.
TEST(Amazons, MctsBeatsRandomInAMatch) {
  troyka_tests::expect_first_agent_scores(
      "match games/amazons.game --variant 6x6 --games 4 --agents mcts:iterations=300 random --json", 3.0);
}

TEST(Amazons, ShowSaysMovesShootAndAreCountedWithoutAMoveList) {
  game("amazons.game").visit([](const auto& program) {
    const std::string shown = program.describe();
    EXPECT_NE(shown.find("(slide all-directions (then (shoot (slide all-directions))))"), std::string::npos) << shown;
    EXPECT_NE(shown.find("shots: a move with (then (shoot ...)) blocks the cell it shoots to (shown *) to the end"),
              std::string::npos)
        << shown;
    EXPECT_NE(
        shown.find(
            "random moves: counted per slide direction (per distance where a shot needs it) and per shot, and drawn "
            "without a move list"),
        std::string::npos)
        << shown;
  });
}

// A random move is drawn by counting each queen move's arrows, not by listing every (move, arrow)
// pair: the count must be the listing's size and each index the listed move of that index (so
// each legal move is drawn once, uniformly), in positions of random games of three sizes.
// Index i of the moves counted without a list (count_moves, nth_move) is the listing's i-th move in
// positions of random games: Amazons on three sizes, and tests/data/games/reach-shooters.game, whose
// shots are counted on lines after a slide that captures, a step, a knight's leap and a leap of two
// cells (whose backward ray passes the cell leapt over before the cell left).
TEST(Amazons, MovesCountedWithoutAListAreTheListedMovesInOrder) {
  const auto expect_counted_as_listed = [](const Game& loaded, int least_positions) {
    loaded.visit([&](const auto& program) {
      Rng rng(7);
      MoveList moves;
      int positions = 0;
      for (int playout = 0; playout < 4; ++playout) {
        for (auto state = program.initial_state(); !state.over; ++positions) {
          program.legal_moves(state, moves);
          ASSERT_EQ(program.count_moves(state), static_cast<int>(moves.size())) << program.position_text(state);
          for (std::size_t i = 0; i < moves.size(); ++i)
            ASSERT_EQ(program.nth_move(state, static_cast<int>(i)), moves[i])
                << program.position_text(state) << " " << i;
          program.apply(state, program.random_move(state, rng));
        }
      }
      EXPECT_GT(positions, least_positions);
    });
  };
  for (const char* width : {"10", "6", "4"})
    expect_counted_as_listed(game("amazons.game", {{"width", width}}), 20);  // 4x4 games are about 8 plies
  const Game shooters = Game::load(std::string(TROYKA_SOURCE_DIR) + "/tests/data/games/reach-shooters.game");
  shooters.visit(
      [](const auto& program) { EXPECT_NE(program.describe().find("random moves: counted"), std::string::npos); });
  expect_counted_as_listed(shooters, 60);
}

// ---- Hex ----------------------------------------------------------------------------------------

// 5x5 positions: Red (upper case) joins rows 1 and 5, Blue (lower case) columns a and e. A cell's
// six neighbours are (+-1, 0), (0, +-1), (1, -1) and (-1, 1): c2 touches b3 and d1, not d3 or b1.

TEST(Hex, AWindingChainJoinsRedsRows) {
  game("hex.game", {{"size", "5"}}).visit([](const auto& program) {
    // c1 c2 d2 e2 e3 d4, then c5: the chain goes right along row 2, up, and back left.
    const auto before = position(program, "s4/1s1S1/s3S/2SSS/2S2 Red 10");
    EXPECT_FALSE(before.over);
    const auto state = after(program, before, "c5");
    EXPECT_TRUE(state.over);
    EXPECT_EQ(program.result(state, 0), 1);
    EXPECT_EQ(program.end_reason(state), "Red wins by (connect home-row far-row)");
  });
}

TEST(Hex, AWindingChainJoinsBluesColumns) {
  game("hex.game", {{"size", "5"}}).visit([](const auto& program) {
    // Red's chain above, mirrored: a3 b3 b4 b5 c5 d4, then e3.
    const auto before = position(program, "1ss2/1s1s1/ss3/5/S1S1S Blue 9");
    EXPECT_FALSE(before.over);
    const auto state = after(program, before, "e3");
    EXPECT_TRUE(state.over);
    EXPECT_EQ(program.result(state, 1), 1);
    EXPECT_EQ(program.end_reason(state), "Blue wins by (connect home-row far-row)");
  });
}

TEST(Hex, ChainsThatMeetOnlyAtTheGridsOtherDiagonalDoNotConnect) {
  game("hex.game", {{"size", "5"}}).visit([](const auto& program) {
    // c1 c2 and d3 d4 d5: c2 and d3 are diagonal neighbours on a square grid, not on the rhombus.
    const auto split = after(program, position(program, "3S1/3S1/5/ssS2/s1S2 Red 8"), "d3");
    EXPECT_FALSE(split.over);
    // c3 touches both c2 and d3.
    const auto joined = after(program, after(program, split, "e1"), "c3");
    EXPECT_TRUE(joined.over);
    EXPECT_EQ(program.result(joined, 0), 1);
  });
}

TEST(Hex, AChainAcrossTheOtherPlayersEdgesWinsNothing) {
  game("hex.game", {{"size", "5"}}).visit([](const auto& program) {
    // Red's row 3, a3 to e3, touches Blue's edges, not its own.
    const auto state = after(program, position(program, "5/ss3/SSSS1/s4/s4 Red 8"), "e3");
    EXPECT_FALSE(state.over);
  });
}

TEST(Hex, TheSwapMirrorsTheFirstStoneForTheSecondPlayer) {
  game("hex.game", {{"size", "5"}, {"swap", "1"}}).visit([](const auto& program) {
    const auto opened = after(program, program.initial_state(), "a3");
    const std::vector<std::string> moves = move_texts(program, opened);
    EXPECT_EQ(moves.size(), 25u);  // the 24 empty cells and the swap
    EXPECT_EQ(moves.back(), "swap");
    const auto swapped = after(program, opened, "swap");
    EXPECT_EQ(program.position_text(swapped), "5/5/5/5/2s2 Red 2");
    EXPECT_EQ(swapped.hash, position(program, "5/5/5/5/2s2 Red 2").hash);
    EXPECT_FALSE(swapped.over);
    EXPECT_EQ(program.count_moves(swapped), 24);
    EXPECT_EQ(program.parse_move(swapped, "swap").error,
              "Red cannot swap: the swap is only the second player's first move, at ply 1 (this is ply 2)");
    EXPECT_EQ(program.parse_move(after(program, opened, "b2"), "swap").error,
              "Red cannot swap: the swap is only the second player's first move, at ply 1 (this is ply 2)");
    // A random move draws the swap among the others.
    Rng rng(5);
    int swaps = 0;
    for (int i = 0; i < 500; ++i) swaps += program.is_swap(program.random_move(opened, rng));
    EXPECT_GT(swaps, 0);
    EXPECT_LT(swaps, 60);
  });
  game("hex.game", {{"size", "5"}}).visit([](const auto& program) {
    const auto opened = after(program, program.initial_state(), "a3");
    EXPECT_EQ(move_texts(program, opened).size(), 24u);
    EXPECT_EQ(program.parse_move(opened, "swap").error, "this game has no swap: it has no (swap-rule)");
  });
}

TEST(Hex, TheDiagramLeansLikeTheRhombus) {
  game("hex.game", {{"size", "3"}}).visit([](const auto& program) {
    EXPECT_EQ(program.diagram(position(program, "2S/1s1/S2 Blue 3")),
              "  3    . . S\n"
              "  2   . s .\n"
              "  1  S . .\n"
              "     a b c\n");
  });
}

TEST(Hex, ShowSaysTheBoardIsARhombusWithASwapOnTheFastPath) {
  game("hex.game", {{"swap", "1"}}).visit([](const auto& program) {
    const std::string shown = program.describe();
    EXPECT_NE(shown.find("board: 11x11 rhombus (six neighbours a cell), 121 cells"), std::string::npos) << shown;
    EXPECT_NE(shown.find("swap rule: the second player's first move may be the swap (move text: swap)"),
              std::string::npos)
        << shown;
    EXPECT_NE(shown.find("random moves: counted and drawn without a move list (the fast path)"), std::string::npos)
        << shown;
  });
}

// Every playout ends with exactly one chain: the reference finds the winner's and no other.
TEST(Hex, PlayoutsEndWithTheReferencesWinner) {
  const Game loaded = game("hex.game", {{"size", "7"}});
  const lang::Rules& rules = loaded.rules();
  loaded.visit([&](const auto& program) {
    Rng rng(13);
    for (int round = 0; round < 50; ++round) {
      auto state = program.initial_state();
      program.playout(state, rng);
      ASSERT_TRUE(state.over);
      ASSERT_NE(state.winner, kDraw);
      reference::Board board(static_cast<std::size_t>(rules.cells()));
      for (int cell = 0; cell < rules.cells(); ++cell)
        for (int player = 0; player < kPlayers; ++player)
          if (state.by_player[player].test(cell)) board[static_cast<std::size_t>(cell)] = {player, 0};
      const lang::EndRule& rule = rules.end.front();
      EXPECT_TRUE(reference::connects(rules, rule, board, state.winner)) << program.position_text(state);
      EXPECT_FALSE(reference::connects(rules, rule, board, 1 - state.winner)) << program.position_text(state);
    }
  });
}

// troyka translate writes the rhombus, the connection and the swap back in the language.
TEST(Hex, TranslationReadsBackAsTheSameGame) {
  const Game original = game("hex.game", {{"size", "3"}, {"swap", "1"}});
  const std::string text = lang::to_troyka_language(original.rules());
  const Game translated(lang::load_rules(std::make_shared<lang::SourceFile>(lang::SourceFile{"hex.game", text}), {}));
  EXPECT_TRUE(translated.rules().swap_rule) << text;
  EXPECT_EQ(translated.rules().shape, lang::BoardShape::Rhombus) << text;
  translated.visit([](const auto& program) { EXPECT_EQ(perft(program, program.initial_state(), 4), 3528u); });
}

// ---- English draughts ---------------------------------------------------------------------------

// Black (upper case, facing south) moves first; White is lower case. Position texts end with the
// ply and the count of quiet plies (the draw rule's).
const std::string kDraughtsStart = "1M1M1M1M/M1M1M1M1/1M1M1M1M/8/8/m1m1m1m1/1m1m1m1m/m1m1m1m1 Black 0 0";

// Published perft: Aart Bik, "perft for 8x8 checkers", TalkChess, 8 May 2009
// (http://www.talkchess.com/forum3/viewtopic.php?t=27814): 7, 49, 302, 1469, 7361, 36768, 179740,
// 845931, 3963680, ... How he counts a chain: a move per sequence of captured pieces; two chains
// from one square to another that capture the same pieces are one move here, a distinction that
// needs kings going round a loop, which do not appear before depth 9 or so (our count agrees with
// his to depth 10, see docs/games.md).
TEST(Draughts, PerftMatchesThePublishedCounts) {
  const Game loaded = game("english-draughts.game");
  loaded.visit([](const auto& program) {
    const auto start = program.initial_state();
    EXPECT_EQ(program.position_text(start), kDraughtsStart);
    const std::vector<std::uint64_t> published = {7, 49, 302, 1469, 7361, 36768, 179740, 845931};
    for (int depth = 1; depth <= static_cast<int>(published.size()) - 2 * kDepthCut; ++depth)
      EXPECT_EQ(perft(program, start, depth), published[static_cast<std::size_t>(depth - 1)]) << depth;
  });
  EXPECT_EQ(reference::perft(loaded.rules(), reference::start(loaded.rules()), 6 - 2 * kDepthCut),
            kDepthCut ? 1469u : 36768u);
}

TEST(Draughts, BlackOpensWithSevenStepsForward) {
  game("english-draughts.game").visit([](const auto& program) {
    EXPECT_EQ(move_texts(program, program.initial_state()),
              (std::vector<std::string>{"b6-a5", "b6-c5", "d6-c5", "d6-e5", "f6-e5", "f6-g5", "h6-g5"}));
  });
}

TEST(Draughts, AChainOfThreeJumpsIsOneMove) {
  game("english-draughts.game").visit([](const auto& program) {
    const auto state = position(program, "7M/8/3M4/8/3M4/8/3M4/2m5 White 10 4");
    EXPECT_EQ(move_texts(program, state), (std::vector<std::string>{"c1xe3xc5xe7"}));
    const auto jumped = after(program, state, "c1xe3xc5xe7");
    EXPECT_EQ(program.position_text(jumped), "7M/4m3/8/8/8/8/8/8 Black 11 0");
    // The first and last cells name the chain when only one chain joins them.
    EXPECT_EQ(program.position_text(after(program, state, "c1xe7")), "7M/4m3/8/8/8/8/8/8 Black 11 0");
  });
}

TEST(Draughts, AChainStopsWhereTheManIsCrowned) {
  game("english-draughts.game").visit([](const auto& program) {
    // Crowned on d8, the new king could jump e7 at once; the move ends instead.
    const auto state = position(program, "8/2M1M3/1m6/8/8/8/8/8 White 20 5");
    EXPECT_EQ(move_texts(program, state), (std::vector<std::string>{"b6xd8"}));
    const auto crowned = after(program, state, "b6xd8");
    EXPECT_EQ(program.position_text(crowned), "3k4/4M3/8/8/8/8/8/8 Black 21 0");
    // A step onto the far row crowns too.
    const auto stepped = after(program, position(program, "8/6m1/8/M7/8/8/8/8 White 30 2"), "g7-h8");
    EXPECT_EQ(program.position_text(stepped), "7k/8/8/M7/8/8/8/8 Black 31 0");
  });
}

TEST(Draughts, CapturingIsCompulsoryWhenAQuietMoveExists) {
  game("english-draughts.game").visit([](const auto& program) {
    const auto state = position(program, "8/8/8/8/3M4/2m3m1/8/8 White 10 0");
    EXPECT_EQ(move_texts(program, state), (std::vector<std::string>{"c3xe5"}));
    EXPECT_EQ(program.parse_move(state, "g3-f4").error,
              "g3-f4 is not a legal move for White; capturing is compulsory: White must play c3xe5");
  });
}

TEST(Draughts, AKingCapturesBackwardsAndAManCannot) {
  game("english-draughts.game").visit([](const auto& program) {
    EXPECT_EQ(move_texts(program, position(program, "7M/8/8/8/3k4/2M5/8/8 White 10 0")),
              (std::vector<std::string>{"d4xb2"}));
    EXPECT_EQ(move_texts(program, position(program, "7M/8/8/8/3m4/2M5/8/8 White 10 0")),
              (std::vector<std::string>{"d4-c5", "d4-e5"}));
  });
}

TEST(Draughts, TwoChainsFromOnePieceToOneCell) {
  game("english-draughts.game").visit([](const auto& program) {
    const auto state = position(program, "7M/8/8/8/1M1M4/8/1M1M4/2m5 White 10 0");
    EXPECT_EQ(move_texts(program, state), (std::vector<std::string>{"c1xa3xc5", "c1xe3xc5"}));
    EXPECT_EQ(program.parse_move(state, "c1xc5").error,
              "c1xc5 names more than one move: write the cells it jumps to, c1xa3xc5 or c1xe3xc5");
    EXPECT_EQ(program.position_text(after(program, state, "c1xa3xc5")), "7M/8/8/2m5/3M4/8/3M4/8 Black 11 0");
    EXPECT_EQ(program.position_text(after(program, state, "c1xe3xc5")), "7M/8/8/2m5/1M6/8/1M6/8 Black 11 0");
    EXPECT_EQ(program.parse_move(state, "c1xe3xd5").error, "e3 to d5 is not a jump over one cell");
  });
}

TEST(Draughts, EightyQuietPliesDraw) {
  game("english-draughts.game").visit([](const auto& program) {
    // Kings only: the 80th ply without a capture or a man's move draws.
    const auto drawn = after(program, position(program, "7K/8/8/8/8/8/8/k7 White 40 79"), "a1-b2");
    EXPECT_TRUE(drawn.over);
    EXPECT_EQ(drawn.winner, kDraw);
    EXPECT_EQ(program.end_reason(drawn), "draw by (quiet-moves 80 Man)");
    // A man's move starts the count again.
    const auto moved = after(program, position(program, "7K/8/8/8/8/8/8/m7 White 40 79"), "a1-b2");
    EXPECT_FALSE(moved.over);
    EXPECT_EQ(program.position_text(moved), "7K/8/8/8/8/8/1m6/8 Black 41 0");
  });
}

TEST(Draughts, APlayerWhoCannotMoveLoses) {
  game("english-draughts.game").visit([](const auto& program) {
    // White's man on a1 is blocked by b2, which it cannot jump: c3 is taken.
    const auto blocked = position(program, "8/8/8/8/8/2M5/1M6/m7 White 10 0");
    EXPECT_TRUE(blocked.over);
    EXPECT_EQ(program.result(blocked, 0), 1);
    EXPECT_EQ(program.end_reason(blocked), "White loses by no-legal-moves");
    // Taking the last piece leaves the opponent without a move.
    const auto taken = after(program, position(program, "8/8/8/8/8/8/1M6/m7 White 10 0"), "a1xc3");
    EXPECT_TRUE(taken.over);
    EXPECT_EQ(program.result(taken, 1), 1);
  });
}

TEST(Draughts, ShowSaysCapturesAreCompulsoryAndPlaysFromAMoveList) {
  game("english-draughts.game").visit([](const auto& program) {
    const std::string shown = program.describe();
    EXPECT_NE(shown.find("becomes a King on 8 cells for Black, 8 for White, and its move ends there"),
              std::string::npos)
        << shown;
    EXPECT_NE(shown.find("captures are compulsory"), std::string::npos) << shown;
    EXPECT_NE(shown.find("random moves: drawn from a move list (the slower path"), std::string::npos) << shown;
  });
}

TEST(Draughts, MctsBeatsRandomInAMatch) {
  troyka_tests::expect_first_agent_scores(
      "match games/english-draughts.game --games 4 --agents mcts:iterations=300 random --json", 3.0);
}

}  // namespace
}  // namespace troyka
