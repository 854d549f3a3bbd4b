// Errors of the web playground's JSON API: what went wrong, as JSON, with the HTTP status to send.
#pragma once

#include <exception>
#include <nlohmann/json.hpp>
#include <stdexcept>
#include <string>

#include "lang/diagnostic.h"

namespace troyka::cli {

// A request the API refuses: `status` is the HTTP status (400 a bad request, 404 nothing by that
// id, 409 not now, 413 too large, 422 not a legal move, 503 the server is full).
class ApiError : public std::runtime_error {
 public:
  ApiError(int status, const std::string& message, std::string hint = {})
      : std::runtime_error(message), status_(status), hint_(std::move(hint)) {}
  int status() const { return status_; }
  const std::string& hint() const { return hint_; }

 private:
  int status_;
  std::string hint_;
};

// A string field of a JSON request: `fallback` when it is absent, an ApiError (400) when it is
// not a string.
std::string request_text(const nlohmann::ordered_json& request, const char* key, std::string fallback = {});

// {"file", "line", "column", "length", "message", "hint", "text"}: `text` rendered as the command
// line prints it; the place is left out for a diagnostic without one (a bad --param, say).
nlohmann::ordered_json diagnostic_json(const lang::Diagnostic& diagnostic);

// {"message", "hint"} of any exception, plus "diagnostic" for a lang::Error.
nlohmann::ordered_json error_json(const std::exception& error);

}  // namespace troyka::cli
