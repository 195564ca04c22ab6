#include "ember/vision/io/webp.h"

#include <webp/decode.h>

#include "ember/core/error.h"
#include "ember/ops/factory/factory.h"
#include "ember/vision/io/detail/image_layout.h"

namespace torch::vision::io {

namespace {

const char* webp_status_name(VP8StatusCode status) {
  switch (status) {
    case VP8_STATUS_OK:
      return "ok";
    case VP8_STATUS_OUT_OF_MEMORY:
      return "out of memory";
    case VP8_STATUS_INVALID_PARAM:
      return "invalid parameter";
    case VP8_STATUS_BITSTREAM_ERROR:
      return "bitstream error";
    case VP8_STATUS_UNSUPPORTED_FEATURE:
      return "unsupported feature";
    case VP8_STATUS_SUSPENDED:
      return "suspended";
    case VP8_STATUS_USER_ABORT:
      return "user abort";
    case VP8_STATUS_NOT_ENOUGH_DATA:
      return "not enough data (truncated file)";
  }
  return "unknown error";
}

}  // namespace

Tensor decode_webp(const Tensor& input, ImageReadMode mode) {
  detail::check_encoded_data(input, "decode_webp");
  EMBER_CHECK(mode == ImageReadMode::UNCHANGED || mode == ImageReadMode::RGB || mode == ImageReadMode::RGB_ALPHA,
              "decode_webp: the provided mode ImageReadMode::", image_read_mode_name(mode),
              " is not supported for WebP files (UNCHANGED, RGB or RGB_ALPHA)");
  const Tensor data = input.contiguous();
  const auto* bytes = data.data_ptr<uint8_t>();
  const auto size = static_cast<size_t>(data.numel());
  WebPBitstreamFeatures features;
  const VP8StatusCode status = WebPGetFeatures(bytes, size, &features);
  EMBER_CHECK(status == VP8_STATUS_OK, "decode_webp: invalid WebP header: ", webp_status_name(status));
  EMBER_CHECK(!features.has_animation, "decode_webp: animated WebP files are not supported");
  const int64_t width = features.width, height = features.height;
  detail::check_image_size(width, height, "decode_webp");
  const bool rgba = mode == ImageReadMode::RGB_ALPHA || (mode == ImageReadMode::UNCHANGED && features.has_alpha);
  const int64_t channels = rgba ? 4 : 3;
  Tensor hwc = empty({height, width, channels}, kUInt8);
  const auto out_size = static_cast<size_t>(height * width * channels);
  const int stride = static_cast<int>(width * channels);
  uint8_t* out = rgba ? WebPDecodeRGBAInto(bytes, size, hwc.data_ptr<uint8_t>(), out_size, stride)
                      : WebPDecodeRGBInto(bytes, size, hwc.data_ptr<uint8_t>(), out_size, stride);
  EMBER_CHECK(out != nullptr, "decode_webp: corrupt or truncated WebP data (", size, " bytes, ", width, "x", height,
              ")");
  return detail::hwc_to_chw(hwc.data_ptr<uint8_t>(), height, width, channels);
}

}  // namespace torch::vision::io
