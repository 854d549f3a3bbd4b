#include "interpreter/program.h"

#include <fmt/format.h>

#include <algorithm>
#include <bit>
#include <charconv>
#include <cstdlib>
#include <cstring>
#include <span>
#include <stdexcept>
#include <tuple>
#include <type_traits>

#include "interpreter/general.h"
#include "lang/core.h"
#include "lang/hand.h"
#include "lang/termination.h"

namespace troyka {
namespace {

// "White or Black", "White, Red or Black".
std::string or_list(const std::vector<std::string>& names) {
  std::string text = names.front();
  for (std::size_t i = 1; i < names.size(); ++i) text += (i + 1 == names.size() ? " or " : ", ") + names[i];
  return text;
}

}  // namespace

using lang::EndKind;

// ---- compiling ----------------------------------------------------------------------------------

// The conditions of (lost PIECE), of counters and the compound ones: they are tested only in the
// playout loop with extras, and no cheap bound foresees a win by them.
// The hash key of one value of a quantity seeded by `seed` (a counter, a count in hand): drawn from
// the seed, so no table of keys per value is kept.
static std::uint64_t value_key(std::uint64_t seed, int value) {
  return Rng(seed + static_cast<std::uint64_t>(value)).next();
}

static bool is_unforeseen(EndKind kind) {
  return kind == EndKind::Lost || kind == EndKind::Compare || kind == EndKind::CountIn || kind == EndKind::All ||
         kind == EndKind::Any || kind == EndKind::Not || kind == EndKind::InCheck || kind == EndKind::Connected;
}

// Whether some player's entry of a per-player table has something: the players a game does not
// have leave theirs empty.
template <typename Table>
static bool some_player_has(const Table& by_player) {
  return std::any_of(by_player.begin(), by_player.end(), [](const auto& entries) { return !entries.empty(); });
}

// Whether the condition, or a part of it, counts repetitions.
static bool asks_repetition(const lang::EndRule& rule) {
  return rule.kind == EndKind::Repetition ||
         std::any_of(rule.parts.begin(), rule.parts.end(),
                     [](const lang::EndRule& part) { return asks_repetition(part); });
}

// "Draw, test, redraw" (docs/core-design.md §7): a uniform pick among the legal moves of a game
// with (legal ...), made among its `moves` of the board (general ones with their `records`, in
// order) with only the drawn one tested: `draw(n)` picks one of n uniformly, `legal(move, record)`
// tests it; an illegal move is set aside and the draw made again among the others. The pick is as
// uniform as a draw among the listed legal moves, at a fraction of the tests. `first_legal` >= 0:
// the moves before it are known to be illegal and it legal, and are not tested again (the draws
// stay the same). Returns the index of the move drawn, or -1 when none is legal.
template <typename Draw, typename Legal>
static int draw_legal(const MoveList& moves, const std::vector<GeneralRecord>& records, Draw&& draw, Legal&& legal,
                      int first_legal = -1) {
  boost::container::small_vector<int, 256> left(moves.size()), record_of(moves.size());
  int record = 0;
  for (std::size_t i = 0; i < moves.size(); ++i) {
    left[i] = static_cast<int>(i);
    record_of[i] = moves[i].general ? record++ : -1;
  }
  while (!left.empty()) {
    const auto at = static_cast<std::size_t>(draw(static_cast<int>(left.size())));
    const auto i = static_cast<std::size_t>(left[at]);
    const bool known = static_cast<int>(i) <= first_legal;
    if (known ? static_cast<int>(i) == first_legal
              : legal(moves[i], record_of[i] < 0 ? nullptr : &records[static_cast<std::size_t>(record_of[i])]))
      return static_cast<int>(i);
    left[at] = left.back();
    left.pop_back();
  }
  return -1;
}

template <int Words>
Program<Words>::Program(std::shared_ptr<const lang::Rules> rules)
    : rules_(with_forced_general(std::move(rules))),
      width_(rules_->width),
      height_(rules_->height),
      cells_(rules_->cells()),
      playout_cap_(lang::playout_cap(*rules_)) {
  for (int cell = 0; cell < rules_->cells(); ++cell)
    if (!rules_->is_hole(cell)) board_.set(cell);
  piece_types_ = static_cast<int>(rules_->pieces.size());
  players_ = rules_->player_count();
  for (int player = 0; player < players_; ++player) {
    promotions_[player].resize(static_cast<std::size_t>(piece_types_));
    win_cells_[player].resize(static_cast<std::size_t>(piece_types_));
    flanking_drop_[player].assign(static_cast<std::size_t>(piece_types_), -1);
  }
  compile_moves();
  if (rules_->general) general_ = std::make_shared<const GeneralMoves<Words>>(rules_, rules_->general);
  const std::vector<lang::Offset> lines = lang::line_directions(rules_->shape);
  line_count_ = static_cast<int>(lines.size());
  for (std::size_t i = 0; i < lines.size(); ++i) {
    const lang::Offset d = lines[i];
    LineDirection& line = lines_[i];
    line.has_next = cells_with_neighbour(d);
    line.has_previous = cells_with_neighbour({-d.dx, -d.dy});
    std::tie(line.next_right, line.next_left) = shift_by(d.dy * width_ + d.dx);
    std::tie(line.previous_left, line.previous_right) = shift_by(d.dy * width_ + d.dx);
  }
  for (const lang::Offset offset : lang::neighbour_offsets(rules_->shape))
    neighbours_[neighbour_count_++] = ray(offset);
  if (rules_->has_links()) {
    std::vector<lang::Offset> steps = lines;
    for (const lang::Offset d : lines) steps.push_back({-d.dx, -d.dy});
    for (const lang::Offset offset : lang::neighbour_offsets(rules_->shape)) steps.push_back(offset);
    for (const lang::Offset offset : steps) linked_steps_.push_back(cell_steps(offset));
  }
  compile_placing();
  compile_end_rules();
  compile_win_prefilters();
  PieceTypeSet entering = general_ ? general_->entering_pieces() : PieceTypeSet();
  for (const auto& drops : drops_)
    for (const Drop& drop : drops) entering.set(drop.piece);
  drops_name_piece_ = entering.count() > 1;
  pass_when_stuck_ = rules_->pass_when_stuck;
  swap_rule_ = rules_->swap_rule;
  must_capture_ = rules_->must_capture || (general_ && general_->prefers_captures());
  capture_most_ = rules_->capture_most || (rules_->general && rules_->general->prefer_most_captures);
  for (const int piece : rules_->capture_most_of) capture_most_of_.set(static_cast<std::size_t>(piece));
  if (rules_->general)
    for (const int piece : rules_->general->prefer_most_captures_of)
      capture_most_of_.set(static_cast<std::size_t>(piece));
  for (const lang::EndRule& rule : rules_->end)
    if (rule.kind == EndKind::QuietMoves) {
      counts_quiet_ = true;
      quiet_piece_ = static_cast<std::int8_t>(rule.piece);
    }
  marks_pieces_ = !rules_->attributes.empty() || !rules_->registers.empty();
  last_from_register_ = lang::find_last_move_register(*rules_, lang::LastMove::From);
  last_to_register_ = lang::find_last_move_register(*rules_, lang::LastMove::To);
  repeats_ = std::any_of(rules_->end.begin(), rules_->end.end(),
                         [](const lang::EndRule& rule) { return asks_repetition(rule); });
  pieces_only_fall_ = (!general_ || !general_->adds_pieces()) && !swap_rule_ &&
                      std::all_of(drops_.begin(), drops_.end(), [](const auto& drops) { return drops.empty(); });
  checks_legality_ = !rules_->legal.empty();
  if (checks_legality_)
    for (int player = 0; player < players_; ++player) legal_tests_[player] = end_test(rules_->legal.front(), player);
  if (rules_->general) compile_rule_legality();
  const bool hops = some_player_has(hops_);
  moves_listed_ = hops || must_capture_ || general_ || checks_legality_;
  shoots_ = some_player_has(shots_) || (general_ && general_->blocks());
  has_extras_ = general_ || some_player_has(drops_) || pass_when_stuck_ || swap_rule_ || some_player_has(guards_) ||
                hops || promotes_ || counts_quiet_ || shoots_ || repeats_ || checks_legality_ || marks_pieces_ ||
                std::any_of(rules_->end.begin(), rules_->end.end(), [](const lang::EndRule& rule) {
                  return rule.kind == EndKind::InARow || rule.kind == EndKind::Connect || is_unforeseen(rule.kind);
                });
  // The loop without extras is the two-player one: it passes the turn to `1 - mover`.
  has_extras_ = has_extras_ || players_ != kPlayers;
  targets_fit_inline_ = !moves_listed_;
  for (int player = 0; player < players_; ++player) {
    const auto& jumps = jumps_[player];
    targets_fit_inline_ =
        targets_fit_inline_ && jumps.size() + drops_[player].size() <= kInlineJumps && !jumps_may_repeat_[player] &&
        std::none_of(jumps.begin(), jumps.end(), [](const Jump& jump) { return jump.slide; }) && shots_[player].empty();
  }
  // A uniform pick among the moves list_moves gives can be drawn from their count when the board's
  // moves are the fast path's targets, each one move (no jumps that repeat a move, no shots, no
  // hops), and the general back end's counted ones (GeneralMoves::counts_moves), and nothing then
  // takes moves out or adds some while there are any: no (legal ...), compulsory captures or swap.
  // Under the general rules' (prefer captures), with every move theirs, a position where no move
  // captures is counted so too: its moves are the rules' quiet parts' (GeneralMoves::counts_quiet_moves);
  // a position where one may capture is listed.
  const bool quiet_counted =
      general_ && general_->prefers_captures() && !some_player_has(jumps_) && !some_player_has(drops_);
  draws_by_count_ =
      general_ && !checks_legality_ && (!must_capture_ || quiet_counted) && !swap_rule_ && !shoots_ && !hops;
  for (int player = 0; player < players_; ++player)
    draws_by_count_ = draws_by_count_ && !jumps_may_repeat_[player] &&
                      (must_capture_ ? general_->counts_quiet_moves(player) : general_->counts_moves(player));
  // Of those, a player with no move on the fast path whose general moves are drawn by rejection.
  for (int player = 0; player < players_; ++player)
    draws_by_rejection_[player] =
        draws_by_count_ && jumps_[player].empty() && drops_[player].empty() && general_->draws_by_rejection(player);
  moves_counted_ = !targets_fit_inline_ && !moves_listed_ && !pass_when_stuck_ && !swap_rule_;
  // Once every jump is known (a later jump may leave its shot's lines: Shot::by_lines).
  for (int player = 0; player < players_; ++player)
    for (Jump& jump : jumps_[player]) {
      const bool on_lines = jump.shot >= 0 && shots_[player][static_cast<std::size_t>(jump.shot)].by_lines;
      jump.counted_as_ray =
          jump.slide && (jump.shot < 0 || (on_lines && (jump.shot_line < 0 || std::abs(jump.shot_line_step) == 1)));
    }
  for (int player = 0; player < players_; ++player) moves_counted_ = moves_counted_ && !jumps_may_repeat_[player];
  for (int player = 0; player < players_; ++player) {
    const std::vector<Jump>& jumps = jumps_[player];
    const std::vector<Shot>& shots = shots_[player];
    const auto shoots_on_first_lines = [&](const Jump& jump) {
      return jump.shot >= 0 && shots[static_cast<std::size_t>(jump.shot)].by_lines &&
             shots[static_cast<std::size_t>(jump.shot)].lines_id ==
                 shots[static_cast<std::size_t>(jumps.front().shot)].lines_id;
    };
    if (!moves_counted_ || jumps.empty() || !drops_[player].empty() || jumps.front().shot < 0 ||
        !std::all_of(jumps.begin(), jumps.end(), shoots_on_first_lines))
      continue;
    for (const Jump& jump : jumps)
      most_shots_[player] = std::max(most_shots_[player], shots[static_cast<std::size_t>(jump.shot)].most_targets);
  }
  placing_playout_ = places_only_ && players_ == kPlayers && targets_fit_inline_ && !pass_when_stuck_ && !repeats_ &&
                     !counts_quiet_ && !marks_pieces_;
  for (int player = 0; player < players_; ++player) {
    const std::vector<Drop>& drops = drops_[player];
    const bool anywhere =
        drops.size() == 1 && !(board_ - drops[0].region).any() && !(board_ - drops[0].unsupported).any();
    drops_anywhere_[player] = static_cast<std::int8_t>(anywhere ? drops[0].piece : -1);
  }
  Rng keys(0x7472'6f79'6b61ULL);  // fixed, so hashes are the same in every run
  zobrist_.resize(static_cast<std::size_t>(piece_types_) * static_cast<std::size_t>(players_) *
                  static_cast<std::size_t>(cells_));
  for (auto& key : zobrist_) key = keys.next();
  side_key_ = keys.next();
  blocked_keys_.resize(static_cast<std::size_t>(cells_));  // drawn last: the other keys stay as they were
  for (auto& key : blocked_keys_) key = keys.next();
  if (!rules_->alternates()) {
    turn_actions_ = static_cast<std::uint8_t>(rules_->turn_actions);
    has_extras_ = true;  // the playout loop without extras passes the turn after every move
    actions_keys_.resize(lang::kMaxTurnActions + 1);
    for (auto& key : actions_keys_) key = keys.next();
  }
  // The keys of the first two players where they always were, so that two-player games hash as
  // before; the other players' are drawn last.
  const auto two_players_keys = [](auto& seeds) {
    return std::span(seeds).first(seeds.size() / kMaxPlayers * kPlayers);
  };
  const auto more_players_keys = [](auto& seeds) {
    return std::span(seeds).subspan(seeds.size() / kMaxPlayers * kPlayers);
  };
  for (auto& key : two_players_keys(counter_keys_)) key = keys.next();
  attribute_keys_.resize(rules_->attributes.size() * static_cast<std::size_t>(cells_));
  for (auto& key : attribute_keys_) key = keys.next();
  register_keys_.resize(rules_->registers.size() * static_cast<std::size_t>(cells_));
  for (auto& key : register_keys_) key = keys.next();
  for (const lang::Phase& phase : rules_->phases) {  // drawn last: the other keys stay as they were
    phase_keys_.push_back(keys.next());
    auto& until = phase_until_.emplace_back();
    for (const lang::EndRule& condition : phase.until)
      for (int player = 0; player < players_; ++player) until.push_back(end_test(condition, player));
  }
  if (!rules_->hands.empty())  // drawn after every other key: games without hands hash as before
    for (auto& key : two_players_keys(hand_keys_)) key = keys.next();
  if (players_ != kPlayers) {  // with two, side_key_ tells whose turn it is, and nobody is out
    turn_keys_.resize(static_cast<std::size_t>(players_));
    for (auto& key : turn_keys_) key = keys.next();
    out_keys_.resize(static_cast<std::size_t>(players_));
    for (auto& key : out_keys_) key = keys.next();
  }
  if (rules_->keeps_counts)  // drawn after every other key: games without counts hash as before
    for (auto& key : count_keys_) key = keys.next();
  if (players_ > kPlayers) {
    for (auto& key : more_players_keys(counter_keys_)) key = keys.next();
    for (auto& key : more_players_keys(hand_keys_)) key = keys.next();
  }
}

template <int Words>
std::shared_ptr<const lang::Rules> Program<Words>::with_forced_general(std::shared_ptr<const lang::Rules> rules) {
  const char* forced = std::getenv("TROYKA_FORCE_GENERAL");
  if (!forced || std::string_view(forced) != "1") return rules;
  auto general = std::make_shared<lang::Rules>(*rules);
  lang::core::move_to_general(*general);
  return general;
}

template <int Words>
void Program<Words>::compile_moves() {
  for (int player = 0; player < players_; ++player)
    for (std::size_t piece = 0; piece < rules_->pieces.size(); ++piece)
      for (const lang::MoveRule& move : rules_->pieces[piece].moves) {
        if (move.kind == lang::MoveKind::Drop) {
          add_drop(player, static_cast<int>(piece), move);
          continue;
        }
        const int shot = move.shoots ? add_shot(player, move) : -1;
        for (const lang::Offset offset : move.offsets[player])
          if (move.kind == lang::MoveKind::JumpOver)
            add_hop(player, static_cast<int>(piece), move, offset);
          else
            add_jump(player, static_cast<int>(piece), move, offset, shot);
      }
  for (int player = 0; player < players_; ++player)
    for (std::size_t piece = 0; piece < rules_->pieces.size(); ++piece)
      if (const lang::PieceType& type = rules_->pieces[piece]; type.promote_to >= 0) {
        promotions_[player][piece] = {mask_of(type.promote_region[player]), static_cast<std::int8_t>(type.promote_to)};
        promotes_ = true;
      }
  for (int player = 0; player < players_; ++player) {
    std::vector<Drop>& drops = drops_[player];
    std::stable_sort(drops.begin(), drops.end(), [](const Drop& a, const Drop& b) { return a.piece < b.piece; });
    for (std::size_t i = 1; i < drops.size(); ++i) drops[i].same_piece_before = drops[i].piece == drops[i - 1].piece;
    jumps_may_repeat_[player] = jumps_may_repeat(player);
    for (const Jump& jump : jumps_[player])
      sources_[player].push_back({static_cast<std::int16_t>(jump.delta()), jump.piece});
    for (const Drop& drop : drops_[player]) sources_[player].push_back({0, drop.piece});
  }
}

// Whether a step or slide by `a` and one by `b` can move a piece by the same displacement. Equal
// offsets of one kind make one jump (add_jump merges them), so they never repeat a move, unless
// one has cell tests (`tested`): such jumps are kept apart.
static bool displacements_meet(lang::Offset a, bool a_slides, lang::Offset b, bool b_slides, bool tested) {
  if (a == b) return a_slides != b_slides || tested;
  const bool same_direction = a.dx * b.dy == a.dy * b.dx && a.dx * b.dx + a.dy * b.dy > 0;
  if (!same_direction || (!a_slides && !b_slides)) return false;
  if (a_slides && b_slides) return true;
  // A step meets a slide when it is a whole number of the slide's offsets.
  const lang::Offset step = a_slides ? b : a, slide = a_slides ? a : b;
  return slide.dx ? step.dx % slide.dx == 0 : step.dy % slide.dy == 0;
}

// Two rules with the same offset and kind but different shots make two jumps (add_jump merges only
// equal shots), and their shots may reach the same cell: those are taken to repeat too.
template <int Words>
bool Program<Words>::jumps_may_repeat(int player) const {
  struct RuleJump {
    lang::Offset offset;
    bool slides = false, shoots = false, tested = false;
  };
  for (const lang::PieceType& piece : rules_->pieces) {
    std::vector<RuleJump> jumps;
    for (const lang::MoveRule& move : piece.moves)
      if (move.kind == lang::MoveKind::Step || move.kind == lang::MoveKind::Slide)
        for (const lang::Offset offset : move.offsets[player])
          jumps.push_back({offset, move.kind == lang::MoveKind::Slide, move.shoots, !move.tests.empty()});
    for (std::size_t i = 0; i < jumps.size(); ++i)
      for (std::size_t j = i + 1; j < jumps.size(); ++j) {
        const RuleJump &a = jumps[i], &b = jumps[j];
        const bool twin_shooters = a.offset == b.offset && a.slides == b.slides && (a.shoots || b.shoots);
        if (twin_shooters || displacements_meet(a.offset, a.slides, b.offset, b.slides, a.tested || b.tested))
          return true;
      }
  }
  return false;
}

// The cells of the board whose neighbour by `offset` is on the board too: not off its edge, not a
// hole. Every move, line and neighbourhood starts from these masks, so none enters a hole.
template <int Words>
typename Program<Words>::Board Program<Words>::cells_with_neighbour(lang::Offset offset) const {
  Board cells;
  for (int cell = 0; cell < cells_; ++cell) {
    const int column = cell % width_ + offset.dx, row = cell / width_ + offset.dy;
    if (column >= 0 && column < width_ && row >= 0 && row < height_ && board_.test(cell) &&
        board_.test(row * width_ + column))
      cells.set(cell);
  }
  return cells;
}

template <int Words>
void Program<Words>::add_drop(int player, int piece, const lang::MoveRule& move) {
  Drop drop;
  drop.region = mask_of(move.region[player]);
  drop.piece = static_cast<std::uint8_t>(piece);
  drop.unsupported = board_;
  if (!move.offsets[player].empty()) {
    const lang::Offset gravity = move.offsets[player].front();
    drop.unsupported = board_ - cells_with_neighbour(gravity);
    std::tie(drop.right, drop.left) = shift_by(gravity.dy * width_ + gravity.dx);  // brings c + gravity onto c
  }
  for (const lang::Offset d : move.flanking[player]) drop.flanking.push_back({ray(d), ray({-d.dx, -d.dy})});
  drop.longest_run = std::max(width_, height_) - 2;
  if (!drop.flanking.empty()) {
    flanking_drop_[player][piece] = static_cast<int>(drops_[player].size());
    flips_ = true;
  }
  drops_[player].push_back(drop);
}

template <int Words>
typename Program<Words>::Ray Program<Words>::ray(lang::Offset offset) const {
  Ray ray;
  ray.from_mask = cells_with_neighbour(offset);
  std::tie(ray.left, ray.right) = shift_by(offset.dy * width_ + offset.dx);
  return ray;
}

// The index in shots_[player] of the shot of `move`, shared with an earlier rule's equal shot.
template <int Words>
int Program<Words>::add_shot(int player, const lang::MoveRule& move) {
  std::vector<Shot>& shots = shots_[player];
  const bool slide = move.shot_kind == lang::MoveKind::Slide;
  const std::vector<lang::Offset>& offsets = move.shot_offsets[player];
  for (std::size_t i = 0; i < shots.size(); ++i)
    if (shots[i].slide == slide && shots[i].offsets == offsets) return static_cast<int>(i);
  Shot shot;
  shot.slide = slide;
  shot.offsets = offsets;
  for (const lang::Offset offset : offsets)
    if (const Ray direction = ray(offset); direction.from_mask.any()) {  // as add_jump
      shot.rays.push_back(direction);
      shot.directions.push_back(offset);
    }
  for (const Ray& direction : shot.rays)
    for (int cell = 0; cell < cells_ && slide; ++cell) {
      Board passed;
      for (Board at = direction.step(Board::single(cell)); at.any(); at = direction.step(at)) passed |= at;
      shot.beyond.push_back(passed);
    }
  const auto same_way = [](lang::Offset a, lang::Offset b) {
    return a.dx * b.dy == a.dy * b.dx && a.dx * b.dx + a.dy * b.dy > 0;
  };
  bool overlap = false;
  for (std::size_t i = 0; i < shot.directions.size(); ++i)
    for (std::size_t j = i + 1; j < shot.directions.size(); ++j)
      overlap = overlap || same_way(shot.directions[i], shot.directions[j]);
  shot.by_lines = slide && !overlap;
  if (shot.by_lines) {
    add_shot_lines(shot);
    // Shots along the same lines (those of every player's queen, say) have the same lines: a count
    // for the next player keeps those of the last.
    const auto same_lines = [&](const Shot& other) {
      return other.by_lines && std::equal(other.lines.begin(), other.lines.end(), shot.lines.begin(), shot.lines.end(),
                                          [](const ShotLine& a, const ShotLine& b) { return a.offset == b.offset; });
    };
    shot.lines_id = ++shot_lines_ids_;
    for (const std::vector<Shot>& player_shots : shots_)
      if (const auto same = std::find_if(player_shots.begin(), player_shots.end(), same_lines);
          same != player_shots.end())
        shot.lines_id = same->lines_id;
  }
  shots.push_back(std::move(shot));
  return static_cast<int>(shots.size()) - 1;
}

// The lines of a shot counted on lines (Shot::by_lines): for each ray, the offset that goes up the
// cell numbers along it, and on that offset's lines of cells, where each cell stands. A line ends
// where the next cell is off the board (its edge, or a hole).
template <int Words>
void Program<Words>::add_shot_lines(Shot& shot) const {
  for (const lang::Offset direction : shot.directions) {
    const bool up = direction.dy * width_ + direction.dx > 0;
    const lang::Offset offset = up ? direction : lang::Offset{-direction.dx, -direction.dy};
    auto line = std::find_if(shot.lines.begin(), shot.lines.end(),
                             [&](const ShotLine& known) { return known.offset == offset; });
    if (line == shot.lines.end()) line = shot.lines.insert(line, ShotLine{offset});
    (up ? line->up : line->down) = true;
  }
  const std::size_t lines = shot.lines.size();
  shot.line_count = static_cast<std::uint8_t>(lines);
  shot.both_ways =
      std::all_of(shot.lines.begin(), shot.lines.end(), [](const ShotLine& line) { return line.up && line.down; });
  shot.places.resize(static_cast<std::size_t>(cells_) * lines);
  for (std::size_t index = 0; index < lines; ++index) {
    const Ray step = ray(shot.lines[index].offset);
    const Board firsts = board_ - step.step(board_);
    for (int first = 0; first < cells_; ++first) {
      if (!firsts.test(first)) continue;
      CellLine cells;
      int bit = 1;
      for (Board at = Board::single(first); at.any(); at = step.step(at), ++bit) {
        const int cell = at.lowest();
        cells.mask[static_cast<std::size_t>(cell >> 6)] |= std::uint64_t{1} << (cell & 63);
        shot.places[static_cast<std::size_t>(cell) * lines + index] = {
            static_cast<std::uint16_t>(shot.cell_lines.size()), static_cast<std::uint8_t>(bit)};
      }
      cells.ends = 1 | std::uint64_t{1} << bit;
      int below = 1;
      for (std::size_t word = 0; word < cells.mask.size(); ++word) {
        cells.shift[word] = static_cast<std::uint8_t>(below);
        below += std::popcount(cells.mask[word]);
      }
      shot.cell_lines.push_back(cells);
    }
  }
  for (int cell = 0; cell < cells_; ++cell) {
    int targets = 0;
    for (std::size_t index = 0; index < lines; ++index) {
      const LinePlace place = shot.places[static_cast<std::size_t>(cell) * lines + index];
      const int length = 62 - std::countl_zero(shot.cell_lines[place.line].ends);  // its bits are 1..length
      targets += (shot.lines[index].up ? length - place.bit : 0) + (shot.lines[index].down ? place.bit - 1 : 0);
    }
    shot.most_targets = std::max(shot.most_targets, targets);
  }
}

// Where the cell a jump leaves lies on the lines of its shot counted on lines (Jump::shot_line): a
// jump along a line of the shot leaves a cell of the landing's line, a fixed number of cells from
// it (a slide, that many times its distance), so that a count knows that cell from the landing's
// place. A jump that could leave another line (a leap over a hole) has its shots walked instead.
template <int Words>
void Program<Words>::add_shot_line(int player, Jump& jump, lang::Offset offset) {
  Shot& shot = shots_[player][static_cast<std::size_t>(jump.shot)];
  if (!shot.by_lines) return;
  const std::size_t lines = shot.lines.size();
  for (std::size_t index = 0; index < lines; ++index) {
    const lang::Offset along = shot.lines[index].offset;
    const int step = along.dx != 0 ? offset.dx / along.dx : offset.dy / along.dy;
    if (offset.dx != step * along.dx || offset.dy != step * along.dy) continue;  // the cell left is on no line here
    for (Board cells = jump.from_mask; cells.any();) {
      const int cell = cells.pop_lowest();
      const LinePlace left = shot.places[static_cast<std::size_t>(cell) * lines + index];
      const LinePlace landing = shot.places[static_cast<std::size_t>(cell + jump.delta()) * lines + index];
      if (left.line != landing.line || landing.bit - left.bit != step) {
        shot.by_lines = false;
        return;
      }
    }
    if (step > 0 ? shot.lines[index].down : shot.lines[index].up) {  // the shot may go back towards it
      jump.shot_line = static_cast<std::int8_t>(index);
      jump.shot_line_step = static_cast<std::int8_t>(step);
    }
    return;
  }
}

// A jump over an enemy piece to the empty cell beyond.
template <int Words>
void Program<Words>::add_hop(int player, int piece, const lang::MoveRule& move, lang::Offset offset) {
  Hop hop;
  hop.from_mask = cells_with_neighbour({2 * offset.dx, 2 * offset.dy});
  if (!hop.from_mask.any()) return;  // the board is too small for it
  std::tie(hop.left, hop.right) = shift_by(offset.dy * width_ + offset.dx);
  hop.piece = static_cast<std::uint8_t>(piece);
  hop.chain = move.chain;
  // A hop that chains and one that does not are both kept: the first goes on where the second stops.
  for (const Hop& existing : hops_[player])
    if (existing.piece == hop.piece && existing.delta() == hop.delta() && existing.from_mask == hop.from_mask &&
        existing.chain == hop.chain)
      return;
  hops_[player].push_back(hop);
}

template <int Words>
void Program<Words>::add_jump(int player, int piece, const lang::MoveRule& move, lang::Offset offset, int shot) {
  Jump jump;
  const int delta = offset.dy * width_ + offset.dx;
  std::tie(jump.left, jump.right) = shift_by(delta);
  jump.piece = static_cast<std::uint8_t>(piece);
  jump.landing = landing_of(move.target);
  jump.slide = move.kind == lang::MoveKind::Slide;
  jump.from_mask = cells_with_neighbour(offset);
  jump.shot = static_cast<std::int8_t>(shot);
  for (const lang::CellTest& test : move.tests) jump.from_mask &= cells_with_neighbour(test.offset[player]);
  // A jump that no cell can make (longer than the board) is dropped; it would also shift a
  // bitboard by more than its width.
  if (!jump.from_mask.any()) return;
  if (shot >= 0) add_shot_line(player, jump, offset);
  if (!move.tests.empty()) return add_guards(player, jump, move.tests);
  // Two offsets can share a delta (on a 4-wide board, (4,0) and (0,1)); only the same delta from
  // the same cells is the same jump.
  for (Jump& existing : jumps_[player])
    if (existing.piece == jump.piece && existing.delta() == delta && existing.slide == jump.slide &&
        existing.from_mask == jump.from_mask && existing.shot == jump.shot && !existing.guards) {
      existing.landing |= jump.landing;
      return;
    }
  jumps_[player].push_back(jump);
}

template <int Words>
std::uint8_t Program<Words>::landing_of(lang::Target target) {
  static constexpr std::uint8_t kLandingOf[] = {kOnEmpty,
                                                kOnEnemy,
                                                kOnFriend,
                                                kOnEmpty | kOnEnemy,
                                                kOnEmpty | kOnEnemy | kOnFriend,
                                                kOnEnemy | kOnFriend};  // by lang::Target
  return kLandingOf[static_cast<int>(target)];
}

// A jump with cell tests is kept apart from the others, with a guard per test that asks more than
// "on the board" (from_mask already asks that). The checker allows at most kMaxTestedMoves of them.
template <int Words>
void Program<Words>::add_guards(int player, Jump jump, const std::vector<lang::CellTest>& tests) {
  std::vector<Guard> guards;
  for (const lang::CellTest& test : tests) {
    if (test.target == lang::Target::Any) continue;
    const lang::Offset at = test.offset[player];
    Guard guard;
    std::tie(guard.left, guard.right) = shift_by(jump.delta() - (at.dy * width_ + at.dx));
    guard.allowed = landing_of(test.target);
    guards.push_back(guard);
  }
  guards_[player].push_back(std::move(guards));
  jump.guards = static_cast<std::uint8_t>(guards_[player].size());
  jumps_[player].push_back(jump);
}

// Whether a move can make the condition true when it was false before. The player who did not
// move only lost pieces, so it cannot newly reach a region or make a line, though losing pieces can
// cut a line that was too long down to one that counts (unless no move takes a piece: `places_only`);
// the mover still has the piece it moved. Unless a move can put that player's pieces on other
// cells (a turn of a region, a relocation): then it is as the mover.
static bool can_become_true_by_move(const lang::EndRule& rule, bool subject_is_mover, bool places_only) {
  switch (rule.kind) {
    case EndKind::InARow: return subject_is_mover || (rule.longest > 0 && !places_only);
    case EndKind::Reach:
    case EndKind::Connect:
    case EndKind::OpponentHasNoPieces: return subject_is_mover;
    case EndKind::NoLegalMoves:
    case EndKind::PlyLimit:
    case EndKind::QuietMoves:
    // A move can take the mover's own last piece of a type (by exit, or a capture of a friend),
    // change either player's counters, and make any part of a compound true or false.
    // A capture can leave the victim's remaining pieces in one group (Lines of Action).
    case EndKind::Connected:
    case EndKind::Lost:
    case EndKind::Compare:
    case EndKind::CountIn:
    case EndKind::All:
    case EndKind::Any:
    case EndKind::Not:
    case EndKind::Repetition:
    case EndKind::InCheck: return true;
  }
  return true;
}

// Whether every move places one piece and changes nothing else on the board (places_only_); if so,
// the steps along the lines that has_line_through walks, and the segments of line it counts first.
template <int Words>
void Program<Words>::compile_placing() {
  places_only_ = !general_ && !rules_->swap_rule && !promotes_;
  for (int player = 0; player < players_; ++player)
    places_only_ = places_only_ && jumps_[player].empty() && hops_[player].empty() && shots_[player].empty() &&
                   std::all_of(drops_[player].begin(), drops_[player].end(),
                               [](const Drop& drop) { return drop.flanking.empty(); });
  if (!places_only_) return;
  const std::vector<lang::Offset> lines = lang::line_directions(rules_->shape);
  for (const lang::Offset d : lines) line_steps_.push_back(cell_steps(d));
  for (const lang::Offset d : lines) line_steps_.push_back(cell_steps({-d.dx, -d.dy}));
  int shortest = 0;
  for (const lang::EndRule& rule : rules_->end)
    if (rule.kind == EndKind::InARow) shortest = shortest ? std::min(shortest, rule.length) : rule.length;
  line_reach_ = std::max(shortest - 1, 0);
  for (std::size_t direction = 0; direction < lines.size(); ++direction)
    for (int cell = 0; cell < cells_; ++cell) {
      Board segment = Board::single(cell);
      for (const std::size_t way : {direction, lines.size() + direction}) {
        const std::vector<std::int16_t>& steps = line_steps_[way];
        for (int at = steps[static_cast<std::size_t>(cell)], k = 0; at >= 0 && k < line_reach_;
             at = steps[static_cast<std::size_t>(at)], ++k)
          segment.set(at);
      }
      line_segments_.push_back(segment);
    }
}

// Where a step by `offset` leads from each cell of the board, -1 for nowhere.
template <int Words>
std::vector<std::int16_t> Program<Words>::cell_steps(lang::Offset offset) const {
  std::vector<std::int16_t> next;
  for (int cell = 0; cell < cells_; ++cell)
    next.push_back(static_cast<std::int16_t>(rules_->is_hole(cell) ? -1 : rules_->next_cell(cell, offset)));
  return next;
}

// For each player who may have just moved, lists the tests of every end rule in file order: the
// mover is tested first, then the other players in turn order; "no legal moves" concerns only the
// player to move, who is the other player unless the mover keeps the turn (a turn of several
// decisions), or with more players the next one still playing (EndTest::subject kSubjectToMove).
template <int Words>
void Program<Words>::compile_end_rules() {
  for (int mover = 0; mover < players_; ++mover) {
    for (const bool keeps_turn : {false, true}) {
      const int to_move = keeps_turn ? mover : 1 - mover;
      auto& all_tests = keeps_turn ? all_mid_turn_tests_[mover] : all_end_tests_[mover];
      auto& after_move_tests = keeps_turn ? mid_turn_tests_[mover] : after_move_tests_[mover];
      compile_end_tests(mover, to_move, all_tests, after_move_tests);
    }
  }
}

// The test of `condition` for `subject`, without its outcome; the tests of a compound condition's
// parts go to end_parts_, side by side.
template <int Words>
typename Program<Words>::EndTest Program<Words>::end_test(const lang::EndRule& condition, int subject) {
  EndTest test;
  test.region =
      mask_of(condition.kind == EndKind::CountIn ? condition.count_region[subject] : condition.region[subject]);
  test.other_region = mask_of(condition.other_region[subject]);
  test.ply_limit = static_cast<std::uint32_t>(condition.ply_limit);
  test.length = static_cast<std::uint8_t>(condition.length);
  test.longest = static_cast<std::uint8_t>(condition.longest);
  test.kind = condition.kind;
  test.subject = static_cast<std::int8_t>(subject);
  test.piece = static_cast<std::int8_t>(condition.piece);
  test.counter = static_cast<std::int8_t>(condition.counter);
  test.comparison = condition.comparison;
  test.value =
      static_cast<std::int16_t>(condition.kind == EndKind::Repetition ? condition.repetitions : condition.value);
  test.first_part = static_cast<std::uint16_t>(end_parts_.size());
  test.parts = static_cast<std::uint16_t>(condition.parts.size());
  end_parts_.resize(end_parts_.size() + condition.parts.size());
  const int parts_subject = condition.of_opponent ? 1 - subject : subject;  // (opponent C): two players
  for (std::size_t i = 0; i < condition.parts.size(); ++i)
    end_parts_[test.first_part + i] = end_test(condition.parts[i], parts_subject);
  test.compares = (test.kind == EndKind::All || test.kind == EndKind::Any) &&
                  std::all_of(condition.parts.begin(), condition.parts.end(),
                              [](const lang::EndRule& part) { return part.kind == EndKind::Compare; });
  return test;
}

template <int Words>
void Program<Words>::compile_rule_legality() {
  const std::vector<lang::core::Rule>& rules = rules_->general->moves;
  rule_legal_tests_.resize(rules.size());
  for (std::size_t index = 0; index < rules.size(); ++index)
    if (rules[index].legal)
      for (int player = 0; player < players_; ++player)
        rule_legal_tests_[index][player] = end_test(*rules[index].legal, player);
}

template <int Words>
void Program<Words>::compile_end_tests(int mover, int to_move, std::vector<EndTest>& all_tests,
                                       std::vector<EndTest>& after_move_tests) {
  for (std::size_t index = 0; index < rules_->end.size(); ++index) {
    const lang::EndRule& rule = rules_->end[index];
    for (int after = 0; after < players_; ++after) {
      const int subject = (mover + after) % players_;
      if (rule.only_player >= 0 && rule.only_player != subject) continue;
      const bool many = players_ != kPlayers;  // one player, or more than two: a loss puts out
      if (rule.kind == EndKind::NoLegalMoves && subject != (many ? mover : to_move)) continue;
      EndTest test = end_test(rule, subject);
      if (rule.kind == EndKind::NoLegalMoves && many) test.subject = kSubjectToMove;
      const int loser_beaten_by = many ? kSubjectOut : 1 - subject;
      test.winner = static_cast<std::int8_t>(rule.outcome == lang::Outcome::Win    ? subject
                                             : rule.outcome == lang::Outcome::Loss ? loser_beaten_by
                                             : rule.outcome == lang::Outcome::Draw ? kDraw
                                                                                   : kWinnerByCount);
      test.rule = static_cast<std::int8_t>(index);
      all_tests.push_back(test);
      const bool moved = subject == mover || (general_ && general_->moves_others_pieces());
      if (!can_become_true_by_move(rule, moved, places_only_)) continue;
      test.through_placed = places_only_ && rule.kind == EndKind::InARow;
      after_move_tests.push_back(test);
    }
  }
}

// A position of unknown history is in the middle of a turn when its player to move has fewer
// decisions left than the turn gives (the first turn is underway while fewer plies were played).
template <int Words>
auto Program<Words>::all_tests(const StateType& state) const -> const std::vector<EndTest>& {
  const int first = rules_->first_turn_actions;
  const int turn = state.ply < static_cast<std::uint32_t>(first) ? first : turn_actions_;
  return state.actions_left < turn ? all_mid_turn_tests_[state.to_move] : all_end_tests_[previous_in_play(state)];
}

template <int Words>
void Program<Words>::compile_win_prefilters() {
  const auto pieces = static_cast<int>(rules_->pieces.size());
  for (int player = 0; player < players_; ++player) {
    // When the win tests come first among the tests after a move, a move onto a winning cell is
    // sure to win and needs no trial on a copy.
    bool leading = true;
    bool wins_anticipated = false;
    wins_certain_[player] = true;
    for (const EndTest& test : after_move_tests_[player]) {
      const bool win_test = test.subject == player && test.winner == player &&
                            (test.kind == EndKind::Reach || test.kind == EndKind::OpponentHasNoPieces);
      leading = leading && win_test;
      if (!win_test) continue;
      wins_anticipated = true;
      wins_certain_[player] = wins_certain_[player] && leading;
      if (test.kind == EndKind::OpponentHasNoPieces) wins_by_elimination_[player] = true;
      for (int piece = 0; piece < pieces && test.kind == EndKind::Reach; ++piece)
        if (test.piece < 0 || test.piece == piece) win_cells_[player][piece] |= test.region;
    }
    // A win that no bound foresees may come from any move: every move is a candidate, tried on a copy.
    wins_unforeseen_[player] =
        std::any_of(after_move_tests_[player].begin(), after_move_tests_[player].end(),
                    [&](const EndTest& test) { return test.winner == player && is_unforeseen(test.kind); });
    if (wins_unforeseen_[player]) {
      for (Board& cells : win_cells_[player]) cells = board_;
      drops_may_win_[player] = true;
      wins_certain_[player] = false;
    }
    // A flanking drop wins by what it flips as well as by where it lands: its every cell is a
    // candidate, tried on a copy.
    for (const Drop& drop : drops_[player])
      if (wins_anticipated && !drop.flanking.empty()) {
        win_cells_[player][drop.piece] = board_;
        wins_certain_[player] = false;
      }
    // A piece that promotes wins where its promoted type would: tried on a copy.
    for (int piece = 0; piece < pieces; ++piece)
      if (const Promotion& promotion = promotions_[player][piece]; promotion.into >= 0) {
        win_cells_[player][piece] |= promotion.region & win_cells_[player][promotion.into];
        wins_certain_[player] = false;
      }
    for (const Drop& drop : drops_[player])
      drops_may_win_[player] = drops_may_win_[player] || (drop.region & win_cells_[player][drop.piece]).any();
    // A chain of hops may end anywhere: a piece that hops may win from any cell.
    for (const Hop& hop : hops_[player])
      if (win_cells_[player][hop.piece].any() || wins_by_elimination_[player]) win_from_[player] |= board_;
    // A general rule may win from anywhere, and by bringing a piece in: every move is tried.
    if (general_ && (wins_anticipated || wins_by_elimination_[player])) {
      win_from_[player] = board_;
      drops_may_win_[player] = true;
      wins_certain_[player] = false;
    }
    for (const Jump& jump : jumps_[player]) {
      if (jump.slide) {  // any cell of the ray may be the last one: no cheap bound
        win_from_[player] |= jump.from_mask;
        continue;
      }
      for (int cell = 0; cell < cells_; ++cell)
        if (jump.from_mask.test(cell) && win_cells_[player][jump.piece].test(cell + jump.delta()))
          win_from_[player].set(cell);
    }
  }
}

template <int Words>
typename Program<Words>::Board Program<Words>::mask_of(const lang::CellList& cells) const {
  Board mask;
  for (const int cell : cells) mask.set(cell);
  return mask;
}

// ---- state changes --------------------------------------------------------------------------------

template <int Words>
void Program<Words>::put(StateType& state, int player, int piece, int cell) const {
  state.by_player[player].set(cell);
  state.by_piece[piece].set(cell);
  state.hash ^= piece_key(player, piece, cell);
}

template <int Words>
void Program<Words>::take(StateType& state, int player, int piece, int cell) const {
  state.by_player[player].reset(cell);
  state.by_piece[piece].reset(cell);
  state.hash ^= piece_key(player, piece, cell);
}

template <int Words>
int Program<Words>::piece_at(const StateType& state, int player, int cell) const {
  if (!state.by_player[player].test(cell)) return -1;
  for (int piece = 0; piece < piece_types_; ++piece)
    if (state.by_piece[piece].test(cell)) return piece;
  return -1;
}

template <int Words>
void Program<Words>::block(StateType& state, int cell) const {
  state.blocked.set(cell);
  state.hash ^= blocked_keys_[static_cast<std::size_t>(cell)];
}

template <int Words>
std::uint64_t Program<Words>::full_hash(const StateType& state) const {
  const std::uint64_t turn_key = turn_keys_.empty() ? (state.to_move ? side_key_ : 0) : turn_keys_[state.to_move];
  std::uint64_t hash = turn_key ^ (actions_keys_.empty() ? 0 : actions_keys_[state.actions_left]) ^
                       (phase_keys_.empty() ? 0 : phase_keys_[state.phase]);
  for (Board blocked = state.blocked; blocked.any();)
    hash ^= blocked_keys_[static_cast<std::size_t>(blocked.pop_lowest())];
  for (int player = 0; player < players_; ++player) {
    for (int cell = 0; cell < rules_->cells(); ++cell)
      if (const int piece = piece_at(state, player, cell); piece >= 0) hash ^= piece_key(player, piece, cell);
    if (state.is_out(player)) hash ^= out_keys_[static_cast<std::size_t>(player)];
  }
  for (int player = 0; player < players_; ++player)
    for (std::size_t counter = 0; counter < rules_->counters.size(); ++counter)
      hash ^= counter_key(player, static_cast<int>(counter), state.counters[player][counter]);
  for (std::size_t attribute = 0; attribute < rules_->attributes.size(); ++attribute)
    for (Board cells = state.attributes[attribute]; cells.any();)
      hash ^=
          attribute_keys_[attribute * static_cast<std::size_t>(cells_) + static_cast<std::size_t>(cells.pop_lowest())];
  for (std::size_t reg = 0; reg < rules_->registers.size(); ++reg)
    if (const int held = state.registers[reg]; held > 0)
      hash ^= register_keys_[reg * static_cast<std::size_t>(cells_) + static_cast<std::size_t>(held - 1)];
  for (int player = 0; player < players_; ++player)
    for (std::size_t slot = 0; slot < rules_->hands.size(); ++slot)
      hash ^= hand_key(player, static_cast<int>(slot), state.hands[player][slot]);
  if (rules_->keeps_counts)
    for (int cell = 0; cell < cells_; ++cell) hash ^= count_key(cell, state.count(cell));
  return hash;
}

// A cell's count holds one key per value, as a counter does.
template <int Words>
std::uint64_t Program<Words>::count_key(int cell, int count) const {
  return value_key(count_keys_[static_cast<std::size_t>(cell)], count);
}

template <int Words>
void Program<Words>::add_count(StateType& state, int cell, int delta) const {
  std::uint8_t& count = state.count(cell);
  state.hash ^= count_key(cell, count);
  count = static_cast<std::uint8_t>(count + delta);
  state.hash ^= count_key(cell, count);
}

// (sow TRACK) from `cell`: its whole count is lifted and dropped one by one on the cells after it
// along `player`'s cycle. The checker keeps the setup's total within a byte, so no cell overflows.
template <int Words>
void Program<Words>::sow(StateType& state, int player, int track, int cell) const {
  const lang::CellList& cycle = rules_->tracks[static_cast<std::size_t>(track)].cells[player];
  const int seeds = state.count(cell);
  add_count(state, cell, -seeds);
  const auto from = static_cast<std::size_t>(std::find(cycle.begin(), cycle.end(), cell) - cycle.begin());
  for (int seed = 1; seed <= seeds; ++seed)
    add_count(state, cycle[(from + static_cast<std::size_t>(seed)) % cycle.size()], 1);
}

// Each player's total count on its version of the count region of end rule `rule`.
template <int Words>
std::array<int, kMaxPlayers> Program<Words>::counted_totals(const StateType& state, int rule) const {
  std::array<int, kMaxPlayers> totals{};
  for (int player = 0; player < players_; ++player)
    for (const int cell : rules_->end[static_cast<std::size_t>(rule)].total_region[player])
      totals[static_cast<std::size_t>(player)] += state.count(cell);
  return totals;
}

// The counts as position text writes them: the cells with a count, in cell order, "b1:4,c1:4"; "-" for none.
template <int Words>
std::string Program<Words>::counts_text(const StateType& state) const {
  std::string text;
  for (int cell = 0; cell < cells_; ++cell)
    if (const int count = state.count(cell); count > 0)
      text += fmt::format("{}{}:{}", text.empty() ? "" : ",", lang::cell_name(cell, width_), count);
  return text.empty() ? "-" : text;
}

// The value of counts=... in position text, as counts_text writes it, into `state`; what is wrong, or nothing.
template <int Words>
std::string Program<Words>::parse_counts(StateType& state, std::string_view text) const {
  const std::string_view given = text;  // `text` is read item by item
  const auto fail = [&](std::string_view why) {
    return fmt::format(
        "'counts={}' {}; write each cell with a count as CELL:COUNT, separated by commas "
        "(counts=b1:4,c1:4), or counts=- for none",
        given, why);
  };
  if (text == "-") return {};
  int total = 0;
  while (!text.empty()) {
    const std::size_t comma = text.find(',');
    const std::string_view item = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view() : text.substr(comma + 1);
    const std::size_t colon = item.find(':');
    if (colon == std::string_view::npos) return fail(fmt::format("has '{}' without ':'", item));
    const int cell = lang::parse_cell(item.substr(0, colon), width_, height_);
    if (cell < 0 || !board_.test(cell))
      return fail(fmt::format("names '{}', which is not a cell of the board", item.substr(0, colon)));
    int count = 0;
    const std::string_view value = item.substr(colon + 1);
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), count);
    if (error != std::errc() || end != value.data() + value.size() || count < 1 || count > lang::kMaxCellCount)
      return fail(fmt::format("gives {} a count that is not from 1 to {}", item.substr(0, colon), lang::kMaxCellCount));
    state.count(cell) = static_cast<std::uint8_t>(count);
    total += count;
  }
  // As the checker keeps the setup's: every count may end in one cell, whose byte must hold it.
  if (total > lang::kMaxCellCount)
    return fail(fmt::format("adds up to {}, more than the {} one cell can hold", total, lang::kMaxCellCount));
  return {};
}

