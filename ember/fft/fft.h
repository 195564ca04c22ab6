#pragma once
// torch.fft as LibTorch 1.13's torch::fft (torch/fft.h): one-, two- and
// n-dimensional discrete Fourier transforms with PyTorch's `n`/`s`, `dim` and
// `norm` ("backward" = default, "ortho", "forward") arguments, plus the
// frequency helpers. Real inputs of integer dtype are promoted to the default
// float dtype; float16/bfloat16 are rejected (as PyTorch's CPU backend).
// All transforms are differentiable (ember/fft/fft_grad.cpp).
#include <optional>
#include <string_view>

#include "ember/core/tensor.h"
#include "ember/core/tensor_options.h"

namespace torch::fft {

using NormArg = std::optional<std::string_view>;

Tensor fft(const Tensor& self, std::optional<int64_t> n = std::nullopt, int64_t dim = -1, NormArg norm = std::nullopt);
Tensor ifft(const Tensor& self, std::optional<int64_t> n = std::nullopt, int64_t dim = -1, NormArg norm = std::nullopt);
Tensor rfft(const Tensor& self, std::optional<int64_t> n = std::nullopt, int64_t dim = -1, NormArg norm = std::nullopt);
Tensor irfft(const Tensor& self, std::optional<int64_t> n = std::nullopt, int64_t dim = -1,
             NormArg norm = std::nullopt);
Tensor hfft(const Tensor& self, std::optional<int64_t> n = std::nullopt, int64_t dim = -1, NormArg norm = std::nullopt);
Tensor ihfft(const Tensor& self, std::optional<int64_t> n = std::nullopt, int64_t dim = -1,
             NormArg norm = std::nullopt);

Tensor fft2(const Tensor& self, OptionalIntArrayRef s = std::nullopt, IntArrayRef dim = {-2, -1},
            NormArg norm = std::nullopt);
Tensor ifft2(const Tensor& self, OptionalIntArrayRef s = std::nullopt, IntArrayRef dim = {-2, -1},
             NormArg norm = std::nullopt);
Tensor rfft2(const Tensor& self, OptionalIntArrayRef s = std::nullopt, IntArrayRef dim = {-2, -1},
             NormArg norm = std::nullopt);
Tensor irfft2(const Tensor& self, OptionalIntArrayRef s = std::nullopt, IntArrayRef dim = {-2, -1},
              NormArg norm = std::nullopt);

Tensor fftn(const Tensor& self, OptionalIntArrayRef s = std::nullopt, OptionalIntArrayRef dim = std::nullopt,
            NormArg norm = std::nullopt);
Tensor ifftn(const Tensor& self, OptionalIntArrayRef s = std::nullopt, OptionalIntArrayRef dim = std::nullopt,
             NormArg norm = std::nullopt);
Tensor rfftn(const Tensor& self, OptionalIntArrayRef s = std::nullopt, OptionalIntArrayRef dim = std::nullopt,
             NormArg norm = std::nullopt);
Tensor irfftn(const Tensor& self, OptionalIntArrayRef s = std::nullopt, OptionalIntArrayRef dim = std::nullopt,
              NormArg norm = std::nullopt);

// Sample frequencies: fftfreq(n, d)[k] = k/(n d) for k < ceil(n/2), then negative; rfftfreq keeps
// k = 0..n/2. The dtype is the options' (default dtype when unset).
Tensor fftfreq(int64_t n, double d = 1.0, const TensorOptions& options = {});
Tensor fftfreq(int64_t n, const TensorOptions& options);
Tensor rfftfreq(int64_t n, double d = 1.0, const TensorOptions& options = {});
Tensor rfftfreq(int64_t n, const TensorOptions& options);

// Rolls the zero-frequency bin to the centre (and back) along `dim` (all dims when unset).
Tensor fftshift(const Tensor& self, OptionalIntArrayRef dim = std::nullopt);
Tensor ifftshift(const Tensor& self, OptionalIntArrayRef dim = std::nullopt);

}  // namespace torch::fft
