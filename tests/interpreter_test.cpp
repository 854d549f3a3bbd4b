// Tests of the compiled Breakthrough program behind the generic Program API: perft from the start on many
// board sizes (checked against a tiny reference move generator on a plain char array that shares nothing
// with the bitboards), random games compared ply by ply with that reference, hand-made positions, the
// end of the game, Zobrist hashing, text forms of positions and moves, random move choice and allocation.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdint>
#include <cstdlib>
#include <map>
#include <memory>
#include <new>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "interpreter/game.h"
#include "interpreter/perft.h"
#include "interpreter/program.h"
#include "interpreter/random.h"
#include "lang/diagnostic.h"
#include "lang/rules.h"
#include "tests/games.h"

// Every operator new in the test binary is counted while `counting_allocations` is set on the calling
// thread, so a test can assert that playing allocates nothing. The replacement only forwards to malloc.
namespace {
thread_local bool counting_allocations = false;
thread_local long allocations_counted = 0;
long allocation_count() { return allocations_counted; }
void* counted_allocation(std::size_t size) {
  if (counting_allocations) ++allocations_counted;
  if (void* memory = std::malloc(size ? size : 1)) return memory;
  throw std::bad_alloc();
}
}  // namespace

void* operator new(std::size_t size) { return counted_allocation(size); }
void* operator new[](std::size_t size) { return counted_allocation(size); }
// The nothrow forms too (std::stable_sort's buffer uses one): freed by the deletes below, they must
// come from malloc as well.
void* operator new(std::size_t size, const std::nothrow_t&) noexcept { return std::malloc(size ? size : 1); }
void* operator new[](std::size_t size, const std::nothrow_t&) noexcept { return std::malloc(size ? size : 1); }
void operator delete(void* memory, const std::nothrow_t&) noexcept { std::free(memory); }
void operator delete[](void* memory, const std::nothrow_t&) noexcept { std::free(memory); }
void operator delete(void* memory) noexcept { std::free(memory); }
void operator delete[](void* memory) noexcept { std::free(memory); }
void operator delete(void* memory, std::size_t) noexcept { std::free(memory); }
void operator delete[](void* memory, std::size_t) noexcept { std::free(memory); }

namespace troyka {
namespace {

using troyka_tests::after;
using troyka_tests::breakthrough;
using troyka_tests::expect_playouts_match_random_move_loop;
using troyka_tests::game_from_text;
using troyka_tests::kBreakthrough;
using troyka_tests::move_texts;

const std::string kStart8x8 = "pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP White 0";

Game zillions7x7() {
  lang::Options options;
  options.variant = "zillions-7x7";
  return Game::load(kBreakthrough, options);
}

// Debug and sanitizer builds run these tests about 25 times slower, so the long random-game loops do less there.
#ifdef NDEBUG
constexpr int kWorkDivisor = 1;
#else
constexpr int kWorkDivisor = 4;
#endif
int budget(int work) { return std::max(1, work / kWorkDivisor); }

// ---- the reference: Breakthrough on a plain char array ----------------------------------------------------

// Cells are numbered row * width + column from a1; 'W' is White's pawn, 'B' Black's, '.' an empty cell.
struct RefBoard {
  int width = 0, height = 0;
  std::vector<char> cells;
  int to_move = 0;  // 0 White, 1 Black
  int ply = 0;
  bool over = false;
  int winner = -1;