// A hand holds one key per count, as a counter does: the hash covers how many, not which came when.
template <int Words>
std::uint64_t Program<Words>::hand_key(int player, int slot, int count) const {
  return value_key(hand_keys_[static_cast<std::size_t>(player * lang::kMaxHandPieces + slot)], count);
}

template <int Words>
void Program<Words>::add_to_hand(StateType& state, int player, int slot, int delta) const {
  std::uint8_t& held = state.hands[player][static_cast<std::size_t>(slot)];
  state.hash ^= hand_key(player, slot, held);
  held = static_cast<std::uint8_t>(held + delta);
  state.hash ^= hand_key(player, slot, held);
}

template <int Words>
void Program<Words>::set_attribute(StateType& state, int attribute, int cell, bool on) const {
  Board& cells = state.attributes[static_cast<std::size_t>(attribute)];
  if (cells.test(cell) == on) return;
  cells ^= Board::single(cell);
  state.hash ^= attribute_keys_[static_cast<std::size_t>(attribute * cells_ + cell)];
}

template <int Words>
void Program<Words>::clear_attributes(StateType& state, int cell) const {
  for (int attribute = 0; attribute < static_cast<int>(rules_->attributes.size()); ++attribute)
    set_attribute(state, attribute, cell, false);
}

template <int Words>
void Program<Words>::set_register(StateType& state, int reg, int cell) const {
  std::int16_t& held = state.registers[static_cast<std::size_t>(reg)];
  if (held > 0) state.hash ^= register_keys_[static_cast<std::size_t>(reg * cells_ + held - 1)];
  held = static_cast<std::int16_t>(cell + 1);
  if (held > 0) state.hash ^= register_keys_[static_cast<std::size_t>(reg * cells_ + cell)];
}

