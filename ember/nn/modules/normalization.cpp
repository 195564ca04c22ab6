#include "ember/nn/modules/normalization.h"

#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/core/shape.h"
#include "ember/nn/functional/normalization.h"
#include "ember/nn/init.h"
#include "ember/ops/factory.h"

namespace ember::nn {
namespace F = functional;

template <int64_t D, typename Derived>
void BatchNormImplBase<D, Derived>::reset() {
  const int64_t n = options.num_features();
  EMBER_CHECK(n > 0, "BatchNorm", D, "d: num_features must be positive, got ", n);
  if (options.affine()) {
    weight = this->register_parameter("weight", empty({n}));
    bias = this->register_parameter("bias", empty({n}));
  } else {
    weight = this->register_parameter("weight", Tensor(), /*requires_grad=*/false);
    bias = this->register_parameter("bias", Tensor(), /*requires_grad=*/false);
  }
  if (options.track_running_stats()) {
    running_mean = this->register_buffer("running_mean", zeros({n}));
    running_var = this->register_buffer("running_var", ones({n}));
    num_batches_tracked = this->register_buffer("num_batches_tracked", zeros({}, TensorOptions().dtype(kLong)));
  } else {
    running_mean = this->register_buffer("running_mean", Tensor());
    running_var = this->register_buffer("running_var", Tensor());
    num_batches_tracked = this->register_buffer("num_batches_tracked", Tensor());
  }
  reset_parameters();
}

template <int64_t D, typename Derived>
void BatchNormImplBase<D, Derived>::reset_running_stats() {
  if (!options.track_running_stats()) return;
  NoGradGuard no_grad;
  running_mean.zero_();
  running_var.fill_(1);
  num_batches_tracked.zero_();
}

template <int64_t D, typename Derived>
void BatchNormImplBase<D, Derived>::reset_parameters() {
  reset_running_stats();
  if (options.affine()) {
    init::ones_(weight);
    init::zeros_(bias);
  }
}

template <int64_t D, typename Derived>
void BatchNormImplBase<D, Derived>::pretty_print(std::ostream& stream) const {
  stream << std::boolalpha << "torch::nn::BatchNorm" << D << "d(" << options.num_features() << ", eps=" << options.eps()
         << ", momentum=";
  if (options.momentum().has_value()) {
    stream << *options.momentum();
  } else {
    stream << "None";
  }
  stream << ", affine=" << options.affine() << ", track_running_stats=" << options.track_running_stats() << ")";
}

// As LibTorch's BatchNormImplBase::forward: training counts the batch and,
// without a momentum, averages cumulatively (factor 1 / batches seen).
template <int64_t D, typename Derived>
Tensor BatchNormImplBase<D, Derived>::forward(const Tensor& input) {
  if constexpr (D == 1) {
    EMBER_CHECK(input.dim() == 2 || input.dim() == 3, "BatchNorm1d: expected 2D or 3D input (got ", input.dim(),
                "D input)");
  } else {
    EMBER_CHECK(input.dim() == D + 2, "BatchNorm", D, "d: expected ", D + 2, "D input (got ", input.dim(), "D input)");
  }
  double factor = options.momentum().value_or(0.0);
  const bool training = this->is_training();
  if (training && options.track_running_stats() && num_batches_tracked.defined()) {
    {
      NoGradGuard no_grad;
      num_batches_tracked.add_(1);
    }
    if (!options.momentum().has_value()) factor = 1.0 / num_batches_tracked.template item<double>();
  }
  return F::batch_norm(input, running_mean, running_var,
                       F::BatchNormFuncOptions()
                           .weight(weight)
                           .bias(bias)
                           .training(training || !options.track_running_stats())
                           .momentum(factor)
                           .eps(options.eps()));
}

template class BatchNormImplBase<1, BatchNorm1dImpl>;
template class BatchNormImplBase<2, BatchNorm2dImpl>;
template class BatchNormImplBase<3, BatchNorm3dImpl>;

LayerNormImpl::LayerNormImpl(LayerNormOptions options_) : options(std::move(options_)) { reset(); }

void LayerNormImpl::reset() {
  if (options.elementwise_affine()) {
    weight = register_parameter("weight", ember::empty(IntArrayRef(options.normalized_shape())));
    bias = register_parameter("bias", ember::empty(IntArrayRef(options.normalized_shape())));
  } else {
    weight = register_parameter("weight", Tensor(), /*requires_grad=*/false);
    bias = register_parameter("bias", Tensor(), /*requires_grad=*/false);
  }
  reset_parameters();
}

void LayerNormImpl::reset_parameters() {
  if (options.elementwise_affine()) {
    init::ones_(weight);
    init::zeros_(bias);
  }
}

void LayerNormImpl::pretty_print(std::ostream& stream) const {
  stream << std::boolalpha << "torch::nn::LayerNorm(" << IntArrayRef(options.normalized_shape())
         << ", eps=" << options.eps() << ", elementwise_affine=" << options.elementwise_affine() << ")";
}

Tensor LayerNormImpl::forward(const Tensor& input) {
  return F::layer_norm(
      input, F::LayerNormFuncOptions(options.normalized_shape()).weight(weight).bias(bias).eps(options.eps()));
}

GroupNormImpl::GroupNormImpl(const GroupNormOptions& options_) : options(options_) { reset(); }

void GroupNormImpl::reset() {
  EMBER_CHECK(options.num_groups() > 0 && options.num_channels() % options.num_groups() == 0,
              "GroupNorm: num_channels must be divisible by num_groups, got num_channels=", options.num_channels(),
              ", num_groups=", options.num_groups());
  if (options.affine()) {
    weight = register_parameter("weight", empty({options.num_channels()}));
    bias = register_parameter("bias", empty({options.num_channels()}));
  } else {
    weight = register_parameter("weight", Tensor(), /*requires_grad=*/false);
    bias = register_parameter("bias", Tensor(), /*requires_grad=*/false);
  }
  reset_parameters();
}

void GroupNormImpl::reset_parameters() {
  if (options.affine()) {
    init::ones_(weight);
    init::zeros_(bias);
  }
}

void GroupNormImpl::pretty_print(std::ostream& stream) const {
  stream << std::boolalpha << "torch::nn::GroupNorm(" << options.num_groups() << ", " << options.num_channels()
         << ", eps=" << options.eps() << ", affine=" << options.affine() << ")";
}

Tensor GroupNormImpl::forward(const Tensor& input) {
  return F::group_norm(input,
                       F::GroupNormFuncOptions(options.num_groups()).weight(weight).bias(bias).eps(options.eps()));
}

}  // namespace ember::nn
