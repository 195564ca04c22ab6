// decode_png / encode_png against torchvision 0.14 (tools/golden/gen_vision_io_images.py).
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

constexpr ImageReadMode kAllModes[] = {ImageReadMode::UNCHANGED, ImageReadMode::GRAY, ImageReadMode::GRAY_ALPHA,
                                       ImageReadMode::RGB, ImageReadMode::RGB_ALPHA};

class PngDecode : public ::testing::TestWithParam<const char*> {};

TEST_P(PngDecode, EveryModeMatchesTorchvision) {
  const std::string name = GetParam();
  const Tensor data = asset_bytes(name + ".png");
  for (ImageReadMode mode : kAllModes) {
    SCOPED_TRACE(name + " " + image_read_mode_name(mode));
    const std::string key = "png." + name + "." + image_read_mode_name(mode);
    ASSERT_TRUE(image_golden().has(key));
    const Tensor out = decode_png(data, mode);
    EXPECT_TRUE(out.is_contiguous());
    EXPECT_TENSOR_EQ(out, image_golden()[key]);
  }
}

INSTANTIATE_TEST_SUITE_P(Files, PngDecode,
                         ::testing::Values("gray1", "gray2", "gray4", "gray8", "gray8_trns", "graya8", "rgb8",
                                           "rgb8_trns", "rgba8", "palette1", "palette1_trns", "palette2",
                                           "palette2_trns", "palette4", "palette4_trns", "palette8", "palette8_trns",
                                           "rgb8_adam7", "gray2_adam7", "palette4_adam7"));

TEST(PngDecode, SixteenBitRaisesLikeTorchvisionUnlessAllowed) {
  for (const char* name : {"gray16", "graya16", "rgb16", "rgba16"}) {
    const Tensor data = asset_bytes(std::string(name) + ".png");
    EXPECT_EMBER_ERROR(decode_png(data), "decode_png", "8-bit");
    EXPECT_EMBER_ERROR(decode_image(data), "decode_png", "8-bit");
    for (ImageReadMode mode : kAllModes) {
      SCOPED_TRACE(std::string(name) + " " + image_read_mode_name(mode));
      const Tensor out = decode_png(data, mode, /*allow_16_bits=*/true);
      EXPECT_TENSOR_EQ(out, image_golden()[std::string("png16.") + name + "." + image_read_mode_name(mode)]);
    }
  }
}

TEST(PngDecode, ThroughDecodeImageAndReadImage) {
  for (ImageReadMode mode : kAllModes) {
    const Tensor expected = image_golden()[std::string("png.pil_rgb.") + image_read_mode_name(mode)];
    EXPECT_TENSOR_EQ(decode_image(asset_bytes("pil_rgb.png"), mode), expected);
    EXPECT_TENSOR_EQ(read_image(asset("pil_rgb.png"), mode), expected);
  }
}

TEST(PngDecode, HostileFilesRaise) {
  EXPECT_EMBER_ERROR(decode_png(asset_bytes("bad_truncated.png")), "decode_png");
  EXPECT_EMBER_ERROR(decode_png(asset_bytes("bad_no_iend.png")), "decode_png");
  EXPECT_EMBER_ERROR(decode_png(asset_bytes("bad_idat_crc.png")), "decode_png");
  // 100000 x 100000 RGB in 69 bytes: refused from the header, before any allocation.
  EXPECT_EMBER_ERROR(decode_png(asset_bytes("bad_huge.png")), "decode_png", "100000x100000");
  EXPECT_EMBER_ERROR(decode_png(asset_bytes("bad_zero_width.png")), "decode_png");
  EXPECT_EMBER_ERROR(decode_png(asset_bytes("bad_depth.png")), "decode_png");
  EXPECT_EMBER_ERROR(decode_png(asset_bytes("bad_no_idat.png")), "decode_png");
  EXPECT_EMBER_ERROR(decode_png(asset_bytes("bad_short_idat.png")), "decode_png");
  EXPECT_EMBER_ERROR(decode_png(asset_bytes("baseline420.jpg")), "decode_png", "not png");
  const Tensor rgb = asset_bytes("rgb8.png");
  for (int64_t n : {1, 7, 8, 20, 33, 40, 100}) EXPECT_EMBER_ERROR(decode_png(rgb.slice(0, 0, n)), "decode_png");
}

TEST(PngDecode, BadInputTensorsRaise) {
  const Tensor rgb = asset_bytes("rgb8.png");
  EXPECT_EMBER_ERROR(decode_png(rgb.to(kInt32)), "decode_png", "uint8");
  EXPECT_EMBER_ERROR(decode_png(rgb.reshape({2, -1})), "decode_png", "1-dimensional");
  EXPECT_EMBER_ERROR(decode_png(empty({0}, kUInt8)), "decode_png", "non empty");
  EXPECT_EMBER_ERROR(decode_png(Tensor()), "decode_png");
}

TEST(PngEncode, BytesEqualTorchvision) {
  const Tensor rgb = image_golden()["enc.rgb"], gray = image_golden()["enc.gray"];
  for (int level : {0, 1, 6, 9}) {
    SCOPED_TRACE(level);
    EXPECT_TENSOR_EQ(encode_png(rgb, level), image_golden()["enc.png_rgb_" + std::to_string(level)]);
    EXPECT_TENSOR_EQ(encode_png(gray, level), image_golden()["enc.png_gray_" + std::to_string(level)]);
    EXPECT_TENSOR_EQ(decode_png(encode_png(rgb, level)), rgb);
  }
  EXPECT_TENSOR_EQ(encode_png(rgb), image_golden()["enc.png_rgb_6"]);
  // A non-contiguous view encodes its values.
  const Tensor hwc = rgb.permute({1, 2, 0}).contiguous();
  EXPECT_TENSOR_EQ(encode_png(hwc.permute({2, 0, 1})), image_golden()["enc.png_rgb_6"]);
}

TEST(PngEncode, WritePngAndReadBack) {
  const Tensor rgb = image_golden()["enc.rgb"];
  const std::string path = ::testing::TempDir() + "ember_io_write.png";
  write_png(rgb, path, 3);
  EXPECT_TENSOR_EQ(read_image(path), rgb);
  EXPECT_TENSOR_EQ(read_file(path), encode_png(rgb, 3));
  std::remove(path.c_str());
}

TEST(PngEncode, BadInputRaises) {
  const Tensor rgb = image_golden()["enc.rgb"];
  EXPECT_EMBER_ERROR(encode_png(rgb, 10), "encode_png", "compression level", "10");
  EXPECT_EMBER_ERROR(encode_png(rgb, -1), "encode_png", "compression level");
  EXPECT_EMBER_ERROR(encode_png(rgb.to(kFloat)), "encode_png", "uint8");
  EXPECT_EMBER_ERROR(encode_png(rgb[0]), "encode_png", "3-dimensional");
  EXPECT_EMBER_ERROR(encode_png(cat({rgb, rgb.slice(0, 0, 1)})), "encode_png", "channels", "4");
  EXPECT_EMBER_ERROR(encode_png(empty({3, 0, 4}, kUInt8)), "encode_png", "empty");
}

}  // namespace
}  // namespace torch::vision::io
