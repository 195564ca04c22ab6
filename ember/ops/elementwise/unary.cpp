#include "ember/ops/elementwise/unary.h"
#include "ember/core/record_scope.h"
#include "ember/ops/shape/mem_overlap.h"

#include "ember/autograd/derivatives/elementwise_grad.h"
#include "ember/autograd/derivatives/unary_grad.h"
#include "ember/autograd/formula_node.h"

#include <utility>

#include "ember/kernels/cpu/unary_kernels.h"
#include "ember/ops/elementwise/elementwise.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/shape/copy.h"
#include "ember/vmap/batching_rules.h"

namespace torch {

using kernels::TensorIterator;
using kernels::UnaryComplex;
using kernels::UnaryKind;
using kernels::UnaryOpId;

namespace ops {

Tensor unary_apply(const char* op, const Tensor& self, ScalarType compute, ScalarType result, Tensor* out, bool inplace,
                   const std::function<void(const TensorIterator&)>& kernel) {
  if (out != nullptr) {
    EMBER_CHECK(out->defined(), op, ": out is an undefined tensor");
    assert_no_output_overlap(op, *out, ArrayRef<Tensor>(&self, 1));
  }
  if (out == nullptr && self.scalar_type() == compute && self.is_contiguous()) {  // Note [Small-op fast path]
    Tensor r = empty_cpu(self.sizes(), result);
    if (r.numel() > 0) kernel(TensorIterator::contiguous(r, self));
    return r;
  }
  Tensor r = make_out(out, self.sizes(), result, op, inplace);  // dtype/shape errors before any work
  Tensor x = cast(self, compute);
  if (needs_input_copy(r, x)) x = x.clone();  // ops/shape/mem_overlap.h
  if (r.numel() > 0) {
    TensorIterator iter({r}, {x});
    kernel(iter);
  }
  finish_out(out, r);
  return out != nullptr ? *out : r;
}

}  // namespace ops

namespace {

// Note [The unary table]
// tables/unary.def is the single list of the argument-free unary ops. Expanded
// here it gives each op its dtype rule and kernel (kRows), the three public
// forms (op, op_, op_out) and the Tensor methods; expanded in
// kernels/cpu/unary_kernels.cpp it gives the kernels; in vec_math_avx512.cpp
// the SLEEF kernels. Dtype policy lives only here: kernels receive operands
// already of their final dtypes.
struct UnaryRow {
  const char* name;
  const char* inplace_name;
  UnaryKind kind;
  UnaryComplex complex;
  kernels::UnaryKernel kernel;
};

constexpr UnaryRow kRows[] = {
#define EMBER_UNARY_OP(name, kind, cplx, vec, ...) \
  {#name, #name "_", UnaryKind::kind, UnaryComplex::cplx, &kernels::name##_kernel},
#include "ember/tables/unary.def"
#undef EMBER_UNARY_OP
};
static_assert(sizeof(kRows) / sizeof(kRows[0]) == kernels::kNumUnaryOps, "one kRows entry per unary.def row");

// The dtype a row's kernel computes in for input dtype t; raises for inputs
// the op does not take (same cases as PyTorch).
ScalarType compute_dtype(const char* op, UnaryOpId id, UnaryKind kind, UnaryComplex cplx, ScalarType t) {
  EMBER_CHECK(!(id == UnaryOpId::neg && t == kBool), op,
              ": Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a "
              "mask, use the `~` or `logical_not()` operator instead.");
  EMBER_CHECK(!(id == UnaryOpId::sign && is_complex(t)), op,
              ": Unlike NumPy, torch.sign is not intended to support complex numbers. Please use torch.sgn instead.");
  if (is_complex(t)) {
    EMBER_CHECK(cplx != UnaryComplex::NoCplx, op, ": not implemented for complex inputs (got ", dtype_name(t), ")");
    return t;
  }
  switch (kind) {
    case UnaryKind::Float:
      return is_integral(t, /*include_bool=*/true) ? get_default_dtype() : t;
    case UnaryKind::FloatOnly:
      EMBER_CHECK(is_floating_point(t), op, ": expected a floating point input, got ", dtype_name(t));
      return t;
    case UnaryKind::Int:
      EMBER_CHECK(t != kBool, op, ": not implemented for bool inputs");
      return t;
    case UnaryKind::IntToLong:
      return t == kBool ? kLong : t;
    case UnaryKind::Bitwise:
      EMBER_CHECK(is_integral(t, /*include_bool=*/true), op, ": expected an integer or bool input, got ",
                  dtype_name(t));
      return t;
    case UnaryKind::IntBool:
    case UnaryKind::Logical:
      return t;
  }
  return t;
}

Tensor run_row(UnaryOpId id, const Tensor& self, Tensor* out, bool inplace);

// Batching rule (Note [vmap hooks]): elementwise, so the batch stays put.
[[gnu::noinline, gnu::cold]] Tensor run_row_batched(UnaryOpId id, const Tensor& self, Tensor* out, bool inplace) {
  if (inplace) {
    EMBER_CHECK(batching::is_batched(self), kRows[static_cast<int>(id)].inplace_name,
                ": vmap: in-place op on a tensor that is not batched");
    Tensor s = self;
    batching::elementwise_(s, [&](Tensor& v) { run_row(id, v, &v, true); });
    return self;
  }
  if (out != nullptr) batching::refuse_out(kRows[static_cast<int>(id)].name);
  return batching::elementwise(self, [&](const Tensor& v) { return run_row(id, v, nullptr, false); });
}

Tensor run_row(UnaryOpId id, const Tensor& self, Tensor* out, bool inplace) {
  if (batching::any_batched(self, out)) [[unlikely]]
    return run_row_batched(id, self, out, inplace);
  const UnaryRow& row = kRows[static_cast<int>(id)];
  const char* op = inplace ? row.inplace_name : row.name;
  EMBER_RECORD_OP(op, self);
  EMBER_CHECK(self.defined(), op, ": expected a defined tensor");
  const ScalarType compute = compute_dtype(op, id, row.kind, row.complex, self.dtype());
  ScalarType result = compute;
  if (row.kind == UnaryKind::Logical) result = kBool;
  if (row.complex == UnaryComplex::CplxToReal && is_complex(compute)) result = to_real_type(compute);
  EMBER_CHECK(!(inplace && is_complex(self.dtype()) && !is_complex(result)), op, ": in-place ", row.name,
              " is not supported for complex tensors (its result is real)");
  // Autograd (formulas in the gradient column of tables/unary.def).
  const int gid = static_cast<int>(id);
  const bool grad = autograd::needs_grad(self);
  EMBER_CHECK(!(grad && !inplace && out != nullptr), op,
              "_out: functions with out=... arguments don't support automatic differentiation, but one of the "
              "arguments requires grad");
  Tensor self_value;
  if (grad && inplace) {
    autograd::check_inplace(self, op);
    if (autograd::unary_grad_uses_self(gid)) self_value = self.clone();  // differentiable: see binary.cpp
  }
  Tensor r = ops::unary_apply(op, self, compute, result, out, inplace, row.kernel);
  if (grad) autograd::record_unary(gid, self, inplace ? self_value : self, r);
  return r;
}
}  // namespace

#define EMBER_UNARY_OP(name, ...)                                                            \
  Tensor name(const Tensor& self) { return run_row(UnaryOpId::name, self, nullptr, false); } \
  Tensor& name##_(Tensor& self) {                                                            \
    run_row(UnaryOpId::name, self, &self, true);                                             \
    return self;                                                                             \
  }                                                                                          \
  Tensor& name##_out(Tensor& out, const Tensor& self) {                                      \
    run_row(UnaryOpId::name, self, &out, false);                                             \
    return out;                                                                              \
  }                                                                                          \
  Tensor Tensor::name() const { return ember::name(*this); }                                 \
  Tensor& Tensor::name##_() const { return ember::name##_(self_ref()); }
