#include "ember/distributed/gloo/reduce_fn.h"

#include <algorithm>

#include "ember/core/error.h"
#include "ember/core/half.h"

namespace torch::distributed::gloo_detail {
namespace {

template <typename T, typename Op>
ReduceFn elementwise(Op op) {
  return [op](void* c, const void* a, const void* b, size_t n) {
    auto* out = static_cast<T*>(c);
    const auto* x = static_cast<const T*>(a);
    const auto* y = static_cast<const T*>(b);
    for (size_t i = 0; i < n; ++i) out[i] = op(x[i], y[i]);
  };
}

// 16-bit floats reduce in float and round once, as c10d's Half arithmetic does.
template <typename T, typename Op>
ReduceFn elementwise_16(Op op) {
  return elementwise<T>([op](T x, T y) { return T(op(static_cast<float>(x), static_cast<float>(y))); });
}

template <typename T>
ReduceFn arithmetic(ReduceOp op, bool sixteen) {
  auto sum = [](auto x, auto y) { return x + y; };
  auto prod = [](auto x, auto y) { return x * y; };
  auto mn = [](auto x, auto y) { return std::min(x, y); };
  auto mx = [](auto x, auto y) { return std::max(x, y); };
  if constexpr (std::is_same_v<T, Half> || std::is_same_v<T, BFloat16>) {
    switch (op) {
      case ReduceOp::SUM:
      case ReduceOp::AVG:
        return elementwise_16<T>(sum);
      case ReduceOp::PRODUCT:
        return elementwise_16<T>(prod);
      case ReduceOp::MIN:
        return elementwise_16<T>(mn);
      case ReduceOp::MAX:
        return elementwise_16<T>(mx);
      default:
        return nullptr;
    }
  } else {
    (void)sixteen;
    switch (op) {
      case ReduceOp::SUM:
      case ReduceOp::AVG:
        return elementwise<T>([](T x, T y) { return static_cast<T>(x + y); });
      case ReduceOp::PRODUCT:
        return elementwise<T>([](T x, T y) { return static_cast<T>(x * y); });
      case ReduceOp::MIN:
        return elementwise<T>(mn);
      case ReduceOp::MAX:
        return elementwise<T>(mx);
      default:
        break;
    }
    if constexpr (std::is_integral_v<T>) {
      switch (op) {
        case ReduceOp::BAND:
          return elementwise<T>([](T x, T y) { return static_cast<T>(x & y); });
        case ReduceOp::BOR:
          return elementwise<T>([](T x, T y) { return static_cast<T>(x | y); });
        case ReduceOp::BXOR:
          return elementwise<T>([](T x, T y) { return static_cast<T>(x ^ y); });
        default:
          break;
      }
    }
    (void)sum;
    (void)prod;
    return nullptr;
  }
}

ReduceFn boolean(ReduceOp op) {
  auto orf = elementwise<uint8_t>([](uint8_t x, uint8_t y) { return uint8_t((x | y) != 0); });
  auto andf = elementwise<uint8_t>([](uint8_t x, uint8_t y) { return uint8_t(x != 0 && y != 0); });
  switch (op) {
    case ReduceOp::SUM:
    case ReduceOp::MAX:
    case ReduceOp::BOR:
      return orf;
    case ReduceOp::PRODUCT:
    case ReduceOp::MIN:
    case ReduceOp::BAND:
      return andf;
    case ReduceOp::BXOR:
      return elementwise<uint8_t>([](uint8_t x, uint8_t y) { return uint8_t((x != 0) != (y != 0)); });
    default:
      return nullptr;
  }
}

}  // namespace

size_t wire_element_size(ScalarType dtype) { return is_complex(dtype) ? element_size(dtype) / 2 : element_size(dtype); }
size_t wire_elements(ScalarType dtype, size_t numel) { return is_complex(dtype) ? numel * 2 : numel; }

ReduceFn reduce_function(ScalarType dtype, ReduceOp op, const char* op_name) {
  ReduceFn fn;
  switch (dtype) {
    case kByte:
      fn = arithmetic<uint8_t>(op, false);
      break;
    case kChar:
      fn = arithmetic<int8_t>(op, false);
      break;
    case kShort:
      fn = arithmetic<int16_t>(op, false);
      break;
    case kInt:
      fn = arithmetic<int32_t>(op, false);
      break;
    case kLong:
      fn = arithmetic<int64_t>(op, false);
      break;
    case kHalf:
      fn = arithmetic<Half>(op, true);
      break;
    case kBFloat16:
      fn = arithmetic<BFloat16>(op, true);
      break;
    case kFloat:
      fn = arithmetic<float>(op, false);
      break;
    case kDouble:
      fn = arithmetic<double>(op, false);
      break;
    case kComplexFloat:
      if (op == ReduceOp::SUM || op == ReduceOp::AVG) fn = arithmetic<float>(op, false);
      break;
    case kComplexDouble:
      if (op == ReduceOp::SUM || op == ReduceOp::AVG) fn = arithmetic<double>(op, false);
      break;
    case kBool:
      if (op != ReduceOp::AVG) fn = boolean(op);
      break;
    default:
      break;
  }
  EMBER_CHECK(fn != nullptr, op_name, ": ReduceOp.", reduce_op_name(op), " is not supported for tensors of dtype ",
              dtype_name(dtype));
  EMBER_CHECK(op != ReduceOp::AVG || is_floating_point(dtype) || is_complex(dtype), op_name,
              ": ReduceOp.AVG needs a floating or complex tensor, got ", dtype_name(dtype));
  return fn;
}

}  // namespace torch::distributed::gloo_detail
