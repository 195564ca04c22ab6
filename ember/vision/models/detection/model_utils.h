#pragma once
// torchvision.models.detection._utils.overwrite_eps: sets the eps of every
// FrozenBatchNorm2d in a model (the builders do it after loading the
// original COCO checkpoints, trained with eps 0).
#include "ember/nn/module.h"

namespace torch::vision::models::detection::_utils {

void overwrite_eps(nn::Module& model, double eps);

}  // namespace torch::vision::models::detection::_utils
