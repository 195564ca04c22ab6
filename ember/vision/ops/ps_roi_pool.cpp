#include "ember/vision/ops/ps_roi_pool.h"

#include <algorithm>
#include <cmath>

#include "ember/autograd/custom_function.h"
#include "ember/core/parallel.h"
#include "ember/ops/all_ops.h"
#include "ember/vision/ops/roi_common.h"

namespace torch::vision::ops {

namespace {

using autograd::AutogradContext;
using autograd::variable_list;

// One bin's pixel range [h0, h1) x [w0, w1).
struct Bin {
  int64_t h0, h1, w0, w1;
  bool empty() const { return h1 <= h0 || w1 <= w0; }
  int64_t area() const { return (h1 - h0) * (w1 - w0); }
};

// Every bin of every box in (box, bin) order. Boxes are rounded to pixels.
// torchvision's forward clips bins to [0, H - 1] x [0, W - 1] (never pooling
// the last row or column) and its backward to [0, H] x [0, W]; both are kept
// (`edge` is 1 forward, 0 backward) so values and gradients equal torchvision's.
template <typename T>
std::vector<Bin> pool_bins(const Tensor& rois, int64_t H, int64_t W, int64_t PH, int64_t PW, double spatial_scale,
                           int64_t edge, std::vector<int64_t>& batch) {
  const T* r = rois.data_ptr<T>();
  const T scale = static_cast<T>(spatial_scale);
  const int64_t K = rois.size(0);
  std::vector<Bin> bins(static_cast<size_t>(K * PH * PW));
  batch.resize(static_cast<size_t>(K));
  for (int64_t k = 0; k < K; ++k) {
    const T* b = r + 5 * k;
    batch[k] = static_cast<int64_t>(b[0]);
    const T coords[4] = {std::round(b[1] * scale), std::round(b[2] * scale), std::round(b[3] * scale),
                         std::round(b[4] * scale)};
    for (const T v : coords)
      EMBER_CHECK(std::abs(v) < T(1 << 30), "ps_roi_pool: box ", k, " has a coordinate ", v,
                  " too large for the pixel grid");
    const int64_t x1 = static_cast<int64_t>(coords[0]), y1 = static_cast<int64_t>(coords[1]);
    const int64_t rw = std::max<int64_t>(static_cast<int64_t>(coords[2]) - x1, 1);
    const int64_t rh = std::max<int64_t>(static_cast<int64_t>(coords[3]) - y1, 1);
    const T bin_h = static_cast<T>(rh) / static_cast<T>(PH), bin_w = static_cast<T>(rw) / static_cast<T>(PW);
    const auto clip = [](int64_t v, int64_t hi) { return std::min(std::max<int64_t>(v, 0), hi); };
    for (int64_t ph = 0; ph < PH; ++ph)
      for (int64_t pw = 0; pw < PW; ++pw) {
        Bin& bin = bins[(k * PH + ph) * PW + pw];
        bin.h0 = clip(static_cast<int64_t>(std::floor(static_cast<T>(ph) * bin_h)) + y1, H - edge);
        bin.h1 = clip(static_cast<int64_t>(std::ceil(static_cast<T>(ph + 1) * bin_h)) + y1, H - edge);
        bin.w0 = clip(static_cast<int64_t>(std::floor(static_cast<T>(pw) * bin_w)) + x1, W - edge);
        bin.w1 = clip(static_cast<int64_t>(std::ceil(static_cast<T>(pw + 1) * bin_w)) + x1, W - edge);
      }
  }
  return bins;
}

template <typename T>
Tensor forward_kernel(const Tensor& input, const Tensor& rois, int64_t PH, int64_t PW, double spatial_scale) {
  const int64_t C = input.size(1), H = input.size(2), W = input.size(3), K = rois.size(0);
  const int64_t nb = PH * PW, C_out = C / nb;
  std::vector<int64_t> batch;
  const auto bins = pool_bins<T>(rois, H, W, PH, PW, spatial_scale, 1, batch);
  Tensor output = zeros({K, C_out, PH, PW}, input.options());
  const T* in = input.data_ptr<T>();
  T* out = output.data_ptr<T>();
  parallel_for(0, K * C_out, detail::grain_for(H * W), [&](int64_t i0, int64_t i1) {
    for (int64_t i = i0; i < i1; ++i) {
      const int64_t k = i / C_out, c = i % C_out;
      for (int64_t b = 0; b < nb; ++b) {
        const Bin& bin = bins[k * nb + b];
        if (bin.empty()) continue;
        const T* plane = in + (batch[k] * C + c * nb + b) * H * W;
        T sum = 0;
        for (int64_t h = bin.h0; h < bin.h1; ++h)
          for (int64_t w = bin.w0; w < bin.w1; ++w) sum += plane[h * W + w];
        out[i * nb + b] = sum / static_cast<T>(bin.area());
      }
    }
  });
  return output;
}

template <typename T>
Tensor backward_kernel(const Tensor& grad, const Tensor& rois, IntArrayRef shape, int64_t PH, int64_t PW,
                       double spatial_scale) {
  const int64_t C = shape[1], H = shape[2], W = shape[3], K = rois.size(0);
  const int64_t nb = PH * PW, C_out = C / nb;
  std::vector<int64_t> batch;
  const auto bins = pool_bins<T>(rois, H, W, PH, PW, spatial_scale, 0, batch);
  Tensor grad_input = zeros(shape, grad.options());
  const T* go = grad.data_ptr<T>();
  T* gi = grad_input.data_ptr<T>();
  parallel_for(0, C_out, detail::grain_for(K * H * W), [&](int64_t c0, int64_t c1) {
    for (int64_t k = 0; k < K; ++k)
      for (int64_t c = c0; c < c1; ++c)
        for (int64_t b = 0; b < nb; ++b) {
          const Bin& bin = bins[k * nb + b];
          if (bin.empty()) continue;
          T* plane = gi + (batch[k] * C + c * nb + b) * H * W;
          const T v = go[(k * C_out + c) * nb + b] / static_cast<T>(bin.area());
          for (int64_t h = bin.h0; h < bin.h1; ++h)
            for (int64_t w = bin.w0; w < bin.w1; ++w) plane[h * W + w] += v;
        }
  });
  return grad_input;
}

struct PSRoIPoolFunction : autograd::Function<PSRoIPoolFunction> {
  static Tensor forward(AutogradContext* ctx, Tensor input, Tensor rois, double spatial_scale, int64_t PH, int64_t PW) {
    ctx->saved_data["pooled_h"] = PH;
    ctx->saved_data["pooled_w"] = PW;
    ctx->saved_data["spatial_scale"] = spatial_scale;
    ctx->saved_data["input_shape"] = input.sizes();
    const Tensor r = rois.contiguous();
    ctx->save_for_backward({r});
    Tensor out;
    detail::dispatch_float("ps_roi_pool", input.scalar_type(), [&](auto zero) {
      out = forward_kernel<decltype(zero)>(input.contiguous(), r, PH, PW, spatial_scale);
    });
    return out;
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const Tensor rois = ctx->get_saved_variables()[0].detach();
    const auto shape = ctx->saved_data["input_shape"].toIntVector();
    const Tensor g = grads[0].contiguous();
    Tensor grad_input;
    detail::dispatch_float("ps_roi_pool", g.scalar_type(), [&](auto zero) {
      grad_input = backward_kernel<decltype(zero)>(g, rois, shape, ctx->saved_data["pooled_h"].toInt(),
                                                   ctx->saved_data["pooled_w"].toInt(),
                                                   ctx->saved_data["spatial_scale"].toDouble());
    });
    return {grad_input, Tensor(), Tensor(), Tensor(), Tensor()};
  }
};

Tensor ps_roi_pool_rois(const Tensor& input, const Tensor& rois, IntArrayRef output_size, double spatial_scale) {
  const auto [ph, pw] = detail::pooled_size("ps_roi_pool", output_size);
  detail::check_roi_args("ps_roi_pool", input, rois);
  EMBER_CHECK(input.size(1) % (ph * pw) == 0,
              "ps_roi_pool: input channels must be a multiple of pooling height * pooling width, got ", input.size(1),
              " channels for output size ", ph, "x", pw);
  const ScalarType dt = input.scalar_type();
  if (dt == kFloat16 || dt == kBFloat16)
    return PSRoIPoolFunction::apply(input.to(kFloat32), rois.to(kFloat32), spatial_scale, ph, pw).to(dt);
  return PSRoIPoolFunction::apply(input, rois, spatial_scale, ph, pw);
}

}  // namespace

Tensor ps_roi_pool(const Tensor& input, const Tensor& boxes, IntArrayRef output_size, double spatial_scale) {
  return ps_roi_pool_rois(input, detail::rois_from_boxes("ps_roi_pool", boxes), output_size, spatial_scale);
}

Tensor ps_roi_pool(const Tensor& input, const std::vector<Tensor>& boxes, IntArrayRef output_size,
                   double spatial_scale) {
  return ps_roi_pool_rois(input, detail::rois_from_boxes("ps_roi_pool", boxes), output_size, spatial_scale);
}

void PSRoIPoolImpl::pretty_print(std::ostream& stream) const {
  stream << "PSRoIPool(output_size=" << IntArrayRef(options.output_size())
         << ", spatial_scale=" << options.spatial_scale() << ")";
}

Tensor PSRoIPoolImpl::forward(const Tensor& input, const Tensor& rois) {
  return ps_roi_pool(input, rois, options.output_size(), options.spatial_scale());
}

Tensor PSRoIPoolImpl::forward(const Tensor& input, const std::vector<Tensor>& rois) {
  return ps_roi_pool(input, rois, options.output_size(), options.spatial_scale());
}

}  // namespace torch::vision::ops
