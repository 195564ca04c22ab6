// Faults on real processes: a rank that never enters a collective, a rank that
// dies, a wrong world size, ranks missing from monitored_barrier, tensors that
// differ across ranks. Every live rank must get an ember::Error naming the op
// and the ranks, within the timeout, never a hang.
#include <gtest/gtest.h>
#include <signal.h>
#include <unistd.h>

#include <thread>

#include "common/test_util.h"
#include "ember/distributed/distributed_c10d.h"
#include "ember/ops/factory/factory.h"
#include "ember/torch.h"
#include "multiprocess.h"

namespace dist = ember::distributed;
using namespace std::chrono_literals;
using ember::Tensor;
using ember_dist_test::Launch;
using ember_dist_test::run_ranks;
using Clock = std::chrono::steady_clock;

namespace {

Launch launch(int world_size, std::map<std::string, std::string> env = {}) {
  Launch l;
  l.world_size = world_size;
  l.env = std::move(env);
  l.limit = 15000ms;
  return l;
}

double seconds_since(Clock::time_point t) { return std::chrono::duration<double>(Clock::now() - t).count(); }

}  // namespace

TEST(Faults, CollectiveTimeoutNamesTheMissingRank) {
  ember_dist_test::expect_all_passed(run_ranks("CollectiveTimeout", launch(2)));
}
DIST_WORKER(CollectiveTimeout) {
  dist::init_process_group("gloo", std::nullopt, 1500ms);
  if (dist::get_rank() == 0) {
    auto work = dist::all_reduce(ember::ones({4}), dist::ReduceOp::SUM, nullptr, true);
    EXPECT_EMBER_ERROR(work->wait(200ms), "Work.wait", "all_reduce", "did not complete within 200 ms");
    auto start = Clock::now();
    EXPECT_EMBER_ERROR(work->wait(), "all_reduce", "timed out", "default_pg", "rank 0 of 2", "ranks [1]",
                       "not entered");
    EXPECT_LT(seconds_since(start), 4.0);
    EXPECT_TRUE(work->is_completed());
    EXPECT_FALSE(work->is_success());
    dist::get_default_group()->getRank();
  } else {
    std::this_thread::sleep_for(2500ms);  // alive, beating, but never calling all_reduce
  }
  dist::destroy_process_group();
}

TEST(Faults, DeadRankIsDetected) {
  auto exits = run_ranks("DeadRank", launch(3));
  EXPECT_EQ(exits[2].signal, SIGKILL);
  exits.pop_back();
  ember_dist_test::expect_all_passed(exits);
}
DIST_WORKER(DeadRank) {
  dist::init_process_group("gloo", std::nullopt, 3000ms);
  if (dist::get_rank() == 2) ::raise(SIGKILL);
  std::this_thread::sleep_for(100ms);
  auto start = Clock::now();
  EXPECT_EMBER_ERROR(dist::all_reduce(ember::ones({1000})), "all_reduce", "default_pg", "ranks [2] stopped responding");
  // The group is unusable now: the next collective says so at once.
  auto again = Clock::now();
  EXPECT_EMBER_ERROR(dist::barrier(), "barrier", "unusable after an earlier failure", "ranks [2] stopped responding");
  EXPECT_LT(seconds_since(again), 1.0);
  EXPECT_LT(seconds_since(start), 6.5);  // within the timeout plus the heartbeat rounds of the diagnosis
  std::this_thread::sleep_for(1000ms);   // stay alive while the other live rank diagnoses
  dist::destroy_process_group();
}

TEST(Faults, DeadStoreHostIsDetected) {
  auto exits = run_ranks("DeadRankZero", launch(3));
  EXPECT_EQ(exits[0].signal, SIGKILL);
  exits.erase(exits.begin());
  ember_dist_test::expect_all_passed(exits);
}
DIST_WORKER(DeadRankZero) {
  dist::init_process_group("gloo", std::nullopt, 3000ms);
  dist::barrier();  // everyone is connected; then the store's host dies
  if (dist::get_rank() == 0) ::raise(SIGKILL);
  std::this_thread::sleep_for(100ms);
  auto start = Clock::now();
  EXPECT_EMBER_ERROR(dist::all_reduce(ember::ones({1000})), "all_reduce", "default_pg");
  EXPECT_LT(seconds_since(start), 6.5);  // within the timeout plus the heartbeat rounds of the diagnosis
  dist::destroy_process_group();
}

