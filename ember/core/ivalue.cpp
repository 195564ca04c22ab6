#include "ember/core/ivalue.h"

#include "ember/core/error.h"

namespace torch {

IValue::IValue(bool v) : v_(v) {}
IValue::IValue(int v) : v_(int64_t(v)) {}
IValue::IValue(int64_t v) : v_(v) {}
IValue::IValue(double v) : v_(v) {}
IValue::IValue(float v) : v_(double(v)) {}
IValue::IValue(std::string v) : v_(std::move(v)) {}
IValue::IValue(const char* v) : v_(std::string(v)) {}
IValue::IValue(std::vector<int64_t> v) : v_(std::move(v)) {}
IValue::IValue(IntArrayRef v) : v_(v.vec()) {}
IValue::IValue(std::vector<double> v) : v_(std::move(v)) {}
IValue::IValue(Tensor v) : v_(std::move(v)) {}
IValue::IValue(const Scalar& s) {
  if (s.isFloatingPoint())
    v_ = s.toDouble();
  else if (s.isBoolean())
    v_ = s.toBool();
  else
    v_ = s.toLong();
}

template <typename T>
const T& IValue::get(const char* what) const {
  const T* p = std::get_if<T>(&v_);
  EMBER_CHECK(p != nullptr, "IValue::", what, ": the value holds another type (index ", v_.index(), ")");
  return *p;
}

bool IValue::toBool() const { return get<bool>("toBool"); }
int64_t IValue::toInt() const { return get<int64_t>("toInt"); }
double IValue::toDouble() const { return isInt() ? double(toInt()) : get<double>("toDouble"); }
const std::string& IValue::toStringRef() const { return get<std::string>("toStringRef"); }
std::vector<int64_t> IValue::toIntVector() const { return get<std::vector<int64_t>>("toIntVector"); }
std::vector<double> IValue::toDoubleVector() const { return get<std::vector<double>>("toDoubleVector"); }
Tensor IValue::toTensor() const { return get<Tensor>("toTensor"); }
Scalar IValue::toScalar() const {
  if (isDouble()) return toDouble();
  if (isBool()) return toBool();
  return toInt();
}

}  // namespace torch
