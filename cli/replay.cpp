#include "cli/replay.h"

#include <fmt/format.h>
#include <fmt/ostream.h>

#include <charconv>
#include <filesystem>
#include <ostream>
#include <sstream>
#include <utility>

#include "cli/board_svg.h"
#include "cli/record.h"
#include "cli/support.h"
#include "interpreter/game.h"

namespace troyka::cli {
namespace {

// The File header's path from the current directory, else from the record's directory, so that a
// record moved together with its rule file still replays.
std::string rule_file_path(const ParsedRecord& record, const RecordHeader& file) {
  std::error_code ignored;
  if (std::filesystem::exists(file.value, ignored)) return file.value;
  const std::filesystem::path record_directory = std::filesystem::path(record.source->name).parent_path();
  const std::filesystem::path beside_record = record_directory / file.value;
  if (std::filesystem::exists(beside_record, ignored)) return beside_record.string();
  throw record_error(record, file.value_pos, fmt::format("cannot find the rule file '{}'", file.value),
                     fmt::format("looked from the current directory and from the record's directory '{}'",
                                 record_directory.empty() ? "." : record_directory.string()));
}

// Throws unless the header says `actual`.
void check_claim(const ParsedRecord& record, const RecordHeader& header, const std::string& actual, std::string hint) {
  if (header.value == actual) return;
  throw record_error(
      record, header.value_pos,
      fmt::format("{} says \"{}\" but replaying the moves gives \"{}\"", header.key, header.value, actual),
      std::move(hint));
}

void check_plies(const ParsedRecord& record, const RecordHeader& plies, std::uint32_t actual) {
  std::uint32_t claimed = 0;
  const char* end = plies.value.data() + plies.value.size();
  const auto [stop, error] = std::from_chars(plies.value.data(), end, claimed);
  if (error != std::errc() || stop != end || plies.value.empty())
    throw record_error(record, plies.value_pos, fmt::format("Plies must be a whole number, not \"{}\"", plies.value));
  if (claimed != actual)
    throw record_error(
        record, plies.value_pos,
        fmt::format("Plies says {} but the record has {} move{}", claimed, actual, actual == 1 ? "" : "s"));
}

}  // namespace

Game load_record_game(const ParsedRecord& record, const std::function<lang::Rules(const lang::Options&)>& load_rules) {
  const RecordHeader& variant = record.require("Variant");
  const RecordHeader& params = record.require("Params");
  lang::Options options;
  options.variant = variant.value;
  try {
    std::istringstream words(params.value);
    for (std::string param; words >> param;) options.params.push_back(lang::parse_param_option(param));
    return Game(load_rules(options));
  } catch (const lang::Error& error) {
    const lang::Diagnostic& diagnostic = error.diagnostic();
    if (diagnostic.file) throw;
    const bool about_variant = diagnostic.message.starts_with("--variant");
    throw record_error(record, about_variant ? variant.value_pos : params.value_pos, diagnostic.message,
                       diagnostic.hint);
  }
}

void check_game_name(const ParsedRecord& record, const lang::Rules& rules) {
  const RecordHeader& game = record.require("Game");
  if (game.value != rules.name)
    throw record_error(record, game.value_pos,
                       fmt::format("the record is a game of '{}' but the rule file is '{}'", game.value, rules.name),
                       "check the File header");
}

// "1-0, 0-1 or 1/2-1/2", or for three players "the ranks of the 3 players, e.g. 1-2-3".
std::string result_forms(int players) {
  if (players == 2) return "1-0, 0-1 or 1/2-1/2";
  referee::Ranks example;
  for (int player = 0; player < players; ++player) example.push_back(player + 1);
  return fmt::format("the ranks of the {} players, e.g. {}", players, result_token(example));
}

void check_outcome(const ParsedRecord& record, const lang::Rules& rules, const ReplayEnding& ending,
                   std::uint32_t plies) {
  const RecordHeader& claimed_result = record.require("Result");
  const std::string result = result_token(ending.ranks);
  if (referee::ranks_of_result_token(claimed_result.value, rules.player_count()).empty())
    throw record_error(
        record, claimed_result.value_pos,
        fmt::format("Result must be {}, not \"{}\"", result_forms(rules.player_count()), claimed_result.value));
  const std::string reason = fmt::format("the game ends: {}", ending.reason);
  check_claim(record, claimed_result, result, reason);
  check_claim(record, record.require("Winner"), winner_name(rules, ending.winner()), reason);
  check_claim(record, record.require("Reason"), ending.reason, {});
  check_plies(record, record.require("Plies"), plies);
  if (record.result.text != result)
    throw record_error(record, record.result.pos,
                       fmt::format("the moves end with {} but replaying them gives {}", record.result.text, result),
                       reason);
}

int run_replay(const ReplayOptions& options, std::ostream& out) {
  std::string text = read_record_file(options.record);
  if (is_results_file(text)) return replay_results(options, text, out);
  const ParsedRecord record =
      parse_record(std::make_shared<const lang::SourceFile>(lang::SourceFile{options.record, std::move(text)}));
  // Every header the check needs is asked for before the game is loaded, so a record without one
  // is reported as such rather than after a long replay.
  for (const char* key : {"Result", "Winner", "Reason", "Plies"}) record.require(key);
  const std::string path = rule_file_path(record, record.require("File"));
  const Game game =
      load_record_game(record, [&](const lang::Options& language) { return lang::load_rules_file(path, language); });
  check_game_name(record, game.rules());
  if (!options.svg_dir.empty()) create_output_directory(options.svg_dir, "--svg");
  game.visit([&](const auto& program) {
    const lang::Rules& rules = program.rules();
    const bool prints = !options.quiet && !options.json;
    if (prints) fmt::print(out, "{}\n", rules.name);
    const auto state = replay_record(record, program, [&](const auto& position, std::optional<Move> last, int mover) {
      if (prints && last)
        fmt::print(out, "{}. {} {}\n", rules.turn_of(position.ply - 1) / rules.player_count() + 1,
                   rules.players[mover].name, program.move_text(*last));
      if (prints) fmt::print(out, "{}\n", program.diagram(position));
      if (!options.svg_dir.empty())
        write_text_file(fmt::format("{}/ply-{:03}.svg", options.svg_dir, position.ply),
                        board_svg(board_view(program, position, last)), "the picture", "check the --svg directory");
    });
    const ReplayEnding ending = replay_ending(program, state);
    const std::string winner = winner_name(rules, ending.winner());
    const std::string& reason = ending.reason;
    if (options.json) {
      Json moves = Json::array();
      for (const RecordToken& move : record.moves) moves.push_back(move.text);
      out << Json{{"ok", true},       {"game", program.rules().name},
                  {"winner", winner}, {"result", result_token(ending.ranks)},
                  {"reason", reason}, {"plies", state.ply},
                  {"moves", moves}}
                 .dump()
          << '\n';
      return;
    }
    fmt::print(out, "record ok: {} after {} plies ({})\n", winner == "draw" ? "draw" : winner + " wins", state.ply,
               reason);
  });
  return 0;
}

}  // namespace troyka::cli
