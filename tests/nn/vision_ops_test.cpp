// grid_sample, affine_grid, pdist, channel_shuffle, max_unpool and lp_pool
// with LibTorch's spellings (functional and modules): outputs and gradients
// against torch 1.13's (tools/golden/gen_vision_ops.py), and bad input.
#include <gtest/gtest.h>

#include <sstream>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/torch.h"

namespace vision_ops_test {

namespace F = torch::nn::functional;
using ember::testing::Golden;
using Inputs = std::vector<torch::Tensor>;

const Golden& golden() {
  static const Golden g("vision_ops.golden");
  return g;
}
torch::Tensor G(const std::string& name) { return golden()[name]; }
void check(const std::string& name, int n, const std::function<torch::Tensor(const Inputs&)>& f) {
  SCOPED_TRACE(name);
  ember::testing::expect_golden_case(golden(), name, n, f);
}

F::GridSampleFuncOptions grid_options(const std::string& mode, const std::string& padding, bool align) {
  F::GridSampleFuncOptions o;
  if (mode == "nearest") o.mode(torch::kNearest);
  if (padding == "border") o.padding_mode(torch::kBorder);
  if (padding == "reflection") o.padding_mode(torch::kReflection);
  return o.align_corners(align);
}

TEST(VisionOps, GridSampleEveryModePaddingAndAlignment) {
  for (const std::string mode : {"bilinear", "nearest"})
    for (const std::string padding : {"zeros", "border", "reflection"})
      for (int align : {0, 1}) {
        const std::string name = "grid_sample_" + mode + "_" + padding + "_" + std::to_string(align);
        const auto options = grid_options(mode, padding, align != 0);
        if (mode == "nearest") {
          SCOPED_TRACE(name);
          EXPECT_TENSOR_CLOSE(F::grid_sample(G(name + ".x0"), G(name + ".x1"), options), G(name + ".y"));
        } else {
          check(name, 2, [&](const Inputs& x) { return F::grid_sample(x[0], x[1], options); });
        }
      }
  check("grid_sample3d_bilinear_zeros_0", 2, [](const Inputs& x) { return F::grid_sample(x[0], x[1]); });
  check("grid_sample3d_bilinear_reflection_1", 2, [](const Inputs& x) {
    return F::grid_sample(x[0], x[1], F::GridSampleFuncOptions().padding_mode(torch::kReflection).align_corners(true));
  });
}

TEST(VisionOps, AffineGridAndTheSpatialTransformer) {
  check("affine_grid_0", 1, [](const Inputs& x) { return F::affine_grid(x[0], {2, 3, 4, 5}); });
  check("affine_grid_1", 1, [](const Inputs& x) { return F::affine_grid(x[0], {2, 3, 1, 5}, true); });
  check("affine_grid3d_0", 1, [](const Inputs& x) { return F::affine_grid(x[0], {1, 2, 3, 4, 2}); });
  check("affine_then_sample", 2, [](const Inputs& x) {
    return F::grid_sample(x[0], F::affine_grid(x[1], {2, 3, 3, 4}));
  });
  // the identity transform reproduces the input
  const auto img = torch::randn({1, 2, 3, 4});
  const auto identity = torch::tensor({1.f, 0.f, 0.f, 0.f, 1.f, 0.f}).view({1, 2, 3});
  EXPECT_TENSOR_CLOSE(F::grid_sample(img, F::affine_grid(identity, {1, 2, 3, 4})), img);
}

TEST(VisionOps, GridSampleBadInput) {
  const auto img = torch::randn({1, 2, 3, 4});
  EXPECT_EMBER_ERROR(F::grid_sample(img, torch::zeros({1, 2, 2, 3})), "grid_sampler", "size 2 in last dimension",
                     "[1, 2, 2, 3]");
  EXPECT_EMBER_ERROR(F::grid_sample(img, torch::zeros({2, 2, 2, 2})), "grid_sampler", "same batch size");
  EXPECT_EMBER_ERROR(F::grid_sample(img, torch::zeros({1, 2, 2})), "grid_sampler", "4D or 5D");
  EXPECT_EMBER_ERROR(F::grid_sample(img, torch::zeros({1, 2, 2, 2}, torch::kDouble)), "grid_sampler", "float32",
                     "float64");
  EXPECT_EMBER_ERROR(F::grid_sample(torch::randn({1, 2, 0, 4}), torch::zeros({1, 2, 2, 2})), "grid_sampler",
                     "non-empty spatial dimensions");
  EXPECT_EMBER_ERROR(F::affine_grid(torch::zeros({1, 3, 3}), {1, 2, 3, 4}), "affine_grid", "Nx2x3", "[1, 3, 3]");
  EXPECT_EMBER_ERROR(F::affine_grid(torch::zeros({1, 2, 3}), {1, 2, 0, 4}), "affine_grid", "positive output size");
  // a far or NaN grid point reads zeros padding, never memory outside the input
  const auto far = torch::tensor({1e30f, std::numeric_limits<float>::quiet_NaN()}).view({1, 1, 1, 2});
  EXPECT_EQ(F::grid_sample(img, far).abs().sum().item<float>(), 0.f);
}

TEST(VisionOps, PdistAndChannelShuffle) {
  check("pdist_2", 1, [](const Inputs& x) { return F::pdist(x[0]); });
  check("pdist_1", 1, [](const Inputs& x) { return torch::pdist(x[0], 1); });
  check("pdist_inf", 1, [](const Inputs& x) { return F::pdist(x[0], std::numeric_limits<double>::infinity()); });
  check("pdist_3", 1, [](const Inputs& x) { return F::pdist(x[0], 3); });
  // torch.pdist([[0, 0], [3, 4], [6, 8]]) == [5, 10, 5]
  EXPECT_TENSOR_EQ(torch::pdist(torch::tensor({0.f, 0.f, 3.f, 4.f, 6.f, 8.f}).view({3, 2})),
                   torch::tensor({5.f, 10.f, 5.f}));
  EXPECT_EQ(torch::pdist(torch::zeros({1, 3})).numel(), 0);
  EXPECT_EMBER_ERROR(torch::pdist(torch::zeros({2, 3, 3})), "pdist", "only supports 2D tensors", "3D");
  EXPECT_EMBER_ERROR(torch::pdist(torch::zeros({3, 2}), -1), "pdist", "non-negative p");
  EXPECT_EMBER_ERROR(torch::pdist(torch::zeros({3, 2}, torch::kLong)), "pdist", "floating-point", "int64");

  EXPECT_TENSOR_EQ(torch::channel_shuffle(G("channel_shuffle.x0"), 3), G("channel_shuffle.y"));
  // torch.channel_shuffle(arange(12.).view(1, 6, 2), 3)
  EXPECT_TENSOR_EQ(torch::channel_shuffle(torch::arange(12.).view({1, 6, 2}), 3).view({-1}),
                   torch::tensor({0.f, 1.f, 4.f, 5.f, 8.f, 9.f, 2.f, 3.f, 6.f, 7.f, 10.f, 11.f}));
  EXPECT_EMBER_ERROR(torch::channel_shuffle(torch::zeros({1, 5, 2}), 2), "channel_shuffle",
                     "Number of channels must be divisible by groups. Got 5 channels and 2 groups.");
  EXPECT_EMBER_ERROR(torch::channel_shuffle(torch::zeros({1, 6, 2}), 0), "channel_shuffle", "must be positive");
  EXPECT_EMBER_ERROR(torch::channel_shuffle(torch::zeros({6, 2}), 3), "channel_shuffle", "> 2 dims", "[6, 2]");
}

TEST(VisionOps, MaxUnpoolPlacesValuesAtTheirIndices) {
  const auto i2 = G("max_unpool2d.indices");
  check("max_unpool2d", 1, [&](const Inputs& x) { return F::max_unpool2d(x[0], i2, F::MaxUnpool2dFuncOptions(2)); });
  check("max_unpool2d_size", 1, [&](const Inputs& x) {
    return F::max_unpool2d(x[0], i2, F::MaxUnpool2dFuncOptions(2).output_size(std::vector<int64_t>{2, 3, 7, 9}));
  });
  const auto i1 = G("max_unpool1d.indices");
  check("max_unpool1d", 1, [&](const Inputs& x) {
    torch::nn::MaxUnpool1d unpool(torch::nn::MaxUnpool1dOptions(3).stride(2));
    return unpool(x[0], i1);
  });
  const auto i3 = G("max_unpool3d.indices");
  check("max_unpool3d", 1, [&](const Inputs& x) { return torch::nn::MaxUnpool3d(2)->forward(x[0], i3); });
  // the module with an output size, unbatched input, and its printed form
  torch::nn::MaxUnpool2d unpool(torch::nn::MaxUnpool2dOptions(2).stride(2));
  const auto [pooled, idx] = F::max_pool2d_with_indices(torch::randn({3, 4, 4}), F::MaxPool2dFuncOptions(2));
  EXPECT_EQ(unpool(pooled, idx, std::vector<int64_t>{5, 5}).sizes(), std::vector<int64_t>({3, 5, 5}));
  std::ostringstream s;
  s << *unpool;
  EXPECT_EQ(s.str(), "torch::nn::MaxUnpool2d(kernel_size=[2, 2], stride=[2, 2], padding=[0, 0])");
  // torch: indices past the output raise; output sizes beyond one stride raise
  const auto v = torch::tensor({5.f, 6.f, 7.f, 8.f}).view({1, 1, 2, 2});
  EXPECT_EMBER_ERROR(
      F::max_unpool2d(v, torch::tensor({0, 3, 9, 16}, torch::kLong).view({1, 1, 2, 2}), F::MaxUnpool2dFuncOptions(2)),
      "max_unpool2d", "Found an invalid max index: 16", "4x4");
  EXPECT_EMBER_ERROR(F::max_unpool2d(v, torch::zeros({1, 1, 2, 2}, torch::kLong),
                                     F::MaxUnpool2dFuncOptions(2).output_size(std::vector<int64_t>{7, 7})),
                     "max_unpool2d", "invalid output_size", "between 2 and 6");
  EXPECT_EMBER_ERROR(F::max_unpool2d(v, torch::zeros({1, 1, 2, 2}, torch::kInt), F::MaxUnpool2dFuncOptions(2)),
                     "max_unpool2d", "int64", "int32");
}

TEST(VisionOps, LpPool) {
  check("lp_pool2d_2", 1, [](const Inputs& x) { return F::lp_pool2d(x[0], F::LPPool2dFuncOptions(2, 3).stride(2)); });
  check("lp_pool2d_3_ceil", 1, [](const Inputs& x) {
    return torch::nn::LPPool2d(torch::nn::LPPool2dOptions(3, {2, 3}).ceil_mode(true))(x[0].abs() + 0.1);
  });
  check("lp_pool1d_2", 1, [](const Inputs& x) { return torch::nn::LPPool1d(2, 3)(x[0]); });
  std::ostringstream s;
  s << *torch::nn::LPPool2d(torch::nn::LPPool2dOptions(2, 3).stride(2));
  EXPECT_EQ(s.str(), "torch::nn::LPPool2d(norm_type=2, kernel_size=[3, 3], stride=[2, 2], ceil_mode=false)");
}

TEST(ParameterContainers, ListAndDictRegisterTheirParameters) {
  torch::nn::ParameterList list(torch::ones({2}), torch::zeros({3}, torch::requires_grad()));
  list->append(torch::randn({4}));
  ASSERT_EQ(list->size(), 3u);
  EXPECT_EQ(list[1].numel(), 3);
  EXPECT_TRUE(list[1].requires_grad());
  EXPECT_FALSE(list[0].requires_grad());  // each keeps its tensor's requires_grad
  const auto named = list->named_parameters();
  EXPECT_EQ(named.keys(), std::vector<std::string>({"0", "1", "2"}));
  std::ostringstream s;
  s << *list;
  EXPECT_NE(s.str().find("(1): Parameter containing: [Float of size [3]]"), std::string::npos) << s.str();

  struct Net : torch::nn::Module {
    torch::nn::ParameterDict dict{nullptr};
    Net() { dict = register_module("dict", torch::nn::ParameterDict()); }
  } net;
  net.dict->insert("w", torch::randn({2, 2}, torch::requires_grad()));
  net.dict->insert("b", torch::zeros({2}, torch::requires_grad()));
  EXPECT_EQ(net.named_parameters().keys(), std::vector<std::string>({"dict.w", "dict.b"}));
  EXPECT_TRUE(net.dict->contains("b"));
  net.dict->insert("b", torch::ones({2}));  // replaces in place
  EXPECT_EQ(net.dict["b"].sum().item<float>(), 2.f);
  EXPECT_EQ(net.dict->pop("w").numel(), 4);
  EXPECT_EQ(net.dict->keys(), std::vector<std::string>({"b"}));
  EXPECT_EMBER_ERROR(net.dict->get("w"), "ParameterDict", "Parameter 'w' is not defined");
  EXPECT_EMBER_ERROR(list->at(7), "ParameterList", "index 7 is out of range");
  // clones copy the values into new leaves
  auto copy = std::dynamic_pointer_cast<torch::nn::ParameterListImpl>(list->clone());
  ASSERT_TRUE(copy);
  EXPECT_EQ(copy->size(), 3u);
  EXPECT_TRUE(copy->at(1).requires_grad());
  EXPECT_FALSE(copy->at(2).is_same(list[2]));
  EXPECT_TENSOR_EQ(copy->at(2), list[2]);
}

}  // namespace vision_ops_test
