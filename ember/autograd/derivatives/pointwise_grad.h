#pragma once
// Backward recording for the elementwise ops with more than two operands or
// tensor bounds: lerp, addcmul, addcdiv and clamp with tensor min/max.
// Formulas in pointwise_grad.cpp; the engine sums broadcast gradients back
// to each input's shape. In-place forms pass `self` (after the kernel) as
// both input and output, and call check_inplace before the kernel.
#include "ember/core/tensor.h"

namespace ember::autograd {

// weight undefined: the Scalar form ("LerpBackward0"), else "LerpBackward1".
// `self_value` is self's value before an in-place update (read by the tensor-weight form).
void record_lerp(const Tensor& self, const Tensor& self_value, const Tensor& end, const Scalar& scalar_weight,
                 const Tensor& weight, const Tensor& out);
void record_addcmul(const Tensor& self, const Tensor& t1, const Tensor& t2, const Scalar& value, const Tensor& out);
void record_addcdiv(const Tensor& self, const Tensor& t1, const Tensor& t2, const Scalar& value, const Tensor& out);
// clamp with Scalar bounds where misc_grad's record_clamp does not fit: clamp_min/clamp_max
// ("ClampMinBackward0", "ClampMaxBackward0") and the in-place clamp_ ("ClampBackward1";
// `self_value`: self before the update). Either bound may be absent.
enum class ClampOp { Clamp, ClampMin, ClampMax };
void record_clamp_scalar(ClampOp op, const Tensor& self, const Tensor& self_value, const std::optional<Scalar>& min,
                         const std::optional<Scalar>& max, const Tensor& out);
// clamp(self, min, max) with tensor bounds; either bound may be undefined
// ("ClampBackward0", "ClampMinBackward1", "ClampMaxBackward1").
void record_clamp_tensor(const Tensor& self, const Tensor& self_value, const Tensor& min, const Tensor& max,
                         const Tensor& out);

}  // namespace ember::autograd
