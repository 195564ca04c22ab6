#pragma once
// torchaudio.transforms.MVDR: mask-based MVDR beamforming with the
// "ref_channel" (Souden), "stv_evd" or "stv_power" solution, offline or online
// (the PSDs averaged over every call so far, kept in its buffers).
#include <cstdint>
#include <optional>
#include <string>

#include "ember/audio/transforms/beamforming.h"
#include "ember/core/arg.h"
#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/pimpl.h"

namespace torch::audio::transforms {

struct MVDROptions {
  TORCH_ARG(int64_t, ref_channel) = 0;
  TORCH_ARG(std::string, solution) = "ref_channel";
  TORCH_ARG(bool, multi_mask) = false;
  TORCH_ARG(bool, diag_loading) = true;
  TORCH_ARG(double, diag_eps) = 1e-7;
  TORCH_ARG(bool, online) = false;
};

// Buffers psd_s, psd_n, mask_sum_s, mask_sum_n (torchaudio's names); they are
// one-element placeholders until the first online call.
class MVDRImpl : public nn::Cloneable<MVDRImpl> {
 public:
  explicit MVDRImpl(const MVDROptions& options_ = {});
  void reset() override;
  // specgram: complex [..., channel, freq, time]; masks: [..., freq, time]
  // (or [..., channel, freq, time] with multi_mask); mask_n defaults to 1 - mask_s.
  Tensor forward(const Tensor& specgram, const Tensor& mask_s, const std::optional<Tensor>& mask_n = std::nullopt);

  MVDROptions options;
  PSD psd{nullptr};
  Tensor psd_s, psd_n, mask_sum_s, mask_sum_n;

 private:
  Tensor updated_vector(const Tensor& psd_s_now, const Tensor& psd_n_now, Tensor mask_s, Tensor mask_n,
                        const Tensor& u);
};
TORCH_MODULE(MVDR);

}  // namespace torch::audio::transforms
