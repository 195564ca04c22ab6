#include "ember/vision/ops/deform_conv.h"

#include <cmath>

#include "ember/autograd/custom_function.h"
#include "ember/core/parallel.h"
#include "ember/nn/init.h"
#include "ember/ops/all_ops.h"
#include "ember/vision/ops/roi_common.h"

namespace torch::vision::ops {

namespace {

using autograd::AutogradContext;
using autograd::variable_list;

// Note [Deformable convolution as im2col + matmul]
// Only the sampling is custom: a deformable im2col turns (input, offset, mask)
// into columns [B, C * kh * kw, oH * oW] (a forward and a backward kernel),
// and the grouped matmul with the weight plus the bias are Ember's
// differentiable ops, so autograd gives the weight and bias gradients.
struct Geometry {
  int64_t B, C, H, W, kh, kw, oh, ow, offset_groups;
  int64_t stride_h, stride_w, pad_h, pad_w, dil_h, dil_w;
  int64_t taps() const { return kh * kw; }
  int64_t positions() const { return oh * ow; }
};

std::vector<int64_t> to_ints(const Geometry& g) {
  return std::vector<int64_t>{g.B,        g.C,        g.H,     g.W,     g.kh,    g.kw,   g.oh, g.ow, g.offset_groups,
                              g.stride_h, g.stride_w, g.pad_h, g.pad_w, g.dil_h, g.dil_w};
}

Geometry from_ints(const std::vector<int64_t>& x) {
  return {x[0], x[1], x[2], x[3], x[4], x[5], x[6], x[7], x[8], x[9], x[10], x[11], x[12], x[13], x[14]};
}

// Bilinear sample at (y, x) with zero outside the image; written so that a
// NaN coordinate samples zero.
template <typename T>
T sample(const T* in, int64_t H, int64_t W, T y, T x) {
  if (!(y > -1 && y < static_cast<T>(H) && x > -1 && x < static_cast<T>(W))) return 0;
  const int64_t y0 = static_cast<int64_t>(std::floor(y)), x0 = static_cast<int64_t>(std::floor(x));
  const int64_t y1 = y0 + 1, x1 = x0 + 1;
  const T ly = y - static_cast<T>(y0), lx = x - static_cast<T>(x0), hy = 1 - ly, hx = 1 - lx;
  const T v1 = (y0 >= 0 && x0 >= 0) ? in[y0 * W + x0] : T(0);
  const T v2 = (y0 >= 0 && x1 <= W - 1) ? in[y0 * W + x1] : T(0);
  const T v3 = (y1 <= H - 1 && x0 >= 0) ? in[y1 * W + x0] : T(0);
  const T v4 = (y1 <= H - 1 && x1 <= W - 1) ? in[y1 * W + x1] : T(0);
  return hy * hx * v1 + hy * lx * v2 + ly * hx * v3 + ly * lx * v4;
}

// The sample's derivatives with respect to y and x.
template <typename T>
void sample_grad(const T* in, int64_t H, int64_t W, T y, T x, T& dy, T& dx) {
  dy = dx = 0;
  if (!(y > -1 && y < static_cast<T>(H) && x > -1 && x < static_cast<T>(W))) return;
  const int64_t y0 = static_cast<int64_t>(std::floor(y)), x0 = static_cast<int64_t>(std::floor(x));
  const int64_t y1 = y0 + 1, x1 = x0 + 1;
  const T ly = y - static_cast<T>(y0), lx = x - static_cast<T>(x0);
  const T v1 = (y0 >= 0 && x0 >= 0) ? in[y0 * W + x0] : T(0);
  const T v2 = (y0 >= 0 && x1 <= W - 1) ? in[y0 * W + x1] : T(0);
  const T v3 = (y1 <= H - 1 && x0 >= 0) ? in[y1 * W + x0] : T(0);
  const T v4 = (y1 <= H - 1 && x1 <= W - 1) ? in[y1 * W + x1] : T(0);
  dy = (1 - lx) * (v3 - v1) + lx * (v4 - v2);
  dx = (1 - ly) * (v2 - v1) + ly * (v4 - v3);
}

// Scatters g into the four neighbours of (y, x) with the sample's weights.
template <typename T>
void scatter(T* out, int64_t H, int64_t W, T y, T x, T g) {
  if (!(y > -1 && y < static_cast<T>(H) && x > -1 && x < static_cast<T>(W))) return;
  const int64_t y0 = static_cast<int64_t>(std::floor(y)), x0 = static_cast<int64_t>(std::floor(x));
  const int64_t y1 = y0 + 1, x1 = x0 + 1;
  const T ly = y - static_cast<T>(y0), lx = x - static_cast<T>(x0), hy = 1 - ly, hx = 1 - lx;
  if (y0 >= 0 && x0 >= 0) out[y0 * W + x0] += hy * hx * g;
  if (y0 >= 0 && x1 <= W - 1) out[y0 * W + x1] += hy * lx * g;
  if (y1 <= H - 1 && x0 >= 0) out[y1 * W + x0] += ly * hx * g;
  if (y1 <= H - 1 && x1 <= W - 1) out[y1 * W + x1] += ly * lx * g;
}

// Where tap k of output position (oy, ox) samples, given the offset planes of
// its offset group.
template <typename T>
struct Locator {
  const Geometry& g;
  const T* offset;  // [B, OG, kh * kw, 2, oH, oW]
  const T* mask;    // [B, OG, kh * kw, oH, oW]
  void at(int64_t b, int64_t og, int64_t k, int64_t l, T& y, T& x, T& m) const {
    const int64_t L = g.positions(), oy = l / g.ow, ox = l % g.ow, i = k / g.kw, j = k % g.kw;
    const int64_t base = ((b * g.offset_groups + og) * g.taps() + k);
    y = static_cast<T>(oy * g.stride_h - g.pad_h + i * g.dil_h) + offset[(2 * base) * L + l];
    x = static_cast<T>(ox * g.stride_w - g.pad_w + j * g.dil_w) + offset[(2 * base + 1) * L + l];
    m = mask[base * L + l];
  }
};

template <typename T>
Tensor im2col(const Tensor& input, const Tensor& offset, const Tensor& mask, const Geometry& g) {
  const int64_t K = g.taps(), L = g.positions(), cpg = g.C / g.offset_groups;
  Tensor cols = empty({g.B, g.C * K, L}, input.options());
  const T* in = input.data_ptr<T>();
  T* out = cols.data_ptr<T>();
  const Locator<T> loc{g, offset.data_ptr<T>(), mask.data_ptr<T>()};
  parallel_for(0, g.B * g.C, detail::grain_for(K * L * 8), [&](int64_t p0, int64_t p1) {
    for (int64_t p = p0; p < p1; ++p) {
      const int64_t b = p / g.C, c = p % g.C;
      const T* plane = in + p * g.H * g.W;
      for (int64_t k = 0; k < K; ++k) {
        T* row = out + ((b * g.C + c) * K + k) * L;
        for (int64_t l = 0; l < L; ++l) {
          T y, x, m;
          loc.at(b, c / cpg, k, l, y, x, m);
          row[l] = m * sample(plane, g.H, g.W, y, x);
        }
      }
    }
  });
  return cols;
}

template <typename T>
variable_list im2col_backward(const Tensor& grad, const Tensor& input, const Tensor& offset, const Tensor& mask,
                              const Geometry& g) {
  const int64_t K = g.taps(), L = g.positions(), cpg = g.C / g.offset_groups;
  Tensor grad_input = zeros({g.B, g.C, g.H, g.W}, input.options());
  Tensor grad_offset = zeros(offset.sizes(), offset.options());
  Tensor grad_mask = zeros(mask.sizes(), mask.options());
  const T* gc = grad.data_ptr<T>();
  const T* in = input.data_ptr<T>();
  const Locator<T> loc{g, offset.data_ptr<T>(), mask.data_ptr<T>()};
  // The input's planes are disjoint per (b, c).
  T* gi = grad_input.data_ptr<T>();
  parallel_for(0, g.B * g.C, detail::grain_for(K * L * 8), [&](int64_t p0, int64_t p1) {
    for (int64_t p = p0; p < p1; ++p) {
      const int64_t b = p / g.C, c = p % g.C;
      for (int64_t k = 0; k < K; ++k) {
        const T* row = gc + (p * K + k) * L;
        for (int64_t l = 0; l < L; ++l) {
          T y, x, m;
          loc.at(b, c / cpg, k, l, y, x, m);
          scatter(gi + p * g.H * g.W, g.H, g.W, y, x, m * row[l]);
        }
      }
    }
  });
  // Each offset and mask entry sums over the channels of its offset group.
  T* go = grad_offset.data_ptr<T>();
  T* gm = grad_mask.data_ptr<T>();
  parallel_for(0, g.B * g.offset_groups * K, detail::grain_for(L * cpg * 16), [&](int64_t q0, int64_t q1) {
    for (int64_t q = q0; q < q1; ++q) {
      const int64_t b = q / (g.offset_groups * K), og = (q / K) % g.offset_groups, k = q % K;
      for (int64_t l = 0; l < L; ++l) {
        T y, x, m, sy = 0, sx = 0, sm = 0;
        loc.at(b, og, k, l, y, x, m);
        for (int64_t c = og * cpg; c < (og + 1) * cpg; ++c) {
          const T* plane = in + (b * g.C + c) * g.H * g.W;
          const T gcol = gc[((b * g.C + c) * K + k) * L + l];
          T dy, dx;
          sample_grad(plane, g.H, g.W, y, x, dy, dx);
          sy += gcol * m * dy;
          sx += gcol * m * dx;
          sm += gcol * sample(plane, g.H, g.W, y, x);
        }
        go[(2 * q) * L + l] = sy;
        go[(2 * q + 1) * L + l] = sx;
        gm[q * L + l] = sm;
      }
    }
  });
  return {grad_input, grad_offset, grad_mask};
}

struct DeformIm2col : autograd::Function<DeformIm2col> {
  static Tensor forward(AutogradContext* ctx, Tensor input, Tensor offset, Tensor mask, std::vector<int64_t> geometry) {
    const Geometry g = from_ints(geometry);
    const Tensor in = input.contiguous(), off = offset.contiguous(), m = mask.contiguous();
    ctx->save_for_backward({in, off, m});
    ctx->saved_data["geometry"] = geometry;
    Tensor cols;
    detail::dispatch_float("deform_conv2d", in.scalar_type(),
                           [&](auto zero) { cols = im2col<decltype(zero)>(in, off, m, g); });
    return cols;
  }

