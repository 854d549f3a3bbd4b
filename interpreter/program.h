// The compiled program of a game: the generic State / move API that agents, the CLI and the referee
// use, whatever the game. A Program never looks at the rule file's tree while playing: moves are
// shift-and-mask operations over bitboards, regions are precomputed masks, and end conditions are
// a short list of mask tests.
//
// Program<Words> is instantiated for a few bitboard widths; Game (game.h) picks one when a rule
// file is loaded and hands it to callers through Game::visit, so the hot loop has no virtual calls.
#pragma once

#include <algorithm>
#include <bitset>
#include <boost/container/small_vector.hpp>
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "interpreter/bitboard.h"
#include "interpreter/random.h"
#include "lang/rules.h"

namespace troyka {

using lang::kPlayers;
// The most piece types a position of this width holds (lang::kBitboardWidths); the checker refuses
// a game with more.
template <int Words>
inline constexpr int kPieceTypeSlots = lang::bitboard_width(Words * 64).max_piece_types;
// A set of piece types, by index.
using PieceTypeSet = std::bitset<lang::kMaxPieceTypes>;
using lang::kMaxPlayers;
// State::winner when the game is drawn: past every player's index, for games of up to kMaxPlayers.
inline constexpr int kDraw = kMaxPlayers;
inline constexpr int kNoWinner = -1;  // State::winner while the game goes on

// Move::shot of a move without a second part.
inline constexpr std::uint16_t kNoShot = 0xffff;

// A move of a piece from one cell to another, or a drop: a new piece placed on `to`, written with
// from == to (no jump or slide ends where it starts). A move that is not on the board has
// from == to >= cells: a pass is from == to == cells (Program::pass_move), the swap of the pie rule
// from == to == cells + 1 (Program::swap_move). A jump over pieces, or a chain of them, names the
// cells of the pieces it captures in `jumped` (bit c for cell c; such moves exist only on boards of
// at most 64 cells): two chains from one cell to another are two moves when they capture different
// pieces, one when they capture the same. A move with a second part, (then (shoot ...)), also names
// the cell its shot blocks.
// A move of the general back end (interpreter/general.h) is marked `general`: its identity is its
// mover's origin (a game rule's: its landing, or cells when none), landing and type, and in
// `jumped` the 64-bit fingerprint of its canonical record; apply() runs its origin's rules again
// and plays the record with that fingerprint.
struct Move {
  std::uint16_t from = 0;
  std::uint16_t to = 0;
  std::uint8_t piece = 0;
  bool capture : 1 = false;  // a piece stood on `to`, or in `jumped`, and is removed
  bool general : 1 = false;
  std::uint16_t shot = kNoShot;
  std::uint64_t jumped = 0;
  bool is_drop() const { return from == to; }
  bool has_shot() const { return shot != kNoShot; }
  bool operator==(const Move&) const = default;
};
static_assert(sizeof(Move) == 16, "agents keep millions of moves");

// Callers own the buffer and reuse it; the inline capacity covers every game so far, so filling
// it allocates nothing.
using MoveList = boost::container::small_vector<Move, 256>;

// The hashes of a game's positions since its last irreversible move, the current one last: what
// (repetition N) counts. Kept beside the State, not in it (docs/core-design.md §4), by whoever plays
// a game on (the tools, an agent's search, the playout loop); a position alone has no history, and
// perft needs none.
using History = boost::container::small_vector<std::uint64_t, 128>;

template <int Words>
class GeneralMoves;
struct Rotation;
struct GeneralRecord;

// How many moves the general back end lists from one origin (GeneralMoves::count_moves). No
// initialisers: a count makes room for every origin unset and writes those with moves (zeroed
// first, the room was 2% of the instructions of Morris in Ludii's form).
struct OriginMoves {
  std::int16_t origin;  // -1: the game rules
  std::int16_t moves;
  // Each run of its rule is a move (GeneralMoves::CompiledRule::by_runs, Slide::runs_are_moves, a counted jump line): a
  // draw makes no record for the runs before the drawn one.
  bool by_runs;
  // The one rule (GeneralMoves' index) whose runs made these moves, when one did and its index is
  // below 128, else -1: a draw runs it alone, not every rule that applies. One byte, so that the
  // counts of every game keep their size.
  std::int8_t rule;
};
using OriginCounts = boost::container::small_vector<OriginMoves, 32>;

// The candidates of a position that a draw by rejection (GeneralMoves::draws_by_rejection) draws
// from, those still to draw (GeneralMoves::gather_candidates, candidate_move).
template <int Words>
struct Candidates {
  int total = -1;         // candidates left; -1: not gathered
  int others = 0;         // of them, the runs of the rules other than the placement
  Bitboard<Words> cells;  // the placement's cells not set aside
  std::vector<int> runs;  // each rule's candidates left, in the listing's order
};

template <int Words>
struct State {
  static_assert(lang::bitboard_width(Words * 64).words == Words, "a width of lang::kBitboardWidths");
  using Board = Bitboard<Words>;
  // One board per player; a game of n players uses the first n, the others stay empty.
  std::array<Board, kMaxPlayers> by_player{};
  Board blocked{};  // the cells shots have blocked: they belong to no player and stay to the end
  std::uint64_t hash = 0;
  std::uint32_t ply = 0;
  std::uint8_t to_move = 0;
  std::int8_t winner = kNoWinner;  // a player, kDraw, or kNoWinner; with more than two players, the player ranked first
  std::int8_t ended_by = -1;       // index of the end rule that fired; kEndedByNoMoves by default rule
  bool over = false;
  // Games of more than two players: a player who loses is out (docs/core-design.md §3.1). Four bits
  // per player: 0 while it plays, k when it was the k-th player out.
  std::uint32_t out_order = 0;
  // Plies in a row without a capture or a move of the piece the (quiet-moves ...) rule names;
  // kept only in games with that rule.
  std::uint16_t quiet_plies = 0;

  // ---- turns of several decisions, (turn (actions N) [(first M)]) (docs/core-design.md §3.3) ----
  // The decisions the player to move still has in this turn, the next one included: always 1 in a
  // game where the players alternate.
  std::uint8_t actions_left = 1;
  // The game's phase, an index into lang::Rules::phases (docs/core-design.md §3.3); 0 in a game without.
  std::uint8_t phase = 0;

  // ---- counters (docs/core-design.md §6, step 7) ----
  // Each player's value of each (counter ...) of the game, in lang::Rules::counters order.
  std::array<std::array<std::int16_t, lang::kMaxCounters>, kMaxPlayers> counters{};

  // ---- attributes and registers (docs/core-design.md §6, step 14) ----
  // The cells whose pieces have each (attribute ...) of the game, in lang::Rules::attributes order.
  std::array<Board, lang::kMaxAttributes> attributes{};
  // The cell each (register ...) holds, plus one; 0 when it holds none.
  std::array<std::int16_t, lang::kMaxRegisters> registers{};

  // ---- hands (docs/core-design.md §6, step 15) ----
  // How many pieces of each type of (hands ...) each player holds, in lang::Rules::hands order.
  std::array<std::array<std::uint8_t, lang::kMaxHandPieces>, kMaxPlayers> hands{};

  // The game's types first; the others stay empty. Last, so that the fields above share the first
  // cache line with the players' boards whatever the number of types.
  std::array<Board, kPieceTypeSlots<Words>> by_piece{};

