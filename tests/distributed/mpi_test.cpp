// The mpi backend on 2 ranks started by Open MPI's mpirun: every collective
// and point-to-point op gives what the Gloo group gives for the same inputs in
// the same processes, and all_reduce what torch.distributed's Gloo backend
// gives (tools/golden/gen_distributed_collectives.py).
#include <gtest/gtest.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <chrono>
#include <cstdlib>
#include <filesystem>
#include <optional>
#include <thread>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/distributed/distributed_c10d.h"
#include "ember/distributed/process_group_gloo.h"
#include "ember/distributed/process_group_mpi.h"
#include "ember/distributed/store/file_store.h"
#include "ember/ops/factory/factory.h"
#include "ember/torch.h"

extern char** environ;

namespace dist = ember::distributed;
using ember::Tensor;

namespace {

bool in_mpi_rank() { return std::getenv("EMBER_MPI_TEST_STORE") && std::getenv("OMPI_COMM_WORLD_SIZE"); }

std::optional<std::string> find_mpirun() {
  const char* path = std::getenv("PATH");
  std::string dirs = path ? path : "/usr/bin:/bin";
  size_t at = 0;
  while (at <= dirs.size()) {
    size_t colon = dirs.find(':', at);
    std::string dir = dirs.substr(at, colon == std::string::npos ? std::string::npos : colon - at);
    auto candidate = std::filesystem::path(dir.empty() ? "." : dir) / "mpirun";
    if (::access(candidate.c_str(), X_OK) == 0) return candidate.string();
    if (colon == std::string::npos) break;
    at = colon + 1;
  }
  return std::nullopt;
}

// Runs MpiWorker.<worker> of this binary on `ranks` MPI processes; returns
// mpirun's exit status (killing it at the deadline).
void run_mpi(const std::string& worker, int ranks = 2) {
  if (!dist::is_mpi_available()) GTEST_SKIP() << "Ember was built without MPI (libopenmpi-dev not found)";
  auto mpirun = find_mpirun();
  if (!mpirun) GTEST_SKIP() << "mpirun is not on PATH (Debian's openmpi-bin)";
  auto exe = std::filesystem::read_symlink("/proc/self/exe").string();
  auto store = std::filesystem::temp_directory_path() / ("ember_mpi_test_" + std::to_string(::getpid()) + "_" + worker);
  std::filesystem::remove(store);
  std::string asan = std::string("ASAN_OPTIONS=detect_leaks=0") +
                     (std::getenv("ASAN_OPTIONS") ? std::string(":") + std::getenv("ASAN_OPTIONS") : "");
  std::vector<std::string> args{*mpirun,
                                "--allow-run-as-root",
                                "--oversubscribe",
                                "-np",
                                std::to_string(ranks),
                                "-x",
                                "EMBER_MPI_TEST_STORE=" + store.string(),
                                "-x",
                                asan,
                                exe,
                                "--gtest_filter=MpiWorker." + worker};
  std::vector<char*> argv;
  for (auto& a : args) argv.push_back(a.data());
  argv.push_back(nullptr);
  pid_t pid = -1;
  ASSERT_EQ(posix_spawn(&pid, argv[0], nullptr, nullptr, argv.data(), environ), 0);
  auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(60);
  int status = 0;
  while (::waitpid(pid, &status, WNOHANG) == 0) {
    if (std::chrono::steady_clock::now() > deadline) {
      ::kill(pid, SIGTERM);
      ::waitpid(pid, &status, 0);
      std::filesystem::remove(store);
      FAIL() << "mpirun did not finish MpiWorker." << worker << " within 60 s";
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(20));
  }
  std::filesystem::remove(store);
  ASSERT_TRUE(WIFEXITED(status)) << "mpirun was killed by signal " << WTERMSIG(status);
  EXPECT_EQ(WEXITSTATUS(status), 0) << "a rank of MpiWorker." << worker << " failed (its output is above)";
}

// The inputs of tools/golden/gen_distributed_collectives.py: rank r holds (arange(n) + 1) * (r + 1) - r.
Tensor input_for(int rank, int64_t n, ember::ScalarType dtype) {
  return ((ember::arange(n, ember::kDouble) + 1) * (rank + 1) - rank).to(dtype);
}

Tensor golden(const std::string& name) {
  static ember::testing::Golden g("distributed_collectives.golden");
  return g[name];
}

// The reference: a Gloo group over the same processes.
std::shared_ptr<dist::ProcessGroupGloo> gloo_group() {
  auto store = std::make_shared<dist::FileStore>(std::getenv("EMBER_MPI_TEST_STORE"), 2);
  return std::make_shared<dist::ProcessGroupGloo>(store, dist::get_rank(), 2);
}

}  // namespace

