// The second front end: Zillions of Games rule files (ZRF), lowered into the same checked Rules as
// troyka's own language. See docs/zrf.md for the supported subset and the semantics chosen.
#pragma once

#include <memory>
#include <string_view>

#include "lang/rules.h"

namespace troyka::lang {

// Whether a rule file is read as ZRF: its name ends in ".zrf" (in any case).
bool is_zrf_file(std::string_view name);

// Expands the macros of a ZRF file, picks the game or the variant named by options.variant (a title
// or a number, 1 for the first variant; "" or "0" for the game itself) and lowers it into Rules.
// Throws lang::Error with a diagnostic on anything outside the supported subset.
Rules load_zrf(std::shared_ptr<const SourceFile> source, const Options& options);

}  // namespace troyka::lang
