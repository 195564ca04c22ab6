#pragma once
// The torch.* spellings of linear algebra that LibTorch 1.13 still has next to
// torch.linalg: the same functions (det, inverse, cholesky, cross, ...) or thin
// adaptations of them to the older argument orders (triangular_solve, svd
// returning V, qr(some), lu_solve(b, LU, pivots)).
#include <optional>
#include <tuple>

#include "ember/core/tensor.h"

namespace torch {

Tensor det(const Tensor& A);
Tensor logdet(const Tensor& A);  // log(det): nan for a negative determinant, -inf for a singular matrix
std::tuple<Tensor, Tensor> slogdet(const Tensor& A);
Tensor inverse(const Tensor& A);
Tensor cholesky(const Tensor& A, bool upper = false);
// Solves A X = B from A's Cholesky factor.
Tensor cholesky_solve(const Tensor& B, const Tensor& L, bool upper = false);
Tensor cholesky_inverse(const Tensor& L, bool upper = false);
// torch.cross: dim defaults to the first dim of size 3 (torch.linalg.cross defaults to -1).
Tensor cross(const Tensor& a, const Tensor& b, std::optional<int64_t> dim = std::nullopt);
Tensor matrix_power(const Tensor& A, int64_t n);
Tensor matrix_exp(const Tensor& A);
Tensor pinverse(const Tensor& A, double rcond = 1e-15);
// (U, S, V) with A = U diag(S) V^H; some=false gives full U and V.
std::tuple<Tensor, Tensor, Tensor> svd(const Tensor& A, bool some = true, bool compute_uv = true);
std::tuple<Tensor, Tensor> qr(const Tensor& A, bool some = true);
// (solution, cloned coefficient) of A X = b.
std::tuple<Tensor, Tensor> triangular_solve(const Tensor& b, const Tensor& A, bool upper = true, bool transpose = false,
                                            bool unitriangular = false);
Tensor lu_solve(const Tensor& b, const Tensor& LU_data, const Tensor& LU_pivots);
Tensor orgqr(const Tensor& A, const Tensor& tau);
// torch.vander: decreasing powers unless increasing.
Tensor vander(const Tensor& x, std::optional<int64_t> N = std::nullopt, bool increasing = false);

}  // namespace torch