  char at(int column, int row) const { return cells[static_cast<std::size_t>(row * width + column)]; }
};

struct RefMove {
  int from = 0, to = 0;
  bool capture = false;
};

std::string ref_cell_name(int cell, int width) {
  return std::string(1, static_cast<char>('a' + cell % width)) + std::to_string(cell / width + 1);
}

std::string ref_move_text(const RefMove& move, int width) {
  return ref_cell_name(move.from, width) + (move.capture ? "x" : "-") + ref_cell_name(move.to, width);
}

RefBoard ref_start(int width, int height) {
  RefBoard board{width, height, std::vector<char>(static_cast<std::size_t>(width * height), '.')};
  for (int column = 0; column < width; ++column) {
    for (const int row : {0, 1}) board.cells[static_cast<std::size_t>(row * width + column)] = 'W';
    for (const int row : {height - 2, height - 1}) board.cells[static_cast<std::size_t>(row * width + column)] = 'B';
  }
  return board;
}

// Every move of the player to move, ignoring whether the game is over.
std::vector<RefMove> ref_raw_moves(const RefBoard& board) {
  std::vector<RefMove> moves;
  const char own = board.to_move == 0 ? 'W' : 'B', enemy = board.to_move == 0 ? 'B' : 'W';
  const int forward = board.to_move == 0 ? 1 : -1;
  for (int row = 0; row < board.height; ++row)
    for (int column = 0; column < board.width; ++column) {
      if (board.at(column, row) != own) continue;
      const int next_row = row + forward;
      if (next_row < 0 || next_row >= board.height) continue;
      for (const int dx : {-1, 0, 1}) {
        const int next_column = column + dx;
        if (next_column < 0 || next_column >= board.width) continue;
        const char there = board.at(next_column, next_row);
        const int from = row * board.width + column, to = next_row * board.width + next_column;
        if (there == '.') moves.push_back({from, to, false});
        if (there == enemy && dx != 0) moves.push_back({from, to, true});
      }
    }
  return moves;
}

std::vector<RefMove> ref_moves(const RefBoard& board) {
  if (board.over) return {};
  return ref_raw_moves(board);
}

void ref_apply(RefBoard& board, const RefMove& move) {
  const char own = board.to_move == 0 ? 'W' : 'B', enemy = board.to_move == 0 ? 'B' : 'W';
  board.cells[static_cast<std::size_t>(move.to)] = own;
  board.cells[static_cast<std::size_t>(move.from)] = '.';
  const int mover = board.to_move;
  board.to_move = 1 - mover;
  ++board.ply;
  const int far_row = mover == 0 ? board.height - 1 : 0;
  if (move.to / board.width == far_row) {
    board.over = true;
    board.winner = mover;
  } else if (std::find(board.cells.begin(), board.cells.end(), enemy) == board.cells.end()) {
    board.over = true;
    board.winner = mover;
  } else if (ref_raw_moves(board).empty()) {
    board.over = true;
    board.winner = mover;  // the player to move has no move and loses
  }
}

std::uint64_t ref_perft(const RefBoard& board, int depth) {
  if (depth == 0) return 1;
  const std::vector<RefMove> moves = ref_moves(board);
  if (depth == 1) return moves.size();
  std::uint64_t nodes = 0;
  for (const RefMove& move : moves) {
    RefBoard next = board;
    ref_apply(next, move);
    nodes += ref_perft(next, depth - 1);
  }
  return nodes;
}

// The position in troyka's text form, written independently.
std::string ref_position_text(const RefBoard& board) {
  std::string text;
  for (int row = board.height - 1; row >= 0; --row) {
    int empties = 0;
    for (int column = 0; column < board.width; ++column) {
      const char c = board.at(column, row);
      if (c == '.') {
        ++empties;
        continue;
      }
      if (empties) text += std::to_string(empties);
      empties = 0;
      text += c == 'W' ? 'P' : 'p';
    }
    if (empties) text += std::to_string(empties);
    if (row) text += '/';
  }
  return text + (board.to_move == 0 ? " White " : " Black ") + std::to_string(board.ply);
}

std::vector<std::string> sorted(std::vector<std::string> texts) {
  std::sort(texts.begin(), texts.end());
  return texts;
}

// ---- helpers over troyka programs ----------------------------------------------------------------------

template <typename P>
typename P::StateType parse(const P& program, const std::string& text) {
  auto parsed = program.parse_position(text);
  EXPECT_TRUE(parsed.ok()) << text << ": " << parsed.error;
  return parsed.state;
}

// The board and side to move of a position's text, without the ply count (which the hash ignores).
std::string without_ply(const std::string& text) { return text.substr(0, text.rfind(' ')); }

// The same position seen from the other side: rows flipped, colours and side to move swapped.
std::string mirrored_position(const std::string& text) {
  const std::size_t space = text.find(' ');
  const std::string board = text.substr(0, space);
  std::vector<std::string> rows(1);
  for (const char c : board) {
    if (c == '/') {
      rows.emplace_back();
    } else if (c >= 'a' && c <= 'z') {
      rows.back() += static_cast<char>(c - 'a' + 'A');
    } else if (c >= 'A' && c <= 'Z') {
      rows.back() += static_cast<char>(c - 'A' + 'a');
    } else {
      rows.back() += c;
    }
  }
  std::string flipped;
  for (auto row = rows.rbegin(); row != rows.rend(); ++row) flipped += (flipped.empty() ? "" : "/") + *row;
  std::string rest = text.substr(space + 1);
  const std::string side = rest.substr(0, rest.find(' '));
  return flipped + (side == "White" ? " Black" : " White") + rest.substr(side.size());
}

// Where the separator ('-' or 'x') of a move's text stands: right after the digits of the first cell.
std::size_t separator_at(const std::string& text) {
  std::size_t at = 1;
  while (at < text.size() && text[at] >= '0' && text[at] <= '9') ++at;
  return at;
}

// A move's text with its rows flipped on a board of `height` rows.
std::string mirrored_move(const std::string& text, int height) {
  const std::size_t split = separator_at(text);
  const auto flip = [&](const std::string& cell) {
    return cell[0] + std::to_string(height + 1 - std::stoi(cell.substr(1)));
  };
  return flip(text.substr(0, split)) + text[split] + flip(text.substr(split + 1));
}

// Plays `games` random games with troyka's random_move and calls check(state) before every move and at the end.
template <typename P, typename Check>
void for_each_random_state(const P& program, int games, std::uint64_t seed, Check&& check) {
  Rng rng(seed);
  for (int game = 0; game < games; ++game) {
    auto state = program.initial_state();
    while (!program.is_terminal(state)) {
      check(state);
      program.apply(state, program.random_move(state, rng));
    }
    check(state);
  }
}

// ---- perft ------------------------------------------------------------------------------------------

// No game ends before ply 11 on 8x8, so these counts do not depend on how finished games are counted.
TEST(InterpPerft, StartPosition8x8) {
  const Game game = breakthrough();
  game.visit([](const auto& program) {
    const auto start = program.initial_state();
    EXPECT_EQ(perft(program, start, 1), 22u);
    EXPECT_EQ(perft(program, start, 2), 484u);
    EXPECT_EQ(perft(program, start, 3), 11132u);
    EXPECT_EQ(perft(program, start, 4), 256036u);
    EXPECT_EQ(perft(program, start, 5), 6182818u);
  });
}

#ifdef NDEBUG
// About 0.2 s in a Release build; far slower in Debug and sanitizer builds, so only run with NDEBUG.
TEST(InterpPerft, StartPosition8x8DepthSix) {
  const Game game = breakthrough();
  game.visit([](const auto& program) { EXPECT_EQ(perft(program, program.initial_state(), 6), 149264638u); });
}
#endif

TEST(InterpPerft, StartPositionZillions7x7) {
  const Game game = zillions7x7();
  EXPECT_EQ(game.rules().width, 7);
  EXPECT_EQ(game.rules().height, 7);
  game.visit([](const auto& program) {
    const auto start = program.initial_state();
    EXPECT_EQ(perft(program, start, 1), 19u);
    EXPECT_EQ(perft(program, start, 2), 361u);
    EXPECT_EQ(perft(program, start, 3), 7220u);
    EXPECT_EQ(perft(program, start, 4), 144251u);
    EXPECT_EQ(perft(program, start, 5), 3042166u);
  });
}

struct BoardSize {
  int width, height, depth, bitboard_bits;
};

// Sizes chosen to cover every bitboard width: one word, exactly one full word (8x8), two words (9x9),
// four (12x12, and 16x16 which fills all 256 bits), six (20x19) and eleven (26x26, the largest board).
const std::vector<BoardSize> kSizes = {
    {3, 4, 6, 64},  {5, 5, 5, 64},    {6, 5, 4, 64},    {4, 9, 4, 64},    {8, 8, 4, 64},
    {9, 9, 4, 128}, {12, 12, 3, 256}, {16, 16, 3, 256}, {20, 19, 3, 384}, {26, 26, 3, 704},
};

TEST(InterpPerft, MatchesReferenceOnManyBoardSizes) {
  for (const BoardSize& size : kSizes) {
    SCOPED_TRACE(std::to_string(size.width) + "x" + std::to_string(size.height));
    const Game game = breakthrough(size.width, size.height);
    EXPECT_EQ(game.bitboard_bits(), size.bitboard_bits);
    game.visit([&](const auto& program) {
      const auto start = program.initial_state();
      const RefBoard reference = ref_start(size.width, size.height);
      EXPECT_EQ(program.position_text(start), ref_position_text(reference));
      const int max_depth = size.depth - (kWorkDivisor > 1 && size.width * size.height > 100 ? 1 : 0);
      for (int depth = 1; depth <= max_depth; ++depth)
        EXPECT_EQ(perft(program, start, depth), ref_perft(reference, depth)) << "depth " << depth;
    });
  }
}

// On 3x4 every first move is a capture and games end from ply 3, so deep perft counts finished games.
TEST(InterpPerft, SmallestBoardExactCounts) {
  const Game game = breakthrough(3, 4);
  game.visit([](const auto& program) {
    const auto start = program.initial_state();
    EXPECT_EQ(program.position_text(start), "ppp/ppp/PPP/PPP White 0");
    EXPECT_EQ(move_texts(program, start), (std::vector<std::string>{"a2xb3", "b2xa3", "b2xc3", "c2xb3"}));
    EXPECT_EQ(perft(program, start, 1), 4u);
  });
}

// ---- random games against the reference ----------------------------------------------------------------

TEST(InterpRandomGames, LegalMovesAndResultsMatchReference) {
  struct Plan {
    int width, height, games;
  };
  const std::vector<Plan> plan = {{3, 4, 35}, {5, 5, 35},   {6, 5, 25},  {4, 9, 25},  {8, 8, 40},
                                  {9, 9, 20}, {12, 12, 10}, {16, 16, 5}, {20, 19, 3}, {26, 26, 2}};
  int games_played = 0, games_planned = 0;
  for (const Plan& size : plan) {
    const int games = size.width * size.height > 100 ? budget(size.games) : size.games;
    games_planned += games;
    SCOPED_TRACE(std::to_string(size.width) + "x" + std::to_string(size.height));
    const Game game = breakthrough(size.width, size.height);
    game.visit([&](const auto& program) {
      Rng rng(1234 + static_cast<std::uint64_t>(size.width * 100 + size.height));
      for (int g = 0; g < games; ++g) {
        auto state = program.initial_state();
        RefBoard reference = ref_start(size.width, size.height);
        MoveList moves;
        for (;;) {
          ASSERT_EQ(program.position_text(state), ref_position_text(reference));
          ASSERT_EQ(program.is_terminal(state), reference.over) << program.position_text(state);
          program.legal_moves(state, moves);
          std::vector<std::string> texts;
          for (const Move& move : moves) texts.push_back(program.move_text(move));
          const std::vector<RefMove> reference_moves = ref_moves(reference);
          std::vector<std::string> reference_texts;
          for (const RefMove& m : reference_moves) reference_texts.push_back(ref_move_text(m, size.width));
          ASSERT_EQ(sorted(texts), sorted(reference_texts)) << program.position_text(state);
          if (reference.over) {
            ASSERT_EQ(state.winner, reference.winner) << program.position_text(state);
            break;
          }
          // Alternate between troyka's random_move and a uniform pick from the listed moves.
          const Move move = (g % 2) ? program.random_move(state, rng) : moves[rng.below(moves.size())];
          const std::string text = program.move_text(move);
          const auto match = std::find_if(reference_moves.begin(), reference_moves.end(),
                                          [&](const RefMove& m) { return ref_move_text(m, size.width) == text; });
          ASSERT_NE(match, reference_moves.end()) << text << " in " << program.position_text(state);
          program.apply(state, move);
          ref_apply(reference, *match);
        }
        ++games_played;
      }
    });
  }
  EXPECT_EQ(games_played, games_planned);
  if (kWorkDivisor == 1) {
    EXPECT_EQ(games_played, 200);
  }
}

// ---- hand-made positions ----------------------------------------------------------------------------

TEST(InterpPositions, EdgeColumnsHaveOneDiagonal) {
  const Game game = breakthrough();
  game.visit([](const auto& program) {
    const auto white = parse(program, "4p3/8/8/8/8/8/P6P/8 White 0");
    EXPECT_EQ(move_texts(program, white), (std::vector<std::string>{"a2-a3", "a2-b3", "h2-g3", "h2-h3"}));
    const auto black = parse(program, "8/p6p/8/8/8/8/8/4P3 Black 0");
    EXPECT_EQ(move_texts(program, black), (std::vector<std::string>{"a7-a6", "a7-b6", "h7-g6", "h7-h6"}));
    // Edge pieces capture inwards only.
    const auto captures = parse(program, "8/8/8/1p4p1/P6P/8/8/8 White 0");
    EXPECT_EQ(move_texts(program, captures), (std::vector<std::string>{"a4-a5", "a4xb5", "h4-h5", "h4xg5"}));
  });
}

TEST(InterpPositions, NoStraightCapture) {
  const Game game = breakthrough();
  game.visit([](const auto& program) {
    // White d4 faces Black d5: it may only step diagonally, and neither piece takes the other.
    const auto facing = parse(program, "8/8/8/3p4/3P4/8/8/8 White 0");
    EXPECT_EQ(move_texts(program, facing), (std::vector<std::string>{"d4-c5", "d4-e5"}));
    const auto black_facing = parse(program, "8/8/8/3p4/3P4/8/8/8 Black 0");
    EXPECT_EQ(move_texts(program, black_facing), (std::vector<std::string>{"d5-c4", "d5-e4"}));
    EXPECT_EQ(program.parse_move(facing, "d4xd5").error,
              "d4xd5 is not a legal move for White; the piece there can play d4-c5 d4-e5");
    EXPECT_EQ(program.parse_move(facing, "d4-d5").error,
              "d4-d5 is not a legal move for White; the piece there can play d4-c5 d4-e5");
    // With three enemies in front, only the two diagonal captures remain.
    const auto three = parse(program, "8/8/8/2ppp3/3P4/8/8/8 White 0");
    EXPECT_EQ(move_texts(program, three), (std::vector<std::string>{"d4xc5", "d4xe5"}));
  });
}

TEST(InterpPositions, BlockedPiece) {
  const Game game = breakthrough();
  game.visit([](const auto& program) {
    // White a4 faces Black a5 and its only diagonal, b5, holds a White piece: a4 cannot move.
    const auto state = parse(program, "8/8/8/pP6/P7/8/8/8 White 0");
    EXPECT_EQ(move_texts(program, state), (std::vector<std::string>{"b5-a6", "b5-b6", "b5-c6"}));
    EXPECT_EQ(program.parse_move(state, "a4-a5").error,
              "a4-a5 is not a legal move for White; the piece on a4 cannot move");
    EXPECT_EQ(program.count_moves(state), 3);
    EXPECT_FALSE(program.is_terminal(state));
    // A piece blocked between two friends and an enemy in the middle of the board.
    const auto middle = parse(program, "8/8/8/2PpP3/3P4/8/8/8 White 0");
    EXPECT_EQ(move_texts(program, middle),
              (std::vector<std::string>{"c5-b6", "c5-c6", "c5-d6", "e5-d6", "e5-e6", "e5-f6"}));
  });
}

TEST(InterpPositions, BlackMovesMirrorWhite) {
  const Game game = breakthrough();
  game.visit([](const auto& program) {
    const auto start = program.initial_state();
    auto black_start = start;
    program.apply(black_start, program.parse_move(start, "a2-a3").move);
    EXPECT_EQ(move_texts(program, black_start).size(), 22u);
    int positions = 0;
    for_each_random_state(program, 30, 99, [&](const auto& state) {
      if (program.is_terminal(state)) return;
      const std::string text = program.position_text(state);
      const auto mirror = parse(program, mirrored_position(text));
      EXPECT_EQ(mirrored_position(program.position_text(mirror)), text);
      std::vector<std::string> expected;
      for (const std::string& move : move_texts(program, state)) expected.push_back(mirrored_move(move, 8));
      ASSERT_EQ(move_texts(program, mirror), sorted(expected)) << text;
      ++positions;
    });
    EXPECT_GT(positions, 1000);
  });
}

// ---- the end of the game --------------------------------------------------------------------------------

TEST(InterpEnd, WhiteWinsByReachingTheFarRow) {
  const Game game = breakthrough();
  game.visit([](const auto& program) {
    const auto before = parse(program, "8/P6p/8/8/8/8/8/8 White 10");
    EXPECT_FALSE(program.is_terminal(before));
    EXPECT_EQ(program.end_reason(before), "the game is not over");
    EXPECT_EQ(program.result(before, 0), 0);
    EXPECT_EQ(before.winner, kNoWinner);
    const auto state = after(program, before, "a7-a8");
    EXPECT_TRUE(program.is_terminal(state));
    EXPECT_EQ(state.winner, 0);
    EXPECT_EQ(program.result(state, 0), 1);
    EXPECT_EQ(program.result(state, 1), -1);
    EXPECT_EQ(program.end_reason(state), "White wins by (reach Pawn far-row)");
    EXPECT_EQ(program.position_text(state), "P7/7p/8/8/8/8/8/8 Black 11");
    EXPECT_EQ(program.count_moves(state), 0);
    MoveList moves;
    program.legal_moves(state, moves);
    EXPECT_TRUE(moves.empty());
    EXPECT_EQ(program.parse_move(state, "h7-h6").error, "the game is over");
    // Reaching by a capture wins too.
    const auto capture = after(program, parse(program, "1p6/P6p/8/8/8/8/8/8 White 10"), "a7xb8");
    EXPECT_EQ(capture.winner, 0);
    EXPECT_EQ(program.end_reason(capture), "White wins by (reach Pawn far-row)");
  });
}

TEST(InterpEnd, BlackWinsByReachingTheFarRow) {
  const Game game = breakthrough();
  game.visit([](const auto& program) {
    const auto state = after(program, parse(program, "8/8/8/8/8/8/p7/7P Black 3"), "a2-a1");
    EXPECT_TRUE(program.is_terminal(state));
    EXPECT_EQ(state.winner, 1);
    EXPECT_EQ(program.result(state, 0), -1);
    EXPECT_EQ(program.result(state, 1), 1);
    EXPECT_EQ(program.end_reason(state), "Black wins by (reach Pawn far-row)");
  });
}

TEST(InterpEnd, WinByCapturingTheLastEnemyPiece) {
  const Game game = breakthrough();
  game.visit([](const auto& program) {
    const auto state = after(program, parse(program, "8/8/8/8/3p4/4P3/8/8 White 0"), "e3xd4");
    EXPECT_TRUE(program.is_terminal(state));
    EXPECT_EQ(state.winner, 0);
    EXPECT_EQ(program.result(state, 0), 1);
    EXPECT_EQ(program.result(state, 1), -1);
    EXPECT_EQ(program.end_reason(state), "White wins by opponent-has-no-pieces");
    EXPECT_EQ(program.position_text(state), "8/8/8/8/3P4/8/8/8 Black 1");
    const auto black = after(program, parse(program, "8/8/8/8/3p4/4P3/8/8 Black 0"), "d4xe3");
    EXPECT_EQ(black.winner, 1);
    EXPECT_EQ(program.end_reason(black), "Black wins by opponent-has-no-pieces");
    // A position read with no enemy pieces is already over.
    const auto parsed = parse(program, "8/8/8/8/3P4/8/8/8 Black 1");
    EXPECT_TRUE(program.is_terminal(parsed));
    EXPECT_EQ(parsed.winner, 0);
  });
}

// In Breakthrough a player to move always has a move: its most advanced piece (not yet on the far row, or
// the game would be over) has a diagonal forward cell that is empty or holds an enemy. So no-legal-moves
// is exercised with a game whose pawns only step straight forward.
const std::string kPushers = R"((game "Pushers"
  (players (White north) (Black south))
  (board (rectangle 8 8))
  (piece Pawn "P" (step (forward) (to empty)))
  (setup (place Pawn (home-rows 2)))
  (end (win (reach Pawn far-row)) (lose no-legal-moves))))";

