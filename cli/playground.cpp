#include "cli/playground.h"

#include <fmt/format.h>
#include <httplib.h>

#include <CLI/CLI.hpp>
#include <algorithm>
#include <charconv>
#include <filesystem>
#include <fstream>
#include <functional>
#include <iterator>
#include <map>
#include <mutex>
#include <ostream>
#include <utility>
#include <vector>

#include "agents/agent.h"
#include "cli/analysis.h"
#include "cli/api_error.h"
#include "cli/job_queue.h"
#include "cli/playground_session.h"
#include "cli/record.h"
#include "cli/replay.h"
#include "cli/support.h"
#include "cli/web_assets.h"
#include "lang/rules.h"
#include "lang/termination.h"

namespace troyka::cli {
namespace {

// What a route answers: an HTTP status and a JSON body.
struct Answer {
  int status = 200;
  Json body;
};

// The request's body as a JSON object; anything else is a 400.
Json request_json(const httplib::Request& request) {
  Json json;
  try {
    json = Json::parse(request.body);
  } catch (const Json::parse_error& error) {
    throw ApiError(400, fmt::format("the request is not JSON: {}", error.what()), "send a JSON object");
  }
  if (!json.is_object()) throw ApiError(400, "the request must be a JSON object");
  return json;
}

void send_json(httplib::Response& response, int status, const Json& body) {
  response.status = status;
  response.set_content(body.dump(), "application/json");
}

const char* content_type(std::string_view path) {
  if (path.ends_with(".html")) return "text/html; charset=utf-8";
  if (path.ends_with(".js")) return "text/javascript; charset=utf-8";
  if (path.ends_with(".css")) return "text/css; charset=utf-8";
  if (path.ends_with(".svg")) return "image/svg+xml";
  return "application/octet-stream";
}

// The file name a rule text is checked under: a .zrf name picks the ZRF front end. Only the name
// is kept, so diagnostics never show a path of the server's.
std::string rules_file_name(const Json& request) {
  const std::string name = std::filesystem::path(request_text(request, "file", "rules.game")).filename().string();
  return name.ends_with(".zrf") || name.ends_with(".game") ? name : "rules.game";
}

// The variant and parameters of a request: {"variant": "zillions-7x7", "params": {"width": 6}}.
lang::Options language_options(const Json& request) {
  lang::Options options;
  options.variant = request_text(request, "variant");
  const auto params = request.find("params");
  if (params == request.end()) return options;
  if (!params->is_object()) throw ApiError(400, R"("params" must be an object, e.g. {"width": 6})");
  for (const auto& [name, value] : params->items()) {
    if (value.is_number_integer())
      options.params.emplace_back(name, std::to_string(value.get<std::int64_t>()));
    else if (value.is_string())
      options.params.emplace_back(name, value.get<std::string>());
    else
      throw ApiError(400, fmt::format("parameter '{}' must be a whole number", name));
  }
  return options;
}

lang::Rules request_rules(const Json& request) {
  const auto source = std::make_shared<const lang::SourceFile>(
      lang::SourceFile{rules_file_name(request), request_text(request, "text")});
  return lang::load_rules(source, language_options(request));
}

// What the page shows of a game that checks.
Json game_summary(const lang::Rules& rules) {
  Json pieces = Json::array();
  for (const lang::PieceType& piece : rules.pieces) pieces.push_back(piece.name);
  return {{"name", rules.name},
          {"about", rules.about},
          {"variant", rules.variant},
          {"width", rules.width},
          {"height", rules.height},
          {"shape", rules.shape == lang::BoardShape::Rhombus ? "rhombus" : "rectangle"},
          {"players", lang::player_names(rules)},
          {"pieces", pieces}};
}

// "1500ms" for the agent spec's time option.
std::string seconds_text(double seconds) { return fmt::format("{}ms", static_cast<long>(seconds * 1000)); }

// The agent `text` names, held to the server's limits: at most max_move_seconds a move (the
// default time when the spec names none; an iteration budget alone could run for hours), one
// thread, and at most max_search_bytes of tree.
agents::AgentSpec capped_agent(const agents::AgentSpec& spec, const PlaygroundLimits& limits) {
  agents::AgentSpec capped = spec;
  const auto time = spec.options.find("time");
  const double asked = time != spec.options.end()         ? *agents::parse_duration(time->second)
                       : spec.options.count("iterations") ? limits.max_move_seconds
                                                          : limits.default_move_seconds;
  capped.options["time"] = seconds_text(std::min(asked, limits.max_move_seconds));
  capped.options["threads"] = "1";
  const auto memory = spec.options.find("memory");
  const std::uint64_t bytes = memory == spec.options.end()
                                  ? limits.max_search_bytes
                                  : std::min(*agents::parse_bytes(memory->second), limits.max_search_bytes);
  capped.options["memory"] = fmt::format("{}MB", std::max<std::uint64_t>(bytes >> 20, 1));
  // An agent that does not search (random) takes none of these options and needs no cap.
  try {
    agents::parse_agent_spec(agents::spec_text(capped));
    return capped;
  } catch (const lang::Error&) {
    return spec;
  }
}

// An analysis held to the server's limits: at most max_analysis_games games of each kind, an agent
// with an iteration budget of at most max_analysis_iterations on one thread (a time budget would
// make every game of the analysis take that long a move), a short skill trace, one game at a time.
AnalysisOptions analysis_options(const Json& request, const PlaygroundLimits& limits) {
  AnalysisOptions options;
  options.games = std::clamp(request.value("games", 40), 1, limits.max_analysis_games);
  options.skill_games = std::min(20, std::max(options.games / 2, 2));
  options.skill_steps = 4;
  agents::AgentSpec agent = agents::parse_agent_spec(request_text(request, "agent", "mcts:iterations=200"));
  if (agent.name != "random") {
    const auto iterations = agent.options.find("iterations");
    if (agent.options.contains("time") || iterations == agent.options.end() ||
        std::stoull(iterations->second) > limits.max_analysis_iterations)
      throw ApiError(
          400,
          fmt::format("the analysis agent needs an iteration budget of at most {}", limits.max_analysis_iterations),
          "e.g. mcts:iterations=200");
    agent.options["threads"] = "1";
  }
  options.agent = agents::spec_text(agent);
  check_analysis_options(options);
  return options;
}

std::shared_ptr<const Game> shared_game(Game game) { return std::make_shared<const Game>(std::move(game)); }

// A version of a game to analyse: the rules of a request and what the page calls them.
struct Version {
  std::string label;
  std::shared_ptr<const Game> game;
};

Version request_version(const Json& request, std::string fallback_label) {
  if (!request.is_object()) throw ApiError(400, R"("compare" must be an object like the request: {"text": ...})");
  return {request_text(request, "label", std::move(fallback_label)), shared_game(Game(request_rules(request)))};
}

// Analyses each version in turn, each stopped with what it has after its share of max_seconds
// (or at once when the server stops), with what each metric means for the page's table.
Json run_analyses(const std::vector<Version>& versions, const AnalysisOptions& options, double max_seconds,
                  const std::atomic<bool>& cancelled) {
  Json metrics = Json::array();
  for (const MetricInfo& info : metric_infos())
    metrics.push_back({{"key", info.key}, {"label", info.label}, {"meaning", info.meaning}, {"share", info.share}});
  Json results = Json::array();
  for (const Version& version : versions) {
    std::atomic<bool> stop{false};
    const auto deadline = std::chrono::steady_clock::now() +
                          std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                              std::chrono::duration<double>(max_seconds / static_cast<double>(versions.size())));
    AnalysisHooks hooks;
    hooks.stop = &stop;
    hooks.progress = [&](const AnalysisProgress&) {
      if (cancelled || std::chrono::steady_clock::now() > deadline) stop = true;
    };
    results.push_back({{"label", version.label}, {"analysis", analysis_json(analyze(*version.game, options, hooks))}});
  }
  return {{"metrics", metrics}, {"versions", results}};
}

// The open games of everybody, by id; games idle for too long are closed to make room.
class SessionStore {
 public:
  explicit SessionStore(const PlaygroundLimits& limits) : limits_(limits) {}

