#pragma once
// InlineVector<T, N>: a vector that keeps its first N elements inside the
// object and moves to the heap only beyond that. For any movable T (unlike
// SmallVector, which is for trivially copyable shapes). The autograd graph
// uses it for the per-node lists (edges, input metadata, saved tensors) that
// almost always hold one to three entries: one heap allocation fewer each,
// per recorded op (Note [Small-op fast path] in ops/elementwise/binary.cpp).
#include <algorithm>
#include <cstddef>
#include <initializer_list>
#include <memory>
#include <new>
#include <type_traits>
#include <utility>

#include "ember/core/error.h"

namespace torch {

template <typename T, size_t N>
class InlineVector {
  static_assert(N > 0, "InlineVector: use std::vector for no inline capacity");

 public:
  using value_type = T;
  using iterator = T*;
  using const_iterator = const T*;

  InlineVector() noexcept = default;
  InlineVector(std::initializer_list<T> il) { append(il.begin(), il.end()); }
  InlineVector(const InlineVector& o) { append(o.begin(), o.end()); }
  InlineVector(InlineVector&& o) noexcept(std::is_nothrow_move_constructible_v<T>) { take(o); }
  InlineVector& operator=(const InlineVector& o) {
    if (this != &o) {
      clear();
      append(o.begin(), o.end());
    }
    return *this;
  }
  InlineVector& operator=(InlineVector&& o) noexcept(std::is_nothrow_move_constructible_v<T>) {
    if (this != &o) {
      release();
      take(o);
    }
    return *this;
  }
  ~InlineVector() { release(); }

  size_t size() const { return size_; }
  bool empty() const { return size_ == 0; }
  size_t capacity() const { return cap_; }
  T* data() { return data_; }
  const T* data() const { return data_; }
  T* begin() { return data_; }
  T* end() { return data_ + size_; }
  const T* begin() const { return data_; }
  const T* end() const { return data_ + size_; }
  T& operator[](size_t i) { return data_[i]; }
  const T& operator[](size_t i) const { return data_[i]; }
  T& at(size_t i) { return data_[checked(i)]; }
  const T& at(size_t i) const { return data_[checked(i)]; }
  T& front() { return data_[0]; }
  T& back() { return data_[size_ - 1]; }
  const T& back() const { return data_[size_ - 1]; }

  void reserve(size_t n) {
    if (n > cap_) grow(n);
  }
  template <typename... Args>
  T& emplace_back(Args&&... args) {
    if (size_ == cap_) {
      T v(std::forward<Args>(args)...);  // args may refer to an element that grow() moves
      grow(2 * cap_);
      return *::new (static_cast<void*>(data_ + size_++)) T(std::move(v));
    }
    T* p = ::new (static_cast<void*>(data_ + size_)) T(std::forward<Args>(args)...);
    ++size_;
    return *p;
  }
  void push_back(const T& v) { emplace_back(v); }
  void push_back(T&& v) { emplace_back(std::move(v)); }
  void pop_back() { data_[--size_].~T(); }
  void resize(size_t n) {
    reserve(n);
    while (size_ < n) emplace_back();
    while (size_ > n) pop_back();
  }
  void clear() {
    std::destroy(begin(), end());
    size_ = 0;
  }

 private:
  T* inline_data() { return std::launder(reinterpret_cast<T*>(inline_)); }
  bool on_heap() const { return data_ != reinterpret_cast<const T*>(inline_); }
  size_t checked(size_t i) const {
    EMBER_CHECK(i < size_, "InlineVector: index ", i, " out of range for size ", size_);
    return i;
  }
  template <typename It>
  void append(It b, It e) {
    reserve(size_ + static_cast<size_t>(e - b));
    for (; b != e; ++b) emplace_back(*b);
  }
  void grow(size_t n) {
    std::allocator<T> alloc;
    T* fresh = alloc.allocate(n);
    std::uninitialized_move(begin(), end(), fresh);
    std::destroy(begin(), end());
    if (on_heap()) alloc.deallocate(data_, cap_);
    data_ = fresh;
    cap_ = n;
  }
  // Destroys the elements and frees a heap buffer; leaves the object empty and inline.
  void release() {
    clear();
    if (on_heap()) std::allocator<T>().deallocate(data_, cap_);
    data_ = inline_data();
    cap_ = N;
  }
  // Takes o's elements (its buffer when on the heap); o is left empty and inline.
  void take(InlineVector& o) {
    if (o.on_heap()) {
      data_ = o.data_;
      cap_ = o.cap_;
      size_ = o.size_;
      o.data_ = o.inline_data();
      o.cap_ = N;
      o.size_ = 0;
      return;
    }
    std::uninitialized_move(o.begin(), o.end(), inline_data());
    size_ = o.size_;
    o.clear();
  }

  alignas(T) std::byte inline_[N * sizeof(T)];
  T* data_ = inline_data();
  size_t cap_ = N;
  size_t size_ = 0;
};

}  // namespace torch