TEST(InterpEnd, LossWithNoLegalMove) {
  const Game game = game_from_text(kPushers);
  game.visit([](const auto& program) {
    // White a2 is blocked by Black a3: White, to move, has a piece but no move and loses.
    const auto stuck = parse(program, "8/8/8/8/8/p7/P7/8 White 4");
    EXPECT_TRUE(program.is_terminal(stuck));
    EXPECT_EQ(stuck.winner, 1);
    EXPECT_EQ(program.result(stuck, 0), -1);
    EXPECT_EQ(program.result(stuck, 1), 1);
    EXPECT_EQ(program.end_reason(stuck), "White loses by no-legal-moves");
    // The same position reached by a move.
    const auto state = after(program, parse(program, "8/8/8/8/p7/8/P7/8 Black 3"), "a4-a3");
    EXPECT_EQ(program.position_text(state), "8/8/8/8/8/p7/P7/8 White 4");
    EXPECT_TRUE(program.is_terminal(state));
    EXPECT_EQ(state.winner, 1);
    EXPECT_EQ(program.end_reason(state), "White loses by no-legal-moves");
  });
  // Without the rule, having no move is a draw.
  std::string no_rule = kPushers;
  no_rule.replace(no_rule.find(" (lose no-legal-moves)"), std::string(" (lose no-legal-moves)").size(), "");
  game_from_text(no_rule).visit([](const auto& program) {
    const auto stuck = parse(program, "8/8/8/8/8/p7/P7/8 White 4");
    EXPECT_TRUE(program.is_terminal(stuck));
    EXPECT_EQ(stuck.winner, kDraw);
    EXPECT_EQ(program.result(stuck, 0), 0);
    EXPECT_EQ(program.result(stuck, 1), 0);
    EXPECT_EQ(program.end_reason(stuck), "White has no legal move and no end rule applies: a draw");
  });
}

