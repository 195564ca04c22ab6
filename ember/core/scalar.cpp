#include "ember/core/scalar.h"

#include <cfloat>
#include <cmath>
#include <limits>

namespace torch {

ScalarType Scalar::type() const {
  switch (tag_) {
    case Tag::Bool:
      return kBool;
    case Tag::Int:
      return kLong;
    case Tag::Double:
      return kDouble;
    case Tag::Complex:
      return kComplexDouble;
  }
  return kDouble;
}

Scalar Scalar::operator-() const {
  switch (tag_) {
    case Tag::Bool:
      EMBER_ERROR("neg: negation of a bool Scalar is not supported");
    case Tag::Int:
      return Scalar(-i_);
    case Tag::Double:
      return Scalar(-d_);
    case Tag::Complex:
      return Scalar(complex128(-re_, -im_));
  }
  return *this;
}

bool Scalar::equal(const Scalar& o) const {
  if (isComplex() || o.isComplex()) return toComplexDouble() == o.toComplexDouble();
  if (isFloatingPoint() || o.isFloatingPoint()) return toDouble() == o.toDouble();
  return toLong() == o.toLong();
}

std::ostream& operator<<(std::ostream& os, const Scalar& s) {
  switch (s.tag()) {
    case Scalar::Tag::Bool:
      return os << (s.toBool() ? "true" : "false");
    case Scalar::Tag::Int:
      return os << s.toLong();
    case Scalar::Tag::Double:
      return os << s.toDouble();
    case Scalar::Tag::Complex:
      return os << s.toComplexDouble();
  }
  return os;
}

namespace {

// The range of one component of a dtype (both parts of a complex one).
struct Range {
  bool integral = false, is_unsigned = false;
  int64_t ilo = 0, ihi = 0;  // integral types
  double lo = 0, hi = 0;     // every type (the integral bounds as doubles)
};

template <typename I>
Range int_range() {
  Range r;
  r.integral = true;
  r.is_unsigned = std::is_unsigned_v<I>;
  r.ilo = std::numeric_limits<I>::lowest();
  r.ihi = std::numeric_limits<I>::max();
  r.lo = static_cast<double>(r.ilo);
  r.hi = static_cast<double>(r.ihi);
  return r;
}

Range float_range(double max) {
  Range r;
  r.lo = -max;
  r.hi = max;
  return r;
}

Range range_of(ScalarType t) {
  switch (t) {
    case kByte:
      return int_range<uint8_t>();
    case kChar:
      return int_range<int8_t>();
    case kShort:
      return int_range<int16_t>();
    case kInt:
      return int_range<int32_t>();
    case kLong:
      return int_range<int64_t>();
    case kHalf:
      return float_range(65504.0);
    case kBFloat16:
      return float_range(3.38953138925153547590470800371487866880e+38);
    case kFloat:
    case kComplexFloat:
      return float_range(FLT_MAX);
    default:  // double, complex double
      return float_range(DBL_MAX);
  }
}

bool int_overflows(int64_t i, const Range& r) {
  if (!r.integral) return static_cast<double>(i) < r.lo || static_cast<double>(i) > r.hi;
  // Into an unsigned type a negative value wraps unless its magnitude is out of range.
  if (r.is_unsigned) return i > r.ihi || (i < 0 && -static_cast<uint64_t>(i) > static_cast<uint64_t>(r.ihi));
  return i < r.ilo || i > r.ihi;
}

bool double_overflows(double d, const Range& r) {
  if (std::isinf(d) || std::isnan(d)) return r.integral;  // floating types hold both
  return d < r.lo || d > r.hi;
}

}  // namespace

bool overflows(const Scalar& v, ScalarType t) {
  if (t == kBool || v.isBoolean()) return false;
  const Range r = range_of(t);
  if (v.isComplex()) {
    const complex128 c = v.toComplexDouble();
    if (!is_complex(t) && c.imag() != 0) return true;
    return double_overflows(c.real(), r) || double_overflows(c.imag(), r);
  }
  if (v.isIntegral()) return int_overflows(v.toLong(), r);
  return double_overflows(v.toDouble(), r);
}

void check_fits(const Scalar& v, ScalarType t, const char* op) {
  EMBER_CHECK(!overflows(v, t), op, ": value ", v, " cannot be converted to type ", t, " without overflow");
}

}  // namespace torch
