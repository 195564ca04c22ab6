#include "ember/audio/functional/beamforming.h"

#include <vector>

#include "ember/core/error.h"
#include "ember/linalg/factorizations.h"
#include "ember/linalg/spectral.h"
#include "ember/ops/all_ops.h"

namespace torch::audio::functional {
namespace {

std::vector<int64_t> dims(const Tensor& t, int64_t from, int64_t to) {
  auto s = t.sizes();
  return std::vector<int64_t>(s.begin() + from, s.begin() + to);
}
std::vector<int64_t> leading(const Tensor& t, int64_t drop) { return dims(t, 0, t.dim() - drop); }

// Real tensors meet complex ones only after an explicit cast: the core's
// double backward of a complex * real product drops the real operand's
// second-order term, while complex * complex is right.
Tensor as_complex(const Tensor& r, const Tensor& like) { return r.to(like.scalar_type()); }

Tensor trace_of(const Tensor& m) { return m.diagonal(0, -2, -1).sum(-1); }

// Tikhonov regularisation: adds (trace(mat).real * reg + eps) to the diagonal.
Tensor tik_reg(const Tensor& mat, double reg, double eps = 1e-8) {
  const int64_t c = mat.size(-1);
  Tensor eye_c = eye(c, TensorOptions(mat.scalar_type()));
  Tensor epsilon = as_complex(real(trace_of(mat)) * reg + eps, mat).unsqueeze(-1).unsqueeze(-1);
  return mat + epsilon * eye_c;
}

void check_psd_matrices(const char* fn, const Tensor& psd_s, const Tensor& psd_n) {
  EMBER_CHECK(psd_s.dim() >= 3 && psd_n.dim() >= 3, fn,
              ": expected at least 3D Tensor (..., freq, channel, channel) for psd_s and psd_n, found ", psd_s.sizes(),
              " for psd_s and ", psd_n.sizes(), " for psd_n");
  EMBER_CHECK(psd_s.is_complex() && psd_n.is_complex(), fn,
              ": the type of psd_s and psd_n must be complex64 or complex128, found ", psd_s.scalar_type(), " and ",
              psd_n.scalar_type());
  EMBER_CHECK(psd_s.sizes() == psd_n.sizes(), fn, ": the dimensions of psd_s and psd_n should be the same, found ",
              psd_s.sizes(), " and ", psd_n.sizes());
  EMBER_CHECK(psd_s.size(-1) == psd_s.size(-2), fn, ": the last two dimensions of psd_s should be the same, found ",
              psd_s.sizes());
}

void check_channel(const char* fn, int64_t reference_channel, int64_t channels) {
  EMBER_CHECK(reference_channel >= -channels && reference_channel < channels, fn, ": reference_channel ",
              reference_channel, " is out of range for ", channels, " channels");
}

// (..., channel) weights applied along the last dim of m (..., X, channel).
Tensor weigh_channels(const Tensor& m, const Tensor& ref, const char* fn) {
  EMBER_CHECK(ref.dim() >= 1 && ref.size(-1) == m.size(-1), fn, ": reference_channel must be [..., ", m.size(-1),
              "], got shape ", ref.sizes());
  return (m * ref.to(m.scalar_type()).unsqueeze(-2)).sum(-1);
}

Tensor souden(const Tensor& psd_s, const Tensor& psd_n, bool diagonal_loading, double diag_eps, double eps) {
  Tensor n = diagonal_loading ? tik_reg(psd_n, diag_eps) : psd_n;
  Tensor numerator = linalg::solve(n, psd_s);
  return numerator / (trace_of(numerator).unsqueeze(-1).unsqueeze(-1) + eps);
}

void check_rtf(const Tensor& rtf, const Tensor& psd_n) {
  EMBER_CHECK(rtf.dim() >= 2, "mvdr_weights_rtf: expected at least 2D Tensor (..., freq, channel) for rtf, found ",
              rtf.sizes());
  EMBER_CHECK(psd_n.dim() >= 3,
              "mvdr_weights_rtf: expected at least 3D Tensor (..., freq, channel, channel) for psd_n, found ",
              psd_n.sizes());
  EMBER_CHECK(rtf.is_complex() && psd_n.is_complex(),
              "mvdr_weights_rtf: the type of rtf and psd_n must be complex64 or complex128, found ", rtf.scalar_type(),
              " and ", psd_n.scalar_type());
  EMBER_CHECK(rtf.sizes() == IntArrayRef(leading(psd_n, 1)),
              "mvdr_weights_rtf: the dimensions of rtf and of psd_n without its last dimension should be the same, "
              "found ",
              rtf.sizes(), " for rtf and ", psd_n.sizes(), " for psd_n");
  EMBER_CHECK(psd_n.size(-1) == psd_n.size(-2),
              "mvdr_weights_rtf: the last two dimensions of psd_n should be the same, found ", psd_n.sizes());
}

Tensor rtf_weights(const Tensor& rtf, const Tensor& psd_n, bool diagonal_loading, double diag_eps, double eps) {
  Tensor n = diagonal_loading ? tik_reg(psd_n, diag_eps) : psd_n;
  Tensor numerator = linalg::solve(n, rtf.unsqueeze(-1)).squeeze(-1);
  Tensor denominator = (rtf.conj() * numerator).sum(-1);
  return numerator / as_complex(real(denominator).unsqueeze(-1) + eps, numerator);
}

void check_power(const Tensor& psd_s, const Tensor& psd_n, int64_t n_iter) {
  check_psd_matrices("rtf_power", psd_s, psd_n);
  EMBER_CHECK(n_iter > 0, "rtf_power: the number of iteration must be greater than 0, got ", n_iter);
}

// The iterations after the first (phi's column at the reference channel).
Tensor power_iterations(const Tensor& phi, const Tensor& psd_s, const Tensor& psd_n, Tensor rtf, int64_t n_iter) {
  rtf = rtf.unsqueeze(-1);
  if (n_iter >= 2) {
    for (int64_t i = 0; i < n_iter - 2; ++i) rtf = matmul(phi, rtf);
    rtf = matmul(psd_s, rtf);
  } else {
    rtf = matmul(psd_n, rtf);
  }
  return rtf.squeeze(-1);
}

}  // namespace

Tensor psd(const Tensor& specgram, const std::optional<Tensor>& mask, bool normalize, double eps) {
  EMBER_CHECK(specgram.dim() >= 3, "psd: expected specgram of shape (..., channel, freq, time), got ",
              specgram.sizes());
  EMBER_CHECK(specgram.is_complex(), "psd: specgram must be complex, got ", specgram.scalar_type());
  Tensor x = specgram.transpose(-3, -2);  // (..., freq, channel, time)
  Tensor weighted = x;
  if (mask) {
    std::vector<int64_t> want = leading(x, 2);
    EMBER_CHECK(mask->dim() >= 1 && IntArrayRef(leading(*mask, 1)) == IntArrayRef(want) && mask->size(-1) == x.size(-1),
                "psd: the dimensions of mask except the channel dimension should be the same as specgram; found ",
                mask->sizes(), " for mask and ", x.sizes(), " for specgram (..., freq, channel, time)");
    Tensor m = normalize ? *mask / (mask->sum(-1, true) + eps) : *mask;
    weighted = x * as_complex(m.unsqueeze(-2), x);
  }
  // sum_t w_t x_c,t conj(x_e,t): the einsum "...ct,...et->...tce" summed over time.
  return matmul(weighted, x.conj().transpose(-2, -1));
}

Tensor mvdr_weights_souden(const Tensor& psd_s, const Tensor& psd_n, int64_t reference_channel, bool diagonal_loading,
                           double diag_eps, double eps) {
  check_psd_matrices("mvdr_weights_souden", psd_s, psd_n);
  check_channel("mvdr_weights_souden", reference_channel, psd_s.size(-1));
  return souden(psd_s, psd_n, diagonal_loading, diag_eps, eps).select(-1, reference_channel);
}

Tensor mvdr_weights_souden(const Tensor& psd_s, const Tensor& psd_n, const Tensor& reference_channel,
                           bool diagonal_loading, double diag_eps, double eps) {
  check_psd_matrices("mvdr_weights_souden", psd_s, psd_n);
  return weigh_channels(souden(psd_s, psd_n, diagonal_loading, diag_eps, eps), reference_channel.unsqueeze(-2),
                        "mvdr_weights_souden");
}

Tensor mvdr_weights_rtf(const Tensor& rtf, const Tensor& psd_n, std::optional<int64_t> reference_channel,
                        bool diagonal_loading, double diag_eps, double eps) {
  check_rtf(rtf, psd_n);
  Tensor w = rtf_weights(rtf, psd_n, diagonal_loading, diag_eps, eps);
  if (!reference_channel) return w;
  check_channel("mvdr_weights_rtf", *reference_channel, rtf.size(-1));
  return w * rtf.select(-1, *reference_channel).conj().unsqueeze(-1);
}

Tensor mvdr_weights_rtf(const Tensor& rtf, const Tensor& psd_n, const Tensor& reference_channel, bool diagonal_loading,
                        double diag_eps, double eps) {
  check_rtf(rtf, psd_n);
  Tensor w = rtf_weights(rtf, psd_n, diagonal_loading, diag_eps, eps);
  EMBER_CHECK(reference_channel.dim() >= 1 && reference_channel.size(-1) == rtf.size(-1),
              "mvdr_weights_rtf: reference_channel must be [..., ", rtf.size(-1), "], got shape ",
              reference_channel.sizes());
  Tensor scale = (rtf.conj() * reference_channel.to(rtf.scalar_type()).unsqueeze(-2)).sum(-1);
  return w * scale.unsqueeze(-1);
}

Tensor rtf_evd(const Tensor& psd_s) {
  EMBER_CHECK(psd_s.is_complex(), "rtf_evd: the type of psd_s must be complex64 or complex128, found ",
              psd_s.scalar_type());
  EMBER_CHECK(psd_s.dim() >= 2 && psd_s.size(-1) == psd_s.size(-2),
              "rtf_evd: the last two dimensions of psd_s should be the same, found ", psd_s.sizes());
  Tensor v = std::get<1>(linalg::eigh(psd_s));  // ascending eigenvalues
  return v.select(-1, v.size(-1) - 1);
}

Tensor rtf_power(const Tensor& psd_s, const Tensor& psd_n, int64_t reference_channel, int64_t n_iter,
                 bool diagonal_loading, double diag_eps) {
  check_power(psd_s, psd_n, n_iter);
  check_channel("rtf_power", reference_channel, psd_s.size(-1));
  Tensor n = diagonal_loading ? tik_reg(psd_n, diag_eps) : psd_n;
  Tensor phi = linalg::solve(n, psd_s);
  return power_iterations(phi, psd_s, n, phi.select(-1, reference_channel), n_iter);
}

Tensor rtf_power(const Tensor& psd_s, const Tensor& psd_n, const Tensor& reference_channel, int64_t n_iter,
                 bool diagonal_loading, double diag_eps) {
  check_power(psd_s, psd_n, n_iter);
  Tensor n = diagonal_loading ? tik_reg(psd_n, diag_eps) : psd_n;
  Tensor phi = linalg::solve(n, psd_s);
  Tensor rtf = weigh_channels(phi, reference_channel.unsqueeze(-2), "rtf_power");
  return power_iterations(phi, psd_s, n, rtf, n_iter);
}

Tensor apply_beamforming(const Tensor& beamform_weights, const Tensor& specgram) {
  EMBER_CHECK(beamform_weights.dim() >= 2 && specgram.dim() >= 3 &&
                  IntArrayRef(leading(beamform_weights, 2)) == IntArrayRef(leading(specgram, 3)),
              "apply_beamforming: the dimensions except the last two of beamform_weights should be the same as the "
              "dimensions except the last three of specgram; found ",
              beamform_weights.sizes(), " for beamform_weights and ", specgram.sizes(), " for specgram");
  EMBER_CHECK(beamform_weights.is_complex() && specgram.is_complex(),
              "apply_beamforming: the type of beamform_weights and specgram must be complex64 or complex128, found ",
              beamform_weights.scalar_type(), " and ", specgram.scalar_type());
  EMBER_CHECK(beamform_weights.size(-2) == specgram.size(-2) && beamform_weights.size(-1) == specgram.size(-3),
              "apply_beamforming: beamform_weights (..., freq, channel) ", beamform_weights.sizes(),
              " does not match specgram (..., channel, freq, time) ", specgram.sizes());
  // (..., freq, 1, channel) x (..., freq, channel, time) -> (..., freq, time)
  return matmul(beamform_weights.conj().unsqueeze(-2), specgram.transpose(-3, -2)).squeeze(-2);
}

}  // namespace torch::audio::functional
