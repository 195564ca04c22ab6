#include "ember/nn/modules/layer_norm.h"

#include "ember/nn/init.h"
#include "ember/ops/factory.h"
#include "ember/ops/normalization.h"

namespace ember::nn {

LayerNormImpl::LayerNormImpl(LayerNormOptions options_) : options(std::move(options_)) { reset(); }

void LayerNormImpl::reset() {
  for (int64_t s : options.normalized_shape())
    EMBER_CHECK(s >= 0, "LayerNorm: normalized_shape must be non-negative, got ",
                shape_str(options.normalized_shape()));
  if (options.elementwise_affine()) {
    weight = register_parameter("weight", ember::empty(IntArrayRef(options.normalized_shape())));
    bias = register_parameter("bias", ember::empty(IntArrayRef(options.normalized_shape())));
  } else {
    weight = register_parameter("weight", {}, /*requires_grad=*/false);
    bias = register_parameter("bias", {}, /*requires_grad=*/false);
  }
  reset_parameters();
}

void LayerNormImpl::reset_parameters() {
  if (!options.elementwise_affine()) return;
  init::ones_(weight);
  init::zeros_(bias);
}

void LayerNormImpl::pretty_print(std::ostream& stream) const {
  stream << std::boolalpha << "torch::nn::LayerNorm([";
  for (size_t i = 0; i < options.normalized_shape().size(); ++i)
    stream << (i > 0 ? ", " : "") << options.normalized_shape()[i];
  stream << "], eps=" << options.eps() << ", elementwise_affine=" << options.elementwise_affine() << ")";
}

Tensor LayerNormImpl::forward(const Tensor& input) {
  return layer_norm(input, options.normalized_shape(), weight, bias, options.eps());
}

}  // namespace ember::nn
