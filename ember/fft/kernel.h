#pragma once
// One-dimensional FFT kernels over KissFFT, batched along every other dim.
// Inputs and outputs are contiguous; the transformed dim may be anywhere
// (each lane x[o, :, i] is gathered into a contiguous buffer, transformed and
// scattered back). Lanes run in parallel with parallel_for. No autograd here:
// the differentiable primitives live in ember/fft/primitives.h.
#include "ember/core/tensor.h"

namespace torch::fft::detail {

// out[..., k, ...] = scale * sum_j in[..., j, ...] * exp(-+2 pi i jk/n) along `dim`
// (sign - when forward). in/out: same shape, complex64 or complex128, contiguous; in may equal out.
void c2c_dim(const Tensor& in, const Tensor& out, int64_t dim, bool forward, double scale);
// Forward real-to-complex along `dim`: out holds the first out.size(dim) bins
// (n/2 + 1 when onesided, n otherwise; the upper half is filled by symmetry).
void r2c_dim(const Tensor& in, const Tensor& out, int64_t dim, double scale);
// Inverse complex-to-real along `dim`: in holds bins 0..n/2 (n = out.size(dim));
// the imaginary parts of bin 0 (and n/2 for even n) are ignored, as pocketfft does.
void c2r_dim(const Tensor& in, const Tensor& out, int64_t dim, double scale);

// The frame-wise real FFT behind stft: frames of `n` samples starting every `hop`
// samples of the contiguous real signal rows x[b, :], each multiplied by `window`
// (length n, or undefined) before its rfft; out is [B, frames, n/2 + 1] complex.
// Fusing the framing and the window into the lane gather saves two passes.
void framed_rfft(const Tensor& x, const Tensor& window, const Tensor& out, int64_t n, int64_t hop, double scale);

}  // namespace torch::fft::detail
