// Shape ops against PyTorch golden values (tools/golden/gen_shape_ops.py).
#include <gtest/gtest.h>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/ember.h"
#include "ember/torch.h"

using namespace ember;
using ember::testing::Golden;

namespace {
const Golden& G() {
  static Golden g("shape_ops.golden");
  return g;
}
Tensor L(std::initializer_list<int64_t> v) { return tensor(TensorDataContainer(std::vector<int64_t>(v))); }
}  // namespace

TEST(ShapeOpsCat, MatchesPyTorch) {
  const Golden& g = G();
  Tensor a = g["a"], b = g["b"], c = g["c"], ai = g["ai"];
  EXPECT_TENSOR_EQ(cat({a, b}, 1), g["cat1"]);
  EXPECT_TENSOR_EQ(torch::cat({a, b}, -1), g["cat_neg"]);
  std::vector<Tensor> vec{a, c};
  EXPECT_TENSOR_EQ(torch::cat(vec), g["cat0"]);
  EXPECT_TENSOR_EQ(concat({ai, a}, 0), g["cat_promote"]);
  EXPECT_TENSOR_EQ(concatenate({g["ab"], ai}, 1), g["cat_promote_bool_int"]);
  EXPECT_TENSOR_EQ(cat({g["ac"], a}), g["cat_complex"]);
  EXPECT_TENSOR_EQ(cat({empty({0}, kDouble), a, empty({0})}), g["cat_skip_empty"]);
  EXPECT_TENSOR_EQ(cat({a.t(), c}, 1), g["cat_noncontig"]);
  EXPECT_TENSOR_EQ(cat({zeros({0, 3}), a}, 0), g["cat_empty_part"]);
  EXPECT_TENSOR_EQ(cat({g["x"]}, 2), g["cat_single"]);
}

TEST(ShapeOpsCat, StackFamily) {
  const Golden& g = G();
  Tensor a = g["a"], v3 = g["v3"], c = g["c"];
  std::vector<Tensor> three{a, g["ai"].to(kFloat), a};
  EXPECT_TENSOR_EQ(torch::stack(three), g["stack0"]);
  EXPECT_TENSOR_EQ(stack({a, a.t().t()}, -1), g["stack_last"]);
  EXPECT_TENSOR_EQ(stack({a, a}, 1), g["stack1"]);
  EXPECT_TENSOR_EQ(hstack({a, g["b"]}), g["hstack"]);
  EXPECT_TENSOR_EQ(hstack({v3, v3}), g["hstack_1d"]);
  EXPECT_TENSOR_EQ(vstack({a, g["r13"], v3}), g["vstack"]);
  EXPECT_TENSOR_EQ(vstack({v3, v3}), g["vstack_1d"]);
  EXPECT_TENSOR_EQ(dstack({a, a}), g["dstack"]);
  EXPECT_TENSOR_EQ(dstack({v3, v3}), g["dstack_1d"]);
  EXPECT_TENSOR_EQ(column_stack({v3, c}), g["column_stack"]);
  EXPECT_TENSOR_EQ(block_diag({a, full({}, 5.0), v3}), g["block_diag"]);
  EXPECT_TENSOR_EQ(cartesian_prod({L({1, 2}), L({3, 4, 5})}), g["cartesian_prod"]);
}

TEST(ShapeOpsCat, Errors) {
  Tensor a = zeros({2, 3});
  EXPECT_EMBER_ERROR(cat({a, zeros({3, 3})}, 1),
                     "Sizes of tensors must match except in dimension 1. Expected size 2 but got size 3 for tensor "
                     "number 1 in the list.");
  EXPECT_EMBER_ERROR(cat({a, zeros({3})}, 0), "Tensors must have same number of dimensions: got 2 and 1");
  EXPECT_EMBER_ERROR(cat(std::vector<Tensor>{}), "expected a non-empty list of Tensors");
  EXPECT_EMBER_ERROR(cat({full({}, 1.0)}), "zero-dimensional tensor (at position 0) cannot be concatenated");
  EXPECT_EMBER_ERROR(cat({a, a}, 2), "Dimension out of range");
  EXPECT_EMBER_ERROR(stack({a, zeros({3, 3})}),
                     "stack expects each tensor to be equal size, but got [2, 3] at entry 0 and [3, 3] at entry 1");
  EXPECT_EMBER_ERROR(stack(std::vector<Tensor>{}), "stack", "non-empty TensorList");
  EXPECT_EMBER_ERROR(block_diag({zeros({1, 1, 1})}),
                     "Input tensors must have 2 or fewer dimensions. Input 0 has 3 dimensions");
}

