#include "ember/ops/nn/activation.h"
#include "ember/core/record_scope.h"

#include "ember/autograd/derivatives/nn_activation_grad.h"
#include "ember/autograd/formula_node.h"
#include "ember/core/shape.h"
#include "ember/kernels/cpu/binary_kernels.h"
#include "ember/ops/elementwise/binary.h"
#include "ember/ops/elementwise/elementwise.h"
#include "ember/ops/elementwise/operators.h"
#include "ember/ops/elementwise/unary.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/index/indexing.h"
#include "ember/ops/nn/nn_util.h"
#include "ember/ops/shape/mem_overlap.h"
#include "ember/ops/shape/view.h"
#include "ember/vmap/batching_rules.h"

namespace torch {
namespace {

void check_input(const char* op, const Tensor& self) {
  EMBER_CHECK(self.defined(), op, ": expected a defined tensor");
  EMBER_CHECK(!self.is_complex() && self.dtype() != kBool, op, ": not implemented for ", self.dtype());
}

// In-place forms with a recorded formula: the formula reads the input as it was.
Tensor inplace_saved_input(Tensor& self, const char* op) {
  if (!autograd::needs_grad(self)) return Tensor();
  autograd::check_inplace(self, op);
  return self.clone();  // recorded against self's old history (double backward)
}

void no_inplace_grad(const Tensor& self, const char* op) {
  EMBER_CHECK(!autograd::needs_grad(self), op,
              ": the in-place form does not support autograd; use the out-of-place op for tensors that require grad");
}

}  // namespace

Tensor hardtanh(const Tensor& self, const Scalar& min_val, const Scalar& max_val) {
  EMBER_VMAP_ELEMENTWISE(self, v, hardtanh(v, min_val, max_val));
  EMBER_RECORD_OP("hardtanh", self);
  check_input("hardtanh", self);
  Tensor out;
  {
    autograd::BelowAutogradGuard no_grad;
    out = self.clamp(std::optional<Scalar>(min_val), std::optional<Scalar>(max_val));
  }
  if (autograd::needs_grad(self)) autograd::record_hardtanh(self, self, out, min_val.toDouble(), max_val.toDouble());
  return out;
}

Tensor& hardtanh_(Tensor& self, const Scalar& min_val, const Scalar& max_val) {
  EMBER_VMAP_ELEMENTWISE_(self, v, hardtanh_(v, min_val, max_val));
  EMBER_RECORD_OP("hardtanh_", self);
  check_input("hardtanh_", self);
  const Tensor saved = inplace_saved_input(self, "hardtanh_");
  {
    autograd::BelowAutogradGuard no_grad;
    self.clamp_(std::optional<Scalar>(min_val), std::optional<Scalar>(max_val));
  }
  if (saved.defined()) autograd::record_hardtanh(self, saved, self, min_val.toDouble(), max_val.toDouble());
  return self;
}

Tensor hardtanh_backward(const Tensor& grad_output, const Tensor& self, const Scalar& min_val, const Scalar& max_val) {
  EMBER_CHECK(grad_output.defined() && self.defined(), "hardtanh_backward: expected defined tensors");
  EMBER_CHECK(grad_output.is_floating_point() && self.scalar_type() == grad_output.scalar_type(),
              "hardtanh_backward: expected grad_output and self of one floating dtype, got ", grad_output.dtype(),
              " and ", self.dtype());
  // A graph to record (double backward) or a vmap: the same mask from differentiable,
  // batchable ops; its derivative with respect to self is zero, as PyTorch's.
  auto composite = [&] { return grad_output * logical_not((self <= min_val) | (self >= max_val)); };
  if (batching::any_batched(grad_output, self)) [[unlikely]]
    return composite();  // before the profiler scope, which refuses batched inputs
  EMBER_RECORD_OP("hardtanh_backward", grad_output, self);
  if (autograd::needs_grad(grad_output, self)) return composite();
  const DimVector shape = broadcast_shapes(grad_output.sizes(), self.sizes(), "hardtanh_backward");
  const Tensor inputs[2] = {grad_output, self};
  return ops::run_elementwise(
      "hardtanh_backward", inputs, inputs, shape, grad_output.scalar_type(), nullptr, false,
      [&](const kernels::TensorIterator& iter) { kernels::hardtanh_backward_kernel(iter, min_val, max_val); });
}

Tensor relu6(const Tensor& self) {
  EMBER_VMAP_ELEMENTWISE(self, v, relu6(v));
  EMBER_RECORD_OP("relu6", self);
  return hardtanh(self, 0, 6);
}
Tensor& relu6_(Tensor& self) {
  EMBER_VMAP_ELEMENTWISE_(self, v, relu6_(v));
  EMBER_RECORD_OP("relu6_", self);
  return hardtanh_(self, 0, 6);
}

Tensor threshold(const Tensor& self, const Scalar& threshold, const Scalar& value) {
  EMBER_VMAP_ELEMENTWISE(self, v, ember::threshold(v, threshold, value));
  EMBER_RECORD_OP("threshold", self);
  check_input("threshold", self);
  Tensor out;
  {
    autograd::BelowAutogradGuard no_grad;
    out = where(self <= threshold, full({}, value, self.options()), self);  // NaN stays NaN
  }
  if (autograd::needs_grad(self)) autograd::record_threshold(self, self, out, threshold);
  return out;
}

Tensor& threshold_(Tensor& self, const Scalar& threshold, const Scalar& value) {
  EMBER_VMAP_ELEMENTWISE_(self, v, threshold_(v, threshold, value));
  EMBER_RECORD_OP("threshold_", self);
  check_input("threshold_", self);
  const Tensor saved = inplace_saved_input(self, "threshold_");
  {
    autograd::BelowAutogradGuard no_grad;
    self.masked_fill_(self <= threshold, value);
  }
  if (saved.defined()) autograd::record_threshold(self, saved, self, threshold);
  return self;
}

Tensor prelu(const Tensor& self, const Tensor& weight) {
  // Composite (view, mul, where): each takes batched inputs, a per-sample weight too.
  EMBER_RECORD_COMPOSITE_OP("prelu", self, weight);
  check_input("prelu", self);
  EMBER_CHECK(weight.defined(), "prelu: expected a defined weight");
  const int64_t channels = self.dim() >= 2 ? self.size(1) : 1;
  const int64_t wn = weight.numel();
  EMBER_CHECK(weight.dim() <= 1, "prelu: Not allow zero-dim input tensor. weight must be 1-D or 0-D, got ",
              shape_str(weight.sizes()));
  EMBER_CHECK(wn == 1 || wn == channels,
              "prelu: Mismatch of parameter numbers and input channel size. Found "
              "parameter numbers = ",
              wn, " and channel size = ", channels, ".");
  const Tensor w = wn == 1 ? weight.reshape({}) : weight.view(nn_detail::channel_shape(self.dim(), wn));
  return where(self > 0, self, w * self);
}

Tensor celu(const Tensor& self, const Scalar& alpha) {
  EMBER_VMAP_ELEMENTWISE(self, v, celu(v, alpha));
  EMBER_RECORD_OP("celu", self);
  const double a = alpha.toDouble();
  EMBER_CHECK(a != 0, "celu: ZeroDivisionError (alpha must not be 0)");
  return elu(self, alpha, 1, 1.0 / a);
}
Tensor& celu_(Tensor& self, const Scalar& alpha) {
  EMBER_VMAP_ELEMENTWISE_(self, v, celu_(v, alpha));
  EMBER_RECORD_OP("celu_", self);
  no_inplace_grad(self, "celu_");
  const double a = alpha.toDouble();
  EMBER_CHECK(a != 0, "celu_: ZeroDivisionError (alpha must not be 0)");
  return elu_(self, alpha, 1, 1.0 / a);
}

namespace {
// Slopes for the negative entries: uniform in [lower, upper) (training) or their mean.
Tensor rrelu_noise(const Tensor& self, const Scalar& lower, const Scalar& upper, bool training, OptGen gen) {
  const double lo = lower.toDouble(), hi = upper.toDouble();
  EMBER_CHECK(lo <= hi, "rrelu: Lower bound should be less than or equal to the upper bound, got lower=", lo,
              " and upper=", hi);
  autograd::BelowAutogradGuard no_grad;
  if (!training) return full({}, (lo + hi) / 2, self.options());
  // Under vmap the noise is batched like self, so vmap's randomness mode
  // decides whether samples share it (or, by default, refuses).
  // Drawn in double whatever self's dtype, as ATen draws rrelu's slopes, so a seed gives the same
  // slopes to float and double inputs.
  const TensorOptions d = self.options().dtype(kDouble);
  Tensor u = batching::any_batched(self) ? empty_like(self, d) : empty(self.sizes(), d);
  uniform_(u, lo, hi, gen);
  return where(self <= 0, u.to(self.scalar_type()), ones({}, self.options()));
}
}  // namespace

namespace {
// rrelu from ops with batching rules (so vmap needs no rule of its own).
Tensor rrelu_composite(const Tensor& self, const Scalar& lower, const Scalar& upper, bool training, OptGen generator) {
  check_input("rrelu", self);
  EMBER_CHECK(self.is_floating_point(), "rrelu: expected a floating point input, got ", self.dtype());
  const Tensor noise = rrelu_noise(self, lower, upper, training, generator);
  if (!training) return where(self > 0, self, self * noise);  // x == 0 takes the slope's gradient, as leaky_relu
  return self * noise;
}
}  // namespace

Tensor rrelu(const Tensor& self, const Scalar& lower, const Scalar& upper, bool training, OptGen generator) {
  if (batching::any_batched(self)) [[unlikely]]  // before the profiler scope, which refuses batched inputs
    return rrelu_composite(self, lower, upper, training, generator);
  EMBER_RECORD_OP("rrelu", self);
  return rrelu_composite(self, lower, upper, training, generator);
}
Tensor& rrelu_(Tensor& self, const Scalar& lower, const Scalar& upper, bool training, OptGen generator) {
  EMBER_RECORD_OP("rrelu_", self);
  no_inplace_grad(self, "rrelu_");
  if (!batching::is_batched(self)) ops::assert_no_internal_overlap("rrelu_", self);
  Tensor r = rrelu(self, lower, upper, training, generator);
  return self.copy_(r);
}

Tensor glu(const Tensor& self, int64_t dim) {
  EMBER_VMAP_ON_FRONT(self, v, glu(v, batching::phys_dim(dim, self.dim(), "glu")));
  EMBER_RECORD_OP("glu", self);
  check_input("glu", self);
  EMBER_CHECK(self.dim() > 0, "glu: glu does not support scalars because halving size must be even");
  const int64_t d = wrap_dim(dim, self.dim(), "glu");
  const int64_t n = self.size(d);
  EMBER_CHECK(n % 2 == 0, "glu: Halving dimension must be even, but dimension ", d, " is size ", n);
  return self.narrow(d, 0, n / 2) * self.narrow(d, n / 2, n / 2).sigmoid();
}

Tensor hardshrink(const Tensor& self, const Scalar& lambd) {
  EMBER_VMAP_ELEMENTWISE(self, v, hardshrink(v, lambd));
  EMBER_RECORD_OP("hardshrink", self);
  check_input("hardshrink", self);
  const double l = lambd.toDouble();
  Tensor inside;
  {
    autograd::BelowAutogradGuard no_grad;
    inside = (self >= -l) & (self <= l);
  }
  return where(inside, zeros({}, self.options()), self);
}

Tensor softshrink(const Tensor& self, const Scalar& lambd) {
  EMBER_VMAP_ELEMENTWISE(self, v, softshrink(v, lambd));
  EMBER_RECORD_OP("softshrink", self);
  check_input("softshrink", self);
  const double l = lambd.toDouble();
  EMBER_CHECK(l >= 0, "softshrink: lambda must be greater or equal to 0, but found to be ", l, ".");
  const Tensor zero = zeros({}, self.options());
  return where(self > l, self - l, where(self < -l, self + l, zero));
}

Tensor tanhshrink(const Tensor& self) {
  check_input("tanhshrink", self);
  return self - self.tanh();
}

Tensor log_sigmoid(const Tensor& self) {
  EMBER_VMAP_ELEMENTWISE(self, v, log_sigmoid(v));
  EMBER_RECORD_OP("log_sigmoid", self);
  check_input("log_sigmoid", self);
  // log(sigmoid(x)) = -softplus(-x); softplus keeps it finite for large |x|.
  return -softplus(-self);
}

}  // namespace torch
