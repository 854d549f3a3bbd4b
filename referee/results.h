// The results file: JSON lines, a header that describes the tournament, then one line per finished
// game (docs/protocol.md, section 8). Each line is appended with one write and made durable with
// fsync before anyone is told the game is over, so a crash leaves at most a partial last line,
// which opening the file again cuts off.
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "referee/match.h"
#include "referee/protocol.h"
#include "referee/schedule.h"

namespace troyka::referee {

// The header line. `agents` may be empty while they are not known; the header is written once
// they are.
Json tournament_header(const GameInfo& game, Format format, int games_per_pairing,
                       const std::vector<std::string>& agents, const ClockSettings& clock, int games);

// "" when the header `recorded` (read from a file) describes the tournament `current` describes;
// otherwise which field differs. The agents are compared only when `current` lists some.
std::string header_difference(const Json& recorded, const Json& current);

// A game's line.
Json game_result_json(const GameResult& result);

// What resuming needs to know of a game already in the file.
struct RecordedGame {
  int line = 0;  // from 1
  int game = 0;
  std::vector<std::string> agents;  // by player
  Ranks ranks;                      // by player
  std::vector<int> forfeiters;      // the players who forfeited
};

class ResultsFile {
 public:
  // Opens `path` for appending (creating it) and reads what it holds; a partial last line is cut
  // off. Throws lang::Error when the file cannot be opened, is used by another referee, or holds a
  // damaged line.
  explicit ResultsFile(const std::string& path);

  const std::optional<Json>& header() const { return header_; }
  // The agents the header names, in order.
  const std::vector<std::string>& agents() const { return agents_; }
  const std::vector<RecordedGame>& games() const { return games_; }
  // What opening repaired, for the log; "" when nothing.
  const std::string& repair() const { return repair_; }

  // Appends one line and waits until it is on disk. Throws lang::Error when it cannot.
  void append(const Json& line);
  // Appends the header of a new file, which header() then returns.
  void append_header(const Json& header);

 private:
  std::string read_all();
  void read_lines(const std::string& text);
  void read_header(const Json& header);

  // Closes the file however the object ends, also when opening fails half-way (which also
  // releases the lock).
  struct Descriptor {
    int fd = -1;
    Descriptor() = default;
    Descriptor(const Descriptor&) = delete;
    Descriptor& operator=(const Descriptor&) = delete;
    ~Descriptor();
  };

  std::string path_;
  Descriptor file_;
  std::optional<Json> header_;
  std::vector<std::string> agents_;
  std::vector<RecordedGame> games_;
  std::string repair_;
};

}  // namespace troyka::referee
