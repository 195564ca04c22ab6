#include "ember/ops/reduce/statistics.h"

#include <string>

#include "ember/core/error.h"
#include "ember/core/shape.h"
#include "ember/ops/elementwise/binary.h"
#include "ember/ops/elementwise/operators.h"
#include "ember/ops/elementwise/unary.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/index/indexing.h"
#include "ember/ops/index/sort.h"
#include "ember/ops/matmul/matmul.h"
#include "ember/ops/reduce/reduce.h"
#include "ember/ops/shape/shape_ops.h"
#include "ember/ops/shape/view.h"
#include "ember/vmap/batched_tensor.h"

namespace torch {

// ---- cov / corrcoef ----------------------------------------------------------

namespace {
void check_weights(const char* name, const Tensor& w, int64_t num_obs, bool integral) {
  EMBER_CHECK(w.dim() <= 1, "cov(): expected ", name, " to have one or fewer dimensions but got ", name, " with ",
              w.dim(), " dimensions");
  if (integral)
    EMBER_CHECK(is_integral(w.scalar_type(), false), "cov(): expected ", name, " to have integral dtype but got ", name,
                " with ", w.dtype(), " dtype");
  else
    EMBER_CHECK(w.is_floating_point(), "cov(): expected ", name, " to have floating point dtype but got ", name,
                " with ", w.dtype(), " dtype");
  EMBER_CHECK(w.numel() == num_obs, "cov(): expected ", name,
              " to have the same numel as there are observations in the input but got ", w.numel(), " != ", num_obs);
  if (!batching::any_batched(w))
    EMBER_CHECK(w.numel() == 0 || w.min().item<double>() >= 0, "cov(): ", name, " cannot be negative");
}
}  // namespace

Tensor cov(const Tensor& self, int64_t correction, const std::optional<Tensor>& fweights,
           const std::optional<Tensor>& aweights) {
  EMBER_CHECK(self.defined(), "cov(): expected a defined tensor");
  EMBER_CHECK(self.dim() <= 2, "cov(): expected input to have two or fewer dimensions but got an input with ",
              self.dim(), " dimensions");
  EMBER_CHECK(self.scalar_type() != kBool, "cov(): bool dtype is not supported for input");
  Tensor in = self.dim() < 2 ? self.reshape({1, -1}) : self;  // variables x observations
  const int64_t num_obs = in.size(1);
  Tensor w;
  if (fweights) {
    check_weights("fweights", *fweights, num_obs, true);
    w = *fweights;
  }
  if (aweights) {
    check_weights("aweights", *aweights, num_obs, false);
    w = w.defined() ? w * *aweights : *aweights;
  }
  const Tensor w_sum = w.defined() ? w.sum() : scalar_tensor(num_obs, TensorOptions(kLong));
  const Tensor avg = (w.defined() ? in * w : in).sum({1}) / w_sum;
  Tensor norm_factor = w.defined() && aweights && correction != 0 ? w_sum - correction * (w * *aweights).sum() / w_sum
                                                                  : w_sum - correction;
  // No degrees of freedom left: PyTorch warns and divides by zero (inf/nan).
  if (!batching::any_batched(norm_factor) && (norm_factor <= 0).item<bool>()) norm_factor = zeros_like(norm_factor);
  in = in - avg.unsqueeze(1);
  const Tensor c = mm(in, (w.defined() ? in * w : in).t().conj());
  return (c / norm_factor).squeeze();
}

Tensor corrcoef(const Tensor& self) {
  EMBER_CHECK(self.defined() && self.dim() <= 2,
              "corrcoef(): expected input to have two or fewer dimensions but got an input with ",
              self.defined() ? self.dim() : 0, " dimensions");
  Tensor c = cov(self);
  if (c.dim() == 0) return c / c;  // one variable: 1, or NaN when it has no variance
  const Tensor d = diagonal(c);
  const Tensor stddev = sqrt(d.is_complex() ? real(d) : d);
  c = c / stddev.view({-1, 1});
  c = c / stddev.view({1, -1});
  // Rounding can push a coefficient past +-1.
  const auto lo = std::optional<Scalar>(-1), hi = std::optional<Scalar>(1);
  return c.is_complex() ? complex(clip(real(c), lo, hi), clip(imag(c), lo, hi)) : clip(c, lo, hi);
}

// ---- quantile ----------------------------------------------------------------

namespace {
enum class Interp { Linear, Lower, Higher, Midpoint, Nearest };

Interp parse_interpolation(const char* op, std::string_view s) {
  if (s == "linear") return Interp::Linear;
  if (s == "lower") return Interp::Lower;
  if (s == "higher") return Interp::Higher;
  if (s == "midpoint") return Interp::Midpoint;
  if (s == "nearest") return Interp::Nearest;
  EMBER_CHECK(false, op, "() interpolation must be one of linear, lower, higher, midpoint or nearest. Got ",
              std::string(s));
  return Interp::Linear;
}

Tensor quantile_impl(const char* op, const Tensor& self, const Tensor& q, std::optional<int64_t> dim, bool keepdim,
                     std::string_view interpolation, bool ignore_nan) {
  EMBER_CHECK(self.defined() && q.defined(), op, "(): expected defined tensors");
  EMBER_CHECK(self.numel() > 0, op, "() input tensor must be non-empty");
  EMBER_CHECK(q.dim() <= 1, op, "() q must be a scalar or 1D tensor, got shape ", shape_str(q.sizes()));
  EMBER_CHECK(self.scalar_type() == kFloat || self.scalar_type() == kDouble, op,
              "() input tensor must be either float or double dtype, got ", self.dtype());
  EMBER_CHECK(q.scalar_type() == self.scalar_type(), op, "() q tensor must be same dtype as the input tensor (",
              self.dtype(), "), got ", q.dtype());
  const Interp mode = parse_interpolation(op, interpolation);
  if (!batching::any_batched(q))
    EMBER_CHECK(logical_and(q >= 0, q <= 1).all().item<bool>(), op, "() q values must be in the range [0, 1]");

  // The values to pick from, sorted along a last dim (NaN sorts last).
  int64_t d = 0;
  Tensor s;
  if (dim) {
    d = wrap_dim(*dim, self.dim(), op);
    s = std::get<0>(sort(self.dim() == 0 ? self.reshape({1}) : self.movedim(d, -1), -1));
  } else {
    s = std::get<0>(sort(self.reshape({-1}), -1));
  }
  const int64_t n = s.size(-1);
  const Tensor q1 = q.reshape({-1});  // [Q]

  // Fractional ranks into each sorted slice, [..., Q].
  Tensor ranks;
  if (ignore_nan) {
    const Tensor valid = logical_not(isnan(s)).sum({-1}, true);
    ranks = (q1 * (valid - 1)).clamp_min(0);  // an all-NaN slice takes rank 0: NaN
  } else {
    ranks = where(isnan(s).any(-1, true), full({}, static_cast<double>(n - 1), q.options()),
                  q1 * static_cast<double>(n - 1));
  }
  if (mode == Interp::Lower) ranks = floor(ranks);
  if (mode == Interp::Higher) ranks = ceil(ranks);
  if (mode == Interp::Nearest) ranks = round(ranks);  // half to even, as PyTorch
  const Tensor below = ranks.to(kLong);
  Tensor r = gather(s, -1, below);
  if (mode == Interp::Linear || mode == Interp::Midpoint) {
    const Tensor w = mode == Interp::Midpoint ? full_like(ranks, 0.5) : ranks - below;
    r = lerp(r, gather(s, -1, ceil(ranks).to(kLong)), w);
  }

  // [..., Q] -> [Q, ...] (no Q dim for a scalar q), with the reduced dims kept on request.
  r = r.movedim(-1, 0);
  if (q.dim() == 0) r = r.squeeze(0);
  if (keepdim) {
    if (dim) {
      if (self.dim() > 0) r = r.unsqueeze(d + q.dim());
    } else {
      DimVector shape;
      if (q.dim() == 1) shape.push_back(q.numel());
      for (int64_t i = 0; i < self.dim(); ++i) shape.push_back(1);
      r = r.reshape(shape);
    }
  }
  return r;
}

Tensor scalar_q(const char* op, const Tensor& self, double q) {
  EMBER_CHECK(q >= 0 && q <= 1, op, "() q must be in the range [0, 1] but got ", q);
  return scalar_tensor(q, TensorOptions(self.defined() ? self.scalar_type() : kFloat));
}
}  // namespace

Tensor quantile(const Tensor& self, const Tensor& q, std::optional<int64_t> dim, bool keepdim,
                std::string_view interpolation) {
  return quantile_impl("quantile", self, q, dim, keepdim, interpolation, false);
}
Tensor quantile(const Tensor& self, double q, std::optional<int64_t> dim, bool keepdim,
                std::string_view interpolation) {
  return quantile_impl("quantile", self, scalar_q("quantile", self, q), dim, keepdim, interpolation, false);
}
Tensor nanquantile(const Tensor& self, const Tensor& q, std::optional<int64_t> dim, bool keepdim,
                   std::string_view interpolation) {
  return quantile_impl("nanquantile", self, q, dim, keepdim, interpolation, true);
}
Tensor nanquantile(const Tensor& self, double q, std::optional<int64_t> dim, bool keepdim,
                   std::string_view interpolation) {
  return quantile_impl("nanquantile", self, scalar_q("nanquantile", self, q), dim, keepdim, interpolation, true);
}

// ---- diff --------------------------------------------------------------------

Tensor diff(const Tensor& self, int64_t n, int64_t dim, const std::optional<Tensor>& prepend,
            const std::optional<Tensor>& append) {
  EMBER_CHECK(self.defined(), "diff: expected a defined tensor");
  EMBER_CHECK(self.dim() >= 1, "diff: expects input to be at least one-dimensional");
  EMBER_CHECK(n >= 0, "diff: order must be non-negative but got ", n);
  const int64_t d = wrap_dim(dim, self.dim(), "diff");
  auto on_dim = [&](const Tensor& t) {
    EMBER_CHECK(t.dim() == self.dim(), "diff: expects prepend or append to be the same dimension as input (got ",
                shape_str(t.sizes()), " for input ", shape_str(self.sizes()), ")");
    return t;
  };
  Tensor x = self;
  if (prepend || append) {
    std::vector<Tensor> parts;
    if (prepend) parts.push_back(on_dim(*prepend));
    parts.push_back(self);
    if (append) parts.push_back(on_dim(*append));
    x = cat(parts, d);
  }
  for (int64_t i = 0; i < n && x.size(d) > 0; ++i) {
    const int64_t len = x.size(d) - 1;
    const Tensor hi = x.narrow(d, 1, len), lo = x.narrow(d, 0, len);
    x = x.scalar_type() == kBool ? logical_xor(hi, lo) : hi - lo;
  }
  return x;
}

// ---- trapezoid rule ----------------------------------------------------------

namespace {
void check_trapezoid(const char* op, const Tensor& y, const Tensor* x) {
  EMBER_CHECK(y.defined(), op, ": expected a defined tensor");
  EMBER_CHECK(y.dim() >= 1, op, ": received a 0-dimensional tensor y; it needs at least one dimension");
  EMBER_CHECK(y.scalar_type() != kBool && (x == nullptr || x->scalar_type() != kBool), op,
              ": received a bool input for `x` or `y`, but bool is not supported");
}

// The spacing between sample points along d, shaped to broadcast against y.
Tensor spacing(const char* op, const Tensor& y, const Tensor& x, int64_t d) {
  Tensor xv = x;
  if (x.dim() == 1) {
    EMBER_CHECK(x.size(0) == y.size(d), op, ": There must be one `x` value for each sample point (x has ", x.size(0),
                ", y has ", y.size(d), " along dim ", d, ")");
    DimVector shape(static_cast<size_t>(y.dim()), 1);
    shape[static_cast<size_t>(d)] = x.size(0);
    xv = x.view(shape);
  } else if (x.dim() < y.dim()) {
    DimVector shape(static_cast<size_t>(y.dim() - x.dim()), 1);
    for (int64_t s : x.sizes()) shape.push_back(s);
    xv = x.view(shape);
  }
  const int64_t len = xv.size(d) - 1;
  return xv.narrow(d, 1, len) - xv.narrow(d, 0, len);
}

// y's shape without dim d, zero-filled: the rule over no samples.
Tensor zeros_without(const Tensor& y, int64_t d) {
  DimVector shape;
  for (int64_t i = 0; i < y.dim(); ++i)
    if (i != d) shape.push_back(y.size(i));
  return zeros(shape, y.options());
}

// Neighbour sums y[i] + y[i+1] along d.
Tensor pair_sums(const Tensor& y, int64_t d) {
  const int64_t len = y.size(d) - 1;
  return y.narrow(d, 1, len) + y.narrow(d, 0, len);
}
}  // namespace

Tensor trapezoid(const Tensor& y, const Tensor& x, int64_t dim) {
  check_trapezoid("trapezoid", y, &x);
  const int64_t d = wrap_dim(dim, y.dim(), "trapezoid");
  if (y.size(d) == 0) return zeros_without(y, d);
  return (spacing("trapezoid", y, x, d) * pair_sums(y, d)).sum({d}) / 2.0;
}

Tensor trapezoid(const Tensor& y, const Scalar& dx, int64_t dim) {
  check_trapezoid("trapezoid", y, nullptr);
  const int64_t d = wrap_dim(dim, y.dim(), "trapezoid");
  if (y.size(d) == 0) return zeros_without(y, d);
  // Every inner point counts fully, the two ends half.
  return (y.sum({d}) - (y.select(d, 0) + y.select(d, -1)) * 0.5) * dx;
}

Tensor trapz(const Tensor& y, const Tensor& x, int64_t dim) { return trapezoid(y, x, dim); }
Tensor trapz(const Tensor& y, double dx, int64_t dim) { return trapezoid(y, Scalar(dx), dim); }

Tensor cumulative_trapezoid(const Tensor& y, const Tensor& x, int64_t dim) {
  check_trapezoid("cumulative_trapezoid", y, &x);
  const int64_t d = wrap_dim(dim, y.dim(), "cumulative_trapezoid");
  if (y.size(d) == 0) return y.narrow(d, 0, 0).to(y.is_floating_point() ? y.scalar_type() : get_default_dtype());
  return cumsum(spacing("cumulative_trapezoid", y, x, d) * pair_sums(y, d) / 2.0, d);
}

Tensor cumulative_trapezoid(const Tensor& y, const Scalar& dx, int64_t dim) {
  check_trapezoid("cumulative_trapezoid", y, nullptr);
  const int64_t d = wrap_dim(dim, y.dim(), "cumulative_trapezoid");
  if (y.size(d) == 0) return y.narrow(d, 0, 0).to(y.is_floating_point() ? y.scalar_type() : get_default_dtype());
  return cumsum(pair_sums(y, d) * dx / 2.0, d);
}

Tensor Tensor::cov(int64_t correction, const std::optional<Tensor>& fweights,
                   const std::optional<Tensor>& aweights) const {
  return ember::cov(*this, correction, fweights, aweights);
}
Tensor Tensor::corrcoef() const { return ember::corrcoef(*this); }
Tensor Tensor::quantile(const Tensor& q, std::optional<int64_t> dim, bool keepdim,
                        std::string_view interpolation) const {
  return ember::quantile(*this, q, dim, keepdim, interpolation);
}
Tensor Tensor::quantile(double q, std::optional<int64_t> dim, bool keepdim, std::string_view interpolation) const {
  return ember::quantile(*this, q, dim, keepdim, interpolation);
}
Tensor Tensor::nanquantile(const Tensor& q, std::optional<int64_t> dim, bool keepdim,
                           std::string_view interpolation) const {
  return ember::nanquantile(*this, q, dim, keepdim, interpolation);
}
Tensor Tensor::nanquantile(double q, std::optional<int64_t> dim, bool keepdim, std::string_view interpolation) const {
  return ember::nanquantile(*this, q, dim, keepdim, interpolation);
}
Tensor Tensor::diff(int64_t n, int64_t dim, const std::optional<Tensor>& prepend,
                    const std::optional<Tensor>& append) const {
  return ember::diff(*this, n, dim, prepend, append);
}

}  // namespace torch
