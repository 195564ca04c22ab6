#include "ember/audio/functional/convolution.h"

#include <cmath>
#include <numeric>

#include "ember/audio/functional/filtering.h"
#include "ember/audio/functional/resample.h"
#include "ember/core/error.h"
#include "ember/fft/fft.h"
#include "ember/ops/all_ops.h"

namespace torch::audio::functional {
namespace {

void check_conv_inputs(const char* fn, const Tensor& x, const Tensor& y, const std::string& mode) {
  EMBER_CHECK(mode == "full" || mode == "valid" || mode == "same", fn,
              ": mode must be \"full\", \"valid\" or \"same\", got \"", mode, "\"");
  EMBER_CHECK(x.dim() >= 1 && y.dim() >= 1 && x.dim() == y.dim(), fn,
              ": x and y must have the same number of dimensions (at least 1), got ", x.sizes(), " and ", y.sizes());
  for (int64_t d = 0; d + 1 < x.dim(); ++d)
    EMBER_CHECK(x.size(d) == y.size(d) || x.size(d) == 1 || y.size(d) == 1, fn, ": leading dimensions of x ", x.sizes(),
                " and y ", y.sizes(), " are not broadcast-compatible");
  EMBER_CHECK(x.size(-1) > 0 && y.size(-1) > 0, fn, ": empty signal");
}

Tensor apply_mode(const Tensor& full_result, int64_t x_length, int64_t y_length, const std::string& mode) {
  if (mode == "full") return full_result;
  const int64_t target = mode == "valid" ? std::max(x_length, y_length) - std::min(x_length, y_length) + 1 : x_length;
  const int64_t start = (full_result.size(-1) - target) / 2;
  return full_result.slice(-1, start, start + target);
}

}  // namespace

Tensor convolve(const Tensor& x, const Tensor& y, const std::string& mode) {
  check_conv_inputs("convolve", x, y, mode);
  const int64_t n = x.size(-1), m = y.size(-1);
  // Longer signal as the conv input, shorter as the (flipped) kernel; convolution commutes.
  Tensor a = n < m ? y : x, b = n < m ? x : y;
  auto shape = a.sizes().vec();
  auto bshape = b.sizes().vec();
  for (size_t d = 0; d + 1 < shape.size(); ++d) shape[d] = std::max(shape[d], bshape[d]);
  auto lead = shape;
  lead.pop_back();
  int64_t batch = 1;
  for (int64_t s : lead) batch *= s;
  auto a_shape = lead, b_shape = lead;
  a_shape.push_back(a.size(-1));
  b_shape.push_back(b.size(-1));
  Tensor ab = a.expand(a_shape).reshape({1, batch, a.size(-1)});
  Tensor bb = b.expand(b_shape).reshape({batch, 1, b.size(-1)}).flip({-1});
  Tensor out = conv1d(ab, bb, {}, 1, b.size(-1) - 1, 1, batch);
  auto out_shape = lead;
  out_shape.push_back(out.size(-1));
  return apply_mode(out.reshape(out_shape), n, m, mode);
}

Tensor fftconvolve(const Tensor& x, const Tensor& y, const std::string& mode) {
  check_conv_inputs("fftconvolve", x, y, mode);
  const int64_t n = x.size(-1) + y.size(-1) - 1;
  Tensor out = fft::irfft(fft::rfft(x, n) * fft::rfft(y, n), n);
  return apply_mode(out, x.size(-1), y.size(-1), mode);
}

Tensor add_noise(const Tensor& waveform, const Tensor& noise, const Tensor& snr, const std::optional<Tensor>& lengths) {
  EMBER_CHECK(waveform.dim() >= 1 && noise.dim() == waveform.dim() && snr.dim() == waveform.dim() - 1 &&
                  (!lengths || lengths->dim() == snr.dim()),
              "add_noise: input leading dimensions don't match: waveform ", waveform.sizes(), ", noise ", noise.sizes(),
              ", snr ", snr.sizes());
  EMBER_CHECK(waveform.size(-1) == noise.size(-1),
              "add_noise: length dimensions of waveform and noise don't match: ", waveform.size(-1), " and ",
              noise.size(-1));
  Tensor masked_w = waveform, masked_n = noise;
  if (lengths) {
    Tensor mask = arange(waveform.size(-1), TensorOptions(kLong)) < lengths->unsqueeze(-1);
    masked_w = waveform * mask;
    masked_n = noise * mask;
  }
  Tensor energy_signal = masked_w.pow(2).sum(-1);
  Tensor energy_noise = masked_n.pow(2).sum(-1);
  Tensor original_snr_db = 10 * (log10(energy_signal) - log10(energy_noise));
  Tensor scale = pow(10.0, (original_snr_db - snr) / 20.0);
  // As torchaudio: the masks only shape the energies; the whole noise is added.
  return waveform + scale.unsqueeze(-1) * noise;
}

std::tuple<Tensor, std::optional<Tensor>> speed(const Tensor& waveform, int64_t orig_freq, double factor,
                                                const std::optional<Tensor>& lengths) {
  EMBER_CHECK(orig_freq > 0, "speed: orig_freq must be positive, got ", orig_freq);
  EMBER_CHECK(factor > 0 && factor * static_cast<double>(orig_freq) < 9e18,
              "speed: factor must be positive and finite, got ", factor);
  const auto source = static_cast<int64_t>(factor * static_cast<double>(orig_freq));
  EMBER_CHECK(source > 0, "speed: factor ", factor, " is too small for orig_freq ", orig_freq);
  const int64_t gcd = std::gcd(source, orig_freq);
  const int64_t from = source / gcd, to = orig_freq / gcd;
  Tensor out = resample(waveform, from, to);
  std::optional<Tensor> out_lengths;
  if (lengths)
    out_lengths = ceil(*lengths * static_cast<double>(to) / static_cast<double>(from)).to(lengths->scalar_type());
  return {out, out_lengths};
}

Tensor preemphasis(const Tensor& waveform, double coeff) {
  EMBER_CHECK(waveform.dim() >= 1 && waveform.size(-1) >= 1, "preemphasis: expected a waveform [..., time]");
  const int64_t n = waveform.size(-1);
  Tensor rest = waveform.slice(-1, 1, n) - coeff * waveform.slice(-1, 0, n - 1);
  return cat({waveform.slice(-1, 0, 1), rest}, -1);
}

Tensor deemphasis(const Tensor& waveform, double coeff) {
  EMBER_CHECK(waveform.dim() >= 1, "deemphasis: expected a waveform [..., time]");
  auto opts = TensorOptions(waveform.scalar_type());
  return lfilter(waveform, tensor({1.0, -coeff}, opts), tensor({1.0, 0.0}, opts));
}

}  // namespace torch::audio::functional
