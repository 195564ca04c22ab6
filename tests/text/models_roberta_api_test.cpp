// RobertaBundle's API, the four bundles' configurations (torchtext's values),
// freeze_encoder, the text transform composition and bad input.
#include <gtest/gtest.h>

#include "common/test_util.h"
#include "ember/text/models.h"
#include "ember/torch.h"

namespace text_models_test {
namespace {

namespace models = ember::text::models;
namespace T = ember::text::transforms;
using ember::Tensor;

TEST(TextModelsRobertaApi, BundlesHaveTorchtextsConfigurations) {
  EXPECT_EQ(models::XLMR_BASE_ENCODER.encoderConf(), models::RobertaEncoderConf(250002));
  EXPECT_EQ(models::XLMR_LARGE_ENCODER.encoderConf(), models::RobertaEncoderConf(250002, 1024, 4096, 1, 514, 16, 24));
  EXPECT_EQ(models::ROBERTA_BASE_ENCODER.encoderConf(), models::RobertaEncoderConf(50265));
  EXPECT_EQ(models::ROBERTA_LARGE_ENCODER.encoderConf(), models::RobertaEncoderConf(50265, 1024, 4096, 1, 514, 16, 24));
  EXPECT_EQ(models::RobertaEncoderConf().embedding_dim(), 768);
  EXPECT_EQ(models::RobertaEncoderConf().ffn_dimension(), 3072);
  EXPECT_EQ(models::RobertaEncoderConf().max_seq_len(), 514);
  EXPECT_EQ(models::RobertaEncoderConf().padding_idx(), 1);
  EXPECT_EQ(*models::XLMR_BASE_ENCODER._path, "https://download.pytorch.org/models/text/xlmr.base.encoder.pt");
  EXPECT_EQ(*models::ROBERTA_LARGE_ENCODER._path, "https://download.pytorch.org/models/text/roberta.large.encoder.pt");
  EXPECT_EQ(models::XLMR_BASE_ENCODER.truncate_to, 254);
  EXPECT_EQ(models::XLMR_LARGE_ENCODER.truncate_to, 510);
}

TEST(TextModelsRobertaApi, GetModelNamesTheCheckpointToFetch) {
  EXPECT_EMBER_ERROR(models::XLMR_BASE_ENCODER.get_model(), "XLMR_BASE_ENCODER", "xlmr.base.encoder.pt", "with_path");
  models::RobertaBundle no_weights("MINE", models::RobertaEncoderConf(50, 8, 16, 1, 10, 2, 1));
  EXPECT_EMBER_ERROR(no_weights.get_model(), "load_weights cannot be True");
  models::RobertaModel m = no_weights.get_model(ember::nn::AnyModule(), false);
  EXPECT_EQ(m->forward(ember::tensor({{3, 4, 5}}, ember::kLong)).sizes(), (std::vector<int64_t>{1, 3, 8}));
  EXPECT_EMBER_ERROR(no_weights.with_path("/nonexistent/dir/weights.pt").get_model(), "/nonexistent/dir/weights.pt");
}

TEST(TextModelsRobertaApi, FreezeEncoderFreezesTheEncoderOnly) {
  models::RobertaModel m(models::RobertaEncoderConf(50, 8, 16, 1, 10, 2, 1), models::RobertaClassificationHead(2, 8),
                         true);
  for (const auto& p : m->encoder->parameters()) EXPECT_FALSE(p.requires_grad());
  for (const auto& p : m->head.ptr()->parameters()) EXPECT_TRUE(p.requires_grad());
}

TEST(TextModelsRobertaApi, CloneCopiesTheHeadToo) {
  models::RobertaModel m(models::RobertaEncoderConf(50, 8, 16, 1, 10, 2, 1).dropout(0.0),
                         models::RobertaClassificationHead(2, 8, std::nullopt, 0.0));
  m->eval();
  auto copy = std::dynamic_pointer_cast<models::RobertaModelImpl>(m->clone());
  ASSERT_NE(copy, nullptr);
  copy->eval();
  const Tensor x = ember::tensor({{3, 4, 5, 1}}, ember::kLong);
  ember::NoGradGuard no_grad;
  EXPECT_TENSOR_EQ(copy->forward(x), m->forward(x));
  copy->head.ptr()->parameters()[0].fill_(0.5);
  EXPECT_FALSE(ember::testing::tensors_close(copy->forward(x), m->forward(x), 0, 0));
  EXPECT_EQ(copy->state_dict().size(), m->state_dict().size());
}

TEST(TextModelsRobertaApi, ClassificationHeadOptions) {
  models::RobertaClassificationHead h(
      models::RobertaClassificationHeadOptions(4, 8).inner_dim(6).dropout(0.0).activation(
          ember::nn::AnyModule(ember::nn::Tanh())));
  EXPECT_EQ(h->dense->weight.sizes(), (std::vector<int64_t>{6, 8}));
  EXPECT_EQ(h->out_proj->weight.sizes(), (std::vector<int64_t>{4, 6}));
  const Tensor f = ember::randn({2, 3, 8});
  const Tensor expected = h->out_proj->forward(ember::tanh(h->dense->forward(f.select(1, 0))));
  EXPECT_TENSOR_CLOSE(h->forward(f), expected);
  EXPECT_EMBER_ERROR(h->forward(ember::randn({2, 8})), "RobertaClassificationHead", "[2, 8]");
}

TEST(TextModelsRobertaApi, TransformComposesTokenizerVocabTruncateAndSpecials) {
  const std::string sp = std::string(EMBER_GOLDEN_DIR) + "/text/sp_unigram.model";
  EXPECT_EMBER_ERROR(models::XLMR_BASE_ENCODER.transform(), "with_sentencepiece");
  EXPECT_EMBER_ERROR(models::XLMR_BASE_ENCODER.with_gpt2_bpe("a", "b", ember::text::vocab::Vocab({"x"})),
                     "with_sentencepiece");
  T::SentencePieceTokenizer tok(sp);
  const std::vector<std::string> pieces = tok->forward(std::string("Hello world, how are you?"));
  std::vector<std::string> itos = {"<s>", "<pad>", "</s>", "<unk>"};
  for (const std::string& p : pieces) itos.push_back(p);
  ember::text::vocab::Vocab v(itos, 3);
  T::Sequential t = models::XLMR_BASE_ENCODER.with_sentencepiece(sp, v).transform();
  const auto ids = std::get<std::vector<int64_t>>(t->forward(std::string("Hello world, how are you?")));
  ASSERT_EQ(ids.size(), pieces.size() + 2);
  EXPECT_EQ(ids.front(), 0);
  EXPECT_EQ(ids.back(), 2);
  for (size_t i = 0; i < pieces.size(); ++i) EXPECT_EQ(ids[i + 1], v[pieces[i]]);
  // Truncate(254) before the specials.
  std::string long_text;
  for (int i = 0; i < 400; ++i) long_text += "word" + std::to_string(i) + " ";
  const auto long_ids = std::get<std::vector<int64_t>>(t->forward(long_text));
  EXPECT_EQ(long_ids.size(), 256u);
}

TEST(TextModelsRobertaApi, RobertaTransformUsesGpt2Bpe) {
  const std::string dir = std::string(EMBER_GOLDEN_DIR) + "/text/";
  T::GPT2BPETokenizer tok(dir + "gpt2_vocab.json", dir + "gpt2_merges.txt");
  const std::string text = "Hello world, how are you?";
  const std::vector<std::string> bpe_ids = tok->forward(text);
  std::vector<std::string> itos = {"<s>", "<pad>", "</s>", "<unk>"};
  for (const std::string& t : bpe_ids) itos.push_back(t);
  const ember::text::vocab::Vocab v(itos, 3);
  T::Sequential t =
      models::ROBERTA_BASE_ENCODER.with_gpt2_bpe(dir + "gpt2_vocab.json", dir + "gpt2_merges.txt", v).transform();
  const auto ids = std::get<std::vector<int64_t>>(t->forward(text));
  ASSERT_EQ(ids.size(), bpe_ids.size() + 2);
  EXPECT_EQ(ids.front(), 0);
  EXPECT_EQ(ids.back(), 2);
  for (size_t i = 0; i < bpe_ids.size(); ++i) EXPECT_EQ(ids[i + 1], v[bpe_ids[i]]);
  EXPECT_EMBER_ERROR(models::ROBERTA_BASE_ENCODER.transform(), "ROBERTA_BASE_ENCODER", "with_gpt2_bpe");
  const models::RobertaBundle mine(models::RobertaEncoderConf(50, 8, 16, 1, 10, 2, 1));
  EXPECT_EQ(mine.name, "RobertaBundle");
  EXPECT_EMBER_ERROR(mine.get_model(), "load_weights cannot be True");
}

TEST(TextModelsRobertaApi, BadInputRaisesNamingTheProblem) {
  models::RobertaModel m(models::RobertaEncoderConf(50, 8, 16, 1, 10, 2, 1));
  EXPECT_EMBER_ERROR(m->forward(ember::tensor({3, 4, 5}, ember::kLong)), "[batch, seq_len]", "[3]");
  EXPECT_EMBER_ERROR(m->forward(ember::ones({1, 3})), "int64", "float32");
  // max_seq_len 10 with padding_idx 1 places 8 tokens.
  EXPECT_EMBER_ERROR(m->forward(ember::full({1, 9}, 3, ember::kLong)), "9 tokens", "8 positions");
  EXPECT_EMBER_ERROR(m->forward(ember::full({1, 3}, 3, ember::kLong), ember::ones({1, 4}, ember::kBool)),
                     "masked_tokens", "[1, 4]");
  EXPECT_EMBER_ERROR(models::RobertaModel(models::RobertaEncoderConf(50, 10, 16, 1, 10, 3, 1)), "divisible");
  EXPECT_EMBER_ERROR(models::RobertaModel(models::RobertaEncoderConf(50, 8, 16, 60, 70, 2, 1)), "padding_idx", "60");
  models::roberta::modules::TransformerEncoder enc(
      models::roberta::modules::TransformerEncoderOptions(50, 8, 1, 10, 1, 2));
  EXPECT_EMBER_ERROR(enc->forward(ember::full({1, 3}, 3, ember::kLong), ember::ones({3, 3}, ember::kLong)),
                     "Only float or bool");
}

TEST(TextModelsRobertaApi, LegacyNamesAreTranslated) {
  models::StateDict sd = {{"encoder.transformer.layers.3.attention.input_projection.weight", Tensor()},
                          {"encoder.transformer.layers.layers.0.linear1.weight", Tensor()},
                          {"encoder.transformer.layers.1.residual_mlp.mlp.3.bias", Tensor()},
                          {"encoder.transformer.token_embedding.weight", Tensor()}};
  sd = models::roberta::modules::translate_legacy_state_dict(sd);
  EXPECT_EQ(sd[0].first, "encoder.transformer.layers.layers.3.self_attn.in_proj_weight");
  EXPECT_EQ(sd[1].first, "encoder.transformer.layers.layers.0.linear1.weight");
  EXPECT_EQ(sd[2].first, "encoder.transformer.layers.layers.1.linear2.bias");
  EXPECT_EQ(sd[3].first, "encoder.transformer.token_embedding.weight");
}

TEST(TextModelsRobertaApi, AllLayersAreReturnedWhenAsked) {
  models::roberta::modules::TransformerEncoder enc(
      models::roberta::modules::TransformerEncoderOptions(50, 8, 1, 10, 2, 2).return_all_layers(true).dropout(0.0));
  enc->eval();
  const Tensor x = ember::tensor({{3, 4, 5, 1}, {6, 7, 1, 1}}, ember::kLong);
  const auto states = enc->forward_all_layers(x);
  ASSERT_EQ(states.size(), 3u);
  for (const Tensor& s : states) EXPECT_EQ(s.sizes(), (std::vector<int64_t>{4, 2, 8}));
  EXPECT_EMBER_ERROR(enc->forward(x), "forward_all_layers");
}

}  // namespace
}  // namespace text_models_test
