// Games of more piece types than the old cap of six (docs/core-design.md §6, step 6): a State keeps
// a bitboard per piece type, up to its width's cap (lang::kBitboardWidths).
// tests/data/games/menagerie.game, twelve types that step, leap, slide, jump, promote and drop, is
// checked against the reference of tests/reference.h; positions of many letters read back from their
// text with their hash; a 26x26 board, the widest bitboard, with a piece type for every letter.
// The forced-general runs of menagerie.game are in tests/general_test.cpp, which plays every file of
// tests/data/games/; the cap's error messages are in lang_test.cpp and zrf_test.cpp.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "interpreter/game.h"
#include "interpreter/perft.h"
#include "interpreter/random.h"
#include "tests/games.h"
#include "tests/reference.h"

namespace troyka {
namespace {

using troyka_tests::after;
using troyka_tests::kSlowBuild;
using troyka_tests::position;

Game menagerie() { return Game::load(std::string(TROYKA_SOURCE_DIR) + "/tests/data/games/menagerie.game"); }

// The interpreter's counts; the reference agrees to depth 4 (MenageriePerftAgreesWithTheReference).
const std::vector<std::uint64_t> kMenageriePerft = {9, 84, 950, 10938, 142793, 1892204};

TEST(ManyPieceTypes, MenageriePerftAgreesWithTheReference) {
  const Game loaded = menagerie();
  ASSERT_EQ(loaded.rules().pieces.size(), 12u);
  loaded.visit([&](const auto& program) {
    const reference::Position start = reference::start(loaded.rules());
    for (std::size_t depth = 1; depth <= kMenageriePerft.size() - (kSlowBuild ? 1 : 0); ++depth) {
      const auto d = static_cast<int>(depth);
      EXPECT_EQ(perft(program, program.initial_state(), d), kMenageriePerft[depth - 1]) << d;
      if (d <= (kSlowBuild ? 3 : 4)) {
        EXPECT_EQ(reference::perft(loaded.rules(), start, d), kMenageriePerft[depth - 1]) << d;
      }
    }
  });
}

TEST(ManyPieceTypes, MenagerieRandomGamesAgreeWithTheReference) {
  troyka_tests::expect_random_games_agree_with_reference(menagerie(), "menagerie.game", kSlowBuild ? 4 : 40, 6);
}

// The moves the random games above rely on, seen once each: two promotions into types declared
// after the promoting one, the drop of the last type, a jump that captures, and a capture of a
// high-index piece.
TEST(ManyPieceTypes, MenagerieTypesPromoteDropJumpAndAreCaptured) {
  menagerie().visit([](const auto& program) {
    // White: a pawn and a wazir one step from the far row, a hopper beside a black queen.
    const auto state = position(program, "4k1/P1W3/2Hq2/6/6/K5 White 0");
    EXPECT_EQ(program.position_text(after(program, state, "a5-a6")), "L3k1/2W3/2Hq2/6/6/K5 Black 1");
    EXPECT_EQ(program.position_text(after(program, state, "c5-c6")), "2Q1k1/P5/2Hq2/6/6/K5 Black 1");
    EXPECT_EQ(program.position_text(after(program, state, "c4xe4")), "4k1/P1W3/4H1/6/6/K5 Black 1");
    EXPECT_EQ(program.position_text(after(program, state, "b1")), "4k1/P1W3/2Hq2/6/6/KZ4 Black 1");
    const auto black = position(program, "4k1/P1W3/2Hq2/6/6/K5 Black 1");
    EXPECT_EQ(program.position_text(after(program, black, "d4xc4")), "4k1/P1W3/2q3/6/6/K5 White 2");
  });
}

// Random games of `loaded`: the text of every position reads back as that position, and the hash
// kept move by move is the one computed from the text.
void expect_positions_read_back(const Game& loaded, int rounds, std::uint32_t max_plies) {
  loaded.visit([&](const auto& program) {
    Rng rng(3);
    for (int round = 0; round < rounds; ++round) {
      auto state = program.initial_state();
      for (std::uint32_t ply = 0; ply < max_plies && !state.over; ++ply) {
        const std::string text = program.position_text(state);
        const auto parsed = program.parse_position(text);
        ASSERT_TRUE(parsed.ok()) << text << ": " << parsed.error;
        EXPECT_EQ(program.position_text(parsed.state), text);
        ASSERT_EQ(parsed.state.by_player, state.by_player) << text;
        ASSERT_EQ(parsed.state.by_piece, state.by_piece) << text;
        ASSERT_EQ(parsed.state.hash, state.hash) << text;
        program.apply(state, program.random_move(state, rng));
      }
    }
  });
}

TEST(ManyPieceTypes, MenageriePositionsReadBackWithTheirHash) {
  expect_positions_read_back(menagerie(), kSlowBuild ? 3 : 20, 80);
}

// ---- 26x26: the widest bitboard, a piece type for every letter ------------------------------------

// Each letter moves its own way (a step, a leap, a slide, by turns), every type promotes to the next
// on the far row, and Z is also dropped on the home row. Each player has one of each on its home row.
std::string alphabet_game() {
  const std::vector<std::string> moves = {
      "(step forward (to not-friend) capture)",   "(leap ((1 2) (-1 2) (2 -1)) (to not-friend) capture)",
      "(slide diagonal (to not-friend) capture)", "(slide (forward left) (to empty))",
      "(step all-directions (to enemy) capture)",
  };
  std::string text = "(game \"Alphabet\" (players (White north) (Black south)) (board (rectangle 26 26))\n";
  for (int i = 0; i < 26; ++i) {
    const char letter = static_cast<char>('A' + i);
    text += fmt::format("  (piece {}{} \"{}\" {}", letter, letter, letter,
                        moves[static_cast<std::size_t>(i) % moves.size()]);
    if (i + 1 < 26)
      text += fmt::format(" (promote {}{} far-row)", static_cast<char>(letter + 1), static_cast<char>(letter + 1));
    if (letter == 'Z') text += " (drop (in (home-rows 1)))";
    text += ")\n";
  }
  text += "  (setup";
  for (int i = 0; i < 26; ++i) {
    const char letter = static_cast<char>('A' + i), column = static_cast<char>('a' + i);
    text +=
        fmt::format(" (place White {}{} {}1) (place Black {}{} {}26)", letter, letter, column, letter, letter, column);
  }
  return text + ")\n  (end (win opponent-has-no-pieces) (draw (ply-limit 60))))\n";
}

Game alphabet() {
  return Game(
      lang::load_rules(std::make_shared<lang::SourceFile>(lang::SourceFile{"alphabet.game", alphabet_game()}), {}));
}

TEST(ManyPieceTypes, TwentySixTypesOnTheWidestBoardBuildAndPlayAsTheReference) {
  const Game loaded = alphabet();
  EXPECT_EQ(loaded.bitboard_bits(), 704);
  ASSERT_EQ(loaded.rules().pieces.size(), 26u);
  loaded.visit([&](const auto& program) {
    const reference::Position start = reference::start(loaded.rules());
    for (int depth = 1; depth <= 2; ++depth)
      EXPECT_EQ(perft(program, program.initial_state(), depth), reference::perft(loaded.rules(), start, depth))
          << depth;
  });
  troyka_tests::expect_random_games_agree_with_reference(loaded, "alphabet", kSlowBuild ? 1 : 4, 26);
}

TEST(ManyPieceTypes, TwentySixTypesOnTheWidestBoardReadBackAndHash) {
  const Game loaded = alphabet();
  expect_positions_read_back(loaded, kSlowBuild ? 1 : 4, 60);
  loaded.visit([](const auto& program) {
    // One piece on m13, of the first type or the last, for either player: four hashes.
    const auto on_m13 = [&](char letter) {
      std::string rows;
      for (int row = 26; row >= 1; --row)
        rows += (row == 13 ? "12" + std::string(1, letter) + "13" : std::string("26")) + (row > 1 ? "/" : " White 0");
      return position(program, rows);
    };
    const std::vector<std::uint64_t> hashes = {on_m13('A').hash, on_m13('Z').hash, on_m13('a').hash, on_m13('z').hash};
    for (std::size_t i = 0; i < hashes.size(); ++i)
      for (std::size_t j = i + 1; j < hashes.size(); ++j) EXPECT_NE(hashes[i], hashes[j]) << i << " " << j;
    EXPECT_EQ(on_m13('z').by_piece[25].count(), 1);
  });
}

// ---- More types than letters: codes of two or three characters ------------------------------------

// Forty types on 8x8, each a step forward with a code of its own ("T0" to "T39"); two of them are
// also dropped on the home row, so drops name the piece. White has T12 on a1 and T5 on c1, Black
// T39 on h8.
Game coded() {
  std::string text = "(game \"Codes\" (players (White north) (Black south)) (board (rectangle 8 8))\n";
  for (int i = 0; i < 40; ++i)
    text += fmt::format("  (piece T{} \"T{}\" (step forward (to empty)){})\n", i, i,
                        i == 5 || i == 7 ? " (drop (in (home-rows 1)))" : "");
  text += "  (setup (place White T12 a1) (place White T5 c1) (place Black T39 h8))\n";
  text += "  (end (win opponent-has-no-pieces) (draw (ply-limit 20))))\n";
  return Game(lang::load_rules(std::make_shared<lang::SourceFile>(lang::SourceFile{"codes.game", text}), {}));
}

// Position text writes a code of more than one letter in brackets, White's in upper case and
// Black's in lower case; the diagram gives each cell the room of the longest; drops name the piece by
// its code.
TEST(ManyPieceTypes, CodesOfSeveralCharactersNameMoreTypesThanLetters) {
  const Game loaded = coded();
  ASSERT_EQ(loaded.rules().pieces.size(), 40U);
  EXPECT_EQ(loaded.rules().pieces[39].code, "T39");
  loaded.visit([](const auto& program) {
    const auto start = program.initial_state();
    EXPECT_EQ(program.position_text(start), "7[t39]/8/8/8/8/8/8/[T12]1[T5]5 White 0");
    const std::string diagram = program.diagram(start);
    EXPECT_EQ(diagram.substr(0, diagram.find('\n')), "  8  .   .   .   .   .   .   .   t39");
    const std::size_t row1 = diagram.rfind("  1 ");
    EXPECT_EQ(diagram.substr(row1, diagram.find('\n', row1) - row1), "  1  T12 .   T5  .   .   .   .   .  ");
    const std::vector<std::string> moves = troyka_tests::move_texts(program, start);
    EXPECT_EQ(moves.size(), 2U + 2U * 6U);  // two steps; T5 and T7 on the six empty cells of row 1
    EXPECT_TRUE(std::find(moves.begin(), moves.end(), "T7@b1") != moves.end());
    EXPECT_EQ(program.position_text(troyka_tests::after(program, start, "T7@b1")),
              "7[t39]/8/8/8/8/8/8/[T12][T7][T5]5 Black 1");
    EXPECT_EQ(program.position_text(troyka_tests::after(program, start, "a1-a2")),
              "7[t39]/8/8/8/8/8/[T12]7/2[T5]5 Black 1");
    const auto error = [&](const std::string& text) { return program.parse_position(text).error; };
    EXPECT_EQ(error("7[t40]/8/8/8/8/8/8/8 White 0"), "'t40' is not a piece of this game");
    EXPECT_EQ(error("7[T39/8/8/8/8/8/8/8 White 0"), "'[T39' opens a piece's code that no ']' closes in row 8");
    EXPECT_EQ(program.parse_position("7t/8/8/8/8/8/8/8 White 0").error, "'t' is not a piece of this game");
  });
  expect_positions_read_back(loaded, 4, 20);
}

}  // namespace
}  // namespace troyka
