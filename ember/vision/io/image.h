#pragma once
// torchvision.io's image functions: the codecs, decode_image (sniffs the format) and read_image.
#include <string>

#include "ember/core/tensor.h"
#include "ember/vision/io/file.h"
#include "ember/vision/io/image_read_mode.h"
#include "ember/vision/io/jpeg.h"
#include "ember/vision/io/png.h"
#include "ember/vision/io/webp.h"

namespace torch::vision::io {

// Decodes JPEG, PNG or WebP bytes, chosen by their signature, to a [C, H, W] uint8 image.
Tensor decode_image(const Tensor& input, ImageReadMode mode = ImageReadMode::UNCHANGED);

// decode_image(read_file(path), mode).
Tensor read_image(const std::string& path, ImageReadMode mode = ImageReadMode::UNCHANGED);

}  // namespace torch::vision::io
