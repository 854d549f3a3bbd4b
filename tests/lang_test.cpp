// Tests of the rule language (lang/): the exact text of every error a learner is likely to meet, and
// what a correct rule file loads into. Most cases are one small edit of kGame, a copy of
// games/breakthrough.game, so the line numbers in the expected messages refer to kGame's lines.
#include <fmt/format.h>
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "lang/diagnostic.h"
#include "lang/rules.h"
#include "lang/sexpr.h"

namespace troyka::lang {
namespace {

// ---- Helpers -----------------------------------------------------------------------------------

// Breakthrough, as in games/breakthrough.game without the comments. Line 1 is "(game ...".
constexpr std::string_view kGame = R"game((game "Breakthrough"
  (about "Reach the far row, or capture every enemy piece, to win.")
  (param width 8 (range 3 26))
  (param height 8 (range 4 26))
  (variant "zillions-7x7" (width 7) (height 7))
  (players (White north) (Black south))
  (board (rectangle width height))
  (piece Pawn "P"
    (step (forward forward-left forward-right) (to empty))
    (step (forward-left forward-right) (to enemy) capture))
  (setup (place Pawn (home-rows 2)))
  (end
    (win (reach Pawn far-row))
    (win opponent-has-no-pieces)
    (lose no-legal-moves)))
)game";

const std::string kSourceDir = TROYKA_SOURCE_DIR;

// Options as the command line would give them: --variant NAME and --param NAME=VALUE.
Options variant(std::string name) {
  Options options;
  options.variant = std::move(name);
  return options;
}
Options params(std::vector<std::pair<std::string, std::string>> values, std::string variant_name = "") {
  Options options;
  options.params = std::move(values);
  options.variant = std::move(variant_name);
  return options;
}

// `text` with its one occurrence of `from` replaced by `to`; a typo in a test's `from` fails the test.
std::string replace_once(std::string text, std::string_view from, std::string_view to) {
  const std::size_t at = text.find(from);
  if (at == std::string::npos || text.find(from, at + 1) != std::string::npos) {
    ADD_FAILURE() << "'" << from << "' does not occur exactly once in the game text";
    return text;
  }
  return text.replace(at, from.size(), to);
}

// kGame with one edit.
std::string game_with(std::string_view from, std::string_view to) { return replace_once(std::string(kGame), from, to); }

std::shared_ptr<const SourceFile> source(std::string text) {
  return std::make_shared<SourceFile>(SourceFile{"test.game", std::move(text)});
}

// The rendered error that loading `text` as "test.game" raises; fails the test when it loads fine.
std::string error_of(std::string text, Options options = {}) {
  try {
    load_rules(source(std::move(text)), options);
  } catch (const Error& error) {
    return render(error.diagnostic());
  } catch (const std::exception& other) {
    ADD_FAILURE() << "threw something other than lang::Error: " << other.what();
    return {};
  }
  ADD_FAILURE() << "loaded without an error";
  return {};
}

// The rules `text` loads into; fails the test (and shows the message) when loading throws.
Rules rules_of(std::string text, Options options = {}) {
  try {
    return load_rules(source(std::move(text)), options);
  } catch (const Error& error) {
    ADD_FAILURE() << render(error.diagnostic());
  }
  return {};
}

// The rendered error of something outside a rule file, such as parse_param_option.
template <typename F>
std::string error_from(F&& action) {
  try {
    action();
  } catch (const Error& error) {
    return render(error.diagnostic());
  }
  ADD_FAILURE() << "no error was thrown";
  return {};
}

// "a1 b1 c1" for a list of cells.
std::string cells_text(const CellList& cells, int width) {
  std::string text;
  for (int cell : cells) {
    if (!text.empty()) text += ' ';
    text += cell_name(cell, width);
  }
  return text;
}

// "(0,1) (-1,1)" for a list of offsets.
std::string offsets_text(const std::vector<Offset>& offsets) {
  std::string text;
  for (const Offset& o : offsets) {
    if (!text.empty()) text += ' ';
    text += '(';
    text += std::to_string(o.dx);
    text += ',';
    text += std::to_string(o.dy);
    text += ')';
  }
  return text;
}

// The region `region` stands for on kGame's 8x8 board, per player, after `forms` (e.g. named
// regions) are added to the game. It is read back from an end rule (win (reach REGION)).
PlayerRegion region_of(std::string_view region, std::string_view forms = "") {
  std::string text = game_with("(win (reach Pawn far-row))", "(win (reach " + std::string(region) + "))");
  text =
      replace_once(text, "(board (rectangle width height))", "(board (rectangle width height))\n" + std::string(forms));
  const Rules rules = rules_of(text);
  if (rules.end.empty()) return {};
  return rules.end.front().region;
}

// The offsets of the first move of a one-move piece, per player, with the given players.
std::array<std::vector<Offset>, kMaxPlayers> offsets_of(std::string_view move,
                                                        std::string_view players = "(White north) (Black south)") {
  std::string text = game_with(R"((piece Pawn "P"
    (step (forward forward-left forward-right) (to empty))
    (step (forward-left forward-right) (to enemy) capture)))",
                               "(piece Pawn \"P\" " + std::string(move) + ")");
  text = replace_once(text, "(White north) (Black south)", players);
  text = replace_once(text, "(setup (place Pawn (home-rows 2)))", "(setup)");
  text = replace_once(text, "(win (reach Pawn far-row))", "(win opponent-has-no-pieces)");
  const Rules rules = rules_of(text);
  if (rules.pieces.empty() || rules.pieces[0].moves.empty()) return {};
  return rules.pieces[0].moves[0].offsets;
}

// ---- Syntax: what the S-expression reader refuses ------------------------------------------------

