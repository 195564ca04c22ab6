// The IIR recursion of lfilter as a custom autograd function.
//
// Note [IIR gradient]
// With y[n] = x[n] - sum_k a_k y[n-k], the adjoint lambda = dL/dx satisfies
// lambda[n] = g[n] - sum_k a_k lambda[n+k]: the same recursion run backwards
// in time, so lambda = flip(iir(flip(g), a)). The coefficient gradient is
// dL/da_k = -sum_n lambda[n] y[n-k], a correlation of lambda with the shifted
// output. Both are written with iir and differentiable ops, so the backward is
// itself differentiable (gradgradcheck covers it).
#include "ember/audio/functional/iir.h"

#include <algorithm>
#include <vector>

#include "ember/autograd/custom_function.h"
#include "ember/core/error.h"
#include "ember/core/parallel.h"
#include "ember/ops/all_ops.h"

namespace torch::audio::functional::detail {
namespace {

template <typename T>
void iir_rows(const T* x, const T* a, T* y, int64_t rows, int64_t channels, int64_t n, int64_t order) {
  // Each row gets `order` zeros of history in front, so the inner loop needs no bounds test.
  // Rows are independent; a grain of ~64k multiply-adds keeps short signals on one thread.
  const int64_t grain = std::max<int64_t>(1, (int64_t{1} << 16) / std::max<int64_t>(n * order, 1));
  parallel_for(0, rows, grain, [&](int64_t begin, int64_t end) {
    std::vector<T> padded(static_cast<size_t>(n + order), T(0));
    for (int64_t r = begin; r < end; ++r) {
      const T* xr = x + r * n;
      const T* ar = a + (r % channels) * (order + 1);
      std::fill(padded.begin(), padded.end(), T(0));
      T* out = padded.data();
      for (int64_t i = 0; i < n; ++i) {
        T v = xr[i];
        for (int64_t j = 0; j < order; ++j) v -= out[i + j] * ar[j];
        out[i + order] = v;
      }
      std::copy(out + order, out + order + n, y + r * n);
    }
  });
}

struct DifferentiableIIR : autograd::Function<DifferentiableIIR> {
  static Tensor forward(autograd::AutogradContext* ctx, const Tensor& x, const Tensor& a_flipped) {
    Tensor xc = x.contiguous();
    Tensor ac = a_flipped.contiguous();
    Tensor y = empty_like(xc);
    const int64_t rows = xc.size(0) * xc.size(1), channels = xc.size(1), n = xc.size(2);
    const int64_t order = ac.size(1) - 1;
    if (xc.scalar_type() == kFloat)
      iir_rows(xc.data_ptr<float>(), ac.data_ptr<float>(), y.data_ptr<float>(), rows, channels, n, order);
    else
      iir_rows(xc.data_ptr<double>(), ac.data_ptr<double>(), y.data_ptr<double>(), rows, channels, n, order);
    ctx->save_for_backward({a_flipped, y});
    return y;
  }

  static autograd::variable_list backward(autograd::AutogradContext* ctx, autograd::variable_list grads) {
    auto saved = ctx->get_saved_variables();
    const Tensor& a = saved[0];
    const Tensor& y = saved[1];
    Tensor lambda = iir(grads[0].flip({-1}), a).flip({-1});
    Tensor da;
    if (ctx->needs_input_grad(1)) {
      const int64_t order = a.size(1) - 1, n = y.size(2);
      Tensor ypad = constant_pad_nd(y, {order, 0});
      std::vector<Tensor> cols;
      for (int64_t j = 0; j < order; ++j) cols.push_back(-(lambda * ypad.slice(2, j, j + n)).sum({0, 2}));
      cols.push_back(zeros({a.size(0)}, TensorOptions(a.scalar_type())));
      da = stack(cols, 1);
    }
    return {ctx->needs_input_grad(0) ? lambda : Tensor(), da};
  }
};

}  // namespace

Tensor iir(const Tensor& x, const Tensor& a_flipped) {
  EMBER_CHECK(x.dim() == 3, "lfilter: expected a [batch, channel, time] signal, got ", x.sizes());
  EMBER_CHECK(a_flipped.dim() == 2 && a_flipped.size(0) == x.size(1) && a_flipped.size(1) >= 1,
              "lfilter: expected coefficients [", x.size(1), ", order + 1], got ", a_flipped.sizes());
  EMBER_CHECK(x.scalar_type() == a_flipped.scalar_type() && (x.scalar_type() == kFloat || x.scalar_type() == kDouble),
              "lfilter: expected float32 or float64 waveform and coefficients of one dtype, got ", x.scalar_type(),
              " and ", a_flipped.scalar_type());
  return DifferentiableIIR::apply(x, a_flipped);
}

}  // namespace torch::audio::functional::detail
