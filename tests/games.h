// Games and positions for tests: the reference game at any size, and positions from their text.
#pragma once

#include <gtest/gtest.h>

#include <string>

#include "interpreter/game.h"

namespace troyka_tests {

inline const std::string kBreakthrough = std::string(TROYKA_SOURCE_DIR) + "/games/breakthrough.game";

// games/breakthrough.game on a width x height board.
inline troyka::Game breakthrough(int width = 8, int height = 8) {
  troyka::lang::Options options;
  options.params = {{"width", std::to_string(width)}, {"height", std::to_string(height)}};
  return troyka::Game::load(kBreakthrough, options);
}

// The position a text form names (Program::parse_position); a bad text fails the test.
template <typename Program>
typename Program::StateType position(const Program& program, const std::string& text) {
  const auto parsed = program.parse_position(text);
  EXPECT_TRUE(parsed.ok()) << text << ": " << parsed.error;
  return parsed.state;
}

}  // namespace troyka_tests
