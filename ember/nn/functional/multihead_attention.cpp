// Multi-head attention, following PyTorch 1.13's F.multi_head_attention_forward
// step by step (same checks, mask rules and parameter layout).
// Note [Attention layout]
// PyTorch copies q, k and v into contiguous (N*H, T, hd) batches before its
// bmm calls. Here the projections stay where the GEMM wrote them ((T, N, E) or,
// for batch_first, (N, T, E), possibly as a slice of the packed q|k|v output)
// and are only *viewed* as (N, H, T, hd); the batched GEMM takes any strides
// (Note [GEMM operand layouts]), so the scores, softmax and the product with v
// run without copying the projections. With the weights asked for, the one copy left is merging the heads
// back into rows for the output projection. For self-attention the three
// heads are one unbind of the packed output, so backward builds their
// gradients in one buffer (Note [Multi-output views]). Without need_weights the heads
// go through scaled_dot_product_attention (Note [Fused attention]), which also writes
// the heads' outputs so that their merge is a view. The result equals PyTorch's up to
// rounding: the 1/sqrt(head_dim) scaling is a multiplication of q, or the GEMM's alpha.
#include "ember/nn/functional/multihead_attention.h"

#include <cmath>
#include <limits>

#include "ember/ops/elementwise/binary.h"
#include "ember/ops/elementwise/operators.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/index/indexing.h"
#include "ember/ops/matmul/matmul.h"
#include "ember/ops/nn/attention.h"
#include "ember/ops/nn/dropout.h"
#include "ember/ops/nn/linear.h"
#include "ember/ops/nn/softmax.h"
#include "ember/ops/shape/shape_ops.h"
#include "ember/ops/shape/view.h"

