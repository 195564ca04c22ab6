#pragma once
// ember::vision::transforms — torchvision.transforms on tensors: the functional
// API (transforms::functional) and the transform modules (LibTorch-style
// holders: transforms::Resize(ResizeOptions(256)), transforms::Compose({...})).
#include "ember/vision/transforms/autoaugment.h"
#include "ember/vision/transforms/color_modules.h"
#include "ember/vision/transforms/containers.h"
#include "ember/vision/transforms/functional.h"
#include "ember/vision/transforms/geometry_modules.h"
#include "ember/vision/transforms/interpolation_mode.h"
#include "ember/vision/transforms/tensor_modules.h"
#include "ember/vision/transforms/v2.h"
#include "ember/vision/transforms/v2/mixup_cutmix.h"
