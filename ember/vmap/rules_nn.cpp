#include "ember/vmap/rules_nn.h"

#include "ember/autograd/forward_ad.h"
#include "ember/core/error.h"
#include "ember/ops/all_ops.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/nn/loss.h"
#include "ember/ops/nn/normalization.h"

namespace torch::batching {

namespace detail {
void check_nn_rank(const Tensor& self, int64_t rank, bool allow_unbatched, const char* op) {
  if (allow_unbatched)
    EMBER_CHECK(self.dim() == rank || self.dim() == rank - 1, op, ": expected ", rank - 1, "D (unbatched) or ", rank,
                "D (batched) input, but got input of size: ", shape_str(self.sizes()));
  else
    EMBER_CHECK(self.dim() == rank, op, ": ", rank, "D data tensor expected but got a tensor with sizes ",
                shape_str(self.sizes()));
}
}  // namespace detail

namespace {
// [1, .., c, .., 1] of rank `rank` with c at `at`: a per-channel parameter
// lined up with a logical (N, C, ...) or (C, ...) tensor.
DimVector channel_view(int64_t rank, int64_t at, int64_t c) {
  DimVector s(static_cast<size_t>(rank), 1);
  s[at] = c;
  return s;
}
}  // namespace

Tensor convolution_batched(const char* op, const Tensor& input, const Tensor& weight, const Tensor& bias,
                           int64_t groups, const ConvFn& conv) {
  EMBER_CHECK(input.defined() && weight.defined(), op, ": input and weight must be defined");
  const int64_t wd = weight.dim();
  EMBER_CHECK(wd >= 3 && wd <= 5, op, ": expected a 3D, 4D or 5D weight, but got weight of size ",
              shape_str(weight.sizes()));
  const bool unbatched = input.dim() == wd - 1;
  EMBER_CHECK(input.dim() == wd || unbatched, op, ": expected ", wd - 1, "D (unbatched) or ", wd,
              "D (batched) input, but got input of size: ", shape_str(input.sizes()));
  EMBER_CHECK(!bias.defined() || bias.dim() == 1, op, ": expected a 1-dimensional bias, but got bias of size ",
              shape_str(bias.sizes()));
  const int64_t level = top_level({&input, &weight, &bias});
  const int64_t b = batch_size({&input, &weight, &bias}, level);
  const Peeled pi = peel_front(input, level), pw = peel_front(weight, level), pb = peel_front(bias, level);
  // A bias batched here is added to the result (logical broadcasting) instead.
  const Tensor inner_bias = pb.batched ? Tensor() : bias;
  Tensor out;
  if (!pi.batched && !pw.batched) {
    out = conv(input, weight, inner_bias, groups);
  } else if (!pw.batched) {
    // The samples' batches side by side: one conv over B*N (an unbatched
    // sample [C, ...] makes the vmap batch the conv's N).
    const Tensor& x = pi.value;
    out = wrap(unbatched ? conv(x, weight, inner_bias, groups)
                         : conv(x.flatten(0, 1), weight, inner_bias, groups).unflatten(0, {b, x.size(1)}),
               level);
  } else {
    // Per-sample weights: sample k's channels form groups k*g .. k*g+g-1.
    Tensor x = front_or_expand(input, level, b);
    if (unbatched) x = x.unsqueeze(1);
    x = x.movedim(0, 1).flatten(1, 2);  // [N, B*C, ...]
    const Tensor w = pw.value.flatten(0, 1);
    Tensor bb;
    if (inner_bias.defined()) bb = inner_bias.unsqueeze(0).expand({b, inner_bias.size(0)}).flatten(0, 1);  // [B*O]
    Tensor y = conv(x, w, bb, groups * b);                 // [N, B*O, ...]
    y = y.unflatten(1, {b, y.size(1) / b}).movedim(1, 0);  // [B, N, O, ...]
    out = wrap(unbatched ? y.squeeze(1) : y, level);
  }
  if (pb.batched) {
    EMBER_CHECK(bias.dim() == 1 && bias.size(0) == out.size(unbatched ? 0 : 1), op, ": expected bias to be ",
                "1-dimensional with ", out.size(unbatched ? 0 : 1), " elements, but got bias of size ",
                shape_str(bias.sizes()), " instead");
    out = out + bias.view(channel_view(out.dim(), unbatched ? 0 : 1, bias.size(0)));
  }
  return out;
}

Tensor batch_norm_batched(const Tensor& input, const Tensor& weight, const Tensor& bias, const Tensor& running_mean,
                          const Tensor& running_var, bool training, double momentum, double eps, bool instance) {
  const char* op = instance ? "instance_norm" : "batch_norm";
  EMBER_CHECK(input.defined(), op, ": expected a defined input");
  EMBER_CHECK(input.dim() >= 2, op, ": expected input of shape (N, C, ...) with at least 2 dims, got ",
              shape_str(input.sizes()));
  const int64_t c = input.size(1);
  for (const Tensor* t : {&weight, &bias, &running_mean, &running_var})
    if (t->defined())
      EMBER_CHECK(t->numel() == c, op, ": weight, bias and running statistics should contain ", c,
                  " elements, but got one of size ", shape_str(t->sizes()), " for input of size ",
                  shape_str(input.sizes()));
  const int64_t level = top_level({&input, &weight, &bias, &running_mean, &running_var});
  const int64_t b = batch_size({&input, &weight, &bias, &running_mean, &running_var}, level);
  const Peeled pi = peel_front(input, level), pm = peel_front(running_mean, level), pv = peel_front(running_var, level),
               pw = peel_front(weight, level), pb = peel_front(bias, level);
  const bool stats_batched = pm.batched || pv.batched;
  if (training && (pi.batched || stats_batched))
    EMBER_CHECK((!running_mean.defined() || pm.batched) && (!running_var.defined() || pv.batched), op,
                ": vmap: the running_mean / running_var buffers are updated in place in training mode, but the "
                "input is batched and they are not (running_mean ",
                running_mean.defined() ? shape_str(running_mean.sizes()) : std::string("None"), ", input ",
                shape_str(input.sizes()),
                "); every sample would write its own statistics into the one buffer. Batch the running statistics "
                "like the input (e.g. one [C] buffer per sample, stacked), pass running_mean=None and "
                "running_var=None, or use eval mode");
  const bool affine_inside = !pw.batched && !pb.batched;
  const Tensor w_in = affine_inside ? weight : Tensor(), b_in = affine_inside ? bias : Tensor();
  auto norm = [&](const Tensor& x, const Tensor& w, const Tensor& bb, const Tensor& m, const Tensor& v) {
    auto o = [](const Tensor& t) { return t.defined() ? std::optional<Tensor>(t) : std::nullopt; };
    return instance ? instance_norm(x, o(w), o(bb), o(m), o(v), training, momentum, eps, false)
                    : batch_norm(x, o(w), o(bb), o(m), o(v), training, momentum, eps, false);
  };
  Tensor y;
  bool affine_done = true;
  if (!pi.batched && !stats_batched) {
    // Only the affine parameters are batched here.
    y = norm(input, w_in, b_in, running_mean, running_var);
  } else if (!stats_batched && !(training && !instance)) {
    // Statistics per (sample, instance) already, or fixed: the batch joins N.
    const Tensor& x = pi.value;
    y = wrap(norm(x.flatten(0, 1), w_in, b_in, running_mean, running_var).unflatten(0, {b, x.size(1)}), level);
  } else {
    // Per-sample statistics per channel: the batch joins the channels
    // ([B, N, C, ...] -> [N, B*C, ...]), the buffers are [B*C].
    const Tensor x = front_or_expand(input, level, b).movedim(0, 1).flatten(1, 2);
    auto flat = [&](const Tensor& s, const Peeled& p) -> Tensor {
      if (!s.defined()) return {};
      // A copy when training, written back below, so that the update reaches
      // the caller's buffer whatever its layout.
      return training ? p.value.reshape({-1}).clone() : front_or_expand(s, level, b).reshape({-1});
    };
    Tensor m = flat(running_mean, pm), v = flat(running_var, pv);
    Tensor r = norm(x, Tensor(), Tensor(), m, v);
    if (training) {
      autograd::BelowAutogradGuard no_grad;
      if (m.defined()) Tensor(pm.value).copy_(m.view(pm.value.sizes()));
      if (v.defined()) Tensor(pv.value).copy_(v.view(pv.value.sizes()));
    }
    y = wrap(r.unflatten(1, {b, c}).movedim(1, 0), level);
    affine_done = false;
  }
  if (!affine_done || !affine_inside) {
    const DimVector cs = channel_view(input.dim(), 1, c);
    if (weight.defined()) y = y * weight.view(cs);
    if (bias.defined()) y = y + bias.view(cs);
  }
  return y;
}

Tensor layer_norm_batched(const Tensor& input, IntArrayRef normalized_shape, const Tensor& weight, const Tensor& bias,
                          double eps) {
  const char* op = "layer_norm";
  EMBER_CHECK(input.defined(), op, ": expected a defined input");
  const int64_t k = static_cast<int64_t>(normalized_shape.size());
  EMBER_CHECK(k >= 1 && input.dim() >= k && input.sizes().slice(input.dim() - k) == normalized_shape, op,
              ": Given normalized_shape=", shape_str(normalized_shape), ", expected input with shape [*, ",
              shape_str(normalized_shape), "], but got input of size", shape_str(input.sizes()));
  for (const Tensor* t : {&weight, &bias})
    if (t->defined())
      EMBER_CHECK(t->sizes() == normalized_shape, op,
                  ": Expected weight and bias to be of same shape as normalized_shape, but got one of shape ",
                  shape_str(t->sizes()), " and normalized_shape = ", shape_str(normalized_shape));
  const int64_t level = top_level({&input, &weight, &bias});
  const Peeled pi = peel_front(input, level), pw = peel_front(weight, level), pb = peel_front(bias, level);
  const bool affine_inside = !pw.batched && !pb.batched;
  auto o = [&](const Tensor& t) { return affine_inside && t.defined() ? std::optional<Tensor>(t) : std::nullopt; };
  // Normalized dims are trailing, so the physical tensor's batch is one more leading dim.
  Tensor y = pi.batched ? wrap(layer_norm(pi.value, normalized_shape, o(weight), o(bias), eps), level)
                        : layer_norm(input, normalized_shape, o(weight), o(bias), eps);
  if (!affine_inside) {
    if (weight.defined()) y = y * weight;
    if (bias.defined()) y = y + bias;
  }
  return y;
}

Tensor binary_cross_entropy_batched(const Tensor& self, const Tensor& target, const Tensor& weight, int64_t reduction) {
  const char* op = "binary_cross_entropy";
  EMBER_CHECK(self.defined() && target.defined(), op, ": expected defined input and target");
  EMBER_CHECK(self.sizes() == target.sizes(), op, ": target size ", shape_str(target.sizes()),
              " must match input size ", shape_str(self.sizes()));
  const int64_t level = top_level({&self, &target, &weight});
  const int64_t b = batch_size({&self, &target, &weight}, level);
  const Tensor x = front_or_expand(self, level, b), t = front_or_expand(target, level, b);
  Tensor w = weight;
  if (const Peeled pw = peel_front(weight, level); pw.batched) {
    // [B, w...] -> [B, 1, .., w...]: the batch lined up under x's, then expanded to it.
    EMBER_CHECK(weight.dim() <= self.dim(), op, ": weight of size ", shape_str(weight.sizes()),
                " does not broadcast to input of size ", shape_str(self.sizes()));
    DimVector shape{b};
    shape.resize(1 + self.dim() - weight.dim(), 1);
    for (int64_t s : weight.sizes()) shape.push_back(s);
    w = pw.value.reshape(shape).expand(x.sizes());
  }
  const Tensor loss =
      wrap(binary_cross_entropy(x, t, w.defined() ? std::optional<Tensor>(w) : std::nullopt, Reduction::None), level);
  return ops::apply_loss_reduction(loss, reduction, op);
}

namespace {
// The margin losses' rows: self [C] or [N, C] per sample -> [B*n, C].
struct MarginRows {
  Tensor x, t;
  int64_t level, b, n;
};
MarginRows margin_rows(const char* op, const Tensor& self, const Tensor& target, bool target_like_self) {
  EMBER_CHECK(self.defined() && target.defined(), op, ": expected defined input and target");
  EMBER_CHECK(
      self.dim() == 1 || self.dim() == 2, op,
      ": expected non-empty vector or matrix with optional 0-dim batch size, but got: ", shape_str(self.sizes()));
  MarginRows r;
  r.level = top_level({&self, &target});
  r.b = batch_size({&self, &target}, r.level);
  r.n = self.dim() == 2 ? self.size(0) : 1;
  const int64_t c = self.size(-1);
  if (target_like_self)
    EMBER_CHECK(target.sizes() == self.sizes(), op, ": inconsistent target size: ", shape_str(target.sizes()),
                " for input of size: ", shape_str(self.sizes()));
  else
    EMBER_CHECK(target.dim() <= 1 && target.numel() == r.n, op,
                ": inconsistent target size: ", shape_str(target.sizes()),
                " for input of size: ", shape_str(self.sizes()));
  r.x = front_or_expand(self, r.level, r.b).reshape({r.b * r.n, c});
  r.t =
      front_or_expand(target, r.level, r.b).reshape(target_like_self ? DimVector{r.b * r.n, c} : DimVector{r.b * r.n});
  return r;
}
// [B*n] per-row losses -> the logical per-sample result, then reduced.
Tensor margin_result(const MarginRows& r, const Tensor& rows, bool vec, int64_t reduction, const char* op) {
  Tensor l = rows.view({r.b, r.n});
  return ops::apply_loss_reduction(wrap(vec ? l.squeeze(1) : l, r.level), reduction, op);
}
}  // namespace

Tensor multi_margin_loss_batched(const Tensor& self, const Tensor& target, const Scalar& p, const Scalar& margin,
                                 const Tensor& weight, int64_t reduction) {
  const char* op = "multi_margin_loss";
  if (top_level({&weight}) >= top_level({&self, &target})) {
    // A per-sample class weight: the kernel takes one weight per call.
    return per_sample_loop({&self, &target, &weight}, op, [&](const std::vector<Tensor>& a) {
      return std::vector<Tensor>{multi_margin_loss(a[0], a[1], p, margin, a[2], reduction)};
    })[0];
  }
  const MarginRows r = margin_rows(op, self, target, false);
  const Tensor rows = multi_margin_loss(
      r.x, r.t, p, margin, weight.defined() ? std::optional<Tensor>(weight) : std::nullopt, Reduction::None);
  return margin_result(r, rows, self.dim() == 1, reduction, op);
}

Tensor multilabel_margin_loss_batched(const Tensor& self, const Tensor& target, int64_t reduction) {
  const char* op = "multilabel_margin_loss";
  const MarginRows r = margin_rows(op, self, target, true);
  return margin_result(r, multilabel_margin_loss(r.x, r.t, Reduction::None), self.dim() == 1, reduction, op);
}

Tensor ctc_loss_batched(const Tensor& log_probs, const Tensor& targets, IntArrayRef input_lengths,
                        IntArrayRef target_lengths, int64_t blank, int64_t reduction, bool zero_infinity) {
  const char* op = "ctc_loss";
  EMBER_CHECK(log_probs.defined() && targets.defined(), op, ": expected defined log_probs and targets");
  EMBER_CHECK(log_probs.dim() == 3 || log_probs.dim() == 2, op, ": log_probs must be [T, N, C] or [T, C], got ",
              shape_str(log_probs.sizes()));
  EMBER_CHECK(reduction >= Reduction::None && reduction < Reduction::END, op,
              ": reduction must be 0 (None), 1 (Mean) or 2 (Sum), got ", reduction);
  const bool unbatched = log_probs.dim() == 2;
  EMBER_CHECK(targets.dim() == 1 || (!unbatched && targets.dim() == 2), op, ": targets must be ",
              unbatched ? "1-D for [T, C] log_probs" : "[N, S] or 1-D (concatenated)", ", got ",
              shape_str(targets.sizes()));
  const int64_t level = top_level({&log_probs, &targets});
  const int64_t b = batch_size({&log_probs, &targets}, level);
  Tensor lp = front_or_expand(log_probs, level, b);  // [B, T, N, C] or [B, T, C]
  if (unbatched) lp = lp.unsqueeze(2);
  const int64_t n = lp.size(2);
  lp = lp.movedim(0, 1).flatten(1, 2);  // [T, B*N, C]
  Tensor tg = front_or_expand(targets, level, b);
  // Padded targets [B, N, S] -> [B*N, S]; concatenated ones [B, K] -> [B*K], sample by sample.
  tg = targets.dim() == 2 ? tg.flatten(0, 1) : tg.flatten();
  std::vector<int64_t> il, tl;
  for (int64_t k = 0; k < b; ++k) {
    il.insert(il.end(), input_lengths.begin(), input_lengths.end());
    tl.insert(tl.end(), target_lengths.begin(), target_lengths.end());
  }
  Tensor per_seq = ctc_loss(lp, tg, il, tl, blank, Reduction::None, zero_infinity).view({b, n});
  if (reduction == Reduction::Mean) {
    // PyTorch's mean: each sequence's loss over its target length, then the mean over N.
    const Tensor lens = tensor(std::vector<int64_t>(target_lengths.begin(), target_lengths.end()))
                            .clamp_min(1)
                            .to(per_seq.scalar_type());
    EMBER_CHECK(lens.numel() == n, op, ": expected ", n, " target lengths, got ", lens.numel());
    return wrap((per_seq / lens).mean({1}), level);
  }
  if (reduction == Reduction::Sum) return wrap(per_seq.sum({1}), level);
  return wrap(unbatched ? per_seq.squeeze(1) : per_seq, level);
}

namespace {
// k * rows for sample k, shaped [B, 1, .., 1] to add to indices [B, ...].
Tensor sample_offsets(int64_t b, int64_t rows, int64_t rank, ScalarType dt) {
  DimVector shape{b};
  shape.resize(1 + rank, 1);
  return (arange(b, TensorOptions(kLong)) * rows).view(shape).to(dt);
}
}  // namespace

Tensor embedding_batched(const Tensor& weight, const Tensor& indices, int64_t padding_idx, bool scale_grad_by_freq) {
  const char* op = "embedding";
  EMBER_CHECK(weight.defined() && weight.dim() == 2, op, ": 'weight' must be 2-D, got ",
              weight.defined() ? shape_str(weight.sizes()) : std::string("an undefined tensor"));
  EMBER_CHECK(indices.defined() && (indices.dtype() == kLong || indices.dtype() == kInt), op,
              ": Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int");
  const int64_t level = top_level({&weight, &indices});
  const int64_t b = batch_size({&weight, &indices}, level);
  const Peeled pw = peel_front(weight, level);
  const Tensor idx = front_or_expand(indices, level, b);  // [B, ...]
  const int64_t v = weight.size(0), d = weight.size(1);
  Tensor out;
  if (!pw.batched) {
    if (!scale_grad_by_freq) return wrap(embedding(weight, idx, padding_idx, false), level);
    // The kernel would count frequencies over every sample's indices at once;
    // scale each position's gradient by its count within its own sample.
    out = embedding(weight, idx, padding_idx, false);
    const Tensor flat = idx.reshape({b, -1}).to(kLong);
    const Tensor counts = zeros({b, v}, TensorOptions(kLong)).scatter_add_(1, flat, ones_like(flat));
    DimVector shape(idx.sizes());
    shape.push_back(1);
    const Tensor scale = (1.0 / counts.gather(1, flat).to(out.scalar_type())).view(shape);
    const Tensor kept = out.detach();
    return wrap(kept + (out - kept) * scale, level);
  }
  // Sample k reads rows k*V .. k*V+V-1 of the flattened weight.
  const Tensor offs = idx + sample_offsets(b, v, indices.dim(), idx.scalar_type());
  out = embedding(pw.value.reshape({b * v, d}), offs, -1, scale_grad_by_freq);
  if (padding_idx >= 0) {  // (the op's "none" is any negative value)
    const Tensor mask = (idx == padding_idx).unsqueeze(-1);
    out = where(mask, out.detach(), out);  // the padding row gets no gradient
  }
  return wrap(std::move(out), level);
}

Tensor embedding_dense_backward_batched(const Tensor& grad_output, const Tensor& indices, int64_t num_weights,
                                        int64_t padding_idx, bool scale_grad_by_freq) {
  const char* op = "embedding_dense_backward";
  EMBER_CHECK(indices.defined() && (indices.dtype() == kLong || indices.dtype() == kInt), op,
              ": Expected tensor for argument #1 'indices' to have one of the following scalar types: Long, Int");
  const int64_t level = top_level({&grad_output, &indices});
  const int64_t b = batch_size({&grad_output, &indices}, level);
  const Tensor idx = front_or_expand(indices, level, b);
  Tensor g = front_or_expand(grad_output, level, b);
  const int64_t n = indices.numel();
  const int64_t d = n == 0 ? grad_output.size(-1) : grad_output.numel() / n;
  EMBER_CHECK(grad_output.numel() == n * d, op, ": grad of shape ", shape_str(grad_output.sizes()),
              " does not match indices of shape ", shape_str(indices.sizes()));
  g = g.reshape({b, n, d});
  const Tensor flat = idx.reshape({b, n});
  if (padding_idx >= 0) g = where((flat == padding_idx).unsqueeze(-1), zeros({}, g.options()), g);
  const Tensor offs = flat + sample_offsets(b, num_weights, 1, flat.scalar_type());
  const Tensor r =
      embedding_dense_backward(g.reshape({b * n, d}), offs.reshape({b * n}), b * num_weights, -1, scale_grad_by_freq);
  return wrap(r.view({b, num_weights, d}), level);
}

std::vector<Tensor> per_sample_loop(std::initializer_list<const Tensor*> inputs, const char* op,
                                    const PerSampleFn& fn) {
  const int64_t level = top_level(inputs);
  const int64_t b = batch_size(inputs, level);
  EMBER_CHECK(b > 0, op, ": vmap over an empty batch is not supported for this op");
  std::vector<Peeled> peeled;
  for (const Tensor* t : inputs) peeled.push_back(t != nullptr ? peel_front(*t, level) : Peeled{});
  std::vector<std::vector<Tensor>> outs;
  for (int64_t k = 0; k < b; ++k) {
    std::vector<Tensor> args;
    for (const Peeled& p : peeled) args.push_back(p.batched ? p.value.select(0, k) : p.value);
    std::vector<Tensor> r = fn(args);
    outs.resize(r.size());
    for (size_t j = 0; j < r.size(); ++j) outs[j].push_back(std::move(r[j]));
  }
  std::vector<Tensor> result;
  for (size_t j = 0; j < outs.size(); ++j) {
    for (size_t k = 1; k < outs[j].size(); ++k)
      EMBER_CHECK(outs[j][k].sizes() == outs[j][0].sizes(), op, ": vmap: output ", j, " of sample ", k, " has size ",
                  shape_str(outs[j][k].sizes()), " but sample 0's has size ", shape_str(outs[j][0].sizes()),
                  "; per-sample results must have one shape to be stacked");
    result.push_back(wrap(stack(outs[j], 0), level));
  }
  return result;
}

}  // namespace torch::batching
