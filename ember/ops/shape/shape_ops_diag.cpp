// diag, diag_embed, diagflat: vectors onto the diagonals of zero matrices and back.
// Each result is a fresh tensor (PyTorch's diag of a matrix copies too); the values
// are written through a diagonal() view of it with copy_, so the loop engine does
// the element work. Formulas: record_diag / record_diag_embed (shape_layout_grad.cpp).
#include <algorithm>
#include <cstdlib>

#include "ember/autograd/derivatives/shape_layout_grad.h"
#include "ember/autograd/formula_node.h"
#include "ember/core/checked_arith.h"
#include "ember/core/record_scope.h"
#include "ember/core/shape.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/shape/copy.h"
#include "ember/ops/shape/shape_ops.h"
#include "ember/ops/shape/view.h"
#include "ember/vmap/rules_indexing.h"

namespace torch {

namespace {
// zeros of `sizes` with `values` written onto the offset diagonal of dims (dim1, dim2).
Tensor embed(const Tensor& values, IntArrayRef sizes, int64_t offset, int64_t dim1, int64_t dim2) {
  Tensor r = zeros(sizes, values.options());
  autograd::BelowAutogradGuard ng;
  r.diagonal(offset, dim1, dim2).copy_(values);
  return r;
}
}  // namespace

Tensor diag_embed(const Tensor& self, int64_t offset, int64_t dim1, int64_t dim2) {
  const char* op = "diag_embed";
  EMBER_CHECK(self.defined(), op, ": expected a defined tensor");
  if (batching::any_batched(self)) [[unlikely]]
    return batching::diag_embed_batched(self, offset, dim1, dim2);
  EMBER_RECORD_OP(op, self);
  const int64_t nd = self.dim() + 1;
  const int64_t a = wrap_dim(dim1, nd, op, /*scalar_as_1d=*/false), b = wrap_dim(dim2, nd, op, false);
  EMBER_CHECK(a != b, op, ": diagonal dimensions cannot be identical ", dim1, ", ", dim2);
  // The last dim of self becomes the diagonal; the others keep their order around dims a < b.
  const int64_t n = checked_add(self.size(-1), checked_abs(offset, op, "offset"), op, "diagonal size");
  DimVector sizes(self.sizes().slice(0, self.dim() - 1));
  sizes.insert(static_cast<size_t>(std::min(a, b)), n);
  sizes.insert(static_cast<size_t>(std::max(a, b)), n);
  Tensor r = embed(self, sizes, offset, a, b);
  if (autograd::needs_grad(self)) autograd::record_diag_embed(self, r, offset, a, b);
  return r;
}

Tensor diag(const Tensor& self, int64_t diagonal) {
  const char* op = "diag";
  EMBER_CHECK(self.defined(), op, ": expected a defined tensor");
  if (batching::any_batched(self)) [[unlikely]]
    return batching::diag_batched(self, diagonal);
  EMBER_RECORD_OP(op, self);
  EMBER_CHECK(self.dim() == 1 || self.dim() == 2, op, ": matrix or a vector expected, got a tensor of shape ",
              shape_str(self.sizes()), " (", self.dim(), "-D)");
  Tensor r;
  if (self.dim() == 1) {
    const int64_t n = checked_add(self.size(0), checked_abs(diagonal, op, "offset"), op, "diagonal size");
    r = embed(self, {n, n}, diagonal, 0, 1);
  } else {
    // Offsets past the matrix give an empty result, as diagonal() (torch 1.13 raises an
    // integer-overflow error for some of them; PyTorch 2 returns the empty tensor).
    autograd::BelowAutogradGuard ng;
    r = self.diagonal(diagonal, 0, 1).clone();
  }
  if (autograd::needs_grad(self)) autograd::record_diag(self, r, diagonal);
  return r;
}

Tensor diagflat(const Tensor& self, int64_t offset) {
  EMBER_CHECK(self.defined(), "diagflat: expected a defined tensor");
  return diag(self.reshape({-1}), offset);
}

Tensor Tensor::diag(int64_t diagonal) const { return ember::diag(*this, diagonal); }
Tensor Tensor::diag_embed(int64_t offset, int64_t dim1, int64_t dim2) const {
  return ember::diag_embed(*this, offset, dim1, dim2);
}
Tensor Tensor::diagflat(int64_t offset) const { return ember::diagflat(*this, offset); }

}  // namespace torch
