// Whether a game's rules make sure it ends, and where the tools stop one that may not. The first
// is undecidable in general, so the test is a sufficient one: a quantity that every move changes
// the same way and that cannot change forever. A game it cannot prove bounded gets a warning from
// `troyka check`; every tool stops a game or a playout at its playout cap anyway.
#pragma once

#include <cstdint>
#include <optional>

#include "lang/diagnostic.h"
#include "lang/rules.h"

namespace troyka::lang {

// The playout cap of a game with no ply-limit rule: max(kMinPlayoutCap, kPlayoutCapPerCell ·
// cells), far beyond the games people play (the longest random games of games/ last a few hundred
// plies), and growing with the board, where fill and exhaust games last longer.
inline constexpr std::uint32_t kMinPlayoutCap = 2000;
inline constexpr std::uint32_t kPlayoutCapPerCell = 20;

// The most plies a playout plays, and the ply at which bench, play, match, analyze, the referee
// and the agents' playouts stop a game still going (as a draw) unless told otherwise: the smallest
// (ply-limit N) of the end rules, else the default above.
std::uint32_t playout_cap(const Rules& rules);

// Nothing when the rules make sure every game ends; otherwise a warning at a move rule that can go
// on forever. The game ends for sure when one of these holds:
//   - an end rule limits its length: (ply-limit N);
//   - no move captures, and every move fills a cell for good (it drops a piece or shoots: blocks a
//     cell) or goes strictly forward: the empty cells run out, and between two fillings the pieces
//     can only advance;
//   - there are no drops, and every move captures or goes strictly forward for its player: each
//     move takes a piece off the board or, keeping them all, brings one closer to the far side;
//   - there are no drops, and a (quiet-moves N) rule ends the game after N plies without a capture
//     (or a move of the piece it names, when that piece only goes forward without capturing).
// Passes (pass-when-stuck) and the swap do not matter: two passes in a row end the game, and the
// swap comes once. Rules of the general back end (Rules::general) are not measured: a game with
// one is bounded only by a ply-limit rule.
std::optional<Diagnostic> unbounded_game_warning(const Rules& rules);

}  // namespace troyka::lang
