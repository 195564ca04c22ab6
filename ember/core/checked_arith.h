#pragma once
// Checked size arithmetic: the one vocabulary for every numel, output size or
// byte count computed from user data or from shapes.
//
// Note [Checked size arithmetic]
// A size that wraps is worse than a crash: an output allocated from a wrapped
// count is smaller than what the kernel then writes (repeat_interleave of
// {INT64_MAX, INT64_MAX, 3}, bincount of {INT64_MAX}), and signed overflow is
// undefined behaviour before any check that follows it can run. So size
// arithmetic on values a user controls goes through these functions, which
// raise an ember::Error naming the op and the operands instead of wrapping;
// UBSan's signed-overflow check stays silent on the overflow tests
// (tests/core/size_overflow_test.cpp). Products of whole shapes use
// checked_numel (core/shape.h).
#include <cstdint>

#include "ember/core/namespace.h"

namespace torch {

namespace detail {
[[noreturn]] void raise_size_overflow(const char* op, const char* what, int64_t a, char sign, int64_t b);
}  // namespace detail

// a * b, raising "<op>: <what> overflows (a * b)" on overflow.
inline int64_t checked_mul(int64_t a, int64_t b, const char* op, const char* what = "size") {
  int64_t r;
  if (__builtin_mul_overflow(a, b, &r)) detail::raise_size_overflow(op, what, a, '*', b);
  return r;
}
// a + b, raising on overflow.
inline int64_t checked_add(int64_t a, int64_t b, const char* op, const char* what = "size") {
  int64_t r;
  if (__builtin_add_overflow(a, b, &r)) detail::raise_size_overflow(op, what, a, '+', b);
  return r;
}
// a - b, raising on overflow.
inline int64_t checked_sub(int64_t a, int64_t b, const char* op, const char* what = "size") {
  int64_t r;
  if (__builtin_sub_overflow(a, b, &r)) detail::raise_size_overflow(op, what, a, '-', b);
  return r;
}

// |a|, raising for INT64_MIN (whose magnitude is not an int64; std::abs of it is undefined).
inline int64_t checked_abs(int64_t a, const char* op, const char* what = "size") {
  return a < 0 ? checked_sub(0, a, op, what) : a;
}

// A double converted to int64 (a count computed in floating point, e.g.
// arange's ceil((end - start) / step)), raising when it is NaN or does not
// fit: the plain cast would be undefined behaviour.
int64_t checked_double_to_size(double v, const char* op, const char* what = "size");

}  // namespace torch
