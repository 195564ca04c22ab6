// DistributedDataParallel on 2 processes: after every step the parameters equal
// those of one process training on the concatenated batch, for every
// communication hook, with no_sync() accumulation and with unused parameters.
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

nn::Sequential make_net(uint64_t seed) {
  ember::manual_seed(seed);
  return nn::Sequential(nn::Linear(4, 16), nn::Tanh(), nn::Linear(16, 8), nn::Tanh(), nn::Linear(8, 3));
}

void expect_same_parameters(const std::vector<Tensor>& a, const std::vector<Tensor>& b, double tol) {
  ASSERT_EQ(a.size(), b.size());
  for (size_t i = 0; i < a.size(); ++i) EXPECT_TRUE(ember::allclose(a[i], b[i], tol, tol)) << "parameter " << i;
}

}  // namespace

TEST(DDP, MatchesOneProcessOnTheWholeBatch) { run("DdpMatches", {{"EMBER_DDP_HOOK", "allreduce"}}); }
TEST(DDP, Fp16CompressHook) { run("DdpMatches", {{"EMBER_DDP_HOOK", "fp16"}}); }
TEST(DDP, Bf16CompressHook) { run("DdpMatches", {{"EMBER_DDP_HOOK", "bf16"}}); }
TEST(DDP, GradientAsBucketView) { run("DdpMatches", {{"EMBER_DDP_HOOK", "allreduce"}, {"EMBER_DDP_VIEW", "1"}}); }
DIST_WORKER(DdpMatches) {
  dist::init_process_group("gloo", std::nullopt, 20000ms);
  int r = dist::get_rank(), n = dist::get_world_size();
  std::string hook = std::getenv("EMBER_DDP_HOOK");
  auto reference = make_net(100);  // rank 0's initial parameters, on every rank
  auto local = make_net(100 + r);  // each rank starts elsewhere: DDP broadcasts rank 0's
  // A tiny bucket cap: several buckets, reduced while backward runs.
  bool view = std::getenv("EMBER_DDP_VIEW") != nullptr;
  DistributedDataParallel ddp(local,
                              DistributedDataParallelOptions().bucket_cap_mb(0.0005).gradient_as_bucket_view(view));
  EXPECT_GT(ddp->num_buckets(), 2u);
  expect_same_parameters(ddp->parameters(), reference->parameters(), 0);
  namespace hooks = dist::algorithms::ddp_comm_hooks::default_hooks;
  double tol = 1e-5;
  if (hook == "fp16") ddp->register_comm_hook(nullptr, hooks::fp16_compress_hook), tol = 2e-3;
  if (hook == "bf16") ddp->register_comm_hook(nullptr, hooks::bf16_compress_hook), tol = 2e-2;
  ember::optim::SGD opt(ddp->parameters(), 0.5), ref_opt(reference->parameters(), 0.5);
  ember::manual_seed(7);
  Tensor x = ember::randn({8, 4}), y = ember::randn({8, 3});
  for (int step = 0; step < 4; ++step) {
    Tensor xs = x.narrow(0, r * 4, 4), ys = y.narrow(0, r * 4, 4);
    opt.zero_grad();
    F::mse_loss(ddp->forward(xs), ys).backward();
    opt.step();
    ref_opt.zero_grad();
    F::mse_loss(reference->forward(x), y).backward();
    ref_opt.step();
    expect_same_parameters(ddp->parameters(), reference->parameters(), tol);
  }
  EXPECT_EQ(n, 2);
  dist::destroy_process_group();
}

