#pragma once
// torchaudio.functional.resample: band-limited sinc interpolation as one
// strided conv1d with a [new, 1, taps] kernel per reduced rate pair.
// Kernels are memoised in a small process-wide cache (see resample.cpp,
// Note [Resample kernel cache]).
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>

#include "ember/core/dtype.h"
#include "ember/core/tensor.h"

namespace torch::audio::functional {

// resampling_method: "sinc_interpolation" (Hann window) or "kaiser_window";
// torchaudio 2's spellings "sinc_interp_hann" / "sinc_interp_kaiser" are
// accepted as the same methods.
Tensor resample(const Tensor& waveform, int64_t orig_freq, int64_t new_freq, int64_t lowpass_filter_width = 6,
                double rolloff = 0.99, const std::string& resampling_method = "sinc_interpolation",
                std::optional<double> beta = std::nullopt);

namespace detail {

// The kernel [new / gcd, 1, 2 * width + orig / gcd] and its half-width, in
// `dtype` (float32 when nullopt), as torchaudio's _get_sinc_resample_kernel.
std::tuple<Tensor, int64_t> get_sinc_resample_kernel(int64_t orig_freq, int64_t new_freq, int64_t gcd,
                                                     int64_t lowpass_filter_width, double rolloff,
                                                     const std::string& resampling_method, std::optional<double> beta,
                                                     std::optional<ScalarType> dtype);
Tensor apply_sinc_resample_kernel(const Tensor& waveform, int64_t orig_freq, int64_t new_freq, int64_t gcd,
                                  const Tensor& kernel, int64_t width);

}  // namespace detail
}  // namespace torch::audio::functional
