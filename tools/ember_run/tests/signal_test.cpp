// SIGINT/SIGTERM sent to ember-run reach every worker; a worker that ignores
// it is killed after --stop-timeout.
#include <gtest/gtest.h>

#include <signal.h>

#include <cerrno>
#include <thread>

#include "launcher_process.h"

namespace ember_run_test {
namespace {

const std::string kMonitor = "--monitor-interval=0.1";

// Alive and not a zombie: an orphan's zombie waits for whatever reaps in this
// container, which is not the launcher's business.
bool is_running(pid_t pid) {
  if (::kill(pid, 0) != 0) return false;
  std::string stat = read_file("/proc/" + std::to_string(pid) + "/stat");
  size_t close = stat.rfind(')');
  return close == std::string::npos || close + 2 >= stat.size() || stat[close + 2] != 'Z';
}

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

TEST(LauncherSignals, SignalWhileStoppingAFailedGroupPreventsTheRestart) {
  TempDir out;
  LauncherProcess launcher(
      {"--nproc-per-node", "2", "--max-restarts", "3", "--stop-timeout", "5", kMonitor, worker("fail_one_rank.sh")},
      {{"FAIL_RANK", "1"},
       {"FAIL_CODE", "4"},
       {"IGNORE_TERM", "1"},
       {"MARK_FAILURE", "1"},
       {"WORKER_OUT", out.path()}});
  ASSERT_TRUE(wait_for_file(out.file("failed")));
  std::this_thread::sleep_for(std::chrono::milliseconds(300));  // the launcher is now in the 5 s grace
  auto start = std::chrono::steady_clock::now();
  ::kill(launcher.pid(), SIGTERM);
  auto r = launcher.wait(std::chrono::seconds(10));
  ASSERT_FALSE(r.timed_out);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(3));
  EXPECT_EQ(r.exit_code, 128 + SIGTERM) << r.err;
  EXPECT_EQ(r.err.find("attempts left"), std::string::npos) << r.err;
  EXPECT_EQ(lines_starting_with(r.out, "[default1]:rank 1 failing").size(), 1u) << r.out;
}

TEST(LauncherSignals, WorkersDoNotOutliveAKilledLauncher) {
  TempDir out;
  LauncherProcess launcher({"--nproc-per-node", "2", kMonitor, worker("await_signal.sh")},
                           {{"WORKER_OUT", out.path()}});
  ASSERT_TRUE(wait_for_file(out.file("ready.0")));
  ASSERT_TRUE(wait_for_file(out.file("ready.1")));
  ::kill(launcher.pid(), SIGKILL);
  auto r = launcher.wait(std::chrono::seconds(10));
  EXPECT_EQ(r.exit_code, 128 + SIGKILL);
  for (int rank : {0, 1}) {
    pid_t pid = std::stoi(read_file(out.file("pid." + std::to_string(rank))));
    auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(5);
    while (is_running(pid) && std::chrono::steady_clock::now() < deadline)
      std::this_thread::sleep_for(std::chrono::milliseconds(10));
    EXPECT_FALSE(is_running(pid)) << "worker " << rank << " outlived the launcher";
    ::kill(std::stoi(read_file(out.file("child." + std::to_string(rank)))), SIGKILL);  // its orphaned sleep
  }
}

}  // namespace
}  // namespace ember_run_test
