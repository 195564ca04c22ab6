// A failing rank stops the others and is reported as torchrun reports it.
#include <gtest/gtest.h>

#include <signal.h>

#include "launcher_process.h"
#include "torchrun_reference.h"

namespace ember_run_test {
namespace {

const std::string kMonitor = "--monitor-interval=0.1";

TEST(LauncherFailure, FailingRankStopsTheOthersAndIsSummarised) {
  TempDir out;
  auto start = std::chrono::steady_clock::now();
  auto r = run_launcher({"--nproc-per-node", "3", kMonitor, worker("fail_one_rank.sh")},
                        {{"FAIL_RANK", "1"}, {"FAIL_CODE", "7"}, {"WORKER_OUT", out.path()}});
  ASSERT_FALSE(r.timed_out);
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(10));  // the others sleep 60 s
  EXPECT_EQ(r.exit_code, 7) << r.err;
  EXPECT_EQ(normalized_summary(r.err), reference_section("failure_exitcode summary")) << r.err;
  EXPECT_EQ(read_file(out.file("terminated.0")), "terminated\n");
  EXPECT_EQ(read_file(out.file("terminated.2")), "terminated\n");
  EXPECT_FALSE(file_exists(out.file("finished.0")));
}

TEST(LauncherFailure, RankKilledBySignalIsSummarised) {
  TempDir out;
  auto r = run_launcher({"--nproc-per-node", "2", kMonitor, worker("fail_one_rank.sh")},
                        {{"FAIL_RANK", "0"}, {"FAIL_CODE", "0"}, {"FAIL_SIGNAL", "KILL"}, {"WORKER_OUT", out.path()}});
  ASSERT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 128 + SIGKILL) << r.err;
  EXPECT_EQ(normalized_summary(r.err), reference_section("failure_signal summary")) << r.err;
  EXPECT_EQ(read_file(out.file("terminated.1")), "terminated\n");
}

TEST(LauncherFailure, OthersIgnoringSigtermAreKilledAfterTheGracePeriod) {
  TempDir out;
  auto start = std::chrono::steady_clock::now();
  auto r = run_launcher({"--nproc-per-node", "2", "--stop-timeout", "1", kMonitor, worker("fail_one_rank.sh")},
                        {{"FAIL_RANK", "1"}, {"FAIL_CODE", "4"}, {"IGNORE_TERM", "1"}, {"WORKER_OUT", out.path()}});
  auto took = std::chrono::steady_clock::now() - start;
  ASSERT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 4) << r.err;
  EXPECT_GE(took, std::chrono::milliseconds(1100));  // 0.2 s until the failure, then the 1 s grace
  EXPECT_LT(took, std::chrono::seconds(8));
  EXPECT_FALSE(file_exists(out.file("terminated.0")));
  EXPECT_FALSE(file_exists(out.file("finished.0")));
  auto summary = normalized_summary(r.err);
  EXPECT_NE(std::find(summary.begin(), summary.end(), "  rank      : 1 (local_rank: 1)"), summary.end()) << r.err;
}

TEST(LauncherFailure, EveryFailedRankIsListed) {
  // Both ranks fail within one monitor interval: the first is the root cause,
  // the other is listed under Failures, and the exit code is the root cause's.
  auto r = run_launcher({"--nproc-per-node", "2", "--monitor-interval", "0.5", worker("exit_with_rank.sh")});
  ASSERT_FALSE(r.timed_out);
  auto summary = normalized_summary(r.err);
  ASSERT_FALSE(summary.empty()) << r.err;
  auto at = [&](const std::string& line) { return std::find(summary.begin(), summary.end(), line) - summary.begin(); };
  auto failures = at("Failures:"), root = at("Root Cause (first observed failure):");
  ASSERT_LT(root, static_cast<long>(summary.size()));
  EXPECT_LT(failures, at("[0]:"));
  EXPECT_LT(failures, at("[1]:"));
  EXPECT_EQ(at("  <NO_OTHER_FAILURES>"), static_cast<long>(summary.size()));
  // The rank whose entry follows "Root Cause" sets the exit code.
  const std::string& root_rank = summary[static_cast<size_t>(root) + 4];
  ASSERT_EQ(root_rank.rfind("  rank      : ", 0), 0u) << root_rank;
  int rank = root_rank[14] - '0';
  EXPECT_EQ(r.exit_code, 10 + rank);
  EXPECT_NE(at("  exitcode  : 10 (pid: <PID>)"), static_cast<long>(summary.size()));
  EXPECT_NE(at("  exitcode  : 11 (pid: <PID>)"), static_cast<long>(summary.size()));
}

}  // namespace
}  // namespace ember_run_test
