#include "ember/vision/transforms/random_draws.h"

#include <algorithm>

#include "ember/core/error.h"

namespace torch::vision::transforms::detail {

double sample_gamma(double a) {
  EMBER_CHECK(a > 0 && std::isfinite(a), "sample_gamma: the concentration must be positive, got ", a);
  if (a < 1.0) {
    // Gamma(a) = Gamma(a + 1) * U^(1 / a).
    const double u = rand({1}, kDouble).item<double>();
    return sample_gamma(a + 1.0) * std::pow(std::max(u, 1e-300), 1.0 / a);
  }
  const double d = a - 1.0 / 3.0, c = 1.0 / std::sqrt(9.0 * d);
  for (;;) {
    const double x = randn({1}, kDouble).item<double>();
    double v = 1.0 + c * x;
    if (v <= 0) continue;
    v = v * v * v;
    const double u = rand({1}, kDouble).item<double>();
    if (std::log(std::max(u, 1e-300)) < 0.5 * x * x + d - d * v + d * std::log(v)) return d * v;
  }
}

}  // namespace torch::vision::transforms::detail
