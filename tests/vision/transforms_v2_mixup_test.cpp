// transforms::v2::MixUp and CutMix: the mixing identities they must satisfy
// (no reference in torchvision 0.14, whose transforms have no MixUp/CutMix),
// seeded repeatability and argument errors.
#include <gtest/gtest.h>

#include "common/test_util.h"
#include "ember/torch.h"
#include "ember/vision/transforms/v2/mixup_cutmix.h"

namespace {

using namespace torch;
namespace v2 = torch::vision::transforms::v2;

TEST(VisionTransformsV2, MixUpMixesImagesAndLabelsWithOneWeight) {
  manual_seed(0);
  const Tensor x = rand({4, 3, 5, 6});
  const Tensor y = tensor({2, 0, 1, 2}, kLong);
  v2::MixUp mixup(v2::MixUpOptions(3).alpha(0.4));
  auto [mx, my] = mixup(x, y);
  ASSERT_EQ(my.sizes(), IntArrayRef({4, 3}));
  EXPECT_TENSOR_CLOSE(my.sum(1), ones({4}));
  // Sample 1 (label 0) is mixed with sample 0 (label 2): its label row is (lam, 0, 1 - lam).
  const double lam = my[1][0].item<float>();
  EXPECT_GT(lam, 0.0);
  EXPECT_LT(lam, 1.0);
  EXPECT_TENSOR_CLOSE(mx, x * lam + x.roll({1}, {0}) * (1 - lam));
  manual_seed(0);
  rand({4, 3, 5, 6});
  auto [mx2, my2] = mixup(x, y);
  EXPECT_TENSOR_EQ(mx2, mx);
  EXPECT_TENSOR_EQ(my2, my);
}

TEST(VisionTransformsV2, CutMixPastesABoxWithItsAreaAsWeight) {
  manual_seed(4);
  const Tensor x = arange(2 * 1 * 8 * 10, kFloat).view({2, 1, 8, 10});  // every pixel distinct
  const Tensor y = tensor({0, 1}, kLong);
  v2::CutMix cutmix(2);
  for (int trial = 0; trial < 5; ++trial) {
    auto [mx, my] = cutmix(x, y);
    const Tensor from_rolled = (mx == x.roll({1}, {0}));
    const Tensor from_self = (mx == x);
    EXPECT_TRUE((from_rolled | from_self).all().item<bool>());
    const double pasted = from_rolled.to(kDouble).mean().item<double>();
    // Sample 0 keeps 1 - pasted of itself: its label row is (1 - pasted, pasted).
    EXPECT_NEAR(my[0][0].item<float>(), 1 - pasted, 1e-6);
    EXPECT_NEAR(my[0][1].item<float>(), pasted, 1e-6);
  }
}

TEST(VisionTransformsV2, MixUpCutMixErrors) {
  EXPECT_EMBER_ERROR(v2::MixUp(v2::MixUpOptions(3).alpha(0)), "MixUp", "alpha");
  EXPECT_EMBER_ERROR(v2::CutMix(0), "CutMix", "num_classes");
  v2::MixUp mixup(3);
  EXPECT_EMBER_ERROR(mixup(rand({3, 4, 4}), tensor({0, 1, 2}, kLong)), "MixUp", "[B, C, H, W]");
  EXPECT_EMBER_ERROR(mixup(rand({3, 1, 4, 4}), tensor({0, 1}, kLong)), "MixUp", "3 images but 2 labels");
  EXPECT_EMBER_ERROR(mixup(rand({2, 1, 4, 4}), tensor({0, 3}, kLong)), "MixUp", "num_classes = 3");
  EXPECT_EMBER_ERROR(mixup(rand({2, 1, 4, 4}), tensor({0.0, 1.0})), "MixUp", "int64");
}

}  // namespace
