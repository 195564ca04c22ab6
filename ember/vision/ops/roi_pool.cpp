#include "ember/vision/ops/roi_pool.h"

#include <algorithm>
#include <cmath>
#include <limits>

#include "ember/autograd/custom_function.h"
#include "ember/core/parallel.h"
#include "ember/ops/all_ops.h"
#include "ember/vision/ops/roi_common.h"

namespace torch::vision::ops {

namespace {

using autograd::AutogradContext;
using autograd::variable_list;

// One bin's clipped pixel range [h0, h1) x [w0, w1).
struct Bin {
  int64_t h0, h1, w0, w1;
};

// Every bin of every box, in (box, bin) order; boxes are rounded to pixels in
// the input's precision, as torchvision.
template <typename T>
std::vector<Bin> pool_bins(const Tensor& rois, int64_t H, int64_t W, int64_t PH, int64_t PW, double spatial_scale,
                           std::vector<int64_t>& batch) {
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
      EMBER_CHECK(std::abs(v) < T(1 << 30), "roi_pool: box ", k, " has a coordinate ", v,
                  " too large for the pixel grid");
    const int64_t x1 = static_cast<int64_t>(coords[0]), y1 = static_cast<int64_t>(coords[1]);
    const int64_t x2 = static_cast<int64_t>(coords[2]), y2 = static_cast<int64_t>(coords[3]);
    const int64_t rw = std::max<int64_t>(x2 - x1 + 1, 1), rh = std::max<int64_t>(y2 - y1 + 1, 1);
    const T bin_h = static_cast<T>(rh) / static_cast<T>(PH), bin_w = static_cast<T>(rw) / static_cast<T>(PW);
    for (int64_t ph = 0; ph < PH; ++ph)
      for (int64_t pw = 0; pw < PW; ++pw) {
        Bin& bin = bins[(k * PH + ph) * PW + pw];
        const auto clip = [](int64_t v, int64_t hi) { return std::min(std::max<int64_t>(v, 0), hi); };
        bin.h0 = clip(static_cast<int64_t>(std::floor(static_cast<T>(ph) * bin_h)) + y1, H);
        bin.h1 = clip(static_cast<int64_t>(std::ceil(static_cast<T>(ph + 1) * bin_h)) + y1, H);
        bin.w0 = clip(static_cast<int64_t>(std::floor(static_cast<T>(pw) * bin_w)) + x1, W);
        bin.w1 = clip(static_cast<int64_t>(std::ceil(static_cast<T>(pw + 1) * bin_w)) + x1, W);
      }
  }
  return bins;
}

template <typename T>
std::tuple<Tensor, Tensor> forward_kernel(const Tensor& input, const Tensor& rois, int64_t PH, int64_t PW,
                                          double spatial_scale) {
  const int64_t C = input.size(1), H = input.size(2), W = input.size(3), K = rois.size(0);
  std::vector<int64_t> batch;
  const auto bins = pool_bins<T>(rois, H, W, PH, PW, spatial_scale, batch);
  Tensor output = zeros({K, C, PH, PW}, input.options());
  Tensor argmax = full({K, C, PH, PW}, -1, kInt64);
  const T* in = input.data_ptr<T>();
  T* out = output.data_ptr<T>();
  int64_t* am = argmax.data_ptr<int64_t>();
  const int64_t nb = PH * PW;
  parallel_for(0, K * C, detail::grain_for(H * W), [&](int64_t i0, int64_t i1) {
    for (int64_t i = i0; i < i1; ++i) {
      const int64_t k = i / C, c = i % C;
      const T* plane = in + (batch[k] * C + c) * H * W;
      for (int64_t b = 0; b < nb; ++b) {
        const Bin& bin = bins[k * nb + b];
        const bool empty = bin.h1 <= bin.h0 || bin.w1 <= bin.w0;
        T best = empty ? T(0) : std::numeric_limits<T>::lowest();
        int64_t arg = -1;
        for (int64_t h = bin.h0; h < bin.h1; ++h)
          for (int64_t w = bin.w0; w < bin.w1; ++w)
            if (plane[h * W + w] > best) best = plane[h * W + w], arg = h * W + w;
        out[i * nb + b] = best;
        am[i * nb + b] = arg;
      }
    }
  });
  return {output, argmax};
}

template <typename T>
Tensor backward_kernel(const Tensor& grad, const Tensor& argmax, const std::vector<int64_t>& batch, IntArrayRef shape) {
  const int64_t C = shape[1], HW = shape[2] * shape[3], K = argmax.size(0);
  const int64_t nb = argmax.size(2) * argmax.size(3);
  Tensor grad_input = zeros(shape, grad.options());
  const T* go = grad.data_ptr<T>();
  const int64_t* am = argmax.data_ptr<int64_t>();
  T* gi = grad_input.data_ptr<T>();
  parallel_for(0, C, detail::grain_for(K * nb), [&](int64_t c0, int64_t c1) {
    for (int64_t k = 0; k < K; ++k)
      for (int64_t c = c0; c < c1; ++c) {
        T* plane = gi + (batch[k] * C + c) * HW;
        const int64_t o = (k * C + c) * nb;
        for (int64_t b = 0; b < nb; ++b)
          if (am[o + b] >= 0) plane[am[o + b]] += go[o + b];
      }
  });
  return grad_input;
}

struct RoIPoolFunction : autograd::Function<RoIPoolFunction> {
  static Tensor forward(AutogradContext* ctx, Tensor input, Tensor rois, double spatial_scale, int64_t PH, int64_t PW) {
    const Tensor r = rois.contiguous();
    Tensor out, argmax;
    detail::dispatch_float("roi_pool", input.scalar_type(), [&](auto zero) {
      std::tie(out, argmax) = forward_kernel<decltype(zero)>(input.contiguous(), r, PH, PW, spatial_scale);
    });
    ctx->saved_data["input_shape"] = input.sizes();
    ctx->saved_data["argmax"] = argmax;
    ctx->saved_data["batch"] = r.select(1, 0).to(kInt64);
    return out;
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const Tensor argmax = ctx->saved_data["argmax"].toTensor();
    const Tensor bt = ctx->saved_data["batch"].toTensor().contiguous();
    const std::vector<int64_t> batch(bt.data_ptr<int64_t>(), bt.data_ptr<int64_t>() + bt.numel());
    const auto shape = ctx->saved_data["input_shape"].toIntVector();
    const Tensor g = grads[0].contiguous();
    Tensor grad_input;
    detail::dispatch_float("roi_pool", g.scalar_type(),
                           [&](auto zero) { grad_input = backward_kernel<decltype(zero)>(g, argmax, batch, shape); });
    return {grad_input, Tensor(), Tensor(), Tensor(), Tensor()};
  }
};

Tensor roi_pool_rois(const Tensor& input, const Tensor& rois, IntArrayRef output_size, double spatial_scale) {
  const auto [ph, pw] = detail::pooled_size("roi_pool", output_size);
  detail::check_roi_args("roi_pool", input, rois);
  const ScalarType dt = input.scalar_type();
  if (dt == kFloat16 || dt == kBFloat16)
    return RoIPoolFunction::apply(input.to(kFloat32), rois.to(kFloat32), spatial_scale, ph, pw).to(dt);
  return RoIPoolFunction::apply(input, rois, spatial_scale, ph, pw);
}

}  // namespace

Tensor roi_pool(const Tensor& input, const Tensor& boxes, IntArrayRef output_size, double spatial_scale) {
  return roi_pool_rois(input, detail::rois_from_boxes("roi_pool", boxes), output_size, spatial_scale);
}

Tensor roi_pool(const Tensor& input, const std::vector<Tensor>& boxes, IntArrayRef output_size, double spatial_scale) {
  return roi_pool_rois(input, detail::rois_from_boxes("roi_pool", boxes), output_size, spatial_scale);
}

void RoIPoolImpl::pretty_print(std::ostream& stream) const {
  stream << "RoIPool(output_size=" << IntArrayRef(options.output_size())
         << ", spatial_scale=" << options.spatial_scale() << ")";
}

Tensor RoIPoolImpl::forward(const Tensor& input, const Tensor& rois) {
  return roi_pool(input, rois, options.output_size(), options.spatial_scale());
}

Tensor RoIPoolImpl::forward(const Tensor& input, const std::vector<Tensor>& rois) {
  return roi_pool(input, rois, options.output_size(), options.spatial_scale());
}

}  // namespace torch::vision::ops
