#pragma once
// dropout(relu(x)) in one pass, for the transformer layers' feed-forward block
// (Note [Relu then dropout] in ops/nn/dropout.cpp). Same values and gradients as the
// two ops after the same seed; one node, ReluDropoutBackward0, instead of two.
#include "ember/core/tensor.h"

namespace torch {

Tensor relu_dropout(const Tensor& input, double p, bool train);

}  // namespace torch