TEST(LangSyntax, UnclosedParenAtTheEndOfTheFilePointsAtTheOpeningParen) {
  EXPECT_EQ(error_of(R"((game "x" (players (a north) (b south))"), R"(test.game:1:11: error: this '(' is never closed
 1 | (game "x" (players (a north) (b south)
   |           ^
hint: add the missing ')'
)");
}

TEST(LangSyntax, UnclosedGameFormPointsAtTheGame) {
  std::string text(kGame);
  text.erase(text.rfind(')'), 1);
  EXPECT_EQ(error_of(text), R"(test.game:1:1: error: this '(' is never closed
 1 | (game "Breakthrough"
   | ^
hint: add the missing ')'
)");
}

TEST(LangSyntax, UnclosedParenInTheMiddlePointsAtTheFormLeftOpen) {
  EXPECT_EQ(error_of(game_with("(board (rectangle width height))", "(board (rectangle width height)")),
            R"(test.game:7:3: error: this '(' is never closed
 7 |   (board (rectangle width height)
   |   ^
hint: add the missing ')'
)");
}

TEST(LangSyntax, UnclosedMoveInsideAPiecePointsAtTheMove) {
  EXPECT_EQ(error_of(game_with("(step (forward forward-left forward-right) (to empty))",
                               "(step (forward forward-left forward-right) (to empty)")),
            R"(test.game:9:5: error: this '(' is never closed
 9 |     (step (forward forward-left forward-right) (to empty)
   |     ^
hint: add the missing ')'
)");
}

TEST(LangSyntax, StrayClosingParenInsideTheFile) {
  EXPECT_EQ(error_of(game_with("(board (rectangle width height))", "(board (rectangle width height)))")),
            R"(test.game:15:27: error: unexpected ')' with no '(' to close
 15 |     (lose no-legal-moves)))
    |                           ^
hint: remove it, or add the '(' it closes
)");
}

TEST(LangSyntax, StrayClosingParenAfterTheGame) {
  EXPECT_EQ(error_of(std::string(kGame) + ")"), R"(test.game:16:1: error: unexpected ')' with no '(' to close
 16 | )
    | ^
hint: remove it, or add the '(' it closes
)");
}

TEST(LangSyntax, UnterminatedStringPointsAtItsOpeningQuote) {
  EXPECT_EQ(error_of(game_with(R"("Breakthrough")", R"("Breakthrough)")),
            R"(test.game:1:7: error: this string is never closed
 1 | (game "Breakthrough
   |       ^
hint: add a '"' before the end of the line
)");
}

TEST(LangSyntax, StringsCannotSpanLines) {
  EXPECT_EQ(error_of(game_with(R"("Breakthrough")", "\"Break\nthrough\"")),
            R"(test.game:1:7: error: this string is never closed
 1 | (game "Break
   |       ^
hint: add a '"' before the end of the line
)");
}

TEST(LangSyntax, UnknownEscapeInAString) {
  EXPECT_EQ(error_of(game_with(R"("Breakthrough")", R"("Break\qthrough")")),
            R"(test.game:1:13: error: unknown escape in a string
 1 | (game "Break\qthrough"
   |             ^~
hint: strings understand \" \\ \n and \t
)");
}

TEST(LangSyntax, HashCharacterIsRefused) {
  EXPECT_EQ(error_of(game_with("(board (rectangle", "(board # (rectangle")),
            R"(test.game:7:10: error: unexpected character '#'
 7 |   (board # (rectangle width height))
   |          ^
hint: rule files are made of (lists), words, numbers and "strings"
)");
}

TEST(LangSyntax, SquareBracketsAreRefused) {
  EXPECT_EQ(error_of(game_with("(board (rectangle width height))", "(board [rectangle width height])")),
            R"(test.game:7:10: error: unexpected character '['
 7 |   (board [rectangle width height])
   |          ^
hint: rule files are made of (lists), words, numbers and "strings"
)");
}

TEST(LangSyntax, NonAsciiByteOutsideAStringIsShownAsQuestionMark) {
  EXPECT_EQ(error_of(game_with("(rectangle width height)",
                               "(rectangle w\xe9"
                               "dth height)")),
            R"(test.game:7:22: error: unexpected byte 0xe9
 7 |   (board (rectangle w?dth height))
   |                      ^
hint: only ASCII is allowed outside strings and comments
)");
}

TEST(LangSyntax, NonAsciiInsideStringsAndCommentsIsFine) {
  std::string text = "; caf\xc3\xa9 # [ ) (\n" + game_with("Reach the far row",
                                                           "R\xc3\xa9"
                                                           "ach the far row");
  EXPECT_EQ(rules_of(text).about,
            "R\xc3\xa9"
            "ach the far row, or capture every enemy piece, to win.");
}

TEST(LangSyntax, NulByteIsRefused) {
  EXPECT_EQ(error_of(game_with("(rectangle width height)", std::string("(rectangle width") + '\0' + " height)")),
            R"(test.game:7:26: error: unexpected byte 0x00
 7 |   (board (rectangle width? height))
   |                          ^
hint: rule files are made of (lists), words, numbers and "strings"
)");
}

TEST(LangSyntax, BinaryGarbageIsRefusedAtItsFirstByte) {
  const std::string png("\x89PNG\r\n\x1a\n\0\0\0\rIHDR\xff\xfe", 18);
  EXPECT_EQ(error_of(png), R"(test.game:1:1: error: unexpected byte 0x89
 1 | ?PNG
   | ^
hint: only ASCII is allowed outside strings and comments
)");
}

TEST(LangSyntax, EveryByteValueInOneFileIsAnErrorNotACrash) {
  std::string all_bytes;
  for (int byte = 0; byte < 256; ++byte) all_bytes.push_back(static_cast<char>(byte));
  EXPECT_NE(error_of(all_bytes).find("test.game:1:1: error: unexpected"), std::string::npos);
}

TEST(LangSyntax, IntegerTooLargeForSixtyFourBits) {
  EXPECT_EQ(error_of(game_with("(param width 8", "(param width 99999999999999999999")),
            R"(test.game:3:16: error: the number 99999999999999999999 is too large
 3 |   (param width 99999999999999999999 (range 3 26))
   |                ^~~~~~~~~~~~~~~~~~~~
hint: numbers in rule files must fit in 64 bits
)");
}

TEST(LangSyntax, WordStartingWithADigitIsNamedAsAWhole) {
  EXPECT_EQ(error_of(game_with("(rectangle width height)", "(rectangle 8x8)")),
            R"(test.game:7:21: error: '8x8' is not a number, and a word cannot start with a digit
 7 |   (board (rectangle 8x8))
   |                     ^~~
hint: numbers are whole numbers like 8; words start with a letter
)");
}

// The nesting error for a file whose only line is `text` (all parentheses, longer than the 100
// columns a diagnostic quotes): the caret under the first '(' too many, in a window cut out of the
// line 50 columns before it and marked with "..." on both sides.
std::string nesting_error(const std::string& text) {
  const std::size_t caret = kMaxNesting, begin = caret - 50;
  return "test.game:1:" + std::to_string(kMaxNesting + 1) + ": error: lists are nested more than " +
         std::to_string(kMaxNesting) + " deep\n 1 | ..." + text.substr(begin, 100) + "...\n   | " +
         std::string(caret - begin + 3, ' ') +
         "^\nhint: a rule file never needs this much nesting; check for a runaway '('\n";
}

TEST(LangSyntax, NestingOneDeeperThanTheLimitIsAnError) {
  const std::string text = std::string(kMaxNesting + 1, '(') + std::string(kMaxNesting + 1, ')');
  EXPECT_EQ(error_of(text), nesting_error(text));
}

TEST(LangSyntax, NestingExactlyAtTheLimitParses) {
  const std::string text = std::string(kMaxNesting, '(') + std::string(kMaxNesting, ')');
  EXPECT_EQ(parse_sexpr(source(text)).size(), 1u);
}

TEST(LangSyntax, HundredThousandOpeningParensAreAnErrorNotAStackOverflow) {
  const std::string text(100000, '(');
  EXPECT_EQ(error_of(text), nesting_error(text));
}

TEST(LangSyntax, HundredThousandBalancedParensAreAnErrorNotAStackOverflow) {
  const std::string text = std::string(100000, '(') + std::string(100000, ')');
  EXPECT_EQ(error_of(text), nesting_error(text));
}

TEST(LangSyntax, EmptyFileHoldsNoGame) {
  EXPECT_EQ(error_of(""), R"(test.game: error: the file holds no game
hint: a rule file is one form: (game "Name" ...)
)");
}

TEST(LangSyntax, FileWithOnlyCommentsHoldsNoGame) {
  EXPECT_EQ(error_of("; nothing here yet\n\n   ; still nothing"), R"(test.game: error: the file holds no game
hint: a rule file is one form: (game "Name" ...)
)");
}

TEST(LangSyntax, Utf8ByteOrderMarkIsSkipped) { EXPECT_EQ(rules_of("\xef\xbb\xbf" + std::string(kGame)).width, 8); }

TEST(LangSyntax, WindowsLineEndingsAndTabsAreFine) {
  std::string text;  // kGame with "\r\n" for "\n" and a tab for every two spaces
  for (std::size_t i = 0; i < kGame.size(); ++i) {
    if (kGame[i] == '\n') {
      text += "\r\n";
    } else if (kGame.substr(i, 2) == "  ") {
      text += '\t';
      ++i;
    } else {
      text += kGame[i];
    }
  }
  const Rules rules = rules_of(text);
  EXPECT_EQ(rules.cells(), 64);
  EXPECT_EQ(rules.setup.size(), 32u);
}

TEST(LangSyntax, CarriageReturnIsNotShownInTheQuotedLine) {
  EXPECT_EQ(error_of("(game \"x\"\r\n  (board #))"), R"(test.game:2:10: error: unexpected character '#'
 2 |   (board #))
   |          ^
hint: rule files are made of (lists), words, numbers and "strings"
)");
}

TEST(LangSyntax, TabsInTheQuotedLineKeepTheCaretAligned) {
  EXPECT_EQ(error_of("(game \"x\"\t(board #))"), R"(test.game:1:18: error: unexpected character '#'
 1 | (game "x" (board #))
   |                  ^
hint: rule files are made of (lists), words, numbers and "strings"
)");
}

// ---- Structure: the forms of a game --------------------------------------------------------------

TEST(LangStructure, SomethingAfterTheGame) {
  EXPECT_EQ(error_of("(game \"x\") 42"), R"(test.game:1:12: error: expected '(game ...)', found the number 42
 1 | (game "x") 42
   |            ^~
hint: usage: (game "NAME" FORM...)
)");
}

TEST(LangStructure, FileWithoutTheGameWrapperShowsTheUsage) {
  EXPECT_EQ(error_of("(board (rectangle 8 8))"), R"(test.game:1:1: error: expected '(game ...)', found '(board ...)'
 1 | (board (rectangle 8 8))
   | ^
hint: usage: (game "NAME" FORM...)
)");
}

TEST(LangStructure, MisspelledGameKeywordSuggestsGame) {
  EXPECT_EQ(error_of(R"((gmae "x"))"), R"(test.game:1:1: error: expected '(game ...)', found '(gmae ...)'
 1 | (gmae "x")
   | ^
hint: did you mean 'game'?
)");
}

TEST(LangStructure, BareWordAtTopLevel) {
  EXPECT_EQ(error_of("game"), R"(test.game:1:1: error: expected '(game ...)', found 'game'
 1 | game
   | ^~~~
hint: usage: (game "NAME" FORM...)
)");
}

TEST(LangStructure, EmptyListAtTopLevel) {
  EXPECT_EQ(error_of("()"), R"(test.game:1:1: error: expected '(game ...)', found an empty list '()'
 1 | ()
   | ^
hint: usage: (game "NAME" FORM...)
)");
}

TEST(LangStructure, TwoGamesInOneFile) {
  EXPECT_EQ(error_of(std::string(kGame) + "(game \"Again\")\n"),
            R"(test.game:16:1: error: a rule file holds exactly one '(game ...)'
 16 | (game "Again")
    | ^
hint: remove the second one
)");
}

TEST(LangStructure, GameWithoutAName) {
  EXPECT_EQ(error_of("(game)"), R"(test.game:1:1: error: '(game ...)' is missing its NAME
 1 | (game)
   | ^
hint: usage: (game "NAME" FORM...)
)");
}

TEST(LangStructure, GameNameMustBeAString) {
  EXPECT_EQ(error_of(game_with(R"("Breakthrough")", "Breakthrough")),
            R"(test.game:1:7: error: the game's name must be a "string"
 1 | (game Breakthrough
   |       ^~~~~~~~~~~~
hint: write (game "My Game" ...)
)");
}

TEST(LangStructure, UnknownFormSuggestsTheClosestOne) {
  EXPECT_EQ(error_of(game_with("(players (White", "(player (White")),
            R"(test.game:6:4: error: unknown form 'player' in a game
 6 |   (player (White north) (Black south))
   |    ^~~~~~
hint: did you mean 'players'?
)");
}

TEST(LangStructure, UnknownFormPeiceSuggestsPiece) {
  EXPECT_EQ(error_of(game_with("(piece Pawn", "(peice Pawn")), R"(test.game:8:4: error: unknown form 'peice' in a game
 8 |   (peice Pawn "P"
   |    ^~~~~
hint: did you mean 'piece'?
)");
}

TEST(LangStructure, UnknownFormFarFromAnyListsTheForms) {
  EXPECT_EQ(error_of(game_with("(board (rectangle width height))", "(board (rectangle width height))\n  (rules)")),
            R"(test.game:8:4: error: unknown form 'rules' in a game
 8 |   (rules)
   |    ^~~~~
hint: expected one of 'about', 'param', 'variant', 'players', 'board', 'region', 'piece', 'setup', 'end', 'pass-when-stuck', 'swap-rule', 'must-capture', 'moves', 'prefer', 'turn', 'counter', 'legal', 'attribute', 'register', 'phases', 'phase', 'hands', 'track'
)");
}

TEST(LangStructure, WordInsideTheGameWhereAFormBelongs) {
  EXPECT_EQ(error_of(game_with("(board (rectangle width height))", "board")),
            R"(test.game:7:3: error: expected a form like '(keyword ...)' inside '(game ...)', found 'board'
 7 |   board
   |   ^~~~~
)");
}

TEST(LangStructure, MissingPlayersForm) {
  EXPECT_EQ(error_of(game_with("  (players (White north) (Black south))\n", "")),
            R"(test.game:1:1: error: the game has no '(players ...)' form
 1 | (game "Breakthrough"
   | ^
hint: usage: (players (NAME FACING)...): 1 to 8 players in turn order, with FACING one of north, south, east, west
)");
}

TEST(LangStructure, MissingBoardForm) {
  EXPECT_EQ(error_of(game_with("  (board (rectangle width height))\n", "")),
            R"(test.game:1:1: error: the game has no '(board ...)' form
 1 | (game "Breakthrough"
   | ^
hint: usage: (board (rectangle WIDTH HEIGHT) [(holes REGION...)]) or (board (rhombus WIDTH HEIGHT) [(holes REGION...)]) or (board (hexagon SIDE) [(holes REGION...)]) or (board (points CELL...) (line DIRECTION CELL...)...), with (line ...) and (link ...) after any shape
)");
}

TEST(LangStructure, MissingPieceForm) {
  EXPECT_EQ(error_of(game_with(R"(  (piece Pawn "P"
    (step (forward forward-left forward-right) (to empty))
    (step (forward-left forward-right) (to enemy) capture))
)",
                               "")),
            R"(test.game:1:1: error: the game has no '(piece ...)' form
 1 | (game "Breakthrough"
   | ^
hint: usage: (piece NAME ["LETTER"] MOVE... [(promote PIECE REGION)])
)");
}

TEST(LangStructure, MissingSetupForm) {
  EXPECT_EQ(error_of(game_with("  (setup (place Pawn (home-rows 2)))\n", "")),
            R"(test.game:1:1: error: the game has no '(setup ...)' form
 1 | (game "Breakthrough"
   | ^
hint: usage: (setup (place [PLAYER] PIECE REGION)... (in-hand [PLAYER] PIECE COUNT)... (count N REGION)...)
)");
}

TEST(LangStructure, MissingEndForm) {
  EXPECT_EQ(error_of(game_with(R"end(
  (end
    (win (reach Pawn far-row))
    (win opponent-has-no-pieces)
    (lose no-legal-moves))))end",
                               ")")),
            R"(test.game:1:1: error: the game has no '(end ...)' form
 1 | (game "Breakthrough"
   | ^
hint: usage: (end (win|lose|draw|most-pieces [PLAYER] CONDITION)... (most-area DIRECTIONS [(komi N)] CONDITION)... (most-count REGION CONDITION)...)
)");
}

TEST(LangStructure, TwoBoardsNameTheLineOfTheFirst) {
  EXPECT_EQ(error_of(game_with("(board (rectangle width height))",
                               "(board (rectangle width height))\n  (board (rectangle 4 4))")),
            R"(test.game:8:3: error: '(board ...)' appears twice; the first is at line 7
 8 |   (board (rectangle 4 4))
   |   ^
hint: merge the two into one
)");
}

TEST(LangStructure, TwoAboutFormsAreRefused) {
  EXPECT_EQ(error_of(game_with("(param width", "(about \"again\")\n  (param width")),
            R"(test.game:3:3: error: '(about ...)' appears twice; the first is at line 2
 3 |   (about "again")
   |   ^
hint: merge the two into one
)");
}

TEST(LangStructure, TooFewArgumentsShowTheUsage) {
  EXPECT_EQ(error_of(game_with("(rectangle width height)", "(rectangle width)")),
            R"(test.game:7:10: error: '(rectangle ...)' is missing its HEIGHT
 7 |   (board (rectangle width))
   |          ^
hint: usage: (rectangle WIDTH HEIGHT)
)");
}

TEST(LangStructure, TooManyArgumentsPointAtTheFirstExtraOne) {
  EXPECT_EQ(error_of(game_with("(rectangle width height)", "(rectangle width height 3)")),
            R"(test.game:7:34: error: '(rectangle ...)' takes no more than 2 arguments; the number 3 is one too many
 7 |   (board (rectangle width height 3))
   |                                  ^
hint: usage: (rectangle WIDTH HEIGHT)
)");
}

TEST(LangStructure, OneArgumentTooManyUsesTheSingular) {
  EXPECT_EQ(error_of(game_with("(about \"Reach the far row, or capture every enemy piece, to win.\")",
                               "(about \"Reach\" \"Win\")")),
            R"(test.game:2:18: error: '(about ...)' takes no more than 1 argument; the string "Win" is one too many
 2 |   (about "Reach" "Win")
   |                  ^~~~~
hint: usage: (about "TEXT")
)");
}

TEST(LangStructure, BoardWithoutAShape) {
  EXPECT_EQ(error_of(game_with("(board (rectangle width height))", "(board)")),
            R"(test.game:7:3: error: '(board ...)' is missing its SHAPE
 7 |   (board)
   |   ^
hint: usage: (board (rectangle WIDTH HEIGHT) [(holes REGION...)]) or (board (rhombus WIDTH HEIGHT) [(holes REGION...)]) or (board (hexagon SIDE) [(holes REGION...)]) or (board (points CELL...) (line DIRECTION CELL...)...), with (line ...) and (link ...) after any shape
)");
}

TEST(LangStructure, UnknownBoardShape) {
  EXPECT_EQ(error_of(game_with("(rectangle width height)", "(square 8)")),
            R"(test.game:7:10: error: unknown board shape '(square ...)'
 7 |   (board (square 8))
   |          ^
hint: usage: (board (rectangle WIDTH HEIGHT) [(holes REGION...)]) or (board (rhombus WIDTH HEIGHT) [(holes REGION...)]) or (board (hexagon SIDE) [(holes REGION...)]) or (board (points CELL...) (line DIRECTION CELL...)...), with (line ...) and (link ...) after any shape
)");
}

TEST(LangStructure, StringWhereAPieceNameBelongs) {
  EXPECT_EQ(error_of(game_with("(piece Pawn", "(piece \"Pawn\"")),
            R"(test.game:8:10: error: expected a piece name here, found the string "Pawn"
 8 |   (piece "Pawn" "P"
   |          ^~~~~~
)");
}

TEST(LangStructure, StringWhereAPlayerNameBelongs) {
  EXPECT_EQ(error_of(game_with("(White north)", "(\"White\" north)")),
            R"(test.game:6:13: error: expected a player name here, found the string "White"
 6 |   (players ("White" north) (Black south))
   |             ^~~~~~~
)");
}

TEST(LangStructure, StringWhereAParameterNameBelongs) {
  EXPECT_EQ(error_of(game_with("(param width", "(param \"width\"")),
            R"(test.game:3:10: error: expected a parameter name here, found the string "width"
 3 |   (param "width" 8 (range 3 26))
   |          ^~~~~~~
)");
}

TEST(LangStructure, WordWhereAStringBelongs) {
  EXPECT_EQ(
      error_of(game_with("(about \"Reach the far row, or capture every enemy piece, to win.\")", "(about Reach)")),
      R"(test.game:2:10: error: expected a "string"
 2 |   (about Reach)
   |          ^~~~~
hint: usage: (about "TEXT")
)");
}

TEST(LangStructure, StringWhereANumberBelongs) {
  EXPECT_EQ(error_of(game_with("(rectangle width height)", "(rectangle \"8\" height)")),
            R"(test.game:7:21: error: expected a number, found the string "8"
 7 |   (board (rectangle "8" height))
   |                     ^~~
)");
}

TEST(LangStructure, VariantNameMustBeAString) {
  EXPECT_EQ(error_of(game_with("\"zillions-7x7\"", "zillions")),
            R"(test.game:5:12: error: a variant's name must be a "string"
 5 |   (variant zillions (width 7) (height 7))
   |            ^~~~~~~~
hint: usage: (variant "NAME" (PARAM VALUE)...)
)");
}

TEST(LangStructure, VariantSettingMustBeAList) {
  EXPECT_EQ(error_of(game_with("(width 7) (height 7)", "width 7")),
            R"(test.game:5:27: error: expected '(PARAM VALUE)' in a variant, found 'width'
 5 |   (variant "zillions-7x7" width 7)
   |                           ^~~~~
hint: usage: (variant "NAME" (PARAM VALUE)...)
)");
}

TEST(LangStructure, PlayersWithoutTheirFacing) {
  EXPECT_EQ(error_of(game_with("(players (White north) (Black south))", "(players White Black)")),
            R"(test.game:6:12: error: expected '(NAME FACING)', found 'White'
 6 |   (players White Black)
   |            ^~~~~
hint: usage: (players (NAME FACING)...): 1 to 8 players in turn order, with FACING one of north, south, east, west
)");
}

TEST(LangStructure, APieceWithoutMovesStandsWhereItIsPlaced) {
  const std::string text = replace_once(
      game_with("(setup (place Pawn (home-rows 2)))", "(setup (place Pawn (home-rows 2)) (place White Wall d4))"),
      "  (piece Pawn \"P\"", "  (piece Wall \"W\")\n  (piece Pawn \"P\"");
  const Rules rules = load_rules(source(text), {});
  ASSERT_EQ(rules.pieces.size(), 2u);
  EXPECT_EQ(rules.pieces[0].name, "Wall");
  EXPECT_TRUE(rules.pieces[0].moves.empty());
  EXPECT_EQ(std::count_if(rules.setup.begin(), rules.setup.end(), [](const Placement& p) { return p.piece == 0; }), 1);
}

// kGame with `extra` more piece types declared before the pawn, one a line.
std::string game_with_piece_types(int extra) {
  std::string pieces;
  for (int i = 0; i < extra; ++i) pieces += fmt::format("(piece Kind{} (step n))\n  ", i);
  return game_with("(piece Pawn \"P\"", pieces + "(piece Pawn \"P\"");
}

// A position keeps a bitboard per piece type: the cap is the board's width's (lang::kBitboardWidths).
TEST(LangStructure, PieceTypesUpToTheCapOfTheBoardsWidth) {
  EXPECT_EQ(error_of(game_with_piece_types(64)),
            R"(test.game:72:3: error: on this 8x8 board, a game may have at most 64 piece types
 72 |   (piece Pawn "P"
    |   ^
hint: a position keeps a bitboard per piece type; boards of more than 128 cells may have 127
)");
  EXPECT_EQ(error_of(game_with_piece_types(127), params({{"width", "16"}, {"height", "16"}})),
            R"(test.game:135:3: error: on this 16x16 board, a game may have at most 127 piece types
 135 |   (piece Pawn "P"
     |   ^
hint: 127 is the most on any board; merge piece types that move alike
)");
}

// ---- Names: directions, targets, pieces, regions, players ---------------------------------------

TEST(LangNames, UnknownDirectionSuggestsTheClosest) {
  EXPECT_EQ(error_of(game_with("(step (forward forward-left", "(step (foward forward-left")),
            R"(test.game:9:12: error: unknown direction 'foward'
 9 |     (step (foward forward-left forward-right) (to empty))
   |            ^~~~~~
hint: did you mean 'forward'?
)");
}

TEST(LangNames, UnknownTargetListsTheTargets) {
  EXPECT_EQ(error_of(game_with("(to empty)", "(to nowhere)")),
            R"(test.game:9:52: error: unknown target 'nowhere'
 9 |     (step (forward forward-left forward-right) (to nowhere))
   |                                                    ^~~~~~~
hint: expected one of 'empty', 'enemy', 'friend', 'not-friend', 'any', 'occupied'
)");
}

TEST(LangNames, TargetWithSwappedLettersSuggestsTheTarget) {
  EXPECT_EQ(error_of(game_with("(to empty)", "(to emtpy)")),
            R"(test.game:9:52: error: unknown target 'emtpy'
 9 |     (step (forward forward-left forward-right) (to emtpy))
   |                                                    ^~~~~
hint: did you mean 'empty'?
)");
}

TEST(LangNames, AnAbbreviationSuggestsTheOneWordItShortens) {
  EXPECT_EQ(error_of(game_with("(to empty)", "(to emp)")),
            R"(test.game:9:52: error: unknown target 'emp'
 9 |     (step (forward forward-left forward-right) (to emp))
   |                                                    ^~~
hint: did you mean 'empty'?
)");
  // "fwd" shortens forward, forward-left and forward-right alike: no guess.
  EXPECT_EQ(closest_match("fwd", {"forward", "forward-left", "forward-right"}), "");
  EXPECT_EQ(closest_match("orth", {"orthogonal", "diagonal"}), "orthogonal");
}

TEST(LangNames, UnknownMoveKind) {
  EXPECT_EQ(error_of(game_with("(step (forward forward-left", "(stepp (forward forward-left")),
            R"(test.game:9:6: error: unknown move 'stepp'
 9 |     (stepp (forward forward-left forward-right) (to empty))
   |      ^~~~~
hint: did you mean 'step'?
)");
}

TEST(LangNames, UnknownPieceInTheSetup) {
  EXPECT_EQ(error_of(game_with("(place Pawn", "(place Queen")),
            R"(test.game:11:17: error: unknown piece 'Queen'
 11 |   (setup (place Queen (home-rows 2)))
    |                 ^~~~~
hint: expected one of 'Pawn'
)");
}

TEST(LangNames, UnknownPieceInReachSuggestsTheClosest) {
  EXPECT_EQ(error_of(game_with("(reach Pawn far-row)", "(reach Pwan far-row)")),
            R"(test.game:13:17: error: unknown piece 'Pwan'
 13 |     (win (reach Pwan far-row))
    |                 ^~~~
hint: did you mean 'Pawn'?
)");
}

TEST(LangNames, UnknownRegionWordSuggestsTheClosest) {
  EXPECT_EQ(error_of(game_with("(reach Pawn far-row)", "(reach Pawn far-rwo)")),
            R"(test.game:13:22: error: unknown region 'far-rwo'
 13 |     (win (reach Pawn far-rwo))
    |                      ^~~~~~~
hint: did you mean 'far-row'?
)");
}

TEST(LangNames, UnknownRegionWordListsTheChoices) {
  EXPECT_EQ(error_of(game_with("(reach Pawn far-row)", "(reach Pawn goal)")),
            R"(test.game:13:22: error: unknown region 'goal'
 13 |     (win (reach Pawn goal))
    |                      ^~~~
hint: expected one of 'all', 'home-row', 'far-row', 'dark-cells', 'light-cells', 'row', 'rows', 'column', 'columns', 'cells', 'home-rows', 'far-rows', 'union', 'except'
)");
}

TEST(LangNames, NamedRegionsAreAmongTheSuggestions) {
  const std::string text = game_with("(reach Pawn far-row)", "(reach Pawn goal)");
  EXPECT_EQ(error_of(replace_once(text, "  (piece", "  (region goals (row 8))\n  (piece")),
            R"(test.game:14:22: error: unknown region 'goal'
 14 |     (win (reach Pawn goal))
    |                      ^~~~
hint: did you mean 'goals'?
)");
}

TEST(LangNames, RegionWordUsedAsAFormSuggestsTheForm) {
  EXPECT_EQ(error_of(game_with("(home-rows 2)", "(far-row 2)")),
            R"(test.game:11:23: error: unknown region form 'far-row'
 11 |   (setup (place Pawn (far-row 2)))
    |                       ^~~~~~~
hint: did you mean 'far-rows'?
)");
}

TEST(LangNames, MisspelledRegionFormSuggestsTheForm) {
  EXPECT_EQ(error_of(game_with("(home-rows 2)", "(home-rwos 2)")),
            R"(test.game:11:23: error: unknown region form 'home-rwos'
 11 |   (setup (place Pawn (home-rwos 2)))
    |                       ^~~~~~~~~
hint: did you mean 'home-rows'?
)");
}

TEST(LangNames, MisspelledRegionFormWithOneArgument) {
  EXPECT_EQ(error_of(game_with("(home-rows 2)", "(homerows 2)")),
            R"(test.game:11:23: error: unknown region form 'homerows'
 11 |   (setup (place Pawn (homerows 2)))
    |                       ^~~~~~~~
hint: did you mean 'home-rows'?
)");
}

TEST(LangNames, MisspelledRegionFormWithTwoArguments) {
  EXPECT_EQ(error_of(game_with("(home-rows 2)", "(colums a b)")),
            R"(test.game:11:23: error: unknown region form 'colums'
 11 |   (setup (place Pawn (colums a b)))
    |                       ^~~~~~
hint: did you mean 'columns'?
)");
}

TEST(LangNames, UnknownPlayerInAPlacement) {
  EXPECT_EQ(error_of(game_with("(place Pawn", "(place Red Pawn")),
            R"(test.game:11:17: error: unknown player 'Red'
 11 |   (setup (place Red Pawn (home-rows 2)))
    |                 ^~~
hint: expected one of 'White', 'Black'
)");
}

TEST(LangNames, MisspelledPlayerSuggestsThePlayer) {
  EXPECT_EQ(error_of(game_with("(place Pawn", "(place Whtie Pawn")),
            R"(test.game:11:17: error: unknown player 'Whtie'
 11 |   (setup (place Whtie Pawn (home-rows 2)))
    |                 ^~~~~
hint: did you mean 'White'?
)");
}

TEST(LangNames, UnknownPlayerInAnEndRule) {
  EXPECT_EQ(error_of(game_with("(win (reach Pawn far-row))", "(win Red (reach Pawn far-row))")),
            R"(test.game:13:10: error: unknown player 'Red'
 13 |     (win Red (reach Pawn far-row))
    |          ^~~
hint: expected one of 'White', 'Black'
)");
}

TEST(LangNames, UnknownFacing) {
  EXPECT_EQ(error_of(game_with("(White north)", "(White up)")), R"(test.game:6:19: error: unknown facing 'up'
 6 |   (players (White up) (Black south))
   |                   ^~
hint: expected one of 'north', 'south', 'east', 'west'
)");
}

TEST(LangNames, MisspelledFacingSuggestsTheFacing) {
  EXPECT_EQ(error_of(game_with("(White north)", "(White nroth)")), R"(test.game:6:19: error: unknown facing 'nroth'
 6 |   (players (White nroth) (Black south))
   |                   ^~~~~
hint: did you mean 'north'?
)");
}

TEST(LangNames, BothPlayersWithTheSameName) {
  EXPECT_EQ(error_of(game_with("(Black south)", "(White south)")),
            R"(test.game:6:27: error: two players are called 'White'
 6 |   (players (White north) (White south))
   |                           ^~~~~
hint: each player needs a name of its own
)");
}

TEST(LangNames, DuplicatePieceName) {
  EXPECT_EQ(error_of(game_with("(piece Pawn \"P\"", "(piece Pawn \"P\" (step forward))\n  (piece Pawn \"Q\"")),
            R"(test.game:9:10: error: the piece 'Pawn' is declared twice
 9 |   (piece Pawn "Q"
   |          ^~~~
)");
}

TEST(LangNames, DuplicateParameterName) {
  const std::string text = game_with("(param height 8", "(param width 8");
  EXPECT_EQ(error_of(replace_once(text, "  (variant \"zillions-7x7\" (width 7) (height 7))\n", "")),
            R"(test.game:4:10: error: the parameter 'width' is declared twice
 4 |   (param width 8 (range 4 26))
   |          ^~~~~
)");
}

TEST(LangNames, DuplicateParameterNameInAGameWithVariants) {
  EXPECT_EQ(error_of(game_with("(param height 8", "(param width 8")),
            R"(test.game:4:10: error: the parameter 'width' is declared twice
 4 |   (param width 8 (range 4 26))
   |          ^~~~~
)");
}

TEST(LangNames, DuplicateRegionName) {
  EXPECT_EQ(error_of(game_with("(board (rectangle width height))",
                               "(board (rectangle width height))\n  (region start (row 1))\n  (region start (row 2))")),
            R"(test.game:9:11: error: the region 'start' is declared twice
 9 |   (region start (row 2))
   |           ^~~~~
)");
}

TEST(LangNames, DuplicateVariantName) {
  EXPECT_EQ(error_of(game_with("(height 7))", "(height 7))\n  (variant \"zillions-7x7\" (width 5))")),
            R"(test.game:6:12: error: the variant "zillions-7x7" is declared twice
 6 |   (variant "zillions-7x7" (width 5))
   |            ^~~~~~~~~~~~~~
)");
}

TEST(LangNames, RegionCannotTakeABuiltInName) {
  EXPECT_EQ(error_of(game_with("(board (rectangle width height))",
                               "(board (rectangle width height))\n  (region far-row (row 8))")),
            R"(test.game:8:11: error: 'far-row' is a built-in word and cannot name a region
 8 |   (region far-row (row 8))
   |           ^~~~~~~
)");
}

TEST(LangNames, RegionCannotTakeACellName) {
  EXPECT_EQ(error_of(game_with("(board (rectangle width height))",
                               "(board (rectangle width height))\n  (region a1 (row 8))")),
            R"(test.game:8:11: error: 'a1' is a built-in word and cannot name a region
 8 |   (region a1 (row 8))
   |           ^~
)");
}

TEST(LangNames, TwoPiecesWithTheSameExplicitLetter) {
  EXPECT_EQ(error_of(game_with("(piece Pawn \"P\"", "(piece Pawn \"P\" (step forward))\n  (piece Pike \"P\"")),
            R"(test.game:9:3: error: the pieces 'Pawn' and 'Pike' share the letter P
 9 |   (piece Pike "P"
   |   ^
hint: give this piece its own letter, (piece NAME "L" ...), or a code of up to three characters, (piece NAME "DK" ...)
)");
}

TEST(LangNames, TwoPiecesWhoseNamesStartWithTheSameLetter) {
  EXPECT_EQ(error_of(game_with("(piece Pawn \"P\"", "(piece Pawn (step forward))\n  (piece pike")),
            R"(test.game:9:3: error: the pieces 'Pawn' and 'pike' share the letter P
 9 |   (piece pike
   |   ^
hint: give this piece its own letter, (piece NAME "L" ...), or a code of up to three characters, (piece NAME "DK" ...)
)");
}

// A piece's code is a letter, or up to three letters, digits, '+' and '!' with a letter among them
// (for games of more piece types than letters: pieces_test.cpp).
TEST(LangNames, PieceCodeIsALetterOrAShortWord) {
  const auto code_error = [](std::string_view code) {
    return error_of(game_with("(piece Pawn \"P\"", fmt::format("(piece Pawn \"{}\"", code)));
  };
  const auto first_line = [](const std::string& text) { return text.substr(0, text.find('\n')); };
  EXPECT_EQ(code_error("P-1"),
            R"(test.game:8:15: error: a piece's code is made of letters, digits, '+' and '!'
 8 |   (piece Pawn "P-1"
   |               ^~~~~
hint: like "P", or "DK" in a game of more piece types than letters
)");
  EXPECT_EQ(first_line(code_error("ABCD")),
            "test.game:8:15: error: a piece's code is one letter, or up to 3 characters");
  EXPECT_EQ(first_line(code_error("7")), "test.game:8:15: error: a piece's code of one character is a letter");
  EXPECT_EQ(first_line(code_error("+1")),
            "test.game:8:15: error: a piece's code needs a letter, which tells its owner");
  EXPECT_EQ(rules_of(game_with("(piece Pawn \"P\"", "(piece Pawn \"+p\"")).pieces[0].code, "+P");
}

TEST(LangNames, PieceNameWithoutALetterAsksForOne) {
  EXPECT_EQ(error_of(game_with("(piece Pawn \"P\"", "(piece _pawn")),
            R"(test.game:8:10: error: a piece needs a letter for diagrams
 8 |   (piece _pawn
   |          ^~~~~
hint: give one after the name: (piece _pawn "L" ...)
)");
}

// ---- Numbers, parameters and variants -------------------------------------------------------------

TEST(LangNumbers, ArithmeticOnParameters) {
  const Rules rules = rules_of(game_with("(rectangle width height)", "(rectangle (+ width 1) (* 2 (/ height 4)))"));
  EXPECT_EQ(rules.width, 9);
  EXPECT_EQ(rules.height, 4);
}

TEST(LangNumbers, MinMaxAndNegation) {
  const Rules rules =
      rules_of(game_with("(rectangle width height)", "(rectangle (min 30 width (- 9 1)) (max 4 (- -6)))"));
  EXPECT_EQ(rules.width, 8);
  EXPECT_EQ(rules.height, 6);
}

TEST(LangNumbers, DivisionByZeroPointsAtTheDivisor) {
  EXPECT_EQ(error_of(game_with("(rectangle width height)", "(rectangle (/ width 0) height)")),
            R"(test.game:7:30: error: division by zero
 7 |   (board (rectangle (/ width 0) height))
   |                              ^
)");
}

TEST(LangNumbers, MultiplicationOverflow) {
  EXPECT_EQ(error_of(game_with("(rectangle width height)", "(rectangle (* 9223372036854775807 2) height)")),
            R"(test.game:7:44: error: this arithmetic overflows 64-bit integers
 7 |   (board (rectangle (* 9223372036854775807 2) height))
   |                                            ^
)");
}

TEST(LangNumbers, NegatingTheSmallestIntegerOverflows) {
  EXPECT_EQ(error_of(game_with("(rectangle width height)", "(rectangle (- (- -9223372036854775807 1)) height)")),
            R"(test.game:7:21: error: this arithmetic overflows 64-bit integers
 7 |   (board (rectangle (- (- -9223372036854775807 1)) height))
   |                     ^
)");
}

TEST(LangNumbers, DividingTheSmallestIntegerByMinusOneOverflows) {
  EXPECT_EQ(error_of(game_with("(rectangle width height)", "(rectangle (/ (- -9223372036854775807 1) -1) height)")),
            R"(test.game:7:51: error: this arithmetic overflows 64-bit integers
 7 |   (board (rectangle (/ (- -9223372036854775807 1) -1) height))
   |                                                   ^~
)");
}

TEST(LangNumbers, UnknownOperator) {
  EXPECT_EQ(error_of(game_with("(rectangle width height)", "(rectangle (pow 2 3) height)")),
            R"(test.game:7:21: error: expected a number, found '(pow ...)'
 7 |   (board (rectangle (pow 2 3) height))
   |                     ^
hint: arithmetic is written (+ a b), (- a b), (* a b), (/ a b), (min a b), (max a b)
)");
}

TEST(LangNumbers, OperatorWithoutOperands) {
  EXPECT_EQ(error_of(game_with("(rectangle width height)", "(rectangle (+) height)")),
            R"(test.game:7:21: error: '(+ ...)' needs at least one number
 7 |   (board (rectangle (+) height))
   |                     ^
)");
}

TEST(LangNumbers, UnknownParameterInAnExpressionSuggestsTheClosest) {
  EXPECT_EQ(error_of(game_with("(rectangle width height)", "(rectangle (+ width wdth) height)")),
            R"(test.game:7:30: error: 'wdth' is not a parameter or a number
 7 |   (board (rectangle (+ width wdth) height))
   |                              ^~~~
hint: did you mean 'width'?
)");
}

TEST(LangNumbers, ParameterUsedBeforeItsDeclaration) {
  EXPECT_EQ(error_of(game_with("(param width 8", "(param width height")),
            R"(test.game:3:16: error: the parameter 'height' is declared later, at line 4
 3 |   (param width height (range 3 26))
   |                ^~~~~~
hint: a parameter can only use the parameters declared above it
)");
}

TEST(LangNumbers, DefaultOutsideItsRangePointsAtTheDefault) {
  EXPECT_EQ(error_of(game_with("(param width 8", "(param width 30")),
            R"(test.game:3:16: error: width = 30 is out of range; it must be between 3 and 26
 3 |   (param width 30 (range 3 26))
   |                ^~
)");
}

TEST(LangNumbers, EmptyRangeIsReportedAsSuch) {
  EXPECT_EQ(error_of(game_with("(range 3 26)", "(range 30 26)")),
            R"(test.game:3:18: error: this range is empty: 30 is greater than 26
 3 |   (param width 8 (range 30 26))
   |                  ^
hint: write the smaller number first: (range 26 30)
)");
}

TEST(LangNumbers, RangeWithAnotherKeyword) {
  EXPECT_EQ(error_of(game_with("(range 3 26)", "(rnage 3 26)")),
            R"(test.game:3:18: error: expected '(range LOW HIGH)', found '(rnage ...)'
 3 |   (param width 8 (rnage 3 26))
   |                  ^
)");
}

TEST(LangNumbers, VariantSettingAnUnknownParameterSuggestsTheClosest) {
  EXPECT_EQ(error_of(game_with("(height 7))", "(hieght 7))")),
            R"(test.game:5:38: error: the variant sets 'hieght', which is not a parameter
 5 |   (variant "zillions-7x7" (width 7) (hieght 7))
   |                                      ^~~~~~
hint: did you mean 'height'?
)");
}

TEST(LangNumbers, VariantSettingAnUnknownParameterListsTheParameters) {
  EXPECT_EQ(error_of(game_with("(height 7))", "(depth 7))")),
            R"(test.game:5:38: error: the variant sets 'depth', which is not a parameter
 5 |   (variant "zillions-7x7" (width 7) (depth 7))
   |                                      ^~~~~
hint: expected one of 'width', 'height'
)");
}

TEST(LangNumbers, VariantSettingAParameterTwice) {
  EXPECT_EQ(error_of(game_with("(height 7))", "(width 6))")),
            R"(test.game:5:38: error: the variant "zillions-7x7" sets 'width' twice
 5 |   (variant "zillions-7x7" (width 7) (width 6))
   |                                      ^~~~~
)");
}

TEST(LangNumbers, ChosenVariantOutsideTheRangePointsAtTheVariant) {
  EXPECT_EQ(error_of(game_with("(width 7) (height 7)", "(width 2) (height 7)"), variant("zillions-7x7")),
            R"(test.game:5:34: error: width = 2 is out of range; it must be between 3 and 26
 5 |   (variant "zillions-7x7" (width 2) (height 7))
   |                                  ^
)");
}

TEST(LangNumbers, VariantThatIsNotChosenIsNotRangeChecked) {
  EXPECT_EQ(rules_of(game_with("(width 7) (height 7)", "(width 2) (height 7)")).width, 8);
}

// ---- Command-line options: --param and --variant ------------------------------------------------

TEST(LangOptions, ParamWithoutEqualsSign) {
  EXPECT_EQ(error_from([] { parse_param_option("width"); }), R"(error: --param 'width' is not of the form NAME=VALUE
hint: write for example --param width=6
)");
}

TEST(LangOptions, ParamWithoutAName) {
  EXPECT_EQ(error_from([] { parse_param_option("=5"); }), R"(error: --param '=5' is not of the form NAME=VALUE
hint: write for example --param width=6
)");
}

TEST(LangOptions, ParamSplitsAtTheFirstEqualsSign) {
  EXPECT_EQ(parse_param_option("width=5"), (std::pair<std::string, std::string>{"width", "5"}));
  EXPECT_EQ(parse_param_option("a=b=c"), (std::pair<std::string, std::string>{"a", "b=c"}));
  EXPECT_EQ(parse_param_option("width="), (std::pair<std::string, std::string>{"width", ""}));
}

TEST(LangOptions, UnknownParamSuggestsTheClosest) {
  EXPECT_EQ(error_of(std::string(kGame), params({{"wdth", "5"}})),
            R"(error: --param wdth: this game has no parameter 'wdth'
hint: did you mean 'width'?
)");
}

TEST(LangOptions, MisspelledParamSuggestsTheParam) {
  EXPECT_EQ(error_of(std::string(kGame), params({{"widht", "5"}})),
            R"(error: --param widht: this game has no parameter 'widht'
hint: did you mean 'width'?
)");
}

TEST(LangOptions, UnknownParamListsTheParams) {
  EXPECT_EQ(error_of(std::string(kGame), params({{"depth", "5"}})),
            R"(error: --param depth: this game has no parameter 'depth'
hint: expected one of 'width', 'height'
)");
}

TEST(LangOptions, ParamOnAGameWithoutParams) {
  std::string text = game_with("  (param width 8 (range 3 26))\n  (param height 8 (range 4 26))\n", "");
  text = replace_once(text, "  (variant \"zillions-7x7\" (width 7) (height 7))\n", "");
  text = replace_once(text, "(rectangle width height)", "(rectangle 8 8)");
  EXPECT_EQ(error_of(text, params({{"width", "5"}})), R"(error: --param width: this game has no parameter 'width'
hint: this game has no parameters
)");
}

TEST(LangOptions, ParamValueThatIsNotANumber) {
  EXPECT_EQ(error_of(std::string(kGame), params({{"width", "abc"}})),
            R"(error: --param width=abc: 'abc' is not a whole number
hint: write for example --param width=8
)");
}

TEST(LangOptions, ParamValueThatIsEmpty) {
  EXPECT_EQ(error_of(std::string(kGame), params({{"width", ""}})),
            R"(error: --param width=: '' is not a whole number
hint: write for example --param width=8
)");
}

TEST(LangOptions, ParamValueWithAPlusSign) {
  EXPECT_EQ(rules_of(std::string(kGame), params({{"width", "+5"}})).width, 5);
}

TEST(LangOptions, ParamValueTooLarge) {
  EXPECT_EQ(error_of(std::string(kGame), params({{"width", "99999999999999999999"}})),
            R"(error: --param width=99999999999999999999: '99999999999999999999' is too large
hint: numbers must fit in 64 bits
)");
}

TEST(LangOptions, ParamOutsideItsRangeNamesTheLine) {
  EXPECT_EQ(error_of(std::string(kGame), params({{"width", "27"}})),
            R"(error: --param width = 27 is out of range; it must be between 3 and 26
hint: see line 3 of test.game
)");
}

TEST(LangOptions, ParamBelowItsRange) {
  EXPECT_EQ(error_of(std::string(kGame), params({{"height", "3"}})),
            R"(error: --param height = 3 is out of range; it must be between 4 and 26
hint: see line 4 of test.game
)");
}

TEST(LangOptions, UnknownVariantSuggestsTheClosest) {
  EXPECT_EQ(error_of(std::string(kGame), variant("zillions-7x8")),
            R"(error: --variant: this game has no variant "zillions-7x8"
hint: did you mean 'zillions-7x7'?
)");
}

TEST(LangOptions, UnknownVariantListsTheVariants) {
  EXPECT_EQ(error_of(std::string(kGame), variant("tiny")), R"(error: --variant: this game has no variant "tiny"
hint: expected one of 'zillions-7x7'
)");
}

TEST(LangOptions, VariantOnAGameWithoutVariants) {
  EXPECT_EQ(error_of(game_with("  (variant \"zillions-7x7\" (width 7) (height 7))\n", ""), variant("tiny")),
            R"(error: --variant: this game has no variant "tiny"
hint: this game has no variants
)");
}

TEST(LangOptions, ParamOverridesTheChosenVariant) {
  const Rules rules = rules_of(std::string(kGame), params({{"width", "5"}}, "zillions-7x7"));
  EXPECT_EQ(rules.width, 5);
  EXPECT_EQ(rules.height, 7);
  EXPECT_EQ(rules.variant, "zillions-7x7");
}

// ---- Board and setup -----------------------------------------------------------------------------

TEST(LangBoard, TwentySevenColumnsAreTooMany) {
  EXPECT_EQ(error_of(game_with("(rectangle width height)", "(rectangle 27 height)")),
            R"(test.game:7:21: error: the board is too large: 27 columns, at most 26 are supported
 7 |   (board (rectangle 27 height))
   |                     ^~
hint: columns are named a..z and rows 1..26
)");
}

TEST(LangBoard, TooManyRowsFromArithmetic) {
  EXPECT_EQ(error_of(game_with("(rectangle width height)", "(rectangle width (* 4 height))")),
            R"(test.game:7:27: error: the board is too large: 32 rows, at most 26 are supported
 7 |   (board (rectangle width (* 4 height)))
   |                           ^
hint: columns are named a..z and rows 1..26
)");
}

TEST(LangBoard, ZeroRows) {
  EXPECT_EQ(error_of(game_with("(rectangle width height)", "(rectangle 8 0)")),
            R"(test.game:7:23: error: a board needs at least one of its rows; this one has 0
 7 |   (board (rectangle 8 0))
   |                       ^
)");
}

TEST(LangBoard, NegativeColumns) {
  EXPECT_EQ(error_of(game_with("(rectangle width height)", "(rectangle -3 8)")),
            R"(test.game:7:21: error: a board needs at least one of its columns; this one has -3
 7 |   (board (rectangle -3 8))
   |                     ^~
)");
}

TEST(LangSetup, CellOutsideTheBoard) {
  EXPECT_EQ(error_of(game_with("(home-rows 2)", "(cells a1 a9)")),
            R"(test.game:11:32: error: the cell a9 is outside the 8x8 board
 11 |   (setup (place Pawn (cells a1 a9)))
    |                                ^~
hint: cells run from a1 to h8
)");
}

TEST(LangSetup, BareCellOutsideTheBoard) {
  EXPECT_EQ(error_of(game_with("(home-rows 2)", "i1")), R"(test.game:11:22: error: the cell i1 is outside the 8x8 board
 11 |   (setup (place Pawn i1))
    |                      ^~
hint: cells run from a1 to h8
)");
}

TEST(LangSetup, CellInCapitalLettersIsNotACell) {
  EXPECT_EQ(error_of(game_with("(home-rows 2)", "(cells a1 A1)")),
            R"(test.game:11:32: error: expected a cell like a1, found 'A1'
 11 |   (setup (place Pawn (cells a1 A1)))
    |                                ^~
)");
}

TEST(LangSetup, RowZeroIsNotACell) {
  EXPECT_EQ(error_of(game_with("(home-rows 2)", "(cells a1 a0)")),
            R"(test.game:11:32: error: expected a cell like a1, found 'a0'
 11 |   (setup (place Pawn (cells a1 a0)))
    |                                ^~
)");
}

TEST(LangSetup, EmptyCellsForm) {
  EXPECT_EQ(error_of(game_with("(home-rows 2)", "(cells)")),
            R"(test.game:11:22: error: '(cells ...)' needs at least one cell
 11 |   (setup (place Pawn (cells)))
    |                      ^
hint: usage: (cells CELL...)
)");
}

TEST(LangSetup, TwoPiecesOnOneCellNameTheCellAndTheFirstLine) {
  EXPECT_EQ(error_of(game_with("(setup (place Pawn (home-rows 2)))",
                               "(setup (place Pawn (home-rows 2))\n         (place White Pawn (cells c2)))")),
            R"(test.game:12:10: error: two pieces on c2: it was already filled at line 11
 12 |          (place White Pawn (cells c2)))
    |          ^
)");
}

TEST(LangSetup, AbsoluteRegionWithoutAPlayerExplainsTheCollision) {
  EXPECT_EQ(error_of(game_with("(home-rows 2)", "(row 1)")),
            R"(test.game:11:10: error: two pieces on a1: this '(place ...)' puts a piece of each player there
 11 |   (setup (place Pawn (row 1)))
    |          ^
hint: name the player, as in (place White Pawn ...), or use a region seen from each player's side, such as (home-rows 1)
)");
}

TEST(LangSetup, CellListedTwice) {
  EXPECT_EQ(error_of(game_with("(place Pawn (home-rows 2))", "(place White Pawn (cells c2 c2))")),
            R"(test.game:11:38: error: the cell c2 is listed twice
 11 |   (setup (place White Pawn (cells c2 c2)))
    |                                      ^~
)");
}

TEST(LangSetup, RowOutsideTheBoard) {
  EXPECT_EQ(error_of(game_with("(home-rows 2)", "(row 9)")),
            R"(test.game:11:27: error: the row number (the board has 8 rows) must be between 1 and 8, but it is 9
 11 |   (setup (place Pawn (row 9)))
    |                           ^
)");
}

TEST(LangSetup, RowZero) {
  EXPECT_EQ(error_of(game_with("(home-rows 2)", "(rows 0 2)")),
            R"(test.game:11:28: error: the row number (the board has 8 rows) must be between 1 and 8, but it is 0
 11 |   (setup (place Pawn (rows 0 2)))
    |                            ^
)");
}

TEST(LangSetup, ColumnNumberOutsideTheBoard) {
  EXPECT_EQ(error_of(game_with("(home-rows 2)", "(column 9)")),
            R"(test.game:11:30: error: the column number (the board has 8 columns) must be between 1 and 8, but it is 9
 11 |   (setup (place Pawn (column 9)))
    |                              ^
)");
}

TEST(LangSetup, ColumnLetterOutsideTheBoard) {
  EXPECT_EQ(error_of(game_with("(home-rows 2)", "(columns a i)")),
            R"(test.game:11:33: error: column i is outside the board (columns a..h)
 11 |   (setup (place Pawn (columns a i)))
    |                                 ^
)");
}

TEST(LangSetup, CapitalColumnLetter) {
  EXPECT_EQ(error_of(game_with("(home-rows 2)", "(column A)")), R"(test.game:11:30: error: unknown column 'A'
 11 |   (setup (place Pawn (column A)))
    |                              ^
hint: columns are lower-case letters a..h or numbers 1..8
)");
}

TEST(LangSetup, MoreHomeRowsThanTheBoardHas) {
  EXPECT_EQ(error_of(game_with("(home-rows 2)", "(home-rows 9)")),
            R"(test.game:11:33: error: the number of rows must be between 1 and 8, but it is 9
 11 |   (setup (place Pawn (home-rows 9)))
    |                                 ^
)");
}

TEST(LangSetup, PlaceWithoutARegion) {
  EXPECT_EQ(error_of(game_with("(place Pawn (home-rows 2))", "(place Pawn)")),
            R"(test.game:11:10: error: '(place ...)' takes a piece and a region
 11 |   (setup (place Pawn))
    |          ^
hint: usage: (place [PLAYER] PIECE REGION)
)");
}

TEST(LangSetup, SomethingOtherThanPlaceInTheSetup) {
  EXPECT_EQ(
      error_of(game_with("(place Pawn (home-rows 2))", "(put Pawn (home-rows 2))")),
      R"(test.game:11:10: error: expected '(place ...)', '(in-hand ...)' or '(count ...)' in the setup, found '(put ...)'
 11 |   (setup (put Pawn (home-rows 2)))
    |          ^
hint: usage: (place [PLAYER] PIECE REGION)
)");
}

TEST(LangSetup, NumberWhereARegionBelongs) {
  EXPECT_EQ(error_of(game_with("(home-rows 2)", "3")), R"(test.game:11:22: error: expected a region, found the number 3
 11 |   (setup (place Pawn 3))
    |                      ^
hint: a region is a name, a cell like a1, or one of (row N), (rows A B), (column N), (cells ...), (home-rows N), (far-rows N), (union ...), (except ...), all, home-row, far-row, dark-cells, light-cells
)");
}

TEST(LangSetup, EmptyUnion) {
  EXPECT_EQ(error_of(game_with("(home-rows 2)", "(union)")),
            R"(test.game:11:22: error: '(union ...)' needs at least one region
 11 |   (setup (place Pawn (union)))
    |                      ^
hint: usage: (union REGION...)
)");
}

// ---- Moves ---------------------------------------------------------------------------------------

TEST(LangMoves, MoveToEnemyWithoutCapture) {
  EXPECT_EQ(error_of(game_with("(to enemy) capture)", "(to enemy))")),
            R"(test.game:10:5: error: this move may land on a piece, but does not say what happens to it
 10 |     (step (forward-left forward-right) (to enemy)))
    |     ^
hint: add 'capture' to remove the piece standing there
)");
}

TEST(LangMoves, CaptureOnAMoveToEmptyPointsAtCapture) {
  EXPECT_EQ(error_of(game_with("(to empty))", "(to empty) capture)")),
            R"(test.game:9:59: error: 'capture' has no effect on a move to empty cells
 9 |     (step (forward forward-left forward-right) (to empty) capture)
   |                                                           ^~~~~~~
hint: add (to enemy) or (to not-friend) to let the move capture
)");
}

TEST(LangMoves, CaptureGivenTwice) {
  EXPECT_EQ(error_of(game_with("(to enemy) capture)", "(to enemy) capture capture)")),
            R"(test.game:10:59: error: 'capture' is given twice
 10 |     (step (forward-left forward-right) (to enemy) capture capture))
    |                                                           ^~~~~~~
)");
}

TEST(LangMoves, TargetGivenTwice) {
  EXPECT_EQ(error_of(game_with("(to empty))", "(to empty) (to empty))")),
            R"(test.game:9:59: error: '(to ...)' is given twice
 9 |     (step (forward forward-left forward-right) (to empty) (to empty))
   |                                                           ^
)");
}

TEST(LangMoves, TargetWithTwoWords) {
  EXPECT_EQ(error_of(game_with("(to empty)", "(to empty enemy)")),
            R"(test.game:9:58: error: '(to ...)' takes no more than 1 argument; 'enemy' is one too many
 9 |     (step (forward forward-left forward-right) (to empty enemy))
   |                                                          ^~~~~
hint: usage: (to TARGET) with TARGET one of empty, enemy, friend, not-friend, any, occupied
)");
}

TEST(LangMoves, UnknownWordInAMove) {
  EXPECT_EQ(error_of(game_with("(to empty))", "(to empty) jump)")),
            R"(test.game:9:59: error: unexpected 'jump' in a move
 9 |     (step (forward forward-left forward-right) (to empty) jump)
   |                                                           ^~~~
hint: usage: (step DIRECTIONS [(to TARGET)] [capture] [(if (RIGHT FORWARD) TARGET)...] [(then (shoot MOVE))])
)");
}

TEST(LangMoves, StepWithoutDirections) {
  EXPECT_EQ(error_of(game_with("(step (forward forward-left forward-right) (to empty))", "(step)")),
            R"(test.game:9:5: error: '(step ...)' is missing its DIRECTIONS
 9 |     (step)
   |     ^
hint: usage: (step DIRECTIONS [(to TARGET)] [capture] [(if (RIGHT FORWARD) TARGET)...] [(then (shoot MOVE))])
)");
}

TEST(LangMoves, EmptyListOfDirections) {
  EXPECT_EQ(error_of(game_with("(forward forward-left forward-right)", "()")),
            R"(test.game:9:11: error: the list of directions is empty
 9 |     (step () (to empty))
   |           ^
)");
}

TEST(LangMoves, NumberWhereADirectionBelongs) {
  EXPECT_EQ(error_of(game_with("(forward forward-left forward-right)", "(forward 1)")),
            R"(test.game:9:20: error: expected a direction, found the number 1
 9 |     (step (forward 1) (to empty))
   |                    ^
hint: for example forward or ne
)");
}

TEST(LangMoves, DirectionListedTwice) {
  EXPECT_EQ(error_of(game_with("(forward forward-left forward-right)", "(forward forward-left forward)")),
            R"(test.game:9:33: error: the direction 'forward' is listed twice (for this player)
 9 |     (step (forward forward-left forward) (to empty))
   |                                 ^~~~~~~
)");
}

TEST(LangMoves, RelativeAndAbsoluteDirectionMeaningTheSame) {
  EXPECT_EQ(error_of(game_with("(forward forward-left forward-right)", "(forward n)")),
            R"(test.game:9:20: error: the direction 'n' is listed twice (for this player)
 9 |     (step (forward n) (to empty))
   |                    ^
)");
}

TEST(LangMoves, LeapOfZeroZero) {
  EXPECT_EQ(error_of(game_with("(step (forward forward-left forward-right) (to empty))", "(leap ((1 2) (0 0)))")),
            R"(test.game:9:18: error: a leap of (0 0) does not move
 9 |     (leap ((1 2) (0 0)))
   |                  ^
)");
}

TEST(LangMoves, SingleLeapOfZeroZero) {
  EXPECT_EQ(error_of(game_with("(step (forward forward-left forward-right) (to empty))", "(leap (0 0))")),
            R"(test.game:9:11: error: a leap of (0 0) does not move
 9 |     (leap (0 0))
   |           ^
)");
}

TEST(LangMoves, LeapOffsetListedTwice) {
  EXPECT_EQ(error_of(game_with("(step (forward forward-left forward-right) (to empty))", "(leap ((1 2) (1 2)))")),
            R"(test.game:9:18: error: this offset is listed twice
 9 |     (leap ((1 2) (1 2)))
   |                  ^
)");
}

TEST(LangMoves, LeapOffsetWithThreeNumbers) {
  EXPECT_EQ(error_of(game_with("(step (forward forward-left forward-right) (to empty))", "(leap ((1 2 3)))")),
            R"(test.game:9:12: error: expected an offset '(RIGHT FORWARD)', found a list
 9 |     (leap ((1 2 3)))
   |            ^
hint: usage: (leap ((RIGHT FORWARD)...) [(to TARGET)] [capture] [(if (RIGHT FORWARD) TARGET)...] [(then (shoot MOVE))])
)");
}

TEST(LangMoves, LeapFartherThanAnyBoard) {
  EXPECT_EQ(error_of(game_with("(step (forward forward-left forward-right) (to empty))", "(leap (1 27))")),
            R"(test.game:9:14: error: a leap offset must be between -26 and 26, but it is 27
 9 |     (leap (1 27))
   |              ^~
)");
}

TEST(LangMoves, LeapGivenADirectionWord) {
  EXPECT_EQ(error_of(game_with("(step (forward forward-left forward-right) (to empty))", "(leap knight)")),
            R"(test.game:9:11: error: expected a list of offsets, found 'knight'
 9 |     (leap knight)
   |           ^~~~~~
hint: usage: (leap ((RIGHT FORWARD)...) [(to TARGET)] [capture] [(if (RIGHT FORWARD) TARGET)...] [(then (shoot MOVE))])
)");
}

// ---- End conditions ------------------------------------------------------------------------------

TEST(LangEnd, EndWithoutRules) {
  EXPECT_EQ(error_of(game_with(R"end((end
    (win (reach Pawn far-row))
    (win opponent-has-no-pieces)
    (lose no-legal-moves)))end",
                               "(end)")),
            R"(test.game:12:3: error: '(end ...)' lists no way for the game to end
 12 |   (end))
    |   ^
hint: usage: (end (win|lose|draw|most-pieces [PLAYER] CONDITION)... (most-area DIRECTIONS [(komi N)] CONDITION)... (most-count REGION CONDITION)...)
)");
}

TEST(LangEnd, UnknownOutcome) {
  EXPECT_EQ(error_of(game_with("(win opponent-has-no-pieces)", "(wins opponent-has-no-pieces)")),
            R"(test.game:14:6: error: unknown outcome 'wins'
 14 |     (wins opponent-has-no-pieces)
    |      ^~~~
hint: did you mean 'win'?
)");
}

TEST(LangEnd, UnknownCondition) {
  EXPECT_EQ(error_of(game_with("(win opponent-has-no-pieces)", "(win opponent-has-no-piece)")),
            R"(test.game:14:10: error: unknown condition 'opponent-has-no-piece'
 14 |     (win opponent-has-no-piece)
    |          ^~~~~~~~~~~~~~~~~~~~~
hint: did you mean 'opponent-has-no-pieces'?
)");
}

TEST(LangEnd, ReachWithoutParentheses) {
  EXPECT_EQ(error_of(game_with("(win opponent-has-no-pieces)", "(win reach)")),
            R"(test.game:14:10: error: the condition 'reach' needs a region
 14 |     (win reach)
    |          ^~~~~
hint: usage: (reach [PIECE] REGION)
)");
}

TEST(LangEnd, ConditionWithoutArgumentsGivenOne) {
  EXPECT_EQ(error_of(game_with("(win opponent-has-no-pieces)", "(win (opponent-has-no-pieces 3))")),
            R"(test.game:14:34: error: '(opponent-has-no-pieces ...)' takes no arguments; the number 3 is one too many
 14 |     (win (opponent-has-no-pieces 3))
    |                                  ^
)");
}

TEST(LangEnd, PlyLimitOfZero) {
  EXPECT_EQ(error_of(game_with("(win opponent-has-no-pieces)", "(draw (ply-limit 0))")),
            R"(test.game:14:22: error: the ply limit must be between 1 and 1000000, but it is 0
 14 |     (draw (ply-limit 0))
    |                      ^
)");
}

TEST(LangEnd, ReachWithTooManyArguments) {
  EXPECT_EQ(error_of(game_with("(reach Pawn far-row)", "(reach Pawn far-row far-row)")),
            R"(test.game:13:30: error: '(reach ...)' takes no more than 2 arguments; 'far-row' is one too many
 13 |     (win (reach Pawn far-row far-row))
    |                              ^~~~~~~
hint: usage: (reach [PIECE] REGION)
)");
}

TEST(LangEnd, WordWhereAnEndRuleBelongs) {
  EXPECT_EQ(error_of(game_with("(win opponent-has-no-pieces)", "win-now")),
            R"(test.game:14:5: error: expected a form like '(keyword ...)' in '(end ...)', found 'win-now'
 14 |     win-now
    |     ^~~~~~~
)");
}

// ---- Loading correct games -----------------------------------------------------------------------

TEST(LangLoad, BreakthroughFileWithDefaults) {
  const Rules rules = load_rules_file(kSourceDir + "/games/breakthrough.game", {});
  EXPECT_EQ(rules.name, "Breakthrough");
  EXPECT_EQ(rules.variant, "");
  EXPECT_EQ(rules.width, 8);
  EXPECT_EQ(rules.height, 8);
  EXPECT_EQ(rules.setup.size(), 32u);
  EXPECT_EQ(rules.end.size(), 3u);
  EXPECT_EQ(rules.params, (std::vector<std::pair<std::string, std::int64_t>>{{"width", 8}, {"height", 8}}));
  EXPECT_EQ(rules.players[0].name, "White");
  EXPECT_EQ(rules.players[0].facing, "north");
  EXPECT_EQ(rules.players[1].name, "Black");
  EXPECT_EQ(rules.players[1].facing, "south");
  ASSERT_EQ(rules.pieces.size(), 1u);
  EXPECT_EQ(rules.pieces[0].name, "Pawn");
  EXPECT_EQ(rules.pieces[0].code, "P");
  EXPECT_EQ(rules.pieces[0].moves.size(), 2u);
}

TEST(LangLoad, BreakthroughFileWithTheZillionsVariant) {
  const Rules rules = load_rules_file(kSourceDir + "/games/breakthrough.game", variant("zillions-7x7"));
  EXPECT_EQ(rules.variant, "zillions-7x7");
  EXPECT_EQ(rules.width, 7);
  EXPECT_EQ(rules.height, 7);
  EXPECT_EQ(rules.setup.size(), 28u);
  EXPECT_EQ(rules.params, (std::vector<std::pair<std::string, std::int64_t>>{{"width", 7}, {"height", 7}}));
}

TEST(LangLoad, BreakthroughFileWithParams) {
  const Rules rules =
      load_rules_file(kSourceDir + "/games/breakthrough.game", params({{"width", "5"}, {"height", "6"}}));
  EXPECT_EQ(rules.width, 5);
  EXPECT_EQ(rules.height, 6);
  EXPECT_EQ(rules.setup.size(), 20u);
}

TEST(LangLoad, BreakthroughAtTheLargestSize) {
  const Rules rules =
      load_rules_file(kSourceDir + "/games/breakthrough.game", params({{"width", "26"}, {"height", "26"}}));
  EXPECT_EQ(rules.cells(), 26 * 26);
  EXPECT_EQ(rules.setup.size(), 4u * 26u);
  EXPECT_EQ(cell_name(rules.cells() - 1, rules.width), "z26");
}

TEST(LangLoad, BreakthroughAtTheSmallestSize) {
  const Rules rules =
      load_rules_file(kSourceDir + "/games/breakthrough.game", params({{"width", "3"}, {"height", "4"}}));
  EXPECT_EQ(rules.width, 3);
  EXPECT_EQ(rules.height, 4);
  EXPECT_EQ(rules.setup.size(), 12u);
}

TEST(LangLoad, MissingFile) {
  EXPECT_EQ(error_from([] { load_rules_file("no/such/file.game", {}); }),
            R"(error: cannot open the rule file 'no/such/file.game'
hint: check the path
)");
}

TEST(LangLoad, ErrorsInAFileNameTheFileAsGiven) {
  const std::string path = kSourceDir + "/tests/data/lang/unknown_direction.game";
  EXPECT_EQ(error_from([&] { load_rules_file(path, {}); }), path + R"(:6:12: error: unknown direction 'foward'
 6 |     (step (foward) (to empty)))
   |            ^~~~~~
hint: did you mean 'forward'?
)");
}

TEST(LangLoad, UnknownVariantOfAFile) {
  const std::string path = kSourceDir + "/tests/data/lang/every_form.game";
  EXPECT_EQ(error_from([&] { load_rules_file(path, variant("biggest")); }),
            "error: --variant: this game has no variant \"biggest\"\nhint: did you mean 'bigger'?\n");
}

TEST(LangLoad, BreakthroughSetupFillsEachSidesTwoNearestRows) {
  const Rules rules = rules_of(std::string(kGame));
  CellList white, black;
  for (const Placement& p : rules.setup) (p.player == 0 ? white : black).push_back(p.cell);
  EXPECT_EQ(cells_text(white, 8), "a1 b1 c1 d1 e1 f1 g1 h1 a2 b2 c2 d2 e2 f2 g2 h2");
  EXPECT_EQ(cells_text(black, 8), "a7 b7 c7 d7 e7 f7 g7 h7 a8 b8 c8 d8 e8 f8 g8 h8");
}

TEST(LangLoad, BreakthroughMovesAndEndRulesAsWritten) {
  const Rules rules = rules_of(std::string(kGame));
  ASSERT_EQ(rules.pieces.size(), 1u);
  const auto& moves = rules.pieces[0].moves;
  ASSERT_EQ(moves.size(), 2u);
  EXPECT_EQ(moves[0].text, "(step (forward forward-left forward-right) (to empty))");
  EXPECT_EQ(moves[0].kind, MoveKind::Step);
  EXPECT_EQ(moves[0].target, Target::Empty);
  EXPECT_FALSE(moves[0].capture);
  EXPECT_EQ(moves[1].target, Target::Enemy);
  EXPECT_TRUE(moves[1].capture);
  EXPECT_EQ(moves[1].pos.line, 10u);
  EXPECT_EQ(moves[1].pos.column, 5u);

  ASSERT_EQ(rules.end.size(), 3u);
  EXPECT_EQ(rules.end[0].text, "(win (reach Pawn far-row))");
  EXPECT_EQ(rules.end[0].condition_text, "(reach Pawn far-row)");
  EXPECT_EQ(rules.end[0].kind, EndKind::Reach);
  EXPECT_EQ(rules.end[0].piece, 0);
  EXPECT_EQ(rules.end[0].only_player, -1);
  EXPECT_EQ(rules.end[1].kind, EndKind::OpponentHasNoPieces);
  EXPECT_EQ(rules.end[1].outcome, Outcome::Win);
  EXPECT_EQ(rules.end[2].kind, EndKind::NoLegalMoves);
  EXPECT_EQ(rules.end[2].outcome, Outcome::Loss);
}

TEST(LangLoad, CommentAtTheEndWithoutANewline) { EXPECT_EQ(rules_of(std::string(kGame) + "; the end").width, 8); }

TEST(LangLoad, PieceLetterDefaultsToTheNamesFirstLetter) {
  const Rules rules = rules_of(game_with("(piece Pawn \"P\"", "(piece soldier (step forward))\n  (piece Pawn \"P\""));
  ASSERT_EQ(rules.pieces.size(), 2u);
  EXPECT_EQ(rules.pieces[0].code, "S");
}

TEST(LangLoad, PlacementForOnePlayerOnly) {
  const Rules rules = rules_of(game_with("(place Pawn (home-rows 2))", "(place Black Pawn (home-rows 2))"));
  ASSERT_EQ(rules.setup.size(), 16u);
  for (const Placement& p : rules.setup) EXPECT_EQ(p.player, 1);
}

TEST(LangLoad, EndRuleForOnePlayerWithAPlyLimit) {
  const Rules rules = rules_of(game_with("(win opponent-has-no-pieces)", "(draw Black (ply-limit 300))"));
  ASSERT_EQ(rules.end.size(), 3u);
  EXPECT_EQ(rules.end[1].outcome, Outcome::Draw);
  EXPECT_EQ(rules.end[1].only_player, 1);
  EXPECT_EQ(rules.end[1].kind, EndKind::PlyLimit);
  EXPECT_EQ(rules.end[1].ply_limit, 300);
}

// tests/data/lang/every_form.game uses every form of the language, with comments everywhere.
TEST(LangLoad, EveryFormOfTheLanguage) {
  const Rules rules = load_rules_file(kSourceDir + "/tests/data/lang/every_form.game", {});
  EXPECT_EQ(rules.name, "Every Form");
  EXPECT_EQ(rules.about, "Not a real game: a tour of the language.");
  EXPECT_EQ(rules.params, (std::vector<std::pair<std::string, std::int64_t>>{{"size", 6}, {"depth", 2}, {"wide", 7}}));
  EXPECT_EQ(rules.width, 6);
  EXPECT_EQ(rules.height, 6);
  std::string letters;
  for (const PieceType& piece : rules.pieces) letters += piece.code;
  EXPECT_EQ(letters, "KRBNMQ");
  EXPECT_EQ(rules.pieces[0].moves[0].offsets[0].size(), 8u);  // all-directions
  EXPECT_EQ(rules.pieces[3].moves[0].offsets[0].size(), 8u);  // the knight's leaps
  EXPECT_EQ(rules.pieces[3].moves[0].target, Target::Friend);
  EXPECT_EQ(rules.pieces[2].moves[0].kind, MoveKind::Slide);
  EXPECT_EQ(rules.pieces[2].moves[0].target, Target::Any);
  EXPECT_EQ(rules.pieces[4].moves.size(), 6u);
  EXPECT_EQ(rules.setup.size(), 24u);
  EXPECT_EQ(rules.end.size(), 6u);
  EXPECT_EQ(rules.end[4].only_player, 1);
  EXPECT_EQ(rules.end[4].ply_limit, 200);
}

TEST(LangLoad, EveryFormWithItsVariant) {
  const Rules rules = load_rules_file(kSourceDir + "/tests/data/lang/every_form.game", variant("bigger"));
  EXPECT_EQ(rules.width, 8);
  EXPECT_EQ(rules.height, 8);
}

TEST(LangLoad, EveryFormPlacesEachSide) {
  const Rules rules = load_rules_file(kSourceDir + "/tests/data/lang/every_form.game", {});
  CellList red, blue;
  for (const Placement& p : rules.setup) (p.player == 0 ? red : blue).push_back(p.cell);
  std::sort(red.begin(), red.end());
  std::sort(blue.begin(), blue.end());
  EXPECT_EQ(cells_text(red, 6), "a1 b1 c1 d1 e1 f1 a2 b2 c2 d2 e2 f2");
  EXPECT_EQ(cells_text(blue, 6), "a5 b5 c5 d5 e5 f5 a6 b6 c6 d6 e6 f6");
}

// ---- Directions: relative words resolved per player ----------------------------------------------

TEST(LangDirections, ForwardIsUpForNorthAndDownForSouth) {
  const auto offsets = offsets_of("(step forward)");
  EXPECT_EQ(offsets_text(offsets[0]), "(0,1)");
  EXPECT_EQ(offsets_text(offsets[1]), "(0,-1)");
}

TEST(LangDirections, ForwardLeftAndForwardRightPerPlayer) {
  const auto offsets = offsets_of("(step (forward-left forward-right))");
  EXPECT_EQ(offsets_text(offsets[0]), "(-1,1) (1,1)");
  EXPECT_EQ(offsets_text(offsets[1]), "(1,-1) (-1,-1)");
}

TEST(LangDirections, EveryRelativeWordForNorthAndSouth) {
  const auto offsets =
      offsets_of("(step (forward backward left right forward-left forward-right backward-left backward-right))");
  EXPECT_EQ(offsets_text(offsets[0]), "(0,1) (0,-1) (-1,0) (1,0) (-1,1) (1,1) (-1,-1) (1,-1)");
  EXPECT_EQ(offsets_text(offsets[1]), "(0,-1) (0,1) (1,0) (-1,0) (1,-1) (-1,-1) (1,1) (-1,1)");
}

TEST(LangDirections, EveryRelativeWordForEastAndWest) {
  const auto offsets =
      offsets_of("(step (forward backward left right forward-left forward-right backward-left backward-right))",
                 "(White east) (Black west)");
  EXPECT_EQ(offsets_text(offsets[0]), "(1,0) (-1,0) (0,1) (0,-1) (1,1) (1,-1) (-1,1) (-1,-1)");
  EXPECT_EQ(offsets_text(offsets[1]), "(-1,0) (1,0) (0,-1) (0,1) (-1,-1) (-1,1) (1,-1) (1,1)");
}

TEST(LangDirections, CompassWordsAreTheSameForBothPlayers) {
  const auto offsets = offsets_of("(step (n s e w ne nw se sw))");
  EXPECT_EQ(offsets_text(offsets[0]), "(0,1) (0,-1) (1,0) (-1,0) (1,1) (-1,1) (1,-1) (-1,-1)");
  EXPECT_EQ(offsets[1], offsets[0]);
}

TEST(LangDirections, DirectionGroups) {
  EXPECT_EQ(offsets_text(offsets_of("(slide orthogonal)")[0]), "(0,1) (1,0) (0,-1) (-1,0)");
  EXPECT_EQ(offsets_text(offsets_of("(slide diagonal)")[1]), "(1,1) (1,-1) (-1,-1) (-1,1)");
  EXPECT_EQ(offsets_text(offsets_of("(step all-directions)")[0]),
            "(0,1) (1,1) (1,0) (1,-1) (0,-1) (-1,-1) (-1,0) (-1,1)");
}

TEST(LangDirections, LeapOffsetsAreRightAndForwardOfEachPlayer) {
  const auto offsets = offsets_of("(leap ((1 2) (-2 1)))");
  EXPECT_EQ(offsets_text(offsets[0]), "(1,2) (-2,1)");
  EXPECT_EQ(offsets_text(offsets[1]), "(-1,-2) (2,-1)");
}

TEST(LangDirections, SingleLeapOffsetWithoutTheOuterList) {
  EXPECT_EQ(offsets_text(offsets_of("(leap (0 2))")[1]), "(0,-2)");
}

TEST(LangDirections, SingleDirectionWithoutAList) {
  const auto offsets = offsets_of("(step forward-right)");
  EXPECT_EQ(offsets_text(offsets[0]), "(1,1)");
  EXPECT_EQ(offsets_text(offsets[1]), "(-1,-1)");
}

// ---- Regions: every form, per player -------------------------------------------------------------

TEST(LangRegions, HomeRowAndFarRowPerPlayer) {
  const PlayerRegion home = region_of("home-row");
  EXPECT_EQ(cells_text(home[0], 8), "a1 b1 c1 d1 e1 f1 g1 h1");
  EXPECT_EQ(cells_text(home[1], 8), "a8 b8 c8 d8 e8 f8 g8 h8");
  const PlayerRegion far = region_of("far-row");
  EXPECT_EQ(cells_text(far[0], 8), "a8 b8 c8 d8 e8 f8 g8 h8");
  EXPECT_EQ(cells_text(far[1], 8), "a1 b1 c1 d1 e1 f1 g1 h1");
}

TEST(LangRegions, DarkAndLightCellsAlternateFromADarkA1) {
  EXPECT_EQ(cells_text(region_of("(except dark-cells (rows 3 8))")[0], 8), "a1 c1 e1 g1 b2 d2 f2 h2");
  EXPECT_EQ(cells_text(region_of("(except light-cells (rows 3 8))")[1], 8), "b1 d1 f1 h1 a2 c2 e2 g2");
  EXPECT_EQ(region_of("dark-cells")[0].size(), 32u);
}

TEST(LangRegions, HomeRowsAndFarRowsPerPlayer) {
  const PlayerRegion home = region_of("(home-rows 2)");
  EXPECT_EQ(cells_text(home[0], 8), "a1 b1 c1 d1 e1 f1 g1 h1 a2 b2 c2 d2 e2 f2 g2 h2");
  EXPECT_EQ(cells_text(home[1], 8), "a7 b7 c7 d7 e7 f7 g7 h7 a8 b8 c8 d8 e8 f8 g8 h8");
  const PlayerRegion far = region_of("(far-rows 3)");
  EXPECT_EQ(cells_text(far[0], 8).substr(0, 2), "a6");
  EXPECT_EQ(far[0].size(), 24u);
  EXPECT_EQ(cells_text(far[1], 8).substr(0, 2), "a1");
  EXPECT_EQ(far[1].size(), 24u);
}

TEST(LangRegions, HomeRowsOfEastAndWestAreColumns) {
  std::string text = game_with("(White north) (Black south)", "(White east) (Black west)");
  text = replace_once(text, "(reach Pawn far-row)", "(reach home-row)");
  const Rules rules = rules_of(text);
  ASSERT_EQ(rules.end.size(), 3u);
  EXPECT_EQ(cells_text(rules.end[0].region[0], 8), "a1 a2 a3 a4 a5 a6 a7 a8");
  EXPECT_EQ(cells_text(rules.end[0].region[1], 8), "h1 h2 h3 h4 h5 h6 h7 h8");
}

TEST(LangRegions, AbsoluteFormsAreTheSameForBothPlayers) {
  const PlayerRegion row = region_of("(row 3)");
  EXPECT_EQ(cells_text(row[0], 8), "a3 b3 c3 d3 e3 f3 g3 h3");
  EXPECT_EQ(row[1], row[0]);
  EXPECT_EQ(region_of("(rows 2 1)")[1].size(), 16u);
  EXPECT_EQ(cells_text(region_of("(column c)")[0], 8), "c1 c2 c3 c4 c5 c6 c7 c8");
  EXPECT_EQ(cells_text(region_of("(column 3)")[1], 8), "c1 c2 c3 c4 c5 c6 c7 c8");
  EXPECT_EQ(cells_text(region_of("(columns g h)")[0], 8), "g1 h1 g2 h2 g3 h3 g4 h4 g5 h5 g6 h6 g7 h7 g8 h8");
  EXPECT_EQ(cells_text(region_of("(cells a1 d4 h8)")[1], 8), "a1 d4 h8");
  EXPECT_EQ(cells_text(region_of("e5")[0], 8), "e5");
  EXPECT_EQ(region_of("all")[1].size(), 64u);
}

TEST(LangRegions, UnionMergesAndSorts) {
  const PlayerRegion region = region_of("(union (cells h8 a1) home-row (cells b1))");
  EXPECT_EQ(cells_text(region[0], 8), "a1 b1 c1 d1 e1 f1 g1 h1 h8");
  EXPECT_EQ(cells_text(region[1], 8), "a1 b1 a8 b8 c8 d8 e8 f8 g8 h8");
}

TEST(LangRegions, ExceptRemovesEveryLaterRegion) {
  const PlayerRegion region = region_of("(except far-row (cells a8 a1) (column h))");
  EXPECT_EQ(cells_text(region[0], 8), "b8 c8 d8 e8 f8 g8");
  EXPECT_EQ(cells_text(region[1], 8), "b1 c1 d1 e1 f1 g1");
}

TEST(LangRegions, NamedRegionsCanBuildOnEachOther) {
  const PlayerRegion region =
      region_of("inner", "  (region edges (union (column a) (column h)))\n  (region inner (except (row 4) edges))\n");
  EXPECT_EQ(cells_text(region[0], 8), "b4 c4 d4 e4 f4 g4");
}

TEST(LangRegions, NamedRelativeRegionStaysPerPlayer) {
  const PlayerRegion region = region_of("camp", "  (region camp (home-rows 1))\n");
  EXPECT_EQ(cells_text(region[0], 8), "a1 b1 c1 d1 e1 f1 g1 h1");
  EXPECT_EQ(cells_text(region[1], 8), "a8 b8 c8 d8 e8 f8 g8 h8");
}

// ---- The S-expression reader on its own ----------------------------------------------------------

TEST(LangSexpr, NodesKeepTheirKindsValuesAndPositions) {
  const auto forms = parse_sexpr(source("(a -12 +3 \"x\\\"y\\\\z\\n\\t\")\n  word"));
  ASSERT_EQ(forms.size(), 2u);
  const Node& list = forms[0];
  ASSERT_TRUE(list.is_list());
  ASSERT_EQ(list.items.size(), 4u);
  EXPECT_TRUE(list.items[0].is_symbol("a"));
  EXPECT_EQ(list.head(), "a");
  EXPECT_EQ(list.items[1].integer, -12);
  EXPECT_EQ(list.items[1].pos.column, 4u);
  EXPECT_EQ(list.items[1].pos.length, 3u);
  EXPECT_EQ(list.items[2].integer, 3);
  EXPECT_EQ(list.items[3].kind, Node::Kind::String);
  EXPECT_EQ(list.items[3].text, "x\"y\\z\n\t");
  EXPECT_EQ(list.items[3].pos.length, 13u);
  EXPECT_EQ(forms[1].pos.line, 2u);
  EXPECT_EQ(forms[1].pos.column, 3u);
  EXPECT_EQ(forms[1].pos.length, 4u);
}

TEST(LangSexpr, ArithmeticSignsAreWords) {
  const auto forms = parse_sexpr(source("(+ - * / min)"));
  ASSERT_EQ(forms.size(), 1u);
  for (const Node& item : forms[0].items) EXPECT_TRUE(item.is_symbol()) << item.text;
}

TEST(LangSexpr, ToTextWritesANodeBackOnOneLine) {
  const auto forms = parse_sexpr(source("(step   (forward\n forward-left)  ; comment\n (to empty) \"a\\\"b\")"));
  ASSERT_EQ(forms.size(), 1u);
  EXPECT_EQ(to_text(forms[0]), "(step (forward forward-left) (to empty) \"a\\\"b\")");
}

TEST(LangSexpr, DescribeNamesEachKindOfNode) {
  const auto forms = parse_sexpr(source("(step 3 \"s\" w () (1 2))"));
  ASSERT_EQ(forms.size(), 1u);
  const auto& items = forms[0].items;
  EXPECT_EQ(describe(forms[0]), "'(step ...)'");
  EXPECT_EQ(describe(items[1]), "the number 3");
  EXPECT_EQ(describe(items[2]), "the string \"s\"");
  EXPECT_EQ(describe(items[3]), "'w'");
  EXPECT_EQ(describe(items[4]), "an empty list '()'");
  EXPECT_EQ(describe(items[5]), "a list");
}

TEST(LangSexpr, CellNames) {
  EXPECT_EQ(parse_cell("a1", 8, 8), 0);
  EXPECT_EQ(parse_cell("h8", 8, 8), 63);
  EXPECT_EQ(parse_cell("c2", 8, 8), 10);
  EXPECT_EQ(parse_cell("z26", 26, 26), 26 * 26 - 1);
  EXPECT_EQ(parse_cell("i1", 8, 8), -1);
  EXPECT_EQ(parse_cell("a9", 8, 8), -1);
  EXPECT_EQ(parse_cell("a0", 8, 8), -1);
  EXPECT_EQ(parse_cell("a01", 8, 8), -1);
  EXPECT_EQ(parse_cell("A1", 8, 8), -1);
  EXPECT_EQ(parse_cell("a", 8, 8), -1);
  EXPECT_EQ(parse_cell("a1x", 8, 8), -1);
  EXPECT_EQ(cell_name(0, 8), "a1");
  EXPECT_EQ(cell_name(63, 8), "h8");
  EXPECT_EQ(cell_name(10, 8), "c2");
}

// ---- Rendering ----------------------------------------------------------------------------------

TEST(LangRender, DiagnosticWithoutAFile) {
  EXPECT_EQ(render(Diagnostic{nullptr, {}, "something is wrong", "fix it"}),
            "error: something is wrong\nhint: fix it\n");
}

TEST(LangRender, UnderlineCoversTheLength) {
  const auto file = source("(ab)\n");
  EXPECT_EQ(render(Diagnostic{file, {1, 2, 2}, "here", ""}), "test.game:1:2: error: here\n 1 | (ab)\n   |  ^~\n");
}

TEST(LangRender, Suggestions) {
  EXPECT_EQ(suggest("foward", {"forward", "backward"}), "did you mean 'forward'?");
  EXPECT_EQ(suggest("x", {"forward", "backward"}), "expected one of 'forward', 'backward'");
  EXPECT_EQ(suggest("x", {}), "");
  EXPECT_EQ(closest_match("stepp", {"step", "slide", "leap"}), "step");
  EXPECT_EQ(closest_match("jump", {"step", "slide", "leap"}), "");
}

}  // namespace
}  // namespace troyka::lang

namespace troyka::lang {
namespace {

TEST(LangOptions, ParamGivenTwiceIsRefused) {
  EXPECT_EQ(error_of(std::string(kGame), params({{"width", "6"}, {"width", "7"}})),
            "error: --param width is given twice\nhint: give each parameter once\n");
}

TEST(LangSyntax, HugeNegativeNumberIsTooSmall) {
  EXPECT_EQ(error_of(game_with("(rectangle width height)", "(rectangle width -99999999999999999999)")),
            R"(test.game:7:27: error: the number -99999999999999999999 is too small
 7 |   (board (rectangle width -99999999999999999999))
   |                           ^~~~~~~~~~~~~~~~~~~~~
hint: numbers in rule files must fit in 64 bits
)");
}

TEST(LangSyntax, LispQuoteIsRefusedWhereItStands) {
  EXPECT_EQ(error_of(game_with("(board (rectangle width height))", "(board '(rectangle width height))")),
            R"(test.game:7:10: error: unexpected character '''
 7 |   (board '(rectangle width height))
   |          ^
hint: rule files are made of (lists), words, numbers and "strings"
)");
}

TEST(LangSyntax, LongLineIsQuotedAsAWindowAroundTheCaret) {
  const std::string padding(300, ' ');
  const std::string error = error_of(game_with("(board (rectangle width height))", padding + "(board #)"));
  EXPECT_EQ(error.substr(0, error.find('\n')), "test.game:7:310: error: unexpected character '#'");
  // The window starts 50 columns before the caret on '#', which is 7 columns into "(board #)".
  EXPECT_EQ(error.substr(error.find('\n') + 1),
            " 7 | ..." + std::string(43, ' ') + "(board #)\n   | " + std::string(53, ' ') +
                "^\nhint: rule files are made of (lists), words, numbers and \"strings\"\n");
}

// ---- Drops and lines ---------------------------------------------------------------------------

TEST(LangDrop, ReadsRegionAndGravityPerPlayer) {
  const Rules rules = rules_of(game_with("(step (forward-left forward-right) (to enemy) capture))",
                                         "(drop (in (rows 1 4)) (gravity backward)) (drop))"));
  ASSERT_EQ(rules.pieces[0].moves.size(), 3u);
  const MoveRule& gravity = rules.pieces[0].moves[1];
  EXPECT_EQ(gravity.kind, MoveKind::Drop);
  EXPECT_EQ(gravity.region[0].size(), 32u);
  EXPECT_EQ(offsets_text(gravity.offsets[0]), "(0,-1)");
  EXPECT_EQ(offsets_text(gravity.offsets[1]), "(0,1)");  // Black faces south: its backward is north
  const MoveRule& anywhere = rules.pieces[0].moves[2];
  EXPECT_EQ(anywhere.region[1].size(), 64u);
  EXPECT_TRUE(anywhere.offsets[1].empty());
}

TEST(LangInARow, ReadsLengthPieceAndLongest) {
  const Rules rules = rules_of(game_with("(win (reach Pawn far-row))", "(win (in-a-row 4 Pawn (at-most 5)))"));
  EXPECT_EQ(rules.end[0].kind, EndKind::InARow);
  EXPECT_EQ(rules.end[0].length, 4);
  EXPECT_EQ(rules.end[0].piece, 0);
  EXPECT_EQ(rules.end[0].longest, 5);
  // No line on an 8x8 board is longer than 8: (at-most 8) sets no limit.
  const Rules unlimited = rules_of(game_with("(win (reach Pawn far-row))", "(win (in-a-row 4 (at-most 8)))"));
  EXPECT_EQ(unlimited.end[0].longest, 0);
  EXPECT_EQ(unlimited.end[0].piece, -1);
}

TEST(LangDrop, ToDoesNotApply) {
  EXPECT_EQ(error_of(game_with("(step (forward-left forward-right) (to enemy) capture))", "(drop (to enemy)))")),
            R"(test.game:10:11: error: a drop always lands on an empty cell; '(to ...)' does not apply to it
 10 |     (drop (to enemy)))
    |           ^
hint: usage: (drop [(in REGION)] [(gravity DIRECTION)] [(flanking DIRECTIONS)])
)");
}

TEST(LangDrop, CaptureHasNoEffect) {
  EXPECT_EQ(error_of(game_with("(step (forward-left forward-right) (to enemy) capture))", "(drop capture))")),
            R"(test.game:10:11: error: 'capture' has no effect on a drop: a dropped piece lands on an empty cell
 10 |     (drop capture))
    |           ^~~~~~~
hint: usage: (drop [(in REGION)] [(gravity DIRECTION)] [(flanking DIRECTIONS)])
)");
}

TEST(LangDrop, GravityTakesOneDirection) {
  EXPECT_EQ(error_of(game_with("(step (forward-left forward-right) (to enemy) capture))", "(drop (gravity s n)))")),
            R"(test.game:10:22: error: '(gravity ...)' takes no more than 1 argument; 'n' is one too many
 10 |     (drop (gravity s n)))
    |                      ^
hint: usage: (gravity DIRECTION)
)");
}

TEST(LangDrop, GravityGroupIsRefused) {
  EXPECT_EQ(
      error_of(game_with("(step (forward-left forward-right) (to enemy) capture))", "(drop (gravity orthogonal)))")),
      R"(test.game:10:20: error: gravity pulls one way: give a single direction such as s or backward
 10 |     (drop (gravity orthogonal)))
    |                    ^~~~~~~~~~
hint: usage: (gravity DIRECTION)
)");
}

TEST(LangDrop, GravityDirectionTypo) {
  EXPECT_EQ(error_of(game_with("(step (forward-left forward-right) (to enemy) capture))", "(drop (gravity sout)))")),
            R"(test.game:10:20: error: unknown direction 'sout'
 10 |     (drop (gravity sout)))
    |                    ^~~~
hint: expected one of 'n', 's', 'e', 'w', 'ne', 'nw', 'se', 'sw', 'forward', 'backward', 'right', 'left', 'forward-right', 'forward-left', 'backward-right', 'backward-left', 'orthogonal', 'diagonal', 'all-directions'
)");
}

TEST(LangDrop, InGivenTwice) {
  EXPECT_EQ(error_of(game_with("(step (forward-left forward-right) (to enemy) capture))", "(drop (in all) (in all)))")),
            R"(test.game:10:20: error: '(in ...)' is given twice
 10 |     (drop (in all) (in all)))
    |                    ^
)");
}

TEST(LangDrop, UnknownOption) {
  EXPECT_EQ(error_of(game_with("(step (forward-left forward-right) (to enemy) capture))", "(drop (onto empty)))")),
            R"(test.game:10:11: error: unexpected '(onto ...)' in a drop
 10 |     (drop (onto empty)))
    |           ^
hint: usage: (drop [(in REGION)] [(gravity DIRECTION)] [(flanking DIRECTIONS)])
)");
}

TEST(LangDrop, InWithoutARegion) {
  EXPECT_EQ(error_of(game_with("(step (forward-left forward-right) (to enemy) capture))", "(drop (in)))")),
            R"(test.game:10:11: error: '(in ...)' is missing its REGION
 10 |     (drop (in)))
    |           ^
hint: usage: (in REGION)
)");
}

TEST(LangDrop, MisspelledDrop) {
  EXPECT_EQ(error_of(game_with("(step (forward-left forward-right) (to enemy) capture))", "(dorp))")),
            R"(test.game:10:6: error: unknown move 'dorp'
 10 |     (dorp))
    |      ^~~~
hint: did you mean 'drop'?
)");
}

// ---- Flanking drops, passing, counting ----------------------------------------------------------

const std::string kCaptureStep = "(step (forward-left forward-right) (to enemy) capture))";

TEST(LangDrop, ReadsFlankingPerPlayer) {
  const Rules rules = rules_of(game_with(kCaptureStep, "(drop (flanking (forward e))))"));
  const MoveRule& drop = rules.pieces[0].moves[1];
  EXPECT_EQ(offsets_text(drop.flanking[0]), "(0,1) (1,0)");
  EXPECT_EQ(offsets_text(drop.flanking[1]), "(0,-1) (1,0)");  // Black faces south
  EXPECT_TRUE(rules.pieces[0].moves[0].flanking[0].empty());
}

TEST(LangDrop, FlankingWithoutDirections) {
  EXPECT_EQ(error_of(game_with(kCaptureStep, "(drop (flanking)))")),
            R"(test.game:10:11: error: '(flanking ...)' is missing its DIRECTIONS
 10 |     (drop (flanking)))
    |           ^
hint: usage: (flanking DIRECTIONS)
)");
}

TEST(LangDrop, FlankingGivenTwice) {
  EXPECT_EQ(error_of(game_with(kCaptureStep, "(drop (flanking n) (flanking s)))")),
            R"(test.game:10:24: error: '(flanking ...)' is given twice
 10 |     (drop (flanking n) (flanking s)))
    |                        ^
)");
}

TEST(LangDrop, FlankingDirectionTypo) {
  EXPECT_EQ(error_of(game_with(kCaptureStep, "(drop (flanking all-direction)))")),
            R"(test.game:10:21: error: unknown direction 'all-direction'
 10 |     (drop (flanking all-direction)))
    |                     ^~~~~~~~~~~~~
hint: did you mean 'all-directions'?
)");
}

TEST(LangDrop, AFlankingDropIsThePiecesOnlyDrop) {
  EXPECT_EQ(
      error_of(game_with(kCaptureStep, "(drop (flanking all-directions)) (drop))")),
      R"(test.game:10:38: error: the piece 'Pawn' has a flanking drop and another drop (line 10); a piece that flips what it closes has one drop rule
 10 |     (drop (flanking all-directions)) (drop))
    |                                      ^
hint: merge them into one drop, or give the other drop to a piece of its own
)");
  // Either order; two plain drops remain allowed.
  EXPECT_EQ(error_of(game_with(kCaptureStep, "(drop (in (row 1))) (drop (flanking n)))")).substr(0, 23),
            "test.game:10:25: error:");
  EXPECT_EQ(rules_of(game_with(kCaptureStep, "(drop (in (row 1))) (drop (in (row 2))))")).pieces[0].moves.size(), 3u);
}

// kCaptureStep with a second part.
std::string with_shot(std::string_view then) {
  return game_with(kCaptureStep, "(step (forward-left forward-right) (to enemy) capture " + std::string(then) + "))");
}

TEST(LangShot, ReadsTheShotOfAMove) {
  const Rules rules = rules_of(with_shot("(then (shoot (slide (forward e))))"));
  const MoveRule& move = rules.pieces[0].moves[1];
  EXPECT_TRUE(move.shoots);
  EXPECT_EQ(move.shot_kind, MoveKind::Slide);
  EXPECT_EQ(move.shot_offsets[0], (std::vector<Offset>{{0, 1}, {1, 0}}));   // White faces north
  EXPECT_EQ(move.shot_offsets[1], (std::vector<Offset>{{0, -1}, {1, 0}}));  // Black's forward is south
  EXPECT_FALSE(rules.pieces[0].moves[0].shoots);
  const MoveRule leap = rules_of(with_shot("(then (shoot (leap (1 2))))")).pieces[0].moves[1];
  EXPECT_EQ(leap.shot_kind, MoveKind::Step);
  EXPECT_EQ(leap.shot_offsets[0], (std::vector<Offset>{{1, 2}}));
}

TEST(LangShot, ThenGivenTwice) {
  EXPECT_EQ(error_of(with_shot("(then (shoot (step forward))) (then (shoot (step forward)))")),
            R"(test.game:10:89: error: '(then ...)' is given twice
 10 | ... (to enemy) capture (then (shoot (step forward))) (then (shoot (step forward)))))
    |                                                      ^
)");
}

