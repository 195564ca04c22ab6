// Every collective on 2-4 real processes over loopback. Each rank's input is a
// function of its rank; the expected results are those torch.distributed's
// Gloo backend gives for the same inputs (tools/golden/gen_distributed_collectives.py).
#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/distributed/distributed_c10d.h"
#include "ember/distributed/store/hash_store.h"
#include "ember/ops/factory/factory.h"
#include "ember/torch.h"
#include "multiprocess.h"

namespace dist = ember::distributed;
using namespace std::chrono_literals;
using ember::Tensor;
using ember_dist_test::Launch;
using ember_dist_test::run_ranks;

namespace {

// The inputs the golden generator uses: rank r holds (arange(n) + 1) * (r + 1) - r.
Tensor input_for(int rank, int64_t n, ember::ScalarType dtype) {
  return ((ember::arange(n, ember::kDouble) + 1) * (rank + 1) - rank).to(dtype);
}

const ember::testing::Golden& golden() {
  static ember::testing::Golden g("distributed_collectives.golden");
  return g;
}

Tensor expected(const std::string& name) { return golden()[name]; }

void run(const std::string& worker, int world_size, std::map<std::string, std::string> env = {}) {
  Launch l;
  l.world_size = world_size;
  l.env = std::move(env);
  ember_dist_test::expect_all_passed(run_ranks(worker, l));
}

}  // namespace

TEST(Collectives, AllReduceEveryDtypeAndOp) { run("AllReduceEveryDtypeAndOp", 2); }
DIST_WORKER(AllReduceEveryDtypeAndOp) {
  dist::init_process_group("gloo");
  int r = dist::get_rank();
  EXPECT_EQ(dist::get_world_size(), 2);
  EXPECT_TRUE(dist::is_initialized());
  EXPECT_EQ(dist::get_backend(), "gloo");
  struct Case {
    ember::ScalarType dtype;
    std::vector<std::pair<dist::ReduceOp, std::string>> ops;
  };
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
      EXPECT_TENSOR_EQ(t, expected(key).to(dtype)) << key;
    }
  }
  // bool: SUM is OR, PRODUCT is AND (c10d's arithmetic on bool).
  Tensor b = ember::tensor({r == 0, false, true}, ember::kBool);
  dist::all_reduce(b);
  EXPECT_TENSOR_EQ(b, ember::tensor({true, false, true}, ember::kBool));
  Tensor b2 = ember::tensor({r == 0, false, true}, ember::kBool);
  dist::all_reduce(b2, O::PRODUCT);
  EXPECT_TENSOR_EQ(b2, ember::tensor({false, false, true}, ember::kBool));
  // complex SUM.
  Tensor c = input_for(r, 4, ember::kFloat).to(ember::kComplexFloat) * (r + 1.0);
  dist::all_reduce(c);
  EXPECT_TENSOR_CLOSE(ember::real(c), expected("all_reduce.complex64.sum.real"));
  EXPECT_EMBER_ERROR(dist::all_reduce(c, O::MAX), "all_reduce", "MAX", "complex64");
  EXPECT_EMBER_ERROR(dist::all_reduce(input_for(r, 3, ember::kInt), O::AVG), "all_reduce", "AVG", "int32");
  EXPECT_EMBER_ERROR(dist::all_reduce(input_for(r, 3, ember::kFloat), O::BAND), "all_reduce", "BAND");
  // A non-contiguous tensor is reduced in place through a contiguous copy.
  Tensor m = input_for(r, 12, ember::kFloat).reshape({3, 4});
  Tensor col = m.t();
  dist::all_reduce(col);
  EXPECT_TENSOR_EQ(m, expected("all_reduce.float32.sum_12").reshape({3, 4}));
  // async: the Work completes, and wait() returns true.
  Tensor a = input_for(r, 1000, ember::kFloat);
  auto work = dist::all_reduce(a, O::SUM, nullptr, true);
  ASSERT_NE(work, nullptr);
  EXPECT_TRUE(work->wait());
  EXPECT_TRUE(work->is_completed());
  EXPECT_TRUE(work->is_success());
  EXPECT_TENSOR_EQ(a, input_for(0, 1000, ember::kFloat) + input_for(1, 1000, ember::kFloat));
  // Empty tensors pass through.
  Tensor e = ember::empty({0}, ember::kFloat);
  dist::all_reduce(e);
  dist::destroy_process_group();
  EXPECT_FALSE(dist::is_initialized());
}

