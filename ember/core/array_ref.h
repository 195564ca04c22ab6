#pragma once
// ArrayRef: a non-owning view of a contiguous run of T (c10::ArrayRef's shape),
// so `zeros({2, 3})`, `zeros(n)` and `zeros(vec)` all bind to one signature.
#include <array>
#include <cstddef>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <ostream>
#include <type_traits>
#include <utility>
#include <vector>

#include "ember/core/error.h"

namespace torch {

template <typename T>
class ArrayRef {
 public:
  using value_type = T;
  using iterator = const T*;
  using const_iterator = const T*;

  constexpr ArrayRef() = default;
  constexpr ArrayRef(const T& one) : data_(&one), size_(1) {}  // NOLINT: implicit like c10
  constexpr ArrayRef(const T* data, size_t size) : data_(data), size_(size) {}
  constexpr ArrayRef(const T* begin, const T* end) : data_(begin), size_(end - begin) {}
  template <typename A>
  ArrayRef(const std::vector<T, A>& v) : data_(v.data()), size_(v.size()) {}  // NOLINT
  template <size_t N>
  constexpr ArrayRef(const std::array<T, N>& a) : data_(a.data()), size_(N) {}  // NOLINT
  template <size_t N>
  constexpr ArrayRef(const T (&a)[N]) : data_(a), size_(N) {}  // NOLINT
  // Like c10::ArrayRef, valid for the full-expression that builds the list.
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Winit-list-lifetime"
  constexpr ArrayRef(const std::initializer_list<T>& il)  // NOLINT
      : data_(il.begin() == il.end() ? nullptr : il.begin()), size_(il.size()) {}
#pragma GCC diagnostic pop

  constexpr const T* begin() const { return data_; }
  constexpr const T* end() const { return data_ + size_; }
  constexpr const T* data() const { return data_; }
  constexpr size_t size() const { return size_; }
  constexpr bool empty() const { return size_ == 0; }
  constexpr const T& operator[](size_t i) const { return data_[i]; }
  const T& at(size_t i) const {
    EMBER_CHECK(i < size_, "ArrayRef: index ", i, " out of range for size ", size_);
    return data_[i];
  }
  const T& front() const { return data_[0]; }
  const T& back() const { return data_[size_ - 1]; }
  ArrayRef slice(size_t start, size_t n) const { return ArrayRef(data_ + start, n); }
  ArrayRef slice(size_t start) const { return ArrayRef(data_ + start, size_ - start); }
  std::vector<T> vec() const { return std::vector<T>(begin(), end()); }
  bool equals(ArrayRef other) const {
    if (size_ != other.size_) return false;
    for (size_t i = 0; i < size_; ++i)
      if (!(data_[i] == other.data_[i])) return false;
    return true;
  }

 private:
  const T* data_ = nullptr;
  size_t size_ = 0;
};

template <typename T>
bool operator==(ArrayRef<T> a, ArrayRef<T> b) {
  return a.equals(b);
}
template <typename T>
bool operator!=(ArrayRef<T> a, ArrayRef<T> b) {
  return !a.equals(b);
}
template <typename T>
bool operator==(ArrayRef<T> a, const std::vector<T>& b) {
  return a.equals(b);
}
template <typename T>
bool operator==(const std::vector<T>& a, ArrayRef<T> b) {
  return b.equals(a);
}

using IntArrayRef = ArrayRef<int64_t>;

// c10::OptionalArrayRef's shape: an optional ArrayRef that a braced list, a
// vector or a DimVector converts to in one step, so `fft2(x, {4, 4})` binds
// (a std::optional<ArrayRef> would need two user conversions). A lone T does
// not convert, which keeps `t.var(1)` on its (int64_t dim) overload.
template <typename T>
class OptionalArrayRef {
 public:
  constexpr OptionalArrayRef() noexcept = default;
  constexpr OptionalArrayRef(std::nullopt_t) noexcept {}                   // NOLINT
  constexpr OptionalArrayRef(ArrayRef<T> a) noexcept : value_(a) {}        // NOLINT
  constexpr OptionalArrayRef(std::optional<ArrayRef<T>> a) : value_(a) {}  // NOLINT
  template <typename A>
  OptionalArrayRef(const std::vector<T, A>& v) : value_(ArrayRef<T>(v)) {}  // NOLINT
  // Valid for the full-expression that builds the list, as ArrayRef's.
  constexpr OptionalArrayRef(const std::initializer_list<T>& il) : value_(ArrayRef<T>(il)) {}  // NOLINT
  // Containers with data() and size() (SmallVector, DimVector, std::array).
  template <typename C, typename = decltype(std::declval<const C&>().data()),
            typename = std::enable_if_t<std::is_convertible_v<decltype(std::declval<const C&>().data()), const T*>>>
  OptionalArrayRef(const C& c) : value_(ArrayRef<T>(c.data(), c.size())) {}  // NOLINT

  constexpr bool has_value() const noexcept { return value_.has_value(); }
  constexpr explicit operator bool() const noexcept { return value_.has_value(); }
  constexpr ArrayRef<T> operator*() const { return *value_; }
  constexpr const ArrayRef<T>* operator->() const { return &*value_; }
  ArrayRef<T> value() const {
    EMBER_CHECK(value_.has_value(), "OptionalArrayRef: value() of an empty optional");
    return *value_;
  }
  constexpr ArrayRef<T> value_or(ArrayRef<T> other) const { return value_ ? *value_ : other; }
  void reset() noexcept { value_.reset(); }
  operator std::optional<ArrayRef<T>>() const { return value_; }  // NOLINT

  friend constexpr bool operator==(const OptionalArrayRef& a, std::nullopt_t) noexcept { return !a.has_value(); }
  friend constexpr bool operator!=(const OptionalArrayRef& a, std::nullopt_t) noexcept { return a.has_value(); }

 private:
  std::optional<ArrayRef<T>> value_;
};

// Printed as LibTorch prints sizes: [6, 1, 3, 3]
template <typename T>
std::ostream& operator<<(std::ostream& os, ArrayRef<T> a) {
  os << '[';
  for (size_t i = 0; i < a.size(); ++i) os << (i ? ", " : "") << a[i];
  return os << ']';
}

}  // namespace torch
