// Ember's own micro-benchmarks on ember::utils::benchmark (Timer, Compare):
// small-op overhead (bench/SPEC.md W1), a large add, a matmul, and what the
// profiler costs per op when it is recording.
//   ember_timer                   all groups, one Compare table per label
//   ember_timer --min-time 0.5    longer blocked_autorange runs
//   ember_timer --w1-loop N       only N W1 no-grad chains (for callgrind)
//   ember_timer --add-loop N      only N `a + b` on 1x1 tensors (the profiler
//                                 hook's disabled cost under callgrind)
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <string>
#include <vector>

#include "ember/profiler.h"
#include "ember/torch.h"
#include "ember/utils/benchmark.h"
#include "harness/w1_chain.h"

namespace bm = ember::utils::benchmark;

namespace {

struct W1 {
  torch::Tensor x = torch::full({1}, 0.5), w = torch::full({1}, 0.9), b = torch::full({1}, 0.1);
  W1() {
    x.requires_grad_(true);
    w.requires_grad_(true);
    b.requires_grad_(true);
  }
  torch::Tensor chain() const {
    torch::Tensor v = bench::w1_chain(x, w, b);
    return v;
  }
  void nograd() const {
    torch::NoGradGuard g;
    chain();
  }
  void fwd_bwd() {
    x.mutable_grad() = torch::Tensor();
    w.mutable_grad() = torch::Tensor();
    b.mutable_grad() = torch::Tensor();
    chain().backward();
  }
};

}  // namespace

int main(int argc, char** argv) {
  double min_time = 0.2;
  for (int i = 1; i < argc; ++i) {
    if (!std::strcmp(argv[i], "--w1-loop") && i + 1 < argc) {
      W1 w1;
      const int n = std::atoi(argv[++i]);
      for (int k = 0; k < n; ++k) w1.nograd();
      return 0;
    }
    if (!std::strcmp(argv[i], "--add-loop") && i + 1 < argc) {
      torch::NoGradGuard no_grad;
      torch::Tensor a = torch::full({1, 1}, 0.5), b = torch::full({1, 1}, 0.25), c;
      const int n = std::atoi(argv[++i]);
      for (int k = 0; k < n; ++k) c = a + b;
      return c.item<float>() == 0.75f ? 0 : 1;
    }
    if (!std::strcmp(argv[i], "--min-time") && i + 1 < argc) min_time = std::atof(argv[++i]);
  }

  std::vector<bm::Measurement> results;
  W1 w1;
  // W1: per chain of 3000 ops; the profiler rows show its cost per op.
  for (int threads : {1, 2}) {
    results.push_back(
        bm::Timer([&] { w1.nograd(); }, "W1 (3000 ops)", "nograd_fwd", "ember", threads).blocked_autorange(min_time));
    results.push_back(
        bm::Timer([&] { w1.fwd_bwd(); }, "W1 (3000 ops)", "fwd+bwd", "ember", threads).blocked_autorange(min_time));
  }
  {
    torch::profiler::profile p(torch::profiler::ProfileOptions().start_now(false));
    auto profiled = [&](auto&& f) {
      return [&, f] {
        p.start();
        f();
        p.stop();
      };
    };
    results.push_back(bm::Timer(profiled([&] { w1.nograd(); }), "W1 (3000 ops)", "nograd_fwd", "profiling", 1)
                          .blocked_autorange(min_time));
    results.push_back(bm::Timer(profiled([&] { w1.fwd_bwd(); }), "W1 (3000 ops)", "fwd+bwd", "profiling", 1)
                          .blocked_autorange(min_time));
    torch::profiler::profile q(
        torch::profiler::ProfileOptions().record_shapes(true).profile_memory(true).start_now(false));
    results.push_back(bm::Timer(
                          [&] {
                            q.start();
                            w1.nograd();
                            q.stop();
                          },
                          "W1 (3000 ops)", "nograd_fwd", "profiling+shapes+memory", 1)
                          .blocked_autorange(min_time));
  }

  torch::manual_seed(0);
  torch::Tensor a = torch::rand({1 << 20}), b = torch::rand({1 << 20});
  torch::Tensor m = torch::rand({256, 256});
  for (int threads : {1, 2}) {
    results.push_back(bm::Timer([&] { a + b; }, "add", "1M floats", "ember", threads).blocked_autorange(min_time));
    results.push_back(
        bm::Timer([&] { torch::mm(m, m); }, "mm", "256x256", "ember", threads).blocked_autorange(min_time));
  }

  for (const auto& r : results) std::printf("%s\n\n", r.repr().c_str());
  bm::Compare cmp(results);
  cmp.trim_significant_figures();
  cmp.ratio_to("ember");
  cmp.print();
  return 0;
}
