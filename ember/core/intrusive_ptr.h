#pragma once
// A minimal intrusive reference-counted pointer: one allocation per object and
// one atomic per copy, which keeps Tensor handles cheap on the small-op path.
// A new object's count starts at 1 with a plain store, and the last owner
// frees without a read-modify-write: with no weak references, a count of 1
// seen by its holder cannot change under it (another thread would need a
// reference to copy from). Each saves a locked instruction per tensor on the
// small-op path (W1 in BENCHMARKS.md).
#include <atomic>
#include <cstdint>
#include <utility>

#include "ember/core/namespace.h"

namespace torch {

class RefCounted {
 public:
  RefCounted() = default;
  RefCounted(const RefCounted&) = delete;
  RefCounted& operator=(const RefCounted&) = delete;
  virtual ~RefCounted() = default;
  uint32_t use_count() const { return refs_.load(std::memory_order_acquire); }

 private:
  template <typename T>
  friend class IntrusivePtr;
  mutable std::atomic<uint32_t> refs_{0};
};

template <typename T>
class IntrusivePtr {
 public:
  IntrusivePtr() = default;
  IntrusivePtr(std::nullptr_t) {}  // NOLINT
  explicit IntrusivePtr(T* p) : p_(p) { retain(); }
  IntrusivePtr(const IntrusivePtr& o) : p_(o.p_) { retain(); }
  IntrusivePtr(IntrusivePtr&& o) noexcept : p_(std::exchange(o.p_, nullptr)) {}
  template <typename U>
  IntrusivePtr(const IntrusivePtr<U>& o) : p_(o.get()) {
    retain();
  }  // NOLINT
  // Takes the first reference to a fresh object (make_intrusive).
  struct Adopt {};
  IntrusivePtr(T* fresh, Adopt) : p_(fresh) { p_->refs_.store(1, std::memory_order_relaxed); }
  ~IntrusivePtr() { release(); }
  IntrusivePtr& operator=(const IntrusivePtr& o) {
    IntrusivePtr(o).swap(*this);
    return *this;
  }
  IntrusivePtr& operator=(IntrusivePtr&& o) noexcept {
    IntrusivePtr(std::move(o)).swap(*this);
    return *this;
  }
  void swap(IntrusivePtr& o) noexcept { std::swap(p_, o.p_); }
  void reset() { IntrusivePtr().swap(*this); }

  T* get() const { return p_; }
  T* operator->() const { return p_; }
  T& operator*() const { return *p_; }
  explicit operator bool() const { return p_ != nullptr; }
  uint32_t use_count() const { return p_ ? p_->use_count() : 0; }
  bool operator==(const IntrusivePtr& o) const { return p_ == o.p_; }
  bool operator!=(const IntrusivePtr& o) const { return p_ != o.p_; }

 private:
  void retain() {
    if (p_) p_->refs_.fetch_add(1, std::memory_order_relaxed);
  }
  void release() {
    if (p_ &&
        (p_->refs_.load(std::memory_order_acquire) == 1 || p_->refs_.fetch_sub(1, std::memory_order_acq_rel) == 1))
      delete p_;
    p_ = nullptr;
  }
  T* p_ = nullptr;
};

template <typename T, typename... Args>
IntrusivePtr<T> make_intrusive(Args&&... args) {
  return IntrusivePtr<T>(new T(std::forward<Args>(args)...), typename IntrusivePtr<T>::Adopt{});
}

}  // namespace torch
