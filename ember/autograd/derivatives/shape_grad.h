#pragma once
// Backward recording for the irregular ops (views, reductions, where, conj):
// one formula function each, side by side in shape_grad.cpp.
#include "ember/core/tensor.h"

namespace ember::autograd {

// The view/reduction ops with a derivative, one value per grad_fn name;
// record_shape_op dispatches on it and names the node.
enum class ShapeGradOp {
  View,        // ViewBackward0 (view, flatten, unflatten, view_as): grad.reshape(self sizes)
  UnsafeView,  // UnsafeViewBackward0 (reshape that copies): as View
  Expand,      // ExpandBackward0: grad summed back to self's sizes
  Squeeze,     // SqueezeBackward0 (squeeze()): grad.reshape(self sizes)
  SqueezeDim,  // SqueezeBackward1 (squeeze(dim)): as Squeeze
  Unsqueeze,   // UnsqueezeBackward0: grad.squeeze(dim)
  Transpose,   // TransposeBackward0: grad.transpose(d0, d1)
  Permute,     // PermuteBackward0: grad.permute(inverse)
  Select,      // SelectBackward0: select_backward(grad, sizes, dim, index)
  Slice,       // SliceBackward0: slice_backward(grad, sizes, dim, start, end, step)
  Sum,         // SumBackward0 (sum()): grad expanded over the reduced dims
  SumDim,      // SumBackward1 (sum(dim)): as Sum
  Mean,        // MeanBackward0 (mean()): as Sum, divided by the count
  MeanDim,     // MeanBackward1 (mean(dim)): as Mean
  Amax,        // AmaxBackward0: grad shared evenly by the extreme elements
  Amin,        // AminBackward0: as Amax
  MaxAll,      // MaxBackward1 (max()): as Amax
  MinAll,      // MinBackward1 (min()): as Amax
  LogSumExp,   // LogsumexpBackward0: grad * exp(self - result)
  Var,         // VarBackward0: grad * 2 (self - mean) / (N - correction)
  Std,         // StdBackward0: grad * (self - mean) / ((N - correction) * result)
};

// Records out = op(self). `ints` carries the op's integer arguments (dims,
// index, ...), `mask` the reduced dims of the reductions.
void record_shape_op(ShapeGradOp op, const Tensor& self, const Tensor& out, DimVector ints = {}, uint64_t mask = 0,
                     bool keepdim = false, double correction = 0);

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
  Split,           // SplitBackward0 (split, chunk): pieces along ints[0] of lengths ints[1..], gradient concatenated
  SplitWithSizes,  // SplitWithSizesBackward0: as Split
  Unbind,          // UnbindBackward0: every index of dim ints[0], gradient stacked
};
void record_pieces(PiecesOp op, const Tensor& self, TensorList pieces, DimVector ints);

// out = where(cond, self, other); either value operand may be undefined (a Scalar).
void record_where(const Tensor& cond, const Tensor& self, const Tensor& other, const Tensor& out);
// out = beta * init + alpha * (a @ b) over batched matrices (the matmul family's
// one GEMM path); `init` may be undefined. `op` is the aten op's name ("addmm"),
// which picks the grad_fn name ("AddmmBackward0"; unknown names: "MmBackward0").
void record_gemm(const char* op, const Tensor& a, const Tensor& b, const Tensor& init, const Tensor& out,
                 const Scalar& alpha, const Scalar& beta);
// out = conj(self) for complex self.
void record_conj(const Tensor& self, const Tensor& out);

// Gradient of select/slice w.r.t. their input: zeros of `sizes` with `grad`
// written into the selected part. Differentiable (its own backward selects).
Tensor select_backward(const Tensor& grad, IntArrayRef sizes, int64_t dim, int64_t index);
Tensor slice_backward(const Tensor& grad, IntArrayRef sizes, int64_t dim, int64_t start, int64_t end, int64_t step);

}  // namespace ember::autograd
