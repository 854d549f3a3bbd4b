#include "referee/results.h"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/file.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <set>

#include "referee/outcome.h"

namespace troyka::referee {
namespace {

lang::Error file_error(const std::string& message, std::string hint = {}) {
  return lang::Error(lang::Diagnostic{nullptr, {}, message, std::move(hint)});
}

std::string system_error_text() { return std::strerror(errno); }

// A game line's fields, checked; throws a message on the first problem.
RecordedGame read_game_line(const Json& line, int number) {
  RecordedGame game;
  game.line = number;
  const auto fail = [&](const std::string& what) {
    return file_error(fmt::format("line {} of the results file: {}", number, what),
                      "the file was changed by hand or by another program; restore it or start a new file");
  };
  if (!line.contains("game") || !line["game"].is_number_integer()) throw fail("no 'game' number");
  game.game = line["game"].get<int>();
  const auto names = [&](const char* field) {
    const Json& list = line.value(field, Json());
    const bool names_all = list.is_array() && list.size() >= 2 &&
                           list.size() <= static_cast<std::size_t>(lang::kMaxPlayers) &&
                           std::all_of(list.begin(), list.end(), [](const Json& name) { return name.is_string(); });
    if (!names_all) throw fail(fmt::format("'{}' is not 2 to {} names", field, lang::kMaxPlayers));
    return list.get<std::vector<std::string>>();
  };
  game.agents = names("agents");
  const std::vector<std::string> players = names("players");
  if (players.size() != game.agents.size()) throw fail("'agents' and 'players' differ in length");
  const Json& result = line.value("result", Json());
  if (result.is_string())
    game.ranks = ranks_of_result_token(result.get_ref<const std::string&>(), static_cast<int>(players.size()));
  if (game.ranks.empty())
    throw fail(players.size() == 2 ? "no 'result' of 1-0, 0-1 or 1/2-1/2"
                                   : fmt::format("no 'result' of {} ranks such as 1-2-3", players.size()));
  // A game of two players has at most `forfeit`; one of more lists each in `forfeits`.
  const Json& forfeits = line.contains("forfeits") ? line["forfeits"] : Json::array({line.value("forfeit", Json())});
  if (!forfeits.is_array()) throw fail("'forfeits' is not a list");
  for (const Json& forfeit : forfeits) {
    if (forfeit.is_null()) continue;
    const Json& player = forfeit.is_object() ? forfeit.value("player", Json()) : Json();
    const auto found = std::find(players.begin(), players.end(), player.is_string() ? player.get<std::string>() : "");
    if (found == players.end()) throw fail("'forfeit' names no player of the game");
    game.forfeiters.push_back(static_cast<int>(found - players.begin()));
  }
  return game;
}

}  // namespace

Json tournament_header(const GameInfo& game, Format format, int games_per_pairing,
                       const std::vector<std::string>& agents, const ClockSettings& clock, int games) {
  const Json info = game_info_json(game);
  return Json{{"type", "tournament"},     {"protocol", kProtocolVersion},  {"game", game.name},
              {"file", game.file},        {"rules", game.rules},           {"variant", game.variant},
              {"params", info["params"]}, {"format", format_name(format)}, {"games_per_pairing", games_per_pairing},
              {"agents", agents},         {"clock", clock_json(clock)},    {"games", games},
              {"started", utc_now()}};
}

std::string header_difference(const Json& recorded, const Json& current) {
  std::vector<const char*> fields{"rules", "variant", "params", "format", "games_per_pairing", "clock"};
  if (!current["agents"].empty()) fields.push_back("agents");
  for (const char* field : fields) {
    const Json& there = recorded.value(field, Json());
    if (there == current[field]) continue;
    if (std::string(field) == "rules") return "the rule text differs";
    return fmt::format("'{}' is {} in the file but {} now", field, there.dump(), current[field].dump());
  }
  return {};
}

Json game_result_json(const GameResult& result) {
  const MatchOutcome& outcome = result.outcome;
  Json line{{"type", "game"},
            {"game", result.game},
            {"match", outcome.match},
            {"agents", outcome.agents},
            {"players", outcome.players}};
  const Json end = end_fields(outcome);
  line["result"] = end.at("result");
  line["winner"] = end.at("winner");
  line["winner_agent"] =
      outcome.winner == kDraw ? Json(nullptr) : Json(outcome.agents[static_cast<std::size_t>(outcome.winner)]);
  if (end.contains("ranks")) line["ranks"] = end.at("ranks");
  line["reason"] = end.at("reason");
  line["forfeit"] = end.at("forfeit");
  if (end.contains("forfeits")) line["forfeits"] = end.at("forfeits");
  line["moves"] = outcome.moves;
  line["times_ms"] = result.times_ms;
  line["plies"] = outcome.moves.size();
  line["started"] = result.started;
  line["seconds"] = result.seconds;
  return line;
}

ResultsFile::ResultsFile(const std::string& path) : path_(path) {
  file_.fd = ::open(path.c_str(), O_RDWR | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (file_.fd < 0) throw file_error(fmt::format("cannot open the results file '{}': {}", path, system_error_text()));
  // Two referees appending to one file would each think they own its games.
  if (::flock(file_.fd, LOCK_EX | LOCK_NB) != 0)
    throw file_error(fmt::format("the results file '{}' is in use by another referee", path));
  std::string text = read_all();
  const std::size_t complete = text.rfind('\n') == std::string::npos ? 0 : text.rfind('\n') + 1;
  if (complete < text.size()) {
    // Each line is written with one write(): a line without its newline is one the referee was
    // killed while writing. Its game was never announced, and is played again.
    if (::ftruncate(file_.fd, static_cast<off_t>(complete)) != 0)
      throw file_error(fmt::format("cannot cut the partial last line of '{}': {}", path, system_error_text()));
    repair_ = fmt::format("cut off a partial last line ({} bytes) of '{}'", text.size() - complete, path);
    text.resize(complete);
  }
  read_lines(text);
}

ResultsFile::Descriptor::~Descriptor() {
  if (fd >= 0) ::close(fd);
}

std::string ResultsFile::read_all() {
  std::string text;
  char buffer[1 << 16];
  for (off_t at = 0;;) {
    const ssize_t got = ::pread(file_.fd, buffer, sizeof buffer, at);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) throw file_error(fmt::format("cannot read the results file '{}': {}", path_, system_error_text()));
    if (got == 0) return text;
    text.append(buffer, static_cast<std::size_t>(got));
    at += got;
  }
}

void ResultsFile::read_lines(const std::string& text) {
  std::set<int> seen;
  int number = 0;
  for (std::size_t at = 0; at < text.size();) {
    const std::size_t end = text.find('\n', at);
    const std::string_view line(text.data() + at, end - at);
    at = end + 1;
    ++number;
    const Json json = Json::parse(line, nullptr, false);
    if (json.is_discarded() || !json.is_object())
      throw file_error(fmt::format("line {} of the results file '{}' is not a JSON object", number, path_),
                       "the file was changed by hand or by another program; restore it or start a new file");
    const std::string type = json.value("type", "");
    if (number == 1) {
      read_header(json);
      continue;
    }
    if (type != "game") throw file_error(fmt::format("line {} of the results file '{}' is not a game", number, path_));
    RecordedGame game = read_game_line(json, number);
    if (!seen.insert(game.game).second)
      throw file_error(fmt::format("line {} of the results file '{}' records game {} again", number, path_, game.game));
    games_.push_back(std::move(game));
  }
}

void ResultsFile::read_header(const Json& header) {
  if (header.value("type", "") != "tournament")
    throw file_error(fmt::format("the results file '{}' does not start with a tournament line", path_),
                     "give a new file, or the file of the tournament to resume");
  const Json& agents = header.contains("agents") ? header["agents"] : Json();
  std::set<std::string> names;
  for (const Json& agent : agents.is_array() ? agents : Json::array())
    if (agent.is_string() && valid_agent_name(agent.get_ref<const std::string&>()) &&
        names.insert(agent.get<std::string>()).second)
      agents_.push_back(agent.get<std::string>());
  if (agents_.size() < 2 || agents_.size() != agents.size())
    throw file_error(fmt::format("the tournament line of the results file '{}' does not name its agents", path_),
                     "the file was changed by hand or by another program; restore it or start a new file");
  header_ = header;
}

void ResultsFile::append_header(const Json& header) {
  append(header);
  header_ = header;
  agents_ = header.at("agents").get<std::vector<std::string>>();
}

void ResultsFile::append(const Json& line) {
  const std::string text = line.dump(-1, ' ', false, Json::error_handler_t::replace) + '\n';
  for (std::size_t written = 0; written < text.size();) {
    const ssize_t wrote = ::write(file_.fd, text.data() + written, text.size() - written);
    if (wrote < 0 && errno == EINTR) continue;
    if (wrote < 0)
      throw file_error(fmt::format("cannot write to the results file '{}': {}", path_, system_error_text()));
    written += static_cast<std::size_t>(wrote);
  }
  if (::fsync(file_.fd) != 0)
    throw file_error(fmt::format("cannot flush the results file '{}' to disk: {}", path_, system_error_text()));
}

}  // namespace troyka::referee
