#pragma once
// nn::init: in-place parameter initialisers, as torch::nn::init. Each runs
// under NoGradGuard, draws from the global generator, and returns its tensor.
#include <cstdint>
#include <tuple>
#include <variant>

#include "ember/core/scalar.h"
#include "ember/core/tensor.h"
#include "ember/nn/enum.h"

namespace torch::nn::init {

using NonlinearityType =
    std::variant<enumtype::kLinear, enumtype::kConv1D, enumtype::kConv2D, enumtype::kConv3D, enumtype::kConvTranspose1D,
                 enumtype::kConvTranspose2D, enumtype::kConvTranspose3D, enumtype::kSigmoid, enumtype::kTanh,
                 enumtype::kReLU, enumtype::kLeakyReLU>;
using FanModeType = std::variant<enumtype::kFanIn, enumtype::kFanOut>;

// The recommended gain for a nonlinearity: 1 (linear, conv, sigmoid), 5/3
// (tanh), sqrt(2) (relu), sqrt(2 / (1 + param^2)) (leaky_relu, param = slope).
double calculate_gain(NonlinearityType nonlinearity, double param = 0.01);

Tensor constant_(Tensor tensor, Scalar value);
// Identity for 3-5-D conv weights: out channel i passes input channel i through.
Tensor dirac_(Tensor tensor);
Tensor eye_(Tensor matrix);
Tensor normal_(Tensor tensor, double mean = 0, double std = 1);
Tensor ones_(Tensor tensor);
// A (semi-)orthogonal matrix from the QR decomposition of a normal sample, times gain.
Tensor orthogonal_(Tensor tensor, double gain = 1.0);
// 2-D only: normal(0, std) with a `sparsity` fraction of each column zeroed.
Tensor sparse_(Tensor tensor, double sparsity, double std = 0.01);
Tensor uniform_(Tensor tensor, double low = 0, double high = 1);
// Normal(mean, std) truncated to [a, b] (inverse-CDF sampling, as PyTorch).
Tensor trunc_normal_(Tensor tensor, double mean = 0, double std = 1, double a = -2, double b = 2);
Tensor kaiming_normal_(Tensor tensor, double a = 0, FanModeType mode = kFanIn,
                       NonlinearityType nonlinearity = kLeakyReLU);
Tensor kaiming_uniform_(Tensor tensor, double a = 0, FanModeType mode = kFanIn,
                        NonlinearityType nonlinearity = kLeakyReLU);
Tensor xavier_normal_(Tensor tensor, double gain = 1.0);
Tensor xavier_uniform_(Tensor tensor, double gain = 1.0);
Tensor zeros_(Tensor tensor);

// (fan_in, fan_out) of a weight of at least 2 dims: dims 1 and 0 times the receptive field.
std::tuple<int64_t, int64_t> _calculate_fan_in_and_fan_out(const Tensor& tensor);

}  // namespace torch::nn::init
