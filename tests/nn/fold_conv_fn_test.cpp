// F::unfold / F::fold and the Fold/Unfold modules, F::conv*d / F::conv_transpose*d
// with their function options, Tensor::index_put_ with a list of index tensors and
// accumulate, var/std with an int dim, and Tensor::accessor. Expected values come
// from python3-torch (tools/golden/gen_fold_conv_fn.py).
#include <gtest/gtest.h>

#include <functional>
#include <sstream>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/torch.h"

namespace fold_conv_fn_test {

namespace F = torch::nn::functional;
using ember::testing::Golden;
using Inputs = std::vector<torch::Tensor>;

const Golden& golden() {
  static const Golden g("fold_conv_fn.golden");
  return g;
}

void check_case(const std::string& name, int n_inputs, const std::function<torch::Tensor(const Inputs&)>& f) {
  ember::testing::expect_golden_case(golden(), name, n_inputs, f);
}

TEST(Unfold, MatchesPyTorch) {
  check_case("unfold_plain", 1, [](const Inputs& x) { return F::unfold(x[0], F::UnfoldFuncOptions(2)); });
  check_case("unfold_all", 1, [](const Inputs& x) {
    return F::unfold(x[0], F::UnfoldFuncOptions({2, 3}).dilation({1, 2}).padding({1, 0}).stride({2, 1}));
  });
  check_case("unfold_3d", 1,
             [](const Inputs& x) { return F::unfold(x[0], F::UnfoldFuncOptions(3).padding(1).stride(2)); });
}

TEST(Fold, MatchesPyTorch) {
  check_case("fold_plain", 1, [](const Inputs& x) { return F::fold(x[0], F::FoldFuncOptions({4, 5}, 2)); });
  check_case("fold_all", 1, [](const Inputs& x) {
    return F::fold(x[0], F::FoldFuncOptions({5, 6}, {2, 3}).dilation({1, 2}).padding({1, 0}).stride({2, 1}));
  });
  check_case("fold_2d", 1, [](const Inputs& x) {
    return F::fold(x[0], F::FoldFuncOptions({3, 3}, 2).padding(1).stride(2));
  });
}

TEST(FoldModules, ForwardAndPrint) {
  torch::nn::Unfold unfold(torch::nn::UnfoldOptions({2, 3}).dilation({1, 2}).padding({1, 0}).stride({2, 1}));
  const torch::Tensor x = golden()["unfold_all.x0"];
  EXPECT_TENSOR_CLOSE(unfold(x), golden()["unfold_all.y"]);
  torch::nn::Fold fold(torch::nn::FoldOptions({4, 5}, 2));
  EXPECT_TENSOR_CLOSE(fold(golden()["fold_plain.x0"]), golden()["fold_plain.y"]);
  std::ostringstream s;
  s << *fold << "\n" << *unfold;
  EXPECT_EQ(s.str(),
            "torch::nn::Fold(output_size=[4, 5], kernel_size=[2, 2], dilation=[1, 1], padding=[0, 0], stride=[1, 1])\n"
            "torch::nn::Unfold(kernel_size=[2, 3], dilation=[1, 2], padding=[1, 0], stride=[2, 1])");
}

TEST(FoldModules, BadShapesAreErrors) {
  // F.unfold(torch.zeros(2, 3), 2) and a kernel larger than the padded input both raise in PyTorch.
  EXPECT_EMBER_ERROR(F::unfold(torch::zeros({2, 3}), F::UnfoldFuncOptions(2)), "unfold", "[2, 3]");
  EXPECT_EMBER_ERROR(F::unfold(torch::zeros({1, 1, 4, 4}), F::UnfoldFuncOptions(6)), "unfold", "at least one");
  EXPECT_EMBER_ERROR(F::unfold(torch::zeros({1, 1, 4, 4}), F::UnfoldFuncOptions(2).stride(0)), "unfold", "stride");
  // F.fold(torch.zeros(2, 12, 3), (4, 6), (2, 3)): 3 * 4 = 12 blocks expected, 3 given.
  EXPECT_EMBER_ERROR(F::fold(torch::zeros({2, 12, 3}), F::FoldFuncOptions({4, 6}, {2, 3})), "fold", "3 * 4 = 12",
                     "input.size(2)=3");
  EXPECT_EMBER_ERROR(F::fold(torch::zeros({2, 5, 12}), F::FoldFuncOptions({4, 6}, {2, 3})), "fold", "divisible");
  EXPECT_EMBER_ERROR(F::fold(torch::zeros({1, 2, 4, 12}), F::FoldFuncOptions({4, 6}, {2, 3})), "fold", "4D");
}

TEST(ConvFunctional, OptionsMatchPyTorch) {
  check_case("conv2d_opts", 3, [](const Inputs& x) {
    return F::conv2d(x[0], x[1], F::Conv2dFuncOptions().bias(x[2]).stride(2).padding({1, 0}).dilation(1).groups(2));
  });
  check_case("conv2d_same", 2, [](const Inputs& x) {
    return F::conv2d(x[0], x[1], F::Conv2dFuncOptions().padding(torch::kSame).dilation(2));
  });
  check_case("conv1d_valid", 2, [](const Inputs& x) {
    return F::conv1d(x[0], x[1], F::Conv1dFuncOptions().padding(torch::kValid).stride(2));
  });
  check_case("conv3d_opts", 2,
             [](const Inputs& x) { return F::conv3d(x[0], x[1], F::Conv3dFuncOptions().padding(1)); });
  check_case("conv_transpose2d_opts", 3, [](const Inputs& x) {
    return F::conv_transpose2d(x[0], x[1],
                               F::ConvTranspose2dFuncOptions().bias(x[2]).stride(2).padding(1).output_padding(1));
  });
  check_case("conv_transpose1d_opts", 2, [](const Inputs& x) {
    return F::conv_transpose1d(x[0], x[1], F::ConvTranspose1dFuncOptions().stride(3).dilation(2));
  });
  // Default options: stride 1, no padding, no bias.
  const torch::Tensor x = torch::ones({1, 1, 3, 3}), w = torch::ones({1, 1, 2, 2});
  EXPECT_TENSOR_EQ(F::conv2d(x, w), torch::full({1, 1, 2, 2}, 4.0));
}

TEST(IndexPutList, AccumulateMatchesPyTorch) {
  const Golden& g = golden();
  const torch::Tensor base = g["index_put.base"];
  torch::Tensor acc = base.clone();
  acc.index_put_({g["index_put.rows"], g["index_put.cols"]}, g["index_put.vals"], /*accumulate=*/true);
  EXPECT_TENSOR_CLOSE(acc, g["index_put.acc"]);
  torch::Tensor rows = base.clone();
  rows.index_put_({g["index_put.rows"]}, torch::ones({5}, torch::kDouble), true);
  EXPECT_TENSOR_CLOSE(rows, g["index_put.row_only"]);
  const torch::Tensor set =
      base.index_put({torch::tensor({1, 3}), torch::tensor({0, 2})}, torch::tensor({7.0, 8.0}, torch::kDouble), false);
  EXPECT_TENSOR_CLOSE(set, g["index_put.set"]);
  EXPECT_TENSOR_EQ(base, g["index_put.base"]);  // index_put leaves self alone
  // As at::index_put_: the values' dtype must match.
  EXPECT_EMBER_ERROR(base.clone().index_put_({g["index_put.rows"]}, torch::ones({5}), true), "index_put_", "dtype");
}

TEST(VarStdIntDim, ReducesThatDim) {
  const Golden& g = golden();
  const torch::Tensor x = g["var.x"];
  // LibTorch's C++-only overloads: without them 1 would bind to `bool unbiased`.
  EXPECT_TENSOR_CLOSE(x.var(1), g["var.dim1"]);
  EXPECT_TENSOR_CLOSE(x.std(0), g["std.dim0"]);
  EXPECT_TENSOR_CLOSE(torch::var(x, 1), g["var.dim1"]);
  EXPECT_TENSOR_CLOSE(torch::std(x, 0), g["std.dim0"]);
  auto [v, m] = torch::var_mean(x, 1);
  EXPECT_TENSOR_CLOSE(v, g["var_mean.var"]);
  EXPECT_TENSOR_CLOSE(m, g["var_mean.mean"]);
  auto [s, m0] = torch::std_mean(x, 0);
  EXPECT_TENSOR_CLOSE(s, g["std_mean.std"]);
  EXPECT_TENSOR_CLOSE(m0, g["std_mean.mean"]);
  // The bool overloads still mean `unbiased`.
  EXPECT_EQ(x.var(false).dim(), 0);
}

TEST(TensorAccessor, ReadsAndWritesThroughStrides) {
  torch::Tensor t = torch::arange(12, torch::kFloat).view({3, 4});
  auto a = t.accessor<float, 2>();
  EXPECT_EQ(a.size(0), 3);
  EXPECT_EQ(a.size(1), 4);
  EXPECT_EQ(a[2][1], 9.0f);
  a[0][3] = -1.0f;
  EXPECT_EQ(t[0][3].item<float>(), -1.0f);
  // A transposed view: the accessor follows its strides.
  torch::Tensor tt = t.t();
  auto b = tt.accessor<float, 2>();
  EXPECT_EQ(b[1][2], 9.0f);
  const torch::Tensor row = t[1];  // accessor() on a temporary is deleted: the accessor points into its strides
  EXPECT_EQ((row.accessor<float, 1>()[2]), 6.0f);
  EXPECT_EMBER_ERROR((t.accessor<float, 3>()), "TensorAccessor", "3 dims", "2");
  EXPECT_EMBER_ERROR((t.accessor<double, 2>()), "data_ptr", "float64", "float32");
}

}  // namespace fold_conv_fn_test
