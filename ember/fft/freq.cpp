// fftfreq / rfftfreq / fftshift / ifftshift (torch.fft's helpers). The shifts
// are rolls, so they are differentiable through roll's formula.
#include <cmath>
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
#include "ember/fft.h"
#include "ember/fft/fft.h"
#include "ember/linalg/batching_rules.h"
#include "ember/ops/all_ops.h"
#include "ember/vmap/vmap.h"

namespace torch::fft {

namespace {
Tensor check_freq_options(const char* op, int64_t n, const TensorOptions& options) {
  EMBER_CHECK(n >= 0, op, ": n must be non-negative, got ", n);
  const ScalarType t = options.dtype();
  EMBER_CHECK(is_floating_point(t) || is_complex(t), op, ": expected a floating point or complex dtype, got ",
              dtype_name(t));
  return arange(n, options.dtype(kLong));
}
}  // namespace

Tensor fftfreq(int64_t n, double d, const TensorOptions& options) {
  EMBER_RECORD_OP("fft_fftfreq");
  Tensor k = check_freq_options("fft_fftfreq", n, options);
  // Bins k >= ceil(n/2) are the negative frequencies k - n.
  Tensor r = k - (k >= (n + 1) / 2).to(kLong) * n;
  return (r.to(kDouble) / (static_cast<double>(n) * d)).to(options.dtype()).requires_grad_(options.requires_grad());
}
Tensor fftfreq(int64_t n, const TensorOptions& options) { return fftfreq(n, 1.0, options); }

Tensor rfftfreq(int64_t n, double d, const TensorOptions& options) {
  EMBER_RECORD_OP("fft_rfftfreq");
  check_freq_options("fft_rfftfreq", n, options);
  Tensor k = arange(n / 2 + 1, TensorOptions(kDouble));
  return (k / (static_cast<double>(n) * d)).to(options.dtype()).requires_grad_(options.requires_grad());
}
Tensor rfftfreq(int64_t n, const TensorOptions& options) { return rfftfreq(n, 1.0, options); }

namespace {
Tensor shift(const char* op, const Tensor& self, OptionalIntArrayRef dim, bool inverse) {
  EMBER_VMAP_ON_FRONT(self, v, shift(op, v, batching::fft_phys_dims(op, self, std::nullopt, dim), inverse));
  EMBER_RECORD_OP(op, self);
  EMBER_CHECK(self.defined(), op, ": expected a defined tensor");
  DimVector dims, shifts;
  if (dim) {
    for (int64_t d : *dim) dims.push_back(wrap_dim(d, self.dim(), op, false));
  } else {
    for (int64_t d = 0; d < self.dim(); ++d) dims.push_back(d);
  }
  // fftshift rolls by floor(n/2), ifftshift by -floor(n/2) (= ceil(n/2) mod n).
  for (int64_t d : dims) shifts.push_back(inverse ? (self.size(d) + 1) / 2 : self.size(d) / 2);
  if (dims.empty()) return self;
  return self.roll(shifts, dims);
}
}  // namespace

Tensor fftshift(const Tensor& self, OptionalIntArrayRef dim) { return shift("fft_fftshift", self, dim, false); }
Tensor ifftshift(const Tensor& self, OptionalIntArrayRef dim) { return shift("fft_ifftshift", self, dim, true); }

}  // namespace torch::fft
