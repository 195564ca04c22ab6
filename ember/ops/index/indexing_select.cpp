// Whole-slice index ops along one dim: index_select/add/copy/fill, and take.
// Each validates its own index rules, then lowers to advanced indexing on
// that dim (Note [Basic vs advanced indexing]).
#include "ember/core/record_scope.h"
#include "ember/core/shape.h"
#include "ember/kernels/cpu/tensor_iterator.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/index/indexing.h"
#include "ember/ops/shape/copy.h"
#include "ember/ops/shape/mem_overlap.h"

#include "ember/autograd/derivatives/index_grad.h"
#include "ember/autograd/formula_node.h"
#include "ember/ops/shape/view.h"
#include "ember/vmap/batching_rules.h"
#include "ember/vmap/rules_indexing.h"

namespace torch {

namespace {

Tensor as_1d(const Tensor& t) { return t.dim() == 0 ? unsqueeze(t, 0) : t; }

// Index list that indexes dim `d` with `idx` and keeps the dims before it.
std::vector<std::optional<Tensor>> at_dim(int64_t d, const Tensor& idx) {
  std::vector<std::optional<Tensor>> out(d);
  out.emplace_back(idx);
  return out;
}

// Checks every index against [lo, size); `allow_negative` sets lo = -size.
void check_range(const Tensor& index, int64_t size, bool allow_negative, const std::function<void(int64_t)>& fail) {
  if (index.numel() == 0) return;
  Tensor idx = ops::cast(index, kLong);
  kernels::TensorIterator iter({idx}, {});
  const int64_t lo = allow_negative ? -size : 0;
  iter.serial_for_each(
      [&](char** data, const int64_t* s, int64_t n) {
        for (int64_t i = 0; i < n; ++i) {
          int64_t v = *reinterpret_cast<const int64_t*>(data[0] + i * s[0]);
          if (v < lo || v >= size) fail(v);
        }
      },
      0, iter.numel());
}

// Shape and dtype rules shared by index_add_ and index_copy_; returns the wrapped dim.
int64_t check_index_source(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source, const char* op) {
  const int64_t d = wrap_dim(dim, std::max<int64_t>(self.dim(), 1), op);
  EMBER_CHECK(index.dim() <= 1, op, ": Index should have dimension 1 or 0 (got ", index.dim(), ")");
  const Tensor src1 = as_1d(source), self1 = as_1d(self);
  EMBER_CHECK(src1.dim() == self1.dim(), op, ": source (", shape_str(source.sizes()), ") and self (",
              shape_str(self.sizes()), ") must have the same number of dimensions");
  EMBER_CHECK(index.numel() == src1.size(d), op, ": Number of indices (", index.numel(),
              ") should be equal to source.size(dim) (", src1.size(d), ")");
  EMBER_CHECK(self.dtype() == source.dtype(), op, ": self (", self.dtype(), ") and source (", source.dtype(),
              ") must have the same scalar type");
  for (int64_t k = 0; k < self1.dim(); ++k)
    EMBER_CHECK(k == d || self1.size(k) == src1.size(k), op,
                ": Source/destination tensor must have same slice shapes. Destination slice shape: ", self1.size(k),
                " at dimension ", k, " and source slice shape: ", src1.size(k), " at dimension ", k, ".");
  const int64_t size = self1.size(d);
  check_range(index, size, false, [&](int64_t v) {
    EMBER_CHECK(false, op, ": index ", v, " is out of bounds for dimension ", d, " with size ", size);
  });
  return d;
}

}  // namespace

Tensor index_select(const Tensor& self, int64_t dim, const Tensor& index) {
  if (batching::any_batched(self, index)) [[unlikely]]
    return batching::index_select_batched(self, dim, index);
  EMBER_RECORD_OP("index_select", self, index);
  const int64_t d = wrap_dim(dim, std::max<int64_t>(self.dim(), 1), "index_select");
  EMBER_CHECK(index.dim() <= 1, "index_select(): Index is supposed to be a vector, got shape ",
              shape_str(index.sizes()));
  EMBER_CHECK(index.dtype() == kLong || index.dtype() == kInt,
              "index_select(): Expected dtype int32 or int64 for index, but got ", index.dtype());
  const Tensor self1 = as_1d(self);
  const int64_t size = self1.size(d);
  check_range(index, size, false, [&](int64_t v) {
    EMBER_CHECK(false, "index_select(): index out of range in self (index ", v, " for dimension ", d, " with size ",
                size, ")");
  });
  Tensor out;
  {
    autograd::BelowAutogradGuard no_grad;
    out = ember::index(self1, at_dim(d, as_1d(ops::cast(index, kLong))));
    if (self.dim() == 0) out = reshape(out, {});
  }
  if (autograd::needs_grad(self)) autograd::record_index_select(self, d, ops::cast(index, kLong), out);
  return out;
}

Tensor& index_copy_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& source) {
  if (batching::any_batched(self, index, source)) [[unlikely]]
    return batching::index_copy_batched_(self, dim, index, source);
  EMBER_RECORD_OP("index_copy_", self, index, source);
  EMBER_CHECK(index.dtype() == kLong, "index_copy_(): Expected a long tensor for index, but got ", index.dtype());
  const int64_t d = check_index_source(self, dim, index, source, "index_copy_()");
  ops::assert_no_index_overlap("index_copy_()", self, index, source);  // ops/shape/mem_overlap.h
  const bool grad = autograd::needs_grad(self, source);
  if (grad) autograd::check_inplace(self, "index_copy_");
  Tensor self1 = as_1d(self);
  {
    autograd::BelowAutogradGuard no_grad;  // the kernel's own work; one node is recorded below
    ops::index_put_impl(self1, at_dim(d, as_1d(index)), as_1d(source), false, 1, "index_copy_()");
  }
  self.bump_version();
  if (grad) autograd::record_index_copy(self, d, index, source);
  return self;
}
Tensor index_copy(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source) {
  if (batching::any_batched(self, index, source)) [[unlikely]] {
    Tensor out = batching::batched_clone(self, {&index, &source});
    return index_copy_(out, dim, index, source);
  }
  EMBER_RECORD_OP("index_copy", self, index, source);
  Tensor out = clone(self);
  return index_copy_(out, dim, index, source);
}

