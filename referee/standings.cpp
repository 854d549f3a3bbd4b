#include "referee/standings.h"

#include <fmt/format.h>

#include <algorithm>
#include <cmath>
#include <limits>
#include <stdexcept>

#include "interpreter/program.h"

namespace troyka::referee {
namespace {

constexpr double kZ95 = 1.959964;  // the two-sided 95% quantile of the normal distribution

std::string score_text(const Standing& standing) {
  if (standing.games() == 0) return "0/0";
  return fmt::format("{:g}/{} ({:.1f}%)", standing.score(), standing.games(),
                     100 * standing.score() / standing.games());
}

std::string elo_interval_text(const Standing& standing) {
  if (standing.games() == 0) return "-";
  const EloEstimate elo = standing.elo();
  return fmt::format("{} ({} to {})", elo_text(elo.difference), elo_text(elo.low), elo_text(elo.high));
}

}  // namespace

double elo_from_score(double score) {
  if (score <= 0) return -std::numeric_limits<double>::infinity();
  if (score >= 1) return std::numeric_limits<double>::infinity();
  return -400 * std::log10(1 / score - 1);
}

EloEstimate elo_estimate(int wins, int losses, int draws) {
  const double games = wins + losses + draws;
  if (games == 0) return {0.5, 0, 0, 0};
  const double score = (wins + 0.5 * draws) / games;
  const double variance =
      (wins * std::pow(1 - score, 2) + losses * std::pow(score, 2) + draws * std::pow(0.5 - score, 2)) / games;
  // Wilson's score interval, with the games' own variance in place of s(1 - s) (draws make it
  // smaller): unlike s -/+ 1.96 se it stays inside (0, 1), so a clean sweep still has a finite
  // bound on one side.
  const double z2 = kZ95 * kZ95;
  const double center = (score + z2 / (2 * games)) / (1 + z2 / games);
  const double margin = kZ95 / (1 + z2 / games) * std::sqrt(variance / games + z2 / (4 * games * games));
  // At a score of 0 or 1 the bound on that side is exactly 0 or 1 (rounding aside): infinite.
  const double low = score <= 0 ? 0 : center - margin, high = score >= 1 ? 1 : center + margin;
  return {score, elo_from_score(score), elo_from_score(low), elo_from_score(high)};
}

std::string elo_text(double elo) {
  if (std::isinf(elo)) return elo > 0 ? "+inf" : "-inf";
  return fmt::format("{:+.1f}", elo == 0 ? 0.0 : elo);  // not "-0.0" for an even score
}

Standings::Standings(const std::vector<std::string>& agents, int players) : elo_(players == 2) {
  for (const std::string& agent : agents) standings_.push_back({agent});
}

Standing& Standings::find(const std::string& agent) {
  const auto found = std::find_if(standings_.begin(), standings_.end(),
                                  [&](const Standing& standing) { return standing.agent == agent; });
  if (found == standings_.end()) throw std::invalid_argument("not an agent of the tournament: " + agent);
  return *found;
}

void Standings::add(const std::vector<std::string>& agents, const Ranks& ranks, const std::vector<int>& forfeiters) {
  for (std::size_t player = 0; player < agents.size(); ++player) {
    Standing& standing = find(agents[player]);
    switch (verdict_of(ranks, static_cast<int>(player))) {
      case Verdict::Win: ++standing.wins; break;
      case Verdict::Loss: ++standing.losses; break;
      case Verdict::Draw: ++standing.draws; break;
    }
    standing.points += rank_points(ranks, static_cast<int>(player));
    standing.forfeits += static_cast<int>(std::count(forfeiters.begin(), forfeiters.end(), static_cast<int>(player)));
  }
}

std::vector<Standing> Standings::ranked() const {
  std::vector<Standing> ranked = standings_;
  std::stable_sort(ranked.begin(), ranked.end(), [](const Standing& a, const Standing& b) {
    if (a.score() != b.score()) return a.score() > b.score();
    if (a.games() != b.games()) return a.games() < b.games();
    return a.agent < b.agent;
  });
  return ranked;
}

std::string Standings::table() const {
  std::size_t width = 5;
  for (const Standing& standing : standings_) width = std::max(width, standing.agent.size());
  // Elo only with two players: a game of more is no duel between two ratings.
  const auto line = [&](const auto& rank, const std::string& agent, const auto& games, const auto& wins,
                        const auto& losses, const auto& draws, const auto& forfeits, const std::string& score,
                        const std::string& elo) {
    const std::string text = fmt::format("{:<4} {:<{}}  {:>5} {:>5} {:>6} {:>5} {:>8}  ", rank, agent, width, games,
                                         wins, losses, draws, forfeits);
    return elo_ ? fmt::format("{}{:<16}  {}\n", text, score, elo) : fmt::format("{}{}\n", text, score);
  };
  std::string text =
      line("rank", "agent", "games", "wins", "losses", "draws", "forfeits", "score", "Elo (95% interval)");
  int rank = 0;
  for (const Standing& standing : ranked())
    text += line(++rank, standing.agent, standing.games(), standing.wins, standing.losses, standing.draws,
                 standing.forfeits, score_text(standing), elo_ ? elo_interval_text(standing) : "");
  return text;
}

std::string Standings::scores_line() const {
  std::string line;
  for (const Standing& standing : ranked())
    line += fmt::format("{}{} {:g}", line.empty() ? "" : ", ", standing.agent, standing.score());
  return line;
}

}  // namespace troyka::referee
