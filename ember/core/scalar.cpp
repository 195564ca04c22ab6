#include "ember/core/scalar.h"

namespace ember {

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

}  // namespace ember
