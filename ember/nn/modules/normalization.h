#pragma once
// Normalization modules, as torch/nn/modules/{batchnorm,normalization}.h:
// BatchNorm1d/2d/3d (buffers running_mean, running_var, num_batches_tracked,
// named as PyTorch so state_dicts match), LayerNorm, GroupNorm.
#include <ostream>

#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/options/normalization.h"
#include "ember/nn/pimpl.h"

namespace ember::nn {

// Shared by BatchNorm1d/2d/3d; D only changes the accepted input rank and the printed name.
template <int64_t D, typename Derived>
class BatchNormImplBase : public Cloneable<Derived> {
 public:
  explicit BatchNormImplBase(const BatchNormOptions& options_) : options(options_) { reset(); }
  void reset() override;
  // Running statistics back to their initial values (zeros, ones, 0 batches).
  void reset_running_stats();
  // Running statistics reset, weight = 1, bias = 0.
  void reset_parameters();
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);

  BatchNormOptions options;
  Tensor weight;
  Tensor bias;
  Tensor running_mean;
  Tensor running_var;
  Tensor num_batches_tracked;
};

#define EMBER_NN_BATCHNORM(D)                                                    \
  class BatchNorm##D##dImpl : public BatchNormImplBase<D, BatchNorm##D##dImpl> { \
   public:                                                                       \
    using BatchNormImplBase<D, BatchNorm##D##dImpl>::BatchNormImplBase;          \
  };                                                                             \
  extern template class BatchNormImplBase<D, BatchNorm##D##dImpl>;               \
  TORCH_MODULE(BatchNorm##D##d)

EMBER_NN_BATCHNORM(1);
EMBER_NN_BATCHNORM(2);
EMBER_NN_BATCHNORM(3);
#undef EMBER_NN_BATCHNORM

class LayerNormImpl : public Cloneable<LayerNormImpl> {
 public:
  LayerNormImpl(std::vector<int64_t> normalized_shape)
      : LayerNormImpl(LayerNormOptions(std::move(normalized_shape))) {}  // NOLINT
  explicit LayerNormImpl(LayerNormOptions options_);
  void reset() override;
  void reset_parameters();
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);

  LayerNormOptions options;
  Tensor weight;
  Tensor bias;
};
TORCH_MODULE(LayerNorm);

class GroupNormImpl : public Cloneable<GroupNormImpl> {
 public:
  GroupNormImpl(int64_t num_groups, int64_t num_channels) : GroupNormImpl(GroupNormOptions(num_groups, num_channels)) {}
  explicit GroupNormImpl(const GroupNormOptions& options_);
  void reset() override;
  void reset_parameters();
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);

  GroupNormOptions options;
  Tensor weight;
  Tensor bias;
};
TORCH_MODULE(GroupNorm);

}  // namespace ember::nn
