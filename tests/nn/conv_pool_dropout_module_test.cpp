// Conv*d, MaxPool/AvgPool*d and Dropout* modules: forwards with PyTorch's weights
// (tools/golden/gen_conv_pool_dropout_modules.py), default init bounds, pretty_print as LibTorch
// 1.13 prints it (strings taken from a program built against libtorch), train/eval, errors.
#include <gtest/gtest.h>

#include <cmath>
#include <sstream>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/torch.h"

namespace nn_layers_a_test {

using namespace torch::nn;
namespace F = torch::nn::functional;
using ember::testing::Golden;

const Golden& golden() {
  static const Golden g("conv_pool_dropout_modules.golden");
  return g;
}

template <typename M>
void load_conv(M& m, const std::string& name, bool has_bias = true) {
  torch::NoGradGuard no_grad;
  m->weight.copy_(golden()[name + ".weight"]);
  if (has_bias) m->bias.copy_(golden()[name + ".bias"]);
}

template <typename M>
std::string printed(const M& m) {
  std::ostringstream os;
  os << *m;
  return os.str();
}

template <typename M>
void expect_conv_golden(M m, const std::string& name, bool has_bias = true) {
  load_conv(m, name, has_bias);
  EXPECT_TENSOR_CLOSE(m(golden()[name + ".x"]), golden()[name + ".y"]);
}

TEST(NNConvModule, GoldenForward) {
  expect_conv_golden(Conv2d(Conv2dOptions(2, 4, 3).padding(1)), "conv2d");
  expect_conv_golden(
      Conv2d(Conv2dOptions(4, 6, {3, 2}).stride({2, 1}).padding({1, 0}).dilation({1, 2}).groups(2).bias(false)),
      "conv2d_strided", false);
  expect_conv_golden(Conv2d(Conv2dOptions(2, 3, {3, 4}).padding(torch::kSame).dilation(2)), "conv2d_same");
  expect_conv_golden(Conv2d(Conv2dOptions(2, 3, 3).padding(2).padding_mode(torch::kReflect)), "conv2d_reflect");
  expect_conv_golden(Conv2d(Conv2dOptions(2, 3, 3).padding(1).padding_mode(torch::kCircular)), "conv2d_circular");
  expect_conv_golden(Conv2d(Conv2dOptions(1, 2, 4).padding(torch::kSame).padding_mode(torch::kReplicate)),
                     "conv2d_replicate_same");
  expect_conv_golden(Conv1d(Conv1dOptions(3, 2, 3).stride(2).padding(1)), "conv1d");
  expect_conv_golden(Conv1d(Conv1dOptions(3, 2, 2).padding(torch::kValid)), "conv1d_valid");
  expect_conv_golden(Conv3d(Conv3dOptions(2, 2, {2, 3, 2}).padding({1, 0, 1})), "conv3d");
}

TEST(NNConvModule, TransposeGoldenForward) {
  const auto& g = golden();
  ConvTranspose2d ct(ConvTranspose2dOptions(4, 6, 3).stride(2).padding(1).groups(2));
  EXPECT_EQ(ct->weight.sizes().vec(), (std::vector<int64_t>{4, 3, 3, 3}));
  expect_conv_golden(ct, "conv_transpose2d");
  EXPECT_TENSOR_CLOSE(ct(g["conv_transpose2d.x_sized"], std::vector<int64_t>{6, 8}), g["conv_transpose2d.y_sized"]);
  EXPECT_EMBER_ERROR(ct(g["conv_transpose2d.x_sized"], std::vector<int64_t>{9, 8}), "ConvTranspose2d", "output size");
  expect_conv_golden(ConvTranspose1d(ConvTranspose1dOptions(2, 3, 2).stride(3).output_padding(1).dilation(2)),
                     "conv_transpose1d");
  EXPECT_EQ(printed(ct),
            "torch::nn::ConvTranspose2d(4, 6, kernel_size=[3, 3], stride=[2, 2], padding=[1, 1], groups=2)");
}

TEST(NNConvModule, ShapesAndDefaultInit) {
  Conv2d conv(3, 16, 5);
  EXPECT_EQ(conv->weight.sizes().vec(), (std::vector<int64_t>{16, 3, 5, 5}));
  EXPECT_EQ(conv->bias.sizes().vec(), (std::vector<int64_t>{16}));
  EXPECT_EQ(conv->parameters().size(), 2u);
  // kaiming_uniform_(a=sqrt(5)) gives bound 1/sqrt(fan_in) for weight and bias; fan_in = 3*5*5.
  const double bound = 1.0 / std::sqrt(75.0);
  EXPECT_LE(conv->weight.abs().max().item<float>(), bound);
  EXPECT_GT(conv->weight.abs().max().item<float>(), 0.8 * bound);
  EXPECT_LE(conv->bias.abs().max().item<float>(), bound);
  Conv1d grouped(Conv1dOptions(4, 6, 3).groups(2).bias(false));
  EXPECT_EQ(grouped->weight.sizes().vec(), (std::vector<int64_t>{6, 2, 3}));
  EXPECT_FALSE(grouped->bias.defined());
  EXPECT_EQ(grouped->parameters().size(), 1u);
  // Gradients reach the parameters.
  auto y = conv(torch::randn({2, 3, 8, 8})).sum();
  y.backward();
  EXPECT_TRUE(conv->weight.grad().defined());
  EXPECT_TRUE(conv->bias.grad().defined());
}

TEST(NNConvModule, PrettyPrint) {
  EXPECT_EQ(printed(Conv2d(Conv2dOptions(1, 32, 3).padding(1))),
            "torch::nn::Conv2d(1, 32, kernel_size=[3, 3], stride=[1, 1], padding=[1, 1])");
  EXPECT_EQ(printed(Conv1d(Conv1dOptions(2, 4, 3)
                               .padding(torch::kSame)
                               .bias(false)
                               .padding_mode(torch::kReflect)
                               .groups(2)
                               .dilation(2))),
            "torch::nn::Conv1d(2, 4, kernel_size=3, stride=1, padding='same', dilation=2, groups=2, bias=false, "
            "padding_mode=kReflect)");
  EXPECT_EQ(printed(Conv3d(Conv3dOptions(2, 4, {1, 2, 3}).stride(2))),
            "torch::nn::Conv3d(2, 4, kernel_size=[1, 2, 3], stride=[2, 2, 2])");
}

TEST(NNConvModule, Errors) {
  EXPECT_EMBER_ERROR(Conv2d(Conv2dOptions(3, 4, 3).groups(2)), "Conv2d", "divisible by groups");
  EXPECT_EMBER_ERROR(Conv2d(Conv2dOptions(2, 4, 3).stride(2).padding(torch::kSame)), "Conv2d", "same");
  Conv2d conv(3, 4, 3);
  EXPECT_EMBER_ERROR(conv(torch::randn({1, 2, 5, 5})), "conv2d", "expected input[1, 2, 5, 5] to have 3 channels");
}

TEST(NNPoolModule, GoldenForward) {
  const auto& g = golden();
  EXPECT_TENSOR_CLOSE(MaxPool2d(MaxPool2dOptions(2))(g["pool.x"]), g["maxpool2d.y"]);
  EXPECT_TENSOR_CLOSE(MaxPool2d(2)(g["pool.x"]), g["maxpool2d.y"]);
  MaxPool2d ceil(MaxPool2dOptions(3).stride(2).padding(1).ceil_mode(true));
  auto [y, i] = ceil->forward_with_indices(g["pool.x"]);
  EXPECT_TENSOR_CLOSE(y, g["maxpool2d_ceil.y"]);
  EXPECT_TENSOR_EQ(i, g["maxpool2d_ceil.i"]);
  EXPECT_TENSOR_CLOSE(ceil(g["pool.x"]), g["maxpool2d_ceil.y"]);
  EXPECT_TENSOR_CLOSE(AvgPool2d(AvgPool2dOptions(3).stride(2).padding(1).count_include_pad(false))(g["pool.x"]),
                      g["avgpool2d.y"]);
  EXPECT_TENSOR_CLOSE(MaxPool1d(MaxPool1dOptions(3).stride(2).dilation(2))(g["pool1d.x"]), g["maxpool1d.y"]);
  EXPECT_TENSOR_CLOSE(AvgPool1d(2)(g["pool1d.x"]), g["avgpool1d.y"]);
  EXPECT_TENSOR_CLOSE(MaxPool3d(2)(g["pool3d.x"]), g["maxpool3d.y"]);
  EXPECT_TENSOR_CLOSE(AvgPool3d(AvgPool3dOptions({2, 3, 2}).divisor_override(5))(g["pool3d.x"]), g["avgpool3d.y"]);
  // Functional forms.
  EXPECT_TENSOR_CLOSE(F::max_pool2d(g["pool.x"], F::MaxPool2dFuncOptions(2)), g["maxpool2d.y"]);
  EXPECT_TENSOR_CLOSE(F::avg_pool1d(g["pool1d.x"], F::AvgPool1dFuncOptions(2)), g["avgpool1d.y"]);
}

// LIBTORCH_API.md: real programs put the free op in a Sequential with its int arguments bound.
TEST(NNPoolModule, FunctionalMaxPoolInSequential) {
  const auto& g = golden();
  Sequential seq(Functional(torch::max_pool2d, 3, 2, 1, 1, true));
  EXPECT_TENSOR_CLOSE(seq->forward(g["pool.x"]), g["maxpool2d_ceil.y"]);
  Functional pool(torch::max_pool2d, 2, 2, 0, 1, false);
  EXPECT_TENSOR_CLOSE(pool(g["pool.x"]), g["maxpool2d.y"]);
}

TEST(NNPoolModule, PrettyPrint) {
  EXPECT_EQ(printed(MaxPool2d(MaxPool2dOptions(2))),
            "torch::nn::MaxPool2d(kernel_size=[2, 2], stride=[2, 2], padding=[0, 0], dilation=[1, 1], "
            "ceil_mode=false)");
  EXPECT_EQ(printed(MaxPool1d(MaxPool1dOptions(3).stride(2).padding(1).ceil_mode(true))),
            "torch::nn::MaxPool1d(kernel_size=3, stride=2, padding=1, dilation=1, ceil_mode=true)");
}

TEST(NNPoolModule, Errors) {
  EXPECT_EMBER_ERROR(MaxPool2d(2)(torch::randn({3})), "max_pool2d", "expected 3D or 4D");
  EXPECT_EMBER_ERROR(MaxPool2d(MaxPool2dOptions(2).padding(2))(torch::randn({1, 1, 4, 4})), "max_pool2d",
                     "pad should be at most half");
}

TEST(NNDropoutModule, TrainAndEval) {
  torch::manual_seed(0);
  Dropout drop(0.5);
  auto x = torch::ones({1000});
  auto y = drop(x);
  // Kept elements are scaled by 1/(1-p); about half are dropped.
  auto kept = (y != 0).sum().item<int64_t>();
  EXPECT_GT(kept, 400);
  EXPECT_LT(kept, 600);
  EXPECT_TENSOR_CLOSE(y.masked_select(y != 0), torch::full({kept}, 2.0f));
  drop->eval();
  EXPECT_TENSOR_EQ(drop(x), x);

  Dropout2d drop2d(0.5);
  auto z = drop2d(torch::ones({4, 50, 3, 3}));
  // Whole channels are zeroed or kept.
  auto per_channel = z.sum({2, 3});
  EXPECT_TRUE(((per_channel == 0) | (per_channel == 18)).all().item<bool>());
  drop2d->eval();
  EXPECT_TENSOR_EQ(drop2d(torch::ones({2, 3, 3})), torch::ones({2, 3, 3}));

  Dropout3d drop3d(Dropout3dOptions(1.0));
  EXPECT_TENSOR_EQ(drop3d(torch::ones({2, 3, 2, 2, 2})), torch::zeros({2, 3, 2, 2, 2}));

  AlphaDropout alpha(0.2);
  alpha->eval();
  EXPECT_TENSOR_EQ(alpha(x), x);
  alpha->train();
  EXPECT_FALSE(torch::equal(alpha(x), x));
  FeatureAlphaDropout falpha(0.2);
  falpha->eval();
  EXPECT_TENSOR_EQ(falpha(torch::ones({2, 3, 4})), torch::ones({2, 3, 4}));
}

TEST(NNDropoutModule, InplaceAndFunctional) {
  Dropout drop(DropoutOptions(1.0).inplace(true));
  auto x = torch::ones({5});
  drop(x);
  EXPECT_TENSOR_EQ(x, torch::zeros({5}));
  auto y = torch::ones({5});
  EXPECT_TENSOR_EQ(F::dropout(y, F::DropoutFuncOptions().p(0.3).training(false)), y);
  EXPECT_TENSOR_EQ(F::dropout(y, F::DropoutFuncOptions().p(1.0)), torch::zeros({5}));
}

TEST(NNDropoutModule, PrettyPrintAndErrors) {
  EXPECT_EQ(printed(Dropout(0.5)), "torch::nn::Dropout(p=0.5, inplace=false)");
  EXPECT_EQ(printed(Dropout(DropoutOptions().p(0.2).inplace(true))), "torch::nn::Dropout(p=0.2, inplace=true)");
  EXPECT_EQ(printed(Dropout2d()), "torch::nn::Dropout2d(p=0.5, inplace=false)");
  EXPECT_EQ(printed(Dropout3d(0.1)), "torch::nn::Dropout3d(p=0.1, inplace=false)");
  EXPECT_EMBER_ERROR(Dropout(1.5), "Dropout", "between 0 and 1");
  EXPECT_EMBER_ERROR(F::dropout(torch::ones({2}), F::DropoutFuncOptions().p(-0.1)), "dropout", "between 0 and 1");
  EXPECT_EMBER_ERROR(F::dropout2d(torch::ones({2, 2}), F::Dropout2dFuncOptions().p(2.0)), "dropout2d",
                     "between 0 and 1");
}

}  // namespace nn_layers_a_test