TEST(ShapeOpsReorder, FlipRoll) {
  const Golden& g = G();
  Tensor x = g["x"], a = g["a"];
  EXPECT_TENSOR_EQ(x.flip({0}), g["flip0"]);
  EXPECT_TENSOR_EQ(x.flip({0, 2}), g["flip_multi"]);
  EXPECT_TENSOR_EQ(flip(x, {-1}), g["flip_neg"]);
  EXPECT_TENSOR_EQ(x.transpose(0, 2).flip({1}), g["flip_noncontig"]);
  EXPECT_TENSOR_EQ(g["ai"].flip({1}), g["flip_int"]);
  EXPECT_TENSOR_EQ(g["ab"].flip({0, 1}), g["flip_bool"]);
  EXPECT_TENSOR_EQ(g["ac"].flip({1}), g["flip_complex"]);
  EXPECT_TENSOR_EQ(a.fliplr(), g["fliplr"]);
  EXPECT_TENSOR_EQ(a.flipud(), g["flipud"]);
  EXPECT_EQ(zeros({0, 2}).flip({0}).sizes(), IntArrayRef({0, 2}));
  EXPECT_TENSOR_EQ(x.roll({5}), g["roll_flat"]);
  EXPECT_TENSOR_EQ(x.roll({1}, {1}), g["roll_dim"]);
  EXPECT_TENSOR_EQ(x.roll({-3}, {-1}), g["roll_neg"]);
  EXPECT_TENSOR_EQ(x.roll({1, 7}, {0, 2}), g["roll_multi"]);
  EXPECT_TENSOR_EQ(x.transpose(0, 1).roll({2}, {0}), g["roll_noncontig"]);
  EXPECT_EMBER_ERROR(x.flip({0, 0}), "dim 0 appears multiple times in the list of dims");
  EXPECT_EMBER_ERROR(zeros({2}).fliplr(), "Input must be >= 2-d.");
  EXPECT_EMBER_ERROR(full({}, 1.0).flipud(), "Input must be >= 1-d.");
  EXPECT_EMBER_ERROR(x.roll({1}, {0, 1}), "shifts and dimensions must align. shifts: 1, dims:2");
  EXPECT_EMBER_ERROR(x.roll({1, 2}), "shifts and dimensions must align. shifts: 2, dims:0");
}

TEST(ShapeOpsRepeat, RepeatTileInterleave) {
  const Golden& g = G();
  Tensor a = g["a"], x = g["x"], v3 = g["v3"];
  EXPECT_TENSOR_EQ(a.repeat({2, 3}), g["repeat"]);
  EXPECT_TENSOR_EQ(a.repeat({2, 1, 2}), g["repeat_more_dims"]);
  EXPECT_TENSOR_EQ(a.t().repeat({1, 2}), g["repeat_noncontig"]);
  EXPECT_TENSOR_EQ(a.repeat({0, 2}), g["repeat_zero"]);
  EXPECT_TENSOR_EQ(g["ai"].repeat({2, 1}), g["repeat_int"]);
  EXPECT_TENSOR_EQ(a.tile({2}), g["tile"]);
  EXPECT_TENSOR_EQ(v3.tile({2, 2}), g["tile_more"]);
  EXPECT_TENSOR_EQ(a.repeat_interleave(2), g["ri_int"]);
  EXPECT_TENSOR_EQ(a.repeat_interleave(3, 1), g["ri_int_dim"]);
  EXPECT_TENSOR_EQ(a.repeat_interleave(L({1, 0, 2}), 1), g["ri_tensor_dim"]);
  EXPECT_TENSOR_EQ(g["ai"].repeat_interleave(L({2})), g["ri_tensor_flat"]);
  EXPECT_TENSOR_EQ(repeat_interleave(L({2, 0, 3})), g["ri_repeats_only"]);
  EXPECT_TENSOR_EQ(x.repeat_interleave(2, -2), g["ri_neg_dim"]);
  EXPECT_EMBER_ERROR(a.repeat({2}),
                     "Number of dimensions of repeat dims can not be smaller than number of dimensions of tensor");
  EXPECT_EMBER_ERROR(a.repeat({-1, 1}), "negative dimension -1");
  EXPECT_EMBER_ERROR(a.repeat_interleave(L({1, 2}), 1), "repeats must have the same size as input along dim");
  EXPECT_EMBER_ERROR(repeat_interleave(L({-1})), "repeats can not be negative");
  EXPECT_EMBER_ERROR(repeat_interleave(tensor({{1L}})), "only accept 1D vector as repeat");
  EXPECT_EMBER_ERROR(a.repeat_interleave(-1), "repeats can not be negative");
  EXPECT_EMBER_ERROR(full({}, 1.0).repeat_interleave(2, 0), "repeat_interleave", "tensor has no dimensions");
  EXPECT_EQ(full({}, 1.0).repeat_interleave(2).sizes(), IntArrayRef({2}));
}

