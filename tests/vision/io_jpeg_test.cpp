// decode_jpeg / encode_jpeg against torchvision 0.14, which runs libjpeg-turbo with its default
// (accurate integer IDCT, fancy upsampling) settings (tools/golden/gen_vision_io_images.py).
#include <gtest/gtest.h>

#include <functional>
#include <vector>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/vision/io/image.h"
#include "ember/vision/io/png.h"
#include "ember/vision/transforms/functional.h"
#include "ember/vision/utils/draw.h"

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

class JpegDecode : public ::testing::TestWithParam<const char*> {};

TEST_P(JpegDecode, EveryModeMatchesTorchvision) {
  const std::string name = GetParam();
  const Tensor data = asset_bytes(name + ".jpg");
  for (ImageReadMode mode : kAllModes) {
    SCOPED_TRACE(name + " " + image_read_mode_name(mode));
    const std::string key = "jpeg." + name + "." + image_read_mode_name(mode);
    if (image_golden().has(key)) {
      EXPECT_TENSOR_EQ(decode_jpeg(data, mode), image_golden()[key]);
      EXPECT_TENSOR_EQ(decode_image(data, mode), image_golden()[key]);
    } else {
      EXPECT_EMBER_ERROR(decode_jpeg(data, mode), "decode_jpeg");  // torchvision raises too
    }
  }
}

INSTANTIATE_TEST_SUITE_P(Files, JpegDecode,
                         ::testing::Values("baseline420", "baseline422", "baseline444", "progressive", "optimized",
                                           "gray", "cmyk"));

// torchvision 0.14's decode_jpeg returns the permuted view of its HWC buffer; these are the
// strides Debian's torchvision reports for the committed files (tensor.stride() in Python).
TEST(JpegDecode, StridesEqualTorchvision) {
  using Strides = std::vector<int64_t>;
  const std::tuple<const char*, ImageReadMode, Strides> cases[] = {
      {"baseline420", ImageReadMode::UNCHANGED, {1, 111, 3}}, {"baseline420", ImageReadMode::GRAY, {1, 37, 1}},
      {"baseline420", ImageReadMode::RGB, {1, 111, 3}},       {"progressive", ImageReadMode::UNCHANGED, {1, 111, 3}},
      {"gray", ImageReadMode::UNCHANGED, {1, 37, 1}},         {"gray", ImageReadMode::RGB, {1, 111, 3}},
      {"cmyk", ImageReadMode::UNCHANGED, {1, 148, 4}}};
  for (const auto& [name, mode, strides] : cases) {
    SCOPED_TRACE(std::string(name) + " " + image_read_mode_name(mode));
    const Tensor out = decode_jpeg(asset_bytes(std::string(name) + ".jpg"), mode);
    EXPECT_EQ(out.strides().vec(), strides);
    // The view holds the values: a planar copy of it is the golden image.
    const std::string key = std::string("jpeg.") + name + "." + image_read_mode_name(mode);
    EXPECT_TENSOR_EQ(out.contiguous(), image_golden()[key]);
  }
}

// The strided result goes through the library's kernels as its planar copy does.
TEST(JpegDecode, ViewWorksEverywhereItsCopyDoes) {
  namespace F = transforms::functional;
  const Tensor view = decode_jpeg(asset_bytes("baseline420.jpg"));
  ASSERT_FALSE(view.is_contiguous());
  const Tensor planar = view.contiguous();
  const std::vector<std::function<Tensor(const Tensor&)>> ops = {
      [](const Tensor& x) {
        return F::resize(x, {16, 20});
      },
      [](const Tensor& x) { return F::crop(x, 3, 4, 10, 12); },
      [](const Tensor& x) { return F::hflip(x); },
      [](const Tensor& x) { return F::rotate(x, 30.0); },
      [](const Tensor& x) { return F::convert_image_dtype(x, kFloat); },
      [](const Tensor& x) { return F::rgb_to_grayscale(x); },
      [](const Tensor& x) { return F::adjust_hue(x, 0.2); },
      [](const Tensor& x) { return F::equalize(x); },
      [](const Tensor& x) { return F::autocontrast(x); },
      [](const Tensor& x) { return F::posterize(x, 3); },
      [](const Tensor& x) {
        return F::gaussian_blur(x, {3, 3});
      },
      [](const Tensor& x) { return encode_jpeg(x, 80); },
      [](const Tensor& x) { return encode_png(x); },
      [](const Tensor& x) {
        return utils::draw_bounding_boxes(x, tensor({{1.0f, 2.0f, 20.0f, 15.0f}}));
      },
  };
  for (size_t i = 0; i < ops.size(); ++i) {
    SCOPED_TRACE(i);
    EXPECT_TENSOR_EQ(ops[i](view), ops[i](planar));
  }
  // encode_jpeg hands HWC memory to libjpeg as it is; other strides go through a planar copy.
  const Tensor hwc = view.permute({1, 2, 0});
  const Tensor cropped = hwc.slice(1, 2, 30).permute({2, 0, 1});
  EXPECT_TENSOR_EQ(encode_jpeg(cropped, 90), encode_jpeg(cropped.contiguous(), 90));
  EXPECT_TENSOR_EQ(encode_jpeg(view.flip({1}), 90), encode_jpeg(planar.flip({1}).contiguous(), 90));
}

