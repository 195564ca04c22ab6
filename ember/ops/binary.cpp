// The binary family's op layer: promotion, broadcasting, casting to the
// compute dtype and output handling, then one kernel from the table in
// ops/binary.def (kernels in kernels/cpu/binary_kernels*.cpp).
#include "ember/ops/binary.h"
#include "ember/autograd/raw_backward.h"
#include "ember/core/record_scope.h"
#include "ember/ops/mem_overlap.h"

#include "ember/autograd/derivatives/binary_grad.h"
#include "ember/autograd/derivatives/misc_grad.h"
#include "ember/autograd/derivatives/pointwise_grad.h"
#include "ember/autograd/formula_node.h"

#include "ember/core/dispatch.h"
#include "ember/core/shape.h"
#include "ember/kernels/cpu/binary_kernels.h"
#include "ember/ops/copy.h"
#include "ember/ops/elementwise.h"
#include "ember/ops/factory.h"
#include "ember/ops/grad_in_place.h"
#include "ember/ops/type_promotion.h"
#include "ember/vmap/batching_rules.h"

namespace ember {

using kernels::BinaryArgs;
using kernels::TensorIterator;

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

// An operand of an in-place op with autograd that shares self's storage (a.mul_(a),
// c[0].add_(c[1]) on rows of one tensor): its formula must read the values before
// the update, so it is cloned first (the clone is recorded against its history).
// Without this the saved operand held the result: silently wrong gradients.
Tensor unaliased(const Tensor& operand, const Tensor& self) {
  if (!operand.defined() || !self.defined() || operand.impl()->storage() != self.impl()->storage()) return operand;
  return operand.clone();
}

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
    const bool grad = autograd::needs_grad(x, y) && autograd::binary_is_differentiable(op.name);
    Tensor r = ops::empty_cpu(x.sizes(), op.promotion == Promotion::Bool ? kBool : x.scalar_type());
    if (r.numel() > 0) op.kernel(TensorIterator::contiguous(r, x, &y), args);
    if (grad) autograd::record_binary(op.name, x, y, x, y, r, grad_alpha, false);
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
  // Autograd (formulas in autograd/derivatives/binary.def).
  const Tensor a_in = a.tensor ? *a.tensor : Tensor(), b_in = b.tensor ? *b.tensor : Tensor();
  const bool grad = autograd::needs_grad(a_in, b_in) && autograd::binary_is_differentiable(op.name);
  EMBER_CHECK(!(grad && !inplace && out != nullptr), op.name,
              "_out: functions with out=... arguments don't support automatic differentiation, but one of the "
              "arguments requires grad");
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
    autograd::record_binary(op.name, a_in, b_in, inputs[0], inputs[1], r, grad_alpha, b.scalar != nullptr);
  }
  return r;
}

Tensor& checked_out(Tensor& out, const char* op) {
  EMBER_CHECK(out.defined(), op, "_out: expected a defined output tensor");
  return out;
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
  const BinarySpec k_##name{#name, Promotion::promotion, &kernels::name##_kernel, {#name, #name "_"}};
#define EMBER_BINARY_KERNEL(...) EMBER_BINARY_OP(__VA_ARGS__)
#include "ember/ops/binary.def"
#undef EMBER_BINARY_KERNEL
#undef EMBER_BINARY_OP

// Rounding modes are overloads of PyTorch's aten::div.
const BinarySpec k_div_trunc_prof{"div_trunc", Promotion::Same, &kernels::div_trunc_kernel, {"div", "div_"}};
const BinarySpec k_div_floor_prof{"div_floor", Promotion::Same, &kernels::div_floor_kernel, {"div", "div_"}};

// The specs clamp uses inside its own scope (see clamp_scalar).
BinarySpec quiet(const BinarySpec& s) { return {s.name, s.promotion, s.kernel, {nullptr, nullptr}}; }

}  // namespace

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
#include "ember/ops/binary.def"
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
  const BinarySpec scaled{op, Promotion::Same, &kernels::add_scaled_kernel, {op, is_sub ? "sub_" : "add_"}};
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
Tensor floor_divide(const Tensor& self, const Tensor& other) { return div(self, other, "floor"); }
Tensor floor_divide(const Tensor& self, const Scalar& other) { return div(self, other, "floor"); }
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
// the node's alpha (derivatives/binary.def).
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
  if (!max) return binary(quiet(k_clamp_min), self, *min, out, inplace);
  if (!min) return binary(quiet(k_clamp_max), self, *max, out, inplace);
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
  if (!has_max) return binary(quiet(k_clamp_min), self, *min, out, inplace);
  if (!has_min) return binary(quiet(k_clamp_max), self, *max, out, inplace);
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
// Tensor bounds record one node (formula: autograd/derivatives/pointwise_grad.cpp).
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
  if (grad) autograd::record_clamp_scalar("ClampBackward1", self, before, min, max, self);
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
    autograd::record_clamp_scalar("ClampMinBackward0", self, self, min, std::nullopt, out);
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
    autograd::record_clamp_scalar("ClampMaxBackward0", self, self, std::nullopt, max, out);
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

// ---- operators declared as Tensor members (free operators: ops/operators.h) -----------
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

}  // namespace ember
