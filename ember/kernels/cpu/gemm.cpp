#include "ember/kernels/cpu/gemm.h"

#include <cblas.h>
#include <dnnl.h>

#include <algorithm>
#include <climits>
#include <cstdint>
#include <type_traits>
#include <unordered_map>
#include <vector>

#include "ember/core/dispatch.h"
#include "ember/core/parallel.h"
#include "ember/kernels/cpu/onednn.h"

// Note [SGEMM backend choice]
// float32 GEMM goes to oneDNN (dnnl_sgemm, or its matmul primitive where
// Note [Tall transposed-A products] or Note [Linear with a fused bias] say so)
// on every thread count; float64 and complex go to OpenBLAS.
// History, because the choice was once per thread count: on the first VMs
// (Xeon with AVX-512, 2 cores, shared with builds, load 4-10) oneDNN was
// 7-10 % faster on one thread (thread-CPU-time medians 98.4/88.2, 96.6/90.8,
// 106.2/97.0 GFLOP/s oneDNN/OpenBLAS at n = 256, 1024, 2048) while OpenBLAS won
// at n = 1024 on two threads (52.0 vs 35.7 GFLOP/s, BENCHMARKS.md "GEMM
// backend"), so two threads went to OpenBLAS. On the AMD EPYC VMs of
// 2026-11-26 (OpenBLAS 0.3.21 detects "Cooperlake" and runs its AVX-512
// kernel) oneDNN wins on both thread counts, W4 in one quiet run, GFLOP/s
// oneDNN / OpenBLAS:
//             n = 256      1024       2048
//   1 thread  258 / 243   258 / 246  258 / 246
//   2 threads 500 / 311   491 / 387  505 / 468
// and the workloads follow: W5's step at two threads ran 1030 steps/s on oneDNN
// and 610-910 on OpenBLAS (bimodal from process to process), W10's
// forward+backward 24.0 vs 25.0-26.0 ms.
namespace torch::kernels {
namespace {

// One matrix operand as BLAS sees it: row-major, optionally transposed.
struct MatLayout {
  bool trans = false;
  int64_t ld = 0;
  bool ok = false;
};

// rows x cols matrix with strides (sr, sc); see Note [GEMM operand layouts].
MatLayout layout_of(int64_t rows, int64_t cols, int64_t sr, int64_t sc) {
  if ((sc == 1 || cols == 1) && (rows == 1 || sr >= std::max<int64_t>(1, cols)))
    return {false, rows == 1 ? std::max<int64_t>(1, cols) : sr, true};
  if ((sr == 1 || rows == 1) && (cols == 1 || sc >= std::max<int64_t>(1, rows)))
    return {true, cols == 1 ? std::max<int64_t>(1, rows) : sc, true};
  return {};
}

template <typename T>
T* base_ptr(const Tensor& t) {
  // Offsets from batch_offsets already include storage_offset.
  return static_cast<T*>(t.data_ptr()) - t.storage_offset();
}

struct Problem {
  int64_t m, n, k;
  MatLayout la, lb;
  std::vector<int64_t> oa, ob;  // per-batch element offsets
  int64_t nbatch;
};

// Small matrices in a big batch: one single-threaded GEMM per task, spread
// over the pool (BLAS runs serially inside an OpenMP region).
template <typename F>
void for_each_batch(const Problem& p, F f) {
  const int64_t work = std::max<int64_t>(1, p.m * p.n * std::max<int64_t>(p.k, 1));
  if (p.nbatch > 1 && work < 128 * 128 * 128) {
    parallel_for(0, p.nbatch, std::max<int64_t>(1, (1 << 18) / work), [&](int64_t b, int64_t e) {
      for (int64_t i = b; i < e; ++i) f(i);
    });
  } else {
    for (int64_t i = 0; i < p.nbatch; ++i) f(i);
  }
}

CBLAS_TRANSPOSE cblas_trans(bool t) { return t ? CblasTrans : CblasNoTrans; }

// Note [GEMV for vector products]
// OpenBLAS 0.3.21's gemm does not forward n == 1 or m == 1 to gemv, so a
// matrix-vector product would first pack the whole matrix. Those shapes call
// gemv directly (oneDNN's sgemm already has its own gemv path). When
// beta == 0, y is zero-filled first so that whatever the fresh buffer held
// cannot leak through gemv's scaling of y.
template <typename T>
void gemv(bool trans, int64_t rows, int64_t cols, T alpha, const T* mat, int64_t ld, const T* x, int64_t incx, T beta,
          T* y) {
  static_assert(std::is_same_v<T, double>, "float32 products go to oneDNN (Note [SGEMM backend choice])");
  cblas_dgemv(CblasRowMajor, trans ? CblasTrans : CblasNoTrans, rows, cols, alpha, mat, ld, x, incx, beta, y, 1);
}

// C = op(A) @ op(B) when one side is a vector (n == 1 or m == 1).
template <typename T>
void vector_gemm(const Problem& p, const T* A, const T* B, T* C, T alpha, T beta) {
  const int64_t m = p.m, n = p.n, k = p.k;
  if (beta == T(0)) std::fill(C, C + m * n, T(0));
  if (n == 1) {  // C[m] = op(A) [m x k] . B[:, 0]
    const int64_t incx = p.lb.trans ? 1 : p.lb.ld;
    if (!p.la.trans)
      gemv<T>(false, m, k, alpha, A, p.la.ld, B, incx, beta, C);
    else
      gemv<T>(true, k, m, alpha, A, p.la.ld, B, incx, beta, C);  // A^T stored k x m
  } else {                                                       // m == 1: C[n] = op(B)^T [n x k] . A[0, :]
    const int64_t incx = p.la.trans ? p.la.ld : 1;
    if (!p.lb.trans)
      gemv<T>(true, k, n, alpha, B, p.lb.ld, A, incx, beta, C);
    else
      gemv<T>(false, n, k, alpha, B, p.lb.ld, A, incx, beta, C);  // B^T stored n x k
  }
}

// c = a * b (+ bias, one value per column, when given) as one oneDNN matmul primitive;
// a and b in any BLAS layout, c dense row-major. The scratchpad (packed panels) comes
// from Ember's caching allocator (OnednnBuffers). False when oneDNN has no
// implementation for the case; nothing was written then.
bool onednn_matmul(const float* a, const MatLayout& la, const float* b, const MatLayout& lb, const float* bias,
                   float* c, int64_t m, int64_t n, int64_t k) {
  using dnnl::memory;
  const auto f32 = memory::data_type::f32;
  auto strides = [](const MatLayout& l) { return l.trans ? memory::dims{1, l.ld} : memory::dims{l.ld, 1}; };
  const dnnl::engine& engine = onednn_engine();
  const memory::desc a_md({m, k}, f32, strides(la)), b_md({k, n}, f32, strides(lb));
  const memory::desc bias_md = bias != nullptr ? memory::desc({1, n}, f32, memory::dims{n, 1}) : memory::desc();
  const memory::desc c_md({m, n}, f32, memory::dims{n, 1});
  dnnl::primitive_attr attr;
  attr.set_scratchpad_mode(dnnl::scratchpad_mode::user);
  dnnl::matmul::primitive_desc pd;
  try {
    pd = dnnl::matmul::primitive_desc(dnnl::matmul::desc(a_md, b_md, bias_md, c_md), attr, engine);
  } catch (const dnnl::error&) {
    return false;
  }
  OnednnBuffers buffers;
  dnnl::stream stream(engine);
  const auto mem = [&](const memory::desc& d, const float* ptr) { return memory(d, engine, const_cast<float*>(ptr)); };
  std::unordered_map<int, memory> args{
      {DNNL_ARG_SRC, mem(a_md, a)}, {DNNL_ARG_WEIGHTS, mem(b_md, b)}, {DNNL_ARG_DST, mem(c_md, c)}};
  if (bias != nullptr) args.emplace(DNNL_ARG_BIAS, mem(bias_md, bias));
  if (pd.scratchpad_desc().get_size() > 0) args.emplace(DNNL_ARG_SCRATCHPAD, buffers.make(pd.scratchpad_desc()));
  dnnl::matmul(pd).execute(stream, args);
  stream.wait();
  return true;
}

// Note [Tall transposed-A products]
// dnnl_sgemm is slow when A is transposed and C is tall and narrow: a linear layer's
// weight gradient gy^T x with gy [2048, 1024] (C [1024, 256], K = 2048) ran at 183
// GFLOP/s on one core, oneDNN's matmul primitive (brgemm) at 217. Measured, one
// thread (sgemm / matmul GFLOP/s): A^T (M x K) B, M x N x K = 1024 x 256 x 2048
// 183/217, 2048 x 256 x 2048 168/214, 4096 x 256 x 2048 186/212, 1024 x 128 x 512
// 227/245, 768 x 256 x 2048 226/227; with N >= M or small K the primitive was level
// or a few percent slower (256 x 1024 x 2048 225/214, 3136 x 128 x 64 257/249), so
// only M >= 2N with K >= 256 take it.
bool tall_transposed_a(const Problem& p) { return p.nbatch == 1 && p.la.trans && p.m >= 2 * p.n && p.k >= 256; }

template <typename T>
void blas_gemm(const Problem& p, const Tensor& a, const Tensor& b, const Tensor& c, T alpha, T beta) {
  const T* pa = base_ptr<T>(a);
  const T* pb = base_ptr<T>(b);
  T* pc = static_cast<T*>(c.data_ptr());
  const int64_t m = p.m, n = p.n, k = p.k;
  for_each_batch(p, [&](int64_t i) {
    const T* A = pa + p.oa[i];
    const T* B = pb + p.ob[i];
    T* C = pc + i * m * n;
    if constexpr (std::is_same_v<T, double>) {
      // oneDNN's sgemm has its own gemv path; OpenBLAS' does not (Note [GEMV for vector products]).
      if (m == 1 || n == 1) return vector_gemm<T>(p, A, B, C, alpha, beta);
    }
    if constexpr (std::is_same_v<T, float>) {
      if (alpha == 1.0f && beta == 0.0f && tall_transposed_a(p) && onednn_matmul(A, p.la, B, p.lb, nullptr, C, m, n, k))
        return;
      const dnnl_status_t st = dnnl_sgemm(p.la.trans ? 'T' : 'N', p.lb.trans ? 'T' : 'N', m, n, k, alpha, A, p.la.ld, B,
                                          p.lb.ld, beta, C, n);
      EMBER_INTERNAL_ASSERT(st == dnnl_success, "dnnl_sgemm failed with status ", static_cast<int>(st));
    } else if constexpr (std::is_same_v<T, double>) {
      cblas_dgemm(CblasRowMajor, cblas_trans(p.la.trans), cblas_trans(p.lb.trans), m, n, k, alpha, A, p.la.ld, B,
                  p.lb.ld, beta, C, n);
    } else if constexpr (std::is_same_v<T, complex64>) {
      cblas_cgemm(CblasRowMajor, cblas_trans(p.la.trans), cblas_trans(p.lb.trans), m, n, k, &alpha, A, p.la.ld, B,
                  p.lb.ld, &beta, C, n);
    } else {
      cblas_zgemm(CblasRowMajor, cblas_trans(p.la.trans), cblas_trans(p.lb.trans), m, n, k, &alpha, A, p.la.ld, B,
                  p.lb.ld, &beta, C, n);
    }
  });
}

// Accumulator of the portable kernel: float for half/bfloat16; for integers
// an unsigned type at least as wide, so overflow wraps (as in PyTorch)
// instead of being undefined behaviour.
template <typename T, bool = std::is_integral_v<T>>
struct GemmAcc {
  using type = opmath_t<T>;
};
template <typename T>
struct GemmAcc<T, true> {
  using type = std::make_unsigned_t<decltype(T() + int32_t())>;  // at least 32 bits: no int promotion
};

// Portable kernel: one row of c at a time, accumulated in GemmAcc.
template <typename T>
void generic_gemm(const Problem& p, const Tensor& a, const Tensor& b, const Tensor& c, const Scalar& alpha_s,
                  const Scalar& beta_s) {
  using Acc = typename GemmAcc<T>::type;
  const Acc alpha = alpha_s.to<Acc>(), beta = beta_s.to<Acc>();
  const bool use_beta = !(beta == Acc(0));
  const T* pa = base_ptr<T>(a);
  const T* pb = base_ptr<T>(b);
  T* pc = static_cast<T*>(c.data_ptr());
  const int64_t m = p.m, n = p.n, k = p.k;
  // Element strides of a (m x k) and b (k x n) from the BLAS layout.
  const int64_t as_r = p.la.trans ? 1 : p.la.ld, as_c = p.la.trans ? p.la.ld : 1;
  const int64_t bs_r = p.lb.trans ? 1 : p.lb.ld, bs_c = p.lb.trans ? p.lb.ld : 1;
  const int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(1, n * std::max<int64_t>(k, 1)));
  parallel_for(0, p.nbatch * m, grain, [&](int64_t begin, int64_t end) {
    std::vector<Acc> acc(static_cast<size_t>(n));
    for (int64_t r = begin; r < end; ++r) {
      const int64_t bi = r / m, i = r % m;
      const T* A = pa + p.oa[bi] + i * as_r;
      const T* B = pb + p.ob[bi];
      T* C = pc + bi * m * n + i * n;
      std::fill(acc.begin(), acc.end(), Acc(0));
      for (int64_t q = 0; q < k; ++q) {
        const Acc av = static_cast<Acc>(A[q * as_c]);
        const T* Bq = B + q * bs_r;
        if (bs_c == 1) {
          for (int64_t j = 0; j < n; ++j) acc[j] += av * static_cast<Acc>(Bq[j]);
        } else {
          for (int64_t j = 0; j < n; ++j) acc[j] += av * static_cast<Acc>(Bq[j * bs_c]);
        }
      }
      for (int64_t j = 0; j < n; ++j) {
        Acc v = alpha * acc[j];
        if (use_beta) v += beta * static_cast<Acc>(C[j]);
        C[j] = static_cast<T>(v);
      }
    }
  });
}

}  // namespace