#include "ember/tables/unary.def"
#undef EMBER_UNARY_OP

// ---- round ---------------------------------------------------------------------
namespace {
Tensor round_impl(const char* op, const Tensor& self, int64_t decimals, Tensor* out, bool inplace) {
  EMBER_RECORD_OP(op, self);
  EMBER_CHECK(self.defined(), op, ": expected a defined tensor");
  const ScalarType t = compute_dtype(op, UnaryOpId::floor, UnaryKind::Int, UnaryComplex::NoCplx, self.dtype());
  if (is_integral(t)) {
    // Integers round to themselves (a copy, as floor/ceil/trunc do).
    EMBER_CHECK(decimals == 0, op, ": decimals argument is only supported for floating point inputs, got ",
                dtype_name(t));
    return ops::unary_apply(op, self, t, t, out, inplace, kernels::trunc_kernel);
  }
  return ops::unary_apply(op, self, t, t, out, inplace,
                          [&](const TensorIterator& it) { kernels::round_decimals_kernel(it, decimals); });
}
}  // namespace

Tensor round(const Tensor& self, int64_t decimals) {
  EMBER_VMAP_ELEMENTWISE(self, v, round(v, decimals));
  Tensor out = round_impl("round", self, decimals, nullptr, false);
  if (autograd::needs_grad(self)) autograd::record_round(self, out, decimals != 0);
  return out;
}
Tensor& round_(Tensor& self, int64_t decimals) {
  round_impl("round_", self, decimals, &self, true);
  return self;
}
Tensor& round_out(Tensor& out, const Tensor& self, int64_t decimals) {
  round_impl("round", self, decimals, &out, false);
  return out;
}
Tensor Tensor::round(int64_t decimals) const { return ember::round(*this, decimals); }
Tensor& Tensor::round_(int64_t decimals) const { return ember::round_(self_ref(), decimals); }

}  // namespace torch