#define MPI_WORKER(name)                                              \
  static void mpi_worker_##name();                                    \
  TEST(MpiWorker, name) {                                             \
    if (!in_mpi_rank()) GTEST_SKIP() << "an MPI rank, run by mpirun"; \
    mpi_worker_##name();                                              \
  }                                                                   \
  static void mpi_worker_##name()

TEST(MPI, AllReduceMatchesTorchGloo) { run_mpi("AllReduceMatchesTorchGloo"); }
MPI_WORKER(AllReduceMatchesTorchGloo) {
  dist::init_process_group("mpi");
  EXPECT_EQ(dist::get_backend(), "mpi");
  EXPECT_EQ(dist::get_world_size(), 2);
  EXPECT_EQ(dist::get_rank(), std::atoi(std::getenv("OMPI_COMM_WORLD_RANK")));
  int r = static_cast<int>(dist::get_rank());
  using O = dist::ReduceOp;
  std::vector<std::pair<O, std::string>> arith{
      {O::SUM, "sum"}, {O::PRODUCT, "product"}, {O::MIN, "min"}, {O::MAX, "max"}};
  std::vector<std::pair<O, std::string>> bits{{O::BAND, "band"}, {O::BOR, "bor"}, {O::BXOR, "bxor"}};
  for (auto dtype : {ember::kFloat, ember::kDouble, ember::kHalf, ember::kBFloat16, ember::kChar, ember::kShort,
                     ember::kInt, ember::kLong, ember::kByte}) {
    auto ops = arith;
    if (ember::is_floating_point(dtype)) ops.push_back({O::AVG, "avg"});
    if (ember::is_integral(dtype)) ops.insert(ops.end(), bits.begin(), bits.end());
    for (const auto& [op, name] : ops) {
      Tensor t = input_for(r, 6, dtype);
      dist::all_reduce(t, op);
      std::string key = std::string("all_reduce.") + ember::dtype_name(dtype) + "." + name;
      EXPECT_TENSOR_EQ(t, golden(key).to(dtype)) << key;
    }
  }
  Tensor b = ember::tensor({r == 0, false, true}, ember::kBool);
  dist::all_reduce(b);
  EXPECT_TENSOR_EQ(b, ember::tensor({true, false, true}, ember::kBool));
  Tensor c = input_for(r, 4, ember::kFloat).to(ember::kComplexFloat) * (r + 1.0);
  dist::all_reduce(c);
  EXPECT_TENSOR_CLOSE(ember::real(c), golden("all_reduce.complex64.sum.real"));
  EXPECT_EMBER_ERROR(dist::all_reduce(c, O::MAX), "all_reduce", "MAX", "complex64");
  EXPECT_EMBER_ERROR(dist::all_reduce(input_for(r, 3, ember::kInt), O::AVG), "all_reduce", "AVG", "int32");
  // Non-contiguous, through a contiguous copy; async with a Work.
  Tensor m = input_for(r, 12, ember::kFloat).reshape({3, 4});
  Tensor col = m.t();
  dist::all_reduce(col);
  EXPECT_TENSOR_EQ(m, golden("all_reduce.float32.sum_12").reshape({3, 4}));
  Tensor a = input_for(r, 1000, ember::kFloat);
  auto work = dist::all_reduce(a, O::SUM, nullptr, true);
  ASSERT_NE(work, nullptr);
  EXPECT_TRUE(work->wait());
  EXPECT_TRUE(work->is_success());
  EXPECT_TENSOR_EQ(a, input_for(0, 1000, ember::kFloat) + input_for(1, 1000, ember::kFloat));
  dist::destroy_process_group();
}

