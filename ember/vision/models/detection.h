#pragma once
// ember::vision::models::detection (torchvision.models.detection): the
// detection building blocks, heads and the FasterRCNN model class.
#include "ember/vision/models/detection/anchor_utils.h"
#include "ember/vision/models/detection/backbone.h"
#include "ember/vision/models/detection/backbone_utils.h"
#include "ember/vision/models/detection/box_coder.h"
#include "ember/vision/models/detection/box_loss.h"
#include "ember/vision/models/detection/faster_rcnn.h"
#include "ember/vision/models/detection/fcos.h"
#include "ember/vision/models/detection/generalized_rcnn.h"
#include "ember/vision/models/detection/image_list.h"
#include "ember/vision/models/detection/matcher.h"
#include "ember/vision/models/detection/retinanet.h"
#include "ember/vision/models/detection/roi_heads.h"
#include "ember/vision/models/detection/rpn.h"
#include "ember/vision/models/detection/transform.h"
#include "ember/vision/models/detection/types.h"
