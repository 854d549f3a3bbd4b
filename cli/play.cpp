// troyka play: one game between two sides, each an agent or a person typing moves.
#include <fmt/format.h>
#include <fmt/ostream.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <ostream>
#include <string>
#include <string_view>
#include <tuple>
#include <utility>
#include <vector>

#include "agents/agent.h"
#include "cli/board_view.h"
#include "cli/commands.h"
#include "cli/human.h"
#include "cli/search_report.h"
#include "cli/support.h"
#include "interpreter/game.h"
#include "lang/diagnostic.h"

namespace troyka::cli {
namespace {

using Json = nlohmann::ordered_json;

constexpr std::string_view kHuman = "human";
constexpr std::string_view kReportIndent = "   ";

// One side of the board: a person at the terminal, or an agent.
struct Side {
  std::optional<agents::AgentSpec> agent;  // none: a person plays this side

  bool human() const { return !agent.has_value(); }
  std::string label() const { return agent ? agents::spec_text(*agent) : std::string(kHuman); }
};

// `human`, or an agent spec. A misspelt `human` would otherwise be blamed on the agent list,
// which does not name it: agents/ knows nothing of people.
Side parse_side(const std::string& text, std::string_view option) {
  if (text == kHuman) return Side{};
  const std::string name = text.substr(0, text.find(':'));
  if (name == kHuman)
    throw lang::Error(
        lang::Diagnostic{nullptr, {}, "a human player takes no options", fmt::format("write {} human", option)});
  try {
    return Side{agents::parse_agent_spec(text)};
  } catch (const lang::Error& error) {
    if (lang::closest_match(name, {std::string(kHuman)}).empty()) throw;
    throw lang::Error(lang::Diagnostic{nullptr, {}, error.diagnostic().message, "did you mean 'human'?"});
  }
}

std::string winner_name(const lang::Rules& rules, int winner) {
  if (winner == kDraw) return "draw";
  if (winner == kNoWinner) return "none";
  return rules.players[static_cast<std::size_t>(winner)].name;
}

std::string plies_text(std::uint32_t plies) { return fmt::format("{} {}", plies, plies == 1 ? "ply" : "plies"); }

// How a game stopped: by its rules, by a person before that, or at the ply limit (a draw).
enum class Ending { Finished, Resigned, Abandoned, PlyLimit };

const char* ending_name(Ending ending) {
  switch (ending) {
    case Ending::Finished: return "finished";
    case Ending::Resigned: return "resigned";
    case Ending::Abandoned: return "abandoned";
    case Ending::PlyLimit: return "ply-limit";
  }
  return "finished";
}

struct Stop {
  Ending ending = Ending::Finished;
  std::string reason;  // "White resigned", or the rules' end_reason
  int winner = kNoWinner;
};

template <class Program>
class PlaySession {
 public:
  using StateType = typename Program::StateType;

  PlaySession(const Program& program, const std::vector<Side>& sides, const PlayOptions& play, HumanConsole& console,
              std::ostream& screen);

  // Plays until the rules end the game or a person stops it; prints the game on the screen as it
  // goes and returns its record (what --json prints).
  Json run();

 private:
  // One move played, with the position before it, so that undo is a matter of going back.
  struct Ply {
    StateType before;
    History positions_before;
    Move move;
    std::optional<agents::SearchReport> report;
  };

  std::optional<Stop> human_turn();
  void agent_turn();
  bool try_move(const std::string& text);
  void play(Move move, const std::optional<agents::SearchReport>& report);
  void undo();
  // The move number and text of the turn of the last ply played: "2" and "c3,d4" when its player
  // made two decisions in it.
  std::pair<std::size_t, std::string> last_turn() const;
  void show_board() const;
  std::vector<std::string> sorted_legal_moves() const;
  const std::string& player_name(int player) const {
    return program_.rules().players[static_cast<std::size_t>(player)].name;
  }
  void print_result(const Stop& stop) const;
  Json record(const Stop& stop) const;

