#include "ember/autograd/derivatives/factory_grad.h"

#include "ember/autograd/formula_node.h"
#include "ember/ops/elementwise/operators.h"
#include "ember/ops/factory/distributions.h"
#include "ember/ops/factory/factory.h"

namespace torch::autograd {

namespace {
variable_list standard_gamma_backward(const FormulaNode& n, const variable_list& g) {
  return {g[0] * _standard_gamma_grad(n.saved(0), n.saved(1))};
}
variable_list poisson_backward(const FormulaNode&, const variable_list& g) { return {zeros_like(g[0])}; }
}  // namespace

void record_standard_gamma(const Tensor& self, const Tensor& out) {
  auto node = record("StandardGammaBackward0", &standard_gamma_backward, {self}, {out});
  node->save(self);
  node->save(out, /*is_output=*/true);
}
void record_poisson(const Tensor& self, const Tensor& out) {
  record("PoissonBackward0", &poisson_backward, {self}, {out});
}

}  // namespace torch::autograd
