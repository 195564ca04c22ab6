// Console prefixing and the --tee/--redirects/--log-dir files, against
// torchrun's output for the same worker where torchrun's behaviour is defined.
#include <gtest/gtest.h>

#include <filesystem>
#include <regex>

#include "launcher_process.h"
#include "torchrun_reference.h"

namespace ember_run_test {
namespace {

const std::string kMonitor = "--monitor-interval=0.1";

// The only entry of <log_dir> is the run's directory, <run_id>_<random>.
std::string run_dir(const TempDir& logs) {
  std::vector<std::string> entries;
  for (auto& e : std::filesystem::directory_iterator(logs.path())) entries.push_back(e.path().string());
  EXPECT_EQ(entries.size(), 1u);
  return entries.empty() ? "" : entries[0];
}

std::string joined(const std::vector<std::string>& lines) {
  std::string out;
  for (size_t i = 0; i < lines.size(); ++i) out += (i ? "\n" : "") + lines[i];
  return out;
}

std::vector<std::string> without_tail(const std::vector<std::string>& lines) {
  std::vector<std::string> out;
  for (auto& l : lines)
    if (l.find("tail") == std::string::npos) out.push_back(l);
  return out;
}

TEST(LauncherOutput, TeeMatchesTorchrun) {
  TempDir logs;
  auto r = run_launcher(
      {"--nproc-per-node", "2", "--tee", "3", "--log-dir", logs.path(), kMonitor, worker("print_streams.sh")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  // torchrun glues an unterminated last line to the next header; ember-run
  // ends it, so it is compared on its own below.
  EXPECT_EQ(without_tail(worker_lines_by_rank(r.out)), reference_section("tee stdout"));
  EXPECT_EQ(worker_lines_by_rank(r.err), reference_section("tee stderr"));
  auto lines = split_lines(r.out);
  EXPECT_NE(std::find(lines.begin(), lines.end(), "[default0]:tail 0"), lines.end()) << r.out;
  EXPECT_NE(std::find(lines.begin(), lines.end(), "[default1]:tail 1"), lines.end()) << r.out;
  std::string dir = run_dir(logs);
  EXPECT_EQ(std::filesystem::path(dir).filename().string().rfind("none_", 0), 0u) << dir;
  for (int rank : {0, 1})
    for (std::string stream : {"stdout", "stderr"}) {
      std::string name = "attempt_0/" + std::to_string(rank) + "/" + stream + ".log";
      EXPECT_EQ(read_file(dir + "/" + name), joined(reference_section("tee_file " + name))) << name;
    }
}

TEST(LauncherOutput, RedirectsGoToFilesOnly) {
  TempDir logs;
  auto r = run_launcher(
      {"--nproc-per-node", "2", "--redirects", "3", "--log-dir", logs.path(), kMonitor, worker("print_streams.sh")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(worker_lines_by_rank(r.out).empty()) << r.out;
  EXPECT_TRUE(worker_lines_by_rank(r.err).empty()) << r.err;
  std::string dir = run_dir(logs);
  EXPECT_EQ(read_file(dir + "/attempt_0/1/stdout.log"), "out one 1\nout two 1\ntail 1");
  EXPECT_EQ(read_file(dir + "/attempt_0/0/stderr.log"), "err one 0\n");
}

TEST(LauncherOutput, PerRankRedirectMap) {
  TempDir logs;
  // Local rank 0: both streams to files; rank 1: stdout to its file, stderr to the console.
  auto r = run_launcher(
      {"--nproc-per-node", "2", "-r", "0:3,1:1", "--log-dir", logs.path(), kMonitor, worker("print_streams.sh")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_TRUE(worker_lines_by_rank(r.out).empty()) << r.out;
  EXPECT_EQ(worker_lines_by_rank(r.err), std::vector<std::string>{"[default1]:err one 1"});
  std::string dir = run_dir(logs);
  EXPECT_EQ(read_file(dir + "/attempt_0/0/stdout.log"), "out one 0\nout two 0\ntail 0");
  EXPECT_EQ(read_file(dir + "/attempt_0/0/stderr.log"), "err one 0\n");
  EXPECT_EQ(read_file(dir + "/attempt_0/1/stdout.log"), "out one 1\nout two 1\ntail 1");
  EXPECT_FALSE(file_exists(dir + "/attempt_0/1/stderr.log"));
}

TEST(LauncherOutput, PerRankTeeMapAndRedirectTogether) {
  TempDir logs;
  // Rank 0: stdout teed, stderr redirected; rank 1: nothing logged, all on the console.
  auto r = run_launcher({"--nproc-per-node", "2", "--tee", "0:1", "--redirects", "0:2", "--log-dir", logs.path(),
                         kMonitor, worker("print_streams.sh")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(worker_lines_by_rank(r.out),
            (std::vector<std::string>{"[default0]:out one 0", "[default0]:out two 0", "[default0]:tail 0",
                                      "[default1]:out one 1", "[default1]:out two 1", "[default1]:tail 1"}));
  EXPECT_EQ(worker_lines_by_rank(r.err), std::vector<std::string>{"[default1]:err one 1"});
  std::string dir = run_dir(logs);
  EXPECT_EQ(read_file(dir + "/attempt_0/0/stdout.log"), "out one 0\nout two 0\ntail 0");
  EXPECT_EQ(read_file(dir + "/attempt_0/0/stderr.log"), "err one 0\n");
  EXPECT_FALSE(file_exists(dir + "/attempt_0/1/stdout.log"));
  EXPECT_FALSE(file_exists(dir + "/attempt_0/1/stderr.log"));
}

TEST(LauncherOutput, TeeWithoutLogDirUsesATemporaryOne) {
  auto r = run_launcher({"--tee", "1", kMonitor, worker("print_streams.sh")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::smatch m;
  ASSERT_TRUE(std::regex_search(r.err, m, std::regex("log directory set to: (\\S+)"))) << r.err;
  std::string dir = m[1];
  EXPECT_EQ(read_file(dir + "/attempt_0/0/stdout.log"), "out one 0\nout two 0\ntail 0");
  std::error_code ec;
  std::filesystem::remove_all(std::filesystem::path(dir).parent_path(), ec);
}

TEST(LauncherOutput, LinesOfRanksNeverInterleave) {
  auto r = run_launcher({"--nproc-per-node", "4", kMonitor, worker("print_many.sh")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::vector<int> next(4, 0);
  const std::regex line("\\[default(\\d)\\]:line (\\d) (\\d+)");
  for (auto& l : split_lines(r.out)) {
    std::smatch m;
    ASSERT_TRUE(std::regex_match(l, m, line)) << l;
    int rank = std::stoi(m[1]);
    EXPECT_EQ(std::stoi(m[2]), rank);
    EXPECT_EQ(std::stoi(m[3]), next[static_cast<size_t>(rank)]++);
  }
  EXPECT_EQ(next, std::vector<int>(4, 300));
}

}  // namespace
}  // namespace ember_run_test