TEST(Collectives, MovingCollectives) { run("MovingCollectives", 3); }
DIST_WORKER(MovingCollectives) {
  dist::init_process_group("gloo");
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
  if (r == 2) EXPECT_TENSOR_EQ(red, expected("reduce.max.3"));
  // all_gather into a list, into a tensor.
  std::vector<Tensor> list;
  for (int i = 0; i < n; ++i) list.push_back(ember::zeros({2, 3}, ember::kInt));
  dist::all_gather(list, input_for(r, 6, ember::kInt).reshape({2, 3}));
  for (int i = 0; i < n; ++i) EXPECT_TENSOR_EQ(list[i], input_for(i, 6, ember::kInt).reshape({2, 3}));
  Tensor into = ember::zeros({n * 4}, ember::kFloat);
  dist::all_gather_into_tensor(into, input_for(r, 4, ember::kFloat));
  EXPECT_TENSOR_EQ(into, expected("all_gather_into_tensor.3"));
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
  EXPECT_TENSOR_EQ(rs, expected("reduce_scatter.3.rank" + std::to_string(r)));
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
  EXPECT_TENSOR_EQ(out, expected("all_to_all_single.even.rank" + std::to_string(r)).reshape({3, 2}));
  // Rank r sends (j + 1) rows to rank j and receives (r + 1) rows from each rank.
  Tensor uin = input_for(r, 12, ember::kFloat).reshape({6, 2});
  Tensor uout = ember::zeros({3 * (r + 1), 2});
  dist::all_to_all_single(uout, uin, std::vector<int64_t>{r + 1, r + 1, r + 1}, std::vector<int64_t>{1, 2, 3});
  EXPECT_TENSOR_EQ(uout, expected("all_to_all_single.uneven.rank" + std::to_string(r)).reshape({3 * (r + 1), 2}));
  EXPECT_EMBER_ERROR(dist::all_to_all_single(uout, uin, std::nullopt, std::vector<int64_t>{1, 2}), "all_to_all_single",
                     "input_split_sizes has 2 entries");
  EXPECT_EMBER_ERROR(dist::broadcast(in, 7), "broadcast", "7", "out of range");
  dist::barrier();
  dist::monitored_barrier(nullptr, 5000ms, true);
  dist::destroy_process_group();
}

TEST(Collectives, PointToPoint) { run("PointToPoint", 2); }
DIST_WORKER(PointToPoint) {
  dist::init_process_group("gloo");
  int r = dist::get_rank(), peer = 1 - r;
  if (r == 0) {
    dist::send(input_for(0, 8, ember::kDouble), 1);
    Tensor back = ember::zeros({8}, ember::kDouble);
    EXPECT_EQ(dist::recv(back), 1);  // any source
    EXPECT_TENSOR_EQ(back, input_for(0, 8, ember::kDouble) * 2);
  } else {
    Tensor t = ember::zeros({8}, ember::kDouble);
    EXPECT_EQ(dist::recv(t, 0), 0);
    dist::send(t * 2, 0);
  }
  // batch_isend_irecv: both ranks send and receive at once, with tags, into a non-contiguous tensor.
  Tensor mine = input_for(r, 6, ember::kFloat).reshape({2, 3});
  Tensor theirs = ember::zeros({3, 2}).t();
  std::vector<dist::P2POp> ops{dist::P2POp(dist::isend, mine, peer, nullptr, 3),
                               dist::P2POp(dist::irecv, theirs, peer, nullptr, 3)};
  for (auto& w : dist::batch_isend_irecv(ops)) w->wait();
  EXPECT_TENSOR_EQ(theirs, input_for(peer, 6, ember::kFloat).reshape({2, 3}));
  EXPECT_EMBER_ERROR(dist::send(mine, r), "send", "itself");
  dist::destroy_process_group();
}

