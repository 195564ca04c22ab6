// The full detection and segmentation builders against torchvision 0.14
// (tools/golden/gen_vision_detection_builders.py): every builder's
// state_dict names, order and shapes, and eval outputs of the small
// MobileNetV3 configurations under the deterministic fill of the other model
// tests (the ResNet-50 ones take seconds each to build and run, so only their
// module trees are checked here).
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <functional>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/torch.h"
#include "ember/vision/models/detection/builders.h"
#include "ember/vision/models/registry.h"
#include "ember/vision/models/segmentation/builders.h"
#include "models_fill.h"

namespace vision_detection_builders_test {

namespace det = ember::vision::models::detection;
namespace seg = ember::vision::models::segmentation;
namespace nn = ember::nn;
using ember::Tensor;
using ember::testing::Golden;
using vision_models_fill::fill;

const Golden& golden() {
  static const Golden g("vision_detection_builders.golden");
  return g;
}

void expect_state_dict(const std::string& name, const nn::Module& m) {
  vision_models_fill::expect_state_dict_names(golden(), name, m);
}

// The filled models score many boxes almost equally, so the order of
// near-ties is float noise: the configuration keeps every detection (no
// score threshold, no cap reached), so compare the sorted scores and match
// each detection to a torchvision one with the same label, box and score.
void expect_detections(const std::string& name, const det::DetectionOutput& out) {
  SCOPED_TRACE(name);
  const Golden& g = golden();
  const Tensor boxes = out[0].at("boxes"), labels = out[0].at("labels"), scores = out[0].at("scores");
  const Tensor want_boxes = g[name + ".boxes"], want_labels = g[name + ".labels"], want_scores = g[name + ".scores"];
  ASSERT_EQ(scores.size(0), want_scores.size(0));
  ASSERT_GT(scores.size(0), 0);
  EXPECT_TENSOR_CLOSE_TOL(std::get<0>(scores.sort(0, true)), want_scores, 1e-4, 1e-4);
  for (int64_t i = 0; i < scores.size(0); ++i) {
    bool found = false;
    for (int64_t j = 0; j < want_scores.size(0) && !found; ++j)
      found = labels[i].item<int64_t>() == want_labels[j].item<int64_t>() &&
              std::abs(scores[i].item<double>() - want_scores[j].item<double>()) < 1e-4 &&
              (boxes[i] - want_boxes[j]).abs().max().item<double>() < 2e-2;
    EXPECT_TRUE(found) << "detection " << i << " box " << boxes[i] << " score " << scores[i].item<double>();
  }
}

TEST(VisionDetectionBuilders, DetectionStateDictsMatchTorchvision) {
  expect_state_dict("fasterrcnn_resnet50_fpn", *det::fasterrcnn_resnet50_fpn());
  expect_state_dict("fasterrcnn_resnet50_fpn_v2", *det::fasterrcnn_resnet50_fpn_v2());
  expect_state_dict("fasterrcnn_mobilenet_v3_large_fpn", *det::fasterrcnn_mobilenet_v3_large_fpn());
  expect_state_dict("fasterrcnn_mobilenet_v3_large_320_fpn", *det::fasterrcnn_mobilenet_v3_large_320_fpn());
  expect_state_dict("retinanet_resnet50_fpn", *det::retinanet_resnet50_fpn());
  expect_state_dict("retinanet_resnet50_fpn_v2", *det::retinanet_resnet50_fpn_v2());
  expect_state_dict("fcos_resnet50_fpn", *det::fcos_resnet50_fpn());
  expect_state_dict("maskrcnn_resnet50_fpn", *det::maskrcnn_resnet50_fpn());
  expect_state_dict("keypointrcnn_resnet50_fpn", *det::keypointrcnn_resnet50_fpn());
}

TEST(VisionDetectionBuilders, SegmentationStateDictsMatchTorchvision) {
  expect_state_dict("fcn_resnet50", *seg::fcn_resnet50());
  expect_state_dict("fcn_resnet101", *seg::fcn_resnet101());
  expect_state_dict("deeplabv3_resnet50", *seg::deeplabv3_resnet50());
  expect_state_dict("deeplabv3_resnet101", *seg::deeplabv3_resnet101());
  expect_state_dict("deeplabv3_mobilenet_v3_large", *seg::deeplabv3_mobilenet_v3_large());
  expect_state_dict("lraspp_mobilenet_v3_large", *seg::lraspp_mobilenet_v3_large());
  expect_state_dict("fcn_resnet50_aux", *seg::fcn_resnet50(std::nullopt, true, 3, true));
}

TEST(VisionDetectionBuilders, DetectionOutputsMatchTorchvision) {
  const Tensor x = golden()["x"];
  ember::NoGradGuard guard;
  const auto run = [&](const std::string& name, auto model) {
    fill(*model);
    model->eval();
    expect_detections(name, model(std::vector<Tensor>{x}));
  };
  run("frcnn_mnv3_320", det::fasterrcnn_mobilenet_v3_large_320_fpn(std::nullopt, true, 5, std::nullopt, std::nullopt,
                                                                   det::FasterRCNNKwargs()
                                                                       .min_size(std::vector<int64_t>{72})
                                                                       .max_size(96)
                                                                       .rpn_post_nms_top_n_test(40)
                                                                       .score_thresh(0.0)
                                                                       .detections_per_img(1000)));
}

TEST(VisionDetectionBuilders, SegmentationOutputsMatchTorchvision) {
  const Tensor xs = golden()["xs"];
  ember::NoGradGuard guard;
  const auto run = [&](const std::string& name, auto model, const std::vector<std::string>& keys) {
    SCOPED_TRACE(name);
    fill(*model);
    model->eval();
    const auto y = model(xs);
    ASSERT_EQ(y.size(), keys.size());
    for (const auto& k : keys) EXPECT_TENSOR_CLOSE_TOL(y.at(k), golden()[name + "." + k], 1e-4, 1e-4) << k;
  };
  run("deeplabv3_mnv3", seg::deeplabv3_mobilenet_v3_large(std::nullopt, true, 3, true), {"out", "aux"});
  run("lraspp_mnv3", seg::lraspp_mobilenet_v3_large(std::nullopt, true, 3), {"out"});
}

TEST(VisionDetectionBuilders, BadArgumentsRaise) {
  EXPECT_EMBER_ERROR(det::fasterrcnn_resnet50_fpn(std::nullopt, true, 0), "fasterrcnn_resnet50_fpn", "num_classes");
  const auto coco = det::FasterRCNN_ResNet50_FPN_Weights::COCO_V1.with_path("/nonexistent.pth");
  EXPECT_EMBER_ERROR(det::fasterrcnn_resnet50_fpn(coco, true, 5), "fasterrcnn_resnet50_fpn", "expected value 91");
  EXPECT_EMBER_ERROR(det::fasterrcnn_mobilenet_v3_large_fpn(
                         det::FasterRCNN_MobileNet_V3_Large_FPN_Weights::COCO_V1.with_path("/nonexistent.pth"), true,
                         std::nullopt, std::nullopt, 7),
                     "Trainable backbone layers", "got 7");
  EXPECT_EMBER_ERROR(det::retinanet_resnet50_fpn(std::nullopt, true, 3, std::nullopt, std::nullopt,
                                                 det::RetinaNetKwargs().rpn_post_nms_top_n_test(3)),
                     "rpn_");
  EXPECT_EMBER_ERROR(seg::fcn_resnet50(seg::FCN_ResNet50_Weights::COCO_WITH_VOC_LABELS_V1.with_path("/nonexistent.pth"),
                                       true, std::nullopt, false),
                     "fcn_resnet50", "aux_loss");
  EXPECT_EMBER_ERROR(seg::lraspp_mobilenet_v3_large(
                         seg::LRASPP_MobileNet_V3_Large_Weights::COCO_WITH_VOC_LABELS_V1.with_path("/nonexistent.pth")),
                     "/nonexistent.pth");
  // Weights of another model's enum, or without their file, raise naming the builder.
  EXPECT_EMBER_ERROR(det::retinanet_resnet50_fpn(coco), "retinanet_resnet50_fpn", "RetinaNet_ResNet50_FPN_Weights");
  EXPECT_EMBER_ERROR(det::fcos_resnet50_fpn(det::FCOS_ResNet50_FPN_Weights::COCO_V1), "fcos_resnet50_fpn",
                     "fcos_resnet50_fpn_coco-99b0c9b7.pth");
  EXPECT_EMBER_ERROR(
      det::keypointrcnn_resnet50_fpn(det::KeypointRCNN_ResNet50_FPN_Weights::COCO_V1.with_path("/nonexistent.pth"),
                                     true, std::nullopt, 5),
      "num_keypoints", "expected value 17");
}

TEST(VisionDetectionBuilders, RegisteredInTheModelRegistry) {
  namespace models = ember::vision::models;
  const std::vector<std::string> detectors = models::list_models(std::string("torchvision.models.detection"));
  for (const char* n : {"fasterrcnn_resnet50_fpn", "fasterrcnn_resnet50_fpn_v2", "fasterrcnn_mobilenet_v3_large_fpn",
                        "fasterrcnn_mobilenet_v3_large_320_fpn", "retinanet_resnet50_fpn", "retinanet_resnet50_fpn_v2",
                        "fcos_resnet50_fpn", "maskrcnn_resnet50_fpn", "maskrcnn_resnet50_fpn_v2",
                        "keypointrcnn_resnet50_fpn", "ssd300_vgg16", "ssdlite320_mobilenet_v3_large"}) {
    EXPECT_NE(std::find(detectors.begin(), detectors.end(), n), detectors.end()) << n;
  }
  EXPECT_EQ(detectors.size(), 12u);  // torchvision 0.14's list_models(module=detection)
  EXPECT_EQ(models::list_models(std::string("torchvision.models.segmentation")).size(), 6u);
  EXPECT_EQ(models::list_models(std::string("torchvision.models.detection.faster_rcnn")).size(), 4u);
  // Built through the registry, the keywords reach the model.
  nn::AnyModule m = models::get_model("lraspp_mobilenet_v3_large", {{"num_classes", 4}});
  const auto sd = m.ptr()->state_dict();
  ASSERT_NE(sd.find("classifier.low_classifier.weight"), nullptr);
  EXPECT_EQ(sd.find("classifier.low_classifier.weight")->size(0), 4);
  nn::AnyModule f =
      models::get_model("fasterrcnn_mobilenet_v3_large_320_fpn",
                        {{"num_classes", 3}, {"box_score_thresh", 0.5}, {"trainable_backbone_layers", 2}});
  const det::FasterRCNN frcnn = f.get<det::FasterRCNN>();
  EXPECT_DOUBLE_EQ(frcnn->options.box_score_thresh(), 0.5);
  EXPECT_EQ(frcnn->options.min_size(), std::vector<int64_t>{320});
  EXPECT_EMBER_ERROR(models::get_model("fcos_resnet50_fpn", {{"box_score_thresh", 0.5}}), "fcos_resnet50_fpn",
                     "box_score_thresh");
  EXPECT_EMBER_ERROR(models::get_model("lraspp_mobilenet_v3_large", {{"aux_loss", true}}), "aux_loss");
  // The weights enums are registered under the builders' names.
  EXPECT_EQ(models::get_model_weights("keypointrcnn_resnet50_fpn").members.size(), 2u);
  EXPECT_EQ(models::get_weight("KeypointRCNN_ResNet50_FPN_Weights.DEFAULT").member, "COCO_V1");
  EXPECT_EQ(models::get_model_weights("deeplabv3_mobilenet_v3_large").default_member, "COCO_WITH_VOC_LABELS_V1");
  EXPECT_EMBER_ERROR(models::get_model("fcos_resnet50_fpn", {{"weights", "DEFAULT"}}), "fcos_resnet50_fpn",
                     "fcos_resnet50_fpn_coco-99b0c9b7.pth");
  // The backbone's builder raises for its weights without a file.
  EXPECT_EMBER_ERROR(models::get_model("fcn_resnet50", {{"weights_backbone", "IMAGENET1K_V2"}}),
                     "ResNet50_Weights.IMAGENET1K_V2", "resnet50-11ad3fa6.pth");
}

// FORWARD_HAS_DEFAULT_ARGS: through an AnyModule, evaluation needs no targets.
TEST(VisionDetectionBuilders, AnyModuleForwardWithoutTargets) {
  // (RetinaNet and FCOS: models_detection_dense_test.cpp, on small backbones.)
  nn::AnyModule m = ember::vision::models::get_model("fasterrcnn_mobilenet_v3_large_320_fpn",
                                                     {{"num_classes", 3}, {"min_size", 64}, {"max_size", 64}});
  m.ptr()->eval();
  ember::NoGradGuard no_grad;
  const auto out = m.forward<det::DetectionOutput>(std::vector<Tensor>{ember::rand({3, 48, 64})});
  ASSERT_EQ(out.detections.size(), 1u);
  EXPECT_EQ(out.detections[0].at("boxes").size(1), 4);
}

}  // namespace vision_detection_builders_test
