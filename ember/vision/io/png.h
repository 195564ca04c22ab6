#pragma once
// torchvision.io.decode_png / encode_png / write_png on libpng.
#include <cstdint>
#include <string>

#include "ember/core/tensor.h"
#include "ember/vision/io/image_read_mode.h"

namespace torch::vision::io {

// Decodes PNG bytes (a 1-D uint8 tensor) to a [C, H, W] uint8 image, converting to `mode` with
// libpng's own transformations, as torchvision 0.14: UNCHANGED keeps the file's channels (a
// palette image gives its palette indices; 1/2/4-bit gray is scaled to 8 bits). 16-bit images
// raise unless allow_16_bits (torchvision's torch.ops.image.decode_png third argument), which
// returns int32 samples in [0, 65535].
Tensor decode_png(const Tensor& input, ImageReadMode mode = ImageReadMode::UNCHANGED, bool allow_16_bits = false);

// The PNG file bytes (1-D uint8) of a uint8 [1 or 3, H, W] image; compression_level in [0, 9].
Tensor encode_png(const Tensor& input, int64_t compression_level = 6);

void write_png(const Tensor& input, const std::string& filename, int64_t compression_level = 6);

}  // namespace torch::vision::io
