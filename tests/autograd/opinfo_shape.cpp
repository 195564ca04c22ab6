// OpInfo entries for views and reductions (formulas: ember/autograd/derivatives/shape_grad.cpp, reduce_grad.cpp).
#include "opinfo.h"

namespace torch::testing {
namespace {

OpInfo op(const char* name, std::function<Tensor(const Tensor&)> f, std::vector<int64_t> shape,
          const char* grad_fn = "") {
  OpInfo o;
  o.name = name;
  o.fn = [f](const variable_list& x) { return variable_list{f(x[0])}; };
  o.samples = [shape] { return std::vector<variable_list>{{sample(shape, -2, 2, 31)}}; };
  o.grad_fn_name = grad_fn;
  return o;
}

// A multi-output view: every piece the function returns is an output
// (Note [Multi-output views]).
OpInfo pieces(const char* name, std::function<variable_list(const Tensor&)> f, std::vector<int64_t> shape,
              const char* grad_fn) {
  OpInfo o;
  o.name = name;
  o.fn = [f](const variable_list& x) { return f(x[0]); };
  o.samples = [shape] { return std::vector<variable_list>{{sample(shape, -2, 2, 37)}}; };
  o.grad_fn_name = grad_fn;
  return o;
}

RegisterOps reg_pieces({
    pieces(
        "unbind", [](const Tensor& x) { return x.unbind(1); }, {3, 4, 2}, "UnbindBackward0"),
    // self a permuted (dense) view: the gradient is built in its layout
    pieces(
        "unbind(permuted)",
        [](const Tensor& x) {
          return x.permute({2, 0, 1}).unbind(0);
        },
        {3, 4, 2}, "UnbindBackward0"),
    pieces(
        "split(all pieces)", [](const Tensor& x) { return x.split(2, 1); }, {3, 5}, "SplitBackward0"),
    // the middle piece unused: its part of the gradient is zero
    pieces(
        "split(some pieces)",
        [](const Tensor& x) {
          auto p = x.split(2, 1);  // three pieces; one when EdgeInputs empties dim 1
          return variable_list{p.back(), p.front()};
        },
        {3, 5}, "SplitBackward0"),
    pieces(
        "split_with_sizes",
        [](const Tensor& x) {
          return x.split_with_sizes({1, 3, 0, 1}, 0);
        },
        {5, 2}, "SplitWithSizesBackward0"),
    pieces(
        "chunk", [](const Tensor& x) { return x.t().chunk(2, -1); }, {5, 3}, "SplitBackward0"),
    // split points: one past the end and one before the previous give empty pieces
    pieces(
        "tensor_split(indices)",
        [](const Tensor& x) {
          return x.tensor_split({1, 4, 3}, 1);
        },
        {2, 5}, "SliceBackward0"),
    pieces(
        "hsplit", [](const Tensor& x) { return x.hsplit(2); }, {3, 4, 2}, "SliceBackward0"),
    pieces(
        "vsplit(indices)", [](const Tensor& x) { return x.vsplit({1}); }, {3, 4}, "SliceBackward0"),
    pieces(
        "dsplit", [](const Tensor& x) { return x.dsplit(2); }, {2, 3, 4}, "SliceBackward0"),
});

RegisterOps reg({
    op(
        "view",
        [](const Tensor& x) {
          return x.view({4, 3});
        },
        {3, 4}, "ViewBackward0"),
    op(
        "reshape",
        [](const Tensor& x) {
          return x.reshape({2, 6});
        },
        {3, 4}, "ViewBackward0"),
    op(
        "reshape(copying)", [](const Tensor& x) { return x.t().reshape({12}); }, {3, 4}, "UnsafeViewBackward0"),
    op("flatten", [](const Tensor& x) { return x.flatten(); }, {2, 3, 2}),
    op(
        "expand",
        [](const Tensor& x) {
          return x.expand({2, 3, 4});
        },
        {3, 1}, "ExpandBackward0"),
    op(
        "squeeze", [](const Tensor& x) { return x.squeeze(); }, {3, 1, 2}, "SqueezeBackward0"),
    op(
        "squeeze(dim)", [](const Tensor& x) { return x.squeeze(1); }, {3, 1, 2}, "SqueezeBackward1"),
    op(
        "unsqueeze", [](const Tensor& x) { return x.unsqueeze(1); }, {3, 2}, "UnsqueezeBackward0"),
    op(
        "transpose", [](const Tensor& x) { return x.transpose(0, 2); }, {2, 3, 4}, "TransposeBackward0"),
    op("t", [](const Tensor& x) { return x.t(); }, {2, 3}),
    op(
        "permute",
        [](const Tensor& x) {
          return x.permute({2, 0, 1});
        },
        {2, 3, 4}, "PermuteBackward0"),
    op(
        "select", [](const Tensor& x) { return x.select(1, -1); }, {3, 4}, "SelectBackward0"),
    op("operator[]", [](const Tensor& x) { return x[1]; }, {3, 4}),
    op(
        "slice", [](const Tensor& x) { return x.slice(1, 1, 4, 2); }, {3, 5}, "SliceBackward0"),
    op("narrow", [](const Tensor& x) { return x.narrow(0, 1, 2); }, {3, 4}),
    op("split",
       [](const Tensor& x) {
         auto p = x.split(2, 1);  // the middle of three pieces; one piece when EdgeInputs empties dim 1
         return p[p.size() > 1 ? 1 : 0];
       },
       {3, 5}),
    op(
        "sum", [](const Tensor& x) { return x.sum(); }, {3, 4}, "SumBackward0"),
    op(
        "sum(dim)", [](const Tensor& x) { return x.sum({1}); }, {3, 4}, "SumBackward1"),
    op("sum(dims, keepdim)",
       [](const Tensor& x) {
         return x.sum({0, 2}, true);
       },
       {2, 3, 4}),
    op(
        "mean", [](const Tensor& x) { return x.mean(); }, {3, 4}, "MeanBackward0"),
    op(
        "mean(dim)", [](const Tensor& x) { return x.mean({-1}); }, {3, 4}, "MeanBackward1"),
});

}  // namespace
}  // namespace torch::testing

