// poisson, binomial, _standard_gamma, _standard_gamma_grad and _sample_dirichlet.
//
// Note [Sampler arithmetic]
// The samplers reproduce ATen 1.13's CPU kernels draw for draw (Note [PyTorch's CPU stream]):
// each consumes the same uniform and normal draws in the same order and accepts or rejects on
// the same comparisons, so a seed gives PyTorch's numbers. That holds only if every
// intermediate is rounded where ATen rounds it, so the arithmetic below keeps ATen's types: for
// a float tensor the parameters and some intermediates are float, the rest double, and the
// constants keep the precision ATen writes them in (the float constants of the gamma sampler
// compare against doubles after promotion). Do not "clean up" a float literal or a cast here
// without checking the golden draws (tests/ops/distributions_test.cpp).
#include "ember/ops/factory/distributions.h"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <limits>

#include "ember/autograd/derivatives/elementwise_grad.h"
#include "ember/autograd/derivatives/factory_grad.h"
#include "ember/autograd/formula_node.h"
#include "ember/core/dispatch.h"
#include "ember/core/record_scope.h"
#include "ember/core/shape.h"
#include "ember/ops/factory/factory.h"
#include "ember/ops/factory/generator_engine.h"
#include "ember/ops/reduce/reduce.h"
#include "ember/ops/shape/copy.h"
#include "ember/vmap/rules_random.h"

