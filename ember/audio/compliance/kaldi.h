#pragma once
// torchaudio.compliance.kaldi: Kaldi-compatible spectrogram, fbank and mfcc
// features (compute-spectrogram-feats, compute-fbank-feats,
// compute-mfcc-feats), with torchaudio 0.13's options and defaults. The
// waveform is [channels, samples]; `channel` picks the row (-1 means 0).
// Output is [frames, features].
#include <cstdint>
#include <string>
#include <tuple>

#include "ember/core/tensor.h"

namespace torch::audio::compliance::kaldi {

// window_type: "povey" (default), "hamming", "hanning", "rectangular" or "blackman".
Tensor spectrogram(const Tensor& waveform, double blackman_coeff = 0.42, int64_t channel = -1, double dither = 0.0,
                   double energy_floor = 1.0, double frame_length = 25.0, double frame_shift = 10.0,
                   double min_duration = 0.0, double preemphasis_coefficient = 0.97, bool raw_energy = true,
                   bool remove_dc_offset = true, bool round_to_power_of_two = true, double sample_frequency = 16000.0,
                   bool snip_edges = true, bool subtract_mean = false, const std::string& window_type = "povey");

Tensor fbank(const Tensor& waveform, double blackman_coeff = 0.42, int64_t channel = -1, double dither = 0.0,
             double energy_floor = 1.0, double frame_length = 25.0, double frame_shift = 10.0, double high_freq = 0.0,
             bool htk_compat = false, double low_freq = 20.0, double min_duration = 0.0, int64_t num_mel_bins = 23,
             double preemphasis_coefficient = 0.97, bool raw_energy = true, bool remove_dc_offset = true,
             bool round_to_power_of_two = true, double sample_frequency = 16000.0, bool snip_edges = true,
             bool subtract_mean = false, bool use_energy = false, bool use_log_fbank = true, bool use_power = true,
             double vtln_high = -500.0, double vtln_low = 100.0, double vtln_warp = 1.0,
             const std::string& window_type = "povey");

Tensor mfcc(const Tensor& waveform, double blackman_coeff = 0.42, double cepstral_lifter = 22.0, int64_t channel = -1,
            double dither = 0.0, double energy_floor = 1.0, double frame_length = 25.0, double frame_shift = 10.0,
            double high_freq = 0.0, bool htk_compat = false, double low_freq = 20.0, int64_t num_ceps = 13,
            double min_duration = 0.0, int64_t num_mel_bins = 23, double preemphasis_coefficient = 0.97,
            bool raw_energy = true, bool remove_dc_offset = true, bool round_to_power_of_two = true,
            double sample_frequency = 16000.0, bool snip_edges = true, bool subtract_mean = false,
            bool use_energy = false, double vtln_high = -500.0, double vtln_low = 100.0, double vtln_warp = 1.0,
            const std::string& window_type = "povey");

// The mel filter bank [num_bins, window_length_padded / 2] and the bins'
// centre frequencies [num_bins], float32 as torchaudio's.
std::tuple<Tensor, Tensor> get_mel_banks(int64_t num_bins, int64_t window_length_padded, double sample_freq,
                                         double low_freq, double high_freq, double vtln_low, double vtln_high,
                                         double vtln_warp_factor);

double mel_scale_scalar(double freq);
Tensor mel_scale(const Tensor& freq);
double inverse_mel_scale_scalar(double mel_freq);
Tensor inverse_mel_scale(const Tensor& mel_freq);
Tensor vtln_warp_freq(double vtln_low_cutoff, double vtln_high_cutoff, double low_freq, double high_freq,
                      double vtln_warp_factor, const Tensor& freq);
Tensor vtln_warp_mel_freq(double vtln_low_cutoff, double vtln_high_cutoff, double low_freq, double high_freq,
                          double vtln_warp_factor, const Tensor& mel_freq);

}  // namespace torch::audio::compliance::kaldi
