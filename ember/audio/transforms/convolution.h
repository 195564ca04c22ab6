#pragma once
// torchaudio 2's transforms Convolve, FFTConvolve, AddNoise, Speed,
// Preemphasis and Deemphasis (prototype in 0.13), over functional/convolution.h.
#include <cstdint>
#include <optional>
#include <string>
#include <tuple>

#include "ember/core/arg.h"
#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/pimpl.h"

namespace torch::audio::transforms {

struct ConvolveOptions {
  TORCH_ARG(std::string, mode) = "full";
};
class ConvolveImpl : public nn::Cloneable<ConvolveImpl> {
 public:
  explicit ConvolveImpl(const ConvolveOptions& options_ = {}) : options(options_) { reset(); }
  explicit ConvolveImpl(std::string mode) : ConvolveImpl(ConvolveOptions().mode(std::move(mode))) {}
  void reset() override;
  Tensor forward(const Tensor& x, const Tensor& y);
  ConvolveOptions options;
};
TORCH_MODULE(Convolve);

using FFTConvolveOptions = ConvolveOptions;
class FFTConvolveImpl : public nn::Cloneable<FFTConvolveImpl> {
 public:
  explicit FFTConvolveImpl(const FFTConvolveOptions& options_ = {}) : options(options_) { reset(); }
  explicit FFTConvolveImpl(std::string mode) : FFTConvolveImpl(FFTConvolveOptions().mode(std::move(mode))) {}
  void reset() override;
  Tensor forward(const Tensor& x, const Tensor& y);
  FFTConvolveOptions options;
};
TORCH_MODULE(FFTConvolve);

class AddNoiseImpl : public nn::Cloneable<AddNoiseImpl> {
 public:
  AddNoiseImpl() = default;
  void reset() override {}
  Tensor forward(const Tensor& waveform, const Tensor& noise, const Tensor& snr,
                 const std::optional<Tensor>& lengths = std::nullopt);
};
TORCH_MODULE(AddNoise);

struct SpeedOptions {
  SpeedOptions(int64_t orig_freq, double factor) : orig_freq_(orig_freq), factor_(factor) {}
  TORCH_ARG(int64_t, orig_freq);
  TORCH_ARG(double, factor);
};
class SpeedImpl : public nn::Cloneable<SpeedImpl> {
 public:
  explicit SpeedImpl(const SpeedOptions& options_) : options(options_) { reset(); }
  SpeedImpl(int64_t orig_freq, double factor) : SpeedImpl(SpeedOptions(orig_freq, factor)) {}
  void reset() override;
  std::tuple<Tensor, std::optional<Tensor>> forward(const Tensor& waveform,
                                                    const std::optional<Tensor>& lengths = std::nullopt);
  SpeedOptions options;
};
TORCH_MODULE(Speed);

struct PreemphasisOptions {
  TORCH_ARG(double, coeff) = 0.97;
};
class PreemphasisImpl : public nn::Cloneable<PreemphasisImpl> {
 public:
  explicit PreemphasisImpl(const PreemphasisOptions& options_ = {}) : options(options_) {}
  explicit PreemphasisImpl(double coeff) : PreemphasisImpl(PreemphasisOptions().coeff(coeff)) {}
  void reset() override {}
  Tensor forward(const Tensor& waveform);
  PreemphasisOptions options;
};
TORCH_MODULE(Preemphasis);

using DeemphasisOptions = PreemphasisOptions;
class DeemphasisImpl : public nn::Cloneable<DeemphasisImpl> {
 public:
  explicit DeemphasisImpl(const DeemphasisOptions& options_ = {}) : options(options_) {}
  explicit DeemphasisImpl(double coeff) : DeemphasisImpl(DeemphasisOptions().coeff(coeff)) {}
  void reset() override {}
  Tensor forward(const Tensor& waveform);
  DeemphasisOptions options;
};
TORCH_MODULE(Deemphasis);

}  // namespace torch::audio::transforms