  // ---- counts per cell (sowing games, docs/core-design.md "Counts per cell") ----
  // A game that keeps counts ((setup (count N REGION))) holds them in its last kCountBoards boards of
  // by_piece, a byte a cell: its piece types leave them empty (lang::kMaxCountPieceTypes). So the
  // state of every game stays as it was, and what compares or copies boards covers the counts too.
  static constexpr int kCountBoards = lang::kMaxCountCells / (8 * Words) + (lang::kMaxCountCells % (8 * Words) != 0);
  static constexpr std::size_t kCountOffset = (kPieceTypeSlots<Words> - kCountBoards) * sizeof(Board);
  static_assert(kPieceTypeSlots<Words> - kCountBoards >= lang::kMaxCountPieceTypes);
  std::uint8_t& count(int cell) { return reinterpret_cast<std::uint8_t*>(&by_piece)[kCountOffset + cell]; }
  std::uint8_t count(int cell) const { return reinterpret_cast<const std::uint8_t*>(&by_piece)[kCountOffset + cell]; }

  // Every player's pieces; the boards of players a game does not have are empty.
  Board pieces() const {
    Board all = by_player[0];
    for (std::size_t player = 1; player < by_player.size(); ++player) all |= by_player[player];
    return all;
  }
  Board occupied() const { return pieces() | blocked; }

  int out_rank(int player) const { return static_cast<int>(out_order >> (4 * player)) & 0xf; }
  bool is_out(int player) const { return out_rank(player) != 0; }
};

// Why a game ended when no end rule applied: the player to move had no move, which is a draw.
inline constexpr int kEndedByNoMoves = 127;
// Why a game of more than two players ended when its last opponent was put out by Program::forfeit.
inline constexpr int kEndedByForfeit = 126;

// A move played in a playout, with the player who played it (for policies that learn).
struct PlayedMove {
  Move move;
  std::uint8_t mover = 0;
};

// How a playout chooses its moves beyond uniform chance. With everything off, playout(state, rng,
// policy) plays exactly the moves of playout(state, rng). The rules are tried in this order:
//   1. decisive: play a move that wins at once, if there is one;
//   2. anti_decisive: if the opponent could win at once were it to move, play a move after which it
//      cannot, if there is one;
//   3. move_values: draw two moves uniformly and play the one with the higher value; the values are
//      indexed by Program::move_key (a learned table such as MAST's);
//   4. otherwise a uniformly random move.
// "Wins at once" is tested cheaply for the end rules a move can trigger for its mover (reaching a
// region, taking the opponent's last piece): the end rules of other kinds, and wins by count
// (most-pieces), are never anticipated; nor is a win by the swap of (swap-rule), which rules 1 and 2
// never play.
//
// A playout may also stop before the game ends, leaving the state unfinished (not over): after
// `max_plies` plies (0: the game's Program::playout_cap()), or once `deadline` has passed (nullptr:
// never). The deadline is read every kDeadlinePlies plies, so a search under a clock waits at most
// that many plies for it.
struct PlayoutPolicy {
  bool decisive = false;
  bool anti_decisive = false;
  const float* move_values = nullptr;
  std::vector<PlayedMove>* played = nullptr;  // when set, every move played is appended
  // The history of the game up to the position the playout starts from (null: that position
  // alone), for (repetition N).
  const History* history = nullptr;
  std::uint32_t max_plies = 0;
  const std::chrono::steady_clock::time_point* deadline = nullptr;
  static constexpr std::uint32_t kDeadlinePlies = 16;
};

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
  // The index-th of the moves legal_moves lists, 0 <= index < count_moves(state); found without
  // listing them when the game's moves are counted (moves_counted_), so that random_move and the
  // playouts draw exactly as from the list.
  Move nth_move(const StateType& state, int index) const;
  Move random_move(const StateType& state, Rng& rng) const;  // uniform over legal moves; game not over
  void apply(StateType& state, Move move) const;
  // apply, keeping the game's history: a (repetition N) rule counts the position in it. Without
  // such a rule it is apply, and the history is left as it is.
  void apply(StateType& state, Move move, History& history) const;
  // The history of a game whose first position, or the first one known, is `state`.
  History start_history(const StateType& state) const { return History(1, state.hash); }
  // Whether the game has a (repetition N) rule, and so keeps histories.
  bool counts_repetitions() const { return repeats_; }
  // Plays uniformly random moves to the end of the game, or until `max_plies` plies are played
  // (0: playout_cap()), leaving the state unfinished; returns the plies played. So every playout
  // ends, even in a game that can go on forever. Same moves and result as looping random_move +
  // apply, but generates each position's moves only once. With a policy, the playout may stop
  // unfinished at the policy's ply cap or deadline.
  std::uint32_t playout(StateType& state, Rng& rng, std::uint32_t max_plies = 0) const;
  std::uint32_t playout(StateType& state, Rng& rng, const PlayoutPolicy& policy) const;
  // The plies after which a playout stops unfinished, and a tool a game still going, unless told
  // otherwise: lang::playout_cap (the smallest ply-limit of the end rules, else a default).
  std::uint32_t playout_cap() const { return playout_cap_; }

  // ---- uniform draws by count (draws_by_count()) ----
  // The moves of a position counted, not listed: the fast path's (its target sets) and the general
  // back end's, per origin (GeneralMoves::count_moves).
  struct DrawCounts {
    int board = 0;
    bool others_can_move = false;  // (when (can-move others)) of the general rules, as counted
    OriginCounts general;
    int total = 0;
  };
  // Whether random_move and uniform playouts draw a move from a count of the moves and list only
  // the drawn piece's moves up to it; see the constructor for which games do.
  bool draws_by_count() const { return draws_by_count_; }
  // With draws_by_count(), of a position not over: counts.total is the number of moves
  // list_moves gives, unless it is 0 (no move on the board: the fallback rules or the pass, which
  // only a listing finds; or a rule that applies is not counted, GeneralMoves::kNotCounted).
  void count_drawable(const StateType& state, DrawCounts& counts) const;
  // The move of index `index` (below counts.total) of the position counted into `counts`; each
  // index gives a different move of list_moves. A general move's record is made at the end of
  // `records` (cleared first), to be played from.
  Move drawn_move(const StateType& state, const DrawCounts& counts, int index,
                  std::vector<GeneralRecord>& records) const;
  // Whether the player to move in `state` draws by rejection (GeneralMoves::draws_by_rejection), its
  // moves all the general back end's.
  bool draws_by_rejection(const StateType& state) const { return draws_by_rejection_[state.to_move]; }
  // With draws_by_rejection(state): the candidates of `state`, and the move of candidate `index`,
  // false when it is not one (GeneralMoves::gather_candidates, candidate_move).
  void gather_candidates(const StateType& state, Candidates<Words>& candidates) const;
  bool candidate_move(const StateType& state, Candidates<Words>& candidates, int index,
                      std::vector<GeneralRecord>& records, Move& move) const;

  // A move of the player to move that ends the game at once with that player winning, found as
  // the decisive rule of PlayoutPolicy finds it; false when there is none.
  bool winning_move(const StateType& state, Move& move) const;
  // Whether the player not to move could win at once if it were its turn.
  bool opponent_threatens_win(const StateType& state) const;

  // A dense index of a move by its mover, origin and destination, below move_key_count(); a drop's
  // origin is its destination. Origins and destinations run past the cells by two, for the moves
  // that are not on the board (a pass, a swap). A shot is not part of the key: the moves that differ
  // only in where they shoot share one (a table per shot would be cells times larger).
  std::size_t move_key(int mover, Move move) const {
    const std::size_t side = static_cast<std::size_t>(cells_) + 2;
    return (static_cast<std::size_t>(mover) * side + move.from) * side + move.to;
  }
  std::size_t move_key_count() const {
    const std::size_t side = static_cast<std::size_t>(cells_) + 2;
    return static_cast<std::size_t>(players_) * side * side;
  }
  // The pass of a game with (pass-when-stuck): the only move of a player who has none while its
  // opponent has some. Its text is "pass".
  Move pass_move() const {
    return Move{static_cast<std::uint16_t>(cells_), static_cast<std::uint16_t>(cells_), 0, false};
  }
  bool is_pass(Move move) const { return move.from == cells_; }
  // The swap of a game with (swap-rule): a move of the second player at ply 1 that turns the first
  // player's pieces into its own, mirrored across the diagonal from a1. Its text is "swap".
  Move swap_move() const {
    return Move{static_cast<std::uint16_t>(cells_ + 1), static_cast<std::uint16_t>(cells_ + 1), 0, false};
  }
  bool is_swap(Move move) const { return move.from == cells_ + 1; }
  bool swap_available(const StateType& state) const {
    return swap_rule_ && state.ply == 1 && state.to_move == 1 && !state.over;
  }

