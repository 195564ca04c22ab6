#pragma once
// ember::vision::utils — torchvision.utils: make_grid and the drawing
// helpers, flow_to_image and save_image.
#include "ember/vision/utils/color.h"
#include "ember/vision/utils/draw.h"
#include "ember/vision/utils/flow_to_image.h"
#include "ember/vision/utils/make_grid.h"
#include "ember/vision/utils/save_image.h"
