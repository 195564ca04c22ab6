// Special functions the C++ library lacks: erfinv and digamma.
#include <cmath>
#include <limits>

#include "ember/kernels/cpu/unary_kernels_scalar.h"

namespace torch::kernels::scalar {

// Giles' single-precision approximation ("Approximating the erfinv function",
// GPU Computing Gems, 2011) as a start, then two Newton steps on erf(x) = y,
// which bring it to double precision (PyTorch also finishes with Newton steps).
double erfinv_double(double y) {
  if (std::isnan(y) || y < -1.0 || y > 1.0) return std::numeric_limits<double>::quiet_NaN();
  if (y == 1.0) return std::numeric_limits<double>::infinity();
  if (y == -1.0) return -std::numeric_limits<double>::infinity();
  if (y == 0.0) return y;  // keeps the sign of -0
  double w = -std::log((1.0 - y) * (1.0 + y));
  double p;
  if (w < 5.0) {
    w -= 2.5;
    p = 2.81022636e-08;
    p = 3.43273939e-07 + p * w;
    p = -3.5233877e-06 + p * w;
    p = -4.39150654e-06 + p * w;
    p = 0.00021858087 + p * w;
    p = -0.00125372503 + p * w;
    p = -0.00417768164 + p * w;
    p = 0.246640727 + p * w;
    p = 1.50140941 + p * w;
  } else {
    w = std::sqrt(w) - 3.0;
    p = -0.000200214257;
    p = 0.000100950558 + p * w;
    p = 0.00134934322 + p * w;
    p = -0.00367342844 + p * w;
    p = 0.00573950773 + p * w;
    p = -0.0076224613 + p * w;
    p = 0.00943887047 + p * w;
    p = 1.00167406 + p * w;
    p = 2.83297682 + p * w;
  }
  double x = p * y;
  constexpr double kTwoOverSqrtPi = 1.12837916709551257390;
  if (std::fabs(y) < 0.5) {
    for (int i = 0; i < 2; ++i) x -= (std::erf(x) - y) / (kTwoOverSqrtPi * std::exp(-x * x));
    return x;
  }
  // Near +-1, erf(x) - y cancels. Solve log(erfc(|x|)) = log(1 - |y|) instead:
  // 1 - |y| is exact for |y| >= 0.5 (Sterbenz), erfc keeps full relative
  // accuracy in the tail, and in log form Newton converges quadratically even
  // from the float-precision guess far in the tail (1 - |y| below 1e-12), where
  // the plain erfc equation creeps by 1/(2x) per step.
  const double q = 1.0 - std::fabs(y), log_q = std::log(q);
  double a = std::fabs(x);
  for (int i = 0; i < 50; ++i) {
    const double e = std::erfc(a);
    const double step = (std::log(e) - log_q) * e / (kTwoOverSqrtPi * std::exp(-a * a));
    a += step;
    if (std::fabs(step) <= 1e-16 * a) break;
  }
  return std::copysign(a, y);
}

// Cephes' psi as used by PyTorch: reflection for x < 0, recurrence up to 10,
// then the asymptotic series.
double digamma_double(double x) {
  constexpr double kPi = 3.14159265358979323846;
  constexpr double kPsi10 = 2.25175258906672110764;
  if (x == 0) return std::copysign(std::numeric_limits<double>::infinity(), -x);
  if (x < 0) {
    if (x == std::trunc(x)) return std::numeric_limits<double>::quiet_NaN();
    double q;
    double r = std::modf(x, &q);
    return digamma_double(1 - x) - kPi / std::tan(kPi * r);
  }
  double result = 0;
  while (x < 10) {
    result -= 1 / x;
    x += 1;
  }
  if (x == 10) return result + kPsi10;
  static constexpr double kA[] = {8.33333333333333333333E-2,  -2.10927960927960927961E-2, 7.57575757575757575758E-3,
                                  -4.16666666666666666667E-3, 3.96825396825396825397E-3,  -8.33333333333333333333E-3,
                                  8.33333333333333333333E-2};
  double y = 0;
  if (x < 1.0e17) {
    double z = 1.0 / (x * x);
    double poly = kA[0];
    for (int i = 1; i < 7; ++i) poly = poly * z + kA[i];
    y = z * poly;
  }
  return result + std::log(x) - (0.5 / x) - y;
}

}  // namespace torch::kernels::scalar
