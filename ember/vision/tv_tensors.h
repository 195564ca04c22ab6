#pragma once
// ember::vision::tv_tensors — torchvision.tv_tensors: Image, Video, Mask and
// BoundingBoxes (with BoundingBoxFormat and canvas_size), the typed tensors the
// transforms v2 apply jointly.
#include "ember/vision/tv_tensors/bounding_boxes.h"
#include "ember/vision/tv_tensors/tensor_types.h"