  // Opens the session and returns it with its id set; a 503 when the server is full.
  std::shared_ptr<Session> open(std::shared_ptr<Session> session) {
    const std::lock_guard lock(mutex_);
    const auto now = std::chrono::steady_clock::now();
    std::erase_if(sessions_, [&](const auto& entry) { return now - entry.second->last_used > limits_.session_idle; });
    if (sessions_.size() >= limits_.max_sessions)
      throw ApiError(503, "too many games are open on this server", "try again later, or close a game");
    session->id = random_id();
    sessions_[session->id] = session;
    return session;
  }

  // The session called `id`; a 404 when there is none (it may have expired).
  std::shared_ptr<Session> find(const std::string& id) {
    const std::lock_guard lock(mutex_);
    const auto found = sessions_.find(id);
    if (found == sessions_.end())
      throw ApiError(404, fmt::format("there is no game '{}' on this server", id),
                     "it may have been closed after being idle; start a new game");
    found->second->last_used = std::chrono::steady_clock::now();
    return found->second;
  }

  void close(const std::string& id) {
    const std::lock_guard lock(mutex_);
    if (sessions_.erase(id) == 0) throw ApiError(404, fmt::format("there is no game '{}' on this server", id));
  }

 private:
  const PlaygroundLimits& limits_;
  std::mutex mutex_;
  std::map<std::string, std::shared_ptr<Session>> sessions_;
};

// The number a query parameter gives, or `fallback` when it is absent; a 400 when it is not one.
template <typename Number>
Number query_number(const httplib::Request& request, const char* key, Number fallback) {
  if (!request.has_param(key)) return fallback;
  const std::string text = request.get_param_value(key);
  Number value{};
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size())
    throw ApiError(400, fmt::format("?{}={} is not a number", key, text));
  return value;
}

}  // namespace

