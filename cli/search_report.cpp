#include "cli/search_report.h"

#include <fmt/format.h>
#include <fmt/ranges.h>

#include <algorithm>
#include <array>
#include <cstddef>
#include <string>
#include <vector>

namespace troyka::cli {
namespace {

// A line of more than this many moves is cut: further moves are mostly noise from few visits.
constexpr std::size_t kPrincipalMovesShown = 8;

// ", proven win" when the search solved the position for the player it moved for.
std::string proof_suffix(agents::Proof proof) {
  if (proof == agents::Proof::Unknown) return "";
  return fmt::format(", proven {}", agents::proof_name(proof));
}

// Bytes in the largest unit that keeps a number of at least 1: "812 B", "25.4 KiB", "1.2 GiB".
std::string memory_text(std::size_t bytes) {
  constexpr std::array<const char*, 4> kUnits = {"B", "KiB", "MiB", "GiB"};
  auto amount = static_cast<double>(bytes);
  std::size_t unit = 0;
  for (; amount >= 1024 && unit + 1 < kUnits.size(); ++unit) amount /= 1024;
  return unit == 0 ? fmt::format("{} B", bytes) : fmt::format("{:.1f} {}", amount, kUnits[unit]);
}

// "0.4 ms" for a quick search, "2.00 s" for a long one.
std::string duration_text(double seconds) {
  return seconds < 1 ? fmt::format("{:.1f} ms", 1000 * seconds) : fmt::format("{:.2f} s", seconds);
}

std::string principal_text(const std::vector<std::string>& moves) {
  const std::size_t shown = std::min(moves.size(), kPrincipalMovesShown);
  std::string text =
      fmt::format("{}", fmt::join(moves.begin(), moves.begin() + static_cast<std::ptrdiff_t>(shown), " "));
  return moves.size() > shown ? text + " ..." : text;
}

}  // namespace

std::string report_summary(std::string_view agent, const agents::SearchReport& report) {
  return fmt::format("({}: {} iterations, {:.0f}/s, visits {:.1f}%, value {:.3f}{})", agent, report.iterations,
                     report.iterations_per_second(), 100 * report.visit_share, report.value,
                     proof_suffix(report.proof));
}

std::string report_details(std::string_view agent, const agents::SearchReport& report, std::string_view indent) {
  // Memory is left out while an agent does not measure it (0 bytes).
  const std::string memory = report.bytes > 0 ? ", " + memory_text(report.bytes) : "";
  std::string out = fmt::format("{}{}: {} iterations in {}, {:.0f}/s, {} nodes{}, {} thread{}\n", indent, agent,
                                report.iterations, duration_text(report.seconds), report.iterations_per_second(),
                                report.nodes, memory, report.threads, report.threads == 1 ? "" : "s");
  out += fmt::format("{}best {}: visits {:.1f}%, value {:.3f}{}\n", indent, report.best_text, 100 * report.visit_share,
                     report.value, proof_suffix(report.proof));
  if (!report.principal.empty())
    out += fmt::format("{}principal variation: {}\n", indent, principal_text(report.principal));
  if (report.time_limit > 0)
    out += fmt::format("{}clock: limit {}, read at least every {}, kept from running at most {}\n", indent,
                       duration_text(report.time_limit), duration_text(report.longest_check_gap),
                       duration_text(report.longest_stall));
  if (report.capped_playouts > 0)
    out += fmt::format("{}{} playouts cut at the ply cap, counted as draws\n", indent, report.capped_playouts);
  return out;
}

nlohmann::ordered_json report_json(const agents::SearchReport& report) {
  return {{"iterations", report.iterations},
          {"seconds", report.seconds},
          {"time_limit", report.time_limit},
          {"iterations_per_second", report.iterations_per_second()},
          {"nodes", report.nodes},
          {"best", report.best_text},
          {"visit_share", report.visit_share},
          {"value", report.value},
          {"proof", agents::proof_name(report.proof)},
          {"principal", report.principal},
          {"threads", report.threads},
          {"bytes", report.bytes},
          {"longest_check_gap", report.longest_check_gap},
          {"longest_stall", report.longest_stall},
          {"capped_playouts", report.capped_playouts}};
}

}  // namespace troyka::cli
