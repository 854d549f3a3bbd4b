#include "cli/playground_session.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <mutex>
#include <random>
#include <utility>
#include <vector>

#include "cli/api_error.h"
#include "cli/board_svg.h"
#include "cli/replay.h"
#include "cli/search_report.h"
#include "cli/support.h"

namespace troyka::cli {
namespace {

using Json = nlohmann::ordered_json;

constexpr std::string_view kPerson = "you";  // who played a move clicked or typed on the page

template <class Program>
class GameSession final : public Session {
 public:
  using StateType = typename Program::StateType;

  GameSession(std::shared_ptr<const Game> game, const Program& program)
      : game_(std::move(game)), program_(program), start_(program.initial_state()) {}

  Json view(std::optional<std::uint32_t> ply, const std::string& selected) const override;
  Json play(const Json& request) override;
  void begin_thinking() override;
  void cancel_thinking() override;
  Json think(const agents::AgentSpec& spec, const std::string& label, double max_seconds) override;

  // Plays a move of the record, as its player's agent.
  void add_recorded(Move move, std::string by) { add(move, std::move(by), std::nullopt); }

 private:
  // A move played, the position after it and who played it.
  struct Ply {
    Move move;
    StateType after;
    std::string by;  // kPerson or an agent spec
    std::optional<agents::SearchReport> report;
  };

  const StateType& latest() const { return history_.empty() ? start_ : history_.back().after; }
  void add(Move move, std::string by, std::optional<agents::SearchReport> report);
  Move clicked_move(const Json& request) const;
  int cell_named(const std::string& name) const;
  Json moves_json() const;
  Json legal_moves_json(const StateType& state) const;
  std::string cell_text(int cell) const;

