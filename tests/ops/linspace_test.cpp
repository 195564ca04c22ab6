// linspace in float32 and float64 equals PyTorch 1.13's bit for bit (Note [linspace's rounding]
// in ember/ops/factory/factory.cpp; tests/golden/linspace.golden from tools/golden/gen_linspace.py).
#include <gtest/gtest.h>

#include <string>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/torch.h"

namespace {

using torch::testing::Golden;

const double kRanges[][2] = {{0.0, 1.0}, {0.0, 8000.0}, {1e-3, 0.1}, {2595.0, -7.25}};
const int64_t kCounts[] = {2, 3, 7, 15, 16, 17, 31, 32, 33, 63, 65, 100, 201, 257, 1000};

TEST(Linspace, FloatAndDoublePointsArePyTorchs) {
  const Golden g("linspace.golden");
  for (const auto& [name, dtype] : {std::pair{"f32", torch::kFloat}, std::pair{"f64", torch::kDouble}})
    for (size_t r = 0; r < std::size(kRanges); ++r)
      for (int64_t n : kCounts) {
        const std::string key = std::string(name) + ".r" + std::to_string(r) + ".n" + std::to_string(n);
        EXPECT_TENSOR_EQ(torch::linspace(kRanges[r][0], kRanges[r][1], n, dtype), g[key]) << key;
      }
}

TEST(Linspace, LongRangesFollowTheThreadChunks) {
  const Golden g("linspace.golden");
  const int threads = torch::get_num_threads();
  for (int t : {1, 2}) {
    torch::set_num_threads(t);
    for (const auto& [name, dtype] : {std::pair{"f32", torch::kFloat}, std::pair{"f64", torch::kDouble}})
      for (int64_t n : {32769, 65537, 100003}) {
        const std::string key = std::string(name) + ".t" + std::to_string(t) + ".n" + std::to_string(n);
        EXPECT_TENSOR_EQ(torch::linspace(-2.5, 3.75, n, dtype).index_select(0, g[key + ".idx"]), g[key]) << key;
      }
  }
  torch::set_num_threads(threads);
}

}  // namespace
