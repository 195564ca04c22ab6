#include "ember/audio/functional/loudness.h"

#include <cmath>

#include "ember/audio/functional/filtering.h"
#include "ember/core/error.h"
#include "ember/ops/all_ops.h"

namespace torch::audio::functional {

Tensor loudness(const Tensor& waveform, int64_t sample_rate) {
  EMBER_CHECK(waveform.dim() >= 2, "loudness: expected [..., channels, time], got ", waveform.sizes());
  EMBER_CHECK(waveform.size(-2) <= 5, "loudness: only up to 5 channels are supported, got ", waveform.size(-2));
  EMBER_CHECK(sample_rate > 0, "loudness: sample_rate must be positive, got ", sample_rate);
  const double kweight_bias = -0.691, gamma_abs = -70.0;
  // Python's round() rounds half to even, as nearbyint does by default.
  const auto gate_samples = static_cast<int64_t>(std::nearbyint(0.4 * static_cast<double>(sample_rate)));
  const auto step = static_cast<int64_t>(std::nearbyint(static_cast<double>(gate_samples) * 0.25));
  EMBER_CHECK(gate_samples >= 1 && step >= 1 && waveform.size(-1) >= gate_samples, "loudness: the waveform (",
              waveform.size(-1), " samples) is shorter than one 400 ms gate (", gate_samples, " samples)");
  Tensor x = treble_biquad(waveform, sample_rate, 4.0, 1500.0, 1 / std::sqrt(2.0));
  x = highpass_biquad(x, sample_rate, 38.0, 0.5);
  Tensor energy = x.square().unfold(-1, gate_samples, step).mean({-1});
  Tensor g = tensor({1.0, 1.0, 1.0, 1.41, 1.41}, TensorOptions(x.scalar_type())).slice(0, 0, energy.size(-2));
  Tensor block_loudness = kweight_bias + 10 * log10((g.unsqueeze(-1) * energy).sum(-2));
  Tensor gated = (block_loudness > gamma_abs).unsqueeze(-2);
  auto gated_energy = [&](const Tensor& gate) {
    Tensor filtered = (gate * energy).sum(-1) / count_nonzero(gate, std::optional<int64_t>(-1));
    return (g * filtered).sum(-1);
  };
  Tensor gamma_rel = kweight_bias + 10 * log10(gated_energy(gated)) - 10;
  gated = logical_and(gated.squeeze(-2), block_loudness > gamma_rel.unsqueeze(-1)).unsqueeze(-2);
  return kweight_bias + 10 * log10(gated_energy(gated));
}

}  // namespace torch::audio::functional
