// The general back end (docs/core-design.md §5.3): core rules that the recogniser does not map
// onto the fast tables run here. Each rule is compiled, once per player, into a flat array of small
// instructions (Thompson-style: GO, TEST, SPLIT, JUMP, LOOK for can/cannot, effects, ACCEPT), and
// a backtracking VM with an explicit choice-point stack runs them from every origin. No core::Expr
// is walked while playing.
//
// Semantics as §1.1 and §1.3: tests read the frozen board (the position before the move, with the
// carried mover off its origin and a landed mover where it landed); effects are pending in the
// run's record; at completion a carried mover lands at here, which must be empty unless a capture
// of it is pending; two runs with equal canonical records are one move.
#pragma once

#include <algorithm>
#include <boost/container/small_vector.hpp>
#include <cstdint>
#include <memory>
#include <mutex>
#include <optional>
#include <stdexcept>
#include <string>
#include <unordered_map>
#include <vector>

#include "interpreter/program.h"
#include "lang/core.h"

namespace troyka {

// What a general move does to one cell besides moving its mover, merged over the run.
struct CellChange {
  // kToHand: with kCapture, the piece goes to the mover's hand ((capture to-hand)).
  static constexpr std::uint8_t kCapture = 1, kConvert = 2, kBlock = 4, kRelocate = 8, kToHand = 16;
  std::uint16_t cell = 0;
  std::uint8_t what = 0;          // kCapture | kConvert | kBlock | kRelocate | kToHand
  std::int8_t become = -1;        // the type the piece there becomes, or -1
  std::int16_t relocate_to = -1;  // kRelocate: where the piece there goes (relocate MARK)
  // The attributes (bit a for lang::Rules::attributes[a]) the piece here has, or loses, once the
  // move is played: (set-attr NAME) and (clear-attr NAME), the last of them for each.
  std::uint8_t attributes_set = 0, attributes_cleared = 0;
  bool operator==(const CellChange&) const = default;
};

// (remember NAME): the register `reg` holds `cell` once the move is played.
struct RegisterChange {
  std::uint8_t reg = 0;
  std::int16_t cell = -1;
  bool operator==(const RegisterChange&) const = default;
};

// What a general move does to one of its mover's player's counters, summed over the run: adds
// `value`, or sets the counter to it. The result is kept within the counter's range when played.
struct CounterChange {
  std::uint8_t counter = 0;
  bool set = false;
  std::int32_t value = 0;
  bool operator==(const CounterChange&) const = default;
};

// What a general move does to the counts per cell, in the order the run did it: (sow TRACK) from
// `cell` along the mover's track `from`, or (take-count MARK): `cell` takes the whole count of `from`.
struct CountChange {
  bool sown = false;
  std::int16_t cell = 0;
  std::int16_t from = 0;
  bool operator==(const CountChange&) const = default;
};

// A complete run, canonical: the mover (origin, landing, types), each changed cell once in cell
// order, and the turn-wide actions. `waypoints` are for the move's text only: two runs that differ
// only in them are one move (two paths of a chain over the same pieces).
struct GeneralRecord {
  // Provided, so that a record made with `()` (emplace_back, optional's emplace) is not first
  // zeroed whole, 216 bytes, before its scalars are set: a listing makes one per move.
  GeneralRecord() { clear_scalars(); }
  // As made afresh, the room of its lists kept: a draw's one record is made again in place.
  void clear() {
    clear_scalars();
    changes.clear();
    counters.clear();
    registers.clear();
    waypoints.clear();
    rotations.clear();
    count_changes.clear();
  }

  std::int16_t origin;      // the mover's cell when the rule started at a piece, else -1
  std::int16_t landing;     // where the mover ends; -1 without a mover
  std::int8_t piece;        // the mover's type at the start
  std::int8_t final_piece;  // and at the end
  std::int16_t labelled;    // the index of the labelled rule that made it, or -1
  bool pass, swap;
  bool again;  // the mover decides once more before the turn passes on
  bool exits;  // the mover left the board at `landing` (exit)
  // The mover entered from its player's hand (from-hand), a piece of type `piece`.
  bool from_hand;
  // A listing that defers effects (GeneralMoves::list) leaves a rule's deferred part unrun: the
  // index of that rule, whose part complete() runs; -1 when the record is complete.
  std::int16_t deferred;
  boost::container::small_vector<CellChange, 8> changes;
  boost::container::small_vector<CounterChange, 2> counters;    // each changed counter once, in counter order
  boost::container::small_vector<RegisterChange, 1> registers;  // each set register once, in register order
  boost::container::small_vector<std::uint16_t, 8> waypoints;
  // The quarter turns of regions (rotate ...), indices into GeneralMoves::rotation, in the order
  // they are made once every other change of the move is.
  boost::container::small_vector<std::uint8_t, 1> rotations;
  boost::container::small_vector<CountChange, 2> count_changes;  // in run order: a sowing's result depends on it

  bool captures() const;
  int captured_pieces() const;
  // Whether the move captures or converts a piece on one of `cells` (a Bitboard).
  template <typename Cells>
  bool takes_any(const Cells& cells) const {
    return std::any_of(changes.begin(), changes.end(), [&](const CellChange& change) {
      return (change.what & (CellChange::kCapture | CellChange::kConvert)) && cells.test(change.cell);
    });
  }
  // The move's identity (Move::jumped): two records with equal fingerprints are one move.
  std::uint64_t fingerprint() const;

 private:
  void clear_scalars() {
    origin = landing = labelled = deferred = -1;
    piece = final_piece = -1;
    pass = swap = again = exits = from_hand = false;
  }
};

// A quarter turn of a square region (lang::core::Op::Rotate): the piece on cells[i] goes to
// images[i]. `text` names it in a move's text: the region's name, or its corners (a1..b2), then
// '+' for clockwise, '-' for anticlockwise.
struct Rotation {
  std::vector<std::int16_t> cells, images;
  std::string text;
  bool operator==(const Rotation&) const = default;
};

// Thrown when a rule's runs in one position take more than GeneralMoves::kStepBudget steps: a rule
// that may repeat without end, a mistake in the rule file found while playing.
struct RunawayRule : std::runtime_error {
  using std::runtime_error::runtime_error;
};

template <int Words>
class GeneralMoves {
 public:
  using Board = Bitboard<Words>;
  using StateType = State<Words>;