namespace torch::testing {
namespace {

OpInfo op2(const char* name, std::function<Tensor(const variable_list&)> f, std::vector<std::vector<int64_t>> shapes,
           double lo = -2, double hi = 2, bool gradgrad = true) {
  OpInfo o;
  o.name = name;
  o.fn = [f](const variable_list& x) { return variable_list{f(x)}; };
  o.samples = [=] {
    variable_list in;
    uint64_t seed = 71;
    for (const auto& s : shapes) in.push_back(sample(s, lo, hi, seed++));
    return std::vector<variable_list>{in};
  };
  o.gradgrad = gradgrad;
  return o;
}

Tensor idx(std::initializer_list<int64_t> v) { return tensor(std::vector<int64_t>(v), kLong); }

RegisterOps reg_more({
    op2("clone", [](const variable_list& x) { return x[0].clone(); }, {{3, 2}}),
    op2("contiguous", [](const variable_list& x) { return x[0].t().contiguous(); }, {{3, 2}}),
    op2("to(complex128)", [](const variable_list& x) { return x[0].to(kComplexDouble) * complex128(1, 2); }, {{3}}),
    op2("cat",
        [](const variable_list& x) {
          return ember::cat({x[0], x[1]}, 1);
        },
        {{2, 3}, {2, 2}}),
    op2("stack",
        [](const variable_list& x) {
          return ember::stack({x[0], x[1]}, 0);
        },
        {{2, 3}, {2, 3}}),
    op2("flip",
        [](const variable_list& x) {
          return x[0].flip({0, 1});
        },
        {{2, 3}}),
    op2("cumsum", [](const variable_list& x) { return x[0].cumsum(1); }, {{2, 4}}),
    op2("amax", [](const variable_list& x) { return x[0].amax({1}); }, {{3, 4}}),
    op2("amin(keepdim)", [](const variable_list& x) { return x[0].amin({0}, true); }, {{3, 4}}),
    op2("max()", [](const variable_list& x) { return x[0].max(); }, {{3, 4}}),
    op2("min()", [](const variable_list& x) { return x[0].min(); }, {{3, 4}}),
    op2("logsumexp", [](const variable_list& x) { return x[0].logsumexp({1}); }, {{3, 4}}),
    op2("var", [](const variable_list& x) { return x[0].var({1}); }, {{3, 4}}),
    op2("var(correction 0, all)", [](const variable_list& x) { return x[0].var(std::nullopt, Scalar(0)); }, {{3, 4}}),
    op2("std", [](const variable_list& x) { return x[0].std({0}, true, true); }, {{3, 4}}),
    op2("gelu", [](const variable_list& x) { return x[0].gelu(); }, {{3, 4}}),
    op2("gelu(tanh)", [](const variable_list& x) { return x[0].gelu("tanh"); }, {{3, 4}}),
    op2("softplus", [](const variable_list& x) { return x[0].softplus(2, 3); }, {{3, 4}}),
    op2("elu", [](const variable_list& x) { return x[0].elu(1.5); }, {{3, 4}}),
    op2("leaky_relu", [](const variable_list& x) { return x[0].leaky_relu(0.1); }, {{3, 4}}),
    op2(
        "logit", [](const variable_list& x) { return x[0].logit(); }, {{3, 4}}, 0.2, 0.8),
    op2("clamp", [](const variable_list& x) { return x[0].clamp(-1, 1); }, {{3, 4}}),
    op2("clamp(min)", [](const variable_list& x) { return x[0].clamp(Scalar(-1)); }, {{3, 4}}),
    op2("masked_fill", [](const variable_list& x) { return x[0].masked_fill(x[0].detach() > 0, 0.5); }, {{3, 4}}),
    op2(
        "index_select",
        [](const variable_list& x) {
          return x[0].index_select(1, idx({2, 0, 2}));
        },
        {{3, 4}}, -2, 2,
        /*gradgrad=*/false),
    op2(
        "gather",
        [](const variable_list& x) {
          return x[0].gather(1, idx({0, 2, 1, 1, 0, 3}).view({3, 2}));
        },
        {{3, 4}}, -2, 2, /*gradgrad=*/false),
});

}  // namespace
}  // namespace torch::testing