  bool is_terminal(const StateType& state) const { return state.over; }
  int to_move(const StateType& state) const { return state.to_move; }
  int player_count() const { return players_; }
  // The player whose turn comes after `player`'s: the next in turn order who is not out.
  int next_player(const StateType& state, int player) const {
    if (players_ == kPlayers) return 1 - player;
    return next_in_play(state, player);
  }
  // Whether a decision of the player to move ends its turn (the last of its turn's actions).
  bool turn_ends(const StateType& state) const { return state.actions_left == 1; }
  // +1 for a win, -1 for a loss, 0 for a draw or an unfinished game. With more than two players:
  // +1 for the player ranked first alone, -1 for one ranked last alone, 0 otherwise.
  int result(const StateType& state, int player) const;
  // How `player` did, from 0 to 1: (the players ranked below it + half those tied with it) / (n - 1);
  // 1, 0.5 and 0 for a win, a draw and a loss of two players; 0.5 for an unfinished game.
  double utility(const StateType& state, int player) const;
  // `player`'s place in a finished game, from 1; tied players share a place (1 2 2, not 1 2 3).
  int rank(const StateType& state, int player) const;
  // A game of more than two players without `player`, whom a referee put out (it forfeited): it is
  // out, ranked below those still playing and above those out before it, its turn (if it had it)
  // passes, and the end rules are asked again of the position. One player left wins.
  // `history` is the game's, as apply takes it.
  void forfeit(StateType& state, int player, History& history) const;
  std::string end_reason(const StateType& state) const;
  // Each player's area by the (most-area ...) end rule of index `rule`: its pieces and the empty
  // regions that border its pieces only, the komi added to the second player's.
  std::array<int, kMaxPlayers> areas(const StateType& state, int rule) const;
  // Each player's tally by the "most" end rule of index `rule`: its pieces, its area or its total count.
  std::array<int, kMaxPlayers> tallies(const StateType& state, int rule) const;

  // (attacked) at `cell` for the player to move, as the general back end asks it: a move of the
  // opponent's, were it to move, would take a piece of the player's standing at `cell`. The mover,
  // a `piece` carried off `origin` (-1: none), stands there when the cell is empty. The opponent's
  // moves are listed without their own (attacked) tests, which would ask back.
  bool attacked(const StateType& state, int cell, int origin, int piece) const;
  // A rule's own (legal ...), as the general back end asks it of a move that rule makes: whether
  // the condition holds for the mover once `move`, of complete record `record`, is played. The
  // look-ahead is one move deep: while it asks for the moves that follow, their rules' own (legal
  // ...) are not asked (they hold), only the game's (legal ...), so that a test never asks back.
  bool rule_allows(const StateType& state, Move move, const GeneralRecord& record, int rule) const;

  // ---- text ----
  std::string move_text(Move move) const;
  ParsedMove parse_move(const StateType& state, std::string_view text) const;
  std::string position_text(const StateType& state) const;
  ParsedState<Words> parse_position(std::string_view text) const;
  std::string diagram(const StateType& state) const;
  std::string describe() const;  // the compiled rules, readable
  // Every table and flag compile_moves() and the end rules set, as text: two programs with equal
  // summaries run the same code (a check that core rules compile as their keyword forms do).
  std::string compiled_summary() const;

 private:
  // Which occupants a landing cell may have, as bits; a jump's landing set is their union.
  enum Landing : std::uint8_t { kOnEmpty = 1, kOnEnemy = 2, kOnFriend = 4, kLandingKinds = 8 };