  // Compiles every rule of `core` for each of its players. Throws std::runtime_error when a rule
  // needs more than the VM has (each-direction nested deeper than kMarks), which the checker refuses.
  // `known_texts` bounds the texts remembered (see name_moves).
  GeneralMoves(std::shared_ptr<const lang::Rules> rules, std::shared_ptr<const lang::core::Rules> core,
               std::size_t known_texts = kKnownTexts);
  GeneralMoves(const GeneralMoves&) = delete;  // fixed_rules_ points into compiled_
  GeneralMoves& operator=(const GeneralMoves&) = delete;

  // Appends the moves of the rules for the player to move, the fallback rules or the others, with
  // their records when `records` is given. `others_can_move` answers (when (can-move others)). Of
  // rules with priorities, only those of the lowest priority that gives a move run; `moves` on
  // entry are the fast path's, of priority 0. `attacks` answers (attacked); null while the moves
  // are listed to find attacks, where a run that asks (attacked) dies. With `complete_records`
  // false, the deferred parts of rules (CompiledRule::resume) are not run: their records are left
  // for complete().
  void list(const StateType& state, bool fallback, bool others_can_move, MoveList& moves,
            std::vector<GeneralRecord>* records, const Program<Words>* attacks, bool complete_records = true) const;
  // The complete record of a record that a listing left with its deferred part unrun.
  GeneralRecord complete(const StateType& state, const GeneralRecord& record, const Program<Words>* attacks) const;
  // Whether list() would give a move; stops at the first complete run.
  bool any(const StateType& state, bool fallback, bool others_can_move, const Program<Words>* attacks) const;
  // The record of `move`, a move that list() gave in `state` with the same `attacks`: its origin's
  // rules are run again. Throws std::logic_error when no run of them makes it.
  GeneralRecord record_of(const StateType& state, Move move, bool others_can_move, const Program<Words>* attacks) const;
  // The quarter turn that GeneralRecord::rotations names by `index`.
  const Rotation& rotation(int index) const { return rotations_[static_cast<std::size_t>(index)]; }
  // Whether some rule tests (attacked).
  bool asks_attacks() const { return asks_attacks_; }
  // Whether the rules have more than one priority: then whether a rule runs depends on the moves of
  // the others, and takes_any cannot leave rules out.
  bool prioritised() const { return priorities_.size() > 1; }
  // Whether a move that list() gives without asking (attacked) (attacks null; the fallback rules
  // aside) captures or converts a piece on `targets`. Only the rules and origins whose code can
  // reach a cell of `targets` run (CompiledRule::taking_origins), up to the first such move. The
  // rules must not be prioritised().
  bool takes_any(const StateType& state, bool others_can_move, const Board& targets) const;
  // Whether `player`'s moves of list() (fallback rules aside) can be counted without making their
  // records: each is told apart by its origin and landing (see the constructor).
  bool counts_moves(int player) const { return counts_moves_[static_cast<std::size_t>(player)]; }
  // Under (prefer captures): whether `player`'s moves in a position where no move captures are
  // counted so (count_moves then counts them where no capture is possible, and refuses the others).
  bool counts_quiet_moves(int player) const { return counts_quiet_[static_cast<std::size_t>(player)]; }
  // With counts_quiet_moves: appends the moves of the rules' capture parts, complete records in
  // `records` when given, and returns whether one of them captures. If so, they hold every move of
  // list() that captures, in its order, and perhaps some that do not.
  bool list_captures(const StateType& state, bool others_can_move, MoveList& moves, std::vector<GeneralRecord>* records,
                     const Program<Words>* attacks) const;
  // count_moves when a rule that is not counted applies (one that runs only under a condition).
  static constexpr int kNotCounted = -1;
  // With counts_moves(state.to_move): how many moves list() (not the fallback rules) gives from each
  // origin that has any, in origin order, in `counts`; returns their sum, or kNotCounted. No record
  // is made. `listed`: the moves list() finds on entry (the fast path's, of priority 0).
  int count_moves(const StateType& state, bool others_can_move, int listed, OriginCounts& counts) const;
  // The move of list() from `origin` (as count_moves counted it; origin -1: the game rules) of index
  // `index` (below its count) among that origin's, as a listing that defers makes them
  // (complete_records false); its record is made at the end of `records`, which this clears first.
  // Only that origin's rules run, up to that move.
  Move nth_move(const StateType& state, bool others_can_move, const Program<Words>* attacks, const OriginMoves& origin,
                int index, std::vector<GeneralRecord>& records) const;

  // ---- draws by rejection ----
  // A player whose every move is a game rule's, the rules the same in every position, one of them a
  // placement whose legal cells are found by groups (GroupPlacement, right after its NEW), draws a
  // random move without counting them: among the candidates, a superset cheap to know (the empty
  // cells the placement chooses among, and the other rules' runs, each a move), one is drawn, only
  // it is tested, and a cell where the placement is not legal is set aside before the next draw.
  // Each legal move is one candidate, so the move drawn is uniform among them, as a draw by count.
  bool draws_by_rejection(int player) const { return rejections_[static_cast<std::size_t>(player)].has_value(); }
  // With draws_by_rejection(state.to_move): the candidates of `state`.
  void gather_candidates(const StateType& state, Candidates<Words>& candidates) const;
  // The candidate of number `index` (below candidates.total): true and its move, with its record
  // (as nth_move makes it) at the end of `records`, which this clears first; or false when the
  // placement is not legal at the candidate's cell, which is then set aside.
  bool candidate_move(const StateType& state, Candidates<Words>& candidates, int index,
                      std::vector<GeneralRecord>& records, Move& move) const;

  bool has_fallback() const { return has_fallback_; }
  bool asks_others(bool fallback) const { return asks_others_[fallback]; }
  bool prefers_captures() const { return prefer_captures_; }
  bool blocks() const { return blocks_; }
  // Whether a move can put pieces of the player who did not move on other cells (rotate, relocate):
  // then a line, a reached region or a connection of theirs can appear by the mover's move.
  bool moves_others_pieces() const { return moves_others_pieces_; }
  // The piece types that rules bring onto the board (new P).
  const PieceTypeSet& entering_pieces() const { return entering_pieces_; }
  // Whether some rule brings a piece onto the board: (new P) or (from-hand).
  bool adds_pieces() const { return adds_pieces_; }
  // For `troyka show`: the rules of `piece` (-1: the game rules), each with its instruction count.
  std::string describe(int piece) const;

  // ---- text (docs/core-design.md §1.3) ----
  // Remembers the text of each general move of `moves` (records alongside, in order): the shown
  // form, or the explicit form when two of them would print alike. A move keeps the text it was
  // first given while it is remembered. Texts are remembered in two generations: when a listing
  // would take the newer past `known_texts`, the older is forgotten and the newer becomes it. So a
  // long run of a game whose moves are many (flips of any set of cells) keeps at most twice
  // `known_texts` texts (or twice its longest listing), and a listing's moves always have theirs.
  void name_moves(const MoveList& moves, const std::vector<GeneralRecord>& records, bool name_piece) const;
  // The remembered text of a general move that a listing gave; empty if none did or it is forgotten.
  std::string text(Move move) const;
  std::size_t known_texts() const;  // how many texts are remembered now
  static constexpr std::size_t kKnownTexts = std::size_t{1} << 16;

