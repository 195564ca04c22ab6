#pragma once
// The segmentation builders of torchvision.models.segmentation over the
// classification backbones (same module tree as torchvision's). As the
// detection builders, `weights` is the path of a torchvision checkpoint
// (never downloaded; the VOC weight enums are not built yet): it fixes
// num_classes to 21 and aux_loss to true, as torchvision.
#include <cstdint>
#include <optional>
#include <string>

#include "ember/vision/models/segmentation/deeplabv3.h"
#include "ember/vision/models/segmentation/fcn.h"
#include "ember/vision/models/segmentation/lraspp.h"
#include "ember/vision/models/weights.h"

namespace torch::vision::models::segmentation {

FCN fcn_resnet50(const std::optional<std::string>& weights = std::nullopt, bool progress = true,
                 std::optional<int64_t> num_classes = std::nullopt, std::optional<bool> aux_loss = std::nullopt,
                 std::optional<Weights> weights_backbone = std::nullopt);
FCN fcn_resnet101(const std::optional<std::string>& weights = std::nullopt, bool progress = true,
                  std::optional<int64_t> num_classes = std::nullopt, std::optional<bool> aux_loss = std::nullopt,
                  std::optional<Weights> weights_backbone = std::nullopt);
DeepLabV3 deeplabv3_resnet50(const std::optional<std::string>& weights = std::nullopt, bool progress = true,
                             std::optional<int64_t> num_classes = std::nullopt,
                             std::optional<bool> aux_loss = std::nullopt,
                             std::optional<Weights> weights_backbone = std::nullopt);
DeepLabV3 deeplabv3_resnet101(const std::optional<std::string>& weights = std::nullopt, bool progress = true,
                              std::optional<int64_t> num_classes = std::nullopt,
                              std::optional<bool> aux_loss = std::nullopt,
                              std::optional<Weights> weights_backbone = std::nullopt);
DeepLabV3 deeplabv3_mobilenet_v3_large(const std::optional<std::string>& weights = std::nullopt, bool progress = true,
                                       std::optional<int64_t> num_classes = std::nullopt,
                                       std::optional<bool> aux_loss = std::nullopt,
                                       std::optional<Weights> weights_backbone = std::nullopt);
LRASPP lraspp_mobilenet_v3_large(const std::optional<std::string>& weights = std::nullopt, bool progress = true,
                                 std::optional<int64_t> num_classes = std::nullopt,
                                 std::optional<Weights> weights_backbone = std::nullopt);

}  // namespace torch::vision::models::segmentation
