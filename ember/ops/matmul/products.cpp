#include "ember/ops/matmul/products.h"

#include <algorithm>

#include "ember/core/checked_arith.h"
#include "ember/core/error.h"
#include "ember/core/shape.h"
#include "ember/ops/elementwise/operators.h"
#include "ember/ops/matmul/matmul.h"
#include "ember/ops/reduce/reduce.h"
#include "ember/ops/shape/view.h"

namespace torch {

Tensor trace(const Tensor& self) {
  EMBER_CHECK(self.defined(), "trace: expected a defined tensor");
  EMBER_CHECK(self.dim() == 2, "trace: expected a matrix, but got tensor with dim ", self.dim(), " (shape ",
              shape_str(self.sizes()), ")");
  return diagonal(self).sum();
}

Tensor kron(const Tensor& self, const Tensor& other) {
  EMBER_CHECK(self.defined() && other.defined(), "kron: expected defined tensors");
  const int64_t nd = std::max(self.dim(), other.dim());
  // self as [a0, 1, a1, 1, ...] and other as [1, b0, 1, b1, ...]: their
  // broadcast product is [a0, b0, a1, b1, ...], which merges to [a0*b0, ...].
  DimVector a_shape, b_shape, out_shape;
  for (int64_t i = 0; i < nd; ++i) {
    const int64_t ai = i - (nd - self.dim()), bi = i - (nd - other.dim());
    const int64_t a = ai >= 0 ? self.size(ai) : 1, b = bi >= 0 ? other.size(bi) : 1;
    a_shape.push_back(a);
    a_shape.push_back(1);
    b_shape.push_back(1);
    b_shape.push_back(b);
    out_shape.push_back(checked_mul(a, b, "kron", "output size"));
  }
  return (self.reshape(a_shape) * other.reshape(b_shape)).reshape(out_shape);
}

Tensor inner(const Tensor& self, const Tensor& other) {
  EMBER_CHECK(self.defined() && other.defined(), "inner: expected defined tensors");
  if (self.dim() == 0 || other.dim() == 0) return self * other;
  EMBER_CHECK(self.size(-1) == other.size(-1),
              "inner: the last dimension must match on both input tensors but got shapes ", shape_str(self.sizes()),
              " and ", shape_str(other.sizes()));
  return tensordot(self, other, {self.dim() - 1}, {other.dim() - 1});
}

Tensor Tensor::trace() const { return ember::trace(*this); }
Tensor Tensor::kron(const Tensor& other) const { return ember::kron(*this, other); }
Tensor Tensor::inner(const Tensor& other) const { return ember::inner(*this, other); }

}  // namespace torch
