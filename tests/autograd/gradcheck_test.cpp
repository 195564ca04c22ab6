// The checkers themselves: a check with nothing to differentiate is an error,
// as in PyTorch, not a vacuous pass; a wrong gradient is reported.
#include <gtest/gtest.h>

#include "common/test_util.h"
#include "ember/ember.h"

namespace torch::autograd {
namespace {

const DifferentiableFn square = [](const variable_list& x) -> variable_list { return {x[0] * x[0]}; };

TEST(Gradcheck, NoInputRequiringGradIsAnError) {
  const variable_list detached = {randn({3}, TensorOptions(kDouble))};
  EXPECT_EMBER_ERROR(gradcheck(square, detached), "gradcheck", "requires_grad=True");
  EXPECT_EMBER_ERROR(gradgradcheck(square, detached), "requires_grad=True");
  EXPECT_EMBER_ERROR(forward_ad_check(square, detached), "requires_grad=True");
}

TEST(Gradcheck, NoOutputRequiringGradIsAnErrorForGradgradcheck) {
  const variable_list x = {randn({3}, TensorOptions(kDouble).requires_grad(true))};
  const DifferentiableFn detached_out = [](const variable_list& v) -> variable_list { return {v[0].detach() * 2}; };
  EXPECT_EMBER_ERROR(gradgradcheck(detached_out, x), "gradgradcheck", "no output");
}

TEST(Gradcheck, AgreesOnACorrectGradientAndReportsAWrongOne) {
  const variable_list x = {randn({3}, TensorOptions(kDouble).requires_grad(true))};
  EXPECT_EQ(gradcheck(square, x), "");
  EXPECT_EQ(gradgradcheck(square, x), "");
  EXPECT_EQ(forward_ad_check(square, x), "");
  // x * x.detach() has the gradient x where x * x has 2x.
  const DifferentiableFn half_grad = [](const variable_list& v) -> variable_list { return {v[0] * v[0].detach()}; };
  EXPECT_NE(gradcheck(half_grad, x), "");
}

}  // namespace
}  // namespace torch::autograd
