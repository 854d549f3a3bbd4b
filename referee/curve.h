// CURVE encryption and authentication for the referee's sockets (docs/referee.md, "Security").
// Keys are kept in ZeroMQ's certificate files, as pyzmq's zmq.auth and CZMQ write them: NAME.key
// holds a public key, NAME.key_secret the public and the secret key. The referee's socket is a
// CURVE server; it admits an agent only when the agent's public key is in its key directory under
// the agent's own name, so a name can be used by its key holder alone.
#pragma once

#include <filesystem>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <zmq.hpp>

namespace troyka::referee {

// A CURVE key pair in Z85 text (40 characters each); `secret_key` is empty for a public key alone.
struct CurveKeys {
  std::string public_key;
  std::string secret_key;
};

// Whether this ZeroMQ library was built with CURVE (libsodium).
bool curve_available();
CurveKeys generate_curve_keys();

// Writes DIRECTORY/NAME.key (the public key) and DIRECTORY/NAME.key_secret (both keys, readable by
// the owner alone). Throws lang::Error when either file exists or cannot be written.
void write_certificates(const std::filesystem::path& directory, const std::string& name, const CurveKeys& keys);
// Reads a certificate file. Throws lang::Error naming the file and line when it is not one, or
// when `need_secret` and it holds no secret key.
CurveKeys read_certificate(const std::filesystem::path& path, bool need_secret);

// What a key directory gives the referee: its own keys, and the agents' and watchers' public keys.
struct CurveDirectory {
  CurveKeys referee;                            // DIRECTORY/referee.key_secret
  std::map<std::string, std::string> agents;    // DIRECTORY/agents/NAME.key: public key -> NAME
  std::map<std::string, std::string> watchers;  // DIRECTORY/watchers/NAME.key: public key -> NAME
};
CurveDirectory read_curve_directory(const std::filesystem::path& directory);

// Makes `socket` a CURVE server with `keys`, whose clients ZeroMQ asks the authenticator about
// under `domain` (kAgentDomain or kWatcherDomain). Before bind.
void make_curve_server(zmq::socket_t& socket, const CurveKeys& keys, const std::string& domain);
struct CurveClient;
// Makes `socket` a CURVE client. Before connect.
void make_curve_client(zmq::socket_t& socket, const CurveClient& client);

inline constexpr const char* kAgentDomain = "agents";
inline constexpr const char* kWatcherDomain = "watchers";

// ZeroMQ's authentication handler (ZAP, RFC 27) for one context: every CURVE handshake on a server
// socket of that context is a request on its socket, answered by `answer`. An agent's key is
// admitted under its name (the connection's "User-Id"); a watcher's key, or any agent's, may watch.
class CurveAuthenticator {
 public:
  // Called with the peer's address and the reason for each refusal.
  using OnRefusal = std::function<void(const std::string& address, const std::string& why)>;

  CurveAuthenticator(zmq::context_t& context, CurveDirectory keys, OnRefusal on_refusal);
  zmq::socket_t& socket() { return socket_; }
  // Answers the requests that have arrived; never blocks.
  void answer();

 private:
  // The name the key is admitted under in `domain`, if it is.
  std::optional<std::string> admitted(const std::string& domain, const std::string& public_key) const;

  CurveDirectory keys_;
  OnRefusal on_refusal_;
  zmq::socket_t socket_;
};

// Watches a client socket's handshakes, so that a refusal by the server's authenticator, or one side
// using CURVE and the other not, is told to the user instead of retried in silence.
class HandshakeMonitor : zmq::monitor_t {
 public:
  explicit HandshakeMonitor(zmq::socket_t& socket);
  // Why a handshake failed, once the events that have arrived say so.
  std::optional<std::string> failure();

 private:
  void on_event_handshake_failed_auth(const zmq_event_t& event, const char* address) override;
  void on_event_handshake_failed_protocol(const zmq_event_t& event, const char* address) override;
  void on_event_handshake_failed_no_detail(const zmq_event_t& event, const char* address) override;
  void on_event_handshake_succeeded(const zmq_event_t& event, const char* address) override;
  std::optional<std::string> failure_;
  int dropped_in_a_row_ = 0;  // connections the server closed during the handshake, since the last one that held
};

// What a CURVE client needs: the server's public key and its own key pair.
struct CurveClient {
  std::string server_key;
  CurveKeys own;
};
// Reads the server's certificate (its NAME.key) and the client's own NAME.key_secret.
CurveClient read_curve_client(const std::filesystem::path& server_key_file, const std::filesystem::path& own_keys_file);

}  // namespace troyka::referee
