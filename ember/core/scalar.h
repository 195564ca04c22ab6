#pragma once
// Scalar: a number of any dtype category (bool, integer, floating, complex),
// as c10::Scalar. Python-number semantics for type promotion: a Scalar is a
// "wrapped number" that only lifts the result's category, never its width.
#include <complex>
#include <cstdint>
#include <ostream>
#include <type_traits>

#include "ember/core/dtype.h"
#include "ember/core/error.h"

namespace torch {

class Scalar {
 public:
  enum class Tag : uint8_t { Bool, Int, Double, Complex };

  Scalar() : Scalar(int64_t(0)) {}
  // A template, as c10's: a plain Scalar(bool) would accept any pointer, so
  // `t.norm("fro")` or `t.add("x")` would compile and mean `true`.
  template <typename T, std::enable_if_t<std::is_same_v<T, bool>, int> = 0>
  Scalar(T v) : tag_(Tag::Bool) {  // NOLINT
    i_ = v;
  }
  template <typename T, std::enable_if_t<std::is_integral_v<T> && !std::is_same_v<T, bool>, int> = 0>
  Scalar(T v) : tag_(Tag::Int) {  // NOLINT
    i_ = static_cast<int64_t>(v);
  }
  template <typename T, std::enable_if_t<std::is_floating_point_v<T>, int> = 0>
  Scalar(T v) : tag_(Tag::Double) {  // NOLINT
    d_ = static_cast<double>(v);
  }
  Scalar(Half v) : Scalar(static_cast<float>(v)) {}      // NOLINT
  Scalar(BFloat16 v) : Scalar(static_cast<float>(v)) {}  // NOLINT
  template <typename T>
  Scalar(std::complex<T> v) : tag_(Tag::Complex) {  // NOLINT
    re_ = v.real();
    im_ = v.imag();
  }

  Tag tag() const { return tag_; }
  bool isBoolean() const { return tag_ == Tag::Bool; }
  bool isIntegral(bool include_bool = false) const { return tag_ == Tag::Int || (include_bool && tag_ == Tag::Bool); }
  bool isFloatingPoint() const { return tag_ == Tag::Double; }
  bool isComplex() const { return tag_ == Tag::Complex; }

  // The dtype a 0-dim tensor made from this scalar would get (int64, default float, complex).
  ScalarType type() const;

  // Unchecked conversion (a static_cast; out-of-range doubles saturate into integers).
  // Ops that store a user's value check it first with check_fits() below.
  template <typename T>
  T to() const;
  double toDouble() const { return to<double>(); }
  float toFloat() const { return to<float>(); }
  int64_t toLong() const { return to<int64_t>(); }
  int toInt() const { return to<int>(); }
  bool toBool() const { return to<bool>(); }
  complex128 toComplexDouble() const { return to<complex128>(); }

  Scalar operator-() const;
  bool equal(const Scalar& o) const;

 private:
  Tag tag_;
  union {
    int64_t i_;
    double d_;
    struct {
      double re_, im_;
    };
  };
};

template <typename T>
T Scalar::to() const {
  if constexpr (is_complex_v<T>) {
    using V = typename T::value_type;
    switch (tag_) {
      case Tag::Complex:
        return T(static_cast<V>(re_), static_cast<V>(im_));
      case Tag::Double:
        return T(static_cast<V>(d_), 0);
      default:
        return T(static_cast<V>(i_), 0);
    }
  } else if constexpr (std::is_same_v<T, bool>) {
    switch (tag_) {
      case Tag::Complex:
        return re_ != 0 || im_ != 0;
      case Tag::Double:
        return d_ != 0;
      default:
        return i_ != 0;
    }
  } else if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
    return T(to<float>());
  } else {
    switch (tag_) {
      case Tag::Complex:
        return Scalar(re_).to<T>();
      case Tag::Double:
        if constexpr (std::is_integral_v<T>) {
          // Out-of-range float->int conversion is UB in C++; clamp NaN to 0 like a saturating cast.
          if (!(d_ == d_)) return T(0);
          if (d_ >= 9.2233720368547758e18) return static_cast<T>(INT64_MAX);
          if (d_ <= -9.2233720368547758e18) return static_cast<T>(INT64_MIN);
          return static_cast<T>(static_cast<int64_t>(d_));
        } else {
          return static_cast<T>(d_);
        }
      default:
        return static_cast<T>(i_);
    }
  }
}

std::ostream& operator<<(std::ostream& os, const Scalar& s);

// Whether `v` would overflow dtype `t` when stored into it (c10's checked_convert):
// integers outside the type's range, finite doubles beyond its largest value, NaN or
// infinity into an integer type, a complex value with an imaginary part into a real
// type. Negative integers into uint8 wrap (fill_(-1) gives 255), as in PyTorch.
bool overflows(const Scalar& v, ScalarType t);
// Raises "<op>: value <v> cannot be converted to type <t> without overflow" when it does:
// what fill_, full, masked_fill, index_fill, clamp and item<T>() check before storing.
void check_fits(const Scalar& v, ScalarType t, const char* op);

}  // namespace torch
