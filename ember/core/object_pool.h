#pragma once
// Per-thread free lists for the small fixed-size objects every op creates
// (TensorImpl, StorageImpl): a freed object's memory serves the next one of
// its size without a trip through malloc. Under AddressSanitizer the pool is
// bypassed so use-after-free stays detectable.
#include <algorithm>
#include <cstddef>
#include <memory>
#include <new>
#include <vector>

#include "ember/core/fast_thread_local.h"

namespace torch::detail {

template <size_t Size>
class ObjectPool {
 public:
  static void* allocate() {
#ifndef __SANITIZE_ADDRESS__
    if (Cache* c = cache(); c != nullptr && !c->blocks.empty()) {
      void* p = c->blocks.back();
      c->blocks.pop_back();
      return p;
    }
#endif
    return ::operator new(Size);
  }
  static void release(void* p) {
#ifndef __SANITIZE_ADDRESS__
    if (Cache* c = cache(); c != nullptr && c->blocks.size() < kMaxBlocks) {
      c->blocks.push_back(p);
      return;
    }
#endif
    ::operator delete(p);
  }

 private:
  // A thread keeps at most ~2 MiB of each size: enough for the nodes, tensors
  // and autograd metadata of a graph of a few thousand small ops (bench/SPEC.md W1
  // builds 3000 per chain), so building the next graph reuses them all.
  static constexpr size_t kMaxBlocks = std::max<size_t>(1024, (size_t{2} << 20) / Size);
  struct Cache {
    std::vector<void*> blocks;
    ~Cache() {
      for (void* p : blocks) ::operator delete(p);
    }
  };
  // Reached without a TLS guard or descriptor call (Note [Fast thread_locals]);
  // null during thread exit: objects freed then go to operator delete.
  static Cache* cache() { return FastThreadLocal<Cache>::get(); }
};

}  // namespace torch::detail

// Gives a class pooled operator new/delete (objects of exactly its size).
#define EMBER_POOLED_ALLOCATION(Class)                                                                      \
  static void* operator new(size_t n) {                                                                     \
    return n == sizeof(Class) ? ::ember::detail::ObjectPool<sizeof(Class)>::allocate() : ::operator new(n); \
  }                                                                                                         \
  static void operator delete(void* p, size_t n) {                                                          \
    if (n == sizeof(Class))                                                                                 \
      ::ember::detail::ObjectPool<sizeof(Class)>::release(p);                                               \
    else                                                                                                    \
      ::operator delete(p);                                                                                 \
  }