  // The step budget of one generation: a rule that runs longer fails loudly.
  static constexpr std::uint64_t kStepBudget = std::uint64_t{1} << 24;
  // The most choices one search keeps open (a few megabytes): a slide pends one a cell, a capture
  // chain a few a jump, so only a rule that repeats without end comes near it.
  static constexpr std::size_t kMostChoices = std::size_t{1} << 16;
  static constexpr int kMarks = lang::core::kMaxNestedEachDirection;
  static constexpr std::size_t kMaxStepWhere = 8;         // the most directions one STEPWHERE steps along
  static constexpr std::uint16_t kAnyHandPiece = 0xffff;  // FromHand's arg for (from-hand) of any type

  enum class Code : std::uint8_t {
    Go,          // here := next along direction `arg`; off the board: the run dies
    Test,        // the mask `arg` holds at here (xor negate), else go to alt or die
    TestRegion,  // here is in region `arg` (xor negate), else alt or die
    Captured,    // a capture of here is pending (xor negate), else alt or die
    Gone,        // a capture of here is pending from before the last waypoint (an earlier part)
    AtOrigin,    // here is the mover's origin (xor negate), else alt or die
    Split,       // a choice: go on, and later try alt
    Jump,        // go to alt
    Look,        // run pc+1.. until SubAccept; found xor negate: go to arg, else alt or die
    SubAccept,   // the end of a lookahead
    Enter,       // here := each cell of region `arg`, a choice
    EnterWhere,  // here := each cell of region `arg` where the mask `alt` holds (xor negate), a choice
    // here := each neighbour along the directions of direction_sets_[arg], in their order, where the
    // mask `alt` holds (xor negate), a choice
    StepWhere,
    // An ENTERWHERE or STEPWHERE (fans_[arg].choice) followed by tests of the chosen cell, a land,
    // counters and a PATTERN (Fan): as its choice, except in counts and draws (Search::fanning).
    Fan,
    // An ENTER or ENTERWHERE (group_places_[arg].choice) followed by land, capture-surrounded and
    // has-liberty along one set, then counters (GroupPlace): as its choice, but only the cells where
    // the run lives on, found for the whole board by groups; in counts and draws, no run per cell.
    GroupPlace,
    Mark,  // marks[arg] := here
    Back,  // here := marks[arg]
    Capture,
    Become,  // to piece `arg`
    Convert,
    New,       // piece `arg` enters as the mover
    FromHand,  // a piece `arg` (kAnyHandPiece: each type held) from the mover's hand enters as the mover
    Land,
    Block,
    Waypoint,
    Pass,
    Again,
    Swap,
    Exit,        // the carried mover leaves the board at here
    Add,         // the mover's player's counter `arg` goes up by `alt` (an effect: no branch)
    Set,         // the mover's player's counter `arg` becomes `alt`
    Attr,        // the piece at here has attribute `arg` (xor negate), else alt or die
    Attacked,    // (attacked) holds at here (xor negate), else alt or die
    AtRegister,  // here is the cell of register `arg` (xor negate), else alt or die
    LastFrom,    // here is where the previous move, or part of this move, started (register `arg`: the move's)
    LastTo,      // here is where it ended; both xor negate, else alt or die
    Relocate,    // the piece at here goes to marks[arg]
    SetAttr,     // the piece at here gets attribute `arg`
    ClearAttr,   // the piece at here loses attribute `arg`
    Remember,    // register `arg` := here
    Commit,      // the rest of the rule is deferred: a listing that defers accepts here
    LineCount,   // counts[alt] := the pieces on the line through here along direction `arg`, both ways; none: die
    CountDown,   // counts[arg] is 0: go to alt; else it goes down by one
    Passes,      // counts[arg] := alt, the passes a long bounded repeat may still make
    // Groups along the directions of direction_sets_[arg] (lang::core::Op::CaptureSurrounded):
    CaptureSurrounded,  // every enemy group next to here without a liberty is captured
    HasLiberty,         // the mover's group at here has a liberty (xor negate), else alt or die
    Rotate,             // the quarter turn rotations_[arg] is made once the move's other changes are
    // Counts per cell, as the run has made them so far (Search::count_at):
    Sow,        // here's count (none: the run dies) sown along the mover's track `arg`; here := the last cell
    CountIs,    // here's count compares (arg >> 8, a lang::Comparison) with arg & 0xff (xor negate), else alt or die
    TakeCount,  // here takes the whole count of marks[arg]
    // Some alternative of patterns_[arg] from here holds (xor negate), else alt or die: a lookahead
    // of fixed steps and tests, or several, resolved per cell when compiled (Pattern).
    Pattern,
    Accept,
  };
  struct Instruction {
    Code code = Code::Accept;
    bool negate = false;
    std::uint16_t arg = 0;
    std::int32_t alt = -1;  // -1: the run dies
  };

