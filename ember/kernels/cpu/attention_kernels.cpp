#include "ember/kernels/cpu/attention_kernels.h"

#include <algorithm>
#include <cmath>
#include <limits>
#include <memory>

#include "ember/core/parallel.h"
#include "ember/kernels/cpu/gemm.h"
#include "ember/kernels/cpu/philox.h"
#include "ember/kernels/cpu/softmax_row.h"

namespace torch::kernels {
namespace {

// Matrix b of m (rows x cols) as a dense block: m's own memory when its rows are
// adjacent, else a copy in buf. The GEMMs read far-apart rows slowly: the heads of a
// [T, N, 3 * E] projection are rows 48 KiB apart, all in one L1 set, and a 128 x 64 x 128
// product with such a B took 15 us instead of 9; the copy costs under 1 us.
template <typename T>
const T* dense(const MatrixBatch<const T>& m, int64_t b, int64_t rows, int64_t cols, std::vector<T>& buf) {
  const T* src = m.at(b);
  if (m.ld == cols || rows == 1) return src;
  buf.resize(static_cast<size_t>(rows * cols));
  for (int64_t i = 0; i < rows; ++i) std::copy_n(src + i * m.ld, cols, buf.data() + i * cols);
  return buf.data();
}

// One task's dense copies of the operands.
template <typename T>
struct Blocks {
  std::vector<T> q, k, v, dout;
};

// Scores of matrix b into s (L x S, contiguous): scale * q k^T, plus the mask, -inf
// above the diagonal when causal.
template <typename T>
void scores(const AttentionProblem<T>& p, int64_t b, T* s, Blocks<T>& blocks) {
  const int64_t L = p.L, S = p.S;
  const T* q = dense(p.q, b, L, p.E, blocks.q);
  const T* k = dense(p.k, b, S, p.E, blocks.k);
  gemm_raw(false, true, L, S, p.E, p.scale, q, p.E, k, p.E, T(0), s, S);
  if (p.mask.data != nullptr) {
    const T* m = p.mask.at(b);
    const int64_t mc = p.mask_col_stride;
    for (int64_t i = 0; i < L; ++i) {
      T* row = s + i * S;
      const T* mr = m + i * p.mask.ld;
      if (mc == 1) {
        for (int64_t j = 0; j < S; ++j) row[j] += mr[j];
      } else {
        for (int64_t j = 0; j < S; ++j) row[j] += mr[j * mc];
      }
    }
  }
  if (p.causal)
    for (int64_t i = 0; i + 1 < S && i < L; ++i)
      std::fill(s + i * S + i + 1, s + (i + 1) * S, -std::numeric_limits<T>::infinity());
}

// y = x * (kept ? keep : 0) over n elements, dropout's product (the values are copied
// to locals: reloaded through references the loop did not vectorise).
template <typename T>
void times_keep(const T* x, const bool* kept, T keep, T* y, int64_t n) {
  const auto* m = reinterpret_cast<const uint8_t*>(kept);
  const T k = keep;
  for (int64_t e = 0; e < n; ++e) y[e] = detail::kept_times<T>(m[e], x[e], k);
}

// Row i of matrix b times its dropout factor, its keep bits into kept_row: drawn as
// the (batch, L, S) tensor's elements are numbered, so they are dropout's after the same
// seed.
template <typename T>
void drop_row(const AttentionProblem<T>& p, int64_t b, int64_t i, const T* x, T* y, bool* kept_row, uint32_t* draws) {
  const int64_t S = p.S;
  if (p.draws.keep_all) {
    std::fill(kept_row, kept_row + S, true);
  } else {
    philox_draws(draws, (b * p.L + i) * S, S, p.draws.key, p.draws.stream);
    const uint32_t cut = p.draws.cut;
    for (int64_t j = 0; j < S; ++j) kept_row[j] = draws[j] < cut;
  }
  times_keep(x, kept_row, p.keep, y, S);
}

// Matrices per task: enough that a task is not dominated by the GEMMs' set-up.
int64_t grain_of(int64_t L, int64_t S, int64_t E) {
  return std::max<int64_t>(1, (int64_t(1) << 17) / std::max<int64_t>(1, L * S * std::max<int64_t>(E, 1)));
}

}  // namespace

template <typename T>
void attention_forward(const AttentionProblem<T>& p, const MatrixBatch<T>& out, T* probs, bool* kept) {
  const int64_t L = p.L, S = p.S, LS = L * S;
  const auto softmax_row = softmax_row_fn<T, false>();
  parallel_for(0, p.batch, grain_of(L, S, p.E), [&](int64_t b0, int64_t b1) {
    std::vector<T> s(static_cast<size_t>(LS)), own(probs ? 0 : static_cast<size_t>(LS));
    std::vector<uint32_t> draws(static_cast<size_t>(p.drop ? S : 0));
    // Keep bits of one row when the caller does not keep them.
    std::unique_ptr<bool[]> own_bits = p.drop && !kept ? std::make_unique<bool[]>(static_cast<size_t>(S)) : nullptr;
    Blocks<T> blocks;
    for (int64_t b = b0; b < b1; ++b) {
      scores(p, b, s.data(), blocks);
      T* pr = probs ? probs + b * LS : own.data();
      for (int64_t i = 0; i < L; ++i) softmax_row(s.data() + i * S, pr + i * S, S);
      const T* used = pr;
      if (p.drop) {  // the dropped matrix over the scores, which are no longer needed
        for (int64_t i = 0; i < L; ++i)
          drop_row(p, b, i, pr + i * S, s.data() + i * S, kept ? kept + b * LS + i * S : own_bits.get(), draws.data());
        used = s.data();
      }
      const T* v = dense(p.v, b, S, p.Ev, blocks.v);
      gemm_raw(false, false, L, p.Ev, S, T(1), used, S, v, p.Ev, T(0), out.at(b), out.ld);
    }
  });
}

template <typename T>
void attention_backward(const AttentionProblem<T>& p, const T* probs, const bool* kept,
                        const MatrixBatch<const T>& dout, const MatrixBatch<T>& dq, const MatrixBatch<T>& dk,
                        const MatrixBatch<T>& dv) {
  const int64_t L = p.L, S = p.S, LS = L * S;
  parallel_for(0, p.batch, grain_of(L, S, p.E), [&](int64_t b0, int64_t b1) {
    std::vector<T> dropped(static_cast<size_t>(p.drop ? LS : 0)), ds(static_cast<size_t>(LS));
    Blocks<T> blocks;
    for (int64_t b = b0; b < b1; ++b) {
      const T* go = dense(dout, b, L, p.Ev, blocks.dout);
      const T* pr = probs + b * LS;
      const bool* kb = p.drop ? kept + b * LS : nullptr;
      if (dv.data != nullptr) {  // dv = dropped^T dout
        const T* used = pr;
        if (p.drop) {
          times_keep(pr, kb, p.keep, dropped.data(), LS);
          used = dropped.data();
        }
        gemm_raw(true, false, S, p.Ev, L, T(1), used, S, go, p.Ev, T(0), dv.at(b), dv.ld);
      }
      if (dq.data == nullptr && dk.data == nullptr) continue;
      // d(dropped) = dout v^T, through dropout, then softmax's backward row by row.
      const T* v = dense(p.v, b, S, p.Ev, blocks.v);
      gemm_raw(false, true, L, S, p.Ev, T(1), go, p.Ev, v, p.Ev, T(0), ds.data(), S);
      if (p.drop) times_keep(ds.data(), kb, p.keep, ds.data(), LS);
      for (int64_t i = 0; i < L; ++i) softmax_backward_row<T>(ds.data() + i * S, pr + i * S, ds.data() + i * S, S);
      // The scores were scale * q k^T: dq = scale * ds k, dk = scale * ds^T q.
      if (dq.data != nullptr) {
        const T* k = dense(p.k, b, S, p.E, blocks.k);
        gemm_raw(false, false, L, p.E, S, p.scale, ds.data(), S, k, p.E, T(0), dq.at(b), dq.ld);
      }
      if (dk.data != nullptr) {
        const T* q = dense(p.q, b, L, p.E, blocks.q);
        gemm_raw(true, false, S, p.E, L, p.scale, ds.data(), S, q, p.E, T(0), dk.at(b), dk.ld);
      }
    }
  });
}

template void attention_forward<float>(const AttentionProblem<float>&, const MatrixBatch<float>&, float*, bool*);
template void attention_forward<double>(const AttentionProblem<double>&, const MatrixBatch<double>&, double*, bool*);
template void attention_backward<float>(const AttentionProblem<float>&, const float*, const bool*,
                                        const MatrixBatch<const float>&, const MatrixBatch<float>&,
                                        const MatrixBatch<float>&, const MatrixBatch<float>&);
template void attention_backward<double>(const AttentionProblem<double>&, const double*, const bool*,
                                         const MatrixBatch<const double>&, const MatrixBatch<double>&,
                                         const MatrixBatch<double>&, const MatrixBatch<double>&);

}  // namespace torch::kernels
