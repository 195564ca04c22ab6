// LibTorch (Debian libtorch-dev 1.13.1) side of the side-by-side benchmarks:
// the same workloads as ember_bench.cpp, same driver (harness.h).
// run.sh starts it twice: "stock" and "tuned" (OPENBLAS_CORETYPE=SkylakeX
// ATEN_CPU_CAPABILITY=avx512 in the environment before the libraries load).
#include <dlfcn.h>
#include <torch/torch.h>

#include <cstdio>

#include "harness.h"

namespace {

// LibTorch does not forward its thread count to OpenBLAS (SPEC.md). The
// symbol lives in an indirect dependency, so look it up at run time.
void set_threads(int n) {
  torch::set_num_threads(n);
  using SetFn = void (*)(int);
  static SetFn fn = reinterpret_cast<SetFn>(dlsym(RTLD_DEFAULT, "openblas_set_num_threads"));
  if (fn) fn(n);
}

void w1(const bench::Options& o) {
  auto x = torch::full({1}, 0.5).requires_grad_(true);
  auto w = torch::full({1}, 0.9).requires_grad_(true);
  auto b = torch::full({1}, 0.1).requires_grad_(true);
  bench::Case c{"W1.nograd_fwd", "ns/op", bench::ns_per_op(3000), [&] {
                  torch::NoGradGuard guard;
                  torch::Tensor v = x;
                  for (int i = 0; i < 3000; ++i) {
                    if (i % 3 == 0) v = v * w;
                    else if (i % 3 == 1) v = v + b;
                    else v = torch::tanh(v);
                  }
                }};
  c.target_sec = 0.2;
  bench::run_case(o, c, set_threads);
}

void w2_w3(const bench::Options& o) {
  if (!bench::wants_group(o, "W2") && !bench::wants_group(o, "W3")) return;
  const int64_t n = bench::kW2Elems;
  torch::manual_seed(0);
  torch::Tensor a = torch::rand({n}), b = torch::rand({n}), c = torch::empty({n});
  int cur_threads = 1;
  bench::Case mc{"W2.memcpy", "GB/s", bench::gbps(2 * bench::kW2Bytes), [&] {
                   bench::memcpy_threads(c.data_ptr<float>(), a.data_ptr<float>(), n, cur_threads);
                 }};
  bench::run_case(o, mc, [&](int t) {
    cur_threads = t;
    set_threads(t);
  });
  bench::run_case(o, {"W2.add_out", "GB/s", bench::gbps(3 * bench::kW2Bytes), [&] { torch::add_out(c, a, b); }},
                  set_threads);
  bench::run_case(o, {"W2.add_alloc", "GB/s", bench::gbps(3 * bench::kW2Bytes), [&] { c = a + b; }}, set_threads);
  bench::run_case(o, {"W2.exp_out", "GB/s", bench::gbps(2 * bench::kW2Bytes), [&] { torch::exp_out(c, a); }},
                  set_threads);
  bench::run_case(o, {"W2.exp_alloc", "GB/s", bench::gbps(2 * bench::kW2Bytes), [&] { c = torch::exp(a); }},
                  set_threads);
  volatile float sink = 0;
  bench::run_case(o, {"W3.sum", "GB/s", bench::gbps(bench::kW2Bytes), [&] { sink = torch::sum(a).item<float>(); }},
                  set_threads);
}

void w4(const bench::Options& o) {
  if (!bench::wants_group(o, "W4")) return;
  for (int64_t n : {256, 1024, 2048}) {
    torch::manual_seed(0);
    torch::Tensor A = torch::rand({n, n}), B = torch::rand({n, n}), C;
    bench::run_case(o, {"W4.mm_" + std::to_string(n), "GFLOP/s", bench::gflops(2.0 * n * n * n),
                        [&] { C = torch::mm(A, B); }},
                    set_threads);
  }
}

// W10: TransformerEncoderLayer(256, 4, ff 1024, dropout 0.1, ReLU, post-norm) in train
// mode on [seq 128, batch 16, 256], no mask; metric ms per call.
void w10(const bench::Options& o) {
  if (!bench::wants_group(o, "W10")) return;
  torch::manual_seed(0);
  torch::nn::TransformerEncoderLayer layer(
      torch::nn::TransformerEncoderLayerOptions(256, 4).dim_feedforward(1024).dropout(0.1));
  layer->train();
  torch::Tensor x = torch::randn({128, 16, 256}), y;
  auto ms = [](double s) { return s * 1e3; };
  bench::run_case(o,
                  {"W10.encoder_fwd", "ms", ms,
                   [&] {
                     torch::NoGradGuard guard;
                     y = layer(x);
                   }},
                  set_threads);
  bench::run_case(o,
                  {"W10.encoder_fwd+bwd", "ms", ms,
                   [&] {
                     layer->zero_grad();
                     layer(x).sum().backward();
                   }},
                  set_threads);
}

}  // namespace

int main(int argc, char** argv) {
  bench::Options o = bench::parse_args(argc, argv, "libtorch");
  w1(o);
  w2_w3(o);
  w4(o);
  w10(o);
  return 0;
}
