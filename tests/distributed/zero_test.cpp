// ZeroRedundancyOptimizer on 2 processes with DDP: the parameters after every
// step equal a plain optimizer's on one process and the whole batch; each rank
// holds only its shard's state (torch's greedy partition), and the
// consolidated state equals the plain optimizer's.
#include <gtest/gtest.h>

#include "common/test_util.h"
#include "ember/distributed/ddp/distributed_data_parallel.h"
#include "ember/distributed/distributed_c10d.h"
#include "ember/distributed/optim/zero_redundancy_optimizer.h"
#include "ember/torch.h"
#include "multiprocess.h"

namespace dist = ember::distributed;
namespace nn = ember::nn;
namespace F = ember::nn::functional;
using namespace std::chrono_literals;
using dist::optim::ZeroRedundancyOptimizer;
using ember::Tensor;
using nn::parallel::DistributedDataParallel;

namespace {

void run(const std::string& worker, std::map<std::string, std::string> env = {}) {
  ember_dist_test::Launch l;
  l.env = std::move(env);
  ember_dist_test::expect_all_passed(ember_dist_test::run_ranks(worker, l));
}

nn::Sequential make_net() {
  ember::manual_seed(31);
  return nn::Sequential(nn::Linear(4, 8), nn::Tanh(), nn::Linear(8, 3));
}

}  // namespace

TEST(ZeRO, MatchesAdamOnOneProcess) { run("ZeroAdam"); }
TEST(ZeRO, ParametersAsBucketView) { run("ZeroAdam", {{"EMBER_ZERO_VIEW", "1"}}); }
DIST_WORKER(ZeroAdam) {
  dist::init_process_group("gloo", std::nullopt, 20000ms);
  int r = dist::get_rank();
  bool view = std::getenv("EMBER_ZERO_VIEW") != nullptr;
  auto net = make_net(), reference = make_net();
  DistributedDataParallel ddp(net);
  auto adam = dist::optim::optimizer_class<ember::optim::Adam>(ember::optim::AdamOptions(0.05));
  ZeroRedundancyOptimizer zero(ddp->parameters(), adam, nullptr, view);
  ember::optim::Adam ref_opt(reference->parameters(), ember::optim::AdamOptions(0.05));
  // Sizes 32 (0.weight), 8 (0.bias), 24 (2.weight), 3 (2.bias): by decreasing
  // size to the least-loaded rank: rank 0 {32, 3}, rank 1 {24, 8}.
  auto params = ddp->parameters();
  const auto& part = zero._partition_parameters();
  ASSERT_EQ(part.size(), 2u);
  auto same = [](const std::vector<Tensor>& a, std::vector<Tensor> b) {
    if (a.size() != b.size()) return false;
    for (size_t i = 0; i < a.size(); ++i)
      if (!a[i].is_same(b[i])) return false;
    return true;
  };
  EXPECT_TRUE(same(part[0].at(0).params(), {params[0], params[3]}));
  EXPECT_TRUE(same(part[1].at(0).params(), {params[2], params[1]}));
  ember::manual_seed(5);
  Tensor x = ember::randn({8, 4}), y = ember::randn({8, 3});
  for (int step = 0; step < 3; ++step) {
    zero.zero_grad();
    F::mse_loss(ddp->forward(x.narrow(0, r * 4, 4)), y.narrow(0, r * 4, 4)).backward();
    zero.step();
    ref_opt.zero_grad();
    F::mse_loss(reference->forward(x), y).backward();
    ref_opt.step();
    auto ref = reference->parameters();
    for (size_t i = 0; i < params.size(); ++i)
      EXPECT_TRUE(ember::allclose(params[i], ref[i], 1e-5, 1e-6)) << "step " << step << " parameter " << i;
  }
  EXPECT_EQ(zero.optim().state().size(), 2u);  // only this rank's shard
  // Consolidated on rank 0: the plain optimizer's state, parameter by parameter.
  zero.consolidate_state_dict(0);
  if (r == 0) {
    auto full = zero.state_dict();
    ASSERT_EQ(full.size(), params.size());
    auto ref = reference->parameters();
    for (size_t i = 0; i < params.size(); ++i) {
      auto& mine = dynamic_cast<ember::optim::AdamParamState&>(*full.at(ember::optim::param_key(params[i])));
      auto& want = dynamic_cast<ember::optim::AdamParamState&>(*ref_opt.state().at(ember::optim::param_key(ref[i])));
      EXPECT_EQ(mine.step(), want.step());
      EXPECT_TRUE(ember::allclose(mine.exp_avg(), want.exp_avg(), 1e-5, 1e-7)) << "parameter " << i;
      EXPECT_TRUE(ember::allclose(mine.exp_avg_sq(), want.exp_avg_sq(), 1e-5, 1e-9)) << "parameter " << i;
    }
  } else {
    EXPECT_EMBER_ERROR(zero.state_dict(), "state_dict", "has not been consolidated", "consolidate_state_dict(to=1)");
  }
  // Every rank consolidates its own copy, and a fresh optimizer loads its shard of it.
  zero.consolidate_state_dict(1);
  if (r == 1) {
    ZeroRedundancyOptimizer fresh(ddp->parameters(), adam);
    fresh.load_state_dict(zero.state_dict());
    ASSERT_EQ(fresh.optim().state().size(), 2u);
    for (const auto& [key, state] : zero.optim().state())
      EXPECT_TRUE(ember::optim::same_state(*state, *fresh.optim().state().at(key)));
  } else {
    ZeroRedundancyOptimizer fresh(ddp->parameters(), adam);
  }
  EXPECT_EMBER_ERROR(zero.consolidate_state_dict(2), "consolidate_state_dict", "to=2");
  EXPECT_EMBER_ERROR(ZeroRedundancyOptimizer(ddp->parameters(), adam, nullptr, false, true), "overlap_with_ddp");
  dist::destroy_process_group();
}

