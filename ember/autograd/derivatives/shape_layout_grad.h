#pragma once
// Backward recording for the shape family's layout ops (ember/ops/shape/) that
// are not plain views of one argument list: repeat/tile, roll, tril/triu,
// diagonal, diag/diag_embed, unfold and as_strided. Formulas in
// shape_layout_grad.cpp, made of differentiable ops.
#include "ember/core/tensor.h"

namespace torch::autograd {

void record_repeat(const Tensor& self, const Tensor& out, IntArrayRef repeats);
// dims empty: roll of the flattened tensor (shifts has one entry).
void record_roll(const Tensor& self, const Tensor& out, IntArrayRef shifts, IntArrayRef dims);
// tril/triu and their in-place forms (self is then both input and output).
void record_triangle(const Tensor& self, const Tensor& out, int64_t diagonal, bool lower);
// dim1/dim2 wrapped.
void record_diagonal(const Tensor& self, const Tensor& out, int64_t offset, int64_t dim1, int64_t dim2);
// diag ("DiagBackward0"): a 1-D self gets grad's diagonal, a 2-D self the gradient
// placed on its diagonal. diag_embed ("DiagEmbedBackward0", dims wrapped): grad's diagonal.
void record_diag(const Tensor& self, const Tensor& out, int64_t diagonal);
void record_diag_embed(const Tensor& self, const Tensor& out, int64_t offset, int64_t dim1, int64_t dim2);
// dim wrapped (0 for a 0-dim self).
void record_unfold(const Tensor& self, const Tensor& out, int64_t dim, int64_t size, int64_t step);
// out = self.as_strided(...): the gradient goes through the storage positions
// both read. A self whose own elements overlap in memory has no well-defined
// gradient here: its node raises on backward.
void record_as_strided(const Tensor& self, const Tensor& out);

// Gradient of diagonal w.r.t. its input: zeros of `sizes` with `grad` on the
// diagonal. Differentiable (its own backward takes the diagonal again).
Tensor diagonal_backward(const Tensor& grad, IntArrayRef sizes, int64_t offset, int64_t dim1, int64_t dim2);

}  // namespace torch::autograd