template <int Words>
void Program<Words>::clear_transient_registers(StateType& state) const {
  for (std::size_t reg = 0; reg < rules_->registers.size(); ++reg)
    if (rules_->registers[reg].transient) set_register(state, static_cast<int>(reg), -1);
}

template <int Words>
void Program<Words>::remember_last_move(StateType& state, int from, int to) const {
  if (last_from_register_ >= 0) set_register(state, last_from_register_, from);
  if (last_to_register_ >= 0) set_register(state, last_to_register_, to);
}

// A chain of jumps is a move of several parts: its last part starts at the landing before the last.
template <int Words>
std::pair<int, int> Program<Words>::last_part(Move move) const {
  if (move.from >= cells_) return {-1, -1};  // a pass or a swap
  if (move.is_drop()) return {-1, move.to};
  if (std::popcount(move.jumped) < 2) return {move.from, move.to};
  const std::vector<int> landings = chain_landings(move);
  return {landings.size() < 2 ? move.from : landings[landings.size() - 2], move.to};
}

template <int Words>
std::uint64_t Program<Words>::counter_key(int player, int counter, int value) const {
  return value_key(counter_keys_[static_cast<std::size_t>(player * lang::kMaxCounters + counter)], value);
}

template <int Words>
void Program<Words>::set_counter(StateType& state, int player, int counter, int value) const {
  const lang::Counter& declared = rules_->counters[static_cast<std::size_t>(counter)];
  for (int holder = 0; holder < players_; ++holder) {
    if (holder != player && !declared.shared) continue;  // a shared counter is kept alike for every player
    std::int16_t& kept = state.counters[holder][counter];
    state.hash ^= counter_key(holder, counter, kept);
    kept = static_cast<std::int16_t>(std::clamp(value, declared.low, declared.high));
    state.hash ^= counter_key(holder, counter, kept);
  }
}

// Every counter at the low end of its range, as a game starts.
template <int Words>
void Program<Words>::reset_counters(StateType& state) const {
  for (int player = 0; player < players_; ++player)
    for (std::size_t counter = 0; counter < rules_->counters.size(); ++counter)
      state.counters[player][counter] = static_cast<std::int16_t>(rules_->counters[counter].low);
}

template <int Words>
typename Program<Words>::StateType Program<Words>::initial_state() const {
  StateType state;
  state.actions_left = static_cast<std::uint8_t>(rules_->first_turn_actions);
  for (const lang::Placement& placement : rules_->setup) {
    if (placement.cell == lang::kInHand) {
      add_to_hand(state, placement.player, rules_->hand_slot(placement.piece), 1);
      continue;
    }
    put(state, placement.player, placement.piece, placement.cell);
    for (std::size_t attribute = 0; attribute < rules_->attributes.size(); ++attribute)
      if (const lang::CellList& cells = rules_->attributes[attribute].initially[placement.player];
          std::find(cells.begin(), cells.end(), placement.cell) != cells.end())
        state.attributes[attribute].set(placement.cell);
  }
  for (const lang::CountPlacement& placement : rules_->count_setup)
    state.count(placement.cell) = static_cast<std::uint8_t>(placement.count);
  reset_counters(state);
  state.hash = full_hash(state);
  decide_end_of_position(state, nullptr);
  return state;
}

template <int Words>
template <bool Extras>
inline void Program<Words>::move_pieces(StateType& state, Move move) const {
  const int mover = state.to_move;
  if constexpr (Extras) {
    if (marks_pieces_) {  // a piece that moves or is taken loses its attributes
      clear_transient_registers(state);
      if (last_from_register_ >= 0 || last_to_register_ >= 0) {
        const auto [from, to] = last_part(move);
        remember_last_move(state, from, to);
      }
      if (move.from < cells_) {
        clear_attributes(state, move.from);
        clear_attributes(state, move.to);
        for (std::uint64_t jumped = move.jumped; jumped; jumped &= jumped - 1)
          clear_attributes(state, std::countr_zero(jumped));
      }
    }
    if (move.from >= cells_) {  // a pass or a swap
      if (is_swap(move)) swap_sides(state);
      state.hash ^= side_key_;
      return end_decision(state, mover);
    }
    if (const int flanking = flanking_drop_[mover][move.piece]; flanking >= 0 && move.is_drop())
      flip(state, flanked_by(state, enemies(state, mover), drops_[mover][static_cast<std::size_t>(flanking)], move.to));
    if (move.has_shot()) block(state, move.shot);
  }
  if constexpr (Extras) {
    for (std::uint64_t jumped = move.jumped; jumped; jumped &= jumped - 1) {
      const int cell = std::countr_zero(jumped);
      const int owner = players_ == kPlayers ? 1 - mover : owner_at(state, cell);  // a chain may jump several
      take(state, owner, piece_at(state, owner, cell), cell);
    }
  }
  if (move.capture && (!Extras || !move.jumped)) {
    const int owner = Extras && players_ != kPlayers             ? owner_at(state, move.to)
                      : state.by_player[1 - mover].test(move.to) ? 1 - mover
                                                                 : mover;
    take(state, owner, piece_at(state, owner, move.to), move.to);
  }
  const Board path = Board::single(move.from) | Board::single(move.to);  // a drop's is its one cell
  state.by_player[mover] ^= path;
  state.by_piece[move.piece] ^= path;
  const std::uint64_t left_behind = Extras && move.is_drop() ? 0 : piece_key(mover, move.piece, move.from);
  state.hash ^= left_behind ^ piece_key(mover, move.piece, move.to) ^ side_key_;
  if constexpr (Extras) {
    if (promotes_) promote(state, move);
    if (counts_quiet_) {
      const bool quiet = !move.capture && move.piece != quiet_piece_;
      state.quiet_plies = quiet ? static_cast<std::uint16_t>(state.quiet_plies + 1) : 0;
    }
    return end_decision(state, mover);
  }
  state.to_move = static_cast<std::uint8_t>(1 - mover);
  ++state.ply;
}

template <int Words>
void Program<Words>::advance_phase(StateType& state) const {
  const auto& until = phase_until_[state.phase];
  const auto no_moves_asked = [] { return true; };  // the checker refuses no-legal-moves in (until ...)
  // Asked of every player still playing: one out (more than two players) places and scores no more.
  if (until.empty() || !std::all_of(until.begin(), until.end(), [&](const EndTest& test) {
        return state.is_out(test.subject) || end_test_holds<true>(state, test, no_moves_asked, nullptr);
      }))
    return;
  state.hash ^= phase_keys_[state.phase] ^ phase_keys_[state.phase + 1u];
  ++state.phase;
}

template <int Words>
void Program<Words>::end_decision(StateType& state, int mover) const {
  if (!phase_keys_.empty()) advance_phase(state);
  ++state.ply;
  if (actions_keys_.empty()) {  // the players alternate
    pass_turn(state, mover);
    return;
  }
  const int left = state.actions_left - 1;
  const int next = left > 0 ? left : turn_actions_;
  state.hash ^= actions_keys_[state.actions_left] ^ actions_keys_[static_cast<std::size_t>(next)];
  state.actions_left = static_cast<std::uint8_t>(next);
  if (left > 0)
    state.hash ^= side_key_;  // the mover keeps the turn
  else
    pass_turn(state, mover);
}

// The hash already counts side_key_ as toggled by the decision, which tells two players' turns;
// with more players it is toggled back and the players' own keys tell.
template <int Words>
void Program<Words>::pass_turn(StateType& state, int mover) const {
  const int next = next_player(state, mover);
  if (!turn_keys_.empty())
    state.hash ^= side_key_ ^ turn_keys_[static_cast<std::size_t>(mover)] ^ turn_keys_[static_cast<std::size_t>(next)];
  state.to_move = static_cast<std::uint8_t>(next);
}

template <int Words>
int Program<Words>::next_in_play(const StateType& state, int player) const {
  for (int after = 1; after < players_; ++after)
    if (const int next = (player + after) % players_; !state.is_out(next)) return next;
  return player;
}

template <int Words>
int Program<Words>::previous_in_play(const StateType& state) const {
  for (int before = 1; before < players_; ++before)
    if (const int previous = (state.to_move + players_ - before) % players_; !state.is_out(previous)) return previous;
  return state.to_move;
}

template <int Words>
int Program<Words>::owner_at(const StateType& state, int cell) const {
  if (players_ == kPlayers)  // unrolled: Pentago asks it of every cell a turn moves
    return state.by_player[0].test(cell) ? 0 : state.by_player[1].test(cell) ? 1 : -1;
  for (int player = 0; player < players_; ++player)
    if (state.by_player[player].test(cell)) return player;
  return -1;
}

template <int Words>
void Program<Words>::put_out(StateType& state, int player, int rule) const {
  int out = 0, left = -1;
  for (int other = 0; other < players_; ++other) {
    if (state.is_out(other))
      ++out;
    else if (other != player)
      left = other;
  }
  state.out_order |= static_cast<std::uint32_t>(out + 1) << (4 * player);
  state.hash ^= out_keys_[static_cast<std::size_t>(player)];
  // A player put out in its turn, between two decisions of it or before the first, leaves what it
  // played on the board; the next player starts a whole turn.
  if (player == state.to_move && !actions_keys_.empty()) {
    state.hash ^= actions_keys_[state.actions_left] ^ actions_keys_[static_cast<std::size_t>(turn_actions_)];
    state.actions_left = static_cast<std::uint8_t>(turn_actions_);
  }
  // One player left wins, and has the turn in the finished game: a player out never has it. The
  // one player of a puzzle who loses leaves nobody: the game ends without a winner (kNoWinner).
  const bool ends = out + 2 >= players_;
  const int next = ends                      ? (left >= 0 ? left : player)
                   : player == state.to_move ? next_in_play(state, player)
                                             : state.to_move;
  state.hash ^= turn_keys_[state.to_move] ^ turn_keys_[static_cast<std::size_t>(next)];
  state.to_move = static_cast<std::uint8_t>(next);
  if (ends) {
    state.over = true;
    state.winner = static_cast<std::int8_t>(left);
    state.ended_by = static_cast<std::int8_t>(rule);
  }
}

template <int Words>
void Program<Words>::forfeit(StateType& state, int player, History& history) const {
  if (players_ == kPlayers) throw std::logic_error("a game of two players ends with a forfeit; it has no one to go on");
  if (state.over || state.is_out(player)) return;
  put_out(state, player, kEndedByForfeit);
  restart_history(state, repeats_ ? &history : nullptr);
  if (!state.over) decide_end_of_position(state, repeats_ ? &history : nullptr);
}

// One instantiation of decide_end for every caller off the playout path: each more one makes the
// compiler inline less into the playout loop (Breakthrough's playouts took 5% more instructions
// when forfeit had its own).
template <int Words>
[[gnu::noinline]] void Program<Words>::decide_end_of_position(StateType& state, History* history) const {
  decide_end(
      state, all_tests(state), [&] { return has_legal_move(state); }, history);
}

template <int Words>
void Program<Words>::apply(StateType& state, Move move) const {
  apply_remembering(state, move, nullptr);
}

template <int Words>
void Program<Words>::apply(StateType& state, Move move, History& history) const {
  apply_remembering(state, move, repeats_ ? &history : nullptr);
}

template <int Words>
void Program<Words>::play_move(StateType& state, Move move, const GeneralRecord* record) const {
  if (!move.general)
    move_pieces(state, move);
  else if (record)
    apply_record(state, move, *record);
  else
    apply_general(state, move);
}

template <int Words>
void Program<Words>::apply_remembering(StateType& state, Move move, History* history,
                                       const GeneralRecord* record) const {
  const int mover = state.to_move;
  play_move(state, move, record);
  if (history) remember(state, move, *history);
  decide_end(
      state, tests_after(state, mover), [&] { return has_legal_move(state); }, history, placed_by(move));
}

// A player put out never comes back, and who is out is part of a position: no position before
// can occur again, so the history starts again at the current one, as after a capture below.
template <int Words>
void Program<Words>::restart_history(const StateType& state, History* history) {
  if (history) history->assign(1, state.hash);
}

// A position before a capture cannot come back when no move adds a piece: the history before it
// can never match again, and is dropped, which keeps the histories of long games short.
template <int Words>
void Program<Words>::remember(const StateType& state, Move move, History& history) const {
  if (pieces_only_fall_ && move.capture) history.clear();
  history.push_back(state.hash);
}

template <int Words>
void Program<Words>::play_listed_move(StateType& state, Move move, const MoveList& moves,
                                      const std::vector<GeneralRecord>& records) const {
  if (!move.general) return move_pieces(state, move);
  std::size_t record = 0;  // the general moves before `move`
  for (const Move& listed : moves) {
    if (listed == move) break;
    record += listed.general;
  }
  apply_record(state, move, records[record]);
}

template <int Words>
bool Program<Words>::list_legal_moves(const StateType& state, MoveList& moves, std::vector<GeneralRecord>* records,
                                      bool complete_records) const {
  list_moves(state, moves, records, complete_records);
  // list_moves gives the pass of a player stuck on the board, which is a move only while the other player can move.
  const bool only_pass = pass_when_stuck_ && moves.size() == 1 && moves.front() == pass_move();
  return only_pass ? has_legal_move(state) : !moves.empty();
}

// A general move: its record, found by running its origin's rules again, is played.
template <int Words>
void Program<Words>::apply_general(StateType& state, Move move) const {
  const bool asks = general_->asks_others(false) || general_->asks_others(true);
  apply_record(state, move, general_->record_of(state, move, asks && others_can_move(state), this));
}

// Captures first, so that the mover can land where a captured piece stood; relocated pieces are
// put down after every other change and after the mover lands (as Zillions' cascade puts the piece
// it picked up down last), so that they can go where another stood. A relocated piece takes the
// place of whatever stands on its mark, the mover too when the mark is its landing: nothing checks,
// when the move is listed, that the mark will be free.
// A piece that leaves, is taken or changes loses its attributes; the record's own attribute changes
// come last.
template <int Words>
void Program<Words>::apply_record(StateType& state, Move move, const GeneralRecord& record) const {
  if (record.deferred >= 0) return apply_record(state, move, general_->complete(state, record, this));
  const int mover = state.to_move;
  if (marks_pieces_) clear_transient_registers(state);
  if (last_from_register_ >= 0 || last_to_register_ >= 0) {
    // The last part starts at the last waypoint before the landing (a part that ends the move is one too).
    auto waypoint = record.waypoints.end();
    if (waypoint != record.waypoints.begin() && waypoint[-1] == record.landing) --waypoint;
    remember_last_move(state, waypoint == record.waypoints.begin() ? record.origin : waypoint[-1], record.landing);
  }
  if (record.origin >= 0) {
    take(state, mover, record.piece, record.origin);
    if (marks_pieces_) clear_attributes(state, record.origin);
  }
  if (record.from_hand) add_to_hand(state, mover, rules_->hand_slot(record.piece), -1);
  struct Relocated {
    int owner, piece, cell;
  };
  boost::container::small_vector<Relocated, 2> relocated;
  for (const CellChange& change : record.changes) {
    const int cell = change.cell;
    if (change.what == 0 && change.become < 0) continue;  // attributes only
    if (change.what & CellChange::kBlock) block(state, cell);
    const int owner = players_ != kPlayers                    ? owner_at(state, cell)
                      : state.by_player[mover].test(cell)     ? mover
                      : state.by_player[1 - mover].test(cell) ? 1 - mover
                                                              : -1;
    if (owner < 0) continue;
    const int piece = piece_at(state, owner, cell);
    take(state, owner, piece, cell);
    if (marks_pieces_) clear_attributes(state, cell);
    if (const int slot = rules_->hand_slot(rules_->base_piece(piece)); (change.what & CellChange::kToHand) && slot >= 0)
      add_to_hand(state, mover, slot, 1);
    if (change.what & CellChange::kCapture) continue;
    const Relocated after{change.what & CellChange::kConvert ? mover : owner,
                          change.become >= 0 ? change.become : piece,
                          change.what & CellChange::kRelocate ? change.relocate_to : cell};
    if (change.what & CellChange::kRelocate)
      relocated.push_back(after);
    else
      put(state, after.owner, after.piece, after.cell);
  }
  if (record.swap) swap_sides(state);
  for (const CountChange& change : record.count_changes) {
    if (change.sown) {
      sow(state, mover, change.from, change.cell);
    } else {
      const int taken = state.count(change.from);
      add_count(state, change.from, -taken);
      add_count(state, change.cell, taken);
    }
  }
  for (const CounterChange& change : record.counters)
    set_counter(state, mover, change.counter,
                change.set ? change.value : state.counters[mover][change.counter] + change.value);
  if (record.landing >= 0 && !record.exits) {
    if (marks_pieces_) clear_attributes(state, record.landing);
    put(state, mover, record.final_piece, record.landing);
    if (const Promotion& promotion = promotions_[mover][record.final_piece];
        promotion.into >= 0 && promotion.region.test(record.landing)) {
      take(state, mover, record.final_piece, record.landing);
      put(state, mover, promotion.into, record.landing);
    }
  }
  for (const Relocated& piece : relocated) {
    vacate(state, piece.cell);
    put(state, piece.owner, piece.piece, piece.cell);
  }
  for (const std::uint8_t turn : record.rotations) rotate(state, general_->rotation(turn));
  for (const RegisterChange& change : record.registers) set_register(state, change.reg, change.cell);
  if (!rules_->attributes.empty()) {
    const Board pieces = state.pieces();
    for (const CellChange& change : record.changes)
      for (int attribute = 0; attribute < static_cast<int>(rules_->attributes.size()); ++attribute) {
        if ((change.attributes_set >> attribute & 1) && pieces.test(change.cell))
          set_attribute(state, attribute, change.cell, true);
        if (change.attributes_cleared >> attribute & 1) set_attribute(state, attribute, change.cell, false);
      }
  }
  if (counts_quiet_) {
    const bool quiet = !move.capture && move.piece != quiet_piece_;
    state.quiet_plies = quiet ? static_cast<std::uint16_t>(state.quiet_plies + 1) : 0;
  }
  if (record.again) {  // one more decision: the turn and its count of decisions stay as they are
    if (!phase_keys_.empty()) advance_phase(state);
    ++state.ply;
    return;
  }
  state.hash ^= side_key_;
  end_decision(state, mover);
}

// Takes whatever piece stands on `cell`, and clears the cell's attributes.
template <int Words>
void Program<Words>::vacate(StateType& state, int cell) const {
  if (const int owner = owner_at(state, cell); owner >= 0) take(state, owner, piece_at(state, owner, cell), cell);
  if (marks_pieces_) clear_attributes(state, cell);
}

// A quarter turn of a square region: its pieces are taken up, then put down each on its cell's
// image; a turned piece loses its attributes, as a relocated one does.
template <int Words>
void Program<Words>::rotate(StateType& state, const Rotation& turn) const {
  struct Turned {
    int owner, piece, cell;
  };
  boost::container::small_vector<Turned, 16> turned;
  for (std::size_t i = 0; i < turn.cells.size(); ++i) {
    const int cell = turn.cells[i];
    const int owner = owner_at(state, cell);
    if (owner < 0) continue;
    turned.push_back({owner, piece_at(state, owner, cell), turn.images[i]});
    take(state, owner, turned.back().piece, cell);
    if (marks_pieces_) clear_attributes(state, cell);
  }
  for (const Turned& piece : turned) put(state, piece.owner, piece.piece, piece.cell);
}

// The swap: every piece of the first player becomes the second player's, on the cell with its
// column and row exchanged (the board is square, and the checker allows the swap only in games
// that start empty, so those cells are free).
template <int Words>
void Program<Words>::swap_sides(StateType& state) const {
  for (Board first = state.by_player[0]; first.any();) {
    const int cell = first.pop_lowest();
    const int piece = piece_at(state, 0, cell);
    take(state, 0, piece, cell);
    if (marks_pieces_) clear_attributes(state, cell);
    put(state, 1, piece, (cell % width_) * width_ + cell / width_);
  }
}

// The piece that has just moved (the player to move's, on move.to) becomes its promoted type if it
// stands where its type promotes.
template <int Words>
void Program<Words>::promote(StateType& state, Move move) const {
  const Promotion& promotion = promotions_[state.to_move][move.piece];
  if (promotion.into < 0 || !promotion.region.test(move.to)) return;
  take(state, state.to_move, move.piece, move.to);
  put(state, state.to_move, promotion.into, move.to);
}

// The enemy pieces that lines of `drop` close, were the player to move to drop a piece on `cell`:
// along each direction, the run of enemy pieces next to the cell, when an own piece ends it.
// The runs grow a fixed number of steps: cheaper than branching on where each one ends.
template <int Words>
typename Program<Words>::Board Program<Words>::flanked_by(const StateType& state, const Board& enemy, const Drop& drop,
                                                          int cell) {
  const Board& own = state.by_player[state.to_move];
  Board flanked;
  for (const FlankLine& line : drop.flanking) {
    Board run = line.outward.step(Board::single(cell)) & enemy;
    for (int length = 1; length < drop.longest_run; ++length) run |= line.outward.step(run) & enemy;
    if ((line.outward.step(run) & own).any()) flanked |= run;
  }
  return flanked;
}

// The pieces in `flipped`, the other players', become the player to move's, each keeping its type.
template <int Words>
void Program<Words>::flip(StateType& state, const Board& flipped) const {
  const int mover = state.to_move;
  state.by_player[mover] |= flipped;
  // Each other player's flipped pieces; with two players, the one opponent's: the loop once.
  for (int owner = players_ == kPlayers ? 1 - mover : 0; owner < players_; ++owner) {
    if (owner == mover) continue;
    const Board taken = flipped & state.by_player[owner];
    state.by_player[owner] = state.by_player[owner] - taken;
    for (int piece = 0; piece < piece_types_; ++piece)
      for (Board cells = taken & state.by_piece[piece]; cells.any();) {
        const int cell = cells.pop_lowest();
        state.hash ^= piece_key(mover, piece, cell) ^ piece_key(owner, piece, cell);
      }
    if (players_ == kPlayers) break;
  }
}

// ---- move generation ----------------------------------------------------------------------------

// The cells from which a drop closes a line: walking inwards from each own piece over a run of
// enemy pieces, the cell just past the run (the caller keeps the empty ones). As in flanked_by,
// the runs grow a fixed number of steps.
template <int Words>
typename Program<Words>::Board Program<Words>::flanking_cells(const StateType& state, const Board& enemy,
                                                              const Drop& drop) {
  const Board& own = state.by_player[state.to_move];
  Board cells;
  for (const FlankLine& line : drop.flanking) {
    Board run = line.inward.step(own) & enemy;
    for (int length = 1; length < drop.longest_run; ++length) run |= line.inward.step(run) & enemy;
    cells |= line.inward.step(run);
  }
  return cells;
}

// Without Extras no cell is ever blocked (only shots block cells), so the blocked cells are not read.
template <int Words>
template <bool Extras>
inline std::array<typename Program<Words>::Board, Program<Words>::kLandingKinds> Program<Words>::landing_masks(
    const StateType& state) const {
  const Board& own = state.by_player[state.to_move];
  const Board enemy = Extras ? enemies(state, state.to_move) : state.by_player[1 - state.to_move];
  const Board open = Extras ? board_ - state.blocked : board_;
  const Board empty = open - (own | enemy);
  return {Board{}, empty, enemy, empty | enemy, own, empty | own, enemy | own, open};
}

// Calls emit(TargetSet) for every jump of the player to move; stops early when emit returns false.
// This is the one place that knows how moves are generated; listing, counting, random choice and
// the no-legal-move test are all built on it. A slide's targets are a set per distance, in the
// listing's order; with WholeRays, those of a slide counted as a ray are one set (TargetSet::ray),
// which only a count may take: its moves are not in the listing's order.
template <int Words>
template <bool WholeRays, typename Emit>
[[gnu::always_inline]] inline void Program<Words>::for_each_target_set(const StateType& state, Emit&& emit) const {
  const Board& own = state.by_player[state.to_move];
  const std::array<Board, kLandingKinds> landings = landing_masks(state);
  const Board& empty = landings[kOnEmpty];
  const std::vector<Jump>& jumps = jumps_[state.to_move];
  for (const Jump& jump : jumps) {
    const Board frontier = own & state.by_piece[jump.piece] & jump.from_mask;
    const Board& landing = landings[jump.landing];
    if (!jump.slide) {
      Board targets = jump_targets(state, jump, landing);
      if (jump.guards) targets = guard_targets(state, jump, targets, landings);
      if (!emit(TargetSet{targets, static_cast<std::int16_t>(jump.delta()), jump.piece, jump.shot, jump.shot_line,
                          jump.shot_line_step}))
        return;
      continue;
    }
    if (WholeRays && jump.counted_as_ray) {
      TargetSet ray = distance_targets(jump, 1, Board{});
      ray.ray = static_cast<std::int16_t>(&jump - jumps.data());
      for_each_distance(jump, frontier, landing, empty, [&](int, const Board& hits) {
        ray.targets |= hits;
        return true;
      });
      if (ray.targets.any() && !emit(ray)) return;
      continue;
    }
    if (!for_each_distance(jump, frontier, landing, empty, [&](int distance, const Board& hits) {
          return emit(distance_targets(jump, distance, hits));
        }))
      return;
  }
  for_each_drop(state, empty, [&](std::size_t index, const Board& targets) {
    return emit(TargetSet{targets, 0, drops_[state.to_move][index].piece});
  });
}

