#pragma once
// Loss modules, as torch/nn/modules/loss.h: `torch::nn::MSELoss()(output, target)`.
// Each forwards to its nn::functional form with the stored options and prints
// like LibTorch.
#include <ostream>

#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/options/loss.h"
#include "ember/nn/pimpl.h"

namespace torch::nn {

// Losses taking (input, target).
#define EMBER_NN_LOSS2(Name)                                                       \
  class Name##Impl : public Cloneable<Name##Impl> {                                \
   public:                                                                         \
    explicit Name##Impl(const Name##Options& options_ = {}) : options(options_) {} \
    void reset() override {}                                                       \
    void pretty_print(std::ostream& stream) const override;                        \
    Tensor forward(const Tensor& input, const Tensor& target);                     \
    Name##Options options;                                                         \
  };                                                                               \
  EMBER_NN_MODULE(Name)

// Losses taking (input1, input2, target) or (anchor, positive, negative).
#define EMBER_NN_LOSS3(Name)                                                       \
  class Name##Impl : public Cloneable<Name##Impl> {                                \
   public:                                                                         \
    explicit Name##Impl(const Name##Options& options_ = {}) : options(options_) {} \
    void reset() override {}                                                       \
    void pretty_print(std::ostream& stream) const override;                        \
    Tensor forward(const Tensor& a, const Tensor& b, const Tensor& c);             \
    Name##Options options;                                                         \
  };                                                                               \
  EMBER_NN_MODULE(Name)

EMBER_NN_LOSS2(L1Loss);
EMBER_NN_LOSS2(MSELoss);
EMBER_NN_LOSS2(KLDivLoss);
EMBER_NN_LOSS2(BCELoss);
EMBER_NN_LOSS2(BCEWithLogitsLoss);
EMBER_NN_LOSS2(HingeEmbeddingLoss);
EMBER_NN_LOSS2(MultiMarginLoss);
EMBER_NN_LOSS2(MultiLabelSoftMarginLoss);
EMBER_NN_LOSS2(MultiLabelMarginLoss);
EMBER_NN_LOSS2(SoftMarginLoss);
EMBER_NN_LOSS2(SmoothL1Loss);
EMBER_NN_LOSS2(HuberLoss);
EMBER_NN_LOSS2(PoissonNLLLoss);
EMBER_NN_LOSS2(NLLLoss);
EMBER_NN_LOSS2(CrossEntropyLoss);
EMBER_NN_LOSS3(CosineEmbeddingLoss);
EMBER_NN_LOSS3(MarginRankingLoss);
EMBER_NN_LOSS3(TripletMarginLoss);
EMBER_NN_LOSS3(TripletMarginWithDistanceLoss);
#undef EMBER_NN_LOSS2
#undef EMBER_NN_LOSS3

// CTCLoss()(log_probs, targets, input_lengths, target_lengths)
class CTCLossImpl : public Cloneable<CTCLossImpl> {
 public:
  explicit CTCLossImpl(const CTCLossOptions& options_ = {}) : options(options_) {}
  void reset() override {}
  void pretty_print(std::ostream& stream) const override;
  Tensor forward(const Tensor& log_probs, const Tensor& targets, const Tensor& input_lengths,
                 const Tensor& target_lengths);
  CTCLossOptions options;
};
EMBER_NN_MODULE(CTCLoss);

}  // namespace torch::nn
