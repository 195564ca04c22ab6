#pragma once
// What the two SSD builders share: torchvision's preamble (weights checks and
// num_classes) and forwarding the **kwargs to SSDOptions. Internal.
#include <cstdint>
#include <optional>

#include "ember/vision/models/detection/ssd_builders.h"

namespace torch::vision::models::detection::ssd_builders_detail {

// Checks both weights against their enums; with weights the backbone's are
// dropped and num_classes is the categories' count (another value raises),
// else num_classes defaults to 91.
int64_t preamble(const char* builder, const std::optional<Weights>& weights, const char* weights_enum,
                 std::optional<Weights>& weights_backbone, const char* backbone_enum,
                 std::optional<int64_t> num_classes);

ssd::SSDOptions apply_kwargs(ssd::SSDOptions options, const SSDKwargs& kwargs);

}  // namespace torch::vision::models::detection::ssd_builders_detail
