// Games of 1 to lang::kMaxPlayers players (issue 14): what the checker reads from (players ...),
// how the interpreter plays more than two (turn order, players out, ranks), checked against the
// plain reference of tests/players_reference.h, MCTS with a utility per player, what two-player
// words mean with more, and the tools.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <nlohmann/json.hpp>
#include <regex>
#include <string>
#include <vector>

#include "agents/agent.h"
#include "interpreter/game.h"
#include "interpreter/perft.h"
#include "interpreter/random.h"
#include "lang/diagnostic.h"
#include "lang/rules.h"
#include "tests/games.h"
#include "tests/players_reference.h"
#include "tests/run_troyka.h"

namespace {

using troyka::lang::CellList;
using troyka::lang::EndKind;
using troyka::lang::Error;
using troyka::lang::Offset;
using troyka::lang::Rules;
using troyka::lang::SourceFile;
using troyka_tests::load_error;

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

// A game of games/, read as a file of that name.
Rules load_test_game(const std::string& name) {
  const std::string text = text_of(std::string(TROYKA_SOURCE_DIR) + "/games/" + name);
  return troyka::lang::load_rules(std::make_shared<SourceFile>(SourceFile{name, text}), {});
}

// Three-player Breakthrough with two moves a turn, of tests/data/games.
const std::string kThreePlayersTwoMoves = "../tests/data/games/breakthrough-3-players-two-moves.game";
// Three-player Breakthrough on an 8x8 cylinder (links join the a and h columns): the general back end.
const std::string kThreePlayersCylinder = "../tests/data/games/breakthrough-3-players-cylinder.game";

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
  EXPECT_EQ(load_error(game_of_players(0)), R"(test.game:2:3: error: a game needs at least one player
 2 |   (players)
   |   ^
hint: usage: (players (NAME FACING)...): 1 to 8 players in turn order, with FACING one of north, south, east, west
)");
}

TEST(Players, TheNinthPlayerIsOneTooMany) {
  EXPECT_EQ(load_error(game_of_players(9)), R"(test.game:2:96: error: a game has at most 8 players, this one lists 9
 2 | ...4 west) (P5 north) (P6 east) (P7 south) (P8 west) (P9 north))
   |                                                      ^
hint: usage: (players (NAME FACING)...): 1 to 8 players in turn order, with FACING one of north, south, east, west
)");
}

TEST(Players, EveryPlayerNeedsANameOfItsOwn) {
  std::string text = game_of_players(3);
  text.replace(text.find("P3"), 2, "P1");
  EXPECT_EQ(load_error(text), R"(test.game:2:34: error: two players are called 'P1'
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

// A game of games/, compiled.
troyka::Game test_game(const std::string& name) { return troyka::Game(load_test_game(name)); }

// The rules of a game of games/ as the reference plays them. A board with links puts every move
// rule on the general back end, and its pieces keep no keyword moves (lang::Rules::pieces): the
// reference reads them from the same file without its links, and steps along the links itself.
Rules reference_rules(const std::string& name) {
  Rules rules = load_test_game(name);
  if (rules.links.empty()) return rules;
  const std::string unlinked = std::regex_replace(text_of(std::string(TROYKA_SOURCE_DIR) + "/games/" + name),
                                                  std::regex(R"(\(link [a-z]+ [a-z0-9]+ [a-z0-9]+\))"), "");
  rules.pieces = troyka::lang::load_rules(std::make_shared<SourceFile>(SourceFile{name, unlinked}), {}).pieces;
  return rules;
}

// The error of compiling the game of `text` (a file test.game), rendered; "" when it compiles.
std::string compile_error(const std::string& text) {
  try {
    const troyka::Game game(troyka::lang::load_rules(std::make_shared<SourceFile>(SourceFile{"test.game", text}), {}));
  } catch (const Error& error) {
    return render(error.diagnostic());
  }
  return "";
}

// Every form of the language plays with any number of players: what two players play, one or
// three play too (docs/language.md, "Players"). Drops, and a repetition inside a compound.
TEST(Players, DropsAndRepetitionsCompileForOneOrThreePlayers) {
  for (const int players : {1, 3}) {
    std::string text = game_of_players(players);
    text.replace(text.find("(step forward (to empty))"), 25, "(drop)");
    text.replace(text.find("(end "), 5, "(end (draw (or (ply-limit 50) (repetition 3))) ");
    EXPECT_EQ(compile_error(text), "") << players << " players";
  }
}

// With three players a chain of jumps takes the pieces of two players at once: each is out when
// its turn comes without a move, and the jumper wins.
TEST(Players, AChainOfJumpsTakesThePiecesOfEveryOtherPlayer) {
  const troyka::Game game = troyka_tests::game_from_text(R"((game "Hoppers"
  (players (P1 north) (P2 east) (P3 south))
  (board (rectangle 5 5))
  (piece Man "M" (jump orthogonal chain))
  (setup (place P1 Man a1) (place P2 Man a2) (place P3 Man a4))
  (end (lose no-legal-moves))))");
  game.visit([](const auto& program) {
    auto state = program.initial_state();
    troyka::MoveList moves;
    program.legal_moves(state, moves);
    ASSERT_EQ(moves.size(), 1U);
    EXPECT_EQ(program.move_text(moves[0]), "a1xa3xa5");
    program.apply(state, moves[0]);
    EXPECT_EQ(program.position_text(state), "M14/5/5/5/5 P1 1 out=P2,P3");
    EXPECT_TRUE(state.over);
    EXPECT_EQ(state.winner, 0);
    EXPECT_EQ(program.rank(state, 1), 3);  // P2 went out first
  });
}

// A three-player game of pawns on 5x5 with `extra` forms, `end` rules and `setup` placements.
troyka::Game three_pawn_game(const std::string& extra, const std::string& setup, const std::string& end) {
  return troyka_tests::game_from_text(fmt::format(R"((game "Three"
  (players (P1 north) (P2 east) (P3 south))
  (board (rectangle 5 5))
  (piece Pawn "P" (step (forward forward-left forward-right) (to empty))
    (step (forward-left forward-right) (to enemy) capture))
  (setup {})
  {}
  (end {})))",
                                                  setup, extra, end));
}