  // A step or leap: every piece in `from_mask` may jump by (left - right) cells.
  // For a slide, the jump repeats through empty cells. Move rules that share a piece, an offset
  // and a kind are merged into one jump whose landing set is the union of theirs.
  struct Jump {
    Board from_mask;  // cells whose neighbour by this offset, and every tested cell, is on the board
    std::uint16_t left = 0, right = 0;
    // piece to shot_line_step side by side in TargetSet's order: a target set written out (for a
    // call, or kept on the stack) copies shot and shot_line with one load and one store.
    std::uint8_t piece = 0;
    std::int8_t shot = -1;  // the index in shots_ of the move's second part, or -1
    // With a shot counted on lines: the index in Shot::lines of the line the cell left shares with
    // the landing when the shot slides along it back towards that cell (else -1), and how many of
    // its cells a step of the jump goes up it (negative: down).
    std::int8_t shot_line = -1, shot_line_step = 0;
    std::uint8_t landing = 0;  // Landing bits
    bool slide = false;
    std::uint8_t guards = 0;  // 0 without cell tests, else 1 + the index of its guards in guards_[player]
    // A slide counted a direction at a time (count_without_list): every distance's targets are one
    // target set, since no move of it needs its distance to be counted: it has no shot, or a shot
    // counted on lines that finds the cell left as the nearest piece back along its line (no line
    // goes back to it, or the slide goes one cell of that line a step, over empty cells).
    bool counted_as_ray = false;
    int delta() const { return int(left) - int(right); }
  };
  // A jump over a piece: every piece in `from_mask` may jump over the cell (left - right) cells
  // away, if an enemy piece stands there, to the cell twice as far, if it is empty. With `chain`,
  // the piece goes on jumping (with the chain hops of its piece type) while it can.
  struct Hop {
    Board from_mask;  // cells whose neighbour twice this offset away is on the board
    std::uint16_t left = 0, right = 0;
    std::uint8_t piece = 0;
    bool chain = false;
    int delta() const { return int(left) - int(right); }
  };
  // Where a piece becomes another: `into` on the cells of `region`; into < 0 for none.
  struct Promotion {
    Board region;
    std::int8_t into = -1;
  };
  // A chain being followed: the moving piece's origin, type and the board without it.
  struct ChainStart {
    int from = 0;
    std::uint8_t piece = 0;
    Board occupied;              // every piece but the moving one: the jumped ones stay until the move ends
    std::size_t first_move = 0;  // where this piece's moves begin in the list
  };
  // A cell test of a jump, seen from the landing cell: the shift brings the tested cell's bit onto
  // the landing cell, where it must be in the landing mask `allowed` (Landing bits).
  struct Guard {
    std::uint16_t left = 0, right = 0;
    std::uint8_t allowed = 0;
  };
  // A drop of `piece` onto the empty cells of `region` that are supported: every cell in `unsupported`,
  // and the others when their neighbour in the direction of gravity is occupied (the shift by
  // left/right brings that neighbour's bit onto the cell). Without gravity every cell is in
  // `unsupported` and the shift is zero, so one expression serves both.
  // One direction as a shift: step() moves every cell one cell that way, losing those that would leave the board.
  struct Ray {
    Board from_mask;  // cells whose neighbour that way is on the board
    std::uint16_t left = 0, right = 0;
    Board step(const Board& cells) const { return (cells & from_mask).shifted(left, right); }
    // The cells whose neighbour that way is in `cells`.
    Board pull(const Board& cells) const { return cells.shifted(right, left) & from_mask; }
  };
  // Cells linked by an offset that goes up the cell numbers (a line of a sliding shot), from the
  // first: its occupancy, gathered from the board's words (gather_bits), is bits 1.. of a word
  // whose bit 0 and the bit past the last cell (`ends`) stand for the edges of the board.
  struct CellLine {
    std::array<std::uint64_t, Words> mask{};
    std::array<std::uint8_t, Words> shift{};  // where each word's cells go: 1 + the line's cells in lower words
    std::uint64_t ends = 0;
  };
  // The offset of a line (going up the cell numbers) and which ways the shot slides along it.
  struct ShotLine {
    lang::Offset offset;
    bool up = false, down = false;
  };
  // A cell's line (index in Shot::cell_lines) and its bit there (1 + its place from the first cell).
  struct LinePlace {
    std::uint16_t line = 0;
    std::uint8_t bit = 0;
  };
  // The second part of a move, (then (shoot MOVE)): from where the piece landed, a step or slide
  // along each ray to an empty cell. `offsets` are the rule's, to tell equal shots apart.
  struct Shot {
    std::vector<Ray> rays;
    bool slide = false;
    std::vector<lang::Offset> offsets;
    // A slide's rays, [ray * cells + cell]: the cells a slide from the cell passes over to the edge
    // of the board. Its targets stop before the first occupied one, found by the lowest or highest
    // bit (a ray that shifts up or down), not by a step at a time.
    std::vector<Board> beyond;
    std::vector<lang::Offset> directions;  // the offset of each ray
    // A slide whose rays never overlap (no two go the same way) counts its targets from a cell on
    // lines (shots_on_lines), not walked per landing: each ray lies on a line of cells linked by
    // its offset, whose occupancy is gathered into one word once a count (gather_lines), where the
    // empty run either way is a count of zero bits.
    bool by_lines = false;
    std::vector<ShotLine> lines;       // one per offset along which some ray of the shot goes, either way
    std::uint8_t line_count = 0;       // lines.size()
    bool both_ways = false;            // every line slid along both ways
    int lines_id = -1;                 // equal for shots (of any player) whose lines are the same
    std::vector<LinePlace> places;     // [cell * lines.size() + line]: where the cell stands on the line
    std::vector<CellLine> cell_lines;  // every line of cells of every ShotLine
    int most_targets = 0;              // the most cells the shot reaches from any cell of the empty board
  };
  // A direction of a flanking drop: `outward` from the dropped cell along the line it closes,
  // `inward` back towards it.
  struct FlankLine {
    Ray outward, inward;
  };
  // Drops are kept sorted by piece; `same_piece_before` marks one that follows a drop of the same
  // piece, whose targets it must not list again (two drop rules may reach one cell).
  struct Drop {
    Board region;
    Board unsupported;
    std::uint16_t left = 0, right = 0;
    std::uint8_t piece = 0;
    bool same_piece_before = false;
    std::vector<FlankLine> flanking;  // empty: the drop need not flank and flips nothing
    int longest_run = 0;              // the most enemy pieces a line can close: the board's longer side - 2
  };
  // Where the moves of one target set come from: a jump's delta and piece, or a drop's (delta 0).
  struct TargetSource {
    std::int16_t delta = 0;
    std::uint8_t piece = 0;
  };
  // One of lang::kLineDirections, d, as shifts: next() brings the bit of c + d onto c, previous()
  // that of c - d, each only where that cell is on the board.
  struct LineDirection {
    Board has_next, has_previous;
    std::uint16_t next_left = 0, next_right = 0, previous_left = 0, previous_right = 0;
    Board next(const Board& cells) const { return cells.shifted(next_left, next_right) & has_next; }
    Board previous(const Board& cells) const { return cells.shifted(previous_left, previous_right) & has_previous; }
  };
  // The cells one jump or drop reaches; every move in the set goes from (to - delta) to a cell in `targets`.
  struct TargetSet {
    Board targets;
    std::int16_t delta = 0;
    std::uint8_t piece = 0;
    std::int8_t shot = -1;  // a move to each target goes on with this shot (Jump::shot)
    // For a shot counted on lines: the line of the shot (Jump::shot_line) on which the cell left
    // lies, `line_step` cells below the landing (above when negative), when the shot slides along
    // it back towards that cell; else -1.
    std::int8_t line = -1, line_step = 0;
    // A slide's targets at every distance (Jump::counted_as_ray): the index of its jump in
    // jumps_[player]; `delta` and `line_step` are then a step's. Else -1.
    std::int16_t ray = -1;
  };
  // The targets of every jump and drop of one position, kept on the stack by random_move and playout
  // when the program has no slides (one target set per jump, then one per drop); otherwise those
  // draw from a move list.
  static constexpr std::size_t kInlineJumps = 48;
  struct InlineTargets {
    union Slot {  // left uninitialised on purpose: zeroing costs more than generating the moves
      Slot() {}   // NOLINT(modernize-use-equals-default): "= default" would zero the board
      Board board;
    };
    Slot by_jump[kInlineJumps];
    int total = 0;      // the moves, the swap included
    bool swap = false;  // the swap is a move, the last one
  };

  // The moves of one position in listing order, counted without listing them (moves_counted_):
  // one entry per target set, with the number of its moves (for a move with a shot, one per cell
  // it can shoot to). A random playout of Amazons draws one of 2,000 moves this way without making
  // any of the others.
  struct CountedChoices {
    TargetSet set;
    int count = 0;
  };
  // With `landings` at 0 or more (count_landings), the entries count each set's landings, not its
  // moves, and `total` is not known (-1): a draw by rejection (draw_counted) counts one landing's shots.
  struct CountedMoves {
    boost::container::small_vector<CountedChoices, 64> entries;
    int total = 0;
    int landings = -1;
    int lines_id = -1;     // the Shot::lines_id whose lines `line_bits` holds, or -1
    Board lines_occupied;  // the occupied cells `line_bits` holds
    boost::container::small_vector<std::uint64_t, 64> line_bits;  // by Shot::cell_lines: see CellLine
  };

  // One end rule for one subject, as seen after a given player's move: "if KIND holds for the
  // subject, the game ends with WINNER". Flattened at load so the check after each move is a
  // short loop over these.
  struct EndTest {
    Board region;        // Reach and Connect: the subject's cells
    Board other_region;  // Connect: the cells the chain must also touch
    std::uint32_t ply_limit = 0;
    lang::EndKind kind = lang::EndKind::Reach;
    std::uint8_t length = 0, longest = 0;  // InARow
    std::int8_t subject = 0;
    std::int8_t piece = -1;
    std::int8_t winner = kDraw;  // or kWinnerByCount
    std::int8_t rule = 0;
    std::int8_t counter = -1;  // Compare: the subject's counter, compared with `value`
    lang::Comparison comparison = lang::Comparison::Equal;
    std::int16_t value = 0;                   // Compare: the number; Repetition: the occurrences that end the game
    std::uint16_t first_part = 0, parts = 0;  // All, Any, Not: their tests, end_parts_[first_part...]
    // InARow after a move of a game whose every move places one piece (places_only_): a line the
    // move made passes through the placed cell, so only the lines through it are walked.
    bool through_placed = false;
    // All and Any whose every part is a Compare: tested inline by compares_hold, not by parts_hold.
    bool compares = false;
  };
  // EndTest::winner of (most-pieces ...), (most-area ...) and (most-count ...): the players still
  // playing are ranked by their tallies (tallies()), the most first; a draw if the first place is shared.
  static constexpr std::int8_t kWinnerByCount = kDraw + 1;
  // EndTest::winner of a loss with more than two players: the subject is out, the game goes on.
  static constexpr std::int8_t kSubjectOut = kDraw + 2;
  // EndTest::subject of (lose no-legal-moves) and the like with more than two players: the player
  // to move, whoever that is once the players out are skipped.
  static constexpr std::int8_t kSubjectToMove = -1;

