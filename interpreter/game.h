// A loaded game: checked rules compiled into the Program of the right bitboard width.
// Callers reach the program through visit(), once per task, and then run typed code with no
// virtual calls:
//   game.visit([&](const auto& program) { auto state = program.initial_state(); ... });
#pragma once

#include <memory>
#include <string>
#include <variant>

#include "interpreter/program.h"
#include "lang/rules.h"

namespace troyka {

class Game {
 public:
  explicit Game(lang::Rules rules);

  // Reads, checks and compiles a rule file; throws lang::Error with a diagnostic.
  static Game load(const std::string& path, const lang::Options& options = {});

  const lang::Rules& rules() const { return *rules_; }
  int bitboard_bits() const;

  template <typename Visitor>
  decltype(auto) visit(Visitor&& visitor) const {
    return std::visit([&](const auto& program) -> decltype(auto) { return visitor(program); }, program_);
  }

 public:
  // One alternative per width in TROYKA_FOR_EACH_WIDTH (program.h).
  using AnyProgram = std::variant<Program<1>, Program<2>, Program<4>, Program<6>, Program<11>>;

 private:
  static AnyProgram compile(const std::shared_ptr<const lang::Rules>& rules);

  std::shared_ptr<const lang::Rules> rules_;
  AnyProgram program_;
};

}  // namespace troyka
