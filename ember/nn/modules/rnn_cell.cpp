// The single-step modules RNNCell, LSTMCell, GRUCell (declared in rnn.h).
#include <cmath>

#include "ember/nn/init.h"
#include "ember/nn/modules/rnn.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/shape/view.h"

namespace torch::nn {
namespace detail {

template <typename Derived>
RNNCellImplBase<Derived>::RNNCellImplBase(const RNNCellOptionsBase& options_) : options_base(options_) {
  reset();
}

template <typename Derived>
void RNNCellImplBase<Derived>::reset() {
  const RNNCellOptionsBase& o = options_base;
  EMBER_CHECK(o.input_size() >= 0 && o.hidden_size() > 0,
              "RNNCell: input_size must be non-negative and hidden_size positive, got input_size=", o.input_size(),
              ", hidden_size=", o.hidden_size());
  const int64_t gates = o.num_chunks() * o.hidden_size();
  weight_ih = this->register_parameter("weight_ih", empty({gates, o.input_size()}));
  weight_hh = this->register_parameter("weight_hh", empty({gates, o.hidden_size()}));
  if (o.bias()) {
    bias_ih = this->register_parameter("bias_ih", empty({gates}));
    bias_hh = this->register_parameter("bias_hh", empty({gates}));
  } else {
    bias_ih = this->register_parameter("bias_ih", {}, /*requires_grad=*/false);
    bias_hh = this->register_parameter("bias_hh", {}, /*requires_grad=*/false);
  }
  reset_parameters();
}

template <typename Derived>
void RNNCellImplBase<Derived>::reset_parameters() {
  const double stdv = 1.0 / std::sqrt(static_cast<double>(options_base.hidden_size()));
  for (Tensor* w : {&weight_ih, &weight_hh, &bias_ih, &bias_hh})
    if (w->defined()) init::uniform_(*w, -stdv, stdv);
}

template <typename Derived>
void RNNCellImplBase<Derived>::pretty_print(std::ostream& stream) const {
  const char* name = options_base.num_chunks() == 4   ? "LSTMCell"
                     : options_base.num_chunks() == 3 ? "GRUCell"
                                                      : "RNNCell";
  stream << "torch::nn::" << name << "(" << options_base.input_size() << ", " << options_base.hidden_size();
  if (!options_base.bias()) stream << ", bias=" << std::boolalpha << false;
  const std::string nonlinearity = get_nonlinearity_str();
  if (!nonlinearity.empty() && nonlinearity != "kTanh") stream << ", nonlinearity=" << nonlinearity;
  stream << ")";
}

template <typename Derived>
std::tuple<Tensor, bool> RNNCellImplBase<Derived>::batched_input(const Tensor& input, const char* name) const {
  EMBER_CHECK(input.defined() && (input.dim() == 1 || input.dim() == 2), name,
              ": Expected input to be 1-D or 2-D but received ", input.defined() ? input.dim() : 0, "-D tensor");
  EMBER_CHECK(input.dtype() == weight_ih.dtype(), name, ": input must have the type ", weight_ih.dtype(), ", got type ",
              input.dtype());
  const bool batched = input.dim() == 2;
  return {batched ? input : input.unsqueeze(0), batched};
}

template <typename Derived>
Tensor RNNCellImplBase<Derived>::batched_state(const Tensor& hx, const Tensor& input, bool batched, int64_t size,
                                               const char* name) const {
  if (!hx.defined()) return zeros({input.size(0), size}, input.options());
  EMBER_CHECK(hx.dim() == (batched ? 2 : 1), name, ": Expected hidden state to be ", batched ? 2 : 1, "-D for ",
              batched ? "batched" : "unbatched", " input, but got ", hx.dim(), "-D tensor of shape ", hx.sizes());
  return batched ? hx : hx.unsqueeze(0);
}

template class RNNCellImplBase<RNNCellImpl>;
template class RNNCellImplBase<LSTMCellImpl>;
template class RNNCellImplBase<GRUCellImpl>;

}  // namespace detail

RNNCellImpl::RNNCellImpl(const RNNCellOptions& options_)
    : RNNCellImplBase({options_.input_size(), options_.hidden_size(), options_.bias(), 1}), options(options_) {}

std::string RNNCellImpl::get_nonlinearity_str() const {
  return std::holds_alternative<enumtype::kReLU>(options.nonlinearity()) ? "kReLU" : "kTanh";
}

Tensor RNNCellImpl::forward(const Tensor& input, Tensor hx) {
  auto [x, batched] = batched_input(input, "RNNCell");
  const Tensor h = batched_state(hx, x, batched, options_base.hidden_size(), "RNNCell");
  const Tensor out = std::holds_alternative<enumtype::kReLU>(options.nonlinearity())
                         ? rnn_relu_cell(x, h, weight_ih, weight_hh, bias_ih, bias_hh)
                         : rnn_tanh_cell(x, h, weight_ih, weight_hh, bias_ih, bias_hh);
  return batched ? out : out.squeeze(0);
}

LSTMCellImpl::LSTMCellImpl(const LSTMCellOptions& options_)
    : RNNCellImplBase({options_.input_size(), options_.hidden_size(), options_.bias(), 4}), options(options_) {}

std::tuple<Tensor, Tensor> LSTMCellImpl::forward(const Tensor& input,
                                                 std::optional<std::tuple<Tensor, Tensor>> hx_opt) {
  auto [x, batched] = batched_input(input, "LSTMCell");
  const int64_t hs = options_base.hidden_size();
  const Tensor h = batched_state(hx_opt ? std::get<0>(*hx_opt) : Tensor(), x, batched, hs, "LSTMCell");
  const Tensor c = batched_state(hx_opt ? std::get<1>(*hx_opt) : Tensor(), x, batched, hs, "LSTMCell");
  auto [h1, c1] = lstm_cell(x, {h, c}, weight_ih, weight_hh, bias_ih, bias_hh);
  if (!batched) return {h1.squeeze(0), c1.squeeze(0)};
  return {h1, c1};
}

GRUCellImpl::GRUCellImpl(const GRUCellOptions& options_)
    : RNNCellImplBase({options_.input_size(), options_.hidden_size(), options_.bias(), 3}), options(options_) {}

Tensor GRUCellImpl::forward(const Tensor& input, Tensor hx) {
  auto [x, batched] = batched_input(input, "GRUCell");
  const Tensor h = batched_state(hx, x, batched, options_base.hidden_size(), "GRUCell");
  const Tensor out = gru_cell(x, h, weight_ih, weight_hh, bias_ih, bias_hh);
  return batched ? out : out.squeeze(0);
}

}  // namespace torch::nn
