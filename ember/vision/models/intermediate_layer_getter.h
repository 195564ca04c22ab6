#pragma once
// torchvision.models._utils.IntermediateLayerGetter: runs a model's
// top-level layers in order and returns the outputs of the requested ones
// under new names. Like Python's (a ModuleDict of the model's children up to
// the last requested layer), the layers are this module's children under
// their own names, so state_dict() keys equal the model's ("layer1.0.conv1.weight").
// A C++ module has no generic forward, so the layers come as AnyModules:
// an OrderedDict (name -> layer) or an nn::Sequential.
#include <map>
#include <ostream>
#include <string>
#include <utility>
#include <vector>

#include "ember/core/ordered_dict.h"
#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/modules/container/any.h"
#include "ember/nn/modules/container/sequential.h"
#include "ember/nn/pimpl.h"

namespace torch::vision::models::_utils {

// return_layers: layer name -> output name. Iteration of the output follows
// the layers' order, as Python's.
using ReturnLayers = std::map<std::string, std::string>;
using NamedLayers = OrderedDict<std::string, nn::AnyModule>;

class IntermediateLayerGetterImpl : public nn::Module {
 public:
  IntermediateLayerGetterImpl(const NamedLayers& model, ReturnLayers return_layers);
  IntermediateLayerGetterImpl(const nn::Sequential& model, ReturnLayers return_layers);
  void pretty_print(std::ostream& stream) const override { stream << "IntermediateLayerGetter"; }
  OrderedDict<std::string, Tensor> forward(const Tensor& x);

  ReturnLayers return_layers;

 private:
  std::vector<std::pair<std::string, nn::AnyModule>> layers_;
};
TORCH_MODULE(IntermediateLayerGetter);

}  // namespace torch::vision::models::_utils