TEST(ShapeOpsTriangle, TrilTriu) {
  const Golden& g = G();
  Tensor m = g["m"];
  EXPECT_TENSOR_EQ(m.tril(), g["tril"]);
  EXPECT_TENSOR_EQ(m.tril(1), g["tril_k1"]);
  EXPECT_TENSOR_EQ(tril(m, -2), g["tril_km2"]);
  EXPECT_TENSOR_EQ(m.triu(), g["triu"]);
  EXPECT_TENSOR_EQ(m.triu(2), g["triu_k2"]);
  EXPECT_TENSOR_EQ(triu(m, -1), g["triu_km1"]);
  EXPECT_TENSOR_EQ(g["x"].tril(), g["tril_batched"]);
  EXPECT_TENSOR_EQ(m.t().triu(), g["triu_noncontig"]);
  EXPECT_TENSOR_EQ(g["ai"].tril(), g["tril_int"]);
  EXPECT_TENSOR_EQ(g["ab"].triu(1), g["triu_bool"]);
  Tensor inplace = m.clone();
  inplace.tril_(1);
  EXPECT_TENSOR_EQ(inplace, g["tril_k1"]);
  Tensor base = g["x"].clone();
  Tensor view = base.transpose(1, 2);  // in place on a non-contiguous view writes the base
  view.triu_();
  EXPECT_TENSOR_EQ(view, g["x"].transpose(1, 2).triu());
  EXPECT_EMBER_ERROR(zeros({3}).tril(), "tril", "at least 2 dimensions");
}

TEST(ShapeOpsGrid, Meshgrid) {
  const Golden& g = G();
  auto ij = meshgrid({L({1, 2, 3}), L({4, 5})}, "ij");
  ASSERT_EQ(ij.size(), 2u);
  EXPECT_TENSOR_EQ(ij[0], g["mesh_ij_0"]);
  EXPECT_TENSOR_EQ(ij[1], g["mesh_ij_1"]);
  auto xy = meshgrid({L({1, 2, 3}), L({4, 5}), L({6, 7, 8, 9})}, "xy");
  ASSERT_EQ(xy.size(), 3u);
  for (int k = 0; k < 3; ++k) EXPECT_TENSOR_EQ(xy[k], g["mesh_xy_" + std::to_string(k)]);
  EXPECT_EMBER_ERROR(meshgrid({L({1})}, "foo"), "indexing must be one of \"xy\" or \"ij\"");
  EXPECT_EMBER_ERROR(meshgrid({zeros({2, 2})}), "Expected 0D or 1D tensor");
  EXPECT_EMBER_ERROR(meshgrid({L({1}), zeros({2})}), "same dtype");
}

