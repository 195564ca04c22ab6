// The multi-weight API of every model family against torchvision 0.14.1's own
// tables (tests/golden/vision_models_weights.golden, written by
// tools/golden/gen_vision_models_weights.py): members in order, DEFAULT,
// urls, meta (parameter counts, min_size, metrics, categories, keypoint
// names) and the transforms presets, whose outputs are compared too.
#include <gtest/gtest.h>

#include <cctype>
#include <sstream>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/torch.h"
#include "ember/vision/models/categories.h"
#include "ember/vision/models/detection/weights_enums.h"
#include "ember/vision/models/imagenet_categories.h"
#include "ember/vision/models/optical_flow/weights_enums.h"
#include "ember/vision/models/registry.h"
#include "ember/vision/models/segmentation/weights_enums.h"
#include "ember/vision/models/weights_enums.h"
#include "ember/vision/models/weights_enums_transformers.h"

namespace vision_models_weights_test {

namespace models = ember::vision::models;
namespace presets = ember::vision::transforms::_presets;
using ember::Tensor;
using ember::testing::Golden;

const Golden& golden() {
  static const Golden g("vision_models_weights.golden");
  return g;
}

// The generator stores strings as their UTF-8 bytes.
std::string text(const Tensor& bytes) {
  std::string s;
  const Tensor b = bytes.contiguous();
  for (int64_t i = 0; i < b.numel(); ++i) s.push_back(static_cast<char>(b[i].item<int64_t>()));
  return s;
}

std::vector<std::string> lines(const std::string& s) {
  std::vector<std::string> out;
  if (s.empty()) return out;
  std::istringstream in(s);
  for (std::string line; std::getline(in, line);) out.push_back(line);
  return out;
}

std::vector<int64_t> ints(const Tensor& t) {
  std::vector<int64_t> v;
  for (int64_t i = 0; i < t.numel(); ++i) v.push_back(t[i].item<int64_t>());
  return v;
}

std::vector<double> doubles(const Tensor& t) {
  std::vector<double> v;
  for (int64_t i = 0; i < t.numel(); ++i) v.push_back(t[i].item<double>());
  return v;
}

const models::WeightsEnum* find_enum(const std::string& name) {
  namespace d = models::detail;
  for (const auto* list : {&d::cnn_weights_enums(), &d::transformer_weights_enums(), &d::detection_weights_enums(),
                           &d::segmentation_weights_enums(), &d::optical_flow_weights_enums()}) {
    for (const models::WeightsEnum* e : *list) {
      if (e->name == name) return e;
    }
  }
  return nullptr;
}

// The category list the generator numbers `index` (0: none).
std::vector<std::string> category_list(int64_t index) {
  if (index == 0) return {};
  for (const std::string& key : golden().names_with_prefix("list." + std::to_string(index) + ".")) {
    return lines(text(golden()[key]));
  }
  ADD_FAILURE() << "no category list " << index;
  return {};
}

std::string upper(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

void expect_preset(const std::string& p, const presets::PresetOptions& options) {
  const Golden& g = golden();
  ASSERT_EQ(static_cast<int64_t>(options.index()), g[p + ".kind"].item<int64_t>()) << p;
  std::vector<double> mean, std;
  ember::vision::transforms::InterpolationMode mode{};
  if (const auto* ic = std::get_if<presets::ImageClassificationOptions>(&options)) {
    EXPECT_EQ(ints(g[p + ".crop_size"]), std::vector<int64_t>{ic->crop_size()}) << p;
    EXPECT_EQ(ints(g[p + ".resize_size"]), std::vector<int64_t>{ic->resize_size()}) << p;
    mean = ic->mean(), std = ic->std(), mode = ic->interpolation();
  } else if (const auto* ss = std::get_if<presets::SemanticSegmentationOptions>(&options)) {
    EXPECT_EQ(ints(g[p + ".resize_size"]), std::vector<int64_t>{ss->resize_size().value_or(-1)}) << p;
    mean = ss->mean(), std = ss->std(), mode = ss->interpolation();
  } else {
    EXPECT_FALSE(g.has(p + ".mean")) << p;
    return;
  }
  EXPECT_EQ(mean, doubles(g[p + ".mean"])) << p;
  EXPECT_EQ(std, doubles(g[p + ".std"])) << p;
  EXPECT_EQ(upper(ember::vision::transforms::interpolation_mode_name(mode)), text(g[p + ".interpolation"])) << p;
}

TEST(VisionModelsWeights, EveryEnumAsTorchvision) {
  const Golden& g = golden();
  const std::vector<std::string> names = lines(text(g["enums"]));
  ASSERT_EQ(names.size(), 72u);
  for (const std::string& name : names) {
    SCOPED_TRACE(name);
    const models::WeightsEnum* e = find_enum(name);
    ASSERT_NE(e, nullptr);
    const std::vector<std::string> members = lines(text(g["members." + name]));
    ASSERT_EQ(e->members.size(), members.size());
    EXPECT_EQ(e->default_member, text(g["default." + name]));
    EXPECT_EQ(&models::get_weight(name + ".DEFAULT"), &(*e)["DEFAULT"]);  // registered
    for (size_t i = 0; i < members.size(); ++i) {
      const models::Weights& w = e->members[i];
      const std::string p = "w." + name + "." + members[i];
      EXPECT_EQ(w.member, members[i]);
      EXPECT_EQ(w.enum_name, name);
      EXPECT_EQ(w.url, text(g[p + ".url"]));
      EXPECT_EQ(w.meta.num_params, g[p + ".num_params"].item<int64_t>());
      EXPECT_EQ((std::vector<int64_t>{w.meta.min_size.first, w.meta.min_size.second}), ints(g[p + ".min_size"]));
      EXPECT_EQ(w.meta.categories, category_list(g[p + ".categories"].item<int64_t>())) << p;
      EXPECT_EQ(w.meta.keypoint_names, category_list(g[p + ".keypoint_names"].item<int64_t>())) << p;
      std::vector<std::string> metric_names;
      std::vector<double> metric_values;
      for (const auto& [dataset, metrics] : w.meta.metrics) {
        for (const auto& [metric, value] : metrics) {
          metric_names.push_back(dataset + "/" + metric);
          metric_values.push_back(value);
        }
      }
      EXPECT_EQ(metric_names, lines(text(g[p + ".metric_names"]))) << p;
      EXPECT_EQ(metric_values, doubles(g[p + ".metric_values"])) << p;
      expect_preset(p + ".tf", w.transforms_options);
    }
  }
}

TEST(VisionModelsWeights, TypedMembersReadAsInPython) {
  namespace det = models::detection;
  const models::Weights& frcnn = det::FasterRCNN_ResNet50_FPN_V2_Weights::DEFAULT;
  EXPECT_EQ(frcnn.name(), "FasterRCNN_ResNet50_FPN_V2_Weights.COCO_V1");
  ASSERT_EQ(frcnn.meta.categories.size(), 91u);
  EXPECT_EQ(frcnn.meta.categories[0], "__background__");
  EXPECT_EQ(frcnn.meta.categories[12], "N/A");
  EXPECT_EQ(frcnn.meta.categories, models::coco_categories());
  EXPECT_DOUBLE_EQ(frcnn.meta.metrics.at("COCO-val2017").at("box_map"), 46.7);
  EXPECT_EQ(frcnn.transforms()->preset_name(), "ObjectDetection");
  EXPECT_EQ(det::KeypointRCNN_ResNet50_FPN_Weights::COCO_LEGACY.meta.keypoint_names.size(), 17u);
  EXPECT_EQ(det::KeypointRCNN_ResNet50_FPN_Weights::COCO_V1.meta.categories, models::coco_person_categories());
  EXPECT_EQ(models::segmentation::DeepLabV3_ResNet101_Weights::COCO_WITH_VOC_LABELS_V1.meta.categories.size(), 21u);
  EXPECT_EQ(models::voc_categories()[15], "person");
  const models::Weights& swag = models::ViT_H_14_Weights::IMAGENET1K_SWAG_E2E_V1;
  EXPECT_EQ(swag.meta.min_size, (std::pair<int64_t, int64_t>{518, 518}));
  EXPECT_FALSE(swag.meta.license.empty());
  EXPECT_EQ(std::get<presets::ImageClassificationOptions>(swag.transforms_options).crop_size(), 518);
  EXPECT_EQ(models::optical_flow::Raft_Large_Weights::DEFAULT.member, "C_T_SKHT_V2");
  EXPECT_TRUE(models::optical_flow::Raft_Small_Weights::C_T_V2.meta.categories.empty());
  EXPECT_EQ(models::ConvNeXt_Tiny_Weights::IMAGENET1K_V1.file_name(), "convnext_tiny-983f1562.pth");
}

// The generator's uint8 image: (37 c + 11 y + 5 x + salt x y) mod 256.
Tensor image(int64_t c, int64_t h, int64_t w, int64_t salt) {
  const auto i64 = ember::TensorOptions().dtype(ember::kLong);
  const Tensor cc = ember::arange(c, i64).view({c, 1, 1});
  const Tensor yy = ember::arange(h, i64).view({1, h, 1});
  const Tensor xx = ember::arange(w, i64).view({1, 1, w});
  return ember::remainder(37 * cc + 11 * yy + 5 * xx + salt * xx * yy, 256).to(ember::kByte);
}

TEST(VisionModelsWeights, PresetsMatchTorchvision) {
  const Golden& g = golden();
  const Tensor img = image(3, 23, 31, 3), other = image(3, 23, 31, 7);
  EXPECT_TENSOR_CLOSE(presets::ObjectDetection()(img), g["preset.object_detection"]);
  EXPECT_TENSOR_CLOSE(models::detection::FCOS_ResNet50_FPN_Weights::COCO_V1.transforms()(img),
                      g["preset.object_detection"]);
  // Downscaling this image meets exact .5 ties before the uint8 rounding, which the
  // two resize implementations' float arithmetic breaks differently: one level apart
  // (1 / 255 / std) at a few pixels.
  EXPECT_TENSOR_CLOSE_TOL(presets::SemanticSegmentation(17)(img), g["preset.segmentation_17"], 0, 1.5 / 255 / 0.224);
  EXPECT_TENSOR_CLOSE(presets::SemanticSegmentation(std::nullopt)(img), g["preset.segmentation_none"]);
  EXPECT_TENSOR_CLOSE(presets::SemanticSegmentation(12)(ember::stack({img, other})), g["preset.segmentation_batch"]);
  // The segmentation weights' preset, resize_size=520.
  const Tensor big = models::segmentation::FCN_ResNet50_Weights::DEFAULT.transforms()(img);
  EXPECT_EQ(big.sizes().vec(), ints(g["preset.segmentation_520.shape"]));
  EXPECT_TENSOR_CLOSE(big.slice(1, 0, big.size(1), 37).slice(2, 0, big.size(2), 41), g["preset.segmentation_520"]);
  const auto [a, b] = models::optical_flow::Raft_Large_Weights::C_T_V2.transforms()(img, other);
  EXPECT_TENSOR_CLOSE(a, g["preset.optical_flow.img1"]);
  EXPECT_TENSOR_CLOSE(b, g["preset.optical_flow.img2"]);
  const Tensor f = img.to(ember::kFloat) / 255;
  EXPECT_TENSOR_CLOSE(std::get<0>(presets::OpticalFlow()(f, f)), g["preset.optical_flow.float"]);
}

TEST(VisionModelsWeights, PresetsRejectBadInput) {
  EXPECT_EMBER_ERROR(presets::ObjectDetection()(ember::zeros({4, 4})), "ObjectDetection", "[4, 4]");
  EXPECT_EMBER_ERROR(presets::SemanticSegmentation(0), "SemanticSegmentation", "resize_size");
  EXPECT_EMBER_ERROR(presets::OpticalFlow()(image(3, 8, 8, 1), ember::zeros({8})), "OpticalFlow", "img2");
  auto flow = models::optical_flow::Raft_Small_Weights::DEFAULT.transforms();
  EXPECT_EMBER_ERROR(flow(image(3, 8, 8, 1)), "OpticalFlow", "two images");
  auto cls = models::ResNet18_Weights::DEFAULT.transforms();
  EXPECT_EMBER_ERROR(cls(image(3, 8, 8, 1), image(3, 8, 8, 1)), "ImageClassification", "one image");
  EXPECT_EMBER_ERROR(models::get_weight("Raft_Large_Weights.C_T_V3"), "Raft_Large_Weights", "C_T_SKHT_V2");
}

}  // namespace vision_models_weights_test