TEST(MPI, CollectivesEqualGloo) { run_mpi("CollectivesEqualGloo"); }
MPI_WORKER(CollectivesEqualGloo) {
  dist::init_process_group("mpi");
  auto mpi = dist::get_default_group();
  auto gloo = gloo_group();
  int r = static_cast<int>(mpi->rank());
  auto both = [&](auto&& op) {
    auto [m, g] = std::pair{op(*mpi), op(*gloo)};
    ASSERT_EQ(m.size(), g.size());
    for (size_t i = 0; i < m.size(); ++i) EXPECT_TENSOR_EQ(m[i], g[i]) << "output " << i;
  };
  both([&](dist::ProcessGroup& pg) {
    std::vector<Tensor> t{input_for(r, 5, ember::kLong)};
    dist::BroadcastOptions o;
    o.rootRank = 1;
    pg.broadcast(t, o)->wait();
    return t;
  });
  both([&](dist::ProcessGroup& pg) {
    std::vector<Tensor> t{input_for(r, 6, ember::kFloat)};
    dist::ReduceOptions o;
    o.rootRank = 0;
    o.reduceOp = dist::ReduceOp::MAX;
    pg.reduce(t, o)->wait();
    return r == 0 ? t : std::vector<Tensor>{};
  });
  both([&](dist::ProcessGroup& pg) {
    std::vector<std::vector<Tensor>> out{{ember::zeros({4}), ember::zeros({4})}};
    std::vector<Tensor> in{input_for(r, 4, ember::kFloat)};
    pg.allgather(out, in)->wait();
    return out[0];
  });
  both([&](dist::ProcessGroup& pg) {
    Tensor out = ember::zeros({2, 3}, ember::kHalf), in = input_for(r, 3, ember::kHalf);
    pg._allgather_base(out, in)->wait();
    return std::vector<Tensor>{out};
  });
  both([&](dist::ProcessGroup& pg) {
    std::vector<std::vector<Tensor>> out;
    if (r == 1) out.push_back({ember::zeros({3}, ember::kInt), ember::zeros({3}, ember::kInt)});
    std::vector<Tensor> in{input_for(r, 3, ember::kInt)};
    dist::GatherOptions o;
    o.rootRank = 1;
    pg.gather(out, in, o)->wait();
    return out.empty() ? std::vector<Tensor>{} : out[0];
  });
  both([&](dist::ProcessGroup& pg) {
    std::vector<Tensor> out{ember::zeros({2, 2})};
    std::vector<std::vector<Tensor>> in;
    if (r == 0)
      in.push_back({input_for(5, 4, ember::kFloat).reshape({2, 2}), input_for(6, 4, ember::kFloat).reshape({2, 2})});
    pg.scatter(out, in)->wait();
    return out;
  });
  for (auto op : {dist::ReduceOp::SUM, dist::ReduceOp::AVG}) {
    both([&](dist::ProcessGroup& pg) {
      std::vector<Tensor> out{ember::zeros({3})};
      std::vector<std::vector<Tensor>> in{{input_for(r, 3, ember::kFloat), input_for(r + 2, 3, ember::kFloat)}};
      dist::ReduceScatterOptions o;
      o.reduceOp = op;
      pg.reduce_scatter(out, in, o)->wait();
      return out;
    });
  }
  both([&](dist::ProcessGroup& pg) {
    // Uneven: rank r sends r + 1 rows to rank 0 and 2 - r rows to rank 1.
    Tensor in = input_for(r, 6, ember::kDouble).reshape({3, 2});
    std::vector<int64_t> in_splits{r + 1, 2 - r};
    std::vector<int64_t> out_splits = r == 0 ? std::vector<int64_t>{1, 2} : std::vector<int64_t>{2, 1};
    Tensor out = ember::zeros({3, 2}, ember::kDouble);
    pg.alltoall_base(out, in, out_splits, in_splits)->wait();
    return std::vector<Tensor>{out};
  });
  both([&](dist::ProcessGroup& pg) {
    std::vector<Tensor> in{input_for(r, 2, ember::kFloat), input_for(r + 3, 5, ember::kFloat)};
    std::vector<Tensor> out{ember::zeros({r == 0 ? 2 : 5}), ember::zeros({r == 0 ? 2 : 5})};
    pg.alltoall(out, in)->wait();
    return out;
  });
  mpi->barrier()->wait();
  EXPECT_EMBER_ERROR(mpi->monitored_barrier(), "monitored_barrier", "only GLOO");
  dist::destroy_process_group();
}