struct Playground::Impl {
  Impl(std::string games, PlaygroundLimits chosen)
      : games_dir(std::move(games)), limits(chosen), sessions(limits), jobs(limits.workers, limits.max_waiting_jobs) {
    add_routes();
  }

  void add_routes();
  void add_page();
  // Registers `handler` for `method` and `pattern`; whatever it throws becomes a JSON error.
  void route(const char* method, const std::string& pattern, std::function<Answer(const httplib::Request&)> handler);

  Answer list_games() const;
  Answer check(const httplib::Request& request) const;
  Answer open_game(const httplib::Request& request);
  Answer open_record(const httplib::Request& request);
  Answer ask_agent(const httplib::Request& request);
  Answer job_status(const httplib::Request& request);
  Answer start_analysis(const httplib::Request& request);
  Json limits_json() const;

  httplib::Server server;
  std::string games_dir;
  PlaygroundLimits limits;
  SessionStore sessions;
  JobQueue jobs;  // declared last, so destroyed first: its workers use the sessions
};

void Playground::Impl::route(const char* method, const std::string& pattern,
                             std::function<Answer(const httplib::Request&)> handler) {
  auto answer = [handler = std::move(handler)](const httplib::Request& request, httplib::Response& response) {
    try {
      const Answer answer = handler(request);
      send_json(response, answer.status, answer.body);
    } catch (const ApiError& error) {
      send_json(response, error.status(), {{"error", error_json(error)}});
    } catch (const lang::Error& error) {
      send_json(response, 400, {{"error", error_json(error)}});
    } catch (const Json::exception& error) {
      send_json(response, 400, {{"error", {{"message", fmt::format("a field has the wrong type: {}", error.what())}}}});
    } catch (const std::exception& error) {
      send_json(response, 500, {{"error", error_json(error)}});
    }
  };
  if (std::string_view(method) == "GET") server.Get(pattern, answer);
  if (std::string_view(method) == "POST") server.Post(pattern, answer);
  if (std::string_view(method) == "DELETE") server.Delete(pattern, answer);
}

void Playground::Impl::add_page() {
  for (const EmbeddedFile& file : embedded_files()) {
    const std::string path = file.path == "index.html" ? "/" : "/" + std::string(file.path);
    server.Get(path, [file](const httplib::Request&, httplib::Response& response) {
      response.set_content(file.bytes.data(), file.bytes.size(), content_type(file.path));
      response.set_header("Cache-Control", "no-cache");
    });
  }
}

