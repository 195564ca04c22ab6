// ember::profiler: what gets recorded (names, shapes, nesting, self/total
// times, memory, stacks, threads, autograd links), key_averages / table, and
// the schedule's windows.
#include <gtest/gtest.h>

#include <thread>

#include "common/test_util.h"
#include "ember/ember.h"
#include "ember/torch.h"

namespace prof = ember::profiler;
using ember::Tensor;

namespace {

const prof::FunctionEvent* find(const prof::EventList& ev, const std::string& name, size_t nth = 0) {
  for (const auto& e : ev)
    if (e.name == name && nth-- == 0) return &e;
  return nullptr;
}

size_t count(const prof::EventList& ev, const std::string& name) {
  size_t n = 0;
  for (const auto& e : ev) n += e.name == name;
  return n;
}

}  // namespace

// External linkage, so the exported dynamic symbol table names it in stacks.
[[gnu::noinline]] Tensor profiled_caller_function(const Tensor& a) { return a.exp(); }

TEST(Profiler, NothingIsRecordedOutsideAProfile) {
  EXPECT_FALSE(prof::is_profiling());
  Tensor a = ember::ones({4});
  Tensor b = a + a;
  prof::profile p;
  EXPECT_TRUE(prof::is_profiling());
  p.stop();
  EXPECT_FALSE(prof::is_profiling());
  EXPECT_EQ(count(p.events(), "aten::add"), 0u);
}

TEST(Profiler, RecordsOpsWithShapesAndNesting) {
  Tensor a = ember::randn({2, 3});
  Tensor b = ember::randn({2, 3});
  Tensor m = ember::randn({3, 4});
  prof::profile p(prof::ProfileOptions().record_shapes(true));
  {
    prof::record_function outer("my_block");
    Tensor c = a + b;
    Tensor d = ember::mm(c, m);
    Tensor e = c * 2.0;
  }
  p.stop();
  const auto& ev = p.events();
  const auto* block = find(ev, "my_block");
  const auto* add = find(ev, "aten::add");
  const auto* mm = find(ev, "aten::mm");
  const auto* mul = find(ev, "aten::mul");
  ASSERT_TRUE(block && add && mm && mul);
  EXPECT_TRUE(block->is_user_annotation);
  EXPECT_EQ(add->parent, block->id);
  EXPECT_EQ(mm->parent, block->id);
  EXPECT_EQ(add->depth, block->depth + 1);
  EXPECT_EQ(add->input_shapes, (std::vector<std::vector<int64_t>>{{2, 3}, {2, 3}}));
  EXPECT_EQ(mm->input_shapes, (std::vector<std::vector<int64_t>>{{2, 3}, {3, 4}}));
  EXPECT_EQ(mul->input_shapes, (std::vector<std::vector<int64_t>>{{2, 3}, {}}));  // a Scalar operand is []
  // Times: children inside the parent; self = total - children.
  int64_t children = 0;
  for (const auto& e : ev) {
    EXPECT_LE(e.start_ns, e.end_ns);
    EXPECT_GE(e.self_cpu_time_ns, 0);
    EXPECT_LE(e.self_cpu_time_ns, e.cpu_time_total_ns());
    if (e.parent == block->id) {
      EXPECT_GE(e.start_ns, block->start_ns);
      EXPECT_LE(e.end_ns, block->end_ns);
      children += e.cpu_time_total_ns();
    }
  }
  EXPECT_EQ(block->self_cpu_time_ns, block->cpu_time_total_ns() - children);
  // Events come in start order.
  for (size_t i = 1; i < ev.size(); ++i) EXPECT_LE(ev[i - 1].start_ns, ev[i].start_ns);
}

TEST(Profiler, ShapesOnlyWhenAsked) {
  Tensor a = ember::ones({5});
  prof::profile p;
  Tensor b = a.exp();
  p.stop();
  const auto* e = find(p.events(), "aten::exp");
  ASSERT_TRUE(e);
  EXPECT_TRUE(e->input_shapes.empty());
}

