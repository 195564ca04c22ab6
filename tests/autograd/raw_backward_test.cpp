// Note [Raw backward paths]: formulas with a raw-memory fast path take their
// composite when the gradient is batched by vmap over a vjp. Each case compares
// vmap(vjp_fn) over a batch of cotangents with vjp_fn on each cotangent alone.
// (Pooling, conv, dropout and split/unbind have the same check in their own tests.)
#include <gtest/gtest.h>

#include <functional>
#include <vector>

#include "common/test_util.h"
#include "ember/ember.h"

using namespace ember;
using V = std::vector<Tensor>;

namespace {

void expect_vmap_of_vjp_matches_loop(const std::function<V(const V&)>& f, const V& inputs, IntArrayRef out_shape) {
  func::VjpResult r = func::vjp(f, inputs);
  DimVector shape{3};
  for (int64_t s : out_shape) shape.push_back(s);
  Tensor cts = randn(shape, TensorOptions(kFloat));
  const V batched = vmap(r.vjp_fn)({cts});
  for (int64_t b = 0; b < 3; ++b) {
    const V one = r.vjp_fn({cts[b]});
    for (size_t i = 0; i < one.size(); ++i)
      EXPECT_TRUE(allclose(batched[i][b], one[i], 1e-4, 1e-5)) << "sample " << b << " input " << i;
  }
}

}  // namespace

TEST(RawBackward, LayerNormUnderVmapOfVjp) {
  manual_seed(1);
  Tensor x = randn({4, 6}), w = randn({6}), b = randn({6});
  expect_vmap_of_vjp_matches_loop([](const V& in) { return V{layer_norm(in[0], {6}, in[1], in[2], 1e-5)}; }, {x, w, b},
                                  {4, 6});
}

TEST(RawBackward, BatchNormTrainingUnderVmapOfVjp) {
  manual_seed(2);
  Tensor x = randn({5, 3, 4}), w = randn({3}), b = randn({3});
  expect_vmap_of_vjp_matches_loop(
      [](const V& in) { return V{batch_norm(in[0], in[1], in[2], Tensor(), Tensor(), true, 0.1, 1e-5, false)}; },
      {x, w, b}, {5, 3, 4});
}

TEST(RawBackward, SoftmaxUnderVmapOfVjp) {
  manual_seed(3);
  expect_vmap_of_vjp_matches_loop([](const V& in) { return V{softmax(in[0], -1)}; }, {randn({4, 7})}, {4, 7});
}
