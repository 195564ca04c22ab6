// Forward outputs of the layers, given PyTorch's weights (tools/golden/gen_nn_module.py).
#include <gtest/gtest.h>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/torch.h"

namespace nn_layers_test {

using namespace torch::nn;
namespace F = torch::nn::functional;
using ember::testing::Golden;

const Golden& golden() {
  static const Golden g("nn_module.golden");
  return g;
}

// Copies `value` into a parameter without recording it.
void copy_in(const torch::Tensor& param, const torch::Tensor& value) {
  torch::NoGradGuard no_grad;
  const_cast<torch::Tensor&>(param).copy_(value);
}

TEST(NNLinear, GoldenForwardAndBackward) {
  const auto& g = golden();
  Linear lin(3, 4);
  copy_in(lin->weight, g["linear.weight"]);
  copy_in(lin->bias, g["linear.bias"]);
  EXPECT_TENSOR_CLOSE(lin(g["linear.x2"]), g["linear.y2"]);
  EXPECT_TENSOR_CLOSE(lin(g["linear.x3"]), g["linear.y3"]);
  EXPECT_TENSOR_CLOSE(F::linear(g["linear.x2"], lin->weight), g["linear.nobias.y2"]);

  auto x = g["linear.x2"].clone().requires_grad_(true);
  auto out = lin(x);
  (out * out).sum().backward();
  EXPECT_TENSOR_CLOSE(lin->weight.grad(), g["linear.grad_weight"]);
  EXPECT_TENSOR_CLOSE(lin->bias.grad(), g["linear.grad_bias"]);
  EXPECT_TENSOR_CLOSE(x.grad(), g["linear.grad_x"]);
}

TEST(NNLinear, ShapesDefaultsAndErrors) {
  Linear lin(LinearOptions(5, 3).bias(false));
  EXPECT_EQ(lin->weight.sizes(), (std::vector<int64_t>{3, 5}));
  EXPECT_FALSE(lin->bias.defined());
  EXPECT_EQ(lin->named_parameters().keys(), std::vector<std::string>{"weight"});
  EXPECT_EQ(lin(torch::ones({2, 5})).sizes(), (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(lin(torch::ones({5})).sizes(), (std::vector<int64_t>{3}));
  EXPECT_EMBER_ERROR(lin(torch::ones({2, 4})), "linear", "[2, 4]", "[3, 5]");
  // Default init: U(-1/sqrt(in), 1/sqrt(in)) for weight and bias.
  Linear big(400, 300);
  // The weights are float32: a draw just below the bound may round up to float(bound).
  const double bound = static_cast<float>(1.0 / std::sqrt(400.0));
  EXPECT_LE(big->weight.abs().max().item<double>(), bound);
  EXPECT_LE(big->bias.abs().max().item<double>(), bound);
  EXPECT_NEAR(big->weight.std().item<double>(), bound / std::sqrt(3.0), 0.02 * bound);
  EXPECT_GT(big->weight.abs().max().item<double>(), 0.95 * bound);
  // Zero-size layers are allowed (as in PyTorch).
  Linear zero(0, 3);
  EXPECT_EQ(zero(torch::ones({2, 0})).sizes(), (std::vector<int64_t>{2, 3}));
}

TEST(NNSequentialGolden, Forward) {
  const auto& g = golden();
  Sequential seq(Linear(3, 4), ReLU(), Linear(4, 2), Tanh());
  for (auto& p : seq->named_parameters()) copy_in(p.value(), g["seq." + p.key()]);
  EXPECT_TENSOR_CLOSE(seq->forward(g["linear.x2"]), g["seq.y"]);
}

TEST(NNActivation, GoldenModules) {
  const auto& g = golden();
  const auto x = g["act.x"];
  EXPECT_TENSOR_CLOSE(ReLU()(x), g["act.relu"]);
  EXPECT_TENSOR_CLOSE(Sigmoid()(x), g["act.sigmoid"]);
  EXPECT_TENSOR_CLOSE(Tanh()(x), g["act.tanh"]);
  EXPECT_TENSOR_CLOSE(SiLU()(x), g["act.silu"]);
  EXPECT_TENSOR_CLOSE(Mish()(x), g["act.mish"]);
  EXPECT_TENSOR_CLOSE(GELU()(x), g["act.gelu"]);
  EXPECT_TENSOR_CLOSE(GELU(GELUOptions().approximate("tanh"))(x), g["act.gelu_tanh"]);
  EXPECT_TENSOR_CLOSE(ELU()(x), g["act.elu"]);
  EXPECT_TENSOR_CLOSE(ELU(ELUOptions().alpha(0.5))(x), g["act.elu_0.5"]);
  EXPECT_TENSOR_CLOSE(SELU()(x), g["act.selu"]);
  EXPECT_TENSOR_CLOSE(Hardswish()(x), g["act.hardswish"]);
  EXPECT_TENSOR_CLOSE(Hardsigmoid()(x), g["act.hardsigmoid"]);
  EXPECT_TENSOR_CLOSE(LeakyReLU()(x), g["act.leaky_relu"]);
  EXPECT_TENSOR_CLOSE(LeakyReLU(LeakyReLUOptions().negative_slope(0.2))(x), g["act.leaky_relu_0.2"]);
  EXPECT_TENSOR_CLOSE(Softplus()(x), g["act.softplus"]);
  EXPECT_TENSOR_CLOSE(Softplus(SoftplusOptions().beta(0.5).threshold(3))(x), g["act.softplus_0.5_3"]);
}

TEST(NNActivation, FunctionalAndInplace) {
  const auto& g = golden();
  const auto x = g["act.x"];
  EXPECT_TENSOR_CLOSE(F::relu(x), g["act.relu"]);
  EXPECT_TENSOR_CLOSE(F::elu(x, F::ELUFuncOptions().alpha(0.5)), g["act.elu_0.5"]);
  EXPECT_TENSOR_CLOSE(F::leaky_relu(x, F::LeakyReLUFuncOptions().negative_slope(0.2)), g["act.leaky_relu_0.2"]);
  EXPECT_TENSOR_CLOSE(F::gelu(x, F::GELUFuncOptions().approximate("tanh")), g["act.gelu_tanh"]);
  EXPECT_TENSOR_CLOSE(F::softplus(x, F::SoftplusFuncOptions().beta(0.5).threshold(3)), g["act.softplus_0.5_3"]);
  EXPECT_TENSOR_CLOSE(F::selu(x), g["act.selu"]);
  EXPECT_TENSOR_CLOSE(F::silu(x), g["act.silu"]);
  EXPECT_TENSOR_CLOSE(F::mish(x), g["act.mish"]);
  EXPECT_TENSOR_CLOSE(F::hardswish(x), g["act.hardswish"]);
  EXPECT_TENSOR_CLOSE(F::hardsigmoid(x), g["act.hardsigmoid"]);
  // inplace=true writes into the input.
  auto y = x.clone();
  auto r = ReLU(true)(y);
  EXPECT_TRUE(r.is_same(y) || r.data_ptr() == y.data_ptr());
  EXPECT_TENSOR_CLOSE(y, g["act.relu"]);
  y = x.clone();
  F::leaky_relu(y, F::LeakyReLUFuncOptions().negative_slope(0.2).inplace(true));
  EXPECT_TENSOR_CLOSE(y, g["act.leaky_relu_0.2"]);
  y = x.clone();
  ELU(ELUOptions().alpha(0.5).inplace(true))(y);
  EXPECT_TENSOR_CLOSE(y, g["act.elu_0.5"]);
  y = x.clone();
  SELU(true)(y);
  EXPECT_TENSOR_CLOSE(y, g["act.selu"]);
}

TEST(NNFlatten, FlattenUnflattenIdentity) {
  auto x = torch::randn({2, 3, 4, 5});
  EXPECT_EQ(Flatten()(x).sizes(), (std::vector<int64_t>{2, 60}));
  EXPECT_EQ(Flatten(FlattenOptions().start_dim(2).end_dim(3))(x).sizes(), (std::vector<int64_t>{2, 3, 20}));
  EXPECT_EQ(Unflatten(UnflattenOptions(1, {3, 1}))(torch::ones({2, 3})).sizes(), (std::vector<int64_t>{2, 3, 1}));
  EXPECT_EQ(Unflatten(1, std::vector<int64_t>{2, 2})(torch::ones({5, 4})).sizes(), (std::vector<int64_t>{5, 2, 2}));
  EXPECT_EMBER_ERROR(Unflatten(UnflattenOptions("B", {{"B1", 2}}))(torch::ones({2})), "Unflatten", "named");
  EXPECT_TRUE(Identity()(x).is_same(x));
  EXPECT_TRUE(Identity(1, 2.0)(x).is_same(x));  // ignores constructor arguments, as LibTorch
}

}  // namespace nn_layers_test