TEST(Profiler, BackwardNodesLinkToTheirForwardOp) {
  Tensor x = ember::randn({3, 3}).requires_grad_(true);
  Tensor w = ember::randn({3, 3}).requires_grad_(true);
  prof::profile p;
  Tensor y = ember::mm(x, w).sigmoid().sum();
  y.backward();
  p.stop();
  const auto& ev = p.events();
  const auto* mm = find(ev, "aten::mm");
  const auto* sig = find(ev, "aten::sigmoid");
  ASSERT_TRUE(mm && sig);
  ASSERT_GE(mm->sequence_nr, 0);
  ASSERT_GE(sig->sequence_nr, 0);
  const prof::FunctionEvent* mm_bwd = nullptr;
  const prof::FunctionEvent* sig_bwd = nullptr;
  for (const auto& e : ev) {
    if (!e.is_backward) continue;
    if (e.sequence_nr == mm->sequence_nr) mm_bwd = &e;
    if (e.sequence_nr == sig->sequence_nr) sig_bwd = &e;
  }
  ASSERT_TRUE(mm_bwd && sig_bwd);
  EXPECT_EQ(mm_bwd->name, "MmBackward0");
  EXPECT_EQ(sig_bwd->name, "SigmoidBackward0");
  EXPECT_GT(mm_bwd->start_ns, sig_bwd->start_ns);  // backward runs newest first
  // The backward formula's own ops are children of the node.
  bool child_op = false;
  for (const auto& e : ev) child_op = child_op || (e.parent == mm_bwd->id && e.name.rfind("aten::", 0) == 0);
  EXPECT_TRUE(child_op);
  // Leaves' AccumulateGrad nodes show up but carry no link.
  for (const auto& e : ev)
    if (e.is_backward && e.name.find("AccumulateGrad") != std::string::npos) EXPECT_EQ(e.sequence_nr, -1);
}

TEST(Profiler, MemoryPerOp) {
  Tensor a = ember::ones({1 << 14});  // 64 KiB of float32
  prof::profile p(prof::ProfileOptions().profile_memory(true));
  Tensor b;
  {
    prof::record_function r("outer");
    b = a * 3.0;           // keeps its result: +64 KiB
    Tensor tmp = a.exp();  // freed at the end of the scope
  }
  p.stop();
  const auto* mul = find(p.events(), "aten::mul");
  const auto* outer = find(p.events(), "outer");
  ASSERT_TRUE(mul && outer);
  EXPECT_GE(mul->cpu_memory_usage, int64_t(1) << 16);
  EXPECT_LT(mul->cpu_memory_usage, int64_t(1) << 18);
  // outer: + b, + tmp, - tmp -> net the size of b; the free of tmp is outer's own.
  EXPECT_EQ(outer->cpu_memory_usage, mul->cpu_memory_usage);
  EXPECT_LT(outer->self_cpu_memory_usage, 0);
  EXPECT_TRUE(p.events().has_memory);
  const std::string t = p.key_averages().table("cpu_memory_usage", 5);
  EXPECT_NE(t.find("CPU Mem"), std::string::npos) << t;
  EXPECT_NE(t.find("Self CPU Mem"), std::string::npos) << t;
  EXPECT_NE(t.find(" Kb"), std::string::npos) << t;
}

TEST(Profiler, StackTracesNameTheCaller) {
  Tensor a = ember::ones({3});
  prof::profile p(prof::ProfileOptions().with_stack(true));
  Tensor b = profiled_caller_function(a);
  p.stop();
  const auto* e = find(p.events(), "aten::exp");
  ASSERT_TRUE(e);
  ASSERT_FALSE(e->stack.empty());
  bool found = false;
  for (const auto& f : e->stack) found = found || f.find("profiled_caller_function") != std::string::npos;
  EXPECT_TRUE(found) << e->stack[0];
  // The profiler's and Ember's own frames are not part of the caller's stack.
  for (const auto& f : e->stack) EXPECT_EQ(f.find("torch::profiler::detail"), std::string::npos) << f;
  auto avg = p.key_averages(false, 1);
  const std::string t = avg.table();
  EXPECT_NE(t.find("Source Location"), std::string::npos) << t;
}

TEST(Profiler, OpsOnOtherThreadsGetTheirOwnTrack) {
  prof::profile p;
  Tensor a = ember::ones({4}).exp();
  std::thread th([] { Tensor b = ember::ones({4}).log(); });
  th.join();
  p.stop();
  const auto* e = find(p.events(), "aten::exp");
  const auto* l = find(p.events(), "aten::log");
  ASSERT_TRUE(e && l);
  EXPECT_NE(e->thread, l->thread);
  EXPECT_EQ(l->parent, -1);
}