TEST(LangShot, UnknownSecondPart) {
  EXPECT_EQ(error_of(with_shot("(then (shot (step forward)))")),
            R"(test.game:10:66: error: unknown second part of a move 'shot'
 10 |     (step (forward-left forward-right) (to enemy) capture (then (shot (step forward)))))
    |                                                                  ^~~~
hint: did you mean 'shoot'?
)");
}

TEST(LangShot, ThenWithoutItsPart) {
  EXPECT_EQ(error_of(with_shot("(then)")), R"(test.game:10:59: error: '(then ...)' is missing its (shoot MOVE)
 10 |     (step (forward-left forward-right) (to enemy) capture (then)))
    |                                                           ^
hint: usage: (then (shoot MOVE))
)");
}

TEST(LangShot, AShotIsNoDrop) {
  EXPECT_EQ(error_of(with_shot("(then (shoot (drop)))")),
            R"(test.game:10:73: error: a shot is a step, leap or slide from the cell the piece landed on, not a 'drop'
 10 |     (step (forward-left forward-right) (to enemy) capture (then (shoot (drop)))))
    |                                                                         ^~~~
hint: usage: (shoot MOVE) with MOVE one of (step DIRECTIONS), (leap OFFSETS), (slide DIRECTIONS)
)");
}

TEST(LangShot, AShotTakesNoOptions) {
  EXPECT_EQ(error_of(with_shot("(then (shoot (slide n (to enemy) capture)))")),
            R"(test.game:10:81: error: unexpected '(to ...)' in a shot: a shot lands on an empty cell and blocks it
 10 | ...d-right) (to enemy) capture (then (shoot (slide n (to enemy) capture)))))
    |                                                      ^
