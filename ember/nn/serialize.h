#pragma once
// torch::save(module, file) / torch::load(module, file): the archive operators
// torch::save/load use (ember/serialize.h), for modules and their holders.
#include <memory>

#include "ember/nn/module.h"
#include "ember/nn/pimpl.h"
#include "ember/serialize/archive.h"

namespace torch::nn {

inline serialize::OutputArchive& operator<<(serialize::OutputArchive& archive, const std::shared_ptr<Module>& module) {
  EMBER_CHECK(module != nullptr, "torch::save: the module is empty (a nullptr holder)");
  module->save(archive);
  return archive;
}
inline serialize::InputArchive& operator>>(serialize::InputArchive& archive, const std::shared_ptr<Module>& module) {
  EMBER_CHECK(module != nullptr, "torch::load: the module is empty (a nullptr holder)");
  module->load(archive);
  return archive;
}
template <typename ModuleType>
serialize::OutputArchive& operator<<(serialize::OutputArchive& archive, const ModuleHolder<ModuleType>& module) {
  return archive << std::static_pointer_cast<Module>(module.ptr());
}
template <typename ModuleType>
serialize::InputArchive& operator>>(serialize::InputArchive& archive, ModuleHolder<ModuleType>& module) {
  return archive >> std::static_pointer_cast<Module>(module.ptr());
}

}  // namespace torch::nn
