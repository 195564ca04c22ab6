#pragma once
// The element-wise reductions Gloo calls on its segments, one per dtype and
// ReduceOp. Bool reduces as c10d's does: SUM and MAX are OR, PRODUCT and MIN
// are AND. Complex tensors reduce as pairs of reals (SUM only).
#include <functional>

#include "ember/core/dtype.h"
#include "ember/distributed/types.h"

namespace torch::distributed::gloo_detail {

using ReduceFn = std::function<void(void*, const void*, const void*, size_t)>;

// Raises an ember::Error naming `op_name` when the pair is not supported.
ReduceFn reduce_function(ScalarType dtype, ReduceOp op, const char* op_name);

// How many elements Gloo sees for numel elements of dtype, and their size
// (complex: two reals each).
size_t wire_elements(ScalarType dtype, size_t numel);
size_t wire_element_size(ScalarType dtype);

// Calls f(T{}) with an unsigned integer or floating type of dtype's wire element size.
template <typename F>
void with_wire_type(ScalarType dtype, F&& f) {
  switch (wire_element_size(dtype)) {
    case 1:
      f(uint8_t{});
      break;
    case 2:
      f(uint16_t{});
      break;
    case 4:
      f(uint32_t{});
      break;
    default:
      f(uint64_t{});
      break;
  }
}

}  // namespace torch::distributed::gloo_detail