void Playground::Impl::add_routes() {
  add_page();
  const std::string session = "/api/sessions/([0-9a-f]+)";
  route("GET", "/api/limits", [this](const auto&) { return Answer{200, limits_json()}; });
  route("GET", "/api/games", [this](const auto&) { return list_games(); });
  route("POST", "/api/check", [this](const auto& request) { return check(request); });
  route("POST", "/api/sessions", [this](const auto& request) { return open_game(request); });
  route("POST", "/api/records", [this](const auto& request) { return open_record(request); });
  route("GET", session, [this](const httplib::Request& request) {
    const auto ply =
        request.has_param("ply") ? std::optional(query_number<std::uint32_t>(request, "ply", 0)) : std::nullopt;
    return Answer{200, sessions.find(request.matches[1])->view(ply, request.get_param_value("selected"))};
  });
  route("POST", session + "/moves", [this](const httplib::Request& request) {
    return Answer{200, sessions.find(request.matches[1])->play(request_json(request))};
  });
  route("POST", session + "/agent", [this](const auto& request) { return ask_agent(request); });
  route("DELETE", session, [this](const httplib::Request& request) {
    sessions.close(request.matches[1]);
    return Answer{200, {{"closed", std::string(request.matches[1])}}};
  });
  route("POST", "/api/analyses", [this](const auto& request) { return start_analysis(request); });
  route("GET", "/api/jobs/([0-9a-f]+)", [this](const auto& request) { return job_status(request); });
  // Whatever has no route, and a body over the limit (which httplib refuses before any route),
  // still gets a JSON error.
  server.set_error_handler([this](const httplib::Request& request, httplib::Response& response) {
    if (!response.body.empty()) return;
    const std::string message = response.status == 413
                                    ? fmt::format("the request is larger than {} bytes", limits.max_body_bytes)
                                : response.status == 404 ? fmt::format("nothing at {} {}", request.method, request.path)
                                                         : fmt::format("HTTP {}", response.status);
    send_json(response, response.status, {{"error", {{"message", message}, {"hint", ""}}}});
  });
  server.set_payload_max_length(limits.max_body_bytes);
}

Json Playground::Impl::limits_json() const {
  return {{"max_body_bytes", limits.max_body_bytes},
          {"max_sessions", limits.max_sessions},
          {"session_idle_minutes", limits.session_idle.count()},
          {"max_move_seconds", limits.max_move_seconds},
          {"default_move_seconds", limits.default_move_seconds},
          {"max_search_bytes", limits.max_search_bytes},
          {"workers", limits.workers},
          {"max_waiting_jobs", limits.max_waiting_jobs},
          {"max_poll_wait_seconds", limits.max_poll_wait.count()},
          {"max_analysis_games", limits.max_analysis_games},
          {"max_analysis_iterations", limits.max_analysis_iterations},
          {"max_analysis_seconds", limits.max_analysis_seconds}};
}

Answer Playground::Impl::list_games() const {
  std::vector<std::filesystem::path> files;
  std::error_code error;
  for (const auto& entry : std::filesystem::directory_iterator(games_dir, error))
    if (entry.path().extension() == ".game" || entry.path().extension() == ".zrf") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  Json games = Json::array();
  for (const auto& path : files) {
    std::ifstream in(path, std::ios::binary);
    games.push_back({{"file", path.filename().string()},
                     {"text", std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>())}});
  }
  return {200, {{"games", games}}};
}

// A rule text that does not check is not a failed request: the answer is the diagnostic.
Answer Playground::Impl::check(const httplib::Request& request) const {
  try {
    const lang::Rules rules = request_rules(request_json(request));
    Json answer{{"ok", true}, {"game", game_summary(rules)}};
    if (const auto warning = lang::unbounded_game_warning(rules)) answer["warning"] = diagnostic_json(*warning);
    return {200, answer};
  } catch (const lang::Error& error) {
    return {200, {{"ok", false}, {"diagnostic", diagnostic_json(error.diagnostic())}}};
  }
}

Answer Playground::Impl::open_game(const httplib::Request& request) {
  auto game = shared_game(Game(request_rules(request_json(request))));
  return {201, sessions.open(make_game_session(std::move(game)))->view(std::nullopt, {})};
}

// A record, with the rules given as text or else found in the games directory by the name of its
// File header (never by its path: a record must not make the server read any file it likes).
Answer Playground::Impl::open_record(const httplib::Request& request) {
  const Json body = request_json(request);
  const ParsedRecord record = parse_record(
      std::make_shared<const lang::SourceFile>(lang::SourceFile{"game.record", request_text(body, "record")}));
  std::shared_ptr<const lang::SourceFile> rules;
  if (body.contains("text")) {
    rules =
        std::make_shared<const lang::SourceFile>(lang::SourceFile{rules_file_name(body), request_text(body, "text")});
  } else {
    const std::string name = std::filesystem::path(record.require("File").value).filename().string();
    std::ifstream in(std::filesystem::path(games_dir) / name, std::ios::binary);
    if (!in)
      throw ApiError(400, fmt::format("the record's rule file '{}' is not among this server's games", name),
                     "send the rules with the record as \"text\"");
    rules = std::make_shared<const lang::SourceFile>(
        lang::SourceFile{name, std::string(std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>())});
  }
  auto game = shared_game(
      load_record_game(record, [&](const lang::Options& options) { return lang::load_rules(rules, options); }));
  return {201, sessions.open(make_record_session(std::move(game), record))->view(0, {})};
}

