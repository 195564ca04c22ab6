#include "ember/core/allocator.h"

#include <sys/mman.h>

#include <algorithm>
#include <array>
#include <atomic>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <new>
#include <vector>

#include "ember/core/error.h"
#include "ember/core/fast_thread_local.h"
#include "ember/core/record_scope.h"

namespace torch {

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

// Note [Huge pages for large blocks]
// Blocks of 8 MiB and more (their classes are multiples of 2 MiB) are aligned
// to 2 MiB and advised as transparent huge pages: a random row of a 256 MB
// embedding table (W7) then costs one cache miss instead of a cache miss and a
// page walk, as most of a 4 KiB-paged table's TLB entries miss. Smaller blocks
// keep 64-byte alignment; the kernel ignores the advice when THP is disabled.
namespace {
constexpr size_t kHugePage = size_t(2) << 20;
constexpr size_t kHugeBlock = size_t(8) << 20;
void* system_alloc(size_t alignment, size_t cls) {
  if (cls < kHugeBlock) return std::aligned_alloc(alignment, cls);
  void* p = std::aligned_alloc(kHugePage, cls);
#ifdef MADV_HUGEPAGE
  if (p != nullptr) ::madvise(p, cls, MADV_HUGEPAGE);
#endif
  return p;
}
}  // namespace

// Index of a size class in the free-list table: 64 classes of 64 B up to
// 4 KiB, then 4 per power of two.
namespace {
size_t class_index(size_t cls) {
  if (cls <= 4096) return cls / 64 - 1;
  int top = 63 - __builtin_clzll(cls - 1);
  return 64 + (top - 12) * 4 + ((cls - 1) >> (top - 2) & 3);
}
constexpr size_t kNumClasses = 64 + 52 * 4;
// Inverse of class_index for the small classes (<= 64 KiB).
constexpr size_t class_size(size_t idx) {
  if (idx < 64) return (idx + 1) * 64;
  const size_t top = 12 + (idx - 64) / 4, sub = (idx - 64) % 4;
  return (size_t(1) << top) + (sub + 1) * (size_t(1) << (top - 2));
}
}  // namespace

// Note [Allocator slow paths]
// One word holds every reason to leave the fast path: caching disabled
// (NoCachingGuard) and reporting bytes to the profiler (profile_memory). A
// free tests the word once for both, and an allocation tests one bit of it,
// a single RIP-relative instruction each (the word has internal linkage), so
// memory profiling costs nothing per op while no profile records memory
// (Note [Profiler hook cost]). There is one allocator, hence one word.
namespace {
constexpr uint32_t kNotCaching = 1;
constexpr uint32_t kReportMemory = 2;
std::atomic<uint32_t> g_slow_paths{0};
}  // namespace

// Note [Thread caches]
// Small blocks (<= 64 KiB) freed by a thread go to that thread's own cache, so
// the small-op path takes no lock; larger blocks and overflow go to the
// shared, mutex-guarded free lists. A thread keeps up to 128 KiB of each small
// class (at least 32 blocks): a graph of a few thousand one-element tensors
// (bench/SPEC.md W1) frees its blocks into the cache the next graph allocates from.
// Beyond that, blocks move between a thread cache and the shared lists 32 at
// a time, so even then only one allocation or free in 32 takes the lock.
// A thread's cache returns to the shared lists when the thread exits.
//
// Note [Per-thread byte counts]
// Counting every small allocation in the shared atomic `allocated` costs a
// locked add per allocation and per free (~20 cycles each). A thread cache
// instead counts its own bytes in `pending` (plain adds; only its thread
// touches it) and the highest value since the last fold in `pending_peak`,
// and folds both into the shared counters when |pending| passes 256 KiB, when
// the thread takes the shared lists' lock, when it asks for the statistics,
// and when it exits. So a single-threaded program's statistics, peak
// included, are exact; another thread's last < 256 KiB may not be counted yet.
constexpr size_t kSmallClassLimit = 64 + 4 * 4;  // class indices below this are thread-cached
constexpr size_t kThreadCacheBytesPerClass = size_t{128} << 10;
constexpr int64_t kFoldBytes = int64_t{256} << 10;
constexpr size_t kTransferBlocks = 32;  // blocks moved between a thread cache and the shared lists per lock

struct CachingAllocator::Impl {
  mutable std::mutex mu;
  std::vector<std::vector<void*>> free_lists = std::vector<std::vector<void*>>(kNumClasses);
  // Every reserved byte is either allocated or cached, so cached bytes are
  // reserved - allocated and need no counter of their own.
  std::atomic<size_t> allocated{0}, peak{0}, reserved{0}, system_allocs{0};
  size_t shared_cached = 0;  // bytes in free_lists (guarded by mu); thread caches hold the rest