// (must-capture) with three players: a capture of any other player's piece is the only move.
TEST(Players, AMandatoryCaptureTakesAnyOtherPlayersPiece) {
  const troyka::Game game =
      three_pawn_game("(must-capture)", "(place P1 Pawn c1) (place P3 Pawn d2) (place P2 Pawn a5)",
                      "(win (reach Pawn far-row)) (lose no-legal-moves)");
  game.visit([](const auto& program) {
    auto state = program.initial_state();
    troyka::MoveList moves;
    program.legal_moves(state, moves);
    ASSERT_EQ(moves.size(), 1U);
    EXPECT_EQ(program.move_text(moves[0]), "c1xd2");
    program.apply(state, moves[0]);
    EXPECT_EQ(program.position_text(state), "P24/5/5/3P11/5 P2 1");
  });
}

// (pass-when-stuck) with three players: a player without a move passes while another can move;
// when none can, the player to move loses, is out, and so is the next: the last one left wins.
TEST(Players, APlayerStuckPassesWhileAnotherCanMove) {
  const troyka::Game game = three_pawn_game(
      "(pass-when-stuck)", "(place P1 Pawn c5) (place P2 Pawn a3) (place P3 Pawn e1)", "(lose no-legal-moves)");
  game.visit([](const auto& program) {
    auto state = program.initial_state();
    troyka::MoveList moves;
    program.legal_moves(state, moves);
    ASSERT_EQ(moves.size(), 1U);
    EXPECT_EQ(moves[0], program.pass_move());
    int passes = 0;
    while (!state.over) {
      program.legal_moves(state, moves);
      ASSERT_FALSE(moves.empty()) << program.position_text(state);
      passes += moves[0] == program.pass_move();
      program.apply(state, moves[0]);
    }
    EXPECT_EQ(passes, 7);  // P1 before P2's first step, then P3 and P1 after each of its steps but the last
    EXPECT_EQ(state.winner, 1) << program.position_text(state);
    EXPECT_EQ(program.position_text(state), "2P12/5/4P2/5/4P3 P2 11 out=P3,P1");
  });
}

// An end rule for one player: P1's pawn on its far row wins nothing, P2's does.
TEST(Players, AnEndRuleForOnePlayerHoldsForThatPlayerOnly) {
  const troyka::Game game = three_pawn_game("", "(place P1 Pawn c4) (place P2 Pawn d3) (place P3 Pawn a4)",
                                            "(win P2 (reach Pawn far-row)) (lose no-legal-moves)");
  game.visit([](const auto& program) {
    auto state = program.initial_state();
    program.apply(state, program.parse_move(state, "c4-c5").move);
    EXPECT_FALSE(state.over);
    program.apply(state, program.parse_move(state, "d3-e3").move);
    ASSERT_TRUE(state.over);
    EXPECT_EQ(state.winner, 1);
  });
}

// A comparison of (pieces) and (and ...) with three players: each part is asked of one player, its
// own pieces counted; P3, with one pawn, wins on reaching its far row, where P1's two would not.
TEST(Players, ComparisonsAndCompoundsAskEachPlayerOfItsOwnPieces) {
  const troyka::Game game = three_pawn_game(
      "", "(place P1 Pawn a1) (place P1 Pawn b1) (place P2 Pawn a4) (place P2 Pawn a5) (place P3 Pawn e2)",
      "(win (and (< (pieces) 2) (reach Pawn far-row))) (lose no-legal-moves)");
  game.visit([](const auto& program) {
    auto state = program.initial_state();
    for (const std::string move : {"a1-a2", "a4-b4"}) {
      program.apply(state, program.parse_move(state, move).move);
      EXPECT_FALSE(state.over) << move;
    }
    program.apply(state, program.parse_move(state, "e2-e1").move);
    ASSERT_TRUE(state.over);
    EXPECT_EQ(state.winner, 2);
  });
}

// perft of the start positions, by the interpreter and by the plain reference of
// tests/players_reference.h; the smaller boards go deeper.
TEST(Players, PerftOfThreeAndFourPlayerBreakthroughAgreesWithThePlainReference) {
  struct Case {
    std::string file;
    std::string size;
    std::vector<std::uint64_t> nodes;
  };
  const std::vector<Case> cases = {
      {"breakthrough-3-players.game", "10", {20, 396, 7840, 163932}},
      {"breakthrough-3-players.game", "8", {14, 192, 2632, 39150, 560514}},
      {"breakthrough-4-players.game", "10", {20, 396, 7840, 153632}},
      {"breakthrough-4-players.game", "8", {14, 192, 2632, 35312, 510544}},
      {kThreePlayersTwoMoves, "8", {14, 212, 2864, 41920, 565667}},
  };
  for (const Case& test : cases) {
    const std::string text = text_of(std::string(TROYKA_SOURCE_DIR) + "/games/" + test.file);
    const troyka::Game game(troyka::lang::load_rules(std::make_shared<SourceFile>(SourceFile{test.file, text}),
                                                     troyka::lang::Options{"", {{"size", test.size}}}));
    const auto reference_start = troyka::players_reference::start(game.rules());
    game.visit([&](const auto& program) {
      for (std::size_t depth = 1; depth <= test.nodes.size(); ++depth) {
        const auto d = static_cast<int>(depth);
        EXPECT_EQ(troyka::perft(program, program.initial_state(), d), test.nodes[depth - 1]) << test.file << " " << d;
        EXPECT_EQ(troyka::players_reference::perft(game.rules(), reference_start, d), test.nodes[depth - 1])
            << test.file << " " << d << " (reference)";
      }
    });
  }
}

