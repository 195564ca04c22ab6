#pragma once
// ember::vision::ops — torchvision.ops in C++: box geometry and NMS, the RoI
// ops, deformable convolution, detection losses and the building-block modules.
#include "ember/vision/ops/box_losses.h"
#include "ember/vision/ops/boxes.h"
#include "ember/vision/ops/deform_conv.h"
#include "ember/vision/ops/feature_pyramid_network.h"
#include "ember/vision/ops/focal_loss.h"
#include "ember/vision/ops/misc.h"
#include "ember/vision/ops/poolers.h"
#include "ember/vision/ops/ps_roi_align.h"
#include "ember/vision/ops/ps_roi_pool.h"
#include "ember/vision/ops/roi_align.h"
#include "ember/vision/ops/roi_pool.h"
#include "ember/vision/ops/stochastic_depth.h"
