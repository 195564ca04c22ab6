#include "ember/nn/modules/loss.h"

#include "ember/nn/functional/loss.h"

namespace torch::nn {
namespace F = functional;

// Prints as LibTorch 1.13 (torch/csrc/api/src/nn/modules/loss.cpp): most
// losses print no options.
#define EMBER_NN_LOSS2_DEF(Name, fn)                                                                \
  void Name##Impl::pretty_print(std::ostream& stream) const { stream << "torch::nn::" #Name "()"; } \
  Tensor Name##Impl::forward(const Tensor& input, const Tensor& target) { return F::fn(input, target, options); }

EMBER_NN_LOSS2_DEF(L1Loss, l1_loss)
EMBER_NN_LOSS2_DEF(MSELoss, mse_loss)
EMBER_NN_LOSS2_DEF(KLDivLoss, kl_div)
EMBER_NN_LOSS2_DEF(BCELoss, binary_cross_entropy)
EMBER_NN_LOSS2_DEF(BCEWithLogitsLoss, binary_cross_entropy_with_logits)
EMBER_NN_LOSS2_DEF(MultiLabelSoftMarginLoss, multilabel_soft_margin_loss)
EMBER_NN_LOSS2_DEF(MultiLabelMarginLoss, multilabel_margin_loss)
EMBER_NN_LOSS2_DEF(SoftMarginLoss, soft_margin_loss)
EMBER_NN_LOSS2_DEF(PoissonNLLLoss, poisson_nll_loss)
EMBER_NN_LOSS2_DEF(NLLLoss, nll_loss)
EMBER_NN_LOSS2_DEF(CrossEntropyLoss, cross_entropy)
#undef EMBER_NN_LOSS2_DEF

void SmoothL1LossImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::SmoothL1Loss"; }
Tensor SmoothL1LossImpl::forward(const Tensor& input, const Tensor& target) {
  return F::smooth_l1_loss(input, target, options);
}
void HuberLossImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::HuberLoss"; }
Tensor HuberLossImpl::forward(const Tensor& input, const Tensor& target) {
  return F::huber_loss(input, target, options);
}

void HingeEmbeddingLossImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::HingeEmbeddingLoss(margin=" << options.margin() << ")";
}
Tensor HingeEmbeddingLossImpl::forward(const Tensor& input, const Tensor& target) {
  return F::hinge_embedding_loss(input, target, options);
}

void MultiMarginLossImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::MultiMarginLoss(p=" << options.p() << ", margin=" << options.margin() << ", weight=";
  if (options.weight().defined()) {
    stream << options.weight();
  } else {
    stream << "[ Tensor (undefined) ]";
  }
  stream << ", reduction=" << reduction_name(options.reduction()) << ")";
}
Tensor MultiMarginLossImpl::forward(const Tensor& input, const Tensor& target) {
  return F::multi_margin_loss(input, target, options);
}

void CosineEmbeddingLossImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::CosineEmbeddingLoss(margin=" << options.margin() << ")";
}
Tensor CosineEmbeddingLossImpl::forward(const Tensor& a, const Tensor& b, const Tensor& c) {
  return F::cosine_embedding_loss(a, b, c, options);
}
void MarginRankingLossImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::MarginRankingLoss()"; }
Tensor MarginRankingLossImpl::forward(const Tensor& a, const Tensor& b, const Tensor& c) {
  return F::margin_ranking_loss(a, b, c, options);
}
void TripletMarginLossImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::TripletMarginLoss(margin=" << options.margin() << ", p=" << options.p()
         << ", eps=" << std::defaultfloat << options.eps() << std::boolalpha << ", swap=" << options.swap() << ")";
}
Tensor TripletMarginLossImpl::forward(const Tensor& a, const Tensor& b, const Tensor& c) {
  return F::triplet_margin_loss(a, b, c, options);
}

void TripletMarginWithDistanceLossImpl::pretty_print(std::ostream& stream) const {
  stream << "torch::nn::TripletMarginWithDistanceLoss(margin=" << options.margin() << std::boolalpha
         << ", swap=" << options.swap() << ")";
}
Tensor TripletMarginWithDistanceLossImpl::forward(const Tensor& a, const Tensor& b, const Tensor& c) {
  return F::triplet_margin_with_distance_loss(a, b, c, options);
}

void CTCLossImpl::pretty_print(std::ostream& stream) const { stream << "torch::nn::CTCLoss()"; }
Tensor CTCLossImpl::forward(const Tensor& log_probs, const Tensor& targets, const Tensor& input_lengths,
                            const Tensor& target_lengths) {
  return F::ctc_loss(log_probs, targets, input_lengths, target_lengths, options);
}

}  // namespace torch::nn
