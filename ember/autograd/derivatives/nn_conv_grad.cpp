#include "ember/autograd/derivatives/nn_conv_grad.h"
#include "ember/autograd/raw_backward.h"

#include "ember/autograd/formula_node.h"
#include "ember/autograd/forward_ad.h"
#include "ember/autograd/grad_mode.h"
#include "ember/autograd/node.h"
#include "ember/core/dispatch.h"
#include "ember/core/error.h"
#include "ember/core/parallel.h"
#include "ember/core/shape.h"
#include "ember/core/tensor.h"
#include "ember/ops/all_ops.h"
#include "ember/vmap/vmap.h"

namespace torch::autograd {

namespace {

// Note [Convolution gradients]
// For y = conv(x, w) (stride s, padding p, dilation d, groups G):
//   grad_x = conv_transpose(gy, w) with the same s, p, d, G and the
//            output_padding that restores x's size;
//   grad_w[o, c, k] = sum_{n, j} gy[n, o, j] * x[n, c, j*s + k*d - p], which is
//            itself a convolution: x with batch and channels swapped, gy as the
//            kernel, stride d and dilation s (weight_grad below).
// For y = conv_transpose(x, w) the roles swap: grad_x = conv(gy, w) and
// grad_w = weight_grad(image = gy, small = x). Every piece is a public
// differentiable op, so double backward works. When no graph is being built
// float32 gradients go straight to oneDNN's backward primitives.

conv::ConvParams unpack(const FormulaNode& n) {
  const DimVector& v = n.ints;
  const int64_t nd = v[0];
  conv::ConvParams p;
  for (int64_t i = 0; i < nd; ++i) {
    p.stride.push_back(v[1 + i]);
    p.padding.push_back(v[1 + nd + i]);
    p.dilation.push_back(v[1 + 2 * nd + i]);
    p.output_padding.push_back(v[1 + 3 * nd + i]);
  }
  p.transposed = v[1 + 4 * nd] != 0;
  p.groups = v[2 + 4 * nd];
  return p;
}

// grad_w for the image/small pair (see the Note); shape (G*Os, Ci/G, *kernel).
Tensor weight_grad(const Tensor& img, const Tensor& small, IntArrayRef kernel, const conv::ConvParams& p) {
  const int64_t nd = static_cast<int64_t>(kernel.size());
  const int64_t N = img.size(0), G = p.groups, Cg = img.size(1) / G, Os = small.size(1);
  if (raw_backward_ok(img, small) && conv::onednn_weight_grad_ok(img, small, kernel, p)) {
    DimVector shape{Os, Cg};
    for (int64_t k : kernel) shape.push_back(k);
    Tensor gw = empty(shape, img.options());
    conv::weight_grad_onednn(img.contiguous(), small.contiguous(), gw, p);
    return gw;
  }
  DimVector split{N, G, Cg}, perm{2, 1, 0}, merged{Cg, G * N};
  for (int64_t i = 0; i < nd; ++i) {
    split.push_back(img.size(i + 2));
    merged.push_back(img.size(i + 2));
    perm.push_back(i + 3);
  }
  const Tensor x = img.reshape(split).permute(perm).reshape(merged);
  Tensor r = convolution(x, small.transpose(0, 1), {}, p.dilation, p.padding, p.stride, false, 0, G);
  for (int64_t i = 0; i < nd; ++i) r = r.narrow(i + 2, 0, kernel[i]);
  return r.transpose(0, 1);
}

variable_list convolution_backward(const FormulaNode& n, const variable_list& g) {
  const conv::ConvParams p = unpack(n);
  const Tensor x = n.saved(0), w = n.saved(1), gy = g[0];
  const int64_t nd = w.dim() - 2;
  IntArrayRef kernel = w.sizes().slice(2);
  Tensor gx, gw, gb;
  // First order, float32: oneDNN's backward primitives directly (one reorder of gy, the
  // bias gradient from the weight pass). With a graph, the composite below keeps every
  // piece differentiable.
  if (raw_backward_ok(g) && x.numel() > 0 && w.numel() > 0 && gy.numel() > 0 &&
      conv::onednn_backward_ok(x, gy, kernel, p) && w.scalar_type() == gy.scalar_type() &&
      (n.needs_input_grad(1) || !n.needs_input_grad(2))) {
    if (n.needs_input_grad(0)) gx = empty(x.sizes(), x.options());
    if (n.needs_input_grad(1)) gw = empty(w.sizes(), w.options());
    if (n.needs_input_grad(2)) gb = empty({w.size(0)}, w.options());
    conv::backward_onednn(x.contiguous(), w.contiguous(), gy.contiguous(), gx, gw, gb, p);
    return {gx, gw, gb};
  }
  if (n.needs_input_grad(0)) {
    if (p.transposed) {
      gx = convolution(gy, w, {}, p.stride, p.padding, p.dilation, false, 0, p.groups);
    } else {
      DimVector op(nd);
      for (int64_t i = 0; i < nd; ++i)
        op[i] = x.size(i + 2) -
                ((gy.size(i + 2) - 1) * p.stride[i] - 2 * p.padding[i] + p.dilation[i] * (kernel[i] - 1) + 1);
      gx = convolution(gy, w, {}, p.stride, p.padding, p.dilation, true, op, p.groups);
    }
  }
  if (n.needs_input_grad(1)) gw = p.transposed ? weight_grad(gy, x, kernel, p) : weight_grad(x, gy, kernel, p);
  if (n.needs_input_grad(2)) {
    DimVector dims{0};
    for (int64_t i = 0; i < nd; ++i) dims.push_back(i + 2);
    gb = gy.sum(dims);
  }
  return {gx, gw, gb};
}

}  // namespace

void record_convolution(const Tensor& input, const Tensor& weight, const Tensor& bias, const Tensor& out,
                        const conv::ConvParams& p) {
  auto node = record("ConvolutionBackward0", &convolution_backward, {input, weight, bias}, {out});
  node->save(input);
  node->save(weight);
  DimVector& v = node->ints;
  v.push_back(static_cast<int64_t>(p.stride.size()));
  for (const DimVector* d : {&p.stride, &p.padding, &p.dilation, &p.output_padding})
    for (int64_t x : *d) v.push_back(x);
  v.push_back(p.transposed ? 1 : 0);
  v.push_back(p.groups);
}

}  // namespace torch::autograd
