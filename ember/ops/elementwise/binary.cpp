// The binary family's op layer: promotion, broadcasting, casting to the
// compute dtype and output handling, then one kernel from the table in
// tables/binary.def (kernels in kernels/cpu/binary_kernels*.cpp).
#include "ember/ops/elementwise/binary.h"
#include "ember/autograd/raw_backward.h"
#include "ember/core/record_scope.h"
#include "ember/ops/shape/mem_overlap.h"

#include "ember/autograd/derivatives/binary_grad.h"
#include "ember/autograd/derivatives/elementwise_grad.h"
#include "ember/autograd/formula_node.h"

#include "ember/core/dispatch.h"
#include "ember/core/shape.h"
#include "ember/kernels/cpu/binary_kernels.h"
#include "ember/ops/elementwise/elementwise.h"
#include "ember/ops/elementwise/grad_in_place.h"
#include "ember/ops/elementwise/type_promotion.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/shape/copy.h"
#include "ember/vmap/batching_rules.h"

namespace torch {

using kernels::BinaryArgs;
using kernels::TensorIterator;
using ops::checked_out;
using ops::unaliased;

namespace {

enum class Promotion { Same, Float, Bool };
using BinaryKernel = void (*)(const TensorIterator&, const BinaryArgs&);

// `name` keys the autograd formulas; `prof` holds the names the profiler
// shows, {functional, in-place} (PyTorch's: div_trunc is aten::div, x.add_(y)
// is aten::add_, out= forms keep the functional name), indexed by `inplace`
// (a load, no branch, on the small-op path); nullptr records nothing, for a
// spec used inside an op that records itself (clamp).
struct BinarySpec {
  const char* name;
  BinaryOp id;  // the row of tables/binary.def whose gradient is recorded
  Promotion promotion;
  BinaryKernel kernel;
  const char* prof[2];
};

// A Tensor or a Scalar; a Scalar takes part in promotion as a wrapped number
// and reaches the kernel as a 0-dim tensor of the compute dtype (binary_loop
// has a fast path for such stride-0 operands).
struct Operand {
  Operand(const Tensor& t) : tensor(&t) {}  // NOLINT
  Operand(const Scalar& s) : scalar(&s) {}  // NOLINT
  const Tensor* tensor = nullptr;
  const Scalar* scalar = nullptr;

