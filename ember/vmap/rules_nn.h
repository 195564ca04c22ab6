#pragma once
// Batching rules of the nn ops (Note [vmap hooks] in batched_tensor.h):
// convolutions, pooling, upsampling, normalization and the losses with
// dedicated kernels. Most fold the vmap batch into a dim the op already
// maps over: the sample batch N (pooling, upsampling, eval-mode batch_norm),
// the channels (training-mode batch_norm, whose statistics are per channel)
// or the conv groups (per-sample weights, as functorch does).
#include <cstdint>
#include <functional>
#include <tuple>
#include <type_traits>

#include "ember/vmap/batching_rules.h"

namespace torch::batching {

// The conv kernel the rule calls on physical tensors: (input, weight, bias,
// groups), with the op's stride, padding, ... bound by the caller.
using ConvFn = std::function<Tensor(const Tensor&, const Tensor&, const Tensor&, int64_t)>;
// conv{1,2,3}d and conv_transpose{1,2,3}d. A batched input only: the batch
// joins N. A batched weight: the batch joins the groups (input [B, N, C, ..]
// -> [N, B*C, ..], weight [B*O, C/g, ..], groups B*g). A batched bias is
// added after the conv.
Tensor convolution_batched(const char* op, const Tensor& input, const Tensor& weight, const Tensor& bias,
                           int64_t groups, const ConvFn& conv);

// batch_norm (instance = false) and instance_norm (instance = true, with
// `training` standing for use_input_stats). Running statistics updated in
// training must be batched whenever the input is (PyTorch refuses to write
// per-sample statistics into one shared buffer).
Tensor batch_norm_batched(const Tensor& input, const Tensor& weight, const Tensor& bias, const Tensor& running_mean,
                          const Tensor& running_var, bool training, double momentum, double eps, bool instance);
Tensor layer_norm_batched(const Tensor& input, IntArrayRef normalized_shape, const Tensor& weight, const Tensor& bias,
                          double eps);

// Losses with dedicated kernels: the kernel runs unreduced on the samples'
// rows stacked together; the reduction then runs per sample.
Tensor binary_cross_entropy_batched(const Tensor& self, const Tensor& target, const Tensor& weight, int64_t reduction);
Tensor multi_margin_loss_batched(const Tensor& self, const Tensor& target, const Scalar& p, const Scalar& margin,
                                 const Tensor& weight, int64_t reduction);
Tensor multilabel_margin_loss_batched(const Tensor& self, const Tensor& target, int64_t reduction);
// ctc_loss with lengths shared by every sample: the samples' sequences side
// by side in the kernel's N ([B, T, N, C] -> [T, B*N, C]).
Tensor ctc_loss_batched(const Tensor& log_probs, const Tensor& targets, IntArrayRef input_lengths,
                        IntArrayRef target_lengths, int64_t blank, int64_t reduction, bool zero_infinity);

// embedding with per-sample indices and/or weights. Per-sample indices with a
// shared weight index it directly; a batched weight [B, V, D] is flattened to
// [B*V, D] with sample k's indices offset by k*V. padding_idx and
// scale_grad_by_freq act per sample, as in a loop: the frequencies are
// counted within each sample, padding positions pass no gradient.
Tensor embedding_batched(const Tensor& weight, const Tensor& indices, int64_t padding_idx, bool scale_grad_by_freq);
// embedding_dense_backward with a batched grad and/or indices: the samples'
// rows offset by k*num_weights in one [B*num_weights, D] result.
Tensor embedding_dense_backward_batched(const Tensor& grad_output, const Tensor& indices, int64_t num_weights,
                                        int64_t padding_idx, bool scale_grad_by_freq);

// The fallback for ops whose samples cannot share one kernel call (per-sample
// sequence lengths, bag offsets): `fn` runs on each sample's slices (an
// input not batched at this level, or nullptr, is passed as it is) and the
// results, which must have one shape per output, are stacked. Differentiable
// through select and stack; slower than a rule by the batch size's calls.
using PerSampleFn = std::function<std::vector<Tensor>(const std::vector<Tensor>&)>;
std::vector<Tensor> per_sample_loop(std::initializer_list<const Tensor*> inputs, const char* op, const PerSampleFn& fn);

namespace detail {
// Raises unless self's logical rank is `rank` or (allow_unbatched) rank - 1.
void check_nn_rank(const Tensor& self, int64_t rank, bool allow_unbatched, const char* op);
template <typename R>
R unfold_front(R r, int64_t b, int64_t n) {
  if constexpr (std::is_same_v<R, Tensor>) {
    return r.unflatten(0, {b, n});
  } else {
    std::apply([&](auto&... t) { ((t = t.unflatten(0, {b, n})), ...); }, r);
    return r;
  }
}
}  // namespace detail

// An op on (N, C, *spatial) inputs of logical rank `rank` (or, with
// allow_unbatched, (C, *spatial)): the vmap batch joins N, or becomes N for
// an unbatched sample. `fn` runs the op on the physical tensor and returns
// a Tensor or a tuple of them (max pooling's indices are per plane, so they
// need no change).
template <typename F>
auto fold_into_n(const Tensor& self, int64_t rank, bool allow_unbatched, const char* op, F&& fn) {
  const int64_t level = batched_meta(self)->level;
  detail::check_nn_rank(self, rank, allow_unbatched, op);
  const Tensor v = peel_front(self, level).value;
  if (self.dim() == rank - 1) return detail::wrap_result(fn(v), level);
  const int64_t b = v.size(0), n = v.size(1);
  return detail::wrap_result(detail::unfold_front(fn(v.flatten(0, 1)), b, n), level);
}

}  // namespace torch::batching

// The entry line of a spatial nn op: `expr` is the op applied to `v`.
//   EMBER_VMAP_FOLD_N(self, 4, true, "max_pool2d", v, max_pool2d(v, kernel_size, ...));
#define EMBER_VMAP_FOLD_N(self, rank, allow_unbatched, op, v, expr) \
  if (::ember::batching::any_batched(self)) [[unlikely]]            \
  return ::ember::batching::fold_into_n(self, rank, allow_unbatched, op, [&](const ::ember::Tensor& v) { return expr; })
