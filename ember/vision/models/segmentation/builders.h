#pragma once
// The segmentation builders of torchvision.models.segmentation over the
// classification backbones (same module tree as torchvision's). As the
// detection builders, `weights` is a member of the builder's weights enum
// pointing at its file (FCN_ResNet50_Weights::COCO_WITH_VOC_LABELS_V1
// .with_path("...pth"); never downloaded): it fixes num_classes to its 21 VOC
// categories and aux_loss to true (a different value raises), as torchvision.
#include <cstdint>
#include <optional>
#include <string>

#include "ember/vision/models/segmentation/deeplabv3.h"
#include "ember/vision/models/segmentation/fcn.h"
#include "ember/vision/models/segmentation/lraspp.h"
#include "ember/vision/models/segmentation/weights_enums.h"
#include "ember/vision/models/weights.h"

namespace torch::vision::models::segmentation {

FCN fcn_resnet50(const std::optional<Weights>& weights = std::nullopt, bool progress = true,
                 std::optional<int64_t> num_classes = std::nullopt, std::optional<bool> aux_loss = std::nullopt,
                 std::optional<Weights> weights_backbone = std::nullopt);
FCN fcn_resnet101(const std::optional<Weights>& weights = std::nullopt, bool progress = true,
                  std::optional<int64_t> num_classes = std::nullopt, std::optional<bool> aux_loss = std::nullopt,
                  std::optional<Weights> weights_backbone = std::nullopt);
DeepLabV3 deeplabv3_resnet50(const std::optional<Weights>& weights = std::nullopt, bool progress = true,
                             std::optional<int64_t> num_classes = std::nullopt,
                             std::optional<bool> aux_loss = std::nullopt,
                             std::optional<Weights> weights_backbone = std::nullopt);
DeepLabV3 deeplabv3_resnet101(const std::optional<Weights>& weights = std::nullopt, bool progress = true,
                              std::optional<int64_t> num_classes = std::nullopt,
                              std::optional<bool> aux_loss = std::nullopt,
                              std::optional<Weights> weights_backbone = std::nullopt);
DeepLabV3 deeplabv3_mobilenet_v3_large(const std::optional<Weights>& weights = std::nullopt, bool progress = true,
                                       std::optional<int64_t> num_classes = std::nullopt,
                                       std::optional<bool> aux_loss = std::nullopt,
                                       std::optional<Weights> weights_backbone = std::nullopt);
LRASPP lraspp_mobilenet_v3_large(const std::optional<Weights>& weights = std::nullopt, bool progress = true,
                                 std::optional<int64_t> num_classes = std::nullopt,
                                 std::optional<Weights> weights_backbone = std::nullopt);

}  // namespace torch::vision::models::segmentation