Answer Playground::Impl::ask_agent(const httplib::Request& request) {
  const std::shared_ptr<Session> session = sessions.find(request.matches[1]);
  const agents::AgentSpec asked = agents::parse_agent_spec(request_text(request_json(request), "agent", "mcts"));
  const agents::AgentSpec spec = capped_agent(asked, limits);
  session->begin_thinking();
  const double seconds = limits.max_move_seconds;
  const auto job = jobs.submit([session, spec, label = agents::spec_text(asked), seconds](const auto&) {
    return session->think(spec, label, seconds);
  });
  if (!job) {
    session->cancel_thinking();
    throw ApiError(503, "too many searches are waiting on this server", "try again in a few seconds");
  }
  return {202, {{"job", *job}, {"agent", agents::spec_text(spec)}}};
}

// The edited rules, and the version to compare them with ("compare": the same fields), analysed
// as a job: the page polls it.
Answer Playground::Impl::start_analysis(const httplib::Request& request) {
  const Json body = request_json(request);
  std::vector<Version> versions{request_version(body, "edited")};
  if (body.contains("compare")) versions.push_back(request_version(body["compare"], "compared"));
  const AnalysisOptions options = analysis_options(body, limits);
  const auto job = jobs.submit([versions, options, seconds = limits.max_analysis_seconds](const auto& cancelled) {
    return run_analyses(versions, options, seconds, cancelled);
  });
  if (!job) throw ApiError(503, "too many searches are waiting on this server", "try again in a few seconds");
  return {202, {{"job", *job}, {"options", {{"games", options.games}, {"agent", options.agent}}}}};
}

Answer Playground::Impl::job_status(const httplib::Request& request) {
  const double asked = query_number<double>(request, "wait", 0);
  const auto wait = std::chrono::milliseconds(
      static_cast<long>(1000 * std::clamp(asked, 0.0, static_cast<double>(limits.max_poll_wait.count()))));
  const auto status = jobs.status(request.matches[1], wait);
  if (!status) throw ApiError(404, fmt::format("there is no job '{}' on this server", std::string(request.matches[1])));
  return {200, *status};
}

Playground::Playground(std::string games_dir, PlaygroundLimits limits)
    : impl_(std::make_unique<Impl>(std::move(games_dir), limits)) {}

Playground::~Playground() { stop(); }

int Playground::bind(const std::string& host, int port) {
  const int bound = port == 0                                ? impl_->server.bind_to_any_port(host)
                    : impl_->server.bind_to_port(host, port) ? port
                                                             : -1;
  if (bound <= 0)
    throw usage_error(fmt::format("cannot listen on {}:{}", host, port),
                      "is another program using the port? try --bind 127.0.0.1:8081");
  return bound;
}

void Playground::serve() { impl_->server.listen_after_bind(); }

void Playground::stop() { impl_->server.stop(); }

CLI::App* add_serve_command(CLI::App& app, ServeOptions& options) {
  CLI::App* command = app.add_subcommand("serve", "serve the web playground: edit, check, play and replay games");
  command->add_option("--bind", options.bind,
                      "HOST:PORT to listen on (default 127.0.0.1:8080, this machine only; 0.0.0.0:8080 for a class "
                      "on the same network)");
  command->add_option("--games-dir", options.games_dir, "the games the page offers (default games)");
  command->add_option("--workers", options.limits.workers, "searches running at once (default 2)")
      ->check(CLI::Range(1, 64));
  command
      ->add_option("--max-move-seconds", options.limits.max_move_seconds,
                   "the most an agent may think about a move (default 5)")
      ->check(CLI::Range(0.01, 60.0));
  return command;
}

int run_serve_command(const ServeOptions& options, std::ostream& out) {
  const std::size_t colon = options.bind.rfind(':');
  int port = -1;
  if (colon != std::string::npos) {
    const char* digits = options.bind.data() + colon + 1;
    const auto [end, error] = std::from_chars(digits, options.bind.data() + options.bind.size(), port);
    if (error != std::errc() || end != options.bind.data() + options.bind.size()) port = -1;
  }
  if (port < 0 || port > 65535)
    throw usage_error(fmt::format("--bind {}: expected HOST:PORT", options.bind), "e.g. --bind 127.0.0.1:8080");
  const std::string host = options.bind.substr(0, colon);
  Playground playground(options.games_dir, options.limits);
  const int bound = playground.bind(host, port);
  out << fmt::format("troyka playground on http://{}:{}/ (Ctrl-C stops it)", host, bound) << std::endl;
  playground.serve();
  return 0;
}

}  // namespace troyka::cli
