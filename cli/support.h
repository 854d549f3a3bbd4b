// Small helpers the troyka subcommands share.
#pragma once

#include <chrono>
#include <cmath>
#include <cstdint>
#include <functional>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "lang/diagnostic.h"
#include "referee/outcome.h"

namespace troyka::cli {

// Key order is kept, so JSON output reads in the order it is built.
using Json = nlohmann::ordered_json;

// A mistake on the command line, reported like a rule-file error but without a place.
inline lang::Error usage_error(std::string message, std::string hint = {}) {
  return lang::Error(lang::Diagnostic{nullptr, {}, std::move(message), std::move(hint)});
}

// Creates `directory` and its parents for the files `option` (e.g. "--records") writes there;
// throws a usage error naming the option when it cannot.
void create_output_directory(const std::string& directory, std::string_view option);

// Writes `text` to the file at `path`; when it cannot, throws a usage error "cannot write WHAT
// 'PATH'" (`what`: "the record", say) with `hint`.
void write_text_file(const std::string& path, std::string_view text, std::string_view what, std::string hint);

// A time left for people: "42s", "3m05s", "2h10m".
std::string duration_text(double seconds);

// A --max-plies option: the ply at which a game or a playout still going is stopped; when not
// given, the game's own playout cap (lang::playout_cap).
using MaxPlies = std::optional<std::uint32_t>;

// Checks a --max-plies option: a game stopped before its first move would not be played at all.
inline void check_max_plies(const MaxPlies& max_plies) {
  if (max_plies && *max_plies < 1) throw usage_error("--max-plies must be at least 1");
}

// Seconds since `start` on the steady clock.
double seconds_since(std::chrono::steady_clock::time_point start);

// Runs job(i) for every i below `count` on up to `threads` threads (each job on its own thread,
// taken in order) while the calling thread calls `report()` after jobs end and about twice a
// second, and once more when all have ended. After a job throws no new job starts; the first
// error is rethrown once the running jobs have ended.
void run_jobs(int count, int threads, const std::function<void(int)>& job, const std::function<void()>& report);

// JSON has no infinity: an infinite Elo is the string "+inf" or "-inf".
inline Json elo_json(double elo) {
  if (std::isinf(elo)) return elo > 0 ? "+inf" : "-inf";
  return elo;
}

// The winning player's name, "draw", or "none" while the game goes on.
using referee::winner_name;

}  // namespace troyka::cli
