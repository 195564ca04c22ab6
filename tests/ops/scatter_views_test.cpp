// The ops that write into a copy or a view of self: the *_scatter family,
// masked_scatter, put, fill_diagonal_, and tensor_split's split points, called
// with LibTorch's spellings. Expected values are torch 1.13's, given in each
// test (slice_scatter's are checked against the view it fills: Debian's torch
// 1.13 binds slice_scatter's start/end wrongly, see SliceScatterWritesTheSlice).
#include <gtest/gtest.h>

#include <limits>

#include "common/test_util.h"
#include "ember/torch.h"

namespace {

torch::Tensor f(std::vector<double> v, std::vector<int64_t> shape) { return torch::tensor(v).view(shape); }
torch::Tensor l(std::vector<int64_t> v) { return torch::tensor(v, torch::kLong); }

TEST(ScatterViews, SelectDiagonalAndAsStrided) {
  const auto a = torch::arange(12.).view({3, 4});
  // torch.select_scatter(a, [-1, -2, -3], 1, -1)
  EXPECT_TENSOR_EQ(torch::select_scatter(a, f({-1, -2, -3}, {3}), 1, -1),
                   f({0, 1, 2, -1, 4, 5, 6, -2, 8, 9, 10, -3}, {3, 4}));
  // torch.diagonal_scatter(a, [-1, -2], -1)
  EXPECT_TENSOR_EQ(a.diagonal_scatter(f({-1, -2}, {2}), -1), f({0, 1, 2, 3, -1, 5, 6, 7, 8, -2, 10, 11}, {3, 4}));
  // torch.diagonal_scatter(zeros(2, 2, 3), ones(3, 2), 0, 0, 1): the diagonal dim goes last
  EXPECT_TENSOR_EQ(torch::diagonal_scatter(torch::zeros({2, 2, 3}), torch::ones({3, 2}), 0, 0, 1),
                   f({1, 1, 1, 0, 0, 0, 0, 0, 0, 1, 1, 1}, {2, 2, 3}));
  // torch.as_strided_scatter(a, [[-1, -2], [-3, -4]], (2, 2), (4, 1), 5)
  EXPECT_TENSOR_EQ(torch::as_strided_scatter(a, f({-1, -2, -3, -4}, {2, 2}), {2, 2}, {4, 1}, 5),
                   f({0, 1, 2, 3, 4, -1, -2, 7, 8, -3, -4, 11}, {3, 4}));
  // self is copied, never written
  EXPECT_TENSOR_EQ(a, torch::arange(12.).view({3, 4}));
}

TEST(ScatterViews, SliceScatterWritesTheSlice) {
  // PyTorch documents slice_scatter(self, src, dim, start, end, step) as a copy of
  // self whose self[..., start:end:step, ...] holds src; checked against that.
  const auto a = torch::arange(20.).view({4, 5});
  const auto src = -torch::arange(1., 9.).view({4, 2});
  const auto r = torch::slice_scatter(a, src, 1, 1, 5, 2);
  auto expected = a.clone();
  expected.slice(1, 1, 5, 2).copy_(src);
  EXPECT_TENSOR_EQ(r, expected);
  EXPECT_TENSOR_EQ(r.index({torch::indexing::Slice(), 3}), -torch::tensor({2., 4., 6., 8.}));
  // torch.slice_scatter(zeros(4, 3), ones(2, 3), 0, 1, 4, 2): rows 1 and 3, as torch 1.13 gives
  EXPECT_TENSOR_EQ(torch::zeros({4, 3}).slice_scatter(torch::ones({2, 3}), 0, 1, 4, 2),
                   f({0, 0, 0, 1, 1, 1, 0, 0, 0, 1, 1, 1}, {4, 3}));
  // the defaults take the whole dim
  EXPECT_TENSOR_EQ(torch::slice_scatter(a, torch::ones({4, 5})), torch::ones({4, 5}));
}

TEST(ScatterViews, GradientsSplitBetweenSelfAndSrc) {
  auto x = torch::randn({3, 4}, torch::dtype(torch::kDouble).requires_grad(true));
  auto s = torch::randn({3}, torch::dtype(torch::kDouble).requires_grad(true));
  const auto g = torch::arange(12., torch::kDouble).view({3, 4});
  torch::select_scatter(x, s, 1, 2).backward(g);
  auto gx = g.clone();
  gx.select(1, 2).zero_();
  EXPECT_TENSOR_EQ(x.grad(), gx);
  EXPECT_TENSOR_EQ(s.grad(), g.select(1, 2));
}

TEST(ScatterViews, BadInputNamesTheOpAndShapes) {
  const auto a = torch::zeros({4, 3});
  EXPECT_EMBER_ERROR(torch::slice_scatter(a, torch::ones({3, 3}), 0, 0, 2), "slice_scatter",
                     "expected src to have a size equal to the slice of self", "src size = [3, 3]",
                     "slice size = [2, 3]");
  EXPECT_EMBER_ERROR(torch::select_scatter(a, torch::ones({2}), 0, 1), "select_scatter", "src size = [2]",
                     "slice size = [3]");
  EXPECT_EMBER_ERROR(torch::select_scatter(a, torch::ones({3}), 0, 5), "select", "out of range");
  EXPECT_EMBER_ERROR(torch::diagonal_scatter(a, torch::ones({4})), "diagonal_scatter", "slice size = [3]");
  EXPECT_EMBER_ERROR(torch::as_strided_scatter(a, torch::ones({2, 3}), {2, 2}, {1, 2}), "as_strided_scatter",
                     "slice size = [2, 2]");
}

TEST(MaskedScatter, TakesSourceInOrder) {
  const auto mask = torch::tensor({true, false, true, false, true, true}).view({2, 3});
  // torch.zeros(2, 3).masked_scatter(mask, torch.arange(1., 7.))
  EXPECT_TENSOR_EQ(torch::zeros({2, 3}).masked_scatter(mask, torch::arange(1., 7.)), f({1, 0, 2, 0, 3, 4}, {2, 3}));
  // the mask broadcasts; torch.zeros(3).masked_scatter_([[True], [False]], arange(10.)) raises,
  // the out-of-place form broadcasts self: [[0, 1, 2], [0, 0, 0]]
  EXPECT_TENSOR_EQ(torch::zeros({3}).masked_scatter(torch::tensor({true, false}).view({2, 1}), torch::arange(10.)),
                   f({0, 1, 2, 0, 0, 0}, {2, 3}));
  auto y = torch::zeros({3});
  EXPECT_EMBER_ERROR(y.masked_scatter_(torch::tensor({true, false}).view({2, 1}), torch::arange(10.)),
                     "masked_scatter_", "[2, 1]", "[3]");
  // gradients: self keeps the unmasked positions', source gets its used elements'
  // (x.grad [[0, 1, 0], [0, 4, 0]] and s.grad [0, 2, 3, 5, 0] for torch's run of this)
  auto x = torch::zeros({2, 3}, torch::requires_grad());
  auto s = torch::zeros({5}, torch::requires_grad());
  torch::masked_scatter(x, torch::tensor({true, false, true}), s).backward(torch::arange(6.).view({2, 3}));
  EXPECT_TENSOR_EQ(x.grad(), f({0, 1, 0, 0, 4, 0}, {2, 3}));
  EXPECT_TENSOR_EQ(s.grad(), f({0, 2, 3, 5, 0}, {5}));
}

TEST(MaskedScatter, BadInput) {
  const auto x = torch::zeros({2, 3});
  EXPECT_EMBER_ERROR(x.masked_scatter(torch::tensor({true, false, true}), torch::arange(3.)), "masked_scatter",
                     "Number of elements of source < number of ones in mask", "3 < 4");
  EXPECT_EMBER_ERROR(x.masked_scatter(torch::tensor({1, 0, 1}), torch::arange(10.)), "masked_scatter", "boolean masks");
  EXPECT_EMBER_ERROR(x.masked_scatter(torch::tensor({true, false, true}), torch::arange(10)), "masked_scatter",
                     "same dtypes", "float32", "int64");
}

TEST(Put, WritesAtRowMajorPositions) {
  // torch.zeros(2, 3).put_(tensor([0, -1]), tensor([1., 2.]))
  auto x = torch::zeros({2, 3});
  x.put_(l({0, -1}), torch::tensor({1.f, 2.f}));
  EXPECT_TENSOR_EQ(x, f({1, 0, 0, 0, 0, 2}, {2, 3}));
  // accumulate sums duplicates: torch gives [[4, 4, 0], [0, 0, 2]]
  auto y = torch::zeros({2, 3});
  y.put_(l({1, -1, 1, 0}).view({2, 2}), f({1, 2, 3, 4}, {2, 2}), true);
  EXPECT_TENSOR_EQ(y, f({4, 4, 0, 0, 0, 2}, {2, 3}));
  // a non-contiguous self is written in its own row-major order
  auto t = torch::zeros({3, 2}).t();
  t.put_(l({1}), torch::tensor({5.f}));
  EXPECT_EQ(t[0][1].item<float>(), 5.f);
  // out of place leaves self alone
  EXPECT_TENSOR_EQ(torch::put(torch::zeros({2}), l({1}), torch::tensor({3.f})), f({0, 3}, {2}));
}

TEST(Put, BadInput) {
  auto x = torch::zeros({2, 3});
  EXPECT_EMBER_ERROR(x.put_(torch::tensor({0, 1}, torch::kInt), torch::tensor({1.f, 2.f})), "put_",
                     "Expected a long tensor for index", "int32");
  EXPECT_EMBER_ERROR(x.put_(l({0, 6}), torch::tensor({1.f, 2.f})), "put_", "out of range", "index 6", "6 elements");
  EXPECT_EMBER_ERROR(x.put_(l({0, -7}), torch::tensor({1.f, 2.f})), "put_", "out of range", "-7");
  EXPECT_EMBER_ERROR(x.put_(l({0, 1}), torch::tensor({1.f, 2.f, 3.f})), "put_", "same number of elements",
                     "source.numel() = 3", "index.numel() = 2");
  EXPECT_EMBER_ERROR(x.put_(l({0, 1}), l({1, 2})), "put_", "same dtype", "float32", "int64");
}

TEST(FillDiagonal, WrapsTallMatricesAsNumPy) {
  // torch.zeros(5, 2).fill_diagonal_(7, wrap=True)
  EXPECT_TENSOR_EQ(torch::zeros({5, 2}).fill_diagonal_(7, true), f({7, 0, 0, 7, 0, 0, 7, 0, 0, 7}, {5, 2}));
  EXPECT_TENSOR_EQ(torch::zeros({5, 2}).fill_diagonal_(7), f({7, 0, 0, 7, 0, 0, 0, 0, 0, 0}, {5, 2}));
  EXPECT_TENSOR_EQ(torch::zeros({2, 4}).fill_diagonal_(1, true), f({1, 0, 0, 0, 0, 1, 0, 0}, {2, 4}));
  auto cube = torch::zeros({2, 2, 2});
  cube.fill_diagonal_(1);
  EXPECT_TENSOR_EQ(cube, f({1, 0, 0, 0, 0, 0, 0, 1}, {2, 2, 2}));
  // a view writes into its base
  auto base = torch::zeros({4, 4});
  base.slice(1, 1, 4).fill_diagonal_(3);
  EXPECT_TENSOR_EQ(base.diagonal(1), f({3, 3, 3}, {3}));
  EXPECT_EMBER_ERROR(torch::zeros({3}).fill_diagonal_(1), "fill_diagonal_", "dimensions must larger than 1");
  EXPECT_EMBER_ERROR(torch::zeros({2, 2, 3}).fill_diagonal_(1), "fill_diagonal_",
                     "all dimensions of input must be of equal length", "[2, 2, 3]");
}

TEST(TensorSplit, SplitPointsAreSliceBounds) {
  const auto x = torch::arange(10);
  // torch.arange(10).tensor_split([3, 8, 5]): [0..2], [3..7], [], [5..9]
  auto p = x.tensor_split({3, 8, 5});
  ASSERT_EQ(p.size(), 4u);
  EXPECT_TENSOR_EQ(p[1], torch::arange(3, 8));
  EXPECT_EQ(p[2].numel(), 0);
  EXPECT_TENSOR_EQ(p[3], torch::arange(5, 10));
  // negative points count from the end: [-3] gives [0..6], [7..9]
  // (a braced {-3} would pick the sections overload, in LibTorch too)
  auto q = torch::tensor_split(x, std::vector<int64_t>{-3});
  EXPECT_TENSOR_EQ(q[1], torch::arange(7, 10));
  // hsplit works on dim 1 (dim 0 of a 1-D tensor), dsplit on dim 2
  auto h = torch::zeros({2, 6, 3}).hsplit({1, 4});
  ASSERT_EQ(h.size(), 3u);
  EXPECT_EQ(h[1].sizes(), std::vector<int64_t>({2, 3, 3}));
  EXPECT_EQ(torch::hsplit(torch::arange(6), 2)[1][0].item<int64_t>(), 3);
  EXPECT_EQ(torch::zeros({2, 6, 4}).dsplit(2)[0].sizes(), std::vector<int64_t>({2, 6, 2}));
  EXPECT_EQ(torch::vsplit(torch::zeros({4, 3}), {1, 3})[2].size(0), 1);
  EXPECT_EMBER_ERROR(torch::zeros({3, 4}).hsplit(3), "torch.hsplit", "dimension 1",
                     "size of the dimension 4 is not divisible by the split_size 3");
  EXPECT_EMBER_ERROR(torch::zeros({3, 4}).dsplit(2), "torch.dsplit", "at least 3 dimension", "2 dimensions");
  EXPECT_EMBER_ERROR(torch::vsplit(torch::arange(6), 2), "torch.vsplit", "at least 2 dimension");
}

TEST(Isin, ComparesInThePromotedDtype) {
  // torch.isin(tensor([[1, 5], [3, 7]]), tensor([7, 1, 9]))
  EXPECT_TENSOR_EQ(torch::isin(l({1, 5, 3, 7}).view({2, 2}), l({7, 1, 9})),
                   torch::tensor({true, false, false, true}).view({2, 2}));
  // NaN occurs nowhere: torch.isin([1, nan, 2], [2, nan], invert=True) == [True, True, False]
  const double nan = std::numeric_limits<double>::quiet_NaN();
  EXPECT_TENSOR_EQ(torch::isin(torch::tensor({1., nan, 2.}), torch::tensor({2., nan}), false, true),
                   torch::tensor({true, true, false}));
  // ints against floats compare as floats: 3 is in [2.5, 3.0], 2 is not
  EXPECT_TENSOR_EQ(torch::isin(l({1, 2, 3}), torch::tensor({2.5, 3.0})), torch::tensor({false, false, true}));
  EXPECT_TENSOR_EQ(torch::isin(l({1, 2, 3}), 2, false, true), torch::tensor({true, false, true}));
  EXPECT_TRUE(torch::isin(2, l({1, 2})).item<bool>());
  EXPECT_TENSOR_EQ(torch::isin(l({1, 2}), l({})), torch::tensor({false, false}));
  EXPECT_EMBER_ERROR(torch::isin(torch::tensor({true}), l({1})), "isin", "Unsupported input type", "bool");
}

}  // namespace
