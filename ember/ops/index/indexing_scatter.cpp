// gather / scatter / scatter_add / scatter_reduce along one dim
// (Note [Scatter/gather iteration] in kernels/cpu/index_kernels.h).
#include <limits>

#include "ember/core/dispatch.h"
#include "ember/core/record_scope.h"
#include "ember/core/shape.h"
#include "ember/kernels/cpu/convert.h"
#include "ember/kernels/cpu/index_kernels.h"
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

using kernels::ScatterOp;

namespace {

// gather/scatter treat a 0-dim tensor as a one-element vector.
Tensor as_1d(const Tensor& t) { return t.dim() == 0 ? unsqueeze(t, 0) : t; }
int64_t ensure_dim(const Tensor& t) { return std::max<int64_t>(t.dim(), 1); }
int64_t size_1d(const Tensor& t, int64_t d) { return t.dim() == 0 ? 1 : t.size(d); }

// Raises on the first index outside [0, size) (negative indices are not wrapped, as in PyTorch).
void check_bounds(const Tensor& index, int64_t size, int64_t dim, const char* op) {
  if (index.numel() == 0) return;
  kernels::TensorIterator iter({index}, {});
  iter.serial_for_each(
      [&](char** data, const int64_t* s, int64_t n) {
        for (int64_t i = 0; i < n; ++i) {
          int64_t v = *reinterpret_cast<const int64_t*>(data[0] + i * s[0]);
          EMBER_CHECK(v >= 0 && v < size, op, ": index ", v, " is out of bounds for dimension ", dim, " with size ",
                      size);
        }
      },
      0, iter.numel());
}

// Shape rules shared by the scatter family; returns the wrapped dim.
int64_t check_scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src, const char* op) {
  const int64_t d = wrap_dim(dim, ensure_dim(self), op);
  EMBER_CHECK(index.dtype() == kLong, op, ": Expected dtype int64 for index, but got ", index.dtype());
  EMBER_CHECK(src.dtype() == self.dtype(), op, ": Expected self.dtype to be equal to src.dtype, but got ", self.dtype(),
              " and ", src.dtype());
  if (index.numel() == 0) return d;
  EMBER_CHECK(ensure_dim(index) == ensure_dim(self), op,
              ": Index tensor must have the same number of dimensions as self tensor (", ensure_dim(index), " vs ",
              ensure_dim(self), ")");
  EMBER_CHECK(ensure_dim(index) == ensure_dim(src), op,
              ": Index tensor must have the same number of dimensions as src tensor (", ensure_dim(index), " vs ",
              ensure_dim(src), ")");
  for (int64_t k = 0; k < ensure_dim(index); ++k) {
    const bool ok = (k == d || size_1d(index, k) <= size_1d(self, k)) && size_1d(index, k) <= size_1d(src, k);
    EMBER_CHECK(ok, op, ": Expected index ", shape_str(index.sizes()), " to be smaller than self ",
                shape_str(self.sizes()), " apart from dimension ", d, " and to be smaller size than src ",
                shape_str(src.sizes()));
  }
  check_bounds(index, size_1d(self, d), d, op);
  return d;
}

Tensor& scatter_impl(Tensor& self, int64_t dim, const Tensor& index, const Tensor& src, ScatterOp op,
                     const char* name) {
  const int64_t d = check_scatter(self, dim, index, src, name);
  // Positions run in parallel on the premise that each writes its own column
  // of self (Note [Scatter/gather iteration]): a self with a broadcast dim breaks it.
  ops::assert_no_index_overlap(name, self, index, src);
  if (index.numel() == 0) return self;
  Tensor s = src.impl()->storage() == self.impl()->storage() ? clone(src) : src;
  kernels::scatter_kernel(as_1d(self), as_1d(index), as_1d(s), d, op);
  self.bump_version();
  return self;
}

Tensor value_source(const Tensor& self, const Tensor& index, const Scalar& value, const char* op) {
  EMBER_CHECK(!value.isComplex() || self.is_complex(), op, ": cannot scatter a complex value into a ", self.dtype(),
              " tensor");
  return expand(full({}, value, self.options()), index.sizes());
}

ScatterOp parse_scatter_reduce(std::string_view reduce) {
  if (reduce == "add") return ScatterOp::Sum;
  EMBER_CHECK(reduce == "multiply", "scatter: reduce argument must be either add or multiply, got ", reduce);
  return ScatterOp::Prod;
}

