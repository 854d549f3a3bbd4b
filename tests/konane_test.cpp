// games/konane.game: perft and random games against the plain reference of
// tests/reference_konane.h, hand-made positions for the opening removals and for jumps that go on
// straight and may stop, the end, and a match of MCTS against random.
#include <gtest/gtest.h>

#include <cstdint>
#include <string>
#include <utility>
#include <vector>

#include "interpreter/game.h"
#include "interpreter/perft.h"
#include "tests/games.h"
#include "tests/reference_konane.h"
#include "tests/run_troyka.h"

namespace troyka {
namespace {

using troyka_tests::game;
using troyka_tests::kSlowBuild;
using troyka_tests::move_texts;
using troyka_tests::position;

namespace konane = reference_konane;

Game konane_game(int width, int height) {
  return game("konane.game", {{"width", std::to_string(width)}, {"height", std::to_string(height)}});
}

// The board part of a position's text, before the player to move.
std::string board_of(const std::string& position_text) { return position_text.substr(0, position_text.find(' ')); }

struct KonanePerft {
  int width;
  int height;
  std::vector<std::uint64_t> nodes;  // perft(1), perft(2), ...
  int reference_depth;
};

// 4x4 is played out to the end: no game there lasts 16 plies.
const std::vector<KonanePerft> kKonanePerft = {
    {8, 8, {4, 12, 28, 172, 892, 7124, 52044, 508088}, 7},
    {6, 6, {4, 12, 28, 156, 668, 4192, 22676, 162288}, 7},
    {5, 5, {5, 12, 20, 88, 328, 1560, 6544, 33240, 144344}, 8},
    {4, 4, {4, 12, 16, 52, 120, 376, 972, 2808, 6124, 13040, 20356, 24172, 17244, 8652, 1248, 0}, 16},
};

TEST(Konane, PerftAgreesWithTheReference) {
  for (const KonanePerft& test : kKonanePerft) {
    konane_game(test.width, test.height).visit([&](const auto& program) {
      const konane::Position start = konane::start(test.width, test.height);
      const int cut = kSlowBuild ? 2 : 0;
      for (std::size_t depth = 1; depth + cut <= test.nodes.size(); ++depth) {
        const auto d = static_cast<int>(depth);
        EXPECT_EQ(perft(program, program.initial_state(), d), test.nodes[depth - 1])
            << test.width << "x" << test.height << " depth " << d;
        if (d + cut <= test.reference_depth) {
          EXPECT_EQ(konane::perft(start, d), test.nodes[depth - 1])
              << test.width << "x" << test.height << " depth " << d << " (reference)";
        }
      }
    });
  }
}

// Every position of random games has the reference's text, moves (compared by the positions they
// leave) and end: a player without a jump has lost.
TEST(Konane, RandomGamesAgreeWithTheReference) {
  const auto text = [](const konane::Position& position) {
    return konane::board_text(position) + (position.to_move == 0 ? " Black " : " White ") +
           std::to_string(position.ply);
  };
  constexpr int kOngoing = -1;
  const auto winner = [](const konane::Position& position) {
    return konane::successors(position).empty() ? 1 - position.to_move : kOngoing;
  };
  for (const auto& [width, height] : std::vector<std::pair<int, int>>{{8, 8}, {6, 6}, {5, 5}, {7, 4}, {10, 10}})
    troyka_tests::expect_random_games_agree_with_plain_reference(
        konane_game(width, height),
        troyka_tests::PlainReference<konane::Position>{konane::start(width, height), konane::successors, winner, text,
                                                       kOngoing},
        "Konane " + std::to_string(width) + "x" + std::to_string(height), kSlowBuild ? 3 : 20, 7);
}

TEST(Konane, BlackOpensByTakingOffAStoneFromTheMiddleOrACorner) {
  konane_game(8, 8).visit([](const auto& program) {
    EXPECT_EQ(move_texts(program, program.initial_state()), (std::vector<std::string>{"xa1", "xd4", "xe5", "xh8"}));
  });
  // On an odd side the middle is the centre cell alone: c3, then the four corners, all Black's.
  konane_game(5, 5).visit([](const auto& program) {
    EXPECT_EQ(move_texts(program, program.initial_state()),
              (std::vector<std::string>{"xa1", "xa5", "xc3", "xe1", "xe5"}));
  });
}

TEST(Konane, WhiteThenTakesOffANeighbourOfTheHoleAndNoOneJumpsYet) {
  konane_game(8, 8).visit([](const auto& program) {
    auto state = troyka_tests::after(program, program.initial_state(), "xd4");
    // b4xd4, d2xd4 and d6xd4 would jump into the hole: not in the opening.
    EXPECT_EQ(move_texts(program, state), (std::vector<std::string>{"xc4", "xd3", "xd5", "xe4"}));
    state = troyka_tests::after(program, program.initial_state(), "xa1");
    EXPECT_EQ(move_texts(program, state), (std::vector<std::string>{"xa2", "xb1"}));
    // From the third ply on, every move is a jump.
    state = troyka_tests::after(program, state, "xb1");
    EXPECT_EQ(move_texts(program, state), (std::vector<std::string>{"a3xa1"}));
  });
}

TEST(Konane, AStoneJumpsOnStraightAndMayStopButNeverTurns) {
  konane_game(6, 6).visit([](const auto& program) {
    // Black's a1 can jump a2 and a4 going north; from a3 it could also jump b3 east, but that would be
    // a turn.
    const auto state = position(program, "6/6/s5/1s4/ss4/S5 Black 4");
    EXPECT_EQ(move_texts(program, state), (std::vector<std::string>{"a1xa3", "a1xa3xa5"}));
    const auto jumped = troyka_tests::after(program, state, "a1xa5");
    EXPECT_EQ(board_of(program.position_text(jumped)), "6/S5/6/1s4/1s4/6");
  });
}

TEST(Konane, ThePlayerWhoCannotJumpLoses) {
  konane_game(6, 6).visit([](const auto& program) {
    // Black jumps c3, the one White stone that could jump; White, to move, has no jump and loses.
    auto state = position(program, "6/6/6/2sS2/6/s1S3 Black 8");
    ASSERT_FALSE(state.over);
    state = troyka_tests::after(program, state, "d3xb3");
    EXPECT_TRUE(state.over);
    EXPECT_EQ(state.winner, 0);  // Black
  });
}

// On 6x6, whose games are short enough for the sanitizer builds (docs/games.md has 8x8's match).
TEST(Konane, MctsBeatsRandomInAMatch) {
  troyka_tests::expect_first_agent_scores(
      "match games/konane.game --variant 6x6 --games 4 --agents mcts:iterations=300 random --json", 3.0);
}

}  // namespace
}  // namespace troyka
