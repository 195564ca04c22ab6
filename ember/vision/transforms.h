#pragma once
// ember::vision::transforms — torchvision.transforms on tensors: the functional
// API (transforms::functional) and the transform modules.
#include "ember/vision/transforms/functional.h"
#include "ember/vision/transforms/interpolation_mode.h"
