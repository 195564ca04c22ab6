// The ResNet-50-FPN detection builders (faster_rcnn.py, retinanet.py,
// fcos.py, mask_rcnn.py, keypoint_rcnn.py of torchvision 0.14).
#include "ember/nn/modules/normalization.h"
#include "ember/vision/models/detection/backbone_utils.h"
#include "ember/vision/models/detection/builder_common.h"
#include "ember/vision/models/detection/model_utils.h"
#include "ember/vision/models/resnet.h"
#include "ember/vision/ops/feature_pyramid_network.h"

namespace torch::vision::models::detection {

namespace {

using backbone_utils::_resnet_fpn_extractor;
using backbone_utils::_validate_trainable_layers;
using builder_detail::apply_kwargs;

// resnet50's layers up to layer4 (avgpool and fc come after the last returned layer).
models::_utils::NamedLayers resnet_layers(const ResNet& r) {
  models::_utils::NamedLayers layers;
  layers.insert("conv1", nn::AnyModule(r->conv1));
  layers.insert("bn1", r->bn1);
  layers.insert("relu", r->relu);
  layers.insert("maxpool", r->maxpool);
  layers.insert("layer1", nn::AnyModule(r->layer1));
  layers.insert("layer2", nn::AnyModule(r->layer2));
  layers.insert("layer3", nn::AnyModule(r->layer3));
  layers.insert("layer4", nn::AnyModule(r->layer4));
  return layers;
}

// The builders' common backbone: resnet50 (frozen BN when trained, or the
// given norm layer), then the FPN extractor.
backbone_utils::BackboneWithFPN resnet50_fpn(bool progress, const std::optional<Weights>& weights_backbone,
                                             int64_t trainable_layers, std::optional<ops::NormLayer> resnet_norm,
                                             std::optional<std::vector<int64_t>> returned_layers = std::nullopt,
                                             std::shared_ptr<ops::ExtraFPNBlockImpl> extra_blocks = nullptr,
                                             std::optional<ops::NormLayer> fpn_norm = std::nullopt) {
  ResNet r = resnet50(weights_backbone, progress, ResNetKwargs().norm_layer(std::move(resnet_norm)));
  return _resnet_fpn_extractor(resnet_layers(r), 2048, trainable_layers, std::move(returned_layers),
                               std::move(extra_blocks), std::move(fpn_norm));
}

struct Preamble {
  int64_t num_classes;
  std::optional<Weights> weights_backbone;
  bool is_trained;
  int64_t trainable_layers;
};

// torchvision's builder preamble: weights replace weights_backbone, fix num_classes and set the trainable layers.
Preamble preamble(const char* builder, const char* enum_name, const std::optional<Weights>& weights,
                  std::optional<int64_t> num_classes, std::optional<Weights> weights_backbone,
                  std::optional<int64_t> trainable_backbone_layers, int64_t default_classes = 91) {
  builder_detail::verify_weights(builder, weights, enum_name);
  Preamble p;
  p.num_classes = builder_detail::resolve_num_classes(builder, weights, num_classes, default_classes);
  p.weights_backbone = weights ? std::nullopt : std::move(weights_backbone);
  p.is_trained = weights.has_value() || p.weights_backbone.has_value();
  p.trainable_layers = _validate_trainable_layers(p.is_trained, trainable_backbone_layers, 5, 3);
  return p;
}

ops::NormLayer group_norm_32() {
  return [](int64_t n) { return nn::AnyModule(nn::GroupNorm(32, n)); };
}

}  // namespace

FasterRCNN fasterrcnn_resnet50_fpn(const std::optional<Weights>& weights, bool progress,
                                   std::optional<int64_t> num_classes, std::optional<Weights> weights_backbone,
                                   std::optional<int64_t> trainable_backbone_layers, const FasterRCNNKwargs& kwargs) {
  const Preamble p = preamble("fasterrcnn_resnet50_fpn", "FasterRCNN_ResNet50_FPN_Weights", weights, num_classes,
                              std::move(weights_backbone), trainable_backbone_layers);
  auto backbone =
      resnet50_fpn(progress, p.weights_backbone, p.trainable_layers, builder_detail::backbone_norm_layer(p.is_trained));
  FasterRCNN model(apply_kwargs(FasterRCNNOptions(backbone, p.num_classes), kwargs));
  if (weights) {
    builder_detail::load_checkpoint(*model, *weights, "fasterrcnn_resnet50_fpn");
    // Only the COCO_V1 checkpoints were trained with FrozenBatchNorm2d's eps 0.
    if (weights->member == "COCO_V1") _utils::overwrite_eps(*model, 0.0);
  }
  return model;
}

FasterRCNN fasterrcnn_resnet50_fpn_v2(const std::optional<Weights>& weights, bool progress,
                                      std::optional<int64_t> num_classes, std::optional<Weights> weights_backbone,
                                      std::optional<int64_t> trainable_backbone_layers,
                                      const FasterRCNNKwargs& kwargs) {
  const Preamble p = preamble("fasterrcnn_resnet50_fpn_v2", "FasterRCNN_ResNet50_FPN_V2_Weights", weights, num_classes,
                              std::move(weights_backbone), trainable_backbone_layers);
  auto backbone = resnet50_fpn(progress, p.weights_backbone, p.trainable_layers, std::nullopt, std::nullopt, nullptr,
                               ops::batch_norm2d_layer());
  auto anchor_generator = faster_rcnn::_default_anchorgen();
  rpn::RPNHead rpn_head(backbone->out_channels, anchor_generator->num_anchors_per_location()[0], 2);
  faster_rcnn::FastRCNNConvFCHead box_head(std::array<int64_t, 3>{backbone->out_channels, 7, 7},
                                           std::vector<int64_t>{256, 256, 256, 256}, std::vector<int64_t>{1024},
                                           ops::batch_norm2d_layer());
  FasterRCNN model(apply_kwargs(FasterRCNNOptions(backbone, p.num_classes)
                                    .rpn_anchor_generator(anchor_generator)
                                    .rpn_head(rpn_head)
                                    .box_head(nn::AnyModule(box_head)),
                                kwargs));
  if (weights) builder_detail::load_checkpoint(*model, *weights, "fasterrcnn_resnet50_fpn_v2");
  return model;
}

RetinaNet retinanet_resnet50_fpn(const std::optional<Weights>& weights, bool progress,
                                 std::optional<int64_t> num_classes, std::optional<Weights> weights_backbone,
                                 std::optional<int64_t> trainable_backbone_layers, const RetinaNetKwargs& kwargs) {
  const Preamble p = preamble("retinanet_resnet50_fpn", "RetinaNet_ResNet50_FPN_Weights", weights, num_classes,
                              std::move(weights_backbone), trainable_backbone_layers);
  auto backbone =
      resnet50_fpn(progress, p.weights_backbone, p.trainable_layers, builder_detail::backbone_norm_layer(p.is_trained),
                   std::vector<int64_t>{2, 3, 4}, std::make_shared<ops::LastLevelP6P7Impl>(256, 256));
  RetinaNet model(apply_kwargs(RetinaNetOptions(backbone, p.num_classes), kwargs));
  if (weights) {
    builder_detail::load_checkpoint(*model, *weights, "retinanet_resnet50_fpn");
    if (weights->member == "COCO_V1") _utils::overwrite_eps(*model, 0.0);
  }
  return model;
}

RetinaNet retinanet_resnet50_fpn_v2(const std::optional<Weights>& weights, bool progress,
                                    std::optional<int64_t> num_classes, std::optional<Weights> weights_backbone,
                                    std::optional<int64_t> trainable_backbone_layers, const RetinaNetKwargs& kwargs) {
  const Preamble p = preamble("retinanet_resnet50_fpn_v2", "RetinaNet_ResNet50_FPN_V2_Weights", weights, num_classes,
                              std::move(weights_backbone), trainable_backbone_layers);
  // v2 keeps resnet50's BatchNorm2d (torchvision passes no norm_layer) and P6 over C5.
  auto backbone = resnet50_fpn(progress, p.weights_backbone, p.trainable_layers, std::nullopt,
                               std::vector<int64_t>{2, 3, 4}, std::make_shared<ops::LastLevelP6P7Impl>(2048, 256));
  auto anchor_generator = retinanet::_default_anchorgen();
  retinanet::RetinaNetHead head(backbone->out_channels, anchor_generator->num_anchors_per_location()[0], p.num_classes,
                                group_norm_32());
  head->regression_head->_loss_type = "giou";
  RetinaNet model(
      apply_kwargs(RetinaNetOptions(backbone, p.num_classes).anchor_generator(anchor_generator).head(head), kwargs));
  if (weights) builder_detail::load_checkpoint(*model, *weights, "retinanet_resnet50_fpn_v2");
  return model;
}

FCOS fcos_resnet50_fpn(const std::optional<Weights>& weights, bool progress, std::optional<int64_t> num_classes,
                       std::optional<Weights> weights_backbone, std::optional<int64_t> trainable_backbone_layers,
                       const FCOSKwargs& kwargs) {
  const Preamble p = preamble("fcos_resnet50_fpn", "FCOS_ResNet50_FPN_Weights", weights, num_classes,
                              std::move(weights_backbone), trainable_backbone_layers);
  auto backbone =
      resnet50_fpn(progress, p.weights_backbone, p.trainable_layers, builder_detail::backbone_norm_layer(p.is_trained),
                   std::vector<int64_t>{2, 3, 4}, std::make_shared<ops::LastLevelP6P7Impl>(256, 256));
  FCOS model(apply_kwargs(FCOSOptions(backbone, p.num_classes), kwargs));
  if (weights) builder_detail::load_checkpoint(*model, *weights, "fcos_resnet50_fpn");
  return model;
}

MaskRCNN maskrcnn_resnet50_fpn(const std::optional<Weights>& weights, bool progress, std::optional<int64_t> num_classes,
                               std::optional<Weights> weights_backbone,
                               std::optional<int64_t> trainable_backbone_layers, const MaskRCNNKwargs& kwargs) {
  const Preamble p = preamble("maskrcnn_resnet50_fpn", "MaskRCNN_ResNet50_FPN_Weights", weights, num_classes,
                              std::move(weights_backbone), trainable_backbone_layers);
  auto backbone =
      resnet50_fpn(progress, p.weights_backbone, p.trainable_layers, builder_detail::backbone_norm_layer(p.is_trained));
  MaskRCNN model(MaskRCNNOptions(apply_kwargs(FasterRCNNOptions(backbone, p.num_classes), kwargs)));
  if (weights) {
    builder_detail::load_checkpoint(*model, *weights, "maskrcnn_resnet50_fpn");
    if (weights->member == "COCO_V1") _utils::overwrite_eps(*model, 0.0);
  }
  return model;
}

MaskRCNN maskrcnn_resnet50_fpn_v2(const std::optional<Weights>& weights, bool progress,
                                  std::optional<int64_t> num_classes, std::optional<Weights> weights_backbone,
                                  std::optional<int64_t> trainable_backbone_layers, const MaskRCNNKwargs& kwargs) {
  const Preamble p = preamble("maskrcnn_resnet50_fpn_v2", "MaskRCNN_ResNet50_FPN_V2_Weights", weights, num_classes,
                              std::move(weights_backbone), trainable_backbone_layers);
  // As fasterrcnn_resnet50_fpn_v2: BatchNorm2d everywhere, a two-conv RPN head and the conv box head.
  auto backbone = resnet50_fpn(progress, p.weights_backbone, p.trainable_layers, std::nullopt, std::nullopt, nullptr,
                               ops::batch_norm2d_layer());
  auto anchor_generator = faster_rcnn::_default_anchorgen();
  rpn::RPNHead rpn_head(backbone->out_channels, anchor_generator->num_anchors_per_location()[0], 2);
  faster_rcnn::FastRCNNConvFCHead box_head(std::array<int64_t, 3>{backbone->out_channels, 7, 7},
                                           std::vector<int64_t>{256, 256, 256, 256}, std::vector<int64_t>{1024},
                                           ops::batch_norm2d_layer());
  mask_rcnn::MaskRCNNHeads mask_head(backbone->out_channels, std::vector<int64_t>{256, 256, 256, 256}, 1,
                                     ops::batch_norm2d_layer());
  MaskRCNN model(MaskRCNNOptions(apply_kwargs(FasterRCNNOptions(backbone, p.num_classes)
                                                  .rpn_anchor_generator(anchor_generator)
                                                  .rpn_head(rpn_head)
                                                  .box_head(nn::AnyModule(box_head)),
                                              kwargs))
                     .mask_head(nn::AnyModule(mask_head)));
  if (weights) builder_detail::load_checkpoint(*model, *weights, "maskrcnn_resnet50_fpn_v2");
  return model;
}

KeypointRCNN keypointrcnn_resnet50_fpn(const std::optional<Weights>& weights, bool progress,
                                       std::optional<int64_t> num_classes, std::optional<int64_t> num_keypoints,
                                       std::optional<Weights> weights_backbone,
                                       std::optional<int64_t> trainable_backbone_layers,
                                       const KeypointRCNNKwargs& kwargs) {
  const Preamble p = preamble("keypointrcnn_resnet50_fpn", "KeypointRCNN_ResNet50_FPN_Weights", weights, num_classes,
                              std::move(weights_backbone), trainable_backbone_layers, 2);
  if (weights) {
    num_keypoints = ::torch::vision::models::detail::ovewrite_value_param(
        "keypointrcnn_resnet50_fpn", "num_keypoints", num_keypoints,
        static_cast<int64_t>(weights->meta.keypoint_names.size()));
  }
  auto backbone =
      resnet50_fpn(progress, p.weights_backbone, p.trainable_layers, builder_detail::backbone_norm_layer(p.is_trained));
  // KeypointRCNN's own default min_size, unless the kwargs override it.
  auto frcnn = FasterRCNNOptions(backbone, p.num_classes).min_size({640, 672, 704, 736, 768, 800});
  KeypointRCNN model(
      KeypointRCNNOptions(apply_kwargs(std::move(frcnn), kwargs)).num_keypoints(num_keypoints.value_or(17)));
  if (weights) {
    builder_detail::load_checkpoint(*model, *weights, "keypointrcnn_resnet50_fpn");
    if (weights->member == "COCO_V1") _utils::overwrite_eps(*model, 0.0);
  }
  return model;
}

}  // namespace torch::vision::models::detection
