// Matches, game records and replay: the record format, and `troyka match` /
// `troyka replay` end to end through the real binary.
#include "cli/match.h"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "cli/record.h"
#include "interpreter/program.h"
#include "tests/games.h"
#include "tests/run_troyka.h"

namespace {

using troyka_tests::kSampleRecord;
using troyka_tests::Outcome;
using troyka_tests::run_troyka;

using troyka::cli::GameRecord;

std::string read_file(const std::string& path) {
  std::ifstream file(path);
  return {std::istreambuf_iterator<char>(file), std::istreambuf_iterator<char>()};
}

void write_file(const std::string& path, const std::string& text) { std::ofstream(path) << text; }

// A fresh, empty directory under the test temp dir, unique to this process.
std::string fresh_directory(const std::string& name) {
  std::string path = testing::TempDir() + "troyka_match_" + std::to_string(getpid()) + "_" + name;
  std::filesystem::remove_all(path);
  std::filesystem::create_directories(path);
  return path;
}

std::string replaced(std::string text, const std::string& from, const std::string& to) {
  const std::size_t at = text.find(from);
  EXPECT_NE(at, std::string::npos) << from;
  return at == std::string::npos ? text : text.replace(at, from.size(), to);
}

// The record without its Date header, the one line that differs between two runs.
std::string without_date(const std::string& record) {
  std::istringstream lines(record);
  std::string kept;
  for (std::string line; std::getline(lines, line);)
    if (!line.starts_with("[Date ")) kept += line + '\n';
  return kept;
}

// The moves and result: what follows the blank line after the headers.
std::string moves_of(const std::string& record) { return record.substr(record.find("\n\n")); }

const std::string kGame = "games/breakthrough.game";
const std::string kSmallBoard = " --param width=5 --param height=5";

GameRecord sample_game() {
  GameRecord record;
  record.game = "Breakthrough";
  record.file = kGame;
  record.params = "width=5 height=5";
  record.players = {"White", "Black"};
  record.agents = {"random", "mcts:iterations=200"};
  record.ranks = {2, 1};
  record.reason = "Black wins by (reach Pawn far-row)";
  record.plies = 14;
  record.seed = 1;
  record.date = "2024-05-01T12:00:00Z";
  record.moves = {"a2-b3", "a4xb3", "c2xb3", "c4xb3", "b2-a3", "d5-c4", "a3-a4",
                  "b5xa4", "e2-d3", "e4-e3", "c1-c2", "e3xd2", "a1-a2", "d2xe1"};
  return record;
}

// ---- the record format ----------------------------------------------------------------------------

TEST(Record, TextIsTheDocumentedFormat) { EXPECT_EQ(troyka::cli::record_text(sample_game()), kSampleRecord); }

TEST(Record, ReadingGivesBackHeadersMovesAndResultWithEscapes) {
  GameRecord game = sample_game();
  game.file = R"(odd "dir"\breakthrough.game)";
  game.ranks = {1, 1};
  const auto source = std::make_shared<const troyka::lang::SourceFile>(
      troyka::lang::SourceFile{"x.record", troyka::cli::record_text(game)});
  const troyka::cli::ParsedRecord parsed = troyka::cli::parse_record(source);
  EXPECT_EQ(parsed.require("File").value, game.file);
  EXPECT_EQ(parsed.require("Result").value, "1/2-1/2");
  EXPECT_EQ(parsed.require("Winner").value, "draw");
  EXPECT_EQ(parsed.require("White").value, "random");
  EXPECT_EQ(parsed.require("Black").value, "mcts:iterations=200");
  EXPECT_EQ(parsed.require("Reason").value, game.reason);
  ASSERT_EQ(parsed.moves.size(), game.moves.size());
  for (std::size_t i = 0; i < game.moves.size(); ++i) EXPECT_EQ(parsed.moves[i].text, game.moves[i]);
  EXPECT_EQ(parsed.result.text, "1/2-1/2");
  // Places point into the file: line 14 holds the moves, "a2-b3" after "1. ".
  EXPECT_EQ(parsed.moves[0].pos.line, 14u);
  EXPECT_EQ(parsed.moves[0].pos.column, 4u);
  EXPECT_EQ(parsed.require("File").value_pos.column, 7u);
}

TEST(Record, MoveNumbersMayBeLeftOutOrJoinedToTheirMove) {
  const auto parse = [](const std::string& moves) {
    const std::string text = "[Game \"Breakthrough\"]\n\n" + moves;
    return troyka::cli::parse_record(
        std::make_shared<const troyka::lang::SourceFile>(troyka::lang::SourceFile{"x.record", text}));
  };
  EXPECT_EQ(parse("a2-a3 e4-e3\n1-0\n").moves.size(), 2u);
  EXPECT_EQ(parse("1.a2-a3 e4-e3 2.b2-b3 1-0").moves.size(), 3u);
}

// A turn of several decisions is written joined by ','; each decision is read as a move of its own,
// in its place, and a move number counts turns.
TEST(Record, TheDecisionsOfATurnAreJoinedByCommas) {
  const std::string text = "[Game \"Connect6\"]\n\n1. j10 k10,k11 2. a1,b2 1-0\n";
  const troyka::cli::ParsedRecord parsed = troyka::cli::parse_record(
      std::make_shared<const troyka::lang::SourceFile>(troyka::lang::SourceFile{"x.record", text}));
  std::vector<std::string> moves;
  for (const troyka::cli::RecordToken& move : parsed.moves) moves.push_back(move.text);
  EXPECT_EQ(moves, (std::vector<std::string>{"j10", "k10", "k11", "a1", "b2"}));
  EXPECT_EQ(parsed.moves[2].pos.column, 12u);
  troyka::cli::GameRecord game = sample_game();
  game.moves = {"j10", "k10,k11", "a1,b2"};
  const std::string written = troyka::cli::record_text(game);
  EXPECT_NE(written.find("\n1. j10 k10,k11 2. a1,b2 "), std::string::npos) << written;
}

// ---- replay ---------------------------------------------------------------------------------------

TEST(Replay, ASampleRecordReplays) {
  const std::string path = fresh_directory("sample") + "/sample.record";
  write_file(path, kSampleRecord);
  Outcome run = run_troyka("replay --quiet " + path);
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out, "record ok: Black wins after 14 plies (Black wins by (reach Pawn far-row))\n");
  run = run_troyka("replay " + path);
  EXPECT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out.rfind("Breakthrough\n  5  p p p p p\n", 0), 0u) << run.out;
  EXPECT_TRUE(
      run.out.ends_with("7. Black d2xe1\n  5  p . p . p\n  4  p p p p .\n  3  . p . P .\n  2  P . P . .\n  1  . P . P "
                        "p\n     a b c d e\n\n"
                        "record ok: Black wins after 14 plies (Black wins by (reach Pawn far-row))\n"))
      << run.out;
  const nlohmann::json json = nlohmann::json::parse(run_troyka("replay --json " + path).out);
  EXPECT_EQ(json["ok"], true);
  EXPECT_EQ(json["winner"], "Black");
  EXPECT_EQ(json["plies"], 14);
  EXPECT_EQ(json["moves"].size(), 14u);
}

