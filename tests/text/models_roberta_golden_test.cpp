// torchtext 0.14.1's RobertaModel against ours (tools/golden/gen_text_models.py):
// state_dict names and shapes in torchtext's order, and with the generator's
// deterministic weights the outputs of eval without gradients (torch's
// nested-tensor path), eval with gradients (the masked path, and the
// parameters' gradients) and training with dropout 0, on batches with pads at
// row ends, inside a row and in every row; checkpoints torchtext saved load.
#include <gtest/gtest.h>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/text/models.h"
#include "ember/torch.h"
#include "models_roberta_util.h"

namespace text_models_test {
namespace {

namespace models = ember::text::models;
using ember::Tensor;
using ember::testing::Golden;

const Golden& golden() {
  static const Golden g("text_models.golden");
  return g;
}

const char* const kConfigs[] = {"post_norm", "pre_norm", "odd_heads"};

void expect_close(const Tensor& ours, const std::string& name) {
  SCOPED_TRACE(name);
  const Tensor theirs = golden()[name];
  ASSERT_EQ(ours.sizes(), theirs.sizes());
  EXPECT_TENSOR_CLOSE_TOL(ours.to(ember::kDouble), theirs.to(ember::kDouble), 1e-4, 1e-5);
}

TEST(TextModelsRoberta, StateDictNamesAndShapesAreTorchtexts) {
  for (const char* config : kConfigs) {
    SCOPED_TRACE(config);
    models::RobertaModel model = build_config(config);
    const auto ours = model_keys(*model);
    const auto theirs = read_keys(config);
    ASSERT_EQ(ours.size(), theirs.size());
    for (size_t i = 0; i < ours.size(); ++i) {
      EXPECT_EQ(ours[i].name, theirs[i].name) << "at state_dict index " << i;
      EXPECT_EQ(ours[i].shape, theirs[i].shape) << ours[i].name;
    }
  }
}

TEST(TextModelsRoberta, EvalWithoutGradientsMatchesTorchtext) {
  for (const std::string config : kConfigs) {
    SCOPED_TRACE(config);
    models::RobertaModel model = build_config(config);
    fill_deterministic(*model);
    model->eval();
    ember::NoGradGuard no_grad;
    const Tensor x = golden()[config + ".tokens"];
    const Tensor x_short = golden()[config + ".tokens_short"];
    expect_close(model->forward(x), config + ".eval_nograd");
    expect_close(model->forward(x_short), config + ".eval_nograd_short");
    expect_close(model->encoder->forward(x), config + ".features_nograd");
    expect_close(model->encoder->forward(x_short), config + ".features_nograd_short");
    expect_close(model->encoder->forward(x, golden()[config + ".masked_tokens"]), config + ".features_masked");
  }
}

TEST(TextModelsRoberta, EvalWithGradientsMatchesTorchtextAndItsGradients) {
  for (const std::string config : kConfigs) {
    SCOPED_TRACE(config);
    models::RobertaModel model = build_config(config);
    fill_deterministic(*model);
    model->eval();
    const Tensor y = model->forward(golden()[config + ".tokens"]);
    expect_close(y.detach(), config + ".eval_grad");
    const Tensor w = ember::linspace(-1, 1, y.numel()).reshape(y.sizes());
    (y * w).sum().backward();
    int checked = 0;
    for (const auto& item : model->named_parameters()) {
      const std::string name = config + ".grad." + item.key();
      if (!golden().has(name)) continue;
      expect_close(item.value().grad(), name);
      ++checked;
    }
    EXPECT_GE(checked, 5);
  }
}

TEST(TextModelsRoberta, FrozenEncoderInEvalMatchesTorchtextWithGradientsOn) {
  for (const std::string config : kConfigs) {
    SCOPED_TRACE(config);
    const models::RobertaModel built = build_config(config);
    models::RobertaModel model(built->encoder_conf, ember::nn::AnyModule(), true);
    fill_deterministic(*model);
    model->eval();
    expect_close(model->forward(golden()[config + ".tokens"]), config + ".frozen_eval_grad");
  }
}

TEST(TextModelsRoberta, TrainingModeWithoutDropoutMatchesTorchtext) {
  for (const std::string config : kConfigs) {
    SCOPED_TRACE(config);
    models::RobertaModel model = build_config(config, 0.0);
    fill_deterministic(*model);
    model->train();
    const Tensor x = golden()[config + ".tokens"];
    expect_close(model->forward(x).detach(), config + ".train");
    ember::NoGradGuard no_grad;
    expect_close(model->encoder->forward(x), config + ".train_features");
  }
}

TEST(TextModelsRoberta, DropoutIsActiveInTrainingOnly) {
  models::RobertaModel model = build_config("pre_norm", 0.5);
  fill_deterministic(*model);
  const Tensor x = golden()["pre_norm.tokens"];
  ember::NoGradGuard no_grad;
  model->train();
  const Tensor a = model->forward(x);
  const Tensor b = model->forward(x);
  EXPECT_FALSE(ember::testing::tensors_close(a, b, 1e-6, 1e-6));
  model->eval();
  EXPECT_TENSOR_EQ(model->forward(x), model->forward(x));
}

TEST(TextModelsRoberta, EveryLayersStateMatchesTorchtext) {
  namespace mods = models::roberta::modules;
  for (const auto& [config, options] :
       {std::pair<std::string, mods::TransformerEncoderOptions>{
            "post_norm", mods::TransformerEncoderOptions(40, 16, 1, 20, 2, 2).ffn_dimension(32)},
        {"pre_norm", mods::TransformerEncoderOptions(30, 16, 0, 16, 2, 4).ffn_dimension(24).normalize_before(true)}}) {
    SCOPED_TRACE(config);
    mods::TransformerEncoder enc(mods::TransformerEncoderOptions(options).return_all_layers(true));
    fill_deterministic(*enc);
    enc->eval();
    ember::NoGradGuard no_grad;
    const auto states = enc->forward_all_layers(golden()[config + ".tokens"]);
    ASSERT_EQ(states.size(), 3u);
    for (size_t i = 0; i < states.size(); ++i) expect_close(states[i], config + ".all_layers." + std::to_string(i));
  }
}

TEST(TextModelsRoberta, StandaloneEncoderLayerMatchesTorchtext) {
  namespace mods = models::roberta::modules;
  for (const auto& [config, pre] : {std::pair<std::string, bool>{"layer_post_norm", false}, {"layer_pre_norm", true}}) {
    SCOPED_TRACE(config);
    mods::TransformerEncoderLayer layer(
        mods::TransformerEncoderLayerOptions(16, 2).ffn_dimension(32).normalize_before(pre));
    const auto theirs = read_keys(config);
    const auto ours = model_keys(*layer);
    ASSERT_EQ(ours.size(), theirs.size());
    for (size_t i = 0; i < ours.size(); ++i) EXPECT_EQ(ours[i], theirs[i]) << ours[i].name << " vs " << theirs[i].name;
    fill_deterministic(*layer);
    layer->eval();
    const Tensor x = golden()[config + ".input"];
    const Tensor pad = golden()[config + ".key_padding_mask"];
    expect_close(layer->forward(x, pad).detach(), config + ".eval_grad");
    ember::NoGradGuard no_grad;
    expect_close(layer->forward(x, pad), config + ".eval_nograd");
  }
  models::StateDict legacy = {{"l.attention.input_projection.weight", Tensor()}, {"l.final_layer_norm.bias", Tensor()}};
  legacy = mods::translate_legacy_layer_state_dict(legacy, "l.");
  EXPECT_EQ(legacy[0].first, "l.better_transformer.self_attn.in_proj_weight");
  EXPECT_EQ(legacy[1].first, "l.better_transformer.norm2.bias");
}

TEST(TextModelsRoberta, CheckpointsSavedByTorchtextLoad) {
  const std::string dir = std::string(EMBER_GOLDEN_DIR) + "/text/models/";
  const models::RobertaEncoderConf conf(40, 16, 32, 1, 20, 2, 2);
  const Tensor x = golden()["post_norm.tokens"];
  for (const auto& [file, golden_name] : {std::pair<std::string, std::string>{"tiny_roberta.pt", "checkpoint.features"},
                                          {"tiny_roberta_legacy.pt", "checkpoint_legacy.features"}}) {
    SCOPED_TRACE(file);
    models::RobertaModel model = models::RobertaBundle::build_model(conf, {}, false, dir + file);
    model->eval();
    ember::NoGradGuard no_grad;
    expect_close(model->forward(x), golden_name);
  }
  // The same weights through a bundle: an encoder-only checkpoint and a new head.
  models::RobertaBundle bundle("TINY", conf, "https://example.invalid/tiny_roberta_legacy.pt");
  models::RobertaClassificationHead head(3, 16, 8);
  const Tensor head_weight = head->dense->weight.clone();
  models::RobertaModel model = bundle.with_path(dir + "tiny_roberta_legacy.pt").get_model(head);
  model->eval();
  ember::NoGradGuard no_grad;
  expect_close(model->encoder->forward(x), "checkpoint_legacy.features");
  EXPECT_TENSOR_EQ(head->dense->weight, head_weight);
  EXPECT_EQ(model->forward(x).sizes(), (std::vector<int64_t>{3, 3}));
}

}  // namespace
}  // namespace text_models_test
