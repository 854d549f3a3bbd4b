// Tests of the core (lang/core.h): each keyword form lowered to its exact core text
// (docs/core-design.md §1.4), the golden `troyka show --core` output of every game in games/, and
// the lowering of every ZRF file of tests/data/zrf that loads.
//
// TROYKA_UPDATE_GOLDEN=1 rewrites tests/data/core/ from the current output instead of comparing.
#include "lang/core.h"

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "lang/rules.h"
#include "run_troyka.h"

namespace troyka::lang::core {
namespace {

const std::string kSourceDir = TROYKA_SOURCE_DIR;

// A game on an 8x8 board, White facing north and Black south, with one piece of these forms and
// these game-level forms.
lang::Rules game(const std::string& piece_forms, const std::string& game_forms = "") {
  const std::string text = "(game \"Test\" (players (White north) (Black south)) (board (rectangle 8 8))\n" +
                           game_forms + "\n(piece Man \"M\" " + piece_forms +
                           ")\n(piece King \"K\") (setup) (end (lose no-legal-moves)))";
  return load_rules(std::make_shared<SourceFile>(SourceFile{"test.game", text}), {});
}

// Every core rule of the game, as its (moves ...) form.
std::vector<std::string> lowered(const lang::Rules& rules) {
  std::vector<std::string> texts;
  for (const Rule& rule : lower(rules).moves) texts.push_back(moves_text(rules, rule));
  return texts;
}

std::vector<std::string> lowered(const std::string& piece_forms, const std::string& game_forms = "") {
  return lowered(game(piece_forms, game_forms));
}

using Texts = std::vector<std::string>;

// ---- One test per lowering -------------------------------------------------------------------

TEST(CoreLowering, StepToEmptyUsesTheDirectionsAsSeenFromEachPlayer) {
  EXPECT_EQ(lowered("(step (forward forward-left forward-right) (to empty))"),
            Texts{"(moves (go (forward forward-left forward-right)) empty)"});
}

TEST(CoreLowering, StepWritesBoardDirectionsWhenBothPlayersGoTheSameWay) {
  EXPECT_EQ(lowered("(step orthogonal)"), Texts{"(moves (go (n e s w)) empty)"});
}

TEST(CoreLowering, EachTargetLandsWithTheCaptureItNeeds) {
  EXPECT_EQ(lowered("(step forward (to enemy) capture) (step forward (to friend) capture) "
                    "(step forward (to occupied) capture) (step forward (to not-friend) capture) "
                    "(step forward (to any) capture)"),
            (Texts{"(moves (go forward) enemy capture)", "(moves (go forward) friend capture)",
                   "(moves (go forward) occupied capture)", "(moves (go forward) (or empty (seq enemy capture)))",
                   "(moves (go forward) (or empty (seq occupied capture)))"}));
}

TEST(CoreLowering, LeapGoesByOffsetsInThePlayersFrame) {
  EXPECT_EQ(lowered("(leap ((1 2) (-1 2) (0 1)) (to not-friend) capture)"),
            Texts{"(moves (go ((1 2) (-1 2) forward)) (or empty (seq enemy capture)))"});
}

TEST(CoreLowering, CellTestsBecomeLookaheadsFromTheStart) {
  EXPECT_EQ(lowered("(leap (0 2) (to empty) (if (0 1) occupied) (if (1 0) any) (if (2 1) friend))"),
            Texts{"(moves (can (go forward) occupied) (can (go right)) (can (go (2 1)) friend) (go (0 2)) empty)"});
}

TEST(CoreLowering, SlideRepeatsThroughEmptyCells) {
  EXPECT_EQ(lowered("(slide orthogonal (to not-friend) capture)"),
            Texts{"(moves\n"
                  "  (any-direction d (n e s w)\n"
                  "    (seq (go d) (repeat (seq empty (go d))) (or empty (seq enemy capture)))))"});
}

TEST(CoreLowering, ShotLandsThePieceThenBlocksAnEmptyCell) {
  EXPECT_EQ(lowered("(step forward (then (shoot (step (left right)))))"),
            Texts{"(moves (go forward) empty land (go (left right)) empty block)"});
  EXPECT_EQ(lowered("(slide (n e) (then (shoot (slide s))))"),
            Texts{"(moves\n"
                  "  (any-direction d (n e) (seq (go d) (repeat (seq empty (go d))) empty))\n"
                  "  land\n"
                  "  (any-direction e s (seq (go e) empty (repeat (seq (go e) empty))))\n"
                  "  block)"});
}

TEST(CoreLowering, JumpWithoutChainCapturesOnePiece) {
  EXPECT_EQ(lowered("(jump orthogonal (over enemy))"),
            Texts{"(moves (any-direction d (n e s w) (seq (go d) enemy capture (go d) empty waypoint)))"});
}

TEST(CoreLowering, ChainGoesOnWithEveryChainJumpOfThePiece) {
  EXPECT_EQ(lowered("(jump (forward-left forward-right) chain) (jump backward chain)"),
            (Texts{"(moves\n"
                   "  (any-direction d (forward-left forward-right)\n"
                   "    (seq (go d) enemy (not captured) capture (go d) empty waypoint))\n"
                   "  (repeat\n"
                   "    (any-direction d (forward-left forward-right backward)\n"
                   "      (seq (go d) enemy (not captured) capture (go d) empty waypoint))\n"
                   "    maximal))",
                   "(moves\n"
                   "  (any-direction d backward (seq (go d) enemy (not captured) capture (go d) empty waypoint))\n"
                   "  (repeat\n"
                   "    (any-direction d (forward-left forward-right backward)\n"
                   "      (seq (go d) enemy (not captured) capture (go d) empty waypoint))\n"
                   "    maximal))"}));
}

TEST(CoreLowering, PromotionEndsAChainAndIsAppendedToEveryRuleOfThePiece) {
  EXPECT_EQ(lowered("(step forward-left) (jump forward-right chain) (promote King far-row)"),
            (Texts{"(moves (go forward-left) empty (if (in far-row) (become King)))",
                   "(moves\n"
                   "  (any-direction d forward-right (seq (go d) enemy (not captured) capture (go d) empty waypoint))\n"
                   "  (repeat\n"
                   "    (seq\n"
                   "      (not (in far-row))\n"
                   "      (any-direction d forward-right\n"
                   "        (seq (go d) enemy (not captured) capture (go d) empty waypoint)))\n"
                   "    maximal)\n"
                   "  (if (in far-row) (become King)))"}));
}

TEST(CoreLowering, PromotionComesBeforeAShot) {
  EXPECT_EQ(lowered("(step forward (then (shoot (step forward)))) (promote King (far-rows 2))"),
            Texts{"(moves (go forward) empty (if (in (far-rows 2)) (become King)) land (go forward) empty block)"});
}

TEST(CoreLowering, DropIsAGameRuleThatEntersItsRegion) {
  EXPECT_EQ(lowered("(drop)"), Texts{"(moves (new Man) (enter all) empty)"});
  EXPECT_EQ(lowered("(drop (in (home-rows 3)))"), Texts{"(moves (new Man) (enter (home-rows 3)) empty)"});
  EXPECT_EQ(lowered("(drop (in (cells c3 a1 h8)))"), Texts{"(moves (new Man) (enter (cells a1 c3 h8)) empty)"});
  EXPECT_EQ(lowered("(drop (in d4))"), Texts{"(moves (new Man) (enter d4) empty)"});
}

TEST(CoreLowering, GravityRestsThePieceOnAPieceOrTheEdge) {
  EXPECT_EQ(lowered("(drop (gravity backward))"),
            Texts{"(moves (new Man) (enter all) empty (or (cannot (go backward)) (can (go backward) (not empty))))"});
}

TEST(CoreLowering, FlankingNeedsOneClosedLineAndFlipsEvery) {
  EXPECT_EQ(lowered("(drop (flanking (n e)))"),
            Texts{"(moves\n"
                  "  (new Man)\n"
                  "  (enter all)\n"
                  "  empty\n"
                  "  (can\n"
                  "    (any-direction d (n e)\n"
                  "      (seq (go d) enemy convert (repeat (seq (go d) enemy convert)) (go d) friend)))\n"
                  "  (each-direction d (n e)\n"
                  "    (if-can (seq (go d) enemy convert (repeat (seq (go d) enemy convert)) (go d) friend))))"});
}

TEST(CoreLowering, OnlyPlayerIsARuleOption) {
  EXPECT_EQ(lowered("(step forward (only Black)) (drop (in (cells a1 b1)) (only White))"),
            (Texts{"(moves (only Black) (go s) empty)", "(moves (only White) (new Man) (enter (cells a1 b1)) empty)"}));
}

TEST(CoreLowering, ARegionWithNoFormForBothPlayersSplitsTheRule) {
  EXPECT_EQ(lowered("(drop (in (union home-row d4)))"),
            (Texts{"(moves (only White) (new Man) (enter (cells a1 b1 c1 d1 e1 f1 g1 h1 d4)) empty)",
                   "(moves (only Black) (new Man) (enter (cells d4 a8 b8 c8 d8 e8 f8 g8 h8)) empty)"}));
}

TEST(CoreLowering, MustCaptureIsAPreferenceForCaptures) {
  const lang::Rules rules = game("(step forward)", "(must-capture)");
  EXPECT_TRUE(lower(rules).prefer_captures);
  EXPECT_FALSE(lower(game("(step forward)")).prefer_captures);
  EXPECT_NE(core_text(rules, lower(rules)).find("; (must-capture)\n(prefer captures)\n"), std::string::npos);
}

TEST(CoreLowering, PassWhenStuckIsAFallbackPass) {
  EXPECT_EQ(lowered("(drop)", "(pass-when-stuck)"),
            (Texts{"(moves (new Man) (enter all) empty)", "(moves \"pass\" fallback (when (can-move others)) pass)"}));
}

TEST(CoreLowering, SwapRuleIsAMoveAtPlyOne) {
  EXPECT_EQ(lowered("(drop)", "(swap-rule)"),
            (Texts{"(moves (new Man) (enter all) empty)", "(moves \"swap\" (when (= ply 1)) (swap-pieces mirror))"}));
}

TEST(CoreLowering, RulesKeepTheirKeywordFormAndPosition) {
  const lang::Rules rules = game("(step forward)\n  (drop)");
  const Rules core = lower(rules);
  ASSERT_EQ(core.moves.size(), 2u);
  EXPECT_EQ(core.moves[0].origin, "(step forward)");
  EXPECT_EQ(core.moves[0].pos.line, 3u);
  EXPECT_EQ(core.moves[0].scope, Rule::Scope::Piece);
  EXPECT_EQ(core.moves[1].origin, "(drop)");
  EXPECT_EQ(core.moves[1].pos.line, 4u);
  EXPECT_EQ(core.moves[1].scope, Rule::Scope::Game);
  EXPECT_EQ(core.moves[1].piece, 0);
}

// ---- Golden output of every game -------------------------------------------------------------

std::string read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TEST(CoreGolden, ShowCoreOfEveryGameMatchesItsFile) {
  const bool update = std::getenv("TROYKA_UPDATE_GOLDEN") && std::string(std::getenv("TROYKA_UPDATE_GOLDEN")) == "1";
  int games = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kSourceDir + "/games")) {
    if (entry.path().extension() != ".game") continue;
    ++games;
    const std::string name = entry.path().stem().string();
    const troyka_tests::Outcome run = troyka_tests::run_troyka("show games/" + name + ".game --core");
    ASSERT_EQ(run.status, 0) << name << ": " << run.err;
    const std::string golden = kSourceDir + "/tests/data/core/" + name + ".core";
    if (update)
      std::ofstream(golden, std::ios::binary) << run.out;
    else
      EXPECT_EQ(run.out, read_file(golden)) << "troyka show games/" << name << ".game --core differs from " << golden
                                            << "; if the change is meant, rerun with TROYKA_UPDATE_GOLDEN=1";
  }
  EXPECT_EQ(games, 11);
}

