#include "ember/nn/modules/container/moduledict.h"

namespace torch::nn {

std::shared_ptr<Module> ModuleDictImpl::clone(const std::optional<Device>& device) const {
  auto copy = std::make_shared<ModuleDictImpl>();
  for (const auto& item : modules_) copy->insert(item.key(), item.value()->clone(device));
  copy->train(is_training());
  return copy;
}

void ModuleDictImpl::clear() {
  for (const auto& key : modules_.keys()) unregister_module(key);
  modules_.clear();
}

std::shared_ptr<Module> ModuleDictImpl::pop(const std::string& key) {
  EMBER_CHECK(contains(key), "ModuleDict::pop: Module '", key, "' is not defined");
  unregister_module(key);
  return modules_.pop(key);
}

std::shared_ptr<Module> ModuleDictImpl::operator[](const std::string& key) const {
  const auto* module = modules_.find(key);
  EMBER_CHECK(module != nullptr, "ModuleDict: Module '", key, "' is not defined");
  return *module;
}

void ModuleDictImpl::insert_or_replace(const std::string& key, std::shared_ptr<Module> module) {
  EMBER_CHECK(module != nullptr, "ModuleDict: cannot add a null module under '", key, "'");
  if (auto* slot = modules_.find(key)) {
    *slot = module;
    replace_module(key, std::move(module));
  } else {
    modules_.insert(key, module);
    register_module(key, std::move(module));
  }
}

}  // namespace torch::nn
