// DeferredBatchNorm and Pipe(deferred_batch_norm): micro-batches are
// normalized on their own, the running statistics move once per mini-batch
// with the whole mini-batch's statistics, as torch 1.13's DeferredBatchNorm
// (tools/golden/gen_distributed_pipe_bn.py), and a checkpointed micro-batch's
// recomputation in backward does not count twice.
#include <gtest/gtest.h>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/distributed/pipeline/sync/batchnorm.h"
#include "ember/distributed/pipeline/sync/checkpoint.h"
#include "ember/distributed/pipeline/sync/pipe.h"
#include "ember/torch.h"

namespace nn = ember::nn;
namespace pipe_sync = ember::distributed::pipeline::sync;
using ember::Tensor;

namespace {
Tensor golden(const std::string& name) {
  static ember::testing::Golden g("distributed_pipe_bn.golden");
  return g[name];
}
}  // namespace

TEST(DeferredBatchNorm, MatchesTorchOverMicroBatches) {
  for (const std::string name : {"m01", "cumulative"}) {
    pipe_sync::DeferredBatchNormOptions o(3);
    o.chunks(4);
    if (name == "cumulative") o.momentum(std::nullopt);
    pipe_sync::DeferredBatchNorm bn(o);
    {
      ember::NoGradGuard no_grad;
      bn->weight.copy_(golden("weight"));
      bn->bias.copy_(golden("bias"));
    }
    for (int step = 0; step < 2; ++step) {
      std::vector<Tensor> ys;
      for (const auto& c : golden("x" + std::to_string(step + 1)).chunk(4, 0)) ys.push_back(bn->forward(c));
      std::string key = name + ".step" + std::to_string(step);
      EXPECT_TENSOR_CLOSE_TOL(ember::cat(ys, 0), golden(key + ".y"), 1e-5, 1e-5) << key;
      EXPECT_TENSOR_CLOSE_TOL(bn->running_mean, golden(key + ".running_mean"), 1e-5, 1e-5) << key;
      EXPECT_TENSOR_CLOSE_TOL(bn->running_var, golden(key + ".running_var"), 1e-5, 1e-5) << key;
    }
    EXPECT_EQ(bn->num_batches_tracked.item<int64_t>(), 2);
    bn->eval();
    EXPECT_TENSOR_CLOSE_TOL(bn->forward(golden("x1")), golden(name + ".eval.y"), 1e-5, 1e-5) << name;
  }
  pipe_sync::DeferredBatchNorm bn(3);
  EXPECT_EMBER_ERROR(bn->forward(ember::zeros({4, 3})), "DeferredBatchNorm", "3D input", "2D");
  EXPECT_EMBER_ERROR(bn->forward(ember::zeros({4, 2, 5})), "DeferredBatchNorm", "2 channels");
}

TEST(DeferredBatchNorm, PipeConvertsBatchNormsAndSharesTheirTensors) {
  nn::BatchNorm2d inner(3), outer(3);
  {
    ember::NoGradGuard no_grad;
    for (auto* bn : {&inner, &outer}) {
      (*bn)->weight.copy_(golden("weight"));
      (*bn)->bias.copy_(golden("bias"));
    }
  }
  // The second stage holds a BatchNorm inside a nested Sequential.
  nn::Sequential net(nn::Sequential(inner), nn::Sequential(nn::Identity(), outer));
  for (const char* mode : {"always", "except_last", "never"}) {
    for (auto* bn : {&inner, &outer}) (*bn)->reset_running_stats();
    pipe_sync::Pipe pipe(net, pipe_sync::PipeOptions().chunks(4).checkpoint(mode).deferred_batch_norm(true));
    pipe->train();
    EXPECT_EQ(pipe->parameters().size(), 4u);
    Tensor x = golden("x1").clone().requires_grad_(true);
    Tensor y = pipe->forward(x);
    // Stage 1 normalizes stage 0's output again: torch's values for x1 at stage 0.
    y.sum().backward();  // recomputes the checkpointed micro-batches
    EXPECT_TENSOR_CLOSE_TOL(inner->running_mean, golden("m01.step0.running_mean"), 1e-5, 1e-5) << mode;
    EXPECT_TENSOR_CLOSE_TOL(inner->running_var, golden("m01.step0.running_var"), 1e-5, 1e-5) << mode;
    EXPECT_EQ(inner->num_batches_tracked.item<int64_t>(), 1) << mode;
    EXPECT_EQ(outer->num_batches_tracked.item<int64_t>(), 1) << mode;
    EXPECT_TRUE(inner->weight.grad().defined()) << mode;
  }
  EXPECT_FALSE(pipe_sync::is_recomputing());
  // Without the option the BatchNorms stay, and count every micro-batch.
  inner->reset_running_stats();
  pipe_sync::Pipe plain(net, pipe_sync::PipeOptions().chunks(4));
  plain->forward(golden("x1"));
  EXPECT_EQ(inner->num_batches_tracked.item<int64_t>(), 4);
}
