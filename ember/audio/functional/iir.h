#pragma once
// The recursive half of lfilter, shared by lfilter and filtfilt.
#include "ember/core/tensor.h"

namespace torch::audio::functional::detail {

// y[b, c, n] = x[b, c, n] - sum_{j < K} a_flipped[c, j] * y[b, c, n - K + j]
// for x [B, C, N] and a_flipped [C, K + 1] (a0-normalised coefficients in
// reverse order, so a_flipped[c, K] == 1 and is not used). A custom autograd
// function whose backward is itself made of iir calls, so it is twice
// differentiable in x and a_flipped.
Tensor iir(const Tensor& x, const Tensor& a_flipped);

}  // namespace torch::audio::functional::detail
