// The variables each worker gets, against what Debian's torchrun gives the
// same worker (golden/torchrun_reference.txt).
#include <gtest/gtest.h>

#include <regex>
#include <set>
#include <thread>

#include "launcher_process.h"
#include "torchrun_reference.h"

namespace ember_run_test {
namespace {

const std::string kMonitor = "--monitor-interval=0.1";

// Our lines with the run's port replaced, and torchrun's agent-store flag
// checked separately: torchrun's agent hosts a store on MASTER_PORT, ember-run
// does not, so it tells workers False (docs/launcher.md).
std::vector<std::string> comparable(const std::vector<std::string>& lines, int port, bool ours) {
  std::vector<std::string> out;
  for (auto line : lines) {
    if (line.find("TORCHELASTIC_USE_AGENT_STORE=") != std::string::npos) {
      if (ours) EXPECT_NE(line.find("=False"), std::string::npos) << line;
      continue;
    }
    if (size_t p = line.find("MASTER_PORT=" + std::to_string(port)); p != std::string::npos)
      line = line.substr(0, p) + "MASTER_PORT=<PORT>";
    out.push_back(line);
  }
  return out;
}

TEST(LauncherEnv, SingleNodeMatchesTorchrun) {
  int port = free_port();
  auto r = run_launcher({"--nproc-per-node", "2", kMonitor, "--master-port", std::to_string(port),
                         worker("print_env.sh"), "a${local_rank}", "$$x"});
  ASSERT_FALSE(r.timed_out);
  ASSERT_EQ(r.exit_code, 0) << r.err;
  EXPECT_EQ(comparable(worker_lines_by_rank(r.out), port, true),
            comparable(reference_section("env_single_node stdout"), port, false));
}

TEST(LauncherEnv, TwoNodesMatchTorchrun) {
  int port = free_port();
  // Node 0 names the endpoint torchrun's legacy way, node 1 as --rdzv-endpoint.
  LauncherProcess node0({"--nnodes", "2", "--node-rank", "0", "--nproc-per-node", "2", kMonitor, "--master-addr",
                         "127.0.0.1", "--master-port", std::to_string(port), worker("print_env.sh")});
  LauncherProcess node1({"--nnodes=2", "--node_rank=1", "--nproc_per_node=1", kMonitor, "--rdzv-endpoint",
                         "127.0.0.1:" + std::to_string(port), "--rdzv-conf", "timeout=15", worker("print_env.sh")});
  auto r0 = node0.wait();
  auto r1 = node1.wait();
  ASSERT_EQ(r0.exit_code, 0) << r0.err;
  ASSERT_EQ(r1.exit_code, 0) << r1.err;
  EXPECT_EQ(comparable(worker_lines_by_rank(r0.out), port, true),
            comparable(reference_section("env_node0 stdout"), port, false));
  EXPECT_EQ(comparable(worker_lines_by_rank(r1.out), port, true),
            comparable(reference_section("env_node1 stdout"), port, false));
}

TEST(LauncherEnv, StandalonePicksAFreePortAndARunId) {
  auto r = run_launcher({"--standalone", "--nproc-per-node", "2", kMonitor, worker("print_env.sh")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::set<std::string> ports, run_ids;
  for (auto& l : worker_lines_by_rank(r.out)) {
    if (l.find("MASTER_PORT=") != std::string::npos) ports.insert(l.substr(l.find('=') + 1));
    if (l.find("TORCHELASTIC_RUN_ID=") != std::string::npos) run_ids.insert(l.substr(l.find('=') + 1));
  }
  ASSERT_EQ(ports.size(), 1u);
  ASSERT_EQ(run_ids.size(), 1u);
  int port = std::stoi(*ports.begin());
  EXPECT_GT(port, 0);
  EXPECT_LT(port, 65536);
  EXPECT_TRUE(std::regex_match(*run_ids.begin(),
                               std::regex("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}")))
      << *run_ids.begin();
}

TEST(LauncherEnv, C10dSingleNodePicksTheMasterPort) {
  // torchrun's documented "stacked single-node" form.
  auto r = run_launcher({"--rdzv-backend=c10d", "--rdzv-endpoint=localhost:0", "--nnodes=1", "--nproc-per-node=2",
                         "--rdzv-id", "stacked", kMonitor, worker("print_env.sh")});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  std::set<std::string> ports;
  for (auto& l : worker_lines_by_rank(r.out))
    if (l.find("MASTER_PORT=") != std::string::npos) ports.insert(l.substr(l.find('=') + 1));
  ASSERT_EQ(ports.size(), 1u);
  EXPECT_NE(*ports.begin(), "0");
  EXPECT_NE(*ports.begin(), "29400");
  EXPECT_NE(r.out.find("[default1]:TORCHELASTIC_RUN_ID=stacked"), std::string::npos) << r.out;
  EXPECT_NE(r.out.find("[default1]:WORLD_SIZE=2"), std::string::npos) << r.out;
}

TEST(LauncherEnv, RunIdRoleAndEnvironmentDefaults) {
  // PET_<OPTION> is torchrun's environment spelling of every option; the command line wins over it.
  auto r =
      run_launcher({"--run-id", "job7", "--role", "trainer", "--max_restarts", "4", kMonitor, worker("print_env.sh")},
                   {{"PET_NPROC_PER_NODE", "3"}, {"PET_MAX_RESTARTS", "1"}});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto lines = split_lines(r.out);
  auto has = [&](const std::string& l) { return std::find(lines.begin(), lines.end(), l) != lines.end(); };
  EXPECT_TRUE(has("[trainer2]:RANK=2"));
  EXPECT_TRUE(has("[trainer0]:WORLD_SIZE=3"));
  EXPECT_TRUE(has("[trainer1]:ROLE_NAME=trainer"));
  EXPECT_TRUE(has("[trainer1]:TORCHELASTIC_RUN_ID=job7"));
  EXPECT_TRUE(has("[trainer0]:TORCHELASTIC_MAX_RESTARTS=4"));
  EXPECT_TRUE(has("[trainer0]:OMP_NUM_THREADS=1"));
}

TEST(LauncherEnv, ArgumentsAfterTheProgramAreThePrograms) {
  auto r = run_launcher({kMonitor, worker("print_env.sh"), "--nproc-per-node", "5", "--", "-x"});
  ASSERT_EQ(r.exit_code, 0) << r.err;
  auto lines = split_lines(r.out);
  EXPECT_NE(std::find(lines.begin(), lines.end(), "[default0]:ARGS=--nproc-per-node 5 -- -x"), lines.end()) << r.out;
  EXPECT_NE(std::find(lines.begin(), lines.end(), "[default0]:WORLD_SIZE=1"), lines.end());
  EXPECT_NE(std::find(lines.begin(), lines.end(), "[default0]:OMP_NUM_THREADS=<unset>"), lines.end());
}

TEST(LauncherEnv, CpuCountAndSingleNodeRange) {
  auto start = std::chrono::steady_clock::now();
  // Default monitor interval (5 s): a group whose workers all exited is done at once.
  auto r = run_launcher({"--nnodes", "1:1", "--nproc-per-node", "cpu", worker("print_env.sh")});
  EXPECT_LT(std::chrono::steady_clock::now() - start, std::chrono::seconds(4));
  ASSERT_EQ(r.exit_code, 0) << r.err;
  const int n = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  auto lines = split_lines(r.out);
  EXPECT_NE(std::find(lines.begin(), lines.end(), "[default0]:WORLD_SIZE=" + std::to_string(n)), lines.end());
  EXPECT_NE(
      std::find(lines.begin(), lines.end(), "[default" + std::to_string(n - 1) + "]:RANK=" + std::to_string(n - 1)),
      lines.end());
}

}  // namespace
}  // namespace ember_run_test
