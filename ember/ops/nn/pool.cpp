// Pooling front end: argument checks and output sizes as PyTorch computes
// them; the work is in pool_ops.cpp and the loops in
// kernels/cpu/pool_kernels.cpp (Note [Pooling kernels]).
#include "ember/ops/nn/pool.h"
#include "ember/core/record_scope.h"

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
#include "ember/ops/nn/pool_ops.h"
#include "ember/vmap/rules_nn.h"
#include "ember/vmap/vmap.h"

namespace ember {

namespace {

using pool::PoolSpec;

DimVector expand(const char* op, const char* what, IntArrayRef v, int64_t nd, IntArrayRef fallback = {}) {
  if (v.empty() && !fallback.empty()) return DimVector(fallback);
  EMBER_CHECK(v.size() == 1 || static_cast<int64_t>(v.size()) == nd, op, ": ", what,
              " must either be a single int, or a tuple of ", nd, " ints, but got ", what, "=", v);
  DimVector r(nd, v[0]);
  if (v.size() != 1)
    for (int64_t i = 0; i < nd; ++i) r[i] = v[i];
  return r;
}

void check_input(const char* op, const Tensor& self, int64_t nd) {
  EMBER_CHECK(self.dim() == nd + 1 || self.dim() == nd + 2, op, ": expected ", nd + 1, "D or ", nd + 2,
              "D (batch mode) tensor with optional 0 dim batch size for input, but got input of size ",
              shape_str(self.sizes()));
  for (int64_t d = 0; d < self.dim(); ++d) {
    if (d == 0 && self.dim() == nd + 2) continue;
    EMBER_CHECK(self.size(d) > 0, op, ": expected input to have non-zero size for non-batch dimensions, but got ",
                shape_str(self.sizes()));
  }
  EMBER_CHECK(self.scalar_type() == kFloat || self.scalar_type() == kDouble, op,
              ": supports float32 and float64 inputs, but got ", self.scalar_type());
}

int64_t floor_div(int64_t a, int64_t b) { return a >= 0 ? a / b : -((-a + b - 1) / b); }

// PyTorch's pooling_output_shape.
int64_t pooled_size(int64_t in, int64_t k, int64_t s, int64_t p, int64_t d, bool ceil_mode) {
  int64_t out = floor_div(in + 2 * p - d * (k - 1) - 1 + (ceil_mode ? s - 1 : 0), s) + 1;
  if (ceil_mode && (out - 1) * s >= in + p) --out;
  return out;
}

PoolSpec window_spec(const char* op, const Tensor& self, int64_t nd, IntArrayRef kernel_size, IntArrayRef stride,
                     IntArrayRef padding, IntArrayRef dilation, bool ceil_mode, bool is_max) {
  check_input(op, self, nd);
  PoolSpec s;
  s.nd = nd;
  s.kernel = expand(op, "kernel_size", kernel_size, nd);
  s.stride = expand(op, "stride", stride, nd, s.kernel);
  s.padding = expand(op, "padding", padding, nd);
  s.dilation = expand(op, "dilation", dilation, nd);
  for (int64_t i = 0; i < nd; ++i) {
    const int64_t k = s.kernel[i], st = s.stride[i], p = s.padding[i], d = s.dilation[i];
    EMBER_CHECK(k > 0, op, ": kernel size should be greater than zero, but got kernel_size=", IntArrayRef(s.kernel));
    EMBER_CHECK(st > 0, op, ": stride should be greater than zero, but got stride=", IntArrayRef(s.stride));
    EMBER_CHECK(d > 0, op, ": dilation should be greater than zero, but got dilation=", IntArrayRef(s.dilation));
    EMBER_CHECK(p >= 0 && p <= (is_max ? ((k - 1) * d + 1) / 2 : k / 2), op, ": pad should be at most half of ",
                is_max ? "effective " : "", "kernel size, but got pad=", p, ", kernel_size=", k, " and dilation=", d);
    const int64_t in = self.size(self.dim() - nd + i);
    s.in_size.push_back(in);
    s.out_size.push_back(pooled_size(in, k, st, p, d, ceil_mode));
  }
  for (int64_t o : s.out_size)
    EMBER_CHECK(o > 0, op, ": given input size ", shape_str(self.sizes()), ", calculated output size ",
                IntArrayRef(s.out_size), " is too small");
  return s;
}

// Values only (max_pool1d/2d): Note [Max pooling positions].
Tensor max_pool_values_n(const char* op, int64_t nd, const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                         IntArrayRef padding, IntArrayRef dilation, bool ceil_mode) {
  const PoolSpec s = window_spec(op, self, nd, kernel_size, stride, padding, dilation, ceil_mode, true);
  return pool::max_forward_values(self, s);
}

std::tuple<Tensor, Tensor> max_pool_n(const char* op, int64_t nd, const Tensor& self, IntArrayRef kernel_size,
                                      IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation, bool ceil_mode) {
  const PoolSpec s = window_spec(op, self, nd, kernel_size, stride, padding, dilation, ceil_mode, true);
  return pool::max_forward(self, s);
}

Tensor avg_pool_n(const char* op, int64_t nd, const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                  IntArrayRef padding, bool ceil_mode, bool count_include_pad, std::optional<int64_t> divisor) {
  EMBER_VMAP_FOLD_N(self, nd + 2, true, op, v,
                    avg_pool_n(op, nd, v, kernel_size, stride, padding, ceil_mode, count_include_pad, divisor));
  EMBER_RECORD_OP(op, self);
  PoolSpec s = window_spec(op, self, nd, kernel_size, stride, padding, 1, ceil_mode, false);
  EMBER_CHECK(!divisor || *divisor != 0, op, ": divisor must be not zero");
  s.count_include_pad = count_include_pad;
  s.divisor_override = divisor.value_or(0);
  return pool::avg_forward(self, s);
}

PoolSpec adaptive_spec(const char* op, const Tensor& self, int64_t nd, IntArrayRef output_size) {
  check_input(op, self, nd);
  PoolSpec s;
  s.nd = nd;
  s.adaptive = true;
  EMBER_CHECK(static_cast<int64_t>(output_size.size()) == nd, op, ": output_size must be ", nd,
              " ints, but got output_size=", output_size);
  for (int64_t i = 0; i < nd; ++i) {
    EMBER_CHECK(output_size[i] >= 0, op, ": elements of output_size must be greater than or equal to 0 but got ",
                output_size);
    s.in_size.push_back(self.size(self.dim() - nd + i));
    s.out_size.push_back(output_size[i]);
    s.kernel.push_back(1);
    s.stride.push_back(1);
    s.padding.push_back(0);
    s.dilation.push_back(1);
  }
  return s;
}

}  // namespace

std::tuple<Tensor, Tensor> max_pool1d_with_indices(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                                                   IntArrayRef padding, IntArrayRef dilation, bool ceil_mode) {
  EMBER_VMAP_FOLD_N(self, 3, true, "max_pool1d", v,
                    max_pool1d_with_indices(v, kernel_size, stride, padding, dilation, ceil_mode));
  EMBER_RECORD_OP("max_pool1d_with_indices", self);
  return max_pool_n("max_pool1d", 1, self, kernel_size, stride, padding, dilation, ceil_mode);
}
std::tuple<Tensor, Tensor> max_pool2d_with_indices(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                                                   IntArrayRef padding, IntArrayRef dilation, bool ceil_mode) {
  EMBER_VMAP_FOLD_N(self, 4, true, "max_pool2d", v,
                    max_pool2d_with_indices(v, kernel_size, stride, padding, dilation, ceil_mode));
  EMBER_RECORD_OP("max_pool2d_with_indices", self);
  return max_pool_n("max_pool2d", 2, self, kernel_size, stride, padding, dilation, ceil_mode);
}
std::tuple<Tensor, Tensor> max_pool3d_with_indices(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride,
                                                   IntArrayRef padding, IntArrayRef dilation, bool ceil_mode) {
  EMBER_VMAP_FOLD_N(self, 5, true, "max_pool3d", v,
                    max_pool3d_with_indices(v, kernel_size, stride, padding, dilation, ceil_mode));
  EMBER_RECORD_OP("max_pool3d_with_indices", self);
  return max_pool_n("max_pool3d", 3, self, kernel_size, stride, padding, dilation, ceil_mode);
}
Tensor max_pool1d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
                  IntArrayRef dilation, bool ceil_mode) {
  EMBER_VMAP_FOLD_N(self, 3, true, "max_pool1d", v, max_pool1d(v, kernel_size, stride, padding, dilation, ceil_mode));
  EMBER_RECORD_OP("max_pool1d", self);
  return max_pool_values_n("max_pool1d", 1, self, kernel_size, stride, padding, dilation, ceil_mode);
}
Tensor max_pool2d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
                  IntArrayRef dilation, bool ceil_mode) {
  EMBER_VMAP_FOLD_N(self, 4, true, "max_pool2d", v, max_pool2d(v, kernel_size, stride, padding, dilation, ceil_mode));
  EMBER_RECORD_OP("max_pool2d", self);
  return max_pool_values_n("max_pool2d", 2, self, kernel_size, stride, padding, dilation, ceil_mode);
}
Tensor max_pool3d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding,
                  IntArrayRef dilation, bool ceil_mode) {
  EMBER_VMAP_FOLD_N(self, 5, true, "max_pool3d", v, max_pool3d(v, kernel_size, stride, padding, dilation, ceil_mode));
  EMBER_RECORD_OP("max_pool3d", self);
  return std::get<0>(max_pool3d_with_indices(self, kernel_size, stride, padding, dilation, ceil_mode));
}

