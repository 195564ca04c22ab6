// OpInfo entries for the composite ops PyTorch users expect (ops/
// pointwise_composite, products, distance, statistics, rearrange): their
// gradients come from the ops they are built of, and the walk checks that
// those compose correctly (gradcheck, gradgradcheck, forward AD, transforms).
#include <limits>

#include "ember/ops/elementwise/pointwise_composite.h"
#include "ember/ops/matmul/products.h"
#include "ember/ops/nn/distance.h"
#include "ember/ops/reduce/statistics.h"
#include "ember/ops/shape/rearrange.h"
#include "opinfo.h"

namespace torch::testing {
namespace {

using Shapes = std::vector<std::vector<int64_t>>;

OpInfo op(const char* name, std::function<Tensor(const variable_list&)> f, Shapes shapes, double lo = -2,
          double hi = 2) {
  return single_output_op(name, std::move(f), std::move(shapes), lo, hi, 271);
}

RegisterOps reg({
    op(
        "xlogy", [](const variable_list& x) { return xlogy(x[0], x[1]); }, {{3, 4}, {4}}, 0.2, 2),
    op(
        "xlog1py", [](const variable_list& x) { return xlog1py(x[0], x[1]); }, {{3, 4}, {3, 1}}, 0.2, 2),
    op("sinc", [](const variable_list& x) { return sinc(x[0]); }, {{3, 4}}),
    op("logaddexp", [](const variable_list& x) { return logaddexp(x[0], x[1]); }, {{3, 4}, {4}}),
    op("logaddexp2", [](const variable_list& x) { return logaddexp2(x[0], x[1]); }, {{3, 1}, {3, 4}}),
    op(
        "entr", [](const variable_list& x) { return entr(x[0]); }, {{3, 4}}, 0.2, 2),
    op(
        "mvlgamma(p=3)", [](const variable_list& x) { return mvlgamma(x[0], 3); }, {{2, 3}}, 1.5, 4),
    op("trace", [](const variable_list& x) { return trace(x[0]); }, {{3, 4}}),
    op("kron", [](const variable_list& x) { return kron(x[0], x[1]); }, {{2, 3}, {2, 1, 2}}),
    op("inner", [](const variable_list& x) { return inner(x[0], x[1]); }, {{2, 3}, {4, 3}}),
    op("dist(p=3)", [](const variable_list& x) { return dist(x[0], x[1], 3); }, {{2, 3}, {3}}),
    op("dist(p=inf)", [](const variable_list& x) { return dist(x[0], x[1], std::numeric_limits<double>::infinity()); },
       {{2, 3}, {2, 3}}),
    op("cdist", [](const variable_list& x) { return cdist(x[0], x[1]); }, {{2, 3, 2}, {4, 2}}),
    op("cdist(p=1.5)", [](const variable_list& x) { return cdist(x[0], x[1], 1.5); }, {{3, 2}, {4, 2}}),
    op("cdist(matrix product form)", [](const variable_list& x) { return cdist(x[0], x[1], 2, 1); }, {{3, 2}, {4, 2}}),
    op("renorm", [](const variable_list& x) { return renorm(x[0], 2, 0, 1.5); }, {{3, 4}}),
    op("renorm(p=1, dim=1)", [](const variable_list& x) { return renorm(x[0], 1, 1, 1.0); }, {{3, 4}}),
    op("cov", [](const variable_list& x) { return cov(x[0]); }, {{3, 5}}),
    op("cov(aweights)", [](const variable_list& x) { return cov(x[0], 1, std::nullopt, x[1].abs() + 0.1); },
       {{2, 4}, {4}}),
    op("corrcoef", [](const variable_list& x) { return corrcoef(x[0]); }, {{3, 6}}),
    op("quantile(linear, dim)",
       [](const variable_list& x) {
         return quantile(x[0], tensor({0.2, 0.7}, kDouble), 1, true);
       },
       {{3, 5}}),
    op("quantile(midpoint, all)",
       [](const variable_list& x) { return quantile(x[0], 0.4, std::nullopt, false, "midpoint"); }, {{3, 4}}),
    op("nanquantile(nearest)", [](const variable_list& x) { return nanquantile(x[0], 0.6, 0, false, "nearest"); },
       {{5, 3}}),
    op("diff(n=2)", [](const variable_list& x) { return diff(x[0], 2, 0); }, {{5, 3}}),
    op("diff(prepend, append)", [](const variable_list& x) { return diff(x[0], 1, -1, x[1], x[2]); },
       {{2, 3}, {2, 1}, {2, 2}}),
    op("trapezoid(x)", [](const variable_list& x) { return trapezoid(x[0], x[1]); }, {{3, 4}, {4}}),
    op("trapezoid(dx)", [](const variable_list& x) { return trapezoid(x[0], 0.5, 0); }, {{4, 3}}),
    op("cumulative_trapezoid", [](const variable_list& x) { return cumulative_trapezoid(x[0], x[1]); },
       {{2, 4}, {2, 4}}),
    op("take_along_dim",
       [](const variable_list& x) {
         return take_along_dim(x[0], tensor({0, 3, 2, 2, 1, 0}, kLong).view({3, 2}), 1);
       },
       {{3, 4}}),
    op("take_along_dim(broadcast)",
       [](const variable_list& x) {
         return take_along_dim(x[0], tensor({2, 0, 1}, kLong).view({3, 1}), 0);
       },
       {{3, 4}}),
    op("rot90",
       [](const variable_list& x) {
         return rot90(x[0], 3, {2, 0});
       },
       {{2, 3, 4}}),
    op("ldexp(int exponent)",
       [](const variable_list& x) {
         return ldexp(x[0], tensor({1, -2, 0, 3}, kLong));
       },
       {{3, 4}}),
    op("ldexp(float exponent)", [](const variable_list& x) { return ldexp(x[0], x[1]); }, {{3, 4}, {4}}),
    op("float_power", [](const variable_list& x) { return float_power(x[0].abs() + 0.5, x[1]); }, {{3, 4}, {3, 1}}),
    op("float_power(scalar exponent)", [](const variable_list& x) { return x[0].float_power(3); }, {{3, 4}}),
    // the mantissa: self / 2^exponent, a jump at each power of two: inputs in
    // [0.55, 0.95) times these factors stay inside one binade each (2^0, 2^1, 2^-3, 2^3)
    op(
        "frexp",
        [](const variable_list& x) {
          return std::get<0>(frexp(x[0] * tensor({1.0, -3.7, 0.25, 16.0}, kDouble)));
        },
        {{3, 4}}, 0.55, 0.95),
});

}  // namespace
}  // namespace torch::testing
