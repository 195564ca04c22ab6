#pragma once
// ember::vision::utils — torchvision.utils: make_grid and the drawing
// helpers and flow_to_image (save_image is not here: it needs the io part's PNG encoder).
#include "ember/vision/utils/color.h"
#include "ember/vision/utils/draw.h"
#include "ember/vision/utils/flow_to_image.h"
#include "ember/vision/utils/make_grid.h"
