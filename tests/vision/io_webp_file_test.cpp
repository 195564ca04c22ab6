// decode_webp against PIL's decode through libwebp; decode_image's sniffing; read_file / write_file.
#include <gtest/gtest.h>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/vision/io/image.h"

namespace torch::vision::io {
namespace {

// The committed test files (tests/golden/vision/io/) and their golden values.
std::string asset(const std::string& name) { return std::string(EMBER_GOLDEN_DIR) + "/vision/io/" + name; }

Tensor asset_bytes(const std::string& name) { return read_file(asset(name)); }

const ::torch::testing::Golden& image_golden() {
  static const ::torch::testing::Golden g("vision_io_images.golden");
  return g;
}

TEST(WebpDecode, MatchesLibwebpThroughPil) {
  for (const char* name : {"lossless_rgba", "lossy_rgb", "lossless_rgb"}) {
    const Tensor data = asset_bytes(std::string(name) + ".webp");
    for (ImageReadMode mode : {ImageReadMode::UNCHANGED, ImageReadMode::RGB, ImageReadMode::RGB_ALPHA}) {
      SCOPED_TRACE(std::string(name) + " " + image_read_mode_name(mode));
      const Tensor expected = image_golden()[std::string("webp.") + name + "." + image_read_mode_name(mode)];
      EXPECT_TENSOR_EQ(decode_webp(data, mode), expected);
      EXPECT_TENSOR_EQ(decode_image(data, mode), expected);
    }
    EXPECT_EMBER_ERROR(decode_webp(data, ImageReadMode::GRAY), "decode_webp", "GRAY");
  }
  EXPECT_EQ(decode_webp(asset_bytes("lossless_rgba.webp")).size(0), 4);
  EXPECT_EQ(decode_webp(asset_bytes("lossy_rgb.webp")).size(0), 3);
}

TEST(WebpDecode, HostileFilesRaise) {
  EXPECT_EMBER_ERROR(decode_webp(asset_bytes("bad_truncated.webp")), "decode_webp");
  EXPECT_EMBER_ERROR(decode_webp(asset_bytes("rgb8.png")), "decode_webp");
  const Tensor data = asset_bytes("lossless_rgba.webp");
  for (int64_t n : {1, 12, 30, 100, 500}) EXPECT_EMBER_ERROR(decode_webp(data.slice(0, 0, n)), "decode_webp");
}

TEST(DecodeImage, UnknownFormatsRaise) {
  EXPECT_EMBER_ERROR(decode_image(tensor({1, 2, 3, 4, 5}).to(kUInt8)), "decode_image", "unsupported");
  EXPECT_EMBER_ERROR(decode_image(empty({0}, kUInt8)), "decode_image", "non empty");
  EXPECT_EMBER_ERROR(decode_image(asset_bytes("rgb8.png").to(kFloat)), "decode_image", "uint8");
  EXPECT_EMBER_ERROR(read_image(asset("no_such_file.png")), "read_file", "no_such_file.png");
}

TEST(FileIo, RoundTripsBytes) {
  const std::string path = ::testing::TempDir() + "ember_io_bytes.bin";
  const Tensor bytes = arange(0, 256).to(kUInt8);
  write_file(path, bytes);
  EXPECT_TENSOR_EQ(read_file(path), bytes);
  write_file(path, empty({0}, kUInt8));
  EXPECT_EQ(read_file(path).numel(), 0);
  EXPECT_EQ(read_file(path).scalar_type(), kUInt8);
  std::remove(path.c_str());
  EXPECT_EMBER_ERROR(write_file(path, bytes.to(kInt32)), "write_file", "uint8");
  EXPECT_EMBER_ERROR(write_file(path, bytes.reshape({16, 16})), "write_file", "1-dimensional");
  EXPECT_EMBER_ERROR(read_file(path), "read_file", "does not exist");
  EXPECT_EMBER_ERROR(read_file(::testing::TempDir()), "read_file", "directory");
  EXPECT_EMBER_ERROR(write_file("/nonexistent-dir/x.bin", bytes), "write_file");
}

}  // namespace
}  // namespace torch::vision::io