TEST(Replay, AnIllegalMoveIsShownInTheRecord) {
  const std::string path = fresh_directory("illegal") + "/illegal.record";
  write_file(path, replaced(kSampleRecord, "3. b2-a3", "3. b2-b4"));
  const Outcome run = run_troyka("replay --quiet " + path);
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(run.err, path +
                         ":14:34: error: cannot play b2-b4 as White's move 3: b2-b4 is not a legal move for White; "
                         "the piece there can play b2-a3 b2-c3\n"
                         " 14 | 1. a2-b3 a4xb3 2. c2xb3 c4xb3 3. b2-b4 d5-c4 4. a3-a4 b5xa4 5. e2-d3 e4-e3\n"
                         "    |                                  ^~~~~\n");
}

TEST(Replay, AWrongResultIsAnError) {
  const std::string path = fresh_directory("result") + "/result.record";
  write_file(path, replaced(kSampleRecord, "[Result \"0-1\"]", "[Result \"1-0\"]"));
  const Outcome run = run_troyka("replay --quiet " + path);
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.err, path +
                         ":7:9: error: Result says \"1-0\" but replaying the moves gives \"0-1\"\n"
                         " 7 | [Result \"1-0\"]\n"
                         "   |         ^~~~~\n"
                         "hint: the game ends: Black wins by (reach Pawn far-row)\n");
}

