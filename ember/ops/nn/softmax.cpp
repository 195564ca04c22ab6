// softmax and log_softmax: one kernel for both, over a contiguous copy of the input
// viewed as [outer, n, inner] with n the softmax dim.
#include "ember/ops/nn/softmax.h"
#include "ember/core/record_scope.h"

#include <algorithm>
#include <cmath>
#include <type_traits>
#include <vector>

#include "ember/autograd/derivatives/nn_loss_grad.h"
#include "ember/autograd/formula_node.h"
#include "ember/autograd/forward_ad.h"
#include "ember/autograd/grad_mode.h"
#include "ember/autograd/node.h"
#include "ember/core/dispatch.h"
#include "ember/core/error.h"
#include "ember/core/parallel.h"
#include "ember/core/shape.h"
#include "ember/core/tensor.h"
#include "ember/kernels/cpu/softmax_row.h"
#include "ember/ops/all_ops.h"
#include "ember/vmap/batching_rules.h"
#include "ember/vmap/vmap.h"

namespace torch {

namespace {

// Note [Softmax NaN and inf]
// Every row is max-subtracted. A NaN anywhere in a row makes the row's sum NaN, so the
// whole row is NaN; a +inf gives inf - inf = NaN likewise; an all -inf row gives
// -inf - -inf = NaN. That is exactly what PyTorch's CPU kernels return.
template <typename T, bool kLog>
void softmax_lastdim(const T* in, T* out, int64_t rows, int64_t n) {
  const int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(n, 1));
  const auto row = kernels::softmax_row_fn<T, kLog>();
  parallel_for(0, rows, grain, [&](int64_t begin, int64_t end) {
    for (int64_t r = begin; r < end; ++r) row(in + r * n, out + r * n, n);
  });
}

// Softmax over a strided dim: each (outer, inner block) task walks the n rows of a
// [n, block] tile so the innermost loops run over contiguous inner elements.
template <typename T, bool kLog>
void softmax_inner(const T* in, T* out, int64_t outer, int64_t n, int64_t inner) {
  using Acc = opmath_t<T>;
  constexpr int64_t kBlock = 256;
  const int64_t blocks = (inner + kBlock - 1) / kBlock;
  const int64_t grain = std::max<int64_t>(1, kGrainSize / std::max<int64_t>(n * std::min(inner, kBlock), 1));
  parallel_for(0, outer * blocks, grain, [&](int64_t begin, int64_t end) {
    Acc mx[kBlock], sum[kBlock];
    for (int64_t task = begin; task < end; ++task) {
      const int64_t o = task / blocks, b0 = (task % blocks) * kBlock;
      const int64_t w = std::min(kBlock, inner - b0);
      const T* x = in + o * n * inner + b0;
      T* y = out + o * n * inner + b0;
      std::fill(mx, mx + w, Acc(-INFINITY));
      std::fill(sum, sum + w, Acc(0));
      for (int64_t k = 0; k < n; ++k)
        for (int64_t i = 0; i < w; ++i) mx[i] = std::max(mx[i], static_cast<Acc>(x[k * inner + i]));
      for (int64_t k = 0; k < n; ++k)
        for (int64_t i = 0; i < w; ++i) sum[i] += std::exp(static_cast<Acc>(x[k * inner + i]) - mx[i]);
      if constexpr (kLog) {
        for (int64_t i = 0; i < w; ++i) mx[i] += std::log(sum[i]);
        for (int64_t k = 0; k < n; ++k)
          for (int64_t i = 0; i < w; ++i) y[k * inner + i] = static_cast<T>(static_cast<Acc>(x[k * inner + i]) - mx[i]);
      } else {
        for (int64_t i = 0; i < w; ++i) sum[i] = Acc(1) / sum[i];
        for (int64_t k = 0; k < n; ++k)
          for (int64_t i = 0; i < w; ++i)
            y[k * inner + i] = static_cast<T>(std::exp(static_cast<Acc>(x[k * inner + i]) - mx[i]) * sum[i]);
      }
    }
  });
}

template <bool kLog>
Tensor softmax_impl(const char* op, const Tensor& self_in, int64_t dim, std::optional<ScalarType> dtype) {
  EMBER_RECORD_OP(op, self_in);
  EMBER_CHECK(self_in.defined(), op, ": expected a defined tensor");
  const Tensor self = dtype && *dtype != self_in.scalar_type() ? self_in.to(*dtype) : self_in;
  const ScalarType st = self.scalar_type();
  EMBER_CHECK(st == kFloat || st == kDouble || st == kBFloat16, op, ": not implemented for ", dtype_name(st),
              " (input ", shape_str(self.sizes()), "); pass dtype= or convert to a floating dtype");
  const int64_t d = wrap_dim(dim, self.dim(), op);
  Tensor out;
  {
    autograd::BelowAutogradGuard no_grad;
    const Tensor x = self.contiguous();
    out = empty(self.sizes(), self.options());
    if (self.numel() > 0) {
      int64_t outer = 1, inner = 1;
      const int64_t n = self.dim() == 0 ? 1 : self.size(d);
      for (int64_t i = 0; i < d; ++i) outer *= self.size(i);
      for (int64_t i = d + 1; i < self.dim(); ++i) inner *= self.size(i);
      auto run = [&](auto tag) {
        using T = EMBER_TYPE(tag);
        const T* in = x.data_ptr<T>();
        T* o = out.data_ptr<T>();
        if (inner == 1)
          softmax_lastdim<T, kLog>(in, o, outer, n);
        else
          softmax_inner<T, kLog>(in, o, outer, n, inner);
      };
      // Only the dtypes PyTorch's CPU kernel has (no float16), so no other instantiations.
      if (st == kFloat)
        run(TypeTag<float>{});
      else if (st == kDouble)
        run(TypeTag<double>{});
      else
        run(TypeTag<BFloat16>{});
    }
  }
  if (autograd::needs_grad(self)) autograd::record_softmax(self, out, d, kLog);
  return out;
}

}  // namespace

Tensor softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  EMBER_VMAP_ALONG_DIM(self, dim, "softmax", v, d, softmax(v, d, dtype));
  return softmax_impl<false>("softmax", self, dim, dtype);
}
Tensor log_softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype) {
  EMBER_VMAP_ALONG_DIM(self, dim, "log_softmax", v, d, log_softmax(v, d, dtype));
  return softmax_impl<true>("log_softmax", self, dim, dtype);
}

Tensor Tensor::softmax(int64_t dim, std::optional<ScalarType> dtype) const { return ember::softmax(*this, dim, dtype); }
Tensor Tensor::log_softmax(int64_t dim, std::optional<ScalarType> dtype) const {
  return ember::log_softmax(*this, dim, dtype);
}

}  // namespace torch