  static variable_list backward(AutogradContext* ctx, variable_list grads) {
    const auto saved = ctx->get_saved_variables();
    const Geometry g = from_ints(ctx->saved_data["geometry"].toIntVector());
    const Tensor grad = grads[0].contiguous();
    variable_list out;
    detail::dispatch_float("deform_conv2d", grad.scalar_type(), [&](auto zero) {
      out = im2col_backward<decltype(zero)>(grad, saved[0].detach(), saved[1].detach(), saved[2].detach(), g);
    });
    out.push_back(Tensor());
    return out;
  }
};

void check_4d(const char* name, const Tensor& t) {
  EMBER_CHECK(t.defined() && t.dim() == 4, "deform_conv2d: ", name, " must be a 4-D tensor, got shape ",
              t.defined() ? t.sizes() : IntArrayRef{});
}

}  // namespace

Tensor deform_conv2d(const Tensor& input, const Tensor& offset, const Tensor& weight, const std::optional<Tensor>& bias,
                     ExpandingArray<2> stride, ExpandingArray<2> padding, ExpandingArray<2> dilation,
                     const std::optional<Tensor>& mask) {
  check_4d("input", input);
  check_4d("offset", offset);
  check_4d("weight", weight);
  const bool use_mask = mask.has_value() && mask->defined();
  if (use_mask) check_4d("mask", *mask);
  EMBER_CHECK(input.is_floating_point(), "deform_conv2d: expected a floating-point input, got ", input.dtype());
  EMBER_CHECK(offset.dtype() == input.dtype() && weight.dtype() == input.dtype() &&
                  (!use_mask || mask->dtype() == input.dtype()),
              "deform_conv2d: input, offset, weight and mask must have the same dtype, got ", input.dtype(), ", ",
              offset.dtype(), " and ", weight.dtype());
  Geometry g{};
  g.B = input.size(0), g.C = input.size(1), g.H = input.size(2), g.W = input.size(3);
  g.kh = weight.size(2), g.kw = weight.size(3);
  g.stride_h = (*stride)[0], g.stride_w = (*stride)[1], g.pad_h = (*padding)[0], g.pad_w = (*padding)[1];
  g.dil_h = (*dilation)[0], g.dil_w = (*dilation)[1];
  EMBER_CHECK(g.kh > 0 && g.kw > 0, "deform_conv2d: weight_h: ", g.kh, " weight_w: ", g.kw, " must be positive");
  EMBER_CHECK(g.stride_h > 0 && g.stride_w > 0, "deform_conv2d: stride_h: ", g.stride_h, " stride_w: ", g.stride_w,
              " must be positive");
  EMBER_CHECK(g.pad_h >= 0 && g.pad_w >= 0, "deform_conv2d: pad_h: ", g.pad_h, " pad_w: ", g.pad_w,
              " must not be negative");
  EMBER_CHECK(g.dil_h > 0 && g.dil_w > 0, "deform_conv2d: dilation_h: ", g.dil_h, " dilation_w: ", g.dil_w,
              " must be positive");
  EMBER_CHECK(weight.size(1) > 0 && g.C % weight.size(1) == 0, "deform_conv2d: input channels ", g.C,
              " are not a multiple of the weight's ", weight.size(1), " channels per group");
  const int64_t groups = g.C / weight.size(1), OC = weight.size(0);
  EMBER_CHECK(groups > 0, "deform_conv2d: input has ", g.C, " channels, fewer than the weight's ", weight.size(1),
              " per group");
  EMBER_CHECK(OC % groups == 0, "deform_conv2d: out channels ", OC, " are not a multiple of groups ", groups);
  g.offset_groups = offset.size(1) / (2 * g.taps());
  EMBER_CHECK(g.offset_groups > 0 && offset.size(1) == g.offset_groups * 2 * g.taps(),
              "deform_conv2d: the shape of the offset tensor at dimension 1 is not valid. It should be a multiple of "
              "2 * weight.size[2] * weight.size[3].\nGot offset.shape[1]=",
              offset.size(1), ", while 2 * weight.size[2] * weight.size[3]=", 2 * g.taps());
  EMBER_CHECK(g.C % g.offset_groups == 0, "deform_conv2d: input channels ", g.C,
              " are not a multiple of offset groups ", g.offset_groups);
  g.oh = (g.H + 2 * g.pad_h - (g.dil_h * (g.kh - 1) + 1)) / g.stride_h + 1;
  g.ow = (g.W + 2 * g.pad_w - (g.dil_w * (g.kw - 1) + 1)) / g.stride_w + 1;
  EMBER_CHECK(g.oh > 0 && g.ow > 0, "deform_conv2d: Calculated output size too small - out_h: ", g.oh,
              " out_w: ", g.ow);
  EMBER_CHECK(offset.size(0) == g.B, "deform_conv2d: invalid batch size of offset: ", offset.size(0), " (input has ",
              g.B, ")");
  EMBER_CHECK(offset.size(2) == g.oh && offset.size(3) == g.ow, "deform_conv2d: offset output dims: (", offset.size(2),
              ", ", offset.size(3), ") - computed output dims: (", g.oh, ", ", g.ow, ")");
  if (use_mask) {
    EMBER_CHECK(mask->size(1) == g.offset_groups * g.taps(),
                "deform_conv2d: mask.shape[1] is not valid: got: ", mask->size(1),
                " expected: ", g.offset_groups * g.taps());
    EMBER_CHECK(mask->size(0) == g.B, "deform_conv2d: invalid batch size of mask: ", mask->size(0));
    EMBER_CHECK(mask->size(2) == g.oh && mask->size(3) == g.ow, "deform_conv2d: mask output dims: (", mask->size(2),
                ", ", mask->size(3), ") - computed output dims: (", g.oh, ", ", g.ow, ")");
  }
  if (bias.has_value() && bias->defined())
    EMBER_CHECK(bias->dim() == 1 && bias->size(0) == OC, "deform_conv2d: bias must be a Tensor[", OC, "], got shape ",
                bias->sizes());
  const ScalarType dt = input.scalar_type();
  const bool narrow = dt == kFloat16 || dt == kBFloat16;  // sampled in float32
  const auto wide = [&](const Tensor& t) { return narrow ? t.to(kFloat32) : t; };
  const Tensor m = use_mask ? *mask : ones({g.B, g.offset_groups * g.taps(), g.oh, g.ow}, input.options());
  const Tensor cols = DeformIm2col::apply(wide(input), wide(offset), wide(m), to_ints(g));
  const int64_t Kc = g.C / groups * g.taps();
  Tensor out = matmul(wide(weight).reshape({1, groups, OC / groups, Kc}), cols.view({g.B, groups, Kc, g.oh * g.ow}))
                   .reshape({g.B, OC, g.oh, g.ow});
  if (bias.has_value() && bias->defined()) out = out + wide(*bias).view({1, OC, 1, 1});
  return narrow ? out.to(dt) : out;
}

DeformConv2dImpl::DeformConv2dImpl(const DeformConv2dOptions& options_) : options(options_) { reset(); }

void DeformConv2dImpl::reset() {
  EMBER_CHECK(options.groups() > 0 && options.in_channels() % options.groups() == 0,
              "DeformConv2d: in_channels must be divisible by groups, got ", options.in_channels(),
              " and groups=", options.groups());
  EMBER_CHECK(options.out_channels() % options.groups() == 0,
              "DeformConv2d: out_channels must be divisible by groups, got ", options.out_channels(),
              " and groups=", options.groups());
  const auto k = *options.kernel_size();
  weight = register_parameter("weight",
                              empty({options.out_channels(), options.in_channels() / options.groups(), k[0], k[1]}));
  if (options.bias()) {
    bias = register_parameter("bias", empty({options.out_channels()}));
  } else {
    bias = register_parameter("bias", Tensor(), /*requires_grad=*/false);
  }
  reset_parameters();
}

// kaiming_uniform_(a=sqrt(5)) and U(-1/sqrt(fan_in), 1/sqrt(fan_in)), as torchvision.
void DeformConv2dImpl::reset_parameters() {
  nn::init::kaiming_uniform_(weight, std::sqrt(5.0));
  if (bias.defined()) {
    const auto [fan_in, fan_out] = nn::init::_calculate_fan_in_and_fan_out(weight);
    const double bound = 1.0 / std::sqrt(static_cast<double>(fan_in));
    nn::init::uniform_(bias, -bound, bound);
  }
}

void DeformConv2dImpl::pretty_print(std::ostream& stream) const {
  const auto pair = [](const ExpandingArray<2>& a) {
    return "(" + std::to_string((*a)[0]) + ", " + std::to_string((*a)[1]) + ")";
  };
  stream << "DeformConv2d(" << options.in_channels() << ", " << options.out_channels()
         << ", kernel_size=" << pair(options.kernel_size()) << ", stride=" << pair(options.stride());
  if ((*options.padding())[0] != 0 || (*options.padding())[1] != 0) stream << ", padding=" << pair(options.padding());
  if ((*options.dilation())[0] != 1 || (*options.dilation())[1] != 1)
    stream << ", dilation=" << pair(options.dilation());
  if (options.groups() != 1) stream << ", groups=" << options.groups();
  if (!options.bias()) stream << ", bias=False";
  stream << ")";
}

Tensor DeformConv2dImpl::forward(const Tensor& input, const Tensor& offset, const std::optional<Tensor>& mask) {
  return deform_conv2d(input, offset, weight, bias.defined() ? std::optional<Tensor>(bias) : std::nullopt,
                       options.stride(), options.padding(), options.dilation(), mask);
}

}  // namespace torch::vision::ops
