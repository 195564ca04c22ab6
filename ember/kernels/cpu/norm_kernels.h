#pragma once
// Per-channel and per-row normalization kernels for batch_norm / layer_norm
// (float32 and float64; ops/nn/normalization.cpp upcasts the half types).
// All tensors are contiguous and of one dtype. Statistics accumulate in double.
#include "ember/core/tensor.h"

namespace torch::kernels {

// x viewed as [N, C, S]: biased mean and variance of each channel (two passes
// over the channel's N*S values), parallel over channels.
void channel_stats(const Tensor& x, int64_t n, int64_t c, int64_t s, Tensor& mean, Tensor& var);
// y[n, c, s] = x[n, c, s] * scale[c] + shift[c].
void channel_affine(const Tensor& x, int64_t n, int64_t c, int64_t s, const Tensor& scale, const Tensor& shift,
                    Tensor& y);
// Training-mode batch_norm backward, first order: with xhat = (x - mean) * invstd,
//   gb = sum g, gw = sum g*xhat, gi = w*invstd * (g - gb/M - xhat*gw/M).
// `weight` may be undefined (= ones); gi/gw/gb are written when defined.
void batch_norm_backward_train(const Tensor& g, const Tensor& x, int64_t n, int64_t c, int64_t s, const Tensor& mean,
                               const Tensor& invstd, const Tensor& weight, Tensor& gi, Tensor& gw, Tensor& gb);
// x viewed as [M, N]: each row normalized with its biased statistics, then
// y = xhat * w + b (w, b of N elements, either may be undefined).
// mean/rstd [M] receive the statistics.
void layer_norm_rows(const Tensor& x, int64_t m, int64_t n, const Tensor& w, const Tensor& b, double eps, Tensor& y,
                     Tensor& mean, Tensor& rstd);

// First-order layer_norm backward over rows of [M, N], with the forward's mean/rstd:
//   gi = rstd * (gx - mean(gx) - xhat * mean(gx * xhat)),  gx = g * w,
//   gw = sum_rows g * xhat, gb = sum_rows g (summed per fixed block of rows, then
//   blocks in order, so results do not depend on the thread count).
// Row r of g starts at r * g_row_stride: n for a dense g, 0 when every row's gradient is
// the same (g then holds one row).
void layer_norm_backward_rows(const Tensor& g, int64_t g_row_stride, const Tensor& x, int64_t m, int64_t n,
                              const Tensor& mean, const Tensor& rstd, const Tensor& w, Tensor& gi, Tensor& gw,
                              Tensor& gb);

}  // namespace torch::kernels
