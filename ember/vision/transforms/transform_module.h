#pragma once
// What the transform modules share: TransformFunction, the type Compose and
// the random containers hold (any callable Tensor -> Tensor, a transform
// module holder included), and the holder macro, which adds to LibTorch's
// TORCH_MODULE constructors from the options and from braced lists, so
// `Resize({256})`, `Resize({224, 224})` and `Resize(ResizeOptions(256))` all
// read as in Python.
#include <functional>
#include <initializer_list>
#include <memory>
#include <type_traits>

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
    Name(const Name##Options& options) /* NOLINT: Resize(ResizeOptions(224)) */           \
        : ::torch::nn::ModuleHolder<Name##Impl>(std::make_shared<Name##Impl>(options)) {} \
    EMBER_VISION_TRANSFORM_LIST_CONSTRUCTOR(Name, int64_t)                                \
    EMBER_VISION_TRANSFORM_LIST_CONSTRUCTOR(Name, double)                                 \
  }

// Note [Braced transform arguments]
// `Resize({224, 224})` would be ambiguous with only the options constructor:
// the braced list also converts to the holder itself (copy/move constructors)
// through ModuleHolder's variadic forwarding constructor. A constructor taking
// the initializer_list directly is an exact match and wins; it exists only
// where the options accept such a list (sizes, paddings, degree ranges).
#define EMBER_VISION_TRANSFORM_LIST_CONSTRUCTOR(Name, T)              \
  template <typename List = std::initializer_list<T>>                 \
  requires std::is_constructible_v<Name##Options, List> Name(         \
      std::initializer_list<T> list) /* NOLINT: Resize({224, 224}) */ \
      : ::torch::nn::ModuleHolder<Name##Impl>(std::make_shared<Name##Impl>(Name##Options(List(list)))) {}
