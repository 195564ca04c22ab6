#include "ember/autograd/derivatives/misc_grad.h"

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

namespace ember::autograd {

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
variable_list cat_backward(const FormulaNode& n, const variable_list& g) {
  variable_list out;
  int64_t offset = 0;
  const int64_t dim = n.ints[0];
  for (size_t i = 1; i < n.ints.size(); ++i) {
    const int64_t len = n.ints[i];
    out.push_back(len < 0 ? Tensor() : g[0].narrow(dim, offset, len));
    if (len > 0) offset += len;
  }
  return out;
}
variable_list flip_backward(const FormulaNode& n, const variable_list& g) { return {g[0].flip(n.ints)}; }
variable_list cumsum_backward(const FormulaNode& n, const variable_list& g) {
  const int64_t d = n.ints[0];
  return {g[0].flip({d}).cumsum(d).flip({d})};
}
variable_list masked_fill_backward(const FormulaNode& n, const variable_list& g) {
  return {g[0].masked_fill(n.saved(0), 0), Tensor()};
}
variable_list index_select_backward(const FormulaNode& n, const variable_list& g) {
  Tensor r = g[0].new_zeros(n.shapes[0]);
  return {r.index_add(n.ints[0], n.saved(0), g[0]), Tensor()};
}
variable_list gather_backward(const FormulaNode& n, const variable_list& g) {
  Tensor r = g[0].new_zeros(n.shapes[0]);
  return {r.scatter_add(n.ints[0], n.saved(0), g[0]), Tensor()};
}

variable_list identity_backward(const FormulaNode&, const variable_list& g) { return {g[0]}; }

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
}  // namespace

void record_clone(const Tensor& self, const Tensor& out) {
  record("CloneBackward0", &identity_backward, {self}, {out});
}
void record_to_copy(const Tensor& self, const Tensor& out) {
  record("ToCopyBackward0", &identity_backward, {self}, {out});
}
namespace {
// The overwritten values get a zero gradient, not none: as PyTorch, a leaf
// behind copy_/fill_/zero_ ends up with .grad = zeros.
Tensor overwritten_grad(const FormulaNode& n, const Tensor& g) {
  return n.needs_input_grad(0) && g.defined() ? zeros_like(g) : Tensor();
}
variable_list copy_backward(const FormulaNode& n, const variable_list& g) {
  return {overwritten_grad(n, g[0]), n.needs_input_grad(1) && g[0].defined() ? g[0] : Tensor()};
}
variable_list fill_backward(const FormulaNode& n, const variable_list& g) {
  return {overwritten_grad(n, g[0]), n.needs_input_grad(1) && g[0].defined() ? g[0].sum() : Tensor()};
}
}  // namespace

namespace {
variable_list zero_backward(const FormulaNode& n, const variable_list& g) { return {overwritten_grad(n, g[0])}; }
variable_list nan_to_num_backward(const FormulaNode& n, const variable_list& g) {
  return {g[0] * n.saved(0).isfinite()};
}
variable_list angle_backward(const FormulaNode& n, const variable_list& g) {
  const Tensor self = n.saved(0);
  if (!self.is_complex()) return {Tensor()};
  Tensor r = g[0] * self / self.abs().pow(2) * Scalar(std::complex<double>(0.0, 1.0));
  return {where(self == 0, zeros({}, r.options()), r)};
}
}  // namespace

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

void record_copy_(const Tensor& self, const Tensor& src) {
  record("CopyBackwards", &copy_backward, {self, src}, {self});
}
void record_not_implemented(const char* reason, TensorList inputs, const Tensor& out) {
  auto node = record("torch::autograd::NotImplemented", &FormulaNode::not_implemented, inputs, {out});
  node->not_implemented_reason = reason;
}
void record_fill_(const Tensor& self, const Tensor& value) {
  record(value.defined() ? "FillBackward1" : "FillBackward0", &fill_backward, {self, value}, {self});
}
void record_zero_(const Tensor& self) { record("ZeroBackward0", &fill_backward, {self, Tensor()}, {self}); }
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
void record_cat(TensorList inputs, const Tensor& out, int64_t dim, const DimVector& lengths) {
  auto node = record("CatBackward0", &cat_backward, inputs, {out});
  node->ints = {dim};
  for (int64_t len : lengths) node->ints.push_back(len);
}
void record_flip(const Tensor& self, const Tensor& out, IntArrayRef dims) {
  record("FlipBackward0", &flip_backward, {self}, {out})->ints = DimVector(dims);
}
void record_cumsum(const Tensor& self, const Tensor& out, int64_t dim) {
  record("CumsumBackward0", &cumsum_backward, {self}, {out})->ints = {dim};
}
void record_masked_fill(const Tensor& self, const Tensor& mask, const Tensor& out) {
  auto node = record("MaskedFillBackward0", &masked_fill_backward, {self, mask}, {out});
  node->save(mask);
}
void record_index_select(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& out) {
  auto node = record("IndexSelectBackward0", &index_select_backward, {self, index}, {out});
  node->save(index);
  node->ints = {dim};
  node->shapes.push_back(DimVector(self.sizes()));
}
void record_gather(const Tensor& self, int64_t dim, const Tensor& index, const Tensor& out) {
  auto node = record("GatherBackward0", &gather_backward, {self, index}, {out});
  node->save(index);
  node->ints = {dim};
  node->shapes.push_back(DimVector(self.sizes()));
}

}  // namespace ember::autograd
