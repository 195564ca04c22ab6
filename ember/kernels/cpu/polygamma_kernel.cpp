// polygamma(n, x): Boost.Math for the function itself, PyTorch 1.13's values
// at the inputs where the function has no finite value.
// Note [Polygamma special values]
// Boost's error policies would throw (or return NaN) at poles and on overflow;
// kernels must do neither, so every Boost error is ignored (kPolicy) and the
// inputs Boost would complain about are answered here first, with PyTorch's
// results: NaN -> NaN; x = 0 or a negative integer -> +inf for odd n, -inf for
// even n (PyTorch's zeta-based formula takes the limit from the right);
// +inf -> 0 for n = 1 and NaN for n >= 2 (PyTorch's zeta gives 0 * inf);
// -inf -> NaN for n = 1, the pole value for n >= 2. Departures, kept because
// PyTorch's values there are rounding artefacts: PyTorch's trigamma returns a
// huge finite number at negative integers (sin(pi * x) is not exactly 0);
// Ember returns +inf, the pole. PyTorch computes n! * zeta(n + 1, x), which
// overflows to +-inf (or NaN) for every x once n >= 171; Ember returns Boost's
// value, which is finite where the true value is. For x < 0 and n > 170 the
// sign of the nearest pole's term decides the infinity (at half-integers, where
// two poles tie, the true value can be finite; Ember still returns +-inf).
#include <boost/math/special_functions/polygamma.hpp>

#include <cmath>
#include <limits>

#include "ember/core/dispatch.h"
#include "ember/kernels/cpu/loops.h"
#include "ember/kernels/cpu/unary_kernels.h"

namespace torch::kernels {

namespace {

namespace bp = boost::math::policies;
// Every error returns a value (NaN, +-inf or Boost's best estimate) instead of
// throwing; promote_double<false> keeps double arithmetic (PyTorch computes in
// the input's dtype, so long double buys nothing worth its cost).
using Policy = bp::policy<bp::domain_error<bp::ignore_error>, bp::pole_error<bp::ignore_error>,
                          bp::overflow_error<bp::ignore_error>, bp::underflow_error<bp::ignore_error>,
                          bp::evaluation_error<bp::ignore_error>, bp::rounding_error<bp::ignore_error>,
                          bp::indeterminate_result_error<bp::ignore_error>, bp::promote_double<false>>;

// n! overflows double above this order, so |polygamma(n, x)| does too for x < 0
// (the nearest pole is at most 1/2 away).
constexpr int kMaxFactorialOrder = 170;

double pole_value(int n) {
  constexpr double kInf = std::numeric_limits<double>::infinity();
  return (n & 1) ? kInf : -kInf;
}

// n >= 1 (n = 0 is digamma's kernel).
double polygamma_double(int n, double x) {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  if (std::isnan(x)) return kNaN;
  if (std::isinf(x)) {
    if (x > 0) return n == 1 ? 0.0 : kNaN;
    return n == 1 ? kNaN : pole_value(n);
  }
  if (x <= 0 && x == std::floor(x)) return pole_value(n);
  if (x < 0 && n > kMaxFactorialOrder) {
    // Dominated by the nearest pole p: (-1)^(n+1) n! / (x - p)^(n+1), which overflows.
    // (Boost's reflection formula would build an O(n^2) coefficient table here.)
    const double d = x - std::nearbyint(x);
    return (n & 1) ? pole_value(n) : (d > 0 ? pole_value(n) : -pole_value(n));
  }
  const double r = boost::math::polygamma(n, x, Policy());
  // Boost's overflow results are unsigned; for x > 0 the sign is (-1)^(n+1).
  if (std::isinf(r) && x > 0) return pole_value(n);
  return r;
}

}  // namespace

void polygamma_kernel(const TensorIterator& iter, int64_t n) {
  const int order = static_cast<int>(n);  // the op layer bounds n (kMaxPolygammaOrder)
  if (order == 0) return digamma_kernel(iter);
  dispatch_floating(iter.dtype(1), "polygamma", [&](auto tag) {
    using T = EMBER_TYPE(tag);
    using M = opmath_t<T>;
    // Computed in double and rounded once: at least as accurate as PyTorch's float kernels.
    unary_loop<T, T>(iter, [order](M x) { return static_cast<M>(polygamma_double(order, static_cast<double>(x))); });
  });
}

}  // namespace torch::kernels
