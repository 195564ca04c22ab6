// OpInfo entries for polygamma (formula: record_polygamma in
// ember/autograd/derivatives/elementwise_grad.cpp; its gradient is polygamma(n + 1, x)).
#include "opinfo.h"

namespace torch::testing {
namespace {

OpInfo polygamma_op(int64_t n, double lo, double hi, bool inplace = false) {
  OpInfo op;
  op.name = (inplace ? "Tensor::polygamma_(n=" : "polygamma(n=") + std::to_string(n) + ", x in [" + std::to_string(lo) +
            ", " + std::to_string(hi) + "))";
  op.fn = [n, inplace](const variable_list& x) {
    if (inplace) return variable_list{(x[0] * 1).polygamma_(n)};
    return variable_list{ember::polygamma(n, x[0])};
  };
  op.samples = [lo, hi] {
    return std::vector<variable_list>{
        {sample({3, 4}, lo, hi, 31)}, {sample({}, lo, hi, 32)}, {sample({5}, lo, hi, 33)}};
  };
  op.grad_fn_name = "PolygammaBackward0";
  return op;
}

RegisterOps reg({
    polygamma_op(0, 0.5, 3),
    polygamma_op(1, 0.5, 3),
    polygamma_op(2, 0.7, 3),
    polygamma_op(3, 0.8, 3),
    // Between the poles at -3 and -2, where the reflection formula is used.
    polygamma_op(1, -2.8, -2.2),
    polygamma_op(2, -2.7, -2.3),
    polygamma_op(1, 0.5, 3, /*inplace=*/true),
});

}  // namespace
}  // namespace torch::testing
