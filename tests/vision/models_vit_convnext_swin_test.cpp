// ember::vision::models ConvNeXt and SwinTransformer (v1 and v2) against
// torchvision 0.14 (tools/golden/gen_vision_models_vit.py): eval logits of
// small configurations under deterministic weights (padded and shifted
// windows, rectangular windows), the key layout, every builder's
// configuration read back from torchvision's state_dict shapes, and bad input.
#include <gtest/gtest.h>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/torch.h"
#include "ember/vision/models/convnext.h"
#include "ember/vision/models/swin_transformer.h"

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

std::vector<int64_t> golden_shape(const std::string& b, const std::string& key) {
  const Tensor e = golden()["sd." + b + "/" + key];
  return std::vector<int64_t>(e.data_ptr<int64_t>() + 1, e.data_ptr<int64_t>() + e.numel());
}

bool golden_has(const std::string& b, const std::string& key) { return golden().has("sd." + b + "/" + key); }

template <typename Model>
void expect_logits(const std::string& name, const std::string& input, Model model) {
  SCOPED_TRACE(name);
  fill_deterministic(*model);
  model->eval();
  ember::NoGradGuard no_grad;
  const Tensor y = model->forward(golden()[input]);
  EXPECT_TENSOR_CLOSE_TOL(y, golden()[name + ".y"], 1e-4, 1e-5);
}

models::ConvNeXtOptions convnext_small_cfg() {
  return models::ConvNeXtOptions({{8, 16, 1}, {16, std::nullopt, 2}}).num_classes(5);
}

TEST(VisionModelsConvNeXt, LogitsAndLayoutMatchTorchvision) {
  expect_logits("convnext_small_cfg", "convnext.x", models::ConvNeXt(convnext_small_cfg()));
  expect_state_dict_layout(golden(), "convnext_small_cfg", *models::ConvNeXt(convnext_small_cfg()));
}

// Each builder's block_setting read back from torchvision's shapes: stage s
// lives at features.(2s+1), its downsampling at features.(2s+2).
TEST(VisionModelsConvNeXt, BuilderConfigsMatchTorchvision) {
  for (const std::string b : {"convnext_tiny", "convnext_small", "convnext_base", "convnext_large"}) {
    SCOPED_TRACE(b);
    const auto c = models::convnext_config(b);
    const auto& setting = c.block_setting();
    ASSERT_EQ(setting.size(), 4u);
    int64_t feature = 1;
    for (const auto& stage : setting) {
      int64_t blocks = 0;
      const std::string p = "features." + std::to_string(feature) + ".";
      while (golden_has(b, p + std::to_string(blocks) + ".layer_scale")) {
        EXPECT_EQ(golden_shape(b, p + std::to_string(blocks) + ".layer_scale"),
                  (std::vector<int64_t>{stage.input_channels, 1, 1}));
        ++blocks;
      }
      EXPECT_EQ(blocks, stage.num_layers);
      const std::string down = "features." + std::to_string(feature + 1) + ".1.weight";
      ASSERT_EQ(golden_has(b, down), stage.out_channels.has_value());
      if (stage.out_channels) {
        EXPECT_EQ(golden_shape(b, down), (std::vector<int64_t>{*stage.out_channels, stage.input_channels, 2, 2}));
      }
      feature += stage.out_channels ? 2 : 1;
    }
    EXPECT_EQ(golden_shape(b, "classifier.2.weight"),
              (std::vector<int64_t>{c.num_classes(), setting.back().input_channels}));
  }
  EXPECT_DOUBLE_EQ(models::convnext_config("convnext_tiny").stochastic_depth_prob(), 0.1);
  EXPECT_DOUBLE_EQ(models::convnext_config("convnext_large").stochastic_depth_prob(), 0.5);
  EXPECT_DOUBLE_EQ(models::convnext_config("convnext_base", models::ConvNeXtKwargs().stochastic_depth_prob(0.25))
                       .stochastic_depth_prob(),
                   0.25);
}

TEST(VisionModelsConvNeXt, TrainModeStochasticDepthKeepsShape) {
  models::ConvNeXt model(convnext_small_cfg().stochastic_depth_prob(0.5));
  model->train();
  const Tensor y = model->forward(ember::rand({2, 3, 32, 32}));
  EXPECT_EQ(y.sizes(), (std::vector<int64_t>{2, 5}));
}

