#pragma once
// The common loss modules, as torch/nn/modules/loss.h: MSELoss()(output, target),
// CrossEntropyLoss(CrossEntropyLossOptions().ignore_index(0)).
#include <ostream>

#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/functional/loss.h"
#include "ember/nn/pimpl.h"

namespace ember::nn {

// `printed` is LibTorch 1.13's pretty_print (SmoothL1Loss and HuberLoss print without "()").
#define EMBER_DECLARE_LOSS(Name, fn, printed)                                                                    \
  class Name##Impl : public Cloneable<Name##Impl> {                                                              \
   public:                                                                                                       \
    explicit Name##Impl(const Name##Options& options_ = {}) : options(options_) {}                               \
    void reset() override {}                                                                                     \
    void pretty_print(std::ostream& stream) const override { stream << printed; }                                \
    Tensor forward(const Tensor& input, const Tensor& target) { return functional::fn(input, target, options); } \
    Name##Options options;                                                                                       \
  };                                                                                                             \
  TORCH_MODULE(Name);

EMBER_DECLARE_LOSS(L1Loss, l1_loss, "torch::nn::L1Loss()")
EMBER_DECLARE_LOSS(MSELoss, mse_loss, "torch::nn::MSELoss()")
EMBER_DECLARE_LOSS(BCELoss, binary_cross_entropy, "torch::nn::BCELoss()")
EMBER_DECLARE_LOSS(BCEWithLogitsLoss, binary_cross_entropy_with_logits, "torch::nn::BCEWithLogitsLoss()")
EMBER_DECLARE_LOSS(NLLLoss, nll_loss, "torch::nn::NLLLoss()")
EMBER_DECLARE_LOSS(CrossEntropyLoss, cross_entropy, "torch::nn::CrossEntropyLoss()")
EMBER_DECLARE_LOSS(SmoothL1Loss, smooth_l1_loss, "torch::nn::SmoothL1Loss")
EMBER_DECLARE_LOSS(HuberLoss, huber_loss, "torch::nn::HuberLoss")
EMBER_DECLARE_LOSS(KLDivLoss, kl_div, "torch::nn::KLDivLoss()")
#undef EMBER_DECLARE_LOSS

}  // namespace ember::nn
