#include "ember/nn/utils/clip_grad.h"

#include <cmath>
#include <limits>

#include "ember/autograd/forward_ad.h"
#include "ember/autograd/grad_mode.h"
#include "ember/ops/all_ops.h"

namespace torch::nn::utils {

double clip_grad_norm_(const std::vector<Tensor>& parameters, double max_norm, double norm_type,
                       bool error_if_nonfinite) {
  autograd::BelowAutogradGuard no_grad;
  std::vector<Tensor> grads;
  for (const auto& p : parameters)
    if (p.defined() && p.grad().defined()) grads.push_back(p.grad().detach());
  if (grads.empty()) return 0.0;
  std::vector<Tensor> norms;
  norms.reserve(grads.size());
  Tensor total;
  if (std::isinf(norm_type) && norm_type > 0) {
    for (const auto& g : grads) norms.push_back(g.abs().max());
    total = norms.size() == 1 ? norms[0] : stack(norms).max();
  } else {
    for (const auto& g : grads) norms.push_back(g.norm(norm_type));
    total = norms.size() == 1 ? norms[0] : stack(norms).norm(norm_type);
  }
  const double total_norm = total.item<double>();
  EMBER_CHECK(!(error_if_nonfinite && !std::isfinite(total_norm)), "clip_grad_norm_: The total norm of order ",
              norm_type,
              " for gradients from `parameters` is non-finite, so it cannot be clipped. To disable this "
              "error and scale the gradients by the non-finite norm anyway, set `error_if_nonfinite=false`");
  // As PyTorch: multiply by min(max_norm / (norm + 1e-6), 1) computed as a tensor.
  Tensor coef = (max_norm / (total + 1e-6)).clamp(std::nullopt, Scalar(1.0));
  for (auto& g : grads) g.mul_(coef);
  return total_norm;
}

void clip_grad_value_(const std::vector<Tensor>& parameters, double clip_value) {
  autograd::BelowAutogradGuard no_grad;
  for (const auto& p : parameters) {
    if (!p.defined() || !p.grad().defined()) continue;
    Tensor g = p.grad().detach();
    g.clamp_(-clip_value, clip_value);
  }
}

}  // namespace torch::nn::utils