// The value that leaves every other value unchanged under `reduce` (for include_self=false).
Tensor reduce_identity(ScalarType t, std::string_view reduce) {
  Tensor out = empty({}, TensorOptions().dtype(t));
  dispatch_all(t, "scatter_reduce", [&](auto tag) {
    using T = EMBER_TYPE(tag);
    T v{};
    if (reduce == "prod") {
      v = kernels::convert<T>(1.0);
    } else if constexpr (std::is_floating_point_v<opmath_t<T>>) {
      const double inf = std::numeric_limits<double>::infinity();
      if (reduce == "amax") v = kernels::convert<T>(-inf);
      if (reduce == "amin") v = kernels::convert<T>(inf);
    } else if constexpr (!is_complex_v<T>) {
      if (reduce == "amax") v = std::numeric_limits<T>::lowest();
      if (reduce == "amin") v = std::numeric_limits<T>::max();
    }
    *out.data_ptr<T>() = v;
  });
  return out;
}

}  // namespace

Tensor gather(const Tensor& self, int64_t dim, const Tensor& index, bool) {
  if (batching::any_batched(self, index)) [[unlikely]]
    return batching::gather_batched(self, dim, index);
  EMBER_RECORD_OP("gather", self, index);
  const int64_t d = wrap_dim(dim, ensure_dim(self), "gather");
  EMBER_CHECK(index.dtype() == kLong, "gather(): Expected dtype int64 for index, but got ", index.dtype());
  Tensor out = empty(index.sizes(), self.options());
  if (index.numel() == 0) return out;
  EMBER_CHECK(ensure_dim(index) == ensure_dim(self),
              "gather(): Index tensor must have the same number of dimensions as input tensor (", ensure_dim(index),
              " vs ", ensure_dim(self), ")");
  for (int64_t k = 0; k < ensure_dim(index); ++k)
    EMBER_CHECK(k == d || size_1d(index, k) <= size_1d(self, k), "gather(): Size does not match at dimension ", k,
                " expected index ", shape_str(index.sizes()), " to be smaller than self ", shape_str(self.sizes()),
                " apart from dimension ", d);
  check_bounds(index, size_1d(self, d), d, "gather()");
  kernels::gather_kernel(as_1d(out), as_1d(self), as_1d(index), d);
  if (autograd::needs_grad(self)) autograd::record_gather(self, d, index, out);
  return out;
}

