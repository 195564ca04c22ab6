#pragma once
// MaxPool1d/2d/3d and AvgPool1d/2d/3d, as torch::nn::MaxPool2d etc.
#include <ostream>
#include <tuple>
#include <type_traits>
#include <utility>

#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/functional/fractional_max_pool.h"
#include "ember/nn/functional/pooling.h"
#include "ember/nn/modules/container/any.h"
#include "ember/nn/options/pooling.h"
#include "ember/nn/pimpl.h"

namespace torch::nn {

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
  EMBER_NN_MODULE(Kind##D##d);

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
  EMBER_NN_MODULE(Adaptive##Kind##D##d);

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

// MaxUnpool1d/2d/3d: places a max pool's values at its indices in a zero output.
#define EMBER_DECLARE_MAX_UNPOOL(D)                                                                                  \
  class MaxUnpool##D##dImpl : public Cloneable<MaxUnpool##D##dImpl> {                                                \
   public:                                                                                                           \
    MaxUnpool##D##dImpl(ExpandingArray<D> kernel_size) : MaxUnpool##D##dImpl(MaxUnpool##D##dOptions(kernel_size)) {} \
    explicit MaxUnpool##D##dImpl(const MaxUnpool##D##dOptions& options_) : options(options_) {}                      \
    void reset() override {}                                                                                         \
    void pretty_print(std::ostream& stream) const override;                                                          \
    Tensor forward(const Tensor& input, const Tensor& indices,                                                       \
                   const std::optional<std::vector<int64_t>>& output_size = std::nullopt);                           \
    MaxUnpool##D##dOptions options;                                                                                  \
                                                                                                                     \
   protected:                                                                                                        \
    FORWARD_HAS_DEFAULT_ARGS({2, AnyValue(std::optional<std::vector<int64_t>>())})                                   \
  };                                                                                                                 \
  EMBER_NN_MODULE(MaxUnpool##D##d);

EMBER_DECLARE_MAX_UNPOOL(1)
EMBER_DECLARE_MAX_UNPOOL(2)
EMBER_DECLARE_MAX_UNPOOL(3)
#undef EMBER_DECLARE_MAX_UNPOOL

// LPPool1d/2d: the p-norm over each window.
#define EMBER_DECLARE_LP_POOL(D)                                                          \
  class LPPool##D##dImpl : public Cloneable<LPPool##D##dImpl> {                           \
   public:                                                                                \
    LPPool##D##dImpl(double norm_type, ExpandingArray<D> kernel_size)                     \
        : LPPool##D##dImpl(LPPool##D##dOptions(norm_type, kernel_size)) {}                \
    explicit LPPool##D##dImpl(const LPPool##D##dOptions& options_) : options(options_) {} \
    void reset() override {}                                                              \
    void pretty_print(std::ostream& stream) const override;                               \
    Tensor forward(const Tensor& input);                                                  \
    LPPool##D##dOptions options;                                                          \
  };                                                                                      \
  EMBER_NN_MODULE(LPPool##D##d);

EMBER_DECLARE_LP_POOL(1)
EMBER_DECLARE_LP_POOL(2)
#undef EMBER_DECLARE_LP_POOL

// FractionalMaxPool2d/3d; `_random_samples` is a buffer (undefined: drawn on every call).
#define EMBER_DECLARE_FRACTIONAL_MAX_POOL(D)                                                                       \
  class FractionalMaxPool##D##dImpl : public Cloneable<FractionalMaxPool##D##dImpl> {                              \
   public:                                                                                                         \
    FractionalMaxPool##D##dImpl(ExpandingArray<D> kernel_size)                                                     \
        : FractionalMaxPool##D##dImpl(FractionalMaxPool##D##dOptions(kernel_size)) {}                              \
    explicit FractionalMaxPool##D##dImpl(FractionalMaxPool##D##dOptions options_) : options(std::move(options_)) { \
      reset();                                                                                                     \
    }                                                                                                              \
    void reset() override;                                                                                         \
    void pretty_print(std::ostream& stream) const override;                                                        \
    Tensor forward(const Tensor& input);                                                                           \
    std::tuple<Tensor, Tensor> forward_with_indices(const Tensor& input);                                          \
    FractionalMaxPool##D##dOptions options;                                                                        \
    Tensor _random_samples;                                                                                        \
  };                                                                                                               \
  EMBER_NN_MODULE(FractionalMaxPool##D##d);
EMBER_DECLARE_FRACTIONAL_MAX_POOL(2)
EMBER_DECLARE_FRACTIONAL_MAX_POOL(3)
#undef EMBER_DECLARE_FRACTIONAL_MAX_POOL

}  // namespace torch::nn
