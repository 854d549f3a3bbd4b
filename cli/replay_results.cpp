// `troyka replay RESULTS`: plays every game of a referee's results file (JSON lines,
// docs/protocol.md section 8) again with the rules its header holds, and checks it: every move
// legal for the player to move, each forfeit of a game of more than two players putting its player
// out at the ply it records (Program::forfeit), and the recorded result and reason.
#include <fmt/format.h>
#include <fmt/ostream.h>

#include <algorithm>
#include <memory>
#include <ostream>
#include <sstream>

#include "cli/replay.h"
#include "cli/support.h"
#include "referee/outcome.h"

namespace troyka::cli {
namespace {

// The results file as text, each line's place, to point an error at.
class ResultsSource {
 public:
  ResultsSource(const std::string& path, std::string text)
      : source_(std::make_shared<lang::SourceFile>(lang::SourceFile{path, std::move(text)})) {}

  const std::string& text() const { return source_->text; }
  lang::Error error(int line, std::string message, std::string hint = {}) const {
    return lang::Error(
        lang::Diagnostic{source_, {static_cast<std::uint32_t>(line), 1, 1}, std::move(message), std::move(hint)});
  }

 private:
  std::shared_ptr<const lang::SourceFile> source_;
};

// A field of a line, of the JSON type `is` checks, else an error at the line.
const Json& field(const ResultsSource& source, int line, const Json& json, const char* key, bool (Json::*is)() const,
                  const char* kind) {
  const auto found = json.find(key);
  if (found == json.end() || !((*found).*is)())
    throw source.error(line, fmt::format("the line has no '{}' {}", key, kind),
                       "a results file is written by `troyka referee`; see docs/protocol.md, section 8");
  return *found;
}

// The game the header describes: its rule text, variant and parameters as the referee had them.
Game header_game(const ResultsSource& source, const Json& header) {
  const auto text = [&](const char* key) {
    return field(source, 1, header, key, &Json::is_string, "text").get<std::string>();
  };
  lang::Options options;
  options.variant = text("variant");
  for (const auto& [name, value] : field(source, 1, header, "params", &Json::is_object, "object").items()) {
    if (!value.is_string()) throw source.error(1, fmt::format("the parameter '{}' is not text", name));
    options.params.emplace_back(name, value.get<std::string>());
  }
  // Errors in the rules point into the text the header holds, under the file's name.
  const auto rules = std::make_shared<lang::SourceFile>(lang::SourceFile{text("file"), text("rules")});
  return Game(lang::load_rules(rules, options));
}

// What a game's line says of its forfeits: the players put out, at the ply each forfeited.
struct LineForfeit {
  int player = 0;
  std::size_t ply = 0;
};

template <typename Program>
class LineReplay {
 public:
  LineReplay(const Program& program, const ResultsSource& source, int line, const Json& json)
      : program_(program), rules_(program.rules()), source_(source), line_(line), json_(json) {}

  // Replays the line's game; returns its summary for the report.
  Json run() {
    const Json& moves = field(source_, line_, json_, "moves", &Json::is_array, "list");
    const std::string result = field(source_, line_, json_, "result", &Json::is_string, "text").get<std::string>();
    const std::string reason = field(source_, line_, json_, "reason", &Json::is_string, "text").get<std::string>();
    const std::vector<LineForfeit> forfeits = read_forfeits(moves.size());
    // A game not played for agents away has no moves to replay, and its ranks are the referee's
    // (those present first), not those of players put out one by one.
    if (reason.starts_with(kNotPlayed)) {
      if (!moves.empty()) throw error(fmt::format("a game not played has {} moves", moves.size()));
      return summary(result, 0, forfeits.size(), reason);
    }
    auto state = program_.initial_state();
    History history = program_.start_history(state);
    for (std::size_t ply = 0;; ++ply) {
      for (const LineForfeit& forfeit : forfeits)
        if (forfeit.ply == ply && program_.player_count() > kPlayers) program_.forfeit(state, forfeit.player, history);
      if (ply == moves.size()) break;
      if (state.over)
        throw error(fmt::format("the game is over after {} plies, but the line has {} moves", ply, moves.size()),
                    fmt::format("the game ends: {}", program_.end_reason(state)));
      if (!moves[ply].is_string()) throw error(fmt::format("move {} is not text", ply + 1));
      const std::string text = moves[ply].get<std::string>();
      const ParsedMove parsed = program_.parse_move(state, text);
      if (!parsed.ok())
        throw error(fmt::format("cannot play {} as {}'s move at ply {}: {}", text, player_name(state.to_move), ply,
                                parsed.error));
      program_.apply(state, parsed.move, history);
    }
    check_end(state, forfeits, result, reason);
    return summary(result, moves.size(), forfeits.size(), reason);
  }

 private:
  static constexpr std::string_view kNotPlayed = "not played:";

  Json summary(const std::string& result, std::size_t plies, std::size_t forfeits, const std::string& reason) const {
    return Json{{"game", json_.value("game", 0)},
                {"result", result},
                {"plies", plies},
                {"forfeits", forfeits},
                {"reason", reason}};
  }

  lang::Error error(std::string message, std::string hint = {}) const {
    return source_.error(line_, fmt::format("game {}: {}", json_.value("game", 0), message), std::move(hint));
  }

  const std::string& player_name(int player) const { return rules_.players[static_cast<std::size_t>(player)].name; }

