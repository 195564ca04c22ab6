// RNN/LSTM/GRU modules and cells against PyTorch (tools/golden/gen_rnn.py): PyTorch's weights
// are loaded into Ember modules by their state_dict names, then outputs, final states and the
// gradients of every parameter and of the input are compared. Also packed sequences and the
// packing utilities, parameter shapes and init, errors. gradcheck/gradgradcheck of the ops the
// modules call are OpInfo entries (tests/autograd/opinfo_rnn.cpp).
#include <gtest/gtest.h>

#include <cmath>
#include <set>
#include <sstream>

#include "common/golden.h"
#include "common/test_util.h"
#include "ember/torch.h"

namespace rnn_test {

using namespace torch::nn;
using ember::testing::Golden;
namespace rnn_utils = torch::nn::utils::rnn;

const Golden& golden() {
  static const Golden g("rnn.golden");
  return g;
}

// Loads `name`.param.* into the module by state_dict name; the sets of names must agree.
template <typename M>
void load(M& m, const std::string& name) {
  const std::string prefix = name + ".param.";
  std::set<std::string> expected;
  for (const auto& k : golden().names_with_prefix(prefix)) expected.insert(k.substr(prefix.size()));
  std::set<std::string> actual;
  torch::NoGradGuard no_grad;
  for (auto& p : m->named_parameters()) {
    actual.insert(p.key());
    const torch::Tensor v = golden()[prefix + p.key()];
    ASSERT_EQ(p.value().sizes().vec(), v.sizes().vec()) << p.key();
    p.value().copy_(v);
  }
  EXPECT_EQ(actual, expected);
}

torch::Tensor g(const std::string& name) { return golden()[name]; }

// loss = sum_i (outs[i] * gout_i).sum(), as the generator's backward_weighted.
void backward_weighted(const std::string& name, const std::vector<torch::Tensor>& outs) {
  torch::Tensor loss = torch::zeros({}, outs[0].options());
  for (size_t i = 0; i < outs.size(); ++i) loss = loss + (outs[i] * g(name + ".gout" + std::to_string(i))).sum();
  loss.backward();
}

template <typename M>
void expect_grads(M& m, const std::string& name, const torch::Tensor& x) {
  for (auto& p : m->named_parameters()) {
    ASSERT_TRUE(p.value().grad().defined()) << p.key();
    EXPECT_TENSOR_CLOSE(p.value().grad(), g(name + ".grad." + p.key())) << name << " " << p.key();
  }
  EXPECT_TENSOR_CLOSE(x.grad(), g(name + ".grad.x")) << name;
}

torch::Tensor input_of(const std::string& name) { return g(name + ".x").clone().requires_grad_(true); }

template <typename M>
void single_state_case(M m, const std::string& name, bool with_state) {
  m->to(g(name + ".x").scalar_type());
  load(m, name);
  torch::Tensor x = input_of(name);
  auto [out, h_n] = with_state ? m(x, g(name + ".h0")) : m(x);
  EXPECT_TENSOR_CLOSE(out, g(name + ".out")) << name;
  EXPECT_TENSOR_CLOSE(h_n, g(name + ".h_n")) << name;
  backward_weighted(name, {out, h_n});
  expect_grads(m, name, x);
}

void lstm_case(LSTM m, const std::string& name, bool with_state) {
  m->to(g(name + ".x").scalar_type());
  load(m, name);
  torch::Tensor x = input_of(name);
  std::optional<std::tuple<torch::Tensor, torch::Tensor>> hx;
  if (with_state) hx = std::make_tuple(g(name + ".h0"), g(name + ".c0"));
  auto [out, state] = m(x, hx);
  auto [h_n, c_n] = state;
  const double tol = out.scalar_type() == torch::kFloat32 ? 1e-5 : 1e-10;
  EXPECT_TENSOR_CLOSE_TOL(out, g(name + ".out"), tol, tol) << name;
  EXPECT_TENSOR_CLOSE_TOL(h_n, g(name + ".h_n"), tol, tol) << name;
  EXPECT_TENSOR_CLOSE_TOL(c_n, g(name + ".c_n"), tol, tol) << name;
  backward_weighted(name, {out, h_n, c_n});
  for (auto& p : m->named_parameters())
    EXPECT_TENSOR_CLOSE_TOL(p.value().grad(), g(name + ".grad." + p.key()), tol * 10, tol * 10) << p.key();
  EXPECT_TENSOR_CLOSE_TOL(x.grad(), g(name + ".grad.x"), tol * 10, tol * 10);
}

TEST(NNRNN, RNNGolden) {
  single_state_case(RNN(RNNOptions(4, 5).num_layers(2)), "rnn_tanh_2l", true);
  single_state_case(RNN(RNNOptions(4, 5).nonlinearity(torch::kReLU).bidirectional(true).batch_first(true)),
                    "rnn_relu_bi_bf", false);
  single_state_case(RNN(RNNOptions(4, 5).bias(false)), "rnn_nobias_unbatched", true);
}

TEST(NNRNN, LSTMGolden) {
  lstm_case(LSTM(LSTMOptions(4, 5).num_layers(2).bidirectional(true)), "lstm_2l_bi", true);
  lstm_case(LSTM(LSTMOptions(4, 5).batch_first(true)), "lstm_f32", false);
  lstm_case(LSTM(LSTMOptions(4, 6).proj_size(3).num_layers(2)), "lstm_proj", true);
  lstm_case(LSTM(LSTMOptions(4, 5).bidirectional(true)), "lstm_unbatched", false);
}

TEST(NNRNN, GRUGolden) {
  single_state_case(GRU(GRUOptions(4, 5).num_layers(2).bidirectional(true).batch_first(true)), "gru_2l_bi_bf", true);
  single_state_case(GRU(GRUOptions(4, 5)), "gru_unbatched", true);
}

// Packs the padded golden input with its lengths, runs the module on the PackedSequence, checks
// the packed output data, the re-padded output, the states and the gradients.
template <typename M>
void packed_case(M m, const std::string& name, bool enforce_sorted, int states) {
  m->to(torch::kFloat64);
  load(m, name);
  torch::Tensor x = input_of(name);
  auto packed = rnn_utils::pack_padded_sequence(x, g(name + ".lengths"), false, enforce_sorted);
  std::vector<torch::Tensor> outs;
  std::optional<rnn_utils::PackedSequence> out_packed;
  if constexpr (std::is_same_v<M, LSTM>) {
    auto [o, st] = m->forward_with_packed_input(packed, std::make_tuple(g(name + ".h0"), g(name + ".c0")));
    out_packed = o;
    outs = {std::get<0>(st), std::get<1>(st)};
  } else {
    auto [o, h] = golden().has(name + ".h0") ? m->forward_with_packed_input(packed, g(name + ".h0"))
                                             : m->forward_with_packed_input(packed);
    out_packed = o;
    outs = {h};
  }
  EXPECT_TENSOR_CLOSE(out_packed->data(), g(name + ".out_data")) << name;
  auto [out, lengths] = rnn_utils::pad_packed_sequence(*out_packed);
  EXPECT_TENSOR_CLOSE(out, g(name + ".out")) << name;
  EXPECT_TENSOR_EQ(lengths, g(name + ".out_lengths"));
  EXPECT_TENSOR_CLOSE(outs[0], g(name + ".h_n")) << name;
  if (states == 2) EXPECT_TENSOR_CLOSE(outs[1], g(name + ".c_n")) << name;
  outs.insert(outs.begin(), out);
  backward_weighted(name, outs);
  expect_grads(m, name, x);
}

TEST(NNRNN, PackedGolden) {
  packed_case(LSTM(LSTMOptions(4, 5).num_layers(2).bidirectional(true)), "lstm_packed", false, 2);
  packed_case(GRU(GRUOptions(4, 5).bidirectional(true)), "gru_packed", false, 1);
  packed_case(RNN(RNNOptions(4, 5).num_layers(2)), "rnn_packed", true, 1);
}

template <typename M>
void cell_case(M m, const std::string& name) {
  m->to(torch::kFloat64);
  load(m, name);
  torch::Tensor x = input_of(name);
  std::vector<torch::Tensor> outs;
  const bool has_state = golden().has(name + ".h0");
  if constexpr (std::is_same_v<M, LSTMCell>) {
    std::optional<std::tuple<torch::Tensor, torch::Tensor>> hx;
    if (has_state) hx = std::make_tuple(g(name + ".h0"), g(name + ".c0"));
    auto [h, c] = m(x, hx);
    outs = {h, c};
  } else {
    outs = {has_state ? m(x, g(name + ".h0")) : m(x)};
  }
  for (size_t i = 0; i < outs.size(); ++i)
    EXPECT_TENSOR_CLOSE(outs[i], g(name + ".out" + std::to_string(i))) << name << " output " << i;
  backward_weighted(name, outs);
  expect_grads(m, name, x);
}

TEST(NNRNN, CellsGolden) {
  cell_case(RNNCell(4, 5), "rnncell");
  cell_case(RNNCell(RNNCellOptions(4, 5).nonlinearity(torch::kReLU)), "rnncell_relu_unbatched");
  cell_case(LSTMCell(4, 5), "lstmcell");
  cell_case(LSTMCell(LSTMCellOptions(4, 5).bias(false)), "lstmcell_unbatched");
  cell_case(GRUCell(4, 5), "grucell");
  cell_case(GRUCell(4, 5), "grucell_unbatched");
}

// The module paths on top of the ops (unbatched input, the packed batch's permutation of the
// states) in float64: gradients with respect to the input and the initial states.
TEST(NNRNN, ModuleGradcheck) {
  torch::manual_seed(5);
  auto opts = torch::TensorOptions().dtype(torch::kFloat64).requires_grad(true);
  const torch::Tensor lengths = torch::tensor({2, 3, 1});
  LSTM lstm(LSTMOptions(2, 2).bidirectional(true));
  lstm->to(torch::kFloat64);
  EXPECT_EQ(torch::autograd::gradcheck(
                [&](const torch::autograd::variable_list& in) {
                  auto packed = rnn_utils::pack_padded_sequence(in[0], lengths, false, false);
                  auto [out, st] = lstm->forward_with_packed_input(packed, std::make_tuple(in[1], in[2]));
                  auto padded = std::get<0>(rnn_utils::pad_packed_sequence(out));
                  return torch::autograd::variable_list{padded, std::get<0>(st), std::get<1>(st)};
                },
                {torch::randn({3, 3, 2}, opts), torch::randn({2, 3, 2}, opts), torch::randn({2, 3, 2}, opts)}),
            "");
  GRU gru(GRUOptions(2, 3).num_layers(2).batch_first(true));
  gru->to(torch::kFloat64);
  EXPECT_EQ(torch::autograd::gradcheck(
                [&](const torch::autograd::variable_list& in) {
                  auto [out, h] = gru(in[0], in[1]);
                  return torch::autograd::variable_list{out, h};
                },
                {torch::randn({2, 3, 2}, opts), torch::randn({2, 2, 3}, opts)}),
            "");
  RNN rnn(RNNOptions(2, 3));
  rnn->to(torch::kFloat64);
  EXPECT_EQ(torch::autograd::gradcheck(
                [&](const torch::autograd::variable_list& in) {
                  auto [out, h] = rnn(in[0], in[1]);  // unbatched
                  return torch::autograd::variable_list{out, h};
                },
                {torch::randn({4, 2}, opts), torch::randn({1, 3}, opts)}),
            "");
}

TEST(NNRNN, PackingUtilities) {
  std::vector<torch::Tensor> seqs = {g("util.seq0"), g("util.seq1"), g("util.seq2")};
  EXPECT_TENSOR_EQ(rnn_utils::pad_sequence(seqs), g("util.pad_sequence"));
  EXPECT_TENSOR_EQ(rnn_utils::pad_sequence(seqs, true, -1.5), g("util.pad_sequence_bf"));
  auto packed = rnn_utils::pack_sequence(seqs, false);
  EXPECT_TENSOR_EQ(packed.data(), g("util.pack_sequence.data"));
  EXPECT_TENSOR_EQ(packed.batch_sizes(), g("util.pack_sequence.batch_sizes"));
  EXPECT_TENSOR_EQ(packed.sorted_indices(), g("util.pack_sequence.sorted_indices"));
  EXPECT_TENSOR_EQ(packed.unsorted_indices(), g("util.pack_sequence.unsorted_indices"));
  auto [padded, lengths] = rnn_utils::pad_packed_sequence(packed, true, 7.0, 6);
  EXPECT_TENSOR_EQ(padded, g("util.pad_packed.padded"));
  EXPECT_TENSOR_EQ(lengths, g("util.pad_packed.lengths"));
  auto bf = rnn_utils::pack_padded_sequence(g("util.bf.x"), torch::tensor({4, 2, 3}), true, false);
  EXPECT_TENSOR_EQ(bf.data(), g("util.bf.data"));
  EXPECT_TENSOR_EQ(bf.batch_sizes(), g("util.bf.batch_sizes"));
  // Gradients flow back through pack/pad to the padded input (zero on the padding).
  torch::Tensor x = g("util.bf.x").clone().requires_grad_(true);
  auto p = rnn_utils::pack_padded_sequence(x, torch::tensor({4, 2, 3}), true, false);
  std::get<0>(rnn_utils::pad_packed_sequence(p, true)).sum().backward();
  EXPECT_DOUBLE_EQ(x.grad().sum().item<double>(), 9 * 2);
  EXPECT_DOUBLE_EQ(x.grad()[1][3][0].item<double>(), 0.0);
}

TEST(NNRNN, ParameterNamesShapesAndInit) {
  LSTM lstm(LSTMOptions(3, 4).num_layers(2).bidirectional(true).proj_size(2));
  std::vector<std::string> names;
  for (const auto& p : lstm->named_parameters()) names.push_back(p.key());
  // PyTorch's order: per layer, per direction, w_ih, w_hh, b_ih, b_hh, w_hr.
  const std::vector<std::string> expected = {
      "weight_ih_l0",         "weight_hh_l0",         "bias_ih_l0",           "bias_hh_l0",
      "weight_hr_l0",         "weight_ih_l0_reverse", "weight_hh_l0_reverse", "bias_ih_l0_reverse",
      "bias_hh_l0_reverse",   "weight_hr_l0_reverse", "weight_ih_l1",         "weight_hh_l1",
      "bias_ih_l1",           "bias_hh_l1",           "weight_hr_l1",         "weight_ih_l1_reverse",
      "weight_hh_l1_reverse", "bias_ih_l1_reverse",   "bias_hh_l1_reverse",   "weight_hr_l1_reverse"};
  EXPECT_EQ(names, expected);
  EXPECT_EQ(lstm->named_parameters()["weight_ih_l1"].sizes().vec(), (std::vector<int64_t>{16, 4}));
  EXPECT_EQ(lstm->named_parameters()["weight_hh_l1"].sizes().vec(), (std::vector<int64_t>{16, 2}));
  EXPECT_EQ(lstm->named_parameters()["weight_hr_l1"].sizes().vec(), (std::vector<int64_t>{2, 4}));
  EXPECT_EQ(lstm->all_weights().size(), 20u);

  GRU gru(GRUOptions(3, 100).bias(false));
  EXPECT_EQ(gru->parameters().size(), 2u);
  EXPECT_EQ(gru->named_parameters()["weight_ih_l0"].sizes().vec(), (std::vector<int64_t>{300, 3}));
  const double bound = 1.0 / std::sqrt(100.0);
  for (const auto& p : gru->parameters()) {
    EXPECT_LE(p.abs().max().item<float>(), bound);
    EXPECT_GT(p.abs().max().item<float>(), 0.9 * bound);
  }
  RNNCell cell(RNNCellOptions(3, 4).bias(false));
  EXPECT_EQ(cell->parameters().size(), 2u);
  EXPECT_FALSE(cell->bias_ih.defined());
}

TEST(NNRNN, PrettyPrint) {
  auto printed = [](const auto& m) {
    std::ostringstream os;
    os << *m;
    return os.str();
  };
  EXPECT_EQ(printed(LSTM(LSTMOptions(128, 256).num_layers(2).dropout(0.5))),
            "torch::nn::LSTM(input_size=128, hidden_size=256, num_layers=2, bias=true, batch_first=false, "
            "dropout=0.5, bidirectional=false)");
  EXPECT_EQ(printed(GRU(GRUOptions(3, 4).bidirectional(true).batch_first(true))),
            "torch::nn::GRU(input_size=3, hidden_size=4, num_layers=1, bias=true, batch_first=true, dropout=0, "
            "bidirectional=true)");
  EXPECT_EQ(printed(LSTM(LSTMOptions(3, 4).proj_size(2))),
            "torch::nn::LSTM(input_size=3, hidden_size=4, num_layers=1, bias=true, batch_first=false, dropout=0, "
            "bidirectional=false, proj_size=2)");
  EXPECT_EQ(printed(RNNCell(RNNCellOptions(3, 4).bias(false).nonlinearity(torch::kReLU))),
            "torch::nn::RNNCell(3, 4, bias=false, nonlinearity=kReLU)");
  EXPECT_EQ(printed(LSTMCell(3, 4)), "torch::nn::LSTMCell(3, 4)");
}

TEST(NNRNN, DropoutBetweenLayersOnlyInTraining) {
  torch::manual_seed(3);
  LSTM lstm(LSTMOptions(3, 4).num_layers(2).dropout(1.0));
  torch::Tensor x = torch::randn({5, 2, 3});
  lstm->eval();
  auto eval_out = std::get<0>(lstm(x));
  EXPECT_TENSOR_EQ(std::get<0>(lstm(x)), eval_out);
  lstm->train();
  // p = 1 zeroes the first layer's output, so the second layer sees only zeros: its output
  // then depends on nothing but its own weights, the same for every batch element.
  auto train_out = std::get<0>(lstm(x));
  EXPECT_FALSE(torch::allclose(train_out, eval_out));
  EXPECT_TENSOR_EQ(train_out.select(1, 0), train_out.select(1, 1));
  // A single layer has no dropout even when training.
  LSTM one(LSTMOptions(3, 4).dropout(1.0));
  one->eval();
  auto a = std::get<0>(one(x));
  one->train();
  EXPECT_TENSOR_EQ(std::get<0>(one(x)), a);
}

TEST(NNRNN, CloneIsDeep) {
  GRU gru(GRUOptions(3, 4).num_layers(2));
  auto copy = std::dynamic_pointer_cast<GRUImpl>(gru->clone());
  ASSERT_TRUE(copy);
  torch::Tensor x = torch::randn({2, 1, 3});
  EXPECT_TENSOR_EQ(std::get<0>(copy->forward(x)), std::get<0>(gru(x)));
  {
    torch::NoGradGuard no_grad;
    copy->named_parameters()["weight_hh_l1"].fill_(0.25);
  }
  EXPECT_FALSE(torch::allclose(std::get<0>(copy->forward(x)), std::get<0>(gru(x))));
}

TEST(NNRNN, Errors) {
  LSTM lstm(LSTMOptions(4, 5).num_layers(2));
  EXPECT_EMBER_ERROR(lstm(torch::randn({6, 3, 3})), "LSTM", "input.size(-1) must be equal to input_size",
                     "Expected 4, got 3");
  EXPECT_EMBER_ERROR(lstm(torch::randn({6, 3, 4, 1})), "LSTM", "Expected input to be 2-D or 3-D", "4-D");
  EXPECT_EMBER_ERROR(lstm(torch::randn({6, 3, 4}), std::make_tuple(torch::zeros({2, 3, 4}), torch::zeros({2, 3, 5}))),
                     "LSTM", "Expected hidden[0] size [2, 3, 5], got [2, 3, 4]");
  EXPECT_EMBER_ERROR(lstm(torch::randn({6, 3, 4}), std::make_tuple(torch::zeros({2, 3, 5}), torch::zeros({1, 3, 5}))),
                     "Expected hidden[1] size [2, 3, 5], got [1, 3, 5]");
  EXPECT_EMBER_ERROR(lstm(torch::randn({6, 4}), std::make_tuple(torch::zeros({2, 1, 5}), torch::zeros({2, 1, 5}))),
                     "For unbatched 2-D input, hx and cx should also be 2-D but got 3-D tensor");
  EXPECT_EMBER_ERROR(lstm(torch::randn({6, 3, 4}, torch::kFloat64)), "LSTM", "input must have the type float32",
                     "float64");
  GRU gru(GRUOptions(4, 5).bidirectional(true));
  EXPECT_EMBER_ERROR(gru(torch::randn({6, 3, 4}), torch::zeros({1, 3, 5})), "GRU",
                     "Expected hidden size [2, 3, 5], got [1, 3, 5]");
  EXPECT_EMBER_ERROR(gru(torch::randn({6, 3, 4}), torch::zeros({2, 5})),
                     "For batched 3-D input, hx should also be 3-D");
  EXPECT_EMBER_ERROR(RNN(RNNOptions(4, 5).dropout(1.5)), "RNN", "dropout should be a number in range [0, 1]");
  EXPECT_EMBER_ERROR(LSTM(LSTMOptions(4, 5).proj_size(5)), "proj_size has to be smaller than hidden_size");
  EXPECT_EMBER_ERROR(rnn_utils::pack_padded_sequence(torch::randn({4, 3, 2}), torch::tensor({2, 3, 1})),
                     "pack_padded_sequence", "sorted in decreasing order");
  EXPECT_EMBER_ERROR(rnn_utils::pack_padded_sequence(torch::randn({4, 3, 2}), torch::tensor({5, 3, 1})),
                     "pack_padded_sequence", "exceeds");
  auto packed = rnn_utils::pack_padded_sequence(torch::randn({4, 3, 2}), torch::tensor({4, 3, 1}));
  EXPECT_EMBER_ERROR(rnn_utils::pad_packed_sequence(packed, false, 0.0, 2), "total_length");
  EXPECT_EMBER_ERROR(gru->forward_with_packed_input(packed), "GRU", "Expected 4, got 2");

  LSTMCell cell(4, 5);
  EXPECT_EMBER_ERROR(cell(torch::randn({3, 2})), "lstm_cell", "input has inconsistent input_size: got 2 expected 4");
  EXPECT_EMBER_ERROR(cell(torch::randn({3, 4}), std::make_tuple(torch::zeros({3, 4}), torch::zeros({3, 5}))),
                     "lstm_cell", "inconsistent hidden_size: got 4, expected 5");
  EXPECT_EMBER_ERROR(GRUCell(4, 5)(torch::randn({3, 4}), torch::zeros({2, 5})), "gru_cell",
                     "Input batch size 3 doesn't match hidden batch size 2");
  EXPECT_EMBER_ERROR(RNNCell(4, 5)(torch::randn({2, 3, 4})), "RNNCell", "Expected input to be 1-D or 2-D");
}

}  // namespace rnn_test
