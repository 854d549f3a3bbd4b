// Step 7 of docs/core-design.md §6: the end conditions (lost PIECE), (and ...), (or ...), (not ...)
// and counter comparisons, per-player counters changed by (add ...) and (set ...), and the core
// action exit; checked on games/breakthrough-king.game and games/breakthrough-score.game against
// the slow reference of tests/reference.h, and on small games written here.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "interpreter/game.h"
#include "interpreter/perft.h"
#include "interpreter/random.h"
#include "tests/games.h"
#include "tests/reference.h"
#include "tests/run_troyka.h"

namespace troyka {
namespace {

using troyka_tests::after;
using troyka_tests::expect_random_games_agree_with_reference;
using troyka_tests::game;
using troyka_tests::game_from_text;
using troyka_tests::kSlowBuild;
using troyka_tests::move_texts;
using troyka_tests::Outcome;
using troyka_tests::position;
using troyka_tests::ReferenceView;
using troyka_tests::run_troyka;

// The positions `plies` random plies into games of `loaded` (one game a seed, from 1), those that
// are not over.
template <typename Program>
std::vector<typename Program::StateType> random_positions(const Program& program, int games, std::uint32_t plies) {
  std::vector<typename Program::StateType> found;
  for (int seed = 1; seed <= games; ++seed) {
    Rng rng(static_cast<std::uint64_t>(seed));
    auto state = program.initial_state();
    for (std::uint32_t ply = 0; ply < plies && !state.over; ++ply)
      program.apply(state, program.random_move(state, rng));
    if (!state.over) found.push_back(state);
  }
  return found;
}

// ---- Breakthrough with a king ----------------------------------------------------------------------

// Until a king can be taken or arrive, Breakthrough's figures.
const std::vector<std::uint64_t> kBreakthroughKingPerft = {22, 484, 11132, 256036, 6182818};

TEST(BreakthroughKing, PerftAgreesWithTheReference) {
  const Game loaded = game("breakthrough-king.game");
  loaded.visit([&](const auto& program) {
    const reference::Position start = reference::start(loaded.rules());
    for (std::size_t depth = 1; depth <= kBreakthroughKingPerft.size() - (kSlowBuild ? 1 : 0); ++depth) {
      const auto d = static_cast<int>(depth);
      EXPECT_EQ(perft(program, program.initial_state(), d), kBreakthroughKingPerft[depth - 1]) << d;
      if (d <= (kSlowBuild ? 2 : 3)) {
        EXPECT_EQ(reference::perft(loaded.rules(), start, d), kBreakthroughKingPerft[depth - 1]);
      }
    }
  });
}

// Midgame positions, where kings are taken and arrive within the count.
TEST(BreakthroughKing, PerftOfMidgamePositionsAgreesWithTheReference) {
  const Game loaded = game("breakthrough-king.game");
  loaded.visit([&](const auto& program) {
    for (const auto& state : random_positions(program, kSlowBuild ? 3 : 12, 24)) {
      const reference::Position expected = reference::start(loaded.rules());
      reference::Position at = expected;
      const auto parsed = program.parse_position(program.position_text(state));
      ASSERT_TRUE(parsed.ok());
      // The reference's position from the text: the same board, player and ply.
      at.board.assign(at.board.size(), {});
      for (int cell = 0; cell < loaded.rules().cells(); ++cell)
        for (int player = 0; player < 2; ++player)
          for (int piece = 0; piece < 2; ++piece)
            if (state.by_player[player].test(cell) && state.by_piece[piece].test(cell))
              at.board[static_cast<std::size_t>(cell)] = {player, piece};
      at.to_move = state.to_move;
      at.ply = state.ply;
      at.end = reference::decision(loaded.rules(), at.board, at.to_move, at.ply);
      EXPECT_EQ(perft(program, state, 3), reference::perft(loaded.rules(), at, 3)) << program.position_text(state);
    }
  });
}

TEST(BreakthroughKing, RandomGamesAgreeWithTheReference) {
  troyka_tests::expect_random_games_agree_with_reference(game("breakthrough-king.game"), "breakthrough-king",
                                                         kSlowBuild ? 4 : 40, 7);
}

TEST(BreakthroughKing, TakingTheKingWins) {
  game("breakthrough-king.game").visit([](const auto& program) {
    const auto before = position(program, "4k3/8/8/8/8/3p4/4K3/8 Black 21");
    Move win;
    ASSERT_TRUE(program.winning_move(before, win));
    EXPECT_EQ(program.move_text(win), "d3xe2");
    const auto taken = after(program, before, "d3xe2");
    ASSERT_TRUE(taken.over);
    EXPECT_EQ(taken.winner, 1);
    EXPECT_EQ(program.end_reason(taken), "White loses by (lost King)");
  });
}

TEST(BreakthroughKing, TheKingReachingTheFarRowWins) {
  game("breakthrough-king.game").visit([](const auto& program) {
    const auto state = after(program, position(program, "8/2K5/8/8/8/8/4k3/8 White 30"), "c7-c8");
    ASSERT_TRUE(state.over);
    EXPECT_EQ(state.winner, 0);
    EXPECT_EQ(program.end_reason(state), "White wins by (reach King far-row)");
    Move win;
    EXPECT_TRUE(program.winning_move(position(program, "8/2K5/8/8/8/8/4k3/8 White 30"), win));
    EXPECT_EQ(program.move_text(win).substr(0, 3), "c7-");
  });
}

TEST(BreakthroughKing, APawnReachingTheFarRowDoesNotWin) {
  game("breakthrough-king.game").visit([](const auto& program) {
    const auto start = position(program, "8/2P5/8/8/8/4k3/8/4K3 White 30");
    Move win;
    EXPECT_FALSE(program.winning_move(start, win));  // only the pawn can reach the far row
    const auto state = after(program, start, "c7-c8");
    EXPECT_FALSE(state.over);
    // The pawn is stuck there; the king still moves.
    EXPECT_EQ(move_texts(program, after(program, state, "e3-e2")), (std::vector<std::string>{"e1-d2", "e1-f2"}));
  });
}

// The decisive rule of playouts finds wins by taking the king as well as by arriving, and only
// real wins: in every position of random games, a move exists that wins at once exactly when
// winning_move names one, and the one it names wins.
template <typename Program>
void expect_winning_moves_are_exact(const Program& program, int games) {
  int wins = 0;
  MoveList moves;
  for (int seed = 1; seed <= games; ++seed) {
    Rng rng(static_cast<std::uint64_t>(seed));
    for (auto state = program.initial_state(); !state.over; program.apply(state, program.random_move(state, rng))) {
      program.legal_moves(state, moves);
      const bool some_move_wins = std::any_of(moves.begin(), moves.end(), [&](const Move& move) {
        auto next = state;
        program.apply(next, move);
        return next.over && next.winner == state.to_move;
      });
      Move win;
      ASSERT_EQ(program.winning_move(state, win), some_move_wins) << program.position_text(state);
      if (!some_move_wins) continue;
      ++wins;
      auto next = state;
      program.apply(next, win);
      EXPECT_TRUE(next.over && next.winner == state.to_move) << program.position_text(state);
    }
  }
  EXPECT_GT(wins, 0);
}

TEST(BreakthroughKing, WinningMovesAreExactlyTheWins) {
  game("breakthrough-king.game").visit([](const auto& program) {
    expect_winning_moves_are_exact(program, kSlowBuild ? 2 : 20);
  });
}

// On a 5x6 board, whose games are short enough for the sanitizer builds (docs/games.md has 8x8's).
TEST(BreakthroughKing, MctsBeatsRandomInAMatch) {
  troyka_tests::expect_first_agent_scores(
      "match games/breakthrough-king.game --param width=5 --param height=6 --games 4 --agents mcts:iterations=300 "
      "random --json",
      3.0);
}

// ---- Breakthrough scoring ----------------------------------------------------------------------------

// The reference's view of the game, whose pawns move by a core rule that it does not read: the
// game's rules with Breakthrough's pawn moves as keyword forms, and the far rows as the exit.
struct ScoringReference {
  lang::Rules rules;
  reference::Exit exit;
};

ScoringReference scoring_reference(const lang::Rules& scoring) {
  ScoringReference view{scoring, {}};
  view.rules.general = nullptr;
  view.rules.pieces.front().moves = troyka_tests::breakthrough().rules().pieces.front().moves;
  for (int column = 0; column < scoring.width; ++column) {
    view.exit.region[0].push_back(scoring.cell(column, scoring.height - 1));  // White goes north
    view.exit.region[1].push_back(scoring.cell(column, 0));
  }
  return view;
}

// The reference's key of a move: a general move's fingerprint is the interpreter's own.
reference::MoveKey scoring_key(const Move& move) { return {move.from, move.to, move.piece, move.capture, 0, -1}; }

template <typename State>
reference::Position reference_position(const ScoringReference& view, const State& state) {
  reference::Position at = reference::start(view.rules);
  at.board.assign(at.board.size(), {});
  for (int cell = 0; cell < view.rules.cells(); ++cell)
    for (int player = 0; player < 2; ++player)
      if (state.by_player[player].test(cell)) at.board[static_cast<std::size_t>(cell)] = {player, 0};
  at.to_move = state.to_move;
  at.ply = state.ply;
  for (int player = 0; player < 2; ++player) at.counters[player][0] = state.counters[player][0];
  at.end = reference::decision(view.rules, at.board, at.to_move, at.ply, 0, at.counters);
  return at;
}

// Breakthrough's figures: no pawn reaches the far row in five plies.
const std::vector<std::uint64_t> kBreakthroughScorePerft = {22, 484, 11132, 256036};

TEST(BreakthroughScore, PerftAgreesWithTheReference) {
  const Game loaded = game("breakthrough-score.game");
  const ScoringReference view = scoring_reference(loaded.rules());
  loaded.visit([&](const auto& program) {
    const reference::Position start = reference::start(view.rules);
    for (std::size_t depth = 1; depth <= kBreakthroughScorePerft.size() - (kSlowBuild ? 1 : 0); ++depth) {
      const auto d = static_cast<int>(depth);
      EXPECT_EQ(perft(program, program.initial_state(), d), kBreakthroughScorePerft[depth - 1]) << d;
      if (d <= (kSlowBuild ? 2 : 3)) {
        EXPECT_EQ(reference::perft(view.rules, start, d, &view.exit), kBreakthroughScorePerft[depth - 1]);
      }
    }
  });
}

// Midgame positions, where pawns score and leave within the count.
TEST(BreakthroughScore, PerftOfMidgamePositionsAgreesWithTheReference) {
  const Game loaded = game("breakthrough-score.game");
  const ScoringReference view = scoring_reference(loaded.rules());
  loaded.visit([&](const auto& program) {
    int scored = 0;
    for (const auto& state : random_positions(program, kSlowBuild ? 2 : 8, 40)) {
      scored += state.counters[0][0] + state.counters[1][0];
      EXPECT_EQ(perft(program, state, 3), reference::perft(view.rules, reference_position(view, state), 3, &view.exit))
          << program.position_text(state);
    }
    if (!kSlowBuild) {
      EXPECT_GT(scored, 0);
    }
  });
}

TEST(BreakthroughScore, RandomGamesAgreeWithTheReferenceMoveByMove) {
  const Game loaded = game("breakthrough-score.game");
  const ScoringReference view = scoring_reference(loaded.rules());
  expect_random_games_agree_with_reference(loaded, ReferenceView{view.rules, &view.exit, scoring_key}, "scoring",
                                           kSlowBuild ? 3 : 30, 11);
}

TEST(BreakthroughScore, APawnArrivingScoresAndLeaves) {
  game("breakthrough-score.game").visit([](const auto& program) {
    const auto start = position(program, "1p5p/2P5/8/8/8/8/P7/4p3 White 30 score=1,0");
    EXPECT_EQ(move_texts(program, start),
              (std::vector<std::string>{"a2-a3", "a2-b3", "c7-c8-off", "c7-d8-off", "c7xb8-off"}));
    const auto state = after(program, start, "c7xb8-off");
    EXPECT_FALSE(state.over);
    EXPECT_EQ(program.position_text(state), "7p/8/8/8/8/8/P7/4p3 Black 31 score=2,0");
    EXPECT_NE(program.diagram(state).find("score: White 2, Black 0\n"), std::string::npos) << program.diagram(state);
    EXPECT_NE(state.hash, position(program, "7p/8/8/8/8/8/P7/4p3 Black 31 score=1,0").hash);
    EXPECT_EQ(state.hash, position(program, "7p/8/8/8/8/8/P7/4p3 Black 31 score=2,0").hash);
  });
}

TEST(BreakthroughScore, TheThirdPointWins) {
  game("breakthrough-score.game").visit([](const auto& program) {
    const auto start = position(program, "8/8/8/8/8/8/3p4/P7 Black 41 score=0,2");
    const auto state = after(program, start, "d2-d1-off");
    ASSERT_TRUE(state.over);
    EXPECT_EQ(state.winner, 1);
    EXPECT_EQ(program.end_reason(state), "Black wins by (>= (counter score) 3)");
    Move win;
    EXPECT_TRUE(program.winning_move(start, win));
  });
}

TEST(BreakthroughScore, WinningMovesAreExactlyTheWins) {
  game("breakthrough-score.game").visit([](const auto& program) {
    expect_winning_moves_are_exact(program, kSlowBuild ? 1 : 4);
  });
}

TEST(BreakthroughScore, PositionTextRefusesBadCounters) {
  game("breakthrough-score.game").visit([](const auto& program) {
    EXPECT_EQ(program.parse_position("8/8/8/8/8/8/8/P7 White 0 goals=1,0").error,
              "'goals' is not a counter of this game");
    EXPECT_EQ(program.parse_position("8/8/8/8/8/8/8/P7 White 0 score=4,0").error,
              "'score=4,0' does not give the counter score as two numbers from 0 to 3, White's and Black's");
    EXPECT_EQ(program.parse_position("8/8/8/8/8/8/8/P7 White 0 score=1").error,
              "'score=1' does not give the counter score as two numbers from 0 to 3, White's and Black's");
    EXPECT_EQ(program.position_text(position(program, "8/8/8/8/8/8/8/P7 White 0")),
              "8/8/8/8/8/8/8/P7 White 0 score=0,0");
  });
}

TEST(BreakthroughScore, ShowDescribesTheCounter) {
  game("breakthrough-score.game").visit([](const auto& program) {
    EXPECT_NE(program.describe().find("counter score: one for each player, from 0 to 3, 0 at the start\n"),
              std::string::npos)
        << program.describe();
  });
}

// On a 5x6 board: the general back end's playouts of 8x8 games take a quarter of an hour under the
// sanitizers (docs/games.md has 8x8's match).
TEST(BreakthroughScore, MctsBeatsRandomInAMatch) {
  troyka_tests::expect_first_agent_scores(
      "match games/breakthrough-score.game --param width=5 --param height=6 --games 2 --agents mcts:iterations=200 "
      "random --json",
      2.0);
}

// ---- Conditions and counters in small games ---------------------------------------------------------

// Kings step to the left or right on a 4x4 board; White's king starts on b1, Black's on c4; the
// end rules are `ends`. A core rule counts White's steps to the right in `steps`.
std::string small_game(const std::string& ends, const std::string& rules = "(step (left right) (to empty))") {
  return "(game \"Small\" (players (White north) (Black south)) (board (rectangle 4 4))\n"
         "  (counter steps (range 0 5))\n"
         "  (piece King \"K\" " +
         rules +
         ")\n"
         "  (piece Queen \"Q\" (step (left right) (to empty)))\n"
         "  (setup (place White King b1) (place Black King c4) (place White Queen d1))\n"
         "  (end " +
         ends + "))\n";
}

TEST(EndConditions, AndOrAndNotCombineConditionsOfOnePlayer) {
  // White's king is on b1, its queen on d1; Black has no queen.
  const auto ends_at_start = [](const std::string& condition) {
    bool over = false;
    game_from_text(small_game("(win " + condition + ") (draw (ply-limit 4))")).visit([&](const auto& program) {
      over = program.initial_state().over;
    });
    return over;
  };
  EXPECT_TRUE(ends_at_start("(lost Queen)"));                                         // Black has lost it, and wins
  EXPECT_FALSE(ends_at_start("(and (lost Queen) (reach King (cells b1 b4)))"));       // Black's king is on c4
  EXPECT_TRUE(ends_at_start("(and (lost Queen) (reach King (cells c4)))"));           // for Black
  EXPECT_TRUE(ends_at_start("(or (reach King (cells a2)) (not (lost King)))"));       // every player has a king
  EXPECT_FALSE(ends_at_start("(not (or (lost Queen) (reach King (cells b1 c4))))"));  // White holds b1, Black c4
  EXPECT_TRUE(ends_at_start("(and (not (lost Queen)) (>= (counter steps) 0))"));      // White has its queen
  EXPECT_FALSE(ends_at_start("(> (counter steps) 0)"));
}

TEST(EndConditions, TheSubjectOfACompoundWinsOrLoses) {
  game_from_text(small_game("(lose (not (lost Queen))) (draw (ply-limit 4))")).visit([](const auto& program) {
    const auto state = program.initial_state();
    ASSERT_TRUE(state.over);
    EXPECT_EQ(state.winner, 1);  // White still has its queen, and loses
    EXPECT_EQ(program.end_reason(state), "White loses by (not (lost Queen))");
  });
}

TEST(Counters, AddAndSetChangeTheMoversCounterWithinItsRange) {
  const std::string counting =
      "(moves (go right) empty (add steps 2)) (moves (go left) empty (set steps 1)) (moves (go forward) empty (add "
      "steps -9))";
  game_from_text(small_game("(win (= (counter steps) 5)) (draw (ply-limit 12))", counting))
      .visit([](const auto& program) {
        auto state = program.initial_state();
        EXPECT_EQ(program.position_text(state), "2k1/4/4/1K1Q White 0 steps=0,0");
        state = after(program, state, "b1-c1");
        EXPECT_EQ(program.position_text(state), "2k1/4/4/2KQ Black 1 steps=2,0");
        state = after(program, state, "c4-b4");  // Black's king steps to its right, west
        EXPECT_EQ(program.position_text(state), "1k2/4/4/2KQ White 2 steps=2,2");
        state = after(program, state, "c1-b1");
        EXPECT_EQ(program.position_text(state), "1k2/4/4/1K1Q Black 3 steps=1,2");
        state = after(program, state, "b4-a4");
        state = after(program, state, "b1-b2");  // -9 stops at 0
        EXPECT_EQ(program.position_text(state), "k3/4/1K2/3Q Black 5 steps=0,4");
        state = after(program, state, "a4-a3");  // Black's forward: -9 from 4
        EXPECT_EQ(program.position_text(state), "4/k3/1K2/3Q White 6 steps=0,0");
        EXPECT_EQ(program.parse_position("4/k3/1K2/3Q White 6 steps=0,0").state.hash, state.hash);
        const auto won = after(program, position(program, "k3/4/4/1K1Q White 8 steps=3,0"), "b1-c1");
        ASSERT_TRUE(won.over);
        EXPECT_EQ(won.winner, 0);  // 3 + 2 = 5
        const auto capped = after(program, position(program, "k3/4/4/1K1Q White 8 steps=4,0"), "b1-c1");
        EXPECT_TRUE(capped.over);  // 4 + 2 stops at the top, 5
      });
}

TEST(Counters, ShowCorePrintsAddSetAndExitAndReadsThemBack) {
  const Outcome run = run_troyka("show games/breakthrough-score.game --core");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_NE(run.out.find("(if (in far-row) (seq exit (add score 1)))"), std::string::npos) << run.out;
}

}  // namespace
}  // namespace troyka