Tensor& index_add_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& source, const Scalar& alpha) {
  if (batching::any_batched(self, index, source)) [[unlikely]]
    return batching::index_add_batched_(self, dim, index, source, alpha);
  EMBER_RECORD_OP("index_add_", self, index, source);
  EMBER_CHECK(index.dtype() == kLong || index.dtype() == kInt,
              "index_add_(): Expected dtype int32/int64 for index, but got ", index.dtype());
  const int64_t d = check_index_source(self, dim, index, source, "index_add_()");
  ops::assert_no_index_overlap("index_add_()", self, index, source);  // ops/shape/mem_overlap.h
  EMBER_CHECK(!alpha.isComplex() || self.is_complex(), "index_add_(): complex alpha for a ", self.dtype(), " tensor");
  const bool grad = autograd::needs_grad(self, source);
  if (grad) autograd::check_inplace(self, "index_add_");
  Tensor self1 = as_1d(self);
  {
    autograd::BelowAutogradGuard no_grad;
    ops::index_put_impl(self1, at_dim(d, as_1d(ops::cast(index, kLong))), as_1d(source), true, alpha, "index_add_()");
  }
  self.bump_version();
  if (grad) autograd::record_index_add(self, d, ops::cast(index, kLong), source, alpha);
  return self;
}
Tensor index_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& source, const Scalar& alpha) {
  if (batching::any_batched(self, index, source)) [[unlikely]] {
    Tensor out = batching::batched_clone(self, {&index, &source});
    return index_add_(out, dim, index, source, alpha);
  };
  EMBER_RECORD_OP("index_add", self, index, source);
  Tensor out = clone(self);
  return index_add_(out, dim, index, source, alpha);
}

