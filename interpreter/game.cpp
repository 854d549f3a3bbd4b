#include "interpreter/game.h"

#include <fmt/format.h>

#include <algorithm>
#include <string>

#include "lang/diagnostic.h"
#include "lang/zrf.h"

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

namespace {

// What of an end condition (and of the conditions it combines) the interpreter does not play yet
// with one player or more than two; "" when it plays it.
std::string unplayable_condition(const lang::EndRule& rule) {
  switch (rule.kind) {
    case lang::EndKind::Repetition: return "(repetition N)";
    case lang::EndKind::InCheck: return "(in-check ...)";
    default: break;
  }
  for (const lang::EndRule& part : rule.parts)
    if (std::string missing = unplayable_condition(part); !missing.empty()) return missing;
  return "";
}

}  // namespace

// The features not yet played with one player or several (docs/core-design.md §3.1, "what is
// left"). Counters, hands, drops and the "most" ends play with any number: each player keeps its
// own values, and a "most" end ranks the players (docs/language.md, "Players").
std::string unplayable_with_many_players(const lang::Rules& rules) {
  if (rules.player_count() == kPlayers) return "";
  for (const lang::PieceType& piece : rules.pieces)
    for (const lang::MoveRule& move : piece.moves) {
      if (move.shoots) return "shots";
    }
  if (rules.swap_rule) return "(swap-rule)";
  if (!rules.legal.empty()) return "(legal ...)";
  if (!rules.phases.empty()) return "(phases ...)";
  if (rules.keeps_counts) return "counts per cell";
  if (!rules.attributes.empty() || !rules.registers.empty()) return "attributes and registers";
  for (const lang::EndRule& rule : rules.end) {
    if (std::string missing = unplayable_condition(rule); !missing.empty()) return missing;
  }
  return "";
}

namespace {

// The language takes 1 to lang::kMaxPlayers players; programs play two, or one or more without the
// features unplayable_with_many_players names.
void require_playable_players(const lang::Rules& rules) {
  const std::string missing = unplayable_with_many_players(rules);
  if (missing.empty()) return;
  const int count = rules.player_count();
  const std::size_t shown = std::min<std::size_t>(rules.players.size() - 1, kPlayers);
  std::string message = fmt::format("this game has {} player{}: troyka plays {} with two players only so far", count,
                                    count == 1 ? "" : "s", missing);
  // A ZRF file's refusals say whether they are a missing feature or a mistake in the file (docs/zrf.md).
  if (rules.source && lang::is_zrf_file(rules.source->name))
    message = lang::with_kind(message, lang::Refusal::MissingFeature);
  throw lang::Error(lang::Diagnostic{
      rules.source, rules.players[shown].pos, std::move(message),
      "the interpreter plays one player, or more than two, with steps, slides, jumps, captures, promotions, drops, "
      "hands, counters, (moves ...) rules, mandatory captures, (pass-when-stuck) and the end rules of reaching, no "
      "pieces, no legal moves, lines, connections, comparisons, the most pieces, area or count, and/or/not and ply "
      "limits, also for one player "
      "(docs/language.md, \"Players\")"});
}

}  // namespace

Game::Game(lang::Rules rules)
    : rules_(std::make_shared<const lang::Rules>(std::move(rules))), program_(compile(rules_)) {}

Game Game::load(const std::string& path, const lang::Options& options) {
  return Game(lang::load_rules_file(path, options));
}

Game::AnyProgram Game::compile(const std::shared_ptr<const lang::Rules>& rules) {
  require_playable_players(*rules);
  return smallest_fit<1, 2, 4, 6, 11>(rules);
}

int Game::bitboard_bits() const {
  return visit([](const auto& program) { return std::decay_t<decltype(program)>::kWords * 64; });
}

}  // namespace troyka