std::vector<int64_t> batch_offsets(const Tensor& t, IntArrayRef batch) {
  int64_t nb = 1;
  for (int64_t s : batch) nb *= s;
  std::vector<int64_t> off(static_cast<size_t>(nb), t.storage_offset());
  const int64_t nd = static_cast<int64_t>(batch.size());
  for (int64_t i = 0; i < nb; ++i) {
    int64_t rem = i, o = t.storage_offset();
    for (int64_t d = nd - 1; d >= 0; --d) {
      o += (rem % batch[d]) * t.stride(d);
      rem /= batch[d];
    }
    off[static_cast<size_t>(i)] = o;
  }
  return off;
}

void gemm_raw(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, float alpha, const float* a, int64_t lda,
              const float* b, int64_t ldb, float beta, float* c, int64_t ldc) {
  const dnnl_status_t st =
      dnnl_sgemm(trans_a ? 'T' : 'N', trans_b ? 'T' : 'N', m, n, k, alpha, a, lda, b, ldb, beta, c, ldc);
  EMBER_INTERNAL_ASSERT(st == dnnl_success, "dnnl_sgemm failed with status ", static_cast<int>(st));
}
void gemm_raw(bool trans_a, bool trans_b, int64_t m, int64_t n, int64_t k, double alpha, const double* a, int64_t lda,
              const double* b, int64_t ldb, double beta, double* c, int64_t ldc) {
  cblas_dgemm(CblasRowMajor, cblas_trans(trans_a), cblas_trans(trans_b), static_cast<int>(m), static_cast<int>(n),
              static_cast<int>(k), alpha, a, static_cast<int>(lda), b, static_cast<int>(ldb), beta, c,
              static_cast<int>(ldc));
}

