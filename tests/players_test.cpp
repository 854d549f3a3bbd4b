// Games of 1 to lang::kMaxPlayers players (issue 14): what the checker reads from (players ...),
// and how the interpreter and the tools refuse a game of other than two players, which they do not
// play yet.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "interpreter/game.h"
#include "lang/diagnostic.h"
#include "lang/rules.h"
#include "tests/run_troyka.h"

namespace {

using troyka::lang::CellList;
using troyka::lang::EndKind;
using troyka::lang::Error;
using troyka::lang::Offset;
using troyka::lang::Rules;
using troyka::lang::SourceFile;

const std::vector<std::string> kFacings = {"north", "east", "south", "west"};
const std::vector<Offset> kForwards = {{0, 1}, {1, 0}, {0, -1}, {-1, 0}};

// A game of `count` players P1, P2, ... facing north, east, south, west in turn, on a 10x10 board.
std::string game_of_players(int count) {
  std::string players;
  for (int p = 0; p < count; ++p) players += fmt::format(" (P{} {})", p + 1, kFacings[static_cast<std::size_t>(p % 4)]);
  return fmt::format(R"((game "Many"
  (players{})
  (board (rectangle 10 10))
  (piece Pawn "P" (step forward (to empty)))
  (setup (place P1 Pawn e5))
  (end (win (reach Pawn far-row)) (lose (reach Pawn (row 1)))))
)",
                     players);
}

std::string text_of(const std::string& path) {
  std::ifstream file(path);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

// A game of tests/data/games, read as a file of that name.
Rules load_test_game(const std::string& name) {
  const std::string text = text_of(std::string(TROYKA_SOURCE_DIR) + "/tests/data/games/" + name);
  return troyka::lang::load_rules(std::make_shared<SourceFile>(SourceFile{name, text}), {});
}

std::string error_of(const std::string& text) {
  try {
    troyka::lang::load_rules(std::make_shared<SourceFile>(SourceFile{"test.game", text}), {});
  } catch (const Error& error) {
    return render(error.diagnostic());
  }
  ADD_FAILURE() << "loaded without an error";
  return {};
}

// The cells of a player's pawns at the start.
CellList setup_of(const Rules& rules, int player) {
  CellList cells;
  for (const troyka::lang::Placement& placed : rules.setup)
    if (placed.player == player) cells.push_back(placed.cell);
  return cells;
}

// The cells of `columns` (0-based, inclusive) on rows first..last (0-based) of a board `width` wide.
CellList block(int first_column, int last_column, int first_row, int last_row, int width) {
  CellList cells;
  for (int row = first_row; row <= last_row; ++row)
    for (int column = first_column; column <= last_column; ++column) cells.push_back(row * width + column);
  return cells;
}

TEST(Players, OneToEightPlayersEachMoveAlongTheirOwnFacing) {
  for (int count = 1; count <= troyka::lang::kMaxPlayers; ++count) {
    const Rules rules =
        troyka::lang::load_rules(std::make_shared<SourceFile>(SourceFile{"many.game", game_of_players(count)}), {});
    ASSERT_EQ(rules.player_count(), count);
    for (int p = 0; p < count; ++p) {
      const auto player = static_cast<std::size_t>(p);
      EXPECT_EQ(rules.players[player].name, fmt::format("P{}", p + 1));
      EXPECT_EQ(rules.players[player].facing, kFacings[player % 4]);
      EXPECT_EQ(rules.pieces[0].moves[0].offsets[player], std::vector<Offset>{kForwards[player % 4]}) << count;
      // Each player's far row is the edge its forward points at: ten cells.
      const CellList& far = rules.end[0].region[player];
      ASSERT_EQ(far.size(), 10U) << count;
      const Offset forward = kForwards[player % 4];
      const int edge = forward.dx + forward.dy > 0 ? 9 : 0;
      for (const int cell : far) EXPECT_EQ(forward.dy != 0 ? cell / 10 : cell % 10, edge) << count;
      // A region that is not seen from a side is the same for every player.
      EXPECT_EQ(rules.end[1].region[player], block(0, 9, 0, 0, 10)) << count;
    }
  }
}

TEST(Players, AGameNeedsAPlayer) {
  EXPECT_EQ(error_of(game_of_players(0)), R"(test.game:2:3: error: a game needs at least one player
 2 |   (players)
   |   ^
hint: usage: (players (NAME FACING)...): 1 to 8 players in turn order, with FACING one of north, south, east, west
)");
}

TEST(Players, TheNinthPlayerIsOneTooMany) {
  EXPECT_EQ(error_of(game_of_players(9)), R"(test.game:2:96: error: a game has at most 8 players, this one lists 9
 2 | ...4 west) (P5 north) (P6 east) (P7 south) (P8 west) (P9 north))
   |                                                      ^
hint: usage: (players (NAME FACING)...): 1 to 8 players in turn order, with FACING one of north, south, east, west
)");
}

