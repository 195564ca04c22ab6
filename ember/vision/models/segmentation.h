#pragma once
// ember::vision::models::segmentation (torchvision.models.segmentation):
// the FCN, DeepLabV3 and LRASPP heads and model classes.
#include "ember/vision/models/segmentation/backbone.h"
#include "ember/vision/models/segmentation/builders.h"
#include "ember/vision/models/segmentation/deeplabv3.h"
#include "ember/vision/models/segmentation/fcn.h"
#include "ember/vision/models/segmentation/lraspp.h"
#include "ember/vision/models/segmentation/simple_segmentation_model.h"