TEST(Replay, MissingOrExtraMovesAndWrongPliesAreErrors) {
  const std::string directory = fresh_directory("lengths");
  write_file(directory + "/short.record", replaced(kSampleRecord, " d2xe1 0-1", " 0-1"));
  Outcome run = run_troyka("replay --quiet " + directory + "/short.record");
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(run.err.find(":15:25: error: the moves end after 13 plies but the game is not over\n"), std::string::npos)
      << run.err;
  write_file(directory + "/long.record", replaced(kSampleRecord, "d2xe1 0-1", "d2xe1 b3-b4 0-1"));
  run = run_troyka("replay --quiet " + directory + "/long.record");
  EXPECT_NE(run.err.find(":15:31: error: the game is over after 14 plies, but the record goes on\n"), std::string::npos)
      << run.err;
  write_file(directory + "/plies.record", replaced(kSampleRecord, "[Plies \"14\"]", "[Plies \"15\"]"));
  run = run_troyka("replay --quiet " + directory + "/plies.record");
  EXPECT_NE(run.err.find(":10:8: error: Plies says 15 but the record has 14 moves\n"), std::string::npos) << run.err;
}

TEST(Replay, AMalformedHeaderIsReportedWithLineAndColumn) {
  const std::string path = fresh_directory("malformed") + "/malformed.record";
  write_file(path, replaced(kSampleRecord, "[Winner \"Black\"]", "[Winner \"Black]"));
  Outcome run = run_troyka("replay " + path);
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.out, "");
  EXPECT_EQ(run.err, path +
                         ":8:9: error: the value of 'Winner' has no closing quote\n"
                         " 8 | [Winner \"Black]\n"
                         "   |         ^~~~~~~\n"
                         "hint: a value ends with \" on the same line\n");
  write_file(path, replaced(kSampleRecord, "[Seed \"1\"]", "[Seed \"1\\n\"]"));
  run = run_troyka("replay " + path);
  EXPECT_EQ(run.err, path +
                         ":11:9: error: unknown escape '\\n' in a value\n"
                         " 11 | [Seed \"1\\n\"]\n"
                         "    |         ^~\n"
                         "hint: only \\\" (a quote) and \\\\ (a backslash) are escapes\n");
  write_file(path, replaced(kSampleRecord, "[Plies \"14\"]\n", ""));
  run = run_troyka("replay " + path);
  EXPECT_EQ(run.err, path +
                         ": error: the record has no 'Plies' header\n"
                         "hint: add one, e.g. [Plies \"...\"]; see docs/records.md\n");
}

TEST(Replay, TheRuleFileIsAlsoLookedForBesideTheRecord) {
  const std::string directory = fresh_directory("beside");
  std::filesystem::copy_file(std::string(TROYKA_SOURCE_DIR) + "/" + kGame, directory + "/rules.game");
  write_file(directory + "/game.record", replaced(kSampleRecord, kGame, "rules.game"));
  const Outcome run = run_troyka("replay --quiet " + directory + "/game.record");
  EXPECT_EQ(run.status, 0) << run.err;
}

// ---- match ----------------------------------------------------------------------------------------

TEST(Match, TotalsAddUpColoursAlternateAndRecordsReplay) {
  const std::string records = fresh_directory("match");
  const Outcome run = run_troyka("match " + kGame + kSmallBoard +
                                 " --games 4 --agents random mcts:iterations=200 --json --records " + records);
  ASSERT_EQ(run.status, 0) << run.err;
  const nlohmann::json json = nlohmann::json::parse(run.out);
  EXPECT_EQ(json["games"], 4);
  EXPECT_EQ(json["params"], "width=5 height=5");
  const nlohmann::json& a = json["agents"][0];
  const nlohmann::json& b = json["agents"][1];
  EXPECT_EQ(a["spec"], "random");
  EXPECT_EQ(b["spec"], "mcts:iterations=200");
  for (const char* key : {"wins", "losses", "draws"})
    EXPECT_EQ(a["total"][key], a["as_first"][key].get<int>() + a["as_second"][key].get<int>());
  EXPECT_EQ(a["total"]["wins"], b["total"]["losses"]);
  EXPECT_EQ(a["total"]["draws"], b["total"]["draws"]);
  const int a_games = a["total"]["wins"].get<int>() + a["total"]["losses"].get<int>() + a["total"]["draws"].get<int>();
  EXPECT_EQ(a_games, 4);
  EXPECT_DOUBLE_EQ(a["score"].get<double>() + b["score"].get<double>(), 4.0);
  EXPECT_DOUBLE_EQ(json["elo"]["score"].get<double>(), a["score"].get<double>() / 4);
  ASSERT_EQ(json["results"].size(), 4u);
  double plies = 0;
  for (int game = 0; game < 4; ++game) {
    const nlohmann::json& result = json["results"][static_cast<std::size_t>(game)];
    EXPECT_EQ(result["game"], game + 1);
    EXPECT_EQ(result["first"], game % 2 == 0 ? "random" : "mcts:iterations=200");
    plies += result["plies"].get<double>();
    const std::string path = records + "/game-000" + std::to_string(game + 1) + ".record";
    const std::string record = read_file(path);
    EXPECT_NE(record.find(game % 2 == 0 ? "[White \"random\"]\n[Black \"mcts:iterations=200\"]\n"
                                        : "[White \"mcts:iterations=200\"]\n[Black \"random\"]\n"),
              std::string::npos)
        << record;
    const Outcome replay = run_troyka("replay --json " + path);
    ASSERT_EQ(replay.status, 0) << replay.err;
    const nlohmann::json replayed = nlohmann::json::parse(replay.out);
    EXPECT_EQ(replayed["winner"], result["winner"]);
    EXPECT_EQ(replayed["plies"], result["plies"]);
    EXPECT_EQ(replayed["reason"], result["reason"]);
  }
  EXPECT_DOUBLE_EQ(json["average_plies"].get<double>(), plies / 4);
  EXPECT_EQ(std::distance(std::filesystem::directory_iterator(records), std::filesystem::directory_iterator()), 4);
}

