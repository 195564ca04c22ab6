#pragma once
// Recurrent layers as ATen's functions (at::lstm, at::gru, at::rnn_tanh, at::rnn_relu and the
// *_cell ops); the nn::RNN/LSTM/GRU modules call these. See Note [Recurrent layers] in rnn.cpp.
//
// `params` lists, per layer and direction (forward, then reverse): w_ih [G, in], w_hh [G, h],
// then b_ih [G], b_hh [G] when has_biases, then w_hr [proj, hidden] for an LSTM with projections
// (G = hidden for RNN, 4*hidden for LSTM with gates i,f,g,o, 3*hidden for GRU with gates r,z,n).
// Inputs are [T, B, in] ([B, T, in] when batch_first); the packed forms take PackedSequence's
// data [sum(batch_sizes), in] and batch_sizes (int64, decreasing). States are [layers*dirs, B, h].
#include <optional>
#include <tuple>
#include <vector>

#include "ember/core/tensor.h"

namespace torch {

// Returns (output, h_n, c_n).
std::tuple<Tensor, Tensor, Tensor> lstm(const Tensor& input, TensorList hx, TensorList params, bool has_biases,
                                        int64_t num_layers, double dropout, bool train, bool bidirectional,
                                        bool batch_first);
std::tuple<Tensor, Tensor, Tensor> lstm(const Tensor& data, const Tensor& batch_sizes, TensorList hx, TensorList params,
                                        bool has_biases, int64_t num_layers, double dropout, bool train,
                                        bool bidirectional);
// Return (output, h_n).
std::tuple<Tensor, Tensor> gru(const Tensor& input, const Tensor& hx, TensorList params, bool has_biases,
                               int64_t num_layers, double dropout, bool train, bool bidirectional, bool batch_first);
std::tuple<Tensor, Tensor> gru(const Tensor& data, const Tensor& batch_sizes, const Tensor& hx, TensorList params,
                               bool has_biases, int64_t num_layers, double dropout, bool train, bool bidirectional);
std::tuple<Tensor, Tensor> rnn_tanh(const Tensor& input, const Tensor& hx, TensorList params, bool has_biases,
                                    int64_t num_layers, double dropout, bool train, bool bidirectional,
                                    bool batch_first);
std::tuple<Tensor, Tensor> rnn_tanh(const Tensor& data, const Tensor& batch_sizes, const Tensor& hx, TensorList params,
                                    bool has_biases, int64_t num_layers, double dropout, bool train,
                                    bool bidirectional);
std::tuple<Tensor, Tensor> rnn_relu(const Tensor& input, const Tensor& hx, TensorList params, bool has_biases,
                                    int64_t num_layers, double dropout, bool train, bool bidirectional,
                                    bool batch_first);
std::tuple<Tensor, Tensor> rnn_relu(const Tensor& data, const Tensor& batch_sizes, const Tensor& hx, TensorList params,
                                    bool has_biases, int64_t num_layers, double dropout, bool train,
                                    bool bidirectional);

// One step on input [B, in] with state [B, h]; hx of lstm_cell is {h, c}. Returns (h', c').
std::tuple<Tensor, Tensor> lstm_cell(const Tensor& input, TensorList hx, const Tensor& w_ih, const Tensor& w_hh,
                                     const std::optional<Tensor>& b_ih = {}, const std::optional<Tensor>& b_hh = {});
Tensor gru_cell(const Tensor& input, const Tensor& hx, const Tensor& w_ih, const Tensor& w_hh,
                const std::optional<Tensor>& b_ih = {}, const std::optional<Tensor>& b_hh = {});
Tensor rnn_tanh_cell(const Tensor& input, const Tensor& hx, const Tensor& w_ih, const Tensor& w_hh,
                     const std::optional<Tensor>& b_ih = {}, const std::optional<Tensor>& b_hh = {});
Tensor rnn_relu_cell(const Tensor& input, const Tensor& hx, const Tensor& w_ih, const Tensor& w_hh,
                     const std::optional<Tensor>& b_ih = {}, const std::optional<Tensor>& b_hh = {});

// Consecutive views of `self` along `dim`, as split_with_sizes, but differentiated by one node
// for all pieces (the cat of their gradients) instead of one slice node per piece, each of which
// fills a zero tensor of self's size: what a time loop over the rows of one projection needs.
std::vector<Tensor> split_with_sizes_grouped(const Tensor& self, IntArrayRef split_sizes, int64_t dim = 0);

}  // namespace torch