TEST(DDP, NoSyncAccumulatesLocally) { run("DdpNoSync"); }
DIST_WORKER(DdpNoSync) {
  dist::init_process_group("gloo", std::nullopt, 20000ms);
  int r = dist::get_rank();
  auto reference = make_net(5);
  DistributedDataParallel ddp(make_net(5));
  ember::optim::SGD opt(ddp->parameters(), 0.5), ref_opt(reference->parameters(), 0.5);
  ember::manual_seed(9);
  Tensor x = ember::randn({8, 4}), y = ember::randn({8, 3});
  for (int step = 0; step < 2; ++step) {
    opt.zero_grad();
    {
      auto guard = ddp->no_sync();  // first micro-batch: no communication
      F::mse_loss(ddp->forward(x.narrow(0, r * 4, 2)), y.narrow(0, r * 4, 2)).backward();
    }
    if (step == 0) {
      // Until the synchronized backward, each rank holds its own gradient.
      Tensor g = ddp->parameters()[0].grad().clone();
      std::vector<Tensor> both{ember::zeros_like(g), ember::zeros_like(g)};
      dist::all_gather(both, g);
      EXPECT_FALSE(ember::allclose(both[0], both[1]));
    }
    F::mse_loss(ddp->forward(x.narrow(0, r * 4 + 2, 2)), y.narrow(0, r * 4 + 2, 2)).backward();
    opt.step();
    // Two micro-batch means per rank, averaged over two ranks: twice the full-batch mean's gradient.
    ref_opt.zero_grad();
    (F::mse_loss(reference->forward(x), y) * 2).backward();
    ref_opt.step();
    expect_same_parameters(ddp->parameters(), reference->parameters(), 1e-5);
  }
  dist::destroy_process_group();
}

namespace {
// Two heads; forward uses one of them, chosen by the caller.
struct TwoHeadsImpl : nn::Module {
  TwoHeadsImpl() {
    body = register_module("body", nn::Linear(4, 4));
    left = register_module("left", nn::Linear(4, 2));
    right = register_module("right", nn::Linear(4, 2));
  }
  Tensor forward(const Tensor& x, int64_t head) {
    Tensor h = ember::tanh(body->forward(x));
    return head == 0 ? left->forward(h) : right->forward(h);
  }
  nn::Linear body{nullptr}, left{nullptr}, right{nullptr};
};
TORCH_MODULE(TwoHeads);
}  // namespace

TEST(DDP, FindUnusedParameters) { run("DdpUnused"); }
DIST_WORKER(DdpUnused) {
  dist::init_process_group("gloo", std::nullopt, 20000ms);
  int r = dist::get_rank();
  ember::manual_seed(3);
  TwoHeads net;
  ember::manual_seed(3);
  TwoHeads reference;
  DistributedDataParallel ddp(net, DistributedDataParallelOptions().find_unused_parameters(true));
  Tensor x = ember::full({2, 4}, 0.5 + r);
  // Rank 0 uses the left head, rank 1 the right one: each head's gradient is
  // one rank's gradient averaged with the other's zero.
  F::mse_loss(ddp->forward(x, int64_t(r)), ember::zeros({2, 2})).backward();
  for (int head = 0; head < 2; ++head) {
    reference->zero_grad();
    F::mse_loss(reference->forward(ember::full({2, 4}, 0.5 + head), int64_t(head)), ember::zeros({2, 2})).backward();
    auto& mine = head == 0 ? net->left : net->right;
    auto& ref = head == 0 ? reference->left : reference->right;
    EXPECT_TENSOR_CLOSE(mine->weight.grad(), ref->weight.grad() / 2);
  }
  // Without find_unused_parameters, a parameter that gets no gradient stalls
  // the reduction, and the next forward says so.
  dist::barrier();
  ember::manual_seed(3);
  TwoHeads strict_net;
  DistributedDataParallel strict(strict_net);
  F::mse_loss(strict->forward(x, int64_t(0)), ember::zeros({2, 2})).backward();
  EXPECT_EMBER_ERROR(strict->forward(x, int64_t(0)), "DistributedDataParallel", "Expected to have finished reduction",
                     "find_unused_parameters");
  dist::destroy_process_group();
}

// Models that differ across ranks in shape only (same element count, so the
// coalesced broadcast alone would not notice) are refused at construction.
TEST(DDP, DifferentModelsAcrossRanksRaise) { run("DdpDifferentModels"); }
DIST_WORKER(DdpDifferentModels) {
  dist::init_process_group("gloo", std::nullopt, 20000ms);
  int r = dist::get_rank();
  nn::Linear mine =
      r == 0 ? nn::Linear(nn::LinearOptions(2, 3).bias(false)) : nn::Linear(nn::LinearOptions(3, 2).bias(false));
  EXPECT_EMBER_ERROR(DistributedDataParallel{mine}, "DistributedDataParallel", "same model across all ranks",
                     "different dtypes, shapes");
  nn::Linear same(nn::LinearOptions(2, 3).bias(r == 0));
  EXPECT_EMBER_ERROR(DistributedDataParallel{same}, "DistributedDataParallel", "rank ", "parameters");
  dist::destroy_process_group();
}
