#pragma once
// BatchNorm1d/2d/3d and their shared base NormImplBase (also used by
// InstanceNorm*d), as torch/nn/modules/batchnorm.h.
#include <ostream>

#include "ember/autograd/forward_ad.h"
#include "ember/autograd/grad_mode.h"
#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/functional/batchnorm.h"
#include "ember/nn/options/batchnorm.h"
#include "ember/nn/pimpl.h"
#include "ember/ops/factory/factory.h"

namespace torch::nn {

// Parameters weight/bias (when affine, initialised to 1 and 0) and buffers
// running_mean/running_var/num_batches_tracked (when track_running_stats), with
// PyTorch's state_dict names.
template <size_t D, typename Derived, typename DerivedOptions>
class NormImplBase : public Cloneable<Derived> {
 protected:
  virtual void _check_input_dim(const Tensor& input) = 0;

 public:
  NormImplBase(const DerivedOptions& options_) : options(options_) {}  // NOLINT: reset() runs in Derived

  void reset() override {
    EMBER_CHECK(options.num_features() >= 0, Derived::kName, ": num_features must be non-negative, got ",
                options.num_features());
    if (options.affine()) {
      weight = this->register_parameter("weight", empty(options.num_features()));
      bias = this->register_parameter("bias", empty(options.num_features()));
    } else {
      weight = this->register_parameter("weight", Tensor(), /*requires_grad=*/false);
      bias = this->register_parameter("bias", Tensor(), /*requires_grad=*/false);
    }
    if (options.track_running_stats()) {
      running_mean = this->register_buffer("running_mean", zeros(options.num_features()));
      running_var = this->register_buffer("running_var", ones(options.num_features()));
      num_batches_tracked = this->register_buffer("num_batches_tracked", zeros({}, kLong));
    } else {
      running_mean = this->register_buffer("running_mean", Tensor());
      running_var = this->register_buffer("running_var", Tensor());
      num_batches_tracked = this->register_buffer("num_batches_tracked", Tensor());
    }
    reset_parameters();
  }

  void reset_running_stats() {
    if (!options.track_running_stats()) return;
    autograd::BelowAutogradGuard no_grad;
    running_mean.zero_();
    running_var.fill_(1);
    num_batches_tracked.zero_();
  }

  void reset_parameters() {
    reset_running_stats();
    if (options.affine()) {
      autograd::BelowAutogradGuard no_grad;
      weight.fill_(1);
      bias.zero_();
    }
  }

  DerivedOptions options;
  Tensor weight;
  Tensor bias;
  Tensor running_mean;
  Tensor running_var;
  Tensor num_batches_tracked;
};

namespace detail {
// Marks the batch-norm modules, so optim::swa_utils::update_bn can find them
// (PyTorch tests isinstance(module, _BatchNorm)).
struct BatchNormTag {
  virtual ~BatchNormTag() = default;
  virtual BatchNormOptions& batch_norm_options() = 0;
  virtual void reset_batch_norm_running_stats() = 0;
};
}  // namespace detail

template <size_t D, typename Derived>
class BatchNormImplBase : public NormImplBase<D, Derived, BatchNormOptions>, public detail::BatchNormTag {
 public:
  using NormImplBase<D, Derived, BatchNormOptions>::NormImplBase;

  // Training updates the running statistics with `momentum`, or with the
  // cumulative average 1/num_batches_tracked when momentum is nullopt.
  Tensor forward(const Tensor& input) {
    this->_check_input_dim(input);
    double factor = this->options.momentum().value_or(0.0);
    if (this->is_training() && this->options.track_running_stats() && this->num_batches_tracked.defined()) {
      {
        autograd::BelowAutogradGuard no_grad;
        this->num_batches_tracked.add_(1);
      }
      if (!this->options.momentum().has_value()) factor = 1.0 / this->num_batches_tracked.template item<double>();
    }
    return functional::detail::batch_norm(input, this->running_mean, this->running_var, this->weight, this->bias,
                                          this->is_training() || !this->options.track_running_stats(), factor,
                                          this->options.eps());
  }

  void pretty_print(std::ostream& stream) const override {
    stream << std::boolalpha << "torch::nn::BatchNorm" << D << "d(" << this->options.num_features()
           << ", eps=" << this->options.eps() << ", momentum=";
    if (this->options.momentum().has_value())
      stream << *this->options.momentum();
    else
      stream << "None";
    stream << ", affine=" << this->options.affine() << ", track_running_stats=" << this->options.track_running_stats()
           << ")";
  }

  BatchNormOptions& batch_norm_options() override { return this->options; }
  void reset_batch_norm_running_stats() override { this->reset_running_stats(); }
};

#define EMBER_DECLARE_BATCHNORM(D)                                                                            \
  class BatchNorm##D##dImpl : public BatchNormImplBase<D, BatchNorm##D##dImpl> {                              \
   public:                                                                                                    \
    static constexpr const char* kName = "BatchNorm" #D "d";                                                  \
    explicit BatchNorm##D##dImpl(const BatchNormOptions& options_) : BatchNormImplBase(options_) { reset(); } \
                                                                                                              \
   protected:                                                                                                 \
    void _check_input_dim(const Tensor& input) override;                                                      \
  };                                                                                                          \
  EMBER_NN_MODULE(BatchNorm##D##d);

EMBER_DECLARE_BATCHNORM(1)
EMBER_DECLARE_BATCHNORM(2)
EMBER_DECLARE_BATCHNORM(3)
#undef EMBER_DECLARE_BATCHNORM

}  // namespace torch::nn
