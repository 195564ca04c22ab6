#pragma once
// torchvision.io.decode_webp (torchvision 0.20's API; 0.14 has no WebP) on libwebp.
#include "ember/core/tensor.h"
#include "ember/vision/io/image_read_mode.h"

namespace torch::vision::io {

// Decodes a still WebP (lossy or lossless) to a [C, H, W] uint8 image: UNCHANGED gives RGBA when
// the file has alpha and RGB otherwise; RGB and RGB_ALPHA force 3 or 4 channels.
Tensor decode_webp(const Tensor& input, ImageReadMode mode = ImageReadMode::UNCHANGED);

}  // namespace torch::vision::io
