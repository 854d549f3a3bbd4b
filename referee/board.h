// A game in progress as the referee sees it: moves as text, checked against the rules. The referee
// handles every game through this interface, whatever its bitboard width; a virtual call per move
// costs nothing next to a network round trip.
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "interpreter/game.h"
#include "referee/outcome.h"

namespace troyka::referee {

class MatchBoard {
 public:
  virtual ~MatchBoard() = default;

  virtual int to_move() const = 0;
  virtual bool over() const = 0;
  virtual int winner() const = 0;  // a player or kDraw, once over
  virtual std::string end_reason() const = 0;
  virtual int player_count() const = 0;
  // Each player's place (Program::rank): once over, or as it stands when the game is stopped.
  virtual Ranks ranks() const = 0;
  // Every legal move, in the game's notation.
  virtual std::vector<std::string> legal_moves() const = 0;
  // Plays `move` if it is a legal move written exactly as legal_moves() writes it; otherwise plays
  // nothing and returns why not.
  virtual std::string play(std::string_view move) = 0;
  // With more than two players: `player` forfeits and is out, and the game goes on for the others
  // (Program::forfeit).
  virtual void put_out(int player) = 0;
};

// The start position of `game`, which the board keeps alive.
std::unique_ptr<MatchBoard> make_board(std::shared_ptr<const Game> game);

}  // namespace troyka::referee
