// Google Benchmark micro-benchmarks of Ember alone (bench/SPEC.md W1 nograd, W2,
// W3, W4). The side-by-side comparison with LibTorch is bench/run.sh; these
// are for quick local checks: ./bench/ember_micro --benchmark_filter=mm
// The last argument of every benchmark is the intra-op thread count. Rates
// use wall time (UseRealTime), as bench/SPEC.md does; the CPU column shows how
// much of it the process actually ran on a shared machine.
#include <benchmark/benchmark.h>

#include <cstring>

#include "ember/torch.h"
#include "harness/w1_chain.h"

namespace {

constexpr int64_t kN = 16LL << 20;  // 64 MiB of float32
constexpr double kBytes = kN * 4.0;

struct W2Data {
  torch::Tensor a, b, c;
  W2Data() {
    torch::manual_seed(0);
    a = torch::rand({kN});
    b = torch::rand({kN});
    c = torch::empty({kN});
  }
};
W2Data& w2() {
  static W2Data d;
  return d;
}

void BM_memcpy(benchmark::State& st) {
  auto& d = w2();
  for (auto _ : st) std::memcpy(d.c.data_ptr<float>(), d.a.data_ptr<float>(), kBytes);
  st.SetBytesProcessed(static_cast<int64_t>(st.iterations() * 2 * kBytes));
}
BENCHMARK(BM_memcpy)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_add_out(benchmark::State& st) {
  torch::set_num_threads(static_cast<int>(st.range(0)));
  auto& d = w2();
  for (auto _ : st) torch::add_out(d.c, d.a, d.b);
  st.SetBytesProcessed(static_cast<int64_t>(st.iterations() * 3 * kBytes));
}
BENCHMARK(BM_add_out)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_add_alloc(benchmark::State& st) {
  torch::set_num_threads(static_cast<int>(st.range(0)));
  auto& d = w2();
  for (auto _ : st) benchmark::DoNotOptimize(d.a + d.b);
  st.SetBytesProcessed(static_cast<int64_t>(st.iterations() * 3 * kBytes));
}
BENCHMARK(BM_add_alloc)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_exp_out(benchmark::State& st) {
  torch::set_num_threads(static_cast<int>(st.range(0)));
  auto& d = w2();
  for (auto _ : st) torch::exp_out(d.c, d.a);
  st.SetBytesProcessed(static_cast<int64_t>(st.iterations() * 2 * kBytes));
}
BENCHMARK(BM_exp_out)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_exp_alloc(benchmark::State& st) {
  torch::set_num_threads(static_cast<int>(st.range(0)));
  auto& d = w2();
  for (auto _ : st) benchmark::DoNotOptimize(torch::exp(d.a));
  st.SetBytesProcessed(static_cast<int64_t>(st.iterations() * 2 * kBytes));
}
BENCHMARK(BM_exp_alloc)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

void BM_sum(benchmark::State& st) {
  torch::set_num_threads(static_cast<int>(st.range(0)));
  auto& d = w2();
  for (auto _ : st) benchmark::DoNotOptimize(torch::sum(d.a).item<float>());
  st.SetBytesProcessed(static_cast<int64_t>(st.iterations() * kBytes));
}
BENCHMARK(BM_sum)->Arg(1)->Arg(2)->Unit(benchmark::kMillisecond)->UseRealTime();

// The loops that Note [Reduced-precision blocks] and Note [Library size] changed:
// bfloat16/float16 elementwise ops (block-converted through float) and float32
// ops on runs with a tail (no vectorised epilogue). Args: the element count and
// the dtype (0 float32, 1 bfloat16, 2 float16); one thread.
torch::Dtype micro_dtype(int64_t code) {
  return code == 0 ? torch::kFloat32 : code == 1 ? torch::kBFloat16 : torch::kFloat16;
}
template <typename Op>
void elementwise_case(benchmark::State& st, Op op) {
  torch::set_num_threads(1);
  torch::manual_seed(0);
  const auto dtype = micro_dtype(st.range(1));
  auto a = torch::rand({st.range(0)}).to(dtype), b = torch::rand({st.range(0)}).to(dtype);
  for (auto _ : st) benchmark::DoNotOptimize(op(a, b));
  st.SetItemsProcessed(st.iterations() * st.range(0));
}
void BM_elementwise_add(benchmark::State& st) {
  elementwise_case(st, [](const torch::Tensor& a, const torch::Tensor& b) { return a + b; });
}
void BM_elementwise_mul_scalar(benchmark::State& st) {
  elementwise_case(st, [](const torch::Tensor& a, const torch::Tensor&) { return a * 1.5; });
}
void BM_elementwise_exp(benchmark::State& st) {
  elementwise_case(st, [](const torch::Tensor& a, const torch::Tensor&) { return a.exp(); });
}
void BM_elementwise_relu(benchmark::State& st) {
  elementwise_case(st, [](const torch::Tensor& a, const torch::Tensor&) { return a.relu(); });
}
void BM_elementwise_lt(benchmark::State& st) {
  elementwise_case(st, [](const torch::Tensor& a, const torch::Tensor& b) { return a < b; });
}
void BM_elementwise_strided_add(benchmark::State& st) {
  elementwise_case(st, [](const torch::Tensor& a, const torch::Tensor& b) {
    return a.slice(0, 0, a.size(0), 2) + b.slice(0, 0, b.size(0), 2);
  });
}
#define EMBER_MICRO_ELEMENTWISE(bm) \
  BENCHMARK(bm)->ArgsProduct({{1 << 20}, {0, 1, 2}})->Args({1000, 0})->Args({1000, 1})->Args({15, 0})->UseRealTime()
EMBER_MICRO_ELEMENTWISE(BM_elementwise_add);
EMBER_MICRO_ELEMENTWISE(BM_elementwise_mul_scalar);
EMBER_MICRO_ELEMENTWISE(BM_elementwise_exp);
EMBER_MICRO_ELEMENTWISE(BM_elementwise_relu);
EMBER_MICRO_ELEMENTWISE(BM_elementwise_lt);
EMBER_MICRO_ELEMENTWISE(BM_elementwise_strided_add);
#undef EMBER_MICRO_ELEMENTWISE

// W1 without autograd: 3000 ops on [1]-element tensors, reported per op.
void BM_nograd_chain(benchmark::State& st) {
  torch::set_num_threads(static_cast<int>(st.range(0)));
  auto x = torch::full({1}, 0.5), w = torch::full({1}, 0.9), b = torch::full({1}, 0.1);
  for (auto _ : st) {
    torch::NoGradGuard guard;
    torch::Tensor v = bench::w1_chain(x, w, b);
    benchmark::DoNotOptimize(v);
  }
  st.counters["ns_per_op"] = benchmark::Counter(static_cast<double>(st.iterations()) * bench::kW1Ops,
                                                benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}
BENCHMARK(BM_nograd_chain)->Arg(1)->Arg(2)->Unit(benchmark::kMicrosecond)->UseRealTime();

// W4: C = A @ B, n x n float32, GFLOP/s in the "FLOPS" counter.
void BM_mm(benchmark::State& st) {
  const int64_t n = st.range(0);
  torch::set_num_threads(static_cast<int>(st.range(1)));
  torch::manual_seed(0);
  torch::Tensor A = torch::rand({n, n}), B = torch::rand({n, n});
  for (auto _ : st) benchmark::DoNotOptimize(torch::mm(A, B));
  st.counters["FLOPS"] =
      benchmark::Counter(2.0 * n * n * n * static_cast<double>(st.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_mm)->ArgsProduct({{256, 1024, 2048}, {1, 2}})->Unit(benchmark::kMillisecond)->UseRealTime()->MinTime(0.3);

}  // namespace

BENCHMARK_MAIN();
