#include "ember/vision/models/intermediate_layer_getter.h"

#include "ember/core/error.h"

namespace torch::vision::models::_utils {

namespace {

NamedLayers sequential_layers(const nn::Sequential& model) {
  EMBER_CHECK(!model.is_empty(), "IntermediateLayerGetter: the model is null");
  NamedLayers layers;
  const auto names = model->named_children().keys();
  size_t i = 0;
  for (const nn::AnyModule& layer : *model) layers.insert(names.at(i++), layer);
  return layers;
}

}  // namespace

IntermediateLayerGetterImpl::IntermediateLayerGetterImpl(const NamedLayers& model, ReturnLayers return_layers_)
    : return_layers(std::move(return_layers_)) {
  for (const auto& [name, out] : return_layers)
    EMBER_CHECK(model.contains(name), "IntermediateLayerGetter: return_layers are not present in model: '", name, "'");
  // Only the layers up to the last requested one are kept, as torchvision.
  size_t remaining = return_layers.size();
  for (const auto& item : model) {
    if (remaining == 0) break;
    layers_.emplace_back(item.key(), item.value());
    register_module(item.key(), item.value().ptr());
    if (return_layers.count(item.key()) != 0) --remaining;
  }
}

IntermediateLayerGetterImpl::IntermediateLayerGetterImpl(const nn::Sequential& model, ReturnLayers return_layers)
    : IntermediateLayerGetterImpl(sequential_layers(model), std::move(return_layers)) {}

OrderedDict<std::string, Tensor> IntermediateLayerGetterImpl::forward(const Tensor& x) {
  OrderedDict<std::string, Tensor> out;
  Tensor y = x;
  for (auto& [name, layer] : layers_) {
    y = layer.forward<Tensor>(y);
    auto it = return_layers.find(name);
    if (it != return_layers.end()) out.insert(it->second, y);
  }
  return out;
}

}  // namespace torch::vision::models::_utils
