// Small helpers the troyka subcommands share.
#pragma once

#include <cstddef>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "interpreter/program.h"
#include "lang/diagnostic.h"
#include "lang/rules.h"

namespace troyka::cli {

// Key order is kept, so JSON output reads in the order it is built.
using Json = nlohmann::ordered_json;

// A mistake on the command line, reported like a rule-file error but without a place.
inline lang::Error usage_error(std::string message, std::string hint = {}) {
  return lang::Error(lang::Diagnostic{nullptr, {}, std::move(message), std::move(hint)});
}

// The winning player's name, "draw", or "none" while the game goes on.
inline std::string winner_name(const lang::Rules& rules, int winner) {
  if (winner == kDraw) return "draw";
  if (winner == kNoWinner) return "none";
  return rules.players[static_cast<std::size_t>(winner)].name;
}

}  // namespace troyka::cli
