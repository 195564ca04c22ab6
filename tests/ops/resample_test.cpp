// Padding and upsampling against PyTorch golden values
// (tools/golden/gen_resample.py), forward and backward.
#include <functional>
#include <string>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/torch.h"

using ember::Tensor;
using ember::testing::Golden;

namespace {

const Golden& golden() {
  static const Golden g("resample.golden");
  return g;
}

void check(const std::string& name, const std::function<Tensor(const Tensor&)>& op) {
  SCOPED_TRACE(name);
  Tensor x = golden()[name + ".x"].requires_grad_(true);
  Tensor y = op(x);
  EXPECT_TENSOR_CLOSE(y, golden()[name + ".out"]);
  y.backward(golden()[name + ".gy"]);
  EXPECT_TENSOR_CLOSE(x.grad(), golden()[name + ".gx"]);
  // float32 forward agrees too.
  EXPECT_TENSOR_CLOSE_TOL(op(golden()[name + ".x"].to(torch::kFloat)), golden()[name + ".out"].to(torch::kFloat), 1e-5,
                          1e-5);
}

}  // namespace

TEST(Pad, Golden) {
  check("cpad", [](const Tensor& x) { return torch::constant_pad_nd(x, {1, 2, 0, 1}, 1.5); });
  check("cpad_neg", [](const Tensor& x) { return torch::constant_pad_nd(x, {-1, 2, 1, -2}); });
  check("cpad_all_dims", [](const Tensor& x) { return torch::pad(x, {1, 0, 2, 1}); });
  check("reflect1d", [](const Tensor& x) { return torch::pad(x, {2, 3}, "reflect"); });
  check("reflect2d", [](const Tensor& x) { return torch::pad(x, {1, 2, 3, 0}, "reflect"); });
  check("replicate2d", [](const Tensor& x) { return torch::pad(x, {2, 1, 1, 3}, "replicate"); });
  check("replicate3d", [](const Tensor& x) { return torch::pad(x, {1, 1, 0, 2, 1, 0}, "replicate"); });
  check("circular2d", [](const Tensor& x) { return torch::pad(x, {1, 2, 3, 0}, "circular"); });
  check("circular1d", [](const Tensor& x) { return torch::pad(x, {4, 1}, "circular"); });
}

TEST(Pad, Errors) {
  const Tensor x = torch::zeros({1, 2, 3});
  EXPECT_EMBER_ERROR(torch::constant_pad_nd(x, {1, 2, 3}), "constant_pad_nd", "even");
  EXPECT_EMBER_ERROR(torch::constant_pad_nd(x, {1, 1, 1, 1, 1, 1, 1, 1}), "constant_pad_nd", "twice");
  EXPECT_EMBER_ERROR(torch::constant_pad_nd(x, {-2, -2}), "constant_pad_nd", "negative output size");
  EXPECT_EMBER_ERROR(torch::pad(x, {3, 0}, "reflect"), "pad", "less than");
  EXPECT_EMBER_ERROR(torch::pad(x, {1, 0}, "reflect", 1.0), "pad", "value");
  EXPECT_EMBER_ERROR(torch::pad(x, {1, 0}, "wrap"), "pad", "wrap");
  EXPECT_EMBER_ERROR(torch::pad(x, {4, 0}, "circular"), "pad", "wrapping");
}

TEST(Upsample, Golden) {
  check("nearest1d", [](const Tensor& x) { return torch::upsample_nearest1d(x, {12}); });
  check("nearest1d_down", [](const Tensor& x) { return torch::upsample_nearest1d(x, {3}); });
  check("nearest2d", [](const Tensor& x) { return torch::upsample_nearest2d(x, {7, 8}); });
  check("nearest2d_scale", [](const Tensor& x) { return torch::upsample_nearest2d(x, {5, 10}, 1.7, 2.5); });
  check("bilinear", [](const Tensor& x) { return torch::upsample_bilinear2d(x, {5, 7}, false); });
  check("bilinear_ac", [](const Tensor& x) { return torch::upsample_bilinear2d(x, {5, 7}, true); });
  check("bilinear_down", [](const Tensor& x) { return torch::upsample_bilinear2d(x, {3, 4}, false); });
  check("bilinear_scale", [](const Tensor& x) { return torch::upsample_bilinear2d(x, {6, 10}, false, 2.0, 2.5); });
  check("bicubic", [](const Tensor& x) { return torch::upsample_bicubic2d(x, {6, 9}, false); });
  check("bicubic_ac", [](const Tensor& x) { return torch::upsample_bicubic2d(x, {7, 5}, true); });
  check("pixel_shuffle", [](const Tensor& x) { return torch::pixel_shuffle(x, 2); });
  check("pixel_unshuffle", [](const Tensor& x) { return torch::pixel_unshuffle(x, 2); });
}

TEST(Upsample, Errors) {
  const Tensor x = torch::zeros({1, 2, 3, 4});
  EXPECT_EMBER_ERROR(torch::upsample_bilinear2d(x, {5}, false), "upsample_bilinear2d", "output_size");
  EXPECT_EMBER_ERROR(torch::upsample_bilinear2d(torch::zeros({2, 3, 4}), {5, 5}, false), "upsample_bilinear2d",
                     "[2, 3, 4]");
  EXPECT_EMBER_ERROR(torch::upsample_nearest2d(x, {0, 5}), "upsample_nearest2d", "greater than 0");
  EXPECT_EMBER_ERROR(torch::pixel_shuffle(torch::zeros({1, 3, 2, 2}), 2), "pixel_shuffle", "divisible");
  EXPECT_EMBER_ERROR(torch::pixel_unshuffle(torch::zeros({1, 3, 3, 2}), 2), "pixel_unshuffle", "divisible");
}
