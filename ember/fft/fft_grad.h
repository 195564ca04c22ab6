#pragma once
// Backward recording for the FFT primitives (ember/fft/primitives.h).
// Formulas in fft_grad.cpp, written with the primitives themselves, so every
// order of derivative works.
#include "ember/core/tensor.h"
#include "ember/fft/primitives.h"

namespace torch::autograd {

void record_fft_c2c(const Tensor& self, const Tensor& out, IntArrayRef dims, fft::detail::Norm norm, bool forward);
void record_fft_r2c(const Tensor& self, const Tensor& out, IntArrayRef dims, fft::detail::Norm norm, bool onesided);
void record_fft_c2r(const Tensor& self, const Tensor& out, IntArrayRef dims, fft::detail::Norm norm,
                    int64_t last_dim_size);

}  // namespace torch::autograd
