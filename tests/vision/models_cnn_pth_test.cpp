// Loading torchvision checkpoints and the multi-weight API: a .pth saved by
// torch.save (tools/golden/gen_vision_models_cnn_pth.py) loads through
// Weights::with_path, the weights' preprocessing matches torchvision's on a
// JPEG, and the logits match; a .pth whose keys do not match raises naming
// each; bad images raise naming the model; the registry and the weights
// tables answer as torchvision's.
#include <gtest/gtest.h>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/torch.h"
#include "ember/vision/io/image.h"
#include "ember/vision/models/efficientnet.h"
#include "ember/vision/models/imagenet_categories.h"
#include "ember/vision/models/mobilenetv3.h"
#include "ember/vision/models/registry.h"
#include "ember/vision/models/regnet.h"
#include "ember/vision/models/resnet.h"

namespace vision_models_cnn_test {
namespace {

namespace models = ember::vision::models;
using ember::Tensor;
using ember::testing::Golden;

std::string fixture(const std::string& name) { return std::string(EMBER_GOLDEN_DIR) + "/vision/models/cnn/" + name; }

TEST(VisionModelsCnnPth, TorchvisionCheckpointPreprocessingAndLogits) {
  ember::NoGradGuard no_grad;
  const Golden g("vision_models_cnn_pth.golden");
  const models::Weights& weights = models::MobileNet_V3_Small_Weights::IMAGENET1K_V1;
  models::MobileNetV3 model = models::mobilenet_v3_small(weights.with_path(fixture("mobilenet_v3_small_w025.pth")),
                                                         true, models::MobileNetV3Kwargs().width_mult(0.25));
  model->eval();
  const Tensor image = ember::vision::io::read_image(fixture("picture.jpg"));
  const Tensor batch = weights.transforms()(image).unsqueeze(0);
  EXPECT_TENSOR_CLOSE_TOL(batch.slice(2, 0, std::nullopt, 8).slice(3, 0, std::nullopt, 8),
                          g["picture.preprocessed_every8"], 1e-4, 1e-4);
  const Tensor logits = model(batch);
  EXPECT_TENSOR_CLOSE_TOL(logits, g["picture.logits"], 1e-3, 1e-4);
  EXPECT_TENSOR_EQ(std::get<1>(logits.softmax(1).topk(5)), g["picture.top5"]);
}

TEST(VisionModelsCnnPth, MismatchedCheckpointNamesEveryKey) {
  models::MobileNetV3 model =
      models::mobilenet_v3_small(std::nullopt, true, models::MobileNetV3Kwargs().width_mult(0.25));
  const auto bad = ember::serialize::load_pytorch_state_dict(fixture("mobilenet_v3_small_w025_bad.pth"));
  EXPECT_EMBER_ERROR(model->load_state_dict(bad), "features.1.block.0.0.weight", "features.99.weight",
                     "classifier.3.bias");
  const models::Weights w =
      models::MobileNet_V3_Small_Weights::IMAGENET1K_V1.with_path(fixture("mobilenet_v3_small_w025_bad.pth"));
  EXPECT_EMBER_ERROR(models::mobilenet_v3_small(w, true, models::MobileNetV3Kwargs().width_mult(0.25)),
                     "features.1.block.0.0.weight", "features.99.weight", "classifier.3.bias");
}

TEST(VisionModelsCnnPth, WeightsWithoutAFileRaiseNamingIt) {
  EXPECT_EMBER_ERROR(models::resnet50(models::ResNet50_Weights::IMAGENET1K_V2), "resnet50",
                     "ResNet50_Weights.IMAGENET1K_V2", "resnet50-11ad3fa6.pth", "with_path");
  EXPECT_EMBER_ERROR(models::resnet18(models::ResNet50_Weights::DEFAULT), "resnet18", "ResNet18_Weights");
  EXPECT_EMBER_ERROR(models::resnet50(models::ResNet50_Weights::DEFAULT.with_path("unused.pth"), true,
                                      models::ResNetKwargs().num_classes(10)),
                     "num_classes", "1000", "10");
  EXPECT_EMBER_ERROR(models::resnet18(models::ResNet18_Weights::IMAGENET1K_V1.with_path("/nonexistent/r18.pth")),
                     "/nonexistent/r18.pth");
}

TEST(VisionModelsCnnPth, BadImagesRaiseNamingTheModel) {
  models::ResNet resnet = models::resnet18(std::nullopt, true, models::ResNetKwargs().num_classes(4));
  EXPECT_EMBER_ERROR(resnet(ember::rand({3, 32, 32})), "ResNet", "[3, 32, 32]");
  EXPECT_EMBER_ERROR(resnet(ember::rand({1, 4, 32, 32})), "ResNet", "[1, 4, 32, 32]");
  EXPECT_EMBER_ERROR(resnet(ember::zeros({1, 3, 32, 32}, ember::kByte)), "ResNet", "dtype");
  models::MobileNetV3 v3 = models::mobilenet_v3_small(std::nullopt, true, models::MobileNetV3Kwargs().width_mult(0.25));
  EXPECT_EMBER_ERROR(v3(ember::rand({2, 1, 32, 32})), "MobileNetV3", "[2, 1, 32, 32]");
  models::RegNet regnet = models::regnet_x_400mf();
  EXPECT_EMBER_ERROR(regnet(Tensor()), "RegNet");
  models::EfficientNet eff = models::efficientnet_b0();
  EXPECT_EMBER_ERROR(eff(ember::zeros({1, 3, 32, 32}, ember::kInt)), "EfficientNet", "dtype");
}

TEST(VisionModelsCnnPth, WeightsMetaAsTorchvision) {
  const models::Weights& w = models::ResNet50_Weights::IMAGENET1K_V2;
  EXPECT_EQ(w.url, "https://download.pytorch.org/models/resnet50-11ad3fa6.pth");
  EXPECT_EQ(w.name(), "ResNet50_Weights.IMAGENET1K_V2");
  EXPECT_EQ(w.meta.num_params, 25557032);
  EXPECT_DOUBLE_EQ(w.meta.metrics.at("ImageNet-1K").at("acc@1"), 80.858);
  EXPECT_EQ(w.meta.categories.size(), 1000u);
  EXPECT_EQ(w.meta.categories[0], "tench");
  EXPECT_EQ(w.meta.categories[999], "toilet tissue");
  using ember::vision::transforms::_presets::ImageClassificationOptions;
  EXPECT_EQ(std::get<ImageClassificationOptions>(w.transforms_options).crop_size(), 224);
  EXPECT_EQ(std::get<ImageClassificationOptions>(w.transforms()->options).resize_size(), 232);
  EXPECT_EQ(models::ResNet50_Weights::DEFAULT, w);
  EXPECT_EQ(std::get<ImageClassificationOptions>(models::EfficientNet_B7_Weights::IMAGENET1K_V1.transforms_options)
                .interpolation(),
            ember::vision::transforms::InterpolationMode::BICUBIC);
  EXPECT_EQ(models::imagenet_categories().size(), 1000u);
}

TEST(VisionModelsCnnPth, RegistryAsTorchvision) {
  const std::vector<std::string> names = models::list_models();
  EXPECT_TRUE(std::is_sorted(names.begin(), names.end()));
  EXPECT_GE(names.size(), 39u);
  EXPECT_EQ(models::list_models(std::string("torchvision.models.resnet")).size(), 10u);
  EXPECT_EQ(models::get_weight("ResNet50_Weights.IMAGENET1K_V1").url,
            "https://download.pytorch.org/models/resnet50-0676ba61.pth");
  EXPECT_EQ(models::get_weight("MobileNet_V3_Large_Weights.DEFAULT").member, "IMAGENET1K_V2");
  EXPECT_EQ(models::get_model_weights("regnet_y_16gf").members.size(), 4u);
  EXPECT_EMBER_ERROR(models::get_model("resnet9000"), "resnet9000");
  EXPECT_EMBER_ERROR(models::get_weight("ResNet50_Weights.IMAGENET9"), "IMAGENET9", "IMAGENET1K_V2");
  EXPECT_EMBER_ERROR(models::get_model("resnet18", {{"num_clases", 3}}), "resnet18", "num_clases");
  EXPECT_EMBER_ERROR(models::get_model("resnet18", {{"weights", "DEFAULT"}}), "resnet18", "resnet18-f37072fd.pth");
  ember::nn::AnyModule m = models::get_model("resnet18", {{"num_classes", 3}});
  m.ptr()->eval();
  EXPECT_EQ(m.forward<Tensor>(ember::rand({1, 3, 32, 32})).sizes(), (std::vector<int64_t>{1, 3}));
  ember::nn::AnyModule loaded = models::get_model(
      "mobilenet_v3_small",
      {{"weights", "IMAGENET1K_V1"}, {"weights_path", fixture("mobilenet_v3_small_w025.pth")}, {"width_mult", 0.25}});
  EXPECT_EQ(loaded.ptr()->state_dict().size(),
            ember::serialize::load_pytorch_state_dict(fixture("mobilenet_v3_small_w025.pth")).size());
}

TEST(VisionModelsCnnPth, ZeroInitResidualAndClone) {
  models::ResNet r = models::resnet18(std::nullopt, true, models::ResNetKwargs().zero_init_residual(true));
  auto params = r->named_parameters();
  EXPECT_EQ(params["layer1.0.bn2.weight"].abs().sum().item<double>(), 0.0);
  EXPECT_EQ(params["layer1.0.bn1.weight"].sum().item<double>(), 64.0);
  auto copy = std::dynamic_pointer_cast<models::ResNetImpl>(r->clone());
  ASSERT_NE(copy, nullptr);
  EXPECT_TENSOR_EQ(copy->fc->weight, r->fc->weight);
}

}  // namespace
}  // namespace vision_models_cnn_test
