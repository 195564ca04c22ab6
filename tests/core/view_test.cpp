// Views (ember/ops/shape/view.cpp): values against PyTorch (views section of
// tools/golden/gen_shape_ops.py), storage sharing, and PyTorch's errors.
#include <gtest/gtest.h>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/ember.h"

using namespace ember;
using ember::testing::Golden;

namespace {
const Golden& G() {
  static Golden g("shape_ops.golden");
  return g;
}
bool shares_storage(const Tensor& a, const Tensor& b) { return a.impl()->storage() == b.impl()->storage(); }
}  // namespace

TEST(Views, ValuesMatchPyTorch) {
  const Golden& g = G();
  Tensor x = g["vx"];
  EXPECT_TENSOR_EQ(x.view({4, -1}), g["view_view"]);
  EXPECT_TENSOR_EQ(x.transpose(0, 2).reshape({-1, 2}), g["view_reshape_t"]);
  EXPECT_TENSOR_EQ(x.flatten(1), g["view_flatten"]);
  EXPECT_TENSOR_EQ(x.unflatten(2, {2, -1}), g["view_unflatten"]);
  EXPECT_TENSOR_EQ(x.permute({2, 0, 1}), g["view_permute"]);
  EXPECT_TENSOR_EQ(x.movedim({0, 1}, {2, 0}), g["view_movedim"]);
  EXPECT_TENSOR_EQ(x.transpose(0, -1), g["view_transpose"]);
  EXPECT_TENSOR_EQ(x[0].t(), g["view_t"]);
  EXPECT_TENSOR_EQ(x.slice(1, 0, 1).expand({-1, 3, -1}), g["view_expand"]);
  EXPECT_TENSOR_EQ(x[0][0].expand({2, 3, 4}), g["view_expand_new"]);
  EXPECT_TENSOR_EQ(x.slice(1, 0, 1).squeeze(), g["view_squeeze"]);
  EXPECT_TENSOR_EQ(x.unsqueeze(-1), g["view_unsqueeze"]);
  EXPECT_TENSOR_EQ(x.narrow(2, -3, 2), g["view_narrow"]);
  EXPECT_TENSOR_EQ(x.select(1, -1), g["view_select"]);
  EXPECT_TENSOR_EQ(x.slice(1, 1, std::nullopt, 2).slice(2, std::nullopt, std::nullopt, 3), g["view_slice"]);
  EXPECT_TENSOR_EQ(x.unfold(2, 2, 1), g["view_unfold"]);
  EXPECT_TENSOR_EQ(x.transpose(1, 2).unfold(1, 2, 2), g["view_unfold_step"]);
  EXPECT_TENSOR_EQ(x.as_strided({3, 3}, {2, 5}, 1), g["view_as_strided"]);
  EXPECT_TENSOR_EQ(x.diagonal(), g["view_diagonal"]);
  EXPECT_TENSOR_EQ(x.diagonal(1, 1, 2), g["view_diagonal_off"]);
  EXPECT_TENSOR_EQ(x.diagonal(-1, -1, 0), g["view_diagonal_neg"]);
  auto sp = x.split(3, 2);
  ASSERT_EQ(sp.size(), 2u);
  for (size_t k = 0; k < sp.size(); ++k) EXPECT_TENSOR_EQ(sp[k], g["view_split_" + std::to_string(k)]);
  auto ss = x.split({1, 2}, 1);
  ASSERT_EQ(ss.size(), 2u);
  for (size_t k = 0; k < ss.size(); ++k) EXPECT_TENSOR_EQ(ss[k], g["view_split_sizes_" + std::to_string(k)]);
  auto ch = x.chunk(3, -1);
  ASSERT_EQ(ch.size(), 2u);  // ceil(4 / 3) = 2 per chunk -> 2 chunks, as in PyTorch
  for (size_t k = 0; k < ch.size(); ++k) EXPECT_TENSOR_EQ(ch[k], g["view_chunk_" + std::to_string(k)]);
  auto ub = x.unbind(1);
  ASSERT_EQ(ub.size(), 3u);
  for (size_t k = 0; k < ub.size(); ++k) EXPECT_TENSOR_EQ(ub[k], g["view_unbind_" + std::to_string(k)]);
  Tensor c = x.permute({1, 2, 0}).contiguous();
  EXPECT_TRUE(c.is_contiguous());
  EXPECT_TENSOR_EQ(c, g["view_contiguous"]);
}