// Two moves a turn (White's first turn one): MCTS, which reads the player to move from each
// position, beats the random agent, and the records join each turn's moves and replay.
TEST(Match, TurnsOfTwoMovesMctsBeatsRandomAndRecordsReplay) {
  const std::string records = fresh_directory("turns");
  const Outcome run = run_troyka("match games/breakthrough-two-moves.game" + kSmallBoard +
                                 " --games 2 --agents mcts:iterations=300 random --json --records " + records);
  ASSERT_EQ(run.status, 0) << run.err;
  const nlohmann::json json = nlohmann::json::parse(run.out);
  EXPECT_EQ(json["agents"][0]["total"]["wins"], 2) << run.out;
  for (int game = 1; game <= 2; ++game) {
    const std::string path = records + "/game-000" + std::to_string(game) + ".record";
    const std::string record = read_file(path);
    const std::size_t moves = record.find("\n1. ");
    ASSERT_NE(moves, std::string::npos) << record;
    // "1. b2-b3 c4-c3,d4-d3 2. ...": the first turn one move, the second two.
    const std::string first_turn = record.substr(moves + 4, record.find(' ', moves + 4) - moves - 4);
    EXPECT_EQ(first_turn.find(','), std::string::npos) << record;
    const std::size_t second = moves + 4 + first_turn.size() + 1;
    const std::string second_turn = record.substr(second, record.find(' ', second) - second);
    EXPECT_NE(second_turn.find(','), std::string::npos) << record;
    const Outcome replay = run_troyka("replay --json " + path);
    ASSERT_EQ(replay.status, 0) << replay.err;
    EXPECT_EQ(nlohmann::json::parse(replay.out)["plies"], json["results"][static_cast<std::size_t>(game - 1)]["plies"]);
  }
}

