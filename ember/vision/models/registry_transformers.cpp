// Registers ViT, ConvNeXt, Swin (v1, v2) and RAFT in the model registry. These builders take
// their checkpoint as a path (their weights enums are not built yet: docs/vision_models_transformers.md),
// so their keyword is "weights_path"; "weights" is not accepted for them.
#include "ember/vision/models/convnext.h"
#include "ember/vision/models/optical_flow.h"
#include "ember/vision/models/registry.h"
#include "ember/vision/models/swin_transformer.h"
#include "ember/vision/models/vision_transformer.h"

namespace torch::vision::models::detail {

namespace {

using ViTFn = VisionTransformer (*)(const std::optional<std::string>&, bool, const VisionTransformerKwargs&);
using ConvNeXtFn = ConvNeXt (*)(const std::optional<std::string>&, bool, const ConvNeXtKwargs&);
using SwinFn = SwinTransformer (*)(const std::optional<std::string>&, bool, const SwinTransformerKwargs&);
using RaftFn = optical_flow::RAFT (*)(const std::optional<std::string>&, bool);

void add(const std::string& name, const std::string& module, ModelBuilder builder) {
  register_model(ModelEntry{name, "torchvision.models." + module, std::move(builder), ""});
}

void add_vit(const std::string& name, ViTFn fn) {
  add(name, "vision_transformer", [=](const ModelKwargs& kw) {
    KwargReader r(name, kw);
    const std::optional<std::string> path = r.get_string("weights_path");
    const bool progress = r.get_bool("progress").value_or(true);
    VisionTransformerKwargs k;
    if (auto v = r.get_int("num_classes")) k.num_classes(*v);
    if (auto v = r.get_int("image_size")) k.image_size(*v);
    if (auto v = r.get_double("dropout")) k.dropout(*v);
    if (auto v = r.get_double("attention_dropout")) k.attention_dropout(*v);
    r.finish();
    return nn::AnyModule(fn(path, progress, k));
  });
}

void add_convnext(const std::string& name, ConvNeXtFn fn) {
  add(name, "convnext", [=](const ModelKwargs& kw) {
    KwargReader r(name, kw);
    const std::optional<std::string> path = r.get_string("weights_path");
    const bool progress = r.get_bool("progress").value_or(true);
    ConvNeXtKwargs k;
    if (auto v = r.get_int("num_classes")) k.num_classes(*v);
    if (auto v = r.get_double("stochastic_depth_prob")) k.stochastic_depth_prob(*v);
    if (auto v = r.get_double("layer_scale")) k.layer_scale(*v);
    r.finish();
    return nn::AnyModule(fn(path, progress, k));
  });
}

void add_swin(const std::string& name, SwinFn fn) {
  add(name, "swin_transformer", [=](const ModelKwargs& kw) {
    KwargReader r(name, kw);
    const std::optional<std::string> path = r.get_string("weights_path");
    const bool progress = r.get_bool("progress").value_or(true);
    SwinTransformerKwargs k;
    if (auto v = r.get_int("num_classes")) k.num_classes(*v);
    if (auto v = r.get_double("stochastic_depth_prob")) k.stochastic_depth_prob(*v);
    if (auto v = r.get_double("dropout")) k.dropout(*v);
    if (auto v = r.get_double("attention_dropout")) k.attention_dropout(*v);
    r.finish();
    return nn::AnyModule(fn(path, progress, k));
  });
}

void add_raft(const std::string& name, RaftFn fn) {
  add(name, "optical_flow.raft", [=](const ModelKwargs& kw) {
    KwargReader r(name, kw);
    const std::optional<std::string> path = r.get_string("weights_path");
    const bool progress = r.get_bool("progress").value_or(true);
    r.finish();
    return nn::AnyModule(fn(path, progress));
  });
}

}  // namespace

void register_transformer_models() {
  add_vit("vit_b_16", &vit_b_16);
  add_vit("vit_b_32", &vit_b_32);
  add_vit("vit_l_16", &vit_l_16);
  add_vit("vit_l_32", &vit_l_32);
  add_vit("vit_h_14", &vit_h_14);
  add_convnext("convnext_tiny", &convnext_tiny);
  add_convnext("convnext_small", &convnext_small);
  add_convnext("convnext_base", &convnext_base);
  add_convnext("convnext_large", &convnext_large);
  add_swin("swin_t", &swin_t);
  add_swin("swin_s", &swin_s);
  add_swin("swin_b", &swin_b);
  add_swin("swin_v2_t", &swin_v2_t);
  add_swin("swin_v2_s", &swin_v2_s);
  add_swin("swin_v2_b", &swin_v2_b);
  add_raft("raft_large", &optical_flow::raft_large);
  add_raft("raft_small", &optical_flow::raft_small);
}

}  // namespace torch::vision::models::detail
