// Pooling front end: argument checks and output sizes as PyTorch computes
// them; the work is in pool_ops.cpp and the loops in
// kernels/cpu/pool_kernels.cpp (Note [Pooling kernels]).
#include "ember/ops/nn/pool.h"
#include "ember/core/record_scope.h"

#include "ember/autograd/formula_node.h"
#include "ember/autograd/forward_ad.h"
#include "ember/autograd/grad_mode.h"
#include "ember/autograd/node.h"
#include "ember/core/checked_arith.h"
#include "ember/core/dispatch.h"
#include "ember/core/error.h"
#include "ember/core/parallel.h"
#include "ember/core/shape.h"
#include "ember/core/tensor.h"
#include "ember/ops/all_ops.h"
#include "ember/ops/nn/pool_ops.h"
#include "ember/vmap/rules_nn.h"
#include "ember/vmap/vmap.h"

namespace torch {

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

// Floor division for b > 0, without forming -a + b - 1 (which overflows for b near INT64_MAX).
int64_t floor_div(int64_t a, int64_t b) { return a / b - (a % b < 0 ? 1 : 0); }

// PyTorch's pooling_output_shape, its intermediate sums checked: kernel,
// stride, padding and dilation are user values, INT64_MAX included.
int64_t pooled_size(const char* op, int64_t in, int64_t k, int64_t s, int64_t p, int64_t d, bool ceil_mode) {
  const int64_t extent = checked_add(checked_mul(d, k - 1, op, "dilated kernel size"), 1, op, "dilated kernel size");
  int64_t span = checked_sub(checked_add(in, checked_mul(2, p, op, "padded size"), op, "padded size"), extent, op,
                             "pooled extent");
  if (ceil_mode) span = checked_add(span, s - 1, op, "pooled extent");
  int64_t out = floor_div(span, s) + 1;
  // PyTorch's (out - 1) * s >= in + p, without forming the product: with
  // in + p > 0 (in >= 1, p >= 0) it is out - 1 >= ceil((in + p) / s).
  const int64_t reach = in + p;  // p <= k / 2 was checked, so no overflow
  if (ceil_mode && out - 1 >= reach / s + (reach % s != 0)) --out;
  return out;
}

// The output's shape (the batch and channel dims of `self` followed by `out`)
// must have an element count and byte size that fit before any table is sized
// from it.
void check_output_fits(const char* op, const Tensor& self, int64_t nd, IntArrayRef out) {
  int64_t n = 1;
  for (int64_t d = 0; d < self.dim() - nd; ++d) n = checked_mul(n, self.size(d), op, "output size");
  for (int64_t o : out) n = checked_mul(n, o, op, "output size");
  (void)checked_mul(n, int64_t(element_size(self.scalar_type())), op, "output bytes");
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
    const int64_t extent = checked_add(checked_mul(d, k - 1, op, "dilated kernel size"), 1, op, "dilated kernel size");
    EMBER_CHECK(p >= 0 && p <= (is_max ? extent / 2 : k / 2), op, ": pad should be at most half of ",
                is_max ? "effective " : "", "kernel size, but got pad=", p, ", kernel_size=", k, " and dilation=", d);
    const int64_t in = self.size(self.dim() - nd + i);
    s.in_size.push_back(in);
    s.out_size.push_back(pooled_size(op, in, k, st, p, d, ceil_mode));
  }
  for (int64_t o : s.out_size)
    EMBER_CHECK(o > 0, op, ": given input size ", shape_str(self.sizes()), ", calculated output size ",
                IntArrayRef(s.out_size), " is too small");
  check_output_fits(op, self, nd, s.out_size);
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
    // The kernels place window o at [o * in / out, ceil((o + 1) * in / out)).
    (void)checked_mul(checked_add(output_size[i], 1, op, "output size"), s.in_size.back(), op, "window bound");
  }
  check_output_fits(op, self, nd, s.out_size);
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

}  // namespace torch
