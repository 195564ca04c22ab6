// Tensors whose printed form is checked against LibTorch. This header compiles
// against both LibTorch (tools/golden/gen_print.sh) and Ember (tests/core/print_test.cpp).
#pragma once
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

inline std::vector<std::pair<std::string, torch::Tensor>> print_cases() {
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const double inf = std::numeric_limits<double>::infinity();
  return {
      {"scalar_float", torch::tensor(3.5)},
      {"scalar_int", torch::tensor(int64_t(7))},
      {"vec_int_valued", torch::tensor({1.0, 2.0, 3.0})},
      {"mat_fraction", torch::tensor({{0.5, -1.25}, {3.75, 100.125}})},
      {"mat_small_scale", torch::tensor({{0.001, 0.002}, {0.0005, 0.003}})},
      {"vec_small_scale", torch::tensor({0.001, 0.002, 0.0005})},
      {"vec_scientific", torch::tensor({1e-8, 1.0, 1e6})},
      {"vec_large_int", torch::tensor({1e10, 2.0})},
      {"vec_large_mixed", torch::tensor({123456.789, 0.5})},
      {"long_mat", torch::arange(6).view({2, 3})},
      {"bool_vec", torch::tensor({true, false, true})},
      {"float_3d", torch::arange(24, torch::kFloat).view({2, 3, 4})},
      {"float_4d", torch::arange(16, torch::kFloat).view({2, 2, 2, 2})},
      {"wide_matrix", torch::arange(40, torch::kFloat).view({2, 20})},
      {"wide_fraction", torch::linspace(0, 1, 30, torch::kFloat).view({2, 15})},
      {"empty_2d", torch::zeros({0, 3})},
      {"empty_1d", torch::zeros({0})},
      {"nan_inf", torch::tensor({nan, inf, -inf, 1.5})},
      {"all_nan", torch::tensor({nan, nan})},
      {"double_mat", torch::tensor({{1.5, 2.25}}, torch::kDouble)},
      {"negative_ints", torch::tensor({-3, 0, 12})},
      {"uint8", torch::tensor({0, 255, 7}, torch::kUInt8)},
      {"half_vec", torch::tensor({0.5, 1.5, -2.0}, torch::kHalf)},
      {"transposed", torch::arange(6, torch::kFloat).view({2, 3}).t()},
      {"undefined", torch::Tensor()},
  };
}
