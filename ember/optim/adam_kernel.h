#pragma once
// Note [Fused Adam step]
// Adam's and AdamW's update of one parameter in one pass over contiguous
// float32/float64 tensors, instead of the composite's seven elementwise ops and
// two temporaries (a fifth of the main job's non-convolution time went there).
// Each element goes through the composite's arithmetic in its order and compute
// dtype (exp_avg.mul_(beta1).add_(grad, 1 - beta1), exp_avg_sq.mul_(beta2)
// .addcmul_(grad, grad, 1 - beta2), denom = sqrt(v) / sqrt(bias_correction2) + eps,
// p.addcdiv_(exp_avg, denom, -step_size)); the one difference is the square
// root, correctly rounded here where the composite's float32 sqrt is SLEEF's
// 0.5-ULP kernel, so the two agree to within an ulp of the denominator.
#include "ember/core/tensor.h"

namespace torch::optim::detail {

struct AdamCoefficients {
  double beta1, beta2, eps, step_size, bias_correction2_sqrt;
};

// Updates p, exp_avg, exp_avg_sq (and max_exp_avg_sq when defined: amsgrad) in
// place and returns true, or returns false without touching anything when the
// tensors do not qualify (dtype, layout, sizes, overlap, vmap, autograd); the
// caller then runs the composite.
bool adam_update_fused(const Tensor& p, const Tensor& grad, const Tensor& exp_avg, const Tensor& exp_avg_sq,
                       const Tensor& max_exp_avg_sq, const AdamCoefficients& c);

}  // namespace torch::optim::detail
