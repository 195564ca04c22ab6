#pragma once
// torchaudio.transforms.PSD, SoudenMVDR and RTFMVDR: module forms of
// functional/beamforming.h.
#include <cstdint>
#include <optional>

#include "ember/core/arg.h"
#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/pimpl.h"

namespace torch::audio::transforms {

struct PSDOptions {
  TORCH_ARG(bool, multi_mask) = false;
  TORCH_ARG(bool, normalize) = true;
  TORCH_ARG(double, eps) = 1e-15;
};

// specgram: complex [..., channel, freq, time]; mask: [..., freq, time], or
// [..., channel, freq, time] with multi_mask (averaged over channels).
class PSDImpl : public nn::Cloneable<PSDImpl> {
 public:
  explicit PSDImpl(const PSDOptions& options_ = {}) : options(options_) {}
  PSDImpl(bool multi_mask, bool normalize = true, double eps = 1e-15)
      : PSDImpl(PSDOptions().multi_mask(multi_mask).normalize(normalize).eps(eps)) {}
  void reset() override {}
  Tensor forward(const Tensor& specgram, const std::optional<Tensor>& mask = std::nullopt);
  PSDOptions options;
};
TORCH_MODULE(PSD);

// MVDR beamforming with Souden's weights from the speech and noise PSDs.
class SoudenMVDRImpl : public nn::Cloneable<SoudenMVDRImpl> {
 public:
  void reset() override {}
  Tensor forward(const Tensor& specgram, const Tensor& psd_s, const Tensor& psd_n, int64_t reference_channel,
                 bool diagonal_loading = true, double diag_eps = 1e-7, double eps = 1e-8);
  Tensor forward(const Tensor& specgram, const Tensor& psd_s, const Tensor& psd_n, const Tensor& reference_channel,
                 bool diagonal_loading = true, double diag_eps = 1e-7, double eps = 1e-8);
};
TORCH_MODULE(SoudenMVDR);

// MVDR beamforming from the relative transfer function and the noise PSD.
class RTFMVDRImpl : public nn::Cloneable<RTFMVDRImpl> {
 public:
  void reset() override {}
  Tensor forward(const Tensor& specgram, const Tensor& rtf, const Tensor& psd_n, int64_t reference_channel,
                 bool diagonal_loading = true, double diag_eps = 1e-7, double eps = 1e-8);
  Tensor forward(const Tensor& specgram, const Tensor& rtf, const Tensor& psd_n, const Tensor& reference_channel,
                 bool diagonal_loading = true, double diag_eps = 1e-7, double eps = 1e-8);
};
TORCH_MODULE(RTFMVDR);

}  // namespace torch::audio::transforms
