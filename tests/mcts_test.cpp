// The MCTS agent's improvements: the solver (forced wins in 1, 3 and 5 plies, checked against an
// independent minimax), tree reuse, threads, the memory cap, the switches, and whole games of
// every game in games/.
#include "agents/mcts.h"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <chrono>
#include <filesystem>
#include <memory>
#include <string>
#include <type_traits>
#include <vector>

#include "agents/agent.h"
#include "interpreter/game.h"
#include "interpreter/general.h"
#include "tests/games.h"

namespace troyka::agents {
namespace {

using troyka_tests::breakthrough;
using troyka_tests::endless_game;
using troyka_tests::position;

template <typename Program>
std::unique_ptr<Agent<Program>> started_agent(const std::string& spec, const Program& program) {
  auto made = make_agent(parse_agent_spec(spec), program, 1);
  made->start(0, TimeControl{});
  return made;
}

template <typename Program>
bool opponent_is_lost(const Program& program, const typename Program::StateType& state, int plies);

// Plain minimax, independent of the agent: whether the player to move in `state` can force a
// win within `plies` plies.
template <typename Program>
bool forced_win(const Program& program, const typename Program::StateType& state, int plies) {
  if (state.over || plies <= 0) return false;
  MoveList moves;
  program.legal_moves(state, moves);
  for (const Move move : moves) {
    auto after = state;
    program.apply(after, move);
    if (after.over ? after.winner == state.to_move : opponent_is_lost(program, after, plies - 1)) return true;
  }
  return false;
}

// Whether every move of the player to move in `state` leads to a forced win of the other player
// within `plies` plies (counting this one).
template <typename Program>
bool opponent_is_lost(const Program& program, const typename Program::StateType& state, int plies) {
  if (state.over) return state.winner == 1 - state.to_move;
  if (plies <= 0) return false;
  MoveList moves;
  program.legal_moves(state, moves);
  for (const Move move : moves) {
    auto after = state;
    program.apply(after, move);
    if (after.over ? after.winner != 1 - state.to_move : !forced_win(program, after, plies - 1)) return false;
  }
  return true;
}

// Positions with a forced win for White in exactly 1, 3 and 5 plies, where Black wins soon after
// if White dawdles: every move but the winning ones loses.
struct ForcedWin {
  const char* position;
  int plies;
};
const ForcedWin kForcedWins[] = {
    {"8/3P4/8/8/8/8/6p1/P7 White 10", 1},   // d7 steps onto the far row; Black's g2 needs one move
    {"8/8/3P4/8/8/6p1/8/P7 White 10", 3},   // d6 runs; Black's g3 needs two moves
    {"8/8/8/3P4/6p1/8/8/P7 White 10", 5},   // d5 runs; Black's g4 needs three moves
    {"7p/8/8/3P4/6p1/8/8/P7 White 10", 5},  // the same with a Black piece far away
};

TEST(MctsSolver, ProvesForcedWinsAndPlaysThem) {
  breakthrough().visit([](const auto& program) {
    for (const ForcedWin& example : kForcedWins) {
      const auto state = position(program, example.position);
      ASSERT_TRUE(forced_win(program, state, example.plies)) << example.position;
      if (example.plies > 1) {
        ASSERT_FALSE(forced_win(program, state, example.plies - 2)) << example.position;
      }
      auto mcts = started_agent("mcts:iterations=200000", program);
      const Move move = mcts->choose(state, 0);
      const SearchReport report = *mcts->last_report();
      EXPECT_EQ(report.proof, Proof::Win) << example.position;
      EXPECT_LT(report.iterations, 200000u) << "a proven root ends the search: " << example.position;
      auto after = state;
      program.apply(after, move);
      EXPECT_TRUE(after.over ? after.winner == 0 : opponent_is_lost(program, after, example.plies - 1))
          << example.position << ": " << report.best_text;
    }
  });
}

TEST(MctsSolver, NeverPlaysALosingMoveWhenAWinExists) {
  breakthrough().visit([](const auto& program) {
    for (const ForcedWin& example : kForcedWins) {
      for (const char* spec : {"mcts:iterations=3000", "mcts:iterations=3000,threads=2", "mcts:time=20ms"}) {
        auto state = position(program, example.position);
        auto white = started_agent(spec, program);
        auto black = started_agent("mcts:iterations=3000", program);
        // White must win whatever Black does, within the plies the position promises.
        while (!state.over) {
          const Move move = (state.to_move == 0 ? white : black)->choose(state, 0);
          program.apply(state, move);
          white->observe(move);
          black->observe(move);
        }
        EXPECT_EQ(state.winner, 0) << example.position << " with " << spec;
        EXPECT_LE(static_cast<int>(state.ply) - 10, example.plies) << example.position << " with " << spec;
      }
    }
  });
}

TEST(MctsSolver, ReportsAProvenLossAndStillMoves) {
  breakthrough().visit([](const auto& program) {
    // White to move cannot stop both of Black's pawns on row 2.
    const auto state = position(program, "pppppppp/8/8/8/8/8/1p4p1/P6P White 20");
    auto mcts = started_agent("mcts:iterations=5000", program);
    const Move move = mcts->choose(state, 0);
    MoveList legal;
    program.legal_moves(state, legal);
    EXPECT_NE(std::find(legal.begin(), legal.end(), move), legal.end());
    EXPECT_EQ(mcts->last_report()->proof, Proof::Loss);
  });
}

// Every game in games/ (and a test game with slides), played to the end by every kind of agent;
// every move must be legal. One test per game, so that ctest runs them side by side.
std::vector<std::string> whole_game_files() {
  std::vector<std::string> files{std::string(TROYKA_SOURCE_DIR) + "/tests/data/games/rooks-and-knights.game"};
  for (const auto& entry : std::filesystem::directory_iterator(std::string(TROYKA_SOURCE_DIR) + "/games"))
    if (entry.path().extension() == ".game") files.push_back(entry.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

class WholeGames : public testing::TestWithParam<std::string> {};

TEST_P(WholeGames, EveryAgentPlaysLegalMovesToTheEnd) {
  const std::string& file = GetParam();
  // Small boards play the same rules in a fraction of the time (a game of Breakthrough scoring on
  // 8x8 takes seconds, its pawns moving on the general back end; Connect6 on 19x19 much longer).
  lang::Options options;
  const Game declared = Game::load(file);
  for (const auto& [name, value] : declared.rules().params) {
    if (name == "size") options.params.emplace_back("size", "7");
    if (name == "width") options.params = {{"width", "5"}, {"height", "6"}};
  }
  // Whole games check the agents' moves for legality, not their strength: fewer iterations in
  // slow builds play just as many positions. Hasami Shogi's random games run to hundreds of plies
  // on the general back end, and the tafl games' moves all run there, where a decisive-move test
  // tries each move on a copy: few playouts a move (and Hasami's smallest board). Nine Men's
  // Morris runs every rule there too, each landing asking for mills by lookaheads, and
  // international draughts' kings search every capture sequence. Lines of Action's random games
  // run to some 200 plies there, and its win by one group makes decisive-move tests try every move;
  // so do Go's end by two passes (a counter) and its captures, every stone a flood fill. Minishogi
  // tests check by listing the opponent's replies to every move (98 s of a release build at 300).
  if (file.ends_with("/hasami-shogi.game")) options.params = {{"size", "5"}};
  // Breakthrough for three and four sides: its smallest board; placed three-player Amazons, whose
  // every move runs on the general back end, a small one (three-player Amazons has no size).
  if (declared.rules().player_count() > kPlayers && !options.params.empty())
    options.params = {{"size", file.ends_with("/amazons-3-players-placed.game") ? "6" : "8"}};
  const bool few_playouts = file.ends_with("/hasami-shogi.game") || file.ends_with("/tablut.game") ||
                            file.ends_with("/brandubh.game") || file.ends_with("/nine-mens-morris.game") ||
                            file.ends_with("/international-draughts.game") || file.ends_with("/lines-of-action.game") ||
                            file.ends_with("/go.game") || file.ends_with("/minishogi.game");
  const std::string iterations = few_playouts ? "2" : troyka_tests::kSlowBuild ? "30" : "300";
  // A random game of chess runs to some 400 plies: the agents play an ending instead, ten plies
  // before the fifty-move draw, with castling still allowed.
  const bool chess = file.ends_with("/chess.game");
  Game::load(file, options).visit([&](const auto& program) {
    for (const auto& [white_spec, black_spec] :
         {std::pair{"mcts:iterations=" + iterations, std::string("random")},
          std::pair{"uct:iterations=" + iterations, "mcts:iterations=" + iterations + ",threads=2"}}) {
      auto white = started_agent(white_spec, program), black = started_agent(black_spec, program);
      auto state = chess ? position(program, "4k3/8/8/8/8/8/8/R3K3 White 180 90 unmoved=a1,e1 passed=-")
                         : program.initial_state();
      // The game's history, for a repetition rule: Go's is what ends the ko fights of weak agents.
      History history = program.start_history(state);
      MoveList legal;
      while (!state.over) {
        const Move move = (state.to_move == 0 ? white : black)->choose(state, 0);
        program.legal_moves(state, legal);
        ASSERT_NE(std::find(legal.begin(), legal.end(), move), legal.end())
            << file << ": " << program.move_text(move) << " in " << program.position_text(state);
        program.apply(state, move, history);
        if (chess) continue;  // the agents follow games from the start: they search the ending afresh
        white->observe(move);
        black->observe(move);
      }
      EXPECT_NE(program.end_reason(state), "") << file;
    }
  });
}

// Test names from file names: "nine-mens-morris.game" is "nine_mens_morris".
std::string game_test_name(const testing::TestParamInfo<std::string>& info) {
  std::string name = std::filesystem::path(info.param).stem().string();
  std::replace(name.begin(), name.end(), '-', '_');
  return name;
}

INSTANTIATE_TEST_SUITE_P(EveryGame, WholeGames, testing::ValuesIn(whole_game_files()), game_test_name);

TEST(Mcts, ReportsThePrincipalLine) {
  breakthrough().visit([](const auto& program) {
    auto mcts = started_agent("mcts:iterations=20000", program);
    const auto state = program.initial_state();
    const Move move = mcts->choose(state, 0);
    const SearchReport report = *mcts->last_report();
    ASSERT_GE(report.principal.size(), 3u);
    EXPECT_EQ(report.principal.front(), program.move_text(move));
    // The line is a legal sequence of moves.
    auto line = state;
    for (const std::string& text : report.principal) {
      const ParsedMove parsed = program.parse_move(line, text);
      ASSERT_TRUE(parsed.ok()) << text << ": " << parsed.error;
      program.apply(line, parsed.move);
    }
    EXPECT_EQ(report.proof, Proof::Unknown);
    EXPECT_EQ(report.threads, 1);
    EXPECT_GE(report.bytes, report.nodes * 32);
  });
}

TEST(Mcts, ReusesTheTreeOfTheMovesPlayed) {
  breakthrough().visit([](const auto& program) {
    // The same two searches, with and without reuse: the second search of the reusing agent
    // starts from the subtree the first one grew, so it ends with more nodes.
    std::array<std::size_t, 2> nodes{};
    for (const bool reuse : {false, true}) {
      auto mcts = started_agent(std::string("mcts:iterations=20000,reuse=") + (reuse ? "on" : "off"), program);
      auto state = program.initial_state();
      const Move first = mcts->choose(state, 0);
      program.apply(state, first);
      mcts->observe(first);
      const SearchReport report = *mcts->last_report();
      const ParsedMove reply = program.parse_move(state, report.principal.size() > 1 ? report.principal[1] : "a7-a6");
      ASSERT_TRUE(reply.ok());
      program.apply(state, reply.move);
      mcts->observe(reply.move);
      mcts->choose(state, 0);
      nodes[reuse] = mcts->last_report()->nodes;
    }
    EXPECT_GT(nodes[1], nodes[0]);
  });
}

TEST(Mcts, SearchesAfreshInAPositionItDidNotFollow) {
  breakthrough().visit([](const auto& program) {
    auto mcts = started_agent("mcts:iterations=2000", program);
    auto state = program.initial_state();
    mcts->choose(state, 0);
    // Moves were played without telling the agent (an undo, a lost message): it must notice.
    MoveList moves;
    for (int ply = 0; ply < 4; ++ply) {
      program.legal_moves(state, moves);
      program.apply(state, moves.front());
    }
    const Move move = mcts->choose(state, 0);
    program.legal_moves(state, moves);
    EXPECT_NE(std::find(moves.begin(), moves.end(), move), moves.end());
  });
}

TEST(Mcts, ReuseKeepsSearchesDeterministic) {
  breakthrough(6, 6).visit([](const auto& program) {
    const auto game_moves = [&] {
      auto white = started_agent("mcts:iterations=1500,seed=4", program),
           black = started_agent("mcts:iterations=1500,seed=9", program);
      auto state = program.initial_state();
      std::vector<Move> moves;
      while (!state.over) {
        const Move move = (state.to_move == 0 ? white : black)->choose(state, 0);
        program.apply(state, move);
        white->observe(move);
        black->observe(move);
        moves.push_back(move);
      }
      return moves;
    };
    EXPECT_EQ(game_moves(), game_moves());
  });
}

TEST(Mcts, FinishLetsGoOfTheTreeAndTheNextGameStartsAfresh) {
  breakthrough().visit([](const auto& program) {
    auto mcts = started_agent("mcts:iterations=3000,threads=2", program);
    const auto start = program.initial_state();
    const Move first = mcts->choose(start, 0);
    mcts->observe(first);
    mcts->finish(kNoWinner);
    mcts->start(1, TimeControl{});
    // The moves observed before finish belong to the old game: the search starts from scratch.
    const auto state = position(program, "pppppppp/8/8/8/8/8/6p1/PPPPP2P White 20");
    EXPECT_EQ(program.move_text(mcts->choose(state, 0)), "h1xg2");
    EXPECT_EQ(mcts->last_report()->iterations, 3000u);
  });
}

TEST(Mcts, ThreadsShareTheIterationBudget) {
  breakthrough().visit([](const auto& program) {
    auto mcts = started_agent("mcts:iterations=10001,threads=3", program);
    const auto state = program.initial_state();
    const Move move = mcts->choose(state, 0);
    const SearchReport report = *mcts->last_report();
    EXPECT_EQ(report.iterations, 10001u);
    EXPECT_EQ(report.threads, 3);
    MoveList moves;
    program.legal_moves(state, moves);
    EXPECT_NE(std::find(moves.begin(), moves.end(), move), moves.end());
    // Fewer iterations than threads still runs exactly that many.
    auto tiny = started_agent("mcts:iterations=2,threads=4", program);
    tiny->choose(state, 0);
    EXPECT_EQ(tiny->last_report()->iterations, 2u);
  });
}

// More threads than cores under a short clock: some helper threads are not running at the
// deadline. The reply does not wait for them (their trees sit the move out), and they are joined
// before their trees are used again, in the next search or at the end of the game.
TEST(Mcts, TheClockDoesNotWaitForAHelperThreadThatWasNotRun) {
  breakthrough().visit([](const auto& program) {
    auto mcts = started_agent("mcts:time=5ms,threads=8", program);
    auto state = program.initial_state();
    MoveList moves;
    for (int ply = 0; ply < 30 && !state.over; ++ply) {
      const Move move = mcts->choose(state, 0);
      program.legal_moves(state, moves);
      ASSERT_NE(std::find(moves.begin(), moves.end(), move), moves.end());
      const SearchReport report = *mcts->last_report();
      EXPECT_GE(report.threads, 1);
      EXPECT_LE(report.threads, 8);
      program.apply(state, move);
      mcts->observe(move);
    }
    mcts->finish(kNoWinner);
  });
}

TEST(Mcts, MemoryCapBoundsTheTree) {
  breakthrough().visit([](const auto& program) {
    // 1MB holds 26,214 nodes of 40 bytes; 20,000 iterations would grow about 90,000 (4.5 a
    // iteration). The tree grows into four fifths of them (20,971): the last fifth is room for
    // re-rooting.
    auto mcts = started_agent("mcts:iterations=20000,memory=1MB", program);
    mcts->choose(program.initial_state(), 0);
    EXPECT_LE(mcts->last_report()->nodes, 20971u);
    EXPECT_GT(mcts->last_report()->nodes, 20900u);
    EXPECT_EQ(mcts->last_report()->iterations, 20000u);
    // Without reuse nothing is kept for re-rooting, and the tree may fill the pool.
    auto forgetful = started_agent("mcts:iterations=20000,memory=1MB,reuse=off", program);
    forgetful->choose(program.initial_state(), 0);
    EXPECT_LE(forgetful->last_report()->nodes, 26214u);
    EXPECT_GT(forgetful->last_report()->nodes, 26100u);
  });
}

// The tree's own invariants: children inside the pool, below their parent, with no more visits
// than their parent.
template <typename Tree>
void expect_consistent(const Tree& tree) {
  for (std::uint32_t i = 0; i < tree.size(); ++i) {
    const auto& node = tree.node(i);
    if (node.child_count == 0) continue;
    ASSERT_GT(node.first_child, i);
    ASSERT_LE(node.first_child + node.child_count, tree.size());
    std::uint64_t visits = 0;
    for (std::uint32_t c = node.first_child; c < node.first_child + node.child_count; ++c)
      visits += tree.node(c).visits;
    ASSERT_LE(visits, node.visits) << "node " << i;
  }
}

template <typename Tree>
std::size_t subtree_size(const Tree& tree, std::uint32_t index) {
  std::size_t size = 1;
  const auto& node = tree.node(index);
  for (std::uint32_t c = node.first_child; c < node.first_child + node.child_count; ++c) size += subtree_size(tree, c);
  return size;
}

// The bug that lost referee games on time: a pool that doubled copied the whole tree while the
// clock ran. The nodes must stay where they are however far the tree grows.
TEST(Mcts, NodesNeverMoveWhileTheTreeGrows) {
  breakthrough().visit([](const auto& program) {
    SearchTree<std::decay_t<decltype(program)>> tree(program, SearchOptions{}, 1);
    tree.set_root(program.initial_state(), {}, nullptr);
    const auto* storage = tree.storage();
    for (int i = 0; i < 40000; ++i) tree.iterate();
    EXPECT_GT(tree.size(), 150000u);
    EXPECT_EQ(tree.storage(), storage);
    expect_consistent(tree);
  });
}

// Re-rooting copies the kept subtree into the free space at the end of the pool, breadth first,
// and stops where that space or its deadline ends: its time never grows with the tree. In the
// endless game each position has one or two moves, so the subtree of a move is about half the tree.
TEST(Mcts, RerootingKeepsWhatTheFreeSpaceAndTheDeadlineAllow) {
  endless_game().visit([](const auto& program) {
    using Tree = SearchTree<std::decay_t<decltype(program)>>;
    SearchOptions options;
    options.max_nodes = 100000;  // grows to 80,000; 20,000 free for re-rooting
    options.max_playout_plies = 10;
    const auto start = program.initial_state();
    const auto grown = [&] {
      auto tree = std::make_unique<Tree>(program, options, 5);
      tree->set_root(start, {}, nullptr);
      for (int i = 0; i < 120000; ++i) tree->iterate();
      return tree;
    };
    auto tree = grown();
    const std::size_t full = tree->size();
    EXPECT_GE(full, 79900u);
    const std::uint32_t child = tree->most_visited_child(tree->root());
    const std::size_t subtree = subtree_size(*tree, child);
    const std::uint32_t visits = tree->node(child).visits;
    const std::vector<Move> moves{tree->node(child).move};
    auto root = start;
    program.apply(root, moves[0]);
    ASSERT_GT(subtree, options.max_nodes - full);  // more than the free space holds
    tree->set_root(root, moves, nullptr);
    EXPECT_LE(tree->size(), options.max_nodes - full);
    EXPECT_GT(tree->size(), options.max_nodes - full - 10);  // cut at a run of children
    EXPECT_EQ(tree->root().visits, visits);
    expect_consistent(*tree);
    // The search goes on from the kept part, expanding again what was cut.
    for (int i = 0; i < 1000; ++i) tree->iterate();
    EXPECT_EQ(tree->root().visits, visits + 1000);
    expect_consistent(*tree);

    // With its deadline passed, the copy stops at the first look at the clock (every 4096 nodes).
    auto late = grown();
    const auto passed = std::chrono::steady_clock::now() - std::chrono::seconds(1);
    late->set_root(root, moves, &passed);
    EXPECT_GE(late->size(), 4096u);
    EXPECT_LE(late->size(), 4096u + 10);
    EXPECT_EQ(late->root().visits, visits);
    expect_consistent(*late);
  });
}

// Playouts of the endless game stop at the cap, count as draws and are reported; the search keeps
// its iteration budget and its clock.
TEST(Mcts, AnEndlessGameIsSearchedWithCappedPlayouts) {
  endless_game().visit([](const auto& program) {
    auto counted = started_agent("mcts:iterations=40", program);
    counted->choose(program.initial_state(), 0);
    EXPECT_EQ(counted->last_report()->iterations, 40u);
    EXPECT_EQ(counted->last_report()->capped_playouts, 40u);
    EXPECT_DOUBLE_EQ(counted->last_report()->value, 0.5);
    auto timed = started_agent("mcts:time=100ms", program);
    timed->choose(program.initial_state(), 0);
    EXPECT_GT(timed->last_report()->capped_playouts, 0u);
    EXPECT_LT(timed->last_report()->seconds, 10.0);  // it returns: no playout runs forever
  });
}

// A rule that runs away in the search (RunawayRule, past the general back end's step budget) ends
// choose() with that error, on one thread or several, instead of ending the process.
TEST(Mcts, ARuleThatRunsAwayFailsTheSearchCleanly) {
  const Game game(lang::load_rules(
      std::make_shared<lang::SourceFile>(lang::SourceFile{"runaway.game", troyka_tests::kRunawayGame}), {}));
  game.visit([](const auto& program) {
    for (const std::string spec : {"mcts:iterations=50", "mcts:iterations=50,threads=2", "mcts:time=10s,threads=2"}) {
      auto searcher = started_agent(spec, program);
      try {
        searcher->choose(program.initial_state(), 0);
        ADD_FAILURE() << spec << " chose a move";
      } catch (const RunawayRule& error) {
        EXPECT_EQ(std::string(error.what()), troyka_tests::kRunawayMessage) << spec;
      }
    }
  });
}

TEST(Mcts, OneLegalMoveNeedsNoSearch) {
  const Game game = Game(lang::load_rules(std::make_shared<lang::SourceFile>(lang::SourceFile{"one.game", R"(
    (game "One" (players (White north) (Black south)) (board (rectangle 3 4))
      (piece Pawn (step forward (to empty)))
      (setup (place White Pawn (cells a1)) (place Black Pawn (cells c4)))
      (end (win (reach far-row)) (lose no-legal-moves))))"}),
                                          {}));
  game.visit([](const auto& program) {
    auto mcts = started_agent("mcts:time=10s", program);
    const Move move = mcts->choose(program.initial_state(), 0);
    EXPECT_EQ(program.move_text(move), "a1-a2");
    EXPECT_LT(mcts->last_report()->seconds, 1.0);
  });
}

// The limits are checked exactly; the time taken only loosely (far below the spec's 10 s), as a
// loaded or sanitized build may overrun a 30 ms limit by a few milliseconds.
TEST(Mcts, ClockCapsTheThinkingTime) {
  breakthrough().visit([](const auto& program) {
    auto mcts = make_agent(parse_agent_spec("mcts:time=10s"), program, 1);
    mcts->start(0, TimeControl{0.05, 0, 0});
    mcts->choose(program.initial_state(), 0.05);
    // 50 ms a move, less the margin for the way back: 10 ms and 5%.
    EXPECT_DOUBLE_EQ(mcts->last_report()->time_limit, 0.0375);
    EXPECT_LT(mcts->last_report()->seconds, 1.0);
    // With a game total, a move takes a twentieth of what is left, less the margin.
    mcts->start(0, TimeControl{0, 2.0, 0});
    mcts->choose(program.initial_state(), 2.0);
    EXPECT_DOUBLE_EQ(mcts->last_report()->time_limit, 0.085);
    EXPECT_LT(mcts->last_report()->seconds, 1.0);
  });
}

// A referee that counts 100 ms more than the agent's own clock (allow_for_lag): the agent keeps
// twice that in hand, where the fixed margin (10 ms and 5%) would be less.
TEST(Mcts, ALagTheRefereeReportsWidensTheMargin) {
  breakthrough().visit([](const auto& program) {
    auto mcts = make_agent(parse_agent_spec("mcts:time=10s"), program, 1);
    mcts->start(0, TimeControl{0.4, 0, 0});
    mcts->allow_for_lag(0.1);
    mcts->choose(program.initial_state(), 0.4);
    EXPECT_DOUBLE_EQ(mcts->last_report()->time_limit, 0.2);
    auto calm = make_agent(parse_agent_spec("mcts:time=10s"), program, 1);
    calm->start(0, TimeControl{0.4, 0, 0});
    calm->allow_for_lag(0.001);  // less than the fixed margin: that margin holds
    calm->choose(program.initial_state(), 0.4);
    EXPECT_DOUBLE_EQ(calm->last_report()->time_limit, 0.4 - 0.01 - 0.02);
  });
}

}  // namespace
}  // namespace troyka::agents
