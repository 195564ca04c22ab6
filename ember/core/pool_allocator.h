#pragma once
// A standard allocator over the per-thread object pools (core/object_pool.h),
// for objects made with std::allocate_shared: the autograd graph's nodes are
// created and destroyed once per recorded op, a malloc/free pair each that
// the pool replaces with a push and a pop. Single objects only go through
// the pool; arrays use operator new.
#include <cstddef>
#include <new>

#include "ember/core/object_pool.h"

namespace torch::detail {

template <typename T>
struct PoolAllocator {
  using value_type = T;
  PoolAllocator() = default;
  template <typename U>
  PoolAllocator(const PoolAllocator<U>&) noexcept {}  // NOLINT: rebinding, as the standard requires

  T* allocate(size_t n) {
    static_assert(alignof(T) <= __STDCPP_DEFAULT_NEW_ALIGNMENT__, "the pools hand out operator new's alignment");
    if (n == 1) return static_cast<T*>(ObjectPool<sizeof(T)>::allocate());
    return static_cast<T*>(::operator new(n * sizeof(T)));
  }
  void deallocate(T* p, size_t n) noexcept {
    if (n == 1)
      ObjectPool<sizeof(T)>::release(p);
    else
      ::operator delete(p);
  }
  template <typename U>
  bool operator==(const PoolAllocator<U>&) const noexcept {
    return true;
  }
};

}  // namespace torch::detail
