#pragma once
// Free functions of the reduce family (ops/reduce_*.cpp), on top of the
// reduction engine (Note [The reduction engine], kernels/cpu/reduce.h).
// An empty dim list means "all dims", as sum(dim=[]) in PyTorch.
#include <string_view>
#include <tuple>

#include "ember/core/tensor.h"

namespace torch {

// ---- sums and products (reduce_sum.cpp) --------------------------------------
// Integer and bool inputs sum to int64 unless `dtype` is given (the input is cast to it first).
Tensor sum(const Tensor& self, std::optional<ScalarType> dtype = std::nullopt);
Tensor sum(const Tensor& self, IntArrayRef dim, bool keepdim = false, std::optional<ScalarType> dtype = std::nullopt);
Tensor nansum(const Tensor& self, IntArrayRef dim = {}, bool keepdim = false,
              std::optional<ScalarType> dtype = std::nullopt);
Tensor mean(const Tensor& self, std::optional<ScalarType> dtype = std::nullopt);
Tensor mean(const Tensor& self, IntArrayRef dim, bool keepdim = false, std::optional<ScalarType> dtype = std::nullopt);
Tensor nanmean(const Tensor& self, IntArrayRef dim = {}, bool keepdim = false,
               std::optional<ScalarType> dtype = std::nullopt);
Tensor prod(const Tensor& self, std::optional<ScalarType> dtype = std::nullopt);
Tensor prod(const Tensor& self, int64_t dim, bool keepdim = false, std::optional<ScalarType> dtype = std::nullopt);
// bool results (uint8 for uint8 input, as PyTorch).
Tensor any(const Tensor& self);
Tensor any(const Tensor& self, int64_t dim, bool keepdim = false);
Tensor all(const Tensor& self);
Tensor all(const Tensor& self, int64_t dim, bool keepdim = false);
Tensor count_nonzero(const Tensor& self, IntArrayRef dim = {});
Tensor count_nonzero(const Tensor& self, std::optional<int64_t> dim);

// ---- extremes (reduce_minmax.cpp) ---------------------------------------------
// NaN propagates; indices are those of the first extreme (or first NaN).
Tensor max(const Tensor& self);
std::tuple<Tensor, Tensor> max(const Tensor& self, int64_t dim, bool keepdim = false);
Tensor max(const Tensor& self, const Tensor& other);  // elementwise, NaN-propagating (as maximum)
Tensor min(const Tensor& self);
std::tuple<Tensor, Tensor> min(const Tensor& self, int64_t dim, bool keepdim = false);
Tensor min(const Tensor& self, const Tensor& other);
Tensor amax(const Tensor& self, IntArrayRef dim = {}, bool keepdim = false);
Tensor amin(const Tensor& self, IntArrayRef dim = {}, bool keepdim = false);
std::tuple<Tensor, Tensor> aminmax(const Tensor& self, std::optional<int64_t> dim = std::nullopt, bool keepdim = false);
Tensor argmax(const Tensor& self, std::optional<int64_t> dim = std::nullopt, bool keepdim = false);
Tensor argmin(const Tensor& self, std::optional<int64_t> dim = std::nullopt, bool keepdim = false);

// ---- statistics and norms (reduce_stats.cpp) -----------------------------------
// `correction` defaults to 1 (Bessel); unbiased=false means correction 0.
Tensor var(const Tensor& self, bool unbiased = true);
Tensor var(const Tensor& self, IntArrayRef dim, bool unbiased = true, bool keepdim = false);
Tensor var(const Tensor& self, OptionalIntArrayRef dim, const std::optional<Scalar>& correction, bool keepdim = false);
Tensor std(const Tensor& self, bool unbiased = true);
Tensor std(const Tensor& self, IntArrayRef dim, bool unbiased = true, bool keepdim = false);
Tensor std(const Tensor& self, OptionalIntArrayRef dim, const std::optional<Scalar>& correction, bool keepdim = false);
std::tuple<Tensor, Tensor> var_mean(const Tensor& self, bool unbiased = true);
std::tuple<Tensor, Tensor> var_mean(const Tensor& self, IntArrayRef dim, bool unbiased = true, bool keepdim = false);
std::tuple<Tensor, Tensor> var_mean(const Tensor& self, OptionalIntArrayRef dim,
                                    const std::optional<Scalar>& correction, bool keepdim = false);
std::tuple<Tensor, Tensor> std_mean(const Tensor& self, bool unbiased = true);
std::tuple<Tensor, Tensor> std_mean(const Tensor& self, IntArrayRef dim, bool unbiased = true, bool keepdim = false);
std::tuple<Tensor, Tensor> std_mean(const Tensor& self, OptionalIntArrayRef dim,
                                    const std::optional<Scalar>& correction, bool keepdim = false);
// `var(t, 1)` reduces dim 1 (LibTorch's C++-only overloads; see Tensor::var(int)).
inline Tensor var(const Tensor& self, int dim) { return var(self, IntArrayRef{dim}); }
inline Tensor std(const Tensor& self, int dim) { return std(self, IntArrayRef{dim}); }
inline std::tuple<Tensor, Tensor> var_mean(const Tensor& self, int dim) { return var_mean(self, IntArrayRef{dim}); }
inline std::tuple<Tensor, Tensor> std_mean(const Tensor& self, int dim) { return std_mean(self, IntArrayRef{dim}); }
// Vector norms: p = 0 (count of non-zeros), 1, 2, inf, -inf or any other p; nullopt means 2.
Tensor norm(const Tensor& self, const Scalar& p = 2);
Tensor norm(const Tensor& self, const std::optional<Scalar>& p, IntArrayRef dim, bool keepdim = false);
// Computed in `dtype` (floating or complex), as LibTorch's dtype overloads.
Tensor norm(const Tensor& self, const std::optional<Scalar>& p, IntArrayRef dim, bool keepdim, ScalarType dtype);
Tensor norm(const Tensor& self, const std::optional<Scalar>& p, ScalarType dtype);
// p = "fro" (the 2-norm of the flattened dims); "nuc" is a linalg op and raises here.
Tensor norm(const Tensor& self, std::string_view p, IntArrayRef dim = {}, bool keepdim = false);
// A string literal would otherwise convert to Scalar (through bool).
inline Tensor norm(const Tensor& self, const char* p, IntArrayRef dim = {}, bool keepdim = false) {
  return norm(self, std::string_view(p), dim, keepdim);
}
Tensor frobenius_norm(const Tensor& self, IntArrayRef dim = {}, bool keepdim = false);
// Integer inputs give the default float dtype.
Tensor logsumexp(const Tensor& self, IntArrayRef dim, bool keepdim = false);

// ---- scans (reduce_scan.cpp) ---------------------------------------------------
Tensor cumsum(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype = std::nullopt);
Tensor cumprod(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype = std::nullopt);
std::tuple<Tensor, Tensor> cummax(const Tensor& self, int64_t dim);
std::tuple<Tensor, Tensor> cummin(const Tensor& self, int64_t dim);
Tensor logcumsumexp(const Tensor& self, int64_t dim);

}  // namespace torch
