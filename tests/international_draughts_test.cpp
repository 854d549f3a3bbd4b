// games/international-draughts.game: perft against the published counts and the plain reference
// of tests/reference_draughts.h, random games compared with it position by position, hand-made
// positions for the rules easy to get wrong (the majority rule, the flying king's long capture,
// the Turkish strike, promotion only where a move ends, the man's backward capture, the draw), the
// errors of (prefer (most captures)), and a match of MCTS against random.
#include <gtest/gtest.h>

#include <cstdint>
#include <fstream>
#include <iterator>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "interpreter/game.h"
#include "interpreter/perft.h"
#include "lang/rules.h"
#include "tests/games.h"
#include "tests/reference_draughts.h"
#include "tests/run_troyka.h"

namespace troyka {
namespace {

using troyka_tests::after;
using troyka_tests::game;
using troyka_tests::kSlowBuild;
using troyka_tests::move_texts;
using troyka_tests::position;

namespace draughts = reference_draughts;

const char* const kFile = "international-draughts.game";

// A position's text from its pieces by cell name ({"a1", 'M'}), then `rest` (the player to move,
// the ply and the quiet plies).
std::string board(const std::map<std::string, char>& pieces, const std::string& rest) {
  return reference_text::board_text(draughts::kSize, draughts::kSize, '.',
                                    [&](int column, int row) {
                                      const std::string name{static_cast<char>('a' + column)};
                                      const auto found = pieces.find(name + std::to_string(row + 1));
                                      return found == pieces.end() ? '.' : found->second;
                                    }) +
         " " + rest;
}

// Aart Bik, "BikDam: international checkers" (aartbik.blogspot.com, label perft), which removes
// duplicate captures as troyka does: 9, 81, 658, 4265, 27117, 167140, 1049442, 6483961, 41022423.
const std::vector<std::uint64_t> kPublished = {9, 81, 658, 4265, 27117};

TEST(InternationalDraughts, PerftMatchesThePublishedCounts) {
  game(kFile).visit([](const auto& program) {
    const auto start = program.initial_state();
    EXPECT_EQ(program.position_text(start), draughts::text(draughts::start()));
    troyka_tests::expect_start_perft(program, kPublished, kPublished.size() - (kSlowBuild ? 2 : 0),
                                     [](int depth) { return draughts::perft(draughts::start(), depth); });
  });
}

TEST(InternationalDraughts, RandomGamesAgreeWithTheReference) {
  troyka_tests::expect_random_games_agree_with_plain_reference(
      game(kFile),
      troyka_tests::PlainReference<draughts::Position>{draughts::start(), draughts::successors, draughts::winner,
                                                       draughts::text, draughts::kOngoing},
      kFile, kSlowBuild ? 1 : 4, 21);
}

TEST(InternationalDraughts, TheCaptureOfTheMostPiecesIsCompulsory) {
  game(kFile).visit([](const auto& program) {
    // The man on c3 takes one piece; the man on g3 takes two (h4, then h6): only g3's is legal.
    const auto state = position(
        program, board({{"c3", 'M'}, {"d4", 'm'}, {"g3", 'M'}, {"h4", 'm'}, {"h6", 'm'}, {"a9", 'k'}}, "White 30 0"));
    EXPECT_EQ(move_texts(program, state), (std::vector<std::string>{"g3xi5xg7"}));
    EXPECT_EQ(program.parse_move(state, "c3xe5").error,
              "c3xe5 is not a legal move for White; capturing the most pieces is compulsory: White must play "
              "g3xi5xg7");
    // A king counts as one piece: two men outweigh one king.
    const auto kings = position(
        program, board({{"c3", 'M'}, {"d4", 'k'}, {"g3", 'M'}, {"h4", 'm'}, {"h6", 'm'}, {"a9", 'k'}}, "White 30 0"));
    EXPECT_EQ(move_texts(program, kings), (std::vector<std::string>{"g3xi5xg7"}));
  });
}

// The majority rule is a game's, not the general back end's: English draughts with it, whose
// chains run on the fast path, keeps the longest chain only.
TEST(InternationalDraughts, TheMajorityRuleAlsoCountsTheFastPathsChains) {
  std::ifstream in(std::string(TROYKA_SOURCE_DIR) + "/games/english-draughts.game");
  std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  text.replace(text.find("(must-capture)"), std::string("(must-capture)").size(), "(prefer (most captures))");
  const Game majority(
      lang::load_rules(std::make_shared<lang::SourceFile>(lang::SourceFile{"majority.game", text}), {}));
  majority.visit([](const auto& program) {
    // White's c1 takes three men in a chain, g5 one.
    const auto state = position(program, "7M/8/3M1M2/6m1/3M4/8/3M4/2m5 White 10 4");
    EXPECT_EQ(move_texts(program, state), (std::vector<std::string>{"c1xe3xc5xe7"}));
  });
  game("english-draughts.game").visit([](const auto& program) {
    EXPECT_EQ(move_texts(program, position(program, "7M/8/3M1M2/6m1/3M4/8/3M4/2m5 White 10 4")),
              (std::vector<std::string>{"c1xe3xc5xe7", "g5xe7"}));
  });
}

// The tie-break (most captures King) on the fast path's jumps: of two captures of one piece each,
// the one that takes the king (a3 over b4) is the only move; without it, both are.
TEST(InternationalDraughts, TheKingsTieBreakAlsoCountsTheFastPathsJumps) {
  std::ifstream in(std::string(TROYKA_SOURCE_DIR) + "/games/english-draughts.game");
  std::string text{std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  text.replace(text.find("(must-capture)"), std::string("(must-capture)").size(),
               "(prefer (most captures) (most captures King))");
  const std::string start = "8/8/8/8/1K6/m7/3M4/2m5 White 10 4";
  const Game kings(lang::load_rules(std::make_shared<lang::SourceFile>(lang::SourceFile{"kings.game", text}), {}));
  kings.visit([&](const auto& program) {
    EXPECT_EQ(move_texts(program, position(program, start)), (std::vector<std::string>{"a3xc5"}));
  });
  game("english-draughts.game").visit([&](const auto& program) {
    EXPECT_EQ(move_texts(program, position(program, start)), (std::vector<std::string>{"a3xc5", "c1xe3"}));
  });
}

TEST(InternationalDraughts, AFlyingKingCapturesFromAfarAndLandsAnywhereBeyond) {
  game(kFile).visit([](const auto& program) {
    // The king on a1 takes e5 from four cells away and may stop on f6, g7, h8 or i9 (j10 holds a man).
    const auto state = position(program, board({{"a1", 'K'}, {"e5", 'm'}, {"j10", 'm'}}, "White 40 0"));
    EXPECT_EQ(move_texts(program, state), (std::vector<std::string>{"a1xf6", "a1xg7", "a1xh8", "a1xi9"}));
    EXPECT_EQ(program.position_text(after(program, state, "a1xh8")), board({{"h8", 'K'}, {"j10", 'm'}}, "Black 41 0"));
    // Where a landing lets it go on, the sequence that takes more is the only move: from f6 it takes
    // g5 and stops on any cell beyond.
    const auto longer = position(program, board({{"a1", 'K'}, {"e5", 'm'}, {"g5", 'm'}, {"j10", 'm'}}, "White 40 0"));
    EXPECT_EQ(move_texts(program, longer), (std::vector<std::string>{"a1xf6xh4", "a1xf6xi3", "a1xf6xj2"}));
  });
}

TEST(InternationalDraughts, TheTurkishStrikeJumpsNoPieceTwice) {
  game(kFile).visit([](const auto& program) {
    // Round the four men and back to c1, its own cell, which counts as empty; d2, taken first, stays
    // on the board to the end of the move and may not be jumped again. Both ways round take the same
    // men to the same cell: one move.
    const auto state = position(
        program, board({{"c1", 'M'}, {"d2", 'm'}, {"d4", 'm'}, {"b4", 'm'}, {"b2", 'm'}, {"j10", 'k'}}, "White 20 0"));
    const std::vector<std::string> moves = move_texts(program, state);
    ASSERT_EQ(moves.size(), 1u);
    EXPECT_EQ(program.position_text(after(program, state, moves.front())),
              board({{"c1", 'M'}, {"j10", 'k'}}, "Black 21 0"));
  });
}

TEST(InternationalDraughts, CapturedPiecesBlockUntilTheMoveEnds) {
  game(kFile).visit([](const auto& program) {
    // The king takes d4, d8 and f8; from g7, c3 would be a fourth along the long diagonal, but d4,
    // taken, still stands in the way: three pieces, with any of the four landings beyond f8.
    const auto state =
        position(program, board({{"g1", 'K'}, {"d4", 'm'}, {"d8", 'm'}, {"f8", 'm'}, {"c3", 'm'}}, "White 40 0"));
    EXPECT_EQ(move_texts(program, state),
              (std::vector<std::string>{"g1xb6xe9xg7", "g1xb6xe9xh6", "g1xb6xe9xi5", "g1xb6xe9xj4"}));
    EXPECT_EQ(program.position_text(after(program, state, "g1xb6xe9xg7")),
              board({{"g7", 'K'}, {"c3", 'm'}}, "Black 41 0"));
  });
}

TEST(InternationalDraughts, AManIsCrownedOnlyWhereItsMoveEnds) {
  game(kFile).visit([](const auto& program) {
    // Over c9 onto the far row at d10, then back over e9 to f8: still a man.
    const auto passing = position(program, board({{"b8", 'M'}, {"c9", 'm'}, {"e9", 'm'}, {"a1", 'k'}}, "White 50 0"));
    EXPECT_EQ(move_texts(program, passing), (std::vector<std::string>{"b8xd10xf8"}));
    EXPECT_EQ(program.position_text(after(program, passing, "b8xd10xf8")),
              board({{"f8", 'M'}, {"a1", 'k'}}, "Black 51 0"));
    // Ending on the far row crowns it.
    const auto ending = position(program, board({{"b8", 'M'}, {"c9", 'm'}, {"a1", 'k'}}, "White 50 0"));
    EXPECT_EQ(program.position_text(after(program, ending, "b8xd10")),
              board({{"d10", 'K'}, {"a1", 'k'}}, "Black 51 0"));
  });
}

TEST(InternationalDraughts, AManCapturesBackwardButStepsOnlyForward) {
  game(kFile).visit([](const auto& program) {
    EXPECT_EQ(move_texts(program, position(program, board({{"e5", 'M'}, {"d4", 'm'}, {"a9", 'k'}}, "White 20 0"))),
              (std::vector<std::string>{"e5xc3"}));
    EXPECT_EQ(move_texts(program, position(program, board({{"e5", 'M'}, {"d6", 'M'}, {"a9", 'k'}}, "White 20 0"))),
              (std::vector<std::string>{"d6-c7", "d6-e7", "e5-f6"}));
  });
}

TEST(InternationalDraughts, FiftyPliesOfKingMovesDraw) {
  game(kFile).visit([](const auto& program) {
    const auto drawn = after(program, position(program, board({{"a1", 'K'}, {"j10", 'k'}}, "White 80 49")), "a1-b2");
    EXPECT_TRUE(drawn.over);
    EXPECT_EQ(drawn.winner, kDraw);
    EXPECT_EQ(program.end_reason(drawn), "draw by (quiet-moves 50 Man)");
  });
}

TEST(InternationalDraughts, MctsBeatsRandomInAMatch) {
  troyka_tests::expect_first_agent_scores(std::string("match games/") + kFile + " --games 2 --agents mcts:iterations=" +
                                              (kSlowBuild ? "10" : "20") + " random --json",
                                          1.5);
}

}  // namespace
}  // namespace troyka
