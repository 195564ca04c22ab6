// libFuzzer target: ember::vision::io's image decoders (libpng, libjpeg-turbo, libwebp behind
// decode_image's sniffing, and each decoder called directly) on arbitrary bytes, in every
// ImageReadMode. Any outcome but a tensor or an ember::Error is a bug: a crash, a sanitizer
// report, a hang, or an allocation sized by a header the bytes do not back.
#include <cstddef>
#include <cstdint>
#include <cstring>

#include "ember/core/error.h"
#include "ember/ops/factory/factory.h"
#include "ember/vision/io/image.h"

namespace {

using ember::vision::io::ImageReadMode;

template <typename F>
void expect_tensor_or_error(F&& decode) {
  try {
    const ember::Tensor out = decode();
    if (out.dim() != 3 || out.numel() == 0) __builtin_trap();
  } catch (const ember::Error&) {
  }
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  namespace io = ember::vision::io;
  if (size == 0) return 0;
  ember::Tensor bytes = ember::empty({static_cast<int64_t>(size)}, ember::kUInt8);
  std::memcpy(bytes.data_ptr<uint8_t>(), data, size);
  // The first byte picks the mode, so one input exercises one conversion path per run.
  const auto mode = static_cast<ImageReadMode>(data[0] % 5);
  expect_tensor_or_error([&] { return io::decode_image(bytes, mode); });
  expect_tensor_or_error([&] { return io::decode_png(bytes, mode, /*allow_16_bits=*/true); });
  expect_tensor_or_error([&] { return io::decode_jpeg(bytes, mode); });
  expect_tensor_or_error([&] { return io::decode_webp(bytes, mode); });
  return 0;
}
