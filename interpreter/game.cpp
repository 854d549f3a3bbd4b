#include "interpreter/game.h"

#include <fmt/format.h>

#include <algorithm>

namespace troyka {
namespace {

template <int Words, int... Wider>
Game::AnyProgram smallest_fit(const std::shared_ptr<const lang::Rules>& rules) {
  if constexpr (sizeof...(Wider) == 0) {
    static_assert(Words * 64 >= lang::kMaxBoardSide * lang::kMaxBoardSide, "the widest bitboard must hold 26x26");
    return Program<Words>(rules);
  } else {
    if (rules->cells() <= Words * 64) return Program<Words>(rules);
    return smallest_fit<Wider...>(rules);
  }
}

// The language takes 1 to lang::kMaxPlayers players; programs, agents and tools play two so far.
void require_two_players(const lang::Rules& rules) {
  if (rules.player_count() == kPlayers) return;
  const lang::Player& first_refused = rules.players[std::min<std::size_t>(rules.players.size() - 1, kPlayers)];
  throw lang::Error(lang::Diagnostic{
      rules.source, first_refused.pos,
      fmt::format("this game has {} player{}: troyka plays two-player games only so far", rules.player_count(),
                  rules.player_count() == 1 ? "" : "s"),
      fmt::format("the language takes 1 to {} players, but the interpreter, the agents and the tools play two; "
                  "list two to play the game",
                  lang::kMaxPlayers)});
}

}  // namespace

Game::Game(lang::Rules rules)
    : rules_(std::make_shared<const lang::Rules>(std::move(rules))), program_(compile(rules_)) {}

Game Game::load(const std::string& path, const lang::Options& options) {
  return Game(lang::load_rules_file(path, options));
}

Game::AnyProgram Game::compile(const std::shared_ptr<const lang::Rules>& rules) {
  require_two_players(*rules);
  return smallest_fit<1, 2, 4, 6, 11>(rules);
}

int Game::bitboard_bits() const {
  return visit([](const auto& program) { return std::decay_t<decltype(program)>::kWords * 64; });
}

}  // namespace troyka
