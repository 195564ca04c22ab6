#pragma once
// ember::vision::transforms::v2 — torchvision.transforms.v2: transforms applied
// jointly to an image (or video) and its bounding boxes, masks and labels,
// held in a v2::Sample; the typed tensors are ember::vision::tv_tensors.
#include "ember/vision/transforms/v2/auto_augment_modules.h"
#include "ember/vision/transforms/v2/containers.h"
#include "ember/vision/transforms/v2/detection_modules.h"
#include "ember/vision/transforms/v2/functional.h"
#include "ember/vision/transforms/v2/geometry_modules.h"
#include "ember/vision/transforms/v2/meta_modules.h"
#include "ember/vision/transforms/v2/mixup_cutmix.h"
#include "ember/vision/transforms/v2/pixel_modules.h"
#include "ember/vision/transforms/v2/sample.h"
#include "ember/vision/tv_tensors.h"
