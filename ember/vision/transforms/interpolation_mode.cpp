#include "ember/vision/transforms/interpolation_mode.h"

namespace torch::vision::transforms {

std::string_view interpolation_mode_name(InterpolationMode mode) {
  switch (mode) {
    case InterpolationMode::NEAREST:
      return "nearest";
    case InterpolationMode::NEAREST_EXACT:
      return "nearest-exact";
    case InterpolationMode::BILINEAR:
      return "bilinear";
    case InterpolationMode::BICUBIC:
      return "bicubic";
    case InterpolationMode::BOX:
      return "box";
    case InterpolationMode::HAMMING:
      return "hamming";
    case InterpolationMode::LANCZOS:
      return "lanczos";
  }
  return "unknown";
}

}  // namespace torch::vision::transforms
