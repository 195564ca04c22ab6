#pragma once
// torchvision 0.14's SSD builders: ssd300_vgg16 (SSD over VGG16's features)
// and ssdlite320_mobilenet_v3_large (SSD with the SSDLite head over
// MobileNetV3-Large), their COCO weights enums, and their model-registry
// entries. Same module trees as torchvision, so its checkpoints load by name.
#include <cstdint>
#include <optional>
#include <vector>

// backbone_utils.h first: it names models::_utils unqualified, which the
// detection::_utils of ssd.h's headers would shadow (clang rejects it).
#include "ember/vision/models/detection/backbone_utils.h"
// clang-format off
#include "ember/core/arg.h"
#include "ember/vision/models/detection/ssd.h"
#include "ember/vision/models/detection/ssd_vgg.h"
#include "ember/vision/models/detection/ssdlite.h"
#include "ember/vision/models/registry.h"
#include "ember/vision/models/weights.h"
#include "ember/vision/ops/misc.h"
// clang-format on

namespace torch::vision::models::detection {

// The COCO weights name torchvision's ObjectDetection preset (the image to
// float in [0, 1]; the model normalises and resizes), as the other detectors'.
struct SSD300_VGG16_Weights {
  static constexpr const char* name = "SSD300_VGG16_Weights";
  static const Weights& COCO_V1;
  static const Weights& DEFAULT;
  static const WeightsEnum& enum_info();
};
struct SSDLite320_MobileNet_V3_Large_Weights {
  static constexpr const char* name = "SSDLite320_MobileNet_V3_Large_Weights";
  static const Weights& COCO_V1;
  static const Weights& DEFAULT;
  static const WeightsEnum& enum_info();
};

// The SSD keyword arguments the builders forward (Python's **kwargs); unset:
// the builder's default (ssd300: image_mean/std for VGG's caffe-style input;
// ssdlite: score 0.001, nms 0.55, 300 detections and candidates, mean/std 0.5).
struct SSDKwargs {
  TORCH_ARG(std::optional<std::vector<double>>, image_mean) = std::nullopt;
  TORCH_ARG(std::optional<std::vector<double>>, image_std) = std::nullopt;
  TORCH_ARG(std::optional<double>, score_thresh) = std::nullopt;
  TORCH_ARG(std::optional<double>, nms_thresh) = std::nullopt;
  TORCH_ARG(std::optional<int64_t>, detections_per_img) = std::nullopt;
  TORCH_ARG(std::optional<double>, iou_thresh) = std::nullopt;
  TORCH_ARG(std::optional<int64_t>, topk_candidates) = std::nullopt;
  TORCH_ARG(std::optional<double>, positive_fraction) = std::nullopt;
};
using SSDLiteKwargs = SSDKwargs;

// weights_backbone: VGG16_Weights (Python's default IMAGENET1K_FEATURES is not
// downloaded, so the default here is none); trainable_backbone_layers 0..5 (4).
ssd::SSD ssd300_vgg16(std::optional<Weights> weights = std::nullopt, bool progress = true,
                      std::optional<int64_t> num_classes = std::nullopt,
                      std::optional<Weights> weights_backbone = std::nullopt,
                      std::optional<int64_t> trainable_backbone_layers = std::nullopt, const SSDKwargs& kwargs = {});

// weights_backbone: MobileNet_V3_Large_Weights (default none, so the backbone
// has the reduced tail and N(0, 0.03) convs); trainable_backbone_layers 0..6
// (6); norm_layer nullopt: BatchNorm2d(eps=0.001, momentum=0.03).
ssd::SSD ssdlite320_mobilenet_v3_large(std::optional<Weights> weights = std::nullopt, bool progress = true,
                                       std::optional<int64_t> num_classes = std::nullopt,
                                       std::optional<Weights> weights_backbone = std::nullopt,
                                       std::optional<int64_t> trainable_backbone_layers = std::nullopt,
                                       std::optional<ops::NormLayer> norm_layer = std::nullopt,
                                       const SSDLiteKwargs& kwargs = {});

}  // namespace torch::vision::models::detection
