#include "ember/ops/shape/triangle_indices.h"

#include <algorithm>

#include "ember/core/dispatch.h"
#include "ember/core/error.h"
#include "ember/ops/factory/factory.h"

namespace torch {

namespace {
Tensor triangle_indices(const char* op, int64_t row, int64_t col, int64_t offset, const TensorOptions& options,
                        bool lower) {
  EMBER_CHECK(row >= 0, op, ": row must be non-negative, got ", row);
  EMBER_CHECK(col >= 0, op, ": col must be non-negative, got ", col);
  const ScalarType dt = options.has_dtype() ? options.dtype() : kLong;
  EMBER_CHECK(dt == kLong || dt == kInt, op, ": only int32 and int64 results are supported, got ", dt);
  EMBER_CHECK(!options.requires_grad(), op, ": an index tensor cannot require grad");
  // Row i holds columns [begin, end): [0, i + offset + 1) below, [i + offset, col) above.
  // In 128 bits: i + offset of two int64s can overflow (Note [Checked size arithmetic]).
  using Wide = __int128;
  auto clamp_col = [&](Wide v) { return static_cast<int64_t>(std::clamp<Wide>(v, 0, col)); };
  auto range = [&](int64_t i) {
    const int64_t b = lower ? 0 : clamp_col(Wide(i) + offset);
    const int64_t e = lower ? clamp_col(Wide(i) + offset + 1) : col;
    return std::pair<int64_t, int64_t>{b, e};
  };
  // The count in closed form, so that a huge row count with few indices does not
  // loop over every row: sum over v in [lo, hi) of clamp(v, 0, col) is G(hi) - G(lo).
  using UWide = unsigned __int128;
  auto G = [&](Wide x) -> UWide {  // sum over v in [0, x) of clamp(v, 0, col)
    if (x <= 0) return 0;
    const UWide c = UWide(col), ux = UWide(x);
    if (ux <= c + 1) return ux * (ux - 1) / 2;
    return c * (c + 1) / 2 + (ux - 1 - c) * c;
  };
  const Wide lo = lower ? Wide(offset) + 1 : Wide(offset);
  const UWide clamped_sum = G(lo + row) - G(lo);
  const UWide count = lower ? clamped_sum : UWide(row) * UWide(col) - clamped_sum;
  EMBER_CHECK(count <= UWide(INT64_MAX / 2), op, ": the number of indices for row=", row, ", col=", col,
              ", offset=", offset, " overflows int64");
  const int64_t n = static_cast<int64_t>(count);
  // Only rows holding at least one index are visited (with col > 0 every row in
  // [first_row, end_row) holds one; with col == 0 none does).
  const int64_t first_row = lower ? static_cast<int64_t>(std::clamp<Wide>(-Wide(offset), 0, row)) : 0;
  const int64_t end_row = n == 0  ? first_row
                          : lower ? row
                                  : static_cast<int64_t>(std::clamp<Wide>(Wide(col) - offset, 0, row));
  Tensor out = empty({2, n}, TensorOptions(dt));
  dispatch_integral(dt, op, [&](auto tag) {
    using T = EMBER_TYPE(tag);
    T* rows = out.data_ptr<T>();
    T* cols = rows + n;
    int64_t k = 0;
    for (int64_t i = first_row; i < end_row; ++i) {
      const auto [b, e] = range(i);
      for (int64_t j = b; j < e; ++j, ++k) {
        rows[k] = static_cast<T>(i);
        cols[k] = static_cast<T>(j);
      }
    }
  });
  return out;
}
}  // namespace

Tensor tril_indices(int64_t row, int64_t col, int64_t offset, const TensorOptions& options) {
  return triangle_indices("tril_indices", row, col, offset, options, true);
}
Tensor triu_indices(int64_t row, int64_t col, int64_t offset, const TensorOptions& options) {
  return triangle_indices("triu_indices", row, col, offset, options, false);
}

}  // namespace torch
