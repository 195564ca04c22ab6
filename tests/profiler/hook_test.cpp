// The profiler's hook outside a profile, and the allocator's slow-path word
// it shares with NoCachingGuard (Note [Profiler hook cost], Note [Allocator
// slow paths]).
#include <gtest/gtest.h>

#include "ember/ember.h"

namespace prof = ember::profiler;
using ember::Tensor;

namespace {
const prof::FunctionEvent* find(const prof::EventList& ev, const std::string& name) {
  for (const auto& e : ev)
    if (e.name == name) return &e;
  return nullptr;
}
}  // namespace

// Code outside libember reads the state through the exported function; it
// must agree with what the library's ops see.
TEST(ProfilerHook, StateSeenOutsideTheLibraryMatches) {
  EXPECT_FALSE(prof::is_profiling());
  EXPECT_FALSE(prof::is_profiling_memory());
  {
    prof::profile p(prof::ProfileOptions().profile_memory(true));
    EXPECT_TRUE(prof::is_profiling());
    EXPECT_TRUE(prof::is_profiling_memory());
    Tensor a = ember::ones({8}) + 1.0;
    p.stop();
    EXPECT_FALSE(prof::is_profiling());
    EXPECT_NE(find(p.events(), "aten::add"), nullptr);
  }
  EXPECT_FALSE(prof::is_profiling_memory());
}

// Memory reporting and disabled caching share one word: each keeps working
// when the other is on, and stopping the profile leaves caching as it was.
TEST(ProfilerHook, MemoryReportingWithCachingDisabled) {
  auto& alloc = ember::CachingAllocator::get();
  ASSERT_TRUE(alloc.caching_enabled());
  Tensor a = ember::ones({1 << 14});
  {
    ember::NoCachingGuard no_cache;
    EXPECT_FALSE(alloc.caching_enabled());
    prof::profile p(prof::ProfileOptions().profile_memory(true));
    const size_t reserved_before = ember::memory_reserved();
    {
      prof::record_function r("scope");
      Tensor tmp = a * 2.0;  // allocated and freed inside the scope
    }
    p.stop();
    EXPECT_FALSE(alloc.caching_enabled());                 // the profile did not touch the caching bit
    EXPECT_EQ(ember::memory_reserved(), reserved_before);  // the free went back to the system
    const auto* mul = find(p.events(), "aten::mul");
    const auto* scope = find(p.events(), "scope");
    ASSERT_TRUE(mul && scope);
    EXPECT_GE(mul->cpu_memory_usage, int64_t(1) << 16);
    EXPECT_EQ(scope->cpu_memory_usage, 0);  // + tmp, - tmp
  }
  EXPECT_TRUE(alloc.caching_enabled());
  // Outside a profile nothing is reported: a new profile starts from zero.
  Tensor b = a * 3.0;
  prof::profile q(prof::ProfileOptions().profile_memory(true));
  q.stop();
  EXPECT_TRUE(q.events().empty());
}
