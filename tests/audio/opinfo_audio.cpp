// OpInfo entries for ember::audio: the binary's generic walks run gradcheck and
// gradgradcheck in float64 on each. The spectral ops compose Ember's
// differentiable ops; lfilter's recursion is a custom function whose backward
// is itself made of lfilter calls (Note [IIR gradient]), so it has no
// forward-mode rule.
#include "autograd/opinfo.h"
#include "ember/audio/functional.h"
#include "ember/audio/transforms.h"

namespace torch::testing {
namespace {

namespace AF = ::torch::audio::functional;
namespace AT = ::torch::audio::transforms;
using Shapes = std::vector<std::vector<int64_t>>;

OpInfo op(const char* name, std::function<Tensor(const variable_list&)> f, Shapes shapes, double lo = -1,
          double hi = 1) {
  return single_output_op(name, std::move(f), std::move(shapes), lo, hi, 3701);
}

OpInfo no_forward_ad(OpInfo info) {
  info.forward_ad = false;
  return info;
}

Tensor hann8() { return hann_window(8, TensorOptions(kDouble)); }

// A stable second-order filter near a = [1, 0, 0] whatever the sample values.
Tensor stable_a(const Tensor& raw) { return raw * 0.2 + tensor({1.0, 0.0, 0.0}, TensorOptions(kDouble)); }

// Modules are built once: their filter banks are constants of the walks.
AT::MelScale& mel_scale() {
  static AT::MelScale m(AT::MelScaleOptions().n_mels(4).n_stft(9));
  return m;
}
AT::MelSpectrogram& mel_spectrogram() {
  static AT::MelSpectrogram m(AT::MelSpectrogramOptions().sample_rate(8000).n_fft(16).hop_length(6).n_mels(5));
  return m;
}
AT::MFCC& mfcc() {
  static AT::MFCC m(AT::MFCCOptions().sample_rate(8000).n_mfcc(3).melkwargs(
      AT::MelSpectrogramOptions().n_fft(16).hop_length(6).n_mels(5)));
  return m;
}
AT::LFCC& lfcc() {
  static AT::LFCC m(AT::LFCCOptions().sample_rate(8000).n_filter(5).n_lfcc(3).speckwargs(
      AT::SpectrogramOptions().n_fft(16).hop_length(6)));
  return m;
}

RegisterOps reg({
    op("audio::functional::spectrogram(power=2)",
       [](const variable_list& x) { return AF::spectrogram(x[0], 0, hann8(), 8, 4, 8, 2.0, false); }, {{1, 12}}),
    op("audio::functional::spectrogram(complex, normalized, pad)",
       [](const variable_list& x) { return AF::spectrogram(x[0], 2, hann8(), 8, 4, 8, std::nullopt, true); }, {{1, 5}}),
    op("audio::functional::spectrogram(power=1, center=false)",
       [](const variable_list& x) { return AF::spectrogram(x[0], 0, hann8(), 8, 3, 8, 1.0, false, false); }, {{1, 14}}),
    op("audio::functional::inverse_spectrogram",
       [](const variable_list& x) {
         return AF::inverse_spectrogram(complex(x[0], x[1]), 12, 0, hann8(), 8, 4, 8, false);
       },
       {{5, 4}, {5, 4}}),
    op(
        "audio::functional::amplitude_to_DB",
        [](const variable_list& x) { return AF::amplitude_to_DB(x[0], 10.0, 1e-10, 0.0); }, {{2, 3, 4}}, 0.5, 2),
    op(
        "audio::functional::amplitude_to_DB(top_db)",
        [](const variable_list& x) { return AF::amplitude_to_DB(x[0], 20.0, 1e-5, 0.0, 3.0); }, {{2, 2, 2, 3}}, 0.5, 2),
    op("audio::functional::DB_to_amplitude", [](const variable_list& x) { return AF::DB_to_amplitude(x[0], 1.5, 0.5); },
       {{2, 4}}),
    op("audio::functional::compute_deltas", [](const variable_list& x) { return AF::compute_deltas(x[0]); },
       {{2, 2, 6}}),
    op("audio::functional::spectral_centroid",
       [](const variable_list& x) { return AF::spectral_centroid(x[0], 8000, 0, hann8(), 8, 4, 8); }, {{1, 12}}),
    op("audio::functional::phase_vocoder",
       [](const variable_list& x) {
         Tensor adv = linspace(0, M_PI * 2, 4, TensorOptions(kDouble)).unsqueeze(-1);
         return AF::phase_vocoder(complex(x[0], x[1]), 1.3, adv);
       },
       {{4, 5}, {4, 5}}),
    op(
        "audio::functional::mu_law_decoding", [](const variable_list& x) { return AF::mu_law_decoding(x[0], 256); },
        {{6}}, 5, 250),
    op("audio::functional::resample(3->2)", [](const variable_list& x) { return AF::resample(x[0], 3, 2, 3); },
       {{1, 12}}),
    op("audio::functional::resample(kaiser, 2->3)",
       [](const variable_list& x) { return AF::resample(x[0], 2, 3, 3, 0.9, "kaiser_window"); }, {{1, 8}}),
    op("audio::functional::sliding_window_cmn(norm_vars)",
       [](const variable_list& x) { return AF::sliding_window_cmn(x[0], 4, 2, false, true); }, {{7, 2}}),
    op("audio::functional::contrast", [](const variable_list& x) { return AF::contrast(x[0], 50.0); }, {{2, 5}}),
    op("audio::functional::gain", [](const variable_list& x) { return AF::gain(x[0], 2.0); }, {{2, 5}}),
    no_forward_ad(op("audio::functional::lfilter",
                     [](const variable_list& x) { return AF::lfilter(x[0], stable_a(x[1]), x[2], false); },
                     {{1, 8}, {3}, {3}})),
    no_forward_ad(op("audio::functional::lfilter(batched coefficients)",
                     [](const variable_list& x) {
                       Tensor a = x[1] * 0.2 + tensor({1.0, 0.0}, TensorOptions(kDouble)).expand({2, 2});
                       return AF::lfilter(x[0], a, x[2], false, true);
                     },
                     {{1, 2, 4}, {2, 2}, {2, 2}})),
    no_forward_ad(op("audio::functional::filtfilt",
                     [](const variable_list& x) { return AF::filtfilt(x[0], stable_a(x[1]), x[2], false); },
                     {{1, 6}, {3}, {3}})),
    no_forward_ad(op("audio::functional::lowpass_biquad",
                     [](const variable_list& x) { return AF::lowpass_biquad(x[0] * 0.3, 8000, 1000.0); }, {{1, 8}})),
    no_forward_ad(op("audio::functional::overdrive",
                     [](const variable_list& x) { return AF::overdrive(x[0] * 0.01, 10, 20); }, {{1, 8}})),
    op("audio::functional::convolve(same)", [](const variable_list& x) { return AF::convolve(x[0], x[1], "same"); },
       {{2, 7}, {1, 3}}),
    op("audio::functional::fftconvolve", [](const variable_list& x) { return AF::fftconvolve(x[0], x[1]); },
       {{2, 6}, {2, 4}}),
    op("audio::functional::add_noise",
       [](const variable_list& x) {
         return AF::add_noise(x[0], x[1], x[2], tensor({5, 4}));
       },
       {{2, 5}, {2, 5}, {2}}),
    op("audio::functional::preemphasis", [](const variable_list& x) { return AF::preemphasis(x[0], 0.9); }, {{2, 6}}),
    no_forward_ad(op("audio::functional::deemphasis",
                     [](const variable_list& x) { return AF::deemphasis(x[0] * 0.1, 0.8); }, {{1, 6}})),
    op("audio::transforms::MelScale", [](const variable_list& x) { return mel_scale()(x[0]); }, {{1, 9, 3}}),
    op("audio::transforms::MelSpectrogram", [](const variable_list& x) { return mel_spectrogram()(x[0]); }, {{1, 16}}),
    op("audio::transforms::MFCC", [](const variable_list& x) { return mfcc()(x[0]); }, {{1, 16}}),
    op("audio::transforms::LFCC", [](const variable_list& x) { return lfcc()(x[0]); }, {{1, 16}}),
    op("audio::transforms::Fade",
       [](const variable_list& x) {
         return AT::Fade(AT::FadeOptions().fade_in_len(3).fade_out_len(4).fade_shape("half_sine"))(x[0]);
       },
       {{1, 9}}),
    op("audio::transforms::Vol(db)", [](const variable_list& x) { return AT::Vol(-3.0, "db")(x[0]); }, {{1, 6}}),
});

}  // namespace
}  // namespace torch::testing
