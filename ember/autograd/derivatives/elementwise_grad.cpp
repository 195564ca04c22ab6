#include "ember/autograd/derivatives/elementwise_grad.h"

#include <cmath>

#include "ember/autograd/formula_node.h"
#include "ember/autograd/forward_ad.h"
#include "ember/autograd/grad_mode.h"
#include "ember/autograd/node.h"
#include "ember/core/dispatch.h"
#include "ember/core/error.h"
#include "ember/core/parallel.h"
#include "ember/core/shape.h"
#include "ember/core/tensor.h"
#include "ember/ops/all_ops.h"
#include "ember/vmap/vmap.h"

namespace torch::autograd {

namespace {

double scalar(const FormulaNode& n, size_t i) { return n.scalars[i].toDouble(); }

// gelu(x) = x * Phi(x); tanh form: 0.5 x (1 + tanh(k (x + 0.044715 x^3))).
variable_list gelu_backward(const FormulaNode& n, const variable_list& g) {
  const Tensor x = n.saved(0);
  if (n.ints[0] == 0) {
    Tensor cdf = ((x * M_SQRT1_2).erf() + 1) * 0.5;
    Tensor pdf = (x * x * -0.5).exp() * (M_2_SQRTPI * M_SQRT1_2 * 0.5);
    return {g[0] * (cdf + x * pdf)};
  }
  const double k = M_SQRT2 * M_2_SQRTPI * 0.5;  // sqrt(2/pi)
  Tensor inner = (x + x * x * x * 0.044715) * k;
  Tensor t = inner.tanh();
  Tensor dinner = (x * x * (3 * 0.044715) + 1) * k;
  return {g[0] * ((t + 1) * 0.5 + x * 0.5 * (1 - t * t) * dinner)};
}
variable_list softplus_backward(const FormulaNode& n, const variable_list& g) {
  const Tensor x = n.saved(0);
  const double beta = scalar(n, 0), threshold = scalar(n, 1);
  Tensor bx = x * beta;
  return {where(bx > threshold, g[0], g[0] * bx.sigmoid())};
}
variable_list elu_backward(const FormulaNode& n, const variable_list& g) {
  const Tensor x = n.saved(0);
  const double alpha = scalar(n, 0), scale = scalar(n, 1), input_scale = scalar(n, 2);
  return {where(x > 0, g[0] * scale, g[0] * (x * input_scale).exp() * (alpha * scale * input_scale))};
}
variable_list leaky_relu_backward(const FormulaNode& n, const variable_list& g) {
  const Tensor x = n.saved(0);
  return {where(x > 0, g[0], g[0] * scalar(n, 0))};
}
variable_list logit_backward(const FormulaNode& n, const variable_list& g) {
  const Tensor x = n.saved(0);
  Tensor d = g[0] / (x * (1 - x));
  if (n.scalars.empty()) return {d};
  const double eps = scalar(n, 0);
  return {where((x < eps) | (x > 1 - eps), zeros_like(d), d)};
}
variable_list polygamma_backward(const FormulaNode& n, const variable_list& g) {
  return {g[0] * polygamma(n.ints[0] + 1, n.saved(0))};
}
variable_list clamp_backward(const FormulaNode& n, const variable_list& g) {
  const Tensor x = n.saved(0);
  Tensor keep = ones_like(x, TensorOptions(kBool));
  if (n.ints[0]) keep = keep & (x >= n.scalars[0]);
  if (n.ints[1]) keep = keep & (x <= n.scalars[1]);
  return {g[0] * keep};
}

Recorded unary_node(const char* name, FormulaNode::Formula f, const Tensor& self, const Tensor& out) {
  auto node = record(name, f, {self}, {out});
  node->save(self);
  return node;
}

// real(z) and imag(z) for real-valued L (conjugate Wirtinger): grad_z =
// 2 dL/dconj(z), which is g for Re z and i g for Im z. view_as_real and
// view_as_complex reinterpret the same numbers, so each one's gradient is the
// other view of grad. JVPs: the same view of the tangent.
variable_list real_backward(const FormulaNode&, const variable_list& g) { return {complex(g[0], zeros_like(g[0]))}; }
variable_list imag_backward(const FormulaNode&, const variable_list& g) { return {complex(zeros_like(g[0]), g[0])}; }
variable_list view_as_real_backward(const FormulaNode&, const variable_list& g) {
  return {view_as_complex(g[0].contiguous())};
}
variable_list view_as_complex_backward(const FormulaNode&, const variable_list& g) { return {view_as_real(g[0])}; }
variable_list real_jvp(const FormulaNode&, const variable_list& t, const variable_list&) { return {real(t[0])}; }
variable_list imag_jvp(const FormulaNode&, const variable_list& t, const variable_list&) { return {imag(t[0])}; }
variable_list view_as_real_jvp(const FormulaNode&, const variable_list& t, const variable_list&) {
  return {view_as_real(t[0])};
}
variable_list view_as_complex_jvp(const FormulaNode&, const variable_list& t, const variable_list&) {
  return {view_as_complex(t[0].contiguous())};
}

// complex(re, im) = re + i im: the real and imaginary parts of grad.
variable_list complex_backward(const FormulaNode& n, const variable_list& g) {
  return {n.needs_input_grad(0) ? real(g[0]) : Tensor(), n.needs_input_grad(1) ? imag(g[0]) : Tensor()};
}
// polar(r, theta) = r e^{i theta}. Saved: 0 r, 1 theta. With e = e^{i theta}:
// d/dr = e, d/dtheta = i r e, so (conjugate Wirtinger, real inputs)
// grad_r = Re(grad conj(e)), grad_theta = Re(grad conj(i r e)) = r Im(grad conj(e)).
variable_list polar_backward(const FormulaNode& n, const variable_list& g) {
  const Tensor r = n.saved(0), theta = n.saved(1);
  const Tensor ge = g[0] * complex(theta.cos(), theta.sin()).conj();
  return {n.needs_input_grad(0) ? real(ge) : Tensor(), n.needs_input_grad(1) ? r * imag(ge) : Tensor()};
}

// round's gradient: zero, as PyTorch.
variable_list zero_backward(const FormulaNode& n, const variable_list& g) {
  return {n.needs_input_grad(0) && g[0].defined() ? zeros_like(g[0]) : Tensor()};
}
variable_list nan_to_num_backward(const FormulaNode& n, const variable_list& g) {
  return {g[0] * n.saved(0).isfinite()};
}
variable_list angle_backward(const FormulaNode& n, const variable_list& g) {
  const Tensor self = n.saved(0);
  if (!self.is_complex()) return {Tensor()};
  Tensor r = g[0] * self / self.abs().pow(2) * Scalar(std::complex<double>(0.0, 1.0));
  return {where(self == 0, zeros({}, r.options()), r)};
}
variable_list conj_backward(const FormulaNode&, const variable_list& g) { return {g[0].conj()}; }
}  // namespace

namespace {

// Inputs: self, end. scalars: weight.
variable_list lerp_scalar_backward(const FormulaNode& n, const variable_list& g) {
  const Scalar& w = n.scalars[0];
  return {n.needs_input_grad(0) ? g[0] * (1 - w.toDouble()) : Tensor(), n.needs_input_grad(1) ? g[0] * w : Tensor()};
}
// Inputs: self, end, weight. Saved: 0 self, 1 end, 2 weight.
variable_list lerp_tensor_backward(const FormulaNode& n, const variable_list& g) {
  const Tensor weight = n.saved(2);
  return {n.needs_input_grad(0) ? g[0] * (weight.neg() + 1).conj() : Tensor(),
          n.needs_input_grad(1) ? g[0] * weight.conj() : Tensor(),
          n.needs_input_grad(2) ? g[0] * (n.saved(1) - n.saved(0)).conj() : Tensor()};
}
// Inputs: self, tensor1, tensor2. Saved: 0 tensor1, 1 tensor2; scalars: value.
variable_list addcmul_backward(const FormulaNode& n, const variable_list& g) {
  const Scalar& v = n.scalars[0];
  const Tensor t1 = n.saved(0), t2 = n.saved(1);
  return {g[0], n.needs_input_grad(1) ? g[0] * t2.conj() * v : Tensor(),
          n.needs_input_grad(2) ? g[0] * t1.conj() * v : Tensor()};
}
variable_list addcdiv_backward(const FormulaNode& n, const variable_list& g) {
  const Scalar& v = n.scalars[0];
  const Tensor t1 = n.saved(0), t2 = n.saved(1);
  return {g[0], n.needs_input_grad(1) ? g[0] * v / t2.conj() : Tensor(),
          n.needs_input_grad(2) ? (g[0] * v * (t1 / (t2 * t2)).conj()).neg() : Tensor()};
}
// Inputs: self, min, max. Saved: 0 self, 1 min, 2 max (undefined when absent).
// PyTorch's clamp_backward_min_max: with min > max the result is max, so max
// takes the gradient there.
variable_list clamp_tensor_backward(const FormulaNode& n, const variable_list& g) {
  const Tensor self = n.saved(0), min = n.saved(1), max = n.saved(2);
  const Tensor zero = zeros({}, g[0].options());
  Tensor gs, gmin, gmax;
  if (min.defined() && max.defined()) {
    if (n.needs_input_grad(0)) gs = where((self >= min) & (self <= max), g[0], zero);
    if (n.needs_input_grad(1)) gmin = where((self < min) & (min < max), g[0], zero);
    if (n.needs_input_grad(2)) gmax = where((self > max) | (max < min), g[0], zero);
  } else if (min.defined()) {
    if (n.needs_input_grad(0)) gs = where(self >= min, g[0], zero);
    if (n.needs_input_grad(1)) gmin = where(self < min, g[0], zero);
  } else {
    if (n.needs_input_grad(0)) gs = where(self <= max, g[0], zero);
    if (n.needs_input_grad(2)) gmax = where(self > max, g[0], zero);
  }
  return {gs, gmin, gmax};
}

// Saved: 0 self; ints: has_min, has_max; scalars: min, max.
variable_list clamp_scalar_backward(const FormulaNode& n, const variable_list& g) {
  const Tensor self = n.saved(0);
  Tensor keep = ones_like(self, TensorOptions(kBool));
  if (n.ints[0]) keep = keep & (self >= n.scalars[0]);
  if (n.ints[1]) keep = keep & (self <= n.scalars[1]);
  return {g[0] * keep};
}

}  // namespace

void record_clamp_scalar(ClampOp op, const Tensor& self, const Tensor& self_value, const std::optional<Scalar>& min,
                         const std::optional<Scalar>& max, const Tensor& out) {
  const char* name = op == ClampOp::Clamp      ? "ClampBackward1"
                     : op == ClampOp::ClampMin ? "ClampMinBackward0"
                                               : "ClampMaxBackward0";
  auto node = record(name, &clamp_scalar_backward, {self}, {out});
  node->save(self_value);
  node->ints = {min ? 1 : 0, max ? 1 : 0};
  node->scalars = {min.value_or(0), max.value_or(0)};
}

void record_lerp(const Tensor& self, const Tensor& self_value, const Tensor& end, const Scalar& scalar_weight,
                 const Tensor& weight, const Tensor& out) {
  if (!weight.defined()) {
    record("LerpBackward0", &lerp_scalar_backward, {self, end}, {out})->scalars = {scalar_weight};
    return;
  }
  auto node = record("LerpBackward1", &lerp_tensor_backward, {self, end, weight}, {out});
  node->save(self_value);
  node->save(end);
  node->save(weight);
}

void record_addcmul(const Tensor& self, const Tensor& t1, const Tensor& t2, const Scalar& value, const Tensor& out) {
  auto node = record("AddcmulBackward0", &addcmul_backward, {self, t1, t2}, {out});
  node->save(t1);
  node->save(t2);
  node->scalars = {value};
}

void record_addcdiv(const Tensor& self, const Tensor& t1, const Tensor& t2, const Scalar& value, const Tensor& out) {
  auto node = record("AddcdivBackward0", &addcdiv_backward, {self, t1, t2}, {out});
  node->save(t1);
  node->save(t2);
  node->scalars = {value};
}

void record_clamp_tensor(const Tensor& self, const Tensor& self_value, const Tensor& min, const Tensor& max,
                         const Tensor& out) {
  const char* name = !max.defined() ? "ClampMinBackward1" : !min.defined() ? "ClampMaxBackward1" : "ClampBackward0";
  auto node = record(name, &clamp_tensor_backward, {self, min, max}, {out});
  node->save(self_value);
  node->save(min);
  node->save(max);
}

void record_round(const Tensor& self, const Tensor& out, bool with_decimals) {
  record(with_decimals ? "RoundBackward1" : "RoundBackward0", &zero_backward, {self}, {out});
}
void record_nan_to_num(const Tensor& self, const Tensor& out) {
  record("NanToNumBackward0", &nan_to_num_backward, {self}, {out})->save(self);
}
void record_angle(const Tensor& self, const Tensor& out) {
  record("AngleBackward0", &angle_backward, {self}, {out})->save(self);
}

void record_complex_view(ComplexView kind, const Tensor& self, const Tensor& out) {
  switch (kind) {
    case ComplexView::Real:
      record("RealBackward0", &real_backward, {self}, {out})->jvp = &real_jvp;
      break;
    case ComplexView::Imag:
      record("ImagBackward0", &imag_backward, {self}, {out})->jvp = &imag_jvp;
      break;
    case ComplexView::ViewAsReal:
      record("ViewAsRealBackward0", &view_as_real_backward, {self}, {out})->jvp = &view_as_real_jvp;
      break;
    case ComplexView::ViewAsComplex:
      record("ViewAsComplexBackward0", &view_as_complex_backward, {self}, {out})->jvp = &view_as_complex_jvp;
      break;
  }
}

void record_complex(const Tensor& re, const Tensor& im, const Tensor& out) {
  record("ComplexBackward0", &complex_backward, {re, im}, {out});
}
void record_polar(const Tensor& abs, const Tensor& angle, const Tensor& out) {
  auto node = record("PolarBackward0", &polar_backward, {abs, angle}, {out});
  node->save(abs);
  node->save(angle);
}

void record_not_implemented(const char* reason, TensorList inputs, const Tensor& out) {
  auto node = record("torch::autograd::NotImplemented", &FormulaNode::not_implemented, inputs, {out});
  node->not_implemented_reason = reason;
}
void record_gelu(const Tensor& self, const Tensor& out, bool tanh_approx) {
  unary_node("GeluBackward0", &gelu_backward, self, out)->ints = {tanh_approx ? 1 : 0};
}
void record_softplus(const Tensor& self, const Tensor& out, double beta, double threshold) {
  unary_node("SoftplusBackward0", &softplus_backward, self, out)->scalars = {beta, threshold};
}
void record_elu(const Tensor& self, const Tensor& out, double alpha, double scale, double input_scale) {
  unary_node("EluBackward0", &elu_backward, self, out)->scalars = {alpha, scale, input_scale};
}
void record_leaky_relu(const Tensor& self, const Tensor& out, double slope) {
  unary_node("LeakyReluBackward0", &leaky_relu_backward, self, out)->scalars = {slope};
}
void record_logit(const Tensor& self, const Tensor& out, std::optional<double> eps) {
  auto node = unary_node("LogitBackward0", &logit_backward, self, out);
  if (eps) node->scalars = {*eps};
}
void record_polygamma(const Tensor& self, const Tensor& self_value, const Tensor& out, int64_t n) {
  auto node = record("PolygammaBackward0", &polygamma_backward, {self}, {out});
  node->save(self_value);
  node->ints = {n};
}
void record_clamp(const Tensor& self, const Tensor& out, const std::optional<Scalar>& min,
                  const std::optional<Scalar>& max) {
  auto node = unary_node("ClampBackward1", &clamp_backward, self, out);
  node->ints = {min ? 1 : 0, max ? 1 : 0};
  node->scalars = {min.value_or(0), max.value_or(0)};
}

void record_conj(const Tensor& self, const Tensor& out) { record("ConjBackward0", &conj_backward, {self}, {out}); }

}  // namespace torch::autograd
