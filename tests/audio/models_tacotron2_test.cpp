// Tacotron2 against torchaudio 0.13 (tools/golden/gen_audio_models_tacotron2.py): state_dict
// names and shapes, teacher-forced forward (with mask_padding) and free-running infer (early
// stop per utterance, n_frames_per_step = 2, max steps) with deterministic weights and a
// zeroed prenet (see the generator), the prenet's always-on dropout, and bad input.
#include <gtest/gtest.h>

#include <string>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/audio/models/tacotron2.h"
#include "ember/autograd/grad_mode.h"
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
  static const Golden g("audio_models_tacotron2.golden");
  return g;
}
Tensor G(const std::string& name) { return golden()[name]; }

#define EXPECT_GOLDEN(actual, name) EXPECT_TENSOR_CLOSE_TOL((actual), G(name), 1e-4, 1e-4)

AM::Tacotron2Options small() {
  return AM::Tacotron2Options()
      .n_mels(6)
      .n_symbol(10)
      .symbol_embedding_dim(8)
      .encoder_embedding_dim(8)
      .encoder_n_convolution(2)
      .encoder_kernel_size(3)
      .decoder_rnn_dim(10)
      .decoder_max_step(7)
      .attention_rnn_dim(9)
      .attention_hidden_dim(5)
      .attention_location_n_filter(4)
      .attention_location_kernel_size(3)
      .prenet_dim(6)
      .postnet_n_convolution(3)
      .postnet_kernel_size(3)
      .postnet_embedding_dim(7);
}

void fill(AM::Tacotron2& m) {
  fill_deterministic(*m);
  NoGradGuard no_grad;
  for (const auto& layer : *m->decoder->prenet->layers) layer->as<nn::LinearImpl>()->weight.zero_();
}

TEST(AudioModelsTacotron2, MatchesTorchaudio) {
  AM::Tacotron2 m(small().mask_padding(true).gate_threshold(0.4845));
  m->eval();
  expect_state_dict_matches(golden(), "small", *m);
  fill(m);
  NoGradGuard no_grad;
  auto [mel, postnet, gate, align] = m(G("tokens"), G("token_lengths"), G("mel"), G("mel_lengths"));
  EXPECT_GOLDEN(mel, "a.fwd.mel");
  EXPECT_GOLDEN(postnet, "a.fwd.postnet");
  EXPECT_GOLDEN(gate, "a.fwd.gate");
  EXPECT_GOLDEN(align, "a.fwd.align");
  auto [ipost, ilen, ialign] = m->infer(G("tokens"), G("token_lengths"));
  EXPECT_GOLDEN(ipost, "a.infer.postnet");
  EXPECT_TENSOR_EQ(ilen, G("a.infer.lengths"));
  EXPECT_GOLDEN(ialign, "a.infer.align");
  auto [p1, l1, a1] = m->infer(G("tokens").narrow(0, 0, 1));
  EXPECT_GOLDEN(p1, "a.infer1.postnet");
  EXPECT_TENSOR_EQ(l1, G("a.infer1.lengths"));
  EXPECT_GOLDEN(a1, "a.infer1.align");
}

TEST(AudioModelsTacotron2, TwoFramesPerStepMatchesTorchaudio) {
  AM::Tacotron2 m(small().n_frames_per_step(2).decoder_early_stopping(false));
  m->eval();
  fill(m);
  NoGradGuard no_grad;
  auto [post, len, align] = m->infer(G("tokens"), G("token_lengths"));
  EXPECT_GOLDEN(post, "b.infer.postnet");
  EXPECT_TENSOR_EQ(len, G("b.infer.lengths"));
  EXPECT_GOLDEN(align, "b.infer.align");
}

TEST(AudioModelsTacotron2, DefaultStateDict) { expect_state_dict_matches(golden(), "default", *AM::Tacotron2()); }

TEST(AudioModelsTacotron2, PrenetDropoutIsAlwaysOn) {
  AM::tacotron2::Prenet prenet(4, std::vector<int64_t>{64});
  prenet->eval();
  NoGradGuard no_grad;
  Tensor x = randn({8, 4});
  Tensor kept = relu(prenet->layers->ptr(0)->as<nn::LinearImpl>()->forward(x)) * 2.0;
  Tensor y = prenet(x);
  // Every output is either dropped or the kept activation scaled by 1 / (1 - 0.5).
  EXPECT_TRUE(logical_or(y == 0, (y - kept).abs() < 1e-5).all().item<bool>());
  EXPECT_GT((y == 0).logical_and(kept > 0).sum().item<int64_t>(), 0);
}

TEST(AudioModelsTacotron2, BadInput) {
  AM::Tacotron2 m(small());
  Tensor tokens = G("tokens"), lengths = G("token_lengths"), mel = G("mel");
  EXPECT_EMBER_ERROR(m(tokens.to(kFloat), lengths, mel, G("mel_lengths")), "Tacotron2", "integer tokens");
  EXPECT_EMBER_ERROR(m(tokens + 9, lengths, mel, G("mel_lengths")), "Tacotron2", "[0, 10)");
  EXPECT_EMBER_ERROR(m(tokens, tensor(std::vector<int64_t>{3, 5}), mel, G("mel_lengths")), "Tacotron2", "lengths");
  EXPECT_EMBER_ERROR(m(tokens, lengths, zeros({2, 5, 4}), G("mel_lengths")), "Tacotron2", "n_mels=6");
  EXPECT_EMBER_ERROR(m->infer(tokens, tensor(std::vector<int64_t>{5})), "Tacotron2.infer", "lengths");
  EXPECT_EMBER_ERROR(AM::Tacotron2(small().symbol_embedding_dim(6)), "Tacotron2", "encoder_embedding_dim");
}

}  // namespace
}  // namespace torch::testing