// Three agents on three-player Breakthrough: the seats rotate, every game's rank points add up to
// 1.5, and the records carry the ranks as their result and replay.
TEST(Match, ThreePlayersRotateSeatsScoreRankPointsAndRecordsReplay) {
  const std::string records = fresh_directory("three");
  const Outcome run = run_troyka(
      "match games/breakthrough-3-players.game --param size=8 --games 3 "
      "--agents mcts:iterations=100 random uct:iterations=50 --json --records " +
      records);
  ASSERT_EQ(run.status, 0) << run.err;
  const nlohmann::json json = nlohmann::json::parse(run.out);
  EXPECT_EQ(json["players"], nlohmann::json({"White", "Red", "Black"}));
  EXPECT_EQ(json["elo"], nullptr);
  const std::array<std::string, 3> specs{"mcts:iterations=100", "random", "uct:iterations=50"};
  double scores = 0;
  for (std::size_t agent = 0; agent < 3; ++agent) {
    const nlohmann::json& line = json["agents"][agent];
    EXPECT_EQ(line["spec"], specs[agent]);
    EXPECT_FALSE(line.contains("as_first"));
    for (std::size_t player = 0; player < 3; ++player)  // each agent played each player once
      EXPECT_EQ(line["as"][player]["wins"].get<int>() + line["as"][player]["losses"].get<int>() +
                    line["as"][player]["draws"].get<int>(),
                1)
          << line;
    scores += line["score"].get<double>();
  }
  EXPECT_DOUBLE_EQ(scores, 3 * 1.5);
  for (std::size_t game = 0; game < 3; ++game) {
    const nlohmann::json& result = json["results"][game];
    // Game 1 seats A, B, C; game 2 B, C, A; game 3 C, A, B.
    for (std::size_t player = 0; player < 3; ++player)
      EXPECT_EQ(result["agents"][player], specs[(player + game) % 3]) << result;
    const std::vector<int> ranks = result["ranks"];
    const std::string token =
        std::to_string(ranks[0]) + "-" + std::to_string(ranks[1]) + "-" + std::to_string(ranks[2]);
    EXPECT_EQ(result["result"], token);
    const std::string path = records + "/game-000" + std::to_string(game + 1) + ".record";
    const std::string record = read_file(path);
    EXPECT_NE(record.find("[White \"" + specs[game] + "\"]\n[Red \"" + specs[(game + 1) % 3] + "\"]\n[Black \"" +
                          specs[(game + 2) % 3] + "\"]\n[Result \"" + token + "\"]\n"),
              std::string::npos)
        << record;
    EXPECT_NE(record.find("[Seed \"" + std::to_string(1 + 3 * game) + "\"]"), std::string::npos) << record;
    EXPECT_TRUE(record.ends_with(" " + token + "\n")) << record;
    EXPECT_NE(record.find("\n1. "), std::string::npos) << record;
    const Outcome replay = run_troyka("replay --json " + path);
    ASSERT_EQ(replay.status, 0) << replay.err;
    const nlohmann::json replayed = nlohmann::json::parse(replay.out);
    EXPECT_EQ(replayed["result"], token);
    EXPECT_EQ(replayed["winner"], result["winner"]);
    EXPECT_EQ(replayed["plies"], result["plies"]);
  }
}

TEST(Match, ThreePlayersPlainSummaryAndAgentCountChecked) {
  const std::string game = "games/breakthrough-3-players.game --param size=8";
  const Outcome run = run_troyka("match " + game + " --games 3 --agents random random random");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out.rfind("Breakthrough for three players (size=8): 3 games, random #1 against random #2 against "
                          "random #3\n"
                          "agent      as White     as Red       as Black     total        score\n",
                          0),
            0u)
      << run.out;
  EXPECT_NE(run.out.find("(first-last-between: "), std::string::npos) << run.out;
  EXPECT_EQ(run.out.find("Elo"), std::string::npos) << run.out;
  EXPECT_EQ(run.err.rfind("game 1/3: 1. random #", 0), 0u) << run.err;
  const Outcome two = run_troyka("match " + game + " --agents random random");
  EXPECT_EQ(two.status, 1);
  EXPECT_EQ(two.err,
            "error: Breakthrough for three players has 3 players but --agents names 2 agents\n"
            "hint: give one agent for each player; the seats rotate from game to game\n");
}

// A wrong move number or result of a three-player record is found: numbers count rounds of three.
TEST(Replay, AThreePlayerRecordNumbersRoundsOfThreeAndEndsWithRanks) {
  const std::string records = fresh_directory("three_replay");
  ASSERT_EQ(run_troyka("match games/breakthrough-3-players.game --param size=8 --games 1 --agents random random "
                       "random --records " +
                       records)
                .status,
            0);
  const std::string path = records + "/game-0001.record";
  const std::string record = read_file(path);
  ASSERT_NE(record.find(" 2. "), std::string::npos) << record;
  write_file(path, replaced(record, " 2. ", " 3. "));
  Outcome run = run_troyka("replay --quiet " + path);
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(run.err.find("error: move number 3. where 2. was expected\n"), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("hint: each number is followed by 3 moves, one a player\n"), std::string::npos) << run.err;
  const troyka::cli::ParsedRecord parsed = troyka::cli::parse_record(
      std::make_shared<const troyka::lang::SourceFile>(troyka::lang::SourceFile{"game-0001.record", record}));
  EXPECT_EQ(parsed.players, 3);
  const std::string result = parsed.result.text;
  write_file(path, replaced(record, "[Result \"" + result + "\"]", "[Result \"1-0\"]"));
  run = run_troyka("replay --quiet " + path);
  EXPECT_EQ(run.status, 1);
  EXPECT_NE(run.err.find("error: Result must be the ranks of the 3 players, e.g. 1-2-3, not \"1-0\"\n"),
            std::string::npos)
      << run.err;
}

