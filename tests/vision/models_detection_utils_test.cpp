// ember::vision::models::detection building blocks against torchvision 0.14
// (tools/golden/gen_vision_detection.py): BoxCoder / BoxLinearCoder, Matcher
// and SSDMatcher, the sampler's draws after manual_seed, AnchorGenerator,
// DefaultBoxGenerator and GeneralizedRCNNTransform; and their bad input.
#include <gtest/gtest.h>

#include <cmath>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/torch.h"
#include "ember/vision/models/detection/anchor_utils.h"
#include "ember/vision/models/detection/box_coder.h"
#include "ember/vision/models/detection/matcher.h"
#include "ember/vision/models/detection/transform.h"
#include "models_fill.h"

namespace vision_models_detection_utils_test {

namespace det = ember::vision::models::detection;
using ember::Tensor;
using ember::testing::Golden;
using vision_models_fill::image;

const Golden& golden() {
  static const Golden g("vision_detection.golden");
  return g;
}

TEST(VisionDetectionUtils, BoxCoderMatchesTorchvision) {
  const Golden& g = golden();
  const det::_utils::BoxCoder coder({10.0, 10.0, 5.0, 5.0});
  EXPECT_TENSOR_CLOSE(coder.encode_single(g["coder.ref"], g["coder.prop"]), g["coder.encode"]);
  const Tensor prop = g["coder.prop"];
  const Tensor decoded = coder.decode(g["coder.codes"], {prop.slice(0, 0, 4), prop.slice(0, 4, 6)});
  EXPECT_TENSOR_CLOSE(decoded, g["coder.decode"]);
  // encode() splits per image.
  const auto parts = coder.encode({g["coder.ref"].slice(0, 0, 2), g["coder.ref"].slice(0, 2, 6)},
                                  {prop.slice(0, 0, 2), prop.slice(0, 2, 6)});
  ASSERT_EQ(parts.size(), 2u);
  EXPECT_TENSOR_CLOSE(ember::cat(parts, 0), g["coder.encode"]);
  const det::_utils::BoxLinearCoder lin(true);
  EXPECT_TENSOR_CLOSE(lin.encode(prop, g["coder.ref"]), g["linear.encode"]);
  EXPECT_TENSOR_CLOSE(lin.decode(g["coder.codes"].slice(1, 0, 4), prop), g["linear.decode"]);
}

TEST(VisionDetectionUtils, MatcherMatchesTorchvision) {
  const Golden& g = golden();
  const Tensor iou = g["matcher.iou"];
  EXPECT_TENSOR_EQ(det::_utils::Matcher(0.7, 0.3, false)(iou), g["matcher.plain"]);
  EXPECT_TENSOR_EQ(det::_utils::Matcher(0.7, 0.3, true)(iou), g["matcher.low_quality"]);
  EXPECT_TENSOR_EQ(det::_utils::SSDMatcher(0.5)(iou), g["matcher.ssd"]);
  EXPECT_EMBER_ERROR(det::_utils::Matcher(0.3, 0.7), "Matcher", "low_threshold");
  EXPECT_EMBER_ERROR(det::_utils::Matcher(0.7, 0.3)(ember::zeros({0, 5})), "No ground-truth boxes");
  EXPECT_EMBER_ERROR(det::_utils::Matcher(0.7, 0.3)(ember::zeros({2, 0})), "No proposal boxes");
}

TEST(VisionDetectionUtils, SamplerDrawsAsTorchRandperm) {
  const Golden& g = golden();
  ember::manual_seed(7);
  auto [pos, neg] = det::_utils::BalancedPositiveNegativeSampler(6, 0.5)({g["sampler.labels0"], g["sampler.labels1"]});
  ASSERT_EQ(pos.size(), 2u);
  for (int i = 0; i < 2; ++i) {
    EXPECT_TENSOR_EQ(pos[i], g["sampler.pos" + std::to_string(i)]);
    EXPECT_TENSOR_EQ(neg[i], g["sampler.neg" + std::to_string(i)]);
  }
}

TEST(VisionDetectionUtils, AnchorsMatchTorchvision) {
  const Golden& g = golden();
  const std::vector<Tensor> feats{ember::zeros({2, 4, 5, 7}), ember::zeros({2, 4, 3, 4})};
  const det::image_list::ImageList il(ember::zeros({2, 3, 40, 56}), {{40, 56}, {37, 50}});
  det::anchor_utils::AnchorGenerator ag(std::vector<std::vector<int64_t>>{{16, 24}, {40}},
                                        std::vector<std::vector<double>>{{0.5, 1.0, 2.0}, {0.7, 1.3}});
  const auto anchors = ag(il, feats);
  ASSERT_EQ(anchors.size(), 2u);
  EXPECT_TENSOR_CLOSE(anchors[1], g["anchors"]);
  EXPECT_EQ(ag->num_anchors_per_location(), (std::vector<int64_t>{6, 2}));
  det::anchor_utils::DefaultBoxGenerator dbg(std::vector<std::vector<int64_t>>{{2}, {2, 3}});
  EXPECT_TENSOR_CLOSE(dbg(il, feats)[0], g["default_boxes"]);
  det::anchor_utils::DefaultBoxGenerator dbg2(det::anchor_utils::DefaultBoxGeneratorOptions({{2}, {3}})
                                                  .scales(std::vector<double>{0.1, 0.3, 0.6})
                                                  .steps(std::vector<int64_t>{8, 16})
                                                  .clip(false));
  EXPECT_TENSOR_CLOSE(dbg2(il, feats)[1], g["default_boxes_steps"]);
  // One feature map for two sets of sizes.
  EXPECT_EMBER_ERROR(ag(il, std::vector<Tensor>{feats[0]}), "AnchorGenerator", "1 feature maps for 2");
  EXPECT_EMBER_ERROR(det::anchor_utils::AnchorGenerator(std::vector<std::vector<int64_t>>{{16}},
                                                        std::vector<std::vector<double>>{{-1.0}}),
                     "AnchorGenerator", "aspect ratio -1");
}

TEST(VisionDetectionUtils, TransformMatchesTorchvision) {
  const Golden& g = golden();
  det::transform::GeneralizedRCNNTransform tr(
      det::transform::GeneralizedRCNNTransformOptions(32, 44, {0.485, 0.456, 0.406}, {0.229, 0.224, 0.225})
          .size_divisible(16));
  tr->eval();
  const std::vector<Tensor> imgs{image(0, 3, 20, 28), image(1, 3, 25, 16)};
  std::vector<det::Target> targets{
      {{"boxes", ember::tensor({3.0f, 4.0f, 10.0f, 15.0f, 10.0f, 2.0f, 26.0f, 20.0f}).reshape({2, 4})},
       {"labels", ember::tensor({int64_t{1}, int64_t{1}})}},
      {{"boxes", ember::tensor({1.0f, 1.0f, 12.0f, 20.0f}).reshape({1, 4})}, {"labels", ember::tensor({int64_t{1}})}}};
  auto [il, tt] = tr(imgs, targets);
  EXPECT_TENSOR_CLOSE(il.tensors, g["transform.batch"]);
  const Tensor sizes = g["transform.sizes"];
  ASSERT_EQ(il.image_sizes.size(), 2u);
  for (int64_t i = 0; i < 2; ++i) {
    EXPECT_EQ(il.image_sizes[i].first, sizes[i][0].item<int64_t>());
    EXPECT_EQ(il.image_sizes[i].second, sizes[i][1].item<int64_t>());
  }
  ASSERT_TRUE(tt.has_value());
  EXPECT_TENSOR_CLOSE((*tt)[0].at("boxes"), g["transform.boxes0"]);
  EXPECT_TENSOR_CLOSE((*tt)[1].at("boxes"), g["transform.boxes1"]);
  // The caller's targets are not modified.
  EXPECT_EQ(targets[0].at("boxes")[0][2].item<float>(), 10.0f);
  const auto post = tr->postprocess({{{"boxes", (*tt)[0].at("boxes")}}, {{"boxes", (*tt)[1].at("boxes")}}},
                                    il.image_sizes, {{20, 28}, {25, 16}});
  EXPECT_TENSOR_CLOSE(post[0].at("boxes"), g["transform.post0"]);
  EXPECT_TENSOR_CLOSE(post[1].at("boxes"), g["transform.post1"]);
  det::transform::GeneralizedRCNNTransform fixed(
      det::transform::GeneralizedRCNNTransformOptions(64, 96, {0.5, 0.5, 0.5}, {0.25, 0.25, 0.25})
          .fixed_size(std::make_pair(int64_t{24}, int64_t{20})));
  fixed->eval();
  EXPECT_TENSOR_CLOSE(std::get<0>(fixed(imgs)).tensors, g["transform.fixed"]);
}

TEST(VisionDetectionUtils, TransformBadInputRaises) {
  det::transform::GeneralizedRCNNTransform tr(64, 96, std::vector<double>{0.5, 0.5, 0.5},
                                              std::vector<double>{0.2, 0.2, 0.2});
  EXPECT_EMBER_ERROR(tr(std::vector<Tensor>{ember::rand({1, 3, 8, 8})}), "GeneralizedRCNNTransform", "3d tensors");
  EXPECT_EMBER_ERROR(tr(std::vector<Tensor>{ember::zeros({3, 8, 8}, ember::TensorOptions().dtype(ember::kByte))}),
                     "GeneralizedRCNNTransform", "floating type");
  EXPECT_EMBER_ERROR(tr(std::vector<Tensor>{ember::rand({2, 8, 8})}), "GeneralizedRCNNTransform", "2 channels");
  EXPECT_EMBER_ERROR(tr(std::vector<Tensor>{}), "GeneralizedRCNNTransform", "no images");
  EXPECT_EMBER_ERROR(
      det::transform::GeneralizedRCNNTransform(64, 96, std::vector<double>{0.5}, std::vector<double>{0.2, 0.2}),
      "GeneralizedRCNNTransform", "image_mean");
}

}  // namespace vision_models_detection_utils_test
