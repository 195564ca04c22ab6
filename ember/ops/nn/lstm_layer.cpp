#include "ember/ops/nn/lstm_layer.h"
#include "ember/autograd/derivatives/nn_rnn_grad.h"

#include <array>
#include <vector>

#include "ember/autograd/formula_node.h"
#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/core/parallel.h"
#include "ember/kernels/cpu/gemm.h"
#include "ember/kernels/cpu/unary_kernels_scalar.h"
#include "ember/kernels/cpu/vec_math.h"
#include "ember/ops/elementwise/operators.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/matmul/matmul.h"
#include "ember/ops/reduce/reduce.h"
#include "ember/vmap/batched_tensor.h"

namespace torch::rnn_detail {

// Note [Fused LSTM layer]
// The composite layer (Note [Recurrent layers] in rnn.cpp) records ~10 nodes per step, and
// its backward pays for that structure: every step's h @ W_hh^T sends W_hh a [4H, H]
// gradient that the engine adds into the running sum (50 steps of W8: 49 adds of 1 MiB,
// a fifth of the whole training step), and the gate gradients are assembled from pieces.
// The fused layer is one op with one node, as cuDNN's and oneDNN's RNN primitives are:
//  * forward: the input projection is one GEMM over all steps into `acts` [T*B, 4H]; each
//    step computes h_{t-1} @ W_hh^T (one GEMM per thread, Note [LSTM forward slabs]) and
//    one pointwise pass adds it and the biases to the step's rows of acts, turns them into
//    the activations i, f, g, o in place and writes c_t and h_t. acts and every c_t are
//    kept for backward.
//  * backward: the time loop runs one pointwise pass per step from the kept activations
//    (writing that step's rows of dG, the pre-activation gate gradients, and carrying dc)
//    and one GEMM for dh_{t-1} = dG_t @ W_hh. Then each parameter's gradient is one GEMM
//    over all steps: dW_ih = dG^T x, dW_hh = dG^T [h_{t-1}]_t, db = sum of dG's rows.
//  * accuracy: float32 tanh uses SLEEF's 3.5-ULP kernel instead of the tanh op's 1-ULP one
//    (three times faster; tanh is most of the pointwise time). Results stay within a few
//    float32 ulps of the composite's; float64 uses the same kernels as the ops.
//  * create_graph: the backward above is not itself differentiable (the kept activations
//    carry no graph), so under grad mode the node recomputes the layer with the composite
//    from its saved inputs and returns the composite's gradients with create_graph
//    (checkpointing's technique), which gives every higher order.
// The composite still serves vmap, forward-mode AD, projections and packed batches of
// unequal lengths; both agree to rounding (tests/nn/rnn_test.cpp compares them).

namespace {

template <typename T>
void apply_unary(kernels::UnaryOpId op, const T* in, T* out, int64_t n) {
  const auto& v = kernels::vec::unary_vec(op);
  if constexpr (std::is_same_v<T, float>) {
    // float32 tanh: the 3.5-ULP kernel (see the Note).
    if (op == kernels::UnaryOpId::tanh) {
      if (const auto fast = kernels::vec::tanh_f32_u35()) return fast(in, out, n);
    }
    if (v.f32) return v.f32(in, out, n);
  } else {
    if (v.f64) return v.f64(in, out, n);
  }
  if (op == kernels::UnaryOpId::sigmoid) {
    for (int64_t i = 0; i < n; ++i) out[i] = kernels::scalar::sigmoid(in[i]);
  } else {
    for (int64_t i = 0; i < n; ++i) out[i] = std::tanh(in[i]);
  }
}

// A row costs five transcendental passes over H (sigmoid over i, f and o, tanh over g and
// c), far more than a copy of 4H elements: split the batch across threads from ~4K gate
// elements per task.
int64_t rows_per_task(int64_t hs) { return std::max<int64_t>(1, 4096 / (4 * hs)); }

// One step for the hidden units [j0, j0 + u) of every row: gates [B, 4H] (the input
// projection in, the activations i f g o out, in place), hw [B, 4u] (this slab's
// h_{t-1} @ W_hh^T, gate-major; null: already added into gates), bias [4H] (null: none), c_prev [B, H] -> c [B, H],
// h [B, H]; scratch [B, H]. Rows are split across threads when the caller is not already
// running one slab per thread.
template <typename T>
void cell_forward(T* gates, const T* hw, const T* bias, const T* c_prev, T* c, T* h, T* scratch, int64_t batch,
                  int64_t hs, int64_t j0, int64_t u) {
  const int64_t grain = rows_per_task(u);
  parallel_for(0, batch, grain, [&](int64_t b0, int64_t b1) {
    for (int64_t b = b0; b < b1; ++b) {
      T* g[4];
      for (int64_t k = 0; k < 4; ++k) {
        g[k] = gates + b * 4 * hs + k * hs + j0;
        if (hw) {
          const T* w = hw + (b * 4 + k) * u;
          for (int64_t j = 0; j < u; ++j) g[k][j] += w[j];
        }
        if (bias) {
          const T* bk = bias + k * hs + j0;
          for (int64_t j = 0; j < u; ++j) g[k][j] += bk[j];
        }
      }
      apply_unary(kernels::UnaryOpId::sigmoid, g[0], g[0], u);
      apply_unary(kernels::UnaryOpId::sigmoid, g[1], g[1], u);
      apply_unary(kernels::UnaryOpId::tanh, g[2], g[2], u);
      apply_unary(kernels::UnaryOpId::sigmoid, g[3], g[3], u);
      const int64_t r = b * hs + j0;
      T* tanh_c = scratch + r;
      for (int64_t j = 0; j < u; ++j) c[r + j] = g[1][j] * c_prev[r + j] + g[0][j] * g[2][j];
      apply_unary(kernels::UnaryOpId::tanh, c + r, tanh_c, u);
      for (int64_t j = 0; j < u; ++j) h[r + j] = g[3][j] * tanh_c[j];
    }
  });
}

// Rows of one step backward: from the activations, c_prev and c, the gradient of h_t (dh from
// the later step plus d_out, this step's rows of the output's gradient, null when none) and dc
// of c_t (updated in place to the gradient of c_{t-1}), writes dgates [B, 4H]; scratch [B, H].
template <typename T>
void cell_backward(const T* acts, const T* c_prev, const T* c, const T* dh, const T* d_out, T* dc, T* dgates,
                   T* scratch, int64_t batch, int64_t hs) {
  const int64_t grain = rows_per_task(hs);
  parallel_for(0, batch, grain, [&](int64_t b0, int64_t b1) {
    for (int64_t b = b0; b < b1; ++b) {
      const T* a = acts + b * 4 * hs;
      T* dg = dgates + b * 4 * hs;
      T* tanh_c = scratch + b * hs;
      apply_unary(kernels::UnaryOpId::tanh, c + b * hs, tanh_c, hs);
      const T* cp = c_prev + b * hs;
      const T* dhr = dh + b * hs;
      const T* dor = d_out ? d_out + b * hs : nullptr;
      T* dcr = dc + b * hs;
      for (int64_t j = 0; j < hs; ++j) {
        const T i = a[j], f = a[hs + j], g = a[2 * hs + j], o = a[3 * hs + j], tc = tanh_c[j];
        const T dh_t = dor ? dhr[j] + dor[j] : dhr[j];
        const T dc_t = dcr[j] + dh_t * o * (T(1) - tc * tc);
        dg[j] = dc_t * g * i * (T(1) - i);
        dg[hs + j] = dc_t * cp[j] * f * (T(1) - f);
        dg[2 * hs + j] = dc_t * i * (T(1) - g * g);
        dg[3 * hs + j] = dh_t * tc * o * (T(1) - o);
        dcr[j] = dc_t * f;
      }
    }
  });
}

Tensor rows(const Tensor& t, int64_t step, int64_t batch) { return t.narrow(0, step * batch, batch); }

template <typename T>
std::vector<Tensor> backward_fused(const LstmLayerArgs& a, const Tensor& acts, const Tensor& c_all, const Tensor& out,
                                   const std::vector<Tensor>& grads, const std::array<bool, kNumInputs>& needed) {
  const int64_t steps = a.steps, batch = a.h0.size(0), hs = a.w_hh.size(1);
  const Tensor h0 = a.h0.contiguous(), c0 = a.c0.contiguous();
  // dh and dc are updated in place step by step: own copies of the incoming gradients.
  Tensor dh = zeros({batch, hs}, acts.options()), dc = zeros({batch, hs}, acts.options());
  if (grads[1].defined()) dh.copy_(grads[1]);
  if (grads[2].defined()) dc.copy_(grads[2]);
  const Tensor d_out = grads[0].defined() ? grads[0].to(acts.dtype()).contiguous() : Tensor();
  Tensor d_gates = empty({steps * batch, 4 * hs}, acts.options());
  Tensor scratch = empty({batch, hs}, acts.options());
  const Tensor w_hh = a.w_hh;
  for (int64_t s = 0; s < steps; ++s) {
    const int64_t t = a.reverse ? s : steps - 1 - s;  // backward visits the steps last to first
    const int64_t prev = a.reverse ? t + 1 : t - 1;   // the step whose state this one read
    const bool first = s == steps - 1;
    const Tensor dg = rows(d_gates, t, batch);
    const T* c_prev = first ? c0.data_ptr<T>() : c_all.data_ptr<T>() + prev * batch * hs;
    cell_backward<T>(acts.data_ptr<T>() + t * batch * 4 * hs, c_prev, c_all.data_ptr<T>() + t * batch * hs,
                     dh.data_ptr<T>(), d_out.defined() ? d_out.data_ptr<T>() + t * batch * hs : nullptr,
                     dc.data_ptr<T>(), dg.data_ptr<T>(), scratch.data_ptr<T>(), batch, hs);
    kernels::gemm_batched(dg, w_hh, dh, 1, 0);  // dh_{t-1} = dG_t @ W_hh
  }
  std::vector<Tensor> result(kNumInputs);
  if (needed[kX]) result[kX] = mm(d_gates, a.w_ih);
  if (needed[kWih]) result[kWih] = mm(d_gates.t(), a.x2d);
  if (needed[kWhh]) {
    // Rows of the step that read h0, and of the steps that read an earlier step's h.
    const int64_t first_t = a.reverse ? steps - 1 : 0;
    Tensor dw = mm(rows(d_gates, first_t, batch).t(), h0);
    if (steps > 1) {
      const int64_t n_rest = (steps - 1) * batch;
      const Tensor dg_rest = d_gates.narrow(0, a.reverse ? 0 : batch, n_rest);
      const Tensor h_prev = out.narrow(0, a.reverse ? batch : 0, n_rest);
      kernels::gemm_batched(dg_rest.t(), h_prev, dw, 1, 1);
    }
    result[kWhh] = dw;
  }
  if (needed[kBih] || needed[kBhh]) {
    const Tensor db = d_gates.sum(IntArrayRef{0});
    if (needed[kBih]) result[kBih] = db;
    if (needed[kBhh]) result[kBhh] = db;
  }
  if (needed[kH0]) result[kH0] = dh;
  if (needed[kC0]) result[kC0] = dc;
  return result;
}

// Note [LSTM forward slabs]
// The recurrent GEMM of one step is small (W8: [32, 256] x [256, 1024]); handing it to a
// threaded BLAS and then splitting the pointwise pass by rows costs two fork/joins per step
// and moves every gate row between cores. Instead the hidden units are cut into one slab
// per thread: a slab's W_hh^T columns (its units' i, f, g and o) are one contiguous block
// of a reordered copy, so each thread runs a single-threaded GEMM for its gates and the
// pointwise pass for its units, and the step has one join (where every thread's part of h
// becomes the next step's input). One thread is the special case of one slab.
int64_t forward_slabs(int64_t hs) {
  const int64_t p = get_num_threads();
  return p > 1 && hs % p == 0 && hs / p >= 32 ? p : 1;
}

template <typename T>
void forward_steps(const LstmLayerArgs& a, const Tensor& bias, const Tensor& acts, const Tensor& c_all,
                   const Tensor& out) {
  const int64_t batch = a.h0.size(0), hs = a.w_hh.size(1), slabs = forward_slabs(hs), u = hs / slabs;
  // W_hh^T [H, 4H] with its columns ordered (slab, gate, unit): row-major, so BLAS streams
  // it without transposing every step.
  const Tensor w_t = a.w_hh.view({4, slabs, u, hs}).permute({3, 1, 0, 2}).contiguous().view({hs, 4 * hs});
  // Each slab's h_{t-1} @ W_hh^T, [slabs, B, 4u] (one slab adds straight into acts).
  const Tensor hw = slabs > 1 ? empty({slabs, batch, 4 * u}, acts.options()) : Tensor();
  std::vector<Tensor> w_slab, hw_slab;  // made here: tasks run no tensor ops
  for (int64_t p = 0; p < slabs && slabs > 1; ++p) {
    w_slab.push_back(w_t.narrow(1, p * 4 * u, 4 * u));
    hw_slab.push_back(hw.select(0, p));
  }
  const Tensor scratch = empty({batch, hs}, acts.options());
  const T* b = bias.defined() ? bias.data_ptr<T>() : nullptr;
  Tensor h_prev = a.h0.contiguous();
  const Tensor c0 = a.c0.contiguous();
  const T* c_prev = c0.data_ptr<T>();
  for (int64_t s = 0; s < a.steps; ++s) {
    const int64_t t = a.reverse ? a.steps - 1 - s : s;
    T* g = acts.data_ptr<T>() + t * batch * 4 * hs;
    T* c = c_all.data_ptr<T>() + t * batch * hs;
    T* h = out.data_ptr<T>() + t * batch * hs;
    if (slabs == 1) {  // one GEMM adds h_{t-1} @ W_hh^T into the step's rows (beta = 1)
      kernels::gemm_batched(h_prev, w_t, rows(acts, t, batch), 1, 1);
      cell_forward<T>(g, nullptr, b, c_prev, c, h, scratch.data_ptr<T>(), batch, hs, 0, hs);
    } else {
      parallel_for(0, slabs, 1, [&](int64_t p0, int64_t p1) {
        for (int64_t p = p0; p < p1; ++p) {
          const auto k = static_cast<size_t>(p);
          kernels::gemm_batched(h_prev, w_slab[k], hw_slab[k], 1, 0);
          cell_forward<T>(g, hw_slab[k].data_ptr<T>(), b, c_prev, c, h, scratch.data_ptr<T>(), batch, hs, p * u, u);
        }
      });
    }
    h_prev = rows(out, t, batch);
    c_prev = c;
  }
}

}  // namespace

std::vector<Tensor> lstm_layer_fused_backward(const LstmLayerArgs& a, const Tensor& acts, const Tensor& c_all,
                                              const Tensor& out, const std::vector<Tensor>& grads,
                                              const std::array<bool, 7>& needed) {
  return a.w_hh.dtype() == kFloat ? backward_fused<float>(a, acts, c_all, out, grads, needed)
                                  : backward_fused<double>(a, acts, c_all, out, grads, needed);
}

bool lstm_layer_fusable(const LstmLayerArgs& a) {
  const ScalarType dt = a.w_hh.dtype();
  if (dt != kFloat && dt != kDouble) return false;
  const Tensor all[kNumInputs] = {a.x2d, a.w_ih, a.w_hh, a.b_ih, a.b_hh, a.h0, a.c0};
  for (const Tensor& t : all) {
    if (!t.defined()) continue;
    if (t.dtype() != dt || batching::is_batched(t)) return false;
    if (autograd::forward_ad::is_active() && autograd::forward_ad::has_tangent(t)) return false;
  }
  // Shapes the kernels rely on; anything else goes to the composite, whose ops raise.
  if (a.steps <= 0 || a.x2d.dim() != 2 || a.w_ih.dim() != 2 || a.w_hh.dim() != 2 || a.h0.dim() != 2 ||
      !a.c0.defined() || a.c0.dim() != 2)
    return false;
  const int64_t batch = a.h0.size(0), hs = a.h0.size(1);
  const auto is_bias = [&](const Tensor& b) { return !b.defined() || b.sizes() == IntArrayRef{4 * hs}; };
  return a.x2d.size(0) == a.steps * batch && a.w_ih.size(0) == 4 * hs && a.w_ih.size(1) == a.x2d.size(1) &&
         a.w_hh.size(0) == 4 * hs && a.w_hh.size(1) == hs && a.c0.sizes() == a.h0.sizes() && is_bias(a.b_ih) &&
         is_bias(a.b_hh);
}

LstmLayerResult lstm_layer_fused(const LstmLayerArgs& a) {
  const int64_t batch = a.h0.size(0), hs = a.w_hh.size(1);
  const TensorOptions opts = a.w_hh.options().requires_grad(false);
  Tensor acts, c_all, out, h_n, c_n;
  {
    NoGradGuard no_grad;
    // The biases are added by the step's pointwise pass, not broadcast into acts first
    // (a pass over [T*B, 4H] less).
    Tensor bias = a.b_ih.defined() && a.b_hh.defined() ? a.b_ih + a.b_hh : a.b_ih.defined() ? a.b_ih : a.b_hh;
    if (bias.defined()) bias = bias.contiguous();
    acts = mm(a.x2d, a.w_ih.t());
    if (!acts.is_contiguous()) acts = acts.contiguous();
    c_all = empty({a.steps * batch, hs}, opts);
    out = empty({a.steps * batch, hs}, opts);
    if (a.w_hh.dtype() == kFloat) {
      forward_steps<float>(a, bias, acts, c_all, out);
    } else {
      forward_steps<double>(a, bias, acts, c_all, out);
    }
    const int64_t last = a.reverse ? 0 : a.steps - 1;
    h_n = rows(out, last, batch).clone();
    c_n = rows(c_all, last, batch).clone();
  }
  if (autograd::needs_grad(a.x2d, a.w_ih, a.w_hh, a.b_ih, a.b_hh, a.h0, a.c0))
    autograd::record_lstm_layer(a, acts, c_all, out, h_n, c_n);
  return {out, h_n, c_n};
}

}  // namespace torch::rnn_detail
