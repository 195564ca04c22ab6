// sort, argsort, msort, topk, kthvalue, median, nanmedian, mode: each works on
// one line (a dim) at a time; lines run in parallel through for_each_line.
#include "ember/ops/index/sort.h"
#include "ember/core/record_scope.h"

#include <algorithm>
#include <limits>
#include <numeric>

#include "ember/core/dispatch.h"
#include "ember/ops/all_ops.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/index/sort_util.h"
#include "ember/ops/reduce/reduce_util.h"

#include "ember/autograd/derivatives/reduce_grad.h"
#include "ember/autograd/formula_node.h"
#include "ember/vmap/batching_rules.h"

namespace torch {

using ops::load_line;
using ops::nan_last_less;

namespace {

int64_t dim_size(const Tensor& t, int64_t d) { return t.dim() == 0 ? 1 : t.size(d); }

// Shape of `self` with dim d set to n (a 0-dim input stays 0-dim).
DimVector with_dim_size(const Tensor& self, int64_t d, int64_t n) {
  DimVector s(self.sizes());
  if (self.dim() > 0) s[d] = n;
  return s;
}

Tensor drop_dim(const Tensor& t, int64_t d, bool keepdim) { return keepdim || t.dim() == 0 ? t : t.squeeze(d); }

// Writes the first `k` entries of the permutation `idx` of a line as values and indices.
template <typename T>
void write_line(char* const* p, int64_t sv, int64_t si, const std::vector<opmath_t<T>>& vals,
                const std::vector<int64_t>& idx, int64_t k) {
  for (int64_t j = 0; j < k; ++j) {
    *reinterpret_cast<T*>(p[0] + j * sv) = static_cast<T>(vals[idx[j]]);
    *reinterpret_cast<int64_t*>(p[1] + j * si) = idx[j];
  }
}

// Per-line selection: fills (value, index) for every line into keepdim-shaped outputs.
// pick(vals, idx) returns the chosen position in the original line.
template <typename Pick>
std::tuple<Tensor, Tensor> select_along(const Tensor& self, int64_t d, bool keepdim, const char* op, const Pick& pick) {
  Tensor values = empty(with_dim_size(self, d, 1), TensorOptions(self.dtype()));
  Tensor indices = empty(with_dim_size(self, d, 1), TensorOptions(kLong));
  const int64_t len = dim_size(self, d);
  const int64_t sx = ops::line_stride(self, d);
  dispatch_real_and_bool(self.dtype(), op, [&](auto tag) {
    using T = EMBER_TYPE(tag);
    using V = opmath_t<T>;
    ops::for_each_line({values, indices}, {self}, d, [&](char* const* p) {
      // Thread-local scratch, bound to plain references: TLS lookups inside a
      // comparator would cost a call per comparison in a shared library.
      thread_local std::vector<V> tl_vals;
      thread_local std::vector<int64_t> tl_idx;
      std::vector<V>& vals = tl_vals;
      std::vector<int64_t>& idx = tl_idx;
      load_line<T>(p[2], sx, len, vals);
      idx.resize(len);
      std::iota(idx.begin(), idx.end(), int64_t(0));
      const int64_t i = pick(vals, idx);
      *reinterpret_cast<T*>(p[0]) = static_cast<T>(vals[i]);
      *reinterpret_cast<int64_t*>(p[1]) = i;
    });
  });
  return {drop_dim(values, d, keepdim), drop_dim(indices, d, keepdim)};
}

// The position of the k-th (0-based) element in NaN-last ascending order, ties by position.
template <typename V>
int64_t nth_position(const std::vector<V>& vals, std::vector<int64_t>& idx, int64_t k) {
  std::nth_element(idx.begin(), idx.begin() + k, idx.end(), [&](int64_t a, int64_t b) {
    if (nan_last_less(vals[a], vals[b])) return true;
    if (nan_last_less(vals[b], vals[a])) return false;
    return a < b;
  });
  return idx[k];
}

std::tuple<Tensor, Tensor> median_impl(const Tensor& self, int64_t dim, bool keepdim, bool ignore_nan, const char* op) {
  const int64_t d = wrap_dim(dim, self.dim(), op);
  EMBER_CHECK(dim_size(self, d) > 0, op, "(): Expected reduction dim ", d, " to have non-zero size (input shape ",
              shape_str(self.sizes()), ").");
  return select_along(self, d, keepdim, op, [&](const auto& vals, std::vector<int64_t>& idx) -> int64_t {
    const int64_t n = static_cast<int64_t>(vals.size());
    int64_t valid = n;
    for (int64_t i = 0; i < n; ++i) {
      if (kernels::is_nan_v(vals[i])) {
        if (!ignore_nan) return i;  // median propagates the first NaN
        --valid;
      }
    }
    if (valid == 0) return 0;  // all NaN: nanmedian gives NaN at index 0
    return nth_position(vals, idx, (valid - 1) / 2);
  });
}

Tensor full_median(const Tensor& self, bool ignore_nan, const char* op) {
  if (self.numel() == 0) {
    EMBER_CHECK(is_floating_point(self.dtype()), op, "(): cannot take the median of an empty ", self.dtype(),
                " tensor");
    return full({}, std::numeric_limits<double>::quiet_NaN(), TensorOptions(self.dtype()));
  }
  return std::get<0>(median_impl(self.reshape({-1}), 0, false, ignore_nan, op));
}

// Records the gradient of a value-selecting op (formula: autograd/derivatives/reduce_grad.cpp).
// `dim` was checked by the op.
using autograd::SelectionOp;
std::tuple<Tensor, Tensor> with_selection_grad(SelectionOp op, const Tensor& self, std::tuple<Tensor, Tensor> r,
                                               int64_t dim, bool keepdim) {
  if (autograd::needs_grad(self) && self.is_floating_point())
    autograd::record_value_selection(op, self, std::get<0>(r), std::get<1>(r),
                                     self.dim() == 0 ? 0 : wrap_dim(dim, self.dim(), "value selection"), keepdim);
  return r;
}
Tensor with_even_grad(SelectionOp op, const Tensor& self, Tensor out) {
  if (autograd::needs_grad(self) && self.is_floating_point()) autograd::record_evenly_distributed(op, self, out);
  return out;
}

}  // namespace

std::tuple<Tensor, Tensor> sort(const Tensor& self, std::optional<bool> /*stable: always stable*/, int64_t dim,
                                bool descending) {
  EMBER_VMAP_ALONG_DIM_MULTI(self, dim, "sort", v, d, sort(v, std::optional<bool>(), d, descending));
  EMBER_RECORD_OP("sort", self);
  const int64_t d = wrap_dim(dim, self.dim(), "sort");
  Tensor values = empty(self.sizes(), TensorOptions(self.dtype()));
  Tensor indices = empty(self.sizes(), TensorOptions(kLong));
  const int64_t len = dim_size(self, d);
  const int64_t sv = ops::line_stride(values, d), si = ops::line_stride(indices, d), sx = ops::line_stride(self, d);
  dispatch_real_and_bool(self.dtype(), "sort", [&](auto tag) {
    using T = EMBER_TYPE(tag);
    using V = opmath_t<T>;
    ops::for_each_line({values, indices}, {self}, d, [&](char* const* p) {
      // Thread-local scratch, bound to plain references: TLS lookups inside a
      // comparator would cost a call per comparison in a shared library.
      thread_local std::vector<V> tl_vals;
      thread_local std::vector<int64_t> tl_idx;
      std::vector<V>& vals = tl_vals;
      std::vector<int64_t>& idx = tl_idx;
      load_line<T>(p[2], sx, len, vals);
      idx.resize(len);
      std::iota(idx.begin(), idx.end(), int64_t(0));
      if (descending) {
        std::stable_sort(idx.begin(), idx.end(), [&](int64_t a, int64_t b) { return nan_last_less(vals[b], vals[a]); });
      } else {
        std::stable_sort(idx.begin(), idx.end(), [&](int64_t a, int64_t b) { return nan_last_less(vals[a], vals[b]); });
      }
      write_line<T>(p, sv, si, vals, idx, len);
    });
  });
  return with_selection_grad(SelectionOp::Sort, self, {values, indices}, d, true);
}
std::tuple<Tensor, Tensor> sort(const Tensor& self, int64_t dim, bool descending) {
  return sort(self, std::optional<bool>(), dim, descending);
}
Tensor argsort(const Tensor& self, int64_t dim, bool descending) {
  if (batching::any_batched(self)) [[unlikely]]
    return std::get<1>(sort(self, dim, descending));
  EMBER_RECORD_OP("argsort", self);
  return std::get<1>(sort(self, dim, descending));
}
Tensor argsort(const Tensor& self, bool stable, int64_t dim, bool descending) {
  if (batching::any_batched(self)) [[unlikely]]
    return std::get<1>(sort(self, stable, dim, descending));
  EMBER_RECORD_OP("argsort", self);
  return std::get<1>(sort(self, stable, dim, descending));
}
Tensor msort(const Tensor& self) {
  if (batching::any_batched(self)) [[unlikely]]
    return std::get<0>(sort(self, 0, false));
  EMBER_RECORD_OP("msort", self);
  return std::get<0>(sort(self, 0, false));
}

std::tuple<Tensor, Tensor> topk(const Tensor& self, int64_t k, int64_t dim, bool largest, bool /*sorted*/) {
  EMBER_VMAP_ALONG_DIM_MULTI(self, dim, "topk", v, d, topk(v, k, d, largest, true));
  EMBER_RECORD_OP("topk", self);
  const int64_t d = wrap_dim(dim, self.dim(), "topk");
  const int64_t len = dim_size(self, d);
  EMBER_CHECK(k >= 0 && k <= len, "topk(): selected index k out of range (k = ", k, ", size of dim ", d, " is ", len,
              ")");
  if (self.dim() == 0) k = len;  // a 0-dim result holds one element whatever k is: (self, 0), as PyTorch returns
  Tensor values = empty(with_dim_size(self, d, k), TensorOptions(self.dtype()));
  Tensor indices = empty(with_dim_size(self, d, k), TensorOptions(kLong));
  if (k == 0) return with_selection_grad(SelectionOp::Topk, self, {values, indices}, d, true);
  const int64_t sv = ops::line_stride(values, d), si = ops::line_stride(indices, d), sx = ops::line_stride(self, d);
  dispatch_real_and_bool(self.dtype(), "topk", [&](auto tag) {
    using T = EMBER_TYPE(tag);
    using V = opmath_t<T>;
    ops::for_each_line({values, indices}, {self}, d, [&](char* const* p) {
      // Thread-local scratch, bound to plain references: TLS lookups inside a
      // comparator would cost a call per comparison in a shared library.
      thread_local std::vector<V> tl_vals;
      thread_local std::vector<int64_t> tl_idx;
      std::vector<V>& vals = tl_vals;
      std::vector<int64_t>& idx = tl_idx;
      load_line<T>(p[2], sx, len, vals);
      idx.resize(len);
      std::iota(idx.begin(), idx.end(), int64_t(0));
      // NaN counts as the largest value; equal values keep their order.
      auto before = [&](int64_t a, int64_t b) {
        const bool ab = largest ? nan_last_less(vals[b], vals[a]) : nan_last_less(vals[a], vals[b]);
        const bool ba = largest ? nan_last_less(vals[a], vals[b]) : nan_last_less(vals[b], vals[a]);
        return ab || (!ba && a < b);
      };
      std::partial_sort(idx.begin(), idx.begin() + k, idx.end(), before);
      write_line<T>(p, sv, si, vals, idx, k);
    });
  });
  return with_selection_grad(SelectionOp::Topk, self, {values, indices}, d, true);
}

std::tuple<Tensor, Tensor> kthvalue(const Tensor& self, int64_t k, int64_t dim, bool keepdim) {
  EMBER_VMAP_REDUCTION(self, IntArrayRef(dim), keepdim, v, d, kd, kthvalue(v, k, d[0], kd));
  EMBER_RECORD_OP("kthvalue", self);
  const int64_t d = wrap_dim(dim, self.dim(), "kthvalue");
  const int64_t len = dim_size(self, d);
  EMBER_CHECK(len > 0, "kthvalue(): Expected reduction dim ", d, " to have non-zero size (input shape ",
              shape_str(self.sizes()), ").");
  EMBER_CHECK(k >= 1 && k <= len, "kthvalue(): selected number k out of range for dimension ", d, " (k = ", k,
              ", size ", len, ")");
  return with_selection_grad(
      SelectionOp::Kthvalue, self,
      select_along(self, d, keepdim, "kthvalue",
                   [&](const auto& vals, std::vector<int64_t>& idx) { return nth_position(vals, idx, k - 1); }),
      d, keepdim);
}

namespace {
// median() / nanmedian() under vmap: the lower median of each sample's flattened elements
// ([B, N] rows), with the plain op's gradient: spread evenly over the elements equal to the
// median (NaN elements when it is NaN), not sent to one selected index as median(dim) does.
Tensor full_median_batched(const Tensor& self, bool ignore_nan) {
  return batching::full_reduction(self, false, [&](const Tensor& flat) {
    const Tensor x = flat.detach();
    const Tensor m = std::get<0>(ignore_nan ? nanmedian(x, 1, false) : median(x, 1, false)).unsqueeze(1);
    const Tensor hit = (x == m) | (x.isnan() & m.isnan());
    const Tensor picked = where(hit, flat, zeros({}, flat.options()));
    // The value is m exactly; the gradient 1 / count to each hit.
    return m.squeeze(1) + (picked - picked.detach()).sum({1}) / hit.sum({1}).to(flat.scalar_type());
  });
}
}  // namespace

Tensor median(const Tensor& self) {
  if (batching::any_batched(self)) [[unlikely]]
    return full_median_batched(self, false);
  EMBER_RECORD_OP("median", self);
  Tensor out;
  {
    autograd::BelowAutogradGuard no_grad;
    out = full_median(self, false, "median");
  }
  return with_even_grad(SelectionOp::Median, self, out);
}
std::tuple<Tensor, Tensor> median(const Tensor& self, int64_t dim, bool keepdim) {
  EMBER_VMAP_REDUCTION(self, IntArrayRef(dim), keepdim, v, d, k, median(v, d[0], k));
  EMBER_RECORD_OP("median", self);
  return with_selection_grad(SelectionOp::Median, self, median_impl(self, dim, keepdim, false, "median"), dim, keepdim);
}
Tensor nanmedian(const Tensor& self) {
  if (batching::any_batched(self)) [[unlikely]]
    return full_median_batched(self, true);
  EMBER_RECORD_OP("nanmedian", self);
  Tensor out;
  {
    autograd::BelowAutogradGuard no_grad;
    out = full_median(self, true, "nanmedian");
  }
  return with_even_grad(SelectionOp::Nanmedian, self, out);
}
std::tuple<Tensor, Tensor> nanmedian(const Tensor& self, int64_t dim, bool keepdim) {
  EMBER_VMAP_REDUCTION(self, IntArrayRef(dim), keepdim, v, d, k, nanmedian(v, d[0], k));
  EMBER_RECORD_OP("nanmedian", self);
  return with_selection_grad(SelectionOp::Nanmedian, self, median_impl(self, dim, keepdim, true, "nanmedian"), dim,
                             keepdim);
}

std::tuple<Tensor, Tensor> mode(const Tensor& self, int64_t dim, bool keepdim) {
  EMBER_VMAP_REDUCTION(self, IntArrayRef(dim), keepdim, v, d, k, mode(v, d[0], k));
  EMBER_RECORD_OP("mode", self);
  const int64_t d = wrap_dim(dim, self.dim(), "mode");
  EMBER_CHECK(dim_size(self, d) > 0, "mode(): Expected reduction dim ", d, " to have non-zero size (input shape ",
              shape_str(self.sizes()), ").");
  return with_selection_grad(SelectionOp::Mode, self,
                             select_along(self, d, keepdim, "mode",
                                          [&](const auto& vals, std::vector<int64_t>& idx) -> int64_t {
                                            std::sort(idx.begin(), idx.end(), [&](int64_t a, int64_t b) {
                                              if (nan_last_less(vals[a], vals[b])) return true;
                                              if (nan_last_less(vals[b], vals[a])) return false;
                                              return a < b;
                                            });
                                            // Runs of equal values in ascending order: the first longest run is the
                                            // smallest mode; its last element is the last occurrence.
                                            int64_t best = idx[0], best_count = 0;
                                            const int64_t n = static_cast<int64_t>(idx.size());
                                            for (int64_t i = 0; i < n;) {
                                              int64_t j = i + 1;
                                              while (j < n && vals[idx[j]] == vals[idx[i]]) ++j;
                                              if (j - i > best_count) {
                                                best_count = j - i;
                                                best = idx[j - 1];
                                              }
                                              i = j;
                                            }
                                            return best;
                                          }),
                             d, keepdim);
}

// ---- Tensor methods -------------------------------------------------------------
std::tuple<Tensor, Tensor> Tensor::sort(int64_t dim, bool descending) const {
  return ember::sort(*this, dim, descending);
}
std::tuple<Tensor, Tensor> Tensor::sort(std::optional<bool> stable, int64_t dim, bool descending) const {
  return ember::sort(*this, stable, dim, descending);
}
Tensor Tensor::argsort(int64_t dim, bool descending) const { return ember::argsort(*this, dim, descending); }
std::tuple<Tensor, Tensor> Tensor::topk(int64_t k, int64_t dim, bool largest, bool sorted) const {
  return ember::topk(*this, k, dim, largest, sorted);
}
std::tuple<Tensor, Tensor> Tensor::kthvalue(int64_t k, int64_t dim, bool keepdim) const {
  return ember::kthvalue(*this, k, dim, keepdim);
}
Tensor Tensor::median() const { return ember::median(*this); }
std::tuple<Tensor, Tensor> Tensor::median(int64_t dim, bool keepdim) const {
  return ember::median(*this, dim, keepdim);
}
std::tuple<Tensor, Tensor> Tensor::mode(int64_t dim, bool keepdim) const { return ember::mode(*this, dim, keepdim); }

}  // namespace torch
