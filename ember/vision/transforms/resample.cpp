#include "ember/vision/transforms/resample.h"

#include <algorithm>
#include <cmath>
#include <vector>

#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/core/parallel.h"
#include "ember/ops/factory/factory.h"
#include "ember/vmap/batched_tensor.h"

namespace torch::vision::transforms::functional::detail {

namespace {

// The taps of one axis: output o reads input start[o] .. start[o] + taps - 1 with weights w[o * taps ..].
template <typename T>
struct AxisTaps {
  int64_t taps = 0;
  std::vector<int64_t> start;
  std::vector<T> w;
};

double cubic_near(double x, double a) { return ((a + 2) * x - (a + 3)) * x * x + 1; }
double cubic_far(double x, double a) { return ((a * x - 5 * a) * x + 8 * a) * x - 4 * a; }

// PIL's filters, as PyTorch's antialiased kernels use them (Keys cubic with a = -0.5).
double aa_filter(double x, bool cubic) {
  x = std::abs(x);
  if (!cubic) return x < 1 ? 1 - x : 0;
  constexpr double a = -0.5;
  if (x < 1) return ((a + 2) * x - (a + 3)) * x * x + 1;
  if (x < 2) return (((x - 5) * x + 8) * x - 4) * a;
  return 0;
}

// Dense weights of one output (length in), by interpolate's formulas; returns [lo, hi) of the non-zeros.
std::pair<int64_t, int64_t> output_weights(std::vector<double>& row, int64_t o, int64_t in, double scale, bool cubic,
                                           bool antialias) {
  std::fill(row.begin(), row.end(), 0.0);
  if (antialias) {
    const double interp = cubic ? 4 : 2;
    const double support = scale >= 1 ? interp * 0.5 * scale : interp * 0.5;
    const double invscale = scale >= 1 ? 1 / scale : 1;
    const double center = scale * (o + 0.5);
    // Truncation toward zero, as ATen's static_cast<int64_t>.
    const int64_t lo = std::max<int64_t>(static_cast<int64_t>(center - support + 0.5), 0);
    const int64_t hi = std::min<int64_t>(static_cast<int64_t>(center + support + 0.5), in);
    double total = 0;
    for (int64_t j = lo; j < hi; ++j) total += row[j] = aa_filter((j - center + 0.5) * invscale, cubic);
    if (total != 0)
      for (int64_t j = lo; j < hi; ++j) row[j] /= total;
    return {lo, std::max(lo, hi)};
  }
  double real = scale * (o + 0.5) - 0.5;
  if (!cubic) {
    if (real < 0) real = 0;
    const auto i0 = static_cast<int64_t>(real);
    const int64_t i1 = i0 + (i0 < in - 1 ? 1 : 0);
    const double l1 = real - static_cast<double>(i0);
    row[i0] += 1 - l1;
    row[i1] += l1;
    return {i0, i1 + 1};
  }
  const auto i = static_cast<int64_t>(std::floor(real));
  const double t = real - static_cast<double>(i), a = -0.75;
  const double c[4] = {cubic_far(t + 1, a), cubic_near(t, a), cubic_near(1 - t, a), cubic_far(2 - t, a)};
  for (int64_t k = 0; k < 4; ++k) row[std::clamp<int64_t>(i - 1 + k, 0, in - 1)] += c[k];
  return {std::clamp<int64_t>(i - 1, 0, in - 1), std::clamp<int64_t>(i + 2, 0, in - 1) + 1};
}

template <typename T>
AxisTaps<T> axis_taps(int64_t in, int64_t out, bool cubic, bool antialias) {
  const double scale = static_cast<double>(in) / static_cast<double>(out);
  std::vector<double> row(in);
  std::vector<std::pair<int64_t, int64_t>> spans(out);
  int64_t taps = 1;
  for (int64_t o = 0; o < out; ++o) {
    spans[o] = output_weights(row, o, in, scale, cubic, antialias);
    taps = std::max(taps, spans[o].second - spans[o].first);
  }
  taps = std::min(taps, in);
  AxisTaps<T> a;
  a.taps = taps;
  a.start.resize(out);
  a.w.assign(out * taps, T(0));
  for (int64_t o = 0; o < out; ++o) {
    output_weights(row, o, in, scale, cubic, antialias);
    // Every output reads `taps` inputs; shift the window left where it would pass the end.
    const int64_t s = std::min(spans[o].first, in - taps);
    a.start[o] = s;
    for (int64_t k = 0; k < taps; ++k) a.w[o * taps + k] = static_cast<T>(row[s + k]);
  }
  return a;
}

// Along the last dim: [rows, in] -> [rows, out].
template <typename T>
void resample_rows(const T* src, T* dst, int64_t rows, int64_t in, int64_t out, const AxisTaps<T>& a) {
  parallel_for(0, rows, std::max<int64_t>(1, 16384 / std::max<int64_t>(out * a.taps, 1)), [&](int64_t b, int64_t e) {
    for (int64_t r = b; r < e; ++r) {
      const T* s = src + r * in;
      T* d = dst + r * out;
      for (int64_t o = 0; o < out; ++o) {
        const T* x = s + a.start[o];
        const T* w = a.w.data() + o * a.taps;
        T acc = 0;
        for (int64_t k = 0; k < a.taps; ++k) acc += w[k] * x[k];
        d[o] = acc;
      }
    }
  });
}

// Along the second-to-last dim: [planes, in, width] -> [planes, out, width].
template <typename T>
void resample_cols(const T* src, T* dst, int64_t planes, int64_t in, int64_t out, int64_t width, const AxisTaps<T>& a) {
  parallel_for(0, planes * out, std::max<int64_t>(1, 16384 / std::max<int64_t>(width * a.taps, 1)),
               [&](int64_t b, int64_t e) {
                 for (int64_t po = b; po < e; ++po) {
                   const int64_t p = po / out, o = po % out;
                   const T* s = src + (p * in + a.start[o]) * width;
                   const T* w = a.w.data() + o * a.taps;
                   T* d = dst + po * width;
                   for (int64_t x = 0; x < width; ++x) d[x] = w[0] * s[x];
                   for (int64_t k = 1; k < a.taps; ++k) {
                     const T wk = w[k];
                     const T* sk = s + k * width;
                     for (int64_t x = 0; x < width; ++x) d[x] += wk * sk[x];
                   }
                 }
               });
}

template <typename T>
Tensor resize_impl(const Tensor& input, int64_t oh, int64_t ow, bool cubic, bool antialias) {
  const Tensor x = input.contiguous();
  const int64_t n = x.size(0), c = x.size(1), h = x.size(2), w = x.size(3);
  const int64_t planes = n * c;
  Tensor cur = x;
  int64_t ch = h, cw = w;
  auto horizontal = [&] {
    if (cw == ow) return;
    const AxisTaps<T> a = axis_taps<T>(cw, ow, cubic, antialias);
    Tensor next = empty({n, c, ch, ow}, x.scalar_type());
    resample_rows(cur.data_ptr<T>(), next.data_ptr<T>(), planes * ch, cw, ow, a);
    cur = next;
    cw = ow;
  };
  auto vertical = [&] {
    if (ch == oh) return;
    const AxisTaps<T> a = axis_taps<T>(ch, oh, cubic, antialias);
    Tensor next = empty({n, c, oh, cw}, x.scalar_type());
    resample_cols(cur.data_ptr<T>(), next.data_ptr<T>(), planes, ch, oh, cw, a);
    cur = next;
    ch = oh;
  };
  // Shrink the larger reduction first: fewer rows for the second pass.
  if (static_cast<double>(oh) / h < static_cast<double>(ow) / w) {
    vertical();
    horizontal();
  } else {
    horizontal();
    vertical();
  }
  return cur.data_ptr<T>() == x.data_ptr<T>() ? x.clone() : cur;
}

}  // namespace

bool can_resample_separably(const Tensor& x) {
  return x.defined() && x.dim() == 4 && (x.scalar_type() == kFloat || x.scalar_type() == kDouble) && x.numel() > 0 &&
         !(x.requires_grad() && autograd::GradMode::is_enabled()) && !batching::is_batched(x) &&
         !x._fw_grad(0).defined();
}

Tensor separable_resize(const Tensor& x, int64_t out_h, int64_t out_w, bool cubic, bool antialias) {
  EMBER_CHECK(can_resample_separably(x) && out_h > 0 && out_w > 0,
              "resize: the separable resampler needs a float [N, C, H, W] image and a positive size");
  return x.scalar_type() == kFloat ? resize_impl<float>(x, out_h, out_w, cubic, antialias)
                                   : resize_impl<double>(x, out_h, out_w, cubic, antialias);
}

}  // namespace torch::vision::transforms::functional::detail
