// Convolution front end: argument checks, output shapes, unbatched inputs,
// kernel choice and autograd (Note [Convolution kernels]).
#include "ember/ops/nn/conv.h"
#include "ember/core/record_scope.h"

#include <string>

#include "ember/autograd/derivatives/nn_conv_grad.h"
#include "ember/autograd/formula_node.h"
#include "ember/autograd/forward_ad.h"
#include "ember/autograd/grad_mode.h"
#include "ember/autograd/node.h"
#include "ember/core/checked_arith.h"
#include "ember/core/dispatch.h"
#include "ember/core/error.h"
#include "ember/core/parallel.h"
#include "ember/core/shape.h"
#include "ember/core/tensor.h"
#include "ember/kernels/cpu/conv_kernels.h"
#include "ember/ops/all_ops.h"
#include "ember/vmap/rules_nn.h"
#include "ember/vmap/vmap.h"

namespace torch {

namespace {

// A parameter given as one value or one per spatial dim, expanded to `nd`.
DimVector expand_param(IntArrayRef v, int64_t nd, const char* op, const char* what) {
  EMBER_CHECK(v.size() == 1 || static_cast<int64_t>(v.size()) == nd, op, ": expected ", what,
              " to be a single integer value or a list of ", nd,
              " values to match the convolution dimensions, but got ", what, "=", v);
  DimVector r(nd, v[0]);
  if (v.size() != 1)
    for (int64_t i = 0; i < nd; ++i) r[i] = v[i];
  return r;
}

// dilation * (k - 1) + 1, the extent one output element reads.
int64_t dilated_kernel(const char* op, int64_t dilation, int64_t k) {
  return checked_add(checked_mul(dilation, k - 1, op, "dilated kernel size"), 1, op, "dilated kernel size");
}

const char* dims_name(int64_t nd) { return nd == 1 ? "3D" : nd == 2 ? "4D" : "5D"; }

void check_args(const char* op, const Tensor& input, const Tensor& weight, const Tensor& bias,
                const conv::ConvParams& p) {
  const int64_t nd = weight.dim() - 2;
  EMBER_CHECK(input.dim() == weight.dim(), op, ": expected ", dims_name(nd), " input (batched) with a ", weight.dim(),
              "D weight, but got input of size ", shape_str(input.sizes()));
  EMBER_CHECK(input.scalar_type() == ScalarType::Float || input.scalar_type() == ScalarType::Double, op,
              ": supports float32 and float64 inputs, but got ", input.scalar_type());
  EMBER_CHECK(weight.scalar_type() == input.scalar_type(), op, ": input type (", input.scalar_type(),
              ") and weight type (", weight.scalar_type(), ") should be the same");
  EMBER_CHECK(!bias.defined() || bias.scalar_type() == input.scalar_type(), op, ": input type (", input.scalar_type(),
              ") and bias type (", bias.scalar_type(), ") should be the same");
  EMBER_CHECK(p.groups > 0, op, ": non-positive groups is not supported, got groups=", p.groups);
  for (int64_t i = 0; i < nd; ++i) {
    EMBER_CHECK(p.stride[i] > 0, op, ": non-positive stride is not supported, got stride=", IntArrayRef(p.stride));
    EMBER_CHECK(p.padding[i] >= 0, op, ": negative padding is not supported, got padding=", IntArrayRef(p.padding));
    EMBER_CHECK(p.dilation[i] > 0, op,
                ": dilation should be greater than zero, got dilation=", IntArrayRef(p.dilation));
    EMBER_CHECK(p.output_padding[i] >= 0, op, ": negative output_padding is not supported");
    EMBER_CHECK(!p.transposed || p.output_padding[i] < std::max(p.stride[i], p.dilation[i]), op,
                ": output padding must be smaller than either stride or dilation, but got output_padding=",
                IntArrayRef(p.output_padding), ", stride=", IntArrayRef(p.stride),
                ", dilation=", IntArrayRef(p.dilation));
  }
  const int64_t G = p.groups;
  EMBER_CHECK(weight.size(0) >= 1, op, ": given groups=", G,
              ", expected weight to be at least 1 at dimension 0, but got weight of size ", shape_str(weight.sizes()),
              " instead");
  for (int64_t i = 0; i < nd; ++i) {
    // A zero-size kernel or a zero-size spatial input would give an output of bias
    // values (or a bigger-than-input transposed output) from no data at all.
    EMBER_CHECK(weight.size(i + 2) > 0, op, ": kernel size should be greater than zero, but got weight of size ",
                shape_str(weight.sizes()));
    EMBER_CHECK(
        input.size(i + 2) > 0, op,
        ": only zero batch or zero channel inputs are supported, but got input shape: ", shape_str(input.sizes()));
  }
  EMBER_CHECK(weight.size(0) % G == 0, op, ": given groups=", G, ", expected weight to be divisible by ", G,
              " at dimension 0, but got weight of size ", shape_str(weight.sizes()), " instead");
  const int64_t in_ch = p.transposed ? weight.size(0) : weight.size(1) * G;
  EMBER_CHECK(input.size(1) == in_ch, op, ": given groups=", G, ", weight of size ", shape_str(weight.sizes()),
              ", expected input", shape_str(input.sizes()), " to have ", in_ch, " channels, but got ", input.size(1),
              " channels instead");
  const int64_t out_ch = p.transposed ? weight.size(1) * G : weight.size(0);
  EMBER_CHECK(!bias.defined() || (bias.dim() == 1 && bias.size(0) == out_ch), op, ": given weight of size ",
              shape_str(weight.sizes()), ", expected bias to be 1-dimensional with ", out_ch,
              " elements, but got bias of size ", shape_str(bias.sizes()), " instead");
  if (!p.transposed) {
    for (int64_t i = 0; i < nd; ++i) {
      const int64_t padded =
          checked_add(input.size(i + 2), checked_mul(2, p.padding[i], op, "padding"), op, "padded input size");
      const int64_t kr = dilated_kernel(op, p.dilation[i], weight.size(i + 2));
      EMBER_CHECK(padded >= kr, op, ": calculated padded input size per channel ", padded, " at spatial dim ", i,
                  " is smaller than the (dilated) kernel size ", kr, " (input ", shape_str(input.sizes()), ", weight ",
                  shape_str(weight.sizes()), ")");
    }
  }
}

DimVector output_shape(const char* op, const Tensor& input, const Tensor& weight, const conv::ConvParams& p) {
  const int64_t nd = weight.dim() - 2;
  DimVector out{input.size(0),
                p.transposed ? checked_mul(weight.size(1), p.groups, op, "output channels") : weight.size(0)};
  for (int64_t i = 0; i < nd; ++i) {
    const int64_t kr = dilated_kernel(op, p.dilation[i], weight.size(i + 2));
    const int64_t in = input.size(i + 2);
    const int64_t pad2 = checked_mul(2, p.padding[i], op, "padding");
    if (p.transposed) {
      const int64_t grown = checked_mul(in - 1, p.stride[i], op, "output size");
      out.push_back(checked_add(checked_add(checked_sub(grown, pad2, op, "output size"), kr, op, "output size"),
                                p.output_padding[i], op, "output size"));
    } else {
      out.push_back((checked_add(in, pad2, op, "padded input size") - kr) / p.stride[i] + 1);
    }
  }
  return out;
}

Tensor convolution_impl(const char* op, const Tensor& input_, const Tensor& weight, const Tensor& bias,
                        IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation, bool transposed,
                        IntArrayRef output_padding, int64_t groups) {
  if (batching::any_batched(input_, weight, bias)) [[unlikely]]
    return batching::convolution_batched(op, input_, weight, bias, groups, [&](auto& x, auto& w, auto& b, int64_t g) {
      return convolution_impl(op, x, w, b, stride, padding, dilation, transposed, output_padding, g);
    });
  EMBER_RECORD_OP(op, input_, weight);
  EMBER_CHECK(input_.defined() && weight.defined(), op, ": input and weight must be defined");
  EMBER_CHECK(weight.dim() >= 3 && weight.dim() <= 5, op, ": expected a 3D, 4D or 5D weight, but got weight of size ",
              shape_str(weight.sizes()));
  const int64_t nd = weight.dim() - 2;
  const bool unbatched = input_.dim() == weight.dim() - 1;
  EMBER_CHECK(input_.dim() == weight.dim() || unbatched, op, ": expected ", nd + 1, "D (unbatched) or ", nd + 2,
              "D (batched) input, but got input of size: ", shape_str(input_.sizes()));
  const Tensor input = unbatched ? input_.unsqueeze(0) : input_;
  conv::ConvParams p{expand_param(stride, nd, op, "stride"),
                     expand_param(padding, nd, op, "padding"),
                     expand_param(dilation, nd, op, "dilation"),
                     expand_param(output_padding, nd, op, "output_padding"),
                     transposed,
                     groups};
  check_args(op, input, weight, bias, p);
  const DimVector shape = output_shape(op, input, weight, p);
  for (int64_t s : shape)
    EMBER_CHECK(s >= 0, op, ": output size is too small (computed ", shape_str(shape), " from input ",
                shape_str(input.sizes()), " and weight ", shape_str(weight.sizes()), ")");
  Tensor out = empty(shape, input.options());
  const bool record = autograd::needs_grad(input, weight, bias);
  {
    autograd::BelowAutogradGuard no_grad;
    if (out.numel() == 0) {
      // nothing to compute
    } else if (input.numel() == 0 || weight.numel() == 0) {
      out.zero_();
      if (bias.defined()) {
        DimVector bshape(out.dim(), 1);
        bshape[1] = out.size(1);
        out.add_(bias.view(bshape));
      }
    } else {
      const Tensor x = input.contiguous(), w = weight.contiguous();
      const Tensor b = bias.defined() ? bias.contiguous() : bias;
      if (conv::onednn_forward_ok(x, w, out, p))
        conv::forward_onednn(x, w, b, out, p, !record);
      else
        conv::forward_im2col(x, w, b, out, p);
    }
  }
  if (record) autograd::record_convolution(input, weight, bias, out, p);
  return unbatched ? out.squeeze(0) : out;
}

Tensor conv_n(const char* op, int64_t nd, const Tensor& input, const Tensor& weight, const Tensor& bias,
              IntArrayRef stride, IntArrayRef padding, IntArrayRef dilation, int64_t groups) {
  EMBER_CHECK(weight.dim() == nd + 2, op, ": expected a ", nd + 2, "D weight, but got weight of size ",
              shape_str(weight.sizes()));
  return convolution_impl(op, input, weight, bias, stride, padding, dilation, false, 0, groups);
}

// padding="same" / "valid". "same" pads (dilation * (k - 1)) in total per dim,
// the odd element on the right, as PyTorch does (explicit pad when asymmetric).
Tensor conv_n_str(const char* op, int64_t nd, const Tensor& input, const Tensor& weight, const Tensor& bias,
                  IntArrayRef stride, std::string_view padding, IntArrayRef dilation, int64_t groups) {
  if (padding == "valid") return conv_n(op, nd, input, weight, bias, stride, 0, dilation, groups);
  EMBER_CHECK(padding == "same", op, ": invalid padding string '", std::string(padding),
              "', expected one of 'valid' or 'same'");
  EMBER_CHECK(weight.dim() == nd + 2, op, ": expected a ", nd + 2, "D weight, but got weight of size ",
              shape_str(weight.sizes()));
  const DimVector s = expand_param(stride, nd, op, "stride");
  for (int64_t v : s) EMBER_CHECK(v == 1, op, ": padding='same' is not supported for strided convolutions");
  const DimVector d = expand_param(dilation, nd, op, "dilation");
  DimVector pad(nd), extra(2 * nd, 0);
  bool asymmetric = false;
  for (int64_t i = 0; i < nd; ++i) {
    const int64_t total = dilated_kernel(op, d[i], weight.size(i + 2)) - 1;
    pad[i] = total / 2;
    if (total % 2) {
      asymmetric = true;
      extra[2 * (nd - 1 - i) + 1] = 1;  // constant_pad_nd lists the last dim first
    }
  }
  const Tensor x = asymmetric ? constant_pad_nd(input, extra, 0) : input;
  return conv_n(op, nd, x, weight, bias, stride, pad, dilation, groups);
}

Tensor conv_transpose_n(const char* op, int64_t nd, const Tensor& input, const Tensor& weight, const Tensor& bias,
                        IntArrayRef stride, IntArrayRef padding, IntArrayRef output_padding, int64_t groups,
                        IntArrayRef dilation) {
  EMBER_CHECK(weight.dim() == nd + 2, op, ": expected a ", nd + 2, "D weight, but got weight of size ",
              shape_str(weight.sizes()));
  return convolution_impl(op, input, weight, bias, stride, padding, dilation, true, output_padding, groups);
}

}  // namespace

Tensor convolution(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride,
                   IntArrayRef padding, IntArrayRef dilation, bool transposed, IntArrayRef output_padding,
                   int64_t groups) {
  return convolution_impl("convolution", input, weight, bias, stride, padding, dilation, transposed, output_padding,
                          groups);
}

Tensor conv1d(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride, IntArrayRef padding,
              IntArrayRef dilation, int64_t groups) {
  return conv_n("conv1d", 1, input, weight, bias, stride, padding, dilation, groups);
}
Tensor conv2d(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride, IntArrayRef padding,
              IntArrayRef dilation, int64_t groups) {
  return conv_n("conv2d", 2, input, weight, bias, stride, padding, dilation, groups);
}
Tensor conv3d(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride, IntArrayRef padding,
              IntArrayRef dilation, int64_t groups) {
  return conv_n("conv3d", 3, input, weight, bias, stride, padding, dilation, groups);
}
Tensor conv1d_padding_str(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride,
                          std::string_view padding, IntArrayRef dilation, int64_t groups) {
  return conv_n_str("conv1d", 1, input, weight, bias, stride, padding, dilation, groups);
}
Tensor conv2d_padding_str(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride,
                          std::string_view padding, IntArrayRef dilation, int64_t groups) {
  return conv_n_str("conv2d", 2, input, weight, bias, stride, padding, dilation, groups);
}
Tensor conv3d_padding_str(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride,
                          std::string_view padding, IntArrayRef dilation, int64_t groups) {
  return conv_n_str("conv3d", 3, input, weight, bias, stride, padding, dilation, groups);
}

Tensor conv_transpose1d(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride,
                        IntArrayRef padding, IntArrayRef output_padding, int64_t groups, IntArrayRef dilation) {
  return conv_transpose_n("conv_transpose1d", 1, input, weight, bias, stride, padding, output_padding, groups,
                          dilation);
}
Tensor conv_transpose2d(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride,
                        IntArrayRef padding, IntArrayRef output_padding, int64_t groups, IntArrayRef dilation) {
  return conv_transpose_n("conv_transpose2d", 2, input, weight, bias, stride, padding, output_padding, groups,
                          dilation);
}
Tensor conv_transpose3d(const Tensor& input, const Tensor& weight, const Tensor& bias, IntArrayRef stride,
                        IntArrayRef padding, IntArrayRef output_padding, int64_t groups, IntArrayRef dilation) {
  return conv_transpose_n("conv_transpose3d", 3, input, weight, bias, stride, padding, output_padding, groups,
                          dilation);
}

}  // namespace torch
