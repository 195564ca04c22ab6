#include "ember/audio/models/wav2letter.h"

#include "ember/core/error.h"
#include "ember/nn/modules/activation.h"
#include "ember/nn/modules/conv.h"
#include "ember/ops/all_ops.h"

namespace torch::audio::models {
namespace {

void push_conv_relu(nn::Sequential& seq, int64_t in, int64_t out, int64_t kernel, int64_t stride, int64_t padding) {
  seq->push_back(nn::Conv1d(nn::Conv1dOptions(in, out, kernel).stride(stride).padding(padding)));
  seq->push_back(nn::ReLU());
}

}  // namespace

Wav2LetterImpl::Wav2LetterImpl(const Wav2LetterOptions& options_) : options(options_) {
  const std::string& type = options.input_type();
  EMBER_CHECK(type == "waveform" || type == "power_spectrum" || type == "mfcc",
              "Wav2Letter: input_type must be \"waveform\", \"power_spectrum\" or \"mfcc\", got \"", type, "\"");
  EMBER_CHECK(options.num_classes() > 0, "Wav2Letter: num_classes must be positive, got ", options.num_classes());
  EMBER_CHECK(options.num_features() > 0, "Wav2Letter: num_features must be positive, got ", options.num_features());
  const bool waveform = type == "waveform";
  nn::Sequential acoustic;
  push_conv_relu(acoustic, waveform ? 250 : options.num_features(), 250, 48, 2, 23);
  for (int i = 0; i < 7; ++i) push_conv_relu(acoustic, 250, 250, 7, 1, 3);
  push_conv_relu(acoustic, 250, 2000, 32, 1, 16);
  push_conv_relu(acoustic, 2000, 2000, 1, 1, 0);
  push_conv_relu(acoustic, 2000, options.num_classes(), 1, 1, 0);
  if (waveform) {
    nn::Sequential front;
    push_conv_relu(front, options.num_features(), 250, 250, 160, 45);
    acoustic_model = register_module("acoustic_model", nn::Sequential(front, acoustic));
  } else {
    acoustic_model = register_module("acoustic_model", acoustic);
  }
}

Tensor Wav2LetterImpl::forward(const Tensor& x) {
  EMBER_CHECK(x.dim() == 3 && x.size(1) == options.num_features(),
              "Wav2Letter: expected an input of shape [batch, num_features=", options.num_features(), ", time], got ",
              x.sizes());
  EMBER_CHECK(x.is_floating_point(), "Wav2Letter: expected a floating-point input, got ", x.scalar_type());
  // The first strided convolutions need at least this many input frames.
  const int64_t min_frames = options.input_type() == "waveform" ? 320 : 2;
  EMBER_CHECK(x.size(2) >= min_frames, "Wav2Letter: the input has ", x.size(2), " frames, fewer than the ", min_frames,
              " the network needs");
  return log_softmax(acoustic_model->forward(x), 1);
}

}  // namespace torch::audio::models