TEST(Views, ShareStorageWithBase) {
  Tensor base = zeros({2, 3, 4});
  std::vector<Tensor> views = {base.view({6, 4}),       base.reshape({4, 6}),
                               base.flatten(),          base.unflatten(2, {2, 2}),
                               base.permute({2, 1, 0}), base.movedim({0}, {2}),
                               base.transpose(0, 1),    base[0].t(),
                               base.unsqueeze(1),       base.narrow(1, 1, 2),
                               base.select(2, 3),       base.slice(2, 1, 4, 2),
                               base.unfold(2, 2, 2),    base.as_strided({2, 2}, {1, 2}),
                               base.diagonal(0, 1, 2),  base.split(1, 0)[1],
                               base.chunk(2, 2)[1],     base.unbind(0)[1],
                               base.contiguous(),       base.slice(1, 0, 1).expand({2, 5, 4})};
  for (size_t i = 0; i < views.size(); ++i) {
    SCOPED_TRACE("view #" + std::to_string(i));
    EXPECT_TRUE(shares_storage(views[i], base));
  }
  // Writing through a view changes the base.
  base.select(1, 2).fill_(3.0);
  EXPECT_EQ(base[1][2][0].item<float>(), 3.0f);
  base.transpose(0, 2)[1][0][1] = 7.0;
  EXPECT_EQ(base[1][0][1].item<float>(), 7.0f);
  base.diagonal(0, 1, 2).fill_(-1.0);
  EXPECT_EQ(base[0][2][2].item<float>(), -1.0f);
  base.view({-1})[23] = 5.0;
  EXPECT_EQ(base[1][2][3].item<float>(), 5.0f);
  base.unfold(2, 2, 2)[0][0][1][1] = 9.0;
  EXPECT_EQ(base[0][0][3].item<float>(), 9.0f);
  // A view bumps the version counter it shares with the base.
  uint32_t v0 = base._version();
  base.narrow(0, 0, 1).zero_();
  EXPECT_GT(base._version(), v0);
  // reshape of a non-viewable layout copies instead.
  Tensor r = base.transpose(0, 2).reshape({-1});
  EXPECT_FALSE(shares_storage(r, base));
}

TEST(Views, GeometryAndEdgeCases) {
  Tensor x = zeros({2, 3, 4});
  EXPECT_EQ(x.transpose(0, 2).strides(), IntArrayRef({1, 4, 12}));
  EXPECT_EQ(x.unsqueeze(3).strides(), IntArrayRef({12, 4, 1, 1}));
  EXPECT_EQ(x.unsqueeze(0).strides(), IntArrayRef({24, 12, 4, 1}));
  EXPECT_EQ(x.slice(2, 1, std::nullopt, 2).storage_offset(), 1);
  EXPECT_EQ(x.slice(1, -10, 10).sizes(), IntArrayRef({2, 3, 4}));  // Python clamping
  EXPECT_EQ(x.slice(1, 2, 1).sizes(), IntArrayRef({2, 0, 4}));
  EXPECT_EQ(x.expand({5, 2, 3, 4}).strides(), IntArrayRef({0, 12, 4, 1}));
  EXPECT_EQ(x.diagonal(7).sizes(), IntArrayRef({4, 0}));
  EXPECT_EQ(full({}, 1.0).flatten().sizes(), IntArrayRef({1}));
  EXPECT_EQ(full({}, 1.0).unfold(0, 1, 1).sizes(), IntArrayRef({1}));
  EXPECT_EQ(zeros({0}).chunk(3).size(), 3u);
  EXPECT_EQ(x.squeeze(1).sizes(), IntArrayRef({2, 3, 4}));
  EXPECT_EQ(zeros({1, 3, 1}).squeeze().sizes(), IntArrayRef({3}));
  EXPECT_EQ(x.view(kInt).dtype(), kInt);
  Tensor y = zeros({2, 3});
  y.t_();
  EXPECT_EQ(y.sizes(), IntArrayRef({3, 2}));
  y.unsqueeze_(0);
  EXPECT_EQ(y.sizes(), IntArrayRef({1, 3, 2}));
  y.squeeze_();
  EXPECT_EQ(y.sizes(), IntArrayRef({3, 2}));
}

