#include "cli/support.h"

#include <fmt/format.h>

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

}  // namespace troyka::cli