// A board with links runs every rule on the general back end, which plays three players as the
// reference does, across the links too.
TEST(Players, PerftOfThreePlayerBreakthroughOnACylinderAgreesWithThePlainReference) {
  const troyka::Game game = test_game(kThreePlayersCylinder);
  const Rules rules = reference_rules(kThreePlayersCylinder);
  const auto reference_start = troyka::players_reference::start(rules);
  game.visit([&](const auto& program) {
    EXPECT_NE(program.describe().find("compiled: general"), std::string::npos);
    for (int depth = 1; depth <= 5; ++depth) {
      EXPECT_EQ(troyka::perft(program, program.initial_state(), depth),
                troyka::players_reference::perft(rules, reference_start, depth))
          << depth;
    }
  });
}

// The reference's key of an interpreter's move: from, to, piece, capture and the cell shot (-1:
// none). A move of rules in core forms keeps its shot in its record, and names it after the slash.
template <typename Program>
troyka::players_reference::MoveKey reference_key(const Program& program, const Rules& rules, const troyka::Move& move) {
  int shot = move.has_shot() ? move.shot : -1;
  if (move.general) {
    const std::string text = program.move_text(move);
    if (const std::size_t slash = text.find('/'); slash != std::string::npos)
      shot = troyka::lang::parse_cell(std::string_view(text).substr(slash + 1), rules.width, rules.height);
  }
  return {move.from, move.to, move.piece, move.capture, shot};
}

// Checks that `state` has the moves of the reference's `expected`, one for one by key, then plays a
// random move in both; its text must read back to the move.
template <typename Program>
void play_a_move_of_the_reference(const Program& program, const Rules& rules, typename Program::StateType& state,
                                  troyka::players_reference::Position& expected, troyka::Rng& rng,
                                  const std::string& text) {
  troyka::MoveList moves;
  program.legal_moves(state, moves);
  std::vector<troyka::players_reference::MoveKey> listed;
  for (const troyka::Move& move : moves) listed.push_back(reference_key(program, rules, move));
  std::sort(listed.begin(), listed.end());
  ASSERT_EQ(listed, troyka::players_reference::moves(rules, expected)) << text;
  const troyka::Move move = program.random_move(state, rng);
  EXPECT_EQ(program.parse_move(state, program.move_text(move)).move, move) << text;
  const auto key = reference_key(program, rules, move);  // before the move: its name is of this position
  program.apply(state, move);
  expected = troyka::players_reference::play(rules, expected, key);
}

// The reference's position of a state of the interpreter, read from its boards.
template <typename State>
troyka::players_reference::Position reference_position(const Rules& rules, const State& state) {
  troyka::players_reference::Position position;
  position.board.resize(static_cast<std::size_t>(rules.cells()));
  for (int cell = 0; cell < rules.cells(); ++cell)
    for (int player = 0; player < rules.player_count(); ++player)
      for (std::size_t piece = 0; piece < rules.pieces.size(); ++piece)
        if (state.by_player[player].test(cell) && state.by_piece[piece].test(cell))
          position.board[static_cast<std::size_t>(cell)] = {player, static_cast<int>(piece)};
  for (int cell = 0; cell < rules.cells(); ++cell)
    position.board[static_cast<std::size_t>(cell)].blocked = state.blocked.test(cell);
  position.to_move = state.to_move;
  position.phase = state.phase;
  position.actions_left = state.actions_left;
  position.ply = state.ply;
  return position;
}

// Checks `state` against the reference's position `expected`: the end, the player to move (and the
// decisions left in its turn), the players out in the order they went out, the winner and the end
// rule once over, and that its text reads back to the same state. Returns how many players are out.
template <typename Program, typename State>
int expect_agrees_with_reference(const Program& program, const Rules& rules, const State& state,
                                 const troyka::players_reference::Position& expected, const std::string& text) {
  EXPECT_EQ(state.over, expected.over) << text;
  EXPECT_EQ(state.to_move, expected.to_move) << text;
  if (!state.over) {
    EXPECT_EQ(state.actions_left, expected.actions_left) << text;
  }
  int out = 0;
  for (int player = 0; player < rules.player_count(); ++player) out += state.is_out(player);
  EXPECT_EQ(out, static_cast<int>(expected.out.size())) << text;
  for (std::size_t k = 0; k < expected.out.size(); ++k)
    EXPECT_EQ(state.out_rank(expected.out[k]), static_cast<int>(k + 1)) << text;
  const auto parsed = program.parse_position(program.position_text(state));
  EXPECT_TRUE(parsed.ok()) << text << ": " << parsed.error;
  EXPECT_EQ(parsed.state.hash, state.hash) << text;
  EXPECT_EQ(parsed.state.out_order, state.out_order) << text;
  if (state.over) {
    EXPECT_EQ(state.winner, expected.winner) << text;
    EXPECT_EQ(state.ended_by, expected.ended_by) << text;
  }
  return out;
}

