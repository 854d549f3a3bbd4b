// Whether a game's rules make sure it ends. Undecidable in general, so the test is a sufficient
// one: a quantity that every move changes the same way and that cannot change forever. A game it
// cannot prove bounded gets a warning from `troyka check` (the tools still stop such a game at
// their ply limits, referee::kDefaultPlyLimit).
#pragma once

#include <optional>

#include "lang/diagnostic.h"
#include "lang/rules.h"

namespace troyka::lang {

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
// swap comes once.
std::optional<Diagnostic> unbounded_game_warning(const Rules& rules);

}  // namespace troyka::lang
