// OpInfo entries for in-place writes through views (CopySlices, Note [Views
// and in-place]), the value-replacing in-place ops (copy_, fill_, zero_), and
// the scatter_reduce / aminmax formulas. Each fn clones its input first, as a
// write into a leaf that requires grad is an error.
#include "opinfo.h"

namespace torch::testing {
namespace {

using Fn = std::function<Tensor(const variable_list&)>;

OpInfo op(const char* name, Fn f, std::vector<std::vector<int64_t>> shapes, const char* grad_fn = "") {
  OpInfo o;
  o.name = name;
  o.fn = [f](const variable_list& x) { return variable_list{f(x)}; };
  o.samples = [=] {
    variable_list in;
    uint64_t seed = 911;
    for (const auto& s : shapes) in.push_back(sample(s, -2, 2, seed++));
    return std::vector<variable_list>{in};
  };
  o.grad_fn_name = grad_fn;
  return o;
}

Tensor idx2(std::initializer_list<int64_t> v, int64_t rows) {
  return tensor(std::vector<int64_t>(v), kLong).view({rows, -1});
}
// Zeros at some src positions: `single` puts at most one zero on each written
// position; otherwise row 0 sends two zeros to column 3.
Tensor with_zeros(const Tensor& src, bool single) {
  std::vector<double> m = single ? std::vector<double>{0, 1, 0, 1, 1, 1} : std::vector<double>{0, 0, 1, 0, 1, 1};
  return src * tensor(m, kDouble).view({3, 2});
}
OpInfo first_order_only(OpInfo o) {
  o.gradgrad = false;
  return o;
}

RegisterOps reg({
    // writes through views
    op(
        "Tensor::mul_(select view)",
        [](const variable_list& x) {
          Tensor b = x[0].clone();
          b.select(0, 1).mul_(x[1]);
          return b;
        },
        {{3, 4}, {4}}, "CopySlices"),
    op(
        "Tensor::copy_(narrow view)",
        [](const variable_list& x) {
          Tensor b = x[0] * 1;
          b.narrow(1, 1, 2).copy_(x[1]);
          return b;
        },
        {{3, 4}, {3, 2}}, "CopySlices"),
    op(
        "Tensor::copy_(broadcast source, transposed view)",
        [](const variable_list& x) {
          Tensor b = x[0].clone();
          b.t().narrow(0, 0, 2).copy_(x[1]);
          return b;
        },
        {{3, 4}, {3}}, "CopySlices"),
    op(
        "Tensor::copy_", [](const variable_list& x) { return (x[0] * 2).copy_(x[1]); }, {{3, 4}, {4}}, "CopyBackwards"),
    op(
        "Tensor::fill_(view)",
        [](const variable_list& x) {
          Tensor b = x[0].clone();
          b.select(1, 2).fill_(0.5);
          return b;
        },
        {{3, 4}}, "CopySlices"),
    op("Tensor::fill_", [](const variable_list& x) { return x[0].clone().fill_(0.5) + x[0]; }, {{2, 3}}),
    op(
        "Tensor::fill_(tensor value)", [](const variable_list& x) { return x[0].clone().fill_(x[1].sum()); },
        {{2, 3}, {2}}, "FillBackward1"),
    op("Tensor::zero_(view)",
       [](const variable_list& x) {
         Tensor b = x[0].clone();
         b.narrow(0, 1, 1).zero_();
         return b * b;
       },
       {{3, 4}}),
    op("Tensor::zero_", [](const variable_list& x) { return x[0].clone().zero_() + x[0]; }, {{2, 3}}),
    op(
        "index_put_(view)",
        [](const variable_list& x) {
          Tensor b = x[0].clone();
          b.select(0, 2).index_put_({tensor(std::vector<int64_t>{3, 0})}, x[1]);
          return b;
        },
        {{3, 4}, {2}}, "CopySlices"),
    op(
        "masked_fill_(view)",
        [](const variable_list& x) {
          Tensor b = x[0].clone();
          b.narrow(1, 0, 2).masked_fill_(tensor(std::vector<bool>{true, false}), 0.0);
          return b;
        },
        {{3, 4}}, "CopySlices"),
    op("Tensor::mul_(view of a view, read afterwards)",
       [](const variable_list& x) {
         Tensor b = x[0].clone();
         Tensor row = b.select(0, 0);
         row.narrow(0, 1, 2).mul_(x[1]);
         return row * b.select(0, 1);
       },
       {{3, 4}, {2}}),
    // scatter_reduce formulas that need self as it was (index_grad.cpp)
    op(
        "scatter_reduce(prod)",
        [](const variable_list& x) {
          return x[0].scatter_reduce(1, idx2({3, 3, 1, 2, 0, 0}, 3), x[1], "prod");
        },
        {{3, 4}, {3, 2}}, "ScatterReduceBackward0"),
    op("scatter_reduce(prod, exclude self)",
       [](const variable_list& x) {
         return x[0].scatter_reduce(1, idx2({3, 3, 1, 2, 0, 0}, 3), x[1], "prod", false);
       },
       {{3, 4}, {3, 2}}),
    op("scatter_reduce(prod, single zeros in src)",
       [](const variable_list& x) {
         return x[0].scatter_reduce(1, idx2({3, 3, 1, 2, 0, 0}, 3), with_zeros(x[1], true), "prod");
       },
       {{3, 4}, {3, 2}}),
    // Two zeros meeting at one position: first order only (PyTorch raises on double backward there).
    first_order_only(op("scatter_reduce(prod, two zeros at a position)",
                        [](const variable_list& x) {
                          return x[0].scatter_reduce(1, idx2({3, 3, 1, 2, 0, 0}, 3), with_zeros(x[1], false), "prod");
                        },
                        {{3, 4}, {3, 2}})),
    op("scatter_reduce(amax)",
       [](const variable_list& x) {
         return x[0].scatter_reduce(1, idx2({3, 3, 1, 2, 0, 0}, 3), x[1], "amax");
       },
       {{3, 4}, {3, 2}}),
    op("scatter_reduce(amin, exclude self)",
       [](const variable_list& x) {
         return x[0].scatter_reduce(1, idx2({3, 3, 1, 2, 0, 0}, 3), x[1], "amin", false);
       },
       {{3, 4}, {3, 2}}),
    op(
        "scatter(reduce=add)",
        [](const variable_list& x) {
          return scatter(x[0], 1, idx2({3, 3, 1, 2, 0, 0}, 3), x[1], "add");
        },
        {{3, 4}, {3, 2}}, "ScatterAddBackward0"),
    op(
        "scatter(reduce=multiply)",
        [](const variable_list& x) {
          return scatter(x[0], 1, idx2({3, 3, 1, 2, 0, 0}, 3), x[1], "multiply");
        },
        {{3, 4}, {3, 2}}, "ScatterReduceBackward0"),
    op("scatter(value, reduce=multiply)",
       [](const variable_list& x) {
         return scatter(x[0], 1, idx2({3, 3, 1, 2, 0, 0}, 3), 1.5, "multiply");
       },
       {{3, 4}}),
    // Entries the coverage test (coverage_test.cpp) found missing.
    op(
        "fmod(Scalar)", [](const variable_list& x) { return fmod(x[0], Scalar(0.7)); }, {{2, 3}}, "FmodBackward0"),
    op(
        "remainder(Scalar)", [](const variable_list& x) { return remainder(x[0], Scalar(0.7)); }, {{2, 3}},
        "RemainderBackward0"),
    op("vdot", [](const variable_list& x) { return vdot(x[0], x[1]); }, {{4}, {4}}),
    op(
        "adaptive_avg_pool3d",
        [](const variable_list& x) {
          return adaptive_avg_pool3d(x[0], {2, 1, 2});
        },
        {{1, 2, 3, 2, 4}}, "AdaptiveAvgPool3DBackward0"),
    op(
        "adaptive_max_pool1d", [](const variable_list& x) { return std::get<0>(adaptive_max_pool1d(x[0], {2})); },
        {{1, 2, 5}}, "AdaptiveMaxPool1DBackward0"),
    op(
        "adaptive_max_pool3d",
        [](const variable_list& x) {
          return std::get<0>(adaptive_max_pool3d(x[0], {1, 2, 1}));
        },
        {{1, 1, 2, 3, 2}}, "AdaptiveMaxPool3DBackward0"),
    op("round", [](const variable_list& x) { return round(x[0]) + x[0]; }, {{2, 3}}),
    op(
        "round(decimals)", [](const variable_list& x) { return round(x[0], 2); }, {{2, 3}}, "RoundBackward1"),
    op(
        "round(no other path)", [](const variable_list& x) { return round(x[0]); }, {{2, 3}}, "RoundBackward0"),
    op("nan_to_num", [](const variable_list& x) { return nan_to_num(x[0] * 2); }, {{2, 3}}),
    op(
        "nan_to_num(direct)", [](const variable_list& x) { return nan_to_num(x[0]); }, {{2, 3}}, "NanToNumBackward0"),
    op("angle(real)", [](const variable_list& x) { return angle(x[0]) + x[0]; }, {{2, 3}}),
    op(
        "angle(direct)", [](const variable_list& x) { return angle(x[0]); }, {{2, 3}}, "AngleBackward0"),
    // Real -> complex: the samples reach every path through real/imag parts of the output.
    op(
        "complex", [](const variable_list& x) { return complex(x[0], x[1]) * complex(x[1], x[0]); }, {{2, 3}, {2, 3}},
        "MulBackward0"),
    op(
        "complex(direct)", [](const variable_list& x) { return complex(x[0], x[1]); }, {{2, 3}, {3}},
        "ComplexBackward0"),
    op(
        "polar", [](const variable_list& x) { return polar(x[0], x[1]); }, {{2, 3}, {2, 3}}, "PolarBackward0"),
    op("polar(squared)", [](const variable_list& x) { return polar(x[0], x[1]).pow(2); }, {{4}, {4}}),
    // The complex <-> real views: complex inputs are built from two real samples.
    op(
        "real(complex)", [](const variable_list& x) { return real(complex(x[0], x[1])); }, {{2, 3}, {2, 3}},
        "RealBackward0"),
    op(
        "imag(complex)", [](const variable_list& x) { return imag(complex(x[0], x[1]) * complex(x[1], x[0])); },
        {{2, 3}, {2, 3}}, "ImagBackward0"),
    op(
        "view_as_real", [](const variable_list& x) { return view_as_real(polar(x[0], x[1])); }, {{3}, {3}},
        "ViewAsRealBackward0"),
    op(
        "view_as_complex", [](const variable_list& x) { return view_as_complex(x[0]) * view_as_complex(x[1]); },
        {{3, 2}, {3, 2}}, "MulBackward0"),
    op("aminmax",
       [](const variable_list& x) {
         auto [lo, hi] = aminmax(x[0], 1);
         return lo * 2 + hi;
       },
       {{3, 4}}),
    op("aminmax(all)",
       [](const variable_list& x) {
         auto [lo, hi] = aminmax(x[0]);
         return lo - hi * 3;
       },
       {{3, 4}}),
});

}  // namespace
}  // namespace torch::testing
