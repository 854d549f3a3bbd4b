// The random agent: a uniformly random legal move (program.random_move), from its own seeded stream.
#pragma once

#include <cstdint>
#include <string>
#include <utility>

#include "agents/agent.h"

namespace troyka::agents {

template <class Program>
class RandomAgent final : public Agent<Program> {
 public:
  using StateType = typename Program::StateType;

  RandomAgent(const Program& program, std::uint64_t seed, std::string name = "random")
      : program_(program), rng_(seed), name_(std::move(name)) {}

  std::string name() const override { return name_; }
  Move choose(const StateType& state, double /*seconds_left*/) override { return program_.random_move(state, rng_); }

 private:
  const Program& program_;
  Rng rng_;
  std::string name_;
};

}  // namespace troyka::agents