TEST(Collectives, Subgroups) { run("Subgroups", 4); }
DIST_WORKER(Subgroups) {
  dist::init_process_group("gloo", "env://", 20000ms);
  int r = dist::get_rank();
  auto odd = dist::new_group({1, 3});
  auto even = dist::new_group({0, 2});
  auto mine = r % 2 ? odd : even;
  EXPECT_EQ(dist::get_rank(odd), r % 2 ? r / 2 : -1);
  EXPECT_EQ(dist::get_world_size(mine), 2);
  Tensor t = ember::full({3}, double(r));
  dist::all_reduce(t, dist::ReduceOp::SUM, mine);
  EXPECT_TENSOR_EQ(t, ember::full({3}, r % 2 ? 4.0 : 2.0));
  // src is a global rank; non-members' calls do nothing.
  Tensor b = ember::full({2}, double(r));
  dist::broadcast(b, 3, odd);
  EXPECT_TENSOR_EQ(b, ember::full({2}, r % 2 ? 3.0 : double(r)));
  EXPECT_EQ(dist::get_global_rank(mine, 1), r % 2 ? 3 : 2);
  if (r % 2) EXPECT_EMBER_ERROR(dist::broadcast(b, 0, odd), "broadcast", "0", "not part of");
  dist::destroy_process_group();
}

TEST(Collectives, InitMethods) {
  std::string path = std::filesystem::temp_directory_path() / ("ember_dist_file_" + std::to_string(::getpid()));
  std::filesystem::remove(path);
  run("InitFile", 2, {{"EMBER_TEST_FILE", path}});
  run("InitTcp", 2);
}
DIST_WORKER(InitFile) {
  int r = ember_dist_test::worker_rank();
  dist::init_process_group("gloo", "file://" + std::string(std::getenv("EMBER_TEST_FILE")), 20000ms, 2, r);
  Tensor t = ember::ones({4});
  dist::all_reduce(t);
  EXPECT_TENSOR_EQ(t, ember::full({4}, 2.0));
  dist::destroy_process_group();
}
DIST_WORKER(InitTcp) {
  std::string url = std::string("tcp://") + std::getenv("MASTER_ADDR") + ":" + std::getenv("MASTER_PORT");
  dist::init_process_group(dist::Backend::GLOO, url, 20000ms, 2, ember_dist_test::worker_rank());
  EXPECT_EMBER_ERROR(dist::init_process_group("gloo"), "twice");
  Tensor t = ember::ones({4});
  dist::all_reduce(t);
  EXPECT_TENSOR_EQ(t, ember::full({4}, 2.0));
  dist::destroy_process_group();
}

TEST(Collectives, BadArguments) {
  EXPECT_FALSE(dist::is_initialized());
  EXPECT_EMBER_ERROR(dist::all_reduce(ember::ones({2})), "all_reduce", "init_process_group");
  EXPECT_EMBER_ERROR(dist::init_process_group("nccl"), "nccl", "not available");
  EXPECT_EMBER_ERROR(dist::init_process_group("gloo", "foo://x"), "foo://");
  EXPECT_EMBER_ERROR(dist::init_process_group("gloo", "tcp://127.0.0.1:99999", dist::default_pg_timeout, 2, 0),
                     "invalid port");
  EXPECT_EMBER_ERROR(dist::init_process_group("gloo", "tcp://127.0.0.1:1234", 1000ms, 2, 5), "rank 5", "world_size 2");
  EXPECT_EMBER_ERROR(
      dist::init_process_group("gloo", std::nullopt, 1000ms, -1, -1, std::make_shared<dist::HashStore>()),
      "world_size");
}
