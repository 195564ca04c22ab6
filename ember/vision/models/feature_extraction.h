#pragma once
// torchvision.models.feature_extraction for the classification CNNs:
// create_feature_extractor(model, return_nodes) returns a module whose
// forward gives the named intermediate results, and get_graph_node_names the
// names it accepts. Node names are torchvision's FX names: a leaf module's
// qualified name ("layer1.0.conv1", "features.3"; torch.nn and
// torchvision.ops modules are leaves), or a function in a module's forward
// ("layer1.0.add", "flatten"), a repeat suffixed _1, _2 ("layer1.0.relu_1").
//
// Ember has no FX: the graph is each architecture's forward written out once
// as a trace (feature_extraction.cpp), for ResNet, MobileNetV2/V3,
// EfficientNet and RegNet, and Sequential containers of any modules.
// As in Python, the extractor holds only the submodules up to the last
// requested node, and nothing after it runs (Note [Feature extractor
// pruning]); unlike Python, a module before it that no output depends on is
// kept. train_return_nodes/eval_return_nodes are not separate (the graphs of
// these models are the same in both modes).
#include <map>
#include <memory>
#include <string>
#include <tuple>
#include <utility>
#include <vector>

#include "ember/core/ordered_dict.h"
#include "ember/core/tensor.h"
#include "ember/nn/module.h"
#include "ember/nn/pimpl.h"

namespace torch::vision::models::feature_extraction {

// A list of node names (outputs keyed by the node name), or node -> output name.
struct ReturnNodes {
  ReturnNodes(std::vector<std::string> nodes);                                                      // NOLINT
  ReturnNodes(std::initializer_list<std::string> nodes);                                            // NOLINT
  ReturnNodes(const std::map<std::string, std::string>& nodes);                                     // NOLINT
  ReturnNodes(std::vector<std::pair<std::string, std::string>> nodes) : nodes(std::move(nodes)) {}  // NOLINT
  std::vector<std::pair<std::string, std::string>> nodes;
};

class FeatureExtractorImpl : public nn::Module {
 public:
  FeatureExtractorImpl(std::shared_ptr<nn::Module> model, ReturnNodes return_nodes);
  // The requested nodes' values, keyed by output name, in return_nodes' order.
  OrderedDict<std::string, Tensor> forward(const Tensor& x);
  void train(bool on = true) override;
  std::shared_ptr<nn::Module> model;
  ReturnNodes return_nodes;
};
TORCH_MODULE(FeatureExtractor);

// (train nodes, eval nodes), each in execution order, starting with "x".
std::tuple<std::vector<std::string>, std::vector<std::string>> get_graph_node_names(
    const std::shared_ptr<nn::Module>& model);
template <typename ModuleType>
std::tuple<std::vector<std::string>, std::vector<std::string>> get_graph_node_names(
    const nn::ModuleHolder<ModuleType>& model) {
  return get_graph_node_names(std::static_pointer_cast<nn::Module>(model.ptr()));
}

// Raises naming the first unknown node, with the known ones.
FeatureExtractor create_feature_extractor(const std::shared_ptr<nn::Module>& model, ReturnNodes return_nodes);
template <typename ModuleType>
FeatureExtractor create_feature_extractor(const nn::ModuleHolder<ModuleType>& model, ReturnNodes return_nodes) {
  return create_feature_extractor(std::static_pointer_cast<nn::Module>(model.ptr()), std::move(return_nodes));
}

}  // namespace torch::vision::models::feature_extraction