TEST(Faults, WrongWorldSize) {
  // Two processes told the world has three: both name the rank that never came.
  ember_dist_test::expect_all_passed(run_ranks("WrongWorldSize", launch(2, {{"WORLD_SIZE", "3"}})));
  // Two processes that disagree on the world size.
  Launch l = launch(2);
  l.rank_env[1] = {{"WORLD_SIZE", "3"}};
  ember_dist_test::expect_all_passed(run_ranks("DisagreeingWorldSize", l));
}
DIST_WORKER(WrongWorldSize) {
  // Rank 0's store may go down first: the others then say so, still naming rank 2.
  EXPECT_EMBER_ERROR(dist::init_process_group("gloo", std::nullopt, 1000ms), "init_process_group", "ranks [2]",
                     "world_size 3");
  EXPECT_FALSE(dist::is_initialized());
}
DIST_WORKER(DisagreeingWorldSize) {
  EXPECT_EMBER_ERROR(dist::init_process_group("gloo", std::nullopt, 3000ms), "init_process_group", "world_size");
}

TEST(Faults, MonitoredBarrierNamesAbsentRanks) {
  ember_dist_test::expect_all_passed(run_ranks("MonitoredBarrier", launch(4)));
}
DIST_WORKER(MonitoredBarrier) {
  dist::init_process_group("gloo", std::nullopt, 5000ms);
  int r = dist::get_rank();
  if (r == 0) {
    EXPECT_EMBER_ERROR(dist::monitored_barrier(nullptr, 800ms, true), "monitored_barrier", "ranks 2, 3",
                       "failed to pass monitoredBarrier in 800 ms");
  } else if (r == 1) {
    EXPECT_EMBER_ERROR(dist::monitored_barrier(nullptr, 800ms), "monitored_barrier", "rank 1", "timed out", "rank 0");
  } else {
    std::this_thread::sleep_for(1500ms);
  }
  dist::destroy_process_group();
}

TEST(Faults, MismatchedTensorsAreReported) {
  ember_dist_test::expect_all_passed(
      run_ranks("MismatchedTensors", launch(2)));  // on by default: Gloo would abort on a size mismatch
}
DIST_WORKER(MismatchedTensors) {
  dist::init_process_group("gloo", std::nullopt, 3000ms);
  int r = dist::get_rank();
  EXPECT_EMBER_ERROR(dist::all_reduce(ember::ones({r == 0 ? 4 : 5})), "all_reduce", "different tensors", "float32 [4]",
                     "float32 [5]");
  EXPECT_EMBER_ERROR(dist::broadcast(ember::ones({3}, r == 0 ? ember::kFloat : ember::kDouble), 0), "broadcast",
                     "float32 [3]", "float64 [3]");
  // all_to_all_single whose split sizes disagree across ranks: rank 0 sends 1
  // row to rank 1, which expects 2. Both ranks raise.
  Tensor in = ember::ones({3, 2}), out = ember::zeros({3, 2});
  std::vector<int64_t> in_splits = r == 0 ? std::vector<int64_t>{2, 1} : std::vector<int64_t>{1, 2};
  std::vector<int64_t> out_splits{2, 1};
  EXPECT_EMBER_ERROR(dist::all_to_all_single(out, in, out_splits, in_splits), "all_to_all_single",
                     "split sizes or tensor sizes differ");
  // The group stays usable: the header exchange kept the ranks in step.
  Tensor t = ember::ones({3});
  dist::all_reduce(t);
  EXPECT_TENSOR_EQ(t, ember::full({3}, 2.0));
  dist::destroy_process_group();
}
