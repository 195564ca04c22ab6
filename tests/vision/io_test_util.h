#pragma once
// Shared by tests/vision/io_*.cpp: the committed test files and their golden values.
#include <string>

#include "common/golden.h"
#include "ember/vision/io/image.h"

namespace torch::vision::io::testing {

inline std::string asset(const std::string& name) { return std::string(EMBER_GOLDEN_DIR) + "/vision/io/" + name; }

inline Tensor asset_bytes(const std::string& name) { return read_file(asset(name)); }

inline const ::torch::testing::Golden& image_golden() {
  static const ::torch::testing::Golden g("vision_io_images.golden");
  return g;
}

constexpr ImageReadMode kAllModes[] = {ImageReadMode::UNCHANGED, ImageReadMode::GRAY, ImageReadMode::GRAY_ALPHA,
                                       ImageReadMode::RGB, ImageReadMode::RGB_ALPHA};

}  // namespace torch::vision::io::testing