// Calls on_hits(distance, hits) for each distance, from the nearest, at which the slide `jump` from
// the cells `frontier` reaches some `landing` cells, `hits`, going on through `empty` cells; stops
// early and returns false when on_hits returns false.
template <int Words>
template <typename OnHits>
[[gnu::always_inline]] inline bool Program<Words>::for_each_distance(const Jump& jump, Board frontier,
                                                                     const Board& landing, const Board& empty,
                                                                     OnHits&& on_hits) {
  for (int distance = 1; frontier.any(); ++distance) {
    frontier = frontier.shifted(jump.left, jump.right);
    const Board hits = frontier & landing;
    if (hits.any() && !on_hits(distance, hits)) return false;
    frontier = frontier & empty & jump.from_mask;
  }
  return true;
}

// The target set of the slide `jump`'s moves of `distance` steps, to `hits`.
template <int Words>
inline typename Program<Words>::TargetSet Program<Words>::distance_targets(const Jump& jump, int distance,
                                                                           const Board& hits) {
  return TargetSet{hits,           static_cast<std::int16_t>(distance * jump.delta()),      jump.piece, jump.shot,
                   jump.shot_line, static_cast<std::int8_t>(distance * jump.shot_line_step)};
}

// Calls on_move(Move) for the move of `set` to each of `targets` (some of set.targets) and, for a
// move with a shot, once for each cell it can shoot to; stops early and returns false when on_move
// returns false.
template <int Words>
template <typename OnMove>
[[gnu::always_inline]] inline bool Program<Words>::for_each_move(const StateType& state, const TargetSet& set,
                                                                 Board targets, OnMove&& on_move) const {
  const Board occupied = state.occupied();
  while (targets.any()) {
    const int to = targets.pop_lowest();
    Move move{static_cast<std::uint16_t>(to - set.delta), static_cast<std::uint16_t>(to), set.piece, occupied.test(to)};
    if (set.shot < 0) {
      if (!on_move(move)) return false;
      continue;
    }
    for (Board shots = shot_targets(state, set.shot, move.from, to); shots.any();) {
      move.shot = static_cast<std::uint16_t>(shots.pop_lowest());
      if (!on_move(move)) return false;
    }
  }
  return true;
}

// The cells a piece of the player to move that went from `from` to `to` can shoot to: along each
// ray of the shot, through empty cells, the one it left among them.
template <int Words>
typename Program<Words>::Board Program<Words>::shot_targets(const StateType& state, int shot, int from, int to) const {
  const Shot& rule = shots_[state.to_move][static_cast<std::size_t>(shot)];
  const Board occupied = state.occupied() - Board::single(from);
  Board targets;
  if (!rule.slide) {
    for (const Ray& direction : rule.rays) targets |= direction.step(Board::single(to));
    return targets - occupied;
  }
  for (std::size_t i = 0; i < rule.rays.size(); ++i) {
    const Board& ray = rule.beyond[i * static_cast<std::size_t>(cells_) + static_cast<std::size_t>(to)];
    const Board stops = ray & occupied;
    if (!stops.any()) {
      targets |= ray;
      continue;
    }
    const int stop = rule.rays[i].left ? stops.lowest() : stops.highest();
    targets |=
        ray - rule.beyond[i * static_cast<std::size_t>(cells_) + static_cast<std::size_t>(stop)] - Board::single(stop);
  }
  return targets;
}

template <int Words>
template <typename OnTargets>
[[gnu::always_inline]] inline void Program<Words>::for_each_drop(const StateType& state, const Board& empty,
                                                                 OnTargets&& on_targets) const {
  const std::vector<Drop>& drops = drops_[state.to_move];
  Board listed;  // the targets of the drops of the same piece before this one
  for (std::size_t i = 0; i < drops.size(); ++i) {
    Board targets = drop_targets(state, drops[i], empty);
    if (drops[i].same_piece_before) targets = targets - listed;
    listed = drops[i].same_piece_before ? listed | targets : targets;
    if (!on_targets(i, targets)) return;
  }
}

// Two jumps of one piece can list a move twice; it is one move, listed once.
template <int Words>
void Program<Words>::remove_repeats(MoveList& moves) {
  const auto order = [](const Move& a, const Move& b) {
    return std::tie(a.from, a.to, a.piece, a.shot, a.jumped) < std::tie(b.from, b.to, b.piece, b.shot, b.jumped);
  };
  std::sort(moves.begin(), moves.end(), order);
  moves.erase(std::unique(moves.begin(), moves.end()), moves.end());
}

// A game with general rules names their moves as it lists them (move_text reads the names).
template <int Words>
void Program<Words>::legal_moves(const StateType& state, MoveList& moves) const {
  if (!general_) return list_moves(state, moves, nullptr);
  std::vector<GeneralRecord> records;
  list_moves(state, moves, &records);
  general_->name_moves(moves, records, drops_name_piece_);
}

template <int Words>
void Program<Words>::list_board_moves(const StateType& state, MoveList& moves, std::vector<GeneralRecord>* records,
                                      bool for_attacks, bool complete_records) const {
  moves.clear();
  if (records) records->clear();
  if (state.over) return;
  // Inlined into the loop over target sets, as in count_without_list: a call per set (and the set
  // written out for it) cost more than most sets' moves.
  for_each_target_set(
      state, [&](const TargetSet& set) __attribute__((always_inline)) {
        return for_each_move(state, set, set.targets, [&](const Move& move) {
          moves.push_back(move);
          return true;
        });
      });
  if (jumps_may_repeat_[state.to_move]) remove_repeats(moves);
  if (!hops_[state.to_move].empty()) add_hop_moves(state, moves);
  if (general_)
    general_->list(state, false, general_->asks_others(false) && others_can_move(state), moves, records,
                   for_attacks ? nullptr : this, complete_records);
}

template <int Words>
void Program<Words>::list_moves(const StateType& state, MoveList& moves, std::vector<GeneralRecord>* records,
                                bool complete_records) const {
  // Counting a general move's captures takes its record, which a listing without records has not.
  std::vector<GeneralRecord> own_records;
  if (capture_most_ && general_ && !records) records = &own_records;
  // Drawn by count where no move captures (GeneralMoves::counts_quiet_moves), so every move is the
  // general rules': where one captures, those of their capture parts are the captures.
  if (draws_by_count_ && must_capture_ && !state.over) {
    moves.clear();
    if (records) records->clear();
    if (general_->list_captures(state, general_->asks_others(false) && others_can_move(state), moves, records, this))
      return keep_captures(state, moves, records);
  }
  list_board_moves(state, moves, records, false, complete_records);
  if (state.over) return;
  if (checks_legality_) keep_legal(state, moves, records);
  if (must_capture_ && std::any_of(moves.begin(), moves.end(), [](const Move& move) { return move.capture; }))
    keep_captures(state, moves, records);
  if (swap_available(state)) moves.push_back(swap_move());
  if (moves.empty() && general_ && general_->has_fallback())
    general_->list(state, true, general_->asks_others(true) && others_can_move(state), moves, records, this,
                   complete_records);
  // A game that goes on while the player to move has no move on the board: its move is the pass.
  if (moves.empty() && pass_when_stuck_) moves.push_back(pass_move());
}

// Keeps the moves for which keep(move, record) holds, and the records of the general ones in step
// with them; `record` is the move's record, null for a move that is not general or without records.
template <typename Keep>
static void keep_moves_if(MoveList& moves, std::vector<GeneralRecord>* records, Keep&& keep) {
  std::size_t kept = 0, record = 0, records_kept = 0;
  for (const Move& move : moves) {
    const bool kept_move = keep(move, move.general && records ? &(*records)[record] : nullptr);
    if (move.general && records) {
      if (kept_move) (*records)[records_kept++] = std::move((*records)[record]);
      ++record;
    }
    if (kept_move) moves[kept++] = move;
  }
  moves.resize(kept);
  if (records) records->resize(records_kept);
}

template <int Words>
void Program<Words>::keep_captures(const StateType& state, MoveList& moves, std::vector<GeneralRecord>* records) const {
  if (!capture_most_) {
    moves.erase(std::remove_if(moves.begin(), moves.end(), [](const Move& move) { return !move.capture; }),
                moves.end());
    if (records) std::erase_if(*records, [](const GeneralRecord& record) { return !record.captures(); });
    return;
  }
  // The pieces a move captures, or with `among` those on its cells: a general move's from its record
  // (a listing under the majority rule always has them), a chain's from the cells it jumps, else the
  // one on its landing cell, if any.
  const auto captured = [](const Move& move, const GeneralRecord* record, const Board* among) {
    const auto counts = [&](int cell) { return !among || among->test(cell); };
    if (move.general)
      return static_cast<int>(std::count_if(record->changes.begin(), record->changes.end(), [&](const CellChange& c) {
        return (c.what & CellChange::kCapture) && counts(c.cell);
      }));
    int count = 0;
    for (std::uint64_t jumped = move.jumped; jumped; jumped &= jumped - 1) count += counts(std::countr_zero(jumped));
    return move.jumped ? count : static_cast<int>(move.capture && counts(move.to));
  };
  const auto keep_most = [&](int least, const Board* among) {
    int most = least;
    std::size_t record = 0;
    for (const Move& move : moves)
      most = std::max(most, captured(move, move.general ? &(*records)[record++] : nullptr, among));
    keep_moves_if(moves, records,
                  [&](const Move& move, const GeneralRecord* record) { return captured(move, record, among) >= most; });
  };
  keep_most(1, nullptr);
  if (capture_most_of_.none()) return;
  // The tie-break: of those, the ones that capture the most pieces of the types it names.
  Board among;
  for (std::size_t piece = 0; piece < capture_most_of_.size(); ++piece)
    if (capture_most_of_.test(piece)) among |= state.by_piece[piece];
  keep_most(0, &among);
}

template <int Words>
void Program<Words>::keep_legal(const StateType& state, MoveList& moves, std::vector<GeneralRecord>* records) const {
  keep_moves_if(moves, records,
                [&](const Move& move, const GeneralRecord* record) { return legal_after(state, move, record); });
}

// Whether the (legal ...) condition holds for the mover once `move` is played. The checker keeps
// no-legal-moves out of it, so the condition never asks for moves.
template <int Words>
bool Program<Words>::legal_after(const StateType& state, Move move, const GeneralRecord* record) const {
  StateType after = state;
  if (record)
    apply_record(after, move, *record);
  else
    play_move(after, move);
  const auto no_moves_asked = [] { return true; };
  return end_test_holds<true>(after, legal_tests_[state.to_move], no_moves_asked, nullptr);
}

template <int Words>
bool Program<Words>::rule_allows(const StateType& state, Move move, const GeneralRecord& record, int rule) const {
  thread_local bool looking_ahead = false;  // per thread: programs are shared by the threads of a search
  if (looking_ahead) return true;
  StateType after = state;
  apply_record(after, move, record);
  looking_ahead = true;
  struct EndOfLook {
    ~EndOfLook() { looking_ahead = false; }
  } end_of_look;
  const auto has_moves = [&] { return has_legal_move(after); };
  return end_test_holds<true>(after, rule_legal_tests_[static_cast<std::size_t>(rule)][state.to_move], has_moves,
                              nullptr);
}

template <int Words>
bool Program<Words>::in_check(const StateType& state, int subject, int piece) const {
  const Board royal = state.by_player[subject] & state.by_piece[piece];
  return royal.any() && takes_any(state, subject, royal);
}

// With more than two players, each other player still playing is asked in turn: a player out
// moves no more, so it threatens nothing.
template <int Words>
bool Program<Words>::takes_any(const StateType& state, int subject, const Board& targets) const {
  if (players_ == kPlayers) return takes_any_by(state, 1 - subject, subject, targets);
  for (int attacker = 0; attacker < players_; ++attacker)
    if (attacker != subject && !state.is_out(attacker) && takes_any_by(state, attacker, subject, targets)) return true;
  return false;
}

// The attacker's moves, on a copy with the turn turned: the fast path's target sets first (a move
// there captures on its landing); then the general rules that may reach `targets` from where their
// pieces stand, a capture read off each record (GeneralMoves::takes_any). With chains of jumps or
// prioritised general rules (whether a rule runs depends on the other moves), every move is listed:
// a chain is played on a copy to see what it takes.
template <int Words>
bool Program<Words>::takes_any_by(const StateType& state, int attacker, int subject, const Board& targets) const {
  StateType turned = state;
  turned.to_move = static_cast<std::uint8_t>(attacker);
  turned.over = false;
  // The fast path's moves land where they capture: a set of cells at a time, before any is listed.
  bool landed = false;
  for_each_target_set(turned, [&](const TargetSet& set) {
    landed = (set.targets & targets).any();
    return !landed;
  });
  if (landed) return true;
  // The general rules' moves without the fast path's again: only those that may reach `targets` run.
  if (hops_[turned.to_move].empty() && general_ && !general_->prioritised())
    return general_->takes_any(turned, general_->asks_others(false) && others_can_move(turned), targets);
  if (!general_ && hops_[turned.to_move].empty()) return false;
  MoveList moves;
  // Kept from call to call: the listing below never comes back here (for_attacks).
  thread_local std::vector<GeneralRecord> records;
  records.clear();
  list_board_moves(turned, moves, general_ ? &records : nullptr, true);
  std::size_t record = 0;
  for (const Move& move : moves) {
    if (move.general) {
      if (records[record++].takes_any(targets)) return true;
      continue;
    }
    if (!move.capture) continue;
    if (!move.jumped) {
      if (targets.test(move.to)) return true;
      continue;
    }
    StateType after = turned;
    play_move(after, move);
    if ((after.by_player[subject] & targets) != (turned.by_player[subject] & targets)) return true;
  }
  return false;
}

template <int Words>
bool Program<Words>::attacked(const StateType& state, int cell, int origin, int piece) const {
  const int player = state.to_move;
  StateType probe = state;
  if (origin >= 0) take(probe, player, piece_at(probe, player, origin), origin);  // the carried mover
  if (piece >= 0 && !probe.occupied().test(cell)) put(probe, player, piece, cell);
  return takes_any(probe, player, Board::single(cell));
}

template <int Words>
bool Program<Words>::others_can_move(const StateType& state) const {
  StateType turned = state;
  // Every other player still playing; with one player, nobody.
  for (int other = 0; other < players_; ++other) {
    if (other == state.to_move || state.is_out(other)) continue;
    turned.to_move = static_cast<std::uint8_t>(other);
    if (has_targets(turned) || general_->any(turned, false, false, this)) return true;
  }
  return false;
}

template <int Words>
bool Program<Words>::has_general_move(const StateType& state) const {
  const auto any = [&](bool fallback) {
    return general_->any(state, fallback, general_->asks_others(fallback) && others_can_move(state), this);
  };
  return any(false) || (general_->has_fallback() && any(true));
}

// Appends every hop and chain of hops of the player to move, found depth first from each piece
// that has a first hop (found for all pieces at once with shifts, as in has_hop).
template <int Words>
void Program<Words>::add_hop_moves(const StateType& state, MoveList& moves) const {
  const Board& own = state.by_player[state.to_move];
  const Board enemy = enemies(state, state.to_move);
  const Board empty = board_ - state.occupied();
  Board starts;
  for (const Hop& hop : hops_[state.to_move]) {
    const Board over = (own & state.by_piece[hop.piece] & hop.from_mask).shifted(hop.left, hop.right) & enemy;
    const Board landings = over.shifted(hop.left, hop.right) & empty;
    starts |= landings.shifted(hop.right, hop.left).shifted(hop.right, hop.left);
  }
  for (Board pieces = starts; pieces.any();) {
    const int from = pieces.pop_lowest();
    const auto piece = static_cast<std::uint8_t>(piece_at(state, state.to_move, from));
    const ChainStart start{from, piece, state.occupied() - Board::single(from), moves.size()};
    follow_chain(state, start, from, 0, moves);
  }
}

// Continues a chain that has reached `at` having jumped the pieces on `jumped`: every hop that can
// be made from here extends it; a chain that can go no further, or that promotes, or whose last
// hop does not chain, is a move. Two paths that jump the same pieces make one move.
template <int Words>
void Program<Words>::follow_chain(const StateType& state, const ChainStart& start, int at, std::uint64_t jumped,
                                  MoveList& moves) const {
  const Board enemy = enemies(state, state.to_move);
  const Promotion& promotion = promotions_[state.to_move][start.piece];
  const auto end_at = [&](int to, std::uint64_t captured) {
    Move move{static_cast<std::uint16_t>(start.from), static_cast<std::uint16_t>(to), start.piece, true};
    move.jumped = captured;
    const auto earlier = moves.begin() + static_cast<std::ptrdiff_t>(start.first_move);
    if (std::find(earlier, moves.end(), move) == moves.end()) moves.push_back(move);
  };
  bool went_on = false;
  for (const Hop& hop : hops_[state.to_move]) {
    if (hop.piece != start.piece || (jumped && !hop.chain) || !hop.from_mask.test(at)) continue;
    const int over = at + hop.delta(), landing = over + hop.delta();
    if (!enemy.test(over) || (jumped >> over & 1) || start.occupied.test(landing)) continue;
    went_on = true;
    const std::uint64_t now_jumped = jumped | std::uint64_t{1} << over;
    const bool ends = !hop.chain || (promotion.into >= 0 && promotion.region.test(landing));
    if (ends)
      end_at(landing, now_jumped);
    else
      follow_chain(state, start, landing, now_jumped, moves);
  }
  if (!went_on && jumped) end_at(at, jumped);
}

// Whether the player to move has a hop: an enemy piece next to one of its hopping pieces with an
// empty cell beyond.
template <int Words>
bool Program<Words>::has_hop(const StateType& state) const {
  const Board& own = state.by_player[state.to_move];
  const Board enemy = enemies(state, state.to_move);
  const Board empty = board_ - state.occupied();
  for (const Hop& hop : hops_[state.to_move]) {
    const Board over = (own & state.by_piece[hop.piece] & hop.from_mask).shifted(hop.left, hop.right) & enemy;
    if ((over.shifted(hop.left, hop.right) & empty).any()) return true;
  }
  return false;
}

template <int Words>
int Program<Words>::count_moves(const StateType& state) const {
  if (state.over) return 0;
  if (moves_counted_) {
    CountedMoves counted;
    count_without_list(state, counted);
    return counted.total;
  }
  if (jumps_may_repeat_[state.to_move] || moves_listed_ || shoots_) {  // repeats to remove, or shots to count
    MoveList moves;
    list_moves(state, moves, nullptr);
    return static_cast<int>(moves.size());
  }
  int total = swap_available(state) ? 1 : 0;
  for_each_target_set(state, [&](const TargetSet& set) {
    total += set.targets.count();
    return true;
  });
  return total == 0 && pass_when_stuck_ ? 1 : total;
}

template <int Words>
void Program<Words>::count_drawable(const StateType& state, DrawCounts& counts) const {
  counts.board = 0;
  for_each_target_set(state, [&](const TargetSet& set) {
    counts.board += set.targets.count();
    return true;
  });
  counts.others_can_move = general_->asks_others(false) && others_can_move(state);
  const int general = general_->count_moves(state, counts.others_can_move, counts.board, counts.general);
  counts.total = general == GeneralMoves<Words>::kNotCounted ? 0 : counts.board + general;
}

// In list_moves's order, so that index i is the i-th move listed (a seeded playout plays the game
// it played when it listed): the board's moves by target set, then the general ones by origin.
template <int Words>
Move Program<Words>::drawn_move(const StateType& state, const DrawCounts& counts, int index,
                                std::vector<GeneralRecord>& records) const {
  Move drawn;
  if (index < counts.board) {
    for_each_target_set(state, [&](const TargetSet& set) {
      const int targets = set.targets.count();
      if (index >= targets) {
        index -= targets;
        return true;
      }
      for_each_move(state, set, Board::single(set.targets.nth(index)), [&](const Move& move) {
        drawn = move;
        return false;
      });
      return false;
    });
    return drawn;
  }
  index -= counts.board;
  for (const OriginMoves& origin : counts.general) {
    if (index < origin.moves) return general_->nth_move(state, counts.others_can_move, this, origin, index, records);
    index -= origin.moves;
  }
  throw std::logic_error(fmt::format("{}: a move drawn past the moves counted", rules_->name));
}

template <int Words>
Move Program<Words>::nth_move(const StateType& state, int index) const {
  if (moves_counted_) {
    CountedMoves counted;
    count_without_list(state, counted);
    return counted_move(state, counted, index);
  }
  MoveList moves;
  legal_moves(state, moves);
  return moves[static_cast<std::size_t>(index)];
}

// Counts the moves of the player to move in the order list_board_moves lists them (target sets in
// turn, their targets from the lowest cell, each target's shots from the lowest cell), keeping
// what counted_move needs to find any one of them. A move with a shot costs the count of the
// shot's targets (landing_shots), never a Move written per shot.
template <int Words>
void Program<Words>::count_without_list(const StateType& state, CountedMoves& counted) const {
  counted.entries.clear();
  counted.total = 0;
  counted.landings = -1;
  if (state.over) return;
  const Board occupied = state.occupied();
  int lines_ready = -1;  // the Shot::lines_id whose lines this count has brought to this position
  // Inlined into the loop over target sets: a call per set cost more than most sets' landings. A
  // slide counted as a ray is one set, not one a distance: a set costs about 90 instructions.
  for_each_target_set<true>(
      state, [&](const TargetSet& set) __attribute__((always_inline)) {
        int count = 0;
        if (set.shot < 0) {
          count = set.targets.count();
        } else {
          const Shot& rule = shots_[state.to_move][static_cast<std::size_t>(set.shot)];
          if (!rule.by_lines) {
            for (Board targets = set.targets; targets.any();)
              count += landing_shots(state, counted, set, targets.pop_lowest());
          } else {
            if (lines_ready != rule.lines_id) {
              bring_lines(rule, occupied, counted);
              lines_ready = rule.lines_id;
            }
            const std::uint64_t* line_bits = counted.line_bits.data();
            set.targets.for_each([&](int to) { count += shots_on_lines(rule, line_bits, set, to); });
          }
        }
        if (count == 0) return true;
        counted.entries.push_back({set, count});
        counted.total += count;
        return true;
      });
}

// The landings of the moves of the player to move, by target set in the listing's order, with the
// lines of its shots brought to the position: what a draw by rejection needs (most_shots_).
template <int Words>
void Program<Words>::count_landings(const StateType& state, CountedMoves& counted) const {
  counted.entries.clear();
  counted.total = -1;
  counted.landings = 0;
  if (state.over) return;
  const std::vector<Jump>& jumps = jumps_[state.to_move];
  bring_lines(shots_[state.to_move][static_cast<std::size_t>(jumps.front().shot)], state.occupied(), counted);
  for_each_target_set<true>(
      state, [&](const TargetSet& set) __attribute__((always_inline)) {
        const int landings = set.targets.count();
        if (landings > 0) counted.entries.emplace_back(CountedChoices{set, landings});  // push_back was a call
        counted.landings += landings;
        return true;
      });
}

// What draw_counted draws from: the landings, where the player's every move shoots on lines
// (most_shots_); else every move counted.
template <int Words>
void Program<Words>::count_for_draw(const StateType& state, CountedMoves& counted) const {
  if (most_shots_[state.to_move] > 0)
    count_landings(state, counted);
  else
    count_without_list(state, counted);
}

// Whether the position count_for_draw counted has a move: some landing has a shot. Where the shot
// may slide back along the line a move came on, a cell a step (a step, or a slide counted as a ray,
// over empty cells), a landing has one: the cell left. Other landings are asked until one has (the
// first, unless the shots are walled in).
template <int Words>
bool Program<Words>::has_counted_move(const StateType& state, const CountedMoves& counted) const {
  if (counted.landings < 0) return counted.total > 0;
  for (const CountedChoices& entry : counted.entries) {
    if (entry.set.line >= 0 && std::abs(entry.set.line_step) == 1) return true;
    for (Board targets = entry.set.targets; targets.any();)
      if (landing_shots(state, counted, entry.set, targets.pop_lowest()) > 0) return true;
  }
  return false;
}

// One move of the position count_for_draw counted, drawn uniformly; `draw(n)` draws one of n
// uniformly. Counted landings are drawn from by rejection: each landing has most_shots_ slots, a
// slot is drawn, and it is the move of that landing's shot of its number if the landing has that
// many shots, else drawn again. Each move is one slot, so the move drawn is uniform; a ply costs a
// few landings' shots counted, where a count costs every landing's. After as many tries as half the
// landings (few shots for many slots, late in Amazons) every move is counted and one drawn, which
// keeps it uniform: the number of tries depends on the position only. A pass when there is no move.
template <int Words>
template <typename Draw>
Move Program<Words>::draw_counted(const StateType& state, CountedMoves& counted, Draw&& draw) const {
  if (counted.landings >= 0) {
    const int slots = most_shots_[state.to_move];
    for (int tries = counted.landings / 2 + 1; tries > 0 && counted.landings > 0; --tries) {
      const int slot = static_cast<int>(draw(counted.landings * slots));
      int landing = slot / slots;
      std::size_t entry = 0;
      while (landing >= counted.entries[entry].count) landing -= counted.entries[entry++].count;
      const TargetSet& set = counted.entries[entry].set;
      const int to = set.targets.nth(landing);
      const int shot = slot % slots;
      if (shot < landing_shots(state, counted, set, to)) return landed_move(state, set, to, shot);
    }
    count_without_list(state, counted);
  }
  if (counted.total == 0) return pass_move();
  return counted_move(state, counted, static_cast<int>(draw(counted.total)));
}

// How many cells a move of `set` to `to` can shoot to: a shot counted on lines counts them on the
// lines of the position (bring_lines, which the count holds for its last lines counted on); any
// other is walked.
template <int Words>
int Program<Words>::landing_shots(const StateType& state, const CountedMoves& counted, const TargetSet& set,
                                  int to) const {
  const Shot& rule = shots_[state.to_move][static_cast<std::size_t>(set.shot)];
  if (!rule.by_lines || counted.lines_id != rule.lines_id)
    return shot_targets(state, set.shot, to - set.delta, to).count();
  return shots_on_lines(rule, counted.line_bits.data(), set, to);
}

