#include "ember/ops/nn/normalization.h"
#include "ember/core/record_scope.h"
#include "ember/ops/nn/normalization_backward.h"

#include "ember/autograd/derivatives/nn_norm_grad.h"
#include "ember/autograd/formula_node.h"
#include "ember/core/shape.h"
#include "ember/kernels/cpu/norm_kernels.h"
#include "ember/ops/elementwise/binary.h"
#include "ember/ops/elementwise/operators.h"
#include "ember/ops/elementwise/unary.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/nn/nn_util.h"
#include "ember/ops/reduce/reduce.h"
#include "ember/ops/shape/copy.h"
#include "ember/ops/shape/shape_ops.h"
#include "ember/vmap/rules_nn.h"

namespace torch {
namespace {

using nn_detail::opt;

// Kernels run in float32/float64; the half types compute in float32.
ScalarType compute_dtype(const Tensor& input, const char* op) {
  EMBER_CHECK(input.is_floating_point(), op, ": expected a floating point input, got ", input.dtype());
  return input.dtype() == kDouble ? kDouble : kFloat;
}

Tensor as_compute(const Tensor& t, ScalarType ct) { return t.defined() ? ops::cast(t, ct).contiguous() : Tensor(); }

void check_channel_param(const char* op, const Tensor& t, const char* name, int64_t c) {
  if (t.defined()) EMBER_CHECK(t.numel() == c, op, ": ", name, " should contain ", c, " elements not ", t.numel());
}

}  // namespace

Tensor batch_norm(const Tensor& input, const std::optional<Tensor>& weight_opt, const std::optional<Tensor>& bias_opt,
                  const std::optional<Tensor>& running_mean_opt, const std::optional<Tensor>& running_var_opt,
                  bool training, double momentum, double eps, bool /*cudnn_enabled*/) {
  if (batching::any_batched(input, weight_opt, bias_opt, running_mean_opt, running_var_opt)) [[unlikely]]
    return batching::batch_norm_batched(input, opt(weight_opt), opt(bias_opt), opt(running_mean_opt),
                                        opt(running_var_opt), training, momentum, eps, false);
  EMBER_RECORD_OP("batch_norm", input);
  const char* op = "batch_norm";
  const Tensor weight = opt(weight_opt), bias = opt(bias_opt);
  Tensor running_mean = opt(running_mean_opt), running_var = opt(running_var_opt);
  EMBER_CHECK(input.defined(), op, ": expected a defined input");
  EMBER_CHECK(input.dim() >= 2, op, ": expected input of shape (N, C, ...) with at least 2 dims, got ",
              shape_str(input.sizes()));
  const ScalarType ct = compute_dtype(input, op);
  const int64_t n = input.size(0), c = input.size(1);
  const int64_t s = n * c == 0 ? 0 : input.numel() / (n * c);
  check_channel_param(op, weight, "weight", c);
  check_channel_param(op, bias, "bias", c);
  check_channel_param(op, running_mean, "running_mean", c);
  check_channel_param(op, running_var, "running_var", c);
  EMBER_CHECK(training || (running_mean.defined() && running_var.defined()), op,
              ": running_mean and running_var must be defined in evaluation mode");
  if (training)
    EMBER_CHECK(n * s != 1, op, ": Expected more than 1 value per channel when training, got input size ",
                shape_str(input.sizes()));
  if (input.numel() == 0) {
    // An empty batch: an empty result that still depends on the parameters (their
    // gradients are zeros), running statistics untouched, as PyTorch does.
    Tensor out = input.clone();
    if (weight.defined() && c > 0) out = out * weight.select(0, 0);
    if (bias.defined() && c > 0) out = out + bias.select(0, 0);
    return out;
  }

  const Tensor x = as_compute(input, ct);
  Tensor mean, invstd;
  {
    autograd::BelowAutogradGuard no_grad;
    if (training) {
      mean = empty({c}, x.options());
      Tensor var = empty({c}, x.options());
      kernels::channel_stats(x, n, c, s, mean, var);
      invstd = (var + eps).rsqrt();
      const double m = static_cast<double>(n * s);
      if (running_mean.defined()) running_mean.mul_(1 - momentum).add_(mean * momentum);
      if (running_var.defined()) running_var.mul_(1 - momentum).add_(var * (momentum * m / (m - 1)));
    } else {
      mean = as_compute(running_mean, ct).clone();  // the backward must not see later updates
      invstd = (as_compute(running_var, ct) + eps).rsqrt();
    }
  }
  Tensor y = empty(x.sizes(), x.options());
  {
    autograd::BelowAutogradGuard no_grad;
    Tensor scale = weight.defined() ? as_compute(weight, ct) * invstd : invstd;
    Tensor shift = (bias.defined() ? as_compute(bias, ct) : zeros({c}, x.options())) - mean * scale;
    kernels::channel_affine(x, n, c, s, scale.contiguous(), shift.contiguous(), y);
  }
  if (y.dtype() != input.dtype()) y = ops::cast(y, input.dtype());
  if (autograd::needs_grad(input, weight, bias))
    autograd::record_batch_norm(input, weight, bias, y, mean, invstd, training, eps);
  return y;
}

namespace detail {
std::tuple<Tensor, Tensor, Tensor> batch_norm_backward_fast(const Tensor& grad, const Tensor& input,
                                                            const Tensor& weight, const Tensor& mean,
                                                            const Tensor& invstd, bool need_input, bool need_weight,
                                                            bool need_bias) {
  const ScalarType ct = compute_dtype(input, "batch_norm_backward");
  const Tensor x = as_compute(input, ct), g = as_compute(grad, ct);
  const int64_t n = x.size(0), c = x.size(1);
  const int64_t s = n * c == 0 ? 0 : x.numel() / (n * c);
  Tensor gi = need_input ? empty(x.sizes(), x.options()) : Tensor();
  Tensor gw = need_weight ? empty({c}, x.options()) : Tensor();
  Tensor gb = need_bias ? empty({c}, x.options()) : Tensor();
  kernels::batch_norm_backward_train(g, x, n, c, s, as_compute(mean, ct), as_compute(invstd, ct),
                                     as_compute(weight, ct), gi, gw, gb);
  return {gi, gw, gb};
}
std::tuple<Tensor, Tensor, Tensor> layer_norm_backward_fast(const Tensor& grad, const Tensor& input,
                                                            int64_t normalized_dims, const Tensor& weight,
                                                            const Tensor& mean, const Tensor& rstd, bool need_input,
                                                            bool need_weight, bool need_bias) {
  const ScalarType ct = compute_dtype(input, "layer_norm_backward");
  const Tensor x = as_compute(input, ct);
  int64_t cols = 1;
  for (int64_t d = x.dim() - normalized_dims; d < x.dim(); ++d) cols *= x.size(d);
  // A gradient broadcast over the rows (y.sum().backward() sends an expanded scalar) is
  // read as its one row instead of being copied out to the input's size.
  const int64_t lead = x.dim() - normalized_dims;
  bool same_rows = grad.dim() == x.dim() && !grad.is_contiguous();
  for (int64_t d = 0; same_rows && d < lead; ++d) same_rows = grad.stride(d) == 0 || grad.size(d) == 1;
  Tensor g = grad;
  for (int64_t d = 0; same_rows && d < lead; ++d) g = g.select(0, 0);
  g = as_compute(g, ct);
  const int64_t g_row_stride = same_rows ? 0 : cols;
  const int64_t rows = cols == 0 ? 0 : x.numel() / cols;
  const IntArrayRef wshape = x.sizes().slice(static_cast<size_t>(x.dim() - normalized_dims));
  Tensor gi = need_input ? empty(x.sizes(), x.options()) : Tensor();
  Tensor gw = need_weight ? empty(wshape, x.options()) : Tensor();
  Tensor gb = need_bias ? empty(wshape, x.options()) : Tensor();
  kernels::layer_norm_backward_rows(g, g_row_stride, x, rows, cols, as_compute(mean, ct), as_compute(rstd, ct),
                                    as_compute(weight, ct), gi, gw, gb);
  return {gi, gw, gb};
}
}  // namespace detail

Tensor layer_norm(const Tensor& input, IntArrayRef normalized_shape, const std::optional<Tensor>& weight_opt,
                  const std::optional<Tensor>& bias_opt, double eps, bool /*cudnn_enable*/) {
  if (batching::any_batched(input, weight_opt, bias_opt)) [[unlikely]]
    return batching::layer_norm_batched(input, normalized_shape, opt(weight_opt), opt(bias_opt), eps);
  EMBER_RECORD_OP("layer_norm", input);
  const char* op = "layer_norm";
  const Tensor weight = opt(weight_opt), bias = opt(bias_opt);
  EMBER_CHECK(input.defined(), op, ": expected a defined input");
  const int64_t k = static_cast<int64_t>(normalized_shape.size());
  EMBER_CHECK(k >= 1, op,
              ": Expected normalized_shape to be at least 1-dimensional, i.e., containing at least one element, but "
              "got normalized_shape = []");
  const bool shape_ok = input.dim() >= k && input.sizes().slice(input.dim() - k) == normalized_shape;
  EMBER_CHECK(
      shape_ok, op, ": Given normalized_shape=", shape_str(normalized_shape), ", expected input with shape [*",
      [&] {
        std::string t;
        for (int64_t v : normalized_shape) t += ", " + std::to_string(v);
        return t;
      }(),
      "], but got input of size", shape_str(input.sizes()));
  if (weight.defined())
    EMBER_CHECK(weight.sizes() == normalized_shape, op,
                ": Expected weight to be of same shape as normalized_shape, but got weight of shape ",
                shape_str(weight.sizes()), " and normalized_shape = ", shape_str(normalized_shape));
  if (bias.defined())
    EMBER_CHECK(bias.sizes() == normalized_shape, op,
                ": Expected bias to be of same shape as normalized_shape, but got bias of shape ",
                shape_str(bias.sizes()), " and normalized_shape = ", shape_str(normalized_shape));
  const ScalarType ct = compute_dtype(input, op);
  int64_t cols = 1;
  for (int64_t v : normalized_shape) cols *= v;
  const int64_t rows = cols == 0 ? 0 : input.numel() / cols;
  const Tensor x = as_compute(input, ct);
  Tensor y = empty(x.sizes(), x.options());
  Tensor mean = empty({rows}, x.options()), rstd = empty({rows}, x.options());
  kernels::layer_norm_rows(x, rows, cols, as_compute(weight, ct), as_compute(bias, ct), eps, y, mean, rstd);
  if (y.dtype() != input.dtype()) y = ops::cast(y, input.dtype());
  if (autograd::needs_grad(input, weight, bias))
    autograd::record_layer_norm(input, weight, bias, y, k, eps, mean, rstd);
  return y;
}

Tensor group_norm(const Tensor& input, int64_t num_groups, const std::optional<Tensor>& weight_opt,
                  const std::optional<Tensor>& bias_opt, double eps, bool /*cudnn_enabled*/) {
  // Composite (reshape, layer_norm, view, mul, add): each takes batched inputs.
  EMBER_RECORD_COMPOSITE_OP("group_norm", input, weight_opt, bias_opt);
  const char* op = "group_norm";
  const Tensor weight = opt(weight_opt), bias = opt(bias_opt);
  EMBER_CHECK(input.defined(), op, ": expected a defined input");
  EMBER_CHECK(input.dim() >= 2, op, ": Expected at least 2 dimensions for input tensor but received ", input.dim());
  const int64_t n = input.size(0), c = input.size(1);
  EMBER_CHECK(num_groups > 0 && c % num_groups == 0, op,
              ": Expected number of channels in input to be divisible by num_groups, but got input of shape ",
              shape_str(input.sizes()), " and num_groups=", num_groups);
  for (const Tensor* t : {&weight, &bias})
    if (t->defined())
      EMBER_CHECK(t->dim() == 1 && t->numel() == c, op,
                  ": Expected weight to be a vector of size equal to the number of channels in input, but got "
                  "weight of shape ",
                  shape_str(t->sizes()), " and input of shape ", shape_str(input.sizes()));
  // Each (n, group) is one layer_norm row.
  const int64_t per_group = n * num_groups == 0 ? 0 : input.numel() / (n * num_groups);
  Tensor xg = input.reshape({n, num_groups, per_group});
  Tensor y = layer_norm(xg, {per_group}, {}, {}, eps).view(input.sizes());
  const DimVector cs = nn_detail::channel_shape(input.dim(), c);
  if (weight.defined()) y = y * weight.view(cs);
  if (bias.defined()) y = y + bias.view(cs);
  return y;
}

Tensor instance_norm(const Tensor& input, const std::optional<Tensor>& weight_opt,
                     const std::optional<Tensor>& bias_opt, const std::optional<Tensor>& running_mean_opt,
                     const std::optional<Tensor>& running_var_opt, bool use_input_stats, double momentum, double eps,
                     bool cudnn_enabled) {
  if (batching::any_batched(input, weight_opt, bias_opt, running_mean_opt, running_var_opt)) [[unlikely]]
    return batching::batch_norm_batched(input, opt(weight_opt), opt(bias_opt), opt(running_mean_opt),
                                        opt(running_var_opt), use_input_stats, momentum, eps, true);
  EMBER_RECORD_OP("instance_norm", input);
  const char* op = "instance_norm";
  const Tensor weight = opt(weight_opt), bias = opt(bias_opt);
  Tensor running_mean = opt(running_mean_opt), running_var = opt(running_var_opt);
  EMBER_CHECK(input.defined(), op, ": expected a defined input");
  EMBER_CHECK(use_input_stats || (running_mean.defined() && running_var.defined()), op,
              ": Expected running_mean and running_var to be defined when use_input_stats is false");
  EMBER_CHECK(input.dim() >= 2, op, ": expected input of shape (N, C, ...), got ", shape_str(input.sizes()));
  const int64_t b = input.size(0), c = input.size(1);
  check_channel_param(op, weight, "weight", c);
  check_channel_param(op, bias, "bias", c);
  check_channel_param(op, running_mean, "running_mean", c);
  check_channel_param(op, running_var, "running_var", c);
  // Parameters repeated over the batch with differentiable expand + reshape.
  auto repeat = [&](const Tensor& t) { return t.defined() ? t.reshape({1, c}).expand({b, c}).reshape({b * c}) : t; };
  Tensor rm, rv;
  {
    autograd::BelowAutogradGuard no_grad;
    rm = running_mean.defined() ? repeat(running_mean).contiguous() : Tensor();
    rv = running_var.defined() ? repeat(running_var).contiguous() : Tensor();
  }
  DimVector shape(input.sizes());
  shape[0] = 1;
  shape[1] = b * c;
  Tensor out = batch_norm(input.contiguous().view(shape), repeat(weight), repeat(bias), rm, rv, use_input_stats,
                          momentum, eps, cudnn_enabled);
  {
    autograd::BelowAutogradGuard no_grad;
    if (running_mean.defined()) running_mean.copy_(rm.view({b, c}).mean({0}, false));
    if (running_var.defined()) running_var.copy_(rv.view({b, c}).mean({0}, false));
  }
  return out.view(input.sizes());
}

Tensor local_response_norm(const Tensor& input, int64_t size, double alpha, double beta, double k) {
  const char* op = "local_response_norm";
  EMBER_CHECK(input.defined(), op, ": expected a defined input");
  EMBER_CHECK(input.dim() >= 3, op, ": Expected 3D or higher dimensionality input (got ", input.dim(), " dimensions)");
  EMBER_CHECK(size >= 1, op, ": size must be positive, got ", size);
  if (input.numel() == 0) return input;
  const int64_t c = input.size(1);
  // avg_pool over `size` channels of x^2, zero padded by size/2 before and (size-1)/2 after.
  DimVector front(input.sizes()), back(input.sizes());
  front[1] = size / 2;
  back[1] = (size - 1) / 2;
  Tensor sq = input * input;
  Tensor padded = cat({zeros(front, sq.options()), sq, zeros(back, sq.options())}, 1);
  Tensor acc = padded.narrow(1, 0, c);
  for (int64_t j = 1; j < size; ++j) acc = acc + padded.narrow(1, j, c);
  Tensor div = (acc * (alpha / static_cast<double>(size)) + k).pow(beta);
  return input / div;
}

}  // namespace torch
