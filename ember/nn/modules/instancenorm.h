#pragma once
// InstanceNorm1d/2d/3d, as torch/nn/modules/instancenorm.h: batch_norm per
// (sample, channel); running statistics only with track_running_stats.
#include <ostream>

#include "ember/nn/functional/instancenorm.h"
#include "ember/nn/modules/batchnorm.h"
#include "ember/nn/options/instancenorm.h"

namespace torch::nn {

template <size_t D, typename Derived>
class InstanceNormImpl : public NormImplBase<D, Derived, InstanceNormOptions> {
 public:
  using NormImplBase<D, Derived, InstanceNormOptions>::NormImplBase;

  // Accepts (N, C, *spatial) and the unbatched (C, *spatial).
  Tensor forward(const Tensor& input) {
    this->_check_input_dim(input);
    const bool unbatched = input.dim() == static_cast<int64_t>(D) + 1;
    const Tensor x = unbatched ? input.unsqueeze(0) : input;
    EMBER_CHECK(!this->options.affine() || x.size(1) == this->options.num_features(), Derived::kName,
                ": expected input's size at dim=", unbatched ? 0 : 1, " to match num_features (",
                this->options.num_features(), "), but got: ", x.size(1), " (input ", shape_str(input.sizes()), ")");
    Tensor out = functional::detail::instance_norm(x, this->running_mean, this->running_var, this->weight, this->bias,
                                                   this->is_training() || !this->options.track_running_stats(),
                                                   this->options.momentum(), this->options.eps());
    return unbatched ? out.squeeze(0) : out;
  }

  void pretty_print(std::ostream& stream) const override {
    stream << std::boolalpha << "torch::nn::InstanceNorm" << D << "d(" << this->options.num_features()
           << ", eps=" << this->options.eps() << ", momentum=" << this->options.momentum()
           << ", affine=" << this->options.affine() << ", track_running_stats=" << this->options.track_running_stats()
           << ")";
  }

 protected:
  // PyTorch accepts D+1 (unbatched) or D+2 dims.
  void _check_input_dim(const Tensor& input) override {
    const int64_t d = static_cast<int64_t>(D);
    EMBER_CHECK(input.dim() == d + 1 || input.dim() == d + 2, Derived::kName, ": expected ", d + 1, "D or ", d + 2,
                "D input (got ", input.dim(), "D input of shape ", shape_str(input.sizes()), ")");
  }
};

#define EMBER_DECLARE_INSTANCENORM(D)                                                                              \
  class InstanceNorm##D##dImpl : public InstanceNormImpl<D, InstanceNorm##D##dImpl> {                              \
   public:                                                                                                         \
    static constexpr const char* kName = "InstanceNorm" #D "d";                                                    \
    explicit InstanceNorm##D##dImpl(const InstanceNormOptions& options_) : InstanceNormImpl(options_) { reset(); } \
  };                                                                                                               \
  EMBER_NN_MODULE(InstanceNorm##D##d);

EMBER_DECLARE_INSTANCENORM(1)
EMBER_DECLARE_INSTANCENORM(2)
EMBER_DECLARE_INSTANCENORM(3)
#undef EMBER_DECLARE_INSTANCENORM

}  // namespace torch::nn
