#pragma once
// IValue: a small tagged value (none, bool, int, double, string, int list,
// double list, tensor), as c10::IValue is used by LibTorch programs for
// AutogradContext::saved_data and similar maps. The members are defined in
// ivalue.cpp: each inline converting constructor of the variant costs its
// overload resolution over eight alternatives in every user's translation
// unit, and IValue is no hot path.
#include <string>
#include <variant>
#include <vector>

#include "ember/core/tensor.h"

namespace torch {

class IValue {
 public:
  IValue() = default;
  IValue(bool v);                  // NOLINT
  IValue(int v);                   // NOLINT
  IValue(int64_t v);               // NOLINT
  IValue(double v);                // NOLINT
  IValue(float v);                 // NOLINT
  IValue(std::string v);           // NOLINT
  IValue(const char* v);           // NOLINT
  IValue(std::vector<int64_t> v);  // NOLINT
  IValue(IntArrayRef v);           // NOLINT
  IValue(std::vector<double> v);   // NOLINT
  IValue(Tensor v);                // NOLINT
  IValue(const Scalar& s);         // NOLINT

  bool isNone() const { return v_.index() == 0; }
  bool isBool() const { return v_.index() == 1; }
  bool isInt() const { return v_.index() == 2; }
  bool isDouble() const { return v_.index() == 3; }
  bool isString() const { return v_.index() == 4; }
  bool isIntList() const { return v_.index() == 5; }
  bool isDoubleList() const { return v_.index() == 6; }
  bool isTensor() const { return v_.index() == 7; }

  bool toBool() const;
  int64_t toInt() const;
  double toDouble() const;
  const std::string& toStringRef() const;
  std::vector<int64_t> toIntVector() const;
  std::vector<double> toDoubleVector() const;
  Tensor toTensor() const;
  Scalar toScalar() const;

 private:
  template <typename T>
  const T& get(const char* what) const;
  // The is*() indices above follow this order.
  std::variant<std::monostate, bool, int64_t, double, std::string, std::vector<int64_t>, std::vector<double>, Tensor>
      v_;
};

}  // namespace torch
