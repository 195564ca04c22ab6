// Activations with arguments: gelu, softplus, elu, leaky_relu, logit.
#include "ember/core/record_scope.h"
#include "ember/kernels/cpu/unary_kernels.h"
#include "ember/ops/elementwise/unary.h"

#include "ember/autograd/derivatives/elementwise_grad.h"
#include "ember/autograd/formula_node.h"
#include "ember/vmap/batching_rules.h"

namespace torch {

using kernels::TensorIterator;

namespace {
// Ops with arguments that only take floating inputs.
Tensor run_floating(const char* op, const Tensor& self, Tensor* out, bool inplace,
                    const std::function<void(const TensorIterator&)>& kernel) {
  EMBER_RECORD_OP(op, self);
  EMBER_CHECK(self.defined(), op, ": expected a defined tensor");
  EMBER_CHECK(is_floating_point(self.dtype()), op, ": expected a floating point input, got ", dtype_name(self.dtype()));
  return ops::unary_apply(op, self, self.dtype(), self.dtype(), out, inplace, kernel);
}

bool gelu_is_tanh(std::string_view approximate) {
  EMBER_CHECK(approximate == "none" || approximate == "tanh",
              "gelu: approximate argument must be either none or tanh, got '", approximate, "'");
  return approximate == "tanh";
}
}  // namespace

Tensor gelu(const Tensor& self, std::string_view approximate) {
  EMBER_VMAP_ELEMENTWISE(self, v, gelu(v, approximate));
  const bool t = gelu_is_tanh(approximate);
  Tensor out =
      run_floating("gelu", self, nullptr, false, [&](const TensorIterator& it) { kernels::gelu_kernel(it, t); });
  if (autograd::needs_grad(self)) autograd::record_gelu(self, out, t);
  return out;
}
Tensor& gelu_(Tensor& self, std::string_view approximate) {
  EMBER_VMAP_ELEMENTWISE_(self, v, gelu_(v, approximate));
  const bool t = gelu_is_tanh(approximate);
  run_floating("gelu_", self, &self, true, [&](const TensorIterator& it) { kernels::gelu_kernel(it, t); });
  return self;
}
Tensor& gelu_out(Tensor& out, const Tensor& self, std::string_view approximate) {
  const bool t = gelu_is_tanh(approximate);
  run_floating("gelu", self, &out, false, [&](const TensorIterator& it) { kernels::gelu_kernel(it, t); });
  return out;
}
Tensor Tensor::gelu(std::string_view approximate) const { return ember::gelu(*this, approximate); }

Tensor softplus(const Tensor& self, const Scalar& beta, const Scalar& threshold) {
  EMBER_VMAP_ELEMENTWISE(self, v, softplus(v, beta, threshold));
  Tensor out = run_floating("softplus", self, nullptr, false, [&](const TensorIterator& it) {
    kernels::softplus_kernel(it, beta.toDouble(), threshold.toDouble());
  });
  if (autograd::needs_grad(self)) autograd::record_softplus(self, out, beta.toDouble(), threshold.toDouble());
  return out;
}
Tensor& softplus_out(Tensor& out, const Tensor& self, const Scalar& beta, const Scalar& threshold) {
  run_floating("softplus", self, &out, false,
               [&](const TensorIterator& it) { kernels::softplus_kernel(it, beta.toDouble(), threshold.toDouble()); });
  return out;
}
Tensor Tensor::softplus(const Scalar& beta, const Scalar& threshold) const {
  return ember::softplus(*this, beta, threshold);
}

namespace {
Tensor elu_impl(const char* op, const Tensor& self, Tensor* out, bool inplace, const Scalar& alpha, const Scalar& scale,
                const Scalar& input_scale) {
  return run_floating(op, self, out, inplace, [&](const TensorIterator& it) {  // run_floating records `op`
    kernels::elu_kernel(it, alpha.toDouble(), scale.toDouble(), input_scale.toDouble());
  });
}
}  // namespace
Tensor elu(const Tensor& self, const Scalar& alpha, const Scalar& scale, const Scalar& input_scale) {
  EMBER_VMAP_ELEMENTWISE(self, v, elu(v, alpha, scale, input_scale));
  Tensor out = elu_impl("elu", self, nullptr, false, alpha, scale, input_scale);
  if (autograd::needs_grad(self))
    autograd::record_elu(self, out, alpha.toDouble(), scale.toDouble(), input_scale.toDouble());
  return out;
}
Tensor& elu_(Tensor& self, const Scalar& alpha, const Scalar& scale, const Scalar& input_scale) {
  EMBER_VMAP_ELEMENTWISE_(self, v, elu_(v, alpha, scale, input_scale));
  elu_impl("elu_", self, &self, true, alpha, scale, input_scale);
  return self;
}
Tensor& elu_out(Tensor& out, const Tensor& self, const Scalar& alpha, const Scalar& scale, const Scalar& input_scale) {
  elu_impl("elu", self, &out, false, alpha, scale, input_scale);
  return out;
}
Tensor Tensor::elu(const Scalar& alpha, const Scalar& scale, const Scalar& input_scale) const {
  return ember::elu(*this, alpha, scale, input_scale);
}

Tensor leaky_relu(const Tensor& self, const Scalar& negative_slope) {
  EMBER_VMAP_ELEMENTWISE(self, v, leaky_relu(v, negative_slope));
  Tensor out = run_floating("leaky_relu", self, nullptr, false, [&](const TensorIterator& it) {
    kernels::leaky_relu_kernel(it, negative_slope.toDouble());
  });
  if (autograd::needs_grad(self)) autograd::record_leaky_relu(self, out, negative_slope.toDouble());
  return out;
}
Tensor& leaky_relu_(Tensor& self, const Scalar& negative_slope) {
  EMBER_VMAP_ELEMENTWISE_(self, v, leaky_relu_(v, negative_slope));
  run_floating("leaky_relu_", self, &self, true,
               [&](const TensorIterator& it) { kernels::leaky_relu_kernel(it, negative_slope.toDouble()); });
  return self;
}
Tensor& leaky_relu_out(Tensor& out, const Tensor& self, const Scalar& negative_slope) {
  run_floating("leaky_relu", self, &out, false,
               [&](const TensorIterator& it) { kernels::leaky_relu_kernel(it, negative_slope.toDouble()); });
  return out;
}
Tensor Tensor::leaky_relu(const Scalar& negative_slope) const { return ember::leaky_relu(*this, negative_slope); }
Tensor& Tensor::leaky_relu_(const Scalar& negative_slope) const {
  return ember::leaky_relu_(self_ref(), negative_slope);
}

namespace {
Tensor logit_impl(const char* op, const Tensor& self, std::optional<double> eps, Tensor* out, bool inplace) {
  EMBER_RECORD_OP(op, self);
  EMBER_CHECK(self.defined(), op, ": expected a defined tensor");
  EMBER_CHECK(!self.is_complex(), op, ": not implemented for complex inputs (got ", dtype_name(self.dtype()), ")");
  // Integer and bool inputs promote to the default dtype, as for exp.
  const ScalarType compute = is_integral(self.dtype(), /*include_bool=*/true) ? get_default_dtype() : self.dtype();
  return ops::unary_apply(op, self, compute, compute, out, inplace,
                          [&](const TensorIterator& it) { kernels::logit_kernel(it, eps); });
}
}  // namespace
Tensor logit(const Tensor& self, std::optional<double> eps) {
  EMBER_VMAP_ELEMENTWISE(self, v, logit(v, eps));
  Tensor out = logit_impl("logit", self, eps, nullptr, false);
  if (autograd::needs_grad(self)) autograd::record_logit(self, out, eps);
  return out;
}
Tensor& logit_(Tensor& self, std::optional<double> eps) {
  EMBER_VMAP_ELEMENTWISE_(self, v, logit_(v, eps));
  logit_impl("logit_", self, eps, &self, true);
  return self;
}
Tensor& logit_out(Tensor& out, const Tensor& self, std::optional<double> eps) {
  logit_impl("logit", self, eps, &out, false);
  return out;
}
Tensor Tensor::logit(std::optional<double> eps) const { return ember::logit(*this, eps); }

}  // namespace torch
