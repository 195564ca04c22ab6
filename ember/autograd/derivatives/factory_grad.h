#pragma once
// Backward recording for the samplers that have a derivative in PyTorch
// (ops/factory/distributions.cpp): _standard_gamma's reparameterised gradient,
// poisson's zero gradient. The samplers PyTorch gives none (binomial,
// _sample_dirichlet, _standard_gamma_grad) use record_not_implemented.
#include "ember/core/tensor.h"

namespace torch::autograd {

// out = _standard_gamma(self) ("StandardGammaBackward0"): grad * _standard_gamma_grad(self, out).
void record_standard_gamma(const Tensor& self, const Tensor& out);
// out = poisson(self) ("PoissonBackward0"): a zero gradient.
void record_poisson(const Tensor& self, const Tensor& out);

}  // namespace torch::autograd