namespace {
Tensor& index_fill_impl(Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  EMBER_RECORD_OP("index_fill_", self, index);
  const int64_t d = wrap_dim(dim, std::max<int64_t>(self.dim(), 1), "index_fill_");
  EMBER_CHECK(index.dtype() == kLong, "index_fill_(): Expected dtype int64 for index, but got ", index.dtype());
  EMBER_CHECK(index.dim() <= 1, "index_fill_(): Index has to be a vector/scalar, got shape ", shape_str(index.sizes()));
  ops::assert_no_overlap("index_fill_()", self, index);  // ops/shape/mem_overlap.h
  EMBER_CHECK(!value.isComplex() || self.is_complex(), "index_fill_(): cannot fill a ", self.dtype(),
              " tensor with a complex value");
  check_fits(value, self.dtype(), "index_fill_()");
  Tensor self1 = as_1d(self);
  const int64_t size = self1.size(d);
  check_range(index, size, true, [&](int64_t v) {
    EMBER_CHECK(false, "index_fill_(): index ", v, " is out of bounds for dimension ", d, " with size ", size);
  });
  {
    autograd::BelowAutogradGuard no_grad;
    ops::index_put_impl(self1, at_dim(d, as_1d(index)), full({}, value, self.options()), false, 1, "index_fill_()");
  }
  self.bump_version();
  return self;
}
}  // namespace

Tensor& index_fill_(Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  if (batching::any_batched(self, index)) [[unlikely]]
    return batching::index_fill_batched_(self, dim, index, Tensor(), value);
  const bool grad = autograd::needs_grad(self);
  if (grad) autograd::check_inplace(self, "index_fill_");
  index_fill_impl(self, dim, index, value);
  if (grad) autograd::record_index_fill(self, wrap_dim(dim, std::max<int64_t>(self.dim(), 1)), index, Tensor());
  return self;
}
Tensor& index_fill_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& value) {
  if (batching::any_batched(self, index, value)) [[unlikely]]
    return batching::index_fill_batched_(self, dim, index, value, Scalar());
  EMBER_CHECK(value.dim() == 0, "index_fill_(): only supports a 0-dimensional value tensor, but got tensor with ",
              value.dim(), " dimension(s).");
  const bool grad = autograd::needs_grad(self, value);
  if (grad) autograd::check_inplace(self, "index_fill_");
  index_fill_impl(self, dim, index, value.item());
  if (grad) autograd::record_index_fill(self, wrap_dim(dim, std::max<int64_t>(self.dim(), 1)), index, value);
  return self;
}
Tensor index_fill(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  if (batching::any_batched(self, index)) [[unlikely]] {
    Tensor out = batching::batched_clone(self, {&index});
    return index_fill_(out, dim, index, value);
  }
  EMBER_RECORD_OP("index_fill", self, index);
  Tensor out = clone(self);
  return index_fill_(out, dim, index, value);
}
Tensor index_fill(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& value) {
  if (batching::any_batched(self, index, value)) [[unlikely]] {
    Tensor out = batching::batched_clone(self, {&index, &value});
    return index_fill_(out, dim, index, value);
  }
  EMBER_RECORD_OP("index_fill", self, index, value);
  Tensor out = clone(self);
  return index_fill_(out, dim, index, value);
}

Tensor take(const Tensor& self, const Tensor& index) {
  if (batching::any_batched(self, index)) [[unlikely]]
    return batching::take_batched(self, index);
  EMBER_RECORD_OP("take", self, index);
  EMBER_CHECK(index.dtype() == kLong, "take(): Expected a long tensor for index, but got ", index.dtype());
  const int64_t n = self.numel();
  check_range(index, n, true, [&](int64_t v) {
    EMBER_CHECK(false, "take(): out of range: tried to access index ", v, " on a tensor of ", n, " elements.");
  });
  Tensor out;
  {
    autograd::BelowAutogradGuard no_grad;
    out =
        index.numel() == 0 ? empty(index.sizes(), self.options()) : ember::index(reshape(self, {-1}), at_dim(0, index));
  }
  if (autograd::needs_grad(self)) autograd::record_take(self, index, out);
  return out;
}

namespace {
void check_put(const char* op, const Tensor& self, const Tensor& index, const Tensor& source) {
  EMBER_CHECK(self.defined() && index.defined() && source.defined(), op, ": expected defined tensors");
  EMBER_CHECK(index.scalar_type() == kLong, op, ": Expected a long tensor for index, but got ", index.dtype());
  EMBER_CHECK(self.scalar_type() == source.scalar_type(), op,
              ": self and source expected to have the same dtype, but got self.dtype = ", self.dtype(),
              " and source.dtype = ", source.dtype());
  EMBER_CHECK(index.numel() == source.numel(), op,
              ": Expected source and index to have the same number of elements, but got source.numel() = ",
              source.numel(), ", index.numel() = ", index.numel());
  if (batching::any_batched(self, index, source)) return;  // index_put checks each sample's positions
  const int64_t n = self.numel();
  check_range(index, n, true, [&](int64_t v) {
    EMBER_CHECK(false, op, ": out of range: tried to access index ", v, " on a tensor of ", n, " elements.");
  });
}
// put as index_put on self's elements in row-major order: the gradients are index_put's.
Tensor put_values(const Tensor& self, const Tensor& index, const Tensor& source, bool accumulate) {
  const std::optional<Tensor> flat_index = reshape(index, {-1});
  return reshape(self, {-1}).index_put({&flat_index, 1}, reshape(source, {-1}), accumulate).view(self.sizes());
}
}  // namespace

