#include "ember/vision/ops/stochastic_depth.h"

#include <algorithm>
#include <vector>

#include "ember/core/error.h"
#include "ember/ops/all_ops.h"

namespace torch::vision::ops {

namespace {

// DropBlock over the last D dims of a [N, C, ...] input: block centres drawn
// with rate gamma in the valid region, grown to blocks by a max pool, and the
// kept mass renormalised (torchvision's algorithm).
Tensor drop_block(const char* op, int64_t D, const Tensor& input, double p, int64_t block_size, bool inplace,
                  double eps, bool training) {
  EMBER_CHECK(p >= 0.0 && p <= 1.0, op, ": drop probability has to be between 0 and 1, but got ", p, ".");
  EMBER_CHECK(input.defined() && input.dim() == D + 2, op, ": input should be ", D + 2, " dimensional. Got ",
              input.defined() ? input.dim() : 0, " dimensions.");
  EMBER_CHECK(input.is_floating_point(), op, ": expected a floating-point input, got ", input.dtype());
  if (!training || p == 0.0) return input;
  int64_t bs = block_size;
  for (int64_t d = 0; d < D; ++d) bs = std::min(bs, input.size(2 + d));
  EMBER_CHECK(bs > 0, op, ": block_size must be positive and the spatial dims non-empty, got block_size ", block_size,
              " for input of shape ", input.sizes());
  // An even block grows by one pixel in the max pool, so the noise no longer
  // matches the input (torchvision fails there too, in its multiplication).
  EMBER_CHECK(bs % 2 == 1, op, ": the block size must be odd, got ", bs, " (block_size ", block_size,
              ", input of shape ", input.sizes(), ")");
  double volume = 1, valid = 1;
  std::vector<int64_t> noise_shape{input.size(0), input.size(1)};
  for (int64_t d = 0; d < D; ++d) {
    volume *= static_cast<double>(input.size(2 + d));
    valid *= static_cast<double>(input.size(2 + d) - bs + 1);
    noise_shape.push_back(input.size(2 + d) - bs + 1);
  }
  double block_volume = 1;
  for (int64_t d = 0; d < D; ++d) block_volume *= static_cast<double>(bs);
  const double gamma = p * volume / (block_volume * valid);
  Tensor noise = empty(noise_shape, input.options());
  noise.bernoulli_(std::min(gamma, 1.0));
  noise = constant_pad_nd(noise, std::vector<int64_t>(static_cast<size_t>(2 * D), bs / 2), 0);
  const std::vector<int64_t> k(static_cast<size_t>(D), bs), s(static_cast<size_t>(D), 1),
      pad(static_cast<size_t>(D), bs / 2);
  noise = D == 2 ? max_pool2d(noise, k, s, pad) : max_pool3d(noise, k, s, pad);
  noise = 1 - noise;
  const Tensor scale = noise.numel() / (eps + noise.sum());
  if (inplace) return input.mul_(noise).mul_(scale);
  return input * noise * scale;
}

}  // namespace

Tensor stochastic_depth(const Tensor& input, double p, const std::string& mode, bool training) {
  EMBER_CHECK(p >= 0.0 && p <= 1.0, "stochastic_depth: drop probability has to be between 0 and 1, but got ", p);
  EMBER_CHECK(mode == "batch" || mode == "row", "stochastic_depth: mode has to be either 'batch' or 'row', but got ",
              mode);
  if (!training || p == 0.0) return input;
  EMBER_CHECK(input.defined() && input.dim() >= 1 && input.is_floating_point(),
              "stochastic_depth: expected a floating-point input with at least one dimension");
  const double survival = 1.0 - p;
  std::vector<int64_t> size(static_cast<size_t>(input.dim()), 1);
  if (mode == "row") size[0] = input.size(0);
  Tensor noise = empty(size, input.options());
  noise.bernoulli_(survival);
  if (survival > 0.0) noise.div_(survival);
  return input * noise;
}

Tensor drop_block2d(const Tensor& input, double p, int64_t block_size, bool inplace, double eps, bool training) {
  return drop_block("drop_block2d", 2, input, p, block_size, inplace, eps, training);
}

Tensor drop_block3d(const Tensor& input, double p, int64_t block_size, bool inplace, double eps, bool training) {
  return drop_block("drop_block3d", 3, input, p, block_size, inplace, eps, training);
}

void StochasticDepthImpl::pretty_print(std::ostream& stream) const {
  stream << "StochasticDepth(p=" << options.p() << ", mode=" << options.mode() << ")";
}

Tensor StochasticDepthImpl::forward(const Tensor& input) {
  return stochastic_depth(input, options.p(), options.mode(), is_training());
}

void DropBlock2dImpl::pretty_print(std::ostream& stream) const {
  stream << "DropBlock2d(p=" << options.p() << ", block_size=" << options.block_size()
         << ", inplace=" << (options.inplace() ? "True" : "False") << ")";
}

Tensor DropBlock2dImpl::forward(const Tensor& input) {
  return drop_block2d(input, options.p(), options.block_size(), options.inplace(), options.eps(), is_training());
}

void DropBlock3dImpl::pretty_print(std::ostream& stream) const {
  stream << "DropBlock3d(p=" << options.p() << ", block_size=" << options.block_size()
         << ", inplace=" << (options.inplace() ? "True" : "False") << ")";
}

Tensor DropBlock3dImpl::forward(const Tensor& input) {
  return drop_block3d(input, options.p(), options.block_size(), options.inplace(), options.eps(), is_training());
}

}  // namespace torch::vision::ops
