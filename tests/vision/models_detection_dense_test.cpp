// ember::vision::models::detection::RetinaNet (RetinaNetHead, focal and L1
// losses, postprocessing) and FCOS (FCOSHead, centre sampling, focal / GIoU /
// centerness losses) over a tiny BackboneWithFPN with LastLevelP6P7, and
// SSD / SSDlite (SSDHead, SSDLiteHead, hard negative mining) over an
// IntermediateLayerGetter,
// against torchvision 0.14 with the same deterministic weights
// (tools/golden/gen_vision_detection.py): state_dict names and shapes, eval
// detections, train losses, and bad input.
#include <gtest/gtest.h>

#include <cmath>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/torch.h"
#include "ember/vision/models/detection.h"
#include "ember/vision/models/detection/ssd_vgg.h"
#include "ember/vision/models/detection/ssdlite.h"
#include "ember/vision/models/intermediate_layer_getter.h"
#include "models_fill.h"

namespace vision_models_detection_dense_test {

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

nn::Sequential tiny_body() {
  return nn::Sequential({{"c1", nn::Conv2d(nn::Conv2dOptions(3, 4, 3).stride(2).padding(1))},
                         {"r1", nn::ReLU()},
                         {"c2", nn::Conv2d(nn::Conv2dOptions(4, 6, 3).stride(2).padding(1))},
                         {"r2", nn::ReLU()},
                         {"c3", nn::Conv2d(nn::Conv2dOptions(6, 8, 3).stride(2).padding(1))},
                         {"r3", nn::ReLU()}});
}

det::RetinaNet tiny_retinanet() {
  det::backbone_utils::BackboneWithFPN backbone(tiny_body(), ReturnLayers{{"r1", "0"}, {"r2", "1"}, {"r3", "2"}},
                                                std::vector<int64_t>{4, 6, 8}, 8,
                                                std::make_shared<vops::LastLevelP6P7Impl>(8, 8));
  det::RetinaNet model(det::RetinaNetOptions(backbone, 4)
                           .min_size({64})
                           .max_size(96)
                           .anchor_generator(det::anchor_utils::AnchorGenerator(
                               std::vector<std::vector<int64_t>>{{8}, {16}, {32}, {48}, {64}},
                               std::vector<std::vector<double>>(5, {0.5, 1.0, 2.0})))
                           .score_thresh(0.3)
                           .detections_per_img(10)
                           .topk_candidates(20));
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

TEST(VisionDetectionRetinaNet, MatchesTorchvision) {
  const Golden& g = golden();
  det::RetinaNet model = tiny_retinanet();
  expect_state_dict_names("retinanet", *model);
  model->eval();
  {
    ember::NoGradGuard guard;
    const det::DetectionOutput out = model(images());
    ASSERT_EQ(out.detections.size(), 2u);
    for (int i = 0; i < 2; ++i) {
      const std::string p = "retinanet.eval" + std::to_string(i) + ".";
      EXPECT_TENSOR_CLOSE(out[i].at("boxes"), g[p + "boxes"]);
      EXPECT_TENSOR_EQ(out[i].at("labels"), g[p + "labels"]);
      EXPECT_TENSOR_CLOSE(out[i].at("scores"), g[p + "scores"]);
    }
  }
  model->train();
  const det::DetectionOutput out = model(images(), targets());
  ASSERT_EQ(out.losses.size(), 2u);
  for (const char* k : {"classification", "bbox_regression"})
    EXPECT_TENSOR_CLOSE(out[k], g[std::string("retinanet.loss.") + k]);
  (out["classification"] + out["bbox_regression"]).backward();
  const Tensor grad = model->named_parameters()["head.classification_head.cls_logits.weight"].grad();
  ASSERT_TRUE(grad.defined());
  EXPECT_GT(grad.abs().sum().item<double>(), 0);
}

// FORWARD_HAS_DEFAULT_ARGS: through an AnyModule, evaluation needs no targets.
template <typename Model>
void expect_any_module_forward(Model model) {
  ember::nn::AnyModule any(model);
  any.ptr()->eval();
  ember::NoGradGuard guard;
  const auto out = any.forward<det::DetectionOutput>(images());
  const det::DetectionOutput direct = model(images());
  ASSERT_EQ(out.detections.size(), 2u);
  for (size_t i = 0; i < 2; ++i) EXPECT_TENSOR_EQ(out[i].at("boxes"), direct[i].at("boxes"));
}

TEST(VisionDetectionRetinaNet, BadInputRaises) {
  det::RetinaNet model = tiny_retinanet();
  model->eval();
  EXPECT_EMBER_ERROR(model(std::vector<Tensor>{ember::rand({3, 20})}), "RetinaNet", "3d tensors");
  EXPECT_EMBER_ERROR(model(std::vector<Tensor>{ember::zeros({3, 20, 20}, ember::TensorOptions().dtype(ember::kInt))}),
                     "RetinaNet", "floating type");
  model->train();
  EXPECT_EMBER_ERROR(model(images()), "RetinaNet", "targets should not be none");
  auto bad = targets();
  bad[0]["boxes"] = ember::tensor({5.0, 30.0, 40.0, 30.0}).reshape({1, 4});
  bad[0]["labels"] = ember::tensor({int64_t{1}});
  EXPECT_EMBER_ERROR(model(images(), bad), "RetinaNet", "positive height and width", "target at index 0");
  bad = targets();
  bad[0]["labels"] = ember::tensor({int64_t{1}, int64_t{9}});
  EXPECT_EMBER_ERROR(model(images(), bad), "RetinaNet", "label 9 is out of range");
  bad[0]["labels"] = ember::tensor({int64_t{1}, int64_t{-2}});
  EXPECT_EMBER_ERROR(model(images(), bad), "RetinaNet", "non-negative");
  bad[0]["labels"] = ember::tensor({1.0f, 2.0f});
  EXPECT_EMBER_ERROR(model(images(), bad), "RetinaNet", "int64");
  bad[0].erase("labels");
  EXPECT_EMBER_ERROR(model(images(), bad), "RetinaNet", "labels key");
  bad = targets();
  bad[1]["boxes"] = ember::tensor({2.0, 3.0, std::nan(""), 50.0}).reshape({1, 4});
  EXPECT_EMBER_ERROR(model(images(), bad), "RetinaNet", "finite");
}

det::FCOS tiny_fcos() {
  det::backbone_utils::BackboneWithFPN backbone(tiny_body(), ReturnLayers{{"r1", "0"}, {"r2", "1"}, {"r3", "2"}},
                                                std::vector<int64_t>{4, 6, 8}, 32,
                                                std::make_shared<vops::LastLevelP6P7Impl>(32, 32));
  det::FCOS model(
      det::FCOSOptions(backbone, 4)
          .min_size({64})
          .max_size(96)
          .anchor_generator(det::anchor_utils::AnchorGenerator(
              std::vector<std::vector<int64_t>>{{2}, {4}, {8}, {16}, {32}}, std::vector<std::vector<double>>(5, {1.0})))
          .detections_per_img(10)
          .topk_candidates(20));
  fill(*model);
  model->to(ember::kDouble);
  return model;
}

TEST(VisionDetectionFCOS, MatchesTorchvision) {
  const Golden& g = golden();
  det::FCOS model = tiny_fcos();
  expect_state_dict_names("fcos", *model);
  model->eval();
  {
    ember::NoGradGuard guard;
    const det::DetectionOutput out = model(images());
    ASSERT_EQ(out.detections.size(), 2u);
    for (int i = 0; i < 2; ++i) {
      const std::string p = "fcos.eval" + std::to_string(i) + ".";
      EXPECT_TENSOR_CLOSE(out[i].at("boxes"), g[p + "boxes"]);
      EXPECT_TENSOR_EQ(out[i].at("labels"), g[p + "labels"]);
      EXPECT_TENSOR_CLOSE(out[i].at("scores"), g[p + "scores"]);
    }
  }
  model->train();
  const det::DetectionOutput out = model(images(), targets());
  ASSERT_EQ(out.losses.size(), 3u);
  for (const char* k : {"classification", "bbox_regression", "bbox_ctrness"})
    EXPECT_TENSOR_CLOSE(out[k], g[std::string("fcos.loss.") + k]);
  EXPECT_EMBER_ERROR(
      det::FCOS(det::FCOSOptions(det::backbone_utils::BackboneWithFPN(tiny_body(), ReturnLayers{{"r3", "0"}},
                                                                      std::vector<int64_t>{8}, 32),
                                 4)
                    .anchor_generator(det::anchor_utils::AnchorGenerator())),
      "FCOS", "num_anchors_per_location()[0] should be 1");
  EXPECT_EMBER_ERROR(det::fcos::FCOSHead(8, 1, 4), "FCOSHead", "in_channels=8");
}

det::SSD tiny_ssd(bool lite) {
  ember::vision::models::_utils::IntermediateLayerGetter backbone(tiny_body(), ReturnLayers{{"r2", "0"}, {"r3", "1"}});
  det::anchor_utils::DefaultBoxGenerator anchors(std::vector<std::vector<int64_t>>{{2}, {2, 3}});
  det::SSDOptions o(backbone, anchors, {40, 48}, 4);
  o.score_thresh(0.2).detections_per_img(10).topk_candidates(20);
  if (lite) {
    const vops::NormLayer bn = [](int64_t c) {
      return nn::AnyModule(nn::BatchNorm2d(nn::BatchNorm2dOptions(c).eps(0.001).momentum(0.03)));
    };
    o.head(nn::AnyModule(
        det::ssdlite::SSDLiteHead(std::vector<int64_t>{6, 8}, anchors->num_anchors_per_location(), 4, bn)));
  }
  det::SSD model(o);
  fill(*model);
  model->to(ember::kDouble);
  return model;
}

TEST(VisionDetectionSSD, MatchesTorchvision) {
  const Golden& g = golden();
  for (const bool lite : {false, true}) {
    const std::string name = lite ? "ssdlite" : "ssd";
    SCOPED_TRACE(name);
    det::SSD model = tiny_ssd(lite);
    expect_state_dict_names(name, *model);
    model->eval();
    {
      ember::NoGradGuard guard;
      const det::DetectionOutput out = model(images());
      ASSERT_EQ(out.detections.size(), 2u);
      for (int i = 0; i < 2; ++i) {
        const std::string p = name + ".eval" + std::to_string(i) + ".";
        EXPECT_TENSOR_CLOSE(out[i].at("boxes"), g[p + "boxes"]);
        EXPECT_TENSOR_EQ(out[i].at("labels"), g[p + "labels"]);
        EXPECT_TENSOR_CLOSE(out[i].at("scores"), g[p + "scores"]);
      }
    }
    model->train();
    const det::DetectionOutput out = model(images(), targets());
    ASSERT_EQ(out.losses.size(), 2u);
    for (const char* k : {"bbox_regression", "classification"}) EXPECT_TENSOR_CLOSE(out[k], g[name + ".loss." + k]);
  }
  EXPECT_EMBER_ERROR(
      det::SSD(det::SSDOptions(
          ember::vision::models::_utils::IntermediateLayerGetter(tiny_body(), ReturnLayers{{"r3", "0"}}),
          det::anchor_utils::DefaultBoxGenerator(std::vector<std::vector<int64_t>>{{2}, {2, 3}}), {40, 48}, 4)),
      "SSD", "output channels from the backbone (1)", "aspect ratios (2)");
}

// Images without objects train (every anchor a negative), as in torchvision.
TEST(VisionDetectionDense, AnyModuleForwardWithoutTargets) {
  expect_any_module_forward(tiny_retinanet());
  expect_any_module_forward(tiny_fcos());
}

TEST(VisionDetectionDense, TrainsOnImagesWithoutBoxes) {
  auto t = targets();
  t[1]["boxes"] = ember::zeros({0, 4}, ember::TensorOptions().dtype(ember::kDouble));
  t[1]["labels"] = ember::zeros({0}, ember::TensorOptions().dtype(ember::kLong));
  det::RetinaNet retinanet = tiny_retinanet();
  retinanet->train();
  for (const auto& [k, v] : retinanet(images(), t).losses) EXPECT_TRUE(std::isfinite(v.item<double>())) << k;
  det::FCOS fcos = tiny_fcos();
  fcos->train();
  for (const auto& [k, v] : fcos(images(), t).losses) EXPECT_TRUE(std::isfinite(v.item<double>())) << k;
  det::SSD ssd = tiny_ssd(false);
  ssd->train();
  for (const auto& [k, v] : ssd(images(), t).losses) EXPECT_TRUE(std::isfinite(v.item<double>())) << k;
}

nn::Sequential thin_vgg() {
  const auto c = [](int64_t i, int64_t o) { return nn::Conv2d(nn::Conv2dOptions(i, o, 3).padding(1)); };
  const auto pool = [] { return nn::MaxPool2d(nn::MaxPool2dOptions(2).stride(2)); };
  return nn::Sequential(c(3, 8), nn::ReLU(), pool(), c(8, 8), nn::ReLU(), pool(), c(8, 16), nn::ReLU(), pool(),
                        c(16, 512), nn::ReLU(), pool(), nn::Conv2d(nn::Conv2dOptions(512, 512, 1)), nn::ReLU(), pool());
}

TEST(VisionDetectionSSD, VGGFeatureExtractorMatchesTorchvision) {
  const Golden& g = golden();
  det::ssd::SSDFeatureExtractorVGG ext(thin_vgg(), false);
  expect_state_dict_names("ssdvgg", *ext);
  fill(*ext);
  ember::NoGradGuard guard;
  const auto feats = ext(image(4, 3, 268, 268).unsqueeze(0));
  ASSERT_EQ(feats.size(), 6u);
  using ember::indexing::Slice;
  for (const auto& item : feats.items()) {
    const std::string p = "ssdvgg." + item.key() + ".";
    const Tensor& v = item.value();
    const Tensor shape = g[p + "shape"];
    for (int64_t d = 0; d < 4; ++d) EXPECT_EQ(v.size(d), shape[d].item<int64_t>()) << p;
    const double sum = g[p + "sum"].item<double>(), abssum = g[p + "abssum"].item<double>();
    EXPECT_NEAR(v.to(ember::kDouble).sum().item<double>(), sum, 1e-4 * abssum) << p;
    EXPECT_NEAR(v.to(ember::kDouble).abs().sum().item<double>(), abssum, 1e-4 * abssum) << p;
    EXPECT_TENSOR_CLOSE_TOL(v.flatten().index({Slice(0, std::nullopt, 331)}), g[p + "samples"], 1e-3, 1e-4) << p;
  }
  // _vgg_extractor freezes the first stages.
  nn::Sequential vgg = thin_vgg();
  det::ssd::_vgg_extractor(vgg, false, 2);
  EXPECT_FALSE(vgg[0]->as<nn::Conv2dImpl>()->weight.requires_grad());
  EXPECT_TRUE(vgg[9]->as<nn::Conv2dImpl>()->weight.requires_grad());
  EXPECT_EMBER_ERROR(det::ssd::_vgg_extractor(thin_vgg(), false, 6), "range [0, 5]");
  EXPECT_EMBER_ERROR(det::ssd::SSDFeatureExtractorVGG(nn::Sequential(nn::ReLU()), false), "5 MaxPool2d");
}

}  // namespace vision_models_detection_dense_test
