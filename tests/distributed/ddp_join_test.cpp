// DDP on 2 processes with uneven inputs (join), the bucket rebuild from the
// first iteration's ready order, and static_graph: after every step the
// parameters equal a one-process computation of what torch's DDP does.
#include <gtest/gtest.h>

#include "common/test_util.h"
#include "ember/distributed/ddp/distributed_data_parallel.h"
#include "ember/distributed/distributed_c10d.h"
#include "ember/torch.h"
#include "multiprocess.h"

namespace dist = ember::distributed;
namespace nn = ember::nn;
namespace F = ember::nn::functional;
using namespace std::chrono_literals;
using ember::Tensor;
using nn::parallel::DistributedDataParallel;
using nn::parallel::DistributedDataParallelOptions;

namespace {

void run(const std::string& worker, std::map<std::string, std::string> env = {}) {
  ember_dist_test::Launch l;
  l.env = std::move(env);
  ember_dist_test::expect_all_passed(ember_dist_test::run_ranks(worker, l));
}

void expect_same_parameters(const std::vector<Tensor>& a, const std::vector<Tensor>& b, double tol) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_TRUE(ember::allclose(a[i], b[i], tol, tol)) << "parameter " << i;
}

// Registers the layer it uses last first, so backward's ready order is not
// the reverse registration order.
struct BackwardsImpl : nn::Module {
  BackwardsImpl() {
    last = register_module("last", nn::Linear(8, 3));
    first = register_module("first", nn::Linear(4, 8));
  }
  Tensor forward(const Tensor& x) { return last->forward(ember::tanh(first->forward(x))); }
  nn::Linear last{nullptr}, first{nullptr};
};
TORCH_MODULE(Backwards);

Backwards make_net(uint64_t seed) {
  ember::manual_seed(seed);
  return Backwards();
}

// The reference step: each rank's gradient computed separately, combined as DDP does.
void reference_step(Backwards& ref, ember::optim::SGD& opt, const std::vector<std::pair<Tensor, Tensor>>& batches,
                    double divide) {
  std::vector<Tensor> sum;
  for (const auto& [x, y] : batches) {
    opt.zero_grad();
    F::mse_loss(ref->forward(x), y).backward();
    auto params = ref->parameters();
    if (sum.empty())
      for (auto& p : params) sum.push_back(p.grad().clone());
    else
      for (size_t i = 0; i < params.size(); ++i) sum[i].add_(params[i].grad());
  }
  auto params = ref->parameters();
  for (size_t i = 0; i < params.size(); ++i) params[i].mutable_grad() = sum[i] / divide;
  opt.step();
}

}  // namespace

TEST(DDPRebuild, BucketsFollowTheFirstIterationsReadyOrder) { run("DdpRebuild"); }
TEST(DDPRebuild, WithGradientAsBucketView) { run("DdpRebuild", {{"EMBER_DDP_VIEW", "1"}}); }
DIST_WORKER(DdpRebuild) {
  dist::init_process_group("gloo", std::nullopt, 20000ms);
  int r = dist::get_rank();
  bool view = std::getenv("EMBER_DDP_VIEW") != nullptr;
  auto reference = make_net(11);
  auto net = make_net(11);
  // Each parameter in its own bucket: the bucket order is the gradient order.
  DistributedDataParallel ddp(net, DistributedDataParallelOptions().bucket_cap_mb(1e-6).gradient_as_bucket_view(view));
  // Registration: last.weight 0, last.bias 1, first.weight 2, first.bias 3.
  auto before = ddp->bucket_indices();
  ASSERT_EQ(before.size(), 4u);
  EXPECT_EQ(before.front(), std::vector<size_t>{3});  // reverse registration order
  ember::optim::SGD opt(ddp->parameters(), 0.3), ref_opt(reference->parameters(), 0.3);
  ember::manual_seed(4);
  Tensor x = ember::randn({8, 4}), y = ember::randn({8, 3});
  for (int step = 0; step < 3; ++step) {
    opt.zero_grad();
    F::mse_loss(ddp->forward(x.narrow(0, r * 4, 4)), y.narrow(0, r * 4, 4)).backward();
    opt.step();
    reference_step(reference, ref_opt, {{x.narrow(0, 0, 4), y.narrow(0, 0, 4)}, {x.narrow(0, 4, 4), y.narrow(0, 4, 4)}},
                   2);
    expect_same_parameters(ddp->parameters(), reference->parameters(), 1e-5);
    if (step == 0) EXPECT_EQ(ddp->bucket_indices(), before);  // rebuilt at the next forward
  }
  auto after = ddp->bucket_indices();
  ASSERT_EQ(after.size(), 4u);
  // The last layer's gradients are ready first, the first layer's last.
  std::vector<size_t> order;
  for (const auto& b : after) order.push_back(b.at(0));
  EXPECT_TRUE(order[0] <= 1 && order[1] <= 1 && order[2] >= 2 && order[3] >= 2)
      << order[0] << order[1] << order[2] << order[3];
  dist::destroy_process_group();
}

namespace {
struct TwoHeadsImpl : nn::Module {
  TwoHeadsImpl() {
    body = register_module("body", nn::Linear(4, 4));
    left = register_module("left", nn::Linear(4, 2));
    right = register_module("right", nn::Linear(4, 2));
  }
  Tensor forward(const Tensor& x) { return left->forward(ember::tanh(body->forward(x))); }
  nn::Linear body{nullptr}, left{nullptr}, right{nullptr};
};
TORCH_MODULE(TwoHeads);
}  // namespace

