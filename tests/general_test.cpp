// Tests of the general back end (interpreter/general.h, docs/core-design.md §5.3 and step 4 of §6):
// with TROYKA_FORCE_GENERAL=1 every rule of every game runs on the VM, whose perft, move texts,
// positions and results must be those of the fast back end; core rules that only the VM can run
// (a capture away from the landing cell, if/else, while, a maximal chain) give the moves counted by
// hand; a rule that would run without end fails loudly.
#include "interpreter/general.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <tuple>
#include <type_traits>
#include <vector>

#include "interpreter/game.h"
#include "interpreter/perft.h"
#include "interpreter/random.h"
#include "lang/diagnostic.h"
#include "tests/games.h"

namespace troyka {
namespace {

using troyka_tests::after;
using troyka_tests::move_texts;
using troyka_tests::position;

const std::string kSourceDir = TROYKA_SOURCE_DIR;

// The game of `path` loaded with TROYKA_FORCE_GENERAL=1: every rule on the general back end.
Game forced_general(const std::string& path, const lang::Options& options) {
  setenv("TROYKA_FORCE_GENERAL", "1", 1);
  try {
    Game game = Game::load(path, options);
    unsetenv("TROYKA_FORCE_GENERAL");
    return game;
  } catch (...) {
    unsetenv("TROYKA_FORCE_GENERAL");
    throw;
  }
}

// Every game of games/ and tests/data/games/, and every file of tests/data/zrf/ that loads, of any
// number of players (the three- and four-player Breakthroughs among them).
std::vector<std::string> every_game() {
  std::vector<std::string> paths;
  for (const std::string directory : {"/games", "/tests/data/games", "/tests/data/zrf"})
    for (const auto& entry : std::filesystem::directory_iterator(kSourceDir + directory)) {
      const std::string extension = entry.path().extension().string();
      if (extension != ".game" && extension != ".zrf") continue;
      try {
        Game::load(entry.path().string());
        paths.push_back(entry.path().string());
      } catch (const std::exception&) {  // a ZRF file troyka does not read yet
      }
    }
  std::sort(paths.begin(), paths.end());
  return paths;
}

// Calls check(fast, general) with the two programs of `path`, which have the same width.
template <typename Check>
void with_both(const std::string& path, const lang::Options& options, Check&& check) {
  const Game fast = Game::load(path, options);
  const Game general = forced_general(path, options);
  fast.visit([&](const auto& fast_program) {
    general.visit([&](const auto& general_program) {
      if constexpr (std::is_same_v<decltype(fast_program), decltype(general_program)>)
        check(fast_program, general_program);
      else
        FAIL() << path << ": the two programs differ in width";
    });
  });
}

// Perft up to the last depth whose leaves, estimated from the branching so far, stay within
// kLeaves (at most kDepth): a few seconds for every file together in Release.
void expect_same_perft(const std::string& path, const lang::Options& options = {}) {
  constexpr std::uint64_t kLeaves = troyka_tests::kSlowBuild ? 30'000 : 300'000;
  constexpr int kDepth = 6;
  with_both(path, options, [&](const auto& fast, const auto& general) {
    const auto start = fast.initial_state();
    EXPECT_EQ(general.position_text(general.initial_state()), fast.position_text(start)) << path;
    std::uint64_t previous = 1;
    for (int depth = 1; depth <= kDepth; ++depth) {
      const std::uint64_t expected = perft(fast, start, depth);
      EXPECT_EQ(perft(general, general.initial_state(), depth), expected) << path << " depth " << depth;
      if (expected == 0 || expected * expected / previous > kLeaves) break;
      previous = expected;
    }
  });
}

TEST(ForcedGeneral, PerftOfEveryGameEqualsTheFastPath) {
  for (const std::string& path : every_game()) expect_same_perft(path);
}

// Random games played on both, position by position: the same legal moves (as texts), the same
// positions and the same results; general moves' texts read back as those moves.
void expect_same_games(const std::string& path, const lang::Options& options = {}) {
  constexpr int kGames = troyka_tests::kSlowBuild ? 1 : 2;
  constexpr int kMaxPlies = 60;
  constexpr std::size_t kReadBack = 4;  // moves of each position whose text is read back, spread over the list
  with_both(path, options, [&](const auto& fast, const auto& general) {
    Rng rng(7);
    for (int game = 0; game < kGames; ++game) {
      auto fast_state = fast.initial_state();
      auto general_state = general.initial_state();
      for (int ply = 0; ply < kMaxPlies && !fast_state.over; ++ply) {
        const std::string where = path + " at " + fast.position_text(fast_state);
        ASSERT_EQ(general.position_text(general_state), fast.position_text(fast_state)) << where;
        ASSERT_EQ(move_texts(general, general_state), move_texts(fast, fast_state)) << where;
        MoveList moves;
        general.legal_moves(general_state, moves);
        for (std::size_t i = 0; i < moves.size(); i += moves.size() / kReadBack + 1) {
          const ParsedMove read = general.parse_move(general_state, general.move_text(moves[i]));
          EXPECT_TRUE(read.ok() && read.move == moves[i]) << where << ": " << general.move_text(moves[i]);
        }
        const Move move = fast.random_move(fast_state, rng);
        const std::string text = fast.move_text(move);
        fast.apply(fast_state, move);
        general_state = after(general, general_state, text);
      }
      EXPECT_EQ(general_state.over, fast_state.over) << path;
      EXPECT_EQ(general_state.winner, fast_state.winner) << path;
      EXPECT_EQ(general.end_reason(general_state), fast.end_reason(fast_state)) << path;
    }
  });
}

TEST(ForcedGeneral, RandomGamesMatchTheFastPathMoveByMove) {
  for (const std::string& path : every_game()) expect_same_games(path);
}

// GeneralMoves::takes_any runs only the rules and origins whose code reaches the cells asked about
// (CompiledRule::taking_origins): on every game with every rule on the general back end (slides,
// chains, captures away from the landing), along random games, its answer for each cell and for the
// whole board is the listing's: some listed move's record captures or converts a piece there.
TEST(ForcedGeneral, TakesAnyAnswersAsTheListing) {
  constexpr int kMaxPlies = troyka_tests::kSlowBuild ? 10 : 40;
  for (const std::string& path : every_game()) {
    const Game game = forced_general(path, {});
    game.visit([&](const auto& program) {
      constexpr int kWords = std::decay_t<decltype(program)>::kWords;
      const auto rules = std::make_shared<const lang::Rules>(program.rules());
      const GeneralMoves<kWords> general(rules, rules->general);
      if (general.prioritised()) return;
      Rng rng(3);
      auto state = program.initial_state();
      for (int ply = 0; ply < kMaxPlies && !state.over; ++ply) {
        MoveList moves;
        std::vector<GeneralRecord> records;
        general.list(state, false, false, moves, &records, nullptr);
        Bitboard<kWords> every_cell;
        for (int cell = 0; cell < rules->cells(); ++cell) {
          const auto target = Bitboard<kWords>::single(cell);
          every_cell |= target;
          const bool listed = std::any_of(records.begin(), records.end(),
                                          [&](const GeneralRecord& record) { return record.takes_any(target); });
          ASSERT_EQ(general.takes_any(state, false, target), listed)
              << path << " at " << program.position_text(state) << ", cell " << cell;
        }
        const bool any_capture = std::any_of(records.begin(), records.end(),
                                             [&](const GeneralRecord& record) { return record.takes_any(every_cell); });
        EXPECT_EQ(general.takes_any(state, false, every_cell), any_capture) << path;
        program.apply(state, program.random_move(state, rng));
      }
    });
  }
}

// Variants with forms the default sizes leave out (the swap, a longest line), the smallest board
// and the widest bitboard.
TEST(ForcedGeneral, VariantsAndSizesMatchTheFastPath) {
  const auto variant = [](const std::string& name, std::vector<std::pair<std::string, std::string>> params = {}) {
    return lang::Options{name, std::move(params)};
  };
  const std::vector<std::pair<std::string, lang::Options>> cases = {
      {"breakthrough.game", variant("zillions-7x7")},
      {"breakthrough.game", variant("", {{"width", "3"}, {"height", "4"}})},
      {"breakthrough.game", variant("", {{"width", "26"}, {"height", "26"}})},
      {"amazons.game", variant("6x6")},
      {"hex.game", variant("swap", {{"size", "5"}})},
      {"gomoku.game", variant("standard", {{"size", "7"}})},
  };
  for (const auto& [file, options] : cases) {
    expect_same_perft(kSourceDir + "/games/" + file, options);
    expect_same_games(kSourceDir + "/games/" + file, options);
  }
}

// The moves of a piece of a 5x5 game with this one rule, and the position after one of them.
Game rook_game(const std::string& rule) {
  const std::string text =
      "(game \"Test\" (players (White north) (Black south)) (board (rectangle 5 5))\n(piece Rook \"R\" " + rule +
      ")\n(setup) (end (lose no-legal-moves)))";
  return troyka_tests::game_from_text(text);
}

using Texts = std::vector<std::string>;

// With several priorities the fast path's moves are of priority 0, and the general rules of that
// priority join them (they were left out whenever the fast path had a move); a rule of priority 1
// waits until neither has one.
TEST(GeneralRules, GeneralRulesOfPriorityZeroJoinTheFastPathsMoves) {
  const Game game = troyka_tests::game_from_text(
      "(game \"Prio\" (players (White north) (Black south)) (board (rectangle 3 3))\n"
      "(piece Man \"M\" (step forward (to empty)))\n"
      "(piece King \"K\" (moves (go e) empty) (moves (priority 1) (go w) empty))\n"
      "(setup (place White Man a1) (place White King b2) (place Black Man c3))\n"
      "(end (win (reach Man far-row)) (draw (ply-limit 20))))");
  game.visit([](const auto& program) {
    EXPECT_EQ(move_texts(program, program.initial_state()), (Texts{"a1-a2", "b2-c2"}));
    EXPECT_EQ(program.count_moves(program.initial_state()), 2);
    // With the east blocked the king's west move (priority 1) still waits while the man can step;
    // with the man blocked too, it is the only move.
    EXPECT_EQ(move_texts(program, position(program, "2m/1KM/M2 White 0")), (Texts{"a1-a2"}));
    EXPECT_EQ(move_texts(program, position(program, "2m/1KM/2M White 0")), (Texts{"b2-a2"}));
  });
}

TEST(GeneralRules, SweepCapturesTheEnemyBehindItsVictimToo) {
  const Game game = Game::load(kSourceDir + "/tests/data/games/sweeping-breakthrough.game");
  game.visit([](const auto& program) {
    // (go (forward-left forward-right)) empty is one STEPWHERE.
    EXPECT_NE(program.describe().find("    compiled: general: 32 instructions (White 32, Black 32)\n"),
              std::string::npos)
        << program.describe();
    // c3 can take b4, with a5 behind it, or d4, with nothing behind.
    const auto start = position(program, "p4/1p1p1/2P2/5/5 White 0");
    EXPECT_EQ(move_texts(program, start), (Texts{"c3-c4", "c3xb4", "c3xd4"}));
    EXPECT_EQ(program.position_text(after(program, start, "c3xb4")), "5/1P1p1/5/5/5 Black 1");
    EXPECT_EQ(program.position_text(after(program, start, "c3xd4")), "p4/1p1P1/5/5/5 Black 1");
    // Perft as Breakthrough's until a sweep can happen (ply 3), then fewer replies.
    const std::vector<std::uint64_t> expected = {13, 156, 1924, 22956};
    for (int depth = 1; depth <= 4; ++depth)
      EXPECT_EQ(perft(program, program.initial_state(), depth), expected[static_cast<std::size_t>(depth - 1)]);
  });
}

// How many moves `state`'s draw by count counts, each index checked to be the listing's move of
// that index, and the listing as long.
template <typename ProgramType>
int drawn_as_listed(const ProgramType& program, const typename ProgramType::StateType& state) {
  MoveList listed;
  program.legal_moves(state, listed);
  typename ProgramType::DrawCounts counts;
  program.count_drawable(state, counts);
  EXPECT_EQ(counts.total, static_cast<int>(listed.size())) << program.position_text(state);
  std::vector<GeneralRecord> records;
  for (int i = 0; i < std::min(counts.total, static_cast<int>(listed.size())); ++i)
    EXPECT_EQ(program.drawn_move(state, counts, i, records), listed[static_cast<std::size_t>(i)]) << "index " << i;
  return counts.total;
}

// A jump line (GeneralMoves::JumpLine) is walked on the board and its moves counted: a chain stops
// after any jump, never turns, and needs an enemy piece then an empty cell at each jump. Without
// waypoints a chain is written from its origin to its landing; the same shape over friendly
// pieces, which it does not take, is no jump line, run by the VM and not counted.
TEST(GeneralRules, AJumpLineIsCountedAndStopsAfterAnyJump) {
  const std::string jump = "(seq (go d) enemy capture (go d) empty)";
  const Game game = rook_game("(moves (any-direction d (n e s w) (seq " + jump + " (repeat " + jump + "))))");
  game.visit([](const auto& program) {
    ASSERT_TRUE(program.draws_by_count());
    const auto start = position(program, "5/r4/1r3/r1r2/R4 White 0");
    EXPECT_EQ(move_texts(program, start), (Texts{"a1xa3", "a1xa5"}));
    EXPECT_EQ(drawn_as_listed(program, start), 2);
    MoveList listed;
    program.legal_moves(start, listed);
    EXPECT_EQ(program.move_text(listed[0]), "a1xa5");  // the longest chain first, as the VM runs it
    EXPECT_EQ(program.position_text(after(program, start, "a1xa5")), "R4/5/1r3/2r2/5 Black 1");
    EXPECT_EQ(move_texts(program, position(program, "5/r4/5/R4/R4 White 0")), (Texts{}));
  });
  const Game friendly = rook_game(
      "(moves (any-direction d (n e s w) (seq (go d) friend (go d) empty (repeat (seq "
      "(go d) friend (go d) empty)))))");
  friendly.visit([](const auto& program) {
    EXPECT_FALSE(program.draws_by_count());
    EXPECT_EQ(move_texts(program, position(program, "5/R4/5/R4/R4 White 0")), (Texts{"a1-a3", "a1-a5"}));
  });
}

// One jump with no chain after it, and a jump over a friendly piece that takes it (peg
// solitaire's hop), are jump lines too: counted, drawn as listed, a single jump never going on.
TEST(GeneralRules, ASingleJumpOrAJumpOverAFriendIsAJumpLine) {
  const Game single = rook_game("(moves (any-direction d (n e s w) (seq (go d) enemy capture (go d) empty)))");
  single.visit([](const auto& program) {
    ASSERT_TRUE(program.draws_by_count());
    const auto start = position(program, "5/r4/1r3/r1r2/R4 White 0");
    EXPECT_EQ(move_texts(program, start), (Texts{"a1xa3"}));
    EXPECT_EQ(drawn_as_listed(program, start), 1);
    EXPECT_EQ(program.position_text(after(program, start, "a1xa3")), "5/r4/Rr3/2r2/5 Black 1");
  });
  const Game friendly = rook_game("(moves (any-direction d (n e s w) (seq (go d) friend capture (go d) empty)))");
  friendly.visit([](const auto& program) {
    ASSERT_TRUE(program.draws_by_count());
    const auto start = position(program, "4r/5/5/R4/RR1R1 White 0");
    EXPECT_EQ(move_texts(program, start), (Texts{"a1xa3", "a1xc1"}));
    EXPECT_EQ(drawn_as_listed(program, start), 2);
    EXPECT_EQ(program.position_text(after(program, start, "a1xc1")), "4r/5/5/R4/2RR1 Black 1");
  });
}

TEST(GeneralRules, IfElseChoosesByTheTest) {
  const Game game = rook_game("(moves (go n) (if empty waypoint (seq enemy capture)))");
  game.visit([](const auto& program) {
    EXPECT_EQ(move_texts(program, position(program, "5/5/5/5/R4 White 0")), (Texts{"a1-a2"}));
    EXPECT_EQ(move_texts(program, position(program, "5/5/5/r4/R4 White 0")), (Texts{"a1xa2"}));
    EXPECT_EQ(move_texts(program, position(program, "5/5/5/R4/R4 White 0")), (Texts{"a2-a3"}));
  });
}

// A game rule's removal of an enemy man, `(enter all) enemy TEST capture` (a mill's in Morris), has
// no origin and no landing: it prints as its capture, xb1, even when it is the only one listed. Its
// short text was empty, so a lone removal printed (and was written in records) as "pass", which
// looked like a wrong lookahead: a `can` whose walk comes back over its start, and an `and` of three
// `cannot`s, each leaving one removal. Black's men: a1 b1 c1 (a line of three) and a3; White's man
// at b2 steps north.
TEST(GeneralRules, ALoneRemovalPrintsAsItsCapture) {
  const auto removals = [](const std::string& test) {
    const std::string rule = "(moves (enter all) enemy " + test + " capture)";
    return troyka_tests::game_from_text(
        "(game \"Removal\" (players (White north) (Black south)) (board (rectangle 3 3))\n"
        "(piece Man \"M\" (moves (go n) empty))\n" +
        rule + "\n(setup) (end (lose no-legal-moves)))");
  };
  const std::string start = "m2/1M1/mmm White 0";
  removals("").visit([&](const auto& program) {
    EXPECT_EQ(move_texts(program, position(program, start)), (Texts{"b2-b3", "xa1", "xa3", "xb1", "xc1"}));
  });
  for (const std::string walk_back : {"(can (go e) (go w) (go w))", "(can (go e) enemy (go w) (go w) enemy)"})
    removals(walk_back).visit([&](const auto& program) {
      EXPECT_EQ(move_texts(program, position(program, start)), (Texts{"b2-b3", "xb1"})) << walk_back;
    });
  const std::string in_no_line =
      "(and (cannot (go e) enemy (go e) enemy) (cannot (go w) enemy (go w) enemy) "
      "(cannot (go e) enemy (go w) (go w) enemy))";
  removals(in_no_line).visit([&](const auto& program) {
    EXPECT_EQ(move_texts(program, position(program, start)), (Texts{"b2-b3", "xa3"}));
    EXPECT_EQ(troyka_tests::after_move(program, start, "xa3"), "3/1M1/mmm Black 1");
  });
}

TEST(GeneralRules, TimesMakesExactlyItsPasses) {
  const Game game = rook_game("(moves (times 2 (go (n e))) empty)");
  game.visit([](const auto& program) {
    // Two passes, each a choice of north or east: a1 to a3, b2 (twice: one move) or c1.
    EXPECT_EQ(move_texts(program, position(program, "5/5/5/5/R4 White 0")), (Texts{"a1-a3", "a1-b2", "a1-c1"}));
  });
}

// The line through the piece along d and back is counted, pieces of both sides and the mover too;
// a line of one piece (here the mover) moves it one cell. The count is taken where (times ...)
// starts: after (go n), on the line through the cell reached.
TEST(GeneralRules, TimesCountsThePiecesOnTheLine) {
  const Game game = rook_game("(moves (any-direction d (n e) (times (line-pieces d) (go d))) empty)");
  game.visit([](const auto& program) {
    EXPECT_EQ(move_texts(program, position(program, "5/5/5/5/R4 White 0")), (Texts{"a1-a2", "a1-b1"}));
    // a1's column holds a3 and a5 as well: three cells north; its row holds d1 behind none: two east.
    EXPECT_EQ(move_texts(program, position(program, "r4/5/r4/5/R2r1 White 0")), (Texts{"a1-a4", "a1-c1"}));
  });
  const Game after_go = rook_game("(moves (go n) (times (line-pieces e) (go e)) empty)");
  after_go.visit([](const auto& program) {
    // From a2, whose row holds d2 and e2 (the mover stands on a1, off it): two cells east.
    EXPECT_EQ(move_texts(program, position(program, "5/5/5/3rr/R4 White 0")), (Texts{"a1-c2"}));
  });
}

TEST(GeneralRules, WhileStopsOnlyWhereItsTestFails) {
  const Game game = rook_game("(moves (go e) (while empty (go e)) enemy capture)");
  game.visit([](const auto& program) {
    const auto start = position(program, "5/5/5/5/R1r1r White 0");
    EXPECT_EQ(move_texts(program, start), (Texts{"a1xc1"}));
    EXPECT_EQ(program.position_text(after(program, start, "a1xc1")), "5/5/5/5/2R1r Black 1");
  });
}

TEST(GeneralRules, MaximalChainEndsOnlyWhereItCannotGoOn) {
  const std::string jump = "(seq (go e) enemy (not captured) capture (go e) empty waypoint)";
  const Game maximal = rook_game("(moves (repeat " + jump + " (at-least 1) maximal))");
  const Game any_length = rook_game("(moves (repeat " + jump + " (at-least 1)))");
  maximal.visit([](const auto& program) {
    const auto start = position(program, "5/5/5/5/Rr1r1 White 0");
    EXPECT_EQ(move_texts(program, start), (Texts{"a1xc1xe1"}));
    EXPECT_EQ(program.position_text(after(program, start, "a1xc1xe1")), "5/5/5/5/4R Black 1");
  });
  any_length.visit([](const auto& program) {
    EXPECT_EQ(move_texts(program, position(program, "5/5/5/5/Rr1r1 White 0")), (Texts{"a1xc1", "a1xc1xe1"}));
  });
}

// A rule whose part after land can neither fail nor branch leaves that part out of listings that
// do not ask for complete records (playouts, perft) and runs it for the move played; moves are
// named alike either way. Hasami Shogi's custodial captures are such a part.
TEST(GeneralRules, DeferredPartsRunOnlyForThePlayedMove) {
  const std::string sandwich =
      "(each-direction e orthogonal (if-can (seq (go e) enemy capture (repeat (seq (go e) "
      "enemy capture)) (go e) friend)))";
  const Game deferred = rook_game("(moves (any-direction d orthogonal (seq (go d) empty)) land " + sandwich + ")");
  deferred.visit([](const auto& program) {
    EXPECT_NE(program.describe().find("; what follows land runs for played moves only"), std::string::npos)
        << program.describe();
    const auto start = position(program, "5/5/R4/r4/1R3 White 0");
    EXPECT_EQ(move_texts(program, start), (Texts{"a3-a4", "a3-b3", "b1-b2", "b1-c1", "b1xa1"}));
    EXPECT_EQ(program.position_text(after(program, start, "b1xa1")), "5/5/R4/5/R4 Black 1");
    EXPECT_EQ(perft(program, start, 1), 5u);
  });
  // Ways that exclude each other (a friend, or an empty cell) have one run too (the tafl games).
  rook_game(
      "(moves (go n) empty land (if-can (seq (go e) enemy capture (go e) (or friend (seq empty (not "
      "captured))))))")
      .visit([](const auto& program) {
        EXPECT_NE(program.describe().find("runs for played moves only"), std::string::npos) << program.describe();
      });
  // Not deferred: a choice after land (which enemy to take), a repeat whose next pass and what
  // follows it can both go on (the same step onto an enemy, then onto any piece), ways that do not
  // exclude each other.
  for (const std::string rule :
       {"(moves (go n) empty land (opt (seq (go e) enemy capture)))",
        "(moves (go n) empty land (if-can (seq (repeat (seq (go e) enemy capture)) (go e) occupied)))",
        "(moves (go n) empty land (if-can (seq (go e) enemy capture (go e) (or friend occupied))))"})
    rook_game(rule).visit([&](const auto& program) {
      EXPECT_EQ(program.describe().find("runs for played moves only"), std::string::npos) << rule;
    });
}

// A slide through empty cells, as the whole rule or as the part before a deferred part, is walked
// over the board instead of run by the VM (perft's listings); a test of the landing's region lets it
// pass over a cell where it may not stop. legal_moves runs the deferred rule in the VM and agrees.
TEST(GeneralRules, SlidesPassOverCellsTheyMayNotLandOn) {
  const std::string slide =
      "(any-direction d orthogonal (seq (go d) (repeat (seq empty (go d))) empty (not (in (cells c3)))))";
  const std::string sandwich = "(each-direction e orthogonal (if-can (seq (go e) enemy capture (go e) friend)))";
  const Texts d3 = {"d3-a3", "d3-b3", "d3-d4", "d3-d5", "d3-e3"};
  const auto with_d3 = [&](Texts texts) {
    texts.insert(texts.end(), d3.begin(), d3.end());
    return texts;
  };
  rook_game("(moves " + slide + ")").visit([&](const auto& program) {
    const auto start = position(program, "5/5/3R1/3r1/2R2 White 0");
    EXPECT_EQ(move_texts(program, start), with_d3({"c1-a1", "c1-b1", "c1-c2", "c1-c4", "c1-c5", "c1-d1", "c1-e1"}));
    EXPECT_EQ(perft(program, start, 1), 12u);
  });
  rook_game("(moves " + slide + " land " + sandwich + ")").visit([&](const auto& program) {
    EXPECT_NE(program.describe().find("runs for played moves only"), std::string::npos) << program.describe();
    const auto start = position(program, "5/5/3R1/3r1/2R2 White 0");
    EXPECT_EQ(move_texts(program, start), with_d3({"c1-a1", "c1-b1", "c1-c2", "c1-c4", "c1-c5", "c1-e1", "c1xd1"}));
    EXPECT_EQ(perft(program, start, 1), 12u);
    EXPECT_EQ(program.position_text(after(program, start, "c1xd1")), "5/5/3R1/5/3R1 Black 1");
  });
}

// Program::playout plays the moves and reaches the result of looping random_move + apply with the
// same generator, in every game: its listings may defer parts of rules and reuse the moves listed
// for the end rules, which the loop does not.
TEST(GeneralRules, PlayoutsMatchTheRandomMoveLoopInEveryGame) {
  constexpr int kGames = troyka_tests::kSlowBuild ? 1 : 3;
  for (const std::string& path : every_game())
    Game::load(path).visit([&](const auto& program) {
      for (int seed = 0; seed < kGames; ++seed) {
        Rng playout_rng(static_cast<std::uint64_t>(seed)), loop_rng(static_cast<std::uint64_t>(seed));
        auto played = program.initial_state();
        const std::uint32_t plies = program.playout(played, playout_rng);
        auto looped = program.initial_state();
        History history = program.start_history(looped);
        std::uint32_t loop_plies = 0;
        for (; !looped.over && loop_plies < program.playout_cap(); ++loop_plies)
          program.apply(looped, program.random_move(looped, loop_rng), history);
        ASSERT_EQ(plies, loop_plies) << path << " seed " << seed;
        ASSERT_EQ(program.position_text(played), program.position_text(looped)) << path << " seed " << seed;
        ASSERT_EQ(played.hash, looped.hash) << path << " seed " << seed;
        ASSERT_EQ(played.winner, looped.winner) << path << " seed " << seed;
      }
    });
}

// Games whose moves are drawn by count (Program::draws_by_count) draw exactly uniformly: in every
// position of random games, the count is the number of moves listed and index i draws the i-th of
// them, so each listed move has one index. (That it is the listing's own order also keeps a seeded
// playout the game it was before counting.) Konane's jumps are counted along their lines, and its
// opening removals, rules of a ply each, are counted by their runs. Nine Men's Morris's rules are
// counted by their runs (each placement, step or flight, and each removal after a mill, a move of
// its own); Pentago's placements too (a fan without a pattern: each empty cell one run), and its
// quarter turns (an (or ...) of eight different turns). Kalah's sowings are a fan whose code after
// the tests of the house makes one run (GeneralMoves::one_run_on).
// Plays `games` random games of `game` and checks, in every position, that the draw by count
// counts the listing's moves and that index i draws the listing's i-th move; the games must make
// more than `plies` positions each.
// With `listed_at` above 0, that share of the positions at most may refuse the count (two rules
// that apply there, say), their moves then drawn from the listing; every other is counted.
void expect_draws_are_listed(const Game& game, const std::string& name, int games, int plies, double listed_at = 0) {
  game.visit([&](const auto& program) {
    using DrawCounts = typename std::decay_t<decltype(program)>::DrawCounts;
    ASSERT_TRUE(program.draws_by_count()) << name;
    Rng rng(1);
    int positions = 0, refused = 0;
    for (int played = 0; played < games; ++played)
      for (auto state = program.initial_state(); !state.over;
           program.apply(state, program.random_move(state, rng)), ++positions) {
        MoveList listed;
        program.legal_moves(state, listed);
        DrawCounts counts;
        program.count_drawable(state, counts);
        if (listed_at > 0 && counts.total == 0 && !listed.empty()) {
          ++refused;
          continue;
        }
        ASSERT_EQ(counts.total, static_cast<int>(listed.size())) << name << " " << program.position_text(state);
        std::vector<GeneralRecord> records;
        for (int i = 0; i < counts.total; ++i)
          ASSERT_EQ(program.drawn_move(state, counts, i, records), listed[static_cast<std::size_t>(i)])
              << name << " " << program.position_text(state) << " index " << i;
      }
    EXPECT_GT(positions, plies * games) << name;
    EXPECT_LE(refused, listed_at * positions) << name;
  });
}

TEST(GeneralRules, EachIndexOfADrawByCountIsOneListedMove) {
  constexpr int kGames = troyka_tests::kSlowBuild ? 1 : 3;
  for (const std::string name : {"tablut", "brandubh", "hasami-shogi", "konane", "nine-mens-morris", "pentago",
                                 "lines-of-action", "kalah", "go"})
    expect_draws_are_listed(Game::load(kSourceDir + "/games/" + name + ".game"), name, kGames, 20);
  // One player: no enemy, the pegs jump their own (a single jump along a line).
  expect_draws_are_listed(Game::load(kSourceDir + "/games/peg-solitaire.game"), "peg-solitaire", 4 * kGames, 15);
  // Steps onto an empty cell or an enemy piece taken to the hand, a promotion, drops from the hand.
  expect_draws_are_listed(Game::load(kSourceDir + "/games/dobutsu-shogi.game"), "dobutsu-shogi", 4 * kGames, 8);
  // Two game rules, each of a (when ...): the placements and a mill's removal, a decision of its own.
  expect_draws_are_listed(Game::load(kSourceDir + "/bench/games/nine-mens-morris-ludii.game"), "morris, Ludii's",
                          kGames, 40);
  // (prefer (most captures)): where no move may capture, the men's steps and the kings' slides, the
  // rules' parts that capture nothing; the positions where one may are listed (about a third).
  expect_draws_are_listed(Game::load(kSourceDir + "/games/international-draughts.game"), "international draughts",
                          kGames, 40, 0.5);
  // (must-capture): a step rule beside a jump rule, which has no part that captures nothing; about
  // half the positions have a capture.
  expect_draws_are_listed(Game::load(kSourceDir + "/games/alquerque.game"), "alquerque", kGames, 10, 0.7);
  // Two rules of a piece type apart (CompiledRule::apart): a man's steps and its single jumps, each any way.
  expect_draws_are_listed(Game::load(kSourceDir + "/bench/games/alquerque-ludii.game"), "alquerque, Ludii's", kGames,
                          100);
  // The same pair, the jumps written first: a draw walks the jumps' runs, then the steps' (nth_walked).
  std::string text = troyka_tests::file_text(kSourceDir + "/bench/games/alquerque-ludii.game");
  const std::string steps = "(moves (go all-directions) empty)\n";
  ASSERT_NE(text.find(steps), std::string::npos);
  text.erase(text.find(steps), steps.size());
  const std::string jumps = "(moves (any-direction d all-directions (seq (go d) enemy capture (go d) empty))))";
  ASSERT_NE(text.find(jumps), std::string::npos);
  text.insert(text.find(jumps) + jumps.size() - 1, "\n" + steps);
  expect_draws_are_listed(troyka_tests::game_from_text(text), "alquerque, Ludii's, jumps first", kGames, 100);
}

// A draw from a rule that starts with a fan of one run a cell (GeneralMoves::run_fan_cell) runs the
// drawn cell's run alone: in Ludii's Morris, a man's steps come in their directions' order (b4's
// n e s w: b6, c4, b2, a4, not ascending), and a flight's points ascending, each index the listing's.
TEST(GeneralRules, ADrawFromAFanOfOneRunACellIsTheListedMoveOfItsIndex) {
  Game::load(kSourceDir + "/bench/games/nine-mens-morris-ludii.game").visit([](const auto& program) {
    const std::string men = "1##1##1/#1#M#1#/##m2##/1M1#1M1/##2m##/#1#m#1#/M##1##m";
    const std::string flying = "1##1##1/#1#M#1#/##m2##/1M1#3/##2m##/#1#m#1#/M##1##m";
    const std::string movement = " White 40 phase=movement placed=9,9 mill=0,0";
    EXPECT_EQ(drawn_as_listed(program, position(program, men + movement)), 2 + 4 + 4 + 4);  // a1, b4, d6, f4
    EXPECT_EQ(drawn_as_listed(program, position(program, flying + movement)), 3 * 17);      // onto any empty point
  });
}

// An origin whose counted moves are all one rule's runs names that rule (OriginMoves::rule), and
// its draw runs that rule alone: Ludii's Morris, one rule at a time (a placement, a step, a flight
// or a removal), names one at every origin; Ludii's Alquerque, a man's steps and jumps counted
// together, names none for its men. (That the draws are the listing's moves: above.)
TEST(GeneralRules, AnOriginOfOneRulesRunsNamesItsRule) {
  const auto named = [](const std::string& path) {
    int named = 0, unnamed = 0;
    Game::load(kSourceDir + path).visit([&](const auto& program) {
      using DrawCounts = typename std::decay_t<decltype(program)>::DrawCounts;
      Rng rng(1);
      for (auto state = program.initial_state(); !state.over; program.apply(state, program.random_move(state, rng))) {
        DrawCounts counts;
        program.count_drawable(state, counts);
        for (const OriginMoves& origin : counts.general) ++(origin.rule >= 0 ? named : unnamed);
      }
    });
    return std::pair{named, unnamed};
  };
  const auto [morris_named, morris_unnamed] = named("/bench/games/nine-mens-morris-ludii.game");
  EXPECT_GT(morris_named, 100);
  EXPECT_EQ(morris_unnamed, 0);
  const auto [alquerque_named, alquerque_unnamed] = named("/bench/games/alquerque-ludii.game");
  EXPECT_EQ(alquerque_named, 0);
  EXPECT_GT(alquerque_unnamed, 100);
}

// A draw makes its record in place of the last draw's (GeneralRecord::clear), and draws its counts
// and runs in this thread's one search (GeneralMoves::armed_search): each index's record, drawn
// after another index's of the same position, is the one drawn into an empty list. The indices
// are drawn from the last down, so that a record with a mill's `again` and counters, a sowing's
// counts or a quarter turn is followed by one without.
TEST(GeneralRules, ADrawsRecordMadeInPlaceIsAFreshDrawsRecord) {
  const auto scalars = [](const GeneralRecord& r) {
    return std::tuple{r.origin, r.landing, r.piece, r.final_piece, r.labelled, r.pass,
                      r.swap,   r.again,   r.exits, r.from_hand,   r.deferred};
  };
  for (const std::string path :
       {"/bench/games/nine-mens-morris-ludii.game", "/games/kalah.game", "/games/pentago.game"})
    Game::load(kSourceDir + path).visit([&](const auto& program) {
      using DrawCounts = typename std::decay_t<decltype(program)>::DrawCounts;
      Rng rng(1);
      int drawn = 0;
      std::vector<GeneralRecord> reused;
      for (auto state = program.initial_state(); !state.over; program.apply(state, program.random_move(state, rng))) {
        DrawCounts counts;
        program.count_drawable(state, counts);
        for (int i = counts.total - 1; i >= 0; --i, ++drawn) {
          std::vector<GeneralRecord> fresh;
          ASSERT_EQ(program.drawn_move(state, counts, i, reused), program.drawn_move(state, counts, i, fresh)) << path;
          ASSERT_EQ(reused.size(), 1u) << path;
          const GeneralRecord &made = reused.back(), &expected = fresh.back();
          ASSERT_EQ(scalars(made), scalars(expected)) << path << " " << program.position_text(state) << " index " << i;
          ASSERT_TRUE(made.changes == expected.changes && made.counters == expected.counters &&
                      made.registers == expected.registers && made.waypoints == expected.waypoints &&
                      made.rotations == expected.rotations && made.count_changes == expected.count_changes)
              << path << " " << program.position_text(state) << " index " << i;
        }
      }
      EXPECT_GT(drawn, 100) << path;
    });
}

// Under (prefer captures), a rule's quiet part is written through sequences, choices, options and
// choices of directions (International draughts' men and kings: `troyka show` says so); a capture
// under a repetition leaves the game listed.
TEST(GeneralRules, PreferCapturesIsDrawnByCountWithQuietParts) {
  Game::load(kSourceDir + "/games/international-draughts.game").visit([](const auto& program) {
    EXPECT_NE(program.describe().find("under (prefer captures): where no move may capture"), std::string::npos);
  });
  const Game repeated = troyka_tests::game_from_text(
      "(game \"Test\" (players (White north) (Black south)) (board (rectangle 5 5)) (prefer captures)\n"
      "(piece Rook \"R\" (moves (any-direction d (n e s w)\n"
      "  (seq (repeat (seq (go d) (or empty (seq enemy capture)))) (go d) empty))))\n"
      "(setup (place White Rook (cells a1 e1)) (place Black Rook (cells a5 c3)))\n"
      "(end (lose no-legal-moves) (draw (ply-limit 30))))");
  repeated.visit([](const auto& program) {
    EXPECT_NE(program.describe().find("compiled: general"), std::string::npos);
    EXPECT_FALSE(program.draws_by_count());
  });
}

// Two rules of one piece type are counted both only when no move of the one can be a move of the
// other from the same origin: Ludii's Alquerque's steps and single jumps are apart (counted, above);
// its steps any way and steps along rows and columns are not (a1-a2 is both), and are listed.
TEST(GeneralRules, TwoRulesOfAPieceAreCountedOnlyWhenApart) {
  const std::string file = kSourceDir + "/bench/games/alquerque-ludii.game";
  std::string text = troyka_tests::file_text(file);
  Game::load(file).visit([](const auto& program) { EXPECT_TRUE(program.draws_by_count()); });
  const std::string jumps = "(moves (any-direction d all-directions (seq (go d) enemy capture (go d) empty)))";
  ASSERT_NE(text.find(jumps), std::string::npos);
  text.replace(text.find(jumps), jumps.size(), "(moves (go orthogonal) empty)");
  troyka_tests::game_from_text(text).visit([](const auto& program) { EXPECT_FALSE(program.draws_by_count()); });
}

// A rule of a phase applies under a condition as one of a (when ...) does: Ludii's Morris with its
// placements of the phase alone, beside the removal's game rule, is drawn by count, listed only
// where both apply (a mill closed while placing: the removal's priority 0 then rules).
TEST(GeneralRules, ARuleOfAPhaseIsDrawnByCount) {
  const std::string file = kSourceDir + "/bench/games/nine-mens-morris-ludii.game";
  std::string text = troyka_tests::file_text(file);
  const std::string placing = "(moves (phase placement) (when (= (counter mill) 0))";
  ASSERT_NE(text.find(placing), std::string::npos);
  text.replace(text.find(placing), placing.size(), "(moves (phase placement) (priority 1)");
  expect_draws_are_listed(troyka_tests::game_from_text(text), "morris, a rule of a phase",
                          troyka_tests::kSlowBuild ? 1 : 3, 40, 0.1);
}

// An (and ...) or an (or ...) of comparisons alone is tested inline (Program::compares_hold), as
// parts_hold tests the others: Ludii's Morris ends when a player who has placed nine men has two
// left, not while it places (and); with (or) either ends it.
TEST(GeneralRules, ACompoundOfComparisonsAloneEndsTheGame) {
  const std::string file = kSourceDir + "/bench/games/nine-mens-morris-ludii.game";
  const std::string two_white_men = "1##1##1/#m#m#m#/##3##/M2#3/##3##/#1#1#1#/M##1##1";
  const std::string four_white_men = "1##1##1/#m#m#m#/##3##/M2#3/##3##/#1#1#1#/M##M##M";
  Game::load(file).visit([&](const auto& program) {
    const auto lost = position(program, two_white_men + " Black 40 phase=movement placed=9,9 mill=0,0");
    EXPECT_TRUE(lost.over);
    EXPECT_EQ(lost.winner, 1);
    EXPECT_FALSE(position(program, two_white_men + " Black 30 phase=placement placed=8,9 mill=0,0").over);
    EXPECT_FALSE(position(program, four_white_men + " Black 40 phase=movement placed=9,9 mill=0,0").over);
  });
  std::string text = troyka_tests::file_text(file);
  const std::string both = "(lose (and (= (counter placed) 9) (< (pieces) 3)))";
  ASSERT_NE(text.find(both), std::string::npos);
  text.replace(text.find(both), both.size(), "(lose (or (= (counter placed) 9) (< (pieces) 3)))");
  troyka_tests::game_from_text(text).visit([&](const auto& program) {
    EXPECT_TRUE(position(program, two_white_men + " Black 30 phase=placement placed=8,8 mill=0,0").over);
    EXPECT_TRUE(position(program, four_white_men + " Black 30 phase=placement placed=9,8 mill=0,0").over);
    EXPECT_FALSE(position(program, four_white_men + " Black 30 phase=placement placed=8,8 mill=0,0").over);
  });
}

// A slide whose two directions are one for White (north and White's forward) reaches each landing
// twice, one move in the listing: its draw makes the records before the drawn one, to drop the
// second runs, where Black's, whose rays never meet, passes them over with none made.
TEST(GeneralRules, ASlideWhoseRaysMeetDrawsTheListingsMoves) {
  const Game game = troyka_tests::game_from_text(
      "(game \"Meet\" (players (White north) (Black south)) (board (rectangle 5 5))\n"
      "  (piece Rook \"R\" (moves (any-direction d (n forward e) (seq (go d) (repeat (seq empty (go d))) empty)) land\n"
      "    (each-direction e orthogonal (if-can (seq (go e) enemy capture (go e) friend)))))\n"
      "  (setup (place White Rook (cells a1 c1 e2)) (place Black Rook (cells a5 c4 e5)))\n"
      "  (end (lose no-legal-moves) (draw (ply-limit 30))))");
  expect_draws_are_listed(game, "meet", 4, 10);
}

// An (if-can ...) whose body is straight but for its captures, choices (or ...) and a go along
// several directions among them, is a pattern of the frozen board, and so is a (cannot ...) of a
// go along several directions, also inside such a body beside a counter's change; each plays the
// games that the same rules play when a test the patterns do not take, (not captured), which
// always holds there, makes them lookaheads. Without the counter, the part after the land is made
// of such patterns alone, and complete() runs it without the VM (CompiledRule::captors).
TEST(GeneralRules, StraightIfCanAndCannotPlayAsLookaheadsDo) {
  const auto rules = [](const std::string& also, const std::string& counter) {
    return "(game \"Custodian\" (players (White north) (Black south)) (board (rectangle 7 7))\n"
           "  (region corners (cells a1 g1 a7 g7))\n"
           "  (counter taken (range 0 100))\n"
           "  (piece Man \"M\" (moves (any-direction d orthogonal (seq (go d) (repeat (seq empty (go d))) empty)) "
           "land\n"
           "    (each-direction e orthogonal (if-can (seq (go e) enemy capture (go e)\n"
           "      (or friend (seq empty (in corners))) " +
           also +
           ")))\n"
           "    (each-direction e diagonal (if-can (seq (go e) enemy (cannot (go (n e s w)) empty " +
           also +
           ") capture)))\n"
           "    (each-direction e orthogonal (if-can (seq (go e) enemy capture " +
           counter +
           "\n"
           "      (cannot (go (e w)) (not friend) (not (in corners)) " +
           also +
           "))))))\n"
           "  (setup (place White Man (cells a1 b2 c1 d2 e1 f2 g1)) (place Black Man (cells a7 b6 c7 d6 e7 f6 g7)))\n"
           "  (end (lose no-legal-moves) (draw (ply-limit 80))))";
  };
  const auto played = [](const Game& game) {
    std::vector<std::string> texts;
    game.visit([&](const auto& program) {
      for (std::uint64_t seed = 1; seed <= 6; ++seed) {
        Rng rng(seed);
        for (auto state = program.initial_state(); !state.over; program.apply(state, program.random_move(state, rng)))
          texts.push_back(program.position_text(state));
      }
    });
    return texts;
  };
  for (const std::string counter : {"(add taken 1)", ""}) {
    const std::vector<std::string> patterns = played(troyka_tests::game_from_text(rules("", counter)));
    const std::vector<std::string> lookaheads = played(troyka_tests::game_from_text(rules("(not captured)", counter)));
    EXPECT_GT(patterns.size(), 200U);
    EXPECT_EQ(patterns, lookaheads) << counter;
  }
  const std::vector<std::string> patterns = played(troyka_tests::game_from_text(rules("", "")));
  EXPECT_NE(std::adjacent_find(
                patterns.begin(), patterns.end(),
                [](const std::string& before, const std::string& after) {
                  return std::count(after.begin(), after.end(), 'M') + std::count(after.begin(), after.end(), 'm') <
                         std::count(before.begin(), before.end(), 'M') + std::count(before.begin(), before.end(), 'm');
                }),
            patterns.end())
      << "no capture was played";
}

// A piece rule whose every run first steps to a neighbour and tests it (its openings: a draughts
// man's step or jump, a flying king's slide to a piece) runs only from the origins where one of them
// holds; the same rules with a (mark) first, which no opening passes, run from every origin: both
// list the same moves in the same order in every position of random games.
TEST(GeneralRules, RulesRunOnlyWhereTheirOpeningsHoldListTheSameMoves) {
  const std::string text = troyka_tests::file_text(kSourceDir + "/games/international-draughts.game");
  std::string marked = text;
  for (const std::string body : {"(moves\n      (or", "(moves\n      (any-direction"}) {
    const std::size_t at = marked.find(body);
    ASSERT_NE(at, std::string::npos) << body;
    marked.insert(at + std::string("(moves").size(), " (mark o)");
  }
  const auto played = [](const Game& game) {
    std::vector<Texts> listed;
    game.visit([&](const auto& program) {
      for (std::uint64_t seed = 1; seed <= 3; ++seed) {
        Rng rng(seed);
        for (auto state = program.initial_state(); !state.over; program.apply(state, program.random_move(state, rng)))
          listed.push_back(move_texts(program, state));
      }
    });
    return listed;
  };
  const std::vector<Texts> opened = played(troyka_tests::game_from_text(text));
  EXPECT_GT(opened.size(), 150U);
  EXPECT_EQ(opened, played(troyka_tests::game_from_text(marked)));
}

// A move as far as its line holds pieces (Lines of Action's) on a board of two words, whose rays
// run up and down across the words' boundary, is counted and drawn as listed.
TEST(GeneralRules, LineMovesOfTwoWordsAreDrawnAsListed) {
  const Game game = troyka_tests::game_from_text(
      "(game \"Lines\" (players (White north) (Black east)) (board (rectangle 10 10))\n"
      "(piece Checker \"C\" (moves (any-direction d all-directions\n"
      "  (seq (times (line-pieces d) (seq (not enemy) (go d))) (or empty (seq enemy capture))))))\n"
      "(pass-when-stuck)\n"
      "(setup (place White Checker (except (union (row 1) (row 10)) (column a) (column j)))\n"
      "  (place Black Checker (except (union (column a) (column j)) (row 1) (row 10))))\n"
      "(end (win connected) (draw (ply-limit 200))))");
  expect_draws_are_listed(game, "lines 10x10", troyka_tests::kSlowBuild ? 1 : 3, 20);
}

// A choice of cells, tests of the cell, a land, counters and a pattern (a FAN) count and draw the
// listing's moves: a step whose pattern leads on to a removal; a flight to any empty cell but the
// origin, its pattern of two masks negated; a placement whose pattern ends the runs it does not
// hold for; a step and a placement whose pattern leads either way to one run, counted from their
// cells without the pattern (GeneralMoves::pattern_decides_nothing), a step's with tests of the
// cell too. That shape in a lookahead is no fan: the lookahead looks for one run.
TEST(GeneralRules, FansCountAndDrawTheListingsMoves) {
  constexpr int kGames = troyka_tests::kSlowBuild ? 2 : 6;
  const std::string board =
      "(players (White north) (Black south)) (board (rectangle 5 5)) (counter placed (range 0 99))\n";
  const std::string men =
      "(setup (place White Rook a1) (place White Rook c1) (place White Rook e1) (place White Rook c2)\n"
      "  (place Black Rook a5) (place Black Rook c5) (place Black Rook e5) (place Black Rook c4))\n";
  const std::string end = "(end (lose no-legal-moves) (draw (ply-limit 40))))";
  struct FanGame {
    std::string name, rules;
    bool fan = true;
  };
  const std::vector<FanGame> games = {
      {"step",
       "(piece Rook \"R\" (moves (go (n e s w)) empty land\n"
       "  (if (can (go n) enemy) (seq (enter all) enemy capture))))\n" +
           men},
      {"flight",
       "(piece Rook \"R\" (moves (enter all) empty (not (at origin)) land\n"
       "  (if (not (can (go e) friend (go e) (not empty))) (seq (enter all) enemy capture))))\n" +
           men},
      {"placement",
       "(piece Rook \"R\")\n"
       "(moves (new Rook) (enter all) empty land (add placed 1) (cannot (go n) enemy))\n(setup)\n"},
      {"lookahead",
       "(piece Rook \"R\" (moves (can (enter all) empty land (can (go n) enemy)) (go (n e s w)) empty))\n" + men,
       false},
      {"placement without a pattern", "(piece Rook \"R\")\n(moves (new Rook) (enter all) empty land)\n(setup)\n"},
      // Patterns that lead either way to one run (a counter, one more decision): counted as cells.
      {"step whose pattern decides nothing",
       "(piece Rook \"R\" (moves (go (n e s w)) empty land (if (can (go n) enemy) (seq (add placed 1) again))))\n" +
           men},
      {"placement whose pattern decides nothing",
       "(piece Rook \"R\")\n(moves (new Rook) (enter all) empty land (if (cannot (go n) enemy) (add placed 1)))\n"
       "(setup)\n"},
      // A step whose cells are tested beyond the choice's mask (a region, the origin): the cells
      // are tested once for every origin (count_fan_origins), an origin's runs its neighbours among them.
      {"step with tests of the cell whose pattern decides nothing",
       "(region middle (cells b2 c3 d4))\n"
       "(piece Rook \"R\" (moves (go (n e s w)) (not enemy) (not (in middle)) (not (at origin)) land\n"
       "  (if (can (go n) enemy) (seq (add placed 1) again))))\n" +
           men}};
  for (const auto& [name, rules, fan] : games) {
    const Game game = troyka_tests::game_from_text("(game \"Fan\" " + board + rules + end);
    game.visit([&](const auto& program) {
      const bool fanned = program.describe().find(", 1 counted as a fan\n") != std::string::npos;
      EXPECT_EQ(fanned, fan) << name << program.describe();
    });
    expect_draws_are_listed(game, name, kGames, 5);  // a flight often takes a man
  }
}

// A rule without a mover whose code after its choice of a cell and that cell's tests makes one run
// from every cell that passes them is a fan (GeneralMoves::one_run_on): a sowing of a house whose
// count is tested above 0, then tests with another way, a step that stays on the board, an enter of
// one cell and takings of counts. Not one that may end a run after the tests: a sowing of a house
// that may be empty, a test without another way, a step off the board, an enter of two cells. Each
// counts and draws the listing's moves.
TEST(GeneralRules, SowingsAreFansWhereTheirCodeMakesOneRun) {
  constexpr int kGames = troyka_tests::kSlowBuild ? 2 : 4;
  const std::string sow = "(enter home-row) (count > 0) (sow t) ";
  const std::vector<std::pair<std::string, bool>> rules = {
      {sow, true},
      {sow + "(if (in stores) again (if (in home-row) (seq (mark last) (go forward) (mark far) "
             "(enter home-row) (in stores) (take-count far) (take-count last))))",
       true},
      {"(enter home-row) (sow t)", false},
      {sow + "(count > 1)", false},
      {sow + "(go forward)", false},
      {sow + "(mark last) (enter home-row) (take-count last)", false}};
  for (const auto& [moves, fan] : rules) {
    const Game game = troyka_tests::game_from_text(
        "(game \"K\" (players (South north) (North south)) (board (rectangle 8 2) (holes a1 h2))\n"
        "  (region stores (cells h1 a2))\n"
        "  (track t (South b1 c1 d1 e1 f1 g1 h1 g2 f2 e2 d2 c2 b2) (North g2 f2 e2 d2 c2 b2 a2 b1 c1 d1 e1 f1 g1))\n"
        "  (piece Seed \"S\")\n  (moves " +
        moves + ")\n  (setup (count 3 (cells b1 c1 d1 e1 f1 g1 b2 c2 d2 e2 f2 g2)))\n  (end (draw (ply-limit 30))))\n");
    game.visit([&](const auto& program) {
      const bool fanned = program.describe().find(", 1 counted as a fan\n") != std::string::npos;
      EXPECT_EQ(fanned, fan) << moves << program.describe();
    });
    expect_draws_are_listed(game, moves, kGames, 5);
  }
}

// A step onto an empty cell or an enemy piece taken (an or whose ways exclude each other by their
// first test), perhaps promoting, is counted by its runs, as a board of the origin's neighbours
// (GeneralMoves::Step); so is a drop of any type held onto an empty cell, each type a move. An or
// whose way moves on from the cell chosen, before a landing tells the runs apart, is not counted.
TEST(GeneralRules, StepsAndDropsAreCountedAndDrawnAsListed) {
  constexpr int kGames = troyka_tests::kSlowBuild ? 2 : 6;
  const std::string game =
      "(game \"Steps\" (players (White north) (Black south)) (board (rectangle 4 5)) (hands Man)\n"
      "(piece King \"K\" (moves (go (n ne e se s sw w nw)) (or (seq enemy (capture to-hand)) empty)))\n"
      "(piece Man \"M\" (moves (go (forward forward-left forward-right)) (or empty (seq enemy (capture to-hand)))\n"
      "  (if (in far-row) (become King))))\n"
      "(moves (from-hand) (enter all) empty)\n"
      "(setup (place White King a1) (place White Man (cells b2 c2))\n"
      "  (place Black King d5) (place Black Man (cells b4 c4)))\n"
      "(end (lose (lost King)) (lose no-legal-moves) (draw (ply-limit 60))))";
  expect_draws_are_listed(troyka_tests::game_from_text(game), "steps", kGames, 5);
  // Steps onto empty cells only, a capture off the board, a promotion where a region's test fails.
  const std::string other = game.substr(0, game.find("(piece King")) +
                            "(piece King \"K\" (moves (go (n ne e se s sw w nw)) (or (seq enemy capture) empty)))\n"
                            "(piece Man \"M\" (moves (go (forward forward-left forward-right)) empty\n"
                            "  (if (not (in (rows 1 2))) (become King))))\n" +
                            game.substr(game.find("(moves (from-hand)"));
  expect_draws_are_listed(troyka_tests::game_from_text(other), "other steps", kGames, 5);
  const Game moving_on = rook_game("(moves (go (n s)) (or empty (seq enemy capture (go n))))");
  moving_on.visit([](const auto& program) { EXPECT_FALSE(program.draws_by_count()); });
}

// A lookahead of fixed steps and tests (a PATTERN, resolved per cell when compiled) runs as the VM
// would: a step off the board ends its run, so (cannot ...) holds at the edge; (and (cannot ..)
// (cannot ..)) holds when neither body has a run; (not ...) inside a body and a region's test count.
TEST(GeneralRules, StraightLookaheadsHoldAsTheirRunsWould) {
  const Game beyond = rook_game("(moves (go n) empty (cannot (go n) friend))");
  beyond.visit([](const auto& program) {
    EXPECT_NE(program.describe().find("compiled: general: 4 instructions (White 4, Black 4)"), std::string::npos)
        << program.describe();
    EXPECT_EQ(move_texts(program, position(program, "5/5/R4/5/R4 White 0")), (Texts{"a3-a4"}));
    EXPECT_EQ(move_texts(program, position(program, "5/R4/5/5/5 White 0")), (Texts{"a4-a5"}));
  });
  const Game beside = rook_game("(moves (go n) empty (and (cannot (go e) (not empty)) (cannot (go w) enemy)))");
  beside.visit([](const auto& program) {
    // From b1: b2 has an enemy east (c2) and one west (a2); from d1: d2 has c2 west, e2 empty east.
    EXPECT_EQ(move_texts(program, position(program, "5/5/5/r1r2/1R1R1 White 0")), (Texts{}));
    EXPECT_EQ(move_texts(program, position(program, "5/5/5/2r2/3R1 White 0")), (Texts{}));
    EXPECT_EQ(move_texts(program, position(program, "5/5/5/5/3R1 White 0")), (Texts{"d1-d2"}));
    // At the east edge (e1 to e2) no step east has a run: only the west counts.
    EXPECT_EQ(move_texts(program, position(program, "5/5/5/5/4R White 0")), (Texts{"e1-e2"}));
  });
  const Game region = rook_game("(moves (go n) empty (can (go n) (in far-row)))");
  region.visit([](const auto& program) {
    EXPECT_EQ(move_texts(program, position(program, "5/5/R4/5/5 White 0")), (Texts{"a3-a4"}));
    EXPECT_EQ(move_texts(program, position(program, "5/5/5/R4/5 White 0")), (Texts{}));
  });
}

// Two runs with one record are one move: two ways to the same cell.
TEST(GeneralRules, RunsWithEqualRecordsAreOneMove) {
  const Game game = rook_game("(moves (or (seq (go n) (go e)) (seq (go e) (go n))))");
  game.visit([](const auto& program) {
    EXPECT_EQ(move_texts(program, position(program, "5/5/5/5/R4 White 0")), (Texts{"a1-b2"}));
  });
}

// Two moves that would print alike print in the explicit form, which writes their captures, and
// read back.
TEST(GeneralRules, MovesThatPrintAlikeTakeTheExplicitForm) {
  const Game game =
      rook_game("(moves (go n) empty (or (seq (go e) enemy capture (go w)) (seq (go w) enemy capture (go e))))");
  game.visit([](const auto& program) {
    const auto start = position(program, "5/5/5/r1r2/1R3 White 0");
    EXPECT_EQ(move_texts(program, start), (Texts{"b1xb2xa2", "b1xb2xc2"}));
    EXPECT_EQ(program.position_text(after(program, start, "b1xb2xa2")), "5/5/5/1Rr2/5 Black 1");
  });
}

// The texts of general moves are remembered in two generations: a long run forgets the old ones,
// and the moves of the last listing always have theirs.
TEST(GeneralRules, RememberedMoveTextsStayBounded) {
  const Game scoring = troyka_tests::game("breakthrough-score.game");
  const auto rules = std::make_shared<const lang::Rules>(scoring.rules());
  scoring.visit([&](const auto& program) {
    constexpr int kWords = std::decay_t<decltype(program)>::kWords;
    const GeneralMoves<kWords> general(rules, rules->general, 8);
    Rng rng(5);
    MoveList moves;
    std::vector<GeneralRecord> records;
    auto state = program.initial_state();
    std::vector<Move> named;
    std::size_t longest = 0;
    while (!state.over) {
      moves.clear();
      records.clear();
      general.list(state, false, false, moves, &records, nullptr);
      general.name_moves(moves, records, false);
      longest = std::max(longest, moves.size());
      EXPECT_LE(general.known_texts(), 2 * std::max<std::size_t>(8, longest));
      MoveList listed;
      program.legal_moves(state, listed);  // names them in the program's own texts, of the default bound
      for (const Move& move : moves) EXPECT_EQ(general.text(move), program.move_text(move));
      named.insert(named.end(), moves.begin(), moves.end());
      program.apply(state, program.random_move(state, rng));
    }
    // Some move listed once is forgotten by now, which the program, of the default bound, still names.
    const auto forgotten =
        std::find_if(named.begin(), named.end(), [&](const Move& move) { return general.text(move).empty(); });
    ASSERT_NE(forgotten, named.end());
    EXPECT_EQ(program.move_text(*forgotten).find('#'), std::string::npos) << program.move_text(*forgotten);
  });
}

// A lookahead keeps where its body ends in 16 bits: a longer one is refused at its rule, where it
// compiled into a jump elsewhere and the rule listed no moves. A long bounded repeat is a loop with
// a count, two of them nested; the third and fourth, with no count left, are unrolled: 200 x 200
// passes inside a cannot, each pass a STEPWHERE and a SPLIT.
TEST(GeneralRules, ALookaheadLongerThanTheProgramReachesIsRefusedAtItsRule) {
  try {
    (void)rook_game(
        "(moves (cannot (repeat (repeat (repeat (repeat (seq (go (n e)) any) (at-most 200)) (at-most 200)) (at-most "
        "200)) (at-most 200))) (go n) empty)");
    ADD_FAILURE() << "compiled";
  } catch (const lang::Error& error) {
    const std::string rendered = lang::render(error.diagnostic());
    EXPECT_EQ(rendered.substr(0, rendered.find('\n')),
              "test.game:2:17: error: a lookahead of a rule ends at instruction 80210, past the 65535 that the "
              "general back end's lookaheads reach: bound its repeats more tightly");
  }
}

// Listing the start's moves of the game of `text` (file `file`) fails with RunawayRule's `message`.
void expect_runaway(const std::string& file, const std::string& text, const std::string& message) {
  const Game game(lang::load_rules(std::make_shared<lang::SourceFile>(lang::SourceFile{file, text}), {}));
  game.visit([&](const auto& program) {
    MoveList moves;
    try {
      program.legal_moves(program.initial_state(), moves);
      ADD_FAILURE() << "listed " << moves.size() << " moves";
    } catch (const std::runtime_error& error) {
      EXPECT_EQ(std::string(error.what()), message);
    }
  });
}

// A rule whose runs double at every cell of a 26-cell row: the generator stops at its budget.
TEST(GeneralRules, RunawayGenerationFailsLoudly) {
  expect_runaway("runaway.game",
                 "(game \"Runaway\" (players (White north) (Black south)) (board (rectangle 26 2))\n(piece Rook \"R\" "
                 "(moves (repeat (seq (or empty (not friend)) (go e)) (at-least 1))))\n"
                 "(setup (place White Rook a1)) (end (lose no-legal-moves)))",
                 "the general move generator ran 16777216 steps in one position of Runaway: a rule may repeat "
                 "without end; bound it with (at-most N)");
}

// A rule whose two nested repetitions may shuttle a rook east and west a million times: its runs
// go a cell deeper at every step, so the choices it keeps open stop it long before its steps would
// (before that bound it held 100 MB of them when the step budget stopped it).
TEST(GeneralRules, RunawayChoicesFailLoudlyLongBeforeTheStepBudget) {
  expect_runaway("shuttle.game",
                 "(game \"Shuttle\" (players (White north) (Black south)) (board (rectangle 4 2))\n(piece Rook \"R\" "
                 "(moves (repeat (repeat (or (go e) (go w)) (at-most 1000)) (at-most 1000)) (go n) empty))\n"
                 "(setup (place White Rook a1)) (end (lose no-legal-moves)))",
                 "the general move generator kept over 65536 choices open in one position of Shuttle: a rule's "
                 "repetitions go too deep; bound them with a smaller (at-most N)");
}

}  // namespace
}  // namespace troyka
