// The pooling loops (raw kernels over contiguous tensors; ops/nn/pool_ops.cpp makes them
// differentiable ops).
// Note [Pooling kernels]
// Every pooling op is described per spatial dim by its windows: output
// position o reads input positions first[o] + j * step for j < count[o]
// (already clipped to the input, so padding is never read). Max pooling,
// average pooling and their adaptive forms differ only in how the windows are
// built (windows() below) and in what is done over them. Shapes are padded
// to three spatial dims with size-1 leading dims, so one loop nest serves
// 1-d, 2-d and 3-d. Planes (N*C) are independent and split across threads.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <type_traits>
#include <vector>

#include "ember/core/error.h"
#include "ember/core/parallel.h"
#include "ember/core/tensor.h"
#include "ember/core/tensor_make.h"
#include "ember/kernels/cpu/pool_kernels.h"
#include "ember/kernels/cpu/vec_math.h"

namespace torch::pool {

DimVector PoolSpec::pack() const {
  DimVector v{nd, adaptive ? 1 : 0, count_include_pad ? 1 : 0, divisor_override};
  for (const DimVector* d : {&kernel, &stride, &padding, &dilation, &in_size, &out_size})
    for (int64_t x : *d) v.push_back(x);
  return v;
}

PoolSpec PoolSpec::unpack(IntArrayRef v) {
  PoolSpec s;
  s.nd = v[0];
  s.adaptive = v[1] != 0;
  s.count_include_pad = v[2] != 0;
  s.divisor_override = v[3];
  DimVector* parts[] = {&s.kernel, &s.stride, &s.padding, &s.dilation, &s.in_size, &s.out_size};
  for (int64_t p = 0; p < 6; ++p)
    for (int64_t i = 0; i < s.nd; ++i) parts[p]->push_back(v[4 + p * s.nd + i]);
  return s;
}

namespace {

struct Axis {
  int64_t in = 1, out = 1, step = 1;
  std::vector<int64_t> first{0}, count{1}, full{1};  // full: window length counting padding (avg)
  // The unclipped frame: output o's window would start at origin + o * stride and hold
  // kernel elements if padding were real. regular: the frame is exact (built from a
  // kernel, stride and padding with dilation 1, or an unpooled size-1 dim), which an
  // adaptive or dilated pooling's is not.
  int64_t origin = 0, stride = 1, kernel = 1;
  bool regular = true;
};

struct Windows {
  Axis ax[3];
  int64_t isize() const { return ax[0].in * ax[1].in * ax[2].in; }
  int64_t osize() const { return ax[0].out * ax[1].out * ax[2].out; }
};

Windows windows(const PoolSpec& s) {
  Windows w;
  for (int64_t i = 0; i < s.nd; ++i) {
    Axis& a = w.ax[3 - s.nd + i];
    a.in = s.in_size[i];
    a.out = s.out_size[i];
    // The tables are sized by one output dim, before the output is allocated:
    // an output too large for memory fails here, as an ember::Error.
    try {
      a.first.assign(a.out, 0);
      a.count.assign(a.out, 0);
      a.full.assign(a.out, 0);
    } catch (const std::exception&) {  // std::bad_alloc, std::length_error
      EMBER_ERROR("pooling: cannot allocate the window tables for an output size of ", a.out);
    }
    a.regular = !s.adaptive && s.dilation[i] == 1;
    if (!s.adaptive) {
      a.origin = -s.padding[i];
      a.stride = s.stride[i];
      a.kernel = s.kernel[i];
    }
    for (int64_t o = 0; o < a.out; ++o) {
      if (s.adaptive) {
        const int64_t lo = o * a.in / a.out, hi = ((o + 1) * a.in + a.out - 1) / a.out;
        a.first[o] = lo;
        a.count[o] = a.full[o] = hi - lo;
        continue;
      }
      const int64_t d = s.dilation[i], k = s.kernel[i], start = o * s.stride[i] - s.padding[i];
      a.step = d;
      const int64_t j0 = start < 0 ? (-start + d - 1) / d : 0;
      const int64_t j1 = start > a.in - 1 ? -1 : std::min(k - 1, (a.in - 1 - start) / d);
      a.first[o] = start + j0 * d;
      a.count[o] = std::max<int64_t>(j1 - j0 + 1, 0);
      a.full[o] = std::min(start + k, a.in + s.padding[i]) - start;  // avg only (dilation 1)
    }
  }
  return w;
}

int64_t plane_grain(const Windows& w) { return 1 + kGrainSize / (w.osize() * 4 + 1); }

// Calls f(o, idx) for each output o of one plane and each input index idx of its window;
// begin(o) before and end(o) after each window.
template <typename Begin, typename Body, typename End>
void walk(const Windows& w, const Begin& begin, const Body& body, const End& end) {
  // Local copies: stores through the kernels' int64 index pointers could
  // otherwise alias the window tables and force reloads in the inner loop.
  const int64_t* f0 = w.ax[0].first.data();
  const int64_t* f1 = w.ax[1].first.data();
  const int64_t* f2 = w.ax[2].first.data();
  const int64_t* c0 = w.ax[0].count.data();
  const int64_t* c1 = w.ax[1].count.data();
  const int64_t* c2 = w.ax[2].count.data();
  const int64_t s0 = w.ax[0].step, s1 = w.ax[1].step, s2 = w.ax[2].step;
  const int64_t out0 = w.ax[0].out, out1 = w.ax[1].out, out2 = w.ax[2].out, in1 = w.ax[1].in, in2 = w.ax[2].in;
  int64_t o = 0;
  for (int64_t od = 0; od < out0; ++od)
    for (int64_t oh = 0; oh < out1; ++oh)
      for (int64_t ow = 0; ow < out2; ++ow, ++o) {
        begin(o, od, oh, ow);
        const int64_t nd = c0[od], nh = c1[oh], nw = c2[ow], fw = f2[ow];
        for (int64_t jd = 0; jd < nd; ++jd) {
          const int64_t id = f0[od] + jd * s0;
          for (int64_t jh = 0; jh < nh; ++jh) {
            const int64_t base = (id * in1 + f1[oh] + jh * s1) * in2 + fw;
            for (int64_t jw = 0; jw < nw; ++jw) body(o, base + jw * s2);
          }
        }
        end(o);
      }
}

// The divisor of output (od, oh, ow), or 0 for an empty window.
double divisor(const Windows& w, const PoolSpec& s, int64_t od, int64_t oh, int64_t ow) {
  const int64_t n = w.ax[0].count[od] * w.ax[1].count[oh] * w.ax[2].count[ow];
  if (n == 0) return 0;
  if (s.divisor_override) return static_cast<double>(s.divisor_override);
  if (s.count_include_pad && !s.adaptive) return double(w.ax[0].full[od] * w.ax[1].full[oh] * w.ax[2].full[ow]);
  return static_cast<double>(n);
}

DimVector with_spatial(const Tensor& t, int64_t nd, IntArrayRef spatial) {
  DimVector shape(t.sizes().slice(0, t.dim() - nd));
  for (int64_t v : spatial) shape.push_back(v);
  return shape;
}

template <typename F>
void dispatch_pool(const Tensor& t, const char* op, const F& f) {
  if (t.scalar_type() == ScalarType::Float) return f(float{});
  EMBER_CHECK(t.scalar_type() == ScalarType::Double, op, ": supports float32 and float64, but got ", t.scalar_type());
  f(double{});
}

// Whether every window of a 1-d/2-d pooling is the full kernel inside the
// input (no padding reached, no dilation): the common CNN case, which gets a
// tight loop (max_plane_dense) instead of the general walk.
bool is_dense(const Windows& w) {
  if (w.ax[0].out != 1 || w.ax[0].count[0] != 1) return false;
  for (int64_t a = 1; a < 3; ++a) {
    const Axis& x = w.ax[a];
    if (x.step != 1 || x.out == 0) return false;
    for (int64_t o = 0; o < x.out; ++o)
      if (x.count[o] != x.count[0] || (o > 0 && x.first[o] - x.first[o - 1] != x.first[1] - x.first[0])) return false;
  }
  return true;
}

// Note [Prefetching the next plane]
// Dense max pooling reads plane after plane, but the hardware prefetcher did not carry
// the stream from one plane to the next under the vectorised row kernel's masked
// loads: with planes of a few hundred bytes every plane began with a trip to memory
// ([1000, 64, 14, 14] pooled 2 x 2: 11.7 ms, 4.5 GB/s, against 1.6 ms for a sum over
// it). The plane loops touch the next plane's lines while this one is pooled: 2.5 ms.
inline void prefetch_plane(const void* plane, int64_t bytes) {
  const char* c = static_cast<const char*>(plane);
  for (int64_t b = 0; b < bytes; b += 64) __builtin_prefetch(c + b);
}

// Where a plane's windows sit, for the vectorised row kernel and for the window
// positions of Note [Max pooling positions]: output (oh, ow)'s window starts at row
// h0 + oh * sh, column w0 + ow * sw, and is kh x kw.
struct Frame {
  int64_t h0, sh, kh, w0, sw, kw;
};
// A dense pooling's frame, read off its windows (is_dense).
Frame dense_frame(const Windows& w) {
  const Axis &h = w.ax[1], &c = w.ax[2];
  return {h.first[0], h.out > 1 ? h.first[1] - h.first[0] : 0, h.count[0],
          c.first[0], c.out > 1 ? c.first[1] - c.first[0] : 0, c.count[0]};
}
// Whether a 1-d/2-d pooling has an exact frame with padding (is_dense's, clipped at
// the borders): stride, kernel and padding, dilation 1.
bool is_framed(const Windows& w) {
  return w.ax[0].out == 1 && w.ax[0].count[0] == 1 && w.ax[1].regular && w.ax[2].regular && w.ax[1].out > 0 &&
         w.ax[2].out > 0;
}
// The frame window positions count from: dense_frame when dense, else the padded one.
Frame position_frame(const Windows& w) {
  if (is_dense(w)) return dense_frame(w);
  const Axis &h = w.ax[1], &c = w.ax[2];
  return {h.origin, h.stride, h.kernel, c.origin, c.stride, c.kernel};
}

// The vectorised row kernel's arguments for output row oh.
kernels::vec::MaxPoolRow row_args(const Windows& w, const Frame& f, int64_t oh) {
  return {w.ax[2].out, (f.h0 + oh * f.sh) * w.ax[2].in + f.w0, f.sw, f.kh, f.kw, w.ax[2].in};
}
// The same for all output rows of a dense plane in one call.
kernels::vec::MaxPoolRow plane_args(const Windows& w) {
  const Frame f = dense_frame(w);
  kernels::vec::MaxPoolRow r = row_args(w, f, 0);
  r.rows = w.ax[1].out;
  r.row_step = r.rows > 1 ? f.sh * w.ax[2].in : 0;
  return r;
}

// Each output sees its window in row-major order (first element, then any
// larger one or any NaN), as in the general walk. float32 rows go through the
// AVX-512 kernel when the CPU has it (Note [Vectorised max pool rows]).
template <typename T>
void max_plane_dense(const T* xi, T* yo, int64_t* io, const Windows& w) {
  const int64_t OH = w.ax[1].out, OW = w.ax[2].out, W = w.ax[2].in;
  const int64_t kh = w.ax[1].count[0], kw = w.ax[2].count[0], h0 = w.ax[1].first[0], w0 = w.ax[2].first[0];
  const int64_t sh = OH > 1 ? w.ax[1].first[1] - h0 : 0, sw = OW > 1 ? w.ax[2].first[1] - w0 : 0;
  if constexpr (std::is_same_v<T, float>) {
    if (const auto row_kernel = kernels::vec::max_pool_row_f32(); row_kernel && w.isize() <= INT32_MAX) {
      row_kernel(xi, yo, io, plane_args(w));
      return;
    }
  }
  for (int64_t oh = 0; oh < OH; ++oh) {
    for (int64_t ow = 0; ow < OW; ++ow) {
      const int64_t start = (h0 + oh * sh) * W + w0 + ow * sw;
      T best = xi[start];
      int64_t bi = start;
      for (int64_t i = 0; i < kh; ++i)
        for (int64_t j = 0; j < kw; ++j) {
          const int64_t k = start + i * W + j;
          const T v = xi[k];
          if (v > best || std::isnan(v)) best = v, bi = k;
        }
      yo[oh * OW + ow] = best;
      io[oh * OW + ow] = bi;
    }
  }
}

}  // namespace

Tensor avg_pool_kernel(const Tensor& x, const PoolSpec& s) {
  const Windows w = windows(s);
  Tensor y = empty_cpu(with_spatial(x, s.nd, s.out_size), x.scalar_type());
  const int64_t planes = w.isize() ? x.numel() / w.isize() : 0;
  dispatch_pool(x, "avg_pool", [&](auto tag) {
    using T = decltype(tag);
    const T* xp = x.data_ptr<T>();
    T* yp = y.data_ptr<T>();
    parallel_for(0, planes, plane_grain(w), [&](int64_t p0, int64_t p1) {
      for (int64_t p = p0; p < p1; ++p) {
        const T* xi = xp + p * w.isize();
        T* yo = yp + p * w.osize();
        T acc = 0;
        double div = 0;
        walk(
            w, [&](int64_t, int64_t od, int64_t oh, int64_t ow) { acc = 0, div = divisor(w, s, od, oh, ow); },
            [&](int64_t, int64_t i) { acc += xi[i]; }, [&](int64_t o) { yo[o] = div == 0 ? T(0) : T(acc / div); });
      }
    });
  });
  return y;
}

Tensor avg_pool_backward_kernel(const Tensor& g, const PoolSpec& s) {
  const Windows w = windows(s);
  Tensor gi = empty_cpu(with_spatial(g, s.nd, s.in_size), g.scalar_type());
  const int64_t planes = w.osize() ? g.numel() / w.osize() : 0;
  dispatch_pool(g, "avg_pool_backward", [&](auto tag) {
    using T = decltype(tag);
    const T* gp = g.data_ptr<T>();
    T* ip = gi.data_ptr<T>();
    std::fill_n(ip, gi.numel(), T(0));
    parallel_for(0, planes, plane_grain(w), [&](int64_t p0, int64_t p1) {
      for (int64_t p = p0; p < p1; ++p) {
        const T* go = gp + p * w.osize();
        T* gin = ip + p * w.isize();
        T v = 0;
        walk(
            w,
            [&](int64_t o, int64_t od, int64_t oh, int64_t ow) {
              const double div = divisor(w, s, od, oh, ow);
              v = div == 0 ? T(0) : T(go[o] / div);
            },
            [&](int64_t, int64_t i) { gin[i] += v; }, [](int64_t) {});
      }
    });
  });
  return gi;
}

std::tuple<Tensor, Tensor> max_pool_kernel(const Tensor& x, const PoolSpec& s) {
  const Windows w = windows(s);
  const DimVector shape = with_spatial(x, s.nd, s.out_size);
  Tensor y = empty_cpu(shape, x.scalar_type());
  Tensor idx = empty_cpu(shape, kLong);
  const int64_t planes = w.isize() ? x.numel() / w.isize() : 0;
  dispatch_pool(x, "max_pool", [&](auto tag) {
    using T = decltype(tag);
    const T* xp = x.data_ptr<T>();
    T* yp = y.data_ptr<T>();
    int64_t* ixp = idx.data_ptr<int64_t>();
    const bool dense = is_dense(w);
    parallel_for(0, planes, plane_grain(w), [&](int64_t p0, int64_t p1) {
      for (int64_t p = p0; p < p1; ++p) {
        const T* xi = xp + p * w.isize();
        T* yo = yp + p * w.osize();
        int64_t* io = ixp + p * w.osize();
        if (dense) {
          if (p + 1 < p1) prefetch_plane(xi + w.isize(), w.isize() * static_cast<int64_t>(sizeof(T)));
          max_plane_dense(xi, yo, io, w);
          continue;
        }
        T best = 0;
        int64_t bi = -1;
        // PyTorch's rule: the first element, then any larger one or any NaN (so NaN wins).
        walk(
            w, [&](int64_t, int64_t, int64_t, int64_t) { bi = -1; },
            [&](int64_t, int64_t i) {
              const T v = xi[i];
              if (bi < 0 || v > best || std::isnan(v)) best = v, bi = i;
            },
            [&](int64_t o) {
              yo[o] = bi < 0 ? -std::numeric_limits<T>::infinity() : best;
              io[o] = bi;
            });
      }
    });
  });
  return {y, idx};
}

// Note [Max pooling positions]
// int64 indices were two thirds of dense max pooling's memory traffic (eight
// bytes per output written in forward and read back in backward), and with
// activations larger than the caches every byte moves at memory speed. When only
// the values are asked for, the vectorised rows also record each output's window
// position i * kw + j in one byte, and the backward rebuilds the flat index as
// row start + ow * sw + i * W + j: the same index as the stored one, scattered in
// the same order, so the gradient is bit for bit the stored-index path's. Double
// backward expands the positions to int64 indices and goes through max_scatter.
namespace {

kernels::vec::MaxPoolRowF32 positions_row_kernel(const Tensor& x, const Windows& w) {
  if (x.scalar_type() != ScalarType::Float || !(is_dense(w) || is_framed(w)) || w.isize() > INT32_MAX) return nullptr;
  if (const Frame f = position_frame(w); f.kh * f.kw > 256) return nullptr;
  return kernels::vec::max_pool_row_f32();
}

// Window position i * kw + j -> flat offset i * W + j from the window's start.
std::vector<int64_t> position_offsets(const Windows& w) {
  const Frame f = position_frame(w);
  const int64_t kw = f.kw;
  std::vector<int64_t> offset(static_cast<size_t>(f.kh * kw));
  for (int64_t q = 0; q < static_cast<int64_t>(offset.size()); ++q) offset[q] = q / kw * w.ax[2].in + q % kw;
  return offset;
}

// Calls f(o, flat index in the plane) for every output of plane p, in max_scatter's order.
template <typename F>
void for_each_position(const uint8_t* pos, const Windows& w, const std::vector<int64_t>& offset, int64_t p,
                       const F& f) {
  const int64_t OH = w.ax[1].out, OW = w.ax[2].out;
  const Frame frame = position_frame(w);
  for (int64_t oh = 0; oh < OH; ++oh) {
    const kernels::vec::MaxPoolRow r = row_args(w, frame, oh);
    const uint8_t* row = pos + p * w.osize() + oh * OW;
    for (int64_t ow = 0; ow < OW; ++ow) f(oh * OW + ow, r.start + ow * r.sw + offset[row[ow]]);
  }
}

}  // namespace

Tensor positions_to_indices(const Tensor& pos, const PoolSpec& s) {
  const Windows w = windows(s);
  Tensor idx = empty_cpu(pos.sizes(), kLong);
  int64_t* ip = idx.data_ptr<int64_t>();
  const int64_t osize = w.osize(), planes = osize ? pos.numel() / osize : 0;
  const std::vector<int64_t> offset = position_offsets(w);
  for (int64_t p = 0; p < planes; ++p)
    for_each_position(pos.data_ptr<uint8_t>(), w, offset, p, [&](int64_t o, int64_t i) { ip[p * osize + o] = i; });
  return idx;
}

namespace {

// One plane of a padded max pooling (is_framed, not dense): the outputs whose window
// lies inside the input go through the row kernel a row at a time; the border ones,
// whose windows padding clips, walk their clipped window in row-major order with the
// same rule (first element, then a larger one or a NaN). Positions count from the
// unclipped window's corner (position_frame), so padding shifts none of them.
// ResNet's 3 x 3 / 2 pooling with padding 1 of [1, 64, 112, 112]: 5.9 ms on the
// general walk, which this replaces.
void max_plane_framed(const float* x, float* y, uint8_t* pos, const Windows& w,
                      kernels::vec::MaxPoolRowF32 row_kernel) {
  const Frame f = position_frame(w);
  const int64_t H = w.ax[1].in, W = w.ax[2].in, OH = w.ax[1].out, OW = w.ax[2].out;
  // Outputs [lo, hi) of an axis have whole windows: origin + o * stride >= 0 and
  // origin + o * stride + kernel <= in.
  auto inside = [](int64_t origin, int64_t stride, int64_t kernel, int64_t in, int64_t out) {
    const int64_t lo = origin >= 0 ? 0 : (-origin + stride - 1) / stride;
    const int64_t last = in - kernel - origin;  // the largest o * stride allowed
    const int64_t hi = last < 0 ? 0 : std::min(out, last / stride + 1);
    return std::pair<int64_t, int64_t>{std::min(lo, out), std::max(hi, std::min(lo, out))};
  };
  const auto [oh_lo, oh_hi] = inside(f.h0, f.sh, f.kh, H, OH);
  const auto [ow_lo, ow_hi] = inside(f.w0, f.sw, f.kw, W, OW);
  auto border = [&](int64_t oh, int64_t ow) {
    const int64_t h0 = f.h0 + oh * f.sh, w0 = f.w0 + ow * f.sw;
    const int64_t i0 = std::max<int64_t>(0, -h0), i1 = std::min(f.kh, H - h0);
    const int64_t j0 = std::max<int64_t>(0, -w0), j1 = std::min(f.kw, W - w0);
    float best = 0;
    int64_t at = -1;
    for (int64_t i = i0; i < i1; ++i)
      for (int64_t j = j0; j < j1; ++j) {
        const float v = x[(h0 + i) * W + w0 + j];
        if (at < 0 || v > best || std::isnan(v)) best = v, at = i * f.kw + j;
      }
    // Every window holds an input element (pad <= kernel / 2), so at >= 0.
    y[oh * OW + ow] = best;
    if (pos != nullptr) pos[oh * OW + ow] = static_cast<uint8_t>(at);
  };
  for (int64_t oh = 0; oh < OH; ++oh) {
    const bool row_inside = oh >= oh_lo && oh < oh_hi && ow_lo < ow_hi;
    for (int64_t ow = 0; ow < (row_inside ? ow_lo : OW); ++ow) border(oh, ow);
    if (!row_inside) continue;
    kernels::vec::MaxPoolRow r = row_args(w, f, oh);
    r.out = ow_hi - ow_lo;
    r.start += ow_lo * f.sw;
    r.pos = pos != nullptr ? pos + oh * OW + ow_lo : nullptr;
    row_kernel(x, y + oh * OW + ow_lo, nullptr, r);
    for (int64_t ow = ow_hi; ow < OW; ++ow) border(oh, ow);
  }
}

}  // namespace

Tensor max_positions_backward(const Tensor& g, const Tensor& pos, const PoolSpec& s) {
  const Windows w = windows(s);
  Tensor gi = empty_cpu(with_spatial(g, s.nd, s.in_size), g.scalar_type());
  const int64_t isize = w.isize(), osize = w.osize(), planes = osize ? g.numel() / osize : 0;
  const float* gp = g.data_ptr<float>();
  float* ip = gi.data_ptr<float>();
  const uint8_t* pp = pos.data_ptr<uint8_t>();
  const std::vector<int64_t> offset = position_offsets(w);
  parallel_for(0, planes, plane_grain(w), [&](int64_t p0, int64_t p1) {
    for (int64_t p = p0; p < p1; ++p) {
      // Zeroed plane by plane, while in cache, just before its scatter.
      float* plane = ip + p * isize;
      const float* go = gp + p * osize;
      std::fill(plane, plane + isize, 0.0f);
      for_each_position(pp, w, offset, p, [&](int64_t o, int64_t i) { plane[i] += go[o]; });
    }
  });
  return gi;
}

bool max_pool_positions_apply(const Tensor& x, const PoolSpec& s) {
  return positions_row_kernel(x, windows(s)) != nullptr;
}

std::tuple<Tensor, Tensor> max_pool_positions_kernel(const Tensor& x, const PoolSpec& s, bool want_positions) {
  const Windows w = windows(s);
  const auto row_kernel = positions_row_kernel(x, w);
  EMBER_INTERNAL_ASSERT(row_kernel != nullptr, "max_pool_positions_kernel: the row kernel does not apply");
  const DimVector shape = with_spatial(x, s.nd, s.out_size);
  Tensor y = empty_cpu(shape, x.scalar_type());
  const bool grad = want_positions;
  Tensor pos = grad ? empty_cpu(shape, kByte) : Tensor();
  const int64_t isize = w.isize(), osize = w.osize();
  const int64_t planes = isize ? x.numel() / isize : 0;
  const float* xp = x.data_ptr<float>();
  float* yp = y.data_ptr<float>();
  uint8_t* pp = grad ? pos.data_ptr<uint8_t>() : nullptr;
  const bool dense = is_dense(w);
  parallel_for(0, planes, plane_grain(w), [&](int64_t p0, int64_t p1) {
    for (int64_t p = p0; p < p1; ++p) {
      if (p + 1 < p1) prefetch_plane(xp + (p + 1) * isize, isize * static_cast<int64_t>(sizeof(float)));
      uint8_t* plane_pos = pp != nullptr ? pp + p * osize : nullptr;
      if (!dense) {
        max_plane_framed(xp + p * isize, yp + p * osize, plane_pos, w, row_kernel);
        continue;
      }
      kernels::vec::MaxPoolRow r = plane_args(w);
      r.pos = plane_pos;
      row_kernel(xp + p * isize, yp + p * osize, nullptr, r);
    }
  });
  return {y, pos};
}

Tensor max_scatter_kernel(const Tensor& g, const Tensor& ix, IntArrayRef in_size) {
  const int64_t nd = static_cast<int64_t>(in_size.size());
  // Each plane is zeroed right before its scatter, while it is in cache: a separate
  // zeros() pass over a gradient larger than the caches cost a second trip to memory.
  Tensor gi = empty_cpu(with_spatial(g, nd, in_size), g.scalar_type());
  int64_t isize = 1, osize = 1;
  for (int64_t v : in_size) isize *= v;
  for (int64_t i = 0; i < nd; ++i) osize *= g.size(g.dim() - nd + i);
  const int64_t planes = osize ? g.numel() / osize : 0;
  dispatch_pool(g, "max_pool_backward", [&](auto tag) {
    using T = decltype(tag);
    const T* gp = g.data_ptr<T>();
    const int64_t* ip = ix.data_ptr<int64_t>();
    T* op = gi.data_ptr<T>();
    parallel_for(0, planes, 1 + kGrainSize / (osize + 1), [&](int64_t p0, int64_t p1) {
      for (int64_t p = p0; p < p1; ++p) {
        std::fill(op + p * isize, op + (p + 1) * isize, T(0));
        for (int64_t o = 0; o < osize; ++o) {
          const int64_t i = ip[p * osize + o];
          if (i >= 0) op[p * isize + i] += gp[p * osize + o];
        }
      }
    });
  });
  return gi;
}

Tensor max_gather_kernel(const Tensor& gi, const Tensor& ix, int64_t nd) {
  Tensor out = empty_cpu(ix.sizes(), gi.scalar_type());
  int64_t planes = 1;
  for (int64_t d = 0; d < gi.dim() - nd; ++d) planes *= gi.size(d);
  const int64_t isize = planes ? gi.numel() / planes : 0, osize = planes ? ix.numel() / planes : 0;
  dispatch_pool(gi, "max_pool_double_backward", [&](auto tag) {
    using T = decltype(tag);
    const T* gp = gi.data_ptr<T>();
    const int64_t* ip = ix.data_ptr<int64_t>();
    T* op = out.data_ptr<T>();
    parallel_for(0, planes * osize, kGrainSize, [&](int64_t a, int64_t b) {
      for (int64_t e = a; e < b; ++e) {
        const int64_t i = ip[e];
        op[e] = i >= 0 ? gp[(e / osize) * isize + i] : T(0);
      }
    });
  });
  return out;
}

}  // namespace torch::pool
