#pragma once
// Loss functions with LibTorch's at:: names, signatures and defaults.
//   ops/nn/loss_nll.cpp       nll_loss (dedicated kernel, NllLossBackward0), cross_entropy_loss
//   ops/nn/loss_pointwise.cpp mse/l1/smooth_l1/huber, bce (+ with logits), kl_div, poisson_nll,
//                          soft_margin, margin ranking/hinge, multi(label) margin losses
//   ops/nn/loss_distance.cpp  cosine_similarity, pairwise_distance, cosine_embedding, triplet_margin
//   ops/nn/loss_ctc.cpp       ctc_loss
// Everything but nll_loss and ctc_loss composes differentiable ops, so autograd comes free.
#include <optional>

#include "ember/core/tensor.h"

namespace torch {

// As at::Reduction: torch::Reduction::Sum, passed as int64_t.
namespace Reduction {
enum Reduction { None, Mean, Sum, END };
}  // namespace Reduction

Tensor nll_loss(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight = std::nullopt,
                int64_t reduction = Reduction::Mean, int64_t ignore_index = -100);
// nll_loss accepts (N, C, d1, ...) inputs already; these are LibTorch's spellings.
Tensor nll_loss2d(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight = std::nullopt,
                  int64_t reduction = Reduction::Mean, int64_t ignore_index = -100);
Tensor nll_loss_nd(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight = std::nullopt,
                   int64_t reduction = Reduction::Mean, int64_t ignore_index = -100);
// Class indices (int64 target without the class dim) or class probabilities
// (floating target shaped like self).
Tensor cross_entropy_loss(const Tensor& self, const Tensor& target, const std::optional<Tensor>& weight = std::nullopt,
                          int64_t reduction = Reduction::Mean, int64_t ignore_index = -100,
                          double label_smoothing = 0.0);

Tensor mse_loss(const Tensor& self, const Tensor& target, int64_t reduction = Reduction::Mean);
Tensor l1_loss(const Tensor& self, const Tensor& target, int64_t reduction = Reduction::Mean);
Tensor smooth_l1_loss(const Tensor& self, const Tensor& target, int64_t reduction = Reduction::Mean, double beta = 1.0);
Tensor huber_loss(const Tensor& self, const Tensor& target, int64_t reduction = Reduction::Mean, double delta = 1.0);
Tensor binary_cross_entropy(const Tensor& self, const Tensor& target,
                            const std::optional<Tensor>& weight = std::nullopt, int64_t reduction = Reduction::Mean);
Tensor binary_cross_entropy_with_logits(const Tensor& self, const Tensor& target,
                                        const std::optional<Tensor>& weight = std::nullopt,
                                        const std::optional<Tensor>& pos_weight = std::nullopt,
                                        int64_t reduction = Reduction::Mean);
Tensor kl_div(const Tensor& self, const Tensor& target, int64_t reduction = Reduction::Mean, bool log_target = false);
Tensor poisson_nll_loss(const Tensor& input, const Tensor& target, bool log_input, bool full, double eps,
                        int64_t reduction);
Tensor soft_margin_loss(const Tensor& self, const Tensor& target, int64_t reduction = Reduction::Mean);
Tensor margin_ranking_loss(const Tensor& input1, const Tensor& input2, const Tensor& target, double margin = 0.0,
                           int64_t reduction = Reduction::Mean);
Tensor hinge_embedding_loss(const Tensor& self, const Tensor& target, double margin = 1.0,
                            int64_t reduction = Reduction::Mean);
Tensor multi_margin_loss(const Tensor& self, const Tensor& target, const Scalar& p = 1, const Scalar& margin = 1,
                         const std::optional<Tensor>& weight = std::nullopt, int64_t reduction = Reduction::Mean);
Tensor multilabel_margin_loss(const Tensor& self, const Tensor& target, int64_t reduction = Reduction::Mean);
// Functional-only in LibTorch; here for nn::functional::multilabel_soft_margin_loss to call.
Tensor multilabel_soft_margin_loss(const Tensor& self, const Tensor& target,
                                   const std::optional<Tensor>& weight = std::nullopt,
                                   int64_t reduction = Reduction::Mean);

Tensor cosine_similarity(const Tensor& x1, const Tensor& x2, int64_t dim = 1, double eps = 1e-8);
Tensor pairwise_distance(const Tensor& x1, const Tensor& x2, double p = 2, double eps = 1e-6, bool keepdim = false);
Tensor cosine_embedding_loss(const Tensor& input1, const Tensor& input2, const Tensor& target, double margin = 0.0,
                             int64_t reduction = Reduction::Mean);
Tensor triplet_margin_loss(const Tensor& anchor, const Tensor& positive, const Tensor& negative, double margin = 1.0,
                           double p = 2, double eps = 1e-6, bool swap = false, int64_t reduction = Reduction::Mean);

namespace ops {
// mean / sum / none of an elementwise loss; raises naming `op` for other values.
Tensor apply_loss_reduction(const Tensor& loss, int64_t reduction, const char* op);
// d nll_loss / d self for a unit upstream gradient: -weight[t] (/ total_weight for Mean)
// at each (sample, target) and 0 elsewhere; a constant, so backward is coef * grad.
Tensor nll_loss_coef(IntArrayRef self_sizes, ScalarType dtype, const Tensor& target, const Tensor& weight,
                     int64_t reduction, int64_t ignore_index, double total_weight);
}  // namespace ops

}  // namespace torch

namespace torch {

// CTC loss (ops/nn/loss_ctc.cpp): log_probs [T, N, C] (or [T, C]), targets [N, S] padded or the
// concatenation of all targets, lengths per batch element. Forward is the alpha recursion in
// log space, backward the beta recursion, as PyTorch. First derivatives only.
Tensor ctc_loss(const Tensor& log_probs, const Tensor& targets, IntArrayRef input_lengths, IntArrayRef target_lengths,
                int64_t blank = 0, int64_t reduction = Reduction::Mean, bool zero_infinity = false);
Tensor ctc_loss(const Tensor& log_probs, const Tensor& targets, const Tensor& input_lengths,
                const Tensor& target_lengths, int64_t blank = 0, int64_t reduction = Reduction::Mean,
                bool zero_infinity = false);

}  // namespace torch