TEST(InterpEnd, RandomGamesEndByReachOrCapture) {
  const Game game = breakthrough();
  game.visit([](const auto& program) {
    Rng rng(5);
    int wins[2] = {0, 0};
    for (int g = 0; g < 300; ++g) {
      auto state = program.initial_state();
      const std::uint32_t plies = program.playout(state, rng);
      ASSERT_GE(plies, 11u);
      ASSERT_LE(plies, 177u);
      ASSERT_EQ(state.ply, plies);
      ASSERT_TRUE(state.winner == 0 || state.winner == 1);
      ASSERT_EQ(program.result(state, state.winner), 1);
      ASSERT_EQ(program.result(state, 1 - state.winner), -1);
      const std::string reason = program.end_reason(state);
      const std::string name = state.winner == 0 ? "White" : "Black";
      ASSERT_TRUE(reason == name + " wins by (reach Pawn far-row)" ||
                  reason == name + " wins by opponent-has-no-pieces")
          << reason;
      ++wins[state.winner];
    }
    EXPECT_GT(wins[0], 100);
    EXPECT_GT(wins[1], 100);
  });
}

// A position read from text may already be over, whoever stands on a far row or lacks pieces.
TEST(InterpEnd, PositionsReadFromTextThatAreAlreadyOver) {
  const Game game = breakthrough();
  game.visit([](const auto& program) {
    // White on its far row, whether White or Black is to move.
    for (const std::string side : {"White", "Black"}) {
      const auto state = parse(program, "P7/8/8/8/8/8/p7/8 " + side + " 9");
      EXPECT_TRUE(program.is_terminal(state)) << side;
      EXPECT_EQ(state.winner, 0) << side;
      EXPECT_EQ(program.end_reason(state), "White wins by (reach Pawn far-row)") << side;
      EXPECT_EQ(program.count_moves(state), 0) << side;
    }
    // Black on its far row.
    for (const std::string side : {"White", "Black"}) {
      const auto state = parse(program, "8/8/8/8/8/8/8/p6P " + side + " 9");
      EXPECT_TRUE(program.is_terminal(state)) << side;
      EXPECT_EQ(state.winner, 1) << side;
      EXPECT_EQ(program.end_reason(state), "Black wins by (reach Pawn far-row)") << side;
    }
    // Black without pieces, with White or Black to move.
    for (const std::string side : {"White", "Black"}) {
      const auto state = parse(program, "8/8/8/8/3P4/8/8/8 " + side + " 9");
      EXPECT_TRUE(program.is_terminal(state)) << side;
      EXPECT_EQ(state.winner, 0) << side;
      EXPECT_EQ(program.end_reason(state), "White wins by opponent-has-no-pieces") << side;
    }
    // Not over: nobody on a far row and both sides have pieces.
    EXPECT_FALSE(program.is_terminal(parse(program, "8/P7/8/8/8/8/p7/8 Black 9")));
  });
}