hint: write the shot as (slide DIRECTIONS) alone
)");
}

TEST(LangShot, ShootTakesOneMove) {
  EXPECT_EQ(error_of(with_shot("(then (shoot (slide n) (slide s)))")),
            R"(test.game:10:82: error: '(shoot ...)' takes no more than 1 argument; '(slide ...)' is one too many
 10 |     (step (forward-left forward-right) (to enemy) capture (then (shoot (slide n) (slide s)))))
    |                                                                                  ^
hint: usage: (shoot MOVE) with MOVE one of (step DIRECTIONS), (leap OFFSETS), (slide DIRECTIONS)
)");
}

TEST(LangShot, ADropHasNoSecondPart) {
  EXPECT_EQ(error_of(game_with(kCaptureStep, "(drop (then (shoot (step n)))))")),
            R"(test.game:10:11: error: a drop has no second part: '(then ...)' follows a step, leap or slide
 10 |     (drop (then (shoot (step n)))))
    |           ^
hint: usage: (drop [(in REGION)] [(gravity DIRECTION)] [(flanking DIRECTIONS)])
)");
}

TEST(LangPass, ReadsPassWhenStuck) {
  EXPECT_FALSE(rules_of(std::string(kGame)).pass_when_stuck);
  const std::string board = "(board (rectangle width height))";
  EXPECT_TRUE(rules_of(game_with(board, board + "\n  (pass-when-stuck)")).pass_when_stuck);
}

