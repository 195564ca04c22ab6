#pragma once
// torchaudio.models.Wav2Letter: a stack of Conv1d + ReLU layers with
// torchaudio's module tree ("acoustic_model.0.0.weight" for waveform input,
// "acoustic_model.0.weight" for spectral input), so its state_dict loads as is.
#include <cstdint>
#include <string>

#include "ember/core/arg.h"
#include "ember/core/tensor.h"
#include "ember/nn/module.h"
#include "ember/nn/modules/container/sequential.h"
#include "ember/nn/pimpl.h"

namespace torch::audio::models {

struct Wav2LetterOptions {
  TORCH_ARG(int64_t, num_classes) = 40;
  // "waveform", "power_spectrum" or "mfcc".
  TORCH_ARG(std::string, input_type) = "waveform";
  TORCH_ARG(int64_t, num_features) = 1;
};

class Wav2LetterImpl : public nn::Module {
 public:
  explicit Wav2LetterImpl(const Wav2LetterOptions& options_ = {});
  Wav2LetterImpl(int64_t num_classes, std::string input_type = "waveform", int64_t num_features = 1)
      : Wav2LetterImpl(
            Wav2LetterOptions().num_classes(num_classes).input_type(std::move(input_type)).num_features(num_features)) {
  }
  // x [batch, num_features, time] -> log-probabilities [batch, num_classes, frames].
  Tensor forward(const Tensor& x);

  Wav2LetterOptions options;
  nn::Sequential acoustic_model{nullptr};
};
TORCH_MODULE(Wav2Letter);

}  // namespace torch::audio::models
