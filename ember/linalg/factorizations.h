#pragma once
// torch.linalg's LU and Cholesky family: factorizations, solves, inverse and
// determinants. Batched over leading dims; float32/float64/complex64/complex128.
// Non-`_ex` functions raise ember::Error for singular / non-positive-definite
// input naming the batch element; `_ex` functions return LAPACK's info codes
// (int32, one per matrix) instead and raise only if check_errors is set.
#include <tuple>

#include "ember/core/tensor.h"

namespace torch::linalg {

Tensor cholesky(const Tensor& A, bool upper = false);
// (L, info): info > 0 is the order of the leading minor that is not positive-definite.
std::tuple<Tensor, Tensor> cholesky_ex(const Tensor& A, bool upper = false, bool check_errors = false);

// (LU, pivots): L (unit diagonal, not stored) and U packed in one matrix; pivots are 1-based int32 as LAPACK's.
std::tuple<Tensor, Tensor> lu_factor(const Tensor& A, bool pivot = true);
// (LU, pivots, info): info > 0 means U[info-1, info-1] is exactly zero.
std::tuple<Tensor, Tensor, Tensor> lu_factor_ex(const Tensor& A, bool pivot = true, bool check_errors = false);
// (P, L, U) with A = P L U.
std::tuple<Tensor, Tensor, Tensor> lu(const Tensor& A, bool pivot = true);
// Solves A X = B (left) or X A = B (!left), with A^H in place of A if adjoint, from lu_factor's output.
Tensor lu_solve(const Tensor& LU, const Tensor& pivots, const Tensor& B, bool left = true, bool adjoint = false);

Tensor inv(const Tensor& A);
std::tuple<Tensor, Tensor> inv_ex(const Tensor& A, bool check_errors = false);

// A X = B (left) or X A = B; B may be a (batch of) vector(s) as in PyTorch; batch dims broadcast.
Tensor solve(const Tensor& A, const Tensor& B, bool left = true);
std::tuple<Tensor, Tensor> solve_ex(const Tensor& A, const Tensor& B, bool left = true, bool check_errors = false);
// Triangular A (only the `upper` or lower triangle is read); no singularity check, as PyTorch.
Tensor solve_triangular(const Tensor& A, const Tensor& B, bool upper, bool left = true, bool unitriangular = false);

Tensor det(const Tensor& A);
// (sign, logabsdet); sign is 0 and logabsdet -inf for a singular matrix.
std::tuple<Tensor, Tensor> slogdet(const Tensor& A);

}  // namespace torch::linalg

namespace torch {
// torch.lu_unpack: (P, L, U) from lu_factor's output.
std::tuple<Tensor, Tensor, Tensor> lu_unpack(const Tensor& LU, const Tensor& pivots, bool unpack_data = true,
                                             bool unpack_pivots = true);
}  // namespace torch
