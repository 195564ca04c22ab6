#pragma once
// One direction of one dense LSTM layer as a single op (Note [Fused LSTM layer]
// in lstm_layer.cpp), and the composite it must agree with (ops/nn/rnn.cpp).
#include <array>
#include <vector>

#include "ember/core/tensor.h"

namespace torch::rnn_detail {

// x2d is [steps * batch, input]; out is [steps * batch, hidden] in step order,
// h_n / c_n are [batch, hidden]. b_ih / b_hh may be undefined.
struct LstmLayerArgs {
  Tensor x2d, w_ih, w_hh, b_ih, b_hh, h0, c0;
  int64_t steps = 0;
  bool reverse = false;
};
// The inputs in the order the fused layer's node records them.
enum LstmInput { kX, kWih, kWhh, kBih, kBhh, kH0, kC0, kNumInputs };
struct LstmLayerResult {
  Tensor out, h_n, c_n;
};

// The composite: a graph of differentiable ops (any order of derivative,
// forward mode, vmap). Defined in ops/nn/rnn.cpp.
LstmLayerResult lstm_layer_composite(const LstmLayerArgs& a);

// Whether the fused layer serves these arguments: float32/float64, no vmap
// level or forward-mode tangent on any of them, no projection (the caller
// checks that).
bool lstm_layer_fusable(const LstmLayerArgs& a);

// The fused layer: one node for the whole layer, whose backward runs the time
// loop with one pointwise kernel per step and computes each weight's gradient
// with one GEMM over all steps.
LstmLayerResult lstm_layer_fused(const LstmLayerArgs& a);

// The fused layer's first-order backward (its formula, LstmLayerBackward0, is in
// autograd/derivatives/nn_rnn_grad.cpp): from the forward's acts (the gate activations,
// [steps * batch, 4H]), c_all (every c_t) and out, and the gradients of out, h_n and
// c_n (undefined where none), the gradients of the inputs in LstmInput order where
// `needed`. Not itself differentiable.
std::vector<Tensor> lstm_layer_fused_backward(const LstmLayerArgs& a, const Tensor& acts, const Tensor& c_all,
                                              const Tensor& out, const std::vector<Tensor>& grads,
                                              const std::array<bool, kNumInputs>& needed);

}  // namespace torch::rnn_detail
