// Size arithmetic on extreme values (Note [Checked size arithmetic]): every
// output size, count or byte total computed from user data raises an
// ember::Error naming the op instead of wrapping. Run in the ASan/UBSan job,
// where a wrapped signed size would also be reported as undefined behaviour.
#include <gtest/gtest.h>

#include <climits>
#include <cstdint>

#include "common/test_util.h"
#include "ember/core/checked_arith.h"
#include "ember/ember.h"

namespace torch {
namespace {

constexpr int64_t kMax = INT64_MAX;
constexpr int64_t kMin = INT64_MIN;
constexpr int64_t k2e62 = int64_t{1} << 62;

TEST(SizeOverflow, CheckedArithmeticRaisesWithTheOpAndOperands) {
  EXPECT_EQ(checked_mul(1 << 20, 1 << 20, "op"), int64_t{1} << 40);
  EXPECT_EQ(checked_add(kMax - 1, 1, "op"), kMax);
  EXPECT_EQ(checked_sub(kMin + 1, 1, "op"), kMin);
  EXPECT_EMBER_ERROR(checked_mul(k2e62, 2, "myop", "output size"), "myop", "output size", "overflows");
  EXPECT_EMBER_ERROR(checked_add(kMax, 1, "myop"), "myop", "9223372036854775807 + 1");
  EXPECT_EMBER_ERROR(checked_sub(kMin, 1, "myop"), "myop");
  EXPECT_EQ(checked_double_to_size(4.0, "op"), 4);
  EXPECT_EMBER_ERROR(checked_double_to_size(9.3e18, "myop"), "myop", "does not fit");
  EXPECT_EMBER_ERROR(checked_double_to_size(std::nan(""), "myop"), "myop");
}

TEST(SizeOverflow, RepeatInterleaveSumOfRepeats) {
  EXPECT_EMBER_ERROR(repeat_interleave(tensor({kMax, kMax, int64_t{3}})), "repeat_interleave", "sum of repeats");
  EXPECT_EMBER_ERROR(repeat_interleave(ones({3}), tensor({kMax, kMax, int64_t{3}})), "repeat_interleave");
  EXPECT_EMBER_ERROR(repeat_interleave(ones({3}), kMax), "repeat_interleave");  // 3 * INT64_MAX elements
  EXPECT_TENSOR_EQ(repeat_interleave(tensor({int64_t{2}, int64_t{0}, int64_t{1}})),
                   tensor({int64_t{0}, int64_t{0}, int64_t{2}}));
}

TEST(SizeOverflow, BincountAndOneHotCountFromTheLargestValue) {
  EXPECT_EMBER_ERROR(bincount(tensor({kMax})), "bincount", "number of bins");
  EXPECT_EMBER_ERROR(one_hot(tensor({kMax}), -1), "one_hot", "number of classes");
  EXPECT_TENSOR_EQ(bincount(tensor({int64_t{3}})), tensor({int64_t{0}, int64_t{0}, int64_t{0}, int64_t{1}}));
}

TEST(SizeOverflow, RepeatAndTileMultiplySizes) {
  EXPECT_EMBER_ERROR(arange(4.).repeat({k2e62}), "repeat", "output size");
  EXPECT_EMBER_ERROR(tile(arange(4.), {k2e62}), "repeat");
  EXPECT_EMBER_ERROR(ones({2, 3}).repeat({k2e62, 1}), "repeat");
}

TEST(SizeOverflow, CatSumsTheJoinedDimension) {
  const Tensor a = ones({1}).expand({kMax / 2 + 1});
  EXPECT_EMBER_ERROR(cat({a, a}), "cat", "concatenated");
}

TEST(SizeOverflow, NbytesOfAHugeExpandedView) {
  const Tensor t = ones({1}).expand({k2e62});  // a valid view of one element
  EXPECT_EQ(t.numel(), k2e62);
  EXPECT_EMBER_ERROR((void)t.nbytes(), "nbytes", "overflow");
  EXPECT_EQ(ones({1}).expand({int64_t{1} << 40}).nbytes(), size_t{4} << 40);
}

TEST(SizeOverflow, ArangeCounts) {
  EXPECT_EMBER_ERROR(arange(0., 1e300, 1e-300), "arange", "number of elements");
  EXPECT_EMBER_ERROR(arange(-kMax, kMax, 1), "arange", "overflows");
  // end - start needs 65 bits, the count and every value fit.
  const Tensor big = arange(kMin, kMax, k2e62);
  ASSERT_EQ(big.numel(), 4);
  EXPECT_EQ(big[0].item<int64_t>(), kMin);
  EXPECT_EQ(big[3].item<int64_t>(), kMin + k2e62 + k2e62 + k2e62);  // 3 * 2^62 alone does not fit
}

TEST(SizeOverflow, ConstantPadAddsPadding) {
  EXPECT_EMBER_ERROR(constant_pad_nd(ones({3}), {kMax, kMax}), "constant_pad_nd", "padded size");
  EXPECT_EMBER_ERROR(constant_pad_nd(ones({3}), {kMin, 1}), "constant_pad_nd");
}

TEST(SizeOverflow, ConvolutionSizesFromDilationStrideAndPadding) {
  const Tensor x = ones({1, 1, 4}), w = ones({1, 1, 2});
  EXPECT_EMBER_ERROR(conv1d(x, w, {}, {1}, {0}, {kMax}), "conv1d", "dilated kernel size");
  EXPECT_EMBER_ERROR(conv1d(x, w, {}, {kMax}, {0}, {kMax}), "conv1d");
  EXPECT_EMBER_ERROR(conv1d(x, w, {}, {1}, {kMax}), "conv1d", "padding");
  EXPECT_EMBER_ERROR(conv_transpose1d(x, w, {}, {kMax}), "conv_transpose1d", "output size");
}

TEST(SizeOverflow, TriangleIndicesCountInClosedForm) {
  EXPECT_EMBER_ERROR(tril_indices(kMax, kMax), "tril_indices", "overflows");
  EXPECT_EMBER_ERROR(triu_indices(kMax, kMax), "triu_indices", "overflows");
  // Huge row counts with few indices return at once instead of visiting every row.
  EXPECT_EQ(tril_indices(kMax, 0).size(1), 0);
  EXPECT_EQ(tril_indices(kMax, 1, -kMax + 2).size(1), 2);  // rows kMax - 2 and kMax - 1
  EXPECT_EQ(triu_indices(kMax, 3, 1).size(1), 3);          // rows 0 and 1 only
  // The closed form against counting row by row.
  for (int64_t row = 0; row <= 5; ++row)
    for (int64_t col = 0; col <= 5; ++col)
      for (int64_t offset = -7; offset <= 7; ++offset) {
        int64_t lower = 0, upper = 0;
        for (int64_t i = 0; i < row; ++i)
          for (int64_t j = 0; j < col; ++j) {
            lower += j - i <= offset;
            upper += j - i >= offset;
          }
        const Tensor l = tril_indices(row, col, offset), u = triu_indices(row, col, offset);
        ASSERT_EQ(l.size(1), lower) << row << " " << col << " " << offset;
        ASSERT_EQ(u.size(1), upper) << row << " " << col << " " << offset;
        for (int64_t k = 0; k < l.size(1); ++k) ASSERT_LE(l[1][k].item<int64_t>() - l[0][k].item<int64_t>(), offset);
        for (int64_t k = 0; k < u.size(1); ++k) ASSERT_GE(u[1][k].item<int64_t>() - u[0][k].item<int64_t>(), offset);
      }
}

TEST(SizeOverflow, UnfoldAndSlidingBlocks) {
  // One window of a huge step: its stride cannot be step * stride, and need not be.
  const Tensor u = arange(10.).unfold(0, 3, kMax);
  EXPECT_EQ(u.sizes().vec(), (std::vector<int64_t>{1, 3}));
  EXPECT_TENSOR_EQ(u, arange(3.).unsqueeze(0));
  namespace F = nn::functional;
  const Tensor x = arange(16.).view({1, 1, 4, 4});
  EXPECT_EMBER_ERROR(F::unfold(x, F::UnfoldFuncOptions({2, 2}).dilation({kMax, 1})), "unfold", "dilated kernel size");
  EXPECT_EMBER_ERROR(F::unfold(x, F::UnfoldFuncOptions({2, 2}).padding({kMax, 1})), "unfold", "padded size");
  // A stride past the input gives one row of blocks, as a stride of 4 does.
  EXPECT_TENSOR_EQ(F::unfold(x, F::UnfoldFuncOptions({2, 2}).stride({kMax, 1})),
                   F::unfold(x, F::UnfoldFuncOptions({2, 2}).stride({4, 1})));
  EXPECT_EMBER_ERROR(F::fold(ones({1, 4, 4}), F::FoldFuncOptions({kMax, 3}, {2, 2})), "fold", "number of blocks");
  EXPECT_EMBER_ERROR(F::fold(ones({1, 4, 4}), F::FoldFuncOptions({k2e62, k2e62}, {2, 2})), "fold");
}

TEST(SizeOverflow, PoolingOutputSizes) {
  const Tensor x = arange(16.).view({1, 1, 4, 4});
  EXPECT_EMBER_ERROR(max_pool2d(x, {kMax, 1}), "max_pool2d", "too small");
  EXPECT_EMBER_ERROR(avg_pool2d(x, {kMax, 2}), "avg_pool2d");
  EXPECT_EMBER_ERROR(max_pool1d(ones({1, 1, 4}), {kMax}), "max_pool1d");
  EXPECT_EMBER_ERROR(max_pool2d(x, {2, 2}, {1, 1}, {0, 0}, {kMax, 1}), "max_pool2d", "dilated kernel size");
  EXPECT_EMBER_ERROR(max_pool2d(x, {2, 2}, {kMax, 1}, {1, 0}, {1, 1}, true), "max_pool2d", "pooled extent");
  // A stride past the input: one window, as a stride of 4.
  EXPECT_TENSOR_EQ(max_pool2d(x, {2, 2}, {kMax, 1}), max_pool2d(x, {2, 2}, {4, 1}));
  EXPECT_TENSOR_EQ(avg_pool1d(arange(4.).view({1, 1, 4}), {2}, {kMax}), tensor({0.5}).view({1, 1, 1}));
  EXPECT_EMBER_ERROR(adaptive_avg_pool2d(x, {kMax, 1}), "adaptive_avg_pool2d", "output size");
  EXPECT_EMBER_ERROR(std::get<0>(adaptive_max_pool2d(x, {kMax, 1})), "adaptive_max_pool2d");
  EXPECT_EMBER_ERROR(adaptive_avg_pool2d(x, {k2e62, k2e62}), "adaptive_avg_pool2d");
}

TEST(SizeOverflow, ConvolutionWithAStridePastTheInput) {
  // oneDNN refuses such a stride; the result is the single window's, as with stride 4.
  const Tensor x = arange(4.).view({1, 1, 4}).requires_grad_(), w = tensor({1., 2.}).view({1, 1, 2}).requires_grad_();
  const Tensor y = conv1d(x, w, {}, {kMax});
  EXPECT_TENSOR_EQ(y, conv1d(x, w, {}, {4}));
  const auto g = autograd::grad({y.sum()}, {x, w});
  const auto g4 = autograd::grad({conv1d(x, w, {}, {4}).sum()}, {x, w});
  EXPECT_TENSOR_EQ(g[0], g4[0]);
  EXPECT_TENSOR_EQ(g[1], g4[1]);
}

TEST(SizeOverflow, InterpolateAndPixelShuffleSizes) {
  namespace F = nn::functional;
  const Tensor x = ones({1, 1, 4});
  EXPECT_EMBER_ERROR(F::interpolate(x, F::InterpolateFuncOptions().scale_factor(std::vector<double>{1e300})),
                     "interpolate", "does not fit");
  EXPECT_EMBER_ERROR(F::interpolate(x, F::InterpolateFuncOptions().scale_factor(std::vector<double>{std::nan("")})),
                     "interpolate");
  EXPECT_EMBER_ERROR(F::interpolate(x, F::InterpolateFuncOptions().size(std::vector<int64_t>{kMax})), "overflows");
  EXPECT_EMBER_ERROR(pixel_shuffle(ones({1, 4, 2, 2}), kMax), "pixel_shuffle", "square of upscale_factor");
  EXPECT_EMBER_ERROR(pixel_shuffle(ones({1, 4, 2, 2}), int64_t{1} << 32), "pixel_shuffle");
  // Zero channels divide by any factor; the output width still has to fit.
  EXPECT_EMBER_ERROR(pixel_shuffle(ones({1, 0, 1, int64_t{1} << 40}), int64_t{1} << 30), "pixel_shuffle",
                     "output width");
  EXPECT_EMBER_ERROR(pixel_unshuffle(ones({1, int64_t{1} << 40, 0, 0}), int64_t{1} << 30), "pixel_unshuffle",
                     "output channels");
}

TEST(SizeOverflow, DiagonalOffsetsAndProducts) {
  EXPECT_EMBER_ERROR(ones({4}).diag(kMax), "diag", "diagonal size");
  EXPECT_EMBER_ERROR(ones({4}).diag(kMin), "diag", "offset");
  EXPECT_EMBER_ERROR(ones({4}).diag_embed(kMax), "diag_embed");
  EXPECT_EQ(ones({4, 4}).diagonal(kMin).numel(), 0);
  EXPECT_EMBER_ERROR(ones({4}).unflatten(0, {kMax, 2}), "unflatten", "product of sizes");
  EXPECT_EMBER_ERROR(kron(ones({1}).expand({k2e62}), ones({4})), "kron", "output size");
  namespace F = nn::functional;
  EXPECT_EMBER_ERROR(F::pad(ones({1, 4}), F::PadFuncOptions({kMin, 0}).mode(kReflect)), "pad", "padding");
  EXPECT_EMBER_ERROR(ones({4}).tensor_split(kMax), "tensor_split", "sections");
}

TEST(SizeOverflow, IntegerReductionsAndScansWrapLikePyTorch) {
  // PyTorch 1.13: sum -2, cumsum [max, -2], prod 1 (modulo 2^64), not undefined behaviour.
  const Tensor m = tensor({kMax, kMax});
  EXPECT_EQ(m.sum().item<int64_t>(), -2);
  EXPECT_TENSOR_EQ(m.cumsum(0), tensor({kMax, int64_t{-2}}));
  EXPECT_EQ(m.prod().item<int64_t>(), 1);
  EXPECT_TENSOR_EQ(m.cumprod(0), tensor({kMax, int64_t{1}}));
  EXPECT_EQ(tensor({int64_t{100}, int64_t{100}}).to(kChar).sum().item<int64_t>(), 200);  // int8 sums in int64
}

TEST(SizeOverflow, HistcAndLinspaceNearTheLimitsOfTheirTypes) {
  // (v - min) * bins overflows float for values near FLT_MAX; PyTorch puts them in the end bins.
  const Tensor h = histc(tensor({1e38f, -1e38f}), 10);
  EXPECT_TENSOR_EQ(h, tensor({1.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 0.f, 1.f}));
  // The int64 linspace across the whole range: its end, 2^63 as a double, saturates
  // (PyTorch's x86 conversion gives INT64_MIN there; both avoid undefined behaviour).
  const Tensor l = linspace(kMin, kMax, 5, kLong);
  EXPECT_EQ(l[0].item<int64_t>(), kMin);
  EXPECT_EQ(l[2].item<int64_t>(), 0);
  EXPECT_EQ(l[3].item<int64_t>(), int64_t{1} << 62);
  EXPECT_EQ(l[4].item<int64_t>(), kMax);
}

TEST(SizeOverflow, RandpermOfAHugeCountRaisesInsteadOfThrowingLengthError) {
  EXPECT_EMBER_ERROR(randperm(kMax), "overflows");
  const Tensor p = randperm(50);
  EXPECT_TENSOR_EQ(std::get<0>(p.sort()), arange(50));
}

}  // namespace
}  // namespace torch