TEST(Views, ErrorsMatchPyTorch) {
  Tensor x = zeros({2, 3});
  EXPECT_EMBER_ERROR(x.t().view({6}), "view", "is not compatible with input tensor's size [3, 2] and stride [1, 3]",
                     "at least one dimension spans across two contiguous subspaces", "Use .reshape(...) instead.");
  EXPECT_EMBER_ERROR(x.view({4}), "shape '[4]' is invalid for input of size 6");
  EXPECT_EMBER_ERROR(x.view({-1, -1}), "only one dimension can be inferred");
  EXPECT_EMBER_ERROR(x.reshape({5}), "shape '[5]' is invalid for input of size 6");
  EXPECT_EMBER_ERROR(x.permute({0}), "permute", "number of dims don't match");
  EXPECT_EMBER_ERROR(x.permute({0, 0}), "permute");
  EXPECT_EMBER_ERROR(x.expand({3, 3}), "expand",
                     "expanded size of the tensor (3) must match the existing size (2) at non-singleton dimension 0.");
  EXPECT_EMBER_ERROR(x.expand({-1, 2, 3}), "-1", "leading, non-existing dimension 0");
  EXPECT_EMBER_ERROR(x.narrow(1, 2, 2), "start (2) + length (2) exceeds dimension size (3).");
  EXPECT_EMBER_ERROR(x.narrow(1, 0, -1), "length must be non-negative");
  EXPECT_EMBER_ERROR(x.select(1, 3), "index 3 out of range for tensor of size [2, 3] at dimension 1");
  EXPECT_EMBER_ERROR(x[5], "index 5 out of range");
  EXPECT_EMBER_ERROR(x.unfold(1, 4, 1), "maximum size for tensor at dimension 1 is 3 but size is 4");
  EXPECT_EMBER_ERROR(x.diagonal(0, 1, 1), "diagonal", "dimensions cannot be identical 1, 1");
  EXPECT_EMBER_ERROR(x.split({1, 1}, 1), "split_with_sizes", "expects split_sizes to sum exactly to 3");
  EXPECT_EMBER_ERROR(x.chunk(0), "chunk", "expects `chunks` to be greater than 0, got: 0");
  EXPECT_EMBER_ERROR(x.transpose(0, 2), "Dimension out of range (expected to be in range of [-2, 1], but got 2)");
  EXPECT_EMBER_ERROR(zeros({2, 3, 4}).t(), "expects a tensor with <= 2 dimensions, but self is 3D");
  EXPECT_EMBER_ERROR(x.as_strided({2, 2}, {1, -1}), "as_strided", "negative strides");
  EXPECT_EMBER_ERROR(x.as_strided({3, 3}, {3, 1}), "as_strided", "storage");
  EXPECT_EMBER_ERROR(x.movedim({0, 0}, {0, 1}), "movedim");
  EXPECT_EMBER_ERROR(x.squeeze(2), "Dimension out of range");
  EXPECT_EMBER_ERROR(x.unsqueeze(3), "Dimension out of range (expected to be in range of [-3, 2], but got 3)");
  EXPECT_EMBER_ERROR(full({}, 1.0).unbind(), "unbind", "tensor has no dimensions");
  EXPECT_EMBER_ERROR(x.flatten(1, 0), "flatten", "start_dim", "end_dim");
  EXPECT_EMBER_ERROR(x.unflatten(1, {2, 2}),
                     "unflatten: Provided sizes [2, 2] don't multiply up to the size of dim 1 (3) in the input tensor");
  EXPECT_EMBER_ERROR(x.unflatten(1, {-1, 2}), "don't multiply up to the size of dim 1 (3)");
  EXPECT_EQ(zeros({2, 0}).unflatten(1, {0, 5}).sizes(), IntArrayRef({2, 0, 5}));
}
