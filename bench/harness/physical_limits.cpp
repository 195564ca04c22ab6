#include "physical_limits.h"

#include <immintrin.h>

#include <cstdint>
#include <cstdio>
#include <thread>
#include <vector>

namespace bench {
namespace {

constexpr int64_t kClockIters = 200'000'000;  // 4 adds each
constexpr int64_t kFmaIters = 50'000'000;
constexpr int kAccumulators = 12;

// Four dependent register-register adds per iteration: the chain retires one
// add per cycle whatever the width of the core (the loop counter runs beside it).
uint64_t add_chain(int64_t iters) {
  uint64_t acc = 0, one = 1;
  for (int64_t i = 0; i < iters; ++i)
    asm volatile("add %1, %0\n\tadd %1, %0\n\tadd %1, %0\n\tadd %1, %0" : "+r"(acc) : "r"(one));
  return acc;
}

// acc = acc * a + b on 12 independent vectors: enough in flight to cover the
// FMA latency on both FMA ports. a and b keep the values near 1 (no denormals).
__attribute__((target("avx512f"))) float fma_chain(int64_t iters) {
  __m512 acc[kAccumulators];
  for (auto& v : acc) v = _mm512_set1_ps(1.0f);
  const __m512 a = _mm512_set1_ps(0.999999f), b = _mm512_set1_ps(0.000001f);
  for (int64_t i = 0; i < iters; ++i)
    for (auto& v : acc) v = _mm512_fmadd_ps(v, a, b);
  __m512 s = acc[0];
  for (int k = 1; k < kAccumulators; ++k) s = _mm512_add_ps(s, acc[k]);
  return _mm512_reduce_add_ps(s);
}

}  // namespace

void physical_limits(const Options& o) {
  if (!wants_group(o, "L0")) return;
  volatile uint64_t sink = 0;
  Options one = o;
  one.threads = {1};
  Case clock{"L0.clock", "GHz", gflops(4.0 * kClockIters), [&] { sink = sink + add_chain(kClockIters); }};
  run_case(one, clock, [](int) {});
  if (!__builtin_cpu_supports("avx512f")) {
    std::printf("{\"framework\":\"%s\",\"config\":\"%s\",\"case\":\"L0.fma_peak\",\"skipped\":\"no AVX-512\"}\n",
                o.framework.c_str(), o.config.c_str());
    return;
  }
  int threads = 1;
  volatile float fsink = 0;
  const double flop_per_thread = static_cast<double>(kFmaIters) * kAccumulators * 16 * 2;
  Case fma{"L0.fma_peak", "GFLOP/s", [&](double s) { return threads * flop_per_thread / s / 1e9; },
           [&] {
             std::vector<std::thread> pool;
             std::vector<float> out(threads);
             for (int t = 0; t < threads; ++t) pool.emplace_back([&out, t] { out[t] = fma_chain(kFmaIters); });
             for (auto& th : pool) th.join();
             fsink = fsink + out[0];
           }};
  run_case(o, fma, [&](int t) { threads = t; });
}

}  // namespace bench
