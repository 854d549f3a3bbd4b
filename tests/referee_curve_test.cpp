// CURVE encryption and authentication end to end (docs/referee.md, "Security"): keys made by
// `troyka keygen`, a referee with --curve-keys, and troyka, Python, JavaScript and stray agents over
// real sockets. Also the referee's closing line of load figures.
#include <fmt/format.h>
#include <gtest/gtest.h>
#include <poll.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include <cstring>
#include <filesystem>
#include <fstream>
#include <regex>
#include <thread>

#include "referee/curve.h"
#include "tests/referee_helpers.h"

namespace {

using namespace referee_testing;
using namespace std::chrono_literals;

// `troyka keygen NAME --dir DIRECTORY`, which must succeed.
void keygen(const std::string& name, const std::string& directory) {
  Process keygen({TROYKA_BINARY, "keygen", name, "--dir", directory}, directory + "-" + name + "-keygen");
  ASSERT_EQ(keygen.wait(10s), 0) << keygen.err();
}

// keys/referee.key_secret, keys/agents/{alice,bob,carol}.key(_secret), keys/watchers/watcher.key(_secret),
// and stray/mallory.key(_secret), which the referee does not know.
struct Keys {
  std::string root, stray;
  std::string agent_secret(const std::string& name) const { return root + "/agents/" + name + ".key_secret"; }
  std::string referee_public() const { return root + "/referee.key"; }
};

Keys make_keys(const Workspace& workspace) {
  Keys keys{workspace.directory + "/keys", workspace.directory + "/stray"};
  keygen("referee", keys.root);
  keygen("alice", keys.root + "/agents");
  keygen("bob", keys.root + "/agents");
  keygen("carol", keys.root + "/agents");
  keygen("watcher", keys.root + "/watchers");
  keygen("mallory", keys.stray);
  return keys;
}

std::vector<std::string> with_curve(std::vector<std::string> command, const Keys& keys, const std::string& secret) {
  command.insert(command.end(), {"--curve-server-key", keys.referee_public(), "--curve-key", secret});
  return command;
}

TEST(RefereeCurve, OnlyTheHoldersOfFiledKeysPlayAndEachUnderItsOwnName) {
  const Workspace workspace = fresh_workspace("curve");
  const Keys keys = make_keys(workspace);
  Process referee(
      referee_command(workspace, {"--agents", "alice", "bob", "carol", "--games", "2", "--time", "5s", "--heartbeat",
                                  "100ms", "--curve-keys", keys.root, "--publish", workspace.publisher()}),
      workspace.directory + "/ref");
  Process watch(with_curve(watch_command(workspace), keys, keys.root + "/watchers/watcher.key_secret"),
                workspace.directory + "/watch");

  // Refused before any game: a key the referee never filed, a filed key under another name, and
  // a client without CURVE. Each says why and exits with 1.
  Process stray(with_curve(troyka_agent_command(workspace, "bob", "random"), keys, keys.stray + "/mallory.key_secret"),
                workspace.directory + "/stray");
  Process impostor(with_curve(troyka_agent_command(workspace, "alice", "random"), keys, keys.agent_secret("bob")),
                   workspace.directory + "/impostor");
  Process plain(troyka_agent_command(workspace, "alice", "random"), workspace.directory + "/plain");
  Process stray_watch(with_curve(watch_command(workspace), keys, keys.stray + "/mallory.key_secret"),
                      workspace.directory + "/stray_watch");
  const auto expect_refused = [](Process& client, const std::string& error) {
    EXPECT_EQ(client.wait(20s), 1);
    EXPECT_EQ(client.err(), "error: " + error + "\n");
  };
  const std::string unfiled_key =
      "the referee refused this client's CURVE key (status 400): its public key must be filed in the referee's key "
      "directory, as agents/NAME.key to play as NAME or watchers/NAME.key to watch";
  expect_refused(stray, unfiled_key);
  expect_refused(stray_watch, unfiled_key);
  expect_refused(impostor,
                 "the referee refused this agent (key_mismatch): this connection's CURVE key is filed under 'bob', "
                 "not 'alice'");
  expect_refused(plain,
                 "the handshake with the referee failed: one side uses CURVE encryption and the other not, or the "
                 "referee's public key (--curve-server-key) is not the right one");

  Process alice(with_curve(troyka_agent_command(workspace, "alice", "random"), keys, keys.agent_secret("alice")),
                workspace.directory + "/alice");
  std::vector<std::string> bob_command = python_agent_command(workspace, "bob");
  Process bob(with_curve(bob_command, keys, keys.agent_secret("bob")), workspace.directory + "/bob");
  Process carol(with_curve(node_agent_command(workspace, "carol"), keys, keys.agent_secret("carol")),
                workspace.directory + "/carol");
  ASSERT_EQ(referee.wait(60s), 0) << referee.err();
  EXPECT_EQ(alice.wait(10s), 0) << alice.err();
  EXPECT_EQ(bob.wait(10s), 0) << bob.err();
  EXPECT_EQ(carol.wait(10s), 0) << carol.err();
  EXPECT_EQ(watch.wait(10s), 0) << watch.err();

  const Results results = read_results(workspace.results());
  expect_every_game_once(results, 6);
  EXPECT_EQ(forfeit_codes(results), std::vector<std::string>(6, ""));
  const std::string log = referee.err();
  EXPECT_NE(log.find("CURVE: encrypted; 3 agent key(s), 1 watcher key(s)\n"), std::string::npos) << log;
  EXPECT_TRUE(std::regex_search(log, std::regex("refused a connection from .*: its key \\S{40} is not in agents/\n")))
      << log;
  EXPECT_NE(watch.out().find("the tournament is over\n"), std::string::npos) << watch.out();
}

// A server that closes every connection as soon as it comes, before any handshake: what a client
// meets when a referee of the other mechanism closes first and the client's system drops the
// greeting it had sent (under load, now and then). The agent still says why and exits with 1.
TEST(RefereeCurve, AClientWhoseEveryHandshakeIsCutOffSaysSoAndStops) {
  const Workspace workspace = fresh_workspace("cut_off");
  const std::string path = workspace.endpoint().substr(std::strlen("ipc://"));
  sockaddr_un address{};
  address.sun_family = AF_UNIX;
  ASSERT_LT(path.size(), sizeof(address.sun_path));
  std::memcpy(address.sun_path, path.c_str(), path.size() + 1);
  const int listener = socket(AF_UNIX, SOCK_STREAM, 0);
  ASSERT_GE(listener, 0);
  ASSERT_EQ(bind(listener, reinterpret_cast<const sockaddr*>(&address), sizeof(address)), 0);
  ASSERT_EQ(listen(listener, 16), 0);
  std::jthread closer([listener](const std::stop_token& stop) {
    while (!stop.stop_requested()) {
      pollfd incoming{listener, POLLIN, 0};
      if (poll(&incoming, 1, 20) > 0) close(accept(listener, nullptr, nullptr));
    }
  });

  Process plain(troyka_agent_command(workspace, "alice", "random"), workspace.directory + "/plain");
  EXPECT_EQ(plain.wait(20s), 1);
  EXPECT_EQ(plain.err(),
            "error: the handshake with the referee failed: one side uses CURVE encryption and the other not, or the "
            "referee's public key (--curve-server-key) is not the right one\n");
  closer.request_stop();
  closer.join();
  close(listener);
}

TEST(RefereeCurve, KeyFilesAreZeroMqCertificatesAndNeverOverwritten) {
  const Workspace workspace = fresh_workspace("keygen");
  keygen("alice", workspace.directory);
  const troyka::referee::CurveKeys keys =
      troyka::referee::read_certificate(workspace.directory + "/alice.key_secret", true);
  EXPECT_EQ(keys.public_key.size(), 40u);
  EXPECT_EQ(keys.secret_key.size(), 40u);
  EXPECT_EQ(troyka::referee::read_certificate(workspace.directory + "/alice.key", false).public_key, keys.public_key);
  EXPECT_EQ(std::filesystem::status(workspace.directory + "/alice.key_secret").permissions(),
            std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);

  Process again({TROYKA_BINARY, "keygen", "alice", "--dir", workspace.directory}, workspace.directory + "/again");
  EXPECT_EQ(again.wait(10s), 1);
  EXPECT_EQ(again.err(), fmt::format("error: {}/alice.key exists already\nhint: keys are never overwritten: remove it "
                                     "first\n",
                                     workspace.directory));
  EXPECT_EQ(troyka::referee::read_certificate(workspace.directory + "/alice.key_secret", true).secret_key,
            keys.secret_key);
}

TEST(RefereeCurve, BadKeyDirectoriesAndFilesAreRefusedBeforeAnythingStarts) {
  const Workspace workspace = fresh_workspace("curve_options");
  const auto referee_error = [&](const std::string& directory) {
    Process referee(referee_command(workspace, {"--agents", "alice", "bob", "--time", "1s", "--curve-keys", directory}),
                    workspace.directory + "/ref");
    EXPECT_EQ(referee.wait(10s), 1);
    return referee.err();
  };
  const std::string keys = workspace.directory + "/keys";
  EXPECT_EQ(referee_error(keys), fmt::format("error: --curve-keys: {} is not a directory\nhint: make one with: troyka "
                                             "keygen referee --dir DIR; then DIR/agents/NAME.key for each agent\n",
                                             keys));
  keygen("referee", keys);
  keygen("alice", keys + "/agents");
  EXPECT_EQ(referee_error(keys), fmt::format("error: --curve-keys: no key for the agent 'bob' ({}/agents/bob.key)\n"
                                             "hint: each agent makes its keys with `troyka keygen NAME` and gives "
                                             "NAME.key to the referee\n",
                                             keys));
  std::ofstream(keys + "/agents/bob.key") << "metadata\ncurve\n    public-key = \"too short\"\n";
  EXPECT_EQ(referee_error(keys),
            fmt::format("error: {}/agents/bob.key:3: public-key is not a 40-character Z85 key\n", keys));
  std::filesystem::copy_file(keys + "/agents/alice.key", keys + "/agents/bob.key",
                             std::filesystem::copy_options::overwrite_existing);
  EXPECT_EQ(referee_error(keys), fmt::format("error: {}/agents/bob.key and alice.key hold the same public key\n"
                                             "hint: each agent needs a key of its own: troyka keygen NAME\n",
                                             keys));
  std::filesystem::remove(keys + "/agents/bob.key");
  // An agent given its public key file where its key pair belongs.
  Process agent({TROYKA_BINARY, "agent", "--connect", workspace.endpoint(), "--name", "alice", "--agent", "random",
                 "--curve-server-key", keys + "/referee.key", "--curve-key", keys + "/agents/alice.key"},
                workspace.directory + "/agent");
  EXPECT_EQ(agent.wait(10s), 1);
  EXPECT_EQ(agent.err(), fmt::format("error: {}/agents/alice.key holds no secret-key\nhint: give the NAME.key_secret "
                                     "file that troyka keygen wrote, not NAME.key\n",
                                     keys));
  Process half({TROYKA_BINARY, "agent", "--connect", workspace.endpoint(), "--name", "alice", "--agent", "random",
                "--curve-key", keys + "/agents/alice.key_secret"},
               workspace.directory + "/half");
  EXPECT_NE(half.wait(10s), 0);
  EXPECT_NE(half.err().find("--curve-key requires --curve-server-key"), std::string::npos) << half.err();
}

TEST(RefereeLoadFigures, TheLogEndsWithTheMovesRelayedAndHowFastTheyCame) {
  const Workspace workspace = fresh_workspace("load_figures");
  Process referee(referee_command(workspace, {"--agents", "a", "b", "--games", "2", "--time", "5s"}),
                  workspace.directory + "/ref");
  Process a(troyka_agent_command(workspace, "a", "random"), workspace.directory + "/a");
  Process b(troyka_agent_command(workspace, "b", "random"), workspace.directory + "/b");
  ASSERT_EQ(referee.wait(60s), 0) << referee.err();
  const Results results = read_results(workspace.results());
  int plies = 0;
  for (const Json& game : results.games) plies += game["plies"].get<int>();
  std::smatch figures;
  const std::string log = referee.err();
  ASSERT_TRUE(std::regex_search(log, figures,
                                std::regex("relayed (\\d+) moves in [0-9.]+ s \\(\\d+ a second\\); replies came "
                                           "([0-9.]+) ms after the request \\(median\\), ([0-9.]+) ms \\(99th "
                                           "percentile\\); the referee used [0-9.]+ ms of processor time a move\n")))
      << log;
  EXPECT_EQ(std::stoi(figures[1]), plies);
  EXPECT_LE(std::stod(figures[2]), std::stod(figures[3]));  // the median is at most the 99th percentile
}

}  // namespace
