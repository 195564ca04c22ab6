// The RAFT model (iterative flow refinement) and its builders.
#include "ember/vision/models/optical_flow/raft.h"
#include "ember/core/error.h"
#include "ember/ops/all_ops.h"
#include "ember/serialize/pt_reader.h"
#include "ember/vision/models/optical_flow/_utils.h"

namespace torch::vision::models::optical_flow {

RAFTImpl::RAFTImpl(FeatureEncoder feature_encoder_, FeatureEncoder context_encoder_, CorrBlock corr_block_,
                   UpdateBlock update_block_, MaskPredictor mask_predictor_)
    : feature_encoder(std::move(feature_encoder_)),
      context_encoder(std::move(context_encoder_)),
      corr_block(std::move(corr_block_)),
      update_block(std::move(update_block_)),
      mask_predictor(std::move(mask_predictor_)) {
  reset();
}

void RAFTImpl::reset() {
  EMBER_CHECK(
      !feature_encoder.is_empty() && !context_encoder.is_empty() && !corr_block.is_empty() && !update_block.is_empty(),
      "RAFT: feature_encoder, context_encoder, corr_block and update_block must not be null");
  register_module("feature_encoder", feature_encoder);
  register_module("context_encoder", context_encoder);
  register_module("corr_block", corr_block);
  register_module("update_block", update_block);
  if (!mask_predictor.is_empty()) register_module("mask_predictor", mask_predictor);
}

std::shared_ptr<nn::Module> RAFTImpl::clone(const std::optional<Device>& device) const {
  auto cloned = [&](const auto& holder) {
    using Impl = typename std::decay_t<decltype(holder)>::ContainedType;
    return std::dynamic_pointer_cast<Impl>(holder->clone(device));
  };
  MaskPredictor mask = nullptr;
  if (!mask_predictor.is_empty()) mask = MaskPredictor(cloned(mask_predictor));
  auto copy =
      std::make_shared<RAFTImpl>(FeatureEncoder(cloned(feature_encoder)), FeatureEncoder(cloned(context_encoder)),
                                 CorrBlock(cloned(corr_block)), UpdateBlock(cloned(update_block)), mask);
  copy->train(is_training());
  return copy;
}

std::vector<Tensor> RAFTImpl::forward(const Tensor& image1, const Tensor& image2, int64_t num_flow_updates) {
  for (const Tensor* img : {&image1, &image2}) {
    EMBER_CHECK(img->defined() && img->dim() == 4, "RAFT: expected 4-D (N, 3, H, W) images, got shape ",
                img->defined() ? img->sizes() : IntArrayRef{});
    EMBER_CHECK(isFloatingType(img->scalar_type()), "RAFT: expected floating-point images, got dtype ",
                img->scalar_type());
    EMBER_CHECK(img->size(1) == 3, "RAFT: expected 3-channel images, got ", img->size(1), " channels (shape ",
                img->sizes(), ")");
  }
  const int64_t b = image1.size(0), h = image1.size(2), w = image1.size(3);
  EMBER_CHECK(image1.sizes() == image2.sizes(), "RAFT: input images should have the same shape, instead got ",
              image1.sizes(), " != ", image2.sizes());
  EMBER_CHECK(h % 8 == 0 && w % 8 == 0, "RAFT: input image H and W should be divisible by 8, instead got ", h,
              " (h) and ", w, " (w)");
  EMBER_CHECK(num_flow_updates >= 0, "RAFT: num_flow_updates must not be negative, got ", num_flow_updates);

  const Tensor fmaps = feature_encoder->forward(cat({image1, image2}, 0));
  const auto halves = fmaps.chunk(2, 0);
  const Tensor& fmap1 = halves[0];
  const Tensor& fmap2 = halves[1];
  EMBER_CHECK(fmap1.size(2) == h / 8 && fmap1.size(3) == w / 8,
              "RAFT: The feature encoder should downsample H and W by 8");
  corr_block->build_pyramid(fmap1, fmap2);

  const Tensor context_out = context_encoder->forward(image1);
  EMBER_CHECK(context_out.size(2) == h / 8 && context_out.size(3) == w / 8,
              "RAFT: The context encoder should downsample H and W by 8");
  const int64_t hidden_size = update_block->hidden_state_size;
  const int64_t context_channels = context_out.size(1) - hidden_size;
  EMBER_CHECK(context_channels > 0, "RAFT: The context encoder outputs ", context_out.size(1),
              " channels, but it should have at strictly more than hidden_state=", hidden_size, " channels");
  Tensor hidden_state = tanh(context_out.narrow(1, 0, hidden_size));
  const Tensor context = relu(context_out.narrow(1, hidden_size, context_channels));

  const Tensor coords0 = _utils::make_coords_grid(b, h / 8, w / 8).to(fmap1.device());
  Tensor coords1 = coords0.clone();
  std::vector<Tensor> flow_predictions;
  flow_predictions.reserve(static_cast<size_t>(num_flow_updates));
  for (int64_t i = 0; i < num_flow_updates; ++i) {
    // As the paper: no gradient through the lookup coordinates.
    coords1 = coords1.detach();
    const Tensor corr_features = corr_block->index_pyramid(coords1);
    const Tensor flow = coords1 - coords0;
    auto [next_hidden, delta_flow] = update_block->forward(hidden_state, context, corr_features, flow);
    hidden_state = next_hidden;
    coords1 = coords1 + delta_flow;
    std::optional<Tensor> up_mask;
    if (!mask_predictor.is_empty()) up_mask = mask_predictor->forward(hidden_state);
    flow_predictions.push_back(_utils::upsample_flow(coords1 - coords0, up_mask));
  }
  return flow_predictions;
}

namespace {

struct RaftConfig {
  std::vector<int64_t> feature_layers;
  BlockFactory feature_block;
  OptionalNormLayer feature_norm;
  std::vector<int64_t> context_layers;
  BlockFactory context_block;
  OptionalNormLayer context_norm;
  int64_t corr_levels, corr_radius;
  std::vector<int64_t> motion_corr_layers, motion_flow_layers;
  int64_t motion_out_channels, hidden_size;
  std::vector<std::vector<int64_t>> gru_kernel, gru_padding;
  int64_t flow_head_hidden;
  bool use_mask_predictor;
};

RAFT build_raft(const RaftConfig& c, const char* name, const char* enum_name, const std::optional<Weights>& weights) {
  detail::verify_weights(weights, enum_name, name);
  FeatureEncoder feature_encoder(
      FeatureEncoderOptions().block(c.feature_block).layers(c.feature_layers).norm_layer(c.feature_norm));
  FeatureEncoder context_encoder(
      FeatureEncoderOptions().block(c.context_block).layers(c.context_layers).norm_layer(c.context_norm));
  CorrBlock corr_block(c.corr_levels, c.corr_radius);
  MotionEncoder motion_encoder(MotionEncoderOptions(corr_block->out_channels)
                                   .corr_layers(c.motion_corr_layers)
                                   .flow_layers(c.motion_flow_layers)
                                   .out_channels(c.motion_out_channels));
  const int64_t context_channels = c.context_layers.back() - c.hidden_size;
  RecurrentBlock recurrent_block(RecurrentBlockOptions(motion_encoder->out_channels + context_channels, c.hidden_size)
                                     .kernel_size(c.gru_kernel)
                                     .padding(c.gru_padding));
  FlowHead flow_head(c.hidden_size, c.flow_head_hidden);
  UpdateBlock update_block(motion_encoder, recurrent_block, flow_head);
  MaskPredictor mask_predictor = nullptr;
  if (c.use_mask_predictor) mask_predictor = MaskPredictor(c.hidden_size, 256, 0.25);
  RAFT model(feature_encoder, context_encoder, corr_block, update_block, mask_predictor);
  if (weights) detail::load_weights(*model, *weights, name);
  return model;
}

}  // namespace

RAFT raft_large(std::optional<Weights> weights, bool) {
  return build_raft({{64, 64, 96, 128, 256},
                     residual_block(),
                     instance_norm2d_layer(),
                     {64, 64, 96, 128, 256},
                     residual_block(),
                     batch_norm2d_layer(),
                     4,
                     4,
                     {256, 192},
                     {128, 64},
                     128,
                     128,
                     {{1, 5}, {5, 1}},
                     {{0, 2}, {2, 0}},
                     256,
                     true},
                    "raft_large", "Raft_Large_Weights", weights);
}

RAFT raft_small(std::optional<Weights> weights, bool) {
  return build_raft({{32, 32, 64, 96, 128},
                     bottleneck_block(),
                     instance_norm2d_layer(),
                     {32, 32, 64, 96, 160},
                     bottleneck_block(),
                     std::nullopt,
                     4,
                     3,
                     {96},
                     {64, 32},
                     82,
                     96,
                     {{3}},
                     {{1}},
                     128,
                     false},
                    "raft_small", "Raft_Small_Weights", weights);
}

}  // namespace torch::vision::models::optical_flow
