// OpInfo entries for the value-selecting reductions, prod, the scans and norm
// (formulas: ember/autograd/derivatives/reduce_grad.cpp).
#include <limits>

#include "opinfo.h"

namespace torch::testing {
namespace {

using Fn = std::function<Tensor(const variable_list&)>;

OpInfo op(const char* name, Fn f, std::vector<std::vector<int64_t>> shapes, const char* grad_fn = "", double lo = -2,
          double hi = 2) {
  OpInfo o;
  o.name = name;
  o.fn = [f](const variable_list& x) { return variable_list{f(x)}; };
  o.samples = [=] {
    variable_list in;
    uint64_t seed = 211;
    for (const auto& s : shapes) in.push_back(sample(s, lo, hi, seed++));
    return std::vector<variable_list>{in};
  };
  o.grad_fn_name = grad_fn;
  return o;
}

// A float64 input with the given values (exact zeros included) that requires grad.
Tensor fixed(std::vector<double> v, IntArrayRef shape) {
  Tensor t = tensor(v, kDouble).reshape(shape).detach();
  t.requires_grad_(true);
  return t;
}
OpInfo op_fixed(const char* name, Fn f, std::vector<double> v, std::vector<int64_t> shape, const char* grad_fn = "") {
  OpInfo o;
  o.name = name;
  o.fn = [f](const variable_list& x) { return variable_list{f(x)}; };
  o.samples = [=] { return std::vector<variable_list>{{fixed(v, shape)}}; };
  o.grad_fn_name = grad_fn;
  return o;
}

const double kInf = std::numeric_limits<double>::infinity();
Tensor first(const std::tuple<Tensor, Tensor>& t) { return std::get<0>(t); }

RegisterOps reg({
    // value-selecting reductions: the gradient goes to the returned index
    op(
        "max(dim)", [](const variable_list& x) { return first(x[0].max(1)); }, {{3, 4}}, "MaxBackward0"),
    op(
        "min(dim, keepdim)", [](const variable_list& x) { return first(x[0].min(0, true)); }, {{3, 4}}, "MinBackward0"),
    op("max(dim) 0-dim", [](const variable_list& x) { return first(x[0].max(0)); }, {{}}),
    op(
        "sort", [](const variable_list& x) { return first(x[0].sort(1)); }, {{3, 4}}, "SortBackward0"),
    op("sort(descending, dim 0)", [](const variable_list& x) { return first(x[0].sort(0, true)); }, {{3, 4}}),
    op(
        "topk", [](const variable_list& x) { return first(x[0].topk(2)); }, {{3, 4}}, "TopkBackward0"),
    op("topk(smallest, dim 0)", [](const variable_list& x) { return first(x[0].topk(2, 0, false)); }, {{3, 4}}),
    op(
        "kthvalue", [](const variable_list& x) { return first(x[0].kthvalue(2, 1)); }, {{3, 4}}, "KthvalueBackward0"),
    op(
        "median()", [](const variable_list& x) { return x[0].median(); }, {{3, 4}}, "MedianBackward0"),
    op(
        "median(dim)", [](const variable_list& x) { return first(x[0].median(1)); }, {{3, 4}}, "MedianBackward1"),
    op(
        "nanmedian()", [](const variable_list& x) { return ember::nanmedian(x[0]); }, {{3, 4}}, "NanmedianBackward0"),
    op(
        "nanmedian(dim, keepdim)", [](const variable_list& x) { return first(ember::nanmedian(x[0], 0, true)); },
        {{3, 4}}, "NanmedianBackward1"),
    op(
        "mode", [](const variable_list& x) { return first(x[0].mode(1)); }, {{3, 4}}, "ModeBackward0"),
    // prod: no zero, one zero, two zeros
    op(
        "prod", [](const variable_list& x) { return x[0].prod(); }, {{3, 4}}, "ProdBackward0", 0.5, 1.5),
    op(
        "prod(dim)", [](const variable_list& x) { return x[0].prod(1); }, {{3, 4}}, "ProdBackward1"),
    op("prod(dim, keepdim)", [](const variable_list& x) { return x[0].prod(0, true); }, {{3, 4}}),
    op_fixed("prod(one zero)", [](const variable_list& x) { return x[0].prod(); }, {1.5, 0, -2, 0.5}, {2, 2}),
    op_fixed("prod(two zeros)", [](const variable_list& x) { return x[0].prod(); }, {1.5, 0, 0, 0.5}, {2, 2}),
    op_fixed("prod(dim, zeros)", [](const variable_list& x) { return x[0].prod(1); }, {1.5, 0, -2, 0, 0, 3, 1, 2, 0.5},
             {3, 3}),
    // scans
    op(
        "cumprod", [](const variable_list& x) { return x[0].cumprod(1); }, {{3, 4}}, "CumprodBackward0"),
    op_fixed("cumprod(zeros)", [](const variable_list& x) { return x[0].cumprod(1); }, {1.5, 0, -2, 0.5, 0, 3, 0, 2},
             {2, 4}),
    op(
        "cummax", [](const variable_list& x) { return first(x[0].cummax(1)); }, {{3, 4}}, "CummaxBackward0"),
    op(
        "cummin", [](const variable_list& x) { return first(x[0].cummin(0)); }, {{3, 4}}, "CumminBackward0"),
    op(
        "logcumsumexp", [](const variable_list& x) { return x[0].logcumsumexp(1); }, {{3, 4}}, "LogcumsumexpBackward0"),
    // norms
    op(
        "norm", [](const variable_list& x) { return x[0].norm(); }, {{3, 4}}, "NormBackward1"),
    op("norm(1)", [](const variable_list& x) { return x[0].norm(1); }, {{3, 4}}),
    op("norm(3, dim)", [](const variable_list& x) { return x[0].norm(std::optional<Scalar>(3), IntArrayRef{1}); },
       {{3, 4}}),
    op("norm(1.5, keepdim)",
       [](const variable_list& x) { return x[0].norm(std::optional<Scalar>(1.5), IntArrayRef{0}, true); }, {{3, 4}}),
    op("norm(0.5)", [](const variable_list& x) { return x[0].norm(0.5); }, {{3, 4}}),
    op("norm(inf, dim)", [](const variable_list& x) { return x[0].norm(std::optional<Scalar>(kInf), IntArrayRef{1}); },
       {{3, 4}}),
    op("norm(-inf)", [](const variable_list& x) { return x[0].norm(-kInf); }, {{3, 4}}),
    // The free function: Tensor::norm has no string overload (x.norm("fro") used to
    // compile as norm(true), the 1-norm, through Scalar's bool constructor).
    op("norm(fro)", [](const variable_list& x) { return norm(x[0], "fro"); }, {{3, 4}}),
});

}  // namespace
}  // namespace torch::testing