namespace torch {

namespace {

using detail::normal_draw;
using detail::uniform01;

using detail::gen_or_default;

// Knuth's product of uniforms for small rates, Hoermann's transformed rejection (PTRS) from 10 up.
int64_t sample_poisson(double lambda, CpuEngine& e) {
  if (lambda >= 10) {
    const double slam = std::sqrt(lambda), loglam = std::log(lambda);
    const double b = 0.931 + 2.53 * slam;
    const double a = -0.059 + 0.02483 * b;
    const double inv_alpha = 1.1239 + 1.1328 / (b - 3.4);
    const double v_r = 0.9277 - 3.6224 / (b - 2);
    for (;;) {
      const double u = uniform01(e) - 0.5;
      const double v = uniform01(e);
      const double us = 0.5 - std::fabs(u);
      const auto k = static_cast<int64_t>(std::floor((2 * a / us + b) * u + lambda + 0.43));
      if (us >= 0.07 && v <= v_r) return k;
      if (k < 0 || (us < 0.013 && v > us)) continue;
      if (std::log(v) + std::log(inv_alpha) - std::log(a / (us * us) + b) <=
          -lambda + static_cast<double>(k) * loglam - std::lgamma(static_cast<double>(k) + 1))
        return k;
    }
  }
  if (lambda == 0) return 0;
  const double threshold = std::exp(-lambda);
  int64_t count = 0;
  for (double prod = uniform01(e); prod > threshold; prod *= uniform01(e)) ++count;
  return count;
}

// log(k!) minus its Stirling approximation (k + 1/2) log(k + 1) - (k + 1) + log(2 pi) / 2, the
// correction BTRS adds to its bound: exact values below 10, the asymptotic series above.
double stirling_tail(double k) {
  if (k <= 9) {  // PyTorch indexes a table by the truncated k
    const double kt = std::trunc(k), kp1 = kt + 1;
    return std::lgamma(kp1) - ((kt + 0.5) * std::log(kp1) - kp1 + 0.5 * std::log(2 * M_PI));
  }
  const double kp1sq = (k + 1) * (k + 1);
  return (1.0 / 12 - (1.0 / 360 - 1.0 / 1260 / kp1sq) / kp1sq) / (k + 1);
}

// Geometric waiting times summed until they pass `count`: for count * prob < 10.
template <typename T>
T binomial_inversion(T count, T prob, CpuEngine& e) {
  const double log_q = std::log1p(-prob);
  double waited = 0;
  T successes = 0;
  for (;;) {
    waited += std::ceil(std::log(uniform01(e)) / log_q);
    if (waited > count) return successes;
    successes = successes + 1;
  }
}

// Hoermann's BTRS transformed rejection, for count * prob >= 10 (prob <= 1/2).
template <typename T>
T binomial_btrs(T count, T prob, CpuEngine& e) {
  const double stddev = std::sqrt(count * prob * (1 - prob));
  const double b = 1.15 + 2.53 * stddev;
  const double a = -0.0873 + 0.0248 * b + 0.01 * prob;
  const double c = count * prob + 0.5;
  const double v_r = 0.92 - 4.2 / b;
  const double r = prob / (1 - prob);
  const double alpha = (2.83 + 5.1 / b) * stddev;
  const double m = std::floor((count + 1) * prob);
  for (;;) {
    const double u = uniform01(e) - 0.5;
    double v = uniform01(e);
    const double us = 0.5 - std::fabs(u);
    const T k = static_cast<T>(std::floor((2 * a / us + b) * u + c));
    if (k < 0 || k > count) continue;
    if (us >= 0.07 && v <= v_r) return k;
    v = std::log(v * alpha / (a / (us * us) + b));
    const double bound = (m + 0.5) * std::log((m + 1) / (r * (count - m + 1))) +
                         (count + 1) * std::log((count - m + 1) / (count - k + 1)) +
                         (k + 0.5) * std::log(r * (count - k + 1) / (k + 1)) + stirling_tail(m) +
                         stirling_tail(count - m) - stirling_tail(k) - stirling_tail(count - k);
    if (v <= bound) return k;
  }
}

template <typename T>
T sample_binomial(T count, T prob, CpuEngine& e) {
  if (count <= 0 || prob <= 0) return 0;
  if (prob >= 1) return count;
  if (prob <= 0.5) return count * prob >= 10 ? binomial_btrs(count, prob, e) : binomial_inversion(count, prob, e);
  const T q = 1 - prob;
  return count - (count * q >= 10 ? binomial_btrs(count, q, e) : binomial_inversion(count, q, e));
}

// Marsaglia and Tsang's rejection sampler for Gamma(alpha, 1); alpha < 1 is boosted to alpha + 1
// and the draw scaled by U^(1/alpha). Types as ATen's (Note [Sampler arithmetic]).
template <typename T>
T sample_gamma(T alpha, CpuEngine& e) {
  double scale = 1.0f;
  if (alpha < 1.0f) {
    if (alpha == 0.f) return 0.f;
    scale *= std::pow(1 - uniform01(e), 1.0f / alpha);
    alpha += 1.0f;
  }
  const double d = alpha - 1.0f / 3.0f;
  const double c = 1.0f / std::sqrt(9.0f * d);
  for (;;) {
    double x, y;
    do {
      x = normal_draw(e, 0.0, 1.0);
      y = 1.0f + c * x;
    } while (y <= 0);
    const double v = y * y * y;
    const double u = 1 - uniform01(e);
    const double xx = x * x;
    if (u < 1.0f - 0.0331f * xx * xx) return static_cast<T>(scale * d * v);
    if (std::log(u) < 0.5f * xx + d * (1.0f - v + std::log(v))) return static_cast<T>(scale * d * v);
  }
}

// digamma by recurrence up to 10 and the asymptotic series there (the form ATen's gamma
// gradient uses; it differs from ops' digamma in the last bits).
double digamma_series(double x) {
  if (x == 0) return INFINITY;
  double reflection = 0;
  if (x < 0) {
    if (x == std::floor(x)) return INFINITY;
    reflection = -M_PI / std::tan(M_PI * x);
    x = 1 - x;
  }
  double result = 0;
  while (x < 10) {
    result -= 1 / x;
    x += 1;
  }
  if (x == 10) return result + 2.25175258906672110764 + reflection;  // digamma(10)
  // Bernoulli-number coefficients B_2k / (2k), highest order first, in 1/x^2.
  static constexpr double kCoef[] = {8.33333333333333333333E-2,  -2.10927960927960927961E-2, 7.57575757575757575758E-3,
                                     -4.16666666666666666667E-3, 3.96825396825396825397E-3,  -8.33333333333333333333E-3,
                                     8.33333333333333333333E-2};
  double tail = 0;
  if (x < 1.0e17f) {
    const double z = 1.0 / (x * x);
    double p = 0;
    for (double coef : kCoef) p = p * z + coef;
    tail = z * p;
  }
  return result + std::log(x) - (0.5f / x) - tail + reflection;
}

// -(dF/dalpha) / pdf at a draw x of Gamma(alpha, 1) (Note [Sampler arithmetic]).
template <typename T>
T standard_gamma_grad_one(T alpha_in, T x_in) {
  const auto x = static_cast<double>(x_in), alpha = static_cast<double>(alpha_in);
  if (x < 0.8f) {  // Taylor series of the lower incomplete gamma function in x
    double numer = 1, denom = alpha;
    double series1 = numer / denom, series2 = numer / (denom * denom);
    for (int i = 1; i <= 5; ++i) {
      numer *= -x / static_cast<double>(i);
      denom += 1;
      series1 += numer / denom;
      series2 += numer / (denom * denom);
    }
    const double pow_x_alpha = std::pow(x, alpha);
    const double pdf = std::pow(x, alpha - 1) * std::exp(-x);
    const double cdf = pow_x_alpha * series1;
    const double cdf_alpha = (std::log(x) - digamma_series(alpha)) * cdf - pow_x_alpha * series2;
    const double result = -cdf_alpha / pdf;
    return std::isnan(result) ? static_cast<T>(0.f) : static_cast<T>(result);
  }
  if (alpha > 8.0f) {  // Rice's saddle-point expansion
    if (0.9f * alpha <= x && x <= 1.1f * alpha) {
      const double numer_1 = 1 + 24 * alpha * (1 + 12 * alpha);
      const double numer_2 =
          1440 * (alpha * alpha) + 6 * x * (53 - 120 * x) - 65 * x * x / alpha + alpha * (107 + 3600 * x);
      const double denom = 1244160 * (alpha * alpha) * (alpha * alpha);
      return static_cast<T>(numer_1 * numer_2 / denom);
    }
    const double denom = std::sqrt(8 * alpha);
    const double term2 = denom / (alpha - x);
    const double term3 = std::pow(x - alpha - alpha * std::log(x / alpha), -1.5);
    const double term23 = x < alpha ? term2 - term3 : term2 + term3;
    const double term1 =
        std::log(x / alpha) * term23 - std::sqrt(2 / alpha) * (alpha + x) / ((alpha - x) * (alpha - x));
    const double stirling = 1 + 1 / (12 * alpha) * (1 + 1 / (24 * alpha));
    return static_cast<T>(-stirling * (x * term1) / denom);
  }
  // A bivariate rational fit in u = log(x / alpha), v = log(alpha) (Jankowiak and Obermeyer,
  // "Pathwise derivatives beyond the reparameterization trick", 2018): p(v) / q(v) with
  // coefficients quadratic in u.
  static constexpr double kFit[3][8] = {
      {0.16009398, -0.094634809, 0.025146376, -0.0030648343, 1, 0.32668115, 0.10406089, 0.0014179084},
      {0.53487893, 0.1298071, 0.065735949, -0.0015649758, 0.16639465, 0.020070113, -0.0035938915, -0.00058392623},
      {0.040121004, -0.0065914022, -0.0026286047, -0.0013441777, 0.017050642, -0.0021309326, 0.00085092367,
       -1.5247877e-07},
  };
  const double u = std::log(x / alpha), v = std::log(alpha);
  double coef[8];
  for (int i = 0; i < 8; ++i) coef[i] = kFit[0][i] + u * (kFit[1][i] + u * kFit[2][i]);
  const double p = coef[0] + v * (coef[1] + v * (coef[2] + v * coef[3]));
  const double q = coef[4] + v * (coef[5] + v * (coef[6] + v * coef[7]));
  return static_cast<T>(std::exp(p / q));
}

// Under vmap: PyTorch's refusals first (the "error" randomness mode, "same" with a batched
// argument), then Ember's own: these samplers have no batching rule yet.
void refuse_vmap(const char* op, std::initializer_list<const Tensor*> inputs) {
  if (!batching::random_in_vmap()) return;
  batching::check_random_inputs(op, inputs);
  EMBER_ERROR(op, ": is not supported under vmap with randomness='different' or 'same'; draw outside it");
}

void check_sampler_input(const char* op, const Tensor& t) {
  EMBER_CHECK(t.defined(), op, ": expected a defined tensor");
  EMBER_CHECK(t.scalar_type() == kFloat || t.scalar_type() == kDouble, op, ": not implemented for ", t.dtype(),
              " (float and double only, as PyTorch's CPU kernel)");
  refuse_vmap(op, {&t});
}

template <typename F>
void for_float_or_double(ScalarType t, F&& f) {
  if (t == kFloat)
    f(float{});
  else
    f(double{});
}

}  // namespace

Tensor poisson(const Tensor& rates, OptGen g) {
  EMBER_CHECK(rates.defined(), "poisson: expected a defined tensor");
  EMBER_CHECK(rates.is_floating_point(), "poisson: not implemented for ", rates.dtype(), " (floating rates only)");
  refuse_vmap("poisson", {&rates});
  EMBER_RECORD_OP("poisson", rates);
  const Tensor r = rates.detach().to(kDouble).contiguous();
  const double* pr = r.data_ptr<double>();
  // PyTorch checks rate >= 0 (NaN fails it); an infinite rate would never leave its rejection loop.
  for (int64_t i = 0; i < r.numel(); ++i)
    EMBER_CHECK(pr[i] >= 0 && std::isfinite(pr[i]),
                "poisson: invalid Poisson rate, expected rate to be finite and non-negative (got ", pr[i], ")");
  Tensor drawn = empty(r.sizes(), TensorOptions(kDouble));
  double* po = drawn.data_ptr<double>();
  gen_or_default(g).with_engine([&](CpuEngine& e) {
    for (int64_t i = 0; i < r.numel(); ++i) po[i] = static_cast<double>(sample_poisson(pr[i], e));
  });
  Tensor out = drawn.to(rates.scalar_type());
  if (autograd::needs_grad(rates)) autograd::record_poisson(rates, out);
  return out;
}

Tensor binomial(const Tensor& count, const Tensor& prob, OptGen g) {
  EMBER_CHECK(count.defined() && prob.defined(), "binomial: expected defined tensors");
  EMBER_CHECK(count.is_floating_point() && count.scalar_type() == prob.scalar_type(),
              "binomial: expects count and prob of one floating dtype, got ", count.dtype(), " and ", prob.dtype());
  refuse_vmap("binomial", {&count, &prob});
  EMBER_RECORD_OP("binomial", count, prob);
  const DimVector shape = ember::broadcast_shapes(count.sizes(), prob.sizes(), "binomial");
  // The 16-bit types draw in float, as their opmath type.
  const ScalarType compute = count.scalar_type() == kDouble ? kDouble : kFloat;
  Tensor out = empty(shape, TensorOptions(compute));
  for_float_or_double(compute, [&](auto zero) {
    using T = decltype(zero);
    const Tensor n = count.detach().to(compute).expand(shape).contiguous();
    const Tensor p = prob.detach().to(compute).expand(shape).contiguous();
    const T* pn = n.data_ptr<T>();
    const T* pp = p.data_ptr<T>();
    T* po = out.data_ptr<T>();
    for (int64_t i = 0; i < out.numel(); ++i) {
      // PyTorch's loops would never end on these; NaN in gives NaN out instead.
      EMBER_CHECK(std::isnan(pn[i]) || std::isnan(pp[i]) || std::isfinite(pn[i]),
                  "binomial: count must be finite, got ", pn[i]);
    }
    gen_or_default(g).with_engine([&](CpuEngine& e) {
      for (int64_t i = 0; i < out.numel(); ++i)
        po[i] = std::isnan(pn[i]) || std::isnan(pp[i]) ? pn[i] + pp[i] : sample_binomial<T>(pn[i], pp[i], e);
    });
  });
  out = out.to(count.scalar_type());
  if (autograd::needs_grad(count, prob))
    autograd::record_not_implemented("the derivative for 'binomial' is not implemented.", {count, prob}, out);
  return out;
}

Tensor _standard_gamma(const Tensor& self, OptGen g) {
  check_sampler_input("_standard_gamma", self);
  EMBER_RECORD_OP("_standard_gamma", self);
  const Tensor alpha = self.detach().contiguous();
  Tensor out = empty(alpha.sizes(), alpha.options());
  for_float_or_double(self.scalar_type(), [&](auto zero) {
    using T = decltype(zero);
    const T* pa = alpha.data_ptr<T>();
    T* po = out.data_ptr<T>();
    gen_or_default(g).with_engine([&](CpuEngine& e) {
      for (int64_t i = 0; i < alpha.numel(); ++i)
        po[i] = std::max(std::numeric_limits<T>::min(), sample_gamma<T>(pa[i], e));
    });
  });
  if (autograd::needs_grad(self)) autograd::record_standard_gamma(self, out);
  return out;
}

Tensor _standard_gamma_grad(const Tensor& self, const Tensor& output) {
  check_sampler_input("_standard_gamma_grad", self);
  EMBER_CHECK(output.defined() && output.scalar_type() == self.scalar_type(),
              "_standard_gamma_grad: expected self and output of one dtype, got ", self.dtype(), " and ",
              output.defined() ? dtype_name(output.dtype()) : "an undefined tensor");
  EMBER_RECORD_OP("_standard_gamma_grad", self, output);
  const DimVector shape = ember::broadcast_shapes(self.sizes(), output.sizes(), "_standard_gamma_grad");
  const Tensor a = self.detach().expand(shape).contiguous(), x = output.detach().expand(shape).contiguous();
  Tensor out = empty(shape, self.options().requires_grad(false));
  for_float_or_double(self.scalar_type(), [&](auto zero) {
    using T = decltype(zero);
    const T* pa = a.data_ptr<T>();
    const T* px = x.data_ptr<T>();
    T* po = out.data_ptr<T>();
    for (int64_t i = 0; i < out.numel(); ++i) po[i] = standard_gamma_grad_one<T>(pa[i], px[i]);
  });
  if (autograd::needs_grad(self, output))
    autograd::record_not_implemented("the derivative for '_standard_gamma_grad' is not implemented.", {self, output},
                                     out);
  return out;
}

Tensor _sample_dirichlet(const Tensor& self, OptGen g) {
  check_sampler_input("_sample_dirichlet", self);
  EMBER_CHECK(self.dim() >= 1, "_sample_dirichlet: expected at least one dimension (the simplex), got a scalar");
  EMBER_RECORD_OP("_sample_dirichlet", self);
  // Gamma draws in double whatever the dtype, so that small alphas do not underflow.
  const Tensor alpha = self.detach().to(kDouble).contiguous();
  Tensor gamma = empty(alpha.sizes(), TensorOptions(kDouble));
  {
    const double* pa = alpha.data_ptr<double>();
    double* pg = gamma.data_ptr<double>();
    gen_or_default(g).with_engine([&](CpuEngine& e) {
      for (int64_t i = 0; i < alpha.numel(); ++i)
        pg[i] = std::max(std::numeric_limits<double>::min(), sample_gamma<double>(pa[i], e));
    });
  }
  const Tensor total = gamma.sum({-1}, /*keepdim=*/true).expand(alpha.sizes()).contiguous();
  Tensor out = empty(alpha.sizes(), self.options().requires_grad(false));
  for_float_or_double(self.scalar_type(), [&](auto zero) {
    using T = decltype(zero);
    const double* pg = gamma.data_ptr<double>();
    const double* pt = total.data_ptr<double>();
    T* po = out.data_ptr<T>();
    const T lo = std::numeric_limits<T>::min(), hi = std::nextafter(T(1), T(0));
    for (int64_t i = 0; i < out.numel(); ++i) po[i] = std::min(hi, std::max(lo, static_cast<T>(pg[i] / pt[i])));
  });
  if (autograd::needs_grad(self))
    autograd::record_not_implemented("the derivative for '_sample_dirichlet' is not implemented.", {self}, out);
  return out;
}

}  // namespace torch
