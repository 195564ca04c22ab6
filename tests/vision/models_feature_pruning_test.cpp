// create_feature_extractor prunes as torchvision's graph does: the extractor
// holds only the submodules up to the last requested node (its state_dict
// keys equal torchvision's, tests/golden/vision_models_weights.golden "fx.*"),
// and the modules after that node never run.
#include <gtest/gtest.h>

#include <sstream>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/torch.h"
#include "ember/vision/models/feature_extraction.h"
#include "ember/vision/models/mobilenetv3.h"
#include "ember/vision/models/resnet.h"

namespace vision_models_feature_pruning_test {

namespace models = ember::vision::models;
namespace fe = ember::vision::models::feature_extraction;
using ember::Tensor;

std::vector<std::string> golden_keys(const std::string& label) {
  static const ember::testing::Golden g("vision_models_weights.golden");
  const Tensor bytes = g["fx." + label];
  std::string s;
  for (int64_t i = 0; i < bytes.numel(); ++i) s.push_back(static_cast<char>(bytes[i].item<int64_t>()));
  std::vector<std::string> keys;
  std::istringstream in(s);
  for (std::string line; std::getline(in, line);) keys.push_back(line);
  return keys;
}

std::vector<std::string> keys(const ember::nn::Module& m) { return m.state_dict().keys(); }

TEST(VisionModelsFeaturePruning, StateDictKeysAsTorchvision) {
  EXPECT_EQ(keys(*fe::create_feature_extractor(models::resnet18(), {"layer2"})), golden_keys("resnet18_layer2"));
  EXPECT_EQ(keys(*fe::create_feature_extractor(models::resnet18(), {"layer1.0.conv1", "layer1.1.relu_1"})),
            golden_keys("resnet18_layer1_conv"));
  EXPECT_EQ(keys(*fe::create_feature_extractor(models::mobilenet_v3_small(), {"features.3"})),
            golden_keys("mobilenet_v3_small_features3"));
  EXPECT_EQ(keys(*fe::create_feature_extractor(models::resnet18(), {"flatten", "fc"})), golden_keys("resnet18_fc"));
}

// A leaf module that counts its forward calls.
struct CountingImpl : ember::nn::Cloneable<CountingImpl> {
  explicit CountingImpl(std::shared_ptr<int> calls_) : calls(std::move(calls_)) { reset(); }
  void reset() override { weight = register_parameter("weight", ember::ones({1})); }
  Tensor forward(const Tensor& x) {
    ++*calls;
    return x * weight;
  }
  std::shared_ptr<int> calls;
  Tensor weight;
};
TORCH_MODULE(Counting);

TEST(VisionModelsFeaturePruning, ModulesAfterTheLastNodeDoNotRun) {
  std::vector<std::shared_ptr<int>> calls;
  ember::nn::Sequential seq;
  for (int i = 0; i < 4; ++i) {
    calls.push_back(std::make_shared<int>(0));
    seq->push_back(Counting(calls.back()));
  }
  fe::FeatureExtractor extractor = fe::create_feature_extractor(seq, {"0", "1"});
  EXPECT_EQ(keys(*extractor), (std::vector<std::string>{"0.weight", "1.weight"}));
  const auto out = extractor(ember::full({2}, 3.0));
  EXPECT_TENSOR_EQ(out["1"], ember::full({2}, 3.0));
  EXPECT_EQ(*calls[0], 1);
  EXPECT_EQ(*calls[1], 1);
  EXPECT_EQ(*calls[2], 0);
  EXPECT_EQ(*calls[3], 0);
  // The extractor shares the model's modules: a change to a kept one shows in both.
  {
    ember::NoGradGuard no_grad;
    extractor->named_parameters()["1.weight"].fill_(2.0);
  }
  EXPECT_TENSOR_EQ(extractor(ember::full({2}, 3.0))["1"], ember::full({2}, 6.0));
}

}  // namespace vision_models_feature_pruning_test