// Every position of random games, from the start and from a few pawns in the middle (where players
// go out), has the reference's moves, player to move (and the decisions left in its turn, with two
// moves a turn), players out and end; its text reads back to the same state.
TEST(Players, RandomGamesAgreeWithThePlainReference) {
  namespace reference = troyka::players_reference;
  // Red's one pawn (c5) meets White's and Black's two (and Blue's one, h5).
  const std::vector<std::pair<std::string, std::string>> games = {
      {"breakthrough-3-players.game", "10/10/10/10/3P31P34/2P27/4P11P13/10/10/10 White 0"},
      {"breakthrough-4-players.game", "10/10/10/10/3P31P34/2P24P42/4P11P13/10/10/10 White 0"},
      {kThreePlayersTwoMoves, "8/8/8/2P31P33/1P26/2P11P13/8/8 White:2 0"},
      {kThreePlayersCylinder, "8/8/8/P31P15/1P26/P16P1/8/8 White 0"}};
  for (const auto& [file, middle] : games) {
    const troyka::Game game = test_game(file);
    const Rules rules = reference_rules(file);
    game.visit([&](const auto& program) {
      troyka::Rng rng(11);
      int eliminations = 0;
      for (int round = 0; round < 60; ++round) {
        auto state = round % 2 ? program.parse_position(middle).state : program.initial_state();
        reference::Position expected = round % 2 ? reference_position(rules, state) : reference::start(rules);
        while (true) {
          const std::string text = file + ": " + program.position_text(state);
          const int out = expect_agrees_with_reference(program, rules, state, expected, text);
          if (HasFailure()) return;
          if (state.over) {
            eliminations += out;
            break;
          }
          play_a_move_of_the_reference(program, rules, state, expected, rng, text);
          if (HasFailure()) return;
        }
      }
      EXPECT_GE(eliminations, 5) << file << ": too few random games put a player out";
    });
  }
}

// Red (east) has no pawn left: when White has moved, Red cannot move, so it is out, and Black is to
// move; from then on the turn goes from White to Black and back.
TEST(Players, APlayerWhoCannotMoveIsOutAndItsTurnsAreSkipped) {
  const troyka::Game game = test_game("breakthrough-3-players.game");
  game.visit([](const auto& program) {
    const auto start = program.parse_position("10/5P34/10/10/10/10/10/10/10/P14P14 White 7");
    ASSERT_TRUE(start.ok()) << start.error;
    ASSERT_FALSE(start.state.over);
    auto state = start.state;
    program.apply(state, program.parse_move(state, "a1-a2").move);
    EXPECT_EQ(program.position_text(state), "10/5P34/10/10/10/10/10/10/P19/5P14 Black 8 out=Red");
    EXPECT_FALSE(state.over);
    EXPECT_TRUE(state.is_out(1));
    EXPECT_EQ(program.next_player(state, 0), 2);
    program.apply(state, program.parse_move(state, "f9-f8").move);
    ASSERT_EQ(program.to_move(state), 0);
    program.apply(state, program.parse_move(state, "a2-a3").move);
    ASSERT_EQ(program.to_move(state), 2);
    EXPECT_EQ(program.rank(state, 0), 1);  // not over: nobody is ranked yet but the player out
    EXPECT_EQ(program.rank(state, 1), 3);
    EXPECT_EQ(program.utility(state, 1), 0.5);  // an unfinished game is worth a half to everyone
  });
}

// The last player left wins; the others are ranked by when they went out.
TEST(Players, TheLastPlayerLeftWinsAndThePlayersOutAreRankedByWhenTheyWentOut) {
  const troyka::Game game = test_game("breakthrough-3-players.game");
  game.visit([](const auto& program) {
    // Red is out, its pawn still on c5; White has no pawn left, so when Black has moved White
    // cannot move and is out, which leaves Black.
    const auto start = program.parse_position("10/5P34/10/10/10/2P27/10/10/10/10 Black 20 out=Red");
    ASSERT_TRUE(start.ok()) << start.error;
    auto state = start.state;
    program.apply(state, program.parse_move(state, "f9-f8").move);
    ASSERT_TRUE(state.over);
    EXPECT_EQ(state.winner, 2);
    EXPECT_EQ(program.end_reason(state), "Black wins, the last player left: White loses by no-legal-moves");
    EXPECT_EQ(program.rank(state, 2), 1);
    EXPECT_EQ(program.rank(state, 0), 2);
    EXPECT_EQ(program.rank(state, 1), 3);
    EXPECT_EQ(program.result(state, 2), 1);
    EXPECT_EQ(program.result(state, 0), 0);
    EXPECT_EQ(program.result(state, 1), -1);
    EXPECT_EQ(program.utility(state, 2), 1.0);
    EXPECT_EQ(program.utility(state, 0), 0.5);
    EXPECT_EQ(program.utility(state, 1), 0.0);
  });
}

// A win ranks its player first; the others still playing share second place, above those out.
TEST(Players, AWinRanksTheWinnerFirstAndTheOthersStillPlayingTied) {
  const troyka::Game game = test_game("breakthrough-4-players.game");
  game.visit([](const auto& program) {
    const auto start = program.parse_position("10/P19/10/10/10/10/10/10/10/9P4 White 30 out=Red");
    ASSERT_TRUE(start.ok()) << start.error;
    auto state = start.state;
    program.apply(state, program.parse_move(state, "a9-a10").move);
    ASSERT_TRUE(state.over);
    EXPECT_EQ(program.end_reason(state), "White wins by (reach Pawn far-row)");
    EXPECT_EQ(program.rank(state, 0), 1);
    EXPECT_EQ(program.rank(state, 2), 2);
    EXPECT_EQ(program.rank(state, 3), 2);
    EXPECT_EQ(program.rank(state, 1), 4);
    EXPECT_EQ(program.utility(state, 2), 1.5 / 3);
  });
}

TEST(Players, PositionTextNamesEachPiecesPlayer) {
  const troyka::Game game = test_game("breakthrough-3-players.game");
  game.visit([](const auto& program) {
    EXPECT_EQ(program.position_text(program.initial_state()),
              "2P3P3P3P3P3P32/2P3P3P3P3P3P32/P2P28/P2P28/P2P28/P2P28/P2P28/P2P28/2P1P1P1P1P1P12/2P1P1P1P1P1P12 "
              "White 0");
    EXPECT_EQ(program.parse_position("10/10/10/10/10/10/10/10/10/p1 White 0").error,
              "'p' is not followed by a player's number from 1 to 3 (a piece is written its letter in upper case, "
              "then its player's number: 'P1')");
    EXPECT_EQ(program.parse_position("10/10/10/10/10/10/10/10/10/P19 Red 0 out=Red").error,
              "Red is out, and cannot be the player to move");
  });
}

