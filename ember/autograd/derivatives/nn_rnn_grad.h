#pragma once
// Backward recording for the recurrent ops: the split of the composite layers (ops/nn/rnn.cpp),
// a cat of differentiable ops, and the fused LSTM layer (ops/nn/lstm_layer.cpp).
#include <vector>

#include "ember/core/tensor.h"
#include "ember/ops/nn/lstm_layer.h"

namespace torch::autograd {

// "SplitWithSizesBackward0" for `pieces`, consecutive views of `self` along `dim` with the given
// sizes: one node for all pieces whose gradient is the cat of the pieces' gradients (zeros for
// pieces that got none), instead of one slice node per piece that each fill a zero tensor of
// self's full size.
void record_split_with_sizes(const Tensor& self, const std::vector<Tensor>& pieces, IntArrayRef sizes, int64_t dim);

// LstmLayerBackward0 of the fused LSTM layer (Note [Fused LSTM layer], ops/nn/lstm_layer.cpp):
// saves the seven inputs, the gate activations `acts`, every c_t (`c_all`) and `out`.
void record_lstm_layer(const rnn_detail::LstmLayerArgs& a, const Tensor& acts, const Tensor& c_all, const Tensor& out,
                       const Tensor& h_n, const Tensor& c_n);

}  // namespace torch::autograd
