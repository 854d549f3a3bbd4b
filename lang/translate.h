// Checked Rules written back as a troyka rule file: how `troyka translate` shows a ZRF game in
// troyka's own language. The text loads into the same Rules, so it plays the same game.
#pragma once

#include <string>

#include "lang/rules.h"

namespace troyka::lang {

// Sets each player's facing from its moves: the first player faces north, and each other the way
// that turns each piece's moves of the first player into its own. A player whose moves are no turn
// of the first's is left facing "none".
void assign_facings(Rules& rules);

// The rule file, of any number of players. When a player faces "none", every player is written
// facing north with each move marked (only PLAYER). A move no keyword form says (a slide by more
// than one cell at a time) is written in core forms, as `troyka show --core` prints it. Throws
// lang::Error for what the language cannot write (a drop whose gravity is not a unit direction).
std::string to_troyka_language(const Rules& rules);

}  // namespace troyka::lang
