#include "ember/vision/ops/roi_align.h"

#include <algorithm>

#include "ember/autograd/custom_function.h"
#include "ember/core/parallel.h"
#include "ember/ops/all_ops.h"
#include "ember/vision/ops/roi_common.h"

namespace torch::vision::ops {

namespace {

using autograd::AutogradContext;
using autograd::variable_list;

struct Params {
  int64_t pooled_h, pooled_w, sampling_ratio;
  double spatial_scale;
  bool aligned;
};

// One box's sampling geometry, computed serially (so a bad box raises before
// any parallel work) in the input's precision.
template <typename T>
struct Geometry {
  int64_t batch, grid_h, grid_w;
  T start_h, start_w, bin_h, bin_w, count;
};

template <typename T>
std::vector<Geometry<T>> geometries(const char* op, const Tensor& rois, const Params& p) {
  const T* r = rois.data_ptr<T>();
  const T scale = static_cast<T>(p.spatial_scale), offset = p.aligned ? T(0.5) : T(0);
  std::vector<Geometry<T>> out(static_cast<size_t>(rois.size(0)));
  for (int64_t k = 0; k < rois.size(0); ++k) {
    const T* b = r + 5 * k;
    Geometry<T>& g = out[k];
    g.batch = static_cast<int64_t>(b[0]);
    g.start_w = b[1] * scale - offset;
    g.start_h = b[2] * scale - offset;
    T width = b[3] * scale - offset - g.start_w, height = b[4] * scale - offset - g.start_h;
    if (!p.aligned) width = std::max(width, T(1)), height = std::max(height, T(1));
    g.bin_h = height / static_cast<T>(p.pooled_h);
    g.bin_w = width / static_cast<T>(p.pooled_w);
    // An inverted box (aligned) has a negative adaptive grid: it samples nothing.
    g.grid_h = std::max<int64_t>(detail::sampling_grid(op, p.sampling_ratio, height, p.pooled_h), 0);
    g.grid_w = std::max<int64_t>(detail::sampling_grid(op, p.sampling_ratio, width, p.pooled_w), 0);
    g.count = static_cast<T>(std::max<int64_t>(g.grid_h * g.grid_w, 1));
  }
  return out;
}

// The taps of every sample of every bin of one box, in (bin, sample) order;
// they are the same for all channels.
template <typename T>
void box_taps(const Geometry<T>& g, const Params& p, int64_t height, int64_t width,
              std::vector<detail::BilinearTap<T>>& taps) {
  taps.clear();
  for (int64_t ph = 0; ph < p.pooled_h; ++ph)
    for (int64_t pw = 0; pw < p.pooled_w; ++pw)
      for (int64_t iy = 0; iy < g.grid_h; ++iy) {
        const T y = g.start_h + static_cast<T>(ph) * g.bin_h +
                    static_cast<T>(static_cast<float>(iy) + .5f) * g.bin_h / static_cast<T>(g.grid_h);
        for (int64_t ix = 0; ix < g.grid_w; ++ix) {
          const T x = g.start_w + static_cast<T>(pw) * g.bin_w +
                      static_cast<T>(static_cast<float>(ix) + .5f) * g.bin_w / static_cast<T>(g.grid_w);
          taps.push_back(detail::bilinear_tap<T>(height, width, y, x));
        }
      }
}

template <typename T>
Tensor forward_kernel(const Tensor& input, const Tensor& rois, const Params& p) {
  const int64_t C = input.size(1), H = input.size(2), W = input.size(3), K = rois.size(0);
  const auto geo = geometries<T>("roi_align", rois, p);
  Tensor output = zeros({K, C, p.pooled_h, p.pooled_w}, input.options());
  const T* in = input.data_ptr<T>();
  T* out = output.data_ptr<T>();
  const int64_t bins = p.pooled_h * p.pooled_w;
  parallel_for(0, K, detail::grain_for(C * bins * 4 * (geo.empty() ? 1 : geo[0].grid_h * geo[0].grid_w)),
               [&](int64_t k0, int64_t k1) {
                 std::vector<detail::BilinearTap<T>> taps;
                 for (int64_t k = k0; k < k1; ++k) {
                   const Geometry<T>& g = geo[k];
                   box_taps(g, p, H, W, taps);
                   const int64_t per_bin = g.grid_h * g.grid_w;
                   for (int64_t c = 0; c < C; ++c) {
                     const T* plane = in + (g.batch * C + c) * H * W;
                     T* o = out + (k * C + c) * bins;
                     const detail::BilinearTap<T>* t = taps.data();
                     for (int64_t b = 0; b < bins; ++b) {
                       T sum = 0;
                       for (int64_t s = 0; s < per_bin; ++s, ++t)
                         sum += t->w[0] * plane[t->pos[0]] + t->w[1] * plane[t->pos[1]] + t->w[2] * plane[t->pos[2]] +
                                t->w[3] * plane[t->pos[3]];
                       o[b] = sum / g.count;
                     }
                   }
                 }
               });
  return output;
}

// Channels are split across threads: each thread owns its channels' planes of
// grad_input, so the scatter needs no atomics.
template <typename T>
Tensor backward_kernel(const Tensor& grad, const Tensor& rois, IntArrayRef input_shape, const Params& p) {
  const int64_t N = input_shape[0], C = input_shape[1], H = input_shape[2], W = input_shape[3], K = rois.size(0);
  const auto geo = geometries<T>("roi_align", rois, p);
  Tensor grad_input = zeros({N, C, H, W}, grad.options());
  const T* g_out = grad.data_ptr<T>();
  T* g_in = grad_input.data_ptr<T>();
  const int64_t bins = p.pooled_h * p.pooled_w;
  parallel_for(0, C, detail::grain_for(K * bins * 4 * (geo.empty() ? 1 : geo[0].grid_h * geo[0].grid_w)),
               [&](int64_t c0, int64_t c1) {
                 std::vector<detail::BilinearTap<T>> taps;
                 for (int64_t k = 0; k < K; ++k) {
                   const Geometry<T>& g = geo[k];
                   box_taps(g, p, H, W, taps);
                   const int64_t per_bin = g.grid_h * g.grid_w;
                   for (int64_t c = c0; c < c1; ++c) {
                     T* plane = g_in + (g.batch * C + c) * H * W;
                     const T* go = g_out + (k * C + c) * bins;
                     const detail::BilinearTap<T>* t = taps.data();
                     for (int64_t b = 0; b < bins; ++b) {
                       const T v = go[b] / g.count;
                       for (int64_t s = 0; s < per_bin; ++s, ++t)
                         for (int j = 0; j < 4; ++j) plane[t->pos[j]] += t->w[j] * v;
                     }
                   }
                 }
               });
  return grad_input;
}

Params params_from(AutogradContext* ctx) {
  return {ctx->saved_data["pooled_h"].toInt(), ctx->saved_data["pooled_w"].toInt(),
          ctx->saved_data["sampling_ratio"].toInt(), ctx->saved_data["spatial_scale"].toDouble(),
          ctx->saved_data["aligned"].toBool()};
}

struct RoIAlignFunction : autograd::Function<RoIAlignFunction> {
  static Tensor forward(AutogradContext* ctx, Tensor input, Tensor rois, double spatial_scale, int64_t pooled_h,
                        int64_t pooled_w, int64_t sampling_ratio, bool aligned) {
    const Params p{pooled_h, pooled_w, sampling_ratio, spatial_scale, aligned};
    ctx->saved_data["pooled_h"] = pooled_h;
    ctx->saved_data["pooled_w"] = pooled_w;
    ctx->saved_data["sampling_ratio"] = sampling_ratio;
    ctx->saved_data["spatial_scale"] = spatial_scale;
    ctx->saved_data["aligned"] = aligned;
    ctx->saved_data["input_shape"] = input.sizes();
    const Tensor r = rois.contiguous();
    ctx->save_for_backward({r});
    Tensor out;
    detail::dispatch_float("roi_align", input.scalar_type(),
                           [&](auto zero) { out = forward_kernel<decltype(zero)>(input.contiguous(), r, p); });
    return out;
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const Tensor rois = ctx->get_saved_variables()[0];
    const auto shape = ctx->saved_data["input_shape"].toIntVector();
    const Tensor g = grads[0].contiguous();
    Tensor grad_input;
    detail::dispatch_float("roi_align", g.scalar_type(), [&](auto zero) {
      grad_input = backward_kernel<decltype(zero)>(g, rois.detach(), shape, params_from(ctx));
    });
    return {grad_input, Tensor(), Tensor(), Tensor(), Tensor(), Tensor(), Tensor()};
  }
};

Tensor roi_align_rois(const Tensor& input, const Tensor& rois, IntArrayRef output_size, double spatial_scale,
                      int64_t sampling_ratio, bool aligned) {
  const auto [ph, pw] = detail::pooled_size("roi_align", output_size);
  detail::check_roi_args("roi_align", input, rois);
  const ScalarType dt = input.scalar_type();
  if (dt == kFloat16 || dt == kBFloat16)  // computed in float32, as a wider accumulator
    return RoIAlignFunction::apply(input.to(kFloat32), rois.to(kFloat32), spatial_scale, ph, pw, sampling_ratio,
                                   aligned)
        .to(dt);
  return RoIAlignFunction::apply(input, rois, spatial_scale, ph, pw, sampling_ratio, aligned);
}

}  // namespace

Tensor roi_align(const Tensor& input, const Tensor& boxes, IntArrayRef output_size, double spatial_scale,
                 int64_t sampling_ratio, bool aligned) {
  return roi_align_rois(input, detail::rois_from_boxes("roi_align", boxes), output_size, spatial_scale, sampling_ratio,
                        aligned);
}

Tensor roi_align(const Tensor& input, const std::vector<Tensor>& boxes, IntArrayRef output_size, double spatial_scale,
                 int64_t sampling_ratio, bool aligned) {
  return roi_align_rois(input, detail::rois_from_boxes("roi_align", boxes), output_size, spatial_scale, sampling_ratio,
                        aligned);
}

void RoIAlignImpl::pretty_print(std::ostream& stream) const {
  stream << "RoIAlign(output_size=" << IntArrayRef(options.output_size())
         << ", spatial_scale=" << options.spatial_scale() << ", sampling_ratio=" << options.sampling_ratio()
         << ", aligned=" << (options.aligned() ? "True" : "False") << ")";
}

Tensor RoIAlignImpl::forward(const Tensor& input, const Tensor& rois) {
  return roi_align(input, rois, options.output_size(), options.spatial_scale(), options.sampling_ratio(),
                   options.aligned());
}

Tensor RoIAlignImpl::forward(const Tensor& input, const std::vector<Tensor>& rois) {
  return roi_align(input, rois, options.output_size(), options.spatial_scale(), options.sampling_ratio(),
                   options.aligned());
}

}  // namespace torch::vision::ops
