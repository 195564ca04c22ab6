#pragma once
// Backward recording for the shape family (ember/ops/shape/): the views, the
// multi-output views, clone/to/copy_/fill_/zero_, cat and flip. One formula
// function each, side by side in shape_grad.cpp; the layout ops (repeat, roll,
// diagonal, ...) are in shape_layout_grad.h.
#include "ember/core/tensor.h"

namespace torch::autograd {

// The views with a derivative, one value per grad_fn name; record_shape_op
// dispatches on it and names the node.
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
};

// Records out = op(self). `ints` carries the op's integer arguments (dims,
// index, ...).
void record_shape_op(ShapeGradOp op, const Tensor& self, const Tensor& out, DimVector ints = {});

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

// clone / contiguous copy ("CloneBackward0") and dtype conversion ("ToCopyBackward0"):
// the gradient passes through (the engine casts it back to the input's dtype).
void record_clone(const Tensor& self, const Tensor& out);
void record_to_copy(const Tensor& self, const Tensor& out);
// In-place writes that replace self's values: copy_ ("CopyBackwards": the
// gradient goes to src, summed to its shape; self's old values get none),
// fill_ ("FillBackward0", "FillBackward1" with a 0-dim tensor value, which gets
// grad.sum()) and zero_ ("ZeroBackward0"). `value` may be undefined.
void record_copy_(const Tensor& self, const Tensor& src);
void record_fill_(const Tensor& self, const Tensor& value);
void record_zero_(const Tensor& self);
// lengths[i]: input i's extent along dim, or -1 for an input cat skipped (legacy empty [0]).
void record_cat(TensorList inputs, const Tensor& out, int64_t dim, const DimVector& lengths);
void record_flip(const Tensor& self, const Tensor& out, IntArrayRef dims);

// Gradient of select/slice w.r.t. their input: zeros of `sizes` with `grad`
// written into the selected part. Differentiable (its own backward selects).
Tensor select_backward(const Tensor& grad, IntArrayRef sizes, int64_t dim, int64_t index);
Tensor slice_backward(const Tensor& grad, IntArrayRef sizes, int64_t dim, int64_t start, int64_t end, int64_t step);

}  // namespace torch::autograd
