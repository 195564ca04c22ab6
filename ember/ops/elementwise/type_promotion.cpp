#include "ember/ops/elementwise/type_promotion.h"

namespace torch {

namespace {
ScalarType promote_skip_undefined(ScalarType a, ScalarType b) {
  if (a == ScalarType::Undefined) return b;
  if (b == ScalarType::Undefined) return a;
  return promote_types(a, b);
}

ScalarType combine_categories(ScalarType higher, ScalarType lower) {
  if (is_complex(higher)) return higher;
  if (is_complex(lower)) {
    // Keep the higher class's precision when it is floating: float64 + 1j -> complex128.
    if (is_floating_point(higher)) return to_complex_type(higher);
    return lower;
  }
  if (is_floating_point(higher)) return higher;
  if (higher == kBool || is_floating_point(lower)) return promote_skip_undefined(higher, lower);
  if (higher != ScalarType::Undefined) return higher;
  return lower;
}
}  // namespace

void ResultTypeState::update(const Tensor& t) {
  if (!t.defined()) return;
  if (t.dim() > 0)
    dim_ = promote_skip_undefined(dim_, t.dtype());
  else
    zero_dim_ = promote_skip_undefined(zero_dim_, t.dtype());
}

void ResultTypeState::update(const Scalar& s) {
  ScalarType t = s.isComplex()         ? to_complex_type(get_default_dtype())
                 : s.isFloatingPoint() ? get_default_dtype()
                 : s.isBoolean()       ? kBool
                                       : kLong;
  wrapped_ = promote_skip_undefined(wrapped_, t);
}

ScalarType ResultTypeState::result() const { return combine_categories(dim_, combine_categories(zero_dim_, wrapped_)); }

ScalarType result_type(const Tensor& a, const Tensor& b) {
  ResultTypeState s;
  s.update(a);
  s.update(b);
  return s.result();
}
ScalarType result_type(const Tensor& a, const Scalar& b) {
  ResultTypeState s;
  s.update(a);
  s.update(b);
  return s.result();
}
ScalarType result_type(const Scalar& a, const Tensor& b) { return result_type(b, a); }
ScalarType result_type(const Scalar& a, const Scalar& b) {
  ResultTypeState s;
  s.update(a);
  s.update(b);
  return s.result();
}
ScalarType result_type(TensorList tensors) {
  ResultTypeState s;
  for (const Tensor& t : tensors) s.update(t);
  return s.result();
}

}  // namespace torch
