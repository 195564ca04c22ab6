#include "ember/audio/models/wavernn.h"

#include <cmath>
#include <tuple>

#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/nn/modules/activation.h"
#include "ember/nn/modules/batchnorm.h"
#include "ember/nn/modules/conv.h"
#include "ember/ops/all_ops.h"

namespace torch::audio::models {

ResBlockImpl::ResBlockImpl(int64_t n_freq) {
  resblock_model = register_module(
      "resblock_model",
      nn::Sequential(nn::Conv1d(nn::Conv1dOptions(n_freq, n_freq, 1).bias(false)), nn::BatchNorm1d(n_freq), nn::ReLU(),
                     nn::Conv1d(nn::Conv1dOptions(n_freq, n_freq, 1).bias(false)), nn::BatchNorm1d(n_freq)));
}

Tensor ResBlockImpl::forward(const Tensor& specgram) { return resblock_model->forward(specgram) + specgram; }

MelResNetImpl::MelResNetImpl(int64_t n_res_block, int64_t n_freq, int64_t n_hidden, int64_t n_output,
                             int64_t kernel_size) {
  nn::Sequential seq(nn::Conv1d(nn::Conv1dOptions(n_freq, n_hidden, kernel_size).bias(false)),
                     nn::BatchNorm1d(n_hidden), nn::ReLU());
  for (int64_t i = 0; i < n_res_block; ++i) seq->push_back(ResBlock(n_hidden));
  seq->push_back(nn::Conv1d(nn::Conv1dOptions(n_hidden, n_output, 1)));
  melresnet_model = register_module("melresnet_model", seq);
}

Tensor MelResNetImpl::forward(const Tensor& specgram) { return melresnet_model->forward(specgram); }

Stretch2dImpl::Stretch2dImpl(int64_t time_scale_, int64_t freq_scale_)
    : time_scale(time_scale_), freq_scale(freq_scale_) {}

Tensor Stretch2dImpl::forward(const Tensor& specgram) {
  return specgram.repeat_interleave(freq_scale, -2).repeat_interleave(time_scale, -1);
}

UpsampleNetworkImpl::UpsampleNetworkImpl(std::vector<int64_t> upsample_scales, int64_t n_res_block, int64_t n_freq,
                                         int64_t n_hidden, int64_t n_output, int64_t kernel_size) {
  for (int64_t s : upsample_scales) {
    EMBER_CHECK(s > 0, "UpsampleNetwork: upsample_scales must be positive, got ", s);
    total_scale *= s;
  }
  indent = (kernel_size - 1) / 2 * total_scale;
  resnet = register_module("resnet", MelResNet(n_res_block, n_freq, n_hidden, n_output, kernel_size));
  resnet_stretch = register_module("resnet_stretch", Stretch2d(total_scale, 1));
  nn::Sequential layers;
  for (int64_t scale : upsample_scales) {
    layers->push_back(Stretch2d(scale, 1));
    nn::Conv2d conv(nn::Conv2dOptions(1, 1, {1, scale * 2 + 1}).padding({0, scale}).bias(false));
    {
      NoGradGuard no_grad;
      conv->weight.fill_(1.0 / static_cast<double>(scale * 2 + 1));
    }
    layers->push_back(conv);
  }
  upsample_layers = register_module("upsample_layers", layers);
}

std::tuple<Tensor, Tensor> UpsampleNetworkImpl::forward(const Tensor& specgram) {
  Tensor resnet_output = resnet_stretch->forward(resnet->forward(specgram).unsqueeze(1)).squeeze(1);
  Tensor up = upsample_layers->forward(specgram.unsqueeze(1)).squeeze(1);
  up = up.narrow(2, indent, up.size(2) - 2 * indent);
  return {up, resnet_output};
}

WaveRNNImpl::WaveRNNImpl(const WaveRNNOptions& options_) : options(options_) {
  const auto& o = options;
  EMBER_CHECK(o.n_classes() >= 2, "WaveRNN: n_classes must be at least 2, got ", o.n_classes());
  EMBER_CHECK(o.kernel_size() > 0 && o.n_rnn() > 0 && o.n_fc() > 0 && o.n_freq() > 0 && o.n_output() >= 4,
              "WaveRNN: kernel_size, n_rnn, n_fc, n_freq must be positive and n_output at least 4");
  int64_t total_scale = 1;
  for (int64_t s : o.upsample_scales()) total_scale *= s;
  EMBER_CHECK(total_scale == o.hop_length(), "WaveRNN: Expected: total_scale == hop_length, but found ", total_scale,
              " != ", o.hop_length());
  pad = (o.kernel_size() % 2 ? o.kernel_size() - 1 : o.kernel_size()) / 2;
  n_aux = o.n_output() / 4;
  n_bits = static_cast<int64_t>(std::log2(static_cast<double>(o.n_classes())));
  upsample = register_module("upsample", UpsampleNetwork(o.upsample_scales(), o.n_res_block(), o.n_freq(), o.n_hidden(),
                                                         o.n_output(), o.kernel_size()));
  fc = register_module("fc", nn::Linear(o.n_freq() + n_aux + 1, o.n_rnn()));
  rnn1 = register_module("rnn1", nn::GRU(nn::GRUOptions(o.n_rnn(), o.n_rnn()).batch_first(true)));
  rnn2 = register_module("rnn2", nn::GRU(nn::GRUOptions(o.n_rnn() + n_aux, o.n_rnn()).batch_first(true)));
  fc1 = register_module("fc1", nn::Linear(o.n_rnn() + n_aux, o.n_fc()));
  fc2 = register_module("fc2", nn::Linear(o.n_fc() + n_aux, o.n_fc()));
  fc3 = register_module("fc3", nn::Linear(o.n_fc(), o.n_classes()));
}

Tensor WaveRNNImpl::forward(const Tensor& waveform_in, const Tensor& specgram_in) {
  EMBER_CHECK(waveform_in.dim() == 3 && waveform_in.size(1) == 1,
              "WaveRNN: Require the input channel of waveform is 1; expected [batch, 1, time], got ",
              waveform_in.sizes());
  EMBER_CHECK(specgram_in.dim() == 4 && specgram_in.size(1) == 1 && specgram_in.size(2) == options.n_freq(),
              "WaveRNN: Require the input channel of specgram is 1; expected [batch, 1, n_freq=", options.n_freq(),
              ", time], got ", specgram_in.sizes());
  EMBER_CHECK(waveform_in.size(0) == specgram_in.size(0),
              "WaveRNN: waveform and specgram batch sizes differ: ", waveform_in.size(0), " vs ", specgram_in.size(0));
  EMBER_CHECK(specgram_in.size(3) >= options.kernel_size(), "WaveRNN: specgram has ", specgram_in.size(3),
              " frames, fewer than kernel_size ", options.kernel_size());
  const int64_t expected = (specgram_in.size(3) - options.kernel_size() + 1) * options.hop_length();
  EMBER_CHECK(waveform_in.size(2) == expected, "WaveRNN: expected a waveform of ", expected,
              " samples for the specgram's frames, got ", waveform_in.size(2));
  Tensor waveform = waveform_in.squeeze(1), specgram_s = specgram_in.squeeze(1);
  const int64_t batch = waveform.size(0);
  Tensor h1 = zeros({1, batch, options.n_rnn()}, waveform.options());
  Tensor h2 = zeros({1, batch, options.n_rnn()}, waveform.options());
  // Named tensors, not a structured binding: clang 14 cannot capture a binding in the lambda below.
  Tensor spec, aux;
  std::tie(spec, aux) = upsample->forward(specgram_s);
  spec = spec.transpose(1, 2);
  aux = aux.transpose(1, 2);
  auto a = [&](int64_t i) { return aux.narrow(2, n_aux * i, n_aux); };
  Tensor x = fc->forward(cat({waveform.unsqueeze(-1), spec, a(0)}, -1));
  Tensor res = x;
  x = std::get<0>(rnn1->forward(x, h1)) + res;
  res = x;
  x = std::get<0>(rnn2->forward(cat({x, a(1)}, -1), h2)) + res;
  x = relu(fc1->forward(cat({x, a(2)}, -1)));
  x = relu(fc2->forward(cat({x, a(3)}, -1)));
  return fc3->forward(x).unsqueeze(1);
}

std::tuple<Tensor, std::optional<Tensor>> WaveRNNImpl::infer(const Tensor& specgram_in,
                                                             const std::optional<Tensor>& lengths) {
  EMBER_CHECK(specgram_in.dim() == 3 && specgram_in.size(1) == options.n_freq(),
              "WaveRNN.infer: expected a specgram of shape [batch, n_freq=", options.n_freq(), ", time], got ",
              specgram_in.sizes());
  EMBER_CHECK(specgram_in.is_floating_point(), "WaveRNN.infer: expected a floating-point specgram, got ",
              specgram_in.scalar_type());
  EMBER_CHECK(specgram_in.size(2) + 2 * pad >= options.kernel_size(),
              "WaveRNN.infer: specgram has too few frames: ", specgram_in.size(2));
  if (lengths) {
    EMBER_CHECK(lengths->dim() == 1 && lengths->size(0) == specgram_in.size(0),
                "WaveRNN.infer: expected lengths of shape [", specgram_in.size(0), "], got ", lengths->sizes());
  }
  const auto opts = specgram_in.options();
  Tensor padded = constant_pad_nd(specgram_in, {pad, pad}, 0.0);
  auto [spec, aux] = upsample->forward(padded);
  std::optional<Tensor> out_lengths;
  if (lengths) out_lengths = *lengths * upsample->total_scale;
  const int64_t batch = spec.size(0), seq_len = spec.size(2);
  Tensor h1 = zeros({1, batch, options.n_rnn()}, opts);
  Tensor h2 = zeros({1, batch, options.n_rnn()}, opts);
  Tensor x = zeros({batch, 1}, opts);
  std::vector<Tensor> aux_split;
  for (int64_t i = 0; i < 4; ++i) aux_split.push_back(aux.narrow(1, n_aux * i, n_aux));
  std::vector<Tensor> output;
  output.reserve(static_cast<size_t>(seq_len));
  const double scale = std::pow(2.0, static_cast<double>(n_bits)) - 1.0;
  for (int64_t i = 0; i < seq_len; ++i) {
    Tensor m_t = spec.select(2, i);
    x = fc->forward(cat({x, m_t, aux_split[0].select(2, i)}, 1));
    h1 = std::get<1>(rnn1->forward(x.unsqueeze(1), h1));
    x = x + h1[0];
    h2 = std::get<1>(rnn2->forward(cat({x, aux_split[1].select(2, i)}, 1).unsqueeze(1), h2));
    x = x + h2[0];
    x = relu(fc1->forward(cat({x, aux_split[2].select(2, i)}, 1)));
    x = relu(fc2->forward(cat({x, aux_split[3].select(2, i)}, 1)));
    Tensor posterior = softmax(fc3->forward(x), 1);
    // Note [WaveRNN sampling]: one draw from each row of `posterior` as the race of
    // exponential clocks (argmax of p / Exp(1)), which is how torch.multinomial draws
    // a single sample without replacement: with the default generator seeded alike,
    // the samples equal torchaudio's.
    Tensor clocks = empty_like(posterior).exponential_(1.0);
    x = (posterior / clocks).argmax(1, true).to(spec.scalar_type());
    x = 2 * x / scale - 1.0;
    output.push_back(x);
  }
  return {stack(output).permute({1, 2, 0}), out_lengths};
}

}  // namespace torch::audio::models
