// ember::vision::ops::deform_conv2d and DeformConv2d: outputs and the
// gradients of input, offset, weight, bias and mask against torchvision
// 0.14's (tools/golden/gen_vision_ops_torchvision.py), and bad input.
#include <gtest/gtest.h>

#include <sstream>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/torch.h"
#include "ember/vision/ops/deform_conv.h"

namespace vision_ops_deform_conv_test {

namespace ops = ember::vision::ops;
using ember::Tensor;
using ember::testing::Golden;
using Inputs = std::vector<Tensor>;

const Golden& golden() {
  static const Golden g("vision_ops_torchvision.golden");
  return g;
}

TEST(VisionOpsDeformConv, MatchesTorchvision) {
  const Golden& g = golden();
  ember::testing::expect_golden_case(g, "deform_conv2d_mask", 5, [](const Inputs& x) {
    return ops::deform_conv2d(x[0], x[1], x[2], x[3], {1, 2}, 1, 1, x[4]);
  });
  ember::testing::expect_golden_case(g, "deform_conv2d_nomask", 4, [](const Inputs& x) {
    return ops::deform_conv2d(x[0], x[1], x[2], x[3], {1, 2}, 1);
  });
  ember::testing::expect_golden_case(g, "deform_conv2d_dilated", 3, [](const Inputs& x) {
    return ops::deform_conv2d(x[0], x[1], x[2], std::nullopt, 1, 0, {2, 2});
  });
  ember::testing::expect_golden_case(g, "deform_conv2d_f32", 5, [](const Inputs& x) {
    return ops::deform_conv2d(x[0], x[1], x[2], x[3], 1, 1, 1, x[4]);
  });
}

TEST(VisionOpsDeformConv, ZeroOffsetsAreAConvolution) {
  const Tensor x = ember::randn({2, 4, 5, 6}, ember::kFloat64), w = ember::randn({6, 2, 3, 3}, ember::kFloat64);
  const Tensor b = ember::randn({6}, ember::kFloat64);
  const Tensor off = ember::zeros({2, 18, 5, 3}, ember::kFloat64);
  const Tensor expected = ember::conv2d(x, w, b, {1, 2}, {1, 1}, {1, 1}, 2);
  EXPECT_TENSOR_CLOSE(ops::deform_conv2d(x, off, w, b, {1, 2}, 1), expected);
}

TEST(VisionOpsDeformConv, Module) {
  ops::DeformConv2d conv(ops::DeformConv2dOptions(4, 6, 3).padding(1).groups(2));
  EXPECT_EQ(conv->weight.sizes(), (std::vector<int64_t>{6, 2, 3, 3}));
  EXPECT_EQ(conv->bias.sizes(), (std::vector<int64_t>{6}));
  const auto sd = conv->named_parameters();
  EXPECT_TRUE(sd.contains("weight") && sd.contains("bias"));
  const Tensor x = ember::randn({1, 4, 5, 5});
  const Tensor y = conv(x, ember::zeros({1, 18, 5, 5}));
  EXPECT_TENSOR_CLOSE(y, ember::conv2d(x, conv->weight, conv->bias, 1, 1, 1, 2));
  std::ostringstream s;
  s << *conv;
  EXPECT_EQ(s.str(), "DeformConv2d(4, 6, kernel_size=(3, 3), stride=(1, 1), padding=(1, 1), groups=2)");
  ops::DeformConv2d nobias(ops::DeformConv2dOptions(2, 2, {1, 2}).bias(false));
  EXPECT_FALSE(nobias->bias.defined());
  EXPECT_EMBER_ERROR(ops::DeformConv2d(ops::DeformConv2dOptions(3, 6, 3).groups(2)), "DeformConv2d", "in_channels");
}

TEST(VisionOpsDeformConv, BadInputRaises) {
  const Tensor x = ember::randn({1, 4, 5, 5}), w = ember::randn({2, 4, 3, 3}), off = ember::zeros({1, 18, 3, 3});
  EXPECT_EMBER_ERROR(ops::deform_conv2d(x.view({4, 5, 5}), off, w), "deform_conv2d", "input", "4-D");
  EXPECT_EMBER_ERROR(ops::deform_conv2d(x, ember::zeros({1, 17, 3, 3}), w), "deform_conv2d", "offset.shape[1]=17");
  EXPECT_EMBER_ERROR(ops::deform_conv2d(x, ember::zeros({1, 18, 4, 3}), w), "deform_conv2d", "offset output dims");
  EXPECT_EMBER_ERROR(ops::deform_conv2d(x, ember::zeros({2, 18, 3, 3}), w), "deform_conv2d", "batch size of offset");
  EXPECT_EMBER_ERROR(ops::deform_conv2d(x, off, w, std::nullopt, 1, 0, 1, ember::ones({1, 8, 3, 3})), "deform_conv2d",
                     "mask.shape[1]");
  EXPECT_EMBER_ERROR(ops::deform_conv2d(x, off, ember::randn({2, 3, 3, 3})), "deform_conv2d", "multiple");
  EXPECT_EMBER_ERROR(ops::deform_conv2d(x, off, w, ember::ones({3})), "deform_conv2d", "bias");
  EXPECT_EMBER_ERROR(ops::deform_conv2d(x, off, w, std::nullopt, 0), "deform_conv2d", "stride");
  EXPECT_EMBER_ERROR(ops::deform_conv2d(x, ember::zeros({1, 98, 1, 1}), ember::randn({2, 4, 7, 7})), "deform_conv2d",
                     "too small");
  EXPECT_EMBER_ERROR(ops::deform_conv2d(x, off.to(ember::kFloat64), w), "deform_conv2d", "dtype");
  // NaN offsets sample zero instead of reading out of bounds.
  const Tensor y = ops::deform_conv2d(x, ember::full({1, 18, 3, 3}, NAN), w);
  EXPECT_TRUE(y.eq(0).all().item<bool>());
}

}  // namespace vision_ops_deform_conv_test
