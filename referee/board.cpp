#include "referee/board.h"

#include <fmt/format.h>

namespace troyka::referee {
namespace {

template <class Program>
class BoardOf final : public MatchBoard {
 public:
  BoardOf(std::shared_ptr<const Game> game, const Program& program)
      : game_(std::move(game)),
        program_(program),
        state_(program.initial_state()),
        positions_(program.start_history(state_)) {}

  int to_move() const override { return program_.to_move(state_); }
  bool over() const override { return program_.is_terminal(state_); }
  int winner() const override { return state_.winner; }
  std::string end_reason() const override { return program_.end_reason(state_); }
  int player_count() const override { return program_.player_count(); }
  Ranks ranks() const override { return ranks_of(program_, state_); }
  void put_out(int player) override { program_.forfeit(state_, player, positions_); }

  std::vector<std::string> legal_moves() const override {
    MoveList moves;
    program_.legal_moves(state_, moves);
    std::vector<std::string> texts;
    texts.reserve(moves.size());
    for (const Move& move : moves) texts.push_back(program_.move_text(move));
    return texts;
  }

  std::string play(std::string_view move) override {
    const ParsedMove parsed = program_.parse_move(state_, move);
    if (!parsed.ok()) return parsed.error;
    // The interpreter also reads "a2a3" or "a2xa3" for a2-a3; the protocol wants one spelling, so
    // that every result file writes a move the same way.
    const std::string canonical = program_.move_text(parsed.move);
    if (canonical != move) return fmt::format("'{}' is not written as the legal moves are; write {}", move, canonical);
    program_.apply(state_, parsed.move, positions_);
    return {};
  }

 private:
  std::shared_ptr<const Game> game_;  // owns program_
  const Program& program_;
  typename Program::StateType state_;
  History positions_;  // the game's, for (repetition N)
};

// A function template rather than the body of visit's generic lambda: clang 14 instantiates the
// vtable of a class template made there without its member functions (an undefined reference at
// link time in the fuzz build).
template <class Program>
std::unique_ptr<MatchBoard> board_for(std::shared_ptr<const Game> game, const Program& program) {
  return std::make_unique<BoardOf<Program>>(std::move(game), program);
}

}  // namespace

std::unique_ptr<MatchBoard> make_board(std::shared_ptr<const Game> game) {
  const Game& held = *game;
  return held.visit([&](const auto& program) { return board_for(std::move(game), program); });
}

}  // namespace troyka::referee
