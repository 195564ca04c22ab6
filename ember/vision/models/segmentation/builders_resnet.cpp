// fcn_resnet50/101 and deeplabv3_resnet50/101 (fcn.py, deeplabv3.py of torchvision 0.14).
#include "ember/vision/models/intermediate_layer_getter.h"
#include "ember/vision/models/resnet.h"
#include "ember/vision/models/segmentation/builder_common.h"
#include "ember/vision/models/segmentation/builders.h"

namespace torch::vision::models::segmentation {

namespace {

using ResNetFn = ResNet (*)(std::optional<Weights>, bool, const ResNetKwargs&);

// The dilated ResNet (output stride 8) as an IntermediateLayerGetter over
// layer4 ("out") and, with aux, layer3 ("aux"); avgpool and fc come after
// layer4, so they are not part of the backbone (as torchvision drops them).
models::_utils::IntermediateLayerGetter dilated_resnet(ResNetFn fn, std::optional<Weights> weights_backbone,
                                                       bool progress, bool aux) {
  ResNet r = fn(std::move(weights_backbone), progress,
                ResNetKwargs().replace_stride_with_dilation(std::vector<bool>{false, true, true}));
  models::_utils::NamedLayers layers;
  layers.insert("conv1", nn::AnyModule(r->conv1));
  layers.insert("bn1", r->bn1);
  layers.insert("relu", r->relu);
  layers.insert("maxpool", r->maxpool);
  layers.insert("layer1", nn::AnyModule(r->layer1));
  layers.insert("layer2", nn::AnyModule(r->layer2));
  layers.insert("layer3", nn::AnyModule(r->layer3));
  layers.insert("layer4", nn::AnyModule(r->layer4));
  models::_utils::ReturnLayers ret{{"layer4", "out"}};
  if (aux) ret["layer3"] = "aux";
  return models::_utils::IntermediateLayerGetter(layers, ret);
}

FCN fcn_resnet(const char* builder, const char* enum_name, ResNetFn fn, const std::optional<Weights>& weights,
               bool progress, std::optional<int64_t> num_classes, std::optional<bool> aux_loss,
               std::optional<Weights> weights_backbone) {
  const auto r = builder_detail::resolve(builder, enum_name, weights, num_classes, aux_loss);
  if (weights) weights_backbone.reset();
  auto backbone = dilated_resnet(fn, std::move(weights_backbone), progress, r.aux_loss);
  nn::AnyModule aux;
  if (r.aux_loss) aux = nn::AnyModule(fcn::FCNHead(1024, r.num_classes));
  FCN model(backbone, nn::AnyModule(fcn::FCNHead(2048, r.num_classes)), std::move(aux));
  if (weights) builder_detail::load_checkpoint(*model, *weights, builder);
  return model;
}

DeepLabV3 deeplabv3_resnet(const char* builder, const char* enum_name, ResNetFn fn,
                           const std::optional<Weights>& weights, bool progress, std::optional<int64_t> num_classes,
                           std::optional<bool> aux_loss, std::optional<Weights> weights_backbone) {
  const auto r = builder_detail::resolve(builder, enum_name, weights, num_classes, aux_loss);
  if (weights) weights_backbone.reset();
  auto backbone = dilated_resnet(fn, std::move(weights_backbone), progress, r.aux_loss);
  nn::AnyModule aux;
  if (r.aux_loss) aux = nn::AnyModule(fcn::FCNHead(1024, r.num_classes));
  DeepLabV3 model(backbone, nn::AnyModule(deeplabv3::DeepLabHead(2048, r.num_classes)), std::move(aux));
  if (weights) builder_detail::load_checkpoint(*model, *weights, builder);
  return model;
}

}  // namespace

FCN fcn_resnet50(const std::optional<Weights>& weights, bool progress, std::optional<int64_t> num_classes,
                 std::optional<bool> aux_loss, std::optional<Weights> weights_backbone) {
  return fcn_resnet("fcn_resnet50", "FCN_ResNet50_Weights", &resnet50, weights, progress, num_classes, aux_loss,
                    std::move(weights_backbone));
}

FCN fcn_resnet101(const std::optional<Weights>& weights, bool progress, std::optional<int64_t> num_classes,
                  std::optional<bool> aux_loss, std::optional<Weights> weights_backbone) {
  return fcn_resnet("fcn_resnet101", "FCN_ResNet101_Weights", &resnet101, weights, progress, num_classes, aux_loss,
                    std::move(weights_backbone));
}

DeepLabV3 deeplabv3_resnet50(const std::optional<Weights>& weights, bool progress, std::optional<int64_t> num_classes,
                             std::optional<bool> aux_loss, std::optional<Weights> weights_backbone) {
  return deeplabv3_resnet("deeplabv3_resnet50", "DeepLabV3_ResNet50_Weights", &resnet50, weights, progress, num_classes,
                          aux_loss, std::move(weights_backbone));
}

DeepLabV3 deeplabv3_resnet101(const std::optional<Weights>& weights, bool progress, std::optional<int64_t> num_classes,
                              std::optional<bool> aux_loss, std::optional<Weights> weights_backbone) {
  return deeplabv3_resnet("deeplabv3_resnet101", "DeepLabV3_ResNet101_Weights", &resnet101, weights, progress,
                          num_classes, aux_loss, std::move(weights_backbone));
}

}  // namespace torch::vision::models::segmentation
