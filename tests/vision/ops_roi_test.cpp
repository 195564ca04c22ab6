// ember::vision::ops roi_align, roi_pool, ps_roi_align, ps_roi_pool and their
// modules: outputs and input gradients against torchvision 0.14's
// (tools/golden/gen_vision_ops_torchvision.py), and bad input.
#include <gtest/gtest.h>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/torch.h"
#include "ember/vision/ops/ps_roi_align.h"
#include "ember/vision/ops/ps_roi_pool.h"
#include "ember/vision/ops/roi_align.h"
#include "ember/vision/ops/roi_pool.h"

namespace vision_ops_roi_test {

namespace ops = ember::vision::ops;
using ember::Tensor;
using ember::testing::Golden;
using Inputs = std::vector<Tensor>;

const Golden& golden() {
  static const Golden g("vision_ops_torchvision.golden");
  return g;
}

void check(const std::string& name, int n, const std::function<Tensor(const Inputs&)>& f) {
  ember::testing::expect_golden_case(golden(), name, n, f);
}

std::string num(double v) {
  std::ostringstream s;
  s << v;
  return s.str();
}

TEST(VisionOpsRoi, RoiAlignMatchesTorchvision) {
  for (bool aligned : {false, true})
    for (int64_t sr : {-1, 2})
      for (double scale : {1.0, 0.5}) {
        const std::string name =
            "roi_align_a" + std::to_string(aligned) + "_s" + std::to_string(sr) + "_sc" + num(scale);
        check(name, 2, [&](const Inputs& x) { return ops::roi_align(x[0], x[1], {3, 4}, scale, sr, aligned); });
      }
  check("roi_align_f32", 2, [](const Inputs& x) { return ops::roi_align(x[0], x[1], 2, 0.7, -1, true); });
  check("roi_align_list", 3, [](const Inputs& x) { return ops::roi_align(x[0], {x[1], x[2]}, 2, 1.0, 2, false); });
}

TEST(VisionOpsRoi, RoiPoolMatchesTorchvision) {
  for (double scale : {1.0, 0.5, 0.33})
    check("roi_pool_sc" + num(scale), 2, [&](const Inputs& x) { return ops::roi_pool(x[0], x[1], {3, 2}, scale); });
  check("roi_pool_f32", 2, [](const Inputs& x) { return ops::roi_pool(x[0], x[1], 3, 0.6); });
}

TEST(VisionOpsRoi, PsRoiAlignMatchesTorchvision) {
  for (int64_t sr : {-1, 2})
    for (double scale : {1.0, 0.5})
      check("ps_roi_align_s" + std::to_string(sr) + "_sc" + num(scale), 2, [&](const Inputs& x) {
        return ops::ps_roi_align(x[0], x[1], {2, 2}, scale, sr);
      });
  check("ps_roi_align_f32", 2, [](const Inputs& x) { return ops::ps_roi_align(x[0], x[1], {2, 4}, 0.7, -1); });
}

TEST(VisionOpsRoi, PsRoiPoolMatchesTorchvision) {
  for (double scale : {1.0, 0.5})
    check("ps_roi_pool_sc" + num(scale), 2, [&](const Inputs& x) {
      return ops::ps_roi_pool(x[0], x[1], {2, 2}, scale);
    });
  check("ps_roi_pool_f32", 2, [](const Inputs& x) { return ops::ps_roi_pool(x[0], x[1], {4, 2}, 0.6); });
}

TEST(VisionOpsRoi, ModulesCallTheFunctions) {
  const Golden& g = golden();
  const Tensor x = g["roi_align_a1_s2_sc0.5.x0"], r = g["roi_align_a1_s2_sc0.5.x1"];
  ops::RoIAlign align(ops::RoIAlignOptions({3, 4}, 0.5, 2).aligned(true));
  EXPECT_TENSOR_CLOSE(align(x, r), g["roi_align_a1_s2_sc0.5.y"]);
  ops::RoIPool pool(ops::RoIPoolOptions({3, 2}, 0.5));
  EXPECT_TENSOR_CLOSE(pool(x, r), g["roi_pool_sc0.5.y"]);
  ops::PSRoIAlign psa(ops::PSRoIAlignOptions(2, 0.5, 2));
  EXPECT_TENSOR_CLOSE(psa(x, r), g["ps_roi_align_s2_sc0.5.y"]);
  ops::PSRoIPool psp(ops::PSRoIPoolOptions(2, 0.5));
  EXPECT_TENSOR_CLOSE(psp(x, r), g["ps_roi_pool_sc0.5.y"]);
  std::ostringstream s;
  s << *align;
  EXPECT_EQ(s.str(), "RoIAlign(output_size=[3, 4], spatial_scale=0.5, sampling_ratio=2, aligned=True)");
}

TEST(VisionOpsRoi, EmptyBoxes) {
  const Tensor x = ember::randn({1, 4, 5, 5});
  EXPECT_EQ(ops::roi_align(x, ember::zeros({0, 5}), {2, 2}).sizes(), (std::vector<int64_t>{0, 4, 2, 2}));
  EXPECT_EQ(ops::roi_pool(x, ember::zeros({0, 5}), {2, 2}).sizes(), (std::vector<int64_t>{0, 4, 2, 2}));
  EXPECT_EQ(ops::ps_roi_align(x, ember::zeros({0, 5}), {2, 2}).sizes(), (std::vector<int64_t>{0, 1, 2, 2}));
  EXPECT_EQ(ops::ps_roi_pool(x, ember::zeros({0, 5}), {1, 2}).sizes(), (std::vector<int64_t>{0, 2, 1, 2}));
}

TEST(VisionOpsRoi, BadInputRaises) {
  const Tensor x = ember::randn({2, 4, 5, 5});
  const Tensor r = ember::tensor({0.0, 1.0, 1.0, 3.0, 3.0}).view({1, 5}).to(ember::kFloat32);
  EXPECT_EMBER_ERROR(ops::roi_align(x, ember::zeros({2, 4}), {2, 2}), "roi_align", "Tensor[K, 5]", "[2, 4]");
  EXPECT_EMBER_ERROR(ops::roi_align(x, std::vector<Tensor>{ember::zeros({2, 5})}, {2, 2}), "roi_align", "List");
  EXPECT_EMBER_ERROR(ops::roi_align(x.view({2, 4, 25}), r, {2, 2}), "roi_align", "Tensor[N, C, H, W]");
  EXPECT_EMBER_ERROR(ops::roi_align(x, r.to(ember::kFloat64), {2, 2}), "roi_align", "dtype");
  EXPECT_EMBER_ERROR(ops::roi_align(x, r, {0, 2}), "roi_align", "output_size");
  EXPECT_EMBER_ERROR(ops::roi_align(x.to(ember::kInt64), r.to(ember::kInt64), {2, 2}), "roi_align", "int64");
  const Tensor bad_batch = ember::tensor({2.0f, 1.0f, 1.0f, 3.0f, 3.0f}).view({1, 5}).to(ember::kFloat32);
  EXPECT_EMBER_ERROR(ops::roi_align(x, bad_batch, {2, 2}), "roi_align", "batch index 2");
  EXPECT_EMBER_ERROR(ops::roi_pool(x, bad_batch, {2, 2}), "roi_pool", "batch index 2");
  const Tensor nan_box = ember::tensor({0.0f, NAN, 1.0f, 3.0f, 3.0f}).view({1, 5}).to(ember::kFloat32);
  EXPECT_EMBER_ERROR(ops::ps_roi_align(x, nan_box, {2, 2}), "ps_roi_align", "non-finite");
  EXPECT_EMBER_ERROR(ops::ps_roi_pool(x, r, {3, 3}), "ps_roi_pool", "multiple", "4");
  EXPECT_EMBER_ERROR(ops::ps_roi_align(x, r, {1, 3}), "ps_roi_align", "multiple");
  const Tensor huge = ember::tensor({0.0f, 0.0f, 0.0f, 1e30f, 1e30f}).view({1, 5}).to(ember::kFloat32);
  EXPECT_EMBER_ERROR(ops::roi_align(x, huge, {2, 2}), "roi_align", "too large");
  EXPECT_EMBER_ERROR(ops::roi_pool(x, huge, {2, 2}), "roi_pool", "too large");
}

}  // namespace vision_ops_roi_test
