#pragma once
// Backward recording for ops with arguments that the family tables do not
// cover: activations with parameters, clamp, cat, flip, cumsum and the
// indexing ops. One formula function each, in misc_grad.cpp.
#include <string_view>

#include "ember/core/tensor.h"

namespace ember::autograd {

// clone / contiguous copy ("CloneBackward0") and dtype conversion ("ToCopyBackward0"):
// the gradient passes through (the engine casts it back to the input's dtype).
void record_clone(const Tensor& self, const Tensor& out);
void record_to_copy(const Tensor& self, const Tensor& out);
// In-place writes that replace self's values: copy_ ("CopyBackwards": the
// gradient goes to src, summed to its shape; self's old values get none),
// fill_/zero_ ("FillBackward0"/"ZeroBackward0", "FillBackward1" with a 0-dim
// tensor value, which gets grad.sum()). `value` may be undefined.
void record_copy_(const Tensor& self, const Tensor& src);
void record_fill_(const Tensor& self, const Tensor& value);
void record_zero_(const Tensor& self);
// An op PyTorch gives no derivative (its grad_fn is NotImplemented): the
// forward runs, and a backward or a tangent through the node raises with
// `reason`.
void record_not_implemented(const char* reason, TensorList inputs, const Tensor& out);
// round ("RoundBackward0"/"RoundBackward1" with decimals): a zero gradient,
// as PyTorch. nan_to_num: the gradient passes where self is finite. angle:
// zero for real inputs; for complex ones PyTorch's angle_backward.
void record_round(const Tensor& self, const Tensor& out, bool with_decimals);
void record_nan_to_num(const Tensor& self, const Tensor& out);
void record_angle(const Tensor& self, const Tensor& out);
// The dtype-changing views between complex and real (RealBackward0, ...).
enum class ComplexView { Real, Imag, ViewAsReal, ViewAsComplex };
void record_complex_view(ComplexView kind, const Tensor& self, const Tensor& out);
// out = complex(re, im) / polar(abs, angle) (real inputs, complex output).
void record_complex(const Tensor& re, const Tensor& im, const Tensor& out);
void record_polar(const Tensor& abs, const Tensor& angle, const Tensor& out);
void record_gelu(const Tensor& self, const Tensor& out, bool tanh_approx);
void record_softplus(const Tensor& self, const Tensor& out, double beta, double threshold);
void record_elu(const Tensor& self, const Tensor& out, double alpha, double scale, double input_scale);
void record_leaky_relu(const Tensor& self, const Tensor& out, double slope);
void record_logit(const Tensor& self, const Tensor& out, std::optional<double> eps);
// polygamma(n, self) ("PolygammaBackward0"): grad * polygamma(n + 1, self), itself
// differentiable. self_value: self, or for polygamma_ a copy taken before the write.
void record_polygamma(const Tensor& self, const Tensor& self_value, const Tensor& out, int64_t n);
// clamp with Scalar bounds (either may be absent).
void record_clamp(const Tensor& self, const Tensor& out, const std::optional<Scalar>& min,
                  const std::optional<Scalar>& max);
// lengths[i]: input i's extent along dim, or -1 for an input cat skipped (legacy empty [0]).
void record_cat(TensorList inputs, const Tensor& out, int64_t dim, const DimVector& lengths);
void record_flip(const Tensor& self, const Tensor& out, IntArrayRef dims);
void record_cumsum(const Tensor& self, const Tensor& out, int64_t dim);
void record_masked_fill(const Tensor& self, const Tensor& mask, const Tensor& out);
// Gradients for these scatter into zeros with scatter_add / index_add, which record their own
// backward (index_grad.cpp), so both are twice differentiable.
void record_index_select(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& out);
void record_gather(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& out);

}  // namespace ember::autograd
