// VGG against torchvision 0.14 (tools/golden/gen_vision_models_vgg.py): the
// builders' state_dict names and shapes, logits under the deterministic fill,
// the weights enums and the registry. Every VGG carries a 100M-entry
// classifier, so only vgg11_bn is built by default; the other seven with
// EMBER_TEST_ALL_VISION_MODELS=1.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdlib>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/torch.h"
#include "ember/vision/models/registry.h"
#include "ember/vision/models/vgg.h"
#include "vision/models_vgg_fill.h"

namespace vision_models_vgg_test {

namespace models = ember::vision::models;
using ember::Tensor;
using ember::testing::Golden;
using vision_models_vgg_fill::expect_state_dict;
using vision_models_vgg_fill::periodic_fill;

const Golden& golden() {
  static const Golden g("vision_models_vgg.golden");
  return g;
}

bool all_models() {
  const char* v = std::getenv("EMBER_TEST_ALL_VISION_MODELS");
  return v != nullptr && std::string(v) == "1";
}

void check_logits(const std::string& name, models::VGG m) {
  SCOPED_TRACE(name);
  expect_state_dict(golden(), name + "_c10", *m);
  periodic_fill(*m);
  m->eval();
  ember::NoGradGuard guard;
  const Tensor want = golden()[name + ".logits"];
  EXPECT_TENSOR_CLOSE_TOL(m(golden()["x"]), want, 1e-4, 1e-4 * want.abs().max().item<double>());
  // Images of the wrong rank, channel count or dtype raise naming the model.
  EXPECT_EMBER_ERROR(m(ember::zeros({3, 32, 32})), "VGG");
  EXPECT_EMBER_ERROR(m(ember::zeros({1, 4, 32, 32})), "VGG");
  EXPECT_EMBER_ERROR(m(ember::zeros({1, 3, 32, 32}, ember::kLong)), "VGG");
}

TEST(VisionModelsVgg, LogitsMatchTorchvision) {
  check_logits("vgg11_bn", models::vgg11_bn(std::nullopt, true, models::VGGKwargs().num_classes(10)));
  if (all_models()) check_logits("vgg11", models::vgg11(std::nullopt, true, models::VGGKwargs().num_classes(10)));
}

TEST(VisionModelsVgg, FeaturesOfEveryConfigMatchTorchvision) {
  // make_layers alone is cheap: the features.* names and shapes of every builder.
  const std::vector<std::pair<std::string, std::string>> configs = {
      {"vgg11", "A"}, {"vgg13", "B"}, {"vgg16", "D"}, {"vgg19", "E"}};
  for (const auto& [name, cfg] : configs) {
    for (const bool bn : {false, true}) {
      const std::string full = name + (bn ? "_bn" : "");
      SCOPED_TRACE(full);
      ember::nn::Sequential f = models::vgg::make_layers(models::vgg::cfgs().at(cfg), bn);
      const auto sd = f->state_dict();
      const auto names = golden().names_with_prefix(full + ".sd.features.");
      ASSERT_EQ(sd.size(), names.size());
      for (const std::string& key : names) {
        const std::string n = key.substr(full.size() + 13);
        const Tensor* t = sd.find(n);
        ASSERT_NE(t, nullptr) << n;
        const Tensor want = golden()[key];
        EXPECT_EQ(t->sizes().vec(),
                  std::vector<int64_t>(want.data_ptr<int64_t>() + 1, want.data_ptr<int64_t>() + want.numel()))
            << n;
      }
    }
  }
}

TEST(VisionModelsVgg, EveryBuilderStateDictMatchesTorchvision) {
  if (!all_models()) GTEST_SKIP() << "set EMBER_TEST_ALL_VISION_MODELS=1 (the larger models)";
  expect_state_dict(golden(), "vgg13", *models::vgg13());
  expect_state_dict(golden(), "vgg13_bn", *models::vgg13_bn());
  expect_state_dict(golden(), "vgg16", *models::vgg16());
  expect_state_dict(golden(), "vgg16_bn", *models::vgg16_bn());
  expect_state_dict(golden(), "vgg19", *models::vgg19());
  expect_state_dict(golden(), "vgg19_bn", *models::vgg19_bn());
}

TEST(VisionModelsVgg, WeightsEnumsAsTorchvision) {
  EXPECT_EQ(models::VGG16_Weights::DEFAULT, models::VGG16_Weights::IMAGENET1K_V1);
  EXPECT_EQ(models::VGG16_Weights::IMAGENET1K_V1.url, "https://download.pytorch.org/models/vgg16-397923af.pth");
  EXPECT_EQ(models::VGG19_BN_Weights::IMAGENET1K_V1.meta.num_params, 143678248);
  EXPECT_EQ(models::VGG11_Weights::IMAGENET1K_V1.meta.categories.size(), 1000u);
  const models::Weights& features = models::VGG16_Weights::IMAGENET1K_FEATURES;
  EXPECT_TRUE(features.meta.categories.empty());
  EXPECT_TRUE(std::isnan(features.meta.metrics.at("ImageNet-1K").at("acc@1")));
  EXPECT_NEAR(
      std::get<ember::vision::transforms::_presets::ImageClassificationOptions>(features.transforms_options).std()[0],
      1.0 / 255.0, 1e-15);
  EXPECT_EQ(features.file_name(), "vgg16_features-amdegroot-88682ab5.pth");
  EXPECT_EQ(models::get_weight("VGG13_BN_Weights.DEFAULT").member, "IMAGENET1K_V1");
  EXPECT_EQ(models::get_model_weights("vgg16").members.size(), 2u);
}

TEST(VisionModelsVgg, RegistryAndBadInput) {
  EXPECT_EQ(models::list_models(std::string("torchvision.models.vgg")).size(), 8u);
  EXPECT_EMBER_ERROR(models::get_model("vgg11", {{"weights", "DEFAULT"}}), "vgg11", "vgg11-8a719046.pth");
  EXPECT_EMBER_ERROR(models::get_model("vgg11_bn", {{"depth", 3}}), "vgg11_bn", "depth");
  EXPECT_EMBER_ERROR(models::vgg11(models::VGG13_Weights::IMAGENET1K_V1.with_path("/nonexistent.pth")), "vgg11",
                     "VGG11_Weights");
  EXPECT_EMBER_ERROR(models::vgg::make_layers({64, "X"}), "make_layers", "X");
  EXPECT_EMBER_ERROR(models::VGG(models::vgg::make_layers({64, "M"}), 0), "VGG", "num_classes");
}

}  // namespace vision_models_vgg_test
