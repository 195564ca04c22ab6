// max, min, amax, amin, aminmax, argmax, argmin, and the elementwise max/min(other).
#include "ember/core/dispatch.h"
#include "ember/core/record_scope.h"
#include "ember/kernels/cpu/loops.h"
#include "ember/kernels/cpu/reduce_ops.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/reduce/reduce.h"

#include "ember/autograd/derivatives/reduce_grad.h"
#include "ember/autograd/formula_node.h"
#include "ember/ops/elementwise/binary.h"
#include "ember/ops/elementwise/type_promotion.h"
#include "ember/ops/reduce/reduce_util.h"
#include "ember/vmap/batching_rules.h"

namespace torch {

using ops::reduce_into;

namespace {

template <bool IsMax>
Tensor amax_impl(const Tensor& self, uint64_t mask, bool keepdim, const char* op) {
  ops::check_nonempty_dims(self, mask, op);
  Tensor out = empty(ops::reduce_shape(self, mask, keepdim), TensorOptions(self.dtype()));
  dispatch_real_and_bool(self.dtype(), op, [&](auto tag) {
    using T = EMBER_TYPE(tag);
    reduce_into<T, T>(self, mask, kernels::MinMaxOps<T, IsMax>{}, out, [](opmath_t<T> a) { return a; });
  });
  return out;
}

// Values and int64 indices along the reduced dims (row-major index when several).
template <bool IsMax>
std::tuple<Tensor, Tensor> arg_impl(const Tensor& self, uint64_t mask, bool keepdim, bool want_values, const char* op) {
  ops::check_nonempty_dims(self, mask, op);
  DimVector shape = ops::reduce_shape(self, mask, keepdim);
  Tensor values = want_values ? empty(shape, TensorOptions(self.dtype())) : Tensor();
  Tensor indices = empty(shape, TensorOptions(kLong));
  dispatch_real_and_bool(self.dtype(), op, [&](auto tag) {
    using T = EMBER_TYPE(tag);
    using Ops = kernels::ArgMinMaxOps<T, IsMax>;
    int64_t* ix = indices.data_ptr<int64_t>();
    T* vx = want_values ? values.data_ptr<T>() : nullptr;
    kernels::reduce_kernel(static_cast<const T*>(self.data_ptr()), kernels::make_reduce_plan(self, mask, true), Ops{},
                           [&](int64_t o, const typename Ops::acc_t& a) {
                             ix[o] = a.idx < 0 ? 0 : a.idx;  // a reduction over nothing (0-dim input)
                             if (vx) vx[o] = kernels::convert<T>(a.v);
                           });
  });
  return {values, indices};
}

template <bool IsMax>
Tensor full_extreme(const Tensor& self, const char* op) {
  EMBER_CHECK(self.numel() > 0, op,
              "(): Expected reduction dim to be specified for input.numel() == 0. Specify the reduction dim with "
              "the 'dim' argument.");
  return amax_impl<IsMax>(self, ops::all_dims_mask(self), false, op);
}

template <bool IsMax>
Tensor argext(const Tensor& self, std::optional<int64_t> dim, bool keepdim, const char* op) {
  if (dim) return std::get<1>(arg_impl<IsMax>(self, ops::reduce_mask(self, *dim, op), keepdim, false, op));
  EMBER_CHECK(self.numel() > 0, op, "(): Expected reduction dim to be specified for input.numel() == 0.");
  // No dim: the index into the flattened tensor; keepdim keeps every dim as 1.
  Tensor idx = std::get<1>(arg_impl<IsMax>(self, ops::all_dims_mask(self), keepdim, false, op));
  return idx;
}

// Elementwise max/min of two tensors with PyTorch's promotion; NaN propagates.

}  // namespace

Tensor max(const Tensor& self) {
  EMBER_VMAP_FULL_REDUCTION(self, false, v, amax(v, 1));
  EMBER_RECORD_OP("max", self);
  Tensor out = full_extreme<true>(self, "max");
  if (autograd::needs_grad(self))
    autograd::record_reduction(autograd::ReduceGradOp::MaxAll, self, out, ops::all_dims_mask(self), false);
  return out;
}
Tensor min(const Tensor& self) {
  EMBER_VMAP_FULL_REDUCTION(self, false, v, amin(v, 1));
  EMBER_RECORD_OP("min", self);
  Tensor out = full_extreme<false>(self, "min");
  if (autograd::needs_grad(self))
    autograd::record_reduction(autograd::ReduceGradOp::MinAll, self, out, ops::all_dims_mask(self), false);
  return out;
}
// The gradient goes to the returned index only (amax shares it among ties).
std::tuple<Tensor, Tensor> max(const Tensor& self, int64_t dim, bool keepdim) {
  EMBER_VMAP_REDUCTION(self, IntArrayRef(dim), keepdim, v, d, k, max(v, d[0], k));
  EMBER_RECORD_OP("max", self);
  auto r = arg_impl<true>(self, ops::reduce_mask(self, dim, "max"), keepdim, true, "max");
  if (autograd::needs_grad(self) && self.is_floating_point())
    autograd::record_value_selection(autograd::SelectionOp::Max, self, std::get<0>(r), std::get<1>(r),
                                     self.dim() == 0 ? 0 : wrap_dim(dim, self.dim(), "max"), keepdim);
  return r;
}
std::tuple<Tensor, Tensor> min(const Tensor& self, int64_t dim, bool keepdim) {
  EMBER_VMAP_REDUCTION(self, IntArrayRef(dim), keepdim, v, d, k, min(v, d[0], k));
  EMBER_RECORD_OP("min", self);
  auto r = arg_impl<false>(self, ops::reduce_mask(self, dim, "min"), keepdim, true, "min");
  if (autograd::needs_grad(self) && self.is_floating_point())
    autograd::record_value_selection(autograd::SelectionOp::Min, self, std::get<0>(r), std::get<1>(r),
                                     self.dim() == 0 ? 0 : wrap_dim(dim, self.dim(), "min"), keepdim);
  return r;
}
// max(a, b) and min(a, b) are maximum and minimum (PyTorch's aliases), with their gradients.
Tensor max(const Tensor& self, const Tensor& other) { return maximum(self, other); }
Tensor min(const Tensor& self, const Tensor& other) { return minimum(self, other); }
namespace {
// Records the even-share backward of an extreme-value reduction.
Tensor with_extreme_grad(autograd::ReduceGradOp op, const Tensor& self, Tensor out, uint64_t mask, bool keepdim) {
  if (autograd::needs_grad(self) && (self.is_floating_point() || self.is_complex()))
    autograd::record_reduction(op, self, out, mask, keepdim);
  return out;
}
}  // namespace
Tensor amax(const Tensor& self, IntArrayRef dim, bool keepdim) {
  EMBER_VMAP_REDUCTION(self, dim, keepdim, v, d, k, amax(v, d, k));
  EMBER_RECORD_OP("amax", self);
  const uint64_t mask = ops::reduce_mask(self, dim, "amax");
  return with_extreme_grad(autograd::ReduceGradOp::Amax, self, amax_impl<true>(self, mask, keepdim, "amax"), mask,
                           keepdim);
}
Tensor amin(const Tensor& self, IntArrayRef dim, bool keepdim) {
  EMBER_VMAP_REDUCTION(self, dim, keepdim, v, d, k, amin(v, d, k));
  EMBER_RECORD_OP("amin", self);
  const uint64_t mask = ops::reduce_mask(self, dim, "amin");
  return with_extreme_grad(autograd::ReduceGradOp::Amin, self, amax_impl<false>(self, mask, keepdim, "amin"), mask,
                           keepdim);
}
std::tuple<Tensor, Tensor> aminmax(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  if (batching::any_batched(self) && dim) [[unlikely]]
    return batching::reduction(self, IntArrayRef(*dim), keepdim,
                               [&](const Tensor& v, IntArrayRef d, bool k) { return aminmax(v, d[0], k); });
  EMBER_VMAP_FULL_REDUCTION(self, keepdim, v, aminmax(v, 1, false));
  EMBER_RECORD_OP("aminmax", self);
  const uint64_t mask = dim ? ops::reduce_mask(self, *dim, "aminmax") : ops::all_dims_mask(self);
  // With grad, a composite of amin and amax: their formulas share the gradient
  // among ties exactly as PyTorch's aminmax backward does.
  if (autograd::needs_grad(self)) {
    const DimVector dims = dim ? DimVector{*dim} : DimVector{};
    Tensor lo = amin(self, dims, keepdim), hi = amax(self, dims, keepdim);
    return {lo, hi};
  }
  return {amax_impl<false>(self, mask, keepdim, "aminmax"), amax_impl<true>(self, mask, keepdim, "aminmax")};
}
Tensor argmax(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  if (batching::any_batched(self) && dim) [[unlikely]]
    return batching::reduction(self, IntArrayRef(*dim), keepdim,
                               [&](const Tensor& v, IntArrayRef d, bool k) { return argmax(v, d[0], k); });
  EMBER_VMAP_FULL_REDUCTION(self, keepdim, v, argmax(v, 1, false));
  EMBER_RECORD_OP("argmax", self);
  return argext<true>(self, dim, keepdim, "argmax");
}
Tensor argmin(const Tensor& self, std::optional<int64_t> dim, bool keepdim) {
  if (batching::any_batched(self) && dim) [[unlikely]]
    return batching::reduction(self, IntArrayRef(*dim), keepdim,
                               [&](const Tensor& v, IntArrayRef d, bool k) { return argmin(v, d[0], k); });
  EMBER_VMAP_FULL_REDUCTION(self, keepdim, v, argmin(v, 1, false));
  EMBER_RECORD_OP("argmin", self);
  return argext<false>(self, dim, keepdim, "argmin");
}

// ---- Tensor methods -------------------------------------------------------------
Tensor Tensor::max() const { return ember::max(*this); }
std::tuple<Tensor, Tensor> Tensor::max(int64_t dim, bool keepdim) const { return ember::max(*this, dim, keepdim); }
Tensor Tensor::max(const Tensor& other) const { return ember::max(*this, other); }
Tensor Tensor::min() const { return ember::min(*this); }
std::tuple<Tensor, Tensor> Tensor::min(int64_t dim, bool keepdim) const { return ember::min(*this, dim, keepdim); }
Tensor Tensor::min(const Tensor& other) const { return ember::min(*this, other); }
Tensor Tensor::amax(IntArrayRef dim, bool keepdim) const { return ember::amax(*this, dim, keepdim); }
Tensor Tensor::amin(IntArrayRef dim, bool keepdim) const { return ember::amin(*this, dim, keepdim); }
Tensor Tensor::argmax(std::optional<int64_t> dim, bool keepdim) const { return ember::argmax(*this, dim, keepdim); }
Tensor Tensor::argmin(std::optional<int64_t> dim, bool keepdim) const { return ember::argmin(*this, dim, keepdim); }

}  // namespace torch
