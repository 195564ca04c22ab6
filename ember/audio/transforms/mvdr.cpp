#include "ember/audio/transforms/mvdr.h"

#include "ember/audio/functional/beamforming.h"
#include "ember/core/error.h"
#include "ember/ops/all_ops.h"

namespace torch::audio::transforms {
namespace {

Tensor mvdr_vector(const Tensor& psd_s, const Tensor& psd_n, const Tensor& u, const std::string& solution,
                   bool diagonal_loading, double diag_eps, double eps = 1e-8) {
  if (solution == "ref_channel")
    return functional::mvdr_weights_souden(psd_s, psd_n, u, diagonal_loading, diag_eps, eps);
  Tensor stv = solution == "stv_evd" ? functional::rtf_evd(psd_s)
                                     : functional::rtf_power(psd_s, psd_n, u, 3, diagonal_loading, diag_eps);
  return functional::mvdr_weights_rtf(stv, psd_n, u, diagonal_loading, diag_eps, eps);
}

// The running average of a PSD: old * sum / (sum + new_sum) + new / (sum + new_sum).
Tensor updated_psd(const Tensor& old, const Tensor& now, const Tensor& sum, const Tensor& now_sum) {
  Tensor total = sum + now_sum;
  Tensor keep = (sum / total).unsqueeze(-1).unsqueeze(-1).to(now.scalar_type());
  Tensor add = (1 / total).unsqueeze(-1).unsqueeze(-1).to(now.scalar_type());
  return old * keep + now * add;
}

}  // namespace

MVDRImpl::MVDRImpl(const MVDROptions& options_) : options(options_) {
  const std::string& s = options.solution();
  EMBER_CHECK(s == "ref_channel" || s == "stv_evd" || s == "stv_power",
              "MVDR: `solution` must be one of [\"ref_channel\", \"stv_evd\", \"stv_power\"], given ", s);
  reset();
}

void MVDRImpl::reset() {
  psd = register_module("psd", PSD(PSDOptions().multi_mask(options.multi_mask())));
  psd_s = register_buffer("psd_s", zeros({1}));
  psd_n = register_buffer("psd_n", zeros({1}));
  mask_sum_s = register_buffer("mask_sum_s", zeros({1}));
  mask_sum_n = register_buffer("mask_sum_n", zeros({1}));
}

Tensor MVDRImpl::updated_vector(const Tensor& psd_s_now, const Tensor& psd_n_now, Tensor mask_s, Tensor mask_n,
                                const Tensor& u) {
  if (options.multi_mask()) {
    mask_s = mask_s.mean(-3);
    mask_n = mask_n.mean(-3);
  }
  Tensor s = psd_s_now, n = psd_n_now;
  if (psd_s.dim() == 1) {
    mask_sum_s.set_data(mask_s.sum(-1));
    mask_sum_n.set_data(mask_n.sum(-1));
  } else {
    s = updated_psd(psd_s, psd_s_now, mask_sum_s, mask_s.sum(-1));
    n = updated_psd(psd_n, psd_n_now, mask_sum_n, mask_n.sum(-1));
    mask_sum_s.set_data(mask_sum_s + mask_s.sum(-1));
    mask_sum_n.set_data(mask_sum_n + mask_n.sum(-1));
  }
  psd_s.set_data(s.detach());
  psd_n.set_data(n.detach());
  return mvdr_vector(s, n, u, options.solution(), options.diag_loading(), options.diag_eps());
}

Tensor MVDRImpl::forward(const Tensor& specgram, const Tensor& mask_s, const std::optional<Tensor>& mask_n) {
  EMBER_CHECK(specgram.dim() >= 3, "MVDR: expected at least 3D tensor (..., channel, freq, time), found ",
              specgram.sizes());
  EMBER_CHECK(specgram.is_complex(), "MVDR: the type of specgram must be complex64 or complex128, found ",
              specgram.scalar_type());
  const int64_t channels = specgram.size(-3);
  EMBER_CHECK(options.ref_channel() >= -channels && options.ref_channel() < channels, "MVDR: ref_channel ",
              options.ref_channel(), " is out of range for ", channels, " channels");
  const ScalarType dtype = specgram.scalar_type();
  Tensor spec = specgram.to(kComplexDouble);
  Tensor mn = mask_n ? *mask_n : 1 - mask_s;
  Tensor s = psd->forward(spec, mask_s), n = psd->forward(spec, mn);
  auto lead = spec.sizes().vec();
  lead.resize(lead.size() - 2);  // (..., channel)
  Tensor u = zeros(lead, TensorOptions(kComplexDouble));
  u.select(-1, options.ref_channel()).fill_(1);
  Tensor w = options.online() ? updated_vector(s, n, mask_s, mn, u)
                              : mvdr_vector(s, n, u, options.solution(), options.diag_loading(), options.diag_eps());
  return functional::apply_beamforming(w, spec).to(dtype);
}

}  // namespace torch::audio::transforms
