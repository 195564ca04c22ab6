#pragma once
// Free functions of the unary family: ops/elementwise/unary.cpp (the unary.def table,
// round, the shared output protocol), unary_activation.cpp (ops with
// arguments), unary_predicates.cpp (nan_to_num, isnan & co.),
// unary_complex.cpp (complex views and helpers), unary_special.cpp (polygamma).
// Every op has a functional form, an in-place form `op_(self)` and an out=
// form `op_out(out, self)` (LibTorch order: out first), with PyTorch's dtype
// rules: integer/bool inputs to floating ops promote to the default dtype,
// out= accepts any dtype the result can be cast to (Note [Elementwise outputs]).
#include <functional>
#include <optional>
#include <string_view>

#include "ember/core/tensor.h"

namespace torch {

#define EMBER_UNARY_OP(name, ...)  \
  Tensor name(const Tensor& self); \
  Tensor& name##_(Tensor& self);   \
  Tensor& name##_out(Tensor& out, const Tensor& self);
#include "ember/tables/unary.def"
#undef EMBER_UNARY_OP

inline Tensor absolute(const Tensor& self) { return abs(self); }
inline Tensor& absolute_(Tensor& self) { return abs_(self); }
inline Tensor negative(const Tensor& self) { return neg(self); }
inline Tensor& negative_(Tensor& self) { return neg_(self); }
// NumPy's names, kept by PyTorch as aliases.
inline Tensor arccos(const Tensor& self) { return acos(self); }
inline Tensor& arccos_(Tensor& self) { return acos_(self); }
inline Tensor arcsin(const Tensor& self) { return asin(self); }
inline Tensor& arcsin_(Tensor& self) { return asin_(self); }
inline Tensor arctan(const Tensor& self) { return atan(self); }
inline Tensor& arctan_(Tensor& self) { return atan_(self); }
inline Tensor arccosh(const Tensor& self) { return acosh(self); }
inline Tensor& arccosh_(Tensor& self) { return acosh_(self); }
inline Tensor arcsinh(const Tensor& self) { return asinh(self); }
inline Tensor& arcsinh_(Tensor& self) { return asinh_(self); }
inline Tensor arctanh(const Tensor& self) { return atanh(self); }
inline Tensor& arctanh_(Tensor& self) { return atanh_(self); }
inline Tensor fix(const Tensor& self) { return trunc(self); }
inline Tensor& fix_(Tensor& self) { return trunc_(self); }

// round half to even; decimals != 0 rounds to that many decimal places (floating only).
Tensor round(const Tensor& self, int64_t decimals = 0);
Tensor& round_(Tensor& self, int64_t decimals = 0);
Tensor& round_out(Tensor& out, const Tensor& self, int64_t decimals = 0);

// Activations with arguments (floating inputs only, as in PyTorch).
Tensor gelu(const Tensor& self, std::string_view approximate = "none");
Tensor& gelu_(Tensor& self, std::string_view approximate = "none");
Tensor& gelu_out(Tensor& out, const Tensor& self, std::string_view approximate = "none");
Tensor softplus(const Tensor& self, const Scalar& beta = 1, const Scalar& threshold = 20);
Tensor& softplus_out(Tensor& out, const Tensor& self, const Scalar& beta = 1, const Scalar& threshold = 20);
Tensor elu(const Tensor& self, const Scalar& alpha = 1, const Scalar& scale = 1, const Scalar& input_scale = 1);
Tensor& elu_(Tensor& self, const Scalar& alpha = 1, const Scalar& scale = 1, const Scalar& input_scale = 1);
Tensor& elu_out(Tensor& out, const Tensor& self, const Scalar& alpha = 1, const Scalar& scale = 1,
                const Scalar& input_scale = 1);
Tensor leaky_relu(const Tensor& self, const Scalar& negative_slope = 0.01);
Tensor& leaky_relu_(Tensor& self, const Scalar& negative_slope = 0.01);
Tensor& leaky_relu_out(Tensor& out, const Tensor& self, const Scalar& negative_slope = 0.01);
// log(x / (1 - x)), x first clamped to [eps, 1 - eps] when eps is given. Integer inputs promote.
Tensor logit(const Tensor& self, std::optional<double> eps = std::nullopt);
Tensor& logit_(Tensor& self, std::optional<double> eps = std::nullopt);
Tensor& logit_out(Tensor& out, const Tensor& self, std::optional<double> eps = std::nullopt);
// polygamma(n, x) = d^n/dx^n digamma(x), n >= 0 (ops/elementwise/unary_special.cpp; n = 0 is digamma).
// Integer inputs promote; poles and infinities give PyTorch's values (Note [Polygamma
// special values]). The in-place form is Tensor::polygamma_(n).
Tensor polygamma(int64_t n, const Tensor& self);
Tensor& polygamma_out(Tensor& out, int64_t n, const Tensor& self);

// NaN -> nan (0), +inf -> posinf (largest finite), -inf -> neginf (lowest finite).
Tensor nan_to_num(const Tensor& self, std::optional<double> nan = std::nullopt,
                  std::optional<double> posinf = std::nullopt, std::optional<double> neginf = std::nullopt);
Tensor& nan_to_num_(Tensor& self, std::optional<double> nan = std::nullopt, std::optional<double> posinf = std::nullopt,
                    std::optional<double> neginf = std::nullopt);
Tensor& nan_to_num_out(Tensor& out, const Tensor& self, std::optional<double> nan = std::nullopt,
                       std::optional<double> posinf = std::nullopt, std::optional<double> neginf = std::nullopt);

// Predicates: bool results for every input dtype (isposinf/isneginf reject complex).
Tensor isnan(const Tensor& self);
Tensor isinf(const Tensor& self);
Tensor isposinf(const Tensor& self);
Tensor isneginf(const Tensor& self);
Tensor isfinite(const Tensor& self);
Tensor isreal(const Tensor& self);
Tensor& isposinf_out(Tensor& out, const Tensor& self);
Tensor& isneginf_out(Tensor& out, const Tensor& self);

// ---- complex (ops/elementwise/unary_complex.cpp) ----------------------------------------
// real/imag are views onto complex storage; real(x) of a real tensor is x.
Tensor real(const Tensor& self);
Tensor imag(const Tensor& self);
// Note [No lazy conjugation]: PyTorch marks conj() with a lazy bit; Ember has
// none, so conj of a complex tensor is a conjugated copy (real tensors: self).
Tensor conj(const Tensor& self);
Tensor conj_physical(const Tensor& self);
Tensor angle(const Tensor& self);
Tensor& angle_out(Tensor& out, const Tensor& self);
Tensor polar(const Tensor& abs, const Tensor& angle);
Tensor& polar_out(Tensor& out, const Tensor& abs, const Tensor& angle);
Tensor complex(const Tensor& real, const Tensor& imag);
Tensor& complex_out(Tensor& out, const Tensor& real, const Tensor& imag);
Tensor view_as_real(const Tensor& self);
Tensor view_as_complex(const Tensor& self);

namespace kernels {
class TensorIterator;
}
namespace ops {
// The output protocol of every single-input elementwise op: casts self to
// `compute`, makes the result (fresh, out= or in-place, Note [Elementwise
// outputs]) of dtype `result`, runs `kernel` on TensorIterator({result}, {x}).
Tensor unary_apply(const char* op, const Tensor& self, ScalarType compute, ScalarType result, Tensor* out, bool inplace,
                   const std::function<void(const kernels::TensorIterator&)>& kernel);
// frexp's exponent (int32) of a floating tensor, without a gradient.
Tensor frexp_exponent(const Tensor& self);
}  // namespace ops

}  // namespace torch
