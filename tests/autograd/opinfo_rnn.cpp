// OpInfo entries for the recurrent ops of ember/ops/nn/rnn.h (dense, packed and cells). They are
// compositions of differentiable ops (Note [Recurrent layers]), so gradcheck and gradgradcheck
// check the way the steps are wired: states, directions, layers, packed batch changes.
#include "ember/ops/nn/rnn.h"
#include "opinfo.h"

namespace torch::testing {
namespace {

using Shapes = std::vector<std::vector<int64_t>>;

// Parameter shapes for `layers` x `dirs` of a cell with `gates` gates, in ATen's order.
Shapes param_shapes(int64_t gates, int64_t in, int64_t hidden, int64_t layers, int64_t dirs, bool bias,
                    int64_t proj = 0) {
  Shapes s;
  const int64_t real = proj > 0 ? proj : hidden;
  for (int64_t l = 0; l < layers; ++l)
    for (int64_t d = 0; d < dirs; ++d) {
      s.push_back({gates * hidden, l == 0 ? in : real * dirs});
      s.push_back({gates * hidden, real});
      if (bias) {
        s.push_back({gates * hidden});
        s.push_back({gates * hidden});
      }
      if (proj > 0) s.push_back({proj, hidden});
    }
  return s;
}

// Inputs: the leading `lead` shapes (input, states), then the parameters.
OpInfo op(const char* name, Shapes lead, const Shapes& params, std::function<variable_list(const variable_list&)> f,
          bool gradgrad = true) {
  OpInfo o;
  o.name = name;
  o.fn = std::move(f);
  lead.insert(lead.end(), params.begin(), params.end());
  o.samples = [lead] {
    variable_list in;
    uint64_t seed = 501;
    for (const auto& s : lead) in.push_back(sample(s, -0.8, 0.8, seed++));
    return std::vector<variable_list>{in};
  };
  o.gradgrad = gradgrad;
  return o;
}

variable_list tail(const variable_list& x, size_t from) { return variable_list(x.begin() + from, x.end()); }

Tensor sizes_tensor(std::vector<int64_t> v) { return tensor(v, TensorOptions().dtype(kInt64)); }

OpInfo split_op(const char* name, std::vector<int64_t> sizes, int64_t dim, bool skip_middle) {
  OpInfo o = op(name, {{5, 4}}, {}, [sizes, dim, skip_middle](const variable_list& x) {
    auto pieces = split_with_sizes_grouped(x[0] * 2, sizes, dim);
    if (skip_middle) pieces.erase(pieces.begin() + 1);  // that piece gets no gradient: zeros in the cat
    return variable_list(pieces.begin(), pieces.end());
  });
  o.grad_fn_name = "SplitWithSizesBackward0";
  return o;
}

RegisterOps reg({
    split_op("split_with_sizes_grouped(dim 0)", {2, 1, 2}, 0, false),
    split_op("split_with_sizes_grouped(dim 1, unused piece)", {1, 2, 1}, -1, true),
    op(
        "lstm(2 layers, bidirectional)", {{3, 2, 2}, {4, 2, 2}, {4, 2, 2}}, param_shapes(4, 2, 2, 2, 2, true),
        [](const variable_list& x) {
          auto [o, h, c] = lstm(x[0], {x[1], x[2]}, tail(x, 3), true, 2, 0.0, false, true, false);
          return variable_list{o, h, c};
        },
        /*gradgrad=*/false),
    op("lstm(batch_first, no bias)", {{2, 3, 2}, {1, 2, 2}, {1, 2, 2}}, param_shapes(4, 2, 2, 1, 1, false),
       [](const variable_list& x) {
         auto [o, h, c] = lstm(x[0], {x[1], x[2]}, tail(x, 3), false, 1, 0.0, false, false, true);
         return variable_list{o, h, c};
       }),
    op("lstm(proj_size)", {{3, 2, 2}, {1, 2, 1}, {1, 2, 3}}, param_shapes(4, 2, 3, 1, 1, true, 1),
       [](const variable_list& x) {
         auto [o, h, c] = lstm(x[0], {x[1], x[2]}, tail(x, 3), true, 1, 0.0, false, false, false);
         return variable_list{o, h, c};
       }),
    op("lstm(packed, bidirectional)", {{6, 2}, {2, 3, 2}, {2, 3, 2}}, param_shapes(4, 2, 2, 1, 2, true),
       [](const variable_list& x) {
         auto [o, h, c] = lstm(x[0], sizes_tensor({3, 2, 1}), {x[1], x[2]}, tail(x, 3), true, 1, 0.0, false, true);
         return variable_list{o, h, c};
       }),
    op(
        "gru(2 layers, bidirectional)", {{3, 2, 2}, {4, 2, 2}}, param_shapes(3, 2, 2, 2, 2, true),
        [](const variable_list& x) {
          auto [o, h] = gru(x[0], x[1], tail(x, 2), true, 2, 0.0, false, true, false);
          return variable_list{o, h};
        },
        /*gradgrad=*/false),
    op("gru", {{3, 2, 2}, {1, 2, 2}}, param_shapes(3, 2, 2, 1, 1, true),
       [](const variable_list& x) {
         auto [o, h] = gru(x[0], x[1], tail(x, 2), true, 1, 0.0, false, false, false);
         return variable_list{o, h};
       }),
    op("gru(no bias, batch_first)", {{2, 3, 2}, {1, 2, 2}}, param_shapes(3, 2, 2, 1, 1, false),
       [](const variable_list& x) {
         auto [o, h] = gru(x[0], x[1], tail(x, 2), false, 1, 0.0, false, false, true);
         return variable_list{o, h};
       }),
    op("gru_cell(no bias)", {{2, 3}, {2, 2}}, param_shapes(3, 3, 2, 1, 1, false),
       [](const variable_list& x) { return variable_list{gru_cell(x[0], x[1], x[2], x[3])}; }),
    op("gru(packed, bidirectional)", {{5, 2}, {2, 2, 2}}, param_shapes(3, 2, 2, 1, 2, true),
       [](const variable_list& x) {
         auto [o, h] = gru(x[0], sizes_tensor({2, 2, 1}), x[1], tail(x, 2), true, 1, 0.0, false, true);
         return variable_list{o, h};
       }),
    op("rnn_tanh(2 layers, bidirectional)", {{3, 2, 2}, {4, 2, 3}}, param_shapes(1, 2, 3, 2, 2, true),
       [](const variable_list& x) {
         auto [o, h] = rnn_tanh(x[0], x[1], tail(x, 2), true, 2, 0.0, false, true, false);
         return variable_list{o, h};
       }),
    op("rnn_tanh(packed)", {{5, 2}, {1, 2, 3}}, param_shapes(1, 2, 3, 1, 1, false),
       [](const variable_list& x) {
         auto [o, h] = rnn_tanh(x[0], sizes_tensor({2, 2, 1}), x[1], tail(x, 2), false, 1, 0.0, false, false);
         return variable_list{o, h};
       }),
    op("rnn_relu", {{3, 2, 2}, {1, 2, 3}}, param_shapes(1, 2, 3, 1, 1, true),
       [](const variable_list& x) {
         auto [o, h] = rnn_relu(x[0], x[1], tail(x, 2), true, 1, 0.0, false, false, false);
         return variable_list{o, h};
       }),
    op("lstm_cell", {{2, 3}, {2, 2}, {2, 2}}, param_shapes(4, 3, 2, 1, 1, true),
       [](const variable_list& x) {
         auto [h, c] = lstm_cell(x[0], {x[1], x[2]}, x[3], x[4], x[5], x[6]);
         return variable_list{h, c};
       }),
    op("gru_cell", {{2, 3}, {2, 2}}, param_shapes(3, 3, 2, 1, 1, true),
       [](const variable_list& x) { return variable_list{gru_cell(x[0], x[1], x[2], x[3], x[4], x[5])}; }),
    op("rnn_tanh_cell", {{2, 3}, {2, 2}}, param_shapes(1, 3, 2, 1, 1, false),
       [](const variable_list& x) { return variable_list{rnn_tanh_cell(x[0], x[1], x[2], x[3])}; }),
    op("rnn_relu_cell", {{2, 3}, {2, 2}}, param_shapes(1, 3, 2, 1, 1, true),
       [](const variable_list& x) { return variable_list{rnn_relu_cell(x[0], x[1], x[2], x[3], x[4], x[5])}; }),
});

}  // namespace
}  // namespace torch::testing
