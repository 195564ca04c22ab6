#pragma once
// torch::special: LibTorch's spellings of the special functions, over the Ember ops
// that compute them (the gamma family, error functions, logit/expit).
#include "ember/ops/elementwise/pointwise_composite.h"
#include "ember/ops/elementwise/unary.h"
#include "ember/ops/nn/softmax.h"
#include "ember/ops/reduce/reduce.h"

namespace torch::special {

inline Tensor polygamma(int64_t n, const Tensor& self) { return ember::polygamma(n, self); }
inline Tensor& polygamma_out(Tensor& result, int64_t n, const Tensor& self) {
  return ember::polygamma_out(result, n, self);
}
inline Tensor digamma(const Tensor& self) { return ember::digamma(self); }
inline Tensor& digamma_out(Tensor& result, const Tensor& self) { return ember::digamma_out(result, self); }
inline Tensor psi(const Tensor& self) { return ember::digamma(self); }
inline Tensor& psi_out(Tensor& result, const Tensor& self) { return ember::digamma_out(result, self); }
inline Tensor gammaln(const Tensor& self) { return ember::lgamma(self); }
inline Tensor& gammaln_out(Tensor& result, const Tensor& self) { return ember::lgamma_out(result, self); }
inline Tensor erf(const Tensor& self) { return ember::erf(self); }
inline Tensor erfc(const Tensor& self) { return ember::erfc(self); }
inline Tensor erfinv(const Tensor& self) { return ember::erfinv(self); }
inline Tensor expit(const Tensor& self) { return ember::sigmoid(self); }
inline Tensor logit(const Tensor& self, std::optional<double> eps = std::nullopt) { return ember::logit(self, eps); }
inline Tensor exp2(const Tensor& self) { return ember::exp2(self); }
inline Tensor expm1(const Tensor& self) { return ember::expm1(self); }
inline Tensor log1p(const Tensor& self) { return ember::log1p(self); }
inline Tensor logsumexp(const Tensor& self, IntArrayRef dims, bool keepdim = false) {
  return ember::logsumexp(self, dims, keepdim);
}
inline Tensor softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype = std::nullopt) {
  return ember::softmax(self, dim, dtype);
}
inline Tensor log_softmax(const Tensor& self, int64_t dim, std::optional<ScalarType> dtype = std::nullopt) {
  return ember::log_softmax(self, dim, dtype);
}

inline Tensor xlogy(const Tensor& self, const Tensor& other) { return ember::xlogy(self, other); }
inline Tensor xlogy(const Scalar& self, const Tensor& other) { return ember::xlogy(self, other); }
inline Tensor xlogy(const Tensor& self, const Scalar& other) { return ember::xlogy(self, other); }
inline Tensor xlog1py(const Tensor& self, const Tensor& other) { return ember::xlog1py(self, other); }
inline Tensor sinc(const Tensor& self) { return ember::sinc(self); }
inline Tensor entr(const Tensor& self) { return ember::entr(self); }
inline Tensor multigammaln(const Tensor& self, int64_t p) { return ember::mvlgamma(self, p); }
inline Tensor round(const Tensor& self, int64_t decimals = 0) { return ember::round(self, decimals); }
// ndtr(x) = P(N(0, 1) <= x)
inline Tensor ndtr(const Tensor& self) { return ember::erfc(self * -0.70710678118654752440) * 0.5; }

}  // namespace torch::special