TEST(MPI, PointToPointAndSubgroups) { run_mpi("PointToPointAndSubgroups"); }
MPI_WORKER(PointToPointAndSubgroups) {
  dist::init_process_group("mpi");
  int r = static_cast<int>(dist::get_rank());
  Tensor payload = input_for(3, 8, ember::kFloat).reshape({2, 4});
  if (r == 0) {
    dist::send(payload, 1, nullptr, 5);
    dist::send(payload.t().contiguous(), 1, nullptr, 6);
    dist::send(ember::ones({3}), 1, nullptr, 7);
    dist::send(ember::ones({5}), 1, nullptr, 8);
  } else {
    Tensor got = ember::zeros({2, 4});
    dist::recv(got, 0, nullptr, 5);
    EXPECT_TENSOR_EQ(got, payload);
    // Into a non-contiguous destination.
    Tensor back = ember::zeros({2, 4});
    Tensor view = back.t();
    dist::recv(view, 0, nullptr, 6);
    EXPECT_TENSOR_EQ(back, payload);
    // From any source: the Work names the sender.
    Tensor any = ember::zeros({3});
    EXPECT_EQ(dist::recv(any, std::nullopt, nullptr, 7), 0);
    EXPECT_TENSOR_EQ(any, ember::ones({3}));
    // A message larger than the buffer is an error naming both sizes, not a truncation.
    Tensor small = ember::zeros({3});
    EXPECT_EMBER_ERROR(dist::recv(small, std::nullopt, nullptr, 8), "recv", "12-byte buffer");
  }
  EXPECT_EMBER_ERROR(dist::send(payload, r, nullptr, 1), "send", "itself");
  // A subgroup of rank 1 only; rank 0 is not a member.
  auto g = dist::new_group({1});
  if (r == 0) {
    EXPECT_EQ(g, dist::GroupMember::NON_GROUP_MEMBER());
  } else {
    ASSERT_NE(g, nullptr);
    EXPECT_EQ(g->size(), 1);
    Tensor t = ember::ones({2});
    dist::all_reduce(t, dist::ReduceOp::SUM, g);
    EXPECT_TENSOR_EQ(t, ember::ones({2}));
  }
  dist::barrier();
  dist::destroy_process_group();
}

