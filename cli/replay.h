// `troyka replay RECORD`: plays a game record (cli/record.h) again and checks it. The checking
// replay is shared with the web playground (cli/serve.cpp), which steps through records.
#pragma once

#include <fmt/format.h>

#include <cstdint>
#include <functional>
#include <iosfwd>
#include <optional>
#include <string>

#include "cli/record.h"
#include "interpreter/game.h"

namespace troyka::cli {

struct ReplayOptions {
  std::string record;  // the record file
  bool quiet = false;  // only the verdict, not every position
  bool json = false;
  std::string svg_dir;  // when set, every position is also written there as ply-000.svg, ply-001.svg, ...
};

// Loads the game the record names, plays every move checking that it is legal, and checks that the
// game ends there as the Result, Winner, Reason and Plies headers say. Any problem is a lang::Error
// pointing into the record (or the rule file). Returns the exit code.
// A referee's results file (cli/replay_results.cpp) is replayed game by game instead.
int run_replay(const ReplayOptions& options, std::ostream& out);

// Whether `text` is a referee's results file (JSON lines) rather than a record.
bool is_results_file(const std::string& text);
// Replays every game of the results file `text` (options.record is its path), forfeits of games of
// more than two players at their plies; any problem is a lang::Error at the line. Returns the exit code.
int replay_results(const ReplayOptions& options, const std::string& text, std::ostream& out);

// Loads the record's game through `load_rules` with the options its Variant and Params headers
// give; a variant or parameter the game rejects is reported at its header, a mistake in the rules
// where `load_rules` finds it.
Game load_record_game(const ParsedRecord& record, const std::function<lang::Rules(const lang::Options&)>& load_rules);

// Throws unless the record's Game header names the game of `rules` (the record_error points at it).
void check_game_name(const ParsedRecord& record, const lang::Rules& rules);

// How the replayed game ended: by its rules, or stopped unfinished at a ply limit (a draw among the
// players still playing, ranked above those out).
struct ReplayEnding {
  referee::Ranks ranks;
  std::string reason;

  int winner() const { return referee::winner_of(ranks); }
};

// Throws unless the headers (Result, Winner, Reason, Plies) and the result token say how the game
// ended, after `plies` plies.
void check_outcome(const ParsedRecord& record, const lang::Rules& rules, const ReplayEnding& ending,
                   std::uint32_t plies);

template <typename Program>
ReplayEnding replay_ending(const Program& program, const typename Program::StateType& state) {
  return {referee::ranks_of(program, state),
          state.over ? program.end_reason(state) : referee::ply_cap_reason(state.ply)};
}

// Plays the record's moves from the start, calling on_position(state, last_move, mover) for the
// start (last_move empty, mover -1) and after every move (mover: the player who played it); a move that cannot be
// played is reported at its place in the record, and so is an ending the headers do not claim. Returns the final
// position.
template <typename Program, typename OnPosition>
typename Program::StateType replay_record(const ParsedRecord& record, const Program& program,
                                          OnPosition&& on_position) {
  const lang::Rules& rules = program.rules();
  auto state = program.initial_state();
  History positions = program.start_history(state);
  on_position(state, std::optional<Move>(), -1);
  for (const RecordToken& move : record.moves) {
    if (state.over)
      throw record_error(record, move.pos,
                         fmt::format("the game is over after {} plies, but the record goes on", state.ply),
                         fmt::format("the game ends: {}", program.end_reason(state)));
    const int mover = state.to_move;
    const std::string& player = rules.players[mover].name;
    const ParsedMove parsed = program.parse_move(state, move.text);
    if (!parsed.ok())
      throw record_error(record, move.pos,
                         fmt::format("cannot play {} as {}'s move {}: {}", move.text, player,
                                     rules.turn_of(state.ply) / rules.player_count() + 1, parsed.error));
    program.apply(state, parsed.move, positions);
    on_position(state, std::optional<Move>(parsed.move), mover);
  }
  // A game a tool stopped at its ply limit ends unfinished, and its Reason says so.
  const ReplayEnding ending = replay_ending(program, state);
  const RecordHeader* reason = record.find("Reason");
  if (!state.over && (reason == nullptr || reason->value != ending.reason))
    throw record_error(record, record.result.pos,
                       fmt::format("the moves end after {} plies but the game is not over", state.ply),
                       fmt::format("{} is to move", rules.players[state.to_move].name));
  check_outcome(record, rules, ending, state.ply);
  return state;
}

}  // namespace troyka::cli
