#pragma once
// DimVector: sizes/strides storage with inline capacity, so ordinary tensors
// (<= 6 dims) never touch the heap for their shape.
#include <algorithm>
#include <cstdint>
#include <cstring>
#include <memory>

#include "ember/core/array_ref.h"

namespace torch {

template <typename T, size_t N>
class SmallVector {
  static_assert(std::is_trivially_copyable_v<T>);

 public:
  SmallVector() = default;
  explicit SmallVector(size_t n, T v = T()) { assign(n, v); }
  SmallVector(ArrayRef<T> a) { assign(a.begin(), a.end()); }  // NOLINT
  SmallVector(std::initializer_list<T> il) { assign(il.begin(), il.end()); }
  SmallVector(const SmallVector& o) { assign(o.begin(), o.end()); }
  SmallVector(SmallVector&& o) noexcept { steal(std::move(o)); }
  SmallVector& operator=(const SmallVector& o) {
    if (this != &o) assign(o.begin(), o.end());
    return *this;
  }
  SmallVector& operator=(SmallVector&& o) noexcept {
    if (this != &o) steal(std::move(o));
    return *this;
  }

  void assign(const T* b, const T* e) {
    size_t n = e - b;
    reserve(n);
    if (n) std::memmove(data(), b, n * sizeof(T));
    size_ = n;
  }
  void assign(size_t n, T v) {
    reserve(n);
    std::fill_n(data(), n, v);
    size_ = n;
  }
  void reserve(size_t n) {
    if (n <= capacity()) return;
    auto h = std::make_unique<T[]>(n);
    if (size_) std::memcpy(h.get(), data(), size_ * sizeof(T));
    heap_ = std::move(h);
    heap_cap_ = n;
  }
  void resize(size_t n, T v = T()) {
    reserve(n);
    for (size_t i = size_; i < n; ++i) data()[i] = v;
    size_ = n;
  }
  void push_back(T v) {
    if (size_ == capacity()) reserve(std::max<size_t>(2 * capacity(), 1));
    data()[size_++] = v;
  }
  void insert(size_t pos, T v) {
    push_back(v);
    std::rotate(data() + pos, data() + size_ - 1, data() + size_);
  }
  void erase(size_t pos) {
    std::memmove(data() + pos, data() + pos + 1, (size_ - pos - 1) * sizeof(T));
    --size_;
  }
  void pop_back() { --size_; }
  void clear() { size_ = 0; }

  T* data() { return heap_ ? heap_.get() : inline_; }
  const T* data() const { return heap_ ? heap_.get() : inline_; }
  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t capacity() const { return heap_ ? heap_cap_ : N; }
  T& operator[](size_t i) { return data()[i]; }
  const T& operator[](size_t i) const { return data()[i]; }
  T& back() { return data()[size_ - 1]; }
  T* begin() { return data(); }
  T* end() { return data() + size_; }
  const T* begin() const { return data(); }
  const T* end() const { return data() + size_; }
  operator ArrayRef<T>() const { return ArrayRef<T>(data(), size_); }  // NOLINT
  ArrayRef<T> ref() const { return ArrayRef<T>(data(), size_); }
  std::vector<T> vec() const { return std::vector<T>(begin(), end()); }
  bool operator==(const SmallVector& o) const { return ref().equals(o.ref()); }

 private:
  void steal(SmallVector&& o) {
    if (o.heap_) {
      heap_ = std::move(o.heap_);
      heap_cap_ = o.heap_cap_;
    } else {
      heap_.reset();
      std::memcpy(inline_, o.inline_, o.size_ * sizeof(T));
    }
    size_ = o.size_;
    o.size_ = 0;
  }
  T inline_[N];
  std::unique_ptr<T[]> heap_;
  size_t heap_cap_ = 0;
  size_t size_ = 0;
};

using DimVector = SmallVector<int64_t, 6>;

}  // namespace torch
