// Sinc resampling with torchaudio 0.13's kernel, built op for op in the
// waveform's dtype so float32 rounding matches.
#include "ember/audio/functional/resample.h"

#include <cmath>
#include <deque>
#include <mutex>
#include <numbers>
#include <numeric>
#include <utility>

#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/ops/all_ops.h"

namespace torch::audio::functional {
namespace {

bool is_hann(const std::string& m) { return m == "sinc_interpolation" || m == "sinc_interp_hann"; }
bool is_kaiser(const std::string& m) { return m == "kaiser_window" || m == "sinc_interp_kaiser"; }

// The modified Bessel function I0 of a constant tensor (the kernel carries no
// gradient), evaluated in double and returned in x's dtype.
Tensor bessel_i0(const Tensor& x) {
  Tensor d = x.to(kDouble).contiguous().clone();
  double* p = d.data_ptr<double>();
  for (int64_t i = 0, n = d.numel(); i < n; ++i) p[i] = std::cyl_bessel_i(0.0, p[i]);
  return d.to(x.scalar_type());
}

Tensor build_kernel(int64_t orig, int64_t neu, int64_t width, int64_t lowpass_filter_width, double base_freq,
                    bool kaiser, double beta, ScalarType dtype) {
  const auto lpw = static_cast<double>(lowpass_filter_width);
  Tensor idx = arange(-width, width + orig, TensorOptions(dtype)).view({1, 1, -1}) / static_cast<double>(orig);
  Tensor t = arange(0, -neu, -1, TensorOptions(dtype)).view({-1, 1, 1}) / static_cast<double>(neu) + idx;
  t = (t * base_freq).clamp(-lpw, lpw);
  Tensor window;
  if (kaiser) {
    Tensor beta_t = scalar_tensor(beta, TensorOptions(kFloat));
    window = bessel_i0(beta_t * sqrt(1 - (t / lpw).pow(2))) / bessel_i0(beta_t);
  } else {
    window = cos(t * std::numbers::pi / lpw / 2).pow(2);
  }
  t = t * std::numbers::pi;
  const double scale = base_freq / static_cast<double>(orig);
  Tensor kernels = where(t == 0, ones({}, TensorOptions(t.scalar_type())), t.sin() / t);
  return kernels * (window * scale);
}

// Note [Resample kernel cache]
// Building a kernel costs as much as resampling a few seconds of audio, and
// programs resample many clips between the same rates. A bounded cache keyed by
// every input of the kernel keeps the last kMaxEntries kernels. It is the one
// piece of shared state of this file: a mutex guards it, and the cached tensors
// are never written after insertion (they leave as shared, read-only values and
// carry no autograd history), so concurrent callers stay race-free.
struct KernelKey {
  int64_t orig, neu, lowpass_filter_width;
  double rolloff, beta;
  bool kaiser;
  ScalarType dtype;
  bool operator==(const KernelKey&) const = default;
};

class KernelCache {
 public:
  static constexpr size_t kMaxEntries = 16;
  std::optional<std::pair<Tensor, int64_t>> find(const KernelKey& key) {
    std::lock_guard<std::mutex> lock(mu_);
    for (const auto& [k, v] : entries_)
      if (k == key) return v;
    return std::nullopt;
  }
  void insert(const KernelKey& key, std::pair<Tensor, int64_t> value) {
    std::lock_guard<std::mutex> lock(mu_);
    for (const auto& e : entries_)
      if (e.first == key) return;
    if (entries_.size() == kMaxEntries) entries_.pop_front();
    entries_.emplace_back(key, std::move(value));
  }

