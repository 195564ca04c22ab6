#pragma once
// One direction of one dense LSTM layer as a single op (Note [Fused LSTM layer]
// in lstm_layer.cpp), and the composite it must agree with (ops/nn/rnn.cpp).
#include "ember/core/tensor.h"

namespace ember::rnn_detail {

// x2d is [steps * batch, input]; out is [steps * batch, hidden] in step order,
// h_n / c_n are [batch, hidden]. b_ih / b_hh may be undefined.
struct LstmLayerArgs {
  Tensor x2d, w_ih, w_hh, b_ih, b_hh, h0, c0;
  int64_t steps = 0;
  bool reverse = false;
};
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

}  // namespace ember::rnn_detail
