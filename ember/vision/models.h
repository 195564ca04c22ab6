#pragma once
// ember::vision::models (torchvision.models): the classification CNNs, the
// multi-weight API and the model registry. The transformer, detection,
// segmentation and optical-flow parts add their headers here.
#include "ember/vision/models/_utils.h"
#include "ember/vision/models/convnext.h"
#include "ember/vision/models/detection.h"
#include "ember/vision/models/efficientnet.h"
#include "ember/vision/models/feature_extraction.h"
#include "ember/vision/models/imagenet_categories.h"
#include "ember/vision/models/intermediate_layer_getter.h"
#include "ember/vision/models/mobilenetv2.h"
#include "ember/vision/models/mobilenetv3.h"
#include "ember/vision/models/optical_flow.h"
#include "ember/vision/models/presets.h"
#include "ember/vision/models/registry.h"
#include "ember/vision/models/regnet.h"
#include "ember/vision/models/resnet.h"
#include "ember/vision/models/segmentation.h"
#include "ember/vision/models/swin_transformer.h"
#include "ember/vision/models/vision_transformer.h"
#include "ember/vision/models/weights.h"
#include "ember/vision/models/weights_enums.h"