TEST(VisionModelsConvNeXt, BadInputRaisesNamingTheModel) {
  models::ConvNeXt model(convnext_small_cfg());
  EXPECT_EMBER_ERROR(model->forward(ember::rand({1, 1, 32, 32})), "ConvNeXt", "channels", "1");
  EXPECT_EMBER_ERROR(model->forward(ember::rand({3, 32, 32})), "ConvNeXt", "4-D");
  EXPECT_EMBER_ERROR(model->forward(ember::zeros({1, 3, 32, 32}, ember::kInt)), "ConvNeXt", "floating");
  EXPECT_EMBER_ERROR(model->forward(ember::rand({1, 3, 4, 32})), "ConvNeXt", "too small");
  EXPECT_EMBER_ERROR(models::ConvNeXt(models::ConvNeXtOptions(std::vector<models::CNBlockConfig>{})), "ConvNeXt",
                     "block_setting");
  EXPECT_EMBER_ERROR(models::convnext_config("convnext_huge"), "convnext_config", "convnext_huge");
}

models::SwinTransformerOptions swin_small_cfg(bool v2) {
  models::SwinTransformerOptions o({4, 4}, 8, {2, 2}, {2, 4}, {4, 4});
  o.num_classes(5);
  if (v2) o.block(models::swin_transformer_block_v2()).downsample_layer(models::patch_merging_v2());
  return o;
}

models::SwinTransformerOptions swin_rect_cfg(bool v2) {
  models::SwinTransformerOptions o({4, 4}, 8, {2}, {2}, {3, 4});
  o.num_classes(3);
  if (v2) o.block(models::swin_transformer_block_v2()).downsample_layer(models::patch_merging_v2());
  return o;
}

TEST(VisionModelsSwin, LogitsMatchTorchvision) {
  expect_logits("swin_small_cfg", "swin.x", models::SwinTransformer(swin_small_cfg(false)));
  expect_logits("swin_v2_small_cfg", "swin.x", models::SwinTransformer(swin_small_cfg(true)));
  expect_logits("swin_rect_cfg", "swin.x", models::SwinTransformer(swin_rect_cfg(false)));
  expect_logits("swin_v2_rect_cfg", "swin.x", models::SwinTransformer(swin_rect_cfg(true)));
}

TEST(VisionModelsSwin, StateDictLayoutMatchesTorchvision) {
  expect_state_dict_layout(golden(), "swin_small_cfg", *models::SwinTransformer(swin_small_cfg(false)));
  expect_state_dict_layout(golden(), "swin_v2_small_cfg", *models::SwinTransformer(swin_small_cfg(true)));
}

// Each builder's configuration read back from torchvision's shapes.
TEST(VisionModelsSwin, BuilderConfigsMatchTorchvision) {
  for (const std::string b : {"swin_t", "swin_s", "swin_b", "swin_v2_t", "swin_v2_s", "swin_v2_b"}) {
    SCOPED_TRACE(b);
    const auto c = models::swin_transformer_config(b);
    const bool v2 = b.rfind("swin_v2", 0) == 0;
    EXPECT_EQ(golden_shape(b, "features.0.0.weight"),
              (std::vector<int64_t>{c.embed_dim(), 3, c.patch_size()[0], c.patch_size()[1]}));
    ASSERT_EQ(c.depths().size(), 4u);
    for (size_t s = 0; s < 4; ++s) {
      const std::string p = "features." + std::to_string(2 * s + 1) + ".";
      int64_t blocks = 0;
      while (golden_has(b, p + std::to_string(blocks) + ".norm1.weight")) ++blocks;
      EXPECT_EQ(blocks, c.depths()[s]);
      const std::string attn = p + "0.attn.";
      const int64_t ws0 = c.window_size()[0], ws1 = c.window_size()[1];
      EXPECT_EQ(golden_shape(b, attn + "relative_position_index"), (std::vector<int64_t>{ws0 * ws1 * ws0 * ws1}));
      EXPECT_EQ(golden_has(b, attn + "logit_scale"), v2);
      if (v2) {
        EXPECT_EQ(golden_shape(b, attn + "cpb_mlp.2.weight"), (std::vector<int64_t>{c.num_heads()[s], 512}));
        EXPECT_EQ(golden_shape(b, attn + "relative_coords_table"),
                  (std::vector<int64_t>{1, 2 * ws0 - 1, 2 * ws1 - 1, 2}));
      } else {
        EXPECT_EQ(golden_shape(b, attn + "relative_position_bias_table"),
                  (std::vector<int64_t>{(2 * ws0 - 1) * (2 * ws1 - 1), c.num_heads()[s]}));
      }
      if (s < 3) {
        // v1 normalizes the 4C concatenation, v2 the 2C reduction.
        const std::string norm = "features." + std::to_string(2 * s + 2) + ".norm.weight";
        const int64_t dim = c.embed_dim() << s;
        EXPECT_EQ(golden_shape(b, norm), (std::vector<int64_t>{v2 ? 2 * dim : 4 * dim}));
      }
    }
    EXPECT_EQ(golden_shape(b, "head.weight"), (std::vector<int64_t>{c.num_classes(), c.embed_dim() << 3}));
  }
}

