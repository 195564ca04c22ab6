#include "ember/audio/transforms/mel.h"

#include <limits>

#include "ember/audio/functional/spectral.h"
#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/ops/all_ops.h"

namespace torch::audio::transforms {
namespace {

double resolve_f_max(const char* name, int64_t sample_rate, double f_min, std::optional<double> f_max) {
  EMBER_CHECK(sample_rate > 0, name, ": sample_rate must be positive, got ", sample_rate);
  const double fmax = f_max.value_or(static_cast<double>(sample_rate / 2));
  EMBER_CHECK(f_min <= fmax, name, ": require f_min: ", f_min, " <= f_max: ", fmax);
  return fmax;
}

// x [..., freq, time] times m [freq, k] -> [..., k, time].
Tensor apply_matrix(const Tensor& x, const Tensor& m) { return matmul(x.transpose(-1, -2), m).transpose(-1, -2); }

void check_freq_dim(const char* name, const Tensor& x, int64_t expected) {
  EMBER_CHECK(x.dim() >= 2 && x.size(-2) == expected, name, ": expected an input of shape [..., ", expected,
              ", time], got ", x.sizes());
}

}  // namespace

MelScaleImpl::MelScaleImpl(const MelScaleOptions& options_) : options(options_) { reset(); }

void MelScaleImpl::reset() {
  const double f_max = resolve_f_max("MelScale", options.sample_rate(), options.f_min(), options.f_max());
  fb = register_buffer("fb", functional::melscale_fbanks(options.n_stft(), options.f_min(), f_max, options.n_mels(),
                                                         options.sample_rate(), options.norm(), options.mel_scale()));
}

Tensor MelScaleImpl::forward(const Tensor& specgram) {
  check_freq_dim("MelScale", specgram, fb.size(0));
  return apply_matrix(specgram, fb.to(specgram.scalar_type()));
}

InverseMelScaleImpl::InverseMelScaleImpl(const InverseMelScaleOptions& options_) : options(options_) { reset(); }

void InverseMelScaleImpl::reset() {
  // torchaudio writes `f_max or sample_rate // 2`, so an f_max of 0 also means the default.
  std::optional<double> f_max = options.f_max();
  if (f_max && *f_max == 0.0) f_max.reset();
  const double fmax = resolve_f_max("InverseMelScale", options.sample_rate(), options.f_min(), f_max);
  EMBER_CHECK(options.max_iter() >= 0, "InverseMelScale: max_iter must be non-negative, got ", options.max_iter());
  fb = register_buffer("fb", functional::melscale_fbanks(options.n_stft(), options.f_min(), fmax, options.n_mels(),
                                                         options.sample_rate(), options.norm(), options.mel_scale()));
}

Tensor InverseMelScaleImpl::forward(const Tensor& melspec) {
  EMBER_CHECK(melspec.dim() >= 2, "InverseMelScale: expected [..., n_mels, time], got ", melspec.sizes());
  EMBER_CHECK(melspec.size(-2) == options.n_mels(), "InverseMelScale: expected an input with ", options.n_mels(),
              " mel bins, found ", melspec.size(-2));
  EMBER_CHECK(melspec.is_floating_point(), "InverseMelScale: expected a floating-point input, got ",
              melspec.scalar_type());
  auto shape = melspec.sizes().vec();
  const int64_t time = shape.back(), freq = fb.size(0);
  Tensor target = melspec.detach().reshape({-1, options.n_mels(), time}).transpose(-1, -2);
  Tensor basis = fb.to(melspec.scalar_type());
  Tensor specgram = rand({target.size(0), time, freq}, TensorOptions(melspec.scalar_type())).requires_grad_(true);
  optim::SGDOptions sgd = options.sgdargs().value_or(optim::SGDOptions(0.1).momentum(0.9));
  optim::SGD optimizer({specgram}, sgd);
  double loss = std::numeric_limits<double>::infinity();
  {
    EnableGradGuard grad;
    for (int64_t i = 0; i < options.max_iter(); ++i) {
      optimizer.zero_grad();
      Tensor diff = target - specgram.matmul(basis);
      Tensor new_loss_t = diff.pow(2).sum(-1).mean();
      new_loss_t.backward();
      optimizer.step();
      {
        NoGradGuard no_grad;
        specgram.clamp_min_(0);
      }
      const double new_loss = new_loss_t.item<double>();
      if (new_loss < options.tolerance_loss() || std::abs(loss - new_loss) < options.tolerance_change()) break;
      loss = new_loss;
    }
  }
  Tensor out = specgram.detach().clamp_min(0).transpose(-1, -2);
  shape[shape.size() - 2] = freq;
  return out.reshape(shape);
}

MelSpectrogramImpl::MelSpectrogramImpl(const MelSpectrogramOptions& options_) : options(options_) { reset(); }

void MelSpectrogramImpl::reset() {
  spectrogram = register_module("spectrogram", Spectrogram(SpectrogramOptions()
                                                               .n_fft(options.n_fft())
                                                               .win_length(options.win_length())
                                                               .hop_length(options.hop_length())
                                                               .pad(options.pad())
                                                               .window_fn(options.window_fn())
                                                               .power(options.power())
                                                               .normalized(options.normalized())
                                                               .center(options.center())
                                                               .pad_mode(options.pad_mode())
                                                               .onesided(options.onesided())));
  mel_scale = register_module("mel_scale", MelScale(MelScaleOptions()
                                                        .n_mels(options.n_mels())
                                                        .sample_rate(options.sample_rate())
                                                        .f_min(options.f_min())
                                                        .f_max(options.f_max())
                                                        .n_stft(options.n_fft() / 2 + 1)
                                                        .norm(options.norm())
                                                        .mel_scale(options.mel_scale())));
}

Tensor MelSpectrogramImpl::forward(const Tensor& waveform) {
  detail::check_stft_input("MelSpectrogram", waveform, options.n_fft(), options.pad(), options.center(),
                           options.pad_mode());
  return mel_scale(spectrogram(waveform));
}

MFCCImpl::MFCCImpl(const MFCCOptions& options_) : options(options_) { reset(); }

void MFCCImpl::reset() {
  EMBER_CHECK(options.dct_type() == 2, "MFCC: DCT type not supported: ", options.dct_type());
  amplitude_to_DB = register_module("amplitude_to_DB", AmplitudeToDB("power", 80.0));
  MelSpectrogramOptions mel = options.melkwargs();
  mel.sample_rate(options.sample_rate());
  MelSpectrogram = register_module("MelSpectrogram", transforms::MelSpectrogram(mel));
  EMBER_CHECK(options.n_mfcc() <= mel.n_mels(), "MFCC: cannot select more MFCC coefficients (", options.n_mfcc(),
              ") than mel bins (", mel.n_mels(), ")");
  dct_mat = register_buffer("dct_mat", functional::create_dct(options.n_mfcc(), mel.n_mels(), options.norm()));
}

Tensor MFCCImpl::forward(const Tensor& waveform) {
  const MelSpectrogramOptions& mel_options = MelSpectrogram->options;
  detail::check_stft_input("MFCC", waveform, mel_options.n_fft(), mel_options.pad(), mel_options.center(),
                           mel_options.pad_mode());
  Tensor mel = MelSpectrogram(waveform);
  mel = options.log_mels() ? log(mel + 1e-6) : amplitude_to_DB(mel);
  return apply_matrix(mel, dct_mat.to(mel.scalar_type()));
}

LFCCImpl::LFCCImpl(const LFCCOptions& options_) : options(options_) { reset(); }

void LFCCImpl::reset() {
  EMBER_CHECK(options.dct_type() == 2, "LFCC: DCT type not supported: ", options.dct_type());
  const double f_max = resolve_f_max("LFCC", options.sample_rate(), options.f_min(), options.f_max());
  amplitude_to_DB = register_module("amplitude_to_DB", AmplitudeToDB("power", 80.0));
  Spectrogram = register_module("Spectrogram", transforms::Spectrogram(options.speckwargs()));
  const int64_t n_fft = options.speckwargs().n_fft();
  EMBER_CHECK(options.n_lfcc() <= n_fft, "LFCC: cannot select more LFCC coefficients (", options.n_lfcc(),
              ") than fft bins (", n_fft, ")");
  filter_mat = register_buffer("filter_mat", functional::linear_fbanks(n_fft / 2 + 1, options.f_min(), f_max,
                                                                       options.n_filter(), options.sample_rate()));
  dct_mat = register_buffer("dct_mat", functional::create_dct(options.n_lfcc(), options.n_filter(), options.norm()));
}

Tensor LFCCImpl::forward(const Tensor& waveform) {
  const SpectrogramOptions& spec_options = Spectrogram->options;
  detail::check_stft_input("LFCC", waveform, spec_options.n_fft(), spec_options.pad(), spec_options.center(),
                           spec_options.pad_mode());
  Tensor spec = apply_matrix(Spectrogram(waveform), filter_mat.to(waveform.scalar_type()));
  spec = options.log_lf() ? log(spec + 1e-6) : amplitude_to_DB(spec);
  return apply_matrix(spec, dct_mat.to(spec.scalar_type()));
}

}  // namespace torch::audio::transforms
