// Registers VGG 11-19 (and their weights enums) in the model registry at
// static initialisation (Note [The model registry]: registrars may run in any
// order, the registry is created on first use), and builds the SSD builders'
// entries (ssd_model_entries) for registry.cpp's builtin set.
#include "ember/core/error.h"
#include "ember/vision/models/detection/ssd_builders.h"
#include "ember/vision/models/registry.h"
#include "ember/vision/models/vgg.h"

namespace torch::vision::models {

namespace {

using VGGFn = VGG (*)(std::optional<Weights>, bool, const VGGKwargs&);

ModelEntry vgg_entry(const std::string& name, const std::string& weights_enum, VGGFn fn) {
  return ModelEntry{name, "torchvision.models.vgg",
                    [=](const ModelKwargs& kw) {
                      detail::KwargReader r(name, kw);
                      std::optional<Weights> weights = r.get_weights(weights_enum);
                      VGGKwargs k;
                      k.num_classes(r.get_int("num_classes")).dropout(r.get_double("dropout").value_or(0.5));
                      r.finish();
                      return nn::AnyModule(fn(weights, true, k));
                    },
                    weights_enum};
}

struct VGGRegistrar {
  VGGRegistrar() {
    for (const WeightsEnum* e :
         {&VGG11_Weights::enum_info(), &VGG11_BN_Weights::enum_info(), &VGG13_Weights::enum_info(),
          &VGG13_BN_Weights::enum_info(), &VGG16_Weights::enum_info(), &VGG16_BN_Weights::enum_info(),
          &VGG19_Weights::enum_info(), &VGG19_BN_Weights::enum_info()})
      register_weights_enum(*e);
    register_model(vgg_entry("vgg11", "VGG11_Weights", &vgg11));
    register_model(vgg_entry("vgg11_bn", "VGG11_BN_Weights", &vgg11_bn));
    register_model(vgg_entry("vgg13", "VGG13_Weights", &vgg13));
    register_model(vgg_entry("vgg13_bn", "VGG13_BN_Weights", &vgg13_bn));
    register_model(vgg_entry("vgg16", "VGG16_Weights", &vgg16));
    register_model(vgg_entry("vgg16_bn", "VGG16_BN_Weights", &vgg16_bn));
    register_model(vgg_entry("vgg19", "VGG19_Weights", &vgg19));
    register_model(vgg_entry("vgg19_bn", "VGG19_BN_Weights", &vgg19_bn));
  }
};
const VGGRegistrar vgg_registrar;

namespace det = detection;

// "weights_backbone" (a member name, or the full name) and "weights_backbone_path".
std::optional<Weights> read_backbone_weights(detail::KwargReader& r, const std::string& builder,
                                             const std::string& weights_enum) {
  const std::optional<std::string> name = r.get_string("weights_backbone");
  const std::optional<std::string> path = r.get_string("weights_backbone_path");
  if (!name) {
    EMBER_CHECK(!path, builder, ": weights_backbone_path given without weights_backbone");
    return std::nullopt;
  }
  const Weights& w = get_weight(name->find('.') == std::string::npos ? weights_enum + "." + *name : *name);
  return path ? w.with_path(*path) : w;
}

det::SSDKwargs read_ssd_kwargs(detail::KwargReader& r) {
  det::SSDKwargs k;
  k.score_thresh(r.get_double("score_thresh"))
      .nms_thresh(r.get_double("nms_thresh"))
      .detections_per_img(r.get_int("detections_per_img"))
      .iou_thresh(r.get_double("iou_thresh"))
      .topk_candidates(r.get_int("topk_candidates"))
      .positive_fraction(r.get_double("positive_fraction"));
  return k;
}

template <typename Build>
ModelEntry ssd_entry(const std::string& name, const std::string& module, const std::string& weights_enum,
                     const std::string& backbone_enum, Build build) {
  return ModelEntry{name, "torchvision.models.detection." + module,
                    [=](const ModelKwargs& kw) {
                      detail::KwargReader r(name, kw);
                      const std::optional<Weights> weights = r.get_weights(weights_enum);
                      const std::optional<int64_t> num_classes = r.get_int("num_classes");
                      const std::optional<Weights> backbone = read_backbone_weights(r, name, backbone_enum);
                      const std::optional<int64_t> trainable = r.get_int("trainable_backbone_layers");
                      const det::SSDKwargs k = read_ssd_kwargs(r);
                      r.finish();
                      return nn::AnyModule(build(weights, num_classes, backbone, trainable, k));
                    },
                    weights_enum};
}

}  // namespace

std::vector<ModelEntry> detail::ssd_model_entries() {
  return {ssd_entry("ssd300_vgg16", "ssd", "SSD300_VGG16_Weights", "VGG16_Weights",
                    [](auto w, auto n, auto b, auto t, const det::SSDKwargs& k) {
                      return det::ssd300_vgg16(w, true, n, b, t, k);
                    }),
          ssd_entry("ssdlite320_mobilenet_v3_large", "ssdlite", "SSDLite320_MobileNet_V3_Large_Weights",
                    "MobileNet_V3_Large_Weights", [](auto w, auto n, auto b, auto t, const det::SSDKwargs& k) {
                      return det::ssdlite320_mobilenet_v3_large(w, true, n, b, t, std::nullopt, k);
                    })};
}

}  // namespace torch::vision::models
