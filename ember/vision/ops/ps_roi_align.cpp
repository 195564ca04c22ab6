#include "ember/vision/ops/ps_roi_align.h"

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
};

// Every box's bilinear taps in (bin, sample) order, with its batch index and
// sample count; computed serially so a bad box raises before parallel work.
template <typename T>
struct BoxTaps {
  int64_t batch, per_bin;
  T count;
  std::vector<detail::BilinearTap<T>> taps;
};

template <typename T>
BoxTaps<T> box_taps(const T* b, const Params& p, int64_t H, int64_t W) {
  const T scale = static_cast<T>(p.spatial_scale);
  // Not rounded nor widened: an empty box samples nothing, and its bins are
  // 0 / 0 (NaN) with an adaptive grid, as torchvision's.
  const T start_w = b[1] * scale - T(0.5), start_h = b[2] * scale - T(0.5);
  const T width = b[3] * scale - T(0.5) - start_w, height = b[4] * scale - T(0.5) - start_h;
  const T bin_h = height / static_cast<T>(p.pooled_h), bin_w = width / static_cast<T>(p.pooled_w);
  const int64_t grid_h = detail::sampling_grid("ps_roi_align", p.sampling_ratio, height, p.pooled_h);
  const int64_t grid_w = detail::sampling_grid("ps_roi_align", p.sampling_ratio, width, p.pooled_w);
  BoxTaps<T> out{static_cast<int64_t>(b[0]),
                 std::max<int64_t>(grid_h, 0) * std::max<int64_t>(grid_w, 0),
                 static_cast<T>(grid_h * grid_w),
                 {}};
  out.taps.reserve(static_cast<size_t>(p.pooled_h * p.pooled_w * out.per_bin));
  for (int64_t ph = 0; ph < p.pooled_h; ++ph)
    for (int64_t pw = 0; pw < p.pooled_w; ++pw) {
      const T hstart = static_cast<T>(ph) * bin_h + start_h, wstart = static_cast<T>(pw) * bin_w + start_w;
      for (int64_t iy = 0; iy < grid_h; ++iy) {
        const T y = hstart + static_cast<T>(static_cast<float>(iy) + .5f) * bin_h / static_cast<T>(grid_h);
        for (int64_t ix = 0; ix < grid_w; ++ix) {
          const T x = wstart + static_cast<T>(static_cast<float>(ix) + .5f) * bin_w / static_cast<T>(grid_w);
          out.taps.push_back(detail::bilinear_tap<T>(H, W, y, x));
        }
      }
    }
  return out;
}

template <typename T>
std::vector<BoxTaps<T>> all_taps(const Tensor& rois, const Params& p, int64_t H, int64_t W) {
  std::vector<BoxTaps<T>> out;
  out.reserve(static_cast<size_t>(rois.size(0)));
  for (int64_t k = 0; k < rois.size(0); ++k) out.push_back(box_taps<T>(rois.data_ptr<T>() + 5 * k, p, H, W));
  return out;
}

template <typename T>
Tensor forward_kernel(const Tensor& input, const Tensor& rois, const Params& p) {
  const int64_t C = input.size(1), H = input.size(2), W = input.size(3), K = rois.size(0);
  const int64_t nb = p.pooled_h * p.pooled_w, C_out = C / nb;
  const auto boxes = all_taps<T>(rois, p, H, W);
  Tensor output = zeros({K, C_out, p.pooled_h, p.pooled_w}, input.options());
  const T* in = input.data_ptr<T>();
  T* out = output.data_ptr<T>();
  parallel_for(0, K, detail::grain_for(C * 4 * (boxes.empty() ? 1 : boxes[0].per_bin)), [&](int64_t k0, int64_t k1) {
    for (int64_t k = k0; k < k1; ++k) {
      const BoxTaps<T>& bt = boxes[k];
      for (int64_t c = 0; c < C_out; ++c)
        for (int64_t b = 0; b < nb; ++b) {
          const T* plane = in + (bt.batch * C + c * nb + b) * H * W;
          const detail::BilinearTap<T>* t = bt.taps.data() + b * bt.per_bin;
          T sum = 0;
          for (int64_t s = 0; s < bt.per_bin; ++s, ++t)
            sum += t->w[0] * plane[t->pos[0]] + t->w[1] * plane[t->pos[1]] + t->w[2] * plane[t->pos[2]] +
                   t->w[3] * plane[t->pos[3]];
          out[(k * C_out + c) * nb + b] = sum / bt.count;
        }
    }
  });
  return output;
}