Tensor put(const Tensor& self, const Tensor& index, const Tensor& source, bool accumulate) {
  check_put("put", self, index, source);
  EMBER_RECORD_COMPOSITE_OP("put", self, index, source);
  return put_values(self, index, source, accumulate);
}
Tensor& put_(Tensor& self, const Tensor& index, const Tensor& source, bool accumulate) {
  check_put("put_", self, index, source);
  EMBER_RECORD_COMPOSITE_OP("put_", self, index, source);
  return self.copy_(put_values(self, index, source, accumulate));
}

Tensor& fill_diagonal_(Tensor& self, const Scalar& fill_value, bool wrap) {
  EMBER_CHECK(self.defined(), "fill_diagonal_: expected a defined tensor");
  EMBER_RECORD_COMPOSITE_OP("fill_diagonal_", self);
  EMBER_CHECK(self.dim() >= 2, "fill_diagonal_: dimensions must larger than 1 (got shape ", shape_str(self.sizes()),
              ")");
  if (self.dim() > 2)
    for (int64_t s : self.sizes())
      EMBER_CHECK(s == self.size(0), "fill_diagonal_: all dimensions of input must be of equal length (got shape ",
                  shape_str(self.sizes()), ")");
  // Diagonals of views, filled in place: the writes reach self through the
  // views, with autograd's and vmap's view handling.
  auto fill = [&](Tensor v) {
    while (v.dim() > 1) v = diagonal(v, 0, 0, 1);
    v.fill_(fill_value);
  };
  fill(self);
  const int64_t rows = self.size(0), cols = self.size(1);
  if (wrap && self.dim() == 2)
    for (int64_t start = cols + 1; start < rows; start += cols + 1) fill(narrow(self, 0, start, rows - start));
  return self;
}

// ---- Tensor methods ----------------------------------------------------------
Tensor Tensor::put(const Tensor& index, const Tensor& source, bool accumulate) const {
  return ember::put(*this, index, source, accumulate);
}
Tensor& Tensor::put_(const Tensor& index, const Tensor& source, bool accumulate) const {
  return ember::put_(self_ref(), index, source, accumulate);
}
Tensor& Tensor::fill_diagonal_(const Scalar& fill_value, bool wrap) const {
  return ember::fill_diagonal_(self_ref(), fill_value, wrap);
}
Tensor Tensor::index_select(int64_t dim, const Tensor& index) const { return ember::index_select(*this, dim, index); }
Tensor Tensor::index_add(int64_t dim, const Tensor& index, const Tensor& src, const Scalar& alpha) const {
  return ember::index_add(*this, dim, index, src, alpha);
}
Tensor& Tensor::index_add_(int64_t dim, const Tensor& index, const Tensor& src, const Scalar& alpha) const {
  return ember::index_add_(self_ref(), dim, index, src, alpha);
}
Tensor Tensor::index_copy(int64_t dim, const Tensor& index, const Tensor& src) const {
  return ember::index_copy(*this, dim, index, src);
}
Tensor& Tensor::index_copy_(int64_t dim, const Tensor& index, const Tensor& src) const {
  return ember::index_copy_(self_ref(), dim, index, src);
}
Tensor Tensor::index_fill(int64_t dim, const Tensor& index, const Scalar& value) const {
  return ember::index_fill(*this, dim, index, value);
}
Tensor& Tensor::index_fill_(int64_t dim, const Tensor& index, const Scalar& value) const {
  return ember::index_fill_(self_ref(), dim, index, value);
}
Tensor Tensor::take(const Tensor& index) const { return ember::take(*this, index); }

}  // namespace torch
