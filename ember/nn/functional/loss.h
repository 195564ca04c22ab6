#pragma once
// nn::functional losses and distances, as torch::nn::functional:
// F::cross_entropy(x, t, F::CrossEntropyFuncOptions().label_smoothing(0.1)).
// Each maps its options onto the op in ember/ops/nn/loss.h.
#include <optional>

#include "ember/core/error.h"
#include "ember/core/tensor.h"
#include "ember/nn/functional/distance.h"
#include "ember/nn/options/loss.h"
#include "ember/ops/all_ops.h"

namespace torch::nn::functional {

namespace detail {
// Options hold an undefined Tensor for "no weight"; the ops take an optional.
inline std::optional<Tensor> opt(const Tensor& t) { return t.defined() ? std::optional<Tensor>(t) : std::nullopt; }
}  // namespace detail

inline Tensor l1_loss(const Tensor& input, const Tensor& target, const L1LossFuncOptions& options = {}) {
  return ember::l1_loss(input, target, reduction_value(options.reduction()));
}
inline Tensor mse_loss(const Tensor& input, const Tensor& target, const MSELossFuncOptions& options = {}) {
  return ember::mse_loss(input, target, reduction_value(options.reduction()));
}
inline Tensor soft_margin_loss(const Tensor& input, const Tensor& target,
                               const SoftMarginLossFuncOptions& options = {}) {
  return ember::soft_margin_loss(input, target, reduction_value(options.reduction()));
}
inline Tensor multilabel_margin_loss(const Tensor& input, const Tensor& target,
                                     const MultilabelMarginLossFuncOptions& options = {}) {
  return ember::multilabel_margin_loss(input, target, reduction_value(options.reduction()));
}
inline Tensor smooth_l1_loss(const Tensor& input, const Tensor& target, const SmoothL1LossFuncOptions& options = {}) {
  return ember::smooth_l1_loss(input, target, reduction_value(options.reduction()), options.beta());
}
// LibTorch 1.13's form with beta apart from the options (which it overrides).
inline Tensor smooth_l1_loss(const Tensor& input, const Tensor& target, const SmoothL1LossFuncOptions& options,
                             double beta) {
  return ember::smooth_l1_loss(input, target, reduction_value(options.reduction()), beta);
}
inline Tensor huber_loss(const Tensor& input, const Tensor& target, const HuberLossFuncOptions& options = {}) {
  return ember::huber_loss(input, target, reduction_value(options.reduction()), options.delta());
}

// kBatchMean divides the summed loss by the batch size, as torch.nn.functional.kl_div.
inline Tensor kl_div(const Tensor& input, const Tensor& target, const KLDivFuncOptions& options = {}) {
  if (std::holds_alternative<enumtype::kBatchMean>(options.reduction())) {
    Tensor sum = ember::kl_div(input, target, Reduction::Sum, options.log_target());
    return input.dim() == 0 ? sum : sum / input.size(0);
  }
  int64_t r = std::visit(
      [](auto tag) -> int64_t {
        using T = decltype(tag);
        if constexpr (std::is_same_v<T, enumtype::kNone>)
          return Reduction::None;
        else if constexpr (std::is_same_v<T, enumtype::kSum>)
          return Reduction::Sum;
        else
          return Reduction::Mean;
      },
      options.reduction());
  return ember::kl_div(input, target, r, options.log_target());
}

inline Tensor binary_cross_entropy(const Tensor& input, const Tensor& target,
                                   const BinaryCrossEntropyFuncOptions& options = {}) {
  return ember::binary_cross_entropy(input, target, detail::opt(options.weight()),
                                     reduction_value(options.reduction()));
}
inline Tensor binary_cross_entropy_with_logits(const Tensor& input, const Tensor& target,
                                               const BinaryCrossEntropyWithLogitsFuncOptions& options = {}) {
  return ember::binary_cross_entropy_with_logits(input, target, detail::opt(options.weight()),
                                                 detail::opt(options.pos_weight()),
                                                 reduction_value(options.reduction()));
}
inline Tensor hinge_embedding_loss(const Tensor& input, const Tensor& target,
                                   const HingeEmbeddingLossFuncOptions& options = {}) {
  return ember::hinge_embedding_loss(input, target, options.margin(), reduction_value(options.reduction()));
}
inline Tensor multi_margin_loss(const Tensor& input, const Tensor& target,
                                const MultiMarginLossFuncOptions& options = {}) {
  return ember::multi_margin_loss(input, target, options.p(), options.margin(), detail::opt(options.weight()),
                                  reduction_value(options.reduction()));
}
inline Tensor cosine_embedding_loss(const Tensor& input1, const Tensor& input2, const Tensor& target,
                                    const CosineEmbeddingLossFuncOptions& options = {}) {
  return ember::cosine_embedding_loss(input1, input2, target, options.margin(), reduction_value(options.reduction()));
}
inline Tensor multilabel_soft_margin_loss(const Tensor& input, const Tensor& target,
                                          const MultilabelSoftMarginLossFuncOptions& options = {}) {
  return ember::multilabel_soft_margin_loss(input, target, detail::opt(options.weight()),
                                            reduction_value(options.reduction()));
}
inline Tensor triplet_margin_loss(const Tensor& anchor, const Tensor& positive, const Tensor& negative,
                                  const TripletMarginLossFuncOptions& options = {}) {
  return ember::triplet_margin_loss(anchor, positive, negative, options.margin(), options.p(), options.eps(),
                                    options.swap(), reduction_value(options.reduction()));
}
// max(d(a, p) - d(a, n) + margin, 0) reduced, with d the given distance (pairwise_distance by
// default); `swap` uses min(d(a, n), d(p, n)) (torch.nn.functional.triplet_margin_with_distance_loss).
inline Tensor triplet_margin_with_distance_loss(const Tensor& anchor, const Tensor& positive, const Tensor& negative,
                                                const TripletMarginWithDistanceLossFuncOptions& options = {}) {
  const auto dist = [&](const Tensor& x, const Tensor& y) {
    return options.distance_function().has_value() ? (*options.distance_function())(x, y)
                                                   : ember::pairwise_distance(x, y);
  };
  EMBER_CHECK(options.margin() > 0, "triplet_margin_with_distance_loss: margin must be greater than 0, got ",
              options.margin());
  const Tensor positive_dist = dist(anchor, positive);
  Tensor negative_dist = dist(anchor, negative);
  if (options.swap()) negative_dist = ember::min(negative_dist, dist(positive, negative));
  const Tensor loss = ember::clamp_min(options.margin() + positive_dist - negative_dist, 0);
  switch (reduction_value(options.reduction())) {
    case Reduction::None:
      return loss;
    case Reduction::Sum:
      return loss.sum();
    default:
      return loss.mean();
  }
}
inline Tensor ctc_loss(const Tensor& log_probs, const Tensor& targets, const Tensor& input_lengths,
                       const Tensor& target_lengths, const CTCLossFuncOptions& options = {}) {
  return ember::ctc_loss(log_probs, targets, input_lengths, target_lengths, options.blank(),
                         reduction_value(options.reduction()), options.zero_infinity());
}
inline Tensor poisson_nll_loss(const Tensor& input, const Tensor& target,
                               const PoissonNLLLossFuncOptions& options = {}) {
  return ember::poisson_nll_loss(input, target, options.log_input(), options.full(), options.eps(),
                                 reduction_value(options.reduction()));
}
inline Tensor margin_ranking_loss(const Tensor& input1, const Tensor& input2, const Tensor& target,
                                  const MarginRankingLossFuncOptions& options = {}) {
  return ember::margin_ranking_loss(input1, input2, target, options.margin(), reduction_value(options.reduction()));
}
inline Tensor nll_loss(const Tensor& input, const Tensor& target, const NLLLossFuncOptions& options = {}) {
  return ember::nll_loss(input, target, detail::opt(options.weight()), reduction_value(options.reduction()),
                         options.ignore_index());
}
inline Tensor cross_entropy(const Tensor& input, const Tensor& target, const CrossEntropyFuncOptions& options = {}) {
  return ember::cross_entropy_loss(input, target, detail::opt(options.weight()), reduction_value(options.reduction()),
                                   options.ignore_index(), options.label_smoothing());
}

// input / max(||input||_p over dim, eps), as torch.nn.functional.normalize.
inline Tensor normalize(const Tensor& input, const NormalizeFuncOptions& options = {}) {
  Tensor denom = ember::norm(input, Scalar(options.p()), {options.dim()}, /*keepdim=*/true)
                     .clamp_min(options.eps())
                     .expand_as(input);
  if (options.out().has_value()) {
    Tensor out = *options.out();
    return ember::div_out(out, input, denom);
  }
  return input / denom;
}
inline Tensor one_hot(const Tensor& tensor, int64_t num_classes = -1) { return ember::one_hot(tensor, num_classes); }

}  // namespace torch::nn::functional