 private:
  // A step along a direction on a grid as a shift of the board, which moves a whole set of cells
  // at once (`from`: the cells whose neighbour that way is on the board).
  struct GroupStep {
    Board from;
    std::uint16_t left = 0, right = 0;
    Board forward(const Board& cells) const { return (cells & from).shifted(left, right); }
    Board back(const Board& cells) const { return cells.shifted(right, left) & from; }  // whose neighbour is in cells
  };
  // A first step of a piece rule and the test of the cell it reaches, one of those every run of the
  // rule makes before anything else (CompiledRule::openings).
  struct Opening {
    GroupStep step;
    std::uint16_t mask = 0;
    bool negate = false;
  };
  struct Slide {
    std::vector<int> directions;  // indices into directions_, in the rule's order
    Board landings;               // the cells where the slide may end
    bool whole = false;           // the whole rule, else the part before its deferred part
    bool rayed = false;           // every direction has rays (rays_)
    // Rayed, and no two directions' rays from a cell meet: each landing is reached by one run, so
    // each run is a move, and a draw passes over the runs before the drawn one with no record made.
    bool runs_are_moves = false;
  };
  // A chain of jumps along a line: (any-direction V DIRS (seq JUMP (repeat JUMP))), JUMP being
  // (go V) enemy capture (go V) empty, perhaps then waypoint. A piece jumps an enemy piece next to
  // it onto the empty cell beyond, and may jump on the same way, stopping after any jump. Or one
  // jump alone, (any-direction V DIRS JUMP); and the piece jumped may be a friend (peg solitaire's
  // hop), JUMP's test then friend.
  struct JumpLine {
    std::vector<int> directions;   // indices into directions_, in the rule's order; each has rays
    bool waypoints = false;        // each landing is a waypoint
    bool chained = true;           // a jump may follow a jump; else one jump is the whole run
    bool over_friends = false;     // the pieces jumped are the mover's player's, else the enemy's
    std::vector<GroupStep> steps;  // on a grid, the directions as shifts; none on a board with links
    // On a board with links, [cell]: the cells next to it along the directions, one of which a first
    // jump passes over: an origin with none of them to jump is counted no jump, its directions unwalked.
    std::vector<Board> neighbours;
  };
  // A move along a line as far as the line holds pieces: (any-direction V DIRS (seq (times
  // (line-pieces V) (seq (not enemy) (go V))) (or empty (seq enemy capture)))). A piece goes exactly
  // as many cells along V as the whole line through it (both ways, itself included) holds pieces,
  // over no enemy piece, onto an empty cell or an enemy's, which it captures (Lines of Action).
  struct LineMove {
    int ways = 0;              // the rule's directions, in its order: way i is the i-th
    int longest = 0;           // the most cells a line has, plus one
    std::vector<Board> lines;  // [way * cells + cell]: the line through the cell that way and back, the cell included
    // [(way * cells + cell) * longest + n]: the cell n steps on from the cell that way (-1: off the
    // board), and the cells passed on the way there.
    std::vector<std::int16_t> stops;
    std::vector<Board> passed;
    std::size_t at(int way, int cell, int steps, int cells) const {
      return (static_cast<std::size_t>(way) * static_cast<std::size_t>(cells) + static_cast<std::size_t>(cell)) *
                 static_cast<std::size_t>(longest) +
             static_cast<std::size_t>(steps);
    }
  };
  // A step to a neighbour, (go DIRS) (or empty (seq enemy CAPTURE)) or (go DIRS) empty, perhaps
  // then promotions (if (in R) (become P)), R perhaps negated: a rule counted by its runs
  // (by_runs) whose runs from an origin are its neighbours along DIRS that are empty (or hold an
  // enemy piece), so that a count takes them as a board, and a listing walks them with no VM
  // (Dobutsu shogi's and Minishogi's steps).
  struct Promotion {
    int region = 0;
    bool negate = false;
    std::int8_t piece = 0;
  };
  struct Step {
    int directions = 0;       // the index of the set in direction_sets_
    bool captures = false;    // an enemy piece's cell is a move too
    std::int8_t to_hand = 0;  // the capture's CAPTURE arg: 1 into the mover's hand
    std::vector<Promotion> promotions;
  };
  // A game rule that brings a piece onto an empty cell of a region: its code is FROMHAND (or NEW),
  // ENTERWHERE of the empty cells, ACCEPT. Its runs are each type held (or the new piece's) onto
  // each of those cells, in that order: counted as a product and made with no VM (Dobutsu shogi's
  // drops).
  struct Drop {
    Instruction enter;        // the ENTERWHERE
    std::uint16_t piece = 0;  // FROMHAND's or NEW's arg
    bool from_hand = false;
  };
  // An (if-can B) of one direction in a deferred part: B's pattern, and the cells B captures from
  // each cell where it holds ([cell]: the first in `cells`; one more at the end).
  struct Captor {
    int pattern = 0;
    std::vector<std::uint32_t> from;
    std::vector<std::int16_t> cells;
  };
  static constexpr std::array<std::int32_t, kMaxPlayers> none_resumes() {
    std::array<std::int32_t, kMaxPlayers> resumes{};
    resumes.fill(-1);
    return resumes;
  }
  struct CompiledRule {
    const lang::core::Rule* rule = nullptr;
    int index = 0;
    std::array<std::vector<Instruction>, kMaxPlayers> code;  // empty for a player the rule is not for
    // A rule whose part after its (top-level) land can neither fail nor branch, whatever the board,
    // has its moves decided by the part before: the part after (the deferred part, after COMMIT)
    // only adds effects, so a listing may leave it for the move that is played (Hasami Shogi's
    // custodial captures run for one move a ply, not for every move listed). Such a rule's move
    // is named by its record at COMMIT, in every listing, so both listings give equal Moves.
    // `resume`: where the deferred part starts in each player's code; -1 for a rule without one.
    std::array<std::int32_t, kMaxPlayers> resume = none_resumes();
    // A rule that starts with a slide through empty cells ((any-direction D (seq (go D) (repeat (seq
    // empty (go D))) empty)), its landing perhaps tested for regions), as the whole rule or as the
    // part before its deferred part, has its runs found by walking the board, without the VM: the
    // same runs in the same order (Tablut's, Hasami Shogi's men). Per player, as the code.
    std::array<std::optional<Slide>, kMaxPlayers> slide;
    // A piece rule's reach, per player: [cell], the origins from which a run may capture or convert
    // the piece on that cell (taking_origins). Empty when not bounded: takes_any runs such a rule
    // from every origin.
    std::array<std::vector<Board>, kMaxPlayers> taking_origins;
    // A piece rule that is a jump line as a whole has its runs found by walking the board, without
    // the VM: the same runs in the same order (Konane's stones). Per player, as the code.
    std::array<std::optional<JumpLine>, kMaxPlayers> jumps;
    // A piece rule that is a line move as a whole has its runs found by counting the line's pieces
    // on boards, without the VM: the same runs in the same order. Per player, as the code.
    std::array<std::optional<LineMove>, kMaxPlayers> lines;
    // Its moves are counted without records (count_moves): a slide, jump line or line move whose
    // moves from one origin are told apart, or a rule whose runs are (by_runs) (see the constructor). Per player.
    std::array<bool, kMaxPlayers> counted{};
    // Every two runs of it from one start are two moves (Compiler::told_apart): its moves are
    // counted by running it with no record made, and the drawn one is found with no record made
    // for the runs before it. Per player.
    std::array<bool, kMaxPlayers> by_runs{};
    // A game rule's runs, told apart from another game rule's by what they bring: each a piece that
    // enters first ((new P) or (from-hand) at the start: its record has a landing), or none ever (no
    // landing), or either. Two game rules whose runs bring the one and the other never make one
    // move, so both are counted (count_priority). Per player, as the code.
    enum class Brings : std::uint8_t { Either, Nothing, Piece };
    std::array<Brings, kMaxPlayers> brings{};
    // One of the two rules of its piece type, both counted, no move of the one ever a move of the
    // other from the same origin (piece_rules_apart): both are counted, their counts added (a man's
    // steps and its jumps, each any way). Per player.
    std::array<bool, kMaxPlayers> apart{};
    // Such a rule that is a Step, its moves counted as a board; or a Drop. Per player.
    std::array<std::optional<Step>, kMaxPlayers> steps;
    std::array<std::optional<Drop>, kMaxPlayers> drops;
    // A piece rule whose every run first steps to a neighbour and tests it, dying if the test fails
    // (a man's step forward to an empty cell or jump over an enemy one), runs only from the origins
    // where one of its openings holds: a listing skips the others (a blocked man) without the VM.
    // Empty: the rule runs from every origin. Per player, as the code; on a grid (no links) only.
    std::array<std::vector<Opening>, kMaxPlayers> openings;
    // A deferred part made only of captures asked by patterns (Compiler::captors), run by
    // complete() with no VM; none: the VM runs it. Per player, as the code.
    std::array<std::optional<std::vector<Captor>>, kMaxPlayers> captors;
  };
  // Whether no run of `a` and of `b`, two game rules, can make one move (CompiledRule::brings).
  static bool game_rules_apart(const CompiledRule& a, const CompiledRule& b, int player);
  CompiledRule compile(const lang::core::Rule& rule, int index);  // `index`: of the rule in core_->moves
  // Sets each rule's `counted` for `player`, and returns whether the player's moves of them are counted.
  bool counts_rules(std::vector<CompiledRule>& rules, int player) const;
  void form_fixed_draws(int player);                         // walked_draws_ and fixed_rules_
  std::size_t owner_of(const lang::core::Rule& rule) const;  // its piece type, or the game's (after them)
  void form_quiet();
  class Compiler;
  struct Thread;
  struct Search;
  // A lookahead whose body is straight (steps along fixed directions and tests of masks or regions:
  // no choice, no effect), or a disjunction of such lookaheads ((not (and (cannot ..) ..))), is
  // resolved per start cell when compiled: from each cell, the alternatives (one a body that does
  // not step off the board there), each holding when all its terms do; a term asks that a mask of
  // the frozen board hold (or, negated, not hold) on a set of cells. So a mill or a line through a
  // cell is a few operations on boards, not a run of the VM per body (Code::Pattern).
  struct PatternTerm {
    Board cells;
    std::uint16_t mask = 0;
    bool negate = false;
    bool operator==(const PatternTerm&) const = default;
  };
  struct Pattern {
    // [cell + 1] (cell -1: no cell yet): the first of that cell's alternatives; one more at the end.
    std::vector<std::uint32_t> from;
    std::vector<std::uint32_t> ends;  // each alternative's end in `terms`; it starts where the one before ends
    std::vector<PatternTerm> terms;
    // When every alternative is one term, of this mask and not negated (a line of friends), else -1:
    // the mask is built once per test and alternative i is terms[i].
    int single_mask = -1;
    // With single_mask, when no alternative of a cell needs that cell (a mill's other men): the
    // alternatives indexed by their lowest cell, so that the cells where the pattern holds are
    // found from the mask's cells, not from each cell tested. [cell]: the first; one more at the end.
    std::vector<std::uint32_t> lowest_from;
    struct Indexed {
      Board cells;
      std::int16_t at;  // the cell the alternative is from
    };
    std::vector<Indexed> by_lowest;
  };
  bool pattern_holds(const Search& s, const Thread& t, const Pattern& pattern) const;
  template <typename Frozen>
  bool holds_at(const Pattern& pattern, int cell, Frozen&& frozen) const;
  // A choice of cells (ENTERWHERE or STEPWHERE), then tests of the chosen cell that end the run
  // when they fail, a land, counters, and a PATTERN whose other way goes to ACCEPT (or ends the
  // run), or ACCEPT itself (or a PATTERN that decides nothing, formed as ACCEPT:
  // pattern_decides_nothing): a placement or a step whose mill, say, decides what follows. Or, in a
  // rule without a mover, an ENTER or ENTERWHERE, such tests (counts' too), and then code that
  // makes exactly one run from every cell that passes them (one_run_on: a sowing and what its
  // last seed decides). Every run through a cell
  // where the pattern does not lead on is one move, so a count counts those cells by boards, and
  // the VM runs on only from the cells where it leads on (the mills); a draw walks the cells to
  // the drawn run the same way (Code::Fan). Formed in the rules counted by their runs.
  struct Fan {
    Instruction choice;          // the ENTER, ENTERWHERE or STEPWHERE it stands for
    std::int32_t tests_end = 0;  // the pc after the tests of the chosen cell: the LAND, or the code of one run
    // The PATTERN's pc: the tests, the land and the counters are before it; -1 without one, when
    // each cell where the tests hold is one run (ACCEPT follows the land, or one_run_on holds).
    std::int32_t pattern = 0;
    bool accepts = false;  // the PATTERN's other way accepts (else it ends the run); true without one
    bool lands = true;     // the tests end at a LAND (else at the code of one run)
  };
  void form_fans(std::vector<Instruction>& code, int player, bool moverless);
  // What one_run_on knows of a thread at a pc: the cells here may be, the marks set, and whether
  // here's count is above 0 (a CountIs said so, nothing since changed here or a count).
  struct Known {
    Board here;
    std::uint32_t marks = 0;
    bool seeded = false;
  };
  // Whether the code from `pc` on, run by a thread without a mover whose here is one of known.here,
  // makes exactly one complete run, whatever the position: no test without another way that could
  // fail, no choice of more than one cell, no step off the board. `budget`: instructions left to follow.
  bool one_run_on(const std::vector<Instruction>& code, std::size_t pc, int player, Known known, int& budget) const;
  static constexpr int kOneRunBudget = 1 << 12;
  // Whether the PATTERN at `pc` leads either way to code that makes exactly one run (one_run_on).
  bool pattern_decides_nothing(const std::vector<Instruction>& code, std::size_t pc, int player) const;
  // FAN: the choice's cells as the search's fanning says (see Search::fanning); false when none.
  bool fan(Search& s, Thread& t, const Instruction& in) const;
  // A placement of a new piece on an empty cell that captures the enemy groups it leaves without a
  // liberty and must then have one itself: ENTER or ENTERWHERE (`choice`), LAND, CAPTURESURROUNDED
  // and HASLIBERTY along direction_sets_[set], then counters and ACCEPT. A chosen cell's run
  // accepts exactly where the placement is legal, so the legal cells are its runs: they are found
  // for the whole board at once (placeable), counted without a run each, and a draw runs the drawn
  // cell alone (Code::GroupPlace). Formed in the rules counted by their runs.
  struct GroupPlacement {
    Instruction choice;
    int set = 0;
    std::uint64_t id = 0;  // unique in the process, from 1: the key of the cells a thread keeps (group_place)
  };
  void form_group_places(std::vector<Instruction>& code);
  // GROUPPLACE: the choice's cells where the placement is legal, as the search's fanning says.
  bool group_place(Search& s, Thread& t, const Instruction& in) const;
  // The cells of `cells` (empty ones) where a new piece of the player to move, put down on the
  // board of `s`, keeps a liberty along direction_sets_[set] once the enemy groups it leaves
  // without one are captured: a cell with an empty neighbour, a liberty of one of the mover's
  // groups that has another, or the last liberty of an enemy group.
  Board placeable(const Search& s, Board cells, int set) const;
  // The cells GROUPPLACE's `choice` (an ENTER or ENTERWHERE) chooses among, before the placement's tests.
  Board placement_choice(const Search& s, const Thread& t, const Instruction& choice) const;
  // FAN's choice of cells, in no order; and those of `chosen` where its tests and land pass.
  [[gnu::always_inline]] Board choice_cells(const Search& s, const Thread& t, const Fan& fan) const;
  [[gnu::always_inline]] Board tested_cells(const Search& s, const Thread& t, const Fan& fan, Board chosen) const;
  // `t` goes on at the lowest of `cells` (not empty); the others are later choices.
  static void choose_cells(Search& s, Thread& t, Board cells);
  // The cells of `cells` where `pattern` holds with the mover of `t`, carried, landed there.
  Board landed_where(const Search& s, const Thread& t, const Pattern& pattern, Board cells) const;
  // The runs from FAN's choice of `cell` on, counted.
  int runs_on(Search& s, const Thread& t, int cell) const;
  Board entered_where(const Search& s, const Thread& t, const Instruction& in) const;  // ENTERWHERE's cells
  // The cells of `cells` whose count, as the run `t` has made it, passes COUNTIS `in` (negate aside).
  Board counted_where(const Search& s, const Thread& t, const Instruction& in, Board cells) const;
  // STEPWHERE's cells, in its directions' order, into `cells`; returns how many.
  int stepped_where(const Search& s, const Thread& t, const Instruction& in, std::int16_t* cells) const;