// `check` compiles a game of more than two players; perft, bench and play play it; the referee
// refuses too few agents for it.
TEST(Players, PerftBenchAndPlayPlayAFourPlayerGameAndTheRefereeRefusesTooFewAgents) {
  const std::string file = "games/breakthrough-4-players.game";
  const troyka_tests::Outcome check = troyka_tests::run_troyka("check " + file);
  EXPECT_EQ(check.status, 0) << check.err;
  EXPECT_EQ(check.out, file + ": ok (Breakthrough for four players, 10x10 board, 1 piece type, 2 end rules)\n");
  const troyka_tests::Outcome perft = troyka_tests::run_troyka("perft " + file + " --depth 2 --json");
  EXPECT_EQ(perft.status, 0) << perft.err;
  EXPECT_NE(perft.out.find(R"("nodes":396)"), std::string::npos) << perft.out;
  const troyka_tests::Outcome bench = troyka_tests::run_troyka("bench " + file + " --playouts 20");
  EXPECT_EQ(bench.status, 0) << bench.err;
  EXPECT_NE(bench.out.find("Blue wins"), std::string::npos) << bench.out;
  const troyka_tests::Outcome play = troyka_tests::run_troyka("play " + file + " --ascii --no-color");
  EXPECT_EQ(play.status, 0) << play.err;
  EXPECT_NE(play.out.find("result: "), std::string::npos) << play.out;
  EXPECT_NE(play.out.find("1. Red "), std::string::npos) << play.out;
  // The referee plays it with four agents or more (tests/referee_test.cpp), and refuses fewer
  // before it binds or writes its results file.
  const std::string results = troyka_tests::temp_path("players.results");
  const std::string command = "referee --bind ipc://" + troyka_tests::temp_path("players.sock") + " --game " + file +
                              " --time 1s --agents a b --results " + results;
  const troyka_tests::Outcome run = troyka_tests::run_troyka(command);
  EXPECT_EQ(run.status, 1) << command;
  EXPECT_EQ(run.err, "error: 2 agents cannot play a game of 4 players\nhint: name at least 4 agents\n") << command;
  EXPECT_EQ(run.out, "") << command;
  EXPECT_FALSE(std::filesystem::exists(results));
}

// `bench --clock` times the searches of an agent on every seat of a game of three players.
TEST(Players, BenchClockTimesTheSearchesOfEverySeatOfAThreePlayerGame) {
  const troyka_tests::Outcome bench = troyka_tests::run_troyka(
      "bench games/breakthrough-3-players.game --param size=8 --agent mcts:time=5ms --clock --searches 9 --json");
  ASSERT_EQ(bench.status, 0) << bench.err;
  const nlohmann::json report = nlohmann::json::parse(bench.out);
  EXPECT_EQ(report["players"], 3);
  EXPECT_EQ(report["searches"], 9);
  EXPECT_EQ(report["games"], 1);
  EXPECT_EQ(report["budget_ms"], 5.0);
  EXPECT_GE(report["reply"]["median_ms"].get<double>(), 0.0);
}

// MCTS backs up each player's utility (max^n): one MCTS seat against two random ones wins clearly
// more than the third of the games that chance gives: three quarters of them. Slow builds play the
// first half of the games (the sanitizer stage took minutes over the games with scores and drops),
// with 200 iterations a move: 400 took the sanitizers' tests 300 s over those two games, and 200
// still won 11.5 and 12 of 12 (`troyka match ... --games 12 --agents mcts:iterations=200 random random`).
void expect_mcts_beats_two_random_players(const troyka::Game& game) {
  game.visit([](const auto& program) {
    constexpr int kGames = troyka_tests::kSlowBuild ? 6 : 12;
    int mcts_wins = 0;
    for (int round = 0; round < kGames; ++round) {
      const int seat = round % 3;
      std::vector<std::unique_ptr<troyka::agents::Agent<std::decay_t<decltype(program)>>>> agents;
      for (int player = 0; player < 3; ++player) {
        const std::string spec = player == seat ? "mcts:iterations=200" : "random";
        agents.push_back(troyka::agents::make_agent(troyka::agents::parse_agent_spec(spec), program,
                                                    static_cast<std::uint64_t>(100 * round + player)));
        agents.back()->start(player, troyka::agents::TimeControl{});
      }
      auto state = program.initial_state();
      while (!state.over) {
        const troyka::Move move = agents[static_cast<std::size_t>(state.to_move)]->choose(state, 0);
        program.apply(state, move);
        for (auto& agent : agents) agent->observe(move);
      }
      mcts_wins += state.winner == seat;
    }
    EXPECT_GE(4 * mcts_wins, 3 * kGames) << program.rules().name << ": MCTS won " << mcts_wins << " of " << kGames;
  });
}

TEST(PlayersMcts, BeatsTwoRandomPlayersInThreePlayerBreakthrough) {
  std::string text = text_of(std::string(TROYKA_SOURCE_DIR) + "/games/breakthrough-3-players.game");
  expect_mcts_beats_two_random_players(troyka::Game(troyka::lang::load_rules(
      std::make_shared<SourceFile>(SourceFile{"b3.game", text}), troyka::lang::Options{"", {{"size", "8"}}})));
}

// The same on the general back end (a board with links).
TEST(PlayersMcts, BeatsTwoRandomPlayersOnTheCylinder) {
  expect_mcts_beats_two_random_players(test_game(kThreePlayersCylinder));
}

// ---- shots, phases, (legal ...), attributes and counts per cell with more than two players ----

const std::string kAmazons = "amazons-3-players.game";
const std::string kPlacedAmazons = "amazons-3-players-placed.game";

