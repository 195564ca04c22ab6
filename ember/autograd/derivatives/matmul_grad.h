#pragma once
// Backward recording for the matmul family (ember/ops/matmul/): every product
// goes through one GEMM path and records one node. Formula in matmul_grad.cpp
// (Note [GEMM gradient layout]), made of matmuls, so double backward works.
#include "ember/core/tensor.h"

namespace torch::autograd {

// out = beta * init + alpha * (a @ b) over batched matrices; `init` may be
// undefined. `op` is the aten op's name ("addmm"), which picks the grad_fn
// name ("AddmmBackward0"; unknown names: "MmBackward0").
void record_gemm(const char* op, const Tensor& a, const Tensor& b, const Tensor& init, const Tensor& out,
                 const Scalar& alpha, const Scalar& beta);

}  // namespace torch::autograd
