#pragma once
// What the transform modules share: TransformFunction, the type Compose and
// the random containers hold (any callable Tensor -> Tensor, a transform
// module holder included), and the holder macro, which adds to LibTorch's
// TORCH_MODULE a constructor from the options so `Resize({256})` and
// `Resize(ResizeOptions(256))` both read as in Python.
#include <functional>
#include <memory>

#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/pimpl.h"

namespace torch::vision::transforms {

using TransformFunction = std::function<Tensor(Tensor)>;

}  // namespace torch::vision::transforms

#define EMBER_VISION_TRANSFORM_MODULE(Name)                                               \
  class Name : public ::torch::nn::ModuleHolder<Name##Impl> {                             \
   public:                                                                                \
    using ::torch::nn::ModuleHolder<Name##Impl>::ModuleHolder;                            \
    using ::torch::nn::ModuleHolder<Name##Impl>::get;                                     \
    using Impl = Name##Impl;                                                              \
    Name(const Name##Options& options) /* NOLINT: Resize({224}) */                        \
        : ::torch::nn::ModuleHolder<Name##Impl>(std::make_shared<Name##Impl>(options)) {} \
  }