TEST(ShapeOpsCount, OneHotBincountHistc) {
  const Golden& g = G();
  Tensor labels = g["labels"];
  EXPECT_TENSOR_EQ(one_hot(labels), g["one_hot"]);
  EXPECT_TENSOR_EQ(one_hot(labels, 6), g["one_hot_n"]);
  EXPECT_TENSOR_EQ(one_hot(full({}, 2, kLong), 3), g["one_hot_scalar"]);
  EXPECT_EMBER_ERROR(one_hot(zeros({2})), "one_hot", "index tensor");
  EXPECT_EMBER_ERROR(one_hot(L({-1})), "Class values must be non-negative.");
  EXPECT_EMBER_ERROR(one_hot(L({3}), 2), "Class values must be smaller than num_classes.");
  EXPECT_EMBER_ERROR(one_hot(empty({0}, kLong)), "Can not infer total number of classes from empty tensor.");
  EXPECT_EQ(one_hot(empty({0}, kLong), 4).sizes(), IntArrayRef({0, 4}));

  Tensor bins = g["bins_in"], w = g["w"];
  EXPECT_TENSOR_EQ(bincount(bins), g["bincount"]);
  EXPECT_TENSOR_EQ(bins.bincount(std::nullopt, 10), g["bincount_min"]);
  EXPECT_TENSOR_CLOSE(bincount(bins, w), g["bincount_w"]);
  EXPECT_TENSOR_CLOSE(bincount(bins, w.to(kDouble)), g["bincount_w_double"]);
  EXPECT_TENSOR_CLOSE(bincount(bins, bins.to(kInt)), g["bincount_w_int"]);
  EXPECT_TENSOR_EQ(bincount(empty({0}, kLong), std::nullopt, 3), g["bincount_empty"]);
  EXPECT_EMBER_ERROR(bincount(L({-1})), "bincount", "non-negative integral inputs");
  EXPECT_EMBER_ERROR(bincount(tensor({{1L}})), "1-d non-negative integral inputs");
  EXPECT_EMBER_ERROR(bincount(L({1}), std::nullopt, -1), "minlength should be >= 0");
  EXPECT_EMBER_ERROR(bincount(L({1}), ones({2})), "weights should be 1-d and have the same length as input");

  Tensor h = g["h"];
  EXPECT_TENSOR_EQ(histc(h, 7, -2, 2), g["histc"]);
  EXPECT_TENSOR_EQ(h.histc(5), g["histc_auto"]);
  EXPECT_TENSOR_EQ(histc(h.to(kDouble), 4, -1, 3), g["histc_double"]);
  EXPECT_EMBER_ERROR(histc(h, 0), "bins must be > 0");
  EXPECT_EMBER_ERROR(histc(h, 3, 3, 2), "max must be larger than min");
  EXPECT_EMBER_ERROR(histc(tensor({1.0f, std::nanf("")}), 2), "histc", "is not finite");
  EXPECT_EMBER_ERROR(histc(tensor({1.0f, INFINITY}), 2), "range of [1, inf] is not finite");
  EXPECT_TENSOR_EQ(histc(empty({0}), 2), zeros({2}));
  EXPECT_EMBER_ERROR(histc(L({1, 2})), "histc", "floating point");
}

TEST(ShapeOpsEdge, PromotionEmptyAndHistEdges) {
  const Golden& g = G();
  EXPECT_TENSOR_EQ(cat({g["i8"], g["u8"]}), g["cat_int8_uint8"]);
  EXPECT_TENSOR_EQ(cat({g["v3"].expand({2, 3}), g["a"]}, 0), g["cat_expanded"]);
  EXPECT_TENSOR_EQ(stack({zeros({0, 2}), zeros({0, 2})}, 1), g["stack_empty"]);
  EXPECT_TENSOR_EQ(histc(tensor({0.0f, 1.0f, 2.0f, 2.5f, -0.5f}), 2, 0, 2), g["histc_edges"]);
  EXPECT_TENSOR_EQ(histc(tensor({3.0f, 3.0f}), 4), g["histc_const"]);
  EXPECT_TENSOR_EQ(zeros({2, 0}).roll({1}, {1}), g["roll_empty_dim"]);
  EXPECT_TENSOR_EQ(zeros({0, 2}).repeat_interleave(3, 0), g["repeat_interleave_empty"]);
  // cat writes into narrow() views of one output: the inputs stay untouched.
  Tensor a = g["a"];
  Tensor before = a.clone();
  Tensor out = cat({a, a}, 0);
  out.fill_(0);
  EXPECT_TENSOR_EQ(a, before);
}
