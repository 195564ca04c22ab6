#pragma once
// Backward recording for ops/nn/embedding.cpp: embedding and its dense backward
// (whose own backward gathers the rows back, so double backward works).
// Formulas in nn_embedding_grad.cpp.
#include "ember/core/tensor.h"

namespace torch::autograd {

void record_embedding(const Tensor& weight, const Tensor& indices, const Tensor& out, int64_t padding_idx,
                      bool scale_grad_by_freq);
void record_embedding_dense_backward(const Tensor& grad, const Tensor& indices, const Tensor& out, int64_t padding_idx,
                                     bool scale_grad_by_freq);

}  // namespace torch::autograd