TEST(DDPStaticGraph, AlwaysUnusedParameterWithoutFindUnused) { run("DdpStatic", {{"EMBER_DDP_SET", "0"}}); }
TEST(DDPStaticGraph, SetStaticGraphAfterConstruction) { run("DdpStatic", {{"EMBER_DDP_SET", "1"}}); }
DIST_WORKER(DdpStatic) {
  dist::init_process_group("gloo", std::nullopt, 20000ms);
  int r = dist::get_rank();
  bool set_later = std::string(std::getenv("EMBER_DDP_SET")) == "1";
  ember::manual_seed(3);
  TwoHeads net;
  ember::manual_seed(3);
  TwoHeads reference;
  DistributedDataParallel ddp(net, DistributedDataParallelOptions().static_graph(!set_later).bucket_cap_mb(1e-5));
  if (set_later) ddp->_set_static_graph();
  ember::optim::SGD opt(ddp->parameters(), 0.3), ref_opt(reference->parameters(), 0.3);
  ember::manual_seed(8);
  Tensor x = ember::randn({8, 4}), y = ember::randn({8, 2});
  for (int step = 0; step < 4; ++step) {
    opt.zero_grad();
    F::mse_loss(ddp->forward(x.narrow(0, r * 4, 4)), y.narrow(0, r * 4, 4)).backward();
    opt.step();
    ref_opt.zero_grad();
    F::mse_loss(reference->forward(x), y).backward();
    ref_opt.step();
    expect_same_parameters(ddp->parameters(), reference->parameters(), 1e-5);
    EXPECT_FALSE(net->right->weight.grad().defined());
  }
  EXPECT_EMBER_ERROR(ddp->_set_static_graph(), "_set_static_graph", "before the first");
  dist::destroy_process_group();
}

TEST(DDPJoin, UnevenInputsDivideByInitialWorldSize) { run("DdpJoin", {{"EMBER_DDP_DIVIDE", "1"}}); }
TEST(DDPJoin, UnevenInputsDivideByRanksStillTraining) { run("DdpJoin", {{"EMBER_DDP_DIVIDE", "0"}}); }
// A joined rank runs the registered hook on zeros (the hook divides by the world size).
TEST(DDPJoin, UnevenInputsWithACommHook) { run("DdpJoin", {{"EMBER_DDP_DIVIDE", "1"}, {"EMBER_DDP_HOOK", "fp16"}}); }
DIST_WORKER(DdpJoin) {
  dist::init_process_group("gloo", std::nullopt, 20000ms);
  int r = dist::get_rank();
  bool divide_initial = std::string(std::getenv("EMBER_DDP_DIVIDE")) == "1";
  auto reference = make_net(21);
  DistributedDataParallel ddp(make_net(21), DistributedDataParallelOptions().bucket_cap_mb(1e-4));
  bool fp16 = std::getenv("EMBER_DDP_HOOK") != nullptr;
  if (fp16) ddp->register_comm_hook(nullptr, dist::algorithms::ddp_comm_hooks::default_hooks::fp16_compress_hook);
  double tol = fp16 ? 2e-3 : 1e-5;
  ember::optim::SGD opt(ddp->parameters(), 0.3), ref_opt(reference->parameters(), 0.3);
  ember::manual_seed(6);
  // Rank 0 has 2 batches, rank 1 has 5: the rebuild (at step 1) and three
  // steps happen while rank 0 has joined.
  std::vector<std::vector<std::pair<Tensor, Tensor>>> data(2);
  for (int rank = 0; rank < 2; ++rank)
    for (int b = 0; b < (rank == 0 ? 2 : 5); ++b) data[rank].emplace_back(ember::randn({3, 4}), ember::randn({3, 3}));
  {
    auto join = ddp->join(divide_initial);
    for (const auto& [x, y] : data[r]) {
      opt.zero_grad();
      F::mse_loss(ddp->forward(x), y).backward();
      opt.step();
    }
  }
  for (int step = 0; step < 5; ++step) {
    if (step < 2)
      reference_step(reference, ref_opt, {data[0][step], data[1][step]}, 2);
    else
      reference_step(reference, ref_opt, {data[1][step]}, divide_initial ? 2 : 1);
  }
  expect_same_parameters(ddp->parameters(), reference->parameters(), tol);
  // After the context, training is even again.
  opt.zero_grad();
  F::mse_loss(ddp->forward(data[1][0].first), data[1][0].second).backward();
  opt.step();
  reference_step(reference, ref_opt, {data[1][0], data[1][0]}, 2);
  expect_same_parameters(ddp->parameters(), reference->parameters(), tol);
  dist::destroy_process_group();
}

TEST(DDPJoin, ThrowOnEarlyTermination) { run("DdpJoinThrow"); }
DIST_WORKER(DdpJoinThrow) {
  dist::init_process_group("gloo", std::nullopt, 20000ms);
  int r = dist::get_rank();
  DistributedDataParallel ddp(make_net(2));
  auto train = [&](int batches) {
    auto join = ddp->join(true, true, true);
    for (int b = 0; b < batches; ++b) F::mse_loss(ddp->forward(ember::ones({2, 4})), ember::zeros({2, 3})).backward();
  };
  if (r == 0)
    EXPECT_EMBER_ERROR(train(1), "Join", "Rank 0 exhausted all inputs");
  else
    EXPECT_EMBER_ERROR(train(3), "Join", "Detected at least one rank that exhausted inputs");
  dist::destroy_process_group();
}
