// Checked Rules written back as a troyka rule file: how `troyka translate` shows a ZRF game in
// troyka's own language. The text loads into the same Rules, so it plays the same game.
#pragma once

#include <string>

#include "lang/rules.h"

namespace troyka::lang {

// Sets each player's facing from its moves: the first player faces north, and the second the way
// that turns the first player's moves into its own. A second player whose moves are no turn of the
// first's (a mirror image, say) is left facing "none".
void assign_facings(Rules& rules);

// The rule file. Throws lang::Error when the rules use something the language cannot write, such
// as moves that are no turn of each other (facing "none").
std::string to_troyka_language(const Rules& rules);

}  // namespace troyka::lang
