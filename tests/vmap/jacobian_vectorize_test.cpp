// jacobian/hessian with vectorize=true run one backward pass under vmap with
// a batch of unit grad_outputs (the engine and the derivative formulas see
// batched gradients); they must agree with the row-by-row computation.
#include <gtest/gtest.h>

#include "common/test_util.h"
#include "ember/ember.h"

namespace torch {
namespace {

using autograd::functional::hessian;
using autograd::functional::jacobian;

std::vector<std::pair<const char*, std::function<Tensor(const Tensor&)>>> scalar_functions(const Tensor& w) {
  return {
      {"sin", [](const Tensor& t) { return (t.sin() * 2).sum(); }},
      {"matmul_tanh", [w](const Tensor& t) { return matmul(t.exp(), w).tanh().sum(); }},
      {"select_of_log_softmax", [w](const Tensor& t) { return log_softmax((t.unsqueeze(1) * w).sum(0), 0)[1]; }},
      {"linear_gelu_norm", [w](const Tensor& t) { return gelu(linear(t, w.t())).pow(2).mean() + t.norm(); }},
      {"relu_abs_clamp_var",
       [](const Tensor& t) { return (t.sigmoid() * t.relu() + t.abs() + t.clamp(-0.1, 0.1)).var(); }},
      {"logsumexp_cumprod",
       [w](const Tensor& t) {
         return logsumexp(t.view({3, 1}) * w, {0, 1}) + cumsum(t, 0).prod() + t.exp().sqrt().sum();
       }},
      {"index_select_gather",
       [](const Tensor& t) {
         Tensor i = tensor({2, 0, 2, 1}, kLong);
         return (t.index_select(0, i) * t.index_select(0, i)).sum() *
                    gather(t, 0, tensor({1, 1, 0}, kLong)).exp().sum() +
                std::get<0>(t.sort())[0];
       }},
      {"slices_cat_where",
       [](const Tensor& t) {
         Tensor u = cat({t.narrow(0, 1, 2), t * t, t.flip({0})});
         return where(u > 0, u, u * 0.1).softmax(0).max() + t.max();
       }},
  };
}

TEST(JacobianVectorize, AgreesWithRowByRowReverseMode) {
  manual_seed(3);
  Tensor x = randn({3}, kDouble), w = randn({3, 4}, kDouble);
  for (auto& [name, f] : scalar_functions(w)) {
    SCOPED_TRACE(name);
    EXPECT_TENSOR_CLOSE(jacobian(f, x, false, false, true), jacobian(f, x, false, false, false));
    EXPECT_TENSOR_CLOSE(hessian(f, x, false, false, true), hessian(f, x, false, false, false));
  }
  // A vector-valued function and several inputs.
  auto g = [&](const std::vector<Tensor>& in) {
    return std::vector<Tensor>{matmul(in[0], in[1]).sigmoid(), (in[0] * in[0]).sum(0, true)};
  };
  Tensor a = randn({2, 3}, kDouble), b = randn({3, 4}, kDouble);
  auto jv = jacobian(g, {a, b}, false, false, true);
  auto jl = jacobian(g, {a, b}, false, false, false);
  for (size_t i = 0; i < jl.size(); ++i)
    for (size_t j = 0; j < jl[i].size(); ++j) EXPECT_TENSOR_CLOSE(jv[i][j], jl[i][j]);
}

TEST(JacobianVectorize, CreateGraphGivesDifferentiableJacobians) {
  manual_seed(4);
  Tensor x = randn({4}, kDouble).requires_grad_(true);
  auto f = [](const Tensor& t) { return t.pow(3) * t.sum(); };
  Tensor jv = jacobian(f, x, /*create_graph=*/true, false, true);
  Tensor jl = jacobian(f, x, /*create_graph=*/true, false, false);
  EXPECT_TENSOR_CLOSE(jv, jl);
  Tensor gv = autograd::grad({jv.sum()}, {x})[0];
  Tensor gl = autograd::grad({jl.sum()}, {x})[0];
  EXPECT_TENSOR_CLOSE(gv, gl);
}

}  // namespace
}  // namespace torch
