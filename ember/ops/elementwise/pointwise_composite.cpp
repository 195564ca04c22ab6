#include "ember/ops/elementwise/pointwise_composite.h"

#include <cmath>
#include <limits>
#include <numbers>

#include "ember/autograd/derivatives/elementwise_grad.h"
#include "ember/autograd/formula_node.h"
#include "ember/autograd/forward_ad.h"
#include "ember/autograd/grad_mode.h"
#include "ember/core/dtype.h"
#include "ember/core/error.h"
#include "ember/core/record_scope.h"
#include "ember/core/shape.h"
#include "ember/ops/elementwise/binary.h"
#include "ember/ops/elementwise/operators.h"
#include "ember/ops/elementwise/type_promotion.h"
#include "ember/ops/elementwise/unary.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/index/indexing.h"
#include "ember/ops/reduce/reduce.h"
#include "ember/vmap/batched_tensor.h"

namespace torch {

namespace {

// The dtype an op with "Float" promotion computes in: integers and bool become
// the default float dtype.
ScalarType float_type(ScalarType t) { return is_integral(t, true) ? get_default_dtype() : t; }

Tensor as_float(const Tensor& t) {
  const ScalarType f = float_type(t.scalar_type());
  return f == t.scalar_type() ? t : t.to(f);
}

void check_floating(const char* op, const Tensor& t) {
  EMBER_CHECK(t.defined(), op, ": expected a defined tensor");
  EMBER_CHECK(t.is_floating_point(), op, ": not implemented for dtype ", t.dtype(), " (shape ", shape_str(t.sizes()),
              ")");
}

// Checked before the inner ops run, so that a mismatch names the op called
// (and not e.g. the "mul" inside xlogy).
void check_broadcast(const char* op, const Tensor& a, const Tensor& b) {
  EMBER_CHECK(a.defined() && b.defined(), op, ": expected defined tensors");
  broadcast_shapes(a.sizes(), b.sizes(), op);
}

// x * f(y) with 0 where x == 0, unless y is NaN (the xlogy convention).
template <typename F>
Tensor x_times(const char* op, const Tensor& self, const Tensor& other, F f) {
  check_broadcast(op, self, other);
  const ScalarType ct = float_type(result_type(self, other));
  EMBER_CHECK(!is_complex(ct), op, ": not implemented for complex dtypes (got ", self.dtype(), " and ", other.dtype(),
              ")");
  const Tensor x = self.to(ct), y = other.to(ct);
  return where(logical_and(x == 0, logical_not(isnan(y))), zeros({}, TensorOptions(ct)), x * f(y));
}

}  // namespace

Tensor xlogy(const Tensor& self, const Tensor& other) {
  return x_times("xlogy", self, other, [](const Tensor& y) { return log(y); });
}
Tensor xlogy(const Scalar& self, const Tensor& other) {
  return xlogy(scalar_tensor(self, TensorOptions(result_type(self, other))), other);
}
Tensor xlogy(const Tensor& self, const Scalar& other) {
  return xlogy(self, scalar_tensor(other, TensorOptions(result_type(self, other))));
}
Tensor xlog1py(const Tensor& self, const Tensor& other) {
  return x_times("xlog1py", self, other, [](const Tensor& y) { return log1p(y); });
}

Tensor entr(const Tensor& self) {
  EMBER_CHECK(self.defined(), "entr: expected a defined tensor");
  EMBER_CHECK(!self.is_complex(), "entr: not implemented for complex tensors (got ", self.dtype(), ")");
  const Tensor x = as_float(self);
  const TensorOptions o = x.options();
  return where(x < 0, full({}, -std::numeric_limits<double>::infinity(), o), where(x == 0, zeros({}, o), -x * log(x)));
}

Tensor mvlgamma(const Tensor& self, int64_t p) {
  EMBER_CHECK(self.defined(), "mvlgamma: expected a defined tensor");
  EMBER_CHECK(p >= 1, "mvlgamma: p has to be greater than or equal to 1, got ", p);
  const Tensor x = as_float(self);
  if (!batching::any_batched(x))
    EMBER_CHECK(x.numel() == 0 || (x > 0.5 * static_cast<double>(p - 1)).all().item<bool>(),
                "mvlgamma: All elements must be greater than (p-1)/2 = ", 0.5 * static_cast<double>(p - 1));
  // sum_j lgamma(x - j/2) + p (p - 1) / 4 * log(pi)
  Tensor r = lgamma(x);
  for (int64_t j = 1; j < p; ++j) r = r + lgamma(x - 0.5 * static_cast<double>(j));
  return r + static_cast<double>(p * (p - 1)) / 4.0 * std::log(std::numbers::pi);
}

Tensor sinc(const Tensor& self) {
  EMBER_CHECK(self.defined(), "sinc: expected a defined tensor");
  const Tensor x = as_float(self);
  const Tensor px = x * std::numbers::pi;
  // The 0 branch is a constant: sinc'(0) = 0, as PyTorch's formula masks it.
  return where(x == 0, ones({}, x.options()), sin(px) / px);
}

Tensor logaddexp(const Tensor& self, const Tensor& other) {
  check_floating("logaddexp", self);
  check_floating("logaddexp", other);
  check_broadcast("logaddexp", self, other);
  const Tensor m = maximum(self, other);
  const Tensor r = m + log1p(exp(-(self - other).abs()));
  // Equal infinities: inf - inf would be NaN; the answer is the infinity itself.
  return where(logical_and(isinf(self), self == other), self.to(r.scalar_type()), r);
}

Tensor logaddexp2(const Tensor& self, const Tensor& other) {
  check_floating("logaddexp2", self);
  check_floating("logaddexp2", other);
  check_broadcast("logaddexp2", self, other);
  const Tensor m = maximum(self, other);
  const Tensor r = m + log1p(exp2(-(self - other).abs())) * (1.0 / std::numbers::ln2);
  return where(logical_and(isinf(self), self == other), self.to(r.scalar_type()), r);
}

Tensor deg2rad(const Tensor& self) {
  EMBER_CHECK(self.defined(), "deg2rad: expected a defined tensor");
  EMBER_CHECK(!self.is_complex(), "deg2rad: is not supported for complex tensors (got ", self.dtype(), ")");
  return as_float(self) * (std::numbers::pi / 180.0);
}
Tensor rad2deg(const Tensor& self) {
  EMBER_CHECK(self.defined(), "rad2deg: expected a defined tensor");
  EMBER_CHECK(!self.is_complex(), "rad2deg: is not supported for complex tensors (got ", self.dtype(), ")");
  return as_float(self) * (180.0 / std::numbers::pi);
}

Tensor heaviside(const Tensor& self, const Tensor& values) {
  check_broadcast("heaviside", self, values);
  EMBER_CHECK(self.scalar_type() == values.scalar_type(),
              "heaviside: is not yet implemented for tensors with different dtypes (got ", self.dtype(), " and ",
              values.dtype(), ")");
  EMBER_CHECK(!self.is_complex(), "heaviside: is not yet implemented for complex tensors (got ", self.dtype(), ")");
  Tensor out;
  {
    autograd::BelowAutogradGuard below;  // no derivative in PyTorch: neither gradients nor tangents
    out = where(self == 0, values, (self > 0).to(self.scalar_type()));
  }
  if (autograd::needs_grad(self, values))
    autograd::record_not_implemented("derivative for heaviside is not implemented", {self, values}, out);
  return out;
}

Tensor ldexp(const Tensor& self, const Tensor& other) {
  check_broadcast("ldexp", self, other);
  EMBER_RECORD_COMPOSITE_OP("ldexp", self, other);
  return mul(self, pow(2.0, other));  // PyTorch's definition, and so its dtypes
}
Tensor& ldexp_(Tensor& self, const Tensor& other) {
  check_broadcast("ldexp_", self, other);
  EMBER_RECORD_COMPOSITE_OP("ldexp_", self, other);
  return self.mul_(pow(2.0, other));
}

namespace {
// float_power computes in float64, or complex128 when either operand is complex.
ScalarType float_power_dtype(bool complex) { return complex ? kComplexDouble : kDouble; }
}  // namespace

Tensor float_power(const Tensor& self, const Tensor& exponent) {
  check_broadcast("float_power", self, exponent);
  EMBER_RECORD_COMPOSITE_OP("float_power", self, exponent);
  const ScalarType t = float_power_dtype(self.is_complex() || exponent.is_complex());
  return pow(self.to(t), exponent.to(t));
}
Tensor float_power(const Tensor& self, const Scalar& exponent) {
  EMBER_CHECK(self.defined(), "float_power: expected a defined tensor");
  EMBER_RECORD_COMPOSITE_OP("float_power", self);
  const ScalarType t = float_power_dtype(self.is_complex() || exponent.isComplex());
  return exponent.isComplex() ? pow(self.to(t), exponent) : pow(self.to(t), exponent.toDouble());
}
Tensor float_power(const Scalar& self, const Tensor& exponent) {
  EMBER_CHECK(exponent.defined(), "float_power: expected a defined tensor");
  EMBER_RECORD_COMPOSITE_OP("float_power", exponent);
  const ScalarType t = float_power_dtype(self.isComplex() || exponent.is_complex());
  return self.isComplex() ? pow(self, exponent.to(t)) : pow(self.toDouble(), exponent.to(t));
}
namespace {
Tensor& float_power_into(Tensor& self, const Tensor& r) {
  EMBER_CHECK(self.scalar_type() == r.scalar_type(), "float_power_: the base given to float_power_ has dtype ",
              self.dtype(), " but the operation's result requires dtype ", r.dtype());
  return self.copy_(r);
}
}  // namespace
Tensor& float_power_(Tensor& self, const Tensor& exponent) {
  return float_power_into(self, float_power(self, exponent));
}
Tensor& float_power_(Tensor& self, const Scalar& exponent) {
  return float_power_into(self, float_power(self, exponent));
}

Tensor positive(const Tensor& self) {
  EMBER_CHECK(self.defined(), "positive: expected a defined tensor");
  EMBER_CHECK(self.scalar_type() != kBool, "positive: The `+` operator, on a bool tensor is not supported.");
  return self;
}

Tensor signbit(const Tensor& self) {
  EMBER_CHECK(self.defined(), "signbit: expected a defined tensor");
  EMBER_CHECK(!self.is_complex(), "signbit: is not implemented for complex tensors (got ", self.dtype(), ")");
  EMBER_RECORD_COMPOSITE_OP("signbit", self);
  autograd::BelowAutogradGuard below;  // a bool result has no derivative
  // copysign(1, x) carries x's sign bit, -0.0's and a negative NaN's included.
  if (self.is_floating_point()) return copysign(Scalar(1.0), self) < 0;
  if (self.scalar_type() == kBool || self.scalar_type() == kByte) return zeros(self.sizes(), TensorOptions(kBool));
  return self < 0;
}

std::tuple<Tensor, Tensor> frexp(const Tensor& self) {
  EMBER_CHECK(self.defined(), "frexp: expected a defined tensor");
  EMBER_CHECK(self.is_floating_point(), "frexp: torch.frexp() only supports floating-point dtypes (got ", self.dtype(),
              ")");
  EMBER_RECORD_COMPOSITE_OP("frexp", self);
  Tensor exponent = ops::frexp_exponent(self);
  // Dividing by a power of two is exact, and 2^exponent is representable for
  // every finite input, subnormals included; the mantissa's gradient is
  // grad / 2^exponent, PyTorch's formula.
  return {div(self, exp2(exponent.to(self.scalar_type()))), exponent};
}

Tensor Tensor::ldexp(const Tensor& other) const { return ember::ldexp(*this, other); }
Tensor& Tensor::ldexp_(const Tensor& other) const { return ember::ldexp_(self_ref(), other); }
Tensor Tensor::float_power(const Tensor& exponent) const { return ember::float_power(*this, exponent); }
Tensor Tensor::float_power(const Scalar& exponent) const { return ember::float_power(*this, exponent); }
Tensor& Tensor::float_power_(const Tensor& exponent) const { return ember::float_power_(self_ref(), exponent); }
Tensor& Tensor::float_power_(const Scalar& exponent) const { return ember::float_power_(self_ref(), exponent); }
Tensor Tensor::positive() const { return ember::positive(*this); }
Tensor Tensor::signbit() const { return ember::signbit(*this); }
std::tuple<Tensor, Tensor> Tensor::frexp() const { return ember::frexp(*this); }
Tensor Tensor::xlogy(const Tensor& other) const { return ember::xlogy(*this, other); }
Tensor Tensor::xlogy(const Scalar& other) const { return ember::xlogy(*this, other); }
Tensor Tensor::sinc() const { return ember::sinc(*this); }
Tensor Tensor::logaddexp(const Tensor& other) const { return ember::logaddexp(*this, other); }
Tensor Tensor::logaddexp2(const Tensor& other) const { return ember::logaddexp2(*this, other); }
Tensor Tensor::deg2rad() const { return ember::deg2rad(*this); }
Tensor Tensor::rad2deg() const { return ember::rad2deg(*this); }
Tensor Tensor::heaviside(const Tensor& values) const { return ember::heaviside(*this, values); }
Tensor Tensor::mvlgamma(int64_t p) const { return ember::mvlgamma(*this, p); }

}  // namespace torch
