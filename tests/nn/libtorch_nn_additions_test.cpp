// nn pieces LibTorch has and PyTorch's own C++ tests use: fractional max pooling, CrossMapLRN2d,
// TripletMarginWithDistanceLoss, gumbel_softmax, normalize's `out`, RNN options_base accessors.
// Expected values from Debian's PyTorch 1.13 (torch.nn.functional / torch.nn, float64).
#include <gtest/gtest.h>

#include <sstream>

#include "common/test_util.h"
#include "ember/torch.h"

namespace libtorch_nn_additions_test {

namespace nn = torch::nn;
namespace F = torch::nn::functional;
using torch::Tensor;

std::string printed(const nn::Module& m) {
  std::ostringstream s;
  m.pretty_print(s);
  return s.str();
}

Tensor pool_input() {
  return torch::tensor({0.3,  -1.2, 2.0,  0.5, 1.1, 0.7, 0.2,  -0.4, 1.9,  -2.2, 1.4, 0.0, 0.9,
                        -0.6, 0.8,  -1.0, 2.5, 0.1, 0.4, -0.3, 0.6,  -0.8, 1.3,  0.2, 0.05},
                       torch::kFloat64)
      .view({1, 1, 5, 5});
}

TEST(FractionalMaxPool, MatchesPyTorchWithFixedSamples) {
  // F.fractional_max_pool2d(x, 2, output_size=(3, 3), _random_samples=[[[0.73, 0.21]]]):
  // sample 0 draws the width's windows, sample 1 the height's.
  const Tensor x = pool_input().requires_grad_(true);
  const Tensor samples = torch::tensor({0.73, 0.21}, torch::kFloat64).view({1, 1, 2});
  auto [values, indices] = F::fractional_max_pool2d_with_indices(
      x, F::FractionalMaxPool2dFuncOptions(2).output_size(3)._random_samples(samples));
  EXPECT_TENSOR_CLOSE(values,
                      torch::tensor({0.7, 2.0, 1.9, 1.4, 0.9, 1.9, 2.5, 2.5, 0.4}, torch::kFloat64).view({1, 1, 3, 3}));
  EXPECT_TENSOR_EQ(indices, torch::tensor({5, 2, 8, 10, 12, 8, 16, 16, 18}).view({1, 1, 3, 3}));
  values.sum().backward();
  // Each window's gradient goes to its argmax; windows sharing one add up.
  EXPECT_TENSOR_EQ(x.grad(), torch::tensor({0., 0., 1., 0., 0., 1., 0., 0., 2., 0., 1., 0., 1.,
                                            0., 0., 0., 2., 0., 1., 0., 0., 0., 0., 0., 0.},
                                           torch::kFloat64)
                                 .view({1, 1, 5, 5}));
}

TEST(FractionalMaxPool, ModulesUnbatchedRatioAndErrors) {
  nn::FractionalMaxPool2d pool(nn::FractionalMaxPool2dOptions(3).output_size(2));
  const Tensor ones = torch::ones({2, 5, 5});
  auto [y, idx] = pool->forward_with_indices(ones);
  EXPECT_EQ(y.sizes(), (std::vector<int64_t>{2, 2, 2}));
  // Ties keep the first element of each window, as LibTorch.
  EXPECT_TENSOR_EQ(idx, torch::tensor({0, 2, 10, 12, 0, 2, 10, 12}).view({2, 2, 2}));
  EXPECT_EQ(printed(*pool), "torch::nn::FractionalMaxPool2d()");

  nn::FractionalMaxPool3d pool3(nn::FractionalMaxPool3dOptions(2).output_ratio(0.5));
  EXPECT_EQ(pool3(torch::randn({1, 2, 6, 6, 6})).sizes(), (std::vector<int64_t>{1, 2, 3, 3, 3}));
  // 3-D samples draw time, height, width in order. A decreasing input puts each window's max at
  // its start, so the indices show the starts: PyTorch's for samples (0.99, 0.5, 0.01).
  const Tensor x3 = -torch::arange(20 * 21 * 22, torch::kFloat32).view({1, 1, 20, 21, 22});
  const Tensor idx3 = std::get<1>(
      F::fractional_max_pool3d_with_indices(x3, F::FractionalMaxPool3dFuncOptions(2).output_size(4)._random_samples(
                                                    torch::tensor({0.99f, 0.5f, 0.01f}).view({1, 1, 3}))));
  EXPECT_TENSOR_EQ(idx3.index({0, 0, torch::indexing::Slice(), 0, 0}).div(21 * 22, "floor"),
                   torch::tensor({0, 6, 12, 18}));
  EXPECT_TENSOR_EQ(idx3.index({0, 0, 0, torch::indexing::Slice(), 0}).div(22, "floor"), torch::tensor({0, 6, 12, 19}));
  EXPECT_TENSOR_EQ(idx3.index({0, 0, 0, 0, torch::indexing::Slice()}), torch::tensor({0, 6, 13, 20}));

  EXPECT_EMBER_ERROR(nn::FractionalMaxPool2d(nn::FractionalMaxPool2dOptions(2)), "output size, or a pooling ratio");
  EXPECT_EMBER_ERROR(nn::FractionalMaxPool2d(nn::FractionalMaxPool2dOptions(2).output_ratio(1.5)),
                     "output_ratio must be between 0 and 1");
  EXPECT_EMBER_ERROR(F::fractional_max_pool2d(ones, F::FractionalMaxPool2dFuncOptions(4).output_size(3)),
                     "fractional_max_pool2d", "too large");
  EXPECT_EMBER_ERROR(F::fractional_max_pool2d(torch::ones({5, 5}), F::FractionalMaxPool2dFuncOptions(2).output_size(2)),
                     "fractional_max_pool2d", "3D or 4D");
}

TEST(CrossMapLRN2d, MatchesPyTorch) {
  const Tensor y = torch::arange(32, torch::kFloat64).view({2, 4, 2, 2}) / 10;
  // torch.nn.CrossMapLRN2d(3, alpha=0.1, beta=0.75, k=1)(y)[0]
  nn::CrossMapLRN2d a(nn::CrossMapLRN2dOptions(3).alpha(0.1).beta(0.75).k(1));
  EXPECT_TENSOR_CLOSE(a(y)[0], torch::tensor({0.00000000, 0.09935489, 0.19802305, 0.29572231, 0.39218221, 0.48702921,
                                              0.57982235, 0.67022571, 0.75793970, 0.84251090, 0.92346706, 1.00055614,
                                              1.14115968, 1.22397223, 1.30341742, 1.37931293},
                                             torch::kFloat64)
                                   .view({4, 2, 2}));
  // Size 4, where the window LibTorch builds is not centred: (4, alpha=0.2, beta=0.5, k=2)(y)[1]
  nn::CrossMapLRN2d b(nn::CrossMapLRN2dOptions(4).alpha(0.2).beta(0.5).k(2));
  EXPECT_TENSOR_CLOSE(b(y)[1], torch::tensor({1.04864501, 1.10543535, 1.16092797, 1.21510601, 1.23654842, 1.28337790,
                                              1.32858381, 1.37218705, 1.38379681, 1.42036284, 1.45526440, 1.48855819,
                                              1.67093471, 1.70958356, 1.74666753, 1.78222740},
                                             torch::kFloat64)
                                   .view({4, 2, 2}));
  EXPECT_EQ(printed(*nn::CrossMapLRN2d(4)), "torch::nn::CrossMapLRN2d(4, alpha=0.0001, beta=0.75, k=1)");
  EXPECT_EMBER_ERROR(a(torch::ones({2, 2, 2})), "CrossMapLRN2d", "4D");
}

TEST(TripletMarginWithDistanceLoss, MatchesPyTorch) {
  const Tensor a = torch::tensor({{1., 2., 3.}, {0., -1., 2.}});
  const Tensor p = torch::tensor({{1.5, 2., 2.}, {1., 1., 1.}});
  const Tensor n = torch::tensor({{0., 0., 0.}, {0.5, -1., 2.5}});
  const auto o = F::TripletMarginWithDistanceLossFuncOptions().margin(1.5).swap(true).reduction(torch::kNone);
  EXPECT_TENSOR_CLOSE(F::triplet_margin_with_distance_loss(a, p, n, o), torch::tensor({0.0, 3.24238348}));
  nn::TripletMarginWithDistanceLoss cosine(
      nn::TripletMarginWithDistanceLossOptions()
          .distance_function([](const Tensor& u, const Tensor& w) { return 1.0 - torch::cosine_similarity(u, w); })
          .margin(0.5));
  EXPECT_NEAR(cosine(a, p, n).item<double>(), 0.61079848, 1e-6);
  EXPECT_EQ(printed(*nn::TripletMarginWithDistanceLoss(o)),
            "torch::nn::TripletMarginWithDistanceLoss(margin=1.5, swap=true)");
}

TEST(GumbelSoftmax, SamplesAreDistributionsAndHardOnesOneHot) {
  torch::manual_seed(0);
  const Tensor logits = torch::randn({5, 4}, torch::requires_grad());
  const Tensor soft = F::gumbel_softmax(logits, F::GumbelSoftmaxFuncOptions().tau(0.5).dim(1));
  EXPECT_TENSOR_CLOSE(soft.sum(1), torch::ones({5}));
  EXPECT_TRUE((soft >= 0).all().item<bool>());
  const Tensor hard = F::gumbel_softmax(logits, F::GumbelSoftmaxFuncOptions().hard(true).dim(1));
  EXPECT_TENSOR_CLOSE(hard.sum(1), torch::ones({5}));
  EXPECT_EQ((hard == 1).sum().item<int64_t>(), 5);
  hard.sum().backward();  // straight through: the soft sample's gradient, which sums to zero per row
  EXPECT_TENSOR_CLOSE_TOL(logits.grad().sum(1), torch::zeros({5}), 0, 1e-6);
}

TEST(NormalizeOut, WritesTheGivenTensor) {
  const Tensor x = torch::tensor({{3., 4.}, {0., 2.}});
  Tensor out = torch::empty({0});
  const Tensor r = F::normalize(x, F::NormalizeFuncOptions().p(2).dim(1).out(out));
  EXPECT_TENSOR_CLOSE(out, torch::tensor({{0.6, 0.8}, {0., 1.}}));
  EXPECT_TRUE(r.is_same(out));
}

TEST(RNNOptionsBase, AccessorsAsLibTorch) {
  nn::LSTM lstm(nn::LSTMOptions(3, 5).num_layers(2).proj_size(2));
  EXPECT_EQ(lstm->options_base.proj_size(), 2);
  EXPECT_EQ(lstm->options_base.num_layers(), 2);
  EXPECT_EQ(lstm->options_base.hidden_size(), 5);
  nn::GRUCell cell(nn::GRUCellOptions(4, 6));
  EXPECT_EQ(cell->options_base.num_chunks(), 3);
}

}  // namespace libtorch_nn_additions_test