// ---- zobrist hashing ------------------------------------------------------------------------------------

TEST(InterpZobrist, IncrementalHashMatchesHashFromScratch) {
  for (const BoardSize& size : kSizes) {
    SCOPED_TRACE(std::to_string(size.width) + "x" + std::to_string(size.height));
    breakthrough(size.width, size.height).visit([](const auto& program) {
      for_each_random_state(program, budget(5), 77, [&](const auto& state) {
        const auto fresh = parse(program, program.position_text(state));
        ASSERT_EQ(state.hash, fresh.hash) << program.position_text(state);
      });
    });
  }
}

TEST(InterpZobrist, DistinctPositionsRarelyCollide) {
  const Game game = breakthrough();
  game.visit([](const auto& program) {
    std::map<std::uint64_t, std::string> seen;
    int collisions = 0;
    for_each_random_state(program, 100, 2024, [&](const auto& state) {
      const std::string key = without_ply(program.position_text(state));
      const auto [it, inserted] = seen.emplace(state.hash, key);
      if (!inserted && it->second != key) ++collisions;
    });
    EXPECT_GT(seen.size(), 3000u);
    EXPECT_EQ(collisions, 0);
    // The side to move is part of the hash.
    const auto white = parse(program, kStart8x8);
    const auto black = parse(program, "pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP Black 0");
    EXPECT_NE(white.hash, black.hash);
    EXPECT_EQ(white.hash, program.initial_state().hash);
  });
}