 private:
  std::mutex mu_;
  std::deque<std::pair<KernelKey, std::pair<Tensor, int64_t>>> entries_;
};

KernelCache& kernel_cache() {
  static KernelCache cache;
  return cache;
}

}  // namespace

namespace detail {

std::tuple<Tensor, int64_t> get_sinc_resample_kernel(int64_t orig_freq, int64_t new_freq, int64_t gcd,
                                                     int64_t lowpass_filter_width, double rolloff,
                                                     const std::string& resampling_method, std::optional<double> beta,
                                                     std::optional<ScalarType> dtype) {
  EMBER_CHECK(is_hann(resampling_method) || is_kaiser(resampling_method), "resample: invalid resampling method \"",
              resampling_method, "\"");
  EMBER_CHECK(lowpass_filter_width > 0, "resample: low pass filter width should be positive, got ",
              lowpass_filter_width);
  EMBER_CHECK(rolloff > 0 && std::isfinite(rolloff), "resample: rolloff must be positive, got ", rolloff);
  EMBER_CHECK(gcd > 0 && orig_freq % gcd == 0 && new_freq % gcd == 0, "resample: gcd ", gcd, " does not divide ",
              orig_freq, " and ", new_freq);
  const int64_t orig = orig_freq / gcd, neu = new_freq / gcd;
  const bool kaiser = is_kaiser(resampling_method);
  const double beta_v = kaiser ? beta.value_or(14.769656459379492) : 0.0;
  const ScalarType dt = dtype.value_or(kDouble);
  EMBER_CHECK(dt == kFloat || dt == kDouble, "resample: expected a float32 or float64 waveform, got ", dt);
  const KernelKey key{orig, neu, lowpass_filter_width, rolloff, beta_v, kaiser, dtype ? dt : kFloat};
  if (auto hit = kernel_cache().find(key)) return {hit->first, hit->second};
  const double base_freq = static_cast<double>(std::min(orig, neu)) * rolloff;
  const double width_d = std::ceil(static_cast<double>(lowpass_filter_width) * static_cast<double>(orig) / base_freq);
  EMBER_CHECK(width_d < 1e8, "resample: the kernel for ", orig_freq, " -> ", new_freq, " Hz would be too wide");
  const auto width = static_cast<int64_t>(width_d);
  EMBER_CHECK(static_cast<double>(neu) * (2.0 * width_d + static_cast<double>(orig)) < 4e8, "resample: the kernel for ",
              orig_freq, " -> ", new_freq, " Hz would be too large (reduce the rates by their common factor)");
  Tensor kernel;
  {
    NoGradGuard no_grad;
    kernel = build_kernel(orig, neu, width, lowpass_filter_width, base_freq, kaiser, beta_v, dt);
    if (!dtype) kernel = kernel.to(kFloat);
    kernel = kernel.contiguous();
  }
  kernel_cache().insert(key, {kernel, width});
  return {kernel, width};
}

Tensor apply_sinc_resample_kernel(const Tensor& waveform, int64_t orig_freq, int64_t new_freq, int64_t gcd,
                                  const Tensor& kernel, int64_t width) {
  EMBER_CHECK(waveform.is_floating_point(), "resample: expected a floating-point waveform, got ",
              waveform.scalar_type());
  EMBER_CHECK(waveform.dim() >= 1, "resample: expected a waveform of shape [..., time], got a 0-d tensor");
  const int64_t orig = orig_freq / gcd, neu = new_freq / gcd;
  auto shape = waveform.sizes().vec();
  Tensor x = waveform.reshape({-1, shape.back()});
  const int64_t num_wavs = x.size(0), length = x.size(1);
  x = constant_pad_nd(x, {width, width + orig});
  Tensor out = conv1d(x.unsqueeze(1), kernel.to(x.scalar_type()), {}, orig);
  out = out.transpose(1, 2).reshape({num_wavs, -1});
  const auto target = static_cast<int64_t>(
      std::ceil(static_cast<double>(neu) * static_cast<double>(length) / static_cast<double>(orig)));
  out = out.slice(-1, 0, std::min(target, out.size(-1)));
  shape.back() = out.size(-1);
  return out.reshape(shape);
}

}  // namespace detail

Tensor resample(const Tensor& waveform, int64_t orig_freq, int64_t new_freq, int64_t lowpass_filter_width,
                double rolloff, const std::string& resampling_method, std::optional<double> beta) {
  EMBER_CHECK(orig_freq > 0 && new_freq > 0, "resample: original and new frequencies must be positive, got ", orig_freq,
              " and ", new_freq);
  EMBER_CHECK(waveform.is_floating_point(), "resample: expected a floating-point waveform, got ",
              waveform.scalar_type());
  if (orig_freq == new_freq) return waveform;
  const int64_t gcd = std::gcd(orig_freq, new_freq);
  auto [kernel, width] = detail::get_sinc_resample_kernel(orig_freq, new_freq, gcd, lowpass_filter_width, rolloff,
                                                          resampling_method, beta, waveform.scalar_type());
  return detail::apply_sinc_resample_kernel(waveform, orig_freq, new_freq, gcd, kernel, width);
}

}  // namespace torch::audio::functional
