// The compiled program of a game: the generic State / move API that agents, the CLI and the referee
// use, whatever the game. A Program never looks at the rule file's tree while playing: moves are
// shift-and-mask operations over bitboards, regions are precomputed masks, and end conditions are
// a short list of mask tests.
//
// Program<Words> is instantiated for a few bitboard widths; Game (game.h) picks one when a rule
// file is loaded and hands it to callers through Game::visit, so the hot loop has no virtual calls.
#pragma once

#include <boost/container/small_vector.hpp>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "interpreter/bitboard.h"
#include "interpreter/random.h"
#include "lang/rules.h"

namespace troyka {

using lang::kPlayers;
inline constexpr int kMaxPieceTypes = lang::kMaxPieceTypes;
inline constexpr int kDraw = 2;      // State::winner when the game is drawn
inline constexpr int kNoWinner = -1; // State::winner while the game goes on

struct Move {
  std::uint16_t from = 0;
  std::uint16_t to = 0;
  std::uint8_t piece = 0;
  bool capture = false;  // a piece stood on `to` and is removed
  bool operator==(const Move&) const = default;
};

// Callers own the buffer and reuse it; the inline capacity covers every game so far, so filling
// it allocates nothing.
using MoveList = boost::container::small_vector<Move, 256>;

template <int Words>
struct State {
  using Board = Bitboard<Words>;
  std::array<Board, kPlayers> by_player{};
  std::array<Board, kMaxPieceTypes> by_piece{};
  std::uint64_t hash = 0;
  std::uint32_t ply = 0;
  std::uint8_t to_move = 0;
  std::int8_t winner = kNoWinner;  // a player, kDraw, or kNoWinner
  std::int8_t ended_by = -1;       // index of the end rule that fired; kEndedByNoMoves by default rule
  bool over = false;

  Board occupied() const { return by_player[0] | by_player[1]; }
};

// Why a game ended when no end rule applied: the player to move had no move, which is a draw.
inline constexpr int kEndedByNoMoves = 127;

// Result of reading move text: the legal move it names, or why it names none.
struct ParsedMove {
  Move move;
  std::string error;
  bool ok() const { return error.empty(); }
};

// Result of reading a position's text form.
template <int Words>
struct ParsedState {
  State<Words> state;
  std::string error;
  bool ok() const { return error.empty(); }
};

template <int Words>
class Program {
 public:
  using Board = Bitboard<Words>;
  using StateType = State<Words>;
  static constexpr int kWords = Words;

  explicit Program(std::shared_ptr<const lang::Rules> rules);

  const lang::Rules& rules() const { return *rules_; }

  // ---- playing ----
  StateType initial_state() const;
  void legal_moves(const StateType& state, MoveList& moves) const;  // empty when the game is over
  int count_moves(const StateType& state) const;
  Move random_move(const StateType& state, Rng& rng) const;  // uniform over legal moves; game not over
  void apply(StateType& state, Move move) const;

  bool is_terminal(const StateType& state) const { return state.over; }
  int to_move(const StateType& state) const { return state.to_move; }
  // +1 for a win, -1 for a loss, 0 for a draw or an unfinished game.
  int result(const StateType& state, int player) const;
  std::string end_reason(const StateType& state) const;

  // ---- text ----
  std::string move_text(Move move) const;
  ParsedMove parse_move(const StateType& state, std::string_view text) const;
  std::string position_text(const StateType& state) const;
  ParsedState<Words> parse_position(std::string_view text) const;
  std::string diagram(const StateType& state) const;
  std::string describe() const;  // the compiled rules, readable

 private:
  // A step or leap: every piece in `from_mask` may jump by (left - right) cells.
  // For a slide, the jump repeats through empty cells.
  struct Jump {
    Board from_mask;  // cells whose neighbour by this offset is on the board
    std::uint16_t left = 0, right = 0;
    std::uint8_t piece = 0;
    lang::Target target = lang::Target::Empty;
    bool slide = false;
    int delta() const { return int(left) - int(right); }
  };
  // The cells one jump reaches; every move in the set goes from (to - delta) to a cell in `targets`.
  struct TargetSet {
    Board targets;
    std::int16_t delta = 0;
    std::uint8_t piece = 0;
  };
  using TargetSets = boost::container::small_vector<TargetSet, 64>;

  struct EndCheck {
    lang::EndRule rule;
    std::array<Board, kPlayers> region{};
  };

  void compile_moves();
  void compile_end_rules();
  Board mask_of(const lang::CellList& cells) const;
  Board landing_mask(const StateType& state, lang::Target target) const;
  template <typename Emit>
  void for_each_target_set(const StateType& state, Emit&& emit) const;
  bool has_legal_move(const StateType& state) const;
  bool end_condition_holds(const StateType& state, const EndCheck& check, int subject) const;
  void decide_end(StateType& state) const;
  std::uint64_t piece_key(int player, int piece, int cell) const;
  std::uint64_t full_hash(const StateType& state) const;
  void put(StateType& state, int player, int piece, int cell) const;
  void take(StateType& state, int player, int piece, int cell) const;
  int piece_at(const StateType& state, int player, int cell) const;

  std::shared_ptr<const lang::Rules> rules_;
  int width_ = 0, height_ = 0;
  Board board_;  // every cell of the board
  std::array<std::vector<Jump>, kPlayers> jumps_;
  std::vector<EndCheck> end_checks_;
  std::vector<std::uint64_t> zobrist_;  // [player][piece][cell]
  std::uint64_t side_key_ = 0;
};

// The bitboard widths programs are compiled for; a board uses the smallest that holds it.
#define TROYKA_FOR_EACH_WIDTH(X) X(1) X(2) X(4) X(6) X(11)
#define TROYKA_DECLARE_PROGRAM(W) extern template class Program<W>;
TROYKA_FOR_EACH_WIDTH(TROYKA_DECLARE_PROGRAM)
#undef TROYKA_DECLARE_PROGRAM

}  // namespace troyka
