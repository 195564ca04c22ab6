#pragma once
// The samplers of torch.distributions' building blocks, draw for draw as ATen's CPU kernels:
// Gamma(alpha, 1) and its reparameterised gradient, and Dirichlet(alpha). (poisson and binomial,
// which LibTorch also exposes, are declared with the other samplers in ops/factory/random.h and
// implemented beside these in distributions.cpp.) Not in the ember/torch.h umbrella yet: include
// this header (adding it there rebuilds every file that includes ops/all_ops.h).
#include "ember/ops/factory/random.h"

namespace torch {

// One Gamma(alpha, 1) draw per element of `self` (float or double, alpha >= 0), as
// torch._standard_gamma. Differentiable in alpha through the implicit reparameterisation
// gradient (_standard_gamma_grad), as PyTorch's rsample of Gamma, Beta and Dirichlet uses it.
Tensor _standard_gamma(const Tensor& self, OptGen gen = std::nullopt);
// d(sample)/d(alpha) = -(dF/dalpha)(x; alpha) / pdf(x; alpha) for draws `output` of
// Gamma(self, 1), F the Gamma CDF: PyTorch's three approximations (a series for x < 0.8, a
// saddle-point expansion for alpha > 8, a rational fit otherwise). Not itself differentiable.
Tensor _standard_gamma_grad(const Tensor& self, const Tensor& output);
// Dirichlet(alpha) draws along the last dim of `self` (float or double): Gamma draws in double,
// normalised by their sum, clamped into [tiny, 1) as torch._sample_dirichlet.
Tensor _sample_dirichlet(const Tensor& self, OptGen gen = std::nullopt);

}  // namespace torch
