#pragma once
// Distances and norm clipping PyTorch users expect (ops/nn/distance.cpp):
// dist, cdist, pdist and renorm, composed of Ember's differentiable ops.
#include <cstdint>
#include <optional>

#include "ember/core/tensor.h"

namespace torch {

// The p-norm of self - other (broadcast).
Tensor dist(const Tensor& self, const Tensor& other, const Scalar& p = 2);
// Pairwise p-norm distances between the rows of x1 [..., P, M] and x2 [..., R, M]:
// [..., P, R], the batch dims broadcast. compute_mode as PyTorch's: nullopt/0 uses
// the matrix-product form for p = 2 when P or R exceeds 25, 1 always, 2 never.
Tensor cdist(const Tensor& x1, const Tensor& x2, double p = 2, std::optional<int64_t> compute_mode = std::nullopt);
// The p-norm distances between the rows of self [N, M], each pair i < j once in
// row-major order: [N (N - 1) / 2].
Tensor pdist(const Tensor& self, double p = 2);
// Each slice along dim whose p-norm exceeds maxnorm is scaled down to norm maxnorm.
Tensor renorm(const Tensor& self, const Scalar& p, int64_t dim, const Scalar& maxnorm);

}  // namespace torch
