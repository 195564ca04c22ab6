// Behaviour of the new formulas beyond gradcheck: in-place rules, the
// backward that raises instead of returning a wrong gradient, and which
// outputs take part in the graph.
#include <gtest/gtest.h>

#include "common/test_util.h"
#include "ember/ember.h"

using namespace ember;

namespace {
Tensor leaf(IntArrayRef shape) {
  int64_t n = 1;
  for (int64_t s : shape) n *= s;
  Tensor t = arange(1, 1 + n, TensorOptions(kDouble)).reshape(shape).detach();
  t.requires_grad_(true);
  return t;
}
Tensor idx(std::vector<int64_t> v) { return tensor(v, kLong); }
}  // namespace

TEST(FormulaBehaviour, InPlaceOnLeafRaises) {
  Tensor x = leaf({2, 3});
  EXPECT_EMBER_ERROR(x.scatter_(1, idx({0, 1}).view({2, 1}), 0.5), "scatter_", "leaf Variable");
  EXPECT_EMBER_ERROR(x.index_add_(0, idx({1}), leaf({1, 3})), "index_add_", "leaf Variable");
  EXPECT_EMBER_ERROR(x.tril_(), "tril_", "leaf Variable");
  EXPECT_EMBER_ERROR(x.addcmul_(x, x), "addcmul_", "leaf Variable");
}

TEST(FormulaBehaviour, InPlaceIntoPlainTensorTakesTheSourcesGraph) {
  Tensor src = leaf({2, 1});
  Tensor y = zeros({2, 3}, TensorOptions(kDouble));
  y.scatter_(1, idx({2, 0}).view({2, 1}), src * 2);
  ASSERT_TRUE(y.grad_fn());
  EXPECT_EQ(y.grad_fn()->name(), "ScatterBackward0");
  y.sum().backward();
  EXPECT_TENSOR_CLOSE(src.grad(), full({2, 1}, 2.0, TensorOptions(kDouble)));
}

TEST(FormulaBehaviour, UnsupportedGradientsRaiseOnBackward) {
  Tensor x = leaf({3});
  // An input whose elements share memory has no well-defined as_strided gradient.
  Tensor y = x.expand({2, 3}).as_strided({2}, {1}, 0);
  EXPECT_EMBER_ERROR(y.sum().backward(), "AsStridedBackward0", "not implemented");
}

TEST(FormulaBehaviour, IndicesStayOutOfTheGraph) {
  Tensor x = leaf({2, 3});
  auto [values, indices] = x.max(1);
  EXPECT_TRUE(values.requires_grad());
  EXPECT_FALSE(indices.requires_grad());
  auto [sv, si] = x.sort(0, true);
  EXPECT_TRUE(sv.requires_grad());
  EXPECT_FALSE(si.requires_grad());
}

TEST(FormulaBehaviour, NoGradModeRecordsNothing) {
  Tensor x = leaf({2, 3});
  NoGradGuard ng;
  EXPECT_FALSE(x.prod().requires_grad());
  EXPECT_FALSE(std::get<0>(x.sort()).requires_grad());
  EXPECT_FALSE(x.index({idx({1})}).requires_grad());
  EXPECT_FALSE(x.repeat({2, 1}).requires_grad());
}
