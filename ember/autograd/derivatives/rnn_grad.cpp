#include "ember/autograd/derivatives/rnn_grad.h"

#include "ember/autograd/formula_node.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/shape/shape_ops.h"

namespace ember::autograd {

namespace {

// ints = [dim, size_0, size_1, ...]; shapes[0] = self's sizes.
variable_list split_with_sizes_backward(const FormulaNode& n, const variable_list& grads) {
  if (!n.needs_input_grad(0)) return {Tensor()};
  const int64_t dim = n.ints[0];
  TensorOptions options;
  for (const Tensor& g : grads)
    if (g.defined()) options = g.options();
  std::vector<Tensor> parts;
  DimVector shape = n.shapes[0];
  for (size_t i = 0; i < grads.size(); ++i) {
    if (grads[i].defined()) {
      parts.push_back(grads[i]);
    } else {
      shape[dim] = n.ints[i + 1];
      parts.push_back(zeros(shape, options));
    }
  }
  return {cat(parts, dim)};
}

}  // namespace

void record_split_with_sizes(const Tensor& self, const std::vector<Tensor>& pieces, IntArrayRef sizes, int64_t dim) {
  auto node = record("SplitWithSizesBackward0", &split_with_sizes_backward, {self}, pieces);
  node->ints.push_back(dim);
  for (int64_t s : sizes) node->ints.push_back(s);
  node->shapes.emplace_back(self.sizes());
}

}  // namespace ember::autograd
