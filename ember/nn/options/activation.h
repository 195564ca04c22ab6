#pragma once
// Options of the activation modules and their nn::functional forms
// (XFuncOptions is XOptions, as in LibTorch).
#include <string>

#include "ember/core/arg.h"

namespace torch::nn {

// ELU(ELUOptions().alpha(0.5).inplace(true))
struct ELUOptions {
  TORCH_ARG(double, alpha) = 1.0;
  TORCH_ARG(bool, inplace) = false;
};

// SELU(true) or SELU(SELUOptions().inplace(true))
struct SELUOptions {
  /* implicit */ SELUOptions(bool inplace = false) : inplace_(inplace) {}  // NOLINT
  TORCH_ARG(bool, inplace);
};

// GELU(GELUOptions().approximate("tanh"))
struct GELUOptions {
  TORCH_ARG(std::string, approximate) = "none";
};

// LeakyReLU(LeakyReLUOptions().negative_slope(0.2).inplace(true))
struct LeakyReLUOptions {
  TORCH_ARG(double, negative_slope) = 1e-2;
  TORCH_ARG(bool, inplace) = false;
};

// ReLU(true) or ReLU(ReLUOptions().inplace(true))
struct ReLUOptions {
  /* implicit */ ReLUOptions(bool inplace = false) : inplace_(inplace) {}  // NOLINT
  TORCH_ARG(bool, inplace);
};

// Softplus(SoftplusOptions().beta(0.5).threshold(3))
struct SoftplusOptions {
  TORCH_ARG(double, beta) = 1.0;
  TORCH_ARG(double, threshold) = 20.0;
};

// Hardswish / Hardsigmoid are not in LibTorch 1.13's C++ API; their options
// follow torch.nn (inplace only).
struct HardswishOptions {
  /* implicit */ HardswishOptions(bool inplace = false) : inplace_(inplace) {}  // NOLINT
  TORCH_ARG(bool, inplace);
};
struct HardsigmoidOptions {
  /* implicit */ HardsigmoidOptions(bool inplace = false) : inplace_(inplace) {}  // NOLINT
  TORCH_ARG(bool, inplace);
};

namespace functional {
using ELUFuncOptions = ELUOptions;
using SELUFuncOptions = SELUOptions;
using GELUFuncOptions = GELUOptions;
using LeakyReLUFuncOptions = LeakyReLUOptions;
using ReLUFuncOptions = ReLUOptions;
using SoftplusFuncOptions = SoftplusOptions;
using HardswishFuncOptions = HardswishOptions;
using HardsigmoidFuncOptions = HardsigmoidOptions;
}  // namespace functional

}  // namespace torch::nn