  void add_to(ResultTypeState& st) const {
    if (tensor)
      st.update(*tensor);
    else
      st.update(*scalar);
  }
  // A Scalar is converted without fill_'s overflow check: arithmetic wraps the number,
  // as PyTorch does (uint8 + 300 is 45, not an error).
  Tensor as_tensor(ScalarType t) const {
    if (tensor) return ops::cast(*tensor, t);
    Tensor w = empty({}, TensorOptions(t));
    dispatch_all(t, "binary", [&](auto tag) {
      using T = EMBER_TYPE(tag);
      *w.data_ptr<T>() = scalar->to<T>();
    });
    return w;
  }
  ScalarType dtype() const {
    if (tensor) return tensor->dtype();
    return scalar->isBoolean() ? kBool : scalar->type();
  }
};

void check_defined(const char* op, Operand a, Operand b) {
  EMBER_CHECK((!a.tensor || a.tensor->defined()) && (!b.tensor || b.tensor->defined()), op,
              ": expected defined tensors");
}

ScalarType compute_dtype(Promotion p, Operand a, Operand b) {
  ScalarType t;
  if (a.tensor && b.tensor && a.tensor->defined() && b.tensor->defined() &&
      a.tensor->scalar_type() == b.tensor->scalar_type()) {
    t = a.tensor->scalar_type();  // two tensors of one dtype promote to it, whatever their dims
  } else {
    ResultTypeState st;
    a.add_to(st);
    b.add_to(st);
    t = st.result();
  }
  if (p == Promotion::Float && is_integral(t, /*include_bool=*/true)) t = get_default_dtype();
  return t;
}

DimVector broadcast_of(const char* op, Operand a, Operand b) {
  if (a.tensor && b.tensor) return broadcast_shapes(a.tensor->sizes(), b.tensor->sizes(), op);
  return DimVector(a.tensor ? a.tensor->sizes() : b.tensor->sizes());
}

// `grad_alpha` is the user's alpha for add/sub (the kernels may fold its sign).
// Note [Small-op fast path]
// Two defined tensors of one dtype, contiguous with equal sizes, and a fresh
// result: promotion is the identity, there is nothing to broadcast or cast
// and no aliasing is possible, so the result is allocated and the kernel run
// directly. This is the common case in training loops, and for tiny tensors
// it decides the per-op overhead (benchmark W1).
bool fast_binary_operands(const BinarySpec& op, Operand a, Operand b) {
  if (!a.tensor || !b.tensor) return false;
  const Tensor& x = *a.tensor;
  const Tensor& y = *b.tensor;
  return x.defined() && y.defined() && x.scalar_type() == y.scalar_type() &&
         (op.promotion != Promotion::Float || is_floating_point(x.scalar_type())) && x.is_contiguous() &&
         y.is_contiguous() && x.sizes().equals(y.sizes());
}

Tensor binary(const BinarySpec& op, Operand a, Operand b, Tensor* out, bool inplace, BinaryArgs args = {},
              const Scalar& grad_alpha = 1);

// The in-place form of the fast path (a gradient sum accumulating in backward,
// an optimizer step): x is the result, already of the right shape and dtype;
// the caller has checked fast_binary_operands, autograd and overlap.
void binary_inplace_fast(const BinarySpec& op, const Tensor& x, const Tensor& y, BinaryArgs args) {
  args.op = op.name;
  if (x.numel() > 0) op.kernel(TensorIterator::contiguous(x, x, &y), args);
  x.bump_version();
}

// Batching rule (Note [vmap hooks]): the op on the lined-up physical
// operands, computed in the dtype the logical operands promote to.
[[gnu::noinline, gnu::cold]] Tensor binary_batched(const BinarySpec& op, Operand a, Operand b, Tensor* out,
                                                   bool inplace, const BinaryArgs& args, const Scalar& grad_alpha) {
  check_defined(op.name, a, b);
  const ScalarType ct = compute_dtype(op.promotion, a, b);
  auto run = [&](std::vector<Tensor>& p) {
    Operand pa = a.tensor ? Operand(p[0]) : a, pb = b.tensor ? Operand(p[1]) : b;
    return binary(op, pa, pb, inplace ? &p[0] : nullptr, inplace, args, grad_alpha);
  };
  if (inplace) {
    batching::broadcasting_(op.prof[1] ? op.prof[1] : op.name, {a.tensor, b.tensor}, ct, run);
    return *out;
  }
  if (out != nullptr) batching::refuse_out(op.name);
  return batching::broadcasting({a.tensor, b.tensor}, ct, run);
}

Tensor binary(const BinarySpec& op, Operand a, Operand b, Tensor* out, bool inplace, BinaryArgs args,
              const Scalar& grad_alpha) {
  if (batching::any_batched(a.tensor, b.tensor, out)) [[unlikely]]
    return binary_batched(op, a, b, out, inplace, args, grad_alpha);
  EMBER_RECORD_OP(op.prof[inplace], a.tensor, b.tensor);
  if (out == nullptr && !inplace && fast_binary_operands(op, a, b)) {
    const Tensor& x = *a.tensor;
    const Tensor& y = *b.tensor;
    args.op = op.name;
    const bool grad = autograd::needs_grad(x, y) && autograd::binary_is_differentiable(op.id);
    Tensor r = empty_cpu(x.sizes(), op.promotion == Promotion::Bool ? kBool : x.scalar_type());
    if (r.numel() > 0) op.kernel(TensorIterator::contiguous(r, x, &y), args);
    if (grad) autograd::record_binary(op.id, x, y, x, y, r, grad_alpha, false);
    return r;
  }
  if (inplace && out == a.tensor && op.promotion != Promotion::Bool && fast_binary_operands(op, a, b) &&
      !autograd::needs_grad(*a.tensor, *b.tensor) && !ops::needs_input_copy(*a.tensor, *b.tensor)) {
    binary_inplace_fast(op, *out, *b.tensor, args);
    return *out;
  }
  check_defined(op.name, a, b);
  const ScalarType ct = compute_dtype(op.promotion, a, b);
  const ScalarType rt = op.promotion == Promotion::Bool ? kBool : ct;
  DimVector shape = broadcast_of(op.name, a, b);
  Tensor inputs[2] = {a.as_tensor(ct), b.as_tensor(ct)};
  args.op = op.name;
  // Autograd (formulas in the gradient column of tables/binary.def).
  const Tensor a_in = a.tensor ? *a.tensor : Tensor(), b_in = b.tensor ? *b.tensor : Tensor();
  const bool grad = autograd::needs_grad(a_in, b_in) && autograd::binary_is_differentiable(op.id);
  EMBER_CHECK(!(grad && !inplace && out != nullptr), op.name,
              "_out: functions with out=... arguments don't support automatic differentiation, but one of the "
              "arguments requires grad");
  if (grad) {
    // A promoted operand's cast copy has no history, so a formula that saved it would cut a
    // double backward off from the user's tensor (d/dm of the gradient of complex(a, b) * m): an
    // operand that needs a gradient is cast differentiably instead, before the kernel writes.
    const Tensor* originals[2] = {&a_in, &b_in};
    for (int i = 0; i < 2; ++i)
      if (originals[i]->defined() && autograd::needs_grad(*originals[i]) && originals[i]->scalar_type() != ct)
        inputs[i] = originals[i]->to(ct);
  }
  if (grad && inplace) {
    autograd::check_inplace(a_in, op.name);
    // The formulas read self as it was before the update: a clone recorded
    // against self's old history, so double backward differentiates through it.
    inputs[0] = inputs[0].clone();
    inputs[1] = unaliased(inputs[1], a_in);
  }
  const Tensor operands[2] = {a_in, b_in};  // Note [Elementwise overlap]
  Tensor r = ops::run_elementwise(op.name, operands, inputs, shape, rt, out, inplace,
                                  [&](const TensorIterator& iter) { op.kernel(iter, args); });
  if (grad) {
    autograd::record_binary(op.id, a_in, b_in, inputs[0], inputs[1], r, grad_alpha, b.scalar != nullptr);
  }
  return r;
}

// PyTorch rejects an integer tensor raised to a negative integer Scalar (a
// tensor of exponents is allowed and truncates).
void check_pow_scalar(const Tensor& self, const Scalar& exponent) {
  EMBER_CHECK(
      !(self.defined() && is_integral(self.dtype(), true) && exponent.isIntegral(true) && exponent.toLong() < 0),
      "pow: Integers to negative integer powers are not allowed (", self.dtype(), " tensor, exponent ", exponent, ")");
}
void check_scalar_other(const BinarySpec& op, const Tensor& self, const Scalar& other) {
  if (op.kernel == &kernels::pow_kernel) check_pow_scalar(self, other);
}

#define EMBER_BINARY_OP(name, promotion, ...) \
  const BinarySpec k_##name{#name, BinaryOp::name, Promotion::promotion, &kernels::name##_kernel, {#name, #name "_"}};
#define EMBER_BINARY_KERNEL(...) EMBER_BINARY_OP(__VA_ARGS__)
#include "ember/tables/binary.def"
#undef EMBER_BINARY_KERNEL
#undef EMBER_BINARY_OP

// Rounding modes are overloads of PyTorch's aten::div.
const BinarySpec k_div_trunc_prof{
    "div_trunc", BinaryOp::div_trunc, Promotion::Same, &kernels::div_trunc_kernel, {"div", "div_"}};
const BinarySpec k_div_floor_prof{
    "div_floor", BinaryOp::div_floor, Promotion::Same, &kernels::div_floor_kernel, {"div", "div_"}};

// The specs clamp uses inside its own scope (see clamp_scalar).
BinarySpec quiet(const BinarySpec& s) { return {s.name, s.id, s.promotion, s.kernel, {nullptr, nullptr}}; }

}  // namespace

Tensor ops::clamp_one_bound(bool is_min, const Tensor& self, const Scalar& bound, Tensor* out, bool inplace) {
  return binary(quiet(is_min ? k_clamp_min : k_clamp_max), self, bound, out, inplace);
}
Tensor ops::clamp_one_bound(bool is_min, const Tensor& self, const Tensor& bound, Tensor* out, bool inplace) {
  return binary(quiet(is_min ? k_clamp_min : k_clamp_max), self, bound, out, inplace);
}

// ---- the uniform table ops ------------------------------------------------------------
#define EMBER_BINARY_OP(name, ...)                                                                               \
  Tensor name(const Tensor& self, const Tensor& other) { return binary(k_##name, self, other, nullptr, false); } \
  Tensor name(const Tensor& self, const Scalar& other) {                                                         \
    check_scalar_other(k_##name, self, other);                                                                   \
    return binary(k_##name, self, other, nullptr, false);                                                        \
  }                                                                                                              \
  Tensor name(const Scalar& self, const Tensor& other) { return binary(k_##name, self, other, nullptr, false); } \
  Tensor& name##_out(Tensor& out, const Tensor& self, const Tensor& other) {                                     \
    binary(k_##name, self, other, &checked_out(out, #name), false);                                              \
    return out;                                                                                                  \
  }                                                                                                              \
  Tensor& name##_out(Tensor& out, const Tensor& self, const Scalar& other) {                                     \
    check_scalar_other(k_##name, self, other);                                                                   \
    binary(k_##name, self, other, &checked_out(out, #name), false);                                              \
    return out;                                                                                                  \
  }                                                                                                              \
  Tensor Tensor::name(const Tensor& other) const { return ember::name(*this, other); }                           \
  Tensor Tensor::name(const Scalar& other) const { return ember::name(*this, other); }                           \
  Tensor& Tensor::name##_(const Tensor& other) const {                                                           \
    binary(k_##name, self_ref(), other, &self_ref(), true);                                                      \
    return self_ref();                                                                                           \
  }                                                                                                              \
  Tensor& Tensor::name##_(const Scalar& other) const {                                                           \
    check_scalar_other(k_##name, self_ref(), other);                                                             \
    binary(k_##name, self_ref(), other, &self_ref(), true);                                                      \
    return self_ref();                                                                                           \
  }
#include "ember/tables/binary.def"
#undef EMBER_BINARY_OP

// ---- add / sub ---------------------------------------------------------------------
namespace {

bool is_one(const Scalar& s) { return s.equal(Scalar(1)); }

// PyTorch's alpha_check plus its refusal to subtract bools. Always inlined: it
// is on the small-op path of every a + b (W1), where an outlined call costs
// more than the checks (their messages are built out of line anyway).
[[gnu::always_inline]] inline void check_add_sub(const char* op, bool is_sub, Operand a, Operand b, ScalarType ct,
                                                 const Scalar& alpha) {
  if (is_sub) {
    const bool ba = a.dtype() == kBool, bb = b.dtype() == kBool;
    EMBER_CHECK(!(ba && bb), op,
                ": Subtraction, the `-` operator, with two bool tensors is not supported. Use the `^` or "
                "`logical_xor()` operator instead.");
    EMBER_CHECK(!(ba || bb), op,
                ": Subtraction, the `-` operator, with a bool tensor is not supported. If you are trying to invert "
                "a mask, use the `~` or `logical_not()` operator instead.");
  }
  EMBER_CHECK(!alpha.isBoolean() || ct == kBool, op, ": Boolean alpha only supported for Boolean results (got ", ct,
              ")");
  EMBER_CHECK(is_floating_point(ct) || is_complex(ct) || alpha.isIntegral(true), op,
              ": For integral input tensors, argument alpha must not be a floating point number (got ", ct,
              " and alpha ", alpha, ")");
  EMBER_CHECK(is_complex(ct) || !alpha.isComplex(), op,
              ": For non-complex input tensors, argument alpha must not be a complex number (got ", ct, ")");
}

Tensor add_sub(bool is_sub, Operand a, Operand b, const Scalar& alpha, Tensor* out, bool inplace) {
  const char* op = is_sub ? "sub" : "add";
  check_defined(op, a, b);
  const ScalarType ct = compute_dtype(Promotion::Same, a, b);
  check_add_sub(op, is_sub, a, b, ct, alpha);
  if (is_one(alpha)) return binary(is_sub ? k_sub : k_add, a, b, out, inplace, {}, alpha);
  BinaryArgs args;
  args.alpha = is_sub ? -alpha : alpha;
  const BinarySpec scaled{op,
                          is_sub ? BinaryOp::sub : BinaryOp::add,
                          Promotion::Same,
                          &kernels::add_scaled_kernel,
                          {op, is_sub ? "sub_" : "add_"}};
  return binary(scaled, a, b, out, inplace, args, alpha);
}

}  // namespace

Tensor add(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  return add_sub(false, self, other, alpha, nullptr, false);
}
Tensor add(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  return add_sub(false, self, other, alpha, nullptr, false);
}
Tensor& add_out(Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha) {
  add_sub(false, self, other, alpha, &checked_out(out, "add"), false);
  return out;
}
Tensor& add_out(Tensor& out, const Tensor& self, const Scalar& other, const Scalar& alpha) {
  add_sub(false, self, other, alpha, &checked_out(out, "add"), false);
  return out;
}
Tensor sub(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  return add_sub(true, self, other, alpha, nullptr, false);
}
Tensor sub(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  return add_sub(true, self, other, alpha, nullptr, false);
}
Tensor& sub_out(Tensor& out, const Tensor& self, const Tensor& other, const Scalar& alpha) {
  add_sub(true, self, other, alpha, &checked_out(out, "sub"), false);
  return out;
}
Tensor& sub_out(Tensor& out, const Tensor& self, const Scalar& other, const Scalar& alpha) {
  add_sub(true, self, other, alpha, &checked_out(out, "sub"), false);
  return out;
}
Tensor subtract(const Tensor& self, const Tensor& other, const Scalar& alpha) { return sub(self, other, alpha); }
Tensor rsub(const Tensor& self, const Tensor& other, const Scalar& alpha) {
  if (!batching::any_batched(self, other)) [[likely]] {
    EMBER_RECORD_OP("rsub", self, other);
    return add_sub(true, other, self, alpha, nullptr, false);
  }
  return add_sub(true, other, self, alpha, nullptr, false);
}
Tensor rsub(const Tensor& self, const Scalar& other, const Scalar& alpha) {
  if (!batching::any_batched(self)) [[likely]] {
    EMBER_RECORD_OP("rsub", self);
    return add_sub(true, other, self, alpha, nullptr, false);
  }
  return add_sub(true, other, self, alpha, nullptr, false);
}

Tensor Tensor::add(const Tensor& other, const Scalar& alpha) const { return ember::add(*this, other, alpha); }
Tensor Tensor::add(const Scalar& other, const Scalar& alpha) const { return ember::add(*this, other, alpha); }
Tensor& Tensor::add_(const Tensor& other, const Scalar& alpha) const {
  Tensor& self = self_ref();
  add_sub(false, self, other, alpha, &self, true);
  return self;
}
void ops::accumulate_(const Tensor& sum, const Tensor& g) {
  if (!batching::any_batched(sum, g) && fast_binary_operands(k_add, sum, g) && !autograd::needs_grad(sum, g)) {
    EMBER_RECORD_OP(k_add.prof[1], sum, g);
    binary_inplace_fast(k_add, sum, g, {});  // `sum` owns its memory: no overlap with g
    return;
  }
  sum.add_(g);
}
Tensor& Tensor::add_(const Scalar& other, const Scalar& alpha) const {
  Tensor& self = self_ref();
  add_sub(false, self, other, alpha, &self, true);
  return self;
}
Tensor Tensor::sub(const Tensor& other, const Scalar& alpha) const { return ember::sub(*this, other, alpha); }
Tensor Tensor::sub(const Scalar& other, const Scalar& alpha) const { return ember::sub(*this, other, alpha); }
Tensor& Tensor::sub_(const Tensor& other, const Scalar& alpha) const {
  Tensor& self = self_ref();
  add_sub(true, self, other, alpha, &self, true);
  return self;
}
Tensor& Tensor::sub_(const Scalar& other, const Scalar& alpha) const {
  Tensor& self = self_ref();
  add_sub(true, self, other, alpha, &self, true);
  return self;
}

// ---- div -----------------------------------------------------------------------------
namespace {

const BinarySpec& div_spec(std::optional<std::string_view> mode) {
  if (!mode) return k_div;
  if (*mode == "trunc") return k_div_trunc_prof;
  if (*mode == "floor") return k_div_floor_prof;
  EMBER_ERROR("div: expected rounding_mode to be one of None, 'trunc', or 'floor' but found '", *mode, "'");
}

}  // namespace

Tensor div(const Tensor& self, const Tensor& other, std::optional<std::string_view> mode) {
  return binary(div_spec(mode), self, other, nullptr, false);
}
Tensor div(const Tensor& self, const Scalar& other, std::optional<std::string_view> mode) {
  return binary(div_spec(mode), self, other, nullptr, false);
}
Tensor div(const Scalar& self, const Tensor& other, std::optional<std::string_view> mode) {
  return binary(div_spec(mode), self, other, nullptr, false);
}
Tensor& div_out(Tensor& out, const Tensor& self, const Tensor& other, std::optional<std::string_view> mode) {
  binary(div_spec(mode), self, other, &checked_out(out, "div"), false);
  return out;
}
Tensor& div_out(Tensor& out, const Tensor& self, const Scalar& other, std::optional<std::string_view> mode) {
  binary(div_spec(mode), self, other, &checked_out(out, "div"), false);
  return out;
}
Tensor divide(const Tensor& self, const Tensor& other, std::optional<std::string_view> mode) {
  return div(self, other, mode);
}
Tensor true_divide(const Tensor& self, const Tensor& other) { return div(self, other); }
// floor_divide is div(rounding_mode="floor") without a derivative: PyTorch
// records a node whose backward raises (div with the mode gives zeros).
Tensor floor_divide(const Tensor& self, const Tensor& other) {
  Tensor r;
  {
    autograd::BelowAutogradGuard below;
    r = div(self, other, "floor");
  }
  if (autograd::needs_grad(self, other))
    autograd::record_not_implemented("the derivative for 'floor_divide' is not implemented.", {self, other}, r);
  return r;
}
Tensor floor_divide(const Tensor& self, const Scalar& other) {
  Tensor r;
  {
    autograd::BelowAutogradGuard below;
    r = div(self, other, "floor");
  }
  if (autograd::needs_grad(self))
    autograd::record_not_implemented("the derivative for 'floor_divide' is not implemented.", {self}, r);
  return r;
}
Tensor multiply(const Tensor& self, const Tensor& other) { return mul(self, other); }

Tensor Tensor::div(const Tensor& other) const { return ember::div(*this, other); }
Tensor Tensor::div(const Scalar& other) const { return ember::div(*this, other); }
Tensor Tensor::div(const Tensor& other, std::optional<std::string_view> mode) const {
  return ember::div(*this, other, mode);
}
Tensor Tensor::div(const Scalar& other, std::optional<std::string_view> mode) const {
  return ember::div(*this, other, mode);
}
Tensor& Tensor::div_(const Tensor& other) const { return div_(other, std::nullopt); }
Tensor& Tensor::div_(const Scalar& other) const { return div_(other, std::nullopt); }
Tensor& Tensor::div_(const Tensor& other, std::optional<std::string_view> mode) const {
  Tensor& self = self_ref();
  binary(div_spec(mode), self, other, &self, true);
  return self;
}
Tensor& Tensor::div_(const Scalar& other, std::optional<std::string_view> mode) const {
  Tensor& self = self_ref();
  binary(div_spec(mode), self, other, &self, true);
  return self;
}

// ---- maximum / minimum / fmax / fmin -----------------------------------------------
#define EMBER_MINMAX_(name)                                                                                      \
  Tensor name(const Tensor& self, const Tensor& other) { return binary(k_##name, self, other, nullptr, false); } \
  Tensor& name##_out(Tensor& out, const Tensor& self, const Tensor& other) {                                     \
    binary(k_##name, self, other, &checked_out(out, #name), false);                                              \
    return out;                                                                                                  \
  }                                                                                                              \
  Tensor Tensor::name(const Tensor& other) const { return ember::name(*this, other); }
EMBER_MINMAX_(maximum)
EMBER_MINMAX_(minimum)
EMBER_MINMAX_(fmax)
EMBER_MINMAX_(fmin)
#undef EMBER_MINMAX_

// ---- tanh_backward / sigmoid_backward ----------------------------------------------
Tensor tanh_backward(const Tensor& grad_output, const Tensor& output) {
  return binary(k_tanh_backward, grad_output, output, nullptr, false);
}
Tensor sigmoid_backward(const Tensor& grad_output, const Tensor& output) {
  return binary(k_sigmoid_backward, grad_output, output, nullptr, false);
}
// The threshold travels as the kernel's alpha and, for the derivative formulas, as
// the node's alpha (tables/binary.def's gradient column).
Tensor threshold_backward(const Tensor& grad_output, const Tensor& self, const Scalar& threshold) {
  BinaryArgs args;
  args.alpha = threshold;
  return binary(k_threshold_backward, grad_output, self, nullptr, false, args, threshold);
}
Tensor threshold_backward_over_grad(const Tensor& grad_output, const Tensor& self, const Scalar& threshold) {
  if (!autograd::can_overwrite_grad(grad_output) || !fast_binary_operands(k_threshold_backward, grad_output, self))
    return threshold_backward(grad_output, self, threshold);
  BinaryArgs args;
  args.alpha = threshold;
  binary_inplace_fast(k_threshold_backward, grad_output, self, args);
  return grad_output;
}

// ---- isclose / allclose / equal ------------------------------------------------------
namespace {

// Whether every element of a bool tensor is true.
bool all_true(const Tensor& t) {
  Tensor c = t.contiguous();
  const bool* p = c.data_ptr<bool>();
  for (int64_t i = 0, n = c.numel(); i < n; ++i)
    if (!p[i]) return false;
  return true;
}

}  // namespace

Tensor isclose(const Tensor& self, const Tensor& other, double rtol, double atol, bool equal_nan) {
  check_defined("isclose", self, other);
  EMBER_CHECK(self.dtype() == other.dtype(), "isclose: ", self.dtype(), " did not match ", other.dtype());
  EMBER_CHECK(rtol >= 0, "isclose: rtol must be greater than or equal to zero, but got ", rtol);
  EMBER_CHECK(atol >= 0, "isclose: atol must be greater than or equal to zero, but got ", atol);
  // Integers and bools: exact equality without tolerances, else compared in
  // the default float dtype (PyTorch computes their error in floating point).
  if (is_integral(self.dtype(), true)) {
    if (rtol == 0 && atol == 0) return eq(self, other);
    ScalarType f = get_default_dtype();
    return isclose(ops::cast(self, f), ops::cast(other, f), rtol, atol, equal_nan);
  }
  BinaryArgs args;
  args.rtol = rtol;
  args.atol = atol;
  args.equal_nan = equal_nan;
  return binary(k_isclose, self, other, nullptr, false, args);
}
bool allclose(const Tensor& self, const Tensor& other, double rtol, double atol, bool equal_nan) {
  EMBER_RECORD_OP("allclose", self, other);
  return all_true(isclose(self, other, rtol, atol, equal_nan));
}
bool equal(const Tensor& self, const Tensor& other) {
  EMBER_RECORD_OP("equal", self, other);
  check_defined("equal", self, other);
  if (!self.sizes().equals(other.sizes())) return false;
  return all_true(eq(self, other));
}
Tensor Tensor::isclose(const Tensor& other, double rtol, double atol, bool equal_nan) const {
  return ember::isclose(*this, other, rtol, atol, equal_nan);
}
bool Tensor::allclose(const Tensor& other, double rtol, double atol, bool equal_nan) const {
  return ember::allclose(*this, other, rtol, atol, equal_nan);
}
bool Tensor::equal(const Tensor& other) const { return ember::equal(*this, other); }

// ---- operators declared as Tensor members (free operators: ops/elementwise/operators.h) -----------
Tensor& Tensor::operator+=(const Tensor& o) { return add_(o); }
Tensor& Tensor::operator+=(const Scalar& o) { return add_(o); }
Tensor& Tensor::operator-=(const Tensor& o) { return sub_(o); }
Tensor& Tensor::operator-=(const Scalar& o) { return sub_(o); }
Tensor& Tensor::operator*=(const Tensor& o) { return mul_(o); }
Tensor& Tensor::operator*=(const Scalar& o) { return mul_(o); }
Tensor& Tensor::operator/=(const Tensor& o) { return div_(o); }
Tensor& Tensor::operator/=(const Scalar& o) { return div_(o); }
Tensor& Tensor::operator&=(const Tensor& o) { return bitwise_and_(o); }
Tensor& Tensor::operator|=(const Tensor& o) { return bitwise_or_(o); }
Tensor& Tensor::operator^=(const Tensor& o) { return bitwise_xor_(o); }

// Note [Unary operators on the binary kernels]
// -x, ~x and !x are neg, bitwise_not and logical_not (the unary family);
// they are spelled here with binary kernels so this family stands alone:
// -x = x * -1 (exact, and wraps for unsigned), ~x = x ^ all-ones,
// !x = (x != 0) xor true.
Tensor Tensor::operator-() const {
  EMBER_CHECK(dtype() != kBool,
              "neg: Negation, the `-` operator, on a bool tensor is not supported. If you are trying to invert a "
              "mask, use the `~` or `logical_not()` operator instead.");
  return ember::mul(*this, Scalar(-1));
}
Tensor Tensor::operator~() const {
  EMBER_CHECK(is_integral(dtype(), true),
              "bitwise_not: ~ (operator.invert) is only implemented on integer and "
              "Boolean-type tensors, got ",
              dtype());
  return dtype() == kBool ? ember::bitwise_xor(*this, Scalar(true)) : ember::bitwise_xor(*this, Scalar(-1));
}
Tensor Tensor::operator!() const { return ember::logical_xor(*this, Scalar(true)); }

}  // namespace torch
