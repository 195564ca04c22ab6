#include "ember/nn/modules/container/modulelist.h"

namespace torch::nn {

std::shared_ptr<Module> ModuleListImpl::clone(const std::optional<Device>& device) const {
  auto copy = std::make_shared<ModuleListImpl>();
  for (const auto& module : modules_) copy->push_back(module->clone(device));
  copy->train(is_training());
  return copy;
}

void ModuleListImpl::push_back(std::shared_ptr<Module> module) {
  EMBER_CHECK(module != nullptr, "ModuleList::push_back: cannot add a null module");
  modules_.push_back(std::move(module));
  register_module(std::to_string(modules_.size() - 1), modules_.back());
}

void ModuleListImpl::insert(size_t index, std::shared_ptr<Module> module) {
  EMBER_CHECK(index <= size(), "ModuleList::insert: index ", index, " is out of range (ModuleList has ", size(),
              " modules)");
  EMBER_CHECK(module != nullptr, "ModuleList::insert: cannot add a null module");
  if (index == size()) return push_back(std::move(module));
  modules_.insert(modules_.begin() + static_cast<std::ptrdiff_t>(index), std::move(module));
  // Children are named by position: re-register them all in the new order.
  for (size_t i = 0; i + 1 < modules_.size(); ++i) unregister_module(std::to_string(i));
  for (size_t i = 0; i < modules_.size(); ++i) register_module(std::to_string(i), modules_[i]);
}

}  // namespace torch::nn
