#include "ember/vision/io/image_read_mode.h"

namespace torch::vision::io {

const char* image_read_mode_name(ImageReadMode mode) {
  switch (mode) {
    case ImageReadMode::UNCHANGED:
      return "UNCHANGED";
    case ImageReadMode::GRAY:
      return "GRAY";
    case ImageReadMode::GRAY_ALPHA:
      return "GRAY_ALPHA";
    case ImageReadMode::RGB:
      return "RGB";
    case ImageReadMode::RGB_ALPHA:
      return "RGB_ALPHA";
  }
  return "unknown";
}

}  // namespace torch::vision::io
