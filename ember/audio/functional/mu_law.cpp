#include "ember/audio/functional/mu_law.h"

#include "ember/core/error.h"
#include "ember/ops/all_ops.h"

namespace torch::audio::functional {

Tensor mu_law_encoding(const Tensor& x, int64_t quantization_channels) {
  EMBER_CHECK(quantization_channels >= 2, "mu_law_encoding: quantization_channels must be at least 2, got ",
              quantization_channels);
  Tensor xf = x.is_floating_point() ? x : x.to(kFloat);
  Tensor mu = scalar_tensor(static_cast<double>(quantization_channels) - 1.0, TensorOptions(xf.scalar_type()));
  Tensor x_mu = sign(xf) * log1p(mu * abs(xf)) / log1p(mu);
  return ((x_mu + 1) / 2 * mu + 0.5).to(kLong);
}

Tensor mu_law_decoding(const Tensor& x_mu, int64_t quantization_channels) {
  EMBER_CHECK(quantization_channels >= 2, "mu_law_decoding: quantization_channels must be at least 2, got ",
              quantization_channels);
  Tensor xf = x_mu.is_floating_point() ? x_mu : x_mu.to(kFloat);
  Tensor mu = scalar_tensor(static_cast<double>(quantization_channels) - 1.0, TensorOptions(xf.scalar_type()));
  Tensor x = xf / mu * 2 - 1.0;
  return sign(x) * (exp(abs(x) * log1p(mu)) - 1.0) / mu;
}

}  // namespace torch::audio::functional
