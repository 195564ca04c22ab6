#include "ember/ops/shape/triangle_indices.h"

#include <algorithm>

#include "ember/core/dispatch.h"
#include "ember/core/error.h"
#include "ember/ops/factory/factory.h"

namespace ember {

namespace {
Tensor triangle_indices(const char* op, int64_t row, int64_t col, int64_t offset, const TensorOptions& options,
                        bool lower) {
  EMBER_CHECK(row >= 0, op, ": row must be non-negative, got ", row);
  EMBER_CHECK(col >= 0, op, ": col must be non-negative, got ", col);
  const ScalarType dt = options.has_dtype() ? options.dtype() : kLong;
  EMBER_CHECK(dt == kLong || dt == kInt, op, ": only int32 and int64 results are supported, got ", dt);
  EMBER_CHECK(!options.requires_grad(), op, ": an index tensor cannot require grad");
  // Row i holds columns [begin, end): [0, i + offset + 1) below, [i + offset, col) above.
  auto range = [&](int64_t i) {
    const int64_t b = lower ? 0 : std::clamp<int64_t>(i + offset, 0, col);
    const int64_t e = lower ? std::clamp<int64_t>(i + offset + 1, 0, col) : col;
    return std::pair<int64_t, int64_t>{b, e};
  };
  int64_t n = 0;
  for (int64_t i = 0; i < row; ++i) n += range(i).second - range(i).first;
  Tensor out = empty({2, n}, TensorOptions(dt));
  dispatch_integral(dt, op, [&](auto tag) {
    using T = EMBER_TYPE(tag);
    T* rows = out.data_ptr<T>();
    T* cols = rows + n;
    int64_t k = 0;
    for (int64_t i = 0; i < row; ++i) {
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

}  // namespace ember
