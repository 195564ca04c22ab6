#pragma once
// torch.linalg's norms and the functions built on singular values:
// vector_norm, matrix_norm, norm, cond, matrix_rank, pinv. All are
// composites of differentiable ops (svd/eigh supply the gradients).
#include <concepts>
#include <optional>
#include <string_view>

#include "ember/core/tensor.h"

namespace torch::linalg {

// ord: any real (inf, -inf, 0 included); dim empty (or std::nullopt) = all dims; dtype casts the input first.
Tensor vector_norm(const Tensor& x, const Scalar& ord = 2, IntArrayRef dim = {}, bool keepdim = false,
                   std::optional<ScalarType> dtype = std::nullopt);
inline Tensor vector_norm(const Tensor& x, const Scalar& ord, std::nullopt_t, bool keepdim = false,
                          std::optional<ScalarType> dtype = std::nullopt) {
  return vector_norm(x, ord, IntArrayRef{}, keepdim, dtype);
}

// ord: "fro", "nuc" or one of inf, -inf, 1, -1, 2, -2; over the two dims in `dim`.
Tensor matrix_norm(const Tensor& A, std::string_view ord = "fro", IntArrayRef dim = {-2, -1}, bool keepdim = false,
                   std::optional<ScalarType> dtype = std::nullopt);
Tensor matrix_norm(const Tensor& A, const Scalar& ord, IntArrayRef dim = {-2, -1}, bool keepdim = false,
                   std::optional<ScalarType> dtype = std::nullopt);
inline Tensor matrix_norm(const Tensor& A, const char* ord, IntArrayRef dim = {-2, -1}, bool keepdim = false,
                          std::optional<ScalarType> dtype = std::nullopt) {
  return matrix_norm(A, std::string_view(ord), dim, keepdim, dtype);
}

// torch.linalg.norm: a vector norm over one dim (or all dims when ord is not
// given), a matrix norm over two dims or for a string ord. Empty dim = not given.
Tensor norm(const Tensor& A, const std::optional<Scalar>& ord = std::nullopt, IntArrayRef dim = {},
            bool keepdim = false, std::optional<ScalarType> dtype = std::nullopt);
Tensor norm(const Tensor& A, std::string_view ord, IntArrayRef dim = {}, bool keepdim = false,
            std::optional<ScalarType> dtype = std::nullopt);
inline Tensor norm(const Tensor& A, const char* ord, IntArrayRef dim = {}, bool keepdim = false,
                   std::optional<ScalarType> dtype = std::nullopt) {
  return norm(A, std::string_view(ord), dim, keepdim, dtype);
}
// `linalg::norm(A, "fro", c10::nullopt)`: LibTorch's dim is an optional list.
inline Tensor norm(const Tensor& A, std::string_view ord, std::nullopt_t, bool keepdim = false,
                   std::optional<ScalarType> dtype = std::nullopt) {
  return norm(A, ord, IntArrayRef{}, keepdim, dtype);
}
inline Tensor norm(const Tensor& A, const char* ord, std::nullopt_t, bool keepdim = false,
                   std::optional<ScalarType> dtype = std::nullopt) {
  return norm(A, std::string_view(ord), IntArrayRef{}, keepdim, dtype);
}
inline Tensor norm(const Tensor& A, const std::optional<Scalar>& ord, std::nullopt_t, bool keepdim = false,
                   std::optional<ScalarType> dtype = std::nullopt) {
  return norm(A, ord, IntArrayRef{}, keepdim, dtype);
}

// Condition number in the norm p (nullopt = 2); inf for singular matrices with other p.
Tensor cond(const Tensor& A, const std::optional<Scalar>& p = std::nullopt);
Tensor cond(const Tensor& A, std::string_view p);
inline Tensor cond(const Tensor& A, const char* p) { return cond(A, std::string_view(p)); }

// Number of singular values (or |eigenvalues| if hermitian) above max(atol, rtol * largest); int64.
Tensor matrix_rank(const Tensor& A, std::optional<double> atol = std::nullopt,
                   std::optional<double> rtol = std::nullopt, bool hermitian = false);
Tensor pinv(const Tensor& A, std::optional<double> atol = std::nullopt, std::optional<double> rtol = std::nullopt,
            bool hermitian = false);

// LibTorch's positional forms: `pinv(A, rcond, hermitian)` with rcond relative
// (rtol = rcond, atol = 0), `matrix_rank(A, tol, hermitian)` with tol absolute
// (atol = tol, rtol = 0), as torch.linalg's deprecated positional arguments.
// `hermitian` must be a real bool, so `pinv(A, 0.0, 1e-3)` still means
// (atol, rtol) instead of turning 1e-3 into `hermitian = true`.
inline Tensor pinv(const Tensor& A, double rcond) { return pinv(A, 0.0, std::optional<double>(rcond), false); }
template <typename Bool>
requires std::same_as<Bool, bool> Tensor pinv(const Tensor& A, double rcond, Bool hermitian) {
  return pinv(A, 0.0, std::optional<double>(rcond), hermitian);
}
template <typename Bool>
requires std::same_as<Bool, bool> Tensor matrix_rank(const Tensor& A, double tol, Bool hermitian) {
  return matrix_rank(A, std::optional<double>(tol), std::optional<double>(0.0), hermitian);
}
// A tensor tolerance (absolute, one per matrix, broadcast over the batch).
Tensor matrix_rank(const Tensor& A, const Tensor& tol, bool hermitian = false);

}  // namespace torch::linalg
