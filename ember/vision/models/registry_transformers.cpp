// Registers ViT, ConvNeXt, Swin (v1, v2) and RAFT, and their weights enums, in the model
// registry: "weights" names a member of the builder's enum and "weights_path" its file.
#include "ember/vision/models/convnext.h"
#include "ember/vision/models/optical_flow.h"
#include "ember/vision/models/registry.h"
#include "ember/vision/models/swin_transformer.h"
#include "ember/vision/models/vision_transformer.h"

namespace torch::vision::models::detail {

namespace {

using ViTFn = VisionTransformer (*)(std::optional<Weights>, bool, const VisionTransformerKwargs&);
using ConvNeXtFn = ConvNeXt (*)(std::optional<Weights>, bool, const ConvNeXtKwargs&);
using SwinFn = SwinTransformer (*)(std::optional<Weights>, bool, const SwinTransformerKwargs&);
using RaftFn = optical_flow::RAFT (*)(std::optional<Weights>, bool);

void add(const std::string& name, const std::string& module, const std::string& weights_enum, ModelBuilder builder) {
  register_model(ModelEntry{name, "torchvision.models." + module, std::move(builder), weights_enum});
}

void add_vit(const std::string& name, const std::string& weights_enum, ViTFn fn) {
  add(name, "vision_transformer", weights_enum, [=](const ModelKwargs& kw) {
    KwargReader r(name, kw);
    const std::optional<Weights> weights = r.get_weights(weights_enum);
    VisionTransformerKwargs k;
    if (auto v = r.get_int("num_classes")) k.num_classes(*v);
    if (auto v = r.get_int("image_size")) k.image_size(*v);
    if (auto v = r.get_double("dropout")) k.dropout(*v);
    if (auto v = r.get_double("attention_dropout")) k.attention_dropout(*v);
    r.finish();
    return nn::AnyModule(fn(weights, true, k));
  });
}

void add_convnext(const std::string& name, const std::string& weights_enum, ConvNeXtFn fn) {
  add(name, "convnext", weights_enum, [=](const ModelKwargs& kw) {
    KwargReader r(name, kw);
    const std::optional<Weights> weights = r.get_weights(weights_enum);
    ConvNeXtKwargs k;
    if (auto v = r.get_int("num_classes")) k.num_classes(*v);
    if (auto v = r.get_double("stochastic_depth_prob")) k.stochastic_depth_prob(*v);
    if (auto v = r.get_double("layer_scale")) k.layer_scale(*v);
    r.finish();
    return nn::AnyModule(fn(weights, true, k));
  });
}

void add_swin(const std::string& name, const std::string& weights_enum, SwinFn fn) {
  add(name, "swin_transformer", weights_enum, [=](const ModelKwargs& kw) {
    KwargReader r(name, kw);
    const std::optional<Weights> weights = r.get_weights(weights_enum);
    SwinTransformerKwargs k;
    if (auto v = r.get_int("num_classes")) k.num_classes(*v);
    if (auto v = r.get_double("stochastic_depth_prob")) k.stochastic_depth_prob(*v);
    if (auto v = r.get_double("dropout")) k.dropout(*v);
    if (auto v = r.get_double("attention_dropout")) k.attention_dropout(*v);
    r.finish();
    return nn::AnyModule(fn(weights, true, k));
  });
}

void add_raft(const std::string& name, const std::string& weights_enum, RaftFn fn) {
  add(name, "optical_flow.raft", weights_enum, [=](const ModelKwargs& kw) {
    KwargReader r(name, kw);
    const std::optional<Weights> weights = r.get_weights(weights_enum);
    r.finish();
    return nn::AnyModule(fn(weights, true));
  });
}

}  // namespace

void register_transformer_models() {
  for (const WeightsEnum* e : transformer_weights_enums()) register_weights_enum(*e);
  for (const WeightsEnum* e : optical_flow_weights_enums()) register_weights_enum(*e);
  add_vit("vit_b_16", "ViT_B_16_Weights", &vit_b_16);
  add_vit("vit_b_32", "ViT_B_32_Weights", &vit_b_32);
  add_vit("vit_l_16", "ViT_L_16_Weights", &vit_l_16);
  add_vit("vit_l_32", "ViT_L_32_Weights", &vit_l_32);
  add_vit("vit_h_14", "ViT_H_14_Weights", &vit_h_14);
  add_convnext("convnext_tiny", "ConvNeXt_Tiny_Weights", &convnext_tiny);
  add_convnext("convnext_small", "ConvNeXt_Small_Weights", &convnext_small);
  add_convnext("convnext_base", "ConvNeXt_Base_Weights", &convnext_base);
  add_convnext("convnext_large", "ConvNeXt_Large_Weights", &convnext_large);
  add_swin("swin_t", "Swin_T_Weights", &swin_t);
  add_swin("swin_s", "Swin_S_Weights", &swin_s);
  add_swin("swin_b", "Swin_B_Weights", &swin_b);
  add_swin("swin_v2_t", "Swin_V2_T_Weights", &swin_v2_t);
  add_swin("swin_v2_s", "Swin_V2_S_Weights", &swin_v2_s);
  add_swin("swin_v2_b", "Swin_V2_B_Weights", &swin_v2_b);
  add_raft("raft_large", "Raft_Large_Weights", &optical_flow::raft_large);
  add_raft("raft_small", "Raft_Small_Weights", &optical_flow::raft_small);
}

}  // namespace torch::vision::models::detail