TEST(LangPass, TakesNoArguments) {
  const std::string board = "(board (rectangle width height))";
  EXPECT_EQ(error_of(game_with(board, board + "\n  (pass-when-stuck always)")),
            R"(test.game:8:20: error: '(pass-when-stuck ...)' takes no arguments; 'always' is one too many
 8 |   (pass-when-stuck always)
   |                    ^~~~~~
hint: usage: (pass-when-stuck)
)");
}

TEST(LangPass, GivenTwice) {
  const std::string board = "(board (rectangle width height))";
  EXPECT_EQ(error_of(game_with(board, board + "\n  (pass-when-stuck)\n  (pass-when-stuck)")),
            R"(test.game:9:3: error: '(pass-when-stuck ...)' appears twice; the first is at line 8
 9 |   (pass-when-stuck)
   |   ^
hint: merge the two into one
)");
}

TEST(LangEnd, MostPiecesIsAnOutcome) {
  const Rules rules = rules_of(game_with("(lose no-legal-moves)", "(most-pieces no-legal-moves)"));
  EXPECT_EQ(rules.end[2].outcome, Outcome::MostPieces);
  EXPECT_EQ(rules.end[2].kind, EndKind::NoLegalMoves);
  EXPECT_EQ(rules.end[2].text, "(most-pieces no-legal-moves)");
  const Rules black = rules_of(game_with("(lose no-legal-moves)", "(most-pieces Black (ply-limit 100))"));
  EXPECT_EQ(black.end[2].only_player, 1);
}

