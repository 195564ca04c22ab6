#pragma once
// Statistics and finite differences PyTorch users expect (ops/reduce/statistics.cpp):
// cov, corrcoef, quantile/nanquantile, diff and the trapezoid rule, composed
// of Ember's differentiable ops, with PyTorch's checks and edge cases.
#include <cstdint>
#include <optional>
#include <string_view>

#include "ember/core/tensor.h"

namespace torch {

// Covariance of the rows (variables) of a 1-D or 2-D input over its columns
// (observations), with optional integer frequency and float observation weights.
Tensor cov(const Tensor& self, int64_t correction = 1, const std::optional<Tensor>& fweights = std::nullopt,
           const std::optional<Tensor>& aweights = std::nullopt);
// Pearson correlation coefficients of the rows, clipped to [-1, 1].
Tensor corrcoef(const Tensor& self);

// The q-th quantiles (q a scalar or 1-D tensor in [0, 1]) of self over dim, or of
// all its elements; interpolation "linear", "lower", "higher", "midpoint" or
// "nearest". quantile gives NaN for a slice with a NaN; nanquantile ignores them.
// A 1-D q adds a leading dim of its size.
Tensor quantile(const Tensor& self, const Tensor& q, std::optional<int64_t> dim = std::nullopt, bool keepdim = false,
                std::string_view interpolation = "linear");
Tensor quantile(const Tensor& self, double q, std::optional<int64_t> dim = std::nullopt, bool keepdim = false,
                std::string_view interpolation = "linear");
Tensor nanquantile(const Tensor& self, const Tensor& q, std::optional<int64_t> dim = std::nullopt, bool keepdim = false,
                   std::string_view interpolation = "linear");
Tensor nanquantile(const Tensor& self, double q, std::optional<int64_t> dim = std::nullopt, bool keepdim = false,
                   std::string_view interpolation = "linear");

// The n-th forward difference along dim, after prepending/appending (bool: xor).
Tensor diff(const Tensor& self, int64_t n = 1, int64_t dim = -1, const std::optional<Tensor>& prepend = std::nullopt,
            const std::optional<Tensor>& append = std::nullopt);

// The trapezoid rule along dim, with sample points x or a constant spacing dx;
// trapz is its older name. cumulative_trapezoid keeps the running sums.
Tensor trapezoid(const Tensor& y, const Tensor& x, int64_t dim = -1);
Tensor trapezoid(const Tensor& y, const Scalar& dx = 1, int64_t dim = -1);
Tensor trapz(const Tensor& y, const Tensor& x, int64_t dim = -1);
Tensor trapz(const Tensor& y, double dx = 1, int64_t dim = -1);
Tensor cumulative_trapezoid(const Tensor& y, const Tensor& x, int64_t dim = -1);
Tensor cumulative_trapezoid(const Tensor& y, const Scalar& dx = 1, int64_t dim = -1);

}  // namespace torch