  int direction_index(lang::Offset offset);
  int line_pieces(const Search& s, int direction, int cell) const;
  // Groups and liberties along the directions of direction_sets_[set], on the board as the run `t`
  // has made it so far (docs/language.md, "Groups and liberties").
  Board next_to(const Board& cells, int set) const;  // the cells one step from `cells`
  Board liberties_of(int cell, const Board& pieces, const Board& empty, int set, int enough, Board& group) const;
  Board group_pieces(const Search& s, const Board& enemy, int cell) const;
  void capture_surrounded(Search& s, Thread& t, int set) const;
  bool has_liberty(const Search& s, const Thread& t, int set) const;
  bool applies(const CompiledRule& rule, const StateType& state, bool fallback, bool others_can_move,
               int priority) const;
  template <typename OnAccept>
  bool run(Search& s, Thread t, OnAccept&& on_accept) const;
  // The runs of `slide` from `t`, the thread that starts the rule, as run() would make them.
  template <typename OnAccept>
  bool run_slide(const Search& s, const Slide& slide, Thread t, OnAccept&& on_accept) const;
  // on_landing(cell) for each landing of `slide` from `origin` through `empty` cells, in run()'s
  // order, until it returns true: the one walk of run_slide and count_moves.
  template <typename OnLanding>
  bool walk_slide(int origin, const Board& empty, const Slide& slide, OnLanding&& on_landing) const;
  // The runs of `line` from `t`, the thread that starts the rule, as run() would make them.
  template <typename OnAccept>
  bool run_jumps(Search& s, const JumpLine& line, Thread t, OnAccept&& on_accept) const;
  // The jumps from `origin` along `direction` over `over` pieces onto `empty` cells, as far as they
  // go (one at most unless `chained`): each jumped cell, then its landing, appended to `cells`.
  // Returns the number of jumps.
  template <typename Cells>
  int jump_chain(int origin, int direction, const Board& over, const Board& empty, Cells& cells,
                 bool chained = true) const;
  // The pieces `line` jumps: the mover's player's (`own`) or the enemy's.
  static const Board& jumped(const JumpLine& line, const Board& own, const Board& enemy) {
    return line.over_friends ? own : enemy;
  }
  // The runs of `line` from `t`, the thread that starts the rule, as run() would make them.
  template <typename OnAccept>
  bool run_lines(Search& s, const LineMove& line, Thread t, OnAccept&& on_accept) const;
  // The landing of `line`'s move from `origin` along its `way`, or -1 when it has none: as many
  // cells on as the line through `origin` that way and back holds `occupied` cells, over no `enemy`
  // piece, onto one of `landable`.
  int line_landing(const LineMove& line, int way, int origin, const Board& occupied, const Board& enemy,
                   const Board& landable) const;
  // The cells from which `line` has a first jump over `over` pieces: on a grid, found for the whole
  // board by shifts; on a board with links, every cell.
  Board jump_starts(const JumpLine& line, const Board& over, const Board& empty) const;
  // The origins from which one of `openings` holds on the board of `masks` (CompiledRule::openings).
  Board opening_origins(const std::vector<Opening>& openings, const Search& s) const;
  // How many moves `compiled`, a slide, a jump line, a line move or a step, makes from each of `origins`, each once:
  // set(origin, moves), lowest origin first.
  template <typename Set>
  [[gnu::always_inline]] void origins_moves(const CompiledRule& compiled, int player, Board origins, const Board& own,
                                            const Board& enemy, const Board& empty, Set&& set) const;
  // The types that (from-hand) of `arg` (kAnyHandPiece: any) enters for `player`, in (hands ...) order.
  using HandTypes = boost::container::small_vector<std::int8_t, lang::kMaxHandPieces>;
  HandTypes hand_types(const StateType& state, int player, int arg) const;
  // The runs of `step` from `t`, the thread that starts its rule, as run() would make them.
  template <typename OnAccept>
  bool run_steps(Search& s, const Step& step, const Thread& t, OnAccept&& on_accept) const;
  // The runs of `drop` from `t`, the thread that starts its rule, as run() would make them.
  template <typename OnAccept>
  bool run_drops(Search& s, const Drop& drop, const Thread& t, OnAccept&& on_accept) const;
  static std::optional<Drop> drop_of(const std::vector<Instruction>& code);
  // This thread's search for the counts and draws of the player to move in `state`, which make no
  // lookahead of another position while they run, armed for it.
  Search& armed_search(const StateType& state) const;
  // The thread that starts `compiled` from s.origin, with `piece` there (-1: a game rule).
  Thread start(Search& s, const CompiledRule& compiled, int piece) const;
  // The runs of `compiled` from `origin` (-1: a game rule), counted with no record made.
  int count_runs(Search& s, const CompiledRule& compiled, int origin, int piece) const;
  int drop_runs(const StateType& state, const Drop& drop) const;  // as count_runs counts them
  // The rule that applies, by piece type, the game's last (count_priority).
  using RulesOf = boost::container::small_vector<const CompiledRule*, 8>;
  // The rules that apply in a position (rules_applying): rule_of, by piece type, the game's last
  // (and after it the game rules counted one after the other); also_of, by piece type, the second of
  // two rules apart (CompiledRule::apart), empty while there is none.
  struct Applying {
    RulesOf rule_of, also_of;
    // The priority of every rule that applies; kNone when none does, kMixed when two differ.
    static constexpr int kNone = -1, kMixed = -2;
    int priority = kNone;
  };
  // The runs of the game rules that apply (rule_of's last): a drop's counted from the state, any
  // other's by running it in `search` (nullptr when every one is a drop).
  int count_game_runs(const StateType& state, const RulesOf& rule_of, Search* search) const;
  const Fan* one_run_fan(const CompiledRule& compiled, int player) const;  // see the definition
  // The run of number s.skip of `compiled` from `t`, the thread that starts it: from its fan's cell
  // of that number when it starts with a fan of one run a cell (one_run_fan), else by run().
  template <typename OnAccept>
  bool run_fan_cell(Search& s, const CompiledRule& compiled, Thread t, OnAccept&& on_accept) const;
  template <typename Set>
  void count_fan_origins(Search& s, const CompiledRule& compiled, const Fan& fan, int piece, Board origins,
                         Set&& set) const;
  int only_game_rule(const RulesOf& rule_of) const;  // the index of the one game rule that applies, or -1
  // `also_of`: by piece type, the second rule of a pair apart (CompiledRule::apart); nullptr: none.
  int count_by_runs(const StateType& state, const RulesOf& rule_of, const RulesOf* also_of, OriginCounts& counts) const;
  int count_walked(const StateType& state, const RulesOf& rule_of, const RulesOf* also_of, OriginCounts& counts) const;
  int count_apart(const StateType& state, const RulesOf& rule_of, const RulesOf& also_of, OriginCounts& counts) const;
  // kNamesRules: OriginMoves::rule set (the counts by runs), else -1.
  template <bool kNamesRules, typename MovesFrom>
  int count_origins(const StateType& state, const RulesOf& rule_of, const RulesOf* also_of, OriginCounts& counts,
                    MovesFrom&& moves_from) const;
  // The moves of `rules` (compiled_, or quiet_), every priority, as count_moves counts them.
  int count_priority(const StateType& state, bool others_can_move, OriginCounts& counts,
                     const std::vector<CompiledRule>& rules) const;
  // count_moves with several priorities: those of each in turn until one gives a move.
  int count_priorities(const StateType& state, bool others_can_move, int listed, OriginCounts& counts) const;
  bool rules_applying(const StateType& state, bool others_can_move, const std::vector<CompiledRule>& rules,
                      Applying& applying) const;
  // The moves of those of `applying` of `priority`, as count_priority counts them.
  int count_applying(const StateType& state, const Applying& applying, int priority, OriginCounts& counts) const;
  int count_rules(const StateType& state, const Applying& applying, OriginCounts& counts) const;
  // Whether a move may capture (form_quiet's capture parts): true when some move does.
  bool captures_possible(const StateType& state, bool others_can_move) const;
  // Whether every two moves of `compiled`'s slide, jump line or line move for `player` from one origin have
  // different fingerprints, so that they are different moves (counts_moves).
  bool moves_told_apart(const CompiledRule& compiled, int player) const;
  // The fingerprints that the runs of `compiled` (a slide, a jump line, a line move, or a Step
  // without captures or promotions) from `origin` may have, added to `fingerprints` (`run` is
  // scratch); false for another rule.
  bool possible_fingerprints(const CompiledRule& compiled, int player, int origin, GeneralRecord& run,
                             std::vector<std::uint64_t>& fingerprints) const;
  // Whether no move of `a` is a move of `b`, two piece rules of one piece type and one priority,
  // from any origin: their possible fingerprints are all different (CompiledRule::apart).
  bool piece_rules_apart(const CompiledRule& a, const CompiledRule& b, int player) const;
  // Whether the game asks if a piece can be taken: (in-check ...) in an end rule or a (legal ...),
  // or (attacked) in a rule (GeneralMoves::takes_any).
  bool asks_takes() const;
  int piece_at(const StateType& state, int cell) const;  // the type of the piece there, or -1
  // The error of a rule that ran past the step budget, or (`choices`) kept over kMostChoices open.
  RunawayRule runaway(bool choices) const;
  // Fills `record`, as it is made, with the canonical record of the run that completes as `t`.
  void fill_record(const Search& s, const Thread& t, GeneralRecord& record) const;
  // Fills `record` with the run that completes as `t` and returns its move, as a listing names it.
  Move record_run(const Search& s, const Thread& t, GeneralRecord& record) const;
  // The rules a draw from an origin walks (walked_draws_): the one rule, a step, a drop, a counted
  // jump line or a slide whose runs are moves; or a pair apart (CompiledRule::apart) of steps and jump lines, the
  // second's runs after the first's.
  struct WalkedDraw {
    int first = -1, second = -1;  // indices in compiled_, -1: none
  };
  // nth_move from an origin whose rules are walked (walked_draws_), or whose moves were all made by
  // one rule whose runs are moves (OriginMoves::rule, run through the VM when it is no step, jump
  // line or drop): the drawn run found by walking or running them alone, with no listing set up.
  Move nth_walked(const StateType& state, const WalkedDraw& walked, int origin, int piece, int index,
                  std::vector<GeneralRecord>& records) const;
  // on_record(record, move) for each move, the records kept in `kept` when given; see the definition.
  // `skip`: the first runs passed over, no record made (rules whose runs are moves, CompiledRule::by_runs).
  // `rules`: the rules run (capture_), compiled_ when null.
  template <typename OnRecord>
  bool for_each_record(const StateType& state, bool fallback, bool others_can_move, const Program<Words>* attacks,
                       int origin, bool game_rules, bool defer, std::vector<GeneralRecord>* kept, OnRecord&& on_record,
                       int priority = -1, const Board* targets = nullptr, int skip = 0,
                       const std::vector<CompiledRule>* rules = nullptr) const;
  // CompiledRule::taking_origins of `compiled` for `player`: the code followed from every origin,
  // every test taken both ways, so the cells a run may capture on are a superset of the real ones.
  // Empty when a run's cells are not the code's to follow (a move back to a mark, a sowing, a
  // capture of whole groups) or when following them takes more than kReachBudget steps.
  std::vector<Board> taking_origins(const CompiledRule& compiled, int player) const;
  static constexpr std::size_t kReachBudget = std::size_t{1} << 22;
  static constexpr std::size_t kOpeningBudget = 256;  // the ways of a rule's start followed (openings)
  bool may_defer(const lang::core::Rule& rule) const;
  Move move_of(const GeneralRecord& record, std::uint64_t fingerprint) const;  // its fingerprint() given
  std::string shown_text(const GeneralRecord& record, bool explicit_form, bool name_piece) const;

