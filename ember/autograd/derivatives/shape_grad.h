#pragma once
// Backward recording for the irregular ops (views, reductions, where, conj):
// one formula function each, side by side in shape_grad.cpp.
#include "ember/core/tensor.h"

namespace ember::autograd {

// The view/reduction ops with a derivative; record_shape_op dispatches on it.
enum class ShapeGradOp {
  View,       // view, reshape, flatten, unflatten, view_as: grad.reshape(self sizes)
  Expand,     // grad summed back to self's sizes
  Squeeze,    // grad.reshape(self sizes)
  Unsqueeze,  // grad.squeeze(dim)
  Transpose,  // grad.transpose(d0, d1)
  Permute,    // grad.permute(inverse)
  Select,     // select_backward(grad, sizes, dim, index)
  Slice,      // slice_backward(grad, sizes, dim, start, end, step)
  Sum,        // grad expanded over the reduced dims
  Mean,       // as Sum, divided by the count
  Amax,       // amax/amin/max()/min(): grad shared evenly by the extreme elements
  LogSumExp,  // grad * exp(self - result)
  Var,        // grad * 2 (self - mean) / (N - correction)
  Std,        // grad * (self - mean) / ((N - correction) * result)
};

// Records out = op(self). `ints` carries the op's integer arguments (dims,
// index, ...), `mask` the reduced dims of Sum/Mean.
void record_shape_op(ShapeGradOp op, const char* node_name, const Tensor& self, const Tensor& out, DimVector ints = {},
                     uint64_t mask = 0, bool keepdim = false, double correction = 0);

// Note [Multi-output views]
// split, split_with_sizes, chunk and unbind cut self into pieces that share one
// node, as PyTorch's SplitBackward0 / UnbindBackward0: the gradient is built
// once and each piece's gradient copied into its part (zeros for a piece
// without one). A node per piece would zero-fill a self-sized gradient for
// every piece and sum them, quadratic in the number of pieces; for attention's
// packed q|k|v heads that was a fifth of the layer's non-GEMM backward. The
// gradient is allocated in self's layout when self is dense (a permuted view
// of a GEMM output gets its gradient back in the GEMM's layout, so the views'
// backwards above it copy nothing). The pieces themselves are cut by the
// public view ops (the profiler records them, as PyTorch's) below autograd
// and then recorded here; unlike PyTorch, an in-place write to a piece is
// allowed (its history is rebuilt from the base, Note [Views and in-place]).
enum class PiecesOp {
  Split,   // pieces along ints[0] of lengths ints[1..]: gradient concatenated
  Unbind,  // every index of dim ints[0]: gradient stacked
};
void record_pieces(PiecesOp op, const char* node_name, const Tensor& self, TensorList pieces, DimVector ints);

// out = where(cond, self, other); either value operand may be undefined (a Scalar).
void record_where(const Tensor& cond, const Tensor& self, const Tensor& other, const Tensor& out);
// out = beta * init + alpha * (a @ b) over batched matrices (the matmul family's
// one GEMM path); `init` may be undefined. `name` is the grad_fn name.
void record_gemm(const char* name, const Tensor& a, const Tensor& b, const Tensor& init, const Tensor& out,
                 const Scalar& alpha, const Scalar& beta);
// out = conj(self) for complex self.
void record_conj(const Tensor& self, const Tensor& out);

// Gradient of select/slice w.r.t. their input: zeros of `sizes` with `grad`
// written into the selected part. Differentiable (its own backward selects).
Tensor select_backward(const Tensor& grad, IntArrayRef sizes, int64_t dim, int64_t index);
Tensor slice_backward(const Tensor& grad, IntArrayRef sizes, int64_t dim, int64_t start, int64_t end, int64_t step);

}  // namespace ember::autograd
