// The RoI and deformable kernels split work across threads above a size
// threshold (boxes forward, channels backward); the golden cases are small
// and run serially, so these check that the parallel split computes exactly
// what one thread does, forward and backward.
#include <gtest/gtest.h>

#include "common/test_util.h"
#include "ember/torch.h"
#include "ember/vision/ops/deform_conv.h"
#include "ember/vision/ops/ps_roi_align.h"
#include "ember/vision/ops/ps_roi_pool.h"
#include "ember/vision/ops/roi_align.h"
#include "ember/vision/ops/roi_pool.h"

namespace vision_ops_parallel_test {

namespace ops = ember::vision::ops;
using ember::Tensor;

// Output and input gradients of f at 1 and at 2 threads.
void expect_same_across_threads(const std::function<Tensor(const std::vector<Tensor>&)>& f,
                                const std::vector<Tensor>& inputs) {
  const int saved = ember::get_num_threads();
  std::vector<std::vector<Tensor>> results;
  for (int threads : {1, 2}) {
    ember::set_num_threads(threads);
    std::vector<Tensor> in;
    for (const Tensor& t : inputs) in.push_back(t.clone().requires_grad_(true));
    const Tensor y = f(in);
    y.backward(ember::ones_like(y));
    std::vector<Tensor> r{y.detach()};
    for (const Tensor& t : in) r.push_back(t.grad());
    results.push_back(r);
  }
  ember::set_num_threads(saved);
  for (size_t i = 0; i < results[0].size(); ++i) EXPECT_TENSOR_EQ(results[1][i], results[0][i]) << "tensor " << i;
}

Tensor random_rois(int64_t n, int64_t batch, double extent) {
  const Tensor xy = ember::rand({n, 2}) * extent, wh = ember::rand({n, 2}) * extent / 2 + 1;
  return ember::cat({ember::randint(0, batch, {n, 1}).to(ember::kFloat32), xy, xy + wh}, 1);
}

TEST(VisionOpsParallel, RoiKernelsMatchOneThread) {
  ember::manual_seed(11);
  const Tensor x = ember::randn({2, 32, 16, 16});
  const Tensor rois = random_rois(150, 2, 28);
  expect_same_across_threads(
      [&](const std::vector<Tensor>& in) { return ops::roi_align(in[0], rois, 5, 0.5, -1, true); }, {x});
  expect_same_across_threads([&](const std::vector<Tensor>& in) { return ops::roi_pool(in[0], rois, 4, 0.5); }, {x});
  expect_same_across_threads([&](const std::vector<Tensor>& in) { return ops::ps_roi_align(in[0], rois, 2, 0.5, 2); },
                             {x});
  expect_same_across_threads([&](const std::vector<Tensor>& in) { return ops::ps_roi_pool(in[0], rois, 2, 0.5); }, {x});
}

TEST(VisionOpsParallel, DeformConvMatchesOneThread) {
  ember::manual_seed(12);
  const Tensor x = ember::randn({2, 8, 20, 20}), w = ember::randn({8, 4, 3, 3});
  const Tensor off = ember::randn({2, 36, 20, 20}) * 2, mask = ember::rand({2, 18, 20, 20});
  expect_same_across_threads(
      [&](const std::vector<Tensor>& in) { return ops::deform_conv2d(in[0], in[1], w, std::nullopt, 1, 1, 1, in[2]); },
      {x, off, mask});
}

}  // namespace vision_ops_parallel_test
