// Three-input elementwise ops: clamp (Scalar and Tensor bounds), clip, lerp,
// addcmul and addcdiv on the loop engine, with their kernels in
// kernels/cpu/binary_kernels_ternary.cpp and their formulas in
// autograd/derivatives/elementwise_grad.cpp.
#include "ember/autograd/derivatives/elementwise_grad.h"
#include "ember/autograd/formula_node.h"
#include "ember/autograd/raw_backward.h"
#include "ember/core/dispatch.h"
#include "ember/core/record_scope.h"
#include "ember/core/shape.h"
#include "ember/kernels/cpu/binary_kernels.h"
#include "ember/ops/elementwise/binary.h"
#include "ember/ops/elementwise/elementwise.h"
#include "ember/ops/elementwise/type_promotion.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/shape/copy.h"
#include "ember/vmap/batching_rules.h"
namespace torch {

using kernels::TensorIterator;
using ops::checked_out;
using ops::unaliased;

// ---- three-input ops --------------------------------------------------------------------
namespace {

DimVector broadcast3(const char* op, const Tensor& a, const Tensor& b, const Tensor& c) {
  DimVector ab = broadcast_shapes(a.sizes(), b.sizes(), op);
  return broadcast_shapes(ab, c.sizes(), op);
}

template <typename Kernel>
Tensor ternary(const char* op, const Tensor& a, const Tensor& b, const Tensor& c, ScalarType ct, Tensor* out,
               bool inplace, const Kernel& kernel) {
  EMBER_CHECK(a.defined() && b.defined() && c.defined(), op, ": expected defined tensors");
  DimVector shape = broadcast3(op, a, b, c);
  const Tensor operands[3] = {a, b, c};
  const Tensor inputs[3] = {ops::cast(a, ct), ops::cast(b, ct), ops::cast(c, ct)};
  return ops::run_elementwise(op, operands, inputs, shape, ct, out, inplace, kernel);
}

void check_clamp_dtype(ScalarType ct, bool scalar_bounds) {
  EMBER_CHECK(!is_complex(ct), "clamp: clamp is not supported for complex types (got ", ct, ")");
  // PyTorch clamps bool tensors only between bool tensor bounds.
  EMBER_CHECK(!(scalar_bounds && ct == kBool), "clamp: not implemented for dtype bool with Scalar bounds");
}

Tensor clamp_scalar(const Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max, Tensor* out,
                    bool inplace) {
  EMBER_CHECK(self.defined(), "clamp: expected a defined tensor");
  EMBER_CHECK(min || max, "clamp: At least one of 'min' or 'max' must not be None");
  ResultTypeState st;
  st.update(self);
  if (min) st.update(*min);
  if (max) st.update(*max);
  const ScalarType ct = st.result();
  check_clamp_dtype(ct, true);
  if (min) check_fits(*min, ct, "clamp");
  if (max) check_fits(*max, ct, "clamp");
  if (!max) return ops::clamp_one_bound(true, self, *min, out, inplace);
  if (!min) return ops::clamp_one_bound(false, self, *max, out, inplace);
  return ternary("clamp", self, scalar_tensor(*min, TensorOptions(ct)), scalar_tensor(*max, TensorOptions(ct)), ct, out,
                 inplace, [](const TensorIterator& iter) { kernels::clamp_kernel(iter); });
}

Tensor clamp_tensor(const Tensor& self, const std::optional<Tensor>& min, const std::optional<Tensor>& max, Tensor* out,
                    bool inplace) {
  EMBER_CHECK(self.defined(), "clamp: expected a defined tensor");
  const bool has_min = min && min->defined(), has_max = max && max->defined();
  EMBER_CHECK(has_min || has_max, "clamp: At least one of 'min' or 'max' must not be None");
  ResultTypeState st;
  st.update(self);
  if (has_min) st.update(*min);
  if (has_max) st.update(*max);
  const ScalarType ct = st.result();
  check_clamp_dtype(ct, false);
  if (!has_max) return ops::clamp_one_bound(true, self, *min, out, inplace);
  if (!has_min) return ops::clamp_one_bound(false, self, *max, out, inplace);
  return ternary("clamp", self, *min, *max, ct, out, inplace,
                 [](const TensorIterator& iter) { kernels::clamp_kernel(iter); });
}

}  // namespace

Tensor clamp(const Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max) {
  EMBER_VMAP_ELEMENTWISE(self, v, clamp(v, min, max));
  EMBER_RECORD_OP("clamp", self);
  Tensor out;
  {
    autograd::BelowAutogradGuard no_grad;
    out = clamp_scalar(self, min, max, nullptr, false);
  }
  if (autograd::needs_grad(self)) autograd::record_clamp(self, out, min, max);
  return out;
}
namespace {
// Tensor bounds record one node (formula: autograd/derivatives/elementwise_grad.cpp).
Tensor clamp_tensor_grad(const Tensor& self, const std::optional<Tensor>& min, const std::optional<Tensor>& max) {
  Tensor out = clamp_tensor(self, min, max, nullptr, false);
  const Tensor lo = min ? *min : Tensor(), hi = max ? *max : Tensor();
  if (autograd::needs_grad(self, lo, hi) && (out.is_floating_point() || out.is_complex()))
    autograd::record_clamp_tensor(self, self, lo, hi, out);
  return out;
}
}  // namespace
Tensor clamp(const Tensor& self, const std::optional<Tensor>& min, const std::optional<Tensor>& max) {
  if (batching::any_batched(self, min, max)) [[unlikely]] {
    ResultTypeState st;
    st.update(self);
    if (min) st.update(*min);
    if (max) st.update(*max);
    return batching::broadcasting({&self, min ? &*min : nullptr, max ? &*max : nullptr}, st.result(),
                                  [&](std::vector<Tensor>& p) {
                                    return clamp(p[0], min ? std::optional<Tensor>(p[1]) : std::nullopt,
                                                 max ? std::optional<Tensor>(p[2]) : std::nullopt);
                                  });
  }
  EMBER_RECORD_OP("clamp", self, min, max);
  return clamp_tensor_grad(self, min, max);
}
namespace {
Tensor& clamp_scalar_(const char* prof, Tensor& self, const std::optional<Scalar>& min,
                      const std::optional<Scalar>& max) {
  EMBER_VMAP_ELEMENTWISE_(self, v, clamp_scalar_(prof, v, min, max));
  EMBER_RECORD_OP(prof, self);
  const bool grad = autograd::needs_grad(self) && (self.is_floating_point() || self.is_complex());
  Tensor before;
  if (grad) {
    autograd::check_inplace(self, "clamp_");
    before = self.detach().clone();  // the formula reads self as it was before the update
  }
  clamp_scalar(self, min, max, &self, true);
  if (grad) autograd::record_clamp_scalar(autograd::ClampOp::Clamp, self, before, min, max, self);
  return self;
}
}  // namespace
Tensor& clamp_(Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max) {
  return clamp_scalar_("clamp_", self, min, max);
}
Tensor& clamp_(Tensor& self, const std::optional<Tensor>& min, const std::optional<Tensor>& max) {
  const Tensor lo = min ? *min : Tensor(), hi = max ? *max : Tensor();
  if (batching::any_batched(self, lo, hi)) [[unlikely]] {
    batching::broadcasting_("clamp_", {&self, min ? &lo : nullptr, max ? &hi : nullptr}, std::nullopt,
                            [&](std::vector<Tensor>& p) {
                              return clamp_(p[0], min ? std::optional<Tensor>(p[1]) : std::nullopt,
                                            max ? std::optional<Tensor>(p[2]) : std::nullopt);
                            });
    return self;
  }
  EMBER_RECORD_OP("clamp_", self, min, max);
  const bool grad = autograd::needs_grad(self, lo, hi) && (self.is_floating_point() || self.is_complex());
  Tensor before;
  if (grad) {
    autograd::check_inplace(self, "clamp_");
    before = self.detach().clone();  // the formula reads self as it was before the update
  }
  clamp_tensor(self, min, max, &self, true);
  if (grad) autograd::record_clamp_tensor(self, before, lo, hi, self);
  return self;
}
Tensor& clamp_out(Tensor& out, const Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max) {
  EMBER_RECORD_OP("clamp", self);
  clamp_scalar(self, min, max, &checked_out(out, "clamp"), false);
  return out;
}
Tensor& clamp_out(Tensor& out, const Tensor& self, const std::optional<Tensor>& min, const std::optional<Tensor>& max) {
  EMBER_RECORD_OP("clamp", self, min, max);
  clamp_tensor(self, min, max, &checked_out(out, "clamp"), false);
  return out;
}
Tensor clamp_min(const Tensor& self, const Scalar& min) {
  EMBER_VMAP_ELEMENTWISE(self, v, clamp_min(v, min));
  EMBER_RECORD_OP("clamp_min", self);
  Tensor out = clamp_scalar(self, min, std::nullopt, nullptr, false);
  if (autograd::needs_grad(self) && (out.is_floating_point() || out.is_complex()))
    autograd::record_clamp_scalar(autograd::ClampOp::ClampMin, self, self, min, std::nullopt, out);
  return out;
}
Tensor clamp_min(const Tensor& self, const Tensor& min) {
  if (batching::any_batched(self, min)) [[unlikely]]
    return clamp(self, min, std::nullopt);
  EMBER_RECORD_OP("clamp_min", self, min);
  return clamp_tensor_grad(self, min, std::nullopt);
}
Tensor clamp_max(const Tensor& self, const Scalar& max) {
  EMBER_VMAP_ELEMENTWISE(self, v, clamp_max(v, max));
  EMBER_RECORD_OP("clamp_max", self);
  Tensor out = clamp_scalar(self, std::nullopt, max, nullptr, false);
  if (autograd::needs_grad(self) && (out.is_floating_point() || out.is_complex()))
    autograd::record_clamp_scalar(autograd::ClampOp::ClampMax, self, self, std::nullopt, max, out);
  return out;
}
Tensor clamp_max(const Tensor& self, const Tensor& max) {
  if (batching::any_batched(self, max)) [[unlikely]]
    return clamp(self, std::nullopt, max);
  EMBER_RECORD_OP("clamp_max", self, max);
  return clamp_tensor_grad(self, std::nullopt, max);
}
Tensor clip(const Tensor& self, const std::optional<Scalar>& min, const std::optional<Scalar>& max) {
  return clamp(self, min, max);
}
Tensor clip(const Tensor& self, const std::optional<Tensor>& min, const std::optional<Tensor>& max) {
  return clamp(self, min, max);
}

Tensor Tensor::clamp(const std::optional<Scalar>& min, const std::optional<Scalar>& max) const {
  return ember::clamp(*this, min, max);
}
Tensor Tensor::clamp(const std::optional<Tensor>& min, const std::optional<Tensor>& max) const {
  return ember::clamp(*this, min, max);
}
Tensor& Tensor::clamp_(const std::optional<Scalar>& min, const std::optional<Scalar>& max) const {
  return ember::clamp_(self_ref(), min, max);
}
Tensor Tensor::clamp_min(const Scalar& min) const { return ember::clamp_min(*this, min); }
Tensor Tensor::clamp_max(const Scalar& max) const { return ember::clamp_max(*this, max); }
Tensor& Tensor::clamp_min_(const Scalar& min) const {
  return clamp_scalar_("clamp_min_", self_ref(), min, std::nullopt);
}
Tensor& Tensor::clamp_max_(const Scalar& max) const {
  return clamp_scalar_("clamp_max_", self_ref(), std::nullopt, max);
}
Tensor Tensor::clip(const std::optional<Scalar>& min, const std::optional<Scalar>& max) const {
  return ember::clamp(*this, min, max);
}

namespace {

// PyTorch's lerp does not promote: end and a tensor weight must match self.
void check_lerp(const Tensor& self, const Tensor& end) {
  EMBER_CHECK(self.defined() && end.defined(), "lerp: expected defined tensors");
  EMBER_CHECK(end.dtype() == self.dtype(), "lerp: expected dtype ", self.dtype(), " for `end` but got dtype ",
              end.dtype());
}

Tensor lerp_impl(const Tensor& self, const Tensor& end, const Tensor& weight, Tensor* out, bool inplace) {
  check_lerp(self, end);
  EMBER_CHECK(weight.defined(), "lerp: expected defined tensors");
  EMBER_CHECK(weight.dtype() == self.dtype(), "lerp: expected dtype ", self.dtype(), " for `weight` but got dtype ",
              weight.dtype());
  return ternary("lerp", self, end, weight, self.dtype(), out, inplace,
                 [](const TensorIterator& iter) { kernels::lerp_kernel(iter); });
}

Tensor lerp_impl(const Tensor& self, const Tensor& end, const Scalar& weight, Tensor* out, bool inplace) {
  check_lerp(self, end);
  EMBER_CHECK(!weight.isComplex() || self.is_complex(), "lerp: weight ", weight, " cannot be converted to type ",
              self.dtype(), " without overflow");
  DimVector shape = broadcast_shapes(self.sizes(), end.sizes(), "lerp");
  const Tensor inputs[2] = {self, end};
  return ops::run_elementwise("lerp", inputs, inputs, shape, self.dtype(), out, inplace,
                              [&](const TensorIterator& iter) { kernels::lerp_scalar_kernel(iter, weight); });
}

void check_value(const char* op, const Scalar& value, ScalarType ct) {
  EMBER_CHECK(!value.isComplex() || is_complex(ct), op, ": value ", value, " cannot be converted to type ", ct,
              " without overflow");
}

Tensor addcmul_impl(const Tensor& self, const Tensor& t1, const Tensor& t2, const Scalar& value, Tensor* out,
                    bool inplace) {
  EMBER_CHECK(self.defined() && t1.defined() && t2.defined(), "addcmul: expected defined tensors");
  const Tensor all[3] = {self, t1, t2};
  const ScalarType ct = result_type(all);
  check_value("addcmul", value, ct);
  return ternary("addcmul", self, t1, t2, ct, out, inplace,
                 [&](const TensorIterator& iter) { kernels::addcmul_kernel(iter, value); });
}

Tensor addcdiv_impl(const Tensor& self, const Tensor& t1, const Tensor& t2, const Scalar& value, Tensor* out,
                    bool inplace) {
  EMBER_CHECK(self.defined() && t1.defined() && t2.defined(), "addcdiv: expected defined tensors");
  EMBER_CHECK(!(is_integral(t1.dtype(), true) && is_integral(t2.dtype(), true)),
              "addcdiv: Integer division with addcdiv is no longer supported (tensor1 ", t1.dtype(), ", tensor2 ",
              t2.dtype(),
              "); use (input + value * torch.trunc(tensor1 / tensor2)).to(input.dtype) for integer "
              "inputs or (input + value * tensor1 / tensor2) for float inputs");
  const Tensor all[3] = {self, t1, t2};
  const ScalarType ct = result_type(all);
  check_value("addcdiv", value, ct);
  return ternary("addcdiv", self, t1, t2, ct, out, inplace,
                 [&](const TensorIterator& iter) { kernels::addcdiv_kernel(iter, value); });
}

}  // namespace

Tensor lerp(const Tensor& self, const Tensor& end, const Scalar& weight) {
  if (batching::any_batched(self, end)) [[unlikely]] {
    check_lerp(self, end);  // lerp does not promote: the physical operands keep self's dtype
    return batching::broadcasting({&self, &end}, std::nullopt,
                                  [&](std::vector<Tensor>& p) { return lerp(p[0], p[1], weight); });
  }
  EMBER_RECORD_OP("lerp", self, end);
  Tensor out = lerp_impl(self, end, weight, nullptr, false);
  if (autograd::needs_grad(self, end)) autograd::record_lerp(self, self, end, weight, Tensor(), out);
  return out;
}
Tensor lerp(const Tensor& self, const Tensor& end, const Tensor& weight) {
  if (batching::any_batched(self, end, weight)) [[unlikely]] {
    check_lerp(self, end);
    return batching::broadcasting({&self, &end, &weight}, std::nullopt,
                                  [&](std::vector<Tensor>& p) { return lerp(p[0], p[1], p[2]); });
  }
  EMBER_RECORD_OP("lerp", self, end, weight);
  Tensor out = lerp_impl(self, end, weight, nullptr, false);
  if (autograd::needs_grad(self, end, weight)) autograd::record_lerp(self, self, end, 0, weight, out);
  return out;
}
Tensor& lerp_out(Tensor& out, const Tensor& self, const Tensor& end, const Scalar& weight) {
  EMBER_RECORD_OP("lerp", self, end);
  lerp_impl(self, end, weight, &checked_out(out, "lerp"), false);
  return out;
}
Tensor& lerp_out(Tensor& out, const Tensor& self, const Tensor& end, const Tensor& weight) {
  EMBER_RECORD_OP("lerp", self, end, weight);
  lerp_impl(self, end, weight, &checked_out(out, "lerp"), false);
  return out;
}
Tensor addcmul(const Tensor& self, const Tensor& t1, const Tensor& t2, const Scalar& value) {
  if (batching::any_batched(self, t1, t2)) [[unlikely]] {
    // Broadcasting rule, cast to the type the logical operands promote to.
    const Tensor all[3] = {self, t1, t2};
    return batching::broadcasting({&self, &t1, &t2}, result_type(all),
                                  [&](std::vector<Tensor>& p) { return addcmul(p[0], p[1], p[2], value); });
  }
  EMBER_RECORD_OP("addcmul", self, t1, t2);
  Tensor out = addcmul_impl(self, t1, t2, value, nullptr, false);
  if (autograd::needs_grad(self, t1, t2) && (out.is_floating_point() || out.is_complex()))
    autograd::record_addcmul(self, t1, t2, value, out);
  return out;
}
Tensor& addcmul_out(Tensor& out, const Tensor& self, const Tensor& t1, const Tensor& t2, const Scalar& value) {
  EMBER_RECORD_OP("addcmul", self, t1, t2);
  addcmul_impl(self, t1, t2, value, &checked_out(out, "addcmul"), false);
  return out;
}
Tensor addcdiv(const Tensor& self, const Tensor& t1, const Tensor& t2, const Scalar& value) {
  if (batching::any_batched(self, t1, t2)) [[unlikely]] {
    // Broadcasting rule, cast to the type the logical operands promote to.
    const Tensor all[3] = {self, t1, t2};
    return batching::broadcasting({&self, &t1, &t2}, result_type(all),
                                  [&](std::vector<Tensor>& p) { return addcdiv(p[0], p[1], p[2], value); });
  }
  EMBER_RECORD_OP("addcdiv", self, t1, t2);
  Tensor out = addcdiv_impl(self, t1, t2, value, nullptr, false);
  if (autograd::needs_grad(self, t1, t2) && (out.is_floating_point() || out.is_complex()))
    autograd::record_addcdiv(self, t1, t2, value, out);
  return out;
}
Tensor& addcdiv_out(Tensor& out, const Tensor& self, const Tensor& t1, const Tensor& t2, const Scalar& value) {
  EMBER_RECORD_OP("addcdiv", self, t1, t2);
  addcdiv_impl(self, t1, t2, value, &checked_out(out, "addcdiv"), false);
  return out;
}

Tensor Tensor::lerp(const Tensor& end, const Scalar& weight) const { return ember::lerp(*this, end, weight); }
Tensor Tensor::lerp(const Tensor& end, const Tensor& weight) const { return ember::lerp(*this, end, weight); }
Tensor& Tensor::lerp_(const Tensor& end, const Scalar& weight) const {
  Tensor& self = self_ref();
  if (batching::any_batched(self, end)) [[unlikely]] {
    batching::broadcasting_("lerp_", {&self, &end}, std::nullopt,
                            [&](std::vector<Tensor>& p) { return p[0].lerp_(p[1], weight); });
    return self;
  }
  EMBER_RECORD_OP("lerp_", self, end);
  const bool grad = autograd::needs_grad(self, end);
  Tensor e = end;
  if (grad) {
    autograd::check_inplace(self, "lerp_");
    e = unaliased(end, self);
  }
  lerp_impl(self, e, weight, &self, true);
  if (grad) autograd::record_lerp(self, Tensor(), e, weight, Tensor(), self);
  return self;
}
Tensor& Tensor::lerp_(const Tensor& end, const Tensor& weight) const {
  Tensor& self = self_ref();
  if (batching::any_batched(self, end, weight)) [[unlikely]] {
    batching::broadcasting_("lerp_", {&self, &end, &weight}, std::nullopt,
                            [&](std::vector<Tensor>& p) { return p[0].lerp_(p[1], p[2]); });
    return self;
  }
  EMBER_RECORD_OP("lerp_", self, end, weight);
  const bool grad = autograd::needs_grad(self, end, weight);
  Tensor before, e = end, w = weight;
  if (grad) {
    autograd::check_inplace(self, "lerp_");
    // weight's gradient reads self as it was before the update; not detached, so
    // the double backward still reaches self's history.
    if (autograd::needs_grad(weight)) before = self.clone();
    e = unaliased(end, self);
    w = unaliased(weight, self);
  }
  lerp_impl(self, e, w, &self, true);
  if (grad) autograd::record_lerp(self, before, e, 0, w, self);
  return self;
}
Tensor Tensor::addcmul(const Tensor& t1, const Tensor& t2, const Scalar& value) const {
  return ember::addcmul(*this, t1, t2, value);
}
namespace {
// addcmul_ / addcdiv_ on self with autograd: the operands' formulas read them before
// the update, so one that shares self's storage is cloned first (unaliased above).
template <typename Impl, typename Record>
Tensor& addc_inplace(const char* op, Tensor& self, const Tensor& t1, const Tensor& t2, const Scalar& value, Impl impl,
                     Record record) {
  const bool grad = autograd::needs_grad(self, t1, t2) && (self.is_floating_point() || self.is_complex());
  Tensor a1 = t1, a2 = t2;
  if (grad) {
    autograd::check_inplace(self, op);
    a1 = unaliased(t1, self);
    a2 = unaliased(t2, self);
  }
  impl(self, a1, a2, value, &self, true);
  if (grad) record(self, a1, a2, value, self);
  return self;
}
}  // namespace

Tensor& Tensor::addcmul_(const Tensor& t1, const Tensor& t2, const Scalar& value) const {
  Tensor& self = self_ref();
  if (batching::any_batched(self, t1, t2)) [[unlikely]] {
    batching::broadcasting_("addcmul_", {&self, &t1, &t2}, std::nullopt,
                            [&](std::vector<Tensor>& p) { return p[0].addcmul_(p[1], p[2], value); });
    return self;
  }
  EMBER_RECORD_OP("addcmul_", self, t1, t2);
  return addc_inplace("addcmul_", self, t1, t2, value, addcmul_impl, autograd::record_addcmul);
}
Tensor Tensor::addcdiv(const Tensor& t1, const Tensor& t2, const Scalar& value) const {
  return ember::addcdiv(*this, t1, t2, value);
}
Tensor& Tensor::addcdiv_(const Tensor& t1, const Tensor& t2, const Scalar& value) const {
  Tensor& self = self_ref();
  if (batching::any_batched(self, t1, t2)) [[unlikely]] {
    batching::broadcasting_("addcdiv_", {&self, &t1, &t2}, std::nullopt,
                            [&](std::vector<Tensor>& p) { return p[0].addcdiv_(p[1], p[2], value); });
    return self;
  }
  EMBER_RECORD_OP("addcdiv_", self, t1, t2);
  return addc_inplace("addcdiv_", self, t1, t2, value, addcdiv_impl, autograd::record_addcdiv);
}

}  // namespace torch
