#include "ember/audio/functional/codec.h"

#include <sstream>
#include <tuple>

#include "ember/audio/functional/resample.h"
#include "ember/audio/io/load.h"
#include "ember/audio/io/save.h"
#include "ember/core/error.h"

namespace torch::audio::functional {

Tensor apply_codec(const Tensor& waveform, int64_t sample_rate, const std::string& format, bool channels_first,
                   std::optional<double> compression, const std::optional<std::string>& encoding,
                   std::optional<int64_t> bits_per_sample) {
  EMBER_CHECK(waveform.dim() == 2, "apply_codec: expected a 2-D waveform (",
              channels_first ? "[channels, time]" : "[time, channels]", "), got shape ", waveform.sizes());
  EMBER_CHECK(sample_rate > 0, "apply_codec: sample_rate must be positive, got ", sample_rate);
  EMBER_CHECK(!format.empty(), "apply_codec: format must be given");
  // The encoded file never touches the disk: save and load work on streams.
  std::stringstream bytes(std::ios::in | std::ios::out | std::ios::binary);
  save(bytes, waveform, sample_rate, channels_first, compression, format, encoding, bits_per_sample);
  bytes.seekg(0);
  auto [augmented, rate] = load(bytes, 0, -1, true, channels_first, format);
  if (rate != sample_rate) {
    // resample works along the last dimension.
    Tensor x = channels_first ? augmented : augmented.transpose(0, 1);
    x = resample(x, rate, sample_rate);
    augmented = channels_first ? x : x.transpose(0, 1).contiguous();
  }
  return augmented;
}

}  // namespace torch::audio::functional
