// --max-restarts: the whole group restarts with TORCHELASTIC_RESTART_COUNT
// increased, and a worker that checkpoints resumes where it stopped.
#include <gtest/gtest.h>

#include <filesystem>

#include "launcher_process.h"
#include "torchrun_reference.h"

namespace ember_run_test {
namespace {

const std::string kMonitor = "--monitor-interval=0.1";

bool has_line(const std::string& text, const std::string& line) {
  auto lines = split_lines(text);
  return std::find(lines.begin(), lines.end(), line) != lines.end();
}

TEST(LauncherRestart, RestartsUpToMaxRestartsAsTorchrun) {
  auto r = run_launcher({"--nproc-per-node", "2", "--max-restarts", "2", kMonitor, worker("always_fail.sh")});
  ASSERT_FALSE(r.timed_out);
  EXPECT_EQ(r.exit_code, 3) << r.err;
  EXPECT_EQ(worker_lines_by_rank(r.out), reference_section("restarts stdout"));
  EXPECT_NE(r.err.find("2/2 attempts left; will restart worker group"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("1/2 attempts left; will restart worker group"), std::string::npos) << r.err;
  EXPECT_NE(r.err.find("always_fail.sh FAILED"), std::string::npos) << r.err;
}

TEST(LauncherRestart, CheckpointingWorkerResumesAfterACrash) {
  TempDir out;
  TempDir logs;
  auto r = run_launcher({"--nproc-per-node", "2", "--max-restarts", "1", "--tee", "1", "--log-dir", logs.path(),
                         kMonitor, worker("checkpointing.sh")},
                        {{"WORKER_OUT", out.path()}});
  ASSERT_FALSE(r.timed_out);
  ASSERT_EQ(r.exit_code, 0) << r.out << r.err;
  EXPECT_TRUE(has_line(r.out, "[default1]:crashing after step 3")) << r.out;
  EXPECT_TRUE(has_line(r.out, "[default1]:resumed from step 3 (restart 1)")) << r.out;
  EXPECT_TRUE(has_line(r.out, "[default0]:done at step 6")) << r.out;
  EXPECT_TRUE(has_line(r.out, "[default1]:done at step 6")) << r.out;
  EXPECT_EQ(read_file(out.file("ckpt.1")), "6\n");
  // Each attempt has its own log directory, as torchrun's attempt_<restart_count>.
  std::string run_dir;
  for (auto& e : std::filesystem::directory_iterator(logs.path())) run_dir = e.path().string();
  EXPECT_NE(read_file(run_dir + "/attempt_0/1/stdout.log").find("crashing after step 3"), std::string::npos);
  EXPECT_NE(read_file(run_dir + "/attempt_1/1/stdout.log").find("resumed from step 3"), std::string::npos);
}

}  // namespace
}  // namespace ember_run_test
