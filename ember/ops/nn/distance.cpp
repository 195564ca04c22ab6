#include "ember/ops/nn/distance.h"

#include "ember/core/error.h"
#include "ember/core/shape.h"
#include "ember/ops/elementwise/operators.h"
#include "ember/ops/elementwise/unary.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/index/indexing.h"
#include "ember/ops/matmul/matmul.h"
#include "ember/ops/reduce/reduce.h"
#include "ember/ops/shape/triangle_indices.h"
#include "ember/ops/shape/view.h"
#include "ember/vmap/batched_tensor.h"

namespace torch {

Tensor dist(const Tensor& self, const Tensor& other, const Scalar& p) {
  EMBER_CHECK(self.defined() && other.defined(), "dist: expected defined tensors");
  broadcast_shapes(self.sizes(), other.sizes(), "dist");  // named as dist, not as the "sub" inside
  return (self - other).norm(p);
}

namespace {
// sqrt that is 0, with a zero gradient, where its argument is <= 0 (coincident
// points; the argument can come out slightly negative from rounding).
Tensor safe_sqrt(const Tensor& d2) {
  const Tensor pos = d2 > 0;
  return where(pos, sqrt(where(pos, d2, ones({}, d2.options()))), zeros({}, d2.options()));
}
}  // namespace

Tensor cdist(const Tensor& x1, const Tensor& x2, double p, std::optional<int64_t> compute_mode) {
  EMBER_CHECK(x1.defined() && x2.defined(), "cdist: expected defined tensors");
  EMBER_CHECK(x1.dim() >= 2, "cdist: only supports at least 2D tensors, X1 got: ", x1.dim(), "D");
  EMBER_CHECK(x2.dim() >= 2, "cdist: only supports at least 2D tensors, X2 got: ", x2.dim(), "D");
  EMBER_CHECK(x1.size(-1) == x2.size(-1), "cdist: X1 and X2 must have the same number of columns. X1: ", x1.size(-1),
              " X2: ", x2.size(-1));
  EMBER_CHECK(x1.is_floating_point() && x2.is_floating_point(),
              "cdist: only supports floating-point dtypes, X1 got: ", x1.dtype(), ", X2 got: ", x2.dtype());
  EMBER_CHECK(x1.scalar_type() == x2.scalar_type(), "cdist: X1 and X2 must have the same dtype, got ", x1.dtype(),
              " and ", x2.dtype());
  EMBER_CHECK(p >= 0, "cdist: only supports non-negative p values, got ", p);
  const int64_t mode = compute_mode.value_or(0);
  EMBER_CHECK(mode >= 0 && mode <= 2, "cdist: ", mode, " is not a valid value for compute_mode");
  const int64_t P = x1.size(-2), R = x2.size(-2);
  const bool use_mm = p == 2 && (mode == 1 || (mode == 0 && (P > 25 || R > 25)));
  if (use_mm) {
    // |a - b|^2 = |a|^2 - 2 a.b + |b|^2: one matrix product instead of a P x R x M difference.
    const Tensor n1 = (x1 * x1).sum({-1}, true), n2 = (x2 * x2).sum({-1}, true);
    const Tensor d2 = n1 - 2 * matmul(x1, x2.transpose(-2, -1)) + n2.transpose(-2, -1);
    return safe_sqrt(d2);
  }
  const Tensor diff = x1.unsqueeze(-2) - x2.unsqueeze(-3);  // [..., P, R, M]
  return diff.norm(Scalar(p), {-1});
}

Tensor renorm(const Tensor& self, const Scalar& p, int64_t dim, const Scalar& maxnorm) {
  EMBER_CHECK(self.defined(), "renorm: expected a defined tensor");
  EMBER_CHECK(!p.isComplex() && p.toDouble() > 0, "renorm: non-positive-norm not supported (p = ", p, ")");
  EMBER_CHECK(!maxnorm.isComplex() && maxnorm.toDouble() >= 0, "renorm: expected maxnorm to be >= 0 but got ", maxnorm);
  EMBER_CHECK(self.dim() > 1, "renorm: input needs at least 2 dimensions, got ", self.dim(), " dimensions (shape ",
              shape_str(self.sizes()), ")");
  EMBER_CHECK(self.is_floating_point() || self.is_complex(), "renorm: not implemented for dtype ", self.dtype());
  const int64_t d = wrap_dim(dim, self.dim(), "renorm");
  DimVector others;
  for (int64_t i = 0; i < self.dim(); ++i)
    if (i != d) others.push_back(i);
  const Tensor norms = self.norm(p, others, /*keepdim=*/true);
  const double mx = maxnorm.toDouble();
  // PyTorch's factor: maxnorm / (norm + 1e-7) for the slices over the limit.
  const Tensor factor = where(norms > mx, mx / (norms + 1e-7), ones({}, norms.options()));
  return self * factor;
}

Tensor Tensor::dist(const Tensor& other, const Scalar& p) const { return ember::dist(*this, other, p); }
Tensor Tensor::renorm(const Scalar& p, int64_t dim, const Scalar& maxnorm) const {
  return ember::renorm(*this, p, dim, maxnorm);
}

Tensor pdist(const Tensor& self, double p) {
  EMBER_CHECK(self.defined(), "pdist: expected a defined tensor");
  EMBER_CHECK(self.dim() == 2, "pdist: only supports 2D tensors, got: ", self.dim(), "D (shape ",
              shape_str(self.sizes()), ")");
  EMBER_CHECK(self.is_floating_point(), "pdist: only supports floating-point dtypes, got ", self.dtype());
  EMBER_CHECK(p >= 0, "pdist: only supports non-negative p values, got ", p);
  EMBER_RECORD_COMPOSITE_OP("pdist", self);
  const Tensor pairs = triu_indices(self.size(0), self.size(0), 1);
  const Tensor diff = self.index_select(0, pairs[0]) - self.index_select(0, pairs[1]);
  return diff.norm(p, {1});
}

}  // namespace torch
