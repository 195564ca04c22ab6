#pragma once
// nn::functional losses with LibTorch's *FuncOptions (F::mse_loss(x, y,
// F::MSELossFuncOptions(torch::kSum))); the work is in ember/ops/loss.h.
#include "ember/nn/options/loss.h"
#include "ember/ops/loss.h"
#include "ember/ops/reduce.h"

namespace ember::nn::functional {

namespace detail {
// The at::Reduction value of a reduction tag.
inline int64_t reduction_enum(const loss_reduction_t& r) {
  if (std::holds_alternative<enumtype::kNone>(r)) return Reduction::None;
  if (std::holds_alternative<enumtype::kSum>(r)) return Reduction::Sum;
  return Reduction::Mean;
}
}  // namespace detail

inline Tensor l1_loss(const Tensor& input, const Tensor& target, const L1LossFuncOptions& options = {}) {
  return ember::l1_loss(input, target, detail::reduction_enum(options.reduction()));
}
inline Tensor mse_loss(const Tensor& input, const Tensor& target, const MSELossFuncOptions& options = {}) {
  return ember::mse_loss(input, target, detail::reduction_enum(options.reduction()));
}
inline Tensor binary_cross_entropy(const Tensor& input, const Tensor& target,
                                   const BinaryCrossEntropyFuncOptions& options = {}) {
  return ember::binary_cross_entropy(input, target, options.weight(), detail::reduction_enum(options.reduction()));
}
inline Tensor binary_cross_entropy_with_logits(const Tensor& input, const Tensor& target,
                                               const BinaryCrossEntropyWithLogitsFuncOptions& options = {}) {
  return ember::binary_cross_entropy_with_logits(input, target, options.weight(), options.pos_weight(),
                                                 detail::reduction_enum(options.reduction()));
}
inline Tensor nll_loss(const Tensor& input, const Tensor& target, const NLLLossFuncOptions& options = {}) {
  return ember::nll_loss_nd(input, target, options.weight(), detail::reduction_enum(options.reduction()),
                            options.ignore_index());
}
inline Tensor cross_entropy(const Tensor& input, const Tensor& target, const CrossEntropyFuncOptions& options = {}) {
  return ember::cross_entropy_loss(input, target, options.weight(), detail::reduction_enum(options.reduction()),
                                   options.ignore_index(), options.label_smoothing());
}
inline Tensor smooth_l1_loss(const Tensor& input, const Tensor& target, const SmoothL1LossFuncOptions& options = {}) {
  return ember::smooth_l1_loss(input, target, detail::reduction_enum(options.reduction()), options.beta());
}
inline Tensor huber_loss(const Tensor& input, const Tensor& target, const HuberLossFuncOptions& options = {}) {
  return ember::huber_loss(input, target, detail::reduction_enum(options.reduction()), options.delta());
}
// kBatchMean divides the summed loss by the batch size (input.size(0)), as PyTorch.
inline Tensor kl_div(const Tensor& input, const Tensor& target, const KLDivFuncOptions& options = {}) {
  const auto& r = options.reduction();
  if (std::holds_alternative<enumtype::kBatchMean>(r)) {
    Tensor sum = ember::kl_div(input, target, Reduction::Sum, options.log_target());
    return input.dim() != 0 ? sum / input.size(0) : sum;
  }
  const int64_t red = std::holds_alternative<enumtype::kNone>(r)  ? Reduction::None
                      : std::holds_alternative<enumtype::kSum>(r) ? Reduction::Sum
                                                                  : Reduction::Mean;
  return ember::kl_div(input, target, red, options.log_target());
}

}  // namespace ember::nn::functional
