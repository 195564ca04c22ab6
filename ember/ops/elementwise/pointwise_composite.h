#pragma once
// Pointwise ops PyTorch users expect that are compositions of Ember's
// elementwise ops (ops/elementwise/pointwise_composite.cpp): their gradients, tangents and
// batching come from the ops they are built of, so they need no formula or
// rule of their own. Type promotion and edge values follow PyTorch.
#include "ember/core/tensor.h"

namespace torch {

// x * log(y), 0 where x == 0 unless y is NaN; integers promote to the default float dtype.
Tensor xlogy(const Tensor& self, const Tensor& other);
Tensor xlogy(const Scalar& self, const Tensor& other);
Tensor xlogy(const Tensor& self, const Scalar& other);
// x * log1p(y), the same convention.
Tensor xlog1py(const Tensor& self, const Tensor& other);
// Entropy term -x log(x): 0 at 0, -inf below 0 (torch.special.entr).
Tensor entr(const Tensor& self);
// The multivariate log-gamma function of dimension p; every element must exceed (p - 1) / 2.
Tensor mvlgamma(const Tensor& self, int64_t p);
// sin(pi x) / (pi x), 1 at 0.
Tensor sinc(const Tensor& self);
// log(exp(a) + exp(b)) and log2(2^a + 2^b) without overflow; floating dtypes only.
Tensor logaddexp(const Tensor& self, const Tensor& other);
Tensor logaddexp2(const Tensor& self, const Tensor& other);
// Degrees <-> radians; integers promote to the default float dtype.
Tensor deg2rad(const Tensor& self);
Tensor rad2deg(const Tensor& self);
// 0 where x < 0, values where x == 0, 1 where x > 0 (x and values of one dtype).
// Not differentiable, as PyTorch: the result carries no history.
Tensor heaviside(const Tensor& self, const Tensor& values);

// self * 2^other (integers promote to the default float dtype, as pow(2.0, other)).
Tensor ldexp(const Tensor& self, const Tensor& other);
Tensor& ldexp_(Tensor& self, const Tensor& other);
// pow computed in float64, or complex128 when an operand is complex; the
// in-place form needs self to have that dtype already.
Tensor float_power(const Tensor& self, const Tensor& exponent);
Tensor float_power(const Tensor& self, const Scalar& exponent);
Tensor float_power(const Scalar& self, const Tensor& exponent);
Tensor& float_power_(Tensor& self, const Tensor& exponent);
Tensor& float_power_(Tensor& self, const Scalar& exponent);
// self itself (unary +); bool raises, as in PyTorch.
Tensor positive(const Tensor& self);
// Whether the sign bit is set (-0.0 and negative NaNs included); false for bool and uint8.
Tensor signbit(const Tensor& self);
// (mantissa, exponent) with self = mantissa * 2^exponent, |mantissa| in [0.5, 1)
// and an int32 exponent; 0, inf and NaN keep their value with exponent 0.
std::tuple<Tensor, Tensor> frexp(const Tensor& self);

}  // namespace torch
