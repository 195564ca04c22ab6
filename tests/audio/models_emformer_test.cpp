// Emformer and the Emformer RNN-T against torchaudio 0.13
// (tools/golden/gen_audio_models_emformer.py): whole-utterance and streaming
// outputs with carried states, every RNNT method, state_dict names and shapes
// of emformer_rnnt_base, and the errors of bad input.
#include <gtest/gtest.h>

#include <string>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/audio/models/emformer.h"
#include "ember/audio/models/rnnt.h"
#include "ember/audio/models/rnnt_decoder.h"
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
  static const Golden g("audio_models_emformer.golden");
  return g;
}
Tensor G(const std::string& name) { return golden()[name]; }
Tensor ints(std::vector<int64_t> v) { return tensor(v); }

#define EXPECT_GOLDEN(actual, name) EXPECT_TENSOR_CLOSE_TOL((actual), G(name), 1e-4, 1e-4)

AM::Emformer emformer_mem() {
  return AM::Emformer(
      AM::EmformerOptions(8, 2, 16, 2, 4).left_context_length(3).right_context_length(2).max_memory_size(2));
}

TEST(AudioModelsEmformer, WithMemoryMatchesTorchaudio) {
  AM::Emformer em = emformer_mem();
  em->eval();
  expect_state_dict_matches(golden(), "emformer_mem", *em);
  fill_deterministic(*em);
  NoGradGuard no_grad;
  auto [y, ylen] = em(G("em.x"), ints({13, 10}));
  EXPECT_GOLDEN(y, "em.mem.out");
  EXPECT_TENSOR_EQ(ylen, ints({13, 10}));
  std::optional<std::vector<AM::emformer::LayerState>> states;
  for (int i = 0; i < 3; ++i) {
    const std::string s = std::to_string(i);
    auto [out, out_len, next] = em->infer(G("em.mem.seg" + s), ints({6, 6}), states);
    EXPECT_GOLDEN(out, "em.mem.infer" + s);
    EXPECT_TENSOR_EQ(out_len, G("em.mem.infer_len" + s));
    states = next;
  }
  ASSERT_EQ(states->size(), 2u);
  for (size_t l = 0; l < 2; ++l) {
    ASSERT_EQ((*states)[l].size(), 4u);
    for (size_t k = 0; k < 3; ++k)
      EXPECT_GOLDEN((*states)[l][k], "em.mem.state" + std::to_string(l) + "." + std::to_string(k));
    EXPECT_TENSOR_EQ((*states)[l][3], G("em.mem.state" + std::to_string(l) + ".3"));
  }
}

TEST(AudioModelsEmformer, WithoutMemoryMatchesTorchaudio) {
  AM::Emformer em(AM::EmformerOptions(6, 3, 10, 1, 3)
                      .activation("gelu")
                      .left_context_length(2)
                      .right_context_length(1)
                      .weight_init_scale_strategy(std::nullopt)
                      .tanh_on_mem(true));
  em->eval();
  fill_deterministic(*em);
  NoGradGuard no_grad;
  EXPECT_GOLDEN(std::get<0>(em(G("em.x1"), ints({10}))), "em.nomem.out");
  std::optional<std::vector<AM::emformer::LayerState>> states;
  for (int i = 0; i < 2; ++i) {
    auto [out, out_len, next] = em->infer(G("em.nomem.seg" + std::to_string(i)), ints({4}), states);
    EXPECT_GOLDEN(out, "em.nomem.infer" + std::to_string(i));
    states = next;
  }
}

