// Edge cases where Ember disagreed with PyTorch 1.13, found by differential tests
// (stop 25). Each expected value is what Debian's python3-torch returns for the same
// call; the comment beside it gives the Python spelling.
#include <gtest/gtest.h>

#include <type_traits>

#include "common/test_util.h"
#include "ember/torch.h"

namespace torch {
namespace {

namespace F = torch::nn::functional;

// c10::Scalar's bool constructor is a template so pointers do not convert to `true`:
// t.norm("fro") or t.add("x") must not compile (they do not in LibTorch either).
static_assert(!std::is_convertible_v<const char*, Scalar>);
static_assert(!std::is_convertible_v<int*, Scalar>);
static_assert(std::is_convertible_v<bool, Scalar>);

TEST(EdgeCases, UnsignedRightShiftPastTheWidthIsZero) {
  // torch.tensor([250, 128, 1], dtype=torch.uint8) >> 8 -> [0, 0, 0]
  const Tensor u = tensor({250, 128, 1}).to(kByte);
  EXPECT_TENSOR_EQ(bitwise_right_shift(u, 8), zeros({3}, kByte));
  // Signed values still fill with the sign bit: torch.tensor([-8, 8], dtype=torch.int8) >> 9 -> [-1, 0]
  EXPECT_TENSOR_EQ(bitwise_right_shift(tensor({-8, 8}).to(kChar), 9), tensor({-1, 0}).to(kChar));
}

TEST(EdgeCases, ValuesThatOverflowTheDtypeAreErrors) {
  // torch.full((2,), 300, dtype=torch.uint8): "value cannot be converted to type uint8_t without overflow"
  EXPECT_EMBER_ERROR(full({2}, 300, kByte), "fill_", "300", "without overflow");
  EXPECT_EMBER_ERROR(zeros({2}, kByte).fill_(-256), "fill_", "-256");
  EXPECT_EMBER_ERROR(zeros({2}, kChar).fill_(200), "fill_", "200");
  EXPECT_EMBER_ERROR(zeros({2}, kInt).fill_(int64_t(1) << 31), "fill_");
  EXPECT_EMBER_ERROR(zeros({2}, kFloat).fill_(1e300), "fill_");
  EXPECT_EMBER_ERROR(zeros({2}, kHalf).fill_(1e6), "fill_");
  EXPECT_EMBER_ERROR(zeros({2}, kLong).fill_(std::numeric_limits<double>::infinity()), "fill_");
  EXPECT_EMBER_ERROR(zeros({2}, kLong).fill_(std::nan("")), "fill_");
  EXPECT_EMBER_ERROR(zeros({2}, kByte).masked_fill(tensor({true, false}), 300), "masked_fill_", "300");
  EXPECT_EMBER_ERROR(zeros({2}, kByte).index_fill(0, tensor({int64_t(0)}), 300), "index_fill_", "300");
  EXPECT_EMBER_ERROR(tensor({1, 2}).to(kByte).clamp(std::nullopt, 300), "clamp", "300");
  EXPECT_EMBER_ERROR(tensor({1.f, 2.f}).clamp(1e300), "clamp");
  EXPECT_EMBER_ERROR(tensor({300}).item<uint8_t>(), "item", "300");
  // What PyTorch accepts: negative values wrap into uint8, infinities fit floats,
  // fractions truncate, bools are anything.
  EXPECT_TENSOR_EQ(full({2}, -1, kByte), tensor({255, 255}).to(kByte));  // torch.full((2,), -1, dtype=torch.uint8)
  EXPECT_TENSOR_EQ(tensor({1, 2}).to(kByte).clamp(-1), tensor({255, 255}).to(kByte));
  EXPECT_TENSOR_EQ(full({2}, std::numeric_limits<double>::infinity(), kFloat), tensor({INFINITY, INFINITY}));
  EXPECT_TENSOR_EQ(full({2}, 3.7, kLong), tensor({3, 3}));
  EXPECT_TENSOR_EQ(zeros({2}, kBool).fill_(5), tensor({true, true}));
  EXPECT_EQ(tensor({300}).item<int16_t>(), 300);
  // Arithmetic with a wrapped scalar is not checked: torch.tensor([1], dtype=torch.uint8) + 300 -> 45
  EXPECT_TENSOR_EQ(tensor({1}).to(kByte) + 300, tensor({45}).to(kByte));
}

TEST(EdgeCases, RandintBoundsMustFitTheDtype) {
  // torch.randint(0, 300, (4,), dtype=torch.uint8): "to - 1 is out of bounds for unsigned char"
  EXPECT_EMBER_ERROR(randint(0, 300, {4}, kByte), "random_", "to - 1=299", "out of bounds");
  EXPECT_EMBER_ERROR(randint(-1, 3, {4}, kByte), "random_", "from=-1");
  EXPECT_EMBER_ERROR(randint(0, 3, {4}, kBool), "random_", "out of bounds");
  EXPECT_NO_THROW(randint(0, 256, {4}, kByte));
  EXPECT_NO_THROW(zeros({2}, kChar).random_(-128, 128));
}

TEST(EdgeCases, Factories) {
  // torch.scalar_tensor(3).dtype and torch.scalar_tensor(True).dtype: float32 (the default dtype)
  EXPECT_EQ(scalar_tensor(3).dtype(), kFloat);
  EXPECT_EQ(scalar_tensor(true).dtype(), kFloat);
  EXPECT_EQ(scalar_tensor(3, kLong).dtype(), kLong);
  // torch.linspace(3, 7, 1) -> [3.]; torch.logspace(0, 2, 1) -> [1.]; torch.linspace(2.7, 7, 1, dtype=torch.int64) ->
  // [2]
  EXPECT_TENSOR_EQ(linspace(3, 7, 1), tensor({3.f}));
  EXPECT_TENSOR_EQ(logspace(0, 2, 1), tensor({1.f}));
  EXPECT_TENSOR_EQ(linspace(2.7, 7, 1, kLong), tensor({2}));
  // An integer dtype truncates start, end and step first: torch.arange(0, 5, 1.5, dtype=torch.long) -> [0, 1, 2, 3, 4]
  EXPECT_TENSOR_EQ(arange(0, 5, 1.5, kLong), tensor({0, 1, 2, 3, 4}));
  EXPECT_TENSOR_EQ(arange(-0.5, 5, 1, kLong), tensor({0, 1, 2, 3, 4}));
  EXPECT_TENSOR_EQ(arange(5, 0, -1.5, kLong), tensor({5, 4, 3, 2, 1}));
  // ... but other integer dtypes count their length from the unrounded values:
  // torch.arange(0.5, 5, 1.5, dtype=torch.int32) -> [0, 1, 2]; torch.arange(0, 5, 1.5, dtype=torch.uint8) -> [0, 1, 2,
  // 3]
  EXPECT_TENSOR_EQ(arange(0.5, 5, 1.5, kInt), tensor({0, 1, 2}).to(kInt));
  EXPECT_TENSOR_EQ(arange(0, 5, 1.5, kByte), tensor({0, 1, 2, 3}).to(kByte));
  EXPECT_EMBER_ERROR(arange(0, 5, 0.5, kLong), "arange", "step must be nonzero");
  EXPECT_TENSOR_EQ(arange(0, 5, 1.5), tensor({0.f, 1.5f, 3.f, 4.5f}));
  // torch::tensor(std::vector<int64_t>{}) is int64 in LibTorch, so it can index.
  EXPECT_EQ(tensor(std::vector<int64_t>{}).dtype(), kLong);
  EXPECT_EQ(tensor(std::vector<double>{}).dtype(), kFloat);
  EXPECT_EQ(arange(5).index({tensor(std::vector<int64_t>{})}).numel(), 0);
}

TEST(EdgeCases, TopkOfAZeroDimTensor) {
  // torch.scalar_tensor(2.5).topk(0) -> (tensor(2.5), tensor(0)), also for k = 1
  for (int64_t k : {0, 1}) {
    auto [v, i] = scalar_tensor(2.5).topk(k);
    EXPECT_EQ(v.dim(), 0);
    EXPECT_EQ(v.item<float>(), 2.5f);
    EXPECT_EQ(i.item<int64_t>(), 0);
  }
}

TEST(EdgeCases, ExpandChecksTheElementCount) {
  // PyTorch: "numel: integer multiplication overflow"; the view would have had numel() 0.
  EXPECT_EMBER_ERROR(tensor({1.0}).expand({int64_t(1) << 62, 4}), "expand", "overflow");
  EXPECT_EQ(tensor({1.0}).expand({int64_t(1) << 40, 4}).numel(), int64_t(1) << 42);
}

TEST(EdgeCases, EmbeddingBagPaddingIdx) {
  const Tensor w = arange(12, kDouble).reshape({4, 3});
  const Tensor idx = tensor({0, 3, 1, 3}), off = tensor({0, 2});
  auto bag = [&](int64_t pad) {
    return F::embedding_bag(idx, w, F::EmbeddingBagFuncOptions().offsets(off).mode(torch::kSum).padding_idx(pad));
  };
  // F.embedding_bag(..., padding_idx=-1) is padding_idx=3: [[0, 1, 2], [3, 4, 5]]
  EXPECT_TENSOR_EQ(bag(-1), tensor({{0., 1., 2.}, {3., 4., 5.}}, kDouble));
  EXPECT_TENSOR_EQ(bag(-1), bag(3));
  EXPECT_EMBER_ERROR(bag(10), "padding_idx", "-4 through 3");
  EXPECT_EMBER_ERROR(std::get<0>(embedding_bag(w, idx, off, /*scale_grad_by_freq=*/false, /*mode=*/0, false,
                                               std::nullopt, false, int64_t(-5))),
                     "padding_idx");
  EXPECT_EMBER_ERROR(
      F::embedding_bag(idx, w, F::EmbeddingBagFuncOptions().offsets(off).mode(torch::kMax).scale_grad_by_freq(true)),
      "max mode does not support scaling the gradient");
  EXPECT_EMBER_ERROR(
      F::embedding_bag(idx, w,
                       F::EmbeddingBagFuncOptions().offsets(off).mode(torch::kSum).per_sample_weights(ones({4}))),
      "per_sample_weights", "float64", "float32");
}

TEST(EdgeCases, CosineSimilarityClampsEachNorm) {
  // F.cosine_similarity(torch.tensor([[3e-5, 4e-5, 0.]]), torch.tensor([[0., 2., 0.]]), eps=1e-3) -> 0.04
  const Tensor y = F::cosine_similarity(tensor({{3e-5, 4e-5, 0.0}}, kDouble), tensor({{0.0, 2.0, 0.0}}, kDouble),
                                        F::CosineSimilarityFuncOptions().eps(1e-3));
  EXPECT_NEAR(y.item<double>(), 0.04, 1e-12);
  // Unclamped: F.cosine_similarity(torch.tensor([[1., 2., 3.]]), torch.tensor([[1e-9, 0., 0.]])) -> 0.0267...
  EXPECT_NEAR(F::cosine_similarity(tensor({{1., 2., 3.}}, kDouble), tensor({{1e-9, 0., 0.}}, kDouble)).item<double>(),
              0.026726124191242442, 1e-12);
  // Against a zero vector: finite gradients, as PyTorch's
  // (z.grad = [[26726124.1912, 53452248.3825, 80178372.5737]], a.grad = 0).
  Tensor a = tensor({{1., 2., 3.}}, kDouble).requires_grad_(), z = zeros({1, 3}, kDouble).requires_grad_();
  F::cosine_similarity(a, z).sum().backward();
  EXPECT_TENSOR_CLOSE_TOL(z.grad(), tensor({{26726124.191242442, 53452248.382484884, 80178372.573727325}}, kDouble),
                          1e-12, 0);
  EXPECT_TENSOR_EQ(a.grad(), zeros({1, 3}, kDouble));
}

TEST(EdgeCases, ConvolutionRejectsEmptyKernelsAndEmptySpatialInputs) {
  // "kernel size should be greater than zero"
  EXPECT_EMBER_ERROR(conv2d(ones({1, 1, 2, 2}), ones({2, 1, 0, 0}), tensor({5.f, 7.f})), "conv2d", "kernel size");
  EXPECT_EMBER_ERROR(torch::nn::Conv2d(torch::nn::Conv2dOptions(1, 1, 0))->forward(ones({1, 1, 4, 4})), "kernel size");
  // "Only zero batch or zero channel inputs are supported"
  EXPECT_EMBER_ERROR(conv_transpose3d(ones({1, 1, 0, 2, 2}), ones({1, 1, 3, 3, 3}), tensor({5.f})),
                     "only zero batch or zero channel inputs");
  EXPECT_EMBER_ERROR(conv2d(ones({1, 1, 0, 2}), ones({1, 1, 1, 1}), {}, 1, 1),
                     "only zero batch or zero channel inputs");
  EXPECT_EMBER_ERROR(conv2d(ones({2, 2, 4, 4}), ones({0, 2, 1, 1})), "at least 1 at dimension 0");
  // A zero batch is fine: torch.conv_transpose2d(torch.ones(0, 1, 2, 2), torch.ones(1, 1, 3, 3)).shape == [0, 1, 4, 4]
  EXPECT_EQ(conv_transpose2d(ones({0, 1, 2, 2}), ones({1, 1, 3, 3})).sizes(), IntArrayRef({0, 1, 4, 4}));
}

TEST(EdgeCases, RreluInEvalTakesTheSlopeAtZero) {
  // F.rrelu(x=0, lower=0.1, upper=0.3, training=False) has gradient 0.2, as leaky_relu
  Tensor x = zeros({1}, kDouble).requires_grad_();
  F::rrelu(x, F::RReLUFuncOptions().lower(0.1).upper(0.3)).sum().backward();
  EXPECT_NEAR(x.grad().item<double>(), 0.2, 1e-12);
}

TEST(EdgeCases, MultilabelMarginLossChecksEveryTarget) {
  // "argument #2 'target' is out of range", also for entries after the -1 that ends the list
  const Tensor in = tensor({{0.1, 0.2, 0.4}});
  EXPECT_EMBER_ERROR(F::multilabel_margin_loss(in, tensor({{0, -2, 1}})), "multilabel_margin_loss", "-2");
  EXPECT_EMBER_ERROR(F::multilabel_margin_loss(in, tensor({{0, -1, 5}})), "multilabel_margin_loss", "5");
  EXPECT_NO_THROW(F::multilabel_margin_loss(in, tensor({{0, -1, 2}})));
}

TEST(EdgeCases, BatchNormOfAnEmptyBatch) {
  // F.batch_norm(torch.ones(0, 3), rm, rv, training=True): an empty result, running stats untouched
  Tensor rm = zeros({3}), rv = ones({3});
  EXPECT_EQ(F::batch_norm(ones({0, 3}), rm, rv, F::BatchNormFuncOptions().training(true)).sizes(), IntArrayRef({0, 3}));
  EXPECT_TENSOR_EQ(rm, zeros({3}));
  EXPECT_TENSOR_EQ(rv, ones({3}));
  // Through the module: the parameters still get (zero) gradients.
  torch::nn::BatchNorm1d bn(3);
  Tensor x = zeros({0, 3}).requires_grad_();
  bn(x).sum().backward();
  EXPECT_EQ(x.grad().sizes(), IntArrayRef({0, 3}));
  EXPECT_TENSOR_EQ(bn->weight.grad(), zeros({3}));
  // Exactly one value per channel is still an error.
  EXPECT_EMBER_ERROR(F::batch_norm(ones({1, 3}), rm, rv, F::BatchNormFuncOptions().training(true)),
                     "more than 1 value per channel");
}

TEST(EdgeCases, Softmax2dIsSoftmaxOverChannels) {
  torch::nn::Softmax2d m;
  const Tensor x = arange(24, kDouble).reshape({2, 3, 2, 2});
  EXPECT_TENSOR_EQ(m(x), softmax(x, -3));
  EXPECT_TENSOR_EQ(m(x[0]), softmax(x[0], 0));
  EXPECT_EMBER_ERROR(m(ones({2, 3})), "Softmax2d", "3D or 4D");
}

TEST(EdgeCases, PowExponentGradientAtZeroBase) {
  // x = [0, 0, 0, 2], e = [-1, 0, 0.5, -2]; x.pow(e).sum().backward():
  // x.grad = [-inf, 0, inf, -0.25], e.grad = [-inf, 0, 0, 0.17328679513998632]
  const Tensor x = tensor({0.0, 0.0, 0.0, 2.0}, kDouble).requires_grad_();
  const Tensor e = tensor({-1.0, 0.0, 0.5, -2.0}, kDouble).requires_grad_();
  x.pow(e).sum().backward();
  const double inf = std::numeric_limits<double>::infinity();
  EXPECT_TENSOR_EQ(x.grad(), tensor({-inf, 0.0, inf, -0.25}, kDouble));
  EXPECT_TENSOR_CLOSE(e.grad(), tensor({-inf, 0.0, 0.0, 0.17328679513998632}, kDouble));
}

TEST(EdgeCases, ViewAsADtypeOfAnotherElementSize) {
  // torch.tensor([[1.0, -2.0], [0.5, 3.0]]).view(torch.int16)
  //   -> [[0, 16256, 0, -16384], [0, 16128, 0, 16448]], stride (4, 1)
  const Tensor x = tensor({1.0f, -2.0f, 0.5f, 3.0f}).view({2, 2});
  const Tensor s = x.view(kShort);
  EXPECT_TENSOR_EQ(s, tensor({0, 16256, 0, -16384, 0, 16128, 0, 16448}).to(kShort).view({2, 4}));
  EXPECT_EQ(s.strides(), IntArrayRef({4, 1}));
  // torch.arange(16, dtype=torch.uint8).view(2, 8)[:, 4:].view(torch.int32)
  //   -> [[117835012], [252579084]], stride (2, 1), storage_offset 1
  const Tensor b = arange(16, kByte).view({2, 8}).slice(1, 4);
  const Tensor i = b.view(kInt);
  EXPECT_TENSOR_EQ(i, tensor({117835012, 252579084}).to(kInt).view({2, 1}));
  EXPECT_EQ(i.strides(), IntArrayRef({2, 1}));
  EXPECT_EQ(i.storage_offset(), 1);
  // torch.tensor([1.5, -2.25], dtype=torch.float64).view(torch.float32) -> [0.0, 1.9375, 0.0, -2.03125]
  EXPECT_TENSOR_EQ(tensor({1.5, -2.25}, kDouble).view(kFloat), tensor({0.0f, 1.9375f, 0.0f, -2.03125f}));
  // PyTorch's errors, e.g. "self.size(-1) must be divisible by 2 to view Byte as Short"
  EXPECT_EMBER_ERROR(zeros({3}, kByte).view(kShort), "size(-1) must be divisible by 2");
  EXPECT_EMBER_ERROR(zeros({4, 2}, kByte).t().view(kShort), "stride(-1) must be 1");
  EXPECT_EMBER_ERROR(scalar_tensor(1.0).view(kShort), "dim() cannot be 0");
  EXPECT_EMBER_ERROR(zeros({8}, kByte).slice(0, 1, 5).view(kShort), "storage_offset() must be divisible by 2");
}

TEST(EdgeCases, NegativePadsCropInEveryMode) {
  // x = torch.arange(3.).view(1, 1, 3); F.pad(x, p, mode=m) in PyTorch 1.13:
  const Tensor x = arange(3, kFloat).view({1, 1, 3});
  const auto padded = [&](std::vector<int64_t> p, const char* mode) { return pad(x, p, mode).flatten(); };
  EXPECT_TENSOR_EQ(padded({2, -1}, "reflect"), tensor({2.0f, 1.0f, 0.0f, 1.0f}));
  EXPECT_TENSOR_EQ(padded({-1, 2}, "reflect"), tensor({1.0f, 2.0f, 1.0f, 0.0f}));
  EXPECT_TENSOR_EQ(padded({1, -3}, "reflect"), tensor({1.0f}));
  EXPECT_TENSOR_EQ(padded({2, -1}, "replicate"), tensor({0.0f, 0.0f, 0.0f, 1.0f}));
  EXPECT_TENSOR_EQ(padded({-2, 1}, "replicate"), tensor({2.0f, 2.0f}));
  EXPECT_TENSOR_EQ(padded({2, -1}, "circular"), tensor({0.0f, 1.0f, 0.0f, 1.0f}));  // crops first, then wraps
  EXPECT_TENSOR_EQ(padded({-1, 2}, "circular"), tensor({1.0f, 2.0f, 1.0f, 2.0f}));
  EXPECT_TENSOR_EQ(padded({-2, 1}, "circular"), tensor({2.0f, 2.0f}));
  // x2 = torch.arange(20.).view(1, 1, 4, 5); F.pad(x2, (1, -2, -1, 1), mode='reflect')
  const Tensor x2 = arange(20, kFloat).view({1, 1, 4, 5});
  EXPECT_TENSOR_EQ(pad(x2, {1, -2, -1, 1}, "reflect").flatten(),
                   tensor({6.0f, 5.0f, 6.0f, 7.0f, 11.0f, 10.0f, 11.0f, 12.0f, 16.0f, 15.0f, 16.0f, 17.0f, 11.0f, 10.0f,
                           11.0f, 12.0f}));
  // PyTorch raises for an output of size below one ("Calculated output W: -1").
  EXPECT_EMBER_ERROR(padded({-2, -2}, "reflect"), "pad", "too small");
  EXPECT_EMBER_ERROR(padded({-2, -2}, "replicate"), "pad", "too small");
  EXPECT_EMBER_ERROR(padded({-2, -2}, "circular"), "pad", "empty dimension");
  // (1, -3) circular: PyTorch 1.13 returns uninitialised memory; an empty crop is an error here.
  EXPECT_EMBER_ERROR(padded({1, -3}, "circular"), "pad", "empty dimension");
}

TEST(EdgeCases, ErfinvIsAccurateNearOne) {
  // The exact inverse of each double (mpmath.erfinv at 40 digits). PyTorch 1.13 is
  // itself off in the 6th-4th digit here (5.04202912791571, 5.261488967328694,
  // 5.4728131432677625, 5.676227423545448, 5.863948532247121); Ember was off by up
  // to 7% before its Newton step moved to log(erfc).
  const Tensor y = tensor({1 - 1e-10, 1 - 1e-12, 1 - 1e-13, 1 - 1e-14, 1 - 1e-15, 0.9999999999999999, 0.99}, kDouble);
  const Tensor expected = tensor(
      {4.572824958544924937847930994688458, 5.04203189857269613005292551220209852, 5.261483331372676259087430427308155,
       5.472552517414535414600382664092603, 5.675915739744713178820204976157756, 5.863584748755167927207662585832784,
       1.821386367718449455872802051270319},
      kDouble);
  EXPECT_TENSOR_CLOSE_TOL(erfinv(y), expected, 1e-15, 0);
  EXPECT_TENSOR_CLOSE_TOL(erfinv(-y), -expected, 1e-15, 0);
  // float32: the float nearest the exact 3.7439211627767996 (PyTorch: 3.7439468)
  EXPECT_EQ(erfinv(tensor({0.9999999f})).item<float>(), 3.74392128f);
}

}  // namespace
}  // namespace torch
