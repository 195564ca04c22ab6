// The allocator's torch.cuda-style statistics on the CPU, the no-caching
// guard, and the steady state of a training loop: once warm, a step makes no
// system allocations.
#include <gtest/gtest.h>

#include "ember/ember.h"

using ember::Tensor;
namespace nn = ember::nn;

TEST(AllocatorStats, AllocatedPeakReservedAndEmptyCache) {
  ember::reset_peak_memory_stats();
  const size_t base = ember::memory_allocated();
  {
    Tensor a = ember::empty({1 << 18});  // 1 MiB
    EXPECT_GE(ember::memory_allocated(), base + (size_t(1) << 20));
    EXPECT_GE(ember::max_memory_allocated(), base + (size_t(1) << 20));
    EXPECT_GE(ember::memory_reserved(), ember::memory_allocated());
  }
  EXPECT_EQ(ember::memory_allocated(), base);
  EXPECT_GE(ember::max_memory_allocated(), base + (size_t(1) << 20));  // the peak remains
  ember::reset_peak_memory_stats();
  EXPECT_EQ(ember::max_memory_allocated(), ember::memory_allocated());
  ember::empty_cache();
  EXPECT_LE(ember::memory_reserved() - ember::memory_allocated(), ember::CachingAllocator::get().stats().cached);
}

TEST(AllocatorStats, NoCachingGuardReturnsMemory) {
  auto& alloc = ember::CachingAllocator::get();
  ember::empty_cache();
  {
    ember::NoCachingGuard guard;
    EXPECT_FALSE(alloc.caching_enabled());
    const size_t before = alloc.stats().system_allocs;
    { Tensor a = ember::empty({1 << 20}); }
    { Tensor b = ember::empty({1 << 20}); }
    EXPECT_EQ(alloc.stats().system_allocs, before + 2);  // nothing was kept to reuse
  }
  EXPECT_TRUE(alloc.caching_enabled());
}

TEST(AllocatorStats, TrainingStepSteadyStateMakesNoSystemAllocations) {
  ember::manual_seed(0);
  nn::Sequential net(nn::Linear(20, 64), nn::ReLU(), nn::Linear(64, 10));
  ember::optim::SGD opt(net->parameters(), ember::optim::SGDOptions(0.05).momentum(0.9));
  Tensor x = ember::randn({32, 20});
  Tensor y = ember::randint(0, 10, {32});
  auto step = [&] {
    opt.zero_grad();
    Tensor loss = ember::cross_entropy_loss(net->forward(x), y);
    loss.backward();
    opt.step();
  };
  for (int i = 0; i < 3; ++i) step();  // warm: gradients, momentum buffers, cached blocks
  auto& alloc = ember::CachingAllocator::get();
  const size_t before = alloc.stats().system_allocs;
  const size_t allocated = ember::memory_allocated();
  for (int i = 0; i < 20; ++i) step();
  EXPECT_EQ(alloc.stats().system_allocs, before);
  EXPECT_EQ(ember::memory_allocated(), allocated);
}