// Brings the lines of `rule` (Shot::by_lines) that `counted` holds to the position `occupied`: the
// lines of an earlier position (the ply before, in a playout) by flipping the bits of the cells that
// changed since, a few (a move and its shot change three), on their lines; others gathered anew.
template <int Words>
void Program<Words>::bring_lines(const Shot& rule, const Board& occupied, CountedMoves& counted) const {
  if (counted.lines_id != rule.lines_id) {
    gather_lines(rule, occupied, counted);
  } else {
    std::uint64_t* line_bits = counted.line_bits.data();
    const std::size_t lines = rule.line_count;
    (occupied ^ counted.lines_occupied).for_each([&](int cell) {
      const LinePlace* place = &rule.places[static_cast<std::size_t>(cell) * lines];
      for (std::size_t index = 0; index < lines; ++index)
        line_bits[place[index].line] ^= std::uint64_t{1} << place[index].bit;
    });
  }
  counted.lines_id = rule.lines_id;
  counted.lines_occupied = occupied;
}

// The occupancy of every line of the sliding shot `rule` (Shot::by_lines), one word per line.
template <int Words>
void Program<Words>::gather_lines(const Shot& rule, const Board& occupied, CountedMoves& counted) const {
  counted.line_bits.resize(rule.cell_lines.size());
  std::uint64_t* bits = counted.line_bits.data();
  for (const CellLine& line : rule.cell_lines) {
    std::uint64_t gathered = line.ends;
    for (std::size_t word = 0; word < static_cast<std::size_t>(Words); ++word)
      gathered |= gather_bits(occupied.word[word], line.mask[word]) << line.shift[word];
    *bits++ = gathered;
  }
}

// The targets of the sliding shot `rule` (Shot::by_lines) of a piece of `set` that landed on `to`,
// on the lines' occupancy `line_bits`: on each line of `to`, the zero bits either way from the
// cell's bit to the nearest set one (an occupied cell or an edge); on the line the landing shares
// with the cell left (set.line), the run back towards that cell counted again with it emptied. The
// cell left is set.line_step cells back, or, for a slide's every distance (set.ray), the nearest
// piece back: the slide went a cell of the line a step, over empty cells.
template <int Words>
inline int Program<Words>::shots_on_lines(const Shot& rule, const std::uint64_t* line_bits, const TargetSet& set,
                                          int to) {
  const std::size_t lines = rule.line_count;
  const LinePlace* at = &rule.places[static_cast<std::size_t>(to) * lines];
  int targets = 0;
  if (rule.both_ways) {
    for (std::size_t index = 0; index < lines; ++index) {
      const std::uint64_t bits = line_bits[at[index].line];
      targets += std::countr_zero(bits >> at[index].bit >> 1) + std::countl_zero(bits << (64 - at[index].bit));
    }
  } else {
    for (std::size_t index = 0; index < lines; ++index) {
      const std::uint64_t bits = line_bits[at[index].line];
      if (rule.lines[index].up) targets += std::countr_zero(bits >> at[index].bit >> 1);
      if (rule.lines[index].down) targets += std::countl_zero(bits << (64 - at[index].bit));
    }
  }
  if (set.line >= 0) {  // the run back, again with the cell left emptied (a leap's run may stop before it)
    const LinePlace on = at[set.line];
    const std::uint64_t bits = line_bits[on.line];
    const int left = set.ray < 0         ? on.bit - set.line_step
                     : set.line_step > 0 ? on.bit - 1 - std::countl_zero(bits << (64 - on.bit))
                                         : on.bit + 1 + std::countr_zero(bits >> on.bit >> 1);
    const std::uint64_t emptied = bits & ~(std::uint64_t{1} << left);
    targets += set.line_step > 0 ? std::countl_zero(emptied << (64 - on.bit)) - std::countl_zero(bits << (64 - on.bit))
                                 : std::countr_zero(emptied >> on.bit >> 1) - std::countr_zero(bits >> on.bit >> 1);
  }
  return targets;
}

// The index-th move that count_without_list counted.
template <int Words>
Move Program<Words>::counted_move(const StateType& state, const CountedMoves& counted, int index) const {
  std::size_t entry = 0;
  while (index >= counted.entries[entry].count) index -= counted.entries[entry++].count;
  TargetSet set = counted.entries[entry].set;
  int to = -1;
  if (set.ray < 0) {
    to = counted_landing(state, counted, set, index);
  } else {  // the listing's order: distance by distance
    const Jump& jump = jumps_[state.to_move][static_cast<std::size_t>(set.ray)];
    const Board frontier = state.by_player[state.to_move] & state.by_piece[jump.piece] & jump.from_mask;
    const std::array<Board, kLandingKinds> landings = landing_masks(state);
    for_each_distance(jump, frontier, landings[jump.landing], landings[kOnEmpty], [&](int distance, const Board& hits) {
      set = distance_targets(jump, distance, hits);
      to = counted_landing(state, counted, set, index);
      return to < 0;
    });
  }
  return landed_move(state, set, to, index);
}

// The move of `set` to `to` with its `shot`-th shot (if it shoots); of a ray's set (TargetSet::ray),
// the move of the distance that reaches `to`.
template <int Words>
Move Program<Words>::landed_move(const StateType& state, const TargetSet& ray_or_set, int to, int shot) const {
  TargetSet set = ray_or_set;
  if (set.ray >= 0) {
    const Jump& jump = jumps_[state.to_move][static_cast<std::size_t>(set.ray)];
    const Board frontier = state.by_player[state.to_move] & state.by_piece[jump.piece] & jump.from_mask;
    const std::array<Board, kLandingKinds> landings = landing_masks(state);
    for_each_distance(jump, frontier, landings[jump.landing], landings[kOnEmpty], [&](int distance, const Board& hits) {
      if (!hits.test(to)) return true;
      set = distance_targets(jump, distance, hits);
      return false;
    });
  }
  Move move{static_cast<std::uint16_t>(to - set.delta), static_cast<std::uint16_t>(to), set.piece,
            state.occupied().test(to)};
  if (set.shot >= 0) move.shot = static_cast<std::uint16_t>(shot_targets(state, set.shot, move.from, to).nth(shot));
  return move;
}

// The landing of the index-th move of `set` (not a ray), `index` then that move's index among its
// shots; or -1, when the set has fewer moves, `index` then less their number.
template <int Words>
int Program<Words>::counted_landing(const StateType& state, const CountedMoves& counted, const TargetSet& set,
                                    int& index) const {
  if (set.shot < 0) {
    const int moves = set.targets.count();
    if (index < moves) return set.targets.nth(index);
    index -= moves;
    return -1;
  }
  for (Board targets = set.targets; targets.any();) {
    const int to = targets.pop_lowest();
    const int shots = landing_shots(state, counted, set, to);
    if (index < shots) return to;
    index -= shots;
  }
  return -1;
}

template <int Words>
void Program<Words>::gather_candidates(const StateType& state, Candidates<Words>& candidates) const {
  general_->gather_candidates(state, candidates);
}

template <int Words>
bool Program<Words>::candidate_move(const StateType& state, Candidates<Words>& candidates, int index,
                                    std::vector<GeneralRecord>& records, Move& move) const {
  return general_->candidate_move(state, candidates, index, records, move);
}

template <int Words>
template <typename Draw>
bool Program<Words>::draw_by_rejection(const StateType& state, Candidates<Words>& candidates, Draw&& draw,
                                       std::vector<GeneralRecord>& records, Move& move) const {
  if (candidates.total < 0) general_->gather_candidates(state, candidates);
  while (candidates.total > 0)
    if (general_->candidate_move(state, candidates, static_cast<int>(draw(candidates.total)), records, move))
      return true;
  return false;
}

// Picks the n-th move among all target sets without writing a move list: count, choose, locate.
template <int Words>
Move Program<Words>::random_move(const StateType& state, Rng& rng) const {
  if (draws_by_count_ && !state.over) {
    Candidates<Words> candidates;
    std::vector<GeneralRecord> records;
    Move move;
    const auto draw = [&](int count) { return rng.below(static_cast<std::uint32_t>(count)); };
    const bool drawn = draws_by_rejection(state) && draw_by_rejection(state, candidates, draw, records, move);
    DrawCounts counts;
    if (!drawn) count_drawable(state, counts);
    if (drawn || counts.total > 0) {
      if (!drawn) move = drawn_move(state, counts, static_cast<int>(draw(counts.total)), records);
      if (move.general) {  // named, for move_text
        MoveList moves;
        legal_moves(state, moves);
      }
      return move;
    }
  }
  if (moves_counted_) {
    CountedMoves counted;
    count_for_draw(state, counted);
    return draw_counted(state, counted, [&](int count) { return rng.below(static_cast<std::uint32_t>(count)); });
  }
  if (!targets_fit_inline_) {
    MoveList moves;
    // With (legal ...), drawn as run_listed_playout draws, so that playouts play these moves.
    if (checks_legality_ && !must_capture_ && !swap_available(state) && !state.over) {
      std::vector<GeneralRecord> records;
      list_board_moves(state, moves, general_ ? &records : nullptr);
      const int drawn = draw_legal(
          moves, records, [&](int count) { return rng.below(static_cast<std::uint32_t>(count)); },
          [&](Move move, const GeneralRecord* record) { return legal_after(state, move, record); });
      if (drawn >= 0) {
        const Move move = moves[static_cast<std::size_t>(drawn)];
        if (general_) legal_moves(state, moves);  // which names the general moves, for move_text
        return move;
      }
    }
    legal_moves(state, moves);
    return moves[rng.below(static_cast<std::uint32_t>(moves.size()))];
  }
  InlineTargets targets;
  collect_targets(state, targets);
  if (targets.total == 0) return pass_move();  // the game goes on, so the pass is the one move
  return pick_target(state, targets, static_cast<int>(rng.below(static_cast<std::uint32_t>(targets.total))));
}

template <int Words>
template <bool Extras>
[[gnu::always_inline]] inline void Program<Words>::collect_targets(const StateType& state,
                                                                   InlineTargets& targets) const {
  const std::array<Board, kLandingKinds> landings = landing_masks<Extras>(state);
  const std::vector<Jump>& jumps = jumps_[state.to_move];
  int total = 0;
  for (std::size_t i = 0; i < jumps.size(); ++i) {
    Board board = jump_targets(state, jumps[i], landings[jumps[i].landing]);
    if constexpr (Extras) {
      if (jumps[i].guards) board = guard_targets(state, jumps[i], board, landings);
    }
    targets.by_jump[i].board = board;
    total += board.count();
  }
  if constexpr (Extras) {
    total += collect_drops(state, landings[kOnEmpty], targets, jumps.size());
    targets.swap = swap_available(state);
    total += targets.swap;
  }
  targets.total = total;
}

template <int Words>
[[gnu::always_inline]] inline int Program<Words>::collect_drops(const StateType& state, const Board& empty,
                                                                InlineTargets& targets, std::size_t first) const {
  int total = 0;
  for_each_drop(state, empty, [&](std::size_t index, const Board& board) {
    targets.by_jump[first + index].board = board;
    total += board.count();
    return true;
  });
  return total;
}

template <int Words>
template <bool Extras>
[[gnu::always_inline]] inline Move Program<Words>::pick_target(const StateType& state, const InlineTargets& targets,
                                                               int chosen) const {
  if constexpr (Extras) {
    if (targets.swap && chosen == targets.total - 1) return swap_move();
  }
  std::size_t index = 0;
  for (int count; chosen >= (count = targets.by_jump[index].board.count()); ++index) chosen -= count;
  const int to = targets.by_jump[index].board.nth(chosen);
  TargetSource source;
  if constexpr (Extras) {
    source = sources_[state.to_move][index];
  } else {
    const Jump& jump = jumps_[state.to_move][index];
    source = {static_cast<std::int16_t>(jump.delta()), jump.piece};
  }
  return Move{static_cast<std::uint16_t>(to - source.delta), static_cast<std::uint16_t>(to), source.piece,
              (Extras ? enemies(state, state.to_move) : state.by_player[1 - state.to_move]).test(to) ||
                  state.by_player[state.to_move].test(to)};
}

// The loop of random_move + apply with one difference: the end rules' "can the player to move
// move?" is answered by generating that player's moves, which the next ply then draws from.
template <int Words>
std::uint32_t Program<Words>::playout(StateType& state, Rng& rng, std::uint32_t max_plies) const {
  const std::uint32_t limit = max_plies == 0 ? playout_cap_ : max_plies;
  return run_playout(
      state, [&](int count, auto&& /*nth*/) { return rng.below(static_cast<std::uint32_t>(count)); },
      [limit](std::uint32_t plies) { return plies < limit; }, nullptr);
}

// ---- playout policies ------------------------------------------------------------------------------

template <int Words>
std::uint32_t Program<Words>::playout(StateType& state, Rng& rng, const PlayoutPolicy& policy) const {
  const auto choose = [&](int count, auto&& nth) {
    const Move move = choose_playout_move(state, count, nth, rng, policy);
    if (policy.played) policy.played->push_back(PlayedMove{move, state.to_move});
    return move;
  };
  const std::uint32_t limit = policy.max_plies == 0 ? playout_cap_ : policy.max_plies;
  const auto keep_going = [&](std::uint32_t plies) {
    if (plies >= limit) return false;
    return policy.deadline == nullptr || plies % PlayoutPolicy::kDeadlinePlies != 0 || plies == 0 ||
           std::chrono::steady_clock::now() < *policy.deadline;
  };
  return run_playout(state, choose, keep_going, policy.history);
}

// Plays to the end of the game, or until `keep_going(plies played)` says no. `choose(count, nth)`
// picks the move of each ply among the `count` legal moves, `nth(i)` being the i-th; it returns
// the move or, for a uniform pick, its index.
// Without slides the moves are never listed: the targets of every jump are kept per ply and the
// next ply's generation doubles as the end rules' "can the player to move move?" test.
template <int Words>
template <typename Choose, typename KeepGoing>
[[gnu::always_inline]] inline std::uint32_t Program<Words>::run_playout(StateType& state, Choose&& choose,
                                                                        KeepGoing&& keep_going,
                                                                        const History* history) const {
  const auto chosen_move = [&](int count, auto&& nth) {
    const auto choice = choose(count, nth);
    if constexpr (std::is_same_v<std::decay_t<decltype(choice)>, Move>) {
      return choice;
    } else {
      return nth(static_cast<int>(choice));
    }
  };
  // A uniform pick (an index) goes to the listed loop as it is: there it may draw, test and redraw.
  if constexpr (std::is_same_v<std::decay_t<decltype(choose(1, [](int) { return Move{}; }))>, Move>) {
    if (!targets_fit_inline_) return run_listed_playout(state, chosen_move, keep_going, history);
  } else {
    if (moves_counted_) return run_counted_playout(state, choose, keep_going, history);
    if (!targets_fit_inline_) return run_listed_playout(state, choose, keep_going, history);
  }
  if (placing_playout_) return run_placing_playout(state, chosen_move, keep_going);
  return has_extras_ ? run_extras_playout(state, chosen_move, keep_going, history)
                     : run_inline_playout<false>(state, chosen_move, keep_going);
}

// The playout loop of games with drops, lines or passes, out of line for the same reason.
template <int Words>
template <typename Choose, typename KeepGoing>
[[gnu::noinline]] std::uint32_t Program<Words>::run_extras_playout(StateType& state, Choose&& choose,
                                                                   KeepGoing&& keep_going,
                                                                   const History* history) const {
  return run_inline_playout<true>(state, choose, keep_going, history);
}

// The playout loop of games whose moves are listed every ply. Out of line, so that the loop of the
// games without extras (Breakthrough's) compiles as if the other loops were not there.
template <int Words>
template <typename Choose, typename KeepGoing>
[[gnu::noinline]] std::uint32_t Program<Words>::run_listed_playout(StateType& state, Choose&& choose,
                                                                   KeepGoing&& keep_going,
                                                                   const History* history) const {
  std::uint32_t plies = 0;
  MoveList moves;
  std::vector<GeneralRecord> records;  // of the general moves among `moves`, which are played from them
  std::vector<GeneralRecord>* kept = general_ ? &records : nullptr;
  History played = playout_history(state, history);
  History* remembered = repeats_ ? &played : nullptr;
  const auto nth = [&](int i) { return moves[static_cast<std::size_t>(i)]; };
  constexpr bool kUniform = !std::is_same_v<std::decay_t<decltype(choose(1, nth))>, Move>;
  // The end rules ask whether the player to move can move: the moves listed to answer are the
  // next ply's, so each position's rules run once; under (legal ...), a uniform pick draws, tests
  // and redraws instead, as random_move does.
  bool listed = false;
  // A uniform pick in a game that draws by count: the moves of a position are counted, one index is
  // drawn, and only the drawn piece's moves are listed up to it; the count of the next position
  // answers the end rules' "can the player to move move?". A count of 0 lists, as the other games
  // do, so that the fallback rules and the pass, which only a listing finds, stay exact.
  DrawCounts counts;
  counts.total = -1;  // not counted
  const auto nth_drawn = [&](int i) { return drawn_move(state, counts, i, records); };
  // A player who draws by rejection: the candidates of the position, gathered once for the end
  // rules' "can the player to move move?" (a run of a rule other than the placement, such as a
  // pass, answers it; without one, the moves are counted) and the draw.
  Candidates<Words> candidates;
  Move candidate;
  // Under (legal ...), a uniform pick: the end rules' listing of the board's moves is the next
  // ply's, whose draw then knows the moves up to the first legal one without testing them again.
  bool board_listed = false;
  int first_legal = -1;
  // One `can_move` for every decide_end of this loop: each more instantiation of decide_end makes
  // the compiler inline less into the other playout loops (Breakthrough's took 4.6% more
  // instructions with a second one here).
  const auto can_move = [&] {
    if constexpr (kUniform) {
      if (draws_by_rejection(state)) {
        general_->gather_candidates(state, candidates);
        if (candidates.others > 0) return true;
      }
      if (draws_by_count_) {
        count_drawable(state, counts);
        if (counts.total > 0) return true;
      }
      if (checks_legality_ && !must_capture_) {
        board_listed = true;
        list_board_moves(state, moves, kept);
        return legal_among(state, moves, records, first_legal);
      }
    }
    listed = true;
    return list_legal_moves(state, moves, kept, false);
  };
  for (; !state.over && keep_going(plies); ++plies) {
    if constexpr (kUniform) {
      // Before the count, as random_move draws (the same draws in both).
      if (draws_by_rejection(state) &&
          draw_by_rejection(
              state, candidates, [&](int count) { return choose(count, nth_drawn); }, records, candidate)) {
        const int mover = state.to_move;
        apply_record(state, candidate, records.back());
        if (remembered) remember(state, candidate, *remembered);
        listed = false;
        counts.total = candidates.total = -1;
        decide_end<true>(state, tests_after(state, mover), can_move, remembered);
        continue;
      }
      if (draws_by_count_ && !listed) {
        if (counts.total < 0) count_drawable(state, counts);
        if (counts.total > 0) {
          const int mover = state.to_move;
          const Move move = nth_drawn(static_cast<int>(choose(counts.total, nth_drawn)));
          if (move.general)
            apply_record(state, move, records.back());
          else
            move_pieces(state, move);
          if (remembered) remember(state, move, *remembered);
          counts.total = candidates.total = -1;
          decide_end<true>(state, tests_after(state, mover), can_move, remembered);
          continue;
        }
      }
      if (checks_legality_ && !must_capture_ && !swap_available(state)) {
        if (!board_listed) {
          list_board_moves(state, moves, kept);
          first_legal = -1;
        }
        board_listed = false;
        const int drawn = draw_legal(
            moves, records, [&](int count) { return choose(count, nth); },
            [&](Move move, const GeneralRecord* record) { return legal_after(state, move, record); }, first_legal);
        if (drawn >= 0) {
          const Move move = moves[static_cast<std::size_t>(drawn)];
          const int mover = state.to_move;
          play_listed_move(state, move, moves, records);
          if (remembered) remember(state, move, *remembered);
          decide_end<true>(state, tests_after(state, mover), can_move, remembered, placed_by(move));
          continue;
        }
        listed = false;
      }
    }
    if (!listed) list_moves(state, moves, kept, false);
    const auto choice = choose(static_cast<int>(moves.size()), nth);
    Move move;
    if constexpr (kUniform)
      move = nth(static_cast<int>(choice));
    else
      move = choice;
    const int mover = state.to_move;
    play_listed_move(state, move, moves, records);
    if (remembered) remember(state, move, *remembered);
    listed = false;
    counts.total = candidates.total = -1;
    decide_end<true>(state, tests_after(state, mover), can_move, remembered, placed_by(move));
  }
  return plies;
}

// The playout loop of a uniform pick among moves counted, not listed (moves_counted_); `choose(count,
// nth)` returns the index chosen. As in the listed loop, the count that answers the end rules'
// "can the player to move move?" is the next ply's.
template <int Words>
template <typename Choose, typename KeepGoing>
[[gnu::noinline]] std::uint32_t Program<Words>::run_counted_playout(StateType& state, Choose&& choose,
                                                                    KeepGoing&& keep_going,
                                                                    const History* history) const {
  std::uint32_t plies = 0;
  CountedMoves counted;
  History played = playout_history(state, history);
  History* remembered = repeats_ ? &played : nullptr;
  const auto nth = [&](int i) { return counted_move(state, counted, i); };
  bool up_to_date = false;
  for (; !state.over && keep_going(plies); ++plies) {
    if (!up_to_date) count_for_draw(state, counted);
    const Move move = draw_counted(state, counted, [&](int count) { return choose(count, nth); });
    const int mover = state.to_move;
    move_pieces(state, move);
    if (remembered) remember(state, move, *remembered);
    up_to_date = false;
    decide_end<true>(
        state, tests_after(state, mover),
        [&] {
          up_to_date = true;
          count_for_draw(state, counted);
          return has_counted_move(state, counted);
        },
        remembered, placed_by(move));
  }
  return plies;
}

// The playout loop without a move list; `choose(count, nth)` returns the move chosen. Kept out of
// line, so that each instantiation is compiled on its own: inlined into playout(), the code for
// games with cell tests changed how GCC compiled the loop without them (Breakthrough's playouts
// took 1.5% more instructions). Aligned to a cache line, so that its speed does not depend on the
// code placed before it: with the same instructions, Breakthrough's playouts took 3.5% more CPU time
// when the loop of placements moved it by half a line.
template <int Words>
template <bool Extras, typename Choose, typename KeepGoing>
[[gnu::noinline, gnu::aligned(64)]] std::uint32_t Program<Words>::run_inline_playout(
    StateType& state, Choose&& choose, KeepGoing&& keep_going, [[maybe_unused]] const History* history) const {
  std::uint32_t plies = 0;
  InlineTargets targets;
  // The game's history, for (repetition N), in the loop with extras only.
  struct NoHistory {};
  [[maybe_unused]] std::conditional_t<Extras, History, NoHistory> played;
  if constexpr (Extras) {
    played = playout_history(state, history);
  }
  collect_targets<Extras>(state, targets);
  // A game that goes on with no targets for the player to move has one move: the pass.
  const auto nth = [&](int i) {
    if constexpr (Extras) {
      if (targets.total == 0) return pass_move();
    }
    return pick_target<Extras>(state, targets, i);
  };
  for (; !state.over && keep_going(plies); ++plies) {
    const int mover = state.to_move;
    const Move move = choose(Extras && targets.total == 0 ? 1 : targets.total, nth);
    move_pieces<Extras>(state, move);
    History* history_now = nullptr;
    if constexpr (Extras) {
      if (repeats_) {
        remember(state, move, played);
        history_now = &played;
      }
    }
    bool generated = false;
    // Without extras the turn always passes on, and the mover is the player not to move.
    decide_end<Extras>(
        state, Extras ? tests_after(state, mover) : after_move_tests_[1 - state.to_move],
        [&] {
          collect_targets<Extras>(state, targets);
          generated = true;
          return targets.total > 0 || (Extras && pass_when_stuck_ && opponent_has_targets(state));
        },
        history_now, Extras ? placed_by(move) : -1);
    if (!generated && !state.over) collect_targets<Extras>(state, targets);
  }
  return plies;
}

// The playout loop of a game of placements (placing_playout_): every move puts one piece on an
// empty cell and changes nothing else, so the empty cells are kept as the game goes, and a player
// whose drop reaches any of them (drops_anywhere_) draws the n-th empty cell at once: no landing
// masks, no target sets, no count. Other drops (a region, gravity, several pieces) collect their
// targets as the loop with extras does. Either way the moves are in the listing's order, so a
// seeded playout plays the same moves as in that loop.
template <int Words>
template <typename Choose, typename KeepGoing>
[[gnu::noinline]] std::uint32_t Program<Words>::run_placing_playout(StateType& state, Choose&& choose,
                                                                    KeepGoing&& keep_going) const {
  std::uint32_t plies = 0;
  Board empty = board_ - state.occupied();
  int empty_count = empty.count();
  InlineTargets targets;
  targets.swap = false;
  const auto collect = [&] {
    targets.total = drops_anywhere_[state.to_move] >= 0 ? empty_count : collect_drops(state, empty, targets, 0);
  };
  const auto nth = [&](int i) {
    if (const int piece = drops_anywhere_[state.to_move]; piece >= 0) {
      const auto to = static_cast<std::uint16_t>(empty.nth(i));
      return Move{to, to, static_cast<std::uint8_t>(piece)};
    }
    return pick_target<true>(state, targets, i);
  };
  collect();
  for (; !state.over && keep_going(plies); ++plies) {
    const int mover = state.to_move;
    const Move move = choose(targets.total, nth);
    put(state, mover, move.piece, move.to);
    state.hash ^= side_key_;
    end_decision(state, mover);
    empty.reset(move.to);
    --empty_count;
    bool collected = false;
    decide_end<true>(
        state, tests_after(state, mover),
        [&] {
          collect();
          collected = true;
          return targets.total > 0;
        },
        nullptr, move.to);
    if (!collected && !state.over) collect();
  }
  return plies;
}

