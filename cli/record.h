// Game records: one finished game as text, in a PGN-like format (docs/records.md).
//
//   [Game "Breakthrough"]
//   [File "games/breakthrough.game"]
//   ...
//   [Result "1-0"]
//
//   1. a2-a3 e7-e6 2. ...
//   1-0
//
// A game of more than two players numbers each round of turns, and its result is the ranks:
// "1. a2-a3 h1-g1 b8-b7 2. ... 2-1-3".
// Writing takes a GameRecord. Reading gives the headers and moves as written, each with its place
// in the file, without loading the game: what the moves mean is checked by `troyka replay`
// (cli/replay.h), which needs the place to point at a bad move.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "lang/diagnostic.h"
#include "lang/rules.h"
#include "referee/outcome.h"

namespace troyka::cli {

// A finished game and how it was played.
struct GameRecord {
  std::string game;                  // the rules' name, e.g. "Breakthrough"
  std::string file;                  // the rule file's path as given on the command line
  std::string variant;               // "" for the default
  std::string params;                // the --param values as given, separated by spaces: "width=6 height=6"
  std::vector<std::string> players;  // the players' names, first player first
  std::vector<std::string> agents;   // the agent spec playing each player
  referee::Ranks ranks;              // by player
  std::string reason;                // Program::end_reason of the final position
  std::uint32_t plies = 0;
  std::uint64_t seed = 0;          // the first player's agent got this seed, the second's seed + 1, and so on
  std::string date;                // when the game started, UTC, ISO 8601: 2024-05-01T12:34:56Z
  std::vector<std::string> moves;  // by turn: a turn of several decisions is their texts joined by ','
};

// The result token of a game: "1-0" (first player wins), "0-1", "1/2-1/2"; the ranks with more players.
using referee::result_token;

// The record as text, ending in a newline.
std::string record_text(const GameRecord& record);

// Whether `name` is a header every record has (Game, File, ... Date). The players' headers are named
// after the players, so a player with such a name cannot be recorded.
bool is_standard_header(std::string_view name);

// Writes the record to `path`; throws lang::Error when the file cannot be written.
void save_record(const GameRecord& record, const std::string& path);

// Headers and moves as read from a record, each with its place in the file.
struct RecordHeader {
  std::string key;
  std::string value;  // unescaped
  lang::SourcePos key_pos;
  lang::SourcePos value_pos;  // the quoted value, quotes included
};

struct RecordToken {
  std::string text;
  lang::SourcePos pos;
};

struct ParsedRecord {
  std::shared_ptr<const lang::SourceFile> source;
  std::vector<RecordHeader> headers;  // in file order; no key twice
  std::vector<RecordToken> moves;     // move numbers left out; each decision of a turn "c3,d4" its own
  RecordToken result;                 // the result token that ends the moves
  int players = 2;                    // as the result token tells: two, or as many as it ranks

  // The header named `key`, or null.
  const RecordHeader* find(std::string_view key) const;
  // The header named `key`; throws lang::Error naming the record when it is missing.
  const RecordHeader& require(std::string_view key) const;
};

// Reads the structure of a record: headers, move numbers, moves, result. Throws lang::Error with
// the record's name, line and column on the first problem.
ParsedRecord parse_record(std::shared_ptr<const lang::SourceFile> source);
// Reads the file at `path` and parses it; a file that cannot be read is a lang::Error too.
ParsedRecord load_record(const std::string& path);
// The text of the file at `path`; throws a usage error when it cannot be read.
std::string read_record_file(const std::string& path);

// An error at a place in a record, rendered like a rule-file error.
lang::Error record_error(const ParsedRecord& record, lang::SourcePos pos, std::string message, std::string hint = {});

}  // namespace troyka::cli
