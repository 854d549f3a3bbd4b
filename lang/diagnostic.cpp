#include "lang/diagnostic.h"

#include <fmt/format.h>

#include <algorithm>

namespace troyka::lang {
namespace {

std::string_view line_of(const std::string& text, std::uint32_t line) {
  std::size_t begin = 0;
  for (std::uint32_t current = 1; current < line; ++current) {
    const std::size_t newline = text.find('\n', begin);
    if (newline == std::string::npos) return {};
    begin = newline + 1;
  }
  std::size_t end = text.find('\n', begin);
  if (end == std::string::npos) end = text.size();
  std::string_view result(text.data() + begin, end - begin);
  if (!result.empty() && result.back() == '\r') result.remove_suffix(1);
  return result;
}

// Control characters and bytes outside ASCII would misalign the caret; show them as '?'.
std::string printable(std::string_view line) {
  std::string result(line);
  for (char& c : result) {
    const auto byte = static_cast<unsigned char>(c);
    if (byte == '\t')
      c = ' ';
    else if (byte < 0x20 || byte >= 0x7f)
      c = '?';
  }
  return result;
}

// Edits to turn a into b, counting a swap of two neighbouring letters as one (optimal string
// alignment distance): "peice" is one edit from "piece", as a learner would expect.
std::size_t edit_distance(std::string_view a, std::string_view b) {
  std::vector<std::vector<std::size_t>> d(a.size() + 1, std::vector<std::size_t>(b.size() + 1));
  for (std::size_t i = 0; i <= a.size(); ++i) d[i][0] = i;
  for (std::size_t j = 0; j <= b.size(); ++j) d[0][j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i)
    for (std::size_t j = 1; j <= b.size(); ++j) {
      d[i][j] = std::min({d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1)});
      if (i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1])
        d[i][j] = std::min(d[i][j], d[i - 2][j - 2] + 1);
    }
  return d[a.size()][b.size()];
}

// Whether `word` is `candidate` with letters left out, in order: the commonest typo ("colums")
// and the shape of an abbreviation ("iters").
bool is_subsequence(std::string_view word, std::string_view candidate) {
  std::size_t at = 0;
  for (const char c : candidate)
    if (at < word.size() && word[at] == c) ++at;
  return at == word.size();
}

// Whether `word` abbreviates `candidate`: same first letter, the rest of its letters in order ("iters").
bool abbreviates(std::string_view word, std::string_view candidate) {
  return word.size() >= 2 && word.size() < candidate.size() && word.front() == candidate.front() &&
         is_subsequence(word, candidate);
}

// The one candidate `word` abbreviates; empty when none or several do.
std::string abbreviated(std::string_view word, const std::vector<std::string>& candidates) {
  std::string found;
  for (const auto& candidate : candidates) {
    if (!abbreviates(word, candidate)) continue;
    if (!found.empty()) return {};
    found = candidate;
  }
  return found;
}

// The candidate nearest by edit distance, if near enough to be a likely typo.
std::string nearest_spelling(std::string_view word, const std::vector<std::string>& candidates) {
  std::string best;
  std::size_t best_distance = std::max<std::size_t>(1, std::min<std::size_t>(3, word.size() / 3));
  for (const auto& candidate : candidates) {
    const std::size_t distance = edit_distance(word, candidate);
    if (distance > best_distance) continue;
    const bool better = best.empty() || distance < edit_distance(word, best) ||
                        (!is_subsequence(word, best) && is_subsequence(word, candidate));
    if (better) {
      best = candidate;
      best_distance = distance;
    }
  }
  return best;
}

// "In file included from game.zrf:3:1:", as compilers say it, for each include that led to the
// file numbered `file` of `root`, the outermost last. A file's includer was read before it, so has a
// smaller number: the chain ends at the root, 0.
std::string included_from(const SourceFile& root, std::uint32_t file) {
  std::string text;
  while (file != 0 && file <= root.included.size()) {
    const SourcePos from = root.included[file - 1].from;
    text += fmt::format("In file included from {}:{}:{}:\n", root.file_of(from).name, from.line, from.column);
    file = from.file;
  }
  return text;
}

}  // namespace

std::string render(const Diagnostic& d) {
  std::string out;
  const char* kind = d.severity == Severity::Warning ? "warning" : "error";
  if (d.file && d.pos.known()) {
    const SourceFile& file = d.file->file_of(d.pos);
    out += included_from(*d.file, d.pos.file);
    out += fmt::format("{}:{}:{}: {}: {}\n", file.name, d.pos.line, d.pos.column, kind, d.message);
    std::string line = printable(line_of(file.text, d.pos.line));
    std::size_t caret_column = std::min<std::size_t>(d.pos.column - 1, line.size());
    // A very long line is shown as a window around the caret, marked with "..." where cut.
    constexpr std::size_t kWindow = 100;
    if (line.size() > kWindow) {
      const std::size_t begin = caret_column > kWindow / 2 ? caret_column - kWindow / 2 : 0;
      const bool cut_end = begin + kWindow < line.size();
      line = (begin ? "..." : "") + line.substr(begin, kWindow) + (cut_end ? "..." : "");
      caret_column = caret_column - begin + (begin ? 3 : 0);
    }
    const std::string number = std::to_string(d.pos.line);
    out += fmt::format(" {} | {}\n", number, line);
    const std::size_t tail =
        std::min<std::size_t>(d.pos.length, std::max<std::size_t>(line.size(), caret_column + 1) - caret_column);
    out += fmt::format(" {} | {}^{}\n", std::string(number.size(), ' '), std::string(caret_column, ' '),
                       std::string(tail > 1 ? tail - 1 : 0, '~'));
  } else if (d.file) {
    out += fmt::format("{}: {}: {}\n", d.file->name, kind, d.message);
  } else {
    out += fmt::format("{}: {}\n", kind, d.message);
  }
  if (!d.hint.empty()) out += fmt::format("hint: {}\n", d.hint);
  return out;
}

std::string with_kind(std::string_view message, Refusal kind) {
  return fmt::format(
      "{} ({})", message,
      kind == Refusal::MissingFeature ? "a missing feature, not a mistake in the file" : "a mistake in the file");
}

Error::Error(Diagnostic diagnostic) : std::runtime_error(diagnostic.message), diagnostic_(std::move(diagnostic)) {}

std::string closest_match(std::string_view word, const std::vector<std::string>& candidates) {
  const std::string spelling = nearest_spelling(word, candidates);
  return spelling.empty() ? abbreviated(word, candidates) : spelling;
}

std::string suggest(std::string_view word, const std::vector<std::string>& candidates) {
  const std::string close = closest_match(word, candidates);
  if (!close.empty()) return fmt::format("did you mean '{}'?", close);
  if (candidates.empty()) return {};
  std::string list;
  for (const auto& candidate : candidates) list += (list.empty() ? "'" : ", '") + candidate + "'";
  return "expected one of " + list;
}

}  // namespace troyka::lang
