#pragma once
// Short-time Fourier transform and its inverse, as torch::stft / torch::istft
// (PyTorch 1.13 semantics). The overload without `center` does not pad
// (ATen's `stft`); the one with `center` pads by n_fft/2 on each side with
// `pad_mode` ("reflect", "constant", "replicate" or "circular").
// Both are compositions of differentiable ops (pad, unfold, mul, the FFT
// primitives, index_add for the overlap-add), so they need no formula of
// their own. A real input needs `return_complex` (as 1.13 requires).
#include <optional>
#include <string_view>

#include "ember/core/tensor.h"

namespace torch {

Tensor stft(const Tensor& self, int64_t n_fft, std::optional<int64_t> hop_length = std::nullopt,
            std::optional<int64_t> win_length = std::nullopt, const std::optional<Tensor>& window = {},
            bool normalized = false, std::optional<bool> onesided = std::nullopt,
            std::optional<bool> return_complex = std::nullopt);
Tensor stft(const Tensor& self, int64_t n_fft, std::optional<int64_t> hop_length, std::optional<int64_t> win_length,
            const std::optional<Tensor>& window, bool center, std::string_view pad_mode = "reflect",
            bool normalized = false, std::optional<bool> onesided = std::nullopt,
            std::optional<bool> return_complex = std::nullopt);

Tensor istft(const Tensor& self, int64_t n_fft, std::optional<int64_t> hop_length = std::nullopt,
             std::optional<int64_t> win_length = std::nullopt, const std::optional<Tensor>& window = {},
             bool center = true, bool normalized = false, std::optional<bool> onesided = std::nullopt,
             std::optional<int64_t> length = std::nullopt, bool return_complex = false);

}  // namespace torch