// The in-place forms record their backward on `self` (formulas:
// autograd/derivatives/index_grad.cpp); the out-of-place forms clone first.
Tensor& scatter_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  if (batching::any_batched(self, index, src)) [[unlikely]]
    return batching::scatter_batched_(self, dim, index, src, batching::ScatterKind::Assign);
  EMBER_RECORD_OP("scatter_", self, index, src);
  const bool grad = autograd::needs_grad(self, src);
  if (grad) autograd::check_inplace(self, "scatter_");
  scatter_impl(self, dim, index, src, ScatterOp::Assign, "scatter()");
  if (grad) autograd::record_scatter(self, wrap_dim(dim, ensure_dim(self)), index, src);
  return self;
}
Tensor& scatter_(Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  if (batching::any_batched(self, index)) [[unlikely]]
    return batching::scatter_batched_(self, dim, index, full({}, value, self.options()).expand(index.sizes()),
                                      batching::ScatterKind::Assign);
  EMBER_RECORD_OP("scatter_", self, index);
  const bool grad = autograd::needs_grad(self);
  if (grad) autograd::check_inplace(self, "scatter_");
  scatter_impl(self, dim, index, value_source(self, index, value, "scatter()"), ScatterOp::Assign, "scatter()");
  if (grad) autograd::record_scatter(self, wrap_dim(dim, ensure_dim(self)), index, Tensor());
  return self;
}
// With grad, the reduce forms are the same writes as scatter_add_ ("add") and
// scatter_reduce_(..., "prod", include_self=true) ("multiply") and take their
// formulas (PyTorch leaves these forms without a derivative).
Tensor& scatter_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& src, std::string_view reduce) {
  if (batching::any_batched(self, index, src)) [[unlikely]]
    return batching::scatter_reduce_batched_(self, dim, index, src, reduce, true, /*scatter_form=*/true);
  EMBER_RECORD_OP("scatter_", self, index, src);
  const ScatterOp op = parse_scatter_reduce(reduce);
  if (autograd::needs_grad(self, src))
    return op == ScatterOp::Sum ? scatter_add_(self, dim, index, src) : scatter_reduce_(self, dim, index, src, "prod");
  return scatter_impl(self, dim, index, src, op, "scatter()");
}
Tensor& scatter_(Tensor& self, int64_t dim, const Tensor& index, const Scalar& value, std::string_view reduce) {
  if (batching::any_batched(self, index)) [[unlikely]]
    return batching::scatter_reduce_batched_(self, dim, index, full({}, value, self.options()).expand(index.sizes()),
                                             reduce, true, /*scatter_form=*/true);
  EMBER_RECORD_OP("scatter_", self, index);
  const ScatterOp op = parse_scatter_reduce(reduce);
  Tensor src = value_source(self, index, value, "scatter()");
  if (autograd::needs_grad(self))
    return op == ScatterOp::Sum ? scatter_add_(self, dim, index, src) : scatter_reduce_(self, dim, index, src, "prod");
  return scatter_impl(self, dim, index, src, op, "scatter()");
}
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  if (batching::any_batched(self, index, src)) [[unlikely]] {
    Tensor out = batching::batched_clone(self, {&index, &src});
    return scatter_(out, dim, index, src);
  };
  EMBER_RECORD_OP("scatter", self, index, src);
  Tensor out = clone(self);
  return scatter_(out, dim, index, src);
}
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value) {
  if (batching::any_batched(self, index)) [[unlikely]] {
    Tensor out = batching::batched_clone(self, {&index});
    return scatter_(out, dim, index, value);
  };
  EMBER_RECORD_OP("scatter", self, index);
  Tensor out = clone(self);
  return scatter_(out, dim, index, value);
}
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src, std::string_view reduce) {
  if (batching::any_batched(self, index, src)) [[unlikely]] {
    Tensor out = batching::batched_clone(self, {&index, &src});
    return scatter_(out, dim, index, src, reduce);
  }
  EMBER_RECORD_OP("scatter", self, index, src);
  Tensor out = clone(self);
  return scatter_(out, dim, index, src, reduce);
}
Tensor scatter(const Tensor& self, int64_t dim, const Tensor& index, const Scalar& value, std::string_view reduce) {
  if (batching::any_batched(self, index)) [[unlikely]] {
    Tensor out = batching::batched_clone(self, {&index});
    return scatter_(out, dim, index, value, reduce);
  }
  EMBER_RECORD_OP("scatter", self, index);
  Tensor out = clone(self);
  return scatter_(out, dim, index, value, reduce);
}

Tensor& scatter_add_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  if (batching::any_batched(self, index, src)) [[unlikely]]
    return batching::scatter_batched_(self, dim, index, src, batching::ScatterKind::Add);
  EMBER_RECORD_OP("scatter_add_", self, index, src);
  const bool grad = autograd::needs_grad(self, src);
  if (grad) autograd::check_inplace(self, "scatter_add_");
  scatter_impl(self, dim, index, src, ScatterOp::Sum, "scatter_add()");
  if (grad) autograd::record_scatter_add(self, wrap_dim(dim, ensure_dim(self)), index, src);
  return self;
}
Tensor scatter_add(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src) {
  if (batching::any_batched(self, index, src)) [[unlikely]] {
    Tensor out = batching::batched_clone(self, {&index, &src});
    return scatter_add_(out, dim, index, src);
  };
  EMBER_RECORD_OP("scatter_add", self, index, src);
  Tensor out = clone(self);
  return scatter_add_(out, dim, index, src);
}

