#pragma once
// The full detection builders of torchvision.models.detection over the
// classification backbones: same module tree, so a torchvision state_dict
// loads by name. Checkpoints are never downloaded: `weights` is a member of
// the builder's weights enum pointing at its file
// (FasterRCNN_ResNet50_FPN_Weights::COCO_V1.with_path("...pth")); with
// weights, num_classes (and num_keypoints) come from the weights' meta, a
// different value raises, weights_backbone is ignored and the backbone is
// frozen-BN, as in torchvision. weights_backbone defaults to nullopt (Python:
// IMAGENET1K_V1), since nothing is downloaded.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "ember/vision/models/detection/faster_rcnn.h"
#include "ember/vision/models/detection/fcos.h"
#include "ember/vision/models/detection/keypoint_rcnn.h"
#include "ember/vision/models/detection/mask_rcnn.h"
#include "ember/vision/models/detection/retinanet.h"
#include "ember/vision/models/detection/weights_enums.h"
#include "ember/vision/models/weights.h"

namespace torch::vision::models::detection {

// The keyword arguments the builders forward to the model (Python's
// **kwargs); unset: the model's default (or the builder's, for the 320 variant).
struct DetectionKwargs {
  TORCH_ARG(std::optional<std::vector<int64_t>>, min_size) = std::nullopt;
  TORCH_ARG(std::optional<int64_t>, max_size) = std::nullopt;
  TORCH_ARG(std::optional<double>, score_thresh) = std::nullopt;
  TORCH_ARG(std::optional<double>, nms_thresh) = std::nullopt;
  TORCH_ARG(std::optional<int64_t>, detections_per_img) = std::nullopt;
  // Faster/Mask/Keypoint R-CNN only.
  TORCH_ARG(std::optional<int64_t>, rpn_pre_nms_top_n_test) = std::nullopt;
  TORCH_ARG(std::optional<int64_t>, rpn_post_nms_top_n_test) = std::nullopt;
  TORCH_ARG(std::optional<double>, rpn_score_thresh) = std::nullopt;
  // RetinaNet and FCOS only.
  TORCH_ARG(std::optional<int64_t>, topk_candidates) = std::nullopt;
};
using FasterRCNNKwargs = DetectionKwargs;
using RetinaNetKwargs = DetectionKwargs;
using FCOSKwargs = DetectionKwargs;
using MaskRCNNKwargs = DetectionKwargs;
using KeypointRCNNKwargs = DetectionKwargs;

FasterRCNN fasterrcnn_resnet50_fpn(const std::optional<Weights>& weights = std::nullopt, bool progress = true,
                                   std::optional<int64_t> num_classes = std::nullopt,
                                   std::optional<Weights> weights_backbone = std::nullopt,
                                   std::optional<int64_t> trainable_backbone_layers = std::nullopt,
                                   const FasterRCNNKwargs& kwargs = {});
FasterRCNN fasterrcnn_resnet50_fpn_v2(const std::optional<Weights>& weights = std::nullopt, bool progress = true,
                                      std::optional<int64_t> num_classes = std::nullopt,
                                      std::optional<Weights> weights_backbone = std::nullopt,
                                      std::optional<int64_t> trainable_backbone_layers = std::nullopt,
                                      const FasterRCNNKwargs& kwargs = {});
FasterRCNN fasterrcnn_mobilenet_v3_large_fpn(const std::optional<Weights>& weights = std::nullopt, bool progress = true,
                                             std::optional<int64_t> num_classes = std::nullopt,
                                             std::optional<Weights> weights_backbone = std::nullopt,
                                             std::optional<int64_t> trainable_backbone_layers = std::nullopt,
                                             const FasterRCNNKwargs& kwargs = {});
FasterRCNN fasterrcnn_mobilenet_v3_large_320_fpn(const std::optional<Weights>& weights = std::nullopt,
                                                 bool progress = true,
                                                 std::optional<int64_t> num_classes = std::nullopt,
                                                 std::optional<Weights> weights_backbone = std::nullopt,
                                                 std::optional<int64_t> trainable_backbone_layers = std::nullopt,
                                                 const FasterRCNNKwargs& kwargs = {});
// The checkpoint-path form examples/vision_detect uses: the COCO_V1 weights read from weights_path.
FasterRCNN fasterrcnn_mobilenet_v3_large_320_fpn(const std::string& weights_path, bool progress = true,
                                                 std::optional<int64_t> num_classes = std::nullopt,
                                                 std::optional<Weights> weights_backbone = std::nullopt,
                                                 std::optional<int64_t> trainable_backbone_layers = std::nullopt,
                                                 const FasterRCNNKwargs& kwargs = {});
RetinaNet retinanet_resnet50_fpn(const std::optional<Weights>& weights = std::nullopt, bool progress = true,
                                 std::optional<int64_t> num_classes = std::nullopt,
                                 std::optional<Weights> weights_backbone = std::nullopt,
                                 std::optional<int64_t> trainable_backbone_layers = std::nullopt,
                                 const RetinaNetKwargs& kwargs = {});
RetinaNet retinanet_resnet50_fpn_v2(const std::optional<Weights>& weights = std::nullopt, bool progress = true,
                                    std::optional<int64_t> num_classes = std::nullopt,
                                    std::optional<Weights> weights_backbone = std::nullopt,
                                    std::optional<int64_t> trainable_backbone_layers = std::nullopt,
                                    const RetinaNetKwargs& kwargs = {});
MaskRCNN maskrcnn_resnet50_fpn(const std::optional<Weights>& weights = std::nullopt, bool progress = true,
                               std::optional<int64_t> num_classes = std::nullopt,
                               std::optional<Weights> weights_backbone = std::nullopt,
                               std::optional<int64_t> trainable_backbone_layers = std::nullopt,
                               const MaskRCNNKwargs& kwargs = {});
MaskRCNN maskrcnn_resnet50_fpn_v2(const std::optional<Weights>& weights = std::nullopt, bool progress = true,
                                  std::optional<int64_t> num_classes = std::nullopt,
                                  std::optional<Weights> weights_backbone = std::nullopt,
                                  std::optional<int64_t> trainable_backbone_layers = std::nullopt,
                                  const MaskRCNNKwargs& kwargs = {});
// num_classes: 2 (person and background) and num_keypoints 17, or the weights' meta.
KeypointRCNN keypointrcnn_resnet50_fpn(const std::optional<Weights>& weights = std::nullopt, bool progress = true,
                                       std::optional<int64_t> num_classes = std::nullopt,
                                       std::optional<int64_t> num_keypoints = std::nullopt,
                                       std::optional<Weights> weights_backbone = std::nullopt,
                                       std::optional<int64_t> trainable_backbone_layers = std::nullopt,
                                       const KeypointRCNNKwargs& kwargs = {});
FCOS fcos_resnet50_fpn(const std::optional<Weights>& weights = std::nullopt, bool progress = true,
                       std::optional<int64_t> num_classes = std::nullopt,
                       std::optional<Weights> weights_backbone = std::nullopt,
                       std::optional<int64_t> trainable_backbone_layers = std::nullopt, const FCOSKwargs& kwargs = {});

}  // namespace torch::vision::models::detection
