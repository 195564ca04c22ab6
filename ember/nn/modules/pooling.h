#pragma once
// MaxPool1d/2d/3d and AvgPool1d/2d/3d, as torch::nn::MaxPool2d etc.
#include <ostream>
#include <tuple>
#include <type_traits>
#include <utility>

#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/functional/pooling.h"
#include "ember/nn/options/pooling.h"
#include "ember/nn/pimpl.h"

namespace ember::nn {

#define EMBER_DECLARE_POOL(Kind, D)                                                                   \
  class Kind##D##dImpl : public Cloneable<Kind##D##dImpl> {                                           \
   public:                                                                                            \
    Kind##D##dImpl(ExpandingArray<D> kernel_size) : Kind##D##dImpl(Kind##D##dOptions(kernel_size)) {} \
    explicit Kind##D##dImpl(const Kind##D##dOptions& options_) : options(options_) {}                 \
    void reset() override {}                                                                          \
    void pretty_print(std::ostream& stream) const override;                                           \
    Tensor forward(const Tensor& input);                                                              \
    EMBER_POOL_EXTRA_##Kind(D) Kind##D##dOptions options;                                             \
  };                                                                                                  \
  TORCH_MODULE(Kind##D##d);

// MaxPool also returns the argmax indices (for MaxUnpool).
#define EMBER_POOL_EXTRA_MaxPool(D) std::tuple<Tensor, Tensor> forward_with_indices(const Tensor& input);
#define EMBER_POOL_EXTRA_AvgPool(D)

EMBER_DECLARE_POOL(MaxPool, 1)
EMBER_DECLARE_POOL(MaxPool, 2)
EMBER_DECLARE_POOL(MaxPool, 3)
EMBER_DECLARE_POOL(AvgPool, 1)
EMBER_DECLARE_POOL(AvgPool, 2)
EMBER_DECLARE_POOL(AvgPool, 3)
#undef EMBER_DECLARE_POOL
#undef EMBER_POOL_EXTRA_MaxPool
#undef EMBER_POOL_EXTRA_AvgPool

// AdaptiveAvgPool1d/2d/3d and AdaptiveMaxPool1d/2d/3d: pool to a fixed output size.
#define EMBER_DECLARE_ADAPTIVE_POOL(Kind, D)                                                              \
  class Adaptive##Kind##D##dImpl : public Cloneable<Adaptive##Kind##D##dImpl> {                           \
   public:                                                                                                \
    using output_size_t = decltype(std::declval<Adaptive##Kind##D##dOptions>().output_size());            \
    Adaptive##Kind##D##dImpl(std::decay_t<output_size_t> output_size)                                     \
        : Adaptive##Kind##D##dImpl(Adaptive##Kind##D##dOptions(output_size)) {}                           \
    explicit Adaptive##Kind##D##dImpl(const Adaptive##Kind##D##dOptions& options_) : options(options_) {} \
    void reset() override {}                                                                              \
    void pretty_print(std::ostream& stream) const override;                                               \
    Tensor forward(const Tensor& input);                                                                  \
    EMBER_ADAPTIVE_POOL_EXTRA_##Kind(D) Adaptive##Kind##D##dOptions options;                              \
  };                                                                                                      \
  TORCH_MODULE(Adaptive##Kind##D##d);

#define EMBER_ADAPTIVE_POOL_EXTRA_MaxPool(D) std::tuple<Tensor, Tensor> forward_with_indices(const Tensor& input);
#define EMBER_ADAPTIVE_POOL_EXTRA_AvgPool(D)

EMBER_DECLARE_ADAPTIVE_POOL(MaxPool, 1)
EMBER_DECLARE_ADAPTIVE_POOL(MaxPool, 2)
EMBER_DECLARE_ADAPTIVE_POOL(MaxPool, 3)
EMBER_DECLARE_ADAPTIVE_POOL(AvgPool, 1)
EMBER_DECLARE_ADAPTIVE_POOL(AvgPool, 2)
EMBER_DECLARE_ADAPTIVE_POOL(AvgPool, 3)
#undef EMBER_DECLARE_ADAPTIVE_POOL
#undef EMBER_ADAPTIVE_POOL_EXTRA_MaxPool
#undef EMBER_ADAPTIVE_POOL_EXTRA_AvgPool

}  // namespace ember::nn
