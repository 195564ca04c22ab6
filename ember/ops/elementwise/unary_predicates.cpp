// nan_to_num and the floating-point class predicates (isnan, isinf, ...).
#include "ember/autograd/derivatives/elementwise_grad.h"
#include "ember/autograd/formula_node.h"
#include "ember/core/record_scope.h"
#include "ember/kernels/cpu/unary_kernels.h"
#include "ember/ops/elementwise/elementwise.h"
#include "ember/ops/elementwise/unary.h"
#include "ember/ops/shape/mem_overlap.h"
#include "ember/vmap/batching_rules.h"

namespace torch {

using kernels::TensorIterator;

namespace {
Tensor nan_to_num_impl(const char* op, const Tensor& self, std::optional<double> nan, std::optional<double> posinf,
                       std::optional<double> neginf, Tensor* out, bool inplace) {
  EMBER_RECORD_OP(op, self);
  EMBER_CHECK(self.defined(), op, ": expected a defined tensor");
  EMBER_CHECK(!self.is_complex(), op, ": not implemented for complex inputs (got ", dtype_name(self.dtype()), ")");
  if (!self.is_floating_point()) {  // integers and bool have nothing to replace: a copy
    Tensor r = ops::make_out(out, self.sizes(), self.dtype(), op, inplace);
    if (!r.is_same(self)) r.copy_(self);
    ops::finish_out(out, r);
    return out != nullptr ? *out : r;
  }
  return ops::unary_apply(op, self, self.dtype(), self.dtype(), out, inplace,
                          [&](const TensorIterator& it) { kernels::nan_to_num_kernel(it, nan, posinf, neginf); });
}
}  // namespace

Tensor nan_to_num(const Tensor& self, std::optional<double> nan, std::optional<double> posinf,
                  std::optional<double> neginf) {
  EMBER_VMAP_ELEMENTWISE(self, v, nan_to_num(v, nan, posinf, neginf));
  Tensor out = nan_to_num_impl("nan_to_num", self, nan, posinf, neginf, nullptr, false);
  if (autograd::needs_grad(self)) autograd::record_nan_to_num(self, out);
  return out;
}
Tensor& nan_to_num_(Tensor& self, std::optional<double> nan, std::optional<double> posinf,
                    std::optional<double> neginf) {
  nan_to_num_impl("nan_to_num_", self, nan, posinf, neginf, &self, true);
  return self;
}
Tensor& nan_to_num_out(Tensor& out, const Tensor& self, std::optional<double> nan, std::optional<double> posinf,
                       std::optional<double> neginf) {
  nan_to_num_impl("nan_to_num", self, nan, posinf, neginf, &out, false);
  return out;
}
Tensor Tensor::nan_to_num(std::optional<double> nan, std::optional<double> posinf, std::optional<double> neginf) const {
  return ember::nan_to_num(*this, nan, posinf, neginf);
}
Tensor& Tensor::nan_to_num_(std::optional<double> nan, std::optional<double> posinf,
                            std::optional<double> neginf) const {
  return ember::nan_to_num_(self_ref(), nan, posinf, neginf);
}

namespace {
using kernels::FloatClass;
Tensor float_class(const char* op, FloatClass which, const Tensor& self, Tensor* out) {
  EMBER_VMAP_ELEMENTWISE(self, v, float_class(op, which, v, out));
  EMBER_RECORD_OP(op, self);
  EMBER_CHECK(self.defined(), op, ": expected a defined tensor");
  const bool complex_ok = which != FloatClass::isposinf && which != FloatClass::isneginf;
  EMBER_CHECK(complex_ok || !self.is_complex(), op, ": does not support complex inputs (got ", dtype_name(self.dtype()),
              ")");
  EMBER_CHECK(complex_ok || out == nullptr || out->dtype() == kBool, op, ": does not support non-boolean outputs (got ",
              dtype_name(out->dtype()), ")");
  const ScalarType t = self.dtype();
  if (is_integral(t, true) || (which == FloatClass::isreal && !is_complex(t))) {
    // Integers are never NaN or infinite; real dtypes are always real.
    const bool value = which == FloatClass::isfinite || which == FloatClass::isreal;
    if (out != nullptr) ops::assert_no_internal_overlap(op, *out);  // as the kernel path's iterator
    Tensor r = ops::make_out(out, self.sizes(), kBool, op);
    r.fill_(value);
    ops::finish_out(out, r);
    return out != nullptr ? *out : r;
  }
  return ops::unary_apply(op, self, t, kBool, out, false,
                          [&](const TensorIterator& it) { kernels::float_class_kernel(it, which); });
}
}  // namespace

Tensor isnan(const Tensor& self) { return float_class("isnan", FloatClass::isnan, self, nullptr); }
Tensor isinf(const Tensor& self) { return float_class("isinf", FloatClass::isinf, self, nullptr); }
Tensor isposinf(const Tensor& self) { return float_class("isposinf", FloatClass::isposinf, self, nullptr); }
Tensor isneginf(const Tensor& self) { return float_class("isneginf", FloatClass::isneginf, self, nullptr); }
Tensor isfinite(const Tensor& self) { return float_class("isfinite", FloatClass::isfinite, self, nullptr); }
Tensor isreal(const Tensor& self) { return float_class("isreal", FloatClass::isreal, self, nullptr); }
Tensor& isposinf_out(Tensor& out, const Tensor& self) {
  float_class("isposinf", FloatClass::isposinf, self, &out);
  return out;
}
Tensor& isneginf_out(Tensor& out, const Tensor& self) {
  float_class("isneginf", FloatClass::isneginf, self, &out);
  return out;
}
namespace ops {
Tensor frexp_exponent(const Tensor& self) {
  EMBER_VMAP_ELEMENTWISE(self, v, frexp_exponent(v));
  autograd::BelowAutogradGuard below;  // an integer result has no derivative
  return unary_apply("frexp", self, self.scalar_type(), kInt, nullptr, false,
                     [](const TensorIterator& it) { kernels::frexp_exponent_kernel(it); });
}
}  // namespace ops

Tensor Tensor::isnan() const { return ember::isnan(*this); }
Tensor Tensor::isinf() const { return ember::isinf(*this); }
Tensor Tensor::isposinf() const { return ember::isposinf(*this); }
Tensor Tensor::isneginf() const { return ember::isneginf(*this); }
Tensor Tensor::isfinite() const { return ember::isfinite(*this); }
Tensor Tensor::isreal() const { return ember::isreal(*this); }

}  // namespace torch
