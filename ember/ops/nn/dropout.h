#pragma once
// The dropout family (ops/nn/dropout.cpp), LibTorch's at:: signatures. Masks are
// drawn from the default generator, so manual_seed makes them reproducible.
// Every result is input * noise (+ b for alpha dropout), so autograd is the
// multiply's: backward = grad * noise.
#include "ember/core/tensor.h"

namespace torch {

// Zeroes each element with probability p and scales the rest by 1 / (1 - p).
Tensor dropout(const Tensor& input, double p, bool train);
Tensor& dropout_(Tensor& input, double p, bool train);
// Dropout2d/3d: zeroes whole channels (one draw per (n, c)).
Tensor feature_dropout(const Tensor& input, double p, bool train);
Tensor& feature_dropout_(Tensor& input, double p, bool train);
// SELU-preserving dropout: dropped values become -alpha*scale, then an affine
// correction keeps mean 0 and variance 1.
Tensor alpha_dropout(const Tensor& input, double p, bool train);
Tensor& alpha_dropout_(Tensor& input, double p, bool train);
Tensor feature_alpha_dropout(const Tensor& input, double p, bool train);
Tensor& feature_alpha_dropout_(Tensor& input, double p, bool train);

}  // namespace torch
