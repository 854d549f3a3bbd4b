// troyka: check, show, count and play games written in the troyka rule language.
#include <unistd.h>

#include <CLI/CLI.hpp>
#include <cstdlib>
#include <iostream>
#include <stdexcept>

#include "cli/analyze.h"
#include "cli/commands.h"
#include "cli/match.h"
#include "cli/playground.h"
#include "cli/referee_command.h"
#include "cli/replay.h"
#include "cli/watch.h"
#include "interpreter/general.h"
#include "lang/diagnostic.h"

namespace {

using troyka::cli::GameOptions;

// Adds the FILE argument and the options every command shares.
void add_game_options(CLI::App& command, GameOptions& options) {
  command.add_option("file", options.file, "the rule file, e.g. games/breakthrough.game, or a ZRF file (.zrf)")
      ->required();
  command.add_option("--param", options.params, "set a parameter: --param width=6 (repeatable)");
  command.add_option("--variant", options.variant,
                     "play a named variant of the game; for a ZRF file its title or number (1 = the first)");
  command.add_flag("--json", options.json, "print machine-readable JSON on stdout");
}

// Colours only on a terminal, and not when NO_COLOR is set: no-color.org, the common way to ask
// every program for plain output.
bool wants_color() {
  const char* no_color = std::getenv("NO_COLOR");
  return isatty(STDOUT_FILENO) && (no_color == nullptr || *no_color == '\0');
}

}  // namespace

