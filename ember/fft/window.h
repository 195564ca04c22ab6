#pragma once
// Window functions as LibTorch's factories (torch::hann_window, ...), in
// namespace torch. `periodic` (default true) drops the last sample of a
// window of length + 1, as torch does for spectral analysis. Values are
// computed in double and stored in the options' dtype (float32 by default);
// the dtype must be floating point.
#include <cstdint>

#include "ember/core/tensor.h"
#include "ember/core/tensor_options.h"

namespace torch {

Tensor hann_window(int64_t window_length, const TensorOptions& options = {});
Tensor hann_window(int64_t window_length, bool periodic, const TensorOptions& options = {});

Tensor hamming_window(int64_t window_length, const TensorOptions& options = {});
Tensor hamming_window(int64_t window_length, bool periodic, const TensorOptions& options = {});
Tensor hamming_window(int64_t window_length, bool periodic, double alpha, const TensorOptions& options = {});
Tensor hamming_window(int64_t window_length, bool periodic, double alpha, double beta,
                      const TensorOptions& options = {});

Tensor blackman_window(int64_t window_length, const TensorOptions& options = {});
Tensor blackman_window(int64_t window_length, bool periodic, const TensorOptions& options = {});

Tensor bartlett_window(int64_t window_length, const TensorOptions& options = {});
Tensor bartlett_window(int64_t window_length, bool periodic, const TensorOptions& options = {});

Tensor kaiser_window(int64_t window_length, const TensorOptions& options = {});
Tensor kaiser_window(int64_t window_length, bool periodic, const TensorOptions& options = {});
Tensor kaiser_window(int64_t window_length, bool periodic, double beta, const TensorOptions& options = {});

}  // namespace torch