  // Adds `delta` bytes to `allocated`; the total reached `peak_delta` above
  // the old value at its highest.
  void note_allocated(int64_t delta, int64_t peak_delta) {
    const size_t before = allocated.fetch_add(static_cast<size_t>(delta), std::memory_order_relaxed);
    const size_t high = before + static_cast<size_t>(peak_delta);
    size_t pk = peak.load(std::memory_order_relaxed);
    while (high > pk && !peak.compare_exchange_weak(pk, high, std::memory_order_relaxed)) {
    }
  }
  void note_allocated(size_t cls) { note_allocated(static_cast<int64_t>(cls), static_cast<int64_t>(cls)); }
  void release_all_locked() {
    for (auto& l : free_lists) {
      for (void* q : l) std::free(q);
      l.clear();
    }
    reserved.fetch_sub(shared_cached);
    shared_cached = 0;
  }
};

namespace {
// Blocks of class `idx` a thread cache keeps: 128 KiB worth, at least 32.
constexpr auto kThreadCacheCapacity = [] {
  std::array<uint32_t, kSmallClassLimit> cap{};
  for (size_t i = 0; i < kSmallClassLimit; ++i)
    cap[i] = static_cast<uint32_t>(std::max<size_t>(32, kThreadCacheBytesPerClass / class_size(i)));
  return cap;
}();
}  // namespace

struct CachingAllocator::ThreadCache {
  std::array<std::vector<void*>, kSmallClassLimit> lists;
  CachingAllocator* owner = nullptr;
  int64_t pending = 0;       // bytes this thread allocated minus freed, not yet in Impl::allocated
  int64_t pending_peak = 0;  // the highest `pending` since the last fold (>= 0)
  ~ThreadCache() {
    if (owner != nullptr) owner->flush_thread_cache(*this);
  }
};

// The calling thread's cache, or null while its thread exits (Note [Fast thread_locals]).
CachingAllocator::ThreadCache* CachingAllocator::live_thread_cache() {
  return detail::FastThreadLocal<ThreadCache>::get();
}
// This thread's cache for class `idx`, or null (a large class, or the thread is exiting).
CachingAllocator::ThreadCache* CachingAllocator::thread_cache(size_t idx) {
  return idx < kSmallClassLimit ? live_thread_cache() : nullptr;
}

void CachingAllocator::fold_counts(ThreadCache& tc) {
  if (tc.pending != 0 || tc.pending_peak != 0) impl_->note_allocated(tc.pending, tc.pending_peak);
  tc.pending = tc.pending_peak = 0;
}

CachingAllocator::CachingAllocator() : impl_(std::make_unique<Impl>()) {}

CachingAllocator& CachingAllocator::get() {
  // Leaked on purpose: tensors in static storage may be freed after main returns.
  static CachingAllocator* inst = new CachingAllocator();
  return *inst;
}

DataPtr CachingAllocator::allocate(size_t nbytes) {
  EMBER_CHECK(nbytes <= static_cast<size_t>(PTRDIFF_MAX) / 2, "allocate: cannot allocate ", nbytes,
              " bytes (larger than the address space allows)");
  const size_t cls = size_class(nbytes);
  const size_t idx = class_index(cls);
  void* p = nullptr;
  ThreadCache* tc = thread_cache(idx);
  if (tc != nullptr && !tc->lists[idx].empty()) {
    p = tc->lists[idx].back();
    tc->lists[idx].pop_back();
  } else {
    std::lock_guard<std::mutex> g(impl_->mu);
    if (ThreadCache* own = live_thread_cache()) fold_counts(*own);
    auto& list = impl_->free_lists[idx];
    if (!list.empty()) {
      p = list.back();
      list.pop_back();
      impl_->shared_cached -= cls;
      if (tc != nullptr) {  // refill the thread's list too: one lock per kTransferBlocks allocations
        const size_t n = std::min(list.size(), kTransferBlocks);
        tc->lists[idx].insert(tc->lists[idx].end(), list.end() - static_cast<ptrdiff_t>(n), list.end());
        list.resize(list.size() - n);
        impl_->shared_cached -= n * cls;
      }
    } else {
      p = system_alloc(kAlignment, cls);
      if (p == nullptr) {
        // Return cached memory to the system and try once more before giving up.
        impl_->release_all_locked();
        p = system_alloc(kAlignment, cls);
      }
      EMBER_CHECK(p != nullptr, "allocate: out of memory trying to allocate ", nbytes, " bytes");
      impl_->reserved.fetch_add(cls, std::memory_order_relaxed);
      impl_->system_allocs.fetch_add(1, std::memory_order_relaxed);
    }
  }
  if (tc != nullptr) {
    tc->owner = this;
    tc->pending += static_cast<int64_t>(cls);
    if (tc->pending > tc->pending_peak) {
      tc->pending_peak = tc->pending;
      if (tc->pending_peak > kFoldBytes) [[unlikely]]
        fold_counts(*tc);
    }
  } else {
    impl_->note_allocated(cls);
  }
  if (g_slow_paths.load(std::memory_order_relaxed) & kReportMemory) [[unlikely]]
    profiler::detail::note_memory(static_cast<int64_t>(cls));
  return DataPtr(p, &CachingAllocator::delete_block, this, cls);
}

void CachingAllocator::delete_block(void* self, void* p, size_t cls) {
  static_cast<CachingAllocator*>(self)->free_block(p, cls);
}

DataPtr DataPtr::with_deleter(void* ptr, std::function<void(void*)> del) {
  auto* boxed = new std::function<void(void*)>(std::move(del));
  return DataPtr(
      ptr,
      [](void* ctx, void* q, size_t) {
        std::unique_ptr<std::function<void(void*)>> f(static_cast<std::function<void(void*)>*>(ctx));
        if (*f) (*f)(q);
      },
      boxed, 0);
}

void CachingAllocator::free_block(void* p, size_t cls) {
  const size_t idx = class_index(cls);
  ThreadCache* tc = thread_cache(idx);
  if (tc != nullptr) {
    tc->owner = this;
    tc->pending -= static_cast<int64_t>(cls);
    if (tc->pending < -kFoldBytes) [[unlikely]]
      fold_counts(*tc);
  } else {
    impl_->allocated.fetch_sub(cls, std::memory_order_relaxed);
  }
  if (const uint32_t slow = g_slow_paths.load(std::memory_order_relaxed)) [[unlikely]] {
    if (slow & kReportMemory) profiler::detail::note_memory(-static_cast<int64_t>(cls));
    if (slow & kNotCaching) {
      std::free(p);
      impl_->reserved.fetch_sub(cls, std::memory_order_relaxed);
      return;
    }
  }
  if (tc == nullptr) {
    std::lock_guard<std::mutex> g(impl_->mu);
    impl_->free_lists[idx].push_back(p);
    impl_->shared_cached += cls;
    return;
  }
  auto& mine = tc->lists[idx];
  if (mine.size() >= kThreadCacheCapacity[idx]) [[unlikely]] {
    // Full: hand the oldest kTransferBlocks to the shared list under one lock.
    std::lock_guard<std::mutex> g(impl_->mu);
    auto& shared = impl_->free_lists[idx];
    shared.insert(shared.end(), mine.begin(), mine.begin() + static_cast<ptrdiff_t>(kTransferBlocks));
    mine.erase(mine.begin(), mine.begin() + static_cast<ptrdiff_t>(kTransferBlocks));
    impl_->shared_cached += kTransferBlocks * cls;
  }
  mine.push_back(p);
}

void CachingAllocator::flush_thread_cache() {
  if (ThreadCache* tc = live_thread_cache()) flush_thread_cache(*tc);
}

void CachingAllocator::flush_thread_cache(ThreadCache& tc) {
  std::lock_guard<std::mutex> g(impl_->mu);
  fold_counts(tc);
  for (size_t i = 0; i < kSmallClassLimit; ++i) {
    auto& l = tc.lists[i];
    impl_->shared_cached += l.size() * class_size(i);
    impl_->free_lists[i].insert(impl_->free_lists[i].end(), l.begin(), l.end());
    l.clear();
  }
}

AllocatorStats CachingAllocator::stats() const {
  if (ThreadCache* tc = live_thread_cache()) const_cast<CachingAllocator*>(this)->fold_counts(*tc);
  AllocatorStats st;
  st.allocated = impl_->allocated.load();
  st.peak_allocated = impl_->peak.load();
  st.reserved = impl_->reserved.load();
  // Read apart from `allocated`, so another thread's allocation in between may
  // briefly make reserved look smaller than allocated.
  st.cached = st.reserved > st.allocated ? st.reserved - st.allocated : 0;
  st.system_allocs = impl_->system_allocs.load();
  return st;
}

void CachingAllocator::reset_peak() {
  if (ThreadCache* tc = live_thread_cache()) fold_counts(*tc);
  impl_->peak.store(impl_->allocated.load());
}

// Releases the shared pool and the calling thread's cache (other threads'
// caches are theirs until they exit).
void CachingAllocator::empty_cache() {
  flush_thread_cache();
  std::lock_guard<std::mutex> g(impl_->mu);
  impl_->release_all_locked();
}

void CachingAllocator::set_caching_enabled(bool on) {
  if (on)
    g_slow_paths.fetch_and(~kNotCaching);
  else
    g_slow_paths.fetch_or(kNotCaching);
  if (!on) empty_cache();
}

bool CachingAllocator::caching_enabled() const { return (g_slow_paths.load() & kNotCaching) == 0; }

void profiler::detail::set_allocator_memory_reporting(bool on) {
  if (on)
    g_slow_paths.fetch_or(kReportMemory);
  else
    g_slow_paths.fetch_and(~kReportMemory);
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

}  // namespace torch
