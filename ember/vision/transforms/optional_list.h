#pragma once
// Argument types for Python's "int or list" and "Optional[List[float]]"
// parameters, so each reads in C++ as in Python without overloads (whose
// `{256}` would pick the scalar one and draw -Wbraced-scalar-init):
//   IntList        size=256 / size=[256] / size=[224, 224]   (resize, pad, crops, kernel_size)
//   OptionalFloats fill=None / fill=0.5 / fill=[0.1, 0.2, 0.3] (fill, sigma)
//   OptionalInts   center=None / center=[3, 4]
//   Shear          shear=10 (means [10, 0]) / shear=[10] (means [10, 10]) / shear=[10, 5]
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <vector>

#include "ember/core/array_ref.h"

namespace torch::vision::transforms {

class IntList : public std::vector<int64_t> {
 public:
  IntList(int64_t value) : std::vector<int64_t>{value} {}                              // NOLINT
  IntList(std::initializer_list<int64_t> values) : std::vector<int64_t>(values) {}     // NOLINT
  IntList(std::vector<int64_t> values) : std::vector<int64_t>(std::move(values)) {}    // NOLINT
  IntList(IntArrayRef values) : std::vector<int64_t>(values.begin(), values.end()) {}  // NOLINT
};

template <typename T>
class OptionalList : public std::optional<std::vector<T>> {
  using Base = std::optional<std::vector<T>>;

 public:
  OptionalList() = default;
  OptionalList(std::nullopt_t) {}                                                  // NOLINT
  OptionalList(T value) : Base(std::vector<T>{value}) {}                           // NOLINT
  OptionalList(std::initializer_list<T> values) : Base(std::vector<T>(values)) {}  // NOLINT
  OptionalList(std::vector<T> values) : Base(std::move(values)) {}                 // NOLINT
  OptionalList(const Base& values) : Base(values) {}                               // NOLINT
};

using OptionalFloats = OptionalList<double>;
using OptionalInts = OptionalList<int64_t>;

// affine's shear: Python's number s means [s, 0.0]; a list [s] means [s, s].
class Shear {
 public:
  Shear(double value) : values_{value, 0.0} {}                       // NOLINT
  Shear(std::initializer_list<double> values) : values_(values) {}   // NOLINT
  Shear(std::vector<double> values) : values_(std::move(values)) {}  // NOLINT
  const std::vector<double>& values() const { return values_; }

 private:
  std::vector<double> values_;
};

}  // namespace torch::vision::transforms