// ---- text forms -------------------------------------------------------------------------------------------

TEST(InterpText, StartPositionTextAndDiagram) {
  const Game game = breakthrough();
  game.visit([](const auto& program) {
    const auto start = program.initial_state();
    EXPECT_EQ(program.position_text(start), kStart8x8);
    EXPECT_EQ(program.diagram(start),
              "  8  p p p p p p p p\n"
              "  7  p p p p p p p p\n"
              "  6  . . . . . . . .\n"
              "  5  . . . . . . . .\n"
              "  4  . . . . . . . .\n"
              "  3  . . . . . . . .\n"
              "  2  P P P P P P P P\n"
              "  1  P P P P P P P P\n"
              "     a b c d e f g h\n");
  });
}

TEST(InterpText, PositionRoundTripOverRandomGames) {
  for (const BoardSize& size : kSizes) {
    SCOPED_TRACE(std::to_string(size.width) + "x" + std::to_string(size.height));
    breakthrough(size.width, size.height).visit([](const auto& program) {
      for_each_random_state(program, budget(5), 31, [&](const auto& state) {
        const std::string text = program.position_text(state);
        const auto parsed = program.parse_position(text);
        ASSERT_TRUE(parsed.ok()) << text << ": " << parsed.error;
        ASSERT_EQ(program.position_text(parsed.state), text);
        ASSERT_EQ(parsed.state.hash, state.hash);
        ASSERT_EQ(parsed.state.ply, state.ply);
        ASSERT_EQ(parsed.state.to_move, state.to_move);
        ASSERT_EQ(parsed.state.over, state.over);
        ASSERT_EQ(parsed.state.winner, state.winner);
        ASSERT_EQ(parsed.state.by_player, state.by_player);
      });
    });
  }
}

TEST(InterpText, ParsePositionErrors) {
  const Game game = breakthrough();
  game.visit([](const auto& program) {
    const auto error = [&](const std::string& text) { return program.parse_position(text).error; };
    EXPECT_EQ(error(kStart8x8), "");
    EXPECT_EQ(error("ppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP White 0"), "row 8 has 7 cells, not 8");
    EXPECT_EQ(error("pppppppp/pppppppp/8/8/8/8/PPPPPPPPP/PPPPPPPP White 0"), "row 2 has more than 8 cells");
    EXPECT_EQ(error("pppppppp/pppppppp/9/8/8/8/PPPPPPPP/PPPPPPPP White 0"), "row 6 has more than 8 cells");
    EXPECT_EQ(error("pppppppp/pppppppp/8/8/8/8/PPPPPPPP White 0"), "the board must have 8 rows of 8 cells");
    EXPECT_EQ(error("pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP/8 White 0"), "more than 8 rows");
    EXPECT_EQ(error("pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPP White 0"), "row 1 has 7 cells, not 8");
    EXPECT_EQ(error("pppppppp/pppppppq/8/8/8/8/PPPPPPPP/PPPPPPPP White 0"), "'q' is not a piece of this game");
    EXPECT_EQ(error("pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPK White 0"), "'K' is not a piece of this game");
    EXPECT_EQ(error("pppppppp/pppppppp/0/8/8/8/PPPPPPPP/PPPPPPPP White 0"), "bad count of empty cells in row 6");
    EXPECT_EQ(error("pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP"),
              "expected the player to move (White or Black) after the board");
    EXPECT_EQ(error("pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP Red 0"),
              "expected the player to move (White or Black) after the board");
    EXPECT_EQ(error("pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP White x"), "'x' is not a ply count");
    EXPECT_EQ(error(""), "the board must have 8 rows of 8 cells");
    // The ply count is optional.
    const auto no_ply = program.parse_position("pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP Black");
    ASSERT_TRUE(no_ply.ok()) << no_ply.error;
    EXPECT_EQ(program.position_text(no_ply.state), "pppppppp/pppppppp/8/8/8/8/PPPPPPPP/PPPPPPPP Black 0");
  });
}

