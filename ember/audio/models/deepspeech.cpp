#include "ember/audio/models/deepspeech.h"

#include "ember/core/error.h"
#include "ember/ops/all_ops.h"

namespace torch::audio::models {
namespace deepspeech {

FullyConnectedImpl::FullyConnectedImpl(int64_t n_feature, int64_t n_hidden, double dropout_, int64_t relu_max_clip_)
    : relu_max_clip(relu_max_clip_), dropout(dropout_) {
  fc = register_module("fc", nn::Linear(n_feature, n_hidden));
}

Tensor FullyConnectedImpl::forward(const Tensor& x) {
  Tensor y = hardtanh(relu(fc->forward(x)), 0, relu_max_clip);
  if (dropout != 0.0) y = ::torch::dropout(y, dropout, is_training());
  return y;
}

}  // namespace deepspeech

DeepSpeechImpl::DeepSpeechImpl(const DeepSpeechOptions& options_) : options(options_) {
  const auto& o = options;
  EMBER_CHECK(o.n_feature() > 0 && o.n_hidden() > 0 && o.n_class() > 0,
              "DeepSpeech: n_feature, n_hidden and n_class must be positive");
  fc1 = register_module("fc1", deepspeech::FullyConnected(o.n_feature(), o.n_hidden(), o.dropout()));
  fc2 = register_module("fc2", deepspeech::FullyConnected(o.n_hidden(), o.n_hidden(), o.dropout()));
  fc3 = register_module("fc3", deepspeech::FullyConnected(o.n_hidden(), o.n_hidden(), o.dropout()));
  bi_rnn = register_module(
      "bi_rnn", nn::RNN(nn::RNNOptions(o.n_hidden(), o.n_hidden()).nonlinearity(ember::kReLU).bidirectional(true)));
  fc4 = register_module("fc4", deepspeech::FullyConnected(o.n_hidden(), o.n_hidden(), o.dropout()));
  out = register_module("out", nn::Linear(o.n_hidden(), o.n_class()));
}

Tensor DeepSpeechImpl::forward(const Tensor& input) {
  EMBER_CHECK(input.dim() == 4 && input.size(1) == 1 && input.size(3) == options.n_feature(),
              "DeepSpeech: expected an input of shape [batch, 1, time, n_feature=", options.n_feature(), "], got ",
              input.sizes());
  EMBER_CHECK(input.is_floating_point(), "DeepSpeech: expected a floating-point input, got ", input.scalar_type());
  Tensor x = fc3->forward(fc2->forward(fc1->forward(input))).squeeze(1).transpose(0, 1);
  x = std::get<0>(bi_rnn->forward(x));
  const int64_t h = options.n_hidden();
  x = x.narrow(2, 0, h) + x.narrow(2, h, h);
  x = out->forward(fc4->forward(x)).permute({1, 0, 2});
  return log_softmax(x, 2);
}

}  // namespace torch::audio::models
