// Softmax-family and activation modules against PyTorch
// (tools/golden/gen_loss_norm_embedding_modules.py), printing and errors.
#include <gtest/gtest.h>

#include <sstream>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/torch.h"

namespace activation_extra_test {

namespace nn = torch::nn;
namespace F = torch::nn::functional;
using ember::testing::Golden;

const Golden& golden() {
  static const Golden g("loss_norm_embedding_modules.golden");
  return g;
}

std::string printed(const nn::Module& m) {
  std::ostringstream s;
  m.pretty_print(s);
  return s.str();
}

TEST(NNActivationExtra, SoftmaxFamily) {
  const auto& g = golden();
  auto x = g["act.x"];
  EXPECT_TENSOR_CLOSE(nn::Softmax(1)(x), g["act.softmax1"]);
  EXPECT_TENSOR_CLOSE(F::softmax(x, F::SoftmaxFuncOptions(1)), g["act.softmax1"]);
  EXPECT_TENSOR_CLOSE(nn::LogSoftmax(2)(x), g["act.log_softmax2"]);
  EXPECT_TENSOR_CLOSE(F::log_softmax(x, 2), g["act.log_softmax2"]);
  EXPECT_TENSOR_CLOSE(nn::Softmin(0)(x), g["act.softmin0"]);
  EXPECT_TENSOR_CLOSE(F::softmin(x, F::SoftminFuncOptions(0)), g["act.softmin0"]);
  auto y = F::softmax(x, F::SoftmaxFuncOptions(-1).dtype(torch::kFloat64));
  EXPECT_EQ(y.dtype(), torch::kFloat64);
  EXPECT_TENSOR_CLOSE(y, g["act.softmax_f64"]);
}

TEST(NNActivationExtra, Pointwise) {
  const auto& g = golden();
  auto x = g["act.x"];
  EXPECT_TENSOR_CLOSE(nn::ReLU6()(x * 3), g["act.relu6"]);
  EXPECT_TENSOR_CLOSE(nn::CELU(nn::CELUOptions().alpha(0.7))(x), g["act.celu"]);
  EXPECT_TENSOR_CLOSE(nn::Hardtanh(nn::HardtanhOptions().min_val(-0.5).max_val(1.5))(x), g["act.hardtanh"]);
  EXPECT_TENSOR_CLOSE(nn::Softsign()(x), g["act.softsign"]);
  EXPECT_TENSOR_CLOSE(nn::Softshrink(0.3)(x), g["act.softshrink"]);
  EXPECT_TENSOR_CLOSE(nn::Hardshrink(0.3)(x), g["act.hardshrink"]);
  EXPECT_TENSOR_CLOSE(nn::Tanhshrink()(x), g["act.tanhshrink"]);
  EXPECT_TENSOR_CLOSE(nn::LogSigmoid()(x), g["act.logsigmoid"]);
  EXPECT_TENSOR_CLOSE(nn::Threshold(0.1, 20.0)(x), g["act.threshold"]);
  EXPECT_TENSOR_CLOSE(nn::GLU(1)(x), g["act.glu1"]);
  nn::RReLU rrelu(nn::RReLUOptions().lower(0.1).upper(0.3));
  rrelu->eval();
  EXPECT_TENSOR_CLOSE(rrelu(x), g["act.rrelu_eval"]);
  EXPECT_TENSOR_CLOSE(F::rrelu(x, F::RReLUFuncOptions().lower(0.1).upper(0.3)), g["act.rrelu_eval"]);
  // In-place form writes into its argument.
  auto z = x.clone();
  F::hardtanh(z, F::HardtanhFuncOptions().min_val(-0.5).max_val(1.5).inplace(true));
  EXPECT_TENSOR_CLOSE(z, g["act.hardtanh"]);
}

TEST(NNActivationExtra, PReLU) {
  const auto& g = golden();
  nn::PReLU def;
  EXPECT_TENSOR_EQ(def->weight, torch::full({1}, 0.25));
  EXPECT_TENSOR_CLOSE(def(g["act.x"]), g["act.prelu_default"]);
  nn::PReLU pr(nn::PReLUOptions().num_parameters(4));
  {
    torch::NoGradGuard no_grad;
    pr->weight.copy_(g["act.prelu_w"]);
  }
  EXPECT_TENSOR_CLOSE(pr(g["act.x"]), g["act.prelu"]);
  EXPECT_EQ(pr->named_parameters().size(), 1u);
}

// Strings printed by LibTorch 1.13.
TEST(NNActivationExtra, PrettyPrint) {
  EXPECT_EQ(printed(*nn::Softmax(1)), "torch::nn::Softmax(dim=1)");
  EXPECT_EQ(printed(*nn::LogSoftmax(-1)), "torch::nn::LogSoftmax(dim=-1)");
  EXPECT_EQ(printed(*nn::Softmin(0)), "torch::nn::Softmin(dim=0)");
  EXPECT_EQ(printed(*nn::ReLU6()), "torch::nn::ReLU6()");
  EXPECT_EQ(printed(*nn::ReLU6(true)), "torch::nn::ReLU6(inplace=true)");
  EXPECT_EQ(printed(*nn::PReLU()), "torch::nn::PReLU(num_parameters=1)");
  EXPECT_EQ(printed(*nn::CELU()), "torch::nn::CELU(alpha=1)");
  EXPECT_EQ(printed(*nn::Hardtanh()), "torch::nn::Hardtanh(min_val=-1, max_val=1)");
  EXPECT_EQ(printed(*nn::Softshrink()), "torch::nn::Softshrink(0.5)");
  EXPECT_EQ(printed(*nn::Hardshrink()), "torch::nn::Hardshrink(0.5)");
  EXPECT_EQ(printed(*nn::Threshold(0.1, 20)), "torch::nn::Threshold(threshold=0.1, value=20)");
  EXPECT_EQ(printed(*nn::GLU()), "torch::nn::GLU(dim=-1)");
  EXPECT_EQ(printed(*nn::RReLU()), "torch::nn::RReLU(lower=0.125, upper=0.333333)");
  EXPECT_EQ(printed(*nn::Softsign()), "torch::nn::Softsign()");
  EXPECT_EQ(printed(*nn::Tanhshrink()), "torch::nn::Tanhshrink()");
  EXPECT_EQ(printed(*nn::LogSigmoid()), "torch::nn::LogSigmoid()");
}

TEST(NNActivationExtra, Errors) {
  EXPECT_EMBER_ERROR(nn::Hardtanh(nn::HardtanhOptions().min_val(1).max_val(0)), "Hardtanh", "max_val");
  EXPECT_EMBER_ERROR(nn::GLU(1)(torch::randn({2, 3})), "glu");
  EXPECT_EMBER_ERROR(nn::Softmax(3)(torch::randn({2, 3})), "");
}

}  // namespace activation_extra_test