  // With TROYKA_FORCE_GENERAL=1 in the environment, `rules` with every move rule and game option
  // moved to the general back end in core forms (core::lower); else `rules` as they are.
  static std::shared_ptr<const lang::Rules> with_forced_general(std::shared_ptr<const lang::Rules> rules);
  void compile_moves();
  void compile_placing();
  std::vector<std::int16_t> cell_steps(lang::Offset offset) const;
  void add_jump(int player, int piece, const lang::MoveRule& move, lang::Offset offset, int shot);
  int add_shot(int player, const lang::MoveRule& move);
  void add_shot_lines(Shot& shot) const;
  void add_shot_line(int player, Jump& jump, lang::Offset offset);
  void add_drop(int player, int piece, const lang::MoveRule& move);
  void add_guards(int player, Jump jump, const std::vector<lang::CellTest>& tests);
  static std::uint8_t landing_of(lang::Target target);
  void add_hop(int player, int piece, const lang::MoveRule& move, lang::Offset offset);
  Board cells_with_neighbour(lang::Offset offset) const;
  // The shift that moves every cell by `delta` cells up (left) or down (right).
  static std::pair<std::uint16_t, std::uint16_t> shift_by(int delta) {
    return {static_cast<std::uint16_t>(std::max(delta, 0)), static_cast<std::uint16_t>(std::max(-delta, 0))};
  }
  void compile_end_rules();
  void compile_end_tests(int mover, int to_move, std::vector<EndTest>& all_tests,
                         std::vector<EndTest>& after_move_tests);
  EndTest end_test(const lang::EndRule& condition, int subject);
  void compile_rule_legality();  // rule_legal_tests_, of the rules of lang::Rules::general
  void compile_win_prefilters();
  // The playout loops take the history of the game so far (null: the start position alone); the
  // loop without extras, which no game with a repetition rule uses, none.
  template <typename Choose, typename KeepGoing>
  std::uint32_t run_playout(StateType& state, Choose&& choose, KeepGoing&& keep_going, const History* history) const;
  // With draws_by_rejection(state): `draw(n)` picks one of n uniformly, among the candidates
  // (gathered first when not yet), until one is a move; true and that move, its record at the end of
  // `records`; false when none is (then the moves are counted, or listed).
  template <typename Draw>
  bool draw_by_rejection(const StateType& state, Candidates<Words>& candidates, Draw&& draw,
                         std::vector<GeneralRecord>& records, Move& move) const;
  template <typename Choose, typename KeepGoing>
  std::uint32_t run_listed_playout(StateType& state, Choose&& choose, KeepGoing&& keep_going,
                                   const History* history) const;
  template <typename Choose, typename KeepGoing>
  std::uint32_t run_extras_playout(StateType& state, Choose&& choose, KeepGoing&& keep_going,
                                   const History* history) const;
  template <typename Choose, typename KeepGoing>
  std::uint32_t run_counted_playout(StateType& state, Choose&& choose, KeepGoing&& keep_going,
                                    const History* history) const;
  void count_without_list(const StateType& state, CountedMoves& counted) const;
  void count_landings(const StateType& state, CountedMoves& counted) const;
  void count_for_draw(const StateType& state, CountedMoves& counted) const;
  bool has_counted_move(const StateType& state, const CountedMoves& counted) const;
  template <typename Draw>
  Move draw_counted(const StateType& state, CountedMoves& counted, Draw&& draw) const;
  Move counted_move(const StateType& state, const CountedMoves& counted, int index) const;
  Move landed_move(const StateType& state, const TargetSet& ray_or_set, int to, int shot) const;
  template <bool Extras, typename Choose, typename KeepGoing>
  std::uint32_t run_inline_playout(StateType& state, Choose&& choose, KeepGoing&& keep_going,
                                   const History* history = nullptr) const;
  template <typename Choose, typename KeepGoing>
  std::uint32_t run_placing_playout(StateType& state, Choose&& choose, KeepGoing&& keep_going) const;
  // The history a playout from `state` keeps: `history` (the game's so far, `state` last) or `state`
  // alone when null; empty in a game without a repetition rule.
  History playout_history(const StateType& state, const History* history) const {
    return !repeats_ ? History() : history ? *history : start_history(state);
  }
  // Plays `move` without asking the end rules; a general move by its `record` when given (as
  // list_moves gave it), else by its record found again.
  void play_move(StateType& state, Move move, const GeneralRecord* record = nullptr) const;
  // Plays `move`, one of `moves` as list_moves gave them with their general `records`, without
  // running any rule again.
  void play_listed_move(StateType& state, Move move, const MoveList& moves,
                        const std::vector<GeneralRecord>& records) const;
  // Lists the moves of `state` and answers has_legal_move(state) from them.
  bool list_legal_moves(const StateType& state, MoveList& moves, std::vector<GeneralRecord>* records,
                        bool complete_records) const;
  // apply, adding the new position to `history` unless it is null; `record` as for play_move.
  void apply_remembering(StateType& state, Move move, History* history, const GeneralRecord* record = nullptr) const;
  // Lists the moves of `state` and calls visit(move, record) for each, with the record of a general
  // move (null for others), until it returns false: moves tried on copies are played by record.
  template <typename Visit>
  void for_each_listed_move(const StateType& state, Visit&& visit) const;
  // Adds the position `move` led to onto the history, which an irreversible move empties first.
  void remember(const StateType& state, Move move, History& history) const;
  static void restart_history(const StateType& state, History* history);
  bool could_win(const StateType& state, int player) const;
  bool find_win(const StateType& state, Move& win) const;
  template <typename NthMove>
  Move choose_playout_move(const StateType& state, int count, NthMove&& nth, Rng& rng,
                           const PlayoutPolicy& policy) const;
  template <typename OnWin>
  void for_each_win(const StateType& state, OnWin&& on_win) const;
  Board threat_cells(const StateType& state) const;
  bool find_safe_move(const StateType& state, const Board& threat, Rng& rng, Move& safe) const;
  Board mask_of(const lang::CellList& cells) const;
  template <bool Extras = true>
  [[gnu::always_inline]] std::array<Board, kLandingKinds> landing_masks(const StateType& state) const;
  template <bool WholeRays = false, typename Emit>
  void for_each_target_set(const StateType& state, Emit&& emit) const;
  template <typename OnHits>
  static bool for_each_distance(const Jump& jump, Board frontier, const Board& landing, const Board& empty,
                                OnHits&& on_hits);
  static TargetSet distance_targets(const Jump& jump, int distance, const Board& hits);
  int counted_landing(const StateType& state, const CountedMoves& counted, const TargetSet& set, int& index) const;
  template <typename OnMove>
  bool for_each_move(const StateType& state, const TargetSet& set, Board targets, OnMove&& on_move) const;
  Board shot_targets(const StateType& state, int shot, int from, int to) const;
  void bring_lines(const Shot& rule, const Board& occupied, CountedMoves& counted) const;
  void gather_lines(const Shot& rule, const Board& occupied, CountedMoves& counted) const;
  static int shots_on_lines(const Shot& rule, const std::uint64_t* line_bits, const TargetSet& set, int to);
  int landing_shots(const StateType& state, const CountedMoves& counted, const TargetSet& set, int to) const;
  bool has_legal_move(const StateType& state) const;
  // has_legal_move under (legal ...), of a position whose moves of the board are `moves` (general
  // ones with their complete `records`, in order), as list_board_moves gives them: `first_legal` is
  // set to the index of the first legal one among them, -1 when none is.
  bool legal_among(const StateType& state, const MoveList& moves, const std::vector<GeneralRecord>& records,
                   int& first_legal) const;
  // legal_moves, with the records of the general moves (in their order) when `records` is given;
  // with `complete_records` false, records may leave deferred parts to be run when played.
  void list_moves(const StateType& state, MoveList& moves, std::vector<GeneralRecord>* records,
                  bool complete_records = true) const;
  // The moves of the pieces on the board and of the game rules that are not fallbacks, legal or not
  // under (legal ...): what list_moves starts from, and what attacks a piece (`for_attacks`: the
  // general rules that test (attacked) give no move, so that an attack never asks back).
  void list_board_moves(const StateType& state, MoveList& moves, std::vector<GeneralRecord>* records,
                        bool for_attacks = false, bool complete_records = true) const;
  // Drops the moves after which the (legal ...) condition fails for their mover, and their records.
  void keep_legal(const StateType& state, MoveList& moves, std::vector<GeneralRecord>* records) const;
  // Keeps only the captures and, under (prefer (most captures)), only those that capture the most
  // pieces, then with a tie-break (most captures PIECE...) the most of those types in `state`;
  // `records` are the general moves' records, in their order, and are kept alongside.
  void keep_captures(const StateType& state, MoveList& moves, std::vector<GeneralRecord>* records) const;
  // `record`: the move's record when it is general and the listing kept it, else null.
  bool legal_after(const StateType& state, Move move, const GeneralRecord* record) const;
  // (in-check PIECE) for `subject`: an opponent, were it to move, has a move that takes such a piece.
  [[gnu::noinline]] bool in_check(const StateType& state, int subject, int piece) const;
  // Whether an opponent of `subject` (with more than two players, any other player still playing),
  // were it to move, has a move that takes a piece of `subject`'s on `targets`.
  bool takes_any(const StateType& state, int subject, const Board& targets) const;
  // Whether `attacker`, were it to move, has a move that takes a piece of `subject`'s on `targets`.
  bool takes_any_by(const StateType& state, int attacker, int subject, const Board& targets) const;
  // (when (can-move others)): the player not to move has a move, fallback rules aside.
  bool others_can_move(const StateType& state) const;
  bool has_general_move(const StateType& state) const;
  // Plays a general move; without its record, found by running its origin's rules again.
  void apply_general(StateType& state, Move move) const;
  // Plays the record of a general move (interpreter/general.h) of the player to move; a record that
  // a listing left with its deferred part unrun is completed first.
  void apply_record(StateType& state, Move move, const GeneralRecord& record) const;
  // Attributes and registers: a piece that leaves or changes on `cell` loses its attributes; a
  // decision clears the transient registers first.
  void clear_attributes(StateType& state, int cell) const;
  void set_attribute(StateType& state, int attribute, int cell, bool on) const;
  void set_register(StateType& state, int reg, int cell) const;  // cell -1: none
  void clear_transient_registers(StateType& state) const;
  // The registers last-from and last-to keep (lang::Register::last): where the move's last part
  // started (-1: a drop's or a pass's) and where it ended (-1: a pass's).
  void remember_last_move(StateType& state, int from, int to) const;
  // The (from, to) of the last part of a move of the fast path.
  std::pair<int, int> last_part(Move move) const;
  std::string parse_mark(StateType& state, std::string_view text) const;  // an attribute's or register's text
  // Hands: `player`'s count of the hand piece in `slot` (lang::Rules::hands) changes by `delta`.
  void add_to_hand(StateType& state, int player, int slot, int delta) const;
  // Counts per cell: a cell's count goes up by `delta`, the hash along; the counts' text (counts=...).
  void add_count(StateType& state, int cell, int delta) const;
  std::uint64_t count_key(int cell, int count) const;
  void sow(StateType& state, int player, int track, int cell) const;  // (sow TRACK) from `cell`
  std::string counts_text(const StateType& state) const;
  std::string parse_counts(StateType& state, std::string_view text) const;
  // (most-count REGION ...): each player's total count on its version of the region of end rule `rule`.
  std::array<int, kMaxPlayers> counted_totals(const StateType& state, int rule) const;
  std::uint64_t hand_key(int player, int slot, int count) const;
  std::string hand_text(const StateType& state) const;  // "2Ce", "-" for empty hands
  std::string parse_hand(StateType& state, std::string_view text) const;
  // Each attribute, then each register, with its value as text: "a1,e1,h1" or "e3", "-" for none.
  std::vector<std::pair<std::string, std::string>> mark_texts(const StateType& state) const;
  [[gnu::always_inline]] static Board jump_targets(const StateType& state, const Jump& jump, const Board& landing) {
    return (state.by_player[state.to_move] & state.by_piece[jump.piece] & jump.from_mask)
               .shifted(jump.left, jump.right) &
           landing;
  }
  // The targets of a jump with cell tests, rid of those whose tested cells do not hold what they must.
  [[gnu::always_inline]] Board guard_targets(const StateType& state, const Jump& jump, Board targets,
                                             const std::array<Board, kLandingKinds>& landings) const {
    for (const Guard& guard : guards_[state.to_move][jump.guards - 1u])
      targets &= landings[guard.allowed].shifted(guard.left, guard.right);
    return targets;
  }
  [[gnu::always_inline]] Board drop_targets(const StateType& state, const Drop& drop, const Board& empty) const {
    const Board targets = empty & drop.region & (drop.unsupported | state.occupied().shifted(drop.left, drop.right));
    return drop.flanking.empty() ? targets : targets & flanking_cells(state, enemies(state, state.to_move), drop);
  }
  // Calls on_targets(index, targets) for every drop of the player to move, each target listed once
  // per piece.
  template <typename OnTargets>
  [[gnu::always_inline]] void for_each_drop(const StateType& state, const Board& empty, OnTargets&& on_targets) const;
  bool jumps_may_repeat(int player) const;
  static void remove_repeats(MoveList& moves);
  void add_hop_moves(const StateType& state, MoveList& moves) const;
  void follow_chain(const StateType& state, const ChainStart& start, int at, std::uint64_t jumped,
                    MoveList& moves) const;
  bool has_hop(const StateType& state) const;
  std::vector<int> chain_landings(Move move) const;
  void promote(StateType& state, Move move) const;
  // `enemy`: the pieces of every player but the one to move (enemies()).
  static Board flanking_cells(const StateType& state, const Board& enemy, const Drop& drop);
  static Board flanked_by(const StateType& state, const Board& enemy, const Drop& drop, int cell);
  void flip(StateType& state, const Board& flipped) const;
  bool has_targets(const StateType& state) const;
  // Out of line: has_targets is inlined into every playout, and Breakthrough's must not grow.
  [[gnu::noinline]] bool can_shoot(const StateType& state, const TargetSet& set) const;
  bool opponent_has_targets(const StateType& state) const;
  Ray ray(lang::Offset offset) const;
  [[gnu::noinline]] bool has_line(const Board& pieces, const EndTest& test) const;
  bool has_line_through(const Board& pieces, const EndTest& test, int cell) const;
  [[gnu::noinline]] bool connects(const Board& pieces, const EndTest& test) const;
  // Whether `pieces` are one group (none are not), joined as connects() joins them.
  [[gnu::noinline]] bool one_group(const Board& pieces) const;
  void swap_sides(StateType& state) const;
  void rotate(StateType& state, const Rotation& turn) const;
  ParsedMove parse_drop(const StateType& state, std::string_view text, std::string_view code) const;
  ParsedMove parse_pass(const StateType& state) const;
  ParsedMove parse_swap(const StateType& state) const;
  ParsedMove parse_unshot(const MoveList& moves, int from, int to, std::string_view text) const;
  ParsedMove parse_shot(const MoveList& moves, int from, int to, std::string_view shot) const;
  // Extras: drops, lines, connections, passes, the swap and shots may occur. These take Extras = false only in the
  // playouts of a program with neither, whose loop then has nothing of them (Breakthrough's playouts measured 15% more
  // instructions per ply with them compiled in).
  template <bool Extras = true>
  [[gnu::always_inline]] void collect_targets(const StateType& state, InlineTargets& targets) const;
  // Sets the targets of the drops of the player to move onto `empty`, after its `first` target sets
  // (its jumps); returns how many there are.
  [[gnu::always_inline]] int collect_drops(const StateType& state, const Board& empty, InlineTargets& targets,
                                           std::size_t first) const;
  template <bool Extras = true>
  [[gnu::always_inline]] Move pick_target(const StateType& state, const InlineTargets& targets, int chosen) const;
  template <bool Extras = true>
  [[gnu::always_inline]] void move_pieces(StateType& state, Move move) const;
  // The turn goes on after a decision of `mover`; the hash already counts it as passed on.
  void end_decision(StateType& state, int mover) const;
  // After a decision: the game moves on to its next phase when the current one's (until ...) holds
  // for both players.
  void advance_phase(StateType& state) const;
  // The end tests to run after a decision of `mover`: whether the turn passed on tells.
  const std::vector<EndTest>& tests_after(const StateType& state, int mover) const {
    return state.to_move == mover ? mid_turn_tests_[mover] : after_move_tests_[mover];
  }
  // The end tests of a position of unknown history.
  const std::vector<EndTest>& all_tests(const StateType& state) const;
  // `history`: the game's, the current position last, for (repetition N); null when unknown (a
  // repetition then never holds). `placed`: the cell the move just played placed a piece on
  // (placed_by), -1 when unknown or none.
  template <bool Extras = true, typename CanMove>
  void decide_end(StateType& state, const std::vector<EndTest>& tests, CanMove&& can_move, History* history = nullptr,
                  int placed = -1) const;
  // The cell `move` places a piece on in a game that places only (which has no general moves); -1
  // otherwise, and for a pass.
  int placed_by(Move move) const { return places_only_ && move.from < cells_ ? move.to : -1; }
  // Decides the end of a position reached other than by a move (the start, a position read from
  // text, a forfeit), with the end tests of a position of unknown history.
  void decide_end_of_position(StateType& state, History* history) const;
  template <bool Extras, typename CanMove>
  [[gnu::noinline]] bool put_out_and_decide(StateType& state, const std::vector<EndTest>& tests, const EndTest& test,
                                            CanMove& can_move, History* history) const;
  template <bool Extras, typename HasMoves>
  [[gnu::always_inline]] bool end_test_holds(const StateType& state, const EndTest& test, HasMoves& has_moves,
                                             const History* history, int placed = -1) const;
  // The compound tests (and, or, not), out of line: the tests of other kinds are inlined into playouts.
  // An (and ...) or (or ...) of comparisons alone (EndTest::compares) is inlined too.
  [[gnu::always_inline]] static bool compared(const StateType& state, const EndTest& test);  // Compare's test
  [[gnu::always_inline]] static bool compares_hold(const StateType& state, const EndTest& test, const EndTest* parts);
  template <typename HasMoves>
  [[gnu::noinline]] bool parts_hold(const StateType& state, const EndTest& test, HasMoves& has_moves,
                                    const History* history) const;
  [[gnu::noinline]] static bool repeated(const StateType& state, const EndTest& test, const History* history);
  std::array<int, kMaxPlayers> pieces_counted(const StateType& state) const;
  // EndTest::winner kWinnerByCount made a player, or kDraw.
  std::int8_t winner_by_count(const StateType& state, const EndTest& test) const;
  std::uint64_t piece_key(int player, int piece, int cell) const {
    const int index = (piece * players_ + player) * cells_ + cell;
    return zobrist_[static_cast<std::size_t>(index)];
  }
  std::uint64_t full_hash(const StateType& state) const;
  // ---- more than two players (docs/core-design.md §3.1) ----
  // The pieces of every player but `player`: whom its moves may take.
  Board enemies(const StateType& state, int player) const {
    if (players_ == kPlayers) return state.by_player[1 - player];
    return state.pieces() - state.by_player[player];
  }
  // The player who owns the piece on `cell`, or -1.
  int owner_at(const StateType& state, int cell) const;
  int next_in_play(const StateType& state, int player) const;
  // The player who moved last in a position of unknown history: the one before the player to move.
  int previous_in_play(const StateType& state) const;
  // `player` loses and is out, by end rule `rule`; the game ends when one player is left.
  void put_out(StateType& state, int player, int rule) const;
  // An order of how players did, by player: those still playing above those out, the last out
  // highest; of those still playing, the winner highest, or when a "most" end rule ended the game,
  // the larger tally higher (ties share).
  std::array<int, kMaxPlayers> standings(const StateType& state) const;
  std::string ranking_reason(const StateType& state, const lang::EndRule& rule) const;
  // The key of `player`'s counter `counter` at `value`: the hash holds one for each counter.
  std::uint64_t counter_key(int player, int counter, int value) const;
  // Sets `player`'s counter to `value`, kept within the counter's range.
  void set_counter(StateType& state, int player, int counter, int value) const;
  void reset_counters(StateType& state) const;
  std::string parse_counter(StateType& state, std::string_view text) const;
  void block(StateType& state, int cell) const;
  void put(StateType& state, int player, int piece, int cell) const;
  // Out of line: inlined into Breakthrough's playout loop, a capture's take made its every ply dearer
  // (4.6% more instructions in the loop).
  [[gnu::noinline]] void take(StateType& state, int player, int piece, int cell) const;
  int piece_at(const StateType& state, int player, int cell) const;
  void vacate(StateType& state, int cell) const;
  static std::pair<std::string_view, int> piece_written_at(std::string_view text, std::size_t& i);
  int player_number_at(std::string_view text, std::size_t& i) const;
  // Position text's error for a piece `piece`, written `written`, without its player's number after it.
  std::string no_player_number(std::string_view written, int piece) const;
  std::string cell_text(const StateType& state, int cell, bool bracketed) const;
  std::string out_text(const StateType& state) const;
  std::string parse_out(StateType& state, std::string_view text) const;  // the list after "out="
  // Passes the turn on after a decision of `mover`.
  void pass_turn(StateType& state, int mover) const;
  static constexpr char kBlockedSymbol = '*';
  static constexpr char kHoleSymbol = '#';
  std::string not_a_cell(std::string_view name, int cell) const;

