#pragma once
// Backward recording for the nn ops with dedicated kernels (batch_norm,
// layer_norm, embedding) and the activations whose gradient differs from a
// composition's (hardtanh, threshold). Formulas in nn_grad.cpp are written
// with public differentiable ops, so gradgradcheck works; batch_norm's
// first-order backward uses the fused kernel when no graph is being built.
#include "ember/core/tensor.h"

namespace ember::autograd {

// mean / invstd: the statistics the forward normalized with (batch stats in
// training, running stats in eval), in the compute dtype.
void record_batch_norm(const Tensor& input, const Tensor& weight, const Tensor& bias, const Tensor& out,
                       const Tensor& mean, const Tensor& invstd, bool training, double eps);
// normalized_dims: how many trailing dims were normalized; mean/rstd: the
// forward's row statistics (compute dtype), for the first-order kernel.
void record_layer_norm(const Tensor& input, const Tensor& weight, const Tensor& bias, const Tensor& out,
                       int64_t normalized_dims, double eps, const Tensor& mean, const Tensor& rstd);
// grad = g where min < x < max (strict, as PyTorch's hardtanh_backward). `self_value`
// is the input's value before an in-place update (== self otherwise).
void record_hardtanh(const Tensor& self, const Tensor& self_value, const Tensor& out, double min, double max);
void record_threshold(const Tensor& self, const Tensor& self_value, const Tensor& out, const Scalar& threshold);
void record_embedding(const Tensor& weight, const Tensor& indices, const Tensor& out, int64_t padding_idx,
                      bool scale_grad_by_freq);
void record_embedding_dense_backward(const Tensor& grad, const Tensor& indices, const Tensor& out, int64_t padding_idx,
                                     bool scale_grad_by_freq);
// dropout's one-pass form (Note [Dropout with a byte mask]): `mask` holds one byte
// per element, and with relu_first also whether relu passed (Note [Relu then dropout]).
void record_dropout_with_mask(const Tensor& input, const Tensor& out, const Tensor& mask, double scale,
                              bool relu_first);
// scaled_dot_product_attention's fused path (Note [Fused attention]): probs and kept
// (undefined without dropout) as the forward wrote them, mask the additive mask or none.
void record_scaled_dot_product_attention(const Tensor& query, const Tensor& key, const Tensor& value, const Tensor& out,
                                         const Tensor& probs, const Tensor& kept, const Tensor& mask, double scale,
                                         double keep, bool is_causal);

}  // namespace ember::autograd