// ---- ZRF files -------------------------------------------------------------------------------

// Every ZRF file that loads lowers, with a rule for each of its moves and drops.
TEST(CoreZrf, EveryZrfFileThatLoadsLowers) {
  int lowered_files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(kSourceDir + "/tests/data/zrf")) {
    if (entry.path().extension() != ".zrf") continue;
    lang::Rules rules;
    try {
      rules = load_rules_file(entry.path().string(), {});
    } catch (const Error&) {
      continue;
    }
    const Rules core = lower(rules);
    std::size_t moves = 0;
    for (const PieceType& piece : rules.pieces) moves += piece.moves.size();
    EXPECT_GE(core.moves.size(), moves) << entry.path();
    EXPECT_NE(core_text(rules, core).find("(moves"), std::string::npos) << entry.path();
    ++lowered_files;
  }
  EXPECT_GE(lowered_files, 10);
}

// The players of a ZRF game may both face north: directions are then written as on the board.
TEST(CoreZrf, PlayersFacingTheSameWayGetBoardDirections) {
  const lang::Rules rules = load_rules_file(kSourceDir + "/tests/data/zrf/connect-four.zrf", {});
  EXPECT_EQ(lowered(rules),
            Texts{"(moves (new Disc) (enter all) empty (or (cannot (go s)) (can (go s) (not empty))))"});
}

}  // namespace
}  // namespace troyka::lang::core
