// The default generator draws PyTorch's CPU stream (Note [PyTorch's CPU stream]): after
// manual_seed(0) the factories and in-place fills give PyTorch 1.13's numbers. Expected values
// printed by Debian's PyTorch 1.13 (`torch.manual_seed(0); torch.rand(5)`, ...).
#include <gtest/gtest.h>

#include <vector>

#include "common/test_util.h"
#include "ember/ember.h"

namespace random_pytorch_stream_test {

using namespace ember;

Tensor f32(std::vector<double> v) { return tensor(v).to(kFloat32); }
Tensor f64(std::vector<double> v) { return tensor(v, kFloat64); }

TEST(PyTorchStream, UniformFloatAndDouble) {
  manual_seed(0);
  EXPECT_TENSOR_EQ(rand({5}), f32({0.49625658988952637, 0.7682217955589294, 0.08847743272781372, 0.13203048706054688,
                                   0.30742281675338745}));
  manual_seed(0);
  EXPECT_TENSOR_EQ(rand({5}, kFloat64), f64({0.9700530018065531, 0.707819864399788, 0.45938294312745087,
                                             0.9207476841219603, 0.6450241201227648}));
  manual_seed(0);
  EXPECT_TENSOR_EQ(empty({4}).uniform_(-2, 3),
                   f32({0.48128294944763184, 1.841109037399292, -1.5576128959655762, -1.3398475646972656}));
  manual_seed(0);
  EXPECT_TENSOR_EQ(rand({4}, kFloat16).to(kFloat32), f32({0.333984375, 0.27294921875, 0.80712890625, 0.59375}));
}

TEST(PyTorchStream, NormalScalarPairsAndBlocksOf16) {
  // Fewer than 16 values: scalar Box-Muller, the spare value carried to the next call.
  manual_seed(0);
  const Tensor a = randn({3}), b = randn({3});
  EXPECT_TENSOR_CLOSE_TOL(cat({a, b}),
                          f32({1.5409960746765137, -0.293428897857666, -2.1787893772125244, 0.5684312582015991,
                               -1.0845223665237427, -1.3985954523086548}),
                          1e-6, 1e-6);
  // A double pair where log(1 - u) and log1p(-u) round apart: ATen takes log(1 - u).
  manual_seed(3);
  EXPECT_TENSOR_EQ(randn({1}, kFloat64), f64({0.8032760780963506}));
  // 16 or more contiguous values: blocks of 16, the tail redone.
  manual_seed(0);
  EXPECT_TENSOR_CLOSE_TOL(
      randn({17}),
      f32({-1.1258398294448853, -1.6959311962127686, 0.5666506290435791, 0.7935083508491516, 0.5988394618034363,
           -1.5550950765609741, -0.3413603901863098, 1.85300612449646, 0.46809640526771545, -0.5854975581169128,
           -0.1733967512845993, 0.18347793817520142, 1.3893661499023438, 1.586334228515625, 0.946298360824585,
           -0.843676745891571, 0.9318265914916992}),
      1e-6, 1e-6);
  manual_seed(0);
  EXPECT_TENSOR_CLOSE_TOL(randn({4, 4}).flatten(),
                          f32({-1.1258398294448853, -1.152360200881958, -0.2505785822868347, -0.4338788092136383,
                               0.8487103581428528, 0.6920091509819031, -0.31601276993751526, -2.1152193546295166,
                               0.32227492332458496, -1.2633347511291504, 0.34998318552970886, 0.30813392996788025,
                               0.11984150856733322, 1.237657904624939, 1.1167771816253662, -0.2472781538963318}),
                          1e-6, 1e-6);
  manual_seed(0);
  EXPECT_TENSOR_CLOSE_TOL(randn({20}, kFloat64).narrow(0, 0, 4),
                          f64({-2.310411800234176, -0.3732508612577643, -1.0608166785462863, 0.9995093547811761}),
                          1e-12, 1e-12);
}

TEST(PyTorchStream, IntegersPermutationsAndBernoulli) {
  manual_seed(0);
  EXPECT_TENSOR_EQ(randint(0, 10, {8}), tensor({4, 9, 3, 0, 3, 9, 7, 3}));
  manual_seed(0);
  EXPECT_TENSOR_EQ(randint(0, int64_t{1} << 40, {3}), tensor({741280623151, 506137267392, 291447657211}));
  manual_seed(0);
  EXPECT_TENSOR_EQ(randperm(10), tensor({4, 1, 7, 5, 3, 9, 0, 8, 6, 2}));
  manual_seed(0);
  EXPECT_TENSOR_EQ(empty({8}).bernoulli_(0.3), f32({0, 0, 0, 0, 0, 0, 1, 0}));
  manual_seed(0);
  EXPECT_TENSOR_CLOSE_TOL(empty({4}).exponential_(2.0),
                          f32({1.754163146018982, 0.6151923537254333, 0.3075220584869385, 1.267559289932251}), 1e-6,
                          1e-6);
}

}  // namespace random_pytorch_stream_test
