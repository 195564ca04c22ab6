#pragma once
// IValue: a small tagged value (none, bool, int, double, string, int list,
// double list, tensor), as c10::IValue is used by LibTorch programs for
// AutogradContext::saved_data and similar maps.
#include <string>
#include <variant>
#include <vector>

#include "ember/core/tensor.h"

namespace ember {

class IValue {
 public:
  IValue() = default;
  IValue(bool v) : v_(v) {}                             // NOLINT
  IValue(int v) : v_(int64_t(v)) {}                     // NOLINT
  IValue(int64_t v) : v_(v) {}                          // NOLINT
  IValue(double v) : v_(v) {}                           // NOLINT
  IValue(float v) : v_(double(v)) {}                    // NOLINT
  IValue(std::string v) : v_(std::move(v)) {}           // NOLINT
  IValue(const char* v) : v_(std::string(v)) {}         // NOLINT
  IValue(std::vector<int64_t> v) : v_(std::move(v)) {}  // NOLINT
  IValue(IntArrayRef v) : v_(v.vec()) {}                // NOLINT
  IValue(std::vector<double> v) : v_(std::move(v)) {}   // NOLINT
  IValue(Tensor v) : v_(std::move(v)) {}                // NOLINT
  IValue(const Scalar& s) {                             // NOLINT
    if (s.isFloatingPoint())
      v_ = s.toDouble();
    else if (s.isBoolean())
      v_ = s.toBool();
    else
      v_ = s.toLong();
  }

  bool isNone() const { return v_.index() == 0; }
  bool isBool() const { return std::holds_alternative<bool>(v_); }
  bool isInt() const { return std::holds_alternative<int64_t>(v_); }
  bool isDouble() const { return std::holds_alternative<double>(v_); }
  bool isString() const { return std::holds_alternative<std::string>(v_); }
  bool isIntList() const { return std::holds_alternative<std::vector<int64_t>>(v_); }
  bool isDoubleList() const { return std::holds_alternative<std::vector<double>>(v_); }
  bool isTensor() const { return std::holds_alternative<Tensor>(v_); }

  bool toBool() const { return get<bool>("toBool"); }
  int64_t toInt() const { return get<int64_t>("toInt"); }
  double toDouble() const { return isInt() ? double(toInt()) : get<double>("toDouble"); }
  const std::string& toStringRef() const { return get<std::string>("toStringRef"); }
  std::vector<int64_t> toIntVector() const { return get<std::vector<int64_t>>("toIntVector"); }
  std::vector<double> toDoubleVector() const { return get<std::vector<double>>("toDoubleVector"); }
  Tensor toTensor() const { return get<Tensor>("toTensor"); }
  Scalar toScalar() const {
    if (isDouble()) return toDouble();
    if (isBool()) return toBool();
    return toInt();
  }

 private:
  template <typename T>
  const T& get(const char* what) const {
    const T* p = std::get_if<T>(&v_);
    EMBER_CHECK(p != nullptr, "IValue::", what, ": the value holds another type (index ", v_.index(), ")");
    return *p;
  }
  std::variant<std::monostate, bool, int64_t, double, std::string, std::vector<int64_t>, std::vector<double>, Tensor>
      v_;
};

}  // namespace ember
