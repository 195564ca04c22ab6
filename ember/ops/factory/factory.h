#pragma once
// Tensor factories: empty, zeros, ones, full, arange, linspace, logspace, eye,
// the *_like forms, from_blob and tensor(...) from nested initializer lists.
#include <functional>
#include <initializer_list>
#include <vector>

#include "ember/core/tensor.h"

namespace torch {

Tensor empty(IntArrayRef size, const TensorOptions& options = {});
Tensor empty_strided(IntArrayRef size, IntArrayRef stride, const TensorOptions& options = {});
Tensor zeros(IntArrayRef size, const TensorOptions& options = {});
Tensor ones(IntArrayRef size, const TensorOptions& options = {});
Tensor full(IntArrayRef size, const Scalar& value, const TensorOptions& options = {});
Tensor scalar_tensor(const Scalar& value, const TensorOptions& options = {});

Tensor empty_like(const Tensor& t, const TensorOptions& options = {});
Tensor zeros_like(const Tensor& t, const TensorOptions& options = {});
Tensor ones_like(const Tensor& t, const TensorOptions& options = {});
Tensor full_like(const Tensor& t, const Scalar& value, const TensorOptions& options = {});

Tensor arange(const Scalar& end, const TensorOptions& options = {});
Tensor arange(const Scalar& start, const Scalar& end, const TensorOptions& options = {});
Tensor arange(const Scalar& start, const Scalar& end, const Scalar& step, const TensorOptions& options = {});
Tensor linspace(const Scalar& start, const Scalar& end, int64_t steps, const TensorOptions& options = {});
Tensor logspace(const Scalar& start, const Scalar& end, int64_t steps, double base = 10.0,
                const TensorOptions& options = {});
Tensor eye(int64_t n, const TensorOptions& options = {});
Tensor eye(int64_t n, int64_t m, const TensorOptions& options = {});

// Wraps memory owned by the caller (no copy); the deleter runs when the last view dies.
Tensor from_blob(void* data, IntArrayRef sizes, const TensorOptions& options = {});
Tensor from_blob(void* data, IntArrayRef sizes, IntArrayRef strides, const TensorOptions& options = {});
Tensor from_blob(void* data, IntArrayRef sizes, const std::function<void(void*)>& deleter,
                 const TensorOptions& options = {});
Tensor from_blob(void* data, IntArrayRef sizes, IntArrayRef strides, const std::function<void(void*)>& deleter,
                 const TensorOptions& options = {});

// Nested braces of numbers: tensor({{1, 2}, {3, 4}}). As LibTorch, each value keeps its C++
// type's scalar type (int -> Int, double -> Double: what mixing errors name), and the tensor's
// dtype follows Python: Int and Long give int64, Float and Double the default dtype, the other
// types (bool, uint8, int8, int16, Half, BFloat16, complex) themselves.
class TensorDataContainer {
 public:
  TensorDataContainer(bool v) : TensorDataContainer(Scalar(v), kBool) {}                 // NOLINT
  TensorDataContainer(uint8_t v) : TensorDataContainer(Scalar(v), kByte) {}              // NOLINT
  TensorDataContainer(int8_t v) : TensorDataContainer(Scalar(v), kChar) {}               // NOLINT
  TensorDataContainer(int16_t v) : TensorDataContainer(Scalar(v), kShort) {}             // NOLINT
  TensorDataContainer(int32_t v) : TensorDataContainer(Scalar(v), kInt) {}               // NOLINT
  TensorDataContainer(long v) : TensorDataContainer(Scalar(int64_t(v)), kLong) {}        // NOLINT
  TensorDataContainer(long long v) : TensorDataContainer(Scalar(int64_t(v)), kLong) {}   // NOLINT
  TensorDataContainer(float v) : TensorDataContainer(Scalar(v), kFloat) {}               // NOLINT
  TensorDataContainer(double v) : TensorDataContainer(Scalar(v), kDouble) {}             // NOLINT
  TensorDataContainer(Half v) : TensorDataContainer(Scalar(v), kHalf) {}                 // NOLINT
  TensorDataContainer(BFloat16 v) : TensorDataContainer(Scalar(v), kBFloat16) {}         // NOLINT
  TensorDataContainer(complex64 v) : TensorDataContainer(Scalar(v), kComplexFloat) {}    // NOLINT
  TensorDataContainer(complex128 v) : TensorDataContainer(Scalar(v), kComplexDouble) {}  // NOLINT
  TensorDataContainer(std::initializer_list<TensorDataContainer> list);                  // NOLINT
  template <typename T>
  TensorDataContainer(const std::vector<T>& v) {  // NOLINT
    sizes_ = {static_cast<int64_t>(v.size())};
    scalar_type_ = TensorDataContainer(T{}).scalar_type_;  // from T, also when empty: vector<int64_t>{} is int64
    for (const T& x : v) values_.push_back(Scalar(x));
  }
  template <typename T>
  TensorDataContainer(ArrayRef<T> v) : TensorDataContainer(v.vec()) {}  // NOLINT

  IntArrayRef sizes() const { return sizes_; }
  // The values' own scalar type, and the dtype torch::tensor gives them.
  ScalarType scalar_type() const { return scalar_type_; }
  ScalarType dtype() const;
  const std::vector<Scalar>& values() const { return values_; }  // row-major

 private:
  TensorDataContainer(Scalar v, ScalarType t) : scalar_type_(t), values_{v} {}
  DimVector sizes_;
  ScalarType scalar_type_ = kFloat;
  std::vector<Scalar> values_;
};

// Printed as the braced list it came from: {{1, 2}, {3, 4}} (LibTorch's form).
std::ostream& operator<<(std::ostream& os, const TensorDataContainer& data);

Tensor tensor(const TensorDataContainer& data, const TensorOptions& options = {});

}  // namespace torch