TEST(LangEnd, MostPiecesMisspelled) {
  EXPECT_EQ(error_of(game_with("(lose no-legal-moves)", "(most-piece no-legal-moves)")),
            R"(test.game:15:6: error: unknown outcome 'most-piece'
 15 |     (most-piece no-legal-moves)))
    |      ^~~~~~~~~~
hint: did you mean 'most-pieces'?
)");
}

TEST(LangInARow, LongerThanTheBoard) {
  EXPECT_EQ(error_of(game_with("(win (reach Pawn far-row))", "(win (in-a-row 9))")),
            R"(test.game:13:20: error: a line of 9 does not fit on this 8x8 board
 13 |     (win (in-a-row 9))
    |                    ^
hint: lines run along rows, columns and diagonals: at most 8 cells here
)");
}

TEST(LangInARow, AtMostShorterThanTheLength) {
  EXPECT_EQ(error_of(game_with("(win (reach Pawn far-row))", "(win (in-a-row 3 (at-most 2)))")),
            R"(test.game:13:31: error: the longest line, 2, is shorter than the line length, 3
 13 |     (win (in-a-row 3 (at-most 2)))
    |                               ^
hint: (at-most N) counts lines of LENGTH to N pieces; N = LENGTH means exactly LENGTH
)");
}

