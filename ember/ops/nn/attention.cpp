// Note [Fused attention]
// scaled_dot_product_attention(q, k, v) = dropout(softmax(q k^T * scale + mask)) v, the
// math definition of PyTorch 2's op. Run as separate ops (what multi_head_attention_forward
// did before), every (L x S) score matrix of the batch is written and read back by each
// step — the product, the softmax, the dropout, the second product — and W10's are 4 MiB
// together, beyond the 1 MiB L2: with the scaling of q and the merge of the heads the ops
// took ~3.0 ms of the layer's forward and their backwards ~5.3 ms (one thread, cold caches);
// fused, 2.3 and 3.7 ms. Here each matrix is finished while it is in cache
// (kernels/cpu/attention_kernels.cpp): one GEMM for the scores (the scale as its alpha), the
// mask, the softmax rows and dropout over that tile, one GEMM into the output; matrices are
// spread over the threads. The node, ScaledDotProductAttentionBackward0, saves softmax's
// result and the keep bits (one byte each) where the op chain saved the softmax result,
// the dropped weights and the mask; its backward redoes the dropped tile from them.
// Values: dropout keeps the same elements as dropout(softmax(...)) after the same seed
// (the draws are numbered as that tensor's elements, kernels/cpu/dropout_draws.h); the scale is
// applied by the GEMM, one rounding instead of two (identical for a power-of-two scale).
// Layout: the output's batch and row dims follow the query's stride order, so for
// multi-head attention's heads (views of the projection's [T, N, E] output) the merge of
// the heads is a view, not a copy; and when q, k and v are equally spaced pieces of one
// tensor (the packed in-projection's q|k|v), their gradients are written into one buffer
// laid out as that tensor, which the unbind's backward passes on without copying (Note
// [Multi-output views]). With a graph to build (create_graph, forward-mode AD), batched
// operands, a mask that requires grad or other dtypes, the op and its backward are the
// composite of differentiable ops.
#include "ember/ops/nn/attention.h"

#include <algorithm>
#include <array>
#include <climits>
#include <cmath>
#include <limits>
#include <numeric>

#include "ember/autograd/derivatives/nn_attention_grad.h"
#include "ember/autograd/formula_node.h"
#include "ember/core/dispatch.h"
#include "ember/core/record_scope.h"
#include "ember/core/shape.h"
#include "ember/kernels/cpu/attention_kernels.h"
#include "ember/kernels/cpu/dropout_draws.h"
#include "ember/kernels/cpu/gemm.h"
#include "ember/ops/elementwise/binary.h"
#include "ember/ops/elementwise/operators.h"
#include "ember/ops/elementwise/unary.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/index/indexing.h"
#include "ember/ops/matmul/matmul.h"
#include "ember/ops/nn/dropout.h"
#include "ember/ops/nn/softmax.h"
#include "ember/ops/shape/mem_overlap.h"
#include "ember/ops/shape/shape_ops.h"
#include "ember/vmap/batched_tensor.h"
#include "ember/vmap/rules_random.h"