TEST(Match, TheSameSeedGivesTheSameGamesWhateverTheParallelism) {
  const std::string one = fresh_directory("serial"), two = fresh_directory("parallel"), other = fresh_directory("seed");
  const std::string match = "match " + kGame + kSmallBoard + " --games 4 --agents mcts:iterations=100 random";
  ASSERT_EQ(run_troyka(match + " --records " + one).status, 0);
  ASSERT_EQ(run_troyka(match + " --parallel 2 --records " + two).status, 0);
  ASSERT_EQ(run_troyka(match + " --seed 99 --records " + other).status, 0);
  bool seed_matters = false;
  for (int game = 1; game <= 4; ++game) {
    const std::string name = "/game-000" + std::to_string(game) + ".record";
    EXPECT_EQ(without_date(read_file(one + name)), without_date(read_file(two + name)));
    seed_matters = seed_matters || moves_of(read_file(one + name)) != moves_of(read_file(other + name));
  }
  EXPECT_TRUE(seed_matters);
}

TEST(Match, ARecordsSeedReplaysTheGameInPlay) {
  const std::string records = fresh_directory("play");
  ASSERT_EQ(
      run_troyka("match " + kGame + kSmallBoard + " --games 2 --agents mcts:iterations=100 random --records " + records)
          .status,
      0);
  // Game 2: B plays White; its seed is 1 + 2.
  const std::string record = read_file(records + "/game-0002.record");
  EXPECT_NE(record.find("[Seed \"3\"]"), std::string::npos) << record;
  const Outcome play =
      run_troyka("play " + kGame + kSmallBoard + " --white random --black mcts:iterations=100 --seed 3 --json");
  ASSERT_EQ(play.status, 0) << play.err;
  std::string moves;
  const nlohmann::json played = nlohmann::json::parse(play.out);
  for (const auto& move : played["moves"]) moves += move.get<std::string>() + " ";
  const troyka::cli::ParsedRecord parsed = troyka::cli::load_record(records + "/game-0002.record");
  std::string recorded;
  for (const auto& move : parsed.moves) recorded += move.text + " ";
  EXPECT_EQ(recorded, moves);
}

TEST(Match, PlainProgressAndSummaryText) {
  const Outcome run = run_troyka("match " + kGame + kSmallBoard + " --games 2 --agents random random");
  ASSERT_EQ(run.status, 0) << run.err;
  EXPECT_EQ(run.out.rfind("Breakthrough (width=5 height=5): 2 games, random #1 against random #2\n"
                          "agent      as White     as Black     total        score\n",
                          0),
            0u)
      << run.out;
  EXPECT_NE(run.out.find("Elo difference of A (random #1) over B (random #2): "), std::string::npos) << run.out;
  EXPECT_NE(run.out.find("\naverage length "), std::string::npos) << run.out;
  EXPECT_EQ(run.err.rfind("game 1/2: random #1 (White) ", 0), 0u) << run.err;
  EXPECT_NE(run.err.find("\ngame 2/2: "), std::string::npos) << run.err;
  EXPECT_NE(run.err.find("random #2 (White)"), std::string::npos) << run.err;
}

TEST(Match, ARecordThatCannotBeWrittenStopsTheMatch) {
  const std::string records = fresh_directory("unwritable");
  std::filesystem::create_directory(records + "/game-0002.record");  // in the way of the second record
  const Outcome run = run_troyka("match " + kGame + kSmallBoard +
                                 " --games 4 --parallel 2 --agents random random --records " + records);
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.out, "");
  EXPECT_TRUE(run.err.ends_with("error: cannot write the record '" + records +
                                "/game-0002.record'\nhint: check the --records directory\n"))
      << run.err;
}

TEST(Match, BadOptionsAreRejectedBeforeLoading) {
  Outcome run = run_troyka("match no/such.game --agents random mtcs");
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.err, "error: unknown agent 'mtcs'\nhint: did you mean 'mcts'? valid agents: mcts, random, uct\n");
  run = run_troyka("match " + kGame + " --agents random random --games 0");
  EXPECT_EQ(run.status, 1);
  EXPECT_EQ(run.err, "error: --games must be between 1 and 1000000\n");
  run = run_troyka("match " + kGame + " --agents random random --parallel 0");
  EXPECT_EQ(run.err, "error: --parallel must be between 1 and 256\n");
  EXPECT_NE(run_troyka("match " + kGame + " --agents random").status, 0);
}

}  // namespace
