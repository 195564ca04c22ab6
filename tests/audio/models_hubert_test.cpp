// HuBERTPretrainModel against torchaudio 0.13 (tools/golden/gen_audio_models_hubert.py):
// state_dict names and shapes, the feature penalty, the logits computed on the span mask
// torchaudio drew (Ember's generator draws different masks), compute_logits with
// coinciding label embeddings, the invariants of compute_mask_indices, and bad input.
#include <gtest/gtest.h>

#include <string>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/audio/models/wav2vec2/hubert_pretrain.h"
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
namespace C = ::torch::audio::models::wav2vec2::components;
using audio_models::expect_state_dict_matches;
using audio_models::fill_deterministic;

const Golden& golden() {
  static const Golden g("audio_models_hubert.golden");
  return g;
}
Tensor G(const std::string& name) { return golden()[name]; }

AM::HuBERTPretrainModel small() {
  return AM::hubert_pretrain_model("group_norm", C::ConvLayerConfig{{8, 10, 5}, {8, 3, 2}}, false, 12, 0.1, 4, 2, 2, 3,
                                   0.1, 16, 0.0, 0.1, false, 0.05, 0.5, "static", 0.0, 3, false, 1, 0.0, "static", 0.0,
                                   4, false, 1, false, false, 6, 5, 0.1);
}

TEST(AudioModelsHuBERTPretrain, MatchesTorchaudioOnItsMask) {
  AM::HuBERTPretrainModel m = small();
  m->eval();
  expect_state_dict_matches(golden(), "small", *m);
  fill_deterministic(*m);
  NoGradGuard no_grad;
  auto [logit_m, logit_u, pen] = m(G("wave"), G("labels"), G("lengths"));
  EXPECT_TENSOR_CLOSE_TOL(pen, G("pen"), 1e-4, 1e-6);
  ASSERT_TRUE(logit_m.has_value() && logit_u.has_value());
  EXPECT_EQ(logit_m->size(1), 7);
  // The rest of forward on torchaudio's mask, through the same components.
  auto [x, lengths] = m->wav2vec2->feature_extractor->forward(G("wave"), G("lengths"));
  auto [h, attention_mask] = m->wav2vec2->encoder->preprocess(x, lengths);
  Tensor mask = G("mask"), padding = G("padding_mask");
  Tensor masked = where(mask.unsqueeze(-1), m->mask_generator->mask_embedding, h);
  Tensor out = m->wav2vec2->encoder->transformer->forward(masked, attention_mask);
  Tensor mask_m = logical_and(logical_not(padding), mask);
  Tensor mask_u = logical_and(logical_not(padding), logical_not(mask_m));
  auto [gm, gu] = m->logit_generator->forward(out, G("labels"), mask_m, mask_u);
  EXPECT_TENSOR_CLOSE_TOL(*gm, G("logit_m"), 1e-4, 1e-4);
  EXPECT_TENSOR_CLOSE_TOL(*gu, G("logit_u"), 1e-4, 1e-4);
  // Ember's own mask: masked and unmasked logits together cover every valid frame.
  EXPECT_EQ(logit_m->size(0) + logit_u->size(0), G("logit_m").size(0) + G("logit_u").size(0));
}

TEST(AudioModelsHuBERTPretrain, ComputeLogitsBlocksNegativesEqualToThePositive) {
  EXPECT_TENSOR_CLOSE_TOL(C::compute_logits(G("logits.proj"), G("logits.target"), G("logits.emb")), G("logits.out"),
                          1e-5, 1e-5);
}

TEST(AudioModelsHuBERTPretrain, MaskIndicesInvariants) {
  manual_seed(7);
  Tensor padding = arange(50).unsqueeze(0).expand({3, 50}) >= tensor(std::vector<int64_t>{50, 40, 30}).unsqueeze(1);
  for (const char* type : {"static", "uniform", "normal"}) {
    for (bool no_overlap : {false, true}) {
      Tensor mask = C::compute_mask_indices({3, 50}, padding, 0.4, 4, type, 1.0, 2, no_overlap, 1);
      ASSERT_EQ(mask.sizes().vec(), (std::vector<int64_t>{3, 50}));
      Tensor per_row = mask.sum(1);
      EXPECT_TRUE((per_row == per_row[0]).all().item<bool>()) << type;
      EXPECT_GT(per_row[0].item<int64_t>(), 0) << type;
      EXPECT_FALSE(logical_and(mask, padding).any().item<bool>()) << type;
    }
  }
  EXPECT_EMBER_ERROR(C::compute_mask_indices({1, 10}, std::nullopt, 0.5, 2, "poisson"), "poisson");
}

TEST(AudioModelsHuBERTPretrain, FeatureGradMultScalesTheExtractorGradient) {
  // Same weights and mask; the logits' gradient reaching the feature extractor is
  // scaled by feature_grad_mult = 0.1 relative to a model without it.
  auto grad_of_extractor = [](std::optional<double> mult) {
    AM::HuBERTPretrainModel m = AM::hubert_pretrain_model(
        "group_norm", C::ConvLayerConfig{{8, 10, 5}, {8, 3, 2}}, false, 12, 0.1, 4, 2, 2, 3, 0.1, 16, 0.0, 0.1, false,
        0.05, 0.5, "static", 0.0, 3, false, 1, 0.0, "static", 0.0, 4, false, 1, false, false, 6, 5, mult);
    fill_deterministic(*m);
    m->eval();
    manual_seed(1);
    auto [logit_m, logit_u, pen] = m(G("wave"), G("labels"), G("lengths"));
    (logit_m->sum() + logit_u->sum()).backward();
    return m->wav2vec2->feature_extractor->conv_layers->ptr(1)->as<C::ConvLayerBlockImpl>()->conv->weight.grad();
  };
  Tensor full_grad = grad_of_extractor(std::nullopt), scaled = grad_of_extractor(0.1);
  EXPECT_GT(full_grad.abs().sum().item<double>(), 0);
  EXPECT_TENSOR_CLOSE_TOL(scaled, full_grad * 0.1, 1e-4, 1e-6);
}

TEST(AudioModelsHuBERTPretrain, BadInput) {
  AM::HuBERTPretrainModel m = small();
  EXPECT_EMBER_ERROR(m(G("wave"), zeros({2, 5}, TensorOptions(kInt64)), G("lengths")), "HuBERTPretrainModel",
                     "length of label");
  EXPECT_EMBER_ERROR(m(G("wave"), G("labels") + 6, G("lengths")), "HuBERTPretrainModel", "[0, 6)");
  EXPECT_EMBER_ERROR(AM::hubert_pretrain_model("group_norm", C::ConvLayerConfig{{8, 10, 5}}, false, 12, 0, 4, 2, 1, 3,
                                               0, 16, 0, 0, false, 0, 0.5, "static", 0, 3, false, 1, 0, "static", 0, 4,
                                               false, 1, false, false, 6, 5, 1.5),
                     "feature_grad_mult");
}

}  // namespace
}  // namespace torch::testing
