// ember::vision::transforms::functional against torchvision 0.14
// (tools/golden/gen_vision_transforms.py): every golden case `<case>.<input>`
// is run here with the same arguments. uint8 results are exact where
// torchvision is exact and within 1 where it rounds through float.
#include <gtest/gtest.h>

#include <functional>
#include <map>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/torch.h"
#include "ember/vision/transforms/functional.h"

namespace {

using namespace torch;
namespace F = torch::vision::transforms::functional;
using IM = torch::vision::transforms::InterpolationMode;
using torch::testing::Golden;

const Golden& golden() {
  static const Golden g("vision_transforms.golden");
  return g;
}

std::vector<double> fill3(const Tensor& x) {
  return x.is_floating_point() ? std::vector<double>{0.1, 0.8, 0.3} : std::vector<double>{10.0, 200.0, 77.0};
}
std::vector<double> fill1(const Tensor& x) {
  return x.is_floating_point() ? std::vector<double>{0.6} : std::vector<double>{99.0};
}
Tensor disp(const Tensor& x) { return golden()[x.size(-2) == 7 ? "disp.7x9" : "disp.8x8"]; }
Tensor stack5(const std::tuple<Tensor, Tensor, Tensor, Tensor, Tensor>& t) {
  return stack({std::get<0>(t), std::get<1>(t), std::get<2>(t), std::get<3>(t), std::get<4>(t)});
}

using Fn = std::function<Tensor(const Tensor&)>;
// Tolerance class of each case: exact, or off by one where torchvision rounds
// float results back to integers (and float results are close, not equal).
enum class Tol { kExact, kRound, kGrid };
struct Case {
  Fn fn;
  Tol tol;
};

const std::map<std::string, Case>& cases() {
  static const std::map<std::string, Case> c = {
      {"resize.bilinear_4x5",
       {[](const Tensor& x) {
          return F::resize(x, {4, 5});
        },
        Tol::kRound}},
      {"resize.bilinear_short5", {[](const Tensor& x) { return F::resize(x, 5); }, Tol::kRound}},
      {"resize.bilinear_up_12x10",
       {[](const Tensor& x) {
          return F::resize(x, {12, 10});
        },
        Tol::kRound}},
      {"resize.bilinear_aa_4x5",
       {[](const Tensor& x) {
          return F::resize(x, {4, 5}, IM::BILINEAR, std::nullopt, true);
        },
        Tol::kRound}},
      {"resize.bilinear_aa_short3",
       {[](const Tensor& x) { return F::resize(x, {3}, IM::BILINEAR, std::nullopt, true); }, Tol::kRound}},
      {"resize.bicubic_4x6",
       {[](const Tensor& x) {
          return F::resize(x, {4, 6}, IM::BICUBIC);
        },
        Tol::kRound}},
      {"resize.bicubic_up_13x11",
       {[](const Tensor& x) {
          return F::resize(x, {13, 11}, IM::BICUBIC);
        },
        Tol::kRound}},
      {"resize.bicubic_aa_5x4",
       {[](const Tensor& x) {
          return F::resize(x, {5, 4}, IM::BICUBIC, std::nullopt, true);
        },
        Tol::kRound}},
      {"resize.nearest_4x5",
       {[](const Tensor& x) {
          return F::resize(x, {4, 5}, IM::NEAREST);
        },
        Tol::kExact}},
      {"resize.nearest_up_11x13",
       {[](const Tensor& x) {
          return F::resize(x, {11, 13}, IM::NEAREST);
        },
        Tol::kExact}},
      {"resize.nearest_exact_5x4",
       {[](const Tensor& x) {
          return F::resize(x, {5, 4}, IM::NEAREST_EXACT);
        },
        Tol::kExact}},
      {"resize.nearest_exact_up_11x13",
       {[](const Tensor& x) {
          return F::resize(x, {11, 13}, IM::NEAREST_EXACT);
        },
        Tol::kExact}},
      {"resize.max_size_short5_max6",
       {[](const Tensor& x) { return F::resize(x, {5}, IM::BILINEAR, 6); }, Tol::kRound}},
      {"resize.same_size",
       {[](const Tensor& x) {
          return F::resize(x, {x.size(-2), x.size(-1)});
        },
        Tol::kExact}},
      {"pad.constant_2_fill7",
       {[](const Tensor& x) { return F::pad(x, {2}, x.is_floating_point() ? 0.7 : 7.0); }, Tol::kExact}},
      {"pad.edge_1_2",
       {[](const Tensor& x) {
          return F::pad(x, {1, 2}, 0, "edge");
        },
        Tol::kExact}},
      {"pad.reflect_1_2_3_1",
       {[](const Tensor& x) {
          return F::pad(x, {1, 2, 3, 1}, 0, "reflect");
        },
        Tol::kExact}},
      {"pad.symmetric_2_1_0_3",
       {[](const Tensor& x) {
          return F::pad(x, {2, 1, 0, 3}, 0, "symmetric");
        },
        Tol::kExact}},
      {"pad.constant_neg",
       {[](const Tensor& x) {
          return F::pad(x, {-1, 2});
        },
        Tol::kExact}},
      {"pad.symmetric_neg",
       {[](const Tensor& x) {
          return F::pad(x, {-1, 1, 2, -2}, 0, "symmetric");
        },
        Tol::kExact}},
      {"crop.inside", {[](const Tensor& x) { return F::crop(x, 1, 2, 4, 5); }, Tol::kExact}},
      {"crop.outside", {[](const Tensor& x) { return F::crop(x, -2, -1, 5, 6); }, Tol::kExact}},
      {"crop.past_end", {[](const Tensor& x) { return F::crop(x, 3, 4, 6, 8); }, Tol::kExact}},
      {"center_crop.4x5",
       {[](const Tensor& x) {
          return F::center_crop(x, {4, 5});
        },
        Tol::kExact}},
      {"center_crop.larger_10x12",
       {[](const Tensor& x) {
          return F::center_crop(x, {10, 12});
        },
        Tol::kExact}},
      {"center_crop.6", {[](const Tensor& x) { return F::center_crop(x, 6); }, Tol::kExact}},
      {"resized_crop.bilinear",
       {[](const Tensor& x) {
          return F::resized_crop(x, 1, 1, 5, 6, {4, 4});
        },
        Tol::kRound}},
      {"resized_crop.nearest_up",
       {[](const Tensor& x) {
          return F::resized_crop(x, 0, 2, 4, 4, {6, 7}, IM::NEAREST);
        },
        Tol::kExact}},
      {"five_crop.3x4",
       {[](const Tensor& x) {
          return stack5(F::five_crop(x, {3, 4}));
        },
        Tol::kExact}},
      {"ten_crop.3x4",
       {[](const Tensor& x) {
          return stack(F::ten_crop(x, {3, 4}));
        },
        Tol::kExact}},
      {"ten_crop.3x4_vflip",
       {[](const Tensor& x) {
          return stack(F::ten_crop(x, {3, 4}, true));
        },
        Tol::kExact}},
      {"hflip", {[](const Tensor& x) { return F::hflip(x); }, Tol::kExact}},
      {"vflip", {[](const Tensor& x) { return F::vflip(x); }, Tol::kExact}},
      {"rotate.30_nearest", {[](const Tensor& x) { return F::rotate(x, 30.0); }, Tol::kGrid}},
      {"rotate.45_bilinear", {[](const Tensor& x) { return F::rotate(x, 45.0, IM::BILINEAR); }, Tol::kGrid}},
      {"rotate.33_bilinear_expand",
       {[](const Tensor& x) { return F::rotate(x, 33.0, IM::BILINEAR, true); }, Tol::kGrid}},
      {"rotate.90_nearest_expand", {[](const Tensor& x) { return F::rotate(x, 90.0, IM::NEAREST, true); }, Tol::kGrid}},
      {"rotate.m20_center_fill",
       {[](const Tensor& x) {
          return F::rotate(x, -20.0, IM::NEAREST, false, std::vector<int64_t>{2, 3}, fill3(x));
        },
        Tol::kGrid}},
      {"rotate.60_bilinear_fill1",
       {[](const Tensor& x) { return F::rotate(x, 60.0, IM::BILINEAR, false, std::nullopt, fill1(x)); }, Tol::kGrid}},
      {"affine.nearest",
       {[](const Tensor& x) {
          return F::affine(x, 15.0, {1, -2}, 1.2, {5.0, 3.0});
        },
        Tol::kGrid}},
      {"affine.bilinear_fill",
       {[](const Tensor& x) {
          return F::affine(x, -25.0, {2, 1}, 0.8, {0.0, 10.0}, IM::BILINEAR, fill3(x));
        },
        Tol::kGrid}},
      {"affine.shear_number",
       {[](const Tensor& x) {
          return F::affine(x, 0.0, {0, 0}, 1.0, 12.0, IM::BILINEAR);
        },
        Tol::kGrid}},
      {"affine.shear_one",
       {[](const Tensor& x) {
          return F::affine(x, 5.0, {0, 0}, 1.0, std::vector<double>{12.0}, IM::BILINEAR);
        },
        Tol::kGrid}},
      {"affine.center",
       {[](const Tensor& x) {
          return F::affine(x, 40.0, {1, 0}, 1.1, {0.0, 0.0}, IM::NEAREST, std::nullopt, std::vector<int64_t>{3, 2});
        },
        Tol::kGrid}},
      {"perspective.bilinear",
       {[](const Tensor& x) {
          return F::perspective(x, {{0, 0}, {8, 0}, {8, 6}, {0, 6}}, {{1, 1}, {7, 0}, {8, 5}, {0, 6}});
        },
        Tol::kGrid}},
      {"perspective.nearest_fill",
       {[](const Tensor& x) {
          return F::perspective(x, {{0, 0}, {8, 0}, {8, 6}, {0, 6}}, {{2, 1}, {6, 0}, {7, 6}, {1, 5}}, IM::NEAREST,
                                fill3(x));
        },
        Tol::kGrid}},
      {"elastic.bilinear", {[](const Tensor& x) { return F::elastic_transform(x, disp(x)); }, Tol::kGrid}},
      {"elastic.nearest_fill",
       {[](const Tensor& x) { return F::elastic_transform(x, disp(x), IM::NEAREST, fill1(x)); }, Tol::kGrid}},
      {"normalize",
       {[](const Tensor& x) {
          return F::normalize(x, {0.5, 0.4, 0.3}, {0.2, 0.3, 0.25});
        },
        Tol::kRound}},
      {"normalize.one_value", {[](const Tensor& x) { return F::normalize(x, {0.5}, {0.2}); }, Tol::kRound}},
      {"convert.float", {[](const Tensor& x) { return F::convert_image_dtype(x, kFloat); }, Tol::kExact}},
      {"convert.float64", {[](const Tensor& x) { return F::convert_image_dtype(x, kDouble); }, Tol::kExact}},
      {"convert.uint8", {[](const Tensor& x) { return F::convert_image_dtype(x, kByte); }, Tol::kExact}},
      {"convert.int16", {[](const Tensor& x) { return F::convert_image_dtype(x, kShort); }, Tol::kExact}},
      {"convert.int32", {[](const Tensor& x) { return F::convert_image_dtype(x, kInt); }, Tol::kExact}},
      {"convert.int64", {[](const Tensor& x) { return F::convert_image_dtype(x, kLong); }, Tol::kExact}},
      {"convert.int32_to_uint8",
       {[](const Tensor& x) { return F::convert_image_dtype(F::convert_image_dtype(x, kInt), kByte); }, Tol::kExact}},
      {"grayscale.1", {[](const Tensor& x) { return F::rgb_to_grayscale(x); }, Tol::kRound}},
      {"grayscale.3", {[](const Tensor& x) { return F::rgb_to_grayscale(x, 3); }, Tol::kRound}},
      {"brightness.0_5", {[](const Tensor& x) { return F::adjust_brightness(x, 0.5); }, Tol::kRound}},
      {"brightness.1_7", {[](const Tensor& x) { return F::adjust_brightness(x, 1.7); }, Tol::kRound}},
      {"contrast.0_3", {[](const Tensor& x) { return F::adjust_contrast(x, 0.3); }, Tol::kRound}},
      {"contrast.1_8", {[](const Tensor& x) { return F::adjust_contrast(x, 1.8); }, Tol::kRound}},
      {"saturation.0_2", {[](const Tensor& x) { return F::adjust_saturation(x, 0.2); }, Tol::kRound}},
      {"saturation.2_5", {[](const Tensor& x) { return F::adjust_saturation(x, 2.5); }, Tol::kRound}},
      {"hue.m0_3", {[](const Tensor& x) { return F::adjust_hue(x, -0.3); }, Tol::kRound}},
      {"hue.0_2", {[](const Tensor& x) { return F::adjust_hue(x, 0.2); }, Tol::kRound}},
      {"hue.0_5", {[](const Tensor& x) { return F::adjust_hue(x, 0.5); }, Tol::kRound}},
      {"gamma.0_5", {[](const Tensor& x) { return F::adjust_gamma(x, 0.5); }, Tol::kRound}},
      {"gamma.2_2_gain0_9", {[](const Tensor& x) { return F::adjust_gamma(x, 2.2, 0.9); }, Tol::kRound}},
      {"sharpness.0_3", {[](const Tensor& x) { return F::adjust_sharpness(x, 0.3); }, Tol::kRound}},
      {"sharpness.2_0", {[](const Tensor& x) { return F::adjust_sharpness(x, 2.0); }, Tol::kRound}},
      {"posterize.1", {[](const Tensor& x) { return F::posterize(x, 1); }, Tol::kExact}},
      {"posterize.3", {[](const Tensor& x) { return F::posterize(x, 3); }, Tol::kExact}},
      {"posterize.0", {[](const Tensor& x) { return F::posterize(x, 0); }, Tol::kExact}},
      {"posterize.8", {[](const Tensor& x) { return F::posterize(x, 8); }, Tol::kExact}},
      {"solarize.mid",
       {[](const Tensor& x) { return F::solarize(x, x.is_floating_point() ? 0.5 : 128.0); }, Tol::kExact}},
      {"equalize", {[](const Tensor& x) { return F::equalize(x); }, Tol::kExact}},
      {"autocontrast", {[](const Tensor& x) { return F::autocontrast(x); }, Tol::kRound}},
      {"invert", {[](const Tensor& x) { return F::invert(x); }, Tol::kExact}},
      {"blur.3",
       {[](const Tensor& x) {
          return F::gaussian_blur(x, {3, 3});
        },
        Tol::kRound}},
      {"blur.5x3_sigma",
       {[](const Tensor& x) {
          return F::gaussian_blur(x, {5, 3}, {1.5, 0.7});
        },
        Tol::kRound}},
      {"blur.3x5_sigma2",
       {[](const Tensor& x) {
          return F::gaussian_blur(x, {3, 5}, 2.0);
        },
        Tol::kRound}},
      {"erase.zeros",
       {[](const Tensor& x) { return F::erase(x, 1, 2, 3, 4, zeros({1}, x.scalar_type())); }, Tol::kExact}},
      {"erase.per_channel",
       {[](const Tensor& x) {
          return F::erase(x, 2, 1, 4, 3, arange(3, x.scalar_type()).view({3, 1, 1}));
        },
        Tol::kExact}},
  };
  return c;
}

// Grid transforms: torchvision's grid comes from a float32 bmm whose
// accumulation order is not ours, so a nearest sample sitting on a pixel
// boundary may pick its neighbour. Allow a handful of such values (one
// pixel of three channels, or 1 %).
void expect_grid_close(const std::string& name, const Tensor& got, const Tensor& want) {
  const Tensor diff = (got.to(kDouble) - want.to(kDouble)).abs();
  const double atol = got.is_floating_point() ? 1e-4 : 1.0;
  const int64_t bad = (diff > atol).sum().item<int64_t>();
  EXPECT_LE(bad, std::max<int64_t>(3, want.numel() / 100))
      << name << ": " << bad << " of " << want.numel() << " values differ by more than " << atol;
}

TEST(VisionTransformsFunctional, MatchesTorchvision) {
  const Golden& g = golden();
  int64_t checked = 0;
  for (const std::string& key : g.names_with_prefix("")) {
    if (key.rfind("in.", 0) == 0 || key.rfind("disp.", 0) == 0) continue;
    const auto dot = key.rfind('.');
    const std::string name = key.substr(0, dot), input = key.substr(dot + 1);
    auto it = cases().find(name);
    ASSERT_TRUE(it != cases().end()) << "golden case without a C++ call: " << name;
    const Tensor x = g["in." + input];
    const Tensor want = g[key];
    Tensor got;
    try {
      got = it->second.fn(x.clone());
    } catch (const std::exception& e) {
      ADD_FAILURE() << key << " raised: " << e.what();
      continue;
    }
    ASSERT_EQ(got.sizes(), want.sizes()) << key;
    ASSERT_EQ(got.scalar_type(), want.scalar_type()) << key;
    ++checked;
    switch (it->second.tol) {
      case Tol::kExact:
        EXPECT_TRUE(torch::testing::tensors_close(got, want, 0, 0)) << key;
        break;
      case Tol::kRound:
        if (got.is_floating_point())
          EXPECT_TRUE(torch::testing::tensors_close(got, want, 1e-5, 1e-6)) << key;
        else
          EXPECT_LE((got.to(kLong) - want.to(kLong)).abs().max().item<int64_t>(), 1) << key;
        break;
      case Tol::kGrid:
        expect_grid_close(key, got, want);
        break;
    }
  }
  EXPECT_GT(checked, 400);
}

}  // namespace

namespace {

// resize's separable resampler (images without gradient) against interpolate's
// dense path (taken when the image requires grad), over up/down factors the
// golden cases do not reach.
TEST(VisionTransformsFunctional, SeparableResizeMatchesInterpolate) {
  manual_seed(3);
  for (auto dtype : {kFloat, kDouble}) {
    const Tensor x = rand({2, 3, 37, 23}, dtype);
    for (IM mode : {IM::BILINEAR, IM::BICUBIC}) {
      for (bool aa : {false, true}) {
        for (const std::vector<int64_t>& size :
             std::vector<std::vector<int64_t>>{{5, 4}, {1, 1}, {37, 9}, {74, 23}, {40, 60}, {3, 23}, {19, 12}}) {
          const Tensor fast = F::resize(x, size, mode, std::nullopt, aa);
          const Tensor dense = F::resize(x.clone().requires_grad_(true), size, mode, std::nullopt, aa).detach();
          EXPECT_TRUE(torch::testing::tensors_close(fast, dense, 1e-5, 1e-6))
              << IntArrayRef(size) << " aa " << aa << " " << dtype;
        }
      }
    }
  }
}

}  // namespace
