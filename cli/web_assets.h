// The web playground's page (cli/web/), compiled into the program by cmake/embed_files.cmake so
// that `troyka serve` works from any directory.
#pragma once

#include <string_view>
#include <vector>

namespace troyka::cli {

struct EmbeddedFile {
  std::string_view path;  // relative to cli/web/, e.g. "app.js"
  std::string_view bytes;
};

const std::vector<EmbeddedFile>& embedded_files();

}  // namespace troyka::cli