// `nth(i)` is the i-th of the `count` legal moves of `state`, which is not over.
template <int Words>
template <typename NthMove>
[[gnu::always_inline]] inline Move Program<Words>::choose_playout_move(const StateType& state, int count, NthMove&& nth,
                                                                       Rng& rng, const PlayoutPolicy& policy) const {
  Move chosen;
  if (policy.decisive && could_win(state, state.to_move) && find_win(state, chosen)) return chosen;
  if (policy.anti_decisive && turn_ends(state) && could_win(state, next_player(state, state.to_move))) {
    const Board threat = threat_cells(state);
    if (threat.any() && find_safe_move(state, threat, rng, chosen)) return chosen;
  }
  const auto bound = static_cast<std::uint32_t>(count);
  chosen = nth(static_cast<int>(rng.below(bound)));
  if (!policy.move_values) return chosen;
  const Move other = nth(static_cast<int>(rng.below(bound)));
  const float* values = policy.move_values;
  return values[move_key(state.to_move, other)] > values[move_key(state.to_move, chosen)] ? other : chosen;
}

// A bound that holds whenever `player` has a move that wins at once; cheap, so it can be asked every ply.
template <int Words>
inline bool Program<Words>::could_win(const StateType& state, int player) const {
  return (state.by_player[player] & win_from_[player]).any() || drops_may_win_[player] ||
         (wins_by_elimination_[player] && enemies(state, player).count() == 1);
}

template <int Words>
template <typename Visit>
void Program<Words>::for_each_listed_move(const StateType& state, Visit&& visit) const {
  MoveList moves;
  std::vector<GeneralRecord> records;
  list_moves(state, moves, general_ ? &records : nullptr);
  std::size_t record = 0;  // the general moves before `move`
  for (const Move& move : moves)
    if (!visit(move, move.general ? &records[record++] : nullptr)) return;
}

// Calls on_win(move) for each move of the player to move that wins at once, until it returns
// false. Only target cells where a win is possible become moves, and those are tried on a copy
// unless the win is certain.
template <int Words>
template <typename OnWin>
void Program<Words>::for_each_win(const StateType& state, OnWin&& on_win) const {
  const int mover = state.to_move;
  const Board enemy = enemies(state, mover);
  const Board last_enemy = wins_by_elimination_[mover] && enemy.count() == 1 ? enemy : Board{};
  const auto wins = [&](Move move, const GeneralRecord* record = nullptr) {
    StateType after = state;
    apply_remembering(after, move, nullptr, record);
    return after.over && after.winner == mover;
  };
  if (moves_listed_) {  // a chain may win wherever it ends, and not every target is legal: each move is tried
    for_each_listed_move(state,
                         [&](Move move, const GeneralRecord* record) { return !wins(move, record) || on_win(move); });
    return;
  }
  for_each_target_set(state, [&](const TargetSet& set) {
    return for_each_move(state, set, set.targets & (win_cells_[mover][set.piece] | last_enemy),
                         [&](const Move& move) { return (wins_certain_[mover] || wins(move)) ? on_win(move) : true; });
  });
}

template <int Words>
bool Program<Words>::find_win(const StateType& state, Move& win) const {
  bool found = false;
  for_each_win(state, [&](Move move) {
    win = move;
    found = true;
    return false;
  });
  return found;
}

template <int Words>
bool Program<Words>::winning_move(const StateType& state, Move& move) const {
  if (state.over || !could_win(state, state.to_move) || !find_win(state, move)) return false;
  if (move.general) {  // named, for its caller to print
    MoveList named;
    legal_moves(state, named);
  }
  return true;
}

// The cells of the opponent's immediate wins, were it to move: where its winning moves start and
// end. Empty when it has none.
template <int Words>
typename Program<Words>::Board Program<Words>::threat_cells(const StateType& state) const {
  StateType passed = state;
  passed.to_move = static_cast<std::uint8_t>(next_player(state, state.to_move));
  Board cells;
  if (!passed.over && could_win(passed, passed.to_move))
    for_each_win(passed, [&](Move move) {
      if (move.from < cells_) cells.set(move.from);  // a general game rule's move may have no cell
      if (move.to < cells_) cells.set(move.to);
      return true;
    });
  return cells;
}

template <int Words>
bool Program<Words>::opponent_threatens_win(const StateType& state) const {
  return threat_cells(state).any();
}

// A uniformly chosen move after which the opponent cannot win at once; false when every move
// leaves it a win. Asked only when a threat exists. When jumps do not slide, a move that lands
// on none of the threat's cells leaves every threatening jump as it was, so only the moves onto
// those cells are tried (unless the threat is to take the mover's last piece, which any move of
// that piece changes, or the opponent's jumps test other cells, which any move may change). Moves are tried on a copy
// without deciding the end: the "no legal move" test would cost a move generation, and this policy only looks at
// immediate wins.
template <int Words>
bool Program<Words>::find_safe_move(const StateType& state, const Board& threat, Rng& rng, Move& safe) const {
  const int mover = state.to_move;
  const int opponent = next_player(state, mover);
  const bool local = targets_fit_inline_ && !flips_ && guards_[opponent].empty() && !wins_unforeseen_[opponent] &&
                     !(wins_by_elimination_[opponent] && state.by_player[mover].count() == 1);
  const Board candidates = local ? threat : board_;
  MoveList safe_moves;
  const auto try_move = [&](Move move, const GeneralRecord* record) {
    StateType after = state;  // the opponent is to move in it
    play_move(after, move, record);
    Move reply;
    if (!could_win(after, after.to_move) || !find_win(after, reply)) safe_moves.push_back(move);
    return true;
  };
  if (moves_listed_) {
    for_each_listed_move(state, try_move);
  } else {
    MoveList tried;
    for_each_target_set(state, [&](const TargetSet& set) {
      return for_each_move(state, set, set.targets & candidates, [&](const Move& move) {
        tried.push_back(move);
        return true;
      });
    });
    if (jumps_may_repeat_[mover]) remove_repeats(tried);
    for (const Move& move : tried) try_move(move, nullptr);
  }
  if (safe_moves.empty()) return false;
  safe = safe_moves[rng.below(static_cast<std::uint32_t>(safe_moves.size()))];
  return true;
}

template <int Words>
bool Program<Words>::has_targets(const StateType& state) const {
  bool found = false;
  for_each_target_set(state, [&](const TargetSet& set) {
    found = set.shot < 0 ? set.targets.any() : can_shoot(state, set);
    return !found;
  });
  return found || (!hops_[state.to_move].empty() && has_hop(state));
}

// Whether a move of `set` can shoot from some target: a move that must shoot and cannot is no move.
template <int Words>
bool Program<Words>::can_shoot(const StateType& state, const TargetSet& set) const {
  return !for_each_move(state, set, set.targets, [](const Move&) { return false; });
}

template <int Words>
bool Program<Words>::opponent_has_targets(const StateType& state) const {
  if (general_) return others_can_move(state);  // its moves on the board may be general ones (Lines of Action)
  StateType turned = state;
  for (int other = 0; other < players_; ++other) {  // every other player still playing
    if (other == state.to_move || state.is_out(other)) continue;
    turned.to_move = static_cast<std::uint8_t>(other);
    if (has_targets(turned)) return true;
  }
  return false;
}

// With (pass-when-stuck), a player without a move on the board can still pass while its opponent has one.
template <int Words>
bool Program<Words>::has_legal_move(const StateType& state) const {
  if (checks_legality_) {  // list_moves's moves, stopping at the first legal one
    if (state.over) return false;
    MoveList moves;
    std::vector<GeneralRecord> records;
    list_board_moves(state, moves, general_ ? &records : nullptr);
    int first_legal = -1;
    return legal_among(state, moves, records, first_legal);
  }
  return has_targets(state) || swap_available(state) || (pass_when_stuck_ && opponent_has_targets(state)) ||
         (general_ && has_general_move(state));
}

template <int Words>
bool Program<Words>::legal_among(const StateType& state, const MoveList& moves,
                                 const std::vector<GeneralRecord>& records, int& first_legal) const {
  first_legal = -1;
  std::size_t record = 0;
  for (std::size_t i = 0; i < moves.size(); ++i)
    if (legal_after(state, moves[i], moves[i].general ? &records[record++] : nullptr)) {
      first_legal = static_cast<int>(i);
      return true;
    }
  if (swap_available(state) || pass_when_stuck_) return true;
  if (!general_ || !general_->has_fallback()) return false;
  MoveList fallback;  // no legal move of the board: the fallback rules', as list_moves lists them
  general_->list(state, true, general_->asks_others(true) && others_can_move(state), fallback, nullptr, this);
  return !fallback.empty();
}

// ---- end of the game ------------------------------------------------------------------------------

// The first end test that holds decides; with none, a player to move who has no move ends the
// game in a draw. `can_move` answers whether the player to move has a move; it is asked at most once.
template <int Words>
template <bool Extras, typename CanMove>
[[gnu::always_inline]] inline void Program<Words>::decide_end(StateType& state, const std::vector<EndTest>& tests,
                                                              CanMove&& can_move, History* history, int placed) const {
  int moves_left = -1;
  const auto has_moves = [&] {
    if (moves_left < 0) moves_left = can_move();
    return moves_left != 0;
  };
  for (const EndTest& test : tests) {
    if (!end_test_holds<Extras>(state, test, has_moves, history, placed)) continue;
    // Only games of more than two players put players out, and they play with extras: the loop
    // without them keeps can_move out of a call (Breakthrough's playouts took 6% more instructions).
    if constexpr (Extras) {
      if (test.winner == kSubjectOut) {
        if (put_out_and_decide<Extras>(state, tests, test, can_move, history)) return;
        continue;
      }
    }
    state.over = true;
    state.winner = test.winner;
    if (test.winner > kDraw) state.winner = winner_by_count(state, test);
    state.ended_by = test.rule;
    return;
  }
  if (!has_moves()) {
    state.over = true;
    state.winner = kDraw;
    state.ended_by = kEndedByNoMoves;
  }
}

// The winner of an end rule that counts (pieces, areas or counts per cell): the player still
// playing with the largest tally, kDraw when several share it. Out of line: the playout loop, which
// inlines decide_end, meets it once a game at most.
template <int Words>
[[gnu::noinline]] std::int8_t Program<Words>::winner_by_count(const StateType& state, const EndTest& test) const {
  const std::array<int, kMaxPlayers> tally = tallies(state, test.rule);
  int best = -1;
  bool shared = false;
  for (int player = 0; player < players_; ++player) {
    if (state.is_out(player)) continue;
    if (best >= 0 && tally[player] == tally[best]) {
      shared = true;
    } else if (best < 0 || tally[player] > tally[best]) {
      best = player;
      shared = false;
    }
  }
  return static_cast<std::int8_t>(shared || best < 0 ? kDraw : best);
}

// More than two players: the subject of a loss that holds is out, and the end rules are asked again,
// of the player now to move (who may be out too); false when the subject was out already.
template <int Words>
template <bool Extras, typename CanMove>
[[gnu::noinline]] bool Program<Words>::put_out_and_decide(StateType& state, const std::vector<EndTest>& tests,
                                                          const EndTest& test, CanMove& can_move,
                                                          History* history) const {
  const int subject = test.subject == kSubjectToMove ? state.to_move : test.subject;
  if (state.is_out(subject)) return false;
  put_out(state, subject, test.rule);
  restart_history(state, history);
  if (!state.over) decide_end<Extras>(state, tests, can_move, history);
  return true;
}

// Whether `test` holds in `state`; `has_moves()` answers whether the player to move has a move.
template <int Words>
template <bool Extras, typename HasMoves>
[[gnu::always_inline]] inline bool Program<Words>::end_test_holds(const StateType& state, const EndTest& test,
                                                                  HasMoves& has_moves, const History* history,
                                                                  [[maybe_unused]] int placed) const {
  switch (test.kind) {
    case EndKind::Reach: {
      Board pieces = state.by_player[test.subject] & test.region;
      if (test.piece >= 0) pieces &= state.by_piece[test.piece];
      return pieces.any();
    }
    case EndKind::OpponentHasNoPieces:
      return !(Extras ? enemies(state, test.subject) : state.by_player[1 - test.subject]).any();
    case EndKind::NoLegalMoves: return !has_moves();
    case EndKind::PlyLimit: return state.ply >= test.ply_limit;
    default: break;
  }
  if constexpr (!Extras) {
    return false;  // the other kinds are tested only with extras, which a game with them has
  } else {
    switch (test.kind) {
      case EndKind::QuietMoves: return state.quiet_plies >= test.ply_limit;  // counted only with extras
      case EndKind::InARow:
      case EndKind::Connect: {
        Board pieces = state.by_player[test.subject];
        if (test.piece >= 0) pieces &= state.by_piece[test.piece];
        if (test.through_placed && placed >= 0) return has_line_through(pieces, test, placed);
        return test.kind == EndKind::InARow ? has_line(pieces, test) : connects(pieces, test);
      }
      case EndKind::Lost: return !(state.by_player[test.subject] & state.by_piece[test.piece]).any();
      case EndKind::Connected: {
        Board pieces = state.by_player[test.subject];
        if (test.piece >= 0) pieces &= state.by_piece[test.piece];
        return one_group(pieces);
      }
      case EndKind::Compare: return compared(state, test);
      case EndKind::CountIn: {
        int total = 0;
        for (Board cells = test.region; cells.any();) total += state.count(cells.pop_lowest());
        return lang::compare(total, test.comparison, test.value);
      }
      case EndKind::All:
      case EndKind::Any:
        // Inline, with no call and no switch a part: Morris's end rule, (and (= (counter placed) 9)
        // (< (pieces) 3)), asked for both players every ply, took 106 instructions a test in parts_hold.
        if (test.compares) return compares_hold(state, test, end_parts_.data() + test.first_part);
        [[fallthrough]];
      case EndKind::Not: return parts_hold(state, test, has_moves, history);
      case EndKind::Repetition: return repeated(state, test, history);
      case EndKind::InCheck: return in_check(state, test.subject, test.piece);
      default: return false;  // the kinds above
    }
  }
}

template <int Words>
[[gnu::always_inline]] inline bool Program<Words>::compared(const StateType& state, const EndTest& test) {
  const int value =
      test.counter < 0 ? state.by_player[test.subject].count() : state.counters[test.subject][test.counter];
  return lang::compare(value, test.comparison, test.value);
}

template <int Words>
[[gnu::always_inline]] inline bool Program<Words>::compares_hold(const StateType& state, const EndTest& test,
                                                                 const EndTest* parts) {
  const bool all = test.kind == EndKind::All;  // else Any
  for (const EndTest* part = parts; part != parts + test.parts; ++part)
    if (compared(state, *part) != all) return !all;
  return all;
}

template <int Words>
template <typename HasMoves>
bool Program<Words>::parts_hold(const StateType& state, const EndTest& test, HasMoves& has_moves,
                                const History* history) const {
  const auto first = end_parts_.begin() + test.first_part;
  const auto last = first + test.parts;
  // A loop, not std::all_of or any_of, whose predicate stayed a call a part: about half of each
  // part's test (Morris's end rule, an (and ...) of two comparisons asked every ply).
  const auto part_holds = [&](const EndTest& part) __attribute__((always_inline)) {
    return end_test_holds<true>(state, part, has_moves, history);
  };
  if (test.kind == EndKind::Not) return !part_holds(*first);
  const bool all = test.kind == EndKind::All;  // else Any
  for (auto part = first; part != last; ++part)
    if (part_holds(*part) != all) return !all;
  return all;
}

// Whether the position has occurred test.value times, by the game's history (never without one).
template <int Words>
bool Program<Words>::repeated(const StateType& state, const EndTest& test, const History* history) {
  return history && std::count(history->begin(), history->end(), state.hash) >= test.value;
}

// Whether `pieces` hold a line of test.length to test.longest cells (no limit when longest is 0)
// along one of the line directions. run: the cells that start test.length pieces in a row;
// longer: those that start more than test.longest; a line counts only from its first cell.
template <int Words>
bool Program<Words>::has_line(const Board& pieces, const EndTest& test) const {
  const bool linked = !linked_steps_.empty();
  for (int i = 0; i < line_count_; ++i) {
    const LineDirection& line = lines_[static_cast<std::size_t>(i)];
    const auto next = [&](const Board& cells) {
      return linked ? step_linked(cells, static_cast<std::size_t>(i)) : line.next(cells);
    };
    Board run = pieces;
    // A run that ends short ends every longer one: most directions of a sparse board end in a step or two.
    for (int k = 1; k < test.length && run.any(); ++k) run = pieces & next(run);
    if (!test.longest) {
      if (run.any()) return true;
      continue;
    }
    Board longer = run;
    for (int k = test.length; k <= test.longest; ++k) longer = pieces & next(longer);
    const Board previous =
        linked ? step_linked(pieces, static_cast<std::size_t>(line_count_ + i)) : line.previous(pieces);
    if (((run - previous) - longer).any()) return true;
  }
  return false;
}

// Whether `pieces` hold a line of test.length to test.longest cells through `cell`, as has_line
// counts them: the run of pieces through it along each line direction, walked cell by cell, at
// most one cell past the longest that counts each way.
template <int Words>
bool Program<Words>::has_line_through(const Board& pieces, const EndTest& test, int cell) const {
  if (!pieces.test(cell)) return false;
  const int enough = test.longest ? test.longest + 1 : test.length;  // a longer run tells nothing more
  const auto run_from = [&](const std::vector<std::int16_t>& steps) {
    int run = 0;
    for (int at = steps[static_cast<std::size_t>(cell)]; at >= 0 && run < enough && pieces.test(at);
         at = steps[static_cast<std::size_t>(at)])
      ++run;
    return run;
  };
  for (int i = 0; i < line_count_; ++i) {
    if ((pieces & line_segments_[static_cast<std::size_t>(i * cells_ + cell)]).count() <= line_reach_) continue;
    const int run = 1 + run_from(line_steps_[static_cast<std::size_t>(i)]) +
                    run_from(line_steps_[static_cast<std::size_t>(line_count_ + i)]);
    if (run >= test.length && (!test.longest || run <= test.longest)) return true;
  }
  return false;
}

// Where the steps along linked_steps_[direction] from `cells` lead.
template <int Words>
typename Program<Words>::Board Program<Words>::step_linked(const Board& cells, std::size_t direction) const {
  const std::vector<std::int16_t>& next = linked_steps_[direction];
  Board reached;
  for (Board from = cells; from.any();)
    if (const int to = next[static_cast<std::size_t>(from.pop_lowest())]; to >= 0) reached.set(to);
  return reached;
}

template <int Words>
typename Program<Words>::Board Program<Words>::neighbours_of(const Board& cells) const {
  Board next;
  for (int i = 0; i < neighbour_count_; ++i)
    next |= linked_steps_.empty() ? neighbours_[static_cast<std::size_t>(i)].step(cells)
                                  : step_linked(cells, static_cast<std::size_t>(2 * line_count_ + i));
  return next;
}

// Whether a chain of `pieces`, each touching the next, joins test.region to test.other_region: the
// pieces reached from the first region, grown a neighbour at a time, until they touch the other or
// stop growing. Most positions fail the first test (no piece in one of the regions) for free.
template <int Words>
bool Program<Words>::connects(const Board& pieces, const EndTest& test) const {
  if (!(pieces & test.other_region).any()) return false;
  Board reached = pieces & test.region;
  Board frontier = reached;
  while (frontier.any()) {
    if ((reached & test.other_region).any()) return true;
    frontier = (neighbours_of(frontier) & pieces) - reached;
    reached |= frontier;
  }
  return false;
}

template <int Words>
bool Program<Words>::one_group(const Board& pieces) const {
  if (!pieces.any()) return false;
  // Two pieces or more, one of them with no other next to it, are not one group: asked first, since
  // most positions of a game played to join its pieces have such a piece, and asking takes one step.
  if ((pieces - neighbours_of(pieces)).any() && pieces.count() > 1) return false;
  Board start = pieces;
  Board reached;
  reached.set(start.pop_lowest());
  Board frontier = reached;
  while (frontier.any()) {
    frontier = (neighbours_of(frontier) & pieces) - reached;
    reached |= frontier;
  }
  return reached == pieces;
}

template <int Words>
std::array<int, kMaxPlayers> Program<Words>::pieces_counted(const StateType& state) const {
  std::array<int, kMaxPlayers> pieces{};
  for (int player = 0; player < players_; ++player) pieces[player] = state.by_player[player].count();
  return pieces;
}

template <int Words>
std::array<int, kMaxPlayers> Program<Words>::tallies(const StateType& state, int rule) const {
  switch (rules_->end[static_cast<std::size_t>(rule)].outcome) {
    case lang::Outcome::MostPieces: return pieces_counted(state);
    case lang::Outcome::MostArea: return areas(state, rule);
    default: return counted_totals(state, rule);
  }
}

// Tromp-Taylor's count: each player's pieces, and each empty region (its cells joined by the rule's
// steps) that borders pieces of one player only. A region that borders both, or none, is nobody's.
template <int Words>
std::array<int, kMaxPlayers> Program<Words>::areas(const StateType& state, int rule) const {
  const lang::EndRule& scoring = rules_->end[static_cast<std::size_t>(rule)];
  std::array<int, kMaxPlayers> area = pieces_counted(state);
  area[1] += scoring.komi;
  Board unvisited = board_ - state.occupied();
  while (unvisited.any()) {
    std::vector<int> region = {unvisited.pop_lowest()};
    unsigned borders = 0;  // bit p: the region borders a piece of player p
    for (std::size_t i = 0; i < region.size(); ++i)
      for (const lang::Offset step : scoring.area_steps) {
        const int next = rules_->next_cell(region[i], step);
        if (next < 0) continue;
        if (const int owner = owner_at(state, next); owner >= 0) borders |= 1u << owner;
        if (unvisited.test(next)) {
          unvisited.reset(next);
          region.push_back(next);
        }
      }
    if (std::has_single_bit(borders)) area[std::countr_zero(borders)] += static_cast<int>(region.size());
  }
  return area;
}

template <int Words>
int Program<Words>::result(const StateType& state, int player) const {
  if (!state.over) return 0;
  // Two players, or the one player of a puzzle, who loses with no winner (kNoWinner).
  if (players_ <= kPlayers) return state.winner == kDraw ? 0 : state.winner == player ? 1 : -1;
  const std::array<int, kMaxPlayers> standing = standings(state);
  int above = 0, tied = 0;
  for (int other = 0; other < players_; ++other) {
    if (other == player) continue;
    above += standing[other] > standing[player];
    tied += standing[other] == standing[player];
  }
  if (above == 0 && tied == 0) return 1;
  return above == players_ - 1 ? -1 : 0;
}

template <int Words>
std::array<int, kMaxPlayers> Program<Words>::standings(const StateType& state) const {
  const bool by_tally = state.over && state.ended_by >= 0 &&
                        static_cast<std::size_t>(state.ended_by) < rules_->end.size() &&
                        lang::is_most(rules_->end[static_cast<std::size_t>(state.ended_by)].outcome);
  const std::array<int, kMaxPlayers> tally = by_tally ? tallies(state, state.ended_by) : std::array<int, kMaxPlayers>{};
  std::array<int, kMaxPlayers> standing{};
  for (int player = 0; player < players_; ++player) {
    const int playing = kMaxPlayers + 1 + (by_tally ? tally[player] : state.winner == player);  // above any out rank
    standing[player] = state.is_out(player) ? state.out_rank(player) : playing;
  }
  return standing;
}

template <int Words>
int Program<Words>::rank(const StateType& state, int player) const {
  const std::array<int, kMaxPlayers> standing = standings(state);
  int above = 0;
  for (int other = 0; other < players_; ++other) above += standing[other] > standing[player];
  return above + 1;
}

template <int Words>
double Program<Words>::utility(const StateType& state, int player) const {
  if (players_ <= kPlayers) return 0.5 * (result(state, player) + 1);  // what the ranks give, cheaper
  if (!state.over) return 0.5;
  const std::array<int, kMaxPlayers> standing = standings(state);
  double beaten = 0;
  for (int other = 0; other < players_; ++other) {
    if (other == player) continue;
    beaten += standing[player] > standing[other] ? 1.0 : standing[player] == standing[other] ? 0.5 : 0.0;
  }
  return beaten / (players_ - 1);
}

