#pragma once
// torchvision.io.decode_jpeg / encode_jpeg / write_jpeg on libjpeg-turbo.
#include <cstdint>
#include <string>

#include "ember/core/device.h"
#include "ember/core/tensor.h"
#include "ember/vision/io/image_read_mode.h"

namespace torch::vision::io {

// Decodes JPEG bytes (a 1-D uint8 CPU tensor) to a [C, H, W] uint8 image with libjpeg-turbo's
// defaults (accurate integer IDCT, fancy upsampling), as torchvision 0.14 and tjDecompress2.
// UNCHANGED keeps the file's components (1 gray, 3 RGB, 4 CMYK as stored); GRAY and RGB convert.
// device ("cpu", kCPU, a Device) must be the CPU: there is no nvjpeg path.
// The result is torchvision's layout: a [C, H, W] view of an interleaved [H, W, C] buffer
// (strides (1, W*C, C); contiguous for one channel). Call contiguous() for planar storage.
Tensor decode_jpeg(const Tensor& input, ImageReadMode mode = ImageReadMode::UNCHANGED, const Device& device = kCPU);

// The JPEG file bytes (1-D uint8) of a uint8 [1 or 3, H, W] image; quality in [1, 100].
Tensor encode_jpeg(const Tensor& input, int64_t quality = 75);

void write_jpeg(const Tensor& input, const std::string& filename, int64_t quality = 75);

}  // namespace torch::vision::io
