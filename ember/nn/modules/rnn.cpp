#include "ember/nn/modules/rnn.h"

#include <cmath>

#include "ember/autograd/grad_mode.h"
#include "ember/nn/init.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/index/indexing.h"
#include "ember/ops/shape/view.h"

namespace torch::nn {
namespace detail {

namespace {

const char* module_name(RNNMode mode) {
  switch (mode) {
    case RNNMode::kLSTM:
      return "LSTM";
    case RNNMode::kGRU:
      return "GRU";
    default:
      return "RNN";
  }
}

int64_t gate_size(const RNNOptionsBase& o) {
  return o.hidden_size() * (o.mode() == RNNMode::kLSTM ? 4 : o.mode() == RNNMode::kGRU ? 3 : 1);
}

std::string sizes_str(IntArrayRef sizes) {
  std::string s = "[";
  for (size_t i = 0; i < sizes.size(); ++i) s += (i ? ", " : "") + std::to_string(sizes[i]);
  return s + "]";
}

}  // namespace

template <typename Derived>
RNNImplBase<Derived>::RNNImplBase(const RNNOptionsBase& options_) : options_base(options_) {
  reset();
}

template <typename Derived>
void RNNImplBase<Derived>::reset() {
  const RNNOptionsBase& o = options_base;
  const char* name = module_name(o.mode());
  EMBER_CHECK(o.dropout() >= 0 && o.dropout() <= 1, name,
              ": dropout should be a number in range [0, 1] representing the probability of an element being "
              "zeroed, got ",
              o.dropout());
  EMBER_CHECK(o.input_size() >= 0, name, ": input_size must be non-negative, got ", o.input_size());
  EMBER_CHECK(o.hidden_size() > 0, name, ": hidden_size must be greater than zero, got ", o.hidden_size());
  EMBER_CHECK(o.num_layers() > 0, name, ": num_layers must be greater than zero, got ", o.num_layers());
  EMBER_CHECK(o.proj_size() >= 0, name, ": proj_size should be a positive integer or zero to disable projections");
  EMBER_CHECK(o.proj_size() < o.hidden_size(), name,
              ": proj_size has to be smaller than hidden_size, got proj_size=", o.proj_size(),
              ", hidden_size=", o.hidden_size());
  flat_weights_.clear();
  flat_weights_names_.clear();
  const int64_t dirs = o.bidirectional() ? 2 : 1;
  const int64_t real_hidden = o.proj_size() > 0 ? o.proj_size() : o.hidden_size();
  for (int64_t layer = 0; layer < o.num_layers(); ++layer) {
    for (int64_t d = 0; d < dirs; ++d) {
      const int64_t layer_input = layer == 0 ? o.input_size() : real_hidden * dirs;
      const std::string suffix = "_l" + std::to_string(layer) + (d == 1 ? "_reverse" : "");
      std::vector<std::pair<std::string, Tensor>> params = {{"weight_ih" + suffix, empty({gate_size(o), layer_input})},
                                                            {"weight_hh" + suffix, empty({gate_size(o), real_hidden})}};
      if (o.bias()) {
        params.emplace_back("bias_ih" + suffix, empty({gate_size(o)}));
        params.emplace_back("bias_hh" + suffix, empty({gate_size(o)}));
      }
      if (o.proj_size() > 0) params.emplace_back("weight_hr" + suffix, empty({o.proj_size(), o.hidden_size()}));
      for (auto& [pname, value] : params) {
        flat_weights_.push_back(this->register_parameter(pname, value));
        flat_weights_names_.push_back(pname);
      }
    }
  }
  reset_parameters();
}

template <typename Derived>
void RNNImplBase<Derived>::reset_parameters() {
  const double stdv = 1.0 / std::sqrt(static_cast<double>(options_base.hidden_size()));
  for (Tensor& w : flat_weights_) init::uniform_(w, -stdv, stdv);
}

template <typename Derived>
void RNNImplBase<Derived>::pretty_print(std::ostream& stream) const {
  const RNNOptionsBase& o = options_base;
  stream << std::boolalpha << "torch::nn::" << module_name(o.mode()) << "(input_size=" << o.input_size()
         << ", hidden_size=" << o.hidden_size() << ", num_layers=" << o.num_layers() << ", bias=" << o.bias()
         << ", batch_first=" << o.batch_first() << ", dropout=" << o.dropout()
         << ", bidirectional=" << o.bidirectional();
  if (o.proj_size() > 0) stream << ", proj_size=" << o.proj_size();
  stream << ")";
}

template <typename Derived>
std::tuple<Tensor, std::vector<Tensor>> RNNImplBase<Derived>::run(const Tensor& input, const Tensor& batch_sizes,
                                                                  const Tensor& sorted_indices,
                                                                  const Tensor& unsorted_indices,
                                                                  std::vector<Tensor> hx) {
  const RNNOptionsBase& o = options_base;
  const char* name = module_name(o.mode());
  const bool packed = batch_sizes.defined();
  const bool lstm_mode = o.mode() == RNNMode::kLSTM;
  Tensor x = input;
  bool batched = true;
  const int64_t batch_dim = o.batch_first() ? 0 : 1;
  EMBER_CHECK(x.defined(), name, ": input is undefined");
  if (packed) {
    EMBER_CHECK(x.dim() == 2, name, ": input must have 2 dimensions, got ", x.dim());
  } else {
    EMBER_CHECK(x.dim() == 2 || x.dim() == 3, name, ": Expected input to be 2-D or 3-D but received ", x.dim(),
                "-D tensor");
    batched = x.dim() == 3;
    for (const Tensor& h : hx)
      EMBER_CHECK(h.dim() == x.dim(), name, ": For ", batched ? "batched 3-D" : "unbatched 2-D", " input, hx",
                  lstm_mode ? " and cx" : "", " should also be ", x.dim(), "-D but got ", h.dim(), "-D tensor");
    if (!batched) {
      x = x.unsqueeze(batch_dim);
      for (Tensor& h : hx) h = h.unsqueeze(1);
    }
  }
  EMBER_CHECK(x.size(-1) == o.input_size(), name, ": input.size(-1) must be equal to input_size. Expected ",
              o.input_size(), ", got ", x.size(-1));
  EMBER_CHECK(x.dtype() == flat_weights_[0].dtype(), name, ": input must have the type ", flat_weights_[0].dtype(),
              ", got type ", x.dtype());
  const int64_t batch = packed ? batch_sizes[0].template item<int64_t>() : x.size(batch_dim);
  const int64_t states = o.num_layers() * (o.bidirectional() ? 2 : 1);
  const int64_t real_hidden = o.proj_size() > 0 ? o.proj_size() : o.hidden_size();
  std::vector<std::vector<int64_t>> expected = {{states, batch, real_hidden}};
  if (lstm_mode) expected.push_back({states, batch, o.hidden_size()});
  if (hx.empty()) {
    for (const auto& sizes : expected) hx.push_back(zeros(sizes, x.options()));
  } else {
    for (size_t i = 0; i < hx.size(); ++i) {
      EMBER_CHECK(hx[i].sizes() == IntArrayRef(expected[i]), name, ": Expected hidden",
                  lstm_mode ? "[" + std::to_string(i) + "]" : std::string(), " size ", sizes_str(expected[i]), ", got ",
                  sizes_str(hx[i].sizes()));
      EMBER_CHECK(hx[i].dtype() == x.dtype(), name, ": hidden state has dtype ", hx[i].dtype(), " but input has dtype ",
                  x.dtype());
      // The batch inside a PackedSequence is sorted by length; the caller's state is not.
      if (packed && sorted_indices.defined()) hx[i] = index_select(hx[i], 1, sorted_indices);
    }
  }
  const bool train = this->is_training();
  Tensor output;
  std::vector<Tensor> out_states;
  const TensorList w = flat_weights_;
  if (lstm_mode) {
    auto [out, h, c] =
        packed ? lstm(x, batch_sizes, hx, w, o.bias(), o.num_layers(), o.dropout(), train, o.bidirectional())
               : lstm(x, hx, w, o.bias(), o.num_layers(), o.dropout(), train, o.bidirectional(), o.batch_first());
    output = out;
    out_states = {h, c};
  } else {
    using Fn = std::tuple<Tensor, Tensor> (*)(const Tensor&, const Tensor&, TensorList, bool, int64_t, double, bool,
                                              bool, bool);
    using PackedFn = std::tuple<Tensor, Tensor> (*)(const Tensor&, const Tensor&, const Tensor&, TensorList, bool,
                                                    int64_t, double, bool, bool);
    Fn fn = o.mode() == RNNMode::kGRU ? Fn(&gru) : o.mode() == RNNMode::kRNN_RELU ? Fn(&rnn_relu) : Fn(&rnn_tanh);
    PackedFn packed_fn = o.mode() == RNNMode::kGRU        ? PackedFn(&gru)
                         : o.mode() == RNNMode::kRNN_RELU ? PackedFn(&rnn_relu)
                                                          : PackedFn(&rnn_tanh);
    auto [out, h] =
        packed ? packed_fn(x, batch_sizes, hx[0], w, o.bias(), o.num_layers(), o.dropout(), train, o.bidirectional())
               : fn(x, hx[0], w, o.bias(), o.num_layers(), o.dropout(), train, o.bidirectional(), o.batch_first());
    output = out;
    out_states = {h};
  }
  for (Tensor& s : out_states) {
    if (packed && unsorted_indices.defined()) s = index_select(s, 1, unsorted_indices);
    if (!batched) s = s.squeeze(1);
  }
  if (!batched) output = output.squeeze(batch_dim);
  return {output, out_states};
}

template class RNNImplBase<RNNImpl>;
template class RNNImplBase<LSTMImpl>;
template class RNNImplBase<GRUImpl>;

}  // namespace detail

namespace {

// What the three options share, as the modules' common base.
template <typename Options>
detail::RNNOptionsBase base_of(detail::RNNMode mode, const Options& o) {
  return detail::RNNOptionsBase(mode, o.input_size(), o.hidden_size())
      .num_layers(o.num_layers())
      .bias(o.bias())
      .batch_first(o.batch_first())
      .dropout(o.dropout())
      .bidirectional(o.bidirectional());
}
detail::RNNOptionsBase base_of(const RNNOptions& o) {
  const bool relu = std::holds_alternative<enumtype::kReLU>(o.nonlinearity());
  return base_of(relu ? detail::RNNMode::kRNN_RELU : detail::RNNMode::kRNN_TANH, o);
}
detail::RNNOptionsBase base_of(const LSTMOptions& o) {
  return base_of(detail::RNNMode::kLSTM, o).proj_size(o.proj_size());
}
detail::RNNOptionsBase base_of(const GRUOptions& o) { return base_of(detail::RNNMode::kGRU, o); }

std::vector<Tensor> state_list(const Tensor& hx) {
  return hx.defined() ? std::vector<Tensor>{hx} : std::vector<Tensor>{};
}
std::vector<Tensor> state_list(const std::optional<std::tuple<Tensor, Tensor>>& hx) {
  if (!hx) return {};
  return {std::get<0>(*hx), std::get<1>(*hx)};
}

}  // namespace

RNNImpl::RNNImpl(const RNNOptions& options_) : RNNImplBase(base_of(options_)), options(options_) {}

std::tuple<Tensor, Tensor> RNNImpl::forward(const Tensor& input, Tensor hx) {
  auto [out, states] = run(input, {}, {}, {}, state_list(hx));
  return {out, states[0]};
}

std::tuple<PackedSequence, Tensor> RNNImpl::forward_with_packed_input(const PackedSequence& packed_input, Tensor hx) {
  const PackedSequence& p = packed_input;
  auto [out, states] = run(p.data(), p.batch_sizes(), p.sorted_indices(), p.unsorted_indices(), state_list(hx));
  return {PackedSequence(out, p.batch_sizes(), p.sorted_indices(), p.unsorted_indices()), states[0]};
}

LSTMImpl::LSTMImpl(const LSTMOptions& options_) : RNNImplBase(base_of(options_)), options(options_) {}

std::tuple<Tensor, std::tuple<Tensor, Tensor>> LSTMImpl::forward(const Tensor& input,
                                                                 std::optional<std::tuple<Tensor, Tensor>> hx_opt) {
  auto [out, states] = run(input, {}, {}, {}, state_list(hx_opt));
  return {out, {states[0], states[1]}};
}

std::tuple<PackedSequence, std::tuple<Tensor, Tensor>> LSTMImpl::forward_with_packed_input(
    const PackedSequence& packed_input, std::optional<std::tuple<Tensor, Tensor>> hx_opt) {
  const PackedSequence& p = packed_input;
  auto [out, states] = run(p.data(), p.batch_sizes(), p.sorted_indices(), p.unsorted_indices(), state_list(hx_opt));
  return {PackedSequence(out, p.batch_sizes(), p.sorted_indices(), p.unsorted_indices()), {states[0], states[1]}};
}

GRUImpl::GRUImpl(const GRUOptions& options_) : RNNImplBase(base_of(options_)), options(options_) {}

std::tuple<Tensor, Tensor> GRUImpl::forward(const Tensor& input, Tensor hx) {
  auto [out, states] = run(input, {}, {}, {}, state_list(hx));
  return {out, states[0]};
}

std::tuple<PackedSequence, Tensor> GRUImpl::forward_with_packed_input(const PackedSequence& packed_input, Tensor hx) {
  const PackedSequence& p = packed_input;
  auto [out, states] = run(p.data(), p.batch_sizes(), p.sorted_indices(), p.unsorted_indices(), state_list(hx));
  return {PackedSequence(out, p.batch_sizes(), p.sorted_indices(), p.unsorted_indices()), states[0]};
}

}  // namespace torch::nn