  std::shared_ptr<const lang::Rules> rules_;
  std::shared_ptr<const lang::core::Rules> core_;
  int cells_ = 0, width_ = 0;
  Board board_;  // every cell
  std::vector<CompiledRule> compiled_;
  std::vector<lang::Offset> directions_;
  std::vector<std::int16_t> next_;  // [direction * cells + cell]: the neighbour that way, or -1
  std::vector<int> opposite_;       // [direction]: the direction back along its line, or -1 until a line count asks
  // Of the directions of slides: rays_[direction * cells + cell], the cells that next_ leads to from
  // `cell` that way, to the end, so that a slide's reach is a few operations on boards (the first
  // piece in the way is the ray's lowest or highest). ray_order_[direction]: +1 when every ray that
  // way runs through ascending cells, -1 descending, 0 otherwise (links): then slides walk next_.
  std::vector<Board> rays_;
  std::vector<Board> shadows_;  // [direction * cells + cell]: the cell and its ray, what a piece there hides
  std::vector<std::int8_t> ray_order_;
  void add_rays(int direction);
  bool rays_apart(const std::vector<int>& directions) const;  // no two of these directions' rays from a cell meet
  // The cells a slide from `origin` reaches along `direction`, through `empty` cells, by its rays.
  [[gnu::always_inline]] Board ray_reach(int origin, const Board& empty, int direction) const;
  // The directions that join a group's pieces (capture-surrounded, has-liberty): indices into
  // directions_, and on a grid the same steps as GroupSteps; none on a board with links, whose
  // steps go by next_.
  struct DirectionSet {
    std::vector<int> directions;
    std::vector<GroupStep> shifts;
    std::vector<Board> around;  // [cell]: the cells one step away along them (FAN's steps in a count)
    bool loops = false;         // some cell is one step away from itself (a link back to it)
  };
  std::vector<DirectionSet> direction_sets_;
  std::vector<Board> regions_;
  std::vector<Pattern> patterns_;
  std::vector<Fan> fans_;
  std::vector<GroupPlacement> group_places_;
  std::vector<Rotation> rotations_;
  // [(track * kMaxPlayers + player) * cells + cell]: the cell's place on the player's cycle of the
  // track, or -1 (lang::Rules::tracks).
  std::vector<std::int8_t> track_places_;
  std::size_t track_index(int track, int player, int cell) const {
    return (static_cast<std::size_t>(track) * kMaxPlayers + static_cast<std::size_t>(player)) *
               static_cast<std::size_t>(cells_) +
           static_cast<std::size_t>(cell);
  }
  int track_place(int track, int player, int cell) const { return track_places_[track_index(track, player, cell)]; }
  // The count at `cell` as the run `t` has made it: the position's, with the run's sowings and
  // takings so far.
  int count_at(const Search& s, const Thread& t, int cell) const;
  bool has_fallback_ = false, prefer_captures_ = false, blocks_ = false, asks_attacks_ = false;
  bool moves_others_pieces_ = false;
  bool adds_pieces_ = false;                      // adds_pieces()
  std::array<bool, kMaxPlayers> counts_moves_{};  // by player: counts_moves()
  // Under (prefer captures), the rules' parts (form_quiet): the runs that capture nothing, and runs
  // that include every one that captures; derived_rules_ holds the rules they are compiled from.
  std::shared_ptr<const std::vector<lang::core::Rule>> derived_rules_;
  std::vector<CompiledRule> quiet_, capture_;
  std::array<bool, kMaxPlayers> counts_quiet_{};  // by player: counts_quiet_moves()
  std::vector<int> priorities_;                   // of the rules, each once, lowest first (core::Rule::priority)
  // [player][piece type, the game's last]: the rules (the fallback rules aside) that run from such
  // an origin (the game's: origin -1) when a draw from there walks them (nth_walked): the one rule,
  // a Step, a Drop or a counted jump line (moves_told_apart: its runs are each a move); or the two
  // rules of a piece type apart, each a Step or a jump line, whose runs are then each a move
  // (piece_rules_apart told every two apart). Else none.
  std::array<std::vector<WalkedDraw>, kMaxPlayers> walked_draws_;
  // By player: the rules that apply (rules_applying) when no rule of the player's applies
  // under a condition, the same in every position; refused counts, two rules that may make one
  // move, are not kept. Its pointers are into compiled_: a GeneralMoves is not copied.
  std::array<std::optional<Applying>, kMaxPlayers> fixed_rules_;
  // By player, with draws_by_rejection(): the game rules in the listing's order (fixed_rules_'s),
  // and which of them is the placement.
  struct Rejection {
    std::vector<const CompiledRule*> rules;
    std::size_t placement = 0;
  };
  std::array<std::optional<Rejection>, kMaxPlayers> rejections_;
  void form_rejection(int player);  // rejections_
  std::array<bool, 2> asks_others_{};
  PieceTypeSet entering_pieces_;

  struct MoveHash {
    std::size_t operator()(const Move& move) const {
      return move.jumped ^ (std::size_t{move.from} << 20 ^ std::size_t{move.to} << 4 ^ move.piece);
    }
  };
  // Two generations: lookups read both; names go into `recent`, which becomes `older` when full.
  struct Texts {
    std::mutex mutex;
    std::unordered_map<Move, std::string, MoveHash> recent, older;
    std::size_t capacity = 0;
    const std::string* find(Move move) const;
  };
  std::shared_ptr<Texts> texts_ = std::make_shared<Texts>();
};

#define TROYKA_DECLARE_GENERAL(W) extern template class GeneralMoves<W>;
TROYKA_FOR_EACH_WIDTH(TROYKA_DECLARE_GENERAL)
#undef TROYKA_DECLARE_GENERAL

}  // namespace troyka
