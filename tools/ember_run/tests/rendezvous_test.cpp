// The multi-node rendezvous: a missing node 0 times out with a message, and
// garbage on the rendezvous port fails only that connection.
#include <gtest/gtest.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cstring>
#include <memory>
#include <thread>

#include "launcher_process.h"
#include "torchrun_reference.h"

namespace ember_run_test {
namespace {

const std::string kMonitor = "--monitor-interval=0.1";

TEST(LauncherRendezvous, MissingNodeZeroTimesOut) {
  int port = free_port();
  auto r = run_launcher({"--nnodes", "2", "--node-rank", "1", "--rdzv-endpoint", "127.0.0.1:" + std::to_string(port),
                         "--rdzv-conf", "timeout=0.5", kMonitor, worker("print_env.sh")});
  ASSERT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("rendezvous: node 0 did not accept at 127.0.0.1:" + std::to_string(port)), std::string::npos)
      << r.err;
  EXPECT_TRUE(r.out.empty());
}

TEST(LauncherRendezvous, MissingNodeIsNamedByNodeZero) {
  int port = free_port();
  auto r = run_launcher({"--nnodes", "3", "--rdzv-endpoint", "127.0.0.1:" + std::to_string(port), "--rdzv-conf",
                         "timeout=0.5", kMonitor, worker("print_env.sh")});
  EXPECT_EQ(r.exit_code, 1);
  EXPECT_NE(r.err.find("node ranks that did not join: 1,2"), std::string::npos) << r.err;
}

int connect_to(int port) {
  int s = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
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

TEST(LauncherRendezvous, ForeignServerOnTheEndpointIsRetriedPast) {
  // After a restart, the endpoint may still be held by the previous attempt's
  // rank-0 store; node 1 must keep trying until node 0's rendezvous is there.
  int port = free_port();
  int listener = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);  // not inherited by the launchers
  int one = 1;
  ::setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
  sockaddr_in addr{};
  addr.sin_family = AF_INET;
  addr.sin_port = htons(static_cast<uint16_t>(port));
  addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
  ASSERT_EQ(::bind(listener, reinterpret_cast<sockaddr*>(&addr), sizeof(addr)), 0);
  ASSERT_EQ(::listen(listener, 8), 0);
  LauncherProcess node1({"--nnodes", "2", "--node-rank", "1", "--rdzv-endpoint", "127.0.0.1:" + std::to_string(port),
                         "--rdzv-conf", "timeout=15", kMonitor, worker("print_env.sh")});
  // The stand-in store answers twice with bytes that are not a rendezvous reply, then goes away.
  for (const char* junk : {"\x01\x02 not a reply\n", "ok nonsense\n"}) {
    int conn = ::accept(listener, nullptr, nullptr);
    ASSERT_GE(conn, 0);
    char buf[256];
    (void)!::recv(conn, buf, sizeof(buf), 0);
    (void)!::send(conn, junk, std::strlen(junk), MSG_NOSIGNAL);
    ::close(conn);
  }
  ::close(listener);
  LauncherProcess node0(
      {"--nnodes", "2", "--rdzv-endpoint", "127.0.0.1:" + std::to_string(port), kMonitor, worker("print_env.sh")});
  auto r0 = node0.wait();
  auto r1 = node1.wait();
  EXPECT_EQ(r0.exit_code, 0) << r0.err;
  EXPECT_EQ(r1.exit_code, 0) << r1.err;
  EXPECT_NE(r1.out.find("[default0]:RANK=1"), std::string::npos) << r1.out;
}

TEST(LauncherRendezvous, BothNodesRestartAndMeetAgain) {
  TempDir out;
  int port = free_port();
  std::map<std::string, std::string> env = {{"WORKER_OUT", out.path()}, {"CRASH_RANK", "2"}};
  auto node = [&](int rank) {
    return std::make_unique<LauncherProcess>(
        std::vector<std::string>{"--nnodes", "2", "--node-rank", std::to_string(rank), "--nproc-per-node", "2",
                                 "--max-restarts", "1", "--rdzv-endpoint", "127.0.0.1:" + std::to_string(port),
                                 "--rdzv-conf", "timeout=15", kMonitor, worker("peer_failure.sh")},
        env);
  };
  auto node0 = node(0);
  auto node1 = node(1);
  auto r0 = node0->wait();
  auto r1 = node1->wait();
  ASSERT_EQ(r0.exit_code, 0) << r0.err;
  ASSERT_EQ(r1.exit_code, 0) << r1.err;
  EXPECT_EQ(worker_lines_by_rank(r0.out), (std::vector<std::string>{"[default0]:attempt 1 rank 0 of 4 group 0",
                                                                    "[default1]:attempt 1 rank 1 of 4 group 0"}));
  EXPECT_EQ(worker_lines_by_rank(r1.out), (std::vector<std::string>{"[default0]:attempt 1 rank 2 of 4 group 1",
                                                                    "[default1]:attempt 1 rank 3 of 4 group 1"}));
}

}  // namespace
}  // namespace ember_run_test
