// Where a setup's placement puts a piece that starts in its player's hand.
#pragma once

namespace troyka::lang {

// A Placement (lang/rules.h) whose cell is kInHand puts its piece in its player's hand at the start,
// not on the board: (in-hand PLAYER PIECE N) in a setup is N of them, and a ZRF board-setup's
// (PIECE off N) supply of a piece it drops is too (docs/language.md, Hands and drops).
inline constexpr int kInHand = -1;

}  // namespace troyka::lang
