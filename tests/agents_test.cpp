// Tests of the agents: spec parsing and its error texts, the random agent, and MCTS (determinism,
// wins and defences in one move, time budgets, strength against random on a small board).
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <map>
#include <memory>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <thread>
#include <type_traits>
#include <utility>
#include <vector>

#include "agents/agent.h"
#include "agents/mcts.h"
#include "cli/commands.h"
#include "interpreter/game.h"
#include "lang/diagnostic.h"
#include "tests/games.h"

namespace troyka::agents {
namespace {

using troyka_tests::breakthrough;
using troyka_tests::kBreakthrough;
using troyka_tests::position;

template <typename Program>
using AgentOf = std::unique_ptr<Agent<Program>>;

template <typename Program>
AgentOf<Program> agent(const std::string& spec, const Program& program, std::uint64_t default_seed = 1) {
  return make_agent(parse_agent_spec(spec), program, default_seed);
}

// Plays a whole game between two agents (index = player); every move must be legal. Returns the moves.
template <typename Program>
std::vector<Move> play(const Program& program, std::array<Agent<Program>*, kPlayers> players,
                       typename Program::StateType* end = nullptr) {
  for (int player = 0; player < kPlayers; ++player)
    players[static_cast<std::size_t>(player)]->start(player, TimeControl{});
  auto state = program.initial_state();
  std::vector<Move> moves;
  MoveList legal;
  while (!state.over) {
    const Move move = players[state.to_move]->choose(state, 0);
    program.legal_moves(state, legal);
    EXPECT_NE(std::find(legal.begin(), legal.end(), move), legal.end())
        << program.move_text(move) << " in " << program.position_text(state);
    program.apply(state, move);
    for (Agent<Program>* player : players) player->observe(move);
    moves.push_back(move);
  }
  for (Agent<Program>* player : players) player->finish(state.winner);
  if (end) *end = state;
  return moves;
}

std::string spec_error(const std::string& spec) {
  try {
    parse_agent_spec(spec);
  } catch (const lang::Error& error) {
    return lang::render(error.diagnostic());
  }
  return "no error";
}

// ---- specs ------------------------------------------------------------------------------------------------

TEST(AgentSpec, ParsesNamesAndOptions) {
  AgentSpec spec = parse_agent_spec("random");
  EXPECT_EQ(spec.name, "random");
  EXPECT_TRUE(spec.options.empty());

  spec = parse_agent_spec("random:seed=7");
  EXPECT_EQ(spec.name, "random");
  EXPECT_EQ(spec.options, (std::map<std::string, std::string>{{"seed", "7"}}));

  spec = parse_agent_spec("mcts:time=1s");
  EXPECT_EQ(spec.name, "mcts");
  EXPECT_EQ(spec.options, (std::map<std::string, std::string>{{"time", "1s"}}));

  spec = parse_agent_spec("mcts:iterations=20000,c=0.7,seed=3");
  EXPECT_EQ(spec.options, (std::map<std::string, std::string>{{"c", "0.7"}, {"iterations", "20000"}, {"seed", "3"}}));
  EXPECT_EQ(spec_text(spec), "mcts:c=0.7,iterations=20000,seed=3");
  EXPECT_EQ(spec_text(parse_agent_spec("random")), "random");
  EXPECT_EQ(agent_names(), (std::vector<std::string>{"mcts", "random", "uct"}));
}

TEST(AgentSpec, Durations) {
  EXPECT_DOUBLE_EQ(*parse_duration("200ms"), 0.2);
  EXPECT_DOUBLE_EQ(*parse_duration("1.5s"), 1.5);
  EXPECT_DOUBLE_EQ(*parse_duration("1s"), 1.0);
  EXPECT_DOUBLE_EQ(*parse_duration("0.5ms"), 0.0005);
  for (const char* bad : {"", "1", "s", "ms", "0s", "-1s", "1 s", "1.5m", "nans", "infs", "1e9s", "1.5sec", "+1s"})
    EXPECT_FALSE(parse_duration(bad).has_value()) << bad;
}

TEST(AgentSpec, MctsConfig) {
  MctsConfig config = mcts_config(parse_agent_spec("mcts"), 5);
  EXPECT_EQ(config.iterations, 0u);
  EXPECT_EQ(config.seconds, 0.0);
  EXPECT_EQ(config.search.c, 0.7);
  EXPECT_EQ(config.seed, 5u);
  config = mcts_config(parse_agent_spec("mcts:iterations=20000,c=1.4,seed=3,time=200ms"), 5);
  EXPECT_EQ(config.iterations, 20000u);
  EXPECT_DOUBLE_EQ(config.seconds, 0.2);
  EXPECT_EQ(config.search.c, 1.4);
  EXPECT_EQ(config.seed, 3u);
}

TEST(AgentSpec, ErrorsNameTheKeyAndListTheValidOnes) {
  EXPECT_EQ(spec_error("mtcs"),
            "error: unknown agent 'mtcs'\nhint: did you mean 'mcts'? valid agents: mcts, random, uct\n");
  EXPECT_EQ(spec_error("rand"),
            "error: unknown agent 'rand'\nhint: did you mean 'random'? valid agents: mcts, random, uct\n");
  EXPECT_EQ(spec_error("alphazero"), "error: unknown agent 'alphazero'\nhint: valid agents: mcts, random, uct\n");
  EXPECT_EQ(spec_error(""), "error: no agent given\nhint: valid agents: mcts, random, uct\n");
  EXPECT_EQ(spec_error(":seed=1"), "error: no agent given\nhint: valid agents: mcts, random, uct\n");
  EXPECT_EQ(spec_error("mcts:iters=5"),
            "error: unknown option 'iters' for agent 'mcts'\n"
            "hint: did you mean 'iterations'? valid options: c, decisive, iterations, mast, memory, reuse, seed, "
            "solver, threads, time\n");
  EXPECT_EQ(spec_error("mcts:tme=1s"),
            "error: unknown option 'tme' for agent 'mcts'\n"
            "hint: did you mean 'time'? valid options: c, decisive, iterations, mast, memory, reuse, seed, solver, "
            "threads, time\n");
  EXPECT_EQ(spec_error("mcts:depth=3"),
            "error: unknown option 'depth' for agent 'mcts'\nhint: valid options: c, decisive, iterations, mast, "
            "memory, reuse, seed, solver, threads, time\n");
  EXPECT_EQ(spec_error("random:time=1s"),
            "error: unknown option 'time' for agent 'random'\nhint: valid options: seed\n");
  EXPECT_EQ(spec_error("mcts:time=fast"),
            "error: bad value 'fast' for option 'time' of agent 'mcts'\n"
            "hint: expected a time in ms or s, up to 86400 s, e.g. time=200ms or time=1.5s\n");
  EXPECT_EQ(spec_error("mcts:time=1"),
            "error: bad value '1' for option 'time' of agent 'mcts'\n"
            "hint: expected a time in ms or s, up to 86400 s, e.g. time=200ms or time=1.5s\n");
  EXPECT_EQ(spec_error("mcts:iterations=0"),
            "error: bad value '0' for option 'iterations' of agent 'mcts'\n"
            "hint: expected a whole number from 1 to 1000000000, e.g. iterations=20000\n");
  EXPECT_EQ(spec_error("mcts:iterations=2k"),
            "error: bad value '2k' for option 'iterations' of agent 'mcts'\n"
            "hint: expected a whole number from 1 to 1000000000, e.g. iterations=20000\n");
  EXPECT_EQ(spec_error("mcts:c=-1"),
            "error: bad value '-1' for option 'c' of agent 'mcts'\n"
            "hint: expected a number from 0 to 100, e.g. c=0.7\n");
  EXPECT_EQ(spec_error("random:seed=x"),
            "error: bad value 'x' for option 'seed' of agent 'random'\nhint: expected a whole number, e.g. seed=7\n");
  EXPECT_EQ(spec_error("mcts:time"), "error: option 'time' for agent 'mcts' needs a value\nhint: e.g. mcts:time=1s\n");
  EXPECT_EQ(spec_error("mcts:seed="), "error: option 'seed' for agent 'mcts' needs a value\nhint: e.g. mcts:seed=7\n");
  EXPECT_EQ(spec_error("mcts:seed=1,seed=2"),
            "error: option 'seed' given twice for agent 'mcts'\nhint: give each option once\n");
  EXPECT_EQ(spec_error("mcts:"),
            "error: empty option in agent spec 'mcts:'\n"
            "hint: options are KEY=VALUE separated by commas, e.g. mcts:c=0.7\n");
  EXPECT_EQ(spec_error("mcts:time=1s,"),
            "error: empty option in agent spec 'mcts:time=1s,'\n"
            "hint: options are KEY=VALUE separated by commas, e.g. mcts:c=0.7\n");
}

TEST(AgentSpec, SearchSwitchesAndSizes) {
  MctsConfig config = mcts_config(parse_agent_spec("mcts"), 1);
  EXPECT_TRUE(config.search.solver && config.search.decisive && config.search.mast && config.search.reuse);
  EXPECT_EQ(config.threads, 1);
  EXPECT_EQ(config.memory_bytes, std::size_t{256} << 20);
  config = mcts_config(parse_agent_spec("uct"), 1);
  EXPECT_FALSE(config.search.solver || config.search.decisive || config.search.mast || config.search.reuse);
  config = mcts_config(parse_agent_spec("mcts:solver=off,mast=off,threads=4,memory=2GB"), 1);
  EXPECT_FALSE(config.search.solver || config.search.mast);
  EXPECT_TRUE(config.search.decisive && config.search.reuse);
  EXPECT_EQ(config.threads, 4);
  EXPECT_EQ(config.memory_bytes, std::size_t{2} << 30);
  EXPECT_EQ(mcts_config(parse_agent_spec("mcts:threads=all"), 1).threads,
            static_cast<int>(std::max(std::thread::hardware_concurrency(), 1U)));
  config = mcts_config(parse_agent_spec("uct:decisive=on"), 1);
  EXPECT_TRUE(config.search.decisive);
  EXPECT_FALSE(config.search.solver);
  EXPECT_EQ(parse_bytes("1MB"), std::uint64_t{1} << 20);
  EXPECT_EQ(parse_bytes("1024KB"), std::uint64_t{1} << 20);
  EXPECT_EQ(parse_bytes("1024GB"), std::uint64_t{1} << 40);
  for (const char* bad : {"64KB", "1025GB", "1TB", "512", "MB", "-1MB", "1.5GB", "1 MB", "1mb"})
    EXPECT_FALSE(parse_bytes(bad).has_value()) << bad;
}

TEST(AgentSpec, SearchOptionErrors) {
  EXPECT_EQ(spec_error("mcts:solver=no"),
            "error: bad value 'no' for option 'solver' of agent 'mcts'\nhint: expected on or off, e.g. solver=off\n");
  EXPECT_EQ(spec_error("uct:threads=0"),
            "error: bad value '0' for option 'threads' of agent 'uct'\n"
            "hint: expected a whole number from 1 to 256 or all (every core), e.g. threads=2\n");
  EXPECT_EQ(spec_error("mcts:memory=lots"),
            "error: bad value 'lots' for option 'memory' of agent 'mcts'\n"
            "hint: expected a size from 1MB to 1024GB (KB, MB or GB), e.g. memory=512MB\n");
  EXPECT_EQ(spec_error("mcts:thread=2"),
            "error: unknown option 'thread' for agent 'mcts'\n"
            "hint: did you mean 'threads'? valid options: c, decisive, iterations, mast, memory, reuse, seed, solver, "
            "threads, time\n");
}

TEST(AgentSpec, MakeAgentChecksHandMadeSpecs) {
  breakthrough().visit([](const auto& program) {
    EXPECT_THROW(make_agent(AgentSpec{"minimax", {}}, program), lang::Error);
    EXPECT_THROW(make_agent(AgentSpec{"mcts", {{"iters", "5"}}}, program), lang::Error);
    EXPECT_THROW(make_agent(AgentSpec{"random", {{"seed", "-1"}}}, program), lang::Error);
    EXPECT_EQ(agent("mcts:seed=3,iterations=10", program)->name(), "mcts:iterations=10,seed=3");
    EXPECT_EQ(agent("random", program)->name(), "random");
  });
}

// ---- random -----------------------------------------------------------------------------------------------

TEST(RandomAgent, PlaysLegalMovesAndIsReproduciblePerSeed) {
  for (const int size : {8, 12}) {  // 12x12 uses a wider bitboard
    breakthrough(size, size).visit([](const auto& program) {
      auto white = agent("random:seed=7", program), black = agent("random", program, 2);
      const auto first = play(program, {white.get(), black.get()});
      auto white_again = agent("random:seed=7", program), black_again = agent("random", program, 2);
      EXPECT_EQ(play(program, {white_again.get(), black_again.get()}), first);
      auto other = agent("random:seed=8", program), black_other = agent("random", program, 2);
      EXPECT_NE(play(program, {other.get(), black_other.get()}), first);
      EXPECT_FALSE(white->last_report().has_value());
    });
  }
}

// ---- mcts -------------------------------------------------------------------------------------------------

TEST(Mcts, IsDeterministicPerSeedWithAnIterationBudget) {
  breakthrough().visit([](const auto& program) {
    auto state = program.initial_state();
    auto first = agent("mcts:iterations=2000,seed=3", program), second = agent("mcts:iterations=2000,seed=3", program);
    for (int ply = 0; ply < 3; ++ply) {
      const Move move = first->choose(state, 0);
      EXPECT_EQ(second->choose(state, 0), move);
      const SearchReport a = *first->last_report(), b = *second->last_report();
      EXPECT_EQ(a.iterations, 2000u);
      EXPECT_EQ(b.iterations, 2000u);
      EXPECT_EQ(a.nodes, b.nodes);
      EXPECT_EQ(a.visit_share, b.visit_share);
      EXPECT_EQ(a.value, b.value);
      EXPECT_EQ(a.best, move);
      EXPECT_EQ(a.best_text, program.move_text(move));
      EXPECT_GT(a.visit_share, 0.0);
      EXPECT_LE(a.visit_share, 1.0);
      EXPECT_GE(a.value, 0.0);
      EXPECT_LE(a.value, 1.0);
      EXPECT_GT(a.nodes, 1u);
      program.apply(state, move);
    }
  });
}

TEST(Mcts, TakesAWinInOne) {
  breakthrough().visit([](const auto& program) {
    // White: b7 can capture onto the far row (b8 is blocked), and Black's h2 would win next move.
    // Black: the mirror image, b2 against White's a1 / c1 while White's h7 is one step from h8.
    for (const char* text : {"ppp5/1P6/8/8/8/8/7p/PPPPPPP1 White 20", "8/7P/pppppp2/8/8/8/1p6/PPP5 Black 21"}) {
      for (const std::uint64_t seed : {1, 2, 3}) {
        auto mcts = agent("mcts:iterations=2000", program, seed);
        auto state = position(program, text);
        const int mover = state.to_move;
        program.apply(state, mcts->choose(state, 0));
        EXPECT_TRUE(state.over) << text << " seed " << seed << ": " << mcts->last_report()->best_text;
        EXPECT_EQ(state.winner, mover) << text;
        EXPECT_GT(mcts->last_report()->value, 0.9);
      }
    }
  });
}

TEST(Mcts, StopsALossInOne) {
  breakthrough().visit([](const auto& program) {
    // Black's g2 reaches row 1 next move unless White takes it: h1xg2 is the only defence.
    for (const std::uint64_t seed : {1, 2, 3}) {
      auto mcts = agent("mcts:iterations=2000", program, seed);
      const auto state = position(program, "pppppppp/8/8/8/8/8/6p1/PPPPP2P White 20");
      EXPECT_EQ(program.move_text(mcts->choose(state, 0)), "h1xg2") << "seed " << seed;
    }
  });
}

TEST(Mcts, TimeBudgetReadsTheClockBeforeEveryIteration) {
  breakthrough().visit([](const auto& program) {
    auto mcts = agent("mcts:time=30ms", program);
    mcts->choose(program.initial_state(), 0);
    const SearchReport report = *mcts->last_report();
    EXPECT_GE(report.seconds, 0.03);
    EXPECT_LT(report.seconds, 5.0);
    EXPECT_GT(report.iterations, 0u);
    EXPECT_GT(report.iterations_per_second(), 0.0);
    // The clock was read between iterations, so the longest gap is a small part of the search.
    EXPECT_GT(report.longest_check_gap, 0.0);
    EXPECT_LT(report.longest_check_gap, report.seconds);
  });
}

TEST(Mcts, FullPoolStopsGrowingButKeepsSearching) {
  breakthrough().visit([](const auto& program) {
    using Program = std::decay_t<decltype(program)>;
    MctsConfig config;
    config.iterations = 500;
    config.memory_bytes = 100 * sizeof(typename SearchTree<Program>::Node);
    MctsAgent<Program> mcts(program, config);
    const auto state = program.initial_state();
    mcts.choose(state, 0);
    EXPECT_EQ(mcts.last_report()->iterations, 500u);
    EXPECT_LE(mcts.last_report()->nodes, 100u);
  });
}

// Of ten games between `spec` and random, each taking each side five times, how many `spec` wins.
template <typename Program>
int wins_against_random(const Program& program, const std::string& spec, std::uint64_t seed) {
  int wins = 0;
  for (int game = 0; game < 10; ++game) {
    auto mcts = agent(spec, program, seed + game), random = agent("random", program, seed + 100 + game);
    const int mcts_player = game % 2;
    std::array<Agent<Program>*, kPlayers> players{mcts.get(), random.get()};
    if (mcts_player == 1) std::swap(players[0], players[1]);
    typename Program::StateType end;
    play(program, players, &end);
    wins += end.winner == mcts_player;
  }
  return wins;
}

TEST(Mcts, BeatsRandomOnSixBySix) {
  breakthrough(6, 6).visit([](const auto& program) {
    const int mcts_wins = wins_against_random(program, "mcts:iterations=3000", 100);
    EXPECT_GE(mcts_wins, 9) << "mcts won " << mcts_wins << " of 10 games";
  });
}

// Hex on 7x7, where every game ends with a winner.
TEST(Mcts, BeatsRandomAtHex) {
  troyka_tests::game("hex.game", {{"size", "7"}}).visit([](const auto& program) {
    const int mcts_wins = wins_against_random(program, "mcts:iterations=2000", 300);
    EXPECT_GE(mcts_wins, 9) << "mcts won " << mcts_wins << " of 10 games";
  });
}

// ---- the play command ---------------------------------------------------------------------------------------

TEST(PlayCommand, PrintsAThinkingLineForEachMctsMove) {
  cli::GameOptions game;
  game.file = kBreakthrough;
  game.params = {"width=5", "height=5"};
  cli::PlayOptions play;
  play.white = "mcts:iterations=200";
  play.black = "random";
  std::istringstream no_input;
  std::ostringstream out;
  EXPECT_EQ(cli::run_play(game, play, no_input, out, out), 0);
  const std::string text = out.str();
  EXPECT_NE(text.find("1. White "), std::string::npos) << text;
  EXPECT_NE(text.find("   (mcts: 200 iterations, "), std::string::npos) << text;
  EXPECT_NE(text.find("/s, visits "), std::string::npos) << text;
  EXPECT_NE(text.find("%, value "), std::string::npos) << text;
  // Only the searching agent reports.
  const std::size_t black = text.find("1. Black ");
  ASSERT_NE(black, std::string::npos) << text;
  EXPECT_EQ(text.substr(black, text.find('\n', black) - black).find("(mcts"), std::string::npos) << text;

  game.json = true;
  std::ostringstream json_out;
  EXPECT_EQ(cli::run_play(game, play, no_input, json_out, json_out), 0);
  const nlohmann::json json = nlohmann::json::parse(json_out.str());
  EXPECT_EQ(json.size(), 6u);  // moves, winner, reason, plies, ending, history
  EXPECT_TRUE(json["moves"].is_array());
  EXPECT_TRUE(json["winner"].is_string());
  EXPECT_TRUE(json["reason"].is_string());
  EXPECT_EQ(json["plies"], json["moves"].size());
  EXPECT_EQ(json["ending"], "finished");
  EXPECT_EQ(json["history"].size(), json["moves"].size());
}

TEST(PlayCommand, RejectsABadSpecBeforeLoadingTheGame) {
  cli::GameOptions game;
  game.file = "no/such/file.game";
  cli::PlayOptions play;
  play.black = "mcts:iters=5";
  std::istringstream no_input;
  std::ostringstream out;
  try {
    cli::run_play(game, play, no_input, out, out);
    FAIL() << "no error";
  } catch (const lang::Error& error) {
    EXPECT_EQ(error.diagnostic().message, "unknown option 'iters' for agent 'mcts'");
  }
}

}  // namespace
}  // namespace troyka::agents
