#include <cmath>

#include <gtest/gtest.h>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/torch.h"

namespace nn_init_test {

namespace init = torch::nn::init;
using ember::testing::Golden;

const Golden& golden() {
  static const Golden g("nn_module.golden");
  return g;
}

TEST(NNInit, CalculateGain) {
  auto gains = golden()["init.gains"];
  const double* e = gains.data_ptr<double>();
  EXPECT_DOUBLE_EQ(init::calculate_gain(torch::kLinear), e[0]);
  EXPECT_DOUBLE_EQ(init::calculate_gain(torch::kConv2D), e[1]);
  EXPECT_DOUBLE_EQ(init::calculate_gain(torch::kSigmoid), e[2]);
  EXPECT_DOUBLE_EQ(init::calculate_gain(torch::kTanh), e[3]);
  EXPECT_DOUBLE_EQ(init::calculate_gain(torch::kReLU), e[4]);
  EXPECT_DOUBLE_EQ(init::calculate_gain(torch::kLeakyReLU), e[5]);
  EXPECT_DOUBLE_EQ(init::calculate_gain(torch::kLeakyReLU, 0.2), e[6]);
  EXPECT_DOUBLE_EQ(init::calculate_gain(torch::kLeakyReLU, std::sqrt(5.0)), e[7]);
}

TEST(NNInit, FanBasedBounds) {
  torch::manual_seed(1);
  auto w = torch::empty({64, 32, 3, 3});  // fan_in 288, fan_out 576
  auto [fan_in, fan_out] = init::_calculate_fan_in_and_fan_out(w);
  EXPECT_EQ(fan_in, 288);
  EXPECT_EQ(fan_out, 576);
  EXPECT_EMBER_ERROR(init::_calculate_fan_in_and_fan_out(torch::empty({3})), "fewer than 2 dimensions");

  auto check_uniform = [](const torch::Tensor& t, double bound) {
    EXPECT_LE(t.abs().max().item<double>(), bound);
    EXPECT_GT(t.abs().max().item<double>(), 0.97 * bound);
    EXPECT_NEAR(t.std().item<double>(), bound / std::sqrt(3.0), 0.03 * bound);
    EXPECT_NEAR(t.mean().item<double>(), 0.0, 0.03 * bound);
  };
  init::kaiming_uniform_(w);  // a = 0, fan_in, leaky_relu: gain sqrt(2)
  check_uniform(w, std::sqrt(3.0) * std::sqrt(2.0) / std::sqrt(288.0));
  init::kaiming_uniform_(w, 0, torch::kFanOut, torch::kReLU);
  check_uniform(w, std::sqrt(3.0) * std::sqrt(2.0) / std::sqrt(576.0));
  init::xavier_uniform_(w, 2.0);
  check_uniform(w, 2.0 * std::sqrt(6.0 / (288.0 + 576.0)));
  init::uniform_(w, -0.5, 0.5);
  check_uniform(w, 0.5);

  init::kaiming_normal_(w, 0, torch::kFanIn, torch::kReLU);
  EXPECT_NEAR(w.std().item<double>(), std::sqrt(2.0 / 288.0), 0.03 * std::sqrt(2.0 / 288.0));
  init::xavier_normal_(w);
  EXPECT_NEAR(w.std().item<double>(), std::sqrt(2.0 / 864.0), 0.03 * std::sqrt(2.0 / 864.0));
  init::normal_(w, 1.0, 0.1);
  EXPECT_NEAR(w.mean().item<double>(), 1.0, 0.01);
  EXPECT_NEAR(w.std().item<double>(), 0.1, 0.005);
  init::trunc_normal_(w, 0.0, 1.0, -1.0, 1.5);
  EXPECT_GE(w.min().item<double>(), -1.0);
  EXPECT_LE(w.max().item<double>(), 1.5);
  EXPECT_GT(w.mean().item<double>(), 0.0);  // the right tail is longer
}

TEST(NNInit, ConstantsEyeDirac) {
  auto w = torch::empty({3, 4});
  init::constant_(w, 2.5);
  EXPECT_TENSOR_EQ(w, torch::full({3, 4}, 2.5));
  init::ones_(w);
  EXPECT_TENSOR_EQ(w, torch::ones({3, 4}));
  init::zeros_(w);
  EXPECT_TENSOR_EQ(w, torch::zeros({3, 4}));
  init::eye_(w);
  EXPECT_TENSOR_EQ(w, torch::eye(3, 4));
  EXPECT_EMBER_ERROR(init::eye_(torch::empty({2, 2, 2})), "eye_", "2 dimensions");
  auto k = torch::empty({2, 3, 3, 3});
  init::dirac_(k);
  EXPECT_EQ(k.sum().item<float>(), 2.0f);
  EXPECT_EQ(k[0][0][1][1].item<float>(), 1.0f);
  EXPECT_EQ(k[1][1][1][1].item<float>(), 1.0f);
  EXPECT_EMBER_ERROR(init::dirac_(torch::empty({2, 2})), "dirac_");
  // Initialisers work on leaves that require grad and do not record a graph.
  auto p = torch::empty({4, 4}, torch::requires_grad());
  init::kaiming_uniform_(p);
  EXPECT_TRUE(p.is_leaf());
  EXPECT_TRUE(p.requires_grad());
}

TEST(NNInit, OrthogonalAndSparse) {
  for (auto shape : {std::vector<int64_t>{6, 4}, std::vector<int64_t>{4, 6}, std::vector<int64_t>{5, 2, 3}}) {
    auto w = torch::empty(shape);
    init::orthogonal_(w, 2.0);
    auto m = w.reshape({shape[0], -1});
    auto gram = m.size(0) >= m.size(1) ? m.t().mm(m) : m.mm(m.t());
    EXPECT_TENSOR_CLOSE_TOL(gram, torch::eye(gram.size(0)) * 4.0, 1e-4, 1e-4);
  }
  EXPECT_EMBER_ERROR(init::orthogonal_(torch::empty({3})), "orthogonal_", "2 or more");
  auto s = torch::empty({10, 7});
  init::sparse_(s, 0.3, 0.5);
  // ceil(0.3 * 10) = 3 zeros per column.
  EXPECT_EQ((s == 0).sum(0).eq(3).all().item<bool>(), true);
}

TEST(NNUtils, ClipGradNormGolden) {
  const auto& g = golden();
  for (auto [norm, tag] : {std::pair{2.0, "2"}, {1.0, "1"}, {INFINITY, "inf"}, {3.0, "3"}}) {
    auto a = torch::zeros({3, 4}, torch::requires_grad());
    auto b = torch::zeros({5}, torch::requires_grad());
    (a * g["clip.ga"]).sum().backward();
    (b * g["clip.gb"]).sum().backward();
    double total = torch::nn::utils::clip_grad_norm_({a, b}, 1.0, norm);
    EXPECT_NEAR(total, g[std::string("clip.norm") + tag + ".total"].item<double>(), 1e-5) << tag;
    EXPECT_TENSOR_CLOSE(a.grad(), g[std::string("clip.norm") + tag + ".ga"]);
    EXPECT_TENSOR_CLOSE(b.grad(), g[std::string("clip.norm") + tag + ".gb"]);
  }
  auto a = torch::zeros({3, 4}, torch::requires_grad());
  (a * g["clip.ga"]).sum().backward();
  torch::nn::utils::clip_grad_value_(a, 0.5);
  EXPECT_TENSOR_CLOSE(a.grad(), g["clip.value.ga"]);
}

TEST(NNUtils, ClipGradNormEdgeCases) {
  auto a = torch::zeros({2}, torch::requires_grad());
  EXPECT_EQ(torch::nn::utils::clip_grad_norm_({a}, 1.0), 0.0);  // no grads
  (a * torch::tensor({INFINITY, 1.0f})).sum().backward();
  EXPECT_EMBER_ERROR(torch::nn::utils::clip_grad_norm_(a, 1.0, 2.0, true), "clip_grad_norm_", "non-finite");
  // Small grads are left alone.
  auto b = torch::zeros({2}, torch::requires_grad());
  (b * torch::tensor({0.1f, 0.2f})).sum().backward();
  torch::nn::Linear lin(2, 2);
  auto params = lin->parameters();
  params.push_back(b);
  torch::nn::utils::clip_grad_norm_(params, 10.0);
  EXPECT_TENSOR_CLOSE(b.grad(), torch::tensor({0.1f, 0.2f}));
}

TEST(NNUtils, ParametersToVectorAndBack) {
  torch::nn::Linear lin(3, 2);
  auto vec = torch::nn::utils::parameters_to_vector(lin->parameters());
  EXPECT_EQ(vec.sizes(), (std::vector<int64_t>{8}));
  EXPECT_TENSOR_EQ(vec.slice(0, 0, 6), lin->weight.detach().reshape({-1}));
  auto fresh = torch::arange(8, torch::kFloat);
  torch::nn::utils::vector_to_parameters(fresh, lin->parameters());
  EXPECT_TENSOR_EQ(lin->weight, torch::arange(6, torch::kFloat).reshape({2, 3}));
  EXPECT_TENSOR_EQ(lin->bias, torch::tensor({6.0f, 7.0f}));
  EXPECT_TRUE(lin->weight.requires_grad());
  EXPECT_EMBER_ERROR(torch::nn::utils::vector_to_parameters(torch::ones({3}), lin->parameters()),
                     "vector_to_parameters");
}

}  // namespace nn_init_test