TEST(InterpText, MoveTextRoundTripForEveryLegalMove) {
  for (const BoardSize& size : kSizes) {
    SCOPED_TRACE(std::to_string(size.width) + "x" + std::to_string(size.height));
    breakthrough(size.width, size.height).visit([&](const auto& program) {
      MoveList moves;
      int states = 0;
      const int stride = 1 + kWorkDivisor * size.width * size.height / 32;  // games on large boards are long and wide
      for_each_random_state(program, 3, 8, [&](const auto& state) {
        if (++states % stride) return;
        program.legal_moves(state, moves);
        for (const Move& move : moves) {
          const std::string text = program.move_text(move);
          const ParsedMove parsed = program.parse_move(state, text);
          ASSERT_TRUE(parsed.ok()) << text << ": " << parsed.error;
          ASSERT_EQ(parsed.move, move) << text;
          // Without the separator, too; moves onto column x are left to BareMoveOntoColumnX.
          std::string bare = text;
          bare.erase(separator_at(bare), 1);
          if (bare[separator_at(bare)] == 'x') continue;
          const ParsedMove parsed_bare = program.parse_move(state, bare);
          ASSERT_TRUE(parsed_bare.ok()) << bare << ": " << parsed_bare.error;
          ASSERT_EQ(parsed_bare.move, move) << bare;
        }
      });
    });
  }
}

TEST(InterpText, MoveTextForms) {
  const Game game = breakthrough();
  game.visit([](const auto& program) {
    const auto start = program.initial_state();
    const ParsedMove step = program.parse_move(start, "a2-a3");
    ASSERT_TRUE(step.ok());
    EXPECT_EQ(program.move_text(step.move), "a2-a3");
    EXPECT_FALSE(step.move.capture);
    EXPECT_EQ(program.parse_move(start, "a2a3").move, step.move);
    EXPECT_EQ(program.parse_move(start, "  a2-a3 ").move, step.move);
    const auto position = parse(program, "8/8/8/2p5/1P6/8/8/8 White 0");
    const ParsedMove capture = program.parse_move(position, "b4xc5");
    ASSERT_TRUE(capture.ok()) << capture.error;
    EXPECT_TRUE(capture.move.capture);
    EXPECT_EQ(program.move_text(capture.move), "b4xc5");
    EXPECT_EQ(program.parse_move(position, "b4c5").move, capture.move);
    // Rows above 9 on a tall board.
    breakthrough(5, 12).visit([](const auto& tall) {
      auto state = tall.initial_state();
      state = after(tall, state, "a2-a3");
      const ParsedMove move = tall.parse_move(state, "a11-a10");
      ASSERT_TRUE(move.ok()) << move.error;
      EXPECT_EQ(tall.move_text(move.move), "a11-a10");
    });
  });
}

TEST(InterpText, BareMoveOntoColumnX) {
  breakthrough(26, 26).visit([](const auto& program) {
    const auto start = program.initial_state();
    const ParsedMove straight = program.parse_move(start, "x2x3");
    ASSERT_TRUE(straight.ok()) << straight.error;
    EXPECT_EQ(program.move_text(straight.move), "x2-x3");
    const ParsedMove diagonal = program.parse_move(start, "w2x3");
    ASSERT_TRUE(diagonal.ok()) << diagonal.error;
    EXPECT_EQ(program.move_text(diagonal.move), "w2-x3");
  });
}

TEST(InterpText, ParseMoveErrors) {
  const Game game = breakthrough();
  game.visit([](const auto& program) {
    const auto start = program.initial_state();
    const auto error = [&](const std::string& text) { return program.parse_move(start, text).error; };
    EXPECT_EQ(error("a9-a10"), "'a9' is not a cell of this 8x8 board");
    EXPECT_EQ(error("a2-i3"), "'i3' is not a cell of this 8x8 board");
    EXPECT_EQ(error("a0-a1"), "'a0' is not a cell of this 8x8 board");
    EXPECT_EQ(error("a3-a4"), "White has no piece on a3");
    EXPECT_EQ(error("a7-a6"), "White has no piece on a7");
    EXPECT_EQ(error("a2-a4"), "a2-a4 is not a legal move for White; the piece there can play a2-a3 a2-b3");
    EXPECT_EQ(error("a1-a2"), "a1-a2 is not a legal move for White; the piece on a1 cannot move");
    EXPECT_EQ(error("xyz"), "'xyz' is not a move; write it as from-to, e.g. a1-a2");
    EXPECT_EQ(error(""), "'' is not a move; write it as from-to, e.g. a1-a2");
    EXPECT_EQ(error("a2"), "White places no pieces in this game; write a move as from-to, e.g. a1-a2");
    EXPECT_EQ(error("a2-"), "'a2-' is not a move; write it as from-to, e.g. a1-a2");
  });
}

TEST(InterpText, DropsOfTwoPieceTypesNameThePiece) {
  const Game game = game_from_text(R"((game "Two drops"
    (players (White north) (Black south))
    (board (rectangle 3 3))
    (piece Stone "S" (drop))
    (piece Flag "F" (drop (in (cells a1 c3))))
    (setup)
    (end (win (in-a-row 3)))))");
  game.visit([](const auto& program) {
    const auto start = program.initial_state();
    EXPECT_EQ(move_texts(program, start), (std::vector<std::string>{"F@a1", "F@c3", "S@a1", "S@a2", "S@a3", "S@b1",
                                                                    "S@b2", "S@b3", "S@c1", "S@c2", "S@c3"}));
    EXPECT_EQ(program.parse_move(start, "a1").error, "more than one piece can be placed on a1: write S@a1 or F@a1");
    EXPECT_EQ(program.move_text(program.parse_move(start, "f@c3").move), "F@c3");
    EXPECT_EQ(program.move_text(program.parse_move(start, "b2").move), "S@b2");
    EXPECT_EQ(program.parse_move(start, "F@b2").error,
              "b2 is not a legal move for White; no piece can be placed on b2 now");
  });
}

// ---- counting and random moves ------------------------------------------------------------------------

