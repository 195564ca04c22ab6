// SIGINT/SIGTERM sent to ember-run reach every worker; a worker that ignores
// it is killed after --stop-timeout.
#include <gtest/gtest.h>

#include <signal.h>

#include <cerrno>

#include "launcher_process.h"

namespace ember_run_test {
namespace {

const std::string kMonitor = "--monitor-interval=0.1";

void expect_forwarded(int sig, const std::string& recorded) {
  TempDir out;
  LauncherProcess launcher({"--nproc-per-node", "2", kMonitor, worker("await_signal.sh")},
                           {{"WORKER_OUT", out.path()}});
  ASSERT_TRUE(wait_for_file(out.file("ready.0")));
  ASSERT_TRUE(wait_for_file(out.file("ready.1")));
  ::kill(launcher.pid(), sig);
  auto r = launcher.wait(std::chrono::seconds(10));
  ASSERT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 128 + sig) << r.err;
  EXPECT_EQ(read_file(out.file("signal.0")), recorded + "\n");
  EXPECT_EQ(read_file(out.file("signal.1")), recorded + "\n");
  EXPECT_NE(r.err.find("death signal, shutting down workers"), std::string::npos) << r.err;
}

TEST(LauncherSignals, SigtermIsForwarded) { expect_forwarded(SIGTERM, "TERM"); }
TEST(LauncherSignals, SigintIsForwarded) { expect_forwarded(SIGINT, "INT"); }

TEST(LauncherSignals, WorkerIgnoringSigtermIsKilledAfterTheGracePeriod) {
  TempDir out;
  LauncherProcess launcher({"--nproc-per-node", "2", "--stop-timeout", "1", kMonitor, worker("await_signal.sh")},
                           {{"WORKER_OUT", out.path()}, {"IGNORE_TERM", "1"}});
  ASSERT_TRUE(wait_for_file(out.file("ready.0")));
  ASSERT_TRUE(wait_for_file(out.file("ready.1")));
  auto start = std::chrono::steady_clock::now();
  ::kill(launcher.pid(), SIGTERM);
  auto r = launcher.wait(std::chrono::seconds(10));
  auto took = std::chrono::steady_clock::now() - start;
  ASSERT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 128 + SIGTERM);
  EXPECT_GE(took, std::chrono::milliseconds(900));
  EXPECT_LT(took, std::chrono::seconds(6));
  EXPECT_FALSE(file_exists(out.file("signal.0")));
  for (int rank : {0, 1}) {
    pid_t pid = std::stoi(read_file(out.file("pid." + std::to_string(rank))));
    EXPECT_EQ(::kill(pid, 0), -1);  // killed and reaped by the launcher
    EXPECT_EQ(errno, ESRCH);
  }
}

}  // namespace
}  // namespace ember_run_test
