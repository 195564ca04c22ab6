// polygamma(n, x) and torch::special's spellings of the unary special functions.
#include "ember/autograd/derivatives/elementwise_grad.h"
#include "ember/autograd/formula_node.h"
#include "ember/core/record_scope.h"
#include "ember/kernels/cpu/unary_kernels.h"
#include "ember/ops/elementwise/unary.h"
#include "ember/vmap/batching_rules.h"

namespace torch {

namespace {
Tensor polygamma_impl(const char* op, int64_t n, const Tensor& self, Tensor* out, bool inplace) {
  EMBER_CHECK(self.defined(), op, ": expected a defined tensor");
  EMBER_RECORD_OP(op, self);
  EMBER_CHECK(n >= 0, op, ": polygamma(n, x) does not support negative n (got n = ", n, ")");
  EMBER_CHECK(n <= kernels::kMaxPolygammaOrder, op, ": n = ", n,
              " is too large (Ember supports n <= ", kernels::kMaxPolygammaOrder, ")");
  EMBER_CHECK(!self.is_complex(), op, ": not implemented for complex inputs (got ", dtype_name(self.dtype()), ")");
  // Integer and bool inputs promote to the default dtype, as for digamma.
  const ScalarType compute = is_integral(self.dtype(), /*include_bool=*/true) ? get_default_dtype() : self.dtype();
  const bool grad = autograd::needs_grad(self);
  EMBER_CHECK(!(grad && !inplace && out != nullptr), op,
              "_out: functions with out=... arguments don't support automatic differentiation, but one of the "
              "arguments requires grad");
  Tensor self_value;  // what the formula reads as self: for in-place ops, the values before the write
  if (grad && inplace) {
    autograd::check_inplace(self, op);
    self_value = self.clone();
  }
  Tensor r = ops::unary_apply(op, self, compute, compute, out, inplace,
                              [n](const kernels::TensorIterator& it) { kernels::polygamma_kernel(it, n); });
  if (grad) autograd::record_polygamma(self, inplace ? self_value : self, r, n);
  return r;
}
}  // namespace

Tensor polygamma(int64_t n, const Tensor& self) {
  EMBER_VMAP_ELEMENTWISE(self, v, polygamma(n, v));
  return polygamma_impl("polygamma", n, self, nullptr, false);
}
Tensor& polygamma_out(Tensor& out, int64_t n, const Tensor& self) {
  polygamma_impl("polygamma", n, self, &out, false);
  return out;
}
Tensor Tensor::polygamma(int64_t n) const { return ember::polygamma(n, *this); }
Tensor& Tensor::polygamma_(int64_t n) const {
  Tensor& self = self_ref();
  EMBER_VMAP_ELEMENTWISE_(self, v, v.polygamma_(n));
  polygamma_impl("polygamma_", n, self, &self, true);
  return self;
}

}  // namespace torch
