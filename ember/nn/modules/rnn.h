#pragma once
// RNN, LSTM, GRU and their cells, as torch/nn/modules/rnn.h. Parameters carry PyTorch's names
// and shapes (weight_ih_l0, weight_hh_l0, bias_ih_l0, bias_hh_l0, weight_hr_l0, "_reverse" for
// the second direction), so state dicts move between the two. The computation is in
// ember/ops/rnn.{h,cpp} (Note [Recurrent layers]).
#include <optional>
#include <ostream>
#include <string>
#include <tuple>
#include <vector>

#include "ember/core/tensor.h"
#include "ember/nn/cloneable.h"
#include "ember/nn/modules/container/any.h"
#include "ember/nn/options/rnn.h"
#include "ember/nn/pimpl.h"
#include "ember/nn/utils/rnn.h"
#include "ember/ops/nn/rnn.h"

namespace torch::nn {

namespace detail {

enum class RNNMode { kRNN_TANH, kRNN_RELU, kLSTM, kGRU };

// What the three modules' options have in common (LibTorch's detail::RNNOptionsBase).
struct RNNOptionsBase {
  RNNOptionsBase(RNNMode mode, int64_t input_size, int64_t hidden_size)
      : mode_(mode), input_size_(input_size), hidden_size_(hidden_size) {}
  TORCH_ARG(RNNMode, mode);
  TORCH_ARG(int64_t, input_size);
  TORCH_ARG(int64_t, hidden_size);
  TORCH_ARG(int64_t, num_layers) = 1;
  TORCH_ARG(bool, bias) = true;
  TORCH_ARG(bool, batch_first) = false;
  TORCH_ARG(double, dropout) = 0.0;
  TORCH_ARG(bool, bidirectional) = false;
  TORCH_ARG(int64_t, proj_size) = 0;
};

template <typename Derived>
class RNNImplBase : public Cloneable<Derived> {
 public:
  explicit RNNImplBase(const RNNOptionsBase& options_);
  // Registers the parameters (per layer, per direction) and initialises them.
  void reset() override;
  // Every parameter ~ U(-1/sqrt(hidden_size), 1/sqrt(hidden_size)), as PyTorch.
  void reset_parameters();
  // LibTorch packs weights for cuDNN here; Ember uses them in place, so there is nothing to do.
  void flatten_parameters() {}
  // The parameters in ATen's order (see ember/ops/nn/rnn.h).
  std::vector<Tensor> all_weights() const { return flat_weights_; }
  void pretty_print(std::ostream& stream) const override;

  RNNOptionsBase options_base;

 protected:
  // The shared forward: input checks, unbatched input, default or permuted initial state,
  // then the op. `batch_sizes` defined means `input` is a PackedSequence's data. Returns the
  // output and the final states (h_n, and c_n for LSTM).
  std::tuple<Tensor, std::vector<Tensor>> run(const Tensor& input, const Tensor& batch_sizes,
                                              const Tensor& sorted_indices, const Tensor& unsorted_indices,
                                              std::vector<Tensor> hx);

  std::vector<std::string> flat_weights_names_;
  std::vector<Tensor> flat_weights_;
};

}  // namespace detail

using utils::rnn::PackedSequence;

// Elman RNN: h_t = tanh(x_t W_ih^T + b_ih + h_{t-1} W_hh^T + b_hh) (or relu).
class RNNImpl : public detail::RNNImplBase<RNNImpl> {
 public:
  RNNImpl(int64_t input_size, int64_t hidden_size) : RNNImpl(RNNOptions(input_size, hidden_size)) {}
  explicit RNNImpl(const RNNOptions& options_);
  // input [T, B, in] ([B, T, in] if batch_first) or unbatched [T, in]; hx [layers*dirs, B, h].
  // Returns (output [T, B, dirs*h], h_n).
  std::tuple<Tensor, Tensor> forward(const Tensor& input, Tensor hx = {});
  std::tuple<PackedSequence, Tensor> forward_with_packed_input(const PackedSequence& packed_input, Tensor hx = {});

  RNNOptions options;

 protected:
  FORWARD_HAS_DEFAULT_ARGS({1, AnyValue(Tensor())})
};
EMBER_NN_MODULE(RNN);

// LSTM with PyTorch's gate order i, f, g, o; with proj_size, h = (o * tanh(c)) W_hr^T.
class LSTMImpl : public detail::RNNImplBase<LSTMImpl> {
 public:
  LSTMImpl(int64_t input_size, int64_t hidden_size) : LSTMImpl(LSTMOptions(input_size, hidden_size)) {}
  explicit LSTMImpl(const LSTMOptions& options_);
  // Returns (output, (h_n, c_n)); hx_opt is (h_0, c_0).
  std::tuple<Tensor, std::tuple<Tensor, Tensor>> forward(const Tensor& input,
                                                         std::optional<std::tuple<Tensor, Tensor>> hx_opt = {});
  std::tuple<PackedSequence, std::tuple<Tensor, Tensor>> forward_with_packed_input(
      const PackedSequence& packed_input, std::optional<std::tuple<Tensor, Tensor>> hx_opt = {});

