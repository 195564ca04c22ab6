// The PyTorch API added in stop 29 (the *_scatter ops, masked_scatter, put,
// fill_diagonal_, splits, isin, ldexp, float_power, frexp, signbit, gcd, lcm,
// nextafter, alias names, grid_sample/affine_grid, pdist, channel_shuffle,
// MaxUnpool, LPPool, ParameterList/ParameterDict), spelled as LibTorch 1.13
// spells it, through the compatibility include dir. `new_api_values` is the
// same source that was built against Debian's libtorch (g++ -ltorch
// -ltorch_cpu -lc10); its 28 printed values are the expectation below.
// (LibTorch's own MaxUnpool rejects an output size of D elements, a bug in its
// _unpool_output_size: the calls here pass D + 2, which both accept.)
#include <gtest/gtest.h>
#include <torch/linalg.h>
#include <torch/torch.h>

#include <vector>

namespace {

std::vector<double> new_api_values() {
  namespace F = torch::nn::functional;
  std::vector<double> out;
  auto x = torch::arange(12.).view({3, 4});
  out.push_back(torch::slice_scatter(x, torch::zeros({3, 2}), 1, 0, 4, 2).sum().item<double>());
  out.push_back(x.select_scatter(torch::zeros({4}), 0, 1).sum().item<double>());
  out.push_back(torch::diagonal_scatter(x, torch::zeros({3})).sum().item<double>());
  out.push_back(x.masked_scatter(x > 5, torch::zeros({12})).sum().item<double>());
  auto y = x.clone();
  y.put_(torch::tensor({0, 11}, torch::kLong), torch::tensor({100., 100.}, torch::kFloat));
  out.push_back(y.sum().item<double>());
  auto z = torch::zeros({3, 3});
  z.fill_diagonal_(1.5);
  out.push_back(z.sum().item<double>());
  out.push_back(static_cast<double>(x.hsplit(2).size() + torch::vsplit(x, {1}).size() +
                                    x.tensor_split(std::vector<int64_t>{1, 3}, 1).size()));
  out.push_back(torch::isin(torch::tensor({1, 2, 3}), torch::tensor({2, 3})).sum().item<double>());
  out.push_back(torch::ldexp(torch::tensor({1.f}), torch::tensor({3})).item<double>());
  out.push_back(torch::float_power(torch::tensor({2}), 2).item<double>());
  out.push_back(std::get<1>(torch::frexp(torch::tensor({8.f}))).item<int>());
  out.push_back(torch::signbit(torch::tensor({-0.f})).item<bool>() ? 1 : 0);
  out.push_back(torch::gcd(torch::tensor({12}), torch::tensor({18})).item<int64_t>());
  out.push_back(torch::lcm(torch::tensor({4}), torch::tensor({6})).item<int64_t>());
  out.push_back(
      torch::nextafter(torch::tensor({1.}, torch::kDouble), torch::tensor({2.}, torch::kDouble)).item<double>() > 1
          ? 1
          : 0);
  out.push_back(torch::arccos(torch::tensor({1.f})).item<double>());
  out.push_back(x.greater(5).sum().item<double>() + torch::less_equal(x, 5).sum().item<double>());
  out.push_back(static_cast<double>(x.swapdims(0, 1).size(0) + torch::moveaxis(x, 0, 1).size(0) + x.ravel().size(0) +
                                    torch::broadcast_to(torch::ones({1, 4}), {2, 4}).size(0) + x.numel()));
  out.push_back(torch::linalg::norm(torch::tensor({3.f, 4.f}).view({2, 1}), "fro", c10::nullopt, false, c10::nullopt)
                    .item<double>());
  auto img = torch::randn({1, 2, 4, 4});
  auto theta = torch::tensor({1.f, 0.f, 0.f, 0.f, 1.f, 0.f}).view({1, 2, 3});
  auto grid = F::affine_grid(theta, {1, 2, 4, 4}, false);
  auto sampled = F::grid_sample(
      img, grid, F::GridSampleFuncOptions().mode(torch::kBilinear).padding_mode(torch::kBorder).align_corners(false));
  out.push_back((sampled - img).abs().max().item<double>() < 1e-5 ? 1 : 0);
  out.push_back(F::pdist(torch::tensor({0.f, 0.f, 3.f, 4.f}).view({2, 2})).item<double>());
  out.push_back(torch::pdist(torch::ones({3, 2})).numel());
  out.push_back(torch::channel_shuffle(torch::arange(8.).view({1, 4, 2}), 2)[0][1][0].item<double>());
  auto pooled = F::max_pool2d_with_indices(torch::arange(16.).view({1, 1, 4, 4}), F::MaxPool2dFuncOptions(2));
  torch::nn::MaxUnpool2d unpool(torch::nn::MaxUnpool2dOptions(2));
  out.push_back(
      unpool->forward(std::get<0>(pooled), std::get<1>(pooled), std::vector<int64_t>{1, 1, 4, 4}).sum().item<double>());
  out.push_back(F::max_unpool2d(std::get<0>(pooled), std::get<1>(pooled),
                                F::MaxUnpool2dFuncOptions(2).output_size(std::vector<int64_t>{1, 1, 5, 5}))
                    .size(-1));
  torch::nn::LPPool2d lp(torch::nn::LPPool2dOptions(2, 2));
  out.push_back(lp(torch::ones({1, 1, 2, 2})).item<double>());
  out.push_back(F::lp_pool1d(torch::ones({1, 1, 4}), F::LPPool1dFuncOptions(1, 2)).sum().item<double>());
  torch::nn::ParameterList plist(torch::ones({2}), torch::zeros({3}));
  plist->append(torch::ones({4}));
  torch::nn::ParameterDict pdict;
  pdict->insert("w", torch::ones({2, 2}));
  out.push_back(
      static_cast<double>(plist->size() + pdict->size() + plist->parameters().size() + (pdict->contains("w") ? 1 : 0)));
  return out;
}

TEST(LibTorchStyle, NewApiMatchesLibTorch) {
  // Printed by the same function built against Debian's libtorch 1.13.1.
  const std::vector<double> libtorch = {36, 44, 51, 15, 255, 4.5, 6, 2, 8, 4,  4, 1, 6, 12,
                                        1,  0,  12, 34, 5,   1,   5, 3, 4, 40, 5, 2, 4, 8};
  const std::vector<double> ember = new_api_values();
  ASSERT_EQ(ember.size(), libtorch.size());
  for (size_t i = 0; i < ember.size(); ++i) EXPECT_NEAR(ember[i], libtorch[i], 1e-5) << "value " << i;
}

}  // namespace
