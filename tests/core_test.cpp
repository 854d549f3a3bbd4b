// Tests of the core (lang/core.h): each keyword form lowered to its exact core text
// (docs/core-design.md §1.4), the golden `troyka show --core` output of every game in games/, the
// lowering of every ZRF file of tests/data/zrf that loads, that text read back, the recogniser
// (§5.2) compiling core rules as their keyword forms, and the exact errors of core rules (§1.5).
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

#include "interpreter/game.h"
#include "interpreter/perft.h"
#include "lang/diagnostic.h"
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

// ---- Reading core forms ------------------------------------------------------------------------

// Text read back cannot know the keyword form a rule was lowered from, nor its line.
Rules without_provenance(Rules core) {
  for (Rule& rule : core.moves) {
    rule.origin.clear();
    rule.pos = {};
  }
  return core;
}

// Every game of games/ and every ZRF file of tests/data/zrf that loads: what `show --core` prints
// reads back as the lowering it printed.
TEST(CoreReading, ShowCoreOfEveryFileReadsBackAsItsLowering) {
  int files = 0;
  for (const std::string directory : {"/games", "/tests/data/zrf"}) {
    for (const auto& entry : std::filesystem::directory_iterator(kSourceDir + directory)) {
      const std::string extension = entry.path().extension().string();
      if (extension != ".game" && extension != ".zrf") continue;
      lang::Rules rules;
      try {
        rules = load_rules_file(entry.path().string(), {});
      } catch (const Error&) {
        continue;  // ZRF files that troyka does not read yet
      }
      const Rules core = lower(rules);
      const std::string text = core_text(rules, core);
      const Rules read = read_core(rules, std::make_shared<SourceFile>(SourceFile{"shown.core", text}));
      EXPECT_TRUE(without_provenance(read) == without_provenance(core)) << entry.path() << ":\n" << text;
      ++files;
    }
  }
  EXPECT_GE(files, 21);
}

// ---- The recogniser: core rules compile as their keyword forms --------------------------------

std::string summary(const lang::Rules& rules) {
  return Game(rules).visit([](const auto& program) { return program.compiled_summary(); });
}

struct SameCompilation {
  std::string keyword_pieces;        // the piece Man's keyword forms
  std::string core_pieces;           // its core forms
  std::string core_game_forms = "";  // game-level core forms
};

TEST(CoreRecogniser, EachShapeCompilesAsItsKeywordForm) {
  const std::vector<SameCompilation> cases = {
      {"(step (forward forward-left forward-right) (to empty))",
       "(moves (go (forward forward-left forward-right)) empty)"},
      {"(step (forward-left forward-right) (to enemy) capture)",
       "(moves (go (forward-left forward-right)) enemy capture)"},
      {"(leap ((1 2) (-1 2)) (to any) capture)", "(moves (go ((1 2) (-1 2))) (or empty (seq occupied capture)))"},
      {"(leap (0 2) (to empty) (if (0 1) occupied))", "(moves (can (go forward) occupied) (go (0 2)) empty)"},
      // Guards before several directions: a keyword step with cell tests goes one way.
      {"(step forward-right (if (0 1) empty)) (step forward-left (if (0 1) empty))",
       "(moves (can (go forward) empty) (go (forward-right forward-left)) empty)"},
      {"(slide orthogonal (to not-friend) capture)",
       "(moves (any-direction d orthogonal (seq (go d) (repeat (seq empty (go d))) (or empty (seq enemy capture)))))"},
      {"(step forward (only Black))", "(moves (only Black) (go forward) empty)"},
      {"(drop (in (home-rows 3)) (gravity backward))", "",
       "(moves (new Man) (enter (home-rows 3)) empty (or (cannot (go backward)) (can (go backward) (not empty))))"},
      {"(drop (in (cells a1 c3)))", "", "(moves (new Man) (enter (cells c3 a1)) empty)"},
      {"(drop (in a1)) (drop (in c3))", "",
       "(moves (or (seq (new Man) (enter a1) empty) (seq (new Man) (enter c3) empty)))"},
  };
  for (const SameCompilation& test : cases)
    EXPECT_EQ(summary(game(test.core_pieces, test.core_game_forms)), summary(game(test.keyword_pieces)))
        << test.core_pieces << test.core_game_forms;
}

// docs/core-design.md §5.5: Breakthrough's pawn written as one core rule runs the code of the
// keyword file.
TEST(CoreForms, BreakthroughCompilesLikeKeywords) {
  const Game keywords = Game::load(kSourceDir + "/games/breakthrough.game");
  const Game core = Game::load(kSourceDir + "/tests/data/games/breakthrough-core.game");
  EXPECT_EQ(summary(core.rules()), summary(keywords.rules()));
  core.visit([](const auto& program) {
    const std::vector<std::uint64_t> expected = {22, 484, 11132, 256036, 6182818};
    for (int depth = 1; depth <= 5; ++depth)
      EXPECT_EQ(perft(program, program.initial_state(), depth), expected[static_cast<std::size_t>(depth - 1)])
          << "depth " << depth;
    EXPECT_NE(program.describe().find("    compiled: fast path (a core rule recognised as a step or leap)\n"),
              std::string::npos)
        << program.describe();
  });
  keywords.visit([](const auto& program) {
    EXPECT_NE(program.describe().find("    compiled: fast path (a step or leap)\n"), std::string::npos);
  });
}

// ---- Errors in core rules ----------------------------------------------------------------------

// The rendered error of game(piece_forms, game_forms); "loads" when there is none.
std::string error_of(const std::string& piece_forms, const std::string& game_forms = "") {
  try {
    game(piece_forms, game_forms);
  } catch (const Error& error) {
    return render(error.diagnostic());
  }
  return "loads";
}

