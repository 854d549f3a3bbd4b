// Fuzzes the whole path from rule-file bytes to play: parse, check, compile, then a short game.
// A lang::Error is the expected answer to a bad file; any other exception, a crash, a sanitizer
// report or a broken invariant (checked below with abort) is a bug.
//
// The invariants: every position's moves and end decision agree with a slow reference written
// straight from the rules (lang/rules.h), cell by cell, with no bitboards; counts, random moves,
// and the text forms of moves and positions agree with the move list.
#include <algorithm>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <exception>
#include <memory>
#include <string>
#include <tuple>
#include <vector>

#include "interpreter/game.h"
#include "interpreter/general.h"
#include "interpreter/program.h"
#include "interpreter/random.h"
#include "lang/diagnostic.h"
#include "lang/rules.h"
#include "tests/reference.h"

namespace {

using troyka::Move;
using troyka::MoveList;
namespace lang = troyka::lang;

[[noreturn]] void broken(const char* what, const std::string& detail = {}) {
  std::fprintf(stderr, "rules_fuzz: invariant broken: %s%s%s\n", what, detail.empty() ? "" : ": ", detail.c_str());
  std::abort();
}

#define FUZZ_CHECK(condition, detail)             \
  do {                                            \
    if (!(condition)) broken(#condition, detail); \
  } while (0)

// ---- the reference (tests/reference.h) -----------------------------------------------------------

using troyka::reference::MoveKey;
using troyka::reference::Square;

// The board of a state as the reference sees it, checking that the bitboards agree with each other.
template <typename State>
std::vector<Square> squares(const lang::Rules& rules, const State& state) {
  std::vector<Square> board(static_cast<std::size_t>(rules.cells()));
  for (int cell = 0; cell < rules.cells(); ++cell) {
    Square& square = board[static_cast<std::size_t>(cell)];
    for (int player = 0; player < rules.player_count(); ++player)
      if (state.by_player[player].test(cell)) {
        FUZZ_CHECK(square.player < 0, "two players on one cell");
        square.player = player;
      }
    for (std::size_t piece = 0; piece < rules.pieces.size(); ++piece)
      if (state.by_piece[piece].test(cell)) {
        FUZZ_CHECK(square.piece < 0, "two piece types on one cell");
        square.piece = static_cast<int>(piece);
      }
    FUZZ_CHECK((square.player < 0) == (square.piece < 0), "a cell with an owner but no piece type, or the reverse");
    if (state.blocked.test(cell)) {
      FUZZ_CHECK(square.player < 0, "a piece on a blocked cell");
      square.player = troyka::reference::kBlocked;
    }
  }
  return board;
}

// The counters of `state`, as the reference holds them.
template <typename State>
troyka::reference::Counters counters(const State& state) {
  troyka::reference::Counters values{};
  for (std::size_t player = 0; player < values.size(); ++player)
    std::copy(state.counters[player].begin(), state.counters[player].end(), values[player].begin());
  return values;
}

// ---- the checks ---------------------------------------------------------------------------------

// winning_move finds a legal move that wins at once whenever a move wins by a rule it anticipates
// (reaching a region, taking the last piece), and never names a move that does not win; a win by
// another rule (by count, or leaving the opponent without a move) it may find, when a candidate it
// tries on a copy happens to end the game that way.
// Trying every move costs the runs of its origin's moves each (the general back end finds a move's
// record by running its origin's rules again): a position where that comes to more than this
// (Amazons for three players: hundreds of moves an amazon) is left to the comparison of move
// lists, which timed out otherwise.
constexpr std::size_t kMostRunsTried = 100'000;

// The moves run to apply each of `moves` once: the square of each origin's count, summed. The
// moves of game rules (a placement, from == to, or a pass) are found among all of theirs.
std::size_t runs_to_apply_each(const MoveList& moves, int cells) {
  std::vector<int> origins;
  origins.reserve(moves.size());
  for (const Move& move : moves) origins.push_back(move.from == move.to || move.from >= cells ? cells : move.from);
  std::sort(origins.begin(), origins.end());
  std::size_t runs = 0;
  for (auto first = origins.begin(); first != origins.end();) {
    const auto last = std::upper_bound(first, origins.end(), *first);
    const auto count = static_cast<std::size_t>(last - first);
    runs += count * count;
    first = last;
  }
  return runs;
}

// Whether winning_move must find a win by `rule`. Reaching a region and taking the last piece are
// foreseen; a win by the conditions of step 7 ((lost PIECE), counters, compounds) and by one group
// (connected) makes every move a candidate.
bool anticipated(const lang::EndRule& rule) {
  if (rule.outcome == lang::Outcome::MostPieces || rule.outcome == lang::Outcome::MostArea) return false;
  switch (rule.kind) {
    case lang::EndKind::Reach:
    case lang::EndKind::OpponentHasNoPieces:
    case lang::EndKind::Lost:
    case lang::EndKind::Compare:
    case lang::EndKind::All:
    case lang::EndKind::Any:
    case lang::EndKind::Not:
    case lang::EndKind::Connected: return true;
    default: return false;
  }
}

// Returns the moves it ran (runs_to_apply_each, or 0 when it tried none).
template <typename Program>
std::size_t check_winning_move(const Program& program, const typename Program::StateType& state,
                               const MoveList& moves) {
  const std::size_t runs = runs_to_apply_each(moves, program.rules().cells());
  if (state.over || runs > kMostRunsTried) return 0;
  const std::string text = program.position_text(state);
  bool anticipated_win = false;
  bool other_win = false;  // a win winning_move may find but need not
  for (const Move& move : moves) {
    auto after = state;
    program.apply(after, move);
    if (!after.over || after.winner != state.to_move || after.ended_by == troyka::kEndedByNoMoves) continue;
    // With more than two players, a win that comes from the last opponent's loss (the mover is the
    // one left) is not one winning_move looks for: it finds the mover's own wins.
    const lang::EndRule& rule = program.rules().end[static_cast<std::size_t>(after.ended_by)];
    const bool foreseen =
        anticipated(rule) && (program.rules().player_count() <= lang::kPlayers || rule.outcome == lang::Outcome::Win);
    anticipated_win = anticipated_win || foreseen;
    other_win = other_win || !foreseen;
  }
  Move win;
  const bool found = program.winning_move(state, win);
  FUZZ_CHECK(found == anticipated_win || (found && other_win), text + ": winning_move says " + std::to_string(found));
  if (!found) return runs;
  FUZZ_CHECK(std::find(moves.begin(), moves.end(), win) != moves.end(), program.move_text(win) + " in " + text);
  auto after = state;
  program.apply(after, win);
  FUZZ_CHECK(after.over && after.winner == state.to_move, program.move_text(win) + " does not win in " + text);
  return runs;
}

// Whether tests/reference.h cannot play the game of `rules` (see check_state). It plays two
// players; games of more are checked against tests/players_reference.h in tests/players_test.cpp.
bool unreferenced(const lang::Rules& rules) {
  return rules.general != nullptr || !rules.legal.empty() || rules.player_count() != lang::kPlayers;
}

// Checks `state` and lists its moves into `moves`. Returns the work done, in moves run: the listings
// (each runs every move once) and check_winning_move's applications.
template <typename Program>
std::size_t check_state(const Program& program, const typename Program::StateType& state, MoveList& moves) {
  const lang::Rules& rules = program.rules();
  const std::string text = program.position_text(state);
  const std::vector<Square> board = squares(rules, state);

  // The reference knows the rules of the fast back end only: a game with general rules (core forms
  // the recogniser does not compile) or with (legal ...), which tests/reference_check.h plays in
  // tests/legality_test.cpp, is checked for the invariants below, not against it.
  const bool no_reference = unreferenced(rules);
  const troyka::reference::Decision verdict =
      no_reference
          ? troyka::reference::Decision{}
          : troyka::reference::decision(rules, board, state.to_move, state.ply, state.quiet_plies, counters(state));
  FUZZ_CHECK(no_reference || state.over == verdict.over,
             text + ": the reference says over=" + std::to_string(verdict.over));
  if (state.over && !no_reference) {
    FUZZ_CHECK(state.winner == verdict.winner && state.ended_by == verdict.ended_by,
               text + ": the reference says winner " + std::to_string(verdict.winner) + " by rule " +
                   std::to_string(verdict.ended_by) + ", not " + std::to_string(state.winner) + " by rule " +
                   std::to_string(state.ended_by));
  }

  program.legal_moves(state, moves);
  FUZZ_CHECK(program.count_moves(state) == static_cast<int>(moves.size()), text);
  FUZZ_CHECK(state.over == moves.empty(), text);
  if (!state.over && !no_reference) {
    std::vector<MoveKey> listed;
    for (const Move& move : moves) listed.push_back(troyka::reference::key_of(move));
    std::sort(listed.begin(), listed.end());  // the reference lists each move once, sorted: so must we
    const std::vector<MoveKey> expected = troyka::reference::moves(rules, board, state.to_move, state.ply);
    if (listed != expected) {
      std::string detail = text + ": moves differ from the reference;";
      if (std::adjacent_find(listed.begin(), listed.end()) != listed.end()) detail += " a move is listed twice;";
      const auto text_of = [&](const MoveKey& key) {
        const auto [from, to, piece, capture, jumped, shot] = key;
        Move move{std::uint16_t(from), std::uint16_t(to), std::uint8_t(piece), capture};
        move.shot = shot < 0 ? troyka::kNoShot : std::uint16_t(shot);
        move.jumped = jumped;
        return program.move_text(move);
      };
      for (const MoveKey& key : listed)
        if (!std::binary_search(expected.begin(), expected.end(), key)) detail += " extra " + text_of(key);
      for (const MoveKey& key : expected)
        if (!std::binary_search(listed.begin(), listed.end(), key)) detail += " missing " + text_of(key);
      broken("legal_moves == reference_moves", detail);
    }
  }
  std::size_t runs = check_winning_move(program, state, moves);
  (void)program.diagram(state);
  (void)program.end_reason(state);
  (void)program.result(state, 0);

  // The text form of a position reads back as the same position.
  const auto parsed = program.parse_position(text);
  FUZZ_CHECK(parsed.ok(), text + " -> " + parsed.error);
  const auto& again = parsed.state;
  FUZZ_CHECK(again.by_player == state.by_player && again.by_piece == state.by_piece, text);
  FUZZ_CHECK(again.to_move == state.to_move && again.ply == state.ply, text);
  FUZZ_CHECK(again.hash == state.hash, text);
  // A game of more players won by the last one left reads back as won so, without the rule that put
  // the last other out (Program::parse_position).
  const bool last_left =
      state.over && program.rules().player_count() > lang::kPlayers && again.ended_by == troyka::kEndedByForfeit;
  FUZZ_CHECK(
      again.over == state.over && again.winner == state.winner && (again.ended_by == state.ended_by || last_left),
      text);

  // A legal move's text reads back as that move. parse_move lists and names the moves again, so
  // only a few are tried: up to 8, fewer where the moves are many (an amazon's landings times its
  // arrows: thousands on a big board, whose names took the fuzzer past its timeout).
  constexpr std::size_t kMovesNamed = 8'000;
  const std::size_t tries = std::clamp<std::size_t>(kMovesNamed / std::max<std::size_t>(moves.size(), 1), 1, 8);
  const std::size_t stride = moves.size() / tries + 1;
  for (std::size_t i = 0; i < moves.size(); i += stride) {
    const Move& move = moves[i];
    const auto read = program.parse_move(state, program.move_text(move));
    FUZZ_CHECK(read.ok() && read.move == move, program.move_text(move) + " in " + text + ": " + read.error);
    runs += moves.size();
  }
  return runs + 2 * moves.size();  // legal_moves and count_moves
}

template <typename Program>
void play(const Program& program) {
  (void)program.describe();
  auto state = program.initial_state();
  MoveList moves;
  troyka::Rng rng(12345);
  // The checks list every move of every position checked several times: Amazons on 20x20 lists
  // 11,168 at the start, and twenty such plies outlast the fuzzer's 5 s timeout. The game stops once
  // the moves run pass a budget, so a big board is checked for fewer plies.
  constexpr std::size_t kMovesRun = 50'000;
  std::size_t run = 0;
  for (int ply = 0; ply < 20 && run < kMovesRun; ++ply) {
    run += check_state(program, state, moves);
    if (state.over) break;
    // Alternate between the two ways agents pick moves; random_move must pick a legal one.
    Move move = moves[rng.below(static_cast<std::uint32_t>(moves.size()))];
    if (ply % 2) {
      move = program.random_move(state, rng);
      FUZZ_CHECK(std::find(moves.begin(), moves.end(), move) != moves.end(),
                 program.move_text(move) + " in " + program.position_text(state));
    }
    program.apply(state, move);
  }
  if (!state.over) check_state(program, state, moves);

  // A whole random game from the start (playout's own fast loop) ends in a position the reference
  // calls over. Only for games that a ply limit keeps short: others may never end. Plies times cells
  // bound the work too (a game's moves grow with its board): three-player Amazons placed on 17x17
  // (289 plies) took 4.7 s, at the fuzzer's 5 s timeout. With the budgets above, the whole input
  // takes 0.1 s on 10x10 and 0.2 s on 13x13 (the largest board let through), 0.3 s on 20x20.
  constexpr int kPlayoutWork = 30'000;  // plies x cells
  const auto& end = program.rules().end;
  const int cells = program.rules().cells();
  if (std::none_of(end.begin(), end.end(), [&](const lang::EndRule& rule) {
        return rule.kind == lang::EndKind::PlyLimit && rule.ply_limit <= 300 && rule.ply_limit * cells <= kPlayoutWork;
      }))
    return;
  // The same with every playout policy on (decisive, anti-decisive, move values).
  const std::vector<float> values(program.move_key_count(), 0.5F);
  troyka::PlayoutPolicy policy;
  policy.decisive = policy.anti_decisive = true;
  policy.move_values = values.data();
  for (const bool with_policy : {false, true}) {
    state = program.initial_state();
    const std::uint32_t plies = with_policy ? program.playout(state, rng, policy) : program.playout(state, rng);
    FUZZ_CHECK(state.over && state.ply == plies, program.position_text(state));
    if (unreferenced(program.rules())) continue;  // see check_state
    const troyka::reference::Decision verdict = troyka::reference::decision(
        program.rules(), squares(program.rules(), state), state.to_move, state.ply, state.quiet_plies, counters(state));
    FUZZ_CHECK(verdict.over && verdict.winner == state.winner && verdict.ended_by == state.ended_by,
               program.position_text(state) + " after a playout");
  }
}

}  // namespace

// Built twice: troyka_rules_fuzz reads its inputs as troyka rule files, troyka_zrf_fuzz as ZRF
// files (lang::load_rules picks the front end by the file name), with the same checks of play.
#ifdef TROYKA_FUZZ_ZRF
constexpr const char* kInputName = "fuzz.zrf";
#else
constexpr const char* kInputName = "fuzz.game";
#endif

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto source = std::make_shared<const lang::SourceFile>(
      lang::SourceFile{kInputName, std::string(reinterpret_cast<const char*>(data), size)});
  const lang::Options options;
  try {
    troyka::Game game(lang::load_rules(source, options));
    game.visit([](const auto& program) { play(program); });
  } catch (const lang::Error& error) {
    // The expected way to refuse a file; its message must render without trouble.
    (void)lang::render(error.diagnostic());
  } catch (const troyka::RunawayRule&) {
    // A rule in core forms that repeats without end, found while playing (troyka says so and exits).
  } catch (const std::exception& error) {
    std::fprintf(stderr, "rules_fuzz: unexpected exception: %s\n", error.what());
    std::abort();
  } catch (...) {
    std::fprintf(stderr, "rules_fuzz: unexpected exception of unknown type\n");
    std::abort();
  }
  return 0;
}
