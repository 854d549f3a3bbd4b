#include "agents/agent.h"

#include <fmt/format.h>

#include <charconv>
#include <cmath>
#include <limits>
#include <thread>

#include "agents/mcts.h"
#include "agents/random_agent.h"
#include "lang/diagnostic.h"

namespace troyka::agents {
namespace {

// What an option's value must be.
enum class Kind { Seed, Count, Duration, Number, Threads, Bytes, Switch };

struct OptionInfo {
  std::string name;
  Kind kind;
  std::string example;  // a valid KEY=VALUE, shown in hints
};

struct AgentInfo {
  std::string name;
  std::vector<OptionInfo> options;  // sorted by name
};

constexpr std::uint64_t kMaxIterations = 1'000'000'000;
constexpr double kMaxSeconds = 24 * 60 * 60;
constexpr double kMaxC = 100;
constexpr int kMaxThreads = 256;
constexpr std::uint64_t kMinBytes = std::uint64_t{1} << 20, kMaxBytes = std::uint64_t{1} << 40;

// The options of both tree searches: "mcts" has every improvement on, "uct" (plain UCT) has them off.
const std::vector<OptionInfo> kSearchOptions{
    {"c", Kind::Number, "c=0.7"},
    {"decisive", Kind::Switch, "decisive=off"},
    {"iterations", Kind::Count, "iterations=20000"},
    {"mast", Kind::Switch, "mast=off"},
    {"memory", Kind::Bytes, "memory=512MB"},
    {"reuse", Kind::Switch, "reuse=off"},
    {"seed", Kind::Seed, "seed=7"},
    {"solver", Kind::Switch, "solver=off"},
    {"threads", Kind::Threads, "threads=2"},
    {"time", Kind::Duration, "time=1s"},
};

// Every agent and its options. A new agent is a row here and a case in make_agent.
const std::vector<AgentInfo>& catalogue() {
  static const std::vector<AgentInfo> agents{
      {"mcts", kSearchOptions},
      {"random", {{"seed", Kind::Seed, "seed=7"}}},
      {"uct", kSearchOptions},
  };
  return agents;
}

lang::Error spec_error(std::string message, std::string hint) {
  return lang::Error(lang::Diagnostic{nullptr, {}, std::move(message), std::move(hint)});
}

// "did you mean 'x'? valid WHAT: a, b, c" or just the list when nothing is close.
std::string choices_hint(std::string_view word, const std::vector<std::string>& choices, std::string_view what) {
  std::string list;
  for (const std::string& choice : choices) list += (list.empty() ? "" : ", ") + choice;
  const std::string close = lang::closest_match(word, choices);
  return (close.empty() ? "" : fmt::format("did you mean '{}'? ", close)) + fmt::format("valid {}: {}", what, list);
}

const AgentInfo& agent_info(std::string_view name) {
  for (const AgentInfo& agent : catalogue())
    if (agent.name == name) return agent;
  if (name.empty()) throw spec_error("no agent given", choices_hint(name, agent_names(), "agents"));
  throw spec_error(fmt::format("unknown agent '{}'", name), choices_hint(name, agent_names(), "agents"));
}

const OptionInfo& option_info(const AgentInfo& agent, std::string_view key) {
  for (const OptionInfo& option : agent.options)
    if (option.name == key) return option;
  std::vector<std::string> keys;
  for (const OptionInfo& option : agent.options) keys.push_back(option.name);
  throw spec_error(fmt::format("unknown option '{}' for agent '{}'", key, agent.name),
                   choices_hint(key, keys, "options"));
}

// The whole of `text` as a number, or nothing.
template <typename Number>
std::optional<Number> parse_number(std::string_view text) {
  Number value{};
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

bool valid_value(Kind kind, std::string_view value) {
  switch (kind) {
    case Kind::Seed: return parse_number<std::uint64_t>(value).has_value();
    case Kind::Count: {
      const auto count = parse_number<std::uint64_t>(value);
      return count && *count >= 1 && *count <= kMaxIterations;
    }
    case Kind::Duration: return parse_duration(value).has_value();
    case Kind::Number: {
      const auto number = parse_number<double>(value);
      return number && std::isfinite(*number) && *number >= 0 && *number <= kMaxC;
    }
    case Kind::Threads: {
      const auto threads = parse_number<int>(value);
      return value == "all" || (threads && *threads >= 1 && *threads <= kMaxThreads);
    }
    case Kind::Bytes: return parse_bytes(value).has_value();
    case Kind::Switch: return value == "on" || value == "off";
  }
  return false;
}

std::string value_hint(const OptionInfo& option) {
  switch (option.kind) {
    case Kind::Seed: return fmt::format("expected a whole number, e.g. {}", option.example);
    case Kind::Count:
      return fmt::format("expected a whole number from 1 to {}, e.g. {}", kMaxIterations, option.example);
    case Kind::Duration:
      return fmt::format("expected a time in ms or s, up to {} s, e.g. {}=200ms or {}=1.5s", kMaxSeconds, option.name,
                         option.name);
    case Kind::Number: return fmt::format("expected a number from 0 to {}, e.g. {}", kMaxC, option.example);
    case Kind::Threads:
      return fmt::format("expected a whole number from 1 to {} or all (every core), e.g. {}", kMaxThreads,
                         option.example);
    case Kind::Bytes: return fmt::format("expected a size from 1MB to 1024GB (KB, MB or GB), e.g. {}", option.example);
    case Kind::Switch: return fmt::format("expected on or off, e.g. {}", option.example);
  }
  return {};
}

void check_value(const AgentInfo& agent, const OptionInfo& option, std::string_view value) {
  if (value.empty())
    throw spec_error(fmt::format("option '{}' for agent '{}' needs a value", option.name, agent.name),
                     fmt::format("e.g. {}:{}", agent.name, option.example));
  if (!valid_value(option.kind, value))
    throw spec_error(fmt::format("bad value '{}' for option '{}' of agent '{}'", value, option.name, agent.name),
                     value_hint(option));
}

// Checks a spec made by hand the way parse_agent_spec checks text.
void check_spec(const AgentSpec& spec) {
  const AgentInfo& agent = agent_info(spec.name);
  for (const auto& [key, value] : spec.options) check_value(agent, option_info(agent, key), value);
}

std::uint64_t seed_of(const AgentSpec& spec, std::uint64_t default_seed) {
  const auto found = spec.options.find("seed");
  return found == spec.options.end() ? default_seed : *parse_number<std::uint64_t>(found->second);
}

}  // namespace

const char* proof_name(Proof proof) {
  switch (proof) {
    case Proof::Unknown: return "unknown";
    case Proof::Win: return "win";
    case Proof::Loss: return "loss";
    case Proof::Draw: return "draw";
  }
  return "unknown";
}

const std::vector<std::string>& agent_names() {
  static const std::vector<std::string> names = [] {
    std::vector<std::string> list;
    for (const AgentInfo& agent : catalogue()) list.push_back(agent.name);
    return list;
  }();
  return names;
}

std::optional<double> parse_duration(std::string_view text) {
  double scale = 1;
  if (text.ends_with("ms")) {
    scale = 0.001;
    text.remove_suffix(2);
  } else if (text.ends_with("s")) {
    text.remove_suffix(1);
  } else {
    return std::nullopt;
  }
  const auto number = parse_number<double>(text);
  if (!number || !std::isfinite(*number)) return std::nullopt;
  const double seconds = *number * scale;
  if (seconds <= 0 || seconds > kMaxSeconds) return std::nullopt;
  return seconds;
}

std::optional<std::uint64_t> parse_bytes(std::string_view text) {
  static constexpr std::pair<std::string_view, int> kUnits[] = {{"KB", 10}, {"MB", 20}, {"GB", 30}};
  for (const auto& [unit, shift] : kUnits) {
    if (!text.ends_with(unit)) continue;
    const auto number = parse_number<std::uint64_t>(text.substr(0, text.size() - unit.size()));
    if (!number || *number > (kMaxBytes >> shift)) return std::nullopt;
    const std::uint64_t bytes = *number << shift;
    if (bytes < kMinBytes) return std::nullopt;
    return bytes;
  }
  return std::nullopt;
}

AgentSpec parse_agent_spec(std::string_view text) {
  const std::size_t colon = text.find(':');
  AgentSpec spec;
  spec.name = std::string(text.substr(0, colon));
  const AgentInfo& agent = agent_info(spec.name);
  if (colon == std::string_view::npos) return spec;
  std::string_view rest = text.substr(colon + 1);
  while (true) {
    const std::size_t comma = rest.find(',');
    const std::string_view item = rest.substr(0, comma);
    if (item.empty())
      throw spec_error(fmt::format("empty option in agent spec '{}'", text),
                       fmt::format("options are KEY=VALUE separated by commas, e.g. {}:{}", agent.name,
                                   agent.options.front().example));
    const std::size_t equals = item.find('=');
    const OptionInfo& option = option_info(agent, item.substr(0, equals));
    const std::string_view value = equals == std::string_view::npos ? std::string_view{} : item.substr(equals + 1);
    check_value(agent, option, value);
    if (!spec.options.emplace(option.name, std::string(value)).second)
      throw spec_error(fmt::format("option '{}' given twice for agent '{}'", option.name, agent.name),
                       "give each option once");
    if (comma == std::string_view::npos) break;
    rest.remove_prefix(comma + 1);
  }
  return spec;
}

std::string spec_text(const AgentSpec& spec) {
  std::string text = spec.name;
  char separator = ':';
  for (const auto& [key, value] : spec.options) {
    text += fmt::format("{}{}={}", separator, key, value);
    separator = ',';
  }
  return text;
}

MctsConfig mcts_config(const AgentSpec& spec, std::uint64_t default_seed) {
  check_spec(spec);
  MctsConfig config;
  config.seed = seed_of(spec, default_seed);
  if (const auto found = spec.options.find("iterations"); found != spec.options.end())
    config.iterations = *parse_number<std::uint64_t>(found->second);
  if (const auto found = spec.options.find("time"); found != spec.options.end())
    config.seconds = *parse_duration(found->second);
  if (const auto found = spec.options.find("c"); found != spec.options.end())
    config.search.c = *parse_number<double>(found->second);
  if (const auto found = spec.options.find("threads"); found != spec.options.end())
    config.threads = found->second == "all" ? static_cast<int>(std::max(std::thread::hardware_concurrency(), 1U))
                                            : *parse_number<int>(found->second);
  if (const auto found = spec.options.find("memory"); found != spec.options.end())
    config.memory_bytes = *parse_bytes(found->second);
  // "uct" is plain UCT unless switched on one by one; "mcts" has everything on unless switched off.
  const bool improved = spec.name == "mcts";
  const auto switch_of = [&](const char* key) {
    const auto found = spec.options.find(key);
    return found == spec.options.end() ? improved : found->second == "on";
  };
  config.search.solver = switch_of("solver");
  config.search.decisive = switch_of("decisive");
  config.search.mast = switch_of("mast");
  config.search.reuse = switch_of("reuse");
  return config;
}

template <class Program>
std::unique_ptr<Agent<Program>> make_agent(const AgentSpec& spec, const Program& program, std::uint64_t default_seed) {
  check_spec(spec);
  if (spec.name == "random")
    return std::make_unique<RandomAgent<Program>>(program, seed_of(spec, default_seed), spec_text(spec));
  // check_spec let the name through, so it is in the catalogue: "mcts" or "uct".
  return std::make_unique<MctsAgent<Program>>(program, mcts_config(spec, default_seed), spec_text(spec));
}

#define TROYKA_DEFINE_AGENTS(W)                                                                               \
  template std::unique_ptr<Agent<Program<W>>> make_agent(const AgentSpec&, const Program<W>&, std::uint64_t); \
  template class MctsAgent<Program<W>>;
TROYKA_FOR_EACH_WIDTH(TROYKA_DEFINE_AGENTS)
#undef TROYKA_DEFINE_AGENTS

}  // namespace troyka::agents
