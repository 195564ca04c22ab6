// create_feature_extractor / get_graph_node_names against torchvision's FX
// names and values (tools/golden/gen_vision_models_cnn.py).
#include <gtest/gtest.h>

#include <fstream>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/torch.h"
#include "ember/vision/models/feature_extraction.h"
#include "ember/vision/models/mobilenetv3.h"
#include "ember/vision/models/resnet.h"
#include "models_cnn_util.h"

namespace vision_models_cnn_test {
namespace {

namespace models = ember::vision::models;
namespace fe = ember::vision::models::feature_extraction;
using ember::Tensor;
using ember::testing::Golden;

std::vector<std::string> read_nodes(const std::string& arch) {
  std::ifstream in(std::string(EMBER_GOLDEN_DIR) + "/vision/models/cnn/" + arch + ".nodes");
  std::vector<std::string> nodes;
  std::string line;
  while (std::getline(in, line)) {
    if (!line.empty()) nodes.push_back(line);
  }
  return nodes;
}

template <typename Holder>
void fill(Holder& model) {
  model->load_state_dict(deterministic_state_dict(model_keys(*model), 1.0));
  model->eval();
}

TEST(VisionModelsCnnFeatures, NodeNamesMatchTorchvision) {
  auto [train18, eval18] = fe::get_graph_node_names(models::resnet18());
  EXPECT_EQ(eval18, read_nodes("resnet18"));
  EXPECT_EQ(train18, eval18);
  auto [trainv3, evalv3] = fe::get_graph_node_names(models::mobilenet_v3_small());
  EXPECT_EQ(evalv3, read_nodes("mobilenet_v3_small"));
}

TEST(VisionModelsCnnFeatures, ResNet18NodesMatchTorchvision) {
  ember::NoGradGuard no_grad;
  const Golden g("vision_models_cnn.golden");
  models::ResNet model = models::resnet18();
  fill(model);
  const std::map<std::string, std::string> nodes = {
      {"layer1", "l1"},    {"layer2.0.relu_1", "l2r"}, {"layer3.1.add", "l3add"}, {"avgpool", "pool"},
      {"flatten", "flat"}, {"maxpool", "mp"},          {"layer4.1.bn2", "l4bn"}};
  // "layer1" is a module, not a node: torchvision takes the module's last node (layer1.1.relu_1).
  fe::FeatureExtractor extractor = fe::create_feature_extractor(model, nodes);
  const auto out = extractor(deterministic_image(1, 64));
  ASSERT_EQ(out.size(), nodes.size());
  for (const auto& [node, name] : nodes) {
    SCOPED_TRACE(node);
    EXPECT_TENSOR_CLOSE_TOL(out[name], g["features_resnet18." + name], 1e-3, 1e-4);
  }
}

TEST(VisionModelsCnnFeatures, MobileNetV3NodesMatchTorchvision) {
  ember::NoGradGuard no_grad;
  const Golden g("vision_models_cnn.golden");
  models::MobileNetV3 model = models::mobilenet_v3_small();
  fill(model);
  fe::FeatureExtractor extractor =
      fe::create_feature_extractor(model, {"features.3", "features.12", "avgpool", "classifier.0"});
  const auto out = extractor(deterministic_image(1, 64));
  for (const char* node : {"features.3", "features.12", "avgpool", "classifier.0"}) {
    SCOPED_TRACE(node);
    EXPECT_TENSOR_CLOSE_TOL(out[node], g[std::string("features_mobilenet_v3_small.") + node], 1e-3, 1e-4);
  }
}

TEST(VisionModelsCnnFeatures, UnknownNodeRaisesNamingIt) {
  EXPECT_EMBER_ERROR(fe::create_feature_extractor(models::resnet18(), {"layer9"}), "create_feature_extractor", "layer9",
                     "layer1.0.conv1");
}

}  // namespace
}  // namespace vision_models_cnn_test
