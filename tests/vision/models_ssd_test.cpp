// The SSD builders against torchvision 0.14 (tools/golden/gen_vision_models_ssd.py):
// state_dict names and shapes, eval detections and training losses under the
// deterministic fill of the VGG tests, the COCO weights enums and the
// registry entries. ssd300_vgg16 runs VGG16 at 300x300 (as torchvision's
// constructor does too), so its eval output is checked with
// EMBER_TEST_ALL_VISION_MODELS=1 only.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdlib>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/torch.h"
#include "ember/vision/models/detection/ssd_builders.h"
#include "ember/vision/models/mobilenetv3.h"
#include "ember/vision/models/registry.h"
#include "ember/vision/models/vgg.h"
#include "vision/models_vgg_fill.h"

namespace vision_models_ssd_test {

namespace det = ember::vision::models::detection;
namespace models = ember::vision::models;
using ember::Tensor;
using ember::testing::Golden;
using vision_models_vgg_fill::expect_state_dict;
using vision_models_vgg_fill::periodic_fill;

const Golden& golden() {
  static const Golden g("vision_models_ssd.golden");
  return g;
}

bool all_models() {
  const char* v = std::getenv("EMBER_TEST_ALL_VISION_MODELS");
  return v != nullptr && std::string(v) == "1";
}

// The filled models saturate, so many anchors tie in score and top-k picks
// among ties arbitrarily: compare the transform's images and the head's
// outputs with torchvision's; of the detections, the best score (the largest
// foreground probability over all anchors, tie-free) and the boxes' bounds.
void expect_outputs(const std::string& name, det::SSD& m, const Tensor& x) {
  SCOPED_TRACE(name);
  ember::NoGradGuard guard;
  m->eval();
  const auto [images, unused] = m->transform(std::vector<Tensor>{x});
  const Tensor want_images = golden()[name + ".images"];
  EXPECT_TENSOR_CLOSE_TOL(images.tensors, want_images, 1e-5, 1e-5 * want_images.abs().max().item<double>());
  std::vector<Tensor> features;
  for (const auto& item : m->backbone(images.tensors)) features.push_back(item.value());
  const auto head = m->head.forward<det::ssd::HeadOutputs>(features);
  for (const char* k : {"cls_logits", "bbox_regression"}) {
    const Tensor want = golden()[name + "." + k];
    EXPECT_TENSOR_CLOSE_TOL(head.at(k), want, 1e-3, 1e-4 * want.abs().max().item<double>()) << k;
  }
  const det::DetectionOutput out = m(std::vector<Tensor>{x});
  const Tensor scores = out[0].at("scores"), boxes = out[0].at("boxes");
  ASSERT_GT(scores.size(0), 0);
  const Tensor probs = ember::softmax(golden()[name + ".cls_logits"], -1);
  EXPECT_NEAR(scores.max().item<double>(), probs.slice(2, 1).max().item<double>(), 1e-4);
  EXPECT_GE(boxes.min().item<double>(), 0.0);
  // Clipped in the resized image, then scaled back (as torchvision): within float noise of the size.
  EXPECT_LE(boxes.select(1, 2).max().item<double>(), static_cast<double>(x.size(2)) + 1e-3);
  EXPECT_LE(boxes.select(1, 3).max().item<double>(), static_cast<double>(x.size(1)) + 1e-3);
}

TEST(VisionModelsSsd, SsdliteMatchesTorchvision) {
  det::SSD m = det::ssdlite320_mobilenet_v3_large(
      std::nullopt, true, 4, std::nullopt, std::nullopt, std::nullopt,
      det::SSDLiteKwargs().score_thresh(0.0).topk_candidates(15).detections_per_img(1000));
  expect_state_dict(golden(), "ssdlite320_c4", *m);
  EXPECT_DOUBLE_EQ(m->nms_thresh, 0.55);
  periodic_fill(*m);
  const Tensor x = golden()["x"];
  expect_outputs("ssdlite320_c4", m, x);
  {
    // Images of the wrong rank or channel count raise.
    ember::NoGradGuard guard;
    EXPECT_EMBER_ERROR(m(std::vector<Tensor>{ember::rand({4, 32, 32})}), "4 channels");
    EXPECT_EMBER_ERROR(m(std::vector<Tensor>{ember::rand({32, 32})}), "SSD");
  }
  // Training: the hard-negative-mining losses of two images (BatchNorm in batch mode).
  m->train();
  std::vector<det::Target> targets(2);
  targets[0]["boxes"] = golden()["target.boxes"];
  targets[0]["labels"] = golden()["target.labels"];
  targets[1]["boxes"] = golden()["target.boxes"].slice(0, 0, 1);
  targets[1]["labels"] = golden()["target.labels"].slice(0, 0, 1);
  const det::DetectionOutput out = m(std::vector<Tensor>{x, x.flip({-1})}, targets);
  for (const char* k : {"bbox_regression", "classification"})
    EXPECT_TENSOR_CLOSE_TOL(out[std::string(k)], golden()[std::string("ssdlite320_c4.loss.") + k], 1e-4, 1e-4) << k;
}

TEST(VisionModelsSsd, Ssd300MatchesTorchvision) {
  det::SSD m =
      det::ssd300_vgg16(std::nullopt, true, all_models() ? std::optional<int64_t>(3) : std::nullopt, std::nullopt,
                        std::nullopt, det::SSDKwargs().score_thresh(0.0).topk_candidates(15).detections_per_img(1000));
  if (!all_models()) {
    expect_state_dict(golden(), "ssd300_vgg16", *m);
    return;
  }
  expect_state_dict(golden(), "ssd300_c3", *m);
  periodic_fill(*m);
  expect_outputs("ssd300_c3", m, golden()["x"]);
}

TEST(VisionModelsSsd, WeightsEnumsAsTorchvision) {
  const models::Weights& w = det::SSDLite320_MobileNet_V3_Large_Weights::DEFAULT;
  EXPECT_EQ(w, det::SSDLite320_MobileNet_V3_Large_Weights::COCO_V1);
  EXPECT_EQ(w.url, "https://download.pytorch.org/models/ssdlite320_mobilenet_v3_large_coco-a79551df.pth");
  EXPECT_EQ(w.meta.categories.size(), 91u);
  EXPECT_EQ(w.meta.categories[1], "person");
  EXPECT_EQ(w.meta.categories[12], "N/A");
  EXPECT_DOUBLE_EQ(det::SSD300_VGG16_Weights::COCO_V1.meta.metrics.at("COCO-val2017").at("box_map"), 25.1);
  EXPECT_EQ(det::SSD300_VGG16_Weights::COCO_V1.meta.num_params, 35641826);
  EXPECT_EQ(models::get_weight("SSD300_VGG16_Weights.DEFAULT").member, "COCO_V1");
}

TEST(VisionModelsSsd, BadArgumentsRaise) {
  const auto coco = det::SSD300_VGG16_Weights::COCO_V1.with_path("/nonexistent.pth");
  EXPECT_EMBER_ERROR(det::ssd300_vgg16(coco, true, 5), "ssd300_vgg16", "expected value 91");
  EXPECT_EMBER_ERROR(det::ssd300_vgg16(det::SSDLite320_MobileNet_V3_Large_Weights::COCO_V1), "ssd300_vgg16",
                     "SSD300_VGG16_Weights");
  EXPECT_EMBER_ERROR(det::ssd300_vgg16(std::nullopt, true, 3, models::VGG16_Weights::IMAGENET1K_FEATURES),
                     "ssd300_vgg16", "vgg16_features-amdegroot-88682ab5.pth");
  EXPECT_EMBER_ERROR(det::ssdlite320_mobilenet_v3_large(std::nullopt, true, 0), "ssdlite320_mobilenet_v3_large",
                     "num_classes");
  // Backbone weights make the trainable layers count (as torchvision, which ignores it without weights).
  EXPECT_EMBER_ERROR(
      det::ssdlite320_mobilenet_v3_large(std::nullopt, true, 3,
                                         models::MobileNet_V3_Large_Weights::IMAGENET1K_V1.with_path("/x.pth"), 7),
      "Trainable", "got 7");
  // The C4 block must have an expansion to split at and no residual connection.
  namespace mnv3 = models::mobilenetv3;
  namespace vops = ember::vision::ops;
  const vops::NormLayer norm = vops::batch_norm2d_layer();
  const auto stack = [&](int64_t expanded, int64_t stride) {
    return ember::nn::Sequential(
        vops::Conv2dNormActivation(vops::Conv2dNormActivationOptions(3, 8).norm_layer(norm)),
        mnv3::InvertedResidual(mnv3::InvertedResidualConfig(8, 3, expanded, 8, false, "RE", stride, 1, 1.0), norm),
        vops::Conv2dNormActivation(vops::Conv2dNormActivationOptions(8, 16).kernel_size(1).norm_layer(norm)));
  };
  using det::ssdlite::SSDLiteFeatureExtractorMobileNet;
  EXPECT_EMBER_ERROR(SSDLiteFeatureExtractorMobileNet(stack(8, 2), 1, norm), "SSDLiteFeatureExtractorMobileNet",
                     "no expansion");
  EXPECT_EMBER_ERROR(SSDLiteFeatureExtractorMobileNet(stack(16, 1), 1, norm), "use_res_connect");
  EXPECT_EMBER_ERROR(SSDLiteFeatureExtractorMobileNet(stack(16, 2), 0, norm), "is not a MobileNetV3 InvertedResidual");
  EXPECT_EMBER_ERROR(det::ssdlite::_mobilenet_extractor(stack(16, 2), 4, norm), "trainable_layers", "instead got 4");
  // A checkpoint whose keys do not match raises naming them.
  EXPECT_ANY_THROW(det::ssdlite320_mobilenet_v3_large(
      det::SSDLite320_MobileNet_V3_Large_Weights::COCO_V1.with_path("/nonexistent.pth")));
}

TEST(VisionModelsSsd, RegistryEntries) {
  const std::vector<models::ModelEntry> entries = models::detail::ssd_model_entries();
  ASSERT_EQ(entries.size(), 2u);
  EXPECT_EQ(entries[0].name, "ssd300_vgg16");
  EXPECT_EQ(entries[0].module, "torchvision.models.detection.ssd");
  EXPECT_EQ(entries[1].weights_enum, "SSDLite320_MobileNet_V3_Large_Weights");
  const det::SSD m = entries[1]
                         .builder({{"num_classes", 3}, {"score_thresh", 0.25}, {"trainable_backbone_layers", 2}})
                         .get<det::SSD>();
  EXPECT_DOUBLE_EQ(m->score_thresh, 0.25);
  EXPECT_EQ(m->detections_per_img, 300);
  EXPECT_EMBER_ERROR(entries[1].builder({{"box_score_thresh", 0.5}}), "ssdlite320_mobilenet_v3_large",
                     "box_score_thresh");
  EXPECT_EMBER_ERROR(entries[0].builder({{"weights_backbone", "IMAGENET1K_FEATURES"}}), "ssd300_vgg16",
                     "vgg16_features-amdegroot-88682ab5.pth");
}

}  // namespace vision_models_ssd_test
