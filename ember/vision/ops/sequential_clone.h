#pragma once
// Note [Sequential subclasses]
// torchvision builds many blocks as subclasses of nn.Sequential (Conv2dNormActivation, MLP,
// FCNHead, ...). In C++ they derive from nn::SequentialImpl, whose Cloneable clone() makes a
// SequentialImpl: the copy would be sliced, and a clone of a model holding one fails its type
// check. Each such class overrides clone() with clone_sequential_subclass: a copy of the derived
// object (its own members: options, channel counts) whose Sequential part is replaced by
// Sequential's deep clone (fresh parameters, buffers and children).
#include <memory>
#include <optional>

#include "ember/nn/modules/container/sequential.h"

namespace torch::vision::ops::detail {

template <typename Derived>
std::shared_ptr<nn::Module> clone_sequential_subclass(const Derived& self, const std::optional<Device>& device) {
  auto deep = std::dynamic_pointer_cast<nn::SequentialImpl>(self.nn::SequentialImpl::clone(device));
  auto copy = std::make_shared<Derived>(self);
  static_cast<nn::SequentialImpl&>(*copy) = std::move(*deep);
  return copy;
}

}  // namespace torch::vision::ops::detail

// Declares the override inside a class derived from nn::SequentialImpl.
#define EMBER_VISION_SEQUENTIAL_CLONE(Derived)                                                            \
  std::shared_ptr<::torch::nn::Module> clone(const std::optional<::torch::Device>& device = std::nullopt) \
      const override {                                                                                    \
    return ::torch::vision::ops::detail::clone_sequential_subclass<Derived>(*this, device);               \
  }