// A game of games/ with `size` (--param size=N), or as it is when empty.
troyka::Game sized_game(const std::string& name, const std::string& size) {
  const std::string text = text_of(std::string(TROYKA_SOURCE_DIR) + "/games/" + name);
  troyka::lang::Options options;
  if (!size.empty()) options.params = {{"size", size}};
  return troyka::Game(troyka::lang::load_rules(std::make_shared<SourceFile>(SourceFile{name, text}), options));
}

// The rules the reference plays a game of Amazons with: the placed game's movement is in core
// forms, which the reference does not read, so it takes the pieces' keyword moves of the game with
// a fixed setup (the same moves, facings and players).
Rules amazons_reference_rules(const troyka::Game& game) {
  Rules rules = game.rules();
  rules.pieces = load_test_game(kAmazons).pieces;
  return rules;
}

// A board of the reference as text, a character a cell: '.' empty, '*' blocked, else the player's number.
std::string board_key(const std::vector<troyka::players_reference::Square>& board) {
  std::string key;
  for (const troyka::players_reference::Square& square : board)
    key += square.blocked ? '*' : square.player < 0 ? '.' : static_cast<char>('1' + square.player);
  return key;
}

// perft of the start positions and of a position late in the placement (White to place its third
// amazon, Red and Black after it: the phase moves on after Black's), by the interpreter and by the
// plain reference.
TEST(PlayersAmazons, PerftAgreesWithThePlainReference) {
  struct Case {
    std::string file, size, position;
    std::vector<std::uint64_t> nodes;
  };
  const std::vector<Case> cases = {
      {kAmazons, "", "", {1644, 2380797}},
      {kPlacedAmazons, "5", "", {25, 600, 13800, 303600}},
      {kPlacedAmazons, "6", "Q1Q34/6/2Q23/6/Q15/3Q2Q31 White 6 phase=placement", {30, 870, 24360, 5737880}},
  };
  for (const Case& test : cases) {
    const troyka::Game game = sized_game(test.file, test.size);
    const Rules rules = amazons_reference_rules(game);
    game.visit([&](const auto& program) {
      auto start = program.initial_state();
      if (!test.position.empty()) {
        const auto parsed = program.parse_position(test.position);
        ASSERT_TRUE(parsed.ok()) << parsed.error;
        start = parsed.state;
      }
      const auto reference_start =
          test.position.empty() ? troyka::players_reference::start(rules) : reference_position(rules, start);
      for (std::size_t depth = 1; depth <= test.nodes.size(); ++depth) {
        const auto d = static_cast<int>(depth);
        EXPECT_EQ(troyka::perft(program, start, d), test.nodes[depth - 1]) << test.file << " " << d;
        EXPECT_EQ(troyka::players_reference::perft(rules, reference_start, d), test.nodes[depth - 1])
            << test.file << " " << d << " (reference)";
      }
    });
  }
}

// Every position of random games has the reference's board (arrows included), phase, player to
// move, players out and end, and the reference's moves, one for one (by key: the move played is then
// played by both, and the next position compared); its text reads back to the same state. (Comparing
// the positions after every move, each as text, took 455 s of the sanitizers' 913.)
TEST(PlayersAmazons, RandomGamesAgreeWithThePlainReference) {
  namespace reference = troyka::players_reference;
  for (const auto& [file, size] :
       std::vector<std::pair<std::string, std::string>>{{kAmazons, ""}, {kPlacedAmazons, "6"}}) {
    const troyka::Game game = sized_game(file, size);
    const Rules rules = amazons_reference_rules(game);
    game.visit([&](const auto& program) {
      troyka::Rng rng(5);
      constexpr int kRounds = 12;
      int eliminations = 0, phases = 0;
      for (int round = 0; round < kRounds; ++round) {
        auto state = program.initial_state();
        reference::Position expected = reference::start(rules);
        while (true) {
          const std::string text = file + ": " + program.position_text(state);
          ASSERT_EQ(board_key(reference_position(rules, state).board), board_key(expected.board)) << text;
          ASSERT_EQ(state.phase, expected.phase) << text;
          const int out = expect_agrees_with_reference(program, rules, state, expected, text);
          if (HasFailure()) return;
          if (state.over) {
            eliminations += out;
            phases += state.phase;
            break;
          }
          play_a_move_of_the_reference(program, rules, state, expected, rng, text);
          if (HasFailure()) return;
        }
      }
      EXPECT_GE(eliminations, 4) << file << ": too few random games put a player out";
      if (!rules.phases.empty()) {
        EXPECT_EQ(phases, kRounds) << file << ": every game reaches the movement";
      }
    });
  }
}

// A three-player game of one amazon each on 5x5, from position text.
template <typename Program>
auto amazons_position(const Program& program, const std::string& text) {
  const auto parsed = program.parse_position(text);
  EXPECT_TRUE(parsed.ok()) << text << ": " << parsed.error;
  return parsed.state;
}

// An arrow blocks every player: White's arrow walls in Red's amazon, which is out when its turn
// comes; Black, next, moves on, and Red's amazon stays where it stood.
TEST(PlayersAmazons, AnArrowBlocksEveryPlayerAndAPlayerWalledInIsOut) {
  sized_game(kAmazons, "").visit([](const auto& program) {
    // Red's amazon on a1 is walled in but for b2, where White's arrow lands from c2.
    auto state = amazons_position(program, "3Q36/10/10/10/10/10/10/2Q17/*9/Q2*8 White 40");
    ASSERT_FALSE(state.over);
    const auto move = program.parse_move(state, "c3-c2/b2");
    ASSERT_TRUE(move.ok()) << move.error;
    program.apply(state, move.move);
    EXPECT_EQ(program.position_text(state), "3Q36/10/10/10/10/10/10/10/**Q17/Q2*8 Black 41 out=Red");
    EXPECT_FALSE(state.over);
    troyka::MoveList moves;
    program.legal_moves(state, moves);
    EXPECT_FALSE(moves.empty());
    EXPECT_EQ(program.rank(state, 1), 3);
  });
}