namespace torch::nn::functional {

namespace {

constexpr const char* kOp = "multi_head_attention_forward";

// x [..., in] @ w^T + b; ember::linear folds contiguous leading dims into one addmm.
Tensor project(const Tensor& x, const Tensor& w, const Tensor& b) { return ember::linear(x, w, b); }

// Rows [start, start + len) of a packed weight or bias (undefined stays undefined).
Tensor rows(const Tensor& t, int64_t start, int64_t len) { return t.defined() ? t.narrow(0, start, len) : t; }

// A mask with one more key position that is not masked (false / 0), as PyTorch's pad(mask, (0, 1)).
Tensor append_key(const Tensor& mask) {
  if (!mask.defined()) return mask;
  DimVector shape(mask.sizes());
  shape.back() = 1;
  return cat({mask, zeros(shape, mask.options())}, -1);
}

void check_shapes(const Tensor& query, const Tensor& key, const Tensor& value, const Tensor& kpm,
                  const Tensor& attn_mask, int64_t num_heads) {
  if (query.dim() == 3) {
    EMBER_CHECK(key.dim() == 3 && value.dim() == 3, kOp,
                ": for batched (3-D) query, expected key and value to be 3-D but found ", key.dim(), "-D and ",
                value.dim(), "-D tensors respectively");
    EMBER_CHECK(!kpm.defined() || kpm.dim() == 2, kOp,
                ": for batched (3-D) query, expected key_padding_mask to be undefined or 2-D but found ", kpm.dim(),
                "-D tensor instead");
    EMBER_CHECK(!attn_mask.defined() || attn_mask.dim() == 2 || attn_mask.dim() == 3, kOp,
                ": for batched (3-D) query, expected attn_mask to be undefined, 2-D or 3-D but found ", attn_mask.dim(),
                "-D tensor instead");
  } else {
    EMBER_CHECK(query.dim() == 2, kOp, ": query should be unbatched 2D or batched 3D tensor but received ", query.dim(),
                "-D query tensor");
    EMBER_CHECK(key.dim() == 2 && value.dim() == 2, kOp,
                ": for unbatched (2-D) query, expected key and value to be 2-D but found ", key.dim(), "-D and ",
                value.dim(), "-D tensors respectively");
    EMBER_CHECK(!kpm.defined() || kpm.dim() == 1, kOp,
                ": for unbatched (2-D) query, expected key_padding_mask to be undefined or 1-D but found ", kpm.dim(),
                "-D tensor instead");
    if (attn_mask.defined()) {
      EMBER_CHECK(attn_mask.dim() == 2 || attn_mask.dim() == 3, kOp,
                  ": for unbatched (2-D) query, expected attn_mask to be undefined, 2-D or 3-D but found ",
                  attn_mask.dim(), "-D tensor instead");
      if (attn_mask.dim() == 3)
        EMBER_CHECK(
            attn_mask.size(0) == num_heads && attn_mask.size(1) == query.size(0) && attn_mask.size(2) == key.size(0),
            kOp, ": expected attn_mask shape to be [", num_heads, ", ", query.size(0), ", ", key.size(0), "] but got ",
            shape_str(attn_mask.sizes()));
    }
  }
}

// attn_mask as (1 or N, 1 or H, L, S) in bool or float; byte masks become bool (PyTorch warns).
Tensor shape_attn_mask(Tensor mask, int64_t N, int64_t H, int64_t L, int64_t S) {
  if (!mask.defined()) return mask;
  if (mask.scalar_type() == kByte) mask = mask.to(kBool);
  EMBER_CHECK(mask.is_floating_point() || mask.scalar_type() == kBool, kOp,
              ": only float, byte, and bool types are supported for attn_mask, not ", mask.scalar_type());
  if (mask.dim() == 2) {
    EMBER_CHECK(mask.size(0) == L && mask.size(1) == S, kOp, ": the shape of the 2D attn_mask is ",
                shape_str(mask.sizes()), ", but should be [", L, ", ", S, "]");
    return mask.view({1, 1, L, S});
  }
  EMBER_CHECK(mask.dim() == 3, kOp, ": attn_mask's dimension ", mask.dim(), " is not supported");
  EMBER_CHECK(mask.size(0) == N * H && mask.size(1) == L && mask.size(2) == S, kOp,
              ": the shape of the 3D attn_mask is ", shape_str(mask.sizes()), ", but should be [", N * H, ", ", L, ", ",
              S, "]");
  return mask.reshape({N, H, L, S});
}

// PyTorch's merge of key_padding_mask into attn_mask, then bool -> additive float (-inf where true).
Tensor merge_masks(Tensor mask, const Tensor& kpm, int64_t N, int64_t S, ScalarType dtype) {
  if (kpm.defined()) {
    EMBER_CHECK(kpm.size(0) == N && kpm.size(1) == S, kOp, ": expecting key_padding_mask shape of [", N, ", ", S,
                "], but got ", shape_str(kpm.sizes()));
    Tensor kpm4 = kpm.view({N, 1, 1, S});
    if (!mask.defined()) {
      mask = kpm4;
    } else if (mask.scalar_type() == kBool) {
      mask = logical_or(mask, kpm4);
    } else {
      EMBER_CHECK(kpm.scalar_type() == kBool, kOp,
                  ": a float key_padding_mask cannot be combined with a float attn_mask (PyTorch masks the "
                  "attn_mask with it, which needs a bool mask)");
      mask = masked_fill(mask, kpm4, -std::numeric_limits<double>::infinity());
    }
  }
  if (mask.defined() && mask.scalar_type() == kBool) {
    Tensor additive = zeros(mask.sizes(), TensorOptions(dtype));
    masked_fill_(additive, mask, -std::numeric_limits<double>::infinity());
    mask = additive;
  }
  return mask;
}

}  // namespace

std::tuple<Tensor, Tensor> multi_head_attention_forward(const Tensor& query, const Tensor& key, const Tensor& value,
                                                        const MultiheadAttentionForwardFuncOptions& o) {
  const int64_t H = o.num_heads();
  Tensor kpm = o.key_padding_mask();
  check_shapes(query, key, value, kpm, o.attn_mask(), H);
  const bool batched = query.dim() == 3;
  // Unbatched inputs get a batch dim of 1 (sequence-first), as PyTorch does.
  const bool bf = batched && o.batch_first();
  const int64_t seq_dim = bf ? 1 : 0;
  Tensor q = batched ? query : query.unsqueeze(1);
  Tensor k = batched ? key : key.unsqueeze(1);
  Tensor v = batched ? value : value.unsqueeze(1);
  if (kpm.defined() && !batched) kpm = kpm.unsqueeze(0);

  const int64_t L = q.size(seq_dim), N = q.size(1 - seq_dim), E = q.size(2);
  EMBER_CHECK(!kpm.defined() || kpm.scalar_type() == kBool || kpm.is_floating_point(), kOp,
              ": only bool and floating types of key_padding_mask are supported, got ", kpm.scalar_type());
  EMBER_CHECK(E == o.embed_dim_to_check(), kOp, ": was expecting embedding dimension of ", o.embed_dim_to_check(),
              ", but got ", E);
  EMBER_CHECK(H > 0 && E % H == 0, kOp, ": embed_dim ", E, " not divisible by num_heads ", H);
  const int64_t hd = E / H;
  if (o.use_separate_proj_weight()) {
    EMBER_CHECK(k.size(0) == v.size(0) && k.size(1) == v.size(1), kOp, ": key's sequence and batch dims [", k.size(0),
                ", ", k.size(1), "] do not match value's [", v.size(0), ", ", v.size(1), "]");
  } else {
    EMBER_CHECK(k.sizes() == v.sizes(), kOp, ": key shape ", shape_str(k.sizes()), " does not match value shape ",
                shape_str(v.sizes()));
  }
  EMBER_CHECK(k.size(1 - seq_dim) == N, kOp, ": query has batch size ", N, " but key has ", k.size(1 - seq_dim));

  // In-projection. The packed weight is [W_q; W_k; W_v]; self-attention (one tensor for
  // q, k and v) runs one GEMM, encoder-decoder attention (k is v) two.
  const Tensor& W = o.in_proj_weight();
  const Tensor& B = o.in_proj_bias();
  Tensor qp, kp, vp;
  // Self-attention without extra or static key/value positions takes its
  // heads straight from the packed projection.
  const bool plain_kv =
      !o.bias_k().defined() && !o.bias_v().defined() && !o.static_k().defined() && !o.static_v().defined();
  std::vector<Tensor> packed_heads;
  if (!o.use_separate_proj_weight()) {
    EMBER_CHECK(W.defined(), kOp, ": use_separate_proj_weight is false but in_proj_weight is undefined");
    EMBER_CHECK(W.dim() == 2 && W.size(0) == 3 * E && W.size(1) == E, kOp, ": in_proj_weight must be [", 3 * E, ", ", E,
                "], got ", shape_str(W.sizes()));
    EMBER_CHECK(k.size(2) == E, kOp, ": key and value must have embed_dim ", E,
                " features without separate projection weights, got ", k.size(2));
    if (query.is_same(key) && key.is_same(value)) {
      Tensor qkv = project(q, W, B);
      if (plain_kv) {
        // The packed output viewed as (3, N, H, T, hd) and unbound: one node
        // writes the three heads' gradients straight into a buffer laid out as
        // the GEMM's output (Note [Multi-output views]).
        const int64_t T = q.size(seq_dim);
        packed_heads = (bf ? qkv.view({N, T, 3, H, hd}).permute({2, 0, 3, 1, 4})
                           : qkv.view({T, N, 3, H, hd}).permute({2, 1, 3, 0, 4}))
                           .unbind(0);
      } else {
        qp = qkv.narrow(-1, 0, E), kp = qkv.narrow(-1, E, E), vp = qkv.narrow(-1, 2 * E, E);
      }
    } else if (key.is_same(value)) {
      qp = project(q, rows(W, 0, E), rows(B, 0, E));
      Tensor kv = project(k, rows(W, E, 2 * E), rows(B, E, 2 * E));
      kp = kv.narrow(-1, 0, E), vp = kv.narrow(-1, E, E);
    } else {
      qp = project(q, rows(W, 0, E), rows(B, 0, E));
      kp = project(k, rows(W, E, E), rows(B, E, E));
      vp = project(v, rows(W, 2 * E, E), rows(B, 2 * E, E));
    }
  } else {
    EMBER_CHECK(o.q_proj_weight().defined() && o.k_proj_weight().defined() && o.v_proj_weight().defined(), kOp,
                ": use_separate_proj_weight is true but q_proj_weight, k_proj_weight or v_proj_weight is undefined");
    qp = project(q, o.q_proj_weight(), rows(B, 0, E));
    kp = project(k, o.k_proj_weight(), rows(B, E, E));
    vp = project(v, o.v_proj_weight(), rows(B, 2 * E, E));
  }

  Tensor attn_mask = shape_attn_mask(o.attn_mask(), N, H, L, k.size(seq_dim));

  // bias_k / bias_v: one more key/value position, shared by the batch.
  if (o.bias_k().defined() || o.bias_v().defined()) {
    EMBER_CHECK(o.bias_k().defined() && o.bias_v().defined(), kOp,
                ": bias_k and bias_v must be given together or not at all");
    EMBER_CHECK(!o.static_k().defined() && !o.static_v().defined(), kOp, ": bias cannot be added to static key/value");
    EMBER_CHECK(o.bias_k().numel() == E && o.bias_v().numel() == E, kOp, ": bias_k and bias_v must hold embed_dim ", E,
                " values, got ", shape_str(o.bias_k().sizes()), " and ", shape_str(o.bias_v().sizes()));
    const DimVector bshape = bf ? DimVector{N, 1, E} : DimVector{1, N, E};
    kp = cat({kp, o.bias_k().reshape({1, 1, E}).expand(bshape)}, seq_dim);
    vp = cat({vp, o.bias_v().reshape({1, 1, E}).expand(bshape)}, seq_dim);
    attn_mask = append_key(attn_mask);
    kpm = append_key(kpm);
  }

  // (T, N, E) or (N, T, E) viewed as (N, H, T, hd): Note [Attention layout].
  auto heads = [&](const Tensor& t) {
    const int64_t T = t.size(seq_dim);
    return bf ? t.view({N, T, H, hd}).permute({0, 2, 1, 3}) : t.view({T, N, H, hd}).permute({1, 2, 0, 3});
  };
  auto static_heads = [&](const Tensor& t, const char* name) {
    EMBER_CHECK(t.dim() == 3 && t.size(0) == N * H && t.size(2) == hd, kOp, ": expecting ", name, " of shape [", N * H,
                ", S, ", hd, "], but got ", shape_str(t.sizes()));
    return t.reshape({N, H, t.size(1), hd});
  };
  const bool packed = !packed_heads.empty();
  const double scale = 1.0 / std::sqrt(static_cast<double>(hd));
  Tensor q4 = packed ? packed_heads[0] : heads(qp);
  Tensor k4 = o.static_k().defined() ? static_heads(o.static_k(), "static_k") : packed ? packed_heads[1] : heads(kp);
  Tensor v4 = o.static_v().defined() ? static_heads(o.static_v(), "static_v") : packed ? packed_heads[2] : heads(vp);
  if (o.add_zero_attn()) {
    k4 = cat({k4, zeros({N, H, 1, hd}, k4.options())}, 2);
    v4 = cat({v4, zeros({N, H, 1, hd}, v4.options())}, 2);
    attn_mask = append_key(attn_mask);
    kpm = append_key(kpm);
  }
  const int64_t S = k4.size(2);
  Tensor mask = merge_masks(attn_mask, kpm, N, S, q4.scalar_type());

  const double p = o.training() ? o.dropout_p() : 0.0;
  Tensor attn, out4;  // (N, H, L, S), (N, H, L, hd)
  if (o.need_weights()) {
    Tensor scores = matmul(q4 * scale, k4.transpose(-2, -1));
    if (mask.defined()) scores = scores + mask;
    attn = softmax(scores, -1);
    if (p > 0.0) attn = dropout(attn, p, true);
    out4 = matmul(attn, v4);
  } else {  // Note [Fused attention]: the same values, without the weights
    out4 = scaled_dot_product_attention(q4, k4, v4, mask, p, false, scale);
  }

  EMBER_CHECK(o.out_proj_weight().defined(), kOp, ": out_proj_weight is undefined");
  Tensor merged = bf ? out4.permute({0, 2, 1, 3}).reshape({N * L, E}) : out4.permute({2, 0, 1, 3}).reshape({L * N, E});
  Tensor out = ember::linear(merged, o.out_proj_weight(), o.out_proj_bias());
  const int64_t Eo = out.size(1);
  out = bf ? out.view({N, L, Eo}) : out.view({L, N, Eo});
  if (!batched) out = out.squeeze(1);

  Tensor weights;
  if (o.need_weights()) {
    weights = o.average_attn_weights() ? attn.sum({1}) / static_cast<double>(H) : attn;
    if (!batched) weights = weights.squeeze(0);
  }
  return {out, weights};
}

}  // namespace torch::nn::functional