namespace torch {
namespace {

constexpr const char* kOp = "scaled_dot_product_attention";
constexpr double kInf = std::numeric_limits<double>::infinity();

DimVector batch_of(const Tensor& t) { return DimVector(t.sizes().slice(0, static_cast<size_t>(t.dim() - 2))); }

DimVector with_matrix(IntArrayRef batch, int64_t rows, int64_t cols) {
  DimVector s(batch);
  s.push_back(rows);
  s.push_back(cols);
  return s;
}

}  // namespace

namespace detail {

Tensor additive_mask(const Tensor& mask, bool causal, int64_t L, int64_t S, const TensorOptions& opts) {
  if (causal) return masked_fill(zeros({L, S}, opts), logical_not(tril(ones({L, S}, opts.dtype(kBool)))), -kInf);
  if (!mask.defined() || mask.scalar_type() != kBool) return mask;
  return masked_fill(zeros(mask.sizes(), opts), logical_not(mask), -kInf);
}

Tensor attention_weights(const Tensor& q, const Tensor& k, const Tensor& mask, double scale) {
  Tensor s = matmul(q, k.transpose(-2, -1)) * scale;
  if (mask.defined()) s = s + mask;
  return softmax(s, -1);
}

}  // namespace detail

namespace {

using detail::additive_mask;
using detail::attention_weights;

// The math definition with differentiable ops.
Tensor attention_composite(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& mask, double p,
                           double scale) {
  Tensor w = attention_weights(q, k, mask, scale);
  if (p > 0) w = dropout(w, p, true);
  return matmul(w, v);
}

// t expanded to batch + its matrix dims (no copy), as the GEMMs take it: unit column
// stride and rows at least a row apart; anything else is copied.
Tensor as_matrices(const Tensor& t, IntArrayRef batch) {
  Tensor e = t.expand(with_matrix(batch, t.size(-2), t.size(-1)));
  const int64_t rows = e.size(-2), cols = e.size(-1);
  const bool unit = e.stride(-1) == 1 || cols == 1;
  const bool spaced = rows == 1 || e.stride(-2) >= cols;
  return unit && spaced ? e : e.contiguous();
}

// The matrices of t (batch dims then two matrix dims): element offsets from data_ptr.
template <typename T>
kernels::MatrixBatch<T> matrices(const Tensor& t) {
  kernels::MatrixBatch<T> m;
  m.data = static_cast<T*>(t.data_ptr());
  m.offsets = kernels::batch_offsets(t, t.sizes().slice(0, static_cast<size_t>(t.dim() - 2)));
  for (int64_t& o : m.offsets) o -= t.storage_offset();
  m.ld = t.size(-2) == 1 ? std::max<int64_t>(1, t.size(-1)) : t.stride(-2);
  return m;
}

// Empty [batch..., L, Ev] whose batch and row dims are laid out in the order of like's
// strides (largest outermost): for heads viewed out of a [T, N, H * hd] projection, a
// [T, N, H, Ev] layout, so merging the heads back is a view.
Tensor empty_in_order_of(const Tensor& like, IntArrayRef shape, const TensorOptions& opts) {
  const int64_t nd = static_cast<int64_t>(shape.size());
  std::vector<int64_t> order(static_cast<size_t>(nd - 1));
  std::iota(order.begin(), order.end(), int64_t(0));
  std::stable_sort(order.begin(), order.end(), [&](int64_t a, int64_t b) { return like.stride(a) > like.stride(b); });
  DimVector strides(static_cast<size_t>(nd));
  int64_t step = shape.back();
  strides.back() = 1;
  for (int64_t i = nd - 2; i >= 0; --i) {
    const auto d = static_cast<size_t>(order[static_cast<size_t>(i)]);
    strides[d] = step;
    step *= shape[d];
  }
  return empty_strided(shape, strides, opts);
}

template <typename T>
kernels::AttentionProblem<T> problem(const Tensor& q, const Tensor& k, const Tensor& v, double scale) {
  kernels::AttentionProblem<T> p;
  p.q = matrices<const T>(q);
  p.k = matrices<const T>(k);
  p.v = matrices<const T>(v);
  p.batch = static_cast<int64_t>(p.q.offsets.size());
  p.L = q.size(-2), p.S = k.size(-2), p.E = q.size(-1), p.Ev = v.size(-1);
  p.scale = static_cast<T>(scale);
  return p;
}

// The gradients' buffers (undefined where not needed). When q, k and v are equally
// spaced pieces of one dense tensor (same sizes and strides, k d elements after q and v d
// after k), one buffer laid out as that tensor holds all three (Note [Fused attention]);
// otherwise each is contiguous in the broadcast shape.
std::array<Tensor, 3> gradient_buffers(std::array<bool, 3> needed, const Tensor& q, const Tensor& k, const Tensor& v,
                                       IntArrayRef batch) {
  const TensorOptions opts = q.options().requires_grad(false);
  const int64_t d = k.storage_offset() - q.storage_offset();
  const bool pieces = needed[0] && needed[1] && needed[2] && q.sizes().equals(k.sizes()) &&
                      k.sizes().equals(v.sizes()) && q.sizes().equals(with_matrix(batch, q.size(-2), q.size(-1))) &&
                      q.strides().equals(k.strides()) && k.strides().equals(v.strides()) &&
                      q.impl()->storage() == k.impl()->storage() && k.impl()->storage() == v.impl()->storage() &&
                      d > 0 && v.storage_offset() - k.storage_offset() == d;
  if (pieces) {
    DimVector sizes{3}, strides{d};
    for (int64_t i = 0; i < q.dim(); ++i) {
      sizes.push_back(q.size(i));
      strides.push_back(q.stride(i));
    }
    if (ops::is_non_overlapping_and_dense(sizes, strides)) {
      Tensor whole = empty_strided(sizes, strides, opts);
      return {whole.select(0, 0), whole.select(0, 1), whole.select(0, 2)};
    }
  }
  auto one = [&](size_t i, const Tensor& t) {
    return needed[i] ? empty(with_matrix(batch, t.size(-2), t.size(-1)), opts) : Tensor();
  };
  return {one(0, q), one(1, k), one(2, v)};
}

void check_inputs(const Tensor& q, const Tensor& k, const Tensor& v, const Tensor& mask, double p, bool causal) {
  EMBER_CHECK(q.defined() && k.defined() && v.defined(), kOp, ": expected defined query, key and value");
  EMBER_CHECK(q.dim() >= 2 && k.dim() >= 2 && v.dim() >= 2, kOp,
              ": expected query, key and value of at least 2 dims, got ", shape_str(q.sizes()), ", ",
              shape_str(k.sizes()), " and ", shape_str(v.sizes()));
  EMBER_CHECK(q.is_floating_point() && k.scalar_type() == q.scalar_type() && v.scalar_type() == q.scalar_type(), kOp,
              ": expected query, key and value of one floating dtype, got ", q.dtype(), ", ", k.dtype(), " and ",
              v.dtype());
  EMBER_CHECK(q.size(-1) == k.size(-1) && k.size(-2) == v.size(-2), kOp,
              ": query [..., L, E], key [..., S, E] and value [..., S, Ev] do not fit: got ", shape_str(q.sizes()),
              ", ", shape_str(k.sizes()), " and ", shape_str(v.sizes()));
  EMBER_CHECK(p >= 0 && p <= 1, kOp, ": dropout probability has to be between 0 and 1, but got ", p);
  EMBER_CHECK(!(causal && mask.defined()), kOp, ": an explicit attn_mask should not be set when is_causal=true");
  EMBER_CHECK(!mask.defined() || mask.scalar_type() == kBool || mask.scalar_type() == q.scalar_type(), kOp,
              ": expected a bool attn_mask or one of query's dtype ", q.dtype(), ", got ", mask.dtype());
}

}  // namespace

std::array<Tensor, 3> scaled_dot_product_attention_backward(const Tensor& grad_out, const Tensor& q, const Tensor& k,
                                                            const Tensor& v, const Tensor& probs, const Tensor& kept,
                                                            double scale, double keep, std::array<bool, 3> needed) {
  const DimVector batch = batch_of(probs);
  const Tensor qm = as_matrices(q, batch), km = as_matrices(k, batch), vm = as_matrices(v, batch);
  const Tensor go = as_matrices(grad_out, batch);
  // Named elements, not a structured binding: the lambda below uses them, which clang 14
  // does not allow for bindings.
  const std::array<Tensor, 3> grads = gradient_buffers(needed, q, k, v, batch);
  const Tensor &dq = grads[0], &dk = grads[1], &dv = grads[2];
  dispatch_floating(q.dtype(), "scaled_dot_product_attention_backward", [&](auto tag) {
    using T = EMBER_TYPE(tag);
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      kernels::AttentionProblem<T> p = problem<T>(qm, km, vm, scale);
      p.drop = keep > 0;
      p.keep = static_cast<T>(keep);
      auto out = [](const Tensor& t) { return t.defined() ? matrices<T>(t) : kernels::MatrixBatch<T>(); };
      kernels::attention_backward<T>(p, probs.data_ptr<T>(), p.drop ? kept.data_ptr<bool>() : nullptr,
                                     matrices<const T>(go), out(dq), out(dk), out(dv));
    }
  });
  return grads;
}

