// im2col / col2im + GEMM convolutions (Note [Convolution kernels]): float64,
// and float32 cases oneDNN's shape rule rejects.
#include "ember/core/dispatch.h"
#include "ember/core/error.h"
#include "ember/core/parallel.h"
#include "ember/core/tensor.h"
#include "ember/core/tensor_make.h"
#include "ember/kernels/cpu/conv_kernels.h"
#include "ember/kernels/cpu/gemm.h"

namespace torch::conv {

namespace {

// Spatial geometry padded to 3 dims (missing leading dims have size 1, k 1).
// `img` is the image side (a convolution's input), `col` the patch grid.
struct Geometry {
  int64_t img[3], col[3], k[3], s[3], p[3], d[3];
  int64_t ksize() const { return k[0] * k[1] * k[2]; }
  int64_t csize() const { return col[0] * col[1] * col[2]; }
  int64_t isize() const { return img[0] * img[1] * img[2]; }
};

Geometry geometry(IntArrayRef img, IntArrayRef col, IntArrayRef kernel, const ConvParams& p) {
  Geometry g;
  const int64_t nd = static_cast<int64_t>(kernel.size()), off = 3 - nd;
  for (int64_t i = 0; i < 3; ++i) {
    const bool real = i >= off;
    const int64_t j = i - off;
    g.img[i] = real ? img[j] : 1;
    g.col[i] = real ? col[j] : 1;
    g.k[i] = real ? kernel[j] : 1;
    g.s[i] = real ? p.stride[j] : 1;
    g.p[i] = real ? p.padding[j] : 0;
    g.d[i] = real ? p.dilation[j] : 1;
  }
  return g;
}

// Calls f(row, col_index, image_index or -1) for every patch element of channel block rows.
// Rows run in parallel only when `parallel` (rows of one channel may hit the same pixel).
template <typename F>
void for_each_patch(const Geometry& g, int64_t channels, bool parallel, const F& f) {
  const int64_t K = g.ksize();
  const int64_t grain = parallel ? 1 + kGrainSize / (g.csize() + 1) : channels * K;
  parallel_for(0, channels * K, grain, [&](int64_t r0, int64_t r1) {
    for (int64_t r = r0; r < r1; ++r) {
      const int64_t c = r / K, kk = r % K;
      const int64_t kd = kk / (g.k[1] * g.k[2]), kh = (kk / g.k[2]) % g.k[1], kw = kk % g.k[2];
      int64_t ci = 0;
      for (int64_t od = 0; od < g.col[0]; ++od) {
        const int64_t id = od * g.s[0] - g.p[0] + kd * g.d[0];
        for (int64_t oh = 0; oh < g.col[1]; ++oh) {
          const int64_t ih = oh * g.s[1] - g.p[1] + kh * g.d[1];
          for (int64_t ow = 0; ow < g.col[2]; ++ow, ++ci) {
            const int64_t iw = ow * g.s[2] - g.p[2] + kw * g.d[2];
            const bool in = id >= 0 && id < g.img[0] && ih >= 0 && ih < g.img[1] && iw >= 0 && iw < g.img[2];
            f(r, ci, in ? c * g.isize() + (id * g.img[1] + ih) * g.img[2] + iw : -1);
          }
        }
      }
    }
  });
}

template <typename T>
void im2col(const T* img, T* col, int64_t channels, const Geometry& g) {
  const int64_t L = g.csize();
  for_each_patch(g, channels, true,
                 [&](int64_t r, int64_t ci, int64_t ii) { col[r * L + ci] = ii < 0 ? T(0) : img[ii]; });
}

// img += col2im(col). Rows of one channel write the same image plane, so the
// work is split by channel (each thread owns whole channels).
template <typename T>
void col2im(const T* col, T* img, int64_t channels, const Geometry& g) {
  const int64_t L = g.csize(), K = g.ksize();
  parallel_for(0, channels, 1 + kGrainSize / (K * L + 1), [&](int64_t c0, int64_t c1) {
    for (int64_t c = c0; c < c1; ++c) {
      const T* src = col + c * K * L;
      T* dst = img + c * g.isize();
      for_each_patch(g, 1, false, [&](int64_t r, int64_t ci, int64_t ii) {
        if (ii >= 0) dst[ii] += src[r * L + ci];
      });
    }
  });
}

template <typename T>
void run(const Tensor& input, const Tensor& weight, const Tensor& out, const ConvParams& p) {
  const int64_t N = input.size(0), G = p.groups;
  IntArrayRef kernel = weight.sizes().slice(2);
  if (!p.transposed) {
    const int64_t Cg = input.size(1) / G, Og = out.size(1) / G;
    const Geometry geo = geometry(input.sizes().slice(2), out.sizes().slice(2), kernel, p);
    const int64_t K = geo.ksize(), L = geo.csize();
    Tensor col = empty_cpu({Cg * K, L}, input.scalar_type());
    const Tensor w = weight.view({G, Og, Cg * K});
    for (int64_t n = 0; n < N; ++n) {
      for (int64_t g = 0; g < G; ++g) {
        const T* x = input.data_ptr<T>() + (n * G + g) * Cg * geo.isize();
        im2col<T>(x, col.data_ptr<T>(), Cg, geo);
        Tensor o = out.select(0, n).narrow(0, g * Og, Og).view({Og, L});
        kernels::gemm_batched(w.select(0, g), col, o, 1, 0);
      }
    }
  } else {
    const int64_t Ig = input.size(1) / G, Og = out.size(1) / G;
    const Geometry geo = geometry(out.sizes().slice(2), input.sizes().slice(2), kernel, p);
    const int64_t K = geo.ksize(), L = geo.csize();
    Tensor col = empty_cpu({Og * K, L}, input.scalar_type());
    const Tensor w = weight.view({G, Ig, Og * K});
    Tensor(out).zero_();
    for (int64_t n = 0; n < N; ++n) {
      for (int64_t g = 0; g < G; ++g) {
        Tensor x = input.select(0, n).narrow(0, g * Ig, Ig).view({Ig, L});
        kernels::gemm_batched(w.select(0, g).t(), x, col, 1, 0);
        T* o = out.data_ptr<T>() + (n * G + g) * Og * geo.isize();
        col2im<T>(col.data_ptr<T>(), o, Og, geo);
      }
    }
  }
}

}  // namespace

void forward_im2col(const Tensor& input, const Tensor& weight, const Tensor& bias, const Tensor& out,
                    const ConvParams& p) {
  if (input.scalar_type() == ScalarType::Float)
    run<float>(input, weight, out, p);
  else
    run<double>(input, weight, out, p);
  if (bias.defined()) {
    DimVector shape(out.dim(), 1);
    shape[1] = out.size(1);
    Tensor(out).add_(bias.view(shape));
  }
}

}  // namespace torch::conv
