#include "ember/vision/io/image.h"

#include <cstring>

#include "ember/core/error.h"
#include "ember/vision/io/detail/image_layout.h"

namespace torch::vision::io {

Tensor decode_image(const Tensor& input, ImageReadMode mode) {
  detail::check_encoded_data(input, "decode_image");
  const Tensor data = input.contiguous();
  const auto* p = data.data_ptr<uint8_t>();
  const int64_t n = data.numel();
  if (n >= 3 && p[0] == 0xFF && p[1] == 0xD8 && p[2] == 0xFF) return decode_jpeg(data, mode);
  if (n >= 4 && p[0] == 0x89 && p[1] == 'P' && p[2] == 'N' && p[3] == 'G') return decode_png(data, mode);
  if (n >= 12 && std::memcmp(p, "RIFF", 4) == 0 && std::memcmp(p + 8, "WEBP", 4) == 0) return decode_webp(data, mode);
  EMBER_ERROR("decode_image: unsupported image file (", n,
              " bytes). Only jpeg, png and webp are currently "
              "supported.");
}

Tensor read_image(const std::string& path, ImageReadMode mode) { return decode_image(read_file(path), mode); }

}  // namespace torch::vision::io
