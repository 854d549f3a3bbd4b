// Games of more than two players with counters, hands, drops and the "most" ends (issue 14): the
// three-player Breakthroughs of games/ that score points and that drop taken pawns, against the
// plain reference of tests/players_reference.h (perft and random games), and hand-made positions for
// the rules that are new with more players: a drop, hands and counters in position text, a ranking
// by pieces with a tie, a player out while the others go on.
#include <gtest/gtest.h>

#include <string>
#include <utility>
#include <vector>

#include "interpreter/game.h"
#include "interpreter/perft.h"
#include "interpreter/random.h"
#include "lang/diagnostic.h"
#include "tests/games.h"
#include "tests/players_reference.h"

namespace {

namespace reference = troyka::players_reference;

const std::string kScoring = "breakthrough-score-3-players.game";
const std::string kDrops = "breakthrough-drops-3-players.game";

reference::Pawns pawns_of(const std::string& file) { return {true, file == kDrops, file == kScoring}; }

// The reference's key of a move: a drop is from == to, a pawn that scores and leaves names the cell
// it reached.
template <typename Program>
reference::MoveKey key_of(const Program& program, troyka::Move move) {
  return {move.from, move.to, move.piece, program.move_text(move).find('x') != std::string::npos, -1};
}

TEST(PlayersHands, PerftOfTheScoringAndDropBreakthroughsAgreesWithThePlainReference) {
  struct Case {
    std::string file, size;
    std::vector<std::uint64_t> nodes;
  };
  const std::vector<Case> cases = {
      {kScoring, "8", {14, 192, 2632, 39150}},
      {kDrops, "8", {14, 192, 2632, 40612}},
      {kDrops, "10", {20, 396, 7840, 167116}},
  };
  for (const Case& test : cases) {
    const troyka::Game game = troyka_tests::game(test.file, {{"size", test.size}});
    const reference::Position start = reference::start(game.rules(), pawns_of(test.file));
    game.visit([&](const auto& program) {
      for (std::size_t depth = 1; depth <= test.nodes.size(); ++depth) {
        const auto d = static_cast<int>(depth);
        EXPECT_EQ(troyka::perft(program, program.initial_state(), d), test.nodes[depth - 1]) << test.file << " " << d;
        EXPECT_EQ(reference::perft(game.rules(), start, d), test.nodes[depth - 1]) << test.file << " " << d;
      }
    });
  }
}

// Deeper, from the middle of a game where hands hold pawns and players have scored: the drops and
// the pawns that leave are counted as the reference counts them.
TEST(PlayersHands, PerftFromPositionsWithHandsAndScoresAgreesWithThePlainReference) {
  const std::vector<std::pair<std::string, std::string>> positions = {
      {kDrops, "8/2P34P3/8/2P21P13/1P26/8/1P16/8 White 12 hand=2P1P2"},
      {kScoring, "8/2P34P3/8/2P21P13/1P26/8/1P1P1P14/8 Red 12 score=2,1,0"},
  };
  for (const auto& [file, text] : positions) {
    const troyka::Game game = troyka_tests::game(file, {{"size", "8"}});
    game.visit([&](const auto& program) {
      const auto parsed = program.parse_position(text);
      ASSERT_TRUE(parsed.ok()) << parsed.error;
      EXPECT_EQ(program.position_text(parsed.state), text);
      reference::Position start = reference::start(game.rules(), pawns_of(file));
      for (int cell = 0; cell < game.rules().cells(); ++cell) {
        start.board[static_cast<std::size_t>(cell)] = {};
        for (int player = 0; player < 3; ++player)
          if (parsed.state.by_player[player].test(cell)) start.board[static_cast<std::size_t>(cell)] = {player, 0};
      }
      for (int player = 0; player < 3; ++player) {
        start.hand[static_cast<std::size_t>(player)] = parsed.state.hands[player][0];
        start.score[static_cast<std::size_t>(player)] = parsed.state.counters[player][0];
      }
      start.to_move = parsed.state.to_move;
      start.ply = parsed.state.ply;
      for (int depth = 1; depth <= 4; ++depth)
        EXPECT_EQ(troyka::perft(program, parsed.state, depth), reference::perft(game.rules(), start, depth))
            << file << " " << depth;
    });
  }
}

// Random games, some with a ply limit short enough for the ranking by pieces: every position has the
// reference's moves, hands, scores, players out and end; its text reads back to the same state.
TEST(PlayersHands, RandomGamesAgreeWithThePlainReference) {
  for (const std::string& file : {kScoring, kDrops}) {
    for (const std::string& limit : {std::string("300"), std::string("40")}) {
      const troyka::Game game = troyka_tests::game(file, {{"size", "8"}, {"limit", limit}});
      const troyka::lang::Rules& rules = game.rules();
      game.visit([&](const auto& program) {
        troyka::Rng rng(5);
        troyka::MoveList moves;
        int drops = 0, points = 0, outs = 0, shared = 0;
        for (int round = 0; round < 40; ++round) {
          auto state = program.initial_state();
          reference::Position expected = reference::start(rules, pawns_of(file));
          while (true) {
            const std::string text = file + ": " + program.position_text(state);
            ASSERT_EQ(state.over, expected.over) << text;
            ASSERT_EQ(state.to_move, expected.to_move) << text;
            for (int player = 0; player < 3; ++player) {
              EXPECT_EQ(state.hands[player][0], file == kDrops ? expected.hand[static_cast<std::size_t>(player)] : 0)
                  << text;
              EXPECT_EQ(state.counters[player][0],
                        file == kScoring ? expected.score[static_cast<std::size_t>(player)] : 0)
                  << text;
              EXPECT_EQ(state.is_out(player), reference::is_out(expected, player)) << text;
            }
            const auto parsed = program.parse_position(program.position_text(state));
            ASSERT_TRUE(parsed.ok()) << text << ": " << parsed.error;
            EXPECT_EQ(parsed.state.hash, state.hash) << text;
            if (state.over) {
              EXPECT_EQ(state.winner, expected.winner) << text;
              EXPECT_EQ(state.ended_by, expected.ended_by) << text;
              shared += state.winner == troyka::kDraw;
              break;
            }
            program.legal_moves(state, moves);
            std::vector<reference::MoveKey> listed;
            for (const troyka::Move& move : moves) listed.push_back(key_of(program, move));
            std::sort(listed.begin(), listed.end());
            ASSERT_EQ(listed, reference::moves(rules, expected)) << text;
            const troyka::Move move = program.random_move(state, rng);
            EXPECT_EQ(program.parse_move(state, program.move_text(move)).move, move) << text;
            drops += move.is_drop();
            const int mover = state.to_move;
            const int scored = state.counters[mover][0];
            program.apply(state, move);
            points += state.counters[mover][0] - scored;
            expected = reference::play(rules, expected, key_of(program, move));
            for (int player = 0; player < 3; ++player) outs += state.is_out(player) && !parsed.state.is_out(player);
          }
        }
        if (file == kDrops) {
          EXPECT_GE(drops, 50) << limit;
        } else if (limit == "300") {
          EXPECT_GE(points, 50);
          EXPECT_GE(outs, 3);
        } else {
          EXPECT_GE(shared, 1) << "no ranking by pieces was shared";
        }
      });
    }
  }
}

// A pawn taken goes to the taker's hand; a drop puts it on an empty cell of the dropper's two home
// rows (Red's are columns a and b), and leaves the hand. A player with no pawn on the board and
// none in hand cannot move: it is out, and the others go on.
TEST(PlayersHands, APawnTakenGoesToTheTakersHandAndIsDroppedOnItsHomeRows) {
  const troyka::Game game = troyka_tests::game(kDrops, {{"size", "8"}});
  game.visit([](const auto& program) {
    auto state = program.parse_position("8/8/8/8/3P34/2P25/8/P17 Red 5 hand=-");
    ASSERT_TRUE(state.ok()) << state.error;
    program.apply(state.state, program.parse_move(state.state, "c3xd4").move);
    EXPECT_EQ(program.position_text(state.state), "8/8/8/8/3P24/8/8/P17 White 6 hand=P2 out=Black");
    EXPECT_FALSE(state.state.over);
    // White's a1-a2 and a1-b2; then Red, with one pawn on d4 and one in hand: 14 empty cells of
    // columns a and b to drop it on (a1 and b1 hold White's pawns), and d4's three steps.
    const auto red = program.parse_position("8/8/8/8/3P24/8/8/P1P16 Red 8 hand=P2 out=Black");
    ASSERT_TRUE(red.ok()) << red.error;
    const std::vector<std::string> moves = troyka_tests::move_texts(program, red.state);
    EXPECT_EQ(std::count_if(moves.begin(), moves.end(), [](const std::string& m) { return m.starts_with("P*"); }), 14);
    EXPECT_EQ(moves.size(), 17u);
    auto after = red.state;
    program.apply(after, program.parse_move(after, "P*b5").move);
    EXPECT_EQ(program.position_text(after), "8/8/8/1P26/3P24/8/8/P1P16 White 9 hand=- out=Black");
  });
}

// At the ply limit the players still playing are ranked by their pawns on the board, the most
// first: two with as many share the first place (no winner: a draw for them), and a player out
// ranks below them whatever it holds.
TEST(PlayersHands, TheMostPiecesRankThePlayersStillPlayingAndTiesShareAPlace) {
  const troyka::Game game = troyka_tests::game(kScoring, {{"size", "8"}, {"limit", "20"}});
  game.visit([](const auto& program) {
    auto tie = program.parse_position("8/8/8/P27/P27/8/2P1P14/8 Red 18 score=0,1,2");
    ASSERT_TRUE(tie.ok()) << tie.error;
    auto& state = tie.state;
    program.apply(state, program.parse_move(state, "a5-b5").move);
    EXPECT_TRUE(state.is_out(2));  // Black has no pawn: out when its turn comes, though it scored most
    EXPECT_EQ(state.to_move, 0);
    program.apply(state, program.parse_move(state, "c2-c3").move);
    ASSERT_TRUE(state.over);
    EXPECT_EQ(state.winner, troyka::kDraw);
    EXPECT_EQ(program.end_reason(state),
              "White and Red share the first place by pieces, White 2, Red 2, Black out, at (ply-limit limit)");
    EXPECT_EQ(std::vector<int>({program.rank(state, 0), program.rank(state, 1), program.rank(state, 2)}),
              std::vector<int>({1, 1, 3}));
    EXPECT_EQ(std::vector<int>({program.result(state, 0), program.result(state, 1), program.result(state, 2)}),
              std::vector<int>({0, 0, -1}));
    EXPECT_EQ(program.utility(state, 0), 0.75);
    EXPECT_EQ(program.utility(state, 2), 0.0);

    const auto black = troyka_tests::after(
        program, troyka_tests::position(program, "8/2P3P3P33/8/P27/8/8/2P1P14/8 White 19"), "c2-c3");
    ASSERT_TRUE(black.over);
    EXPECT_EQ(black.winner, 2);
    EXPECT_EQ(program.end_reason(black), "Black wins by pieces, White 2, Red 1, Black 3, at (ply-limit limit)");
    EXPECT_EQ(std::vector<int>({program.rank(black, 0), program.rank(black, 1), program.rank(black, 2)}),
              std::vector<int>({2, 3, 1}));
  });
}

// A pawn that reaches its far row scores for its player and leaves; three points win, for Red too.
TEST(PlayersHands, EachPlayerKeepsItsOwnScore) {
  const troyka::Game game = troyka_tests::game(kScoring, {{"size", "8"}});
  game.visit([](const auto& program) {
    auto state = program.parse_position("5P32/8/8/6P21/8/8/2P1P14/8 Red 30 score=1,2,0");
    ASSERT_TRUE(state.ok()) << state.error;
    EXPECT_EQ(program.diagram(state.state).substr(program.diagram(state.state).find("score")),
              "score: White 1, Red 2, Black 0\n");
    program.apply(state.state, program.parse_move(state.state, "g5-h5-off").move);
    EXPECT_EQ(program.position_text(state.state), "5P32/8/8/8/8/8/2P1P14/8 Black 31 score=1,3,0");
    ASSERT_TRUE(state.state.over);
    EXPECT_EQ(state.state.winner, 1);
    EXPECT_EQ(program.end_reason(state.state), "Red wins by (>= (counter score) 3)");
  });
}

// Position text gives a counter one number per player, and a hand's pieces as the board writes them.
TEST(PlayersHands, PositionTextOfCountersAndHandsNamesEveryPlayer) {
  const troyka::Game scoring = troyka_tests::game(kScoring, {{"size", "8"}});
  scoring.visit([](const auto& program) {
    EXPECT_EQ(program.parse_position("8/8/8/8/8/8/2P1P14/8 White 3 score=1,0").error,
              "'score=1,0' does not give the counter score as 3 numbers from 0 to 3, White's, Red's and Black's");
  });
  const troyka::Game drops = troyka_tests::game(kDrops, {{"size", "8"}});
  drops.visit([](const auto& program) {
    const auto held = program.parse_position("8/8/8/8/8/8/2P1P14/8 White 3 hand=2P13P3");
    ASSERT_TRUE(held.ok()) << held.error;
    EXPECT_EQ(held.state.hands[0][0], 2);
    EXPECT_EQ(held.state.hands[1][0], 0);
    EXPECT_EQ(held.state.hands[2][0], 3);
    EXPECT_EQ(program.position_text(held.state), "8/8/8/8/8/8/2P1P14/8 White 3 hand=2P13P3");
    EXPECT_EQ(program.parse_position("8/8/8/8/8/8/2P1P14/8 White 3 hand=2P").error,
              "'hand=2P' 'P' is not followed by a player's number from 1 to 3 (a piece is written its letter in upper "
              "case, then its player's number: 'P1'); write each player's pieces in hand as on the board, a letter "
              "then its player's number, a count before a letter held more than once (hand=2P1P3), or hand=-");
    EXPECT_EQ(program.parse_position("8/8/8/8/8/8/2P1P14/8 White 3 hand=P4").error,
              "'hand=P4' 'P' is not followed by a player's number from 1 to 3 (a piece is written its letter in upper "
              "case, then its player's number: 'P1'); write each player's pieces in hand as on the board, a letter "
              "then its player's number, a count before a letter held more than once (hand=2P1P3), or hand=-");
  });
}

troyka::Game three_player_game(const std::string& rules) {
  const std::string text = "(game \"Three\" (players (A north) (B east) (C south)) " + rules + ")";
  return troyka::Game(troyka::lang::load_rules(
      std::make_shared<troyka::lang::SourceFile>(troyka::lang::SourceFile{"three.game", text}), {}));
}

// A flanking drop closes a run of any other players' pieces with one of the mover's, and flips them
// all: B's and C's discs become A's, and the hash is the one the position's text gives.
TEST(PlayersHands, AFlankingDropFlipsTheRunsOfEveryOtherPlayer) {
  const troyka::Game game = three_player_game(
      "(board (rectangle 6 1)) (piece Disc \"D\" (drop (flanking all-directions))) (setup) (pass-when-stuck) "
      "(end (most-pieces no-legal-moves))");
  game.visit([](const auto& program) {
    auto state = program.parse_position("1D2D3D12 A 3");
    ASSERT_TRUE(state.ok()) << state.error;
    EXPECT_EQ(troyka_tests::move_texts(program, state.state), std::vector<std::string>{"a1"});
    program.apply(state.state, program.parse_move(state.state, "a1").move);
    EXPECT_EQ(program.position_text(state.state), "D1D1D1D12 B 4");
    EXPECT_EQ(state.state.hash, program.parse_position("D1D1D1D12 B 4").state.hash);
  });
}

// The most area ranks the players by their stones and the empty regions that border their stones
// only; the komi goes to the second player (B), as with two.
TEST(PlayersHands, TheMostAreaRanksThePlayersAndTiesShareAPlace) {
  const std::string rules = "(board (rectangle 6 1)) (piece Stone \"S\" (drop)) (setup) (end (most-area orthogonal ";
  const troyka::Game plain = three_player_game(rules + "(ply-limit 3)))");
  plain.visit([](const auto& program) {
    // b1 borders A and B, d1 B and C: nobody's; f1 borders C only.
    const auto state = program.parse_position("S11S21S31 A 3");
    ASSERT_TRUE(state.ok()) << state.error;
    ASSERT_TRUE(state.state.over);
    EXPECT_EQ(state.state.winner, 2);
    EXPECT_EQ(program.end_reason(state.state), "C wins by area, A 1, B 1, C 2, at (ply-limit 3)");
    EXPECT_EQ(
        std::vector<int>({program.rank(state.state, 0), program.rank(state.state, 1), program.rank(state.state, 2)}),
        std::vector<int>({2, 2, 1}));
  });
  const troyka::Game komi = three_player_game(rules + "(komi 1) (ply-limit 3)))");
  komi.visit([](const auto& program) {
    const auto state = program.parse_position("S11S21S31 A 3");
    ASSERT_TRUE(state.ok()) << state.error;
    EXPECT_EQ(state.state.winner, troyka::kDraw);
    EXPECT_EQ(program.end_reason(state.state),
              "B and C share the first place by area, A 1, B 2, C 2, at (ply-limit 3)");
    EXPECT_EQ(
        std::vector<int>({program.rank(state.state, 0), program.rank(state.state, 1), program.rank(state.state, 2)}),
        std::vector<int>({3, 1, 1}));
  });
}

// Drops of three players from the unlimited supply, and from a counted one (two stones in each
// hand at the start): every empty cell, while the hand holds a stone; perft is the falling product.
TEST(PlayersHands, DropsFromTheSupplyAndFromACountedHand) {
  const troyka::Game supply =
      three_player_game("(board (rectangle 4 1)) (piece Stone \"S\" (drop)) (setup) (end (draw (ply-limit 9)))");
  supply.visit([](const auto& program) {
    EXPECT_EQ(troyka::perft(program, program.initial_state(), 3), 4u * 3 * 2);
    EXPECT_EQ(troyka::perft(program, program.initial_state(), 4), 4u * 3 * 2 * 1);
  });
  const troyka::Game counted = three_player_game(
      "(board (rectangle 4 2)) (hands Stone) (piece Stone \"S\") (moves (from-hand Stone) (enter all) empty) "
      "(setup (in-hand Stone 2)) (end (draw (ply-limit 20)))");
  counted.visit([](const auto& program) {
    EXPECT_EQ(program.position_text(program.initial_state()), "4/4 A 0 hand=2S12S22S3");
    std::uint64_t product = 1;
    for (int depth = 1; depth <= 6; ++depth) {
      product *= static_cast<std::uint64_t>(9 - depth);
      EXPECT_EQ(troyka::perft(program, program.initial_state(), depth), product) << depth;
    }
    // Every hand empty: no player can move, and the game is drawn.
    const auto state = program.parse_position("S1S2S31/S1S2S31 A 6 hand=-");
    ASSERT_TRUE(state.ok()) << state.error;
    EXPECT_TRUE(state.state.over);
  });
}

}  // namespace
