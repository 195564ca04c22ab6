#pragma once
// The rest of torch.linalg: matrix_power, matrix_exp, cross, multi_dot,
// vander, diagonal. matrix_exp has its own derivative; the others are
// composites of differentiable ops.
#include <optional>

#include "ember/core/tensor.h"

namespace torch::linalg {

// n < 0 inverts first (raising for singular matrices).
Tensor matrix_power(const Tensor& A, int64_t n);
// Padé(13) with scaling and squaring (Higham 2005), per batch element.
Tensor matrix_exp(const Tensor& A);
// Cross product of 3-vectors along `dim`; inputs broadcast.
Tensor cross(const Tensor& a, const Tensor& b, int64_t dim = -1);
Tensor multi_dot(TensorList tensors);
// [..., n] -> [..., n, N]: columns x^0, x^1, ..., x^(N-1); N defaults to n.
Tensor vander(const Tensor& x, std::optional<int64_t> N = std::nullopt);
Tensor diagonal(const Tensor& A, int64_t offset = 0, int64_t dim1 = -2, int64_t dim2 = -1);

}  // namespace torch::linalg