  int player_named(const Json& name) const {
    for (int player = 0; player < rules_.player_count(); ++player)
      if (name.is_string() && name.get<std::string>() == player_name(player)) return player;
    throw error(fmt::format("a forfeit names {}, not a player of {}", name.dump(), rules_.name));
  }

  // With two players the one `forfeit` ends the game after the moves; with more, `forfeits` lists
  // each with its ply.
  std::vector<LineForfeit> read_forfeits(std::size_t plies) const {
    std::vector<LineForfeit> forfeits;
    if (rules_.player_count() == kPlayers) {
      const Json& forfeit = json_.value("forfeit", Json());
      if (forfeit.is_object()) forfeits.push_back({player_named(forfeit.value("player", Json())), plies});
      return forfeits;
    }
    for (const Json& forfeit : json_.value("forfeits", Json::array())) {
      const Json& ply = forfeit.is_object() ? forfeit.value("ply", Json()) : Json();
      if (!ply.is_number_unsigned() || ply.get<std::size_t>() > plies)
        throw error(fmt::format("a forfeit without the ply it happened at, from 0 to {}: {}", plies, forfeit.dump()),
                    "results files of games of more than two players record each forfeit's ply");
      forfeits.push_back({player_named(forfeit.value("player", Json())), ply.get<std::size_t>()});
    }
    return forfeits;
  }

  void check_claim(const char* what, const std::string& claimed, const std::string& replayed) const {
    if (claimed != replayed)
      throw error(fmt::format("{} says \"{}\" but replaying the moves gives \"{}\"", what, claimed, replayed));
  }

  void check_end(const typename Program::StateType& state, const std::vector<LineForfeit>& forfeits,
                 const std::string& result, const std::string& reason) const {
    const std::size_t plies = state.ply;
    if (rules_.player_count() == kPlayers && !forfeits.empty()) {
      // The forfeit ended a game still going, and the other player won it.
      if (state.over) throw error("a forfeit after the end of the game");
      check_claim("result", result, referee::result_token(1 - forfeits.front().player));
      return;
    }
    check_claim("result", result, referee::result_token(referee::ranks_of(program_, state)));
    if (state.over) {
      // A forfeit that ended the game says so before the reason of the rules.
      const std::string ending = program_.end_reason(state);
      const bool forfeit_ended = !forfeits.empty() && reason.ends_with("; " + ending);
      if (!forfeit_ended) check_claim("reason", reason, ending);
      return;
    }
    // A game stopped before its end: at the ply cap, or by rules that ran away.
    if (reason != referee::ply_cap_reason(static_cast<std::uint32_t>(plies)) &&
        !reason.starts_with("stopped by an error in the rules"))
      throw error(fmt::format("the moves end after {} plies but the game is not over", plies),
                  fmt::format("{} is to move", player_name(state.to_move)));
  }

  const Program& program_;
  const lang::Rules& rules_;
  const ResultsSource& source_;
  int line_;
  const Json& json_;
};

// ", 1 forfeit", ", 2 forfeits", or "" for none.
std::string forfeits_text(int forfeits) {
  return forfeits == 0 ? "" : fmt::format(", {} forfeit{}", forfeits, forfeits == 1 ? "" : "s");
}

}  // namespace

bool is_results_file(const std::string& text) {
  const std::size_t first = text.find_first_not_of(" \t\r\n");
  return first != std::string::npos && text[first] == '{';
}

int replay_results(const ReplayOptions& options, const std::string& text, std::ostream& out) {
  if (!options.svg_dir.empty())
    throw usage_error("--svg draws the positions of one record, not of a results file",
                      "replay the file without --svg; `troyka match --records DIR` writes records to draw");
  const ResultsSource source(options.record, text);
  std::istringstream lines(source.text());
  std::optional<Game> game;
  Json games = Json::array();
  int number = 0;
  for (std::string line; std::getline(lines, line);) {
    ++number;
    if (line.find_first_not_of(" \t\r") == std::string::npos) continue;
    Json json = Json::parse(line, nullptr, false);
    if (json.is_discarded() || !json.is_object())
      throw source.error(number, "the line is not a JSON object", "a results file holds one JSON object a line");
    const std::string type = json.value("type", "");
    if (number == 1) {
      if (type != "tournament")
        throw source.error(number, "the first line is not the tournament's header",
                           "a results file starts with {\"type\":\"tournament\",...} (docs/protocol.md, section 8)");
      game.emplace(header_game(source, json));
      continue;
    }
    if (type != "game") continue;
    Json summary = game->visit([&](const auto& program) { return LineReplay(program, source, number, json).run(); });
    if (!options.quiet && !options.json)
      fmt::print(out, "game {}: {} in {} plies{} ({})\n", summary["game"].get<int>(),
                 summary["result"].get<std::string>(), summary["plies"].get<std::size_t>(),
                 forfeits_text(summary["forfeits"].get<int>()), summary["reason"].get<std::string>());
    games.push_back(std::move(summary));
  }
  if (!game) throw source.error(1, "the results file is empty");
  if (options.json) {
    out << Json{{"ok", true}, {"game", game->rules().name}, {"games", games}}.dump() << '\n';
  } else {
    fmt::print(out, "results ok: {} game{} of {} replayed\n", games.size(), games.size() == 1 ? "" : "s",
               game->rules().name);
  }
  return 0;
}

}  // namespace troyka::cli