TEST(ZeRO, JoinWithDdpOnUnevenInputs) { run("ZeroJoin"); }
DIST_WORKER(ZeroJoin) {
  dist::init_process_group("gloo", std::nullopt, 20000ms);
  int r = dist::get_rank();
  auto net = make_net(), reference = make_net();
  DistributedDataParallel ddp(net, nn::parallel::DistributedDataParallelOptions().bucket_cap_mb(1e-4));
  auto sgd = dist::optim::optimizer_class<ember::optim::SGD>(ember::optim::SGDOptions(0.2));
  ZeroRedundancyOptimizer zero(ddp->parameters(), sgd);
  ember::optim::SGD ref_opt(reference->parameters(), ember::optim::SGDOptions(0.2));
  ember::manual_seed(12);
  std::vector<std::vector<std::pair<Tensor, Tensor>>> data(2);
  for (int rank = 0; rank < 2; ++rank)
    for (int b = 0; b < (rank == 0 ? 2 : 4); ++b) data[rank].emplace_back(ember::randn({3, 4}), ember::randn({3, 3}));
  {
    dist::algorithms::Join join({ddp.get(), &zero});
    for (const auto& [x, y] : data[r]) {
      zero.zero_grad();
      F::mse_loss(ddp->forward(x), y).backward();
      zero.step();
    }
  }
  // The reference: per step, the ranks still training, their gradients summed over 2.
  for (int step = 0; step < 4; ++step) {
    std::vector<Tensor> sum;
    for (int rank = 0; rank < 2; ++rank) {
      if (step >= static_cast<int>(data[rank].size())) continue;
      ref_opt.zero_grad();
      F::mse_loss(reference->forward(data[rank][step].first), data[rank][step].second).backward();
      auto ps = reference->parameters();
      if (sum.empty())
        for (auto& p : ps) sum.push_back(p.grad().clone());
      else
        for (size_t i = 0; i < ps.size(); ++i) sum[i].add_(ps[i].grad());
    }
    auto ps = reference->parameters();
    for (size_t i = 0; i < ps.size(); ++i) ps[i].mutable_grad() = sum[i] / 2;
    ref_opt.step();
  }
  auto mine = ddp->parameters(), want = reference->parameters();
  for (size_t i = 0; i < mine.size(); ++i) EXPECT_TRUE(ember::allclose(mine[i], want[i], 1e-5, 1e-6)) << i;
  dist::destroy_process_group();
}

TEST(ZeRO, AddParamGroup) { run("ZeroAddGroup"); }
TEST(ZeRO, AddParamGroupWithBucketView) { run("ZeroAddGroup", {{"EMBER_ZERO_VIEW", "1"}}); }
DIST_WORKER(ZeroAddGroup) {
  dist::init_process_group("gloo", std::nullopt, 20000ms);
  bool view = std::getenv("EMBER_ZERO_VIEW") != nullptr;
  auto net = make_net(), reference = make_net();
  Tensor extra = ember::full({5}, 0.5).requires_grad_(), ref_extra = extra.detach().clone().requires_grad_();
  auto adam = dist::optim::optimizer_class<ember::optim::Adam>(ember::optim::AdamOptions(0.05));
  ZeroRedundancyOptimizer zero(net->parameters(), adam, nullptr, view);
  ember::optim::Adam ref_opt(reference->parameters(), ember::optim::AdamOptions(0.05));
  ember::manual_seed(5);
  Tensor x = ember::randn({4, 4}), y = ember::randn({4, 3});
  for (int step = 0; step < 4; ++step) {
    if (step == 2) {
      zero.add_param_group(ember::optim::OptimizerParamGroup({extra}));
      ref_opt.add_param_group(ember::optim::OptimizerParamGroup({ref_extra}));
    }
    zero.zero_grad();
    (F::mse_loss(net->forward(x), y) + (extra * extra).sum()).backward();
    zero.step();
    ref_opt.zero_grad();
    (F::mse_loss(reference->forward(x), y) + (ref_extra * ref_extra).sum()).backward();
    ref_opt.step();
  }
  auto mine = net->parameters(), want = reference->parameters();
  for (size_t i = 0; i < mine.size(); ++i) EXPECT_TRUE(ember::allclose(mine[i], want[i], 1e-5, 1e-6)) << i;
  EXPECT_TRUE(ember::allclose(extra, ref_extra, 1e-5, 1e-6));
  EXPECT_EQ(zero._partition_parameters().at(0).size(), 2u);
  dist::destroy_process_group();
}