Tensor scaled_dot_product_attention(const Tensor& query, const Tensor& key, const Tensor& value,
                                    const Tensor& attn_mask, double dropout_p, bool is_causal,
                                    std::optional<double> scale_opt) {
  EMBER_RECORD_COMPOSITE_OP(kOp, query, key, value);
  check_inputs(query, key, value, attn_mask, dropout_p, is_causal);
  const int64_t L = query.size(-2), S = key.size(-2), E = query.size(-1), Ev = value.size(-1);
  const DimVector batch = broadcast_shapes(broadcast_shapes(batch_of(query), batch_of(key), kOp), batch_of(value), kOp);
  const DimVector score_shape = with_matrix(batch, L, S);
  if (attn_mask.defined())
    EMBER_CHECK(IntArrayRef(broadcast_shapes(attn_mask.sizes(), score_shape, kOp)).equals(score_shape), kOp,
                ": attn_mask of shape ", shape_str(attn_mask.sizes()), " does not broadcast to the scores' shape ",
                shape_str(score_shape));
  const double scale = scale_opt ? *scale_opt : 1.0 / std::sqrt(static_cast<double>(E));
  const Tensor mask = additive_mask(attn_mask, false, L, S, query.options().requires_grad(false));

  int64_t count = 1;
  for (int64_t s : batch) count *= s;
  // OpenBLAS (float64) takes 32-bit sizes and leading dimensions; oneDNN 64-bit ones.
  auto max_stride = [](const Tensor& t) {
    int64_t m = 0;
    for (int64_t s : t.strides()) m = std::max(m, s);
    return m;
  };
  const bool fits = std::max({L, S, E, Ev}) <= INT32_MAX && count > 0 && std::min({L, S, E, Ev}) > 0 &&
                    (query.scalar_type() == kFloat || std::max({max_stride(query), max_stride(key), max_stride(value),
                                                                count * L * std::max(E, Ev)}) <= INT32_MAX);
  const bool fused = (query.scalar_type() == kFloat || query.scalar_type() == kDouble) && fits && dropout_p < 1 &&
                     !batching::any_batched(query, key, value, attn_mask) &&
                     !(dropout_p > 0 && batching::random_in_vmap()) &&
                     !(attn_mask.defined() && autograd::needs_grad(attn_mask));
  if (!fused)
    return attention_composite(query, key, value,
                               is_causal ? additive_mask({}, true, L, S, query.options().requires_grad(false)) : mask,
                               dropout_p, scale);

  const bool grad = autograd::needs_grad(query, key, value);
  const bool drop = dropout_p > 0;
  const Tensor qm = as_matrices(query, batch), km = as_matrices(key, batch), vm = as_matrices(value, batch);
  const TensorOptions opts = query.options().requires_grad(false);
  Tensor out = empty_in_order_of(qm, with_matrix(batch, L, Ev), opts);
  const Tensor probs = grad ? empty(score_shape, opts) : Tensor();
  const Tensor kept = grad && drop ? empty(score_shape, opts.dtype(kBool)) : Tensor();
  const Tensor mm = mask.defined() ? mask.expand(score_shape) : Tensor();
  const double keep = drop ? 1.0 / (1.0 - dropout_p) : 0.0;
  dispatch_floating(query.dtype(), kOp, [&](auto tag) {
    using T = EMBER_TYPE(tag);
    if constexpr (std::is_same_v<T, float> || std::is_same_v<T, double>) {
      kernels::AttentionProblem<T> p = problem<T>(qm, km, vm, scale);
      if (mm.defined()) {
        p.mask = matrices<const T>(mm);
        p.mask.ld = mm.stride(-2);
        p.mask_col_stride = mm.stride(-1);
      }
      p.causal = is_causal;
      p.drop = drop;
      if (drop) {
        p.draws = detail::next_dropout_draws(dropout_p);
        p.keep = static_cast<T>(keep);
      }
      kernels::attention_forward<T>(p, matrices<T>(out), grad ? probs.data_ptr<T>() : nullptr,
                                    kept.defined() ? kept.data_ptr<bool>() : nullptr);
    }
  });
  if (grad)
    autograd::record_scaled_dot_product_attention(query, key, value, out, probs, kept, mask, scale, keep, is_causal);
  return out;
}

}  // namespace torch
