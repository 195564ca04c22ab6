#pragma once
// Options of LocalResponseNorm and F::local_response_norm, as
// torch::nn::LocalResponseNormOptions (LibTorch keeps them in
// options/normalization.h; a separate file here keeps LayerNorm/GroupNorm apart).
#include <cstdint>

#include "ember/core/arg.h"

namespace torch::nn {

// LocalResponseNormOptions(2).alpha(1e-4).beta(0.75).k(1.)
struct LocalResponseNormOptions {
  /* implicit */ LocalResponseNormOptions(int64_t size) : size_(size) {}  // NOLINT
  TORCH_ARG(int64_t, size);
  TORCH_ARG(double, alpha) = 1e-4;
  TORCH_ARG(double, beta) = 0.75;
  TORCH_ARG(double, k) = 1.;
};

// CrossMapLRN2dOptions(3).alpha(1e-4).beta(0.75).k(1), as torch::nn::CrossMapLRN2dOptions.
struct CrossMapLRN2dOptions {
  /* implicit */ CrossMapLRN2dOptions(int64_t size) : size_(size) {}  // NOLINT
  TORCH_ARG(int64_t, size);
  TORCH_ARG(double, alpha) = 1e-4;
  TORCH_ARG(double, beta) = 0.75;
  TORCH_ARG(int64_t, k) = 1;
};

namespace functional {
using LocalResponseNormFuncOptions = LocalResponseNormOptions;
}  // namespace functional

}  // namespace torch::nn
