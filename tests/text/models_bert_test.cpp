// BertModel against the reference BERT of tools/golden/gen_text_models_bert.py
// (Hugging Face's module names and math in plain torch.nn): state_dict names and
// shapes in order, and with the generator's deterministic weights the last hidden
// state and pooler output under a padding mask and token types, without a mask,
// with a row of all-masked keys, a per-pair [B, T, T] mask and explicit position
// ids; parameter gradients; a state_dict torch saved loads. Bad input raises
// naming BertModel. OpInfo entries run gradcheck/gradgradcheck on the word table.
#include <gtest/gtest.h>

#include "autograd/opinfo.h"
#include "common/golden.h"
#include "common/test_util.h"
#include "ember/serialize/pt_reader.h"
#include "ember/text/models/bert.h"
#include "ember/torch.h"
#include "models_roberta_util.h"

namespace text_models_test {
namespace {

namespace models = ember::text::models;
using ember::Tensor;
using ember::testing::Golden;

const Golden& golden() {
  static const Golden g("text/models_bert.golden");
  return g;
}

// The generator's CONFIGS (dropout at its 0.1 default; the tests run in eval).
models::BertConfig config(const std::string& name) {
  if (name == "small") {
    return models::BertConfig()
        .vocab_size(30)
        .hidden_size(16)
        .num_hidden_layers(2)
        .num_attention_heads(4)
        .intermediate_size(32)
        .hidden_act("gelu")
        .max_position_embeddings(12)
        .type_vocab_size(2)
        .layer_norm_eps(1e-12)
        .pad_token_id(0);
  }
  return models::BertConfig()
      .vocab_size(25)
      .hidden_size(12)
      .num_hidden_layers(1)
      .num_attention_heads(3)
      .intermediate_size(20)
      .hidden_act("gelu_new")
      .max_position_embeddings(9)
      .type_vocab_size(3)
      .layer_norm_eps(1e-5)
      .pad_token_id(1);
}

models::BertModel filled(const std::string& name) {
  models::BertModel model(config(name));
  fill_deterministic(*model);
  model->eval();
  return model;
}

void expect_close(const Tensor& ours, const std::string& name) {
  SCOPED_TRACE(name);
  EXPECT_TENSOR_CLOSE_TOL(ours, golden()[name], 1e-4, 1e-5);
}

const char* const kConfigs[] = {"small", "odd"};

TEST(TextModelsBert, StateDictNamesAndShapesAreHuggingFaces) {
  for (const char* name : kConfigs) {
    SCOPED_TRACE(name);
    models::BertModel model(config(name));
    EXPECT_EQ(model_keys(*model), read_keys(std::string("bert_") + name));
  }
}

TEST(TextModelsBert, OutputsMatchReference) {
  ember::NoGradGuard no_grad;
  for (const std::string name : kConfigs) {
    models::BertModel model = filled(name);
    const Tensor ids = golden()[name + ".input_ids"];
    const Tensor mask = golden()[name + ".attention_mask"];
    const Tensor types = golden()[name + ".token_type_ids"];
    auto [last, pooled] = model->forward(ids, mask, types);
    expect_close(last, name + ".last_hidden_state");
    expect_close(pooled, name + ".pooler_output");
    auto [last0, pooled0] = model->forward(ids);
    expect_close(last0, name + ".nomask.last_hidden_state");
    expect_close(pooled0, name + ".nomask.pooler_output");
    expect_close(std::get<0>(model->forward(ids, golden()[name + ".allmasked.attention_mask"], types)),
                 name + ".allmasked.last_hidden_state");
    expect_close(std::get<0>(model->forward(ids, golden()[name + ".pairmask.attention_mask"], types)),
                 name + ".pairmask.last_hidden_state");
    expect_close(std::get<0>(model->forward(ids, mask, types, golden()[name + ".position_ids"])),
                 name + ".positions.last_hidden_state");
    // A bool mask means the same as the 0/1 one.
    expect_close(std::get<0>(model->forward(ids, mask.to(ember::kBool), types)), name + ".last_hidden_state");
  }
}

TEST(TextModelsBert, GradientsMatchReference) {
  for (const std::string name : kConfigs) {
    models::BertModel model = filled(name);
    auto [last, pooled] = model->forward(golden()[name + ".input_ids"], golden()[name + ".attention_mask"],
                                         golden()[name + ".token_type_ids"]);
    const Tensor w1 = ember::linspace(-1, 1, last.numel()).reshape(last.sizes());
    const Tensor w2 = ember::linspace(1, -1, pooled.numel()).reshape(pooled.sizes());
    ((last * w1).sum() + (pooled * w2).sum()).backward();
    const auto params = model->named_parameters();
    for (const std::string& golden_name : golden().names_with_prefix(name + ".grad.")) {
      const std::string pname = golden_name.substr(name.size() + 6);
      SCOPED_TRACE(golden_name);
      ASSERT_TRUE(params.contains(pname));
      EXPECT_TENSOR_CLOSE_TOL(params[pname].grad(), golden()[golden_name], 1e-4, 1e-5);
    }
  }
}

TEST(TextModelsBert, StateDictSavedByTorchLoads) {
  models::BertModel model(config("small"));
  const auto result = model->load_state_dict(
      ember::serialize::load_pytorch_state_dict(std::string(EMBER_GOLDEN_DIR) + "/text/models/tiny_bert.pt"));
  EXPECT_TRUE(result.missing_keys.empty());
  EXPECT_TRUE(result.unexpected_keys.empty());
  model->eval();
  ember::NoGradGuard no_grad;
  auto [last, pooled] =
      model->forward(golden()["small.input_ids"], golden()["small.attention_mask"], golden()["small.token_type_ids"]);
  expect_close(last, "checkpoint.last_hidden_state");
  expect_close(pooled, "checkpoint.pooler_output");
  // A clone computes the same, with its own parameters.
  auto copy = std::dynamic_pointer_cast<models::BertModelImpl>(model->clone());
  ASSERT_TRUE(copy);
  EXPECT_NE(copy->pooler->dense->weight.data_ptr(), model->pooler->dense->weight.data_ptr());
  expect_close(std::get<1>(copy->forward(golden()["small.input_ids"], golden()["small.attention_mask"],
                                         golden()["small.token_type_ids"])),
               "checkpoint.pooler_output");
}

TEST(TextModelsBert, OlderCheckpointsPositionIdsBufferLoadsNonStrict) {
  models::BertModel model(config("small"));
  auto sd = ember::serialize::load_pytorch_state_dict(std::string(EMBER_GOLDEN_DIR) + "/text/models/tiny_bert.pt");
  sd.emplace_back("embeddings.position_ids",
                  ember::arange(12, ember::TensorOptions().dtype(ember::kLong)).unsqueeze(0));
  EXPECT_EMBER_ERROR(model->load_state_dict(sd), "embeddings.position_ids");
  const auto result = model->load_state_dict(sd, /*strict=*/false);
  EXPECT_EQ(result.unexpected_keys, std::vector<std::string>{"embeddings.position_ids"});
  EXPECT_TRUE(result.missing_keys.empty());
}

TEST(TextModelsBert, DefaultsAndInitialisation) {
  const models::BertConfig c;
  EXPECT_EQ(c.vocab_size(), 30522);
  EXPECT_EQ(c.hidden_size(), 768);
  EXPECT_EQ(c.num_hidden_layers(), 12);
  EXPECT_EQ(c.num_attention_heads(), 12);
  EXPECT_EQ(c.intermediate_size(), 3072);
  EXPECT_EQ(c.hidden_act(), "gelu");
  EXPECT_EQ(c.max_position_embeddings(), 512);
  EXPECT_EQ(c.type_vocab_size(), 2);
  EXPECT_DOUBLE_EQ(c.layer_norm_eps(), 1e-12);
  EXPECT_EQ(c.pad_token_id(), 0);
  models::BertModel model(config("odd"));
  EXPECT_TRUE(model->embeddings->word_embeddings->weight[1].eq(0).all().item<bool>());
  EXPECT_TRUE(
      model->encoder->layer[0]->as<models::bert::BertLayerImpl>()->output->LayerNorm->weight.eq(1).all().item<bool>());
  EXPECT_TRUE(model->pooler->dense->bias.eq(0).all().item<bool>());
  const double sd =
      model->encoder->layer[0]->as<models::bert::BertLayerImpl>()->intermediate->dense->weight.std().item<double>();
  EXPECT_NEAR(sd, 0.02, 0.005);
  // Without the pooler: no pooler keys, an undefined pooler_output.
  models::BertModel bare(config("small"), false);
  for (const auto& item : bare->state_dict()) EXPECT_EQ(item.key().rfind("pooler.", 0), std::string::npos);
  auto [last, pooled] = bare->forward(ember::tensor({{2, 3}}, ember::kLong));
  EXPECT_EQ(last.sizes(), (std::vector<int64_t>{1, 2, 16}));
  EXPECT_FALSE(pooled.defined());
}

TEST(TextModelsBert, TrainingAppliesDropout) {
  models::BertModel model(config("small").hidden_dropout_prob(0.5));
  model->train();
  const Tensor ids = golden()["small.input_ids"];
  ember::manual_seed(1);
  const Tensor a = std::get<0>(model->forward(ids));
  const Tensor b = std::get<0>(model->forward(ids));
  EXPECT_FALSE(ember::allclose(a, b));
  // Attention dropout alone also acts in training only.
  models::BertModel attn(config("small").hidden_dropout_prob(0).attention_probs_dropout_prob(0.5));
  fill_deterministic(*attn);
  attn->train();
  const Tensor c = std::get<0>(attn->forward(ids));
  const Tensor d = std::get<0>(attn->forward(ids));
  EXPECT_FALSE(ember::allclose(c, d));
  attn->eval();
  ember::NoGradGuard no_grad;
  expect_close(std::get<0>(attn->forward(ids)), "small.nomask.last_hidden_state");
  model->eval();
  EXPECT_TENSOR_CLOSE(std::get<0>(model->forward(ids)), std::get<0>(model->forward(ids)));
}

TEST(TextModelsBert, BadInputRaisesNamingBertModel) {
  models::BertModel model(config("small"));
  const Tensor ids = ember::tensor({{2, 3, 4}, {5, 6, 7}}, ember::kLong);
  EXPECT_EMBER_ERROR(model->forward(ember::tensor({2, 3}, ember::kLong)), "BertModel", "input_ids", "[2]");
  EXPECT_EMBER_ERROR(model->forward(ember::zeros({1, 2, 3}, ember::TensorOptions().dtype(ember::kLong))), "BertModel");
  EXPECT_EMBER_ERROR(model->forward(ember::tensor({{2, 30}}, ember::kLong)), "BertModel", "input_ids", "30");
  EXPECT_EMBER_ERROR(model->forward(ember::tensor({{-1, 3}}, ember::kLong)), "BertModel", "input_ids", "-1");
  EXPECT_EMBER_ERROR(model->forward(ember::tensor({{2.0, 3.0}})), "BertModel", "dtype");
  EXPECT_EMBER_ERROR(model->forward(ember::zeros({1, 13}, ember::TensorOptions().dtype(ember::kLong))), "BertModel",
                     "13", "max_position_embeddings");
  EXPECT_EMBER_ERROR(model->forward(ember::zeros({1, 0}, ember::TensorOptions().dtype(ember::kLong))), "BertModel");
  EXPECT_EMBER_ERROR(model->forward(ids, ember::ones({2, 4})), "BertModel", "attention_mask", "[2, 4]");
  EXPECT_EMBER_ERROR(model->forward(ids, ember::ones({3, 3})), "BertModel", "attention_mask");
  EXPECT_EMBER_ERROR(model->forward(ids, ember::ones({2, 3, 2})), "BertModel", "attention_mask");
  EXPECT_EMBER_ERROR(model->forward(ids, std::nullopt, ember::tensor({{0, 1, 2}, {0, 0, 0}}, ember::kLong)),
                     "BertModel", "token_type_ids", "2");
  EXPECT_EMBER_ERROR(
      model->forward(ids, std::nullopt, ember::zeros({2, 2}, ember::TensorOptions().dtype(ember::kLong))), "BertModel",
      "token_type_ids", "[2, 2]");
  EXPECT_EMBER_ERROR(model->forward(ids, std::nullopt, std::nullopt, ember::tensor({{0, 1, 12}}, ember::kLong)),
                     "BertModel", "position_ids", "12");
  EXPECT_EMBER_ERROR(models::BertModel(config("small").num_attention_heads(5)), "BertModel", "num_attention_heads",
                     "5");
  EXPECT_EMBER_ERROR(models::BertModel(config("small").hidden_act("mish")), "BertModel", "mish");
  EXPECT_EMBER_ERROR(models::BertModel(config("small").pad_token_id(30)), "BertModel", "pad_token_id", "30");
  EXPECT_EMBER_ERROR(models::BertModel(config("small").vocab_size(0)), "BertModel", "vocab_size");
  EXPECT_EMBER_ERROR(models::BertModel(config("small").position_embedding_type("relative_key")), "BertModel",
                     "relative_key");
}

// gradcheck and gradgradcheck (float64) of the outputs in the word table: every
// position under a padding mask (the masked key is the only one the table's id
// 2 reaches there), the pooler's tanh and all of a layer. Other weights fixed.
Tensor bert_outputs(const std::vector<Tensor>& x) {
  models::BertModel model(models::BertConfig()
                              .vocab_size(6)
                              .hidden_size(4)
                              .num_hidden_layers(1)
                              .num_attention_heads(2)
                              .intermediate_size(4)
                              .max_position_embeddings(4)
                              .hidden_dropout_prob(0)
                              .attention_probs_dropout_prob(0));
  model->to(x[0].scalar_type());
  fill_deterministic(*model);
  for (Tensor& p : model->parameters()) p.set_requires_grad(false);
  model->eval();
  model->embeddings->word_embeddings->weight = x[0];
  const Tensor ids = ember::tensor({{2, 3, 4}, {5, 1, 2}}, ember::kLong);
  const Tensor mask = ember::tensor({{1, 1, 1}, {1, 1, 0}}, ember::kLong);
  const Tensor types = ember::tensor({{0, 0, 1}, {0, 1, 1}}, ember::kLong);
  auto [last, pooled] = model->forward(ids, mask, types);
  const Tensor direction = ember::sin(ember::arange(4, last.options()) * 0.7 + 0.3);
  return ember::cat({last.matmul(direction).reshape({-1}), pooled.matmul(direction)});
}

ember::testing::RegisterOps reg({
    ember::testing::single_output_op("text::models::BertModel(word table)", bert_outputs, {{6, 4}}, -1, 1, 3821),
});

}  // namespace
}  // namespace text_models_test
