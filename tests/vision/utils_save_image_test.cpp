// utils::save_image against torchvision 0.14's (tools/golden/gen_vision_save_image.py):
// the pixels read back from the written PNG, and the formats it refuses.
#include <gtest/gtest.h>

#include <cstdio>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/torch.h"
#include "ember/vision/io.h"
#include "ember/vision/utils.h"

namespace {

using ember::testing::Golden;
namespace utils = ember::vision::utils;
namespace io = ember::vision::io;

const Golden& golden() {
  static const Golden g("vision_save_image.golden");
  return g;
}

std::string temp_file(const char* name) { return ::testing::TempDir() + name; }

TEST(VisionSaveImage, PixelsEqualTorchvisions) {
  const Golden& g = golden();
  const std::string path = temp_file("ember_save_image.png");
  const torch::Tensor batch = g["batch.x"].to(torch::kFloat32);
  utils::save_image(batch, path);
  EXPECT_TENSOR_EQ(io::read_image(path), g["batch.default"]);
  utils::save_image(batch, path, std::nullopt, 2, 1, false, std::nullopt, false, 0.25);
  EXPECT_TENSOR_EQ(io::read_image(path), g["batch.nrow2"]);
  utils::save_image(batch, path, "png", 8, 2, true, std::make_tuple(-0.5, 0.5));
  EXPECT_TENSOR_EQ(io::read_image(path), g["batch.normalize"]);
  utils::save_image(g["single.x"].to(torch::kFloat32), path);
  EXPECT_TENSOR_EQ(io::read_image(path), g["single.default"]);
  std::remove(path.c_str());
}

TEST(VisionSaveImage, JpegByExtensionAndBadFormats) {
  const std::string path = temp_file("ember_save_image.jpg");
  utils::save_image(torch::full({3, 8, 8}, 0.5), path);
  const torch::Tensor back = io::read_image(path);
  EXPECT_EQ(back.sizes(), (std::vector<int64_t>{3, 8, 8}));
  EXPECT_LE((back.to(torch::kInt32) - 128).abs().max().item<int32_t>(), 1);
  std::remove(path.c_str());
  EXPECT_EMBER_ERROR(utils::save_image(torch::zeros({3, 2, 2}), temp_file("ember_noext")), "save_image", "extension");
  EXPECT_EMBER_ERROR(utils::save_image(torch::zeros({3, 2, 2}), temp_file("x.bmp")), "save_image", "bmp");
}

}  // namespace
