#pragma once
// torchaudio.functional's multi-channel beamforming: power spectral density
// matrices, MVDR weights (Souden's and the RTF form), relative transfer
// functions (eigenvector and power iteration) and applying the weights.
// Complex-valued and differentiable (composed of Ember's complex ops).
#include <cstdint>
#include <optional>

#include "ember/core/tensor.h"

namespace torch::audio::functional {

// specgram: complex [..., channel, freq, time]; mask: real [..., freq, time].
// Returns complex [..., freq, channel, channel].
Tensor psd(const Tensor& specgram, const std::optional<Tensor>& mask = std::nullopt, bool normalize = true,
           double eps = 1e-10);

// psd_s, psd_n: complex [..., freq, channel, channel]; reference_channel: an
// index, or a [..., channel] one-hot (or soft) weighting. Returns [..., freq, channel].
Tensor mvdr_weights_souden(const Tensor& psd_s, const Tensor& psd_n, int64_t reference_channel,
                           bool diagonal_loading = true, double diag_eps = 1e-7, double eps = 1e-8);
Tensor mvdr_weights_souden(const Tensor& psd_s, const Tensor& psd_n, const Tensor& reference_channel,
                           bool diagonal_loading = true, double diag_eps = 1e-7, double eps = 1e-8);

// rtf: complex [..., freq, channel]; psd_n: [..., freq, channel, channel].
// Without a reference channel the weights are not rescaled.
Tensor mvdr_weights_rtf(const Tensor& rtf, const Tensor& psd_n, std::optional<int64_t> reference_channel = std::nullopt,
                        bool diagonal_loading = true, double diag_eps = 1e-7, double eps = 1e-8);
Tensor mvdr_weights_rtf(const Tensor& rtf, const Tensor& psd_n, const Tensor& reference_channel,
                        bool diagonal_loading = true, double diag_eps = 1e-7, double eps = 1e-8);

// The eigenvector of psd_s's largest eigenvalue: [..., freq, channel].
Tensor rtf_evd(const Tensor& psd_s);

// The RTF by n_iter power iterations on psd_n^-1 psd_s from the reference channel.
Tensor rtf_power(const Tensor& psd_s, const Tensor& psd_n, int64_t reference_channel, int64_t n_iter = 3,
                 bool diagonal_loading = true, double diag_eps = 1e-7);
Tensor rtf_power(const Tensor& psd_s, const Tensor& psd_n, const Tensor& reference_channel, int64_t n_iter = 3,
                 bool diagonal_loading = true, double diag_eps = 1e-7);

// beamform_weights: [..., freq, channel]; specgram: [..., channel, freq, time].
// Returns the enhanced [..., freq, time] spectrum.
Tensor apply_beamforming(const Tensor& beamform_weights, const Tensor& specgram);

}  // namespace torch::audio::functional
