#pragma once
// torchvision.utils.flow_to_image: optical flow [2, H, W] or [N, 2, H, W]
// (float32) to an RGB uint8 image on the Middlebury colour wheel.
#include "ember/core/tensor.h"

namespace torch::vision::utils {

Tensor flow_to_image(const Tensor& flow);

}  // namespace torch::vision::utils
