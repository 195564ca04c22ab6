// ctc_decoder against the reference of tools/golden/gen_audio_decoder.py:
// flashlight's search rules run exhaustively (lexicon) or every frame sequence
// enumerated (lexicon-free) on tiny emissions, with the fixtures' n-gram LMs.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <string>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/audio/models/decoder.h"
#include "ember/audio/models/decoder/arpa_lm.h"
#include "ember/torch.h"

namespace torch::testing {
namespace {

namespace D = ::torch::audio::models::decoder;

const Golden& golden() {
  static const Golden g("audio_decoder.golden");
  return g;
}
Tensor G(const std::string& name) { return golden()[name]; }
std::string fixture(const std::string& f) { return std::string(EMBER_GOLDEN_DIR) + "/audio/decoder/" + f; }

const std::vector<std::string> kWords = {"a", "b", "bee", "ab", "ba", "cab", "abc", "ac", "<unk>"};

// Effectively no pruning: the reference enumerates everything.
constexpr int64_t kHugeBeam = 100000;
constexpr double kHugeThreshold = 1e6;

// Each hypothesis must be one of the reference's (which holds one more than
// asked, so a tie at the cut is not a failure) with its score, tokens and
// timesteps; the scores must be the reference's best ones in order.
void expect_hypotheses(const std::vector<D::CTCHypothesis>& hyps, const std::string& name, size_t nbest,
                       bool check_paths = true) {
  SCOPED_TRACE(name);
  const int64_t count = G(name + ".count").item<int64_t>();
  ASSERT_EQ(hyps.size(), std::min<size_t>(nbest, count));
  for (size_t i = 0; i < hyps.size(); ++i) {
    const std::string ref = name + "." + std::to_string(i);
    EXPECT_NEAR(hyps[i].score, G(ref + ".score").item<double>(), 1e-4) << "rank " << i;
    if (!check_paths) continue;
    bool found = false;
    for (int64_t j = 0; j < count && !found; ++j) {
      const std::string r = name + "." + std::to_string(j);
      if (std::abs(hyps[i].score - G(r + ".score").item<double>()) > 1e-4) continue;
      if (!hyps[i].tokens.equal(G(r + ".tokens")) || !hyps[i].timesteps.equal(G(r + ".timesteps"))) continue;
      Tensor words = G(r + ".words");
      if (static_cast<int64_t>(hyps[i].words.size()) != words.numel()) continue;
      bool same = true;
      for (int64_t k = 0; k < words.numel(); ++k) same &= hyps[i].words[k] == kWords[words[k].item<int64_t>()];
      found = same;
    }
    EXPECT_TRUE(found) << "rank " << i << " hypothesis not in the reference: tokens " << hyps[i].tokens;
  }
}

Tensor batch_of(const std::string& name) { return G(name + ".emissions").unsqueeze(0); }

TEST(AudioDecoderCtc, LexiconFreeNoLm) {
  auto dec = D::ctc_decoder(std::nullopt, fixture("tokens.txt"), std::nullopt, std::nullopt, 4, kHugeBeam, std::nullopt,
                            kHugeThreshold, 2.0, 0.0, -INFINITY, 0.0);
  expect_hypotheses(dec(batch_of("free.zero"))[0], "free.zero", 4);
  auto logadd = D::ctc_decoder(std::nullopt, fixture("tokens.txt"), std::nullopt, std::nullopt, 4, kHugeBeam,
                               std::nullopt, kHugeThreshold, 2.0, 0.0, -INFINITY, -0.5, true);
  // Log-add merges paths of one history; which path represents it is not defined.
  expect_hypotheses(logadd(batch_of("free.zero_logadd"))[0], "free.zero_logadd", 4, false);
}

TEST(AudioDecoderCtc, LexiconFreeTokenLm) {
  // Tokens as a list, the LM over tokens from an ARPA file.
  auto dec = D::ctc_decoder(std::nullopt, {"-", "|", "a", "b", "c"}, fixture("tokens.arpa"), std::nullopt, 3, kHugeBeam,
                            std::nullopt, kHugeThreshold, 0.8, 0.0, -INFINITY, 0.3);
  expect_hypotheses(dec(batch_of("free.lm"))[0], "free.lm", 3);
}

TEST(AudioDecoderCtc, LexiconNoLm) {
  auto dec = D::ctc_decoder(fixture("lexicon.txt"), fixture("tokens.txt"), std::nullopt, std::nullopt, 5, kHugeBeam,
                            std::nullopt, kHugeThreshold, 0.0);
  expect_hypotheses(dec(batch_of("lex.zero"))[0], "lex.zero", 5);
}

TEST(AudioDecoderCtc, LexiconNgram) {
  auto dec = D::ctc_decoder(fixture("lexicon.txt"), fixture("tokens.txt"), fixture("words.arpa"), std::nullopt, 5,
                            kHugeBeam, std::nullopt, kHugeThreshold, 0.7, -0.3, -INFINITY, -0.2);
  expect_hypotheses(dec(batch_of("lex.ngram"))[0], "lex.ngram", 5);
  // The LM's word list in its own order changes indices, not results.
  auto with_dict =
      D::ctc_decoder(fixture("lexicon.txt"), fixture("tokens.txt"), fixture("words.arpa"), fixture("lm_dict.txt"), 5,
                     kHugeBeam, std::nullopt, kHugeThreshold, 0.7, -0.3, -INFINITY, -0.2);
  expect_hypotheses(with_dict(batch_of("lex.ngram"))[0], "lex.ngram", 5);
  auto unk = D::ctc_decoder(fixture("lexicon.txt"), fixture("tokens.txt"), fixture("words.arpa"), std::nullopt, 5,
                            kHugeBeam, std::nullopt, kHugeThreshold, 0.5, 0.4, -1.5, 0.0);
  expect_hypotheses(unk(batch_of("lex.unk"))[0], "lex.unk", 5);
}

TEST(AudioDecoderCtc, LengthsAndBatch) {
  auto dec = D::ctc_decoder(fixture("lexicon.txt"), fixture("tokens.txt"), fixture("words.arpa"), std::nullopt, 2,
                            kHugeBeam, std::nullopt, kHugeThreshold, 0.7, -0.3, -INFINITY, -0.2);
  Tensor em = stack({G("lex.len5.padded"), G("lex.ngram.emissions")});
  auto out = dec(em, tensor({5, 7}, TensorOptions(kLong)));
  ASSERT_EQ(out.size(), 2u);
  expect_hypotheses(out[0], "lex.len5", 2);
  expect_hypotheses(out[1], "lex.ngram", 2);
}

// The custom LM of the generator: -0.25 * (word + 1) per word, -0.5 at the end.
class IndexLM : public D::CTCDecoderLM {
 public:
  D::CTCDecoderLMStatePtr start(bool) override { return std::make_shared<D::CTCDecoderLMState>(); }
  std::tuple<D::CTCDecoderLMStatePtr, double> score(const D::CTCDecoderLMStatePtr& s, int64_t idx) override {
    return {s->child(idx), -0.25 * static_cast<double>(idx + 1)};
  }
  std::tuple<D::CTCDecoderLMStatePtr, double> finish(const D::CTCDecoderLMStatePtr& s) override {
    return {s->child(-1), -0.5};
  }
};

TEST(AudioDecoderCtc, CustomLm) {
  auto dec = D::ctc_decoder(fixture("lexicon.txt"), fixture("tokens.txt"), std::make_shared<IndexLM>(), std::nullopt, 5,
                            kHugeBeam, std::nullopt, kHugeThreshold, 1.3, 0.2, -INFINITY, 0.1);
  expect_hypotheses(dec(batch_of("lex.custom"))[0], "lex.custom", 5);
}

TEST(AudioDecoderCtc, Pruning) {
  auto run = [](int64_t beam, std::optional<int64_t> tok, double thr, const std::string& name) {
    auto dec = D::ctc_decoder(fixture("lexicon.txt"), fixture("tokens.txt"), fixture("words.arpa"), std::nullopt, 3,
                              beam, tok, thr, 0.7, -0.3, -INFINITY, -0.2);
    expect_hypotheses(dec(batch_of(name))[0], name, 3);
  };
  run(3, std::nullopt, 50, "lex.beam3");
  run(8, 3, 50, "lex.beam8_tok3");
  run(100, std::nullopt, 2, "lex.thr2");
}

TEST(AudioDecoderCtc, DefaultBeamFindsTheBest) {
  // torchaudio's defaults (beam 50, threshold 50) on these tiny cases keep the best path.
  auto dec = D::ctc_decoder(fixture("lexicon.txt"), fixture("tokens.txt"), fixture("words.arpa"), std::nullopt, 1, 50,
                            std::nullopt, 50, 0.7, -0.3, -INFINITY, -0.2);
  expect_hypotheses(dec(batch_of("lex.ngram"))[0], "lex.ngram", 1);
  // A beam of one still decodes (possibly ending inside a word, which then
  // skips the sentence-end score, so its score is not bounded by the best one).
  auto narrow = D::ctc_decoder(fixture("lexicon.txt"), fixture("tokens.txt"), fixture("words.arpa"), std::nullopt, 3, 1,
                               2, 50, 0.7, -0.3, -INFINITY, -0.2);
  auto h = narrow(batch_of("lex.ngram"))[0];
  ASSERT_EQ(h.size(), 1u);
  EXPECT_TRUE(std::isfinite(h[0].score));
  EXPECT_EQ(h[0].tokens[0].item<int64_t>(), 1);  // the start silence
  EXPECT_EQ(dec.idxs_to_tokens(tensor({0, 1, 4}, TensorOptions(kLong))), (std::vector<std::string>{"-", "|", "c"}));
}

TEST(AudioDecoderCtc, ArpaSentenceScores) {
  auto m = D::detail::ArpaModel::from_file(fixture("words.arpa"));
  EXPECT_EQ(m.order(), 3);
  D::detail::ArpaLM lm(m, {"a", "ab", "ba", "cab", "abc", "zzz", "bee", "ac", "b"});
  const std::vector<std::vector<int64_t>> sentences = {{0}, {1, 2, 3}, {4, 5, 0, 6}, {7, 7, 7, 8}, {}};
  Tensor ref = G("arpa.sentences");
  for (size_t i = 0; i < sentences.size(); ++i) {
    auto state = lm.start(false);
    double total = 0;
    for (int64_t w : sentences[i]) {
      auto [next, s] = lm.score(state, w);
      total += s;
      state = next;
    }
    total += std::get<1>(lm.finish(state));
    EXPECT_NEAR(total, ref[i].item<double>(), 1e-5) << "sentence " << i;
  }
}

TEST(AudioDecoderCtc, GreedyDecode) {
  // Frames' arg-max: a a - b b | - ; collapsed: a b |.
  Tensor em = full({1, 7, 5}, -5.0, TensorOptions(kFloat));
  const int64_t best[] = {2, 2, 0, 3, 3, 1, 0};
  for (int64_t t = 0; t < 7; ++t) em.index_put_({0, t, best[t]}, -0.1);
  auto out = D::ctc_greedy_decode(em);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_TRUE(out[0].tokens.equal(tensor({2, 3, 1}, TensorOptions(kLong))));
  EXPECT_TRUE(out[0].timesteps.equal(tensor({0, 3, 5}, TensorOptions(kInt))));
  EXPECT_NEAR(out[0].score, -0.7, 1e-6);
  auto cut = D::ctc_greedy_decode(em, tensor({4}, TensorOptions(kLong)));
  EXPECT_TRUE(cut[0].tokens.equal(tensor({2, 3}, TensorOptions(kLong))));
  EXPECT_EMBER_ERROR(D::ctc_greedy_decode(em, std::nullopt, 5), "ctc_greedy_decode", "blank");
}

TEST(AudioDecoderCtc, BadArguments) {
  auto dec = D::ctc_decoder(fixture("lexicon.txt"), fixture("tokens.txt"));
  EXPECT_EMBER_ERROR(dec(zeros({1, 3, 5}, TensorOptions(kDouble))), "CTCDecoder", "float32");
  EXPECT_EMBER_ERROR(dec(zeros({3, 5})), "CTCDecoder", "[batch, frame, num_tokens]");
  EXPECT_EMBER_ERROR(dec(zeros({1, 3, 4})), "CTCDecoder", "4 tokens");
  EXPECT_EMBER_ERROR(dec(zeros({1, 3, 5}), tensor({4}, TensorOptions(kLong))), "CTCDecoder", "lengths[0] = 4");
  EXPECT_EMBER_ERROR(D::ctc_decoder(fixture("missing.txt"), fixture("tokens.txt")), "ctc_decoder", "missing.txt");
  EXPECT_EMBER_ERROR(D::ctc_decoder(fixture("lexicon.txt"), {"-", "|", "a", "b"}), "ctc_decoder", "'c'");
  EXPECT_EMBER_ERROR(D::ctc_decoder(std::nullopt, {"a", "b"}), "ctc_decoder", "'-'");
  EXPECT_EMBER_ERROR(D::ctc_decoder(fixture("lexicon.txt"), fixture("tokens.txt"), std::nullopt, std::nullopt, 0),
                     "ctc_decoder", "nbest");
}

TEST(AudioDecoderCtc, HostileArpa) {
  using D::detail::ArpaModel;
  const std::string ok = "\\data\\\nngram 1=3\n\n\\1-grams:\n-1 <s>\n-1 </s>\n-1 a\n\n\\end\\\n";
  EXPECT_EQ(ArpaModel::parse(ok).order(), 1);
  EXPECT_EMBER_ERROR(ArpaModel::parse(""), "ARPA", "\\data\\");
  EXPECT_EMBER_ERROR(ArpaModel::parse("mmap lm http://kheafield.com/code format version 5\n"), "ARPA", "KenLM binary");
  EXPECT_EMBER_ERROR(ArpaModel::parse("\\data\\\nngram 1=99999999999\n\\1-grams:\n-1 <s>\n\\end\\\n"), "ARPA",
                     "declared 99999999999");
  EXPECT_EMBER_ERROR(ArpaModel::parse("\\data\\\nngram 1=1\n\\1-grams:\n-1 <s>\n-1 a\n\\end\\\n"), "ARPA",
                     "more 1-grams");
  EXPECT_EMBER_ERROR(ArpaModel::parse("\\data\\\nngram 1=2\n\\1-grams:\nx <s>\n-1 </s>\n\\end\\\n"), "ARPA",
                     "probability 'x'");
  EXPECT_EMBER_ERROR(ArpaModel::parse("\\data\\\nngram 2=2\n"), "ARPA", "order 1");
  EXPECT_EMBER_ERROR(ArpaModel::parse("\\data\\\nngram 1=2\n\\1-grams:\n-1 <s>\n-1 </s>\n"), "ARPA", "\\end\\");
  EXPECT_EMBER_ERROR(ArpaModel::parse("\\data\\\nngram 1=1\n\\1-grams:\n-1 a\n\\end\\\n"), "ARPA", "<s>");
  EXPECT_EMBER_ERROR(
      ArpaModel::parse("\\data\\\nngram 1=2\nngram 2=1\n\\1-grams:\n-1 <s>\n-1 </s>\n\\2-grams:\n-1 <s> q\n\\end\\\n"),
      "ARPA", "'q'", "unigram");
  EXPECT_EMBER_ERROR(ArpaModel::parse("\\data\\\nngram 1=2\n\\1-grams:\n-1 <s> x y\n-1 </s>\n\\end\\\n"), "ARPA",
                     "1-gram line");
}

}  // namespace
}  // namespace torch::testing
