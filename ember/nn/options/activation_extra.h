#pragma once
// Options of the softmax-family and the remaining activation modules, as
// torch/nn/options/activation.h (XFuncOptions is XOptions unless noted).
#include <cstdint>
#include <optional>

#include "ember/core/arg.h"
#include "ember/core/dtype.h"

namespace torch::nn {

// Softmax(1) or Softmax(SoftmaxOptions(1)); same for LogSoftmax and Softmin.
#define EMBER_NN_DIM_OPTIONS(Name)                                        \
  struct Name##Options {                                                  \
    /* implicit */ Name##Options(int64_t dim) : dim_(dim) {} /* NOLINT */ \
    TORCH_ARG(int64_t, dim);                                              \
  }
EMBER_NN_DIM_OPTIONS(Softmax);
EMBER_NN_DIM_OPTIONS(LogSoftmax);
EMBER_NN_DIM_OPTIONS(Softmin);
#undef EMBER_NN_DIM_OPTIONS

#define EMBER_NN_INPLACE_OPTIONS(Name)                                                     \
  struct Name##Options {                                                                   \
    /* implicit */ Name##Options(bool inplace = false) : inplace_(inplace) {} /* NOLINT */ \
    TORCH_ARG(bool, inplace);                                                              \
  }
EMBER_NN_INPLACE_OPTIONS(ReLU6);
#undef EMBER_NN_INPLACE_OPTIONS

struct PReLUOptions {
  TORCH_ARG(int64_t, num_parameters) = 1;
  TORCH_ARG(double, init) = 0.25;
};

struct CELUOptions {
  TORCH_ARG(double, alpha) = 1.0;
  TORCH_ARG(bool, inplace) = false;
};

struct HardtanhOptions {
  TORCH_ARG(double, min_val) = -1.0;
  TORCH_ARG(double, max_val) = 1.0;
  TORCH_ARG(bool, inplace) = false;
};

// Softshrink(0.3); the field is `lambda`, as LibTorch.
struct SoftshrinkOptions {
  /* implicit */ SoftshrinkOptions(double lambda = 0.5) : lambda_(lambda) {}  // NOLINT
  TORCH_ARG(double, lambda);
};
struct HardshrinkOptions {
  /* implicit */ HardshrinkOptions(double lambda = 0.5) : lambda_(lambda) {}  // NOLINT
  TORCH_ARG(double, lambda);
};

// Threshold(0.1, 20): values <= threshold become value.
struct ThresholdOptions {
  ThresholdOptions(double threshold, double value) : threshold_(threshold), value_(value) {}
  TORCH_ARG(double, threshold);
  TORCH_ARG(double, value);
  TORCH_ARG(bool, inplace) = false;
};

struct GLUOptions {
  /* implicit */ GLUOptions(int64_t dim = -1) : dim_(dim) {}  // NOLINT
  TORCH_ARG(int64_t, dim);
};

struct RReLUOptions {
  TORCH_ARG(double, lower) = 1.0 / 8.0;
  TORCH_ARG(double, upper) = 1.0 / 3.0;
  TORCH_ARG(bool, inplace) = false;
};

namespace functional {
// F::softmax(x, F::SoftmaxFuncOptions(1).dtype(torch::kFloat64))
#define EMBER_NN_DIM_FUNC_OPTIONS(Name)                                       \
  struct Name##FuncOptions {                                                  \
    /* implicit */ Name##FuncOptions(int64_t dim) : dim_(dim) {} /* NOLINT */ \
    TORCH_ARG(int64_t, dim);                                                  \
    TORCH_ARG(std::optional<ScalarType>, dtype) = std::nullopt;               \
  }
EMBER_NN_DIM_FUNC_OPTIONS(Softmax);
EMBER_NN_DIM_FUNC_OPTIONS(LogSoftmax);
EMBER_NN_DIM_FUNC_OPTIONS(Softmin);
#undef EMBER_NN_DIM_FUNC_OPTIONS

// F::gumbel_softmax(logits, F::GumbelSoftmaxFuncOptions().tau(0.5).hard(true))
struct GumbelSoftmaxFuncOptions {
  TORCH_ARG(double, tau) = 1.0;
  TORCH_ARG(bool, hard) = false;  // one-hot samples, with the soft samples' gradient
  TORCH_ARG(int, dim) = -1;
};

using ReLU6FuncOptions = ReLU6Options;
using CELUFuncOptions = CELUOptions;
using HardtanhFuncOptions = HardtanhOptions;
using SoftshrinkFuncOptions = SoftshrinkOptions;
using HardshrinkFuncOptions = HardshrinkOptions;
using ThresholdFuncOptions = ThresholdOptions;
using GLUFuncOptions = GLUOptions;

// F::rrelu(x, F::RReLUFuncOptions().training(true))
struct RReLUFuncOptions {
  TORCH_ARG(double, lower) = 1.0 / 8.0;
  TORCH_ARG(double, upper) = 1.0 / 3.0;
  TORCH_ARG(bool, training) = false;
  TORCH_ARG(bool, inplace) = false;
};
}  // namespace functional

}  // namespace torch::nn
