#pragma once
// The per-matrix loops of the fused attention (Note [Fused attention] in ops/nn/attention.cpp):
// each of `batch` (L x S) score matrices is formed, masked, normalised, dropped and used
// while it is in cache. float and double.
#include <cstddef>
#include <cstdint>
#include <vector>

#include "ember/kernels/cpu/dropout_draws.h"

namespace torch::kernels {

// `batch` row-major matrices with unit column stride: matrix b starts at data + offsets[b],
// rows ld elements apart. Offsets may repeat (broadcast batch dims) for inputs only.
template <typename T>
struct MatrixBatch {
  T* data = nullptr;
  std::vector<int64_t> offsets;
  int64_t ld = 0;
  T* at(int64_t b) const { return data + offsets[static_cast<size_t>(b)]; }
};

template <typename T>
struct AttentionProblem {
  int64_t batch = 0, L = 0, S = 0, E = 0, Ev = 0;
  MatrixBatch<const T> q, k, v;  // [L, E], [S, E], [S, Ev]
  // An additive mask (data may be null): element (i, j) of matrix b at
  // mask.at(b)[i * mask.ld + j * mask_col_stride].
  MatrixBatch<const T> mask;
  int64_t mask_col_stride = 1;
  bool causal = false;  // -inf above the diagonal (j > i)
  T scale = 1;
  bool drop = false;  // dropout with `draws`; kept elements scaled by `keep`
  detail::DropoutDraws draws;
  T keep = 1;
};

// out = dropout(softmax(scale * q k^T + mask)) v. When probs is non-null it receives the
// softmax results (batch x L x S, contiguous) and, with dropout, kept the keep bits (same
// layout): what attention_backward reads.
template <typename T>
void attention_forward(const AttentionProblem<T>& p, const MatrixBatch<T>& out, T* probs, bool* kept);

// Gradients from the saved probs / kept bits and the output's gradient dout; a gradient
// whose data is null is not computed. The output matrices must not share memory.
template <typename T>
void attention_backward(const AttentionProblem<T>& p, const T* probs, const bool* kept,
                        const MatrixBatch<const T>& dout, const MatrixBatch<T>& dq, const MatrixBatch<T>& dk,
                        const MatrixBatch<T>& dv);

}  // namespace torch::kernels
