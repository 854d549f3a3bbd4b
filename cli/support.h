// Small helpers the troyka subcommands share.
#pragma once

#include <cmath>
#include <nlohmann/json.hpp>
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

// JSON has no infinity: an infinite Elo is the string "+inf" or "-inf".
inline Json elo_json(double elo) {
  if (std::isinf(elo)) return elo > 0 ? "+inf" : "-inf";
  return elo;
}

// The winning player's name, "draw", or "none" while the game goes on.
using referee::winner_name;

}  // namespace troyka::cli
