#pragma once
// Running one tensor hook (Tensor::register_hook) on a gradient, for both places
// that run them: a leaf's AccumulateGrad and a node's tensor pre-hooks.
#include <functional>

#include "ember/core/tensor.h"

namespace torch::autograd {

// hook(grad), or grad when the hook returns an undefined tensor. As PyTorch: a hook
// may replace the gradient but not change its size or dtype (an ember::Error).
Tensor run_tensor_hook(const std::function<Tensor(const Tensor&)>& hook, const Tensor& grad);

}  // namespace torch::autograd
