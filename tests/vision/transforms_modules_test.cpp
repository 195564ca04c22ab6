// The transform modules against torchvision 0.14
// (tools/golden/gen_vision_transforms_modules.py): after torch::manual_seed(s)
// each random module must draw torchvision's parameters, so its output equals
// torchvision's (up to the functional ops' own rounding, checked exactly in
// transforms_functional_test.cpp).
#include <gtest/gtest.h>

#include <functional>
#include <map>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/torch.h"
#include "ember/vision/transforms.h"

namespace {

using namespace torch;
namespace T = torch::vision::transforms;
using IM = T::InterpolationMode;
using torch::testing::Golden;

const Golden& golden() {
  static const Golden g("vision_transforms_modules.golden");
  return g;
}

using Factory = std::function<T::TransformFunction()>;

const std::map<std::string, Factory>& factories() {
  static const std::map<std::string, Factory> f = {
      {"Resize.short5", [] { return T::Resize(5); }},
      // Note [Braced transform arguments]: one braced list reads as in Python.
      {"Resize.4x6_list",
       [] {
         return T::Resize({4, 6});
       }},
      {"CenterCrop.3x4_list",
       [] {
         return T::CenterCrop({3, 4});
       }},
      {"Pad.1234_list",
       [] {
         return T::Pad({1, 2, 3, 4});
       }},
      {"RandomRotation.range_list",
       [] {
         return T::RandomRotation({-10, 10});
       }},
      {"Resize.4x6_aa",
       [] {
         return T::Resize(T::ResizeOptions({4, 6}).antialias(true));
       }},
      {"CenterCrop.5", [] { return T::CenterCrop(5); }},
      {"Pad.reflect",
       [] {
         return T::Pad(T::PadOptions({1, 2}).padding_mode("reflect"));
       }},
      {"Grayscale.3", [] { return T::Grayscale(3); }},
      {"Compose.resize_crop_float_normalize",
       [] {
         return T::Compose({T::Resize(6), T::CenterCrop(5), T::ConvertImageDtype(kFloat),
                            T::Normalize({0.485, 0.456, 0.406}, {0.229, 0.224, 0.225})});
       }},
      {"RandomResizedCrop.5", [] { return T::RandomResizedCrop(5); }},
      {"RandomResizedCrop.4x6_scale_ratio",
       [] {
         return T::RandomResizedCrop(T::RandomResizedCropOptions({4, 6}).scale({0.5, 0.9}).ratio({0.5, 2.0}));
       }},
      {"RandomResizedCrop.fallback",
       [] {
         return T::RandomResizedCrop(T::RandomResizedCropOptions(3).scale({0.9, 1.0}).ratio({4.0, 5.0}));
       }},
      {"RandomCrop.4_pad1", [] { return T::RandomCrop(T::RandomCropOptions(4).padding(std::vector<int64_t>{1})); }},
      {"RandomCrop.10x12_pad_if_needed",
       [] {
         return T::RandomCrop(T::RandomCropOptions({10, 12}).pad_if_needed(true).fill(3));
       }},
      {"RandomHorizontalFlip", [] { return T::RandomHorizontalFlip(); }},
      {"RandomVerticalFlip.p0_3", [] { return T::RandomVerticalFlip(0.3); }},
      {"RandomRotation.30_bilinear",
       [] { return T::RandomRotation(T::RandomRotationOptions(30).interpolation(IM::BILINEAR)); }},
      {"RandomRotation.range_expand_fill",
       [] {
         return T::RandomRotation(T::RandomRotationOptions({10, 80}).expand(true).fill(5));
       }},
      {"RandomAffine.full",
       [] {
         return T::RandomAffine(T::RandomAffineOptions(20)
                                    .translate(std::vector<double>{0.1, 0.2})
                                    .scale(std::vector<double>{0.8, 1.2})
                                    .shear(std::vector<double>{5, 10, -5, 5}));
       }},
      {"RandomAffine.shear_number_bilinear",
       [] { return T::RandomAffine(T::RandomAffineOptions(0).shear(15).interpolation(IM::BILINEAR)); }},
      {"RandomPerspective.p1", [] { return T::RandomPerspective(T::RandomPerspectiveOptions(0.5).p(1.0)); }},
      {"RandomPerspective.default", [] { return T::RandomPerspective(); }},
      {"ColorJitter.all", [] { return T::ColorJitter(0.4, 0.4, 0.4, 0.1); }},
      {"ColorJitter.ranges",
       [] {
         return T::ColorJitter(T::ColorJitterOptions().brightness({0.5, 1.5}).hue({-0.2, 0.3}));
       }},
      {"RandomGrayscale.p0_5", [] { return T::RandomGrayscale(0.5); }},
      {"GaussianBlur.3", [] { return T::GaussianBlur(3); }},
      {"GaussianBlur.5x3_sigma",
       [] {
         return T::GaussianBlur(T::GaussianBlurOptions({5, 3}).sigma({0.5, 1.5}));
       }},
      {"RandomInvert", [] { return T::RandomInvert(); }},
      {"RandomPosterize.3", [] { return T::RandomPosterize(3); }},
      {"RandomSolarize.100", [] { return T::RandomSolarize(100.0); }},
      {"RandomAdjustSharpness.2", [] { return T::RandomAdjustSharpness(2.0); }},
      {"RandomAutocontrast", [] { return T::RandomAutocontrast(); }},
      {"RandomEqualize", [] { return T::RandomEqualize(); }},
      {"RandomErasing.p1", [] { return T::RandomErasing(1.0); }},
      {"RandomErasing.p1_value3",
       [] {
         return T::RandomErasing(T::RandomErasingOptions(1.0).value({1, 2, 3}).scale({0.1, 0.3}));
       }},
      {"RandomErasing.random", [] { return T::RandomErasing(T::RandomErasingOptions(1.0).value("random")); }},
      {"ElasticTransform.a5_s1", [] { return T::ElasticTransform(T::ElasticTransformOptions(5.0).sigma(1.0)); }},
      {"RandomApply.jitter",
       [] { return T::RandomApply({T::ColorJitter(T::ColorJitterOptions().brightness(0.5).contrast(0.5))}, 0.6); }},
      {"AutoAugment.imagenet", [] { return T::AutoAugment(); }},
      {"AutoAugment.cifar10", [] { return T::AutoAugment(T::AutoAugmentPolicy::CIFAR10); }},
      {"AutoAugment.svhn_fill",
       [] {
         return T::AutoAugment(T::AutoAugmentOptions(T::AutoAugmentPolicy::SVHN).fill({9.0, 99.0, 199.0}));
       }},
      {"RandAugment.default", [] { return T::RandAugment(); }},
      {"RandAugment.3ops_m5_bilinear",
       [] { return T::RandAugment(T::RandAugmentOptions().num_ops(3).magnitude(5).interpolation(IM::BILINEAR)); }},
      {"TrivialAugmentWide.default", [] { return T::TrivialAugmentWide(); }},
      {"AugMix.default", [] { return T::AugMix(); }},
      {"AugMix.s5_w2_d2_a05",
       [] { return T::AugMix(T::AugMixOptions().severity(5).mixture_width(2).chain_depth(2).alpha(0.5)); }},
  };
  return f;
}

// Values may differ by the functional ops' rounding (±1 for uint8, 1e-4 for
// float); a grid sample on a pixel boundary may also pick its neighbour, so a
// few values (one pixel's channels, or 1 %) may differ more.
void expect_close(const std::string& key, const Tensor& got, const Tensor& want) {
  ASSERT_EQ(got.sizes(), want.sizes()) << key;
  ASSERT_EQ(got.scalar_type(), want.scalar_type()) << key;
  const Tensor diff = (got.to(kDouble) - want.to(kDouble)).abs();
  // Compose normalises a resized uint8 image: a ±1 of the resize becomes 1 / 255 / std.
  const double atol = !got.is_floating_point() ? 1.0 : key.rfind("Compose.", 0) == 0 ? 1.0 / 255 / 0.224 + 1e-4 : 1e-4;
  const int64_t bad = (diff > atol).sum().item<int64_t>();
  EXPECT_LE(bad, std::max<int64_t>(3, want.numel() / 100))
      << key << ": " << bad << " of " << want.numel() << " values differ by more than " << atol;
}

TEST(VisionTransformsModules, SeededRunsMatchTorchvision) {
  const Golden& g = golden();
  int64_t checked = 0;
  for (const std::string& key : g.names_with_prefix("")) {
    if (key.rfind("in.", 0) == 0 || key.rfind("params.", 0) == 0) continue;
    // <case>.<input>.s<seed>
    const auto seed_dot = key.rfind('.');
    const auto input_dot = key.rfind('.', seed_dot - 1);
    const std::string name = key.substr(0, input_dot);
    const std::string input = key.substr(input_dot + 1, seed_dot - input_dot - 1);
    const uint64_t seed = std::stoull(key.substr(seed_dot + 2));
    auto it = factories().find(name);
    ASSERT_TRUE(it != factories().end()) << "golden case without a C++ transform: " << name;
    T::TransformFunction t = it->second();
    manual_seed(seed);
    Tensor got;
    try {
      got = t(g["in." + input].clone());
    } catch (const std::exception& e) {
      ADD_FAILURE() << key << " raised: " << e.what();
      continue;
    }
    expect_close(key, got, g[key]);
    ++checked;
  }
  EXPECT_GT(checked, 400);
}

TEST(VisionTransformsModules, GetParamsMatchTorchvision) {
  const Golden& g = golden();
  const Tensor big = g["in.big"];
  for (uint64_t s : {0, 1, 2, 3, 7}) {
    const std::string tag = ".s" + std::to_string(s);
    manual_seed(s);
    const auto [i, j, h, w] = T::RandomResizedCropImpl::get_params(big, {0.08, 1.0}, {0.75, 4.0 / 3.0});
    EXPECT_TENSOR_EQ(tensor({i, j, h, w}, kLong), g["params.RandomResizedCrop" + tag]);
    manual_seed(s);
    EXPECT_DOUBLE_EQ(T::RandomRotationImpl::get_params({-45.0, 45.0}),
                     g["params.RandomRotation" + tag][0].item<double>());
    manual_seed(s);
    const std::vector<double> r = {0.6, 1.4};
    const auto [order, b, c, sat, hue] = T::ColorJitterImpl::get_params(r, r, r, std::vector<double>{-0.1, 0.1});
    EXPECT_TENSOR_EQ(order, g["params.ColorJitter.order" + tag]);
    EXPECT_TENSOR_EQ(tensor({*b, *c, *sat, *hue}, kDouble), g["params.ColorJitter.factors" + tag]);
    // v2::MixUp's lam is torch.distributions.Beta(0.4, 0.4)'s draw: sample 1 (label 0) is mixed
    // with sample 0 (label 2), so its label row starts with lam.
    manual_seed(s);
    const auto [mixed, mixed_labels] = torch::vision::transforms::v2::MixUp(
        torch::vision::transforms::v2::MixUpOptions(3).alpha(0.4))(zeros({2, 1, 1, 1}), tensor({2, 0}, kLong));
    EXPECT_FLOAT_EQ(mixed_labels[1][0].item<float>(), g["params.Beta.a04" + tag][0].item<float>());
  }
}

TEST(VisionTransformsModules, SeededRunsRepeat) {
  // RandomChoice and RandomOrder draw from Ember's generator in their own way
  // (see their headers); a seed still fixes their result.
  const Tensor img = golden()["in.big"];
  T::RandomChoice choice({T::RandomInvert(1.0), T::RandomHorizontalFlip(1.0), T::Grayscale(3)}, {{0.2, 0.5, 0.3}});
  T::RandomOrder order({T::RandomInvert(1.0), T::RandomPosterize(2, 1.0), T::RandomSolarize(100.0, 1.0)});
  for (T::TransformFunction t : {T::TransformFunction(choice), T::TransformFunction(order)}) {
    manual_seed(5);
    const Tensor a = t(img);
    manual_seed(5);
    const Tensor b = t(img);
    EXPECT_TENSOR_EQ(a, b);
    EXPECT_EQ(a.sizes(), img.sizes());
    EXPECT_EQ(a.scalar_type(), img.scalar_type());
  }
}

}  // namespace
