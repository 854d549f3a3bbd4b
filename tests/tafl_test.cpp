// games/tablut.game and games/brandubh.game: perft and random games against the plain reference of
// tests/reference_tafl.h, hand-made positions for the rules easy to get wrong (captures against the
// empty throne and a corner, the king taken on, beside and away from the throne, the safe move
// between two enemies, the unarmed and the armed king, the throne passed over but not stopped on,
// the escapes), and a match of MCTS against random.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <string>
#include <vector>

#include "interpreter/game.h"
#include "interpreter/perft.h"
#include "tests/games.h"
#include "tests/reference_tafl.h"
#include "tests/run_troyka.h"

namespace troyka {
namespace {

using troyka_tests::after;
using troyka_tests::after_move;
using troyka_tests::end_after;
using troyka_tests::game;
using troyka_tests::kSlowBuild;
using troyka_tests::move_texts;
using troyka_tests::position;

namespace tafl = reference_tafl;

struct TaflGame {
  const char* file;
  const tafl::Rules& rules;
  std::vector<std::uint64_t> nodes;  // perft(1), perft(2), ...
};

// Deeper counts, from troyka perft and the reference alike, are in docs/games.md.
const std::vector<TaflGame> kTaflGames = {
    {"tablut.game", tafl::kTablut, {80, 4400, 353200}},
    {"brandubh.game", tafl::kBrandubh, {40, 960, 39512}},
};

TEST(Tafl, PerftAgreesWithTheReference) {
  for (const TaflGame& test : kTaflGames) {
    game(test.file).visit([&](const auto& program) {
      const std::size_t depths = test.nodes.size() - (kSlowBuild ? 1 : 0);
      for (std::size_t depth = 1; depth <= depths; ++depth) {
        const auto d = static_cast<int>(depth);
        EXPECT_EQ(perft(program, program.initial_state(), d), test.nodes[depth - 1]) << test.file << " depth " << d;
        EXPECT_EQ(tafl::perft(tafl::start(test.rules), d), test.nodes[depth - 1])
            << test.file << " depth " << d << " (reference)";
      }
    });
  }
}

TEST(Tafl, RandomGamesAgreeWithTheReference) {
  for (const TaflGame& test : kTaflGames) {
    troyka_tests::expect_random_games_agree_with_plain_reference(
        game(test.file),
        troyka_tests::PlainReference<tafl::Position>{tafl::start(test.rules), tafl::successors, tafl::winner,
                                                     tafl::text, tafl::kOngoing},
        test.file, kSlowBuild ? 1 : 20, 15);
  }
}

TEST(Tablut, ASoldierIsCapturedAgainstTheEmptyThrone) {
  game("tablut.game").visit([](const auto& program) {
    // Black closes e6 against the throne e5, and White closes d5 against it from the other side.
    EXPECT_EQ(after_move(program, "9/9/S8/4s4/9/9/9/1k7/9 Black 0", "a7-e7"), "9/9/4S4/9/9/9/9/1k7/9 White 1");
    EXPECT_EQ(after_move(program, "2s5S/9/9/9/3S5/9/9/1k7/9 White 0", "c9-c5"), "8S/9/9/9/2s6/9/9/1k7/9 Black 1");
    // The throne the king sits on is not hostile: only the empty throne captures.
    EXPECT_EQ(after_move(program, "9/9/S8/4s4/4k4/9/9/9/9 Black 0", "a7-e7"), "9/9/4S4/4s4/4k4/9/9/9/9 White 1");
  });
}

TEST(Tablut, TheKingDoesNotTakePartInCaptures) {
  game("tablut.game").visit([](const auto& program) {
    // The Swede on e3 and the king on c3 hold d3 between them, which stays (the Swede passed over
    // the empty throne on its way).
    EXPECT_EQ(after_move(program, "4s4/9/9/9/9/9/2kS5/9/9 White 0", "e9-e3"), "9/9/9/9/9/9/2kSs4/9/9 Black 1");
    // Nor does his own move close one.
    EXPECT_EQ(after_move(program, "9/9/9/9/9/9/1k1Ss4/9/9 White 0", "b3-c3"), "9/9/9/9/9/9/2kSs4/9/9 Black 1");
  });
}

TEST(Tablut, APieceMayMoveBetweenTwoEnemiesSafely) {
  game("tablut.game").visit([](const auto& program) {
    EXPECT_EQ(after_move(program, "3s5/9/7k1/9/9/9/2S1S4/9/9 White 0", "d9-d3"), "9/9/7k1/9/9/9/2SsS4/9/9 Black 1");
    // The king too, away from the throne.
    EXPECT_EQ(after_move(program, "9/9/9/9/9/9/2S1S4/3k5/9 White 0", "d2-d3"), "9/9/9/9/9/9/2SkS4/9/9 Black 1");
  });
}

TEST(Tablut, TheKingOnTheThroneFallsToFourAttackers) {
  game("tablut.game").visit([](const auto& program) {
    EXPECT_EQ(end_after(program, "9/9/9/4S4/3SkS3/S8/9/9/9 Black 0", "a4-e4"), "White loses by (lost King)");
    // A Swede on one side saves him, and two attackers on opposite sides are not enough there.
    EXPECT_EQ(after_move(program, "9/9/9/4S4/3skS3/S8/9/9/9 Black 0", "a4-e4"), "9/9/9/4S4/3skS3/4S4/9/9/9 White 1");
    EXPECT_EQ(after_move(program, "9/9/9/9/3Sk4/9/9/9/5S3 Black 0", "f1-f5"), "9/9/9/9/3SkS3/9/9/9/9 White 1");
  });
}

TEST(Tablut, TheKingBesideTheThroneFallsToThreeAttackers) {
  game("tablut.game").visit([](const auto& program) {
    // The king on e4: attackers on d4, e3 and now f4, the empty throne on e5.
    EXPECT_EQ(end_after(program, "9/9/9/9/9/3Sk3S/4S4/9/9 Black 0", "i4-f4"), "White loses by (lost King)");
    // Two on opposite sides are not enough beside the throne.
    EXPECT_EQ(after_move(program, "9/9/9/9/9/3Sk3S/9/9/9 Black 0", "i4-f4"), "9/9/9/9/9/3SkS3/9/9/9 White 1");
  });
}

TEST(Tablut, TheKingAwayFromTheThroneFallsToTwoAttackers) {
  game("tablut.game").visit([](const auto& program) {
    EXPECT_EQ(end_after(program, "3S5/9/9/9/9/9/1Sk6/9/9 Black 0", "d9-d3"), "White loses by (lost King)");
  });
}

TEST(Tablut, TheKingWinsOnAnyEdgeSquare) {
  game("tablut.game").visit([](const auto& program) {
    EXPECT_EQ(end_after(program, "9/9/9/9/9/9/2k6/9/8S White 0", "c3-c1"), "White wins by (reach King edges)");
    EXPECT_EQ(end_after(program, "9/9/9/9/9/9/2k6/9/8S White 0", "c3-a3"), "White wins by (reach King edges)");
  });
}

TEST(Tablut, OnlyTheKingStopsOnTheThroneAndAnyPiecePassesOverIt) {
  game("tablut.game").visit([](const auto& program) {
    EXPECT_EQ(move_texts(program, position(program, "9/1k7/9/9/3S5/9/9/9/9 Black 0")),
              (std::vector<std::string>{"d5-a5", "d5-b5", "d5-c5", "d5-d1", "d5-d2", "d5-d3", "d5-d4", "d5-d6", "d5-d7",
                                        "d5-d8", "d5-d9", "d5-f5", "d5-g5", "d5-h5", "d5-i5"}));
    const auto king = move_texts(program, position(program, "9/9/9/9/2k6/9/9/9/S8 White 0"));
    EXPECT_NE(std::find(king.begin(), king.end(), "c5-e5"), king.end());
  });
}

TEST(Brandubh, TheKingTakesPartInCaptures) {
  game("brandubh.game").visit([](const auto& program) {
    EXPECT_EQ(after_move(program, "7/1k3S1/7/7/2Ss3/7/7 White 0", "b6-b3"), "7/5S1/7/7/1k1s3/7/7 Black 1");
  });
}

TEST(Brandubh, TheCornersAreHostileToSoldiersAndTheKing) {
  game("brandubh.game").visit([](const auto& program) {
    EXPECT_EQ(after_move(program, "7/5k1/7/7/2S4/s6/7 Black 0", "c3-a3"), "7/5k1/7/7/S6/7/7 White 1");
    EXPECT_EQ(end_after(program, "7/7/7/7/7/7/1k3S1 Black 0", "f1-c1"), "White loses by (lost King)");
  });
}

TEST(Brandubh, TheKingBesideTheThroneFallsToThreeAttackers) {
  game("brandubh.game").visit([](const auto& program) {
    // The king on d3: two attackers on opposite sides are not enough; a third on d2, with the empty
    // throne on d4, takes him.
    EXPECT_EQ(after_move(program, "7/7/7/7/2Sk2S/7/7 Black 0", "g3-e3"), "7/7/7/7/2SkS2/7/7 White 1");
    EXPECT_EQ(end_after(program, "7/7/7/7/2SkS2/S6/7 Black 0", "a2-d2"), "White loses by (lost King)");
  });
}

TEST(Brandubh, OnlyTheKingStopsOnACornerAndNoneOnTheThrone) {
  game("brandubh.game").visit([](const auto& program) {
    EXPECT_EQ(move_texts(program, position(program, "7/5k1/7/7/7/7/1S5 Black 0")),
              (std::vector<std::string>{"b1-b2", "b1-b3", "b1-b4", "b1-b5", "b1-b6", "b1-b7", "b1-c1", "b1-d1", "b1-e1",
                                        "b1-f1"}));
    EXPECT_EQ(move_texts(program, position(program, "7/7/7/1k5/7/6S/7 White 0")),
              (std::vector<std::string>{"b4-a4", "b4-b1", "b4-b2", "b4-b3", "b4-b5", "b4-b6", "b4-b7", "b4-c4", "b4-e4",
                                        "b4-f4", "b4-g4"}));
  });
}

TEST(Brandubh, TheKingWinsOnACornerOnly) {
  game("brandubh.game").visit([](const auto& program) {
    EXPECT_EQ(end_after(program, "7/7/7/7/7/k6/5S1 White 0", "a2-a5"), "");
    EXPECT_EQ(end_after(program, "7/7/7/7/7/k6/5S1 White 0", "a2-a1"), "White wins by (reach King corners)");
  });
}

// Brandubh, where random games end in about 85 plies (a sixth of them drawn at the 150-ply limit),
// with 30 playouts a move and no decisive-move tests in them: a win by (lost King) is found only by
// trying each move on a copy, which makes such playouts several times slower (docs/agents.md). So
// few playouts lose a game now and then (20 a move scored 1 of 2): four games, three to win.
TEST(Brandubh, MctsBeatsRandomInAMatch) {
  troyka_tests::expect_first_agent_scores(
      "match games/brandubh.game --games 4 --agents mcts:iterations=30,decisive=off random --json", 3.0);
}

}  // namespace
}  // namespace troyka
