// The checked description of a game: what the checker produces and the interpreter compiles.
// Everything here is resolved: parameters are numbers, player-relative directions and regions are
// absolute per player, and every name has been looked up. Positions are kept for messages.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "lang/diagnostic.h"

namespace troyka::lang {

namespace core {
struct Rules;  // lang/core.h, which includes this file
}

// The most players a game may list in (players ...): 1 to this many (docs/language.md). Everything
// kept per player in these rules is sized by it; Rules::players holds the game's own.
inline constexpr int kMaxPlayers = 8;
// The players a compiled Program plays (interpreter/program.h) and a ZRF game has: the interpreter,
// the agents and the tools play two-player games, and Game refuses the others (interpreter/game.h).
inline constexpr int kPlayers = 2;
static_assert(kPlayers <= kMaxPlayers);
inline constexpr int kMaxBoardSide = 26;  // columns are named a..z
// Moves and records name a piece type in a signed byte (-1 for none): no board holds more types.
inline constexpr int kMaxPieceTypes = 127;
// The bitboard widths, in 64-bit words, that the interpreter compiles programs for (a board uses the
// narrowest that holds its cells, holes included), each with the most piece types a game on it may
// have. A position keeps one bitboard per piece type, so the cap is what keeps it a value cheap to
// copy: twice or more what the largest games of each size need (docs/core-design.md, step 6).
struct BitboardWidth {
  int words = 0;
  int max_piece_types = 0;
};
inline constexpr std::array<BitboardWidth, 5> kBitboardWidths = {{{1, 64}, {2, 64}, {4, 127}, {6, 127}, {11, 127}}};
static_assert(kBitboardWidths.back().words * 64 >= kMaxBoardSide * kMaxBoardSide, "the widest bitboard holds 26x26");
// The width of a board of `cells` cells.
constexpr BitboardWidth bitboard_width(int cells) {
  for (const BitboardWidth& width : kBitboardWidths)
    if (cells <= 64 * width.words) return width;
  return kBitboardWidths.back();
}
inline constexpr int kMaxTestedMoves = 255;  // moves with cell tests in a game
inline constexpr int kMaxJumpCells = 64;     // a jump's captured cells are kept in a 64-bit mask (Move::jumped)
inline constexpr int kMaxTurnActions =
    255;                                // the decisions of one turn, (turn (actions N)): State keeps them in a byte
inline constexpr int kMaxCounters = 4;  // (counter ...) declarations in a game
inline constexpr int kMaxCounterValue = 30000;  // a counter's bounds, and the amounts moves add, lie within +-this
inline constexpr int kMaxRepetitions = 100;     // (repetition N): N is at most this
inline constexpr int kMaxAttributes = 4;        // (attribute ...) declarations in a game
inline constexpr int kMaxRegisters = 4;         // (register ...) declarations in a game
inline constexpr int kMaxHandPieces = 8;        // the piece types of (hands ...): shogi has 7
inline constexpr int kMaxHandCount = 99;        // pieces of one type in one hand, as position text reads them
// Counts per cell ((setup (count N REGION)), sowing): a game that keeps them has at most this many
// cells, holes included (State::counts holds one byte per cell), and at most kMaxCellCount in a cell.
inline constexpr int kMaxCountCells = 64;
inline constexpr int kMaxCellCount = 255;
// The piece types of a game that keeps counts: the interpreter keeps the counts in the boards of
// the types beyond (State::count), 8 of the 64 that a board of 64 cells has room for.
inline constexpr int kMaxCountPieceTypes = 56;
inline constexpr int kMaxTracks = 4;  // (track ...) declarations in a game

// A displacement on the board: dx columns to the right (towards z), dy rows up (towards higher numbers).
struct Offset {
  int dx = 0;
  int dy = 0;
  bool operator==(const Offset&) const = default;
};

// Which cells a move may land on, or what a cell test asks of its cell. Occupied: enemy or friend.
enum class Target { Empty, Enemy, Friend, NotFriend, Any, Occupied };

enum class MoveKind {
  Step,      // one jump by each offset; what lies between does not matter (covers leaps)
  Slide,     // repeated steps along each offset through empty cells
  Drop,      // a new piece from an unlimited supply onto an empty cell of `region`
  JumpOver,  // over an adjacent enemy piece, by each offset, to the empty cell beyond; captures it
};

// The four lines through a cell, one direction each: a line of pieces lies along one of them.
inline constexpr std::array<Offset, 4> kLineDirections = {Offset{1, 0}, Offset{0, 1}, Offset{1, 1}, Offset{-1, 1}};

// Rectangle: every cell has up to eight neighbours. Rhombus: the same rows and columns, but a cell's
// neighbours are the six of a hexagonal grid, (+-1, 0), (0, +-1), (1, -1) and (-1, 1); the diagonal
// (1, 1) joins two cells that do not touch.
enum class BoardShape { Rectangle, Rhombus };

// The offsets of a cell's neighbours on a board of `shape`.
inline std::vector<Offset> neighbour_offsets(BoardShape shape) {
  std::vector<Offset> offsets = {{1, 0}, {-1, 0}, {0, 1}, {0, -1}, {-1, 1}, {1, -1}};
  if (shape == BoardShape::Rectangle) offsets.insert(offsets.end(), {{1, 1}, {-1, -1}});
  return offsets;
}

// The lines through a cell on a board of `shape`, one direction each: kLineDirections on a
// rectangle; on a rhombus the three of them along which cells touch.
inline std::vector<Offset> line_directions(BoardShape shape) {
  std::vector<Offset> lines(kLineDirections.begin(), kLineDirections.end());
  if (shape == BoardShape::Rhombus) std::erase(lines, Offset{1, 1});
  return lines;
}

// A set of cells per player; absolute regions hold the same cells for both players.
using CellList = std::vector<int>;
using PlayerRegion = std::array<CellList, kMaxPlayers>;

// A condition on a cell other than the landing one: the cell at `offset` from where the piece starts
// (absolute, per player) must be on the board and hold what `target` allows. ZRF moves that pass
// over cells and test them (a hop over a piece) are steps with such tests.
struct CellTest {
  std::array<Offset, kMaxPlayers> offset;
  Target target = Target::Any;
  bool operator==(const CellTest&) const = default;
};

struct MoveRule {
  MoveKind kind = MoveKind::Step;
  // Step and Slide: the offsets, absolute, per player. Drop: at most one, the direction of gravity:
  // a cell qualifies only if its neighbour that way is occupied or off the board.
  std::array<std::vector<Offset>, kMaxPlayers> offsets;
  PlayerRegion region;  // Drop: the cells a piece may be dropped on
  // Drop: when not empty, the drop must flank: along at least one of these directions (absolute,
  // per player) the dropped piece closes a line of one or more enemy pieces with a piece of its own
  // beyond, and every line it closes that way changes owner.
  std::array<std::vector<Offset>, kMaxPlayers> flanking;
  Target target = Target::Empty;
  bool capture = false;  // the piece on the destination, if any, is removed
  // Step and Slide, (then (shoot MOVE)): the move goes on with a shot from the cell the piece landed
  // on, along these offsets (a step: one each; a slide: through empty cells, the one the piece left
  // included), to an empty cell that is blocked for the rest of the game. The move is legal only
  // with a shot.
  bool shoots = false;
  MoveKind shot_kind = MoveKind::Step;
  std::array<std::vector<Offset>, kMaxPlayers> shot_offsets;
  // Step with a single offset: every test must hold for the move to be legal.
  std::vector<CellTest> tests;
  // JumpOver: after jumping, the piece goes on jumping with the chain jumps of its type while it
  // can, all in one move; the pieces it jumped are removed when the move ends.
  bool chain = false;
  SourcePos pos;
  std::string text;  // as written, for summaries
  // Written as a (moves ...) rule in core forms, which the recogniser found to have this keyword
  // form's shape (lang/core.h).
  bool from_core = false;
  bool operator==(const MoveRule&) const = default;
};

struct PieceType {
  std::string name;
  // How position text, diagrams and move text name the type (piece_text): a letter, or two or three
  // characters (letters, digits, '+', '!', a letter among them) for games of more piece types than
  // letters, such as the large shogi variants' "DK" or "+P"; upper case, whatever the case given.
  std::string code = "?";
  std::vector<MoveRule> moves;
  // (promote PIECE REGION): a piece of this type that ends a move, or a jump of a chain, on its
  // player's version of the region becomes a `promote_to` there, and the move ends. -1: never.
  int promote_to = -1;
  PlayerRegion promote_region;
  // (demotes-to PIECE): a piece of this type captured into a hand goes there as a `demotes_to`
  // (a promoted piece returns unpromoted). -1: as itself.
  int demotes_to = -1;
  SourcePos pos;
};

struct Player {
  std::string name;
  std::string facing;  // north, south, east or west
  Offset forward;
  SourcePos pos;  // its (NAME FACING) entry; none for a ZRF game's
};

// MostPieces: the player with more pieces on the board wins, equal counts draw. MostArea: the
// player with the larger area (EndRule::area_steps) wins, the second player's counted with
// EndRule::komi added; equal areas draw.
// MostCount: the player with the larger total count on its version of EndRule::region wins
// (Kalah's seeds in houses and store: the end sweep's result), equal totals draw. With more than
// two players each ranks the players still playing by that tally, ties sharing a place.
enum class Outcome { Win, Loss, Draw, MostPieces, MostArea, MostCount };
// The outcomes that rank the players by a tally (pieces, area, count), the most first.
constexpr bool is_most(Outcome outcome) {
  return outcome == Outcome::MostPieces || outcome == Outcome::MostArea || outcome == Outcome::MostCount;
}

enum class EndKind {
  Reach,                // a piece of the player stands in a region
  OpponentHasNoPieces,  // every piece of the player's opponent is gone
  NoLegalMoves,         // the player to move has no legal move
  PlyLimit,             // this many plies have been played
  InARow,               // `length` or more of the player's pieces in a line (at most `longest` if set)
  Connect,              // a chain of the player's touching pieces joins `region` to `other_region`
  QuietMoves,           // `ply_limit` plies in a row without a capture or a move of `piece` (if set)
  Lost,                 // the player has no piece of type `piece` on the board (a captured king)
  Compare,              // the player's counter `counter` (-1: its pieces on the board) compares with `value`
  All,                  // (and C...): every condition of `parts` holds
  Any,                  // (or C...): some condition of `parts` holds
  Not,                  // (not C): the condition parts[0] does not hold
  // The position, with the same player to move, has occurred `repetitions` times in the game
  // (counted in a History kept beside the state: interpreter/program.h)
  Repetition,
  InCheck,  // the opponent, were it to move, has a move that takes a piece of type `piece` of the player
  // The player has a piece (of type `piece`, if set) and all of them form one group, each joined to
  // another by the board's adjacency (Lines of Action's goal)
  Connected,
  // The total count on the player's version of `region` (counts per cell) compares with `value`
  CountIn,
};

enum class Comparison { Less, LessOrEqual, Equal, GreaterOrEqual, Greater };

// Whether `value` compares with `bound` as `comparison` says: for end conditions and rule options.
constexpr bool compare(int value, Comparison comparison, int bound) {
  switch (comparison) {
    case Comparison::Less: return value < bound;
    case Comparison::LessOrEqual: return value <= bound;
    case Comparison::Equal: return value == bound;
    case Comparison::GreaterOrEqual: return value >= bound;
    case Comparison::Greater: return value > bound;
  }
  return false;
}

// "When KIND holds for a player, OUTCOME for that player." Checked after every move, in file order.
struct EndRule {
  Outcome outcome = Outcome::Win;
  int only_player = -1;  // -1: the rule applies to either player
  EndKind kind = EndKind::Reach;
  int piece = -1;  // Reach and InARow: -1 for any piece type; QuietMoves: the piece whose moves are not quiet
  PlayerRegion region;
  PlayerRegion other_region;  // Connect: the region the chain must also touch
  int ply_limit = 0;          // PlyLimit; QuietMoves: the quiet plies
  int length = 0;             // InARow: the shortest line that counts
  int longest = 0;            // InARow: the longest line that counts; 0 for no limit
  SourcePos pos;
  std::string text;            // the whole rule as written, e.g. "(win (reach Pawn far-row))"
  std::string condition_text;  // its condition alone, e.g. "(reach Pawn far-row)"
  int counter = -1;            // Compare: an index into Rules::counters; -1 for the count of the player's pieces
  Comparison comparison = Comparison::Equal;
  int value = 0;               // Compare
  std::vector<EndRule> parts;  // All, Any, Not: the conditions combined, for the same player (their outcome unused)
  // (opponent C): an All of the one part C, which is asked of the player's opponent instead (two players)
  bool of_opponent = false;
  int repetitions = 0;  // Repetition: how many times the position must have occurred
  // MostArea: the steps that join cells (absolute, each with its opposite). A player's area is its
  // pieces and every empty cell whose empty region, joined by these steps, borders pieces of that
  // player only (Tromp-Taylor's score); `komi` is added to the second player's.
  std::vector<Offset> area_steps;
  int komi = 0;
  PlayerRegion count_region;  // CountIn: the cells whose counts are added up, per player
  PlayerRegion total_region;  // MostCount: the cells whose counts each player's total adds up
  bool operator==(const EndRule&) const = default;
};

// (counter NAME (range LOW HIGH)): a number that each player keeps, LOW at the start. Moves change
// it with the core actions (add NAME N) and (set NAME N), which stop at the range's bounds; end
// conditions compare it, e.g. (>= (counter NAME) 3).
// With `shared`, (counter NAME (range LOW HIGH) shared), the game keeps one value, which every
// player's moves change and every player's conditions read (Go's passes in a row).
struct Counter {
  std::string name;
  int low = 0;
  int high = 0;
  bool shared = false;
  SourcePos pos;
};

// (attribute NAME (initially REGION)): a mark a piece carries while it stands unchanged on its cell,
// such as chess's `unmoved`. The pieces of the setup on a player's cells of `initially` start with
// it; a piece that moves, is taken, changes type or owner loses it; the core actions (set-attr NAME)
// and (clear-attr NAME) give and take it; the test (attr NAME) reads it.
struct Attribute {
  std::string name;
  PlayerRegion initially;
  SourcePos pos;
};

// (register NAME [transient]): one cell remembered across moves, or none: the core action
// (remember NAME) sets it to here, the test (at-register NAME) asks whether here is it. A transient
// register is cleared at every decision before the move's own (remember ...) (chess's square passed
// over by a pawn's double step, which only the next move may use).
//
// Two registers the interpreter keeps itself, made by the tests last-from and last-to (never
// declared): after every decision they hold where its move started and where it ended (its last
// part's, for a move of several parts; none for a pass, and no start for a drop). Position text
// writes them as the others, last-from=e2 last-to=e4.
enum class LastMove : std::uint8_t { None, From, To };
inline constexpr const char* kLastFromName = "last-from";
inline constexpr const char* kLastToName = "last-to";
struct Register {
  std::string name;
  bool transient = false;
  LastMove last = LastMove::None;  // From or To: a register the interpreter keeps
  SourcePos pos;
};

// (phase NAME [(until CONDITION)]) of (phases NAME...): the game goes through its phases in order,
// starting in the first; after a decision, the phase moves on to the next when its CONDITION holds
// for both players. Rules tagged (phase NAME) apply only in that phase.
struct Phase {
  std::string name;
  std::vector<EndRule> until;  // empty: the phase lasts to the end of the game
  SourcePos pos;
};

// A link of a graph board: a step along `direction` (absolute) from `from` leads to `to`.
struct Link {
  Offset direction;
  int from = 0;
  int to = 0;
  bool operator==(const Link&) const = default;
};

struct Placement {
  int player = 0;
  int piece = 0;
  int cell = 0;
};

// (setup (count N REGION)): each cell of REGION (each player's version) starts with a count of N.
struct CountPlacement {
  int count = 0;
  int cell = 0;
};

// (track NAME (PLAYER CELL...)...): for each player, a cycle of cells that (sow NAME) goes round,
// the cell after the last being the first. A cell left out is skipped (the opponent's store).
struct Track {
  std::string name;
  std::array<CellList, kMaxPlayers> cells{};
  SourcePos pos;
};

struct Rules {
  std::shared_ptr<const SourceFile> source;
  std::string name;
  std::string about;
  std::string variant;                                       // the chosen variant, "" for the default
  std::vector<std::pair<std::string, std::int64_t>> params;  // final values, in declaration order
  int width = 0;
  int height = 0;
  BoardShape shape = BoardShape::Rectangle;
  // The cells of the width x height grid cut out of the board, sorted: a hole is not a cell, so no
  // region holds it and nothing stands on it or moves through it. The other cells keep their
  // indices and names.
  CellList holes;
  // (board (points ...) ...): the cells are the named points of the grid (the others are holes), and
  // the board's directions join them only along its links.
  bool points = false;
  // (line DIR c1 c2 ...) and (link DIR FROM TO): a step along DIR from `from` leads to `to`, whatever
  // the grid says. A board with links has directions that are not one shift of the grid: its rules
  // run on the general back end, which steps by table (GeneralMoves::next_).
  std::vector<Link> links;
  // Board directions named by links beyond n ... nw ((link NEXT a1 b1), a ZRF board's own names):
  // each a step longer than any board (kMaxBoardSide + its index, 0), so it leads only along links.
  std::vector<std::pair<std::string, Offset>> link_directions;
  // The offset of the link direction `name`, or nothing when no link has declared it.
  const Offset* find_link_direction(const std::string& name) const {
    for (const auto& [known, offset] : link_directions)
      if (known == name) return &offset;
    return nullptr;
  }
  // The offset of the link direction `name`, declared on first use.
  Offset link_direction(const std::string& name) {
    if (const Offset* known = find_link_direction(name)) return *known;
    link_directions.emplace_back(name, Offset{kMaxBoardSide + static_cast<int>(link_directions.size()), 0});
    return link_directions.back().second;
  }
  // The name of a link direction's offset, or "" for a step of the grid.
  std::string link_direction_name(Offset offset) const {
    for (const auto& [name, known] : link_directions)
      if (known == offset) return name;
    return {};
  }
  std::vector<Player> players;  // 1 to kMaxPlayers, in turn order: the first moves first
  std::vector<PieceType> pieces;
  std::vector<Placement> setup;
  // Counts per cell: kept only when the setup gives some with (count N REGION) (State::counts).
  bool keeps_counts = false;
  std::vector<CountPlacement> count_setup;
  std::vector<Track> tracks;  // at most kMaxTracks, in declaration order
  std::vector<EndRule> end;
  std::vector<Counter> counters;      // at most kMaxCounters, in declaration order
  std::vector<Attribute> attributes;  // at most kMaxAttributes, in declaration order
  std::vector<Register> registers;    // at most kMaxRegisters, in declaration order
  // (hands PIECE...): the piece types a player may hold in hand, in the order position text writes
  // them; at most kMaxHandPieces. A piece captured by (capture to-hand) goes to the capturer's hand
  // as its base type (PieceType::demotes_to) when that type is here, else it leaves the game.
  std::vector<int> hands;
  // A player to move who has no legal move passes, as long as its opponent has one: the pass is
  // then its only move. With it, no-legal-moves holds only when neither player can move.
  bool pass_when_stuck = false;
  // The pie rule: the second player's first move may be the swap, which turns every piece of the
  // first player into one of its own on the cell mirrored across the diagonal from a1 (column and
  // row exchanged); the board is square. See docs/language.md.
  bool swap_rule = false;
  // A player who can capture must: when any move of the player to move captures, only those are legal.
  bool must_capture = false;
  // (prefer (most captures)): of the capturing moves, only those that capture the most pieces are
  // legal (the majority rule of international draughts); implies must_capture.
  bool capture_most = false;
  // (prefer (most captures) (most captures PIECE...)): of the moves that capture the most pieces,
  // only those that capture the most pieces of these types (sorted, without repeats) are legal: the
  // kings of ZRF's "maximal captures" 2. Empty: no tie-break.
  std::vector<int> capture_most_of;
  // (legal CONDITION): a move is legal only if CONDITION holds for its mover after it (before the
  // end rules are asked); at most one, e.g. (not (in-check King)). Empty: every move is legal.
  std::vector<EndRule> legal;
  // (turn (actions N) [(first M)]): every turn is N decisions of the player to move, each one move
  // and one ply; the game's first turn is M. 1 and 1: the players alternate, one move each.
  int turn_actions = 1;
  int first_turn_actions = 1;
  std::vector<Phase> phases;  // (phases ...); empty: the game has one phase
  // The regions that (region NAME REGION) names, in name order: rules read back in core forms
  // (core::read_core) name them as the rule file did, e.g. (rotate tl clockwise).
  std::vector<std::pair<std::string, PlayerRegion>> regions;
  // The (moves ...) rules in core forms that the recogniser did not map onto MoveRules: they run on
  // the general back end (interpreter/general.h). Null when there are none.
  std::shared_ptr<const core::Rules> general;

