#pragma once
// Per-thread free lists for the small fixed-size objects every op creates
// (TensorImpl, StorageImpl): a freed object's memory serves the next one of
// its size without a trip through malloc. Under AddressSanitizer the pool is
// bypassed so use-after-free stays detectable.
#include <cstddef>
#include <new>
#include <vector>

namespace ember::detail {

template <size_t Size>
class ObjectPool {
 public:
  static void* allocate() {
#ifndef __SANITIZE_ADDRESS__
    auto& c = cache();
    if (!dead() && !c.blocks.empty()) {
      void* p = c.blocks.back();
      c.blocks.pop_back();
      return p;
    }
#endif
    return ::operator new(Size);
  }
  static void release(void* p) {
#ifndef __SANITIZE_ADDRESS__
    auto& c = cache();
    if (!dead() && c.blocks.size() < kMaxBlocks) {
      c.blocks.push_back(p);
      return;
    }
#endif
    ::operator delete(p);
  }

 private:
  static constexpr size_t kMaxBlocks = 1024;
  struct Cache {
    std::vector<void*> blocks;
    ~Cache() {
      for (void* p : blocks) ::operator delete(p);
      blocks.clear();
      dead() = true;
    }
  };
  static Cache& cache() {
    thread_local Cache c;
    return c;
  }
  // Trivially destructible, so objects freed after this thread's cache died
  // (thread_local destruction order) go straight back to operator delete.
  static bool& dead() {
    thread_local bool d = false;
    return d;
  }
};

}  // namespace ember::detail

// Gives a class pooled operator new/delete (objects of exactly its size).
#define EMBER_POOLED_ALLOCATION(Class)                                                              \
  static void* operator new(size_t n) {                                                            \
    return n == sizeof(Class) ? ::ember::detail::ObjectPool<sizeof(Class)>::allocate()             \
                              : ::operator new(n);                                                 \
  }                                                                                                \
  static void operator delete(void* p, size_t n) {                                                 \
    if (n == sizeof(Class))                                                                        \
      ::ember::detail::ObjectPool<sizeof(Class)>::release(p);                                      \
    else                                                                                           \
      ::operator delete(p);                                                                        \
  }
