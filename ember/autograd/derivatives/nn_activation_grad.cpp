#include "ember/autograd/derivatives/nn_activation_grad.h"

#include "ember/autograd/formula_node.h"
#include "ember/autograd/forward_ad.h"
#include "ember/autograd/grad_mode.h"
#include "ember/autograd/node.h"
#include "ember/core/dispatch.h"
#include "ember/core/error.h"
#include "ember/core/parallel.h"
#include "ember/core/shape.h"
#include "ember/core/tensor.h"
#include "ember/ops/all_ops.h"
#include "ember/ops/elementwise/grad_in_place.h"
#include "ember/vmap/vmap.h"

namespace torch::autograd {

namespace {

variable_list hardtanh_backward(const FormulaNode& n, const variable_list& g) {
  return {hardtanh_backward(g[0], n.saved(0), n.scalars[0], n.scalars[1])};
}

variable_list threshold_formula(const FormulaNode& n, const variable_list& g) {
  Tensor rebuilt;
  return {threshold_backward_over_grad(g[0], n.saved_ref(0, rebuilt), n.scalars[0])};
}

}  // namespace

void record_hardtanh(const Tensor& self, const Tensor& self_value, const Tensor& out, double min, double max) {
  auto node = record("HardtanhBackward0", &hardtanh_backward, {self}, {out});
  node->save(self_value);
  node->scalars = {min, max};
}

void record_threshold(const Tensor& self, const Tensor& self_value, const Tensor& out, const Scalar& threshold) {
  auto node = record("ThresholdBackward0", &threshold_formula, {self}, {out});
  node->save(self_value);
  node->scalars = {threshold};
}

}  // namespace torch::autograd
