// An agent's search report as the CLI shows it: one short line after a move, the full report
// for --verbose, and a JSON object for --json.
#pragma once

#include <nlohmann/json.hpp>
#include <string>
#include <string_view>

#include "agents/agent.h"

namespace troyka::cli {

// "(mcts: 20000 iterations, 350000/s, visits 41.0%, value 0.620)", plus ", proven win" once the
// search has solved the position.
std::string report_summary(std::string_view agent, const agents::SearchReport& report);

// Every fact of the report, one line each, indented by `indent`:
//   mcts: 200 iterations in 4.0 ms, 50000/s, 812 nodes, 1 thread
//   best c2-c3: visits 41.0%, value 0.620, proven win
//   principal variation: c2-c3 b4-b3 d2-d3
std::string report_details(std::string_view agent, const agents::SearchReport& report, std::string_view indent);

// Every field, named as in agents::SearchReport; `proof` as agents::proof_name gives it.
nlohmann::ordered_json report_json(const agents::SearchReport& report);

}  // namespace troyka::cli
