#pragma once
// torchaudio.functional.mask_along_axis / mask_along_axis_iid (SpecAugment):
// one random band of up to mask_param bins along the frequency or time axis
// set to mask_value. Random draws come from Ember's default generator.
#include <cstdint>

#include "ember/core/tensor.h"

namespace torch::audio::functional {

// specgram [..., freq, time]; axis 1 (freq) or 2 (time) of the packed
// [batch, freq, time] view; one band shared by the whole batch.
Tensor mask_along_axis(const Tensor& specgram, int64_t mask_param, double mask_value, int64_t axis, double p = 1.0);
// specgrams [batch, channel, freq, time]; axis 2 or 3; a band per (batch, channel).
Tensor mask_along_axis_iid(const Tensor& specgrams, int64_t mask_param, double mask_value, int64_t axis,
                           double p = 1.0);

}  // namespace torch::audio::functional