TEST(Profiler, KeyAveragesAndTable) {
  Tensor a = ember::ones({2, 2}), b = ember::ones({3});
  prof::profile p(prof::ProfileOptions().record_shapes(true));
  for (int i = 0; i < 3; ++i) Tensor c = a + a;
  Tensor d = b + b;
  p.stop();
  auto avg = p.key_averages();
  const prof::FunctionEventAvg* add = nullptr;
  for (const auto& r : avg)
    if (r.key == "aten::add") add = &r;
  ASSERT_TRUE(add);
  EXPECT_EQ(add->count, 4);
  EXPECT_NEAR(add->cpu_time(), add->cpu_time_total / 4, 1e-9);
  auto by_shape = p.key_averages(true);
  int adds = 0;
  for (const auto& r : by_shape)
    if (r.key == "aten::add") {
      ++adds;
      EXPECT_TRUE(r.count == 3 || r.count == 1);
      EXPECT_TRUE(r.input_shapes == (std::vector<std::vector<int64_t>>{{2, 2}, {2, 2}}) ||
                  r.input_shapes == (std::vector<std::vector<int64_t>>{{3}, {3}}));
    }
  EXPECT_EQ(adds, 2);

  const std::string t = by_shape.table("cpu_time_total", 10);
  // Header and footer as PyTorch prints them.
  for (const char* col : {"Name", "Self CPU %", "Self CPU", "CPU total %", "CPU total", "CPU time avg", "# of Calls",
                          "Input Shapes", "Self CPU time total: "})
    EXPECT_NE(t.find(col), std::string::npos) << col << "\n" << t;
  EXPECT_EQ(t.find("CPU Mem"), std::string::npos);
  EXPECT_NE(t.find("[[2, 2], [2, 2]]"), std::string::npos) << t;
  EXPECT_EQ(t.rfind("---", 0), 0u);
  // row_limit
  const std::string one = by_shape.table("count", 1);
  EXPECT_NE(one.find("[[2, 2], [2, 2]]"), std::string::npos) << one;
  EXPECT_EQ(one.find("[[3], [3]]"), std::string::npos) << one;
  EXPECT_EMBER_ERROR(by_shape.table("bogus"), "profiler table", "unknown sort_by 'bogus'");
}

TEST(Profiler, ScheduleRecordsTheActiveSteps) {
  int ready = 0;
  std::vector<std::string> steps;
  auto opts = prof::ProfileOptions()
                  .schedule(prof::schedule(/*wait=*/1, /*warmup=*/1, /*active=*/2, /*repeat=*/1))
                  .on_trace_ready([&](prof::profile& p) {
                    ++ready;
                    for (const auto& e : p.events())
                      if (e.name.rfind("ProfilerStep#", 0) == 0) steps.push_back(e.name);
                  });
  Tensor a = ember::ones({4});
  {
    prof::profile p(opts);
    for (int i = 0; i < 6; ++i) {
      Tensor b = a.exp();
      p.step();
    }
    EXPECT_EQ(ready, 1);
    EXPECT_EQ(count(p.events(), "aten::exp"), 2u);
  }
  EXPECT_EQ(ready, 1);
  EXPECT_EQ(steps, (std::vector<std::string>{"ProfilerStep#2", "ProfilerStep#3"}));
}

TEST(Profiler, ScheduleFunctionMatchesTorch) {
  auto s = prof::schedule(1, 1, 2, 2, 1);
  using A = prof::ProfilerAction;
  std::vector<A> want = {A::NONE, A::NONE,   A::WARMUP, A::RECORD,          A::RECORD_AND_SAVE,
                         A::NONE, A::WARMUP, A::RECORD, A::RECORD_AND_SAVE, A::NONE};
  for (int64_t i = 0; i < static_cast<int64_t>(want.size()); ++i) EXPECT_EQ(s(i), want[i]) << i;
  EXPECT_EMBER_ERROR(prof::schedule(0, 0, 0), "profiler::schedule", "active must be positive");
}

TEST(Profiler, ProfilesDoNotNest) {
  prof::profile p;
  EXPECT_EMBER_ERROR(prof::profile q, "profiler", "cannot nest");
  p.stop();
  prof::profile r;  // a new one may start after the first stopped
}

TEST(Profiler, TorchSpellingCompiles) {
  namespace tp = torch::profiler;  // the LibTorch spelling, from ember/torch.h
  tp::profile p(tp::ProfileOptions().activities({tp::ProfilerActivity::CPU}).start_now(false));
  EXPECT_FALSE(prof::is_profiling());
  p.start();
  EXPECT_TRUE(prof::is_profiling());
  p.stop();
}