  int player_count() const { return static_cast<int>(players.size()); }
  bool alternates() const { return turn_actions == 1 && first_turn_actions == 1; }
  // The turn, from 0, of the decision played at `ply` (from 0); a record numbers it turn / 2 + 1.
  std::uint32_t turn_of(std::uint32_t ply) const {
    const auto first = static_cast<std::uint32_t>(first_turn_actions);
    return ply < first ? 0 : 1 + (ply - first) / static_cast<std::uint32_t>(turn_actions);
  }
  int cells() const { return width * height; }  // the grid's, holes included: cell indices run below it
  int cells_on_board() const { return cells() - static_cast<int>(holes.size()); }
  bool is_hole(int cell) const { return std::binary_search(holes.begin(), holes.end(), cell); }
  int cell(int column, int row) const { return row * width + column; }
  // The index in `hands` of piece type `piece`, or -1 when no hand holds it.
  int hand_slot(int piece) const {
    const auto found = std::find(hands.begin(), hands.end(), piece);
    return found == hands.end() ? -1 : static_cast<int>(found - hands.begin());
  }
  // The type a captured `piece` goes to a hand as: its (demotes-to ...), else itself.
  int base_piece(int piece) const {
    const int base = pieces[static_cast<std::size_t>(piece)].demotes_to;
    return base < 0 ? piece : base;
  }
  // Whether a direction of the board may be other than one shift of the grid.
  bool has_links() const { return points || !links.empty(); }
  // Where a step by `offset` from `cell` leads, or -1: along a link that leaves `cell` that way; else,
  // on a points board, nowhere for a neighbour's offset (a leap still lands by the grid); else the
  // grid's cell at that offset, unless it is off the grid or a hole.
  int next_cell(int cell, Offset offset) const;
};

// Choices made outside the rule file, e.g. on the command line.
struct Options {
  std::string variant;                                      // "" for the default
  std::vector<std::pair<std::string, std::string>> params;  // name, value as typed
};

// Parses "name=value" as given to --param; throws lang::Error when it has no '='.
std::pair<std::string, std::string> parse_param_option(const std::string& text);

// Cell names: columns a..z, rows 1..26, e.g. "c5". Returns -1 when `name` is not a cell of the board.
int parse_cell(std::string_view name, int width, int height);
std::string cell_name(int cell, int width);

// How the language writes a target: "empty", "not-friend", ...
const std::string& target_name(Target target);

// The index of the piece type called `name` in rules.pieces, or -1; and every piece type's name,
// for did-you-mean hints. Shared by the front ends.
int piece_index(const Rules& rules, std::string_view name);
inline constexpr std::size_t kMaxPieceCode = 3;  // the characters of a piece type's code
// Why `code` cannot name a piece type (empty when it can): one letter, or up to kMaxPieceCode
// letters, digits, '+' and '!' with a letter among them.
std::string piece_code_problem(std::string_view code);
// A code as the rules keep it, in upper case, however it was written.
std::string piece_code(std::string_view written);
// A piece of the type whose code is `code`, owned by `player`, as position text and diagrams write it in a game of
// `players`: its code in upper case for the first of two players (and a lone one) and in lower case
// for the second, in brackets when longer than a letter ("[DK]", "[dk]") unless `bracketed` is false
// (a diagram's cells of one width need none); with more than two players in upper case, then the
// player's number from 1 ("P3", "[DK]3").
std::string piece_text(std::string_view code, int player, int players, bool bracketed = true);
// The piece type whose code `code` is, in either case; -1 for none.
int piece_of_code(const Rules& rules, std::string_view code);
std::vector<std::string> piece_names(const Rules& rules);
// The register of `rules` that keeps the last move's `which` cell (Register::last), added if
// missing; -1 when the game already has kMaxRegisters others. find_: without adding it.
int last_move_register(Rules& rules, LastMove which);
int find_last_move_register(const Rules& rules, LastMove which);
// The error, and its hint, for a game with more piece types than its board's width holds
// (bitboard_width): the front ends report it at the first piece beyond the cap.
std::pair<std::string, std::string> too_many_piece_types(const Rules& rules);
// The same for players: its index in Rules::players, or -1 when no player is called `name`.
int player_index(const Rules& rules, std::string_view name);
std::vector<std::string> player_names(const Rules& rules);

// Reads, parses and checks a rule file. Throws lang::Error with a diagnostic on any problem.
Rules load_rules(std::shared_ptr<const SourceFile> source, const Options& options);
Rules load_rules_file(const std::string& path, const Options& options);
// load_rules as it was before every keyword form went through the core (docs/core-design.md §6, step
// 3): the keyword forms straight into MoveRules. Kept for the test that both ways compile alike; a
// file with (moves ...) rules is refused.
Rules load_rules_without_core(std::shared_ptr<const SourceFile> source, const Options& options);

}  // namespace troyka::lang
