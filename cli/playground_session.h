// One game open in the web playground: its rules, the moves played so far (by a person clicking,
// or by an agent thinking on a job queue's worker), and its picture at any ply. A session is made
// from rule text or from a game record; the page steps through its plies.
#pragma once

#include <chrono>
#include <memory>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>

#include "agents/agent.h"
#include "cli/record.h"
#include "interpreter/game.h"

namespace troyka::cli {

class Session {
 public:
  using Json = nlohmann::ordered_json;

  virtual ~Session() = default;

  // The game as the page draws it after `ply` plies (the latest when not given): the SVG board,
  // the moves with the search reports, whose turn it is and the result; at the latest ply also the
  // legal moves, and the targets of the piece on `selected` (a cell name, or empty). Throws ApiError
  // for a ply past the end or a cell not on the board.
  virtual Json view(std::optional<std::uint32_t> ply, const std::string& selected) const = 0;

  // Plays {"move": "a2-a3"} or {"from": "a2", "to": "a3"} (a drop: from and to the same cell) and
  // returns the view. An illegal or ambiguous move is an ApiError (422), as is any move while an
  // agent thinks or after the game ended (409).
  virtual Json play(const Json& request) = 0;

  // Reserves the next move for an agent, so that nobody plays while it thinks: throws ApiError (409)
  // when the game is over or another agent thinks. Every begin_thinking is followed by think or
  // cancel_thinking.
  virtual void begin_thinking() = 0;
  virtual void cancel_thinking() = 0;
  // Has the agent `spec` choose a move (given at most `max_seconds`, which the spec is already capped
  // to), plays it as `label`'s (the spec as asked for) and returns the view with the agent's search
  // report. Runs on a worker thread.
  virtual Json think(const agents::AgentSpec& spec, const std::string& label, double max_seconds) = 0;

  // The id the page names this session by, and when it was last asked for anything.
  std::string id;
  std::chrono::steady_clock::time_point last_used = std::chrono::steady_clock::now();
};

// A new game of `game` from its start.
std::shared_ptr<Session> make_game_session(std::shared_ptr<const Game> game);

// A game with the record's moves played (checked as `troyka replay` checks them; a bad record is a
// lang::Error pointing into it), for stepping through.
std::shared_ptr<Session> make_record_session(std::shared_ptr<const Game> game, const ParsedRecord& record);

}  // namespace troyka::cli
