#pragma once
// Backward recording for the reduce family (ember/ops/reduce/): sum, mean,
// amax/amin, max()/min(), logsumexp, var, std, prod, norm and the scans
// (cumsum, cumprod, cummax/cummin, logcumsumexp), and the value-selecting ops
// whose gradient goes to the indices they picked: max/min along a dim and the
// sort family of ops/index/sort.cpp (sort, topk, kthvalue, median, mode), which
// share max(dim)'s formula. One formula function each, in reduce_grad.cpp;
// every formula is made of differentiable ops, so double backward works.
#include "ember/core/tensor.h"

namespace torch::autograd {

// The reductions recorded by record_reduction, one value per grad_fn name.
enum class ReduceGradOp {
  Sum,        // SumBackward0 (sum()): grad expanded over the reduced dims
  SumDim,     // SumBackward1 (sum(dim)): as Sum
  Mean,       // MeanBackward0 (mean()): as Sum, divided by the count
  MeanDim,    // MeanBackward1 (mean(dim)): as Mean
  Amax,       // AmaxBackward0: grad shared evenly by the extreme elements
  Amin,       // AminBackward0: as Amax
  MaxAll,     // MaxBackward1 (max()): as Amax
  MinAll,     // MinBackward1 (min()): as Amax
  LogSumExp,  // LogsumexpBackward0: grad * exp(self - result)
  Var,        // VarBackward0: grad * 2 (self - mean) / (N - correction)
  Std,        // StdBackward0: grad * (self - mean) / ((N - correction) * result)
};
// Records out = op(self) over the dims in `mask`.
void record_reduction(ReduceGradOp op, const Tensor& self, const Tensor& out, uint64_t mask, bool keepdim,
                      double correction = 0);
void record_cumsum(const Tensor& self, const Tensor& out, int64_t dim);

// The value-selecting ops, one value per grad_fn name.
enum class SelectionOp {
  Max,        // MaxBackward0: max(dim)
  Min,        // MinBackward0: min(dim)
  Sort,       // SortBackward0
  Topk,       // TopkBackward0
  Kthvalue,   // KthvalueBackward0
  Median,     // MedianBackward1: median(dim); MedianBackward0: median()
  Nanmedian,  // NanmedianBackward1: nanmedian(dim); NanmedianBackward0: nanmedian()
  Mode,       // ModeBackward0
};
// values = self gathered at `indices` along `dim` (max/min(dim), kthvalue,
// median/nanmedian(dim), mode: keepdim as given; sort/topk: keepdim = true).
// The gradient goes to the returned index only (PyTorch's value_selecting_reduction_backward).
void record_value_selection(SelectionOp op, const Tensor& self, const Tensor& values, const Tensor& indices,
                            int64_t dim, bool keepdim);
// out = a reduction to one element shared by the elements equal to it
// (op Median: median(), Nanmedian: nanmedian()): the gradient is split evenly among
// them, NaN equal to NaN.
void record_evenly_distributed(SelectionOp op, const Tensor& self, const Tensor& out);
// grad * conj(prod_{j != i} inp_j) along `dim`, without dividing by inp (so
// zeros are fine); differentiable. prod's backward and det's at singular A.
Tensor prod_safe_zeros_backward(const Tensor& grad, const Tensor& inp, int64_t dim);
// prod() (dim = nullopt) and prod(dim, keepdim); zeros handled as PyTorch.
void record_prod(const Tensor& self, const Tensor& out, std::optional<int64_t> dim, bool keepdim);
void record_cumprod(const Tensor& self, const Tensor& out, int64_t dim);
// cummax (is_max, "CummaxBackward0") / cummin ("CumminBackward0"): the gradient of
// each output goes to the input at its index.
void record_cummaxmin(bool is_max, const Tensor& self, const Tensor& values, const Tensor& indices, int64_t dim);
void record_logcumsumexp(const Tensor& self, const Tensor& out, int64_t dim);
// norm(self, p, dims in `mask`, keepdim) ("NormBackward1").
void record_norm(const Tensor& self, const Tensor& out, double p, uint64_t mask, bool keepdim);

}  // namespace torch::autograd
