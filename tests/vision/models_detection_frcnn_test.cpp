// ember::vision::models::detection::FasterRCNN (with IntermediateLayerGetter,
// BackboneWithFPN, RPN and RoIHeads) over a tiny backbone, against
// torchvision 0.14 with the same deterministic weights
// (tools/golden/gen_vision_detection.py): state_dict names and shapes, eval
// detections, train losses (sampler batch covering every anchor and
// proposal, so the losses do not depend on the draws), and bad input; and
// MaskRCNN (masks pasted into the images, the mask loss) and KeypointRCNN
// (keypoints decoded from the heatmaps, the keypoint loss) the same way.
#include <gtest/gtest.h>

#include <cmath>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/torch.h"
#include "ember/vision/models/detection.h"
#include "ember/vision/models/intermediate_layer_getter.h"
#include "models_fill.h"

namespace vision_models_detection_frcnn_test {

namespace det = ember::vision::models::detection;
namespace vops = ember::vision::ops;
namespace nn = ember::nn;
using ember::Tensor;
using ember::testing::Golden;
using ember::vision::models::_utils::ReturnLayers;
using vision_models_fill::fill;
using vision_models_fill::image;

const Golden& golden() {
  static const Golden g("vision_detection.golden");
  return g;
}

void expect_state_dict_names(const std::string& prefix, const nn::Module& m) {
  vision_models_fill::expect_state_dict_names(golden(), prefix, m);
}

det::backbone_utils::BackboneWithFPN tiny_backbone() {
  nn::Sequential body({{"c1", nn::Conv2d(nn::Conv2dOptions(3, 4, 3).stride(2).padding(1))},
                       {"r1", nn::ReLU()},
                       {"c2", nn::Conv2d(nn::Conv2dOptions(4, 6, 3).stride(2).padding(1))},
                       {"r2", nn::ReLU()},
                       {"c3", nn::Conv2d(nn::Conv2dOptions(6, 8, 3).stride(2).padding(1))},
                       {"r3", nn::ReLU()},
                       {"c4", nn::Conv2d(nn::Conv2dOptions(8, 8, 3).stride(1).padding(1))}});
  return det::backbone_utils::BackboneWithFPN(body, ReturnLayers{{"r1", "0"}, {"r2", "1"}, {"r3", "2"}},
                                              std::vector<int64_t>{4, 6, 8}, 8);
}

det::FasterRCNNOptions tiny_options(bool small_heads) {
  det::FasterRCNNOptions o(tiny_backbone());
  o.min_size({64})
      .max_size(96)
      .rpn_anchor_generator(det::rpn::AnchorGenerator(std::vector<std::vector<int64_t>>{{8}, {16}, {32}, {64}},
                                                      std::vector<std::vector<double>>(4, {0.5, 1.0, 2.0})))
      .box_roi_pool(vops::MultiScaleRoIAlign(vops::MultiScaleRoIAlignOptions({"0", "1", "2"}, 7, 2)))
      .rpn_pre_nms_top_n_test(60)
      .rpn_post_nms_top_n_test(40)
      .box_detections_per_img(12)
      .box_score_thresh(0.2);
  if (small_heads) {
    o.box_head(nn::AnyModule(det::faster_rcnn::TwoMLPHead(8 * 7 * 7, 32)))
        .box_predictor(nn::AnyModule(det::faster_rcnn::FastRCNNPredictor(32, 4)));
  } else {
    o.num_classes(4);
  }
  return o;
}

det::FasterRCNN tiny_model(det::FasterRCNNOptions o) {
  det::FasterRCNN model(o);
  fill(*model);
  model->to(ember::kDouble);
  return model;
}

std::vector<Tensor> images() { return {image(2, 3, 50, 70, ember::kDouble), image(3, 3, 60, 44, ember::kDouble)}; }

std::vector<det::Target> targets() {
  const Golden& g = golden();
  return {{{"boxes", g["frcnn.target0.boxes"]}, {"labels", g["frcnn.target0.labels"]}},
          {{"boxes", g["frcnn.target1.boxes"]}, {"labels", g["frcnn.target1.labels"]}}};
}

TEST(VisionDetectionFasterRCNN, StateDictNamesMatchTorchvision) {
  expect_state_dict_names("frcnn_default", *det::FasterRCNN(tiny_options(false)));
  expect_state_dict_names("frcnn", *det::FasterRCNN(tiny_options(true)));
}

TEST(VisionDetectionFasterRCNN, EvalDetectionsMatchTorchvision) {
  const Golden& g = golden();
  det::FasterRCNN model = tiny_model(tiny_options(true));
  model->eval();
  ember::NoGradGuard guard;
  const det::DetectionOutput out = model(images());
  ASSERT_EQ(out.detections.size(), 2u);
  EXPECT_TRUE(out.losses.empty());
  for (int i = 0; i < 2; ++i) {
    const std::string p = "frcnn.eval" + std::to_string(i) + ".";
    EXPECT_TENSOR_CLOSE(out[i].at("boxes"), g[p + "boxes"]);
    EXPECT_TENSOR_EQ(out[i].at("labels"), g[p + "labels"]);
    EXPECT_TENSOR_CLOSE(out[i].at("scores"), g[p + "scores"]);
  }
}

TEST(VisionDetectionFasterRCNN, TrainLossesMatchTorchvision) {
  const Golden& g = golden();
  det::FasterRCNNOptions o = tiny_options(true);
  o.rpn_batch_size_per_image(100000)
      .box_batch_size_per_image(100000)
      .rpn_pre_nms_top_n_train(80)
      .rpn_post_nms_top_n_train(50);
  det::FasterRCNN model = tiny_model(o);
  model->train();
  const det::DetectionOutput out = model(images(), targets());
  EXPECT_TRUE(out.detections.empty());
  ASSERT_EQ(out.losses.size(), 4u);
  for (const char* k : {"loss_classifier", "loss_box_reg", "loss_objectness", "loss_rpn_box_reg"}) {
    const Tensor want = g[std::string("frcnn.loss.") + k].to(ember::kDouble);
    // torchvision's objectness loss is float32 (float labels); compare at its precision.
    EXPECT_NEAR(out[k].item<double>(), want.item<double>(), 1e-6 * (1 + std::abs(want.item<double>()))) << k;
  }
  // The losses reach the parameters.
  Tensor total = out["loss_classifier"] + out["loss_box_reg"] + out["loss_objectness"] + out["loss_rpn_box_reg"];
  total.backward();
  const Tensor grad = model->named_parameters()["backbone.body.c1.weight"].grad();
  ASSERT_TRUE(grad.defined());
  EXPECT_GT(grad.abs().sum().item<double>(), 0);
}

TEST(VisionDetectionFasterRCNN, TrainsOnImagesWithoutBoxes) {
  det::FasterRCNN model = tiny_model(tiny_options(true));
  model->train();
  auto t = targets();
  t[0]["boxes"] = ember::zeros({0, 4}, ember::TensorOptions().dtype(ember::kDouble));
  t[0]["labels"] = ember::zeros({0}, ember::TensorOptions().dtype(ember::kLong));
  const det::DetectionOutput out = model(images(), t);
  ASSERT_EQ(out.losses.size(), 4u);
  for (const auto& [k, v] : out.losses) EXPECT_TRUE(std::isfinite(v.item<double>())) << k;
}

TEST(VisionDetectionFasterRCNN, BadInputRaises) {
  det::FasterRCNN model = tiny_model(tiny_options(true));
  model->eval();
  EXPECT_EMBER_ERROR(model(std::vector<Tensor>{ember::rand({1, 3, 20, 20})}), "FasterRCNN", "3d tensors");
  EXPECT_EMBER_ERROR(model(std::vector<Tensor>{ember::zeros({3, 20, 20}, ember::TensorOptions().dtype(ember::kByte))}),
                     "FasterRCNN", "floating type");
  EXPECT_EMBER_ERROR(model(std::vector<Tensor>{ember::rand({4, 20, 20}, ember::TensorOptions().dtype(ember::kDouble))}),
                     "4 channels");
  model->train();
  EXPECT_EMBER_ERROR(model(images()), "FasterRCNN", "targets should not be none");
  auto bad = targets();
  bad[1]["boxes"] = ember::tensor({2.0, 3.0, 2.0, 50.0}).reshape({1, 4});
  EXPECT_EMBER_ERROR(model(images(), bad), "FasterRCNN", "positive height and width", "target at index 1");
  bad[1]["boxes"] = ember::tensor({2.0, 3.0, 2.0}).reshape({1, 3});
  EXPECT_EMBER_ERROR(model(images(), bad), "FasterRCNN", "shape [N, 4]");
  bad = targets();
  bad[0]["labels"] = ember::tensor({int64_t{1}, int64_t{7}});
  EXPECT_ANY_THROW(model(images(), bad));  // cross_entropy's own range check raises
  EXPECT_EMBER_ERROR(auto m = det::FasterRCNN(tiny_backbone()), "FasterRCNN", "num_classes should not be None");
  EXPECT_EMBER_ERROR(det::FasterRCNN(tiny_options(true).num_classes(3)), "FasterRCNN", "num_classes should be None");
}

TEST(VisionDetectionFasterRCNN, TakesAPlainSequentialWithItsChannels) {
  // torchvision's documented custom backbone: features with out_channels set by hand.
  nn::Sequential features({{"0", nn::Conv2d(nn::Conv2dOptions(3, 8, 3).stride(4).padding(1))}, {"1", nn::ReLU()}});
  det::FasterRCNN model(det::FasterRCNNOptions(det::Backbone(features, 8), 3)
                            .min_size({48})
                            .max_size(64)
                            .rpn_anchor_generator(det::rpn::AnchorGenerator(std::vector<std::vector<int64_t>>{{8, 16}},
                                                                            std::vector<std::vector<double>>{{1.0}}))
                            .box_roi_pool(vops::MultiScaleRoIAlign(vops::MultiScaleRoIAlignOptions({"0"}, 7, 2))));
  EXPECT_TRUE(model->named_parameters().contains("backbone.0.weight"));
  model->eval();
  ember::NoGradGuard guard;
  const auto out = model(std::vector<Tensor>{image(0, 3, 40, 52)});
  ASSERT_EQ(out.detections.size(), 1u);
  EXPECT_EQ(out[0].at("boxes").size(1), 4);
  EXPECT_EMBER_ERROR(det::Backbone(features, 0), "out_channels=0");
}

TEST(VisionDetectionFasterRCNN, ResnetExtractorFreezesAndValidates) {
  // A ResNet-shaped stand-in: the layer names and inplanes are what the extractor reads.
  ember::vision::models::_utils::NamedLayers layers;
  layers.insert("conv1", nn::AnyModule(nn::Conv2d(nn::Conv2dOptions(3, 4, 3).stride(2).padding(1))));
  layers.insert("bn1", nn::AnyModule(nn::BatchNorm2d(4)));
  layers.insert("layer1", nn::AnyModule(nn::Conv2d(nn::Conv2dOptions(4, 4, 3).padding(1))));
  layers.insert("layer2", nn::AnyModule(nn::Conv2d(nn::Conv2dOptions(4, 8, 3).stride(2).padding(1))));
  layers.insert("layer3", nn::AnyModule(nn::Conv2d(nn::Conv2dOptions(8, 16, 3).stride(2).padding(1))));
  layers.insert("layer4", nn::AnyModule(nn::Conv2d(nn::Conv2dOptions(16, 32, 3).stride(2).padding(1))));
  // inplanes 32: layer k has 32 / 8 * 2^(k-1) channels.
  auto fpn = det::backbone_utils::_resnet_fpn_extractor(layers, 32, 2, std::vector<int64_t>{2, 3, 4});
  for (const auto& p : fpn->named_parameters()) {
    const bool trainable =
        p.key().rfind("body.layer4", 0) == 0 || p.key().rfind("body.layer3", 0) == 0 || p.key().rfind("fpn.", 0) == 0;
    EXPECT_EQ(p.value().requires_grad(), trainable) << p.key();
  }
  const auto out = fpn(ember::rand({1, 3, 32, 32}));
  EXPECT_EQ(out.keys(), (std::vector<std::string>{"0", "1", "2", "pool"}));
  EXPECT_EQ(out["0"].size(1), 256);
  EXPECT_EMBER_ERROR(det::backbone_utils::_resnet_fpn_extractor(layers, 32, 6), "Trainable layers");
  EXPECT_EMBER_ERROR(det::backbone_utils::_resnet_fpn_extractor(layers, 32, 3, std::vector<int64_t>{0, 1}),
                     "range [1,4]");
  EXPECT_EQ(det::backbone_utils::_validate_trainable_layers(false, 2, 5, 3), 5);
  EXPECT_EQ(det::backbone_utils::_validate_trainable_layers(true, std::nullopt, 5, 3), 3);
  EXPECT_EMBER_ERROR(det::backbone_utils::_validate_trainable_layers(true, 7, 5, 3), "range [0,5]");
  vops::FrozenBatchNorm2d frozen(4);
  det::_utils::overwrite_eps(*frozen, 0.0);
  EXPECT_EQ(frozen->options.eps(), 0.0);
}

TEST(VisionDetectionFasterRCNN, MobilenetExtractorFreezesAndBuilds) {
  const auto conv = [](int64_t in, int64_t out, int64_t stride) {
    return nn::Conv2d(nn::Conv2dOptions(in, out, 3).stride(stride).padding(1));
  };
  const auto make = [&] {
    return nn::Sequential(conv(3, 4, 2), conv(4, 4, 1), conv(4, 6, 2), conv(6, 6, 1), conv(6, 8, 2));
  };
  // Stages start at blocks 0, 2 (an `_is_cn` block) and 4 (the last).
  const std::vector<int64_t> channels{4, 4, 6, 6, 8};
  nn::Sequential features = make();
  det::Backbone fpn = det::backbone_utils::_mobilenet_extractor(features, {2}, channels, true, 1);
  EXPECT_EQ(fpn.out_channels(), 256);
  for (const auto& p : fpn.ptr()->named_parameters()) {
    const bool trainable = p.key().rfind("body.4.", 0) == 0 || p.key().rfind("fpn.", 0) == 0;
    EXPECT_EQ(p.value().requires_grad(), trainable) << p.key();
  }
  EXPECT_EQ(fpn(ember::rand({1, 3, 32, 32})).keys(), (std::vector<std::string>{"0", "1", "pool"}));
  det::Backbone plain = det::backbone_utils::_mobilenet_extractor(make(), {2}, channels, false, 0);
  EXPECT_TRUE(plain.ptr()->named_parameters().contains("1.weight"));
  EXPECT_EQ(plain(ember::rand({1, 3, 32, 32}))["0"].size(1), 256);
  EXPECT_EMBER_ERROR(det::backbone_utils::_mobilenet_extractor(make(), {2}, channels, true, 4), "range [0,3]");
  EXPECT_EMBER_ERROR(det::backbone_utils::_mobilenet_extractor(make(), {2}, channels, true, 3, std::vector<int64_t>{3}),
                     "range [0,2]");
}

TEST(VisionDetectionFasterRCNN, IntermediateLayerGetterKeepsLayersUpToTheLastReturned) {
  nn::Sequential body({{"a", nn::Conv2d(nn::Conv2dOptions(3, 2, 1))},
                       {"b", nn::ReLU()},
                       {"c", nn::Conv2d(nn::Conv2dOptions(2, 2, 1))},
                       {"d", nn::Conv2d(nn::Conv2dOptions(2, 2, 1))}});
  ember::vision::models::_utils::IntermediateLayerGetter getter(body, ReturnLayers{{"c", "feat"}, {"a", "first"}});
  EXPECT_EQ(getter->state_dict().keys(), (std::vector<std::string>{"a.weight", "a.bias", "c.weight", "c.bias"}));
  const Tensor x = ember::rand({1, 3, 4, 4});
  const auto out = getter(x);
  EXPECT_EQ(out.keys(), (std::vector<std::string>{"first", "feat"}));
  const Tensor a = body[0]->as<nn::Conv2dImpl>()->forward(x);
  EXPECT_TENSOR_CLOSE(out["first"], a);
  EXPECT_TENSOR_CLOSE(out["feat"], body[2]->as<nn::Conv2dImpl>()->forward(ember::relu(a)));
  EXPECT_EMBER_ERROR(ember::vision::models::_utils::IntermediateLayerGetter(body, ReturnLayers{{"zz", "x"}}),
                     "IntermediateLayerGetter", "'zz'");
}

det::MaskRCNN tiny_maskrcnn(bool train) {
  det::FasterRCNNOptions o = tiny_options(true);
  o.box_detections_per_img(3);
  if (train)
    o.rpn_batch_size_per_image(100000)
        .box_batch_size_per_image(100000)
        .rpn_pre_nms_top_n_train(80)
        .rpn_post_nms_top_n_train(50);
  det::MaskRCNN model(
      det::MaskRCNNOptions(o)
          .mask_roi_pool(vops::MultiScaleRoIAlign(vops::MultiScaleRoIAlignOptions({"0", "1", "2"}, 14, 2)))
          .mask_head(nn::AnyModule(det::mask_rcnn::MaskRCNNHeads(8, std::vector<int64_t>{8, 8}, 1)))
          .mask_predictor(nn::AnyModule(det::mask_rcnn::MaskRCNNPredictor(8, 8, 4))));
  fill(*model);
  model->to(ember::kDouble);
  return model;
}

TEST(VisionDetectionMaskRCNN, MatchesTorchvision) {
  const Golden& g = golden();
  {
    det::MaskRCNN model = tiny_maskrcnn(false);
    expect_state_dict_names("maskrcnn", *model);
    model->eval();
    ember::NoGradGuard guard;
    const det::DetectionOutput out = model(images());
    ASSERT_EQ(out.detections.size(), 2u);
    for (int i = 0; i < 2; ++i) {
      const std::string p = "maskrcnn.eval" + std::to_string(i) + ".";
      EXPECT_TENSOR_CLOSE(out[i].at("boxes"), g[p + "boxes"]);
      EXPECT_TENSOR_EQ(out[i].at("labels"), g[p + "labels"]);
      EXPECT_TENSOR_CLOSE(out[i].at("scores"), g[p + "scores"]);
      const Tensor masks = out[i].at("masks");
      using ember::indexing::Slice;
      EXPECT_TENSOR_CLOSE(masks.index({Slice(), Slice(), Slice(0, std::nullopt, 5), Slice(0, std::nullopt, 5)}),
                          g[p + "masks_grid"]);
      EXPECT_TENSOR_CLOSE(masks.sum({1, 2, 3}), g[p + "masks_sum"]);
    }
  }
  det::MaskRCNN model = tiny_maskrcnn(true);
  model->train();
  auto t = targets();
  for (int i = 0; i < 2; ++i) t[i]["masks"] = g["maskrcnn.target" + std::to_string(i) + ".masks"];
  const det::DetectionOutput out = model(images(), t);
  ASSERT_EQ(out.losses.size(), 5u);
  for (const char* k : {"loss_classifier", "loss_box_reg", "loss_mask", "loss_objectness", "loss_rpn_box_reg"}) {
    const double want = g[std::string("maskrcnn.loss.") + k].to(ember::kDouble).item<double>();
    EXPECT_NEAR(out[k].item<double>(), want, 1e-6 * (1 + std::abs(want))) << k;
  }
  // Training without masks in the targets raises.
  EXPECT_EMBER_ERROR(model(images(), targets()), "RoIHeads", "masks");
}

det::KeypointRCNN tiny_keypointrcnn(bool train) {
  det::FasterRCNNOptions o = tiny_options(true);
  o.box_detections_per_img(3);
  if (train)
    o.rpn_batch_size_per_image(100000)
        .box_batch_size_per_image(100000)
        .rpn_pre_nms_top_n_train(80)
        .rpn_post_nms_top_n_train(50);
  det::KeypointRCNN model(
      det::KeypointRCNNOptions(o)
          .keypoint_roi_pool(vops::MultiScaleRoIAlign(vops::MultiScaleRoIAlignOptions({"0", "1", "2"}, 14, 2)))
          .keypoint_head(nn::AnyModule(det::keypoint_rcnn::KeypointRCNNHeads(8, std::vector<int64_t>{8, 8})))
          .keypoint_predictor(nn::AnyModule(det::keypoint_rcnn::KeypointRCNNPredictor(8, 5))));
  fill(*model);
  model->to(ember::kDouble);
  return model;
}

TEST(VisionDetectionKeypointRCNN, MatchesTorchvision) {
  const Golden& g = golden();
  {
    det::KeypointRCNN model = tiny_keypointrcnn(false);
    expect_state_dict_names("keypointrcnn", *model);
    model->eval();
    ember::NoGradGuard guard;
    const det::DetectionOutput out = model(images());
    ASSERT_EQ(out.detections.size(), 2u);
    for (int i = 0; i < 2; ++i) {
      const std::string p = "keypointrcnn.eval" + std::to_string(i) + ".";
      EXPECT_TENSOR_CLOSE(out[i].at("boxes"), g[p + "boxes"]);
      EXPECT_TENSOR_EQ(out[i].at("labels"), g[p + "labels"]);
      EXPECT_TENSOR_CLOSE(out[i].at("scores"), g[p + "scores"]);
      EXPECT_TENSOR_CLOSE_TOL(out[i].at("keypoints"), g[p + "keypoints"], 1e-5, 1e-4);
      EXPECT_TENSOR_CLOSE_TOL(out[i].at("keypoints_scores"), g[p + "keypoints_scores"], 1e-5, 1e-5);
    }
  }
  det::KeypointRCNN model = tiny_keypointrcnn(true);
  model->train();
  auto t = targets();
  for (int i = 0; i < 2; ++i) t[i]["keypoints"] = g["keypointrcnn.target" + std::to_string(i) + ".keypoints"];
  const det::DetectionOutput out = model(images(), t);
  ASSERT_EQ(out.losses.size(), 5u);
  for (const char* k : {"loss_classifier", "loss_box_reg", "loss_keypoint", "loss_objectness", "loss_rpn_box_reg"}) {
    const double want = g[std::string("keypointrcnn.loss.") + k].to(ember::kDouble).item<double>();
    EXPECT_NEAR(out[k].item<double>(), want, 1e-6 * (1 + std::abs(want))) << k;
  }
  t[0]["keypoints"] = t[0]["keypoints"].to(ember::kDouble);
  EXPECT_EMBER_ERROR(model(images(), t), "RoIHeads", "keypoints must of float type");
}

}  // namespace vision_models_detection_frcnn_test