TEST(AudioModelsEmformer, BadInput) {
  AM::Emformer em = emformer_mem();
  EXPECT_EMBER_ERROR(em(zeros({2, 15, 7}), ints({13, 10})), "Emformer", "input_dim=8");
  EXPECT_EMBER_ERROR(em(zeros({2, 15, 8}), ints({13})), "Emformer", "lengths");
  EXPECT_EMBER_ERROR(em(zeros({2, 15, 8}), ints({16, 10})), "Emformer", "lengths");
  EXPECT_EMBER_ERROR(em(zeros({2, 2, 8}), ints({0, 0})), "Emformer", "right_context_length");
  EXPECT_EMBER_ERROR(em->infer(zeros({2, 5, 8}), ints({5, 5})), "Emformer.infer", "expected size of 6");
  EXPECT_EMBER_ERROR(em->infer(zeros({2, 6, 8}), ints({6, 6}), std::vector<AM::emformer::LayerState>(1)),
                     "Emformer.infer", "2 layer states");
  EXPECT_EMBER_ERROR(AM::Emformer(AM::EmformerOptions(8, 3, 16, 1, 4)), "Emformer", "num_heads (3)");
  EXPECT_EMBER_ERROR(AM::Emformer(AM::EmformerOptions(8, 2, 16, 1, 4).activation("tanh")), "Emformer", "tanh");
}

AM::RNNT rnnt_small() {
  return AM::emformer_rnnt_model(6, 8, 7, 4, 2, 4, 2, 2, 12, 2, 0.1, "gelu", 3, 0, "depthwise", true, 5, 2, true, 1e-3,
                                 0.3);
}

TEST(AudioModelsRNNT, EveryMethodMatchesTorchaudio) {
  AM::RNNT m = rnnt_small();
  m->eval();
  expect_state_dict_matches(golden(), "rnnt_small", *m);
  fill_deterministic(*m);
  NoGradGuard no_grad;
  auto [out, slen, tlen, pstate] = m(G("rnnt.src"), G("rnnt.src_len"), G("rnnt.tgt"), G("rnnt.tgt_len"));
  EXPECT_GOLDEN(out, "rnnt.out");
  EXPECT_TENSOR_EQ(slen, G("rnnt.out_slen"));
  EXPECT_TENSOR_EQ(tlen, G("rnnt.tgt_len"));
  auto [enc, enc_len] = m->transcribe(G("rnnt.src"), G("rnnt.src_len"));
  EXPECT_GOLDEN(enc, "rnnt.enc");
  EXPECT_TENSOR_EQ(enc_len, G("rnnt.enc_len"));
  Tensor tgt = G("rnnt.tgt");
  auto [pred1, l1, st1] = m->predict(tgt.narrow(1, 0, 1), ints({1, 1}), std::nullopt);
  auto [pred2, l2, st2] = m->predict(tgt.narrow(1, 1, 2), ints({2, 2}), st1);
  EXPECT_GOLDEN(pred1, "rnnt.pred1");
  EXPECT_GOLDEN(pred2, "rnnt.pred2");
  ASSERT_EQ(st2.size(), 2u);
  for (size_t l = 0; l < 2; ++l) {
    EXPECT_GOLDEN(st2[l][0], "rnnt.pstate" + std::to_string(l) + ".h");
    EXPECT_GOLDEN(st2[l][1], "rnnt.pstate" + std::to_string(l) + ".c");
  }
  EXPECT_GOLDEN(std::get<0>(m->join(enc, enc_len, pred2, ints({2, 2}))), "rnnt.join");
  std::optional<AM::RNNTState> states;
  for (int i = 0; i < 2; ++i) {
    const std::string s = std::to_string(i);
    auto [e, el, next] = m->transcribe_streaming(G("rnnt.stream.seg" + s), ints({6, 6}), states);
    EXPECT_GOLDEN(e, "rnnt.stream.out" + s);
    EXPECT_TENSOR_EQ(el, G("rnnt.stream.len" + s));
    states = next;
  }
}

TEST(AudioModelsRNNT, BaseBuilderStateDict) {
  expect_state_dict_matches(golden(), "emformer_rnnt_base", *AM::emformer_rnnt_base(4097));
}

