#include "ember/kernels/cpu/norm_kernels.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "ember/core/dispatch.h"
#include "ember/core/parallel.h"
#include "ember/kernels/cpu/lane_sum.h"

namespace torch::kernels {
namespace {

template <typename F>
void dispatch_f32_f64(const Tensor& t, const char* op, F&& f) {
  if (t.dtype() == kFloat) return f(float{});
  EMBER_CHECK(t.dtype() == kDouble, op, ": kernel expects float32 or float64, got ", t.dtype());
  f(double{});
}

// Grain in units of work items whose cost is `per_item` elements.
int64_t grain_for(int64_t per_item) { return std::max<int64_t>(1, 32768 / std::max<int64_t>(1, per_item)); }

}  // namespace

void channel_stats(const Tensor& x, int64_t n, int64_t c, int64_t s, Tensor& mean, Tensor& var) {
  dispatch_f32_f64(x, "batch_norm", [&](auto zero) {
    using T = decltype(zero);
    const T* px = x.data_ptr<T>();
    T* pm = mean.data_ptr<T>();
    T* pv = var.data_ptr<T>();
    const double count = static_cast<double>(n * s);
    parallel_for(0, c, grain_for(n * s), [&](int64_t c0, int64_t c1) {
      for (int64_t ch = c0; ch < c1; ++ch) {
        double sum = 0;
        for (int64_t i = 0; i < n; ++i) {
          const T* row = px + (i * c + ch) * s;
          double dacc = 0;
          for (int64_t j = 0; j < s; ++j) dacc += row[j];
          sum += dacc;
        }
        const double mu = count > 0 ? sum / count : NAN;
        double sq = 0;
        for (int64_t i = 0; i < n; ++i) {
          const T* row = px + (i * c + ch) * s;
          double acc = 0;
          for (int64_t j = 0; j < s; ++j) {
            const double d = static_cast<double>(row[j]) - mu;
            acc += d * d;
          }
          sq += acc;
        }
        pm[ch] = static_cast<T>(mu);
        pv[ch] = static_cast<T>(count > 0 ? sq / count : NAN);
      }
    });
  });
}

void channel_affine(const Tensor& x, int64_t n, int64_t c, int64_t s, const Tensor& scale, const Tensor& shift,
                    Tensor& y) {
  dispatch_f32_f64(x, "batch_norm", [&](auto zero) {
    using T = decltype(zero);
    const T* px = x.data_ptr<T>();
    const T* pa = scale.data_ptr<T>();
    const T* pb = shift.data_ptr<T>();
    T* py = y.data_ptr<T>();
    parallel_for(0, n * c, grain_for(s), [&](int64_t r0, int64_t r1) {
      for (int64_t r = r0; r < r1; ++r) {
        const T a = pa[r % c], b = pb[r % c];
        const T* in = px + r * s;
        T* out = py + r * s;
        for (int64_t j = 0; j < s; ++j) out[j] = in[j] * a + b;
      }
    });
  });
}

void batch_norm_backward_train(const Tensor& g, const Tensor& x, int64_t n, int64_t c, int64_t s, const Tensor& mean,
                               const Tensor& invstd, const Tensor& weight, Tensor& gi, Tensor& gw, Tensor& gb) {
  dispatch_f32_f64(x, "batch_norm_backward", [&](auto zero) {
    using T = decltype(zero);
    const T* pg = g.data_ptr<T>();
    const T* px = x.data_ptr<T>();
    const T* pm = mean.data_ptr<T>();
    const T* pr = invstd.data_ptr<T>();
    const T* pw = weight.defined() ? weight.data_ptr<T>() : nullptr;
    T* pgi = gi.defined() ? gi.data_ptr<T>() : nullptr;
    T* pgw = gw.defined() ? gw.data_ptr<T>() : nullptr;
    T* pgb = gb.defined() ? gb.data_ptr<T>() : nullptr;
    const double count = static_cast<double>(n * s);
    parallel_for(0, c, grain_for(2 * n * s), [&](int64_t c0, int64_t c1) {
      for (int64_t ch = c0; ch < c1; ++ch) {
        const T mu = pm[ch], rs = pr[ch];
        double sg = 0, sgx = 0;  // sum g, sum g * (x - mu)
        for (int64_t i = 0; i < n; ++i) {
          const T* gr = pg + (i * c + ch) * s;
          const T* xr = px + (i * c + ch) * s;
          double a = 0, b = 0;
          for (int64_t j = 0; j < s; ++j) {
            a += gr[j];
            b += static_cast<double>(gr[j]) * (static_cast<double>(xr[j]) - mu);
          }
          sg += a;
          sgx += b;
        }
        const double sum_gxhat = sgx * rs;
        if (pgb) pgb[ch] = static_cast<T>(sg);
        if (pgw) pgw[ch] = static_cast<T>(sum_gxhat);
        if (!pgi) continue;
        const double w = pw ? static_cast<double>(pw[ch]) : 1.0;
        // gi = w*rs*(g - sg/M) - w*rs*xhat*sum_gxhat/M = k*g + kx*(x - mu) + k0
        const T k = static_cast<T>(w * rs);
        const T kx = static_cast<T>(-w * rs * rs * sum_gxhat / count);
        const T k0 = static_cast<T>(-w * rs * sg / count);
        for (int64_t i = 0; i < n; ++i) {
          const T* gr = pg + (i * c + ch) * s;
          const T* xr = px + (i * c + ch) * s;
          T* o = pgi + (i * c + ch) * s;
          for (int64_t j = 0; j < s; ++j) o[j] = k * gr[j] + kx * (xr[j] - mu) + k0;
        }
      }
    });
  });
}

void layer_norm_rows(const Tensor& x, int64_t m, int64_t n, const Tensor& w, const Tensor& b, double eps, Tensor& y,
                     Tensor& mean, Tensor& rstd) {
  dispatch_f32_f64(x, "layer_norm", [&](auto zero) {
    using T = decltype(zero);
    const T* px = x.data_ptr<T>();
    const T* pw = w.defined() ? w.data_ptr<T>() : nullptr;
    const T* pb = b.defined() ? b.data_ptr<T>() : nullptr;
    T* py = y.data_ptr<T>();
    T* pm = mean.data_ptr<T>();
    T* pr = rstd.data_ptr<T>();
    parallel_for(0, m, grain_for(2 * n), [&](int64_t r0, int64_t r1) {
      for (int64_t r = r0; r < r1; ++r) {
        const T* in = px + r * n;
        T* out = py + r * n;
        const double sum = lane_sum<double>(n, [&](int64_t j) { return static_cast<double>(in[j]); });
        const double mu = n > 0 ? sum / static_cast<double>(n) : NAN;
        const double sq = lane_sum<double>(n, [&](int64_t j) {
          const double d = static_cast<double>(in[j]) - mu;
          return d * d;
        });
        const double var = n > 0 ? sq / static_cast<double>(n) : NAN;
        const double rs = 1.0 / std::sqrt(var + eps);
        pm[r] = static_cast<T>(mu);
        pr[r] = static_cast<T>(rs);
        const T tmu = static_cast<T>(mu), trs = static_cast<T>(rs);
        if (pw && pb) {
          for (int64_t j = 0; j < n; ++j) out[j] = (in[j] - tmu) * trs * pw[j] + pb[j];
        } else if (pw) {
          for (int64_t j = 0; j < n; ++j) out[j] = (in[j] - tmu) * trs * pw[j];
        } else if (pb) {
          for (int64_t j = 0; j < n; ++j) out[j] = (in[j] - tmu) * trs + pb[j];
        } else {
          for (int64_t j = 0; j < n; ++j) out[j] = (in[j] - tmu) * trs;
        }
      }
    });
  });
}

void layer_norm_backward_rows(const Tensor& g, int64_t g_row_stride, const Tensor& x, int64_t m, int64_t n,
                              const Tensor& mean, const Tensor& rstd, const Tensor& w, Tensor& gi, Tensor& gw,
                              Tensor& gb) {
  dispatch_f32_f64(x, "layer_norm_backward", [&](auto zero) {
    using T = decltype(zero);
    constexpr int64_t kBlock = 32;  // rows per partial sum of gw / gb
    const int64_t blocks = (m + kBlock - 1) / kBlock;
    const bool need_wb = gw.defined() || gb.defined();
    std::vector<double> pw_part(need_wb ? static_cast<size_t>(blocks * n) : 0, 0.0);
    std::vector<double> pb_part(need_wb ? static_cast<size_t>(blocks * n) : 0, 0.0);
    const T* pg = g.data_ptr<T>();
    const T* px = x.data_ptr<T>();
    const T* pm = mean.data_ptr<T>();
    const T* pr = rstd.data_ptr<T>();
    const T* pw = w.defined() ? w.data_ptr<T>() : nullptr;
    T* pgi = gi.defined() ? gi.data_ptr<T>() : nullptr;
    parallel_for(0, blocks, grain_for(3 * n * kBlock), [&](int64_t b0, int64_t b1) {
      for (int64_t blk = b0; blk < b1; ++blk) {
        double* accw = need_wb ? pw_part.data() + blk * n : nullptr;
        double* accb = need_wb ? pb_part.data() + blk * n : nullptr;
        for (int64_t r = blk * kBlock; r < std::min(m, (blk + 1) * kBlock); ++r) {
          const T* gr = pg + r * g_row_stride;
          const T* xr = px + r * n;
          const T mu = pm[r], rs = pr[r];
          if (need_wb)
            for (int64_t j = 0; j < n; ++j) {
              accw[j] += static_cast<double>(gr[j]) * static_cast<double>((xr[j] - mu) * rs);
              accb[j] += gr[j];
            }
          if (!pgi) continue;
          // sum gx, sum gx * xhat (Note [Row sums in lanes]); the weight test is outside
          // the loops so that they vectorise.
          double sa = 0, sb = 0;
          const auto sums = [&](auto gx_at) {
            sa = lane_sum<double>(n, [&](int64_t j) { return static_cast<double>(gx_at(j)); });
            sb = lane_sum<double>(
                n, [&](int64_t j) { return static_cast<double>(gx_at(j)) * static_cast<double>((xr[j] - mu) * rs); });
          };
          if (pw)
            sums([&](int64_t j) { return gr[j] * pw[j]; });
          else
            sums([&](int64_t j) { return gr[j]; });
          const T a = static_cast<T>(sa / static_cast<double>(n)), b = static_cast<T>(sb / static_cast<double>(n));
          T* o = pgi + r * n;
          for (int64_t j = 0; j < n; ++j) {
            const T gx = pw ? gr[j] * pw[j] : gr[j];
            o[j] = rs * (gx - a - (xr[j] - mu) * rs * b);
          }
        }
      }
    });
    if (!need_wb) return;
    T* ogw = gw.defined() ? gw.data_ptr<T>() : nullptr;
    T* ogb = gb.defined() ? gb.data_ptr<T>() : nullptr;
    for (int64_t j = 0; j < n; ++j) {
      double sw = 0, sb = 0;
      for (int64_t blk = 0; blk < blocks; ++blk) {
        sw += pw_part[static_cast<size_t>(blk * n + j)];
        sb += pb_part[static_cast<size_t>(blk * n + j)];
      }
      if (ogw) ogw[j] = static_cast<T>(sw);
      if (ogb) ogb[j] = static_cast<T>(sb);
    }
  });
}

}  // namespace torch::kernels
