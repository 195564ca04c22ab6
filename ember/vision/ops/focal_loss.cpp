#include "ember/vision/ops/focal_loss.h"

#include "ember/core/error.h"
#include "ember/ops/all_ops.h"

namespace torch::vision::ops {

Tensor sigmoid_focal_loss(const Tensor& inputs, const Tensor& targets, double alpha, double gamma,
                          const std::string& reduction) {
  EMBER_CHECK(inputs.defined() && targets.defined(), "sigmoid_focal_loss: inputs and targets must be defined");
  EMBER_CHECK(inputs.sizes() == targets.sizes(),
              "sigmoid_focal_loss: inputs and targets must have the same shape, got ", inputs.sizes(), " and ",
              targets.sizes());
  EMBER_CHECK(inputs.is_floating_point(), "sigmoid_focal_loss: expected floating-point inputs, got ", inputs.dtype());
  EMBER_CHECK(reduction == "none" || reduction == "mean" || reduction == "sum",
              "sigmoid_focal_loss: Invalid Value for arg 'reduction': '", reduction,
              "' \n Supported reduction modes: 'none', 'mean', 'sum'");
  const Tensor p = inputs.sigmoid();
  const Tensor ce = binary_cross_entropy_with_logits(inputs, targets, std::nullopt, std::nullopt, 0);
  const Tensor p_t = p * targets + (1 - p) * (1 - targets);
  Tensor loss = ce * (1 - p_t).pow(gamma);
  if (alpha >= 0) loss = (alpha * targets + (1 - alpha) * (1 - targets)) * loss;
  if (reduction == "mean") return loss.mean();
  if (reduction == "sum") return loss.sum();
  return loss;
}

}  // namespace torch::vision::ops