TEST(AudioModelsRNNT, BadInput) {
  AM::RNNT m = rnnt_small();
  EXPECT_EMBER_ERROR(m->transcribe(zeros({2, 14, 5}), ints({12, 9})), "RNNT.transcribe", "6");
  EXPECT_EMBER_ERROR(m->transcribe(zeros({2, 14, 6}), zeros({2})), "RNNT.transcribe", "lengths");
  EXPECT_EMBER_ERROR(m->predict(ints({1, 7}).unsqueeze(0), ints({2}), std::nullopt), "RNNT.predict", "[0, 7)");
  EXPECT_EMBER_ERROR(m->predict(zeros({1, 2}), ints({2}), std::nullopt), "RNNT.predict", "integer");
  EXPECT_EMBER_ERROR(m->join(zeros({2, 3, 8}), ints({3, 3}), zeros({2, 2, 5}), ints({2, 2})), "RNNT.join");
}

void expect_hypos(const std::vector<AM::Hypothesis>& hypos, const std::string& prefix) {
  ASSERT_EQ(static_cast<int64_t>(hypos.size()), G(prefix + ".count").item<int64_t>()) << prefix;
  for (size_t i = 0; i < hypos.size(); ++i) {
    const std::string p = prefix + "." + std::to_string(i);
    const auto& tokens = std::get<0>(hypos[i]);
    EXPECT_TENSOR_EQ(tensor(tokens), G(p + ".tokens"));
    EXPECT_NEAR(std::get<3>(hypos[i]), G(p + ".score").item<double>(), 1e-3) << p;
    EXPECT_GOLDEN(std::get<1>(hypos[i]), p + ".pred");
  }
}

TEST(AudioModelsRNNTBeamSearch, MatchesTorchaudio) {
  AM::RNNT m = rnnt_small();
  m->eval();
  fill_deterministic(*m);
  Tensor src = G("bs.src");
  AM::RNNTBeamSearch search(m, 6);
  expect_hypos(search(src, ints({20}), 3), "bs.fwd");
  AM::RNNTBeamSearch search_t(m, 0, 2.0, std::nullopt, 2);
  expect_hypos(search_t(src.unsqueeze(0), tensor(int64_t{18}), 4), "bs.temp");
  std::optional<AM::RNNTState> state;
  std::optional<AM::Hypothesis> hypo;
  for (int i = 0; i < 2; ++i) {
    auto [hypos, next] = search->infer(G("bs.stream.seg" + std::to_string(i)), ints({6}), 2, state, hypo);
    expect_hypos(hypos, "bs.stream" + std::to_string(i));
    ASSERT_FALSE(hypos.empty());
    hypo = hypos[0];
    state = next;
  }
}

TEST(AudioModelsRNNTBeamSearch, CustomSortKeyAndBadInput) {
  AM::RNNT m = rnnt_small();
  fill_deterministic(*m);
  m->eval();
  // A custom hypo_sort_key ranks the final beam: by raw score here, so scores come out descending.
  auto by_score = [](const AM::Hypothesis& h) { return std::get<3>(h); };
  auto hypos = AM::RNNTBeamSearch(m, 6, 1.0, by_score)(G("bs.src"), ints({20}), 3);
  ASSERT_EQ(hypos.size(), 3u);
  for (size_t i = 1; i < hypos.size(); ++i) EXPECT_GE(std::get<3>(hypos[i - 1]), std::get<3>(hypos[i]));
  AM::RNNTBeamSearch search(m, 6);
  EXPECT_EMBER_ERROR(search(zeros({2, 20, 6}), ints({20}), 3), "RNNTBeamSearch", "(T, D)");
  EXPECT_EMBER_ERROR(search(zeros({20, 6}), ints({20, 20}), 3), "RNNTBeamSearch", "length");
  EXPECT_EMBER_ERROR(search(zeros({20, 6}), ints({20}), 0), "RNNTBeamSearch", "beam_width");
  EXPECT_EMBER_ERROR(AM::RNNTBeamSearch(m, 7), "RNNTBeamSearch", "blank 7");
}

}  // namespace
}  // namespace torch::testing