// Shapes the recogniser does not match, and rule options, run on the general back end; what it
// cannot hold is refused.
TEST(CoreErrors, OnlyWhatTheGeneralBackEndCannotHoldIsRefused) {
  EXPECT_EQ(error_of("(moves (or (seq (go n) empty) (seq (go s) capture)))"), "loads");
  EXPECT_EQ(error_of("", "(moves \"pass\" fallback (when (can-move others)) pass)"), "loads");
  EXPECT_EQ(error_of("(moves (each-direction a (n) (each-direction b (n) (each-direction c (n) (each-direction d (n) "
                     "(each-direction e (n) (go n)))))) (go n) enemy capture)"),
            "test.game:3:16: error: each-direction is nested more than 4 deep in this rule\n"
            " 3 | (piece Man \"M\" (moves (each-direction a (n) (each-direction b (n) (each-direction c (n) "
            "(each-direct...\n"
            "   |                ^\n"
            "hint: the general back end keeps one mark per level of each-direction\n");
}

TEST(CoreErrors, ARepetitionMustGoOnAlongOneDirection) {
  EXPECT_EQ(error_of("(moves (repeat (go (n s))) empty)"),
            "test.game:3:23: error: this repetition may never end\n"
            " 3 | (piece Man \"M\" (moves (repeat (go (n s))) empty))\n"
            "   |                       ^\n"
            "hint: every pass of a repetition without (at-most N) must go on along one direction, which the board's "
            "edge stops; or add (at-most N)\n");
  EXPECT_EQ(error_of("(moves (any-direction d (n e) (seq (go d) (repeat empty) empty)))"),
            "test.game:3:58: error: this repetition may never end\n"
            " 3 | (piece Man \"M\" (moves (any-direction d (n e) (seq (go d) (repeat empty) empty))))\n"
            "   |                                                          ^\n"
            "hint: every pass of a repetition without (at-most N) must go on along one direction, which the board's "
            "edge stops; or add (at-most N)\n");
}

TEST(CoreErrors, APieceLandsOnce) {
  EXPECT_EQ(error_of("(moves (go n) land (go n) land)"),
            "test.game:3:16: error: this rule can put its piece down twice: 'land' comes twice on one way through it\n"
            " 3 | (piece Man \"M\" (moves (go n) land (go n) land))\n"
            "   |                ^\n"
            "hint: a carried piece lands once, with 'land' or at the end of the rule\n");
}

TEST(CoreErrors, AGameRuleChoosesItsCellFirst) {
  EXPECT_EQ(error_of("", "(moves (new Man) empty)"),
            "test.game:2:1: error: a game-level rule starts at no cell, and empty needs one\n"
            " 2 | (moves (new Man) empty)\n"
            "   | ^\n"
            "hint: choose the cell first with (enter REGION), as a drop does: (moves (new PIECE) (enter all) empty)\n");
}

TEST(CoreErrors, ARuleMustChangeThePosition) {
  EXPECT_EQ(
      error_of("(moves (opt (go n)) empty)"),
      "test.game:3:16: error: this rule can end without changing anything: on some way through it no piece moves, "
      "enters or is captured\n"
      " 3 | (piece Man \"M\" (moves (opt (go n)) empty))\n"
      "   |                ^\n"
      "hint: every move must change the position; look at the rule's (opt ...), (or ...) and (repeat ...) parts\n");
  EXPECT_EQ(
      error_of("", "(moves (enter all) empty)"),
      "test.game:2:1: error: this rule can end without changing anything: on some way through it no piece moves, "
      "enters or is captured\n"
      " 2 | (moves (enter all) empty)\n"
      "   | ^\n"
      "hint: every move must change the position; look at the rule's (opt ...), (or ...) and (repeat ...) parts\n");
}

TEST(CoreErrors, ARegionIsTheSameForBothPlayers) {
  EXPECT_EQ(
      error_of("", "(moves (new Man) (enter (union home-row d4)) empty)"),
      "test.game:2:25: error: this region holds different cells for each player, and a core rule names one region for "
      "all\n"
      " 2 | (moves (new Man) (enter (union home-row d4)) empty)\n"
      "   |                         ^\n"
      "hint: write it as (home-rows N) or (far-rows N), or give each player a rule of its own with (only PLAYER)\n");
}

TEST(CoreErrors, FormsAndTestsAreChecked) {
  EXPECT_EQ(error_of("(moves (goo n) empty)"),
            "test.game:3:24: error: unknown core form 'goo'\n"
            " 3 | (piece Man \"M\" (moves (goo n) empty))\n"
            "   |                        ^~~\n"
            "hint: did you mean 'go'?\n");
  EXPECT_EQ(error_of("(moves (if capture (go n)) empty)"),
            "test.game:3:27: error: expected a test here, such as empty or (can ...), found 'capture'\n"
            " 3 | (piece Man \"M\" (moves (if capture (go n)) empty))\n"
            "   |                           ^~~~~~~\n");
  EXPECT_EQ(error_of("(moves (go) empty)"),
            "test.game:3:23: error: '(go ...)' has 0 parts after 'go' but needs 1\n"
            " 3 | (piece Man \"M\" (moves (go) empty))\n"
            "   |                       ^\n"
            "hint: usage: (go DIRECTIONS), or (go NAME) with a NAME that any-direction or each-direction binds\n");
  EXPECT_EQ(error_of("(moves (go (0 0)) empty)"),
            "test.game:3:27: error: a leap of (0 0) does not move\n"
            " 3 | (piece Man \"M\" (moves (go (0 0)) empty))\n"
            "   |                           ^\n");
}

}  // namespace
}  // namespace troyka::lang::core
