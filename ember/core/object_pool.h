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

namespace ember::detail {

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
  // and autograd metadata of a graph of a few thousand small ops (SPEC.md W1
  // builds 3000 per chain), so building the next graph reuses them all.
  static constexpr size_t kMaxBlocks = std::max<size_t>(1024, (size_t{2} << 20) / Size);
  struct Cache {
    std::vector<void*> blocks;
    ~Cache() {
      for (void* p : blocks) ::operator delete(p);
    }
  };
  // Owns the thread's cache. The fast path reads only t_cache, a pointer with
  // no destructor (no TLS guard or wrapper call): null before the thread's
  // first object, then the cache, then a dead marker once thread exit began
  // (objects freed by later thread_local destructors go to operator delete).
  struct Owner {
    std::unique_ptr<Cache> cache;
    ~Owner() { t_cache = dead(); }  // `cache` and its blocks are freed right after
  };
  static inline char dead_tag;
  static inline constinit thread_local Cache* t_cache = nullptr;
  static inline thread_local Owner t_owner;

  static Cache* dead() { return reinterpret_cast<Cache*>(&dead_tag); }
  [[gnu::noinline]] static Cache* create() {
    t_owner.cache = std::make_unique<Cache>();  // first use registers Owner's destructor
    t_cache = t_owner.cache.get();
    return t_cache;
  }
  static Cache* cache() {
    Cache* c = t_cache;
    if (c == nullptr) [[unlikely]]
      c = create();
    return c == dead() ? nullptr : c;
  }
};

}  // namespace ember::detail

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