// The placement phase ends when every player has three amazons, not when the first has: White's
// third placement leaves the game placing, Black's ends it; in the movement phase nothing is placed.
TEST(PlayersAmazons, ThePlacementEndsWhenEveryPlayerHasPlacedItsAmazons) {
  sized_game(kPlacedAmazons, "6").visit([](const auto& program) {
    auto state = amazons_position(program, "Q1Q34/6/2Q23/6/Q15/3Q2Q31 White 6 phase=placement");
    program.apply(state, program.parse_move(state, "f1").move);
    EXPECT_EQ(program.position_text(state), "Q1Q34/6/2Q23/6/Q15/3Q2Q3Q1 Red 7 phase=placement");
    program.apply(state, program.parse_move(state, "f2").move);
    EXPECT_EQ(state.phase, 0);
    program.apply(state, program.parse_move(state, "f3").move);
    EXPECT_EQ(program.position_text(state), "Q1Q34/6/2Q23/5Q3/Q14Q2/3Q2Q3Q1 White 9 phase=movement");
    EXPECT_EQ(program.parse_move(state, "a4").error,
              "a4 is not a legal move for White; no piece can be placed on a4 now");
    troyka::MoveList moves;
    program.legal_moves(state, moves);
    ASSERT_FALSE(moves.empty());
    for (const troyka::Move& move : moves)  // an amazon's move and its shot
      EXPECT_TRUE(std::regex_match(program.move_text(move), std::regex("[a-f][1-6]-[a-f][1-6]/[a-f][1-6]")))
          << program.move_text(move);
  });
}

TEST(PlayersMcts, BeatsTwoRandomPlayersInPlacedThreePlayerAmazons) {
  expect_mcts_beats_two_random_players(sized_game(kPlacedAmazons, "5"));
}

// The king's moves, sorted, in a position of a three-player game of kings and rooks on 5x5 with
// (legal (not (in-check King))).
std::vector<std::string> king_moves(const std::string& position) {
  const troyka::Game game = troyka_tests::game_from_text(R"((game "Kings"
  (players (P1 north) (P2 east) (P3 south))
  (board (rectangle 5 5))
  (piece King "K" (step all-directions (to not-friend) capture))
  (piece Rook "R" (slide orthogonal (to not-friend) capture))
  (setup (place P1 King a1))
  (legal (not (in-check King)))
  (end (lose no-legal-moves))))");
  std::vector<std::string> texts;
  game.visit([&](const auto& program) {
    const auto parsed = program.parse_position(position);
    ASSERT_TRUE(parsed.ok()) << parsed.error;
    troyka::MoveList moves;
    program.legal_moves(parsed.state, moves);
    for (const troyka::Move& move : moves) texts.push_back(program.move_text(move));
  });
  std::sort(texts.begin(), texts.end());
  return texts;
}

// (in-check ...) with three players asks every other player still playing: P2's rook covers row 4
// and P3's, which moves after P2, row 2, so P1's king keeps to row 3; once P3 is out, its rook
// stands as an obstacle and threatens nothing.
TEST(Players, InCheckAsksEveryOtherPlayerStillPlaying) {
  EXPECT_EQ(king_moves("5/R24/2K12/4R3/5 P1 0"), (std::vector<std::string>{"c3-b3", "c3-d3"}));
  EXPECT_EQ(king_moves("5/R24/2K12/4R3/5 P1 0 out=P3"),
            (std::vector<std::string>{"c3-b2", "c3-b3", "c3-c2", "c3-d2", "c3-d3"}));
}

// An attribute and a register with three players: each player's pawn that steps is marked, the
// third player's too, and the register holds the last step's cell; a marked pawn may step twice.
TEST(Players, AttributesAndRegistersMarkTheThirdPlayersPiecesToo) {
  const troyka::Game game = troyka_tests::game_from_text(R"((game "Marks"
  (players (P1 north) (P2 east) (P3 south))
  (board (rectangle 5 5))
  (attribute moved (initially (cells c3)))
  (register last)
  (piece Pawn "P"
    (moves (go forward) empty land (set-attr moved) (remember last))
    (moves (attr moved) (go forward) empty (go forward) empty land))
  (setup (place P1 Pawn a1) (place P2 Pawn a3) (place P3 Pawn e5))
  (end (lose no-legal-moves))))");
  game.visit([](const auto& program) {
    auto state = program.initial_state();
    for (const char* move : {"a1-a2", "a3-b3", "e5-e4"}) state = troyka_tests::after(program, state, move);
    EXPECT_EQ(program.position_text(state), "5/4P3/1P23/P14/5 P1 3 moved=a2,b3,e4 last=e4");
    const auto parsed = program.parse_position(program.position_text(state));
    ASSERT_TRUE(parsed.ok()) << parsed.error;
    EXPECT_EQ(parsed.state.hash, state.hash);
    troyka::MoveList moves;
    program.legal_moves(state, moves);
    std::vector<std::string> texts;
    for (const troyka::Move& move : moves) texts.push_back(program.move_text(move));
    std::sort(texts.begin(), texts.end());
    EXPECT_EQ(texts, (std::vector<std::string>{"a2-a3", "a2-a4"}));
  });
}

// The swap is the two-player pie rule: a game of three players with it is a mistake in the file.
TEST(Players, TheSwapRuleIsForTwoPlayers) {
  std::string text = game_of_players(3);
  text.replace(text.find("(setup (place P1 Pawn e5))"), 26, "(setup) (swap-rule)");
  EXPECT_EQ(
      load_error(text),
      R"(test.game:5:11: error: the swap (pie rule) gives the second player the first player's opening; a game of 3 players has no such pair
 5 |   (setup) (swap-rule)
   |           ^
hint: the swap is for two players: list two in (players ...), or switch the swap off with (swap-rule 0)
)");
}

