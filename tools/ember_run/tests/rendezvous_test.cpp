// The multi-node rendezvous: a missing node 0 times out with a message, and
// garbage on the rendezvous port fails only that connection.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <thread>

#include "launcher_process.h"

namespace ember_run_test {
namespace {

const std::string kMonitor = "--monitor-interval=0.1";

TEST(LauncherRendezvous, MissingNodeZeroTimesOut) {
  int port = free_port();
  auto r = run_launcher({"--nnodes", "2", "--node-rank", "1", "--rdzv-endpoint", "127.0.0.1:" + std::to_string(port),
                         "--rdzv-conf", "timeout=1", kMonitor, worker("print_env.sh")});
  ASSERT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("rendezvous: node 0 did not accept at 127.0.0.1:" + std::to_string(port)), std::string::npos)
      << r.err;
  EXPECT_TRUE(r.out.empty());
}

TEST(LauncherRendezvous, MissingNodeIsNamedByNodeZero) {
  int port = free_port();
  auto r = run_launcher({"--nnodes", "3", "--rdzv-endpoint", "127.0.0.1:" + std::to_string(port), "--rdzv-conf",
                         "timeout=1", kMonitor, worker("print_env.sh")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("node ranks that did not join: 1,2"), std::string::npos) << r.err;
}

int connect_to(int port) {
  int s = ::socket(AF_INET, SOCK_STREAM, 0);
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  for (int i = 0; i < 200; ++i) {
    if (::connect(s, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)) == 0) return s;
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  ::close(s);
  return -1;
}

TEST(LauncherRendezvous, GarbageFromThePeerFailsOnlyThatConnection) {
  int port = free_port();
  LauncherProcess node0({"--nnodes", "2", "--master-port", std::to_string(port), "--rdzv-conf", "timeout=15", kMonitor,
                         worker("print_env.sh")});
  // An over-long line, a wrong greeting and a wrong run id, each on its own connection.
  for (std::string junk :
       {std::string(4096, 'x'), std::string("GET / HTTP/1.0\n"), std::string("ember-run-rdzv-1 other 2 1 1\n"),
        std::string("ember-run-rdzv-1 none 2 1 -5\n")}) {
    int s = connect_to(port);
    ASSERT_GE(s, 0);
    (void)!::send(s, junk.data(), junk.size(), MSG_NOSIGNAL);
    char buf[256];
    (void)!::recv(s, buf, sizeof(buf), 0);  // an error line or the close
    ::close(s);
  }
  LauncherProcess node1(
      {"--nnodes", "2", "--node-rank", "1", "--master-port", std::to_string(port), kMonitor, worker("print_env.sh")});
  auto r0 = node0.wait();
  auto r1 = node1.wait();
  EXPECT_EQ(r0.exit_code, 0) << r0.err;
  EXPECT_EQ(r1.exit_code, 0) << r1.err;
  EXPECT_NE(r1.out.find("[default0]:RANK=1"), std::string::npos) << r1.out;
  EXPECT_NE(r1.out.find("[default0]:WORLD_SIZE=2"), std::string::npos) << r1.out;
}

}  // namespace
}  // namespace ember_run_test
