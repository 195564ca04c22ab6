#include "ember/core/allocator.h"

#include <cstdlib>
#include <mutex>
#include <new>
#include <vector>

#include "ember/core/error.h"

namespace ember {

// Note [Size classes]
// Requests are rounded up to a class: multiples of 64 bytes below 4 KiB, and
// above that four classes per power of two (at most 25% slack). A freed block
// goes to its class's free list and serves the next request of that class.
size_t CachingAllocator::size_class(size_t n) {
  if (n == 0) n = 1;
  if (n <= 4096) return (n + 63) & ~size_t(63);
  int top = 63 - __builtin_clzll(n - 1);  // n-1 < 2^(top+1)
  size_t step = size_t(1) << (top - 2);
  return (n + step - 1) & ~(step - 1);
}

// Index of a size class in the free-list table: 64 classes of 64 B up to
// 4 KiB, then 4 per power of two.
namespace {
size_t class_index(size_t cls) {
  if (cls <= 4096) return cls / 64 - 1;
  int top = 63 - __builtin_clzll(cls - 1);
  return 64 + (top - 12) * 4 + ((cls - 1) >> (top - 2) & 3);
}
constexpr size_t kNumClasses = 64 + 52 * 4;
}  // namespace

struct CachingAllocator::Impl {
  mutable std::mutex mu;
  std::vector<std::vector<void*>> free_lists = std::vector<std::vector<void*>>(kNumClasses);
  AllocatorStats st;
  bool caching = true;
};

CachingAllocator::CachingAllocator() : impl_(std::make_unique<Impl>()) {}

CachingAllocator& CachingAllocator::get() {
  // Leaked on purpose: tensors in static storage may be freed after main returns.
  static CachingAllocator* inst = new CachingAllocator();
  return *inst;
}

DataPtr CachingAllocator::allocate(size_t nbytes) {
  size_t cls = size_class(nbytes);
  void* p = nullptr;
  {
    std::lock_guard<std::mutex> g(impl_->mu);
    auto& list = impl_->free_lists[class_index(cls)];
    if (!list.empty()) {
      p = list.back();
      list.pop_back();
      impl_->st.cached -= cls;
    }
    if (p == nullptr) {
      p = std::aligned_alloc(kAlignment, cls);
      if (p == nullptr) {
        // Return cached memory to the system and try once more before giving up.
        for (auto& l : impl_->free_lists) {
          for (void* q : l) std::free(q);
          l.clear();
        }
        impl_->st.reserved -= impl_->st.cached;
        impl_->st.cached = 0;
        p = std::aligned_alloc(kAlignment, cls);
      }
      EMBER_CHECK(p != nullptr, "allocate: out of memory trying to allocate ", nbytes, " bytes");
      impl_->st.reserved += cls;
      impl_->st.system_allocs++;
    }
    impl_->st.allocated += cls;
    if (impl_->st.allocated > impl_->st.peak_allocated) impl_->st.peak_allocated = impl_->st.allocated;
  }
  return DataPtr(p, [this, cls](void* q) { free_block(q, cls); });
}

void CachingAllocator::free_block(void* p, size_t cls) {
  std::lock_guard<std::mutex> g(impl_->mu);
  impl_->st.allocated -= cls;
  if (impl_->caching) {
    impl_->free_lists[class_index(cls)].push_back(p);
    impl_->st.cached += cls;
  } else {
    std::free(p);
    impl_->st.reserved -= cls;
  }
}

AllocatorStats CachingAllocator::stats() const {
  std::lock_guard<std::mutex> g(impl_->mu);
  return impl_->st;
}

void CachingAllocator::reset_peak() {
  std::lock_guard<std::mutex> g(impl_->mu);
  impl_->st.peak_allocated = impl_->st.allocated;
}

void CachingAllocator::empty_cache() {
  std::lock_guard<std::mutex> g(impl_->mu);
  for (auto& list : impl_->free_lists) {
    for (void* p : list) std::free(p);
    list.clear();
  }
  impl_->st.reserved -= impl_->st.cached;
  impl_->st.cached = 0;
}

void CachingAllocator::set_caching_enabled(bool on) {
  {
    std::lock_guard<std::mutex> g(impl_->mu);
    impl_->caching = on;
  }
  if (!on) empty_cache();
}

bool CachingAllocator::caching_enabled() const {
  std::lock_guard<std::mutex> g(impl_->mu);
  return impl_->caching;
}

size_t memory_allocated() { return CachingAllocator::get().stats().allocated; }
size_t max_memory_allocated() { return CachingAllocator::get().stats().peak_allocated; }
size_t memory_reserved() { return CachingAllocator::get().stats().reserved; }
void reset_peak_memory_stats() { CachingAllocator::get().reset_peak(); }
void empty_cache() { CachingAllocator::get().empty_cache(); }

NoCachingGuard::NoCachingGuard() : prev_(CachingAllocator::get().caching_enabled()) {
  CachingAllocator::get().set_caching_enabled(false);
}
NoCachingGuard::~NoCachingGuard() { CachingAllocator::get().set_caching_enabled(prev_); }

}  // namespace ember