TEST(LangInARow, UnknownPiece) {
  EXPECT_EQ(error_of(game_with("(win (reach Pawn far-row))", "(win (in-a-row 3 Pawns))")),
            R"(test.game:13:22: error: unknown piece 'Pawns'
 13 |     (win (in-a-row 3 Pawns))
    |                      ^~~~~
hint: did you mean 'Pawn'?
)");
}

TEST(LangInARow, WithoutALength) {
  EXPECT_EQ(error_of(game_with("(win (reach Pawn far-row))", "(win in-a-row)")),
            R"(test.game:13:10: error: the condition 'in-a-row' needs a length
 13 |     (win in-a-row)
    |          ^~~~~~~~
hint: usage: (in-a-row LENGTH [PIECE] [(at-most LONGEST)])
)");
}

TEST(LangInARow, AtMostGivenTwice) {
  EXPECT_EQ(error_of(game_with("(win (reach Pawn far-row))", "(win (in-a-row 3 (at-most 4) (at-most 5)))")),
            R"(test.game:13:34: error: '(at-most ...)' is given twice
 13 |     (win (in-a-row 3 (at-most 4) (at-most 5)))
    |                                  ^
)");
}

TEST(LangInARow, SomethingAfterThePiece) {
  EXPECT_EQ(error_of(game_with("(win (reach Pawn far-row))", "(win (in-a-row 3 Pawn extra))")),
            R"(test.game:13:27: error: unexpected 'extra' in '(in-a-row ...)'
 13 |     (win (in-a-row 3 Pawn extra))
    |                           ^~~~~
hint: usage: (in-a-row LENGTH [PIECE] [(at-most LONGEST)])
)");
}

TEST(LangInARow, LengthZero) {
  EXPECT_EQ(error_of(game_with("(win (reach Pawn far-row))", "(win (in-a-row 0))")),
            R"(test.game:13:20: error: the length of a line must be between 1 and 26, but it is 0
 13 |     (win (in-a-row 0))
    |                    ^
)");
}

TEST(LangInARow, MisspelledCondition) {
  EXPECT_EQ(error_of(game_with("(win (reach Pawn far-row))", "(win (in-a-rwo 3))")),
            R"(test.game:13:11: error: unknown condition 'in-a-rwo'
 13 |     (win (in-a-rwo 3))
    |           ^~~~~~~~
hint: did you mean 'in-a-row'?
)");
}

// ---- Rhombus boards, connections and the swap -----------------------------------------------------

// Hex on 5x5, as games/hex.game with the swap on. Line 1 is "(game ...".
constexpr std::string_view kHex = R"game((game "Hex"
  (param size 5)
  (players (Red north) (Blue east))
  (board (rhombus size size))
  (swap-rule)
  (piece Stone "S" (drop))
  (setup)
  (end (win (connect home-row far-row))))
)game";

std::string hex_with(std::string_view from, std::string_view to) { return replace_once(std::string(kHex), from, to); }

TEST(LangRhombus, LoadsTheShapeTheSwapAndEachPlayersEdges) {
  const Rules rules = rules_of(std::string(kHex));
  EXPECT_EQ(rules.shape, BoardShape::Rhombus);
  EXPECT_TRUE(rules.swap_rule);
  const EndRule& connect = rules.end.front();
  EXPECT_EQ(connect.kind, EndKind::Connect);
  EXPECT_EQ(cells_text(connect.region[0], 5), "a1 b1 c1 d1 e1");  // Red faces north: rows 1 and 5
  EXPECT_EQ(cells_text(connect.other_region[0], 5), "a5 b5 c5 d5 e5");
  EXPECT_EQ(cells_text(connect.region[1], 5), "a1 a2 a3 a4 a5");  // Blue faces east: columns a and e
  EXPECT_EQ(cells_text(connect.other_region[1], 5), "e1 e2 e3 e4 e5");
  EXPECT_FALSE(rules_of(hex_with("(swap-rule)", "(swap-rule 0)")).swap_rule);
}

TEST(LangRhombus, AllDirectionsAreTheSixNeighbours) {
  const Rules rules = rules_of(hex_with("(drop)", "(step all-directions)"));
  EXPECT_EQ(offsets_text(rules.pieces[0].moves[0].offsets[0]), "(0,1) (1,0) (1,-1) (0,-1) (-1,0) (-1,1)");
  // Relative directions that point at neighbours are fine: for Blue (facing east) forward-right is se.
  const Rules relative = rules_of(hex_with("(drop)", "(step forward-right (only Blue))"));
  EXPECT_EQ(offsets_text(relative.pieces[0].moves[0].offsets[1]), "(1,-1)");
}

TEST(LangRhombus, TheOtherDiagonalIsNotADirection) {
  EXPECT_EQ(
      error_of(hex_with("(drop)", "(step (n ne))")),
      R"(test.game:6:29: error: 'ne' is not a direction on a rhombus board: it leads to a cell that does not touch this one
 6 |   (piece Stone "S" (step (n ne)))
   |                             ^~
hint: a rhombus cell's six neighbours lie n, s, e, w, nw and se (all-directions names all six)
)");
}

TEST(LangRhombus, ARelativeDirectionPointingAlongTheOtherDiagonal) {
  EXPECT_EQ(
      error_of(hex_with("(drop)", "(step forward-right)")),
      R"(test.game:6:26: error: 'forward-right' is not a direction on a rhombus board: here it points ne, which leads to a cell that does not touch this one
 6 |   (piece Stone "S" (step forward-right))
   |                          ^~~~~~~~~~~~~
hint: a rhombus cell's six neighbours lie n, s, e, w, nw and se (all-directions names all six)
)");
}

TEST(LangRhombus, TheDiagonalGroup) {
  EXPECT_EQ(
      error_of(hex_with("(drop)", "(step diagonal)")),
      R"(test.game:6:26: error: 'diagonal' is not a direction group on a rhombus board: ne and sw lead to cells that do not touch
 6 |   (piece Stone "S" (step diagonal))
   |                          ^~~~~~~~
hint: the rhombus's diagonal neighbours are nw and se: write (nw se)
)");
}

TEST(LangConnect, MissingTheSecondRegion) {
  EXPECT_EQ(error_of(hex_with("(connect home-row far-row)", "(connect home-row)")),
            R"(test.game:8:13: error: '(connect ...)' is missing its second REGION
 8 |   (end (win (connect home-row))))
   |             ^
hint: usage: (connect [PIECE] REGION REGION)
)");
}

TEST(LangConnect, OneArgumentTooMany) {
  EXPECT_EQ(error_of(hex_with("(connect home-row far-row)", "(connect Stone home-row far-row extra)")),
            R"(test.game:8:45: error: '(connect ...)' takes no more than 3 arguments; 'extra' is one too many
 8 |   (end (win (connect Stone home-row far-row extra))))
   |                                             ^~~~~
hint: usage: (connect [PIECE] REGION REGION)
)");
}

TEST(LangConnect, AnEmptyRegion) {
  EXPECT_EQ(error_of(hex_with("(connect home-row far-row)", "(connect home-row (except all all))")),
            R"(test.game:8:31: error: this region has no cells for Red, so nothing can connect to it
 8 |   (end (win (connect home-row (except all all)))))
   |                               ^
hint: to connect two sides, name them, e.g. (connect home-row far-row)
)");
}

TEST(LangConnect, WrittenAsAWord) {
  EXPECT_EQ(error_of(hex_with("(connect home-row far-row)", "connect")),
            R"(test.game:8:13: error: the condition 'connect' needs two regions
 8 |   (end (win connect)))
   |             ^~~~~~~
hint: usage: (connect [PIECE] REGION REGION)
)");
}

// connected, or (connected [PIECE]): all of the player's pieces (of that type) in one group.
TEST(LangConnected, AWordOrAFormWithAPiece) {
  EXPECT_EQ(rules_of(hex_with("(connect home-row far-row)", "connected")).end.front().kind, EndKind::Connected);
  const EndRule stones = rules_of(hex_with("(connect home-row far-row)", "(connected Stone)")).end.front();
  EXPECT_EQ(stones.kind, EndKind::Connected);
  EXPECT_EQ(stones.piece, 0);
  EXPECT_EQ(error_of(hex_with("(connect home-row far-row)", "(connected Stone Stone)")),
            R"(test.game:8:30: error: '(connected ...)' takes no more than 1 argument; 'Stone' is one too many
 8 |   (end (win (connected Stone Stone))))
   |                              ^~~~~
hint: usage: connected, or (connected [PIECE]): all of the player's pieces (of that type) form one group
)");
  EXPECT_EQ(error_of(hex_with("(connect home-row far-row)", "(connectd)")),
            R"(test.game:8:14: error: unknown condition 'connectd'
 8 |   (end (win (connectd))))
   |              ^~~~~~~~
hint: did you mean 'connected'?
)");
}

TEST(LangSwapRule, NeedsASquareBoard) {
  EXPECT_EQ(
      error_of(hex_with("(rhombus size size)", "(rhombus size 4)")),
      R"(test.game:5:3: error: the swap mirrors the board across its diagonal, which needs a square board; this one is 5x4
 5 |   (swap-rule)
   |   ^
hint: give the board as many columns as rows, or switch the swap off with (swap-rule 0)
)");
  EXPECT_EQ(rules_of(hex_with("(rhombus size size))\n  (swap-rule)", "(rhombus size 4))\n  (swap-rule 0)")).height, 4);
}

TEST(LangSwapRule, NeedsAnEmptySetup) {
  EXPECT_EQ(
      error_of(hex_with("(setup)", "(setup (place Red Stone a1))")),
      R"(test.game:5:3: error: the swap turns the first player's opening pieces into the second player's, so the game must start with an empty board
 5 |   (swap-rule)
   |   ^
hint: remove the pieces from (setup ...), or switch the swap off with (swap-rule 0)
)");
}

TEST(LangSwapRule, TheSwitchIsZeroOrOne) {
  EXPECT_EQ(error_of(hex_with("(swap-rule)", "(swap-rule 2)")),
            R"(test.game:5:14: error: the swap rule's switch must be between 0 and 1, but it is 2
 5 |   (swap-rule 2)
   |              ^
)");
  EXPECT_EQ(error_of(hex_with("(swap-rule)", "(swap-rule 1 1)")),
            R"(test.game:5:16: error: '(swap-rule ...)' takes no more than 1 argument; the number 1 is one too many
 5 |   (swap-rule 1 1)
   |                ^
hint: usage: (swap-rule [ENABLED])
)");
}

// ---- Cell tests ---------------------------------------------------------------------------------

TEST(LangCellTests, ReadsEachTestPerPlayer) {
  const Rules rules =
      rules_of(game_with(kCaptureStep, "(leap (0 2) (to empty) (if (0 1) occupied) (if (1 0) friend)))"));
  const MoveRule& hop = rules.pieces[0].moves[1];
  ASSERT_EQ(hop.tests.size(), 2u);
  EXPECT_EQ(hop.tests[0].offset[0], (Offset{0, 1}));
  EXPECT_EQ(hop.tests[0].offset[1], (Offset{0, -1}));  // Black faces south
  EXPECT_EQ(hop.tests[0].target, Target::Occupied);
  EXPECT_EQ(hop.tests[1].offset[1], (Offset{-1, 0}));  // Black's right is west
  EXPECT_EQ(hop.tests[1].target, Target::Friend);
  EXPECT_TRUE(rules.pieces[0].moves[0].tests.empty());
}

TEST(LangCellTests, OccupiedIsATargetForLandingsToo) {
  const Rules rules = rules_of(game_with(kCaptureStep, "(step forward (to occupied) capture))"));
  EXPECT_EQ(rules.pieces[0].moves[1].target, Target::Occupied);
}

TEST(LangCellTests, ASlideCannotTestCells) {
  EXPECT_EQ(error_of(game_with(kCaptureStep, "(slide forward (to empty) (if (1 0) friend)))")),
            R"(test.game:10:31: error: a slide cannot test other cells: '(if ...)' goes on a step or a leap
 10 |     (slide forward (to empty) (if (1 0) friend)))
    |                               ^
hint: write the slide's cells out as leaps, one per distance, each with its tests
)");
}

TEST(LangCellTests, AMoveWithTestsGoesOneWay) {
  EXPECT_EQ(error_of(game_with(kCaptureStep, "(step (forward-left forward-right) (to empty) (if (0 1) empty)))")),
            R"(test.game:10:51: error: a move with cell tests must go one way, and this one has 2 directions or offsets
 10 |     (step (forward-left forward-right) (to empty) (if (0 1) empty)))
    |                                                   ^
hint: give each direction a move of its own, with its own tests
)");
}

TEST(LangCellTests, TheLandingCellIsNotTestedWithIf) {
  EXPECT_EQ(error_of(game_with(kCaptureStep, "(leap (1 2) (to empty) (if (1 2) empty)))")),
            R"(test.game:10:32: error: this cell test names the landing cell
 10 |     (leap (1 2) (to empty) (if (1 2) empty)))
    |                                ^
hint: say what the landing cell may hold with (to TARGET)
)");
}

TEST(LangCellTests, TheStartingCellIsNotTested) {
  EXPECT_EQ(error_of(game_with(kCaptureStep, "(step forward (to empty) (if (0 0) empty)))")),
            R"(test.game:10:34: error: (0 0) is the cell the piece starts on, where the piece itself stands
 10 |     (step forward (to empty) (if (0 0) empty)))
    |                                  ^
hint: an offset names the cell to test as (RIGHT FORWARD) from there, e.g. (0 1) for the cell ahead
)");
}

TEST(LangCellTests, UnknownTargetSuggestsOne) {
  EXPECT_EQ(error_of(game_with(kCaptureStep, "(step forward (to empty) (if (0 2) ocupied)))")),
            R"(test.game:10:40: error: unknown target 'ocupied'
 10 |     (step forward (to empty) (if (0 2) ocupied)))
    |                                        ^~~~~~~
hint: did you mean 'occupied'?
)");
}

TEST(LangCellTests, ATestNeedsAnOffsetAndATarget) {
  EXPECT_EQ(error_of(game_with(kCaptureStep, "(step forward (to empty) (if (0 2))))")),
            R"(test.game:10:30: error: '(if ...)' is missing its TARGET
 10 |     (step forward (to empty) (if (0 2))))
    |                              ^
hint: usage: (if (RIGHT FORWARD) TARGET) with TARGET one of empty, enemy, friend, not-friend, any, occupied
)");
  EXPECT_EQ(error_of(game_with(kCaptureStep, "(step forward (to empty) (if forward empty)))")),
            R"(test.game:10:34: error: expected an offset '(RIGHT FORWARD)', found 'forward'
 10 |     (step forward (to empty) (if forward empty)))
    |                                  ^~~~~~~
