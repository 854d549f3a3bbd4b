#include "interpreter/game.h"

#include <memory>

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

}  // namespace

Game::Game(lang::Rules rules)
    : rules_(std::make_shared<const lang::Rules>(std::move(rules))), program_(compile(rules_)) {}

Game Game::load(const std::string& path, const lang::Options& options) {
  return Game(lang::load_rules_file(path, options));
}

Game::AnyProgram Game::compile(const std::shared_ptr<const lang::Rules>& rules) {
  return smallest_fit<1, 2, 4, 6, 11>(rules);
}

int Game::bitboard_bits() const {
  return visit([](const auto& program) { return std::decay_t<decltype(program)>::kWords * 64; });
}

}  // namespace troyka
