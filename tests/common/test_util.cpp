#include "common/test_util.h"

#include <cmath>
#include <sstream>

namespace torch::testing {

std::vector<double> to_vector(const Tensor& t) {
  Tensor c = t.is_complex() ? t.to(kComplexDouble).contiguous() : t.to(kDouble).contiguous();
  const double* p = static_cast<const double*>(c.data_ptr());
  return std::vector<double>(p, p + c.numel() * (t.is_complex() ? 2 : 1));
}

double default_rtol(ScalarType t) {
  switch (t) {
    case kHalf:
      return 1e-3;
    case kBFloat16:
      return 1.6e-2;
    case kFloat:
    case kComplexFloat:
      return 1.3e-6;
    case kDouble:
    case kComplexDouble:
      return 1e-7;
    default:
      return 0;
  }
}
double default_atol(ScalarType t) {
  switch (t) {
    case kHalf:
      return 1e-5;
    case kBFloat16:
      return 1e-5;
    case kFloat:
    case kComplexFloat:
      return 1e-5;
    case kDouble:
    case kComplexDouble:
      return 1e-7;
    default:
      return 0;
  }
}

::testing::AssertionResult tensors_close(const Tensor& a, const Tensor& e, double rtol, double atol, bool check_dtype) {
  if (a.defined() != e.defined()) return ::testing::AssertionFailure() << "one tensor is undefined";
  if (!a.defined()) return ::testing::AssertionSuccess();
  if (!a.sizes().equals(e.sizes()))
    return ::testing::AssertionFailure() << "shape " << a.sizes() << " != expected " << e.sizes();
  if (check_dtype && a.dtype() != e.dtype())
    return ::testing::AssertionFailure() << "dtype " << a.dtype() << " != expected " << e.dtype();
  std::vector<double> va = to_vector(a), ve = to_vector(e);
  if (va.size() != ve.size()) return ::testing::AssertionFailure() << "complexity differs";
  for (size_t i = 0; i < va.size(); ++i) {
    double x = va[i], y = ve[i];
    if (std::isnan(y) && std::isnan(x)) continue;
    if (std::isinf(y) || std::isinf(x)) {
      if (x == y) continue;
    } else if (std::fabs(x - y) <= atol + rtol * std::fabs(y)) {
      continue;
    }
    std::ostringstream os;
    os.precision(17);
    os << "mismatch at flat index " << (a.is_complex() ? i / 2 : i) << ": got " << x << ", expected " << y << " (rtol "
       << rtol << ", atol " << atol << "), dtype " << a.dtype() << ", shape " << a.sizes();
    return ::testing::AssertionFailure() << os.str();
  }
  return ::testing::AssertionSuccess();
}

}  // namespace torch::testing
