// The classification CNNs against torchvision 0.14.1
// (tools/golden/gen_vision_models_cnn.py): every architecture's state_dict
// names and shapes equal torchvision's, in its order, and with the
// generator's deterministic weights its eval-mode logits match. One
// architecture per block type and builder option runs by default; all of them
// (hundreds of millions of parameters) with EMBER_TEST_ALL_VISION_MODELS=1.
#include <gtest/gtest.h>

#include <cstdlib>
#include <set>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/torch.h"
#include "ember/vision/models/efficientnet.h"
#include "ember/vision/models/registry.h"
#include "ember/vision/models/resnet.h"
#include "models_cnn_util.h"

namespace vision_models_cnn_test {
namespace {

namespace models = ember::vision::models;
using ember::Tensor;
using ember::testing::Golden;

const Golden& golden() {
  static const Golden g("vision_models_cnn.golden");
  return g;
}

struct Arch {
  std::string golden_name;
  std::string builder;
  models::ModelKwargs kwargs;
  bool large = false;
};

std::vector<Arch> archs() {
  std::vector<Arch> a;
  // One architecture per block type and builder option runs by default; the rest
  // (hundreds of millions of parameters together) with EMBER_TEST_ALL_VISION_MODELS=1.
  const std::set<std::string> quick = {"resnet18",
                                       "resnet50_dilated_c10",
                                       "mobilenet_v2_w050",
                                       "mobilenet_v3_small",
                                       "mobilenet_v3_large_tail_dilated",
                                       "mobilenet_v3_small_w075",
                                       "efficientnet_b0",
                                       "regnet_y_400mf",
                                       "regnet_x_400mf"};
  for (const std::string& n : models::list_models()) {
    if (!golden().has(n + ".logits")) continue;
    a.push_back({n, n, {}, quick.count(n) == 0});
  }
  a.push_back({"resnet50_dilated_c10",
               "resnet50",
               {{"replace_stride_with_dilation", std::vector<bool>{false, true, true}}, {"num_classes", 10}}});
  a.push_back({"mobilenet_v2_w050", "mobilenet_v2", {{"width_mult", 0.5}}});
  a.push_back({"mobilenet_v3_large_tail_dilated", "mobilenet_v3_large", {{"reduced_tail", true}, {"dilated", true}}});
  a.push_back({"mobilenet_v3_small_w075", "mobilenet_v3_small", {{"width_mult", 0.75}}});
  for (Arch& arch : a) arch.large = quick.count(arch.golden_name) == 0;
  return a;
}

bool all_models() {
  const char* v = std::getenv("EMBER_TEST_ALL_VISION_MODELS");
  return v != nullptr && std::string(v) == "1";
}

void check_arch(const Arch& arch) {
  SCOPED_TRACE(arch.golden_name);
  ember::NoGradGuard no_grad;
  ember::nn::AnyModule model = models::get_model(arch.builder, arch.kwargs);
  const std::vector<KeyShape> theirs = read_keys(arch.golden_name);
  const std::vector<KeyShape> ours = model_keys(*model.ptr());
  ASSERT_EQ(ours.size(), theirs.size());
  for (size_t i = 0; i < ours.size(); ++i) {
    ASSERT_EQ(ours[i].name, theirs[i].name) << "at state_dict index " << i;
    ASSERT_EQ(ours[i].shape, theirs[i].shape) << ours[i].name;
  }
  const double gain = golden()[arch.golden_name + ".gain"].item<double>();
  model.ptr()->load_state_dict(deterministic_state_dict(theirs, gain));
  model.ptr()->eval();
  const Tensor logits = model.forward<Tensor>(deterministic_image(1, 64));
  const Tensor expected = golden()[arch.golden_name + ".logits"];
  const double scale = expected.abs().max().item<double>();
  EXPECT_TENSOR_CLOSE_TOL(logits, expected, 1e-3, 1e-4 * scale + 1e-5);
}

TEST(VisionModelsCnn, EveryArchitectureIsRegisteredAndHasGolden) {
  const std::vector<std::string> names = models::list_models();
  for (const char* n :
       {"resnet18", "resnet152", "resnext101_64x4d", "wide_resnet101_2", "mobilenet_v2", "mobilenet_v3_large",
        "mobilenet_v3_small", "efficientnet_b7", "efficientnet_v2_l", "regnet_y_128gf", "regnet_x_32gf"}) {
    EXPECT_NE(std::find(names.begin(), names.end(), n), names.end()) << n;
    EXPECT_TRUE(golden().has(std::string(n) + ".logits")) << n;
  }
  EXPECT_GE(archs().size(), 43u);
}

TEST(VisionModelsCnn, KeysShapesAndLogitsMatchTorchvision) {
  for (const Arch& arch : archs()) {
    if (arch.large && !all_models()) continue;
    check_arch(arch);
  }
}

// Gradients through batch statistics amplify float rounding: compare against each one's scale.
void expect_close_scaled(const Tensor& actual, const Tensor& expected, double rtol) {
  EXPECT_TENSOR_CLOSE_TOL(actual, expected, rtol, rtol * expected.abs().max().item<double>());
}

// The generator stores matrices by their first four rows.
void expect_grads(const ember::nn::Module& model, const Golden& g, const std::string& prefix,
                  const std::vector<std::string>& names) {
  auto params = model.named_parameters();
  for (const std::string& name : names) {
    SCOPED_TRACE(name);
    const Tensor grad = params[name].grad();
    ASSERT_TRUE(grad.defined());
    expect_close_scaled(grad.dim() > 1 ? grad.slice(0, 0, 4) : grad, g[prefix + name], 3e-3);
  }
}

Tensor train_step(ember::nn::Module& model, const std::function<Tensor(const Tensor&)>& forward) {
  model.load_state_dict(deterministic_state_dict(model_keys(model), 1.0));
  model.train();
  const Tensor y = forward(deterministic_image(2, 64));
  (y * ember::linspace(-1, 1, y.numel()).reshape(y.sizes())).sum().backward();
  return y;
}

// Train mode: BatchNorm uses batch statistics and updates its running ones, and
// the head's gradients match. (Below layer3 some ReLU inputs sit within 1e-5 of
// the kink, where rounding decides the gradient, so deep gradients are checked
// on EfficientNet, which has none.)
TEST(VisionModelsCnn, ResNet18TrainStepMatchesTorchvision) {
  models::ResNet model = models::resnet18(std::nullopt, true, models::ResNetKwargs().num_classes(10));
  const Tensor y = train_step(*model, [&](const Tensor& x) { return model(x); });
  const Golden g("vision_models_cnn_train.golden");
  expect_close_scaled(y, g["train_resnet18.logits"], 1e-3);
  expect_grads(*model, g, "train_resnet18.grad.",
               {"fc.weight", "layer4.0.bn1.weight", "layer4.0.bn1.bias", "layer4.0.conv1.weight", "layer3.1.bn2.bias",
                "layer3.1.conv2.weight", "layer3.0.downsample.0.weight"});
  expect_close_scaled(model->named_buffers()["layer1.0.bn1.running_mean"],
                      g["train_resnet18.running_mean.layer1.0.bn1"], 1e-3);
}

// Gradients all the way to the stem, through every MBConv, squeeze-excitation and
// batch statistics (EfficientNet-B0's stages, dropout and stochastic depth off).
TEST(VisionModelsCnn, EfficientNetTrainStepMatchesTorchvision) {
  auto [setting, last_channel] = models::_efficientnet_conf("efficientnet_b0");
  models::EfficientNet model(
      models::EfficientNetOptions(setting, 0.0).stochastic_depth_prob(0.0).num_classes(10).last_channel(last_channel));
  const Tensor y = train_step(*model, [&](const Tensor& x) { return model(x); });
  const Golden g("vision_models_cnn_train.golden");
  expect_close_scaled(y, g["train_efficientnet_b0.logits"], 1e-3);
  expect_grads(*model, g, "train_efficientnet_b0.grad.",
               {"features.0.0.weight", "features.0.1.weight", "features.1.0.block.0.0.weight",
                "features.3.1.block.1.0.weight", "features.5.0.block.2.fc1.weight", "classifier.1.weight"});
  expect_close_scaled(model->named_buffers()["features.0.1.running_var"],
                      g["train_efficientnet_b0.running_var.features.0.1"], 1e-3);
}

}  // namespace
}  // namespace vision_models_cnn_test
