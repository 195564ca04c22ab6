// Normalization modules against PyTorch (tools/golden/gen_loss_norm_embedding_modules.py):
// BatchNorm running statistics over training steps, eval, buffer names,
// default init, printing and errors; LayerNorm and GroupNorm forwards.
#include <gtest/gtest.h>

#include <sstream>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/torch.h"

namespace norm_module_test {

namespace nn = torch::nn;
namespace F = torch::nn::functional;
using ember::testing::Golden;

const Golden& golden() {
  static const Golden g("loss_norm_embedding_modules.golden");
  return g;
}

void copy_in(const torch::Tensor& param, const torch::Tensor& value) {
  torch::NoGradGuard no_grad;
  const_cast<torch::Tensor&>(param).copy_(value);
}

std::string printed(const nn::Module& m) {
  std::ostringstream s;
  m.pretty_print(s);
  return s.str();
}

TEST(NNNormModule, BatchNorm2dTrainStepsThenEval) {
  const auto& g = golden();
  nn::BatchNorm2d bn(3);
  copy_in(bn->weight, g["bn.weight"]);
  copy_in(bn->bias, g["bn.bias"]);
  for (int i = 0; i < 3; ++i) {
    const std::string s = std::to_string(i);
    EXPECT_TENSOR_CLOSE(bn(g["bn.x" + s]), g["bn.y" + s]);
  }
  EXPECT_TENSOR_CLOSE(bn->running_mean, g["bn.running_mean"]);
  EXPECT_TENSOR_CLOSE(bn->running_var, g["bn.running_var"]);
  EXPECT_EQ(bn->num_batches_tracked.item<int64_t>(), 3);
  EXPECT_EQ(bn->num_batches_tracked.dtype(), torch::kLong);
  bn->eval();
  EXPECT_TENSOR_CLOSE(bn(g["bn.xe"]), g["bn.ye"]);
  EXPECT_EQ(bn->num_batches_tracked.item<int64_t>(), 3);
}

TEST(NNNormModule, BatchNorm1dCumulativeAverage) {
  const auto& g = golden();
  nn::BatchNorm1d bn(nn::BatchNormOptions(3).momentum(std::nullopt).affine(false));
  EXPECT_EQ(bn->parameters().size(), 0u);
  for (int i = 0; i < 3; ++i) {
    const std::string s = std::to_string(i);
    EXPECT_TENSOR_CLOSE(bn(g["bn1.x" + s]), g["bn1.y" + s]);
  }
  EXPECT_TENSOR_CLOSE(bn->running_mean, g["bn1.running_mean"]);
  EXPECT_TENSOR_CLOSE(bn->running_var, g["bn1.running_var"]);
}

TEST(NNNormModule, BatchNorm3dWithoutRunningStats) {
  const auto& g = golden();
  nn::BatchNorm3d bn(nn::BatchNormOptions(2).track_running_stats(false));
  bn->eval();
  EXPECT_TENSOR_CLOSE(bn(g["bn3.x"]), g["bn3.y"]);
  EXPECT_FALSE(bn->running_mean.defined());
}

TEST(NNNormModule, BatchNormGradient) {
  const auto& g = golden();
  nn::BatchNorm2d bn(3);
  auto x = g["bng.x"].clone().requires_grad_(true);
  (bn(x).pow(2) * torch::arange(3.0).view({1, 3, 1, 1})).sum().backward();
  EXPECT_TENSOR_CLOSE(x.grad(), g["bng.grad_x"]);
  EXPECT_TENSOR_CLOSE(bn->weight.grad(), g["bng.grad_w"]);
}

TEST(NNNormModule, BatchNormNamesInitAndPrint) {
  nn::Sequential seq;
  seq->push_back("bn", nn::BatchNorm2d(4));
  std::vector<std::string> names;
  for (const auto& item : seq->named_buffers()) names.push_back(item.key());
  EXPECT_EQ(names, (std::vector<std::string>{"bn.running_mean", "bn.running_var", "bn.num_batches_tracked"}));
  std::vector<std::string> params;
  for (const auto& item : seq->named_parameters()) params.push_back(item.key());
  EXPECT_EQ(params, (std::vector<std::string>{"bn.weight", "bn.bias"}));

  nn::BatchNorm2d bn(4);
  EXPECT_TENSOR_EQ(bn->weight, torch::ones({4}));
  EXPECT_TENSOR_EQ(bn->bias, torch::zeros({4}));
  EXPECT_TENSOR_EQ(bn->running_mean, torch::zeros({4}));
  EXPECT_TENSOR_EQ(bn->running_var, torch::ones({4}));

  EXPECT_EQ(printed(*bn), "torch::nn::BatchNorm2d(4, eps=1e-05, momentum=0.1, affine=true, track_running_stats=true)");
  EXPECT_EQ(printed(*nn::BatchNorm1d(nn::BatchNormOptions(3).momentum(std::nullopt).affine(false))),
            "torch::nn::BatchNorm1d(3, eps=1e-05, momentum=None, affine=false, track_running_stats=true)");
  EXPECT_EQ(printed(*nn::LayerNorm(nn::LayerNormOptions({4, 5}))),
            "torch::nn::LayerNorm([4, 5], eps=1e-05, elementwise_affine=true)");
  EXPECT_EQ(printed(*nn::GroupNorm(2, 4)), "torch::nn::GroupNorm(2, 4, eps=1e-05, affine=true)");
}

TEST(NNNormModule, LayerNormAndGroupNorm) {
  const auto& g = golden();
  nn::LayerNorm ln(nn::LayerNormOptions({4, 5}));
  copy_in(ln->weight, g["ln.weight"]);
  copy_in(ln->bias, g["ln.bias"]);
  EXPECT_TENSOR_CLOSE(ln(g["ln.x"]), g["ln.y"]);
  EXPECT_TENSOR_CLOSE(F::layer_norm(g["ln.x"], F::LayerNormFuncOptions({5}).eps(1e-3)), g["ln.noaffine"]);

  nn::GroupNorm gn(2, 4);
  copy_in(gn->weight, g["gn.weight"]);
  copy_in(gn->bias, g["gn.bias"]);
  EXPECT_TENSOR_CLOSE(gn(g["gn.x"]), g["gn.y"]);
}

TEST(NNNormModule, Errors) {
  nn::BatchNorm2d bn(3);
  EXPECT_EMBER_ERROR(bn(torch::randn({2, 3, 4})), "BatchNorm2d", "expected 4D input (got 3D input of shape [2, 3, 4])");
  nn::BatchNorm1d bn1(3);
  EXPECT_EMBER_ERROR(bn1(torch::randn({1, 3})), "more than 1 value per channel");
  EXPECT_EMBER_ERROR(nn::GroupNorm(3, 4), "GroupNorm", "divisible");
}

}  // namespace norm_module_test