const char* sgemm_backend() { return "oneDNN"; }

bool addmm_bias_f32(const Tensor& bias, const Tensor& a, const Tensor& b, const Tensor& c) {
  if (c.dim() != 2 || a.dim() != 2 || b.dim() != 2 || c.scalar_type() != kFloat || a.scalar_type() != kFloat ||
      b.scalar_type() != kFloat || bias.scalar_type() != kFloat || !c.is_contiguous())
    return false;
  const int64_t m = c.size(0), n = c.size(1), k = a.size(1);
  if (m == 0 || n == 0 || k == 0 || m > INT32_MAX || n > INT32_MAX || k > INT32_MAX) return false;
  // One value per column: [n] or [1, n], unit stride.
  if (bias.numel() != n || bias.dim() < 1 || bias.dim() > 2 || bias.size(-1) != n || (n > 1 && bias.stride(-1) != 1))
    return false;
  const MatLayout la = layout_of(m, k, a.stride(0), a.stride(1)), lb = layout_of(k, n, b.stride(0), b.stride(1));
  if (!la.ok || !lb.ok) return false;
  return onednn_matmul(static_cast<const float*>(a.data_ptr()), la, static_cast<const float*>(b.data_ptr()), lb,
                       static_cast<const float*>(bias.data_ptr()), static_cast<float*>(c.data_ptr()), m, n, k);
}

