#include "ember/autograd/derivatives/nn_embedding_grad.h"

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
#include "ember/ops/nn/embedding.h"
#include "ember/vmap/vmap.h"

namespace torch::autograd {

namespace {

variable_list embedding_backward(const FormulaNode& n, const variable_list& g) {
  const Tensor indices = n.saved(0);
  return {embedding_dense_backward(g[0], indices, n.ints[0], n.ints[1], n.ints[2] != 0), Tensor()};
}

// embedding_dense_backward is linear in grad: its adjoint gathers the rows back
// (zero for padding_idx, divided by the counts when scaled).
variable_list embedding_dense_backward_backward(const FormulaNode& n, const variable_list& g) {
  const Tensor indices = n.saved(0);
  const int64_t padding_idx = n.ints[0];
  const bool scale = n.ints[1] != 0;
  Tensor r = embedding(g[0], indices);
  if (padding_idx >= 0 || scale) {
    Tensor factor;
    {
      autograd::BelowAutogradGuard no_grad;
      const Tensor flat = indices.reshape({-1});
      factor = ones(indices.sizes(), g[0].options());
      if (scale) {
        Tensor counts = flat.bincount(std::nullopt, g[0].size(0)).to(g[0].dtype());
        factor = factor / counts.index_select(0, flat).view(indices.sizes());
      }
      if (padding_idx >= 0) factor = factor.masked_fill(indices == padding_idx, 0);
    }
    r = r * factor.unsqueeze(-1);
  }
  return {r, Tensor()};
}

}  // namespace

void record_embedding(const Tensor& weight, const Tensor& indices, const Tensor& out, int64_t padding_idx,
                      bool scale_grad_by_freq) {
  auto node = record("EmbeddingBackward0", &embedding_backward, {weight, indices}, {out});
  node->save(indices);
  node->ints = {weight.size(0), padding_idx, scale_grad_by_freq ? 1 : 0};
}

void record_embedding_dense_backward(const Tensor& grad, const Tensor& indices, const Tensor& out, int64_t padding_idx,
                                     bool scale_grad_by_freq) {
  auto node = record("EmbeddingDenseBackwardBackward0", &embedding_dense_backward_backward, {grad, indices}, {out});
  node->save(indices);
  node->ints = {padding_idx, scale_grad_by_freq ? 1 : 0};
}

}  // namespace torch::autograd
