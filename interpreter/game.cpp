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

}  // namespace

// Compound and counting end conditions ask "the opponent" in ways not yet defined for several
// (docs/core-design.md §3.1, "what is left").
std::string unplayable_with_many_players(const lang::Rules& rules) {
  if (rules.player_count() <= kPlayers) return "";
  for (const lang::PieceType& piece : rules.pieces)
    for (const lang::MoveRule& move : piece.moves) {
      if (move.kind == lang::MoveKind::Drop) return "drops";
      if (move.kind == lang::MoveKind::JumpOver) return "jumps over pieces";
      if (move.shoots) return "shots";
    }
  if (rules.pass_when_stuck) return "(pass-when-stuck)";
  if (rules.swap_rule) return "(swap-rule)";
  if (rules.must_capture) return "mandatory captures";
  if (!rules.legal.empty()) return "(legal ...)";
  if (!rules.phases.empty()) return "(phases ...)";
  if (!rules.counters.empty()) return "counters";
  if (!rules.hands.empty()) return "hands";
  if (rules.keeps_counts) return "counts per cell";
  if (!rules.attributes.empty() || !rules.registers.empty()) return "attributes and registers";
  for (const lang::EndRule& rule : rules.end) {
    if (rule.outcome == lang::Outcome::MostPieces) return "(most-pieces ...)";
    if (rule.outcome == lang::Outcome::MostArea) return "(most-area ...)";
    if (rule.only_player >= 0) return "an end rule for one player";
    switch (rule.kind) {
      case lang::EndKind::Compare: return "comparisons in end rules";
      case lang::EndKind::All:
      case lang::EndKind::Any:
      case lang::EndKind::Not: return "(and ...), (or ...) and (not ...) in end rules";
      case lang::EndKind::Repetition: return "(repetition N)";
      case lang::EndKind::InCheck: return "(in-check ...)";
      default: break;
    }
  }
  return "";
}

namespace {

// The language takes 1 to lang::kMaxPlayers players; programs play two, or more without the
// features unplayable_with_many_players names.
void require_playable_players(const lang::Rules& rules) {
  if (rules.player_count() == kPlayers) return;
  const std::size_t shown = std::min<std::size_t>(rules.players.size() - 1, kPlayers);
  const lang::SourcePos pos = rules.players[shown].pos;
  if (rules.player_count() < kPlayers)
    throw lang::Error(lang::Diagnostic{
        rules.source, pos, "this game has 1 player: troyka plays games of 2 or more players",
        fmt::format("the language takes 1 to {} players, but the interpreter, the agents and the tools play two "
                    "or more; list another player",
                    lang::kMaxPlayers)});
  if (const std::string missing = unplayable_with_many_players(rules); !missing.empty())
    throw lang::Error(lang::Diagnostic{
        rules.source, pos,
        fmt::format("this game has {} players: troyka plays {} with two players only so far", rules.player_count(),
                    missing),
        "the interpreter plays more than two players with steps, slides, captures, promotions, (moves ...) rules "
        "and the end rules of reaching, no pieces, no legal moves, lines, connections and ply limits "
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
