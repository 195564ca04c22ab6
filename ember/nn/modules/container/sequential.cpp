#include "ember/nn/modules/container/sequential.h"

namespace torch::nn {

std::shared_ptr<Module> SequentialImpl::clone(const std::optional<Device>& device) const {
  auto copy = std::make_shared<SequentialImpl>();
  const auto names = named_children().keys();
  for (size_t i = 0; i < modules_.size(); ++i) copy->push_back(names[i], modules_[i].clone(device));
  copy->train(is_training());
  return copy;
}

AnyValue SequentialImpl::_any_forward(std::vector<AnyValue>&& inputs) {
  EMBER_CHECK(!is_empty(), "Sequential::forward: Cannot call forward() on an empty Sequential");
  auto it = modules_.begin();
  AnyValue value = it->any_forward_list(std::move(inputs));
  for (++it; it != modules_.end(); ++it) value = it->any_forward(std::move(value));
  return value;
}

void SequentialImpl::push_back(std::string name, AnyModule any_module) {
  EMBER_CHECK(!any_module.is_empty(), "Sequential::push_back: cannot add an empty module");
  modules_.push_back(std::move(any_module));
  register_module(std::move(name), modules_.back().ptr());
}

}  // namespace torch::nn