// The moving collectives of collectives_test.cpp on 3 MPI ranks, against the
// values torch's Gloo backend gives for 3 ranks.
TEST(MPI, MovingCollectivesOnThreeRanks) { run_mpi("MovingCollectivesOnThreeRanks", 3); }
MPI_WORKER(MovingCollectivesOnThreeRanks) {
  dist::init_process_group("mpi");
  ASSERT_EQ(dist::get_world_size(), 3);
  int r = dist::get_rank(), n = dist::get_world_size();
  // broadcast from rank 1, of every dtype.
  for (auto dtype : {ember::kFloat, ember::kDouble, ember::kHalf, ember::kChar, ember::kLong, ember::kByte,
                     ember::kBool, ember::kComplexDouble}) {
    Tensor t = input_for(r, 5, ember::kDouble).to(dtype);
    dist::broadcast(t, 1);
    EXPECT_TENSOR_EQ(t, input_for(1, 5, ember::kDouble).to(dtype));
  }
  // reduce to rank 2.
  Tensor red = input_for(r, 6, ember::kFloat);
  dist::reduce(red, 2, dist::ReduceOp::MAX);
  if (r == 2) EXPECT_TENSOR_EQ(red, golden("reduce.max.3"));
  // all_gather into a list, into a tensor.
  std::vector<Tensor> list;
  for (int i = 0; i < n; ++i) list.push_back(ember::zeros({2, 3}, ember::kInt));
  dist::all_gather(list, input_for(r, 6, ember::kInt).reshape({2, 3}));
  for (int i = 0; i < n; ++i) EXPECT_TENSOR_EQ(list[i], input_for(i, 6, ember::kInt).reshape({2, 3}));
  Tensor into = ember::zeros({n * 4}, ember::kFloat);
  dist::all_gather_into_tensor(into, input_for(r, 4, ember::kFloat));
  EXPECT_TENSOR_EQ(into, golden("all_gather_into_tensor.3"));
  EXPECT_EMBER_ERROR(dist::all_gather_into_tensor(ember::zeros({5}), input_for(r, 4, ember::kFloat)),
                     "all_gather_into_tensor", "5 elements");
  EXPECT_EMBER_ERROR(dist::all_gather({ember::zeros({4})}, input_for(r, 4, ember::kFloat)), "all_gather",
                     "world_size (3)");
  // gather to rank 0.
  if (r == 0) {
    std::vector<Tensor> g{ember::zeros({4}), ember::zeros({4}), ember::zeros({4})};
    dist::gather(input_for(r, 4, ember::kFloat), g, 0);
    for (int i = 0; i < n; ++i) EXPECT_TENSOR_EQ(g[i], input_for(i, 4, ember::kFloat));
  } else {
    dist::gather(input_for(r, 4, ember::kFloat), std::nullopt, 0);
  }
  // scatter from rank 2.
  Tensor got = ember::zeros({2, 2}, ember::kDouble);
  if (r == 2) {
    std::vector<Tensor> s;
    for (int i = 0; i < n; ++i) s.push_back(input_for(i + 10, 4, ember::kDouble).reshape({2, 2}));
    dist::scatter(got, s, 2);
  } else {
    EXPECT_EMBER_ERROR(dist::scatter(got, std::vector<Tensor>{got, got, got}, 2), "scatter", "non-source");
    dist::scatter(got, std::nullopt, 2);
  }
  EXPECT_TENSOR_EQ(got, input_for(r + 10, 4, ember::kDouble).reshape({2, 2}));
  // reduce_scatter: rank r gets the sum of everyone's input_list[r].
  std::vector<Tensor> inputs;
  for (int i = 0; i < n; ++i) inputs.push_back(input_for(r + i, 3, ember::kFloat));
  Tensor rs = ember::zeros({3});
  dist::reduce_scatter(rs, inputs);
  EXPECT_TENSOR_EQ(rs, golden("reduce_scatter.3.rank" + std::to_string(r)));
  // all_to_all with lists of different sizes.
  std::vector<Tensor> outs, ins;
  for (int i = 0; i < n; ++i) {
    ins.push_back(ember::full({r + i + 1}, double(10 * r + i), ember::kLong));
    outs.push_back(ember::zeros({i + r + 1}, ember::kLong));
  }
  dist::all_to_all(outs, ins);
  for (int i = 0; i < n; ++i) EXPECT_TENSOR_EQ(outs[i], ember::full({i + r + 1}, double(10 * i + r), ember::kLong));
  // all_to_all_single, even and uneven.
  Tensor in = input_for(r, 6, ember::kFloat).reshape({3, 2});
  Tensor out = ember::zeros({3, 2});
  dist::all_to_all_single(out, in);
  EXPECT_TENSOR_EQ(out, golden("all_to_all_single.even.rank" + std::to_string(r)).reshape({3, 2}));
  // Rank r sends (j + 1) rows to rank j and receives (r + 1) rows from each rank.
  Tensor uin = input_for(r, 12, ember::kFloat).reshape({6, 2});
  Tensor uout = ember::zeros({3 * (r + 1), 2});
  dist::all_to_all_single(uout, uin, std::vector<int64_t>{r + 1, r + 1, r + 1}, std::vector<int64_t>{1, 2, 3});
  EXPECT_TENSOR_EQ(uout, golden("all_to_all_single.uneven.rank" + std::to_string(r)).reshape({3 * (r + 1), 2}));
  EXPECT_EMBER_ERROR(dist::all_to_all_single(uout, uin, std::nullopt, std::vector<int64_t>{1, 2}), "all_to_all_single",
                     "input_split_sizes has 2 entries");
  EXPECT_EMBER_ERROR(dist::broadcast(in, 7), "broadcast", "7", "out of range");
  dist::barrier();
  EXPECT_EMBER_ERROR(dist::monitored_barrier(nullptr, std::chrono::milliseconds(5000), true), "monitored_barrier");
  dist::destroy_process_group();
}
