#include "ember/audio/transforms/beamforming.h"

#include "ember/audio/functional/beamforming.h"

namespace torch::audio::transforms {

Tensor PSDImpl::forward(const Tensor& specgram, const std::optional<Tensor>& mask) {
  std::optional<Tensor> m = mask;
  if (m && options.multi_mask()) m = m->mean(-3);
  return functional::psd(specgram, m, options.normalize(), options.eps());
}

Tensor SoudenMVDRImpl::forward(const Tensor& specgram, const Tensor& psd_s, const Tensor& psd_n,
                               int64_t reference_channel, bool diagonal_loading, double diag_eps, double eps) {
  return functional::apply_beamforming(
      functional::mvdr_weights_souden(psd_s, psd_n, reference_channel, diagonal_loading, diag_eps, eps), specgram);
}

Tensor SoudenMVDRImpl::forward(const Tensor& specgram, const Tensor& psd_s, const Tensor& psd_n,
                               const Tensor& reference_channel, bool diagonal_loading, double diag_eps, double eps) {
  return functional::apply_beamforming(
      functional::mvdr_weights_souden(psd_s, psd_n, reference_channel, diagonal_loading, diag_eps, eps), specgram);
}

Tensor RTFMVDRImpl::forward(const Tensor& specgram, const Tensor& rtf, const Tensor& psd_n, int64_t reference_channel,
                            bool diagonal_loading, double diag_eps, double eps) {
  return functional::apply_beamforming(
      functional::mvdr_weights_rtf(rtf, psd_n, reference_channel, diagonal_loading, diag_eps, eps), specgram);
}

Tensor RTFMVDRImpl::forward(const Tensor& specgram, const Tensor& rtf, const Tensor& psd_n,
                            const Tensor& reference_channel, bool diagonal_loading, double diag_eps, double eps) {
  return functional::apply_beamforming(
      functional::mvdr_weights_rtf(rtf, psd_n, reference_channel, diagonal_loading, diag_eps, eps), specgram);
}

}  // namespace torch::audio::transforms
