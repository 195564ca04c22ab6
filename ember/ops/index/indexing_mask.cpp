// Boolean-mask selection: masked_fill, masked_select, where, nonzero.
#include "ember/core/record_scope.h"
#include "ember/core/shape.h"
#include "ember/kernels/cpu/index_kernels.h"
#include "ember/ops/elementwise/elementwise.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/index/indexing.h"
#include "ember/ops/shape/copy.h"

#include "ember/autograd/derivatives/index_grad.h"
#include "ember/autograd/formula_node.h"
#include "ember/ops/elementwise/type_promotion.h"
#include "ember/ops/shape/view.h"
#include "ember/vmap/batching_rules.h"
#include "ember/vmap/rules_indexing.h"

namespace torch {

namespace {
Tensor scalar_as_tensor(const Scalar& s, ScalarType t) { return full({}, s, TensorOptions().dtype(t)); }
}  // namespace

Tensor& masked_fill_(Tensor& self, const Tensor& mask, const Scalar& value) {
  if (batching::any_batched(self, mask)) [[unlikely]] {
    batching::broadcasting_("masked_fill_", {&self, &mask}, std::nullopt,
                            [&](std::vector<Tensor>& p) { return p[0].masked_fill_(p[1], value); });
    return self;
  }
  EMBER_RECORD_OP("masked_fill_", self, mask);
  EMBER_CHECK(mask.dtype() == kBool, "masked_fill_: only supports boolean masks, but got mask with dtype ",
              mask.dtype());
  EMBER_CHECK(!value.isComplex() || self.is_complex(), "masked_fill_: cannot fill a ", self.dtype(),
              " tensor with a complex value");
  check_fits(value, self.dtype(), "masked_fill_");
  bool ok = mask.dim() <= self.dim();
  for (int64_t k = 0; ok && k < mask.dim(); ++k) {
    int64_t s = self.size(self.dim() - mask.dim() + k);
    ok = mask.size(k) == 1 || mask.size(k) == s;
  }
  EMBER_CHECK(ok, "masked_fill_: mask of shape ", shape_str(mask.sizes()), " cannot be broadcast to self of shape ",
              shape_str(self.sizes()));
  const bool grad = autograd::needs_grad(self);
  if (grad) autograd::check_inplace(self, "masked_fill_");
  if (self.numel() > 0) {
    Tensor m = mask.impl()->storage() == self.impl()->storage() ? clone(mask) : mask;
    kernels::masked_fill_kernel(self, m, value);
    self.bump_version();
  }
  if (grad) autograd::record_masked_fill(self, mask, self);  // self is input and output
  return self;
}

Tensor& masked_fill_(Tensor& self, const Tensor& mask, const Tensor& value) {
  EMBER_CHECK(value.dim() == 0, "masked_fill_: only supports a 0-dimensional value tensor, but got tensor with ",
              value.dim(), " dimension(s).");
  if (batching::any_batched(value)) [[unlikely]]  // each sample's own fill value: not an item()
    return batching::masked_fill_batched_value_(self, mask, value);
  return masked_fill_(self, mask, value.item());
}

Tensor masked_fill(const Tensor& self, const Tensor& mask, const Scalar& value) {
  if (batching::any_batched(self, mask)) [[unlikely]]
    return batching::broadcasting({&self, &mask}, std::nullopt,
                                  [&](std::vector<Tensor>& p) { return masked_fill(p[0], p[1], value); });
  EMBER_RECORD_OP("masked_fill", self, mask);
  EMBER_CHECK(mask.dtype() == kBool, "masked_fill: only supports boolean masks, but got mask with dtype ",
              mask.dtype());
  DimVector shape = broadcast_shapes(self.sizes(), mask.sizes(), "masked_fill");
  Tensor out;
  {
    autograd::BelowAutogradGuard no_grad;
    out = clone(expand(self, shape));
    masked_fill_(out, mask, value);
  }
  if (autograd::needs_grad(self)) autograd::record_masked_fill(self, mask, out);
  return out;
}

Tensor masked_fill(const Tensor& self, const Tensor& mask, const Tensor& value) {
  EMBER_CHECK(value.dim() == 0, "masked_fill: only supports a 0-dimensional value tensor, but got tensor with ",
              value.dim(), " dimension(s).");
  if (batching::any_batched(value)) [[unlikely]]
    return batching::masked_fill_batched_value(self, mask, value);
  return masked_fill(self, mask, value.item());
}

Tensor masked_select(const Tensor& self, const Tensor& mask) {
  if (batching::any_batched(self, mask)) [[unlikely]]
    batching::refuse_dynamic_shape("masked_select");
  EMBER_RECORD_OP("masked_select", self, mask);
  EMBER_CHECK(mask.dtype() == kBool, "masked_select: expected BoolTensor for mask, but got ", mask.dtype());
  DimVector shape = broadcast_shapes(self.sizes(), mask.sizes(), "masked_select");
  if (shape.empty()) shape.push_back(1);  // 0-dim: select from a one-element vector
  std::optional<Tensor> m = expand(mask, shape);
  Tensor out;
  {
    autograd::BelowAutogradGuard no_grad;
    out = index(expand(self, shape), OptionalTensorList(m));
  }
  if (autograd::needs_grad(self)) autograd::record_masked_select(self, *m, out);
  return out;
}

namespace {
// where and where_out: one loop over (out, condition, self, other), with the
// out= and overlap rules of the elementwise ops (Note [Elementwise overlap]).
Tensor where_impl(const Tensor& condition, const Tensor& self, const Tensor& other, Tensor* out) {
  EMBER_CHECK(condition.defined() && self.defined() && other.defined(), "where: expected defined tensors");
  EMBER_CHECK(condition.dtype() == kBool,
              "where: expected condition to be a boolean tensor, but got a tensor with dtype ", condition.dtype());
  const ScalarType dt = result_type(self, other);
  DimVector shape = broadcast_shapes(condition.sizes(), self.sizes(), "where");
  shape = broadcast_shapes(shape, other.sizes(), "where");
  // A fresh result comes from the public empty, as PyTorch's where records aten::empty.
  Tensor fresh = out == nullptr ? empty(shape, TensorOptions().dtype(dt)) : Tensor();
  const Tensor operands[3] = {condition, self, other};
  const Tensor inputs[3] = {condition, ops::cast(self, dt), ops::cast(other, dt)};
  return ops::run_elementwise("where", operands, inputs, shape, dt, out != nullptr ? out : &fresh, false,
                              [](const kernels::TensorIterator& iter) { kernels::where_kernel(iter); });
}

Tensor where_grad(const Tensor& condition, const Tensor& self, const Tensor& other) {
  Tensor out = where_impl(condition, self, other, nullptr);
  if (autograd::needs_grad(self, other)) autograd::record_where(condition, self, other, out);
  return out;
}
}  // namespace

Tensor where(const Tensor& condition, const Tensor& self, const Tensor& other) {
  if (batching::any_batched(condition, self, other)) [[unlikely]]
    return batching::where_batched(condition, self, other);
  EMBER_RECORD_OP("where", condition, self, other);
  return where_grad(condition, self, other);
}

// Scalars take part in promotion as wrapped numbers (Note [Promotion categories]).
Tensor where(const Tensor& condition, const Scalar& self, const Tensor& other) {
  if (batching::any_batched(condition, other)) [[unlikely]]
    return batching::where_batched(condition, scalar_as_tensor(self, result_type(self, other)), other);
  EMBER_RECORD_OP("where", condition, other);
  return where_grad(condition, scalar_as_tensor(self, result_type(self, other)), other);
}
Tensor where(const Tensor& condition, const Tensor& self, const Scalar& other) {
  if (batching::any_batched(condition, self)) [[unlikely]]
    return batching::where_batched(condition, self, scalar_as_tensor(other, result_type(self, other)));
  EMBER_RECORD_OP("where", condition, self);
  return where_grad(condition, self, scalar_as_tensor(other, result_type(self, other)));
}
Tensor where(const Tensor& condition, const Scalar& self, const Scalar& other) {
  if (batching::any_batched(condition)) [[unlikely]]
    return batching::where_batched(condition, scalar_as_tensor(self, result_type(self, other)),
                                   scalar_as_tensor(other, result_type(self, other)));
  EMBER_RECORD_OP("where", condition);
  const ScalarType dt = result_type(self, other);
  return where_grad(condition, scalar_as_tensor(self, dt), scalar_as_tensor(other, dt));
}
Tensor& where_out(Tensor& out, const Tensor& condition, const Tensor& self, const Tensor& other) {
  if (batching::any_batched(out, condition, self, other)) [[unlikely]]
    batching::refuse_out("where");
  EMBER_RECORD_OP("where", condition, self, other);
  EMBER_CHECK(out.defined(), "where_out: expected a defined output tensor");
  EMBER_CHECK(!autograd::needs_grad(self, other),
              "where_out: functions with out=... arguments don't support automatic differentiation, but one of the "
              "arguments requires grad");
  where_impl(condition, self, other, &out);
  return out;
}

Tensor nonzero(const Tensor& self) {
  if (batching::any_batched(self)) [[unlikely]]
    batching::refuse_dynamic_shape("nonzero");
  EMBER_RECORD_OP("nonzero", self);
  return kernels::nonzero_kernel(contiguous(ops::cast(self, kBool)));
}

std::vector<Tensor> nonzero_numpy(const Tensor& self) {
  if (batching::any_batched(self)) [[unlikely]]
    batching::refuse_dynamic_shape("nonzero");
  EMBER_RECORD_OP("nonzero_numpy", self);
  Tensor nz = nonzero(self.dim() == 0 ? unsqueeze(self, 0) : self);
  std::vector<Tensor> out;
  for (int64_t d = 0; d < nz.size(1); ++d) out.push_back(contiguous(select(nz, 1, d)));
  return out;
}

std::vector<Tensor> where(const Tensor& condition) {
  if (batching::any_batched(condition)) [[unlikely]]
    batching::refuse_dynamic_shape("where");
  EMBER_RECORD_OP("where", condition);
  return nonzero_numpy(condition);
}

Tensor argwhere(const Tensor& self) {
  if (batching::any_batched(self)) [[unlikely]]
    batching::refuse_dynamic_shape("argwhere");
  EMBER_RECORD_OP("argwhere", self);
  return nonzero(self);
}

Tensor masked_scatter(const Tensor& self, const Tensor& mask, const Tensor& source) {
  EMBER_CHECK(self.defined() && mask.defined() && source.defined(), "masked_scatter: expected defined tensors");
  EMBER_RECORD_COMPOSITE_OP("masked_scatter", self, mask, source);
  EMBER_CHECK(mask.scalar_type() == kBool, "masked_scatter: only supports boolean masks, but got mask with dtype ",
              mask.dtype());
  EMBER_CHECK(self.scalar_type() == source.scalar_type(),
              "masked_scatter: expected self and source to have same dtypes but got ", self.dtype(), " and ",
              source.dtype());
  const DimVector shape = broadcast_shapes(self.sizes(), mask.sizes(), "masked_scatter");
  const Tensor flat_mask = reshape(expand(mask, shape), {-1});
  const bool batched = batching::any_batched(self, mask, source);
  if (!batched) {
    const int64_t trues = flat_mask.sum().item<int64_t>();
    EMBER_CHECK(trues <= source.numel(), "masked_scatter: Number of elements of source < number of ones in mask (",
                source.numel(), " < ", trues, "; self ", shape_str(self.sizes()), ", mask ", shape_str(mask.sizes()),
                ")");
    if (source.numel() == 0) return clone(expand(self, shape));  // no trues either
  }
  // The k-th true position takes source's k-th element: a gather at the
  // running count of trues, kept where mask is true. Built of cumsum, gather
  // and where, it needs no count on the host, so it also runs under vmap.
  const Tensor position = flat_mask.cumsum(0).sub(1).clamp_min(0);
  const Tensor taken = reshape(source, {-1}).gather(0, position).view(shape);
  return where(expand(mask, shape), taken, self);
}
Tensor& masked_scatter_(Tensor& self, const Tensor& mask, const Tensor& source) {
  EMBER_CHECK(self.defined() && mask.defined() && source.defined(), "masked_scatter_: expected defined tensors");
  EMBER_RECORD_COMPOSITE_OP("masked_scatter_", self, mask, source);
  const DimVector shape = broadcast_shapes(self.sizes(), mask.sizes(), "masked_scatter_");
  EMBER_CHECK(IntArrayRef(shape) == self.sizes(), "masked_scatter_: mask of shape ", shape_str(mask.sizes()),
              " does not broadcast to self's shape ", shape_str(self.sizes()));
  return self.copy_(masked_scatter(self, mask, source));
}

// ---- Tensor methods ----------------------------------------------------------
Tensor Tensor::masked_scatter(const Tensor& mask, const Tensor& source) const {
  return ember::masked_scatter(*this, mask, source);
}
Tensor& Tensor::masked_scatter_(const Tensor& mask, const Tensor& source) const {
  return ember::masked_scatter_(self_ref(), mask, source);
}
Tensor Tensor::masked_select(const Tensor& mask) const { return ember::masked_select(*this, mask); }
Tensor Tensor::masked_fill(const Tensor& mask, const Scalar& v) const { return ember::masked_fill(*this, mask, v); }
Tensor Tensor::masked_fill(const Tensor& mask, const Tensor& v) const { return ember::masked_fill(*this, mask, v); }
Tensor& Tensor::masked_fill_(const Tensor& mask, const Scalar& v) const {
  return ember::masked_fill_(self_ref(), mask, v);
}
Tensor& Tensor::masked_fill_(const Tensor& mask, const Tensor& v) const {
  return ember::masked_fill_(self_ref(), mask, v);
}
Tensor Tensor::where(const Tensor& condition, const Tensor& other) const {
  return ember::where(condition, *this, other);
}
Tensor Tensor::nonzero() const { return ember::nonzero(*this); }

}  // namespace torch
