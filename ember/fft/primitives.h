#pragma once
// The three differentiable FFT primitives every public transform reduces to,
// as ATen's _fft_c2c / _fft_r2c / _fft_c2r. `dims` are wrapped, unique dims;
// the normalisation is a scale applied once, whatever the direction.
// Their derivative formulas are in ember/fft/fft_grad.cpp.
#include "ember/core/tensor.h"

namespace torch::fft::detail {

// none: no scaling; by_root_n: 1/sqrt(n); by_n: 1/n (n = product of the signal sizes).
enum class Norm : int64_t { None = 0, ByRootN = 1, ByN = 2 };
double norm_scale(Norm norm, int64_t signal_numel);

// Complex -> complex over `dims` (forward: exp(-2 pi i ...)). self: complex64/complex128.
Tensor fft_c2c(const Tensor& self, IntArrayRef dims, Norm norm, bool forward);
// Real -> complex, forward direction: rfft over dims.back() (n/2+1 bins when onesided, all n
// otherwise), then complex transforms over the other dims. self: float32/float64.
Tensor fft_r2c(const Tensor& self, IntArrayRef dims, Norm norm, bool onesided);
// Complex -> real, inverse direction: inverse complex transforms over all but dims.back(), then an
// inverse real transform giving last_dim_size values; self.size(dims.back()) must be last_dim_size/2+1.
Tensor fft_c2r(const Tensor& self, IntArrayRef dims, Norm norm, int64_t last_dim_size);

}  // namespace torch::fft::detail
