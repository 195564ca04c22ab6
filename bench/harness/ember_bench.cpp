// Ember side of the side-by-side benchmarks (bench/SPEC.md W1 nograd_fwd, W2, W3,
// W4; W5, W6 and M1 come from train_workloads.h, shared with LibTorch's side).
// Usage: ember_bench [--samples N] [--threads 1,2] [L0 W1 ... W6 M1 | case...]
#include <cblas.h>
#include <dnnl.h>

#include <cstdio>
#include <vector>

#include "ember/kernels/cpu/gemm.h"
#include "ember/torch.h"
#include "harness.h"
#include "physical_limits.h"
#include "train_workloads.h"
#include "w7_embedding_bag.h"

namespace {

void set_threads(int n) { torch::set_num_threads(n); }  // OpenMP + OpenBLAS

void skipped(const bench::Options& o, const char* name, const char* why) {
  if (!bench::wanted(o, name)) return;
  std::printf("{\"framework\":\"ember\",\"config\":\"%s\",\"case\":\"%s\",\"skipped\":\"%s\"}\n", o.config.c_str(),
              name, why);
}

void w1(const bench::Options& o) {
  auto x = torch::full({1}, 0.5), w = torch::full({1}, 0.9), b = torch::full({1}, 0.1);
  x.requires_grad_(true);
  w.requires_grad_(true);
  b.requires_grad_(true);
  bench::Case c{"W1.nograd_fwd", "ns/op", bench::ns_per_op(bench::kW1Ops), [&] {
                  torch::NoGradGuard guard;
                  bench::w1_chain(x, w, b);
                }};
  c.target_sec = 0.2;
  bench::run_case(o, c, set_threads);
}

void w2_w3(const bench::Options& o) {
  if (!bench::wants_group(o, "W2") && !bench::wants_group(o, "W3")) return;
  const int64_t n = bench::kW2Elems;
  torch::manual_seed(0);
  torch::Tensor a = torch::rand({n}), b = torch::rand({n}), c = torch::empty({n});
  bench::Case mc{"W2.memcpy", "GB/s", bench::gbps(2 * bench::kW2Bytes), nullptr};
  int cur_threads = 1;
  mc.call = [&] { bench::memcpy_threads(c.data_ptr<float>(), a.data_ptr<float>(), n, cur_threads); };
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
    torch::Tensor A = torch::rand({n, n}), B = torch::rand({n, n});
    const double flop = 2.0 * n * n * n;
    const std::string sz = std::to_string(n);
    torch::Tensor C;
    bench::run_case(o, {"W4.mm_" + sz, "GFLOP/s", bench::gflops(flop), [&] { C = torch::mm(A, B); }}, set_threads);
    // The raw libraries on the same buffers: the limit each backend reaches.
    torch::Tensor D = torch::empty({n, n});
    const float *pa = A.data_ptr<float>(), *pb = B.data_ptr<float>();
    float* pd = D.data_ptr<float>();
    const int in = static_cast<int>(n);
    bench::run_case(
        o,
        {"W4.cblas_sgemm_" + sz, "GFLOP/s", bench::gflops(flop),
         [&] { cblas_sgemm(CblasRowMajor, CblasNoTrans, CblasNoTrans, in, in, in, 1.f, pa, in, pb, in, 0.f, pd, in); }},
        set_threads);
    bench::run_case(o,
                    {"W4.dnnl_sgemm_" + sz, "GFLOP/s", bench::gflops(flop),
                     [&] { dnnl_sgemm('N', 'N', n, n, n, 1.f, pa, n, pb, n, 0.f, pd, n); }},
                    set_threads);
  }
}

// W8: 1-layer LSTM(128, 256), input [50, 32, 128], zero initial state; ms per call.
void w8(const bench::Options& o) {
  if (!bench::wants_group(o, "W8")) return;
  torch::manual_seed(0);
  torch::nn::LSTM lstm(torch::nn::LSTMOptions(128, 256));
  torch::Tensor x = torch::randn({50, 32, 128});
  auto ms = [](double s) { return s * 1e3; };
  bench::run_case(o,
                  {"W8.lstm_fwd", "ms", ms,
                   [&] {
                     torch::NoGradGuard no_grad;
                     lstm(x);
                   }},
                  set_threads);
  bench::run_case(o,
                  {"W8.lstm_fwd+bwd", "ms", ms,
                   [&] {
                     lstm->zero_grad(/*set_to_none=*/true);
                     std::get<0>(lstm(x)).sum().backward();
                   }},
                  set_threads);
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

// Batched linear algebra (issue 5): Cholesky, LU solve and Cholesky solve on a
// [256, 64, 64] float32 SPD batch with 8 right-hand sides per matrix.
void linalg_batched(const bench::Options& o) {
  if (!bench::wants_group(o, "LA")) return;
  const int64_t b = 256, n = 64, k = 8;
  torch::manual_seed(0);
  torch::Tensor X = torch::rand({b, n, n});
  torch::Tensor A = torch::matmul(X, X.transpose(-2, -1)) + torch::eye(n) * static_cast<double>(n);
  torch::Tensor B = torch::rand({b, n, k}), R;
  const double nd = static_cast<double>(n), bd = static_cast<double>(b), kd = static_cast<double>(k);
  const double chol = bd * nd * nd * nd / 3, lu = bd * 2 * nd * nd * nd / 3, tri = bd * 2 * nd * nd * kd;
  bench::run_case(o, {"LA.cholesky_256x64", "GFLOP/s", bench::gflops(chol), [&] { R = torch::linalg::cholesky(A); }},
                  set_threads);
  bench::run_case(
      o, {"LA.solve_256x64x8", "GFLOP/s", bench::gflops(lu + tri), [&] { R = torch::linalg::solve(A, B, true); }},
      set_threads);
  bench::run_case(o,
                  {"LA.cholesky_solve_256x64x8", "GFLOP/s", bench::gflops(chol + tri),
                   [&] { R = torch::cholesky_solve(B, torch::linalg::cholesky(A)); }},
                  set_threads);
}

// W9 stft (bench/SPEC.md): 160,000 samples, n_fft 400, hop 160, periodic Hann,
// center/reflect, onesided, complex output [201, 1001]; plus a batched rfft
// of [256, 4096] float32 along the last dim. Metric ms.
void w9(const bench::Options& o) {
  if (!bench::wants_group(o, "W9")) return;
  torch::manual_seed(0);
  torch::Tensor sig = torch::randn({160000}), win = torch::hann_window(400), x = torch::randn({256, 4096}), out;
  auto ms = [](double s) { return s * 1e3; };
  bench::run_case(
      o, {"W9.stft", "ms", ms, [&] { out = torch::stft(sig, 400, 160, 400, win, true, "reflect", false, true, true); }},
      set_threads);
  bench::run_case(o, {"W9.rfft_256x4096", "ms", ms, [&] { out = torch::fft::rfft(x); }}, set_threads);
}

}  // namespace

int main(int argc, char** argv) {
  bench::Options o = bench::parse_args(argc, argv, "ember");
  std::fprintf(stderr, "ember_bench: sgemm backend at %d threads: %s\n", torch::get_num_threads(),
               ember::kernels::sgemm_backend());
  bench::physical_limits(o);
  w1(o);
  w2_w3(o);
  w4(o);
  bench::train::all(o, set_threads);
  bench::w7(o, set_threads);
  w8(o);
  linalg_batched(o);
  w9(o);
  w10(o);
  return 0;
}
