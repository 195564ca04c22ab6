// The FFT primitives: run the batched kernels dim by dim on a contiguous copy
// and record the backward node (Note [Recording an op]).
#include "ember/fft/primitives.h"
#include "ember/core/record_scope.h"

#include <cmath>

#include "ember/autograd/formula_node.h"
#include "ember/autograd/grad_mode.h"
#include "ember/fft/fft_grad.h"
#include "ember/fft/kernel.h"
#include "ember/ops/factory/factory.h"
#include "ember/vmap/batching_rules.h"

namespace torch::fft::detail {

double norm_scale(Norm norm, int64_t signal_numel) {
  if (norm == Norm::None || signal_numel == 0) return 1.0;
  const double n = static_cast<double>(signal_numel);
  return norm == Norm::ByN ? 1.0 / n : 1.0 / std::sqrt(n);
}

namespace {
int64_t signal_numel(IntArrayRef sizes, IntArrayRef dims) {
  int64_t n = 1;
  for (int64_t d : dims) n *= sizes[d];
  return n;
}

// The public transforms have their own batching rules; the primitives are
// reached under vmap by the backward formulas (jacrev, per-sample gradients),
// with the batch dim put in front, so every transformed dim moves up by one.
DimVector after_front_batch(IntArrayRef dims) {
  DimVector r;
  for (int64_t d : dims) r.push_back(d + 1);
  return r;
}
}  // namespace

Tensor fft_c2c(const Tensor& self, IntArrayRef dims, Norm norm, bool forward) {
  EMBER_VMAP_ON_FRONT(self, v, fft_c2c(v, after_front_batch(dims), norm, forward));
  EMBER_RECORD_OP("_fft_c2c", self);
  EMBER_INTERNAL_ASSERT(self.is_complex(), "fft_c2c: expected a complex input, got ", self.dtype());
  Tensor out;
  {
    autograd::BelowAutogradGuard no_grad;
    Tensor x = self.contiguous();
    out = empty(x.sizes(), x.options());
    if (dims.empty()) out.copy_(x);
    const double scale = norm_scale(norm, signal_numel(x.sizes(), dims));
    for (size_t i = 0; i < dims.size(); ++i)
      c2c_dim(i == 0 ? x : out, out, dims[i], forward, i + 1 == dims.size() ? scale : 1.0);
  }
  if (autograd::needs_grad(self)) autograd::record_fft_c2c(self, out, dims, norm, forward);
  return out;
}

Tensor fft_r2c(const Tensor& self, IntArrayRef dims, Norm norm, bool onesided) {
  EMBER_VMAP_ON_FRONT(self, v, fft_r2c(v, after_front_batch(dims), norm, onesided));
  EMBER_RECORD_OP("_fft_r2c", self);
  EMBER_INTERNAL_ASSERT(self.is_floating_point() && !dims.empty(), "fft_r2c: expected a real input and dims");
  Tensor out;
  {
    autograd::BelowAutogradGuard no_grad;
    Tensor x = self.contiguous();
    const int64_t last = dims.back();
    const double scale = norm_scale(norm, signal_numel(x.sizes(), dims));
    if (!onesided && dims.size() > 1) {
      // Two-sided multi-dim output: the symmetry spans every dim, so transform in full.
      out = fft_c2c(x.to(to_complex_type(x.dtype())), dims, norm, true);
    } else {
      DimVector shape(x.sizes());
      if (onesided) shape[last] = shape[last] / 2 + 1;
      out = empty(shape, x.options().dtype(to_complex_type(x.dtype())));
      r2c_dim(x, out, last, scale);
      for (size_t i = 0; i + 1 < dims.size(); ++i) c2c_dim(out, out, dims[i], true, 1.0);
    }
  }
  if (autograd::needs_grad(self)) autograd::record_fft_r2c(self, out, dims, norm, onesided);
  return out;
}

Tensor fft_c2r(const Tensor& self, IntArrayRef dims, Norm norm, int64_t last_dim_size) {
  EMBER_VMAP_ON_FRONT(self, v, fft_c2r(v, after_front_batch(dims), norm, last_dim_size));
  EMBER_RECORD_OP("_fft_c2r", self);
  EMBER_INTERNAL_ASSERT(self.is_complex() && !dims.empty(), "fft_c2r: expected a complex input and dims");
  const int64_t last = dims.back();
  EMBER_INTERNAL_ASSERT(self.size(last) == last_dim_size / 2 + 1, "fft_c2r: input has ", self.size(last),
                        " bins for an output of length ", last_dim_size);
  Tensor out;
  {
    autograd::BelowAutogradGuard no_grad;
    Tensor x = self.contiguous();
    if (dims.size() > 1) {
      Tensor tmp = empty(x.sizes(), x.options());
      for (size_t i = 0; i + 1 < dims.size(); ++i) c2c_dim(i == 0 ? x : tmp, tmp, dims[i], false, 1.0);
      x = tmp;
    }
    DimVector shape(x.sizes());
    shape[last] = last_dim_size;
    out = empty(shape, x.options().dtype(to_real_type(x.dtype())));
    c2r_dim(x, out, last, norm_scale(norm, signal_numel(shape, dims)));
  }
  if (autograd::needs_grad(self)) autograd::record_fft_c2r(self, out, dims, norm, last_dim_size);
  return out;
}

}  // namespace torch::fft::detail
