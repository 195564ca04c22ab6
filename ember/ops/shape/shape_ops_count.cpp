// Counting ops: one_hot, bincount, histc. These are reductions into bins,
// done serially over a contiguous copy of the input (bins collide, so the
// elementwise engine does not apply).
#include <cmath>
#include <limits>
#include "ember/core/record_scope.h"

#include "ember/core/checked_arith.h"
#include "ember/core/dispatch.h"
#include "ember/core/shape.h"
#include "ember/kernels/cpu/convert.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/index/indexing.h"
#include "ember/ops/shape/copy.h"
#include "ember/ops/shape/shape_ops.h"
#include "ember/ops/shape/view.h"
#include "ember/vmap/rules_indexing.h"
#include "ember/vmap/rules_nn.h"

namespace torch {

namespace {
// Min and max of a non-empty int64 tensor.
std::pair<int64_t, int64_t> long_range(const Tensor& t) {
  Tensor c = contiguous(t);
  const int64_t* p = c.data_ptr<int64_t>();
  int64_t lo = p[0], hi = p[0];
  for (int64_t i = 1; i < c.numel(); ++i) {
    lo = std::min(lo, p[i]);
    hi = std::max(hi, p[i]);
  }
  return {lo, hi};
}
}  // namespace

Tensor one_hot(const Tensor& self, int64_t num_classes) {
  if (batching::any_batched(self)) [[unlikely]] {
    // Without num_classes each sample's class count would come from its own values.
    if (num_classes < 0) batching::refuse_dynamic_shape("one_hot");
    return batching::on_front(self, [&](const Tensor& v) { return one_hot(v, num_classes); });
  }
  EMBER_RECORD_OP("one_hot", self);
  EMBER_CHECK(self.dtype() == kLong, "one_hot: is only applicable to index tensor, got ", self.dtype());
  DimVector shape(self.sizes());
  if (self.numel() == 0) {
    EMBER_CHECK(num_classes > 0, "one_hot: Can not infer total number of classes from empty tensor.");
    shape.push_back(num_classes);
    return empty(shape, TensorOptions().dtype(kLong));
  }
  EMBER_CHECK(num_classes >= -1, "one_hot: num_classes should be -1 or non-negative, got ", num_classes);
  auto [lo, hi] = long_range(self);
  EMBER_CHECK(lo >= 0, "one_hot: Class values must be non-negative.");
  if (num_classes == -1)
    num_classes = checked_add(hi, 1, "one_hot", "number of classes");
  else
    EMBER_CHECK(hi < num_classes, "one_hot: Class values must be smaller than num_classes.");
  shape.push_back(num_classes);
  Tensor out = zeros(shape, TensorOptions().dtype(kLong));
  return scatter_(out, -1, unsqueeze(self, -1), 1);
}

Tensor bincount(const Tensor& self, const std::optional<Tensor>& weights, int64_t minlength) {
  if (batching::any_batched(self, weights)) [[unlikely]]
    batching::refuse_dynamic_shape("bincount");
  EMBER_RECORD_OP("bincount", self, weights);
  EMBER_CHECK(self.dim() == 1 && is_integral(self.dtype(), false),
              "bincount: only supports 1-d non-negative integral inputs, got ", self.dtype(), " of shape ",
              shape_str(self.sizes()));
  EMBER_CHECK(minlength >= 0, "bincount: minlength should be >= 0, got ", minlength);
  const bool weighted = weights.has_value() && weights->defined();
  if (weighted)
    EMBER_CHECK(weights->dim() == 1 && weights->numel() == self.numel(),
                "bincount: weights should be 1-d and have the same length as input, got ", shape_str(weights->sizes()),
                " for input ", shape_str(self.sizes()));
  // float weights accumulate in float; every other weight dtype in double, as PyTorch.
  const ScalarType out_dt = !weighted ? kLong : (weights->dtype() == kFloat ? kFloat : kDouble);
  Tensor idx = contiguous(ops::cast(self, kLong));
  int64_t nbins = minlength;
  if (idx.numel() > 0) {
    auto [lo, hi] = long_range(idx);
    EMBER_CHECK(lo >= 0, "bincount: only supports 1-d non-negative integral inputs, got value ", lo);
    nbins = std::max(nbins, checked_add(hi, 1, "bincount", "number of bins"));
  }
  Tensor out = zeros({nbins}, TensorOptions().dtype(out_dt));
  const int64_t* ip = idx.data_ptr<int64_t>();
  const int64_t n = idx.numel();
  if (!weighted) {
    int64_t* o = out.data_ptr<int64_t>();
    for (int64_t i = 0; i < n; ++i) ++o[ip[i]];
    return out;
  }
  Tensor w = contiguous(ops::cast(*weights, out_dt));
  auto accumulate = [&](auto* o, const auto* wp) {
    for (int64_t i = 0; i < n; ++i) o[ip[i]] += wp[i];
  };
  if (out_dt == kFloat)
    accumulate(out.data_ptr<float>(), w.data_ptr<float>());
  else
    accumulate(out.data_ptr<double>(), w.data_ptr<double>());
  return out;
}

Tensor histc(const Tensor& self, int64_t bins, const Scalar& min, const Scalar& max) {
  // Under vmap each sample gets its own histogram (with min == max, over its own range): one
  // call per sample, as functorch's fallback does.
  if (batching::any_batched(self)) [[unlikely]]
    return batching::per_sample_loop({&self}, "histc", [&](const std::vector<Tensor>& a) {
      return std::vector<Tensor>{histc(a[0], bins, min, max)};
    })[0];
  EMBER_RECORD_OP("histc", self);
  EMBER_CHECK(self.is_floating_point(), "histc: expected a floating point input, got ", self.dtype());
  EMBER_CHECK(bins > 0, "histc: bins must be > 0, but got ", bins);
  Tensor out = zeros({bins}, self.options());
  Tensor x = contiguous(self);
  dispatch_floating(self.dtype(), "histc", [&](auto tag) {
    using T = EMBER_TYPE(tag);
    using A = opmath_t<T>;
    const T* p = x.data_ptr<T>();
    const int64_t n = x.numel();
    // Edges are the bounds converted to the input dtype, as in PyTorch.
    A lo = static_cast<A>(kernels::convert<T>(min.toDouble()));
    A hi = static_cast<A>(kernels::convert<T>(max.toDouble()));
    EMBER_CHECK(lo <= hi, "histc: max must be larger than min");
    if (lo == hi && n > 0) {  // the data's range; a NaN makes it non-finite, as in PyTorch
      lo = hi = static_cast<A>(p[0]);
      for (int64_t i = 0; i < n; ++i) {
        const A v = static_cast<A>(p[i]);
        lo = std::isnan(v) || std::isnan(lo) ? v + lo : std::min(lo, v);
        hi = std::isnan(v) || std::isnan(hi) ? v + hi : std::max(hi, v);
      }
    }
    if (lo == hi) {
      lo -= 1;
      hi += 1;
    }
    EMBER_CHECK(std::isfinite(lo) && std::isfinite(hi), "histc: range of [", lo, ", ", hi, "] is not finite");
    T* o = out.data_ptr<T>();
    for (int64_t i = 0; i < n; ++i) {
      const A v = static_cast<A>(p[i]);
      if (!(v >= lo && v <= hi)) continue;  // also drops NaN
      // PyTorch's position, in the input's type; where that overflows (values
      // near FLT_MAX) it is recomputed in double, since converting an infinite
      // position to an integer is undefined.
      const A in_type = (v - lo) * static_cast<A>(bins) / (hi - lo);
      const double pos = std::isfinite(double(in_type))
                             ? double(in_type)
                             : (double(v) - double(lo)) * double(bins) / (double(hi) - double(lo));
      const int64_t b = pos >= double(bins) ? bins - 1 : static_cast<int64_t>(pos);  // right edge: last bin
      o[b] = static_cast<T>(static_cast<A>(o[b]) + A(1));
    }
  });
  return out;
}

// ---- Tensor methods ----------------------------------------------------------------
Tensor Tensor::bincount(const std::optional<Tensor>& weights, int64_t minlength) const {
  return ember::bincount(*this, weights, minlength);
}
Tensor Tensor::histc(int64_t bins, const Scalar& min, const Scalar& max) const {
  return ember::histc(*this, bins, min, max);
}

}  // namespace torch
