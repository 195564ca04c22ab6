// F::interpolate(antialias=true) against torch 1.13 (tools/golden/gen_interpolate_aa.py):
// bilinear and bicubic, downsampling by size and scale factor, align_corners both ways,
// upsampling, and the input gradient for a fixed upstream gradient.
#include <gtest/gtest.h>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/ops/nn/interpolate.h"
#include "ember/torch.h"

namespace interpolate_aa_test {

namespace F = torch::nn::functional;
using ember::testing::Golden;
using torch::Tensor;
using Sizes = std::vector<int64_t>;
using Scales = std::vector<double>;

const Golden& golden() {
  static const Golden g("interpolate_aa.golden");
  return g;
}

struct Case {
  const char* name;
  F::InterpolateFuncOptions options;
};

std::vector<Case> cases() {
  using O = F::InterpolateFuncOptions;
  return {
      {"size_4x5", O().size(Sizes{4, 5})},
      {"size_3x3", O().size(Sizes{3, 3})},
      {"size_1x1", O().size(Sizes{1, 1})},
      {"size_2x12", O().size(Sizes{2, 12})},
      {"size_7x4", O().size(Sizes{7, 4})},
      {"scale_05", O().scale_factor(Scales{0.5, 0.5})},
      {"scale_03x07", O().scale_factor(Scales{0.3, 0.7})},
      {"scale_045_recompute", O().scale_factor(Scales{0.45, 0.45}).recompute_scale_factor(true)},
      {"up_size_15x20", O().size(Sizes{15, 20})},
      {"up_scale_16", O().scale_factor(Scales{1.6, 1.6})},
      {"mixed_size_20x6", O().size(Sizes{20, 6})},
  };
}

void run_mode(const char* mode_name, F::InterpolateFuncOptions::mode_t mode) {
  for (bool ac : {false, true}) {
    for (Case c : cases()) {
      const std::string key = std::string(mode_name) + (ac ? ".ac." : ".noac.") + c.name;
      SCOPED_TRACE(key);
      Tensor x = golden()["x"].clone().requires_grad_();
      Tensor y = F::interpolate(x, c.options.mode(mode).align_corners(ac).antialias(true));
      EXPECT_TENSOR_CLOSE_TOL(y, golden()[key + ".out"], 1e-10, 1e-12);
      Tensor up = torch::arange(y.numel(), torch::kDouble).reshape(y.sizes()) / static_cast<double>(y.numel());
      Tensor gx = torch::autograd::grad({y}, {x}, {up})[0];
      EXPECT_TENSOR_CLOSE_TOL(gx, golden()[key + ".grad"], 1e-10, 1e-12);
    }
  }
  // float32: torch computes the weights in float, Ember in double.
  const std::string f32 = std::string(mode_name) + ".float32.size_4x5";
  EXPECT_TENSOR_CLOSE_TOL(F::interpolate(golden()["x"].to(torch::kFloat),
                                         F::InterpolateFuncOptions().size(Sizes{4, 5}).mode(mode).antialias(true)),
                          golden()[f32], 1e-5, 1e-6);
  const std::string up = std::string(mode_name) + ".small_up_7x9";
  EXPECT_TENSOR_CLOSE_TOL(
      F::interpolate(golden()["x_small"], F::InterpolateFuncOptions().size(Sizes{7, 9}).mode(mode).antialias(true)),
      golden()[up], 1e-10, 1e-12);
}

TEST(NNInterpolateAntialias, BilinearGolden) { run_mode("bilinear", torch::kBilinear); }
TEST(NNInterpolateAntialias, BicubicGolden) { run_mode("bicubic", torch::kBicubic); }

TEST(NNInterpolateAntialias, UpsamplingBilinearIsPlainBilinear) {
  // Upsampling with antialias keeps the triangle filter's support, so bilinear equals plain
  // bilinear interpolation (torch agrees). Bicubic does not: the antialiased filter is PIL's
  // cubic (a = -0.5) with normalised weights at the borders, plain bicubic uses a = -0.75.
  const Tensor xs = golden()["x_small"];
  const Tensor aa =
      F::interpolate(xs, F::InterpolateFuncOptions().size(Sizes{7, 9}).mode(torch::kBilinear).antialias(true));
  const Tensor plain = F::interpolate(xs, F::InterpolateFuncOptions().size(Sizes{7, 9}).mode(torch::kBilinear));
  EXPECT_TENSOR_CLOSE_TOL(aa, plain, 1e-12, 1e-12);
  EXPECT_TENSOR_CLOSE_TOL(golden()["bilinear.small_up_7x9"], golden()["bilinear.small_up_7x9.plain"], 1e-12, 1e-12);
  EXPECT_FALSE(ember::testing::tensors_close(golden()["bicubic.small_up_7x9"], golden()["bicubic.small_up_7x9.plain"],
                                             1e-3, 1e-3));
}

TEST(NNInterpolateAntialias, AtenOpsAndErrors) {
  const Tensor x = golden()["x"];
  EXPECT_TENSOR_CLOSE_TOL(torch::_upsample_bilinear2d_aa(x, {4, 5}, false), golden()["bilinear.noac.size_4x5.out"],
                          1e-10, 1e-12);
  EXPECT_TENSOR_CLOSE_TOL(torch::_upsample_bicubic2d_aa(x, {4, 5}, true), golden()["bicubic.ac.size_4x5.out"], 1e-10,
                          1e-12);
  EXPECT_EMBER_ERROR(torch::_upsample_bilinear2d_aa(x[0], {4, 5}, false), "_upsample_bilinear2d_aa", "4D");
  EXPECT_EMBER_ERROR(torch::_upsample_bicubic2d_aa(x, {0, 5}, false), "_upsample_bicubic2d_aa", "greater than 0");
  EXPECT_EMBER_ERROR(torch::_upsample_bilinear2d_aa(x.to(torch::kLong), {4, 5}, false), "_upsample_bilinear2d_aa",
                     "floating-point");
}

}  // namespace interpolate_aa_test
