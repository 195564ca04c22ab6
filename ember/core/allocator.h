#pragma once
// The CPU caching allocator: 64-byte aligned blocks, recycled by size class so
// a training loop's steady state makes no system allocations. This and the
// thread pool and the RNG are Ember's only global mutable state.
#include <cstddef>
#include <cstdint>
#include <functional>
#include <memory>

#include "ember/core/namespace.h"

namespace torch {

// Owning pointer to tensor bytes. The deleter is a plain function plus a
// context word (the allocator's is a static function; from_blob's boxes the
// user's std::function), so the hot path never touches std::function.
class DataPtr {
 public:
  using Deleter = void (*)(void* ctx, void* ptr, size_t nbytes);
  DataPtr() = default;
  DataPtr(void* ptr, Deleter d, void* ctx, size_t nbytes) : ptr_(ptr), deleter_(d), ctx_(ctx), nbytes_(nbytes) {}
  // Wraps memory whose owner wants `del(ptr)` called when the last tensor dies.
  static DataPtr with_deleter(void* ptr, std::function<void(void*)> del);
  DataPtr(DataPtr&& o) noexcept { swap(o); }
  DataPtr& operator=(DataPtr&& o) noexcept {
    DataPtr(std::move(o)).swap(*this);
    return *this;
  }
  DataPtr(const DataPtr&) = delete;
  DataPtr& operator=(const DataPtr&) = delete;
  ~DataPtr() {
    if (deleter_) deleter_(ctx_, ptr_, nbytes_);
  }
  void* get() const { return ptr_; }
  void swap(DataPtr& o) noexcept {
    std::swap(ptr_, o.ptr_);
    std::swap(deleter_, o.deleter_);
    std::swap(ctx_, o.ctx_);
    std::swap(nbytes_, o.nbytes_);
  }

 private:
  void* ptr_ = nullptr;
  Deleter deleter_ = nullptr;
  void* ctx_ = nullptr;
  size_t nbytes_ = 0;
};

struct AllocatorStats {
  size_t allocated = 0;       // bytes handed out and not yet returned
  size_t peak_allocated = 0;  // high-water mark of `allocated`
  size_t cached = 0;          // bytes held in free lists for reuse
  size_t reserved = 0;        // allocated + cached: bytes obtained from the system
  size_t system_allocs = 0;   // number of calls that went to the system allocator
};

class CachingAllocator {
 public:
  static CachingAllocator& get();
  DataPtr allocate(size_t nbytes);
  AllocatorStats stats() const;
  void reset_peak();
  void empty_cache();
  // When disabled, freed blocks go straight back to the system.
  void set_caching_enabled(bool on);
  bool caching_enabled() const;
  static constexpr size_t kAlignment = 64;
  static size_t size_class(size_t nbytes);
  // Moves the calling thread's cached blocks to the shared free lists.
  void flush_thread_cache();

 private:
  CachingAllocator();
  struct ThreadCache;  // Note [Thread caches] in allocator.cpp
  static ThreadCache* live_thread_cache();
  static ThreadCache* thread_cache(size_t idx);
  void fold_counts(ThreadCache& tc);
  void flush_thread_cache(ThreadCache& tc);
  void free_block(void* p, size_t cls);
  static void delete_block(void* self, void* p, size_t cls);
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

// torch.cuda-style spellings of the allocator statistics, for the CPU.
size_t memory_allocated();
size_t max_memory_allocated();
size_t memory_reserved();
void reset_peak_memory_stats();
void empty_cache();

// RAII: disables caching for a scope (every free returns memory to the system).
class NoCachingGuard {
 public:
  NoCachingGuard();
  ~NoCachingGuard();
  NoCachingGuard(const NoCachingGuard&) = delete;
  NoCachingGuard& operator=(const NoCachingGuard&) = delete;

 private:
  bool prev_;
};

}  // namespace torch