void gemm_batched(const Tensor& a_in, const Tensor& b_in, const Tensor& c, const Scalar& alpha, const Scalar& beta) {
  const int64_t nd = c.dim();
  EMBER_INTERNAL_ASSERT(nd >= 2 && a_in.dim() == nd && b_in.dim() == nd, "gemm_batched: rank mismatch");
  EMBER_INTERNAL_ASSERT(c.is_contiguous() && a_in.dtype() == c.dtype() && b_in.dtype() == c.dtype(),
                        "gemm_batched: bad output");
  const int64_t m = c.size(nd - 2), n = c.size(nd - 1), k = a_in.size(nd - 1);
  if (c.numel() == 0) return;

  Problem p;
  p.m = m;
  p.n = n;
  p.k = k;
  Tensor a = a_in, b = b_in;
  p.la = layout_of(m, k, a.stride(nd - 2), a.stride(nd - 1));
  if (!p.la.ok) {
    a = a.contiguous();
    p.la = layout_of(m, k, a.stride(nd - 2), a.stride(nd - 1));
  }
  p.lb = layout_of(k, n, b.stride(nd - 2), b.stride(nd - 1));
  if (!p.lb.ok) {
    b = b.contiguous();
    p.lb = layout_of(k, n, b.stride(nd - 2), b.stride(nd - 1));
  }
  IntArrayRef batch = c.sizes().slice(0, static_cast<size_t>(nd - 2));
  p.oa = batch_offsets(a, batch);
  p.ob = batch_offsets(b, batch);
  p.nbatch = static_cast<int64_t>(p.oa.size());

  auto portable = [&] {
    dispatch_numeric(c.dtype(), "gemm", [&](auto tag) {
      using T = EMBER_TYPE(tag);
      generic_gemm<T>(p, a, b, c, alpha, beta);
    });
  };
  // An empty contraction is c = beta * c (zeros for beta == 0), which the
  // portable kernel does exactly; BLAS libraries differ on k == 0.
  if (k == 0) return portable();
  // BLAS takes 32-bit sizes (cblas) or is only checked that way: larger problems take the portable kernel.
  constexpr int64_t kMaxBlas = INT32_MAX;
  for (int64_t v : {m, n, k, p.la.ld, p.lb.ld})
    if (v > kMaxBlas) return portable();
  switch (c.dtype()) {
    case kFloat:
      return blas_gemm<float>(p, a, b, c, alpha.to<float>(), beta.to<float>());
    case kDouble:
      return blas_gemm<double>(p, a, b, c, alpha.to<double>(), beta.to<double>());
    case kComplexFloat:
      return blas_gemm<complex64>(p, a, b, c, alpha.to<complex64>(), beta.to<complex64>());
    case kComplexDouble:
      return blas_gemm<complex128>(p, a, b, c, alpha.to<complex128>(), beta.to<complex128>());
    default:
      return portable();
  }
}

}  // namespace torch::kernels
