#pragma once
// torchvision.io.ImageReadMode: the channel layout a decoder converts to.
#include <cstdint>

#include "ember/core/namespace.h"

namespace torch::vision::io {

// Values as Python's (ImageReadMode.RGB.value == 3).
enum class ImageReadMode : int64_t { UNCHANGED = 0, GRAY = 1, GRAY_ALPHA = 2, RGB = 3, RGB_ALPHA = 4 };

const char* image_read_mode_name(ImageReadMode mode);

}  // namespace torch::vision::io