Tensor avg_pool1d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding, bool ceil_mode,
                  bool count_include_pad) {
  return avg_pool_n("avg_pool1d", 1, self, kernel_size, stride, padding, ceil_mode, count_include_pad, std::nullopt);
}
Tensor avg_pool2d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding, bool ceil_mode,
                  bool count_include_pad, std::optional<int64_t> divisor_override) {
  return avg_pool_n("avg_pool2d", 2, self, kernel_size, stride, padding, ceil_mode, count_include_pad,
                    divisor_override);
}
Tensor avg_pool3d(const Tensor& self, IntArrayRef kernel_size, IntArrayRef stride, IntArrayRef padding, bool ceil_mode,
                  bool count_include_pad, std::optional<int64_t> divisor_override) {
  return avg_pool_n("avg_pool3d", 3, self, kernel_size, stride, padding, ceil_mode, count_include_pad,
                    divisor_override);
}

Tensor adaptive_avg_pool1d(const Tensor& self, IntArrayRef output_size) {
  EMBER_VMAP_FOLD_N(self, 3, true, "adaptive_avg_pool1d", v, adaptive_avg_pool1d(v, output_size));
  EMBER_RECORD_OP("adaptive_avg_pool1d", self);
  return pool::avg_forward(self, adaptive_spec("adaptive_avg_pool1d", self, 1, output_size));
}
Tensor adaptive_avg_pool2d(const Tensor& self, IntArrayRef output_size) {
  EMBER_VMAP_FOLD_N(self, 4, true, "adaptive_avg_pool2d", v, adaptive_avg_pool2d(v, output_size));
  EMBER_RECORD_OP("adaptive_avg_pool2d", self);
  return pool::avg_forward(self, adaptive_spec("adaptive_avg_pool2d", self, 2, output_size));
}
Tensor adaptive_avg_pool3d(const Tensor& self, IntArrayRef output_size) {
  EMBER_VMAP_FOLD_N(self, 5, true, "adaptive_avg_pool3d", v, adaptive_avg_pool3d(v, output_size));
  EMBER_RECORD_OP("adaptive_avg_pool3d", self);
  return pool::avg_forward(self, adaptive_spec("adaptive_avg_pool3d", self, 3, output_size));
}
std::tuple<Tensor, Tensor> adaptive_max_pool1d(const Tensor& self, IntArrayRef output_size) {
  EMBER_VMAP_FOLD_N(self, 3, true, "adaptive_max_pool1d", v, adaptive_max_pool1d(v, output_size));
  EMBER_RECORD_OP("adaptive_max_pool1d", self);
  return pool::max_forward(self, adaptive_spec("adaptive_max_pool1d", self, 1, output_size));
}
std::tuple<Tensor, Tensor> adaptive_max_pool2d(const Tensor& self, IntArrayRef output_size) {
  EMBER_VMAP_FOLD_N(self, 4, true, "adaptive_max_pool2d", v, adaptive_max_pool2d(v, output_size));
  EMBER_RECORD_OP("adaptive_max_pool2d", self);
  return pool::max_forward(self, adaptive_spec("adaptive_max_pool2d", self, 2, output_size));
}
std::tuple<Tensor, Tensor> adaptive_max_pool3d(const Tensor& self, IntArrayRef output_size) {
  EMBER_VMAP_FOLD_N(self, 5, true, "adaptive_max_pool3d", v, adaptive_max_pool3d(v, output_size));
  EMBER_RECORD_OP("adaptive_max_pool3d", self);
  return pool::max_forward(self, adaptive_spec("adaptive_max_pool3d", self, 3, output_size));
}

}  // namespace ember
