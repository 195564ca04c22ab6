#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "common/test_util.h"

using namespace ember;

TEST(Allocator, AlignedAndReused) {
  auto& a = CachingAllocator::get();
  Tensor t = empty({1000});
  EXPECT_EQ(reinterpret_cast<uintptr_t>(t.data_ptr()) % 64, 0u);
  void* p = t.data_ptr();
  t.reset();
  size_t sys_before = a.stats().system_allocs;
  Tensor u = empty({1000});  // same size class: the freed block comes back
  EXPECT_EQ(u.data_ptr(), p);
  EXPECT_EQ(a.stats().system_allocs, sys_before);
}

TEST(Allocator, StatsTrackAllocatedCachedPeak) {
  empty_cache();
  reset_peak_memory_stats();
  size_t base = memory_allocated();
  {
    Tensor t = empty({1 << 20});  // 4 MiB
    EXPECT_GE(memory_allocated(), base + (4u << 20));
    EXPECT_GE(max_memory_allocated(), base + (4u << 20));
  }
  EXPECT_EQ(memory_allocated(), base);
  EXPECT_GE(memory_reserved(), base + (4u << 20));  // kept in the cache
  empty_cache();
  EXPECT_EQ(memory_reserved(), memory_allocated());
}

TEST(Allocator, SizeClassesBoundSlack) {
  for (size_t n : {1ul, 63ul, 64ul, 65ul, 4096ul, 4097ul, 100000ul, (1ul << 26) + 1}) {
    size_t c = CachingAllocator::size_class(n);
    EXPECT_GE(c, n);
    EXPECT_LE(c, std::max<size_t>(n + 64, n + n / 4 + 1)) << n;
    EXPECT_EQ(c % 64, 0u);
  }
}

TEST(Allocator, NoCachingGuardReturnsMemory) {
  empty_cache();
  {
    NoCachingGuard g;
    Tensor t = empty({1 << 16});
    t.reset();
    EXPECT_EQ(memory_reserved(), memory_allocated());
  }
  EXPECT_TRUE(CachingAllocator::get().caching_enabled());
}

TEST(Allocator, SizeOverflowIsAnError) {
  EXPECT_EMBER_ERROR(empty({int64_t(1) << 40, int64_t(1) << 40}), "empty", "overflow");
  EXPECT_EMBER_ERROR(empty({int64_t(1) << 62}, kDouble), "empty");
}

// Note [Per-thread byte counts]: small blocks are counted per thread and folded
// into the shared statistics, so the statistics stay exact across threads
// once those threads exit, and the peak includes bytes not yet folded.
TEST(Allocator, PerThreadCountsFoldIntoTheStatistics) {
  empty_cache();
  reset_peak_memory_stats();
  const size_t base = memory_allocated();
  std::vector<Tensor> handed_over;
  std::thread worker([&] {
    std::vector<Tensor> tmp;
    for (int i = 0; i < 5000; ++i) tmp.push_back(empty({16}));  // 64-byte blocks, 320 KB: folds mid-way
    for (int i = 0; i < 10; ++i) handed_over.push_back(empty({16}));
  });  // the worker frees 5000 blocks and exits
  worker.join();
  EXPECT_EQ(memory_allocated(), base + 10 * 64);
  EXPECT_GE(max_memory_allocated(), base + 5010 * 64);
  handed_over.clear();  // freed by this thread: its own count goes negative, then folds
  EXPECT_EQ(memory_allocated(), base);

  // One thread, no fold in between: the peak still sees the highest point.
  reset_peak_memory_stats();
  {
    std::vector<Tensor> tmp;
    for (int i = 0; i < 100; ++i) tmp.push_back(empty({16}));
  }
  EXPECT_EQ(memory_allocated(), base);
  EXPECT_EQ(max_memory_allocated(), base + 100 * 64);
}
