// Wav2Letter, ConvTasNet and WaveRNN against torchaudio 0.13
// (tools/golden/gen_audio_models.py): state_dict names and shapes of every
// builder, eval outputs with deterministic weights, a train-mode backward, a
// torchaudio .pth loaded unchanged, and the errors of bad input.
#include <gtest/gtest.h>

#include <string>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/audio/models.h"
#include "ember/autograd/grad_mode.h"
#include "ember/serialize/pt_reader.h"
#include "ember/torch.h"

namespace torch::testing {
namespace audio_models {
// models_common.cpp
void fill_deterministic(nn::Module& model);
void expect_state_dict_matches(const Golden& g, const std::string& prefix, const nn::Module& model);
}  // namespace audio_models
namespace {

namespace AM = ::torch::audio::models;
using audio_models::expect_state_dict_matches;
using audio_models::fill_deterministic;

const Golden& golden() {
  static const Golden g("audio_models.golden");
  return g;
}
Tensor G(const std::string& name) { return golden()[name]; }

TEST(AudioModelsWav2Letter, WaveformMatchesTorchaudio) {
  AM::Wav2Letter m(AM::Wav2LetterOptions().num_classes(10));
  m->eval();
  expect_state_dict_matches(golden(), "w2l_waveform", *m);
  fill_deterministic(*m);
  NoGradGuard no_grad;
  EXPECT_TENSOR_CLOSE_TOL(m(G("w2l.wave")), G("w2l.waveform.out"), 1e-4, 1e-4);
}

TEST(AudioModelsWav2Letter, MfccMatchesTorchaudioAndRejectsBadInput) {
  AM::Wav2Letter m(7, "mfcc", 13);
  m->eval();
  expect_state_dict_matches(golden(), "w2l_mfcc", *m);
  fill_deterministic(*m);
  NoGradGuard no_grad;
  EXPECT_TENSOR_CLOSE_TOL(m(G("w2l.mfcc")), G("w2l.mfcc.out"), 1e-4, 1e-4);
  // (One model for both: every Wav2Letter holds 20M parameters.)
  EXPECT_EMBER_ERROR(m(zeros({2, 3, 20})), "Wav2Letter", "num_features=13");
  EXPECT_EMBER_ERROR(m(zeros({13, 20})), "Wav2Letter");
  EXPECT_EMBER_ERROR(m(zeros({1, 13, 20}, TensorOptions(kInt64))), "Wav2Letter", "floating");
  EXPECT_EMBER_ERROR(m(zeros({1, 13, 1})), "Wav2Letter", "fewer than the 2");
  EXPECT_EMBER_ERROR(AM::Wav2Letter(AM::Wav2LetterOptions().input_type("spectrum")), "Wav2Letter", "spectrum");
}

AM::ConvTasNetOptions small_tasnet() {
  return AM::ConvTasNetOptions()
      .num_sources(3)
      .enc_kernel_size(5)
      .enc_num_feats(16)
      .msk_kernel_size(3)
      .msk_num_feats(8)
      .msk_num_hidden_feats(12)
      .msk_num_layers(3)
      .msk_num_stacks(2)
      .msk_activate("sigmoid");
}

TEST(AudioModelsConvTasNet, SmallMatchesTorchaudio) {
  AM::ConvTasNet m(small_tasnet());
  m->eval();
  expect_state_dict_matches(golden(), "convtasnet_small", *m);
  fill_deterministic(*m);
  NoGradGuard no_grad;
  EXPECT_TENSOR_CLOSE_TOL(m(G("convtasnet.mix")), G("convtasnet.small.out"), 1e-4, 1e-5);
}

TEST(AudioModelsConvTasNet, BaseMatchesTorchaudio) {
  AM::ConvTasNet m = AM::conv_tasnet_base();
  m->eval();
  expect_state_dict_matches(golden(), "conv_tasnet_base", *m);
  fill_deterministic(*m);
  NoGradGuard no_grad;
  EXPECT_TENSOR_CLOSE_TOL(m(G("convtasnet.mix2")), G("convtasnet.base.out"), 1e-4, 1e-4);
}

TEST(AudioModelsConvTasNet, LoadsTorchaudioStateDict) {
  AM::ConvTasNet m(small_tasnet());
  m->load_state_dict(serialize::load_pytorch_state_dict(EMBER_GOLDEN_DIR "/audio/models/conv_tasnet_small.pth"));
  m->eval();
  NoGradGuard no_grad;
  EXPECT_TENSOR_CLOSE_TOL(m(G("convtasnet.mix")), G("convtasnet.pth.out"), 1e-4, 1e-5);
}

TEST(AudioModelsConvTasNet, BadInput) {
  AM::ConvTasNet m(small_tasnet());
  EXPECT_EMBER_ERROR(m(zeros({2, 2, 100})), "ConvTasNet", "channel==1");
  EXPECT_EMBER_ERROR(m(zeros({100})), "ConvTasNet");
  EXPECT_EMBER_ERROR(AM::ConvTasNet(small_tasnet().msk_activate("tanh")), "ConvTasNet", "tanh");
}

AM::WaveRNNOptions small_wavernn() {
  return AM::WaveRNNOptions({2, 3}, 16, 6)
      .n_res_block(2)
      .n_rnn(12)
      .n_fc(10)
      .kernel_size(5)
      .n_freq(8)
      .n_hidden(6)
      .n_output(8);
}

TEST(AudioModelsWaveRNN, EvalMatchesTorchaudio) {
  AM::WaveRNN m(small_wavernn());
  m->eval();
  expect_state_dict_matches(golden(), "wavernn_small", *m);
  fill_deterministic(*m);
  NoGradGuard no_grad;
  auto [up, aux] = m->upsample->forward(G("wavernn.spec").squeeze(1));
  EXPECT_TENSOR_CLOSE_TOL(up, G("wavernn.upsample.up"), 1e-5, 1e-5);
  EXPECT_TENSOR_CLOSE_TOL(aux, G("wavernn.upsample.aux"), 1e-4, 1e-5);
  EXPECT_TENSOR_CLOSE_TOL(m(G("wavernn.wav"), G("wavernn.spec")), G("wavernn.eval.out"), 1e-4, 1e-4);
}

TEST(AudioModelsWaveRNN, TrainBackwardMatchesTorchaudio) {
  AM::WaveRNN m(small_wavernn());
  fill_deterministic(*m);
  m->train();
  Tensor out = m(G("wavernn.wav"), G("wavernn.spec"));
  EXPECT_TENSOR_CLOSE_TOL(out, G("wavernn.train.out"), 1e-4, 1e-4);
  (out * G("wavernn.train.gy")).sum().backward();
  EXPECT_TENSOR_CLOSE_TOL(m->fc->weight.grad(), G("wavernn.train.grad.fc.weight"), 1e-3, 1e-4);
  EXPECT_TENSOR_CLOSE_TOL(m->rnn1->named_parameters()["weight_hh_l0"].grad(), G("wavernn.train.grad.rnn1.weight_hh_l0"),
                          1e-3, 1e-4);
  auto sd = m->state_dict();
  EXPECT_TENSOR_CLOSE_TOL(sd["upsample.resnet.melresnet_model.1.running_mean"], G("wavernn.train.running_mean"), 1e-4,
                          1e-5);
  EXPECT_TENSOR_CLOSE_TOL(m->named_parameters()["upsample.resnet.melresnet_model.0.weight"].grad(),
                          G("wavernn.train.grad.conv0"), 1e-3, 1e-4);
}

TEST(AudioModelsWaveRNN, InferSamplesTheArgmaxClassOfAPeakedPosterior) {
  AM::WaveRNN m(small_wavernn());
  fill_deterministic(*m);
  m->eval();
  {
    // fc3 always puts (almost) all mass on class 11: each sample is 2 * 11 / 15 - 1.
    NoGradGuard no_grad;
    m->fc3->weight.zero_();
    m->fc3->bias.fill_(-50.0);
    m->fc3->bias[11].fill_(50.0);
  }
  NoGradGuard no_grad;
  Tensor spec = G("wavernn.spec").squeeze(1);
  auto [wave, lengths] = m->infer(spec, tensor(std::vector<int64_t>{9, 7}));
  ASSERT_EQ(wave.sizes().vec(), (std::vector<int64_t>{2, 1, 9 * 6}));
  EXPECT_TENSOR_CLOSE_TOL(wave, full({2, 1, 54}, 2.0 * 11 / 15 - 1.0), 1e-6, 1e-6);
  ASSERT_TRUE(lengths.has_value());
  EXPECT_TENSOR_EQ(*lengths, tensor(std::vector<int64_t>{54, 42}));
}

TEST(AudioModelsWaveRNN, InferDrawsTorchaudiosSamplesForTheSameSeed) {
  AM::WaveRNN m(small_wavernn());
  fill_deterministic(*m);
  m->eval();
  NoGradGuard no_grad;
  manual_seed(3);
  auto [wave, lengths] = m->infer(G("wavernn.spec").squeeze(1), tensor(std::vector<int64_t>{9, 7}));
  EXPECT_TENSOR_CLOSE_TOL(wave, G("wavernn.infer.seed3"), 1e-6, 1e-6);
  EXPECT_LE(wave.abs().max().item<double>(), 1.0);
}

TEST(AudioModelsWaveRNN, BadInput) {
  EXPECT_EMBER_ERROR(AM::WaveRNN(AM::WaveRNNOptions({2, 3}, 16, 5)), "WaveRNN", "total_scale == hop_length", "6 != 5");
  AM::WaveRNN m(small_wavernn());
  EXPECT_EMBER_ERROR(m(zeros({2, 2, 30}), zeros({2, 1, 8, 9})), "WaveRNN", "waveform");
  EXPECT_EMBER_ERROR(m(zeros({2, 1, 30}), zeros({2, 1, 7, 9})), "WaveRNN", "specgram");
  EXPECT_EMBER_ERROR(m(zeros({2, 1, 31}), zeros({2, 1, 8, 9})), "WaveRNN", "31");
  EXPECT_EMBER_ERROR(m->infer(zeros({2, 8})), "WaveRNN.infer");
  EXPECT_EMBER_ERROR(m->infer(zeros({2, 8, 4}), tensor(std::vector<int64_t>{1, 2, 3})), "WaveRNN.infer", "lengths");
}

}  // namespace
}  // namespace torch::testing
