// The builders take their weights enum's members as torchvision's do:
// weights of another enum, or without a file, raise before the model is
// built; the weights fix num_classes / image_size (a different kwarg raises,
// as _ovewrite_named_param / _ovewrite_value_param); and a member pointing
// at a checkpoint loads it strictly.
#include <gtest/gtest.h>

#include <filesystem>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/serialize/safetensors.h"
#include "ember/torch.h"
#include "ember/vision/models/convnext.h"
#include "ember/vision/models/detection/builders.h"
#include "ember/vision/models/optical_flow/raft.h"
#include "ember/vision/models/registry.h"
#include "ember/vision/models/segmentation/builders.h"
#include "ember/vision/models/swin_transformer.h"
#include "ember/vision/models/vision_transformer.h"
#include "ember/vision/models/weights_enums.h"

namespace vision_models_weights_builders_test {

namespace models = ember::vision::models;
namespace of = ember::vision::models::optical_flow;
namespace seg = ember::vision::models::segmentation;
using ember::Tensor;

// The module's state_dict, perturbed so that a load is visible, saved as safetensors.
std::string save_perturbed(ember::nn::Module& m, const std::string& file) {
  const std::string path = (std::filesystem::path(testing::TempDir()) / file).string();
  std::vector<std::pair<std::string, Tensor>> tensors;
  for (const auto& item : m.state_dict()) {
    Tensor t = item.value().clone();
    if (t.is_floating_point()) t.add_(0.25);
    tensors.emplace_back(item.key(), t);
  }
  ember::serialize::save_safetensors(path, tensors);
  return path;
}

void expect_loaded(const ember::nn::Module& m, const std::string& path) {
  const auto want = ember::serialize::load_safetensors(path);
  const auto sd = m.state_dict();
  ASSERT_EQ(sd.size(), want.size());
  for (const auto& [name, t] : want) {
    const Tensor* got = sd.find(name);
    ASSERT_NE(got, nullptr) << name;
    EXPECT_TENSOR_EQ(*got, t) << name;
  }
}

TEST(VisionModelsWeightsBuilders, RaftLoadsItsWeightsFile) {
  of::RAFT fresh = of::raft_small();
  const std::string path = save_perturbed(*fresh, "raft_small_weights.safetensors");
  of::RAFT loaded = of::raft_small(of::Raft_Small_Weights::C_T_V2.with_path(path));
  expect_loaded(*loaded, path);
  EXPECT_EMBER_ERROR(of::raft_small(of::Raft_Large_Weights::C_T_V2.with_path(path)), "raft_small", "Raft_Small_Weights",
                     "Raft_Large_Weights.C_T_V2");
  EXPECT_EMBER_ERROR(of::raft_large(of::Raft_Large_Weights::DEFAULT), "raft_large", "raft_large_C_T_SKHT_V2");
  // A checkpoint of the other architecture names its keys.
  EXPECT_EMBER_ERROR(of::raft_large(of::Raft_Large_Weights::C_T_V2.with_path(path)), "feature_encoder");
  std::filesystem::remove(path);
}

TEST(VisionModelsWeightsBuilders, SegmentationLoadsItsWeightsFile) {
  seg::LRASPP fresh = seg::lraspp_mobilenet_v3_large();
  const std::string path = save_perturbed(*fresh, "lraspp_weights.safetensors");
  const auto w = seg::LRASPP_MobileNet_V3_Large_Weights::COCO_WITH_VOC_LABELS_V1.with_path(path);
  expect_loaded(*seg::lraspp_mobilenet_v3_large(w), path);
  EXPECT_EMBER_ERROR(seg::lraspp_mobilenet_v3_large(w, true, 3), "lraspp_mobilenet_v3_large", "num_classes",
                     "expected value 21");
  std::filesystem::remove(path);
}

TEST(VisionModelsWeightsBuilders, WeightsFixTheKwargs) {
  const auto missing = [](const models::Weights& w) { return w.with_path("/nonexistent/weights.pth"); };
  EXPECT_EMBER_ERROR(models::vit_b_16(missing(models::ViT_B_16_Weights::IMAGENET1K_SWAG_E2E_V1), true,
                                      models::VisionTransformerKwargs().image_size(224)),
                     "vit_b_16", "image_size", "expected value 384");
  EXPECT_EMBER_ERROR(models::vit_l_16(missing(models::ViT_L_16_Weights::IMAGENET1K_V1), true,
                                      models::VisionTransformerKwargs().num_classes(10)),
                     "vit_l_16", "num_classes", "1000");
  EXPECT_EMBER_ERROR(models::convnext_tiny(missing(models::ConvNeXt_Tiny_Weights::IMAGENET1K_V1), true,
                                           models::ConvNeXtKwargs().num_classes(5)),
                     "convnext_tiny", "num_classes");
  EXPECT_EMBER_ERROR(models::swin_t(models::Swin_T_Weights::IMAGENET1K_V1), "swin_t", "swin_t-704ceda3.pth");
  EXPECT_EMBER_ERROR(models::swin_v2_t(models::Swin_T_Weights::IMAGENET1K_V1), "swin_v2_t", "Swin_V2_T_Weights");
  EXPECT_EMBER_ERROR(models::vit_b_32(models::ResNet50_Weights::DEFAULT), "vit_b_32", "ViT_B_32_Weights");
}

// The builder of MaskRCNN_ResNet50_FPN_V2_Weights: torchvision's module tree
// (tools/golden/gen_vision_models_weights.py stores its state_dict names and shapes).
TEST(VisionModelsWeightsBuilders, MaskRCNNV2StateDictAsTorchvision) {
  static const ember::testing::Golden g("vision_models_weights.golden");
  const Tensor bytes = g["sd.maskrcnn_resnet50_fpn_v2"];
  std::string want;
  for (int64_t i = 0; i < bytes.numel(); ++i) want.push_back(static_cast<char>(bytes[i].item<int64_t>()));
  const auto model = models::detection::maskrcnn_resnet50_fpn_v2();
  std::string got;
  for (const auto& item : model->state_dict()) {
    got += (got.empty() ? "" : "\n") + item.key() + ":";
    for (int64_t d = 0; d < item.value().dim(); ++d) got += (d ? "," : "") + std::to_string(item.value().size(d));
  }
  EXPECT_EQ(got, want);
  EXPECT_EQ(models::get_model_weights("maskrcnn_resnet50_fpn_v2").default_member, "COCO_V1");
  EXPECT_EMBER_ERROR(models::detection::maskrcnn_resnet50_fpn_v2(
                         models::detection::MaskRCNN_ResNet50_FPN_Weights::COCO_V1.with_path("/nonexistent.pth")),
                     "maskrcnn_resnet50_fpn_v2", "MaskRCNN_ResNet50_FPN_V2_Weights");
}

}  // namespace vision_models_weights_builders_test
