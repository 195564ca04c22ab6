#pragma once
// Cloneable<Derived>: the CRTP base that gives a module a deep clone(), as in
// LibTorch. A module that derives from it implements reset(), which creates
// all parameters, buffers and submodules (the constructor calls it too).
#include <memory>
#include <optional>

#include "ember/autograd/grad_mode.h"
#include "ember/nn/module.h"
#include "ember/nn/pimpl.h"

namespace torch::nn {

template <typename Derived>
class Cloneable : public Module {
 public:
  using Module::Module;

  // (Re)creates the module's parameters, buffers and submodules.
  virtual void reset() = 0;

  // Note [Cloning a module]: copy the Derived object (so plain members such
  // as options are copied), clear its registrations, and reset() it, so that
  // its member holders point at fresh parameters and submodules; then copy
  // each parameter's and buffer's data into the fresh ones and make each
  // fresh child a clone of the original child *in place* (clone_), so the
  // copy's member holders stay valid.
  std::shared_ptr<Module> clone(const std::optional<Device>& device = std::nullopt) const override;

 private:
  void clone_(Module& other, const std::optional<Device>& device) final;
};

// Defined outside the class so that they are not inline: a built-in module
// instantiates them once, in the library (Note [One instantiation per built-in module]).
template <typename Derived>
std::shared_ptr<Module> Cloneable<Derived>::clone(const std::optional<Device>& device) const {
  NoGradGuard no_grad;
  const auto& self = static_cast<const Derived&>(*this);
  auto copy = std::make_shared<Derived>(self);
  copy->parameters_.clear();
  copy->buffers_.clear();
  copy->children_.clear();
  copy->reset();
  EMBER_CHECK(copy->parameters_.size() == parameters_.size(),
              "clone: the cloned module does not have the same number of parameters as the original module. Did "
              "you forget to register a parameter in reset()?");
  EMBER_CHECK(copy->buffers_.size() == buffers_.size(),
              "clone: the cloned module does not have the same number of buffers as the original module. Did you "
              "forget to register a buffer in reset()?");
  EMBER_CHECK(copy->children_.size() == children_.size(),
              "clone: the cloned module does not have the same number of child modules as the original module. "
              "Did you forget to register a submodule in reset()?");
  for (const auto& parameter : parameters_) {
    if (!parameter.value().defined()) continue;
    Tensor data = device ? parameter.value().to(*device, false, true) : parameter.value().clone();
    detail::set_data(copy->parameters_[parameter.key()], data);
  }
  for (const auto& buffer : buffers_) {
    if (!buffer.value().defined()) continue;
    Tensor data = device ? buffer.value().to(*device, false, true) : buffer.value().clone();
    detail::set_data(copy->buffers_[buffer.key()], data);
  }
  for (const auto& child : children_) copy->children_[child.key()]->clone_(*child.value(), device);
  return copy;
}

template <typename Derived>
void Cloneable<Derived>::clone_(Module& other, const std::optional<Device>& device) {
  auto cloned = other.clone(device);
  auto* derived = dynamic_cast<Derived*>(cloned.get());
  EMBER_CHECK(derived != nullptr,
              "clone: attempted to clone submodule, but it is of a different type than the "
              "submodule it was to be cloned into");
  static_cast<Derived&>(*this) = std::move(*derived);
}

}  // namespace torch::nn

// Note [One instantiation per built-in module]
// A class template's virtual functions are instantiated wherever the class is,
// so without this every translation unit that includes nn.h instantiated and
// compiled clone() (and through it the copy constructor of every module) for
// all ~120 built-in modules: 1.5 of the 5.5 s a hello-world spent in the
// compiler. Built-in modules declare their holder with EMBER_NN_MODULE(Name)
// instead of TORCH_MODULE(Name), which adds an explicit instantiation
// declaration of Cloneable<NameImpl>; nn/modules/cloneable_instances.cpp
// defines the macro below as the explicit instantiation definition and
// includes every module header, so the library holds the one copy. A user's
// own module (TORCH_MODULE) instantiates its Cloneable as before.
#ifndef EMBER_NN_CLONEABLE_INSTANCE
#define EMBER_NN_CLONEABLE_INSTANCE(Impl) extern template class ::ember::nn::Cloneable<Impl>
#endif
#define EMBER_NN_MODULE(Name) \
  TORCH_MODULE(Name);         \
  EMBER_NN_CLONEABLE_INSTANCE(Name##Impl)
