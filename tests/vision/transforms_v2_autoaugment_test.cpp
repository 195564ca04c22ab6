// v2 AutoAugment, RandAugment, TrivialAugmentWide and AugMix against torchvision v2's draws
// replayed on torchvision 0.14's kernels (tools/golden/gen_vision_v2_autoaugment.py).
#include <gtest/gtest.h>

#include <functional>
#include <map>
#include <sstream>
#include <string>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/ops/all_ops.h"
#include "ember/ops/factory/random.h"
#include "ember/vision/transforms/v2/auto_augment_modules.h"

namespace torch::vision::transforms::v2 {
namespace {

using ::torch::testing::Golden;
using IM = ::torch::vision::transforms::InterpolationMode;

const Golden& golden() {
  static const Golden g("vision_v2_autoaugment.golden");
  return g;
}

using Factory = std::function<std::function<Sample(Sample)>()>;

template <typename M>
Factory make(std::function<M()> f) {
  return [f] {
    M m = f();
    return std::function<Sample(Sample)>([m](Sample s) mutable { return m(std::move(s)); });
  };
}

const std::map<std::string, Factory>& factories() {
  static const std::map<std::string, Factory> f = {
      {"AutoAugment.imagenet", make<AutoAugment>([] { return AutoAugment(); })},
      {"AutoAugment.cifar10", make<AutoAugment>([] { return AutoAugment(AutoAugmentPolicy::CIFAR10); })},
      {"AutoAugment.svhn_fill", make<AutoAugment>([] {
         return AutoAugment(AutoAugmentOptions(AutoAugmentPolicy::SVHN).fill({9.0, 99.0, 199.0}));
       })},
      {"RandAugment.default", make<RandAugment>([] { return RandAugment(); })},
      {"RandAugment.3ops_m5_bilinear_fill", make<RandAugment>([] {
         return RandAugment(RandAugmentOptions().num_ops(3).magnitude(5).interpolation(IM::BILINEAR).fill(128));
       })},
      {"TrivialAugmentWide.default", make<TrivialAugmentWide>([] { return TrivialAugmentWide(); })},
      {"TrivialAugmentWide.bins5",
       make<TrivialAugmentWide>([] { return TrivialAugmentWide(TrivialAugmentWideOptions().num_magnitude_bins(5)); })},
      {"AugMix.default", make<AugMix>([] { return AugMix(); })},
      {"AugMix.s5_w2_d2_a05_partial", make<AugMix>([] {
         return AugMix(AugMixOptions().severity(5).mixture_width(2).chain_depth(2).alpha(0.5).all_ops(false));
       })},
  };
  return f;
}

// uint8 values may differ by 1 where a kernel rounds through float, and a grid sample on a
// pixel boundary may pick its neighbour: a few values (1 %) may differ more.
void expect_close(const std::string& key, const Tensor& got, const Tensor& want) {
  ASSERT_EQ(got.sizes(), want.sizes()) << key;
  ASSERT_EQ(got.scalar_type(), want.scalar_type()) << key;
  const Tensor diff = (got.to(kDouble) - want.to(kDouble)).abs();
  const int64_t bad = (diff > 1.0).sum().item<int64_t>();
  EXPECT_LE(bad, std::max<int64_t>(3, want.numel() / 100)) << key << ": " << bad << " of " << want.numel();
}

TEST(VisionTransformsV2AutoAugment, SeededRunsMatchTorchvisionV2) {
  const Golden& g = golden();
  int64_t checked = 0;
  for (const std::string& key : g.names_with_prefix("")) {
    // <Transform>.<case>.<input>.<seed>
    if (key.rfind("in.", 0) == 0 || key.size() > 5 && key.substr(key.size() - 5) == ".next") continue;
    std::vector<std::string> parts;
    std::stringstream ss(key);
    for (std::string p; std::getline(ss, p, '.');) parts.push_back(p);
    if (parts.size() != 4 || factories().count(parts[0] + "." + parts[1]) == 0) continue;
    SCOPED_TRACE(key);
    auto transform = factories().at(parts[0] + "." + parts[1])();
    manual_seed(std::stoull(parts[3]));
    Sample s;
    s.image = tv_tensors::Image(g["in." + parts[2]].clone());
    s.labels = tensor({3, 1}, kLong);
    const Sample out = transform(std::move(s));
    expect_close(key, *out.image, g[key]);
    EXPECT_TENSOR_EQ(*out.labels, tensor({3, 1}, kLong));
    // The module drew exactly what torchvision draws: the next number equals the golden's.
    EXPECT_TENSOR_EQ(rand({1}), g[key + ".next"]);
    ++checked;
  }
  EXPECT_EQ(checked, 70);
}

TEST(VisionTransformsV2AutoAugment, TensorAndVideoInputs) {
  const Tensor image = golden()["in.image"];
  manual_seed(3);
  const Tensor a = RandAugment()(image.clone());
  manual_seed(3);
  Sample s;
  s.image = tv_tensors::Image(image.clone());
  EXPECT_TENSOR_EQ(a, *RandAugment()(s).image);
  // A video [T, C, H, W]: one draw for all frames, AugMix weights per frame batch.
  const Tensor video = stack({image, image.flip({-1})});
  manual_seed(5);
  const tv_tensors::Video v = TrivialAugmentWide()(tv_tensors::Video(video.clone()));
  ASSERT_EQ(v.sizes(), video.sizes());
  manual_seed(5);
  const Tensor first = TrivialAugmentWide()(video.select(0, 0).clone());
  EXPECT_TENSOR_EQ(v.select(0, 0), first);
  manual_seed(7);
  const tv_tensors::Video mixed = AugMix()(tv_tensors::Video(video.clone()));
  EXPECT_EQ(mixed.sizes(), video.sizes());
  EXPECT_EQ(mixed.scalar_type(), kByte);
}

TEST(VisionTransformsV2AutoAugment, FloatImagesSolarizeOnTheirScale) {
  // Solarize's v2 bins are 1 -> 0 scaled by the dtype's maximum, so a float image in [0, 1]
  // stays in [0, 1]. Posterize and Equalize are uint8-only kernels (v1's, as torchvision
  // 0.14's) and raise for float images, naming themselves.
  const Tensor f = golden()["in.image"].to(kFloat) / 255.0;
  int64_t ran = 0;
  for (uint64_t seed = 0; seed < 40; ++seed) {
    manual_seed(seed);
    try {
      const Tensor out = TrivialAugmentWide()(f.clone());
      EXPECT_EQ(out.scalar_type(), kFloat);
      EXPECT_LE(out.max().item<float>(), 1.0f + 1e-5f);
      EXPECT_GE(out.min().item<float>(), -1e-5f);
      ++ran;
    } catch (const Error& e) {
      const std::string what = e.what();
      EXPECT_TRUE(what.find("posterize") != std::string::npos || what.find("equalize") != std::string::npos) << what;
    }
  }
  EXPECT_GE(ran, 25);
}

TEST(VisionTransformsV2AutoAugment, BoxesAndMasksRaiseAsTorchvision) {
  Sample s;
  s.image = tv_tensors::Image(golden()["in.image"].clone());
  s.boxes = tv_tensors::BoundingBoxes(tensor({{1.0, 2.0, 5.0, 6.0}}), tv_tensors::BoundingBoxFormat::XYXY, {20, 28});
  EXPECT_EMBER_ERROR(AutoAugment()(s), "AutoAugment", "BoundingBoxes", "not supported");
  EXPECT_EMBER_ERROR(AugMix()(s), "AugMix", "BoundingBoxes");
  s.boxes.reset();
  s.masks = tv_tensors::Mask(zeros({1, 20, 28}, kByte));
  EXPECT_EMBER_ERROR(RandAugment()(s), "RandAugment", "Mask", "not supported");
  EXPECT_EMBER_ERROR(TrivialAugmentWide()(tv_tensors::Mask(zeros({1, 20, 28}, kByte))), "TrivialAugmentWide", "Mask");
  Sample empty_sample;
  EXPECT_EMBER_ERROR(AutoAugment()(empty_sample), "AutoAugment", "no image");
  Sample both;
  both.image = tv_tensors::Image(golden()["in.image"].clone());
  both.video = tv_tensors::Video(golden()["in.image"].unsqueeze(0));
  EXPECT_EMBER_ERROR(AutoAugment()(both), "AutoAugment", "single image or video");
  EXPECT_EMBER_ERROR(AutoAugment()(zeros({5}, kByte)), "AutoAugment", "[..., C, H, W]");
  EXPECT_EMBER_ERROR(AugMix(AugMixOptions().severity(11)), "AugMix", "severity");
  EXPECT_EMBER_ERROR(RandAugment(RandAugmentOptions().magnitude(31)), "RandAugment", "magnitude");
  EXPECT_EMBER_ERROR(TrivialAugmentWide(TrivialAugmentWideOptions().num_magnitude_bins(1)), "TrivialAugmentWide",
                     "num_magnitude_bins");
}

}  // namespace
}  // namespace torch::vision::transforms::v2