  LSTMOptions options;

 protected:
  FORWARD_HAS_DEFAULT_ARGS({1, AnyValue(std::optional<std::tuple<Tensor, Tensor>>())})
};
EMBER_NN_MODULE(LSTM);

// GRU with PyTorch's gate order r, z, n and n = tanh(W_in x + b_in + r * (W_hn h + b_hn)).
class GRUImpl : public detail::RNNImplBase<GRUImpl> {
 public:
  GRUImpl(int64_t input_size, int64_t hidden_size) : GRUImpl(GRUOptions(input_size, hidden_size)) {}
  explicit GRUImpl(const GRUOptions& options_);
  std::tuple<Tensor, Tensor> forward(const Tensor& input, Tensor hx = {});
  std::tuple<PackedSequence, Tensor> forward_with_packed_input(const PackedSequence& packed_input, Tensor hx = {});

  GRUOptions options;

 protected:
  FORWARD_HAS_DEFAULT_ARGS({1, AnyValue(Tensor())})
};
EMBER_NN_MODULE(GRU);

namespace detail {

struct RNNCellOptionsBase {
  RNNCellOptionsBase(int64_t input_size, int64_t hidden_size, bool bias, int64_t num_chunks)
      : input_size_(input_size), hidden_size_(hidden_size), bias_(bias), num_chunks_(num_chunks) {}
  TORCH_ARG(int64_t, input_size);
  TORCH_ARG(int64_t, hidden_size);
  TORCH_ARG(bool, bias);
  TORCH_ARG(int64_t, num_chunks);  // gates per hidden unit: 1 (RNN), 4 (LSTM), 3 (GRU)
};

// weight_ih [chunks*h, in], weight_hh [chunks*h, h], bias_ih, bias_hh [chunks*h].
template <typename Derived>
class RNNCellImplBase : public Cloneable<Derived> {
 public:
  explicit RNNCellImplBase(const RNNCellOptionsBase& options_);
  void reset() override;
  void reset_parameters();
  void pretty_print(std::ostream& stream) const override;

  RNNCellOptionsBase options_base;
  Tensor weight_ih, weight_hh, bias_ih, bias_hh;

 protected:
  virtual std::string get_nonlinearity_str() const { return ""; }
  // Accepts [B, in] or unbatched [in]; returns the input as 2-D and whether it was batched.
  std::tuple<Tensor, bool> batched_input(const Tensor& input, const char* name) const;
  // The state as 2-D (zeros when undefined), matching the input's batched-ness.
  Tensor batched_state(const Tensor& hx, const Tensor& input, bool batched, int64_t size, const char* name) const;
};

}  // namespace detail

class RNNCellImpl : public detail::RNNCellImplBase<RNNCellImpl> {
 public:
  RNNCellImpl(int64_t input_size, int64_t hidden_size) : RNNCellImpl(RNNCellOptions(input_size, hidden_size)) {}
  explicit RNNCellImpl(const RNNCellOptions& options_);
  // input [B, in] or [in], hx [B, h] or [h]; returns h'.
  Tensor forward(const Tensor& input, Tensor hx = {});

  RNNCellOptions options;

 protected:
  FORWARD_HAS_DEFAULT_ARGS({1, AnyValue(Tensor())})
  std::string get_nonlinearity_str() const override;
};
EMBER_NN_MODULE(RNNCell);

class LSTMCellImpl : public detail::RNNCellImplBase<LSTMCellImpl> {
 public:
  LSTMCellImpl(int64_t input_size, int64_t hidden_size) : LSTMCellImpl(LSTMCellOptions(input_size, hidden_size)) {}
  explicit LSTMCellImpl(const LSTMCellOptions& options_);
  // Returns (h', c').
  std::tuple<Tensor, Tensor> forward(const Tensor& input, std::optional<std::tuple<Tensor, Tensor>> hx_opt = {});

  LSTMCellOptions options;

 protected:
  FORWARD_HAS_DEFAULT_ARGS({1, AnyValue(std::optional<std::tuple<Tensor, Tensor>>())})
};
EMBER_NN_MODULE(LSTMCell);

class GRUCellImpl : public detail::RNNCellImplBase<GRUCellImpl> {
 public:
  GRUCellImpl(int64_t input_size, int64_t hidden_size) : GRUCellImpl(GRUCellOptions(input_size, hidden_size)) {}
  explicit GRUCellImpl(const GRUCellOptions& options_);
  Tensor forward(const Tensor& input, Tensor hx = {});

  GRUCellOptions options;

 protected:
  FORWARD_HAS_DEFAULT_ARGS({1, AnyValue(Tensor())})
};
EMBER_NN_MODULE(GRUCell);

}  // namespace torch::nn
