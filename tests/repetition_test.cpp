// (repetition N), docs/core-design.md §4 "Repetition": the exact errors of the form, hand-made
// histories (a History is kept beside the State), the playout loops keeping one, MCTS counting
// the game's positions and its tree path, the bound analysis of `troyka check`, and play, match
// and replay ending tests/data/games/two-kings.game, built to cycle, by repetition.
#include <gtest/gtest.h>

#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "agents/search_tree.h"
#include "interpreter/game.h"
#include "interpreter/random.h"
#include "lang/diagnostic.h"
#include "lang/termination.h"
#include "tests/games.h"
#include "tests/run_troyka.h"

namespace troyka {
namespace {

using troyka_tests::game_from_text;
using troyka_tests::load_error;
using troyka_tests::rules_from_text;
using troyka_tests::run_troyka;

const std::string kTwoKings = std::string(TROYKA_SOURCE_DIR) + "/tests/data/games/two-kings.game";

// Two kings on a 3x3 board that never take, with `king` as the king's moves and `end` as the end
// rules (on line 2).
std::string two_kings(const std::string& end, const std::string& king = "(step all-directions (to empty))") {
  return "(game \"Test\" (players (White north) (Black south)) (board (rectangle 3 3))\n(end " + end +
         ")\n(piece King \"K\" " + king + ") (setup (place White King a1) (place Black King c3)))";
}

// Plays the moves, keeping `history`.
template <typename Program>
void play(const Program& program, typename Program::StateType& state, History& history,
          std::initializer_list<const char*> moves) {
  for (const char* text : moves) {
    const ParsedMove parsed = program.parse_move(state, text);
    ASSERT_TRUE(parsed.ok()) << text << ": " << parsed.error;
    program.apply(state, parsed.move, history);
  }
}

// Around the board and back: the start position, White to move, once more.
constexpr auto kCycle = {"a1-a2", "c3-c2", "a2-a1", "c2-c3"};

// ---- the form ---------------------------------------------------------------------------------

TEST(RepetitionErrors, TheCountIsTwoOrMore) {
  EXPECT_EQ(load_error(two_kings("(draw (repetition 1))")),
            "test.game:2:24: error: the number of repetitions must be between 2 and 100, but it is 1\n"
            " 2 | (end (draw (repetition 1)))\n"
            "   |                        ^\n"
            "hint: every position has occurred once when it stands on the board: (repetition 3) holds at its third "
            "occurrence\n");
  EXPECT_EQ(load_error(two_kings("(draw (repetition 101))")),
            "test.game:2:24: error: the number of repetitions must be between 2 and 100, but it is 101\n"
            " 2 | (end (draw (repetition 101)))\n"
            "   |                        ^~~\n"
            "hint: every position has occurred once when it stands on the board: (repetition 3) holds at its third "
            "occurrence\n");
}

TEST(RepetitionErrors, TheCountIsANumber) {
  EXPECT_EQ(load_error(two_kings("(draw repetition)")),
            "test.game:2:12: error: the condition 'repetition' needs a number of times\n"
            " 2 | (end (draw repetition))\n"
            "   |            ^~~~~~~~~~\n"
            "hint: usage: (repetition N): the position, with the same player to move, has occurred N times\n");
  EXPECT_EQ(load_error(two_kings("(draw (repetition))")),
            "test.game:2:12: error: '(repetition ...)' is missing its N\n"
            " 2 | (end (draw (repetition)))\n"
            "   |            ^\n"
            "hint: usage: (repetition N): the position, with the same player to move, has occurred N times\n");
  EXPECT_EQ(load_error(two_kings("(draw (repetition 3 4))")),
            "test.game:2:26: error: '(repetition ...)' takes no more than 1 argument; the number 4 is one too many\n"
            " 2 | (end (draw (repetition 3 4)))\n"
            "   |                          ^\n"
            "hint: usage: (repetition N): the position, with the same player to move, has occurred N times\n");
  EXPECT_EQ(load_error(two_kings("(draw (repetitions 3))")),
            "test.game:2:13: error: unknown condition 'repetitions'\n"
            " 2 | (end (draw (repetitions 3)))\n"
            "   |             ^~~~~~~~~~~\n"
            "hint: did you mean 'repetition'?\n");
}

TEST(RepetitionForm, IsReadAloneAndInCompounds) {
  const lang::Rules alone = rules_from_text(two_kings("(draw (repetition 3))"));
  ASSERT_EQ(alone.end.size(), 1U);
  EXPECT_EQ(alone.end[0].kind, lang::EndKind::Repetition);
  EXPECT_EQ(alone.end[0].repetitions, 3);
  const lang::Rules compound = rules_from_text(two_kings("(win (or (repetition 2) (reach King (cells b2))))"));
  ASSERT_EQ(compound.end[0].parts.size(), 2U);
  EXPECT_EQ(compound.end[0].parts[0].kind, lang::EndKind::Repetition);
  EXPECT_EQ(compound.end[0].parts[0].repetitions, 2);
}

// ---- hand-made histories ------------------------------------------------------------------------

TEST(Repetition, TheThirdOccurrenceDrawsAndAStateAloneNeverRepeats) {
  const Game loaded = Game::load(kTwoKings, {});
  loaded.visit([](const auto& program) {
    EXPECT_TRUE(program.counts_repetitions());
    auto state = program.initial_state();
    History history = program.start_history(state);
    auto alone = state;  // played without a history
    play(program, state, history, kCycle);
    EXPECT_FALSE(state.over);  // twice
    EXPECT_EQ(history.size(), 5U);
    EXPECT_EQ(history.front(), history.back());
    play(program, state, history, {"a1-a2", "c3-c2", "a2-a1"});
    EXPECT_FALSE(state.over);
    play(program, state, history, {"c2-c3"});
    ASSERT_TRUE(state.over);  // thrice
    EXPECT_EQ(int{state.winner}, kDraw);
    EXPECT_EQ(program.end_reason(state), "draw by (repetition 3)");
    for (int round = 0; round < 3; ++round)
      for (const char* text : kCycle) program.apply(alone, program.parse_move(alone, text).move);
    EXPECT_FALSE(alone.over);
    EXPECT_EQ(alone.hash, state.hash);
  });
}

// The same cells with the other player to move are another position.
TEST(Repetition, ThePlayerToMoveIsPartOfThePosition) {
  const Game loaded = game_from_text(two_kings("(draw (repetition 2))"));
  loaded.visit([](const auto& program) {
    auto state = program.initial_state();
    History history = program.start_history(state);
    // White goes round a triangle in three moves, Black back and forth: the kings stand as at the
    // start after six plies, with White to move again, and after three with Black to move.
    play(program, state, history, {"a1-a2", "c3-c2", "a2-b1", "c2-c3"});
    EXPECT_FALSE(state.over);
    play(program, state, history, {"b1-a1"});
    EXPECT_FALSE(state.over);  // the cells of the start, Black to move
    play(program, state, history, {"c3-c2", "a1-a2", "c2-c3", "a2-a1"});
    EXPECT_TRUE(state.over);  // a1 and c3, White to move: the start again
  });
}

// (lose (repetition N)) concerns the player who just moved first: it repeated the position.
TEST(Repetition, TheMoverIsTestedFirst) {
  const Game loaded = game_from_text(two_kings("(lose (repetition 2))"));
  loaded.visit([](const auto& program) {
    auto state = program.initial_state();
    History history = program.start_history(state);
    play(program, state, history, kCycle);
    ASSERT_TRUE(state.over);
    EXPECT_EQ(int{state.winner}, 0);  // Black repeated the start
    EXPECT_EQ(program.end_reason(state), "Black loses by (repetition 2)");
  });
}

TEST(Repetition, CountsInsideCompounds) {
  const Game loaded = game_from_text(two_kings("(win (and (repetition 2) (reach King (cells a1))))"));
  loaded.visit([](const auto& program) {
    auto state = program.initial_state();
    History history = program.start_history(state);
    play(program, state, history, kCycle);
    ASSERT_TRUE(state.over);
    EXPECT_EQ(int{state.winner}, 0);  // White's king stands on a1; Black's does not
  });
}

// A capture in a game where no move adds a piece cannot be undone: the history starts again there.
TEST(Repetition, ACaptureEmptiesTheHistory) {
  const Game loaded = game_from_text(
      "(game \"Test\" (players (White north) (Black south)) (board (rectangle 3 3))\n"
      "(end (draw (repetition 3)) (win opponent-has-no-pieces))\n"
      "(piece King \"K\" (step all-directions (to not-friend) capture))\n"
      "(setup (place White King a1) (place Black King (cells c3 c1))))");
  loaded.visit([](const auto& program) {
    auto state = program.initial_state();
    History history = program.start_history(state);
    play(program, state, history, {"a1-a2", "c3-c2", "a2-a1", "c2-c3"});
    EXPECT_EQ(history.size(), 5U);
    play(program, state, history, {"a1-b2", "c3-c2", "b2xc1"});
    ASSERT_EQ(history.size(), 1U);
    EXPECT_EQ(history.back(), state.hash);
  });
}

// Three kings on a 3x3 board that never take, with `end` as the end rules.
std::string three_kings(const std::string& end) {
  return "(game \"Test\" (players (White north) (Black south) (Red east)) (board (rectangle 3 3))\n(end " + end +
         ")\n(piece King \"K\" (step all-directions (to empty)))\n"
         "(setup (place White King a1) (place Black King c3) (place Red King a3)))";
}

// Each of three kings steps away and back: the start again, White to move, after six plies.
constexpr auto kThreeCycle = {"a1-b1", "c3-c2", "a3-a2", "b1-a1", "c2-c3", "a2-a3"};

// With more than two players the position is the cells, the player to move and who is out: the
// game ends by repetition as with two, and a player who repeats and loses is put out, which makes
// the position new, so the others play on.
TEST(Repetition, CountsWithThreePlayers) {
  game_from_text(three_kings("(draw (repetition 2))")).visit([](const auto& program) {
    auto state = program.initial_state();
    History history = program.start_history(state);
    play(program, state, history, kThreeCycle);
    ASSERT_TRUE(state.over);
    EXPECT_EQ(int{state.winner}, kDraw);
    EXPECT_EQ(program.end_reason(state), "draw by (repetition 2)");
  });
  game_from_text(three_kings("(lose (repetition 2))")).visit([](const auto& program) {
    auto state = program.initial_state();
    History history = program.start_history(state);
    play(program, state, history, kThreeCycle);
    EXPECT_FALSE(state.over);
    EXPECT_TRUE(state.is_out(2));  // Red repeated the start
    EXPECT_EQ(int{state.to_move}, 0);
    // The position with Red out is new, and the first of a history started again: White and Black go
    // round, and Black, who brings it back, repeats it.
    EXPECT_EQ(history, History{state.hash});
    play(program, state, history, {"a1-b1", "c3-c2", "b1-a1"});
    EXPECT_FALSE(state.over);
    play(program, state, history, {"c2-c3"});
    ASSERT_TRUE(state.over);  // Black is out too: White is left
    EXPECT_EQ(program.end_reason(state), "White wins, the last player left: Black loses by (repetition 2)");
    EXPECT_EQ(int{state.winner}, 0);
  });
}

// ---- playouts -------------------------------------------------------------------------------------

// Every playout of the game ends by repetition, in the loop that draws from targets (a king's step)
// and in the one that lists moves (a king's slide), with the same moves and end as random_move and
// apply with a history; a playout from a position takes the game's history so far.
TEST(Repetition, PlayoutsKeepAHistory) {
  for (const std::string king : {"(step all-directions (to empty))", "(slide all-directions (to empty))"}) {
    const Game loaded = game_from_text(two_kings("(draw (repetition 3))", king));
    loaded.visit([&](const auto& program) {
      for (std::uint64_t seed = 1; seed <= 20; ++seed) {
        auto played = program.initial_state();
        Rng rng(seed);
        const std::uint32_t plies = program.playout(played, rng);
        ASSERT_TRUE(played.over) << king << " " << seed;
        EXPECT_EQ(played.ended_by, 0);
        EXPECT_LT(plies, program.playout_cap());
        auto stepped = program.initial_state();
        History history = program.start_history(stepped);
        Rng same(seed);
        while (!stepped.over) program.apply(stepped, program.random_move(stepped, same), history);
        EXPECT_EQ(stepped.ply, plies);
        EXPECT_EQ(stepped.hash, played.hash);
      }
      // After the cycle the start stands twice: a playout given that history ends when it comes back
      // once more, as random_move and apply with that history do; one that starts from the position
      // alone cannot end before the position comes back twice more.
      auto state = program.initial_state();
      History history = program.start_history(state);
      play(program, state, history, kCycle);
      PlayoutPolicy policy;
      policy.history = &history;
      std::uint32_t with_history = 0, alone = 0;
      for (std::uint64_t seed = 1; seed <= 200; ++seed) {
        auto from = state;
        Rng rng(seed);
        const std::uint32_t plies = program.playout(from, rng, policy);
        with_history += plies <= 4;
        ASSERT_TRUE(from.over);
        auto stepped = state;
        History continued = history;
        Rng same(seed);
        while (!stepped.over) program.apply(stepped, program.random_move(stepped, same), continued);
        EXPECT_EQ(stepped.ply - state.ply, plies);
        auto fresh = state;
        Rng again(seed);
        alone += program.playout(fresh, again) <= 4;
      }
      EXPECT_GT(with_history, 0U) << king;
      EXPECT_EQ(alone, 0U) << king;  // a third occurrence needs eight plies at least
    });
  }
}

// ---- MCTS -------------------------------------------------------------------------------------------

// Black to move after the start came back once and White went round again: c2-c3 would bring the
// start a third time and lose. The search proves that from the game's history, and cannot without.
TEST(Repetition, MctsCountsTheGameAndTheTreePath) {
  const Game loaded = game_from_text(two_kings("(lose (repetition 3))"));
  loaded.visit([](const auto& program) {
    using Program = std::decay_t<decltype(program)>;
    auto state = program.initial_state();
    History history = program.start_history(state);
    play(program, state, history, kCycle);
    play(program, state, history, {"a1-a2", "c3-c2", "a2-a1"});
    ASSERT_FALSE(state.over);
    const auto proof_of_c2_c3 = [&](const History& known) {
      agents::SearchTree<Program> tree(program, agents::SearchOptions{}, 1);
      tree.set_root(state, {}, nullptr, &known);
      for (int i = 0; i < 300; ++i) tree.iterate();
      const auto& root = tree.root();
      for (std::uint32_t i = 0; i < root.child_count; ++i) {
        const auto& child = tree.node(root.first_child + i);
        if (program.move_text(child.move) == "c2-c3") return child.proof;
      }
      return agents::Proof::Unknown;
    };
    EXPECT_EQ(proof_of_c2_c3(history), agents::Proof::Loss);
    EXPECT_EQ(proof_of_c2_c3(program.start_history(state)), agents::Proof::Unknown);
    // The agent builds the history from the moves it observes.
    auto agent = agents::make_agent(agents::AgentSpec{"mcts", {{"iterations", "300"}}}, program, 1);
    agent->start(1, agents::TimeControl{});
    auto followed = program.initial_state();
    History unused = program.start_history(followed);
    for (const char* text : {"a1-a2", "c3-c2", "a2-a1", "c2-c3", "a1-a2", "c3-c2", "a2-a1"}) {
      const Move move = program.parse_move(followed, text).move;
      program.apply(followed, move, unused);
      agent->observe(move);
    }
    EXPECT_NE(program.move_text(agent->choose(followed, 0)), "c2-c3");
    ASSERT_TRUE(agent->last_report().has_value());
  });
}

// ---- the tools ------------------------------------------------------------------------------------

TEST(Repetition, BoundsTheGameForCheck) {
  EXPECT_FALSE(lang::unbounded_game_warning(rules_from_text(two_kings("(draw (repetition 3))"))).has_value());
  EXPECT_FALSE(
      lang::unbounded_game_warning(rules_from_text(two_kings("(draw (or (reach King (cells b2)) (repetition 3)))")))
          .has_value());
  // Inside (and ...) or (not ...) a repetition need not end the game.
  EXPECT_TRUE(
      lang::unbounded_game_warning(rules_from_text(two_kings("(draw (and (repetition 3) (reach King (cells b2))))")))
          .has_value());
  EXPECT_TRUE(lang::unbounded_game_warning(rules_from_text(two_kings("(draw (reach King (cells b2)))"))).has_value());
  const troyka_tests::Outcome check = run_troyka("check " + kTwoKings);
  EXPECT_EQ(check.status, 0) << check.err;
  EXPECT_EQ(check.err.find("warning"), std::string::npos) << check.err;
}

nlohmann::json json_of(const troyka_tests::Outcome& run) {
  EXPECT_EQ(run.status, 0) << run.err;
  return nlohmann::json::parse(run.out);
}

TEST(Repetition, PlayMatchAndReplayEndGamesByRepetition) {
  const std::string records = troyka_tests::temp_path("two-kings-records");
  const nlohmann::json match = json_of(run_troyka(
      "match " + kTwoKings + " --agents random mcts:iterations=30 --games 4 --records " + records + " --json"));
  ASSERT_EQ(match["results"].size(), 4U);
  for (const auto& game : match["results"]) {
    EXPECT_EQ(game["winner"], "draw");
    EXPECT_EQ(game["reason"], "draw by (repetition 3)");
    EXPECT_LT(game["plies"].get<int>(), 2000);
  }
  for (const char* record : {"/game-0001.record", "/game-0002.record"}) {
    const nlohmann::json replay = json_of(run_troyka("replay " + records + record + " --json"));
    EXPECT_EQ(replay["reason"], "draw by (repetition 3)");
  }
  const nlohmann::json play = json_of(run_troyka("play " + kTwoKings + " --json"));
  EXPECT_EQ(play["ending"], "finished");
  EXPECT_EQ(play["reason"], "draw by (repetition 3)");
  // Every game of analyze's self-play ends by the rule, long before the playout cap.
  const nlohmann::json analysis =
      json_of(run_troyka("analyze " + kTwoKings + " --games 4 --skill-games 0 --agent mcts:iterations=20 --json"));
  for (const auto& plays : analysis["games"][0]["plays"]) {
    EXPECT_EQ(plays["metrics"]["draws"]["value"], 1.0);
    EXPECT_LT(plays["length"]["longest"].get<int>(), 2000);
  }
}

}  // namespace
}  // namespace troyka
