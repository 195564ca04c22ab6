// Wav2Vec2Model / HuBERT against torchaudio 0.13 (tools/golden/gen_audio_models_wav2vec2.py):
// state_dict names and shapes (weight_norm's weight_g/weight_v included), outputs of two
// small wav2vec2_model(...) configurations with deterministic weights, a torchaudio .pth
// loaded unchanged, and the errors of bad input.
#include <gtest/gtest.h>

#include <string>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/audio/models/wav2vec2/model.h"
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
  static const Golden g("audio_models_wav2vec2.golden");
  return g;
}
Tensor G(const std::string& name) { return golden()[name]; }

AM::Wav2Vec2Model small_a() {
  return AM::wav2vec2_model("group_norm", AM::wav2vec2::components::ConvLayerConfig{{8, 10, 5}, {8, 3, 2}, {8, 2, 2}},
                            false, 12, 0.1, 4, 2, 2, 3, 0.1, 20, 0.1, 0.1, false, 0.1, 5);
}
AM::Wav2Vec2Model small_b() {
  return AM::wav2vec2_model("layer_norm", AM::wav2vec2::components::ConvLayerConfig{{6, 8, 4}, {10, 3, 2}}, true, 8,
                            0.0, 5, 4, 3, 2, 0.0, 16, 0.0, 0.0, true, 0.0, std::nullopt);
}

TEST(AudioModelsWav2Vec2, GroupNormConfigMatchesTorchaudio) {
  AM::Wav2Vec2Model m = small_a();
  m->eval();
  expect_state_dict_matches(golden(), "small_a", *m);
  fill_deterministic(*m);
  NoGradGuard no_grad;
  auto [y, ylen] = m(G("wave"), G("lengths"));
  EXPECT_TENSOR_CLOSE_TOL(y, G("small_a.out"), 1e-4, 1e-4);
  ASSERT_TRUE(ylen.has_value());
  EXPECT_TENSOR_EQ(*ylen, G("small_a.out_lengths"));
  auto [y2, ylen2] = m(G("wave"));
  EXPECT_FALSE(ylen2.has_value());
  EXPECT_TENSOR_CLOSE_TOL(y2, G("small_a.out_nolen"), 1e-4, 1e-4);
  auto [feats, flen] = m->extract_features(G("wave"), G("lengths"), 1);
  ASSERT_EQ(feats.size(), 1u);
  EXPECT_TENSOR_CLOSE_TOL(feats[0], G("small_a.feat1"), 1e-4, 1e-4);
}

TEST(AudioModelsWav2Vec2, LayerNormConfigMatchesTorchaudio) {
  AM::Wav2Vec2Model m = small_b();
  m->eval();
  expect_state_dict_matches(golden(), "small_b", *m);
  fill_deterministic(*m);
  NoGradGuard no_grad;
  auto [y, ylen] = m(G("wave"));
  EXPECT_TENSOR_CLOSE_TOL(y, G("small_b.out"), 1e-4, 1e-4);
  auto [feats, flen] = m->extract_features(G("wave"), G("lengths"));
  ASSERT_EQ(feats.size(), 3u);
  for (size_t i = 0; i < feats.size(); ++i)
    EXPECT_TENSOR_CLOSE_TOL(feats[i], G("small_b.feat" + std::to_string(i)), 1e-4, 1e-4);
}

TEST(AudioModelsWav2Vec2, LoadsTorchaudioStateDict) {
  AM::Wav2Vec2Model m = small_a();
  m->load_state_dict(serialize::load_pytorch_state_dict(EMBER_GOLDEN_DIR "/audio/models/wav2vec2_small.pth"));
  m->eval();
  NoGradGuard no_grad;
  EXPECT_TENSOR_CLOSE_TOL(std::get<0>(m(G("wave"), G("lengths"))), G("pth.out"), 1e-4, 1e-5);
}

TEST(AudioModelsWav2Vec2, BaseBuilderStateDict) {
  expect_state_dict_matches(golden(), "wav2vec2_base", *AM::wav2vec2_base(0.1, 0.1, 0.1, 0.1, 0.1, 32));
}

TEST(AudioModelsWav2Vec2, TrainingBackwardReachesEveryParameter) {
  AM::Wav2Vec2Model m = small_b();
  fill_deterministic(*m);
  m->train();
  auto [y, ylen] = m(G("wave"), G("lengths"));
  y.pow(2).sum().backward();
  for (const auto& p : m->named_parameters()) {
    ASSERT_TRUE(p.value().grad().defined()) << p.key();
    EXPECT_TRUE(isfinite(p.value().grad()).all().item<bool>()) << p.key();
  }
}

TEST(AudioModelsWav2Vec2, BadInput) {
  AM::Wav2Vec2Model m = small_b();
  EXPECT_EMBER_ERROR(m(zeros({2, 1, 400})), "Wav2Vec2Model", "2D");
  EXPECT_EMBER_ERROR(m(zeros({2, 400}, TensorOptions(kInt64))), "Wav2Vec2Model", "floating");
  EXPECT_EMBER_ERROR(m(zeros({2, 5})), "Wav2Vec2Model", "too short");
  EXPECT_EMBER_ERROR(m(zeros({2, 400}), tensor(std::vector<int64_t>{400})), "Wav2Vec2Model", "lengths");
  EXPECT_EMBER_ERROR(m->extract_features(zeros({2, 400}), std::nullopt, 4), "num_layers", "[1, 3]");
  EXPECT_EMBER_ERROR(
      AM::wav2vec2_model("batch_norm", std::nullopt, false, 8, 0, 4, 2, 1, 2, 0, 8, 0, 0, false, 0, std::nullopt),
      "wav2vec2_model", "batch_norm");
  EXPECT_EMBER_ERROR(AM::wav2vec2_model("group_norm", AM::wav2vec2::components::ConvLayerConfig{{4, 3, 2}}, false, 8, 0,
                                        4, 2, 1, 3, 0, 8, 0, 0, false, 0, std::nullopt),
                     "SelfAttention", "not divisible");
}

}  // namespace
}  // namespace torch::testing
