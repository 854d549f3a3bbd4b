#include "cli/support.h"

#include <fmt/format.h>

#include <cmath>
#include <filesystem>
#include <fstream>

namespace troyka::cli {

void create_output_directory(const std::string& directory, std::string_view option) {
  std::error_code error;
  std::filesystem::create_directories(directory, error);
  if (error || !std::filesystem::is_directory(directory, error))
    throw usage_error(fmt::format("{}: cannot create the directory '{}'", option, directory),
                      error ? error.message() : "a file of that name is in the way");
}

void write_text_file(const std::string& path, std::string_view text, std::string_view what, std::string hint) {
  std::ofstream file(path, std::ios::binary);
  file << text;
  file.close();
  if (!file) throw usage_error(fmt::format("cannot write {} '{}'", what, path), std::move(hint));
}

std::string duration_text(double seconds) {
  const long long whole = std::llround(seconds);
  if (whole < 60) return fmt::format("{}s", whole);
  if (whole < 3600) return fmt::format("{}m{:02}s", whole / 60, whole % 60);
  return fmt::format("{}h{:02}m", whole / 3600, whole % 3600 / 60);
}

}  // namespace troyka::cli
