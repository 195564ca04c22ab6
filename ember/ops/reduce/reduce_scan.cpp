// Scans along one dim: cumsum, cumprod, cummax, cummin, logcumsumexp.
#include <cmath>
#include <limits>

#include "ember/core/dispatch.h"
#include "ember/core/record_scope.h"
#include "ember/kernels/cpu/reduce_ops.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/reduce/reduce.h"
#include "ember/ops/shape/mem_overlap.h"

#include "ember/autograd/derivatives/reduce_grad.h"
#include "ember/autograd/formula_node.h"
#include "ember/core/shape.h"
#include "ember/ops/reduce/reduce_util.h"
#include "ember/vmap/batching_rules.h"

namespace torch {

namespace {

// PyTorch's CPU scans accumulate in acc_type: double for every float type, int64 for integers.
template <typename T>
using scan_acc_t =
    std::conditional_t<std::is_integral_v<T>, int64_t, std::conditional_t<is_complex_v<T>, complex128, double>>;

template <typename T, typename Acc, typename Step>
void scan_lines(const Tensor& out, const Tensor& in, int64_t dim, Acc init, const Step& step) {
  const int64_t len = in.dim() == 0 ? 1 : in.size(dim);
  const int64_t so = ops::line_stride(out, dim), si = ops::line_stride(in, dim);
  ops::for_each_line({out}, {in}, dim, [&](char* const* p) {
    Acc acc = init;
    for (int64_t k = 0; k < len; ++k) {
      acc = step(acc, static_cast<Acc>(static_cast<opmath_t<T>>(*reinterpret_cast<const T*>(p[1] + k * si))));
      *reinterpret_cast<T*>(p[0] + k * so) = kernels::convert<T>(acc);
    }
  });
}

Tensor cum_impl(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype, bool is_prod, const char* op) {
  const int64_t d = wrap_dim(dim, self.dim(), op);
  const ScalarType t = dtype ? *dtype : (is_integral(self.dtype(), true) ? kLong : self.dtype());
  Tensor in = ops::cast_to(self, t);
  Tensor out = empty(self.sizes(), TensorOptions(t));
  dispatch_numeric(t, op, [&](auto tag) {
    using T = EMBER_TYPE(tag);
    using Acc = scan_acc_t<T>;
    if (is_prod) {
      scan_lines<T>(out, in, d, Acc(1), [](Acc a, Acc x) { return kernels::detail::mul_wrap(a, x); });
    } else {
      scan_lines<T>(out, in, d, Acc(0), [](Acc a, Acc x) { return kernels::detail::add_wrap(a, x); });
    }
  });
  return out;
}

// Running extreme with PyTorch's tie rule: an equal value moves the index
// forward (>=), and every NaN takes over and stays.
template <bool IsMax>
std::tuple<Tensor, Tensor> cum_extreme(const Tensor& self, int64_t dim, const char* op) {
  const int64_t d = wrap_dim(dim, self.dim(), op);
  Tensor values = empty(self.sizes(), TensorOptions(self.dtype()));
  Tensor indices = empty(self.sizes(), TensorOptions(kLong));
  const int64_t len = self.dim() == 0 ? 1 : self.size(d);
  const int64_t sv = ops::line_stride(values, d), si = ops::line_stride(indices, d), sx = ops::line_stride(self, d);
  dispatch_real_and_bool(self.dtype(), op, [&](auto tag) {
    using T = EMBER_TYPE(tag);
    using V = opmath_t<T>;
    ops::for_each_line({values, indices}, {self}, d, [&](char* const* p) {
      V best{};
      int64_t best_i = 0;
      for (int64_t k = 0; k < len; ++k) {
        const V x = static_cast<V>(*reinterpret_cast<const T*>(p[2] + k * sx));
        if (k == 0 || kernels::is_nan_v(x) || (!kernels::is_nan_v(best) && (IsMax ? x >= best : x <= best))) {
          best = x;
          best_i = k;
        }
        *reinterpret_cast<T*>(p[0] + k * sv) = static_cast<T>(best);
        *reinterpret_cast<int64_t*>(p[1] + k * si) = best_i;
      }
    });
  });
  return {values, indices};
}

// log(exp(a) + exp(b)) without overflow; -inf is the identity, NaN propagates.
double log_add_exp(double a, double b) {
  if (a != a || b != b) return std::numeric_limits<double>::quiet_NaN();
  const double mx = std::max(a, b), mn = std::min(a, b);
  if (mn == mx && std::isinf(mn)) return mx;  // both +inf or both -inf
  return mx + std::log1p(std::exp(mn - mx));
}

}  // namespace

Tensor cumsum(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  EMBER_VMAP_ALONG_DIM(self, dim, "cumsum", v, d, cumsum(v, d, dtype));
  EMBER_RECORD_OP("cumsum", self);
  Tensor out = cum_impl(self, dim, dtype, false, "cumsum");
  if (autograd::needs_grad(self) && (out.is_floating_point() || out.is_complex()))
    autograd::record_cumsum(self, out, self.dim() == 0 ? 0 : wrap_dim(dim, self.dim(), "cumsum"));
  return out;
}
Tensor cumprod(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  EMBER_VMAP_ALONG_DIM(self, dim, "cumprod", v, d, cumprod(v, d, dtype));
  EMBER_RECORD_OP("cumprod", self);
  Tensor out = cum_impl(self, dim, dtype, true, "cumprod");
  if (autograd::needs_grad(self) && (out.is_floating_point() || out.is_complex()))
    autograd::record_cumprod(self, out, self.dim() == 0 ? 0 : wrap_dim(dim, self.dim(), "cumprod"));
  return out;
}
namespace {
std::tuple<Tensor, Tensor> with_cum_extreme_grad(bool is_max, const Tensor& self, int64_t dim,
                                                 std::tuple<Tensor, Tensor> r) {
  if (autograd::needs_grad(self) && self.is_floating_point())
    autograd::record_cummaxmin(is_max, self, std::get<0>(r), std::get<1>(r),
                               self.dim() == 0 ? 0 : wrap_dim(dim, self.dim(), is_max ? "cummax" : "cummin"));
  return r;
}
}  // namespace
std::tuple<Tensor, Tensor> cummax(const Tensor& self, int64_t dim) {
  EMBER_VMAP_ALONG_DIM_MULTI(self, dim, "cummax", v, d, cummax(v, d));
  EMBER_RECORD_OP("cummax", self);
  return with_cum_extreme_grad(true, self, dim, cum_extreme<true>(self, dim, "cummax"));
}
std::tuple<Tensor, Tensor> cummin(const Tensor& self, int64_t dim) {
  EMBER_VMAP_ALONG_DIM_MULTI(self, dim, "cummin", v, d, cummin(v, d));
  EMBER_RECORD_OP("cummin", self);
  return with_cum_extreme_grad(false, self, dim, cum_extreme<false>(self, dim, "cummin"));
}

Tensor logcumsumexp(const Tensor& self, int64_t dim) {
  EMBER_VMAP_ALONG_DIM(self, dim, "logcumsumexp", v, d, logcumsumexp(v, d));
  EMBER_RECORD_OP("logcumsumexp", self);
  const int64_t d = wrap_dim(dim, self.dim(), "logcumsumexp");
  const ScalarType t = is_integral(self.dtype(), true) ? get_default_dtype() : self.dtype();
  EMBER_CHECK(is_floating_point(t), "logcumsumexp(): expected a real floating input, got ", self.dtype());
  Tensor in = ops::cast_to(self, t);
  Tensor out = empty(self.sizes(), TensorOptions(t));
  dispatch_floating(t, "logcumsumexp", [&](auto tag) {
    using T = EMBER_TYPE(tag);
    scan_lines<T>(out, in, d, -std::numeric_limits<double>::infinity(), log_add_exp);
  });
  if (autograd::needs_grad(self)) autograd::record_logcumsumexp(self, out, d);
  return out;
}

namespace {
// cumsum_ / cumprod_: the result is computed aside (a scan reads ahead of its
// writes only by one step, but the input may alias in arbitrary layouts) and
// copied back.
template <typename Scan>
Tensor& scan_in_place(const char* op, Tensor& self, std::optional<ScalarType> dtype, const Scan& scan) {
  EMBER_CHECK(!dtype || *dtype == self.dtype(), op, "(): dtype ", *dtype, " does not match the tensor's ",
              self.dtype());
  // Named here, not by the copy_ that writes the result back.
  if (!batching::is_batched(self)) ops::assert_no_internal_overlap(op, self);
  Tensor r = scan(self, self.dtype());
  return self.copy_(r);
}
}  // namespace

// ---- Tensor methods -------------------------------------------------------------
Tensor Tensor::cumsum(int64_t dim, std::optional<ScalarType> dtype) const { return ember::cumsum(*this, dim, dtype); }
Tensor& Tensor::cumsum_(int64_t dim, std::optional<ScalarType> dtype) const {
  return scan_in_place("cumsum_", self_ref(), dtype,
                       [&](const Tensor& t, ScalarType dt) { return ember::cumsum(t, dim, dt); });
}
Tensor& Tensor::cumprod_(int64_t dim, std::optional<ScalarType> dtype) const {
  return scan_in_place("cumprod_", self_ref(), dtype,
                       [&](const Tensor& t, ScalarType dt) { return ember::cumprod(t, dim, dt); });
}
Tensor Tensor::cumprod(int64_t dim, std::optional<ScalarType> dtype) const { return ember::cumprod(*this, dim, dtype); }
std::tuple<Tensor, Tensor> Tensor::cummax(int64_t dim) const { return ember::cummax(*this, dim); }
std::tuple<Tensor, Tensor> Tensor::cummin(int64_t dim) const { return ember::cummin(*this, dim); }
Tensor Tensor::logcumsumexp(int64_t dim) const { return ember::logcumsumexp(*this, dim); }

}  // namespace torch