TEST(JpegDecode, ReadImage) {
  EXPECT_TENSOR_EQ(read_image(asset("baseline420.jpg")), image_golden()["jpeg.baseline420_image.UNCHANGED"]);
  EXPECT_TENSOR_EQ(read_image(asset("baseline420.jpg"), ImageReadMode::GRAY),
                   image_golden()["jpeg.baseline420_image.GRAY"]);
}

TEST(JpegDecode, HostileFilesRaise) {
  EXPECT_EMBER_ERROR(decode_jpeg(asset_bytes("bad_truncated.jpg")), "decode_jpeg");
  EXPECT_EMBER_ERROR(decode_jpeg(asset_bytes("bad_header_only.jpg")), "decode_jpeg");
  EXPECT_EMBER_ERROR(decode_jpeg(asset_bytes("bad_huge.jpg")), "decode_jpeg", "65000x65000");
  EXPECT_EMBER_ERROR(decode_jpeg(asset_bytes("bad_garbage.jpg")), "decode_jpeg");
  EXPECT_EMBER_ERROR(decode_image(asset_bytes("bad_truncated.jpg")), "decode_jpeg");
  EXPECT_EMBER_ERROR(decode_jpeg(asset_bytes("rgb8.png")), "decode_jpeg");
  const Tensor jpg = asset_bytes("progressive.jpg");
  for (int64_t n : {1, 2, 3, 50, 300, 600}) EXPECT_EMBER_ERROR(decode_jpeg(jpg.slice(0, 0, n)), "decode_jpeg");
}

TEST(JpegDecode, BadArgumentsRaise) {
  const Tensor jpg = asset_bytes("baseline420.jpg");
  EXPECT_EMBER_ERROR(decode_jpeg(jpg, ImageReadMode::RGB_ALPHA), "decode_jpeg", "RGB_ALPHA");
  EXPECT_EMBER_ERROR(decode_jpeg(jpg, ImageReadMode::GRAY_ALPHA), "decode_jpeg", "GRAY_ALPHA");
  EXPECT_EMBER_ERROR(decode_jpeg(jpg, ImageReadMode::UNCHANGED, "cuda"), "decode_jpeg", "cuda");
  EXPECT_EMBER_ERROR(decode_jpeg(jpg, ImageReadMode::UNCHANGED, Device(kCUDA, 0)), "decode_jpeg", "cuda");
  EXPECT_TENSOR_EQ(decode_jpeg(jpg, ImageReadMode::UNCHANGED, std::string("cpu")), decode_jpeg(jpg));
  EXPECT_TENSOR_EQ(decode_jpeg(jpg, ImageReadMode::RGB, kCPU), decode_jpeg(jpg));
  EXPECT_EMBER_ERROR(decode_jpeg(jpg.to(kFloat)), "decode_jpeg", "uint8");
  EXPECT_EMBER_ERROR(decode_jpeg(empty({0}, kUInt8)), "decode_jpeg", "non empty");
}

TEST(JpegEncode, BytesEqualTorchvision) {
  const Tensor rgb = image_golden()["enc.rgb"], gray = image_golden()["enc.gray"];
  for (int q : {1, 10, 75, 95, 100}) {
    SCOPED_TRACE(q);
    EXPECT_TENSOR_EQ(encode_jpeg(rgb, q), image_golden()["enc.jpeg_rgb_" + std::to_string(q)]);
    EXPECT_TENSOR_EQ(encode_jpeg(gray, q), image_golden()["enc.jpeg_gray_" + std::to_string(q)]);
  }
  EXPECT_TENSOR_EQ(encode_jpeg(rgb), image_golden()["enc.jpeg_rgb_75"]);
  const Tensor back = decode_jpeg(encode_jpeg(rgb, 100));
  EXPECT_EQ(back.sizes(), rgb.sizes());
  EXPECT_LT((back.to(kFloat) - rgb.to(kFloat)).abs().mean().item<float>(), 8.0f);
}

TEST(JpegEncode, WriteJpegAndBadInput) {
  const Tensor rgb = image_golden()["enc.rgb"];
  const std::string path = ::testing::TempDir() + "ember_io_write.jpg";
  write_jpeg(rgb, path, 95);
  EXPECT_TENSOR_EQ(read_file(path), image_golden()["enc.jpeg_rgb_95"]);
  std::remove(path.c_str());
  EXPECT_EMBER_ERROR(encode_jpeg(rgb, 0), "encode_jpeg", "quality", "0");
  EXPECT_EMBER_ERROR(encode_jpeg(rgb, 101), "encode_jpeg", "quality");
  EXPECT_EMBER_ERROR(encode_jpeg(rgb.to(kInt64)), "encode_jpeg", "uint8");
  EXPECT_EMBER_ERROR(encode_jpeg(rgb.slice(0, 0, 2)), "encode_jpeg", "channels", "2");
}

}  // namespace
}  // namespace torch::vision::io
