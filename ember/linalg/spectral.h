#pragma once
// torch.linalg's orthogonal factorizations: QR, eigendecompositions, SVD,
// least squares and the Householder product. Batched over leading dims;
// float32/float64/complex64/complex128.
//
// Gauge: eigenvectors and singular vectors are unique only up to a phase per
// vector (a sign for real input). As in PyTorch, gradients through eigh, eig
// and svd are correct only for losses that do not depend on that choice
// (e.g. functions of eigen/singular values, of U S Vh, or of V V^H); the
// backward of a complex decomposition checks the imaginary part of the
// phase-dependent term and raises when the loss is not gauge-invariant.
#include <optional>
#include <string_view>
#include <tuple>

#include "ember/core/tensor.h"

namespace torch::linalg {

// mode "reduced" (Q [*, m, k], R [*, k, n]), "complete" (Q [*, m, m], R [*, m, n]) or "r" (Q empty).
std::tuple<Tensor, Tensor> qr(const Tensor& A, std::string_view mode = "reduced");

// Hermitian / symmetric: eigenvalues (real, ascending) and orthonormal eigenvectors; reads the UPLO triangle.
std::tuple<Tensor, Tensor> eigh(const Tensor& A, std::string_view UPLO = "L");
Tensor eigvalsh(const Tensor& A, std::string_view UPLO = "L");
// General square matrices: complex eigenvalues and unit-norm eigenvectors (always complex dtype).
std::tuple<Tensor, Tensor> eig(const Tensor& A);
Tensor eigvals(const Tensor& A);

// (U, S, Vh) with A = U diag(S) Vh; S real, descending.
std::tuple<Tensor, Tensor, Tensor> svd(const Tensor& A, bool full_matrices = true);
Tensor svdvals(const Tensor& A);
// LibTorch 1.13's forms with `driver`, which picks a cuSOLVER method: any driver
// on a CPU tensor raises, as PyTorch does; nullopt is the forms above.
std::tuple<Tensor, Tensor, Tensor> svd(const Tensor& A, bool full_matrices, std::optional<std::string_view> driver);
Tensor svdvals(const Tensor& A, std::optional<std::string_view> driver);

// (solution [*, n, k], residuals, rank, singular_values) as torch.linalg.lstsq; driver one of
// "gels", "gelsy" (default), "gelsd", "gelss".
std::tuple<Tensor, Tensor, Tensor, Tensor> lstsq(const Tensor& A, const Tensor& B,
                                                 std::optional<double> rcond = std::nullopt,
                                                 std::optional<std::string_view> driver = std::nullopt);

// The first n columns of H_1 ... H_k with H_i = I - tau_i v_i v_i^H (v_i from A's i-th column below the diagonal).
Tensor householder_product(const Tensor& A, const Tensor& tau);

}  // namespace torch::linalg
