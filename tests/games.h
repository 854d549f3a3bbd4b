// Games and positions for tests: the reference game at any size, every game of games/, positions from
// their text, and the moves of a position as text.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <initializer_list>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "interpreter/game.h"
#include "interpreter/perft.h"
#include "interpreter/random.h"
#include "tests/reference.h"

namespace troyka_tests {

// The whole text of the file at `path` (empty if it cannot be read).
inline std::string file_text(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

inline const std::string kBreakthrough = std::string(TROYKA_SOURCE_DIR) + "/games/breakthrough.game";

// games/breakthrough.game on a width x height board.
inline troyka::Game breakthrough(int width = 8, int height = 8) {
  troyka::lang::Options options;
  options.params = {{"width", std::to_string(width)}, {"height", std::to_string(height)}};
  return troyka::Game::load(kBreakthrough, options);
}

// A game of games/ by its file name, e.g. game("clobber.game", {{"width", "4"}}).
inline troyka::Game game(const std::string& file, std::vector<std::pair<std::string, std::string>> params = {}) {
  troyka::lang::Options options;
  options.params = std::move(params);
  return troyka::Game::load(std::string(TROYKA_SOURCE_DIR) + "/games/" + file, options);
}

// Program::playout promises the same moves and result as looping random_move + apply with the same
// generator: checks it for `games` seeds of `loaded`, from its start.
inline void expect_playouts_match_random_move_loop(const troyka::Game& loaded, int games) {
  loaded.visit([&](const auto& program) {
    for (int seed = 0; seed < games; ++seed) {
      troyka::Rng fast_rng(static_cast<std::uint64_t>(seed)), loop_rng(static_cast<std::uint64_t>(seed));
      auto fast = program.initial_state();
      const std::uint32_t plies = program.playout(fast, fast_rng);
      auto loop = program.initial_state();
      std::uint32_t loop_plies = 0;
      for (; !program.is_terminal(loop); ++loop_plies) program.apply(loop, program.random_move(loop, loop_rng));
      ASSERT_EQ(plies, loop_plies) << "seed " << seed;
      ASSERT_EQ(program.position_text(fast), program.position_text(loop)) << "seed " << seed;
      ASSERT_EQ(fast.hash, loop.hash) << "seed " << seed;
      ASSERT_EQ(fast.winner, loop.winner) << "seed " << seed;
      ASSERT_EQ(program.end_reason(fast), program.end_reason(loop)) << "seed " << seed;
      ASSERT_EQ(fast_rng.next(), loop_rng.next()) << "seed " << seed;  // the same number of draws
    }
  });
}

// How the reference plays a game: the rules it reads (the game's own, or a view of them with keyword
// moves for core rules the reference does not read), the pieces that exit the board, and the key of
// an interpreter's move.
struct ReferenceView {
  const troyka::lang::Rules& rules;
  const troyka::reference::Exit* exit = nullptr;
  troyka::reference::MoveKey (*key)(const troyka::Move&) = troyka::reference::key_of;
};

// Plays `rounds` random games of `loaded` from a generator seeded with `seed`: every position must
// have the moves, counters and end decision of the slow reference (tests/reference.h) as `view`
// plays it, and its text and moves must read back. `label` names the game in failures.
inline void expect_random_games_agree_with_reference(const troyka::Game& loaded, const ReferenceView& view,
                                                     const std::string& label, int rounds, std::uint64_t seed) {
  namespace reference = troyka::reference;
  loaded.visit([&](const auto& program) {
    troyka::Rng rng(seed);
    troyka::MoveList moves;
    for (int round = 0; round < rounds; ++round) {
      auto state = program.initial_state();
      reference::Position expected = reference::start(view.rules);
      while (true) {
        const std::string text = label + ": " + program.position_text(state);
        ASSERT_EQ(state.over, expected.end.over) << text;
        for (std::size_t counter = 0; counter < view.rules.counters.size(); ++counter)
          for (int player = 0; player < 2; ++player)
            EXPECT_EQ(state.counters[player][counter], expected.counters[player][counter]) << text;
        if (state.over) {
          EXPECT_EQ(state.winner, expected.end.winner) << text;
          EXPECT_EQ(state.ended_by, expected.end.ended_by) << text;
          break;
        }
        program.legal_moves(state, moves);
        std::vector<reference::MoveKey> listed;
        for (const troyka::Move& move : moves) listed.push_back(view.key(move));
        std::sort(listed.begin(), listed.end());
        ASSERT_EQ(listed, reference::moves(view.rules, expected.board, expected.to_move, expected.ply)) << text;
        const troyka::Move move = program.random_move(state, rng);
        const auto parsed = program.parse_position(program.position_text(state));  // the text holds the whole state
        ASSERT_TRUE(parsed.ok()) << text << ": " << parsed.error;
        EXPECT_EQ(parsed.state.hash, state.hash) << text;
        EXPECT_EQ(program.parse_move(state, program.move_text(move)).move, move)
            << text << ": " << program.move_text(move);
        program.apply(state, move);
        expected = reference::play(view.rules, expected, view.key(move), view.exit);
      }
    }
  });
}

// The same, for a game the reference reads as it is.
inline void expect_random_games_agree_with_reference(const troyka::Game& loaded, const std::string& label, int rounds,
                                                     std::uint64_t seed) {
  expect_random_games_agree_with_reference(loaded, ReferenceView{loaded.rules()}, label, rounds, seed);
}

// The texts of the positions after each legal move of `state`, sorted: compared with a plain
// reference's successors where moves are identified by what they leave on the board.
template <typename Program>
std::vector<std::string> successor_texts(const Program& program, const typename Program::StateType& state) {
  troyka::MoveList moves;
  program.legal_moves(state, moves);
  std::vector<std::string> texts;
  for (const troyka::Move& move : moves) {
    auto next = state;
    program.apply(next, move);
    texts.push_back(program.position_text(next));
  }
  std::sort(texts.begin(), texts.end());
  return texts;
}

// A plain reference written for one game (tests/reference_hasami.h, reference_tafl.h, reference_morris.h): its start,
// the positions one move leads to, who has won a position reached by a move (a player, troyka::kDraw
// or `ongoing`) and the position's text as troyka writes it.
template <typename Position>
struct PlainReference {
  Position start;
  std::vector<Position> (*successors)(const Position&);
  int (*winner)(const Position&);
  std::string (*text)(const Position&);
  int ongoing;
};

// Plays `rounds` random games of `loaded` from a generator seeded with `seed`: every position must
// have the text, the end and the successors (compared by the positions they lead to) of the plain
// reference, and its moves must read back. `label` names the game in failures.
template <typename Position>
void expect_random_games_agree_with_plain_reference(const troyka::Game& loaded,
                                                    const PlainReference<Position>& reference, const std::string& label,
                                                    int rounds, std::uint64_t seed) {
  loaded.visit([&](const auto& program) {
    troyka::Rng rng(seed);
    for (int round = 0; round < rounds; ++round) {
      auto state = program.initial_state();
      Position expected = reference.start;
      while (true) {
        const std::string text = program.position_text(state);
        ASSERT_EQ(text, reference.text(expected)) << label;
        const int winner = reference.winner(expected);
        ASSERT_EQ(state.over, winner != reference.ongoing) << label << ": " << text;
        if (state.over) {
          EXPECT_EQ(state.winner, winner) << label << ": " << text;
          break;
        }
        std::vector<std::string> expected_texts;
        for (const Position& next : reference.successors(expected)) expected_texts.push_back(reference.text(next));
        std::sort(expected_texts.begin(), expected_texts.end());
        ASSERT_EQ(successor_texts(program, state), expected_texts) << label << ": " << text;
        const troyka::Move move = program.random_move(state, rng);
        EXPECT_EQ(program.parse_move(state, program.move_text(move)).move, move) << label << ": " << text;
        program.apply(state, move);
        for (const Position& next : reference.successors(expected))
          if (reference.text(next) == program.position_text(state)) expected = next;
      }
    }
  });
}

// Builds without NDEBUG run long tests slower than Release: the sanitizer stage (engine -O1, test code
// -O0) about six times, more where test code runs long, and a -O0 Debug build more. Long tests do less there.
#ifdef NDEBUG
inline constexpr bool kSlowBuild = false;
#else
inline constexpr bool kSlowBuild = true;
#endif

// A game that never ends: each king goes left or right along its own row, two moves or one, and
// no one can reach the far row.
inline const std::string kEndlessGame =
    "(game \"Endless\" (players (White north) (Black south)) (board (rectangle 4 4))\n"
    "  (piece King (step (left right) (to empty)))\n"
    "  (setup (place White King (cells b1)) (place Black King (cells c4)))\n"
    "  (end (win (reach far-row))))\n";

inline troyka::Game endless_game() {
  return troyka::Game(troyka::lang::load_rules(
      std::make_shared<troyka::lang::SourceFile>(troyka::lang::SourceFile{"endless.game", kEndlessGame}), {}));
}

// A game whose rules run away at play time: White's two pawns have a step each, and then Black's
// rook, whose runs double at every cell of its row, takes the general back end past its step
// budget (RunawayRule) as soon as anyone asks for Black's moves.
inline const std::string kRunawayGame =
    "(game \"Runaway\" (players (White north) (Black south)) (board (rectangle 26 2))\n"
    "  (piece Pawn \"P\" (step forward (to empty)))\n"
    "  (piece Rook \"R\" (moves (repeat (seq (or empty (not friend)) (go e)) (at-least 1))))\n"
    "  (setup (place White Pawn (cells a1 c1)) (place Black Rook b2))\n"
    "  (end (lose no-legal-moves)))\n";

// What RunawayRule says of kRunawayGame.
inline const std::string kRunawayMessage =
    "the general move generator ran 16777216 steps in one position of Runaway: a rule may repeat without end; bound "
    "it with (at-most N)";

// A real game on the 5x5 board, in which Black reaches the far row on ply 14.
inline const std::string kSampleRecord = R"record([Game "Breakthrough"]
[File "games/breakthrough.game"]
[Variant ""]
[Params "width=5 height=5"]
[White "random"]
[Black "mcts:iterations=200"]
[Result "0-1"]
[Winner "Black"]
[Reason "Black wins by (reach Pawn far-row)"]
[Plies "14"]
[Seed "1"]
[Date "2024-05-01T12:00:00Z"]

1. a2-b3 a4xb3 2. c2xb3 c4xb3 3. b2-a3 d5-c4 4. a3-a4 b5xa4 5. e2-d3 e4-e3
6. c1-c2 e3xd2 7. a1-a2 d2xe1 0-1
)record";

// The rules of the rule file `text`, read as test.game.
inline troyka::lang::Rules rules_from_text(std::string_view text) {
  return troyka::lang::load_rules(
      std::make_shared<troyka::lang::SourceFile>(troyka::lang::SourceFile{"test.game", std::string(text)}), {});
}

// The game of the rule file `text`, read as test.game.
inline troyka::Game game_from_text(std::string_view text) { return troyka::Game(rules_from_text(text)); }

// The diagnostic, rendered, that loading the rule file `text` (as test.game) fails with; "loads" if it loads.
inline std::string load_error(std::string_view text) {
  try {
    rules_from_text(text);
  } catch (const troyka::lang::Error& error) {
    return troyka::lang::render(error.diagnostic());
  }
  return "loads";
}

// Perft from the start to depths 1..`depths`: troyka's and the plain reference's
// (`reference_perft(depth)`) must both equal `counts` (published or independent figures).
template <typename Program, typename ReferencePerft>
void expect_start_perft(const Program& program, const std::vector<std::uint64_t>& counts, std::size_t depths,
                        ReferencePerft&& reference_perft) {
  for (std::size_t depth = 1; depth <= depths; ++depth) {
    const auto d = static_cast<int>(depth);
    EXPECT_EQ(troyka::perft(program, program.initial_state(), d), counts[depth - 1]) << "depth " << d;
    EXPECT_EQ(reference_perft(d), counts[depth - 1]) << "depth " << d << " (reference)";
  }
}

// Perft from `state` to depths 1..`depths`: troyka's must equal the plain reference's
// (`reference_perft(depth)`).
template <typename Program, typename ReferencePerft>
void expect_perft_agrees(const Program& program, const typename Program::StateType& state, int depths,
                         ReferencePerft&& reference_perft) {
  for (int depth = 1; depth <= depths; ++depth)
    EXPECT_EQ(troyka::perft(program, state, depth), reference_perft(depth)) << "depth " << depth;
}

// The position a text form names (Program::parse_position); a bad text fails the test.
template <typename Program>
typename Program::StateType position(const Program& program, const std::string& text) {
  const auto parsed = program.parse_position(text);
  EXPECT_TRUE(parsed.ok()) << text << ": " << parsed.error;
  return parsed.state;
}

// The texts of the legal moves of a position, sorted.
template <typename Program>
std::vector<std::string> move_texts(const Program& program, const typename Program::StateType& state) {
  troyka::MoveList moves;
  program.legal_moves(state, moves);
  std::vector<std::string> texts;
  for (const troyka::Move& move : moves) texts.push_back(program.move_text(move));
  std::sort(texts.begin(), texts.end());
  return texts;
}

// random_move is uniform among the listed moves of `state`: drawn 300 times a move with a fixed
// seed, each drawn move listed, and Pearson's chi-square of the counts below df + 5 sqrt(2 df) (about
// p = 0.001). A draw that leaves a move out, or draws some moves twice as often, fails it.
template <typename Program>
void expect_random_moves_uniform(const Program& program, const typename Program::StateType& state,
                                 const std::string& label) {
  const std::vector<std::string> listed = move_texts(program, state);
  std::map<std::string, int> drawn;
  troyka::Rng rng(11);
  constexpr double kExpected = 300;
  const int draws = static_cast<int>(kExpected) * static_cast<int>(listed.size());
  for (int i = 0; i < draws; ++i) ++drawn[program.move_text(program.random_move(state, rng))];
  for (const auto& [move, count] : drawn)
    ASSERT_TRUE(std::binary_search(listed.begin(), listed.end(), move)) << label << " drew " << move;
  double chi_square = 0;
  for (const std::string& move : listed) {
    const double off = drawn[move] - kExpected;
    chi_square += off * off / kExpected;
  }
  const double df = static_cast<double>(listed.size()) - 1;
  EXPECT_LT(chi_square, df + 5 * std::sqrt(2 * df) + 1e-9) << label;
}

// The position after the move written `move_text`; an illegal move fails the test.
template <typename Program>
typename Program::StateType after(const Program& program, typename Program::StateType state,
                                  const std::string& move_text) {
  const troyka::ParsedMove move = program.parse_move(state, move_text);
  EXPECT_TRUE(move.ok()) << move_text << ": " << move.error;
  if (move.ok()) program.apply(state, move.move);
  return state;
}

// The text of the position after `move` from `text`.
template <typename Program>
std::string after_move(const Program& program, const std::string& text, const std::string& move) {
  return program.position_text(after(program, position(program, text), move));
}

// The position after `moves` played `rounds` times from the start, with the game's history (for
// (repetition N)); a game that ends before the last move fails the test.
template <typename Program>
typename Program::StateType after_rounds(const Program& program, std::initializer_list<const char*> moves, int rounds) {
  auto state = program.initial_state();
  troyka::History history = program.start_history(state);
  for (int round = 0; round < rounds; ++round)
    for (const char* text : moves) {
      EXPECT_FALSE(state.over) << text;
      if (state.over) return state;
      program.apply(state, program.parse_move(state, text).move, history);
    }
  return state;
}

// The end reason after `move` from `text`, "" when the game goes on.
template <typename Program>
std::string end_after(const Program& program, const std::string& text, const std::string& move) {
  const auto state = after(program, position(program, text), move);
  return state.over ? program.end_reason(state) : "";
}

}  // namespace troyka_tests