hint: usage: (if (RIGHT FORWARD) TARGET) with TARGET one of empty, enemy, friend, not-friend, any, occupied
)");
}

// ---- Jumps over pieces, promotion, compulsory captures, quiet moves ----------------------------------

const std::string kKing = "\n  (piece King \"K\" (step diagonal))";

TEST(LangJump, ReadsJumpsChainsAndPromotion) {
  const Rules rules =
      rules_of(game_with(kCaptureStep, "(jump diagonal (over enemy) chain) (promote King far-row))" + kKing));
  const MoveRule& jump = rules.pieces[0].moves[1];
  EXPECT_EQ(jump.kind, MoveKind::JumpOver);
  EXPECT_TRUE(jump.chain);
  EXPECT_TRUE(jump.capture);
  EXPECT_EQ(offsets_text(jump.offsets[0]), "(1,1) (1,-1) (-1,-1) (-1,1)");
  EXPECT_EQ(rules.pieces[0].promote_to, 1);
  EXPECT_EQ(rules.pieces[0].promote_region[0].front(), rules.cell(0, 7));  // White's far row is row 8
  EXPECT_EQ(rules.pieces[0].promote_region[1].front(), rules.cell(0, 0));
  EXPECT_EQ(rules.pieces[1].promote_to, -1);
  EXPECT_FALSE(rules_of(game_with(kCaptureStep, "(jump forward))")).pieces[0].moves[1].chain);
}

TEST(LangJump, OverAFriend) {
  EXPECT_EQ(error_of(game_with(kCaptureStep, "(jump diagonal (over friend)))")),
            R"(test.game:10:26: error: a jump goes over an enemy piece and captures it, not over 'friend'
 10 |     (jump diagonal (over friend)))
    |                          ^~~~~~
hint: usage: (over enemy)
)");
}

TEST(LangJump, SaysCapture) {
  EXPECT_EQ(error_of(game_with(kCaptureStep, "(jump diagonal capture))")),
            R"(test.game:10:20: error: a jump always captures the piece it goes over and lands on the empty cell beyond
 10 |     (jump diagonal capture))
    |                    ^~~~~~~
hint: usage: (jump DIRECTIONS [(over enemy)] [chain])
)");
}

TEST(LangJump, ChainGivenTwice) {
  EXPECT_EQ(error_of(game_with(kCaptureStep, "(jump diagonal chain chain))")),
            R"(test.game:10:26: error: 'chain' is given twice
 10 |     (jump diagonal chain chain))
    |                          ^~~~~
)");
}

TEST(LangJump, OnABoardOfMoreThanSixtyFourCells) {
  EXPECT_EQ(error_of(game_with(kCaptureStep, "(jump diagonal))"), params({{"width", "9"}})),
            R"(test.game:10:6: error: jumps over pieces need a board of at most 64 cells; this one has 72
 10 |     (jump diagonal))
    |      ^~~~
hint: a move records the pieces it jumps as a mask of the board's cells
)");
}

TEST(LangJump, MisspelledPromote) {
  EXPECT_EQ(error_of(game_with(kCaptureStep, "(promte King far-row))" + kKing)),
            R"(test.game:10:6: error: unknown move 'promte'
 10 |     (promte King far-row))
    |      ^~~~~~
hint: did you mean 'promote'?
)");
}

TEST(LangPromote, ToAnUnknownPiece) {
  EXPECT_EQ(error_of(game_with(kCaptureStep, "(promote Kign far-row))" + kKing)),
            R"(test.game:10:14: error: unknown piece 'Kign'
 10 |     (promote Kign far-row))
    |              ^~~~
hint: did you mean 'King'?
)");
}

TEST(LangPromote, ToItself) {
  EXPECT_EQ(error_of(game_with(kCaptureStep, "(promote Pawn far-row))")),
            R"(test.game:10:14: error: the piece 'Pawn' would promote to itself
 10 |     (promote Pawn far-row))
    |              ^~~~
hint: name the piece it becomes, declared with its own (piece ...) form
)");
}

TEST(LangPromote, GivenTwice) {
  EXPECT_EQ(error_of(game_with(kCaptureStep, "(promote King far-row) (promote King (row 7)))" + kKing)),
            R"(test.game:10:28: error: '(promote ...)' is given twice for the piece 'Pawn'
 10 |     (promote King far-row) (promote King (row 7)))
    |                            ^
)");
}

TEST(LangPromote, WithoutARegion) {
  EXPECT_EQ(error_of(game_with(kCaptureStep, "(promote King))" + kKing)),
            R"(test.game:10:5: error: '(promote ...)' is missing its REGION
 10 |     (promote King))
    |     ^
hint: usage: (promote PIECE REGION)
)");
}

TEST(LangMustCapture, ReadsIt) {
  EXPECT_FALSE(rules_of(std::string(kGame)).must_capture);
  EXPECT_TRUE(rules_of(game_with("(setup", "(must-capture)\n  (setup")).must_capture);
}

TEST(LangMustCapture, TakesNoArgument) {
  EXPECT_EQ(error_of(game_with("(setup", "(must-capture always)\n  (setup")),
            R"(test.game:11:17: error: '(must-capture ...)' takes no arguments; 'always' is one too many
 11 |   (must-capture always)
    |                 ^~~~~~
hint: usage: (must-capture)
)");
}

TEST(LangQuietMoves, ReadsThePliesAndThePiece) {
  const Rules rules =
      rules_of(game_with("(lose no-legal-moves)", "(lose no-legal-moves)\n    (draw (quiet-moves 80 Pawn))"));
  EXPECT_EQ(rules.end.back().kind, EndKind::QuietMoves);
  EXPECT_EQ(rules.end.back().ply_limit, 80);
  EXPECT_EQ(rules.end.back().piece, 0);
  EXPECT_EQ(rules_of(game_with("(lose no-legal-moves)", "(draw (quiet-moves 50))")).end.back().piece, -1);
}

TEST(LangQuietMoves, WithoutPlies) {
  EXPECT_EQ(error_of(game_with("(lose no-legal-moves)", "(draw quiet-moves)")),
            R"(test.game:15:11: error: the condition 'quiet-moves' needs a number of plies
 15 |     (draw quiet-moves)))
    |           ^~~~~~~~~~~
hint: usage: (quiet-moves PLIES [PIECE])
)");
}

TEST(LangQuietMoves, ZeroPlies) {
  EXPECT_EQ(error_of(game_with("(lose no-legal-moves)", "(draw (quiet-moves 0))")),
            R"(test.game:15:24: error: the number of quiet plies must be between 1 and 10000, but it is 0
 15 |     (draw (quiet-moves 0))))
    |                        ^
)");
}

TEST(LangQuietMoves, TwoRulesCountingDifferentPieces) {
  EXPECT_EQ(
      error_of(game_with("(lose no-legal-moves)", "(draw (quiet-moves 80 Pawn))\n    (lose (quiet-moves 90))")),
      R"(test.game:16:5: error: the quiet-moves rules at lines 15 and 16 name different pieces ('Pawn' and none), but they share one count of quiet plies
 16 |     (lose (quiet-moves 90))))
    |     ^
hint: name the same piece in every (quiet-moves ...) rule, or none in all of them
)");
}

// ---- Holes ---------------------------------------------------------------------------------------

std::string holed_with(std::string_view from, std::string_view to) {
  return replace_once(game_with("(board (rectangle width height))", "(board (rectangle width height) (holes d4 e5))"),
                      from, to);
}

TEST(LangHoles, RegionsLeaveOutTheHolesTheyCover) {
  const Rules rules = rules_of(game_with("(board (rectangle width height))",
                                         "(board (rectangle width height) (holes a2 (cells d4 e5) (column h)))"));
  EXPECT_EQ(cells_text(rules.holes, 8), "h1 a2 h2 h3 d4 h4 e5 h5 h6 h7 h8");
  EXPECT_EQ(rules.cells_on_board(), 53);
  EXPECT_EQ(rules.setup.size(), 27u);  // the home rows without a2 and column h
  for (const Placement& placement : rules.setup) EXPECT_FALSE(rules.is_hole(placement.cell));
  EXPECT_EQ(cells_text(rules.end.front().region[0], 8), "a8 b8 c8 d8 e8 f8 g8");
  const Rules middle = rules_of(holed_with("(reach Pawn far-row)", "(reach Pawn (rows 4 5))"));
  EXPECT_EQ(cells_text(middle.end.front().region[0], 8), "a4 b4 c4 e4 f4 g4 h4 a5 b5 c5 d5 f5 g5 h5");
}

TEST(LangHoles, ASetupNamingAHole) {
  EXPECT_EQ(error_of(holed_with("(setup (place Pawn (home-rows 2)))",
                                "(setup (place Pawn (home-rows 2)) (place White Pawn d4))")),
            R"(test.game:11:55: error: d4 is a hole of the board
 11 |   (setup (place Pawn (home-rows 2)) (place White Pawn d4))
    |                                                       ^~
hint: a hole is not a cell: no piece stands there and no move goes there
)");
}

TEST(LangHoles, AnEndRegionNamingAHole) {
  EXPECT_EQ(error_of(holed_with("(reach Pawn far-row)", "(reach Pawn (cells a8 e5))")),
            R"(test.game:13:32: error: e5 is a hole of the board
 13 |     (win (reach Pawn (cells a8 e5)))
    |                                ^~
hint: a hole is not a cell: no piece stands there and no move goes there
)");
}

TEST(LangHoles, HolesSeenFromEachPlayersSide) {
  EXPECT_EQ(
      error_of(game_with("(board (rectangle width height))", "(board (rectangle width height) (holes home-row))")),
      R"(test.game:7:42: error: holes are the same for every player, and this region is seen from each player's side
 7 |   (board (rectangle width height) (holes home-row))
   |                                          ^~~~~~~~
hint: name the cells, e.g. (holes d4 e5), or use (row N), (column N) or (cells ...)
)");
}

TEST(LangHoles, EveryCellAHole) {
  EXPECT_EQ(error_of(game_with("(board (rectangle width height))", "(board (rectangle width height) (holes all))")),
            R"(test.game:7:35: error: every cell of the board is a hole
 7 |   (board (rectangle width height) (holes all))
   |                                   ^
hint: a board needs at least one cell that is not a hole
)");
}

TEST(LangHoles, SomethingElseAfterTheShape) {
  EXPECT_EQ(
      error_of(game_with("(board (rectangle width height))", "(board (rectangle width height) (walls d4))")),
      R"(test.game:7:35: error: expected '(holes ...)', '(line ...)' or '(link ...)' in the board, found '(walls ...)'
 7 |   (board (rectangle width height) (walls d4))
   |                                   ^
hint: usage: (board (rectangle WIDTH HEIGHT) [(holes REGION...)]) or (board (rhombus WIDTH HEIGHT) [(holes REGION...)]) or (board (hexagon SIDE) [(holes REGION...)]) or (board (points CELL...) (line DIRECTION CELL...)...), with (line ...) and (link ...) after any shape
)");
  EXPECT_EQ(error_of(game_with("(board (rectangle width height))", "(board (rectangle width height) (holes))")),
            R"(test.game:7:35: error: '(holes ...)' needs at least one cell
 7 |   (board (rectangle width height) (holes))
   |                                   ^
hint: usage: (holes REGION...), e.g. (holes d4 e5)
)");
}

TEST(LangHoles, TheSwapNeedsHolesSymmetricAcrossTheDiagonal) {
  EXPECT_EQ(rules_of(hex_with("(board (rhombus size size))", "(board (rhombus size size) (holes a2 b1))")).holes.size(),
            2u);
  EXPECT_EQ(
      error_of(hex_with("(board (rhombus size size))", "(board (rhombus size size) (holes a2))")),
      R"(test.game:5:3: error: the swap mirrors the board across its diagonal, which must take every hole onto a hole; a2 is a hole and b1 is not
 5 |   (swap-rule)
   |   ^
hint: make the holes symmetric across the diagonal from a1, or switch the swap off with (swap-rule 0)
)");
}

// ---- Step 7: (lost PIECE), compound conditions, counters -----------------------------------------

TEST(LangEnds, LostCompoundsAndComparisonsAreRead) {
  const Rules rules = rules_of(
      game_with("(win opponent-has-no-pieces)", "(win (or (lost Pawn) (and (not (lost Pawn)) (>= (counter score) 2))))")
          .insert(kGame.find("(players"), "(counter score (range 0 3))\n  "));
  const EndRule& rule = rules.end[1];
  ASSERT_EQ(rule.kind, EndKind::Any);
  ASSERT_EQ(rule.parts.size(), 2u);
  EXPECT_EQ(rule.parts[0].kind, EndKind::Lost);
  EXPECT_EQ(rule.parts[0].piece, 0);
  ASSERT_EQ(rule.parts[1].kind, EndKind::All);
  EXPECT_EQ(rule.parts[1].parts[0].kind, EndKind::Not);
  EXPECT_EQ(rule.parts[1].parts[1].kind, EndKind::Compare);
  EXPECT_EQ(rule.parts[1].parts[1].comparison, Comparison::GreaterOrEqual);
  EXPECT_EQ(rule.parts[1].parts[1].value, 2);
  EXPECT_EQ(rule.parts[1].parts[1].condition_text, "(>= (counter score) 2)");
  ASSERT_EQ(rules.counters.size(), 1u);
  EXPECT_EQ(rules.counters[0].name, "score");
  EXPECT_EQ(rules.counters[0].high, 3);
}

TEST(LangEnds, LostNeedsAPiece) {
  EXPECT_EQ(error_of(game_with("(win opponent-has-no-pieces)", "(win (lost King))")),
            R"(test.game:14:16: error: unknown piece 'King'
 14 |     (win (lost King))
    |                ^~~~
hint: expected one of 'Pawn'
)");
  EXPECT_EQ(error_of(game_with("(win opponent-has-no-pieces)", "(win lost)")),
            R"(test.game:14:10: error: the condition 'lost' needs a piece
 14 |     (win lost)
    |          ^~~~
hint: usage: (lost PIECE)
)");
}

TEST(LangEnds, CompoundsNeedConditionsAndKeepQuietMovesApart) {
  EXPECT_EQ(error_of(game_with("(win opponent-has-no-pieces)", "(win (and))")),
            R"(test.game:14:10: error: '(and ...)' is missing its CONDITION
 14 |     (win (and))
    |          ^
hint: usage: (and CONDITION...)
)");
  EXPECT_EQ(error_of(game_with("(win opponent-has-no-pieces)", "(win (not (lost Pawn) no-legal-moves))")),
            R"(test.game:14:27: error: '(not ...)' takes no more than 1 argument; 'no-legal-moves' is one too many
 14 |     (win (not (lost Pawn) no-legal-moves))
    |                           ^~~~~~~~~~~~~~
hint: usage: (not CONDITION)
)");
  EXPECT_EQ(error_of(game_with("(win opponent-has-no-pieces)", "(draw (or (lost Pawn) (quiet-moves 50)))")),
            R"(test.game:14:27: error: '(quiet-moves ...)' cannot be part of '(or ...)'
 14 |     (draw (or (lost Pawn) (quiet-moves 50)))
    |                           ^
hint: give it an end rule of its own: the quiet plies are counted for such a rule only
)");
}

TEST(LangEnds, ComparisonsNeedADeclaredCounter) {
  EXPECT_EQ(error_of(game_with("(win opponent-has-no-pieces)", "(win (>= (counter score) 3))")),
            R"(test.game:14:23: error: unknown counter 'score'
 14 |     (win (>= (counter score) 3))
    |                       ^~~~~
hint: declare it at game level: (counter NAME (range LOW HIGH))
)");
  const std::string counted = std::string(kGame).insert(kGame.find("(players"), "(counter score (range 0 3))\n  ");
  EXPECT_EQ(error_of(replace_once(counted, "(win opponent-has-no-pieces)", "(win (>= (counter scor) 3))")),
            R"(test.game:15:23: error: unknown counter 'scor'
 15 |     (win (>= (counter scor) 3))
    |                       ^~~~
hint: did you mean 'score'?
)");
  EXPECT_EQ(error_of(replace_once(counted, "(win opponent-has-no-pieces)", "(win (>= (stones) 3))")),
            R"(test.game:15:14: error: expected '(counter NAME)', '(pieces)' or '(count REGION)', found '(stones ...)'
 15 |     (win (>= (stones) 3))
    |              ^
hint: usage: (>= QUANTITY N) with QUANTITY (counter NAME) or (pieces)
)");
  EXPECT_EQ(error_of(replace_once(counted, "(win opponent-has-no-pieces)", "(win >=)")),
            R"(test.game:15:10: error: the comparison '>=' needs a quantity and a number
 15 |     (win >=)
    |          ^~
hint: usage: (>= QUANTITY N) with QUANTITY (counter NAME) or (pieces)
)");
}

TEST(LangEnds, CounterDeclarations) {
  const auto declared = [](const std::string& form) {
    return error_of(std::string(kGame).insert(kGame.find("(players"), form + "\n  "));
  };
  EXPECT_EQ(declared("(counter score (range 3 3))"),
            R"(test.game:6:18: error: this range holds no more than one value: 3 is not less than 3
 6 |   (counter score (range 3 3))
   |                  ^
hint: a counter starts at LOW and may rise to HIGH: write the smaller number first
)");
  EXPECT_EQ(declared("(counter score 3)"),
            R"(test.game:6:18: error: expected '(range LOW HIGH)', found the number 3
 6 |   (counter score 3)
   |                  ^
hint: usage: (counter NAME (range LOW HIGH) [shared])
)");
  EXPECT_EQ(declared("(counter score (range 0 3)) (counter score (range 0 9))"),
            R"(test.game:6:40: error: the counter 'score' is declared twice; first at line 6
 6 |   (counter score (range 0 3)) (counter score (range 0 9))
   |                                        ^~~~~
)");
  EXPECT_EQ(declared("(counter a (range 0 1)) (counter b (range 0 1)) (counter c (range 0 1)) (counter d (range 0 1)) "
                     "(counter e (range 0 1))"),
            R"(test.game:6:99: error: a game has at most 4 counters
 6 | ...) (counter c (range 0 1)) (counter d (range 0 1)) (counter e (range 0 1))
   |                                                      ^
)");
  EXPECT_EQ(declared("(counter score (range 0 40000))"),
            R"(test.game:6:27: error: a counter's bound must be between -30000 and 30000, but it is 40000
 6 |   (counter score (range 0 40000))
   |                           ^~~~~
)");
}

}  // namespace
}  // namespace troyka::lang
