// F::interpolate in every mode against PyTorch (tools/golden/gen_interpolate.py), the
// Upsample / PixelShuffle / PixelUnshuffle modules, and interpolate's argument errors.
#include <gtest/gtest.h>

#include <sstream>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/torch.h"

namespace upsampling_test {

using namespace torch::nn;
namespace F = torch::nn::functional;
using ember::testing::Golden;
using torch::Tensor;
using Sizes = std::vector<int64_t>;
using Scales = std::vector<double>;

const Golden& golden() {
  static const Golden g("interpolate.golden");
  return g;
}

Tensor x(int d) { return golden()["x" + std::to_string(d) + "d"]; }

void expect_case(const std::string& name, int d, const F::InterpolateFuncOptions& o) {
  SCOPED_TRACE(name);
  EXPECT_TENSOR_CLOSE_TOL(F::interpolate(x(d), o), golden()[name], 1e-5, 1e-5);
}

TEST(NNInterpolate, NearestGolden) {
  expect_case("nearest1d_size", 1, F::InterpolateFuncOptions().size(Sizes{8}));
  expect_case("nearest1d_down", 1, F::InterpolateFuncOptions().size(Sizes{3}));
  expect_case("nearest1d_scale", 1, F::InterpolateFuncOptions().scale_factor(Scales{1.7}));
  expect_case("nearest2d_size", 2, F::InterpolateFuncOptions().size(Sizes{7, 3}).mode(torch::kNearest));
  expect_case("nearest2d_scale", 2, F::InterpolateFuncOptions().scale_factor(Scales{2.0, 1.5}));
  expect_case("nearest3d_size", 3, F::InterpolateFuncOptions().size(Sizes{5, 6, 4}));
  expect_case("nearest3d_scale", 3, F::InterpolateFuncOptions().scale_factor(Scales{1.5, 2.0, 1.7}));
  expect_case("exact1d", 1, F::InterpolateFuncOptions().size(Sizes{8}).mode(torch::kNearestExact));
  expect_case("exact2d_scale", 2,
              F::InterpolateFuncOptions().scale_factor(Scales{1.7, 0.6}).mode(torch::kNearestExact));
  expect_case("exact3d", 3, F::InterpolateFuncOptions().size(Sizes{5, 3, 7}).mode(torch::kNearestExact));
}

TEST(NNInterpolate, LinearFamilyGolden) {
  auto o = [] { return F::InterpolateFuncOptions(); };
  expect_case("linear", 1, o().size(Sizes{9}).mode(torch::kLinear));
  expect_case("linear_ac", 1, o().size(Sizes{9}).mode(torch::kLinear).align_corners(true));
  expect_case("linear_scale", 1, o().scale_factor(Scales{2.5}).mode(torch::kLinear));
  expect_case("linear_recompute", 1, o().scale_factor(Scales{2.5}).mode(torch::kLinear).recompute_scale_factor(true));
  expect_case("bilinear", 2, o().size(Sizes{7, 9}).mode(torch::kBilinear));
  expect_case("bilinear_ac", 2, o().size(Sizes{7, 9}).mode(torch::kBilinear).align_corners(true));
  expect_case("bilinear_scale", 2, o().scale_factor(Scales{1.5, 2.2}).mode(torch::kBilinear));
  expect_case("bilinear_down", 2, o().size(Sizes{3, 2}).mode(torch::kBilinear).align_corners(false));
  expect_case("bicubic", 2, o().size(Sizes{6, 7}).mode(torch::kBicubic));
  expect_case("bicubic_ac", 2, o().size(Sizes{6, 7}).mode(torch::kBicubic).align_corners(true));
  expect_case("bicubic_scale", 2, o().scale_factor(Scales{1.8, 1.8}).mode(torch::kBicubic));
  expect_case("trilinear", 3, o().size(Sizes{5, 7, 4}).mode(torch::kTrilinear));
  expect_case("trilinear_ac", 3, o().size(Sizes{5, 7, 4}).mode(torch::kTrilinear).align_corners(true));
  expect_case("trilinear_scale", 3, o().scale_factor(Scales{2, 2, 2}).mode(torch::kTrilinear));
}

TEST(NNInterpolate, AreaGolden) {
  expect_case("area1d_scale", 1, F::InterpolateFuncOptions().scale_factor(Scales{0.5}).mode(torch::kArea));
  expect_case("area2d", 2, F::InterpolateFuncOptions().size(Sizes{2, 3}).mode(torch::kArea));
  expect_case("area3d", 3, F::InterpolateFuncOptions().size(Sizes{2, 2, 2}).mode(torch::kArea));
}

TEST(NNInterpolate, Errors) {
  const Tensor x2 = x(2);
  EXPECT_EMBER_ERROR(F::interpolate(x2, F::InterpolateFuncOptions()), "interpolate", "either size or scale_factor");
  EXPECT_EMBER_ERROR(F::interpolate(x2, F::InterpolateFuncOptions().size(Sizes{2, 2}).scale_factor(Scales{2, 2})),
                     "interpolate", "only one of size or scale_factor");
  EXPECT_EMBER_ERROR(F::interpolate(x2, F::InterpolateFuncOptions().size(Sizes{4})), "interpolate",
                     "same number of spatial dimensions");
  EXPECT_EMBER_ERROR(F::interpolate(x2, F::InterpolateFuncOptions().size(Sizes{4, 4}).align_corners(true)),
                     "interpolate", "align_corners option can only be set");
  EXPECT_EMBER_ERROR(F::interpolate(x2, F::InterpolateFuncOptions().size(Sizes{4, 4}).mode(torch::kLinear)),
                     "interpolate", "linear mode needs 3D input");
  EXPECT_EMBER_ERROR(F::interpolate(x2, F::InterpolateFuncOptions().size(Sizes{4, 4}).recompute_scale_factor(true)),
                     "interpolate", "recompute_scale_factor");
  EXPECT_EMBER_ERROR(F::interpolate(torch::randn({2, 3}), F::InterpolateFuncOptions().size(Sizes{4})), "interpolate",
                     "3D, 4D and 5D");
  EXPECT_EMBER_ERROR(F::interpolate(x2, F::InterpolateFuncOptions().size(Sizes{4, 4}).antialias(true)), "interpolate",
                     "Anti-alias option is only supported for bilinear and bicubic modes");
  EXPECT_EMBER_ERROR(
      F::interpolate(x(3), F::InterpolateFuncOptions().size(Sizes{2, 2, 2}).mode(torch::kTrilinear).antialias(true)),
      "interpolate", "Anti-alias option");
}

TEST(NNUpsample, ModuleGoldenAndPrint) {
  Upsample up(UpsampleOptions().scale_factor(Scales{2, 2}).mode(torch::kBilinear).align_corners(true));
  EXPECT_TENSOR_CLOSE_TOL(up(x(2)), golden()["upsample_module"], 1e-5, 1e-5);
  std::ostringstream os;
  os << *up;
  EXPECT_EQ(os.str(), "torch::nn::Upsample(scale_factor=[2, 2], mode=kBilinear)");
  Upsample nearest(UpsampleOptions().size(Sizes{7, 3}));
  EXPECT_TENSOR_CLOSE(nearest(x(2)), golden()["nearest2d_size"]);
}

TEST(NNPixelShuffle, ModulesAndFunctionalGolden) {
  const auto& g = golden();
  PixelShuffle ps(2);
  EXPECT_TENSOR_EQ(ps(g["ps.x"]), g["ps.y"]);
  EXPECT_TENSOR_EQ(F::pixel_shuffle(g["ps.x"], F::PixelShuffleFuncOptions(2)), g["ps.y"]);
  PixelUnshuffle pu(PixelUnshuffleOptions(2));
  EXPECT_TENSOR_EQ(pu(g["pu.x"]), g["pu.y"]);
  EXPECT_TENSOR_EQ(F::pixel_unshuffle(g["pu.x"], 2), g["pu.y"]);
  EXPECT_TENSOR_EQ(ps(pu(g["pu.x"])), g["pu.x"]);  // inverse of each other
  std::ostringstream os;
  os << *ps << " " << *pu;
  EXPECT_EQ(os.str(), "torch::nn::PixelShuffle(upscale_factor=2) torch::nn::PixelUnshuffle(downscale_factor=2)");
  EXPECT_EMBER_ERROR(pu(torch::zeros({1, 1, 3, 4})), "pixel_unshuffle", "divisible");
}

}  // namespace upsampling_test
