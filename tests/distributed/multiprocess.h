#pragma once
// Multi-process tests: the parent test starts world_size copies of this test
// binary (fork + exec, so no OpenMP or Gloo thread is inherited), each running
// one DistWorker.* test with RANK, WORLD_SIZE, MASTER_ADDR and MASTER_PORT set,
// and checks how each one exited, killing them all at a deadline.
#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <string>
#include <vector>

namespace ember_dist_test {

struct RankExit {
  bool exited = false;  // normally, with `code`
  int code = -1;
  int signal = 0;  // killed by this signal
  bool timed_out = false;
};

struct Launch {
  int world_size = 2;
  std::chrono::milliseconds limit{20000};
  std::map<std::string, std::string> env;                      // for every rank
  std::map<int, std::map<std::string, std::string>> rank_env;  // per rank
};

// Runs DistWorker.<worker> on every rank; returns how each rank ended.
std::vector<RankExit> run_ranks(const std::string& worker, const Launch& launch);
// The usual check: every rank exited 0 (its gtest worker passed).
void expect_all_passed(const std::vector<RankExit>& exits);
// A port nothing listens on now (bind port 0 and read it back).
int free_port();

// In a worker: whether this process was started by run_ranks (otherwise the
// DistWorker tests skip), and its rank and world size.
bool in_worker();
int worker_rank();
int worker_world_size();

}  // namespace ember_dist_test

// A test body that runs only inside a launched rank.
#define DIST_WORKER(name)                                          \
  static void dist_worker_##name();                                \
  TEST(DistWorker, name) {                                         \
    if (!::ember_dist_test::in_worker()) GTEST_SKIP() << "a rank"; \
    dist_worker_##name();                                          \
  }                                                                \
  static void dist_worker_##name()
