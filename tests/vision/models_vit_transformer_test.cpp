// ember::vision::models VisionTransformer and the vit_* builders against
// torchvision 0.14 (tools/golden/gen_vision_models_vit.py): eval logits of
// small configurations under deterministic weights, state_dict keys and
// shapes of every builder, interpolate_embeddings, the legacy MLP key remap,
// and bad input.
#include <gtest/gtest.h>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/torch.h"
#include "ember/vision/models/vision_transformer.h"

namespace vision_models_vit_test {

void fill_deterministic(ember::nn::Module& model);
void expect_state_dict_layout(const ember::testing::Golden& g, const std::string& builder,
                              const ember::nn::Module& model);

namespace {

namespace models = ember::vision::models;
using ember::Tensor;
using ember::testing::Golden;

const Golden& golden() {
  static const Golden g("vision_models_vit.golden");
  return g;
}

models::VisionTransformerOptions small_options() {
  return models::VisionTransformerOptions(32, 8, 2, 2, 16, 32).num_classes(5);
}

models::VisionTransformerOptions stem_options() {
  return models::VisionTransformerOptions(32, 8, 1, 2, 16, 24)
      .num_classes(4)
      .conv_stem_configs(std::vector<models::ConvStemConfig>{{8, 3, 2}, {8, 3, 2}, {12, 3, 2}});
}

void expect_logits(const std::string& name, models::VisionTransformer model) {
  SCOPED_TRACE(name);
  fill_deterministic(*model);
  model->eval();
  ember::NoGradGuard no_grad;
  const Tensor y = model->forward(golden()["vit.x"]);
  EXPECT_TENSOR_CLOSE_TOL(y, golden()[name + ".y"], 1e-4, 1e-5);
}

TEST(VisionModelsViT, LogitsMatchTorchvision) {
  expect_logits("vit_small", models::VisionTransformer(small_options()));
  expect_logits("vit_repr", models::VisionTransformer(small_options().representation_size(6)));
  expect_logits("vit_stem", models::VisionTransformer(stem_options()));
}

TEST(VisionModelsViT, StateDictLayoutMatchesTorchvision) {
  expect_state_dict_layout(golden(), "vit_small", *models::VisionTransformer(small_options()));
  expect_state_dict_layout(golden(), "vit_stem", *models::VisionTransformer(stem_options()));
  expect_state_dict_layout(golden(), "vit_repr", *models::VisionTransformer(small_options().representation_size(6)));
}

// Golden entry `key` of builder b: its shape.
std::vector<int64_t> golden_shape(const std::string& b, const std::string& key) {
  const Tensor e = golden()["sd." + b + "/" + key];
  std::vector<int64_t> v(e.data_ptr<int64_t>() + 1, e.data_ptr<int64_t>() + e.numel());
  return v;
}

// The builders' configurations against torchvision's state_dict shapes
// (building the large models would allocate gigabytes; the key layout of the
// same code path is checked above on small configurations).
TEST(VisionModelsViT, BuilderConfigsMatchTorchvision) {
  for (const std::string b : {"vit_b_16", "vit_b_32", "vit_l_16", "vit_l_32", "vit_h_14"}) {
    SCOPED_TRACE(b);
    const auto c = models::vision_transformer_config(b);
    const std::string prefix = "sd." + b + "/";
    int64_t layers = 0;
    while (golden().has(prefix + "encoder.layers.encoder_layer_" + std::to_string(layers) + ".ln_1.weight")) ++layers;
    EXPECT_EQ(c.num_layers(), layers);
    EXPECT_EQ(golden().names_with_prefix(prefix).size(), static_cast<size_t>(8 + 12 * layers));
    EXPECT_EQ(golden_shape(b, "conv_proj.weight"),
              (std::vector<int64_t>{c.hidden_dim(), 3, c.patch_size(), c.patch_size()}));
    const int64_t grid = c.image_size() / c.patch_size();
    EXPECT_EQ(golden_shape(b, "encoder.pos_embedding"), (std::vector<int64_t>{1, grid * grid + 1, c.hidden_dim()}));
    EXPECT_EQ(golden_shape(b, "encoder.layers.encoder_layer_0.mlp.0.weight"),
              (std::vector<int64_t>{c.mlp_dim(), c.hidden_dim()}));
    EXPECT_EQ(golden_shape(b, "heads.head.weight"), (std::vector<int64_t>{c.num_classes(), c.hidden_dim()}));
    EXPECT_EQ(c.hidden_dim() % c.num_heads(), 0);
  }
  // The builder passes its keyword arguments on.
  const auto c = models::vision_transformer_config(
      "vit_b_16", models::VisionTransformerKwargs().image_size(384).num_classes(10).representation_size(7));
  EXPECT_EQ(c.image_size(), 384);
  EXPECT_EQ(c.num_classes(), 10);
  EXPECT_EQ(c.representation_size(), 7);
}

TEST(VisionModelsViT, InterpolateEmbeddingsMatchesTorchvision) {
  models::VisionTransformer model(small_options());
  fill_deterministic(*model);
  for (const std::string mode : {"bicubic", "bilinear"}) {
    SCOPED_TRACE(mode);
    const auto state = models::interpolate_embeddings(48, 8, model->state_dict(), mode);
    EXPECT_TENSOR_CLOSE_TOL(state["encoder.pos_embedding"], golden()["vit_interp_" + mode + ".pos_embedding"], 1e-5,
                            1e-6);
    EXPECT_EQ(state.size(), model->state_dict().size());
    // The interpolated state loads into a model for the new image size.
    models::VisionTransformer bigger(models::VisionTransformerOptions(48, 8, 2, 2, 16, 32).num_classes(5));
    bigger->load_state_dict(state);
  }
  const auto reset = models::interpolate_embeddings(48, 8, model->state_dict(), "bicubic", true);
  EXPECT_FALSE(reset.contains("heads.head.weight"));
  EXPECT_EMBER_ERROR(models::interpolate_embeddings(48, 8, model->state_dict(), "nearest"), "interpolate_embeddings",
                     "nearest");
  EXPECT_EMBER_ERROR(models::interpolate_embeddings(48, 8, ember::OrderedDict<std::string, Tensor>{}),
                     "interpolate_embeddings", "encoder.pos_embedding");
}

TEST(VisionModelsViT, LoadsLegacyMlpKeys) {
  models::VisionTransformer model(small_options());
  fill_deterministic(*model);
  model->eval();
  std::vector<std::pair<std::string, Tensor>> legacy;
  for (const auto& item : model->state_dict()) {
    std::string key = item.key();
    for (const auto& [from, to] :
         {std::pair<std::string, std::string>{"mlp.0.", "mlp.linear_1."}, {"mlp.3.", "mlp.linear_2."}}) {
      const auto pos = key.find(from);
      if (pos != std::string::npos) key.replace(pos, from.size(), to);
    }
    legacy.emplace_back(key, item.value().clone());
  }
  models::VisionTransformer loaded(small_options());
  loaded->load_state_dict(legacy);
  loaded->eval();
  ember::NoGradGuard no_grad;
  EXPECT_TENSOR_EQ(loaded->forward(golden()["vit.x"]), model->forward(golden()["vit.x"]));
}

TEST(VisionModelsViT, CloneKeepsTheFunction) {
  models::VisionTransformer model(small_options().representation_size(6));
  fill_deterministic(*model);
  model->eval();
  auto copy = std::dynamic_pointer_cast<models::VisionTransformerImpl>(model->clone());
  ASSERT_TRUE(copy != nullptr);
  ember::NoGradGuard no_grad;
  const Tensor y = copy->forward(golden()["vit.x"]);
  EXPECT_TENSOR_EQ(y, model->forward(golden()["vit.x"]));
  EXPECT_TENSOR_CLOSE_TOL(y, golden()["vit_repr.y"], 1e-4, 1e-5);
  // The copy owns its parameters.
  copy->class_token.add_(1.0);
  EXPECT_FALSE(ember::equal(copy->class_token, model->class_token));
}

TEST(VisionModelsViT, TrainModeDropoutKeepsShape) {
  models::VisionTransformer model(small_options().dropout(0.5).attention_dropout(0.5));
  model->train();
  const Tensor y = model->forward(golden()["vit.x"]);
  EXPECT_EQ(y.sizes(), (std::vector<int64_t>{2, 5}));
  y.sum().backward();
  EXPECT_TRUE(model->class_token.grad().defined());
}

// An empty batch either runs or raises ember::Error, never crashes.
TEST(VisionModelsViT, EmptyBatchRunsOrRaises) {
  models::VisionTransformer model(small_options());
  model->eval();
  ember::NoGradGuard no_grad;
  try {
    EXPECT_EQ(model->forward(ember::rand({0, 3, 32, 32})).sizes(), (std::vector<int64_t>{0, 5}));
  } catch (const ember::Error&) {
  }
}

TEST(VisionModelsViT, BadInputRaisesNamingTheModel) {
  models::VisionTransformer model(small_options());
  EXPECT_EMBER_ERROR(model->forward(ember::rand({1, 3, 48, 32})), "VisionTransformer", "height", "32", "48");
  EXPECT_EMBER_ERROR(model->forward(ember::rand({1, 3, 32, 40})), "VisionTransformer", "width", "40");
  EXPECT_EMBER_ERROR(model->forward(ember::rand({1, 4, 32, 32})), "VisionTransformer", "channels", "4");
  EXPECT_EMBER_ERROR(model->forward(ember::rand({3, 32, 32})), "VisionTransformer", "4-D");
  EXPECT_EMBER_ERROR(model->forward(ember::zeros({1, 3, 32, 32}, ember::kByte)), "VisionTransformer", "floating");
  EXPECT_EMBER_ERROR(models::VisionTransformer(models::VisionTransformerOptions(30, 8, 1, 2, 16, 32)),
                     "VisionTransformer", "indivisible", "30");
  EXPECT_EMBER_ERROR(models::vision_transformer_config("vit_x_1"), "vision_transformer_config", "vit_x_1");
}

}  // namespace

}  // namespace vision_models_vit_test
