// Batched 1-D transforms: every lane along `dim` is gathered into a
// contiguous buffer (or used in place when the dim is innermost), run through
// this thread's KissFFT plan (Note [FFT plan cache]) and scattered back scaled.
#include "ember/fft/kernel.h"

#include <algorithm>
#include <vector>

#include "ember/core/parallel.h"
#include "ember/fft/batched.h"
#include "ember/fft/plan_cache.h"

namespace torch::fft::detail {

namespace {

// A transform touches each element ~log n times; smaller grains than the
// elementwise one keep both threads busy on moderate batches.
int64_t lane_grain(int64_t n) { return std::max<int64_t>(1, 8192 / std::max<int64_t>(n, 1)); }

struct Lanes {
  int64_t outer = 1, inner = 1;
  Lanes(const Tensor& t, int64_t dim) {
    for (int64_t d = 0; d < dim; ++d) outer *= t.size(d);
    for (int64_t d = dim + 1; d < t.dim(); ++d) inner *= t.size(d);
  }
  int64_t count() const { return outer * inner; }
  // Offset of lane l's first element in a tensor whose `dim` has size n.
  int64_t base(int64_t l, int64_t n) const { return (l / inner) * n * inner + l % inner; }
};

// Bins 0..n/2 of the real signal `re` (length n) into `bins`; `work` holds n complex values.
template <typename T>
void real_forward(const T* re, cpx<T>* bins, int64_t n, std::vector<cpx<T>>& work) {
  if (n == 1) {
    bins[0] = re[0];
  } else if (n % 2 == 0) {
    real_plan<T>(n, false).forward(re, bins);
  } else {
    for (int64_t j = 0; j < n; ++j) work[j] = re[j];
    complex_plan<T>(n, false).run(work.data(), work.data() + n);
    std::copy(work.begin() + n, work.begin() + n + n / 2 + 1, bins);
  }
}

// Batches of at least half a vector's worth of lanes take the lane-parallel
// path (Note [Lane-parallel FFT]); `group` lanes per task (W complex, 2W real).
template <typename T>
bool use_batched(int64_t lanes, int64_t n) {
  return n > 1 && lanes >= kLaneWidth<T> / 2;
}
LaneMap lane_map(const Lanes& l, int64_t n) { return LaneMap{l.inner, n * l.inner, 1, l.inner}; }

template <typename F>
void for_groups(int64_t lanes, int64_t group, int64_t n, const F& f) {
  const int64_t groups = (lanes + group - 1) / group;
  parallel_for(0, groups, std::max<int64_t>(1, lane_grain(n) / group),
               [&](int64_t b, int64_t e) { f(b * group, std::min(lanes, e * group)); });
}

template <typename T>
void c2c_impl(const Tensor& in, const Tensor& out, int64_t dim, bool forward, double scale) {
  const int64_t n = in.size(dim);
  const Lanes lanes(in, dim);
  const cpx<T>* src = static_cast<const cpx<T>*>(in.data_ptr());
  cpx<T>* dst = static_cast<cpx<T>*>(out.data_ptr());
  const bool direct = lanes.inner == 1 && src != dst;
  const T s = static_cast<T>(scale);
  if (use_batched<T>(lanes.count(), n)) {  // in place is fine: a group reads all its lanes first
    for_groups(lanes.count(), kLaneWidth<T>, n, [&](int64_t b, int64_t e) {
      batched_c2c<T>(src, lane_map(lanes, n), dst, lane_map(lanes, n), n, b, e, forward, s);
    });
    return;
  }
  parallel_for(0, lanes.count(), lane_grain(n), [&](int64_t begin, int64_t end) {
    const ComplexPlan<T>& plan = complex_plan<T>(n, !forward);
    std::vector<cpx<T>> a(n), b(n);
    for (int64_t l = begin; l < end; ++l) {
      const int64_t off = lanes.base(l, n), st = lanes.inner;
      if (direct) {
        if (n == 1)
          dst[off] = src[off];
        else
          plan.run(src + off, dst + off);
        if (s != T(1))
          for (int64_t k = 0; k < n; ++k) dst[off + k] *= s;
        continue;
      }
      for (int64_t k = 0; k < n; ++k) a[k] = src[off + k * st];
      if (n == 1)
        b[0] = a[0];
      else
        plan.run(a.data(), b.data());
      for (int64_t k = 0; k < n; ++k) dst[off + k * st] = b[k] * s;
    }
  });
}

template <typename T>
void r2c_impl(const Tensor& in, const Tensor& out, int64_t dim, double scale) {
  const int64_t n = in.size(dim), m = out.size(dim), half = n / 2 + 1;
  const Lanes lanes(in, dim);
  const T* src = static_cast<const T*>(in.data_ptr());
  cpx<T>* dst = static_cast<cpx<T>*>(out.data_ptr());
  const T s = static_cast<T>(scale);
  if (use_batched<T>(lanes.count(), n)) {
    for_groups(lanes.count(), 2 * kLaneWidth<T>, n, [&](int64_t b, int64_t e) {
      batched_r2c<T>(src, lane_map(lanes, n), nullptr, dst, lane_map(lanes, m), n, m, b, e, s);
    });
    return;
  }
  parallel_for(0, lanes.count(), lane_grain(n), [&](int64_t begin, int64_t end) {
    std::vector<T> re(n);
    std::vector<cpx<T>> bins(half + 1), work(2 * n);
    for (int64_t l = begin; l < end; ++l) {
      const int64_t ioff = lanes.base(l, n), ooff = lanes.base(l, m), st = lanes.inner;
      const T* x = src + ioff;
      if (st != 1) {
        for (int64_t k = 0; k < n; ++k) re[k] = src[ioff + k * st];
        x = re.data();
      }
      real_forward<T>(x, bins.data(), n, work);
      for (int64_t k = 0; k < m; ++k) {
        // Bins above n/2 (two-sided output) are the conjugates of their mirrors.
        const cpx<T> v = k < half ? bins[k] : std::conj(bins[n - k]);
        dst[ooff + k * st] = v * s;
      }
    }
  });
}

template <typename T>
void c2r_impl(const Tensor& in, const Tensor& out, int64_t dim, double scale) {
  const int64_t n = out.size(dim), h = in.size(dim);
  const Lanes lanes(in, dim);
  const cpx<T>* src = static_cast<const cpx<T>*>(in.data_ptr());
  T* dst = static_cast<T*>(out.data_ptr());
  const T s = static_cast<T>(scale);
  const bool real_path = std::is_same_v<T, float> && n % 2 == 0;
  if (use_batched<T>(lanes.count(), n)) {
    for_groups(lanes.count(), 2 * kLaneWidth<T>, n, [&](int64_t b, int64_t e) {
      batched_c2r<T>(src, lane_map(lanes, h), dst, lane_map(lanes, n), n, b, e, s);
    });
    return;
  }
  parallel_for(0, lanes.count(), lane_grain(n), [&](int64_t begin, int64_t end) {
    std::vector<cpx<T>> full(n), res(n);
    std::vector<T> re(n);
    for (int64_t l = begin; l < end; ++l) {
      const int64_t ioff = lanes.base(l, h), ooff = lanes.base(l, n), st = lanes.inner;
      if (n == 1) {
        dst[ooff] = src[ioff].real() * s;
        continue;
      }
      if (real_path) {
        for (int64_t k = 0; k < h; ++k) full[k] = src[ioff + k * st];
        real_plan<T>(n, true).inverse(full.data(), re.data());
        for (int64_t k = 0; k < n; ++k) dst[ooff + k * st] = re[k] * s;
        continue;
      }
      // Rebuild the Hermitian spectrum; imaginary parts of bins 0 and n/2
      // only reach the imaginary part of the result, which is dropped.
      full[0] = src[ioff];
      for (int64_t k = 1; k < h; ++k) {
        full[k] = src[ioff + k * st];
        if (n - k != k) full[n - k] = std::conj(full[k]);
      }
      complex_plan<T>(n, true).run(full.data(), res.data());
      for (int64_t k = 0; k < n; ++k) dst[ooff + k * st] = res[k].real() * s;
    }
  });
}

template <typename T>
void framed_impl(const Tensor& x, const Tensor& window, const Tensor& out, int64_t n, int64_t hop, double scale) {
  const int64_t batch = x.size(0), len = x.size(1), frames = out.size(1), half = n / 2 + 1;
  const T* src = static_cast<const T*>(x.data_ptr());
  const T* w = window.defined() ? static_cast<const T*>(window.data_ptr()) : nullptr;
  cpx<T>* dst = static_cast<cpx<T>*>(out.data_ptr());
  const T s = static_cast<T>(scale);
  if (use_batched<T>(batch * frames, n)) {
    const LaneMap im{frames, len, hop, 1}, om{1, half, 0, 1};
    for_groups(batch * frames, 2 * kLaneWidth<T>, n,
               [&](int64_t b, int64_t e) { batched_r2c<T>(src, im, w, dst, om, n, half, b, e, s); });
    return;
  }
  parallel_for(0, batch * frames, lane_grain(n), [&](int64_t begin, int64_t end) {
    std::vector<T> re(n);
    std::vector<cpx<T>> bins(half + 1), work(2 * n);
    for (int64_t l = begin; l < end; ++l) {
      const T* frame = src + (l / frames) * len + (l % frames) * hop;
      if (w != nullptr)
        for (int64_t k = 0; k < n; ++k) re[k] = frame[k] * w[k];
      else
        std::copy(frame, frame + n, re.begin());
      cpx<T>* o = dst + l * half;
      real_forward<T>(re.data(), bins.data(), n, work);
      for (int64_t k = 0; k < half; ++k) o[k] = bins[k] * s;
    }
  });
}

}  // namespace

void c2c_dim(const Tensor& in, const Tensor& out, int64_t dim, bool forward, double scale) {
  if (in.numel() == 0) return;
  if (in.dtype() == kComplexFloat)
    c2c_impl<float>(in, out, dim, forward, scale);
  else
    c2c_impl<double>(in, out, dim, forward, scale);
}

void r2c_dim(const Tensor& in, const Tensor& out, int64_t dim, double scale) {
  if (in.numel() == 0 || out.numel() == 0) return;
  if (in.dtype() == kFloat)
    r2c_impl<float>(in, out, dim, scale);
  else
    r2c_impl<double>(in, out, dim, scale);
}

void c2r_dim(const Tensor& in, const Tensor& out, int64_t dim, double scale) {
  if (out.numel() == 0) return;
  if (in.dtype() == kComplexFloat)
    c2r_impl<float>(in, out, dim, scale);
  else
    c2r_impl<double>(in, out, dim, scale);
}

void framed_rfft(const Tensor& x, const Tensor& window, const Tensor& out, int64_t n, int64_t hop, double scale) {
  if (out.numel() == 0) return;
  if (x.dtype() == kFloat)
    framed_impl<float>(x, window, out, n, hop, scale);
  else
    framed_impl<double>(x, window, out, n, hop, scale);
}

}  // namespace torch::fft::detail