// A phase's (until ...) is asked of the players still playing: P2 has no cell to place on, so it is
// out at its first turn, and the placement ends when P1 and P3 have two men each.
TEST(Players, APhaseEndsWhenEveryPlayerStillPlayingHasWhatItsUntilAsks) {
  const troyka::Game game = troyka_tests::game_from_text(R"((game "Placing"
  (players (P1 north) (P2 east) (P3 south))
  (board (rectangle 3 3))
  (phases placement play)
  (phase placement (until (>= (pieces) 2)))
  (piece Man "M" (moves (phase play) (go forward) empty land))
  (moves (phase placement) (new Man) (enter home-row) empty land)
  (setup (place P1 Man (cells a1 a2)) (place P3 Man a3))
  (end (lose no-legal-moves))))");
  game.visit([](const auto& program) {
    auto state = program.initial_state();
    EXPECT_EQ(program.position_text(state), "M32/M12/M12 P1 0 phase=placement");
    program.apply(state, program.parse_move(state, "b1").move);
    EXPECT_EQ(program.position_text(state), "M32/M12/M1M11 P3 1 phase=placement out=P2");
    program.apply(state, program.parse_move(state, "b3").move);
    EXPECT_EQ(program.position_text(state), "M3M31/M12/M1M11 P1 2 phase=play out=P2");
    troyka::MoveList moves;
    program.legal_moves(state, moves);
    ASSERT_EQ(moves.size(), 1U);
    EXPECT_EQ(program.move_text(moves[0]), "b1-b2");
  });
}

// Counts per cell with three players, each sowing along its own version of the track from its own
// home row: A's a1 sows into b1, B's a2 into a1, C's c3 into b3.
TEST(Players, EachOfThreePlayersSowsAlongItsOwnTrack) {
  const troyka::Game game = troyka_tests::game_from_text(R"((game "Sowing"
  (players (A north) (B east) (C south))
  (board (rectangle 3 3))
  (track ring
    (A a1 b1 c1 c2 c3 b3 a3 a2)
    (B a3 a2 a1 b1 c1 c2 c3 b3)
    (C c3 b3 a3 a2 a1 b1 c1 c2))
  (piece Seed "S")
  (moves (enter home-row) (count > 0) (sow ring))
  (setup (count 1 (cells a1 b1 c1 c2 c3 b3 a3 a2)))
  (end (win (= (count home-row) 0)) (draw (ply-limit 30)))))");
  game.visit([](const auto& program) {
    // A sows one of its three houses; B then has the houses of column a that hold a seed: two
    // after a1 is sown, three after b1 or c1.
    EXPECT_EQ(troyka::perft(program, program.initial_state(), 1), 3U);
    EXPECT_EQ(troyka::perft(program, program.initial_state(), 2), 8U);
    auto state = program.initial_state();
    for (const char* move : {"a1", "a2", "c3"}) state = troyka_tests::after(program, state, move);
    EXPECT_EQ(program.position_text(state), "3/3/3 A 3 counts=a1:1,b1:2,c1:1,c2:1,a3:1,b3:2");
    // A's last seed leaves its home row, which wins.
    const auto last =
        troyka_tests::after(program, troyka_tests::position(program, "3/3/3 A 9 counts=c1:1,a2:1,b3:1"), "c1");
    EXPECT_TRUE(last.over);
    EXPECT_EQ(last.winner, 0);
    EXPECT_EQ(program.position_text(last), "3/3/3 B 10 counts=a2:1,c2:1,b3:1");
  });
}

// The tools on three-player Amazons: show lists every player's tables and the shots, perft counts
// the start, bench and play run games to their end.
TEST(PlayersAmazons, ShowPerftBenchAndPlayPlayIt) {
  const std::string file = "games/amazons-3-players.game";
  const troyka_tests::Outcome show = troyka_tests::run_troyka("show " + file);
  EXPECT_EQ(show.status, 0) << show.err;
  EXPECT_NE(show.out.find("compiled: 8 jumps, 0 hops and 0 drops for White, 8, 0 and 0 for Red, 8, 0 and 0 for "
                          "Black; "),
            std::string::npos)
      << show.out;
  EXPECT_NE(show.out.find("shots: a move with (then (shoot ...)) blocks the cell it shoots to"), std::string::npos)
      << show.out;
  const troyka_tests::Outcome perft = troyka_tests::run_troyka("perft " + file + " --depth 1 --json");
  EXPECT_EQ(perft.status, 0) << perft.err;
  EXPECT_NE(perft.out.find(R"("nodes":1644)"), std::string::npos) << perft.out;
  const troyka_tests::Outcome bench = troyka_tests::run_troyka("bench " + file + " --playouts 5 --seed 1");
  EXPECT_EQ(bench.status, 0) << bench.err;
  EXPECT_NE(bench.out.find("Red wins"), std::string::npos) << bench.out;
  const troyka_tests::Outcome play =
      troyka_tests::run_troyka("play games/amazons-3-players-placed.game --param size=5 --ascii --no-color");
  EXPECT_EQ(play.status, 0) << play.err;
  EXPECT_NE(play.out.find("result: "), std::string::npos) << play.out;
  EXPECT_NE(play.out.find("the last player left"), std::string::npos) << play.out;
}

// With hands and drops (a pawn taken goes to the taker's hand), and with scores.
TEST(PlayersMcts, BeatsTwoRandomPlayersWithDrops) {
  expect_mcts_beats_two_random_players(troyka_tests::game("breakthrough-drops-3-players.game", {{"size", "8"}}));
}

TEST(PlayersMcts, BeatsTwoRandomPlayersWithScores) {
  expect_mcts_beats_two_random_players(troyka_tests::game("breakthrough-score-3-players.game", {{"size", "8"}}));
}

}  // namespace
