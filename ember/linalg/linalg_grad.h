#pragma once
// Backward recording for ember::linalg's primitives (formulas in
// linalg_grad.cpp). Composites (pinv, cond, norms, matrix_power, lu_solve, ...)
// are built from these and differentiable ops and need nothing here.
#include "ember/core/tensor.h"

namespace torch::autograd {

void record_linalg_det(const Tensor& A, const Tensor& det);
void record_linalg_slogdet(const Tensor& A, const Tensor& sign, const Tensor& logabsdet);
void record_linalg_inv(const Tensor& A, const Tensor& inverse);
// A and B already broadcast to one batch shape; B a matrix.
void record_linalg_solve(const Tensor& A, const Tensor& B, const Tensor& X);
void record_linalg_solve_triangular(const Tensor& A, const Tensor& B, const Tensor& X, bool upper, bool unitriangular);
void record_linalg_cholesky(const Tensor& A, const Tensor& L);
void record_linalg_lu_factor(const Tensor& A, const Tensor& LU, const Tensor& pivots);
// Q undefined for mode "r" (whose backward raises, as PyTorch's).
void record_linalg_qr(const Tensor& A, const Tensor& Q, const Tensor& R, bool complete);
void record_linalg_eigh(const Tensor& A, const Tensor& L, const Tensor& V);
void record_linalg_eig(const Tensor& A, const Tensor& L, const Tensor& V);
void record_linalg_svd(const Tensor& A, const Tensor& U, const Tensor& S, const Tensor& Vh);
void record_linalg_matrix_exp(const Tensor& A, const Tensor& out);

}  // namespace torch::autograd
