#include "referee/curve.h"

#include <fmt/chrono.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <zmq.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <chrono>
#include <fstream>

#include "lang/diagnostic.h"

namespace troyka::referee {
namespace {

constexpr std::size_t kZ85KeyLength = 40;  // a 32-byte key in Z85
constexpr std::size_t kBinaryKeyLength = 32;

lang::Error key_error(const std::string& message, std::string hint = "") {
  return lang::Error(lang::Diagnostic{nullptr, {}, message, std::move(hint)});
}

bool is_z85_key(std::string_view text) {
  std::array<std::uint8_t, kBinaryKeyLength> binary{};
  return text.size() == kZ85KeyLength && zmq_z85_decode(binary.data(), std::string(text).c_str()) != nullptr;
}

std::string z85_of(const std::uint8_t* binary) {
  std::array<char, kZ85KeyLength + 1> text{};
  zmq_z85_encode(text.data(), binary, kBinaryKeyLength);
  return std::string(text.data(), kZ85KeyLength);
}

// The value of `name = "VALUE"` on a certificate line, if the line sets `name`.
std::optional<std::string> property(std::string_view line, std::string_view name) {
  const auto start = line.find_first_not_of(" \t");
  if (start == std::string_view::npos || line.substr(start, name.size()) != name) return std::nullopt;
  std::string_view rest = line.substr(start + name.size());
  const auto equals = rest.find('=');
  if (equals == std::string_view::npos || rest.substr(0, equals).find_first_not_of(" \t") != std::string_view::npos)
    return std::nullopt;
  rest = rest.substr(equals + 1);
  const auto first = rest.find_first_not_of(" \t\"'");
  const auto last = rest.find_last_not_of(" \t\r\"'");
  if (first == std::string_view::npos) return std::string();
  return std::string(rest.substr(first, last - first + 1));
}

void write_file(const std::filesystem::path& path, const std::string& text, std::filesystem::perms perms) {
  if (std::filesystem::exists(path))
    throw key_error(fmt::format("{} exists already", path.string()), "keys are never overwritten: remove it first");
  std::ofstream file(path);
  file << text;
  file.close();
  if (!file) throw key_error(fmt::format("cannot write {}", path.string()));
  std::filesystem::permissions(path, perms);
}

std::string certificate_text(const CurveKeys& keys, bool with_secret) {
  const auto now = std::chrono::floor<std::chrono::seconds>(std::chrono::system_clock::now());
  std::string text = fmt::format("#   ****  Generated on {:%Y-%m-%d %H:%M:%S} by troyka keygen  ****\n", now);
  text += with_secret ? "#   ZeroMQ CURVE **Secret** Certificate\n"
                        "#   DO NOT PROVIDE THIS FILE TO OTHER USERS nor change its permissions.\n\n"
                      : "#   ZeroMQ CURVE Public Certificate\n"
                        "#   Exchange securely, or use a secure mechanism to verify the contents\n"
                        "#   of this file after exchange. Store public certificates in your home\n"
                        "#   directory, in the .curve subdirectory.\n\n";
  text += fmt::format("metadata\ncurve\n    public-key = \"{}\"\n", keys.public_key);
  if (with_secret) text += fmt::format("    secret-key = \"{}\"\n", keys.secret_key);
  return text;
}

// The public keys of the certificates NAME.key in `directory`, by key; none when it is missing.
std::map<std::string, std::string> read_public_keys(const std::filesystem::path& directory) {
  std::map<std::string, std::string> names;
  if (!std::filesystem::is_directory(directory)) return names;
  std::vector<std::filesystem::path> files;  // sorted, so that messages do not depend on the file system
  for (const auto& entry : std::filesystem::directory_iterator(directory))
    if (entry.path().extension() == ".key") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  for (const std::filesystem::path& file : files) {
    const CurveKeys keys = read_certificate(file, false);
    const auto [taken, inserted] = names.emplace(keys.public_key, file.stem().string());
    if (!inserted)
      throw key_error(fmt::format("{} and {}.key hold the same public key", file.string(), taken->second),
                      "each agent needs a key of its own: troyka keygen NAME");
  }
  return names;
}

// One ZAP request's frames (RFC 27): version, request id, domain, address, identity, mechanism,
// then the mechanism's credentials (for CURVE, the client's 32-byte public key).
struct ZapRequest {
  std::string version, request_id, domain, address, mechanism, public_key;
};

std::optional<ZapRequest> read_zap_request(zmq::socket_t& socket) {
  std::vector<zmq::message_t> frames;
  for (zmq::message_t frame; socket.recv(frame, zmq::recv_flags::dontwait);) {
    const bool more = frame.more();
    frames.push_back(std::move(frame));
    if (!more) break;
  }
  if (frames.empty()) return std::nullopt;
  ZapRequest request;
  const auto text = [&](std::size_t index) { return index < frames.size() ? frames[index].to_string() : ""; };
  request.version = text(0);
  request.request_id = text(1);
  request.domain = text(2);
  request.address = text(3);
  request.mechanism = text(5);
  if (frames.size() > 6 && frames[6].size() == kBinaryKeyLength)
    request.public_key = z85_of(frames[6].data<std::uint8_t>());
  return request;
}

void send_zap_reply(zmq::socket_t& socket, const ZapRequest& request, bool admitted, const std::string& user) {
  const std::array<std::string, 6> frames{
      "1.0", request.request_id, admitted ? "200" : "400", admitted ? "OK" : "not admitted", user, ""};
  for (std::size_t part = 0; part < frames.size(); ++part)
    (void)socket.send(zmq::buffer(frames[part]),
                      part + 1 < frames.size() ? zmq::send_flags::sndmore : zmq::send_flags::none);
}

}  // namespace

bool curve_available() { return zmq_has("curve") != 0; }

CurveKeys generate_curve_keys() {
  std::array<char, kZ85KeyLength + 1> public_key{}, secret_key{};
  if (zmq_curve_keypair(public_key.data(), secret_key.data()) != 0)
    throw key_error("cannot make a CURVE key pair: this ZeroMQ library has no CURVE support",
                    "install a libzmq built with libsodium (Debian's libzmq5 is)");
  return {std::string(public_key.data(), kZ85KeyLength), std::string(secret_key.data(), kZ85KeyLength)};
}

void write_certificates(const std::filesystem::path& directory, const std::string& name, const CurveKeys& keys) {
  std::filesystem::create_directories(directory);
  using std::filesystem::perms;
  write_file(directory / (name + ".key"), certificate_text(keys, false),
             perms::owner_read | perms::owner_write | perms::group_read | perms::others_read);
  write_file(directory / (name + ".key_secret"), certificate_text(keys, true), perms::owner_read | perms::owner_write);
}

CurveKeys read_certificate(const std::filesystem::path& path, bool need_secret) {
  std::ifstream file(path);
  if (!file) throw key_error(fmt::format("cannot read the key file {}", path.string()));
  CurveKeys keys;
  int line_number = 0;
  for (std::string line; std::getline(file, line);) {
    ++line_number;
    for (auto [name, value] : {std::pair{"public-key", &keys.public_key}, std::pair{"secret-key", &keys.secret_key}}) {
      const std::optional<std::string> found = property(line, name);
      if (!found) continue;
      if (!is_z85_key(*found))
        throw key_error(fmt::format("{}:{}: {} is not a 40-character Z85 key", path.string(), line_number, name));
      *value = *found;
    }
  }
  if (keys.public_key.empty())
    throw key_error(fmt::format("{} holds no public-key: it is not a ZeroMQ certificate", path.string()),
                    "make key files with: troyka keygen NAME");
  if (need_secret && keys.secret_key.empty())
    throw key_error(fmt::format("{} holds no secret-key", path.string()),
                    "give the NAME.key_secret file that troyka keygen wrote, not NAME.key");
  return keys;
}

CurveDirectory read_curve_directory(const std::filesystem::path& directory) {
  if (!std::filesystem::is_directory(directory))
    throw key_error(fmt::format("--curve-keys: {} is not a directory", directory.string()),
                    "make one with: troyka keygen referee --dir DIR; then DIR/agents/NAME.key for each agent");
  CurveDirectory keys;
  keys.referee = read_certificate(directory / "referee.key_secret", true);
  keys.agents = read_public_keys(directory / "agents");
  keys.watchers = read_public_keys(directory / "watchers");
  return keys;
}

void make_curve_server(zmq::socket_t& socket, const CurveKeys& keys, const std::string& domain) {
  socket.set(zmq::sockopt::curve_server, 1);
  socket.set(zmq::sockopt::curve_secretkey, keys.secret_key);
  // ZeroMQ admits every client when no authenticator is bound (ZMQ_ZAP_ENFORCE_DOMAIN, which
  // would refuse them, is still a draft option): the referee binds its CurveAuthenticator first.
  socket.set(zmq::sockopt::zap_domain, domain);
}

void make_curve_client(zmq::socket_t& socket, const CurveClient& client) {
  socket.set(zmq::sockopt::curve_serverkey, client.server_key);
  socket.set(zmq::sockopt::curve_publickey, client.own.public_key);
  socket.set(zmq::sockopt::curve_secretkey, client.own.secret_key);
}

CurveClient read_curve_client(const std::filesystem::path& server_key_file,
                              const std::filesystem::path& own_keys_file) {
  return {read_certificate(server_key_file, false).public_key, read_certificate(own_keys_file, true)};
}

HandshakeMonitor::HandshakeMonitor(zmq::socket_t& socket) {
  static std::atomic<int> monitors = 0;  // each monitor needs an address of its own
  init(socket, fmt::format("inproc://troyka-handshake-{}", monitors++),
       ZMQ_EVENT_HANDSHAKE_FAILED_AUTH | ZMQ_EVENT_HANDSHAKE_FAILED_PROTOCOL | ZMQ_EVENT_HANDSHAKE_FAILED_NO_DETAIL |
           ZMQ_EVENT_HANDSHAKE_SUCCEEDED);
}

std::optional<std::string> HandshakeMonitor::failure() {
  while (!failure_ && check_event(0)) {
  }
  return failure_;
}

void HandshakeMonitor::on_event_handshake_failed_auth(const zmq_event_t& event, const char* /*address*/) {
  failure_ = fmt::format(
      "the referee refused this client's CURVE key (status {}): its public key must be filed in the "
      "referee's key directory, as agents/NAME.key to play as NAME or watchers/NAME.key to watch",
      event.value);
}

namespace {
constexpr const char* kMechanismMismatch =
    "the handshake with the referee failed: one side uses CURVE encryption and the other not, or the "
    "referee's public key (--curve-server-key) is not the right one";
// A server that finds the other mechanism closes at once, and when it closes first the client's
// system may drop the greeting it had sent: the client then sees only a connection lost during the
// handshake, which ZeroMQ retries every 100 ms. A live referee of the same mechanism never does
// that three times running.
constexpr int kDropsThatMeanAMismatch = 3;
}  // namespace

void HandshakeMonitor::on_event_handshake_failed_protocol(const zmq_event_t& /*event*/, const char* /*address*/) {
  failure_ = kMechanismMismatch;
}

void HandshakeMonitor::on_event_handshake_failed_no_detail(const zmq_event_t& /*event*/, const char* /*address*/) {
  if (++dropped_in_a_row_ >= kDropsThatMeanAMismatch && !failure_) failure_ = kMechanismMismatch;
}

void HandshakeMonitor::on_event_handshake_succeeded(const zmq_event_t& /*event*/, const char* /*address*/) {
  dropped_in_a_row_ = 0;
}

CurveAuthenticator::CurveAuthenticator(zmq::context_t& context, CurveDirectory keys, OnRefusal on_refusal)
    : keys_(std::move(keys)), on_refusal_(std::move(on_refusal)), socket_(context, zmq::socket_type::rep) {
  socket_.bind("inproc://zeromq.zap.01");  // the address ZeroMQ asks, fixed by RFC 27
}

std::optional<std::string> CurveAuthenticator::admitted(const std::string& domain,
                                                        const std::string& public_key) const {
  if (const auto agent = keys_.agents.find(public_key); agent != keys_.agents.end()) return agent->second;
  if (domain != kWatcherDomain) return std::nullopt;
  if (const auto watcher = keys_.watchers.find(public_key); watcher != keys_.watchers.end()) return watcher->second;
  return std::nullopt;
}

void CurveAuthenticator::answer() {
  while (const std::optional<ZapRequest> request = read_zap_request(socket_)) {
    const std::optional<std::string> name =
        request->mechanism == "CURVE" ? admitted(request->domain, request->public_key) : std::nullopt;
    send_zap_reply(socket_, *request, name.has_value(), name.value_or(""));
    if (name) continue;
    const std::string where = request->domain == kWatcherDomain ? "watchers/ or agents/" : "agents/";
    on_refusal_(request->address.empty() ? "a local peer" : request->address,
                request->mechanism != "CURVE" ? fmt::format("it did not use CURVE ({})", request->mechanism)
                                              : fmt::format("its key {} is not in {}", request->public_key, where));
  }
}

}  // namespace troyka::referee