  std::shared_ptr<const Game> game_;  // owns program_
  const Program& program_;
  StateType start_;
  mutable std::mutex mutex_;
  std::vector<Ply> history_;
  bool thinking_ = false;
};

template <class Program>
void GameSession<Program>::add(Move move, std::string by, std::optional<agents::SearchReport> report) {
  StateType after = latest();
  program_.apply(after, move);
  history_.push_back(Ply{move, after, std::move(by), std::move(report)});
}

template <class Program>
std::string GameSession<Program>::cell_text(int cell) const {
  return lang::cell_name(cell, program_.rules().width);
}

template <class Program>
int GameSession<Program>::cell_named(const std::string& name) const {
  const lang::Rules& rules = program_.rules();
  const int cell = lang::parse_cell(name, rules.width, rules.height);
  if (cell < 0)
    throw ApiError(400, fmt::format("'{}' is not a cell of this {}x{} board", name, rules.width, rules.height));
  return cell;
}

template <class Program>
Json GameSession<Program>::legal_moves_json(const StateType& state) const {
  MoveList moves;
  program_.legal_moves(state, moves);
  Json list = Json::array();
  const int cells = program_.rules().cells();
  for (const Move& move : moves) {
    Json entry{{"move", program_.move_text(move)}};
    // The pass and the swap are not on the board: the page offers them as buttons.
    entry["from"] = move.from < cells ? Json(cell_text(move.from)) : Json(nullptr);
    entry["to"] = move.to < cells ? Json(cell_text(move.to)) : Json(nullptr);
    list.push_back(std::move(entry));
  }
  return list;
}

template <class Program>
Json GameSession<Program>::moves_json() const {
  Json moves = Json::array();
  const lang::Rules& rules = program_.rules();
  for (std::size_t ply = 0; ply < history_.size(); ++ply) {
    const Ply& played = history_[ply];
    const StateType& before = ply == 0 ? start_ : history_[ply - 1].after;
    Json entry{{"ply", ply + 1},
               {"player", rules.players[before.to_move].name},
               {"move", program_.move_text(played.move)},
               {"by", played.by}};
    if (played.report) {
      entry["summary"] = report_summary(played.by, *played.report);
      entry["report"] = report_json(*played.report);
    }
    moves.push_back(std::move(entry));
  }
  return moves;
}

template <class Program>
Json GameSession<Program>::view(std::optional<std::uint32_t> ply, const std::string& selected) const {
  const std::lock_guard lock(mutex_);
  const std::uint32_t plies = static_cast<std::uint32_t>(history_.size());
  const std::uint32_t shown = ply.value_or(plies);
  if (shown > plies) throw ApiError(400, fmt::format("ply {} is past the end of the game ({} plies)", shown, plies));
  const StateType& state = shown == 0 ? start_ : history_[shown - 1].after;
  const bool current = shown == plies;
  BoardMarks marks;
  Json targets = Json::array();
  if (!selected.empty()) {
    marks.selected = cell_named(selected);
    MoveList moves;
    if (current) program_.legal_moves(state, moves);
    for (const Move& move : moves)
      if (move.from == marks.selected && move.to != move.from && move.to < program_.rules().cells() &&
          std::find(marks.targets.begin(), marks.targets.end(), move.to) == marks.targets.end()) {
        marks.targets.push_back(move.to);
        targets.push_back(cell_text(move.to));
      }
  }
  const lang::Rules& rules = program_.rules();
  std::optional<Move> last;
  if (shown > 0) last = history_[shown - 1].move;
  return Json{{"session", id},
              {"game",
               {{"name", rules.name},
                {"variant", rules.variant},
                {"players", lang::player_names(rules)},
                {"width", rules.width},
                {"height", rules.height},
                {"shape", rules.shape == lang::BoardShape::Rhombus ? "rhombus" : "rectangle"}}},
              {"plies", plies},
              {"ply", shown},
              {"to_move", rules.players[state.to_move].name},
              {"over", state.over},
              {"winner", winner_name(rules, state.over ? state.winner : kNoWinner)},
              // Each player's place once the game is over (1 2 2: tied players share one).
              {"ranks", state.over ? Json(referee::ranks_of(program_, state)) : Json(nullptr)},
              {"reason", state.over ? program_.end_reason(state) : ""},
              {"thinking", thinking_},
              {"moves", moves_json()},
              {"legal_moves", current ? legal_moves_json(state) : Json::array()},
              {"selected", selected.empty() ? Json(nullptr) : Json(selected)},
              {"targets", targets},
              {"svg", board_svg(board_view(program_, state, last), marks)}};
}

// The legal move a click names: from one cell to another, or a drop on one cell.
template <class Program>
Move GameSession<Program>::clicked_move(const Json& request) const {
  const std::string from_name = request_text(request, "from"), to_name = request_text(request, "to");
  const int from = cell_named(from_name), to = cell_named(to_name);
  MoveList moves;
  program_.legal_moves(latest(), moves);
  std::vector<Move> matching;
  std::copy_if(moves.begin(), moves.end(), std::back_inserter(matching),
               [&](const Move& move) { return move.from == from && move.to == to; });
  const std::string said = from == to ? from_name : fmt::format("{} to {}", from_name, to_name);
  if (matching.empty())
    throw ApiError(422,
                   fmt::format("{} is not a legal move for {}", said, program_.rules().players[latest().to_move].name));
  if (matching.size() > 1) {
    std::vector<std::string> texts;
    for (const Move& move : matching) texts.push_back(program_.move_text(move));
    throw ApiError(422, fmt::format("{} is {} moves: {}", said, texts.size(), fmt::join(texts, " ")),
                   "play one of them by its text");
  }
  return matching.front();
}

template <class Program>
Json GameSession<Program>::play(const Json& request) {
  {
    const std::lock_guard lock(mutex_);
    if (thinking_) throw ApiError(409, "an agent is thinking about this move", "wait for its move");
    if (latest().over) throw ApiError(409, "the game is over", "start a new game");
    Move move;
    if (request.contains("move")) {
      const ParsedMove parsed = program_.parse_move(latest(), request_text(request, "move"));
      if (!parsed.ok()) throw ApiError(422, parsed.error);
      move = parsed.move;
    } else if (request.contains("from") && request.contains("to")) {
      move = clicked_move(request);
    } else {
      throw ApiError(400, "say which move", R"(send {"move": "a2-a3"} or {"from": "a2", "to": "a3"})");
    }
    add(move, std::string(kPerson), std::nullopt);
  }
  return view(std::nullopt, {});
}

template <class Program>
void GameSession<Program>::begin_thinking() {
  const std::lock_guard lock(mutex_);
  if (thinking_) throw ApiError(409, "an agent is already thinking about this move", "wait for its move");
  if (latest().over) throw ApiError(409, "the game is over", "start a new game");
  thinking_ = true;
}

template <class Program>
void GameSession<Program>::cancel_thinking() {
  const std::lock_guard lock(mutex_);
  thinking_ = false;
}

template <class Program>
Json GameSession<Program>::think(const agents::AgentSpec& spec, const std::string& label, double max_seconds) {
  StateType state;
  {
    const std::lock_guard lock(mutex_);
    state = latest();  // nobody else moves while thinking_ is set
  }
  try {
    // A seed of its own for every move, so that two games of the same agents differ.
    auto agent = agents::make_agent(spec, program_, std::random_device{}());
    agent->start(state.to_move, agents::TimeControl{max_seconds, 0, 0});
    const Move move = agent->choose(state, max_seconds);
    const std::lock_guard lock(mutex_);
    add(move, label, agent->last_report());
    thinking_ = false;
  } catch (...) {
    cancel_thinking();
    throw;
  }
  return view(std::nullopt, {});
}

}  // namespace

std::shared_ptr<Session> make_game_session(std::shared_ptr<const Game> game) {
  return game->visit([&](const auto& program) -> std::shared_ptr<Session> {
    return std::make_shared<GameSession<std::decay_t<decltype(program)>>>(game, program);
  });
}

std::shared_ptr<Session> make_record_session(std::shared_ptr<const Game> game, const ParsedRecord& record) {
  check_game_name(record, game->rules());
  return game->visit([&](const auto& program) -> std::shared_ptr<Session> {
    auto session = std::make_shared<GameSession<std::decay_t<decltype(program)>>>(game, program);
    replay_record(record, program, [&](const auto&, std::optional<Move> last, int mover) {
      if (!last) return;
      // The record names each player's agent in a header called after the player.
      const RecordHeader* agent = record.find(program.rules().players[static_cast<std::size_t>(mover)].name);
      session->add_recorded(*last, agent ? agent->value : std::string("?"));
    });
    return session;
  });
}

}  // namespace troyka::cli