  const Program& program_;
  const std::vector<Side>& sides_;  // by player
  const PlayOptions& play_;
  const std::uint32_t max_plies_;  // --max-plies, or the game's playout cap
  HumanConsole& console_;
  std::ostream& screen_;
  std::vector<std::unique_ptr<agents::Agent<Program>>> agents_;  // by player; none for a person
  StateType state_;
  History positions_;  // the game's, for (repetition N)
  std::vector<Ply> history_;
};

template <class Program>
PlaySession<Program>::PlaySession(const Program& program, const std::vector<Side>& sides, const PlayOptions& play,
                                  HumanConsole& console, std::ostream& screen)
    : program_(program),
      sides_(sides),
      play_(play),
      max_plies_(play.max_plies.value_or(program.playout_cap())),
      console_(console),
      screen_(screen),
      agents_(sides.size()),
      state_(program.initial_state()),
      positions_(program.start_history(state_)) {
  // Each agent draws from its own stream: --seed for the first player, --seed + 1 for the second,
  // and so on, unless its spec sets a seed.
  for (int player = 0; player < program.player_count(); ++player) {
    const auto p = static_cast<std::size_t>(player);
    if (sides_[p].human()) continue;
    agents_[p] = agents::make_agent(*sides_[p].agent, program_, play_.seed + p);
    agents_[p]->start(player, agents::TimeControl{});
  }
}

template <class Program>
Json PlaySession<Program>::run() {
  fmt::print(screen_, "{}\n", program_.rules().name);
  show_board();
  if (std::any_of(sides_.begin(), sides_.end(), [](const Side& side) { return side.human(); })) {
    std::vector<std::string> seats;
    for (std::size_t player = 0; player < sides_.size(); ++player)
      seats.push_back(fmt::format("{}: {}", player_name(static_cast<int>(player)), sides_[player].label()));
    fmt::print(screen_, "{}\nType a move as from-to, or 'help' for the commands.\n", fmt::join(seats, ", "));
  }
  std::optional<Stop> stop;
  while (!state_.over && !stop) {
    if (state_.ply >= max_plies_)
      stop = Stop{Ending::PlyLimit, referee::ply_cap_reason(state_.ply), kDraw};
    else if (sides_[state_.to_move].human())
      stop = human_turn();
    else
      agent_turn();
  }
  if (!stop) stop = Stop{Ending::Finished, program_.end_reason(state_), state_.winner};
  for (auto& agent : agents_)
    if (agent) agent->finish(stop->winner);
  print_result(*stop);
  return record(*stop);
}

// Asks the person to move until they play a legal move, take one back or stop the game.
template <class Program>
std::optional<Stop> PlaySession<Program>::human_turn() {
  const int mover = state_.to_move;
  for (;;) {
    // In a turn of several decisions, how many are left, this one included.
    const std::string left =
        program_.rules().alternates() ? "" : fmt::format(", {} of this turn's moves left", state_.actions_left);
    const HumanInput input =
        console_.ask(fmt::format("{} to move (ply {}{}): ", player_name(mover), state_.ply + 1, left));
    switch (input.kind) {
      case HumanInput::Kind::Move:
        if (try_move(input.text)) return std::nullopt;
        break;
      case HumanInput::Kind::Moves: fmt::print(screen_, "{}", legal_moves_text(sorted_legal_moves())); break;
      case HumanInput::Kind::Undo: undo(); return std::nullopt;
      case HumanInput::Kind::Board: show_board(); break;
      case HumanInput::Kind::Resign:
        fmt::print(screen_, "{} resigns.\n", player_name(mover));
        // With more than two players nobody is named winner: the others' ranks are not decided.
        return Stop{Ending::Resigned, player_name(mover) + " resigned",
                    program_.player_count() == kPlayers ? 1 - mover : kNoWinner};
      case HumanInput::Kind::Quit: return Stop{Ending::Abandoned, player_name(mover) + " quit", kNoWinner};
      case HumanInput::Kind::EndOfInput:
        return Stop{Ending::Abandoned, fmt::format("the input ended while {} was to move", player_name(mover)),
                    kNoWinner};
    }
  }
}

// Plays the move `text` names, or says why it names none.
template <class Program>
bool PlaySession<Program>::try_move(const std::string& text) {
  const ParsedMove parsed = program_.parse_move(state_, text);
  if (!parsed.ok()) {
    fmt::print(screen_, "{}\nhint: type 'moves' for the legal moves\n", parsed.error);
    return false;
  }
  play(parsed.move, std::nullopt);
  return true;
}

template <class Program>
void PlaySession<Program>::agent_turn() {
  // After an undo the agent is asked about a position it did not follow; the Agent contract has it
  // forget its search, so the current state is all it needs.
  agents::Agent<Program>& agent = *agents_[state_.to_move];
  const Move move = agent.choose(state_, 0);
  play(move, agent.last_report());
}

template <class Program>
void PlaySession<Program>::play(Move move, const std::optional<agents::SearchReport>& report) {
  const int mover = state_.to_move;
  history_.push_back(Ply{state_, positions_, move, report});
  program_.apply(state_, move, positions_);
  for (const auto& agent : agents_)
    if (agent) agent->observe(move);
  const auto [number, turn] = last_turn();
  fmt::print(screen_, "{}. {} {}", number, player_name(mover), turn);
  if (!report) {
    fmt::print(screen_, "\n");
  } else {
    const std::string& agent_name = sides_[static_cast<std::size_t>(mover)].agent->name;
    if (play_.verbose)
      fmt::print(screen_, "\n{}", report_details(agent_name, *report, kReportIndent));
    else
      fmt::print(screen_, "{}{}\n", kReportIndent, report_summary(agent_name, *report));
  }
  show_board();
}

template <class Program>
std::pair<std::size_t, std::string> PlaySession<Program>::last_turn() const {
  std::size_t turns = 0;  // the turns begun before the last one
  std::string text;
  for (std::size_t ply = 0; ply < history_.size(); ++ply) {
    const bool turn_goes_on = ply > 0 && history_[ply].before.to_move == history_[ply - 1].before.to_move;
    if (!turn_goes_on && ply > 0) ++turns;
    text = (turn_goes_on ? text + "," : std::string()) + program_.move_text(history_[ply].move);
  }
  return {turns / static_cast<std::size_t>(program_.player_count()) + 1, text};
}

// Goes back to the last position before this one where a person was to move: against an agent
// that takes back the person's move and the agent's replies; between two people, one ply.
template <class Program>
void PlaySession<Program>::undo() {
  auto back = history_.end();
  while (back != history_.begin() && !sides_[std::prev(back)->before.to_move].human()) --back;
  if (back == history_.begin()) {
    fmt::print(screen_, "nothing to undo: {} has not moved yet\n", player_name(state_.to_move));
    return;
  }
  --back;
  std::vector<std::string> taken;
  for (auto ply = back; ply != history_.end(); ++ply) taken.push_back(program_.move_text(ply->move));
  state_ = back->before;
  positions_ = back->positions_before;
  history_.erase(back, history_.end());
  fmt::print(screen_, "took back {}\n", fmt::join(taken, " "));
  show_board();
}

template <class Program>
void PlaySession<Program>::show_board() const {
  const std::optional<Move> last = history_.empty() ? std::nullopt : std::optional<Move>(history_.back().move);
  fmt::print(screen_, "{}", draw_board(board_view(program_, state_, last), play_.board));
}

// In board order: by the piece's column and row, then by the destination's.
template <class Program>
std::vector<std::string> PlaySession<Program>::sorted_legal_moves() const {
  MoveList moves;
  program_.legal_moves(state_, moves);
  const int width = program_.rules().width;
  const auto key = [width](const Move& move) {
    return std::tuple(move.from % width, move.from / width, move.to % width, move.to / width);
  };
  std::sort(moves.begin(), moves.end(), [&](const Move& a, const Move& b) { return key(a) < key(b); });
  std::vector<std::string> texts;
  texts.reserve(moves.size());
  for (const Move& move : moves) texts.push_back(program_.move_text(move));
  return texts;
}

template <class Program>
void PlaySession<Program>::print_result(const Stop& stop) const {
  if (stop.ending == Ending::Abandoned) {
    fmt::print(screen_, "game abandoned after {}: {}\n", plies_text(state_.ply), stop.reason);
    return;
  }
  const std::string winner = winner_name(program_.rules(), stop.winner);
  // A game of one player that ended without a winner is a puzzle its player lost.
  const std::string result = stop.winner == kDraw ? "draw"
                             : stop.winner == kNoWinner && program_.player_count() == 1
                                 ? program_.rules().players[0].name + " loses"
                                 : winner + " wins";
  fmt::print(screen_, "result: {} after {} ({})\n", result, plies_text(state_.ply), stop.reason);
}

template <class Program>
Json PlaySession<Program>::record(const Stop& stop) const {
  Json moves = Json::array();
  Json history = Json::array();
  for (const Ply& ply : history_) {
    const int mover = ply.before.to_move;
    Json entry{{"ply", ply.before.ply + 1},
               {"player", player_name(mover)},
               {"by", sides_[static_cast<std::size_t>(mover)].label()},
               {"move", program_.move_text(ply.move)}};
    if (ply.report) entry["report"] = report_json(*ply.report);
    moves.push_back(entry["move"]);
    history.push_back(std::move(entry));
  }
  return Json{{"moves", moves},
              {"winner", winner_name(program_.rules(), stop.winner)},
              {"reason", stop.reason},
              {"plies", state_.ply},
              {"ending", ending_name(stop.ending)},
              {"history", history}};
}

}  // namespace

int run_play(const GameOptions& options, const PlayOptions& play, std::istream& in, std::ostream& out,
             std::ostream& err) {
  // Sides are checked before the game is loaded, so a mistyped agent is reported first.
  std::vector<Side> sides{parse_side(play.white, "--white"), parse_side(play.black, "--black")};
  const Side other = parse_side(play.others, "--others");
  check_max_plies(play.max_plies);
  const Game game = Game::load(options.file, options.language_options());
  sides.resize(static_cast<std::size_t>(game.rules().player_count()), other);
  // With --json, stdout carries the record alone; a person still needs the board and the
  // prompts, so those go to stderr.
  std::ostream discard(nullptr);
  const bool has_human = std::any_of(sides.begin(), sides.end(), [](const Side& side) { return side.human(); });
  std::ostream& screen = !options.json ? out : has_human ? err : discard;
  HumanConsole console(in, screen, play.echo_input);
  game.visit([&](const auto& program) {
    PlaySession session(program, sides, play, console, screen);
    const Json record = session.run();
    if (options.json) out << record.dump() << '\n';
  });
  return 0;
}

}  // namespace troyka::cli
