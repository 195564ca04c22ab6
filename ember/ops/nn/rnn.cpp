#include "ember/ops/nn/rnn.h"
#include "ember/core/record_scope.h"

#include <algorithm>
#include <utility>
#include <vector>

#include "ember/autograd/derivatives/nn_rnn_grad.h"
#include "ember/autograd/formula_node.h"
#include "ember/autograd/grad_mode.h"
#include "ember/core/error.h"
#include "ember/ops/elementwise/binary.h"
#include "ember/ops/elementwise/operators.h"
#include "ember/ops/elementwise/unary.h"
#include "ember/ops/matmul/matmul.h"
#include "ember/ops/nn/dropout.h"
#include "ember/ops/nn/lstm_layer.h"
#include "ember/ops/nn/nn_util.h"
#include "ember/ops/shape/shape_ops.h"
#include "ember/ops/shape/view.h"
#include "ember/vmap/batched_tensor.h"

namespace torch {

// Note [Recurrent layers]
// A layer is computed as compositions of differentiable ops, so autograd (and double
// backward) comes from the ops' own formulas; the work is arranged so that the GEMMs dominate:
//  * the input-to-hidden projection of every time step is one GEMM over all rows
//    ([T*B, in] or the packed [sum(batch_sizes), in]) before the time loop, with the biases
//    as the GEMM's C operand (b_ih + b_hh folded together, except GRU whose b_hn sits inside
//    r * (W_hn h + b_hn));
//  * each step is then one addmm (that step's rows of the projection + h @ W_hh^T) and a few
//    elementwise ops on [B, G]; the transposed weights are views made once per layer, so each
//    weight receives its gradient through one node that sums the steps' contributions;
//  * everything stays 2-D [rows, features]: step t is a row range, a packed batch is just
//    ranges of different heights, and a bidirectional layer's output is one cat along dim 1.
// Under vmap the layers and cells are composites (EMBER_RECORD_COMPOSITE_OP): every op above
// has a batching rule, so a batched input, state or weight runs through those rules, the checks
// read the logical (per-sample) shapes, and gradients record on the physical tensors.
// Note [Packed batches]: sequences are sorted by decreasing length, so the batch at step t is
// a prefix of the batch at step t-1. Running forward, rows that end are set aside and put back
// (in row order) for h_n; running in reverse, the batch grows and new rows join from h_0.

namespace {

enum class Cell { kTanh, kReLU, kLSTM, kGRU };

int64_t gates_per_hidden(Cell cell) { return cell == Cell::kLSTM ? 4 : cell == Cell::kGRU ? 3 : 1; }

struct CellParams {
  Tensor w_ih_t, w_hh_t, w_hr_t;  // transposed views: [in, G], [h, G], [hidden, proj]
  Tensor x_bias;                  // added by the input projection
  Tensor b_hh;                    // GRU only: added to h @ W_hh^T inside the step
};

CellParams make_params(Cell cell, const Tensor& w_ih, const Tensor& w_hh, const Tensor& b_ih, const Tensor& b_hh,
                       const Tensor& w_hr) {
  CellParams p;
  p.w_ih_t = w_ih.t();
  p.w_hh_t = w_hh.t();
  if (w_hr.defined()) p.w_hr_t = w_hr.t();
  if (cell == Cell::kGRU) {
    p.x_bias = b_ih;
    p.b_hh = b_hh;
  } else if (b_ih.defined() && b_hh.defined()) {
    p.x_bias = b_ih + b_hh;
  } else {
    p.x_bias = b_ih.defined() ? b_ih : b_hh;
  }
  return p;
}

Tensor project_input(const CellParams& p, const Tensor& x2d) {
  return p.x_bias.defined() ? addmm(p.x_bias, x2d, p.w_ih_t) : mm(x2d, p.w_ih_t);
}

struct State {
  Tensor h, c;  // c only for LSTM
};

// One time step; gx holds this step's rows of the input projection.
State step(Cell cell, const CellParams& p, const Tensor& gx, const State& s) {
  switch (cell) {
    case Cell::kTanh:
      return {tanh(addmm(gx, s.h, p.w_hh_t)), {}};
    case Cell::kReLU:
      return {relu(addmm(gx, s.h, p.w_hh_t)), {}};
    case Cell::kLSTM: {
      const int64_t hs = s.c.size(1);
      // i and f are adjacent, so one sigmoid covers both.
      const auto gates = split_with_sizes_grouped(addmm(gx, s.h, p.w_hh_t), {2 * hs, hs, hs}, 1);  // (i f), g, o
      const auto in_forget = split_with_sizes_grouped(sigmoid(gates[0]), {hs, hs}, 1);
      Tensor c = addcmul(in_forget[1] * s.c, in_forget[0], tanh(gates[1]));
      Tensor h = sigmoid(gates[2]) * tanh(c);
      if (p.w_hr_t.defined()) h = mm(h, p.w_hr_t);
      return {h, c};
    }
    case Cell::kGRU: {
      const int64_t hs = s.h.size(1);
      const Tensor gh_all = p.b_hh.defined() ? addmm(p.b_hh, s.h, p.w_hh_t) : mm(s.h, p.w_hh_t);
      const auto gi = split_with_sizes_grouped(gx, {2 * hs, hs}, 1);  // (r z), n
      const auto gh = split_with_sizes_grouped(gh_all, {2 * hs, hs}, 1);
      const auto rz = split_with_sizes_grouped(sigmoid(gi[0] + gh[0]), {hs, hs}, 1);
      const Tensor n = tanh(addcmul(gi[1], rz[0], gh[1]));
      // (1 - z) * n + z * h
      return {addcmul(n, rz[1], s.h - n), {}};
    }
  }
  EMBER_INTERNAL_ASSERT(false, "rnn: unknown cell");
  return {};
}

State narrow_rows(const State& s, int64_t start, int64_t length) {
  return {s.h.narrow(0, start, length), s.c.defined() ? s.c.narrow(0, start, length) : Tensor()};
}

State cat_rows(const std::vector<State>& parts) {
  std::vector<Tensor> hs, cs;
  for (const State& s : parts) {
    hs.push_back(s.h);
    if (s.c.defined()) cs.push_back(s.c);
  }
  return {cat(hs, 0), cs.empty() ? Tensor() : cat(cs, 0)};
}

// One direction of one layer over all steps (Note [Packed batches]). Returns the outputs in
// step order as [rows, h] and the final state of the whole batch.
std::pair<Tensor, State> run_direction(Cell cell, const CellParams& p, const Tensor& gx,
                                       const std::vector<int64_t>& batch_sizes, const State& init, bool reverse) {
  const auto steps = static_cast<int64_t>(batch_sizes.size());
  std::vector<Tensor> outs(steps);
  const std::vector<Tensor> gx_steps = split_with_sizes_grouped(gx, batch_sizes, 0);
  if (!reverse) {
    State s = init;
    int64_t rows = init.h.size(0);
    std::vector<State> finished;  // rows that ended, in decreasing row order
    for (int64_t t = 0; t < steps; ++t) {
      const int64_t bs = batch_sizes[t];
      if (bs < rows) {
        finished.push_back(narrow_rows(s, bs, rows - bs));
        s = narrow_rows(s, 0, bs);
        rows = bs;
      }
      s = step(cell, p, gx_steps[t], s);
      outs[t] = s.h;
    }
    if (!finished.empty()) {
      std::vector<State> parts{s};
      parts.insert(parts.end(), finished.rbegin(), finished.rend());
      s = cat_rows(parts);
    }
    return {cat(outs, 0), s};
  }
  int64_t rows = batch_sizes[steps - 1];
  State s = rows == init.h.size(0) ? init : narrow_rows(init, 0, rows);
  for (int64_t t = steps - 1; t >= 0; --t) {
    const int64_t bs = batch_sizes[t];
    if (bs > rows) {
      s = cat_rows({s, narrow_rows(init, rows, bs - rows)});
      rows = bs;
    }
    s = step(cell, p, gx_steps[t], s);
    outs[t] = s.h;
  }
  return {cat(outs, 0), s};
}

struct StackResult {
  Tensor output;  // [rows, dirs * h]
  Tensor h_n, c_n;
};

const char* op_name(Cell cell) {
  switch (cell) {
    case Cell::kTanh:
      return "rnn_tanh";
    case Cell::kReLU:
      return "rnn_relu";
    case Cell::kLSTM:
      return "lstm";
    case Cell::kGRU:
      return "gru";
  }
  return "rnn";
}

void check_state(const char* name, const char* what, const Tensor& t, int64_t n, int64_t batch, int64_t size,
                 const Tensor& like) {
  EMBER_CHECK(t.defined() && t.dim() == 3 && t.size(0) == n && t.size(1) == batch && t.size(2) == size, name,
              ": Expected ", what, " size [", n, ", ", batch, ", ", size, "], got ",
              t.defined() ? t.sizes() : IntArrayRef{});
  EMBER_CHECK(t.dtype() == like.dtype(), name, ": expected ", what, " of dtype ", like.dtype(), ", got ", t.dtype());
}

StackResult run_stack(Cell cell, Tensor x2d, const std::vector<int64_t>& batch_sizes, const Tensor& h0,
                      const Tensor& c0, TensorList params, bool has_biases, int64_t num_layers, double dropout_p,
                      bool train, bool bidirectional) {
  const char* name = op_name(cell);
  const int64_t dirs = bidirectional ? 2 : 1;
  EMBER_CHECK(num_layers > 0, name, ": num_layers must be positive, got ", num_layers);
  EMBER_CHECK(!batch_sizes.empty(), name, ": expected a sequence of at least one step");
  int64_t per = 2 + (has_biases ? 2 : 0);
  const bool proj = cell == Cell::kLSTM && static_cast<int64_t>(params.size()) == num_layers * dirs * (per + 1);
  if (proj) ++per;
  EMBER_CHECK(static_cast<int64_t>(params.size()) == num_layers * dirs * per, name, ": expected ",
              num_layers * dirs * per, " parameter tensors for ", num_layers, " layers, ", dirs,
              " directions and has_biases=", has_biases, ", got ", params.size());
  EMBER_CHECK(x2d.is_floating_point(), name, ": expected a floating-point input, got ", x2d.dtype());
  const int64_t hidden = params[0].size(0) / gates_per_hidden(cell);
  const int64_t h_size = proj ? params[per - 1].size(0) : hidden;
  check_state(name, cell == Cell::kLSTM ? "hidden[0]" : "hidden", h0, num_layers * dirs, batch_sizes[0], h_size, x2d);
  if (cell == Cell::kLSTM) check_state(name, "hidden[1]", c0, num_layers * dirs, batch_sizes[0], hidden, x2d);

  // Dense batches (every step as tall as the first) of LSTMs without projection go to the fused
  // layer where it applies (Note [Fused LSTM layer] in lstm_layer.cpp).
  const auto steps = static_cast<int64_t>(batch_sizes.size());
  const bool uniform =
      std::all_of(batch_sizes.begin(), batch_sizes.end(), [&](int64_t b) { return b == batch_sizes[0]; });
  std::vector<Tensor> h_n, c_n;
  for (int64_t layer = 0; layer < num_layers; ++layer) {
    std::vector<Tensor> dir_out;
    for (int64_t d = 0; d < dirs; ++d) {
      const int64_t k = layer * dirs + d;
      const Tensor* w = &params[static_cast<size_t>(k * per)];
      const Tensor none;
      EMBER_CHECK(w[0].dim() == 2 && w[0].size(1) == x2d.size(1) && w[0].size(0) == gates_per_hidden(cell) * hidden,
                  name, ": layer ", layer, " expects input of size ", w[0].dim() == 2 ? w[0].size(1) : -1,
                  " (weight_ih ", w[0].sizes(), "), got input with ", x2d.size(1), " features");
      EMBER_CHECK(w[0].dtype() == x2d.dtype(), name, ": input dtype ", x2d.dtype(), " differs from weight dtype ",
                  w[0].dtype());
      const CellParams p =
          make_params(cell, w[0], w[1], has_biases ? w[2] : none, has_biases ? w[3] : none, proj ? w[per - 1] : none);
      const State init{h0.select(0, k), c0.defined() ? c0.select(0, k) : Tensor()};
      if (cell == Cell::kLSTM && !proj && uniform) {
        const rnn_detail::LstmLayerArgs la{
            x2d, w[0], w[1], has_biases ? w[2] : none, has_biases ? w[3] : none, init.h, init.c, steps, d == 1};
        rnn_detail::LstmLayerResult r = rnn_detail::lstm_layer_fusable(la) ? rnn_detail::lstm_layer_fused(la)
                                                                           : rnn_detail::lstm_layer_composite(la);
        dir_out.push_back(std::move(r.out));
        h_n.push_back(std::move(r.h_n));
        c_n.push_back(std::move(r.c_n));
        continue;
      }
      auto [out, fin] = run_direction(cell, p, project_input(p, x2d), batch_sizes, init, d == 1);
      dir_out.push_back(std::move(out));
      h_n.push_back(fin.h);
      if (fin.c.defined()) c_n.push_back(fin.c);
    }
    x2d = dirs == 1 ? dir_out[0] : cat(dir_out, 1);
    if (dropout_p > 0 && train && layer + 1 < num_layers) x2d = dropout(x2d, dropout_p, true);
  }
  return {x2d, stack(h_n, 0), c_n.empty() ? Tensor() : stack(c_n, 0)};
}

StackResult run_dense(Cell cell, const Tensor& input, const Tensor& h0, const Tensor& c0, TensorList params,
                      bool has_biases, int64_t num_layers, double dropout_p, bool train, bool bidirectional,
                      bool batch_first) {
  EMBER_CHECK(input.dim() == 3, op_name(cell), ": expected a 3-D input, got ", input.sizes());
  const Tensor x = batch_first ? input.transpose(0, 1) : input;
  const int64_t steps = x.size(0), batch = x.size(1);
  EMBER_CHECK(steps > 0 && batch > 0, op_name(cell), ": expected a non-empty input, got ", input.sizes());
  StackResult r = run_stack(cell, x.reshape({steps * batch, x.size(2)}), std::vector<int64_t>(steps, batch), h0, c0,
                            params, has_biases, num_layers, dropout_p, train, bidirectional);
  r.output = r.output.view({steps, batch, r.output.size(1)});
  if (batch_first) r.output = r.output.transpose(0, 1);
  return r;
}

StackResult run_packed(Cell cell, const Tensor& data, const Tensor& batch_sizes, const Tensor& h0, const Tensor& c0,
                       TensorList params, bool has_biases, int64_t num_layers, double dropout_p, bool train,
                       bool bidirectional) {
  EMBER_CHECK(data.dim() == 2, op_name(cell), ": expected packed data of 2 dims, got ", data.sizes());
  EMBER_CHECK(batch_sizes.dim() == 1, op_name(cell), ": expected 1-D batch_sizes, got ", batch_sizes.sizes());
  // The lengths decide the row ranges of every step, so they must be the same for every sample.
  EMBER_CHECK(!batching::is_batched(batch_sizes), op_name(cell),
              ": vmap: batch_sizes of a packed sequence cannot be batched (the step structure would differ per "
              "sample); map over the packed data with shared batch_sizes");
  const Tensor bs = batch_sizes.to(kInt64).contiguous();
  std::vector<int64_t> sizes(bs.data_ptr<int64_t>(), bs.data_ptr<int64_t>() + bs.numel());
  int64_t total = 0;
  for (size_t t = 0; t < sizes.size(); ++t) {
    EMBER_CHECK(sizes[t] > 0 && (t == 0 || sizes[t] <= sizes[t - 1]), op_name(cell),
                ": batch_sizes must be positive and non-increasing");
    total += sizes[t];
  }
  EMBER_CHECK(total == data.size(0), op_name(cell), ": batch_sizes sum to ", total, " but data has ", data.size(0),
              " rows");
  return run_stack(cell, data, sizes, h0, c0, params, has_biases, num_layers, dropout_p, train, bidirectional);
}

}  // namespace

rnn_detail::LstmLayerResult rnn_detail::lstm_layer_composite(const LstmLayerArgs& a) {
  const CellParams p = make_params(Cell::kLSTM, a.w_ih, a.w_hh, a.b_ih, a.b_hh, {});
  auto [out, fin] = run_direction(Cell::kLSTM, p, project_input(p, a.x2d), std::vector<int64_t>(a.steps, a.h0.size(0)),
                                  {a.h0, a.c0}, a.reverse);
  return {out, fin.h, fin.c};
}

namespace {

void check_lstm_hx(TensorList hx) {
  EMBER_CHECK(hx.size() == 2, "lstm: expected two hidden state tensors (h_0, c_0), got ", hx.size());
}

// Validates the single-step ops' arguments as ATen's check_rnn_cell_forward_*.
void check_cell(const char* name, const Tensor& input, const Tensor& hx, const Tensor& w_ih, const Tensor& w_hh,
                int64_t hidden) {
  EMBER_CHECK(input.dim() == 2 && hx.dim() == 2, name, ": expected 2-D input and hidden state, got ", input.sizes(),
              " and ", hx.sizes());
  EMBER_CHECK(w_ih.dim() == 2 && w_hh.dim() == 2, name, ": expected 2-D weights, got ", w_ih.sizes(), " and ",
              w_hh.sizes());
  EMBER_CHECK(input.size(1) == w_ih.size(1), name, ": input has inconsistent input_size: got ", input.size(1),
              " expected ", w_ih.size(1));
  EMBER_CHECK(input.size(0) == hx.size(0), name, ": Input batch size ", input.size(0),
              " doesn't match hidden batch size ", hx.size(0));
  EMBER_CHECK(hx.size(1) == hidden, name, ": hidden state has inconsistent hidden_size: got ", hx.size(1),
              ", expected ", hidden);
  EMBER_CHECK(input.dtype() == w_ih.dtype() && hx.dtype() == w_ih.dtype(), name, ": expected input and hidden of ",
              w_ih.dtype(), ", got ", input.dtype(), " and ", hx.dtype());
}

Tensor simple_cell(Cell cell, const Tensor& input, const Tensor& hx, const Tensor& w_ih, const Tensor& w_hh,
                   const std::optional<Tensor>& b_ih, const std::optional<Tensor>& b_hh) {
  const char* name = cell == Cell::kGRU ? "gru_cell" : cell == Cell::kReLU ? "rnn_relu_cell" : "rnn_tanh_cell";
  check_cell(name, input, hx, w_ih, w_hh, w_hh.size(1));
  const CellParams p = make_params(cell, w_ih, w_hh, nn_detail::opt(b_ih), nn_detail::opt(b_hh), {});
  return step(cell, p, project_input(p, input), {hx, {}}).h;
}

}  // namespace

std::vector<Tensor> split_with_sizes_grouped(const Tensor& self, IntArrayRef split_sizes, int64_t dim) {
  // Batched (vmap): the ruled split, which records on the physical tensor.
  if (batching::any_batched(self)) [[unlikely]]
    return split_with_sizes(self, split_sizes, dim);
  std::vector<Tensor> pieces;
  {
    autograd::BelowAutogradGuard no_grad;  // plain views; the node below is their grad_fn
    pieces = split_with_sizes(self, split_sizes, dim);
  }
  if (autograd::needs_grad(self))
    autograd::record_split_with_sizes(self, pieces, split_sizes, dim < 0 ? dim + self.dim() : dim);
  return pieces;
}

std::tuple<Tensor, Tensor, Tensor> lstm(const Tensor& input, TensorList hx, TensorList params, bool has_biases,
                                        int64_t num_layers, double dropout, bool train, bool bidirectional,
                                        bool batch_first) {
  EMBER_RECORD_COMPOSITE_OP("lstm", input, hx, params);
  check_lstm_hx(hx);
  StackResult r = run_dense(Cell::kLSTM, input, hx[0], hx[1], params, has_biases, num_layers, dropout, train,
                            bidirectional, batch_first);
  return {r.output, r.h_n, r.c_n};
}

std::tuple<Tensor, Tensor, Tensor> lstm(const Tensor& data, const Tensor& batch_sizes, TensorList hx, TensorList params,
                                        bool has_biases, int64_t num_layers, double dropout, bool train,
                                        bool bidirectional) {
  EMBER_RECORD_COMPOSITE_OP("lstm", data, batch_sizes, hx, params);
  check_lstm_hx(hx);
  StackResult r = run_packed(Cell::kLSTM, data, batch_sizes, hx[0], hx[1], params, has_biases, num_layers, dropout,
                             train, bidirectional);
  return {r.output, r.h_n, r.c_n};
}

#define EMBER_RNN_SINGLE_STATE(fn, cell)                                                                               \
  std::tuple<Tensor, Tensor> fn(const Tensor& input, const Tensor& hx, TensorList params, bool has_biases,             \
                                int64_t num_layers, double dropout, bool train, bool bidirectional,                    \
                                bool batch_first) {                                                                    \
    EMBER_RECORD_COMPOSITE_OP(#fn, input, hx, params);                                                                 \
    StackResult r =                                                                                                    \
        run_dense(cell, input, hx, {}, params, has_biases, num_layers, dropout, train, bidirectional, batch_first);    \
    return {r.output, r.h_n};                                                                                          \
  }                                                                                                                    \
  std::tuple<Tensor, Tensor> fn(const Tensor& data, const Tensor& batch_sizes, const Tensor& hx, TensorList params,    \
                                bool has_biases, int64_t num_layers, double dropout, bool train, bool bidirectional) { \
    EMBER_RECORD_COMPOSITE_OP(#fn, data, batch_sizes, hx, params);                                                     \
    StackResult r =                                                                                                    \
        run_packed(cell, data, batch_sizes, hx, {}, params, has_biases, num_layers, dropout, train, bidirectional);    \
    return {r.output, r.h_n};                                                                                          \
  }
EMBER_RNN_SINGLE_STATE(gru, Cell::kGRU)
EMBER_RNN_SINGLE_STATE(rnn_tanh, Cell::kTanh)
EMBER_RNN_SINGLE_STATE(rnn_relu, Cell::kReLU)
#undef EMBER_RNN_SINGLE_STATE

std::tuple<Tensor, Tensor> lstm_cell(const Tensor& input, TensorList hx, const Tensor& w_ih, const Tensor& w_hh,
                                     const std::optional<Tensor>& b_ih, const std::optional<Tensor>& b_hh) {
  EMBER_RECORD_COMPOSITE_OP("lstm_cell", input, hx, w_ih, w_hh);
  EMBER_CHECK(hx.size() == 2, "lstm_cell: expected two hidden state tensors (h, c), got ", hx.size());
  check_cell("lstm_cell", input, hx[0], w_ih, w_hh, w_hh.size(1));
  check_cell("lstm_cell", input, hx[1], w_ih, w_hh, w_ih.size(0) / 4);
  const CellParams p = make_params(Cell::kLSTM, w_ih, w_hh, nn_detail::opt(b_ih), nn_detail::opt(b_hh), {});
  State s = step(Cell::kLSTM, p, project_input(p, input), {hx[0], hx[1]});
  return {s.h, s.c};
}

Tensor gru_cell(const Tensor& input, const Tensor& hx, const Tensor& w_ih, const Tensor& w_hh,
                const std::optional<Tensor>& b_ih, const std::optional<Tensor>& b_hh) {
  EMBER_RECORD_COMPOSITE_OP("gru_cell", input, hx, w_ih, w_hh);
  return simple_cell(Cell::kGRU, input, hx, w_ih, w_hh, b_ih, b_hh);
}
Tensor rnn_tanh_cell(const Tensor& input, const Tensor& hx, const Tensor& w_ih, const Tensor& w_hh,
                     const std::optional<Tensor>& b_ih, const std::optional<Tensor>& b_hh) {
  EMBER_RECORD_COMPOSITE_OP("rnn_tanh_cell", input, hx, w_ih, w_hh);
  return simple_cell(Cell::kTanh, input, hx, w_ih, w_hh, b_ih, b_hh);
}
Tensor rnn_relu_cell(const Tensor& input, const Tensor& hx, const Tensor& w_ih, const Tensor& w_hh,
                     const std::optional<Tensor>& b_ih, const std::optional<Tensor>& b_hh) {
  EMBER_RECORD_COMPOSITE_OP("rnn_relu_cell", input, hx, w_ih, w_hh);
  return simple_cell(Cell::kReLU, input, hx, w_ih, w_hh, b_ih, b_hh);
}

}  // namespace torch