TEST(Players, EveryPlayerNeedsANameOfItsOwn) {
  std::string text = game_of_players(3);
  text.replace(text.find("P3"), 2, "P1");
  EXPECT_EQ(error_of(text), R"(test.game:2:34: error: two players are called 'P1'
 2 |   (players (P1 north) (P2 east) (P1 south))
   |                                  ^~
hint: each player needs a name of its own
)");
}

TEST(Players, BreakthroughForFourStartsOnFourEdgesWithoutTheCorners) {
  const Rules rules = load_test_game("breakthrough-4-players.game");
  ASSERT_EQ(rules.player_count(), 4);
  EXPECT_EQ(rules.width, 10);
  EXPECT_EQ(rules.height, 10);
  EXPECT_EQ(setup_of(rules, 0), block(2, 7, 0, 1, 10));  // White: c1..h2
  EXPECT_EQ(setup_of(rules, 1), block(0, 1, 2, 7, 10));  // Red: a3..b8
  EXPECT_EQ(setup_of(rules, 2), block(2, 7, 8, 9, 10));  // Black: c9..h10
  EXPECT_EQ(setup_of(rules, 3), block(8, 9, 2, 7, 10));  // Blue: i3..j8
  ASSERT_EQ(rules.end[0].kind, EndKind::Reach);
  EXPECT_EQ(rules.end[0].region[1], block(9, 9, 0, 9, 10));  // Red's far row: column j
  EXPECT_EQ(rules.end[0].region[3], block(0, 0, 0, 9, 10));  // Blue's: column a
  // Red, facing east, steps east, north-east (its forward-left) and south-east.
  EXPECT_EQ(rules.pieces[0].moves[0].offsets[1], (std::vector<Offset>{{1, 0}, {1, 1}, {1, -1}}));
}

TEST(Players, BreakthroughForThreeLeavesTheEastEdgeEmpty) {
  const Rules rules = load_test_game("breakthrough-3-players.game");
  ASSERT_EQ(rules.player_count(), 3);
  EXPECT_EQ(rules.players[1].name, "Red");
  EXPECT_EQ(rules.setup.size(), 36U);
  EXPECT_EQ(setup_of(rules, 1), block(0, 1, 2, 7, 10));
}

TEST(Players, TheInterpreterRefusesAGameOfOtherThanTwoPlayers) {
  try {
    const troyka::Game game(load_test_game("breakthrough-3-players.game"));
    ADD_FAILURE() << "compiled a three-player game";
  } catch (const Error& error) {
    EXPECT_EQ(
        render(error.diagnostic()),
        R"(breakthrough-3-players.game:23:37: error: this game has 3 players: troyka plays two-player games only so far
 23 |   (players (White north) (Red east) (Black south))
    |                                     ^
hint: the language takes 1 to 8 players, but the interpreter, the agents and the tools play two; list two to play the game
)");
  }
}

// `check` and `show --core` read the rules; every command that plays refuses, the referee before it binds.
TEST(Players, CheckAndShowCoreReadAFourPlayerGameAndTheOtherCommandsRefuseIt) {
  const std::string file = "tests/data/games/breakthrough-4-players.game";
  const troyka_tests::Outcome check = troyka_tests::run_troyka("check " + file);
  EXPECT_EQ(check.status, 0) << check.err;
  EXPECT_EQ(check.out, file + ": ok (Breakthrough for four players, 10x10 board, 1 piece type, 2 end rules)\n" +
                           "note: 4 players: troyka plays two-player games only so far, so the other commands refuse "
                           "it\n");
  const troyka_tests::Outcome core = troyka_tests::run_troyka("show --core " + file);
  EXPECT_EQ(core.status, 0) << core.err;
  EXPECT_NE(core.out.find("; White faces north, Red faces east, Black faces south, Blue faces west: forward, left"),
            std::string::npos)
      << core.out;
  const std::string refusal = "error: this game has 4 players: troyka plays two-player games only so far\n";
  for (const std::string command :
       {"perft " + file + " --depth 1", "play " + file, "match " + file + " --agents random random",
        "referee --bind ipc://" + troyka_tests::temp_path("players.sock") + " --game " + file +
            " --time 1s --agents a b --results " + troyka_tests::temp_path("players.results")}) {
    const troyka_tests::Outcome run = troyka_tests::run_troyka(command);
    EXPECT_EQ(run.status, 1) << command;
    EXPECT_NE(run.err.find(refusal), std::string::npos) << command << ": " << run.err;
    EXPECT_EQ(run.out, "") << command;
  }
}

}  // namespace
