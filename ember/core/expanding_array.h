#pragma once
// ExpandingArray<D>: D values given either as a list of D or as one value
// repeated (`kernel_size=3` means {3, 3} for a 2-D layer), as torch::ExpandingArray.
// It converts to IntArrayRef, so it can be passed straight to ops.
#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <ostream>
#include <vector>

#include "ember/core/array_ref.h"
#include "ember/core/error.h"

namespace torch {

template <size_t D, typename T = int64_t>
class ExpandingArray {
 public:
  ExpandingArray(std::initializer_list<T> list) : ExpandingArray(ArrayRef<T>(list)) {}  // NOLINT
  ExpandingArray(std::vector<T> list) : ExpandingArray(ArrayRef<T>(list)) {}            // NOLINT
  ExpandingArray(ArrayRef<T> values) {                                                  // NOLINT
    EMBER_CHECK(values.size() == D, "Expected ", D, " values, but instead got ", values.size());
    std::copy(values.begin(), values.end(), values_.begin());
  }
  ExpandingArray(T single_size) { values_.fill(single_size); }         // NOLINT
  ExpandingArray(const std::array<T, D>& values) : values_(values) {}  // NOLINT

  std::array<T, D>& operator*() { return values_; }
  const std::array<T, D>& operator*() const { return values_; }
  std::array<T, D>* operator->() { return &values_; }
  const std::array<T, D>* operator->() const { return &values_; }
  operator ArrayRef<T>() const { return ArrayRef<T>(values_); }  // NOLINT
  size_t size() const noexcept { return D; }
  bool operator==(const ExpandingArray& o) const { return values_ == o.values_; }

 protected:
  std::array<T, D> values_;
};

// Printed as LibTorch prints it: [3, 3]
template <size_t D, typename T>
std::ostream& operator<<(std::ostream& os, const ExpandingArray<D, T>& a) {
  return os << ArrayRef<T>(*a);
}

// ExpandingArrayWithOptionalElem<D>: as ExpandingArray, but an element may be
// std::nullopt ("keep the input's size", as the adaptive pools use it).
template <size_t D, typename T = int64_t>
class ExpandingArrayWithOptionalElem : public ExpandingArray<D, std::optional<T>> {
 public:
  using Base = ExpandingArray<D, std::optional<T>>;
  using Base::Base;
  ExpandingArrayWithOptionalElem(std::initializer_list<T> list)  // NOLINT
      : ExpandingArrayWithOptionalElem(ArrayRef<T>(list)) {}
  ExpandingArrayWithOptionalElem(std::vector<T> list)  // NOLINT
      : ExpandingArrayWithOptionalElem(ArrayRef<T>(list)) {}
  ExpandingArrayWithOptionalElem(ArrayRef<T> values) : Base(std::optional<T>()) {  // NOLINT
    EMBER_CHECK(values.size() == D, "Expected ", D, " values, but instead got ", values.size());
    std::copy(values.begin(), values.end(), this->values_.begin());
  }
  ExpandingArrayWithOptionalElem(T single_size) : Base(std::optional<T>(single_size)) {}  // NOLINT
};

// Printed as LibTorch prints it: [2, None]
template <size_t D, typename T>
std::ostream& operator<<(std::ostream& os, const ExpandingArrayWithOptionalElem<D, T>& a) {
  if (D != 1) os << "[";
  for (size_t i = 0; i < D; ++i) {
    if (i > 0) os << ", ";
    if ((*a)[i].has_value())
      os << *(*a)[i];
    else
      os << "None";
  }
  if (D != 1) os << "]";
  return os;
}

}  // namespace torch
