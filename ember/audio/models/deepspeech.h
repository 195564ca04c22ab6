#pragma once
// torchaudio.models.DeepSpeech (Hannun et al.): three clipped-ReLU fully
// connected layers, a bidirectional ReLU RNN whose directions are summed, one
// more clipped layer and a log-softmax classifier.
#include <cstdint>

#include "ember/core/arg.h"
#include "ember/core/tensor.h"
#include "ember/nn/module.h"
#include "ember/nn/modules/linear.h"
#include "ember/nn/modules/rnn.h"
#include "ember/nn/pimpl.h"

namespace torch::audio::models {
namespace deepspeech {

// Linear, ReLU clipped at relu_max_clip, dropout.
class FullyConnectedImpl : public nn::Module {
 public:
  FullyConnectedImpl(int64_t n_feature, int64_t n_hidden, double dropout, int64_t relu_max_clip = 20);
  Tensor forward(const Tensor& x);
  int64_t relu_max_clip;
  double dropout;
  nn::Linear fc{nullptr};
};
TORCH_MODULE(FullyConnected);

}  // namespace deepspeech

struct DeepSpeechOptions {
  DeepSpeechOptions(int64_t n_feature) : n_feature_(n_feature) {}  // NOLINT(google-explicit-constructor)
  TORCH_ARG(int64_t, n_feature);
  TORCH_ARG(int64_t, n_hidden) = 2048;
  TORCH_ARG(int64_t, n_class) = 40;
  TORCH_ARG(double, dropout) = 0.0;
};

class DeepSpeechImpl : public nn::Module {
 public:
  explicit DeepSpeechImpl(const DeepSpeechOptions& options_);
  // x [batch, channel=1, time, n_feature] -> log-probabilities [batch, time, n_class]
  Tensor forward(const Tensor& x);
  DeepSpeechOptions options;
  deepspeech::FullyConnected fc1{nullptr}, fc2{nullptr}, fc3{nullptr};
  nn::RNN bi_rnn{nullptr};
  deepspeech::FullyConnected fc4{nullptr};
  nn::Linear out{nullptr};
};
TORCH_MODULE(DeepSpeech);

}  // namespace torch::audio::models
