// Distances and the losses built on them, as compositions of differentiable ops.
#include <cmath>
#include <limits>
#include "ember/core/record_scope.h"

#include "ember/autograd/formula_node.h"
#include "ember/autograd/forward_ad.h"
#include "ember/autograd/grad_mode.h"
#include "ember/autograd/node.h"
#include "ember/core/dispatch.h"
#include "ember/core/error.h"
#include "ember/core/parallel.h"
#include "ember/core/shape.h"
#include "ember/core/tensor.h"
#include "ember/ops/all_ops.h"
#include "ember/ops/nn/loss.h"
#include "ember/vmap/batched_tensor.h"
#include "ember/vmap/vmap.h"

namespace torch {

namespace {

// ||d||_p along `dim`, written with differentiable ops (norm itself has no formula yet).
Tensor pnorm(const Tensor& d, double p, int64_t dim, bool keepdim) {
  if (p == 2) return (d * d).sum({dim}, keepdim).sqrt();
  if (p == 1) return d.abs().sum({dim}, keepdim);
  if (std::isinf(p)) return p > 0 ? d.abs().amax({dim}, keepdim) : d.abs().amin({dim}, keepdim);
  if (p == 0) return (d != 0).sum({dim}, keepdim).to(d.scalar_type());
  return d.abs().pow(p).sum({dim}, keepdim).pow(1.0 / p);
}

}  // namespace

Tensor pairwise_distance(const Tensor& x1, const Tensor& x2, double p, double eps, bool keepdim) {
  EMBER_RECORD_COMPOSITE_OP("pairwise_distance", x1, x2);
  EMBER_CHECK(x1.defined() && x2.defined(), "pairwise_distance: expected defined inputs");
  const int64_t out_dim = std::max(x1.dim(), x2.dim());
  EMBER_CHECK(p >= 0, "pairwise_distance: p must be non-negative, got ", p);
  // 0-dim inputs: PyTorch takes the norm over the (absent) last dim of the difference.
  if (out_dim == 0) {
    const Tensor d = x1 - x2 + eps;
    return pnorm(d.reshape({1}), p, 0, false);
  }
  return pnorm(x1 - x2 + eps, p, out_dim - 1, keepdim);
}

Tensor cosine_similarity(const Tensor& x1_in, const Tensor& x2_in, int64_t dim, double eps) {
  EMBER_RECORD_COMPOSITE_OP("cosine_similarity", x1_in, x2_in);
  EMBER_CHECK(x1_in.defined() && x2_in.defined(), "cosine_similarity: expected defined inputs");
  const ScalarType common = result_type(x1_in, x2_in);
  EMBER_CHECK(is_floating_point(common),
              "cosine_similarity: expected common dtype to be floating point, yet common dtype is ",
              dtype_name(common));
  const DimVector shape = broadcast_shapes(x1_in.sizes(), x2_in.sizes(), "cosine_similarity");
  const Tensor x1 = x1_in.to(common).expand(shape);
  const Tensor x2 = x2_in.to(common).expand(shape);
  const int64_t d = wrap_dim(dim, static_cast<int64_t>(shape.size()), "cosine_similarity");
  // As PyTorch 1.13: x1.x2 / (max(|x1|, eps) max(|x2|, eps)), each norm clamped on its
  // own. Clamping the squared norms before the square root gives the same values and a
  // zero (not 0 * inf) gradient through a clamped norm.
  const Tensor w12 = (x1 * x2).sum({d});
  const Tensor w1 = (x1 * x1).sum({d});
  const Tensor w2 = (x2 * x2).sum({d});
  return w12 / (clamp(w1, eps * eps).sqrt() * clamp(w2, eps * eps).sqrt());
}

Tensor cosine_embedding_loss(const Tensor& input1, const Tensor& input2, const Tensor& target, double margin,
                             int64_t reduction) {
  EMBER_RECORD_COMPOSITE_OP("cosine_embedding_loss", input1, input2, target);
  EMBER_CHECK(input1.defined() && input2.defined() && target.defined(),
              "cosine_embedding_loss: expected defined inputs and target");
  const int64_t tdim = target.dim();
  EMBER_CHECK(tdim == 1 || tdim == 0,
              "cosine_embedding_loss: 0D or 1D target tensor expected, multi-target not supported, got ",
              shape_str(target.sizes()));
  if (tdim == 1) {
    EMBER_CHECK(input1.dim() == 2 && input2.dim() == 2,
                "cosine_embedding_loss: 1D target tensor expects 2D input tensors, but found inputs with sizes ",
                shape_str(input1.sizes()), " and ", shape_str(input2.sizes()));
  } else {
    EMBER_CHECK(input1.dim() == 1 && input2.dim() == 1,
                "cosine_embedding_loss: 0D target tensor expects 1D input tensors, but found inputs with sizes ",
                shape_str(input1.sizes()), " and ", shape_str(input2.sizes()));
  }
  constexpr double kEps = 1e-12;
  const Tensor prod_sum = (input1 * input2).sum({tdim});
  const Tensor mag1 = (input1 * input1).sum({tdim}) + kEps;
  const Tensor mag2 = (input2 * input2).sum({tdim}) + kEps;
  const Tensor cos = prod_sum / (mag1 * mag2).sqrt();
  const Tensor zero = zeros_like(cos);
  const Tensor pos = 1 - cos;
  const Tensor neg = clamp(cos - margin, 0.0);
  const Tensor out = where(target == 1, pos, zero) + where(target == -1, neg, zero);
  return ops::apply_loss_reduction(out, reduction, "cosine_embedding_loss");
}

Tensor triplet_margin_loss(const Tensor& anchor, const Tensor& positive, const Tensor& negative, double margin,
                           double p, double eps, bool swap, int64_t reduction) {
  EMBER_RECORD_COMPOSITE_OP("triplet_margin_loss", anchor, positive, negative);
  EMBER_CHECK(anchor.defined() && positive.defined() && negative.defined(),
              "triplet_margin_loss: expected defined anchor, positive and negative");
  EMBER_CHECK(anchor.dim() == positive.dim() && anchor.dim() == negative.dim(),
              "triplet_margin_loss: The anchor, positive, and negative tensors are expected to have the same number "
              "of dimensions, but got: anchor ",
              anchor.dim(), "D, positive ", positive.dim(), "D, and negative ", negative.dim(), "D inputs");
  const Tensor dist_pos = pairwise_distance(anchor, positive, p, eps);
  Tensor dist_neg = pairwise_distance(anchor, negative, p, eps);
  if (swap) dist_neg = minimum(dist_neg, pairwise_distance(positive, negative, p, eps));
  const Tensor out = clamp(dist_pos - dist_neg + margin, 0.0);
  return ops::apply_loss_reduction(out, reduction, "triplet_margin_loss");
}

}  // namespace torch