TEST(VisionModelsSwin, RelativePositionIndexMatchesTorchvision) {
  // The index is a constant buffer torchvision stores in the state_dict.
  models::SwinTransformer model(swin_small_cfg(false));
  const auto sd = model->state_dict();
  for (const std::string key :
       {"features.1.0.attn.relative_position_index", "features.3.1.attn.relative_position_index"}) {
    const Tensor e = golden()["sd.swin_small_cfg/" + key];
    EXPECT_EQ(sd[key].numel(), e[1].item<int64_t>());
  }
  const Tensor idx = sd["features.1.0.attn.relative_position_index"];
  // Window 4x4: pair (0, 0) is the table's centre, (0, 15) its far corner.
  EXPECT_EQ(idx[0].item<int64_t>(), 3 * 7 + 3);
  EXPECT_EQ(idx[15].item<int64_t>(), 0);
  EXPECT_EQ(idx[15 * 16].item<int64_t>(), 6 * 7 + 6);
}

TEST(VisionModelsSwin, CloneKeepsTheFunction) {
  for (bool v2 : {false, true}) {
    SCOPED_TRACE(v2 ? "v2" : "v1");
    models::SwinTransformer model(swin_small_cfg(v2));
    fill_deterministic(*model);
    model->eval();
    auto copy = std::dynamic_pointer_cast<models::SwinTransformerImpl>(model->clone());
    ASSERT_TRUE(copy != nullptr);
    ember::NoGradGuard no_grad;
    EXPECT_TENSOR_EQ(copy->forward(golden()["swin.x"]), model->forward(golden()["swin.x"]));
  }
}

TEST(VisionModelsSwin, TrainModeBackwardReachesEveryParameter) {
  models::SwinTransformer model(swin_small_cfg(true).stochastic_depth_prob(0.0));
  model->train();
  model->forward(golden()["swin.x"]).pow(2).sum().backward();
  for (const auto& item : model->named_parameters()) {
    EXPECT_TRUE(item.value().grad().defined()) << item.key();
  }
}

// An empty batch either runs or raises ember::Error, never crashes.
TEST(VisionModelsSwin, EmptyBatchRunsOrRaises) {
  ember::NoGradGuard no_grad;
  for (bool v2 : {false, true}) {
    models::SwinTransformer model(swin_small_cfg(v2));
    model->eval();
    try {
      EXPECT_EQ(model->forward(ember::rand({0, 3, 36, 36})).sizes(), (std::vector<int64_t>{0, 5}));
    } catch (const ember::Error&) {
    }
  }
  models::ConvNeXt convnext(convnext_small_cfg());
  convnext->eval();
  try {
    EXPECT_EQ(convnext->forward(ember::rand({0, 3, 32, 32})).sizes(), (std::vector<int64_t>{0, 5}));
  } catch (const ember::Error&) {
  }
}

TEST(VisionModelsSwin, BadInputRaisesNamingTheModel) {
  models::SwinTransformer model(swin_small_cfg(false));
  EXPECT_EMBER_ERROR(model->forward(ember::rand({1, 2, 32, 32})), "SwinTransformer", "channels", "2");
  EXPECT_EMBER_ERROR(model->forward(ember::rand({3, 32, 32})), "SwinTransformer", "4-D");
  EXPECT_EMBER_ERROR(model->forward(ember::zeros({1, 3, 32, 32}, ember::kByte)), "SwinTransformer", "floating");
  EXPECT_EMBER_ERROR(model->forward(ember::rand({1, 3, 2, 32})), "SwinTransformer", "patch size");
  EXPECT_EMBER_ERROR(models::SwinTransformer(models::SwinTransformerOptions({4, 4}, 8, {2, 2}, {2}, {4, 4})),
                     "SwinTransformer", "num_heads");
  EXPECT_EMBER_ERROR(models::ShiftedWindowAttention(models::ShiftedWindowAttentionOptions(8, {4}, {0, 0}, 2)),
                     "ShiftedWindowAttention", "length 2");
  EXPECT_EMBER_ERROR(models::swin_transformer_config("swin_x"), "swin_transformer_config", "swin_x");
}

}  // namespace

}  // namespace vision_models_vit_test
