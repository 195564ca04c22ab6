#include "ember/audio/models/wav2vec2/hubert_pretrain.h"

#include <cmath>

#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/nn/init.h"
#include "ember/ops/all_ops.h"

namespace torch::audio::models {

namespace C = wav2vec2::components;

HuBERTPretrainModelImpl::HuBERTPretrainModelImpl(Wav2Vec2Model wav2vec2_, C::MaskGenerator mask_generator_,
                                                 C::LogitGenerator logit_generator_,
                                                 std::optional<double> feature_grad_mult_)
    : feature_grad_mult(feature_grad_mult_) {
  EMBER_CHECK(!feature_grad_mult || (*feature_grad_mult > 0.0 && *feature_grad_mult < 1.0),
              "HuBERTPretrainModel: The value of `feature_grad_mult` must be ``None``or between (0, 1). Found ",
              feature_grad_mult.value_or(0.0));
  wav2vec2 = register_module("wav2vec2", std::move(wav2vec2_));
  mask_generator = register_module("mask_generator", std::move(mask_generator_));
  logit_generator = register_module("logit_generator", std::move(logit_generator_));
}

std::tuple<std::optional<Tensor>, std::optional<Tensor>, Tensor> HuBERTPretrainModelImpl::forward(
    const Tensor& waveforms, const Tensor& labels, const std::optional<Tensor>& audio_lengths) {
  auto [x, lengths] = wav2vec2->feature_extractor->forward(waveforms, audio_lengths);
  if (feature_grad_mult && *feature_grad_mult < 1.0) {
    // torchaudio's GradMultiply: the identity forward, gradients scaled by feature_grad_mult.
    Tensor frozen = x.detach();
    x = frozen + (x - frozen) * *feature_grad_mult;
  }
  Tensor features_pen = x.to(kFloat).pow(2).mean();
  std::optional<Tensor> padding_mask;
  if (lengths) {
    padding_mask = arange(x.size(1), TensorOptions(kInt64)).expand({x.size(0), x.size(1)}) >= lengths->unsqueeze(1);
  }
  auto [h, attention_mask] = wav2vec2->encoder->preprocess(x, lengths);
  auto [masked, mask] = mask_generator->forward(h, padding_mask);
  EMBER_CHECK(mask.has_value(), "HuBERTPretrainModel: mask_prob must be positive (the logits need a frame mask)");
  Tensor out = wav2vec2->encoder->transformer->forward(masked, attention_mask);
  EMBER_CHECK(labels.dim() == 2 && labels.size(0) == out.size(0) && labels.size(1) == out.size(1),
              "HuBERTPretrainModel: The length of label must match that of HuBERT model output: expected [",
              out.size(0), ", ", out.size(1), "], got ", labels.sizes());
  EMBER_CHECK(!labels.is_floating_point(), "HuBERTPretrainModel: labels must be integers, got ", labels.scalar_type());
  const int64_t num_classes = logit_generator->label_embeddings.size(0);
  EMBER_CHECK(labels.numel() == 0 || (labels.min().item<int64_t>() >= 0 && labels.max().item<int64_t>() < num_classes),
              "HuBERTPretrainModel: labels must be in [0, ", num_classes, ")");
  Tensor mask_m = *mask, mask_u;
  if (padding_mask) {
    mask_m = logical_and(logical_not(*padding_mask), *mask);
    mask_u = logical_and(logical_not(*padding_mask), logical_not(mask_m));
  } else {
    mask_u = logical_not(mask_m);
  }
  auto [logit_m, logit_u] = logit_generator->forward(out, labels, mask_m, mask_u);
  return {logit_m, logit_u, features_pen};
}

namespace {

// torchaudio's _init_hubert_pretrain_model.
void init_hubert_pretrain(HuBERTPretrainModelImpl& model) {
  NoGradGuard no_grad;
  for (const auto& layer : *model.wav2vec2->feature_extractor->conv_layers)
    nn::init::kaiming_normal_(layer->as<C::ConvLayerBlockImpl>()->conv->weight);
  auto& transformer = *model.wav2vec2->encoder->transformer;
  // (torchaudio's normal_ on the weight-normed conv weight is overwritten by weight_norm's hook.)
  transformer.pos_conv_embed->conv->bias.zero_();
  for (const auto& item : transformer.named_modules()) {
    if (auto* linear = item.value()->as<nn::LinearImpl>()) {
      nn::init::normal_(linear->weight, 0.0, 0.02);
      if (linear->bias.defined()) linear->bias.zero_();
    }
  }
}

}  // namespace

HuBERTPretrainModel hubert_pretrain_model(
    const std::string& extractor_mode, const std::optional<C::ConvLayerConfig>& extractor_conv_layer_config,
    bool extractor_conv_bias, int64_t encoder_embed_dim, double encoder_projection_dropout,
    int64_t encoder_pos_conv_kernel, int64_t encoder_pos_conv_groups, int64_t encoder_num_layers,
    int64_t encoder_num_heads, double encoder_attention_dropout, int64_t encoder_ff_interm_features,
    double encoder_ff_interm_dropout, double encoder_dropout, bool encoder_layer_norm_first, double encoder_layer_drop,
    double mask_prob, const std::string& mask_selection, double mask_other, int64_t mask_length, bool no_mask_overlap,
    int64_t mask_min_space, double mask_channel_prob, const std::string& mask_channel_selection,
    double mask_channel_other, int64_t mask_channel_length, bool no_mask_channel_overlap,
    int64_t mask_channel_min_space, bool skip_masked, bool skip_nomask, int64_t num_classes, int64_t final_dim,
    std::optional<double> feature_grad_mult) {
  Wav2Vec2Model wav2vec2 = wav2vec2_model(
      extractor_mode, extractor_conv_layer_config, extractor_conv_bias, encoder_embed_dim, encoder_projection_dropout,
      encoder_pos_conv_kernel, encoder_pos_conv_groups, encoder_num_layers, encoder_num_heads,
      encoder_attention_dropout, encoder_ff_interm_features, encoder_ff_interm_dropout, encoder_dropout,
      encoder_layer_norm_first, encoder_layer_drop, std::nullopt);
  C::MaskGenerator mask_generator(encoder_embed_dim, mask_prob, mask_selection, mask_other, mask_length,
                                  no_mask_overlap, mask_min_space, mask_channel_prob, mask_channel_selection,
                                  mask_channel_other, mask_channel_length, no_mask_channel_overlap,
                                  mask_channel_min_space);
  C::LogitGenerator logit_generator(encoder_embed_dim, num_classes, final_dim, skip_masked, skip_nomask);
  HuBERTPretrainModel model(wav2vec2, mask_generator, logit_generator, feature_grad_mult);
  init_hubert_pretrain(*model);
  return model;
}

namespace {

HuBERTPretrainModel pretrain(const char* mode, int64_t dim, int64_t layers, int64_t heads, int64_t ff,
                             bool layer_norm_first, double p, double a, double f, double d, double l, double mask_prob,
                             double mask_channel_prob, int64_t mask_channel_length,
                             std::optional<double> feature_grad_mult, int64_t num_classes, int64_t final_dim) {
  return hubert_pretrain_model(mode, std::nullopt, false, dim, p, 128, 16, layers, heads, a, ff, f, d, layer_norm_first,
                               l, mask_prob, "static", 0.0, 10, false, 1, mask_channel_prob, "static", 0.0,
                               mask_channel_length, false, 1, false, false, num_classes, final_dim, feature_grad_mult);
}

}  // namespace

HuBERTPretrainModel hubert_pretrain_base(double p, double a, double f, double d, double l, double mask_prob,
                                         double mask_channel_prob, int64_t mask_channel_length,
                                         std::optional<double> feature_grad_mult, int64_t num_classes) {
  return pretrain("group_norm", 768, 12, 12, 3072, false, p, a, f, d, l, mask_prob, mask_channel_prob,
                  mask_channel_length, feature_grad_mult, num_classes, 256);
}

HuBERTPretrainModel hubert_pretrain_large(double p, double a, double f, double d, double l, double mask_prob,
                                          double mask_channel_prob, int64_t mask_channel_length,
                                          std::optional<double> feature_grad_mult) {
  return pretrain("layer_norm", 1024, 24, 16, 4096, true, p, a, f, d, l, mask_prob, mask_channel_prob,
                  mask_channel_length, feature_grad_mult, 500, 768);
}

HuBERTPretrainModel hubert_pretrain_xlarge(double p, double a, double f, double d, double l, double mask_prob,
                                           double mask_channel_prob, int64_t mask_channel_length,
                                           std::optional<double> feature_grad_mult) {
  return pretrain("layer_norm", 1280, 48, 16, 5120, true, p, a, f, d, l, mask_prob, mask_channel_prob,
                  mask_channel_length, feature_grad_mult, 500, 1024);
}

}  // namespace torch::audio::models
