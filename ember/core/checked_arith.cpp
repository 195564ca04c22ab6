// Checked size arithmetic (Note [Checked size arithmetic]).
#include "ember/core/checked_arith.h"

#include <cmath>

#include "ember/core/error.h"

namespace torch {

void detail::raise_size_overflow(const char* op, const char* what, int64_t a, char sign, int64_t b) {
  EMBER_ERROR(op, ": ", what, " overflows int64 (", a, " ", sign, " ", b, ")");
}

int64_t checked_double_to_size(double v, const char* op, const char* what) {
  // 2^63 is exactly representable; every double below it converts exactly.
  EMBER_CHECK(!std::isnan(v) && v >= -9223372036854775808.0 && v < 9223372036854775808.0, op, ": ", what, " ", v,
              " does not fit in int64");
  return static_cast<int64_t>(v);
}

}  // namespace torch
