// HDemucs against torchaudio 0.13 (tools/golden/gen_audio_models_hdemucs.py): state_dict
// names and shapes (a small model using every layer kind, and hdemucs_low), the small
// model's separated sources with deterministic weights, and bad input.
#include <gtest/gtest.h>

#include <string>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/audio/models/hdemucs.h"
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
  static const Golden g("audio_models_hdemucs.golden");
  return g;
}

AM::HDemucs small() {
  return AM::HDemucs(AM::HDemucsOptions({"a", "b"})
                         .audio_channels(2)
                         .channels(4)
                         .nfft(64)
                         .depth(3)
                         .norm_starts(2)
                         .dconv_lstm(0)
                         .dconv_attn(1)
                         .dconv_comp(2));
}

TEST(AudioModelsHDemucs, MatchesTorchaudio) {
  AM::HDemucs m = small();
  m->eval();
  expect_state_dict_matches(golden(), "small", *m);
  fill_deterministic(*m);
  NoGradGuard no_grad;
  Tensor out = m(golden()["x"]);
  EXPECT_TENSOR_CLOSE_TOL(out, golden()["out"], 1e-4, 1e-4);
}

TEST(AudioModelsHDemucs, LowBuilderStateDict) {
  expect_state_dict_matches(golden(), "low", *AM::hdemucs_low({"drums", "bass", "other", "vocals"}));
}

TEST(AudioModelsHDemucs, BadInput) {
  AM::HDemucs m = small();
  EXPECT_EMBER_ERROR(m(zeros({2, 1000})), "HDemucs", "3D");
  EXPECT_EMBER_ERROR(m(zeros({1, 1, 1000})), "HDemucs", "audio_channels");
  EXPECT_EMBER_ERROR(m(zeros({1, 2, 1000}, TensorOptions(kInt64))), "HDemucs", "floating");
  EXPECT_EMBER_ERROR(AM::HDemucs(AM::HDemucsOptions(std::vector<std::string>{})), "HDemucs", "sources");
  EXPECT_EMBER_ERROR(m(zeros({1, 2, 0})), "HDemucs", "no frames");
  // As in torchaudio, inputs shorter than the spectrogram's framing raise; 33 frames separate.
  NoGradGuard no_grad;
  EXPECT_EMBER_ERROR(m(zeros({1, 2, 1})), "HDemucs", "Spectrogram");
  EXPECT_EMBER_ERROR(m(zeros({1, 2, 7})), "HDemucs", "Spectrogram");
  EXPECT_EQ(m(zeros({1, 2, 33})).sizes().vec(), (std::vector<int64_t>{1, 2, 2, 33}));
}

}  // namespace
}  // namespace torch::testing
