#include "ember/autograd/derivatives/nn_rnn_grad.h"
#include "ember/autograd/raw_backward.h"

#include <array>

#include "ember/autograd/backward.h"
#include "ember/autograd/formula_node.h"
#include "ember/autograd/grad_mode.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/shape/shape_ops.h"

namespace torch::autograd {

namespace {

// ints = [dim, size_0, size_1, ...]; shapes[0] = self's sizes.
variable_list split_with_sizes_backward(const FormulaNode& n, const variable_list& grads) {
  if (!n.needs_input_grad(0)) return {Tensor()};
  const int64_t dim = n.ints[0];
  TensorOptions options;
  for (const Tensor& g : grads)
    if (g.defined()) options = g.options();
  std::vector<Tensor> parts;
  DimVector shape = n.shapes[0];
  for (size_t i = 0; i < grads.size(); ++i) {
    if (grads[i].defined()) {
      parts.push_back(grads[i]);
    } else {
      shape[dim] = n.ints[i + 1];
      parts.push_back(zeros(shape, options));
    }
  }
  return {cat(parts, dim)};
}

}  // namespace

void record_split_with_sizes(const Tensor& self, const std::vector<Tensor>& pieces, IntArrayRef sizes, int64_t dim) {
  auto node = record("SplitWithSizesBackward0", &split_with_sizes_backward, {self}, pieces);
  node->ints.push_back(dim);
  for (int64_t s : sizes) node->ints.push_back(s);
  node->shapes.emplace_back(self.sizes());
}

namespace {

// Saved: the seven inputs (kX..kC0), then acts, c_all, out. ints = [steps, reverse].
rnn_detail::LstmLayerArgs saved_args(const FormulaNode& n) {
  using namespace rnn_detail;
  rnn_detail::LstmLayerArgs a{n.saved(kX),  n.saved(kWih), n.saved(kWhh), n.saved(kBih), n.saved(kBhh),
                              n.saved(kH0), n.saved(kC0),  n.ints[0],     n.ints[1] != 0};
  return a;
}

// Under create_graph: the composite's gradients, differentiable (Note [Fused LSTM layer]).
variable_list backward_through_composite(const FormulaNode& n, const variable_list& grads) {
  const rnn_detail::LstmLayerArgs a = saved_args(n);
  using namespace rnn_detail;  // the input indices kX..kC0
  const Tensor ins[kNumInputs] = {a.x2d, a.w_ih, a.w_hh, a.b_ih, a.b_hh, a.h0, a.c0};
  // The recomputation must record even when this backward runs without
  // create_graph (under vmap, e.g. the inner pass of jacrev): its graph is how
  // the gradients are computed at all.
  EnableGradGuard enable_grad;
  const rnn_detail::LstmLayerResult r = rnn_detail::lstm_layer_composite(a);
  const Tensor outs[3] = {r.out, r.h_n, r.c_n};
  variable_list ys, gys, xs;
  for (size_t k = 0; k < 3; ++k) {
    if (!grads[k].defined()) continue;
    ys.push_back(outs[k]);
    gys.push_back(grads[k]);
  }
  std::vector<size_t> wanted;
  for (size_t i = 0; i < kNumInputs; ++i) {
    if (n.needs_input_grad(i) && ins[i].defined()) {
      wanted.push_back(i);
      xs.push_back(ins[i]);
    }
  }
  variable_list result(kNumInputs);
  if (ys.empty() || xs.empty()) return result;
  const variable_list gx = grad(ys, xs, gys, /*retain_graph=*/true, /*create_graph=*/true,
                                /*allow_unused=*/true);
  for (size_t k = 0; k < wanted.size(); ++k) result[wanted[k]] = gx[k];
  return result;
}

// LstmLayerBackward0 (Note [Fused LSTM layer]): the fused time loop, or under
// create_graph (and with batched gradients) the composite's differentiable gradients.
variable_list lstm_layer_backward(const FormulaNode& n, const variable_list& grads) {
  if (!raw_backward_ok(grads)) return backward_through_composite(n, grads);
  using namespace rnn_detail;
  std::array<bool, kNumInputs> needed{};
  for (size_t i = 0; i < kNumInputs; ++i) needed[i] = n.needs_input_grad(i);
  return lstm_layer_fused_backward(saved_args(n), n.saved(kNumInputs), n.saved(kNumInputs + 1), n.saved(kNumInputs + 2),
                                   grads, needed);
}

}  // namespace

void record_lstm_layer(const rnn_detail::LstmLayerArgs& a, const Tensor& acts, const Tensor& c_all, const Tensor& out,
                       const Tensor& h_n, const Tensor& c_n) {
  auto node = record("LstmLayerBackward0", &lstm_layer_backward, {a.x2d, a.w_ih, a.w_hh, a.b_ih, a.b_hh, a.h0, a.c0},
                     {out, h_n, c_n});
  for (const Tensor* t : {&a.x2d, &a.w_ih, &a.w_hh, &a.b_ih, &a.b_hh, &a.h0, &a.c0}) node->save(*t);
  node->save(acts);
  node->save(c_all);
  node->save(out, /*is_output=*/true);
  node->ints = {a.steps, a.reverse ? 1 : 0};
}

}  // namespace torch::autograd
