// Conformer and DeepSpeech against torchaudio 0.13 (tools/golden/gen_audio_models_extra.py):
// state_dict names and shapes, eval outputs with deterministic weights, bad input.
#include <gtest/gtest.h>

#include <string>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/audio/models/conformer.h"
#include "ember/audio/models/deepspeech.h"
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
  static const Golden g("audio_models_extra.golden");
  return g;
}
Tensor G(const std::string& name) { return golden()[name]; }

TEST(AudioModelsConformer, MatchesTorchaudio) {
  AM::Conformer bn(AM::ConformerOptions(8, 2, 12, 2, 3));
  bn->eval();
  expect_state_dict_matches(golden(), "conformer_bn", *bn);
  fill_deterministic(*bn);
  AM::Conformer gn(AM::ConformerOptions(8, 4, 6, 1, 5).dropout(0.1).use_group_norm(true).convolution_first(true));
  gn->eval();
  expect_state_dict_matches(golden(), "conformer_gn", *gn);
  fill_deterministic(*gn);
  NoGradGuard no_grad;
  auto [y, ylen] = bn(G("conformer.x"), G("conformer.lengths"));
  EXPECT_TENSOR_CLOSE_TOL(y, G("conformer.bn.out"), 1e-4, 1e-4);
  EXPECT_TENSOR_EQ(ylen, G("conformer.lengths"));
  EXPECT_TENSOR_CLOSE_TOL(std::get<0>(gn(G("conformer.x"), G("conformer.lengths"))), G("conformer.gn.out"), 1e-4, 1e-4);
}

TEST(AudioModelsConformer, BadInput) {
  EXPECT_EMBER_ERROR(AM::Conformer(AM::ConformerOptions(8, 2, 12, 1, 4)), "Conformer", "odd");
  EXPECT_EMBER_ERROR(AM::Conformer(AM::ConformerOptions(8, 3, 12, 1, 3)), "Conformer", "divisible");
  AM::Conformer m(8, 2, 12, 1, 3);
  EXPECT_EMBER_ERROR(m(zeros({2, 5, 7}), tensor(std::vector<int64_t>{5, 5})), "Conformer", "input_dim=8");
  EXPECT_EMBER_ERROR(m(zeros({2, 5, 8}), tensor(std::vector<int64_t>{4, 3})), "Conformer", "longest length");
  EXPECT_EMBER_ERROR(m(zeros({2, 5, 8}), tensor(std::vector<int64_t>{5})), "Conformer", "lengths");
}

TEST(AudioModelsDeepSpeech, MatchesTorchaudio) {
  AM::DeepSpeech m(AM::DeepSpeechOptions(5).n_hidden(6).n_class(4));
  m->eval();
  expect_state_dict_matches(golden(), "deepspeech", *m);
  fill_deterministic(*m);
  NoGradGuard no_grad;
  EXPECT_TENSOR_CLOSE_TOL(m(G("deepspeech.x")), G("deepspeech.out"), 1e-4, 1e-5);
  EXPECT_EMBER_ERROR(m(zeros({2, 7, 5})), "DeepSpeech", "n_feature=5");
  EXPECT_EMBER_ERROR(m(zeros({2, 1, 7, 4})), "DeepSpeech");
}

}  // namespace
}  // namespace torch::testing
