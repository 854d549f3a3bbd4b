// Source files, positions and the friendly error messages built on them.
#pragma once

#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

namespace troyka::lang {

// Where something stands in a source file. Lines and columns count from 1;
// `length` is how many columns the caret underline covers. `file` says which file: 0 for the rule
// file itself, k for the kth file it includes (SourceFile::included).
struct SourcePos {
  std::uint32_t line = 0;
  std::uint32_t column = 0;
  std::uint32_t length = 1;
  std::uint32_t file = 0;
  bool known() const { return line != 0; }
  bool operator==(const SourcePos&) const = default;
};

struct SourceFile;

// A file that a rule file includes (ZRF's (include "FILE")), and the (include ...) form that read it.
struct Inclusion {
  std::shared_ptr<const SourceFile> file;
  SourcePos from;  // in the including file, which from.file numbers
};

// A rule file held in memory; every position points into one of these, or into a file it includes.
struct SourceFile {
  std::string name;  // as the user gave it, e.g. "games/breakthrough.game"
  std::string text;
  bool on_disk = false;  // read from the file `name`: an (include "FILE") reads FILE from its folder
  // The files it includes, those they include too, in the order read: a position whose `file` is k
  // points into included[k - 1].
  std::vector<Inclusion> included{};

  // The file a position points into: this one, or one it includes.
  const SourceFile& file_of(SourcePos pos) const {
    return pos.file == 0 || pos.file > included.size() ? *this : *included[pos.file - 1].file;
  }
};

// An error stops loading; a warning is told and loading goes on.
enum class Severity { Error, Warning };

// One error (or warning) as the user sees it: where, what is wrong, and a likely fix.
struct Diagnostic {
  std::shared_ptr<const SourceFile> file;  // null for errors not tied to a file (e.g. --param)
  SourcePos pos;
  std::string message;
  std::string hint;  // empty when there is no useful suggestion
  Severity severity = Severity::Error;
};

// Why troyka refuses a rule file written for another program (a ZRF file, for Zillions of Games):
// a feature troyka lacks, which that program plays, or a mistake in the file, which it would refuse
// too. Every such refusal ends its message with which (with_kind), so the user knows what to change.
enum class Refusal { MissingFeature, Mistake };

// `message` with its kind after it: "... (a missing feature, not a mistake in the file)" or
// "... (a mistake in the file)".
std::string with_kind(std::string_view message, Refusal kind);

// Renders a diagnostic the way compilers do:
//   games/x.game:7:12: error: unknown direction 'foward'
//       7 |   (step (foward) (to empty))
//         |          ^~~~~~
//   hint: did you mean 'forward'?
std::string render(const Diagnostic& diagnostic);

// Thrown by every stage of loading (parse, check, compile); carries one diagnostic.
class Error : public std::runtime_error {
 public:
  explicit Error(Diagnostic diagnostic);
  const Diagnostic& diagnostic() const { return diagnostic_; }

 private:
  Diagnostic diagnostic_;
};

// The candidate `word` most likely means: the closest by edit distance, if close enough to be a
// likely typo; else the one candidate it abbreviates ("iters" for "iterations"); else "".
std::string closest_match(std::string_view word, const std::vector<std::string>& candidates);

// "did you mean 'x'?" when a close candidate exists, otherwise a list of the valid choices.
std::string suggest(std::string_view word, const std::vector<std::string>& candidates);

}  // namespace troyka::lang