int main(int argc, char** argv) {
  CLI::App app{"troyka: a general game playing system. Rule files in, fast games out."};
  app.require_subcommand(1);
  app.set_help_all_flag("--help-all", "show help for every command");

  GameOptions game;
  troyka::cli::PerftOptions perft;
  troyka::cli::BenchOptions bench;
  troyka::cli::PlayOptions play;
  troyka::cli::MatchOptions match;
  troyka::cli::ReplayOptions replay;
  troyka::cli::RefereeCommandOptions referee;
  troyka::cli::AgentCommandOptions agent;
  troyka::cli::WatchOptions watch;
  troyka::cli::KeygenOptions keygen;
  troyka::cli::ServeOptions serve;
  troyka::cli::AnalyzeOptions analyze;

  CLI::App* check = app.add_subcommand("check", "check a rule file and report every problem precisely");
  add_game_options(*check, game);

  CLI::App* show = app.add_subcommand("show", "show the start position and the compiled rules");
  add_game_options(*show, game);
  bool show_svg = false;
  show->add_flag("--svg", show_svg, "write the start position as an SVG picture instead");
  bool show_core = false;
  show->add_flag("--core", show_core, "print the rules in core forms: what each keyword form means")->excludes("--svg");

  CLI::App* translate = app.add_subcommand("translate", "print the game, e.g. a ZRF file's, in troyka's language");
  add_game_options(*translate, game);

  CLI::App* perft_command = app.add_subcommand("perft", "count move sequences to a depth (move generator check)");
  add_game_options(*perft_command, game);
  perft_command->add_option("--depth", perft.depth, "the number of plies")->required();
  perft_command->add_option("--position", perft.position,
                            "count from this position text (as troyka show prints it) instead of the start");
  perft_command->add_option("--moves", perft.moves, "moves to play first, e.g. \"a2-a3 h7-h6\"");
  perft_command->add_flag("--divide", perft.divide, "also count below each first move");

  CLI::App* bench_command = app.add_subcommand("bench", "measure uniformly random playouts from the start");
  add_game_options(*bench_command, game);
  auto* seconds = bench_command->add_option("--seconds", bench.seconds, "run for this long (default 5)");
  bench_command->add_option("--playouts", bench.playouts, "run exactly this many playouts")->excludes(seconds);
  bench_command->add_option("--threads", bench.threads, "threads, each with its own playouts (default 1)");
  bench_command->add_option("--seed", bench.seed, "random seed (default 1)");
  bench_command->add_option(
      "--max-plies", bench.max_plies,
      "cut a playout still going at this ply and count it as capped (default: the game's playout cap)");
  bench_command->add_option("--agent", bench.agent,
                            "time an agent's search of the start position instead, e.g. --agent mcts:time=1s");
  bench_command->add_option("--repeat", bench.repeat, "with --agent: searches to take the median of (default 5)");
  auto* clock = bench_command->add_flag("--clock", bench.clock,
                                        "with --agent: time every search of self-play games against the agent's "
                                        "time budget (median, 99th, 99.9th percentile, maximum, overrun)");
  bench_command->add_option("--searches", bench.searches, "with --clock: searches to time (default 300)")->needs(clock);

  CLI::App* play_command =
      app.add_subcommand("play", "play a game, agents or you against each other, shown move by move");
  add_game_options(*play_command, game);
  play_command->add_option("--white", play.white,
                           "the first player (default random): human (you, typing moves), random, random:seed=7, "
                           "mcts:time=1s, mcts:iterations=20000,c=0.7,seed=3");
  play_command->add_option("--black", play.black, "the second player (default random)");
  play_command->add_option("--others", play.others,
                           "each player after the second, in a game of more than two (default random)");
  play_command->add_option("--seed", play.seed,
                           "random seed (default 1): the first player's agent gets SEED, the second SEED+1, "
                           "unless the agent spec sets seed=");
  play_command->add_flag("--verbose", play.verbose, "print each agent's whole search report");
  play_command->add_option("--max-plies", play.max_plies,
                           "stop a game still going at this ply as a draw (default: the game's playout cap)");
  bool ascii = false, no_color = false;
  play_command->add_flag("--ascii", ascii, "draw the board with letters only");
  play_command->add_flag("--no-color", no_color, "no colours, even on a terminal");

  CLI::App* match_command =
      app.add_subcommand("match", "play agents against each other over many games, one agent per player");
  add_game_options(*match_command, game);
  match_command
      ->add_option("--agents", match.agents,
                   "one agent per player, A, B..., e.g. --agents mcts:time=200ms random; the seats rotate")
      ->required()
      ->expected(1, troyka::lang::kMaxPlayers);
  match_command->add_option("--games", match.games,
                            "games to play; A plays first in game 1, second in game 2 of two players, last in game 2 "
                            "of more (default 10)");
  match_command->add_option("--parallel", match.parallel, "games played at once, one thread each (default 1)");
  match_command->add_option("--records", match.records, "write one record per game into this directory");
  match_command->add_option("--seed", match.seed,
                            "random seed (default 1): game i (from 0) of n players gets SEED+n*i for its first "
                            "player's agent, one more for the second's and so on, unless an agent spec sets seed=");
  match_command->add_option("--max-plies", match.max_plies,
                            "stop a game still going at this ply as a draw (default: the game's playout cap)");

  CLI::App* replay_command = app.add_subcommand(
      "replay", "replay a game record, or every game of a referee's results file, checking every move and the result");
  replay_command
      ->add_option("record", replay.record, "the record, e.g. records/game-0001.record, or a results file (JSON lines)")
      ->required();
  replay_command->add_flag("--quiet", replay.quiet, "print only the verdict, not every position");
  replay_command->add_flag("--json", replay.json, "print the verdict as JSON on stdout");
  replay_command->add_option("--svg", replay.svg_dir,
                             "also write every position as an SVG picture into this directory: ply-000.svg, ...");

  CLI::App* analyze_command = troyka::cli::add_analyze_command(app, analyze);
  CLI::App* referee_command = troyka::cli::add_referee_command(app, referee);
  CLI::App* agent_command = troyka::cli::add_agent_command(app, agent);
  CLI::App* watch_command = troyka::cli::add_watch_command(app, watch);
  CLI::App* keygen_command = troyka::cli::add_keygen_command(app, keygen);
  CLI::App* serve_command = troyka::cli::add_serve_command(app, serve);

  CLI11_PARSE(app, argc, argv);
  play.board.unicode = !ascii;
  play.board.color = !no_color && wants_color();
  play.echo_input = !isatty(STDIN_FILENO);

  try {
    if (check->parsed()) return troyka::cli::run_check(game, std::cout);
    if (show->parsed() && show_core) return troyka::cli::run_show_core(game, std::cout);
    if (show->parsed()) return troyka::cli::run_show(game, show_svg, std::cout);
    if (translate->parsed()) return troyka::cli::run_translate(game, std::cout);
    if (perft_command->parsed()) return troyka::cli::run_perft(game, perft, std::cout);
    if (bench_command->parsed()) return troyka::cli::run_bench(game, bench, std::cout);
    if (play_command->parsed()) return troyka::cli::run_play(game, play, std::cin, std::cout, std::cerr);
    if (match_command->parsed()) return troyka::cli::run_match(game, match, std::cout, std::cerr);
    if (replay_command->parsed()) return troyka::cli::run_replay(replay, std::cout);
    if (analyze_command->parsed())
      return troyka::cli::run_analyze(analyze, troyka::cli::stop_on_interrupt(), std::cout, std::cerr);
    if (referee_command->parsed()) return troyka::cli::run_referee_command(referee, std::cout, std::cerr);
    if (agent_command->parsed()) return troyka::cli::run_agent_command(agent, std::cerr);
    if (keygen_command->parsed()) return troyka::cli::run_keygen_command(keygen, std::cout);
    if (serve_command->parsed()) return troyka::cli::run_serve_command(serve, std::cout);
    if (watch_command->parsed())
      return troyka::cli::run_watch_command(watch, {!watch.ascii, !watch.no_color && wants_color()},
                                            isatty(STDOUT_FILENO) != 0, std::cout);
  } catch (const troyka::lang::Error& error) {
    std::cerr << troyka::lang::render(error.diagnostic());
    return 1;
  } catch (const troyka::RunawayRule& error) {  // a general rule that ran past its step budget
    std::cerr << "error: " << error.what() << '\n';
    return 1;
  }
  return 0;
}