template <int Words>
std::string Program<Words>::end_reason(const StateType& state) const {
  if (!state.over) return "the game is not over";
  const std::string& to_move = rules_->players[state.to_move].name;
  if (state.ended_by == kEndedByNoMoves)
    return fmt::format("{} has no legal move and no end rule applies: a draw", to_move);
  if (state.ended_by == kEndedByForfeit)
    return fmt::format("{} wins, the last player left: the others forfeited or lost",
                       rules_->players[state.winner].name);
  const lang::EndRule& rule = rules_->end[static_cast<std::size_t>(state.ended_by)];
  if (lang::is_most(rule.outcome) && players_ != kPlayers) return ranking_reason(state, rule);
  if (rule.outcome == lang::Outcome::MostPieces) {
    const int first = state.by_player[0].count(), second = state.by_player[1].count();
    const std::string count = fmt::format("{} to {}", std::max(first, second), std::min(first, second));
    if (state.winner == kDraw) return fmt::format("draw by equal pieces, {}, at {}", count, rule.condition_text);
    return fmt::format("{} wins by more pieces, {}, at {}", rules_->players[state.winner].name, count,
                       rule.condition_text);
  }
  if (rule.outcome == lang::Outcome::MostArea) {
    const std::array<int, kMaxPlayers> area = areas(state, state.ended_by);
    const int first = area[0], second = area[1];
    const std::string count = fmt::format("{} {} to {} {} (komi {} included)", rules_->players[0].name, first,
                                          rules_->players[1].name, second, rule.komi);
    if (state.winner == kDraw) return fmt::format("draw by equal areas, {}, at {}", count, rule.condition_text);
    return fmt::format("{} wins by the larger area, {}, at {}", rules_->players[state.winner].name, count,
                       rule.condition_text);
  }
  if (rule.outcome == lang::Outcome::MostCount) {
    const std::array<int, kMaxPlayers> total = counted_totals(state, state.ended_by);
    const int first = total[0], second = total[1];
    const std::string count =
        fmt::format("{} {} to {} {}", rules_->players[0].name, first, rules_->players[1].name, second);
    if (state.winner == kDraw) return fmt::format("draw by equal counts, {}, at {}", count, rule.condition_text);
    return fmt::format("{} wins by the larger count, {}, at {}", rules_->players[state.winner].name, count,
                       rule.condition_text);
  }
  if (state.winner == kDraw) return fmt::format("draw by {}", rule.condition_text);
  if (players_ > kPlayers && rule.outcome == lang::Outcome::Loss) {
    int last_out = 0;
    for (int player = 0; player < players_; ++player)
      if (state.out_rank(player) > state.out_rank(last_out)) last_out = player;
    return fmt::format("{} wins, the last player left: {} loses by {}", rules_->players[state.winner].name,
                       rules_->players[last_out].name, rule.condition_text);
  }
  const int subject = rule.outcome == lang::Outcome::Win ? state.winner : players_ == 1 ? 0 : 1 - state.winner;
  return fmt::format("{} {} by {}", rules_->players[subject].name,
                     rule.outcome == lang::Outcome::Win ? "wins" : "loses", rule.condition_text);
}

// The end by a "most" rule of a game of one player or more than two: who came first, and every
// player's tally ("out" for those out before the end).
template <int Words>
std::string Program<Words>::ranking_reason(const StateType& state, const lang::EndRule& rule) const {
  const std::array<int, kMaxPlayers> tally = tallies(state, state.ended_by);
  const std::array<int, kMaxPlayers> standing = standings(state);
  const int best = *std::max_element(standing.begin(), standing.begin() + players_);
  std::string first, counts;
  for (int player = 0; player < players_; ++player) {
    const std::string& name = rules_->players[static_cast<std::size_t>(player)].name;
    counts += fmt::format("{}{} {}", counts.empty() ? "" : ", ", name,
                          state.is_out(player) ? "out" : std::to_string(tally[player]));
    if (standing[player] == best) first += (first.empty() ? "" : " and ") + name;
  }
  const std::string_view tallied = rule.outcome == lang::Outcome::MostPieces ? "pieces"
                                   : rule.outcome == lang::Outcome::MostArea ? "area"
                                                                             : "count";
  return fmt::format("{} {} by {}, {}, at {}", first, state.winner == kDraw ? "share the first place" : "wins", tallied,
                     counts, rule.condition_text);
}

// ---- text -----------------------------------------------------------------------------------------

template <int Words>
std::string Program<Words>::move_text(Move move) const {
  if (move.general) {
    const std::string text = general_->text(move);
    // A move no listing gave (none of the public calls): its cells and fingerprint, unambiguous.
    return text.empty() ? fmt::format("{}-{}#{:016x}", move.from, move.to, move.jumped) : text;
  }
  if (is_pass(move)) return "pass";
  if (is_swap(move)) return "swap";
  if (move.is_drop())
    return drops_name_piece_ ? fmt::format("{}@{}", rules_->pieces[move.piece].code, lang::cell_name(move.to, width_))
                             : lang::cell_name(move.to, width_);
  if (move.jumped) {
    std::string text = lang::cell_name(move.from, width_);
    for (const int cell : chain_landings(move)) text += "x" + lang::cell_name(cell, width_);
    return text;
  }
  const std::string shot = move.has_shot() ? "/" + lang::cell_name(move.shot, width_) : "";
  return fmt::format("{}{}{}{}", lang::cell_name(move.from, width_), move.capture ? 'x' : '-',
                     lang::cell_name(move.to, width_), shot);
}

// The cells a chain of hops lands on, in order, its end last: a path from move.from over every
// cell of move.jumped to move.to. Of two paths over the same pieces (around a loop either way),
// the first found.
template <int Words>
std::vector<int> Program<Words>::chain_landings(Move move) const {
  std::vector<int> landings;
  const auto search = [&](const auto& self, int at, std::uint64_t left) -> bool {
    if (!left) return at == move.to;
    for (const auto& hops : hops_)
      for (const Hop& hop : hops) {
        const int over = at + hop.delta();
        if (hop.piece != move.piece || !hop.from_mask.test(at) || !(left >> over & 1)) continue;
        landings.push_back(over + hop.delta());
        if (self(self, over + hop.delta(), left & ~(std::uint64_t{1} << over))) return true;
        landings.pop_back();
      }
    return false;
  };
  if (!search(search, move.from, move.jumped)) landings = {move.to};
  return landings;
}

// Why `name`, read as `cell` (-1 when it is none), names no cell of the board; "" when it names one.
template <int Words>
std::string Program<Words>::not_a_cell(std::string_view name, int cell) const {
  if (cell < 0) return fmt::format("'{}' is not a cell of this {}x{} board", name, width_, height_);
  if (!board_.test(cell)) return fmt::format("'{}' is a hole of the board", name);
  return {};
}

// Splits move text into its cells: a cell is a letter and digits; cells are separated by '-', 'x'
// or nothing. A separator 'x' is told from column x by what follows: a cell's letter is followed
// by a digit. Returns no cells when some piece of the text is not a cell's shape.
static std::vector<std::string_view> cells_of(std::string_view text) {
  std::vector<std::string_view> cells;
  std::size_t at = 0;
  while (at < text.size()) {
    std::size_t end = at + 1;
    while (end < text.size() && std::isdigit(static_cast<unsigned char>(text[end]))) ++end;
    if (end - at < 2) return {};
    cells.push_back(text.substr(at, end - at));
    at = end;
    const bool separator =
        at < text.size() && (text[at] == '-' || (text[at] == 'x' && at + 1 < text.size() &&
                                                 !std::isdigit(static_cast<unsigned char>(text[at + 1]))));
    if (separator && ++at == text.size()) return {};  // nothing after the separator
  }
  return cells;
}

template <int Words>
ParsedMove Program<Words>::parse_move(const StateType& state, std::string_view text) const {
  const auto fail = [&](std::string error) { return ParsedMove{{}, std::move(error)}; };
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  if (general_ && !state.over) {  // a general move's text as listed; abbreviations are read below
    MoveList moves;
    legal_moves(state, moves);
    for (const Move& move : moves)
      if (move.general && general_->text(move) == text) return ParsedMove{move, {}};
  }
  if (text == "pass") return parse_pass(state);
  if (text == "swap") return parse_swap(state);
  // A shot follows the move after a '/': d1-d7/g7.
  const std::size_t slash = text.find('/');
  const std::string_view shot = slash == std::string_view::npos ? std::string_view() : text.substr(slash + 1);
  const std::string_view whole = text;
  text = text.substr(0, slash);
  const std::size_t at = text.find('@');  // "L@c3", "DK@c3": a drop naming the piece
  const bool placed = at != std::string_view::npos && at > 0 && at + 1 < text.size();
  const std::vector<std::string_view> names = placed ? std::vector<std::string_view>{} : cells_of(text);
  if ((placed || names.size() == 1) && slash != std::string_view::npos)
    return fail(fmt::format("'{}': a placed piece shoots nothing; write the drop without '/{}'", whole, shot));
  if (placed) return parse_drop(state, text.substr(at + 1), text.substr(0, at));
  if (names.size() == 1) return parse_drop(state, names.front(), {});
  if (names.empty()) {
    const bool moves_pieces = !jumps_[0].empty() || !jumps_[1].empty() || !hops_[0].empty() || !hops_[1].empty();
    return fail(fmt::format("'{}' is not a move; write it as {}, e.g. {}", text,
                            moves_pieces ? "from-to" : "the cell to place a piece on",
                            move_text(Move{0, static_cast<std::uint16_t>(moves_pieces ? width_ : 0), 0, false})));
  }
  std::vector<int> cells;
  for (const std::string_view name : names) {
    cells.push_back(lang::parse_cell(name, width_, height_));
    if (std::string error = not_a_cell(name, cells.back()); !error.empty()) return fail(std::move(error));
  }
  if (state.over) return fail("the game is over");
  MoveList moves;
  legal_moves(state, moves);
  const int from = cells.front(), to = cells.back();
  const auto goes = [&](const Move& move) { return move.from == from && move.to == to; };
  if ((shoots_ || slash != std::string_view::npos) && cells.size() == 2 &&
      std::any_of(moves.begin(), moves.end(), goes))
    return slash == std::string_view::npos ? parse_unshot(moves, from, to, text) : parse_shot(moves, from, to, shot);
  // A path of more than two cells names the pieces it jumps: the cells halfway between its landings.
  std::uint64_t jumped = 0;
  for (std::size_t i = 1; i < cells.size() && cells.size() > 2; ++i) {
    const int column = cells[i - 1] % width_ + cells[i] % width_, row = cells[i - 1] / width_ + cells[i] / width_;
    if (column % 2 || row % 2) return fail(fmt::format("{} to {} is not a jump over one cell", names[i - 1], names[i]));
    if (const int over = row / 2 * width_ + column / 2; over < 64) jumped |= std::uint64_t{1} << over;
  }
  MoveList matching;
  for (const Move& move : moves)
    if (move.from == from && move.to == to && (cells.size() == 2 || (move.jumped && move.jumped == jumped)))
      matching.push_back(move);
  if (matching.size() == 1) return ParsedMove{matching.front(), {}};
  if (matching.size() > 1)
    return fail(fmt::format("{} names more than one move: write the cells it jumps to, {} or {}", text,
                            move_text(matching[0]), move_text(matching[1])));
  const std::string& player = rules_->players[state.to_move].name;
  if (!state.by_player[state.to_move].test(from))
    return fail(fmt::format("{} has no piece on {}", player, names.front()));
  if (must_capture_ && moves.front().capture) {  // then every move captures
    std::string captures;
    for (const Move& move : moves) captures += fmt::format("{}{}", captures.empty() ? "" : " ", move_text(move));
    return fail(fmt::format("{} is not a legal move for {}; capturing {}is compulsory: {} must play {}{}", text, player,
                            capture_most_ ? "the most pieces " : "", player, moves.size() == 1 ? "" : "one of ",
                            captures));
  }
  std::string options;
  int listed_to = -1;
  for (const Move& move : moves)
    if (move.from == from && (!move.has_shot() || move.to != listed_to)) {  // a move with shots is listed once
      listed_to = move.to;
      Move shown = move;
      shown.shot = kNoShot;
      options += fmt::format("{}{}", options.empty() ? "" : " ", move_text(shown));
    }
  return fail(fmt::format("{} is not a legal move for {}; {}", text, player,
                          options.empty() ? fmt::format("the piece on {} cannot move", names.front())
                                          : "the piece there can play " + options));
}

// The move from `from` to `to` among `moves` when its text names no shot: legal if the move has no
// second part.
template <int Words>
ParsedMove Program<Words>::parse_unshot(const MoveList& moves, int from, int to, std::string_view text) const {
  const auto goes = [&](const Move& move) { return move.from == from && move.to == to; };
  // The same cells may be a move without a shot and one with (two rules of a piece).
  const auto unshot =
      std::find_if(moves.begin(), moves.end(), [&](const Move& move) { return goes(move) && !move.has_shot(); });
  if (unshot != moves.end()) return ParsedMove{*unshot, {}};
  const auto found = std::find_if(moves.begin(), moves.end(), goes);
  return ParsedMove{{},
                    fmt::format("{} goes on with a shot from {}: write where it shoots after a '/', e.g. {}", text,
                                lang::cell_name(to, width_), move_text(*found))};
}

// The move from `from` to `to` among `moves` that shoots to the cell named `shot`.
template <int Words>
ParsedMove Program<Words>::parse_shot(const MoveList& moves, int from, int to, std::string_view shot) const {
  const auto fail = [&](std::string error) { return ParsedMove{{}, std::move(error)}; };
  const std::string move = lang::cell_name(from, width_) + "-" + lang::cell_name(to, width_);
  if (!shoots_) return fail(fmt::format("moves shoot nothing in this game; write {} without '/{}'", move, shot));
  const int cell = lang::parse_cell(shot, width_, height_);
  if (std::string error = not_a_cell(shot, cell); !error.empty()) return fail(std::move(error));
  std::string cells;
  for (const Move& candidate : moves)
    if (candidate.from == from && candidate.to == to) {
      if (candidate.shot == cell) return ParsedMove{candidate, {}};
      if (candidate.has_shot())
        cells += fmt::format("{}{}", cells.empty() ? "" : " ", lang::cell_name(candidate.shot, width_));
    }
  if (cells.empty()) return fail(fmt::format("{} shoots nothing; write it without '/{}'", move, shot));
  return fail(fmt::format("after {} the piece cannot shoot to {}; it can shoot to {}", move, shot, cells));
}

template <int Words>
ParsedMove Program<Words>::parse_pass(const StateType& state) const {
  if (!pass_when_stuck_) return ParsedMove{{}, "this game has no passing: a player always has a move or the game ends"};
  if (state.over) return ParsedMove{{}, "the game is over"};
  MoveList moves;
  legal_moves(state, moves);
  if (is_pass(moves.front())) return ParsedMove{moves.front(), {}};
  return ParsedMove{
      {},
      fmt::format("{} cannot pass: a player passes only when it has no other move, and {} has "
                  "{} (e.g. {})",
                  rules_->players[state.to_move].name, rules_->players[state.to_move].name,
                  moves.size() == 1 ? "one" : std::to_string(moves.size()) + " moves", move_text(moves.front()))};
}

template <int Words>
ParsedMove Program<Words>::parse_swap(const StateType& state) const {
  if (!swap_rule_) return ParsedMove{{}, "this game has no swap: it has no (swap-rule)"};
  if (state.over) return ParsedMove{{}, "the game is over"};
  if (swap_available(state)) return ParsedMove{swap_move(), {}};
  return ParsedMove{{},
                    fmt::format("{} cannot swap: the swap is only the second player's first move, at ply 1 (this is "
                                "ply {})",
                                rules_->players[state.to_move].name, state.ply)};
}

// A cell alone names a drop onto it; "L@c3" a drop of the piece with code L (needed when a player
// can drop more than one piece type on a cell). `code` is empty when none is given.
template <int Words>
ParsedMove Program<Words>::parse_drop(const StateType& state, std::string_view text, std::string_view code) const {
  const auto fail = [&](std::string error) { return ParsedMove{{}, std::move(error)}; };
  const int cell = lang::parse_cell(text, width_, height_);
  if (std::string error = not_a_cell(text, cell); !error.empty()) return fail(std::move(error));
  if (state.over) return fail("the game is over");
  MoveList moves;
  legal_moves(state, moves);
  const int named = code.empty() ? -1 : lang::piece_of_code(*rules_, code);
  moves.erase(std::remove_if(moves.begin(), moves.end(),
                             [&](const Move& move) {
                               return !move.is_drop() || move.to != cell || (!code.empty() && move.piece != named);
                             }),
              moves.end());
  if (moves.size() == 1) return ParsedMove{moves.front(), {}};
  if (moves.size() > 1)
    return fail(fmt::format("more than one piece can be placed on {}: write {} or {}", text, move_text(moves[0]),
                            move_text(moves[1])));
  const std::string& player = rules_->players[state.to_move].name;
  // A rule in core forms that places (`new`) may apply in another phase: then the move is only not legal now.
  if (drops_[state.to_move].empty() && !(general_ && general_->entering_pieces().any()))
    return fail(fmt::format("{} places no pieces in this game; write a move as from-to, e.g. {}", player,
                            move_text(Move{0, static_cast<std::uint16_t>(width_), 0, false})));
  if (pass_when_stuck_ && !has_targets(state))
    return fail(fmt::format("{} is not a legal move for {}; {} has no move on the board and must pass: write pass",
                            text, player, player));
  return fail(fmt::format("{} is not a legal move for {}; {}", text, player,
                          state.occupied().test(cell) ? fmt::format("{} is not empty", text)
                                                      : fmt::format("no piece can be placed on {} now", text)));
}

template <int Words>
std::string Program<Words>::position_text(const StateType& state) const {
  std::string text;
  for (int row = height_ - 1; row >= 0; --row) {
    int empties = 0;
    for (int column = 0; column < width_; ++column) {
      const std::string symbol = cell_text(state, row * width_ + column, true);
      if (symbol == ".") {
        ++empties;
        continue;
      }
      if (empties) text += std::to_string(empties);
      empties = 0;
      text += symbol;
    }
    if (empties) text += std::to_string(empties);
    if (row) text += '/';
  }
  // A game of turns of several decisions shows those left to the player to move: "Black:2".
  std::string side = rules_->players[state.to_move].name;
  if (!actions_keys_.empty()) side += fmt::format(":{}", state.actions_left);
  // A game that counts quiet plies shows the count: the draw depends on it. Counters come last.
  text = fmt::format("{} {} {}", text, side, state.ply);
  if (counts_quiet_) text += fmt::format(" {}", state.quiet_plies);
  if (!phase_keys_.empty()) text += " phase=" + rules_->phases[state.phase].name;
  for (std::size_t counter = 0; counter < rules_->counters.size(); ++counter) {
    text += fmt::format(" {}=", rules_->counters[counter].name);
    for (int player = 0; player < players_; ++player)
      text += fmt::format("{}{}", player ? "," : "", state.counters[player][counter]);
  }
  // Then the attributes, NAME=a1,e1 (the cells of the pieces that have it), and the registers, NAME=e3.
  for (const auto& [name, value] : mark_texts(state)) text += fmt::format(" {}={}", name, value);
  if (!rules_->hands.empty()) text += " hand=" + hand_text(state);
  if (rules_->keeps_counts) text += " counts=" + counts_text(state);
  // The players out come last, as the parser reads them. The one player of a puzzle is out only
  // when it lost, which the position shows again when read.
  if (state.out_order && players_ > kPlayers) text += " out=" + out_text(state);
  return text;
}

// The pieces in hand as shogi's SFEN writes them: per player (the first in upper case; with more
// than two, as the board writes them, "P3"), per type in
// (hands ...) order, the count before the letter when above one; "-" when both hands are empty.
template <int Words>
std::string Program<Words>::hand_text(const StateType& state) const {
  std::string text;
  for (int player = 0; player < players_; ++player)
    for (std::size_t slot = 0; slot < rules_->hands.size(); ++slot) {
      const int count = state.hands[player][slot];
      if (count > 1) text += std::to_string(count);
      if (count > 0)
        text += lang::piece_text(rules_->pieces[static_cast<std::size_t>(rules_->hands[slot])].code, player, players_);
    }
  return text.empty() ? "-" : text;
}

// The value of hand=... in position text, as hand_text writes it, into `state`; what is wrong, or nothing.
template <int Words>
std::string Program<Words>::parse_hand(StateType& state, std::string_view text) const {
  const auto fail = [&](std::string_view why) {
    const std::string pieces = players_ > kPlayers
                                   ? "as on the board, a letter then its player's number"
                                   : fmt::format("as letters, {}'s in upper case", rules_->players[0].name);
    return fmt::format(
        "'hand={}' {}; write each player's pieces in hand {}, a count before a letter held more than once "
        "({}), or hand=-",
        text, why, pieces, players_ > kPlayers ? "hand=2P1P3" : "hand=2Ce");
  };
  for (std::size_t i = 0; i < text.size() && text != "-";) {
    int count = 1;
    if (std::isdigit(static_cast<unsigned char>(text[i]))) {
      const auto [end, error] = std::from_chars(text.data() + i, text.data() + text.size(), count);
      i = static_cast<std::size_t>(end - text.data());
      if (error != std::errc() || count < 2 || count > lang::kMaxHandCount || i == text.size())
        return fail(fmt::format("has a count that is not from 2 to {} before a letter", lang::kMaxHandCount));
    }
    auto [written, owner] = piece_written_at(text, i);
    const int piece = owner < 0 ? -1 : lang::piece_of_code(*rules_, written);
    const auto slot = std::find(rules_->hands.begin(), rules_->hands.end(), piece);
    if (piece < 0 || slot == rules_->hands.end())
      return fail(fmt::format("names '{}', which is not a piece of (hands ...)", written));
    if (players_ > kPlayers) {  // the code, then the player's number, as on the board
      owner = owner == 0 ? player_number_at(text, i) : -1;
      if (owner < 0) return fail(no_player_number(written, piece));
    }
    state.hands[owner][static_cast<std::size_t>(slot - rules_->hands.begin())] = static_cast<std::uint8_t>(count);
  }
  return {};
}

template <int Words>
std::vector<std::pair<std::string, std::string>> Program<Words>::mark_texts(const StateType& state) const {
  std::vector<std::pair<std::string, std::string>> texts;
  for (std::size_t attribute = 0; attribute < rules_->attributes.size(); ++attribute) {
    std::string cells;
    for (Board held = state.attributes[attribute]; held.any();)
      cells.append(cells.empty() ? "" : ",").append(lang::cell_name(held.pop_lowest(), width_));
    texts.emplace_back(rules_->attributes[attribute].name, cells.empty() ? "-" : cells);
  }
  for (std::size_t reg = 0; reg < rules_->registers.size(); ++reg) {
    const int held = state.registers[reg];
    texts.emplace_back(rules_->registers[reg].name, held > 0 ? lang::cell_name(held - 1, width_) : "-");
  }
  return texts;
}

// An attribute or a register of position text (NAME=CELL,CELL... or NAME=-), or else a counter,
// into `state`; what is wrong with it, or nothing.
template <int Words>
std::string Program<Words>::parse_mark(StateType& state, std::string_view text) const {
  const std::size_t equals = text.find('=');
  const std::string_view name = text.substr(0, equals);
  const std::string_view value = text.substr(equals + 1);
  const auto cell_of = [&](std::string_view cell_text) { return lang::parse_cell(cell_text, width_, height_); };
  for (std::size_t attribute = 0; attribute < rules_->attributes.size(); ++attribute) {
    if (rules_->attributes[attribute].name != name) continue;
    for (std::string_view rest = value == "-" ? std::string_view() : value; !rest.empty();) {
      const std::string_view cell_text = rest.substr(0, rest.find(','));
      const int cell = cell_of(cell_text);
      if (cell < 0 || !board_.test(cell) || !state.pieces().test(cell))
        return fmt::format("'{}' gives the attribute {} to {}, which is not a piece on the board", text, name,
                           cell_text);
      state.attributes[attribute].set(cell);
      rest.remove_prefix(std::min(rest.size(), cell_text.size() + 1));
    }
    return {};
  }
  if (name == "hand" && !rules_->hands.empty()) return parse_hand(state, value);
  if (name == "counts" && rules_->keeps_counts) return parse_counts(state, value);
  for (std::size_t reg = 0; reg < rules_->registers.size(); ++reg) {
    if (rules_->registers[reg].name != name) continue;
    const int cell = value == "-" ? -1 : cell_of(value);
    if (value != "-" && (cell < 0 || !board_.test(cell)))
      return fmt::format("'{}' does not give the register {} a cell of the board, or '-'", text, name);
    state.registers[reg] = static_cast<std::int16_t>(cell + 1);
    return {};
  }
  return parse_counter(state, text);
}

// A counter of position text, NAME=FIRST,SECOND (each player's value), into `state`; what is wrong
// with it, or nothing.
template <int Words>
std::string Program<Words>::parse_counter(StateType& state, std::string_view text) const {
  const std::size_t equals = text.find('=');
  const std::string_view name = text.substr(0, equals);
  const auto declared = std::find_if(rules_->counters.begin(), rules_->counters.end(),
                                     [&](const lang::Counter& counter) { return counter.name == name; });
  if (declared == rules_->counters.end()) return fmt::format("'{}' is not a counter of this game", name);
  const auto counter = static_cast<std::size_t>(declared - rules_->counters.begin());
  std::string_view values = text.substr(equals + 1);
  for (int player = 0; player < players_; ++player) {
    const std::string_view value = values.substr(0, values.find(','));
    int parsed = 0;
    const auto [end, error] = std::from_chars(value.data(), value.data() + value.size(), parsed);
    if (error != std::errc() || end != value.data() + value.size() || parsed < declared->low ||
        parsed > declared->high || (player == players_ - 1) != (value.size() == values.size())) {
      std::string owners;  // "White's and Black's", "Red's, Green's and Blue's"
      for (int owner = 0; owner < players_; ++owner)
        owners += fmt::format("{}{}'s",
                              owner == 0              ? ""
                              : owner == players_ - 1 ? " and "
                                                      : ", ",
                              rules_->players[static_cast<std::size_t>(owner)].name);
      const std::string numbers = players_ == 1          ? "one number"
                                  : players_ == kPlayers ? "two numbers"
                                                         : fmt::format("{} numbers", players_);
      return fmt::format("'{}' does not give the counter {} as {} from {} to {}, {}", text, name, numbers,
                         declared->low, declared->high, owners);
    }
    state.counters[player][counter] = static_cast<std::int16_t>(parsed);
    values.remove_prefix(std::min(values.size(), value.size() + 1));
  }
  for (int player = 1; player < players_ && declared->shared; ++player)
    if (state.counters[player][counter] != state.counters[0][counter])
      return fmt::format("'{}' gives the shared counter {} different values; it has one, written for each player", text,
                         name);
  return {};
}

