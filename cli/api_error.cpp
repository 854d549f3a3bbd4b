#include "cli/api_error.h"

#include <fmt/format.h>

namespace troyka::cli {

std::string request_text(const nlohmann::ordered_json& request, const char* key, std::string fallback) {
  const auto found = request.find(key);
  if (found == request.end()) return fallback;
  if (!found->is_string()) throw ApiError(400, fmt::format("\"{}\" must be a string", key));
  return found->get<std::string>();
}

nlohmann::ordered_json diagnostic_json(const lang::Diagnostic& diagnostic) {
  nlohmann::ordered_json json;
  if (diagnostic.file) json["file"] = diagnostic.file->file_of(diagnostic.pos).name;
  if (diagnostic.pos.known()) {
    json["line"] = diagnostic.pos.line;
    json["column"] = diagnostic.pos.column;
    json["length"] = diagnostic.pos.length;
  }
  json["message"] = diagnostic.message;
  json["hint"] = diagnostic.hint;
  json["text"] = lang::render(diagnostic);
  return json;
}

nlohmann::ordered_json error_json(const std::exception& error) {
  if (const auto* api = dynamic_cast<const ApiError*>(&error)) return {{"message", api->what()}, {"hint", api->hint()}};
  if (const auto* rules = dynamic_cast<const lang::Error*>(&error))
    return {{"message", rules->diagnostic().message},
            {"hint", rules->diagnostic().hint},
            {"diagnostic", diagnostic_json(rules->diagnostic())}};
  return {{"message", error.what()}, {"hint", ""}};
}

}  // namespace troyka::cli
