// v2 RandomApply, RandomChoice and RandomOrder: under a seed they run the transforms torch's own
// draws pick (tools/golden/gen_vision_v2_autoaugment.py), and act on whole samples.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/ops/all_ops.h"
#include "ember/ops/factory/random.h"
#include "ember/vision/transforms/v2/containers.h"
#include "ember/vision/transforms/v2/geometry_modules.h"

namespace torch::vision::transforms::v2 {
namespace {

using ::torch::testing::Golden;

const Golden& golden() {
  static const Golden g("vision_v2_autoaugment.golden");
  return g;
}

// Transform i appends i to the sample's labels and draws nothing, so the labels record what ran.
std::vector<SampleTransform> tagging(int64_t n) {
  std::vector<SampleTransform> out;
  for (int64_t i = 0; i < n; ++i)
    out.emplace_back([i](Sample s) {
      s.labels = cat({*s.labels, tensor({i}, kLong)});
      return s;
    });
  return out;
}

Sample labelled() {
  Sample s;
  s.labels = empty({0}, kLong);
  return s;
}

TEST(VisionTransformsV2Containers, DrawsEqualTorch) {
  for (int seed = 0; seed < 8; ++seed) {
    SCOPED_TRACE(seed);
    const std::string s = std::to_string(seed);
    manual_seed(seed);
    const Sample applied = RandomApply(tagging(2), 0.3)(labelled());
    const bool ran = golden()["RandomApply.p03." + s].item<int64_t>() == 1;
    EXPECT_TENSOR_EQ(*applied.labels, ran ? tensor({0, 1}, kLong) : empty({0}, kLong));

    manual_seed(seed);
    const Sample weighted = RandomChoice(tagging(4), std::vector<double>{0.2, 0.5, 0.3, 1.0})(labelled());
    EXPECT_TENSOR_EQ(*weighted.labels, golden()["RandomChoice.weighted." + s]);
    manual_seed(seed);
    const Sample uniform = RandomChoice(tagging(3))(labelled());
    EXPECT_TENSOR_EQ(*uniform.labels, golden()["RandomChoice.uniform." + s]);

    manual_seed(seed);
    const Sample ordered = RandomOrder(tagging(5))(labelled());
    EXPECT_TENSOR_EQ(*ordered.labels, golden()["RandomOrder.5." + s]);
  }
}

TEST(VisionTransformsV2Containers, TransformWholeSamples) {
  Sample s;
  s.image = tv_tensors::Image(arange(2 * 4 * 6, kLong).reshape({2, 4, 6}).to(kByte));
  s.masks = tv_tensors::Mask((arange(4 * 6, kLong).reshape({1, 4, 6}) % 2).to(kByte));
  s.boxes = tv_tensors::BoundingBoxes(tensor({{1.0, 0.0, 3.0, 2.0}}), tv_tensors::BoundingBoxFormat::XYXY, {4, 6});
  // p = 1 always applies: the flip moves image, mask and boxes together.
  const Sample out = RandomApply({RandomHorizontalFlip(1.0)}, 1.0)(s);
  EXPECT_TENSOR_EQ(*out.image, s.image->flip({-1}));
  EXPECT_TENSOR_EQ(*out.masks, s.masks->flip({-1}));
  EXPECT_TENSOR_EQ(Tensor(*out.boxes), tensor({{3.0, 0.0, 5.0, 2.0}}));
  // p = 0 never applies, RandomChoice with all weight on one transform always picks it.
  EXPECT_TENSOR_EQ(*RandomApply({RandomHorizontalFlip(1.0)}, 0.0)(s).image, *s.image);
  EXPECT_TENSOR_EQ(*RandomChoice(tagging(3), std::vector<double>{0, 0, 2})(labelled()).labels, tensor({2}, kLong));
  // A lone tensor is an image.
  EXPECT_TENSOR_EQ(RandomOrder({RandomVerticalFlip(1.0)})(Tensor(*s.image)), s.image->flip({-2}));
}

TEST(VisionTransformsV2Containers, BadArgumentsRaise) {
  EXPECT_EMBER_ERROR(RandomApply(tagging(1), 1.5), "RandomApply", "p", "1.5");
  EXPECT_EMBER_ERROR(RandomApply({SampleTransform()}), "RandomApply", "empty");
  EXPECT_EMBER_ERROR(RandomChoice(tagging(2), std::vector<double>{1.0}), "RandomChoice", "1 != 2");
  EXPECT_EMBER_ERROR(RandomChoice(tagging(2), std::vector<double>{1.0, -1.0}), "RandomChoice", "-1");
  EXPECT_EMBER_ERROR(RandomChoice(tagging(2), std::vector<double>{0.0, 0.0}), "RandomChoice", "zero");
  EXPECT_EMBER_ERROR(RandomChoice(std::vector<SampleTransform>{}), "RandomChoice", "at least one");
  EXPECT_EMBER_ERROR(RandomOrder({SampleTransform()}), "RandomOrder", "empty");
}

}  // namespace
}  // namespace torch::vision::transforms::v2