template <int Words>
ParsedState<Words> Program<Words>::parse_position(std::string_view text) const {
  ParsedState<Words> parsed;
  const auto fail = [&](const std::string& error) {
    parsed.error = error;
    return parsed;
  };
  StateType& state = parsed.state;
  const std::size_t space = text.find(' ');
  const std::string_view board = text.substr(0, space);
  int row = height_ - 1, column = 0;
  // A hole is written kHoleSymbol, and only a hole: what stands for the next `count` cells is
  // refused if it says otherwise.
  const auto misplaced = [&](int count, bool hole) -> std::string {
    for (int cell = row * width_ + column; cell < row * width_ + column + count; ++cell)
      if (board_.test(cell) == hole)
        return hole ? fmt::format("'{}' marks a hole, and {} is not one", kHoleSymbol, lang::cell_name(cell, width_))
                    : fmt::format("{} is a hole of the board: write it '{}'", lang::cell_name(cell, width_),
                                  kHoleSymbol);
    return {};
  };
  for (std::size_t i = 0; i < board.size(); ++i) {
    const char c = board[i];
    if (c == '/') {
      if (column != width_) return fail(fmt::format("row {} has {} cells, not {}", row + 1, column, width_));
      if (--row < 0) return fail(fmt::format("more than {} rows", height_));
      column = 0;
    } else if (std::isdigit(static_cast<unsigned char>(c))) {
      int run = 0;
      const auto [end, error] = std::from_chars(board.data() + i, board.data() + board.size(), run);
      if (error != std::errc() || run < 1) return fail(fmt::format("bad count of empty cells in row {}", row + 1));
      i = static_cast<std::size_t>(end - board.data()) - 1;
      if (column + run > width_) return fail(fmt::format("row {} has more than {} cells", row + 1, width_));
      if (std::string error = misplaced(run, false); !error.empty()) return fail(error);
      column += run;
    } else if (c == kBlockedSymbol || c == kHoleSymbol) {
      if (c == kBlockedSymbol && !shoots_)
        return fail(fmt::format("'{}' is a blocked cell, and no move blocks cells in this game", c));
      if (column >= width_) return fail(fmt::format("row {} has more than {} cells", row + 1, width_));
      if (std::string error = misplaced(1, c == kHoleSymbol); !error.empty()) return fail(error);
      if (c == kBlockedSymbol) state.blocked.set(row * width_ + column);
      ++column;
    } else {
      auto [written, owner] = piece_written_at(board, i);
      if (written.starts_with('['))  // only an unclosed bracket keeps its '['
        return fail(fmt::format("'{}' opens a piece's code that no ']' closes in row {}",
                                written.substr(0, written.find('/')), row + 1));
      const int piece = owner < 0 ? -1 : lang::piece_of_code(*rules_, written);
      if (piece < 0) return fail(fmt::format("'{}' is not a piece of this game", written));
      if (column >= width_) return fail(fmt::format("row {} has more than {} cells", row + 1, width_));
      if (std::string error = misplaced(1, false); !error.empty()) return fail(error);
      if (players_ > kPlayers) {  // the code, then the player's number
        owner = owner == 0 ? player_number_at(board, i) : -1;
        if (owner < 0) return fail(no_player_number(written, piece));
      }
      --i;  // the loop steps past the piece's last character
      put(state, owner, piece, row * width_ + column++);
    }
  }
  if (row != 0) return fail(fmt::format("the board must have {} rows of {} cells", height_, width_));
  if (column != width_) return fail(fmt::format("row 1 has {} cells, not {}", column, width_));
  std::string_view rest = space == std::string_view::npos ? std::string_view() : text.substr(space + 1);
  // Counters, attributes and registers come last; a counter not written is at the low end of its
  // range, an attribute not written on no piece, a register not written empty.
  reset_counters(state);
  // With more than two players, those out, last: "out=Red,Black".
  if (const std::size_t last = rest.rfind(' ');
      players_ > kPlayers && last != std::string_view::npos && rest.substr(last + 1).starts_with("out=")) {
    if (std::string error = parse_out(state, rest.substr(last + 5)); !error.empty()) return fail(error);
    rest = rest.substr(0, last);
  }
  // Each NAME=... word from the end, but the phase, which comes before them.
  const auto is_mark = [&](std::size_t last) {
    return last != std::string_view::npos && rest.find('=', last) != std::string_view::npos &&
           !rest.substr(last + 1).starts_with("phase=");
  };
  for (std::size_t last = rest.rfind(' '); is_mark(last); last = rest.rfind(' ')) {
    if (std::string error = parse_mark(state, rest.substr(last + 1)); !error.empty()) return fail(error);
    rest = rest.substr(0, last);
  }
  // A game with phases: the phase, after the ply count and before the counters.
  if (const std::size_t last = rest.rfind(' '); !phase_keys_.empty()) {
    const std::string_view given = last == std::string_view::npos ? std::string_view() : rest.substr(last + 1);
    const auto phase = std::find_if(rules_->phases.begin(), rules_->phases.end(),
                                    [&](const lang::Phase& known) { return given == "phase=" + known.name; });
    if (phase == rules_->phases.end())
      return fail(fmt::format("expected the phase after the ply count, e.g. 'phase={}'", rules_->phases[0].name));
    state.phase = static_cast<std::uint8_t>(phase - rules_->phases.begin());
    rest = rest.substr(0, last);
  }
  std::string_view side = rest.substr(0, rest.find(' '));
  if (const std::size_t colon = side.find(':'); colon != std::string_view::npos) {
    const std::string_view left = side.substr(colon + 1);
    side = side.substr(0, colon);
    const auto [end, error] = std::from_chars(left.data(), left.data() + left.size(), state.actions_left);
    if (actions_keys_.empty() || error != std::errc() || end != left.data() + left.size() || state.actions_left < 1 ||
        state.actions_left > std::max(rules_->turn_actions, rules_->first_turn_actions))
      return fail(fmt::format("'{}' after the player to move is not a count of the decisions left in its turn{}", left,
                              actions_keys_.empty() ? " (every turn of this game is one move)" : ""));
  } else if (!actions_keys_.empty()) {
    return fail(fmt::format("expected the player to move and the decisions left in its turn, e.g. '{}:{}'",
                            rules_->players[0].name, rules_->turn_actions));
  }
  const std::vector<std::string> names = lang::player_names(*rules_);
  const auto named = std::find(names.begin(), names.end(), side);
  if (named == names.end())
    return fail(fmt::format("expected the player to move ({}) after the board", or_list(names)));
  state.to_move = static_cast<std::uint8_t>(named - names.begin());
  if (state.is_out(state.to_move))
    return fail(fmt::format("{} is out, and cannot be the player to move", rules_->players[state.to_move].name));
  if (const std::size_t ply_at = rest.find(' '); ply_at != std::string_view::npos) {
    std::string_view ply = rest.substr(ply_at + 1);
    std::string_view quiet;
    if (const std::size_t quiet_at = ply.find(' '); counts_quiet_ && quiet_at != std::string_view::npos) {
      quiet = ply.substr(quiet_at + 1);
      ply = ply.substr(0, quiet_at);
    }
    const auto [end, error] = std::from_chars(ply.data(), ply.data() + ply.size(), state.ply);
    if (error != std::errc() || end != ply.data() + ply.size())
      return fail(fmt::format("'{}' is not a ply count", ply));
    const auto [quiet_end, quiet_error] = std::from_chars(quiet.data(), quiet.data() + quiet.size(), state.quiet_plies);
    if (!quiet.empty() && (quiet_error != std::errc() || quiet_end != quiet.data() + quiet.size()))
      return fail(fmt::format("'{}' is not a count of quiet plies", quiet));
  }
  state.hash = full_hash(state);
  // The others out, one player left has won (put_out); which rule put the last one out, the text
  // does not keep: the end reads as theirs forfeited or lost.
  int left = -1, in_play = 0;
  for (int player = 0; player < players_; ++player) {
    if (state.is_out(player)) continue;
    left = player;
    ++in_play;
  }
  if (players_ > kPlayers && in_play == 1) {
    state.over = true;
    state.winner = static_cast<std::int8_t>(left);
    state.ended_by = kEndedByForfeit;
    return parsed;
  }
  decide_end_of_position(state, nullptr);
  return parsed;
}

// The players out, in the order they went out: "Red,Black".
template <int Words>
std::string Program<Words>::out_text(const StateType& state) const {
  std::vector<std::string> out(static_cast<std::size_t>(players_));
  for (int player = 0; player < players_; ++player)
    if (state.is_out(player)) out[static_cast<std::size_t>(state.out_rank(player) - 1)] = rules_->players[player].name;
  std::string text;
  for (const std::string& name : out)
    if (!name.empty()) text += (text.empty() ? "" : ",") + name;
  return text;
}

template <int Words>
std::string Program<Words>::parse_out(StateType& state, std::string_view text) const {
  int out = 0;
  for (std::string_view rest = text; !rest.empty();) {
    const std::string_view name = rest.substr(0, rest.find(','));
    const int player = lang::player_index(*rules_, name);
    if (player < 0 || state.is_out(player) || out + 1 >= players_)
      return fmt::format("'{}' is not a list of the players out, in the order they went out, e.g. 'out={}'", text,
                         rules_->players[players_ - 1].name);
    state.out_order |= static_cast<std::uint32_t>(++out) << (4 * player);
    rest.remove_prefix(std::min(rest.size(), name.size() + 1));
  }
  return {};
}

// A cell as position text (bracketed) and diagrams write it: its piece (lang::piece_text: "P", "p", "[DK]", with
// more than two players "P3"), kBlockedSymbol for a blocked cell, kHoleSymbol for a hole, '.' for an
// empty cell.
template <int Words>
std::string Program<Words>::cell_text(const StateType& state, int cell, bool bracketed) const {
  if (state.blocked.test(cell)) return std::string(1, kBlockedSymbol);
  if (!board_.test(cell)) return std::string(1, kHoleSymbol);
  const int owner = owner_at(state, cell);
  if (owner < 0) return ".";
  return lang::piece_text(rules_->pieces[static_cast<std::size_t>(piece_at(state, owner, cell))].code, owner, players_,
                          bracketed);
}

// The piece written at text[i] in position text, and i moved past it: its code, and its owner by
// its case (0 for upper case, 1 for lower, -1 for a mix or an unclosed bracket). A code of more than
// one character is in brackets: "[DK]".
template <int Words>
std::pair<std::string_view, int> Program<Words>::piece_written_at(std::string_view text, std::size_t& i) {
  std::string_view code = text.substr(i, 1);
  if (text[i] == '[') {
    const std::size_t close = text.find(']', i);
    if (close == std::string_view::npos) {
      code = text.substr(i);
      i = text.size();
      return {code, -1};
    }
    code = text.substr(i + 1, close - i - 1);
    i = close;
  }
  ++i;
  const auto has = [&](auto is_case) {
    return std::any_of(code.begin(), code.end(), [&](char c) { return is_case(static_cast<unsigned char>(c)) != 0; });
  };
  const bool upper = has([](unsigned char c) { return std::isupper(c); });
  const bool lower = has([](unsigned char c) { return std::islower(c); });
  return {code, upper == lower ? -1 : upper ? 0 : 1};
}

// In position text of more than two players, the player's number that follows a piece's code at
// text[i], from 0, and i moved past it; -1 when there is none.
template <int Words>
int Program<Words>::player_number_at(std::string_view text, std::size_t& i) const {
  const int number = i < text.size() ? text[i] - '1' : -1;
  if (number < 0 || number >= players_) return -1;
  ++i;
  return number;
}

template <int Words>
std::string Program<Words>::no_player_number(std::string_view written, int piece) const {
  const std::string upper = lang::piece_text(rules_->pieces[static_cast<std::size_t>(piece)].code, 0, kPlayers);
  return fmt::format(
      "'{}' is not followed by a player's number from 1 to {} (a piece is written its letter in upper case, "
      "then its player's number: '{}1')",
      written, players_, upper);
}

// On a rhombus each row is drawn half a cell to the right of the row below, so that a cell's six
// neighbours are the cells around it: (0, 1) up-right, (-1, 1) up-left.
template <int Words>
std::string Program<Words>::diagram(const StateType& state) const {
  const bool rhombus = rules_->shape == lang::BoardShape::Rhombus;
  // "P3", "[DK]"; a game that keeps counts shows each cell's count where no piece stands, up to "255".
  std::size_t cell_width = rules_->keeps_counts ? 3 : 1;
  for (const lang::PieceType& type : rules_->pieces)
    cell_width = std::max(cell_width, lang::piece_text(type.code, 0, players_, false).size());
  std::string out;
  for (int row = height_ - 1; row >= 0; --row) {
    out += fmt::format("{:>3} {}", row + 1, std::string(rhombus ? static_cast<std::size_t>(row) : 0, ' '));
    for (int column = 0; column < width_; ++column) {
      const int cell = row * width_ + column;
      std::string shown = cell_text(state, cell, false);
      if (rules_->keeps_counts && shown == ".") shown = std::to_string(state.count(cell));
      out += fmt::format(" {:<{}}", shown, cell_width);
    }
    out += '\n';
  }
  out += "    ";
  for (int column = 0; column < width_; ++column)
    out += fmt::format(" {:<{}}", static_cast<char>('a' + column), cell_width);
  out += '\n';
  if (state.out_order) out += fmt::format("out: {}\n", out_text(state));
  if (!phase_keys_.empty()) out += fmt::format("phase: {}\n", rules_->phases[state.phase].name);
  for (std::size_t counter = 0; counter < rules_->counters.size(); ++counter) {
    out += fmt::format("{}:", rules_->counters[counter].name);
    for (int player = 0; player < players_; ++player)
      out += fmt::format("{} {} {}", player ? "," : "", rules_->players[static_cast<std::size_t>(player)].name,
                         state.counters[player][counter]);
    out += '\n';
  }
  for (const auto& [name, value] : mark_texts(state)) out += fmt::format("{}: {}\n", name, value);
  if (!rules_->hands.empty()) out += fmt::format("in hand: {}\n", hand_text(state));
  return out;
}

namespace {

// A set of cells as hexadecimal words, for compiled_summary().
template <typename Board>
std::string cells_text(const Board& board) {
  std::string text;
  for (const std::uint64_t word : board.word) text += fmt::format("{:016x}", word);
  return text;
}

// How a move rule is compiled: each rule today runs on the fast back end's tables; a core rule gets
// there through the recogniser (lang/core.h), which names the keyword shape it found.
std::string compiled_path(const lang::MoveRule& move) {
  const char* const shapes[] = {"step or leap", "slide", "drop", "jump"};
  const char* const shape = shapes[static_cast<std::size_t>(move.kind)];
  return move.from_core ? fmt::format("compiled: fast path (a core rule recognised as a {})", shape)
                        : fmt::format("compiled: fast path (a {})", shape);
}

}  // namespace

template <int Words>
std::string Program<Words>::describe() const {
  const lang::Rules& r = *rules_;
  std::string out = fmt::format("{}{}\n", r.name, r.variant.empty() ? "" : fmt::format(" (variant \"{}\")", r.variant));
  if (!r.about.empty()) out += fmt::format("  {}\n", r.about);
  std::string params;
  for (const auto& [name, value] : r.params) params += fmt::format(" {}={}", name, value);
  if (!params.empty()) out += fmt::format("parameters:{}\n", params);
  std::string holes;
  for (const int hole : r.holes)
    holes += fmt::format("{}{}", holes.empty() ? " (holes " : " ", lang::cell_name(hole, width_));
  if (r.points)
    out += fmt::format("board: {} points on a {}x{} chart, joined by {} links only, bitboards of {} bits\n",
                       r.cells_on_board(), width_, height_, r.links.size(), Board::kBits);
  else
    out += fmt::format("board: {}x{}{}, {} cells{}{}, bitboards of {} bits\n", width_, height_,
                       r.shape == lang::BoardShape::Rhombus ? " rhombus (six neighbours a cell)" : "",
                       r.cells_on_board(), holes.empty() ? "" : holes + ")",
                       r.links.empty() ? "" : fmt::format(", {} links", r.links.size()), Board::kBits);
  // One item per player, joined with `separator`: "White:(+0,+1)  Black:(+0,-1)".
  const auto per_player = [&](std::string_view separator, auto&& item) {
    std::string text;
    for (int player = 0; player < players_; ++player) text += (player ? std::string(separator) : "") + item(player);
    return text;
  };
  out += "players: " +
         per_player(", ",
                    [&](int player) {
                      return fmt::format("{} (facing {}{})", r.players[player].name, r.players[player].facing,
                                         player == 0 ? ", moves first" : "");
                    }) +
         "\n";
  const auto offsets = [](const std::vector<lang::Offset>& list) {
    std::string text;
    for (const lang::Offset& o : list) text += fmt::format(" ({:+},{:+})", o.dx, o.dy);
    return text;
  };
  for (std::size_t index = 0; index < r.pieces.size(); ++index) {
    const lang::PieceType& piece = r.pieces[index];
    out += fmt::format("piece {} ({}):\n", piece.name, piece.code);
    for (const lang::MoveRule& move : piece.moves) {
      const auto where = [&](int player) {
        if (move.kind != lang::MoveKind::Drop) {
          std::string text = offsets(move.offsets[player]);
          for (const lang::CellTest& test : move.tests)
            text += fmt::format(" if ({:+},{:+}) is {}", test.offset[player].dx, test.offset[player].dy,
                                lang::target_name(test.target));
          return text;
        }
        return fmt::format(
            " {} cells{}{}", move.region[player].size(),
            move.offsets[player].empty() ? "" : ", gravity" + offsets(move.offsets[player]),
            move.flanking[player].empty() ? "" : ", flanking and flipping along" + offsets(move.flanking[player]));
      };
      out += fmt::format("  {}\n    {}\n    {}\n", move.text,
                         per_player("  ", [&](int player) { return r.players[player].name + ":" + where(player); }),
                         compiled_path(move));
    }
    if (general_) out += general_->describe(static_cast<int>(index));
    if (piece.promote_to >= 0)
      out += fmt::format("  becomes a {} on {}, and its move ends there\n",
                         r.pieces[static_cast<std::size_t>(piece.promote_to)].name, per_player(", ", [&](int player) {
                           return fmt::format("{}{} for {}", piece.promote_region[player].size(),
                                              player == 0 ? " cells" : "", r.players[player].name);
                         }));
  }
  if (const std::string game_rules = general_ ? general_->describe(-1) : ""; !game_rules.empty())
    out += "game rules:\n" + game_rules;
  std::array<int, kMaxPlayers> placed{};
  for (const lang::Placement& p : r.setup)
    if (p.cell != lang::kInHand) ++placed[static_cast<std::size_t>(p.player)];
  out += "setup: " +
         per_player(", ",
                    [&](int player) {
                      return fmt::format("{}{} for {}", placed[player], player == 0 ? " pieces" : "",
                                         r.players[player].name);
                    }) +
         "\n";
  for (const lang::Counter& counter : r.counters)
    out += fmt::format("counter {}: {}, from {} to {}, {} at the start\n", counter.name,
                       counter.shared ? "one for the game, shared" : "one for each player", counter.low, counter.high,
                       counter.low);
  for (std::size_t i = 0; i < r.phases.size(); ++i)
    out +=
        fmt::format("phase {}: {}{}\n", i + 1, r.phases[i].name,
                    r.phases[i].until.empty() ? ", to the end" : ", until " + r.phases[i].until.front().condition_text);
  out += "end rules (checked after every move, in order):\n";
  for (std::size_t i = 0; i < r.end.size(); ++i) out += fmt::format("  {}. {}\n", i + 1, r.end[i].text);
  out += "  otherwise a player to move with no legal move ends the game in a draw\n";
  if (r.pass_when_stuck)
    out +=
        "passing: a player with no move on the board passes (move text: pass) while its opponent has one; "
        "no-legal-moves holds when neither can move\n";
  if (r.swap_rule)
    out +=
        "swap rule: the second player's first move may be the swap (move text: swap): the first player's pieces "
        "become its own, mirrored across the diagonal from a1\n";
  // Every player's tables, the first in words.
  std::string compiled = fmt::format("{} jumps, {} hops and {} drops for {}", jumps_[0].size(), hops_[0].size(),
                                     drops_[0].size(), r.players[0].name);
  for (int player = 1; player < players_; ++player)
    compiled += fmt::format(", {}, {} and {} for {}", jumps_[player].size(), hops_[player].size(),
                            drops_[player].size(), r.players[static_cast<std::size_t>(player)].name);
  out += fmt::format("compiled: {}; {} end checks; no rule-tree walking while playing\n", compiled,
                     all_end_tests_[0].size());
  if (shoots_)
    out += fmt::format("shots: a move with (then (shoot ...)) blocks the cell it shoots to (shown {}) to the end\n",
                       kBlockedSymbol);
  if (r.must_capture)
    out += r.capture_most ? "captures are compulsory: when a player can capture, only the captures that take the most "
                            "pieces are legal\n"
                          : "captures are compulsory: when a player can capture, only its captures are legal\n";
  if (targets_fit_inline_) out += "random moves: counted and drawn without a move list (the fast path)\n";
  if (placing_playout_)
    out +=
        "playouts: the loop of placements (every move places one piece on an empty cell; the empty cells are "
        "kept as the game goes and drawn from)\n";
  else if (moves_counted_)
    out += fmt::format(
        "random moves: counted per slide direction (per distance where a shot needs it) and per shot, and drawn "
        "without a move list (the game has "
        "slides or shots, or a player has more than {} jumps and drops)\n",
        kInlineJumps);
  else if (draws_by_count_)
    out +=
        "random moves: counted, then drawn with only the drawn piece's moves listed (every rule counted: a slide, a "
        "line of jumps, a move as far as its line holds pieces, a step, a drop, or runs that are each a move, such as "
        "a placement; a rule of a condition, such as (when (= ply 0)), is listed while it applies)\n";
  if (std::any_of(most_shots_.begin(), most_shots_.end(), [](int slots) { return slots > 0; }))  // moves_counted_
    out +=
        "  drawn by rejection where every move shoots on lines: a landing and one of the most shots a landing can "
        "have are drawn, again while that landing has fewer shots, a few times before every move is counted\n";
  if (draws_by_count_ && must_capture_)
    out +=
        "  under (prefer captures): where no move may capture, the moves of the rules' parts that capture nothing; "
        "where one may, a move list\n";
  if (std::find(draws_by_rejection_.begin(), draws_by_rejection_.end(), true) != draws_by_rejection_.end())
    out +=
        "  drawn by rejection, not counted: one of the empty cells the placement chooses among or one of the other "
        "rules' moves is drawn, only that cell tested, and a cell where the placement is not legal set aside before "
        "the next draw\n";
  if (!targets_fit_inline_ && !moves_counted_ && !draws_by_count_)
    out +=
        "random moves: drawn from a move list (the slower path: the game has moves that two rules can make, jumps "
        "over pieces, compulsory captures, (legal ...), general rules that are not all slides, passes or the swap)\n";
  return out;
}

template <int Words>
std::string Program<Words>::compiled_summary() const {
  std::string out;
  for (int player = 0; player < players_; ++player) {
    const auto p = static_cast<std::size_t>(player);
    out += fmt::format("player {}:\n", player);
    for (const Jump& jump : jumps_[p])
      out +=
          fmt::format("  jump {} piece {} by {}/{} landing {} slide {} shot {} guards {}\n", cells_text(jump.from_mask),
                      jump.piece, jump.left, jump.right, jump.landing, jump.slide, jump.shot, jump.guards);
    for (const std::vector<Guard>& guards : guards_[p]) {
      out += "  guards";
      for (const Guard& guard : guards) out += fmt::format(" {}/{}:{}", guard.left, guard.right, guard.allowed);
      out += '\n';
    }
    for (const Hop& hop : hops_[p])
      out += fmt::format("  hop {} piece {} by {}/{} chain {}\n", cells_text(hop.from_mask), hop.piece, hop.left,
                         hop.right, hop.chain);
    for (const Drop& drop : drops_[p])
      out += fmt::format("  drop {} unsupported {} by {}/{} piece {} after {} flanking {} longest {}\n",
                         cells_text(drop.region), cells_text(drop.unsupported), drop.left, drop.right, drop.piece,
                         drop.same_piece_before, drop.flanking.size(), drop.longest_run);
    for (const Shot& shot : shots_[p]) out += fmt::format("  shot rays {} slide {}\n", shot.rays.size(), shot.slide);
    for (const TargetSource& source : sources_[p])
      out += fmt::format("  source delta {} piece {}\n", source.delta, source.piece);
    for (const EndTest& test : after_move_tests_[p])
      out +=
          fmt::format("  after-move test {} {} kind {} plies {} length {}-{} subject {} piece {} winner {} rule {}\n",
                      cells_text(test.region), cells_text(test.other_region), static_cast<int>(test.kind),
                      test.ply_limit, test.length, test.longest, test.subject, test.piece, test.winner, test.rule);
    out += fmt::format("  promotes to {} on {}; repeats {}; wins by elimination {}, certain {}, by drop {}\n",
                       promotions_[p][0].into, cells_text(promotions_[p][0].region), jumps_may_repeat_[p],
                       wins_by_elimination_[p], wins_certain_[p], drops_may_win_[p]);
  }
  out += fmt::format(
      "extras {} inline {} listed {} must-capture {} shoots {} flips {} quiet {} pass {} swap {} promotes {}\n",
      has_extras_, targets_fit_inline_, moves_listed_, must_capture_, shoots_, flips_, counts_quiet_, pass_when_stuck_,
      swap_rule_, promotes_);
  return out;
}

#define TROYKA_DEFINE_PROGRAM(W) template class Program<W>;
TROYKA_FOR_EACH_WIDTH(TROYKA_DEFINE_PROGRAM)
#undef TROYKA_DEFINE_PROGRAM

}  // namespace troyka
