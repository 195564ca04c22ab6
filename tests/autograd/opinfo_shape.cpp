// OpInfo entries for views and reductions (formulas: ember/autograd/derivatives/shape_grad.cpp).
#include "opinfo.h"

namespace ember::testing {
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

RegisterOps reg({
    op("view", [](const Tensor& x) { return x.view({4, 3}); }, {3, 4}, "ViewBackward0"),
    op("reshape", [](const Tensor& x) { return x.reshape({2, 6}); }, {3, 4}, "ViewBackward0"),
    op("reshape(copying)", [](const Tensor& x) { return x.t().reshape({12}); }, {3, 4}, "UnsafeViewBackward0"),
    op("flatten", [](const Tensor& x) { return x.flatten(); }, {2, 3, 2}),
    op("expand", [](const Tensor& x) { return x.expand({2, 3, 4}); }, {3, 1}, "ExpandBackward0"),
    op("squeeze", [](const Tensor& x) { return x.squeeze(); }, {3, 1, 2}, "SqueezeBackward0"),
    op("squeeze(dim)", [](const Tensor& x) { return x.squeeze(1); }, {3, 1, 2}, "SqueezeBackward1"),
    op("unsqueeze", [](const Tensor& x) { return x.unsqueeze(1); }, {3, 2}, "UnsqueezeBackward0"),
    op("transpose", [](const Tensor& x) { return x.transpose(0, 2); }, {2, 3, 4}, "TransposeBackward0"),
    op("t", [](const Tensor& x) { return x.t(); }, {2, 3}),
    op("permute", [](const Tensor& x) { return x.permute({2, 0, 1}); }, {2, 3, 4}, "PermuteBackward0"),
    op("select", [](const Tensor& x) { return x.select(1, -1); }, {3, 4}, "SelectBackward0"),
    op("operator[]", [](const Tensor& x) { return x[1]; }, {3, 4}),
    op("slice", [](const Tensor& x) { return x.slice(1, 1, 4, 2); }, {3, 5}, "SliceBackward0"),
    op("narrow", [](const Tensor& x) { return x.narrow(0, 1, 2); }, {3, 4}),
    op("split", [](const Tensor& x) { return x.split(2, 1)[1]; }, {3, 5}),
    op("sum", [](const Tensor& x) { return x.sum(); }, {3, 4}, "SumBackward0"),
    op("sum(dim)", [](const Tensor& x) { return x.sum({1}); }, {3, 4}, "SumBackward1"),
    op("sum(dims, keepdim)", [](const Tensor& x) { return x.sum({0, 2}, true); }, {2, 3, 4}),
    op("mean", [](const Tensor& x) { return x.mean(); }, {3, 4}, "MeanBackward0"),
    op("mean(dim)", [](const Tensor& x) { return x.mean({-1}); }, {3, 4}, "MeanBackward1"),
});

}  // namespace
}  // namespace ember::testing