  std::shared_ptr<const lang::Rules> rules_;
  int width_ = 0, height_ = 0, cells_ = 0;
  std::uint32_t playout_cap_ = 0;
  std::shared_ptr<const GeneralMoves<Words>> general_;  // the rules of lang::Rules::general, or null
  Board board_;                                         // every cell of the board
  int players_ = 0;                                     // rules_->player_count()
  std::array<std::vector<Jump>, kMaxPlayers> jumps_;
  std::array<std::vector<Drop>, kMaxPlayers> drops_;
  std::array<std::vector<Shot>, kMaxPlayers> shots_;
  int shot_lines_ids_ = 0;                                           // the last Shot::lines_id given
  std::array<std::vector<std::vector<Guard>>, kMaxPlayers> guards_;  // the cell tests of jumps, by Jump::guards - 1
  std::array<std::vector<Hop>, kMaxPlayers> hops_;
  std::array<std::vector<Promotion>, kMaxPlayers> promotions_;  // by player and piece
  bool promotes_ = false;
  bool must_capture_ = false;
  bool capture_most_ = false;     // of the captures, only those that capture the most pieces are legal
  PieceTypeSet capture_most_of_;  // and of those, the ones that capture the most pieces of these types
  // Some moves are not one target of one jump or drop (a chain of hops), or some targets are not
  // legal in every position (a capture is mandatory): moves are listed, never drawn from targets.
  bool moves_listed_ = false;
  // The moves are not listed for a uniform pick but counted (CountedMoves): every game drawn from
  // a list without rules that filter, reorder or add to the list (not moves_listed_, no repeated
  // jumps, no pass, no swap).
  bool moves_counted_ = false;
  bool counts_quiet_ = false;  // the game has a (quiet-moves ...) rule
  bool repeats_ = false;       // the game has a (repetition N) rule
  // (legal ...): the condition for each player as the mover; moves are then listed and filtered.
  bool checks_legality_ = false;
  std::array<EndTest, kMaxPlayers> legal_tests_{};
  // A rule's own (legal ...) for each player as the mover, by the index of the rule in
  // lang::Rules::general; empty for a rule without one.
  std::vector<std::array<EndTest, kMaxPlayers>> rule_legal_tests_;
  // No move adds a piece to the board (no drops, no swap, no general rule with (new P) or
  // (from-hand)): a capture is then irreversible, and empties a history.
  bool pieces_only_fall_ = false;
  std::int8_t quiet_piece_ = -1;                                // the piece whose moves are not quiet, or -1
  std::array<std::vector<TargetSource>, kMaxPlayers> sources_;  // by target set: the jumps, then the drops
  std::array<LineDirection, lang::kLineDirections.size()> lines_;
  int line_count_ = 0;             // the board's lines: 4 on a rectangle, 3 on a rhombus
  std::array<Ray, 8> neighbours_;  // the shifts to each neighbour of a cell
  int neighbour_count_ = 0;        // 8 on a rectangle, 6 on a rhombus
  // A board with links (lang::Rules::has_links), whose lines and neighbours are not shifts: where a
  // step leads from each cell, -1 for nowhere, along each line direction, then each one's opposite,
  // then each neighbour's offset. Empty on a grid.
  std::vector<std::vector<std::int16_t>> linked_steps_;
  // Every move places one piece of the mover on an empty cell and changes no other cell (drops
  // without flanking, no jumps, hops, shots, swap or general rules): a move makes a line only
  // through the cell it fills, and takes no line from anyone.
  bool places_only_ = false;
  // In a game that places only: where a step leads from each cell, -1 for nowhere, along each line
  // direction, then each one's opposite (as linked_steps_, on any board).
  std::vector<std::vector<std::int16_t>> line_steps_;
  // In such a game, by line direction and cell ([direction * cells + cell]): the cells of the line
  // through the cell up to line_reach_ steps away either way, the cell included. A line through a
  // placed cell has more than line_reach_ (the shortest in-a-row's length - 1) of the mover's pieces
  // there; has_line_through walks only the directions where it does, few in most positions.
  std::vector<Board> line_segments_;
  int line_reach_ = 0;
  // Playouts run in the loop of placements (run_placing_playout): a game that places only, of two
  // players, without passes, repetition, quiet moves, attributes or registers.
  bool placing_playout_ = false;
  // By player, in such a game: the piece its one drop places on any empty cell of the board (no
  // region, no gravity), whose targets are then the empty cells; -1 for other drops.
  std::array<std::int8_t, kMaxPlayers> drops_anywhere_{};
  Board step_linked(const Board& cells, std::size_t direction) const;
  Board neighbours_of(const Board& cells) const;  // the cells one step from `cells`, any way
  // By the player who just moved: every test (for a position of unknown history), and only the
  // tests a move can newly make true (for the position right after a move).
  std::array<std::vector<EndTest>, kMaxPlayers> all_end_tests_, after_move_tests_;
  // The same after a decision that leaves its player the turn, of which "no legal moves" then asks.
  std::array<std::vector<EndTest>, kMaxPlayers> all_mid_turn_tests_, mid_turn_tests_;
  std::vector<EndTest> end_parts_;  // the tests that compound tests combine, each compound's side by side
  // Cheap tests of "could this player win with one move?", by player: the cells whose reaching
  // wins (by piece), the cells from which one of its jumps may land there, and whether taking the
  // opponent's last piece wins. A move passing them is confirmed by playing it on a copy unless
  // the win is certain.
  std::array<std::vector<Board>, kMaxPlayers> win_cells_;  // by player and piece
  std::array<Board, kMaxPlayers> win_from_;
  std::array<bool, kMaxPlayers> wins_by_elimination_{};
  std::array<bool, kMaxPlayers> wins_certain_{};     // a move onto a winning cell always wins
  std::array<bool, kMaxPlayers> drops_may_win_{};    // a drop can land on a winning cell
  std::array<bool, kMaxPlayers> wins_unforeseen_{};  // an end test that no bound foresees may make it win
  std::vector<std::uint64_t> zobrist_;               // [piece][player][cell]
  std::uint64_t side_key_ = 0;
  // More than two players: by player, the key hashed in while it is to move, and while it is out.
  std::vector<std::uint64_t> turn_keys_, out_keys_;
  // Turns of several decisions: the decisions of a turn (1 when the players alternate), and by the
  // decisions left in a turn the key hashed in (empty when the players alternate).
  std::uint8_t turn_actions_ = 1;
  std::vector<std::uint64_t> actions_keys_;
  // Phases: by phase, the tests of its (until ...) for each player (none: it lasts), and the key
  // hashed in by phase (empty in a game without phases).
  std::vector<std::vector<EndTest>> phase_until_;
  std::vector<std::uint64_t> phase_keys_;
  std::vector<std::uint64_t> blocked_keys_;                                     // [cell]
  std::array<std::uint64_t, kMaxPlayers * lang::kMaxCounters> counter_keys_{};  // seeds, by player and counter
  std::vector<std::uint64_t> attribute_keys_;                                   // [attribute * cells + cell]
  std::vector<std::uint64_t> register_keys_;                                    // [register * cells + cell]
  std::array<std::uint64_t, kMaxPlayers * lang::kMaxHandPieces> hand_keys_{};   // seeds, by player and hand slot
  std::array<std::uint64_t, lang::kMaxCountCells> count_keys_{};                // seeds, by cell
  // The game has attributes or transient registers: every decision updates them.
  bool marks_pieces_ = false;
  // The registers the tests last-from and last-to read, or -1 (lang::Register::last).
  int last_from_register_ = -1, last_to_register_ = -1;
  int piece_types_ = 0;
  // By player: two jumps of one piece can make the same move (a step and a slide along one
  // direction), so move lists are rid of repeats. Never so in a game without slides.
  std::array<bool, kMaxPlayers> jumps_may_repeat_{};
  bool targets_fit_inline_ = false;
  bool draws_by_count_ = false;                         // draws_by_count()
  std::array<bool, kMaxPlayers> draws_by_rejection_{};  // by player: draws_by_rejection()
  bool has_extras_ = false;                             // drops, in-a-row end tests, passes, cell tests or shots
  bool shoots_ = false;                                 // some move has a second part, a shot
  bool drops_name_piece_ = false;                       // drops of more than one piece type: their text is "L@c3"
  bool pass_when_stuck_ = false;
  bool swap_rule_ = false;
  bool flips_ = false;  // some drop flanks and flips
  // By player, with moves_counted_, when every move of the player shoots on the same lines
  // (Shot::by_lines, one lines_id) and nothing else moves: the most cells a shot reaches, the slots
  // of a landing in a draw by rejection (draw_counted); else 0.
  std::array<int, kMaxPlayers> most_shots_{};
  // By player and piece: the index in drops_ of the piece's flanking drop (one at most), or -1.
  std::array<std::vector<int>, kMaxPlayers> flanking_drop_;
};

// The bitboard widths programs are compiled for; a board uses the smallest that holds it.
#define TROYKA_FOR_EACH_WIDTH(X) X(1) X(2) X(4) X(6) X(11)
#define TROYKA_DECLARE_PROGRAM(W) extern template class Program<W>;
TROYKA_FOR_EACH_WIDTH(TROYKA_DECLARE_PROGRAM)
#undef TROYKA_DECLARE_PROGRAM

}  // namespace troyka