// Output channels are split across threads; each owns its input channels.
template <typename T>
Tensor backward_kernel(const Tensor& grad, const Tensor& rois, IntArrayRef shape, const Params& p) {
  const int64_t C = shape[1], H = shape[2], W = shape[3], K = rois.size(0);
  const int64_t nb = p.pooled_h * p.pooled_w, C_out = C / nb;
  const auto boxes = all_taps<T>(rois, p, H, W);
  Tensor grad_input = zeros(shape, grad.options());
  const T* go = grad.data_ptr<T>();
  T* gi = grad_input.data_ptr<T>();
  parallel_for(0, C_out, detail::grain_for(K * nb * 4 * (boxes.empty() ? 1 : boxes[0].per_bin)),
               [&](int64_t c0, int64_t c1) {
                 for (int64_t k = 0; k < K; ++k) {
                   const BoxTaps<T>& bt = boxes[k];
                   for (int64_t c = c0; c < c1; ++c)
                     for (int64_t b = 0; b < nb; ++b) {
                       T* plane = gi + (bt.batch * C + c * nb + b) * H * W;
                       const T v = go[(k * C_out + c) * nb + b] / bt.count;
                       const detail::BilinearTap<T>* t = bt.taps.data() + b * bt.per_bin;
                       for (int64_t s = 0; s < bt.per_bin; ++s, ++t)
                         for (int j = 0; j < 4; ++j) plane[t->pos[j]] += t->w[j] * v;
                     }
                 }
               });
  return grad_input;
}

struct PSRoIAlignFunction : autograd::Function<PSRoIAlignFunction> {
  static Tensor forward(AutogradContext* ctx, Tensor input, Tensor rois, double spatial_scale, int64_t pooled_h,
                        int64_t pooled_w, int64_t sampling_ratio) {
    const Params p{pooled_h, pooled_w, sampling_ratio, spatial_scale};
    ctx->saved_data["pooled_h"] = pooled_h;
    ctx->saved_data["pooled_w"] = pooled_w;
    ctx->saved_data["sampling_ratio"] = sampling_ratio;
    ctx->saved_data["spatial_scale"] = spatial_scale;
    ctx->saved_data["input_shape"] = input.sizes();
    const Tensor r = rois.contiguous();
    ctx->save_for_backward({r});
    Tensor out;
    detail::dispatch_float("ps_roi_align", input.scalar_type(),
                           [&](auto zero) { out = forward_kernel<decltype(zero)>(input.contiguous(), r, p); });
    return out;
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const Tensor rois = ctx->get_saved_variables()[0].detach();
    const Params p{ctx->saved_data["pooled_h"].toInt(), ctx->saved_data["pooled_w"].toInt(),
                   ctx->saved_data["sampling_ratio"].toInt(), ctx->saved_data["spatial_scale"].toDouble()};
    const auto shape = ctx->saved_data["input_shape"].toIntVector();
    const Tensor g = grads[0].contiguous();
    Tensor grad_input;
    detail::dispatch_float("ps_roi_align", g.scalar_type(),
                           [&](auto zero) { grad_input = backward_kernel<decltype(zero)>(g, rois, shape, p); });
    return {grad_input, Tensor(), Tensor(), Tensor(), Tensor(), Tensor()};
  }
};

Tensor ps_roi_align_rois(const Tensor& input, const Tensor& rois, IntArrayRef output_size, double spatial_scale,
                         int64_t sampling_ratio) {
  const auto [ph, pw] = detail::pooled_size("ps_roi_align", output_size);
  detail::check_roi_args("ps_roi_align", input, rois);
  EMBER_CHECK(input.size(1) % (ph * pw) == 0,
              "ps_roi_align: input channels must be a multiple of pooling height * pooling width, got ", input.size(1),
              " channels for output size ", ph, "x", pw);
  const ScalarType dt = input.scalar_type();
  if (dt == kFloat16 || dt == kBFloat16)
    return PSRoIAlignFunction::apply(input.to(kFloat32), rois.to(kFloat32), spatial_scale, ph, pw, sampling_ratio)
        .to(dt);
  return PSRoIAlignFunction::apply(input, rois, spatial_scale, ph, pw, sampling_ratio);
}

}  // namespace

Tensor ps_roi_align(const Tensor& input, const Tensor& boxes, IntArrayRef output_size, double spatial_scale,
                    int64_t sampling_ratio) {
  return ps_roi_align_rois(input, detail::rois_from_boxes("ps_roi_align", boxes), output_size, spatial_scale,
                           sampling_ratio);
}

Tensor ps_roi_align(const Tensor& input, const std::vector<Tensor>& boxes, IntArrayRef output_size,
                    double spatial_scale, int64_t sampling_ratio) {
  return ps_roi_align_rois(input, detail::rois_from_boxes("ps_roi_align", boxes), output_size, spatial_scale,
                           sampling_ratio);
}

void PSRoIAlignImpl::pretty_print(std::ostream& stream) const {
  stream << "PSRoIAlign(output_size=" << IntArrayRef(options.output_size())
         << ", spatial_scale=" << options.spatial_scale() << ", sampling_ratio=" << options.sampling_ratio() << ")";
}

Tensor PSRoIAlignImpl::forward(const Tensor& input, const Tensor& rois) {
  return ps_roi_align(input, rois, options.output_size(), options.spatial_scale(), options.sampling_ratio());
}

Tensor PSRoIAlignImpl::forward(const Tensor& input, const std::vector<Tensor>& rois) {
  return ps_roi_align(input, rois, options.output_size(), options.spatial_scale(), options.sampling_ratio());
}

}  // namespace torch::vision::ops
