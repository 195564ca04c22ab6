#pragma once
// Internal: the convolution kernels behind ember::convolution.
// Note [Convolution kernels]
// All kernels take contiguous batched tensors (N, C, *spatial) with 1-3
// spatial dims and already-validated parameters; `out` is allocated by the
// caller with its final shape. The layer above (conv.cpp) owns checks,
// unbatched inputs and autograd.
//   - float32: oneDNN convolution (forward), deconvolution (transposed
//     forward) and convolution backward-data and backward-weights primitives. oneDNN caches
//     primitives by descriptor, so building one per call is cheap. In inference the
//     packed weight is kept with the weight's storage, and 3 x 3 stride-1 convolutions
//     run Winograd (Note [Packed convolution weights]).
//   - float64 (oneDNN has no f64) and float32 cases oneDNN cannot express:
//     im2col / col2im + GEMM, one (batch, group) at a time.
// Weight layouts follow PyTorch: (O, C/groups, *k) for a convolution,
// (C_in, O/groups, *k) for a transposed one.
#include "ember/core/tensor.h"

namespace torch::conv {

struct ConvParams {
  DimVector stride, padding, dilation, output_padding;
  bool transposed = false;
  int64_t groups = 1;
};

// out = conv(input, weight) + bias (bias may be undefined). inference: no gradient
// will be asked of this call, so the weight's packed copy may be kept and reused
// (Note [Packed convolution weights] in conv_onednn.cpp).
void forward_onednn(const Tensor& input, const Tensor& weight, const Tensor& bias, const Tensor& out,
                    const ConvParams& p, bool inference);
// What the weight's storage holds for it now (tests look).
enum class PackedWeightState { kNone, kDirect, kWinograd };
PackedWeightState packed_weight_state(const Tensor& weight);
// Whether this CPU has oneDNN's Winograd kernels (AVX-512 ones only): without
// them 3 x 3 weights stay kDirect.
bool winograd_available();
// Whether oneDNN can run this case (float32 and its shape rule holds).
bool onednn_forward_ok(const Tensor& input, const Tensor& weight, const Tensor& out, const ConvParams& p);
void forward_im2col(const Tensor& input, const Tensor& weight, const Tensor& bias, const Tensor& out,
                    const ConvParams& p);

// grad of a (non-transposed) convolution's weight, float32 only:
//   gw[o, c, k] = sum_{n, y} grad_out[n, o, y] * input[n, c, y*s + k*d - p]
// `gw` has the weight's shape (G*Og, Cg, *k).
bool onednn_weight_grad_ok(const Tensor& input, const Tensor& grad_out, IntArrayRef kernel, const ConvParams& p);
void weight_grad_onednn(const Tensor& input, const Tensor& grad_out, const Tensor& gw, const ConvParams& p);

// A (non-transposed) convolution's backward without a graph, float32 only: any of
// grad_input (gx), grad_weight (gw) and grad_bias (gb, only together with gw)
// that are defined are written, by oneDNN's backward-data and backward-weights
// primitives sharing one reorder of grad_out; the bias gradient comes out of the
// weight pass instead of a separate reduction over grad_out.
bool onednn_backward_ok(const Tensor& input, const Tensor& grad_out, IntArrayRef kernel, const ConvParams& p);
void backward_onednn(const Tensor& input, const Tensor& weight, const Tensor& grad_out, const Tensor& gx,
                     const Tensor& gw, const Tensor& gb, const ConvParams& p);

}  // namespace torch::conv
