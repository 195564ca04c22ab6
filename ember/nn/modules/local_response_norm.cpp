#include "ember/nn/modules/local_response_norm.h"

#include <algorithm>
#include <vector>

#include "ember/ops/all_ops.h"

namespace torch::nn {

void LocalResponseNormImpl::pretty_print(std::ostream& stream) const {
  stream << std::boolalpha << "torch::nn::LocalResponseNorm(" << options.size() << ", alpha=" << options.alpha()
         << ", beta=" << options.beta() << ", k=" << options.k() << ")";
}

void CrossMapLRN2dImpl::pretty_print(std::ostream& stream) const {
  stream << std::boolalpha << "torch::nn::CrossMapLRN2d(" << options.size() << ", alpha=" << options.alpha()
         << ", beta=" << options.beta() << ", k=" << options.k() << ")";
}

// Note [CrossMapLRN2d's window]
// out_c = x_c * (k + alpha / size * s_c)^-beta, where s_c sums x_j^2 over a window of channels
// built by LibTorch's (and Lua Torch's) running update: s_0 = sum of the first pre_pad squares
// (pre_pad = (size - 1) / 2 + 1); s_c = s_{c-1} + x_{c+pre_pad-1}^2 while that channel exists,
// minus x_{c-pre_pad}^2 once c > pre_pad. The window is not centred (for c = pre_pad it still
// holds channel 0); the update is kept as is so that results equal LibTorch's.
Tensor CrossMapLRN2dImpl::forward(const Tensor& input) {
  EMBER_CHECK(input.dim() == 4, "CrossMapLRN2d: Input must be 4D, got ", input.dim(), "-D input of shape ",
              input.sizes());
  const int64_t channels = input.size(1);
  const int64_t pre_pad = (options.size() - 1) / 2 + 1;
  const Tensor squares = input.pow(2);
  std::vector<Tensor> sums;
  sums.reserve(static_cast<size_t>(channels));
  Tensor running = zeros_like(input.select(1, 0));
  for (int64_t c = 0; c < std::min(pre_pad, channels); ++c) running = running + squares.select(1, c);
  sums.push_back(running);
  for (int64_t c = 1; c < channels; ++c) {
    if (c < channels - pre_pad + 1) running = running + squares.select(1, c + pre_pad - 1);
    if (c > pre_pad) running = running - squares.select(1, c - pre_pad);
    sums.push_back(running);
  }
  const Tensor scale =
      stack(sums, 1) * (options.alpha() / static_cast<double>(options.size())) + static_cast<double>(options.k());
  return input * scale.pow(-options.beta());
}

}  // namespace torch::nn
