#pragma once
// LayerNorm, as torch::nn::LayerNorm: normalizes over the trailing normalized_shape dims,
// with a learnable elementwise weight (ones) and bias (zeros).
#include <ostream>

#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/options/layer_norm.h"
#include "ember/nn/pimpl.h"

namespace ember::nn {

class LayerNormImpl : public Cloneable<LayerNormImpl> {
 public:
  LayerNormImpl(std::vector<int64_t> normalized_shape)  // NOLINT: implicit as LibTorch's
      : LayerNormImpl(LayerNormOptions(std::move(normalized_shape))) {}
  explicit LayerNormImpl(LayerNormOptions options_);
  void reset() override;
  void reset_parameters();
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& input);

  LayerNormOptions options;
  Tensor weight;  // undefined without elementwise_affine
  Tensor bias;
};
TORCH_MODULE(LayerNorm);

}  // namespace ember::nn
