#pragma once
// Backward recording for the elementwise ops (ember/ops/elementwise/) that the
// two tables (unary_grad.cpp, binary_grad.cpp) do not cover: lerp, addcmul,
// addcdiv, clamp with Scalar and tensor bounds, round, nan_to_num, angle, conj,
// the complex views, complex/polar, the activations with arguments and
// polygamma. One formula function each, in elementwise_grad.cpp; the engine
// sums broadcast gradients back to each input's shape. In-place forms pass
// `self` (after the kernel) as both input and output, and call check_inplace
// before the kernel.
#include <optional>

#include "ember/core/tensor.h"

namespace torch::autograd {

// weight undefined: the Scalar form ("LerpBackward0"), else "LerpBackward1".
// `self_value` is self's value before an in-place update (read by the tensor-weight form).
void record_lerp(const Tensor& self, const Tensor& self_value, const Tensor& end, const Scalar& scalar_weight,
                 const Tensor& weight, const Tensor& out);
void record_addcmul(const Tensor& self, const Tensor& t1, const Tensor& t2, const Scalar& value, const Tensor& out);
void record_addcdiv(const Tensor& self, const Tensor& t1, const Tensor& t2, const Scalar& value, const Tensor& out);
// clamp with Scalar bounds (either may be absent), "ClampBackward1".
void record_clamp(const Tensor& self, const Tensor& out, const std::optional<Scalar>& min,
                  const std::optional<Scalar>& max);
// clamp with Scalar bounds where record_clamp does not fit: clamp_min/clamp_max
// ("ClampMinBackward0", "ClampMaxBackward0") and the in-place clamp_ ("ClampBackward1";
// `self_value`: self before the update). Either bound may be absent.
enum class ClampOp { Clamp, ClampMin, ClampMax };
void record_clamp_scalar(ClampOp op, const Tensor& self, const Tensor& self_value, const std::optional<Scalar>& min,
                         const std::optional<Scalar>& max, const Tensor& out);
// clamp(self, min, max) with tensor bounds; either bound may be undefined
// ("ClampBackward0", "ClampMinBackward1", "ClampMaxBackward1").
void record_clamp_tensor(const Tensor& self, const Tensor& self_value, const Tensor& min, const Tensor& max,
                         const Tensor& out);
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
// out = conj(self) for complex self.
void record_conj(const Tensor& self, const Tensor& out);
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

}  // namespace torch::autograd