TEST(InterpMoves, CountMovesEqualsListedMoves) {
  for (const BoardSize& size : kSizes) {
    SCOPED_TRACE(std::to_string(size.width) + "x" + std::to_string(size.height));
    breakthrough(size.width, size.height).visit([](const auto& program) {
      MoveList moves;
      for_each_random_state(program, 5, 3, [&](const auto& state) {
        program.legal_moves(state, moves);
        ASSERT_EQ(program.count_moves(state), static_cast<int>(moves.size())) << program.position_text(state);
        ASSERT_EQ(program.is_terminal(state), moves.empty()) << program.position_text(state);
      });
    });
  }
}

TEST(InterpMoves, RandomMoveIsAlwaysLegalAndReachesEveryMove) {
  for (const BoardSize& size : kSizes) {
    SCOPED_TRACE(std::to_string(size.width) + "x" + std::to_string(size.height));
    breakthrough(size.width, size.height).visit([&](const auto& program) {
      MoveList moves;
      Rng rng(17);
      int states = 0;
      const int stride = 1 + kWorkDivisor * size.width * size.height / 16;
      for_each_random_state(program, 3, 4, [&](const auto& state) {
        if (program.is_terminal(state) || ++states % stride) return;
        program.legal_moves(state, moves);
        std::map<std::pair<int, int>, std::size_t> index;  // (from, to) -> position in `moves`
        for (std::size_t i = 0; i < moves.size(); ++i) index[{moves[i].from, moves[i].to}] = i;
        std::vector<int> hits(moves.size());
        for (std::size_t draw = 0; draw < 40 * moves.size(); ++draw) {
          const Move move = program.random_move(state, rng);
          const auto found = index.find({move.from, move.to});
          ASSERT_TRUE(found != index.end() && moves[found->second] == move)
              << program.move_text(move) << " in " << program.position_text(state);
          ++hits[found->second];
        }
        for (std::size_t i = 0; i < moves.size(); ++i)
          ASSERT_GT(hits[i], 0) << program.move_text(moves[i]) << " never drawn in " << program.position_text(state);
      });
    });
  }
}

TEST(InterpMoves, RandomMoveIsRoughlyUniform) {
  const auto check = [](const Game& game, int draws, int low, int high) {
    game.visit([&](const auto& program) {
      const auto start = program.initial_state();
      MoveList moves;
      program.legal_moves(start, moves);
      std::vector<int> hits(moves.size());
      Rng rng(2718);
      for (int draw = 0; draw < draws; ++draw) {
        const Move move = program.random_move(start, rng);
        ++hits[static_cast<std::size_t>(std::find(moves.begin(), moves.end(), move) - moves.begin())];
      }
      for (std::size_t i = 0; i < moves.size(); ++i) {
        EXPECT_GE(hits[i], low) << program.move_text(moves[i]);
        EXPECT_LE(hits[i], high) << program.move_text(moves[i]);
      }
    });
  };
  check(breakthrough(), 10000, 300, 700);        // 22 moves, about 455 each
  check(breakthrough(26, 26), 30000, 250, 550);  // 76 moves over eleven words, about 395 each
}

// Program::playout promises the same moves and result as looping random_move + apply with the same generator.
TEST(InterpMoves, PlayoutMatchesRandomMoveLoop) {
  for (const auto& [width, height] :
       std::vector<std::pair<int, int>>{{3, 4}, {5, 5}, {8, 8}, {9, 9}, {16, 16}, {26, 26}}) {
    SCOPED_TRACE(std::to_string(width) + "x" + std::to_string(height));
    expect_playouts_match_random_move_loop(breakthrough(width, height), width * height > 100 ? 10 : 100);
  }
}

// ---- states and allocation ---------------------------------------------------------------------------

TEST(InterpState, CopiesAreIndependent) {
  static_assert(std::is_trivially_copyable_v<State<1>>);
  static_assert(std::is_trivially_copyable_v<State<11>>);
  const Game game = breakthrough();
  game.visit([](const auto& program) {
    const auto start = program.initial_state();
    auto copy = start;
    program.apply(copy, program.parse_move(copy, "d2-d3").move);
    EXPECT_EQ(program.position_text(start), kStart8x8);
    EXPECT_EQ(program.position_text(copy), "pppppppp/pppppppp/8/8/8/3P4/PPP1PPPP/PPPPPPPP Black 1");
    EXPECT_NE(copy.hash, start.hash);
    EXPECT_EQ(start.hash, program.initial_state().hash);
    auto second = copy;
    program.apply(second, program.parse_move(second, "d7-d6").move);
    EXPECT_EQ(program.position_text(copy), "pppppppp/pppppppp/8/8/8/3P4/PPP1PPPP/PPPPPPPP Black 1");
    EXPECT_EQ(program.position_text(second), "pppppppp/ppp1pppp/3p4/8/8/3P4/PPP1PPPP/PPPPPPPP White 2");
  });
}

TEST(InterpState, PlayingDoesNotAllocate) {
  for (const auto& game : {breakthrough(), breakthrough(26, 26)}) {
    game.visit([](const auto& program) {
      MoveList moves;
      Rng rng(11);
      std::uint64_t total = 0;
      const long before = allocation_count();
      counting_allocations = true;
      // The counter sees an allocation made by the library: a MoveList beyond its inline capacity.
      MoveList big;
      big.resize(300);
      const long probe = allocation_count();
      big = MoveList();
      const long start = allocation_count();
      const int games = budget(program.rules().cells() > 100 ? 8 : 50);
      for (int g = 0; g < games; ++g) {
        auto state = program.initial_state();
        while (!program.is_terminal(state)) {
          program.legal_moves(state, moves);
          total += static_cast<std::uint64_t>(program.count_moves(state)) + moves.size();
          program.apply(state, program.random_move(state, rng));
        }
        auto fast = program.initial_state();
        total += program.playout(fast, rng);
      }
      counting_allocations = false;
      EXPECT_GT(probe, before);
      EXPECT_EQ(allocation_count(), start);
      EXPECT_GT(total, 0u);
    });
  }
}

}  // namespace
}  // namespace troyka