Tensor& scatter_reduce_(Tensor& self, int64_t dim, const Tensor& index, const Tensor& src, std::string_view reduce,
                        bool include_self) {
  if (batching::any_batched(self, index, src)) [[unlikely]]
    return batching::scatter_reduce_batched_(self, dim, index, src, reduce, include_self, /*scatter_form=*/false);
  EMBER_RECORD_OP("scatter_reduce_", self, index, src);
  const char* op = "scatter_reduce()";
  EMBER_CHECK(reduce == "sum" || reduce == "prod" || reduce == "mean" || reduce == "amax" || reduce == "amin", op,
              ": reduce argument must be either sum, prod, mean, amax or amin, got ", reduce);
  EMBER_CHECK(!(self.is_complex() && (reduce == "amax" || reduce == "amin")), op, ": reduce='", reduce,
              "' is not supported for complex dtype ", self.dtype());
  EMBER_CHECK(!(self.dtype() == kBool && reduce == "mean"), op, ": reduce='mean' is not supported for bool");
  const int64_t d = check_scatter(self, dim, index, src, op);
  ops::assert_no_index_overlap(op, self, index, src);  // as in scatter_impl
  const bool grad = autograd::needs_grad(self, src);
  if (grad) autograd::check_inplace(self, "scatter_reduce_");
  if (index.numel() == 0) return self;
  // prod/amax/amin formulas read self as it was (index_grad.cpp).
  const Tensor self_before = grad && reduce != "sum" && reduce != "mean" ? self.clone() : Tensor();
  Tensor s = src.impl()->storage() == self.impl()->storage() ? clone(src) : src;
  Tensor self1 = as_1d(self), index1 = as_1d(index), src1 = as_1d(s);
  if (!include_self)
    kernels::scatter_kernel(self1, index1, expand(reduce_identity(self.dtype(), reduce), index1.sizes()), d,
                            ScatterOp::Assign);
  ScatterOp kop = reduce == "prod"   ? ScatterOp::Prod
                  : reduce == "amax" ? ScatterOp::Amax
                  : reduce == "amin" ? ScatterOp::Amin
                                     : ScatterOp::Sum;
  kernels::scatter_kernel(self1, index1, src1, d, kop);
  if (reduce == "mean") {
    Tensor count = include_self ? ones(self1.sizes(), TensorOptions().dtype(kLong))
                                : zeros(self1.sizes(), TensorOptions().dtype(kLong));
    kernels::scatter_kernel(count, index1, expand(ones({}, TensorOptions().dtype(kLong)), index1.sizes()), d,
                            ScatterOp::Sum);
    kernels::divide_by_count_kernel(self1, count);
  }
  self.bump_version();
  if (grad) autograd::record_scatter_reduce(self, d, index, src, reduce, include_self, self_before);
  return self;
}
Tensor scatter_reduce(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& src, std::string_view reduce,
                      bool include_self) {
  if (batching::any_batched(self, index, src)) [[unlikely]] {
    Tensor out = batching::batched_clone(self, {&index, &src});
    return scatter_reduce_(out, dim, index, src, reduce, include_self);
  }
  EMBER_RECORD_OP("scatter_reduce", self, index, src);
  Tensor out = clone(self);
  return scatter_reduce_(out, dim, index, src, reduce, include_self);
}

// ---- Tensor methods ----------------------------------------------------------
Tensor Tensor::gather(int64_t dim, const Tensor& index, bool sg) const { return ember::gather(*this, dim, index, sg); }
Tensor Tensor::scatter(int64_t dim, const Tensor& index, const Tensor& src) const {
  return ember::scatter(*this, dim, index, src);
}
Tensor Tensor::scatter(int64_t dim, const Tensor& index, const Scalar& value) const {
  return ember::scatter(*this, dim, index, value);
}
Tensor& Tensor::scatter_(int64_t dim, const Tensor& index, const Tensor& src) const {
  return ember::scatter_(self_ref(), dim, index, src);
}
Tensor& Tensor::scatter_(int64_t dim, const Tensor& index, const Scalar& value) const {
  return ember::scatter_(self_ref(), dim, index, value);
}
Tensor Tensor::scatter_add(int64_t dim, const Tensor& index, const Tensor& src) const {
  return ember::scatter_add(*this, dim, index, src);
}
Tensor& Tensor::scatter_add_(int64_t dim, const Tensor& index, const Tensor& src) const {
  return ember::scatter_add_(self_ref(), dim, index, src);
}
Tensor Tensor::scatter_reduce(int64_t dim, const Tensor& index, const Tensor& src, std::string_view reduce,
                              bool include_self) const {
  return ember::scatter_reduce(*this, dim, index, src, reduce, include_self);
}
Tensor& Tensor::scatter_reduce_(int64_t dim, const Tensor& index, const Tensor& src, std::string_view reduce,
                                bool include_self) const {
  return ember::scatter_reduce_(self_ref(), dim, index, src, reduce, include_self);
}

}  // namespace torch
