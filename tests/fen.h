// FEN (Forsyth-Edwards Notation, the PGN standard's §16.1) as the position text of games/chess.game,
// so that tests can start from the positions the published perft figures name. The board field is
// the same in both; the rest becomes the player to move, the ply, the quiet plies, the castling
// rights as the `unmoved` attribute of the kings and rooks that keep them, and the en passant
// square as the `passed` register.
#pragma once

#include <sstream>
#include <string>

namespace troyka_tests {

// "r3k2r/... w KQkq - 0 1" -> "r3k2r/... White 0 0 unmoved=a1,e1,h1,a8,e8,h8 passed=-". The
// half-move clock and the move number may be left out (0 and 1).
inline std::string chess_position_of_fen(const std::string& fen) {
  std::istringstream fields(fen);
  std::string board, side, castling = "-", passed = "-";
  int quiet = 0, move_number = 1;
  fields >> board >> side >> castling >> passed >> quiet >> move_number;
  // The squares of the unmoved kings and rooks, in cell order (a1 first, h8 last), as the text lists them.
  const auto has = [&](char right) { return castling.find(right) != std::string::npos; };
  std::string unmoved;
  const auto add = [&](bool kept, const char* square) {
    if (kept) unmoved.append(unmoved.empty() ? "" : ",").append(square);
  };
  add(has('Q'), "a1");
  add(has('K') || has('Q'), "e1");
  add(has('K'), "h1");
  add(has('q'), "a8");
  add(has('k') || has('q'), "e8");
  add(has('k'), "h8");
  const bool black = side == "b";
  const int ply = 2 * (move_number - 1) + (black ? 1 : 0);
  return board + (black ? " Black " : " White ") + std::to_string(ply) + " " + std::to_string(quiet) +
         " unmoved=" + (unmoved.empty() ? "-" : unmoved) + " passed=" + passed;
}

}  // namespace troyka_tests
